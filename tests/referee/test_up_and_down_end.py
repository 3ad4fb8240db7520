"""Up and Down, End of Game: the two-ball case, the winner, concession and match play tie-breaks."""

from __future__ import annotations

import pytest

from tableref.referee import RefereeError, UpdateKind
from tableref.referee.pool_updown import GameResult, match_winner, standings
from tests.referee.test_pool_notation import (
    Play,
    break_shot,
    call,
    codes,
    make,
    open_table,
    points,
    up_and_down,
)


def run_to_two_balls(play: Play) -> None:
    """The player at the open table runs 1 to 14 going up with the zero ball, leaving the 0 and the 15."""
    for ball in range(1, 15):
        make(play, 0, ball)


def clear_table(play: Play) -> None:
    run_to_two_balls(play)
    make(play, 0, 15)


def test_end_of_game_the_game_ends_when_one_ball_is_left_and_the_most_points_win() -> None:
    play = open_table()
    run_to_two_balls(play)
    assert play.engine.outcome() is None
    out = make(play, 0, 15)
    assert codes(out, UpdateKind.GAME_OVER) == ["game_over"]
    outcome = play.engine.outcome()
    assert outcome is not None and outcome.winner == "Bob" and outcome.scores == {"Ann": 0, "Bob": 15}
    with pytest.raises(RefereeError, match="over"):
        play.shot("0 -> 15")


def test_pocketing_multiple_balls_the_end_of_game_two_ball_case_scores_an_extra_point() -> None:
    play = open_table()
    run_to_two_balls(play)
    out = call(play, 15, 0, cue=0) + play.shot("0 -> 15; pot 15 top-right; pot 0 bottom-left")
    assert points(out) == 2 and play.scores()["Bob"] == 16
    assert play.core["on_table"] == [] and play.engine.outcome() is not None


def test_pocketing_multiple_balls_the_object_ball_alone_nets_zero() -> None:
    play = open_table()
    run_to_two_balls(play)
    out = call(play, 15, 0, cue=0) + play.shot("0 -> 15; pot 15 top-right")
    assert [u.points for u in out if u.kind is UpdateKind.SCORE] == [1, -1]
    assert play.engine.outcome() is not None, "one ball left: the game is over"


def test_pocketing_multiple_balls_the_cue_ball_alone_loses_two_points() -> None:
    play = open_table()
    run_to_two_balls(play)
    out = call(play, 15, 0, cue=0) + play.shot("0 -> 15; rail 15; pot 0 bottom-left")
    assert points(out) == -2
    assert play.core["on_table"] == [15] and play.engine.outcome() is not None, "one ball left: the game is over"


def test_pocketing_multiple_balls_the_cue_ball_must_drop_second() -> None:
    play = open_table()
    run_to_two_balls(play)
    out = call(play, 15, 0, cue=0) + play.shot("0 -> 15; pot 0 bottom-left; pot 15 top-right")
    assert points(out) == 0


def test_suggestions_by_visitors_venue_option_drops_the_cue_ball_last_rule() -> None:
    play = open_table(cue_ball_last=False)
    run_to_two_balls(play)
    out = call(play, 15, 0, cue=0) + play.shot("0 -> 15; pot 0 bottom-left; pot 15 top-right")
    assert points(out) == 2


def test_end_of_game_a_cue_ball_cannot_be_its_own_object_ball() -> None:
    play = open_table()
    run_to_two_balls(play)
    with pytest.raises(RefereeError):
        call(play, 0, cue=0)


def test_end_of_game_equal_points_is_a_draw() -> None:
    play = open_table()
    run_to_two_balls(play)
    play.input("overrule", score={"Ann": 15})
    make(play, 0, 15)
    outcome = play.engine.outcome()
    assert outcome is not None and outcome.winner is None and outcome.scores == {"Ann": 15, "Bob": 15}


def test_end_of_game_a_player_may_concede_and_loses_with_the_score_as_it_stands() -> None:
    play = open_table()
    make(play, 0, 1)
    out = play.input("concede", player="Bob")
    assert codes(out, UpdateKind.GAME_OVER) == ["game_over"]
    outcome = play.engine.outcome()
    assert outcome is not None and outcome.winner == "Ann" and outcome.scores == {"Ann": 0, "Bob": 1}


def test_end_of_game_in_tournament_play_the_opponent_must_agree_to_a_concession() -> None:
    play = open_table(concession_needs_agreement=True)
    out = play.input("concede", player="Bob")
    assert codes(out, UpdateKind.CHOICE) == ["accept_concession"] and out[0].player == "Ann"
    with pytest.raises(RefereeError, match="concession"):
        play.shot("3 -> 4")
    play.input("agree_concession", accept=False)
    assert play.engine.outcome() is None
    play.input("concede", player="Bob")
    play.input("agree_concession", accept=True)
    outcome = play.engine.outcome()
    assert outcome is not None and outcome.winner == "Ann"


def test_end_of_game_match_play_counts_wins_then_total_points_break_a_tie() -> None:
    play = up_and_down(match_games=2)
    break_shot(play)
    clear_table(play)  # game 1: Bob 15, Ann 0
    assert play.core["game"] == 2 and play.core["turn"] == "Bob", "the break alternates"
    assert play.engine.outcome() is None
    break_shot(play, "rail 2")  # Bob's break fails: -1, Ann breaks
    break_shot(play)
    play.shot("3 -> 9")  # Bob: the next ball not moved, -1
    out: list = []
    run_to_two_balls(play)
    out = make(play, 0, 15)  # game 2: Ann 15, Bob -2
    assert codes(out, UpdateKind.MATCH_OVER) == ["match_over"]
    outcome = play.engine.outcome()
    assert outcome is not None and outcome.winner == "Ann"
    assert outcome.scores == {"Ann": 15, "Bob": 13}
    assert "total points" in outcome.reason


def test_end_of_game_match_standings_rank_wins_before_points() -> None:
    results = [
        GameResult(1, {"Ann": 2, "Bob": 9}, "Bob", ""),
        GameResult(2, {"Ann": 5, "Bob": 4}, "Ann", ""),
        GameResult(3, {"Ann": 3, "Bob": 1}, "Ann", ""),
    ]
    table = standings(results, ["Ann", "Bob"])
    assert [(s.player, s.wins, s.losses, s.points) for s in table] == [("Ann", 2, 1, 10), ("Bob", 1, 2, 14)]
    assert match_winner(table)[0] == "Ann"
    drawn = standings([GameResult(1, {"Ann": 3, "Bob": 3}, None, "")], ["Ann", "Bob"])
    assert match_winner(drawn)[0] is None


@pytest.mark.parametrize(("rule", "breaker"), [("alternate", "Bob"), ("winner", "Bob"), ("loser", "Ann")])
def test_end_of_game_venue_option_who_breaks_the_next_game(rule: str, breaker: str) -> None:
    play = up_and_down(match_games=3, next_break=rule)
    break_shot(play)
    clear_table(play)
    assert play.core["turn"] == breaker and play.core["phase"] == "break"
    assert sorted(play.core["on_table"]) == list(range(16))
