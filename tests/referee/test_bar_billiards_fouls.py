"""Bar billiards, rule 3: every foul of 3a and 3b, combinations, calls from the tablet, overrules."""

from __future__ import annotations

import pytest

from tableref.referee import UpdateKind
from tableref.referee.bar_billiards_rules import FOULS, Foul, Penalty
from tests.referee.test_bar_billiards_notation import Table, fouls, instructions, kinds, nonzero, score_sum


def home_banked_250() -> Table:
    """home has 250 on the scoreboard; away is at the table with the red and a white lying out."""
    table = Table()
    table.play("toss home; break; hit red; pot red 100; rest white-1@900,300")
    table.play("shot red; hit white-1; pot white-1 50-left; rest red@1000,200")
    table.play("shot white; hit red; rest red@1000,250 white-1@1200,500")
    assert table.scores() == {"home": 250, "away": 0} and table.state["visitor"] == "away"
    return table


def away_break_300_home_banked_250() -> Table:
    table = home_banked_250()
    table.play("shot white; hit red; pot red 50-left; rest white-1@1200,500 white-2@800,300")
    table.play("shot red; hit white-2; pot white-2 200; rest")
    assert table.state["break_points"] == 300
    return table


def test_every_foul_code_has_a_clause_a_penalty_and_a_sentence() -> None:
    for code in Foul:
        spec = FOULS[code]
        assert spec.clause[0] in "23" and spec.text
    assert {FOULS[c].penalty for c in Foul} == {Penalty.BREAK, Penalty.SCORE}
    assert sorted({FOULS[c].clause for c in Foul if FOULS[c].clause.startswith("3b")}) == [
        f"3b({letter})" for letter in "abcdefghijklmnopq"]
    assert sorted({FOULS[c].clause for c in Foul if FOULS[c].clause.startswith("3a")}) == [
        f"3a({letter})" for letter in "abcd"]


# -- 3a: the whole score ------------------------------------------------------------------------


def test_3a_a_the_pin_guarding_200_wipes_the_banked_score() -> None:
    table = home_banked_250()
    table.play("shot white; hit red; rest red@1000,250 white-1@1200,500 white-2@900,400")  # away blank
    updates = table.play("shot white; hit red; fall 200; rest")
    foul = kinds(updates, UpdateKind.FOUL)[0]
    assert (foul.code, foul.clause, foul.player, foul.points) == ("pin_200_down", "3a(a)", "home", -250)
    assert "black pin" in foul.text
    assert [u.points for u in kinds(updates, UpdateKind.SCORE)] == [-250]
    assert nonzero(table.scores()) == score_sum(table.updates) == {}


def test_3a_a_6_after_a_pin_swap_the_red_pin_on_200_still_wipes_the_score() -> None:
    table = Table()
    table.play("! pin_swap home_agrees=true; toss home; break; hit red; pot red 100; rest white-1@900,300")
    table.play("shot red; hit white-1; rest red@1000,250 white-1@1200,500")
    assert table.scores()["home"] == 200
    table.play("shot white; hit red; rest red@1000,250 white-1@1200,500 white-2@900,400")
    updates = table.play("shot white; hit red; fall 200; rest")
    foul = kinds(updates, UpdateKind.FOUL)[0]
    assert foul.code == "pin_200_down" and "red pin" in foul.text
    assert table.scores()["home"] == 0


def test_3b_a_6_the_black_pin_moved_to_guard_100_costs_only_the_break() -> None:
    table = Table()
    table.play("! pin_swap; toss home; break; hit red; pot red 100; rest white-1@900,300")
    table.play("shot red; hit white-1; rest red@1000,250 white-1@1200,500")
    table.play("shot white; hit red; rest red@1000,250 white-1@1200,500 white-2@900,400")
    updates = table.play("shot white; hit red; fall 100; rest")
    foul = kinds(updates, UpdateKind.FOUL)[0]
    assert (foul.code, foul.clause) == ("pin_down", "3b(a)") and "black pin" in foul.text
    assert table.scores()["home"] == 200


