"""Finding cards on the table: each card's quadrilateral, face up or face down, overlaps included.

The search runs on a *plane image*: with a calibration, the table warped to a top-down view at
one pixel per millimetre (:class:`TablePlane`), where every card is a 63 x 88 rectangle whatever
the camera's tilt; without one, the camera image itself (:class:`ImagePlane`), where the card size
is measured from the cards that lie alone.

1. **Segmentation.** Card faces are bright and nearly colourless; the cloth is darker or coloured
   (green, blue, red, tan). A pixel is *face* when its darkest channel is above an Otsu threshold
   taken over the table (cards against cloth is a two-mode histogram) and its saturation is low.
   Everything that is neither face nor cloth (a hand, a sleeve, a card back, a shadow) is *other*:
   it may hide part of a card but never counts as one.
2. **Lone cards.** A face blob whose minimum-area rectangle is a card's size and fills it is one card.
3. **Touching and overlapping cards.** For larger blobs every convex right-angled corner of the
   blob's outline, with the directions of its two edges, proposes a card rectangle of the known
   size. A proposal is kept when it lies on face or other pixels (not on cloth) and a greedy cover
   picks, one at a time, the proposal that explains the most face pixels not yet explained. A card
   partly under a later card, or under the hand that laid it, still shows corners and edges, so it
   is still proposed.
4. **Backs.** A blob of *other* pixels with a card's size and rectangularity, ringed by the white
   margin every back has, is a face-down card (or a squared pack).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

CARD_W_MM = 63.0
CARD_H_MM = 88.0


class Plane(Protocol):
    """Where the card search runs: a warped view of the image and the way back to image pixels."""

    def view(self, image: U8) -> U8: ...

    def to_image(self, points: F64) -> F64: ...

    def roi(self, shape: tuple[int, int]) -> U8: ...

    def card_size(self) -> tuple[float, float] | None: ...


class PixelMapping(Protocol):
    def to_table(self, points_px: F64) -> F64: ...

    def to_image(self, points_mm: F64) -> F64: ...


class TablePlane:
    """The table seen from straight above, ``px_per_mm`` pixels a millimetre (lens distortion removed).

    ``region`` (x0, y0, x1, y1 in mm) is the part of the table warped; the remap grid is computed
    once per camera, so each frame costs one ``cv2.remap``.
    """

    def __init__(self, mapping: PixelMapping, region: tuple[float, float, float, float],
                 px_per_mm: float = 1.0) -> None:
        self.mapping = mapping
        self.region = region
        self.s = float(px_per_mm)
        x0, y0, x1, y1 = region
        self.w = int(round((x1 - x0) * self.s))
        self.h = int(round((y1 - y0) * self.s))
        xs = x0 + (np.arange(self.w) + 0.5) / self.s
        ys = y0 + (np.arange(self.h) + 0.5) / self.s
        gx, gy = np.meshgrid(xs, ys)
        px = mapping.to_image(np.stack([gx.ravel(), gy.ravel()], axis=1))
        self.map_x = px[:, 0].reshape(self.h, self.w).astype(np.float32)
        self.map_y = px[:, 1].reshape(self.h, self.w).astype(np.float32)

    def view(self, image: U8) -> U8:
        return np.asarray(cv2.remap(image, self.map_x, self.map_y, cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0)), np.uint8)

    def to_mm(self, points: F64) -> F64:
        p = np.asarray(points, np.float64).reshape(-1, 2)
        return np.stack([self.region[0] + p[:, 0] / self.s, self.region[1] + p[:, 1] / self.s], axis=1)

    def to_image(self, points: F64) -> F64:
        return np.asarray(self.mapping.to_image(self.to_mm(points)), np.float64)

    def roi(self, shape: tuple[int, int]) -> U8:
        inside = (self.map_x >= 0) & (self.map_y >= 0) & (self.map_x <= shape[1] - 1) & (self.map_y <= shape[0] - 1)
        return inside.astype(np.uint8)

    def card_size(self) -> tuple[float, float] | None:
        return (CARD_W_MM * self.s, CARD_H_MM * self.s)


class ImagePlane:
    """The camera image itself: no calibration, so the card size is measured from lone cards."""

    def view(self, image: U8) -> U8:
        return image

    def to_image(self, points: F64) -> F64:
        return np.asarray(points, np.float64).reshape(-1, 2)

    def roi(self, shape: tuple[int, int]) -> U8:
        return np.ones(shape, np.uint8)

    def card_size(self) -> tuple[float, float] | None:
        return None


@dataclass(frozen=True)
class FoundCard:
    """One card found in the plane image.

    ``corners`` are plane pixels (clockwise, the first side a short one), ``centre`` and ``angle``
    (degrees, of the long axis) in plane pixels; ``face_fraction`` is the share of the card's area
    seen as face (the rest hidden by a hand, another card's back, a shadow); ``alone`` is True when
    the card's blob was exactly one card.
    """

    corners: F64
    centre: tuple[float, float]
    angle: float
    face_up: bool
    face_fraction: float
    alone: bool


@dataclass(frozen=True)
class Segmentation:
    face: U8  # 1 where the plane image shows a card face
    other: U8  # 1 where it shows neither face nor cloth
    threshold: float


def segment(view: U8, roi: U8) -> Segmentation:
    """Face / other / cloth masks of a plane image (see the module docstring)."""
    b, g, r = cv2.split(view)
    mn = cv2.min(cv2.min(b, g), r)
    mx = cv2.max(cv2.max(b, g), r)
    inside = roi > 0
    sample = mn[::3, ::3][inside[::3, ::3]]
    if sample.size < 50:
        z = np.zeros(view.shape[:2], np.uint8)
        return Segmentation(z, z, 255.0)
    otsu, _ = cv2.threshold(sample.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    cloth_level = float(np.median(sample))
    t = max(float(otsu), cloth_level * 1.5 + 12.0)
    bright = (mn > t) & inside
    sat = (mx.astype(np.float32) - mn) / (mx.astype(np.float32) + 1.0)
    # the deck's own white (cream decks are a little saturated); skin and sleeves are more so
    sat_ref = float(np.percentile(sat[bright][::7], 30)) if int(np.count_nonzero(bright)) > 50 else 0.1
    face = (bright & (sat < min(sat_ref + 0.12, 0.38))).astype(np.uint8)
    face = np.asarray(cv2.morphologyEx(face, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)), np.uint8)
    # the cloth: close to the table's typical colour (median over the roi), whatever the brightness
    pix = view[::3, ::3][inside[::3, ::3]].astype(np.float32)
    med = np.median(pix, axis=0)
    total = b.astype(np.float32) + g + r + 1.0
    cloth_c = med / (med.sum() + 1.0)
    chroma_d = (np.abs(b / total - float(cloth_c[0])) + np.abs(g / total - float(cloth_c[1]))
                + np.abs(r / total - float(cloth_c[2])))
    level = total / (3.0 * float(med.mean()) + 1.0)
    cloth = (chroma_d < 0.07) & (level < 1.45) & (level > 0.3)
    other = (~cloth & (face == 0) & inside).astype(np.uint8)
    other = np.asarray(cv2.morphologyEx(other, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), np.uint8)
    return Segmentation(face, other, t)


def _rect_corners(cx: float, cy: float, ux: float, uy: float, w: float, h: float) -> F64:
    """Corners of a w x h rectangle centred at (cx, cy) with its long side along (ux, uy)."""
    vx, vy = -uy, ux
    hw, hh = w / 2.0, h / 2.0
    return np.array([
        [cx - vx * hw - ux * hh, cy - vy * hw - uy * hh],
        [cx + vx * hw - ux * hh, cy + vy * hw - uy * hh],
        [cx + vx * hw + ux * hh, cy + vy * hw + uy * hh],
        [cx - vx * hw + ux * hh, cy - vy * hw + uy * hh],
    ])


@dataclass(frozen=True)
class _Proposal:
    corners: F64
    centre: tuple[float, float]
    axis: tuple[float, float]


def _proposals(contour: NDArray[np.int32], w: float, h: float) -> list[_Proposal]:
    """Card rectangles proposed by the convex right-angled corners of a blob's outline."""
    eps = max(1.5, 0.035 * w)
    poly = cv2.approxPolyDP(contour, eps, True).reshape(-1, 2).astype(np.float64)
    n = len(poly)
    if n < 3:
        return []
    area = 0.0
    for i in range(n):
        area += poly[i, 0] * poly[(i + 1) % n, 1] - poly[(i + 1) % n, 0] * poly[i, 1]
    sign = 1.0 if area > 0 else -1.0
    out: list[_Proposal] = []
    for i in range(n):
        v = poly[i]
        a = poly[i - 1] - v
        b = poly[(i + 1) % n] - v
        la, lb = float(np.hypot(*a)), float(np.hypot(*b))
        if la < 0.2 * w or lb < 0.2 * w:
            continue
        cross = (b[0] * a[1] - b[1] * a[0]) * sign
        cosang = float(np.dot(a, b) / (la * lb))
        if cross <= 0 or abs(cosang) > 0.3:  # concave, or not near a right angle
            continue
        an, bn = a / la, b / lb
        bis = an + bn
        bis /= np.hypot(*bis) + 1e-9
        # orthogonal axes at +-45 degrees about the corner's bisector
        c45 = math.sqrt(0.5)
        e1 = np.array([bis[0] * c45 - bis[1] * c45, bis[0] * c45 + bis[1] * c45])
        e2 = np.array([bis[0] * c45 + bis[1] * c45, -bis[0] * c45 + bis[1] * c45])
        if np.dot(e1, an) < np.dot(e2, an):
            e1, e2 = e2, e1  # e1 along a, e2 along b
        options = []
        long_cut = 0.5 * (w + h) + 0.05 * h
        if la > long_cut and lb <= long_cut:
            options.append((e1, e2))  # a is the long side
        elif lb > long_cut and la <= long_cut:
            options.append((e2, e1))
        else:
            options += [(e1, e2), (e2, e1)]
        for long_axis, short_axis in options:
            c = v + long_axis * (h / 2.0) + short_axis * (w / 2.0)
            corners = _rect_corners(float(c[0]), float(c[1]), float(long_axis[0]), float(long_axis[1]), w, h)
            out.append(_Proposal(corners, (float(c[0]), float(c[1])), (float(long_axis[0]), float(long_axis[1]))))
    out += _edge_proposals(poly, sign, w, h)
    return out


def _edge_proposals(poly: F64, sign: float, w: float, h: float) -> list[_Proposal]:
    """Card rectangles with one side on a long straight stretch of the outline.

    A card whose corners are all blurred, notched by its index or hidden still shows straight
    sides; the card lies on the blob's side of each, with a corner at either end of the stretch.
    """
    out: list[_Proposal] = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        d = b - a
        length = float(np.hypot(*d))
        if length < 0.55 * w:
            continue
        u = d / length
        inward = np.array([-u[1], u[0]]) * sign  # the blob's side of the edge (outline orientation)
        for side, across in ((w, h), (h, w)):
            if length > 1.12 * side:
                continue  # longer than this side of a card: not this side
            for start, direction in ((a, u), (b, -u)):
                c = start + direction * (side / 2.0) + inward * (across / 2.0)
                long_axis = direction if side == h else inward
                out.append(_Proposal(_rect_corners(float(c[0]), float(c[1]), float(long_axis[0]), float(long_axis[1]),
                                                   w, h), (float(c[0]), float(c[1])),
                                     (float(long_axis[0]), float(long_axis[1]))))
    return out


def _lone_card(contour: NDArray[np.int32], blob_area: float, w: float, h: float) -> _Proposal | None:
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(contour)
    short, long_ = min(rw, rh), max(rw, rh)
    if not (abs(short - w) < 0.14 * w and abs(long_ - h) < 0.12 * h and blob_area > 0.75 * rw * rh):
        return None
    if cv2.contourArea(cv2.convexHull(contour)) < 0.93 * rw * rh:
        return None
    t = math.radians(ang)
    ux, uy = (math.cos(t), math.sin(t)) if rw >= rh else (-math.sin(t), math.cos(t))
    return _Proposal(_rect_corners(cx, cy, ux, uy, w, h), (cx, cy), (ux, uy))


def estimate_card_size(face: U8) -> tuple[float, float] | None:
    """Card size (short, long sides in pixels) from the blobs that are one card alone (median)."""
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    sizes = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < 300:
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(c)
        short, long_ = min(rw, rh), max(rw, rh)
        if short < 8 or not 1.22 < long_ / short < 1.62 or area < 0.86 * rw * rh:
            continue
        sizes.append((short, long_))
    if not sizes:
        return None
    arr = np.array(sizes)
    return (float(np.median(arr[:, 0])), float(np.median(arr[:, 1])))


def _fill_holes(mask: U8, max_area: float) -> U8:
    """Fill holes (court panels, pips) smaller than ``max_area`` inside face blobs."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hierarchy is None:
        return out
    for c, hinfo in zip(contours, hierarchy[0], strict=True):
        if hinfo[3] >= 0 and cv2.contourArea(c) < max_area:
            cv2.drawContours(out, [c], -1, 1, -1)
    return out


def find_cards(view: U8, roi: U8, card_size: tuple[float, float] | None = None,
               seg: Segmentation | None = None) -> list[FoundCard]:
    """Every card face (and back) in a plane image; ``card_size`` (short, long) in plane pixels."""
    seg = seg or segment(view, roi)
    size = card_size or estimate_card_size(seg.face)
    if size is None:
        return []
    w, h = size
    card_area = w * h
    face = _fill_holes(seg.face, 0.7 * card_area)
    support = np.maximum(face, seg.other)
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    found: list[FoundCard] = []
    for raw in contours:
        c = np.asarray(raw, np.int32)
        blob_area = float(cv2.contourArea(c))
        if blob_area < 0.3 * card_area:
            continue
        lone = _lone_card(c, blob_area, w, h)
        if lone is not None:
            found.append(FoundCard(lone.corners, lone.centre, _angle(lone.axis), True, 1.0, True))
            continue
        found += _cover(c, face, support, w, h)
    for back in _backs(seg, face, w, h):
        # a back ringed by its white margin was already found as a card outline: keep that one
        if all(math.hypot(back.centre[0] - f.centre[0], back.centre[1] - f.centre[1]) > 0.3 * w for f in found):
            found.append(back)
    return found


def _angle(axis: tuple[float, float]) -> float:
    return math.degrees(math.atan2(axis[1], axis[0])) % 180.0


def _cover(contour: NDArray[np.int32], face: U8, support: U8, w: float, h: float) -> list[FoundCard]:
    """Greedy cover of one face blob by proposed card rectangles (see the module docstring)."""
    x, y, bw, bh = cv2.boundingRect(contour)
    pad = int(math.ceil(0.6 * h))
    x0, y0 = max(x - pad, 0), max(y - pad, 0)
    x1, y1 = min(x + bw + pad, face.shape[1]), min(y + bh + pad, face.shape[0])
    blob = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(blob, [contour], -1, 1, -1, offset=(-x0, -y0))
    f = face[y0:y1, x0:x1] & blob
    s = support[y0:y1, x0:x1]
    props = _proposals(contour, w, h)
    scored = []
    for p in props:
        m = np.zeros_like(blob)
        cv2.fillConvexPoly(m, np.round(p.corners - [x0, y0]).astype(np.int32), 1)
        area = int(m.sum())
        if area < 0.5 * w * h:
            continue  # mostly off the plane
        on_face = int((m & f).sum())
        on_support = int((m & s).sum())
        if on_support < 0.9 * area or on_face < 0.35 * area:
            continue
        scored.append((p, m, on_face / area))
    explained = np.zeros_like(blob)
    out: list[FoundCard] = []
    while scored:
        gains = [int((m & f & (1 - explained)).sum()) for _, m, _ in scored]
        k = int(np.argmax(gains))
        if gains[k] < 0.3 * w * h:
            break
        p, m, frac = scored.pop(k)
        explained |= m
        out.append(FoundCard(p.corners, p.centre, _angle(p.axis), True, float(frac), False))
    return out


def _backs(seg: Segmentation, face: U8, w: float, h: float) -> list[FoundCard]:
    """Face-down cards: card-sized rectangles of non-cloth, non-face pixels (see the module docstring)."""
    body = cv2.morphologyEx(np.maximum(seg.other, face), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(body, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out: list[FoundCard] = []
    for c in contours:
        area = float(cv2.contourArea(c))
        if area < 0.6 * w * h or area > 1.5 * w * h:
            continue
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
        short, long_ = min(rw, rh), max(rw, rh)
        if not (abs(short - w) < 0.18 * w and abs(long_ - h) < 0.16 * h and area > 0.85 * rw * rh):
            continue
        m = np.zeros_like(face)
        cv2.drawContours(m, [c], -1, 1, -1)
        face_share = float((m & face).sum()) / max(area, 1.0)
        if face_share > 0.5:
            continue  # a face-up card (already found)
        t = math.radians(ang)
        ux, uy = (math.cos(t), math.sin(t)) if rw >= rh else (-math.sin(t), math.cos(t))
        out.append(FoundCard(_rect_corners(cx, cy, ux, uy, w, h), (cx, cy), _angle((ux, uy)), False,
                             face_share, True))
    return out


def corners_in_image(plane: Plane, card: FoundCard) -> F64:
    """The card's corners in image pixels (through the plane's mapping)."""
    return plane.to_image(card.corners)


def iou_quads(a: Sequence[Sequence[float]] | F64, b: Sequence[Sequence[float]] | F64) -> float:
    """Intersection over union of two convex quads."""
    pa = np.asarray(a, np.float32).reshape(-1, 2)
    pb = np.asarray(b, np.float32).reshape(-1, 2)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    ua = cv2.contourArea(pa) + cv2.contourArea(pb) - inter
    return float(inter / ua) if ua > 0 else 0.0
