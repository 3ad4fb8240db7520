"""Bar billiards, rules 2a-2h: the toss, the break-off, continuous play, the trough, scoring, pins."""

from __future__ import annotations

import pytest

from tableref.referee import RefereeError, UpdateKind, make_engine
from tests.referee.test_bar_billiards_notation import Table, fouls, instructions, kinds, nonzero, score_sum


def started(**options: object) -> Table:
    table = Table(**options)
    table.play("toss home")
    return table


# -- 2a the coin toss ----------------------------------------------------------------------------


def test_2a_coin_toss_winner_may_break_or_give_the_break_away() -> None:
    table = Table()
    updates = table.play("coin away give")
    assert table.state["visitor"] == "home"
    assert instructions(updates) == ["break_off"]
    assert kinds(updates, UpdateKind.TURN)[0].player == "home"


def test_2a_nothing_is_played_before_the_toss() -> None:
    Table().refuse("break", "coin_toss or break_winner first")


# -- 2b the break-off ----------------------------------------------------------------------------


def test_2b_a_break_off_potting_the_red_scores_double_and_the_visit_goes_on() -> None:
    table = started()
    updates = table.play("break; hit red; pot red 100; rest cue@900,300")
    assert [u.points for u in kinds(updates, UpdateKind.BREAK)] == [200]
    assert table.state["visitor"] == "home" and table.state["break_points"] == 200
    assert instructions(updates) == ["take_red"]  # 2c(c): the red comes back first
    assert table.scores() == {"home": 0, "away": 0}  # nothing banked yet


def test_2b_a_legal_break_is_one_where_the_white_touches_the_red_even_if_a_foul_follows() -> None:
    """2b(a): the pin foul costs the break, but the break-off itself was legal (no option)."""
    table = started()
    updates = table.play("break; hit red; fall 50-left; rest cue@900,300 red@1000,400")
    assert fouls(updates) == ["pin_down"]
    assert table.state["option_for"] is None
    assert table.state["visitor"] == "away"


@pytest.mark.parametrize(("script", "code"), [
    ("break @250,381; hit red; rest cue@900,300 red@1000,400", "break_not_from_centre"),  # 2b(b)1
    ("break; cushion top; rest cue@900,300 red@560,381", "break_missed_red"),  # 2b(b)2
    ("break red; hit white-cue; rest red@900,300 white-cue@1000,400", "break_wrong_way_round"),  # 2b(b)3
])
def test_2b_b_3b_b_a_foul_break_gives_the_opponent_the_option(script: str, code: str) -> None:
    table = started()
    updates = table.play(script)
    assert fouls(updates, applied_only=True) == [code]
    foul = kinds(updates, UpdateKind.FOUL)[0]
    assert foul.clause == "3b(b)" and foul.player == "home"
    choice = kinds(updates, UpdateKind.CHOICE)[0]
    assert choice.player == "away" and choice.data["options"] == ["rebreak", "play_on"]
    table.refuse("shot white", "break_option")


def test_2b_b_the_opponent_may_rebreak_after_a_foul_break() -> None:
    table = started()
    table.play("break; cushion top; rest cue@900,300 red@560,381")
    updates = table.play("! break_option choice=rebreak")
    assert instructions(updates) == ["rerack"]
    assert table.state["table"] == [] and table.state["trough_red"] == 1
    updates = table.play("break; hit red; pot red 200; rest cue@900,300")
    assert kinds(updates, UpdateKind.BREAK)[0].player == "away" and table.state["break_points"] == 400


def test_2b_b_or_play_on_from_where_the_balls_lie() -> None:
    table = started()
    table.play("break; cushion top; rest cue@900,300 red@560,381")
    updates = table.play("! break_option choice=play_on")
    assert instructions(updates) == ["take_white"]
    updates = table.play("shot white; hit red; pot red 50-right; rest cue@800,200")
    assert table.state["break_points"] == 100 and table.state["visitor"] == "away"


def test_2b_b_only_the_opponent_chooses_and_only_after_a_foul_break() -> None:
    table = started()
    table.refuse("! break_option choice=rebreak", "no foul break")
    table.play("break; cushion top; rest cue@900,300 red@560,381")
    table.refuse("! break_option choice=rebreak player=home", "away's")
    table.refuse("! break_option choice=maybe", "'rebreak' or 'play_on'")


