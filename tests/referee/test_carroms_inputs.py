"""Pieces leaving the board, the table's hands, impossible events, corrections (late pots, overrule,
fouls called after the strike) and venue options."""

from __future__ import annotations

import pytest

from tableref.events import EventType, HumanInput, TableEvent
from tableref.referee import RefereeError, UpdateKind, make_engine
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
from tests.referee.test_carroms_scoring import clear_board


def test_basic_2_a_piece_that_left_the_board_goes_to_the_free_centre() -> None:
    engine = singles()
    updates = strike(engine, "S -> W2; off W2", rest_positions={"black-1": [200.0, 300.0]})
    place = of_kind(updates, UpdateKind.INSTRUCTION)[0]
    assert place.code == "place_off_board_piece" and place.clause == "Basic.2"
    assert place.data["position"] == [370.0, 370.0] and place.text.startswith("Ann: place the white piece")
    assert on_board(engine)["white"] == 9 and fouls(updates) == []


def test_basic_2_with_a_piece_at_the_centre_it_goes_touching_it_on_the_far_side_from_the_player() -> None:
    engine = singles()
    updates = strike(engine, "S -> W2; off W2", rest_positions={"queen": [370.0, 370.0]})
    assert of_kind(updates, UpdateKind.INSTRUCTION)[0].data["position"] == [370.0, 339.0]  # north of the queen
    assert turn(engine) == "north"  # Bob sends a piece off in his turn
    updates = strike(engine, "S -> B2; off B2", rest_positions={"queen": [370.0, 370.0]})
    assert of_kind(updates, UpdateKind.INSTRUCTION)[0].data["position"] == [370.0, 401.0]  # south of her


def test_basic_2_a_piece_that_came_back_by_itself_stays_where_it_is() -> None:
    engine = singles()
    assert codes(strike(engine, "S -> W2; off W2 back")) == ["turn"]


def test_other_3_a_striker_at_rest_under_a_piece_is_lifted_out() -> None:
    engine = singles()
    updates = strike(engine, "S -> W2", rest_positions={"striker": [300.0, 300.0], "white-2": [305.0, 300.0]})
    lift = of_kind(updates, UpdateKind.INSTRUCTION)[0]
    assert lift.code == "remove_striker" and lift.clause == "Other.3"


def test_a_placed_event_confirms_a_piece_the_referee_asked_for() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL", "S -> W3; pot S TL")
    assert codes(event(engine, "placed", "white-2")) == ["placed"]
    with pytest.raises(RefereeError, match="no white piece is due back"):
        event(engine, "placed", "white-3")


def test_hands_on_the_board_moved_is_noted_removed_is_refused() -> None:
    engine = singles()
    assert codes(event(engine, "moved", "black-4")) == ["hand_moved"]
    assert event(engine, "removed", "striker") == []
    with pytest.raises(RefereeError, match="taken off the board by hand"):
        event(engine, "removed", "black-4")
    strike(engine, "S -> W; norest")
    with pytest.raises(RefereeError, match="during a strike"):
        event(engine, "moved", "black-4")


def test_a_pot_of_a_piece_already_pocketed_is_refused_and_changes_nothing() -> None:
    engine = singles()
    strike(engine, "S -> W2; pot W2 TL")
    strike(engine, "S -> W3; norest")
    before = engine.state_json()
    with pytest.raises(RefereeError, match="white-2 is already pocketed"):
        event(engine, "pot", "white-2", where="pocket-top-left")
    assert engine.state_json() == before


def test_a_penalty_piece_back_on_the_board_may_drop_again_under_its_old_id() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL", "S -> W3; pot S TR")  # white-2 comes back as the penalty piece
    strike(engine, "S -> B4")  # Bob
    assert fouls(strike(engine, "S -> W2; pot W2 TL")) == []


def test_a_pot_from_an_empty_board_is_refused() -> None:
    engine = singles()
    for k in range(2, 10):
        strike(engine, f"S -> W{k}; pot W{k} TL")
    strike(engine, "S -> Q -> W1; pot W1 TL; norest")  # the last white is down
    with pytest.raises(RefereeError, match="no white piece is on the board"):
        event(engine, "pot", "white", where="pocket-top-left")


@pytest.mark.parametrize(
    ("event_args", "needle"),
    [
        (("pot", ("white-1",), "pocket-middle"), "unknown pocket"),
        (("pot", ("red",), None), "unknown carrom object"),
        (("pot", ("white-12",), None), "unknown carrom object"),
        (("pot", (), None), "names the object"),
        (("contact", ("striker",), None), "two objects"),
        (("shot_start", ("striker",), None), "before the last one came to rest"),
        (("card_played", (), None), "no meaning on a carrom board"),
        (("pin_fall", (), None), "accepted: shot_start"),
    ],
)
def test_impossible_events_are_refused_with_a_clear_message(event_args: tuple[str, tuple[str, ...], str | None],
                                                             needle: str) -> None:
    engine = singles()
    strike(engine, "S -> W2; norest")
    type_, objects, where = event_args
    before = engine.state_json()
    with pytest.raises(RefereeError, match=needle):
        engine.apply(TableEvent(t=50.0, type=EventType(type_), objects=objects, where=where))
    assert engine.state_json() == before


def test_strike_events_outside_a_strike_are_refused() -> None:
    engine = singles()
    with pytest.raises(RefereeError, match="no strike in play"):
        event(engine, "contact", "striker", "white-1")
    with pytest.raises(RefereeError, match="no finished strike"):
        CarromsEngine().apply(TableEvent(t=1.0, type=EventType.POT, objects=("white-1",)))


