"""What happened in one pool shot: the events from ``shot_start`` to ``at_rest`` and small predicates.

pooltool's lesson (DESIGN.md): a rule is a small named predicate over the shot's event log, built
from filters (:func:`by_type`, :func:`by_ball`, :func:`by_time`). This module only says *what
happened* (the first hit, the balls potted and in which order, the balls that reached a rail, the
balls that left the table); each game's engine decides *what is allowed next*. Both pool games
share it, so a fix to "did the object ball move?" fixes both referees.

Every predicate is a pure function of a :class:`Shot`, which is immutable, so a shot can be judged
again (a ball that drops late, a referee's overrule) and give the same facts.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tableref.events import EventType, TableEvent, from_json
from tableref.referee.pool_table import Point, as_point, positions_of


@dataclass(frozen=True)
class Shot:
    """One shot: its ``shot_start``, the events in between (in order) and its ``at_rest``."""

    start: TableEvent
    events: tuple[TableEvent, ...]
    rest: TableEvent

    @classmethod
    def from_log(cls, items: Iterable[Mapping[str, Any]]) -> Shot:
        """Rebuild a shot from the plain JSON events an engine keeps in its state."""
        events = [from_json(i) for i in items]
        start, *middle, rest = events
        assert isinstance(start, TableEvent) and isinstance(rest, TableEvent)
        return cls(start=start, events=tuple(e for e in middle if isinstance(e, TableEvent)), rest=rest)


# -- filters -------------------------------------------------------------------------------------
def by_type(events: Iterable[TableEvent], *types: EventType) -> tuple[TableEvent, ...]:
    return tuple(e for e in events if e.type in types)


def by_ball(events: Iterable[TableEvent], ball: str) -> tuple[TableEvent, ...]:
    return tuple(e for e in events if ball in e.objects)


def by_time(events: Iterable[TableEvent], after: float | None = None, before: float | None = None) -> tuple[TableEvent, ...]:
    """Events with ``after <= t <= before`` (either bound may be left open)."""
    return tuple(
        e for e in events if (after is None or e.t >= after) and (before is None or e.t <= before)
    )


# -- predicates ----------------------------------------------------------------------------------
def cue_ball(shot: Shot) -> str:
    """The struck ball (the first object of ``shot_start``)."""
    return shot.start.objects[0]


def first_contact(shot: Shot) -> TableEvent | None:
    """The struck ball's first ``contact`` after the shot started (DESIGN.md: the first hit)."""
    hits = by_ball(by_type(shot.events, EventType.CONTACT), cue_ball(shot))
    return hits[0] if hits else None


def first_hit(shot: Shot) -> str | None:
    """The ball the struck ball touched first, or ``None`` when it touched none."""
    contact = first_contact(shot)
    if contact is None:
        return None
    others = [o for o in contact.objects if o != cue_ball(shot)]
    return others[0] if others else None


def pots(shot: Shot) -> tuple[tuple[str, str], ...]:
    """Every ball potted, in the order it dropped, with its pocket: ``(("ball-3", "pocket-top-left"),)``."""
    return tuple((e.objects[0], e.where or "") for e in by_type(shot.events, EventType.POT) if e.objects)


def potted(shot: Shot) -> tuple[str, ...]:
    return tuple(ball for ball, _ in pots(shot))


def off_table(shot: Shot) -> tuple[str, ...]:
    """Balls that left the playing surface and did not come back by themselves."""
    out: list[str] = []
    for e in by_type(shot.events, EventType.OFF_TABLE):
        if not e.data.get("returned", False):
            out.extend(o for o in e.objects if o not in out)
    return tuple(out)


def balls_to_rail(shot: Shot) -> tuple[str, ...]:
    """Distinct balls that touched a cushion, in the order each first touched one."""
    out: list[str] = []
    for e in by_type(shot.events, EventType.CUSHION):
        out.extend(o for o in e.objects if o not in out)
    return tuple(out)


def first_to_rail(shot: Shot) -> str | None:
    rails = balls_to_rail(shot)
    return rails[0] if rails else None


def rails_after_contact(shot: Shot) -> bool:
    """Some ball touched a cushion after the struck ball's first contact (the usual "rail" requirement)."""
    contact = first_contact(shot)
    if contact is None:
        return False
    after = shot.events[shot.events.index(contact) + 1 :]
    return bool(by_type(after, EventType.CUSHION))


def start_position(shot: Shot, ball: str) -> Point | None:
    """Where ``ball`` stood when the shot started (the struck ball's own ``position`` first)."""
    if ball == cue_ball(shot):
        point = as_point(shot.start.data.get("position"))
        if point is not None:
            return point
    return positions_of(shot.start.data).get(ball)


def start_positions(shot: Shot) -> dict[str, Point]:
    out = positions_of(shot.start.data)
    own = as_point(shot.start.data.get("position"))
    if own is not None:
        out[cue_ball(shot)] = own
    return out


def rest_positions(shot: Shot) -> dict[str, Point]:
    """Positions at rest, without balls that dropped or left the table (a late drop included)."""
    gone = set(potted(shot)) | set(off_table(shot))
    return {k: v for k, v in positions_of(shot.rest.data).items() if k not in gone}


def moved(shot: Shot, ball: str, tolerance_mm: float) -> bool:
    """``ball`` moved in this shot: it was struck or touched, met a cushion, dropped or left the table,
    or it rests more than ``tolerance_mm`` from where it stood (a touch the camera missed)."""
    if ball == cue_ball(shot) or by_ball(shot.events, ball):
        return True
    before, after = start_position(shot, ball), positions_of(shot.rest.data).get(ball)
    return before is not None and after is not None and math.dist(before, after) > tolerance_mm