def test_2b_c_both_balls_potted_from_the_break_means_another_break_off() -> None:
    table = started()
    updates = table.play("break; hit red; pot red 100; pot cue 50-left; rest")
    assert instructions(updates) == ["break_off"]
    assert any(u.data.get("rule") == "2b(c)" for u in kinds(updates, UpdateKind.INFO))
    assert table.state["break_points"] == 250 and table.state["breaks_in_row"] == 1


def test_2b_d_the_referee_warns_after_three_break_offs_in_a_row() -> None:
    table = started()
    table.play("break; hit red; pot red 100; pot cue 50-left; rest; break; hit red; pot red 100; pot cue 50-left; rest")
    updates = table.play("break; hit red; pot red 100; pot cue 50-left; rest")
    assert any(u.data.get("rule") == "2b(d)" for u in kinds(updates, UpdateKind.INFO))


def fourth_break(table: Table) -> None:
    for _ in range(3):
        table.play("break; hit red; pot red 100; pot cue 50-left; rest")


def test_3b_i_the_same_break_off_a_fourth_time_is_a_foul_when_the_referee_says_so() -> None:
    table = started()
    fourth_break(table)
    updates = table.play("break; hit red; pot red 100; pot cue 50-left; rest")
    assert any(u.data.get("rule") == "3b(i)" for u in kinds(updates, UpdateKind.INFO))  # a hint, not a call
    assert table.state["break_points"] == 1000
    updates = table.play("! same_break_fourth_time")
    assert fouls(updates, applied_only=True) == ["same_break_fourth_time"]
    assert kinds(updates, UpdateKind.BREAK_LOST)[-1].points == -750  # the fouled shot never scored
    assert table.state["visitor"] == "away"


def test_3b_i_with_auto_same_break_the_camera_calls_it_from_the_holes() -> None:
    table = started(auto_same_break=True)
    fourth_break(table)
    updates = table.play("break; hit red; pot red 100; pot cue 50-left; rest")
    assert fouls(updates, applied_only=True) == ["same_break_fourth_time"]


def test_2b_d_a_materially_different_fourth_break_off_is_fine() -> None:
    table = started(auto_same_break=True)
    fourth_break(table)
    updates = table.play("break; hit red; pot red 100; pot cue 50-right; rest")
    assert fouls(updates) == []


def test_3b_i_cannot_be_called_on_the_second_break_off() -> None:
    table = started()
    table.play("break; hit red; pot red 100; pot cue 50-left; rest; break; hit red")
    table.refuse("! same_break_fourth_time", "break-off number 2 in a row")


# -- 2c continuous play and the trough -----------------------------------------------------------


def test_2c_a_a_pot_earns_another_shot_and_2c_d_a_blank_passes_the_visit_banking_the_break() -> None:
    table = started()
    table.play("break; hit red; pot red 100; rest white-1@900,300")
    table.play("shot red; hit white-1; pot white-1 20-left; rest red@900,300")
    assert table.state["break_points"] == 220
    updates = table.play("shot white; hit red; rest red@1000,300 white-1@1100,500")
    assert [u.points for u in kinds(updates, UpdateKind.SCORE)] == [220]
    assert kinds(updates, UpdateKind.BREAK_BANKED)[0].points == 220
    assert table.state["visitor"] == "away" and table.scores() == {"home": 220, "away": 0}


def test_2c_b_the_ball_may_be_placed_anywhere_in_the_d() -> None:
    table = started()
    table.play("break; hit red; rest cue@900,300 red@1000,400")
    updates = table.play("shot white @220,440; hit red; pot red 10-right; rest")
    assert fouls(updates) == []


def test_2c_c_the_red_must_come_out_of_the_trough_first() -> None:
    table = started()
    table.play("break; hit red; pot red 100; rest white-1@900,300")
    updates = table.play("shot white; hit white-1; pot white-1 30; rest")
    assert fouls(updates) == ["red_not_played"]
    assert kinds(updates, UpdateKind.FOUL)[0].clause == "3b(e)"


def test_7_the_referee_advises_when_a_white_is_placed_while_the_red_waits_in_the_trough() -> None:
    table = started()
    table.play("break; hit red; pot red 100; rest cue@900,300")
    updates = table.play("place white-5 @280,381")
    assert any(u.data.get("rule") == "2c(c)" for u in updates)


def test_2c_c_with_the_trough_empty_the_ball_nearest_baulk_is_played() -> None:
    table = started(whites=2)
    table.play("break; hit red; rest cue@900,300 red@800,500")
    updates = table.play("shot white; hit red; rest red@800,500 white-1@1000,200 white-2@700,400")
    nearest = [u for u in updates if u.code == "take_nearest"][0]
    assert nearest.data["colour"] == "white" and list(nearest.data["at"]) == [700.0, 400.0]


