"""Train the card readers in ``models/cards/``: ``card.npz`` (whole cards) and ``index.npz`` (corner indices).

    .venv/bin/python scripts/train_cards.py [--out models/cards] [--real ../shared/datasets/cards-real]

Data, all made or read here (nothing is downloaded):

* **Rendered cards** for the card model: card-table scenes drawn by the simulator's renderer
  (``simulator/render.py``) with every deck design, through each seed's own camera (height, tilt
  up to 35 degrees, lens), lamps, cloth, noise and JPEG, at 720p, 1080p and 1440p. Each scene
  has 6-14 face-up cards (half laid at the seats' play spots, half anywhere, overlapping),
  0-3 backs and up to two hands, some carrying a card in the air. Samples are the cards at their
  true corners (jittered by a pixel) and what the detector's own card search finds, matched to the
  truth by overlap; what it finds on a hand or a sleeve is a "none" sample. Seeds 900000 and up
  (the benchmarks use other seeds); ``--val-looks`` more seeds are kept for the model card.
* **Real photos** for the index model: the training side of the fixed split of
  ``cards-real`` (``vision/cards_data.py``). Every index proposal (``vision/cards_index.py``)
  whose crop holds a labelled corner box is a sample of that card (five copies, moved, turned,
  blurred, dimmed and noised);
  proposals away from every box are "not an index". A first model is trained on random
  negatives; the proposals it wrongly accepts are added (hard negatives) for the final model.
  ``--index-scales 1.0,0.6`` also reads each photo shrunk (tried: it did not help, see the model card).

It prints the validation figures and writes them, with the command and the date, into
``OUT/training-report.json`` (``card-`` or ``index-training-report.json`` when one model is
skipped); ``models/cards/README.md`` (the model card) quotes them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tableref.calibration.spec import load_table
from tableref.simulator.card_timeline import CARD_RADIUS_MM
from tableref.simulator.cards import DESIGNS, card_corners_mm
from tableref.simulator.cards import LABELS as SIM_LABELS
from tableref.simulator.render import HELD_LIFT_MM, Renderer
from tableref.simulator.render_look import CARD_PLANE_MM, random_look
from tableref.simulator.state import FrameState, HandState, ObjectState, ObjectStatus
from tableref.vision.card_pipeline import board_region
from tableref.vision.cards import _camera_px_per_mm
from tableref.vision.cards_data import photos
from tableref.vision.cards_features import card_descriptor, index_features, index_features_many
from tableref.vision.cards_find import TablePlane, find_cards, iou_quads
from tableref.vision.cards_index import Cropper, IndexProposal, find_glyphs, propose
from tableref.vision.cards_model import MLP, TrainConfig, train_mlp
from tableref.vision.cards_read import CARD_HEADS, INDEX_HEADS, RANKS, SUITS
from tableref.vision.pipeline import HomographyMapping

SPEC = load_table("cards")
SEATS = {s.id: s for s in SPEC.seats}
SEAT_ANGLE = {"south": 0.0, "east": 90.0, "north": 180.0, "west": 270.0}
RESOLUTIONS = {"720": (1280, 720), "1080": (1920, 1080), "1440": (2560, 1440)}
TRAIN_SEED0 = 900_000
VAL_SEED0 = 950_000


# -- rendered scenes ------------------------------------------------------------------------------


def _card(label: str, x: float, y: float, angle: float, face_up: bool, layer: int, **kw: Any) -> ObjectState:
    return ObjectState(id=f"card-{label}", kind="card", x=x, y=y, radius=CARD_RADIUS_MM, status=kw.pop("status", ObjectStatus.ON_TABLE),
                       angle=angle % 360.0, label=label, face_up=face_up, layer=layer, **kw)


def scene(rng: random.Random) -> tuple[list[ObjectState], list[HandState]]:
    """One table: cards at the play spots and anywhere on the board, backs, hands (see the module docstring)."""
    n_face, n_back = rng.randint(6, 14), rng.randint(0, 3)
    labels = rng.sample(SIM_LABELS, n_face + n_back)
    objs: list[ObjectState] = []
    for i, label in enumerate(labels):
        if rng.random() < 0.6:
            s = SEATS[rng.choice(list(SEATS))]
            fx, fy = 500 - s.position[0], 500 - s.position[1]
            n = math.hypot(fx, fy)
            inward = rng.uniform(0, 45)
            x = s.play_spot[0] + fx / n * inward + rng.gauss(0, 15)
            y = s.play_spot[1] + fy / n * inward + rng.gauss(0, 15)
            angle = SEAT_ANGLE[s.id] + rng.uniform(-35, 35)
        else:
            x, y, angle = rng.uniform(230, 770), rng.uniform(230, 770), rng.uniform(0, 360)
        objs.append(_card(label, x, y, angle, i < n_face, i + 1))
    rng.shuffle(objs)
    objs = [_card(o.label, o.x, o.y, o.angle, o.face_up, k + 1) for k, o in enumerate(objs)]
    if rng.random() < 0.3:  # a trick being gathered: three or four cards swept into a pile
        s = SEATS[rng.choice(list(SEATS))]
        px, py = rng.uniform(430, 570), rng.uniform(430, 570)
        free = [lab for lab in SIM_LABELS if f"card-{lab}" not in {p.id for p in objs}]
        for lab in rng.sample(free, rng.randint(3, 4)):
            objs.append(_card(lab, px + rng.gauss(0, 6), py + rng.gauss(0, 6), SEAT_ANGLE[s.id] + rng.uniform(-12, 12),
                              True, len(objs) + 1))
    hands: list[HandState] = []
    for _ in range(rng.choice([0, 1, 1, 2])):
        o = rng.choice(objs)
        s = SEATS[rng.choice(list(SEATS))]
        dx, dy = o.x - s.position[0], o.y - s.position[1]
        n = math.hypot(dx, dy)
        hx, hy = o.x - dx / n * rng.uniform(20, 80), o.y - dy / n * rng.uniform(20, 80)
        holding = None
        kind = rng.random()
        if kind < 0.55:  # a hand carrying a card over the table: face up to play it, or a packet face down
            free = [lab for lab in SIM_LABELS if f"card-{lab}" not in {p.id for p in objs}]
            count = 1 if kind < 0.35 else rng.randint(2, 4)
            for j, lab in enumerate(rng.sample(free, count)):
                objs.append(_card(lab, hx + dx / n * 40 + rng.gauss(0, 2), hy + dy / n * 40 + rng.gauss(0, 2),
                                  SEAT_ANGLE[s.id] + rng.uniform(-30, 30), kind < 0.35, len(objs) + 5 + j,
                                  status=ObjectStatus.IN_HAND, z=rng.uniform(1, 25)))
                holding = holding or f"card-{lab}"
        hands.append(HandState(hx, hy, math.atan2(hy - s.position[1], hx - s.position[0]), holding))
    return objs, hands


def render_samples(seed: int, res: str, frames: int = 8) -> list[dict[str, Any]]:
    """Card patches of ``frames`` scenes drawn through seed ``seed``'s camera at resolution ``res``."""
    rng = random.Random(seed)
    width, height = RESOLUTIONS[res]
    look = random_look(SPEC, seed, width, height, 30.0)
    design = DESIGNS[seed % len(DESIGNS)]
    renderer = Renderer(SPEC, look, card_design=design)
    cam = look.camera
    mapping = HomographyMapping(cam.homography(CARD_PLANE_MM), cam.K, cam.dist_coeffs)
    region = board_region(SPEC)
    plane = TablePlane(mapping, region, _camera_px_per_mm(mapping, region))
    nrng = np.random.default_rng(seed)
    out: list[dict[str, Any]] = []
    for k in range(frames):
        objs, hands = scene(rng)
        img = renderer.render(FrameState(index=2 * k, t=0.0, objects=tuple(objs), hands=tuple(hands)))
        hand_mask = np.zeros(img.shape[:2], np.uint8)
        if hands:
            bare = tuple(o for o in objs if o.status is ObjectStatus.ON_TABLE)
            img0 = renderer.render(FrameState(index=2 * k + 1, t=0.0, objects=bare, hands=()))
            hand_mask = (np.abs(img.astype(np.int16) - img0.astype(np.int16)).max(axis=2) > 25).astype(np.uint8)
        if nrng.random() < 0.6:
            img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(nrng.integers(65, 95))])[1],
                               cv2.IMREAD_COLOR)
        held = {h.holding for h in hands if h.holding}
        by_id = {o.id: o for o in objs}
        quads: dict[str, np.ndarray] = {}
        for o in objs:
            if o.status is ObjectStatus.ON_TABLE:
                quads[o.id] = renderer.cards.corners_px(o)
            elif o.id in held:
                z = CARD_PLANE_MM + o.z + HELD_LIFT_MM
                quads[o.id] = cam.project(np.array([(x, y, z) for x, y in card_corners_mm(o.x, o.y, o.angle)]))
        masks = {}
        for oid, q in quads.items():
            m = np.zeros(img.shape[:2], np.uint8)
            cv2.fillConvexPoly(m, np.round(q).astype(np.int32), 1)
            masks[oid] = m
        visible = {}
        for oid in quads:
            m = masks[oid].copy()
            area = max(int(m.sum()), 1)
            for pid in quads:
                if by_id[pid].layer > by_id[oid].layer:
                    m &= 1 - masks[pid]
            if oid not in held:
                m &= 1 - hand_mask
            visible[oid] = float(m.sum()) / area

        def add(q: np.ndarray, label: str, face_up: bool, vis: float, kind: str, img: np.ndarray = img) -> None:
            x0, y0 = (np.floor(q.min(axis=0)).astype(int) - 6).tolist()
            x1, y1 = (np.ceil(q.max(axis=0)).astype(int) + 6).tolist()
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, img.shape[1]), min(y1, img.shape[0])
            if x1 - x0 < 8 or y1 - y0 < 8:
                return
            out.append({"patch": img[y0:y1, x0:x1].copy(), "quad": q - [x0, y0], "label": label, "face_up": face_up,
                        "visible": vis, "design": design.name, "res": res, "kind": kind})

        for oid, q in quads.items():
            add(q, by_id[oid].label, by_id[oid].face_up, visible[oid], "true")
        view = plane.view(img)
        for f in find_cards(view, plane.roi(img.shape[:2]), plane.card_size()):
            q = plane.to_image(f.corners)
            best, best_id = 0.0, None
            for oid, tq in quads.items():
                v = iou_quads(q, tq)
                if v > best:
                    best, best_id = v, oid
            if best >= 0.7 and best_id is not None:
                add(q, by_id[best_id].label, by_id[best_id].face_up, visible[best_id], "found")
            elif best < 0.25:
                add(q, "none", True, 1.0, "none")
    return out


