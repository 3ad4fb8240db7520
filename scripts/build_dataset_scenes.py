"""What the data set's frames show: looks widened beyond a seed's draw, scenario frames, random layouts.

Part of ``scripts/build_dataset.py`` (see its docstring for why the data set is built this way).
Scenario frames carry what the physics and the scripts make (racks, strikes with the cue coming
in, motion blur, hands placing a ball, pins falling); random layouts cover what a handful of
scenarios rarely shows: balls frozen to a cushion or in a pocket's mouth, tight clusters, a ball
held over the table or left on the rail, pins nudged or lying at any angle, a cue at any ball.
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import replace

import numpy as np

from tableref.calibration.spec import TableSpec
from tableref.simulator.render_look import Look
from tableref.simulator.scenarios import SCENARIOS, run_scenario
from tableref.simulator.state import CueState, FrameState, HandState, ObjectState, ObjectStatus

GAMES = {"pool": ("up-and-down", "colors"), "bar-billiards": ("bar-billiards",), "carrom": ("carroms",)}
BGR = tuple[int, int, int]


def _hsv_bgr(h: float, s: float, v: float) -> BGR:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, min(1.0, max(0.0, s)), min(1.0, max(0.0, v)))
    return (round(b * 255), round(g * 255), round(r * 255))


def widen_look(look: Look, rng: np.random.Generator) -> Look:
    """The seed's installation with a wider draw of cloth colour, lamp tint and white balance.

    A seed's look keeps to the usual cloths and nearly white lamps; venues do not: tournament
    blue, red or grey cloth, warm tungsten or cold LED tubes, a camera's auto white balance off.
    """
    out = look
    if rng.random() < 0.35:
        if look.table == "carrom":  # the board is wood: from pale birch to dark stained ply
            cloth = _hsv_bgr(rng.uniform(0.05, 0.11), rng.uniform(0.3, 0.75), rng.uniform(0.45, 0.9))
        else:
            cloth = _hsv_bgr(rng.uniform(0, 1), rng.uniform(0.25, 0.9), rng.uniform(0.2, 0.65))
        out = replace(out, cloth_bgr=cloth)
    if rng.random() < 0.4:
        warm = float(rng.uniform(-0.3, 0.3))
        tint = (1.0 - warm, 1.0, 1.0 + 0.6 * warm)
        out = replace(out, lights=tuple(replace(lt, tint=tint) for lt in out.lights))
    if rng.random() < 0.3:
        out = replace(out, white_balance=(float(rng.uniform(0.8, 1.2)), 1.0, float(rng.uniform(0.8, 1.2))))
    if rng.random() < 0.3:
        out = replace(out, ambient=float(rng.uniform(0.2, 0.7)))
    return out


def scenario_frames(spec: TableSpec, seed: int, count: int,
                    rng: np.random.Generator) -> tuple[list[FrameState], FrameState]:
    """``count`` frames of one scenario of the table's games in clip order (most of them while
    something happens: a cue, a hand, motion), and the clip's first frame as the template whose
    objects (kinds, labels, radii, colours) the random layouts copy."""
    games = GAMES[spec.name]
    game = games[int(rng.integers(len(games)))]
    names = list(SCENARIOS[game])
    sim = run_scenario(game, names[int(rng.integers(len(names)))], int(seed % 100_000), 30.0)
    frames = sim.frames
    busy = [i for i, f in enumerate(frames) if f.cue is not None or f.hands or any(o.speed > 1 for o in f.objects)]
    picks: set[int] = set()
    while len(picks) < min(count, len(frames)):
        pool = busy if busy and rng.random() < 0.7 else list(range(len(frames)))
        picks.add(int(pool[int(rng.integers(len(pool)))]))
    return [frames[i] for i in sorted(picks)], frames[0]


def _free(p: tuple[float, float], r: float, placed: list[tuple[float, float, float]]) -> bool:
    return all(math.hypot(p[0] - q[0], p[1] - q[1]) >= r + qr + 0.5 for q in placed for qr in (q[2],))


def _bed_point(spec: TableSpec, r: float, rng: np.random.Generator, mode: str,
               placed: list[tuple[float, float, float]]) -> tuple[float, float]:
    L, W = spec.length_mm, spec.width_mm
    if mode == "cushion":
        side = int(rng.integers(4))
        t = float(rng.uniform(r, (L if side < 2 else W) - r))
        gap = r + float(rng.uniform(0.0, 6.0))
        return [(t, gap), (t, W - gap), (gap, t), (L - gap, t)][side]
    if mode == "pocket" and spec.holes:
        h = spec.holes[int(rng.integers(len(spec.holes)))]
        a = float(rng.uniform(0, 2 * math.pi))
        d = h.radius + r + float(rng.uniform(1.0, 3.0 * r))
        x, y = h.x + d * math.cos(a), h.y + d * math.sin(a)
        return (min(max(x, r), L - r), min(max(y, r), W - r))
    if mode == "cluster" and placed:
        q = placed[int(rng.integers(len(placed)))]
        a = float(rng.uniform(0, 2 * math.pi))
        d = r + q[2] + float(rng.uniform(0.2, 4.0))
        return (q[0] + d * math.cos(a), q[1] + d * math.sin(a))
    return (float(rng.uniform(r, L - r)), float(rng.uniform(r, W - r)))


def _ok(spec: TableSpec, p: tuple[float, float], r: float, placed: list[tuple[float, float, float]]) -> bool:
    if not (r <= p[0] <= spec.length_mm - r and r <= p[1] <= spec.width_mm - r):
        return False
    if spec.name != "pool" and any(math.hypot(p[0] - h.x, p[1] - h.y) < h.radius + 2 for h in spec.holes):
        return False  # a ball over a bar-billiards hole or carrom pocket would drop
    return _free(p, r, placed)


def _pins(spec: TableSpec, template: FrameState, rng: np.random.Generator) -> list[ObjectState]:
    out = []
    for obj in template.objects:
        if obj.kind != "pin":
            continue
        pin = next((p for p in spec.pins if p.id == obj.id), None)
        sx, sy = (pin.x, pin.y) if pin is not None else (obj.x, obj.y)
        u = rng.random()
        if u < 0.6:
            out.append(replace(obj, x=sx, y=sy, status=ObjectStatus.ON_TABLE, angle=0.0, vx=0.0, vy=0.0))
        elif u < 0.72:
            out.append(replace(obj, x=sx + float(rng.uniform(-12, 12)), y=sy + float(rng.uniform(-12, 12)),
                               status=ObjectStatus.ON_TABLE, angle=0.0, vx=0.0, vy=0.0))
        elif u < 0.96:
            out.append(replace(obj, x=sx + float(rng.uniform(-35, 35)), y=sy + float(rng.uniform(-35, 35)),
                               status=ObjectStatus.FALLEN, angle=float(rng.uniform(-180, 180)), vx=0.0, vy=0.0))
    return out


def _edge_angle(spec: TableSpec, x: float, y: float) -> float:
    """Direction from the nearest table edge in to (x, y): where an arm reaching there comes from."""
    d = [(x, 0.0), (spec.length_mm - x, math.pi), (y, math.pi / 2), (spec.width_mm - y, -math.pi / 2)]
    return min(d)[1]


def random_frame(spec: TableSpec, template: FrameState, rng: np.random.Generator, index: int) -> FrameState:
    """A random layout of the template's objects, with a cue, a hand, motion, a ball off the bed."""
    movable = [o for o in template.objects if o.kind not in ("pin", "card")]
    pins = _pins(spec, template, rng) if spec.name == "bar-billiards" else []
    placed: list[tuple[float, float, float]] = [(p.x, p.y, p.radius + 2) for p in pins]
    n_on = int(rng.integers(1, len(movable) + 1)) if rng.random() < 0.6 else len(movable)
    order = [movable[int(i)] for i in rng.permutation(len(movable))][:n_on]
    modes = ("scatter", "cluster", "cushion", "pocket")
    weights = np.array([0.45, 0.3, 0.15, 0.1])
    objects: list[ObjectState] = []
    moving = rng.random() < 0.35
    for obj in order:
        mode = str(rng.choice(modes, p=weights))
        for _ in range(30):
            p = _bed_point(spec, obj.radius, rng, mode, placed)
            if _ok(spec, p, obj.radius, placed):
                break
        else:
            continue
        vx = vy = 0.0
        if moving and rng.random() < 0.4:
            a, v = float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(200, 4000))
            vx, vy = v * math.cos(a), v * math.sin(a)
        placed.append((p[0], p[1], obj.radius))
        objects.append(replace(obj, x=p[0], y=p[1], vx=vx, vy=vy, z=0.0, status=ObjectStatus.ON_TABLE, hole=None))
    hands: list[HandState] = []
    cue = None
    if objects and spec.name != "carrom" and rng.random() < 0.12:  # a ball left on the rail
        k = int(rng.integers(len(objects)))
        side = float(rng.uniform(25, 60))
        x = float(rng.uniform(0, spec.length_mm))
        y = -side if rng.random() < 0.5 else spec.width_mm + side
        objects[k] = replace(objects[k], x=x, y=y, vx=0.0, vy=0.0, status=ObjectStatus.OFF_TABLE)
    if objects and rng.random() < 0.15:  # a ball in a hand over the table
        k = int(rng.integers(len(objects)))
        x, y = float(rng.uniform(0, spec.length_mm)), float(rng.uniform(0, spec.width_mm))
        objects[k] = replace(objects[k], x=x, y=y, vx=0.0, vy=0.0, status=ObjectStatus.IN_HAND)
        hands.append(HandState(x, y, _edge_angle(spec, x, y), objects[k].id))
    elif rng.random() < 0.12:  # an empty hand reaching in
        x, y = float(rng.uniform(0, spec.length_mm)), float(rng.uniform(0, spec.width_mm))
        hands.append(HandState(x, y, _edge_angle(spec, x, y), None))
    on_bed = [o for o in objects if o.status is ObjectStatus.ON_TABLE]
    if on_bed and rng.random() < 0.5:
        target = on_bed[int(rng.integers(len(on_bed)))]
        a = float(rng.uniform(0, 2 * math.pi))
        gap = target.radius + float(rng.uniform(3, 90))
        cue = CueState((target.x - gap * math.cos(a), target.y - gap * math.sin(a)), a,
                       "hand" if spec.name == "carrom" else "cue")
    return FrameState(index=template.index + 1 + index, t=template.t + (1 + index) / 30.0,
                      objects=tuple(pins + objects), cue=cue, hands=tuple(hands))
