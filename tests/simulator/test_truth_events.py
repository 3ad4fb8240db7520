"""The true events: how raw physics becomes DESIGN.md's events, and that every event agrees with the states.

The agreement checks run every physics scenario at 60 frames a second and, for each event, read
the states in the frame at or after it: a pot's ball is in that hole from then on, an ``at_rest``
has every speed at zero and the positions it lists, a ``cushion`` has the ball touching that
cushion and a ``contact`` the two objects touching (positions carried to the event's instant with
the velocities of the frame after it or, when something else turned the ball in between such as
a rattle in a pocket's jaws, of the frame before it), and so on for pins, baulk, baselines, hands
and flights.
"""

from __future__ import annotations

import functools
import math
import random

import pytest

from tableref.calibration.spec import TableSpec, load_table
from tableref.events import EventType, TableEvent
from tableref.simulator.physics import RawEvent, World
from tableref.simulator.physics_clip import Clip
from tableref.simulator.physics_params import physics_for
from tableref.simulator.scenarios import SCENARIOS, run_scenario
from tableref.simulator.state import FrameState, ObjectState, ObjectStatus, SimResult
from tableref.simulator.truth_events import TruthRecorder, frame_at_or_after

FPS = 60.0
PHYSICS_GAMES = ("bar-billiards", "up-and-down", "colors", "carroms")
CASES = [(g, s, seed) for g in PHYSICS_GAMES for s in SCENARIOS[g] for seed in (0, 2)]


@functools.cache
def clip(game: str, scenario: str, seed: int) -> SimResult:
    return run_scenario(game, scenario, seed, FPS)


# -- the recorder on its own --------------------------------------------------------------------

def test_frame_is_the_first_frame_at_or_after_the_event() -> None:
    assert frame_at_or_after(0.0, 30.0) == 0
    assert frame_at_or_after(1.0, 30.0) == 30
    assert frame_at_or_after(1.001, 30.0) == 31
    assert frame_at_or_after(1.0 / 30.0, 30.0) == 1


def test_one_contact_and_one_cushion_event_per_touch() -> None:
    rec = TruthRecorder(load_table("pool"), 30.0)
    rec.raw([RawEvent(1.00, "contact", ("ball-1", "ball-0")), RawEvent(1.05, "contact", ("ball-0", "ball-1")),
             RawEvent(1.12, "contact", ("ball-1", "ball-0")), RawEvent(1.60, "contact", ("ball-1", "ball-0")),
             RawEvent(1.00, "cushion", ("ball-3",), "cushion-left"), RawEvent(1.1, "cushion", ("ball-3",), "cushion-left"),
             RawEvent(1.1, "cushion", ("ball-3",), "cushion-top")])
    events = rec.events()
    assert [(e.type, e.t) for e in events if e.type is EventType.CONTACT] == [(EventType.CONTACT, 1.0),
                                                                              (EventType.CONTACT, 1.6)]
    assert [e.where for e in events if e.type is EventType.CUSHION] == ["cushion-left", "cushion-top"]


def test_off_table_is_dated_when_it_left_and_says_whether_it_came_back() -> None:
    rec = TruthRecorder(load_table("bar-billiards"), 30.0)
    rec.raw([RawEvent(2.5, "fell_off", ("white-2",), None, {"left_t": 2.2}),
             RawEvent(4.0, "returned", ("white-1",), None, {"left_t": 3.7})])
    off = [(e.objects, e.t, e.frame, e.data["returned"]) for e in rec.events()]
    assert off == [(("white-2",), 2.2, 66, False), (("white-1",), 3.7, 111, True)]


def test_the_struck_ball_comes_first_in_its_contacts() -> None:
    spec = load_table("pool")
    w = World(spec, physics_for("pool"), random.Random(1))
    w.add_object("ball-0", "ball", 500.0, 635.0)
    w.add_object("ball-5", "ball", 800.0, 635.0)
    rec = TruthRecorder(spec, 30.0)
    rec.shot_start(0.0, w, "ball-5")
    rec.raw([RawEvent(0.2, "contact", ("ball-0", "ball-5"))])
    contact = [e for e in rec.events() if e.type is EventType.CONTACT]
    assert contact[0].objects == ("ball-5", "ball-0")


def _bar_clip(ball_at: tuple[float, float]) -> Clip:
    spec = load_table("bar-billiards")
    rng = random.Random(5)
    w = World(spec, physics_for("bar-billiards"), rng)
    w.add_object("white-1", "white", *ball_at)
    return Clip(game="bar-billiards", scenario="t", seed=0, fps=30.0, spec=spec, world=w, rng=rng)


