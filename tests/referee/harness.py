"""Shared checks for every rules engine, used by each game's property tests (hypothesis).

``check_engine_properties`` drives a sequence of events and inputs through an engine and asserts
the engine contract of ``referee/base.py``:

* no crash: an item is either applied or refused with ``RefereeError`` (state then unchanged);
* every update is JSON-serialisable;
* ``engine.scores()`` always equals the per-player sum of ``SCORE`` updates' points;
* replaying the applied log on a fresh engine gives the identical state;
* ``undo`` steps back through exactly the states seen, to the initial one.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from tableref.events import LogItem
from tableref.referee import Engine, RefereeError, UpdateKind


def _nonzero(scores: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in scores.items() if v}


def check_engine_properties(make: Callable[[], Engine[Any]], items: Iterable[LogItem]) -> Engine[Any]:
    engine = make()
    states = [engine.state_json()]
    totals: dict[str, int] = defaultdict(int)
    applied: list[LogItem] = []
    for item in items:
        before = engine.state_json()
        try:
            updates = engine.apply(item)
        except RefereeError:
            assert engine.state_json() == before, f"a refused item changed the state: {item}"
            continue
        json.dumps([u.to_json() for u in updates])
        json.loads(engine.state_json())
        for u in updates:
            if u.kind is UpdateKind.SCORE:
                assert u.player is not None and u.points is not None, u
                totals[u.player] += u.points
        applied.append(item)
        states.append(engine.state_json())
        assert _nonzero(engine.scores()) == _nonzero(dict(totals)), (item, engine.scores(), dict(totals))
    fresh = make()
    fresh.replay(applied)
    assert fresh.state_json() == engine.state_json(), "replaying the log did not rebuild the same state"
    final = engine.state_json()
    for expected in reversed(states[:-1]):
        engine.undo()
        assert engine.state_json() == expected, "undo did not restore the previous state exactly"
    engine.replay(applied)
    assert engine.state_json() == final
    return engine
