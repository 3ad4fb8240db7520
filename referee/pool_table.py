"""Pool-table facts the pool referees need: ball ids, the kitchen, the spots, blocked spots.

The referee must not import ``calibration`` (DESIGN.md's boundary), so the few numbers it needs
travel as venue options with the defaults of ``calibration/tables/pool.json``: a 2540 x 1270 mm
playing surface, x along the length, the head cushion at x = 0, the head string at x = 635 (the
kitchen is x <= 635), head, centre and foot spots on the long string y = 635. A venue with a
7-ft bar box passes its own numbers (``--option head_string_x_mm=...``).

Why tolerances exist at all: the camera measures a ball's centre to a few millimetres. A real
referee gives the shooter the benefit of the doubt on a close kitchen call, and calls a spot
"blocked" only when a ball visibly sits on it; the tolerances say how much doubt is given.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from tableref.referee.base import RefereeError

Point = tuple[float, float]

#: Ball ids of DESIGN.md's vocabulary: ``ball-0`` (the cue or zero ball) to ``ball-15``.
BALLS: tuple[int, ...] = tuple(range(16))
_BALL_RE = re.compile(r"^ball-(\d{1,2})$")

POCKETS: tuple[str, ...] = (
    "pocket-top-left", "pocket-top-middle", "pocket-top-right",
    "pocket-bottom-left", "pocket-bottom-middle", "pocket-bottom-right",
)

#: Venue options every pool engine shares (merged into each game's ``default_options``).
TABLE_OPTIONS: Mapping[str, Any] = MappingProxyType({
    "table_length_mm": 2540.0,
    "table_width_mm": 1270.0,
    "head_string_x_mm": 635.0,
    "head_spot_mm": (635.0, 635.0),
    "centre_spot_mm": (1270.0, 635.0),
    "foot_spot_mm": (1905.0, 635.0),
    "ball_radius_mm": 28.575,
    "pockets": POCKETS,
    # A cue ball whose centre is this far past the head string still counts as in the kitchen
    # (camera error: the shooter gets the benefit of the doubt).
    "kitchen_tolerance_mm": 5.0,
    # A ball displaced more than this between shot_start and at_rest moved, even with no event.
    "moved_tolerance_mm": 4.0,
})


def ball_id(number: int) -> str:
    return f"ball-{number}"


def ball_number(obj: str) -> int:
    """``ball-7`` -> 7; anything else is a :class:`RefereeError` saying what is accepted."""
    match = _BALL_RE.match(obj) if isinstance(obj, str) else None
    if match is None or int(match.group(1)) not in BALLS:
        raise RefereeError(f"{obj!r} is not a pool ball; accepted: ball-0 (the cue or zero ball) to ball-15")
    return int(match.group(1))


def _point(value: Any, name: str) -> Point:
    try:
        x, y = value
        return float(x), float(y)
    except (TypeError, ValueError):
        raise ValueError(f"option {name} must be a point [x_mm, y_mm], got {value!r}") from None


def _positive(options: Mapping[str, Any], name: str) -> float:
    try:
        value = float(options[name])
    except (TypeError, ValueError):
        raise ValueError(f"option {name} must be a number of millimetres, got {options[name]!r}") from None
    if value < 0:
        raise ValueError(f"option {name} must be >= 0, got {value}")
    return value


@dataclass(frozen=True)
class PoolGeometry:
    """The table as the referee sees it, built from venue options (see :data:`TABLE_OPTIONS`)."""

    length: float
    width: float
    head_string_x: float
    spots: Mapping[str, Point]
    ball_radius: float
    pockets: tuple[str, ...]
    kitchen_tolerance: float
    moved_tolerance: float

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> PoolGeometry:
        pockets = options["pockets"]
        if isinstance(pockets, str) or not pockets or not all(isinstance(p, str) for p in pockets):
            raise ValueError(f"option pockets must be a list of pocket ids such as {POCKETS[0]!r}")
        return cls(
            length=_positive(options, "table_length_mm"),
            width=_positive(options, "table_width_mm"),
            head_string_x=_positive(options, "head_string_x_mm"),
            spots=MappingProxyType({
                "head": _point(options["head_spot_mm"], "head_spot_mm"),
                "centre": _point(options["centre_spot_mm"], "centre_spot_mm"),
                "foot": _point(options["foot_spot_mm"], "foot_spot_mm"),
            }),
            ball_radius=_positive(options, "ball_radius_mm"),
            pockets=tuple(pockets),
            kitchen_tolerance=_positive(options, "kitchen_tolerance_mm"),
            moved_tolerance=_positive(options, "moved_tolerance_mm"),
        )

    def in_kitchen(self, position: Point) -> bool:
        """Behind the head string (the kitchen is the head end, x <= head string)."""
        return position[0] <= self.head_string_x + self.kitchen_tolerance

    def check_pocket(self, pocket: str | None) -> str:
        if pocket not in self.pockets:
            raise RefereeError(f"unknown pocket {pocket!r}; accepted: {', '.join(self.pockets)}")
        return pocket

    def blocked(self, point: Point, positions: Mapping[str, Point]) -> bool:
        """A ball sits on ``point``: its centre is closer than two radii (it would touch a ball placed there)."""
        reach = 2.0 * self.ball_radius - 0.5
        return any(math.dist(point, p) < reach for p in positions.values())

    def place_on_string(self, spot: str, positions: Mapping[str, Point], toward: int) -> tuple[Point, bool]:
        """Where a ball spotted on ``spot`` goes: the spot if free, else the nearest free point on the long
        string from the spot toward the head (``toward=-1``) or foot (``+1``) cushion. Returns the point and
        whether it is the spot itself."""
        x, y = self.spots[spot]
        step = 2.0 * self.ball_radius
        limit_lo, limit_hi = self.ball_radius, self.length - self.ball_radius
        k = 0
        while True:
            px = x + toward * k * step
            if not limit_lo <= px <= limit_hi:
                return (x, y), False  # the whole string is taken: leave it to the referee at the spot
            if not self.blocked((px, y), positions):
                return (px, y), k == 0
            k += 1


def leading_ball(positions: Mapping[str, Point], exclude: str) -> str | None:
    """The rack's leading (apex) ball: the object ball nearest the kitchen, i.e. with the smallest x.

    This holds whether the rack's apex sits on the head spot (the Up and Down rule book) or on the
    foot spot (most venues), because the apex always points at the breaker.
    """
    balls = {k: v for k, v in positions.items() if k != exclude and _BALL_RE.match(k)}
    if not balls:
        return None
    return min(balls, key=lambda k: (balls[k][0], k))


def as_point(value: Any) -> Point | None:
    """A JSON ``[x, y]`` into a point; ``None`` when it is missing or not a pair of numbers."""
    try:
        x, y = value
        return float(x), float(y)
    except (TypeError, ValueError):
        return None


def positions_of(data: Mapping[str, Any]) -> dict[str, Point]:
    """The ``positions`` of a shot_start or at_rest event, ball ids only, bad entries dropped."""
    raw = data.get("positions") or {}
    out: dict[str, Point] = {}
    if isinstance(raw, Mapping):
        for key, value in raw.items():
            point = as_point(value)
            if point is not None and _BALL_RE.match(str(key)):
                out[str(key)] = point
    return out
