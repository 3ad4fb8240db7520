"""The whole camera pipeline on rendered clips: accuracy per table, and speed against decoding.

For each clip (the bundled samples, plus fresh clips simulated with seeds never used in
development), it builds the venue calibration a camera install would have (the homography of
the ball-centre plane and the camera's intrinsics and distortion, as `tableref calibrate` writes
with known intrinsics), runs `tableref analyze`, scores it with `tableref evaluate`, and prints per
table: pot F1, first-contact accuracy, cushion F1, pin-fall F1, baulk-entry F1, mean position
error, identity accuracy, and frames per second of the whole pipeline on one core next to
decoding alone, by the wall clock and by this process's CPU time (on a machine shared with other
work the wall clock counts their time too; the CPU time does not).

    .venv/bin/python benchmarks/bench_pipeline.py                # samples + 2 fresh seeds per scenario kind
    .venv/bin/python benchmarks/bench_pipeline.py --fresh-seeds 101 102 --no-samples --json
    .venv/bin/python benchmarks/bench_pipeline.py --no-samples --fresh-seeds 2201 --clips /tmp/clips --misses

``--clips DIR`` keeps the simulated clips there and reuses them on the next run (simulating and
rendering takes longer than analysing, and a before/after comparison wants the same clips);
``--detections DIR`` keeps each clip's detector output there (every frame's detections and
foreground) and, on the next run, reruns only the tracker and the event extractor on it: a change
to those is measured on hundreds of clips in a minute or two instead of half an hour. The kept
output is keyed by the video, its calibration and the detector's source files, so a change to
the detector reads the clip afresh; speed is not measured in a replay;
``--misses`` prints, per clip, each missed and each false event of the floor types and each
wrong first contact, with the nearest event of the other side, which is where a change starts.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import gzip  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import pickle  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BALL_TABLES = {"bar-billiards": "bar-billiards", "up-and-down": "pool", "colors": "pool", "carroms": "carrom"}
FLOORS = {"pot": 0.99, "first_contact": 0.98, "cushion": 0.95, "pin_fall": 0.99, "baulk_entry": 0.98,
          "position_error_mm": 5.0, "identity_accuracy": 0.98}


def venue_calibration(truth: dict[str, Any]) -> dict[str, Any]:
    """The calibration a venue's install gives: ball-plane homography plus lens intrinsics."""
    cam = truth.get("camera", {})
    return {"table": truth["table"], "homography": truth["homography"],
            "camera": {"K": cam.get("K"), "distortion": cam.get("distortion") if truth.get("distortion_applied") else None}}


def decode_fps(video: Path) -> tuple[float, float]:
    """Frames per second of decoding alone: wall clock and CPU time of this process."""
    cap = cv2.VideoCapture(str(video))
    n, start, cpu = 0, time.perf_counter(), time.process_time()
    while cap.read()[0]:
        n += 1
    cap.release()
    return n / max(1e-9, time.perf_counter() - start), n / max(1e-9, time.process_time() - cpu)


#: the detector's source (per ``tableref`` subpackage, wherever the install maps it: the stages are
#: top-level folders of the repository): kept detections are read afresh when any of these changes
DETECTOR_SOURCES = (("vision", "video_*.py"), ("vision", "detect.py"), ("vision", "classical*.py"),
                    ("vision", "pipeline.py"), ("vision", "cue_end.py"), ("vision", "knock.py"),
                    ("vision", "extract_contacts.py"), ("calibration", "*.py"))


def detections_key(video: Path, calibration: dict[str, Any], detector: str) -> str:
    """What a clip's kept detector output depends on: the video, its calibration, the detector."""
    import importlib

    h = hashlib.sha256(video.read_bytes())
    h.update(json.dumps(calibration, sort_keys=True).encode())
    h.update(detector.encode())
    for subpackage, pattern in DETECTOR_SOURCES:
        # an editable install maps ``tableref.vision`` to the repository's ``vision/``, not to a
        # folder under ``tableref/``: ask the import system where it lives
        folder = Path(importlib.import_module(f"tableref.{subpackage}").__file__ or "").resolve().parent
        sources = sorted(folder.glob(pattern))
        if not sources:
            raise RuntimeError(f"no detector source {pattern} in {folder}: kept detections cannot be keyed")
        for source in sources:
            h.update(source.name.encode())
            h.update(source.read_bytes())
    return h.hexdigest()[:20]


