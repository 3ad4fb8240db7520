"""Event extraction: tracks over time become the table events of DESIGN.md.

``EventExtractor.update(tracks) -> list[TableEvent]`` is called once a frame. It keeps one small
state machine: the table is *at rest* or *in a shot*.

* At rest, a ball that suddenly moves fast starts a shot (``shot_start``, dated to the frame it
  left its rest position, with every object's position). Objects appearing, vanishing or jumping
  while nothing rolls are hands at work: ``placed``, ``removed``, ``moved``.
* In a shot, collisions and cushions are found from the *change* of velocity between frames, not
  from one frame's distances: at 30 fps a fast ball travels 100 mm or more per frame, so the
  moment of contact is almost never on a frame. Each candidate is checked by extrapolating the
  previous frame's motion: two balls whose straight paths come within touching distance during
  the frame, and whose velocities changed, touched; a ball whose path reaches a cushion and whose
  velocity into it reversed, hit that cushion. Pots, balls off the table, baulk entries, pins
  falling and the carrom striker crossing its baseline are read from the tracks.
* When nothing has moved more than ``rest_speed`` for ``rest_s`` seconds, ``at_rest`` closes the
  shot with every position. A ball that drops into a hole later is still reported (``late``).

Debounce and hysteresis are named parameters (see :class:`ExtractorParams`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from tableref.calibration.spec import TableSpec
from tableref.events import EventType, TableEvent
from tableref.vision.detect import PLAYED_LABELS
from tableref.vision.extract_contacts import PathEnd, first_touch, reached, segment_distance, swept_touch
from tableref.vision.extract_cushions import bounce, bounce_unseen, creep, fly_over, struck_into
from tableref.vision.extract_params import ExtractorParams
from tableref.vision.extract_pots import Knock, drop_time, knocked_into, knocked_off
from tableref.vision.extract_strike import hidden_strike, lost_struck, struck_among
from tableref.vision.tracker import Track, Tracks, TrackStatus

__all__ = ["EventExtractor", "ExtractorParams"]


#: a graze (see ``EventExtractor._late_contacts``): when, the mover, the resting object, its knock
_Graze = tuple[float, str, str, Knock]


@dataclass
class _ShotState:
    struck: str | None = None
    start_t: float = 0.0
    touching: set[tuple[str, str]] = field(default_factory=set)
    armed: set[str] = field(default_factory=set)
    bounced: dict[tuple[str, str], float] = field(default_factory=dict)
    crossed: set[str] = field(default_factory=set)
    seat: str | None = None
    #: when the last object that left the table in this shot (potted, off) last moved
    gone_moving: tuple[float, int] | None = None
    #: id -> rest place of an object that seemed to start moving when nothing could have hit it
    #: (see ``EventExtractor._movers``)
    unreached: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: the last frame's grazes: a mover's path touched a resting object that did not move yet
    #: (when, mover, rester, the rester's knocked-off state); see ``EventExtractor._late_contacts``
    grazed: list[_Graze] = field(default_factory=list)
    #: when the whole table went still, once it had been still for ``hand_still_s`` and then
    #: something moved (see ``EventExtractor._picked_up``)
    woke: tuple[float, int] | None = None
    #: id -> where each object lay then
    woke_places: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: the struck object, lost since it left its rest, has been given its hit (``_lost_hit``)
    lost_hit: bool = False
    #: the object it was found to hit so, and when
    lost_hit_by: tuple[str, float] | None = None


@dataclass
class _PendingStart:
    """A start among a cluster waiting for the next frame to confirm it (``crowd_gap_mm``)."""

    movers: dict[str, tuple[float, float, float]]  # id -> rest x, y and the distance from it then
    knocked: dict[str, Knock]  # the knocked-off state before it
    #: id -> where each mover was read on the frame before (a reading that flips between two fits
    #: of a rack ball leaves it and comes back there)
    before: dict[str, tuple[float, float]] = field(default_factory=dict)
    held: list[TableEvent] | None = None  # that frame's shot events, once the frame is done
    #: id -> where each mover was read on the frame of the start: a struck object runs straight
    #: on from its rest, and (while a hand is at work, see ``EventExtractor._picked_up``) a
    #: carried one gathers speed where a struck one does not
    at: dict[str, tuple[float, float]] = field(default_factory=dict)
    frames: int = 1  # frames since the start
    hands: bool = False  # started while a hand was at work
    #: movers not seen on the frame before the start (found again away from their rest)
    gapped: set[str] = field(default_factory=set)
    #: movers whose line is asked afresh from where they were found again (see
    #: ``EventExtractor._settle_pending``)
    anchored: set[str] = field(default_factory=set)


class EventExtractor:
    """Turns :class:`Tracks` into :class:`TableEvent` lists for one table (see module docstring)."""

    def __init__(self, spec: TableSpec, params: ExtractorParams | None = None, shooter_seat: str = "south") -> None:
        self.spec = spec
        self.p = params or ExtractorParams()
        self.shooter_seat = shooter_seat
        self.in_shot = False
        self._shot = _ShotState()
        self._prev: dict[str, PathEnd] = {}
        self._rest_pos: dict[str, tuple[float, float]] = {}
        self._pins_fallen: set[str] = set()
        self._pin_fallen_seen: dict[str, list[tuple[int, float]]] = {}  # pin -> recent fallen readings
        self._pin_moved: dict[str, tuple[float, float]] = {}
        self._pin_stood: dict[str, tuple[float, float]] = {}  # pin -> its last standing reading in view
        self._pin_slid: dict[str, tuple[int, float]] = {}  # pin -> first reading of the slide it is on
        #: pin -> (frame, t, x, y) of each standing reading in view that moved from the last kept
        self._pin_path: dict[str, list[tuple[int, float, float, float]]] = {}
        self._off: dict[str, float] = {}
        self._anchor: dict[str, tuple[float, float, float, int]] = {}  # id -> x, y, still since t, frame
        self._start_t: float | None = None
        self._smooth: dict[str, tuple[float, float]] = {}
        self._moving: set[str] = set()
        self._hist: dict[str, list[tuple[float, int, float, float]]] = {}
        self._frame_t: dict[int, float] = {}
        self._last_t = 0.0
        self._last_fast: dict[str, float] = {}  # id -> when it was last seen moving fast
        self._rested: dict[str, tuple[float, float, float]] = {}
        #: when each track was last seen again after frames unseen, and when it was seen before
        #: them (``knocked_off``: an object lost after a hit may be the one another lost track finds)
        self._refound: dict[str, tuple[float, float]] = {}
        #: id -> hitter's place, own rest place, hitter's speed and when, for an object knocked off its rest
        self._knocked: dict[str, Knock] = {}  # id -> where and when last seen not moving
        self._seen_at: dict[str, float] = {}  # id -> when it was last seen (not predicted), as of the previous frame
        #: ids seen with their centre over the playing surface: only such a ball can be potted. A
        #: "ball" found only past the cushions (a ball resting on the rail, a pocket's jaw or a
        #: pocketed ball in its net read as one) that vanishes by a pocket went nowhere.
        self._on_bed: set[str] = set()
        self._railed: set[str] = set()  # ids first seen past the cushions, not yet set on the cloth
        #: each cushion with its nose line, normal onto the table (see :meth:`TableSpec.nose`)
        self._noses = [(cu, spec.nose(cu)) for cu in spec.cushions]
        self._pending: _PendingStart | None = None
        #: id -> rest x, y and when last seen there, for a ball seen again after it was hidden at rest
        self._unhidden: dict[str, tuple[float, float, float]] = {}
        #: id -> the ``placed`` event reported for it (a name it loses to a rename takes it along)
        self._placed: dict[str, TableEvent] = {}
        #: ids a hand took up while the table lay still (``hand_still_s``), until they lie still again
        self._carried: set[str] = set()
        #: a hand took something up from the still table and may still be at work (see ``_picked_up``)
        self._hands = False
        #: when an object last had ``rest_speed``: a slow ball back off a cushion hovers near the
        #: place it stopped for a while (bar billiards and pool), its anchor unmoved
        self._stirred: tuple[float, int] | None = None
        #: when the last shot started and came to rest
        self._last_shot: tuple[float, float] = (math.inf, -math.inf)

    # -- the verb -------------------------------------------------------------------------------
    def update(self, tracks: Tracks) -> list[TableEvent]:
        t, frame = tracks.t, tracks.frame
        # A track that took a free name is no new object: what was known under its old name is
        # known under the new one, and only a placement reported under the old name (a striker
        # put down and read as a man at first) is reported again under the right one.
        placed_again: list[TableEvent] = []
        for a, b in tracks.renamed:
            fresh = b not in self._prev and b not in self._rest_pos and b not in self._placed
            self._trade(a, b)
            if fresh and b in self._placed:
                self._placed[b] = replace(self._placed[b], objects=(b,))
                placed_again.append(self._placed[b])
        if self._start_t is None:
            self._start_t = t
        self._frame_t[frame] = t
        if len(self._frame_t) > 600:
            for old in sorted(self._frame_t)[:-300]:
                del self._frame_t[old]
        events: list[TableEvent] = placed_again
        balls = [tr for tr in tracks.tracks if not tr.group.startswith("pin")]
        pins = [tr for tr in tracks.tracks if tr.group.startswith("pin")]
        visible = [tr for tr in balls if tr.status in (TrackStatus.VISIBLE, TrackStatus.MISSING)]
        still_before = self._still_since() if self.in_shot else None
        if still_before is not None and self._stirred is not None:
            still_before = max(still_before, self._stirred)
        self._update_anchors(visible, t, frame)
        for tr in visible:
            if tr.status == TrackStatus.VISIBLE:
                if self.spec.on_surface(tr.x, tr.y, tr.radius_mm):  # on the cloth, over a cushion's
                    self._on_bed.add(tr.id)  # nose or a pocket's lip: on the table, or leaving it
                h = self._hist.setdefault(tr.id, [])
                h.append((t, frame, tr.x, tr.y))
                del h[:-16]
        for gone in set(self._hist) - {tr.id for tr in visible}:
            del self._hist[gone]
        self._moving = {tr.id for tr in visible if self._is_moving(tr, t)}
        self._note_unhidden(visible)
        if self._pending is not None:
            events += self._settle_pending(visible)
        self._carried = {c for c in self._carried if (a := self._anchor.get(c)) is not None
                         and t - a[2] < self.p.hand_still_s}
        if self._hands and not self.in_shot:
            still = self._still_since()
            if still is not None and t - still[0] >= self.p.hand_still_s and not any(
                    tr.status == TrackStatus.MISSING for tr in visible if tr.id in self._carried):
                self._hands = False  # the hand is gone: what it nudged lies where it lies now
                for tr in visible:
                    rest = self._rest_pos.get(tr.id)
                    if tr.status == TrackStatus.VISIBLE and rest is not None \
                            and math.hypot(tr.x - rest[0], tr.y - rest[1]) <= self.p.moved_mm:
                        self._rest_pos[tr.id] = (tr.x, tr.y)
        if self.in_shot:
            events += self._picked_up(visible, pins, still_before, t, frame)
        if not self.in_shot:
            events += self._maybe_start(visible, t, frame)
            if not self.in_shot:
                events += self._hand_changes(balls, t, frame)
        if self.in_shot:
            events += self._contacts(visible, t, frame)
            events += self._cushion_hits(visible, t, frame)
            events += self._baulk(visible, t, frame)
            events += self._baseline(visible, t, frame)
        events += self._off_surface(visible, t, frame)
        events += self._ends(balls, t, frame)
        self._first_pin_places(pins)
        pin_events = self._pins(pins, t, frame)
        events += pin_events + self._pin_contacts(pin_events, pins, visible)
        if self.in_shot:
            events += self._maybe_rest(visible, pins, t, frame)
        for tr in visible:
            moving = tr.id in self._moving
            before = self._prev.get(tr.id)
            if tr.status == TrackStatus.VISIBLE and before is not None and t - before.seen_t > 1.5 * self._frame_dt():
                self._refound[tr.id] = (t, before.seen_t)
            if tr.status == TrackStatus.VISIBLE or before is None:
                seen_at = (tr.x, tr.y, t, tr.vx if moving else 0.0, tr.vy if moving else 0.0)
            else:  # hidden: where, when and how fast it was last actually seen
                seen_at = (before.seen_x, before.seen_y, before.seen_t, before.seen_vx, before.seen_vy)
            self._prev[tr.id] = PathEnd(tr.x, tr.y, tr.vx if moving else 0.0, tr.vy if moving else 0.0, t, moving,
                                        *seen_at)
            if tr.speed >= self.p.start_speed:
                self._last_fast[tr.id] = t
            if not moving and tr.status == TrackStatus.VISIBLE:
                self._rested[tr.id] = (tr.x, tr.y, t)
        for gone in set(self._last_fast) - {tr.id for tr in visible}:
            del self._last_fast[gone]
        for gone in set(self._rested) - {tr.id for tr in visible}:
            del self._rested[gone]
        self._seen_at = {tr.id: tr.last_seen_t for tr in visible}
        self._last_t = t
        if any(tr.speed >= self.p.rest_speed for tr in visible):
            self._stirred = (t, frame)
        if self._pending is not None:  # started this frame, or not yet judged: hold its events
            self._pending.held = (self._pending.held or []) + [e for e in events if e.type in _SHOT_TYPES]
            events = [e for e in events if e.type not in _SHOT_TYPES]
        # A one-of-a-kind object (a pool number, the red, the queen) is named by its label: the
        # tracker calls a second track of a label that another still holds "ball-0-dup6" (the real
        # cue ball, when a cue tip took its track at the strike), but no referee knows that ball.
        names = {tr.id: tr.label for tr in tracks.tracks if tr.id.startswith(f"{tr.label}-dup")}
        if names:  # (and a "contact" between the two tracks of one label is no contact)
            events = [replace(e, objects=tuple(names.get(o, o) for o in e.objects)) for e in events]
            events = [e for e in events if e.type is not EventType.CONTACT or len(set(e.objects)) == len(e.objects)]
        return sorted(events, key=lambda e: (e.t, _ORDER.get(e.type, 9)))

    def _trade(self, a: str, b: str) -> None:
        """Two tracks traded names (see :attr:`Tracks.renamed`): what is known under each name
        belongs to the other now. No ball moved: nothing is reported."""
        def swap(x: str) -> str:
            return b if x == a else a if x == b else x

        for d in (self._prev, self._rest_pos, self._off, self._anchor, self._smooth, self._hist, self._last_fast,
                  self._rested, self._knocked, self._seen_at, self._unhidden, self._placed,
                  *((self._pending.movers, self._pending.knocked, self._pending.before)
                    if self._pending is not None else ())):
            _swap_keys(d, a, b)
        for st in (self._moving, self._on_bed, self._railed, self._shot.armed, self._shot.crossed, self._carried):
            has_a, has_b = a in st, b in st
            st.discard(a)
            st.discard(b)
            if has_a:
                st.add(b)
            if has_b:
                st.add(a)
        sh = self._shot
        if sh.struck in (a, b):
            sh.struck = swap(sh.struck)
        sh.touching = {(min(swap(x), swap(y)), max(swap(x), swap(y))) for x, y in sh.touching}
        sh.bounced = {(swap(x), y): v for (x, y), v in sh.bounced.items()}
        sh.grazed = [(w, swap(m), swap(r), k) for w, m, r, k in sh.grazed]

    # -- shot start and rest --------------------------------------------------------------------
    def _note_unhidden(self, visible: list[Track]) -> None:
        """Balls seen again after being hidden at rest for longer than a smear (see ``hidden_run``)."""
        here = {tr.id for tr in visible if tr.status == TrackStatus.VISIBLE}
        for tid, (_, _, since) in list(self._unhidden.items()):
            seen_again = sum(1 for h in self._hist.get(tid, []) if h[0] > since)
            if tid not in here or self.in_shot or seen_again > self.p.hidden_run + 2:
                del self._unhidden[tid]  # gone, a shot started, or seen long enough to judge
        if self.in_shot:
            return
        for tr in visible:
            before = self._prev.get(tr.id)
            if tr.status != TrackStatus.VISIBLE or before is None or tr.id in self._railed or tr.label == "striker":
                continue
            last = self._seen_at.get(tr.id, -1e9)
            if self._last_t - last > self.p.smear_strike_s + 1e-9 and not before.moving \
                    and math.hypot(before.seen_vx, before.seen_vy) < self.p.rest_speed:
                rx, ry = self._rest_of(tr)
                self._unhidden[tr.id] = (rx, ry, last)

    def _struck_unseen(self, visible: list[Track]) -> tuple[Track, float] | None:
        """A ball struck while hidden, with when (see ``hidden_run``), or None."""
        for tr in visible:
            got = self._unhidden.get(tr.id)
            if got is None or tr.status != TrackStatus.VISIBLE:
                continue
            run = [h for h in self._hist.get(tr.id, []) if h[0] > got[2]]
            if _recent_run(run, 1) != run:
                continue
            when = hidden_strike(self.p, (got[0], got[1]), got[2], tr.radius_mm, run)
            if when is not None:
                return tr, when
        return None

    def _maybe_start(self, visible: list[Track], t: float, frame: int) -> list[TableEvent]:
        movers = [tr for tr in visible if tr.status == TrackStatus.VISIBLE and tr.speed >= self.p.start_speed
                  and tr.id not in self._railed  # a ball on the rail is carried, not struck
                  and tr.id not in self._carried
                  and self._last_t - self._seen_at.get(tr.id, -1e9)
                  <= (self.p.hidden_strike_s if tr.label == "striker" and not self._hands
                      else self.p.smear_strike_s) + 1e-9
                  and self._quiet_for(tr) >= self.p.struck_still_s
                  and (tr.label == "striker" or self._seen_share(tr, frame) >= self.p.struck_seen)]
        played = [tr for tr in visible if tr.label in PLAYED_LABELS and tr.status == TrackStatus.VISIBLE
                  and tr.speed < self.p.start_speed]
        if played:
            # Carroms: only the striker is flicked. A man or the queen moves off a still board
            # only when the striker (or what it set moving) hits it; with the striker lying in
            # view, that is a hand, or the man's track took another's reading (break, seed 3501:
            # a man's track jumped 240 mm to the striker on its baseline and back, and a shot
            # started 20 frames before the break). Pool likewise: a cue strikes only the cue
            # ball (up and down, no rail, seed 3702: the cue laid over the 2 behind the cue ball
            # shifted its reading 20 mm, and a shot "started" with the 2 a second early). Unless
            # it rested touching it: struck into it, a frozen cue ball shoves it off and barely
            # moves itself.
            movers = [tr for tr in movers if tr.label in PLAYED_LABELS
                      or any(self._touching(tr, o) for o in played)]
        if not movers:
            unseen = self._struck_unseen(visible)
            if unseen is None:
                return []
            struck, when = unseen
            del self._unhidden[struck.id]
            self.in_shot = True
            self._shot = _ShotState(struck=struck.id, start_t=when, touching=self._frozen(visible, struck.id))
            return [self._start_event(struck, visible, when, _frame_at(self._frame_t, when, frame))]
        struck = lost_struck(self.p, visible, movers, self._last_t, self._seen_at, self._rest_of, self._quiet_for) \
            or struck_among(self.spec, movers, self._rest_of, self._rest_pos)
        prev = self._prev[struck.id]
        start_t, start_frame = prev.t, frame - 1 if frame > 0 else frame
        if prev.seen_t < prev.t - 1e-9:  # lost a while before (bare_strike_s): struck when last seen
            start_t, start_frame = prev.seen_t, _frame_at(self._frame_t, prev.seen_t, start_frame)
        self.in_shot = True
        self._shot = _ShotState(struck=struck.id, start_t=start_t, touching=self._frozen(visible, struck.id))
        event = self._start_event(struck, visible, start_t, start_frame)
        doubtful = [tr for tr in movers if self._hands or self._in_crowd(tr, visible) or self._barely_moved(tr)]
        if doubtful and len(doubtful) == len(movers):
            rests = {tr.id: self._rest_of(tr) for tr in movers}
            self._pending = _PendingStart({tr.id: (*rests[tr.id], math.hypot(tr.x - rests[tr.id][0], tr.y - rests[tr.id][1]))
                                           for tr in movers}, dict(self._knocked),
                                          before={tr.id: (self._prev[tr.id].x, self._prev[tr.id].y)
                                                  for tr in movers if tr.id in self._prev},
                                          at={tr.id: (tr.x, tr.y) for tr in movers}, hands=self._hands,
                                          gapped={tr.id for tr in movers
                                                  if self._seen_at.get(tr.id, -1e9) < self._last_t - 1e-9})
        return [event]

    def _start_event(self, struck: Track, visible: list[Track], t: float, frame: int) -> TableEvent:
        """The shot's start (the shot state set): every object's place, the struck one's rest."""
        prev = self._prev[struck.id]
        start = self._rest_pos.get(struck.id, (prev.x, prev.y))
        positions = {tr.id: [round(x, 1) for x in self._rest_pos.get(tr.id, (tr.x, tr.y))] for tr in visible}
        self._shot.armed = {tr.id for tr in visible if not self.spec.in_baulk(tr.x, tr.radius_mm)}
        self._shot.seat = self._seat_of(start) if struck.label == "striker" else None
        return TableEvent(t=t, frame=frame, type=EventType.SHOT_START, objects=(struck.id,),
                          data={"position": [round(start[0], 1), round(start[1], 1)], "positions": positions})

    def _touching(self, a: Track, b: Track) -> bool:
        """Did ``a`` rest touching ``b``: within ``still_mm``, or as far as ``b`` has moved from
        its rest now, of it?"""
        ax, ay = self._rest_of(a)
        bx, by = self._rest_of(b)
        gap = max(self.p.still_mm, math.hypot(b.x - bx, b.y - by))
        return math.hypot(ax - bx, ay - by) <= a.radius_mm + b.radius_mm + gap

    def _barely_moved(self, tr: Track) -> bool:
        """Is ``tr`` within ``jitter_r`` of its radius of its rest (see ``jitter_r``)?"""
        rx, ry = self._rest_of(tr)
        return math.hypot(tr.x - rx, tr.y - ry) <= self.p.jitter_r * tr.radius_mm

    def _in_crowd(self, tr: Track, visible: list[Track]) -> bool:
        """Did ``tr`` rest within ``crowd_gap_mm`` of another object (see ``crowd_gap_mm``)?"""
        rx, ry = self._rest_of(tr)
        for o in visible:
            if o.id == tr.id:
                continue
            ox, oy = self._rest_of(o)
            if math.hypot(rx - ox, ry - oy) <= tr.radius_mm + o.radius_mm + self.p.crowd_gap_mm:
                return True
        return False

    def _settle_pending(self, visible: list[Track]) -> list[TableEvent]:
        """The frame after a start among a cluster: a mover that went on moving away from its rest,
        and is not back where it was read before the start, or vanished from a bare place (struck
        late in the frame, it is a smear too faint to see now), confirms the shot (its events,
        held back a frame, are reported now); otherwise the cluster was only read afresh, and the
        shot never started. (Up and down seed 1702: a rack ball read at one of two fits 14 mm
        apart, flipping between them, had its rest taken at the far one; back at the near one, it
        was "farther from its rest", and a shot started half a minute before the break.)"""
        assert self._pending is not None
        pending, self._pending = self._pending, None
        by_id = {tr.id: tr for tr in visible}
        anew = False
        for tid, (rx, ry, then) in pending.movers.items():
            tr = by_id.get(tid)
            bx, by = pending.before.get(tid, (rx, ry))
            if tid in pending.anchored:
                then = math.hypot(pending.at[tid][0] - rx, pending.at[tid][1] - ry)  # it must run on from there
            if tr is not None and tr.status == TrackStatus.VISIBLE \
                    and math.hypot(tr.x - rx, tr.y - ry) > then + self.p.still_mm \
                    and math.hypot(tr.x - bx, tr.y - by) > self.p.still_mm:
                if not self._handled(pending, (rx, ry), tr):
                    return pending.held or []
                if not pending.hands and pending.frames > 1 and tid not in pending.anchored:
                    # Found again off the line through its first reading after the start: that
                    # reading may have been the cue's tip or ferrule following through (up and
                    # down seed 3601, legal pot: the cue ball read 28 mm off its rest across its
                    # way, lost, then found 186 mm down its way). A struck ball runs straight on
                    # from its rest: the line is asked afresh through where it is found now.
                    pending.anchored.add(tid)
                    pending.at[tid] = (tr.x, tr.y)
                if tid in pending.anchored:
                    anew = True
            if tr is not None and tr.status == TrackStatus.MISSING and tr.lost_bare and not pending.hands \
                    and (tid not in pending.gapped or pending.frames >= self.p.carry_wait):
                return pending.held or []  # gone from a bare place: too fast to be seen (struck late in the frame)
        if pending.frames < self.p.carry_wait and (anew or any(
                (tr := by_id.get(tid)) is not None and tr.status == TrackStatus.MISSING for tid in pending.movers)):
            pending.frames += 1  # judged once seen again (see ``carry_wait``)
            self._pending = pending
            return []
        self.in_shot = False
        self._shot = _ShotState()
        self._knocked = pending.knocked
        return []

    def _handled(self, pending: _PendingStart, rest: tuple[float, float], tr: Track) -> bool:
        """Was ``tr`` moved by a hand, or its track by a stray reading, rather than struck? A
        struck object is fastest just after the strike and runs straight on from its rest. While
        a hand is at work, one that went farther a frame than on the frame it started, by
        ``carry_gain`` or more, was carried; one that strayed from the line by more than
        ``hidden_line_r`` of its radius was carried or its track took the hand's reading (carrom
        queen returned, seed 2902, a man's track jumped 187 mm onto the hand bringing the queen
        back and went on with it, across the line). The line is asked of any start whose mover
        was lost before it was seen again; one seen on the next frame is judged as ever."""
        at = pending.at.get(tr.id)
        before = pending.before.get(tr.id)
        if at is None or before is None:
            return False
        step = math.hypot(at[0] - before[0], at[1] - before[1])
        if pending.hands and math.hypot(tr.x - at[0], tr.y - at[1]) / pending.frames >= self.p.carry_gain * step:
            return True
        if not pending.hands and pending.frames == 1:
            return False  # seen on the next frame: judged as before
        ux, uy = at[0] - rest[0], at[1] - rest[1]
        n = math.hypot(ux, uy)
        if n <= 0.0:
            return False
        return abs((tr.x - at[0]) * uy - (tr.y - at[1]) * ux) / n > self.p.hidden_line_r * tr.radius_mm

    def _seen_share(self, tr: Track, frame: int) -> float:
        """Of the frames of the ``struck_still_s`` before this one, the share ``tr`` was seen on."""
        n = max(1, min(16, round(self.p.struck_still_s / self._frame_dt())))  # 16: the sightings kept
        seen = {f for _, f, _, _ in self._hist.get(tr.id, [])}
        return sum(1 for f in range(frame - n, frame) if f in seen) / n

    def _quiet_for(self, tr: Track) -> float:
        """How long, up to the previous frame, ``tr`` had been on the table without moving fast."""
        since = max(tr.first_seen_t, self._last_fast.get(tr.id, tr.first_seen_t))
        return self._last_t - since

    def _frozen(self, visible: list[Track], struck: str) -> set[tuple[str, str]]:
        """Pairs resting against each other when the shot starts (a rack), the struck ball's
        left out. They touch already: the detector reads a cluster from its shared outline, and
        the jitter of that reading is no contact; one is counted once they have come apart. The
        struck ball's are kept: struck into a ball it is frozen to, that ball is its first contact.
        """
        out: set[tuple[str, str]] = set()
        rests = [(tr, self._rest_of(tr)) for tr in visible if tr.id != struck]
        for i, (a, (ax, ay)) in enumerate(rests):
            for b, (bx, by) in rests[i + 1:]:
                if math.hypot(ax - bx, ay - by) <= a.radius_mm + b.radius_mm + self.p.contact_tol_mm:
                    out.add((a.id, b.id) if a.id < b.id else (b.id, a.id))
        return out

    def _rest_of(self, tr: Track) -> tuple[float, float]:
        """Where ``tr`` rested before this frame."""
        prev = self._prev.get(tr.id)
        return self._rest_pos.get(tr.id, (prev.x, prev.y) if prev else (tr.x, tr.y))

    def _seat_of(self, position: tuple[float, float]) -> str | None:
        """The carrom seat whose baseline strip the striker starts on (nearest strip's centre)."""
        best: tuple[float, str] | None = None
        for bl in self.spec.baselines:
            pts = [*bl.front, *bl.back]
            cx = sum(p[0] for p in pts) / 4
            cy = sum(p[1] for p in pts) / 4
            d = math.hypot(position[0] - cx, position[1] - cy)
            if best is None or d < best[0]:
                best = (d, bl.seat)
        return best[1] if best else None

    def _update_anchors(self, visible: list[Track], t: float, frame: int) -> None:
        """Each object's anchor: where it stopped and since when. Positions are smoothed first so
        that detection noise alone never moves an anchor (a real roll does, within a frame or two)."""
        seen = set()
        for tr in visible:
            seen.add(tr.id)
            sx, sy = self._smooth.get(tr.id, (tr.x, tr.y))
            a = self.p.still_smoothing
            sx, sy = a * tr.x + (1 - a) * sx, a * tr.y + (1 - a) * sy
            self._smooth[tr.id] = (sx, sy)
            anchor = self._anchor.get(tr.id)
            if anchor is None or math.hypot(sx - anchor[0], sy - anchor[1]) > self.p.still_mm:
                self._anchor[tr.id] = (sx, sy, t, frame)
        for gone in set(self._anchor) - seen:
            last = self._anchor.pop(gone)
            self._smooth.pop(gone, None)
            if self.in_shot and (self._shot.gone_moving is None or last[2] > self._shot.gone_moving[0]):
                self._shot.gone_moving = (last[2], last[3])

    def _is_moving(self, tr: Track, t: float) -> bool:
        """Really moving: fast, or its smoothed position left its anchor within ``moving_window_s``.
        Velocity from noisy positions alone would make resting balls look like they jitter."""
        if tr.speed >= self.p.start_speed:
            return True
        anchor = self._anchor.get(tr.id)
        return anchor is not None and t - anchor[2] <= self.p.moving_window_s and tr.speed >= self.p.rest_speed

    def _still_since(self) -> tuple[float, int] | None:
        """When the last object stopped (the latest anchor), or None with nothing on the table.
        A ball that rolled into a pocket after the others stopped moved last: the table was not
        at rest before it dropped (its anchor goes with its track; ``_ShotState.gone_moving``)."""
        times = [(a[2], a[3]) for a in self._anchor.values()]
        if self._shot.gone_moving is not None:
            times.append(self._shot.gone_moving)
        return max(times) if times else None

    def _maybe_rest(self, visible: list[Track], pins: list[Track], t: float, frame: int) -> list[TableEvent]:
        if t - self._shot.start_t < self.p.rest_s - 1e-9:
            # The struck ball has only just moved: it is no sooner at rest than the rest of the
            # table would be. Its anchor lags its start (smoothed, it leaves its place a frame or
            # two late), and "still since long ago" closed a shot on the frame it started (bar
            # billiards seed 3302: the red's shot ended at once, and its contact and cushions
            # were read as those of a new shot of the white it hit).
            return []
        still = self._still_since()
        if still is None:
            still = (t, frame)
        if t - still[0] < self.p.rest_s or any(tr.status == TrackStatus.MISSING and tr.speed > self.p.rest_speed
                                                for tr in visible):
            return []
        return self._close(visible, pins, still, {})

    def _close(self, visible: list[Track], pins: list[Track], still: tuple[float, int],
               places: dict[str, tuple[float, float]]) -> list[TableEvent]:
        """The shot is over, at rest since ``still``: ``at_rest`` with every position (``places``
        for those that lay elsewhere then), and the pins moved in it."""
        self.in_shot = False
        when, when_frame = still
        when = max(when, self._shot.start_t)
        at = {tr.id: places.get(tr.id, (tr.x, tr.y)) for tr in visible}
        positions: dict[str, list[float]] = {k: [round(x, 1), round(y, 1)] for k, (x, y) in at.items()}
        for pin in pins:
            if pin.status in (TrackStatus.VISIBLE, TrackStatus.MISSING):
                positions[pin.id] = [round(pin.x, 1), round(pin.y, 1)]
        events = [TableEvent(t=when, frame=when_frame, type=EventType.AT_REST,
                             objects=(), data={"positions": positions})]
        events += self._pin_moves(pins, when, when_frame)
        self._rest_pos.update(at)
        self._last_shot = (self._shot.start_t, when)
        return events

    def _picked_up(self, visible: list[Track], pins: list[Track], still_before: tuple[float, int] | None,
                   t: float, frame: int) -> list[TableEvent]:
        """A hand at work on a table that lay still ends the shot (see ``hand_still_s``).

        Once everything has lain still (and below ``rest_speed``) for ``hand_still_s``, nothing of
        the shot can set an object moving again: an object seen lying there since that then moves
        off fast was taken up or pushed by a hand (a carrom player picking the striker up to place
        it on the baseline, the queen put back among the men), or its track took the hand's
        reading. The shot ended when the table went still; the object is carried, and no strike,
        until it lies still again, and the hand is at work (``_hands``). Waiting out ``rest_s``
        instead took the hand's carry for the shot's last roll, with contacts against the men it
        passed (carrom queen returned, seed 2801)."""
        if still_before is not None and t - still_before[0] >= self.p.hand_still_s and (
                any(a[2] == t for a in self._anchor.values()) or any(tr.speed >= self.p.rest_speed for tr in visible)):
            # the first move after a long still; where each object was last seen lying then
            # (``_prev`` still holds the frame before this one)
            self._shot.woke = still_before
            self._shot.woke_places = {k: (e.seen_x, e.seen_y) for k, e in self._prev.items()}
        woke = self._shot.woke
        if woke is None or t - self._shot.start_t < self.p.rest_s - 1e-9 or woke[0] < self._shot.start_t:
            return []
        # seen lying there since: a ball that rolled on under an arm reappears moving too
        taken = [tr for tr in visible if tr.status == TrackStatus.VISIBLE and tr.speed >= self.p.start_speed
                 and (a := self._anchor.get(tr.id)) is not None and a[2] > woke[0]
                 and self._seen_at.get(tr.id, -math.inf) > woke[0]]
        if not taken:
            return []
        places = {tr.id: self._shot.woke_places[tr.id] for tr in taken if tr.id in self._shot.woke_places}
        self._carried.update(tr.id for tr in taken)
        self._hands = True
        return self._close(visible, pins, woke, places)

    # -- contacts ---------------------------------------------------------------------------------
    def _changed(self, tr: Track) -> bool:
        """Did this ball's motion change in the last frame (started, stopped, turned, slowed)?"""
        prev = self._prev.get(tr.id)
        if prev is None:
            return False
        now_moving = tr.id in self._moving
        if prev.moving != now_moving:
            return True  # started moving (it was hit) or stopped dead (it hit something)
        if not now_moving:
            return False
        s0, s1 = math.hypot(prev.vx, prev.vy), tr.speed
        if abs(s1 - s0) > self.p.speed_change * s0 and abs(s1 - s0) > 80.0:
            return True
        cos = (prev.vx * tr.vx + prev.vy * tr.vy) / max(1e-9, s0 * s1)
        return math.degrees(math.acos(max(-1.0, min(1.0, cos)))) > self.p.turn_deg

    def _vanished(self, tr: Track, by: Track) -> bool:
        """``tr`` was seen at rest on the last frame and is not found on this one, while ``by``,
        seen on the last frame, sweeps over its place faster than ``vanish_speed``: it was struck
        and lost at once in its smear (or knocked off the board), as much a change of its motion
        as a start seen. ``by`` may be lost on this frame too: a carrom striker at 4 m/s is a
        smear the detector loses on the frame it knocks a man by the frame into the air."""
        prev, hitter = self._prev.get(tr.id), self._prev.get(by.id)
        return tr.status == TrackStatus.MISSING and prev is not None and prev.seen and not prev.moving \
            and hitter is not None and hitter.seen and math.hypot(hitter.vx, hitter.vy) >= self.p.vanish_speed

    def _first_touch(self, a: Track, b: Track, t: float) -> tuple[float, float] | None:
        """When (fraction of the frame) a and b first came within touching distance during the
        frame, and how close they were then; None when they did not (see
        :mod:`~tableref.vision.extract_contacts`)."""
        pa, pb = self._prev.get(a.id), self._prev.get(b.id)
        if pa is None or pb is None:
            return None
        dt = max(1e-6, t - pa.t)  # the frame (either or both may be hidden)
        touch = a.radius_mm + b.radius_mm + self.p.contact_tol_mm
        found = first_touch(pa, pb, (a.x, a.y), (b.x, b.y), dt, touch)
        for m, pm, o in ((a, pa, b), (b, pb, a)):
            rest = self._rested.get(o.id)
            if found is not None or m.status != TrackStatus.VISIBLE or rest is None or o.id not in self._moving \
                    or rest[2] < pm.seen_t - 1e-9:
                continue
            if not self.spec.baselines and pm.seen_t < self._shot.start_t - 1e-9 \
                    and math.hypot(pm.seen_vx, pm.seen_vy) >= self.p.start_speed:
                # On a cue table: last seen moving before the shot started, when every ball was
                # at rest, it is a hand or a cue, not a ball that swept over the other's place
                # (bar billiards seed 3302, a miss: a hand over the baulk cushion, read as a ball
                # coming onto the cloth, then found at the white's rest after the strike, "hit"
                # the white: two whites touched). Not on a carrom board: the striker is aimed by
                # hand and hidden by the flicking finger (``hidden_strike_s``), and the shot is
                # dated to when it is found moving, after the pack may have been seen stirring.
                continue
            found = swept_touch(pm, (m.x, m.y), (rest[0], rest[1]), touch)
        return found

    def _contacts(self, visible: list[Track], t: float, frame: int) -> list[TableEvent]:
        """Contacts this frame. A moving ball hits the *first* object on its path: of several
        resting objects its straight path would cross in one frame, only the earliest counts (the
        others were set moving by the one it hit, and touch each other)."""
        candidates: list[tuple[float, Track, Track]] = []
        grazing: list[tuple[float, Track, Track]] = []
        grazes = self._shot.grazed
        self._shot.grazed = []
        for i, a in enumerate(visible):
            for b in visible[i + 1:]:
                key = (a.id, b.id) if a.id < b.id else (b.id, a.id)
                dist_now = math.hypot(a.x - b.x, a.y - b.y)
                if key in self._shot.touching:
                    if dist_now > a.radius_mm + b.radius_mm + self.p.separation_mm:
                        self._shot.touching.discard(key)
                    continue
                pa, pb = self._prev.get(a.id), self._prev.get(b.id)
                if not (a.id in self._moving or b.id in self._moving or (pa and pa.moving) or (pb and pb.moving)):
                    continue
                if self._one_off(a) or self._one_off(b) or self._knocked_away(a, t) or self._knocked_away(b, t):
                    continue
                touch = self._first_touch(a, b, t)
                if touch is None:
                    continue
                if not (self._changed(a) or self._changed(b) or self._vanished(a, b) or self._vanished(b, a)):
                    grazing.append((touch[0], a, b))
                    continue
                candidates.append((touch[0], a, b))
        candidates.sort(key=lambda c: c[0])
        in_contact = {x.id for _, a, b in candidates for x in (a, b)}
        for frac, a, b in grazing:  # a path that touched nothing else this frame: a straight line
            if a.id not in in_contact and b.id not in in_contact:
                self._graze(a, b, frac, t)
        late = self._late_contacts(grazes, visible, in_contact)
        # a contact needs a mover, or one it can have hit
        movers = self._movers(visible, {rester for _, _, rester, _ in late})
        candidates = [(f, a, b) for f, a, b in candidates if a.id in movers or b.id in movers]
        hit_by: set[str] = set()
        events: list[TableEvent] = []
        for frac, a, b in candidates:
            pa, pb = self._prev[a.id], self._prev[b.id]
            mover = a if pa.moving and not pb.moving else b if pb.moving and not pa.moving else None
            if mover is not None:
                if mover.id in hit_by:
                    continue  # it already hit something earlier on its path this frame
                hit_by.add(mover.id)
            key = (a.id, b.id) if a.id < b.id else (b.id, a.id)
            self._shot.touching.add(key)
            when = pa.t + frac * (t - pa.t)
            launched = _launched_into(a, pa, b, pb, t, self.p.start_speed)
            if launched is not None:
                first, second, pf = launched
            else:  # the faster hit the slower
                first, second = (a, b) if math.hypot(pa.vx, pa.vy) >= math.hypot(pb.vx, pb.vy) else (b, a)
                pf = self._prev[first.id]
            ps = self._prev[second.id]
            if not ps.moving:  # knocked off its rest: it leaves along the line of centres
                self._knocked[second.id] = _knock(pf, ps, when)
            events.append(TableEvent(t=when, frame=frame, type=EventType.CONTACT, objects=(first.id, second.id)))
        for when, mover, rester, knock in late:
            self._shot.touching.add((mover, rester) if mover < rester else (rester, mover))
            self._knocked[rester] = knock
            events.append(TableEvent(t=when, frame=frame, type=EventType.CONTACT, objects=(mover, rester)))
        sh = self._shot
        if sh.lost_hit_by is not None:  # the hit inferred while the struck object was lost, seen late
            events = [e for e in events if set(e.objects) != {sh.struck, sh.lost_hit_by[0]}
                      or e.t - sh.lost_hit_by[1] > self.p.lost_hit_s]
        if any(sh.struck in e.objects for e in events):
            sh.lost_hit = True  # its first hit was seen
        return events + self._lost_hit(visible, {e.objects[1] for e in events}, t, frame)

    def _knocked_away(self, tr: Track, t: float) -> bool:
        """Is ``tr`` unseen since this shot knocked it off its rest, more than ``knocked_gone``
        frames ago? Its place is where it was, not where it is: a ball rolling over that place
        does not hit it again (bar billiards seed 3901, ball leaves the table: the red, struck
        into the white, which flew off the table unseen, rolled back over the white's place 17
        frames on; that second "contact", slow, replaced the first hit, and the white was never
        read as knocked off the table). Just knocked, it is still near its place, and in a pack
        what it hit next is hit there. So is one lost rolling away fast that long ago: where its
        track holds it is a guess (bar billiards seed 4601)."""
        if not self.in_shot or tr.status != TrackStatus.MISSING:
            return False
        gone = self.p.knocked_gone * self._frame_dt()
        knock = self._knocked.get(tr.id)
        if knock is not None and knock[5] >= tr.last_seen_t - 1e-9 and t - knock[5] > gone:
            return True
        # nor one lost while rolling away fast, that long ago: where it is now is a guess
        prev = self._prev.get(tr.id)
        return prev is not None and t - tr.last_seen_t > gone \
            and math.hypot(prev.seen_vx, prev.seen_vy) >= self.p.knock_off_speed_mm_s

    def _one_off(self, tr: Track) -> bool:
        """Is ``tr`` a track born during this shot and seen on one frame only? Such a track is
        another object misread (up and down seed 3601, legal pot: the cue ball, struck and
        smeared, read as the 12, then as the 10, long potted, and a track of the 10 was born
        there; the cue ball then "hit" the 10 where it had itself been read). Every object a
        shot can hit lay on the table, seen, before it."""
        return self.in_shot and tr.first_seen_t > self._shot.start_t + 1e-9 and len(self._hist.get(tr.id, [])) < 2

    def _lost_hit(self, visible: list[Track], touched: set[str], t: float, frame: int) -> list[TableEvent]:
        """The struck object, lost in its smear since it left its rest, hit the first object on its
        line when something it can have set moving starts while it is unseen (once a shot, before
        any hit of it was seen): that object, or one of its pack (``_pack``), not reached by a
        seen mover.

        Its line runs from its rest through its last sighting (``lost_hit_s`` ago at most); of the
        objects lying across it ahead of that sighting (within the two radii and
        ``contact_tol_mm``), the one it touches after the shortest way on is the one it reaches
        first. When that object or one of its pack is found off its rest by more than its radius
        and no seen mover touched it, the lost one hit it, during this frame. Carroms, break,
        seed 2702: the striker flicked at 4.5 m/s was read once, 27 mm up from its rest, then lost
        for two frames; the tracker's guess of it lagged 120 mm behind, and the shot's first
        contact was read between two men of the pack it had set moving."""
        sh = self._shot
        if sh.struck is None or sh.lost_hit:
            return []
        me = next((tr for tr in visible if tr.id == sh.struck), None)
        pm = self._prev.get(sh.struck)
        rest = self._rest_pos.get(sh.struck)
        if me is None or me.status != TrackStatus.MISSING or pm is None or rest is None:
            return []
        if pm.seen_t <= sh.start_t + 1e-9:  # not seen since it left its rest
            if t - pm.seen_t > self.p.cue_lost_s + 1e-9:
                return []
            return self._unseen_hit(visible, me, rest, touched, t, frame)
        if t - pm.seen_t > self.p.lost_hit_s + 1e-9:
            return []
        ux, uy = pm.seen_x - rest[0], pm.seen_y - rest[1]
        n = math.hypot(ux, uy)
        if n < me.radius_mm:
            return []  # too short a way to tell the line by
        ux, uy = ux / n, uy / n
        first: tuple[float, Track] | None = None
        for o in visible:
            po = self._prev.get(o.id)
            if o.id == me.id or po is None or po.moving:
                continue
            dx, dy = po.x - pm.seen_x, po.y - pm.seen_y
            ahead, aside = dx * ux + dy * uy, abs(dx * uy - dy * ux)
            reach = me.radius_mm + o.radius_mm
            if ahead <= 0 or aside > reach + self.p.contact_tol_mm:
                continue
            meet = ahead - math.sqrt(max(0.0, reach * reach - aside * aside))  # how far on it touches
            if first is None or meet < first[0]:
                first = (meet, o)
        if first is None:
            return []
        hit = first[1]
        if not {o.id for o in self._starters(visible, me, touched)} & self._pack(visible, hit):
            return []
        return self._hit_while_lost(me, hit, (self._prev[hit.id].t + t) / 2.0, frame)  # within this frame

    def _starters(self, visible: list[Track], me: Track, touched: set[str]) -> list[Track]:
        """The objects moving that no seen mover touched, found off their rest by more than their
        radius (not a jitter): what the lost struck object ``me`` can have set moving."""
        return [o for o in visible if o.id in self._moving and o.id not in touched and o.id != me.id
                and (rp := self._rest_pos.get(o.id)) is not None
                and math.hypot(o.x - rp[0], o.y - rp[1]) > o.radius_mm]

    def _hit_while_lost(self, me: Track, hit: Track, when: float, frame: int) -> list[TableEvent]:
        """The contact of the lost struck object ``me`` with ``hit``, kept as the shot's hit
        inferred while it was lost (a sighting of that hit later is the same one)."""
        self._shot.lost_hit = True
        self._shot.lost_hit_by = (hit.id, when)
        return [TableEvent(t=when, frame=frame, type=EventType.CONTACT, objects=(me.id, hit.id))]

    def _unseen_hit(self, visible: list[Track], me: Track, rest: tuple[float, float], touched: set[str],
                    t: float, frame: int) -> list[TableEvent]:
        """The struck object, lost at the strike and never seen on its way, hit first the object
        facing its rest (the one nearest to it) of the pack that something it can have set moving
        belongs to, when that is found off its rest by more than its radius with no seen mover to
        have hit it, within ``cue_lost_s`` of its last sighting. Its line is unknown; what it
        meets first lies between its rest and what moved. Carroms, break, seed 3701: the striker,
        lost under the flicking finger, was never seen until the pack had flown apart; the shot's
        first contact was read between two men. The pool cue ball lost so in a break meets the
        rack's leading ball."""
        starters = self._starters(visible, me, touched)
        if not starters:
            return []
        pack: set[str] = set()
        for o in starters:
            pack |= self._pack(visible, o)
        best: tuple[float, Track] | None = None
        for o in visible:
            if o.id not in pack or o.id == me.id or o.id not in self._prev:
                continue
            ox, oy = self._rest_of(o)
            gap = math.hypot(ox - rest[0], oy - rest[1]) - o.radius_mm
            if best is None or gap < best[0]:
                best = (gap, o)
        if best is None:
            return []
        hit = best[1]
        # no later than it was last seen at rest, before what it set moving
        return self._hit_while_lost(me, hit, self._prev[hit.id].t, frame)

    def _pack(self, visible: list[Track], first: Track) -> set[str]:
        """``first`` and the resting objects joined to it through gaps of ``crowd_gap_mm`` at most
        (a carrom pack, a rack): a hit on one sets the far side of the pack moving while the one
        hit hardly moves."""
        rest = {o.id: (p.x, p.y, o.radius_mm) for o in visible
                if (p := self._prev.get(o.id)) is not None and not p.moving}
        if first.id not in rest:
            return set()
        pack, todo = {first.id}, [first.id]
        while todo:
            ax, ay, ar = rest[todo.pop()]
            for oid, (bx, by, br) in rest.items():
                if oid not in pack and math.hypot(ax - bx, ay - by) - ar - br <= self.p.crowd_gap_mm:
                    pack.add(oid)
                    todo.append(oid)
        return pack

    def _graze(self, a: Track, b: Track, frac: float, t: float) -> None:
        """Note a touch of a mover's path on a resting object that neither changed a motion nor
        set the object moving yet (see :meth:`_late_contacts`)."""
        pa, pb = self._prev[a.id], self._prev[b.id]
        if pa.moving == pb.moving:
            return
        (mover, pm), (rester, pr) = ((a, pa), (b, pb)) if pa.moving else ((b, pb), (a, pa))
        if rester.status != TrackStatus.VISIBLE or frac <= 0.0:
            return  # touching already as the frame began: men of a carrom pack, a ball frozen to another
        when = pm.t + frac * (t - pm.t)
        self._shot.grazed.append((when, mover.id, rester.id, _knock(pm, pr, when)))

    def _late_contacts(self, grazes: list[_Graze], visible: list[Track], hit_now: set[str]) -> list[_Graze]:
        """The last frame's grazes whose resting object starts moving on this one, and nothing
        else touches it now: contacts, dated to the graze. A thin cut barely turns the cue ball
        and sets the object ball off slowly: on the frame of the hit its reading moves a few
        millimetres, and the frame after, when it is seen rolling, the two are already apart
        (pool, held-out seed 2802: the 15 read 9 mm from its rest, then 23 mm on; the paths had
        touched the frame before)."""
        out: list[_Graze] = []
        by_id = {tr.id: tr for tr in visible}
        for when, mover, rester, knock in grazes:
            tr, prev = by_id.get(rester), self._prev.get(rester)
            key = (mover, rester) if mover < rester else (rester, mover)
            if tr is None or prev is None or mover not in by_id or key in self._shot.touching \
                    or tr.status != TrackStatus.VISIBLE or prev.moving or tr.id not in self._moving \
                    or rester in hit_now or any(r == rester for _, _, r, _ in out):
                continue
            out.append((when, mover, rester, knock))
        return out

    def _movers(self, visible: list[Track], grazed: set[str] | None = None) -> set[str]:
        """The objects that can take part in a contact this frame: those moving on the last frame
        (or the struck ball once the cue has set it moving, while it moves) and the resting ones
        they can have hit (see :func:`reached`). On the way, notes the objects that start moving
        this frame, by no more than their radius, where nothing could have hit them: a rack
        ball's reading jitters by a few millimetres while the cue ball is still on its way. Until
        one has left its rest by its radius it is no mover. One that leaves its rest by more at
        once was hit by something the camera lost (a ball struck hard from rest, its track left
        behind). One ``grazed`` (a mover's path touched it on the last frame) was reached."""
        unreached = self._shot.unreached
        for oid, (rx, ry) in list(unreached.items()):
            tr = next((v for v in visible if v.id == oid), None)
            if tr is None or math.hypot(tr.x - rx, tr.y - ry) > tr.radius_mm:
                del unreached[oid]
        movers = {tr.id for tr in visible if (prev := self._prev.get(tr.id)) is not None and prev.moving
                  and tr.id not in unreached}
        if self._shot.struck is not None and self._shot.struck in self._moving:
            movers.add(self._shot.struck)
        starting = [tr for tr in visible if tr.id in self._moving and tr.id != self._shot.struck
                    and (prev := self._prev.get(tr.id)) is not None and not prev.moving
                    and math.hypot(tr.x - prev.x, tr.y - prev.y) <= tr.radius_mm]
        if not starting:
            return movers
        knocked = self._reached(visible, movers) | (grazed or set())
        for tr in starting:
            if tr.id not in knocked:
                unreached[tr.id] = (self._prev[tr.id].x, self._prev[tr.id].y)
        return movers | knocked

    def _reached(self, visible: list[Track], movers: set[str]) -> set[str]:
        """The objects at rest on the last frame that one of ``movers`` can have hit this frame
        (see :func:`reached`). A mover's path runs from where it was to where it is now and on by
        as much again: a smeared ball's place lags its real one."""
        paths: list[tuple[tuple[float, float], tuple[float, float], float]] = []
        rests: dict[str, tuple[float, float, float]] = {}
        for tr in visible:
            prev = self._prev.get(tr.id)
            if prev is None:
                continue
            if tr.id in movers:
                paths.append(((prev.x, prev.y), (2.0 * tr.x - prev.x, 2.0 * tr.y - prev.y), tr.radius_mm))
            else:
                rests[tr.id] = (prev.x, prev.y, tr.radius_mm)
        return reached(paths, rests, self.p.contact_tol_mm)

    def _cushion_hits(self, visible: list[Track], t: float, frame: int) -> list[TableEvent]:
        """A bounce is a V in the ball's distance to a cushion line: it came closer, then went away,
        and at its closest it was within reach of touching. Read from raw positions over one frame
        (fast balls) and over three (slow balls, whose steps are lost in detection noise), so a
        velocity estimate smoothed over a collision never hides it."""
        events: list[TableEvent] = []
        for tr in visible:
            hist = _recent_run(self._hist.get(tr.id, []), self.p.unseen_bounce_frames)
            prev = self._prev.get(tr.id)
            if len(hist) < 4 or tr.status != TrackStatus.VISIBLE:
                continue
            moving = tr.id in self._moving or bool(prev and prev.moving)
            for cushion, (nx, ny, c) in self._noses:
                key = (tr.id, cushion.id)
                if not moving and nx * tr.x + ny * tr.y - c - tr.radius_mm > self.p.creep_gap_mm + 2.0:
                    continue  # still and clear of this cushion: nothing to read
                dist = [nx * x + ny * y - c for _, _, x, y in hist]
                hit = ((bounce(self.p, self.spec, hist, dist, tr.radius_mm, cushion)
                        or fly_over(self.p, hist, dist, tr.radius_mm, cushion)
                        or bounce_unseen(self.p, self.spec, hist, dist, tr.radius_mm, cushion)
                        or struck_into(self.p, self.spec, hist, dist, tr.radius_mm, cushion)) if moving else None) \
                    or creep(self.p, self.spec, hist, dist, tr.radius_mm, cushion)
                if hit is None:
                    continue
                when, when_frame = hit
                if not self._new_bounce(key, when):
                    continue  # the same bounce, seen again through a wider window
                events.append(TableEvent(t=when, frame=when_frame, type=EventType.CUSHION, objects=(tr.id,),
                                         where=cushion.id))
        return events

    # -- places -----------------------------------------------------------------------------------
    def _baulk(self, visible: list[Track], t: float, frame: int) -> list[TableEvent]:
        """A ball touching the D or baulk counts once it has been out of baulk during this shot
        (the cue ball starts in the D; a ball resting in baulk is not 'returning').

        Only where the ball is seen: a hidden ball's place is a prediction along its last
        velocity, and a velocity measured wrongly once (a track that took another ball's smear as
        its own ball left the table) carries it into baulk on paper only. A ball that really
        rolled into baulk unseen is reported when it is seen there."""
        if self.spec.baulk_x is None or self.spec.d_centre is None:
            return []  # only bar billiards has a D and a baulk area (pool's baulk_x is its head string)
        events: list[TableEvent] = []
        for tr in visible:
            if tr.status != TrackStatus.VISIBLE:
                continue
            if not self.spec.in_baulk(tr.x, tr.radius_mm):
                self._shot.armed.add(tr.id)
            elif tr.id in self._shot.armed:
                self._shot.armed.discard(tr.id)
                where = "d" if self.spec.in_d(tr.x, tr.y, tr.radius_mm) else "baulk"
                events.append(TableEvent(t=t, frame=frame, type=EventType.BAULK_ENTRY, objects=(tr.id,), where=where))
        return events

    def _baseline(self, visible: list[Track], t: float, frame: int) -> list[TableEvent]:
        events: list[TableEvent] = []
        for tr in visible:
            if tr.label != "striker" or tr.id in self._shot.crossed:
                continue
            prev = self._prev.get(tr.id)
            if prev is None:
                continue
            for bl in self.spec.baselines:
                if bl.seat != (self._shot.seat or self.shooter_seat):
                    continue
                (x0, y0), (x1, y1) = bl.front
                bx, by = (bl.back[0][0] + bl.back[1][0]) / 2, (bl.back[0][1] + bl.back[1][1]) / 2
                side_prev = _side(x0, y0, x1, y1, prev.x, prev.y)
                side_now = _side(x0, y0, x1, y1, tr.x, tr.y)
                back_side = _side(x0, y0, x1, y1, bx, by)
                if side_prev * side_now < 0:
                    self._shot.crossed.add(tr.id)
                    forward = side_now * back_side < 0
                    # Unseen in between (a flicked striker is a smear the detector loses), it crossed
                    # the line on its straight path from its last sighting, or from the strike if it
                    # lay still until then, at the share of that path the line cuts off.
                    seen = _side(x0, y0, x1, y1, prev.seen_x, prev.seen_y)
                    t0 = min(t, max(prev.seen_t, self._shot.start_t))
                    when = t0 + seen / (seen - side_now) * (t - t0) if seen * side_now < 0 else t
                    events.append(TableEvent(t=when, frame=_frame_at(self._frame_t, when, frame),
                                             type=EventType.BASELINE_CROSS, objects=(tr.id,),
                                             where=bl.id, data={"direction": "forward" if forward else "backward"}))
        return events

    # -- ends of tracks: pots, off table, hands -----------------------------------------------------
    def _ends(self, balls: list[Track], t: float, frame: int) -> list[TableEvent]:
        events: list[TableEvent] = []
        for tr in balls:
            if (tr.status in (TrackStatus.POTTED, TrackStatus.REMOVED, TrackStatus.OFF_TABLE)
                    and tr.id not in self._on_bed) or (tr.status == TrackStatus.POTTED and tr.id in self._railed):
                # never on the table (or only ever where no ball lies on the cloth, and never set
                # down there): nothing happened to the table
                self._forget(tr.id)
                continue
            if tr.status == TrackStatus.POTTED:
                when = drop_time(self.spec, tr, self._prev.get(tr.id), t)
                data = {} if self.in_shot else {"late": True}
                events.append(TableEvent(t=when, frame=_frame_at(self._frame_t, when, frame), type=EventType.POT,
                                         objects=(tr.id,), where=tr.hole, data=data))
                self._forget(tr.id)
            elif tr.status == TrackStatus.OFF_TABLE or (tr.status == TrackStatus.REMOVED and tr.id in self._off):
                left = self._off.pop(tr.id, tr.last_seen_t)
                events.append(TableEvent(t=left, frame=_frame_at(self._frame_t, left, frame),
                                         type=EventType.OFF_TABLE, objects=(tr.id,), data={"returned": False}))
                self._forget(tr.id)
            elif tr.status == TrackStatus.REMOVED and (knocked := knocked_into(
                    self.p, self.spec, tr, self._knocked.get(tr.id), balls, self._frame_dt())) is not None:
                hole, when = knocked
                events.append(TableEvent(t=when, frame=_frame_at(self._frame_t, when, frame), type=EventType.POT,
                                         objects=(tr.id,), where=hole, data={} if self.in_shot else {"late": True}))
                self._forget(tr.id)
            elif tr.status == TrackStatus.REMOVED and (left := knocked_off(
                    self.p, self.spec, tr, self._knocked.get(tr.id), balls, self._refound, self._frame_dt())) is not None:
                events += self._went_over(tr.id, left.x, left.y, left.touch_t, frame)
                events.append(TableEvent(t=left.t, frame=_frame_at(self._frame_t, left.t, frame),
                                         type=EventType.OFF_TABLE, objects=(tr.id,), data={"returned": False}))
                self._forget(tr.id)
            elif tr.status == TrackStatus.REMOVED and not self.in_shot \
                    and self._last_shot[0] - 1e-9 <= tr.last_seen_t < self._last_shot[1] - 1e-9:
                # lost while the last shot was rolling (the shot ended before its track gave up
                # on it): no hand took it (carrom seed 2802, a man that flew off the board unseen)
                self._forget(tr.id)
            elif tr.status == TrackStatus.REMOVED and not self.in_shot:
                when = tr.last_seen_t
                events.append(TableEvent(t=when, frame=_frame_at(self._frame_t, when, frame), type=EventType.REMOVED,
                                         objects=(tr.id,), data={"position": [round(tr.x, 1), round(tr.y, 1)]}))
                self._forget(tr.id)
        return events

    def _new_bounce(self, key: tuple[str, str], when: float) -> bool:
        """Is a touch of (object, cushion) at ``when`` a new one (noted if so)? Two closer than
        ``bounce_gap_s`` are one bounce."""
        last = self._shot.bounced.get(key)
        if last is not None and abs(when - last) < self.p.bounce_gap_s:
            return False
        self._shot.bounced[key] = when
        return True

    def _went_over(self, oid: str, x: float, y: float, when: float, frame: int) -> list[TableEvent]:
        """The cushion an object leaving the table unseen went over, at (``x``, ``y``) on the
        surface's edge, touched at ``when``: a piece cannot leave without touching it (the
        premise of :func:`~tableref.vision.extract_cushions.fly_over`, for one seen going over).
        Nothing when that touch was reported already."""
        cushion = min(self._noses, key=lambda c: abs(c[1][0] * x + c[1][1] * y - c[1][2]))[0]
        if not self._new_bounce((oid, cushion.id), when):
            return []
        return [TableEvent(t=when, frame=_frame_at(self._frame_t, when, frame), type=EventType.CUSHION,
                           objects=(oid,), where=cushion.id)]

    def _off_surface(self, visible: list[Track], t: float, frame: int) -> list[TableEvent]:
        """A ball whose centre goes beyond the cushions has left the playing surface (a camera
        still sees it in the air over the rail); if it comes back onto the cloth by itself, it
        left and ``returned``; so has one the tracker lost at the edge heading out and found again
        later (``Track.left_t``: it flew out of sight). One that never comes back is reported
        when its track ends."""
        events: list[TableEvent] = []
        for tr in visible:
            if tr.left_t is not None and tr.id not in self._off and tr.status == TrackStatus.VISIBLE \
                    and tr.id in self._on_bed:
                events.append(TableEvent(t=tr.left_t, frame=_frame_at(self._frame_t, tr.left_t, frame),
                                         type=EventType.OFF_TABLE, objects=(tr.id,), data={"returned": True}))
                continue
            outside = not self.spec.on_surface(tr.x, tr.y, self.p.off_margin_mm)
            if outside and tr.id not in self._off and tr.id in self._on_bed:
                self._off[tr.id] = self._prev[tr.id].t if tr.id in self._prev else t
            elif not outside and tr.id in self._off and tr.status == TrackStatus.VISIBLE:
                left = self._off.pop(tr.id)
                events.append(TableEvent(t=left, frame=_frame_at(self._frame_t, left, frame), type=EventType.OFF_TABLE,
                                         objects=(tr.id,), data={"returned": True}))
        return events

    def _hand_changes(self, balls: list[Track], t: float, frame: int) -> list[TableEvent]:
        events: list[TableEvent] = []
        for tr in balls:
            if tr.status != TrackStatus.VISIBLE:
                continue
            if tr.id in self._railed:  # first seen on the rail: placed when set at rest on the cloth
                if self._on_cloth(tr) and tr.speed < self.p.rest_speed:
                    self._railed.discard(tr.id)
                    events.append(TableEvent(t=t, frame=frame, type=EventType.PLACED, objects=(tr.id,),
                                             data={"position": [round(tr.x, 1), round(tr.y, 1)]}))
                    self._rest_pos[tr.id] = (tr.x, tr.y)
                continue
            if tr.id not in self._prev and tr.id not in self._rest_pos:
                if not self._on_cloth(tr):
                    self._railed.add(tr.id)  # on the rail, not on the table (or not a ball at all)
                    continue
                if self._start_t is not None and t - self._start_t < self.p.warmup_s:
                    self._rest_pos[tr.id] = (tr.x, tr.y)  # on the table from the start
                    continue
                # Dated to its first sighting: the tracker confirms a new object a frame or more
                # later, and a hand lifting off it has hidden it since it was set down.
                when = min(t, tr.first_seen_t)
                events.append(TableEvent(t=when, frame=_frame_at(self._frame_t, when, frame), type=EventType.PLACED,
                                         objects=(tr.id,), data={"position": [round(tr.x, 1), round(tr.y, 1)]}))
                self._rest_pos[tr.id] = (tr.x, tr.y)
                continue
            rest = self._rest_pos.get(tr.id)
            anchor = self._anchor.get(tr.id)
            # lying still there for ``hand_still_s``: a track that took a hand's reading for a
            # frame or two and went back is no piece moved (carrom seed 2601: a man hidden by the
            # hand putting a piece back was "moved" onto it and back); dated to when it stopped
            if rest is not None and tr.speed < self.p.rest_speed and anchor is not None \
                    and t - anchor[2] >= self.p.hand_still_s - 1e-9 and \
                    math.hypot(tr.x - rest[0], tr.y - rest[1]) > self.p.moved_mm:
                events.append(TableEvent(t=anchor[2], frame=anchor[3], type=EventType.MOVED, objects=(tr.id,),
                                         data={"from": [round(rest[0], 1), round(rest[1], 1)],
                                               "position": [round(tr.x, 1), round(tr.y, 1)]}))
                self._rest_pos[tr.id] = (tr.x, tr.y)
        self._placed.update((e.objects[0], e) for e in events if e.type is EventType.PLACED)
        return events

    def _on_cloth(self, tr: Track) -> bool:
        """Where a ball can be set down on the cloth: its centre a radius clear of the cushions'
        noses (less four tenths, for the reading's noise against a cushion), or over a pocket's
        lip (within a radius of the pocket and of the surface). A centre further out is in a
        pocket, in the air, on the rail or in the cushion: no ball put down (colors seed 1301: a
        sleeve over the rail, read as a ball 8 mm past the cushion's nose, was placed, moved and
        potted). A ball first seen there may still be one leaving the table in the air, whose
        track was born there (``_on_bed`` keeps the wider margin for leaving)."""
        r = tr.radius_mm
        return self.spec.on_surface(tr.x, tr.y, -0.6 * r) or (
            self.spec.on_surface(tr.x, tr.y, r)
            and any(math.hypot(tr.x - h.x, tr.y - h.y) <= h.radius + r for h in self.spec.holes))

    def _forget(self, track_id: str) -> None:
        """A track that ended: a later object given the same name (a white taken off the table and
        another put down) inherits nothing of it, such as having been out of baulk this shot."""
        self._shot.armed.discard(track_id)
        self._shot.touching = {pair for pair in self._shot.touching if track_id not in pair}
        self._on_bed.discard(track_id)
        self._railed.discard(track_id)
        self._knocked.pop(track_id, None)
        self._prev.pop(track_id, None)
        self._rest_pos.pop(track_id, None)
        self._refound.pop(track_id, None)

    # -- pins -------------------------------------------------------------------------------------
    def _pins(self, pins: list[Track], t: float, frame: int) -> list[TableEvent]:
        events: list[TableEvent] = []
        colours = {p.id: p.colour for p in self.spec.pins}
        for pin in pins:
            if pin.status not in (TrackStatus.VISIBLE, TrackStatus.MISSING):
                continue
            seen = [r for r in self._pin_fallen_seen.get(pin.id, []) if frame - r[0] < self.p.pin_window_frames]
            if pin.group == "pin-standing" and pin.status == TrackStatus.VISIBLE:
                self._pin_slide(pin, t, frame)
            if pin.group == "pin-fallen":
                seen.append((frame, t))
                if len(seen) >= self.p.pin_confirm_frames and pin.id not in self._pins_fallen:
                    self._pins_fallen.add(pin.id)
                    first_frame, first_t = seen[0]  # it fell when it first looked fallen ...
                    slid = self._pin_slid.pop(pin.id, None)
                    if slid is not None and 0 < first_frame - slid[0] <= self.p.pin_window_frames:
                        first_frame, first_t = slid  # ... or when it began to slide just before
                    events.append(TableEvent(t=first_t, frame=first_frame, type=EventType.PIN_FALL,
                                             objects=(pin.id,), data={"colour": colours.get(pin.id, "")}))
            elif pin.id in self._pins_fallen and not self.in_shot and not seen:
                self._pins_fallen.discard(pin.id)  # reset by the referee between visits
            self._pin_fallen_seen[pin.id] = seen
        return events

    def _pin_slide(self, pin: Track, t: float, frame: int) -> None:
        """Keep when a standing pin began to slide (its readings more than ``pin_slide_mm`` apart
        from one frame to the next), until it is seen still again. A pin is struck when it starts
        to move, and a struck pin that falls is often still read standing, sliding, while the ball
        that hit it lies over its place (bar billiards seed 3602: read sliding for three frames,
        then lying); its fall is dated to the start of that slide."""
        stood = self._pin_stood.get(pin.id)
        self._pin_stood[pin.id] = (pin.x, pin.y)
        path = self._pin_path.setdefault(pin.id, [])
        if not path or math.hypot(pin.x - path[-1][2], pin.y - path[-1][3]) > PIN_STEP_MM:
            path.append((frame, t, pin.x, pin.y))
            del path[:-PIN_PATH_READINGS]
        if stood is None or math.hypot(pin.x - stood[0], pin.y - stood[1]) <= self.p.pin_slide_mm:
            self._pin_slid.pop(pin.id, None)
        else:
            self._pin_slid.setdefault(pin.id, (frame, t))

    def _pin_contacts(self, pin_events: list[TableEvent], pins: list[Track], visible: list[Track]) -> list[TableEvent]:
        """A pin that falls or moves was hit where it stood: by the ball whose recent path (its last
        sightings, from before the pin first looked fallen) passed closest to that place."""
        events: list[TableEvent] = []
        where = {p.id: p for p in pins}
        spots = {p.id: (p.x, p.y) for p in self.spec.pins}
        for pe in pin_events:
            pin = where.get(pe.objects[0])
            if pin is None:
                continue
            px, py = self._pin_moved.get(pin.id, spots.get(pin.id, (pin.x, pin.y)))
            best: tuple[float, Track] | None = None
            for tr in visible:
                pts = [(x, y) for _, f, x, y in self._hist.get(tr.id, []) if f >= (pe.frame or 0) - 2] or [(tr.x, tr.y)]
                d = min(segment_distance(px, py, a, b) for a, b in zip(pts, pts[1:] + pts[-1:], strict=True))
                if best is None or d < best[0]:
                    best = (d, tr)
            if best is not None and best[0] <= best[1].radius_mm + pin.radius_mm + 40.0:
                events.append(TableEvent(t=pe.t, frame=pe.frame, type=EventType.CONTACT, objects=(best[1].id, pin.id)))
        return events

    def _first_pin_places(self, pins: list[Track]) -> None:
        """The first place each pin is seen standing, near its spot, is where it stands (see
        ``pin_seen_mm``); later moves are measured from there. In sudden death the two 50 pins
        stand in the 50 holes (bar-billiards rules, sudden death (a)): for them, the hole is a
        spot too."""
        homes: dict[str, list[tuple[float, float]]] = {}
        for p in self.spec.pins:
            homes[p.id] = [(p.x, p.y)]
            hole = next((h for h in self.spec.holes if h.id == p.hole), None)
            if hole is not None and hole.value == 50:
                homes[p.id].append((hole.x, hole.y))
        for pin in pins:
            if pin.id in self._pin_moved or pin.id not in homes or pin.group != "pin-standing" \
                    or pin.status != TrackStatus.VISIBLE:
                continue
            if any(math.hypot(pin.x - sx, pin.y - sy) <= self.p.pin_seen_mm for sx, sy in homes[pin.id]):
                self._pin_moved[pin.id] = (pin.x, pin.y)

    def _pin_moves(self, pins: list[Track], t: float, frame: int) -> list[TableEvent]:
        events: list[TableEvent] = []
        spots = {p.id: (p.x, p.y) for p in self.spec.pins}
        for pin in pins:
            if pin.group != "pin-standing" or pin.id not in spots:
                continue
            sx, sy = spots[pin.id]
            was = self._pin_moved.get(pin.id, (sx, sy))
            if math.hypot(pin.x - was[0], pin.y - was[1]) > self.p.pin_moved_mm:
                self._pin_moved[pin.id] = (pin.x, pin.y)
                came_t, came = self._pin_came(pin, t, frame)
                events.append(TableEvent(t=came_t, frame=came, type=EventType.PIN_MOVED, objects=(pin.id,),
                                         data={"position": [round(pin.x, 1), round(pin.y, 1)]}))
        return events

    def _pin_came(self, pin: Track, t: float, frame: int) -> tuple[float, int]:
        """When a pin that moved in the shot came to where it stands: its first reading from which
        every later one lies within ``pin_slide_mm`` of its place now (a slid pin stops before the
        balls do: bar billiards seed 4001, two frames after its last step and four before the
        table came to rest). A pin that arrived before the shot began is dated ``t``/``frame``
        (the shot's rest)."""
        came = (t, frame)
        for f, ft, x, y in reversed(self._pin_path.get(pin.id, [])):
            if math.hypot(x - pin.x, y - pin.y) > self.p.pin_slide_mm or ft < self._shot.start_t:
                break
            came = (ft, f)
        return came

    def _frame_dt(self) -> float:
        if len(self._frame_t) < 2:
            return 1 / 30
        frames = sorted(self._frame_t)[-2:]
        return max(1e-3, self._frame_t[frames[1]] - self._frame_t[frames[0]])


