"""When two balls touched during one frame (used by :mod:`tableref.vision.extract`).

At 30 fps a hard-struck ball travels 100-300 mm between frames, so a contact is almost never on
a frame: it is found from the paths the two objects took during the frame.

* Both seen on the previous frame: their straight paths on their last velocities
  (:func:`first_touch`), which finds the moment of contact even when the hit bent the paths.
* The relative-motion test failed, and one of them rested and is moving now: the mover's last
  velocity may be wrong. One *unseen* on the previous frame (a ball lost in its own motion smear,
  its position then a tracker's guess) has a guessed velocity; one struck a frame or two ago has
  a velocity the tracker's smoothing still holds at a fraction of its speed (a carrom striker
  flicked from rest: 1000 mm/s estimated at 2100). What is known is where it was last seen and
  where it is now; a resting object that starts moving was hit by such a ball when the ball's
  path between those two places ran within touching distance of where it rested
  (:func:`swept_touch`). A ball knocked off its rest by nothing is physically impossible, so the
  test only runs for an object that was still resting when the mover was last seen and is
  moving now.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass
class PathEnd:
    """An object as of the previous frame: where it was (``x, y``: seen, or the tracker's guess
    while hidden), its velocity (zero at rest), when, whether it was moving, and where, when and
    how fast it was last actually seen."""

    x: float
    y: float
    vx: float
    vy: float
    t: float
    moving: bool = False
    seen_x: float = 0.0
    seen_y: float = 0.0
    seen_t: float = 0.0
    seen_vx: float = 0.0
    seen_vy: float = 0.0

    @property
    def seen(self) -> bool:
        """Seen on that frame (not a prediction)."""
        return self.seen_t >= self.t - 1e-9


def first_touch(pa: PathEnd, pb: PathEnd, now_a: tuple[float, float], now_b: tuple[float, float],
                dt: float, touch: float) -> tuple[float, float] | None:
    """When (fraction of the frame) a and b, moving on their last velocities, first come within
    ``touch``, and how close they are then. None when they never come close enough."""
    rx, ry = pb.x - pa.x, pb.y - pa.y
    ux, uy = pb.vx - pa.vx, pb.vy - pa.vy
    rr = rx * rx + ry * ry
    if rr <= touch * touch:
        return 0.0, math.sqrt(rr)
    uu = ux * ux + uy * uy
    if uu > 1e-9:
        ru = rx * ux + ry * uy
        disc = ru * ru - uu * (rr - touch * touch)
        if disc >= 0:
            s = (-ru - math.sqrt(disc)) / uu
            if 0.0 <= s <= dt:
                return s / dt, touch
    d_end = math.hypot(now_b[0] - now_a[0], now_b[1] - now_a[1])
    if d_end <= touch:
        return 1.0, d_end  # a slow approach, measured at the end of the frame
    return None


def swept_touch(mover: PathEnd, now_m: tuple[float, float], rest: tuple[float, float],
                touch: float) -> tuple[float, float] | None:
    """A resting object that moved off, hit by ``mover``, which was last seen no later than the
    object lay at ``rest``: the mover's path from its last sighting to where it is now passes
    within ``touch`` of that place, having started further away (two objects resting against
    each other, both set moving by a third, did not hit each other this frame). Answers (fraction
    of the frame, distance), or None."""
    if math.hypot(mover.seen_x - rest[0], mover.seen_y - rest[1]) <= touch:
        return None
    d = segment_distance(rest[0], rest[1], (mover.seen_x, mover.seen_y), now_m)
    return (0.5, d) if d <= touch else None


def segment_distance(px: float, py: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    """Distance from (px, py) to the segment a-b."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    length2 = dx * dx + dy * dy
    u = 0.0 if length2 < 1e-9 else max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / length2))
    return math.hypot(px - (x0 + u * dx), py - (y0 + u * dy))


def reached(movers: list[tuple[tuple[float, float], tuple[float, float], float]],
            rests: dict[str, tuple[float, float, float]], tol: float) -> set[str]:
    """The resting objects a mover can have set moving this frame: within touching distance
    (both radii and ``tol``) of a mover's path (from, to, radius), and, through them, every
    object resting against one reached (a rack passes a hit on within the frame).

    Why: two objects both at rest on the previous frame can only touch now when something hit
    one of them. The detector reads a rack from its shared outline, and a ball that jitters by a
    few millimetres there while the cue ball is still on its way "moves" into its neighbour: no
    contact, however close they lie."""
    out: set[str] = set()
    todo = [oid for oid, (x, y, r) in rests.items()
            if any(segment_distance(x, y, a, b) <= r + mr + tol for a, b, mr in movers)]
    out.update(todo)
    while todo:
        x0, y0, r0 = rests[todo.pop()]
        for oid, (x, y, r) in rests.items():
            if oid not in out and math.hypot(x - x0, y - y0) <= r + r0 + tol:
                out.add(oid)
                todo.append(oid)
    return out
