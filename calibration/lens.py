"""Lens distortion from the table itself, when the venue gives no intrinsics.

Why it can be done: a table's four cushion edges are long straight lines, and a lens bends them
(barrel distortion bows them outwards). The one radial coefficient that straightens all four at
once is the lens's first-order distortion, measured on the picture the calibration is made from.
Venue cameras are often wide-angle with ``k1`` of -0.05 to -0.15; ignored, that bends a table's
far end by several pixels (2 cm). Only ``k1`` is estimated (principal point at the image centre):
four lines fix one coefficient well, not five.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from tableref.calibration.homography import FloatArray, Intrinsics
from tableref.calibration.pose import prior_focal

#: Search range of k1 (normalised by the prior focal length, OpenCV's model).
K1_RANGE = (-0.4, 0.25)
#: Residuals beyond this many pixels count no more (pockets, balls on the cushion, hands).
TRUNCATE_PX = 1.5
#: A coefficient is kept only when it straightens the edges by at least this share of the cost.
MIN_GAIN = 0.25


def _camera(k1: float, size: tuple[int, int]) -> Intrinsics:
    f = prior_focal(size)
    w, h = size
    return Intrinsics.from_arrays([[f, 0.0, (w - 1) / 2.0], [0.0, f, (h - 1) / 2.0], [0.0, 0.0, 1.0]],
                                  [k1, 0.0, 0.0, 0.0, 0.0])


def _straightness(sides: Sequence[FloatArray], k1: float, size: tuple[int, int]) -> float:
    """Sum over the sides of truncated squared distances of the undistorted points to their line."""
    cam = _camera(k1, size)
    cost = 0.0
    for pts in sides:
        if len(pts) < 12:
            continue
        und = cv2.undistortPoints(pts.reshape(-1, 1, 2), cam.k, cam.d, P=cam.k).reshape(-1, 2)
        line = cv2.fitLine(und.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        r = (und[:, 0] - line[2]) * line[1] - (und[:, 1] - line[3]) * line[0]
        cost += float(np.minimum(r * r, TRUNCATE_PX**2).sum())
    return cost


def estimate_k1(sides: Sequence[FloatArray], size: tuple[int, int]) -> float:
    """The radial coefficient that makes the edge points of ``sides`` straightest (0 when the
    gain over no distortion is too small to trust)."""
    if sum(len(p) >= 12 for p in sides) < 3:
        return 0.0
    grid = np.linspace(K1_RANGE[0], K1_RANGE[1], 27)
    costs = [_straightness(sides, float(k), size) for k in grid]
    i = int(np.argmin(costs))
    lo, hi = float(grid[max(0, i - 1)]), float(grid[min(len(grid) - 1, i + 1)])
    g = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = _straightness(sides, a, size), _straightness(sides, b, size)
    for _ in range(20):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = _straightness(sides, a, size)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = _straightness(sides, b, size)
    k1 = (lo + hi) / 2.0
    base = _straightness(sides, 0.0, size)
    if base <= 0.0 or _straightness(sides, k1, size) > (1.0 - MIN_GAIN) * base:
        return 0.0
    return k1


def lens_guess(sides: Sequence[FloatArray], size: tuple[int, int]) -> Intrinsics | None:
    """A camera (prior focal length, centred principal point) with the measured k1, or ``None``
    when the edges are straight already."""
    k1 = estimate_k1(sides, size)
    return _camera(k1, size) if k1 != 0.0 else None


def rescale_k1(k1: float, f_from: float, f_to: float) -> float:
    """The same lens in terms of another focal length: ``k1`` scales with the focal length squared
    (the distortion is a function of pixel radius; OpenCV normalises the radius by ``f``)."""
    return k1 * (f_to / f_from) ** 2