def card_samples(items: Sequence[dict[str, Any]], rng: np.random.Generator, reps: int = 2,
                 min_visible: float = 0.6) -> tuple[np.ndarray, list[str | None], list[str | None], list[dict[str, Any]]]:
    """Features and (rank, suit) labels of card patches; true-corner samples are repeated with jitter."""
    feats: list[np.ndarray] = []
    ranks: list[str | None] = []
    suits: list[str | None] = []
    meta: list[dict[str, Any]] = []
    for it in items:
        if it["visible"] < min_visible:
            continue
        for k in range(reps if it["kind"] == "true" else 1):
            q = np.asarray(it["quad"], np.float64) + (rng.normal(0.0, 0.7, (4, 2)) if k else 0.0)
            q = np.roll(q, int(rng.integers(4)), axis=0)
            feats.append(card_descriptor(it["patch"], q))
            if it["label"] == "none":
                ranks.append("none")
                suits.append(None)
            elif it["face_up"]:
                ranks.append(it["label"][:-1])
                suits.append(it["label"][-1])
            else:
                ranks.append("back")
                suits.append(None)
            meta.append(it)
    return np.asarray(feats, np.float32), ranks, suits, meta


def card_report(model: MLP, feats: np.ndarray, ranks: list[str | None], suits: list[str | None],
                meta: list[dict[str, Any]]) -> dict[str, Any]:
    """Validation figures of the card model per resolution (per single view, before any voting)."""
    rank_p, suit_p = model.predict(feats)
    pr = [CARD_HEADS[0][i] for i in rank_p.argmax(axis=1)]
    ps = [CARD_HEADS[1][i] for i in suit_p.argmax(axis=1)]
    out: dict[str, Any] = {}
    for res in sorted({m["res"] for m in meta}, key=int):
        idx = [i for i, m in enumerate(meta) if m["res"] == res and ranks[i] not in ("none", "back")]
        ok = [pr[i] == ranks[i] and ps[i] == suits[i] for i in idx]
        court_black = [i for i in idx if ranks[i] in ("J", "Q", "K") and suits[i] in ("S", "C")]
        out[res] = {
            "cards": len(idx),
            "label_accuracy": round(float(np.mean(ok)), 4) if ok else None,
            "rank_accuracy": round(float(np.mean([pr[i] == ranks[i] for i in idx])), 4) if idx else None,
            "suit_accuracy": round(float(np.mean([ps[i] == suits[i] for i in idx])), 4) if idx else None,
            "black_court_suit_accuracy": round(float(np.mean([ps[i] == suits[i] for i in court_black])), 4)
            if court_black else None,
        }
    backs = [i for i, r in enumerate(ranks) if r == "back"]
    nones = [i for i, r in enumerate(ranks) if r == "none"]
    out["backs_recognised"] = round(float(np.mean([pr[i] == "back" for i in backs])), 4) if backs else None
    out["non_cards_rejected"] = round(float(np.mean([pr[i] == "none" for i in nones])), 4) if nones else None
    return out


