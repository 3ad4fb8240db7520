"""Every foul and due of the rule book with its penalty piece (Fouls.0-12)."""

from __future__ import annotations

import pytest

from tableref.referee import RefereeError, UpdateKind
from tableref.referee.carroms import CarromsEngine
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


def ann_has_pocketed(engine: CarromsEngine, n: int) -> None:
    """Ann pockets ``n`` whites in a row (her turn goes on)."""
    for k in range(2, 2 + n):
        strike(engine, f"S -> W{k}; pot W{k} TL")


def test_fouls_6_single_due_the_striker_alone_ends_the_turn_and_a_penalty_piece_returns() -> None:
    engine = singles()
    ann_has_pocketed(engine, 2)
    updates = strike(engine, "S -> W5; pot S BR")
    foul = of_kind(updates, UpdateKind.FOUL)[0]
    assert foul.code == "striker_pocketed" and foul.clause == "Fouls.6"
    assert foul.data["penalty"] == {"returned": True, "piece": "white", "turn_continues": False}
    assert on_board(engine)["white"] == 8 and turn(engine) == "north"
    back = of_kind(updates, UpdateKind.INSTRUCTION)[0]
    assert back.code == "return_penalty_piece" and back.player == "Bob" and back.clause == "Fouls.0"


def test_fouls_12_a_due_with_nothing_pocketed_is_owed() -> None:
    engine = singles()
    updates = strike(engine, "S -> W5; pot S BR")
    assert of_kind(updates, UpdateKind.FOUL)[0].data["penalty"]["owed"] == 1
    assert engine.state["owed"]["Ann"] == 1 and on_board(engine)["white"] == 9


def test_fouls_7_double_due_the_piece_and_a_penalty_piece_come_back_and_the_turn_goes_on() -> None:
    engine = singles()
    ann_has_pocketed(engine, 2)
    updates = strike(engine, "S -> W5; pot W5 TL; pot S BR")
    foul = of_kind(updates, UpdateKind.FOUL)[0]
    assert foul.code == "double_due" and foul.clause == "Fouls.7" and foul.data["penalty"]["turn_continues"]
    assert codes(updates, UpdateKind.INSTRUCTION) == ["return_pocketed_piece", "return_penalty_piece"]
    assert on_board(engine)["white"] == 8 and turn(engine) == "south"


def test_fouls_8_double_due_with_two_pieces_brings_both_and_a_penalty_piece_back() -> None:
    engine = singles()
    ann_has_pocketed(engine, 1)
    updates = strike(engine, "S -> W5; pot W5 TL; pot W6 TR; pot S BR")
    assert of_kind(updates, UpdateKind.FOUL)[0].clause == "Fouls.8"
    assert on_board(engine)["white"] == 9 and turn(engine) == "south"


def test_fouls_1_the_striker_with_the_queen_returns_the_queen_and_ends_the_turn() -> None:
    engine = singles()
    ann_has_pocketed(engine, 1)
    updates = strike(engine, "S -> Q; pot Q TL; pot S TR")
    assert fouls(updates) == ["striker_pocketed"] and of_kind(updates, UpdateKind.FOUL)[0].clause == "Fouls.1"
    assert "return_queen" in codes(updates) and on_board(engine)["queen"] == 1 and turn(engine) == "north"


def test_fouls_1_the_striker_with_an_opponents_piece_leaves_that_piece_down() -> None:
    engine = singles()
    updates = strike(engine, "S -> W2 -> B2; pot B2 TL; pot S TR")
    assert fouls(updates) == ["striker_pocketed"] and on_board(engine)["black"] == 8 and turn(engine) == "north"


def test_fouls_2_hitting_an_opponents_piece_first_without_touching_an_own_piece_is_a_foul() -> None:
    engine = singles()
    updates = strike(engine, "S -> B2")
    foul = of_kind(updates, UpdateKind.FOUL)[0]
    assert foul.code == "opponent_piece_first" and foul.clause == "Fouls.2"


def test_fouls_2_no_foul_when_the_opponents_piece_goes_on_to_touch_an_own_piece() -> None:
    engine = singles()
    assert fouls(strike(engine, "S -> B2 -> W3; pot W3 TL")) == [] and turn(engine) == "south"


def test_fouls_2_is_a_venue_option_since_basic_3_says_the_first_hit_does_not_matter() -> None:
    engine = singles(opponent_first_contact_foul=False)
    assert fouls(strike(engine, "S -> B2")) == []


def test_fouls_3_hitting_the_own_last_piece_directly_before_the_queen_is_covered() -> None:
    engine = singles()
    ann_has_pocketed(engine, 8)  # white-2..white-9 down; white-1 is the last
    updates = strike(engine, "S -> W1")
    assert fouls(updates) == ["own_last_piece_first"] and of_kind(updates, UpdateKind.FOUL)[0].clause == "Fouls.3"