def test_a_shot_start_names_the_striker() -> None:
    engine = singles()
    with pytest.raises(RefereeError, match="made with the striker"):
        event(engine, "shot_start", "white-1")


def test_unknown_inputs_list_the_accepted_kinds() -> None:
    with pytest.raises(RefereeError, match="accepted: players, toss, break_winner, add_foul, overrule"):
        say(CarromsEngine(), "called_shot")


def test_a_late_pot_after_the_rest_belongs_to_the_last_strike() -> None:
    engine = singles()
    updates = strike(engine, "S -> W2")
    assert turn(engine) == "north"
    updates = event(engine, "pot", "white-2", where="pocket-top-left")  # it teetered and dropped
    assert of_kind(updates, UpdateKind.PHASE)[0].code == "rejudged"
    assert turn(engine) == "south" and on_board(engine)["white"] == 8


def test_a_late_striker_pot_turns_a_legal_strike_into_a_due() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL", "S -> W3; pot W3 TL")
    event(engine, "pot", "striker", where="pocket-top-left")
    # a double due: white-3 and a penalty piece (white-2) come back, and Ann strikes again
    assert engine.state["last"]["judged"] == ["double_due"] and on_board(engine)["white"] == 9
    assert turn(engine) == "south"


def test_overrule_cancels_a_foul_call() -> None:
    engine = singles()
    strike(engine, "S -> W2; pot W2 TL")
    strike(engine, "@moon; S -> W3; pot W3 TL")  # white-3 and a penalty piece come back
    assert turn(engine) == "north" and on_board(engine)["white"] == 9
    updates = say(engine, "overrule", foul="cut_the_moon")
    assert fouls(updates) == [] and turn(engine) == "south" and on_board(engine)["white"] == 7
    with pytest.raises(RefereeError, match="fouls called: none"):
        say(engine, "overrule", foul="cut_the_moon")


def test_overrule_a_pot_the_camera_saw_wrongly() -> None:
    engine = singles()
    strike(engine, "S -> W2; pot W2 TL")
    assert turn(engine) == "south"
    say(engine, "overrule", pot="white-2")
    assert turn(engine) == "north" and on_board(engine)["white"] == 9
    with pytest.raises(RefereeError, match="no pot of black"):
        say(engine, "overrule", pot="black")


def test_overrule_the_first_contact() -> None:
    engine = singles()
    assert fouls(strike(engine, "S -> B2")) == ["opponent_piece_first"]
    assert fouls(say(engine, "overrule", first_contact="white-3")) == []
    assert fouls(say(engine, "overrule", first_contact="black-2")) == ["opponent_piece_first"]


def test_overrule_needs_exactly_one_correction_and_a_finished_strike() -> None:
    engine = singles()
    with pytest.raises(RefereeError, match="no finished strike"):
        CarromsEngine().apply(say_item("overrule", foul="cut_the_moon"))
    strike(engine, "S -> W2")
    with pytest.raises(RefereeError, match="takes one of"):
        say(engine, "overrule", foul="x", pot="y")
    strike(engine, "S -> B2; norest")
    with pytest.raises(RefereeError, match="wait for at_rest"):
        say(engine, "overrule", pot="black-2")


def say_item(kind: str, **data: object) -> HumanInput:
    return HumanInput(t=1.0, kind=kind, data=data)


def test_a_rejudged_board_winning_strike_corrects_the_score() -> None:
    engine = singles()
    updates = clear_board(engine)
    assert engine.scores() == {"Ann": 14, "Bob": 0}
    updates = event(engine, "pot", "striker", where="pocket-top-left")  # the striker followed the last white
    correction = of_kind(updates, UpdateKind.SCORE)
    assert [(u.player, u.points) for u in correction] == [("Ann", -14)]
    assert engine.scores() == {"Ann": 0, "Bob": 0} and engine.state["phase"] == "ready"


def test_items_after_the_rest_are_replayed_when_the_strike_is_judged_again() -> None:
    engine = singles()
    play(engine, "S -> W2; pot W2 TL", "S -> W3")  # Ann's turn ends
    say(engine, "add_foul", code="touched_piece", seat="north")  # Bob touches a piece: owed
    event(engine, "pot", "white-3", where="pocket-bottom-left")  # the white drops late: Ann goes on
    assert turn(engine) == "south" and engine.state["owed"]["Bob"] == 1 and on_board(engine)["white"] == 7


def test_options_are_checked_and_unknown_ones_refused() -> None:
    with pytest.raises(ValueError, match="accepted"):
        make_engine("carroms", queen_value=3)
    with pytest.raises(ValueError, match="next_strike, same_turn"):
        CarromsEngine(queen_cover="whenever")
    with pytest.raises(ValueError, match="whole number"):
        CarromsEngine(match_points=-1)
    with pytest.raises(ValueError, match="true or false"):
        CarromsEngine(delay_is_foul="yes")
    with pytest.raises(ValueError, match="unknown seat"):
        CarromsEngine(baselines={"top": {"front": [[0, 0], [1, 0]], "back": [[0, 1], [1, 1]]}})
    with pytest.raises(ValueError, match="point"):
        CarromsEngine(centre=[1])


def test_the_registry_builds_the_carroms_engine() -> None:
    assert isinstance(make_engine("carroms"), CarromsEngine)


def test_state_and_updates_are_json() -> None:
    import json

    engine = singles()
    updates = play(engine, "S -> W2; pot W2 TL", "S -> Q; pot Q TR; pot S TL")
    json.dumps([u.to_json() for u in updates])
    assert json.loads(engine.state_json())["board"] == 1