# -- real photos: corner indices ------------------------------------------------------------------


def _aabb(p: IndexProposal) -> tuple[float, float, float, float]:
    c = p.corners()
    return (float(c[:, 0].min()), float(c[:, 1].min()), float(c[:, 0].max()), float(c[:, 1].max()))


def _coverage(p: IndexProposal, b: tuple[float, float, float, float]) -> tuple[float, float]:
    """(share of the box inside the proposal's crop, crop area over box area)."""
    poly = p.corners().astype(np.float32)
    box = np.array([[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]]], np.float32)
    inter, _ = cv2.intersectConvexConvex(poly, box)
    area = max((b[2] - b[0]) * (b[3] - b[1]), 1.0)
    return float(inter) / area, float(cv2.contourArea(poly)) / area


def proposal_label(p: IndexProposal, boxes: Sequence[tuple[str, tuple[float, float, float, float]]]) -> str | None:
    """The card whose whole index a proposal's crop holds; ``none`` when it holds little of any index;
    None (not used for training) in between, e.g. a crop of the rank alone."""
    label: str | None = "none"
    for name, b in boxes:
        cover, ratio = _coverage(p, b)
        inside = b[0] <= p.cx <= b[2] and b[1] <= p.cy <= b[3]
        size = max(b[2] - b[0], b[3] - b[1])
        if inside and cover >= 0.6 and ratio <= 3.5 and 0.6 < p.height / size < 1.8 and name in _CARDS:
            return name
        if cover > 0.35 or inside:
            label = None
    return label


