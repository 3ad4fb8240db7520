"""How far a calibration is from the truth of a simulated clip, in pixels and in millimetres.

Why these points: a referee's calls hang on the holes, pockets and the playing surface's corners
(a ball over a hole, a ball against a cushion), so the score is the reprojection error of exactly
those, on the cloth (z = 0), where they are. Pixels are raw camera pixels (lens distortion
included, as the detector sees them); millimetres are where the truth's camera says the
calibration's pixel for a point really lies on the cloth.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tableref.calibration.calibrate import Calibration
from tableref.calibration.homography import (
    FloatArray,
    Intrinsics,
    apply_homography,
    distort_pixels,
    invert_homography,
    undistort_pixels,
)
from tableref.calibration.spec import TableSpec


@dataclass(frozen=True)
class CalibrationError:
    """Reprojection errors of the corners and holes (or pockets) against the truth."""

    corners_px: tuple[float, ...]
    corners_mm: tuple[float, ...]
    holes_px: tuple[float, ...]
    holes_mm: tuple[float, ...]

    @property
    def all_px(self) -> tuple[float, ...]:
        return self.corners_px + self.holes_px

    @property
    def all_mm(self) -> tuple[float, ...]:
        return self.corners_mm + self.holes_mm

    @property
    def max_mm(self) -> float:
        return max(self.all_mm)

    @property
    def max_px(self) -> float:
        return max(self.all_px)

    @property
    def holes_max_mm(self) -> float:
        return max(self.holes_mm) if self.holes_mm else max(self.corners_mm)


def truth_camera(truth: dict[str, Any]) -> Intrinsics:
    """The clip's true intrinsics and distortion (what ``--intrinsics`` would give)."""
    cam = truth["camera"]
    return Intrinsics.from_arrays(cam["K"], cam["distortion"])


def truth_cloth_homography(truth: dict[str, Any]) -> FloatArray:
    """The true cloth-plane (z = 0) homography, table mm -> undistorted pixels."""
    return np.asarray(truth["homography_cloth"], dtype=np.float64)


def reference_points(spec: TableSpec) -> tuple[FloatArray, FloatArray]:
    """The playing-surface corners and the hole (or pocket) centres, table mm on the cloth."""
    corners = np.asarray(spec.corners, dtype=np.float64)
    holes = np.asarray([(h.x, h.y) for h in spec.holes], dtype=np.float64).reshape(-1, 2)
    return corners, holes


def calibration_error(cal: Calibration, truth: dict[str, Any]) -> CalibrationError:
    """Errors of ``cal`` (a cloth-plane calibration) against a simulated clip's truth."""
    cam = truth_camera(truth)
    h_true = truth_cloth_homography(truth)
    h_true_inv = invert_homography(h_true)

    def score(points: FloatArray) -> tuple[tuple[float, ...], tuple[float, ...]]:
        if len(points) == 0:
            return (), ()
        seen = cal.to_pixels(points)
        true_px = distort_pixels(apply_homography(h_true, points), cam)
        err_px = np.linalg.norm(seen - true_px, axis=1)
        where = apply_homography(h_true_inv, undistort_pixels(seen, cam))
        err_mm = np.linalg.norm(where - points, axis=1)
        return tuple(float(v) for v in err_px), tuple(float(v) for v in err_mm)

    corners, holes = reference_points(cal.spec)
    cpx, cmm = score(corners)
    hpx, hmm = score(holes)
    return CalibrationError(cpx, cmm, hpx, hmm)
