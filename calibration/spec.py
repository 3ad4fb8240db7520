"""Table geometry as data: every table tableref knows, in millimetres of its playing surface.

Coordinates: the playing surface is the rectangle ``0 <= x <= length_mm``, ``0 <= y <= width_mm``
(x along the long side, y across it), seen from above with the player's end of a bar-billiards
table, the head of a pool table and the south player of a carrom board or card table at the
low-``x`` end (bar billiards, pool) or at the bottom, high ``y`` (carrom, cards). Every stage uses
these millimetres; the camera homography maps them to pixels.

The numbers live in JSON files beside this module (``tables/*.json``) with their sources, so a
venue can override any of them (hole values and positions included) with its own JSON file
instead of editing code: ``load_table("bar-billiards", venue="my-venue.json")``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from tableref.catalog import TABLES
from tableref.errors import UserError

Point = tuple[float, float]


@dataclass(frozen=True)
class Cushion:
    """A straight cushion nose (or the scoreboard edge) from ``a`` to ``b``; ``id`` as in events."""

    id: str
    a: Point
    b: Point


@dataclass(frozen=True)
class Hole:
    """A hole (bar billiards) or pocket (pool, carrom): a ball whose centre drops inside ``radius`` falls."""

    id: str
    x: float
    y: float
    radius: float
    value: int = 0


@dataclass(frozen=True)
class PinSpec:
    """A bar-billiards pin, named by the hole it guards; ``colour`` may be swapped per frame."""

    id: str
    hole: str
    x: float
    y: float
    radius: float
    height: float
    colour: str


@dataclass(frozen=True)
class Baseline:
    """A carrom player's pair of baselines: the strip between them, ending in two end circles."""

    id: str
    seat: str
    front: tuple[Point, Point]
    back: tuple[Point, Point]
    circle_radius: float


@dataclass(frozen=True)
class Seat:
    """A card-table seat: where the player sits and where their played card lands on the board."""

    id: str
    team: str
    position: Point
    play_spot: Point


@dataclass(frozen=True)
class TableSpec:
    """One table's geometry; see the module docstring for the coordinate frame."""

    name: str
    length_mm: float
    width_mm: float
    cloth_colour: tuple[int, int, int]
    object_radius: Mapping[str, float]
    cushions: tuple[Cushion, ...] = ()
    holes: tuple[Hole, ...] = ()
    pins: tuple[PinSpec, ...] = ()
    spots: Mapping[str, Point] = field(default_factory=dict)
    baselines: tuple[Baseline, ...] = ()
    seats: tuple[Seat, ...] = ()
    d_centre: Point | None = None
    d_radius: float | None = None
    baulk_x: float | None = None
    centre_circle_radius: float | None = None
    board: tuple[Point, Point] | None = None
    source: str = ""

    # -- derived geometry --------------------------------------------------------------------
    @property
    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Playing-surface corners, clockwise from (0, 0) as seen from above."""
        L, W = self.length_mm, self.width_mm
        return ((0.0, 0.0), (L, 0.0), (L, W), (0.0, W))

    def hole(self, hole_id: str) -> Hole:
        for h in self.holes:
            if h.id == hole_id:
                return h
        raise KeyError(f"{self.name} has no hole {hole_id!r}; it has {[h.id for h in self.holes]}")

    def hole_values(self) -> dict[str, int]:
        return {h.id: h.value for h in self.holes}

    def in_d(self, x: float, y: float, radius: float = 0.0) -> bool:
        """True when a ball of ``radius`` centred at (x, y) touches the bar-billiards D."""
        if self.d_centre is None or self.d_radius is None or self.baulk_x is None:
            return False
        cx, cy = self.d_centre
        return x <= self.baulk_x + radius and math.hypot(x - cx, y - cy) <= self.d_radius + radius

    def in_baulk(self, x: float, radius: float = 0.0) -> bool:
        """True when a ball touches the baulk area (behind the baulk line, D included)."""
        return self.baulk_x is not None and x - radius <= self.baulk_x

    def nose(self, cushion: Cushion) -> tuple[float, float, float]:
        """``cushion``'s nose line as (nx, ny, c): a unit normal pointing onto the table and an
        offset, so that ``nx*x + ny*y - c`` is a point's distance from the nose, positive on the
        cloth's side."""
        (x0, y0), (x1, y1) = cushion.a, cushion.b
        nx, ny = y1 - y0, -(x1 - x0)
        n = math.hypot(nx, ny) or 1.0
        nx, ny = nx / n, ny / n
        c = nx * x0 + ny * y0
        if nx * self.length_mm / 2 + ny * self.width_mm / 2 - c <= 0:
            nx, ny, c = -nx, -ny, -c
        return nx, ny, c

    def on_surface(self, x: float, y: float, margin: float = 0.0) -> bool:
        """True when (x, y) lies over the playing surface grown by ``margin`` mm on every side."""
        return -margin <= x <= self.length_mm + margin and -margin <= y <= self.width_mm + margin

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)


