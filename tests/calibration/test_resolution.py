"""Is the camera close enough? The scale over the area of play against what the readers need."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tableref.calibration.calibrate import build_calibration
from tableref.calibration.resolution import NEEDED_PX_PER_MM, check_resolution
from tableref.calibration.spec import load_table
from tableref.cli import main

BLANK = np.full((1080, 1920, 3), 60, np.uint8)


def _square(side_px: float, left: float = 200.0, top: float = 40.0) -> tuple[tuple[float, float], ...]:
    """The 1 m card table seen straight down, ``side_px`` pixels across."""
    return ((left, top), (left + side_px, top), (left + side_px, top + side_px), (left, top + side_px))


def test_a_card_table_seen_at_720p_scale_is_warned_with_what_to_change() -> None:
    # 1 m across 420 px: 0.42 px/mm, cards about 37 px long, as a 1280x720 camera over the table
    cal = build_calibration(BLANK, "cards", _square(420.0))
    r = check_resolution(cal.spec, cal.to_pixels)
    assert r.px_per_mm == pytest.approx(0.42, abs=0.005)
    assert r.card_px == pytest.approx(37.0, abs=0.5)
    assert not r.ok
    text = r.message()
    assert text.startswith("warning:") and "0.60" in text and "1.4x closer" in text and "1920x1080" in text


def test_a_camera_just_short_of_the_need_is_told_how_little_to_change() -> None:
    cal = build_calibration(BLANK, "cards", _square(580.0))
    assert "1.03x closer" in check_resolution(cal.spec, cal.to_pixels).message()


def test_a_card_table_seen_at_1080p_scale_is_enough() -> None:
    cal = build_calibration(BLANK, "cards", _square(700.0))
    r = check_resolution(cal.spec, cal.to_pixels)
    assert r.ok and r.px_per_mm == pytest.approx(0.70, abs=0.005)
    assert "enough" in r.message() and not r.message().startswith("warning")


def test_a_tilted_camera_is_judged_by_the_far_side_of_the_area_of_play() -> None:
    # a trapezoid: the near (bottom) edge 900 px wide, the far (top) edge 560 px
    corners = ((680.0, 100.0), (1240.0, 100.0), (1410.0, 800.0), (510.0, 800.0))
    cal = build_calibration(BLANK, "cards", corners)
    r = check_resolution(cal.spec, cal.to_pixels)
    near = cal.mapping.scale_at((500.0, 750.0))
    far = cal.mapping.scale_at((500.0, 250.0))
    assert far < near
    assert r.px_per_mm == pytest.approx(min(far, cal.mapping.scale_at((250.0, 250.0)),
                                            cal.mapping.scale_at((750.0, 250.0))), rel=0.02)


def test_the_ball_tables_report_their_scale_without_a_verdict() -> None:
    assert "pool" not in NEEDED_PX_PER_MM
    cal = build_calibration(BLANK, "pool", ((100.0, 80.0), (1780.0, 80.0), (1780.0, 920.0), (100.0, 920.0)))
    r = check_resolution(load_table("pool"), cal.to_pixels)
    assert r.ok and r.needed is None and r.card_px is None
    assert r.message().startswith("camera resolution:")


def test_calibrate_tells_the_venue_when_the_camera_is_too_far(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), BLANK)
    corners = " ".join(f"{x},{y}" for x, y in _square(420.0))
    assert main(["calibrate", str(frame), "--table", "cards", "--corners", corners,
                 "--out", str(tmp_path / "cal.json")]) == 0
    out = capsys.readouterr().out
    assert "warning: camera resolution: 0.42 px/mm" in out and "1920x1080" in out