_CARDS = frozenset(r + s for r in RANKS for s in SUITS)


def _jitter(p: IndexProposal, rng: np.random.Generator) -> IndexProposal:
    a = rng.normal(0.0, 0.15)
    c, s = math.cos(a), math.sin(a)
    down = (p.down[0] * c - p.down[1] * s, p.down[0] * s + p.down[1] * c)
    scale = float(np.exp(rng.normal(0.0, 0.08)))
    dx, dy = rng.normal(0.0, 0.04) * p.height, rng.normal(0.0, 0.04) * p.height

    def glyph(g: tuple[float, float, float]) -> tuple[float, float, float]:
        return (g[0] + dx + rng.normal(0.0, 0.03) * g[2], g[1] + dy + rng.normal(0.0, 0.03) * g[2],
                g[2] * float(np.exp(rng.normal(0.0, 0.07))))

    return IndexProposal(p.cx + dx, p.cy + dy, down, p.height * scale, p.width * scale, p.light, glyph(p.top),
                         glyph(p.bottom))


def _index_feature(cropper: Cropper, p: IndexProposal, blur: float = 0.0,
                   rng: np.random.Generator | None = None) -> np.ndarray:
    """Features of a proposal; with ``rng``, the photo is spoilt a little (blur, contrast, noise)."""
    crops = [cropper.crop(p), cropper.glyph(p, "top"), cropper.glyph(p, "bottom")]
    if blur > 0 or rng is not None:
        spoilt = []
        gain = float(rng.uniform(0.6, 1.1)) if rng is not None else 1.0
        offset = float(rng.uniform(-20, 30)) if rng is not None else 0.0
        for c in crops:
            f = c.astype(np.float32)
            if blur > 0:
                f = cv2.GaussianBlur(f, (0, 0), blur)
            f = f * gain + offset
            if rng is not None:
                f = f + rng.normal(0.0, 4.0, f.shape)
            spoilt.append(np.clip(f, 0, 255).astype(np.uint8))
        crops = spoilt
    return index_features(crops[0], crops[1], crops[2])


