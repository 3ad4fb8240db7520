"""Up and Down: refereeing a game that is already in progress (the ``setup`` input).

A venue switches tableref on halfway through a game, or the camera restarts: the referee enters the
balls still on the table, who is at the table, the scores and, once a called shot has been made,
the directions. Every shot after it is judged as if the engine had watched the game get there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tableref.events import HumanInput, parse_line
from tableref.referee import RefereeError, UpdateKind
from tableref.referee.up_and_down import UpAndDownEngine
from tests.referee.test_pool_notation import (
    Play,
    break_shot,
    call,
    codes,
    fouls,
    make,
    points,
    racked,
    shot,
    up_and_down,
)

SPREAD = {"ball-0": [400.0, 300.0], "ball-5": [900.0, 600.0], "ball-6": [1500.0, 400.0], "ball-9": [2000.0, 900.0],
          "ball-12": [1200.0, 1000.0]}


def documented_setups(doc: str) -> list[HumanInput]:
    """The ``setup`` examples of ``docs/referee/<doc>.md`` (its JSON blocks, one input a line)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "referee" / f"{doc}.md").read_text("utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
    items = [parse_line(line) for block in blocks for line in block.splitlines() if '"input": "setup"' in line]
    return [i for i in items if isinstance(i, HumanInput) and i.kind == "setup"]


def set_up(play: Play, **data: Any) -> list[Any]:
    return play.input("setup", **data)


def mid_game(**extra: Any) -> Play:
    """Five balls left; Bob (shooting up) is at the table, 3-1 down."""
    play = up_and_down()
    data: dict[str, Any] = {"on_table": SPREAD, "player": "Bob", "scores": {"Ann": 3, "Bob": 1}, "direction": "up"}
    data.update(extra)
    set_up(play, **data)
    return play


def test_setup_is_one_of_the_input_kinds_the_tablet_offers() -> None:
    assert "setup" in UpAndDownEngine().input_kinds()


def test_a_game_resumed_with_the_directions_fixed_scores_the_next_called_ball() -> None:
    play = mid_game()
    assert play.core["on_table"] == [0, 5, 6, 9, 12] and play.core["phase"] == "play"
    assert play.core["directions"] == {"Bob": "up", "Ann": "down"} and play.core["turn"] == "Bob"
    out = make(play, 5, 6)
    assert codes(out, UpdateKind.SCORE) == ["pocketed_as_called"]
    assert play.scores() == {"Ann": 3, "Bob": 2} and play.core["turn"] == "Bob"  # shoots again


def test_a_resumed_game_calls_a_foul_for_an_uncalled_ball_and_passes_the_turn() -> None:
    play = mid_game()
    out = call(play, 6, cue=5) + play.shot("5 -> 6; 6 -> 9; pot 9")
    assert fouls(out) == ["uncalled_ball_potted"] and points(out) == -1
    assert play.scores() == {"Ann": 3, "Bob": 0} and play.core["turn"] == "Ann"


def test_with_no_direction_given_the_table_stays_open_and_the_first_made_call_fixes_it() -> None:
    play = up_and_down()
    set_up(play, on_table=SPREAD, player="Ann")
    assert play.core["directions"] == {}
    call(play, 5, cue=6)  # going down from the 6: legal on an open table
    play.shot("6 -> 5; pot 5")
    assert play.core["directions"] == {"Ann": "down", "Bob": "up"}


def test_the_obvious_call_is_inferred_after_a_setup_once_the_direction_is_fixed() -> None:
    play = mid_game()
    out = play.shot("9 -> 12; pot 12")  # Bob up from the 9: the 12 is the only object ball
    assert "call_inferred" in codes(out, UpdateKind.INFO) and points(out) == 1


def test_a_setup_before_any_break_names_who_breaks() -> None:
    play = up_and_down()
    out = set_up(play, on_table=racked(), player="Bob")
    assert play.core["phase"] == "break" and play.core["breaker"] == "Bob" and play.core["turn"] == "Bob"
    assert codes(out, UpdateKind.TURN) == ["turn"]
    break_shot(play)
    assert play.core["phase"] == "play" and play.core["turn"] == "Ann"  # Bob's legal break, nothing down


def test_a_setup_before_the_first_shot_without_a_player_is_refused() -> None:
    play = up_and_down()
    before = play.engine.state_json()
    with pytest.raises(RefereeError, match="needs 'player'.*Ann, Bob"):
        set_up(play, on_table=racked())
    assert play.engine.state_json() == before


def test_a_full_rack_can_be_a_game_in_play_when_the_setup_says_it_is_not_a_break() -> None:
    play = up_and_down()
    set_up(play, on_table=racked(), player="Bob", **{"break": False})
    assert play.core["phase"] == "play" and play.core["directions"] == {}


@pytest.mark.parametrize(("data", "match"), [
    ({"on_table": {"ball-16": [900, 300]}}, "not a pool ball; accepted: ball-0"),
    ({"on_table": {"cue": [900, 300]}}, "not a pool ball"),
    ({"on_table": {"ball-3": [2600, 300], "ball-4": [900, 300]}}, "off the table.*0..2540 x 0..1270"),
    ({"on_table": {"ball-3": [900, 300], "ball-03": [1200, 300]}}, "lists ball-3 twice"),
    ({"on_table": {"ball-3": [900, 300], "ball-4": [910, 300]}}, "same place.*listed once"),
    ({"on_table": SPREAD, "player": "Cid"}, "must be one of the players Ann, Bob"),
    ({"on_table": SPREAD, "scores": {"Ann": 1.5}}, "whole number"),
    ({"on_table": SPREAD, "direction": "sideways"}, "'up' or 'down'"),
    ({"on_table": SPREAD, "directions": "up"}, "does not know 'directions'; accepted: on_table, player"),
    ({"on_table": SPREAD, "break": True}, "needs a full rack on the table; missing: ball-1"),
    ({"on_table": {"ball-0": [400, 300]}}, "at least two balls"),
    ({"on_table": ["ball-0", "ball-1"]}, "needs 'on_table'"),
])
def test_a_malformed_setup_is_refused_saying_what_is_accepted_and_changes_nothing(data: dict[str, Any],
                                                                                  match: str) -> None:
    play = mid_game()
    before = play.engine.state_json()
    with pytest.raises(RefereeError, match=match):
        set_up(play, **data)
    assert play.engine.state_json() == before


def test_a_setup_is_refused_while_the_balls_roll() -> None:
    play = mid_game()
    play.apply(shot("5 -> 6")[0])  # the shot has started: no at_rest yet
    with pytest.raises(RefereeError, match="between shots"):
        set_up(play, on_table=SPREAD)


def test_undo_takes_a_setup_back_exactly() -> None:
    play = up_and_down()
    break_shot(play)
    before, scores = play.engine.state_json(), play.scores()
    set_up(play, on_table=SPREAD, player="Ann", scores={"Ann": -2, "Bob": 4}, direction="down")
    assert play.scores() == {"Ann": -2, "Bob": 4}
    play.engine.undo()
    assert play.engine.state_json() == before and play.scores() == scores


def test_after_a_setup_the_last_shot_can_no_longer_be_revised() -> None:
    play = mid_game()
    make(play, 5, 6)
    set_up(play, on_table={k: v for k, v in SPREAD.items() if k != "ball-6"})
    with pytest.raises(RefereeError, match="no judged shot to revise"):
        play.input("add_foul", code="general_rules")


def test_in_a_match_the_setup_scores_are_totals_and_the_game_score_moves_with_them() -> None:
    play = up_and_down(match_games=2)
    set_up(play, on_table=SPREAD, player="Ann", scores={"Ann": 2, "Bob": -1})
    assert play.core["game_scores"] == {"Ann": 2, "Bob": -1}
    total = sum(u.points or 0 for u in play.updates if u.kind is UpdateKind.SCORE and u.player == "Ann")
    assert total == play.scores()["Ann"] == 2  # the score contract: SCORE updates add up to scores()


def test_every_documented_setup_example_is_accepted_by_a_fresh_game_between_ann_and_bob() -> None:
    examples = documented_setups("up-and-down")
    assert len(examples) >= 2
    for example in examples:
        up_and_down().apply(example)


def test_the_players_are_named_before_a_setup_and_not_after_it() -> None:
    """A renaming after a setup would wipe the scores it set without a SCORE update (the score contract)."""
    play = up_and_down()
    set_up(play, on_table=racked(), player="Bob", scores={"Ann": 1, "Bob": 0})
    with pytest.raises(RefereeError, match="named before the first shot"):
        play.input("players", names=["Cat", "Dan"])
    with pytest.raises(RefereeError, match="before the first shot"):
        play.input("break_winner", player="Ann")
