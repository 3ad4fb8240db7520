"""All-Fours (IC2024): renege and under-trumping (24), misdeals (20), kick irregularities (21, 25c),
penalties entered by the referee and overruling. Each test names its clause."""

from __future__ import annotations

import pytest

from tableref.events import EventType, TableEvent
from tableref.referee import RefereeError, Update, UpdateKind
from tableref.referee.all_fours import AllFoursEngine
from tableref.referee.all_fours_notation import run
from tests.referee.harness import check_engine_properties

FULL_HAND_AFTER_FIVE = (
    "E:KC N:4C W:5C; E:AS N:2S W:3S S:4S; E:5D N:2D W:3D S:4D; E:6D N:7D W:8D S:9D; S:KH E:9C N:10C W:JC"
)


def of(updates: list[Update], kind: UpdateKind) -> list[Update]:
    return [u for u in updates if u.kind is kind]


def fouls(updates: list[Update]) -> list[str | None]:
    return [u.code for u in of(updates, UpdateKind.FOUL)]


def playing(**options: object) -> AllFoursEngine:
    """South deals, hearts are trump (the five kicked scores nothing), east stands and leads."""
    engine = AllFoursEngine(**options)
    run(engine, "deal S; kick 5H; stand")
    return engine


def give_points(engine: AllFoursEngine, team: str, n: int) -> None:
    offender = "east" if team == "A" else "south"
    for _ in range(n):
        run(engine, f"!add_penalty code=looked_at_cards seat={offender}")


# -- 24a renege ----------------------------------------------------------------------------------------------


def test_24a_a_renege_proven_by_a_later_card_loses_the_bullseye() -> None:
    engine = playing()
    updates = run(engine, "E:2C N:5D W:4C S:KC")  # north throws a diamond on clubs: nothing proven yet
    assert not fouls(updates)
    updates = run(engine, "S:QC E:8C N:9C")  # north had clubs all along
    foul = of(updates, UpdateKind.FOUL)[0]
    assert (foul.code, foul.clause, foul.player) == ("renege", "24a", "north")
    assert "9 of clubs was in the hand when clubs were led to trick 1" in foul.text
    assert of(updates, UpdateKind.GAME_OVER)[0].player == "B"
    assert engine.state["bullseyes"] == {"A": 0, "B": 1}
    check_engine_properties(AllFoursEngine, engine.log)


def test_24a_reneging_on_a_trump_lead_loses_the_bullseye() -> None:
    engine = playing()
    run(engine, "E:AH N:5D W:4H S:6H")
    updates = run(engine, "E:KH N:8H")
    assert fouls(updates) == ["renege"]


def test_24a_a_claim_with_the_hand_shown_upholds_the_renege() -> None:
    engine = playing()
    run(engine, "E:2C N:5D W:4C S:KC")
    updates = run(engine, "!claim_renege seat=N cards=9C,2S")
    assert fouls(updates) == ["renege"]
    assert engine.state["bullseyes"]["B"] == 1


def test_24a_a_claim_the_shown_hand_does_not_prove_is_not_upheld() -> None:
    engine = playing()
    run(engine, "E:2C N:5D W:4C S:KC")
    updates = run(engine, "!claim_renege seat=N cards=2S,3S")
    assert [u.code for u in updates] == ["claim_not_upheld"]
    assert engine.phase() == "play"
    with pytest.raises(RefereeError, match="has been played"):
        run(engine, "!claim_renege seat=N cards=KC")


# -- 24b under-trumping and the flush exception --------------------------------------------------------------------


def test_24b_under_trumping_loses_the_bullseye() -> None:
    engine = playing()
    run(engine, "E:2C N:9H W:3H S:4C")
    updates = run(engine, "N:2S E:3S W:4S")  # west held a spade when he went under the nine
    foul = of(updates, UpdateKind.FOUL)[0]
    assert (foul.code, foul.clause, foul.player) == ("under_trump", "24b", "west")
    assert engine.state["bullseyes"] == {"A": 1, "B": 0}


def test_24b_a_flush_hand_may_under_trump() -> None:
    engine = playing()
    run(engine, "hands W=3H,4H,6H,7H,8H,10H")
    updates = run(engine, "E:2C N:9H W:3H S:4C")
    assert not fouls(updates)


@pytest.mark.parametrize(("mode", "called"), [("remaining", False), ("dealt", True)])
def test_24b_flush_exception_venue_option_remaining_or_dealt(mode: str, called: bool) -> None:
    engine = playing(flush_exception=mode)
    run(engine, "hands W=2D,3H,4H,6H,7H,8H; E:AD N:3D W:2D S:4D")
    updates = run(engine, "E:2C N:9H W:3H")  # west has nothing but trumps left
    assert fouls(updates) == (["under_trump"] if called else [])


