"""A carrom board's printed red circles, and the red queen that may sit on one.

The base circles at the ends of each baseline and the centre circle are red discs the size of a
man. They belong to the background, but the queen is red too: a queen on a circle changes the
colour there only a little, too little for the general foreground test. So each printed circle is
watched on its own:

* the circles' empty look is learned from the board itself: the median colour of the eight base
  circles relative to the cloth around them (a piece rarely sits on a base circle when a video
  starts, and never on most of them);
* a circle is *occupied* when its colour differs from that look by more than ``colour_change`` of
  its brightness, or when a shadow ring (a raised piece's) darkens the cloth around it more
  than the board beyond (a shadow cast from above darkens both).

At the start an occupied circle (the queen on the centre before the break) is painted into the
background as the empty print, so the piece is seen once it moves and no ghost stays behind. A
piece over an occupied circle is found again against the bare board with its print
(:meth:`PrintWatcher.bare`): a man lying half on the red print is otherwise one piece with it.
The empty look is painted at the circle's own size: a larger disc leaves a red ring on the
cloth that joins any piece beside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.vision.video_geometry import StaticDisc

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]


@dataclass(frozen=True)
class PrintParams:
    """* ``colour_change``: relative change of a circle's mean colour (sum of channels, against its
      brightness) that means a piece is on it. Lower finds the queen on a circle under a dim lamp;
      higher ignores lighting drift and compression.
    * ``start_change``: the same on the first frame, against the look learned from the base
      circles (a cleaner reference than a frame-to-frame change). ``break_ring``: pieces packed
      around the centre circle that make it a break set-up (queen on the centre).
    * ``shadow``: brightness ratio of the ring just outside the circle below which a raised piece's
      shadow is taken to be there.
    * ``cast_shadow``: share of the band around a circle (``CAST_BAND``) in shadow from which the
      circle lies in a shadow cast from above and is not judged this frame: a player's arm
      shadow over an empty circle made a "queen" there. Lower ignores the circles more often
      while an arm is near (a queen set down by hand is then seen a moment later); higher lets
      the edge of an arm's shadow through.
    """

    colour_change: float = 0.13
    shadow: float = 0.9
    start_change: float = 0.07
    cast_shadow: float = 0.25
    break_ring: int = 4


_RINGS: dict[tuple[int, int], tuple[NDArray[np.intp], NDArray[np.intp]]] = {}
#: The band, in circle radii, looked at for a shadow cast over a circle from above (see
#: ``PrintParams.cast_shadow``): beyond where a piece's own shadow reaches.
CAST_BAND = (1.9, 2.8)


def _ring(img: F32 | U8, x: float, y: float, r0: float, r1: float) -> NDArray[Any]:
    """The pixels of ``img`` between radii ``r0`` and ``r1`` around (x, y) (those in the image)."""
    key = (int(round(r0 * 8)), int(round(r1 * 8)))
    offs = _RINGS.get(key)
    if offs is None:
        a, b = key[0] / 8.0, key[1] / 8.0
        n = int(math.ceil(b)) + 1
        yy, xx = np.mgrid[-n:n + 1, -n:n + 1]
        d2 = xx * xx + yy * yy
        keep = (d2 >= a * a) & (d2 <= b * b)
        offs = (yy[keep].astype(np.intp), xx[keep].astype(np.intp))
        _RINGS[key] = offs
    h, w = img.shape[:2]
    ys = offs[0] + int(round(y))
    xs = offs[1] + int(round(x))
    ok = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
    return np.asarray(img[ys[ok], xs[ok]])


def _mean(img: F32 | U8, x: float, y: float, r0: float, r1: float) -> NDArray[np.float64]:
    """Mean colour of the pixels between radii ``r0`` and ``r1`` around (x, y)."""
    px = _ring(img, x, y, r0, r1)
    if not len(px):
        return np.zeros(3)
    return np.asarray(px.reshape(-1, 3).mean(axis=0), dtype=np.float64)


def _share(mask: U8, x: float, y: float, r0: float, r1: float, radius: float) -> float:
    """Share of ``mask`` (0/255) set between ``r0`` and ``r1`` radii around (x, y)."""
    px = _ring(mask, x, y, r0 * radius, r1 * radius)
    return float((px > 0).mean()) if len(px) else 0.0


def _disc(mask: U8, pr: StaticDisc) -> None:
    """Fill the printed circle ``pr`` into ``mask`` at its own size, to a sixteenth of a pixel."""
    cv2.circle(mask, (int(round(pr.x * 16)), int(round(pr.y * 16))), int(round(pr.radius * 16)), 255, -1,
               cv2.LINE_8, 4)


class PrintWatcher:
    """Watches the printed circles of a carrom board; see the module docstring."""

    def __init__(self, prints: list[StaticDisc], params: PrintParams | None = None) -> None:
        self.prints = prints
        self.p = params or PrintParams()
        self.reference: NDArray[np.float64] | None = None

    def survey(self, work: U8, cloth: F32, found: Sequence[Any]) -> list[StaticDisc]:
        """Learn the empty look from the first frame and return the circles a piece sits on.

        ``found``: the objects found on the first frame (anything with ``x``, ``y``, ``r``). Pieces
        packed around the centre circle are a board set up for the break, and the rules put the
        queen on the centre then, however close her red is to the print's.
        """
        ratios = self._learn(work, cloth)
        if self.reference is None:
            return []
        occupied = []
        for pr, ratio in zip(self.prints, ratios, strict=True):
            change = float(np.abs(ratio - self.reference).sum() / max(1e-6, float(self.reference.sum())))
            packed = sum(1 for f in found if 1.2 * pr.radius < math.hypot(f.x - pr.x, f.y - pr.y) < 3.0 * f.r)
            if change > self.p.start_change or (pr.name == "centre-circle" and packed >= self.p.break_ring):
                occupied.append(pr)
        return occupied

    def _learn(self, work: U8, cloth: F32) -> list[NDArray[np.float64]]:
        """Each circle's colour relative to the cloth; sets the empty look (their median over
        the base circles) when there are base circles."""
        ratios = []
        for pr in self.prints:
            m = _mean(work, pr.x, pr.y, 0.0, 0.7 * pr.radius)
            c = _mean(cloth, pr.x, pr.y, 0.0, 0.7 * pr.radius)
            ratios.append(m / np.maximum(c, 1.0))
        base = [r for r, pr in zip(ratios, self.prints, strict=True) if pr.name != "centre-circle"]
        if base:
            self.reference = np.median(np.array(base), axis=0)
        return ratios

    def bare(self, work: U8, cloth: F32) -> F32:
        """``cloth`` with every circle drawn in its empty look: the board as it would look bare,
        print included. A piece lying half on a circle is told from the print against this; against
        the plain cloth the two are one larger piece (a white man read as the striker)."""
        if self.reference is None:
            self._learn(work, cloth)
        out = cloth.copy()
        if self.reference is None:
            return out
        empty = (cloth * self.reference.astype(np.float32)[None, None, :]).astype(np.float32)
        mask = np.zeros(work.shape[:2], np.uint8)
        for pr in self.prints:
            _disc(mask, pr)
        cv2.copyTo(empty, mask, out)
        return out

    def paint(self, work: U8, cloth: F32, background: F32, occupied: Sequence[str], objects: U8) -> None:
        """Put every circle's empty look into ``background``: the first frame's own pixels where
        the circle is empty, the learned look (relative to the cloth) where a piece hides it.
        ``objects`` (0/255) marks pieces found beside a circle: their pixels stay painted out,
        but for the circle's own disc, which takes the learned look there."""
        if self.reference is None:
            return
        empty = (cloth * self.reference.astype(np.float32)[None, None, :]).astype(np.float32)
        first = work.astype(np.float32)
        for pr in self.prints:
            mask = np.zeros(work.shape[:2], np.uint8)
            if pr.name in occupied:
                # the learned look at the circle's own size: any larger leaves a red ring on the
                # cloth that joins the piece beside it into one larger piece
                _disc(mask, pr)
                cv2.copyTo(empty, mask, background)
            else:
                cv2.circle(mask, (int(round(pr.x)), int(round(pr.y))), int(math.ceil(pr.radius * 1.1)), 255, -1)
                cv2.copyTo(first, cv2.bitwise_and(mask, cv2.bitwise_not(objects)), background)
                # where a piece beside it hides part of the circle, the learned look: left as the
                # plain cloth, that part of the print is found as a red piece (a crescent of the
                # base circle beside a black man was a queen for the whole clip)
                own = np.zeros(work.shape[:2], np.uint8)
                _disc(own, pr)
                cv2.copyTo(empty, cv2.bitwise_and(own, objects), background)

    def _dimmed(self, work: U8, background: F32, pr: StaticDisc, ring_now: float, ring_was: float) -> bool:
        """Is the darker ring round ``pr`` no darker than the board beyond it (``CAST_BAND``)?
        Then it is the edge of a soft shadow from above (an arm over the centre circle dimmed the
        circle by 12 % and everything round it by 11 %: a "queen" stood there while the arm
        passed), not a raised piece's own shadow, which lies beside the piece on lit board."""
        far_now = _mean(work, pr.x, pr.y, CAST_BAND[0] * pr.radius, CAST_BAND[1] * pr.radius).sum()
        far_was = _mean(background, pr.x, pr.y, CAST_BAND[0] * pr.radius, CAST_BAND[1] * pr.radius).sum()
        lit = min(1.0, float(far_now) / max(1.0, float(far_was)))
        return ring_now >= self.p.shadow * lit * max(1.0, ring_was)

    def occupied(self, work: U8, background: F32, shaded: U8 | None = None) -> list[StaticDisc]:
        """Circles with a piece on them in this frame (compared with the learned background).

        ``shaded`` (0/255): where this frame is only darker or lighter than the background (a
        shadow, no object). A circle with a shadow across the band around it (``cast_shadow``)
        lies in a shadow cast from above, a player's arm or hand: its darker print and darker
        surround are the shadow's, not a piece's (a raised piece's own shadow lies beside it,
        within a radius of its edge)."""
        out = []
        for pr in self.prints:
            now = _mean(work, pr.x, pr.y, 0.0, 0.7 * pr.radius)
            was = _mean(background, pr.x, pr.y, 0.0, 0.7 * pr.radius)
            change = float(np.abs(now - was).sum() / max(1.0, float(was.sum())))
            ring_now = _mean(work, pr.x, pr.y, 1.15 * pr.radius, 1.7 * pr.radius).sum()
            ring_was = _mean(background, pr.x, pr.y, 1.15 * pr.radius, 1.7 * pr.radius).sum()
            shadow = ring_now < self.p.shadow * max(1.0, float(ring_was))
            if not (change > self.p.colour_change or (shadow and change > 0.5 * self.p.colour_change)):
                continue
            if change <= self.p.colour_change and self._dimmed(work, background, pr, float(ring_now), float(ring_was)):
                continue
            # looked at only for a circle that reads occupied (most frames none does)
            if shaded is not None and _share(shaded, pr.x, pr.y, *CAST_BAND, pr.radius) >= self.p.cast_shadow:
                continue
            out.append(pr)
        return out
