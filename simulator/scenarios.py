"""The scenario registry: every simulated clip tableref can make, by game.

``run_scenario(game, scenario, seed, fps)`` returns a :class:`~tableref.simulator.state.SimResult`:
one :class:`FrameState` per video frame at ``fps`` and the true events in DESIGN.md's vocabulary.
The renderer (``tableref simulate``) draws the frames and writes the events as ``truth.json``;
the vision and referee tests use the same results as ground truth.

Each clip lasts at most 20 s. The same (game, scenario, seed, fps) gives the same result bit for
bit: every draw comes from a generator seeded from those, nothing reads the clock.

Games and their tables: ``bar-billiards``; ``up-and-down`` and ``colors`` share the pool
scenarios, each with its own rack; ``carroms``; ``all-fours`` takes the card-table scenarios of
``simulator/card_scenarios.py``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping

from tableref.catalog import GAMES
from tableref.errors import UserError
from tableref.simulator.physics_clip import ScenarioInfo
from tableref.simulator.scenarios_bar_billiards import bar_billiards_scenarios
from tableref.simulator.scenarios_carrom import carrom_scenarios
from tableref.simulator.scenarios_pool import pool_scenarios
from tableref.simulator.state import SimResult


def _card_scenarios() -> dict[str, ScenarioInfo]:
    """All-Fours scenarios from ``simulator/card_scenarios.py`` (built beside this module)."""
    if importlib.util.find_spec("tableref.simulator.card_scenarios") is None:
        return {}
    module = importlib.import_module("tableref.simulator.card_scenarios")
    found: Mapping[str, Callable[[int, float], SimResult]] = module.CARD_SCENARIOS
    out: dict[str, ScenarioInfo] = {}
    for name, fn in found.items():
        doc = (fn.__doc__ or "").strip().splitlines()
        out[name] = ScenarioInfo(doc[0].rstrip(".") if doc else f"All-Fours: {name}", fn)
    return out


SCENARIOS: dict[str, dict[str, ScenarioInfo]] = {
    "bar-billiards": bar_billiards_scenarios(),
    "up-and-down": pool_scenarios("up-and-down"),
    "colors": pool_scenarios("colors"),
    "carroms": carrom_scenarios(),
    "all-fours": _card_scenarios(),
}
assert set(SCENARIOS) == set(GAMES), "every game in the catalog needs a scenario list"


def scenario_names(game: str) -> list[str]:
    """The scenarios of ``game``, in the registry's order; ``UserError`` for an unknown game."""
    if game not in SCENARIOS:
        raise UserError(f"unknown game {game!r}; accepted: {', '.join(SCENARIOS)}")
    return list(SCENARIOS[game])


def run_scenario(game: str, scenario: str, seed: int, fps: float = 30.0) -> SimResult:
    """Simulate one scenario: frames at ``fps`` and the true events. Same arguments, same result."""
    names = scenario_names(game)
    if scenario not in SCENARIOS[game]:
        raise UserError(f"unknown scenario {scenario!r} for {game}; accepted: {', '.join(names) or 'none yet'}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise UserError(f"seed must be a whole number >= 0, got {seed!r}")
    if not isinstance(fps, int | float) or isinstance(fps, bool) or not 1.0 <= float(fps) <= 240.0:
        raise UserError(f"fps must be a number of frames a second from 1 to 240, got {fps!r}")
    return SCENARIOS[game][scenario].function(seed, float(fps))


__all__ = ["SCENARIOS", "ScenarioInfo", "scenario_names", "run_scenario"]
