"""The whole-card CNN shipped as ONNX: self-describing, small, runs without torch, reads a rendered table.

Torch is a training dependency only (the ``train`` extra); these tests make sure the shipped
``models/cards/card_cnn.onnx`` is read alike by onnxruntime and OpenCV's DNN module, and that the
card detector, calibrated as a venue is, reads the cards of a rendered card-table scene in a
Python where ``import torch`` fails.
"""

from __future__ import annotations

import json

import numpy as np

from tableref.vision.cards_cnn import CARD_CNN_CROP, OnnxHeads, preprocess
from tableref.vision.cards_read import CARD_HEADS, DEFAULT_MODEL_DIR, CardReader

from .no_torch import run_without_torch

CNN = DEFAULT_MODEL_DIR / "card_cnn.onnx"


def test_the_shipped_card_cnn_names_its_heads_and_input_and_is_small() -> None:
    meta = json.loads(CNN.with_suffix(".json").read_text("utf-8"))
    assert tuple(tuple(h) for h in meta["heads"]) == CARD_HEADS
    assert meta["input"] == [3, CARD_CNN_CROP[1], CARD_CNN_CROP[0]]
    assert CNN.stat().st_size < 15 * 1024 * 1024
    assert isinstance(CardReader().card_model, OnnxHeads)  # the reader uses it when shipped


def test_onnxruntime_and_opencv_read_it_alike() -> None:
    rng = np.random.default_rng(0)
    x = preprocess(rng.integers(0, 256, (5, CARD_CNN_CROP[1], CARD_CNN_CROP[0], 3), dtype=np.uint8), CARD_CNN_CROP)
    ort = OnnxHeads(CNN, backend="onnxruntime").predict(x)
    cv = OnnxHeads(CNN, backend="opencv").predict(x)
    for a, b in zip(ort, cv, strict=True):
        assert a.shape == b.shape == (5, a.shape[1])
        assert np.allclose(a, b, atol=1e-4)


def test_a_rendered_table_is_read_right_with_torch_unimportable() -> None:
    # a seed not used to train or validate the network (those are 900000 and up); one view, 720p
    printed = run_without_torch("""
        import math, random, sys
        from tableref.calibration.spec import load_table
        from tableref.simulator.card_timeline import CARD_RADIUS_MM
        from tableref.simulator.cards import DESIGNS
        from tableref.simulator.render import Renderer
        from tableref.simulator.render_look import CARD_PLANE_MM, random_look
        from tableref.simulator.state import FrameState, ObjectState, ObjectStatus
        from tableref.vision.cards import CardDetector
        from tableref.vision.cards_cnn import OnnxHeads
        from tableref.vision.pipeline import HomographyMapping

        spec = load_table("cards")
        seed = 4242
        look = random_look(spec, seed, 1280, 720, 30.0)
        cam = look.camera
        labels = ["KS", "QH", "9C", "4S", "10H", "7D"]
        spots = [(330, 380, 10), (500, 330, 95), (670, 390, 170), (340, 620, 260), (520, 660, 30), (680, 610, 300)]
        objs = tuple(ObjectState(id="card-" + lab, kind="card", x=x, y=y, radius=CARD_RADIUS_MM,
                                 status=ObjectStatus.ON_TABLE, angle=a, label=lab, face_up=True, layer=k + 1)
                     for k, (lab, (x, y, a)) in enumerate(zip(labels, spots)))
        found = []
        for design in DESIGNS:
            img = Renderer(spec, look, card_design=design).render(FrameState(index=0, t=0.0, objects=objs, hands=()))
            det = CardDetector(HomographyMapping(cam.homography(CARD_PLANE_MM), cam.K, cam.dist_coeffs))
            assert isinstance(det.reader.card_model, OnnxHeads), type(det.reader.card_model)
            found.append(sorted(d.label for d in det.detect(img) if d.group == "card"))
        print(sorted(labels))
        print(found)
    """, timeout=300)
    want, got = (json.loads(line.replace("'", '"')) for line in printed.strip().splitlines())
    assert len(got) == 5  # every deck design
    # one view of each card (the trick builder adds up many): a black court card's suit is a few
    # pixels here and may be swapped; nothing else is named that is not on the table, and 27 of
    # the 30 cards are read right (28 when written, 2026-11-25)
    for found in got:
        assert set(found) - set(want) <= {"KC"}
    assert sum(len(set(found) & set(want)) for found in got) >= 27
