"""All-Fours (IC2024): singing the bullseye (27g-27i, 30d), power play (30), the three-table match,
the elimination rule (28), defaults (10) and standings (2c). Each test names its clause."""

from __future__ import annotations

from typing import Any

import pytest

from tableref.referee import RefereeError, Update, UpdateKind, make_engine
from tableref.referee.all_fours import AllFoursEngine
from tableref.referee.all_fours_match import MatchResult, Standing, default_result, standings
from tableref.referee.all_fours_notation import run
from tests.referee.harness import check_engine_properties

# South deals, east leads: High A, Low B, Hang-Jack A, Game A (see test_all_fours_hand.py).
FULL_HAND = (
    "E:3H N:10H W:JH S:AH; S:2C E:KC N:4C W:5C; E:AS N:2S W:3S S:4S; "
    "E:5D N:2D W:3D S:4D; E:6D N:7D W:8D S:9D; S:KH E:9C N:10C W:JC"
)
# The same hand turned one seat round: east deals, north leads: High B, Low A, Hang-Jack B, Game B.
FULL_HAND_EAST_DEALS = (
    "N:3H W:10H S:JH E:AH; E:2C N:KC W:4C S:5C; N:AS W:2S S:3S E:4S; "
    "N:5D W:2D S:3D E:4D; N:6D W:7D S:8D E:9D; E:KH N:9C W:10C S:JC"
)


def of(updates: list[Update], kind: UpdateKind) -> list[Update]:
    return [u for u in updates if u.kind is kind]


def give_points(engine: AllFoursEngine, team: str, n: int) -> None:
    offender = "east" if team == "A" else "south"
    for _ in range(n):
        run(engine, f"!add_penalty code=looked_at_cards seat={offender}")


def concede_games(engine: AllFoursEngine, n: int, loser: str = "B") -> None:
    for _ in range(n):
        run(engine, f"new_game; !concede team={loser}")


# -- 27g-27i singing ------------------------------------------------------------------------------------------


def test_27g_a_pair_on_fourteen_sings_and_the_bullseye_is_recorded() -> None:
    engine = AllFoursEngine()
    run(engine, "new_game S")
    give_points(engine, "A", 12)
    updates = run(engine, "deal; kick 5H; stand; " + FULL_HAND)
    assert engine.scores() == {"A": 16, "B": 1}
    assert of(updates, UpdateKind.CHOICE)[-1].player == "A"
    assert engine.outcome() is None  # not a bullseye until sung
    with pytest.raises(RefereeError, match="only they can sing"):
        run(engine, "sing B")
    updates = run(engine, "sing A")
    over = of(updates, UpdateKind.GAME_OVER)[0]
    assert (over.player, over.data["bullseyes"]) == ("A", 1)
    outcome = engine.outcome()
    assert outcome is not None and outcome.winner == "A"
    updates = run(engine, "deal")  # the next game: the board is wiped, the deal has passed to east
    assert engine.scores() == {"A": 0, "B": 0}
    assert [u.code for u in of(updates, UpdateKind.SCORE)] == ["new_game", "new_game"]
    assert of(updates, UpdateKind.PHASE)[-1].data["dealer"] == "east"
    check_engine_properties(AllFoursEngine, engine.log)


def test_27g_a_sure_point_shown_mid_hand_sings_the_bullseye() -> None:
    engine = AllFoursEngine()
    run(engine, "new_game S")
    give_points(engine, "A", 13)
    run(engine, "deal; kick 5H; stand; E:2C")
    with pytest.raises(RefereeError, match="short of 14"):
        run(engine, "sing S KH")  # the ace of trumps may still be out
    updates = run(engine, "sing S AH")
    assert [(u.code, u.points) for u in of(updates, UpdateKind.SCORE)] == [("high", 1)]
    assert of(updates, UpdateKind.GAME_OVER)[0].data["bullseyes"] == 2  # 14-0 (30d)


def test_27g_a_hang_jack_already_made_is_a_sure_point_to_sing() -> None:
    engine = AllFoursEngine()
    run(engine, "new_game S")
    give_points(engine, "A", 11)
    run(engine, "deal; kick 5H; stand; E:3H N:10H W:JH S:AH")
    updates = run(engine, "sing A")  # the ace of trumps is High for sure too
    assert [u.code for u in of(updates, UpdateKind.SCORE)] == ["high", "hang_jack"]
    assert engine.state["hang_jacks"] == {"A": 1, "B": 0}


def test_27g_no_bullseye_without_fourteen() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S; kick 5H")
    with pytest.raises(RefereeError, match="needs 14"):
        run(engine, "sing A")


