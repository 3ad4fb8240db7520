"""Cushion bounces read from a ball's recent positions (used by :mod:`tableref.vision.extract`).

Each reader gets the ball's last sightings (t, frame, x, y) and their distances to one cushion
line, inside positive, and answers when (time and frame) the ball touched that cushion, or None.
"""

from __future__ import annotations

import math

from tableref.calibration.spec import Cushion, TableSpec
from tableref.vision.extract_params import ExtractorParams


def tolerance(p: ExtractorParams, step: float) -> float:
    """How far from one radius off the nose a ball coming in by ``step`` mm a frame may turn and
    have touched: ``cushion_tol_mm``, and ``cushion_tol_step`` of the step up to half as much
    again (a step of hundreds of millimetres is a reading taken by the wrong track, not a ball
    read far off: carrom seed 3501, break, a black man's track jumped 270 mm to a reading 20 mm
    off touching and back)."""
    return p.cushion_tol_mm + min(p.cushion_tol_step * step, 0.5 * p.cushion_tol_mm)


def bounce(p: ExtractorParams, spec: TableSpec, hist: list[tuple[float, int, float, float]], dist: list[float],
           radius: float, cushion: Cushion) -> tuple[float, int] | None:
    """Fit the approach (two positions before) and the rebound (two after) as straight lines in
    distance-to-cushion over time; a cushion bounce is where they meet, at one radius from the
    nose. A ball deflected by another ball near a cushion makes a V too, but its lines meet
    where the other ball was, not at the cushion."""
    for w in (1, 2):
        if len(hist) < 3 * w + 1:
            continue
        idx = (-1 - 3 * w, -1 - 2 * w, -1 - w, -1)
        (ta, fa, xa, ya), (tb, fb, xb, yb), (tc, _, xc, yc), (td, _, _, _) = (hist[i] for i in idx)
        na, nb, nc, nd = (dist[i] for i in idx)
        if tb <= ta or td <= tc or tc <= tb:
            continue
        s1 = (nb - na) / (tb - ta)
        s2 = (nd - nc) / (td - tc)
        v_min = p.bounce_eps_mm / (tb - ta)
        if s1 > -v_min or s2 < 0.2 * v_min or s2 - s1 < 1e-6:
            continue
        t_hit = (nc - na + s1 * ta - s2 * tc) / (s1 - s2)
        n_hit = na + s1 * (t_hit - ta)
        step = (tc - tb) / w
        if not (tb - 0.6 * step <= t_hit <= tc + 0.6 * step):
            continue
        # a fast ball's reading strays further (its smear; driven hard into a cushion, it rides
        # up it, and seen from above it is read towards the camera)
        if abs(n_hit - radius) > tolerance(p, abs(s1) * (tb - ta) / w):
            continue
        if not (within_segment(cushion, xb, yb, 0.5 * radius) or within_segment(cushion, xc, yc, 0.5 * radius)):
            continue
        # where it turned, on its way in: between two sightings a fast ball reaches a pocket's
        # jaws and rattles back out while both sightings lie clear of them (and a rattle in a
        # corner turns both ways at once: it reads as a V to each of the two cushions)
        xh, yh = xb + (xb - xa) / (tb - ta) * (t_hit - tb), yb + (yb - ya) / (tb - ta) * (t_hit - tb)
        if any(in_pocket_mouth(spec, x, y, radius) for x, y in ((xb, yb), (xc, yc), (xh, yh))):
            continue  # a rattle in the jaws of a pocket is not a cushion
        frame = fb + max(0, math.ceil((t_hit - tb) / max(step, 1e-6) - 1e-6))
        return t_hit, frame
    return None

