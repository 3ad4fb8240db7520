"""The learned detector's pre- and post-processing without a model: letterbox, decode, labels, scoring."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest

from tableref.calibration.spec import load_table
from tableref.vision.detect import Detection
from tableref.vision.learned import (
    CLASS_NAMES,
    TABLE_CLASSES,
    RawBoxes,
    assign_labels,
    class_of,
    decode,
    label_and_group,
    letterbox,
    letterbox_shape,
    name_pins,
)
from tableref.vision.learned_eval import Found, Labelled, Scorer, average_precision, circle_box


def test_a_venue_frame_is_fitted_to_a_stride_multiple_not_a_square() -> None:
    box = letterbox_shape(1280, 720, 768)
    assert (box.width, box.height) == (768, 448)
    assert box.scale == pytest.approx(0.6)
    square = letterbox_shape(640, 640, 768)
    assert (square.width, square.height) == (768, 768)


def test_letterboxed_pixels_map_back_to_the_image() -> None:
    img = np.zeros((720, 1280, 3), np.uint8)
    img[300:340, 600:640] = 255  # a white square
    blob, box = letterbox(img, 768)
    assert blob.shape == (1, 3, 448, 768) and blob.dtype == np.float32
    ys, xs = np.nonzero(blob[0, 0] > 0.9)
    found = np.array([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]], np.float32)
    back = box.to_image(found)[0]
    assert back == pytest.approx([600, 300, 640, 340], abs=2.0)


def _head(rows: Sequence[tuple[float, float, float, float, dict[str, float]]]) -> np.ndarray:
    """A fake YOLO output (1, 4 + nc, anchors) from (cx, cy, w, h, {class: score}) rows."""
    out = np.zeros((1, 4 + len(CLASS_NAMES), len(rows)), np.float32)
    for k, (cx, cy, w, h, scores) in enumerate(rows):
        out[0, :4, k] = (cx, cy, w, h)
        for name, s in scores.items():
            out[0, 4 + CLASS_NAMES.index(name), k] = s
    return out


def test_decode_keeps_this_tables_classes_and_one_box_per_object() -> None:
    box = letterbox_shape(1280, 720, 768)
    rows = [
        (100, 100, 12, 12, {"ball-9": 0.9}),
        (101, 100, 12, 12, {"ball-1": 0.7}),  # the same ball read as another number: suppressed
        (300, 200, 12, 12, {"queen": 0.95}),  # a carrom class: not a pool object
        (400, 200, 12, 12, {"ball-3": 0.1}),  # below the floor
    ]
    classes = TABLE_CLASSES["pool"]
    raw = decode(_head(rows), [CLASS_NAMES.index(c) for c in classes], classes, box, 0.3, 0.5)
    assert len(raw) == 1
    x0, y0, x1, y1 = raw.boxes[0]
    assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx(((100 - box.pad_x) / 0.6, (100 - box.pad_y) / 0.6))
    assert raw.scores[0, classes.index("ball-9")] == pytest.approx(0.9)


def _raw(classes: tuple[str, ...], rows: list[dict[str, float]]) -> RawBoxes:
    scores = np.array([[r.get(c, 0.0) for c in classes] for r in rows], np.float32)
    boxes = np.array([[10.0 * i, 0, 10.0 * i + 8, 8] for i in range(len(rows))], np.float32)
    return RawBoxes(boxes, scores, classes)


def test_a_number_goes_to_the_box_surest_of_it_and_the_other_takes_its_next_best() -> None:
    raw = _raw(TABLE_CLASSES["pool"], [{"ball-9": 0.6, "ball-1": 0.3}, {"ball-9": 0.9}])
    assert assign_labels(raw) == [("ball-1", pytest.approx(0.3)), ("ball-9", pytest.approx(0.9))]


def test_white_balls_are_many_but_the_red_is_one() -> None:
    raw = _raw(TABLE_CLASSES["bar-billiards"], [{"bb-red": 0.8, "bb-white": 0.1}, {"bb-red": 0.9, "bb-white": 0.4},
                                                {"bb-white": 0.9}, {"bb-white": 0.8}])
    assert [name for name, _ in assign_labels(raw)] == ["bb-white", "bb-red", "bb-white", "bb-white"]


def test_a_generic_ball_keeps_its_best_guess_at_a_lower_score() -> None:
    raw = _raw(TABLE_CLASSES["pool"], [{"ball": 0.8, "ball-5": 0.05, "ball-13": 0.02}])
    ((name, score),) = assign_labels(raw)
    assert name == "ball-5"
    assert 0.05 < score < 0.8


@pytest.mark.parametrize("table", sorted(TABLE_CLASSES))
def test_every_class_has_a_label_that_maps_back_to_it(table: str) -> None:
    for cls in TABLE_CLASSES[table]:
        if cls == "ball":
            continue
        label, group = label_and_group(table, cls)
        if label == "pin":
            label = "pin-200"
        assert class_of(table, label, group) == cls


def test_pins_are_named_by_the_nearest_spot_when_pixels_map_to_millimetres() -> None:
    spec = load_table("bar-billiards")
    by_id = {p.id: p for p in spec.pins}
    # a mapping that is the identity: pixel = mm
    dets = [Detection("pin", "pin-standing", by_id["pin-100"].x + 3, by_id["pin-100"].y, 5.0, 0.9),
            Detection("pin", "pin-fallen", by_id["pin-50-left"].x + 20, by_id["pin-50-left"].y - 10, 5.0, 0.9),
            Detection("white", "white", 100.0, 100.0, 9.0, 0.9)]
    image = np.zeros((800, 2200, 3), np.uint8)
    out = name_pins(dets, image, [np.array([d.x - 4, d.y - 4, d.x + 4, d.y + 4], np.float32) for d in dets],
                    spec.pins, lambda pts: np.asarray(pts, dtype=np.float64))
    assert [d.label for d in out] == ["pin-100", "pin-50-left", "white"]
    assert [d.group for d in out] == ["pin-standing", "pin-fallen", "white"]


def test_ap_is_one_for_a_perfect_ranking_and_lower_when_a_miss_ranks_first() -> None:
    assert average_precision([0.9, 0.8], [True, True], 2) == pytest.approx(1.0)
    assert average_precision([0.9, 0.8], [False, True], 2) < average_precision([0.9, 0.8], [True, False], 2)
    assert math.isnan(average_precision([], [], 0))


def test_circle_boxes_judge_position_and_size_not_outline() -> None:
    assert circle_box((0, 0, 4, 16)) == pytest.approx((-2, 4, 6, 12))


def test_scorer_counts_misses_false_positives_identity_and_position() -> None:
    truth = [Labelled("ball-1", (0, 0, 10, 10), (5, 5)), Labelled("ball-2", (50, 0, 60, 10), (55, 5))]
    found = [Found("ball-1", (1, 0, 11, 10), 0.9),  # right, 1 px off
             Found("ball-3", (50, 0, 60, 10), 0.8),  # found, wrong number
             Found("ball-4", (200, 200, 210, 210), 0.7)]  # nothing there
    s = Scorer(0.3)
    s.add(truth, found)
    fig = s.figures()
    assert fig["recall"] == 1.0
    assert fig["identity"] == 0.5
    assert fig["false_pos_per_frame"] == 1.0
    assert fig["position_px_median"] == pytest.approx(0.5)
    assert s.per_class_ap()["ball-1"] == pytest.approx(1.0) and s.per_class_ap()["ball-2"] == 0.0
