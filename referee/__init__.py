"""Rules engines, one per game: pure Python, driven by table events and human inputs.

Nothing here imports cv2, numpy, fastapi or any other stage of ours; only ``tableref.events``
(a test checks this boundary).
"""

from __future__ import annotations

import importlib
from typing import Any

from tableref.referee.base import Engine, Outcome, RefereeError, Update, UpdateKind

#: game name -> "module:Class", imported on demand so one game's engine never slows another's.
ENGINES: dict[str, str] = {
    "bar-billiards": "tableref.referee.bar_billiards:BarBilliardsEngine",
    "up-and-down": "tableref.referee.up_and_down:UpAndDownEngine",
    "colors": "tableref.referee.colors:ColorsEngine",
    "carroms": "tableref.referee.carroms:CarromsEngine",
    "all-fours": "tableref.referee.all_fours:AllFoursEngine",
}


def engine_class(game: str) -> type[Engine[Any]]:
    """The engine class for a game name; ``ValueError`` lists the accepted names."""
    try:
        target = ENGINES[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}; accepted: {', '.join(ENGINES)}") from None
    module_name, _, cls_name = target.partition(":")
    cls: type[Engine[Any]] = getattr(importlib.import_module(module_name), cls_name)
    return cls


def make_engine(game: str, **options: Any) -> Engine[Any]:
    """A fresh engine for ``game`` with venue options (unknown options are refused)."""
    return engine_class(game)(**options)


__all__ = ["ENGINES", "Engine", "Outcome", "RefereeError", "Update", "UpdateKind", "engine_class", "make_engine"]