def test_27i_an_unsung_fourteen_is_played_out_and_the_higher_pair_sings() -> None:
    engine = AllFoursEngine()
    run(engine, "new_game S")
    give_points(engine, "A", 12)
    run(engine, "deal; kick 5H; stand; " + FULL_HAND)  # A 16, not sung
    updates = run(engine, "deal")
    assert [u.code for u in of(updates, UpdateKind.INFO)] == ["unsung"]
    run(engine, "kick 5H; stand")
    with pytest.raises(RefereeError, match="played out first"):
        run(engine, "sing A")
    updates = run(engine, FULL_HAND_EAST_DEALS)
    assert engine.scores() == {"A": 17, "B": 7}  # every point counts in a played-out issue
    assert of(updates, UpdateKind.CHOICE)[-1].player == "A"
    updates = run(engine, "sing A")
    assert of(updates, UpdateKind.GAME_OVER)[0].player == "A"


def test_27i_level_after_the_played_out_issue_the_pair_that_played_high_wins() -> None:
    engine = AllFoursEngine()
    run(engine, "new_game E")
    give_points(engine, "A", 14)
    give_points(engine, "B", 9)
    run(engine, "deal; kick 5H; stand; " + FULL_HAND_EAST_DEALS)
    assert engine.scores() == {"A": 15, "B": 15}
    with pytest.raises(RefereeError, match="only they can sing"):
        run(engine, "sing A")
    updates = run(engine, "sing B")
    assert of(updates, UpdateKind.GAME_OVER)[0].player == "B"


@pytest.mark.parametrize(("option", "bullseyes"), [(True, 2), (False, 1)])
def test_30d_fourteen_love_counts_two_bullseyes(option: bool, bullseyes: int) -> None:
    engine = AllFoursEngine(love_counts_two=option)
    run(engine, "new_game S")
    give_points(engine, "A", 14)
    run(engine, "sing A")
    assert engine.state["bullseyes"] == {"A": bullseyes, "B": 0}


# -- 30 power play --------------------------------------------------------------------------------------------------


def test_30b_30c_power_play_from_the_seventh_game_adds_one_to_every_kicked_card() -> None:
    engine = AllFoursEngine()
    run(engine, "new_game S; !concede team=B")
    concede_games(engine, 4)
    run(engine, "new_game; deal; kick JH")
    assert engine.state["game"]["number"] == 6 and engine.scores()["A"] == 3
    run(engine, "!concede team=B")
    updates = run(engine, "new_game")
    assert [u.code for u in of(updates, UpdateKind.INFO)] == ["power_play"]
    run(engine, "deal; kick JH")
    dealer_team = "A" if engine.state["game"]["hand"]["dealer"] in ("south", "north") else "B"
    assert engine.scores()[dealer_team] == 3 + 1


@pytest.mark.parametrize(("mode", "power"), [("games", False), ("table_bullseyes", True), ("off", False)])
def test_30b_how_the_seven_to_eleven_mark_counts_is_a_venue_option(mode: str, power: bool) -> None:
    engine = AllFoursEngine(power_play=mode)
    run(engine, "new_game S")
    for _ in range(6):
        run(engine, "!add_penalty code=late_start team=B")
    run(engine, "!concede team=B; new_game")  # game 2, the eighth bullseye at this table to come
    assert engine.state["game"]["power_play"] is power


# -- 28 elimination, the match ----------------------------------------------------------------------------------------


def test_28_each_table_plays_at_most_eleven_games() -> None:
    engine = AllFoursEngine()
    run(engine, "new_game S; !concede team=B")
    concede_games(engine, 9)
    updates = run(engine, "new_game; !concede team=B")
    assert [u.code for u in of(updates, UpdateKind.PHASE)][-1] == "table_closed"
    assert engine.state["games_played"] == 11
    with pytest.raises(RefereeError, match="at most 11 games"):
        run(engine, "deal")


def test_28_the_first_team_to_seventeen_bullseyes_over_the_three_tables_wins() -> None:
    engine = AllFoursEngine()
    run(engine, "!teams A=Oak B=Rivals")
    run(engine, '!table_report table=2 bullseyes={"A":9,"B":2} games=8')
    run(engine, '!table_report table=3 bullseyes={"A":7,"B":5} hang_jacks={"A":1,"B":2} games=9')
    assert engine.match_tallies()["bullseyes"] == {"A": 16, "B": 7}
    updates = run(engine, "new_game S; !concede team=B")
    over = of(updates, UpdateKind.MATCH_OVER)[0]
    assert over.player == "A" and over.data["result"]["team_a"] == "Oak"
    outcome = engine.outcome()
    assert outcome is not None and outcome.winner == "A" and outcome.scores == {"A": 17, "B": 7}
    with pytest.raises(RefereeError, match="match is over"):
        run(engine, "deal")


@pytest.mark.parametrize(("others", "winner"), [({"A": 0, "B": 1}, "B"), ({"A": 0, "B": 0}, None)])
def test_28_when_every_table_has_closed_the_team_with_more_bullseyes_wins(
    others: dict[str, int], winner: str | None
) -> None:
    engine = AllFoursEngine(max_games_per_table=1)
    bulls = f'{{"A":{others["A"]},"B":{others["B"]}}}'
    run(engine, f"!table_report table=2 bullseyes={bulls} closed=true")
    run(engine, '!table_report table=3 bullseyes={"A":0,"B":1} closed=true')
    updates = run(engine, "new_game S; !concede team=B")
    over = of(updates, UpdateKind.MATCH_OVER)
    assert over and over[0].player == winner