def test_fouls_3_no_foul_once_the_queen_is_covered() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL", "S -> Q; pot Q TR", "S -> W3; pot W3 TL")
    ann_has_pocketed_from(engine, 4, 9)
    updates = strike(engine, "S -> W1; pot W1 BL")
    assert fouls(updates) == [] and "board_over" in codes(updates)


def ann_has_pocketed_from(engine: CarromsEngine, first: int, last: int) -> None:
    for k in range(first, last + 1):
        strike(engine, f"S -> W{k}; pot W{k} TL")


def test_fouls_3_no_foul_when_that_strike_covers_the_queen() -> None:
    engine = singles()
    ann_has_pocketed(engine, 8)
    strike(engine, "S -> Q; pot Q TR")  # awaiting cover, with one white left
    updates = strike(engine, "S -> W1; pot W1 BL")
    assert fouls(updates) == [] and "queen_covered" in codes(updates) and "board_over" in codes(updates)


def test_fouls_4_hitting_the_opponents_last_piece_directly_loses_the_board() -> None:
    engine = singles()
    strike(engine, "S -> W2")  # Ann misses
    for k in range(2, 10):  # Bob pockets eight blacks
        strike(engine, f"S -> B{k}; pot B{k} TL")
    strike(engine, "")  # Bob, down to one black, touches nothing: Ann to strike
    updates = strike(engine, "S -> B1")  # Ann hits Bob's last black directly
    foul = of_kind(updates, UpdateKind.FOUL)[0]
    assert foul.code == "opponent_last_piece_first" and foul.clause == "Fouls.4"
    assert foul.data["penalty"] == {"board_lost": True}
    over = of_kind(updates, UpdateKind.GAME_OVER)[0]
    assert over.player == "Bob" and over.data["pieces"] == 9  # Ann's nine whites left
    assert engine.scores() == {"Ann": 0, "Bob": 9}


def test_fouls_3_potting_the_own_last_piece_directly_before_the_queen_brings_it_back_with_a_penalty() -> None:
    engine = singles()
    ann_has_pocketed(engine, 8)
    updates = strike(engine, "S -> W1; pot W1 TL")  # the last white, struck directly, the queen still out
    assert fouls(updates) == ["own_last_piece_first"]
    assert on_board(engine)["white"] == 2 and turn(engine) == "north"


def test_fouls_9_the_final_piece_pocketed_off_another_piece_is_the_final_piece_foul() -> None:
    engine = singles()
    ann_has_pocketed(engine, 8)
    updates = strike(engine, "S -> Q -> W1; pot W1 TL")
    foul = of_kind(updates, UpdateKind.FOUL)[0]
    assert foul.code == "final_piece_before_queen" and foul.clause == "Fouls.9"
    assert codes(updates, UpdateKind.INSTRUCTION) == ["return_pocketed_piece", "return_penalty_piece"]
    assert on_board(engine)["white"] == 2 and turn(engine) == "north"


def test_opponents_last_piece_pocketed_before_the_queen_is_covered_comes_back_with_a_penalty() -> None:
    engine = singles()
    strike(engine, "S -> W2")
    for k in range(2, 10):
        strike(engine, f"S -> B{k}; pot B{k} TL")
    strike(engine, "")  # Bob, down to one black, touches nothing
    updates = strike(engine, "S -> W4 -> B1; pot B1 TR")  # Ann knocks Bob's last black in
    assert fouls(updates) == ["opponent_last_piece_pocketed"]
    assert on_board(engine)["black"] == 1 and turn(engine) == "north"
    assert engine.state["owed"]["Ann"] == 1  # Ann had nothing pocketed: the penalty is owed


def test_opponents_last_piece_pocketed_venue_option_loses_the_board() -> None:
    engine = singles(opponent_last_piece_pocketed="loses_board")
    strike(engine, "S -> W2")
    for k in range(2, 10):
        strike(engine, f"S -> B{k}; pot B{k} TL")
    strike(engine, "")
    updates = strike(engine, "S -> W4 -> B1; pot B1 TR")
    assert of_kind(updates, UpdateKind.GAME_OVER)[0].player == "Bob"


def test_fouls_11_touching_a_piece_between_strikes_ends_the_players_turn_with_a_penalty() -> None:
    engine = singles()
    ann_has_pocketed(engine, 1)
    updates = say(engine, "add_foul", code="touched_piece")
    foul = of_kind(updates, UpdateKind.FOUL)[0]
    assert foul.code == "touched_piece" and foul.clause == "Fouls.11" and foul.player == "Ann"
    assert on_board(engine)["white"] == 9 and turn(engine) == "north"