def replay_clip(video: Path, calibration: dict[str, Any], table: str, work: Path, detector: str,
                kept: Path) -> dict[str, Any]:
    """``tableref analyze``'s event log and tracks for one clip, its detector output read from
    ``kept`` (and written there first when missing): the tracker and the extractor run afresh."""
    from tableref.analyze import event_line, track_line
    from tableref.vision.detect import with_table_mm
    from tableref.vision.pipeline import VisionPipeline

    pipeline = VisionPipeline.create(table, calibration, detector)
    path = kept / f"{video.parent.name}-{video.stem}-{detections_key(video, calibration, detector)}.pkl.gz"
    cap = cv2.VideoCapture(str(video))
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    size = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
    frames: list[tuple[Any, Any]] = []
    if path.exists():
        cap.release()
        frames = pickle.loads(gzip.decompress(path.read_bytes()))
    else:
        ok, image = cap.read()
        while ok:
            detections = with_table_mm(pipeline.detector.detect(image), pipeline.mapping)
            foreground = getattr(pipeline.detector, "foreground", lambda: None)()
            frames.append((detections, None if foreground is None else foreground.copy()))
            ok, image = cap.read()
        cap.release()
        kept.mkdir(parents=True, exist_ok=True)
        path.write_bytes(gzip.compress(pickle.dumps(frames), compresslevel=1))
    pipeline.reset()
    use_foreground = getattr(pipeline.detector, "use_foreground", None)
    work.mkdir(parents=True, exist_ok=True)
    with (work / "events.jsonl").open("w", encoding="utf-8") as ev_fh, \
            (work / "tracks.jsonl").open("w", encoding="utf-8") as tr_fh:
        for index, (detections, foreground) in enumerate(frames):
            if foreground is not None and callable(use_foreground):
                use_foreground(size, foreground)
            result = pipeline.track(detections, index, index / fps)
            tr_fh.write(track_line(index, index / fps, result))
            ev_fh.writelines(event_line(e) for e in result.events)
    return {"frames": len(frames)}


def run_clip(video: Path, truth_path: Path, work: Path, detector: str, kept: Path | None = None) -> dict[str, Any]:
    from tableref.analyze import analyze
    from tableref.evaluate import evaluate_dir

    truth = json.loads(truth_path.read_text("utf-8"))
    work.mkdir(parents=True, exist_ok=True)
    cal = work / "cal.json"
    calibration = venue_calibration(truth)
    cal.write_text(json.dumps(calibration))
    start, cpu = time.perf_counter(), time.process_time()
    if kept is not None:
        summary = replay_clip(video, calibration, truth["table"], work, detector, kept)
    else:
        summary = analyze(str(video), truth["table"], work, game=None, calibration=str(cal), detector=detector,
                          annotate_video=False, progress=False)
    elapsed, cpu_elapsed = time.perf_counter() - start, time.process_time() - cpu
    result = evaluate_dir(work, truth_path)
    result["frames"] = summary["frames"]
    result["seconds"] = elapsed
    result["cpu_seconds"] = cpu_elapsed
    result["decode_fps"], result["decode_cpu_fps"] = decode_fps(video) if kept is None else (0.0, 0.0)
    result["table"] = truth["table"]
    result["fps_truth"] = truth.get("fps", 30.0)
    return result


def fresh_clips(seeds: list[int], folder: Path, games: list[str]) -> list[tuple[Path, Path]]:
    """Simulated clips for every scenario of ``games`` and every seed, in ``folder``. A clip
    already there (its truth written last) is reused; a seed whose physics shows no take of the
    scenario is remembered as skipped (``skipped.txt``), so a kept folder is not simulated again."""
    from tableref.simulator.clip import make_clip
    from tableref.simulator.scenarios import scenario_names

    out = []
    for game in games:
        for name in scenario_names(game):
            for seed in seeds:
                d = folder / f"{game}-{name}-s{seed}"
                if (d / "skipped.txt").exists():
                    continue
                if not (d / "truth.json").exists():
                    try:
                        make_clip(game, name, seed, d)
                    except RuntimeError as exc:  # the physics found no take showing the scenario for this seed
                        print(f"  skipped {game}-{name}-s{seed}: {exc}", file=sys.stderr)
                        d.mkdir(parents=True, exist_ok=True)
                        (d / "skipped.txt").write_text(f"{exc}\n", "utf-8")
                        continue
                out.append((d / "video.mp4", d / "truth.json"))
    return out


