"""The table physics on its own: friction, restitution, holes, pins, flight, tunnelling.

Worlds are stepped the way a clip steps them: each video frame cut into equal steps, as many as
the world asks for.
"""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

from tableref.calibration.spec import load_table
from tableref.simulator.physics import RawEvent, World
from tableref.simulator.physics_params import ROLL_FRACTION, physics_for, speed_for_distance, travel_distance
from tableref.simulator.state import ObjectStatus

FPS = 60.0


def world(table: str, **kw: object) -> World:
    return World(load_table(table), physics_for(table), random.Random(7), **kw)


def run(w: World, seconds: float) -> list[RawEvent]:
    """Step ``w`` frame by frame for ``seconds`` (or until everything rests); return its raw events."""
    out: list[RawEvent] = []
    end = w.t + seconds
    while w.t < end - 1e-9 and not w.at_rest():
        span = 1.0 / FPS
        n = w.substeps(span)
        for _ in range(n):
            out.extend(w.step(span / n))
    return out


def until(w: World, kind: str, oid: str, seconds: float = 5.0) -> float:
    """Step frame by frame until a raw event of ``kind`` happens; ``oid``'s speed in the frame before."""
    before = speed(w, oid)
    for _ in range(int(seconds * FPS)):
        if any(e.kind == kind for e in run(w, 1.0 / FPS)):
            return before
        before = speed(w, oid)
    raise AssertionError(f"no {kind} within {seconds} s")


def speed(w: World, oid: str) -> float:
    o = w.objects[oid]
    return math.hypot(o.vx, o.vy)


# -- cloth friction -----------------------------------------------------------------------------

@pytest.mark.parametrize("v0", (400.0, 800.0, 1200.0))
def test_a_struck_ball_rolls_as_far_as_the_planner_says(v0: float) -> None:
    w = world("pool")
    w.add_object("ball-0", "ball", 200.0, 635.0)
    w.strike("ball-0", v0, 0.0)
    run(w, 30.0)
    assert w.at_rest()
    travelled = w.position("ball-0")[0] - 200.0
    assert travelled == pytest.approx(travel_distance(physics_for("pool").kind("ball"), v0), rel=0.01)


def test_a_struck_ball_skids_first_then_rolls_more_slowly_to_rest() -> None:
    w = world("pool")
    w.add_object("ball-0", "ball", 200.0, 635.0)
    w.strike("ball-0", 2000.0, 0.0)
    speeds = []
    for _ in range(90):
        run(w, 1.0 / FPS)
        speeds.append(speed(w, "ball-0"))
    drops = [a - b for a, b in zip(speeds, speeds[1:], strict=False)]
    skid = [d for s, d in zip(speeds, drops, strict=False) if s > 2000.0 * ROLL_FRACTION + 50.0]
    roll = [d for s, d in zip(speeds, drops, strict=False) if s < 2000.0 * ROLL_FRACTION - 50.0]
    assert skid and roll and min(skid) > 3.0 * max(roll) > 0.0


def test_carrom_pieces_and_striker_have_their_own_masses_and_friction() -> None:
    ph = physics_for("carrom")
    assert ph.kind("striker").mass > 2.0 * ph.kind("white").mass
    assert ph.kind("white").slides_only and ph.kind("striker").slides_only
    w = world("carrom")
    w.add_object("white-1", "white", 370.0, 300.0)
    w.add_object("striker", "striker", 370.0, 500.0)
    w.strike("striker", 0.0, -1500.0)
    before = until(w, "contact", "striker")
    run(w, 1.0 / FPS)
    e = ph.kind("striker").elasticity * ph.kind("white").elasticity
    m1, m2 = ph.kind("striker").mass, ph.kind("white").mass
    assert speed(w, "white-1") == pytest.approx(before * (1 + e) * m1 / (m1 + m2), rel=0.06)
    assert w.objects["striker"].vy < 0.0, "the heavier striker follows through"


# -- restitution --------------------------------------------------------------------------------