#: How many of a pin's changed readings ``EventExtractor._pin_path`` keeps: the steps of a slide;
#: and how far (mm) a reading must move from the last kept to be kept (a pixel's step is 2-4 mm;
#: less is a tracker's smoothing, which would push a slide's first steps out of the 16).
PIN_PATH_READINGS = 16
PIN_STEP_MM = 0.5


#: Events of a shot in play (held back with a start that waits for confirmation).
_SHOT_TYPES = (EventType.SHOT_START, EventType.CONTACT, EventType.CUSHION, EventType.BAULK_ENTRY,
               EventType.BASELINE_CROSS)

_ORDER = {EventType.SHOT_START: 0, EventType.CONTACT: 1, EventType.CUSHION: 2, EventType.POT: 3, EventType.AT_REST: 8}


def _swap_keys(d: dict[str, Any], a: str, b: str) -> None:
    """Exchange what ``d`` holds under ``a`` and under ``b`` (either may be absent)."""
    va, vb = d.pop(a, None), d.pop(b, None)
    if va is not None:
        d[b] = va
    if vb is not None:
        d[a] = vb


def _recent_run(hist: list[tuple[float, int, float, float]], max_gap: int) -> list[tuple[float, int, float, float]]:
    """The latest sightings with no gap longer than ``max_gap`` frames between them: nothing can be
    read of a path across a longer gap (a cue tip seen once every second is no rolling ball)."""
    i = len(hist) - 1
    while i > 0 and hist[i][1] - hist[i - 1][1] <= max_gap:
        i -= 1
    return hist[i:]


