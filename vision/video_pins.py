"""Bar-billiards pins: standing on their spots, moved but standing, or fallen.

A standing pin is a small mushroom (base, stem, head) next to its hole; from above it is a small
disc whose head, 45 mm up, projects away from the spot under a tilted camera. The pins stand on
their spots when the video starts (the referee resets them between visits), so the first frame
gives each pin's *look*: a full-resolution patch around the standing pin, and how different that
patch is from the bare cloth there (the pin's contrast).

Each frame the patch is searched for within a few millimetres of where the pin last stood
(template matching, so a pin nudged along the cloth is still found standing). A good match is a
standing pin. A poor match is either something over the pin (a ball rolling past, a hand) or the
pin gone from its place: over it means *unknown* (nothing is reported, the tracker keeps the pin
as it was), gone means *fallen*, and the fallen pin is looked for as the foreground nearby that
no ball explains: an elongated piece about a pin's length. Its table position is measured on the
plane of a lying pin's axis (one pin radius up), not the balls' plane.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.spec import PinSpec
from tableref.vision.detect import Detection
from tableref.vision.video_geometry import TableView

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]


@dataclass(frozen=True)
class PinParams:
    """Thresholds of the pin watcher.

    * ``search_mm``: how far from its last standing place a pin is looked for each frame. Larger
      follows a pin slid by a ball; smaller avoids matching a neighbouring pin or hole.
    * ``stand_match``: how well the standing look must match to call the pin standing: the lower
      of the share of the pin's contrast the match explains and its normalised correlation (1 is a
      perfect match). An undisturbed pin matches at 0.97 or better; a pin fallen towards its hole
      can still match at 0.8 (over 40 falls on seeds 1601-2502 the best was 0.77), and one a ball
      brushed, left standing but rocked on its base, at 0.88 (bar billiards seed 2501: called
      fallen at 0.879 when the limit was 0.88). ``restand_match``: the match a fallen pin needs to stand again (the
      referee resets pins between visits), over the whole look or the part of it in view.
      ``partial_match``: ``stand_match`` over the part of a standing pin a ball resting against
      it leaves in view. Over a fallen pin's place, the part a ball leaves in view is mostly
      cloth and matched at up to 0.87 (bar billiards seed 3601: the pin stood again there, then
      "fell" a second time). A pin hidden that way keeps its last state, unless
      its place matches worse than ``gone_match`` and the "ball" lies within a pin's length of
      it: that is the pin itself, fallen.
    * ``own_level``: how far (RGB distance) a pixel of a pin's box must differ from the bare cloth
      to be part of the pin's look in a partial fit (:meth:`PinWatcher._own_pixels`): above the
      camera's noise on the cloth, below the contrast of a pin's shaded side. Judged over its own
      pixels, a pin slid along the cloth is found wherever it went, whatever now lies where its
      box's cloth was (a hole's rim, a ball's shadow).
    * ``strike_share``: how far (in its radii) a ball over a standing pin must have moved since
      the frame before for the pin to be called fallen while the ball hides it: a pin falls only
      when struck at a pace. On the development seeds a ball that knocked a pin over moved 0.4
      to 0.9 radii in the frame the fall was seen; one that nudged a pin and stopped against it,
      0 to 0.22. A pin hidden by a ball that crept up keeps its state until the ball leaves.
    * ``busy_fraction``: share of the pin's neighbourhood in the foreground above which something
      (a hand, an arm, a cue) is over it and the pin is not judged this frame.
    * ``doubt_fraction``: share of the pin's neighbourhood in the foreground from which a pin that
      loses its standing look is given one more frame before it is called fallen: an arm or a
      cue's shadow coming over it covers part of the neighbourhood on the first frame and most
      of it on the next (bar billiards seed 1802: the cue's shadow over a third of the 200 pin's
      neighbourhood read as the pin falling). A pin that falls shows at most its own length of
      foreground there, and is called a frame later.
    * ``doubt_unreached``: a pin whose look is lost with no ball near it on this frame or the
      last is given that frame too: nothing can have knocked it over, and a camera shaken on its
      mount misses a pin's look for a frame at a time (a 2 px shake: three pins called fallen).
      The cost: a pin knocked by a ball never seen near it is called a frame later.
    * ``mass_pins``: a piece of foreground more than this many lying pins in area (an arm, a
      sleeve's shadow, a cue) that reaches into a pin's box hides that part of it: a pin whose
      look is lost there is judged over the part left in view (``partial_match``, as beside a
      ball), and while too little is in view it keeps its last state. Bar billiards seed 3202:
      the rounded end of a sleeve's shadow sweeping in over the table touched the 100 pin's base
      and cut its match to 0.67 while it covered under a fifth of the neighbourhood (short of
      ``doubt_fraction``); the pin was called fallen, and its "fallen" place followed the
      shadow. A pin that falls leaves a piece of change about its own size where it stood, so
      smaller pieces never hide a pin; larger ``mass_pins`` lets more of an arm's edge read as
      a fall.
    * ``fallen_mm``: how far from the spot a fallen pin is looked for.
    * ``plugged_margin``: how much more of the pin's head colour must show over its hole than on
      its spot for the pin to be taken as plugging the hole at the start.
    """

    search_mm: float = 16.0
    stand_match: float = 0.85
    restand_match: float = 0.93
    partial_match: float = 0.65
    gone_match: float = 0.3
    own_level: float = 20.0
    strike_share: float = 0.3
    busy_fraction: float = 0.35
    doubt_fraction: float = 0.2
    doubt_unreached: bool = True
    mass_pins: float = 4.0
    fallen_mm: float = 70.0
    plugged_margin: float = 0.15


@dataclass
class _PinState:
    spec: PinSpec
    x_mm: float
    y_mm: float
    template: F32
    contrast: float
    offset: tuple[int, int]  # template box corner relative to the pin's projected base (px)
    fallen: bool = False
    fallen_mm: tuple[float, float] | None = None
    doubt: bool = False  # its look was lost while something came over its neighbourhood (``doubt_fraction``)
    #: the template's pixels that are the pin itself (and its shading), not cloth or a hole
    own: NDArray[np.bool_] | None = None


class PinWatcher:
    """Watches the pins of a bar-billiards table; see the module docstring."""

    #: the score of a standing pin seen in its look this frame; one kept as it was while
    #: something hides it gets ``KEPT``
    SEEN = 0.9
    KEPT = 0.4
    #: a fallen pin found nearer than this (mm) to where it stood has no direction (see :meth:`lying`)
    LYING_MIN_MM = 8.0

    def __init__(self, view: TableView, pins: tuple[PinSpec, ...], params: PinParams | None = None) -> None:
        self.view = view
        self.p = params or PinParams()
        self.pins = pins
        self._state: list[_PinState] = []
        #: ball detections (x, y, r image px) found to be a fallen pin in the last frame
        self.claimed: list[tuple[float, float, float]] = []
        #: the ball detections of the frame before (see :meth:`_struck`)
        self._before: list[tuple[float, float, float]] = []

    def _box(self, pin: PinSpec, x_mm: float, y_mm: float) -> tuple[int, int, int, int]:
        """Full-resolution box holding the standing pin (base ring to head), with a small margin."""
        pts = []
        for z in (0.0, pin.height):
            for a in np.linspace(0, 2 * math.pi, 9)[:-1]:
                pts.append((x_mm + pin.radius * math.cos(a), y_mm + pin.radius * math.sin(a), z))
        px = np.vstack([self.view.project(np.array([p[:2]]), p[2]) for p in pts])
        m = 2
        return (int(math.floor(px[:, 0].min())) - m, int(math.floor(px[:, 1].min())) - m,
                int(math.ceil(px[:, 0].max())) + m + 1, int(math.ceil(px[:, 1].max())) + m + 1)

    def start(self, image: U8, cloth_full: F32 | None) -> None:
        """Learn each pin's look from the first frame (pins stand on their spots at the start).

        ``cloth_full``: the bare-cloth image at full resolution over the same area as ``image``
        (only the pins' boxes are read), for each pin's contrast.
        """
        self._state = []
        h, w = image.shape[:2]
        for pin in self.pins:
            px, py = self._locate(image, cloth_full, pin)
            x0, y0, x1, y1 = self._box(pin, px, py)
            if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                continue
            tpl = image[y0:y1, x0:x1].astype(np.float32)
            if cloth_full is not None:
                contrast = float(((tpl - cloth_full[y0:y1, x0:x1]) ** 2).sum())
            else:
                contrast = float(((tpl - tpl.mean(axis=(0, 1))) ** 2).sum())
            base = self.view.project(np.array([[px, py]]), 0.0)[0]
            own = None if cloth_full is None else self._own_pixels(tpl, cloth_full[y0:y1, x0:x1], x0, y0, (px, py))
            self._state.append(_PinState(pin, px, py, tpl, max(contrast, 1.0),
                                         (x0 - int(round(base[0])), y0 - int(round(base[1]))), own=own))

    def _own_pixels(self, tpl: F32, cloth: F32, x0: int, y0: int,
                    at: tuple[float, float]) -> NDArray[np.bool_] | None:
        """The pixels of a pin's box that show the pin (or its shading): those that differ from
        the bare cloth by more than ``own_level`` (or a quarter of the pin's strongest difference,
        when that is more), grown by a pixel, less any hole of the table but the one it stands in
        (``at``: a pin plugging its hole for sudden death). Only these move with the pin: a pin
        nudged towards its hole (bar billiards seed 4001: 11 mm, up against the hole's rim) brings
        the hole into its box, and over the whole box it no longer matched where it stood, with a
        ball against it, and was called fallen."""
        d = np.sqrt(((tpl - cloth) ** 2).sum(axis=2))
        own = (d > max(self.p.own_level, 0.25 * float(d.max()))).astype(np.uint8)
        own = cv2.dilate(own, np.ones((3, 3), np.uint8)) > 0
        h, w = own.shape
        yy, xx = np.mgrid[y0:y0 + h, x0:x0 + w]
        for hole in self.view.spec.holes:
            if math.hypot(hole.x - at[0], hole.y - at[1]) < hole.radius:
                continue
            c = self.view.project(np.array([[hole.x, hole.y]]), 0.0)[0]
            r = float(self.view.local_scale(np.array([[hole.x, hole.y]]), 0.0)[0]) * hole.radius + 1.0
            own &= (xx - c[0]) ** 2 + (yy - c[1]) ** 2 > r * r
        return own if own.sum() >= 4 else None

    def _disc_pixels(self, image: U8 | F32, x_mm: float, y_mm: float, z: float, radius_mm: float) -> F32:
        c = self.view.project(np.array([[x_mm, y_mm]]), z)[0]
        r = max(1.0, float(self.view.local_scale(np.array([[x_mm, y_mm]]), z)[0]) * radius_mm)
        n = int(math.ceil(r))
        h, w = image.shape[:2]
        xi, yi = int(round(c[0])), int(round(c[1]))
        if xi - n < 0 or yi - n < 0 or xi + n >= w or yi + n >= h:
            return np.zeros((0, 3), np.float32)
        yy, xx = np.mgrid[-n:n + 1, -n:n + 1]
        keep = xx * xx + yy * yy <= r * r
        return np.asarray(image[yi - n:yi + n + 1, xi - n:xi + n + 1][keep], dtype=np.float32)

    def _locate(self, image: U8, cloth_full: F32 | None, pin: PinSpec) -> tuple[float, float]:
        """Where the pin stands at the start: on its spot, or plugging its hole (the endgame of
        some leagues plugs holes with their pins). The pin's head is looked for, by its colour, at
        both places; a dark (black) pin cannot be told from a dark hole and is taken on its spot."""
        if cloth_full is None or pin.colour not in ("white", "red"):
            return pin.x, pin.y
        try:
            hole = self.view.spec.hole(pin.hole)
        except KeyError:
            return pin.x, pin.y
        head_z = pin.height - 0.82 * pin.radius
        cloth_v = float(np.median(self._disc_pixels(cloth_full, pin.x, pin.y, 0.0, 2 * pin.radius).max(axis=1)))

        def looks_like_pin(x: float, y: float, z: float) -> float:
            px = self._disc_pixels(image, x, y, z, 0.82 * pin.radius)
            if len(px) == 0:
                return 0.0
            hsv = cv2.cvtColor(px.astype(np.uint8).reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
            hh, ss, vv = hsv[:, 0].astype(np.float32), hsv[:, 1].astype(np.float32), hsv[:, 2].astype(np.float32)
            if pin.colour == "white":
                hit = (ss < 80) & (vv > 1.1 * cloth_v)
            else:
                hit = (ss > 100) & ((hh < 10) | (hh > 170)) & (vv > 0.4 * cloth_v)
            return float(hit.mean())

        at_spot = looks_like_pin(pin.x, pin.y, head_z)
        in_hole = looks_like_pin(hole.x, hole.y, head_z - 10.0)
        if in_hole > at_spot + self.p.plugged_margin:
            return hole.x, hole.y
        return pin.x, pin.y

    def detect(self, image: U8, fg_full: U8 | None, balls: list[tuple[float, float, float]],
               fg_work: U8, bare: Callable[[], U8] | None = None) -> list[Detection]:
        """Pin detections for this frame; ``balls`` are (x, y, r) image pixels of found balls,
        ``fg_work`` the foreground at work resolution (for fallen pins), ``bare`` makes the work
        pixels that look like the bare cloth (0/255; asked for only when a pin falls)."""
        out: list[Detection] = []
        self.claimed = []
        before, self._before = self._before, list(balls)
        for st in self._state:
            pin = st.spec
            base = self.view.project(np.array([[st.x_mm, st.y_mm]]), 0.0)[0]
            head = self.view.project(np.array([[st.x_mm, st.y_mm]]), pin.height)[0]
            mid = (base + head) / 2.0
            s = float(self.view.local_scale(np.array([[st.x_mm, st.y_mm]]), 0.0)[0])
            reach = 0.5 * math.hypot(*st.template.shape[:2]) + self.p.search_mm * s
            half = 0.5 * math.hypot(*st.template.shape[:2])
            over = any(math.hypot(bx - mid[0], by - mid[1]) < br + half for bx, by, br in balls)
            near = any(math.hypot(bx - mid[0], by - mid[1]) < br + reach for bx, by, br in balls)
            cover = self._cover(fg_work, mid, reach)
            if cover > self.p.busy_fraction:
                continue  # a hand or an arm over the pin: say nothing this frame
            if over:
                # a ball against the pin: judge the part of the pin it leaves in view
                part = self._partial_fit(image, st, base, balls)
                need = self.p.restand_match if st.fallen else self.p.partial_match
                if part is not None and part[0] >= need:
                    self._moved(st, base, part[1])
                    st.fallen = False
                    out.append(self._standing(st))
                    continue
                # what shows of the pin's place still has its standing look (a ball resting
                # against a nudged pin hides half of it): not fallen, whatever the full look says
                # and a standing pin is knocked over only by a ball that reached it at a pace
                struck = st.fallen or self._struck(mid, half, balls, before)
                lying = [] if (part is not None and part[0] >= self.p.gone_match) or not struck else \
                    self._lying_pin(image, st, base, balls)
                if not lying and struck and part is not None and part[0] < self.p.gone_match and not st.fallen:
                    st.fallen = True  # what shows of the pin's place has lost its standing look
                    where = self._fallen_position(fg_work, st, balls, bare)
                    if where is not None:
                        st.fallen_mm = where
                    if st.fallen_mm is not None:
                        out.append(self._fallen(st))
                    continue
                if lying:
                    # the "ball" over the spot is the pin itself, lying where it fell
                    self.claimed.extend(lying)
                    st.fallen = True
                    where = self._fallen_position(fg_work, st, [b for b in balls if b not in lying], bare)
                    if where is not None:
                        st.fallen_mm = where
                    if st.fallen_mm is not None:
                        out.append(self._fallen(st))
                elif not st.fallen:
                    out.append(self._standing(st, self.KEPT))  # unseen: as it was
                elif st.fallen_mm is not None:
                    out.append(self._fallen(st))
                continue
            # a ball beside the pin would spoil a search: then only the pin's own place is checked
            found = self._match(image, st, base, search=not near)
            fit = -1.0 if found is None else found[0]
            if near and fit < self.p.stand_match:
                continue
            if fit >= (self.p.restand_match if st.fallen else self.p.stand_match):
                assert found is not None
                self._moved(st, base, found[1])
                st.fallen = False
                st.fallen_mm = None
                st.doubt = False
                out.append(self._standing(st))
                continue
            if not st.fallen and cover > 0.0:
                hidden = self._hidden_by_mass(fg_work, st, base)
                if hidden is not None:
                    # an arm or a shadow reaching into the pin's box: judge the part in view
                    part = self._partial_fit(image, st, base, balls, hidden)
                    if part is None:
                        out.append(self._standing(st, self.KEPT))  # too little in view: as it was
                        continue
                    if part[0] >= self.p.partial_match:
                        out.append(self._standing(st))
                        continue
            # Something coming over it, or nothing that could have knocked it over (no ball near
            # it now or a frame ago): judged on the next frame. A camera shaken on its mount moves
            # a pin's place by a fraction of a pixel, and its look, matched at whole pixels, misses
            # for a frame at a time (a 2 px shake: three pins called fallen, none struck).
            unreached = self.p.doubt_unreached and \
                not any(math.hypot(bx - mid[0], by - mid[1]) < br + reach for bx, by, br in before)
            if not st.fallen and not st.doubt and (cover >= self.p.doubt_fraction or unreached):
                st.doubt = True
                out.append(self._standing(st, self.KEPT))
                continue
            st.doubt = False
            st.fallen = True
            where = self._fallen_position(fg_work, st, balls, bare)
            if where is not None:
                st.fallen_mm = where
            if st.fallen_mm is not None:
                out.append(self._fallen(st))
        return out

    def _struck(self, mid: NDArray[np.float64], half: float, balls: list[tuple[float, float, float]],
                before: list[tuple[float, float, float]]) -> bool:
        """Did a ball over the pin (its box's centre ``mid``, half-diagonal ``half``) come to it at
        a pace: moved at least ``strike_share`` of its radius since the frame before, or not seen
        near there then? A pin topples only when struck at a pace; a ball creeping into it slides
        it along the cloth, and comes to rest against it hiding most of it under a tilted camera
        (bar billiards seed 1801: the base hidden, a sliver of the head in view, and the white
        claimed as the pin lying fallen)."""
        for bx, by, br in balls:
            if math.hypot(bx - mid[0], by - mid[1]) >= br + half:
                continue
            moved = min((math.hypot(bx - px, by - py) for px, py, _ in before), default=math.inf)
            if moved >= self.p.strike_share * br:
                return True
        return False

    def _lying_pin(self, image: U8, st: _PinState, base: NDArray[np.float64],
                   balls: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
        """The "balls" over a pin that are the pin lying where it fell: the standing look is gone
        from its place (no fit at all, ball or not) and they sit within a pin's length of it."""
        found = self._match(image, st, base, search=False)
        if found is None or found[0] >= self.p.gone_match:
            return []
        s = float(self.view.local_scale(np.array([[st.x_mm, st.y_mm]]), 0.0)[0])
        reach = st.spec.height * s
        near = [b for b in balls if math.hypot(b[0] - base[0], b[1] - base[1]) < reach]
        return near if near and all(math.hypot(b[0] - base[0], b[1] - base[1]) < reach for b in near) else []

    def _partial_fit(self, image: U8, st: _PinState, base: NDArray[np.float64],
                     balls: list[tuple[float, float, float]],
                     hidden: tuple[NDArray[np.bool_], int, int] | None = None) -> tuple[float, tuple[int, int]] | None:
        """Best fit of the standing look near the pin's place over the pixels no ball covers (nor
        ``hidden``: a mask of full-resolution pixels and its corner, see :meth:`_hidden_by_mass`),
        or None when too little of the pin is in view."""
        th, tw = st.template.shape[:2]
        h, w = image.shape[:2]
        s = self.view.local_scale(np.array([[st.x_mm, st.y_mm]]), 0.0)[0]
        reach = max(1, int(round(0.5 * self.p.search_mm * s)))
        # a ball against the pin joins it in the foreground, and its reading swells towards the
        # pin: no ball covers more than a ball's size at its place
        size = float(self.view.ball_radius_px(np.array([[st.x_mm, st.y_mm]]))[0])
        best: tuple[float, tuple[int, int]] | None = None
        for dy in range(-reach, reach + 1):
            for dx in range(-reach, reach + 1):
                x0 = int(round(base[0])) + st.offset[0] + dx
                y0 = int(round(base[1])) + st.offset[1] + dy
                if x0 < 0 or y0 < 0 or x0 + tw > w or y0 + th > h:
                    continue
                yy, xx = np.mgrid[y0:y0 + th, x0:x0 + tw]
                free = np.ones((th, tw), bool) if st.own is None else st.own.copy()
                for bx, by, br in balls:
                    free &= (xx - bx) ** 2 + (yy - by) ** 2 > (1.15 * min(br, size)) ** 2
                if hidden is not None:
                    mask, hx, hy = hidden
                    free &= ~mask[y0 - hy:y0 - hy + th, x0 - hx:x0 - hx + tw]
                share = float(free.sum()) / (free.size if st.own is None else float(st.own.sum()))
                if share < 0.4:
                    continue
                win = image[y0:y0 + th, x0:x0 + tw].astype(np.float32)[free]
                tpl = st.template[free]
                sq = float(((win - tpl) ** 2).sum()) / max(1.0, st.contrast * share)
                a, b = win - win.mean(axis=0), tpl - tpl.mean(axis=0)
                cc = float((a * b).sum() / max(1e-6, math.sqrt(float((a * a).sum()) * float((b * b).sum()))))
                fit = min(1.0 - sq, cc) - 0.01 * (dx * dx + dy * dy) / reach
                if best is None or fit > best[0]:
                    best = (fit, (dx, dy))
        return best

    def _hidden_by_mass(self, fg_work: U8, st: _PinState,
                        base: NDArray[np.float64]) -> tuple[NDArray[np.bool_], int, int] | None:
        """The full-resolution pixels around the pin's box (as far as :meth:`_partial_fit`
        shifts it) that belong to a piece of foreground larger than ``mass_pins`` lying pins, and
        the region's corner; None when no such piece reaches into the pin's box."""
        view = self.view
        th, tw = st.template.shape[:2]
        s = float(view.local_scale(np.array([[st.x_mm, st.y_mm]]), 0.0)[0])
        reach = max(1, int(round(0.5 * self.p.search_mm * s)))
        x0 = int(round(base[0])) + st.offset[0] - reach
        y0 = int(round(base[1])) + st.offset[1] - reach
        yy, xx = np.mgrid[y0:y0 + th + 2 * reach, x0:x0 + tw + 2 * reach]
        work = view.to_work(np.column_stack([xx.ravel(), yy.ravel()]).astype(np.float64))
        h, w = fg_work.shape
        wx = np.clip(np.round(work[:, 0]).astype(np.intp), 0, w - 1)
        wy = np.clip(np.round(work[:, 1]).astype(np.intp), 0, h - 1)
        if not fg_work[wy, wx].any():
            return None
        pin_px = st.spec.height * 2.0 * st.spec.radius * (s * view.scale) ** 2  # a lying pin, work px
        n, labels, stats, _ = cv2.connectedComponentsWithStats((fg_work > 0).astype(np.uint8), connectivity=8)
        big = stats[:, cv2.CC_STAT_AREA] > self.p.mass_pins * pin_px
        big[0] = False
        mask = big[labels[wy, wx]].reshape(xx.shape)
        inner = mask[reach:reach + th, reach:reach + tw]
        return (mask, x0, y0) if inner.any() else None

    def _moved(self, st: _PinState, base: NDArray[np.float64], shift: tuple[int, int]) -> None:
        """A standing pin found ``shift`` pixels from where it stood has slid along the cloth."""
        dx, dy = shift
        if dx or dy:
            moved = self.view.to_table(np.array([[base[0] + dx, base[1] + dy]]), 0.0)[0]
            st.x_mm, st.y_mm = float(moved[0]), float(moved[1])

    def _cover(self, fg_work: U8, centre: NDArray[np.float64], reach: float) -> float:
        """The share of the pin's neighbourhood in the foreground (a hand, an arm, a cue)."""
        c = self.view.to_work(np.array([centre]))[0]
        rw = max(2.0, 2.0 * reach * self.view.scale)
        h, w = fg_work.shape
        x0, x1 = max(0, int(c[0] - rw)), min(w, int(c[0] + rw) + 1)
        y0, y1 = max(0, int(c[1] - rw)), min(h, int(c[1] + rw) + 1)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        return float((fg_work[y0:y1, x0:x1] > 0).mean())

    # -- helpers -------------------------------------------------------------------------------
    def _match(self, image: U8, st: _PinState, base: NDArray[np.float64],
               search: bool = True) -> tuple[float, tuple[int, int]] | None:
        th, tw = st.template.shape[:2]
        s = self.view.local_scale(np.array([[st.x_mm, st.y_mm]]), 0.0)[0]
        reach = max(2, int(round(self.p.search_mm * s))) if search else 1
        x0 = int(round(base[0])) + st.offset[0] - reach
        y0 = int(round(base[1])) + st.offset[1] - reach
        h, w = image.shape[:2]
        if x0 < 0 or y0 < 0 or x0 + tw + 2 * reach > w or y0 + th + 2 * reach > h:
            return None
        win = image[y0:y0 + th + 2 * reach, x0:x0 + tw + 2 * reach].astype(np.float32)
        sq = cv2.matchTemplate(win, st.template, cv2.TM_SQDIFF)
        cc = cv2.matchTemplate(win, st.template, cv2.TM_CCOEFF_NORMED)
        # both the intensity (squared difference, against the pin's contrast on bare cloth) and
        # the pattern (normalised correlation) must fit; prefer the nearest of near-equal fits
        fit = np.minimum(1.0 - sq / st.contrast, cc)
        yy, xx = np.mgrid[0:fit.shape[0], 0:fit.shape[1]]
        pen = fit - 0.01 * ((xx - reach) ** 2 + (yy - reach) ** 2) / max(1, reach)
        iy, ix = np.unravel_index(int(np.argmax(pen)), pen.shape)
        return float(fit[iy, ix]), (int(ix) - reach, int(iy) - reach)

    def _standing(self, st: _PinState, score: float | None = None) -> Detection:
        pin = st.spec
        px = self.view.project(np.array([[st.x_mm, st.y_mm]]), self.view.plane_z)[0]
        r = float(self.view.local_scale(np.array([[st.x_mm, st.y_mm]]), self.view.plane_z)[0]) * pin.radius
        return Detection(pin.id, "pin-standing", float(px[0]), float(px[1]), max(1.0, r),
                         self.SEEN if score is None else score)

    @property
    def doubting(self) -> bool:
        """Whether a pin lost its look this frame and is judged again on the next (``doubt_fraction``,
        ``doubt_unreached``)."""
        return any(st.doubt and not st.fallen for st in self._state)

    def lying(self) -> list[tuple[tuple[float, float], tuple[float, float], float]]:
        """Each fallen pin's body as it lies: the ends of its axis and its radius, in picture
        pixels. A pin falls over about its foot, so its axis runs from near where it stood
        through where it was found lying, a pin's height long; one found within ``LYING_MIN_MM``
        of where it stood (dropped into its hole, or lying towards the camera) has no direction
        and none is given."""
        out: list[tuple[tuple[float, float], tuple[float, float], float]] = []
        for st in self._state:
            if not st.fallen or st.fallen_mm is None:
                continue
            fx, fy = st.fallen_mm
            ux, uy = fx - st.x_mm, fy - st.y_mm
            n = math.hypot(ux, uy)
            if n < self.LYING_MIN_MM:
                continue
            half = 0.5 * st.spec.height
            ends = np.array([[fx - half * ux / n, fy - half * uy / n], [fx + half * ux / n, fy + half * uy / n]])
            px = self.view.project(ends, self.view.plane_z)
            r = float(self.view.local_scale(np.array([st.fallen_mm]), self.view.plane_z)[0]) * st.spec.radius
            out.append(((float(px[0][0]), float(px[0][1])), (float(px[1][0]), float(px[1][1])), r))
        return out

    def _fallen(self, st: _PinState) -> Detection:
        pin = st.spec
        assert st.fallen_mm is not None
        px = self.view.project(np.array([st.fallen_mm]), self.view.plane_z)[0]
        r = float(self.view.local_scale(np.array([st.fallen_mm]), self.view.plane_z)[0]) * pin.radius
        return Detection(pin.id, "pin-fallen", float(px[0]), float(px[1]), max(1.0, r), 0.8)

    def _fallen_position(self, fg_work: U8, st: _PinState, balls: list[tuple[float, float, float]],
                         bare: Callable[[], U8] | None = None) -> tuple[float, float] | None:
        """Table position of the fallen pin: the centroid of the foreground near its spot that no
        ball explains, measured on the plane of a lying pin's axis. Foreground that looks like the
        bare cloth is where the pin stood (the background still holds it standing), not where it
        lies: counted, it pulled the centroid back towards the spot by 10 to 30 mm."""
        view = self.view
        pin = st.spec
        centre = view.to_work(view.project(np.array([[st.x_mm, st.y_mm]]), pin.radius))[0]
        s = float(view.local_scale(np.array([[st.x_mm, st.y_mm]]), pin.radius)[0]) * view.scale
        reach = self.p.fallen_mm * s
        h, w = fg_work.shape
        x0, x1 = max(0, int(centre[0] - reach)), min(w, int(centre[0] + reach) + 1)
        y0, y1 = max(0, int(centre[1] - reach)), min(h, int(centre[1] + reach) + 1)
        if x1 <= x0 or y1 <= y0:
            return None
        patch = fg_work[y0:y1, x0:x1] > 0
        if bare is not None:
            patch &= bare()[y0:y1, x0:x1] == 0
        yy, xx = np.mgrid[y0:y1, x0:x1]
        keep = patch & ((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 <= reach * reach)
        if balls:
            for bx, by, br in balls:
                wb = view.to_work(np.array([[bx, by]]))[0]
                keep &= (xx - wb[0]) ** 2 + (yy - wb[1]) ** 2 > (1.3 * br * view.scale) ** 2
        n = int(keep.sum())
        if n < 3:
            return None
        cx, cy = float(xx[keep].mean()), float(yy[keep].mean())
        mm = view.to_table(view.to_image(np.array([[cx, cy]])), pin.radius)[0]
        return float(mm[0]), float(mm[1])
