"""Colors: Break, Illegal balls, Scratch, Fouls, the cue ball as it lies or in hand, and the referee's
corrections."""

from __future__ import annotations

import pytest

from tableref.events import EventType, TableEvent
from tableref.referee import RefereeError, UpdateKind
from tests.referee.test_colors_scoring import BREAK, after_break, instructions
from tests.referee.test_pool_notation import COLORS_RACK, Play, codes, colors, fouls, points


def owing_the_black() -> Play:
    """Bob pots the 3, misses the 11; Ann pots the 11 (a point ball) and must follow with the black."""
    play = after_break()
    play.shot("0 -> 3; pot 3")
    play.shot("0 -> 5; rail 5")
    play.shot("0 -> 11; pot 11")
    assert play.core["pending"] == [11] and play.core["turn"] == "Ann"
    return play


def test_break_all_coloured_balls_pocketed_accrue_to_the_breaker_and_the_black_returns() -> None:
    play = colors()
    out = play.shot(f"{BREAK}; 8 -> 2; pot 2; pot 10 bottom-right; pot 4; pot 8 top-right", positions=COLORS_RACK)
    assert fouls(out) == [] and play.scores() == {"Ann": 1, "Bob": 0}
    assert play.core["turn"] == "Ann" and play.core["window"] == [4]
    assert 8 in play.core["on_table"] and ("spot_black", "ball-8") in instructions(out)


def test_break_only_the_black_down_passes_the_turn() -> None:
    play = colors()
    out = play.shot(f"{BREAK}; pot 8", positions=COLORS_RACK)
    assert fouls(out) == [] and play.core["turn"] == "Bob" and 8 in play.core["on_table"]


def test_break_only_one_companion_spots_when_two_of_a_colour_drop_with_a_scratch() -> None:
    play = colors()
    out = play.shot(f"{BREAK}; 8 -> 2; pot 2; pot 10 bottom-right; pot 5; pot 0 top-right", positions=COLORS_RACK)
    assert fouls(out) == ["scratch"] and points(out) == 0
    assert [b for c, b in instructions(out) if c == "spot_point_ball"] == ["ball-10"]
    assert 2 not in play.core["on_table"] and 5 not in play.core["on_table"] and 10 in play.core["on_table"]
    assert play.core["turn"] == "Bob" and play.core["in_hand"] == "anywhere"
    assert ("cue_ball_in_hand", "") in instructions(out)


def test_break_is_from_behind_the_head_string() -> None:
    play = colors()
    out = play.shot("0 @ 900,635 -> 8; rail 1 2 3", positions=COLORS_RACK)
    assert fouls(out) == ["break_not_from_kitchen"] and play.core["turn"] == "Bob"


def test_illegal_balls_the_black_before_any_point_ball_is_loss_of_turn_and_the_cue_ball_stays_as_it_lies() -> None:
    play = after_break()
    out = play.shot("0 -> 8; pot 8")
    assert fouls(out) == ["black_without_point"] and out[0].data["penalty"].endswith("as it lies")
    assert play.core["turn"] == "Ann" and play.core["in_hand"] == ""
    assert ("cue_ball_as_it_lies", "") in instructions(out) and ("spot_black", "ball-8") in instructions(out)


def test_incidental_balls_an_incidental_black_with_a_neutral_ball_is_loss_of_turn() -> None:
    play = after_break()
    out = play.shot("0 -> 8; 8 -> 3; pot 8; pot 3")
    assert "black_without_point" in fouls(out) and play.core["turn"] == "Ann"
    assert 3 not in play.core["on_table"], "the first ball of a colour stays down"


def test_illegal_balls_a_neutral_ball_before_the_black_is_illegal_and_the_point_ball_spots() -> None:
    play = owing_the_black()
    out = play.shot("0 -> 6; pot 6")
    assert fouls(out) == ["neutral_before_black"] and points(out) == 0
    assert play.core["turn"] == "Bob" and 6 not in play.core["on_table"] and 11 in play.core["on_table"]
    assert ("spot_point_ball", "ball-11") in instructions(out)


def test_illegal_balls_two_neutral_balls_in_two_consecutive_shots() -> None:
    play = after_break()
    play.shot("0 -> 3; pot 3")
    out = play.shot("0 -> 5; pot 5")
    assert fouls(out) == ["two_neutrals_running"] and play.core["turn"] == "Ann"
    assert 5 not in play.core["on_table"] and play.core["window"] == []


def test_illegal_balls_a_colour_potted_while_the_black_is_off_the_table() -> None:
    play = owing_the_black()
    out = play.shot("0 -> 8; 8 -> 5; pot 8; pot 5")
    assert points(out) == 1, "the black followed the point ball: that point stands"
    assert fouls(out) == ["colour_without_black"] and play.core["turn"] == "Bob"


