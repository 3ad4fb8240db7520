"""Board scoring, the queen bonus, and the match to 29 points or eight boards (Scoring.1-4)."""

from __future__ import annotations

from collections import defaultdict

import pytest

from tableref.referee import RefereeError, Update, UpdateKind
from tableref.referee.carroms import CarromsEngine
from tests.referee.test_carroms_notation import codes, of_kind, on_board, say, singles, strike, turn


def colours_on_turn(engine: CarromsEngine) -> tuple[str, str]:
    side = engine.state["side_of"][turn(engine)]
    own = "W" if engine.state["colour_of"][side] == "white" else "B"
    return own, "B" if own == "W" else "W"


def clear_board(engine: CarromsEngine, *, leave: int = 9, queen: bool = True) -> list[Update]:
    """The player on turn pockets every own piece, the queen after the first (covered on the next
    strike) when ``queen``, and opponent's pieces alongside until ``leave`` are left."""
    own, opp = colours_on_turn(engine)
    colour = "white" if own == "W" else "black"
    take = on_board(engine)["black" if own == "W" else "white"] - leave
    out: list[Update] = []
    for k in range(on_board(engine)[colour]):
        parts = [f"S -> {own}", f"pot {own} TL"]
        if take > 0:
            parts.append(f"pot {opp} TR")
            take -= 1
        out += strike(engine, "; ".join(parts))
        if k == 0 and queen:
            out += strike(engine, "S -> Q; pot Q BL")
    return out


def cover_then_miss(engine: CarromsEngine) -> None:
    """The player on turn pockets an own piece, the queen and a cover, then misses."""
    own, _ = colours_on_turn(engine)
    for text in (f"S -> {own}; pot {own} TL", "S -> Q; pot Q TR", f"S -> {own}; pot {own} BL", ""):
        strike(engine, text)


def next_board(engine: CarromsEngine) -> list[Update]:
    return say(engine, "new_board")


def test_scoring_1_2_one_point_per_opponent_piece_left_and_five_for_the_queen() -> None:
    engine = singles()
    updates = clear_board(engine)
    over = of_kind(updates, UpdateKind.GAME_OVER)[0]
    assert over.player == "Ann" and over.data["pieces"] == 9 and over.data["queen_bonus"] == 5
    score = of_kind(updates, UpdateKind.SCORE)[0]
    assert score.points == 14 and score.clause == "Scoring.2"
    assert engine.scores() == {"Ann": 14, "Bob": 0} and engine.state["phase"] == "board_over"


def test_scoring_1_fewer_opponent_pieces_left_fewer_points() -> None:
    engine = singles()
    clear_board(engine, leave=4)
    assert engine.scores()["Ann"] == 4 + 5


def test_scoring_2_no_queen_bonus_for_the_winner_when_the_loser_covered_her() -> None:
    engine = singles()
    strike(engine, "S -> W")  # Ann misses
    cover_then_miss(engine)  # Bob covers the queen, two blacks down
    updates = clear_board(engine, queen=False)
    over = of_kind(updates, UpdateKind.GAME_OVER)[0]
    assert over.player == "Ann" and over.data == {**over.data, "pieces": 7, "queen_bonus": 0}
    assert engine.scores() == {"Ann": 7, "Bob": 0}


def test_scoring_3_the_first_to_29_wins_and_the_queen_counts_no_more_from_24() -> None:
    engine = singles()
    clear_board(engine)  # Ann 14
    next_board(engine)
    strike(engine, "S -> W")  # Bob breaks (the break rotates) and misses
    clear_board(engine)  # Ann 28
    next_board(engine)
    assert turn(engine) == "south"
    updates = clear_board(engine)  # Ann is at 28: 9 pieces, no queen bonus
    assert of_kind(updates, UpdateKind.GAME_OVER)[0].data["queen_bonus"] == 0
    assert engine.scores() == {"Ann": 37, "Bob": 0}
    over = of_kind(updates, UpdateKind.MATCH_OVER)[0]
    assert over.player == "Ann" and over.clause == "Scoring.3"
    outcome = engine.outcome()
    assert outcome is not None and outcome.winner == "Ann" and "29" in outcome.reason


