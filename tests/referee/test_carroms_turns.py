"""Who breaks, the three break attempts, turns going on or passing, and doubles order (Preparation,
Basic rules, Doubles)."""

from __future__ import annotations

import pytest

from tableref.referee import RefereeError, UpdateKind
from tableref.referee.carroms import CarromsEngine
from tests.referee.test_carroms_notation import (
    codes,
    fouls,
    of_kind,
    on_board,
    play,
    say,
    singles,
    strike,
    turn,
)


def test_preparation_1_a_right_guess_lets_the_guesser_choose_who_goes_first() -> None:
    engine = CarromsEngine()
    say(engine, "players", south="Ann", north="Bob")
    choice = of_kind(say(engine, "toss", concealer="south", guessed=True), UpdateKind.CHOICE)
    assert choice[0].player == "Bob" and choice[0].clause == "Preparation.1"
    assert engine.state["chooser"] == "north"


def test_preparation_1_a_wrong_guess_leaves_the_choice_to_the_concealer() -> None:
    engine = CarromsEngine()
    say(engine, "players", south="Ann", north="Bob")
    say(engine, "toss", concealer="south", guessed=False)
    assert engine.state["chooser"] == "south"


def test_preparation_1_the_first_player_plays_white_and_strikes_first() -> None:
    engine = CarromsEngine()
    say(engine, "players", south="Ann", north="Bob")
    updates = say(engine, "break_winner", seat="north")
    assert engine.state["colour_of"] == {"Bob": "white", "Ann": "black"}
    assert turn(engine) == "north"
    assert of_kind(updates, UpdateKind.TURN)[0].player == "Bob"


def test_with_no_break_winner_entered_the_first_seat_breaks_and_the_tablet_is_told() -> None:
    engine = CarromsEngine()
    updates = strike(engine, "S -> W1")
    assert "default_break" in codes(updates)
    assert engine.state["colour_of"]["south"] == "white"


def test_toss_needs_a_yes_or_no_guess_and_a_seat_in_play() -> None:
    engine = CarromsEngine()
    with pytest.raises(RefereeError, match="guessed"):
        say(engine, "toss", concealer="south")
    with pytest.raises(RefereeError, match="seat in play"):
        say(engine, "toss", concealer="east", guessed=True)


def test_basic_1_three_break_attempts_then_the_break_failed_foul_with_the_penalty_owed() -> None:
    engine = CarromsEngine()
    say(engine, "players", south="Ann", north="Bob")
    say(engine, "break_winner", seat="south")
    first = strike(engine, "")  # nothing touched: the group is not disturbed
    assert codes(first, UpdateKind.INSTRUCTION) == ["break_again"] and turn(engine) == "south"
    assert of_kind(first, UpdateKind.INSTRUCTION)[0].data["attempt"] == 2
    strike(engine, "")
    third = strike(engine, "")
    assert fouls(third) == ["break_failed"]
    foul = of_kind(third, UpdateKind.FOUL)[0]
    assert foul.clause == "Fouls.12" and foul.data["penalty"] == {"returned": False, "owed": 1, "turn_continues": False}
    assert turn(engine) == "north" and engine.state["owed"]["Ann"] == 1


def test_basic_1_a_break_on_the_second_attempt_is_play_as_usual() -> None:
    engine = CarromsEngine()
    strike(engine, "")
    updates = strike(engine, "S -> Q")
    assert fouls(updates) == [] and turn(engine) == "north" and engine.state["breaking"] is False


def test_basic_1_the_group_moving_counts_as_broken_when_the_camera_gives_positions() -> None:
    engine = CarromsEngine()
    before = {"queen": [370.0, 370.0], "white-1": [370.0, 401.0]}
    after = {"queen": [370.0, 360.0], "white-1": [370.0, 401.0]}
    strike(engine, "", positions=before, rest_positions=after)
    assert engine.state["breaking"] is False and engine.state["break_failures"] == 0


def test_basic_1_a_foul_on_a_break_attempt_is_judged_as_a_foul() -> None:
    engine = CarromsEngine()
    updates = strike(engine, "pot S BL")
    assert fouls(updates) == ["striker_pocketed"] and turn(engine) == "north"
    assert engine.state["breaking"] is False


