"""Carrom board geometry for the referee: where the striker may stand and what lies behind a baseline.

The referee must not import ``calibration`` (DESIGN.md's boundary), so the few measurements it
needs travel as venue options, with the International Carrom Federation board of
``calibration/tables/carrom.json`` as the default. Everything is table millimetres, origin at the
top-left corner of the playing surface, ``y`` growing towards the south seat.

Why a tolerance: a camera measures a striker's centre to a few millimetres, while a referee at
the table gives the player the benefit of the doubt on a line call. Every verdict here leans the
player's way by ``placement_tolerance_mm``: a foul is called only when the striker is clearly
out, never on a measurement that might be noise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any

SEATS: tuple[str, ...] = ("south", "west", "north", "east")  # clockwise, seen from above with north on top

#: The ICF board (calibration/tables/carrom.json): each seat's front and back line end points.
DEFAULT_BASELINES: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "south": MappingProxyType({"front": ((135.0, 606.2), (605.0, 606.2)),
                               "back": ((135.0, 638.0), (605.0, 638.0)), "circle_radius": 15.9}),
    "east": MappingProxyType({"front": ((606.2, 135.0), (606.2, 605.0)),
                              "back": ((638.0, 135.0), (638.0, 605.0)), "circle_radius": 15.9}),
    "north": MappingProxyType({"front": ((135.0, 133.8), (605.0, 133.8)),
                               "back": ((135.0, 102.0), (605.0, 102.0)), "circle_radius": 15.9}),
    "west": MappingProxyType({"front": ((133.8, 135.0), (133.8, 605.0)),
                              "back": ((102.0, 135.0), (102.0, 605.0)), "circle_radius": 15.9}),
})

DEFAULT_POCKETS: tuple[str, ...] = ("pocket-top-left", "pocket-top-right", "pocket-bottom-right", "pocket-bottom-left")


class Placement(StrEnum):
    """The verdict on where the striker stood when it was struck."""

    ON_LINES = "on_lines"  # within the baseline, touching both lines
    ON_CIRCLE = "on_circle"  # covering an end circle
    CUT_THE_MOON = "cut_the_moon"  # partly over an end circle
    OFF_LINES = "off_lines"  # not touching both lines, or outside the baseline altogether
    UNKNOWN = "unknown"  # no position, or no baseline for the seat


Point = tuple[float, float]


@dataclass(frozen=True)
class Baseline:
    """One seat's baseline: a front and a back line of equal length ending in two circles."""

    front_a: Point
    front_b: Point
    back_a: Point
    circle_radius: float

    @property
    def length(self) -> float:
        return math.dist(self.front_a, self.front_b)

    @property
    def along(self) -> Point:
        """Unit vector from the front line's first end to its second."""
        length = self.length
        return ((self.front_b[0] - self.front_a[0]) / length, (self.front_b[1] - self.front_a[1]) / length)

    @property
    def behind(self) -> Point:
        """Unit normal of the front line pointing towards the back line (towards the player)."""
        ux, uy = self.along
        nx, ny = -uy, ux
        dx, dy = self.back_a[0] - self.front_a[0], self.back_a[1] - self.front_a[1]
        return (nx, ny) if nx * dx + ny * dy >= 0 else (-nx, -ny)

    @property
    def gap(self) -> float:
        """Distance between the front and the back line."""
        nx, ny = self.behind
        return (self.back_a[0] - self.front_a[0]) * nx + (self.back_a[1] - self.front_a[1]) * ny

    def coords(self, p: Sequence[float]) -> Point:
        """(distance along the front line from its first end, distance behind the front line)."""
        dx, dy = p[0] - self.front_a[0], p[1] - self.front_a[1]
        ux, uy = self.along
        nx, ny = self.behind
        return (dx * ux + dy * uy, dx * nx + dy * ny)

    def circle_centres(self) -> tuple[Point, Point]:
        nx, ny = self.behind
        half = self.gap / 2
        return ((self.front_a[0] + nx * half, self.front_a[1] + ny * half),
                (self.front_b[0] + nx * half, self.front_b[1] + ny * half))


def _point(value: Any, what: str) -> Point:
    if (not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2
            or not all(isinstance(v, int | float) for v in value)):
        raise ValueError(f"{what} must be a point [x_mm, y_mm], got {value!r}")
    return (float(value[0]), float(value[1]))


def _baseline(seat: str, spec: Any) -> Baseline:
    if not isinstance(spec, Mapping) or not {"front", "back"} <= set(spec):
        raise ValueError(f"baselines.{seat} needs 'front' and 'back' ([[x, y], [x, y]] each) and 'circle_radius'")
    front, back = spec["front"], spec["back"]
    if len(front) != 2 or len(back) != 2:
        raise ValueError(f"baselines.{seat}: 'front' and 'back' are two end points each")
    radius = spec.get("circle_radius", 15.9)
    if not isinstance(radius, int | float) or radius <= 0:
        raise ValueError(f"baselines.{seat}.circle_radius must be a positive number of mm, got {radius!r}")
    line = Baseline(_point(front[0], f"baselines.{seat}.front"), _point(front[1], f"baselines.{seat}.front"),
                    _point(back[0], f"baselines.{seat}.back"), float(radius))
    if line.length <= 0 or line.gap <= 0:
        raise ValueError(f"baselines.{seat}: the front line needs a length and the back line must lie apart from it")
    return line


