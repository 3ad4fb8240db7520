"""Balls of the cloth's own colour, told by the colour of their whole disc.

A blue 2 on a tournament-blue cloth, a green 6 on green: pixel by pixel such a ball differs from
the cloth by about as much as a shadow's tint does, so the foreground test (which must let shadows
through) sees only its number and highlight, and its outline is too weak for the Hough votes a
faint circle needs elsewhere. Missed on the first frame, the ball is learned into the background
and stays unseen until it moves; missed at rest later, it is reported removed.

Its *disc*, taken whole, tells it apart all the same: the median colour inside 0.7 radii differs
in hue from the median of the ring just outside (1.3 to 1.7 radii), once their brightness is
equalised. Medians ignore the number, the highlight and the ball's own shadow on one side of the
ring. Brightness alone decides nothing, because a shadow changes brightness and only that; it
only refuses a disc far darker than its ring (a hole's mouth). A circle is judged so only where a
ball is already likely:

* on the first frame, at the best weak circles of every ball-sized piece of change from the empty
  table that no found object explains (*seek*);
* later, where an object at rest or rolling slowly was seen in the last few frames, or lies
  hidden under an arm, and no circle explains it now (*keep*).

Over the 160 pool clips of seeds 1601-2202 the first frame's candidates on real balls had a
median-colour difference of 12 to 43 (sum of the three 0-255 channels), those on shadows and bare
cloth at most 8.4; carrom candidates reached at most 6.8, bar-billiards ones up to 216 on the
pins' feet and 15 beside them (which is why the table's fixed features are left out). The limit
also rises with the ring's own spread, for a cloth with texture.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from .video_balls import Circle, ObjectFinder, annulus_offsets, sample_mask

U8 = NDArray[np.uint8]


@dataclass(frozen=True)
class TintParams:
    """When a weak circle is taken for a ball by the colour of its disc.

    * ``votes``: Hough votes (per pixel of radius) the circle needs at least on the first frame;
      ``keep_votes`` where an object was seen a moment ago. The disc test does the rest. Lower
      looks at more circles (each costs a median of about two hundred pixels); the blue 2 of Up
      and Down seed 2101, rolling slowly, showed 0.45 through the codec.
    * ``chroma``: the least difference (sum over the channels of |disc - k ring|, k equalising
      their brightness) between the disc's median colour and its ring's; ``spread``: and at least
      this many times the ring's own median spread. Lower finds balls nearer the cloth's hue,
      and takes more stains and tinted shadows for balls.
    * ``most``: the most hue difference, as a share of the disc's brightness (its channels' sum
      plus 30): a disc differing by more than a shadow's tint (``ForegroundParams.shadow_tint``,
      0.25 a pixel) is plain foreground, and the ordinary finder sees a ball there. Missed by it
      and still this different, it is something else: a cue's tip where the cue ball was struck
      too fast to leave a smear (Colors seed 1602, break: 0.6). The real balls judged here read
      0.03 to 0.25 on the first frame, a blue 2 rolling with its number up about 0.28.
    * ``darkest``: the least brightness of the disc's median against its ring's. A ball of the
      cloth's colour is lit like the cloth or brighter (glossy, its number turned up: the blue 2
      of Up and Down seed 2101 rolling read 1.3 to 2.0); a hole or a pocket's mouth is far darker.
    * ``piece``: the sizes, in ball discs, of a piece of change searched on the first frame.
    * ``per_piece``: how many of a piece's strongest circles are judged.
    """

    votes: float = 0.5
    keep_votes: float = 0.3
    chroma: float = 15.0
    spread: float = 1.5
    most: float = 0.35
    darkest: float = 0.6
    piece: tuple[float, float] = (0.2, 6.0)
    per_piece: int = 3


class DiscLook(NamedTuple):
    """A disc against the ring around it (see the module docstring)."""

    chroma: float  # sum over the channels of |disc - k ring|, medians, k equalising brightness
    spread: float  # the ring's own median spread about its median (sum over the channels)
    ratio: float  # k: the disc's median brightness over the ring's
    brightness: float  # the disc's median, summed over the channels


def disc_contrast(image: U8, fx: float, fy: float, rf: float) -> DiscLook:
    """The disc of radius ``rf`` full-resolution pixels at (``fx``, ``fy``) against its ring."""
    h, w = image.shape[:2]
    x0, x1 = max(0, int(fx - 1.8 * rf)), min(w, int(math.ceil(fx + 1.8 * rf)) + 1)
    y0, y1 = max(0, int(fy - 1.8 * rf)), min(h, int(math.ceil(fy + 1.8 * rf)) + 1)
    if x1 <= x0 or y1 <= y0:
        return DiscLook(0.0, 0.0, 1.0, 0.0)
    roi = image[y0:y1, x0:x1].astype(np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    d = np.hypot(xx - fx, yy - fy) / max(rf, 1e-6)
    disc, ring = roi[d < 0.7], roi[(d > 1.3) & (d < 1.7)]
    if len(disc) < 5 or len(ring) < 10:
        return DiscLook(0.0, 0.0, 1.0, 0.0)
    md, mr = np.median(disc, axis=0), np.median(ring, axis=0)
    k = (float(md.sum()) + 3.0) / (float(mr.sum()) + 3.0)
    return DiscLook(float(np.abs(md - k * mr).sum()), float(np.median(np.abs(ring - mr).sum(axis=1))), k,
                    float(md.sum()))


def tinted(finder: ObjectFinder, image: U8, mask: U8, changed: U8, circles: Sequence[Circle],
           keep: Sequence[tuple[float, float, float]] = (), seek: bool = False,
           params: TintParams | None = None, fixed: Sequence[tuple[float, float, float]] = (),
           masses: U8 | None = None) -> list[Circle]:
    """Balls of the cloth's colour that ``circles`` (work px) leave out: within ``keep``'s reach
    (x, y, reach: where an object seen a moment ago should be now) and, with ``seek``, in pieces
    of ``changed`` (0/255, work px).

    None is kept that the join test (:meth:`ObjectFinder.beside_masses`, on ``masses``, else
    ``changed``) puts beside a mass of change nothing explains: a disc this weak beside a hand
    is as likely a fingertip as a ball.

    Like any circle of a crowded piece, one judged by its disc must explain its surroundings: a
    ring of foreground that no found object accounts for (``CircleParams.max_unexplained``) is
    a hand or an arm round a knuckle, whose disc differs from its ring as much as any ball's.

    ``fixed`` (x, y, radius; work px): the table's own features (holes, pins, printed circles).
    They differ from the cloth by design, so no circle touching one is judged by its disc: a
    pin's foot read so on the first frame was a white ball that later "dropped" into the hole
    beside it (bar billiards, seeds 1902 and 2101)."""
    p = params or TintParams()
    h, w = changed.shape[:2]
    s, bx, by = finder.scale, finder.box[0], finder.box[1]
    found = list(circles)
    out: list[Circle] = []

    def free(x: float, y: float, r: float) -> bool:
        return not any(math.hypot(c.x - x, c.y - y) < 0.8 * (r + c.r * c.size) for c in found + out) \
            and not any(math.hypot(fx - x, fy - y) < fr + r for fx, fy, fr in fixed)

    def alone(x: float, y: float, r: float) -> bool:
        ring = annulus_offsets(finder.p.ring_in * r, finder.p.ring_out * r)
        fg = sample_mask(mask, y, x, ring)
        px, py = ring[1] + x, ring[0] + y
        for c in found + out:
            fg &= (px - c.x) ** 2 + (py - c.y) ** 2 > (1.1 * c.r * c.size) ** 2
        return float(fg.mean()) <= finder.p.max_unexplained

    def judge(cands: list[tuple[float, float, float]], r: float) -> None:
        best: tuple[float, float, float] | None = None
        for x, y, _ in cands[:p.per_piece]:
            if not finder._may_centre(x, y) or not free(x, y, r) or not alone(x, y, r):
                continue
            look = disc_contrast(image, (x + 0.5) / s - 0.5 + bx, (y + 0.5) / s - 0.5 + by, r / s)
            if max(p.chroma, p.spread * look.spread) <= look.chroma <= p.most * (look.brightness + 30.0) \
                    and look.ratio >= p.darkest and (best is None or look.chroma > best[2]):
                best = (x, y, look.chroma)
        if best is not None:
            x, y = best[0], best[1]
            cover = float(sample_mask(changed, y, x, annulus_offsets(0.0, 0.85 * r)).mean())
            out.append(Circle(x, y, r, 1.0, cover, 0.0, "crowd"))

    for kx, ky, reach in keep:
        r = finder.radius_at(kx, ky)
        if not free(kx, ky, r):
            continue
        g = int(math.ceil(0.45 * r + reach))
        x0, y0 = max(0, int(kx) - g), max(0, int(ky) - g)
        x1, y1 = min(w, int(kx) + g + 1), min(h, int(ky) + g + 1)
        if x1 <= x0 or y1 <= y0:
            continue
        got = finder._hough(image, np.ones((y1 - y0, x1 - x0), dtype=bool), x0, y0, r, min_votes=p.keep_votes)
        judge([c for c in got if math.hypot(c[0] - kx, c[1] - ky) < reach], r)
    if seek:
        n, labels, stats, cents = cv2.connectedComponentsWithStats(changed, connectivity=8)
        for i in range(1, n):
            x0, y0, bw, bh, area = (int(v) for v in stats[i])
            r = finder.radius_at(float(cents[i][0]), float(cents[i][1]))
            disc = math.pi * r * r
            if not p.piece[0] * disc <= area <= p.piece[1] * disc:
                continue
            own = labels[y0:y0 + bh, x0:x0 + bw] == i
            judge(finder._hough(image, own, x0, y0, r, min_votes=p.votes), r)
    if not out:
        return out
    joined = finder.beside_masses(found + out, changed if masses is None else masses)[len(found):]
    return [c for c in joined if not c.joined]