def test_6_pins_are_swapped_only_at_a_frames_start_and_with_the_home_players_consent() -> None:
    Table().refuse("! pin_swap home_agrees=false", "home player agrees")
    table = Table()
    table.play("toss home; break; hit red; rest white-1@900,300 red@1000,400")
    table.refuse("! pin_swap", "start of a frame")


def test_3a_c_a_deliberate_foul_costs_the_whole_score() -> None:
    table = away_break_300_home_banked_250()
    table.play("shot white; hit white-1; pot white-1 10-left; ! deliberate player=away; rest")
    foul = kinds(table.updates, UpdateKind.FOUL)[-1]
    assert (foul.code, foul.clause, foul.player) == ("deliberate", "3a(c)", "away")
    assert table.state["visitor"] == "home" and table.scores() == {"home": 250, "away": 0}


def test_3a_d_time_wasting_between_shots_costs_the_whole_score() -> None:
    table = home_banked_250()
    updates = table.play("! unsporting player=home")
    foul = kinds(updates, UpdateKind.FOUL)[0]
    assert (foul.code, foul.clause, foul.player) == ("unsporting", "3a(d)", "home")
    assert table.scores() == {"home": 0, "away": 0}
    assert table.state["visitor"] == "away"  # home was not at the table: away carries on


def test_3a_d_conceding_a_frame_before_its_end_forfeits_it() -> None:
    table = home_banked_250()
    updates = table.play("! concede player=home")
    assert fouls(updates) == ["unsporting"]
    over = kinds(updates, UpdateKind.GAME_OVER)[0]
    assert over.player == "away"
    outcome = table.engine.outcome()
    assert outcome is not None and outcome.winner == "away" and outcome.scores["home"] == 0


# -- 3b: the break only -------------------------------------------------------------------------


def test_3b_c_a_ball_cued_from_outside_the_d() -> None:
    table = home_banked_250()
    updates = table.play("shot white @420,300; hit red; pot red 30; rest")
    foul = kinds(updates, UpdateKind.FOUL)[0]
    assert (foul.code, foul.clause) == ("cued_outside_d", "3b(c)")


def test_3b_c_a_ball_played_where_it_lies_on_the_table() -> None:
    table = home_banked_250()
    updates = table.play("shot white @1200,500; hit red; rest")
    assert fouls(updates) == ["cued_outside_d"]
    assert table.state["trough_white"] == 6  # the white in play was used, not one from the trough


def test_3b_d_a_miss() -> None:
    table = home_banked_250()
    updates = table.play("shot white; hit pin-50-left; cushion top; rest")
    foul = kinds(updates, UpdateKind.FOUL)[0]
    assert (foul.code, foul.clause) == ("miss", "3b(d)")


def test_3b_e_the_red_not_played_when_in_the_trough() -> None:
    table = Table()
    table.play("toss home; break; hit red; pot red 30; rest white-1@900,300")
    updates = table.play("shot white; hit white-1; rest")
    assert kinds(updates, UpdateKind.FOUL)[0].clause == "3b(e)"


@pytest.mark.parametrize(("call", "code", "clause"), [
    ("jump", "jump", "3b(k)"),
    ("push", "push", "3b(l)"),
    ("not_tip", "not_tip", "3b(m)"),
    ("before_rest", "before_rest", "3b(n)"),
    ("before_reset", "before_reset", "3b(o)"),
    ("double_hit", "double_hit", "3b(q)"),
    ("not_from_d", "cued_outside_d", "3b(c)"),
    ("handling", "handling", "3b(g)"),
])
def test_3b_fouls_only_a_human_can_see_are_called_from_the_tablet_during_the_shot(call: str, code: str,
                                                                                  clause: str) -> None:
    table = away_break_300_home_banked_250()
    updates = table.play(f"shot white; ! {call}; hit white-1; pot white-1 30; rest")
    foul = kinds(updates, UpdateKind.FOUL)[0]
    assert (foul.code, foul.clause, foul.player, foul.points) == (code, clause, "away", -300)
    assert table.state["visitor"] == "home" and table.scores() == {"home": 250, "away": 0}