def _side(x0: float, y0: float, x1: float, y1: float, x: float, y: float) -> float:
    return (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)


def _frame_at(frame_t: dict[int, float], t: float, default: int) -> int:
    best = default
    for f, ft in frame_t.items():
        if ft <= t + 1e-9 and (best == default or ft > frame_t.get(best, -1)):
            best = f
    return best


def _launched_into(a: Track, pa: PathEnd, b: Track, pb: PathEnd, t: float,
                   slow: float) -> tuple[Track, Track, PathEnd] | None:
    """(hitter, struck, the hitter as it is now) for a contact of ``a`` and ``b`` neither of
    which was seen moving on the last frame (both slower than ``slow``): the one that came to
    the other this frame hit it, at the speed it has now, and the other was knocked off its
    rest. None when they were moving before (the faster hit the slower) or neither moved.

    A carrom striker flicked too fast to be seen is lost at its baseline and found next beside
    the man it struck, who is gone in the same frame (over the cushion, off the board): by their
    last velocities, both zero, the man was the hitter and the striker the piece knocked, so
    the man's flight was never followed to the board's edge (seeds 3602-3901, piece off the
    board: his cushion and his leaving the board were lost). Not when the one that moved went
    away from the other: it hit nothing there (bar billiards seed 4002: the red struck from rest
    in the D away from a hand's ghost read as a white behind it)."""
    if max(math.hypot(pa.vx, pa.vy), math.hypot(pb.vx, pb.vy)) >= slow:
        return None
    da, db = math.hypot(a.x - pa.x, a.y - pa.y), math.hypot(b.x - pb.x, b.y - pb.y)
    if max(da, db) <= 0.0:
        return None
    (first, pf), (second, ps) = ((a, pa), (b, pb)) if da >= db else ((b, pb), (a, pa))
    if (first.x - pf.x) * (ps.x - pf.x) + (first.y - pf.y) * (ps.y - pf.y) <= 0.0:
        return None
    return first, second, PathEnd(first.x, first.y, first.vx, first.vy, t, True)


def _knock(hitter: PathEnd, rested: PathEnd, when: float) -> Knock:
    """The knocked-off state of ``rested``, hit at ``when`` by ``hitter`` on its last velocity."""
    return (hitter.x + hitter.vx * (when - hitter.t), hitter.y + hitter.vy * (when - hitter.t),
            rested.x, rested.y, math.hypot(hitter.vx, hitter.vy), when)
