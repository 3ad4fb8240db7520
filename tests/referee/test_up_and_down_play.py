"""Up and Down after the break: Object, Scoring, Fouls (2)-(4), Legal Shot, Combination Shots, Pocketing
Multiple Balls, no spotting."""

from __future__ import annotations

import pytest

from tableref.referee import RefereeError, UpdateKind
from tableref.referee.pool_updown import Direction, expected_calls, next_ball
from tests.referee.test_pool_notation import call, codes, fouls, make, open_table, points


def test_object_the_first_player_to_make_a_called_shot_fixes_both_directions() -> None:
    play = open_table()
    make(play, 7, 6)
    assert play.core["directions"] == {"Bob": "down", "Ann": "up"}
    assert play.scores() == {"Ann": 0, "Bob": 1}


def test_object_a_missed_call_leaves_the_table_open() -> None:
    play = open_table()
    out = call(play, 8, cue=7) + play.shot("7 -> 8; rail 8")
    assert play.core["directions"] == {} and play.core["turn"] == "Ann"
    assert fouls(out) == [] and points(out) == 0


def test_object_on_an_open_table_either_neighbour_may_be_called_but_nothing_else() -> None:
    play = open_table()
    call(play, 6, cue=7)
    call(play, 8, cue=7)
    with pytest.raises(RefereeError, match="next consecutive"):
        call(play, 9, cue=7)


def test_legal_shot_the_player_keeps_shooting_and_picks_a_new_cue_ball_each_turn() -> None:
    play = open_table()
    make(play, 0, 1)
    make(play, 5, 6)
    out = make(play, 14, 15)
    assert play.scores()["Bob"] == 3 and play.core["turn"] == "Bob"
    assert "again" in codes(out, UpdateKind.INFO)


def test_legal_shot_only_the_next_consecutive_ball_may_be_called_once_the_direction_is_fixed() -> None:
    play = open_table()
    make(play, 0, 1)  # Bob shoots up
    with pytest.raises(RefereeError, match="going up from ball-5: ball-6"):
        call(play, 4, cue=5)


def test_legal_shot_the_numbering_wraps_going_up_from_the_15_to_the_lowest_ball() -> None:
    play = open_table()
    make(play, 14, 15)  # Bob up; 15 is gone
    make(play, 13, 14)
    out = make(play, 13, 0)  # from the 13 going up: 14 and 15 are gone, so the zero ball is next
    assert "pocketed_as_called" in codes(out, UpdateKind.SCORE)
    assert next_ball(15, Direction.UP, {3, 9, 15}) == 3


def test_legal_shot_the_numbering_wraps_going_down_from_the_zero_ball_to_the_highest() -> None:
    play = open_table()
    out = make(play, 0, 15)
    assert play.core["directions"]["Bob"] == "down" and fouls(out) == []
    assert next_ball(0, Direction.DOWN, {0, 4, 11}) == 11


def test_legal_shot_any_ball_may_be_the_cue_ball() -> None:
    play = open_table()
    out = make(play, 11, 12)
    assert fouls(out) == [] and play.scores()["Bob"] == 1


def test_combination_shots_are_allowed_when_the_next_ball_drops() -> None:
    play = open_table()
    out = call(play, 4, cue=3) + play.shot("3 -> 10; 10 -> 4; pot 4")
    assert fouls(out) == [] and points(out) == 1


def test_fouls_4_the_next_ball_not_moved_costs_a_point_and_the_turn() -> None:
    play = open_table()
    out = call(play, 4, cue=3) + play.shot("3 -> 10; rail 3 10")
    assert fouls(out) == ["next_ball_not_moved"]
    assert play.scores() == {"Ann": 0, "Bob": -1} and play.core["turn"] == "Ann"


def test_fouls_4_the_next_ball_moved_by_a_kiss_is_enough() -> None:
    play = open_table()
    out = call(play, 4, cue=3) + play.shot("3 -> 10; 10 -> 4; rail 4")
    assert fouls(out) == [] and points(out) == 0 and play.core["turn"] == "Ann"


def test_fouls_3_an_uncalled_ball_potted_is_a_foul_and_the_called_ball_does_not_count() -> None:
    play = open_table()
    out = call(play, 4, cue=3) + play.shot("3 -> 4; 4 -> 9; pot 4; pot 9 bottom-right")
    assert fouls(out) == ["uncalled_ball_potted"]
    assert play.scores()["Bob"] == -1 and play.core["turn"] == "Ann"
    assert 9 not in play.core["on_table"] and 4 not in play.core["on_table"], "balls are never spotted"


def test_fouls_3_the_cue_ball_dropping_uncalled_is_a_scratch() -> None:
    play = open_table()
    out = call(play, 4, cue=3) + play.shot("3 -> 4; pot 4; pot 3 top-right")
    assert fouls(out) == ["uncalled_ball_potted"] and points(out) == -1


def test_fouls_3_with_no_call_on_an_open_table_any_pot_is_uncalled() -> None:
    play = open_table()
    out = play.shot("3 -> 4; pot 4")
    assert fouls(out) == ["uncalled_ball_potted"]