def bounce_unseen(p: ExtractorParams, spec: TableSpec, hist: list[tuple[float, int, float, float]],
                  dist: list[float], radius: float, cushion: Cushion) -> tuple[float, int] | None:
    """A ball driven hard into a near cushion can be a smear the detector loses until it has
    bounced. Found again, moving away from the cushion on a line that, run back in time,
    reaches the cushion during the frames it was unseen, and having been far enough from the
    cushion before to get there at a speed like the one it comes back with, it bounced there
    (a straight roll cannot come out of a cushion)."""
    if len(hist) < 3:
        return None
    (ta, fa, xa, ya), (tb, fb, xb, yb), (tc, _, xc, yc) = hist[-3], hist[-2], hist[-1]
    na, nb, nc = dist[-3], dist[-2], dist[-1]
    if not 2 <= fb - fa <= p.unseen_bounce_frames or tc <= tb or tb <= ta:
        return None  # no gap (bounce reads it from the positions), or too long to say
    s2 = (nc - nb) / (tc - tb)
    if s2 * (tb - ta) < p.bounce_eps_mm * (fb - fa) or nb <= radius:
        return None
    t_hit = tb - (nb - radius) / s2
    if not ta < t_hit < tb or na <= radius:
        return None
    s1 = (na - radius) / (t_hit - ta)
    if not 0.5 * s2 <= s1 <= 3.0 * s2:
        return None  # it could not have got there in time, or would have come back faster
    # Along the cushion the ball keeps most of its speed: the way in (from where it was last
    # seen to the point of impact) and the way out must agree.
    (x0, y0), (x1, y1) = cushion.a, cushion.b
    ln = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / ln, (y1 - y0) / ln
    out_t = ((xc - xb) * ux + (yc - yb) * uy) / (tc - tb)
    hit_t = (xb * ux + yb * uy) - out_t * (tb - t_hit)
    in_t = (hit_t - (xa * ux + ya * uy)) / (t_hit - ta)
    if abs(in_t - out_t) > 0.5 * math.hypot(out_t, s2) + 150.0:
        return None
    xh, yh = xb - (xc - xb) / (tc - tb) * (tb - t_hit), yb - (yc - yb) / (tc - tb) * (tb - t_hit)  # where it turned
    if not within_segment(cushion, xb, yb, 0.5 * radius) or in_pocket_mouth(spec, xb, yb, radius) \
            or in_pocket_mouth(spec, xh, yh, radius):
        return None
    step = (tb - ta) / (fb - fa)
    return t_hit, fa + max(0, math.ceil((t_hit - ta) / max(step, 1e-6) - 1e-6))


def struck_into(p: ExtractorParams, spec: TableSpec, hist: list[tuple[float, int, float, float]],
                dist: list[float], radius: float, cushion: Cushion) -> tuple[float, int] | None:
    """A ball struck a few centimetres off a cushion reaches it within a frame of the strike:
    its approach is its rest and the strike's first move, on which no straight line fits, and
    the V's two lines meet long after it turned. Seen on frames in a row: coming in by three
    ``bounce_eps_mm`` or more, at least twice as fast as on the frame before and not going away
    then (it was just struck), to within :func:`tolerance` of touching for that step (itself a
    fraction of its speed), then going away by more than ``bounce_eps_mm``: it touched the
    cushion on the frame it came nearest (bar billiards seed 3401, ball leaves the table: the
    white, about 60 mm off touching the bottom cushion, struck into it and flown off along it,
    read 11.5 mm off touching; its touch was found four frames late, where it crossed the nose
    in the air)."""
    if len(hist) < 4:
        return None
    (_, f0, _, _), (_, fa, _, _), (tb, fb, xb, yb), (_, fc, _, _) = hist[-4:]
    n0, na, nb, nc = dist[-4:]
    if not (fa == f0 + 1 and fb == fa + 1 and fc == fb + 1):
        return None  # seen on each of those frames: a gap leaves other paths open
    if na - nb < 3.0 * p.bounce_eps_mm or nc - nb < p.bounce_eps_mm:
        return None  # not driven in (a slow ball's reading jitters by a few mm), or not going away
    if not -p.still_noise_mm <= n0 - na <= 0.5 * (na - nb):
        return None  # going away before (jitter), or coming in as fast: a V's case
    if abs(nb - radius) > tolerance(p, na - nb):
        return None
    if not within_segment(cushion, xb, yb, 0.5 * radius) or in_pocket_mouth(spec, xb, yb, radius):
        return None
    return tb, fb


