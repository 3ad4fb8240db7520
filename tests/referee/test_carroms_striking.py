"""The striking rules (Striking.1-5, Fouls.5 and Fouls.10): where the striker stands, a forward flick
across the front baseline, and pieces behind the baseline."""

from __future__ import annotations

from tableref.referee import UpdateKind
from tableref.referee.carroms import CarromsEngine
from tests.referee.test_carroms_notation import fouls, of_kind, on_board, say, singles, spot, strike, turn


def test_striking_1_2_a_striker_touching_both_lines_is_legal() -> None:
    engine = singles()
    assert fouls(strike(engine, "@ok; S -> W2; pot W2 TL")) == []


def test_striking_1_a_striker_covering_an_end_circle_is_legal() -> None:
    engine = singles()
    assert fouls(strike(engine, "@circle; S -> W2; pot W2 TL")) == []


def test_striking_2_a_striker_touching_only_the_front_line_is_a_foul_that_ends_the_turn() -> None:
    engine = singles()
    updates = strike(engine, "@off; S -> W2; pot W2 TL")
    foul = of_kind(updates, UpdateKind.FOUL)[0]
    assert foul.code == "bad_placement" and foul.clause == "Striking.2"
    assert on_board(engine)["white"] == 9 and turn(engine) == "north"  # the pocketed white came back


def test_striking_1_a_striker_beyond_the_end_of_the_baseline_is_a_foul() -> None:
    engine = singles()
    assert fouls(strike(engine, "@60,622.1; S -> W2")) == ["bad_placement"]


def test_striking_3_cutting_the_moon_is_a_foul() -> None:
    engine = singles()
    updates = strike(engine, "@moon; S -> W2")
    assert fouls(updates) == ["cut_the_moon"] and of_kind(updates, UpdateKind.FOUL)[0].clause == "Striking.3"


def test_striking_2_a_measurement_within_the_tolerance_gets_the_benefit_of_the_doubt() -> None:
    engine = singles()
    x, y = spot(engine, "south", "ok")
    # touching both lines needs the centre within 20.6 mm of the back line (638): 1 mm short of that
    assert fouls(strike(engine, f"@{x},{638.0 - 20.6 - 1.0}; S -> W2; pot W2 TL")) == []
    strict = singles(placement_tolerance_mm=0.0)
    assert fouls(strike(strict, f"@{x},{638.0 - 20.6 - 1.0}; S -> W2")) == ["bad_placement"]


def test_striking_placement_is_judged_for_the_seat_on_turn() -> None:
    engine = singles()
    strike(engine, "S -> W2")  # Ann misses: Bob (north) strikes from the north baseline
    assert fouls(strike(engine, f"@{spot(engine, 'north', 'ok')[0]},{spot(engine, 'north', 'ok')[1]}; S -> B2")) == []
    assert fouls(strike(engine, "@370,622.1; S -> W3")) == []  # Ann again at the south baseline
    assert fouls(strike(engine, "@370,622.1; S -> B3")) == ["bad_placement"]  # Bob at Ann's baseline


def test_striking_4_a_striker_that_never_crosses_the_front_baseline_is_a_foul() -> None:
    engine = singles()
    updates = strike(engine, "nocross; S -> W2")
    assert fouls(updates) == ["not_forward"] and of_kind(updates, UpdateKind.FOUL)[0].clause == "Striking.4"


def test_striking_4_flicking_backwards_is_a_foul() -> None:
    engine = singles()
    assert fouls(strike(engine, "cross back; S -> W2")) == ["not_forward"]


def test_striking_4_without_crossing_events_the_venue_leaves_the_call_to_the_referee() -> None:
    engine = singles(baseline_cross_events=False)
    assert fouls(strike(engine, "nocross; S -> W2; pot W2 TL")) == []
    updates = say(engine, "add_foul", code="not_forward")  # the referee saw a sideways flick
    assert fouls(updates) == ["not_forward"] and turn(engine) == "north" and on_board(engine)["white"] == 9


def test_striking_4_a_push_instead_of_a_one_finger_flick_is_entered_by_the_referee() -> None:
    engine = singles()
    strike(engine, "S -> W2; pot W2 TL")
    updates = say(engine, "add_foul", code="not_a_flick")
    assert fouls(updates) == ["not_a_flick"] and turn(engine) == "north"
    assert of_kind(updates, UpdateKind.PHASE)[0].code == "rejudged"


def test_striking_5_a_piece_behind_the_baseline_struck_before_crossing_is_a_foul() -> None:
    engine = singles()
    updates = strike(engine, "nocross; S -> W2; cross; pot W2 BL", positions={"white-2": [300.0, 615.0]})
    assert fouls(updates) == ["piece_behind_baseline"] and of_kind(updates, UpdateKind.FOUL)[0].clause == "Striking.5"


def test_fouls_5_touching_own_pieces_between_the_arrows_is_the_behind_the_baseline_foul() -> None:
    engine = singles()
    updates = strike(engine, "nocross; S -> W2; cross", positions={"white-2": [150.0, 650.0]})
    assert fouls(updates) == ["piece_behind_baseline"]


def test_striking_5_a_piece_behind_the_baseline_may_be_played_off_a_rebound() -> None:
    engine = singles()
    updates = strike(engine, "cross; cushion S top; S -> W2; pot W2 BL", positions={"white-2": [300.0, 615.0]})
    assert fouls(updates) == [] and turn(engine) == "south"


def test_striking_5_a_piece_clear_in_front_of_the_line_is_no_foul_even_if_hit_early() -> None:
    engine = singles()
    updates = strike(engine, "nocross; S -> W2; cross", positions={"white-2": [300.0, 560.0]})
    assert fouls(updates) == []


def test_striking_5_without_crossing_events_the_first_hit_decides() -> None:
    engine = singles(baseline_cross_events=False)
    behind = {"white-2": [300.0, 615.0]}
    assert fouls(strike(engine, "nocross; S -> W2", positions=behind)) == ["piece_behind_baseline"]
    strike(engine, "nocross")  # Bob
    assert fouls(strike(engine, "nocross; cushion S top; S -> W2", positions=behind)) == []


def test_striking_5_an_arm_over_the_foul_line_is_called_during_the_strike() -> None:
    engine = singles()
    updates = strike(engine, "foul arm_over_foul_line; S -> W2; pot W2 TL")
    assert fouls(updates) == ["arm_over_foul_line"] and on_board(engine)["white"] == 9


def test_fouls_10_any_striking_foul_costs_one_penalty_piece() -> None:
    engine = singles()
    strike(engine, "S -> W2; pot W2 TL")
    strike(engine, "S -> W3; pot W3 TL")
    updates = strike(engine, "@moon; nocross; S -> W4")
    assert fouls(updates) == ["cut_the_moon", "not_forward"]
    penalties = [u.data.get("penalty") for u in of_kind(updates, UpdateKind.FOUL)]
    assert penalties[0]["returned"] is True and penalties[1] is None  # one penalty a strike
    assert on_board(engine)["white"] == 8


def test_the_placement_of_a_striker_with_no_position_is_not_judged() -> None:
    engine = CarromsEngine()
    assert fouls(strike(engine, "S -> W1")) == []