def test_27g_a_sure_point_played_to_sing_is_not_under_trumping() -> None:
    engine = AllFoursEngine()
    run(engine, "new_game S")
    give_points(engine, "A", 13)
    run(engine, "deal; kick 5H; stand; hands S=2H,4C,7C,8D,9D,KS")
    updates = run(engine, "E:2C N:9H W:3C S:2H")  # south goes under his partner with the two: sure Low
    assert not fouls(updates)
    assert "sure_point" in [u.code for u in updates]
    updates = run(engine, "sing S")
    assert [u.code for u in of(updates, UpdateKind.SCORE)] == ["low"]
    over = of(updates, UpdateKind.GAME_OVER)[0]
    assert over.player == "A" and over.data["bullseyes"] == 2  # 14-0 counts two (30d)


# -- 24c the Jack -------------------------------------------------------------------------------------------------


def test_24c_reneging_to_save_the_jack_loses_two_bullseyes_and_the_jack_is_hung() -> None:
    engine = playing()
    run(engine, "E:AH N:5D W:4H S:6H")
    updates = run(engine, "E:KH N:JH")
    foul = of(updates, UpdateKind.FOUL)[0]
    assert (foul.code, foul.clause, foul.data["amount"]) == ("renege_to_save_jack", "24c", 2)
    assert engine.state["bullseyes"] == {"A": 0, "B": 2}
    assert engine.state["hang_jacks"] == {"A": 0, "B": 1}


def test_24c_throwing_the_cards_in_to_save_the_jack_loses_two_bullseyes() -> None:
    engine = playing()
    run(engine, "E:2C")
    updates = run(engine, "!throw_in seat=N cards=JH,3S,4S")
    assert fouls(updates) == ["threw_in_jack"]
    assert engine.state["bullseyes"]["B"] == 2 and engine.state["hang_jacks"]["B"] == 1


def test_24c_a_throw_in_without_the_jack_is_not_refereed() -> None:
    engine = playing()
    with pytest.raises(RefereeError, match="24c"):
        run(engine, "!throw_in seat=N cards=3S,4S")


# -- overrule ---------------------------------------------------------------------------------------------------------


def test_the_referee_overrules_a_renege_and_play_resumes_without_calling_it_again() -> None:
    engine = playing()
    run(engine, "E:2C N:5D W:4C S:KC; S:QC E:8C")
    updates = run(engine, "N:9C")
    assert fouls(updates) == ["renege"]
    updates = run(engine, "!overrule")
    assert [u.code for u in updates][:1] == ["overruled"]
    assert of(updates, UpdateKind.TURN)[0].player == "west"
    assert engine.state["bullseyes"] == {"A": 0, "B": 0}
    updates = run(engine, "W:AC")
    assert not fouls(updates) and of(updates, UpdateKind.TRICK)[0].player == "west"
    check_engine_properties(AllFoursEngine, engine.log)


def test_overrule_only_takes_back_the_ruling_just_made() -> None:
    engine = playing()
    with pytest.raises(RefereeError, match="no ruling"):
        run(engine, "!overrule")
    run(engine, "!add_penalty code=looked_at_cards seat=east")
    assert engine.scores()["A"] == 1
    updates = run(engine, "!overrule")
    assert engine.scores()["A"] == 0 and [u.points for u in of(updates, UpdateKind.SCORE)] == [-1]
    run(engine, "!add_penalty code=looked_at_cards seat=east; E:2C")
    with pytest.raises(RefereeError, match="no ruling"):
        run(engine, "!overrule")


# -- 20 misdeals -------------------------------------------------------------------------------------------------------


def test_20a_a_misdeal_before_the_fifth_card_concedes_a_point_and_the_same_dealer_deals_over() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S; kick 6H")
    assert engine.scores() == {"A": 2, "B": 0}
    updates = run(engine, "!misdeal cause=wrong_count")
    assert fouls(updates) == ["wrong_count"] and of(updates, UpdateKind.FOUL)[0].clause == "20a"
    assert engine.scores() == {"A": 0, "B": 1}  # the kicked points are forfeited
    assert of(updates, UpdateKind.PHASE)[-1].code == "deal_over"
    updates = run(engine, "deal")
    assert of(updates, UpdateKind.PHASE)[-1].data["dealer"] == "south"


def test_20b_a_wrong_count_after_the_fifth_card_forfeits_the_offenders_points() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S; kick 6H; stand; E:3H N:10H W:JH S:AH; S:2C")
    updates = run(engine, "!misdeal cause=wrong_count seat=W")
    assert of(updates, UpdateKind.FOUL)[0].clause == "20b"
    assert engine.scores() == {"A": 3, "B": 0}
    updates = run(engine, FULL_HAND_AFTER_FIVE)
    assert "forfeited" in [u.code for u in of(updates, UpdateKind.INFO)]  # east's Low
    assert engine.scores() == {"A": 3 + 1 + 3 + 2, "B": 0}
    assert engine.state["next_dealer"] == "east"  # the deal moves on


