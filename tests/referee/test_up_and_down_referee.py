"""Up and Down: what the camera cannot settle alone (late drops, overrules, added fouls) and what cannot
happen (impossible events and inputs, which become questions and change nothing)."""

from __future__ import annotations

import pytest

from tableref.events import EventType, TableEvent
from tableref.referee import RefereeError, UpdateKind
from tableref.referee.up_and_down import UpAndDownEngine
from tests.referee.test_pool_notation import call, codes, fouls, inp, make, open_table, points, shot


def test_a_ball_that_drops_after_the_rest_belongs_to_the_shot_and_the_score_follows() -> None:
    play = open_table()
    out = call(play, 4, cue=3) + play.shot("3 -> 4; rail 4; rest; late pot 4")
    assert "late_ball" in codes(out, UpdateKind.INFO)
    assert play.scores() == {"Ann": 0, "Bob": 1} and play.core["turn"] == "Bob"
    assert sum(u.points or 0 for u in play.updates if u.kind is UpdateKind.SCORE) == 1


def test_a_late_drop_after_play_went_on_is_a_question() -> None:
    play = open_table()
    call(play, 4, cue=3)
    play.shot("3 -> 4; rail 4")
    call(play, 8, cue=7)
    with pytest.raises(RefereeError, match="no shot in progress"):
        play.apply(shot("0; rest; late pot 4", t=play.t)[-1])


def test_overrule_cancels_the_cameras_foul_and_the_shot_is_judged_again() -> None:
    play = open_table()
    out = call(play, 4, cue=3) + play.shot("3 -> 4; pot 4; off 9")
    assert fouls(out) == ["ball_off_table"] and play.scores()["Bob"] == -1
    out = play.input("overrule", foul=False)
    assert play.scores()["Bob"] == 1 and play.core["turn"] == "Bob"
    assert [u.points for u in out if u.kind is UpdateKind.SCORE] == [2]


def test_add_foul_the_referee_calls_a_general_rules_foul_the_camera_cannot_see() -> None:
    play = open_table()
    call(play, 4, cue=3)
    play.shot("3 -> 4; pot 4")
    out = play.input("add_foul", code="general_rules")
    assert fouls(out) == ["general_rules"]
    assert play.scores()["Bob"] == -1 and play.core["turn"] == "Ann"


def test_add_foul_while_the_balls_roll_is_applied_at_rest() -> None:
    play = open_table()
    events = shot("3 -> 10", t=play.t)
    play.apply(events[0])
    play.input("add_foul", code="general_rules")
    out = [u for e in events[1:] for u in play.apply(e)]
    assert "general_rules" in fouls(out) and points(out) == -1


def test_overrule_sets_a_score_or_the_turn_by_hand() -> None:
    play = open_table()
    out = play.input("overrule", score={"Ann": 2}, turn="Ann")
    assert play.scores() == {"Ann": 2, "Bob": 0} and play.core["turn"] == "Ann"
    assert codes(out, UpdateKind.TURN) == ["turn"]


def test_impossible_a_pot_of_a_ball_already_potted_changes_nothing() -> None:
    play = open_table()
    make(play, 3, 4)
    before = play.engine.state_json()
    events = shot("5 -> 6; pot 4", t=play.t)
    play.apply(events[0])
    play.apply(events[1])
    with pytest.raises(RefereeError, match="not on the table"):
        play.apply(events[2])
    play.engine.undo()
    play.engine.undo()
    assert play.engine.state_json() == before


def test_impossible_a_pot_from_an_empty_table() -> None:
    engine = UpAndDownEngine()
    with pytest.raises(RefereeError, match="no shot in progress"):
        engine.apply(TableEvent(t=1.0, type=EventType.POT, objects=("ball-3",), where="pocket-top-left"))


def test_impossible_a_new_shot_before_the_rest_and_an_unknown_pocket() -> None:
    play = open_table()
    events = shot("3 -> 4; pot 4 nowhere", t=play.t)
    play.apply(events[0])
    with pytest.raises(RefereeError, match="came to rest"):
        play.apply(events[0])
    play.apply(events[1])
    with pytest.raises(RefereeError, match="unknown pocket"):
        play.apply(events[2])


def test_impossible_a_struck_ball_that_is_not_on_the_table() -> None:
    play = open_table()
    make(play, 3, 4)
    with pytest.raises(RefereeError, match="not on the table"):
        play.shot("4 -> 5")


def test_unknown_inputs_list_the_accepted_kinds() -> None:
    play = open_table()
    with pytest.raises(RefereeError, match="accepted: players, break_winner, add_foul, overrule, setup, called_shot"):
        play.input("beg")
    with pytest.raises(RefereeError, match="accepted: break_wrong_cue_ball"):
        play.input("add_foul", code="push")


def test_venue_options_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown up-and-down option"):
        UpAndDownEngine(call_the_pocket=True)
    with pytest.raises(ValueError, match="rack_spot must be one of head, foot"):
        UpAndDownEngine(rack_spot="centre")
    with pytest.raises(ValueError, match="match_games"):
        UpAndDownEngine(match_games=0)


def test_players_and_break_winner_come_before_the_first_shot() -> None:
    engine = UpAndDownEngine()
    with pytest.raises(RefereeError, match="2 different names"):
        engine.apply(inp("players", names=["Ann", "Ann"]))
    engine.apply(inp("players", names=["Ann", "Bob"]))
    engine.apply(inp("break_winner", player="Bob"))
    assert engine.state["core"]["turn"] == "Bob"
    play = open_table()
    with pytest.raises(RefereeError, match="before the first shot"):
        play.input("break_winner", player="Bob")


def test_no_spotting_a_potted_ball_put_back_by_hand_is_reported() -> None:
    play = open_table()
    make(play, 3, 4)
    out = play.apply(TableEvent(t=play.t, type=EventType.PLACED, objects=("ball-4",), data={"position": [1905.0, 635.0]}))
    assert codes(out, UpdateKind.INFO) == ["never_spotted"] and 4 not in play.core["on_table"]