def test_28_a_table_report_must_name_another_table() -> None:
    engine = AllFoursEngine()
    with pytest.raises(RefereeError, match="another table"):
        run(engine, '!table_report table=1 bullseyes={"A":1}')
    with pytest.raises(RefereeError, match="count per team"):
        run(engine, "!table_report table=2 bullseyes=5")


def test_29d_an_abandoned_table_concedes_two_bullseyes_and_closes() -> None:
    engine = AllFoursEngine()
    updates = run(engine, "deal S; !concede team=A bullseyes=2 close_table=true")
    assert engine.state["bullseyes"] == {"A": 0, "B": 2} and engine.state["table_closed"]
    assert "table_closed" in [u.code for u in updates]
    with pytest.raises(RefereeError, match="1 or 2"):
        run(AllFoursEngine(), "!concede team=A bullseyes=3")


def test_10_a_default_awards_the_required_bullseyes_for_and_half_against() -> None:
    engine = AllFoursEngine()
    run(engine, '!teams A=Oak B=Elm')
    updates = run(engine, "!default team=B")
    result = of(updates, UpdateKind.MATCH_OVER)[0].data["result"]
    assert (result["winner"], result["bullseyes_a"], result["bullseyes_b"], result["defaulted"]) == ("Oak", 17, 8, "Elm")
    outcome = engine.outcome()
    assert outcome is not None and outcome.winner == "A" and outcome.scores == {"A": 17, "B": 8}


def test_2c_standings_rank_by_wins_then_bullseyes_for_and_against_then_hang_jacks() -> None:
    results = [
        MatchResult("Oak", "Elm", 17, 10, 2, 1, "Oak"),
        MatchResult("Ash", "Fir", 17, 12, 1, 0, "Ash"),
        MatchResult("Oak", "Ash", 12, 17, 0, 3, "Ash"),
        MatchResult("Elm", "Fir", 17, 16, 0, 0, "Elm"),
        default_result("Fir", "Yew", "Yew", 17, 8),
        MatchResult("Elm", "Yew", 17, 9, 1, 1, "Elm"),
    ]
    table = standings(results)
    assert [row.team for row in table] == ["Elm", "Ash", "Fir", "Oak", "Yew"]  # Elm and Ash: bullseyes for
    elm, ash, fir, oak, yew = table
    assert (ash.wins, ash.bullseyes_for, ash.hang_jacks_for) == (2, 34, 4)
    assert (elm.wins, elm.bullseyes_for, elm.bullseyes_against) == (2, 44, 42)
    assert (fir.wins, fir.bullseyes_for, oak.bullseyes_for) == (1, 12 + 16 + 17, 17 + 12)
    assert yew.defaults == 1 and yew.bullseyes_for == 8 + 9


def test_2c_ties_fall_to_bullseyes_against_then_hang_jacks_for_then_against() -> None:
    rows = [
        Standing("P", wins=1, bullseyes_for=20, bullseyes_against=10, hang_jacks_for=2, hang_jacks_against=2),
        Standing("Q", wins=1, bullseyes_for=20, bullseyes_against=10, hang_jacks_for=2, hang_jacks_against=1),
        Standing("R", wins=1, bullseyes_for=20, bullseyes_against=10, hang_jacks_for=3, hang_jacks_against=5),
        Standing("S", wins=1, bullseyes_for=20, bullseyes_against=9),
    ]
    assert [r.team for r in sorted(rows, key=Standing.sort_key)] == ["S", "R", "Q", "P"]


# -- seats, deals and options -----------------------------------------------------------------------------------------


def test_15b_19b_the_first_dealer_is_named_and_the_deal_passes_anticlockwise() -> None:
    engine = AllFoursEngine()
    with pytest.raises(RefereeError, match="name the first dealer"):
        run(engine, "deal")
    run(engine, "deal W; kick 5H")
    assert engine.state["game"]["hand"]["lead_seat"] == "south"
    with pytest.raises(RefereeError, match="not finished"):
        run(engine, "deal")


def test_19b_a_venue_that_plays_clockwise_sets_the_seat_order() -> None:
    engine = AllFoursEngine(seat_order=["south", "west", "north", "east"])
    updates = run(engine, "deal S; kick 5H")
    assert of(updates, UpdateKind.CHOICE)[-1].player == "west"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"seat_order": ["south", "north", "east", "west"]}, "alternate"),
        ({"power_play": "sometimes"}, "power_play"),
        ({"flush_exception": "never"}, "flush_exception"),
        ({"table": 4}, "table must be"),
        ({"referee": "me"}, "unknown all-fours option"),
    ],
)
def test_venue_options_are_checked(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_engine("all-fours", **options)
