"""Property tests for both pool referees: random, mostly legal play through ``check_engine_properties``.

A shadow engine follows the drawn items so that each shot is drawn from the balls really on the table
(a good break most of the time, calls that fit the numbering, pots of live balls), with some noise
mixed in: impossible pots, unknown inputs, overrules, added fouls, late drops and setups of a game in
progress (in Up and Down any position, in Colors the position the table holds, entered again). The harness then
checks the engine contract (atomic refusal, scores = sum of SCORE updates, exact undo and replay)
and each game's own invariants are checked along the way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tableref.events import EventType, HumanInput, LogItem, TableEvent
from tableref.referee import Engine, RefereeError
from tableref.referee.colors import ColorsEngine
from tableref.referee.pool_updown import Direction, next_ball
from tableref.referee.up_and_down import UpAndDownEngine
from tests.referee.harness import check_engine_properties
from tests.referee.test_pool_notation import COLORS_RACK, racked

POCKETS = ["pocket-top-left", "pocket-top-middle", "pocket-top-right",
           "pocket-bottom-left", "pocket-bottom-middle", "pocket-bottom-right"]
CUSHIONS = ["cushion-left", "cushion-right", "cushion-top", "cushion-bottom"]


class Drawer:
    """Draws items, applies them to a shadow engine and keeps the ones drawn (applied or refused)."""

    def __init__(self, data: st.DataObject, engine: Engine[Any]) -> None:
        self.data, self.engine = data, engine
        self.items: list[LogItem] = []
        self.t = 0.0

    def draw(self, strategy: st.SearchStrategy[Any]) -> Any:
        return self.data.draw(strategy)

    def push(self, item: LogItem) -> bool:
        self.items.append(item)
        try:
            self.engine.apply(item)
            return True
        except RefereeError:
            return False

    def event(self, kind: EventType, objects: list[str], where: str | None = None, **data: Any) -> bool:
        self.t = round(self.t + 0.1, 3)
        return self.push(TableEvent(t=self.t, type=kind, objects=tuple(objects), where=where, data=data))

    def inp(self, kind: str, **data: Any) -> bool:
        self.t = round(self.t + 0.1, 3)
        return self.push(HumanInput(t=self.t, kind=kind, data=data))

    @property
    def core(self) -> dict[str, Any]:
        core: dict[str, Any] = self.engine.state["core"]
        return core

    def live(self) -> list[int]:
        return sorted(self.core["on_table"])

    def shot(self, struck: int, target: int | None, positions: dict[str, list[float]] | None = None,
             at: list[float] | None = None, rails: int = 0, pots: list[int] | None = None) -> None:
        """One shot: struck ball, first contact, cushions, the given pots, maybe noise, at rest."""
        start: dict[str, Any] = {}
        if positions is not None:
            start["positions"] = positions
        if at is not None:
            start["position"] = at
        if not self.event(EventType.SHOT_START, [f"ball-{struck}"], **start):
            return
        live = [b for b in self.live() if b != struck] or [struck]
        if target is not None:
            self.event(EventType.CONTACT, [f"ball-{struck}", f"ball-{target}"])
        for ball in self.draw(st.lists(st.sampled_from([struck, *live]), max_size=rails, unique=True)):
            self.event(EventType.CUSHION, [f"ball-{ball}"], self.draw(st.sampled_from(CUSHIONS)))
        for ball in pots or []:
            self.event(EventType.POT, [f"ball-{ball}"], self.draw(st.sampled_from(POCKETS)))
        noise = self.draw(st.sampled_from(["none"] * 8 + ["off", "off_back", "bad_pot"]))
        if noise in ("off", "off_back"):
            self.event(EventType.OFF_TABLE, [f"ball-{self.draw(st.sampled_from(live))}"], returned=noise == "off_back")
        elif noise == "bad_pot":
            self.event(EventType.POT, [f"ball-{self.draw(st.integers(0, 15))}"], "pocket-top-left")
        rest = {f"ball-{b}": [self.draw(st.floats(40, 2500)), self.draw(st.floats(40, 1230))] for b in self.live()[:4]}
        self.event(EventType.AT_REST, [], positions=rest)
        if self.draw(st.integers(0, 19)) == 0 and self.live():
            self.event(EventType.POT, [f"ball-{self.draw(st.sampled_from(self.live()))}"], "pocket-top-right")

    def spread(self, balls: list[int]) -> dict[str, list[float]]:
        """Positions for a setup: each ball in its own cell of a grid, nudged (now and then far enough to
        land on a neighbour: a setup to refuse)."""
        return {f"ball-{b}": [round(150.0 + 140.0 * (b % 16) + self.draw(st.floats(-90, 90)), 1),
                              round(300.0 + 300.0 * (b % 3) + self.draw(st.floats(-90, 90)), 1)] for b in balls}

    def corrections(self, foul_codes: list[str]) -> None:
        roll = self.draw(st.integers(0, 29))
        if roll == 0:
            self.inp("overrule", foul=False)
        elif roll == 1:
            self.inp("add_foul", code=self.draw(st.sampled_from(foul_codes)))
        elif roll == 2:
            self.inp("beg")
        elif roll == 3:
            self.inp("overrule", turn=self.draw(st.sampled_from(self.core["players"])))


def draw_up_and_down(data: st.DataObject, options: dict[str, Any]) -> tuple[list[LogItem], Callable[[], Engine[Any]]]:
    def make() -> Engine[Any]:
        return UpAndDownEngine(**options)

    d = Drawer(data, make())
    d.inp("players", names=["Ann", "Bob"])
    codes = ["general_rules", "ball_off_table", "next_ball_not_moved"]
    for _ in range(d.draw(st.integers(5, 40))):
        core = d.core
        if core["phase"] == "over":
            break
        d.corrections(codes)
        if d.core["phase"] == "break":
            good = d.draw(st.integers(0, 4)) > 0
            pots = d.draw(st.lists(st.sampled_from(range(2, 16)), max_size=2, unique=True))
            d.shot(0, 1 if good else 7, positions=racked(), at=[300.0, 635.0], rails=6 if good else 2, pots=pots)
            continue
        live = d.live()
        cue = d.draw(st.sampled_from(live))
        fixed = d.core["directions"].get(d.core["turn"])
        direction = Direction(fixed) if fixed else d.draw(st.sampled_from(list(Direction)))
        target = next_ball(cue, direction, set(live) - {cue})
        balls = [target] if target is not None else []
        if target is not None and d.draw(st.integers(0, 6)) == 0:
            second = next_ball(target, direction, set(live) - {cue, target})
            balls.append(second if second is not None else cue)
        if balls and d.draw(st.integers(0, 3)) > 0:
            d.inp("called_shot", cue=f"ball-{cue}", balls=[f"ball-{b}" for b in balls])
        pots = [b for b in balls if d.draw(st.integers(0, 2)) > 0]
        if d.draw(st.integers(0, 9)) == 0:
            pots.append(d.draw(st.sampled_from(live)))
        d.shot(cue, target, rails=2, pots=list(dict.fromkeys(pots)))
        if d.draw(st.integers(0, 59)) == 0:
            d.inp("concede", player=d.core["turn"])
        if d.draw(st.integers(0, 9)) == 0:  # tableref switched on (or the camera restarted) mid-game
            balls = d.draw(st.lists(st.sampled_from(d.live() or [0]), min_size=1, unique=True))
            setup: dict[str, Any] = {"on_table": d.spread(balls), "player": d.draw(st.sampled_from(d.core["players"]))}
            if d.draw(st.booleans()):
                setup["scores"] = {p: d.draw(st.integers(-3, 5)) for p in d.core["players"]}
            if d.draw(st.booleans()):
                setup["direction"] = d.draw(st.sampled_from(["up", "down", "open", "sideways"]))
            d.inp("setup", **setup)
        check_up_and_down_invariants(d.engine)
    return d.items, make


def check_up_and_down_invariants(engine: Engine[Any]) -> None:
    core = engine.state["core"]
    for player in core["players"]:
        earlier = sum(r["scores"][player] for r in core["results"])
        current = core["game_scores"][player] if core["phase"] != "over" else 0
        assert engine.scores()[player] == earlier + current, "match totals = finished games + the current game"
    if core["phase"] == "play":
        assert len(core["on_table"]) >= 2, "a game with one ball left is over"


def draw_colors(data: st.DataObject, options: dict[str, Any]) -> tuple[list[LogItem], Callable[[], Engine[Any]]]:
    def make() -> Engine[Any]:
        return ColorsEngine(**options)

    d = Drawer(data, make())
    d.inp("players", names=d.draw(st.sampled_from([["Ann", "Bob"], ["Ann", "Bob", "Cid"]])))
    codes = ["general_rules", "scratch", "no_rail_after_contact"]
    for _ in range(d.draw(st.integers(5, 40))):
        if d.core["phase"] == "over":
            break
        d.corrections(codes)
        live = d.live()
        colours = [b for b in live if b not in (0, 8)]
        if d.core["phase"] == "break":
            pots = d.draw(st.lists(st.sampled_from([*colours, 8, 0]), max_size=3, unique=True))
            at = [300.0, 635.0] if d.draw(st.integers(0, 9)) else [900.0, 635.0]
            d.shot(0, 8, positions=COLORS_RACK, at=at, rails=4, pots=pots)
            continue
        struck = 0 if d.draw(st.integers(0, 19)) else d.draw(st.sampled_from(live))
        others: list[int | None] = [b for b in live if b != struck]
        target = d.draw(st.sampled_from(others or [None]))
        pool = [b for b in live if b != struck]
        companions = [b for b in pool if b not in (0, 8) and (b + 8 if b < 8 else b - 8) not in live]
        preferred = ([8] if d.core["pending"] else []) + companions
        pots = d.draw(st.lists(st.sampled_from(preferred or pool or [0]), max_size=2, unique=True))
        pots += d.draw(st.lists(st.sampled_from(pool or [0]), max_size=1))
        if d.draw(st.integers(0, 14)) == 0:
            pots.append(0)
        d.shot(struck, target, rails=d.draw(st.integers(0, 2)), pots=list(dict.fromkeys(pots)))
        if d.draw(st.integers(0, 9)) == 0:
            d.inp("setup", **same_colors_position(d))
        check_colors_invariants(d.engine)
    return d.items, make


def same_colors_position(d: Drawer) -> dict[str, Any]:
    """The camera restarting: the position the shadow engine holds, entered again as a setup."""
    core = d.core
    words = {"": "as_it_lies", "kitchen": "kitchen", "anywhere": "anywhere"}
    window = [b for b in d.live() if b not in (0, 8) and (b if b < 8 else b - 8) in core["window"]]
    return {"on_table": d.spread(d.live()), "player": core["turn"], "break": core["phase"] == "break",
            "pending": [f"ball-{b}" for b in core["pending"]], "window": [f"ball-{b}" for b in window],
            "in_hand": words[core["in_hand"]]}


def check_colors_invariants(engine: Engine[Any]) -> None:
    core = engine.state["core"]
    on_table, pending = set(core["on_table"]), set(core["pending"])
    if engine.state["shot"] is None:
        assert 8 in on_table, "the black always returns to the table"
    for low in range(1, 8):
        if low not in core["eliminated"]:
            assert {low, low + 8} & (on_table | pending), f"colour {low} can still be scored"
    scored = sum(engine.scores().values())
    assert scored == 7 * (core["rack"] - 1) + len(core["eliminated"]), "seven points a rack, one a colour"


@settings(max_examples=50, deadline=None)
@given(st.data(), st.sampled_from([{}, {"match_games": 2, "concession_needs_agreement": True},
                                   {"cue_ball_last": False, "one_penalty_per_shot": False}]))
def test_up_and_down_random_play_keeps_the_engine_contract(data: st.DataObject, options: dict[str, Any]) -> None:
    items, make = draw_up_and_down(data, options)
    check_engine_properties(make, items)


@settings(max_examples=50, deadline=None)
@given(st.data(), st.sampled_from([{}, {"colour_after_black": "allowed"}, {"race_to": 3, "race_to_three_players": 2}]))
def test_colors_random_play_keeps_the_engine_contract(data: st.DataObject, options: dict[str, Any]) -> None:
    items, make = draw_colors(data, options)
    check_engine_properties(make, items)
