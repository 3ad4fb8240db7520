"""The scenario registry and what every simulated clip must honour.

Every physics scenario (bar billiards, both pool games, carroms) is run for a couple of seeds and
checked against the physical invariants the vision and referee tests rely on: repeatable per
seed, at most 20 s, no two objects overlapping by more than a millimetre, nothing through a
cushion, kinetic energy never rising after the stroke, and the events each scenario promises.
"""

from __future__ import annotations

import functools
import json
import math

import numpy as np
import pytest

from tableref.calibration.spec import load_table
from tableref.catalog import GAMES
from tableref.errors import UserError
from tableref.events import EventType, TableEvent
from tableref.simulator.physics_params import physics_for
from tableref.simulator.scenarios import SCENARIOS, ScenarioInfo, run_scenario, scenario_names
from tableref.simulator.state import ObjectState, ObjectStatus, SimResult

PHYSICS_GAMES = ("bar-billiards", "up-and-down", "colors", "carroms")
SEEDS = (0, 1)
CASES = [(g, s, seed) for g in PHYSICS_GAMES for s in SCENARIOS[g] for seed in SEEDS]


@functools.cache
def clip(game: str, scenario: str, seed: int, fps: float = 30.0) -> SimResult:
    return run_scenario(game, scenario, seed, fps)


def of(result: SimResult, etype: EventType) -> list[TableEvent]:
    return [e for e in result.events if e.type is etype]


# -- the registry -------------------------------------------------------------------------------

def test_every_game_has_scenarios_with_a_description() -> None:
    assert set(SCENARIOS) == set(GAMES)
    for game in GAMES:
        names = scenario_names(game)
        assert names, f"{game} has no scenarios"
        for name in names:
            info = SCENARIOS[game][name]
            assert isinstance(info, ScenarioInfo) and info.description and callable(info.function)


def test_pool_games_share_the_pool_scenarios() -> None:
    assert scenario_names("up-and-down") == scenario_names("colors")


def test_required_scenarios_are_registered() -> None:
    assert {"break-off", "potting-visit", "miss", "return-to-baulk", "white-pin-falls", "black-pin-falls",
            "ball-leaves-table", "endgame"} <= set(scenario_names("bar-billiards"))
    assert {"break", "break-weak", "legal-pot", "scratch", "miss-short", "no-rail", "ball-off-table",
            "two-ball-pot"} <= set(scenario_names("colors"))
    assert {"break", "pot", "striker-pocketed", "queen-covered", "piece-off-board"} <= set(scenario_names("carroms"))


def test_unknown_names_are_user_errors_that_list_the_choices() -> None:
    with pytest.raises(UserError, match="accepted: bar-billiards"):
        scenario_names("snooker")
    with pytest.raises(UserError, match="break-off"):
        run_scenario("bar-billiards", "no-such-shot", 0)
    with pytest.raises(UserError, match="seed"):
        run_scenario("bar-billiards", "miss", -1)
    with pytest.raises(UserError, match="fps"):
        run_scenario("bar-billiards", "miss", 0, fps=0.0)


# -- repeatable, bounded ------------------------------------------------------------------------

@pytest.mark.parametrize("game,scenario", [("bar-billiards", "potting-visit"), ("colors", "break"),
                                           ("carroms", "break")])
def test_same_seed_same_clip_and_another_seed_another(game: str, scenario: str) -> None:
    first = clip(game, scenario, 0)
    again = run_scenario(game, scenario, 0)
    assert again.frames == first.frames and again.events == first.events
    assert clip(game, scenario, 1).frames != first.frames


def test_same_seed_same_clip_in_another_process_with_other_string_hashing() -> None:
    """Nothing may depend on set or hash order: a truth file must be the same bytes on any run."""
    import subprocess
    import sys

    code = ("import hashlib, json; from tableref.simulator.scenarios import run_scenario; "
            "r = run_scenario('carroms', 'break', 0); "
            "print(hashlib.sha256(json.dumps([[o.to_json() for o in f.objects] for f in r.frames] + "
            "[e.to_json() for e in r.events]).encode()).hexdigest())")
    digests = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={"PYTHONHASHSEED": seed, "PATH": ""}).stdout for seed in ("1", "4242")}
    assert len(digests) == 1 and len(digests.pop().strip()) == 64


