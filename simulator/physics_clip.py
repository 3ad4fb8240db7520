"""A clip's timeline: the script of a scenario drives the world through it, frame by frame.

A scenario is a short script (place a ball, line up and strike, wait for rest, re-spot a piece).
:class:`Clip` turns each line into time: it steps the physics with the world's adaptive step,
lands a step exactly on every video frame time ``k / fps`` to sample a :class:`FrameState`, animates
the cue (or the flicking hand) and the placing hands, and feeds the truth recorder. While nothing
moves it skips the physics and only samples frames, so idle time costs nothing.

Cue animation, so a detector sees what a real camera does: the cue comes in along the line of
the shot, settles behind the ball, makes one back-swing and strikes; the strike is the
``shot_start`` (aligned to a frame time, so that frame shows the ball still on its spot with the
tip at it); the cue follows through, pauses and withdraws.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from tableref.calibration.spec import TableSpec
from tableref.events import EventType, TableEvent
from tableref.simulator.physics import World
from tableref.simulator.state import CueState, FrameState, HandState, SimResult
from tableref.simulator.truth_events import TruthRecorder

MAX_CLIP_S = 20.0
Point = tuple[float, float]


def _ease(u: float) -> float:
    u = min(max(u, 0.0), 1.0)
    return u * u * (3.0 - 2.0 * u)


@dataclass(frozen=True)
class _Overlay:
    t0: float
    t1: float
    cue: Callable[[float], CueState | None] | None = None
    hand: Callable[[float], HandState | None] | None = None
    held: tuple[str, Callable[[float], Point | None]] | None = None


@dataclass(frozen=True)
class ShotOutcome:
    """What one shot did, for scripts that check their intent (and retry with other draws)."""

    t_strike: float
    t_rest: float
    first_events: int  # index of the shot's first event in the recorder (shot_start)


class Clip:
    """Scripted timeline of one scenario. Scripts call :meth:`wait`, :meth:`place`, :meth:`shot`, ..."""

    def __init__(self, *, game: str, scenario: str, seed: int, fps: float, spec: TableSpec, world: World,
                 rng: random.Random, player_side: str = "low-x") -> None:
        if fps <= 0 or not math.isfinite(fps):
            raise ValueError(f"fps must be a positive number, got {fps!r}")
        self.game, self.scenario, self.seed, self.fps = game, scenario, seed, float(fps)
        self.spec, self.world, self.rng = spec, world, rng
        self.player_side = player_side
        self.truth = TruthRecorder(spec, self.fps)
        self.frames: list[FrameState] = []
        self._overlays: list[_Overlay] = []
        self.shots: list[dict[str, Any]] = []
        self.meta: dict[str, Any] = {}
        self.inputs: list[dict[str, Any]] = []
        #: builds the opening ``setup`` input from frame 0 and ``meta["setup"]`` (set by each game's scripts)
        self.opening: Callable[[FrameState, Mapping[str, Any]], dict[str, Any]] | None = None
        self.truth.zones_from(world)

    # -- time ------------------------------------------------------------------------------------
    @property
    def t(self) -> float:
        return self.world.t

    def _frame_time(self, k: int) -> float:
        return k / self.fps

    def _sample(self) -> None:
        k = len(self.frames)
        t = self._frame_time(k)
        cue: CueState | None = None
        hands: list[HandState] = []
        held: dict[str, Point] = {}
        for ov in self._overlays:
            if not ov.t0 <= t <= ov.t1:
                continue
            if ov.cue is not None:
                cue = ov.cue(t) or cue
            if ov.hand is not None:
                h = ov.hand(t)
                if h is not None:
                    hands.append(h)
            if ov.held is not None:
                pos = ov.held[1](t)
                if pos is not None:
                    held[ov.held[0]] = pos
        self.frames.append(FrameState(index=k, t=round(t, 6), objects=self.world.states(held), cue=cue,
                                      hands=tuple(hands)))

    def _run(self, until: float | None, *, stop_at_rest: bool) -> float:
        """Step the world to ``until`` (or to rest), sampling every frame time on the way.

        Each frame interval is cut into equal physics steps (the world says how many), so a step
        lands exactly on every frame time and the step length only changes between frames.
        ``until`` is rounded up to a frame time; the frame at that time is sampled by the next call,
        after whatever the script does at that instant (a placed ball shows in it, a struck ball
        shows on its spot with its new velocity).
        """
        w = self.world
        limit = MAX_CLIP_S if until is None else until
        if limit > MAX_CLIP_S + 1e-9:
            raise RuntimeError(f"scenario {self.scenario!r} runs past {MAX_CLIP_S:.0f} s")
        limit = self._frame_time(math.ceil(limit * self.fps - 1e-9))
        while True:
            if w.t >= limit - 1e-9:  # the frame at ``limit`` waits for what the script does then
                if until is None:
                    raise RuntimeError(f"scenario {self.scenario!r}: objects still moving at {MAX_CLIP_S:.0f} s")
                return w.t
            next_frame = self._frame_time(len(self.frames))
            if next_frame <= w.t + 1e-9:
                self._sample()
                continue
            if stop_at_rest and w.at_rest():
                return w.t
            if w.at_rest():
                w.t = next_frame  # nothing moves: skip the physics, keep the clock
                continue
            span = next_frame - w.t
            n = w.substeps(span)
            dt = span / n
            for i in range(n):
                raws = w.step(dt)
                if i == n - 1:
                    w.t = next_frame
                self.truth.raw(raws)
                self.truth.track(w)
                if stop_at_rest and w.at_rest():
                    break

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass (objects keep rolling if they roll)."""
        self._run(self.t + seconds, stop_at_rest=False)

    def _align(self) -> None:
        """Advance to the next frame time, so that hand and cue actions start on a frame."""
        k = math.ceil(self.t * self.fps - 1e-9)
        self._run(self._frame_time(k), stop_at_rest=False)

    def settle(self, max_seconds: float = 15.0) -> float:
        """Run until everything is at rest; record ``at_rest``; return the time."""
        t_rest = self._run(min(self.t + max_seconds, MAX_CLIP_S), stop_at_rest=True)
        if not self.world.at_rest():
            raise RuntimeError(f"scenario {self.scenario!r}: still moving after {max_seconds:.1f} s")
        self.truth.at_rest(t_rest, self.world)
        return t_rest

    # -- hands -----------------------------------------------------------------------------------
    def _entry(self, p: Point, side: str | None = None) -> tuple[Point, float]:
        """Where an arm comes in from to reach ``p``: ``side`` (or the player's side), else the nearest edge.

        Sides: ``low-x`` (bar-billiards player's end), ``high-y`` (carrom south), ``low-y`` (north),
        ``nearest``.
        """
        L, W = self.spec.length_mm, self.spec.width_mm
        side = side or self.player_side
        if side == "low-x":
            e = (-260.0, p[1])
        elif side == "high-y":
            e = (p[0], W + 260.0)
        elif side == "low-y":
            e = (p[0], -260.0)
        else:
            gaps = {(-260.0, p[1]): p[0], (L + 260.0, p[1]): L - p[0], (p[0], -260.0): p[1], (p[0], W + 260.0): W - p[1]}
            e = min(gaps, key=lambda k: gaps[k])
        return e, math.atan2(p[1] - e[1], p[0] - e[0])

    def _hand_path(self, t0: float, duration: float, a: Point, b: Point, c: Point, angle: float,
                   holding_first: str | None, holding_second: str | None) -> None:
        """A hand goes a -> b over the first half and b -> c over the second half of ``duration``."""
        half = duration / 2.0

        def pos(t: float) -> Point:
            if t <= t0 + half:
                u = _ease((t - t0) / half)
                return (a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u)
            u = _ease((t - t0 - half) / half)
            return (b[0] + (c[0] - b[0]) * u, b[1] + (c[1] - b[1]) * u)

        def hand(t: float) -> HandState:
            x, y = pos(t)
            return HandState(x=x, y=y, angle=angle, holding=holding_first if t < t0 + half else holding_second)

        self._overlays.append(_Overlay(t0, t0 + duration, hand=hand))
        if holding_first is not None:
            self._overlays.append(_Overlay(t0, t0 + half - 1e-6, held=(holding_first, pos)))
        if holding_second is not None:
            self._overlays.append(_Overlay(t0 + half + 1e-6, t0 + duration, held=(holding_second, pos)))

    def place(self, obj_id: str, at: Point, *, duration: float = 1.2, data: Mapping[str, Any] | None = None,
              side: str | None = None) -> None:
        """A hand brings ``obj_id`` (from the trough, a pocket or the floor) and sets it down at ``at``."""
        self._align()
        entry, angle = self._entry(at, side)
        t0 = self.t
        self._hand_path(t0, duration, entry, at, entry, angle, obj_id, None)
        self._run(t0 + duration / 2.0, stop_at_rest=False)
        self.world.place(obj_id, *at)
        self.truth.by_hand(self.t, EventType.PLACED, obj_id, self.world, data)
        self._run(t0 + duration, stop_at_rest=False)

    def remove(self, obj_id: str, *, duration: float = 1.2, data: Mapping[str, Any] | None = None,
               side: str | None = None) -> None:
        """A hand picks ``obj_id`` off the table (to the trough, or to re-spot it later)."""
        self._align()
        at = self.world.position(obj_id)
        entry, angle = self._entry(at, side)
        t0 = self.t
        self._hand_path(t0, duration, entry, at, entry, angle, None, obj_id)
        self._run(t0 + duration / 2.0, stop_at_rest=False)
        self.world.take(obj_id)
        self.truth.by_hand(self.t, EventType.REMOVED, obj_id, self.world,
                           {"from": [round(at[0], 1), round(at[1], 1)], **(data or {})})
        self._run(t0 + duration, stop_at_rest=False)

    def move(self, obj_id: str, to: Point, *, duration: float = 1.4, data: Mapping[str, Any] | None = None,
             side: str | None = None) -> None:
        """A hand shifts ``obj_id`` on the table (a carrom striker back onto its baseline)."""
        self._align()
        start = self.world.position(obj_id)
        entry, angle = self._entry(to, side)
        t0 = self.t
        third = duration / 3.0
        self._hand_path(t0, 2.0 * third, entry, start, to, angle, None, obj_id)
        self._run(t0 + third, stop_at_rest=False)
        self.world.take(obj_id)
        self._run(t0 + 2.0 * third, stop_at_rest=False)
        self.world.place(obj_id, *to)
        self.truth.by_hand(self.t, EventType.MOVED, obj_id, self.world,
                           {"from": [round(start[0], 1), round(start[1], 1)], **(data or {})})
        self._hand_path(self.t, 2.0 * third, to, to, entry, angle, None, None)
        self._run(t0 + duration + third, stop_at_rest=False)

    # -- what a person enters ----------------------------------------------------------------------
    def say(self, kind: str, **data: Any) -> None:
        """Record a human input (the tablet's), in the log format of ``tableref/events.py``.

        It is dated on the first frame after everything recorded so far, so a replay that merges it
        by time with the events, and the service that feeds a frame's inputs before its events,
        both apply it after the rest that came before it and before the next strike.
        """
        last = max((e.frame or 0 for e in self.truth.events()), default=-1)
        k = max(math.ceil(self.t * self.fps - 1e-9), last + 1)
        self.inputs.append({"t": round(k / self.fps, 4), "frame": k, "input": kind, **data})

    # -- the shot --------------------------------------------------------------------------------
    def shot(self, obj_id: str, angle: float, speed: float, *, vz: float = 0.0, kind: str = "cue",
             aim_s: float | None = None, seat: str | None = None, settle_s: float = 15.0,
             intent: Mapping[str, Any] | None = None) -> ShotOutcome:
        """Line up, strike ``obj_id`` towards ``angle`` (radians) at ``speed`` mm/s, run to rest.

        ``seat`` (carrom) names the shooter, whose front baseline the striker must cross.
        ``intent`` (the planned object ball, pocket, ...) goes into ``meta.shots`` for referee tests.
        """
        if not self.world.at_rest():
            raise RuntimeError("a shot was scripted before everything came to rest")
        self._align()
        aim = aim_s if aim_s is not None else self.rng.uniform(0.7, 1.0)
        t_strike = self._frame_time(math.ceil((self.t + aim) * self.fps - 1e-9))
        ball = self.world.objects[obj_id]
        bx, by = self.world.position(obj_id)
        ux, uy = math.cos(angle), math.sin(angle)
        hand = kind == "hand"
        reach = 120.0 if hand else 360.0
        back = 30.0 if hand else 130.0
        t_in = self.t

        def gap_before(t: float) -> float:
            u = (t - t_in) / max(t_strike - t_in, 1e-6)
            if u < 0.4:
                return reach + (25.0 - reach) * _ease(u / 0.4)
            if u < 0.75:
                return 25.0 + (back - 25.0) * _ease((u - 0.4) / 0.35)
            v = (u - 0.75) / 0.25
            return back * (1.0 - v * v)

        def cue_before(t: float) -> CueState:
            d = ball.radius + gap_before(t)
            return CueState(tip=(bx - ux * d, by - uy * d), angle=angle, kind=kind)

        follow, hold, out = 0.12, 0.25, 0.5

        def cue_after(t: float) -> CueState | None:
            s = t - t_strike
            if s <= follow:
                d = ball.radius - (25.0 if hand else 45.0) * _ease(s / follow)
            elif s <= follow + hold:
                d = ball.radius - (25.0 if hand else 45.0)
            else:
                d = ball.radius - (25.0 if hand else 45.0) + (reach + 60.0) * _ease((s - follow - hold) / out)
            return CueState(tip=(bx - ux * d, by - uy * d), angle=angle, kind=kind)

        self._overlays.append(_Overlay(t_in, t_strike, cue=cue_before))
        self._overlays.append(_Overlay(t_strike + 1e-6, t_strike + follow + hold + out, cue=cue_after))
        self._run(t_strike, stop_at_rest=False)
        first = self.truth.mark()
        self.truth.shot_start(self.t, self.world, obj_id, seat=seat,
                              data={"speed": round(speed, 1), "angle": round(math.degrees(angle), 2)})
        self.world.strike(obj_id, speed * ux, speed * uy, vz)
        record: dict[str, Any] = {"t": round(self.t, 4), "struck": obj_id, "speed": round(speed, 1),
                                  "angle_deg": round(math.degrees(angle), 2)}
        if seat is not None:
            record["seat"] = seat
        record.update(intent or {})
        self.shots.append(record)
        t_rest = self.settle(settle_s)
        return ShotOutcome(t_strike=t_strike, t_rest=t_rest, first_events=first)

    # -- the result ------------------------------------------------------------------------------
    def events_since(self, outcome: ShotOutcome) -> list[TableEvent]:
        """The events recorded from this shot's ``shot_start`` on, by time."""
        return self.truth.since(outcome.first_events)

    def result(self, *, table: str, tail_s: float | None = None, meta: Mapping[str, Any] | None = None) -> SimResult:
        """Finish the clip with a still tail (a second or so, so a late event still has frames) and freeze it."""
        tail = tail_s if tail_s is not None else self.rng.uniform(1.0, 1.6)
        self._run(min(self.t + tail, MAX_CLIP_S), stop_at_rest=False)
        if not self.frames or self.frames[-1].t < self.t - 1e-6:
            self._sample()
        full_meta: dict[str, Any] = {"shots": self.shots, **self.meta, **(meta or {})}
        full_meta["duration_s"] = round(self.frames[-1].t, 4)
        opening = [] if self.opening is None else [{"t": 0.0, "frame": 0, "input": "setup",
                                                    **self.opening(self.frames[0], self.meta.get("setup") or {})}]
        full_meta["inputs"] = opening + sorted(self.inputs, key=lambda i: float(i["t"]))
        return SimResult(game=self.game, table=table, scenario=self.scenario, seed=self.seed, fps=self.fps,
                         frames=tuple(self.frames), events=self.truth.events(), meta=full_meta)


