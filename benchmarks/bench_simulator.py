"""Simulated-and-rendered frames per second at 1280x720 on one core.

    python benchmarks/bench_simulator.py [--width 1280 --height 720] [--seeds 1 2] [--clips game:scenario ...]

For each clip: the physics (``run_scenario``), the renderer's one-off setup (the static scene,
noise bank), rendering every frame, and (separately timed) the MPEG-4 encoder. The process is
pinned to one CPU and OpenCV and the BLAS libraries to one thread, so the figure is one core's.
The headline is frames / (physics + setup + rendering): what ``tableref simulate`` achieves
before the encoder; the encoder's cost is printed beside it.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

from tableref.calibration.spec import load_table  # noqa: E402
from tableref.simulator.render import Renderer  # noqa: E402
from tableref.simulator.render_look import random_look  # noqa: E402
from tableref.simulator.scenarios import run_scenario  # noqa: E402
from tableref.simulator.video import VideoWriter  # noqa: E402

DEFAULT_CLIPS = (
    "bar-billiards:potting-visit", "bar-billiards:white-pin-falls", "up-and-down:break", "colors:legal-pot",
    "carroms:break", "carroms:queen-covered", "all-fours:kick", "all-fours:lead-out-of-turn",
)


def _one_core() -> str:
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity here)"


def bench(game: str, scenario: str, seed: int, width: int, height: int, fps: float) -> dict[str, float]:
    t0 = time.perf_counter()
    sim = run_scenario(game, scenario, seed, fps)
    t1 = time.perf_counter()
    spec = load_table(sim.table)
    renderer = Renderer(spec, random_look(spec, seed, width, height, fps))
    t2 = time.perf_counter()
    frames = [renderer.render(f) for f in sim.frames]
    t3 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp, VideoWriter(Path(tmp) / "bench.mp4", fps, width, height) as w:
        for img in frames:
            w.write(img)
    t4 = time.perf_counter()
    return {"frames": float(len(frames)), "sim": t1 - t0, "setup": t2 - t1, "render": t3 - t2, "encode": t4 - t3}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--width", type=int, default=1280)
    p.add_argument("--height", type=int, default=720)
    p.add_argument("--fps", type=float, default=30.0)
    p.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    p.add_argument("--clips", nargs="+", default=list(DEFAULT_CLIPS), metavar="GAME:SCENARIO")
    args = p.parse_args(argv)
    print(f"tableref simulator benchmark, {args.width}x{args.height} at {args.fps:g} fps, one core "
          f"({_one_core()}), OpenCV {cv2.__version__}, Python {sys.version.split()[0]}")
    print(f"{'clip':40} {'seed':>4} {'frames':>6} {'physics':>8} {'setup':>6} {'render':>7} {'encode':>7} "
          f"{'sim+render fps':>15}")
    total = {"frames": 0.0, "sim": 0.0, "setup": 0.0, "render": 0.0, "encode": 0.0}
    for clip in args.clips:
        game, _, scenario = clip.partition(":")
        for seed in args.seeds:
            r = bench(game, scenario, seed, args.width, args.height, args.fps)
            for k in total:
                total[k] += r[k]
            rate = r["frames"] / (r["sim"] + r["setup"] + r["render"])
            print(f"{clip:40} {seed:>4} {int(r['frames']):>6} {r['sim']:>7.2f}s {r['setup']:>5.2f}s "
                  f"{r['render']:>6.2f}s {r['encode']:>6.2f}s {rate:>15.1f}")
    n = total["frames"]
    with_setup = n / (total["sim"] + total["setup"] + total["render"])
    steady = n / (total["sim"] + total["render"])
    with_encode = n / (total["sim"] + total["setup"] + total["render"] + total["encode"])
    print(f"\nsimulated-and-rendered frames per second ({int(n)} frames): {with_setup:.1f} "
          f"(setup included), {steady:.1f} (per-frame work only); with the mp4v encoder: {with_encode:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
