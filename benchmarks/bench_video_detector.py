"""The calibrated video detector alone: per-frame quality against the truth, and its speed.

For each clip (the bundled samples, or fresh clips simulated with the given seeds) it builds the
venue calibration (as ``bench_pipeline.py`` does), runs :class:`VideoDetector` frame by frame and
compares its detections with the truth states, per table:

* recall and precision of balls and pieces on the cloth (a detection within 0.7 radii);
* label accuracy (pool numbers; bar billiards white/red; carrom white/black/queen/striker);
* mean position error in table millimetres (through the calibration, as the pipeline maps them);
* pins: share of frames each pin's state (standing/fallen) is right, and their position error;
* milliseconds a frame (wall clock and CPU time, one thread) with decoding excluded.

    .venv/bin/python benchmarks/bench_video_detector.py                     # the samples
    .venv/bin/python benchmarks/bench_video_detector.py --no-samples --fresh-seeds 101
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BALL_GAMES = ("bar-billiards", "up-and-down", "colors", "carroms")


def venue_calibration(truth: dict[str, Any]) -> dict[str, Any]:
    cam = truth.get("camera", {})
    return {"table": truth["table"], "homography": truth["homography"],
            "camera": {"K": cam.get("K"), "distortion": cam.get("distortion") if truth.get("distortion_applied") else None}}


def expected_label(obj: dict[str, Any], table: str) -> str:
    if table == "pool":
        return str(obj.get("label") or obj["id"])
    return str(obj["kind"])


def run_clip(video: Path, truth_path: Path) -> dict[str, Any]:
    from tableref.vision.pipeline import load_calibration
    from tableref.vision.video_detector import VideoDetector

    truth = json.loads(truth_path.read_text("utf-8"))
    mapping = load_calibration(venue_calibration(truth))
    assert mapping is not None
    detector = VideoDetector(truth["table"], mapping)
    cap = cv2.VideoCapture(str(video))
    out: dict[str, Any] = {"table": truth["table"], "tp": 0, "fp": 0, "fn": 0, "label_ok": 0, "errors": [],
                           "pin_ok": 0, "pin_n": 0, "pin_errors": [], "wall": 0.0, "cpu": 0.0, "frames": 0}
    index = 0
    while True:
        ok, image = cap.read()
        if not ok:
            break
        w0, c0 = time.perf_counter(), time.process_time()
        dets = detector.detect(image)
        out["wall"] += time.perf_counter() - w0
        out["cpu"] += time.process_time() - c0
        states = truth["states"][index] if index < len(truth["states"]) else []
        _score_frame(out, dets, states, mapping, truth["table"])
        index += 1
    out["frames"] = index
    cap.release()
    return out


def _score_frame(out: dict[str, Any], dets: Any, states: list[dict[str, Any]], mapping: Any, table: str) -> None:
    balls = [d for d in dets if not d.group.startswith("pin")]
    pins = {d.label: d for d in dets if d.group.startswith("pin")}
    objs = [o for o in states if o.get("status") == "on_table" and o["kind"] not in ("pin", "card")]
    used: set[int] = set()
    if objs:
        px = mapping.to_image([(o["x"], o["y"]) for o in objs])
        for o, (x, y) in zip(objs, px, strict=True):
            best: tuple[float, int] | None = None
            for j, d in enumerate(balls):
                dist = math.hypot(d.x - x, d.y - y)
                if j not in used and dist < 0.7 * d.radius and (best is None or dist < best[0]):
                    best = (dist, j)
            if best is None:
                out["fn"] += 1
                continue
            used.add(best[1])
            d = balls[best[1]]
            out["tp"] += 1
            out["label_ok"] += d.label == expected_label(o, table)
            mm = mapping.to_table([(d.x, d.y)])[0]
            out["errors"].append(math.hypot(mm[0] - o["x"], mm[1] - o["y"]))
    out["fp"] += len(balls) - len(used)
    for o in states:
        if o["kind"] != "pin" or o.get("status") not in ("on_table", "fallen"):
            continue
        out["pin_n"] += 1
        d = pins.get(o["id"])
        want = "pin-fallen" if o["status"] == "fallen" else "pin-standing"
        if d is None:
            continue
        out["pin_ok"] += d.group == want
        mm = mapping.to_table([(d.x, d.y)])[0]
        out["pin_errors"].append(math.hypot(mm[0] - o["x"], mm[1] - o["y"]))


def fresh_clips(seeds: list[int], folder: Path, games: list[str]) -> list[tuple[Path, Path]]:
    from tableref.simulator.clip import make_clip
    from tableref.simulator.scenarios import scenario_names

    clips = []
    for game in games:
        for name in scenario_names(game):
            for seed in seeds:
                d = folder / f"{game}-{name}-s{seed}"
                make_clip(game, name, seed, d)
                clips.append((d / "video.mp4", d / "truth.json"))
    return clips


def summarise(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    per: dict[str, dict[str, Any]] = defaultdict(lambda: defaultdict(float))
    lists: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in results:
        p = per[r["table"]]
        for k in ("tp", "fp", "fn", "label_ok", "pin_ok", "pin_n", "wall", "cpu", "frames"):
            p[k] += r[k]
        p["clips"] += 1
        lists[r["table"]]["errors"] += r["errors"]
        lists[r["table"]]["pin_errors"] += r["pin_errors"]
    out: dict[str, dict[str, Any]] = {}
    for table, p in sorted(per.items()):
        errs, perrs = lists[table]["errors"], lists[table]["pin_errors"]
        out[table] = {
            "clips": int(p["clips"]), "frames": int(p["frames"]),
            "recall": round(p["tp"] / max(1.0, p["tp"] + p["fn"]), 4),
            "precision": round(p["tp"] / max(1.0, p["tp"] + p["fp"]), 4),
            "label_accuracy": round(p["label_ok"] / max(1.0, p["tp"]), 4),
            "position_error_mm": round(sum(errs) / len(errs), 2) if errs else None,
            "pin_state_accuracy": round(p["pin_ok"] / p["pin_n"], 4) if p["pin_n"] else None,
            "pin_error_mm": round(sum(perrs) / len(perrs), 2) if perrs else None,
            "ms_per_frame": round(1000 * p["wall"] / max(1.0, p["frames"]), 2),
            "cpu_ms_per_frame": round(1000 * p["cpu"] / max(1.0, p["frames"]), 2),
        }
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--no-samples", action="store_true", help="skip the bundled sample clips")
    ap.add_argument("--fresh-seeds", type=int, nargs="*", default=[], help="seeds for fresh clips")
    ap.add_argument("--games", nargs="*", default=["bar-billiards", "up-and-down", "carroms"])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    clips: list[tuple[Path, Path]] = []
    if not args.no_samples:
        for video in sorted((ROOT / "sample_videos").glob("*.mp4")):
            truth = video.with_suffix(".truth.json")
            game = json.loads(truth.read_text("utf-8")).get("game")
            if game in BALL_GAMES and (game in args.games or (game == "colors" and "up-and-down" in args.games)):
                clips.append((video, truth))
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.fresh_seeds:
            clips += fresh_clips(args.fresh_seeds, Path(tmp) / "fresh", args.games)
        for video, truth in clips:
            r = run_clip(video, truth)
            name = video.parent.name if video.name == "video.mp4" else video.stem
            print(f"  {name}: {r['frames']} frames, {1000 * r['wall'] / max(1, r['frames']):.1f} ms a frame",
                  file=sys.stderr)
            results.append(r)
    summary = summarise(results)
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    keys = ["clips", "frames", "recall", "precision", "label_accuracy", "position_error_mm", "pin_state_accuracy",
            "pin_error_mm", "ms_per_frame", "cpu_ms_per_frame"]
    print(f"{'':20}" + "".join(f"{t:>16}" for t in summary))
    for k in keys:
        print(f"{k:20}" + "".join(f"{'-' if summary[t][k] is None else summary[t][k]:>16}" for t in summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
