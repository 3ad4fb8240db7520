"""Venue options for 4-pin bar billiards, and the little geometry the rules need.

The referee must not import ``calibration`` (DESIGN.md's boundary), so the table facts it needs
(hole values, pin spots, the baulk line, the D, the red spot) are venue options whose defaults are
those of ``calibration/tables/bar-billiards.json``; a venue with other measurements passes its
own. Coordinates are table millimetres: x runs from the player's end (the baulk cushion) to the
scoreboard, the baulk area is ``x <= baulk_x`` and the D is the half-disc behind the baulk line.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from tableref.referee.base import RefereeError

Point = tuple[float, float]

HOLE_VALUES: Mapping[str, int] = MappingProxyType({
    "hole-10-left": 10, "hole-20-left": 20, "hole-30": 30, "hole-20-right": 20, "hole-10-right": 10,
    "hole-50-left": 50, "hole-200": 200, "hole-50-right": 50, "hole-100": 100,
})

PINS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "pin-200": MappingProxyType({"hole": "hole-200", "x": 1572.0, "y": 381.0, "colour": "black"}),
    "pin-100": MappingProxyType({"hole": "hole-100", "x": 1252.0, "y": 381.0, "colour": "red"}),
    "pin-50-left": MappingProxyType({"hole": "hole-50-left", "x": 1572.0, "y": 171.0, "colour": "white"}),
    "pin-50-right": MappingProxyType({"hole": "hole-50-right", "x": 1572.0, "y": 591.0, "colour": "white"}),
})

#: Every venue option and its default (``BarBilliardsEngine.default_options``).
DEFAULT_OPTIONS: Mapping[str, Any] = MappingProxyType({
    "players": ("home", "away"),  # the two sides; in a league frame the home and away player(s)
    "whites": 7,  # rule 5(a): seven whites, six allowed
    "hole_values": HOLE_VALUES,
    "red_multiplier": 2,  # 2g: the red scores double
    "pins": PINS,
    "score_wiping_hole": "hole-200",  # 3a(a) and rule 6 note: the 200 pin wipes the score, any colour
    "baulk_x": 305.0,
    "d_centre": (305.0, 381.0),
    "d_radius": 102.0,
    "red_spot": (560.0, 381.0),
    "ball_radius": 23.0,
    "pin_radius": 11.0,
    "centre_tolerance_mm": 15.0,  # how far from the D's centre (or the spot) still counts as on it
    "d_tolerance_mm": 5.0,  # camera slack for a ball placed on the D's line
    "nearest_tie_mm": 5.0,  # 2c(c): balls this close in distance to baulk count as equally near
    "teeter_seconds": 5.0,  # 2f(b)
    "endgame_margin_white": 200,  # 2i
    "endgame_margin_red": 400,
    "endgame_holes": ("hole-100", "hole-200"),
    "same_break_limit": 3,  # 2b(d)
    "auto_same_break": False,  # True: the same holes four break-offs running is called 3b(i) by itself
    "cushions": ("cushion-left", "cushion-top", "cushion-bottom", "scoreboard"),
    "table_length_mm": 2134.0,  # the playing surface, for checking a setup's positions
    "table_width_mm": 762.0,
})


@dataclass(frozen=True)
class PinHome:
    id: str
    hole: str
    x: float
    y: float
    colour: str


@dataclass(frozen=True)
class Venue:
    """The options, checked and typed once (an engine keeps one; the state never holds options)."""

    players: tuple[str, str]
    whites: int
    hole_values: Mapping[str, int]
    red_multiplier: int
    pins: tuple[PinHome, ...]
    score_wiping_hole: str
    baulk_x: float
    d_centre: Point
    d_radius: float
    red_spot: Point
    ball_radius: float
    pin_radius: float
    centre_tolerance_mm: float
    d_tolerance_mm: float
    nearest_tie_mm: float
    teeter_seconds: float
    endgame_margin_white: int
    endgame_margin_red: int
    endgame_holes: tuple[str, ...]
    same_break_limit: int
    auto_same_break: bool
    cushions: tuple[str, ...]
    length: float = 2134.0
    width: float = 762.0

    # -- scoring -----------------------------------------------------------------------------
    def value(self, hole: str, colour: str) -> int:
        """2g: a white scores the hole's value, the red double."""
        base = self.hole_values[hole]
        return base * self.red_multiplier if colour == "red" else base

    def pin(self, pin_id: str) -> PinHome:
        for p in self.pins:
            if p.id == pin_id:
                return p
        raise RefereeError(f"{pin_id!r} is not a pin of this table; pins: {', '.join(p.id for p in self.pins)}")

    def check_hole(self, hole: str | None) -> str:
        if hole is None or hole not in self.hole_values:
            raise RefereeError(f"a pot needs 'where' naming a hole, got {hole!r}; holes: {', '.join(self.hole_values)}")
        return hole

    # -- geometry ----------------------------------------------------------------------------
    def in_d(self, p: Point) -> bool:
        """A ball placed in the D: its centre behind the baulk line and inside the half-disc."""
        cx, cy = self.d_centre
        slack = self.d_tolerance_mm
        return p[0] <= self.baulk_x + slack and math.hypot(p[0] - cx, p[1] - cy) <= self.d_radius + slack

    def at_centre(self, p: Point) -> bool:
        return math.dist(p, self.d_centre) <= self.centre_tolerance_mm

    def on_red_spot(self, p: Point) -> bool:
        return math.dist(p, self.red_spot) <= self.centre_tolerance_mm

    def in_baulk(self, p: Point) -> bool:
        """3b(f): a ball at rest touching the cloth of the baulk area (an overhang is in play)."""
        return p[0] <= self.baulk_x

    def blocks_pin_spot(self, p: Point, pin: PinHome) -> bool:
        """2h(a): a ball so close to a pin's spot that the pin cannot stand there without moving it."""
        return math.dist(p, (pin.x, pin.y)) < self.ball_radius + self.pin_radius

    def at_pin_spot(self, p: Point, pin: PinHome) -> bool:
        return math.dist(p, (pin.x, pin.y)) <= self.centre_tolerance_mm

    def on_surface(self, p: Point) -> bool:
        """The point lies on the playing surface (``0 <= x <= length``, ``0 <= y <= width``)."""
        return 0.0 <= p[0] <= self.length and 0.0 <= p[1] <= self.width


