"""The shipped model file: small enough to ship, self-describing, documented by its model card."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import onnxruntime as ort

from tableref.vision.learned import CLASS_NAMES, DEFAULT_MODEL
from tests.models.scripts import load_script

MODELS = Path(__file__).resolve().parents[2] / "models"
MAX_BYTES = 15 * 1024 * 1024


def test_every_shipped_onnx_file_is_at_most_15_mb() -> None:
    files = sorted(MODELS.glob("*.onnx"))
    assert DEFAULT_MODEL in files
    for f in files:
        assert f.stat().st_size <= MAX_BYTES, f"{f.name} is {f.stat().st_size / 2**20:.1f} MB"


def test_the_model_names_its_classes_and_takes_any_frame_shape() -> None:
    session = ort.InferenceSession(str(DEFAULT_MODEL), providers=["CPUExecutionProvider"])
    meta = session.get_modelmeta().custom_metadata_map
    names = meta["names"]
    for cls in CLASS_NAMES:
        assert repr(cls) in names
    (inp,) = session.get_inputs()
    assert inp.shape[0] in (1, "batch") and not isinstance(inp.shape[2], int) and not isinstance(inp.shape[3], int)
    assert int(meta["stride"]) in (16, 32)


def test_the_model_card_says_data_command_date_and_figures() -> None:
    card = (MODELS / "README.md").read_text()
    for heading in ("## Data", "## Command", "## Date", "## Metrics"):
        assert heading in card
    train = json.loads((MODELS / (DEFAULT_MODEL.name + ".train.json")).read_text())
    assert train["command"].split()[0] == "scripts/train_detector.py"
    assert train["command"] in card
    assert train["date"][:10] in card


def _recipe() -> Any:
    return load_script("train_detector")


def test_a_run_cut_short_is_summarised_with_the_one_command_that_redoes_it(tmp_path: Path) -> None:
    """Two sessions (the clock restarts on a resume), best epoch 3 of a 20-epoch schedule."""
    run = tmp_path / "run"
    (run / "weights").mkdir(parents=True)
    (run / "weights" / "best.pt").write_bytes(b"")
    head = "epoch,time,metrics/precision(B),metrics/recall(B),metrics/mAP50(B),metrics/mAP50-95(B)"
    rows = ["1,100,0.1,0.1,0.10,0.05", "2,210,0.2,0.2,0.20,0.10", "3,90,0.3,0.3,0.30,0.20", "4,170,0.3,0.3,0.31,0.19"]
    (run / "results.csv").write_text("\n".join([head, *rows]) + "\n")
    (run / "args.yaml").write_text("epochs: 20\nimgsz: 384\nbatch: 32\nlr0: 0.003\nclose_mosaic: 4\nseed: 0\n")
    args = argparse.Namespace(input_size=768, device="cpu")
    summary = _recipe().run_summary(run, args)
    assert summary["command"].startswith("scripts/train_detector.py --epochs 20 --stop-after 3 ")
    assert summary["best_epoch"] == 3 and summary["epochs_run"] == 4
    assert summary["train_seconds"] == 210 + 170
    assert summary["val_metrics"]["metrics/mAP50(B)"] == 0.30


def test_the_epochs_figures_are_read_without_polars() -> None:
    """A GPU machine may lack polars: the recipe reads ``results.csv`` (padded headers) with the csv module."""
    text = "   epoch,  metrics/mAP50(B), note\n1,0.25,warm-up\n2,0.5,\n"
    rows = _recipe().read_results_rows(text)
    assert rows["epoch"] == [1.0, 2.0]
    assert rows["metrics/mAP50(B)"] == [0.25, 0.5]
    assert rows["note"] == ["warm-up", ""]