def _positive(options: Mapping[str, Any], name: str, allow_zero: bool = False) -> float:
    value = options[name]
    if not isinstance(value, int | float) or isinstance(value, bool) or value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"option {name} must be a {'non-negative' if allow_zero else 'positive'} number, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class Geometry:
    """The measurements the referee judges with, built once from the venue options."""

    baselines: Mapping[str, Baseline]
    pockets: tuple[str, ...]
    centre: Point
    centre_circle_radius: float
    piece_radius: float
    striker_radius: float
    tolerance: float
    break_disturb: float
    size: float = 740.0  # the playing surface is size x size mm

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Geometry:
        raw = options["baselines"]
        if not isinstance(raw, Mapping):
            raise ValueError("option baselines must map seats (south, west, north, east) to baseline geometry")
        unknown = set(raw) - set(SEATS)
        if unknown:
            raise ValueError(f"option baselines names unknown seat(s) {sorted(unknown)}; accepted: {', '.join(SEATS)}")
        pockets = options["pockets"]
        if isinstance(pockets, str) or not isinstance(pockets, Sequence) or not all(isinstance(p, str) for p in pockets):
            raise ValueError(f"option pockets must be a list of pocket ids such as {DEFAULT_POCKETS[0]!r}")
        return cls(
            baselines=MappingProxyType({seat: _baseline(seat, spec) for seat, spec in raw.items()}),
            pockets=tuple(pockets),
            centre=_point(options["centre"], "option centre"),
            centre_circle_radius=_positive(options, "centre_circle_radius_mm"),
            piece_radius=_positive(options, "piece_radius_mm"),
            striker_radius=_positive(options, "striker_radius_mm"),
            tolerance=_positive(options, "placement_tolerance_mm", allow_zero=True),
            break_disturb=_positive(options, "break_disturb_mm"),
            size=_positive(options, "board_size_mm"),
        )

    # -- the striker's placement (Striking.1-3) ---------------------------------------------------
    def placement(self, seat: str, position: Sequence[float] | None) -> Placement:
        """Judge the striker's position for ``seat``'s baseline, leaning the player's way by the tolerance.

        A striker covering an end circle entirely stands on the circle (the ICF reading of "on one
        of the two circles": it is larger than the circle). Overlapping a circle only partly is
        cutting the moon. Clear of both circles it must lie between them and touch both lines.
        """
        line = self.baselines.get(seat)
        if line is None or position is None:
            return Placement.UNKNOWN
        rs, rc, tol = self.striker_radius, line.circle_radius, self.tolerance
        d = min(math.dist(position, c) for c in line.circle_centres())
        if d <= rs - rc + tol:
            return Placement.ON_CIRCLE
        if d < rs + rc - tol:
            return Placement.CUT_THE_MOON
        along, behind = line.coords(position)
        within = -tol <= along <= line.length + tol
        touches_front = abs(behind) <= rs + tol
        touches_back = abs(behind - line.gap) <= rs + tol
        return Placement.ON_LINES if within and touches_front and touches_back else Placement.OFF_LINES

    def on_or_behind_front_line(self, seat: str, position: Sequence[float]) -> bool:
        """Whether a piece lies on or behind ``seat``'s front line (Striking.5), clearly so by the tolerance."""
        line = self.baselines.get(seat)
        if line is None:
            return False
        _, behind = line.coords(position)
        return behind >= -self.piece_radius + self.tolerance

    # -- where returned pieces go (Basic.2) -------------------------------------------------------
    def away_from(self, seat: str) -> Point:
        """Unit vector pointing from ``seat`` across the board (the far side of the centre)."""
        line = self.baselines.get(seat)
        if line is not None:
            bx, by = line.behind
            return (-bx, -by)
        return {"south": (0.0, -1.0), "north": (0.0, 1.0), "east": (-1.0, 0.0), "west": (1.0, 0.0)}[seat]

    def centre_spots(self, seat: str, count: int, positions: Mapping[str, Sequence[float]]) -> list[Point]:
        """Spots for ``count`` pieces that left the board: the centre if free, else touching the piece
        at the centre on the far side from the player taking the turn, each further one touching the last."""
        cx, cy = self.centre
        occupied = [p for k, p in positions.items() if not k.startswith("striker")
                    and math.dist(p, self.centre) < 2 * self.piece_radius]
        ax, ay = self.away_from(seat)
        step = 2 * self.piece_radius
        if occupied:
            ox, oy = min(occupied, key=lambda p: math.dist(p, self.centre))
            start: Point = (ox + ax * step, oy + ay * step)
        else:
            start = (cx, cy)
        return [(round(start[0] + ax * step * k, 1), round(start[1] + ay * step * k, 1)) for k in range(count)]

    def on_board(self, p: Sequence[float]) -> bool:
        """The point lies on the playing surface (a setup's positions are checked with it)."""
        return 0.0 <= p[0] <= self.size and 0.0 <= p[1] <= self.size

    def striker_under_piece(self, positions: Mapping[str, Sequence[float]]) -> bool:
        """Whether the striker came to rest under a piece (Other.3): centres closer than the striker's radius."""
        striker = positions.get("striker")
        if striker is None:
            return False
        return any(math.dist(striker, p) < self.striker_radius - self.tolerance
                   for k, p in positions.items() if k != "striker")

    def moved(self, before: Mapping[str, Sequence[float]], after: Mapping[str, Sequence[float]]) -> bool:
        """Whether any piece other than the striker moved more than ``break_disturb_mm`` (Basic.1)."""
        return any(k in after and math.dist(p, after[k]) > self.break_disturb
                   for k, p in before.items() if not k.startswith("striker"))


DEFAULT_GEOMETRY_OPTIONS: Mapping[str, Any] = MappingProxyType({
    "baselines": DEFAULT_BASELINES,
    "pockets": DEFAULT_POCKETS,
    "centre": (370.0, 370.0),
    "centre_circle_radius_mm": 85.0,
    "piece_radius_mm": 15.5,
    "striker_radius_mm": 20.6,
    "placement_tolerance_mm": 2.0,
    "break_disturb_mm": 3.0,
    "board_size_mm": 740.0,
})
