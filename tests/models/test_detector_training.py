"""The training recipe runs end to end: one epoch on a handful of images, export, load without torch.

Skipped where the ``train`` extra (ultralytics, torch) is not installed, as in CI: the runtime
never needs it. It trains at a tiny size on drawn images, to check the recipe (offline settings,
the model definition, the export and its metadata), not to make a useful model.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest

from tableref.vision.learned import CLASS_NAMES, LearnedDetector
from tests.models.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(importlib.util.find_spec("ultralytics") is None,
                                reason="the train extra (ultralytics) is not installed; the runtime does not need it")


def _recipe() -> object:
    return load_script("train_detector")


def _tiny_dataset(root: Path) -> Path:
    rng = np.random.default_rng(0)
    colours = {"ball-0": (235, 235, 230), "ball-1": (30, 190, 245), "ball-8": (20, 20, 20)}
    for split, n in (("train", 6), ("val", 2)):
        (root / "images" / split).mkdir(parents=True)
        (root / "labels" / split).mkdir(parents=True)
        for i in range(n):
            img = np.zeros((160, 160, 3), np.uint8)
            img[:] = (40, 110, 30)
            lines = []
            for k, (name, colour) in enumerate(colours.items()):
                x, y = 30 + 45 * k + int(rng.integers(-5, 6)), 40 + int(rng.integers(0, 80))
                cv2.circle(img, (x, y), 8, colour, -1, cv2.LINE_AA)
                lines.append(f"{CLASS_NAMES.index(name)} {x / 160:.5f} {y / 160:.5f} {16 / 160:.5f} {16 / 160:.5f}")
            cv2.imwrite(str(root / "images" / split / f"{i}.jpg"), img)
            (root / "labels" / split / f"{i}.txt").write_text("\n".join(lines) + "\n")
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(CLASS_NAMES))
    data = root / "data.yaml"
    data.write_text(f"path: {root}\ntrain: images/train\nval: images/val\nnames:\n{names}\n")
    return data


def test_one_epoch_trains_exports_and_loads_without_torch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in (("YOLO_OFFLINE", "1"), ("YOLO_AUTOINSTALL", "False"),
                       ("YOLO_CONFIG_DIR", str(tmp_path / "config")), ("YOLO_VERBOSE", "False")):
        monkeypatch.setenv(key, value)
    recipe = _recipe()
    recipe.require_ultralytics()  # type: ignore[attr-defined]
    data = _tiny_dataset(tmp_path / "data")
    weights, metrics = recipe.train(  # type: ignore[attr-defined]
        data, ROOT / "models" / "tableref-balls.yaml", epochs=1, imgsz=160, batch=2, device="cpu", workers=0,
        project=tmp_path / "runs", name="one-epoch", close_mosaic=0)
    assert weights.is_file()
    assert "metrics/mAP50(B)" in metrics
    onnx_path = recipe.export(weights, 160)  # type: ignore[attr-defined]
    assert onnx_path.suffix == ".onnx" and onnx_path.is_file()
    det = LearnedDetector("pool", model=onnx_path, input_size=160)
    assert det.model_classes == CLASS_NAMES
    img = cv2.imread(str(tmp_path / "data" / "images" / "val" / "0.jpg"))
    det.detect(img)  # runs through onnxruntime; an epoch on six images need not find anything
