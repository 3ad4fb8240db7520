"""The shipped model file: small enough to ship, self-describing, documented by its model card."""

from __future__ import annotations

import json
from pathlib import Path

import onnxruntime as ort

from tableref.vision.learned import CLASS_NAMES, DEFAULT_MODEL

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
