"""Which object a shot was struck with (used by :mod:`tableref.vision.extract`).

The extractor sees a shot start when objects resting on the table start moving fast. Usually the
first mover is the struck ball; these functions settle the cases where it is not:

* **The struck object vanished.** Struck hard, a ball or striker is a smear the detector can lose
  for a frame or two, while what it hit within the same frame is seen moving off
  (:func:`lost_struck`). The carrom striker, the only thing a player may flick, is also hidden by
  the flicking finger as it is aimed, so it may have been lost a little earlier.
* **Several movers at once.** The cue can send a ball into a touching one within a frame
  (:func:`struck_among`).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from tableref.calibration.spec import TableSpec
from tableref.vision.extract_params import ExtractorParams
from tableref.vision.tracker import Track, TrackStatus


def lost_struck(p: ExtractorParams, visible: list[Track], movers: list[Track], last_t: float,
                seen_at: dict[str, float], rest_of: Callable[[Track], tuple[float, float]],
                quiet_for: Callable[[Track], float]) -> Track | None:
    """An object that lay still and is lost now, with a mover heading away from it, was struck:
    it hit the mover within the frame. Any object must have vanished on this very frame (seen on
    the previous one) and lie within ``lost_strike_mm`` of where the mover rested: a ball that a
    hand happens to cover is neither. The carrom striker, hidden by the flicking finger while it
    is aimed, may have been lost earlier."""
    if any(tr.label == "striker" for tr in movers):
        return None
    best: tuple[float, Track] | None = None
    for tr in visible:
        if tr.status != TrackStatus.MISSING or quiet_for(tr) < p.struck_still_s:
            continue
        if tr.label != "striker" and seen_at.get(tr.id, -1e9) < last_t - 1e-9:
            continue  # not lost at the strike: hidden earlier, by a hand or an arm
        here = rest_of(tr)
        for m in movers:
            mx, my = rest_of(m)
            gap = math.hypot(mx - here[0], my - here[1])
            if _away(m, here) and (tr.label == "striker" or gap <= p.lost_strike_mm):
                rank = (0.0 if tr.label == "striker" else 1.0, gap)
                if best is None or rank < (0.0 if best[1].label == "striker" else 1.0, best[0]):
                    best = (gap, tr)
    return best[1] if best else None


def struck_among(spec: TableSpec, movers: list[Track], rest_of: Callable[[Track], tuple[float, float]],
                 rest_pos: dict[str, tuple[float, float]]) -> Track:
    """Which of the balls seen moving first was struck. The cue can send a ball into a touching
    one within a frame, so the fastest is not always it: the striker when it moves; in bar
    billiards the ball leaving the D; otherwise the mover whose path points at another mover."""
    if len(movers) == 1:
        return movers[0]
    for tr in movers:
        if tr.label == "striker":
            return tr
    if spec.d_centre is not None:
        in_baulk = [tr for tr in movers if tr.id in rest_pos and spec.in_baulk(rest_pos[tr.id][0])]
        if len(in_baulk) == 1:
            return in_baulk[0]

    def aims(a: Track) -> float:
        start = rest_of(a)
        best = -1.0
        for b in movers:
            if b is a:
                continue
            other = rest_of(b)
            dx, dy = other[0] - start[0], other[1] - start[1]
            n = math.hypot(dx, dy) * max(a.speed, 1e-9)
            best = max(best, (a.vx * dx + a.vy * dy) / n if n > 0 else -1.0)
        return best

    return max(movers, key=aims)


def _away(mover: Track, source: tuple[float, float]) -> bool:
    """Is ``mover`` heading away from ``source`` (within 60 degrees), as a piece it hit would?"""
    dx, dy = mover.x - source[0], mover.y - source[1]
    n = math.hypot(dx, dy) * mover.speed
    return n > 0 and (mover.vx * dx + mover.vy * dy) / n > 0.5