def test_illegal_balls_a_point_ball_dropping_after_the_black_does_not_score() -> None:
    play = after_break()
    play.shot("0 -> 3; pot 3")
    play.shot("0 -> 5; rail 5")
    out = play.shot("0 -> 8; 8 -> 11; pot 8; pot 11")
    assert fouls(out) == ["black_without_point"] and points(out) == 0
    assert ("spot_point_ball", "ball-11") in instructions(out)


def test_illegal_balls_venue_option_judges_the_black_after_every_colour_of_its_shot() -> None:
    play = after_break(colour_after_black="allowed")
    play.shot("0 -> 3; pot 3")
    play.shot("0 -> 5; rail 5")
    out = play.shot("0 -> 8; 8 -> 11; pot 8; pot 11")
    assert fouls(out) == [] and points(out) == 1


def test_scratch_on_the_point_attempt_awards_nothing_and_the_point_ball_spots() -> None:
    play = owing_the_black()
    out = play.shot("0 -> 8; pot 8; pot 0 bottom-left")
    assert fouls(out) == ["scratch"] and points(out) == 0
    assert ("spot_point_ball", "ball-11") in instructions(out) and ("spot_black", "ball-8") in instructions(out)
    assert play.core["turn"] == "Bob" and play.core["in_hand"] == "anywhere"


def test_scratch_the_black_keeps_its_place_when_it_was_missed() -> None:
    play = owing_the_black()
    out = play.shot("0 -> 8; rail 8; pot 0 bottom-left")
    assert fouls(out) == ["scratch"] and ("spot_black", "ball-8") not in instructions(out)


def test_scratch_cue_ball_in_hand_anywhere_and_a_shot_places_it() -> None:
    play = owing_the_black()
    play.shot("0 -> 8; rail 8; pot 0 bottom-left")
    assert 0 not in play.core["on_table"]
    out = play.shot("0 @ 1500,300 -> 6; pot 6")
    assert fouls(out) == [] and 0 in play.core["on_table"]


def test_fouls_after_contact_a_ball_must_be_pocketed_or_hit_a_rail() -> None:
    play = after_break()
    out = play.shot("0 -> 5")
    assert fouls(out) == ["no_rail_after_contact"] and play.core["in_hand"] == "anywhere"
    assert play.core["turn"] == "Ann" and ("cue_ball_in_hand", "") in instructions(out)


def test_fouls_a_rail_before_the_contact_does_not_count() -> None:
    play = after_break()
    out = play.shot("0; rail 0; 0 -> 5")
    assert fouls(out) == ["no_rail_after_contact"]


def test_fouls_a_cue_ball_that_hits_nothing() -> None:
    play = after_break()
    out = play.shot("0; rail 0 left")
    assert fouls(out) == ["no_contact"]


def test_fouls_an_object_ball_off_the_table_is_a_foul_and_it_spots() -> None:
    play = after_break()
    out = play.shot("0 -> 5; rail 5; off 5")
    assert fouls(out) == ["object_ball_off_table"] and 5 in play.core["on_table"]
    assert ("spot_point_ball", "ball-5") in instructions(out)


def test_fouls_striking_another_ball_than_the_cue_ball() -> None:
    play = after_break()
    out = play.shot("5 -> 6; rail 6")
    assert fouls(out) == ["wrong_cue_ball"]


def test_illegal_balls_the_incoming_player_must_accept_the_cue_ball_position() -> None:
    play = after_break()
    play.shot("0 -> 8; pot 8")
    out = play.apply(TableEvent(t=play.t, type=EventType.MOVED, objects=("ball-0",), data={"position": [600.0, 600.0]}))
    assert codes(out, UpdateKind.INFO) == ["cue_ball_handled"]
    out = play.input("add_foul", code="general_rules")
    assert fouls(out) == ["general_rules"]


def test_no_called_balls_there_is_no_called_shot_input() -> None:
    play = after_break()
    with pytest.raises(RefereeError, match="accepted: players, break_winner, add_foul, overrule"):
        play.input("called_shot", ball="ball-3")


def test_overrule_cancels_a_foul_and_the_point_is_scored() -> None:
    play = owing_the_black()
    out = play.shot("0 -> 8; pot 8; pot 0 bottom-left")
    assert points(out) == 0
    out = play.input("overrule", foul=False)
    assert play.scores()["Ann"] == 1 and play.core["turn"] == "Ann"
    assert sum(u.points or 0 for u in play.updates if u.kind is UpdateKind.SCORE) == 1


def test_a_late_drop_of_the_black_completes_the_point() -> None:
    play = owing_the_black()
    out = play.shot("0 -> 8; rail 8; rest; late pot 8 top-right")
    assert points(out) == 1 and play.scores()["Ann"] == 1


def test_overrule_giving_the_table_to_the_other_player_spots_the_point_ball_waiting_for_the_black() -> None:
    play = owing_the_black()
    out = play.input("overrule", turn="Bob")
    assert ("spot_point_ball", "ball-11") in instructions(out)
    assert play.core["pending"] == [] and 11 in play.core["on_table"] and play.core["turn"] == "Bob"