def test_2c_c_on_a_tie_the_ball_nearest_the_centre_of_the_d_is_played() -> None:
    table = started(whites=2)
    table.play("break; hit red; rest cue@900,300 red@800,600")
    updates = table.play("shot white; hit red; rest red@800,600 white-1@800,390 white-2@1500,300")
    nearest = [u for u in updates if u.code == "take_nearest"][0]
    assert nearest.data["colour"] == "white" and list(nearest.data["at"]) == [800.0, 390.0]


def test_2c_c_the_retrieved_ball_leaves_the_cloth_when_it_is_played() -> None:
    table = started(whites=2)
    table.play("break; hit red; rest cue@900,300 red@800,500")
    table.play("shot white; hit red; rest red@800,500 white-1@1000,200 white-2@700,400")
    table.play("remove white-2 @700,400; place white-2 @280,381; shot white; hit red; pot red 100; rest")
    state = table.state
    assert sorted(b["colour"] for b in state["table"]) == ["white", "white"]
    assert state["trough_red"] == 1 and state["hand"] == []


# -- 2g scoring ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("ball", "hole", "points"), [
    ("cue", "10-left", 10), ("cue", "20-right", 20), ("cue", "30", 30), ("cue", "50-left", 50),
    ("cue", "100", 100), ("cue", "200", 200), ("red", "10-right", 20), ("red", "200", 400),
])
def test_2g_a_white_scores_the_hole_and_the_red_double(ball: str, hole: str, points: int) -> None:
    table = started()
    table.play("break; hit red; rest cue@900,300 red@1000,400")  # a blank: away to the table
    table.play(f"shot white; hit red; pot {ball} {hole}; rest")
    assert table.state["visitor"] == "away" and table.state["break_points"] == points


def test_2g_a_venue_may_give_the_holes_other_values() -> None:
    values = {"hole-10-left": 10, "hole-20-left": 20, "hole-30": 30, "hole-20-right": 20, "hole-10-right": 10,
              "hole-50-left": 50, "hole-200": 200, "hole-50-right": 50, "hole-100": 150}
    table = started(hole_values=values)
    table.play("break; hit red; pot red 100; rest cue@900,300")
    assert table.state["break_points"] == 300


def test_2g_the_scoring_is_unchanged_after_the_bar_drops() -> None:
    table = started()
    table.play("! clock_expired; break; hit red; pot red 100; pot cue 50-left; rest")
    assert table.state["break_points"] == 250
    assert table.state["locked_red"] == 1 and table.state["trough_red"] == 0


def test_2g_banking_sends_the_break_to_the_scoreboard_and_scores_equal_the_score_updates() -> None:
    table = started()
    table.play("break; hit red; pot red 100; rest cue@900,300; shot red; hit white-cue; rest")
    assert nonzero(table.scores()) == score_sum(table.updates) == {"home": 200}


# -- 2d balls off the table ------------------------------------------------------------------------


def test_2d_a_ball_that_comes_back_by_itself_is_no_foul() -> None:
    table = started()
    updates = table.play("break; hit red; off red back; cushion scoreboard; pot red 30; rest")
    assert fouls(updates) == [] and table.state["break_points"] == 60


def test_2d_3b_h_a_ball_that_stays_off_the_table_is_a_foul_and_goes_to_the_trough() -> None:
    table = started()
    updates = table.play("break; hit red; off red; rest cue@900,300")
    assert fouls(updates) == ["off_table"]
    assert kinds(updates, UpdateKind.FOUL)[0].clause == "3b(h)"
    assert "return_to_trough" in instructions(updates) and table.state["trough_red"] == 1


def test_2d_b_a_ball_back_off_a_person_is_a_foul_and_goes_to_the_trough() -> None:
    table = started()
    updates = table.play("break; hit red; off red back; ! ball_touched_person; rest red@900,300 cue@1000,400")
    assert fouls(updates) == ["ball_touched_person"]
    assert kinds(updates, UpdateKind.FOUL)[0].clause == "3b(h)"
    assert table.state["trough_red"] == 1 and [b["colour"] for b in table.state["table"]] == ["white"]