def _point(name: str, value: Any) -> Point:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise ValueError(f"option {name} must be [x_mm, y_mm], got {value!r}")
    return (float(value[0]), float(value[1]))


def _number(name: str, value: Any, *, positive: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or (positive and value <= 0):
        raise ValueError(f"option {name} must be a positive number, got {value!r}")
    return float(value)


def _int(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"option {name} must be a whole number >= {low}, got {value!r}")
    return value


def venue_from_options(options: Mapping[str, Any]) -> Venue:
    """Check every option and build the :class:`Venue`; ``ValueError`` says what is accepted."""
    players = options["players"]
    if (isinstance(players, str) or not isinstance(players, Sequence) or len(players) != 2
            or len({str(p) for p in players}) != 2 or not all(isinstance(p, str) and p for p in players)):
        raise ValueError(f"option players must name two different sides, such as ['home', 'away'], got {players!r}")
    values = options["hole_values"]
    if not isinstance(values, Mapping) or set(values) != set(HOLE_VALUES):
        raise ValueError(f"option hole_values must give a value for each hole: {', '.join(HOLE_VALUES)}")
    hole_values = {str(k): _int(f"hole_values[{k}]", v, 0) for k, v in values.items()}
    raw_pins = options["pins"]
    if not isinstance(raw_pins, Mapping) or not raw_pins:
        raise ValueError("option pins must map pin ids to {hole, x, y, colour}")
    pins: list[PinHome] = []
    for pid, spec in raw_pins.items():
        if not isinstance(spec, Mapping) or spec.get("hole") not in hole_values:
            raise ValueError(f"option pins[{pid}] must give the hole it guards (one of {', '.join(hole_values)})")
        pins.append(PinHome(str(pid), str(spec["hole"]), _number(f"pins[{pid}].x", spec.get("x")),
                            _number(f"pins[{pid}].y", spec.get("y")), str(spec.get("colour", "white"))))
    wiping = options["score_wiping_hole"]
    if wiping not in hole_values:
        raise ValueError(f"option score_wiping_hole must be a hole id, got {wiping!r}")
    endgame_holes = tuple(str(h) for h in options["endgame_holes"])
    if not endgame_holes or any(h not in hole_values for h in endgame_holes):
        raise ValueError(f"option endgame_holes must list hole ids, got {options['endgame_holes']!r}")
    cushions = tuple(str(c) for c in options["cushions"])
    if "scoreboard" not in cushions:
        raise ValueError("option cushions must include 'scoreboard' (the edge the endgame may not touch)")
    return Venue(
        players=(str(players[0]), str(players[1])),
        whites=_int("whites", options["whites"], 1),
        hole_values=MappingProxyType(hole_values),
        red_multiplier=_int("red_multiplier", options["red_multiplier"], 1),
        pins=tuple(pins),
        score_wiping_hole=str(wiping),
        baulk_x=_number("baulk_x", options["baulk_x"]),
        d_centre=_point("d_centre", options["d_centre"]),
        d_radius=_number("d_radius", options["d_radius"]),
        red_spot=_point("red_spot", options["red_spot"]),
        ball_radius=_number("ball_radius", options["ball_radius"]),
        pin_radius=_number("pin_radius", options["pin_radius"]),
        centre_tolerance_mm=_number("centre_tolerance_mm", options["centre_tolerance_mm"]),
        d_tolerance_mm=_number("d_tolerance_mm", options["d_tolerance_mm"], positive=False),
        nearest_tie_mm=_number("nearest_tie_mm", options["nearest_tie_mm"], positive=False),
        teeter_seconds=_number("teeter_seconds", options["teeter_seconds"]),
        endgame_margin_white=_int("endgame_margin_white", options["endgame_margin_white"], 0),
        endgame_margin_red=_int("endgame_margin_red", options["endgame_margin_red"], 0),
        endgame_holes=endgame_holes,
        same_break_limit=_int("same_break_limit", options["same_break_limit"], 1),
        auto_same_break=bool(options["auto_same_break"]),
        cushions=cushions,
        length=_number("table_length_mm", options["table_length_mm"]),
        width=_number("table_width_mm", options["table_width_mm"]),
    )


def ball_colour(obj: str) -> str:
    """``red`` or ``white`` from a ball id (``red``, ``white-3``); the camera cannot tell whites apart."""
    if obj == "red" or obj.startswith("red-"):
        return "red"
    if obj == "white" or obj.startswith("white-"):
        return "white"
    raise RefereeError(f"{obj!r} is not a bar-billiards ball; balls are 'red' and 'white-N'")


def is_ball(obj: str) -> bool:
    return obj == "red" or obj.startswith("red-") or obj == "white" or obj.startswith("white-")


def is_pin(obj: str) -> bool:
    return obj.startswith("pin-")


def as_point(value: Any, what: str) -> Point | None:
    """A position from event data (``[x, y]``), ``None`` when absent; malformed ones are refused."""
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, Sequence) or len(value) != 2:
        raise RefereeError(f"{what} must be [x_mm, y_mm], got {value!r}")
    try:
        return (float(value[0]), float(value[1]))
    except (TypeError, ValueError):
        raise RefereeError(f"{what} must be [x_mm, y_mm] numbers, got {value!r}") from None
