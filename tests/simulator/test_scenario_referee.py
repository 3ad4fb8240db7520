"""Every simulated clip is a match segment its referee accepts, and calls what the scenario shows.

A clip's true events plus its human inputs (``SimResult.meta["inputs"]``: the opening ``setup``, the
Up and Down calls, the All-Fours deal and stand or beg) are merged by time and replayed through the
game's engine. Each ``RefereeError`` would be a question on the referee's tablet, and there must be
none; then the engine's calls must be the scenario's: a foul where the clip shows one (with its
code), a legal shot everywhere else, the score the shot earns. The expected points are worked out
here from the clip's own truth (the holes a bar-billiards visit potted, the tricks of an All-Fours
hand), never written in.

Seeds 1-3 are what the samples and the other tests use; 100 and 101 show the scenarios are not
tuned to them. Nothing is rendered (``run_scenario`` only), so the whole file stays fast.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from tableref.calibration.spec import load_table
from tableref.events import EventType, HumanInput, from_json, merge_by_time
from tableref.referee import Engine, RefereeError, Update, UpdateKind, make_engine
from tableref.simulator.clip import dumps_truth, truth_dict
from tableref.simulator.render_look import random_look
from tableref.simulator.scenarios import SCENARIOS, run_scenario
from tableref.simulator.scenarios_inputs import inputs_of
from tableref.simulator.state import SimResult

SEEDS = (1, 2, 3, 100, 101)
BALL_GAMES = ("bar-billiards", "up-and-down", "colors", "carroms")


@dataclass(frozen=True)
class Replay:
    sim: SimResult
    engine: Engine[Any]
    updates: tuple[Update, ...]
    questions: tuple[str, ...]

    def of(self, kind: UpdateKind, code: str | None = None) -> list[Update]:
        return [u for u in self.updates if u.kind is kind and (code is None or u.code == code)]

    @property
    def fouls(self) -> list[str]:
        return [str(u.code) for u in self.of(UpdateKind.FOUL)]


@cache
def replay(game: str, name: str, seed: int) -> Replay:
    """Simulate the clip and feed its events and inputs, merged by time, to a fresh engine."""
    sim = run_scenario(game, name, seed)
    engine = make_engine(game)
    updates: list[Update] = []
    questions: list[str] = []
    for item in merge_by_time(sim.events, inputs_of(sim)):
        try:
            updates.extend(engine.apply(item))
        except RefereeError as exc:
            what = item.kind if isinstance(item, HumanInput) else item.type.value
            questions.append(f"{what} at {item.t:.2f} s: {exc}")
    return Replay(sim, engine, tuple(updates), tuple(questions))


def cases() -> list[tuple[str, str, int]]:
    return [(game, name, seed) for game in SCENARIOS for name in SCENARIOS[game] for seed in SEEDS]


# -- what each scenario must be called ------------------------------------------------------------

def _setup_of(r: Replay) -> dict[str, Any]:
    first = inputs_of(r.sim)[0]
    assert first.kind == "setup"
    return dict(first.data)


def _bar_billiards_points(r: Replay) -> int:
    """What the clip's pots are worth: each hole's value, the red double (2g)."""
    spec = load_table("bar-billiards")
    return sum(spec.hole(str(e.where)).value * (2 if e.objects[0] == "red" else 1)
               for e in r.sim.events if e.type is EventType.POT)


def _break_points(r: Replay) -> list[int]:
    return [int(u.points or 0) for u in r.of(UpdateKind.BREAK) if not u.data.get("setup")]


def bb_scores(r: Replay) -> None:
    """A clean visit: the running break is exactly the value of what went down, and stays at the table."""
    points = _bar_billiards_points(r)
    assert points > 0 and sum(_break_points(r)) == points
    assert not r.of(UpdateKind.BREAK_LOST) and {u.player for u in r.of(UpdateKind.TURN)} <= {"home"}


def bb_break_lost(r: Replay) -> None:
    """The foul costs the visit's running break (3b), which the setup says was under way."""
    lost = r.of(UpdateKind.BREAK_LOST)
    assert [u.points for u in lost] == [-int(_setup_of(r)["break"])]


def bb_score_wiped(r: Replay) -> None:
    """The 200 pin wipes the whole score (3a(a)); an overrule gives it back."""
    bb_break_lost(r)
    before = dict(_setup_of(r)["scores"])
    assert r.engine.scores()["home"] == 0 < before["home"]
    assert any(u.points == -before["home"] for u in r.of(UpdateKind.SCORE))
    engine = make_engine("bar-billiards")
    engine.replay(merge_by_time(r.sim.events, inputs_of(r.sim)))
    engine.apply(HumanInput(t=r.sim.frames[-1].t + 0.5, kind="overrule"))
    assert engine.scores()["home"] == before["home"]


def bb_endgame(r: Replay) -> None:
    """The bar is down and one ball is left: the endgame, a double into the 100 or 200, the frame over."""
    assert r.of(UpdateKind.ENDGAME) and r.of(UpdateKind.GAME_OVER)
    assert sum(_break_points(r)) == _bar_billiards_points(r) > 0


