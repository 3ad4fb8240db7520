"""All-Fours (IC2024): a hand from the kick to the last trick; kicks, begging, trick play, scoring.

Each test names the IC2024 clause it checks. Hands are written in the notation of
``referee/all_fours_notation.py``: ``deal S; kick 6H; stand; E:3H N:10H W:JH S:AH; ...``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tableref.events import EventType, HumanInput, TableEvent
from tableref.referee import RefereeError, Update, UpdateKind
from tableref.referee.all_fours import AllFoursEngine
from tableref.referee.all_fours_notation import run
from tests.referee.harness import check_engine_properties

# South deals, east leads; hearts are trump after "kick 6H". A legal six-trick hand in which south
# hangs west's Jack with the ace: High A, Low B (east's 3H), Hang-Jack A, Game A 29 to 7.
FULL_HAND = (
    "E:3H N:10H W:JH S:AH; S:2C E:KC N:4C W:5C; E:AS N:2S W:3S S:4S; "
    "E:5D N:2D W:3D S:4D; E:6D N:7D W:8D S:9D; S:KH E:9C N:10C W:JC"
)

# A hand with no heart in it: east holds the top of every suit and takes all six tricks.
NO_HEARTS = (
    "E:AC N:2C W:4C S:7C; E:AD N:2D W:4D S:7D; E:AS N:2S W:4S S:7S; "
    "E:KC N:3C W:5C S:8C; E:KD N:3D W:5D S:8D; E:KS N:3S W:5S S:8S"
)


def table(**options: Any) -> AllFoursEngine:
    return AllFoursEngine(**options)


def of(updates: list[Update], kind: UpdateKind) -> list[Update]:
    return [u for u in updates if u.kind is kind]


def codes(updates: list[Update], kind: UpdateKind | None = None) -> list[str | None]:
    return [u.code for u in updates if kind is None or u.kind is kind]


def give_points(engine: AllFoursEngine, team: str, n: int) -> None:
    """Bring a pair's points up with penalty points (22f: looking at cards gives the opponents one)."""
    offender = "east" if team == "A" else "south"
    for _ in range(n):
        run(engine, f"!add_penalty code=looked_at_cards seat={offender}")


def contract_holds(engine: AllFoursEngine, **options: Any) -> None:
    check_engine_properties(lambda: AllFoursEngine(**options), engine.log)


# -- 21a, 30c kicks -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "points"), [("JH", 3), ("6H", 2), ("AH", 1), ("KH", 0), ("2H", 0)])
def test_21a_the_kick_scores_jack_three_six_two_ace_one_for_the_dealers_pair(card: str, points: int) -> None:
    engine = table()
    updates = run(engine, f"deal S; kick {card}")
    assert engine.scores() == {"A": points, "B": 0}
    assert [u.points for u in of(updates, UpdateKind.SCORE)] == ([points] if points else [])
    assert of(updates, UpdateKind.CHOICE)[0].player == "east"  # the dealer's right stands or begs


def test_21a_the_kick_scores_for_the_dealer_whichever_pair_deals() -> None:
    engine = table()
    run(engine, "deal E; kick JD")
    assert engine.scores() == {"A": 0, "B": 3}


# -- 22a begging ----------------------------------------------------------------------------------------


def test_22a_lead_player_stands_and_leads_the_first_trick() -> None:
    engine = table()
    updates = run(engine, "deal S; kick 6H; stand")
    assert of(updates, UpdateKind.TURN)[-1].player == "east"
    assert engine.phase() == "play"


def test_22a_beg_and_the_dealer_gives_one_to_the_beggars() -> None:
    engine = table()
    updates = run(engine, "deal S; kick 5H; beg")
    assert of(updates, UpdateKind.CHOICE)[-1].data["options"] == ["give", "run_pack"]
    updates = run(engine, "give")
    assert engine.scores() == {"A": 0, "B": 1}
    assert codes(updates, UpdateKind.SCORE) == ["give_one"]
    assert of(updates, UpdateKind.TURN)[-1].player == "east"


def test_22a_only_the_lead_player_stands_and_only_the_dealer_gives() -> None:
    engine = table()
    run(engine, "deal S; kick 5H")
    with pytest.raises(RefereeError, match="only east"):
        engine.apply(HumanInput(t=9, kind="stand", data={"seat": "north"}))
    run(engine, "beg")
    with pytest.raises(RefereeError, match="only south"):
        engine.apply(HumanInput(t=9, kind="give", data={"seat": "west"}))


