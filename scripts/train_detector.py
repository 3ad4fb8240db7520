"""Train the learned detector and export it to ONNX: the one command that reproduces ``models/tableref-balls.onnx``.

    .venv/bin/pip install -e '.[train]'                      # ultralytics (and torch): training only
    nice -n 19 .venv/bin/python scripts/train_detector.py     # CPU recipe: builds the data set if missing
    .venv/bin/python scripts/train_detector.py --device 0 --epochs 150 --batch 128 --workers 8   # on a GPU
    .venv/bin/python scripts/train_detector.py --device 0 --hours 0.1 --workers 14 --cache ram --dataset-args "--jobs 16"
                                                             # a 16-core GPU machine lent for minutes

What it does, in order: builds ``out/detector-data`` with ``scripts/build_dataset.py`` when it is not
there; trains the network of ``models/tableref-balls.yaml`` from scratch on the data set's 384x384
tiles (which hold frames at the run-time scale, so the network trained on tiles runs on whole
768x448 frames) (no pretrained weights:
none exist for this shape and nothing may be downloaded); exports the best epoch to ONNX (opset 17,
dynamic height and width, no simplifier: it would need a download); loads the ONNX file with
onnxruntime alone and checks that it finds objects on a validation frame; copies it to ``--out``
and writes ``<out>.train.json`` with the command, the date, the time taken and the validation
figures.

Why these settings: ``amp=False`` (no mixed precision on a CPU, and AMP's check downloads a model),
``plots=False`` (plots fetch a font), ``YOLO_OFFLINE=1`` and ``YOLO_AUTOINSTALL=False`` (ultralytics
never reaches the network nor pip); hue jitter small (a ball's hue is its number); vertical flips
on (a camera above a table has no "up").
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT / "out" / "detector-data"
DEFAULT_YAML = ROOT / "models" / "tableref-balls.yaml"
DEFAULT_OUT = ROOT / "models" / "tableref-balls.onnx"


def offline_env(config_dir: Path) -> None:
    """Settings that keep ultralytics off the network and out of the user's home; before importing it."""
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "False"
    os.environ["YOLO_VERBOSE"] = os.environ.get("YOLO_VERBOSE", "True")
    os.environ.setdefault("YOLO_CONFIG_DIR", str(config_dir))
    os.environ.setdefault("WANDB_MODE", "disabled")
    os.environ.setdefault("MPLBACKEND", "Agg")


def require_ultralytics() -> Any:
    try:
        import ultralytics
    except ImportError:
        print("training needs the train extra: .venv/bin/pip install -e '.[train]'", file=sys.stderr)
        raise SystemExit(2) from None
    from ultralytics.utils import SETTINGS

    off = {"sync": False, "wandb": False, "mlflow": False, "comet": False, "clearml": False, "neptune": False,
           "tensorboard": False, "dvc": False, "raytune": False, "vscode_msg": False, "openvino_msg": False}
    SETTINGS.update({k: v for k, v in off.items() if k in SETTINGS})
    _results_without_polars()
    return ultralytics


def read_results_rows(text: str) -> dict[str, list[Any]]:
    """``results.csv`` as columns of numbers (a cell that is not one stays text), header names stripped."""
    out: dict[str, list[Any]] = {}
    for row in csv.DictReader(text.splitlines()):
        for key, value in row.items():
            try:
                cell: Any = float(value)
            except (TypeError, ValueError):
                cell = value
            out.setdefault(str(key).strip(), []).append(cell)
    return out


def _results_without_polars() -> None:
    """Where polars is missing, let the trainer read its ``results.csv`` with the csv module.

    ultralytics imports polars only to store the epochs' figures in each checkpoint; training itself
    does not need it. A GPU machine lent for minutes may hold torch and the rest but not polars, whose
    runtime (about 54 MB) is too large to carry there beside the data.
    """
    try:
        import polars  # noqa: F401
    except ImportError:
        from ultralytics.engine.trainer import BaseTrainer

        def read_results_csv(trainer: Any) -> dict[str, list[Any]]:
            try:
                return read_results_rows(Path(trainer.csv).read_text())
            except OSError:
                return {}

        BaseTrainer.read_results_csv = read_results_csv


