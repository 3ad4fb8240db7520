"""Ball candidates from the cloth model: non-cloth blobs, split into circles of the expected size.

Why hue and saturation only: shadows, sunlight and the lamp's falloff change the cloth's
brightness by a factor of two or more but hardly its hue or saturation, while every ball differs
from the cloth in at least one of them (white: no saturation; black: too dark for a hue; the
colours: another hue). A highlight on a ball is white, so it stays foreground, and a shadow under
a ball stays cloth, so ball blobs keep their round shape.

Each blob is then read against the expected radius at its place (``TableRegion.radius``):

* a compact blob of about one ball's area is one ball, centred on the blob;
* a larger blob (touching balls, the rack, a ball under a hand or cue) is cut along the colour
  edges inside it (the dark seams between balls, the border between a red and a yellow) and the
  remaining cores give one circle each, kept where the expected circle is mostly foreground.

Two per-image corrections are measured from the isolated balls themselves, so nothing depends on
how a particular camera or data set looks: the ratio between observed and predicted ball size
(the cloth margin and the view are only approximately known), and the pixel aspect (a frame
stretched to a square, or an anamorphic camera, makes balls ellipses).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.surface import ClothModel, distance_luts, estimate_cloth, shrink
from tableref.errors import UserError
from tableref.vision.classical_view import TableRegion

U8 = NDArray[Any]  # an 8-bit image (cv2's stubs type images loosely)
F32 = NDArray[Any]  # a float32 image


@dataclass(frozen=True)
class BlobParams:
    """Thresholds of the candidate stage (tuned on the train split of the real photographs).

    ``fg_distance``: cloth distance (in cloth spreads) above which a pixel is not cloth; lower
    finds faint balls and more noise. ``min_area``/``max_single_area``: blob area in units of the
    expected ball area for a blob to count / to count as one ball. ``min_cover``: fraction of an
    expected circle that must be foreground for a split-off circle to be kept.
    """

    fg_distance: float = 3.0
    min_area: float = 0.22
    max_single_area: float = 1.55
    max_single_extent: float = 2.6
    max_round_area: float = 2.4
    min_solidity: float = 0.78
    min_cover: float = 0.55
    edge_strength: float = 24.0
    min_core: float = 0.28
    nms_distance: float = 1.5
    cluster_nms_distance: float = 1.1
    rim_px: float = 1.0
    min_rim: float = 0.85
    min_visible: float = 0.6
    occluder_balls: float = 3.0
    pin_ratio: float = 0.0  # pin radius / ball radius (bar billiards); 0: the table has no pins
    max_blob: float = 60.0
    work_px: float = 7.0


@dataclass(frozen=True)
class Candidate:
    """A circle that may be a ball: image pixels, equivalent radius, and evidence in [0, 1]."""

    x: float
    y: float
    radius: float
    score: float
    split: bool  # came from a multi-ball blob
    expected: float  # the radius a whole ball would have here (image pixels)
    blob: float = 1.0  # the area of the blob it came from, in expected ball areas
    kind: str = "ball"  # or "pin-standing" / "pin-fallen" (bar billiards)
    angle: float = 0.0  # a fallen pin's direction in the image, degrees


def foreground(hsv: U8, cloth: ClothModel, limit: float) -> U8:
    """Pixels that are not cloth (255), brightness ignored except near-black."""
    lut_h, lut_s = distance_luts(cloth)
    d2 = cv2.LUT(hsv[..., 0], lut_h) + cv2.LUT(hsv[..., 1], lut_s)
    fg = (d2 > limit * limit).astype(np.uint8)
    dark = hsv[..., 2] < max(25.0, 0.22 * cloth.val)
    fg[dark] = 1
    return fg * 255


@dataclass(frozen=True)
class Blob:
    label: int
    x0: int
    y0: int
    w: int
    h: int
    area: int
    cx: float
    cy: float


def _blobs(fg: U8) -> tuple[NDArray[np.int32], list[Blob]]:
    n, labels_any, stats, cents = cv2.connectedComponentsWithStats(fg, connectivity=8)
    labels = np.asarray(labels_any, dtype=np.int32)
    out = [
        Blob(i, int(stats[i, 0]), int(stats[i, 1]), int(stats[i, 2]), int(stats[i, 3]), int(stats[i, 4]),
             float(cents[i, 0]), float(cents[i, 1]))
        for i in range(1, n)
    ]
    return labels, out


def _shape(labels: NDArray[np.int32], b: Blob, cache: dict[int, tuple[float, float]] | None = None) -> tuple[float, float]:
    """(extent along x / extent along y from second moments, solidity) of a blob."""
    if cache is not None and b.label in cache:
        return cache[b.label]
    sub = (labels[b.y0:b.y0 + b.h, b.x0:b.x0 + b.w] == b.label).astype(np.uint8)
    m = cv2.moments(sub, binaryImage=True)
    ratio = math.sqrt(m["mu20"] / m["mu02"]) if m["mu02"] > 0 and m["mu20"] > 0 else 1.0
    pts = cv2.findNonZero(sub)
    hull_area = cv2.contourArea(cv2.convexHull(pts)) if pts is not None and len(pts) >= 3 else float(b.area)
    solidity = b.area / max(hull_area + 0.5 * math.sqrt(max(hull_area, 1.0)) * 2, 1.0)
    out = (ratio, min(1.0, solidity))
    if cache is not None:
        cache[b.label] = out
    return out


def measure_corrections(
    labels: NDArray[np.int32],
    blobs: list[Blob],
    radius: F32,
    params: BlobParams,
    inner: U8 | None = None,
    dark: U8 | None = None,
    cache: dict[int, tuple[float, float]] | None = None,
    holes: tuple[tuple[float, float, float], ...] = (),
    start: tuple[float, float] | None = None,
) -> tuple[float, float]:
    """(size factor, pixel aspect) from the isolated, ball-like blobs; unchanged (1, 1) when none.

    The first pass accepts any compact blob from about half to three times the predicted size
    (a venue's table may be smaller or larger than the spec's) and keeps the larger ones, since
    specks of noise are compact too; later passes keep blobs within the usual single-ball range.
    Blobs centred outside ``inner`` (rail slivers), in a pocket's mouth (``holes``) or mostly
    ``dark`` are ignored. When no blob is compact enough (a break: the rack and a cue ball with
    the cue's tip on it), the blobs are opened to strip thin attachments and measured again.
    ``start``: a (size factor, aspect) already measured, to refine rather than search again.
    """
    k, aspect = start if start is not None else (1.0, 1.0)
    lo, hi = (0.45, 1.6) if start is not None else (0.25, 9.0)
    pool: list[tuple[float, float, float]] = []  # (area, x/y extent ratio, predicted radius)
    loose: list[Blob] = []
    for b in blobs:
        if b.area < 12:
            continue
        q0 = b.area / (math.pi * float(radius[int(b.cy), int(b.cx)]) ** 2)
        if not 0.25 * 0.4**2 <= q0 <= 9.0 * 3.0**2:  # outside every size factor measure_corrections allows
            continue
        if inner is not None and not inner[int(b.cy), int(b.cx)]:
            continue
        if any(math.hypot(b.cx - hx, b.cy - hy) < 1.6 * hr for hx, hy, hr in holes):
            continue
        if dark is not None:
            sub = labels[b.y0:b.y0 + b.h, b.x0:b.x0 + b.w] == b.label
            if np.count_nonzero(dark[b.y0:b.y0 + b.h, b.x0:b.x0 + b.w][sub]) > 0.5 * b.area:
                continue
        ratio, solidity = _shape(labels, b, cache)
        if not 0.3 <= ratio <= 3.0:
            continue
        if solidity < 0.85:
            loose.append(b)
            continue
        pool.append((float(b.area), ratio, float(radius[int(b.cy), int(b.cx)])))
    if not pool:
        for b in loose:
            opened = _opened_shape(labels, b)
            if opened is not None:
                pool.append((opened[0], opened[1], float(radius[int(b.cy), int(b.cx)])))
    for it in range(3):
        sel = [q for q in pool if lo <= q[0] / (math.pi * (k * q[2]) ** 2) <= hi]
        if it == 0 and sel and start is None:
            big = float(np.percentile([q[0] for q in sel], 75))
            sel = [q for q in sel if q[0] >= 0.45 * big]
        if not sel:
            return k, aspect
        k = float(np.clip(np.median([(math.sqrt(a / math.pi) - params.rim_px) / rp for a, _, rp in sel]), 0.4, 3.0))
        a = float(np.median([ratio for _, ratio, _ in sel]))
        if len(sel) < 2:  # one blob (a break: the cue ball, often with the cue's tip) is a weak witness
            a = min(max(a, 0.5), 2.0)
        aspect = 1.0 if abs(math.log(a)) < 0.12 else a
        lo, hi = 0.45, 1.6
    return k, aspect


def _opened_shape(labels: NDArray[np.int32], b: Blob) -> tuple[float, float] | None:
    """(area, x/y extent ratio) of a blob after opening away thin parts (a cue's tip on a ball)."""
    sub = (labels[b.y0:b.y0 + b.h, b.x0:b.x0 + b.w] == b.label).astype(np.uint8)
    dt = cv2.distanceTransform(sub, cv2.DIST_L2, 3)
    r = float(dt.max())
    if r < 2.0:
        return None
    k = max(3, int(1.2 * r) | 1)
    opened = cv2.morphologyEx(sub, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    if n < 2:
        return None
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    part = (lab == i).astype(np.uint8)
    m = cv2.moments(part, binaryImage=True)
    if m["mu02"] <= 0 or m["mu20"] <= 0:
        return None
    pts = cv2.findNonZero(part)
    hull = cv2.contourArea(cv2.convexHull(pts)) if pts is not None and len(pts) >= 3 else 0.0
    area = float(stats[i, cv2.CC_STAT_AREA])
    if hull <= 0 or area / hull < 0.85:
        return None
    return area, math.sqrt(m["mu20"] / m["mu02"])


def colour_gradient(crop: U8, where: NDArray[np.bool_] | None = None) -> tuple[F32, F32, F32]:
    """Colour gradient (Di Zenzo, over Lab): magnitude and unit direction (up to sign) per pixel.

    The seams between touching balls and the border between a red and a yellow ball are colour
    edges more than brightness edges, so all three Lab channels count. Only the pixels in
    ``where`` are computed (the rest are zero), which keeps a small blob cheap.
    """
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    h, w = lab.shape[:2]
    if where is None:
        where = np.ones((h, w), bool)
    ys, xs = np.nonzero(where)
    jxx = np.zeros(len(xs), np.float32)
    jyy = np.zeros(len(xs), np.float32)
    jxy = np.zeros(len(xs), np.float32)
    for ch in cv2.split(lab):
        gx = cv2.Sobel(ch, cv2.CV_16S, 1, 0, ksize=3)[ys, xs].astype(np.float32)
        gy = cv2.Sobel(ch, cv2.CV_16S, 0, 1, ksize=3)[ys, xs].astype(np.float32)
        jxx += gx * gx
        jyy += gy * gy
        jxy += gx * gy
    diff = jxx - jyy
    root = np.sqrt(diff * diff + 4 * jxy * jxy)
    c2 = np.divide(diff, root, out=np.ones_like(diff), where=root > 0)
    mag = np.zeros((h, w), np.float32)
    cos = np.zeros((h, w), np.float32)
    sin = np.zeros((h, w), np.float32)
    mag[ys, xs] = np.sqrt(0.5 * (jxx + jyy + root)) * np.float32(0.25)
    cos[ys, xs] = np.sqrt(np.maximum(0.5 * (1 + c2), 0.0))
    sin[ys, xs] = np.sqrt(np.maximum(0.5 * (1 - c2), 0.0)) * np.where(jxy < 0, -1.0, 1.0).astype(np.float32)
    return mag, cos, sin


def square_factors(aspect: float) -> tuple[float, float]:
    """Scale factors (x, y) that make a ball of pixel ``aspect`` (x-extent / y-extent) round by
    shrinking its longer axis."""
    return min(1.0, 1.0 / aspect), min(1.0, aspect)


def _vote_targets(
    mag: F32, cos: F32, sin: F32, active: NDArray[np.bool_], rr: float, strength: float
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """Where every active edge pixel votes: at the expected radius (three radii, both ways) along
    its gradient axis, weighted by its strength. Returns (pixel index, target index, weight)."""
    h, w = mag.shape
    ys, xs = np.nonzero(active)
    if len(xs) == 0:
        empty = np.zeros(0, np.int64)
        return empty, empty, np.zeros(0)
    c, s_ = cos[ys, xs], sin[ys, xs]
    wts = np.minimum(mag[ys, xs] / strength, 2.0).astype(np.float64)
    src, dst, wt = [], [], []
    pix = ys.astype(np.int64) * w + xs
    for rad in (0.85 * rr, rr, 1.15 * rr):
        for sign in (1.0, -1.0):
            vx = (xs + sign * rad * c + 0.5).astype(np.int64)
            vy = (ys + sign * rad * s_ + 0.5).astype(np.int64)
            ok = (vx >= 0) & (vx < w) & (vy >= 0) & (vy < h)
            src.append(pix[ok])
            dst.append(vy[ok] * w + vx[ok])
            wt.append(wts[ok])
    return np.concatenate(src), np.concatenate(dst), np.concatenate(wt)


_ANGLES = np.linspace(0.0, 2 * math.pi, 32, endpoint=False)
_STEPS = np.array([0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3])
_RAY_X = (_STEPS[:, None] * np.cos(_ANGLES)[None, :]).ravel()
_RAY_Y = (_STEPS[:, None] * np.sin(_ANGLES)[None, :]).ravel()
_RAY_CA = np.tile(np.cos(_ANGLES), len(_STEPS))
_RAY_SA = np.tile(np.sin(_ANGLES), len(_STEPS))


def rim_support(mag: F32, cos: F32, sin: F32, cx: float, cy: float, rr: float, strength: float) -> float:
    """Fraction of directions around (cx, cy) with an edge across the ray near the expected radius.

    A ball, alone or in a cluster, is outlined all round (by the cloth or by the seams with its
    neighbours); a hand, a cue or a patch of shadow is not.
    """
    h, w = mag.shape
    xs = (cx + rr * _RAY_X + 0.5).astype(np.int64)
    ys = (cy + rr * _RAY_Y + 0.5).astype(np.int64)
    ok = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    xs = np.clip(xs, 0, w - 1)
    ys = np.clip(ys, 0, h - 1)
    radial = np.abs(cos[ys, xs] * _RAY_CA + sin[ys, xs] * _RAY_SA)
    hit = (ok & (mag[ys, xs] > 0.5 * strength) & (radial > 0.6)).reshape(len(_STEPS), len(_ANGLES))
    return float(hit.any(axis=0).mean())


def _split_blob(
    crop: U8,
    sub: U8,
    r: float,
    aspect: float,
    params: BlobParams,
) -> list[tuple[float, float, float]]:
    """Circles (x, y in ``sub``'s pixels, evidence) inside a multi-ball blob mask ``sub``.

    ``crop`` is the image around ``sub`` with a margin of ``pad`` pixels on every side. Circles are
    taken one at a time, strongest first; the edges an accepted ball explains (its rim and its
    inside: highlights, numbers, stripes) stop voting, so they cannot prop up a ghost between balls.
    """
    pad = (crop.shape[0] - sub.shape[0]) // 2
    fx, fy = square_factors(aspect)
    ww, hh = max(1, round(crop.shape[1] * fx)), max(1, round(crop.shape[0] * fy))
    c = cv2.resize(crop, (ww, hh), interpolation=cv2.INTER_AREA) if (fx, fy) != (1.0, 1.0) else crop
    m_full = cv2.copyMakeBorder(sub, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    m_u8 = cv2.resize(m_full, (ww, hh), interpolation=cv2.INTER_NEAREST) if (fx, fy) != (1.0, 1.0) else m_full
    m = m_u8 > 0
    rr = r * math.sqrt(fx * fy)  # the radius in the squashed (square-pixel) frame
    ring = max(3, int(1.4 * rr) | 1)
    near_rim = cv2.dilate(m_u8, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ring, ring))) > 0
    mag, cos, sin = colour_gradient(c, near_rim)
    near = cv2.dilate(m_u8, np.ones((3, 3), np.uint8)) > 0
    active = near & (mag > 0.5 * params.edge_strength)
    src, dst, wt = _vote_targets(mag, cos, sin, active, rr, params.edge_strength)
    raw = np.bincount(dst, weights=wt, minlength=hh * ww)
    alive = np.ones(len(src), bool)
    sigma = max(0.8, 0.2 * rr)
    # a full circle of unit-weight edge pixels, voting at 3 radii, piles up about this much
    full = 2 * math.pi * rr * 3 / (2 * math.pi * sigma**2)
    ri = max(1, int(round(rr)))
    disk = np.zeros((2 * ri + 1, 2 * ri + 1), np.uint8)
    cv2.circle(disk, (ri, ri), ri, 1, -1)
    disk_area = float(disk.sum())
    mpad = np.asarray(cv2.copyMakeBorder(m.astype(np.uint8), ri, ri, ri, ri, cv2.BORDER_CONSTANT, value=0), np.uint8)
    src_y, src_x = np.divmod(src, ww)
    expected = int(m.sum() / (math.pi * rr * rr)) + 2
    # a pair or three may come from one ball bigger than expected: keep circles well apart; a
    # cluster (the rack) is balls touching, which a tilted camera sees closer than two radii
    nms = params.cluster_nms_distance if expected >= 6 else params.nms_distance
    chosen: list[tuple[float, float, float]] = []
    blocked = ~m
    yy, xx = np.mgrid[0:hh, 0:ww]
    for _ in range(min(2 * expected + 4, 40)):
        if len(chosen) >= expected + 1:
            break
        acc = cv2.GaussianBlur(raw.reshape(hh, ww).astype(np.float32), (0, 0), sigma)
        acc[blocked] = 0.0
        i = int(np.argmax(acc))
        py, px = divmod(i, ww)
        if float(acc[py, px]) < params.min_core * full:
            break
        cover = float(np.count_nonzero(mpad[py: py + disk.shape[0], px: px + disk.shape[1]] & disk)) / disk_area
        support = rim_support(mag, cos, sin, float(px), float(py), rr, params.edge_strength)
        d2 = (xx - px) ** 2 + (yy - py) ** 2
        if cover < params.min_cover or support < params.min_rim:
            blocked = blocked | (d2 <= (0.5 * rr) ** 2)
            continue
        chosen.append((float(px), float(py), min(1.0, cover) * min(1.0, support / 0.8)))
        gone = alive & (((src_x - px) ** 2 + (src_y - py) ** 2) <= (1.25 * rr) ** 2)
        if gone.any():
            raw -= np.bincount(dst[gone], weights=wt[gone], minlength=hh * ww)
            alive &= ~gone
        blocked = blocked | (d2 <= (nms * rr) ** 2)
    return [(px / fx - pad, py / fy - pad, e) for px, py, e in chosen]


def open_cloth(fg: U8, mask: U8, ball_r: float, balls: float) -> U8:
    """The table's cloth with ball-sized gaps closed: everything non-cloth that is less than
    ``balls`` ball diameters across (balls, clusters, a cue) is inside; a person leaning over the
    table is not. Worked at a coarse scale, since only large shapes matter."""
    f = max(1, int(ball_r / 2))
    rows, cols = fg.shape
    cloth = ((mask > 0) & (fg == 0)).astype(np.uint8) * 255
    small = cv2.resize(cloth, (max(1, cols // f), max(1, rows // f)), interpolation=cv2.INTER_AREA)
    small = (small > 96).astype(np.uint8) * 255
    ksz = max(3, int(round(balls * 2 * ball_r / f)) | 1)
    closed = cv2.morphologyEx(small, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ksz, ksz)))
    return cv2.resize(closed, (cols, rows), interpolation=cv2.INTER_NEAREST)


@dataclass(frozen=True)
class _Work:
    """One scale's worth of the candidate stage's images (all at ``scale`` times the crop)."""

    scale: float
    crop: U8
    hsv: U8
    fg: U8
    dark: U8
    mask: U8
    inner: U8
    radius: F32
    labels: NDArray[np.int32]
    blobs: list[Blob]


def _prepare(crop: U8, region: TableRegion, scale: float, params: BlobParams) -> _Work:
    if scale < 0.999:
        h, w = crop.shape[:2]
        size = (max(8, round(w * scale)), max(8, round(h * scale)))
        crop = shrink(crop, size)
        region_mask = cv2.resize(region.mask, size, interpolation=cv2.INTER_NEAREST)
        radius = cv2.resize(region.radius, size, interpolation=cv2.INTER_LINEAR) * np.float32(scale)
    else:
        scale, region_mask, radius = 1.0, region.mask, region.radius
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    # the cloth's spread is measured at the scale the foreground is read at, so that a frame's
    # resolution does not change what counts as "not cloth"
    try:
        cloth = estimate_cloth(hsv, (region_mask > 0).astype(np.float64))
    except UserError:
        cloth = region.cloth
    fg = foreground(hsv, cloth, params.fg_distance)
    dark = (hsv[..., 2] < max(25.0, 0.35 * cloth.val)).astype(np.uint8)
    r_med = float(np.median(radius[region_mask > 0][::7])) if np.any(region_mask) else 5.0
    er = max(1, int(round(0.3 * r_med)))
    mask = cv2.erode(region_mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * er + 1, 2 * er + 1)))
    fg &= mask
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
    labels, blobs = _blobs(fg)
    inner = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * er + 3, 2 * er + 3)))
    return _Work(scale, crop, hsv, fg, dark, mask, inner, radius, labels, blobs)