def test_20b_the_dealing_pair_with_a_wrong_count_also_forfeits_the_kick() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S; kick 6H; stand; E:3H N:10H W:JH S:AH; S:2C; !misdeal cause=wrong_count seat=N")
    run(engine, FULL_HAND_AFTER_FIVE)
    assert engine.scores() == {"A": 0, "B": 1 + 1}  # the misdeal point and east's Low


def test_20b_cards_held_lets_a_short_hand_be_played_out() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S; kick 6H; stand; E:3H N:10H W:JH S:AH; S:2C; !misdeal cause=wrong_count seat=N cards_held=4")
    updates = run(engine, "E:KC N:4C W:5C; E:AS N:2S W:3S S:4S; E:5D N:2D W:3D S:4D; E:6D N:7D W:8D S:9D")
    assert of(updates, UpdateKind.TURN)[-1].player == "south"
    updates = run(engine, "S:KH E:9C W:JC")  # north has played his five: the last trick has three cards
    assert of(updates, UpdateKind.PHASE)[-1].code == "hand_over"


def test_20c_a_misdeal_point_that_completes_the_bullseye_passes_the_deal() -> None:
    engine = AllFoursEngine()
    run(engine, "new_game E")
    give_points(engine, "A", 13)
    updates = run(engine, "deal; kick 5H; !misdeal cause=deal_variation")
    assert engine.scores()["A"] == 14
    phase = of(updates, UpdateKind.PHASE)[-1]
    assert (phase.code, phase.clause, phase.data["next_dealer"]) == ("deal_passes", "20c", "north")


def test_20d_two_misdeals_running_lose_the_deal() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S; !misdeal cause=landslide")
    assert engine.state["next_dealer"] == "south"
    updates = run(engine, "deal; !misdeal cause=landslide")
    phase = of(updates, UpdateKind.PHASE)[-1]
    assert (phase.clause, phase.data["next_dealer"]) == ("20d", "east")
    assert engine.scores() == {"A": 0, "B": 2}


def test_20a_only_a_wrong_count_can_be_reported_after_the_fifth_card() -> None:
    engine = playing()
    run(engine, "E:2C N:4C W:3C S:5C; S:6C")
    with pytest.raises(RefereeError, match="first round"):
        run(engine, "!misdeal cause=landslide")


def test_19a_a_wrong_saddle_is_dealt_over_without_points() -> None:
    engine = AllFoursEngine()
    updates = run(engine, "deal S; !misdeal cause=wrong_saddle")
    assert engine.scores() == {"A": 0, "B": 0} and of(updates, UpdateKind.FOUL)[0].clause == "19a"
    assert engine.state["misdeal_streak"] == 0


def test_18b_turning_the_cards_over_at_the_cut_costs_the_offender_a_point() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S; !misdeal cause=cut_turned_over seat=west")
    assert engine.scores() == {"A": 1, "B": 0}
    with pytest.raises(RefereeError, match="needs the seat"):
        run(engine, "deal; !misdeal cause=cut_turned_over")


def test_misdeal_causes_are_a_closed_list() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S")
    with pytest.raises(RefereeError, match="accepted: wrong_count, deal_variation"):
        run(engine, "!misdeal cause=sloppy")
    with pytest.raises(RefereeError, match="kick_irregularity"):
        run(engine, "!misdeal cause=pack_fell_before_kick")


# -- 21, 25c kick irregularities ----------------------------------------------------------------------------------------


def test_21b_the_dealer_handling_the_pack_before_the_kick_loses_a_point_and_the_kick() -> None:
    engine = AllFoursEngine()
    updates = run(engine, "deal S; kick JH; !kick_irregularity code=dealer_handled_pack")
    assert of(updates, UpdateKind.FOUL)[-1].clause == "21b"
    assert engine.scores() == {"A": 0, "B": 1}
    assert engine.state["next_dealer"] == "south"


@pytest.mark.parametrize(("code", "scores"), [("two_cards_kicked", {"A": 0, "B": 1}),
                                               ("two_cards_wrongly_declared", {"A": 1, "B": 0})])
def test_21c_two_cards_kicked_is_a_misdeal_whoever_declares(code: str, scores: dict[str, int]) -> None:
    engine = AllFoursEngine()
    run(engine, f"deal S; kick 7D; !kick_irregularity code={code}")
    assert engine.scores() == scores
    assert engine.state["misdeal_streak"] == 1


