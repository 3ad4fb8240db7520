"""Corner indices: where a card's rank and suit are printed, found directly in the image.

When a card is large enough in the image for its index to be legible (a phone photo, a camera
close over the board) the index is the stable thing to read: every deck prints it, in the same
place, in plain shapes, and it shows even when the rest of the card is under other cards (a fanned
hand shows nothing else). This module proposes oriented crops that may hold an index; the
classifier in ``models/cards/index.npz`` says which do and what they read.

Proposals come from *glyphs*: blobs of ink darker than their local background (black and red
print on a white face) or lighter than it (gold print on a black deck). An index is a rank glyph
above a suit glyph, so each pair of nearby glyphs of compatible size proposes a crop along the
line through them (an index may lie any way round). A glyph on its own also
proposes crops along its long axis, for blurred indices where rank and suit run together. The
rank is printed taller than the suit, so of a pair the taller glyph is taken as the rank (both
ways round when the two are about as tall), which halves the proposals and lets the classifier
learn indices the right way up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.vision.cards_features import INDEX_CROP

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

#: Width over height of an index crop.
INDEX_ASPECT = INDEX_CROP[0] / INDEX_CROP[1]
#: Side of the square crop of one glyph (a rank or a suit) of an index.
GLYPH_CROP = 20


@dataclass(frozen=True)
class Glyph:
    """A blob of ink: centre, the sides of its minimum-area rectangle, its angle, and which ink."""

    cx: float
    cy: float
    long: float
    short: float
    axis: tuple[float, float]  # unit vector along the long side
    area: float
    light: bool  # light ink on a dark card (inverted)


@dataclass(frozen=True)
class IndexProposal:
    """An oriented crop that may hold an index: centre, unit 'down' vector (rank to suit), size.

    ``top`` and ``bottom`` are the glyphs that proposed it (centre x, centre y, size): the rank and
    the suit if this is an index the right way up. A single long glyph proposes its two halves.
    """

    cx: float
    cy: float
    down: tuple[float, float]
    height: float
    width: float
    light: bool
    top: tuple[float, float, float] = (0.0, 0.0, 1.0)
    bottom: tuple[float, float, float] = (0.0, 0.0, 1.0)

    def corners(self) -> F64:
        """Crop corners in image pixels: top-left, top-right, bottom-right, bottom-left (upright index)."""
        dx, dy = self.down
        rx, ry = -dy, dx  # right of an upright index, in the image
        hh, hw = self.height / 2.0, self.width / 2.0
        return np.array([
            [self.cx - rx * hw - dx * hh, self.cy - ry * hw - dy * hh],
            [self.cx + rx * hw - dx * hh, self.cy + ry * hw - dy * hh],
            [self.cx + rx * hw + dx * hh, self.cy + ry * hw + dy * hh],
            [self.cx - rx * hw + dx * hh, self.cy - ry * hw + dy * hh],
        ])


def _ink(grey: U8, kernel: int) -> U8:
    """Pixels clearly darker than the brightest of their neighbourhood (the local paper).

    Relative to the paper, so a dim photo and a bright one are read alike.
    """
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (kernel, kernel))
    paper = cv2.dilate(grey, k)
    paper = cv2.blur(paper, (kernel // 2 | 1, kernel // 2 | 1)).astype(np.float32)
    g = grey.astype(np.float32)
    return ((g < 0.8 * paper) & (paper - g > 12.0) & (paper > 30.0)).astype(np.uint8)


def _components(ink: U8, min_size: float, max_size: float, light: bool) -> list[Glyph]:
    out: list[Glyph] = []
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    for i in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        size = max(bw, bh)
        if size < min_size or size > max_size or area < 12:
            continue
        ys, xs = np.nonzero(labels[y:y + bh, x:x + bw] == i)
        pts = np.stack([xs + x, ys + y], axis=1).astype(np.float32)
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(pts)
        long_, short = max(rw, rh), min(rw, rh)
        if long_ < min_size or long_ > max_size or long_ > 7.0 * max(short, 1.0):
            continue
        t = math.radians(ang)
        axis = (math.cos(t), math.sin(t)) if rw >= rh else (-math.sin(t), math.cos(t))
        out.append(Glyph(float(cx), float(cy), float(long_ + 1), float(short + 1), axis, float(area), light))
    return out


def _dedupe(glyphs: list[Glyph]) -> list[Glyph]:
    """One glyph where several ink scales found the same blob."""
    kept: list[Glyph] = []
    for g in sorted(glyphs, key=lambda g: -g.area):
        if any(k.light == g.light and math.hypot(k.cx - g.cx, k.cy - g.cy) < 0.2 * k.long
               and 0.75 < g.long / k.long < 1.33 for k in kept):
            continue
        kept.append(g)
    return kept


def find_glyphs(image: U8, min_size: float = 7.0, max_size: float | None = None) -> list[Glyph]:
    """Ink blobs of glyph size in ``image`` (BGR), both dark-on-light and light-on-dark.

    The paper is estimated at a few neighbourhood sizes: a small one keeps glyphs near a card's
    edge apart from the darker table beyond it, a large one fills thick strokes and big pips.
    """
    h, w = image.shape[:2]
    max_size = max_size or 0.22 * min(h, w)
    dark = image.min(axis=2) if image.ndim == 3 else image
    light = 255 - (image.max(axis=2) if image.ndim == 3 else image)
    dark = np.asarray(cv2.medianBlur(np.ascontiguousarray(dark, np.uint8), 3), np.uint8)
    light = np.asarray(cv2.medianBlur(np.ascontiguousarray(light, np.uint8), 3), np.uint8)
    big = int(max(15, min(61, round(0.06 * min(h, w)) | 1)))
    kernels = sorted({k for k in (9, 17, big) if k <= big})
    out: list[Glyph] = []
    for grey, is_light in ((dark, False), (light, True)):
        for kernel in kernels:
            out += _components(_ink(grey, kernel), min_size, min(max_size, 2.5 * kernel), is_light)
    return _dedupe(out)


def _extent(g: Glyph, u: tuple[float, float]) -> float:
    """Half the glyph's extent along direction ``u``."""
    ax, ay = g.axis
    along = abs(ax * u[0] + ay * u[1])
    across = math.sqrt(max(0.0, 1.0 - along * along))
    return 0.5 * (g.long * along + g.short * across)