def _plain_features(cropper: Cropper, props: Sequence[IndexProposal]) -> np.ndarray:
    """Unspoilt features of many proposals at once (as the reader computes them)."""
    return index_features_many([cropper.crop(p) for p in props], [cropper.glyph(p, "top") for p in props],
                               [cropper.glyph(p, "bottom") for p in props])


def _scaled_photos(real: Path | None, split_fn: Any, scales: Sequence[float]) -> Any:
    """(image, boxes) of the chosen training photos, at each of ``scales``.

    A photo shrunk (area-averaged) shows its indices as a camera further away would: fewer
    pixels, softer strokes, glyphs closer together. Training on both teaches the index reader
    smaller, blurrier indices than the phone photos hold, as in a dense fan or a venue camera.
    """
    for photo in photos(real, "train"):
        if not split_fn(photo.stem):
            continue
        image = cv2.imread(str(photo.path))
        if image is None:
            continue
        for s in scales:
            if s == 1.0:
                yield photo, image, photo.boxes
                continue
            small = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
            boxes = tuple((n, (b[0] * s, b[1] * s, b[2] * s, b[3] * s)) for n, b in photo.boxes)
            yield photo, small, boxes


def index_samples(real: Path | None, split_fn: Any, rng: np.random.Generator, hard_model: MLP | None = None,
                  negatives: int = 40, hard: int = 60, scales: Sequence[float] = (1.0,),
                  copies: int = 5) -> tuple[np.ndarray, list[str | None], list[str | None]]:
    """Index proposals of the real training photos (``split_fn(stem)`` picks them), labelled (see above)."""
    feats: list[np.ndarray] = []
    ranks: list[str | None] = []
    suits: list[str | None] = []
    for _photo, image, boxes in _scaled_photos(real, split_fn, scales):
        props = propose(find_glyphs(image))
        cropper = Cropper(image)
        labels = [proposal_label(p, boxes) for p in props]
        for p, lab in zip(props, labels, strict=True):
            if lab is None or lab == "none":
                continue
            for k in range(copies):
                q = p if k == 0 else _jitter(p, rng)
                feats.append(_index_feature(cropper, q, blur=float(rng.uniform(0.5, 1.4)) if k >= 3 else 0.0,
                                            rng=rng if k >= 2 else None))
                ranks.append(lab[:-1])
                suits.append(lab[-1])
        negs = [p for p, lab in zip(props, labels, strict=True) if lab == "none"]
        if not negs:
            continue
        chosen = [int(i) for i in rng.permutation(len(negs))[:negatives]]
        if hard_model is not None:
            f = _plain_features(cropper, negs)
            p_index = 1.0 - hard_model.predict(f)[0][:, -1]
            chosen = list(dict.fromkeys(chosen + [int(i) for i in np.argsort(-p_index)[:hard] if p_index[i] > 0.2]))
        if chosen:
            feats += list(_plain_features(cropper, [negs[i] for i in chosen]))
            ranks += ["none"] * len(chosen)
            suits += [None] * len(chosen)
    return np.asarray(feats, np.float32), ranks, suits