# -- shared by the scenario scripts -------------------------------------------------------------

ScenarioFn = Callable[[int, float], SimResult]


@dataclass(frozen=True)
class ScenarioInfo:
    """One registered scenario: what it shows (for ``--scenario list`` and docs) and how to run it."""

    description: str
    function: ScenarioFn


class IntentNotMet(Exception):
    """The physics did not do what the script planned (a kiss, a rattle); the script draws again."""


def attempts(key: str, seed: int, build: Callable[[random.Random], SimResult], tries: int = 12) -> SimResult:
    """Run ``build`` with a generator drawn from (``key``, ``seed``, attempt) until its intent is met.

    A scenario must show what it promises (a pot, a scratch, four balls to the rails) for every
    seed; the seed varies the layout and the stroke, and the rare draw whose physics goes another
    way is redrawn. The same seed always takes the same attempts, so results stay identical.
    """
    reasons: list[str] = []
    for attempt in range(tries):
        rng = random.Random(f"{key}/{seed}/{attempt}")
        try:
            return build(rng)
        except IntentNotMet as exc:
            reasons.append(str(exc))
    raise RuntimeError(f"scenario {key!r} seed {seed}: no attempt showed what it should ({'; '.join(reasons[-3:])})")


def require(condition: bool, what: str) -> None:
    if not condition:
        raise IntentNotMet(what)


def kinds_of(events: list[TableEvent], etype: EventType) -> list[TableEvent]:
    return [e for e in events if e.type is etype]


T = TypeVar("T")


def sample(make: Callable[[], T], tries: int = 300) -> T:
    """Call ``make`` until it returns instead of raising :class:`IntentNotMet` (a layout search).

    Geometry draws are cheap, so a script rejects layouts whose planned lines are blocked here,
    before any physics runs; ``make`` draws from the scenario's generator, so this stays repeatable.
    """
    last = "no draw"
    for _ in range(tries):
        try:
            return make()
        except IntentNotMet as exc:
            last = str(exc)
    raise IntentNotMet(f"no layout found ({last})")