def propose(glyphs: Sequence[Glyph], max_pairs_per_glyph: int = 6) -> list[IndexProposal]:
    """Oriented index crops from pairs of glyphs and from single glyphs (see the module docstring)."""
    out: list[IndexProposal] = []
    if not glyphs:
        return out
    pts = np.array([[g.cx, g.cy] for g in glyphs])
    for i, a in enumerate(glyphs):
        d = np.hypot(pts[:, 0] - a.cx, pts[:, 1] - a.cy)
        near = np.argsort(d)
        taken = 0
        for j in near[1:]:
            b = glyphs[int(j)]
            if b.light != a.light:
                continue
            dist = float(d[j])
            big = max(a.long, b.long)
            if dist > 1.5 * big:
                break
            if dist < 0.35 * big or big > 3.2 * min(a.long, b.long):
                continue
            taken += 1
            if taken > max_pairs_per_glyph:
                break
            if j < i:
                continue  # each pair once; both directions below
            u = ((b.cx - a.cx) / dist, (b.cy - a.cy) / dist)
            top = dist / 2.0 + _extent(a, u)
            bottom = dist / 2.0 + _extent(b, u)
            span = top + bottom
            mx = (a.cx + b.cx) / 2.0 + u[0] * (bottom - top) / 2.0
            my = (a.cy + b.cy) / 2.0 + u[1] * (bottom - top) / 2.0
            across = 2.0 * max(_extent(a, (-u[1], u[0])), _extent(b, (-u[1], u[0])))
            height = 1.25 * span
            width = max(INDEX_ASPECT * height, 1.3 * across)
            ga = (a.cx, a.cy, 1.15 * max(a.long, 0.5 * across))
            gb = (b.cx, b.cy, 1.15 * max(b.long, 0.5 * across))
            # the rank is printed taller than the suit under it: the taller glyph goes on top
            # (both ways round when they are about the same height)
            ha, hb = 2.0 * _extent(a, u), 2.0 * _extent(b, u)
            if ha >= hb / 1.12:
                out.append(IndexProposal(mx, my, u, height, width, a.light, ga, gb))
            if hb >= ha / 1.12:
                out.append(IndexProposal(mx, my, (-u[0], -u[1]), height, width, a.light, gb, ga))
        if a.long > 1.6 * a.short:  # rank and suit run together, or a long "10"
            height = 1.3 * a.long
            width = max(INDEX_ASPECT * height, 1.3 * a.short)
            quarter = 0.25 * a.long
            size = 0.6 * a.long
            for down in (a.axis, (-a.axis[0], -a.axis[1])):
                upper = (a.cx - down[0] * quarter, a.cy - down[1] * quarter, size)
                lower = (a.cx + down[0] * quarter, a.cy + down[1] * quarter, size)
                out.append(IndexProposal(a.cx, a.cy, down, height, width, a.light, upper, lower))
    return out


