"""Tracker + event extractor on perfect detections (truth positions with noise), per scenario.

This isolates the tracking and event logic from the detector: what it scores is the best the
rest of the pipeline can do. Usage (from the repository root): .venv/bin/python scripts/oracle_events.py [GAME ...] [--seeds 1 2]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tableref.calibration.spec import load_table  # noqa: E402
from tableref.evaluate import PRF, first_contact_accuracy, match_events
from tableref.simulator.scenarios import SCENARIOS, run_scenario
from tableref.vision.extract import EventExtractor
from tableref.vision.tracker import Tracker
from tests.vision.oracle import noisy_detections


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*", default=["bar-billiards", "up-and-down", "carroms"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1])
    ap.add_argument("--noise", type=float, default=1.5)
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for game in args.games:
        for name in SCENARIOS[game]:
            for seed in args.seeds:
                sim = run_scenario(game, name, seed)
                spec = load_table(sim.table)
                tracker, extractor = Tracker(spec), EventExtractor(spec)
                rng = random.Random(seed)
                found = []
                for f in sim.frames:
                    tracks = tracker.update(noisy_detections(f, rng, args.noise), f.t, f.index)
                    found += extractor.update(tracks)
                per, _ = match_events(found, list(sim.events), sim.fps)
                fc, _ = first_contact_accuracy(found, list(sim.events), sim.fps)
                bad = {k: (v.tp, v.fp, v.fn) for k, v in per.items() if v.fp or v.fn}
                print(f"{game:14} {name:20} s{seed} first-contact {fc:.2f} misses {bad}")
                if args.v and bad:
                    for e in sim.events:
                        print("   T", e.frame, e.type.value, e.objects, e.where)
                    for e in found:
                        print("   D", e.frame, e.type.value, e.objects, e.where)
                for k, v in per.items():
                    t = totals[k]
                    t[0] += v.tp
                    t[1] += v.fp
                    t[2] += v.fn
    for k, (tp, fp, fn) in sorted(totals.items()):
        m = PRF(tp, fp, fn)
        print(f"{k:14} P {m.precision:.3f} R {m.recall:.3f} F1 {m.f1:.3f}  ({tp}/{fp}/{fn})")


if __name__ == "__main__":
    main()