def index_report(model: MLP, real: Path | None, split_fn: Any) -> dict[str, Any]:
    """Validation on held-back training groups: share of labelled cards with a proposal read right."""
    cards_hit: dict[tuple[str, str], bool] = {}
    accepted_neg = negs = 0
    for photo in photos(real, "train"):
        if not split_fn(photo.stem):
            continue
        image = cv2.imread(str(photo.path))
        if image is None:
            continue
        props = propose(find_glyphs(image))
        if not props:
            continue
        cropper = Cropper(image)
        rank_p, suit_p = model.predict(_plain_features(cropper, props))
        for name in photo.cards():
            cards_hit.setdefault((photo.stem, name), False)
        for p, r, s in zip(props, rank_p, suit_p, strict=True):
            lab = proposal_label(p, photo.boxes)
            if lab is None:
                continue
            p_index = 1.0 - float(r[-1])
            pred = RANKS[int(np.argmax(r[:-1]))] + SUITS[int(np.argmax(s))]
            if lab == "none":
                negs += 1
                accepted_neg += p_index > 0.5
            elif p_index > 0.5 and pred == lab:
                cards_hit[(photo.stem, lab)] = True
    return {"labelled_cards": len(cards_hit),
            "cards_with_an_index_read_right": round(float(np.mean(list(cards_hit.values()))), 4) if cards_hit else None,
            "non_index_proposals_accepted": round(accepted_neg / max(negs, 1), 4)}


# -- main -----------------------------------------------------------------------------------------


def validate_card_model(model_dir: Path, resolutions: Sequence[str], seeds: int, frames: int,
                        rng: np.random.Generator) -> dict[str, Any]:
    """The card model's per-view figures on the validation seeds, as drawn by today's renderer."""
    items: list[dict[str, Any]] = []
    for r_i, res in enumerate(sorted(resolutions)):  # the order training gives the seeds
        for k in range(seeds):
            items += render_samples(VAL_SEED0 + 1000 * r_i + k, res, frames)
    xv, rv, sv, mv = card_samples(items, rng, reps=1)
    return card_report(MLP.load(model_dir / "card.npz"), xv, rv, sv, mv)


