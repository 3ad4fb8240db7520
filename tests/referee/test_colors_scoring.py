"""Colors: Game scoring, Game play, Neutral and Point balls, Consecutive ball choices, Incidental Balls, the
Black Ball and its spotting, Set end and Game end."""

from __future__ import annotations

import pytest

from tableref.referee import RefereeError, Update, UpdateKind
from tableref.referee.colors import ColorsEngine, colour, companion
from tests.referee.test_pool_notation import COLORS_RACK, Play, codes, colors, fouls, points

BREAK = "0 @ 300,635 -> 8"


def after_break(**options: object) -> Play:
    """Ann breaks, nothing drops: Bob to shoot with all sixteen balls up."""
    play = colors(**options)  # type: ignore[arg-type]
    play.shot(f"{BREAK}; rail 1 2 3 4", positions=COLORS_RACK)
    return play


def instructions(out: list[Update]) -> list[tuple[str, str]]:
    return [(u.code, u.data.get("ball", "")) for u in out if u.kind is UpdateKind.INSTRUCTION]


def test_companion_balls_are_numbered_1_9_to_7_15() -> None:
    assert [companion(b) for b in (1, 7, 9, 15)] == [9, 15, 1, 7]
    assert colour(12) == colour(4) == 4


def test_game_scoring_companions_on_the_same_shot_count_one_point() -> None:
    play = after_break()
    out = play.shot("0 -> 3; 3 -> 11; pot 3 top-right; pot 11 bottom-left")
    assert codes(out, UpdateKind.SCORE) == ["companions"] and play.scores() == {"Ann": 0, "Bob": 1}
    assert play.core["turn"] == "Bob" and play.core["eliminated"] == [3]


def test_game_scoring_companions_on_consecutive_shots_count_one_point() -> None:
    play = after_break()
    out = play.shot("0 -> 3; pot 3")
    assert points(out) == 0 and "owe_companion" in codes(out, UpdateKind.INFO)
    out = play.shot("0 -> 11; pot 11")
    assert points(out) == 1 and play.core["turn"] == "Bob"


def test_game_play_a_failed_companion_attempt_scores_nothing_and_leaves_a_point_ball() -> None:
    play = after_break()
    play.shot("0 -> 3; pot 3")
    out = play.shot("0 -> 11; rail 11")
    assert points(out) == 0 and "companion_missed" in codes(out, UpdateKind.INFO)
    assert play.core["turn"] == "Ann" and 3 not in play.core["on_table"] and 11 in play.core["on_table"]
    out = play.shot("0 -> 11; pot 11")  # Ann: the 11 is now a point ball and needs the black
    assert points(out) == 0 and "owe_black" in codes(out, UpdateKind.INFO)
    out = play.shot("0 -> 8; pot 8 top-right")
    assert codes(out, UpdateKind.SCORE) == ["point_ball_and_black"] and play.scores() == {"Ann": 1, "Bob": 0}
    assert ("spot_black", "ball-8") in instructions(out)


def test_game_scoring_a_point_ball_and_the_black_on_the_same_shot_score_one_point() -> None:
    play = after_break()
    play.shot("0 -> 3; pot 3")
    play.shot("0 -> 5; rail 5")  # Bob misses the companion: 11 is a point ball
    out = play.shot("0 -> 11; 11 -> 8; pot 11; pot 8 bottom-right")
    assert points(out) == 1 and play.core["turn"] == "Ann"


def test_point_balls_spot_on_the_foot_spot_when_the_black_does_not_follow() -> None:
    play = after_break()
    play.shot("0 -> 3; pot 3")
    play.shot("0 -> 5; rail 5")
    play.shot("0 -> 11; pot 11")
    out = play.shot("0 -> 8; rail 8")
    assert points(out) == 0 and ("spot_point_ball", "ball-11") in instructions(out)
    assert 11 in play.core["on_table"] and play.core["turn"] == "Bob"
    assert play.core["positions"]["ball-11"] == [1905.0, 635.0]


def test_consecutive_ball_choices_the_black_scores_one_point_for_each_point_ball() -> None:
    play = after_break()
    play.shot("0 -> 3; 3 -> 5; pot 3; pot 5")  # two neutrals: Bob may take either companion
    play.shot("0 -> 1; rail 1")  # misses: 11 and 13 are point balls
    play.shot("0 -> 11; 11 -> 13; pot 11; pot 13")
    out = play.shot("0 -> 8; pot 8")
    assert codes(out, UpdateKind.SCORE) == ["point_ball_and_black"] and points(out) == 2


def test_consecutive_ball_choices_two_neutrals_of_different_colours_let_the_player_choose_either_companion() -> None:
    play = after_break()
    out = play.shot("0 -> 3; 3 -> 5; pot 3; pot 5")
    owed = [u for u in out if u.code == "owe_companion"][0]
    assert owed.data["companions"] == ["ball-11", "ball-13"]
    out = play.shot("0 -> 13; pot 13")
    assert points(out) == 1 and play.core["window"] == []
    out = play.shot("0 -> 11; pot 11")  # the other colour's ball is now a plain point ball
    assert points(out) == 0 and play.core["pending"] == [11]


