"""Bar billiards, rule 2i: the bar dropping, the frame's end, the endgame and a shared frame."""

from __future__ import annotations

import pytest

from tableref.referee import UpdateKind
from tests.referee.test_bar_billiards_notation import Table, fouls, instructions, kinds, nonzero, score_sum


def endgame_away_100() -> Table:
    """Two balls, bar down: home blanks, away pots the red for 100 and the last white starts the endgame."""
    table = Table(whites=1)
    table.play("toss home; ! clock_expired; break; hit red; rest white-1@900,300 red@1600,250")
    table.play("shot white; hit red; pot red 50-left; rest white-1@1000,400")
    assert table.state["phase"] == "endgame" and table.state["visitor"] == "away"
    return table


def test_2g_2i_the_bar_drops_once_and_potted_balls_then_stay_in_the_table() -> None:
    table = Table()
    updates = table.play("toss home; ! bar_dropped")
    assert kinds(updates, UpdateKind.PHASE)[-1].code == "bar_dropped"
    table.refuse("! clock_expired", "already dropped")
    table.play("break; hit red; pot red 100; rest white-1@900,300")
    assert table.state["trough_red"] == 0 and table.state["locked_red"] == 1
    assert instructions(table.updates)[-1] == "take_white"


def test_2i_the_frame_ends_when_every_ball_is_potted_and_the_highest_bank_wins() -> None:
    table = Table(whites=1)
    updates = table.play("toss home; ! clock_expired; break; hit red; pot red 100; pot cue 30; rest")
    over = kinds(updates, UpdateKind.GAME_OVER)[0]
    assert over.player == "home" and over.data["scores"] == {"home": 230, "away": 0}
    outcome = table.engine.outcome()
    assert outcome is not None and outcome.winner == "home"
    table.refuse("shot white", "frame is over")


def test_2i_endgame_starts_with_one_ball_left_and_the_scores_within_200() -> None:
    table = endgame_away_100()
    endgame = kinds(table.updates, UpdateKind.ENDGAME)[0]
    assert endgame.player == "away" and endgame.data["ball"] == "white"
    assert instructions(table.updates)[-2:] == ["endgame_setup", "play_from_centre"]
    pins = {p["id"]: p["status"] for p in table.state["pins"]}
    assert pins == {"pin-200": "standing", "pin-100": "standing", "pin-50-left": "in_hole", "pin-50-right": "in_hole"}


def test_2i_b_the_first_endgame_shot_continues_the_break_and_a_legal_miss_keeps_it() -> None:
    table = endgame_away_100()
    assert table.state["break_points"] == 100
    updates = table.play("shot white @305,381; cushion top; cushion bottom; rest white-1@1400,300")
    assert fouls(updates) == []
    assert table.scores() == {"home": 0, "away": 100} and table.state["visitor"] == "home"
    assert instructions(updates)[-1] == "play_from_centre"


def test_2i_d_g_a_double_off_a_cushion_into_the_200_ends_the_frame_even_off_a_pin() -> None:
    table = endgame_away_100()
    updates = table.play("shot white @305,381; cushion bottom; hit pin-200; pot cue 200; rest")
    assert fouls(updates) == []
    over = kinds(updates, UpdateKind.GAME_OVER)[0]
    assert over.player == "away" and over.data["scores"] == {"home": 0, "away": 300}


def test_2i_a_shared_frame_when_the_last_pot_levels_the_scores() -> None:
    table = endgame_away_100()
    table.play("shot white @305,381; cushion top; rest white-1@1400,300")
    updates = table.play("shot white @305,381; cushion top; pot cue 100; rest")
    over = kinds(updates, UpdateKind.GAME_OVER)[0]
    assert over.player is None and over.data["shared"] is True
    outcome = table.engine.outcome()
    assert outcome is not None and outcome.winner is None and dict(outcome.scores) == {"home": 100, "away": 100}


def test_2i_c_3b_j_the_endgame_ball_must_come_from_the_centre_of_the_d() -> None:
    table = endgame_away_100()
    updates = table.play("shot white @260,420; cushion top; rest white-1@1400,300")
    foul = kinds(updates, UpdateKind.FOUL)[0]
    assert (foul.code, foul.clause, foul.points) == ("not_from_centre", "3b(j)", -100)
    assert table.scores() == {"home": 0, "away": 0}


def test_2i_e_a_shot_that_never_touches_a_cushion_is_illegal() -> None:
    table = endgame_away_100()
    updates = table.play("shot white @305,381; rest white-1@1400,300")
    assert fouls(updates) == ["endgame_no_cushion"] and table.state["visitor"] == "home"


def test_3a_b_potting_the_final_ball_without_a_cushion_costs_the_whole_score() -> None:
    table = endgame_away_100()
    table.play("shot white @305,381; cushion top; rest white-1@1400,300")  # away banks 100
    table.play("shot white @305,381; cushion top; rest white-1@1400,300")  # home: legal, nothing
    updates = table.play("shot white @305,381; pot cue 100; rest")
    foul = kinds(updates, UpdateKind.FOUL)[0]
    assert (foul.code, foul.clause, foul.player) == ("endgame_pot_without_cushion", "3a(b)", "away")
    over = kinds(updates, UpdateKind.GAME_OVER)[0]  # every ball is potted: the frame is over
    assert over.data["scores"] == {"home": 0, "away": 0} and over.player is None