def _holes_in(region: TableRegion, scale: float) -> tuple[tuple[float, float, float], ...]:
    """The region's holes in working pixels."""
    x0, y0 = region.box[0], region.box[1]
    return tuple(((x - x0) * scale, (y - y0) * scale, r * scale) for x, y, r in region.holes_px)


@dataclass(frozen=True)
class CandidateSet:
    """The candidate stage's result: circles in image pixels, the measured size factor and pixel
    aspect, and the working image (HSV at ``scale`` times the region's crop) for reading colours."""

    candidates: tuple[Candidate, ...]
    size_factor: float
    aspect: float
    scale: float
    hsv: U8 = field(compare=False, repr=False)
    mask: U8 = field(compare=False, repr=False)
    bgr: U8 = field(compare=False, repr=False)


def find_candidates(image: U8, region: TableRegion, params: BlobParams) -> CandidateSet:
    """Ball candidates in image pixels, plus the measured (size factor, pixel aspect).

    The work is done at a scale where a ball is about ``params.work_px`` pixels in radius (never
    above the image's own): first a quick probe at the predicted size to measure how big the balls
    really are, then the real pass. A 1280x720 overhead frame is thus read at about a third of its
    resolution, which keeps the detector within a few milliseconds.
    """
    x0, y0, _, _ = region.box
    crop = region.crop(image)
    r_pred = float(np.median(region.radius[region.mask > 0][::7])) if np.any(region.mask) else 5.0
    s1 = min(1.0, params.work_px / max(r_pred, 1e-3))
    work = _prepare(crop, region, s1, params)
    shapes: dict[int, tuple[float, float]] = {}
    holes = _holes_in(region, work.scale)
    k, aspect = measure_corrections(
        work.labels, work.blobs, work.radius, params, work.inner, work.dark, shapes, holes
    )
    s2 = min(1.0, params.work_px / max(k * r_pred, 1e-3))
    if abs(s2 / work.scale - 1.0) > 0.15:
        work = _prepare(crop, region, s2, params)
        shapes = {}
        holes = _holes_in(region, work.scale)
        k, aspect = measure_corrections(
            work.labels, work.blobs, work.radius, params, work.inner, work.dark, shapes, holes, None
        )
    sc = work.scale
    labels, radius = work.labels, work.radius
    r_med = float(np.median(radius[work.mask > 0])) if np.any(work.mask) else 5.0
    keep = open_cloth(work.fg, work.mask, k * r_med, params.occluder_balls)
    out: list[Candidate] = []
    # The expected radius comes from a fitted camera and may blow up towards its horizon (a frame
    # seen at a slant with little table in it): no ball is wider than the crop, so neither is the
    # radius used here nor the padding (an unbounded one once asked for 14 GB).
    r_cap = max(2.0, max(work.crop.shape[:2]) / 2.0)
    pad = int(math.ceil(min(k * float(radius.max()), r_cap))) + 2
    padded: U8 | None = None
    fx, fy = square_factors(aspect)
    pins = tuple(((x - x0) * sc, (y - y0) * sc) for _, x, y, _ in region.pins_px)
    for b in work.blobs:
        r = min(k * float(radius[int(b.cy), int(b.cx)]), r_cap)
        ball_area = math.pi * r * r
        q = b.area / ball_area
        if pins and params.pin_ratio > 0:
            pin = _pin_candidate(b, labels, r, q, aspect, pins, params)
            if pin is not None:
                out.append(Candidate(pin.x / sc + x0, pin.y / sc + y0, pin.radius / sc, pin.score, False, r / sc, q,
                                     pin.kind, pin.angle))
                continue
        if q < params.min_area:
            continue
        if q > params.max_blob:
            continue  # a player, an arm or the cue over the table: no ball there is reliable
        if q > 4.0:
            own = labels[b.y0:b.y0 + b.h, b.x0:b.x0 + b.w] == b.label
            sub_keep = keep[b.y0:b.y0 + b.h, b.x0:b.x0 + b.w][own]
            at_edge = np.count_nonzero(work.inner[b.y0:b.y0 + b.h, b.x0:b.x0 + b.w][own] == 0)
            if np.count_nonzero(sub_keep) < 0.5 * b.area and at_edge > 0.02 * b.area:
                # wide and coming in over the cushion: a player leaning over the table (the rack
                # is as wide, but lies on the cloth away from the edge)
                continue
        ratio, solidity = _shape(labels, b, shapes)
        rel = ratio / aspect
        rr = r * math.sqrt(fx * fy)
        single = (
            q <= params.max_single_area
            and max(b.w * fx, b.h * fy) <= params.max_single_extent * rr
            and solidity >= params.min_solidity
            and 0.55 <= rel <= 1.8
        ) or (
            # round and solid: one ball bigger than expected here (near the camera), since two
            # balls side by side or one behind the other make an elongated blob
            q <= params.max_round_area and solidity >= 0.9 and 0.77 <= rel <= 1.3
        )
        if single:
            evidence = min(1.0, q / 0.6) * min(1.0, solidity / 0.9) * (1.0 if 0.7 <= rel <= 1.45 else 0.8)
            # the blob alone misses a ball's shaded underside and the expected size alone misses
            # the true size of this table's balls; their geometric mean beats either
            r_vis = math.sqrt(max(1.0, math.sqrt(b.area / math.pi) - params.rim_px) * r)
            out.append(Candidate(
                (b.x0 + b.w / 2) / sc + x0, (b.y0 + b.h / 2) / sc + y0, r_vis / sc, float(evidence), False, r / sc, q,
            ))
            continue
        sub = (labels[b.y0:b.y0 + b.h, b.x0:b.x0 + b.w] == b.label).astype(np.uint8) * 255
        if padded is None:
            padded = cv2.copyMakeBorder(work.crop, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        sub_crop = padded[b.y0: b.y0 + b.h + 2 * pad, b.x0: b.x0 + b.w + 2 * pad]
        circles = _split_blob(sub_crop, sub, r, aspect, params)
        for (_, _, e), (vx, vy, vr) in zip(circles, visible_parts(sub, circles, rr, fx, fy), strict=True):
            if vr <= 0:
                continue
            r_vis = max(1.0, vr - params.rim_px)
            if r_vis < params.min_visible * r:
                continue  # a sliver: the rest of the blob is explained by other balls
            out.append(Candidate(
                (b.x0 + vx) / sc + x0, (b.y0 + vy) / sc + y0, min(r_vis, 1.3 * r) / sc, float(e), True, r / sc, q,
            ))
    return CandidateSet(tuple(out), k, aspect, sc, work.hsv, work.mask, work.crop)


def _pin_candidate(
    b: Blob,
    labels: NDArray[np.int32],
    r_ball: float,
    q: float,
    aspect: float,
    spots: tuple[tuple[float, float], ...],
    params: BlobParams,
) -> Candidate | None:
    """A bar-billiards pin: a small round blob on a pin's spot (standing), or an elongated blob of a
    pin's size anywhere (fallen). Positions in working pixels."""
    r_pin = params.pin_ratio * r_ball
    pin_area = b.area / (math.pi * r_pin * r_pin)
    d = min(math.hypot(b.cx - sx, b.cy - sy) for sx, sy in spots)
    sub = (labels[b.y0:b.y0 + b.h, b.x0:b.x0 + b.w] == b.label).astype(np.uint8)
    m = cv2.moments(sub, binaryImage=True)
    fx, fy = square_factors(aspect)
    mu20, mu02, mu11 = m["mu20"] * fx * fx, m["mu02"] * fy * fy, m["mu11"] * fx * fy
    root = math.sqrt(max((mu20 - mu02) ** 2 + 4 * mu11 * mu11, 0.0))
    major, minor = mu20 + mu02 + root, max(mu20 + mu02 - root, 1e-6)
    elong = math.sqrt(major / minor)
    cx, cy = b.x0 + m["m10"] / max(m["m00"], 1), b.y0 + m["m01"] / max(m["m00"], 1)
    if d < 2.5 * r_pin and 0.3 <= pin_area <= 3.0 and elong < 1.8:
        return Candidate(cx, cy, math.sqrt(b.area / math.pi), 0.9, False, r_ball, q, "pin-standing")
    if elong >= 2.0 and 1.2 <= pin_area <= 9.0:
        angle = math.degrees(0.5 * math.atan2(2 * mu11, mu20 - mu02))
        return Candidate(cx, cy, math.sqrt(b.area / math.pi), 0.8, False, r_ball, q, "pin-fallen", angle)
    return None


def visible_parts(
    sub: U8, circles: list[tuple[float, float, float]], rr: float, fx: float, fy: float
) -> list[tuple[float, float, float]]:
    """The part of the blob each circle owns (nearest circle, within 1.2 radii): its box centre and
    equivalent radius, so that a ball half hidden behind another is reported as the part seen."""
    if not circles:
        return []
    ys, xs = np.nonzero(sub)
    pts_x = xs.astype(np.float32) * fx
    pts_y = ys.astype(np.float32) * fy
    cx = np.array([c[0] for c in circles], np.float32) * fx
    cy = np.array([c[1] for c in circles], np.float32) * fy
    d2 = (pts_x[:, None] - cx[None]) ** 2 + (pts_y[:, None] - cy[None]) ** 2
    owner = np.argmin(d2, axis=1)
    near = d2[np.arange(len(owner)), owner] <= (1.2 * rr) ** 2
    out = []
    for i, (x, y, _) in enumerate(circles):
        sel = near & (owner == i)
        n = int(sel.sum())
        if n < 4:
            out.append((x, y, 0.0))
            continue
        bx0, bx1 = float(xs[sel].min()), float(xs[sel].max()) + 1
        by0, by1 = float(ys[sel].min()), float(ys[sel].max()) + 1
        out.append(((bx0 + bx1) / 2, (by0 + by1) / 2, math.sqrt(n / math.pi)))
    return out
