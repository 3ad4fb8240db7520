"""Automatic playing-surface detection: synthetic views with known geometry, and real photographs."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from tableref.calibration.surface import (
    check_cloth_kind,
    find_surface,
    orient_quad,
    quad_from_mask,
    refine_quad,
)
from tableref.errors import UserError
from tests.calibration.test_surface_scene import render

BALLS = [(600.0, 400.0, (0, 0, 220)), (1500.0, 900.0, (0, 220, 250)), (2000.0, 300.0, (240, 240, 240)),
         (1240.0, 1230.0, (120, 30, 30))]


@pytest.mark.parametrize(("tilt", "azimuth"), [(0.0, 90.0), (20.0, 90.0), (35.0, 90.0), (35.0, 0.0), (30.0, 45.0)])
def test_cloth_corners_found_under_tilt_up_to_35_degrees(tilt: float, azimuth: float) -> None:
    scene = render(tilt_deg=tilt, azimuth_deg=azimuth, balls=BALLS)
    fit = find_surface(scene.image)
    truth = scene.cloth_corners()
    coarse = np.asarray(fit.corners)
    refined = np.asarray(refine_quad(scene.image, fit))
    assert np.abs(coarse - truth).max() < 12.0  # the 256-pixel working scale
    assert np.abs(refined - truth).max() < 1.5  # sub-pixel-ish after the full-resolution refinement


def test_corner_zero_starts_a_long_side() -> None:
    scene = render(tilt_deg=10.0)
    q = np.asarray(find_surface(scene.image, aspect=2.0).corners)
    assert np.linalg.norm(q[1] - q[0]) > 1.5 * np.linalg.norm(q[2] - q[1])
    # clockwise on screen (positive shoelace area with y down)
    x, y = q[:, 0], q[:, 1]
    assert 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)) > 0


def test_orient_quad_for_a_square_table_starts_top_left() -> None:
    quad = ((500.0, 40.0), (520.0, 500.0), (40.0, 510.0), (30.0, 50.0))
    out = orient_quad(quad, 1.0)
    assert out[0] == (30.0, 50.0)


def test_a_table_cropped_by_the_frame_gets_corners_outside_it() -> None:
    scene = render(tilt_deg=35.0, fill=1.15, balls=BALLS)
    fit = find_surface(scene.image)
    truth = scene.cloth_corners()
    h, w = scene.image.shape[:2]
    assert ((truth[:, 0] < 0) | (truth[:, 0] > w) | (truth[:, 1] < 0) | (truth[:, 1] > h)).any()
    assert np.abs(np.asarray(fit.corners) - truth).max() < 15.0


def test_a_picture_without_a_table_is_refused() -> None:
    rng = np.random.default_rng(1)
    grey = np.clip(rng.normal(128, 6, (480, 640, 3)), 0, 255).astype(np.uint8)
    with pytest.raises(UserError, match="no table found"):
        find_surface(grey)
    noise = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
    with pytest.raises(UserError, match="no table found"):
        find_surface(noise)


def test_a_small_blob_is_not_a_table() -> None:
    mask = np.zeros((200, 300), np.uint8)
    cv2.circle(mask, (150, 100), 8, 255, -1)
    with pytest.raises(UserError, match="too small"):
        quad_from_mask(mask)


def test_cloth_and_board_are_told_apart() -> None:
    green = find_surface(render(tilt_deg=10.0).image).cloth
    wood = find_surface(render("carrom", tilt_deg=10.0, cloth_bgr=(120, 170, 215)).image).cloth
    assert not green.looks_like_wood and wood.looks_like_wood
    check_cloth_kind("pool", green)
    check_cloth_kind("carrom", wood)
    with pytest.raises(UserError, match="not a light wooden board"):
        check_cloth_kind("carrom", green)
    with pytest.raises(UserError, match="looks like a carrom board"):
        check_cloth_kind("pool", wood)


# -- real photographs ----------------------------------------------------------------------------

def _dataset() -> Path:
    env = os.environ.get("TABLEREF_DATASETS")
    base = Path(env) if env else Path(__file__).resolve().parents[3] / "shared" / "datasets"
    return base / "pool-balls-real" / "valid"


REAL = _dataset()


def _table_box(label: Path, w: int, h: int) -> tuple[float, float, float, float]:
    for line in label.read_text().splitlines():
        c, cx, cy, bw, bh = line.split()
        if c == "1":
            x, y, ww, hh = float(cx) * w, float(cy) * h, float(bw) * w, float(bh) * h
            return (x - ww / 2, y - hh / 2, x + ww / 2, y + hh / 2)
    raise AssertionError(f"{label} has no table box")


@pytest.mark.skipif(not REAL.exists(), reason="the pool-balls-real data set is not in ../shared/datasets")
@pytest.mark.parametrize("index", [0, 7, 13, 21, 29])
def test_real_photo_quadrilateral_lies_on_the_labelled_table(index: int) -> None:
    images = sorted((REAL / "images").glob("*.jpg"))
    path = images[index]
    image = cv2.imread(str(path))
    assert image is not None
    h, w = image.shape[:2]
    x0, y0, x1, y1 = _table_box(REAL / "labels" / (path.stem + ".txt"), w, h)
    quad = np.asarray(refine_quad(image, find_surface(image)), dtype=np.float32)
    quad_area = cv2.contourArea(quad)
    box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    inter, _ = cv2.intersectConvexConvex(quad, box)
    # the cloth lies inside the labelled table (which includes the rails) and fills much of it
    assert inter >= 0.95 * quad_area
    assert quad_area >= 0.35 * (x1 - x0) * (y1 - y0)
