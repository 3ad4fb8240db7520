"""Round objects of the expected size in a foreground mask: balls, carrom men, the striker.

The calibration says how large a ball looks at every place (``TableView.radius_map``), so each
connected piece of foreground is read against that size:

* **one object**: a piece about one disc in area whose distance-transform peak is about the
  expected radius. Its centre is the centroid of its core (where the distance transform is high),
  which its own shadow or a neighbour's halo cannot pull. A moving ball smeared by the shutter is
  a capsule as wide as a ball; its centre is the capsule's middle (the ball's mid-exposure place).
* **several objects or something else**: a rack, balls touching, a hand with a ball, an arm, a
  cue. At the work resolution the gaps between touching balls vanish, so these pieces are read at
  the camera's full resolution with a circle Hough transform of the expected radius: every colour
  edge votes for the centre one radius away along its gradient. Each ball of a rack collects the
  votes of its own outline; a forearm's straight edges spread theirs along lines.
* **a ball of the cloth's own colour**: only its highlight, its number or its shaded rim differ
  from the cloth, so its piece is small or missing. A small piece is searched at full resolution
  for a clear circular outline of the expected size; such a circle needs only some change from
  the empty table (shading included) over its disc, not a solid foreground disc.
* **nothing**: pieces much thinner than a ball (cue shaft, lines, pins) or smaller than that.

Every candidate from the second kind must then *explain its surroundings*: the ring just outside
a ball is background or another ball. Foreground there that no candidate explains means the
circle is a fingertip, a knuckle or a stretch of cue, not a ball.

All sizes are in work pixels relative to the expected radius ``r``, so one set of thresholds
serves every table, camera height and tilt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]
I32 = NDArray[np.int32]


@dataclass(frozen=True)
class CircleParams:
    """Thresholds of the object finder, each relative to the expected radius ``r``.

    * ``min_area``: pieces smaller than this many disc areas are ignored (noise, pins, slivers).
    * ``min_width``/``max_width``: the distance-transform peak of a one-object piece must lie in
      ``[min_width r, max_width r]``. Lower keeps balls half hidden under a hand, and also a cue's
      butt; higher keeps knuckles and fists.
    * ``single_area``: a piece up to this many disc areas (round, right width) is one object;
      ``single_fill``: and no larger than this many discs of its own distance-transform peak
      (two pieces side by side are twice the disc their width gives).
    * ``max_blur``: a capsule up to this many radii long is one ball smeared by the shutter.
    * ``rest_touch`` and ``touch_smear``: a capsule with a straight part of at least
      ``touch_smear`` radii and one clear circle within ``rest_touch`` radii of where an object
      was found at rest a frame ago (``known``) is that object and a smear touching it, searched
      as a crowded piece (the smear comes out as a streak). A ball smeared against the ball it
      is about to hit makes one capsule with it (bar billiards seed 3101: seven radii, the
      resting white's circle at one end), read as one smeared ball it took the resting ball's
      name. Shorter ``touch_smear`` also splits a ball at rest from its own shadow (a capsule
      of one or two radii); larger ``rest_touch`` lets a smear's rounded end pass for the ball.
    * ``min_cover``: fraction of a candidate disc (radius ``0.85 r``) that must be foreground.
    * ``ring_in``/``ring_out``/``max_unexplained``: fraction of the ring around a candidate in a
      crowded piece that may be foreground no other candidate explains. Lower rejects more arm and
      cue pieces, and also balls a cue tip or a hand touches. ``vote_slack`` raises that limit per
      Hough vote (per pixel of radius) above 1.5, up to two: a clear outline is a ball even beside
      a neighbour the transform missed; only where the circles fill ``crowd_fill`` of their piece
      (a crowd of balls, not a hand holding one).
    * ``min_votes``: Hough votes (per pixel of radius) a circle needs in a crowded piece.
    * ``faint_area``/``faint_votes``/``faint_cover``: a piece smaller than ``min_area`` but larger
      than ``faint_area`` discs (a highlight, a number disc) is searched for a circle of the
      expected size with at least ``faint_votes`` votes, which then needs ``faint_cover`` of its
      disc changed from the empty table in any way (shading included) rather than ``min_cover``
      in the foreground; crowd circles with that many votes are held to the same.
      Lower finds more balls of the cloth's colour, and more round things that are not balls.
    * ``edge_min``: colour gradient (Sobel, 0-255 channels) an edge pixel needs to vote.
    * ``still_roi``: mean absolute change per pixel and channel under which a crowded piece's
      full-resolution patch counts as unchanged since the last frame (its circles are reused).
    * ``sizes``: the objects' radii relative to ``r`` (a carrom striker is about 1.33 men).
    * ``join_gap`` and ``join_left``: an object whose outline comes within ``join_gap`` radii of
      a mass of change (``changed`` where given, shading included, else the foreground) of which
      more than ``join_left`` ball areas lie farther than 1.6 radii from every found object (an
      arm, a hand, a sleeve too dark to tell from the cloth's shadow, an arm's shadow) is marked
      ``joined`` (see :class:`Circle`). A rack with its shadows leaves well under one ball area
      unexplained, an arm tens. Larger ``join_gap`` (smaller ``join_left``) holds back more new
      objects beside a hand (a ball put down is reported once the hand is farther away); smaller
      (larger) lets more pieces of an arm through as new balls.
    """

    min_area: float = 0.55
    min_width: float = 0.68
    max_width: float = 1.4
    single_area: float = 1.6
    single_fill: float = 1.7
    max_blur: float = 12.0
    rest_touch: float = 0.5
    touch_smear: float = 3.0
    min_cover: float = 0.8
    ring_in: float = 1.3
    ring_out: float = 1.7
    max_unexplained: float = 0.3
    vote_slack: float = 0.12
    crowd_fill: float = 0.6
    min_votes: float = 1.2
    faint_area: float = 0.08
    faint_votes: float = 2.0
    faint_cover: float = 0.3
    edge_min: float = 60.0
    sizes: tuple[float, ...] = (1.0,)
    still_roi: float = 1.5
    join_gap: float = 0.6
    join_left: float = 5.0


@dataclass(frozen=True)
class Circle:
    """A found object in work pixels: centre, expected radius there, and the evidence for it.

    ``kind``: ``single`` (an isolated disc), ``blur`` (a moving ball's capsule) or ``crowd`` (from
    the Hough transform of a crowded piece). ``joined``: found in a piece that the found circles do
    not mostly fill (a hand holding a ball, an arm), or beside a larger mass of change they leave
    unexplained (``CircleParams.join_gap``); see ``Detection.joined``.
    """

    x: float
    y: float
    r: float
    width: float  # distance-transform peak / r (single, blur) or 1 (crowd)
    cover: float
    unexplained: float
    kind: str
    size: float = 1.0  # measured radius / r (a carrom striker about 1.33)
    joined: bool = False
    length: float = 0.0  # a blur's straight part (its capsule's length less its width) / r
    axis: float = 0.0  # a blur's long axis, radians from the work image's x axis (modulo pi)

    @property
    def score(self) -> float:
        fit = max(0.0, 1.0 - abs(self.width - 1.0))
        return float(max(0.0, min(1.0, 0.4 * self.cover + 0.3 * fit + 0.3 * (1.0 - self.unexplained))))


def clean_mask(mask: U8, max_hole: float = 60.0) -> U8:
    """Close pinholes, fill enclosed holes and remove speckle.

    A ball's printed number, a carrom man's turned grooves or a ball of nearly the cloth's colour
    (only its shaded rim differs) leave holes in an object's mask; anything the foreground encloses,
    up to ``max_hole`` pixels (about a ball's area), is taken as part of the object.
    """
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    m = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, k)
    h, w = m.shape
    pad = np.zeros((h + 2, w + 2), np.uint8)
    pad[1:-1, 1:-1] = m
    flood = pad.copy()
    cv2.floodFill(flood, None, (0, 0), 255)
    holes = cv2.bitwise_not(flood)[1:-1, 1:-1]
    if holes.any():
        n, lab, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=4)
        small = np.zeros(n, np.uint8)
        small[1:] = (stats[1:, cv2.CC_STAT_AREA] <= max_hole) * 255
        m = cv2.bitwise_or(m, small[lab])
    return np.asarray(cv2.morphologyEx(m, cv2.MORPH_OPEN, k), dtype=np.uint8)


_OFFSETS: dict[tuple[int, int], tuple[I32, I32]] = {}


def annulus_offsets(r0: float, r1: float) -> tuple[I32, I32]:
    """Pixel offsets (dy, dx) with ``r0 <= distance <= r1``, the radii rounded to tenths of a
    pixel (and cached so). Rounded before use, not only for the cache's key: otherwise the
    offsets depended on which radius first asked, and a clip's reading on the clips read before
    it in the same process."""
    key = (int(round(r0 * 10)), int(round(r1 * 10)))
    got = _OFFSETS.get(key)
    if got is None:
        r0, r1 = key[0] / 10.0, key[1] / 10.0
        n = int(math.ceil(r1))
        yy, xx = np.mgrid[-n:n + 1, -n:n + 1]
        d2 = xx * xx + yy * yy
        keep = (d2 >= r0 * r0) & (d2 <= r1 * r1)
        got = (yy[keep].astype(np.int32), xx[keep].astype(np.int32))
        _OFFSETS[key] = got
    return got


def values_at(image: U8, cy: float, cx: float, offs: tuple[I32, I32]) -> U8:
    """``image`` at the offsets ``offs`` around (``cx``, ``cy``), clipped to the image."""
    h, w = image.shape[:2]
    # np.maximum/np.minimum in place, not np.clip: the same values, and np.clip's checks of its
    # bounds against the dtype cost more than the clipping on these few dozen offsets (called
    # tens of times a frame).
    ys = offs[0] + int(round(cy))
    xs = offs[1] + int(round(cx))
    np.minimum(np.maximum(ys, 0, out=ys), h - 1, out=ys)
    np.minimum(np.maximum(xs, 0, out=xs), w - 1, out=xs)
    return np.asarray(image[ys, xs])


def sample_mask(mask: U8, cy: float, cx: float, offs: tuple[I32, I32]) -> NDArray[np.bool_]:
    """Whether ``mask`` is set at the offsets ``offs`` (see :func:`annulus_offsets`) around (``cx``, ``cy``)."""
    return np.asarray(values_at(mask, cy, cx, offs) > 0)


@dataclass(frozen=True)
class Piece:
    """One connected piece of foreground: its label, box (x0, y0, x1, y1, work px) and area."""

    label: int
    box: tuple[int, int, int, int]
    area: int
    cx: float
    cy: float


def pieces(mask: U8) -> tuple[I32, list[Piece]]:
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for i in range(1, n):
        x, y, w, h, a = (int(v) for v in stats[i])
        out.append(Piece(i, (x, y, x + w, y + h), a, float(cents[i][0]), float(cents[i][1])))
    return np.asarray(labels, dtype=np.int32), out


class ObjectFinder:
    """Finds round objects of the expected size; see the module docstring."""

    def __init__(self, radius_map: F32, centre_mask: U8, scale: float, box: tuple[int, int, int, int],
                 params: CircleParams | None = None, table_xy: tuple[F32, F32] | None = None,
                 radius_mm: float = 0.0) -> None:
        """``table_xy`` (table mm of every work pixel on the ball plane) and ``radius_mm`` let two
        candidates be kept apart by the balls' real size: a steep view foreshortens the image
        distance between touching balls, never their silhouettes."""
        self.table_xy = table_xy
        self.radius_mm = radius_mm
        self.radius_map = radius_map
        self.centre_mask = centre_mask
        self.scale = scale
        self.box = box
        self.p = params or CircleParams()
        self.streaks: list[Circle] = []
        self.labels: I32 = np.zeros((1, 1), np.int32)
        self.pieces: list[Piece] = []
        self._hough_cache: dict[tuple[object, ...], tuple[U8, list[tuple[float, float, float]]]] = {}
        self._hough_used: set[tuple[object, ...]] = set()

    def find(self, mask: U8, image: U8, changed: U8 | None = None,
             known: Sequence[tuple[float, float]] = (), known_votes: float | None = None) -> list[Circle]:
        """Objects in ``mask`` (0/255 work pixels); ``image`` is the full-resolution frame.

        Also keeps, in :attr:`streaks`, ball-wide capsules cut out of crowded pieces (a ball struck
        so fast that it is a smear joined to the cue, or to the ball it just hit): whether one is a
        ball depends on whether a ball was just there, which the caller knows.

        ``changed`` (0/255, optional): pixels that differ from the empty table in any way, shading
        included; circles with many votes may rest on it instead of on ``mask``.

        ``known`` (work px) and ``known_votes``: where an object was found a frame ago, a faint
        piece needs only ``known_votes`` (hysteresis): a ball of the cloth's own colour at rest
        shows the same weak outline frame after frame, and losing it every few frames would make
        it vanish and reappear, while a new faint circle elsewhere still needs ``faint_votes``.
        """
        p = self.p
        self._hough_cache = {k: v for k, v in self._hough_cache.items() if k in self._hough_used}
        self._hough_used = set()
        labels, found = pieces(mask)
        self.labels = labels
        self.pieces = found
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
        singles: list[Circle] = []
        crowd: list[tuple[float, float, float]] = []
        crowded: list[tuple[Piece, float]] = []
        faint: list[tuple[float, float, float]] = []
        whole: list[Piece] = []  # pieces that are one object each (a disc, a smeared ball)
        need: dict[tuple[float, float], float] = {}  # faint circles found with fewer votes than faint_votes
        for pc in found:
            r = float(self.radius_map[min(int(pc.cy), mask.shape[0] - 1), min(int(pc.cx), mask.shape[1] - 1)])
            disc = math.pi * r * r
            if pc.area < p.faint_area * disc:
                continue
            x0, y0, x1, y1 = pc.box
            own = labels[y0:y1, x0:x1] == pc.label
            if pc.area < p.min_area * disc:
                # a highlight or a number disc alone: a ball of nearly the cloth's colour?
                faint.extend(self._faint(image, pc, r, self._votes_at(pc, r, known, known_votes), need))
                continue
            d = np.where(own, dist[y0:y1, x0:x1], 0.0)
            peak = float(d.max())
            if peak < p.min_width * r:
                if pc.area < disc:  # a ball's lit crescent, too thin for a disc: searched as faint
                    faint.extend(self._faint(image, pc, r, self._votes_at(pc, r, known, known_votes), need))
                continue
            big = max(p.sizes)
            round_enough = pc.area <= p.single_fill * math.pi * peak * peak  # not two discs side by side
            if pc.area <= p.single_area * disc * big * big and peak <= p.max_width * r * big and round_enough:
                c = self._single(d, own, x0, y0, peak, r)
                if c is not None:
                    singles.append(c)
                    whole.append(pc)
                continue
            smear = self._blurred(own, x0, y0, pc, peak, r)
            circles = self._hough(image, own, x0, y0, r)
            if smear is not None:
                # two balls touching make the same capsule as one smeared ball: their outlines
                # give two clear circles, a smear gives none (and a tapered smear not even one: a
                # ball at rest with the cue tip against it is tapered too)
                blur, tapered = smear
                pair = [c for c in circles if c[2] >= p.faint_votes]
                if len(pair) == 1 and blur.length >= p.touch_smear and any(
                        math.hypot(pair[0][0] - kx, pair[0][1] - ky) < p.rest_touch * r for kx, ky in known):
                    # a long smear with one clear circle where a ball rested a frame ago: that ball,
                    # and the ball that struck it smeared against it (``rest_touch``)
                    crowd.extend(circles)
                    crowded.append((pc, r))
                    continue
                if len(pair) < (1 if tapered else 2):
                    singles.append(blur)
                    whole.append(pc)
                    continue
                if len(pair) >= 2:
                    crowd.extend(pair)
                    continue
            crowd.extend(circles)
            crowded.append((pc, r))
        support = mask if changed is None else changed
        found_circles = singles + self._validate(crowd, mask, singles, support=support)
        found_circles, unfilled = self._drop_lone_strong(found_circles, labels, crowded, mask, singles, support, known)
        found_circles += self._validate(faint, mask, found_circles, faint=True, support=support, need=need)
        self.streaks = self._streaks(labels, crowded, found_circles, unfilled)
        return self._beside_masses(found_circles, support, labels, whole)

    def radius_at(self, x: float, y: float) -> float:
        """The expected radius (work px) at work pixel (``x``, ``y``), clipped to the map."""
        h, w = self.radius_map.shape[:2]
        return float(self.radius_map[min(h - 1, max(0, int(y))), min(w - 1, max(0, int(x)))])

    def beside_masses(self, circles: list[Circle], support: U8) -> list[Circle]:
        """``circles`` (found in the last :meth:`find` or since) marked joined beside a mass of
        change they leave unexplained; see :meth:`_beside_masses`."""
        return self._beside_masses(circles, support, self.labels, [])

    def _beside_masses(self, circles: list[Circle], support: U8, labels: I32, whole: list[Piece]) -> list[Circle]:
        """``circles`` with those beside a mass of change they leave unexplained marked joined
        (``join_gap``, ``join_left``). A piece that is one object (a smeared ball's whole
        capsule) and its shadow beside it are explained, not only the discs around the circles.

        Only masses larger than ``join_left`` balls can leave that much unexplained, and most
        frames have none near a circle (balls and their shadows): their outlines are found first
        (cheap), and only those a circle reaches are counted, within their own boxes."""
        if not circles:
            return circles
        limit = self.p.join_left * math.pi * min(c.r for c in circles) ** 2
        outlines, _ = cv2.findContours(support, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        big = [o for o in outlines if cv2.contourArea(o) + cv2.arcLength(o, True) > limit][:250]
        if not big:
            return circles
        h, w = support.shape[:2]
        masses = np.zeros((h, w), np.uint8)
        for k, o in enumerate(big):
            cv2.drawContours(masses, [o], 0, k + 1, -1)
        reached: dict[int, set[int]] = {}  # circle index -> the masses its reach touches
        for i, c in enumerate(circles):
            if c.joined:
                continue
            near = {int(v) for v in np.unique(values_at(masses, c.y, c.x, annulus_offsets(0.0, c.r * (c.size + self.p.join_gap))))
                    if v}
            if near:
                reached[i] = near
        if not reached:
            return circles
        k_dil = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(round(0.6 * float(np.median([c.r for c in circles])))) + 1,) * 2)
        pad = k_dil.shape[0] // 2
        left: dict[int, int] = {}
        for k in set().union(*reached.values()):
            x, y, bw, bh = cv2.boundingRect(big[k - 1])
            explained = np.zeros((bh, bw), np.uint8)
            for pc in whole:  # whole pieces overlapping this box, grown by their shadow's reach
                px0, py0, px1, py1 = pc.box
                ax0, ay0, ax1, ay1 = max(x, px0 - pad), max(y, py0 - pad), min(x + bw, px1 + pad), min(y + bh, py1 + pad)
                if ax1 <= ax0 or ay1 <= ay0:
                    continue
                piece = (labels[ay0:ay1, ax0:ax1] == pc.label).astype(np.uint8)
                explained[ay0 - y:ay1 - y, ax0 - x:ax1 - x] |= np.asarray(cv2.dilate(piece, k_dil), np.uint8)
            for c in circles:
                cv2.circle(explained, (int(round(c.x)) - x, int(round(c.y)) - y), int(round(1.6 * c.r * c.size)), 1, -1)
            own = masses[y:y + bh, x:x + bw] == k
            left[k] = int(np.count_nonzero(own & (support[y:y + bh, x:x + bw] > 0) & (explained == 0)))
        return [replace(c, joined=True) if i in reached
                and any(left[k] > self.p.join_left * math.pi * c.r * c.r for k in reached[i]) else c
                for i, c in enumerate(circles)]

    def _drop_lone_strong(self, circles: list[Circle], labels: I32, crowded: list[tuple[Piece, float]],
                          mask: U8, singles: list[Circle], support: U8,
                          known: Sequence[tuple[float, float]] = ()) -> tuple[list[Circle], set[int]]:
        """The vote slack of the ring test is for crowds of balls (a rack with a ball of the
        cloth's colour missing): in a piece that its circles do not mostly fill (a hand holding a
        ball, an arm), circles must pass the plain ring test. Unless the circle is where an
        object was found a frame ago (``known``): a ball come to rest against one of the cloth's
        colour, whose shadow and shaded side join it, is the same ball it was a frame before (a
        hand reaching for a ball does not make it vanish either).

        The circles kept in such a piece are marked ``joined``; the pieces' labels are returned
        (a streak cut out of one is joined too)."""
        out = list(circles)
        unfilled: set[int] = set()
        for pc, _ in crowded:
            x0, y0, x1, y1 = pc.box
            own = labels[y0:y1, x0:x1] == pc.label
            inside = [c for c in out if c.kind == "crowd" and x0 <= c.x < x1 and y0 <= c.y < y1
                      and own[min(y1 - y0 - 1, int(c.y) - y0), min(x1 - x0 - 1, int(c.x) - x0)]]
            if not inside:
                unfilled.add(pc.label)  # an arm or a hand with no circle in it
                continue
            filled = np.zeros(own.shape, np.uint8)
            for c in inside:
                cv2.circle(filled, (int(round(c.x - x0)), int(round(c.y - y0))), int(round(1.15 * c.r)), 1, -1)
            if float((filled.astype(bool) & own).sum()) >= self.p.crowd_fill * float(own.sum()):
                continue
            unfilled.add(pc.label)
            slack = self.p.vote_slack > 0
            out = [replace(c, joined=True) if c in inside else c for c in out
                   if c not in inside or not slack or c.unexplained <= self.p.max_unexplained
                   or any(math.hypot(c.x - x, c.y - y) < c.r for x, y in known)]
        return out, unfilled

    def _votes_at(self, pc: Piece, r: float, known: Sequence[tuple[float, float]], known_votes: float | None) -> float:
        if known_votes is not None and any(math.hypot(x - pc.cx, y - pc.cy) < 1.5 * r for x, y in known):
            return min(known_votes, self.p.faint_votes)
        return self.p.faint_votes

    def _faint(self, image: U8, pc: Piece, r: float, votes: float,
               need: dict[tuple[float, float], float]) -> list[tuple[float, float, float]]:
        """Strong circles of the expected size around a small piece of foreground (``votes``
        each; one found with fewer than ``faint_votes`` is noted in ``need``)."""
        x0, y0, x1, y1 = pc.box
        g = int(math.ceil(1.3 * r))
        h, w = self.centre_mask.shape
        bx0, by0 = max(0, x0 - g), max(0, y0 - g)
        bx1, by1 = min(w, x1 + g), min(h, y1 + g)
        area = np.ones((by1 - by0, bx1 - bx0), dtype=bool)
        got = self._hough(image, area, bx0, by0, r, min_votes=votes)
        out = [(x, y, v) for x, y, v in got if math.hypot(x - pc.cx, y - pc.cy) < 0.85 * r]
        if votes < self.p.faint_votes:
            need.update({(x, y): votes for x, y, _ in out})
        return out

    def _streaks(self, labels: I32, crowded: list[tuple[Piece, float]], circles: list[Circle],
                 unfilled: set[int]) -> list[Circle]:
        """Ball-wide capsules in crowded pieces once found discs and thin parts are removed
        (``joined`` where the piece is one of ``unfilled``: see :meth:`_drop_lone_strong`)."""
        out: list[Circle] = []
        for pc, r in crowded:
            x0, y0, x1, y1 = pc.box
            own = (labels[y0:y1, x0:x1] == pc.label).astype(np.uint8)
            for c in circles:
                cv2.circle(own, (int(round(c.x - x0)), int(round(c.y - y0))), int(round(1.2 * c.r * c.size)), 0, -1)
            k = max(3, int(2 * round(0.6 * r) + 1))
            opened = cv2.morphologyEx(own, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
            n, lab, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
            for i in range(1, n):
                a = int(stats[i, cv2.CC_STAT_AREA])
                if a < 0.6 * math.pi * r * r:
                    continue
                bx, by, bw, bh = (int(v) for v in stats[i, :4])
                part = lab[by:by + bh, bx:bx + bw] == i
                sub = Piece(i, (x0 + bx, y0 + by, x0 + bx + bw, y0 + by + bh), a, 0.0, 0.0)
                smear = self._blurred(part, x0 + bx, y0 + by, sub, r, r, area_slack=0.6)
                if smear is not None and not smear[1]:  # a capsule: a tapered outline is no streak here
                    out.append(replace(smear[0], kind="streak", joined=pc.label in unfilled))
        return out

    # -- one object ----------------------------------------------------------------------------
    def _single(self, d: F32, own: NDArray[np.bool_], x0: int, y0: int, peak: float, r: float) -> Circle | None:
        core = np.where(d >= 0.5 * peak, d - 0.5 * peak, 0.0)
        s = float(core.sum())
        yy, xx = np.nonzero(core)
        w = core[yy, xx]
        cx = float((w * xx).sum() / s) + x0
        cy = float((w * yy).sum() / s) + y0
        if not self._may_centre(cx, cy):
            return None
        size = math.sqrt(float(own.sum()) / math.pi) / r
        width = peak / r / min(self.p.sizes, key=lambda q: abs(q - size))
        return Circle(cx, cy, r, width, 1.0, 0.0, "single", size)

    def _blurred(self, own: NDArray[np.bool_], x0: int, y0: int, pc: Piece, peak: float, r: float,
                 area_slack: float = 0.75) -> tuple[Circle, bool] | None:
        """A capsule as wide as a ball and at most ``max_blur`` radii long, or the tapered outline
        of one (see below): one moving ball, and whether only the tapered outline fits it."""
        p = self.p
        big = max(p.sizes)
        if peak > p.max_width * r * big:
            return None
        m = cv2.moments(own.astype(np.uint8), binaryImage=True)
        if m["m00"] <= 0:
            return None
        mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
        common = math.sqrt(max(0.0, ((mu20 - mu02) / 2) ** 2 + mu11 ** 2))
        lam1, lam2 = (mu20 + mu02) / 2 + common, (mu20 + mu02) / 2 - common
        # a capsule of radius r and straight length s: minor variance r^2/4 (disc-ish), major grows with s
        minor = 2.0 * math.sqrt(max(lam2, 0.0))
        major = 2.0 * math.sqrt(max(lam1, 0.0))
        if not (0.7 * r <= minor <= 1.3 * r * big):
            return None
        size = min(p.sizes, key=lambda q: abs(q * r - minor))
        rs = size * r
        length = math.sqrt(max(0.0, 12.0 * (lam1 - lam2)))  # straight part of the capsule
        if length > p.max_blur * r or major > (p.max_blur + 1.0) * r:
            return None
        expected = math.pi * rs * rs + 2 * rs * length
        # The ends of a smear are covered for only part of the exposure, so a fast piece of the
        # board's own shade (a light striker on a light board) keeps only its middle in the
        # foreground: its outline tapers to the ellipse of the same moments, whose area the
        # capsule's overestimates by a third. Either outline is a moving ball.
        if pc.area > 1.3 * expected:
            return None
        capsule = pc.area >= area_slack * expected
        if not capsule and pc.area < 0.9 * math.pi * major * minor:
            return None
        cx, cy = m["m10"] / m["m00"] + x0, m["m01"] / m["m00"] + y0
        if not self._may_centre(cx, cy):
            return None
        axis = 0.5 * math.atan2(2.0 * mu11, mu20 - mu02)
        return Circle(cx, cy, r, peak / rs, 1.0, 0.0, "blur", size, length=length / r, axis=axis), not capsule

    def _may_centre(self, x: float, y: float) -> bool:
        h, w = self.centre_mask.shape
        xi, yi = int(round(x)), int(round(y))
        return 0 <= xi < w and 0 <= yi < h and bool(self.centre_mask[yi, xi])

    # -- crowded pieces --------------------------------------------------------------------------
    def hough_at(self, image: U8, own: NDArray[np.bool_], x0: int, y0: int, r: float) -> list[tuple[float, float, float]]:
        """Clear circles of radius ``r`` (at least ``faint_votes``; work px and votes) in the
        piece ``own`` (a mask whose corner is work pixel ``x0``, ``y0``)."""
        return self._hough(image, own, x0, y0, r, min_votes=self.p.faint_votes)

    def _hough(self, image: U8, own: NDArray[np.bool_], x0: int, y0: int, r: float,
               min_votes: float | None = None) -> list[tuple[float, float, float]]:
        """Circle centres (work px) in the piece, from a fixed-radius Hough transform at full res."""
        s = self.scale
        bx, by = self.box[0], self.box[1]
        h_img, w_img = image.shape[:2]
        rf = r / s
        pad = int(math.ceil(0.9 * rf)) + 2
        fx0 = max(0, int(math.floor(x0 / s)) + bx - pad)
        fy0 = max(0, int(math.floor(y0 / s)) + by - pad)
        fx1 = min(w_img, int(math.ceil((x0 + own.shape[1]) / s)) + bx + pad)
        fy1 = min(h_img, int(math.ceil((y0 + own.shape[0]) / s)) + by + pad)
        roi = image[fy0:fy1, fx0:fx1]
        if roi.size == 0:
            return []
        # a still crowd (a rack before the break) gives the same circles frame after frame
        key = (fx0, fy0, fx1, fy1, int(own.sum()), round(r, 1), min_votes)
        cached = self._hough_cache.get(key)
        if cached is not None and float(cv2.norm(cached[0], roi, cv2.NORM_L1)) < self.p.still_roi * roi.size:
            self._hough_used.add(key)
            return cached[1]
        got = self._hough_votes(roi, own, x0, y0, r, fx0, fy0, min_votes)
        self._hough_cache[key] = (roi.copy(), got)
        self._hough_used.add(key)
        return got

    def _hough_votes(self, roi: U8, own: NDArray[np.bool_], x0: int, y0: int, r: float, fx0: int, fy0: int,
                     min_votes: float | None) -> list[tuple[float, float, float]]:
        p = self.p
        s = self.scale
        bx, by = self.box[0], self.box[1]
        rf = r / s
        hh, ww = roi.shape[:2]
        # where edges may vote: the piece, grown by a few pixels, at full resolution
        m = cv2.resize(own.astype(np.uint8), (int(round(own.shape[1] / s)), int(round(own.shape[0] / s))),
                       interpolation=cv2.INTER_NEAREST)
        allow = np.zeros((hh, ww), np.uint8)
        ox, oy = int(round(x0 / s)) + bx - fx0, int(round(y0 / s)) + by - fy0
        ys0, xs0 = max(0, oy), max(0, ox)
        ys1, xs1 = min(hh, oy + m.shape[0]), min(ww, ox + m.shape[1])
        if ys1 <= ys0 or xs1 <= xs0:
            return []
        allow[ys0:ys1, xs0:xs1] = m[ys0 - oy:ys1 - oy, xs0 - ox:xs1 - ox]
        grow = int(2 * round(0.6 * rf) + 1)  # the outer rim of a ball of the cloth's colour votes too
        allow = np.asarray(cv2.dilate(allow, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow))),
                           dtype=np.uint8)
        f = roi.astype(np.float32)
        gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3)
        mag2 = gx * gx + gy * gy
        best = np.argmax(mag2, axis=2)[..., None]
        gxs = np.take_along_axis(gx, best, axis=2)[..., 0]
        gys = np.take_along_axis(gy, best, axis=2)[..., 0]
        mag = np.sqrt(np.take_along_axis(mag2, best, axis=2)[..., 0])
        ys, xs = np.nonzero((mag > p.edge_min) & (allow > 0))
        if len(xs) == 0:
            return []
        ux = gxs[ys, xs] / mag[ys, xs]
        uy = gys[ys, xs] / mag[ys, xs]
        acc = np.zeros(hh * ww, np.float32)
        for rr in (0.92 * rf, rf, 1.08 * rf):
            for sgn in (1.0, -1.0):
                cx = np.rint(xs + sgn * rr * ux).astype(np.int32)
                cy = np.rint(ys + sgn * rr * uy).astype(np.int32)
                ok = (cx >= 0) & (cx < ww) & (cy >= 0) & (cy < hh)
                acc += np.bincount(cy[ok] * ww + cx[ok], minlength=hh * ww).astype(np.float32)
        grid = cv2.GaussianBlur(acc.reshape(hh, ww), (0, 0), 1.0)
        k = max(3, int(2 * round(0.9 * rf) + 1))
        dil = cv2.dilate(grid, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        py, px = np.nonzero((grid >= dil) & (grid >= (p.min_votes if min_votes is None else min_votes) * rf))
        if len(px) == 0:
            return []
        vals = grid[py, px]
        out: list[tuple[float, float, float]] = []
        for i in np.argsort(-vals):
            # sub-pixel: vote-weighted centroid of the 3x3 around the peak
            y, x = int(py[i]), int(px[i])
            ya, yb, xa, xb = max(0, y - 1), min(hh, y + 2), max(0, x - 1), min(ww, x + 2)
            wgt = grid[ya:yb, xa:xb]
            yy, xx = np.mgrid[ya:yb, xa:xb]
            sx = float((wgt * xx).sum() / wgt.sum())
            sy = float((wgt * yy).sum() / wgt.sum())
            wx = (sx + fx0 - bx + 0.5) * s - 0.5
            wy = (sy + fy0 - by + 0.5) * s - 0.5
            out.append((wx, wy, float(vals[i]) / rf))
        return out

    def _table_xy_of(self, xs: NDArray[np.float64], ys: NDArray[np.float64]) -> NDArray[np.float64]:
        """Table mm (ball plane) at sub-pixel work positions (bilinear in the precomputed maps);
        without a calibrated view, the work pixels themselves (in radii of the local size)."""
        if self.table_xy is None or self.radius_mm <= 0:
            return np.column_stack([xs, ys])
        tx, ty = self.table_xy
        h, w = tx.shape
        x = np.clip(xs, 0.0, w - 1.001)
        y = np.clip(ys, 0.0, h - 1.001)
        j, i = x.astype(np.intp), y.astype(np.intp)
        fx, fy = x - j, y - i
        out = []
        for m in (tx, ty):
            out.append((m[i, j] * (1 - fx) + m[i, j + 1] * fx) * (1 - fy)
                       + (m[i + 1, j] * (1 - fx) + m[i + 1, j + 1] * fx) * fy)
        return np.column_stack(out).astype(np.float64)

    def _validate(self, crowd: list[tuple[float, float, float]], mask: U8, singles: list[Circle],
                  faint: bool = False, support: U8 | None = None,
                  need: dict[tuple[float, float], float] | None = None) -> list[Circle]:
        """Keep crowd candidates that are covered, spaced like balls and explain their ring.

        A circle with many votes (``faint_votes``, or what ``need`` says for a faint circle found
        where an object was a frame ago) needs only ``faint_cover`` of its disc in the foreground: a ball of the cloth's own colour shows only its highlight, number and rim.
        Spacing is measured on the table when the view is calibrated: a steep view foreshortens
        the image distance between touching balls, never their silhouettes.
        """
        p = self.p
        h, w = mask.shape
        need = need or {}
        cands = [c for c in sorted(crowd, key=lambda c: -c[2])
                 if self._may_centre(c[0], c[1]) and not (faint and c[2] < need.get((c[0], c[1]), p.faint_votes))]
        if not cands:
            return []
        cx = np.array([c[0] for c in cands])
        cy = np.array([c[1] for c in cands])
        radii = self.radius_map[np.clip(cy.astype(np.intp), 0, h - 1), np.clip(cx.astype(np.intp), 0, w - 1)]
        where = self._table_xy_of(cx, cy)
        calibrated = self.table_xy is not None and self.radius_mm > 0
        # minimum spacing of two centres: in mm on the table, or in work pixels
        unit = np.full(len(cands), self.radius_mm) if calibrated else radii.astype(np.float64)
        fixed_xy = self._table_xy_of(np.array([c.x for c in singles]), np.array([c.y for c in singles])) \
            if singles else np.zeros((0, 2))
        fixed_unit = np.array([self.radius_mm * c.size if calibrated else c.r * c.size for c in singles])
        kept_idx: list[int] = []
        kept: list[tuple[float, float, float, float]] = []  # x, y, r, votes
        for n, (x, y, votes) in enumerate(cands):
            r = float(radii[n])
            if kept_idx:
                d = np.hypot(*(where[kept_idx] - where[n]).T)
                if np.any(d < 0.8 * (unit[kept_idx] + unit[n])):
                    continue
            if len(singles):
                d = np.hypot(*(fixed_xy - where[n]).T)
                if np.any(d < 0.8 * (fixed_unit + unit[n])):
                    continue
            cover = float(sample_mask(mask, y, x, annulus_offsets(0.0, 0.85 * r)).mean())
            strong = votes >= need.get((x, y), p.faint_votes)
            if cover < p.min_cover and not strong:
                continue
            if cover < p.min_cover:
                seen = float(sample_mask(support if support is not None else mask, y, x, annulus_offsets(0.0, 0.85 * r)).mean())
                if seen < p.faint_cover:
                    continue
            kept_idx.append(n)
            kept.append((x, y, r, votes))
        if not kept:
            return []
        centres = np.array([[k[0], k[1]] for k in kept] + [[c.x, c.y] for c in singles], dtype=np.float32)
        reach = (1.1 * np.array([k[2] for k in kept] + [c.r for c in singles], dtype=np.float32)) ** 2
        out = []
        for i, (x, y, r, votes) in enumerate(kept):
            ring = annulus_offsets(p.ring_in * r, p.ring_out * r)
            fg = sample_mask(mask, y, x, ring)
            pts = np.column_stack([ring[1] + round(x), ring[0] + round(y)]).astype(np.float32)
            d2 = ((pts[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
            d2[:, i] = np.inf
            others = (d2 <= reach[None, :]).any(axis=1)
            unexplained = float((fg & ~others).mean())
            # a clear circular outline may sit beside a ball the transform missed (one of the
            # cloth's colour in a rack): the more votes, the more unexplained ring it may have
            allowed = p.max_unexplained + p.vote_slack * min(2.0, max(0.0, votes - 1.5))
            if unexplained > allowed:
                continue
            cover = float(sample_mask(mask, y, x, annulus_offsets(0.0, 0.85 * r)).mean())
            out.append(Circle(x, y, r, 1.0, cover, unexplained, "crowd"))
        return out