@pytest.mark.parametrize("call", ["jump", "push", "not_tip", "double_hit", "deliberate"])
def test_3b_a_call_made_after_the_balls_stop_judges_that_shot_again(call: str) -> None:
    table = away_break_300_home_banked_250()
    table.play("shot white; hit white-1; pot white-1 30; rest")
    assert table.state["break_points"] == 330
    updates = table.play(f"! {call}")
    assert updates[0].data.get("rejudged") and fouls(updates) == [call]
    assert table.state["visitor"] == "home" and table.state["break_points"] == 0
    assert nonzero(table.scores()) == score_sum(table.updates)


def test_3b_j_a_break_off_called_not_from_the_d_is_a_foul_break() -> None:
    table = Table()
    table.play("toss home; break; ! not_from_d; hit red; rest white-1@900,300 red@1000,400")
    assert fouls(table.updates) == ["break_not_from_centre"]
    assert table.state["option_for"] == "away"


def test_3b_n_striking_before_everything_stops_is_seen_by_the_camera() -> None:
    table = away_break_300_home_banked_250()
    updates = table.play("shot white; hit white-1; shot white; pot white-1 30; rest")
    assert fouls(updates) == ["before_rest"]


def test_3b_o_playing_before_a_ball_due_in_the_trough_is_taken_up() -> None:
    table = home_banked_250()
    table.play("shot white; hit red; baulk red; rest red@200,200 white-1@1200,500 white-2@900,400")
    assert table.state["visitor"] == "home"
    start = table.items_for("shot white")[0]
    assert start.type.value == "shot_start"  # type: ignore[union-attr]
    from tableref.events import EventType, TableEvent
    late = TableEvent(t=start.t, type=EventType.SHOT_START, objects=("white-9",),
                      data={"position": [260.0, 381.0], "positions": {"white-9": [260.0, 381.0],
                                                                     "red": [200.0, 200.0]}})
    table.apply(late)
    updates = table.play("hit white-1; rest")
    assert "before_reset" in fouls(updates)


def test_3b_o_playing_before_a_pin_is_reset() -> None:
    from tableref.events import EventType, TableEvent

    table = home_banked_250()
    table.play("shot white; hit red; fall 50-left; rest")
    start = TableEvent(t=99.0, type=EventType.SHOT_START, objects=("white-9",),
                       data={"position": [260.0, 381.0], "positions": {"pin-50-left": [1560.0, 120.0]}})
    table.apply(start)
    updates = table.play("hit red; rest")
    assert "before_reset" in fouls(updates)


def test_3b_p_out_of_turn_the_offender_scores_nothing_and_the_visit_stays_put() -> None:
    table = away_break_300_home_banked_250()
    updates = table.play("shot white; ! out_of_turn player=home; hit white-1; pot white-1 30; rest")
    foul = kinds(updates, UpdateKind.FOUL)[0]
    assert (foul.code, foul.clause, foul.player) == ("out_of_turn", "3b(p)", "home")
    assert table.state["visitor"] == "away" and table.state["break_points"] == 300
    table.refuse("shot white; ! out_of_turn player=away", "whose visit it is")


def test_3_a_combination_of_fouls_costs_the_highest_penalty() -> None:
    table = away_break_300_home_banked_250()
    table.play("shot white; rest white-1@1200,500 white-2@800,300")  # a miss: away loses 300
    updates = table.play("shot white; fall 50-right; fall 200; baulk cue; rest")
    applied = [u for u in kinds(updates, UpdateKind.FOUL) if u.data["applied"]]
    assert [u.code for u in applied] == ["pin_200_down"]
    assert set(applied[0].data["also"]) == {"pin_down", "miss", "ball_in_baulk"}
    assert len(kinds(updates, UpdateKind.FOUL)) == 4
    assert table.scores() == {"home": 0, "away": 0}
    assert instructions(updates).count("reset_pins") == 1


