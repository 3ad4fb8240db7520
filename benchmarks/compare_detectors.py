"""Both detectors on the same held-back frames, side by side: mAP50, recall, false positives, position error, fps.

    .venv/bin/python benchmarks/compare_detectors.py                  # rendered validation set + real photos
    .venv/bin/python benchmarks/compare_detectors.py --limit 60 --json
    .venv/bin/python benchmarks/compare_detectors.py --per-class      # AP50 of every class

Data: the validation split of ``out/detector-data`` (``scripts/build_dataset.py``: rendered
1280x720 frames of pool, bar billiards and carrom from installations no training frame shares,
truth from the simulator) and ``pool-balls-real/valid`` (real photos, never trained on; one
generic ``Ball`` class, so only presence is scored there). How boxes are matched and what each
figure means is in ``vision/learned_eval.py``. Each detector sees only the image, exactly as
``tableref detect IMAGE --table T`` without a calibration.

Speed: one CPU core (``cv2.setNumThreads(1)``, onnxruntime with one thread), the whole ``detect``
call on the 1280x720 frames (decoding the file is not counted). ``fps`` is from wall-clock time
(median frame); ``fps_cpu`` from the process's CPU time, which a machine shared with other jobs
inflates less.

Memory: the process caps its own address space (``--max-memory-gb``, 6 by default) so that a
detector asking for an absurd buffer on some frame gets an error, counted in ``failed_frames``
(no detections for that frame), instead of the machine's out-of-memory killer.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tableref.calibration.camera import CameraModel
from tableref.calibration.spec import load_table
from tableref.errors import UserError
from tableref.vision.detect import Detection, make_detector
from tableref.vision.learned import LearnedDetector, class_of, default_model_path
from tableref.vision.learned_eval import Found, Labelled, Scorer

ROOT = Path(__file__).resolve().parents[1]
TABLES = ("pool", "bar-billiards", "carrom")
#: The plane each table's objects are seen on (mm above the cloth), for position errors in millimetres.
PLANE_MM = {"pool": 28.575, "bar-billiards": 23.0, "carrom": 7.5}
LOW_SCORE = 0.05  # the learned detector's floor for the precision-recall curve


def real_dir() -> Path:
    env = os.environ.get("TABLEREF_DATASETS")
    return (Path(env) if env else ROOT.parent / "shared" / "datasets") / "pool-balls-real"


@dataclass(frozen=True)
class Frame:
    image: Path
    table: str
    truth: tuple[Labelled, ...]
    camera: dict[str, Any] | None = None


def rendered_frames(data: Path, split: str = "val") -> list[Frame]:
    out = []
    for line in (data / "truth" / f"{split}.jsonl").read_text().splitlines():
        row = json.loads(line)
        truth = tuple(Labelled(o["cls"], (o["box"][0], o["box"][1], o["box"][2], o["box"][3]),
                               (o["centre"][0], o["centre"][1])) for o in row["objects"])
        out.append(Frame(data / row["image"], row["table"], truth, row.get("camera")))
    return out


def real_frames(root: Path) -> list[Frame]:
    out = []
    for img in sorted((root / "valid" / "images").glob("*.jpg")):
        label = root / "valid" / "labels" / f"{img.stem}.txt"
        im = cv2.imread(str(img))
        if im is None or not label.exists():
            continue
        h, w = im.shape[:2]
        truth = []
        for line in label.read_text().splitlines():
            p = line.split()
            if len(p) == 5 and p[0] == "0":
                cx, cy, bw, bh = (float(v) for v in p[1:])
                box = ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h)
                truth.append(Labelled("ball", box, (cx * w, cy * h)))
        out.append(Frame(img, "pool", tuple(truth)))
    return out


def found(table: str, dets: Sequence[Detection]) -> list[Found]:
    return [Found(class_of(table, d.label, d.group), d.box(), d.score) for d in dets]


@dataclass
class Run:
    """One detector over one set of frames."""

    scorer: Scorer
    by_table: dict[str, Scorer] = field(default_factory=dict)
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    raw_recall: list[int] = field(default_factory=lambda: [0, 0])  # matched, labelled (uncircled real boxes)
    failed: list[str] = field(default_factory=list)  # frames whose detect call raised (scored as no detections)

    def figures(self) -> dict[str, Any]:
        fig: dict[str, Any] = {k: _round(v) for k, v in self.scorer.figures().items()
                               if self.scorer.class_aware or k != "identity"}
        fig["failed_frames"] = len(self.failed)
        if self.wall:
            fig["fps"] = round(1.0 / statistics.median(self.wall), 1)
            fig["fps_cpu"] = round(len(self.cpu) / sum(self.cpu), 1) if sum(self.cpu) > 0 else float("nan")
        if self.raw_recall[1]:
            fig["recall_label_boxes"] = round(self.raw_recall[0] / self.raw_recall[1], 4)
        if self.by_table:
            fig["by_table"] = {t: {k: _round(v) for k, v in s.figures().items() if k in ("mAP50", "recall", "identity",
                                                                                        "false_pos_per_frame")}
                               for t, s in self.by_table.items()}
        return fig


def _round(v: float) -> float:
    return round(v, 4) if isinstance(v, float) and math.isfinite(v) else v


Detect = Callable[[np.ndarray], tuple[Detection, ...]]


class DetectFailed(Exception):
    """A detector raised something other than its documented ``UserError`` on a frame."""


def classical_runner(table: str) -> Detect:
    """The classical detector; an image where it finds no table yields no detections."""
    classical = make_detector(table, "classical")

    def run(img: np.ndarray) -> tuple[Detection, ...]:
        try:
            return classical.detect(img)
        except UserError:
            return ()
        except (cv2.error, MemoryError) as exc:
            raise DetectFailed(str(exc).strip().splitlines()[-1][:200]) from exc

    return run


def _timed(fn: Detect, img: np.ndarray) -> tuple[tuple[Detection, ...], float, float]:
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn(img)
    return out, time.perf_counter() - t0, time.process_time() - c0


def _to_mm(f: Frame) -> Callable[[Sequence[tuple[float, float]]], np.ndarray] | None:
    """Pixels to table mm on the plane the frame's objects are seen on (rendered frames know their camera)."""
    if f.camera is None:
        return None
    cam = CameraModel.from_json(f.camera)
    z = PLANE_MM.get(f.table, 0.0)

    def to_mm(px: Sequence[tuple[float, float]]) -> np.ndarray:
        return cam.pixel_to_table(px, z)

    return to_mm