MISS_TYPES = ("pot", "cushion", "pin_fall", "pin_moved", "baulk_entry")
SPEED_KEYS = ("pipeline_fps", "decode_fps", "ratio_to_decode", "pipeline_cpu_fps", "decode_cpu_fps",
              "cpu_ratio_to_decode")


def misses(work: Path, truth_path: Path) -> list[str]:
    """Lines naming each missed (FN) and false (FP) event of the floor types in one analysed clip,
    with the nearest event of the same type on the other side, and a wrong first contact."""
    from tableref.evaluate import _frame, first_contact_accuracy, load_events, match_events, truth_events
    from tableref.events import TableEvent

    known = json.loads(truth_path.read_text("utf-8"))
    fps = float(known.get("fps", 30.0))
    detected, truth = load_events(work / "events.jsonl"), truth_events(known)
    _, pairs = match_events(detected, truth, fps)
    matched = {id(e) for pair in pairs for e in pair}

    def show(e: TableEvent) -> str:
        return f"f{_frame(e, fps)} {'+'.join(e.objects)}{' ' + e.where if e.where else ''}"

    lines = []
    for kind, mine, other in (("missed", truth, detected), ("false", detected, truth)):
        for e in mine:
            if e.type.value not in MISS_TYPES or id(e) in matched:
                continue
            near = sorted((o for o in other if o.type is e.type), key=lambda o: abs(_frame(o, fps) - _frame(e, fps)))
            lines.append(f"{kind} {e.type.value} {show(e)}" + (f"  (nearest: {show(near[0])})" if near else ""))
    accuracy, shots = first_contact_accuracy(detected, truth, fps)
    if shots and accuracy < 1.0:
        def firsts(events: list[TableEvent]) -> list[str]:
            return [show(e) for e in events if e.type.value == "contact"][:2]

        lines.append(f"first contact right in {round(accuracy * shots)} of {shots} shots: "
                     f"true {firsts(truth)}, found {firsts(detected)}")
    return lines


