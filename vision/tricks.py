"""Trick building: cards seen frame by frame become ``card_kicked``, ``card_played``, ``card_retrieved`` and ``removed``.

:class:`TrickBuilder` follows every face-up card on the table (positions in table millimetres,
identities as evidence summed over frames) and reads the play from how cards move:

* **Landing.** A card is carried in face up by a hand and comes to rest. It has landed once it has
  stayed within ``still_mm`` of one spot for ``rest_frames`` frames (a stray sighting or two, a
  hand's shadow pulling its outline, do not end the rest); the event is dated to the first frame
  it lay within ``settle_mm`` of that spot, and written after ``decide_frames`` more frames of
  evidence (a hand still touching the card, a glare, a noisy frame are outvoted). Only a card
  face lands: a resting blob whose views say "back" or "no card" (the pack in the dealer's hand,
  a hand) does not.
* **Kick or play.** The first face-up card of a hand is the dealer's kick (``card_kicked``), and
  so is one landing far from the middle (``kick_radius_mm``) before the first play (the pack being
  run). Any other landing is a ``card_played``: the
  seat is the one whose play spot it lies nearest, ``trick`` counts the tricks lifted this hand
  plus one and ``turn`` is its place among the cards of the trick on the board (1 for the lead).
* **Two cards at once.** Two cards that land together (``pair_frames`` apart) near the same seat
  are one play of two cards: the one more hidden by the other is the bottom card (``order`` 0, it
  counts) and the other the top card (``order`` 1, which the referee sends back to the hand).
* **Gathered and lifted.** When the cards of a full trick disappear, the trick is over: a
  ``removed`` event names them, dated just after the last sighting of its cards or of the pile
  they were swept into, and the next card is trick + 1, turn 1. While a full trick lies on the
  board, or its cards are being swept together, nothing new can land. A trick swept together
  with a card the camera missed is lifted all the same (never taken back: only a lead is).
* **Taken back.** When a card of an unfinished trick leaves the board, its player took it back (a
  lead out of turn): ``card_retrieved``, dated to when it started to move off.
* **What is not a play.** A card that would land where a card already lies, from a seat that
  already has a card in the trick, on a full trick, or in the pile of a trick being gathered, is
  a card seen twice (an overlap, a hand, the gathering), not a new play.
* **Identity.** A card's label is the one with the most evidence summed over its frames, among
  the labels not already kicked or played this hand (a deck has one of each card). A card is
  named only when that evidence is sure (``sure_nats``) or after ``max_decide_frames``; cards
  landing after an unsure one wait with it, so events keep their order. Naming a look-alike wrong
  would cost twice: the real card, played later, would be misnamed too.
* **Missed by the detector.** ``update`` may be given a presence check (the card pipeline's look
  at the image): a card the detector did not report is still there when the image shows it
  unchanged where it lay.
The thresholds are constructor parameters; each states its trade-off. Time comes in with each
frame; nothing here reads the clock.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from tableref.calibration.spec import TableSpec
from tableref.events import EventType, TableEvent
from tableref.vision.cards_read import LABELS, CardObservation
from tableref.vision.tracker import Track, Tracks, TrackStatus

F64 = NDArray[np.float64]

CARD_RADIUS_MM = 0.5 * math.hypot(63.0, 88.0)
#: Cards in a trick: one from each seat.
TRICK_SIZE = 4
#: A view showing this share of a card's face is clear of the hand that laid it.
CLEAR_FACE = 0.85
#: A card taken back has left where it lay once its outline is this far from there.
DEPART_MM = 10.0
#: A resting card's outline jitter is measured over this many of its newest sightings (about the
#: frames between its rest being found and its naming): older ones may be the hand's last approach.
SCATTER_VIEWS = 8
#: A gathered trick's pile lies this near the middle of where its cards were last seen.
PILE_MM = 70.0


@dataclass
class _Card:
    """A face-up card's working state (never handed out; :class:`Track` snapshots are)."""

    key: int
    first_frame: int
    first_t: float
    x: float
    y: float
    angle: float | None
    last_frame: int
    last_t: float
    # (frame, t, x, y, share of the face seen) of each sighting
    history: deque[tuple[int, float, float, float, float]] = field(default_factory=lambda: deque(maxlen=120))
    evidence: F64 = field(default_factory=lambda: np.zeros(len(LABELS)))
    n_obs: int = 0
    face: deque[float] = field(default_factory=lambda: deque(maxlen=30))
    faceness: deque[float] = field(default_factory=lambda: deque(maxlen=12))  # 1 - p(back) - p(no card)
    role: str | None = None  # None (not landed yet), kick, play, top, ignored
    label: str | None = None
    seat: str | None = None
    landed: int | None = None
    rest_xy: tuple[float, float] | None = None
    pending: tuple[int, float] | None = None  # the first still frame, while resting but not yet named
    gone: bool = False
    corners: F64 | None = None  # table-mm outline at the last detector sighting
    seen_frame: int = -1  # the last frame the detector (not the presence check) saw it

    def best_label(self, banned: set[str] | None = None) -> tuple[str, float]:
        """The most likely label (outside ``banned``) and its share of the evidence."""
        e = self.evidence.copy()
        for lab in banned or ():
            e[LABELS.index(lab)] = -np.inf
        k = int(np.argmax(e))
        z = e - e[k]
        return LABELS[k], float(1.0 / np.exp(z[np.isfinite(z)]).sum())

    def margin(self, banned: set[str]) -> float:
        """How much likelier (log odds, summed over the views) the best label is than the next (outside ``banned``)."""
        e = self.evidence.copy()
        for lab in banned:
            e[LABELS.index(lab)] = -np.inf
        top = np.sort(e)[-2:]
        return float(top[1] - top[0]) if np.isfinite(top[0]) else float("inf")

    def still_since(self, still_mm: float, settle_mm: float, density: float = 0.7,
                    slips: int = 2) -> tuple[int, float] | None:
        """When the card came to rest, if it lies at rest now: the first frame of its rest, else None.

        At rest means the latest sightings all lie within ``still_mm`` of where it lies now (the
        median of the last three), seen in at least ``density`` of their frames (a blob glimpsed
        now and then at one place, a hand's knuckles or a reflection, is not a card lying there);
        up to ``slips`` sightings in a row may stray (a hand's shadow or a neighbour pulling the
        outline for a frame) without ending the run.

        The rest is dated more finely than it is found: the first frame from which the sightings
        stay within ``settle_mm`` of the rest's median place, or within two and a half times their
        typical scatter when the outline jitters more (a card half under another), so the last slow
        millimetres of a hand laying the card do not count as rest (the scatter is that of the newest
        sightings, :data:`SCATTER_VIEWS`, which lie at rest). The place is taken from the
        views showing most of the card (``CLEAR_FACE``) when there are a few: a hand still on the
        card pulls its outline towards the hand.
        """
        run = self._run(still_mm, slips)
        if not run:
            return None
        f_last = self.history[-1][0]
        if len(run) < density * (f_last - run[-1][0] + 1):
            return None
        clear = [h for h in run if h[4] >= CLEAR_FACE]
        ref = clear if len(clear) >= 3 else run  # a hand over the card pulls its outline: trust clear views
        x_rest = float(np.median([h[2] for h in ref]))
        y_rest = float(np.median([h[3] for h in ref]))
        # the jitter of the rest itself: the newest sightings only, not the hand's last approach
        scatter = float(np.median([math.hypot(h[2] - x_rest, h[3] - y_rest) for h in ref[:SCATTER_VIEWS]]))
        settled = self._run(max(settle_mm, 2.5 * scatter), min(slips, 1), (x_rest, y_rest))
        first = settled[-1] if settled else run[-1]
        return first[0], first[1]

    def _run(self, within_mm: float, slips: int, centre: tuple[float, float] | None = None
             ) -> list[tuple[int, float, float, float, float]]:
        """The latest sightings (newest first) within ``within_mm`` of ``centre`` (default: the median of
        the last three), up to ``slips`` strays in a row skipped."""
        if centre is None:
            recent = list(self.history)[-3:]
            centre = (float(np.median([h[2] for h in recent])), float(np.median([h[3] for h in recent])))
        out = []
        strays = 0
        for h in reversed(self.history):
            if math.hypot(h[2] - centre[0], h[3] - centre[1]) > within_mm:
                strays += 1
                if strays > slips:
                    break
                continue
            strays = 0
            out.append(h)
        return out


