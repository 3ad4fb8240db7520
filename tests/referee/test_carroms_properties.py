"""The engine contract under random play (hypothesis), setups of a board in progress among the items, and
the documented match log replaying cleanly."""

from __future__ import annotations

import contextlib
import io
import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tableref.events import EventType, HumanInput, LogItem, TableEvent, read_log
from tableref.referee import RefereeError
from tableref.referee.carroms import CarromsEngine
from tableref.referee.carroms_rules import HUMAN_FOULS, CarromFoul
from tableref.replay import replay_stream
from tests.referee.harness import check_engine_properties
from tests.referee.test_carroms_notation import events_of

LOG = Path(__file__).resolve().parents[2] / "docs" / "logs" / "carroms.jsonl"
FOUL_CODES = sorted(c.value for c in CarromFoul)


def _strike_text(data: st.DataObject, engine: CarromsEngine) -> str:
    """A plausible strike for the seat on turn, biased towards own pieces so boards get finished."""
    state = engine.state
    seat = state["turn"] or "south"
    colour = state["colour_of"].get(state["side_of"][seat], "white")
    own, opp = ("W", "B") if colour == "white" else ("B", "W")
    tokens: list[str] = []
    place = data.draw(st.sampled_from(["", "", "", "@ok", "@circle", "@moon", "@off"]))
    if place:
        tokens.append(place)
    if data.draw(st.integers(0, 9)) == 0:
        tokens.append(data.draw(st.sampled_from(["nocross", "cross back"])))
    first = data.draw(st.sampled_from(["", own, own, own, opp, "Q"]))
    if first:
        tokens.append(f"S -> {first}")
    pool = [own] * 6 + [opp, "Q", "S", f"{own}{data.draw(st.integers(1, 9))}"]
    for piece in data.draw(st.lists(st.sampled_from(pool), max_size=3)):
        tokens.append(f"pot {piece} {data.draw(st.sampled_from(['TL', 'TR', 'BR', 'BL']))}")
    if data.draw(st.integers(0, 12)) == 0:
        tokens.append(f"off {opp}")
    return "; ".join(tokens)


def _input(data: st.DataObject, t: float) -> LogItem:
    """A human input, valid or not: refusals must leave the state untouched."""
    kind = data.draw(st.sampled_from(["add_foul", "overrule", "owed_forgotten", "concede", "new_board",
                                      "break_winner", "toss", "nonsense"]))
    payload: dict[str, Any] = {}
    if kind == "add_foul":
        payload = {"code": data.draw(st.sampled_from(sorted(c.value for c in HUMAN_FOULS)))}
    elif kind == "overrule":
        payload = data.draw(st.sampled_from([{"foul": data.draw(st.sampled_from(FOUL_CODES))}, {"pot": "white"},
                                             {"pot": "black"}, {"pot": "striker"}, {"first_contact": "white"}]))
    elif kind == "concede":
        payload = {"seat": data.draw(st.sampled_from(["south", "north"])), "match": data.draw(st.booleans())}
    elif kind in ("break_winner",):
        payload = {"seat": data.draw(st.sampled_from(["south", "north", "east"]))}
    return HumanInput(t=t, kind=kind, data=payload)


def _event(data: st.DataObject, t: float) -> LogItem:
    """A stray table event: a late pot, a piece placed or moved, or something impossible."""
    type_ = data.draw(st.sampled_from(["pot", "placed", "moved", "removed", "contact", "at_rest", "cushion"]))
    obj = data.draw(st.sampled_from(["white", "black", "queen", "striker", "white-3", "black-7"]))
    where = "pocket-top-left" if type_ == "pot" else None
    objects = (obj, "striker") if type_ == "contact" else (obj,)
    return TableEvent(t=t, type=EventType(type_), objects=objects, where=where)