def train(data_yaml: Path, model_yaml: Path, *, epochs: int, imgsz: int, batch: int, device: str, workers: int,
          project: Path, name: str, seed: int = 0, fraction: float = 1.0, patience: int = 100,
          close_mosaic: int = 10, cache: bool | str = False, lr0: float = 0.01, hours: float = 0.0,
          threads: int = 1, stop_after: int = 0, resume: Path | None = None) -> tuple[Path, dict[str, float]]:
    """Train from ``model_yaml``; returns the best weights and the last validation metrics.

    ``hours`` > 0 bounds the run by wall-clock time instead of ``epochs`` (ultralytics re-plans the
    epochs and the learning-rate schedule after each epoch so that the schedule ends on time): on a
    shared CPU the number of epochs a budget buys is not known in advance.

    ``stop_after`` > 0 ends the run after that many epochs while keeping the schedule (learning
    rate, mosaic) of ``epochs``: the shipped CPU model is the cut-short run of the 20-epoch recipe,
    and this reproduces it in one command. ``resume`` continues an interrupted run from its
    ``last.pt`` (same data and settings; the checkpoint's own arguments win, as ultralytics does).
    """
    import ultralytics.utils.torch_utils as torch_utils
    from ultralytics import YOLO

    torch_utils.NUM_THREADS = threads  # ultralytics resets torch to cores - 1 threads on a CPU

    if resume is not None:
        model = YOLO(str(resume), task="detect")
        _stop_after(model, stop_after)
        results = model.train(resume=str(resume), data=str(data_yaml), save_dir=str(project / name), cache=cache,
                              plots=False, workers=workers, device=device)
        return _finish(results, project / name)
    model = YOLO(str(model_yaml), task="detect")
    _stop_after(model, stop_after)
    results = model.train(
        data=str(data_yaml), epochs=epochs, imgsz=imgsz, batch=batch, device=device, workers=workers,
        project=str(project), name=name, exist_ok=True, seed=seed, deterministic=True, pretrained=False,
        amp=False, plots=False, val=True, fraction=fraction, patience=patience, close_mosaic=close_mosaic,
        cache=cache, optimizer="AdamW", lr0=lr0, cos_lr=True, warmup_epochs=min(3.0, max(0.5, epochs / 20)),
        hsv_h=0.008, hsv_s=0.5, hsv_v=0.4, degrees=0.0, translate=0.1, scale=0.4, fliplr=0.5, flipud=0.5,
        mosaic=1.0, mixup=0.0, verbose=True, **({"time": hours} if hours > 0 else {}),
    )
    return _finish(results, project / name)


def _stop_after(model: Any, epochs: int) -> None:
    """Ask the trainer to stop once ``epochs`` epochs are done (0: never)."""
    if epochs <= 0:
        return

    def check(trainer: Any) -> None:
        if trainer.epoch + 1 >= epochs:
            trainer.stop = True

    model.add_callback("on_fit_epoch_end", check)


def _finish(results: Any, run_dir: Path) -> tuple[Path, dict[str, float]]:
    metrics = {k: float(v) for k, v in (getattr(results, "results_dict", {}) or {}).items()}
    weights = run_dir / "weights" / "best.pt"
    if not weights.exists():
        weights = run_dir / "weights" / "last.pt"
    return weights, metrics


def epochs_run(run_dir: Path) -> int:
    """Epochs the run finished (rows of its results.csv): with ``--hours`` the budget decides."""
    csv = run_dir / "results.csv"
    return max(0, len(csv.read_text().splitlines()) - 1) if csv.exists() else 0


def export(weights: Path, imgsz: int) -> Path:
    from ultralytics import YOLO

    model = YOLO(str(weights), task="detect")
    out = model.export(format="onnx", imgsz=imgsz, dynamic=True, simplify=False, opset=17, half=False, nms=False,
                       device="cpu")
    return Path(str(out))