@dataclass(frozen=True)
class CardPlace:
    """Where the builder last saw a card (for the pipeline's presence check and the overlay).

    ``corners_mm`` is the outline of the detector's last sighting (``seen_frame``); ``role`` is
    ``kick``, ``play``, ``top`` or None while it has not landed.
    """

    key: int
    x: float
    y: float
    corners_mm: F64 | None
    seen_frame: int
    role: str | None
    label: str | None
    seat: str | None
    guess: str  # the label named at landing, or else the likeliest so far


#: The pipeline's presence check: is the card still lying where the detector last saw it?
StillThere = Callable[[CardPlace], bool]


@dataclass(frozen=True)
class TrickState:
    """What the builder believes about the hand now (for tests, the overlay and the service)."""

    kicks: tuple[str, ...]
    trick: int
    on_board: tuple[tuple[str, str], ...]  # (seat, card) of the trick being played, in order
    tricks_done: int


class TrickBuilder:
    """Face-up cards over time -> card events (see the module docstring)."""

    def __init__(self, spec: TableSpec, *, gate_mm: float = 75.0, still_mm: float = 15.0, settle_mm: float = 5.0,
                 rest_frames: int = 4, decide_frames: int = 6, gone_frames: int = 10, pair_frames: int = 3,
                 min_face: float = 0.35,
                 same_spot_mm: float = 45.0, min_board_frames: int = 12, kick_radius_mm: float = 175.0,
                 rest_gate_mm: float = 30.0, sure_nats: float = 3.0, max_decide_frames: int = 75,
                 min_faceness: float = 0.85) -> None:
        """
        ``gate_mm``: how far a card in a hand may be from where it was last seen and still be the
        same card; larger follows fast hands, smaller keeps neighbouring cards apart.
        ``rest_gate_mm``: the same for a card lying on the board, which moves only when it is
        gathered; small, so that a hand or a misread next to it never takes its place.
        ``still_mm``: how far a resting card's measured centre may wander (the fit of a lone card's
        outline jitters by a millimetre or two; that of a card half over another may flip between two
        fits 15 mm apart; a
        hand carrying a card moves it more).
        ``settle_mm``: the finer bound that dates the rest (see :meth:`_Card.still_since`); smaller
        dates a landing later, larger counts a hand's last slow millimetres as rest.
        ``rest_frames``: frames at rest before a card has landed; more ignores a hand pausing in
        mid-air, fewer dates the landing nearer the release.
        ``decide_frames``: further frames of evidence before the card is named (the event keeps the
        landing's frame); more is surer, fewer reports sooner.
        ``sure_nats``: a card is named once its best label is this much likelier (log odds summed
        over its views) than the next, or after ``max_decide_frames``; until then it, and every
        card landing after it, wait (events keep their frames; only their reporting is later). Look-
        alike cards (a queen of spades and of clubs seen small) need many views; a deck has one of
        each card, so a card named wrong also makes the real one misnamed later.
        ``min_faceness``: a resting card lands only if its latest views say, on average, at least this
        surely that a card face is seen (one minus the chances of a back and of no card): a card face
        reads about 0.98, a hand or the back of a pack in a dealer's hand about 0.5.
        ``gone_frames``: frames unseen before a card has left the board; longer rides out a hand
        passing over it, shorter reports a lift sooner.
        ``pair_frames``: landings this close in time near one seat are a two-card play.
        ``min_face``: views showing less of the card face than this add no identity evidence.
        ``same_spot_mm``: a landing this close to a card already on the board is that card again.
        ``min_board_frames``: a card must have lain this long before its leaving is a take-back
        (shorter stays are a misread, not a lead out of turn).
        ``kick_radius_mm``: before the first play, a card landing farther than this from the middle
        is another kick (the pack being run); played cards land nearer, at the play spots.
        """
        if not spec.seats:
            raise ValueError(f"table {spec.name!r} has no seats; the trick builder needs the card table's seats")
        self.spec = spec
        self.gate_mm = gate_mm
        self.still_mm = still_mm
        self.settle_mm = settle_mm
        self.rest_frames = rest_frames
        self.decide_frames = decide_frames
        self.gone_frames = gone_frames
        self.pair_frames = pair_frames
        self.min_face = min_face
        self.same_spot_mm = same_spot_mm
        self.min_board_frames = min_board_frames
        self.kick_radius_mm = kick_radius_mm
        self.rest_gate_mm = rest_gate_mm
        self.sure_nats = sure_nats
        self.max_decide_frames = max_decide_frames
        self.min_faceness = min_faceness
        self.centre = spec.spots.get("centre", (spec.length_mm / 2.0, spec.width_mm / 2.0))
        self.reset()

    def reset(self) -> None:
        self._cards: list[_Card] = []
        self._next_key = 1
        self._kicks: list[_Card] = []
        self._trick: list[_Card] = []
        self._tricks_done = 0
        self._plays_this_hand = 0
        self._used: set[str] = set()
        self._sweep_from: int | None = None

    # -- public --------------------------------------------------------------------------------
    @property
    def state(self) -> TrickState:
        return TrickState(tuple(c.label or "?" for c in self._kicks), self._tricks_done + 1,
                          tuple((c.seat or "?", c.label or "?") for c in self._trick), self._tricks_done)

    @property
    def places(self) -> tuple[CardPlace, ...]:
        """Every card followed now (not those ignored as a card seen twice)."""
        return tuple(self._place(c) for c in self._cards if not c.gone and c.role != "ignored")

    def update(self, observations: Sequence[CardObservation], t: float, frame: int,
               still_there: StillThere | None = None) -> tuple[list[TableEvent], Tracks]:
        """One frame's cards (with table positions) in; the events this frame completed and the tracks out.

        ``still_there`` (optional) is asked about each followed card the detector did not report
        this frame: True when the image shows it still lying where it was last seen. A detector
        misses a card now and then (a glare, a neighbour's edge merging with it); without this a
        card missed for ``gone_frames`` would have been taken back. A hand over the card or its
        absence answer False, and the card counts as unseen.
        """
        obs = [o for o in observations if o.face_up and o.centre_mm is not None and o.p_none < 0.5]
        self._associate(obs, t, frame)
        if still_there is not None:
            for c in self._cards:
                if (not c.gone and c.role != "ignored" and c.last_frame != frame and c.corners is not None
                        and still_there(self._place(c))):
                    c.last_frame, c.last_t = frame, t
                    c.history.append((frame, t, c.x, c.y, c.history[-1][4] if c.history else 1.0))
        events = self._departures(frame) + self._landings(frame)
        events.sort(key=lambda e: (e.frame or 0, _ORDER.get(e.type, 9)))
        return events, self._tracks(t, frame)

    # -- association ---------------------------------------------------------------------------
    def _associate(self, obs: list[CardObservation], t: float, frame: int) -> None:
        live = [c for c in self._cards if not c.gone]
        sweeping = self._sweep_from is not None
        pairs: list[tuple[float, int, int]] = []
        for j, o in enumerate(obs):
            assert o.centre_mm is not None
            for i, c in enumerate(live):
                d = math.hypot(o.centre_mm[0] - c.x, o.centre_mm[1] - c.y)
                if c.role is None and c.pending is None:  # in a hand: it may have moved on while unseen
                    gate = self.gate_mm * (1.0 + 0.25 * min(frame - c.last_frame - 1, 8))
                elif sweeping and c in self._trick and frame - c.last_frame <= 1:
                    gate = self.gate_mm  # being swept together with its trick (and seen just now)
                else:  # lying on the board: it stays where it was
                    gate = self.rest_gate_mm
                if d > gate:
                    continue
                cost = d
                if c.n_obs >= 3 and o.fresh and o.face_fraction >= self.min_face:
                    k = int(np.argmax(c.evidence))
                    cost += 20.0 * min(3.0, float(np.max(o.logp) - o.logp[k]))
                if c.role in ("play", "kick", "top"):
                    cost -= 10.0  # a card known to be on the board keeps its observations
                pairs.append((cost, i, j))
        pairs.sort()
        used_c: set[int] = set()
        used_o: set[int] = set()
        for _, i, j in pairs:
            if i in used_c or j in used_o:
                continue
            used_c.add(i)
            used_o.add(j)
            self._observe(live[i], obs[j], t, frame)
        for j, o in enumerate(obs):
            if j not in used_o:
                assert o.centre_mm is not None
                c = _Card(self._next_key, frame, t, o.centre_mm[0], o.centre_mm[1], o.angle, frame, t)
                self._next_key += 1
                self._cards.append(c)
                self._observe(c, o, t, frame)
        self._merge_duplicates()

    def _merge_duplicates(self, within_mm: float = 15.0) -> None:
        """Two tracks on one spot are one card seen by turns (a misread spawned the second): merge.

        The older track (or the one already on the board) keeps the sightings and the evidence.
        """
        live = [c for c in self._cards if not c.gone and c.role != "ignored"]
        for a in live:
            for b in live:
                if a is b or b.gone or a.gone or b.role is not None or a.key > b.key and a.role is None:
                    continue
                if math.hypot(a.x - b.x, a.y - b.y) > within_mm:
                    continue
                seen = {f for f, *_ in a.history}
                merged = sorted(list(a.history) + [h for h in b.history if h[0] not in seen])
                a.history = deque(merged, maxlen=a.history.maxlen)
                a.evidence = a.evidence + b.evidence
                a.n_obs += b.n_obs
                if b.last_frame > a.last_frame:
                    a.last_frame, a.last_t = b.last_frame, b.last_t
                    a.x, a.y = b.x, b.y
                    a.corners, a.seen_frame = b.corners, max(a.seen_frame, b.seen_frame)
                b.gone = True
                b.role = "ignored"

    @staticmethod
    def _place(c: _Card) -> CardPlace:
        return CardPlace(c.key, c.x, c.y, c.corners, c.seen_frame, c.role, c.label, c.seat,
                         c.label or c.best_label()[0])

    def _observe(self, c: _Card, o: CardObservation, t: float, frame: int) -> None:
        assert o.centre_mm is not None
        c.x, c.y = o.centre_mm
        c.angle = o.angle
        c.last_frame, c.last_t = frame, t
        c.seen_frame = frame
        if o.corners_mm is not None:
            c.corners = np.asarray(o.corners_mm, np.float64)
        c.history.append((frame, t, c.x, c.y, o.face_fraction))
        c.face.append(o.face_fraction)
        c.faceness.append(1.0 - o.p_back - o.p_none)
        if o.fresh and o.face_fraction >= self.min_face:
            moving = len(c.history) >= 2 and math.hypot(c.history[-2][2] - c.x, c.history[-2][3] - c.y) > self.settle_mm
            weight = min(1.0, o.face_fraction) * (0.5 if moving else 1.0)
            c.evidence += weight * np.maximum(np.asarray(o.logp, np.float64), -12.0)
            c.n_obs += 1

    # -- landings ------------------------------------------------------------------------------
    def _landings(self, frame: int) -> list[TableEvent]:
        ready: list[tuple[_Card, int, float, bool]] = []  # card, first still frame and time, forced
        sweeping = self._gathering()
        if sweeping and self._sweep_from is None:
            self._sweep_from = frame
        for c in self._cards:
            if c.role is not None or c.n_obs < 3:
                continue
            if c.gone or c.last_frame != frame:
                # lost from view before it was named: a landing it was, if it had rested long enough
                if c.pending is not None and c.last_frame - c.pending[0] >= self.rest_frames + 2:
                    ready.append((c, *c.pending, True))
                c.pending = None
                continue
            still = c.still_since(self.still_mm, self.settle_mm)
            if still is not None and float(np.mean(c.faceness)) < self.min_faceness:
                still = None  # resting, but not a card face: a pack's back read as a face, a hand
            if still is not None and frame - still[0] >= self.rest_frames:
                c.pending = still
                if frame - still[0] >= self.rest_frames + self.decide_frames:
                    ready.append((c, *still, frame - still[0] >= self.rest_frames + self.max_decide_frames))
            elif c.pending is not None:
                # moving again: swept up with its trick, or a hand that only paused in mid-air
                if sweeping and frame - c.pending[0] >= self.rest_frames + 2:
                    ready.append((c, *c.pending, True))
                c.pending = None
        ready.sort(key=lambda r: (r[1], r[0].key))
        for c, f0, _, _ in ready:
            # judged where it came to rest: named late, it may already be swept into a pile
            c.rest_xy = self._rest_place(c, f0)
        # a card that must be named now (leaving the board, waited long enough) takes the cards
        # that landed before it along, sure or not, so that events keep their order
        last_forced = max((k for k, r in enumerate(ready) if r[3]), default=-1)
        out: list[TableEvent] = []
        done: set[int] = set()
        for k, (c, f0, t0, forced) in enumerate(ready):
            forced = forced or k < last_forced
            if c.key in done:
                continue
            if len(self._trick) >= TRICK_SIZE and all(frame - o.last_frame >= 3 for o in self._trick):
                out.append(self._lift_trick())  # lifted, though not yet long gone: the next trick has begun
                if c.role is not None:  # the lift found it to be the trick's pile, lifted with it
                    done.add(c.key)
                    c.pending = None
                    continue
            if self._not_a_play(c, f0):
                done.add(c.key)
                c.pending = None
                c.role = "ignored"
                continue
            if not (forced or sweeping) and c.margin(self._used) < self.sure_nats:
                break  # not sure of it yet: it, and every card that landed after it, wait for more views
            done.add(c.key)
            c.pending = None
            mate = next((m for m, f1, _, _ in ready if m.key not in done and abs(f1 - f0) <= self.pair_frames
                         and math.dist(self._where(m), self._where(c)) < 70.0 and self._seat(m) == self._seat(c)
                         and not self._not_a_play(m, f1)), None)
            if mate is not None:
                done.add(mate.key)
                mate.pending = None
                out += self._double_play(c, mate, f0, t0)
            else:
                out += self._land(c, f0, t0)
        return out

    def _on_board(self) -> list[_Card]:
        return [c for c in self._cards if not c.gone and c.role in ("play", "kick", "top")]

    def _not_a_play(self, c: _Card, since: int) -> bool:
        """A landing that is a card already on the board seen again (see the module docstring).

        ``since`` is the landing's first still frame: a card coming to rest in the pile of a trick
        being gathered is that trick again.
        """
        board = self._on_board()
        if any(math.dist(self._where(o), self._where(c)) < self.same_spot_mm for o in board):
            return True
        if len(self._trick) >= TRICK_SIZE or (self._sweep_from is not None and since >= self._sweep_from):
            return True
        return any(o.seat == self._seat(c) for o in self._trick)

    def _gathering(self) -> bool:
        """Cards of the trick swept off their landing spots: the winner is gathering it."""
        moved = [c for c in self._trick if c.rest_xy is not None and not c.gone
                 and math.hypot(c.x - c.rest_xy[0], c.y - c.rest_xy[1]) > 25.0]
        return len(self._trick) >= 2 and len(moved) >= 2

    def _seat(self, c: _Card) -> str:
        x, y = self._where(c)
        return min(self.spec.seats, key=lambda s: math.hypot(s.play_spot[0] - x, s.play_spot[1] - y)).id

    @staticmethod
    def _where(c: _Card) -> tuple[float, float]:
        """Where a card lies for the rules of play: where it came to rest, once known."""
        return c.rest_xy if c.rest_xy is not None else (c.x, c.y)

    def _rest_place(self, c: _Card, since: int) -> tuple[float, float]:
        """Where the card lay when it came to rest at frame ``since`` (the median of its first
        ``rest_frames`` sightings from then): a card named only after a wait may have been swept
        into a pile with its trick by then, and its seat and its spot are those of its landing."""
        seen = [(x, y) for f, _, x, y, _ in c.history if since <= f <= since + self.rest_frames]
        if not seen:
            return (c.x, c.y)
        return float(np.median([p[0] for p in seen])), float(np.median([p[1] for p in seen]))

    def _name(self, c: _Card) -> str:
        c.label = c.best_label(self._used)[0]
        self._used.add(c.label)
        return c.label

    def _land(self, c: _Card, frame: int, t: float) -> list[TableEvent]:
        c.landed, c.rest_xy = frame, self._where(c)
        far = math.dist(c.rest_xy, self.centre) > self.kick_radius_mm
        if not self._kicks or (self._plays_this_hand == 0 and far):
            label = self._name(c)
            c.role = "kick"
            self._kicks.append(c)
            return [TableEvent(t=t, frame=frame, type=EventType.CARD_KICKED, objects=(f"card-{label}",),
                               data={"card": label})]
        return [self._play(c, frame, t)]

    def _play(self, c: _Card, frame: int, t: float, order: int | None = None) -> TableEvent:
        c.landed, c.rest_xy = frame, self._where(c)
        label = self._name(c)
        c.role = "play"
        c.seat = self._seat(c)
        self._trick.append(c)
        self._plays_this_hand += 1
        data: dict[str, object] = {"card": label, "seat": c.seat, "trick": self._tricks_done + 1,
                                   "turn": len(self._trick)}
        if order is not None:
            data["order"] = order
        return TableEvent(t=t, frame=frame, type=EventType.CARD_PLAYED, objects=(f"card-{label}",), data=data)

    def _double_play(self, a: _Card, b: _Card, frame: int, t: float) -> list[TableEvent]:
        """Two cards landing together: the one more hidden is the bottom card (see the module docstring)."""
        def hidden(c: _Card) -> float:
            return 1.0 - float(np.mean(c.face)) if c.face else 0.0

        bottom, top = (a, b) if hidden(a) >= hidden(b) else (b, a)
        first = self._play(bottom, frame, t, order=0)
        top.landed, top.rest_xy = frame, self._where(top)
        label = self._name(top)
        top.role = "top"
        top.seat = bottom.seat
        second = TableEvent(t=t, frame=frame, type=EventType.CARD_PLAYED, objects=(f"card-{label}",),
                            data={"card": label, "seat": bottom.seat, "order": 1})
        return [first, second]

    # -- departures ----------------------------------------------------------------------------
    def _departures(self, frame: int) -> list[TableEvent]:
        out: list[TableEvent] = []
        for c in self._cards:
            if not c.gone and frame - c.last_frame > self.gone_frames:
                c.gone = True
        for c in [c for c in self._cards if c.gone and c.role == "top"]:
            self._cards.remove(c)  # the top card of a double play went back to its player's hand
            if c.label is not None:
                self._used.discard(c.label)
        if len(self._trick) >= TRICK_SIZE and all(c.gone for c in self._trick):
            out.append(self._lift_trick())
        elif 0 < len(self._trick) < TRICK_SIZE and self._sweep_from is not None:
            if all(c.gone for c in self._trick):
                # gathered with a card unseen: lifted all the same (the referee asks about the rest)
                out.append(self._lift_trick())
        elif 0 < len(self._trick) < TRICK_SIZE:
            for c in [c for c in self._trick if c.gone]:
                self._trick.remove(c)
                if not self._trick:
                    self._sweep_from = None
                if c.label is not None:
                    self._used.discard(c.label)
                if c.landed is None or c.last_frame - c.landed < self.min_board_frames:
                    self._plays_this_hand -= 1
                    continue  # too brief to have been a card on the board
                frame0, t0 = self._departure(c)
                out.append(TableEvent(t=t0, frame=frame0, type=EventType.CARD_RETRIEVED, objects=(f"card-{c.label}",),
                                      data={"card": c.label, "seat": c.seat}))
        if self._kicks and all(k.gone for k in self._kicks) and not self._trick and self._plays_this_hand:
            # the dealer took the kick back up: the hand is over, the next begins with a kick
            self._kicks = []
            self._tricks_done = 0
            self._plays_this_hand = 0
            self._used = set()
        keep = set(map(id, self._trick + self._kicks))
        self._cards = [c for c in self._cards if not c.gone or id(c) in keep]
        return out

    def _lift_trick(self) -> TableEvent:
        """The full trick has left the board: ``removed``, dated just after its last card was seen.

        Its cards swept into a pile may be seen only as the pile (one outline, read as any of them),
        which is followed as a card of its own: the pile's last sighting counts too.
        """
        cx = sum(c.x for c in self._trick) / len(self._trick)
        cy = sum(c.y for c in self._trick) / len(self._trick)
        since = max(c.landed or 0 for c in self._trick)  # the pile forms after the last card came
        pile = [c for c in self._cards if c.role in (None, "ignored") and c not in self._trick
                and c.first_frame >= since and math.hypot(c.x - cx, c.y - cy) < PILE_MM]
        for c in pile:
            c.gone, c.role = True, "ignored"
        last = max(self._trick + pile, key=lambda c: c.last_frame)
        step = last.last_t / last.last_frame if last.last_frame > 0 else 0.0
        objects = tuple(f"card-{c.label}" for c in self._trick)
        positions = {f"card-{c.label}": [round(c.x, 1), round(c.y, 1)] for c in self._trick}
        event = TableEvent(t=last.last_t + step, frame=last.last_frame + 1, type=EventType.REMOVED, objects=objects,
                           data={"positions": positions})
        for c in self._trick:
            c.gone = True
        self._trick = []
        self._tricks_done += 1
        self._sweep_from = None
        return event

    @staticmethod
    def _departure(c: _Card) -> tuple[int, float]:
        """When a card that rested started to move off: the sighting after its last one where it lay.

        Where it lay allows ``DEPART_MM``: the fingers closing on a card shift its outline a few
        millimetres before it moves.
        """
        if c.rest_xy is not None and c.landed is not None:
            after = [h for h in c.history if h[0] > c.landed]
            last_in = max((i for i, (_, _, x, y, _) in enumerate(after)
                           if math.hypot(x - c.rest_xy[0], y - c.rest_xy[1]) <= DEPART_MM), default=None)
            if last_in is not None and last_in + 1 < len(after):
                return after[last_in + 1][0], after[last_in + 1][1]
        return c.last_frame + 1, c.last_t

    # -- tracks --------------------------------------------------------------------------------
    def _tracks(self, t: float, frame: int) -> Tracks:
        out = []
        for c in self._cards:
            if c.gone or c.role == "ignored":
                continue
            best, p = c.best_label()
            label = c.label or best
            status = TrackStatus.VISIBLE if c.last_frame == frame else TrackStatus.MISSING
            vx = vy = 0.0
            if len(c.history) >= 2:
                (_, t0, x0, y0, _), (_, t1, x1, y1, _) = c.history[-2], c.history[-1]
                if t1 > t0:
                    vx, vy = (x1 - x0) / (t1 - t0), (y1 - y0) / (t1 - t0)
            out.append(Track(id=f"card-{label}" if c.label else f"card-{c.key}", label=label, group="card",
                             x=c.x, y=c.y, vx=vx, vy=vy, radius_mm=CARD_RADIUS_MM, status=status,
                             last_seen_t=c.last_t, first_seen_t=c.first_t, score=min(1.0, max(0.0, p))))
        return Tracks(t, frame, tuple(out))


_ORDER = {EventType.REMOVED: 0, EventType.CARD_RETRIEVED: 1, EventType.CARD_KICKED: 2, EventType.CARD_PLAYED: 3}
