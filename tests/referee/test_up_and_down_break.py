"""Up and Down, The Break and Fouls (1): the zero ball from the kitchen onto the leading ball, a pot or
four balls to the rails, re-racks and re-breaks."""

from __future__ import annotations

from tableref.referee import UpdateKind
from tests.referee.test_pool_notation import (
    BREAK_FROM,
    break_shot,
    codes,
    fouls,
    open_table,
    points,
    racked,
    up_and_down,
)


def test_the_break_four_balls_to_the_rails_is_legal_and_the_inning_ends() -> None:
    play = up_and_down()
    out = break_shot(play, "rail 2 3 4 5")
    assert fouls(out) == [] and points(out) == 0
    assert play.core["turn"] == "Bob" and play.core["phase"] == "play"
    assert "open_table" in codes(out, UpdateKind.PHASE)


def test_the_break_a_pot_is_enough_and_the_breaker_shoots_again_without_points() -> None:
    play = up_and_down()
    out = break_shot(play, "1 -> 6; pot 6 bottom-right")
    assert fouls(out) == [] and points(out) == 0 and play.scores() == {"Ann": 0, "Bob": 0}
    assert play.core["turn"] == "Ann"
    assert 6 not in play.core["on_table"]


def test_fouls_1_fewer_than_four_balls_to_the_rails_and_no_pot_costs_a_point_and_the_opponent_rebreaks() -> None:
    play = up_and_down()
    out = break_shot(play, "rail 2 3 4")
    assert fouls(out) == ["break_too_few_rails"]
    assert play.scores() == {"Ann": -1, "Bob": 0}
    assert play.core["phase"] == "break" and play.core["turn"] == "Bob" and play.core["breaker"] == "Bob"
    assert "rerack" in codes(out, UpdateKind.INSTRUCTION)
    assert "zero_ball_in_kitchen" in codes(out, UpdateKind.INSTRUCTION)


def test_fouls_1_the_zero_ball_counts_toward_four_when_it_is_not_first_to_a_rail() -> None:
    play = up_and_down()
    out = break_shot(play, "rail 2 3 0 4")
    assert fouls(out) == [] and play.core["phase"] == "play"


def test_fouls_1_the_zero_ball_first_to_a_rail_does_not_count() -> None:
    play = up_and_down()
    out = break_shot(play, "rail 0 2 3 4")
    assert fouls(out) == ["break_too_few_rails"] and play.scores()["Ann"] == -1


def test_fouls_1_venue_option_the_zero_ball_first_to_a_rail_is_a_foul_outright() -> None:
    play = up_and_down(cue_first_rail="foul")
    out = break_shot(play, "rail 0 2 3 4 5")
    assert fouls(out) == ["break_cue_ball_first_rail"] and play.core["turn"] == "Bob"


def test_the_break_must_strike_the_leading_ball() -> None:
    play = up_and_down()
    out = play.shot(f"{BREAK_FROM} -> 7; rail 2 3 4 5", positions=racked())
    assert fouls(out) == ["break_missed_leading_ball"] and play.core["phase"] == "break"


def test_the_break_the_leading_ball_is_the_apex_whatever_its_number() -> None:
    play = up_and_down()
    order = [9, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15]
    out = play.shot(f"{BREAK_FROM} -> 9; rail 2 3 4 5", positions=racked(order))
    assert fouls(out) == []


def test_the_break_is_shot_from_the_kitchen() -> None:
    play = up_and_down()
    out = play.shot("0 @ 700,635 -> 1; rail 2 3 4 5", positions=racked(cue=(700.0, 635.0)))
    assert fouls(out) == ["break_not_from_kitchen"] and play.core["turn"] == "Bob"


def test_the_break_uses_the_zero_ball() -> None:
    play = up_and_down()
    out = play.shot("15 -> 1; rail 2 3 4 5", positions=racked())
    assert fouls(out)[0] == "break_wrong_cue_ball" and play.core["phase"] == "break"


def test_the_break_re_breaks_alternate_and_each_failure_costs_a_point() -> None:
    play = up_and_down()
    break_shot(play, "rail 2")
    break_shot(play, "rail 3")
    assert play.scores() == {"Ann": -1, "Bob": -1} and play.core["turn"] == "Ann"
    break_shot(play, "rail 2 3 4 5")
    assert play.core["phase"] == "play" and play.core["turn"] == "Bob"


def test_the_break_an_undisturbed_rack_is_left_as_it_is() -> None:
    play = up_and_down()
    out = play.shot(f"{BREAK_FROM}", positions=racked())
    assert "break_missed_leading_ball" in fouls(out)
    assert "rack_undisturbed" in codes(out, UpdateKind.INSTRUCTION)


def test_the_break_a_failed_break_reracks_every_ball_even_a_jumped_one() -> None:
    play = up_and_down()
    out = break_shot(play, "off 2")
    assert fouls(out) == ["break_too_few_rails", "ball_off_table"]
    assert points(out) == -1, "one penalty per shot (General Rules)"
    assert sorted(play.core["on_table"]) == list(range(16))


def test_the_break_pocketing_the_zero_ball_is_a_scratch_but_the_rack_stays() -> None:
    play = up_and_down()
    out = break_shot(play, "rail 2 3 4 5; pot 0 top-right; pot 7 bottom-left")
    assert fouls(out) == ["break_scratch"] and play.scores()["Ann"] == -1
    assert play.core["phase"] == "play" and play.core["turn"] == "Bob"
    assert 0 not in play.core["on_table"] and 7 not in play.core["on_table"]


def test_the_break_the_table_is_always_open_after_it() -> None:
    play = open_table()
    assert play.core["directions"] == {}


def test_the_break_is_never_called() -> None:
    import pytest

    from tableref.referee import RefereeError

    play = up_and_down()
    with pytest.raises(RefereeError, match="break is not called"):
        play.input("called_shot", ball="ball-1")