def _pt(v: Any) -> Point:
    return (float(v[0]), float(v[1]))


def spec_from_dict(d: Mapping[str, Any]) -> TableSpec:
    """Build a :class:`TableSpec` from its JSON form (raises ``UserError`` naming a bad field)."""
    try:
        return TableSpec(
            name=str(d["name"]),
            length_mm=float(d["length_mm"]),
            width_mm=float(d["width_mm"]),
            cloth_colour=tuple(int(c) for c in d.get("cloth_colour", (40, 110, 60))),  # type: ignore[arg-type]
            object_radius={str(k): float(v) for k, v in d["object_radius"].items()},
            cushions=tuple(Cushion(c["id"], _pt(c["a"]), _pt(c["b"])) for c in d.get("cushions", ())),
            holes=tuple(
                Hole(h["id"], float(h["x"]), float(h["y"]), float(h["radius"]), int(h.get("value", 0)))
                for h in d.get("holes", ())
            ),
            pins=tuple(
                PinSpec(p["id"], p["hole"], float(p["x"]), float(p["y"]), float(p["radius"]),
                        float(p["height"]), str(p["colour"]))
                for p in d.get("pins", ())
            ),
            spots={k: _pt(v) for k, v in d.get("spots", {}).items()},
            baselines=tuple(
                Baseline(b["id"], b["seat"], (_pt(b["front"][0]), _pt(b["front"][1])),
                         (_pt(b["back"][0]), _pt(b["back"][1])), float(b["circle_radius"]))
                for b in d.get("baselines", ())
            ),
            seats=tuple(
                Seat(s["id"], s["team"], _pt(s["position"]), _pt(s["play_spot"])) for s in d.get("seats", ())
            ),
            d_centre=_pt(d["d_centre"]) if d.get("d_centre") is not None else None,
            d_radius=float(d["d_radius"]) if d.get("d_radius") is not None else None,
            baulk_x=float(d["baulk_x"]) if d.get("baulk_x") is not None else None,
            centre_circle_radius=(
                float(d["centre_circle_radius"]) if d.get("centre_circle_radius") is not None else None
            ),
            board=(_pt(d["board"][0]), _pt(d["board"][1])) if d.get("board") is not None else None,
            source=str(d.get("source", "")),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise UserError(f"table spec {d.get('name', '?')!r} is malformed ({exc!r}); see calibration/tables/*.json") from None


def _merge(base: dict[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Venue override: top-level keys replace; ``holes``/``pins`` entries merge by ``id``."""
    out = dict(base)
    for key, value in override.items():
        if key in ("holes", "pins") and isinstance(value, list):
            by_id = {item["id"]: dict(item) for item in base.get(key, [])}
            for item in value:
                by_id.setdefault(item["id"], {}).update(item)
            out[key] = list(by_id.values())
        else:
            out[key] = value
    return out


def load_table_dict(name: str) -> dict[str, Any]:
    if name not in TABLES:
        raise UserError(f"unknown table {name!r}; accepted: {', '.join(TABLES)}")
    text = resources.files("tableref.calibration.tables").joinpath(f"{name}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def load_table(name: str, venue: str | Path | Mapping[str, Any] | None = None) -> TableSpec:
    """The spec of table ``name``, with a venue's overrides (a JSON file or a mapping) applied."""
    data = load_table_dict(name)
    if venue is not None:
        if isinstance(venue, Mapping):
            override = venue
        else:
            try:
                override = json.loads(Path(venue).read_text("utf-8"))
            except OSError as exc:
                raise UserError(f"cannot read the venue table file {str(venue)!r}: {exc.strerror}") from None
            except json.JSONDecodeError as exc:
                raise UserError(f"venue table file {str(venue)!r} is not valid JSON: {exc.msg}") from None
        data = _merge(data, override)
    return spec_from_dict(data)