def test_ball_on_ball_and_ball_on_cushion_restitution() -> None:
    ph = physics_for("pool")
    e_ball = ph.kind("ball").elasticity ** 2
    e_cushion = ph.kind("ball").elasticity * ph.cushion_elasticity
    assert 0.93 <= e_ball <= 0.96 and 0.75 <= e_cushion <= 0.85
    w = world("pool")
    w.add_object("ball-0", "ball", 1700.0, 635.0)
    w.add_object("ball-1", "ball", 2000.0, 635.0)
    w.strike("ball-0", 1500.0, 0.0)
    v_in = until(w, "contact", "ball-0")
    assert speed(w, "ball-1") == pytest.approx(v_in * (1 + e_ball) / 2, rel=0.04)
    assert speed(w, "ball-0") < 0.05 * v_in
    into = until(w, "cushion", "ball-1")
    assert w.objects["ball-1"].vx < 0.0
    assert speed(w, "ball-1") == pytest.approx(into * e_cushion, rel=0.05)


# -- no tunnelling ------------------------------------------------------------------------------

@pytest.mark.parametrize("table,kind", (("pool", "ball"), ("bar-billiards", "white"), ("carrom", "striker")))
@pytest.mark.parametrize("angle_deg", (0.0, 90.0, 180.0, 270.0, 35.0, 125.0, 215.0, 305.0))
def test_nothing_passes_through_a_cushion_at_the_hardest_stroke(table: str, kind: str, angle_deg: float) -> None:
    spec = load_table(table)
    grounded = dataclasses.replace(physics_for(table), ride_up_speed=math.inf)  # never climbs the nose
    w = World(spec, grounded, random.Random(3), pins=False)
    w.add_object("x", kind, spec.length_mm / 2 + 1.0, spec.width_mm / 2 + 1.0)
    a = math.radians(angle_deg)
    v = grounded.max_shot_speed
    w.strike("x", v * math.cos(a), v * math.sin(a))
    r = spec.object_radius[kind]
    bounces = 0
    for _ in range(int(2.0 * FPS)):
        bounces += sum(e.kind == "cushion" for e in run(w, 1.0 / FPS))
        if w.status("x") is not ObjectStatus.ON_TABLE:
            assert w.status("x") is ObjectStatus.IN_HOLE  # a pocket may take it, nothing else
            break
        x, y = w.position("x")
        assert r - 1.0 <= x <= spec.length_mm - r + 1.0 and r - 1.0 <= y <= spec.width_mm - r + 1.0
    assert bounces >= 1


def test_a_hard_run_into_a_cushion_can_climb_it_and_leave_the_table() -> None:
    w = world("pool")
    w.add_object("ball-1", "ball", 800.0, 200.0)
    w.strike("ball-1", 0.0, -11500.0)
    events = run(w, 3.0)
    assert [e.kind for e in events if e.kind in ("left_surface", "fell_off")] == ["left_surface", "fell_off"]
    assert w.status("ball-1") is ObjectStatus.OFF_TABLE


def test_a_jump_stroke_flies_over_a_near_rail() -> None:
    w = world("pool")
    w.add_object("ball-0", "ball", 1600.0, 1150.0)
    w.strike("ball-0", 0.0, 3000.0, vz=1600.0)
    run(w, 3.0)
    assert w.status("ball-0") is ObjectStatus.OFF_TABLE


# -- holes and pockets --------------------------------------------------------------------------

def _roll_over_hole_30(v_at_hole: float) -> tuple[World, list[RawEvent]]:
    w = world("bar-billiards")
    kind = physics_for("bar-billiards").kind("white")
    start = 1700.0
    w.add_object("white-1", "white", start, 381.0)
    w.strike("white-1", speed_for_distance(kind, 1950.0 - 28.0 - start, v_at_hole), 0.0)
    return w, run(w, 10.0)


def test_a_slow_ball_drops_into_a_hole() -> None:
    w, events = _roll_over_hole_30(400.0)
    assert [(e.kind, e.where) for e in events if e.kind == "pot"] == [("pot", "hole-30")]
    assert w.status("white-1") is ObjectStatus.IN_HOLE and w.objects["white-1"].hole == "hole-30"