def test_basic_3_hitting_nothing_outside_the_break_is_no_foul_and_ends_the_turn() -> None:
    engine = singles()
    updates = strike(engine, "")
    assert fouls(updates) == [] and turn(engine) == "north"


def test_basic_4_an_own_piece_earns_another_strike() -> None:
    engine = singles()
    updates = strike(engine, "S -> W2; pot W2 TL")
    assert codes(updates) == ["strike_again"] and turn(engine) == "south"
    assert of_kind(updates, UpdateKind.BREAK)[0].data["pocketed_this_turn"] == 1


def test_basic_4_only_an_opponent_piece_ends_the_turn_and_it_stays_down_for_the_opponent() -> None:
    engine = singles()
    updates = strike(engine, "S -> W2 -> B3; pot B3 TR")
    assert fouls(updates) == [] and turn(engine) == "north"
    assert on_board(engine)["black"] == 8 and "opponent_piece_pocketed" in codes(updates)


def test_basic_4_the_turn_goes_on_after_several_own_pieces_and_ends_on_a_miss() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL", "S -> W3; pot W3 TR; pot W4 BL")
    assert turn(engine) == "south" and on_board(engine)["white"] == 6
    updates = strike(engine, "S -> W5")
    assert turn(engine) == "north" and codes(updates, UpdateKind.TURN) == ["turn"]


def test_doubles_1_partners_sit_opposite_and_turns_go_clockwise() -> None:
    engine = CarromsEngine()
    say(engine, "players", south="Ann", north="Cat", west="Bob", east="Dan")
    say(engine, "break_winner", seat="south")
    seen = [turn(engine)]
    for _ in range(4):
        strike(engine, "S -> W")
        seen.append(turn(engine))
    assert seen == ["south", "west", "north", "east", "south"]
    assert engine.state["colour_of"] == {"Ann & Cat": "white", "Bob & Dan": "black"}
    assert engine.scores() == {"Ann & Cat": 0, "Bob & Dan": 0}


def test_doubles_1_a_partner_plays_the_team_colour_and_the_team_gets_the_piece() -> None:
    engine = CarromsEngine()
    say(engine, "players", south="Ann", north="Cat", west="Bob", east="Dan",
        teams={"north-south": "Lions", "east-west": "Tigers"})
    say(engine, "break_winner", seat="east")
    assert engine.state["order"] == ["east", "south", "west", "north"]
    strike(engine, "S -> W1")  # Dan breaks with white for the Tigers
    updates = strike(engine, "S -> B1; pot B1 BL")  # Ann, black, for the Lions
    assert of_kind(updates, UpdateKind.BREAK)[0].player == "Lions" and turn(engine) == "south"


def test_doubles_venue_option_anticlockwise_turns() -> None:
    engine = CarromsEngine(turn_direction="anticlockwise")
    say(engine, "players", south="Ann", north="Cat", west="Bob", east="Dan")
    say(engine, "break_winner", seat="south")
    assert engine.state["order"] == ["south", "east", "north", "west"]


@pytest.mark.parametrize(
    ("seats", "needle"),
    [({"south": "Ann", "east": "Bob"}, "opposite seats"), ({"south": "Ann", "up": "Bob"}, "unknown seat"),
     ({"south": "Ann", "north": "Ann"}, "different non-empty name")],
)
def test_players_must_sit_opposite_with_distinct_names(seats: dict[str, str], needle: str) -> None:
    with pytest.raises(RefereeError, match=needle):
        say(CarromsEngine(), "players", **seats)


def test_players_and_the_toss_come_before_the_first_strike() -> None:
    engine = singles()
    with pytest.raises(RefereeError, match="before the first strike"):
        say(engine, "players", south="Cy", north="Di")
    with pytest.raises(RefereeError, match="before a board's first strike"):
        say(engine, "break_winner", seat="north")


def test_who_breaks_can_be_corrected_before_the_boards_first_strike() -> None:
    engine = CarromsEngine()
    say(engine, "players", south="Ann", north="Bob")
    say(engine, "break_winner", seat="south")
    say(engine, "break_winner", seat="north")
    assert engine.state["board"] == 1 and turn(engine) == "north"
    assert engine.state["colour_of"]["Bob"] == "white"