class Cropper:
    """Cuts proposals out of one image, shrinking large ones from pre-blurred copies (no aliasing)."""

    SIGMAS = (0.0, 1.0, 2.0, 3.5, 6.0)

    def __init__(self, image: U8) -> None:
        self.image = image
        self._blurred: dict[float, U8] = {0.0: image}

    def at(self, sigma: float) -> U8:
        """The image blurred by the nearest of :attr:`SIGMAS` (made once, on first use)."""
        return self._at(sigma)

    def _at(self, sigma: float) -> U8:
        s = min(self.SIGMAS, key=lambda v: abs(v - sigma))
        if s not in self._blurred:
            self._blurred[s] = np.asarray(cv2.GaussianBlur(self.image, (0, 0), s), np.uint8)
        return self._blurred[s]

    def crop(self, p: IndexProposal) -> U8:
        """The proposal warped upright to :data:`INDEX_CROP`, dark ink on light (light ink inverted)."""
        w, h = INDEX_CROP
        src = p.corners()[:3].astype(np.float32)
        dst = np.array([[0, 0], [w, 0], [w, h]], np.float32) - 0.5
        m = cv2.getAffineTransform(src, dst)
        scale = p.height / h
        img = self._at(0.45 * scale if scale > 1.5 else 0.0)
        crop = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if p.light:
            crop = 255 - crop
        return np.asarray(crop, np.uint8)

    def glyph(self, p: IndexProposal, which: str) -> U8:
        """One of the proposal's glyphs, upright, in a :data:`GLYPH_CROP` square (light ink inverted)."""
        cx, cy, size = p.top if which == "top" else p.bottom
        dx, dy = p.down
        rx, ry = -dy, dx
        half = size / 2.0
        src = np.array([[cx - rx * half - dx * half, cy - ry * half - dy * half],
                        [cx + rx * half - dx * half, cy + ry * half - dy * half],
                        [cx + rx * half + dx * half, cy + ry * half + dy * half]], np.float32)
        n = GLYPH_CROP
        dst = np.array([[0, 0], [n, 0], [n, n]], np.float32) - 0.5
        m = cv2.getAffineTransform(src, dst)
        scale = size / n
        img = self._at(0.45 * scale if scale > 1.5 else 0.0)
        crop = cv2.warpAffine(img, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if p.light:
            crop = 255 - crop
        return np.asarray(crop, np.uint8)