def test_a_fast_ball_rattles_over_the_lip() -> None:
    w, events = _roll_over_hole_30(2500.0)
    assert any(e.kind == "rattle" and e.where == "hole-30" for e in events)
    assert not any(e.kind == "pot" and e.where == "hole-30" for e in events)


def test_a_pocket_takes_a_ball_sent_into_it() -> None:
    w = world("pool")
    w.add_object("ball-3", "ball", 400.0, 400.0)
    w.strike("ball-3", -1500.0, -1500.0)
    events = run(w, 5.0)
    assert [e.where for e in events if e.kind == "pot"] == ["pocket-top-left"]


def test_a_disabled_hole_takes_nothing() -> None:
    w = world("bar-billiards", disabled_holes=("hole-30",))
    w.add_object("white-1", "white", 1800.0, 381.0)
    w.strike("white-1", 400.0, 0.0)
    events = run(w, 10.0)
    assert not any(e.kind == "pot" for e in events)
    with pytest.raises(KeyError, match="no holes"):
        world("bar-billiards", disabled_holes=("hole-999",))


# -- pins ---------------------------------------------------------------------------------------

def _hit_pin(v_at_pin: float) -> tuple[World, list[RawEvent]]:
    """A white rolled straight at the 50 pin on the left, meeting it at ``v_at_pin`` mm/s."""
    w = world("bar-billiards")
    kind = physics_for("bar-billiards").kind("white")
    w.add_object("white-1", "white", 1300.0, 171.0)
    w.strike("white-1", speed_for_distance(kind, 1572.0 - 34.0 - 1300.0, v_at_pin), 0.0)
    return w, run(w, 8.0)


def test_a_hard_hit_topples_a_pin_away_from_the_ball() -> None:
    w, events = _hit_pin(800.0)
    fall = [e for e in events if e.kind == "topple"]
    assert [e.objects for e in fall] == [("pin-50-left",)] and fall[0].data["colour"] == "white"
    pin = w.objects["pin-50-left"]
    assert pin.status is ObjectStatus.FALLEN and abs(pin.angle) < 10.0 and pin.x > 1572.0


def test_a_soft_hit_slides_a_pin_that_stays_standing() -> None:
    w, events = _hit_pin(150.0)
    moved = [e for e in events if e.kind == "pin_moved"]
    pin = w.objects["pin-50-left"]
    assert not any(e.kind == "topple" for e in events) and pin.status is ObjectStatus.ON_TABLE
    assert len(moved) == 1 and tuple(moved[0].data["position"]) == pytest.approx((pin.x, pin.y), abs=0.1)
    assert 1.0 <= pin.x - 1572.0 <= 15.0


def test_a_touch_only_wobbles_a_pin() -> None:
    w, events = _hit_pin(50.0)
    assert any(e.kind == "contact" for e in events)
    assert not any(e.kind in ("topple", "pin_moved") for e in events)
    x, y = w.position("pin-50-left")
    rule = physics_for("bar-billiards").pin
    assert rule is not None and math.hypot(x - 1572.0, y - 171.0) < rule.moved_mm


# -- the world's own contract -------------------------------------------------------------------

def test_world_refuses_what_cannot_happen() -> None:
    w = world("pool")
    w.add_object("ball-0", "ball", 500.0, 500.0)
    with pytest.raises(ValueError, match="already"):
        w.add_object("ball-0", "ball", 600.0, 500.0)
    with pytest.raises(ValueError, match="harder"):
        w.strike("ball-0", 20000.0, 0.0)
    w.take("ball-0")
    with pytest.raises(ValueError, match="in_hand"):
        w.strike("ball-0", 100.0, 0.0)
    with pytest.raises(KeyError, match="known"):
        w.add_object("x", "puck", 1.0, 1.0)


def test_objects_at_rest_cost_no_steps() -> None:
    w = world("pool")
    w.add_object("ball-0", "ball", 500.0, 500.0)
    assert w.at_rest() and w.moving_ids() == ()
    w.strike("ball-0", 300.0, 0.0)
    assert w.moving_ids() == ("ball-0",)
    run(w, 10.0)
    assert w.at_rest()
