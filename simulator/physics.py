"""The table as a pymunk world: balls, pieces and pins on the cloth, cushions, holes, flight.

pymunk (Chipmunk2D) resolves every contact: ball on ball, ball on pin, ball on cushion, with
restitution from :mod:`simulator.physics_params`. What a top-down 2D engine cannot see, this module
adds around each step, always as a change of velocity or status and never as its own integrator:

* **cloth friction**: a deceleration opposing the velocity (a skid after a strike, then rolling);
* **holes and pockets**: sensor circles checked each step. A ball whose centre enters one falls
  when it crosses slowly enough (the chord of its path through the hole, over its speed, gives
  gravity time to pull it below the far lip), otherwise it rattles over or out;
* **pins**: light bodies that topple when met above a normal speed, or slide and stand;
* **flight**: a height ``z`` (the lift of the object above its resting height, 0 on the cloth)
  with gravity. Above the cushion nose a ball's collision filter drops the cushions, so it can fly
  off; beyond the rail it falls to the floor (``OFF_TABLE``), or it lands back on the cloth.

Tunnelling: cushions are thick segments whose surface is the cushion nose, and the step is
adaptive, so no object moves more than :data:`MAX_MOVE_MM` per step (at 12 m/s that is 15 000
steps a second, for the instants that fast; slow play uses :data:`MAX_DT`). The same bound keeps
overlaps between objects under a millimetre when a frame is sampled. The caller cuts each video
frame into :meth:`World.substeps` equal steps, so steps land on frame times and their length
only changes between frames, and not while a collision's impulse is still cached (see there).

Every change the truth needs is returned from :meth:`World.step` as a :class:`RawEvent`;
:mod:`simulator.truth_events` turns them into DESIGN.md's events.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from typing import Any

import pymunk

from tableref.calibration.spec import Hole, TableSpec
from tableref.simulator.physics_body import (
    F_CUSHION,
    F_GROUND,
    F_PIN,
    F_TALL,
    T_CUSHION,
    T_OBJ,
    T_PIN,
    Point,
    RawEvent,
    TableObject,
)
from tableref.simulator.physics_flight import Flight
from tableref.simulator.physics_params import G_MM, ROLL_FRACTION, TablePhysics
from tableref.simulator.state import ObjectState, ObjectStatus

MAX_DT = 1.0 / 600.0  # longest physics step (s)
MIN_DT = 1.0 / 40000.0
HOLD_STEPS = 6  # steps after a contact begins during which the step length is not increased
MAX_MOVE_MM = 0.8  # no object moves further than this in one step
LAZY_SPEED = 300.0  # mm/s: slower objects are looked at every MAX_DT (they move < 0.5 mm in it)

__all__ = ["World", "RawEvent", "TableObject", "MAX_DT", "MAX_MOVE_MM"]


class World(Flight):
    """One table's physics. Build it, add objects, strike, and call :meth:`step` until at rest.

    ``rng`` is the scenario's seeded generator (lip rattles draw from it); nothing here reads the
    clock or a global random state, so the same calls give the same world bit for bit.
    ``disabled_holes`` are holes that cannot take a ball (the bar-billiards endgame covers the back
    row with the scoreboard and plugs the 50 holes with their pins).
    """

    def __init__(self, spec: TableSpec, physics: TablePhysics, rng: random.Random, *,
                 disabled_holes: Iterable[str] = (), pins: bool = True,
                 pin_positions: Mapping[str, Point] | None = None,
                 pin_colours: Mapping[str, str] | None = None) -> None:
        self.spec = spec
        self.physics = physics
        self.rng = rng
        self.t = 0.0
        self.space = pymunk.Space()
        self.space.iterations = 20
        self.space.collision_slop = 0.05
        self.space.collision_bias = pow(1.0 - 0.5, 60.0)
        self.objects: dict[str, TableObject] = {}
        self._by_shape: dict[pymunk.Shape, TableObject] = {}
        self._cushion_of: dict[pymunk.Shape, str] = {}
        self._awake: dict[str, None] = {}  # insertion-ordered, so runs repeat exactly
        self._pending: list[RawEvent] = []
        self._topple: dict[str, float] = {}
        self._last_dt = 0.0
        self._last_touch = -1.0
        disabled = set(disabled_holes)
        unknown = disabled - {h.id for h in spec.holes}
        if unknown:
            raise KeyError(f"{spec.name} has no holes {sorted(unknown)}; it has {[h.id for h in spec.holes]}")
        self.holes: tuple[Hole, ...] = tuple(h for h in spec.holes if h.id not in disabled)
        self._build_cushions()
        if pins and physics.pin is not None:
            for p in spec.pins:
                pos = (pin_positions or {}).get(p.id, (p.x, p.y))
                colour = (pin_colours or {}).get(p.id, p.colour)
                self._add_pin(p.id, pos, p.radius, colour)
        self.space.on_collision(T_OBJ, T_OBJ, begin=self._on_contact, pre_solve=self._on_touching)
        self.space.on_collision(T_OBJ, T_PIN, begin=self._on_pin, pre_solve=self._on_touching)
        self.space.on_collision(T_OBJ, T_CUSHION, begin=self._on_cushion, pre_solve=self._on_cushion_touch)

    # -- building ------------------------------------------------------------------------------
    def _build_cushions(self) -> None:
        cx, cy = self.spec.length_mm / 2.0, self.spec.width_mm / 2.0
        r = self.physics.segment_radius
        for c in self.spec.cushions:
            (ax, ay), (bx, by) = c.a, c.b
            length = math.hypot(bx - ax, by - ay)
            nx, ny = -(by - ay) / length, (bx - ax) / length
            mx, my = (ax + bx) / 2.0, (ay + by) / 2.0
            if (mx - cx) * nx + (my - cy) * ny < 0:  # make the normal point away from the table
                nx, ny = -nx, -ny
            seg = pymunk.Segment(self.space.static_body, (ax + nx * r, ay + ny * r), (bx + nx * r, by + ny * r), r)
            seg.elasticity = self.physics.cushion_elasticity
            seg.friction = 0.0
            seg.collision_type = T_CUSHION
            seg.filter = F_TALL if c.id in self.physics.tall_cushions else F_CUSHION
            self.space.add(seg)
            self._cushion_of[seg] = c.id

    def _new_body(self, mass: float, radius: float, elasticity: float) -> tuple[pymunk.Body, pymunk.Circle]:
        body = pymunk.Body(mass, float("inf"))
        shape = pymunk.Circle(body, radius)
        shape.elasticity = elasticity
        shape.friction = 0.0
        return body, shape

    def add_object(self, obj_id: str, kind: str, x: float, y: float, *, label: str = "",
                   status: ObjectStatus = ObjectStatus.ON_TABLE, colour: str = "", hole: str | None = None) -> None:
        """Add a ball or piece of ``kind`` (a key of the table physics); on the cloth unless ``status`` says not.

        An object already potted (``IN_HOLE``) names its ``hole``; one in the trough or a hand is ``IN_HAND``.
        """
        if obj_id in self.objects:
            raise ValueError(f"object {obj_id!r} is already in the world")
        props = self.physics.kind(kind)
        radius = self.spec.object_radius[kind]
        body, shape = self._new_body(props.mass, radius, props.elasticity)
        shape.collision_type = T_OBJ
        shape.filter = F_GROUND
        obj = TableObject(id=obj_id, kind=kind, label=label or obj_id, colour=colour, radius=radius, body=body,
                   shape=shape, status=status, x=x, y=y, hole=hole)
        self.objects[obj_id] = obj
        self._by_shape[shape] = obj
        if status is ObjectStatus.ON_TABLE:
            self._enter_space(obj, x, y)

    def _add_pin(self, pin_id: str, pos: Point, radius: float, colour: str) -> None:
        rule = self.physics.pin
        assert rule is not None
        body, shape = self._new_body(rule.mass, radius, rule.elasticity)
        shape.collision_type = T_PIN
        shape.filter = F_PIN
        obj = TableObject(id=pin_id, kind="pin", label=pin_id, colour=colour, radius=radius, body=body, shape=shape,
                   is_pin=True, home=pos, x=pos[0], y=pos[1])
        self.objects[pin_id] = obj
        self._by_shape[shape] = obj
        self._enter_space(obj, *pos)

    def _enter_space(self, obj: TableObject, x: float, y: float) -> None:
        obj.body.position = (x, y)
        obj.body.velocity = (0.0, 0.0)
        obj.x, obj.y, obj.vx, obj.vy, obj.z, obj.vz = x, y, 0.0, 0.0, 0.0, 0.0
        obj.airborne = obj.high = obj.on_rail = False
        obj.left_t = None
        obj.hole = None
        obj.over_hole = None
        if not obj.is_pin:
            obj.shape.filter = F_GROUND
        if not obj.in_space:
            self.space.add(obj.body, obj.shape)
            obj.in_space = True

    def _leave_space(self, obj: TableObject) -> None:
        if obj.in_space:
            self.space.remove(obj.body, obj.shape)
            obj.in_space = False
        obj.vx = obj.vy = obj.vz = 0.0
        self._wake_off(obj.id)

    # -- the hand and the cue ------------------------------------------------------------------
    def place(self, obj_id: str, x: float, y: float) -> None:
        """Put an object on the cloth at rest (a hand placing it); from the hand, a hole or the floor."""
        obj = self.objects[obj_id]
        obj.status = ObjectStatus.ON_TABLE
        obj.slide_until = 0.0
        self._enter_space(obj, x, y)
        if obj.is_pin:
            obj.home = (x, y)
            obj.angle = 0.0

    def take(self, obj_id: str) -> None:
        """Lift an object off the table into a hand (or the trough)."""
        obj = self.objects[obj_id]
        self._leave_space(obj)
        obj.status = ObjectStatus.IN_HAND
        obj.hole = None

    def strike(self, obj_id: str, vx: float, vy: float, vz: float = 0.0) -> None:
        """The cue (or finger) impulse: the object leaves its spot at (vx, vy) mm/s, skidding."""
        obj = self.objects[obj_id]
        if obj.status is not ObjectStatus.ON_TABLE or not obj.in_space:
            raise ValueError(f"cannot strike {obj_id!r}: it is {obj.status.value}")
        speed = math.hypot(vx, vy)
        limit = self.physics.max_shot_speed
        if speed > limit * 1.0001:
            raise ValueError(f"a stroke of {speed:.0f} mm/s is harder than this table's {limit:.0f} mm/s")
        obj.body.velocity = (vx, vy)
        obj.vx, obj.vy = vx, vy
        props = self.physics.kind(obj.kind)
        obj.slide_until = 0.0 if props.slides_only else speed * ROLL_FRACTION
        if vz > 0.0:
            self._lift(obj, vz)
        self._wake(obj_id)

    # -- collision callbacks (record; never change the space inside a step) ----------------------
    def _on_contact(self, arb: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        a, b = (self._by_shape[s] for s in arb.shapes)
        self._wake(a.id, b.id)
        self._last_touch = self.t
        self._pending.append(RawEvent(self.t, "contact", (a.id, b.id)))

    def _on_touching(self, arb: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        a, b = (self._by_shape[s] for s in arb.shapes)
        if a.id in self._awake or b.id in self._awake:
            self._wake(a.id, b.id)

    def _on_pin(self, arb: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        ball, pin = (self._by_shape[s] for s in arb.shapes)
        self._wake(ball.id, pin.id)
        self._last_touch = self.t
        self._pending.append(RawEvent(self.t, "contact", (ball.id, pin.id)))
        n = arb.normal  # from the ball towards the pin
        bv, pv = ball.body.velocity, pin.body.velocity
        closing = (bv.x - pv.x) * n.x + (bv.y - pv.y) * n.y
        rule = self.physics.pin
        assert rule is not None
        pin.pin_touched = True
        if closing >= rule.topple_speed:
            self._topple[pin.id] = math.degrees(math.atan2(n.y, n.x))

    def _on_cushion(self, arb: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        obj = self._by_shape[arb.shapes[0]]
        obj.dirty = True
        self._last_touch = self.t
        where = self._cushion_of[arb.shapes[1]]
        if obj.high and where not in self.physics.tall_cushions:
            arb.process_collision = False  # already flying over this nose
            return
        n = arb.normal  # from the object towards the cushion
        v = obj.body.velocity
        into = v.x * n.x + v.y * n.y
        self._pending.append(RawEvent(self.t, "cushion", (obj.id,), where, {"speed": round(abs(into), 1)}))
        ph = self.physics
        if where in ph.tall_cushions or into <= ph.ride_up_speed:
            return
        vz = ph.ride_up_lift * (into - ph.ride_up_speed)
        clears = vz * vz / (2.0 * G_MM) > ph.cushion_clear
        if clears:
            obj.high = True  # it climbs the nose and clears it: the cushion does not push back
            arb.process_collision = False
        self._pending.append(RawEvent(self.t, "lift", (obj.id,), where,
                                      {"vz": vz, "clears": clears, "n": (n.x, n.y)}))

    def _on_cushion_touch(self, arb: pymunk.Arbiter, space: pymunk.Space, data: Any) -> None:
        obj = self._by_shape[arb.shapes[0]]
        obj.dirty = True
        if obj.high and self._cushion_of[arb.shapes[1]] not in self.physics.tall_cushions:
            arb.process_collision = False

    # -- stepping --------------------------------------------------------------------------------
    def substeps(self, span: float) -> int:
        """How many equal steps to cut ``span`` seconds into (the clip asks once per video frame).

        Enough that no moving object goes further than :data:`MAX_MOVE_MM` a step and no step is
        longer than :data:`MAX_DT`. The step is not lengthened again within :data:`HOLD_STEPS`
        steps of a new contact: Chipmunk warm-starts a contact with its last impulse scaled by the
        ratio of the new step to the old, which, while a collision's large impulse is still
        cached, would push two balls apart too hard (or pull them back) when the step changes.
        """
        vmax = 0.0
        for oid in self._awake:
            o = self.objects[oid]
            v = abs(o.vx) + abs(o.vy)  # >= speed: a cheap, safe bound
            if v > vmax:
                vmax = v
        need = max(1, math.ceil(span / MAX_DT - 1e-9), math.ceil(span * vmax / MAX_MOVE_MM - 1e-9))
        need = min(need, max(1, math.ceil(span / MIN_DT)))
        if self._last_dt > 0.0 and self.t - self._last_touch <= HOLD_STEPS * self._last_dt:
            keep = max(1, round(span / self._last_dt))
            if keep >= need:
                return keep
        return need

    def _wake(self, *ids: str) -> None:
        for i in ids:
            o = self.objects[i]
            if i not in self._awake:
                o.t_done = self.t
                o.hole_clear = 0.0
            o.dirty = True
            self._awake[i] = None

    def _wake_off(self, obj_id: str) -> None:
        self._awake.pop(obj_id, None)

    def at_rest(self) -> bool:
        return not self._awake

    def moving_ids(self) -> tuple[str, ...]:
        """Objects still being stepped (moving, flying, or touching something that moves)."""
        return tuple(self._awake)

    def step(self, dt: float) -> list[RawEvent]:
        """Advance ``dt`` seconds: one pymunk step, then friction, holes, pins and flight.

        Objects slower than :data:`LAZY_SPEED` that touched nothing this step are looked at every
        :data:`MAX_DT` only (their friction applied for the whole interval): a slow ball moves
        under half a millimetre in that time, and it keeps a break with sixteen balls cheap.
        """
        self.t += dt
        t = self.t
        self._last_dt = dt
        self.space.step(dt)
        for oid in tuple(self._awake):
            o = self.objects[oid]
            if not o.in_space:
                self._wake_off(oid)
                continue
            if not (o.dirty or o.airborne or o.on_rail or o.high or abs(o.vx) + abs(o.vy) > LAZY_SPEED
                    or t - o.t_done >= MAX_DT * 0.999):
                continue
            elapsed = t - o.t_done
            o.dirty = False
            o.t_done = t
            p, v = o.body.position, o.body.velocity
            moved = math.hypot(p.x - o.x, p.y - o.y)
            o.x, o.y = p.x, p.y
            before = math.hypot(o.vx, o.vy)
            speed = math.hypot(v.x, v.y)
            if o.is_pin:
                self._friction(o, v.x, v.y, speed, elapsed)
                self._pin_after_step(o)
                continue
            o.roll_deg = (o.roll_deg + math.degrees(moved / o.radius)) % 360.0
            if speed > before + 20.0 and not o.airborne:
                props = self.physics.kind(o.kind)  # struck by another object: it skids first
                o.slide_until = 0.0 if props.slides_only else speed * ROLL_FRACTION
            speed = self._friction(o, v.x, v.y, speed, elapsed)
            if o.on_rail:
                self._rail(o)
            elif o.airborne or o.high:
                self._flight(o, elapsed)
            if o.status is ObjectStatus.ON_TABLE and o.in_space and not o.airborne and not o.on_rail:
                o.hole_clear -= moved
                if o.hole_clear <= 0.0 or speed == 0.0:
                    self._holes(o, speed)
            if o.in_space and speed == 0.0 and not o.airborne and not o.on_rail:
                self._wake_off(oid)
        for ev in list(self._pending):
            if ev.kind == "lift":
                o = self.objects[ev.objects[0]]
                if o.in_space:
                    if ev.data["clears"]:  # the nose turns the run into the cushion into height
                        nx, ny = ev.data["n"]
                        v = o.body.velocity
                        into = v.x * nx + v.y * ny
                        keep_n, keep_t = self.physics.ride_up_keep_normal, self.physics.ride_up_keep_along
                        tx, ty = v.x - into * nx, v.y - into * ny
                        o.vx, o.vy = tx * keep_t + into * nx * keep_n, ty * keep_t + into * ny * keep_n
                        o.body.velocity = (o.vx, o.vy)
                    self._lift(o, float(ev.data["vz"]))
        for pin_id, angle in self._topple.items():
            self._fall_pin(self.objects[pin_id], angle)
        self._topple.clear()
        out = [e for e in self._pending if e.kind != "lift"]
        self._pending.clear()
        return out

    def _friction(self, o: TableObject, vx: float, vy: float, speed: float, elapsed: float) -> float:
        """Slow an object on the cloth over ``elapsed`` seconds; sets and returns its new speed."""
        if speed == 0.0:
            o.vx = o.vy = 0.0
            return 0.0
        if o.airborne:
            o.vx, o.vy = vx, vy
            return speed
        if o.is_pin:
            rule = self.physics.pin
            assert rule is not None
            decel = rule.slide_decel
        else:
            props = self.physics.kind(o.kind)
            sliding = o.slide_until > 0.0
            decel = (props.slide_decel if sliding else props.roll_decel) + props.drag * speed
        new = speed - decel * elapsed
        if o.slide_until > 0.0 and new <= o.slide_until:
            o.slide_until = 0.0
        if new <= self.physics.stop_speed:
            new = 0.0
        scale = new / speed
        o.vx, o.vy = vx * scale, vy * scale
        o.body.velocity = (o.vx, o.vy)
        return new

    # -- holes -----------------------------------------------------------------------------------
    def _holes(self, o: TableObject, speed: float) -> None:
        inside: Hole | None = None
        for h in self.holes:
            dx, dy = o.x - h.x, o.y - h.y
            if dx * dx + dy * dy < h.radius * h.radius:
                inside = h
                break
        if inside is None:
            o.over_hole = None
            if not self.spec.on_surface(o.x, o.y):
                self._escaped(o)
                return
            clear = min(o.x, self.spec.length_mm - o.x, o.y, self.spec.width_mm - o.y)
            for h in self.holes:
                clear = min(clear, math.hypot(o.x - h.x, o.y - h.y) - h.radius)
            o.hole_clear = clear
            return
        if o.over_hole == inside.id:
            if speed == 0.0:  # came to rest over a hole after a rattle: it drops
                self._pot(o, inside, speed)
            return
        o.over_hole = inside.id
        rule = self.physics.hole
        if speed > 0.0:
            ux, uy = o.vx / speed, o.vy / speed
            off = abs((o.x - inside.x) * uy - (o.y - inside.y) * ux)
            chord = 2.0 * math.sqrt(max(inside.radius * inside.radius - off * off, 0.0))
            over = chord / speed
            falls = speed <= rule.max_speed and 0.5 * G_MM * over * over >= rule.drop_fraction * o.radius
        else:
            falls = True
        if falls:
            self._pot(o, inside, speed)
            return
        spread = math.radians(self.rng.uniform(-rule.rattle_spread_deg, rule.rattle_spread_deg))
        heading = math.atan2(o.vy, o.vx) + (math.pi if rule.bounce_back else 0.0) + spread
        keep = speed * rule.rattle_keep
        o.vx, o.vy = keep * math.cos(heading), keep * math.sin(heading)
        o.body.velocity = (o.vx, o.vy)
        self._pending.append(RawEvent(self.t, "rattle", (o.id,), inside.id, {"speed": round(speed, 1)}))

    def _pot(self, o: TableObject, hole: Hole, speed: float) -> None:
        self._leave_space(o)
        o.status = ObjectStatus.IN_HOLE
        o.hole = hole.id
        o.x, o.y = hole.x, hole.y
        self._pending.append(RawEvent(self.t, "pot", (o.id,), hole.id, {"speed": round(speed, 1)}))

    def _escaped(self, o: TableObject) -> None:
        """A rolling object past the cushion line: it went through a pocket's throat, or off."""
        best: Hole | None = None
        for h in self.holes:
            d = math.hypot(o.x - h.x, o.y - h.y)
            if d < h.radius + 2.0 * o.radius and (best is None or d < math.hypot(o.x - best.x, o.y - best.y)):
                best = h
        if best is not None:
            self._pot(o, best, o.speed)
        else:
            self._gone(o)

    # -- pins ------------------------------------------------------------------------------------
    def _pin_after_step(self, pin: TableObject) -> None:
        if pin.vx or pin.vy:
            return
        self._wake_off(pin.id)
        if not pin.pin_touched:
            return
        pin.pin_touched = False
        rule = self.physics.pin
        assert rule is not None
        dist = math.hypot(pin.x - pin.home[0], pin.y - pin.home[1])
        if dist < rule.moved_mm:  # a wobble: nothing a camera or a referee would call a move
            return
        pin.home = (pin.x, pin.y)
        self._pending.append(RawEvent(self.t, "pin_moved", (pin.id,), None,
                                      {"position": [round(pin.x, 1), round(pin.y, 1)], "colour": pin.colour}))

    def _fall_pin(self, pin: TableObject, angle_deg: float) -> None:
        """The pin tips over away from the ball and lies on the cloth, its head along ``angle_deg``."""
        if pin.status is not ObjectStatus.ON_TABLE:
            return
        spec_pin = next((p for p in self.spec.pins if p.id == pin.id), None)
        height = spec_pin.height if spec_pin is not None else 4.0 * pin.radius
        self._leave_space(pin)
        pin.status = ObjectStatus.FALLEN
        pin.angle = angle_deg
        a = math.radians(angle_deg)
        pin.x += 0.5 * height * math.cos(a)
        pin.y += 0.5 * height * math.sin(a)
        self._pending.append(RawEvent(self.t, "topple", (pin.id,), None,
                                      {"angle": round(angle_deg, 1), "colour": pin.colour}))

    # -- reading the state -----------------------------------------------------------------------
    def sync(self) -> None:
        """Read every body's position (a resting body may have been nudged apart by the solver)."""
        for o in self.objects.values():
            if o.in_space:
                p = o.body.position
                o.x, o.y = p.x, p.y

    def states(self, held: Mapping[str, Point] | None = None) -> tuple[ObjectState, ...]:
        """Every object now, in insertion order; ``held`` gives the hand position of held objects."""
        self.sync()
        out: list[ObjectState] = []
        held = held or {}
        for o in self.objects.values():
            x, y = held.get(o.id, (o.x, o.y))
            angle = o.angle if o.is_pin else o.roll_deg
            out.append(ObjectState(
                id=o.id, kind=o.kind, x=x, y=y, radius=o.radius, status=o.status, z=o.z, vx=o.vx, vy=o.vy,
                angle=angle, label=o.label, colour=o.colour, hole=o.hole,
            ))
        return tuple(out)

    def positions(self) -> dict[str, list[float]]:
        """Positions of everything on the table (balls, pieces, standing and fallen pins), rounded."""
        self.sync()
        return {o.id: [round(o.x, 1), round(o.y, 1)] for o in self.objects.values()
                if o.status in (ObjectStatus.ON_TABLE, ObjectStatus.FALLEN)}

    def position(self, obj_id: str) -> Point:
        o = self.objects[obj_id]
        if o.in_space:
            p = o.body.position
            return (p.x, p.y)
        return (o.x, o.y)

    def status(self, obj_id: str) -> ObjectStatus:
        return self.objects[obj_id].status

    def kinetic_energy(self) -> float:
        """Translational kinetic energy of everything (g mm^2/s^2), for checks and benchmarks."""
        total = 0.0
        for o in self.objects.values():
            total += 0.5 * o.body.mass * (o.vx * o.vx + o.vy * o.vy)
        return total