def test_fouls_11_the_opponent_touching_a_piece_pays_but_the_turn_stays() -> None:
    engine = singles()
    updates = say(engine, "add_foul", code="touched_piece", seat="north")
    assert of_kind(updates, UpdateKind.FOUL)[0].player == "Bob" and turn(engine) == "south"
    assert engine.state["owed"]["Bob"] == 1


def test_fouls_11_touching_a_piece_during_the_strike_is_that_strikes_foul() -> None:
    engine = singles()
    ann_has_pocketed(engine, 1)
    updates = strike(engine, "S -> W3; foul touched_piece; pot W3 TL")
    assert fouls(updates) == ["touched_piece"] and on_board(engine)["white"] == 9 and turn(engine) == "north"


def test_fouls_12_an_owed_penalty_is_paid_at_the_end_of_the_turn_a_piece_becomes_available() -> None:
    engine = singles()
    strike(engine, "S -> W2; pot S BL")  # Ann: due with nothing pocketed: owed
    strike(engine, "S -> B2")  # Bob misses
    updates = play(engine, "S -> W2; pot W2 TL", "S -> W3")
    paid = [u for u in updates if u.code == "return_owed_piece"]
    assert len(paid) == 1 and paid[0].player == "Bob" and paid[0].clause == "Fouls.12"
    assert engine.state["owed"]["Ann"] == 0 and on_board(engine)["white"] == 9


def test_fouls_12_an_owed_penalty_forgotten_before_the_next_turn_is_lost() -> None:
    engine = singles()
    strike(engine, "S -> W2; pot S BL")
    strike(engine, "S -> B2")
    play(engine, "S -> W2; pot W2 TL", "S -> W3")
    updates = say(engine, "owed_forgotten")
    assert codes(updates) == ["owed_lapsed"] and on_board(engine)["white"] == 8
    with pytest.raises(RefereeError, match="no owed penalty"):
        say(engine, "owed_forgotten")


def test_fouls_12_venue_option_the_camera_decides_an_owed_piece_was_forgotten() -> None:
    engine = singles(owed_lapse_from_camera=True)
    strike(engine, "S -> W2; pot S BL")
    strike(engine, "S -> B2")
    play(engine, "S -> W2; pot W2 TL", "S -> W3")
    updates = strike(engine, "S -> B3")  # Bob strikes with no placed event seen: the penalty lapses
    assert "owed_lapsed" in codes(updates) and on_board(engine)["white"] == 8


def test_fouls_12_an_owed_piece_seen_placed_does_not_lapse() -> None:
    engine = singles(owed_lapse_from_camera=True)
    strike(engine, "S -> W2; pot S BL")
    strike(engine, "S -> B2")
    play(engine, "S -> W2; pot W2 TL", "S -> W3")
    assert codes(event(engine, "placed", "white-2")) == ["placed"]
    updates = strike(engine, "S -> B3")
    assert "owed_lapsed" not in codes(updates) and on_board(engine)["white"] == 9


def test_a_board_is_not_won_with_a_penalty_owed_it_is_paid_at_once() -> None:
    engine = singles()
    strike(engine, "S -> W2; pot S BL")  # Ann owes one
    strike(engine, "S -> B2")
    play(engine, "S -> W2; pot W2 TL", "S -> Q; pot Q TR", "S -> W3; pot W3 TL")  # covered
    ann_has_pocketed_from(engine, 4, 8)
    strike(engine, "S -> W9; pot W9 TL")
    updates = strike(engine, "S -> W1; pot W1 TL")  # the last white, with a penalty owed
    assert "owed_paid_now" in codes(updates) and "board_over" not in codes(updates)
    assert on_board(engine)["white"] == 1 and turn(engine) == "south"


def test_fouls_0_one_penalty_a_strike_however_many_fouls() -> None:
    engine = singles()
    ann_has_pocketed(engine, 3)
    updates = strike(engine, "@moon; S -> B5; pot S TL")
    assert fouls(updates) == ["cut_the_moon", "opponent_piece_first", "striker_pocketed"]
    assert on_board(engine)["white"] == 7


def test_delay_is_only_a_foul_where_the_venue_makes_it_one() -> None:
    engine = singles()
    with pytest.raises(RefereeError, match="delay_is_foul"):
        say(engine, "add_foul", code="delay")
    venue = singles(delay_is_foul=True)
    updates = say(venue, "add_foul", code="delay")
    assert of_kind(updates, UpdateKind.FOUL)[0].clause == "Venue" and turn(venue) == "north"


def test_add_foul_refuses_fouls_the_camera_judges() -> None:
    engine = singles()
    with pytest.raises(RefereeError, match="accepted: arm_over_foul_line"):
        say(engine, "add_foul", code="striker_pocketed")
