"""Physical constants of each table's balls, pieces, pins, cloth and cushions, as data.

Units are the table's millimetres, seconds and grams (pymunk only needs them consistent).
The values are typical published figures, rounded, chosen so that a shot behaves like one on a
real table: a pool ball struck at 1 m/s rolls about two metres; a carrom piece slides on a
powdered board; a bar-billiards ball falls into a hole only when it crosses it slowly.

Why friction lives here and not in pymunk: pymunk is a top-down 2D engine, so cloth friction
(which acts between the ball and the bed, perpendicular to the view) is not one of its contacts.
The world applies it each step as a deceleration that always opposes the velocity:

* a **sliding** phase just after a strike or after being hit, at ``slide_decel`` (the ball skids
  on the cloth until friction has spun it up to rolling, which for a uniform sphere struck through
  its centre happens when its speed has fallen to 5/7 of the start speed, ``ROLL_FRACTION``);
* a **rolling** phase at ``roll_decel`` plus ``drag`` times the speed (the nap of the cloth slows
  a slow ball more than a constant rolling resistance alone).

Because the deceleration never has a component along the velocity, kinetic energy only falls
between collisions (spin-driven effects such as draw or follow are left out on purpose: the
referee never needs them and they would make energy rise frame to frame).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

G_MM = 9810.0  # gravity, mm/s^2
ROLL_FRACTION = 5.0 / 7.0  # speed at which a centre-struck sphere stops skidding and rolls


@dataclass(frozen=True)
class BodyKind:
    """Mass and cloth friction of one kind of object (a ball, a carrom piece, the striker, a pin)."""

    mass: float  # grams
    slide_decel: float  # mm/s^2 while skidding (mu_slide * g)
    roll_decel: float  # mm/s^2 while rolling (mu_roll * g); equal to slide_decel for sliding discs
    drag: float  # 1/s, speed-proportional cloth drag
    elasticity: float  # pymunk shape elasticity; a pair's restitution is the product of the two
    slides_only: bool = False  # carrom pieces never roll: no sliding-to-rolling transition


@dataclass(frozen=True)
class HoleRule:
    """When a ball whose centre enters a hole or pocket falls in, and what it does when it does not.

    ``drop_fraction``: a ball falls when, while its centre is over the hole, gravity pulls it down by
    this fraction of its radius (it then meets the far lip below its equator and drops). The time
    over the hole is the chord of its path through the hole circle divided by its speed, so a slow
    ball or a central path falls, a fast ball or a grazing path rattles over the lip.
    ``max_speed``: a ball faster than this never falls (it rattles out of a pocket's jaws).
    ``rattle_keep``: fraction of speed a rattling ball keeps; ``rattle_spread_deg``: how far the lip
    may turn it (drawn from the scenario's seeded generator).
    ``bounce_back``: a pocket rattle throws the ball back out of the pocket (pool, carrom); a
    bar-billiards lip rattle lets it run on over the hole.
    """

    drop_fraction: float
    max_speed: float
    rattle_keep: float
    rattle_spread_deg: float
    bounce_back: bool


@dataclass(frozen=True)
class PinRule:
    """Bar-billiards pins (mushrooms): topple above ``topple_speed`` of normal approach speed.

    Below it the pin slides on its base (``slide_decel``) and stays standing; a displacement of
    less than ``moved_mm`` from where it stood is a wobble, so no ``pin_moved`` is reported.
    """

    mass: float
    elasticity: float
    slide_decel: float
    topple_speed: float
    moved_mm: float = 1.0


@dataclass(frozen=True)
class TablePhysics:
    """Everything the world needs beyond the table's geometry."""

    kinds: Mapping[str, BodyKind]
    cushion_elasticity: float  # shape elasticity; restitution = ball elasticity * this
    hole: HoleRule
    cushion_clear: float  # lift (mm above resting) at which a ball passes over a cushion nose
    rail_width: float  # mm of rail top beyond the cushion line on which a flying ball can land
    ride_up_speed: float  # normal speed into a cushion above which a ball climbs the nose
    ride_up_lift: float  # vertical speed gained per mm/s of normal speed above ride_up_speed
    ride_up_keep_normal: float = 0.05  # fraction of the run into the cushion left after climbing it
    ride_up_keep_along: float = 0.9  # fraction of the run along the cushion left after climbing it
    tall_cushions: frozenset[str] = frozenset()  # a flying ball still hits these (a scoreboard)
    pin: PinRule | None = None
    max_shot_speed: float = 12000.0  # the hardest stroke this table sees, mm/s
    segment_radius: float = 12.0  # cushion segments are thick so nothing can slip through them
    stop_speed: float = 1.0  # mm/s: slower than this is at rest

    def kind(self, name: str) -> BodyKind:
        try:
            return self.kinds[name]
        except KeyError:
            raise KeyError(f"no physics for object kind {name!r}; known: {sorted(self.kinds)}") from None


def _ball(mass: float, mu_slide: float, mu_roll: float, drag: float, elasticity: float) -> BodyKind:
    return BodyKind(mass=mass, slide_decel=mu_slide * G_MM, roll_decel=mu_roll * G_MM, drag=drag,
                    elasticity=elasticity)


def _disc(mass: float, mu: float, drag: float, elasticity: float) -> BodyKind:
    return BodyKind(mass=mass, slide_decel=mu * G_MM, roll_decel=mu * G_MM, drag=drag,
                    elasticity=elasticity, slides_only=True)


# Ball-ball restitution is elasticity squared: sqrt(0.94) ~ 0.97 gives 0.94 between two balls.
_BB_BALL = _ball(mass=90.0, mu_slide=0.2, mu_roll=0.016, drag=0.25, elasticity=math.sqrt(0.94))
_POOL_BALL = _ball(mass=170.0, mu_slide=0.2, mu_roll=0.012, drag=0.2, elasticity=math.sqrt(0.95))

PHYSICS: Mapping[str, TablePhysics] = MappingProxyType({
    "bar-billiards": TablePhysics(
        kinds=MappingProxyType({"white": _BB_BALL, "red": _BB_BALL}),
        cushion_elasticity=0.78 / math.sqrt(0.94),
        hole=HoleRule(drop_fraction=0.35, max_speed=1800.0, rattle_keep=0.8, rattle_spread_deg=14.0,
                      bounce_back=False),
        cushion_clear=32.0, rail_width=70.0, ride_up_speed=4000.0, ride_up_lift=0.45,
        tall_cushions=frozenset({"scoreboard"}),
        pin=PinRule(mass=20.0, elasticity=0.55, slide_decel=3500.0, topple_speed=260.0),
        max_shot_speed=9000.0,
    ),
    "pool": TablePhysics(
        kinds=MappingProxyType({"ball": _POOL_BALL}),
        cushion_elasticity=0.80 / math.sqrt(0.95),
        hole=HoleRule(drop_fraction=0.35, max_speed=6000.0, rattle_keep=0.5, rattle_spread_deg=25.0,
                      bounce_back=True),
        cushion_clear=40.0, rail_width=110.0, ride_up_speed=6500.0, ride_up_lift=0.3,
        max_shot_speed=12000.0,
    ),
    "carrom": TablePhysics(
        kinds=MappingProxyType({
            "white": _disc(mass=5.5, mu=0.14, drag=0.5, elasticity=math.sqrt(0.85)),
            "black": _disc(mass=5.5, mu=0.14, drag=0.5, elasticity=math.sqrt(0.85)),
            "queen": _disc(mass=5.5, mu=0.14, drag=0.5, elasticity=math.sqrt(0.85)),
            "striker": _disc(mass=15.0, mu=0.16, drag=0.4, elasticity=math.sqrt(0.85)),
        }),
        cushion_elasticity=0.72 / math.sqrt(0.85),
        hole=HoleRule(drop_fraction=0.25, max_speed=2600.0, rattle_keep=0.5, rattle_spread_deg=30.0,
                      bounce_back=True),
        cushion_clear=22.0, rail_width=75.0, ride_up_speed=3200.0, ride_up_lift=0.55,
        max_shot_speed=8000.0, segment_radius=10.0,
    ),
})


def physics_for(table: str) -> TablePhysics:
    try:
        return PHYSICS[table]
    except KeyError:
        raise KeyError(f"no physics for table {table!r}; known: {sorted(PHYSICS)}") from None


def stopping_distance(kind: BodyKind, v_from: float, v_to: float, *, sliding: bool) -> float:
    """Distance (mm) over which speed falls from ``v_from`` to ``v_to`` under constant decel plus drag.

    Solves ds = v dv / -(a + k v) in closed form; used by the shot planner to pick a stroke speed.
    """
    a = kind.slide_decel if sliding else kind.roll_decel
    k = kind.drag
    if v_from <= v_to:
        return 0.0
    if k < 1e-9:
        return (v_from * v_from - v_to * v_to) / (2.0 * a)
    return (v_from - v_to) / k - (a / (k * k)) * math.log((a + k * v_from) / (a + k * v_to))


def travel_distance(kind: BodyKind, v0: float, v_end: float = 0.0, *, fresh: bool = True) -> float:
    """How far a ball struck (``fresh``: skidding first) at ``v0`` goes before slowing to ``v_end``."""
    if kind.slides_only:
        return stopping_distance(kind, v0, v_end, sliding=True)
    if not fresh:
        return stopping_distance(kind, v0, v_end, sliding=False)
    v_roll = v0 * ROLL_FRACTION
    if v_end >= v_roll:
        return stopping_distance(kind, v0, v_end, sliding=True)
    return stopping_distance(kind, v0, v_roll, sliding=True) + stopping_distance(kind, v_roll, v_end, sliding=False)


def speed_for_distance(kind: BodyKind, distance: float, v_end: float, *, fresh: bool = True) -> float:
    """The start speed that leaves a ball at ``v_end`` after ``distance`` mm (bisection on the model)."""
    lo, hi = v_end, max(v_end, 1.0) * 2.0 + 100.0
    while travel_distance(kind, hi, v_end, fresh=fresh) < distance:
        hi *= 2.0
        if hi > 1e6:
            raise ValueError(f"no speed carries a ball {distance:.0f} mm")
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if travel_distance(kind, mid, v_end, fresh=fresh) < distance:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


__all__ = [
    "G_MM", "ROLL_FRACTION", "BodyKind", "HoleRule", "PinRule", "TablePhysics", "PHYSICS", "physics_for",
    "stopping_distance", "travel_distance", "speed_for_distance",
]