@pytest.mark.parametrize(("basis", "bonus"), [("before_board", 5), ("after_pieces", 0)])
def test_scoring_2_venue_option_what_under_24_points_is_measured_on(basis: str, bonus: int) -> None:
    engine = singles(queen_bonus_basis=basis)
    clear_board(engine)  # Ann 14
    next_board(engine)
    cover_then_miss(engine)  # Bob breaks, covers the queen, misses
    clear_board(engine, leave=5, queen=False)  # Ann 19
    next_board(engine)
    assert engine.scores()["Ann"] == 19 and turn(engine) == "south"
    updates = clear_board(engine)  # 9 pieces: 19 before the board, 28 after the pieces
    assert of_kind(updates, UpdateKind.GAME_OVER)[0].data["queen_bonus"] == bonus


def play_boards(engine: CarromsEngine, boards: int) -> None:
    """Each board's breaker clears it leaving one opponent piece, with the queen: 6 points a board."""
    for n in range(boards):
        if n:
            next_board(engine)
        clear_board(engine, leave=1)


def test_scoring_3_after_eight_boards_the_leader_wins() -> None:
    engine = singles()
    play_boards(engine, 7)
    assert engine.scores() == {"Ann": 24, "Bob": 18} and engine.outcome() is None
    next_board(engine)
    updates = clear_board(engine, leave=2)  # Bob wins board 8 by 7: 25 against 24
    assert engine.scores() == {"Ann": 24, "Bob": 25}
    assert of_kind(updates, UpdateKind.MATCH_OVER)[0].player == "Bob"
    assert "after 8 boards" in of_kind(updates, UpdateKind.MATCH_OVER)[0].text


def test_scoring_4_level_after_eight_boards_one_deciding_board() -> None:
    engine = singles()
    play_boards(engine, 8)
    assert engine.scores() == {"Ann": 24, "Bob": 24} and engine.outcome() is None
    assert engine.state["deciding"] is True
    starts = next_board(engine)
    assert "deciding board" in of_kind(starts, UpdateKind.PHASE)[0].text
    updates = clear_board(engine, leave=1)
    match = of_kind(updates, UpdateKind.MATCH_OVER)[0]
    assert match.player == "Ann" and match.data["reason"] == "won the deciding board"


def test_the_break_rotates_between_boards_by_default() -> None:
    engine = singles()
    clear_board(engine)
    updates = next_board(engine)
    assert turn(engine) == "north" and engine.state["colour_of"]["Bob"] == "white"
    assert codes(updates, UpdateKind.TURN) == ["turn"]


@pytest.mark.parametrize(("rule", "breaker"), [("winner", "south"), ("loser", "north")])
def test_venue_option_the_winner_or_the_loser_breaks_the_next_board(rule: str, breaker: str) -> None:
    engine = singles(next_board_break=rule)
    clear_board(engine)
    next_board(engine)
    assert turn(engine) == breaker


def test_a_new_board_must_be_asked_for_and_only_after_a_board_is_over() -> None:
    engine = singles()
    with pytest.raises(RefereeError, match="not over"):
        next_board(engine)
    clear_board(engine)
    with pytest.raises(RefereeError, match="new_board"):
        strike(engine, "S -> W")
    say(engine, "new_board", breaker="south")
    assert engine.state["board"] == 2 and turn(engine) == "south"


def test_conceding_a_board_scores_it_for_the_opponent() -> None:
    engine = singles()
    strike(engine, "S -> W2; pot W2 TL")
    updates = say(engine, "concede", seat="south")
    assert of_kind(updates, UpdateKind.GAME_OVER)[0].player == "Bob"
    assert engine.scores() == {"Ann": 0, "Bob": 8}


def test_conceding_the_match() -> None:
    engine = singles()
    updates = say(engine, "concede", seat="north", match=True)
    assert of_kind(updates, UpdateKind.MATCH_OVER)[0].player == "Ann"
    outcome = engine.outcome()
    assert outcome is not None and outcome.winner == "Ann"
    with pytest.raises(RefereeError, match="match is over"):
        strike(engine, "S -> W")


def test_score_contract_scores_equal_the_sum_of_score_updates_over_boards() -> None:
    engine = singles()
    total: dict[str, int] = defaultdict(int)
    for updates in (clear_board(engine, leave=3), next_board(engine), clear_board(engine)):
        for u in of_kind(updates, UpdateKind.SCORE):
            assert u.player is not None and u.points is not None
            total[u.player] += u.points
    assert engine.scores() == {"Ann": 8, "Bob": 14} == dict(total)