def summarise(results: list[dict[str, Any]], key: str = "table") -> dict[str, dict[str, Any]]:
    """The clips' figures summed per ``key`` of each result (its table; ``bench_camera.py``: the
    camera effect it was delivered through)."""
    per: dict[str, dict[str, Any]] = defaultdict(lambda: {"events": defaultdict(lambda: [0, 0, 0]), "fc": [0, 0],
                                                          "id": [0.0, 0], "pos": [0.0, 0], "frames": 0,
                                                          "seconds": 0.0, "cpu_seconds": 0.0, "decode": [],
                                                          "decode_cpu": [], "clips": 0})
    for r in results:
        p = per[r[key]]
        p["clips"] += 1
        for name, m in r["events"].items():
            e = p["events"][name]
            e[0] += m["tp"]
            e[1] += m["fp"]
            e[2] += m["fn"]
        shots = r["first_contact"]["shots"]
        p["fc"][0] += round(r["first_contact"]["accuracy"] * shots)
        p["fc"][1] += shots
        tracks = r.get("tracks", {})
        n = tracks.get("matched_objects") or 0
        if tracks.get("identity_accuracy") is not None:
            p["id"][0] += tracks["identity_accuracy"] * n
            p["id"][1] += n
        if tracks.get("position_error_mm") is not None:
            p["pos"][0] += tracks["position_error_mm"] * n
            p["pos"][1] += n
        p["frames"] += r["frames"]
        p["seconds"] += r["seconds"]
        p["cpu_seconds"] += r.get("cpu_seconds", r["seconds"])
        p["decode"].append(r["decode_fps"])
        p["decode_cpu"].append(r.get("decode_cpu_fps", r["decode_fps"]))
    out: dict[str, dict[str, Any]] = {}
    for table, p in sorted(per.items()):
        def f1(name: str, p: dict[str, Any] = p) -> float | None:
            tp, fp, fn = p["events"].get(name, (0, 0, 0))
            if tp + fp + fn == 0:
                return None
            prec = tp / (tp + fp) if tp + fp else 1.0
            rec = tp / (tp + fn) if tp + fn else 1.0
            return round(2 * prec * rec / (prec + rec), 4) if prec + rec else 0.0

        fps = p["frames"] / max(1e-9, p["seconds"])
        dec = sum(p["decode"]) / len(p["decode"])
        cpu_fps = p["frames"] / max(1e-9, p["cpu_seconds"])
        dec_cpu = sum(p["decode_cpu"]) / len(p["decode_cpu"])
        out[table] = {
            "clips": p["clips"],
            "pot": f1("pot"), "first_contact": round(p["fc"][0] / p["fc"][1], 4) if p["fc"][1] else None,
            "first_contact_right": tuple(p["fc"]),
            "cushion": f1("cushion"), "pin_fall": f1("pin_fall"), "pin_moved": f1("pin_moved"),
            "baulk_entry": f1("baulk_entry"),
            "contact": f1("contact"), "shot_start": f1("shot_start"), "at_rest": f1("at_rest"),
            "off_table": f1("off_table"), "placed": f1("placed"),
            "position_error_mm": round(p["pos"][0] / p["pos"][1], 2) if p["pos"][1] else None,
            "identity_accuracy": round(p["id"][0] / p["id"][1], 4) if p["id"][1] else None,
            "pipeline_fps": round(fps, 1), "decode_fps": round(dec, 1), "ratio_to_decode": round(dec / fps, 2),
            "pipeline_cpu_fps": round(cpu_fps, 1), "decode_cpu_fps": round(dec_cpu, 1),
            "cpu_ratio_to_decode": round(dec_cpu / cpu_fps, 2),
            "events": {k: tuple(v) for k, v in sorted(p["events"].items())},
        }
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-samples", action="store_true", help="skip the bundled sample clips")
    ap.add_argument("--fresh-seeds", type=int, nargs="*", default=[101], help="seeds for fresh clips")
    ap.add_argument("--games", nargs="*", default=["bar-billiards", "up-and-down", "carroms"])
    ap.add_argument("--detector", choices=("classical", "learned"), default="classical")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--clips", type=Path, help="keep the simulated clips in this folder and reuse them")
    ap.add_argument("--misses", action="store_true", help="print each clip's missed and false events")
    ap.add_argument("--detections", type=Path,
                    help="keep each clip's detector output in this folder and rerun only the tracker and "
                         "the event extractor on it (no speed figures)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    clips: list[tuple[Path, Path]] = []
    if not args.no_samples:
        for video in sorted((ROOT / "sample_videos").glob("*.mp4")):
            truth = video.with_suffix(".truth.json")
            game = json.loads(truth.read_text("utf-8")).get("game")
            if game in BALL_TABLES and game in args.games or (game == "colors" and "up-and-down" in args.games):
                clips.append((video, truth))
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        if args.fresh_seeds:
            clips += fresh_clips(args.fresh_seeds, args.clips or Path(tmp) / "fresh", args.games)
        for i, (video, truth) in enumerate(clips):
            work = Path(tmp) / f"run{i}"
            r = run_clip(video, truth, work, args.detector, args.detections)
            r["clip"] = str(video.relative_to(ROOT)) if video.is_relative_to(ROOT) else video.parent.name
            results.append(r)
            print(f"  {r['clip']}: {r['frames']} frames, {r['frames'] / r['seconds']:.1f} fps", file=sys.stderr)
            if args.misses:
                for line in misses(work, truth):
                    print(f"    {line}", file=sys.stderr)
    summary = summarise(results)
    if args.detections is not None:  # a replay times only the tracker and the extractor
        for figures in summary.values():
            figures.update({k: None for k in SPEED_KEYS})
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    keys = ["clips", "pot", "first_contact", "cushion", "pin_fall", "pin_moved", "baulk_entry", "contact", "shot_start",
            "off_table", "position_error_mm", "identity_accuracy", "pipeline_fps", "decode_fps", "ratio_to_decode",
            "pipeline_cpu_fps", "decode_cpu_fps", "cpu_ratio_to_decode"]
    print(f"{'':22}" + "".join(f"{t:>16}" for t in summary))
    for k in keys:
        print(f"{k:22}" + "".join(f"{'-' if summary[t][k] is None else summary[t][k]:>16}" for t in summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
