"""A tiny engine for service tests: one point per pot, a foul (and minus one) per pin falling.

It lets the service's own guarantees (ordering, persistence, catch-up, auth) be tested apart from
any real game's rules; the real engines are exercised through the demo-table tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tableref.events import EventType, HumanInput, LogItem, TableEvent
from tableref.referee.base import Engine, Outcome, RefereeError, Update, UpdateKind


@dataclass
class _S:
    score: int = 0
    on_table: set[str] = field(default_factory=lambda: {"red", "white-1", "white-2"})
    fouls: int = 0


class CountingEngine(Engine[_S]):
    game = "counting"
    INPUT_KINDS = ("overrule",)

    def _initial_state(self) -> _S:
        return _S()

    def _apply(self, state: _S, item: LogItem) -> list[Update]:
        if isinstance(item, HumanInput):
            if item.kind != "overrule":
                raise RefereeError(f"unknown input {item.kind!r}; accepted: overrule")
            if state.fouls == 0:
                raise RefereeError("no foul to overrule")
            state.fouls -= 1
            state.score += 1
            return [Update(UpdateKind.SCORE, "Foul overruled: point restored", player="A", points=1)]
        assert isinstance(item, TableEvent)
        if item.type is EventType.POT:
            ball = item.objects[0]
            if ball not in state.on_table:
                raise RefereeError(f"{ball} is not on the table")
            state.on_table.discard(ball)
            state.score += 1
            return [Update(UpdateKind.SCORE, f"{ball} potted", player="A", points=1)]
        if item.type is EventType.PIN_FALL:
            state.fouls += 1
            state.score -= 1
            return [Update(UpdateKind.FOUL, "A pin fell", code="pin_down", clause="3b(a)"),
                    Update(UpdateKind.SCORE, "Penalty", player="A", points=-1)]
        return []

    def _outcome(self, state: _S) -> Outcome | None:
        return None

    def _scores(self, state: _S) -> dict[str, Any]:
        return {"A": state.score}