@pytest.mark.parametrize("game,scenario,seed", CASES)
def test_clip_is_short_and_sampled_at_its_rate(game: str, scenario: str, seed: int) -> None:
    r = clip(game, scenario, seed)
    assert r.game == game and r.scenario == scenario and r.seed == seed
    assert r.frames[-1].t <= 20.0
    assert [f.index for f in r.frames] == list(range(len(r.frames)))
    assert all(abs(f.t - f.index / r.fps) < 1e-6 for f in r.frames)
    ids = [o.id for o in r.frames[0].objects]
    assert all([o.id for o in f.objects] == ids for f in r.frames), "every frame lists the same objects"
    assert all(e.frame is not None and 0 <= e.frame < len(r.frames) for e in r.events)
    assert [e.t for e in r.events] == sorted(e.t for e in r.events)


@pytest.mark.parametrize("game,scenario,seed", CASES[::2])
def test_events_and_notes_are_plain_json(game: str, scenario: str, seed: int) -> None:
    r = clip(game, scenario, seed)
    text = json.dumps({"events": [e.to_json() for e in r.events], "meta": dict(r.meta),
                       "states": [o.to_json() for o in r.frames[-1].objects]}, allow_nan=False)
    assert json.loads(text)["meta"]["shots"][0]["struck"] == of(r, EventType.SHOT_START)[0].objects[0]


def test_frame_rate_changes_sampling_not_the_story() -> None:
    slow, fast = clip("bar-billiards", "break-off", 0, 30.0), clip("bar-billiards", "break-off", 0, 60.0)
    assert len(fast.frames) > 1.9 * len(slow.frames)
    assert [(e.type, e.objects, e.where) for e in slow.events] == [(e.type, e.objects, e.where) for e in fast.events]


# -- physical invariants ------------------------------------------------------------------------

def _on_cloth(objects: tuple[ObjectState, ...]) -> list[ObjectState]:
    return [o for o in objects if o.status is ObjectStatus.ON_TABLE and o.z == 0.0]


@pytest.mark.parametrize("game,scenario,seed", CASES)
def test_no_two_objects_overlap_by_more_than_a_millimetre(game: str, scenario: str, seed: int) -> None:
    worst = 0.0
    for f in clip(game, scenario, seed).frames:
        on = _on_cloth(f.objects)
        if len(on) < 2:
            continue
        p = np.array([[o.x, o.y] for o in on])
        rad = np.array([o.radius for o in on])
        gap = np.sqrt(((p[:, None, :] - p[None, :, :]) ** 2).sum(-1)) - (rad[:, None] + rad[None, :])
        np.fill_diagonal(gap, np.inf)
        worst = max(worst, float(-gap.min()))
    assert worst <= 1.0, f"objects overlap by {worst:.2f} mm"


def _segment_distance(px: float, py: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    u = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + u * dx), py - (ay + u * dy))


@pytest.mark.parametrize("game,scenario,seed", CASES)
def test_nothing_on_the_cloth_is_inside_or_beyond_a_cushion(game: str, scenario: str, seed: int) -> None:
    r = clip(game, scenario, seed)
    spec = load_table(r.table)
    for f in r.frames:
        for o in _on_cloth(f.objects):
            assert spec.on_surface(o.x, o.y), f"frame {f.index}: {o.id} at ({o.x:.1f}, {o.y:.1f}) is off the bed"
            for c in spec.cushions:
                d = _segment_distance(o.x, o.y, c.a, c.b)
                assert d >= o.radius - 1.0, f"frame {f.index}: {o.id} is {o.radius - d:.1f} mm into {c.id}"