@pytest.mark.parametrize("y,where", ((381.0, "d"), (100.0, "baulk")))
def test_a_ball_coming_back_into_baulk_touches_the_d_or_baulk(y: float, where: str) -> None:
    c = _bar_clip((800.0, y))
    c.shot("white-1", math.pi, 1400.0)
    entries = [e for e in c.truth.events() if e.type is EventType.BAULK_ENTRY]
    assert [(e.objects, e.where) for e in entries] == [(("white-1",), where)]
    x = entries[0].data["position"][0]
    assert x - 23.0 <= (load_table("bar-billiards").baulk_x or 0.0) + 0.5


def test_a_ball_played_out_of_the_d_is_not_a_baulk_entry() -> None:
    c = _bar_clip((300.0, 381.0))
    c.shot("white-1", 0.0, 900.0)
    assert not [e for e in c.truth.events() if e.type is EventType.BAULK_ENTRY]


def test_the_striker_crosses_its_front_baseline_once() -> None:
    spec = load_table("carrom")
    rng = random.Random(5)
    w = World(spec, physics_for("carrom"), rng)
    w.add_object("striker", "striker", 370.0, 622.1)
    c = Clip(game="carroms", scenario="t", seed=0, fps=30.0, spec=spec, world=w, rng=rng, player_side="high-y")
    c.shot("striker", -math.pi / 2, 2500.0, kind="hand", seat="south")
    cross = [e for e in c.truth.events() if e.type is EventType.BASELINE_CROSS]
    assert [(e.objects, e.where) for e in cross] == [(("striker",), "baseline-south")]
    assert cross[0].data["position"][1] <= 606.2 + 1e-6


# -- every scenario's events agree with its states ----------------------------------------------

def _at(frame: FrameState, oid: str) -> ObjectState:
    return frame.by_id()[oid]


def _back(o: ObjectState, dt: float) -> tuple[float, float]:
    """Where ``o`` was ``dt`` seconds before this frame (after it, for negative ``dt``), on its velocity."""
    return (o.x - o.vx * dt, o.y - o.vy * dt)


def _cushion_gap(spec: TableSpec, where: str, p: tuple[float, float], r: float) -> float:
    """Gap between a ball at ``p`` and the cushion ``where`` as built: the nose line, ends rounded.

    The world builds each cushion as a segment of radius ``segment_radius`` set back behind the
    nose, so its surface is the nose and its two ends are round jaws.
    """
    rs = physics_for(spec.name).segment_radius
    cx, cy = spec.length_mm / 2, spec.width_mm / 2
    best = math.inf
    for c in spec.cushions:
        if c.id != where:
            continue
        (ax, ay), (bx, by) = c.a, c.b
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        nx, ny = -dy / length, dx / length
        if ((ax + bx) / 2 - cx) * nx + ((ay + by) / 2 - cy) * ny < 0:
            nx, ny = -nx, -ny
        ax, ay, bx, by = ax + nx * rs, ay + ny * rs, bx + nx * rs, by + ny * rs
        u = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(p[0] - ax - u * dx, p[1] - ay - u * dy) - rs - r)
    return best


def _busy(events: list[TableEvent], e: TableEvent, t_frame: float) -> bool:
    """Another contact or cushion of the same objects between the event and its frame."""
    return any(o is not e and o.type in (EventType.CONTACT, EventType.CUSHION) and e.t < o.t <= t_frame
               and set(o.objects) & set(e.objects) for o in events)


def _until_placed(r: SimResult, e: TableEvent, oid: str) -> range:
    """Frames from the event's until the object is next put back by hand."""
    later = [x.frame for x in r.events if x.type is EventType.PLACED and x.objects == (oid,) and x.t > e.t]
    end = (later[0] or len(r.frames)) if later else len(r.frames)
    return range(e.frame or 0, end)


