"""The camera-effects benchmark delivers each clip as the camera it names would: the effects must do
what its figures claim, or the figures say nothing."""

from __future__ import annotations

import json
import math
from typing import Any

import cv2
import numpy as np

from . import load_bench


def _bench() -> Any:
    return load_bench("bench_camera")


def _scene() -> np.ndarray:
    rng = np.random.default_rng(4)
    img = cv2.GaussianBlur(rng.integers(40, 200, (96, 128, 3)).astype(np.uint8), (0, 0), 2.0)
    cv2.circle(img, (64, 48), 10, (230, 230, 230), -1)
    return np.asarray(img, dtype=np.uint8)


def test_exposure_swings_the_whole_picture_by_a_tenth() -> None:
    bench = _bench()
    frame = _scene()
    peak = bench.EFFECTS["exposure"](frame, int(0.75 * 30), 30.0)  # a quarter of the 3 s swing
    trough = bench.EFFECTS["exposure"](frame, int(2.25 * 30), 30.0)
    mid = (frame > 20) & (frame < 200)
    assert abs(float(peak[mid].sum()) / float(frame[mid].sum()) - 1.12) < 0.01
    assert abs(float(trough[mid].sum()) / float(frame[mid].sum()) - 0.88) < 0.01
    assert np.array_equal(bench.EFFECTS["plain"](frame, 40, 30.0), frame)


def test_a_knock_moves_the_picture_for_good_and_a_shake_dies_out() -> None:
    bench = _bench()
    frame = _scene()
    assert np.array_equal(bench.EFFECTS["knock"](frame, 29, 30.0), frame)
    knocked = bench.EFFECTS["knock"](frame, 200, 30.0)
    assert np.array_equal(knocked[10:-10, 10:-10], frame[11:-9, 8:-12])  # content 2 right, 1 up
    assert not np.array_equal(bench.EFFECTS["shake"](frame, 31, 30.0), frame)
    assert np.array_equal(bench.EFFECTS["shake"](frame, 30 + 60, 30.0), frame)


def test_white_balance_drifts_blue_against_red() -> None:
    bench = _bench()
    frame = np.full((8, 8, 3), 100, np.uint8)
    out = bench.EFFECTS["white-balance"](frame, 30, 30.0)  # a second in: a quarter of the 4 s drift
    assert int(out[0, 0, 0]) == 104 and int(out[0, 0, 1]) == 100 and int(out[0, 0, 2]) == 96
    assert math.isclose(float(bench.EFFECTS["mains"](frame, 0, 30.0).mean()), 100.0)


def test_the_default_clips_are_the_ball_table_samples() -> None:
    tables = {json.loads(truth.read_text("utf-8"))["table"] for _, truth in _bench().clips(None)}
    assert tables == {"pool", "bar-billiards", "carrom"}  # the bundled samples, less the card clips