def smoke_check(onnx_path: Path, data_dir: Path) -> int:
    """Objects found by the exported file, through onnxruntime only, on the first validation frames."""
    import cv2

    from tableref.vision.learned import LearnedDetector

    found = 0
    frames = sorted((data_dir / "images" / "val").glob("*.jpg"))
    for table in ("pool", "bar-billiards", "carrom"):
        picks = [p for p in frames if p.name.startswith(f"{table}-")][:2]
        det = LearnedDetector(table, model=onnx_path)
        for p in picks:
            img = cv2.imread(str(p))
            if img is not None:
                found += len(det.detect(img))
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="data set folder (built when missing)")
    ap.add_argument("--model", type=Path, default=DEFAULT_YAML, help="network definition (.yaml)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the ONNX file goes")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--imgsz", type=int, default=384, help="training tile side (the data set's --tile)")
    ap.add_argument("--input-size", type=int, default=768, help="the detector's input at run time (export)")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--device", default="cpu", help="cpu, or a CUDA device such as 0")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--fraction", type=float, default=1.0, help="share of the training images to use")
    ap.add_argument("--cache", choices=("no", "ram", "disk"), default="no")
    ap.add_argument("--lr0", type=float, default=0.003)
    ap.add_argument("--hours", type=float, default=0.0, help="wall-clock budget for training (overrides --epochs)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads on a CPU")
    ap.add_argument("--stop-after", type=int, default=0, help="end after this many epochs, keeping the --epochs schedule")
    ap.add_argument("--resume", type=Path, default=None, help="continue an interrupted run from its last.pt")
    ap.add_argument("--export-run", type=Path, default=None,
                    help="no training: export the best epoch of this run folder (one cut short by a time box)")
    ap.add_argument("--close-mosaic", type=int, default=4)
    ap.add_argument("--project", type=Path, default=ROOT / "out" / "detector-train")
    ap.add_argument("--name", default="tableref-balls")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dataset-args", default="", help="extra arguments for build_dataset.py when it runs")
    ap.add_argument("--no-export", action="store_true")
    args = ap.parse_args(argv)
    if args.epochs < 1 or args.batch < 1 or args.threads < 1 or args.hours < 0 or args.stop_after < 0 \
            or args.imgsz % 32 or args.input_size % 32 or not 0 < args.fraction <= 1:
        print("bad arguments: epochs, batch and threads >= 1, hours and stop-after >= 0, imgsz and input size multiples of 32, fraction in (0, 1]",
              file=sys.stderr)
        return 2
    os.environ["OMP_NUM_THREADS"] = str(args.threads)  # before torch is imported
    offline_env(args.project / "ultralytics-config")
    require_ultralytics()
    if args.export_run is not None:
        return ship(args.export_run / "weights" / "best.pt", run_summary(args.export_run, args), args)
    t0 = time.time()
    if not (args.data / "data.yaml").exists():
        import shlex

        sys.path.insert(0, str(ROOT / "scripts"))
        import build_dataset

        build_dataset.main(["--out", str(args.data), *shlex.split(args.dataset_args)])
    t1 = time.time()
    weights, metrics = train(args.data / "data.yaml", args.model, epochs=args.epochs, imgsz=args.imgsz,
                             batch=args.batch, device=args.device, workers=args.workers, project=args.project,
                             name=args.name, seed=args.seed, fraction=args.fraction, close_mosaic=args.close_mosaic,
                             cache=False if args.cache == "no" else args.cache, lr0=args.lr0, hours=args.hours,
                             threads=args.threads, stop_after=args.stop_after, resume=args.resume)
    t2 = time.time()
    summary: dict[str, Any] = {
        "command": " ".join(["scripts/train_detector.py", *(argv if argv is not None else sys.argv[1:])]),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "device": args.device, "epochs": args.epochs, "imgsz": args.imgsz, "input_size": args.input_size,
        "batch": args.batch, "hours": args.hours, "threads": args.threads,
        "epochs_run": epochs_run(weights.parent.parent),
        "dataset_seconds": round(t1 - t0), "train_seconds": round(t2 - t1), "weights": str(weights),
        "val_metrics": metrics,
    }
    return ship(weights, summary, args)


def run_summary(run_dir: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The summary of a run folder: its settings, its best epoch and the command that redoes it in one go.

    A run stopped by the clock (killed, or resumed and stopped again) is redone by the command with
    ``--stop-after`` at its best epoch: same schedule, ended there. ``train_seconds`` adds up the
    wall-clock time of each session of the run (ultralytics restarts its clock on a resume); an epoch
    killed before it ended is not counted.
    """
    import csv

    rows = list(csv.DictReader((run_dir / "results.csv").read_text().splitlines()))
    if not rows:
        raise SystemExit(f"{run_dir} has no finished epoch")
    rows = [{k.strip(): v.strip() for k, v in r.items()} for r in rows]
    best = max(rows, key=lambda r: float(r["metrics/mAP50-95(B)"]))  # ultralytics picks best.pt by mAP50-95
    seconds, last = 0.0, 0.0
    for r in rows:
        t = float(r["time"])
        seconds += t - last if t >= last else t
        last = t
    conf: dict[str, str] = {}
    for line in (run_dir / "args.yaml").read_text().splitlines():
        key, _, value = line.partition(":")
        conf[key.strip()] = value.strip()
    epochs = int(conf["epochs"])
    stop = int(best["epoch"])
    command = ["scripts/train_detector.py", "--epochs", str(epochs)]
    if stop < epochs:
        command += ["--stop-after", str(stop)]
    command += ["--imgsz", conf["imgsz"], "--batch", conf["batch"], "--lr0", conf["lr0"],
                "--close-mosaic", conf["close_mosaic"], "--seed", conf["seed"], "--input-size", str(args.input_size)]
    return {
        "command": " ".join(command),
        "date": dt.datetime.fromtimestamp((run_dir / "weights" / "best.pt").stat().st_mtime, dt.UTC)
        .strftime("%Y-%m-%d %H:%M UTC"),
        "device": args.device, "epochs": epochs, "epochs_run": len(rows), "best_epoch": stop,
        "imgsz": int(conf["imgsz"]), "input_size": args.input_size, "batch": int(conf["batch"]),
        "train_seconds": round(seconds), "weights": str(run_dir / "weights" / "best.pt"),
        "val_metrics": {k: float(v) for k, v in best.items() if k.startswith("metrics/")},
    }


def ship(weights: Path, summary: dict[str, Any], args: argparse.Namespace) -> int:
    """Export ``weights`` to ``args.out``, check it through onnxruntime, write ``<out>.train.json``."""
    if not args.no_export:
        onnx_path = export(weights, args.input_size)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(onnx_path, args.out)
        summary["onnx_bytes"] = args.out.stat().st_size
        summary["smoke_objects_found"] = smoke_check(args.out, args.data)
    Path(str(args.out) + ".train.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