def _setup(data: st.DataObject, shadow: CarromsEngine, t: float) -> LogItem:
    """A ``setup``: the board the shadow engine holds entered again (the camera restarting), or a random one."""
    state = shadow.state
    counts = dict(state["on_board"])
    if data.draw(st.booleans()):
        counts = {"white": data.draw(st.integers(0, 9)), "black": data.draw(st.integers(0, 9)),
                  "queen": data.draw(st.integers(0, 1))}
    pieces: list[str] = []
    for colour in ("white", "black"):
        ids = [f"{colour}-{n}" for n in range(1, 10)]
        pieces += sorted(ids, key=lambda i: i in state["ids_off"])[:counts[colour]]
    if counts["queen"]:
        pieces.append("queen")
    payload: dict[str, Any] = {"on_table": {p: [100.0 + 60.0 * (k % 9), 200.0 + 60.0 * (k // 9)] for k, p in enumerate(pieces)}}
    if state["turn"] is None or data.draw(st.integers(0, 3)) == 0:
        payload["player"] = data.draw(st.sampled_from(sorted(state["seats"])))
    if state["queen_side"] and state["queen"] in ("covered", "awaiting_cover") and not counts["queen"]:
        key = "covered_by" if state["queen"] == "covered" else "awaiting_cover"
        payload["queen"] = {key: state["queen_side"]}
    if data.draw(st.integers(0, 3)) == 0:
        payload["scores"] = {side: data.draw(st.integers(0, 30)) for side in state["sides"]}
    return HumanInput(t=t, kind="setup", data=payload)


def _play(data: st.DataObject, shadow: CarromsEngine, steps: int) -> Iterator[LogItem]:
    """Items for the harness; a shadow engine fed the same items tells whose turn it is."""
    setup: list[LogItem] = []
    if data.draw(st.booleans()):
        seats = data.draw(st.sampled_from([{"south": "Ann", "north": "Bob"},
                                           {"south": "Ann", "north": "Cat", "west": "Bob", "east": "Dan"}]))
        setup.append(HumanInput(t=0.1, kind="players", data=seats))
    if data.draw(st.booleans()):
        setup.append(HumanInput(t=0.2, kind="break_winner", data={"seat": "north"}))
    for n in range(steps):
        batch: list[LogItem]
        roll = data.draw(st.integers(0, 9))
        t = float(n + 1)
        if setup:
            batch = [setup.pop(0)]
        elif shadow.state["phase"] == "board_over" and roll < 7:
            batch = [HumanInput(t=t, kind="new_board")]
        elif roll < 7:
            batch = list(events_of(shadow, _strike_text(data, shadow)))
        elif roll < 9:
            batch = [_input(data, t)] if data.draw(st.integers(0, 4)) else [_setup(data, shadow, t)]
        else:
            batch = [_event(data, t)]
        for item in batch:
            with contextlib.suppress(RefereeError):
                shadow.apply(item)
            yield item


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_engine_contract_holds_over_random_play(data: st.DataObject) -> None:
    options = {
        "queen_cover": data.draw(st.sampled_from(["next_strike", "same_turn"])),
        "match_points": data.draw(st.sampled_from([29, 12])),
        "match_boards": data.draw(st.sampled_from([8, 2])),
        "owed_lapse_from_camera": data.draw(st.booleans()),
        "next_board_break": data.draw(st.sampled_from(["rotate", "winner", "loser"])),
    }
    steps = data.draw(st.integers(5, 70))
    shadow = CarromsEngine(**options)
    engine = check_engine_properties(lambda: CarromsEngine(**options), _play(data, shadow, steps))
    state = engine.state
    on_board = state["on_board"]
    assert 0 <= on_board["white"] <= 9 and 0 <= on_board["black"] <= 9 and on_board["queen"] in (0, 1)
    assert (state["queen"] == "on_board") == (on_board["queen"] == 1) or state["phase"] in ("board_over", "match_over")


def test_the_documented_log_replays_with_no_questions() -> None:
    out = io.StringIO()
    with LOG.open(encoding="utf-8") as handle:
        code = replay_stream("carroms", handle, out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 0
    assert not [line for line in lines if "question" in line or "error" in line]
    final = lines[-1]["final"]
    totals: dict[str, int] = defaultdict(int)
    for line in lines[:-1]:
        if line["kind"] == "score":
            totals[line["player"]] += line["points"]
    assert {k: v for k, v in final["scores"].items() if v} == dict(totals)
    # the log's board 1: Asha clears white with the queen covered while all nine blacks stand
    assert final["scores"] == {"Asha": 9 + 5, "Ben": 0} and final["state"]["board"] == 2


def test_the_documented_log_keeps_the_engine_contract() -> None:
    with LOG.open(encoding="utf-8") as handle:
        items = list(read_log(handle))
    check_engine_properties(CarromsEngine, items)
