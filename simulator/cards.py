"""Playing-card sprites for the card-table renderer: faces and backs of several deck designs.

The renderer composites one sprite per card into every camera frame, so a sprite is an upright
BGRA image of a poker-size card (63 x 88 mm) at the renderer's scale, alpha 0 outside the rounded
corners, cached per (label, design, scale, side). Real venues use different decks, and a detector
trained on one look fails on the next, so :data:`DESIGNS` holds decks that differ the way real
ones do: face tint, ink colours (one four-colour deck), index size, font, weight and position, two
or four corner indices, a border line or none, court panels and back patterns. Nothing here is
an unrealistic marking: what a detector can learn is what a real card shows.

Everything is drawn with OpenCV primitives and Hershey fonts (no font files, nothing
downloaded), at a supersampled resolution and reduced with area averaging, so edges are
anti-aliased the way a camera sees them. The suit geometry lives in ``card_shapes.py``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from tableref.simulator.card_shapes import (
    LABELS,
    PIP_LAYOUTS,
    RANKS,
    RED_SUITS,
    SUITS,
    draw_suit,
    parse_label,
)

__all__ = [
    "CARD_H_MM",
    "CARD_W_MM",
    "DESIGNS",
    "LABELS",
    "RANKS",
    "SUITS",
    "CardDesign",
    "card_corners_mm",
    "card_sprite",
    "design_for_seed",
    "parse_label",
]

CARD_W_MM = 63.0
CARD_H_MM = 88.0

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class CardDesign:
    """One deck's look. Sizes are millimetres on the card; colours are BGR.

    ``ink_*`` are the suit colours (a four-colour deck prints diamonds blue and clubs green);
    ``index_*`` place the corner index: ``index_x`` is the centre of the index column from the
    card's left edge, ``index_top`` the top of the rank from the top edge, ``index_height`` the
    rank's height, ``index_pip`` the small suit under it. ``font`` is a Hershey font id, its stroke
    ``index_weight`` in mm. ``four_index`` prints the index in all four corners (many casino decks)
    instead of top-left and bottom-right only. ``border`` is an inset frame line, None for none.
    """

    name: str
    face: BGR
    ink_spades: BGR
    ink_hearts: BGR
    ink_diamonds: BGR
    ink_clubs: BGR
    font: int
    index_height: float
    index_weight: float
    index_x: float
    index_top: float
    index_pip: float
    index_gap: float
    four_index: bool
    pip_height: float
    pip_columns: float  # half distance between the outer pip columns
    pip_rows: float  # half distance between the top and bottom pip rows
    pip_width: float  # width factor of the pips
    ace_height: float
    border: BGR | None
    border_inset: float
    corner_radius: float
    court_colours: tuple[BGR, BGR, BGR]  # robe, trim, lining: the printed colours of the court cards
    court_font: int
    back_pattern: str  # lattice, diamonds, dots, rings, stripes
    back_colours: tuple[BGR, BGR]  # ground and pattern
    back_margin: float

    def ink(self, suit: str) -> BGR:
        return {"S": self.ink_spades, "H": self.ink_hearts, "D": self.ink_diamonds, "C": self.ink_clubs}[suit]


_RED = (38, 30, 200)
_BLACK = (28, 24, 22)

DESIGNS: tuple[CardDesign, ...] = (
    CardDesign(
        name="classic", face=(246, 248, 250), ink_spades=_BLACK, ink_hearts=_RED, ink_diamonds=_RED,
        ink_clubs=_BLACK, font=cv2.FONT_HERSHEY_SIMPLEX, index_height=6.6, index_weight=0.75, index_x=5.2,
        index_top=3.6, index_pip=4.4, index_gap=1.2, four_index=False, pip_height=11.0, pip_columns=14.0,
        pip_rows=28.0, pip_width=1.0, ace_height=24.0, border=None, border_inset=0.0, corner_radius=3.2,
        court_colours=((40, 40, 190), (40, 175, 230), (150, 80, 30)), court_font=cv2.FONT_HERSHEY_TRIPLEX,
        back_pattern="lattice", back_colours=((40, 35, 170), (215, 215, 240)), back_margin=4.0,
    ),
    CardDesign(
        name="casino-jumbo", face=(252, 252, 252), ink_spades=(15, 15, 15), ink_hearts=(30, 20, 215),
        ink_diamonds=(30, 20, 215), ink_clubs=(15, 15, 15), font=cv2.FONT_HERSHEY_DUPLEX, index_height=10.5,
        index_weight=1.25, index_x=6.6, index_top=3.0, index_pip=5.6, index_gap=1.0, four_index=True,
        pip_height=9.5, pip_columns=12.5, pip_rows=25.0, pip_width=1.05, ace_height=20.0, border=None,
        border_inset=0.0, corner_radius=3.5,
        court_colours=((35, 30, 200), (30, 200, 235), (160, 90, 20)), court_font=cv2.FONT_HERSHEY_DUPLEX,
        back_pattern="diamonds", back_colours=((150, 70, 20), (235, 225, 215)), back_margin=3.0,
    ),
    CardDesign(
        name="vintage", face=(200, 228, 238), ink_spades=(35, 40, 45), ink_hearts=(40, 40, 165),
        ink_diamonds=(40, 40, 165), ink_clubs=(35, 40, 45), font=cv2.FONT_HERSHEY_TRIPLEX, index_height=5.4,
        index_weight=0.55, index_x=4.6, index_top=4.2, index_pip=3.6, index_gap=1.4, four_index=False,
        pip_height=12.0, pip_columns=13.5, pip_rows=29.0, pip_width=0.95, ace_height=27.0,
        border=(90, 110, 120), border_inset=2.2, corner_radius=2.8,
        court_colours=((50, 60, 150), (60, 160, 200), (90, 90, 40)), court_font=cv2.FONT_HERSHEY_COMPLEX,
        back_pattern="rings", back_colours=((50, 95, 35), (170, 210, 190)), back_margin=4.5,
    ),
    CardDesign(
        name="four-colour", face=(244, 246, 246), ink_spades=(20, 20, 20), ink_hearts=(35, 35, 205),
        ink_diamonds=(175, 80, 20), ink_clubs=(40, 130, 30), font=cv2.FONT_HERSHEY_PLAIN, index_height=7.4,
        index_weight=0.9, index_x=5.6, index_top=4.4, index_pip=4.6, index_gap=1.5, four_index=False,
        pip_height=10.5, pip_columns=14.5, pip_rows=27.5, pip_width=1.0, ace_height=22.0, border=None,
        border_inset=0.0, corner_radius=3.2,
        court_colours=((40, 40, 190), (50, 190, 220), (120, 60, 40)), court_font=cv2.FONT_HERSHEY_SIMPLEX,
        back_pattern="dots", back_colours=((50, 45, 40), (150, 150, 150)), back_margin=3.5,
    ),
    CardDesign(
        name="club-bridge", face=(236, 242, 245), ink_spades=(40, 30, 25), ink_hearts=(45, 25, 180),
        ink_diamonds=(45, 25, 180), ink_clubs=(40, 30, 25), font=cv2.FONT_HERSHEY_COMPLEX, index_height=6.0,
        index_weight=0.65, index_x=4.9, index_top=3.4, index_pip=4.0, index_gap=1.0, four_index=True,
        pip_height=10.0, pip_columns=13.0, pip_rows=27.0, pip_width=0.92, ace_height=26.0,
        border=(140, 90, 40), border_inset=1.6, corner_radius=3.0,
        court_colours=((60, 50, 170), (70, 185, 215), (130, 70, 40)), court_font=cv2.FONT_HERSHEY_COMPLEX,
        back_pattern="stripes", back_colours=((100, 40, 25), (200, 170, 150)), back_margin=3.2,
    ),
)


def design_for_seed(seed: int) -> CardDesign:
    """The deck a clip of ``seed`` uses: consecutive seeds walk through every design."""
    return DESIGNS[int(seed) % len(DESIGNS)]


def card_corners_mm(x: float, y: float, angle: float) -> tuple[tuple[float, float], ...]:
    """Table points (mm) of a card's sprite corners: top-left, top-right, bottom-right, bottom-left.

    ``angle`` is the card's rotation in degrees, anticlockwise as seen from above with the table's
    ``y`` axis down the image (the simulator's convention); 0 is upright for the south player. A
    renderer maps these four points through its homography and warps the sprite onto them, so it
    needs no angle convention of its own.
    """
    t = math.radians(angle)
    up = (-math.sin(t), -math.cos(t))
    right = (math.cos(t), -math.sin(t))
    hw, hh = CARD_W_MM / 2.0, CARD_H_MM / 2.0

    def p(a: float, b: float) -> tuple[float, float]:
        return (x + up[0] * a + right[0] * b, y + up[1] * a + right[1] * b)

    return (p(hh, -hw), p(hh, hw), p(-hh, hw), p(-hh, -hw))


def design_named(name: str) -> CardDesign:
    for d in DESIGNS:
        if d.name == name:
            return d
    raise ValueError(f"unknown card design {name!r}; designs are {', '.join(d.name for d in DESIGNS)}")


# --------------------------------------------------------------------------------------------
# painting


class _Canvas:
    """A supersampled card-sized BGR canvas with millimetre coordinates."""

    def __init__(self, w_px: int, h_px: int, ss: int, ground: BGR) -> None:
        self.ss = ss
        self.w, self.h = w_px * ss, h_px * ss
        self.sx, self.sy = self.w / CARD_W_MM, self.h / CARD_H_MM
        self.scale = 0.5 * (self.sx + self.sy)
        self.img = np.empty((self.h, self.w, 3), np.uint8)
        self.img[:] = ground

    def px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return x_mm * self.sx, y_mm * self.sy

    def mask(self) -> np.ndarray:
        return np.zeros((self.h, self.w), np.uint8)

    def paint(self, mask: np.ndarray, colour: BGR) -> None:
        self.img[mask > 0] = colour

    def rounded_rect_mask(self, inset_mm: float, radius_mm: float) -> np.ndarray:
        """255 inside the card outline inset by ``inset_mm``, with corners of ``radius_mm``.

        Computed from pixel centres rather than drawn, so all four corners are exactly alike.
        """
        x0, y0 = self.px(inset_mm, inset_mm)
        x1, y1 = self.px(CARD_W_MM - inset_mm, CARD_H_MM - inset_mm)
        r = max(radius_mm * self.scale, 1.0)
        xs = np.arange(self.w, dtype=np.float64) + 0.5
        ys = np.arange(self.h, dtype=np.float64) + 0.5
        dx = np.maximum(np.maximum(x0 + r - xs, xs - (x1 - r)), 0.0)
        dy = np.maximum(np.maximum(y0 + r - ys, ys - (y1 - r)), 0.0)
        inside = (dx[None, :] ** 2 + dy[:, None] ** 2 <= r * r)
        inside &= (xs[None, :] >= x0) & (xs[None, :] <= x1) & (ys[:, None] >= y0) & (ys[:, None] <= y1)
        return np.where(inside, np.uint8(255), np.uint8(0))


def _text_mask(text: str, font: int, height_px: float, weight_px: float, max_width_px: float | None = None) -> np.ndarray:
    """The ink of ``text`` in a Hershey font, cropped to its ink and sized to ``height_px`` tall.

    Hershey glyphs differ in height per font; measuring the ink and resizing gives every design
    the index size it asks for, while the font and the stroke weight keep their own character.
    A too-wide rank ("10" in a narrow index column) is condensed, as printers do.
    """
    probe_scale = max(height_px / 22.0, 0.2)
    thick = max(1, int(round(weight_px)))
    (tw, th), base = cv2.getTextSize(text, font, probe_scale, thick)
    pad = thick + 4
    patch = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(patch, text, (pad, pad + th), font, probe_scale, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(patch > 40)
    if len(xs) == 0:
        return np.zeros((max(1, int(height_px)), 1), np.uint8)
    crop = patch[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    h = max(1, int(round(height_px)))
    w = max(1, int(round(crop.shape[1] * h / crop.shape[0])))
    if max_width_px is not None and w > max_width_px:
        w = max(1, int(round(max_width_px)))
    return cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA if h < crop.shape[0] else cv2.INTER_LINEAR)


def _stamp(mask: np.ndarray, patch: np.ndarray, x: float, y: float, rotate180: bool = False) -> None:
    """OR ``patch`` into ``mask`` with its top-left at pixel (x, y), clipped to the mask."""
    if rotate180:
        patch = patch[::-1, ::-1]
    h, w = patch.shape
    xi, yi = int(round(x)), int(round(y))
    x0, y0 = max(xi, 0), max(yi, 0)
    x1, y1 = min(xi + w, mask.shape[1]), min(yi + h, mask.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    region = mask[y0:y1, x0:x1]
    np.maximum(region, patch[y0 - yi: y1 - yi, x0 - xi: x1 - xi], out=region)


def _index_patch(c: _Canvas, d: CardDesign, rank: str, suit: str) -> tuple[np.ndarray, float]:
    """The corner index (rank over a small suit) as one ink patch, and its column centre offset."""
    rank_h = d.index_height * c.sy
    col_w = 2.0 * (d.index_x - 1.2) * c.sx if rank != "10" else 2.0 * (d.index_x - 0.6) * c.sx
    text = _text_mask(rank, d.font, rank_h, d.index_weight * c.scale, max_width_px=col_w)
    pip_h = d.index_pip * c.sy
    gap = d.index_gap * c.sy
    width = int(math.ceil(max(text.shape[1], pip_h * 0.95 * d.pip_width) + 2))
    height = int(math.ceil(text.shape[0] + gap + pip_h + 2))
    patch = np.zeros((height, width), np.uint8)
    _stamp(patch, text, (width - text.shape[1]) / 2.0, 0)
    draw_suit(patch, suit, width / 2.0, text.shape[0] + gap + pip_h / 2.0, pip_h, width_factor=d.pip_width)
    return patch, width / 2.0


def _draw_indices(c: _Canvas, d: CardDesign, rank: str, suit: str) -> None:
    patch, half_w = _index_patch(c, d, rank, suit)
    m = c.mask()
    cx = d.index_x * c.sx
    top = d.index_top * c.sy
    ph, pw = patch.shape
    _stamp(m, patch, cx - half_w, top)
    _stamp(m, patch, c.w - cx - (pw - half_w), c.h - top - ph, rotate180=True)
    if d.four_index:
        _stamp(m, patch, c.w - cx - half_w, top)
        _stamp(m, patch, cx - (pw - half_w), c.h - top - ph, rotate180=True)
    c.paint(m, d.ink(suit))


def _draw_pips(c: _Canvas, d: CardDesign, rank: str, suit: str) -> None:
    m = c.mask()
    cx, cy = c.px(CARD_W_MM / 2, CARD_H_MM / 2)
    if rank == "A":
        h = d.ace_height * (1.3 if suit == "S" else 1.0)  # the ace of spades is printed large
        draw_suit(m, suit, cx, cy, h * c.sy, width_factor=d.pip_width)
        c.paint(m, d.ink(suit))
        if suit == "S":  # and ornamented: a thin ring around it
            ring = c.mask()
            axes = (int(round(h * 0.62 * c.sx)), int(round(h * 0.66 * c.sy)))
            cv2.ellipse(ring, (int(round(cx)), int(round(cy))), axes, 0, 0, 360, 255,
                        max(1, int(round(0.35 * c.scale))), cv2.LINE_8)
            c.paint(ring, d.ink(suit))
        return
    for ux, uy in PIP_LAYOUTS[rank]:
        px = cx + ux * d.pip_columns * c.sx
        py = cy + uy * d.pip_rows * c.sy
        draw_suit(m, suit, px, py, d.pip_height * c.sy, inverted=uy > 0, width_factor=d.pip_width)
    c.paint(m, d.ink(suit))


def _court_half(c: _Canvas, d: CardDesign, rank: str, suit: str, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """One half of a double-headed court panel: a stylised figure, the rank letter and a pip.

    Returns the half's colours and its ink mask (what was painted). The lower half of the card is
    this half turned through 180 degrees, as on a printed court card.
    """
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = d.face
    robe, trim, lining = d.court_colours
    if rank == "Q":  # each court wears its own colours, as on a printed deck
        robe, lining = lining, robe
    elif rank == "J":
        robe, trim = trim, robe
    ink = d.ink(suit)
    s = c.scale
    fx = w * 0.62  # the figure stands right of centre, leaving room for the letter
    head_y = h * 0.38
    head_r = max(2, int(round(4.6 * s)))
    # robe: shoulders sloping down to the panel's middle line
    shoulders = np.array([[fx - 13 * s, h], [fx - 12 * s, head_y + 7 * s], [fx - 4 * s, head_y + 4 * s],
                          [fx + 4 * s, head_y + 4 * s], [fx + 12 * s, head_y + 7 * s], [fx + 13 * s, h]], np.int32)
    cv2.fillPoly(img, [shoulders], robe)
    cv2.fillPoly(img, [np.array([[fx - 3 * s, head_y + 4 * s], [fx + 3 * s, head_y + 4 * s],
                                 [fx + 6 * s, h], [fx - 6 * s, h]], np.int32)], lining)
    for k in range(3):  # trim bands across the robe
        y = int(round(head_y + (10 + 5 * k) * s))
        cv2.line(img, (int(fx - 12.5 * s), y), (int(fx + 12.5 * s), y), trim, max(1, int(round(1.1 * s))))
    cv2.ellipse(img, (int(round(fx)), int(round(head_y))), (head_r, int(round(head_r * 1.15))), 0, 0, 360,
                (170, 200, 235), -1)
    cv2.ellipse(img, (int(round(fx)), int(round(head_y))), (head_r, int(round(head_r * 1.15))), 0, 0, 360,
                ink, max(1, int(round(0.3 * s))))
    crown_base = head_y - head_r * 1.05
    if rank == "K":
        pts = [[fx - 5 * s, crown_base], [fx - 5.5 * s, crown_base - 6 * s], [fx - 2.5 * s, crown_base - 3 * s],
               [fx, crown_base - 7 * s], [fx + 2.5 * s, crown_base - 3 * s], [fx + 5.5 * s, crown_base - 6 * s],
               [fx + 5 * s, crown_base]]
        cv2.fillPoly(img, [np.array(pts, np.int32)], trim)
    elif rank == "Q":
        cv2.ellipse(img, (int(fx), int(crown_base)), (int(5.2 * s), int(3.2 * s)), 0, 180, 360, trim, -1)
        for dx in (-3.5, 0.0, 3.5):
            cv2.circle(img, (int(fx + dx * s), int(crown_base - 3.4 * s)), max(1, int(1.1 * s)), lining, -1)
    else:  # the jack's cap with a feather
        cv2.fillPoly(img, [np.array([[fx - 5.5 * s, crown_base + 1 * s], [fx + 5.5 * s, crown_base + 1 * s],
                                     [fx + 3 * s, crown_base - 3.5 * s], [fx - 4 * s, crown_base - 3 * s]],
                                    np.int32)], lining)
        cv2.ellipse(img, (int(fx + 5 * s), int(crown_base - 4 * s)), (int(1.3 * s), int(4 * s)), 30, 0, 360, trim, -1)
    letter = _text_mask(rank, d.court_font, 9.0 * c.sy, 0.9 * s)
    lm = np.zeros((h, w), np.uint8)
    _stamp(lm, letter, 1.6 * s, 1.6 * s)
    draw_suit(lm, suit, 1.6 * s + letter.shape[1] / 2.0, 1.6 * s + letter.shape[0] + 4.2 * s, 5.5 * c.sy,
              width_factor=d.pip_width)
    img[lm > 0] = ink
    return img, np.full((h, w), 255, np.uint8)


def _draw_court(c: _Canvas, d: CardDesign, rank: str, suit: str) -> None:
    x0 = int(round((d.index_x + 6.2 + (1.5 if d.index_height > 9 else 0.0)) * c.sx))
    x1 = c.w - x0
    y0 = int(round((d.index_top + 4.0) * c.sy))
    y1 = c.h - y0
    mid = (y0 + y1) // 2
    half, _ = _court_half(c, d, rank, suit, x1 - x0, mid - y0)
    c.img[y0:mid, x0:x1] = half
    c.img[mid: mid + (mid - y0), x0:x1] = half[::-1, ::-1]
    frame = max(1, int(round(0.45 * c.scale)))
    cv2.rectangle(c.img, (x0, y0), (x1 - 1, y0 + 2 * (mid - y0) - 1), d.ink(suit), frame)
    cv2.line(c.img, (x0, mid), (x1 - 1, mid), d.ink(suit), max(1, frame // 2))


def _draw_back(c: _Canvas, d: CardDesign) -> None:
    ground, pattern = d.back_colours
    field = np.empty_like(c.img)
    field[:] = ground
    s = c.scale
    lw = max(1, int(round(0.35 * s)))
    if d.back_pattern == "lattice":
        step = 3.0 * s
        span = c.w + c.h
        for k in range(int(-span / step), int(span / step) + 1):
            o = k * step
            cv2.line(field, (int(o), 0), (int(o + c.h), c.h), pattern, lw)
            cv2.line(field, (int(o), c.h), (int(o + c.h), 0), pattern, lw)
    elif d.back_pattern == "diamonds":
        step_x, step_y = 5.0 * s, 7.0 * s
        for j in range(int(c.h / step_y) + 2):
            for i in range(int(c.w / step_x) + 2):
                x = i * step_x + (step_x / 2 if j % 2 else 0.0)
                y = j * step_y
                pts = np.array([[x, y - step_y * 0.4], [x + step_x * 0.32, y], [x, y + step_y * 0.4],
                                [x - step_x * 0.32, y]], np.int32)
                cv2.fillPoly(field, [pts], pattern)
    elif d.back_pattern == "dots":
        step = 3.4 * s
        r = max(1, int(round(0.9 * s)))
        for j in range(int(c.h / step) + 2):
            for i in range(int(c.w / step) + 2):
                cv2.circle(field, (int(i * step + (step / 2 if j % 2 else 0)), int(j * step * 0.87)), r, pattern, -1)
    elif d.back_pattern == "rings":
        centre = (c.w // 2, c.h // 2)
        for k in range(1, 40):
            ax = (int(k * 2.2 * s), int(k * 2.2 * s * 1.25))
            cv2.ellipse(field, centre, ax, 0, 0, 360, pattern, lw)
        for corner in ((0, 0), (c.w, 0), (0, c.h), (c.w, c.h)):
            for k in range(1, 6):
                cv2.circle(field, corner, int(k * 2.4 * s), pattern, lw)
    elif d.back_pattern == "stripes":
        step = 2.4 * s
        for k in range(int(-(c.w + c.h) / step), int((c.w + c.h) / step) + 1):
            o = k * step
            cv2.line(field, (int(o), 0), (int(o + c.h * 0.6), c.h), pattern, max(1, int(round(0.8 * s))))
    else:
        raise ValueError(f"design {d.name!r} has an unknown back pattern {d.back_pattern!r}")
    inner = c.rounded_rect_mask(d.back_margin, max(d.corner_radius - d.back_margin * 0.5, 1.0))
    c.img[inner > 0] = field[inner > 0]
    edge = c.rounded_rect_mask(d.back_margin, max(d.corner_radius - d.back_margin * 0.5, 1.0))
    contours, _ = cv2.findContours(edge, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(c.img, contours, -1, pattern, max(1, int(round(0.5 * s))))


def _supersample(px_per_mm: float) -> int:
    """Draw at >= ~10 px/mm (at most 4x) so small sprites still get smooth, anti-aliased edges."""
    return int(min(4, max(1, math.ceil(10.0 / px_per_mm))))


@functools.lru_cache(maxsize=1024)
def _render(label: str | None, design: CardDesign, px_per_mm: float, face_up: bool) -> np.ndarray:
    w_px = max(2, int(round(CARD_W_MM * px_per_mm)))
    h_px = max(2, int(round(CARD_H_MM * px_per_mm)))
    ss = _supersample(px_per_mm)
    c = _Canvas(w_px, h_px, ss, design.face)
    if face_up:
        assert label is not None
        rank, suit = parse_label(label)
        if design.border is not None:
            bm = c.rounded_rect_mask(design.border_inset, max(design.corner_radius - design.border_inset, 0.8))
            contours, _ = cv2.findContours(bm, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            cv2.drawContours(c.img, contours, -1, design.border, max(1, int(round(0.3 * c.scale))))
        if rank in ("J", "Q", "K"):
            _draw_court(c, design, rank, suit)
        else:
            _draw_pips(c, design, rank, suit)
        _draw_indices(c, design, rank, suit)
    else:
        _draw_back(c, design)
    alpha = c.rounded_rect_mask(0.0, design.corner_radius)
    colour = cv2.resize(c.img, (w_px, h_px), interpolation=cv2.INTER_AREA) if ss > 1 else c.img
    a = cv2.resize(alpha, (w_px, h_px), interpolation=cv2.INTER_AREA) if ss > 1 else alpha
    out = np.dstack([colour, a]).astype(np.uint8)
    out[a == 0, :3] = 0
    out.flags.writeable = False
    return out


def card_sprite(label: str | None, design: CardDesign, px_per_mm: float, face_up: bool = True) -> np.ndarray:
    """One card as an upright BGRA ``uint8`` image, ``round(88 * s)`` rows by ``round(63 * s)`` columns.

    ``label`` is rank then suit (``"10S"``, ``"KD"``, ``"AH"``, ``"2C"``); it may be None only for a
    face-down card, whose image is the design's back (the same for every card of the deck).
    ``px_per_mm`` is the scale ``s``. Alpha is 255 on the card, 0 outside its rounded corners and
    partial along the anti-aliased edge. The result is cached and read-only: copy it before
    drawing on it.
    """
    if not (isinstance(px_per_mm, int | float) and math.isfinite(px_per_mm) and px_per_mm > 0):
        raise ValueError(f"px_per_mm must be a positive number of pixels per millimetre, got {px_per_mm!r}")
    if px_per_mm > 40:
        raise ValueError(f"px_per_mm {px_per_mm} is too large (a card would be over 3500 px tall); use at most 40")
    if face_up:
        if label is None:
            raise ValueError("a face-up card needs its label (rank then suit, such as '10S'); None is only for face down")
        rank, suit = parse_label(label)
        return _render(rank + suit, design, float(px_per_mm), True)
    if label is not None:
        parse_label(label)  # a wrong label is still an error, even though the back hides it
    return _render(None, design, float(px_per_mm), False)


def is_red(suit: str) -> bool:
    """Hearts and diamonds are the red suits (a four-colour deck prints diamonds blue)."""
    return suit in RED_SUITS

