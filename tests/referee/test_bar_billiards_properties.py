"""Property tests: random games, mostly legal with some nonsense, through the engine contract.

A shadow engine steers the generator (the state says which balls are on the cloth, which pins
stand, whose visit it is), so the sequences reach re-breaks, fouls of every kind, late pots, the
bar dropping, the endgame, new frames and setups of a frame in progress (the same position, another
one, a malformed one); ``check_engine_properties`` then checks that every item
is applied or refused without a change, that ``scores()`` equals the sum of SCORE updates, and
that replay and undo rebuild the same states.
"""

from __future__ import annotations

import contextlib
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tableref.events import EventType, HumanInput, LogItem, TableEvent
from tableref.referee import Engine, RefereeError, make_engine
from tests.referee.harness import check_engine_properties

HOLES = ["hole-10-left", "hole-20-left", "hole-30", "hole-20-right", "hole-10-right", "hole-50-left",
         "hole-200", "hole-50-right", "hole-100"]
PINS = ["pin-200", "pin-100", "pin-50-left", "pin-50-right"]
CUSHIONS = ["cushion-left", "cushion-top", "cushion-bottom", "scoreboard"]
CALLS = ["push", "double_hit", "jump", "not_tip", "before_rest", "deliberate", "handling", "unsporting",
         "not_from_d", "out_of_turn", "same_break_fourth_time", "before_reset"]


def make(options: dict[str, Any]) -> Engine[Any]:
    return make_engine("bar-billiards", **options)


