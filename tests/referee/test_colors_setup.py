"""Colors: refereeing a set that is already in progress (the ``setup`` input).

The referee enters the balls still on the table, who is at the table and the scores; a colour with
both balls down is already scored, unless the shooter is still owed its point (``pending``: point
balls waiting for the black) or owes a companion (``window``). Every shot after it is judged as if
the engine had watched the set get there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tableref.events import HumanInput, parse_line
from tableref.referee import RefereeError, UpdateKind
from tableref.referee.colors import ColorsEngine
from tests.referee.test_pool_notation import COLORS_RACK, Play, codes, colors, fouls, points, shot

#: cue, black, the 2 and its companion 10, the 11 (the 3 is down), the 6 and 14; 1-9, 4-12, 5-13 and 7-15 are down
TABLE = {"ball-0": [400.0, 300.0], "ball-8": [1300.0, 640.0], "ball-2": [900.0, 900.0], "ball-10": [2200.0, 300.0],
         "ball-11": [1700.0, 1000.0], "ball-6": [600.0, 1100.0], "ball-14": [2000.0, 800.0]}


def documented_setups(doc: str) -> list[HumanInput]:
    """The ``setup`` examples of ``docs/referee/<doc>.md`` (its JSON blocks, one input a line)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "referee" / f"{doc}.md").read_text("utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
    items = [parse_line(line) for block in blocks for line in block.splitlines() if '"input": "setup"' in line]
    return [i for i in items if isinstance(i, HumanInput) and i.kind == "setup"]


def set_up(play: Play, **data: Any) -> list[Any]:
    return play.input("setup", **data)


def mid_set(**extra: Any) -> Play:
    play = colors()
    data: dict[str, Any] = {"on_table": TABLE, "player": "Bob", "scores": {"Ann": 2, "Bob": 1}}
    data.update(extra)
    set_up(play, **data)
    return play


def test_setup_is_one_of_the_input_kinds_the_tablet_offers() -> None:
    assert "setup" in ColorsEngine().input_kinds()


def test_a_set_resumed_mid_way_counts_the_colours_with_both_balls_down_as_scored() -> None:
    play = mid_set()
    assert play.core["eliminated"] == [1, 4, 5, 7] and play.core["phase"] == "play"
    assert play.core["turn"] == "Bob" and play.core["in_hand"] == "" and play.scores() == {"Ann": 2, "Bob": 1}
    out = play.shot("0 -> 2; 2 -> 10; pot 2; pot 10 top-right")  # companions on one shot
    assert codes(out, UpdateKind.SCORE) == ["companions"] and play.scores() == {"Ann": 2, "Bob": 2}


def test_a_resumed_set_makes_the_11_a_point_ball_that_needs_the_black() -> None:
    play = mid_set()
    out = play.shot("0 -> 11; pot 11")  # its companion (the 3) is down: a point ball
    assert points(out) == 0 and "owe_black" in codes(out, UpdateKind.INFO)
    out = play.shot("0 -> 8; pot 8 bottom-right")
    assert codes(out, UpdateKind.SCORE) == ["point_ball_and_black"] and play.scores()["Bob"] == 2


def test_a_point_ball_pending_at_the_setup_scores_when_the_black_follows() -> None:
    table = {k: v for k, v in TABLE.items() if k != "ball-11"}
    play = mid_set(on_table=table, pending=["ball-11"])
    assert play.core["pending"] == [11] and 3 not in play.core["eliminated"]
    out = play.shot("0 -> 8; pot 8")
    assert codes(out, UpdateKind.SCORE) == ["point_ball_and_black"] and play.scores() == {"Ann": 2, "Bob": 2}


def test_a_companion_owed_at_the_setup_scores_on_the_next_shot() -> None:
    table = {k: v for k, v in TABLE.items() if k != "ball-6"}
    play = mid_set(on_table=table, window=["ball-14"])
    out = play.shot("0 -> 14; pot 14")
    assert codes(out, UpdateKind.SCORE) == ["companions"] and play.scores()["Bob"] == 2


def test_the_black_left_off_the_setup_is_spotted_and_the_cue_ball_off_the_table_is_in_hand() -> None:
    table = {k: v for k, v in TABLE.items() if k not in ("ball-8", "ball-0")}
    play = colors()
    out = set_up(play, on_table=table, player="Ann")
    assert [(u.code, u.data.get("spot")) for u in out if u.kind is UpdateKind.INSTRUCTION] == [("spot_black", "centre spot")]
    assert 8 in play.core["on_table"] and play.core["in_hand"] == "anywhere"
    out = play.shot("0 @ 1000,500 -> 2; rail 2")  # ball in hand: striking it puts it on the table
    assert fouls(out) == []


def test_a_setup_before_any_break_names_who_breaks_from_the_kitchen() -> None:
    play = colors(["Ann", "Bob", "Cid"])
    rack = {k: v for k, v in COLORS_RACK.items() if k != "ball-0"}
    set_up(play, on_table=rack, player="Cid")
    assert play.core["phase"] == "break" and play.core["breaker"] == "Cid" and play.core["in_hand"] == "kitchen"
    out = play.shot("0 @ 300,635 -> 8; rail 1 2 3 4", positions=COLORS_RACK)
    assert fouls(out) == [] and play.core["phase"] == "play"


def test_the_last_colour_scored_after_a_setup_ends_the_set() -> None:
    table = {"ball-0": [400.0, 300.0], "ball-8": [1300.0, 640.0], "ball-7": [900.0, 900.0], "ball-15": [2200.0, 300.0]}
    play = mid_set(on_table=table)
    assert len(play.core["eliminated"]) == 6
    out = play.shot("0 -> 7; 7 -> 15; pot 7; pot 15")
    assert "next_rack" in codes(out, UpdateKind.PHASE) and play.core["rack"] == 2 and play.core["turn"] == "Bob"


@pytest.mark.parametrize(("data", "match"), [
    ({"on_table": TABLE, "pending": ["ball-2"]}, "'pending' lists ball-2.*must be pocketed"),
    ({"on_table": TABLE, "window": ["ball-10"]}, "'window' lists ball-10.*companion ball-2 pocketed"),
    ({"on_table": TABLE, "window": "ball-14"}, "lists ball ids"),
    ({"on_table": TABLE, "scores": {"Ann": 11}}, "would be over"),
    ({"on_table": TABLE, "scores": {"Ann": -1}}, "whole number >= 0"),
    ({"on_table": TABLE, "in_hand": "behind the line"}, "'in_hand' is one of anywhere, kitchen, as_it_lies"),
    ({"on_table": {k: v for k, v in TABLE.items() if k != "ball-0"}, "in_hand": "as_it_lies"}, "cannot be played"),
    ({"on_table": {"ball-0": [400.0, 300.0], "ball-8": [1300.0, 640.0]}}, "every colour is scored"),
    ({"on_table": TABLE, "rack": 0}, "'rack'"),
    ({"on_table": TABLE, "direction": "up"}, "does not know 'direction'"),
])
def test_a_malformed_setup_is_refused_saying_what_is_accepted_and_changes_nothing(data: dict[str, Any],
                                                                                  match: str) -> None:
    play = mid_set()
    before = play.engine.state_json()
    with pytest.raises(RefereeError, match=match):
        set_up(play, **data)
    assert play.engine.state_json() == before


def test_a_setup_is_refused_while_the_balls_roll() -> None:
    play = mid_set()
    play.apply(shot("0 -> 2")[0])
    with pytest.raises(RefereeError, match="between shots"):
        set_up(play, on_table=TABLE)


def test_undo_takes_a_setup_back_exactly() -> None:
    play = mid_set()
    play.shot("0 -> 2; 2 -> 10; pot 2; pot 10 top-right")
    before, scores = play.engine.state_json(), play.scores()
    set_up(play, on_table=TABLE, player="Ann", scores={"Ann": 5, "Bob": 0})
    play.engine.undo()
    assert play.engine.state_json() == before and play.scores() == scores


def test_every_documented_setup_example_is_accepted_by_a_fresh_game_between_ann_and_bob() -> None:
    examples = documented_setups("colors")
    assert len(examples) >= 2
    for example in examples:
        colors().apply(example)
