"""The whole-card readers on real photographs' cards: is a reader trained on rendered cards fooled by real ones?

    .venv/bin/python benchmarks/bench_cards_whole_real.py                   # the training side (564 photos)
    .venv/bin/python benchmarks/bench_cards_whole_real.py --split test      # the held-out photos

Why: ``card_cnn.onnx`` and ``card.npz`` are trained on rendered card scenes only; a reader tuned to
the look of our renderer would read rendered clips well and real venues badly. The ``cards-real``
photos label corner indices, not card outlines, so here every card outline the detector's own
card search finds in a photo (``find_cards``, uncalibrated, as ``CardDetector`` does) is named by
the labelled index boxes whose centres lie inside it, when they all name one card; the outline is
then rectified and read by each whole-card reader alone (no corner-index reading, no voting).
The whole-card readers never saw a real photo, so the training side (where the index readers
learnt) is as fair a test for them as the held-out side. Photo cards are larger than a venue camera's (rectifying shrinks them to the readers' size), and
many are fanned or stacked, so these figures are a check of the look, not the venue figure.

Figures per reader: the share of named outlines read right (the most likely card, and not taken
for a back or for no card) and the share read as some other card.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tableref.vision.cards_cnn import CARD_CNN_CROP, OnnxHeads, preprocess
from tableref.vision.cards_data import CARD_NAMES, photos
from tableref.vision.cards_features import card_descriptor, rectify
from tableref.vision.cards_find import ImagePlane, estimate_card_size, find_cards, segment
from tableref.vision.cards_model import MLP
from tableref.vision.cards_read import CARD_HEADS, DEFAULT_MODEL_DIR


def _val_group(stem: str) -> bool:
    from tableref.vision.cards_data import capture_group

    return sum(capture_group(stem).encode()) % 7 == 0


def named_outlines(split: str) -> list[tuple[np.ndarray, np.ndarray, str]]:
    """(image, quad, card) for every found outline that the labelled index boxes name."""
    out = []
    for photo in photos(None, "test" if split == "test" else "train"):
        if split == "val" and not _val_group(photo.stem):
            continue
        img = cv2.imread(str(photo.path))
        if img is None:
            continue
        roi = ImagePlane().roi(img.shape[:2])
        seg = segment(img, roi)
        size = estimate_card_size(seg.face)
        if size is None:
            continue
        for f in find_cards(img, roi, size, seg):
            if not f.face_up:
                continue
            poly = f.corners.astype(np.float32)
            names = {n for n, b in photo.boxes if n in CARD_NAMES
                     and cv2.pointPolygonTest(poly, ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), False) >= 0}
            if len(names) == 1:
                out.append((img, f.corners, names.pop()))
    return out


def score(rank_p: np.ndarray, suit_p: np.ndarray, names: list[str]) -> dict[str, Any]:
    ranks, suits = CARD_HEADS
    right = other = 0
    for r, s, name in zip(rank_p, suit_p, names, strict=True):
        k = int(np.argmax(r))
        if ranks[k] in ("back", "none"):
            continue
        pred = ranks[k] + suits[int(np.argmax(s))]
        right += pred == name
        other += pred != name
    n = max(len(names), 1)
    return {"read_right": round(right / n, 4), "read_as_another_card": round(other / n, 4)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--split", choices=("train", "val", "test"), default="train",
                    help="train: the training side; val: its validation groups only; test: the held-out photos")
    ap.add_argument("--models", default=str(DEFAULT_MODEL_DIR))
    args = ap.parse_args()
    cv2.setNumThreads(1)
    items = named_outlines(args.split)
    names = [n for _, _, n in items]
    report: dict[str, Any] = {"split": args.split, "named_outlines": len(items)}
    folder = Path(args.models)
    if (folder / "card.npz").is_file():
        mlp = MLP.load(folder / "card.npz")
        rank_p, suit_p = mlp.predict(np.stack([card_descriptor(i, q) for i, q, _ in items]))
        report["card.npz"] = score(rank_p, suit_p, names)
    if (folder / "card_cnn.onnx").is_file():
        cnn = OnnxHeads(folder / "card_cnn.onnx")
        x = preprocess(np.stack([rectify(i, q, CARD_CNN_CROP) for i, q, _ in items]), CARD_CNN_CROP)
        rank_p, suit_p = cnn.predict(x)
        report["card_cnn.onnx"] = score(rank_p, suit_p, names)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
