"""Simulated-and-rendered frames per second at 1280x720 on one core.

    python benchmarks/bench_simulator.py [--width 1280 --height 720] [--seeds 1 2] [--clips game:scenario ...]

For each clip: the physics (``run_scenario``), the renderer's one-off setup (the static scene,
noise bank), rendering every frame, and (separately timed) the MPEG-4 encoder. The process is
pinned to one CPU and OpenCV and the BLAS libraries to one thread, so the figure is one core's.
The headline is frames / (physics + setup + rendering): what ``tableref simulate`` achieves
before the encoder; the encoder's cost is printed beside it.

Both wall-clock and CPU time are measured. On a machine shared with other work the wall clock
counts the time other processes held the core; the process's CPU time is what this one core
spent, so both figures are printed.
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


def _now(clock: str) -> float:
    return time.process_time() if clock == "cpu" else time.perf_counter()


def bench(game: str, scenario: str, seed: int, width: int, height: int, fps: float) -> dict[str, dict[str, float]]:
    """Times of one clip's stages, by clock (``wall`` and ``cpu``)."""
    marks: list[tuple[float, float]] = [(time.perf_counter(), time.process_time())]
    sim = run_scenario(game, scenario, seed, fps)
    marks.append((time.perf_counter(), time.process_time()))
    spec = load_table(sim.table)
    renderer = Renderer(spec, random_look(spec, seed, width, height, fps))
    marks.append((time.perf_counter(), time.process_time()))
    frames = [renderer.render(f) for f in sim.frames]
    marks.append((time.perf_counter(), time.process_time()))
    with tempfile.TemporaryDirectory() as tmp, VideoWriter(Path(tmp) / "bench.mp4", fps, width, height) as w:
        for img in frames:
            w.write(img)
    marks.append((time.perf_counter(), time.process_time()))
    out = {}
    for c, clock in enumerate(("wall", "cpu")):
        d = [marks[i + 1][c] - marks[i][c] for i in range(4)]
        out[clock] = {"frames": float(len(frames)), "sim": d[0], "setup": d[1], "render": d[2], "encode": d[3]}
    return out


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
    print(f"{'clip':36} {'seed':>4} {'frames':>6} {'physics':>8} {'setup':>6} {'render':>7} {'encode':>7} "
          f"{'fps (wall)':>10} {'fps (cpu)':>9}")
    totals = {clock: {"frames": 0.0, "sim": 0.0, "setup": 0.0, "render": 0.0, "encode": 0.0}
              for clock in ("wall", "cpu")}
    for clip in args.clips:
        game, _, scenario = clip.partition(":")
        for seed in args.seeds:
            r = bench(game, scenario, seed, args.width, args.height, args.fps)
            for clock in totals:
                for k in totals[clock]:
                    totals[clock][k] += r[clock][k]
            w, c = r["wall"], r["cpu"]
            rate_w = w["frames"] / (w["sim"] + w["setup"] + w["render"])
            rate_c = c["frames"] / (c["sim"] + c["setup"] + c["render"])
            print(f"{clip:36} {seed:>4} {int(w['frames']):>6} {w['sim']:>7.2f}s {w['setup']:>5.2f}s "
                  f"{w['render']:>6.2f}s {w['encode']:>6.2f}s {rate_w:>10.1f} {rate_c:>9.1f}")
    print()
    for clock, label in (("wall", "wall clock"), ("cpu", "CPU time")):
        t = totals[clock]
        n = t["frames"]
        with_setup = n / (t["sim"] + t["setup"] + t["render"])
        steady = n / (t["sim"] + t["render"])
        with_encode = n / (t["sim"] + t["setup"] + t["render"] + t["encode"])
        print(f"simulated-and-rendered frames per second, {label} ({int(n)} frames): {with_setup:.1f} "
              f"(per-clip setup included), {steady:.1f} (per-frame work only); with the mp4v encoder: "
              f"{with_encode:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
