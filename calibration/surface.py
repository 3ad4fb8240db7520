"""Find the playing surface in a photo without help: cloth (or board) segmentation and a quadrilateral.

Why this shape of algorithm: a venue camera sees the table under uneven light, at an angle, with
people, cues and hands over it, and sometimes with a corner cropped by the frame. What stays
stable is that the cloth (or a carrom board's lacquered wood) is the one large region of a single
hue and saturation near the middle of the picture; brightness varies (shadows, sunlight), so the
colour model ignores it except to reject near-black pixels. From that region we take the convex
hull (which bridges balls, pockets and the bite of a leaning player), split its outline into
straight runs, keep the four longest (runs along the image border are not table edges), and
intersect their robustly fitted lines: a corner hidden by a person or outside the frame is
recovered from its two sides. ``refine_quad`` then moves each side onto the strongest cloth/rail
transition at full resolution.

The quadrilateral found is the visible cloth's outer edge; the spec's playing surface ends at the
cushion noses, a cushion's width further in (:data:`CLOTH_MARGIN_MM`), and under a tilted camera
that edge is not on the cloth but on the rail, above it: ``pose.py`` turns the four edge lines
(:func:`refine_lines`) into the camera, and ``lens.py`` measures their curvature when no lens is given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.homography import Point, Quad, signed_area
from tableref.errors import UserError

U8 = NDArray[Any]  # an 8-bit image (cv2's stubs type images loosely)
FloatArray = NDArray[np.float64]

#: How far the visible cloth (or board) extends beyond the spec's playing surface (the cushion
#: noses), seen from above. Typical values; manual corners avoid the assumption altogether.
CLOTH_MARGIN_MM: dict[str, float] = {"pool": 50.0, "bar-billiards": 40.0, "carrom": 0.0, "cards": 0.0}

#: Working width for the coarse segmentation (pixels along the longer image side).
WORK_SIZE = 256


@dataclass(frozen=True)
class ClothModel:
    """The surface colour: hue (OpenCV 0-180), saturation and value medians and their spreads."""

    hue: float
    sat: float
    val: float
    hue_sigma: float
    sat_sigma: float
    #: A grey (unsaturated) cloth: hue means nothing there, brightness is the evidence instead.
    grey: bool = False

    @property
    def looks_like_wood(self) -> bool:
        """Light, orange-yellow and moderately saturated: a carrom board rather than a cloth."""
        return not self.grey and 6.0 <= self.hue <= 28.0 and 40.0 <= self.sat <= 185.0 and self.val >= 120.0

    @property
    def uses_value(self) -> bool:
        """Whether brightness counts in the cloth distance (a wooden board, a grey cloth)."""
        return self.grey or self.looks_like_wood


@dataclass(frozen=True)
class SurfaceFit:
    """The table found in an image: the cloth's outer quadrilateral (image pixels) and its colour.

    ``corners`` run clockwise on screen, corner 0 first (see :func:`orient_quad`). ``mask`` is the
    cloth mask at ``mask_scale`` times the image size (kept for the detector; not compared).
    """

    corners: Quad
    cloth: ClothModel
    coverage: float  # fraction of the quadrilateral that is cloth-coloured
    image_size: tuple[int, int]
    mask: U8 = field(compare=False, repr=False)
    mask_scale: float = 1.0

    @property
    def area(self) -> float:
        return signed_area(self.corners)


# -- colour model ------------------------------------------------------------------------------

def _hue_dist(h: NDArray[np.floating], h0: float) -> NDArray[np.floating]:
    d = np.abs(h - h0)
    return np.minimum(d, 180.0 - d)


def _weighted_hist(hsv: U8, weight: NDArray[Any]) -> NDArray[np.float32]:
    """Weighted 36 x 16 histogram of hue (5-degree bins) and saturation (16-level bins)."""
    idx = (hsv[..., 0].astype(np.int32) // 5).clip(0, 35) * 16 + (hsv[..., 1].astype(np.int32) // 16)
    hist = np.bincount(idx.ravel(), weights=weight.ravel(), minlength=36 * 16)
    return hist.reshape(36, 16).astype(np.float32)


@lru_cache(maxsize=8)
def _centre_prior(rows: int, cols: int) -> FloatArray:
    """A broad Gaussian over the picture: the table is usually in the middle of the frame."""
    yy = (np.arange(rows, dtype=np.float32) - rows / 2) / (rows / 2)
    xx = (np.arange(cols, dtype=np.float32) - cols / 2) / (cols / 2)
    prior = np.exp(-(yy[:, None] ** 2 + xx[None, :] ** 2) / (2 * 0.45**2)).astype(np.float64)
    prior.setflags(write=False)
    return prior


def shrink(image: U8, size: tuple[int, int]) -> U8:
    """Downscale with little aliasing and little cost: halvings by pyramid, then bilinear."""
    out = image
    while out.shape[1] >= 2 * size[0] and out.shape[0] >= 2 * size[1]:
        out = cv2.pyrDown(out)
    return cv2.resize(out, size, interpolation=cv2.INTER_LINEAR)


def distance_luts(cloth: ClothModel) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Per-channel look-up tables (hue, saturation) whose sum is the squared cloth distance."""
    h = np.arange(256, dtype=np.float32)
    dh = np.abs(h - cloth.hue)
    dh = np.minimum(dh, 180.0 - dh)
    dh[180:] = 90.0
    lut_h = ((dh / (2.0 * cloth.hue_sigma)) ** 2).astype(np.float32)
    if cloth.grey:
        lut_h = np.zeros(256, np.float32)
    lut_s = (((h - cloth.sat) / (2.0 * cloth.sat_sigma)) ** 2).astype(np.float32)
    return lut_h.reshape(1, 256), lut_s.reshape(1, 256)


