"""Suit shapes and pip layouts of a real playing card, as geometry the card painter rasterises.

Every shape is described in a unit box (height 1, centred on the origin, ``y`` pointing down as in
an image) as a list of OpenCV primitives (filled polygons and circles), so the painter can draw
it at any size and upside down, exactly as the lower half of a real card carries inverted pips.
Keeping the geometry apart from the colours and the layout of one deck design is what lets four
or more designs share the same, recognisable suit shapes while differing in everything else.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
RED_SUITS: frozenset[str] = frozenset({"H", "D"})
#: Every card of a 52-card pack, suit by suit (the order only matters for listing).
LABELS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


def parse_label(label: str) -> tuple[str, str]:
    """Split ``"10S"`` into ``("10", "S")``; a clear ``ValueError`` for anything that is not a card."""
    if not isinstance(label, str) or len(label) < 2:
        raise ValueError(f"card label {label!r} is not a card; expected rank then suit such as '10S', 'KD', 'AH', '2C'")
    rank, suit = label[:-1].upper(), label[-1].upper()
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(
            f"card label {label!r} is not a card; ranks are {', '.join(RANKS)} and suits S, H, D, C (e.g. '10S', 'KD')"
        )
    return rank, suit


@dataclass(frozen=True)
class Poly:
    """A filled polygon, points in the unit box."""

    points: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Circle:
    """A filled circle in the unit box."""

    cx: float
    cy: float
    r: float


Primitive = Poly | Circle


def _bezier(p0: tuple[float, float], c: tuple[float, float], p1: tuple[float, float], n: int = 14) -> list[tuple[float, float]]:
    """Points along a quadratic Bezier curve; real suit outlines are curves, not straight edges."""
    out = []
    for i in range(n + 1):
        t = i / n
        a, b, d = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        out.append((a * p0[0] + b * c[0] + d * p1[0], a * p0[1] + b * c[1] + d * p1[1]))
    return out


def _heart(scale: float = 1.0, dy: float = 0.0, flip: bool = False) -> list[Primitive]:
    """Two lobes (circles) over a curved point: the heart, or flipped, the body of a spade."""
    sgn = -1.0 if flip else 1.0

    def p(x: float, y: float) -> tuple[float, float]:
        return (x * scale, sgn * y * scale + dy)

    lobe_y, lobe_x, lobe_r = -0.235, 0.245, 0.265
    body = [p(-0.505, -0.2)] + [p(*q) for q in _bezier((-0.505, -0.2), (-0.47, 0.14), (0.0, 0.5))]
    body += [p(*q) for q in _bezier((0.0, 0.5), (0.47, 0.14), (0.505, -0.2))]
    body += [p(lobe_x, lobe_y), p(0.0, -0.18), p(-lobe_x, lobe_y)]
    return [
        Circle(*p(-lobe_x, lobe_y), lobe_r * scale),
        Circle(*p(lobe_x, lobe_y), lobe_r * scale),
        Poly(tuple(body)),
    ]


def _stem(top: float, half_top: float = 0.035, half_foot: float = 0.18) -> Poly:
    """The flared foot of a spade or club, with the concave sides of a printed pip."""
    left = _bezier((-half_top, top), (-half_top * 1.2, 0.42), (-half_foot, 0.5), 10)
    right = _bezier((half_foot, 0.5), (half_top * 1.2, 0.42), (half_top, top), 10)
    return Poly(tuple(left + right))


def suit_primitives(suit: str) -> tuple[Primitive, ...]:
    """The primitives of one suit's pip in the unit box (height 1, ``y`` down, centred)."""
    if suit == "H":
        return tuple(_heart())
    if suit == "S":
        body_scale = 0.78
        return (*_heart(body_scale, dy=-0.5 + 0.5 * body_scale, flip=True), _stem(0.05))
    if suit == "C":
        r = 0.205
        return (
            Circle(0.0, -0.29, r),
            Circle(-0.24, 0.07, r),
            Circle(0.24, 0.07, r),
            Poly(((0.0, -0.2), (-0.2, 0.1), (0.2, 0.1))),
            _stem(0.08),
        )
    if suit == "D":
        half = 0.37
        pts = (
            _bezier((0.0, -0.5), (0.15, -0.22), (half, 0.0), 10)
            + _bezier((half, 0.0), (0.15, 0.22), (0.0, 0.5), 10)[1:]
            + _bezier((0.0, 0.5), (-0.15, 0.22), (-half, 0.0), 10)[1:]
            + _bezier((-half, 0.0), (-0.15, -0.22), (0.0, -0.5), 10)[1:]
        )
        return (Poly(tuple(pts)),)
    raise ValueError(f"unknown suit {suit!r}; suits are S, H, D, C")


#: Pip centres of the number cards, in units of the pip field: x in {-1, 0, 1} (columns), y from
#: -1 (top row) to 1 (bottom row). The classic layouts of an English-pattern deck; a pip below the
#: middle row (y > 0) is printed upside down.
PIP_LAYOUTS: dict[str, tuple[tuple[float, float], ...]] = {
    "2": ((0, -1), (0, 1)),
    "3": ((0, -1), (0, 0), (0, 1)),
    "4": ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    "5": ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    "6": ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    "7": ((-1, -1), (1, -1), (0, -0.5), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    "8": ((-1, -1), (1, -1), (0, -0.5), (-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)),
    "9": ((-1, -1), (1, -1), (-1, -1 / 3), (1, -1 / 3), (0, 0), (-1, 1 / 3), (1, 1 / 3), (-1, 1), (1, 1)),
    "10": (
        (-1, -1), (1, -1), (0, -2 / 3), (-1, -1 / 3), (1, -1 / 3),
        (-1, 1 / 3), (1, 1 / 3), (0, 2 / 3), (-1, 1), (1, 1),
    ),
}

_SHIFT = 4  # sub-pixel bits for cv2 polygon/circle drawing


def draw_suit(mask: np.ndarray, suit: str, cx: float, cy: float, height: float, inverted: bool = False,
              width_factor: float = 1.0) -> None:
    """Fill ``suit``'s pip into the single-channel ``mask`` (255 = ink) at pixel centre (cx, cy).

    ``height`` is the pip's height in pixels, ``inverted`` turns it upside down (the lower half of
    a card), ``width_factor`` lets a design draw slightly narrower or wider pips.
    """
    sign = -1.0 if inverted else 1.0
    mult = float(1 << _SHIFT)
    for prim in suit_primitives(suit):
        if isinstance(prim, Circle):
            centre = (int(round((cx + sign * prim.cx * height * width_factor) * mult)),
                      int(round((cy + sign * prim.cy * height) * mult)))
            radius = int(round(prim.r * height * mult))
            cv2.circle(mask, centre, max(radius, 1), 255, -1, cv2.LINE_8, _SHIFT)
        else:
            pts = np.array(prim.points, dtype=np.float64)
            px = cx + sign * pts[:, 0] * height * width_factor
            py = cy + sign * pts[:, 1] * height
            poly = np.round(np.stack([px, py], axis=1) * mult).astype(np.int32)
            cv2.fillPoly(mask, [poly], 255, cv2.LINE_8, _SHIFT)
