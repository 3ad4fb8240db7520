"""The shipped learned detector on a rendered frame of every ball table and on real photos.

These load the shipped model (``models/tableref-balls.onnx``) through onnxruntime alone (no torch), as the service does.
Frames are rendered from seeds that neither the training nor the validation split used
(``scripts/build_dataset.py``: training looks 0.., validation looks 900000..).
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import cv2
import numpy as np
import pytest

from tableref.calibration.spec import load_table
from tableref.errors import UserError
from tableref.simulator.render import Renderer
from tableref.simulator.render_look import random_look
from tableref.simulator.scenarios import run_scenario
from tableref.simulator.state import FrameState, ObjectStatus
from tableref.vision.detect import box_iou
from tableref.vision.learned import LearnedDetector, default_model_path
from tableref.vision.learned_eval import circle_box
from tests.models.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
UNSEEN_SEED = 990_001  # a look (camera, lamps, cloth) no split used
SCENARIO_SEED = 4242  # a layout no split used (they use scenario seeds below 100)
# Floors a little under what the shipped model reaches (models/README.md has its figures): a
# retrained model that finds less fails, a better one may raise them. The CPU-trained model shipped
# before it found 4/4, 4/5 and 8/9 objects and matched 0.87 of the real balls.
FOUND_FLOOR = 0.85  # objects of a rendered frame found (it finds 4/4, 5/5 and 9/9 of the three frames)
NAMED_FLOOR = 0.7  # of those, carrying the right label (3/4, 5/5, 9/9)
REAL_RECALL_FLOOR = 0.95  # balls of pool-balls-real/valid matched at IoU 0.5 (it matches 0.979 of them)


@pytest.fixture(scope="module")
def model() -> Path:
    path = default_model_path()
    assert path.is_file(), f"the shipped model {path} is missing (scripts/train_detector.py makes it)"
    return path


def _render(game: str, scenario: str, frame_at: float) -> tuple[np.ndarray, FrameState, Renderer]:
    sim = run_scenario(game, scenario, SCENARIO_SEED)
    spec = load_table(sim.table)
    renderer = Renderer(spec, random_look(spec, UNSEEN_SEED))
    frame = sim.frames[int(frame_at * (len(sim.frames) - 1))]
    return renderer.render(frame), frame, renderer


@pytest.mark.parametrize(("game", "scenario", "frame_at", "expect_pins"), [
    ("up-and-down", "legal-pot", 1.0, False),
    ("bar-billiards", "white-pin-falls", 1.0, True),
    ("carroms", "pot", 1.0, False),
])
def test_finds_the_objects_of_a_rendered_frame(model: Path, game: str, scenario: str, frame_at: float,
                                               expect_pins: bool) -> None:
    image, frame, renderer = _render(game, scenario, frame_at)
    detector = LearnedDetector(renderer.spec.name, model=model)
    dets = detector.detect(image)
    truth = [o for o in frame.objects if o.status in (ObjectStatus.ON_TABLE, ObjectStatus.FALLEN)]
    assert truth
    # A pin is tall and thin: the network finds its whole silhouette, whose box centre lies between its
    # base and its head (seen at a tilt, farther than its radius from the base): the centre of the box
    # the data set labels it with (scripts/build_dataset.py) is where it should be found.
    labelled = {t.centre: t.box for t in load_script("build_dataset").frame_truth(renderer, frame)}
    found = 0
    named = 0
    for obj in truth:
        cx, cy = renderer.centre_pixel(obj)
        if obj.kind == "pin":
            x0, y0, x1, y1 = min(labelled.items(), key=lambda kv: math.dist(kv[0], (cx, cy)))[1]
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        depth = float(renderer.cam.depth(np.array([[obj.x, obj.y, obj.radius]]))[0])
        r_px = renderer.cam.fx * obj.radius / depth
        tol = max(3.0, 0.6 * r_px)
        near = [d for d in dets if math.hypot(d.x - cx, d.y - cy) <= tol]
        if near:
            found += 1
            named += any(d.label == (obj.label or obj.id) or (obj.kind == "pin" and d.label.startswith("pin"))
                         for d in near)
    assert found >= FOUND_FLOOR * len(truth), f"found {found} of {len(truth)}: {dets}"
    assert named >= NAMED_FLOOR * len(truth)
    assert len(dets) <= len(truth) + 2  # hardly anything that is not there
    if expect_pins:
        assert any(d.group in ("pin-standing", "pin-fallen") for d in dets)


def _real_valid() -> Path:
    env = os.environ.get("TABLEREF_DATASETS")
    return (Path(env) if env else ROOT.parent / "shared" / "datasets") / "pool-balls-real" / "valid"


def test_finds_the_balls_of_real_photos(model: Path) -> None:
    root = _real_valid()
    if not root.is_dir():
        pytest.skip(f"real photos not found at {root} (set TABLEREF_DATASETS)")
    detector = LearnedDetector("pool", model=model)
    labelled = matched = 0
    for img_path in sorted((root / "images").glob("*.jpg")):
        image = cv2.imread(str(img_path))
        assert image is not None, f"cannot read {img_path}"
        h, w = image.shape[:2]
        boxes = []
        for line in (root / "labels" / f"{img_path.stem}.txt").read_text().splitlines():
            c, cx, cy, bw, bh = line.split()
            if c == "0":
                boxes.append(circle_box(((float(cx) - float(bw) / 2) * w, (float(cy) - float(bh) / 2) * h,
                                         (float(cx) + float(bw) / 2) * w, (float(cy) + float(bh) / 2) * h)))
        dets = detector.detect(image)
        labelled += len(boxes)
        matched += sum(any(box_iou(d.box(), b) >= 0.5 for d in dets) for b in boxes)
    assert labelled > 0
    assert matched >= REAL_RECALL_FLOOR * labelled, f"matched {matched} of {labelled}"


def test_runs_without_torch_and_without_the_network(model: Path, tmp_path: Path) -> None:
    """In a fresh interpreter with every socket refused: loads, detects, never imports torch."""
    image = np.zeros((720, 1280, 3), np.uint8)
    image[:] = (40, 110, 30)
    cv2.circle(image, (640, 360), 11, (240, 240, 240), -1)
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), image)
    code = textwrap.dedent(f"""
        import socket, sys
        def refuse(*a, **k):
            raise OSError("network is cut for this test")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        import cv2
        from tableref.vision.learned import LearnedDetector
        det = LearnedDetector("pool", model={str(model)!r})
        out = det.detect(cv2.imread({str(path)!r}))
        assert "torch" not in sys.modules, "torch was imported"
        assert "ultralytics" not in sys.modules, "ultralytics was imported"
        print("ok", len(out))
    """)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HTTP", "HTTPS", "ALL_PROXY"))}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok")


def test_bad_input_gets_a_clear_error(model: Path, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="cards"):
        LearnedDetector("cards", model=model)
    with pytest.raises(UserError, match="no detector model"):
        LearnedDetector("pool", model=tmp_path / "missing.onnx")
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    with pytest.raises(UserError, match="cannot load"):
        LearnedDetector("pool", model=broken)
    det = LearnedDetector("pool", model=model)
    with pytest.raises(UserError, match="colour"):
        det.detect(np.zeros((10, 10), np.uint8))


class _Mapping:
    """Pixels to millimetres: 2 mm a pixel (a stand-in for a calibration's homography)."""

    def to_table(self, points: object) -> np.ndarray:
        return np.asarray(points, dtype=np.float64).reshape(-1, 2) * 2.0


class _Calibration:
    table = "pool"
    mapping = _Mapping()


def test_a_calibration_adds_table_millimetres(model: Path) -> None:
    image, _, _ = _render("up-and-down", "legal-pot", 1.0)
    plain = LearnedDetector("pool", model=model).detect(image)
    calibrated = LearnedDetector("pool", _Calibration(), model=model).detect(image)
    assert plain and len(plain) == len(calibrated)
    for a, b in zip(plain, calibrated, strict=True):
        assert a.x_mm is None and b.x_mm == pytest.approx(2 * b.x) and b.y_mm == pytest.approx(2 * b.y)