@pytest.mark.parametrize(("events", "code"), [
    ("cushion top; cushion scoreboard", "endgame_scoreboard"),
    ("cushion top; off cue back", "endgame_left_table"),
])
def test_2i_f_touching_the_scoreboard_edge_or_leaving_the_table_is_illegal(events: str, code: str) -> None:
    table = endgame_away_100()
    updates = table.play(f"shot white @305,381; {events}; rest white-1@1400,300")
    assert fouls(updates) == [code]
    assert kinds(updates, UpdateKind.FOUL)[0].clause == "2i(f)"


def test_2i_h_a_pin_knocked_in_the_endgame_costs_its_usual_penalty() -> None:
    table = endgame_away_100()
    table.play("shot white @305,381; cushion top; rest white-1@1400,300")
    updates = table.play("shot white @305,381; cushion top; fall 200; rest white-1@1400,300")
    assert fouls(updates) == ["pin_200_down"]
    assert table.scores() == {"home": 0, "away": 100}


def test_2i_a_the_covered_holes_and_the_50_pins_in_them_are_out_of_play() -> None:
    table = endgame_away_100()
    table.refuse("shot white @305,381; cushion top; pot cue 30", "covered")
    table = endgame_away_100()
    table.refuse("shot white @305,381; fall 50-left", "in its hole")


def test_2i_a_lead_over_200_with_a_white_left_ends_the_frame_unless_the_leader_invokes_the_endgame() -> None:
    table = Table(whites=1)
    updates = table.play("toss home; ! clock_expired; break; hit red; pot red 200; rest white-1@900,300")
    choice = kinds(updates, UpdateKind.CHOICE)[0]
    assert choice.player == "home" and choice.data["margin"] == 400
    assert table.engine.outcome() is None
    table.refuse("! invoke_endgame player=away", "only the leader")
    updates = table.play("! invoke_endgame invoke=false")
    assert kinds(updates, UpdateKind.GAME_OVER)[0].player == "home"
    assert table.scores() == {"home": 400, "away": 0}


def test_2i_the_winner_may_invoke_the_endgame_anyway() -> None:
    table = Table(whites=1)
    table.play("toss home; ! clock_expired; break; hit red; pot red 200; rest white-1@900,300")
    updates = table.play("! invoke_endgame player=home")
    assert kinds(updates, UpdateKind.ENDGAME) and table.state["phase"] == "endgame"
    assert table.state["visitor"] == "home" and table.state["break_points"] == 400


def test_2i_with_the_red_as_the_last_ball_a_300_lead_still_means_an_endgame() -> None:
    table = Table(whites=2)
    table.play("toss home; ! clock_expired; break; hit red; pot cue 200; rest red@900,300")
    table.play("shot white; hit red; pot cue 100; rest red@1000,300")
    assert table.state["break_points"] == 300
    assert table.state["phase"] == "endgame"  # 300 <= 400 because the red is the last ball


def test_2i_both_last_balls_potted_together_end_the_frame() -> None:
    table = Table(whites=1)
    updates = table.play("toss home; ! clock_expired; break; hit red; pot cue 200; pot red 50-left; rest")
    assert table.state["phase"] == "over" and kinds(updates, UpdateKind.GAME_OVER)[0].player == "home"


def test_2i_red_last_ball_within_400_plays_the_endgame() -> None:
    table = Table(whites=1)
    table.play("toss home; ! clock_expired; break; hit red; pot cue 200; rest red@900,300")
    assert table.state["phase"] == "endgame"  # 200 < 400 with the red left
    updates = table.play("shot red @305,381; cushion top; pot red 200; rest")
    assert kinds(updates, UpdateKind.GAME_OVER)[0].data["scores"] == {"home": 600, "away": 0}


def test_2i_a_white_last_ball_with_the_lead_over_200_is_offered_not_played() -> None:
    table = Table(whites=1)
    table.play("toss home; ! clock_expired; break; hit red; pot red 200; rest white-1@900,300")
    assert table.state["phase"] == "endgame_offer"
    table.refuse("shot white", "decides on the endgame")


def test_new_frame_resets_the_scores_with_score_updates_and_keeps_the_history() -> None:
    table = Table(whites=1)
    table.play("toss home; ! clock_expired; break; hit red; pot red 100; pot cue 30; rest")
    updates = table.play("! new_frame")
    assert [u.points for u in kinds(updates, UpdateKind.SCORE)] == [-230]
    assert nonzero(table.scores()) == score_sum(table.updates) == {}
    state = table.state
    assert state["frame_no"] == 2 and state["phase"] == "toss" and state["history"][0]["winner"] == "home"
    assert table.engine.outcome() is None


def test_new_frame_is_refused_while_a_frame_is_being_played() -> None:
    table = Table()
    table.refuse("toss home; ! new_frame", "not over")