def test_2d_b_the_person_can_be_named_after_the_balls_stop() -> None:
    table = started()
    table.play("break; hit red; off red back; pot cue 30; rest red@900,300")
    assert table.state["break_points"] == 30
    updates = table.play("! ball_touched_person ball=red")
    assert fouls(updates, applied_only=True) == ["ball_touched_person"]
    assert table.state["break_points"] == 0 and table.state["visitor"] == "away"


def test_2d_b_which_ball_must_be_said_when_none_came_back() -> None:
    table = started()
    table.play("break; hit red")
    table.refuse("! ball_touched_person", "say which ball")


# -- 2e interference -------------------------------------------------------------------------------


def test_2e_interference_during_a_shot_voids_it_without_penalty() -> None:
    table = started()
    table.play("break; hit red; pot red 100; rest cue@900,300")
    updates = table.play("shot red; hit white-cue; fall 200; ! interference")
    assert instructions(updates) == ["restore_positions", "replay_shot"]
    assert fouls(updates) == []
    state = table.state
    assert state["shot"] is None and state["trough_red"] == 1 and state["break_points"] == 200
    assert all(p["status"] == "standing" for p in state["pins"])


def test_2e_interference_between_shots_puts_a_knocked_pin_back_without_penalty() -> None:
    table = started()
    table.play("break; hit red; pot red 100; rest cue@900,300")
    updates = table.play("fall 50-right")
    assert "interference" in updates[0].text
    updates = table.play("! interference")
    assert instructions(updates) == ["restore_positions"] and fouls(updates) == []
    assert all(p["status"] == "standing" for p in table.state["pins"])
    assert table.state["break_points"] == 200


def test_3b_g_or_the_referee_calls_handling_for_a_pin_a_player_knocked() -> None:
    table = started()
    table.play("break; hit red; pot red 100; rest cue@900,300; fall 50-right")
    updates = table.play("! handling")
    assert fouls(updates) == ["handling"]
    assert kinds(updates, UpdateKind.FOUL)[0].clause == "3b(g)"
    assert instructions(updates)[0] == "reset_pins"
    assert table.state["visitor"] == "away" and table.state["break_points"] == 0


# -- 2f balls dropping -----------------------------------------------------------------------------


def test_2f_a_a_resting_ball_that_drops_by_itself_is_replaced_and_play_goes_on() -> None:
    table = started()
    table.play("break; hit red; pot red 100; rest cue@900,300")
    updates = table.play("wait 30; pot white-cue 10-left")
    assert instructions(updates) == ["replace_ball"]
    assert table.state["break_points"] == 200 and table.state["visitor"] == "home"


def test_2f_a_an_untouched_ball_dropping_during_a_shot_scores_nothing_but_the_others_score() -> None:
    table = started(whites=3)
    table.play("break; hit red; rest cue@900,300 red@1000,400")
    updates = table.play("shot white; hit red; pot red 50-left; pot white-9 30; rest cue@900,300")
    assert table.state["break_points"] == 100
    assert "replace_ball" in instructions(updates)
    assert sorted(b["colour"] for b in table.state["table"]) == ["white", "white"]


def test_2f_b_a_ball_teetering_on_the_edge_that_drops_within_5_s_counts_for_the_shot() -> None:
    table = started()
    table.play("break; hit red; rest cue@900,300 red@1630,330")
    assert table.state["visitor"] == "away"
    updates = table.play("late red 50-left +3")
    assert table.state["visitor"] == "home" and table.state["break_points"] == 100
    assert score_sum(table.updates) == nonzero(table.scores()) == {}
    assert updates[0].data.get("rejudged")


def test_2f_b_a_late_pot_that_turns_a_blank_into_a_score_withdraws_the_banked_break() -> None:
    table = started()
    table.play("break; hit red; pot red 100; rest cue@900,300")
    table.play("shot red; hit white-cue; rest red@1630,330 white-cue@900,300")
    assert table.scores() == {"home": 200, "away": 0}
    table.play("late red 50-left +2")
    assert nonzero(table.scores()) == score_sum(table.updates) == {}
    assert table.state["break_points"] == 300 and table.state["visitor"] == "home"


def test_2f_b_after_5_s_the_teetering_ball_counts_as_stationary() -> None:
    table = started()
    table.play("break; hit red; rest cue@900,300 red@1630,330")
    updates = table.play("late red 50-left +6")
    assert instructions(updates) == ["replace_ball"]
    assert table.state["visitor"] == "away"