class Builder:
    """Draws one item at a time, looking at the shadow engine's state to keep most of them legal."""

    def __init__(self, data: st.DataObject, options: dict[str, Any]) -> None:
        self.data = data
        self.engine = make(options)
        self.items: list[LogItem] = []
        self.t = 0.0
        self.n = 0
        self.rest_t = 0.0
        self.moving: list[str] = []

    def draw(self, strategy: st.SearchStrategy[Any]) -> Any:
        return self.data.draw(strategy)

    def push(self, item: LogItem) -> None:
        self.items.append(item)
        with contextlib.suppress(RefereeError):
            self.engine.apply(item)

    def ev(self, type_: str, objects: list[str], where: str | None = None, **data: Any) -> None:
        self.t += 0.25
        self.push(TableEvent(t=self.t, type=EventType(type_), objects=tuple(objects), where=where, data=data))

    def inp(self, kind: str, **data: Any) -> None:
        self.t += 0.25
        self.push(HumanInput(t=self.t, kind=kind, data=data))

    def pos(self, baulk_chance: bool = True) -> list[float]:
        x = self.draw(st.floats(100.0 if baulk_chance else 320.0, 2100.0))
        return [round(x, 1), round(self.draw(st.floats(30.0, 730.0)), 1)]

    def fresh_id(self, colour: str) -> str:
        self.n += 1
        return "red" if colour == "red" else f"white-{self.n}"

    # -- one step ------------------------------------------------------------------------------
    def step(self) -> None:
        s = self.engine.state
        phase = s["phase"]
        roll = self.draw(st.integers(0, 99))
        if phase == "toss":
            if roll < 10:
                self.inp("pin_swap")
            if roll >= 92:  # tableref switched on mid-frame
                self.setup(s)
                return
            self.inp("coin_toss", winner=self.draw(st.sampled_from(s["players"])),
                     choice=self.draw(st.sampled_from(["break", "give"])))
        elif phase == "over":
            self.inp("new_frame") if roll < 80 else self.shot(s)
        elif phase == "endgame_offer":
            self.inp("invoke_endgame", invoke=roll < 50)
        elif s["option_for"]:
            self.inp("break_option", choice=self.draw(st.sampled_from(["rebreak", "play_on"])))
        elif roll < 4 and not s["bar_down"]:
            self.inp("clock_expired")
        elif roll < 8:
            self.inp(self.draw(st.sampled_from(CALLS + ["overrule", "overrule", "interference"])))
        elif roll < 12:
            self.inp(self.draw(st.sampled_from(["concede", "bogus_input", "add_foul"])), code="pin_down")
        elif roll < 15 and s["table"]:
            self.late_pot(s)
        elif roll < 17 and s["table"]:
            ball = self.draw(st.sampled_from(s["table"]))
            kind = self.draw(st.sampled_from(["removed", "moved"]))
            self.ev(kind, [ball["id"] or self.fresh_id(ball["colour"])], position=self.pos())
        elif roll < 19:
            self.setup(s)
        else:
            self.shot(s)

    def setup(self, s: dict[str, Any]) -> None:
        """A ``setup``: the camera restarting (the same position), another position, or a malformed one."""
        kind = self.draw(st.sampled_from(["same", "same", "other", "other", "bad"]))
        data: dict[str, Any] = {"player": self.draw(st.sampled_from([s["visitor"] or s["players"][0], *s["players"]]))}
        if kind == "same":
            data["on_table"] = {b["id"] or self.fresh_id(b["colour"]): [b["x"], b["y"]] if b["x"] is not None
                                else self.pos(False) for b in s["table"]}
            data["scores"] = dict(s["banked"])
        else:
            whites = self.draw(st.integers(0, s["trough_white"] + s["locked_white"] + len(s["table"])))
            balls = [self.fresh_id("white") for _ in range(whites)] + (["red"] if self.draw(st.booleans()) else [])
            data["on_table"] = {b: self.pos() for b in balls}
            data["scores"] = {p: self.draw(st.integers(0, 40)) * 10 for p in s["players"]}
            data["break"] = self.draw(st.integers(0, 30)) * 10
            data["clock_expired"] = self.draw(st.booleans())
            data["pins_down"] = self.draw(st.lists(st.sampled_from(PINS), max_size=2, unique=True))
            if kind == "bad":
                data[self.draw(st.sampled_from(["on_table", "player", "trough"]))] = {"ball-3": [2500.0, 900.0]}
        self.inp("setup", **data)

    def late_pot(self, s: dict[str, Any]) -> None:
        ball = self.draw(st.sampled_from(s["table"]))
        self.t = self.rest_t + self.draw(st.sampled_from([1.0, 4.0, 9.0]))
        self.ev("pot", [ball["id"] or self.fresh_id(ball["colour"])], self.draw(st.sampled_from(HOLES)), late=True)

    def shot(self, s: dict[str, Any]) -> None:
        cloth = [b for b in s["table"] if not b["staged"]]
        if not cloth and s["phase"] == "play":
            struck = "red" if self.draw(st.integers(0, 9)) == 0 else "white-0"
            centre = self.draw(st.sampled_from([[305.0, 381.0], [305.0, 381.0], [250.0, 300.0]]))
            self.ev("shot_start", [struck], position=centre,
                    positions={struck: centre, ("white-s" if struck == "red" else "red"): [560.0, 381.0]})
        else:
            colour = "red" if s["trough_red"] or self.draw(st.integers(0, 5)) == 0 else "white"
            struck = "red" if colour == "red" else "white-0"
            where = [305.0, 381.0] if s["phase"] == "endgame" else [260.0, 381.0]
            if self.draw(st.integers(0, 9)) == 0:
                where = self.pos()
            self.ev("shot_start", [struck], position=where)
        shot = self.engine.state["shot"]
        if shot is None:
            return
        self.moving = [shot["struck"]]
        others = [b["id"] for b in shot["balls"] if b["id"] and b["id"] != shot["struck"]]
        if others and self.draw(st.integers(0, 9)) > 1:  # most shots hit a ball first
            target = self.draw(st.sampled_from(others))
            self.ev("contact", [shot["struck"], target])
            self.moving.append(target)
        for _ in range(self.draw(st.integers(0, 5))):
            self.in_shot(self.engine.state)
        balls = (self.engine.state["shot"] or {}).get("balls", [])
        positions = {}
        for b in balls:
            if self.draw(st.integers(0, 19)) > 0:
                positions[b["id"] or self.fresh_id(b["colour"])] = self.pos()
        self.ev("at_rest", [], positions=positions)
        self.rest_t = self.t

    def in_shot(self, s: dict[str, Any]) -> None:
        shot = s["shot"]
        if shot is None:
            return
        struck = shot["struck"]
        others = [b["id"] or self.fresh_id(b["colour"]) for b in shot["balls"] if b["id"] != struck]
        standing = [p["id"] for p in s["pins"] if p["status"] == "standing"]
        kind = self.draw(st.sampled_from(["contact", "pot", "pot", "pot", "pin_fall", "pin_moved",
                                          "cushion", "cushion", "baulk_entry", "off_table", "call", "touched"]))
        any_ball = self.draw(st.sampled_from([struck, *others]))
        moving = [b for b in self.moving if b in [struck, *others]] or [struck]
        if kind == "contact" and others:
            hit = self.draw(st.sampled_from(others + standing))
            self.ev("contact", [self.draw(st.sampled_from(moving)), hit])
            self.moving.append(hit)
        elif kind == "pot":  # mostly a ball the shot set moving; now and then one that just drops (2f(a))
            ball = any_ball if self.draw(st.integers(0, 9)) == 0 else self.draw(st.sampled_from(moving))
            self.ev("pot", [ball], self.draw(st.sampled_from(HOLES)))
        elif kind == "pin_fall" and standing and self.draw(st.integers(0, 2)) == 0:
            self.ev("pin_fall", [self.draw(st.sampled_from(standing))])
        elif kind == "pin_moved" and standing:
            self.ev("pin_moved", [self.draw(st.sampled_from(standing))], position=self.pos(False))
        elif kind == "cushion":
            self.ev("cushion", [struck], self.draw(st.sampled_from(CUSHIONS)))
        elif kind == "baulk_entry" and self.draw(st.integers(0, 2)) == 0:
            self.ev("baulk_entry", [any_ball], "baulk")
        elif kind == "off_table" and self.draw(st.integers(0, 2)) == 0:
            self.ev("off_table", [any_ball], returned=self.draw(st.booleans()))
        elif kind == "call" and self.draw(st.integers(0, 3)) == 0:
            self.inp(self.draw(st.sampled_from(CALLS)))
        elif kind == "touched" and self.draw(st.integers(0, 3)) == 0:
            self.inp("ball_touched_person", ball=any_ball)


