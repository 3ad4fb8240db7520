"""Homography fitting, mapping and the refusal of corners that cannot be a table."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tableref.calibration.homography import (
    Intrinsics,
    PlaneMapping,
    apply_homography,
    distort_pixels,
    fit_homography,
    invert_homography,
    local_scale,
    parse_corners,
    undistort_pixels,
    validate_quad,
)
from tableref.errors import UserError

L, W = 2540.0, 1270.0
GOOD = ((100.0, 80.0), (1180.0, 60.0), (1200.0, 660.0), (90.0, 640.0))


def test_parse_corners_accepts_spaces_and_semicolons() -> None:
    assert parse_corners("1,2 3.5,4 -5,6e1; 7,8") == ((1.0, 2.0), (3.5, 4.0), (-5.0, 60.0), (7.0, 8.0))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("1,2 3,4 5,6", "exactly four"),
        ("1,2 3,4 5,6 7", '"x,y"'),
        ("1,2 3,4 5,6 a,b", "not two numbers"),
        ("1,2 3,4 5,6 nan,1", "not finite"),
    ],
)
def test_parse_corners_refuses_bad_text_clearly(text: str, fragment: str) -> None:
    with pytest.raises(UserError, match=fragment):
        parse_corners(text)


def test_good_quad_is_accepted_and_returned_as_floats() -> None:
    assert validate_quad(GOOD, (1280, 720), aspect=2.0) == GOOD


@pytest.mark.parametrize(
    ("quad", "fragment"),
    [
        (((0, 0), (0.5, 0.5), (100, 100), (0, 100)), "coincide"),
        (((0, 0), (100, 100), (100, 0), (0, 100)), "crosses itself"),
        (((0, 0), (0, 100), (100, 100), (100, 0)), "anticlockwise"),
        (((0, 0), (10, 0), (10, 10), (0, 10)), "area"),
        (((0, 0), (500, 0), (1000, 1), (0, 300)), "angle"),
        (((0, 0), (600, 0), (300, 10), (0, 400)), "not convex"),
        (((2000, 2000), (2600, 2000), (2600, 2300), (2000, 2300)), "outside"),
    ],
)
def test_degenerate_corners_are_refused(quad: tuple[tuple[float, float], ...], fragment: str) -> None:
    with pytest.raises(UserError, match=fragment):
        validate_quad(quad, (1280, 720))


def test_first_edge_along_a_short_side_is_refused_for_a_long_table() -> None:
    rotated = (GOOD[3], GOOD[0], GOOD[1], GOOD[2])
    with pytest.raises(UserError, match="short side"):
        validate_quad(rotated, (1280, 720), aspect=2.0)
    # a square table has no long side, so any clockwise start is fine
    validate_quad(rotated, (1280, 720), aspect=1.0)


def test_corners_outside_the_frame_are_accepted() -> None:
    quad = ((-150.0, -40.0), (1400.0, 20.0), (1350.0, 700.0), (-60.0, 760.0))
    validate_quad(quad, (1280, 720), aspect=2.0)
    m = PlaneMapping.from_corners(quad, L, W)
    assert np.allclose(m.to_pixels([(0.0, 0.0)]), [quad[0]], atol=1e-6)


def test_fit_maps_the_corners_exactly_and_inverts() -> None:
    table = [(0.0, 0.0), (L, 0.0), (L, W), (0.0, W)]
    h = fit_homography(table, GOOD)
    assert np.allclose(apply_homography(h, table), GOOD, atol=1e-6)
    back = apply_homography(invert_homography(h), GOOD)
    assert np.allclose(back, table, atol=1e-6)


def test_fit_from_more_than_four_points() -> None:
    h0 = fit_homography([(0.0, 0.0), (L, 0.0), (L, W), (0.0, W)], GOOD)
    table = np.array([(x, y) for x in (0, 800, 1600, 2540) for y in (0, 600, 1270)], dtype=float)
    h = fit_homography(table, apply_homography(h0, table))
    assert np.allclose(apply_homography(h, table), apply_homography(h0, table), atol=1e-6)


def test_collinear_points_give_no_homography() -> None:
    with pytest.raises(UserError):
        fit_homography([(0, 0), (1, 0), (2, 0), (3, 0)], [(0, 0), (1, 0), (2, 0), (3, 0)])


@settings(max_examples=60, deadline=None)
@given(
    x=st.floats(min_value=-100, max_value=L + 100),
    y=st.floats(min_value=-100, max_value=W + 100),
)
def test_round_trip_table_to_pixels_to_table(x: float, y: float) -> None:
    m = PlaneMapping.from_corners(GOOD, L, W)
    back = m.to_table(m.to_pixels([(x, y)]))
    assert math.dist(back[0], (x, y)) < 1e-6


def test_local_scale_is_pixels_per_mm() -> None:
    # a pure scaling of 0.5 px/mm
    m = PlaneMapping.from_corners(((0, 0), (L / 2, 0), (L / 2, W / 2), (0, W / 2)), L, W)
    assert local_scale(m.matrix, (100.0, 100.0)) == pytest.approx(0.5)
    assert m.scale_at((100.0, 100.0)) == pytest.approx(0.5)


def _camera() -> Intrinsics:
    return Intrinsics.from_arrays([[900.0, 0, 640.0], [0, 900.0, 360.0], [0, 0, 1]], [-0.28, 0.09, 0.001, -0.001, -0.01])


def test_distortion_round_trip_on_raw_pixels() -> None:
    cam = _camera()
    pts = np.array([[10.0, 12.0], [640.0, 360.0], [1270.0, 700.0], [300.0, 650.0]])
    assert np.allclose(undistort_pixels(distort_pixels(pts, cam), cam), pts, atol=1e-3)
    # the lens really bends: corners move by many pixels
    assert np.abs(distort_pixels(pts, cam) - pts).max() > 20


def test_mapping_with_distortion_round_trips_and_keeps_cushions_straight() -> None:
    cam = _camera()
    ideal = np.array(GOOD)
    raw = distort_pixels(ideal, cam)
    m = PlaneMapping.from_corners([tuple(p) for p in raw], L, W, cam)
    assert np.allclose(m.to_pixels([(0.0, 0.0), (L, W)]), raw[[0, 2]], atol=1e-3)
    # points along a cushion in raw pixels map back onto the cushion line in mm
    along = m.to_pixels(np.stack([np.linspace(0, L, 9), np.zeros(9)], 1))
    assert np.abs(m.to_table(along)[:, 1]).max() < 0.05
    # and those raw pixels are not on a straight line (the lens bends them)
    a, b = along[0], along[-1]
    d = b - a
    off = np.abs(d[0] * (along[:, 1] - a[1]) - d[1] * (along[:, 0] - a[0])) / np.linalg.norm(d)
    assert off.max() > 3.0


def test_bad_intrinsics_are_refused() -> None:
    with pytest.raises(UserError, match="3x3"):
        Intrinsics.from_arrays([[0, 0, 0], [0, 1, 0], [0, 0, 1]], [0, 0, 0, 0])
    with pytest.raises(UserError, match="coefficients"):
        Intrinsics.from_arrays([[900.0, 0, 640.0], [0, 900.0, 360.0], [0, 0, 1]], [0.1, 0.2])
