"""Carroms: refereeing a board that is already in progress (the ``setup`` input).

The referee enters the pieces on the board, the seat to strike, the match totals and where the
queen is; pieces not on the board are pocketed. Every strike after it is judged as if the engine
had watched the board get there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tableref.events import HumanInput, parse_line
from tableref.referee import RefereeError, UpdateKind
from tableref.referee.carroms import CarromsEngine
from tests.referee.test_carroms_notation import codes, of_kind, on_board, say, strike, turn


def documented_setups(doc: str) -> list[HumanInput]:
    """The ``setup`` examples of ``docs/referee/<doc>.md`` (its JSON blocks, one input a line)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "referee" / f"{doc}.md").read_text("utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
    items = [parse_line(line) for block in blocks for line in block.splitlines() if '"input": "setup"' in line]
    return [i for i in items if isinstance(i, HumanInput) and i.kind == "setup"]


def board(whites: int, blacks: int, queen: bool = True, skip: tuple[str, ...] = ()) -> dict[str, list[float]]:
    """Pieces in the middle of the board (clear of every baseline): white-1.., black-1.., the queen."""
    ids = [f"white-{n}" for n in range(1, 10)][:whites + len([s for s in skip if s.startswith("white")])]
    ids += [f"black-{n}" for n in range(1, 10)][:blacks + len([s for s in skip if s.startswith("black")])]
    ids = [i for i in ids if i not in skip] + (["queen"] if queen else [])
    return {piece: [220.0 + 40.0 * (k % 8), 220.0 + 40.0 * (k // 8)] for k, piece in enumerate(ids)}


def ann_and_bob() -> CarromsEngine:
    engine = CarromsEngine()
    say(engine, "players", south="Ann", north="Bob")
    return engine


def set_up(engine: CarromsEngine, **data: Any) -> list[Any]:
    return say(engine, "setup", **data)


def mid_board(**extra: Any) -> CarromsEngine:
    """Board 3: Ann (white, 4 left) has covered the queen; Bob (black, 6 left) is to strike; 10-7 to Ann."""
    engine = ann_and_bob()
    data: dict[str, Any] = {"on_table": board(4, 6, queen=False), "player": "Bob", "white": "Ann",
                            "queen": {"covered_by": "Ann"}, "scores": {"Ann": 10, "Bob": 7}, "board": 3}
    data.update(extra)
    set_up(engine, **data)
    return engine


def test_setup_is_one_of_the_input_kinds_the_tablet_offers() -> None:
    assert "setup" in CarromsEngine().input_kinds()


def test_a_board_resumed_mid_way_plays_on_with_the_turn_and_the_pieces_as_given() -> None:
    engine = mid_board()
    state = engine.state
    assert state["board"] == 3 and turn(engine) == "north" and state["colour_of"] == {"Ann": "white", "Bob": "black"}
    assert on_board(engine) == {"white": 4, "black": 6, "queen": 0} and state["queen"] == "covered"
    assert engine.scores() == {"Ann": 10, "Bob": 7} and state["breaking"] is False
    updates = strike(engine, "@ok; S -> B2; pot B2 TL")
    assert of_kind(updates, UpdateKind.BREAK) and turn(engine) == "north"  # an own piece: strike again
    strike(engine, "@ok; S -> B3")
    assert turn(engine) == "south" and on_board(engine)["black"] == 5


def test_a_resumed_board_is_won_with_the_pieces_left_and_the_queen_bonus() -> None:
    engine = ann_and_bob()
    updates = set_up(engine, on_table=board(1, 3, queen=False), player="Ann", queen={"covered_by": "Ann"},
                     scores={"Ann": 10, "Bob": 7})
    updates += strike(engine, "@ok; S -> W1; pot W1 BR")
    over = of_kind(updates, UpdateKind.GAME_OVER)[0]
    assert over.player == "Ann" and over.data["pieces"] == 3 and over.data["queen_bonus"] == 5  # 10 is under 24
    assert engine.scores() == {"Ann": 18, "Bob": 7}
    sent = {p: sum(u.points or 0 for u in of_kind(updates, UpdateKind.SCORE) if u.player == p) for p in ("Ann", "Bob")}
    assert sent == engine.scores()  # the score contract holds across the setup


def test_the_queen_awaiting_cover_is_covered_by_an_own_piece_on_the_next_strike() -> None:
    engine = ann_and_bob()
    set_up(engine, on_table=board(5, 8, queen=False), player="south", queen={"awaiting_cover": "Ann"})
    updates = strike(engine, "@ok; S -> W2; pot W2 TR")
    assert "queen_covered" in codes(updates) and engine.state["queen"] == "covered"


def test_the_queen_awaiting_cover_is_returned_when_the_turn_ends_without_a_cover() -> None:
    engine = ann_and_bob()
    set_up(engine, on_table=board(5, 8, queen=False), player="south", queen={"awaiting_cover": "south"})
    updates = strike(engine, "@ok; S -> W2")
    assert "return_queen" in codes(updates) and on_board(engine)["queen"] == 1


def test_a_setup_before_the_toss_starts_the_board_with_the_player_breaking_with_white() -> None:
    engine = CarromsEngine()
    updates = set_up(engine, on_table=board(9, 9), player="north")
    state = engine.state
    assert state["phase"] == "ready" and state["board"] == 1 and turn(engine) == "north"
    assert state["colour_of"] == {"north": "white", "south": "black"} and state["breaking"] is True
    assert codes(updates, UpdateKind.TURN) == ["turn"]
    updates = strike(engine, "@ok")  # nothing touched: the first of three break attempts
    assert "break_again" in codes(updates) and turn(engine) == "north"


def test_a_setup_before_the_toss_without_a_player_is_refused() -> None:
    engine = CarromsEngine()
    before = engine.state_json()
    with pytest.raises(RefereeError, match="needs 'player'.*south, north"):
        set_up(engine, on_table=board(9, 9))
    assert engine.state_json() == before


def test_a_piece_pocketed_before_the_setup_cannot_be_pocketed_again() -> None:
    engine = ann_and_bob()
    set_up(engine, on_table=board(8, 9, skip=("white-5",)), player="Ann")
    with pytest.raises(RefereeError, match="white-5 is already pocketed"):
        strike(engine, "@ok; S -> W5; pot W5 TL")


def test_an_owed_penalty_given_at_the_setup_is_paid_once_a_piece_is_pocketed() -> None:
    engine = ann_and_bob()
    set_up(engine, on_table=board(9, 9, queen=True), player="Bob", white="Ann", owed={"Bob": 1}, breaking=False)
    updates = strike(engine, "@ok; S -> B1; pot B1 TL") + strike(engine, "@ok; S -> B2")
    assert "return_owed_piece" in codes(updates) and engine.state["owed"] == {"Ann": 0, "Bob": 0}


def test_doubles_keep_their_seats_and_a_partner_is_named_by_name() -> None:
    engine = CarromsEngine()
    say(engine, "players", south="Ann", north="Cat", west="Bob", east="Dan")
    set_up(engine, on_table=board(6, 7), player="Dan", white="Cat")
    state = engine.state
    assert turn(engine) == "east" and state["colour_of"]["Ann & Cat"] == "white"
    strike(engine, "@ok; S -> B1")
    assert turn(engine) == "south"  # clockwise: south, west, north, east


def test_break_winner_cannot_restart_a_board_set_up_in_progress() -> None:
    engine = mid_board()
    with pytest.raises(RefereeError, match="before a board's first strike"):
        say(engine, "break_winner", seat="south")


@pytest.mark.parametrize(("data", "match"), [
    ({"on_table": {"red-1": [300, 300], "black-1": [400, 400]}}, "unknown carrom object 'red-1'"),
    ({"on_table": {"white-10": [300, 300], "black-1": [400, 400]}}, "unknown carrom object 'white-10'"),
    ({"on_table": {"white": [300, 300], "black-1": [400, 400]}}, "name each piece, white-1..white-9"),
    ({"on_table": {"white-1": [300, 300], "white-01": [340, 300], "black-1": [400, 400]}}, "white-1 twice"),
    ({"on_table": {"white-1": [800, 300], "black-1": [400, 400]}}, "off the board.*0..740"),
    ({"on_table": {"white-1": [300, 300]}}, "no black piece on the board"),
    ({"on_table": board(4, 6, queen=False), "player": "east"}, "must be a seat \\(south, north\\)"),
    ({"on_table": board(4, 6, queen=False), "queen": "gone"}, "say where she is.*covered_by"),
    ({"on_table": board(4, 6), "queen": {"covered_by": "Ann"}}, "lists the queen on the board"),
    ({"on_table": board(9, 6, queen=False), "queen": {"covered_by": "Ann"}}, "no white piece pocketed"),
    ({"on_table": board(4, 6, queen=False), "queen": {"awaiting_cover": "Ann"}}, "only during Ann's own turn"),
    ({"on_table": board(4, 6, queen=False), "scores": {"Ann": 29}}, "29 wins the match"),
    ({"on_table": board(4, 6, queen=False), "owed": {"Bob": -1}}, "whole number >= 0"),
    ({"on_table": board(4, 6, queen=False), "seat": "north"}, "does not know 'seat'; accepted: on_table, player"),
    ({"on_table": board(9, 9), "player": "Bob", "breaking": True}, "the player breaking plays white"),
])
def test_a_malformed_setup_is_refused_saying_what_is_accepted_and_changes_nothing(data: dict[str, Any],
                                                                                  match: str) -> None:
    engine = mid_board()
    before = engine.state_json()
    with pytest.raises(RefereeError, match=match):
        set_up(engine, **data)
    assert engine.state_json() == before


def test_a_setup_is_refused_during_a_strike_and_after_the_match() -> None:
    engine = mid_board()
    strike(engine, "@ok; S -> B2; norest")
    with pytest.raises(RefereeError, match="between strikes"):
        set_up(engine, on_table=board(4, 6, queen=False))
    engine = mid_board()
    say(engine, "concede", seat="north", match=True)
    with pytest.raises(RefereeError, match="the match is over"):
        set_up(engine, on_table=board(4, 6, queen=False))


def test_undo_takes_a_setup_back_exactly() -> None:
    engine = ann_and_bob()
    say(engine, "break_winner", seat="south")
    strike(engine, "@ok; S -> W1 -> B1")
    before, scores = engine.state_json(), engine.scores()
    set_up(engine, on_table=board(4, 6, queen=False), queen={"covered_by": "Ann"}, scores={"Ann": 12})
    assert engine.scores() == {"Ann": 12, "Bob": 0}
    engine.undo()
    assert engine.state_json() == before and engine.scores() == scores


def test_every_documented_setup_example_is_accepted_by_a_fresh_match_between_asha_and_ben() -> None:
    examples = documented_setups("carroms")
    assert len(examples) >= 2
    for example in examples:
        engine = CarromsEngine()
        say(engine, "players", south="Asha", north="Ben")
        engine.apply(example)


def test_a_camera_restart_mid_board_keeps_the_covered_queen_when_the_setup_leaves_her_out() -> None:
    engine = mid_board()
    strike(engine, "@ok; S -> B2; pot B2 TL")
    set_up(engine, on_table=board(4, 5, queen=False, skip=("black-2",)))
    assert engine.state["queen"] == "covered" and engine.state["queen_side"] == "Ann"
    assert turn(engine) == "north" and engine.state["board"] == 3 and engine.scores() == {"Ann": 10, "Bob": 7}


def test_a_setup_after_a_finished_board_starts_the_next_board_in_progress() -> None:
    engine = mid_board(on_table=board(1, 3, queen=False), player="Ann")
    strike(engine, "@ok; S -> W1; pot W1 BR")  # Ann clears white: board 3 is over
    assert engine.state["phase"] == "board_over"
    set_up(engine, on_table=board(7, 8), player="Bob")
    assert engine.state["board"] == 4 and engine.state["colour_of"]["Bob"] == "white" and turn(engine) == "north"
    assert engine.state["results"][-1]["board"] == 3  # the match history stays