def test_21d_run_the_pack_kicks_until_the_suit_changes_and_every_kick_scores() -> None:
    engine = table()
    run(engine, "deal S; kick 6H; beg")
    updates = run(engine, "run")
    assert codes(updates, UpdateKind.INSTRUCTION) == ["run_pack"]
    updates = run(engine, "kick JH")  # same suit: it scores (option) and the dealer deals again
    assert codes(updates, UpdateKind.INSTRUCTION) == ["same_suit"]
    assert engine.scores() == {"A": 5, "B": 0}
    updates = run(engine, "kick 2C")
    assert engine.state["game"]["hand"]["trump"] == "C"
    assert engine.state["game"]["hand"]["cards_each"]["east"] == 12
    assert of(updates, UpdateKind.TURN)[-1].player == "east"


def test_21d_same_suit_kicks_can_be_made_not_to_score_venue_option() -> None:
    engine = table(score_same_suit_kicks=False)
    run(engine, "deal S; kick 6H; beg; run; kick JH; kick AC")
    assert engine.scores() == {"A": 2 + 1, "B": 0}


def test_21d_after_running_the_hand_is_played_with_nine_cards_each() -> None:
    engine = table()
    run(engine, "deal S; kick 6H; beg; run; kick 2C")
    east = [f"{r}D" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10")]
    north = [f"{r}S" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10")]
    west = [f"{r}H" for r in ("2", "3", "4", "5", "7", "8", "9", "10", "Q")]
    south = [f"{r}C" for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J")]
    run(engine, f"E:{east[0]} N:{north[0]} W:{west[0]} S:{south[0]}")
    for i in range(1, 9):
        run(engine, f"S:{south[i]} E:{east[i]} N:{north[i]} W:{west[i]}")
    assert len(engine.state["game"]["hand"]["tricks"]) == 9
    # kick 6H 2; High JC, Low 3C, Jack (kept) and Game all to south's pair
    assert engine.scores() == {"A": 2 + 1 + 1 + 1 + 2, "B": 0}
    contract_holds(engine)


def test_21e_run_out_keeps_the_deal_and_the_kicked_points() -> None:
    engine = table()
    updates = run(engine, "deal S; kick 6H; beg; run; kick 9H; kick 7H")
    assert codes(updates, UpdateKind.PHASE)[-1] == "run_out"
    assert engine.scores() == {"A": 2, "B": 0}
    with pytest.raises(RefereeError, match="south's deal"):
        run(engine, "deal E")
    updates = run(engine, "deal S")
    assert of(updates, UpdateKind.PHASE)[-1].data["dealer"] == "south"


def test_21e_run_out_that_completes_the_bullseye_passes_the_deal() -> None:
    engine = table()
    run(engine, "new_game S")
    give_points(engine, "A", 12)
    updates = run(engine, "deal; kick 6H; beg; run; kick 9H; kick 7H")
    assert engine.scores()["A"] == 14
    assert of(updates, UpdateKind.PHASE)[-1].data["next_dealer"] == "east"


def test_22a_a_card_cannot_be_played_while_the_dealer_decides() -> None:
    engine = table()
    run(engine, "deal S; kick 6H; beg")
    with pytest.raises(RefereeError, match="begged"):
        run(engine, "E:3H")


# -- 22b-22e trump in hand, blind stands ------------------------------------------------------------------


def test_22c_22d_blind_stand_by_leading_before_the_kick_gets_high_and_low_when_no_trump_is_played() -> None:
    engine = table()
    updates = run(engine, "deal S; E:AC")
    assert codes(updates, UpdateKind.PHASE)[-1] == "blind_stand"
    updates = run(engine, "kick 6H")
    assert of(updates, UpdateKind.TURN)[-1].player == "north"  # the blind lead stands: no begging
    rest = NO_HEARTS.split(";", 1)
    updates = run(engine, "N:2C W:4C S:7C;" + rest[1])
    # kick 6H: 2 to A; 22d High and Low to the blind stander's pair, Game 21-0 to B
    assert engine.scores() == {"A": 2, "B": 1 + 1 + 2}
    assert not of(updates, UpdateKind.FOUL)
    assert [u.text for u in of(updates, UpdateKind.SCORE)][0].endswith("stood blind (22d) (1 point)")


def test_22b_standing_without_trump_loses_the_bullseye_when_the_hand_shows_it() -> None:
    engine = table()
    run(engine, "deal S; kick 6H; stand")
    updates = run(engine, NO_HEARTS)
    assert codes(updates, UpdateKind.FOUL) == ["stood_without_trump"]
    assert of(updates, UpdateKind.GAME_OVER)[0].player == "A"
    assert engine.state["bullseyes"] == {"A": 1, "B": 0}


def test_22b_with_the_hands_known_a_stand_without_trump_is_called_at_once() -> None:
    engine = table()
    run(engine, "deal S; hands E=AC,AD,AS,KC,KD,KS; kick 6H")
    updates = run(engine, "stand")
    assert codes(updates, UpdateKind.FOUL) == ["stood_without_trump"]
    outcome = engine.outcome()
    assert outcome is not None and outcome.winner == "A"


def test_22c_blind_stand_declared_before_the_kick_but_played_after_it_needs_trump() -> None:
    engine = table()
    run(engine, "deal S; blind; kick 6H")
    updates = run(engine, NO_HEARTS)
    assert codes(updates, UpdateKind.FOUL) == ["blind_stand_without_trump"]


def test_22e_the_dealer_cannot_give_one_without_trump() -> None:
    engine = table()
    run(engine, "deal S; kick 6H; beg; give")
    updates = run(engine, NO_HEARTS)
    assert codes(updates, UpdateKind.FOUL) == ["gave_without_trump"]
    assert engine.state["bullseyes"] == {"A": 0, "B": 1}


# -- trick play: 2a trump and play anything, 23 card on board --------------------------------------------------


def test_2a_a_player_may_trump_instead_of_following_suit() -> None:
    engine = table()
    run(engine, "deal S; kick 5H; stand; E:2C N:9H W:4C S:KC")
    updates = run(engine, "N:3C")  # north had clubs and trumped: allowed
    assert not of(updates, UpdateKind.FOUL)
    assert engine.state["game"]["hand"]["tricks"][0]["winner"] == "north"


def test_2a_void_in_the_suit_led_a_player_may_play_anything() -> None:
    engine = table()
    run(engine, "deal S; kick 5H; stand")
    updates = run(engine, "E:2C N:7D W:4C S:KC; S:AS E:3S N:8D W:2S")
    assert not of(updates, UpdateKind.FOUL)
    assert of(updates, UpdateKind.TRICK)[0].player == "south"


def test_trick_goes_to_the_highest_trump_else_the_highest_of_the_suit_led() -> None:
    engine = table()
    updates = run(engine, "deal S; kick 5H; stand; E:KC N:AD W:2H S:AC")
    assert of(updates, UpdateKind.TRICK)[0].player == "west"


def test_23b_two_cards_landing_together_the_bottom_card_counts() -> None:
    engine = table()
    run(engine, "deal S; kick 5H; stand; E:2C")
    updates = run(engine, "N:4C+KD")
    assert codes(updates, UpdateKind.INFO) == ["bottom_card_counts"]
    trick = engine.state["game"]["hand"]["tricks"][0]
    assert [p["card"] for p in trick["plays"]] == ["2C", "4C"]
    run(engine, "W:3C S:5C")
    updates = run(engine, "S:6D E:7D N:KD W:8D")  # the king went back to north's hand
    assert of(updates, UpdateKind.TRICK)[0].player == "north"


def test_23b_a_hidden_bottom_card_is_hiding_and_loses_the_bullseye() -> None:
    engine = table()
    run(engine, "deal S; kick 5H; stand; E:2C")
    top = TableEvent(t=20, type=EventType.CARD_PLAYED, data={"card": "KD", "seat": "north", "order": 1,
                                                              "bottom_hidden": True})
    updates = engine.apply(top)
    assert codes(updates, UpdateKind.FOUL) == ["hidden_card"]
    assert engine.state["bullseyes"] == {"A": 0, "B": 1}


def test_23c_a_lead_out_of_turn_is_taken_back_without_penalty() -> None:
    engine = table()
    run(engine, "deal S; kick 5H; stand")
    updates = run(engine, "N:QS")
    assert codes(updates, UpdateKind.INSTRUCTION) == ["lead_out_of_turn"]
    assert of(updates, UpdateKind.INSTRUCTION)[0].clause == "23c"
    updates = run(engine, "back N:QS")
    assert codes(updates, UpdateKind.INFO) == ["card_retrieved"]
    assert of(updates, UpdateKind.TURN)[0].player == "east"
    run(engine, "E:2C N:4C W:3C S:5C")
    assert engine.scores() == {"A": 0, "B": 0}
    assert engine.state["game"]["hand"]["tricks"][0]["plays"][1]["card"] == "4C"


def test_23c_a_lead_out_of_turn_before_the_stand_waits_to_be_taken_back() -> None:
    engine = table()
    run(engine, "deal S; kick 5H")
    updates = run(engine, "W:QS")
    assert codes(updates, UpdateKind.INSTRUCTION) == ["lead_out_of_turn"]
    with pytest.raises(RefereeError, match="taken back"):
        run(engine, "beg")
    run(engine, "back W:QS; beg; give")
    assert engine.scores() == {"A": 0, "B": 1}


def test_23d_once_the_lead_is_down_a_card_played_out_of_turn_stands() -> None:
    engine = table()
    run(engine, "deal S; kick 5H; stand; E:2C")
    updates = run(engine, "S:5C")
    assert codes(updates, UpdateKind.INFO) == ["card_to_board"]
    assert of(updates, UpdateKind.TURN)[-1].player == "north"
    with pytest.raises(RefereeError, match="card on board"):
        run(engine, "back S:5C")
    updates = run(engine, "N:4C W:3C")
    assert of(updates, UpdateKind.TRICK)[0].player == "south"


def test_23d_a_lead_out_of_turn_not_taken_back_before_the_lead_becomes_card_to_board() -> None:
    engine = table()
    run(engine, "deal S; kick 5H; stand; W:3C")
    updates = run(engine, "E:2C")
    assert codes(updates, UpdateKind.INFO) == ["card_to_board"]
    updates = run(engine, "N:4C S:5C")
    assert of(updates, UpdateKind.TRICK)[0].data["cards"] == ["2C", "3C", "4C", "5C"]


@pytest.mark.parametrize(
    ("before", "last", "message"),
    [
        ("E:2C", "N:2C", "already on the board"),
        ("", "E:5H", "kicked card"),
        ("E:2C", "E:3C", "already played"),
        ("hands E=2C,3C,4C,5C,6C,7H", "E:8C", "not in east's hand"),
        ("hands E=2C,3C,4C,5C,6C,7H", "N:3C", "seen in east's hand"),
        ("", "E:ZZ", "not a card"),
        ("", "X:2C", "not a seat"),
    ],
)
def test_impossible_plays_are_refused_and_change_nothing(before: str, last: str, message: str) -> None:
    engine = table()
    run(engine, "deal S; kick 5H; stand")
    if before:
        run(engine, before)
    state = engine.state_json()
    with pytest.raises((RefereeError, ValueError), match=message):
        run(engine, last)
    assert engine.state_json() == state


def test_a_fifth_card_to_a_trick_the_camera_numbered_cannot_happen() -> None:
    engine = table()
    run(engine, "deal S; kick 5H; stand; E:2C N:4C W:3C S:5C")
    fifth = TableEvent(t=30, type=EventType.CARD_PLAYED, data={"card": "6C", "seat": "north", "trick": 1})
    with pytest.raises(RefereeError, match="already has its cards"):
        engine.apply(fifth)
    early = TableEvent(t=31, type=EventType.CARD_PLAYED, data={"card": "6C", "seat": "south", "trick": 3})
    with pytest.raises(RefereeError, match="trick 2 is being played"):
        engine.apply(early)
    on_time = TableEvent(t=32, type=EventType.CARD_PLAYED, data={"card": "6C", "seat": "south", "trick": 2, "turn": 1})
    assert of(engine.apply(on_time), UpdateKind.TURN)[0].player == "east"


def test_a_card_before_the_kick_is_only_the_lead_players_blind_stand() -> None:
    engine = table()
    run(engine, "deal S")
    with pytest.raises(RefereeError, match="not kicked"):
        run(engine, "N:2C")


def test_events_the_card_table_does_not_use_are_refused() -> None:
    engine = table()
    with pytest.raises(RefereeError, match="card_kicked, card_played, card_retrieved"):
        engine.apply(TableEvent(t=1, type=EventType.POT, objects=("ball-3",)))


def test_unknown_inputs_are_refused_listing_the_accepted_kinds() -> None:
    engine = table()
    with pytest.raises(RefereeError, match="accepted: teams, new_game, deal"):
        engine.apply(HumanInput(t=1, kind="called_shot"))


# -- 27a scoring -------------------------------------------------------------------------------------------------


def test_27a_a_full_hand_scores_high_low_hang_jack_and_game_in_order() -> None:
    engine = table()
    run(engine, "deal S; kick 6H; stand")
    updates = run(engine, FULL_HAND)
    scored = [(u.code, u.player, u.points) for u in of(updates, UpdateKind.SCORE)]
    assert scored == [("high", "A", 1), ("low", "B", 1), ("hang_jack", "A", 3), ("game", "A", 2)]
    assert engine.scores() == {"A": 2 + 1 + 3 + 2, "B": 1}
    assert engine.state["hang_jacks"] == {"A": 1, "B": 0}
    assert engine.state["next_dealer"] == "east"  # the deal passes to the right (19b)
    contract_holds(engine)


def test_27a_game_counts_ten_10_ace_4_king_3_queen_2_jack_1_in_the_tricks_taken() -> None:
    engine = table()
    run(engine, "deal S; kick 6H; stand")
    updates = run(engine, FULL_HAND)
    # A took 10H+JH+AH (15) and KH+10C+JC (14); B took KC (3) and AS (4); twos to nines count nothing
    hand_over = [u for u in of(updates, UpdateKind.PHASE) if u.code == "hand_over"][0]
    assert hand_over.data["game_totals"] == {"A": 29, "B": 7}
    tricks = of(updates, UpdateKind.TRICK)
    assert [t.data["game_totals"] for t in tricks][:2] == [{"A": 15, "B": 0}, {"A": 15, "B": 3}]


def test_27a_the_jack_taken_by_the_holders_partner_scores_one() -> None:
    engine = table()
    run(engine, "deal S; kick 6H; stand")
    updates = run(engine, "E:3H N:JH W:4H S:AH")
    assert of(updates, UpdateKind.TRICK)[0].player == "south"
    updates = run(engine, "S:2C E:KC N:4C W:5C; E:AS N:2S W:3S S:4S; E:5D N:2D W:3D S:4D; "
                          "E:6D N:7D W:8D S:9D; S:QC E:9C N:10C W:JC")
    assert [(u.code, u.player, u.points) for u in of(updates, UpdateKind.SCORE)][2] == ("jack", "A", 1)
    assert engine.scores()["A"] == 2 + 1 + 1 + 2  # kick, High, Jack, Game


def test_27a_a_single_trump_in_play_is_both_high_and_low() -> None:
    engine = table()
    run(engine, "deal S; kick 5H; stand")
    updates = run(engine, "E:9H N:2C W:4C S:7C" + NO_HEARTS[NO_HEARTS.index(";"):])
    scored = [(u.code, u.player) for u in of(updates, UpdateKind.SCORE)]
    assert scored[:2] == [("high", "B"), ("low", "B")]


def test_27a_priority_the_count_stops_once_a_pair_has_fourteen() -> None:
    engine = table()
    run(engine, "new_game S")
    give_points(engine, "A", 12)
    run(engine, "deal; kick 5H; stand")
    updates = run(engine, FULL_HAND)
    scored = [(u.code, u.player) for u in of(updates, UpdateKind.SCORE)]
    assert scored == [("high", "A"), ("low", "B"), ("hang_jack", "A")]
    assert "not_counted" in codes(updates, UpdateKind.INFO)
    assert codes(updates, UpdateKind.CHOICE) == ["sing_now"]
    assert engine.scores() == {"A": 16, "B": 1}


def test_27f_equal_game_goes_to_the_dealers_opponents() -> None:
    engine = table()
    run(engine, "deal S; E:KC; kick 5H")  # a blind stand: no trump is needed for it (22c)
    # east/west take KC and KS (6), south/north take AD and QC (6): level at six
    updates = run(engine, "N:2C W:3C S:4C; E:2D N:AD W:3D S:4D; N:QC W:6C S:7C E:5C; "
                          "N:2S W:KS S:4S E:3S; W:6S S:9S E:8S N:7S; S:6D E:7D N:9D W:8D")
    game = [u for u in of(updates, UpdateKind.SCORE) if u.code == "game"]
    assert game[0].player == "B" and "dealer's opponents" in game[0].text


def test_27f_game_contested_over_nothing_still_goes_to_the_dealers_opponents_when_level() -> None:
    engine = table()
    run(engine, "deal E; N:2C; kick 5H")  # north stands blind; dealer east (B): a level Game goes to A
    updates = run(engine, "W:3C S:4C E:5C; E:2D N:6D W:4D S:3D")
    assert of(updates, UpdateKind.TRICK)[-1].player == "north"
    updates = run(engine, "N:2S W:3S S:4S E:5S; E:6S N:9S W:8S S:7S; N:7C W:8C S:9C E:6C; S:8D E:5D N:7D W:9D")
    game = [u for u in of(updates, UpdateKind.SCORE) if u.code == "game"]
    assert (game[0].player, game[0].points) == ("A", 2)  # no value card was played: 0-0, level
