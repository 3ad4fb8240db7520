"""Where the classical detector looks and what size it expects: the table region of one image.

Why image space and not a rectified top view: a ball is a sphere, so the camera sees it as a
circle wherever it lies, while the cloth under it is foreshortened. Warping to a top view turns
every ball of a tilted camera into an ellipse stretched away from the lens (2:1 at 60 degrees)
and merges touching balls; in the image they stay round. What the table geometry gives instead
is the *expected radius* at each pixel: a sphere of radius R whose centre projects near a cloth
point appears with radius about ``R * s_max``, where ``s_max`` is the larger singular value of the
table-mm-to-pixel Jacobian there (the scale across the line of sight, which tilt does not shrink).

The mapping comes from a calibration (exact, lens distortion included) or from the cloth
quadrilateral found automatically; with neither (a close-up, a table cropped by the frame) the
region is the cloth blob and the radius comes from the balls themselves (``metric`` is false).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.homography import apply_homography, fit_homography, invert_homography
from tableref.calibration.spec import TableSpec
from tableref.calibration.surface import (
    CLOTH_MARGIN_MM,
    ClothModel,
    check_cloth_kind,
    find_surface,
    segment_cloth,
)
from tableref.errors import UserError

U8 = NDArray[Any]  # an 8-bit image (cv2's stubs type images loosely)
F32 = NDArray[Any]  # a float32 image
FloatArray = NDArray[np.float64]
MapFn = Callable[[FloatArray], FloatArray]

#: Grid step (pixels) of the expected-radius map; it varies slowly, so it is interpolated.
RADIUS_GRID = 16


@dataclass(frozen=True)
class TableRegion:
    """The table in one image: a crop box, the cloth mask inside it and the expected ball radius.

    ``box`` is (x0, y0, x1, y1) in image pixels; ``mask`` and ``radius`` have the crop's shape.
    ``to_mm``/``to_px`` map image pixels to table mm and back (``None`` when not ``metric``).
    ``holes_px`` are the spec's holes and pockets as (x, y, radius) image pixels, to tell a pocket's
    dark mouth from a black ball.
    """

    box: tuple[int, int, int, int]
    mask: U8 = field(compare=False, repr=False)
    radius: F32 = field(compare=False, repr=False)
    cloth: ClothModel
    metric: bool
    to_mm: MapFn | None = field(default=None, compare=False, repr=False)
    to_px: MapFn | None = field(default=None, compare=False, repr=False)
    holes_px: tuple[tuple[float, float, float], ...] = ()
    pins_px: tuple[tuple[str, float, float, float], ...] = ()  # (pin id, x, y, radius) at its spot

    def crop(self, image: U8) -> U8:
        x0, y0, x1, y1 = self.box
        return image[y0:y1, x0:x1]

    def with_radius_scale(self, k: float) -> TableRegion:
        from dataclasses import replace

        return replace(self, radius=(self.radius * np.float32(k)).astype(np.float32))


def _jacobian_smax(to_px: MapFn, pts_mm: FloatArray, d: float = 4.0) -> FloatArray:
    """Larger singular value of the mm->px Jacobian at each table point (numerically)."""
    n = len(pts_mm)
    offs = np.array([[-d, 0.0], [d, 0.0], [0.0, -d], [0.0, d]])
    q = to_px((pts_mm[:, None, :] + offs[None]).reshape(-1, 2)).reshape(n, 4, 2)
    jx = (q[:, 1] - q[:, 0]) / (2 * d)
    jy = (q[:, 3] - q[:, 2]) / (2 * d)
    a, b, c, e = jx[:, 0], jy[:, 0], jx[:, 1], jy[:, 1]
    s1 = a * a + b * b + c * c + e * e
    det = a * e - b * c
    disc = np.sqrt(np.maximum(s1 * s1 - 4 * det * det, 0.0))
    return np.asarray(np.sqrt((s1 + disc) / 2), dtype=np.float64)


def region_from_mapping(
    spec: TableSpec,
    image_size: tuple[int, int],
    to_px: MapFn,
    to_mm: MapFn,
    cloth: ClothModel | None,
    margin_mm: float,
    ball_mm: float,
) -> TableRegion:
    """The region inside the cloth rectangle (playing surface plus ``margin_mm``) of a known mapping."""
    cols, rows = image_size
    L, W, m = spec.length_mm, spec.width_mm, margin_mm
    n = 24
    t = np.linspace(0.0, 1.0, n, endpoint=False)
    edges = [
        np.stack([-m + t * (L + 2 * m), np.full(n, -m)], 1),
        np.stack([np.full(n, L + m), -m + t * (W + 2 * m)], 1),
        np.stack([L + m - t * (L + 2 * m), np.full(n, W + m)], 1),
        np.stack([np.full(n, -m), W + m - t * (W + 2 * m)], 1),
    ]
    outline = to_px(np.concatenate(edges))
    if not np.all(np.isfinite(outline)):
        raise UserError("the calibration maps part of the table behind the camera; recalibrate")
    x0 = int(max(0, math.floor(outline[:, 0].min())))
    y0 = int(max(0, math.floor(outline[:, 1].min())))
    x1 = int(min(cols, math.ceil(outline[:, 0].max()) + 1))
    y1 = int(min(rows, math.ceil(outline[:, 1].max()) + 1))
    if x1 - x0 < 16 or y1 - y0 < 16:
        raise UserError("the table lies outside the picture (check the calibration and the image size)")
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round(outline - [x0, y0]).astype(np.int32)], 255)
    # expected radius on a coarse grid of crop pixels, interpolated
    gw = (x1 - x0 + RADIUS_GRID - 1) // RADIUS_GRID + 1
    gh = (y1 - y0 + RADIUS_GRID - 1) // RADIUS_GRID + 1
    gx, gy = np.meshgrid(np.arange(gw) * RADIUS_GRID + x0, np.arange(gh) * RADIUS_GRID + y0)
    grid_px = np.stack([gx.ravel(), gy.ravel()], 1).astype(np.float64)
    grid_mm = to_mm(grid_px)
    # clamp to the cloth so points beyond the horizon or far off the table stay sane
    grid_mm[:, 0] = np.clip(grid_mm[:, 0], -m, L + m)
    grid_mm[:, 1] = np.clip(grid_mm[:, 1], -m, W + m)
    r = (ball_mm * _jacobian_smax(to_px, grid_mm)).reshape(gh, gw).astype(np.float32)
    radius = cv2.resize(r, ((gw - 1) * RADIUS_GRID + 1, (gh - 1) * RADIUS_GRID + 1), interpolation=cv2.INTER_LINEAR)
    radius = np.ascontiguousarray(radius[: y1 - y0, : x1 - x0])
    holes = []
    for hole in spec.holes:
        c = to_px(np.array([[hole.x, hole.y]]))[0]
        s = float(_jacobian_smax(to_px, np.array([[hole.x, hole.y]]))[0])
        holes.append((float(c[0]), float(c[1]), hole.radius * s))
    pins = []
    for pin in spec.pins:
        c = to_px(np.array([[pin.x, pin.y]]))[0]
        s = float(_jacobian_smax(to_px, np.array([[pin.x, pin.y]]))[0])
        pins.append((pin.id, float(c[0]), float(c[1]), pin.radius * s))
    if cloth is None:  # measured per frame by the caller (the light changes; the mapping does not)
        cloth = ClothModel(hue=0.0, sat=0.0, val=0.0, hue_sigma=1.0, sat_sigma=1.0)
    return TableRegion(
        box=(x0, y0, x1, y1), mask=mask, radius=radius, cloth=cloth, metric=True,
        to_mm=to_mm, to_px=to_px, holes_px=tuple(holes), pins_px=tuple(pins),
    )


def region_from_quad(spec: TableSpec, corners: FloatArray, cloth: ClothModel, image_size: tuple[int, int], ball_mm: float) -> TableRegion:
    """Region from the automatically found cloth quadrilateral (its edge is the cloth margin)."""
    m = CLOTH_MARGIN_MM.get(spec.name, 0.0)
    quad_mm = np.array([[-m, -m], [spec.length_mm + m, -m], [spec.length_mm + m, spec.width_mm + m],
                        [-m, spec.width_mm + m]])
    h = fit_homography(quad_mm, corners)
    hinv = invert_homography(h)

    def to_px(p: FloatArray) -> FloatArray:
        return apply_homography(h, p)

    def to_mm(p: FloatArray) -> FloatArray:
        return apply_homography(hinv, p)

    return region_from_mapping(spec, image_size, to_px, to_mm, cloth, m, ball_mm)


def _blob_radii(hsv: U8, mask: U8, cloth: ClothModel) -> list[float]:
    from tableref.calibration.surface import cloth_distance

    fg = ((cloth_distance(hsv, cloth) > 3.0).astype(np.uint8) * 255) & mask
    n, _, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    out = []
    for i in range(1, n):
        w, h, a = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT], stats[i, cv2.CC_STAT_AREA]
        if a < 12 or max(w, h) > 2.2 * min(w, h) or a < 0.55 * w * h:
            continue
        out.append(math.sqrt(a / math.pi))
    return out


def region_from_cloth(spec: TableSpec, image: U8) -> TableRegion:
    """Non-metric region: the cloth blob's hull, radius from the ball-sized blobs on it."""
    rows, cols = image.shape[:2]
    mask_small, cloth, scale = segment_cloth(image)
    if int(np.count_nonzero(mask_small)) < 0.03 * mask_small.size:
        raise UserError("no table found: no cloth-coloured region of any size near the centre of the picture")
    try:
        check_cloth_kind(spec.name, cloth)
    except UserError:
        # no table outline was found, so the dominant colour may be a wall or a floor: say so
        # rather than blame --table
        raise UserError(
            f"no {spec.name} table found: no table outline, and the main surface near the centre does not look like one"
        ) from None
    hull = cv2.convexHull(cv2.findNonZero(mask_small)).reshape(-1, 2).astype(np.float64) / scale
    x0, y0 = int(max(0, hull[:, 0].min())), int(max(0, hull[:, 1].min()))
    x1, y1 = int(min(cols, hull[:, 0].max() + 1)), int(min(rows, hull[:, 1].max() + 1))
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(hull - [x0, y0]).astype(np.int32), 255)
    hsv = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2HSV)
    radii = _blob_radii(hsv, mask, cloth)
    if len(radii) < 2:
        raise UserError("no table found: no table outline and no ball-sized objects on the cloth")
    r = float(np.median(radii))
    if r * 30 > min(mask.shape):
        raise UserError("no table found: no table outline, and the objects on the cloth are too large to be balls")
    radius = np.full(mask.shape, r, np.float32)
    return TableRegion(box=(x0, y0, x1, y1), mask=mask, radius=radius, cloth=cloth, metric=False)


def auto_region(spec: TableSpec, image: U8, ball_mm: float) -> TableRegion:
    """The best region the image allows without a calibration: the quadrilateral, else the cloth blob."""
    rows, cols = image.shape[:2]
    try:
        fit = find_surface(image, aspect=spec.length_mm / spec.width_mm, table=spec.name)
    except UserError as exc:
        if "check --table" in str(exc):
            raise
        return region_from_cloth(spec, image)
    check_cloth_kind(spec.name, fit.cloth)
    return region_from_quad(spec, np.asarray(fit.corners), fit.cloth, (cols, rows), ball_mm)