def evaluate(kind: str, frames: Sequence[Frame], model: Path, class_aware: bool, threshold: float) -> Run:
    run = Run(Scorer(threshold, class_aware))
    runners: dict[str, Detect] = {}
    learned = {t: LearnedDetector(t, model=model) for t in TABLES} if kind == "learned" else {}
    for f in frames:
        img = cv2.imread(str(f.image))
        if img is None:
            continue
        if kind == "learned":
            det = learned[f.table]
            low = det.detect_with_threshold(img, LOW_SCORE)
            reported, wall, cpu = _timed(det.detect, img)
        else:
            if f.table not in runners:
                runners[f.table] = classical_runner(f.table)
            try:
                low, wall, cpu = _timed(runners[f.table], img)
            except DetectFailed as exc:
                run.failed.append(f"{f.image.name}: {exc}")
                low, wall, cpu = (), math.nan, math.nan
            reported = low
        if math.isfinite(wall):
            run.wall.append(wall)
            run.cpu.append(cpu)
        to_mm = _to_mm(f)
        a, b = found(f.table, low), found(f.table, reported)
        run.scorer.add(f.truth, a, b, to_mm)
        if class_aware:
            run.by_table.setdefault(f.table, Scorer(threshold, True)).add(f.truth, a, b)
        else:
            from tableref.vision.detect import match_boxes

            pairs = match_boxes([d.box() for d in reported], [t.box for t in f.truth], 0.5)
            run.raw_recall[0] += len(pairs)
            run.raw_recall[1] += len(f.truth)
    return run