def test_consecutive_ball_choices_a_neutral_and_a_point_ball_together_require_the_black() -> None:
    play = after_break()
    play.shot("0 -> 3; pot 3")
    play.shot("0 -> 5; rail 5")  # Bob misses: 11 is a point ball; Ann to play
    out = play.shot("0 -> 11; 11 -> 6; pot 11; pot 6")
    assert play.core["pending"] == [11] and play.core["window"] == []
    assert "owe_black" in codes(out, UpdateKind.INFO)
    play.shot("0 -> 8; pot 8")
    assert play.scores()["Ann"] == 1 and 14 in play.core["on_table"], "the 6's companion is now a point ball"


def test_game_play_any_ball_of_colour_may_follow_a_point() -> None:
    play = after_break()
    out = play.shot("0 -> 3; 3 -> 11; 11 -> 5; pot 3; pot 11; pot 5")
    assert points(out) == 1 and play.core["window"] == [5]


def test_incidental_balls_an_incidental_black_after_a_point_ball_on_the_same_shot_scores() -> None:
    play = after_break()
    play.shot("0 -> 3; pot 3")
    play.shot("0 -> 5; rail 5")
    out = play.shot("0 -> 6; 6 -> 11; 11 -> 8; pot 11; pot 8")
    assert points(out) == 1 and fouls(out) == []


def test_incidental_balls_an_incidental_black_after_a_companion_point_just_spots() -> None:
    play = after_break()
    out = play.shot("0 -> 3; 3 -> 11; 3 -> 8; pot 3; pot 11; pot 8")
    assert points(out) == 1 and fouls(out) == [] and play.core["turn"] == "Bob"
    assert ("spot_black", "ball-8") in instructions(out)


def test_spotting_of_balls_the_black_spots_on_the_centre_spot_or_the_head_spot_when_blocked() -> None:
    play = after_break()
    play.shot("0 -> 3; pot 3")
    play.shot("0 -> 5; rail 5")
    play.shot("0 -> 11; pot 11")
    rest = {"ball-0": [900.0, 400.0], "ball-5": [1280.0, 640.0], "ball-8": [2000.0, 300.0]}
    out = play.shot("0 -> 8; pot 8", rest=rest)
    spot = [u for u in out if u.code == "spot_black"][0]
    assert spot.data["position"] == [635.0, 635.0] and "head spot" in spot.text


def test_spotting_of_balls_with_both_spots_blocked_the_black_goes_behind_the_head_spot() -> None:
    play = after_break()
    play.shot("0 -> 3; 3 -> 11; 3 -> 8; pot 3; pot 11; pot 8",
              rest={"ball-5": [1270.0, 635.0], "ball-6": [640.0, 630.0], "ball-0": [900.0, 300.0]})
    black = play.core["positions"]["ball-8"]
    assert black[0] < 635.0 - 2 * 28.5 and black[1] == 635.0


def test_set_end_the_player_making_the_last_point_breaks_the_next_rack() -> None:
    play = after_break()
    for low in range(1, 8):
        out = play.shot(f"0 -> {low}; {low} -> {low + 8}; pot {low}; pot {low + 8}")
    assert play.scores() == {"Ann": 0, "Bob": 7}
    assert codes(out, UpdateKind.PHASE) == ["next_rack"] and ("rack", "") in instructions(out)
    assert play.core["phase"] == "break" and play.core["turn"] == "Bob" and play.core["rack"] == 2
    assert sorted(play.core["on_table"]) == list(range(16))


def test_game_end_the_first_to_eleven_points_wins() -> None:
    play = after_break()
    for low in range(1, 8):
        play.shot(f"0 -> {low}; {low} -> {low + 8}; pot {low}; pot {low + 8}")
    out = play.shot(f"{BREAK}; 8 -> 1; pot 1; pot 9 bottom-right", positions=COLORS_RACK)
    assert points(out) == 1, "Bob's break of set 2 drops the yellow pair: it accrues to him"
    for low in range(2, 5):
        out = play.shot(f"0 -> {low}; {low} -> {low + 8}; pot {low}; pot {low + 8}")
    assert codes(out, UpdateKind.GAME_OVER) == ["game_over"]
    outcome = play.engine.outcome()
    assert outcome is not None and outcome.winner == "Bob" and outcome.scores == {"Ann": 0, "Bob": 11}
    assert play.core["target"] == 11
    with pytest.raises(RefereeError, match="over"):
        play.shot("0 -> 5")


def test_game_end_three_players_race_to_seven() -> None:
    play = colors(["Ann", "Bob", "Cid"])
    assert play.core["target"] == 7
    play.shot(f"{BREAK}; rail 1 2 3 4", positions=COLORS_RACK)
    assert play.core["turn"] == "Bob"
    play.shot("0 -> 1; rail 1")
    assert play.core["turn"] == "Cid"
    for low in range(1, 8):
        out = play.shot(f"0 -> {low}; {low} -> {low + 8}; pot {low}; pot {low + 8}")
    assert codes(out, UpdateKind.GAME_OVER) == ["game_over"] and play.engine.outcome() is not None


def test_game_two_or_three_players_or_teams_only() -> None:
    with pytest.raises(RefereeError, match="2 or 3"):
        colors(["A", "B", "C", "D"])
    with pytest.raises(ValueError, match="race_to"):
        ColorsEngine(race_to=0)
