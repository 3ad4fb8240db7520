"""Samples and augmentation for the corner-index CNN (``scripts/train_cards_cnn.py``).

Samples are index proposals (``vision/cards_index.py``) of the training side of the fixed
``cards-real`` split, labelled as ``scripts/train_cards.py`` labels them: a proposal whose crop
holds a labelled corner box is that card, one away from every box is ``none`` (random ones, and
the ones a first model found hardest: the shipped perceptron, or a first CNN), and those in
between are left out.

Each sample is kept as a wider crop (:data:`SOURCE_EXPAND` times the proposal's box, at the
network's pixel density) so that every epoch can cut a fresh, differently spoilt view from it:
the real venues differ from these photos in light, blur, camera angle and what lies on the card,
and the network must not learn one look. :func:`augment` does that (see its docstring).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tableref.vision.cards_cnn import CNN_CROP, OnnxHeads, crop_index, preprocess
from tableref.vision.cards_data import CARD_NAMES, photos
from tableref.vision.cards_features import index_features_many
from tableref.vision.cards_index import Cropper, IndexProposal, find_glyphs, propose
from tableref.vision.cards_model import MLP

#: The stored crop covers this many times the proposal's box (room to move, turn and scale it).
SOURCE_EXPAND = 1.5
SOURCE = (round(CNN_CROP[0] * SOURCE_EXPAND), round(CNN_CROP[1] * SOURCE_EXPAND))


def _label(p: IndexProposal, boxes: Sequence[tuple[str, tuple[float, float, float, float]]]) -> str | None:
    """The perceptron's labelling rule, except that print on a joker or a card back is ``none``.

    The rule leaves out anything near a labelled box; a joker's "Joker" lettering and its figure
    are boxed too (class ``BLACK JOKER``/``RED JOKER``), and without them as negatives a first
    network read a joker as three clubs.
    """
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from train_cards import proposal_label

    lab = proposal_label(p, boxes)
    if lab is not None:
        return lab
    cards = [b for n, b in boxes if n in CARD_NAMES]
    others = [b for n, b in boxes if n not in CARD_NAMES]
    pts = p.corners()
    for b in cards:
        if (pts[:, 0].max() >= b[0] and pts[:, 0].min() <= b[2] and pts[:, 1].max() >= b[1]
                and pts[:, 1].min() <= b[3]):
            return None  # touches a real card's index: ambiguous, left out
    if any(b[0] <= p.cx <= b[2] and b[1] <= p.cy <= b[3] for b in others):
        return "none"
    return None


def collect(real: str | None, keep: Callable[[str], bool], hard_model: MLP | OnnxHeads | None, rng: np.random.Generator,
            negatives: int = 30, hard: int = 60, log: bool = True, proposer: Any = None) -> dict[str, Any]:
    """Source crops and labels of the chosen training-side photos (see the module docstring).

    ``proposer`` (a ``cards_proposer.IndexProposer``): its boxes' proposals are samples too, as the
    reader meets them at run time (crops centred on a box rather than on a pair of glyphs).
    """
    crops: list[np.ndarray] = []
    labels: list[str] = []
    stems: list[str] = []
    n_photos = 0
    for photo in photos(real, "train"):
        if not keep(photo.stem):
            continue
        image = cv2.imread(str(photo.path))
        if image is None:
            continue
        n_photos += 1
        props = propose(find_glyphs(image))
        if proposer is not None:
            from tableref.vision.cards_proposer import proposals_from_boxes

            props += proposals_from_boxes(image, proposer.boxes(image))
        cropper = Cropper(image)
        labs = [_label(p, photo.boxes) for p in props]
        negs = [p for p, lab in zip(props, labs, strict=True) if lab == "none"]
        chosen = [int(i) for i in rng.permutation(len(negs))[:negatives]]
        if hard_model is not None and negs:
            if isinstance(hard_model, OnnxHeads):
                f = preprocess(np.stack([crop_index(cropper, p) for p in negs]))
            else:
                f = index_features_many([cropper.crop(p) for p in negs], [cropper.glyph(p, "top") for p in negs],
                                        [cropper.glyph(p, "bottom") for p in negs])
            p_index = 1.0 - hard_model.predict(f)[0][:, -1]
            chosen = list(dict.fromkeys(chosen + [int(i) for i in np.argsort(-p_index)[:hard] if p_index[i] > 0.1]))
        for p, lab in zip(props, labs, strict=True):
            if lab is None or lab == "none":
                continue
            crops.append(crop_index(cropper, p, SOURCE, SOURCE_EXPAND))
            labels.append(lab)
            stems.append(photo.stem)
        for i in chosen:
            crops.append(crop_index(cropper, negs[i], SOURCE, SOURCE_EXPAND))
            labels.append("none")
            stems.append(photo.stem)
        if log and n_photos % 50 == 0:
            print(f"  {n_photos} photos, {len(crops)} samples", flush=True)
    return {"crops": np.stack(crops) if crops else np.zeros((0, SOURCE[1], SOURCE[0], 3), np.uint8),
            "labels": np.array(labels), "stems": np.array(stems)}


# -- augmentation ---------------------------------------------------------------------------------


def _geometry(rng: np.random.Generator, strength: float) -> np.ndarray:
    """A 3x3 map from the source crop to the network's crop: turned, scaled, moved, tilted."""
    sw, sh = SOURCE
    w, h = CNN_CROP
    a = math.radians(rng.normal(0.0, 7.0 * strength))
    s = float(np.exp(rng.normal(0.0, 0.10 * strength)))
    sx = s * float(np.exp(rng.normal(0.0, 0.06 * strength)))  # the stretched 640x640 export, other aspect ratios
    tx, ty = rng.normal(0.0, 0.06 * strength) * w, rng.normal(0.0, 0.05 * strength) * h
    c, si = math.cos(a), math.sin(a)
    to_centre = np.array([[1, 0, -sw / 2], [0, 1, -sh / 2], [0, 0, 1]], np.float64)
    rot = np.array([[c * sx, -si * s, 0], [si * sx, c * s, 0], [0, 0, 1]], np.float64)
    back = np.array([[1, 0, w / 2 + tx], [0, 1, h / 2 + ty], [0, 0, 1]], np.float64)
    m = back @ rot @ to_centre
    if rng.random() < 0.5:  # a tilted camera: a little perspective
        px, py = rng.normal(0.0, 0.002 * strength, 2)
        persp = np.array([[1, 0, 0], [0, 1, 0], [px, py, 1]], np.float64)
        m = back @ persp @ np.linalg.inv(back) @ m
    return m


