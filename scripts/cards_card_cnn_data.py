"""Rendered whole-card samples for the card CNN (``scripts/train_cards_card_cnn.py``).

Why a separate file: rendering is the slow part (a few seconds a camera set-up on one core), so
the samples are drawn once, in chunks of seeds that can run side by side, and cached; training
then cuts freshly spoilt views from them every epoch.

The scenes are ``scripts/train_cards.py``'s (``render_samples``): every deck design, each seed's
own camera (height, tilt up to 35 degrees, lens), lamps, cloth, noise and JPEG at 720p, 1080p
and 1440p, cards overlapped by later cards, hands over and holding cards, and what the card
search itself finds (true cards, and hands or sleeves as ``none``). Each sample keeps its
image patch and its quad in patch pixels, so training can move the quad's corners, turn it a
half turn and spoil the pixels before rectifying (the reader's rectification, ``cards_features``).

    OMP_NUM_THREADS=1 .venv/bin/python scripts/cards_card_cnn_data.py --res 720 --seeds 0:24 --out /tmp/c720.pkl
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from train_cards import TRAIN_SEED0, VAL_SEED0, render_samples  # noqa: E402

from tableref.vision.cards_cnn import CARD_CNN_CROP  # noqa: E402
from tableref.vision.cards_features import order_quad, rectify  # noqa: E402

RES_ORDER = ("1080", "1440", "720")  # train_cards.py numbers seeds by sorted resolution name


def seed_of(res: str, k: int, val: bool = False) -> int:
    """The seed train_cards.py gives a resolution's ``k``-th camera set-up (training or validation)."""
    return (VAL_SEED0 if val else TRAIN_SEED0) + 1000 * sorted(RES_ORDER).index(res) + k


def collect(res: str, ks: Sequence[int], frames: int, val: bool = False, min_visible: float = 0.35) -> list[dict[str, Any]]:
    """Samples of the given set-ups; cards less than ``min_visible`` seen are dropped (unreadable)."""
    out: list[dict[str, Any]] = []
    for k in ks:
        seed = seed_of(res, k, val)
        for it in render_samples(seed, res, frames):
            if it["visible"] >= min_visible:
                it["seed"] = seed
                out.append(it)
    return out


# -- augmentation ---------------------------------------------------------------------------------

SKIN = ([120, 150, 200], [95, 125, 180], [70, 95, 140], [45, 60, 95], [150, 175, 215])


def _soft_mask(shape: tuple[int, int], draw: Any, rng: np.random.Generator) -> np.ndarray:
    m = np.zeros(shape, np.uint8)
    draw(m)
    f = m.astype(np.float32)
    return np.asarray(cv2.GaussianBlur(f, (0, 0), rng.uniform(0.5, 1.5)), np.float32)


