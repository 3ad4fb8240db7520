"""The physical camera model: pose from height/tilt/azimuth, projection, homographies, distortion."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tableref.calibration.camera import CameraModel

TABLE = (2540.0, 1270.0)
RAILS = [(-170.0, -170.0, 44.0), (2710.0, -170.0, 44.0), (2710.0, 1440.0, 44.0), (-170.0, 1440.0, 44.0)]


def _camera(tilt: float = 25.0, az: float = 70.0, roll: float = 3.0,
            dist: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0)) -> CameraModel:
    return CameraModel.looking_at(width=1280, height=720, fps=30, target=(1290.0, 620.0), height_mm=2600.0,
                                  tilt_deg=tilt, azimuth_deg=az, roll_deg=roll, keep_in_view=RAILS, dist=dist)


def _table_points(n: int = 50, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.column_stack([rng.uniform(0, TABLE[0], n), rng.uniform(0, TABLE[1], n)])


@pytest.mark.parametrize("z", [0.0, 28.575, 300.0])
def test_homography_of_a_plane_agrees_with_the_pinhole_projection(z: float) -> None:
    cam = _camera()
    xy = _table_points()
    H = cam.homography(z)
    h = np.column_stack([xy, np.ones(len(xy))]) @ H.T
    via_h = h[:, :2] / h[:, 2:3]
    direct = cam.project(np.column_stack([xy, np.full(len(xy), z)]))
    assert np.abs(via_h - direct).max() < 1e-6
    assert H[2, 2] == pytest.approx(1.0)


def test_planes_at_different_heights_map_differently_under_a_tilted_camera() -> None:
    cam = _camera(tilt=30.0)
    at = [cam.project(np.array([[200.0, 100.0, z]]))[0] for z in (0.0, 28.575)]
    assert np.hypot(*(at[0] - at[1])) > 3.0, "a ball's centre is not where its foot is in the image"


def test_pose_is_what_was_asked_for() -> None:
    cam = _camera(tilt=30.0, az=120.0, roll=0.0)
    pos = cam.position
    assert pos[2] == pytest.approx(2600.0)
    axis_world = cam.R[2]  # optical axis in the (x, y, -z) world frame
    down = np.array([0.0, 0.0, 1.0])
    assert math.degrees(math.acos(float(axis_world @ down))) == pytest.approx(30.0, abs=1e-6)
    # the camera stands off towards azimuth 120 degrees and looks at the target
    off = pos[:2] - np.array([1290.0, 620.0])
    assert math.degrees(math.atan2(off[1], off[0])) == pytest.approx(120.0, abs=1e-6)
    centre = cam.project(np.array([[1290.0, 620.0, 0.0]]))[0]
    assert centre == pytest.approx([cam.cx, cam.cy], abs=1e-6)


def test_straight_down_camera_keeps_the_table_axes_as_image_axes() -> None:
    cam = _camera(tilt=0.0, roll=0.0)
    a, b, c = cam.project(np.array([[0.0, 0.0, 0.0], [1000.0, 0.0, 0.0], [0.0, 1000.0, 0.0]]))
    assert b[0] > a[0] and b[1] == pytest.approx(a[1], abs=1e-6)  # +x is image right
    assert c[1] > a[1] and c[0] == pytest.approx(a[0], abs=1e-6)  # +y is image down


@pytest.mark.parametrize("dist", [(0.0,) * 5, (-0.12, 0.02, 5e-4, -5e-4, 0.0), (0.05, 0.03, 0.0, 0.0, 0.0)])
def test_the_zoom_keeps_the_rails_in_frame_with_the_lens_distortion(dist: tuple[float, ...]) -> None:
    cam = _camera(tilt=34.0, az=250.0, dist=dist)
    px = cam.project(np.array(RAILS))
    assert px[:, 0].min() >= 0 and px[:, 0].max() <= cam.width - 1
    assert px[:, 1].min() >= 0 and px[:, 1].max() <= cam.height - 1
    # and it is zoomed in: the rails fill most of the frame one way or the other
    span = max((px[:, 0].max() - px[:, 0].min()) / cam.width, (px[:, 1].max() - px[:, 1].min()) / cam.height)
    assert span > 0.75


def test_undistorting_observed_pixels_gives_back_the_homography_pixels() -> None:
    cam = _camera(dist=(-0.1, 0.02, 4e-4, -3e-4, 0.0))
    xy = _table_points(seed=3)
    pts = np.column_stack([xy, np.full(len(xy), 28.575)])
    observed = cam.project(pts)
    ideal = cam.project_undistorted(pts)
    assert np.abs(observed - ideal).max() > 1.0, "the lens really distorts"
    assert np.abs(cam.undistort_pixels(observed) - ideal).max() < 0.01
    assert np.abs(cam.pixel_to_table(observed, 28.575) - xy).max() < 0.05


def test_json_round_trip_keeps_the_camera() -> None:
    cam = _camera(dist=(-0.05, 0.01, 1e-4, 2e-4, 0.0))
    back = CameraModel.from_json(cam.to_json())
    pts = np.column_stack([_table_points(10), np.zeros(10)])
    assert np.abs(back.project(pts) - cam.project(pts)).max() < 0.05
    d = cam.to_json()
    assert d["height_mm"] == pytest.approx(2600.0) and len(d["K"]) == 3 and len(d["distortion"]) == 5
    assert 0 < d["fov_deg"][0] < 120


@pytest.mark.parametrize("kwargs", [{"tilt_deg": 85.0}, {"height_mm": 0.0}, {"width": 0}])
def test_impossible_installations_are_refused(kwargs: dict[str, float]) -> None:
    args: dict[str, object] = {"width": 640, "height": 360, "fps": 30, "target": (0.0, 0.0), "height_mm": 1000.0}
    args.update(kwargs)
    with pytest.raises(ValueError):
        CameraModel.looking_at(**args)
