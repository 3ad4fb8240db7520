"""What the card classifiers look at: a card (or its corner index) rectified to a fixed size, and features of it.

A card seen by an overhead camera is a quadrilateral at any rotation, tilted by the camera's
lean. :func:`rectify` warps it to an upright crop of fixed size with its long side vertical. Cards
are printed with 180-degree symmetry (an index in opposite corners, the lower pips inverted), so
the two upright readings are the same card and need no telling apart; a mirror image cannot occur.

Features are chosen to survive what differs between venues and decks:

* **White balance and exposure.** Each crop is divided, channel by channel, by its own face white
  (a high percentile), so a warm lamp, a dim corner or a cream card all become the same white.
* **Ink shape.** Histograms of gradient orientation (HOG) over the normalised grey crop carry the
  pip layout, the court figure and the index shapes, and do not care about contrast.
* **Ink colour.** A small normalised colour thumbnail tells red from black (and a four-colour
  deck's blue and green) and where the coloured court panels are.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

#: Canonical card crop (width, height) in pixels: about the size a venue camera sees a card at.
CARD_CROP = (32, 44)
#: Canonical corner-index crop (width, height): rank above suit.
INDEX_CROP = (24, 40)

HOG_BINS = 9


def order_quad(quad: Sequence[Sequence[float]] | F64) -> F64:
    """The quad's corners clockwise on screen, starting so that the first side is a short one.

    With the first side short, the warp in :func:`rectify` puts the card's long side vertical.
    """
    q = np.asarray(quad, np.float64).reshape(4, 2)
    area = 0.0
    for i in range(4):
        x0, y0 = q[i]
        x1, y1 = q[(i + 1) % 4]
        area += x0 * y1 - x1 * y0
    if area < 0:
        q = q[::-1].copy()
    side = [float(np.hypot(*(q[(i + 1) % 4] - q[i]))) for i in range(4)]
    if side[0] + side[2] > side[1] + side[3]:
        q = np.roll(q, -1, axis=0)
    return np.asarray(q, np.float64)


def rectify(image: U8, quad: Sequence[Sequence[float]] | F64, size: tuple[int, int] = CARD_CROP,
            ordered: bool = False) -> U8:
    """Warp the quad (corners in image pixels) to an upright ``size`` crop (width, height)."""
    q = np.asarray(quad, np.float64).reshape(4, 2) if ordered else order_quad(quad)
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - 0.5
    m = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    # area averaging when the card is larger than the crop: warp to a bigger crop first, then reduce
    scale = max(float(np.hypot(*(q[1] - q[0]))) / w, float(np.hypot(*(q[2] - q[1]))) / h)
    if scale > 1.5:
        k = min(int(np.ceil(scale)), 8)
        big = cv2.warpPerspective(image, np.array([[k, 0, 0.5 * (k - 1)], [0, k, 0.5 * (k - 1)], [0, 0, 1]]) @ m,
                                  (w * k, h * k), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return np.asarray(cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA), np.uint8)
    return np.asarray(cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE), np.uint8)


def white_normalise(crop: U8, percentile: float = 90.0) -> F32:
    """The crop divided per channel by its face white, clipped to [0, 1.25] (see the module docstring)."""
    f = crop.astype(np.float32)
    if f.ndim == 2:
        f = f[..., None]
    flat = f.reshape(-1, f.shape[2])
    k = min(len(flat) - 1, int(round(percentile / 100.0 * (len(flat) - 1))))
    ref = np.partition(flat, k, axis=0)[k].astype(np.float32)
    ref = np.maximum(ref, max(8.0, float(ref.max()) * 0.25))
    return np.asarray(np.clip(f / ref, 0.0, 1.25), np.float32)


def hog(grey: F32, cell: int = 4, bins: int = HOG_BINS) -> F32:
    """Histograms of oriented gradients of a stack of grey crops (N, H, W): 2x2-cell blocks, L2-Hys.

    The classic descriptor (Dalal and Triggs), written out in numpy because OpenCV builds without
    the contrib modules have no ``HOGDescriptor``. Unsigned orientations, ``bins`` bins over 180
    degrees with linear interpolation between bins, blocks of 2x2 cells moved one cell at a time.
    """
    g = np.asarray(grey, np.float32)
    if g.ndim == 2:
        g = g[None]
    n, h, w = g.shape
    if h % cell or w % cell:
        raise ValueError(f"crop {w}x{h} is not a whole number of {cell}-pixel cells")
    gx = np.zeros_like(g)
    gy = np.zeros_like(g)
    gx[:, :, 1:-1] = g[:, :, 2:] - g[:, :, :-2]
    gy[:, 1:-1, :] = g[:, 2:, :] - g[:, :-2, :]
    mag = np.sqrt(gx * gx + gy * gy)
    ang = np.degrees(np.arctan2(gy, gx)) % 180.0
    pos = ang / (180.0 / bins) - 0.5
    lo = np.floor(pos)
    w_hi = (pos - lo).astype(np.float32)
    b_lo = (lo.astype(np.int64)) % bins
    b_hi = (b_lo + 1) % bins
    ch, cw = h // cell, w // cell
    # each pixel votes into its cell's two nearest bins: one weighted count over (crop, cell, bin)
    cell_of = ((np.arange(n)[:, None, None] * ch + (np.arange(h) // cell)[None, :, None]) * cw
               + (np.arange(w) // cell)[None, None, :])
    slot = cell_of * bins
    size = n * ch * cw * bins
    hist = (np.bincount((slot + b_lo).ravel(), (mag * (1.0 - w_hi)).ravel(), size)
            + np.bincount((slot + b_hi).ravel(), (mag * w_hi).ravel(), size))
    hist = hist.reshape(n, ch, cw, bins).astype(np.float32)
    blocks = np.concatenate([hist[:, :-1, :-1], hist[:, :-1, 1:], hist[:, 1:, :-1], hist[:, 1:, 1:]], axis=3)
    norm = np.sqrt((blocks * blocks).sum(axis=3, keepdims=True) + 1e-6)
    blocks = np.minimum(blocks / norm, 0.2)
    norm = np.sqrt((blocks * blocks).sum(axis=3, keepdims=True) + 1e-6)
    return np.asarray((blocks / norm).reshape(n, -1), np.float32)


def card_features(crop: U8) -> F32:
    """Features of one upright card crop of :data:`CARD_CROP` size (BGR)."""
    if crop.shape[:2] != (CARD_CROP[1], CARD_CROP[0]):
        raise ValueError(f"a card crop must be {CARD_CROP[0]}x{CARD_CROP[1]} pixels, got {crop.shape[1]}x{crop.shape[0]}")
    n = white_normalise(crop)
    grey = n.mean(axis=2)
    thumb = cv2.resize(n, (CARD_CROP[0] // 2, CARD_CROP[1] // 2), interpolation=cv2.INTER_AREA)
    return np.concatenate([hog(grey)[0], thumb.ravel()]).astype(np.float32)


def corner_features(crop: U8) -> F32:
    """Features of a card's averaged corner window (:func:`corner_index_crop`): shape and ink colour."""
    n = white_normalise(crop, 95.0)
    grey = n.mean(axis=2)
    thumb = cv2.resize(n, (INDEX_CROP[0] // 4, INDEX_CROP[1] // 4), interpolation=cv2.INTER_AREA)
    chroma = thumb - thumb.mean(axis=2, keepdims=True)
    return np.concatenate([hog(grey)[0], 2.0 * chroma.ravel()]).astype(np.float32)


def _glyph_features(glyph: U8) -> F32:
    n = white_normalise(glyph, 95.0)
    grey = n.mean(axis=2) if n.shape[2] > 1 else n[..., 0]
    small = cv2.resize(grey, (10, 10), interpolation=cv2.INTER_AREA)
    return np.concatenate([hog(grey)[0], small.ravel()]).astype(np.float32)


def index_features(crop: U8, top: U8 | None = None, bottom: U8 | None = None) -> F32:
    """Features of one upright corner-index crop of :data:`INDEX_CROP` size (BGR or grey).

    ``top`` and ``bottom`` are the crops of its two glyphs, each scaled to fill a square (see
    ``cards_index.Cropper.glyph``): read apart, a rank and a suit no longer depend on how the
    index happens to be framed. Without them the crop's upper and lower parts stand in.
    """
    if crop.shape[:2] != (INDEX_CROP[1], INDEX_CROP[0]):
        raise ValueError(f"an index crop must be {INDEX_CROP[0]}x{INDEX_CROP[1]} pixels, got {crop.shape[1]}x{crop.shape[0]}")
    n = white_normalise(crop, 95.0)
    if n.shape[2] == 1:
        n = np.repeat(n, 3, axis=2)
    grey = n.mean(axis=2)
    thumb = cv2.resize(n, (INDEX_CROP[0] // 4, INDEX_CROP[1] // 4), interpolation=cv2.INTER_AREA)
    chroma = thumb - thumb.mean(axis=2, keepdims=True)
    g = 20
    if top is None:
        top = np.asarray(cv2.resize(crop[: int(0.55 * INDEX_CROP[1])], (g, g), interpolation=cv2.INTER_AREA), np.uint8)
    if bottom is None:
        bottom = np.asarray(cv2.resize(crop[int(0.45 * INDEX_CROP[1]):], (g, g), interpolation=cv2.INTER_AREA),
                            np.uint8)
    return np.concatenate([hog(grey)[0], 2.0 * chroma.ravel(), _glyph_features(np.asarray(top, np.uint8)),
                           _glyph_features(np.asarray(bottom, np.uint8))]).astype(np.float32)


def _white_many(crops: F32, percentile: float) -> F32:
    """:func:`white_normalise` of a stack of crops (N, H, W, C) at once."""
    n = crops.shape[0]
    flat = crops.reshape(n, -1, crops.shape[-1])
    k = min(flat.shape[1] - 1, int(round(percentile / 100.0 * (flat.shape[1] - 1))))
    ref = np.partition(flat, k, axis=1)[:, k, :]
    ref = np.maximum(ref, np.maximum(8.0, ref.max(axis=1, keepdims=True) * 0.25))
    return np.asarray(np.clip(crops / ref[:, None, None, :], 0.0, 1.25), np.float32)


def _glyph_features_many(glyphs: F32) -> F32:
    n = _white_many(glyphs, 95.0)
    grey = n.mean(axis=3)
    small = grey.reshape(len(grey), 10, 2, 10, 2).mean(axis=(2, 4))  # INTER_AREA from 20 to 10
    return np.concatenate([hog(grey), small.reshape(len(grey), -1)], axis=1).astype(np.float32)


def index_features_many(crops: Sequence[U8], tops: Sequence[U8], bottoms: Sequence[U8]) -> F32:
    """:func:`index_features` of many proposals at once (BGR crops and 20-pixel glyph squares).

    The same numbers as one call per proposal, computed on stacks: a photo has thousands of
    proposals and the per-call overhead, not the arithmetic, was most of the reading time.
    """
    if not crops:
        return np.zeros((0, 0), np.float32)
    c = np.stack([np.asarray(x, np.float32) for x in crops])
    if c.shape[1:3] != (INDEX_CROP[1], INDEX_CROP[0]) or c.ndim != 4 or c.shape[3] != 3:
        raise ValueError(f"index crops must be {INDEX_CROP[0]}x{INDEX_CROP[1]} BGR, got {c.shape[1:]}")
    n = _white_many(c, 95.0)
    grey = n.mean(axis=3)
    q = len(n)
    thumb = n.reshape(q, INDEX_CROP[1] // 4, 4, INDEX_CROP[0] // 4, 4, 3).mean(axis=(2, 4))  # INTER_AREA by 4
    chroma = thumb - thumb.mean(axis=3, keepdims=True)
    top = _glyph_features_many(np.stack([np.asarray(x, np.float32) for x in tops]))
    bottom = _glyph_features_many(np.stack([np.asarray(x, np.float32) for x in bottoms]))
    return np.concatenate([hog(grey), 2.0 * chroma.reshape(q, -1), top, bottom], axis=1).astype(np.float32)


#: A card rectified finely enough to cut out single pips (about 1.5 pixels a millimetre).
CARD_FINE = (96, 132)
PIP_PATCH = 16


def pip_descriptor(fine: U8) -> F32:
    """The mean appearance of a card's pips: suit shape averaged over every pip, upright.

    A pip is a few pixels tall to a venue camera, too few to tell a spade from a club in one pip;
    averaged over the 2 to 10 pips of a card (and its index suits) the difference stands out. Pips
    in the card's lower half are printed upside down, so they are turned before averaging. Blobs
    too large for a pip (court panels) are left out; rank digits are kept, weighted by their size
    like the pips, and simply add the same shapes to every card of a rank.
    Returns a fixed-length vector: the mean patch's colour and HOG, and the share of pip-sized ink.
    """
    if fine.shape[:2] != (CARD_FINE[1], CARD_FINE[0]):
        raise ValueError(f"a fine card crop must be {CARD_FINE[0]}x{CARD_FINE[1]} pixels")
    n = white_normalise(fine)
    grey = n.mean(axis=2)
    ppm = CARD_FINE[0] / 63.0
    ink = (grey < 0.62).astype(np.uint8)
    b = int(round(1.2 * ppm))
    ink[:b] = 0
    ink[-b:] = 0
    ink[:, :b] = 0
    ink[:, -b:] = 0
    count, _, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    acc = np.zeros((PIP_PATCH, PIP_PATCH, 3), np.float32)
    total = 0.0
    mid = CARD_FINE[1] / 2.0
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        size = max(w, h)
        if not (3.0 * ppm <= size <= 16.0 * ppm) or area < 0.25 * w * h:
            continue
        cx, cy = float(cents[i][0]), float(cents[i][1])
        half = 0.65 * size
        src = np.array([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half]], np.float32)
        if cy > mid:
            src = np.array([[cx + half, cy + half], [cx - half, cy + half], [cx - half, cy - half]], np.float32)
        dst = np.array([[0, 0], [PIP_PATCH, 0], [PIP_PATCH, PIP_PATCH]], np.float32) - 0.5
        m = cv2.getAffineTransform(src, dst)
        patch = cv2.warpAffine(n, m, (PIP_PATCH, PIP_PATCH), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        acc += patch * float(area)
        total += float(area)
    mean = np.ones((PIP_PATCH, PIP_PATCH, 3), np.float32) if total <= 0 else acc / total
    share = total / float(ink.size)
    return np.concatenate([hog(mean.mean(axis=2))[0], mean.ravel(), [share * 10.0]]).astype(np.float32)


#: The corner window that holds the index on every deck we know: 15 x 26 mm from a corner.
INDEX_WINDOW_MM = (15.0, 26.0)


def corner_index_crop(fine: U8) -> U8:
    """The top-left corner window averaged with the bottom-right one turned upright.

    Every deck prints its index in these two corners (some in all four); the two readings of the
    same card average out noise. Returns an :data:`INDEX_CROP` sized BGR crop.
    """
    h, w = fine.shape[:2]
    ww = int(round(INDEX_WINDOW_MM[0] / 63.0 * w))
    wh = int(round(INDEX_WINDOW_MM[1] / 88.0 * h))
    tl = fine[:wh, :ww].astype(np.float32)
    br = fine[h - wh:, w - ww:][::-1, ::-1].astype(np.float32)
    mean = 0.5 * (tl + br)
    return np.asarray(cv2.resize(mean, INDEX_CROP, interpolation=cv2.INTER_AREA).round().clip(0, 255), np.uint8)


def card_descriptor(image: U8, quad: Sequence[Sequence[float]] | F64) -> F32:
    """Everything the card reader looks at for the card whose corners are ``quad`` (image pixels).

    The whole card small (layout, court colours), the averaged pips (suit shape) and the averaged
    corner index (rank and suit as printed), concatenated.
    """
    q = order_quad(quad)
    small = rectify(image, q, CARD_CROP, ordered=True)
    fine = rectify(image, q, CARD_FINE, ordered=True)
    return np.concatenate([card_features(small), pip_descriptor(fine),
                           corner_features(corner_index_crop(fine))]).astype(np.float32)