def _mass(table: str, kind: str) -> float:
    ph = physics_for(table)
    if kind == "pin":
        assert ph.pin is not None
        return ph.pin.mass
    return ph.kind(kind).mass


@pytest.mark.parametrize("game,scenario,seed", CASES)
def test_kinetic_energy_never_rises_after_the_stroke(game: str, scenario: str, seed: int) -> None:
    """Frame to frame from each stroke to its rest, over the objects that stayed on the cloth.

    An object that flew (z > 0) or left the table is left out of that shot's sum: gravity, not the
    cloth, changes its energy, and leaving the sum would read as a loss and coming back as a gain.
    """
    r = clip(game, scenario, seed)
    starts = [e.frame for e in of(r, EventType.SHOT_START)]
    rests = [e.frame for e in of(r, EventType.AT_REST)]
    assert len(starts) == len(rests) >= 1
    for s, e in zip(starts, rests, strict=True):
        assert s is not None and e is not None
        window = r.frames[s + 1: e + 1]
        flew = {o.id for f in window for o in f.objects if o.z != 0.0 or o.status is ObjectStatus.OFF_TABLE}
        energy = [sum(0.5 * _mass(r.table, o.kind) * (o.vx * o.vx + o.vy * o.vy) for o in f.objects
                      if o.id not in flew and o.status is ObjectStatus.ON_TABLE) for f in window]
        assert energy[0] > 0.0
        for k in range(1, len(energy)):
            assert energy[k] <= energy[k - 1] * (1.0 + 1e-9) + 1e-6, f"energy rose at frame {s + 1 + k}"
        assert energy[-1] < 1e-3 * energy[0]


# -- what each scenario promises ----------------------------------------------------------------

def _potted(r: SimResult) -> dict[str, str]:
    return {e.objects[0]: e.where or "" for e in of(r, EventType.POT)}


def _first_hit(r: SimResult, shot: TableEvent) -> TableEvent | None:
    struck = shot.objects[0]
    nxt = [e.t for e in of(r, EventType.SHOT_START) if e.t > shot.t]
    end = nxt[0] if nxt else math.inf
    return next((e for e in of(r, EventType.CONTACT) if shot.t <= e.t < end and struck in e.objects), None)


@pytest.mark.parametrize("seed", SEEDS)
def test_bar_billiards_break_off_pots_the_red_from_the_centre_of_the_d(seed: int) -> None:
    r = clip("bar-billiards", "break-off", seed)
    spec = load_table("bar-billiards")
    placed = {e.objects[0]: tuple(e.data["position"]) for e in of(r, EventType.PLACED)}
    assert placed == {"red": spec.spots["red"], "white-1": spec.d_centre}
    shot = of(r, EventType.SHOT_START)[0]
    first = _first_hit(r, shot)
    assert shot.objects == ("white-1",) and first is not None and first.objects == ("white-1", "red")
    assert "red" in _potted(r)


@pytest.mark.parametrize("seed", SEEDS)
def test_bar_billiards_potting_visit_takes_red_then_a_white_from_the_trough(seed: int) -> None:
    r = clip("bar-billiards", "potting-visit", seed)
    assert [e.objects[0] for e in of(r, EventType.PLACED)] == ["red", "white-3"]
    assert r.meta["setup"]["in_trough"][0] == "red"
    shots = of(r, EventType.SHOT_START)
    assert len(shots) == 2 and len(of(r, EventType.POT)) >= 2
    for s in shots:
        assert load_table("bar-billiards").in_d(*s.data["position"])
    assert not of(r, EventType.PIN_FALL) and not of(r, EventType.BAULK_ENTRY)