def _occlude(img: np.ndarray, rng: np.random.Generator) -> None:
    """Something over part of the index: a fingertip, the edge of the next card, a shadow (in place)."""
    h, w = img.shape[:2]
    kind = rng.random()
    if kind < 0.4:  # a finger or a sleeve: a smooth blob of skin or cloth colour from one side
        colour = rng.choice([[120, 150, 200], [90, 120, 170], [60, 80, 120], [40, 40, 40], [200, 200, 210]])
        colour = np.clip(np.asarray(colour, np.float64) * rng.uniform(0.7, 1.2), 0, 255)
        cx = rng.choice([-0.2, 1.2]) * w if rng.random() < 0.5 else rng.uniform(0, w)
        cy = rng.uniform(0, h) if abs(cx - w / 2) > w / 2 else rng.choice([-0.2, 1.2]) * h
        axes = (int(rng.uniform(0.3, 0.6) * w), int(rng.uniform(0.3, 0.7) * h))
        mask = np.zeros((h, w), np.uint8)
        cv2.ellipse(mask, (int(cx), int(cy)), axes, float(rng.uniform(0, 180)), 0, 360, 1, -1)
        img[mask > 0] = colour
    elif kind < 0.75:  # the edge of an overlapping card: white paper beyond a straight line, a thin dark rim
        a = rng.uniform(0, 2 * math.pi)
        nx, ny = math.cos(a), math.sin(a)
        off = rng.uniform(0.25, 0.5) * (abs(nx) * w + abs(ny) * h)
        yy, xx = np.mgrid[0:h, 0:w]
        d = (xx - w / 2) * nx + (yy - h / 2) * ny - off
        paper = float(np.percentile(img, 95)) * rng.uniform(0.85, 1.05)
        img[d > 0] = np.clip(paper, 0, 255)
        img[np.abs(d) < 0.8] = np.clip(paper * 0.35, 0, 255)
    else:  # a shadow across part of it
        a = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:h, 0:w]
        d = (xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a) - rng.uniform(-0.3, 0.3) * w
        shade = np.where(d > 0, rng.uniform(0.45, 0.8), 1.0)
        img *= shade[..., None]


def augment(source: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """One spoilt view (CNN_CROP, BGR uint8) of a stored source crop.

    Geometry: turned, scaled, moved, stretched and tilted a little, as a proposal from another
    camera would frame it. Light: a colour cast and exposure per photo, a gamma, a shadow. Optics
    and coding: blur (focus or motion), a lower resolution blown up again, sensor noise, JPEG.
    Clutter: a fingertip, an overlapping card's edge. Each with its own chance, so some views
    stay clean.
    """
    w, h = CNN_CROP
    m = _geometry(rng, strength)
    img = cv2.warpPerspective(source, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    f = img.astype(np.float32)
    if rng.random() < 0.15:
        _occlude(f, rng)
    cast = rng.uniform(0.75, 1.15, 3) * rng.uniform(0.45, 1.15)
    f = f * cast[None, None, :] + rng.uniform(-15, 25)
    if rng.random() < 0.3:
        g = rng.uniform(0.7, 1.4)
        f = 255.0 * (np.clip(f, 0, 255) / 255.0) ** g
    r = rng.random()
    if r < 0.25:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.4, 1.3))
    elif r < 0.35:
        k = int(rng.integers(3, 6))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D(((k - 1) / 2, (k - 1) / 2), float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (k, k))
        f = cv2.filter2D(f, -1, kernel / max(float(kernel.sum()), 1e-6))
    if rng.random() < 0.2:
        s = rng.uniform(0.45, 0.8)
        small = cv2.resize(f, (max(4, round(w * s)), max(4, round(h * s))), interpolation=cv2.INTER_AREA)
        f = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        f = f + rng.normal(0.0, rng.uniform(1.0, 8.0), f.shape)
    out = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.25:
        q = int(rng.integers(35, 90))
        out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])[1], cv2.IMREAD_COLOR)
    return np.asarray(out, np.uint8)


def centre(source: np.ndarray) -> np.ndarray:
    """The unspoilt view: the proposal's own box, as the reader crops it at run time."""
    w, h = CNN_CROP
    sw, sh = SOURCE
    m = np.array([[1, 0, -(sw - w) / 2], [0, 1, -(sh - h) / 2]], np.float64)
    return np.asarray(cv2.warpAffine(source, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
                      np.uint8)