def test_21f_the_card_cut_from_the_top_cannot_be_kicked() -> None:
    engine = AllFoursEngine()
    updates = run(engine, "deal S; kick AH; !kick_irregularity code=top_cut_card_kicked")
    assert engine.scores() == {"A": 0, "B": 1}
    assert [u.code for u in of(updates, UpdateKind.INSTRUCTION)] == ["kick_again"]
    run(engine, "kick 7D")
    assert engine.state["game"]["hand"]["trump"] == "D"


def test_21d_running_the_pack_wrongly_costs_a_point_and_play_goes_on() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S; kick 5H")
    with pytest.raises(RefereeError, match="not been run"):
        run(engine, "!kick_irregularity code=run_variation")
    run(engine, "beg; run; !kick_irregularity code=run_variation; kick 2C")
    assert engine.scores() == {"A": 0, "B": 1}
    assert engine.phase() == "play"


def test_25c_the_pack_falling_before_the_kick_is_dealt_over_without_penalty() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S; !kick_irregularity code=pack_fell_before_kick")
    assert engine.scores() == {"A": 0, "B": 0} and engine.state["next_dealer"] == "south"


def test_25c_the_pack_fouled_after_the_kick_gives_the_other_pair_a_point_and_voids_the_kick() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S; kick 6H; !kick_irregularity code=pack_fell_after_kick seat=north")
    assert engine.scores() == {"A": 0, "B": 1}


def test_25c_25d_after_the_lead_player_begs_fallen_cards_are_void_and_play_goes_on() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S; kick 6H; beg")
    with pytest.raises(RefereeError, match="25d"):
        run(engine, "!kick_irregularity code=pack_fell_after_kick seat=north")


# -- penalties the referee enters --------------------------------------------------------------------------------------


def test_22f_looking_at_the_cards_gives_the_other_pair_a_point() -> None:
    engine = playing()
    updates = run(engine, "!add_penalty code=looked_at_cards seat=west")
    foul = of(updates, UpdateKind.FOUL)[0]
    assert (foul.clause, foul.data["to"]) == ("22f", "A") and engine.scores() == {"A": 1, "B": 0}


def test_16a_a_penalty_bullseye_is_added_and_the_game_goes_on() -> None:
    engine = playing()
    updates = run(engine, "!add_penalty code=late_start team=B")
    assert engine.state["bullseyes"] == {"A": 1, "B": 0}
    assert not of(updates, UpdateKind.GAME_OVER) and engine.phase() == "play"


def test_25a_dishonesty_loses_the_game_in_progress() -> None:
    engine = playing()
    updates = run(engine, "!add_penalty code=dishonesty seat=west")
    assert of(updates, UpdateKind.GAME_OVER)[0].player == "A"


def test_27h_erasing_points_before_singing_puts_them_back_to_zero() -> None:
    engine = AllFoursEngine()
    run(engine, "new_game S")
    give_points(engine, "B", 5)
    run(engine, "!add_penalty code=erased_points team=B")
    assert engine.scores() == {"A": 0, "B": 0}


def test_27f_handling_the_pack_while_game_is_contested_concedes_game() -> None:
    engine = AllFoursEngine()
    run(engine, "deal S; kick 6H; stand; E:3H N:10H W:JH S:AH; S:2C E:KC N:4C W:5C; E:AS N:2S W:3S S:4S; "
                "E:5D N:2D W:3D S:4D; E:6D N:7D W:8D S:9D; S:KH E:9C N:10C")
    run(engine, "!add_penalty code=handled_pack_in_gamble seat=north")
    updates = run(engine, "W:JC")
    game = [u for u in of(updates, UpdateKind.SCORE) if u.code == "game"]
    assert game[0].player == "B"  # south/north took 29 to 7 but conceded Game


def test_add_penalty_takes_only_the_referees_codes() -> None:
    engine = playing()
    with pytest.raises(RefereeError, match="from the cards"):
        run(engine, "!add_penalty code=renege seat=north")
    with pytest.raises(RefereeError, match="accepted: hidden_card, wrong_table"):
        run(engine, "!add_penalty code=rudeness seat=north")
    with pytest.raises(RefereeError, match="name the offender"):
        run(engine, "!add_penalty code=looked_at_cards")


def test_the_camera_object_id_and_gathering_a_trick_are_understood() -> None:
    engine = playing()
    updates = engine.apply(TableEvent(t=10, type=EventType.CARD_PLAYED, objects=("card-2C",), data={"seat": "east"}))
    assert of(updates, UpdateKind.TURN)[0].player == "north"
    assert engine.apply(TableEvent(t=11, type=EventType.REMOVED, objects=("card-2C",))) == []