def _clutter(f: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> None:
    """In place: a hand or sleeve touching the card, a later card over part of it, or a shadow."""
    h, w = f.shape[:2]
    c = quad.mean(axis=0)
    long_side = max(float(np.hypot(*(quad[i] - quad[(i + 1) % 4]))) for i in range(4))
    kind = rng.random()
    if kind < 0.45:  # fingers or a hand from outside the card, reaching over an edge or a corner
        edge = int(rng.integers(4))
        t = rng.uniform(0.0, 1.0)
        p = quad[edge] * (1 - t) + quad[(edge + 1) % 4] * t
        out = p - c
        out /= max(float(np.hypot(*out)), 1e-6)
        centre = p + out * rng.uniform(-0.15, 0.25) * long_side
        axes = (max(2, int(rng.uniform(0.12, 0.35) * long_side)), max(2, int(rng.uniform(0.25, 0.6) * long_side)))
        ang = math.degrees(math.atan2(out[1], out[0])) + 90 + rng.normal(0, 25)
        colour = np.asarray(SKIN[int(rng.integers(len(SKIN)))], np.float32) if rng.random() < 0.8 \
            else rng.uniform(20, 220, 3).astype(np.float32)
        colour = colour * rng.uniform(0.75, 1.2)
        m = _soft_mask((h, w), lambda mm: cv2.ellipse(mm, (int(centre[0]), int(centre[1])), axes, ang, 0, 360, 1, -1), rng)
        shade = 1.0 + 0.15 * (rng.random((h, w)).astype(np.float32) - 0.5)
        f[:] = f * (1 - m[..., None]) + (colour[None, None, :] * shade[..., None]) * m[..., None]
    elif kind < 0.8:  # a later card over part of this one: its paper, a rim, perhaps some of its print
        a = rng.uniform(0, 2 * math.pi)
        nx, ny = math.cos(a), math.sin(a)
        reach = 0.5 * long_side * rng.uniform(0.35, 0.9)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        d = (xx - c[0]) * nx + (yy - c[1]) * ny - reach
        paper = np.percentile(f.reshape(-1, 3), 95, axis=0) * rng.uniform(0.9, 1.08)
        m = np.clip(d + 0.5, 0, 1)[..., None]
        f[:] = f * (1 - m) + paper[None, None, :] * m
        rim = np.abs(d) < 0.7
        f[rim] *= rng.uniform(0.5, 0.85)
        if rng.random() < 0.6:  # a pip or a bit of a court figure of the later card
            ink = np.asarray([[30, 30, 200], [25, 25, 25], [40, 150, 200], [150, 60, 30]][int(rng.integers(4))], np.float32)
            for _ in range(int(rng.integers(1, 4))):
                px = c + np.array([nx, ny]) * (reach + rng.uniform(0.05, 0.3) * long_side) + rng.normal(0, 0.15, 2) * long_side
                r = max(1, int(rng.uniform(0.03, 0.08) * long_side))
                cv2.circle(f, (int(px[0]), int(px[1])), r, ink.tolist(), -1)
    else:  # a shadow: a hand above, the edge of the lamp's pool
        a = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        d = (xx - c[0]) * math.cos(a) + (yy - c[1]) * math.sin(a) - rng.uniform(-0.4, 0.4) * long_side
        soft = rng.uniform(0.5, 0.15 * long_side + 0.6)
        fall: Any = 1.0 / (1.0 + np.exp(-d / soft))
        f *= (1.0 - fall * rng.uniform(0.2, 0.55))[..., None]


def augment(patch: np.ndarray, quad: np.ndarray, rng: np.random.Generator, strength: float = 1.0,
            rectified: Callable[[np.ndarray, np.ndarray, bool], np.ndarray] | None = None) -> np.ndarray:
    """One spoilt view (CARD_CNN_CROP, BGR uint8) of a rendered card patch, rectified as the reader does
    (or as ``rectified(image, quad, half_turn)`` does, for a reader of another crop).

    Everything happens in the camera's pixels before rectifying, as a real venue spoils them:
    clutter (a hand or sleeve touching the card, a later card over part of it, a shadow), light
    (a colour cast and exposure, a falloff across the card, a gamma), optics (focus or motion
    blur, a coarser camera: the patch shrunk and blown up again), sensor noise and JPEG. The quad
    is then moved corner by corner (the card search's error) and read either way up. Each with
    its own chance, so some views stay clean.
    """
    q = np.asarray(quad, np.float64).copy()
    f: Any = patch.astype(np.float32)
    h, w = f.shape[:2]
    if rng.random() < 0.3 * strength:
        _clutter(f, q, rng)
    cast = rng.uniform(0.72, 1.2, 3) * rng.uniform(0.5, 1.25)
    f = f * cast[None, None, :] + rng.uniform(-20, 25)
    if rng.random() < 0.5:  # lamp falloff: a linear ramp across the patch
        a = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ramp = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
        f *= (1.0 + rng.uniform(0.1, 0.6) * ramp)[..., None]
    if rng.random() < 0.3:
        f = 255.0 * (np.clip(f, 0, 255) / 255.0) ** rng.uniform(0.7, 1.45)
    r = rng.random()
    if r < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.1))
    elif r < 0.4:
        k = int(rng.integers(3, 6))
        kernel: Any = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D(((k - 1) / 2, (k - 1) / 2), float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (k, k))
        f = cv2.filter2D(f, -1, kernel / max(float(kernel.sum()), 1e-6))
    if rng.random() < 0.35:  # a camera with fewer pixels on the card
        s = rng.uniform(0.6, 0.9)
        small = cv2.resize(f, (max(4, round(w * s)), max(4, round(h * s))), interpolation=cv2.INTER_AREA)
        f = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        f = f + rng.normal(0.0, rng.uniform(1.0, 7.0), f.shape)
    img: Any = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 90))])[1],
                           cv2.IMREAD_COLOR)
    short = min(float(np.hypot(*(q[i] - q[(i + 1) % 4]))) for i in range(4))
    c = q.mean(axis=0)
    q = c + (q - c) * float(np.exp(rng.normal(0.0, 0.025 * strength))) + rng.normal(0.0, 0.025 * strength * short, 2)
    q = q + rng.normal(0.0, 0.02 * strength * short, (4, 2))
    return (rectified or view)(img, q, bool(rng.random() < 0.5))


def view(img: np.ndarray, quad: np.ndarray, half_turn: bool = False) -> np.ndarray:
    """The card rectified as the reader does (``order_quad``), or the other way up."""
    q = order_quad(quad)
    if half_turn:
        q = np.roll(q, 2, axis=0)
    return rectify(img, q, CARD_CNN_CROP, ordered=True)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--res", required=True, choices=sorted(RES_ORDER))
    ap.add_argument("--seeds", required=True, help="set-up numbers a:b (seed = base + 1000 * resolution + k)")
    ap.add_argument("--val", action="store_true", help="validation seeds (950000 and up) instead of training ones")
    ap.add_argument("--frames", type=int, default=8)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    a, b = (int(v) for v in args.seeds.split(":"))
    started = time.time()
    items = collect(args.res, range(a, b), args.frames, args.val)
    Path(args.out).write_bytes(pickle.dumps(items, protocol=pickle.HIGHEST_PROTOCOL))
    print(f"{len(items)} samples from {b - a} set-ups at {args.res}p in {time.time() - started:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