def test_3_after_a_foul_the_pins_are_reset() -> None:
    table = home_banked_250()
    updates = table.play("shot white; hit red; fall 50-left; nudge 100 1240,390; rest")
    reset = [u for u in updates if u.code == "reset_pins"][0]
    assert reset.data["pins"] == ["pin-100", "pin-50-left"]


# -- tablet corrections ---------------------------------------------------------------------------


def test_overrule_cancels_the_last_call_and_gives_back_what_it_took() -> None:
    table = home_banked_250()
    table.play("shot white; hit red; rest red@1000,250 white-1@1200,500 white-2@900,400")
    table.play("shot white; hit red; pot red 10-left; fall 200; rest")
    assert table.scores() == {"home": 0, "away": 0}
    updates = table.play("! overrule")
    assert updates[0].data["rejudged"]
    assert table.scores() == {"home": 250, "away": 0} and score_sum(table.updates) == {"home": 250}
    assert table.state["visitor"] == "home" and table.state["break_points"] == 20


def test_overrule_of_a_call_made_between_shots() -> None:
    table = home_banked_250()
    table.play("! unsporting player=home")
    table.play("! overrule code=unsporting")
    assert table.scores() == {"home": 250, "away": 0} and score_sum(table.updates) == {"home": 250}


def test_overrule_during_a_shot_drops_a_call_made_by_mistake() -> None:
    table = away_break_300_home_banked_250()
    updates = table.play("shot white; ! push; ! overrule; hit white-1; pot white-1 30; rest")
    assert fouls(updates) == [] and table.state["break_points"] == 330


def test_overrule_is_refused_when_nothing_was_called_and_after_the_next_shot_starts() -> None:
    table = home_banked_250()
    table.refuse("! overrule", "no foul call to overrule")
    table = home_banked_250()
    table.play("shot white; hit red; fall 50-left; rest")
    table.refuse("shot white; ! overrule", "nothing was called yet")


def test_add_foul_records_a_foul_the_camera_missed() -> None:
    table = away_break_300_home_banked_250()
    table.play("shot white; hit white-1; pot white-1 30; rest")
    updates = table.play("! add_foul code=pin_down")
    assert fouls(updates) == ["pin_down"] and table.state["visitor"] == "home"
    table.refuse("! add_foul code=nonsense", "accepted: pin_200_down")


def test_unknown_inputs_list_the_accepted_kinds() -> None:
    error = Table().refuse("! teleport", "accepted: coin_toss")
    assert "invoke_endgame" in str(error) and "overrule" in str(error)


@pytest.mark.parametrize(("script", "message"), [
    ("fall 200; fall 200", "already down"),
    ("rest", "no shot is being played"),
    ("hit red", "while no shot"),
    ("shot red; cushion middle", "cushion-left"),
    ("shot red; pot red hole-7", "holes: hole-10-left"),
    ("shot red; hit red", "two different objects"),
    ("shot pink", "not a bar-billiards ball"),
    ("shot red; hit white-1; pot white-1 30; pot white-1 30", "already potted"),
])
def test_impossible_events_are_refused_with_a_clear_message(script: str, message: str) -> None:
    table = Table()
    table.play("toss home; break; hit red; rest white-1@900,300 red@1000,400")
    table.refuse(script, message)


def test_3b_e_a_white_played_while_the_red_was_already_placed_in_the_d() -> None:
    table = Table()
    table.play("toss home; break; hit red; pot red 30; rest white-1@900,300; place red @280,420")
    updates = table.play("shot white @250,340; hit white-1; rest")
    assert "red_not_played" in fouls(updates)