def test_fouls_2_a_ball_leaving_the_table_is_a_foul_and_is_never_spotted() -> None:
    play = open_table()
    out = call(play, 4, cue=3) + play.shot("3 -> 4; rail 4; off 4")
    assert fouls(out) == ["ball_off_table"] and play.scores()["Bob"] == -1
    assert 4 not in play.core["on_table"]
    assert "never_spotted" in codes(out, UpdateKind.INSTRUCTION)


def test_fouls_2_a_ball_that_comes_back_by_itself_did_not_leave_the_table() -> None:
    play = open_table()
    out = call(play, 4, cue=3) + play.shot("3 -> 4; off 4 back; rail 4")
    assert fouls(out) == [] and 4 in play.core["on_table"]


def test_scoring_scores_go_negative() -> None:
    play = open_table()
    play.shot("3 -> 10")  # Bob, no call, hits the wrong ball: next ball not moved
    play.shot("5 -> 10")  # Ann likewise
    play.shot("8 -> 12")
    assert play.scores() == {"Ann": -1, "Bob": -2}


def test_scoring_once_the_direction_is_fixed_an_unannounced_shot_at_the_only_object_ball_counts() -> None:
    play = open_table()
    make(play, 0, 1)
    out = play.shot("5 -> 6; pot 6")
    assert "call_inferred" in codes(out, UpdateKind.INFO) and points(out) == 1


def test_scoring_venue_option_the_pocket_is_called_and_a_wrong_pocket_does_not_count() -> None:
    play = open_table(call_pocket=True)
    with pytest.raises(RefereeError, match="calls the pocket"):
        call(play, 4, cue=3)
    out = call(play, 4, cue=3, pockets=["top-right"]) + play.shot("3 -> 4; pot 4 top-left")
    assert fouls(out) == [] and points(out) == 0 and play.core["turn"] == "Ann"
    assert "not_as_called" in codes(out, UpdateKind.INFO)
    out = call(play, 6, cue=5, pockets=["top-left"]) + play.shot("5 -> 6; pot 6 top-left")
    assert points(out) == 1


def test_pocketing_multiple_balls_both_called_and_both_down_scores_two() -> None:
    play = open_table()
    out = call(play, 4, 5, cue=3) + play.shot("3 -> 4; 4 -> 5; pot 4; pot 5 top-right")
    assert points(out) == 2 and play.core["turn"] == "Bob"


def test_pocketing_multiple_balls_each_called_ball_not_pocketed_costs_a_point() -> None:
    play = open_table()
    out = call(play, 4, 5, cue=3) + play.shot("3 -> 4; pot 4")
    assert [u.points for u in out if u.kind is UpdateKind.SCORE] == [1, -1]
    assert play.core["turn"] == "Ann"


def test_pocketing_multiple_balls_must_be_the_next_consecutive_numbers() -> None:
    play = open_table()
    with pytest.raises(RefereeError, match="next consecutive"):
        call(play, 4, 6, cue=3)


def test_pocketing_multiple_balls_the_cue_ball_may_only_be_called_last_after_every_other_ball() -> None:
    assert expected_calls({3, 9}, 3, 2, Direction.UP) == [9, 3]
    assert expected_calls({2, 5, 7, 9}, 5, 4, Direction.UP) == [7, 9, 2, 5]
    assert expected_calls({2, 5, 7, 9}, 7, 4, Direction.DOWN) == [5, 2, 9, 7]


def test_pocketing_multiple_balls_a_foul_scores_only_its_penalty() -> None:
    play = open_table()
    out = call(play, 4, 5, cue=3) + play.shot("3 -> 4; pot 4; off 5")
    assert fouls(out) == ["ball_off_table"] and points(out) == -1


def test_a_call_names_the_struck_ball_and_a_different_struck_ball_voids_it() -> None:
    play = open_table()
    out = call(play, 4, cue=3) + play.shot("5 -> 4; pot 4")
    assert "call_void" in codes(out, UpdateKind.INFO)
    assert fouls(out) == ["uncalled_ball_potted"]


def test_a_call_without_a_cue_ball_is_checked_against_the_struck_ball() -> None:
    play = open_table()
    out = play.input("called_shot", ball="ball-4") + play.shot("3 -> 4; pot 4")
    assert points(out) == 1 and play.core["directions"]["Bob"] == "up"


def test_a_call_may_come_while_the_balls_roll_until_one_drops() -> None:
    from tests.referee.test_pool_notation import shot

    play = open_table()
    events = shot("3 -> 4; pot 4", t=play.t)
    play.apply(events[0])
    call(play, 4)
    for e in events[1:]:
        play.apply(e)
    assert play.scores()["Bob"] == 1
    play2 = open_table()
    events = shot("3 -> 4; pot 4", t=play2.t)
    for e in events[:3]:
        play2.apply(e)
    with pytest.raises(RefereeError, match="too late"):
        call(play2, 4)
