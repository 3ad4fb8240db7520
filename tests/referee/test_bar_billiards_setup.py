"""Bar billiards: refereeing a frame that is already in progress (the ``setup`` input).

The camera or the service restarts mid-frame, or the venue switches tableref on halfway through:
the referee enters the table as it stands, and every shot after that is judged as if the engine
had watched the whole frame.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tableref.events import HumanInput, parse_line
from tableref.referee import RefereeError, UpdateKind, make_engine
from tests.referee.test_bar_billiards_notation import Table, fouls, instructions, kinds, nonzero, score_sum


def documented_setups(doc: str) -> list[HumanInput]:
    """The ``setup`` examples of ``docs/referee/<doc>.md`` (its JSON blocks, one input a line)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "referee" / f"{doc}.md").read_text("utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
    items = [parse_line(line) for block in blocks for line in block.splitlines() if '"input": "setup"' in line]
    return [i for i in items if isinstance(i, HumanInput) and i.kind == "setup"]


def set_up(table: Table, **data: Any) -> list[Any]:
    table.t += 0.5
    return table.apply(HumanInput(table.t, "setup", data))


def mid_frame(**extra: Any) -> Table:
    """Away is at the table 120-40 down with a break of 60 running; the red and two whites lie on the cloth."""
    table = Table()
    data: dict[str, Any] = {"on_table": {"red": [1000.0, 400.0], "white-1": [900.0, 300.0], "white-2": [1400.0, 600.0]},
                            "player": "away", "scores": {"home": 120, "away": 40}, "break": 60}
    data.update(extra)
    set_up(table, **data)
    return table


def test_setup_is_one_of_the_input_kinds_the_tablet_offers() -> None:
    assert "setup" in make_engine("bar-billiards").input_kinds()


def test_a_frame_resumed_mid_visit_puts_the_next_pot_on_top_of_the_running_break() -> None:
    table = mid_frame()
    assert table.scores() == {"home": 120, "away": 40}
    assert table.state["visitor"] == "away" and table.state["break_points"] == 60
    assert table.state["trough_white"] == 5 and table.state["trough_red"] == 0  # every other ball is in the trough
    updates = table.play("shot white; hit red; pot red 100; rest cue@1500,300")
    assert [u.points for u in kinds(updates, UpdateKind.BREAK)] == [200]
    assert table.state["break_points"] == 260
    updates = table.play("shot red; hit white-1; rest cue@1300,200 white-1@950,330")  # the red first; a blank: banked
    assert kinds(updates, UpdateKind.BREAK_BANKED)[0].points == 260
    assert table.scores() == {"home": 120, "away": 300} and table.state["visitor"] == "home"
    assert score_sum(table.updates) == nonzero(table.scores())  # the score contract holds across the setup


def test_a_resumed_frame_judges_a_foul_against_the_running_break_and_the_visit_passes() -> None:
    table = mid_frame()
    updates = table.play("shot white; hit red; fall 200; rest cue@1500,300 red@1100,420")
    assert fouls(updates, applied_only=True) == ["pin_200_down"]
    assert table.scores() == {"home": 120, "away": 0}  # 3a(a): the whole score, and the break with it
    assert table.state["visitor"] == "home"
    assert score_sum(table.updates) == nonzero(table.scores())


def test_the_red_waiting_in_the_trough_must_be_played_first_after_a_setup() -> None:
    """2c(c)/3b(e): the setup leaves the red off the cloth, so it is in the trough and a white is a foul."""
    table = Table()
    updates = set_up(table, on_table={"white-1": [900.0, 300.0]}, player="home")
    assert instructions(updates) == ["take_red"]
    assert fouls(table.play("shot white; hit white-1; rest cue@1200,300 white-1@950,330")) == ["red_not_played"]


def test_a_white_the_engine_never_saw_placed_is_played_from_the_d() -> None:
    """The motivating case: a fresh engine refuses everything until the toss; after a setup it referees."""
    table = Table()
    table.refuse("shot white @260,381", "coin_toss or break_winner first")
    set_up(table, on_table={"red": [1000.0, 400.0], "white-4": [260.0, 381.0]}, player="home")
    assert table.state["table"][1]["staged"] is True  # the white in the D was placed for the strike
    updates = table.play("shot white-4 @260,381; hit red; pot red 50-left; rest cue@1200,300")
    assert [u.points for u in kinds(updates, UpdateKind.BREAK)] == [100]
    assert fouls(updates) == []


def test_a_setup_before_any_toss_names_the_player_who_breaks_off() -> None:
    table = Table()
    updates = set_up(table, on_table={}, player="away")
    assert table.state["phase"] == "play" and table.state["visitor"] == "away"
    assert instructions(updates) == ["break_off"]
    updates = table.play("break; hit red; pot red 100; rest cue@900,300")
    assert kinds(updates, UpdateKind.BREAK)[0].player == "away" and table.state["break_points"] == 200


def test_a_setup_before_the_toss_without_a_player_is_refused_with_the_players_named() -> None:
    table = Table()
    before = table.engine.state_json()
    with pytest.raises(RefereeError, match="needs 'player'.*home, away"):
        set_up(table, on_table={"red": [1000.0, 400.0]})
    assert table.engine.state_json() == before


def test_a_break_off_already_set_up_on_the_spot_and_in_the_d_is_judged_as_a_break_off() -> None:
    table = Table()
    set_up(table, on_table={"red": [560.0, 381.0], "white-1": [305.0, 381.0]}, player="home")
    updates = table.play("break; cushion top; rest cue@900,300 red@560,381")
    assert fouls(updates, applied_only=True) == ["break_missed_red"]  # 2b(b)2, with the opponent's option
    assert kinds(updates, UpdateKind.CHOICE)[0].player == "away"


def test_a_ball_at_rest_in_baulk_goes_to_the_trough_and_a_strike_before_it_is_taken_up_is_3b_o() -> None:
    table = Table()
    updates = set_up(table, on_table={"red": [1000.0, 400.0], "white-1": [200.0, 120.0]}, player="home")
    assert [u.data["colour"] for u in updates if u.code == "return_to_trough"] == ["white"]
    assert table.state["trough_white"] == 7
    start = table.event("shot_start", ["white-9"], position=[260.0, 381.0],
                        positions={"white-9": [260.0, 381.0], "white-1": [200.0, 120.0], "red": [1000.0, 400.0]})
    table.apply(start)
    updates = table.play("hit red; rest cue@1200,300 red@1100,420")
    assert "before_reset" in fouls(updates)


def test_pins_knocked_down_are_to_be_reset_and_a_pin_moved_in_the_visit_stands_where_it_is() -> None:
    table = mid_frame(pins_down=["pin-50-left"], pins_moved={"pin-100": [1275.0, 390.0]})
    assert "reset_pins" in instructions(table.updates)
    pins = {p["id"]: p for p in table.state["pins"]}
    assert pins["pin-50-left"]["due_reset"] and pins["pin-100"]["x"] == 1275.0
    updates = table.play("shot white; hit red; rest cue@1500,300 red@1100,420")  # a blank: the visit ends
    assert [u.data["pins"] for u in updates if u.code == "reset_pins"] == [["pin-100"]]  # 2h: reset after the visit


def test_with_the_bar_down_and_one_ball_left_the_setup_starts_the_endgame() -> None:
    table = Table()
    updates = set_up(table, on_table={"white-1": [900.0, 300.0]}, player="home", scores={"home": 100, "away": 0},
                     clock_expired=True)
    assert table.state["phase"] == "endgame" and table.state["locked_white"] == 6 and table.state["locked_red"] == 1
    assert kinds(updates, UpdateKind.ENDGAME) and instructions(updates)[-1] == "play_from_centre"
    updates = table.play("shot white @305,381; cushion bottom; pot cue 200; rest")
    assert kinds(updates, UpdateKind.GAME_OVER)[0].player == "home"
    assert table.scores() == {"home": 300, "away": 0}


def test_with_the_bar_down_a_big_lead_offers_the_leader_the_endgame() -> None:
    table = Table()
    set_up(table, on_table={}, trough={"white": 1}, player="away", scores={"home": 500, "away": 0}, clock_expired=True)
    assert table.state["phase"] == "endgame_offer" and table.state["offer_to"] == "home"


@pytest.mark.parametrize(("data", "match"), [
    ({"on_table": {"ball-3": [900, 300]}, "player": "home"}, "unknown object id 'ball-3'.*'red', 'white-N'"),
    ({"on_table": {"red": [2500, 300]}, "player": "home"}, "off the table.*0..2134 x 0..762"),
    ({"on_table": {f"white-{n}": [400 + 100 * n, 300] for n in range(8)}, "player": "home"}, "8 whites.*7"),
    ({"on_table": {"red": [900, 300], "red-2": [1200, 300]}, "player": "home"}, "2 red balls; there is one red"),
    ({"on_table": {"white-1": [900, 300], "white-7": [905, 302]}, "player": "home"}, "listed once"),
    ({"on_table": {}, "player": "visitor"}, "'player' must be one of home, away"),
    ({"on_table": {}, "player": "home", "scores": {"home": -5}}, "whole number >= 0"),
    ({"on_table": {}, "player": "home", "score": {"home": 5}}, "does not know 'score'; accepted: on_table"),
    ({"player": "home"}, "needs 'on_table'"),
    ({"on_table": {"red": [900, 300]}, "player": "home", "trough": {"red": 1}}, "more balls than the table"),
    ({"on_table": {"red": [900, 300]}, "player": "home", "pins_down": ["pin-300"]}, "not a pin"),
    ({"on_table": {"white-1": "middle"}, "player": "home"}, r"\[x_mm, y_mm\]"),
])
def test_a_malformed_setup_is_refused_saying_what_is_accepted_and_changes_nothing(data: dict[str, Any],
                                                                                  match: str) -> None:
    table = mid_frame()
    before = table.engine.state_json()
    with pytest.raises(RefereeError, match=match):
        set_up(table, **data)
    assert table.engine.state_json() == before


def test_a_setup_is_refused_while_a_shot_is_being_played_and_after_the_frame_is_over() -> None:
    table = mid_frame()
    table.play("shot white; hit red")
    with pytest.raises(RefereeError, match="between shots"):
        set_up(table, on_table={}, player="home")
    table.play("rest cue@1200,300 red@1100,420; ! concede player=home")
    with pytest.raises(RefereeError, match="new_frame first"):
        set_up(table, on_table={}, player="home")


def test_undo_takes_a_setup_back_exactly() -> None:
    table = Table()
    table.play("toss home; break; hit red; pot red 100; rest cue@900,300")
    before, scores = table.engine.state_json(), table.scores()
    set_up(table, on_table={"white-1": [700.0, 500.0]}, player="away", scores={"home": 50, "away": 300})
    assert table.scores() == {"home": 50, "away": 300}
    table.engine.undo()
    assert table.engine.state_json() == before and table.scores() == scores


def test_after_a_setup_the_last_shot_is_no_longer_judged_again() -> None:
    """A ball dropping late after a setup is a stationary ball (2f(a)), not a teetering pot of a shot."""
    table = Table()
    table.play("toss home; break; hit red; rest cue@900,300 red@1000,400")
    set_up(table, on_table={"red": [1000.0, 400.0], "white-1": [900.0, 300.0]}, player="home")
    updates = table.play("late red 100 +1")
    assert instructions(updates) == ["replace_ball"] and table.state["break_points"] == 0


def test_a_league_frame_keeps_its_scorecard_and_pin_colours_through_a_setup() -> None:
    table = Table()
    table.play("! pin_swap; toss home")
    set_up(table, on_table={"red": [1000.0, 400.0]}, player="away")
    colours = {p["id"]: p["colour"] for p in table.state["pins"]}
    assert colours["pin-200"] == "red" and colours["pin-100"] == "black"


def test_every_documented_setup_example_is_accepted_by_a_fresh_engine() -> None:
    examples = documented_setups("bar-billiards")
    assert len(examples) >= 3
    for example in examples:
        make_engine("bar-billiards").apply(example)


def test_a_white_left_on_the_spot_with_the_red_in_the_trough_is_a_ball_in_play_not_a_break_off() -> None:
    table = Table()
    set_up(table, on_table={"white-1": [560.0, 381.0]}, player="home")
    assert table.state["table"][0]["staged"] is False
    updates = table.play("shot red; hit white-1; pot white-1 30; rest")
    assert fouls(updates) == [] and table.state["break_points"] == 30