def table_text(title: str, figs: dict[str, dict[str, Any]]) -> str:
    kinds = list(figs)
    keys = [k for k in figs[kinds[0]] if k != "by_table"]
    lines = [f"== {title} ==", f"  {'':26s}" + "".join(f"{k:>14s}" for k in kinds)]
    for key in keys:
        lines.append(f"  {key:26s}" + "".join(f"{_fmt(figs[k].get(key)):>14s}" for k in kinds))
    tables = sorted({t for k in kinds for t in figs[k].get("by_table", {})})
    for t in tables:
        for key in ("mAP50", "recall", "identity", "false_pos_per_frame"):
            lines.append(f"  {t + ' ' + key:26s}" + "".join(
                f"{_fmt(figs[k].get('by_table', {}).get(t, {}).get(key)):>14s}" for k in kinds))
    return "\n".join(lines)


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.3f}" if math.isfinite(v) else "-"
    return "-" if v is None else str(v)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT / "out" / "detector-data", help="built by scripts/build_dataset.py")
    ap.add_argument("--real", type=Path, default=real_dir())
    ap.add_argument("--model", type=Path, default=default_model_path())
    ap.add_argument("--limit", type=int, default=0, help="rendered frames per table (0: all)")
    ap.add_argument("--detectors", default="classical,learned")
    ap.add_argument("--threshold", type=float, default=0.3, help="classical operating point for recall/false positives")
    ap.add_argument("--per-class", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--max-memory-gb", type=float, default=6.0, help="address-space cap of this process (0: none)")
    args = ap.parse_args(argv)
    if args.max_memory_gb > 0:
        cap = int(args.max_memory_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (cap, resource.getrlimit(resource.RLIMIT_AS)[1]))
    cv2.setNumThreads(1)
    kinds = [k for k in args.detectors.split(",") if k]
    if any(k not in ("classical", "learned") for k in kinds) or not kinds:
        print("--detectors takes classical, learned or both", file=sys.stderr)
        return 2
    if not (args.data / "truth" / "val.jsonl").exists():
        print(f"no rendered validation set at {args.data}: run scripts/build_dataset.py first", file=sys.stderr)
        return 2
    for t in TABLES:
        load_table(t)
    frames = rendered_frames(args.data)
    if args.limit:
        frames = [f for t in TABLES for f in [g for g in frames if g.table == t][: args.limit]]
    real = real_frames(args.real) if (args.real / "valid").is_dir() else []
    out: dict[str, Any] = {"rendered": {}, "real": {}, "failed": {}}
    per_class: dict[str, dict[str, float]] = {}
    for kind in kinds:
        r = evaluate(kind, frames, args.model, True, args.threshold)
        out["rendered"][kind] = r.figures()
        if r.failed:
            out["failed"][kind] = r.failed
        per_class[kind] = {k: round(v, 4) for k, v in r.scorer.per_class_ap().items()}
        if real:
            out["real"][kind] = evaluate(kind, real, args.model, False, args.threshold).figures()
    if args.per_class:
        out["per_class_ap50"] = per_class
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(table_text(f"rendered validation ({len(frames)} frames, 1280x720)", out["rendered"]))
    if real:
        print(table_text(f"pool-balls-real/valid ({len(real)} photos, 640x640)", out["real"]))
    for kind, failed in out["failed"].items():
        print(f"== {kind}: {len(failed)} frames raised (scored as no detections) ==")
        for line in failed:
            print(f"  {line}")
    if args.per_class:
        classes = sorted({c for k in kinds for c in per_class[k]})
        print("== AP50 per class (rendered) ==")
        for c in classes:
            print(f"  {c:26s}" + "".join(f"{_fmt(per_class[k].get(c)):>14s}" for k in kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
