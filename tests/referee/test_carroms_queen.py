"""Pocketing and covering the queen, and returning her (Objective.2, Queen.1-4)."""

from __future__ import annotations

import pytest

from tableref.referee import RefereeError, UpdateKind
from tests.referee.test_carroms_notation import (
    codes,
    event,
    fouls,
    of_kind,
    on_board,
    play,
    say,
    singles,
    strike,
    turn,
)


def test_queen_1_2_the_queen_before_an_own_piece_goes_back_at_the_end_of_the_turn() -> None:
    engine = singles()
    updates = strike(engine, "S -> Q; pot Q TL")
    assert "queen_not_earned" in codes(updates) and turn(engine) == "south"  # the turn goes on
    assert engine.state["queen"] == "not_earned"
    strike(engine, "S -> W2; pot W2 TR")  # an own piece now does not cover her
    assert engine.state["queen"] == "not_earned"
    updates = strike(engine, "S -> W3")  # the turn ends
    back = [u for u in updates if u.code == "return_queen"]
    assert back and back[0].player == "Bob" and back[0].clause == "Queen.4"
    assert on_board(engine)["queen"] == 1 and engine.state["queen"] == "on_board"


def test_objective_2_cover_with_an_own_piece_on_the_next_strike() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL")
    updates = strike(engine, "S -> Q; pot Q TR")
    assert "queen_awaits_cover" in codes(updates) and turn(engine) == "south"
    updates = strike(engine, "S -> W3; pot W3 BL")
    assert "queen_covered" in codes(updates)
    assert engine.state["queen"] == "covered" and engine.state["queen_side"] == "Ann"


def test_queen_4_no_cover_on_the_next_strike_sends_her_back_by_the_opponent() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL", "S -> Q; pot Q TR")
    updates = strike(engine, "S -> W3")
    assert "queen_not_covered" in codes(updates)
    back = [u for u in updates if u.code == "return_queen"]
    assert back[0].player == "Bob" and on_board(engine)["queen"] == 1 and turn(engine) == "north"


def test_queen_4_an_opponents_piece_on_the_cover_strike_does_not_cover() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL", "S -> Q; pot Q TR")
    updates = strike(engine, "S -> W3 -> B3; pot B3 TL")
    assert "return_queen" in codes(updates) and turn(engine) == "north"


def test_queen_3_the_queen_and_an_own_piece_on_the_same_strike_cover_her() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL")
    updates = strike(engine, "S -> Q -> W3; pot Q TR; pot W3 BL")
    assert "queen_covered" in codes(updates) and turn(engine) == "south"


def test_queen_1_the_same_strike_first_own_piece_does_not_permit_the_queen() -> None:
    engine = singles()
    updates = strike(engine, "S -> Q -> W3; pot Q TR; pot W3 BL")
    assert "queen_not_earned" in codes(updates)


def test_queen_3_venue_option_same_turn_an_own_piece_earlier_in_the_turn_covers() -> None:
    engine = singles(queen_cover="same_turn")
    play(engine, "S -> W2; pot W2 TL", "S -> W3; pot W3 TL")
    updates = strike(engine, "S -> Q; pot Q TR")
    assert "queen_covered" in codes(updates)
    default = singles()
    play(default, "S -> W2; pot W2 TL", "S -> W3; pot W3 TL")
    assert "queen_awaits_cover" in codes(strike(default, "S -> Q; pot Q TR"))


def test_a_foul_on_the_cover_strike_covers_nothing() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL", "S -> Q; pot Q TR")
    updates = strike(engine, "S -> W3; pot W3 BL; pot S TL")  # a double due: the turn goes on
    assert fouls(updates) == ["double_due"] and "return_queen" in codes(updates)
    assert engine.state["queen"] == "on_board" and turn(engine) == "south"


def test_touching_a_piece_while_the_queen_awaits_cover_ends_the_turn_and_she_goes_back() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL", "S -> Q; pot Q TR")
    updates = say(engine, "add_foul", code="touched_piece")
    assert "return_queen" in codes(updates) and turn(engine) == "north"


def test_a_second_pot_of_a_covered_queen_is_refused() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL", "S -> Q; pot Q TR", "S -> W3; pot W3 BL")
    strike(engine, "S -> W4; norest")
    with pytest.raises(RefereeError, match="queen is not on the board"):
        event(engine, "pot", "queen", where="pocket-top-left")


def test_the_queen_returned_is_placed_by_the_opponent_as_an_instruction_with_the_clause() -> None:
    engine = singles()
    updates = play(engine, "S -> Q; pot Q TL", "S -> W5")
    instruction = [u for u in of_kind(updates, UpdateKind.INSTRUCTION) if u.code == "return_queen"][0]
    assert instruction.text == "Bob: return the queen to the centre."
