"""Norwich league rules 6 and 8: a match of six singles and three doubles frames, and its scorecard."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tableref.events import HumanInput
from tableref.referee import UpdateKind
from tableref.referee.bar_billiards_match import (
    build_scorecard,
    match_winner,
    record_frame,
    scorecard_lines,
    set_referee,
    totals,
)
from tests.referee.test_bar_billiards_notation import Table, kinds

HOME = ["Ann", "Bea", "Cal", "Dot", "Eve", "Fay"]
AWAY = ["Gus", "Hal", "Ian", "Joe", "Kit", "Lou"]


def draw(home: list[str] = HOME, away: list[str] = AWAY) -> dict[str, Any]:
    """A drawn order: singles pair the lists in order; doubles pair them two by two."""
    return {
        "home_team": "Kings Head", "away_team": "Red Lion",
        "singles": [[h, a] for h, a in zip(home[:6], away[:6], strict=True)],
        "doubles": [[[HOME[0], HOME[1]], [AWAY[0], AWAY[1]]], [[HOME[2], HOME[3]], [AWAY[2], AWAY[3]]],
                    [[HOME[4], HOME[5]], [AWAY[4], AWAY[5]]]],
    }


def test_6_a_match_is_six_singles_then_three_doubles_with_the_referee_alternating() -> None:
    card = build_scorecard(draw())
    assert [f.kind for f in card.frames] == ["singles"] * 6 + ["doubles"] * 3
    assert [f.referee_team for f in card.frames] == ["home", "away"] * 4 + ["home"]
    assert card.frames[6].home == ["Ann", "Bea"] and card.frames[0].away == ["Gus"]


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["singles"].pop(), "has 6 singles frames"),
    (lambda d: d["doubles"].pop(), "has 3 doubles frames"),
    (lambda d: d["singles"].__setitem__(1, ["Ann", "Hal"]), "rule 6"),
    (lambda d: d["doubles"][0].__setitem__(0, ["Ann", "Ann"]), "same player twice"),
])
def test_6_a_draw_that_breaks_the_rules_is_refused(change: Any, message: str) -> None:
    bad = copy.deepcopy(draw())
    change(bad)
    with pytest.raises(ValueError, match=message):
        build_scorecard(bad)


def five_player_draw(doubles_twice: str) -> dict[str, Any]:
    d = draw()
    d["singles"][5][0] = "Ann"  # 8(b): the sixth singles frame goes to one of the five again
    d["doubles"] = [[["Ann", "Bea"], ["Gus", "Hal"]], [["Cal", "Dot"], ["Ian", "Joe"]],
                    [["Eve", doubles_twice], ["Kit", "Lou"]]]
    return d


def test_8_a_team_of_five_plays_one_player_twice_in_singles_and_another_twice_in_doubles() -> None:
    card = build_scorecard(five_player_draw("Bea"))
    assert card.frames[5].home == ["Ann"]


def test_8_c_the_player_with_two_singles_may_not_also_play_two_doubles() -> None:
    with pytest.raises(ValueError, match="8\\(c\\)"):
        build_scorecard(five_player_draw("Ann"))


def test_8_a_team_needs_at_least_five_players() -> None:
    d = draw()
    d["singles"] = [[h, a] for h, a in zip(["Ann", "Bea", "Cal", "Dot", "Ann", "Bea"], AWAY, strict=True)]
    d["doubles"] = [[["Ann", "Bea"], ["Gus", "Hal"]], [["Cal", "Dot"], ["Ian", "Joe"]],
                    [["Ann", "Cal"], ["Kit", "Lou"]]]
    with pytest.raises(ValueError, match="at least 5"):
        build_scorecard(d)


def test_6_a_player_should_referee_only_one_frame_a_warning_not_a_block() -> None:
    card = build_scorecard(draw())
    assert set_referee(card, "Zed") is None
    record_frame(card, 100, 50, "test")
    card.current = 1
    warning = set_referee(card, "Zed")
    assert warning is not None and "rule 6" in warning


def test_7e_the_scorecard_counts_frames_won_and_a_shared_frame_for_neither() -> None:
    card = build_scorecard(draw())
    for i, (h, a) in enumerate([(300, 200), (100, 400), (250, 250), (500, 0), (0, 10), (90, 80),
                                (700, 100), (50, 60), (400, 300)]):
        card.current = i
        record_frame(card, h, a, "test")
    assert totals(card) == {"home_frames": 5, "away_frames": 3, "shared_frames": 1,
                            "home_points": 2390, "away_points": 1400}
    assert match_winner(card) == "home"
    lines = scorecard_lines(card)
    assert lines[0] == "Kings Head v Red Lion" and "250-250 (shared)" in lines[3]
    assert lines[-1] == "frames 5-3 (1 shared), points 2390-1400"


def test_6_the_engine_plays_a_whole_league_match_frame_by_frame() -> None:
    table = Table()
    data = draw()
    updates = table.engine.apply(HumanInput(0.0, "league_match", {**data, "referee": "Gus"}))
    assert updates[0].data["home"] == ["Ann"] and updates[0].data["referee_team"] == "home"
    for frame in range(9):
        loser = "away" if frame % 3 else "home"
        table.play(f"toss home; break; hit red; pot red 30; rest white-1@900,300; ! concede player={loser}")
        if frame < 8:
            updates = table.play("! new_frame")
            assert updates[-1].data["league_frame"] == frame + 2
    over = kinds(table.updates, UpdateKind.MATCH_OVER)
    assert len(over) == 1 and over[0].player == "home" and over[0].data["totals"]["home_frames"] == 6
    table.refuse("! new_frame", "match is complete")
    card = table.state["match"]
    assert card["frames"][1]["home_score"] == 60 and card["frames"][0]["winner"] == "away"


def test_6_a_league_match_is_set_up_before_the_first_frame_and_once() -> None:
    table = Table()
    table.engine.apply(HumanInput(0.0, "league_match", draw()))
    table.refuse("! league_match", "already on the scorecard")
    late = Table()
    late.play("toss home; break; hit red; rest white-1@900,300 red@1000,400")
    with pytest.raises(Exception, match="before the first frame"):
        late.engine.apply(HumanInput(9.0, "league_match", draw()))