@pytest.mark.parametrize("game,scenario,seed", CASES)
def test_every_event_agrees_with_the_states(game: str, scenario: str, seed: int) -> None:
    r = clip(game, scenario, seed)
    spec = load_table(r.table)
    events = list(r.events)
    for e in events:
        assert e.frame is not None
        f = r.frames[e.frame]
        dt = f.t - e.t
        assert -1e-6 <= dt < 1.0 / FPS + 1e-6, e
        if e.type is EventType.POT:
            oid = e.objects[0]
            for k in _until_placed(r, e, oid):
                o = _at(r.frames[k], oid)
                assert o.status is ObjectStatus.IN_HOLE and o.hole == e.where, (e, k)
        elif e.type is EventType.AT_REST:
            positions = {k: tuple(v) for k, v in e.data["positions"].items()}
            on = {o.id: o for o in f.objects if o.status in (ObjectStatus.ON_TABLE, ObjectStatus.FALLEN)}
            assert set(positions) == set(on)
            for oid, o in on.items():
                assert o.speed < 1.0 and o.z == 0.0
                assert positions[oid] == pytest.approx((o.x, o.y), abs=0.2)
        elif e.type is EventType.CUSHION and not _busy(events, e, f.t):
            gaps = []
            for g, lag in ((f, dt), (r.frames[e.frame - 1], dt - 1.0 / FPS)):
                o = _at(g, e.objects[0])
                if o.status is ObjectStatus.ON_TABLE:
                    gaps.append(_cushion_gap(spec, e.where or "", _back(o, lag), o.radius))
            assert not gaps or any(-1.0 <= gap <= 1.5 for gap in gaps), (e, gaps)
        elif e.type is EventType.CONTACT and not _busy(events, e, f.t):
            gaps = []
            for g, lag in ((f, dt), (r.frames[e.frame - 1], dt - 1.0 / FPS)):
                a, b = _at(g, e.objects[0]), _at(g, e.objects[1])
                if a.status is ObjectStatus.ON_TABLE and b.status is ObjectStatus.ON_TABLE:
                    gaps.append(math.dist(_back(a, lag), _back(b, lag)) - a.radius - b.radius)
            assert not gaps or any(-1.0 <= gap <= 1.5 for gap in gaps), (e, gaps)
        elif e.type is EventType.PIN_FALL:
            pin = e.objects[0]
            assert all(_at(x, pin).status is ObjectStatus.FALLEN for x in r.frames[e.frame:])
            assert e.data["colour"] == _at(f, pin).colour
        elif e.type is EventType.PIN_MOVED:
            o = _at(f, e.objects[0])
            assert o.status is ObjectStatus.ON_TABLE and (o.x, o.y) == pytest.approx(tuple(e.data["position"]), abs=0.2)
            home = next(p for p in spec.pins if p.id == o.id)
            assert math.hypot(o.x - home.x, o.y - home.y) >= 1.0
        elif e.type is EventType.OFF_TABLE:
            o = _at(f, e.objects[0])
            assert not spec.on_surface(o.x, o.y) or o.z > 0.0 or o.status is ObjectStatus.OFF_TABLE
            resolved = r.frames[frame_at_or_after(e.data["resolved_t"], FPS)]
            after = _at(resolved, e.objects[0])
            if e.data["returned"]:
                assert after.status is ObjectStatus.ON_TABLE and spec.on_surface(after.x, after.y)
            else:
                assert after.status is ObjectStatus.OFF_TABLE
        elif e.type is EventType.BAULK_ENTRY:
            o = _at(f, e.objects[0])
            assert o.x - o.radius - abs(o.vx) * dt <= (spec.baulk_x or 0.0) + 0.5
        elif e.type is EventType.BASELINE_CROSS:
            o = _at(f, "striker")
            front = next(b for b in spec.baselines if b.id == e.where).front
            assert o.y - o.vy * dt <= front[0][1] + 0.5
        elif e.type is EventType.SHOT_START:
            o = _at(f, e.objects[0])
            assert (o.x, o.y) == pytest.approx(tuple(e.data["position"]), abs=0.2) and o.speed > 0.0
            assert _at(r.frames[e.frame - 1], e.objects[0]).speed == 0.0
            assert f.cue is not None
        elif e.type in (EventType.PLACED, EventType.MOVED):
            o = _at(f, e.objects[0])
            assert o.status is ObjectStatus.ON_TABLE and (o.x, o.y) == pytest.approx(tuple(e.data["position"]), abs=0.2)
            if e.type is EventType.PLACED and e.frame > 0:
                assert _at(r.frames[e.frame - 1], e.objects[0]).status is not ObjectStatus.ON_TABLE
            assert any(h for h in f.hands) or any(h for h in r.frames[e.frame - 1].hands)
        elif e.type is EventType.REMOVED:
            assert all(_at(x, e.objects[0]).status is ObjectStatus.IN_HAND for x in r.frames[e.frame:])


@pytest.mark.parametrize("game,scenario,seed", CASES[::5])
def test_every_placed_ball_is_held_by_a_hand_on_the_way(game: str, scenario: str, seed: int) -> None:
    r = clip(game, scenario, seed)
    for e in r.events:
        if e.type is EventType.PLACED and e.frame:
            before = r.frames[e.frame - 1]
            assert any(h.holding == e.objects[0] for h in before.hands)
