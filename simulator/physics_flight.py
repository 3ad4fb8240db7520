"""Flight: a lift ``z`` with gravity, worked around the 2D engine, and leaving the table.

A ball gets vertical speed from a jump stroke or by climbing a cushion nose it hits hard. Above
the nose its collision filter drops the cushions (a tall cushion such as the bar-billiards
scoreboard still stops it). Beyond the cushion line it is over the rail top: coming down on the
rail's inner half it rolls back onto the bed (``returned``), on the outer half or beyond the rail
it falls to the floor (``fell_off``); one that stops on the rail top is off the table too.
"""

from __future__ import annotations

from tableref.calibration.spec import TableSpec
from tableref.simulator.physics_body import F_AIR, F_GROUND, RawEvent, TableObject
from tableref.simulator.physics_params import G_MM, TablePhysics
from tableref.simulator.state import ObjectStatus

RAIL_LANDING_KEEP = 0.5  # fraction of its speed a ball keeps when it comes down on the rail top
RAIL_ROLL_BACK = 250.0  # mm/s: a ball on the inner half of the rail top rolls back at this speed


class Flight:
    """The flight half of :class:`~tableref.simulator.physics.World` (a mixin over its state)."""

    spec: TableSpec
    physics: TablePhysics
    t: float
    _pending: list[RawEvent]

    def _wake(self, *ids: str) -> None:
        raise NotImplementedError

    def _leave_space(self, obj: TableObject) -> None:
        raise NotImplementedError

    def _lift(self, o: TableObject, vz: float) -> None:
        o.vz = vz
        o.z = max(o.z, 1e-3)
        o.airborne = True
        if vz * vz / (2.0 * G_MM) > self.physics.cushion_clear:
            o.high = True
        self._wake(o.id)

    def _region(self, x: float, y: float) -> str:
        L, W, rail = self.spec.length_mm, self.spec.width_mm, self.physics.rail_width
        if 0.0 <= x <= L and 0.0 <= y <= W:
            return "surface"
        if -rail <= x <= L + rail and -rail <= y <= W + rail:
            return "rail"
        return "beyond"

    def _flight(self, o: TableObject, dt: float) -> None:
        ph = self.physics
        o.vz -= G_MM * dt
        o.z += o.vz * dt
        region = self._region(o.x, o.y)
        if o.high and o.z > ph.cushion_clear:
            o.shape.filter = F_AIR
        if region != "surface" and o.left_t is None:
            o.left_t = self.t
            self._pending.append(RawEvent(self.t, "left_surface", (o.id,)))
        if region == "surface":
            if o.z <= 0.0:
                self._land(o)
        elif region == "rail":
            if o.z <= ph.cushion_clear and o.vz < 0.0:
                if o.high:
                    self._on_rail_top(o)
                else:
                    self._gone(o)
        elif o.z < ph.cushion_clear and o.vz < 0.0:
            self._gone(o)  # past the rail and below its top: down to the floor

    def _land(self, o: TableObject) -> None:
        if o.vz < -300.0:
            o.vz = -0.3 * o.vz
            o.z = 0.0
            return
        o.z = o.vz = 0.0
        o.airborne = o.high = o.on_rail = False
        o.shape.filter = F_GROUND
        if o.left_t is not None:
            self._pending.append(RawEvent(self.t, "returned", (o.id,), None, {"left_t": o.left_t}))
            o.left_t = None

    def _on_rail_top(self, o: TableObject) -> None:
        """Landed on the rail top: on its inner half it rolls back towards the bed, else off the edge.

        The rail top is rounded; a ball that comes down inside its crest runs along it and drops
        back (the rule books' "returns by its own means"), one outside the crest falls away.
        """
        L, W = self.spec.length_mm, self.spec.width_mm
        depths = {(-1.0, 0.0): -o.x, (1.0, 0.0): o.x - L, (0.0, -1.0): -o.y, (0.0, 1.0): o.y - W}
        (nx, ny), depth = max(depths.items(), key=lambda kv: kv[1])
        o.z, o.vz, o.airborne, o.on_rail = self.physics.cushion_clear, 0.0, False, True
        o.vx, o.vy = o.vx * RAIL_LANDING_KEEP, o.vy * RAIL_LANDING_KEEP  # the landing on wood takes speed
        o.body.velocity = (o.vx, o.vy)
        if depth > 0.5 * self.physics.rail_width:
            return
        out = o.vx * nx + o.vy * ny
        back = -RAIL_ROLL_BACK - out  # replace the outward run by a slow roll inwards
        o.vx, o.vy = o.vx + back * nx, o.vy + back * ny
        o.body.velocity = (o.vx, o.vy)

    def _rail(self, o: TableObject) -> None:
        region = self._region(o.x, o.y)
        inset = min(o.x, self.spec.length_mm - o.x, o.y, self.spec.width_mm - o.y)
        if region == "surface" and (inset > o.radius or o.speed == 0.0):
            o.on_rail = False  # wholly over the bed: it drops off the nose back onto the cloth
            o.airborne = True
            o.vz = 0.0
        elif region == "beyond" or (region == "rail" and o.speed == 0.0):
            self._gone(o)

    def _gone(self, o: TableObject) -> None:
        """Off the table for good: on the floor, or stopped on the rail top."""
        left = o.left_t if o.left_t is not None else self.t
        self._leave_space(o)
        o.status = ObjectStatus.OFF_TABLE
        o.airborne = o.high = o.on_rail = False
        o.z = 0.0
        self._pending.append(RawEvent(self.t, "fell_off", (o.id,), None, {"left_t": left}))