OPTIONS = st.sampled_from([{}, {"whites": 6}, {"whites": 2}, {"auto_same_break": True, "whites": 3},
                           {"players": ["ann", "bob"], "whites": 1}])


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), options=OPTIONS, steps=st.integers(5, 60))
def test_random_games_keep_the_engine_contract(data: st.DataObject, options: dict[str, Any], steps: int) -> None:
    builder = Builder(data, options)
    for _ in range(steps):
        builder.step()
    engine = check_engine_properties(lambda: make(options), builder.items)
    state = engine.state
    shot = state["shot"]
    cloth = len(shot["balls"]) + len(shot["off"]) if shot else len(state["table"])
    in_play = (cloth + state["trough_white"] + state["trough_red"] + len(state["hand"])
               + state["locked_white"] + state["locked_red"])
    assert in_play == options.get("whites", 7) + 1, "a ball was lost or made up"
    assert all(v >= 0 for v in engine.scores().values())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), steps=st.integers(10, 80))
def test_short_frames_reach_the_end_and_name_a_winner_consistent_with_the_scores(data: st.DataObject,
                                                                                 steps: int) -> None:
    options = {"whites": 2}
    builder = Builder(data, options)
    builder.inp("coin_toss", winner="home")
    builder.inp("clock_expired")
    for _ in range(steps):
        builder.step()
    engine = builder.engine
    outcome = engine.outcome()
    if outcome is not None:
        scores = dict(outcome.scores)
        best = max(scores.values())
        leaders = [p for p, v in scores.items() if v == best]
        reason = outcome.reason
        if "conceded" not in reason:
            assert outcome.winner == (leaders[0] if len(leaders) == 1 else None)
