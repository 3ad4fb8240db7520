"""A reading whose mass of change runs on away from a ball's rest is the cue that struck it."""

from __future__ import annotations

import math
from collections.abc import Callable

from tableref.vision.cue_end import CUE_REACH, cue_beyond

R = 28.5  # a pool ball's radius, mm


def cue_along(x0: float, y0: float, x1: float, y1: float,
              half_width: float = 6.5) -> Callable[[float, float, float], bool]:
    """``covered`` for a cue lying from (x0, y0) to (x1, y1): a probe is covered when its centre
    lies on the cue (within its half width of the segment)."""

    def covered(x: float, y: float, r: float) -> bool:
        dx, dy = x1 - x0, y1 - y0
        t = max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)))
        return math.hypot(x - (x0 + t * dx), y - (y0 + t * dy)) <= half_width

    return covered


def test_the_ferrule_behind_a_struck_ball_is_the_cue() -> None:
    """Up and down seed 4502 (ball off the table): the cue ball rested at (718, 604) and was struck
    towards the top cushion; the ferrule read 64 mm behind its rest, the cue running on 600 mm
    from there towards the player."""
    cue = cue_along(720, 668, 740, 1268)
    assert cue_beyond(718, 604, 721, 668, R, cue)
    # the ball's faint smear ahead, 64 mm the other way: nothing lies beyond it
    assert not cue_beyond(718, 604, 715, 540, R, cue)


def test_a_reading_on_the_rest_or_a_short_mass_is_not_the_cue() -> None:
    cue = cue_along(720, 668, 740, 1268)
    # within a radius of the rest: the ball itself, still there
    assert not cue_beyond(718, 604, 719, 620, R, cue)
    # a hand's knuckle beside a ball: the mass stops within the first reach
    hand = cue_along(718, 668, 718, 668 + (CUE_REACH[0] - 0.5) * R)
    assert not cue_beyond(718, 604, 718, 668, R, hand)
    # no reach asked: never
    assert not cue_beyond(718, 604, 721, 668, R, cue, reach=())


def test_a_cue_not_pointing_exactly_through_the_reading_is_still_found() -> None:
    """The reading of the ferrule is a few millimetres off the cue's axis: the line from the rest
    through it strays from the cue as it goes; probes a third of a radius to each side find it."""
    tilted = cue_along(726, 668, 726 + 600 * math.sin(math.radians(2.0)), 668 + 600)
    assert cue_beyond(718, 604, 721, 668, R, tilted)
    assert not cue_beyond(718, 604, 721, 668, R, cue_along(760, 668, 780, 1268))  # a cue 40 mm aside
