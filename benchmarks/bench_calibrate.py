"""Accuracy of the automatic calibration against the truth of simulated clips.

For every bundled sample clip of a ball table (bar billiards, pool, carroms; not cards) and for
freshly simulated first frames with unseen seeds and chosen camera tilts, it runs the automatic
calibration (``build_calibration`` on the first frame, as ``tableref calibrate`` does) and prints
the reprojection error of the playing surface's corners and of the holes or pockets against the
truth, in raw pixels and in millimetres on the cloth (mean and max), and every failure.

Two modes per clip: ``K+dist`` gives the true intrinsics and distortion (``--intrinsics``), ``none``
gives nothing (the camera is fitted from the picture and distortion is ignored).

    .venv/bin/python benchmarks/bench_calibrate.py
    .venv/bin/python benchmarks/bench_calibrate.py --no-samples --seeds 901 902 --tilts 0 20 35
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tableref.calibration.accuracy import CalibrationError, calibration_error, truth_camera  # noqa: E402
from tableref.calibration.calibrate import build_calibration  # noqa: E402
from tableref.errors import UserError  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TABLE_OF = {"bar-billiards": "bar-billiards", "up-and-down": "pool", "colors": "pool", "carroms": "carrom"}
FRESH = (("bar-billiards", "miss"), ("up-and-down", "break"), ("carroms", "break"))


def sample_frames() -> Iterator[tuple[str, np.ndarray, dict[str, Any]]]:
    for truth_path in sorted((ROOT / "sample_videos").glob("*.truth.json")):
        truth = json.loads(truth_path.read_text("utf-8"))
        if truth["table"] == "cards":
            continue
        video = truth_path.with_name(truth_path.name.replace(".truth.json", ".mp4"))
        cap = cv2.VideoCapture(str(video))
        ok, frame = cap.read()
        cap.release()
        if not ok:
            raise SystemExit(f"cannot read {video}")
        yield video.stem, frame, truth


def fresh_frames(seeds: list[int], tilts: list[float | None]) -> Iterator[tuple[str, np.ndarray, dict[str, Any]]]:
    """First frames of freshly simulated scenarios, rendered through a seeded camera whose tilt
    is replaced by each of ``tilts`` (``None``: the seed's own)."""
    from tableref.calibration.camera import CameraModel
    from tableref.calibration.spec import load_table
    from tableref.simulator.clip import truth_dict
    from tableref.simulator.render import Renderer
    from tableref.simulator.render_look import random_look
    from tableref.simulator.scenarios import run_scenario

    for seed in seeds:
        for game, scenario in FRESH:
            sim = run_scenario(game, scenario, seed, 30.0)
            spec = load_table(sim.table)
            base = random_look(spec, seed, 1280, 720, 30.0)
            for tilt in tilts:
                look = base
                if tilt is not None:
                    cam = base.camera
                    furn = base.furniture
                    x0, y0, x1, y1 = furn.outer(spec)
                    z = furn.rail_height_mm
                    keep = [(x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z)]
                    new = CameraModel.looking_at(
                        width=cam.width, height=cam.height, fps=cam.fps,
                        target=(spec.length_mm / 2, spec.width_mm / 2), height_mm=float(cam.height_mm),
                        tilt_deg=float(tilt), azimuth_deg=float(cam.azimuth_deg), roll_deg=float(cam.roll_deg),
                        keep_in_view=keep, fill=0.92, dist=cam.dist)
                    look = dataclasses.replace(base, camera=new)
                frame = Renderer(spec, look).render(sim.frames[0])
                ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
                decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
                frame = np.asarray(decoded if decoded is not None else frame, dtype=np.uint8)
                tag = "seed" if tilt is None else f"tilt{tilt:g}"
                yield f"{game}-{scenario}-s{seed}-{tag}", frame, truth_dict(sim, spec, look)


def run_one(frame: np.ndarray, truth: dict[str, Any], with_camera: bool) -> CalibrationError | str:
    try:
        cal = build_calibration(frame, truth["table"], intrinsics=truth_camera(truth) if with_camera else None)
    except UserError as exc:
        return f"FAILED: {exc}"
    return calibration_error(cal, truth)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--no-samples", action="store_true")
    ap.add_argument("--seeds", type=int, nargs="*", default=[907, 911])
    ap.add_argument("--tilts", type=str, nargs="*", default=["seed", "35"],
                    help="camera tilts in degrees for the fresh clips ('seed': the seed's own)")
    ap.add_argument("--modes", nargs="*", default=["K+dist", "none"], choices=["K+dist", "none"])
    args = ap.parse_args()
    tilts: list[float | None] = [None if t == "seed" else float(t) for t in args.tilts]
    clips: list[Iterator[tuple[str, np.ndarray, dict[str, Any]]]] = []
    if not args.no_samples:
        clips.append(sample_frames())
    if args.seeds:
        clips.append(fresh_frames(args.seeds, tilts))
    print(f"{'clip':<46}{'tilt':>5} {'mode':<7}{'px mean':>8}{'px max':>8}{'mm mean':>8}{'mm max':>8}"
          f"{'holes mm max':>13}{'ms':>6}")
    summary: dict[str, list[float]] = {m: [] for m in args.modes}
    failures: dict[str, int] = {m: 0 for m in args.modes}
    for source in clips:
        for name, frame, truth in source:
            tilt = float(truth["camera"].get("tilt_deg", math.nan))
            for mode in args.modes:
                t0 = time.perf_counter()
                res = run_one(frame, truth, mode == "K+dist")
                ms = (time.perf_counter() - t0) * 1000
                if isinstance(res, str):
                    failures[mode] += 1
                    print(f"{name:<46}{tilt:>5.1f} {mode:<7}{res}")
                    continue
                summary[mode].append(res.holes_max_mm)
                print(f"{name:<46}{tilt:>5.1f} {mode:<7}{np.mean(res.all_px):>8.2f}{res.max_px:>8.2f}"
                      f"{np.mean(res.all_mm):>8.2f}{res.max_mm:>8.2f}{res.holes_max_mm:>13.2f}{ms:>6.0f}")
    for mode in args.modes:
        vals = summary[mode]
        if vals:
            print(f"[{mode}] clips {len(vals)}, failures {failures[mode]}: holes/pockets max error per clip "
                  f"mean {np.mean(vals):.2f} mm, worst {max(vals):.2f} mm, clips within 3 mm "
                  f"{sum(v <= 3.0 for v in vals)}/{len(vals)}")
        else:
            print(f"[{mode}] no clip calibrated, failures {failures[mode]}")


if __name__ == "__main__":
    main()