def estimate_cloth(hsv: U8, weight: FloatArray | None = None, split_value: bool = False) -> ClothModel:
    """The dominant saturated colour of ``hsv``, favouring the image centre.

    Grey, white and near-black pixels get little weight: walls, floors and white rails are large
    but colourless, while every cloth and board is coloured. ``split_value``: colours of one hue
    and saturation but different brightness (a light carrom board on a dark wooden floor) count
    apart, in brightness bands a factor of two wide, so the floor's mass cannot outvote the board.
    """
    while hsv.shape[0] * hsv.shape[1] > 20000:  # a colour needs no more pixels than this
        hsv = hsv[::2, ::2]
        if weight is not None:
            weight = weight[::2, ::2]
    h = hsv[..., 0].astype(np.float32)
    s = hsv[..., 1].astype(np.float32)
    v = hsv[..., 2].astype(np.float32)
    rows, cols = h.shape
    if weight is None:
        weight = _centre_prior(rows, cols)
    w = weight * np.clip((s - 25.0) / 50.0, 0.0, 1.0) * np.clip((v - 30.0) / 40.0, 0.0, 1.0)
    bands = np.floor(np.log2(np.maximum(v, 1.0) / 16.0)).clip(0, 3) if split_value else np.zeros_like(v)
    best, band = -1.0, 0
    hi, si = 0, 0
    for b in range(4):
        sel = bands == b
        if not np.any(sel):
            continue
        hist = _weighted_hist(hsv, np.where(sel, w, 0.0))
        hist = np.asarray(cv2.GaussianBlur(hist, (3, 3), 0), dtype=np.float32)
        if float(hist.max()) > best:
            best, band = float(hist.max()), b
            hi, si = (int(v) for v in np.unravel_index(int(np.argmax(hist)), hist.shape))
    if best <= 0:
        raise UserError("no table found: the picture has no coloured surface (cloth or board) near its centre")
    h0, s0 = (hi + 0.5) * 5.0, (si + 0.5) * 16.0
    near = (_hue_dist(h, h0) < 12) & (np.abs(s - s0) < 48) & (v > 30) & (w > 0.05)
    if split_value:
        near &= np.abs(bands - band) <= 0.5
    if int(near.sum()) < 20:
        raise UserError("no table found: no large region of one cloth colour near the centre")
    step = max(1, int(near.sum()) // 4000)  # medians of a few thousand pixels are plenty
    hs, ss, vs = h[near][::step], s[near][::step], v[near][::step]
    # circular median around h0
    rel = ((hs - h0 + 90.0) % 180.0) - 90.0
    hue = float((h0 + np.median(rel)) % 180.0)
    sat = float(np.median(ss))
    val = float(np.median(vs))
    rel2 = ((hs - hue + 90.0) % 180.0) - 90.0
    hue_sigma = float(max(2.5, 1.4826 * np.median(np.abs(rel2))))
    sat_sigma = float(max(10.0, 1.4826 * np.median(np.abs(ss - sat))))
    return ClothModel(hue=hue, sat=sat, val=val, hue_sigma=hue_sigma, sat_sigma=sat_sigma)


def value_lut(cloth: ClothModel, sigma_log: float = 0.15) -> NDArray[np.float32]:
    """Squared brightness distance from the board's, in log ratio (``sigma_log`` per unit / 2)."""
    v = np.maximum(np.arange(256, dtype=np.float32), 1.0)
    r = np.log(v / max(cloth.val, 1.0))
    return ((r / (2.0 * sigma_log)) ** 2).astype(np.float32).reshape(1, 256)


def estimate_grey_cloth(hsv: U8) -> ClothModel:
    """The dominant unsaturated surface near the image centre, by saturation and brightness: a
    grey or silver cloth, which the coloured model (:func:`estimate_cloth`) cannot see."""
    while hsv.shape[0] * hsv.shape[1] > 20000:
        hsv = hsv[::2, ::2]
    s = hsv[..., 1].astype(np.float32)
    v = hsv[..., 2].astype(np.float32)
    w = _centre_prior(*s.shape) * (s < 70) * (v > 40)
    idx = (s.astype(np.int32) // 16).clip(0, 15) * 32 + (v.astype(np.int32) // 8).clip(0, 31)
    hist = np.bincount(idx.ravel(), weights=w.ravel(), minlength=16 * 32).reshape(16, 32).astype(np.float32)
    hist = np.asarray(cv2.GaussianBlur(hist, (3, 3), 0), dtype=np.float32)
    if float(hist.max()) <= 0:
        raise UserError("no table found: no coloured or grey surface near the centre of the picture")
    si, vi = (int(x) for x in np.unravel_index(int(np.argmax(hist)), hist.shape))
    s0, v0 = (si + 0.5) * 16.0, (vi + 0.5) * 8.0
    near = (np.abs(s - s0) < 24) & (np.abs(np.log(np.maximum(v, 1.0) / v0)) < 0.3) & (w > 0.05)
    if int(near.sum()) < 20:
        raise UserError("no table found: no large region of one cloth colour near the centre")
    ss, vs = s[near], v[near]
    sat, val = float(np.median(ss)), float(np.median(vs))
    hue = float(np.median(hsv[..., 0][near]))
    return ClothModel(hue=hue, sat=sat, val=val, hue_sigma=90.0,
                      sat_sigma=float(max(8.0, 1.4826 * np.median(np.abs(ss - sat)))), grey=True)


def cloth_distance(hsv: U8, cloth: ClothModel) -> NDArray[np.float32]:
    """Per-pixel distance from the cloth colour in units of its spread (brightness ignored)."""
    lut_h, lut_s = distance_luts(cloth)
    sq = cv2.LUT(hsv[..., 0], lut_h) + cv2.LUT(hsv[..., 1], lut_s)
    if cloth.uses_value:
        # A board's frame (and often the floor) is wood of the same hue, only darker: brightness
        # is the evidence there, so it counts, in log ratio (a lamp's fall-off across a board is
        # under a factor 1.5; a frame is two to three times darker).
        sq = sq + cv2.LUT(hsv[..., 2], value_lut(cloth, 0.35 if cloth.grey else 0.15))
    d = np.sqrt(sq).astype(np.float32)
    # near-black pixels have no reliable hue: pockets and dark clothes are not cloth
    dark = hsv[..., 2] < (0.3 * cloth.val if cloth.grey else max(25.0, 0.22 * cloth.val))
    d[dark] = 10.0
    return d


def cloth_mask(hsv: U8, cloth: ClothModel, limit: float = 2.5) -> U8:
    return (cloth_distance(hsv, cloth) < limit).astype(np.uint8) * 255


# -- region and quadrilateral ------------------------------------------------------------------

def _largest_central_component(mask: U8) -> U8:
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return np.zeros_like(mask)
    rows, cols = mask.shape
    best, best_score = 0, 0.0
    for i in range(1, n):
        area = float(stats[i, cv2.CC_STAT_AREA])
        cx, cy = cents[i]
        off = math.hypot((cx - cols / 2) / cols, (cy - rows / 2) / rows)
        score = area * math.exp(-((off / 0.35) ** 2))
        if score > best_score:
            best, best_score = i, score
    out = (labels == best).astype(np.uint8) * 255
    return out


def _fill_holes(mask: U8) -> U8:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 255, thickness=cv2.FILLED)
    return out


def segment_cloth(image: U8, max_side: int = WORK_SIZE, grey: bool = False) -> tuple[U8, ClothModel, float]:
    """The filled cloth region of ``image`` at a working scale; returns (mask, cloth, scale).
    ``grey``: look for an unsaturated cloth (:func:`estimate_grey_cloth`) instead of a coloured one."""
    rows, cols = image.shape[:2]
    # an integer factor keeps OpenCV's area averaging on its fast path
    f = max(1, round(max(rows, cols) / max_side))
    small = cv2.resize(image, (max(8, cols // f), max(8, rows // f)), interpolation=cv2.INTER_AREA)
    scale = small.shape[1] / cols
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    cloth = estimate_grey_cloth(hsv) if grey else estimate_cloth(hsv, split_value=True)
    mask = cloth_mask(hsv, cloth)
    k = max(3, int(round(min(small.shape[:2]) * 0.015)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = _fill_holes(_largest_central_component(mask))
    return mask, cloth, scale


def _line_intersection(l1: FloatArray, l2: FloatArray) -> Point | None:
    """Intersection of two lines given as (vx, vy, x0, y0)."""
    vx1, vy1, x1, y1 = l1
    vx2, vy2, x2, y2 = l2
    den = vx1 * vy2 - vy1 * vx2
    if abs(den) < 1e-9:
        return None
    t = ((x2 - x1) * vy2 - (y2 - y1) * vx2) / den
    return (float(x1 + t * vx1), float(y1 + t * vy1))


def _fit_line(points: FloatArray) -> FloatArray:
    line = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.asarray(line, dtype=np.float64)


def quad_from_mask(mask: U8, min_side_frac: float = 0.08) -> Quad:
    """Fit the table quadrilateral to a filled region: four straight runs of its convex outline.

    Runs that lie along the image border are the frame, not the table, and are skipped; their
    neighbours are extended until they meet, so corners may fall outside the image. A run counts
    by the length over which the region's real outline touches it: a hull edge that only bridges
    a bite (a player leaning over the table) has little support and is not taken for a side.
    """
    rows, cols = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        raise UserError("no table found: no cloth-coloured region")
    contour = max(contours, key=cv2.contourArea)
    if cv2.contourArea(contour) < 0.02 * rows * cols:
        raise UserError("no table found: the cloth-coloured region is too small (under 2% of the picture)")
    hull = cv2.convexHull(contour)
    perim = cv2.arcLength(hull, True)
    poly = cv2.approxPolyDP(hull, 0.004 * perim, True).reshape(-1, 2).astype(np.float64)
    n = len(poly)
    if n < 4:
        raise UserError("no table found: the cloth region is not four-sided")
    # dense points along the hull outline, each marked by whether the real outline is there
    outline = np.full(mask.shape, 255, np.uint8)
    cv2.drawContours(outline, [contour], -1, 0, 1)
    off_outline = cv2.distanceTransform(outline, cv2.DIST_L2, 3)
    dense: list[FloatArray] = []
    edge_of: list[int] = []
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        steps = max(2, int(np.linalg.norm(b - a)))
        t = np.linspace(0.0, 1.0, steps, endpoint=False)[:, None]
        dense.append(a + t * (b - a))
        edge_of.extend([i] * steps)
    margin = 1.5

    def on_border(p: FloatArray) -> bool:
        return bool(p[0] <= margin or p[1] <= margin or p[0] >= cols - 1 - margin or p[1] >= rows - 1 - margin)

    # group consecutive hull edges of similar direction into runs, skipping border edges
    angles = []
    lengths = []
    border = []
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        d = b - a
        angles.append(math.atan2(d[1], d[0]))
        lengths.append(float(np.linalg.norm(d)))
        mid = (a + b) / 2
        border.append(on_border(a) and on_border(b) and on_border(mid))
    # start from an edge that begins a run (a big turn before it), so runs don't wrap
    def turn(i: int, j: int) -> float:
        d = abs(angles[j] - angles[i]) % (2 * math.pi)
        return min(d, 2 * math.pi - d)

    start = max(range(n), key=lambda i: turn((i - 1) % n, i) + (10.0 if border[(i - 1) % n] else 0.0))
    runs: list[list[int]] = []
    for k in range(n):
        i = (start + k) % n
        if border[i]:
            runs.append([])
            continue
        if runs and runs[-1] and turn(runs[-1][-1], i) < math.radians(14) and turn(runs[-1][0], i) < math.radians(20):
            runs[-1].append(i)
        else:
            runs.append([i])
    runs = [r for r in runs if r]
    pts_all = np.concatenate(dense)
    edge_idx = np.asarray(edge_of)
    px = np.clip(np.round(pts_all).astype(np.int64), 0, [cols - 1, rows - 1])
    supported = off_outline[px[:, 1], px[:, 0]] <= max(2.0, 0.005 * perim)
    run_len = [float(np.count_nonzero(supported & np.isin(edge_idx, r))) for r in runs]
    keep = sorted(range(len(runs)), key=lambda r: -run_len[r])[:4]
    if len(keep) < 4 or run_len[keep[3]] < min_side_frac * perim * 0.5:
        raise UserError(
            "no table found: could not see four straight cloth edges (is the whole table in view? "
            'otherwise give its corners with --corners "x,y x,y x,y x,y")'
        )
    keep.sort()  # back into order around the hull
    lines = []
    for r in keep:
        sel = np.isin(edge_idx, runs[r]) & supported
        pts = pts_all[sel]
        # drop the ends of the run: they bend into the pocket cut-offs
        if len(pts) > 10:
            cut = max(1, len(pts) // 10)
            pts = pts[cut:-cut]
        lines.append(_fit_line(pts))
    corners: list[Point] = []
    for i in range(4):
        p = _line_intersection(lines[i - 1], lines[i])
        if p is None:
            raise UserError("no table found: two cloth edges are parallel neighbours")
        corners.append(p)
    if signed_area(corners) < 0:
        corners = corners[::-1]
    return (corners[0], corners[1], corners[2], corners[3])


def orient_quad(quad: Quad, aspect: float) -> Quad:
    """Order clockwise corners so that edge 0 -> 1 is a long side (when ``aspect`` > 1.15) and
    corner 0 is the candidate nearest the image's top-left.

    A photo cannot tell a pool table's head from its foot; manual corners settle that.
    """
    pts = list(quad)
    if signed_area(pts) < 0:
        pts = pts[::-1]

    def side(i: int) -> float:
        return math.dist(pts[i % 4], pts[(i + 1) % 4])

    starts = [0, 1, 2, 3]
    if aspect > 1.15:
        along0 = side(0) + side(2)
        along1 = side(1) + side(3)
        starts = [0, 2] if along0 >= along1 else [1, 3]
    s = min(starts, key=lambda i: pts[i][0] + pts[i][1])
    out = [pts[(s + k) % 4] for k in range(4)]
    return (out[0], out[1], out[2], out[3])


def quad_coverage(mask: U8, quad: Quad, scale: float) -> float:
    poly = np.round(np.asarray(quad) * scale).astype(np.int32)
    inside = np.zeros_like(mask)
    cv2.fillConvexPoly(inside, poly, 255)
    n = int(np.count_nonzero(inside))
    if n == 0:
        return 0.0
    return float(np.count_nonzero(inside & mask)) / n


def find_surface(image: U8, aspect: float = 2.0, table: str | None = None, allow_grey: bool = False) -> SurfaceFit:
    """Find the table in a BGR image: the cloth quadrilateral in full-resolution pixels.

    Raises ``UserError`` (a clear "no table found" message) when nothing table-like is there, and
    with ``table`` when the surface cannot be that kind of table (see :func:`check_cloth_kind`).
    ``allow_grey``: when no coloured cloth makes a table, try a grey one (grey and silver cloths
    exist; the coloured model is kept first because walls and floors are often grey).
    """
    try:
        return _find_surface(image, aspect, table, grey=False)
    except UserError as exc:
        if not allow_grey or not str(exc).startswith("no table found"):
            raise
        try:
            return _find_surface(image, aspect, table, grey=True)
        except UserError:
            raise exc from None


def _find_surface(image: U8, aspect: float, table: str | None, grey: bool) -> SurfaceFit:
    if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 32:
        raise UserError("not a colour image of at least 32x32 pixels")
    rows, cols = image.shape[:2]
    mask, cloth, scale = segment_cloth(image, grey=grey)
    quad_small = quad_from_mask(mask)
    if table is not None:  # a table-shaped surface of the wrong look: the wrong --table
        check_cloth_kind(table, cloth)
    quad = tuple((x / scale, y / scale) for x, y in quad_small)
    quad = orient_quad(quad, aspect)
    cov = quad_coverage(mask, quad, scale)
    if cov < 0.5:
        raise UserError(f"no table found: the best four-sided region is only {cov:.0%} cloth")
    area = signed_area(quad)
    if area < 0.02 * rows * cols:
        raise UserError("no table found: the cloth region is too small")
    return SurfaceFit(corners=quad, cloth=cloth, coverage=cov, image_size=(cols, rows), mask=mask, mask_scale=scale)


def check_cloth_kind(table: str, cloth: ClothModel) -> None:
    """Refuse a surface whose look cannot be ``table``'s: a carrom board is light lacquered wood,
    every other table is cloth (``UserError`` naming the likely mistake in ``--table``)."""
    wood = cloth.looks_like_wood
    if table == "carrom" and not wood:
        raise UserError(
            "no carrom board found: the surface in the picture is a cloth, not a light wooden board; "
            "check --table (pool, bar-billiards, carrom, cards)"
        )
    if table != "carrom" and wood:
        raise UserError(
            f"no {table} table found: the surface in the picture looks like a carrom board "
            "(light wood), not a cloth; check --table"
        )


# -- full-resolution refinement ----------------------------------------------------------------

def edge_points(image: U8, fit: SurfaceFit, samples: int = 96) -> list[FloatArray]:
    """Sub-pixel points of the cloth edge along each side of ``fit`` (N x 2 per side, maybe empty).

    Along each side we sample perpendicular profiles of the cloth distance; on each profile the
    edge is where the distance crosses halfway between cloth and rail. Profiles spoiled by a ball
    on the cushion, a pocket or hole cut into the edge, or an arm disagree with the line the others
    make; :func:`robust_line` drops them.
    """
    rows, cols = image.shape[:2]
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    dist = cv2.GaussianBlur(np.minimum(cloth_distance(hsv, fit.cloth), 4.0), (5, 5), 0)
    colour = image.astype(np.float32)
    quad = [np.asarray(p, dtype=np.float64) for p in fit.corners]
    centre = np.mean(quad, axis=0)
    half = max(4.0, 0.012 * math.hypot(rows, cols))
    offs = np.arange(-half, half + 0.25, 0.25)
    sides: list[FloatArray] = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        u = d / length
        nrm = np.array([u[1], -u[0]])
        if np.dot(centre - a, nrm) > 0:
            nrm = -nrm  # outward
        ts = np.linspace(0.06, 0.94, samples)
        base = a[None, :] + ts[:, None] * d[None, :]
        xs = base[:, 0:1] + offs[None, :] * nrm[0]
        ys = base[:, 1:2] + offs[None, :] * nrm[1]
        profs = cv2.remap(dist, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=-1.0)
        cols3 = cv2.remap(colour, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
        found = []
        q = len(offs) // 4
        win = int(round(3.0 / (offs[1] - offs[0])))
        for k in range(samples):
            ok = (xs[k] >= 0) & (xs[k] <= cols - 1) & (ys[k] >= 0) & (ys[k] <= rows - 1)
            if ok.sum() < len(offs) * 0.8:
                continue
            prof = profs[k]
            inner, outer = float(np.median(prof[:q])), float(np.median(prof[-q:]))
            if outer - inner < 1.0:
                continue  # no cloth/rail contrast here (hand, ball, pocket)
            level = (inner + outer) / 2
            above = np.nonzero(prof > level)[0]
            if len(above) == 0 or above[0] == 0:
                continue
            j = int(above[0])
            o = _linear_crossing(cols3[k], j, q, win)
            if o is None:
                f = (level - prof[j - 1]) / max(1e-6, prof[j] - prof[j - 1])
                o = j - 1 + f
            found.append(base[k] + (offs[0] + o * (offs[1] - offs[0])) * nrm)
        sides.append(np.asarray(found, dtype=np.float64).reshape(-1, 2))
    return sides


def robust_line(pts: FloatArray, min_points: int = 24) -> FloatArray | None:
    """A line ``(vx, vy, x0, y0)`` through edge points, refitted on the points within a few robust
    spreads of the last fit (a pocket's bite is many pixels off; the edge's own scatter is a
    fraction of one); ``None`` with too few points."""
    if len(pts) < min_points:
        return None
    line = _fit_line(pts)
    for _ in range(4):
        res = np.abs((pts[:, 0] - line[2]) * line[1] - (pts[:, 1] - line[3]) * line[0])
        tol = max(0.5, 3.0 * 1.4826 * float(np.median(res)))
        good = pts[res <= tol]
        if len(good) < 8:
            break
        line = _fit_line(good)
    return line


def refine_lines(image: U8, fit: SurfaceFit, samples: int = 96) -> list[FloatArray | None]:
    """Each side of ``fit`` moved onto the cloth edge at full resolution: a sub-pixel line
    ``(vx, vy, x0, y0)`` per side (``None`` where the edge could not be measured)."""
    return [robust_line(p, samples // 4) for p in edge_points(image, fit, samples)]


def _linear_crossing(profile: NDArray[np.float32], j: int, q: int, win: int) -> float | None:
    """Sub-sample position of the cloth/rail edge on one colour profile (samples x 3, inside
    first), near sample ``j`` where the cloth distance crossed its midpoint.

    Why colour and not the cloth distance: the distance is a non-linear function of colour, so
    where a blurred edge's distance is halfway is not where the edge is (a bias of about a pixel,
    a few millimetres at a table's far end). A blurred edge mixes the two colours linearly, so the
    colour projected on the cloth-to-rail difference crosses one half exactly at the edge.
    """
    inner = np.median(profile[max(0, j - 3 * win):max(1, j - win)], axis=0)
    outer = np.median(profile[j + win:j + 3 * win], axis=0) if j + win < len(profile) else None
    if outer is None or not np.all(np.isfinite(outer)):
        return None
    diff = outer - inner
    n2 = float(diff @ diff)
    if n2 < 100.0:  # under 10 levels of contrast: too faint to place
        return None
    lo, hi = max(1, j - win), min(len(profile) - 1, j + win)
    s = (profile[lo - 1:hi + 1] - inner) @ diff / n2
    cross = np.nonzero((s[:-1] < 0.5) & (s[1:] >= 0.5))[0]
    if len(cross) == 0:
        return None
    c = int(cross[np.argmin(np.abs(cross + lo - 1 - j))])
    f = (0.5 - s[c]) / max(1e-6, s[c + 1] - s[c])
    return float(lo - 1 + c + f)


def quad_from_lines(lines: list[FloatArray | None], fallback: Quad, limit: float) -> Quad:
    """Corners where neighbouring lines meet; a corner keeps ``fallback``'s where a line is
    missing or the intersection wanders more than ``limit`` pixels."""
    out: list[Point] = []
    for i in range(4):
        l0, l1 = lines[i - 1], lines[i]
        p = None if l0 is None or l1 is None else _line_intersection(l0, l1)
        if p is None or math.dist(p, fallback[i]) > limit:
            out.append((float(fallback[i][0]), float(fallback[i][1])))
        else:
            out.append(p)
    return (out[0], out[1], out[2], out[3])


def refine_quad(image: U8, fit: SurfaceFit, samples: int = 96) -> Quad:
    """The cloth quadrilateral moved onto the cloth edges at full resolution (see :func:`refine_lines`)."""
    rows, cols = image.shape[:2]
    half = max(4.0, 0.012 * math.hypot(rows, cols))
    return quad_from_lines(refine_lines(image, fit, samples), fit.corners, 4 * half)
