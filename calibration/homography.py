"""Homographies between table millimetres and image pixels, and the corner quadrilateral behind them.

A calibration is four corners of the playing surface in image pixels, clockwise as seen on the
screen, the first one being the table's ``(0, 0)`` corner and the first edge running along the
table's length (``calibration/spec.py`` gives the frame). From them we fit ``H`` with
``pixel ~ H @ (x_mm, y_mm, 1)``. When the camera's intrinsics and lens distortion are known, the
homography lives in *undistorted* pixel coordinates and every mapping goes through OpenCV's
distortion model, so a wide-angle venue camera maps straight cushions to straight lines in mm.

Why the validation is strict: a corner typed in the wrong order or three corners on one line give
a homography that "works" but maps every ball to nonsense; a referee must refuse that loudly
instead of scoring from it. Corners outside the frame are fine (a camera may crop a corner).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.errors import UserError

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]
FloatArray = NDArray[np.float64]

#: Smallest accepted quadrilateral area, as a fraction of the image area (or absolute px^2 without one).
MIN_AREA_PX = 400.0
#: Smallest interior angle of an accepted quadrilateral, in degrees: flatter means three corners
#: are (nearly) on one line and the homography is ill-conditioned.
MIN_ANGLE_DEG = 15.0


@dataclass(frozen=True)
class Intrinsics:
    """Pinhole intrinsics and OpenCV distortion coefficients (k1, k2, p1, p2[, k3, ...]) of a venue camera.

    Only what a homography needs; the simulator's full camera (pose included) is ``calibration/camera.py``.
    """

    matrix: tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
    distortion: tuple[float, ...]

    @staticmethod
    def from_arrays(matrix: Sequence[Sequence[float]] | FloatArray, distortion: Sequence[float] | FloatArray) -> Intrinsics:
        k = np.asarray(matrix, dtype=np.float64)
        d = np.asarray(distortion, dtype=np.float64).ravel()
        if k.shape != (3, 3) or not np.all(np.isfinite(k)) or k[0, 0] <= 0 or k[1, 1] <= 0:
            raise UserError("camera matrix must be 3x3 with positive focal lengths [[fx,0,cx],[0,fy,cy],[0,0,1]]")
        if d.size not in (4, 5, 8, 12, 14) or not np.all(np.isfinite(d)):
            raise UserError(f"distortion must have 4, 5, 8, 12 or 14 coefficients (OpenCV order), got {d.size}")
        rows = tuple(tuple(float(v) for v in row) for row in k)
        return Intrinsics(matrix=rows, distortion=tuple(float(v) for v in d))  # type: ignore[arg-type]

    @property
    def k(self) -> FloatArray:
        return np.asarray(self.matrix, dtype=np.float64)

    @property
    def d(self) -> FloatArray:
        return np.asarray(self.distortion, dtype=np.float64)


# -- corner parsing and validation -------------------------------------------------------------

def parse_corners(text: str) -> Quad:
    """Parse ``"x,y x,y x,y x,y"`` (spaces or semicolons between points) into four float points."""
    if not text or not text.strip():
        raise UserError('--corners is empty; give four points "x,y x,y x,y x,y" in image pixels, clockwise')
    parts = [p for p in text.replace(";", " ").split() if p]
    if len(parts) != 4:
        raise UserError(
            f'--corners needs exactly four points "x,y x,y x,y x,y" (clockwise, in image pixels); got {len(parts)}'
        )
    points: list[Point] = []
    for part in parts:
        xy = part.split(",")
        if len(xy) != 2:
            raise UserError(f'--corners point {part!r} is not "x,y"; give four points "x,y x,y x,y x,y"')
        try:
            x, y = float(xy[0]), float(xy[1])
        except ValueError:
            raise UserError(f"--corners point {part!r} is not two numbers") from None
        if not (math.isfinite(x) and math.isfinite(y)):
            raise UserError(f"--corners point {part!r} is not finite")
        points.append((x, y))
    return (points[0], points[1], points[2], points[3])


def signed_area(quad: Sequence[Point]) -> float:
    """Shoelace area in image coordinates (y down): positive when the corners run clockwise on screen."""
    s = 0.0
    n = len(quad)
    for i in range(n):
        x0, y0 = quad[i]
        x1, y1 = quad[(i + 1) % n]
        s += x0 * y1 - x1 * y0
    return 0.5 * s


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0


def interior_angles(quad: Sequence[Point]) -> list[float]:
    """Interior angles in degrees, one per corner."""
    out = []
    for i in range(4):
        p0, p1, p2 = np.asarray(quad[i - 1]), np.asarray(quad[i]), np.asarray(quad[(i + 1) % 4])
        u, v = p0 - p1, p2 - p1
        nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
        if nu == 0 or nv == 0:
            out.append(0.0)
            continue
        c = float(np.clip(np.dot(u, v) / (nu * nv), -1.0, 1.0))
        out.append(math.degrees(math.acos(c)))
    return out


def validate_quad(
    quad: Sequence[Point],
    image_size: tuple[int, int] | None = None,
    aspect: float | None = None,
    what: str = "corners",
) -> Quad:
    """Refuse a quadrilateral that cannot be a table seen by a camera; return it as a :data:`Quad`.

    Accepted: four finite, distinct points forming a convex quadrilateral, clockwise on screen,
    with no interior angle under :data:`MIN_ANGLE_DEG` and a reasonable area. Points may lie outside
    the frame, but at least part of the quadrilateral must be inside it. With ``aspect`` (the
    table's length/width) an order that starts on a short side is refused, because it would map the
    length onto the width.
    """
    pts = [(float(x), float(y)) for x, y in quad]
    if len(pts) != 4:
        raise UserError(f"{what}: need exactly four corners, got {len(pts)}")
    if not all(math.isfinite(v) for p in pts for v in p):
        raise UserError(f"{what}: corners must be finite numbers")
    hint = 'give the playing-surface corners clockwise on screen, e.g. "100,50 1180,50 1180,670 100,670"'
    for i in range(4):
        for j in range(i + 1, 4):
            if math.dist(pts[i], pts[j]) < 2.0:
                raise UserError(f"{what} are degenerate: corners {i + 1} and {j + 1} coincide; {hint}")
    if _segments_cross(pts[0], pts[1], pts[2], pts[3]) or _segments_cross(pts[1], pts[2], pts[3], pts[0]):
        raise UserError(f"{what} are degenerate: the quadrilateral crosses itself (corners out of order); {hint}")
    area = signed_area(pts)
    if area < 0:
        raise UserError(f"{what} run anticlockwise on screen; {hint}")
    min_area = MIN_AREA_PX
    if image_size is not None:
        min_area = max(MIN_AREA_PX, 1e-3 * image_size[0] * image_size[1])
    if area < min_area:
        raise UserError(f"{what} are degenerate: the quadrilateral's area is {area:.0f} px^2 (need >= {min_area:.0f}); {hint}")
    cross = [
        (pts[(i + 1) % 4][0] - pts[i][0]) * (pts[(i + 2) % 4][1] - pts[(i + 1) % 4][1])
        - (pts[(i + 1) % 4][1] - pts[i][1]) * (pts[(i + 2) % 4][0] - pts[(i + 1) % 4][0])
        for i in range(4)
    ]
    if any(c <= 0 for c in cross):
        raise UserError(f"{what} are degenerate: the quadrilateral is not convex; {hint}")
    angles = interior_angles(pts)
    if min(angles) < MIN_ANGLE_DEG or max(angles) > 180.0 - MIN_ANGLE_DEG:
        worst = min(angles) if min(angles) < MIN_ANGLE_DEG else max(angles)
        raise UserError(
            f"{what} are degenerate: an interior angle is {worst:.1f} degrees (three corners nearly on a line); {hint}"
        )
    if image_size is not None:
        w, h = image_size
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        if max(xs) < 0 or min(xs) > w or max(ys) < 0 or min(ys) > h:
            raise UserError(f"{what} lie entirely outside the {w}x{h} image; {hint}")
    if aspect is not None and aspect >= 1.4:
        along = math.dist(pts[0], pts[1]) + math.dist(pts[2], pts[3])
        across = math.dist(pts[1], pts[2]) + math.dist(pts[3], pts[0])
        if along < 0.75 * across:
            raise UserError(
                f"{what}: the first edge (corner 1 -> corner 2) looks like a short side of the table; "
                "start at the table's (0, 0) corner so that corner 1 -> corner 2 runs along its length"
            )
    return (pts[0], pts[1], pts[2], pts[3])


# -- fitting and applying ----------------------------------------------------------------------

def _as_points(points: Sequence[Point] | FloatArray) -> FloatArray:
    arr = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return arr


def undistort_pixels(points: Sequence[Point] | FloatArray, camera: Intrinsics | None) -> FloatArray:
    """Raw image pixels -> ideal (undistorted) pixels of the same camera matrix."""
    pts = _as_points(points)
    if camera is None or pts.size == 0:
        return pts.copy()
    crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 50, 1e-10)
    src = pts.reshape(-1, 1, 2)
    if hasattr(cv2, "undistortPointsIter"):  # OpenCV 4.x: the iterative solver has its own name
        out = cv2.undistortPointsIter(src, camera.k, camera.d, None, camera.k, crit)
    else:  # OpenCV 5: undistortPoints takes the criteria
        out = cv2.undistortPoints(src, camera.k, camera.d, P=camera.k, criteria=crit)
    return np.asarray(out, dtype=np.float64).reshape(-1, 2)


def distort_pixels(points: Sequence[Point] | FloatArray, camera: Intrinsics | None) -> FloatArray:
    """Ideal (undistorted) pixels -> raw image pixels, through the lens model."""
    pts = _as_points(points)
    if camera is None or pts.size == 0:
        return pts.copy()
    k = camera.k
    norm = np.empty((pts.shape[0], 3), dtype=np.float64)
    norm[:, 0] = (pts[:, 0] - k[0, 2]) / k[0, 0]
    norm[:, 1] = (pts[:, 1] - k[1, 2]) / k[1, 1]
    norm[:, 2] = 1.0
    out, _ = cv2.projectPoints(norm.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), k, camera.d)
    return np.asarray(out, dtype=np.float64).reshape(-1, 2)


def fit_homography(table_points: Sequence[Point] | FloatArray, pixel_points: Sequence[Point] | FloatArray) -> FloatArray:
    """Homography mapping table mm to (ideal) pixels from four or more correspondences."""
    src = _as_points(table_points)
    dst = _as_points(pixel_points)
    if src.shape != dst.shape or src.shape[0] < 4:
        raise UserError("a homography needs at least four point pairs")
    for pts in (src, dst):
        spread = np.linalg.svd(pts - pts.mean(axis=0), compute_uv=False)
        if spread[-1] < 1e-6 * max(1.0, float(spread[0])):
            raise UserError("the corners are degenerate: the points lie on one line")
    if src.shape[0] == 4:
        h = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    else:
        h, _ = cv2.findHomography(src, dst, 0)
    if h is None or not np.all(np.isfinite(h)) or abs(float(np.linalg.det(h))) < 1e-12:
        raise UserError("the corners are degenerate: no homography fits them")
    h = np.asarray(h, dtype=np.float64)
    return h / h[2, 2]


def apply_homography(h: FloatArray, points: Sequence[Point] | FloatArray) -> FloatArray:
    """Map points through ``h`` (N x 2 in, N x 2 out)."""
    pts = _as_points(points)
    if pts.size == 0:
        return pts.copy()
    homog = np.hstack([pts, np.ones((pts.shape[0], 1))]) @ np.asarray(h, dtype=np.float64).T
    w = homog[:, 2:3]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = homog[:, :2] / w
    return np.asarray(out, dtype=np.float64)


def numeric_scale(to_pixels: Callable[[FloatArray], FloatArray], point: Point, d: float = 5.0) -> float:
    """Pixels per millimetre around a table point through any table-to-pixel map (a lens's
    distortion included): the square root of its Jacobian's determinant, by central differences
    ``d`` mm apart."""
    x, y = point
    pts = np.asarray(to_pixels(np.array([(x - d, y), (x + d, y), (x, y - d), (x, y + d)], np.float64)), np.float64)
    jx = (pts[1] - pts[0]) / (2 * d)
    jy = (pts[3] - pts[2]) / (2 * d)
    return float(math.sqrt(abs(jx[0] * jy[1] - jx[1] * jy[0])))


def invert_homography(h: FloatArray) -> FloatArray:
    inv = np.linalg.inv(np.asarray(h, dtype=np.float64))
    return np.asarray(inv / inv[2, 2], dtype=np.float64)


def local_scale(h: FloatArray, point: Point) -> float:
    """Pixels per millimetre around a table point: the square root of the Jacobian's determinant.

    This is the size a flat circle of 1 mm radius takes in the image, averaged over directions; a
    tilted or stretched view makes it an ellipse whose area this keeps.
    """
    x, y = point
    hm = np.asarray(h, dtype=np.float64)
    w = hm[2, 0] * x + hm[2, 1] * y + hm[2, 2]
    u = (hm[0, 0] * x + hm[0, 1] * y + hm[0, 2]) / w
    v = (hm[1, 0] * x + hm[1, 1] * y + hm[1, 2]) / w
    j = np.array(
        [
            [(hm[0, 0] - u * hm[2, 0]) / w, (hm[0, 1] - u * hm[2, 1]) / w],
            [(hm[1, 0] - v * hm[2, 0]) / w, (hm[1, 1] - v * hm[2, 1]) / w],
        ]
    )
    return float(math.sqrt(abs(float(np.linalg.det(j)))))


@dataclass(frozen=True)
class PlaneMapping:
    """Table mm <-> raw image pixels for one camera: the homography plus the optional lens model."""

    h: tuple[tuple[float, ...], ...]  # table mm -> ideal pixels
    camera: Intrinsics | None = None

    @staticmethod
    def from_corners(
        corners_px: Sequence[Point],
        length_mm: float,
        width_mm: float,
        camera: Intrinsics | None = None,
    ) -> PlaneMapping:
        ideal = undistort_pixels(corners_px, camera)
        table = [(0.0, 0.0), (length_mm, 0.0), (length_mm, width_mm), (0.0, width_mm)]
        h = fit_homography(table, ideal)
        return PlaneMapping(h=tuple(tuple(float(v) for v in row) for row in h), camera=camera)

    @staticmethod
    def from_points(
        table_points: Sequence[Point] | FloatArray,
        pixel_points: Sequence[Point] | FloatArray,
        camera: Intrinsics | None = None,
    ) -> PlaneMapping:
        """From four or more (table mm, raw pixel) pairs."""
        h = fit_homography(table_points, undistort_pixels(pixel_points, camera))
        return PlaneMapping(h=tuple(tuple(float(v) for v in row) for row in h), camera=camera)

    @property
    def matrix(self) -> FloatArray:
        return np.asarray(self.h, dtype=np.float64)

    @property
    def inverse(self) -> FloatArray:
        return invert_homography(self.matrix)

    def to_pixels(self, points_mm: Sequence[Point] | FloatArray) -> FloatArray:
        return distort_pixels(apply_homography(self.matrix, points_mm), self.camera)

    def to_table(self, points_px: Sequence[Point] | FloatArray) -> FloatArray:
        return apply_homography(self.inverse, undistort_pixels(points_px, self.camera))

    def scale_at(self, point_mm: Point) -> float:
        """Approximate raw pixels per mm near a table point (distortion included numerically)."""
        if self.camera is None:
            return local_scale(self.matrix, point_mm)
        return numeric_scale(self.to_pixels, point_mm)