@pytest.mark.parametrize("seed", SEEDS)
def test_bar_billiards_fouls_show(seed: int) -> None:
    miss = clip("bar-billiards", "miss", seed)
    assert not of(miss, EventType.CONTACT) and len(of(miss, EventType.SHOT_START)) == 1
    back = clip("bar-billiards", "return-to-baulk", seed)
    entry = of(back, EventType.BAULK_ENTRY)
    assert entry and entry[0].objects == ("white-1",)
    assert [e.objects for e in of(back, EventType.REMOVED)] == [("white-1",)]
    white = clip("bar-billiards", "white-pin-falls", seed)
    assert [(e.objects, e.data["colour"]) for e in of(white, EventType.PIN_FALL)] == [(("pin-50-left",), "white")]
    black = clip("bar-billiards", "black-pin-falls", seed)
    assert [(e.objects, e.data["colour"]) for e in of(black, EventType.PIN_FALL)] == [(("pin-200",), "black")]
    nudged = clip("bar-billiards", "pin-nudged", seed)
    assert not of(nudged, EventType.PIN_FALL) and [e.objects for e in of(nudged, EventType.PIN_MOVED)] == [("pin-100",)]
    gone = clip("bar-billiards", "ball-leaves-table", seed)
    assert [(e.objects, e.data["returned"]) for e in of(gone, EventType.OFF_TABLE)] == [(("white-1",), False)]
    assert gone.frames[-1].by_id()["white-1"].status is ObjectStatus.OFF_TABLE
    back_on = clip("bar-billiards", "ball-returns", seed)
    assert [(e.objects, e.data["returned"]) for e in of(back_on, EventType.OFF_TABLE)] == [(("white-1",), True)]
    assert back_on.frames[-1].by_id()["white-1"].status is not ObjectStatus.OFF_TABLE


@pytest.mark.parametrize("seed", SEEDS)
def test_bar_billiards_endgame_doubles_off_a_side_cushion(seed: int) -> None:
    r = clip("bar-billiards", "endgame", seed)
    spec = load_table("bar-billiards")
    assert r.meta["setup"]["endgame"] is True
    shot = of(r, EventType.SHOT_START)[0]
    assert tuple(shot.data["position"]) == spec.d_centre
    cushions = [e for e in of(r, EventType.CUSHION) if e.t > shot.t]
    pots = of(r, EventType.POT)
    assert cushions[0].where in ("cushion-top", "cushion-bottom") and cushions[0].t < pots[0].t
    assert [e.where for e in pots] in (["hole-100"], ["hole-200"])
    pins = r.frames[0].by_id()
    for pin, hole in (("pin-50-left", "hole-50-left"), ("pin-50-right", "hole-50-right")):
        h = spec.hole(hole)
        assert (pins[pin].x, pins[pin].y) == (h.x, h.y)


@pytest.mark.parametrize("game", ("up-and-down", "colors"))
@pytest.mark.parametrize("seed", SEEDS)
def test_pool_breaks(game: str, seed: int) -> None:
    hard, soft = clip(game, "break", seed), clip(game, "break-weak", seed)
    for r in (hard, soft):
        shot = of(r, EventType.SHOT_START)[0]
        cue_x = shot.data["position"][0]
        assert shot.objects == ("ball-0",) and cue_x <= (load_table("pool").baulk_x or 0.0)
        apex = min((p for b, p in shot.data["positions"].items() if b != "ball-0"), key=lambda p: p[0])
        assert tuple(apex) == pytest.approx(load_table("pool").spots["foot"], abs=0.5)
        if game == "colors":
            assert tuple(shot.data["positions"]["ball-8"]) == tuple(apex)
    railed = {e.objects[0] for e in of(hard, EventType.CUSHION)} - {"ball-0"}
    assert len(railed) >= 4 or of(hard, EventType.POT)
    soft_railed = {e.objects[0] for e in of(soft, EventType.CUSHION)} - {"ball-0"}
    assert len(soft_railed) < 4 and not of(soft, EventType.POT)


