"""The bar for cards known from a single corner index, swept on real photos (how 0.7 was chosen).

    .venv/bin/python benchmarks/bench_cards_single_index.py            # validation groups: the sweep
    .venv/bin/python benchmarks/bench_cards_single_index.py --split test   # held out: no bar and 0.7 only

Every photo is read once with no bar (``CardDetector(min_single_index=0)``); then each bar drops
the index-only cards seen by one index read less surely than it, and the photo is scored as
``bench_cards_real.py`` scores it. The bar is chosen on the validation groups (training-side
capture groups whose name bytes sum to 0 modulo 7); the held-out photos only report the choice.
"""

from __future__ import annotations

import argparse
import sys

import cv2

from tableref.vision.cards import CardDetector, as_detection
from tableref.vision.cards_data import capture_group, photos, score_photo

SWEEP = (0.0, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--split", choices=("val", "test"), default="val")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    det = CardDetector(min_single_index=0.0)
    rows = []
    for ph in photos(None, "test" if args.split == "test" else "train"):
        if args.split == "val" and sum(capture_group(ph.stem).encode()) % 7 != 0:
            continue
        img = cv2.imread(str(ph.path))
        if img is None:
            continue
        obs = det.observe(img)
        rows.append((ph, [(as_detection(o), o.source == "index" and len(o.index_boxes) == 1) for o in obs]))
    for t in (0.0, 0.7) if args.split == "test" else SWEEP:
        scores = [score_photo(ph, [d for d, single in ds if not (single and d.group == "card" and d.score < t)
                                   and (d.score >= det.min_score or d.group == "face-down")], 0.0) for ph, ds in rows]
        n = sum(len(s.right) + len(s.missed) for s in scores)
        print(f"{args.split} bar {t:.2f}: read right {sum(len(s.right) for s in scores) / max(n, 1):.4f} of {n} cards, "
              f"false cards a photo {sum(s.false_cards for s in scores) / max(len(scores), 1):.3f} ({len(scores)} photos)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
