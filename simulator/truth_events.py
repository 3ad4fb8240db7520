"""Turning the physics into the true event list, in DESIGN.md's vocabulary.

The world reports raw happenings (:class:`simulator.physics.RawEvent`); this module names them,
debounces them and adds the events that are judgements on the state rather than contacts:

* ``contact`` / ``cushion``: one per touch. Chipmunk may end and restart a contact while two
  objects roll together or a ball runs along a cushion; a repeat of the same pair within
  ``touch_gap_s`` of the last one is the same touch.
* ``pot``, ``pin_fall``, ``pin_moved``: straight from the world.
* ``off_table``: dated when the object left the playing surface, with ``returned`` saying whether
  it came back by itself (known only when it lands or falls, so the event is written then).
* ``baulk_entry`` (bar billiards): a ball that has been clear of the baulk area touches it again;
  ``where`` is ``d`` when it touches the D, else ``baulk``.
* ``baseline_cross`` (carrom): the striker's centre crosses the shooter's front baseline towards
  the board's centre, once per shot.
* ``shot_start``, ``at_rest``, ``placed``/``removed``/``moved`` come from the clip script, with the
  positions of everything on the table.

``frame`` is the first video frame at or after the event's time, so the state drawn in that
frame already shows it (a potted ball is gone, a fallen pin is down).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from tableref.calibration.spec import Baseline, TableSpec
from tableref.events import EventType, TableEvent
from tableref.simulator.physics import RawEvent, World
from tableref.simulator.state import ObjectStatus

TOUCH_GAP_S = 0.15


def frame_at_or_after(t: float, fps: float) -> int:
    """Index of the first frame whose time is at or after ``t``."""
    return max(0, int(math.ceil(t * fps - 1e-6)))


class TruthRecorder:
    """Collects one clip's true events while its script and the physics run."""

    def __init__(self, spec: TableSpec, fps: float, *, touch_gap_s: float = TOUCH_GAP_S) -> None:
        self.spec = spec
        self.fps = fps
        self.touch_gap_s = touch_gap_s
        self._events: list[tuple[float, int, TableEvent]] = []
        self._last_touch: dict[tuple[str, ...], float] = {}
        self._in_baulk: dict[str, bool] = {}
        self._struck: str | None = None
        self._baseline: Baseline | None = None
        self._crossed = False
        self._baulk_game = spec.baulk_x is not None and spec.d_centre is not None and spec.name == "bar-billiards"

    # -- writing ---------------------------------------------------------------------------------
    def add(self, t: float, etype: EventType, objects: Iterable[str] = (), where: str | None = None,
            data: Mapping[str, Any] | None = None) -> TableEvent:
        event = TableEvent(t=t, type=etype, objects=tuple(objects), where=where,
                           frame=frame_at_or_after(t, self.fps), data=dict(data or {}))
        self._events.append((event.t, len(self._events), event))
        return event

    def mark(self) -> int:
        """A bookmark: the number of events recorded so far."""
        return len(self._events)

    def since(self, mark: int) -> list[TableEvent]:
        """Events recorded after ``mark``, by time."""
        return [e for _, _, e in sorted((x for x in self._events if x[1] >= mark), key=lambda x: (x[0], x[1]))]

    def events(self) -> tuple[TableEvent, ...]:
        """All events by time (ties keep the order they were recorded in)."""
        return tuple(e for _, _, e in sorted(self._events, key=lambda x: (x[0], x[1])))

    # -- from the physics ------------------------------------------------------------------------
    def _touch(self, key: tuple[str, ...], t: float) -> bool:
        last = self._last_touch.get(key)
        self._last_touch[key] = t
        return last is None or t - last > self.touch_gap_s

    def raw(self, raws: Iterable[RawEvent]) -> None:
        for r in raws:
            if r.kind == "contact":
                a, b = r.objects
                if b == self._struck:
                    a, b = b, a
                if self._touch(tuple(sorted((a, b))), r.t):
                    self.add(r.t, EventType.CONTACT, (a, b))
            elif r.kind == "cushion":
                if self._touch((r.objects[0], "|", r.where or ""), r.t):
                    self.add(r.t, EventType.CUSHION, r.objects, r.where, {"speed": r.data.get("speed")})
            elif r.kind == "pot":
                self._in_baulk.pop(r.objects[0], None)
                self.add(r.t, EventType.POT, r.objects, r.where, {"speed": r.data.get("speed")})
            elif r.kind == "topple":
                self.add(r.t, EventType.PIN_FALL, r.objects, None,
                         {"colour": r.data["colour"], "angle": r.data["angle"]})
            elif r.kind == "pin_moved":
                self.add(r.t, EventType.PIN_MOVED, r.objects, None,
                         {"colour": r.data["colour"], "position": list(r.data["position"])})
            elif r.kind in ("returned", "fell_off"):
                left = float(r.data["left_t"])
                data: dict[str, Any] = {"returned": r.kind == "returned"}
                data["resolved_t"] = round(r.t, 4)
                if r.kind == "fell_off":
                    self._in_baulk.pop(r.objects[0], None)
                self.add(left, EventType.OFF_TABLE, r.objects, None, data)
            # "rattle" and "left_surface" are physics detail, not events

    def track(self, world: World) -> None:
        """State-derived events, checked after every physics step for the objects that move."""
        if not self._baulk_game and self._baseline is None:
            return
        for oid in world.moving_ids():
            o = world.objects[oid]
            if o.is_pin or o.status is not ObjectStatus.ON_TABLE or o.airborne:
                continue
            if self._baulk_game:
                self._check_baulk(world.t, oid, o.x, o.y, o.radius)
            if oid == "striker" and self._baseline is not None and not self._crossed:
                self._check_baseline(world.t, o.x, o.y)

    def _check_baulk(self, t: float, oid: str, x: float, y: float, r: float) -> None:
        touching = self.spec.in_baulk(x, r)
        was = self._in_baulk.get(oid)
        self._in_baulk[oid] = touching
        if touching and was is False:
            self.add(t, EventType.BAULK_ENTRY, (oid,), "d" if self.spec.in_d(x, y, r) else "baulk",
                     {"position": [round(x, 1), round(y, 1)]})

    def _check_baseline(self, t: float, x: float, y: float) -> None:
        assert self._baseline is not None
        (ax, ay), (bx, by) = self._baseline.front
        cx, cy = self.spec.length_mm / 2.0, self.spec.width_mm / 2.0
        length = math.hypot(bx - ax, by - ay)
        nx, ny = -(by - ay) / length, (bx - ax) / length
        if (cx - ax) * nx + (cy - ay) * ny < 0:
            nx, ny = -nx, -ny  # normal towards the board's centre
        if (x - ax) * nx + (y - ay) * ny >= 0.0:
            self._crossed = True
            self.add(t, EventType.BASELINE_CROSS, ("striker",), self._baseline.id,
                     {"position": [round(x, 1), round(y, 1)]})

    # -- from the script -------------------------------------------------------------------------
    def zones_from(self, world: World) -> None:
        """Note which balls touch baulk now (after a placement, before a shot)."""
        if not self._baulk_game:
            return
        self._in_baulk = {
            o.id: self.spec.in_baulk(o.x, o.radius)
            for o in world.objects.values() if not o.is_pin and o.status is ObjectStatus.ON_TABLE
        }

    def shot_start(self, t: float, world: World, struck: str, *, seat: str | None = None,
                   data: Mapping[str, Any] | None = None) -> None:
        self._struck = struck
        self._crossed = False
        self._baseline = None
        if seat is not None:
            self._baseline = next((b for b in self.spec.baselines if b.seat == seat), None)
            if self._baseline is None:
                raise KeyError(f"{self.spec.name} has no baseline for seat {seat!r}")
        self.zones_from(world)
        x, y = world.position(struck)
        payload: dict[str, Any] = {"position": [round(x, 1), round(y, 1)], "positions": world.positions()}
        payload.update(data or {})
        self.add(t, EventType.SHOT_START, (struck,), None, payload)

    def at_rest(self, t: float, world: World) -> None:
        """The shot is over. Never dated before an event of its own: the clip lands the step on the frame
        time exactly, while a pot in that step was stamped with the world's summed substeps, which
        can run a hair past it; a ball that dropped as everything stopped belongs to the shot."""
        t = max([t, *(x[0] for x in self._events)])
        self._struck = None
        self._baseline = None
        self.add(t, EventType.AT_REST, (), None, {"positions": world.positions()})

    def by_hand(self, t: float, etype: EventType, obj_id: str, world: World,
                data: Mapping[str, Any] | None = None) -> None:
        """``placed`` / ``removed`` / ``moved``: a hand put, took or shifted ``obj_id``."""
        payload: dict[str, Any] = dict(data or {})
        if etype is not EventType.REMOVED:
            x, y = world.position(obj_id)
            payload["position"] = [round(x, 1), round(y, 1)]
        payload["positions"] = world.positions()
        self.add(t, etype, (obj_id,), None, payload)
        self.zones_from(world)