def pool_points(code: str, count: int) -> Callable[[Replay], None]:
    def check(r: Replay) -> None:
        assert [u.points for u in r.of(UpdateKind.SCORE, code)] == [1] * count

    return check


def pool_no_points(r: Replay) -> None:
    assert [u for u in r.of(UpdateKind.SCORE) if u.code != "setup"] == []


def carrom_strike_again(r: Replay) -> None:
    """An own piece pocketed: the turn goes on (Basic)."""
    assert r.of(UpdateKind.BREAK, "strike_again")
    assert {u.player for u in r.of(UpdateKind.TURN)} == {r.of(UpdateKind.PHASE, "setup")[0].player}


def carrom_queen_covered(r: Replay) -> None:
    assert r.of(UpdateKind.INFO, "queen_covered")
    assert len(r.of(UpdateKind.BREAK, "strike_again")) == 2


def carrom_instruction(code: str) -> Callable[[Replay], None]:
    def check(r: Replay) -> None:
        assert r.of(UpdateKind.INSTRUCTION, code)

    return check


KICK_POINTS = {"J": 3, "6": 2, "A": 1}
GAME_VALUES = {"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _rank(card: str) -> str:
    return card[:-1]


def all_fours_words(r: Replay) -> None:
    """The kick's points to the dealer's pair (21a), and the lead player's word: stand, or beg and a gift of one."""
    meta = r.sim.meta
    teams = meta["teams"]
    kicked = [u.points for u in r.of(UpdateKind.SCORE, "kick")]
    assert kicked == ([KICK_POINTS[_rank(meta["kick"])]] if _rank(meta["kick"]) in KICK_POINTS else [])
    assert all(u.player == teams[meta["dealer"]] for u in r.of(UpdateKind.SCORE, "kick"))
    gifts = r.of(UpdateKind.SCORE, "give_one")
    if meta["begged"]:
        assert [(u.player, u.points) for u in gifts] == [(teams[meta["lead_player"]], 1)]
    else:
        assert gifts == [] and r.of(UpdateKind.PHASE, "stood")


def all_fours_hand(r: Replay) -> None:
    """The whole hand is counted (27a) as the cards say: High, Low, Jack or Hang-Jack, Game."""
    all_fours_words(r)
    meta = r.sim.meta
    teams, trump = meta["teams"], meta["trump"]
    expected = {"A": 0, "B": 0}
    if _rank(meta["kick"]) in KICK_POINTS:
        expected[teams[meta["dealer"]]] += KICK_POINTS[_rank(meta["kick"])]
    if meta["begged"]:
        expected[teams[meta["lead_player"]]] += 1
    plays = [(p["seat"], p["card"], t["winner"]) for t in meta["tricks"] for p in t["cards"]]
    trumps = sorted((RANKS.index(_rank(c)), s, w, c) for s, c, w in plays if c[-1] == trump)
    assert trumps, "a hand stood or given holds a trump"
    expected[teams[trumps[-1][1]]] += 1  # High
    expected[teams[trumps[0][1]]] += 1  # Low
    for _, seat, winner, card in trumps:
        if _rank(card) == "J":  # Jack, or Hang-Jack to the pair that caught it
            expected[teams[winner]] += 1 if teams[winner] == teams[seat] else 3
    game = {"A": 0, "B": 0}
    for _, card, winner in plays:
        game[teams[winner]] += GAME_VALUES.get(_rank(card), 0)
    dealer = teams[meta["dealer"]]
    top = max(game, key=lambda k: game[k]) if game["A"] != game["B"] else ("A" if dealer == "B" else "B")
    expected[top] += 2
    assert len(r.of(UpdateKind.TRICK)) == 6 and r.of(UpdateKind.PHASE, "hand_over")
    assert r.engine.scores() == expected


def all_fours_lead_back(r: Replay) -> None:
    all_fours_words(r)
    assert len(r.of(UpdateKind.INSTRUCTION, "lead_out_of_turn")) == 1
    assert len(r.of(UpdateKind.TRICK)) == 2


@dataclass(frozen=True)
class Expect:
    """The fouls the clip must be called for (none: a legal clip), and any further check."""

    fouls: tuple[str, ...] = ()
    check: Callable[[Replay], None] | None = None


EXPECT: dict[str, dict[str, Expect]] = {
    "bar-billiards": {
        "break-off": Expect(check=bb_scores),
        "potting-visit": Expect(check=bb_scores),
        "miss": Expect(("miss",), bb_break_lost),
        "return-to-baulk": Expect(("ball_in_baulk",), bb_break_lost),
        "white-pin-falls": Expect(("pin_down",), bb_break_lost),
        "black-pin-falls": Expect(("pin_200_down",), bb_score_wiped),
        "pin-nudged": Expect(),
        "ball-leaves-table": Expect(("off_table",), bb_break_lost),
        "ball-returns": Expect(),
        "endgame": Expect(check=bb_endgame),
    },
    "up-and-down": {
        "break": Expect(check=pool_no_points),
        "break-weak": Expect(("break_too_few_rails",)),
        "legal-pot": Expect(check=pool_points("pocketed_as_called", 1)),
        "scratch": Expect(("uncalled_ball_potted",)),
        "miss-short": Expect(("next_ball_not_moved",)),
        "no-rail": Expect(check=pool_no_points),
        "ball-off-table": Expect(("ball_off_table",)),
        "two-ball-pot": Expect(check=pool_points("pocketed_as_called", 2)),
    },
    "colors": {
        "break": Expect(),
        "break-weak": Expect(),
        "legal-pot": Expect(check=pool_points("companions", 1)),
        "scratch": Expect(("scratch",)),
        "miss-short": Expect(("no_contact",)),
        "no-rail": Expect(("no_rail_after_contact",)),
        "ball-off-table": Expect(("object_ball_off_table",)),
        "two-ball-pot": Expect(check=pool_points("companions", 1)),
    },
    "carroms": {
        "break": Expect(),
        "pot": Expect(check=carrom_strike_again),
        "striker-pocketed": Expect(("striker_pocketed",)),
        "queen-covered": Expect(check=carrom_queen_covered),
        "queen-returned": Expect(check=carrom_instruction("return_queen")),
        "piece-off-board": Expect(check=carrom_instruction("place_off_board_piece")),
    },
    "all-fours": {
        "kick": Expect(check=all_fours_words),
        "hand": Expect(check=all_fours_hand),
        "lead-out-of-turn": Expect(check=all_fours_lead_back),
    },
}


def test_every_scenario_has_an_expected_call() -> None:
    assert {g: set(n) for g, n in SCENARIOS.items()} == {g: set(n) for g, n in EXPECT.items()}


@pytest.mark.parametrize(("game", "name", "seed"), cases())
def test_the_clip_replays_without_a_question_and_gets_the_intended_call(game: str, name: str, seed: int) -> None:
    r = replay(game, name, seed)
    assert r.questions == (), f"{game} {name} s{seed}: the referee asked\n" + "\n".join(r.questions)
    want = EXPECT[game][name]
    assert set(r.fouls) == set(want.fouls), f"{game} {name} s{seed}: fouls {r.fouls}, wanted {list(want.fouls)}"
    if want.check is not None:
        want.check(r)


@pytest.mark.parametrize("game", BALL_GAMES)
def test_a_ball_game_clip_opens_with_the_setup_of_its_first_frame(game: str) -> None:
    for name in SCENARIOS[game]:
        sim = replay(game, name, 2).sim
        first = inputs_of(sim)[0]
        assert (first.kind, first.t, first.frame) == ("setup", 0.0, 0)
        listed = set(first.data["on_table"])
        balls = {o.id for o in sim.frames[0].objects if o.status.value == "on_table" and o.kind != "pin"}
        assert balls <= listed and all(k in balls or k.startswith("pin-") for k in listed)


@pytest.mark.parametrize("game", list(SCENARIOS))
def test_inputs_are_log_lines_dated_on_frames_between_the_events(game: str) -> None:
    for name in SCENARIOS[game]:
        sim = replay(game, name, 3).sim
        event_frames = {e.frame for e in sim.events}
        for raw in sim.meta["inputs"]:
            item = from_json(raw)
            assert isinstance(item, HumanInput) and item.to_json() == raw
            assert item.frame is not None and item.t == pytest.approx(item.frame / sim.fps, abs=1e-4)
            assert item.frame not in event_frames, f"{name}: {item.kind} shares frame {item.frame} with an event"


def test_up_and_down_calls_the_next_ball_before_each_shot() -> None:
    for name in ("legal-pot", "scratch", "miss-short", "no-rail", "ball-off-table", "two-ball-pot"):
        sim = replay("up-and-down", name, 1).sim
        calls = [i for i in inputs_of(sim) if i.kind == "called_shot"]
        starts = [e for e in sim.events if e.type is EventType.SHOT_START]
        assert len(calls) == len(starts) == 1 and calls[0].t < starts[0].t
        assert calls[0].data["cue"] == starts[0].objects[0]


def test_the_truth_file_carries_the_inputs_for_a_replay() -> None:
    """``truth.json``'s ``inputs`` list is the clip's inputs (once: not again inside ``meta``)."""
    sim = replay("up-and-down", "legal-pot", 1).sim
    spec = load_table(sim.table)
    truth = json.loads(dumps_truth(truth_dict(sim, spec, random_look(spec, sim.seed, 320, 240, sim.fps))))
    assert truth["inputs"] == sim.meta["inputs"] and "inputs" not in truth["meta"]
    items = [from_json(raw) for raw in truth["events"] + truth["inputs"]]
    engine = make_engine(truth["game"])
    engine.replay(merge_by_time([i for i in items if not isinstance(i, HumanInput)],
                                [i for i in items if isinstance(i, HumanInput)]))
    assert engine.scores() == replay("up-and-down", "legal-pot", 1).engine.scores()
