"""The human inputs of a simulated clip: what the tablet would have sent while it was filmed.

A clip is a segment of a match, so the referee needs more than the camera's events to judge it:
where the game stood when the clip starts (a ``setup`` at t = 0, built from frame 0's objects on
the table and the scenario's ``meta["setup"]``), and what a person says during it (an Up and Down
call before each shot, an All-Fours deal, stand, beg or give). The scripts record the spoken
inputs as they happen (:meth:`tableref.simulator.physics_clip.Clip.say`); this module builds each
ball game's opening ``setup`` and reads a clip's inputs back as
:class:`~tableref.events.HumanInput` for a replay.

The inputs travel in ``SimResult.meta["inputs"]`` as plain JSON objects in the log format of
``tableref/events.py`` (``{"t": 0.0, "frame": 0, "input": "setup", ...}``) and in ``truth.json``
as its ``inputs`` list; ``merge_by_time(events, inputs)`` is the segment's whole log.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tableref.events import HumanInput, from_json
from tableref.simulator.state import FrameState, ObjectStatus, SimResult

#: who is at the table when a ball-game clip starts (the engines' default player names)
BAR_BILLIARDS_PLAYER = "home"
POOL_PLAYER = "A"
CARROM_SEAT = "south"


def inputs_of(sim: SimResult) -> list[HumanInput]:
    """The clip's human inputs, parsed (an empty list for a result made before clips carried them)."""
    out: list[HumanInput] = []
    for raw in sim.meta.get("inputs", ()):
        item = from_json(raw)
        if not isinstance(item, HumanInput):
            raise ValueError(f"meta['inputs'] holds a table event, not an input: {raw!r}")
        out.append(item)
    return out


def _on_table(frame: FrameState, kinds: tuple[str, ...]) -> dict[str, list[float]]:
    return {o.id: [round(o.x, 1), round(o.y, 1)] for o in frame.objects
            if o.status is ObjectStatus.ON_TABLE and o.kind in kinds}


def bar_billiards_setup(frame: FrameState, meta: Mapping[str, Any]) -> dict[str, Any]:
    """The frame as it stands at frame 0: balls and standing pins, scores, the running break, the trough.

    ``meta`` may carry ``scores`` and ``break`` (the visit already under way), ``trough``
    (``{"white": n, "red": n}``; by default every ball off the cloth) and ``endgame`` (the bar is down).
    """
    data: dict[str, Any] = {"on_table": _on_table(frame, ("white", "red", "pin")), "player": BAR_BILLIARDS_PLAYER}
    if meta.get("scores"):
        data["scores"] = dict(meta["scores"])
    if meta.get("break"):
        data["break"] = int(meta["break"])
    if meta.get("trough") is not None:
        data["trough"] = dict(meta["trough"])
    if meta.get("endgame"):
        data["clock_expired"] = True
    return data


def pool_setup(game: str, frame: FrameState, meta: Mapping[str, Any]) -> dict[str, Any]:
    """The balls on the table at frame 0 and the player at the table; what the game keeps besides.

    Up and Down: ``direction`` (the shooter's, fixed earlier in the game) and ``scores``. Colors:
    ``window`` (companions owed after a neutral on the last shot), ``pending`` and ``scores``.
    """
    data: dict[str, Any] = {"on_table": _on_table(frame, ("ball",)), "player": POOL_PLAYER}
    keys = ("direction", "scores") if game == "up-and-down" else ("window", "pending", "scores")
    for key in keys:
        if meta.get(key):
            data[key] = meta[key]
    return data


def carrom_setup(frame: FrameState, meta: Mapping[str, Any]) -> dict[str, Any]:
    """The pieces on the board at frame 0, the seat to strike, who plays white and where the queen is."""
    on_board = _on_table(frame, ("white", "black", "queen"))
    seat = str(meta.get("shooter", CARROM_SEAT))
    data: dict[str, Any] = {"on_table": on_board, "player": seat, "white": seat}
    if "queen" not in on_board:
        if not meta.get("queen"):
            raise ValueError("the queen is off the board at frame 0 but meta['setup'] does not say who covered her")
        data["queen"] = dict(meta["queen"])
    if meta.get("scores"):
        data["scores"] = dict(meta["scores"])
    return data


__all__ = ["bar_billiards_setup", "carrom_setup", "inputs_of", "pool_setup"]