def _val_group(stem: str) -> bool:
    """Training photos held back to validate the index model (not the benchmark's test split)."""
    from tableref.vision.cards_data import capture_group

    return sum(capture_group(stem).encode()) % 7 == 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--out", default="models/cards")
    ap.add_argument("--real", default=None, help="the cards-real dataset folder (default ../shared/datasets/cards-real)")
    ap.add_argument("--looks", default="720:30,1080:30,1440:30",
                    help="rendered camera set-ups (seeds) per resolution, e.g. 720:30,1080:30,1440:30")
    ap.add_argument("--val-looks", type=int, default=4, help="validation seeds per resolution")
    ap.add_argument("--frames", type=int, default=8, help="scenes per seed")
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--skip", choices=("card", "index"), default=None, help="train only the other model")
    ap.add_argument("--index-scales", default="1.0",
                    help="sizes the real training photos are read at for the index model (1.0: as taken)")
    ap.add_argument("--index-all", action="store_true",
                    help="train the index model on every training-side photo (no validation groups kept back)")
    ap.add_argument("--validate", action="store_true",
                    help="train nothing: print the validation figures of the card model in --out on the validation seeds")
    ap.add_argument("--index-copies", type=int, default=5, help="copies of each index proposal (moved, spoilt)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    started = time.time()
    report: dict[str, Any] = {}
    looks = {k: int(v) for k, v in (part.split(":") for part in args.looks.split(","))}
    if args.validate:
        print(json.dumps(validate_card_model(out, sorted(looks), args.val_looks, args.frames, rng), indent=2))
        return 0
    if args.skip != "card":
        train_items: list[dict[str, Any]] = []
        val_items: list[dict[str, Any]] = []
        for r_i, (res, n) in enumerate(sorted(looks.items())):
            for k in range(n):
                train_items += render_samples(TRAIN_SEED0 + 1000 * r_i + k, res, args.frames)
            for k in range(args.val_looks):
                val_items += render_samples(VAL_SEED0 + 1000 * r_i + k, res, args.frames)
            print(f"rendered {res}p: {len(train_items)} training patches so far ({time.time() - started:.0f} s)", flush=True)
        x, ranks, suits, _ = card_samples(train_items, rng)
        xv, rv, sv, mv = card_samples(val_items, rng, reps=1)
        print(f"card features {x.shape} ({time.time() - started:.0f} s)", flush=True)
        model = train_mlp(x, [ranks, suits], CARD_HEADS, TrainConfig(hidden=(256,), epochs=args.epochs))
        info = f"rendered scenes: {len(train_items)} patches from {sum(looks.values())} seeds; trained {datetime.date.today()}"
        model = MLP(model.heads, model.mean, model.scale, model.weights, model.biases, info)
        model.save(out / "card.npz")
        report["card"] = {"training_samples": int(len(x)), "rank_classes": Counter(r for r in ranks).most_common(3),
                          "validation": card_report(model, xv, rv, sv, mv)}
        print("card model:", report["card"]["validation"], flush=True)
    if args.skip != "index":
        def train_side(stem: str) -> bool:
            return args.index_all or not _val_group(stem)

        scales = [float(v) for v in args.index_scales.split(",")]
        x1, r1, s1 = index_samples(args.real, train_side, rng, scales=scales, copies=args.index_copies)
        first = train_mlp(x1, [r1, s1], INDEX_HEADS, TrainConfig(hidden=(256,), epochs=max(8, args.epochs // 2)))
        print(f"first index model on {len(x1)} proposals ({time.time() - started:.0f} s)", flush=True)
        x2, r2, s2 = index_samples(args.real, train_side, rng, hard_model=first, scales=scales, copies=args.index_copies)
        print(f"index features {x2.shape} ({time.time() - started:.0f} s)", flush=True)
        model = train_mlp(x2, [r2, s2], INDEX_HEADS, TrainConfig(hidden=(256,), epochs=args.epochs))
        info = f"cards-real training split: {len(x2)} proposals; trained {datetime.date.today()}"
        model = MLP(model.heads, model.mean, model.scale, model.weights, model.biases, info)
        model.save(out / "index.npz")
        report["index"] = {"training_samples": int(len(x2)),
                           "validation": None if args.index_all else index_report(model, args.real, _val_group)}
        print("index model:", report["index"]["validation"], flush=True)
    report["seconds"] = round(time.time() - started)
    report["command"] = "python scripts/train_cards.py " + " ".join(argv if argv is not None else sys.argv[1:])
    report["date"] = str(datetime.date.today())
    name = {"index": "card-", "card": "index-"}.get(args.skip or "", "") + "training-report.json"
    (out / name).write_text(json.dumps(report, indent=2, default=str) + "\n", "utf-8")
    print(f"done in {report['seconds']} s; wrote the models and {out / name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
