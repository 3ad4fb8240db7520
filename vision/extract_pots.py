"""Pots the camera did not see happen (used by :mod:`tableref.vision.extract`).

A ball or disc going into a hole is often out of sight for its last frames: hidden by the pin it
knocked over, by the cue, or a smear too faint to find. Physics says where it went and when:

* :func:`drop_time`: a ball that vanished over a hole dropped as its centre passed the hole's
  edge, at the speed it had when last seen;
* :func:`knocked_into`: an object knocked off its rest and never seen again left along the line
  of centres of the contact, and went into the first hole on that line;
* :func:`knocked_off`: one whose line runs over no hole but to the surface's edge, and that is
  not seen anywhere on the surface after, left the table there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tableref.calibration.spec import TableSpec
from tableref.vision.extract_contacts import PathEnd
from tableref.vision.extract_params import ExtractorParams
from tableref.vision.tracker import Track

#: hitter's place at the contact, the object's rest place, the hitter's speed, when
Knock = tuple[float, float, float, float, float, float]


def drop_time(spec: TableSpec, tr: Track, prev: PathEnd | None, now: float) -> float:
    """When a ball that vanished over a hole dropped: a ball drops as its centre passes the
    hole's edge, so one last seen rolling towards the hole dropped when it reached the edge at
    its speed, not where it was last seen (a ball hidden for a few frames, by the pin it knocked
    over or a cue, is still rolling towards the hole)."""
    when = tr.last_seen_t
    hole = next((h for h in spec.holes if h.id == tr.hole), None)
    if prev is None or hole is None:
        return when
    vx, vy = prev.seen_vx, prev.seen_vy  # as it was when last seen (a hidden one coasts, then stops)
    speed = math.hypot(vx, vy)
    gap = math.hypot(prev.seen_x - hole.x, prev.seen_y - hole.y) - hole.radius
    if speed <= 0.0 or gap <= 0.0:
        return when
    towards = (vx * (hole.x - prev.seen_x) + vy * (hole.y - prev.seen_y)) / (speed * (gap + hole.radius))
    if towards < 0.5:
        return when  # not heading for it: dated to its last sighting
    return min(now, prev.seen_t + gap / speed)


def knocked_into(p: ExtractorParams, spec: TableSpec, tr: Track, hit: Knock | None, tracks: list[Track],
                 frame_dt: float) -> tuple[str, float] | None:
    """The hole an object knocked off its rest and never seen again went into, and when.

    Struck by another, a ball or disc leaves along the line of centres at the moment of contact
    (the impulse between smooth round objects), so when that line from where it rested runs over
    a hole within ``knock_reach_mm``, it went in there (a carrom man flicked into a pocket as a
    smear the camera never caught); dated to when it reached the hole's edge at the hitter's
    speed. Not when it was seen after the hit, nor when an object of its look (a white man) was
    first seen after the hit: that may be it, found again under another name."""
    if hit is None or tr.last_seen_t > hit[5] + 2.0 * frame_dt:
        return None
    hx, hy, rx, ry, speed, when = hit
    if any(o.label == tr.label and o.id != tr.id and o.first_seen_t >= when - frame_dt for o in tracks):
        return None
    dx, dy = rx - hx, ry - hy
    n = math.hypot(dx, dy)
    if n < 1e-6 or speed <= 0.0:
        return None
    ux, uy = dx / n, dy / n
    best: tuple[float, str] | None = None
    for h in spec.holes:
        along = (h.x - rx) * ux + (h.y - ry) * uy
        off = abs((h.x - rx) * uy - (h.y - ry) * ux)
        if 0.0 < along <= p.knock_reach_mm and off <= h.radius and (best is None or along < best[0]):
            best = (along, h.id)
    if best is None:
        return None
    hole = next(h for h in spec.holes if h.id == best[1])
    gap = max(0.0, math.hypot(hole.x - rx, hole.y - ry) - hole.radius)
    return best[1], when + gap / speed


@dataclass(frozen=True)
class KnockedOff:
    """An object knocked off the surface (see :func:`knocked_off`): when its centre crossed the
    edge, where (table mm), and when it touched the cushion there (its centre a radius short of
    the edge): a piece leaving the table goes over the cushion, and touches it on its way."""

    t: float
    x: float
    y: float
    touch_t: float


def knocked_off(p: ExtractorParams, spec: TableSpec, tr: Track, hit: Knock | None, tracks: list[Track],
                refound: dict[str, tuple[float, float]], frame_dt: float) -> KnockedOff | None:
    """When and where an object knocked off its rest, never seen again and not into a hole
    (:func:`knocked_into` found none), left the playing surface; None when that is not what
    happened.

    Struck hard (``knock_off_speed_mm_s``) along a line of centres that reaches the surface's edge
    within ``knock_reach_mm``, and then not seen on the surface for as long as the tracker keeps a
    lost object on a bare place: it went over the edge (a carrom man driven into the frame at
    four metres a second jumps it within two frames, too fast for a smear). Dated to when its
    centre reached the edge at the hitter's speed. Not when an object of its look was first seen,
    or seen again after frames unseen that began by the hit (``refound``: when each track was,
    and when it was seen before them), after the hit: that may be it, found again under another
    name (a man bounced off the cushion and rolled back across the board unseen for a dozen
    frames, and a man's track lost long before took it). One still seen after the hit, in its
    own place, and unseen only later (the next man the striker hit, a smear for two frames: carrom
    seed 3701, piece off the board) was itself then. Nor when the object was seen after the hit:
    it was followed, and its track says where it went."""
    if hit is None or tr.last_seen_t > hit[5] + 2.0 * frame_dt:
        return None
    hx, hy, rx, ry, speed, when = hit
    if speed < p.knock_off_speed_mm_s:
        return None
    for o in tracks:
        if o.label != tr.label or o.id == tr.id:
            continue
        back, lost = refound.get(o.id, (-math.inf, math.inf))
        if o.first_seen_t >= when - frame_dt or (back >= when - frame_dt and lost <= when + frame_dt):
            return None
    dx, dy = rx - hx, ry - hy
    n = math.hypot(dx, dy)
    if n < 1e-6:
        return None
    ux, uy = dx / n, dy / n
    # how far along the line its centre crosses the surface's edge
    along = min((rx / -ux if ux < 0 else (spec.length_mm - rx) / ux) if abs(ux) > 1e-9 else math.inf,
                (ry / -uy if uy < 0 else (spec.width_mm - ry) / uy) if abs(uy) > 1e-9 else math.inf)
    if along > p.knock_reach_mm:
        return None
    along = max(0.0, along)
    return KnockedOff(when + along / speed, rx + ux * along, ry + uy * along,
                      when + max(0.0, along - tr.radius_mm) / speed)
