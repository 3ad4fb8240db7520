"""Train the corner-index detector for card photos and export it to ONNX: the recipe behind
``models/cards/index_proposals.onnx`` (``--single-class``, the shipped proposer).

    .venv/bin/pip install -e '.[train]'                                   # ultralytics, torch: training only
    .venv/bin/python scripts/train_cards_detector.py --data-only          # 1. the data set (out/cards-index-data)
    # 2. train the shipped proposer (one class); as run 2026-11-26 on a lent H200, 4.5 minutes:
    .venv/bin/python scripts/train_cards_detector.py --single-class --device 0 --hours 0.075 --epochs 400 \
        --batch 16 --workers 14 --no-export --name index-1c
    # 3. ONNX (on any machine) and the .train.json beside it
    .venv/bin/python scripts/train_cards_detector.py --single-class \
        --export-weights out/cards-index-train/index-1c/weights/last.pt

Why a detector at all: the classical search (``vision/cards_index.py``) proposes glyph clusters and a
small CNN reads them, but on the held-out real photos only 0.955 of the cards have *any* proposal
holding their index (fans, glare, cards cut by the frame), so the read-right figure cannot pass
0.95 that way. A YOLO network trained on the real photos' corner boxes finds indices as a whole.
Without ``--single-class`` it also names them (55 classes): tried, it read only 0.45 of the
held-out cards by itself (564 photos are too few to learn 52 faces from scratch), so the shipped
model is the one-class proposer and the CNN reads (``models/cards/README.md``).

What is trained on: the *training side* of the fixed split of ``cards-real`` (``vision/cards_data.py``,
564 photos); the 98 held-out photos are never seen. The train-side groups whose name bytes sum to
0 modulo 7 (as for the index CNN) are also written as ``val`` for the trainer's own figures; they are
trained on too, so those figures are optimistic: the honest figure is ``benchmarks/bench_cards_real.py``.
The 55 classes are the data set's own (``classes.txt``: the 52 cards, ``BACK``, two jokers).

Why these settings: the network is ultralytics' ``yolo11n.yaml`` built from scratch (no weights can
be downloaded), ``amp=False`` (its check downloads a model), ``plots=False`` (plots fetch a font),
nothing reaches the network (``YOLO_OFFLINE``). No flips: a mirrored index is not a card. Mosaic,
scale and colour jitter stand in for more photos; rotation is left to the photos themselves, which
hold cards at every angle (a rotated axis-aligned box grows and teaches loose boxes).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from train_detector import epochs_run, offline_env, require_ultralytics  # noqa: E402

DEFAULT_DATA = ROOT / "out" / "cards-index-data"
DEFAULT_OUT = ROOT / "models" / "cards" / "index_proposals.onnx"  # --single-class: the shipped proposer
DEFAULT_OUT_CLASSES = ROOT / "models" / "cards" / "index_yolo.onnx"  # 55 classes: compared, not shipped
MODEL_YAML = "yolo11n.yaml"  # ultralytics' own definition, scale n; built from scratch
JPEG_QUALITY = 92


def is_val_group(stem: str) -> bool:
    """The train-side groups the index CNN validates on (name bytes sum to 0 modulo 7)."""
    from tableref.vision.cards_data import capture_group

    return sum(capture_group(stem).encode()) % 7 == 0


def build_data(out: Path, source: Path | None = None) -> Path:
    """Write the YOLO data set (images, labels, lists, data.yaml) from the training side of ``cards-real``.

    The photos are copied byte for byte (``jpegtran -optimize`` when it is installed: the same
    pixels in 7% fewer bytes, which lets the data set travel to a lent GPU beside the repository);
    ``train.txt`` and ``val.txt`` list them, so no photo is stored twice.
    """
    import subprocess

    from tableref.vision.cards_data import dataset_dir, is_test

    src = dataset_dir(source)
    classes = [line.strip() for line in (src / "classes.txt").read_text("utf-8").splitlines() if line.strip()]
    if out.exists():
        shutil.rmtree(out)
    (out / "images").mkdir(parents=True)
    (out / "labels").mkdir(parents=True)
    jpegtran = shutil.which("jpegtran")
    lists: dict[str, list[str]] = {"train": [], "val": []}
    for img_path in sorted(src.glob("*.jpg")):
        if is_test(img_path.stem):
            continue
        target = out / "images" / img_path.name
        if jpegtran:
            with target.open("wb") as fh:
                subprocess.run([jpegtran, "-optimize", "-progressive", "-copy", "none", str(img_path)],
                               stdout=fh, check=True)
        else:
            shutil.copyfile(img_path, target)
        lines = []
        label = img_path.with_suffix(".txt")
        if label.is_file():
            for line in label.read_text("utf-8").splitlines():
                parts = line.split()
                if len(parts) == 5 and 0 <= int(parts[0]) < len(classes):
                    lines.append(" ".join(parts))
        (out / "labels" / f"{img_path.stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
        lists["train"].append(f"./images/{img_path.name}")
        if is_val_group(img_path.stem):
            lists["val"].append(f"./images/{img_path.name}")
    for side, files in lists.items():
        (out / f"{side}.txt").write_text("\n".join(files) + "\n")
    names = "\n".join(f"  {i}: {json.dumps(n)}" for i, n in enumerate(classes))
    (out / "data.yaml").write_text(f"path: .\ntrain: train.txt\nval: val.txt\nnames:\n{names}\n")
    print(f"data set {out}: {len(lists['train'])} training photos, {len(lists['val'])} of them also validation")
    return out / "data.yaml"


def _results_without_polars() -> None:
    """Let ultralytics save checkpoints where polars is not installed (a lent GPU machine has no registry).

    Its trainer reads ``results.csv`` back with polars only to store the table inside each
    checkpoint; the standard library reads it the same way.
    """
    try:
        import polars  # noqa: F401
        return
    except ImportError:
        pass
    import csv

    from ultralytics.engine.trainer import BaseTrainer

    def read_results_csv(self: Any) -> dict[str, list[float]]:
        try:
            rows = list(csv.DictReader(Path(self.csv).read_text().splitlines()))
        except OSError:
            return {}
        return {k.strip(): [float(r[k]) for r in rows] for k in (rows[0] if rows else {})}

    BaseTrainer.read_results_csv = read_results_csv  # type: ignore[method-assign]


def train(data_yaml: Path, *, epochs: int, hours: float, batch: int, device: str, workers: int,
          project: Path, name: str, seed: int, lr0: float, imgsz: int, fraction: float = 1.0,
          single_class: bool = False) -> Path:
    """Train ``yolo11n`` from scratch; returns the run folder.

    ``single_class`` trains a *proposer*: every card index is one class ``index`` (the corner-index
    CNN reads it afterwards), so all 2,300 boxes teach one notion instead of 52 thin ones, and
    mirror images and turns are allowed (a mirrored index is still where an index is).
    """
    from ultralytics import YOLO

    _results_without_polars()
    # ultralytics resolves a relative ``path:`` against its own datasets folder: make it absolute here.
    text = data_yaml.read_text().replace("path: .\n", f"path: {data_yaml.parent.resolve()}\n")
    resolved = data_yaml.with_name("data.resolved.yaml")
    resolved.write_text(text)
    model = YOLO(MODEL_YAML, task="detect")
    model.train(
        data=str(resolved), epochs=epochs, imgsz=imgsz, batch=batch, device=device, workers=workers,
        project=str(project), name=name, exist_ok=True, seed=seed, deterministic=False, pretrained=False,
        amp=False, plots=False, val=True, patience=10_000, close_mosaic=max(1, epochs // 10), cache="ram",
        optimizer="AdamW", lr0=lr0, cos_lr=True, warmup_epochs=3.0, nbs=batch,  # a step every batch: few photos
        hsv_h=0.01, hsv_s=0.6, hsv_v=0.5, degrees=20.0 if single_class else 0.0, translate=0.1, scale=0.5,
        shear=0.0, perspective=0.0, fliplr=0.5 if single_class else 0.0, flipud=0.5 if single_class else 0.0,
        single_cls=single_class, mosaic=1.0, mixup=0.0, copy_paste=0.0, verbose=True, fraction=fraction,
        **({"time": hours} if hours > 0 else {}),
    )
    return project / name


def export(weights: Path, imgsz: int) -> Path:
    from ultralytics import YOLO

    model = YOLO(str(weights), task="detect")
    out = model.export(format="onnx", imgsz=imgsz, dynamic=True, simplify=False, opset=17, half=False, nms=False,
                       device="cpu")
    return Path(str(out))


def run_facts(weights: Path) -> dict[str, Any]:
    """What a finished run says of itself (its ``args.yaml`` and ``results.csv`` beside or above the weights)."""
    import csv

    out: dict[str, Any] = {"weights": str(weights)}
    for folder in (weights.parent, weights.parent.parent):
        if (folder / "results.csv").is_file() and (folder / "args.yaml").is_file():
            conf = dict(line.partition(":")[::2] for line in (folder / "args.yaml").read_text().splitlines())
            conf = {k.strip(): v.strip().strip("'\"") for k, v in conf.items()}
            rows = [{k.strip(): v.strip() for k, v in r.items()}
                    for r in csv.DictReader((folder / "results.csv").read_text().splitlines())]
            out.update({"device": conf.get("device"), "single_class": conf.get("single_cls") == "true",
                        "batch": int(conf.get("batch", "0")), "epochs_run": len(rows),
                        "train_seconds": round(float(rows[-1]["time"])) if rows else 0,
                        "last_epoch_val": {k: float(v) for k, v in rows[-1].items() if k.startswith("metrics/")}
                        if rows else {}})
            break
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="data set folder (built when missing)")
    ap.add_argument("--source", type=Path, default=None, help="the cards-real folder (default ../shared/datasets)")
    ap.add_argument("--data-only", action="store_true", help="build the data set and stop")
    ap.add_argument("--out", type=Path, default=None, help="where the ONNX file goes (default by --single-class)")
    ap.add_argument("--epochs", type=int, default=300)
    ap.add_argument("--hours", type=float, default=0.0, help="wall-clock budget (ultralytics re-plans the epochs)")
    ap.add_argument("--imgsz", type=int, default=640)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr0", type=float, default=0.002)
    ap.add_argument("--device", default="cpu", help="cpu, or a CUDA device such as 0")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--project", type=Path, default=ROOT / "out" / "cards-index-train")
    ap.add_argument("--name", default="index-yolo")
    ap.add_argument("--fraction", type=float, default=1.0, help="share of the training photos (a smoke test)")
    ap.add_argument("--single-class", action="store_true", help="one class, index: the proposer for the index CNN")
    ap.add_argument("--no-export", action="store_true", help="train only (export later with --export-weights)")
    ap.add_argument("--export-weights", type=Path, default=None, help="no training: export these weights")
    args = ap.parse_args(argv)
    if args.epochs < 1 or args.batch < 1 or args.hours < 0 or args.imgsz % 32 or not 0 < args.fraction <= 1:
        print("bad arguments: epochs and batch >= 1, hours >= 0, imgsz a multiple of 32, fraction in (0, 1]",
              file=sys.stderr)
        return 2
    if args.out is None:
        args.out = DEFAULT_OUT if args.single_class else DEFAULT_OUT_CLASSES
    if args.data_only or not (args.data / "data.yaml").exists():
        build_data(args.data, args.source)
        if args.data_only:
            return 0
    offline_env(args.project / "ultralytics-config")
    require_ultralytics()
    summary: dict[str, Any] = {"date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
                               "model": MODEL_YAML, "imgsz": args.imgsz}
    if args.export_weights is None:
        t0 = time.time()
        run = train(args.data / "data.yaml", epochs=args.epochs, hours=args.hours, batch=args.batch,
                    device=args.device, workers=args.workers, project=args.project, name=args.name,
                    seed=args.seed, lr0=args.lr0, imgsz=args.imgsz, fraction=args.fraction,
                    single_class=args.single_class)
        weights = run / "weights" / "last.pt"
        summary.update({"command": " ".join(["scripts/train_cards_detector.py", *(argv or sys.argv[1:])]),
                        "device": args.device, "epochs_run": epochs_run(run), "train_seconds": round(time.time() - t0),
                        "weights": str(weights)})
    else:
        weights = args.export_weights
        summary.update(run_facts(weights))
    if args.no_export:
        print(json.dumps(summary, indent=1))
        return 0
    onnx_path = export(weights, args.imgsz)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(onnx_path, args.out)
    summary["onnx_bytes"] = args.out.stat().st_size
    Path(str(args.out) + ".train.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