def creep(p: ExtractorParams, spec: TableSpec, hist: list[tuple[float, int, float, float]], dist: list[float],
          radius: float, cushion: Cushion) -> tuple[float, int] | None:
    """A ball rolling slowly into a cushion stops against it or comes back a millimetre: too
    little for a V above the detection noise (a bar-billiards red at 20 mm/s, a pool ball dying
    on the rail). Seen on each of its last frames, having come steadily closer by
    ``creep_approach_mm`` to within ``creep_gap_mm`` of touching (either side), slowly, and no
    closer on the latest sighting than on the one before (it stopped or turned), it touched:
    dated to its nearest sighting."""
    n = min(len(hist), p.creep_frames)
    if n < 3 or dist[-1] < dist[-2] - p.still_noise_mm:
        return None  # still coming closer: not there yet
    near = min(range(len(hist) - n, len(hist)), key=lambda i: dist[i])
    if near == len(hist) - 1 or abs(dist[near] - radius) > p.creep_gap_mm:
        return None  # not there, or deeper than a rolling ball gets (in the air, off the table)
    start = len(hist) - n
    if any(hist[i + 1][1] - hist[i][1] != 1 for i in range(start, len(hist) - 1)):
        return None  # seen on every frame: a slow ball is, and a gap hides how it came in
    if dist[start] - dist[near] < p.creep_approach_mm:
        return None  # it did not come in: it lies there, or rolls along the cushion
    if dist[near - 1] - dist[near] > p.creep_speed_mm_s * (hist[near][0] - hist[near - 1][0]):
        return None  # driven in faster: such a ball bounces off visibly (see ``bounce``)
    if any(dist[i + 1] > dist[i] + p.still_noise_mm for i in range(start, near)):
        return None  # not steadily closer: deflected on its way in
    (t, f, x, y) = hist[near]
    if not within_segment(cushion, x, y, 0.5 * radius) or in_pocket_mouth(spec, x, y, radius):
        return None
    return t, f


def fly_over(p: ExtractorParams, hist: list[tuple[float, int, float, float]], dist: list[float], radius: float,
             cushion: Cushion) -> tuple[float, int] | None:
    """A ball jumping the table touches the cushion on its way over: its centre goes from the
    cloth side of the nose to beyond it, which no rolling ball can do. Rising off the cloth, it
    can take a few frames to get there (seen from above, a ball in the air creeps towards the
    rail), so the last sighting still a radius off the nose may be up to three frames back, with
    the ball coming steadily closer since; the touch is dated to its crossing of one radius."""
    if dist[-1] >= radius - p.off_margin_mm:
        return None
    (_, _, xb, yb) = hist[-1]
    if not within_segment(cushion, xb, yb, radius):
        return None
    for k in range(2, min(4, len(hist)) + 1):
        if dist[-k + 1] >= dist[-k]:
            return None  # not coming steadily closer
        if dist[-k] < radius - 1.0:
            continue
        if hist[-1][1] - hist[-k][1] > 3:
            return None
        (ta, fa, _, _), (tb, _, _, _) = hist[-k], hist[-k + 1]
        na, nb = dist[-k], dist[-k + 1]
        when = ta + max(0.0, na - radius) / (na - nb) * (tb - ta)
        return when, fa + (1 if when > ta + 1e-9 else 0)
    return None

def in_pocket_mouth(spec: TableSpec, x: float, y: float, radius: float) -> bool:
    """Is (x, y) in the jaws of a pocket, where a rattle is not a cushion?"""
    return any(math.hypot(x - h.x, y - h.y) < h.radius + 0.5 * radius
               for h in spec.holes if h.id.startswith("pocket"))


def within_segment(c: Cushion, x: float, y: float, margin: float) -> bool:
    """Does (x, y) lie alongside the cushion's segment, ``margin`` beyond its ends allowed?"""
    (x0, y0), (x1, y1) = c.a, c.b
    dx, dy = x1 - x0, y1 - y0
    length2 = dx * dx + dy * dy or 1.0
    u = ((x - x0) * dx + (y - y0) * dy) / length2
    pad = margin / math.sqrt(length2)
    return -pad <= u <= 1 + pad
