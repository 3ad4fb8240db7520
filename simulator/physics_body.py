"""The world's objects and raw events, and the collision filters that keep fliers off cushions.

:class:`TableObject` is the world's mutable bookkeeping for one ball, piece or pin: read it (the
truth layer does, for the objects still moving) but change it only through :class:`World`;
frames leave the world as frozen :class:`~tableref.simulator.state.ObjectState`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pymunk

from tableref.simulator.state import ObjectStatus

Point = tuple[float, float]

# collision types (which callbacks see a contact)
T_OBJ, T_PIN, T_CUSHION = 1, 2, 3
# collision categories: a flier (F_AIR) meets only tall cushions
C_GROUND, C_CUSHION, C_TALL, C_PIN, C_AIR = 1, 2, 4, 8, 16
F_GROUND = pymunk.ShapeFilter(categories=C_GROUND, mask=C_GROUND | C_CUSHION | C_TALL | C_PIN)
F_AIR = pymunk.ShapeFilter(categories=C_AIR, mask=C_TALL)
F_PIN = pymunk.ShapeFilter(categories=C_PIN, mask=C_GROUND)
F_CUSHION = pymunk.ShapeFilter(categories=C_CUSHION, mask=C_GROUND)
F_TALL = pymunk.ShapeFilter(categories=C_TALL, mask=C_GROUND | C_AIR)


@dataclass(frozen=True)
class RawEvent:
    """One physical happening, before the truth layer names and debounces it.

    ``kind``: ``contact`` (two objects), ``cushion`` (object, ``where`` = cushion id), ``pot``
    (``where`` = hole id), ``rattle``, ``topple`` (pin; ``data.angle`` degrees), ``pin_moved`` (pin
    standing at ``data.position``), ``left_surface``, ``returned`` (back on the cloth by itself),
    ``fell_off`` (gone for good; ``data.left_t`` when it left the surface). ``lift`` is internal to
    the world (a cushion climbed this step) and never leaves :meth:`World.step`.
    """

    t: float
    kind: str
    objects: tuple[str, ...]
    where: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class TableObject:
    """Mutable per-object bookkeeping of the world (frames leave it as a frozen ObjectState)."""

    id: str
    kind: str
    label: str
    colour: str
    radius: float
    body: pymunk.Body
    shape: pymunk.Circle
    status: ObjectStatus = ObjectStatus.ON_TABLE
    in_space: bool = False
    x: float = 0.0
    y: float = 0.0
    vx: float = 0.0
    vy: float = 0.0
    z: float = 0.0
    vz: float = 0.0
    hole: str | None = None
    slide_until: float = 0.0  # skidding until speed falls to this (0: rolling)
    roll_deg: float = 0.0
    angle: float = 0.0
    is_pin: bool = False
    home: Point = (0.0, 0.0)  # a pin's spot (where it stands now)
    pin_touched: bool = False
    over_hole: str | None = None  # the hole whose circle the centre is in (one verdict per crossing)
    airborne: bool = False
    high: bool = False  # above the cushion nose: cushions are off
    on_rail: bool = False
    left_t: float | None = None  # when it left the playing surface in flight
    t_done: float = 0.0  # friction has been applied up to this time
    dirty: bool = False  # touched something this step: look at it now
    hole_clear: float = 0.0  # it can move this far before it could reach a hole or leave the bed

    @property
    def speed(self) -> float:
        return math.hypot(self.vx, self.vy)
