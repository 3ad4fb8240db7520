"""Benchmark: physics cost per video frame for every physics scenario (prints figures, asserts nothing).

The renderer must reach 60 frames a second simulated and rendered on one core, so the physics
should cost well under 5 ms a frame. This runs each scenario (attempts that a script redrew
included, as ``run_scenario`` pays for them) and prints milliseconds per frame::

    .venv/bin/python -m tableref.simulator.physics_bench --fps 60 --seeds 0,1
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from tableref.simulator.scenarios import SCENARIOS, run_scenario

PHYSICS_GAMES = ("bar-billiards", "up-and-down", "colors", "carroms")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--fps", type=float, default=60.0)
    parser.add_argument("--seeds", default="0,1", help="comma-separated seeds")
    args = parser.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    total_s, total_frames, worst = 0.0, 0, (0.0, "")
    print(f"{'game':14s} {'scenario':18s} {'seed':>4s} {'clip s':>7s} {'frames':>6s} {'ms/frame':>8s}")
    for game in PHYSICS_GAMES:
        for name in SCENARIOS[game]:
            for seed in seeds:
                t0 = time.perf_counter()
                result = run_scenario(game, name, seed, args.fps)
                spent = time.perf_counter() - t0
                per = 1000.0 * spent / len(result.frames)
                total_s += spent
                total_frames += len(result.frames)
                worst = max(worst, (per, f"{game}/{name}/{seed}"))
                print(f"{game:14s} {name:18s} {seed:4d} {result.frames[-1].t:7.2f} {len(result.frames):6d} {per:8.3f}")
    print(f"all: {total_frames} frames in {total_s:.2f} s = {1000.0 * total_s / max(total_frames, 1):.3f} ms/frame; "
          f"worst {worst[0]:.3f} ms/frame ({worst[1]})")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
