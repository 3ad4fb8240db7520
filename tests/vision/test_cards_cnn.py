"""The corner-index CNN shipped as ONNX: self-describing, runs without torch, reads a real photo.

Torch is a training dependency only (the ``train`` extra); these tests make sure the shipped
``models/cards/index_cnn.onnx`` is read by onnxruntime and by OpenCV's DNN module alike, and that
the card detector reads a held-out real photo in a Python where ``import torch`` fails.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tableref.errors import UserError
from tableref.vision.cards_cnn import CNN_CROP, OnnxHeads, preprocess
from tableref.vision.cards_data import DEFAULT_DIR, photos
from tableref.vision.cards_read import DEFAULT_MODEL_DIR, INDEX_HEADS

from .no_torch import run_without_torch

CNN = DEFAULT_MODEL_DIR / "index_cnn.onnx"
needs_data = pytest.mark.skipif(not (DEFAULT_DIR / "classes.txt").is_file(), reason="cards-real data set not present")


def test_the_shipped_cnn_names_its_heads_and_input_and_is_small() -> None:
    meta = json.loads(CNN.with_suffix(".json").read_text("utf-8"))
    assert tuple(tuple(h) for h in meta["heads"]) == INDEX_HEADS
    assert meta["input"] == [3, CNN_CROP[1], CNN_CROP[0]]
    assert CNN.stat().st_size < 15 * 1024 * 1024


def test_onnxruntime_and_opencv_read_it_alike() -> None:
    rng = np.random.default_rng(0)
    crops = rng.integers(0, 256, (7, CNN_CROP[1], CNN_CROP[0], 3), dtype=np.uint8)
    x = preprocess(crops)
    ort = OnnxHeads(CNN, backend="onnxruntime").predict(x)
    cv = OnnxHeads(CNN, backend="opencv").predict(x)
    for a, b in zip(ort, cv, strict=True):
        assert a.shape == b.shape == (7, a.shape[1])
        assert np.allclose(a, b, atol=1e-4)
        assert np.allclose(a.sum(axis=1), 1.0, atol=1e-5)


def test_preprocessing_ignores_exposure_and_colour_cast() -> None:
    rng = np.random.default_rng(1)
    crop = rng.integers(40, 200, (CNN_CROP[1], CNN_CROP[0], 3)).astype(np.float64)
    warm = np.clip(crop * np.array([0.6, 0.8, 1.1]), 0, 255).astype(np.uint8)
    assert np.abs(preprocess(crop.astype(np.uint8)) - preprocess(warm)).max() < 0.03


def test_a_missing_network_says_how_to_make_it(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="train_cards_cnn.py"):
        OnnxHeads(tmp_path / "index_cnn.onnx")


@needs_data
def test_the_detector_reads_a_held_out_photo_with_torch_unimportable() -> None:
    photo = next(p for p in photos(split="test") if len(p.cards()) == 1 and len(p.boxes) == 2)
    (name,) = photo.cards()
    printed = run_without_torch(f"""
        import sys
        import cv2
        from tableref.vision.cards import CardDetector
        from tableref.vision.cards_cnn import OnnxHeads

        det = CardDetector()
        assert isinstance(det.reader.index_model, OnnxHeads), type(det.reader.index_model)
        found = det.detect(cv2.imread({str(photo.path)!r}))
        print(",".join(d.label for d in found if d.group == "card"))
    """, timeout=120)
    assert printed.strip().split(",") == [name]