@pytest.mark.parametrize("game", ("up-and-down", "colors"))
@pytest.mark.parametrize("seed", SEEDS)
def test_pool_shots(game: str, seed: int) -> None:
    legal = clip(game, "legal-pot", seed)
    assert list(_potted(legal)) == [legal.meta["shots"][0]["object"]]
    scratch = clip(game, "scratch", seed)
    assert "ball-0" in _potted(scratch) and of(scratch, EventType.CONTACT)
    short = clip(game, "miss-short", seed)
    assert not of(short, EventType.CONTACT)
    no_rail = clip(game, "no-rail", seed)
    assert of(no_rail, EventType.CONTACT) and not of(no_rail, EventType.CUSHION) and not of(no_rail, EventType.POT)
    off = clip(game, "ball-off-table", seed)
    assert [e.data["returned"] for e in of(off, EventType.OFF_TABLE)] == [False]
    two = clip(game, "two-ball-pot", seed)
    assert len(set(_potted(two)) - {"ball-0"}) == 2


@pytest.mark.parametrize("seed", SEEDS)
def test_carrom_strikes(seed: int) -> None:
    brk = clip("carroms", "break", seed)
    first = brk.frames[0].by_id()
    queen = first["queen"]
    assert (queen.x, queen.y) == pytest.approx(load_table("carrom").spots["centre"], abs=0.5)
    for r in (brk, clip("carroms", "pot", seed), clip("carroms", "striker-pocketed", seed)):
        shot = of(r, EventType.SHOT_START)[0]
        cross = of(r, EventType.BASELINE_CROSS)
        assert shot.objects == ("striker",) and cross and cross[0].where == "baseline-south"
        hand = r.frames[shot.frame or 0].cue
        assert hand is not None and hand.kind == "hand"
    assert "striker" not in _potted(clip("carroms", "pot", seed))
    assert "striker" in _potted(clip("carroms", "striker-pocketed", seed))


@pytest.mark.parametrize("seed", SEEDS)
def test_carrom_queen_and_pieces_off_the_board(seed: int) -> None:
    covered = clip("carroms", "queen-covered", seed)
    pots = [e.objects[0] for e in of(covered, EventType.POT)]
    assert pots[0] == "queen" and pots[1].startswith("white")
    assert [e.objects for e in of(covered, EventType.MOVED)] == [("striker",)]
    returned = clip("carroms", "queen-returned", seed)
    assert [e.objects for e in of(returned, EventType.POT)] == [("queen",)]
    assert of(returned, EventType.PLACED)[-1].objects == ("queen",)
    assert returned.frames[-1].by_id()["queen"].status is ObjectStatus.ON_TABLE
    off = clip("carroms", "piece-off-board", seed)
    gone = of(off, EventType.OFF_TABLE)
    assert len(gone) == 1 and gone[0].data["returned"] is False
    assert of(off, EventType.PLACED)[-1].objects == gone[0].objects


@pytest.mark.parametrize("blocked,spot", ((False, "centre"), (True, "head")))
def test_colors_spots_a_potted_black_by_hand(blocked: bool, spot: str) -> None:
    import random

    from tableref.simulator.physics_clip import Clip
    from tableref.simulator.scenarios_pool import _finish, new_world

    spec = load_table("pool")
    layout = {"ball-0": (400.0, 300.0), "ball-3": spec.spots["centre"] if blocked else (900.0, 900.0)}
    rng = random.Random(1)
    c = Clip(game="colors", scenario="t", seed=0, fps=30.0, spec=spec, world=new_world(spec, rng, layout), rng=rng,
             player_side="nearest")
    assert c.world.status("ball-8") is ObjectStatus.IN_HOLE
    r = _finish("colors", c)
    placed = of(r, EventType.PLACED)
    assert [e.objects for e in placed] == [("ball-8",)]
    assert tuple(placed[0].data["position"]) == spec.spots[spot]
    assert r.frames[-1].by_id()["ball-8"].status is ObjectStatus.ON_TABLE
    assert not of(_finish("up-and-down", Clip(game="up-and-down", scenario="t", seed=0, fps=30.0, spec=spec,
                                              world=new_world(spec, rng, layout), rng=rng)), EventType.PLACED)
