"""Card recognition on real photographs: the share of labelled cards read right, false cards, speed.

    .venv/bin/python benchmarks/bench_cards_real.py                  # the held-out split (the reported figure)
    .venv/bin/python benchmarks/bench_cards_real.py --split train    # the side the index model trains on
    .venv/bin/python benchmarks/bench_cards_real.py --json           # the figures as JSON

The data set is ``../shared/datasets/cards-real`` (662 photos, corner indices boxed). Its fixed
split by capture group (``vision/cards_data.py``) holds 98 photos out; nothing is tuned on them.
Every photo goes through ``CardDetector().detect`` exactly as ``tableref detect IMAGE --table cards``
(no calibration: a photo has none).

Scoring (``cards_data.score_photo``): a *labelled card* is one card class present in a photo with
its index boxes (jokers and backs are not cards). It is *read right* when a detection carries its
label and its circle (centre, radius of the card's area) reaches one of the card's index boxes. A
card detection that reads no labelled card there is a *false card* (a wrong reading, or a card
where there is none); a second detection of a card already read is a duplicate. Face-down
detections are counted apart (the photos label no backs).

Speed is wall time per photo on one core (``cv2.setNumThreads(1)``), the data set's 640x640 images.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

import cv2

from tableref.vision.cards import CardDetector
from tableref.vision.cards_data import PhotoScore, photos, score_photo


def run(split: str, dataset: str | None = None, limit: int | None = None,
        detector: CardDetector | None = None) -> tuple[list[PhotoScore], dict[str, Any]]:
    """Score every photo of ``split``; returns the per-photo scores and the summary figures."""
    cv2.setNumThreads(1)
    det = detector or CardDetector()
    scores: list[PhotoScore] = []
    for photo in photos(dataset, split):
        if limit is not None and len(scores) >= limit:
            break
        image = cv2.imread(str(photo.path))
        if image is None:
            continue
        t0 = time.perf_counter()
        found = det.detect(image)
        ms = 1000.0 * (time.perf_counter() - t0)
        scores.append(score_photo(photo, found, ms))
    return scores, summary(scores, split, dataset)


def summary(scores: Sequence[PhotoScore], split: str, dataset: str | None = None) -> dict[str, Any]:
    right = sum(len(s.right) for s in scores)
    total = right + sum(len(s.missed) for s in scores)
    per_class: collections.Counter[str] = collections.Counter(m[0] for s in scores for m in s.missed)
    confusions: collections.Counter[str] = collections.Counter(f"{m[0]}->{m[1]}" for s in scores for m in s.missed)
    sizes = {k: sum(1 for _ in photos(dataset, k)) for k in ("train", "test")}
    ms = sorted(s.ms for s in scores)
    return {
        "split": split,
        "split_sizes": sizes,
        "photos": len(scores),
        "labelled_cards": total,
        "read_right": right,
        "card_accuracy": round(right / total, 4) if total else None,
        "false_cards_per_photo": round(sum(s.false_cards for s in scores) / max(len(scores), 1), 3),
        "duplicates_per_photo": round(sum(s.duplicates for s in scores) / max(len(scores), 1), 3),
        "face_down_per_photo": round(sum(s.face_down for s in scores) / max(len(scores), 1), 3),
        "misses_per_class": dict(per_class.most_common()),
        "misses_read_as": dict(confusions.most_common(15)),
        "ms_per_photo_mean": round(sum(ms) / max(len(ms), 1), 1),
        "ms_per_photo_median": round(ms[len(ms) // 2], 1) if ms else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--split", choices=("test", "train"), default="test")
    ap.add_argument("--dataset", default=None, help="the cards-real folder (default ../shared/datasets/cards-real)")
    ap.add_argument("--model-dir", default=None, help="card.npz and index_cnn.onnx (or index.npz) to use (default models/cards)")
    ap.add_argument("--limit", type=int, default=None, help="score only the first N photos")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--misses", action="store_true", help="list each photo's missed cards")
    args = ap.parse_args(argv)
    scores, figures = run(args.split, args.dataset, args.limit, CardDetector(model_dir=args.model_dir))
    if args.misses:
        for s in scores:
            if s.missed or s.false_cards:
                print(f"{s.stem}: missed {list(s.missed)} false {s.false_cards}", file=sys.stderr)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    sz = figures["split_sizes"]
    print(f"cards-real split: {sz['train']} train / {sz['test']} held out (by capture group); scored: {args.split}")
    print(f"photos {figures['photos']}, labelled cards {figures['labelled_cards']}, read right {figures['read_right']}"
          f" -> card accuracy {figures['card_accuracy']}")
    print(f"false cards per photo {figures['false_cards_per_photo']}, duplicates per photo "
          f"{figures['duplicates_per_photo']}, face-down per photo {figures['face_down_per_photo']}")
    print(f"misses per class: {figures['misses_per_class']}")
    print(f"misses read as: {figures['misses_read_as']}")
    print(f"ms per photo (640x640, one core): mean {figures['ms_per_photo_mean']}, median {figures['ms_per_photo_median']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

