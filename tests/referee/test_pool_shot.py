"""The shared pool predicates: what happened in one shot (first hit, pots in order, rails, off table,
moved) and the table facts (kitchen, blocked spots, spotting on the long string, the leading ball)."""

from __future__ import annotations

import pytest

from tableref.events import EventType
from tableref.referee import RefereeError
from tableref.referee.pool_shot import (
    Shot,
    balls_to_rail,
    by_ball,
    by_time,
    by_type,
    cue_ball,
    first_hit,
    first_to_rail,
    moved,
    off_table,
    pots,
    potted,
    rails_after_contact,
    rest_positions,
    start_position,
)
from tableref.referee.pool_table import TABLE_OPTIONS, PoolGeometry, ball_number, leading_ball
from tests.referee.test_pool_notation import racked, shot


def make(text: str, **kw: object) -> Shot:
    events = shot(text, **kw)  # type: ignore[arg-type]
    return Shot(start=events[0], events=tuple(events[1:-1]), rest=events[-1])


GEOMETRY = PoolGeometry.from_options(TABLE_OPTIONS)


def test_first_hit_is_the_struck_balls_first_contact_not_a_kiss_between_others() -> None:
    s = make("7; 3 -> 4; 7 -> 9; 7 -> 4")
    assert cue_ball(s) == "ball-7" and first_hit(s) == "ball-9"
    assert first_hit(make("0; rail 0")) is None


def test_pots_keep_their_order_and_pocket() -> None:
    s = make("0 -> 5; pot 5 top-right; pot 0 bottom-left")
    assert pots(s) == (("ball-5", "pocket-top-right"), ("ball-0", "pocket-bottom-left"))
    assert potted(s) == ("ball-5", "ball-0")


def test_off_table_counts_only_balls_that_stayed_off() -> None:
    assert off_table(make("0 -> 5; off 5; off 6 back")) == ("ball-5",)


def test_balls_to_rail_are_distinct_in_first_touch_order() -> None:
    s = make("0 -> 1; rail 0 2 left; rail 2 3")
    assert balls_to_rail(s) == ("ball-0", "ball-2", "ball-3") and first_to_rail(s) == "ball-0"


def test_rails_after_contact_ignores_cushions_before_the_first_hit() -> None:
    assert not rails_after_contact(make("0; rail 0; 0 -> 5"))
    assert rails_after_contact(make("0 -> 5; rail 5"))
    assert not rails_after_contact(make("0; rail 0"))


def test_moved_sees_events_and_displacements_the_camera_did_not_name() -> None:
    start = {"ball-4": [1000.0, 500.0], "ball-6": [1500.0, 500.0]}
    s = make("0 -> 5; 5 -> 4", positions=start, rest={"ball-4": [1010.0, 500.0], "ball-6": [1500.0, 520.0]})
    assert moved(s, "ball-4", 4.0) and moved(s, "ball-6", 4.0) and moved(s, "ball-0", 4.0)
    assert not moved(s, "ball-6", 30.0)


def test_filters_compose() -> None:
    s = make("0 -> 5; rail 5; 5 -> 6; rail 6; pot 6")
    cushions = by_type(s.events, EventType.CUSHION)
    assert [e.objects for e in cushions] == [("ball-5",), ("ball-6",)]
    assert len(by_ball(s.events, "ball-6")) == 3
    assert [e.type.value for e in by_time(s.events, after=s.events[2].t, before=s.events[3].t)] == ["contact", "cushion"]


def test_start_and_rest_positions_leave_out_balls_that_dropped() -> None:
    s = make("0 @ 300,600 -> 5; pot 5", positions={"ball-0": [1.0, 1.0]}, rest={"ball-5": [5.0, 5.0], "ball-0": [9.0, 9.0]})
    assert start_position(s, "ball-0") == (300.0, 600.0)
    assert rest_positions(s) == {"ball-0": (9.0, 9.0)}


def test_the_kitchen_is_behind_the_head_string_with_a_small_benefit_of_the_doubt() -> None:
    assert GEOMETRY.in_kitchen((635.0, 100.0)) and GEOMETRY.in_kitchen((639.0, 100.0))
    assert not GEOMETRY.in_kitchen((650.0, 100.0))


def test_a_spot_is_blocked_by_a_ball_that_would_touch_a_ball_placed_there() -> None:
    assert GEOMETRY.blocked((1270.0, 635.0), {"ball-3": (1300.0, 650.0)})
    assert not GEOMETRY.blocked((1270.0, 635.0), {"ball-3": (1330.0, 635.0)})


def test_spotting_goes_behind_the_spot_along_the_long_string_when_it_is_taken() -> None:
    point, on_spot = GEOMETRY.place_on_string("foot", {"ball-3": (1905.0, 635.0)}, toward=+1)
    assert not on_spot and point[1] == 635.0 and point[0] >= 1905.0 + 2 * 28.575 - 0.5
    assert GEOMETRY.place_on_string("foot", {}, toward=+1) == ((1905.0, 635.0), True)


def test_the_leading_ball_is_the_rack_ball_nearest_the_kitchen() -> None:
    assert leading_ball(racked([12, *[b for b in range(1, 16) if b != 12]]), exclude="ball-0") == "ball-12"
    assert leading_ball({}, exclude="ball-0") is None


def test_ball_ids_are_ball_0_to_ball_15() -> None:
    assert ball_number("ball-15") == 15
    for bad in ("ball-16", "white", "ball-x"):
        with pytest.raises(RefereeError, match="ball-0"):
            ball_number(bad)


def test_geometry_options_are_checked() -> None:
    with pytest.raises(ValueError, match="head_spot_mm"):
        PoolGeometry.from_options({**TABLE_OPTIONS, "head_spot_mm": "middle"})
    with pytest.raises(ValueError, match="pockets"):
        PoolGeometry.from_options({**TABLE_OPTIONS, "pockets": "pocket-top-left"})
