"""Every simulated ball-game clip, refereed from its first frame with a ``setup``: no questions.

A clip starts part-way through a frame, rack or board (the simulator puts the balls where its
scenario needs them), which is exactly the venue that switches tableref on mid-game. The test
applies a ``setup`` of frame 0, then feeds the clip's true events; each ``RefereeError`` would be a
question on the referee's tablet, and there must be none. A clip that carries its own inputs
(``meta["inputs"]``: its opening setup, the Up and Down calls) is refereed with them, and its setup
must list every object of frame 0; for a clip without them the test builds the setup from frame 0
and, in Up and Down, calls the first ball the struck ball touches (skipping a shot that is not a
legal call, saying which).

The simulator is another engineer's moving target, so the scenario list is read when the tests
run: a scenario that no longer exists is skipped, and a new one is checked as soon as it appears.
"""

from __future__ import annotations

from typing import Any

import pytest

from tableref.events import EventType, HumanInput, LogItem, TableEvent, from_json
from tableref.referee import RefereeError, make_engine

scenarios = pytest.importorskip("tableref.simulator.scenarios")
sim_state = pytest.importorskip("tableref.simulator.state")

GAMES = ("bar-billiards", "up-and-down", "colors", "carroms")
#: the scenarios there were when this test was written (kept, so a removed one shows as skipped)
KNOWN: dict[str, tuple[str, ...]] = {
    "bar-billiards": ("break-off", "potting-visit", "miss", "return-to-baulk", "white-pin-falls", "black-pin-falls",
                      "pin-nudged", "ball-leaves-table", "ball-returns", "endgame"),
    "up-and-down": ("break", "break-weak", "legal-pot", "scratch", "miss-short", "no-rail", "ball-off-table",
                    "two-ball-pot"),
    "colors": ("break", "break-weak", "legal-pot", "scratch", "miss-short", "no-rail", "ball-off-table",
               "two-ball-pot"),
    "carroms": ("break", "pot", "striker-pocketed", "queen-covered", "queen-returned", "piece-off-board"),
}


def cases() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for game in GAMES:
        names = dict.fromkeys([*KNOWN[game], *scenarios.SCENARIOS.get(game, {})])
        out.extend((game, name) for name in names)
    return out


def simulate(game: str, name: str) -> Any:
    if name not in scenarios.SCENARIOS.get(game, {}):
        pytest.skip(f"the simulator has no {game} scenario {name!r} any more")
    return scenarios.run_scenario(game, name, seed=1)


def own_inputs(sim: Any) -> list[HumanInput]:
    """The human inputs the clip carries (none for a simulator that does not record them)."""
    items = [from_json(raw) for raw in sim.meta.get("inputs", ())]
    return [i for i in items if isinstance(i, HumanInput)]


def setup_from_first_frame(game: str, sim: Any, player: str) -> HumanInput:
    """The position of frame 0: every object the simulator has on the table, and who is to play."""
    on_table = {o.id: [o.x, o.y] for o in sim.frames[0].objects if o.status is sim_state.ObjectStatus.ON_TABLE}
    own = [i for i in own_inputs(sim) if i.kind == "setup"]
    if own:  # the clip's own setup: it must describe frame 0, the first thing in the clip
        assert own[0].t == 0.0 and set(own[0].data["on_table"]) == set(on_table) - {"striker"}
        return own[0]
    data: dict[str, Any] = {"on_table": on_table, "player": player}
    meta = dict(sim.meta.get("setup") or {})
    if game == "bar-billiards" and meta.get("endgame"):
        # the clip starts in the endgame: the bar is down and the one ball left waits in the trough
        first = next((e.objects[0] for e in sim.events if e.objects and e.type.value in ("placed", "shot_start")), "white")
        data.update(clock_expired=True, trough={"red" if first == "red" else "white": 1})
    if game == "carroms":
        colour = meta.get("shooter_colour", "white")
        white = player if colour == "white" else OPPOSITE[player]
        data["white"] = white
        if "queen" not in on_table:  # the clip starts with the queen pocketed: whoever could have covered her did
            own_pocketed = sum(k.startswith(colour) for k in on_table) < 9
            data["queen"] = {"covered_by": player if own_pocketed else OPPOSITE[player]}
    return HumanInput(t=0.0, kind="setup", data=data)


OPPOSITE = {"south": "north", "north": "south", "east": "west", "west": "east"}


def first_player(game: str, sim: Any, engine: Any) -> str:
    """Who is at the table in frame 0: the clip's shooter where the simulator says, else the first player."""
    if game == "bar-billiards":
        return "home"
    if game == "carroms":
        meta = dict(sim.meta.get("setup") or {})
        return str(meta.get("shooter") or (sim.meta.get("shots") or [{}])[0].get("seat", "south"))
    return str(engine.state["core"]["players"][0])


def first_touched(events: list[TableEvent], start: int) -> str | None:
    """The ball the struck ball of ``events[start]`` touches first in its shot."""
    struck = events[start].objects[0]
    for e in events[start + 1:]:
        if e.type is EventType.AT_REST:
            return None
        if e.type is EventType.CONTACT and struck in e.objects:
            return next(o for o in e.objects if o != struck)
    return None


def referee_clip(game: str, name: str) -> tuple[list[str], list[LogItem]]:
    """Apply the setup and the clip's true events; return the questions (refusals) and the items applied."""
    sim = simulate(game, name)
    engine = make_engine(game)
    setup = setup_from_first_frame(game, sim, first_player(game, sim, engine))
    try:
        engine.apply(setup)
    except RefereeError as exc:
        return [f"the setup of frame 0 was refused: {exc}"], []
    questions: list[str] = []
    events = list(sim.events)
    calls = [i for i in own_inputs(sim) if i.kind == "called_shot"]
    for i, event in enumerate(events):
        if game == "up-and-down" and event.type is EventType.SHOT_START and engine.state["core"]["phase"] == "play":
            target = first_touched(events, i)
            if calls:  # the clip's own call for this shot
                try:
                    engine.apply(calls.pop(0))
                except RefereeError as exc:
                    questions.append(f"the clip's call before {event.t:.2f}s: {exc}")
            elif target is not None:
                call = HumanInput(t=event.t, kind="called_shot", data={"cue": event.objects[0], "ball": target})
                try:
                    engine.apply(call)
                except RefereeError as exc:
                    pytest.skip(f"up-and-down {name}: {event.objects[0]} first touches {target}, not a legal call ({exc})")
        try:
            engine.apply(event)
        except RefereeError as exc:
            questions.append(f"{event.type.value} {list(event.objects)} at {event.t:.2f}s: {exc}")
    return questions, engine.log


@pytest.mark.parametrize(("game", "name"), cases())
def test_a_clip_refereed_from_a_setup_of_its_first_frame_raises_no_question(game: str, name: str) -> None:
    questions, applied = referee_clip(game, name)
    assert questions == [], f"{game} {name}: the simulator's truth was refused:\n" + "\n".join(questions)
    assert isinstance(applied[0], HumanInput) and applied[0].kind == "setup"
