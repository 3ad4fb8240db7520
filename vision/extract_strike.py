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

import numpy as np

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
    is aimed, may have been lost earlier; so may a ball lost from a bare place
    (``Track.lost_bare``: nothing covered it, so it was struck too fast to be seen) within
    ``bare_strike_s``, as far from the mover as it could roll in that time (``fastest_mm_s``), and
    it may be seen again on this very frame (after hitting the mover).

    Not when the carrom striker is among the movers: it is the only thing a player may flick.
    The striker lost on the frame the pack starts moving was flicked, whichever way the first
    man seen moving goes (carrom break, seed 3501: the first mover seen was a side man of the
    pack, going across the striker's line, and a man lost in the pack took the start).
    Nor is an object ball when the pool cue ball is: a player's cue strikes only the cue ball, so a
    ball lost behind it as it moves off lay under the cue or the bridge hand (Up and Down seed
    1701: the 11, 13 cm behind the cue ball, covered by the cue as it was struck, was taken to
    have struck it). A cue ball lost while a reading of its number moves off (the cue's white
    ferrule) still was. The cue ball lost for ``cue_lost_s`` at most when the first ball it set
    moving is seen was struck, wherever it was lost and whether it is seen again on that frame
    (colors break, seed 3601: lost under the cue and across the table for six frames, seen again
    back off the rack as the rack was first seen moving; a rack ball took the start)."""
    if any(tr.label == "striker" for tr in movers):
        return None
    cue_moving = any(tr.group == "cue" for tr in movers)
    # the striker first; then the ball lost longest ago (nothing else moved when it vanished: the
    # motion began with it); then the nearest
    best: tuple[tuple[float, float, float], Track] | None = None
    for tr in visible:
        if tr.status not in (TrackStatus.MISSING, TrackStatus.VISIBLE) or quiet_for(tr) < p.struck_still_s:
            continue
        if cue_moving and tr.group != "cue":
            continue
        unseen = last_t - seen_at.get(tr.id, -1e9)
        bare = tr.lost_bare and 1e-9 < unseen <= p.bare_strike_s + 1e-9
        # The pool cue ball is the only ball a cue strikes: lost in its smear for as long as a
        # break's cue ball takes to cross the table (``cue_lost_s``), and seen again on the frame
        # the rack is first seen moving (back off the rack), it was struck.
        cue_lost = tr.group == "cue" and 1e-9 < unseen <= p.cue_lost_s + 1e-9
        if tr.status == TrackStatus.VISIBLE and not bare and not cue_lost:
            continue  # seen now: only one lost bare and seen again on this frame (where it went)
        struck_by_player = tr.label == "striker" or cue_lost
        if not struck_by_player and unseen > 1e-9 and not bare:
            continue  # not lost at the strike: hidden earlier, by a hand or an arm
        reach = p.lost_strike_mm + (p.fastest_mm_s * unseen if bare else 0.0)
        here = rest_of(tr)
        # the striker gone at the strike (lost at most ``smear_strike_s`` ago) was flicked,
        # whichever way the first piece seen moving goes: a break scatters the pack every way
        flicked = tr.label == "striker" and unseen <= p.smear_strike_s + 1e-9
        for m in movers:
            mx, my = rest_of(m)
            gap = math.hypot(mx - here[0], my - here[1])
            if (_away(m, here) or flicked) and (struck_by_player or gap <= reach):
                rank = (0.0 if struck_by_player else 1.0, -unseen, gap)
                if best is None or rank < best[0]:
                    best = (rank, tr)
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


def hidden_strike(p: ExtractorParams, rest: tuple[float, float], hidden_t: float, radius: float,
                  run: list[tuple[float, int, float, float]]) -> float | None:
    """When a ball that lay at ``rest`` and was hidden since ``hidden_t`` (an arm, the player
    bent over the shot: an overhead camera often sees the strike only as the ball rolling out from
    under the player) was struck, from the sightings ``run`` (t, frame, x, y) since it reappeared;
    None unless they show it struck.

    Struck, it rolls straight away from its rest: every sighting farther from the rest than the
    one before, at least ``start_speed``, on a line that runs back through the rest (within
    ``hidden_line_r`` of its radius). A ball a hand moved is set down at rest; one carried reappears
    where the hand lets go, not on a line from where it lay. The strike is dated back along the
    line with the speed and the slowing the sightings show (at most ``slide_mm_s2``), never before
    the ball was last seen at rest. A struck ball slides before it rolls and slows faster then than
    the rolling the sightings show, so the true strike is, if anything, a little later (bar
    billiards seed 1302: dated to frame 99, struck at 103, seen again at 121).
    """
    if len(run) < p.hidden_run:
        return None
    run = run[-p.hidden_run:]
    dists = [math.hypot(x - rest[0], y - rest[1]) for _, _, x, y in run]
    if dists[0] < 2.0 * radius or any(b <= a for a, b in zip(dists, dists[1:], strict=False)):
        return None
    (t0, _, x0, y0), (t1, _, x1, y1) = run[0], run[-1]
    step = math.hypot(x1 - x0, y1 - y0)
    if t1 <= t0 or step / (t1 - t0) < p.start_speed:
        return None
    ux, uy = (x1 - x0) / step, (y1 - y0) / step
    behind = (x0 - rest[0]) * ux + (y0 - rest[1]) * uy  # the rest lies behind the first sighting
    off = abs((rest[0] - x0) * uy - (rest[1] - y0) * ux)  # its distance from the line
    if behind <= 0 or off > p.hidden_line_r * radius:
        return None
    # distance from the rest against time: d0 + v (t - t0) - a (t - t0)^2 / 2
    ts = np.array([h[0] - t0 for h in run])
    c2, c1, _ = np.polyfit(ts, np.array(dists), 2)
    slow = min(p.slide_mm_s2, max(0.0, -2.0 * float(c2)))
    v = max(float(c1), 1e-6)
    back = dists[0] / v if slow <= 1e-6 else (math.sqrt(v * v + 2.0 * slow * dists[0]) - v) / slow
    return max(hidden_t, t0 - back)
