"""The event vocabulary: the one contract between vision, the simulator and the referee.

Vision (and the simulator's truth) produce :class:`TableEvent`; the tablet produces
:class:`HumanInput`; the referee consumes both. Keeping them in this small module, which imports
nothing else of ours, is what lets ``referee/`` stay free of cv2/numpy and ``vision/`` free of the
rules (a test checks the boundary).

A match log is JSON Lines, one object a line, merged by time:

* an event:  ``{"t": 3.2, "frame": 96, "type": "pot", "objects": ["red"], "where": "hole-100"}``
* an input:  ``{"t": 3.9, "input": "called_shot", "ball": "ball-3", "pocket": "pocket-foot-left"}``

Every key other than ``t``/``frame``/``type``/``objects``/``where`` (events) or
``t``/``frame``/``input``/``by`` (inputs) is kept in ``data``, so the wire form stays flat and
readable while the Python form stays typed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any


class EventType(StrEnum):
    """What the camera can see happen on the table (DESIGN.md, event vocabulary)."""

    SHOT_START = "shot_start"
    CONTACT = "contact"
    CUSHION = "cushion"
    POT = "pot"
    BAULK_ENTRY = "baulk_entry"
    OFF_TABLE = "off_table"
    PIN_FALL = "pin_fall"
    PIN_MOVED = "pin_moved"
    BASELINE_CROSS = "baseline_cross"
    PLACED = "placed"
    REMOVED = "removed"
    MOVED = "moved"
    AT_REST = "at_rest"
    CARD_PLAYED = "card_played"
    CARD_KICKED = "card_kicked"
    CARD_RETRIEVED = "card_retrieved"


class LogFormatError(ValueError):
    """A log line that is not a valid event or input; the message says what is accepted."""


_EVENT_KEYS = frozenset({"t", "frame", "type", "objects", "where"})
_INPUT_KEYS = frozenset({"t", "frame", "input", "by"})


def _freeze(value: Any) -> Any:
    """Deep-freeze JSON-like data so events are truly immutable (lists -> tuples, dicts -> proxies)."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): _freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """The inverse of the freezing: plain dicts and lists, ready for ``json.dumps``."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class TableEvent:
    """One thing that happened on the table at time ``t`` (seconds from video start).

    ``data`` carries type-specific details: ``positions`` ({id: [x_mm, y_mm]}) on ``shot_start``
    and ``at_rest``, ``returned`` on ``off_table``, ``colour``/``position`` on pin events, ``card``,
    ``seat`` and ``order`` on card events, ``speed`` where it is known.
    """

    t: float
    type: EventType
    objects: tuple[str, ...] = ()
    where: str | None = None
    frame: int | None = None
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", EventType(self.type))
        object.__setattr__(self, "objects", tuple(self.objects))
        object.__setattr__(self, "data", _freeze(dict(self.data)))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": round(float(self.t), 4)}
        if self.frame is not None:
            out["frame"] = int(self.frame)
        out["type"] = self.type.value
        out["objects"] = list(self.objects)
        if self.where is not None:
            out["where"] = self.where
        out.update(thaw(self.data))
        return out


@dataclass(frozen=True)
class HumanInput:
    """Something a camera cannot see, entered on the tablet (or in a recorded match's log).

    ``kind`` is free for each game to define (``called_shot``, ``break_winner``, ``clock_expired``,
    ``overrule``, ``beg``, ...); engines reject kinds they do not know with a clear error.
    ``by`` names who entered it (a seat, a player, ``referee``) when that matters.
    """

    t: float
    kind: str
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    frame: int | None = None
    by: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", _freeze(dict(self.data)))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": round(float(self.t), 4)}
        if self.frame is not None:
            out["frame"] = int(self.frame)
        out["input"] = self.kind
        if self.by is not None:
            out["by"] = self.by
        out.update(thaw(self.data))
        return out


LogItem = TableEvent | HumanInput


def from_json(obj: Mapping[str, Any]) -> LogItem:
    """Parse one log object; raise :class:`LogFormatError` saying what was wrong and what is accepted."""
    if not isinstance(obj, Mapping):
        raise LogFormatError(f"a log line must be a JSON object, got {type(obj).__name__}")
    if "t" not in obj:
        raise LogFormatError("a log line needs 't' (seconds from the start of the video)")
    try:
        t = float(obj["t"])
    except (TypeError, ValueError):
        raise LogFormatError(f"'t' must be a number of seconds, got {obj['t']!r}") from None
    frame = obj.get("frame")
    if frame is not None and not isinstance(frame, int):
        raise LogFormatError(f"'frame' must be an integer frame index, got {frame!r}")
    if "input" in obj:
        kind = obj["input"]
        if not isinstance(kind, str) or not kind:
            raise LogFormatError("'input' must name the input kind, such as 'called_shot'")
        data = {k: v for k, v in obj.items() if k not in _INPUT_KEYS}
        by = obj.get("by")
        return HumanInput(t=t, kind=kind, data=data, frame=frame, by=by)
    if "type" in obj:
        try:
            etype = EventType(obj["type"])
        except ValueError:
            accepted = ", ".join(e.value for e in EventType)
            raise LogFormatError(f"unknown event type {obj['type']!r}; accepted: {accepted}") from None
        objects = obj.get("objects", [])
        if isinstance(objects, str) or not all(isinstance(o, str) for o in objects):
            raise LogFormatError("'objects' must be a list of object ids such as ['white-3', 'red']")
        where = obj.get("where")
        if where is not None and not isinstance(where, str):
            raise LogFormatError(f"'where' must be a place id such as 'hole-200', got {where!r}")
        data = {k: v for k, v in obj.items() if k not in _EVENT_KEYS}
        return TableEvent(t=t, type=etype, objects=tuple(objects), where=where, frame=frame, data=data)
    raise LogFormatError("a log line needs 'type' (a table event) or 'input' (a human input)")


def parse_line(line: str, lineno: int | None = None) -> LogItem:
    """Parse one JSON Lines line, naming the line number in any error."""
    where = f"line {lineno}: " if lineno is not None else ""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise LogFormatError(f"{where}not valid JSON ({exc.msg} at column {exc.colno})") from None
    try:
        return from_json(obj)
    except LogFormatError as exc:
        raise LogFormatError(f"{where}{exc}") from None


def read_log(lines: Iterable[str]) -> Iterator[LogItem]:
    """Parse a JSON Lines log, skipping blank lines and ``#`` comments."""
    for n, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        yield parse_line(text, n)


def dumps(item: LogItem) -> str:
    """One compact JSON line for a log item."""
    return json.dumps(item.to_json(), separators=(",", ":"))


def merge_by_time(*streams: Iterable[LogItem]) -> list[LogItem]:
    """Merge events and inputs by time, keeping each stream's order for equal times (stable)."""
    items: list[tuple[float, int, int, LogItem]] = []
    for s, stream in enumerate(streams):
        for i, item in enumerate(stream):
            items.append((item.t, s, i, item))
    items.sort(key=lambda x: (x[0], x[1], x[2]))
    return [x[3] for x in items]