def test_2f_b_a_ball_the_shot_never_touched_dropping_late_is_replaced() -> None:
    table = started(whites=3)
    table.play("break; hit red; rest cue@900,300 red@1000,400")
    table.play("shot white; hit red; rest red@1630,330 white-1@900,300 white-cue@700,300")
    updates = table.play("late white-1 30 +1")
    assert instructions(updates) == ["replace_ball"]


# -- 2h pins ---------------------------------------------------------------------------------------


def test_2h_3b_a_knocking_a_pin_over_costs_the_break() -> None:
    table = started()
    table.play("break; hit red; pot red 100; rest cue@900,300")
    updates = table.play("shot red; hit white-cue; fall 100; pot white-cue 30; rest")
    assert fouls(updates) == ["pin_down"]
    foul = kinds(updates, UpdateKind.FOUL)[0]
    assert foul.clause == "3b(a)" and foul.points == -200
    assert table.scores() == {"home": 0, "away": 0} and table.state["visitor"] == "away"


def test_2h_a_pin_moved_but_standing_stays_where_it_is_for_the_rest_of_the_visit() -> None:
    table = started()
    updates = table.play("break; hit red; nudge 100 1240,395; pot red 30; rest cue@900,300")
    assert "reset_pins" not in instructions(updates)
    pin = next(p for p in table.state["pins"] if p["id"] == "pin-100")
    assert (pin["x"], pin["y"]) == (1240.0, 395.0)
    updates = table.play("shot red; hit white-cue; rest")  # the visit ends: now it is reset
    assert "reset_pins" in instructions(updates)
    pin = next(p for p in table.state["pins"] if p["id"] == "pin-100")
    assert (pin["x"], pin["y"]) == (1252.0, 381.0)


def test_2h_a_a_ball_on_a_moved_pins_spot_goes_to_the_trough_when_the_pin_is_reset() -> None:
    table = started()
    table.play("break; hit red; nudge 100 1230,400; pot red 30; rest cue@1255,381")
    updates = table.play("shot red; hit white-cue; rest red@700,300 white-cue@1255,381")
    returns = [u for u in updates if u.code == "return_to_trough"]
    assert returns and "2h(a)" in returns[0].text
    assert [b["colour"] for b in table.state["table"]] == ["red"] and table.state["trough_white"] == 7


def test_2h_b_a_ball_touching_the_pin_but_clear_of_its_spot_stays_in_play() -> None:
    table = started()
    table.play("break; hit red; nudge 100 1230,400; pot red 30; rest cue@1200,420")
    updates = table.play("shot red; hit white-cue; rest red@700,300 white-cue@1200,420")
    assert "return_to_trough" not in instructions(updates)
    assert sorted(b["colour"] for b in table.state["table"]) == ["red", "white"]


def test_3_balls_at_rest_in_baulk_go_back_to_the_trough() -> None:
    table = started()
    table.play("break; hit red; rest cue@900,300 red@1000,400")
    updates = table.play("shot white; hit red; baulk red; rest red@200,200 cue@900,500")
    assert fouls(updates) == ["ball_in_baulk"]
    assert "return_to_trough" in instructions(updates) and table.state["trough_red"] == 1


def test_3b_f_a_ball_touching_baulk_and_rolling_back_out_is_still_a_foul_but_stays_in_play() -> None:
    table = started()
    table.play("break; hit red; rest cue@900,300 red@1000,400")
    updates = table.play("shot white; hit red; baulk red; rest red@330,200 cue@900,500")
    assert fouls(updates) == ["ball_in_baulk"]
    assert kinds(updates, UpdateKind.FOUL)[0].clause == "3b(f)"
    assert "return_to_trough" not in instructions(updates)


def test_5a_a_league_table_may_play_with_six_whites() -> None:
    engine = make_engine("bar-billiards", whites=6)
    assert engine.state["trough_white"] == 6


def test_options_are_checked_and_unknown_ones_refused() -> None:
    with pytest.raises(ValueError, match="accepted"):
        make_engine("bar-billiards", colour="pink")
    with pytest.raises(ValueError, match="hole_values"):
        make_engine("bar-billiards", hole_values={"hole-100": 100})
    with pytest.raises(ValueError, match="two different sides"):
        make_engine("bar-billiards", players=["solo"])


def test_a_pot_with_no_such_ball_on_the_table_is_a_question_not_a_crash() -> None:
    table = started()
    table.play("break; hit red; pot red 100")
    error = table.refuse("pot red 30", "not on the table")
    assert isinstance(error, RefereeError) and "check the table" in error.question
