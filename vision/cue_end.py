"""A ball struck from its rest leaves the end of the cue where it lay.

At the strike the cue's tip and white ferrule are at the ball's place, and a hard-struck ball is
a faint smear ahead of them: the ferrule, joined to the cue, reads as the ball better than the
smear does, a ball's width behind its rest (pool held-out seeds 4502: the cue ball's track and
memory followed the ferrule back to the player; the ball was named after the object ball it
met, and the first contact and a cushion went to that ball). A ball leaves the cue behind it, so
a reading whose mass of change goes on beyond it, away from the rest, for longer than any smear
of one frame is the cue. The tracker (table mm) and the video detector's memory (work pixels)
both ask it before a resting object follows a reading.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

#: Where, in radii of the ball beyond the reading (away from its rest), the cue is looked for: a
#: pool cue's shaft runs 150-300 mm from its tip to the bridge hand, and then on to the player. A
#: smear reaches past the last only when it is longer than 12 radii: a pool ball at 11 m/s exposed
#: for a whole 30 fps frame, so faint that little of it is foreground. Farther looks past a short
#: bridge; nearer takes a long smear for a cue.
CUE_REACH: tuple[float, ...] = (3.0, 4.5, 6.0)
#: The probes' radius, in radii of the ball: about half a cue's width at its end (13 mm across at
#: the tip, a pool ball 57 mm). Each distance is probed on the line and a third of a radius to
#: either side, since a cue need not point exactly through the reading.
CUE_PROBE = 0.25
CUE_SIDE = 0.3


def cue_beyond(rest_x: float, rest_y: float, x: float, y: float, r: float,
               covered: Callable[[float, float, float], bool], reach: Sequence[float] = CUE_REACH,
               off: float = 1.0) -> bool:
    """Is a reading at (``x``, ``y``), more than ``off`` times the radius ``r`` from where a ball
    rested, the end of a cue: something covers the table beyond it, away from the rest, at every
    distance of ``reach``? ``covered(x, y, radius)`` says whether a small disc is covered (one unit
    throughout). Nearer than a radius, the reading is the ball and the cue's end read as one piece
    (its centre pulled towards the cue)."""
    dist = math.hypot(x - rest_x, y - rest_y)
    if dist <= off * r or dist <= 1e-9 or not reach:
        return False
    ux, uy = (x - rest_x) / dist, (y - rest_y) / dist
    for k in reach:
        cx, cy = x + ux * k * r, y + uy * k * r
        if not any(covered(cx - uy * o * r, cy + ux * o * r, CUE_PROBE * r) for o in (0.0, -CUE_SIDE, CUE_SIDE)):
            return False
    return True
