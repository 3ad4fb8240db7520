"""Shot planning: where to aim and how hard, from the same model the world runs.

Between contacts a ball travels in a straight line (cloth friction only ever slows it), so a
scenario can plan a shot with plane geometry: the ghost-ball point for a pot, the tangent line a
cue ball leaves along after a cut, a mirror point for a bank. Speeds come from the closed-form
stopping distance of :mod:`simulator.physics_params`. Scripts still check what the physics did,
because the planned line ignores the odd rattle or kiss; see :func:`simulator.scenarios_common.attempts`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from tableref.simulator.physics_params import BodyKind, speed_for_distance

Point = tuple[float, float]


def sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def add(a: Point, b: Point, scale: float = 1.0) -> Point:
    return (a[0] + b[0] * scale, a[1] + b[1] * scale)


def norm(v: Point) -> float:
    return math.hypot(v[0], v[1])


def unit(v: Point) -> Point:
    n = norm(v)
    if n == 0.0:
        raise ValueError("no direction between two equal points")
    return (v[0] / n, v[1] / n)


def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def heading(a: Point, b: Point) -> float:
    """Angle (radians) of the direction from ``a`` to ``b``."""
    return math.atan2(b[1] - a[1], b[0] - a[0])


def angle_between(a: Point, b: Point) -> float:
    """Unsigned angle (radians, 0..pi) between two directions."""
    return abs(math.atan2(a[0] * b[1] - a[1] * b[0], a[0] * b[0] + a[1] * b[1]))


def rotate(v: Point, angle: float) -> Point:
    c, s = math.cos(angle), math.sin(angle)
    return (v[0] * c - v[1] * s, v[0] * s + v[1] * c)


def from_angle(angle: float, length: float = 1.0) -> Point:
    return (length * math.cos(angle), length * math.sin(angle))


def ghost(obj: Point, target: Point, contact: float) -> Point:
    """Where the striking centre must be at contact to send ``obj`` straight at ``target``."""
    return add(obj, unit(sub(obj, target)), contact)


def segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to the segment ``a``-``b``."""
    ab = sub(b, a)
    L2 = ab[0] * ab[0] + ab[1] * ab[1]
    if L2 == 0.0:
        return dist(p, a)
    u = max(0.0, min(1.0, ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / L2))
    return dist(p, (a[0] + ab[0] * u, a[1] + ab[1] * u))


def clear_of(p: Point, corridors: Iterable[tuple[Point, Point, float]], others: Iterable[tuple[Point, float]]) -> bool:
    """True when ``p`` is at least the given widths away from every corridor and point."""
    return all(segment_distance(p, a, b) >= w for a, b, w in corridors) and all(dist(p, q) >= w for q, w in others)


def inside(p: Point, length: float, width: float, margin: float) -> bool:
    return margin <= p[0] <= length - margin and margin <= p[1] <= width - margin


def transfer(e: float, m_striker: float, m_target: float) -> float:
    """Speed given to a resting target per unit of the striker's normal speed (1D impact)."""
    return (1.0 + e) * m_striker / (m_striker + m_target)


def stroke_for(kind: BodyKind, distance: float, arrive: float, *, fresh: bool = True) -> float:
    """Stroke speed that brings a ball ``distance`` mm with ``arrive`` mm/s left."""
    return speed_for_distance(kind, distance, arrive, fresh=fresh)


def tangent_correction(cut: float, e: float) -> float:
    """How far (radians) the striker's path after a cut turns from the tangent line, towards the object.

    Restitution below 1 leaves it ``(1 - e) / 2`` of the normal speed, so it is not exactly 90 degrees.
    """
    return math.atan2((1.0 - e) / 2.0 * math.cos(cut), math.sin(cut))


def polyline_length(points: Sequence[Point]) -> float:
    return sum(dist(points[i], points[i + 1]) for i in range(len(points) - 1))
