"""Pool scenarios (Up and Down, Colors): what the two referees must judge on a 9-ft table.

Each script builds the table as its game starts (the rack) or as a game in progress (some balls
already potted, the rest scattered), plans the shot with :mod:`simulator.physics_aim`, runs it and
checks that the physics did what the scenario promises, drawing again when it did not.

Racks: both games rack 15 object balls in a triangle whose apex stands on the foot spot, broken
from the kitchen (behind the head string) with the zero/cue ball, ``ball-0``. Colors puts the black
8 at the apex and the coloured balls at random behind it; Up and Down racks 1-15 in any order.
(The Up and Down text says "leading ball on the head spot"; with the break played from the kitchen
that can only mean the spot at the far end, which is where every rack here stands.)

A game in progress is a match segment the referee must accept: the clip opens with a ``setup``
input (frame 0's balls, the scores, Up and Down's direction, Colors' companions owed), and the
shot is a legal one for its game. Up and Down is a call-shot game in which the only object ball is
the next consecutive number, so its layouts are renumbered to make the planned object ball that
ball (every numbered ball has the same physics) and the shooter calls it before the stroke.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from typing import Any

from tableref.calibration.spec import Hole, TableSpec, load_table
from tableref.events import EventType
from tableref.simulator.physics import World
from tableref.simulator.physics_aim import (
    Point,
    add,
    angle_between,
    clear_of,
    dist,
    from_angle,
    ghost,
    heading,
    inside,
    rotate,
    stroke_for,
    sub,
    tangent_correction,
    transfer,
    unit,
)
from tableref.simulator.physics_clip import Clip, IntentNotMet, ScenarioInfo, attempts, kinds_of, require
from tableref.simulator.physics_params import physics_for
from tableref.simulator.scenarios_inputs import pool_setup
from tableref.simulator.state import FrameState, ObjectStatus, SimResult

TABLE = "pool"
BALLS = tuple(f"ball-{n}" for n in range(16))
CUE = "ball-0"
E_BALL = 0.95


def _spec() -> TableSpec:
    return load_table(TABLE)


def _r(spec: TableSpec) -> float:
    return spec.object_radius["ball"]


def aim_point(h: Hole) -> Point:
    """A point well inside a pocket's mouth, on its line of entry from the bed."""
    if h.id.endswith("middle"):
        return (h.x, h.y + (0.5 * h.radius if h.y < 0 else -0.5 * h.radius))
    sx = 1.0 if h.x < 0 else -1.0
    sy = 1.0 if h.y < 0 else -1.0
    d = 0.5 * h.radius / math.sqrt(2.0)
    return (h.x + sx * d, h.y + sy * d)


def corner_axis(h: Hole) -> float:
    """Direction (radians) from a corner pocket out into the bed, along the diagonal."""
    sx = 1.0 if h.x < 0 else -1.0
    sy = 1.0 if h.y < 0 else -1.0
    return math.atan2(sy, sx)


def corners(spec: TableSpec) -> list[Hole]:
    return [h for h in spec.holes if not h.id.endswith("middle")]


def rack(game: str, rng: random.Random, spec: TableSpec) -> dict[str, Point]:
    """The 15-ball triangle, apex on the foot spot pointing at the head; gaps of about half a millimetre."""
    r = _r(spec)
    fx, fy = spec.spots["foot"]
    order = [f"ball-{n}" for n in range(1, 16)]
    rng.shuffle(order)
    if game == "colors":
        order.remove("ball-8")
        order.insert(0, "ball-8")
    pitch = 2.0 * r + 0.5
    out: dict[str, Point] = {}
    i = 0
    for row in range(5):
        for j in range(row + 1):
            gap = rng.uniform(0.0, 0.25)
            x = fx + row * pitch * math.sqrt(3.0) / 2.0 + gap
            y = fy + (j - row / 2.0) * pitch + rng.uniform(-0.1, 0.1)
            out[order[i]] = (x, y)
            i += 1
    return out


def new_world(spec: TableSpec, rng: random.Random, on_table: dict[str, Point]) -> World:
    """All sixteen balls: those in ``on_table`` on the bed, the rest already in pockets."""
    w = World(spec, physics_for(TABLE), rng)
    pockets = [h.id for h in spec.holes]
    for n, bid in enumerate(BALLS):
        if bid in on_table:
            w.add_object(bid, "ball", *on_table[bid], label=bid)
        else:
            h = spec.hole(pockets[n % len(pockets)])
            w.add_object(bid, "ball", h.x, h.y, label=bid, status=ObjectStatus.IN_HOLE, hole=h.id)
    return w


def scatter(rng: random.Random, spec: TableSpec, taken: dict[str, Point], ids: list[str],
            corridors: list[tuple[Point, Point, float]]) -> dict[str, Point]:
    """Place ``ids`` at random on the bed, clear of the shot's corridors, the pockets and each other."""
    r = _r(spec)
    out = dict(taken)
    for bid in ids:
        for _ in range(400):
            p = (rng.uniform(3 * r, spec.length_mm - 3 * r), rng.uniform(3 * r, spec.width_mm - 3 * r))
            others = [(q, 3.0 * r) for q in out.values()] + [((h.x, h.y), 6.0 * r) for h in spec.holes]
            if clear_of(p, corridors, others):
                out[bid] = p
                break
        else:
            raise IntentNotMet(f"no room for {bid}")
    return out


def _start(game: str, name: str, seed: int, fps: float, rng: random.Random, spec: TableSpec,
           layout: dict[str, Point], told: dict[str, Any] | None = None) -> Clip:
    world = new_world(spec, rng, layout)
    clip = Clip(game=game, scenario=name, seed=seed, fps=fps, spec=spec, world=world, rng=rng,
                player_side="nearest")
    clip.meta["setup"] = {"on_table": {k: [round(v[0], 1), round(v[1], 1)] for k, v in layout.items()},
                          "potted": [b for b in BALLS if b not in layout], **(told or {})}

    def opening(frame: FrameState, meta: Mapping[str, Any]) -> dict[str, Any]:
        return pool_setup(game, frame, meta)

    clip.opening = opening
    clip.wait(rng.uniform(0.9, 1.5))  # a still table first: calibration and trackers settle
    return clip


def _finish(game: str, clip: Clip) -> SimResult:
    """End the clip; in Colors a potted black 8 is spotted at once on the centre spot by hand.

    Colors: "The Black ball ALWAYS spots immediately on the Center spot ... If there are
    interfering balls the Black spots on the Head spot."
    """
    w = clip.world
    if game == "colors" and w.status("ball-8") is ObjectStatus.IN_HOLE:
        r = _r(clip.spec)
        on = [w.position(b) for b in BALLS if w.status(b) is ObjectStatus.ON_TABLE]
        spot = clip.spec.spots["centre"]
        if any(dist(spot, q) < 2 * r + 1.0 for q in on):
            spot = clip.spec.spots["head"]
        if any(dist(spot, q) < 2 * r + 1.0 for q in on):
            raise IntentNotMet("both spots for the black are blocked")
        clip.place("ball-8", spot, data={"from": w.objects["ball-8"].hole, "spotted": True})
    return clip.result(table=TABLE)


def story(game: str, name: str, seed: int) -> dict[str, Any]:
    """Where the game stands when a clip of a game in progress starts, from a generator of its own.

    The scores so far, and in Up and Down the shooter's direction (fixed by an earlier called
    shot); a break starts a game, so it has neither. Drawn apart from the layout's generator so
    the story never moves a ball.
    """
    if name.startswith("break"):
        return {}
    rng = random.Random(f"{game}/{name}/{seed}/story")
    out: dict[str, Any] = {"scores": {"A": rng.randint(0, 6), "B": rng.randint(0, 6)}}
    if game == "up-and-down":
        out["direction"] = rng.choice(("up", "down"))
    return out


def number(ball: str) -> int:
    return int(ball.rsplit("-", 1)[1])


def companion(ball: str) -> str:
    """Colors: the ball of the same colour (1-9, 2-10, ... 7-15)."""
    n = number(ball)
    return f"ball-{n + 8 if n < 8 else n - 8}"


def relabel(layout: dict[str, Point], planned: list[str], wanted: list[str]) -> dict[str, Point]:
    """The same layout with the balls at the ``planned`` spots numbered ``wanted``.

    Every numbered ball has the same physics, so renumbering changes what the shot means to the
    referee and nothing of what the balls do: the ball that had a wanted number takes one that
    a planned ball gave up. How a script makes its shot a legal one (the next consecutive ball in
    Up and Down, a colour's companion in Colors).
    """
    if len(set(wanted)) != len(wanted) or CUE in wanted:
        raise ValueError(f"cannot number the planned balls {wanted}")
    freed = [p for p in planned if p not in wanted]
    out = {w: layout[p] for p, w in zip(planned, wanted, strict=True)}
    for bid, at in layout.items():
        if bid in planned:
            continue
        out[freed.pop(0) if bid in out else bid] = at
    return out


def next_balls(layout: dict[str, Point], direction: str, count: int) -> list[str]:
    """Up and Down from the zero ball: the next ``count`` consecutive balls on the table going ``direction``.

    Going up from 0 the next ball is the lowest number on the table; going down it wraps to the
    highest (Legal Shot: "The ball numbering system wraps").
    """
    ranked = sorted((b for b in layout if b != CUE), key=number, reverse=direction == "down")
    return ranked[:count]


def legal_labels(game: str, layout: dict[str, Point], planned: list[str], told: dict[str, Any],
                 ) -> tuple[dict[str, Point], list[str]]:
    """Renumber a game-in-progress layout so its planned object ball(s) make a legal shot.

    Up and Down: the next consecutive ball(s) from the zero ball in the shooter's direction, in the
    order they must drop. Colors needs no renumbering except where the story asks for a colour.
    """
    if game != "up-and-down":
        return layout, planned
    wanted = next_balls(layout, str(told["direction"]), len(planned))
    return relabel(layout, planned, wanted), wanted


def call(clip: Clip, game: str, balls: list[str]) -> None:
    """Up and Down is a call-shot game: the shooter calls the cue ball and the ball(s) in order."""
    if game != "up-and-down":
        return
    if len(balls) == 1:
        clip.say("called_shot", cue=CUE, ball=balls[0])
    else:
        clip.say("called_shot", cue=CUE, balls=list(balls))


def _game_balls(game: str, rng: random.Random, n: int, must: tuple[str, ...]) -> list[str]:
    """``n`` object balls still on the table in a game in progress (Colors keeps the black 8)."""
    pool = [b for b in BALLS[1:] if b not in must and not (game == "colors" and b == "ball-8")]
    rng.shuffle(pool)
    extra = ["ball-8"] if game == "colors" and "ball-8" not in must else []
    return extra + pool[: max(0, n - len(extra))]


# -- scenarios ------------------------------------------------------------------------------------

def _break(game: str, seed: int, fps: float, *, hard: bool) -> SimResult:
    name = "break" if hard else "break-weak"
    spec = _spec()
    kind = physics_for(TABLE).kind("ball")

    def build(rng: random.Random) -> SimResult:
        layout = rack(game, rng, spec)
        head = min(layout, key=lambda b: layout[b][0])
        cue_at = (rng.uniform(420.0, (spec.baulk_x or 635.0) - 40.0), spec.width_mm / 2 + rng.uniform(-160.0, 160.0))
        layout[CUE] = cue_at
        clip = _start(game, name, seed, fps, rng, spec, layout)
        target = add(layout[head], (0.0, rng.uniform(-4.0, 4.0)))
        contact = ghost(target, add(target, unit(sub(target, cue_at))), 2 * _r(spec))
        angle = heading(cue_at, contact)
        if hard:
            speed = rng.uniform(8500.0, 10500.0)
        else:
            speed = stroke_for(kind, dist(cue_at, contact), rng.uniform(700.0, 1100.0))
        shot = clip.shot(CUE, angle, speed, intent={"object": head, "kind": "break"})
        ev = clip.events_since(shot)
        railed = {e.objects[0] for e in kinds_of(ev, EventType.CUSHION) if e.objects[0] != CUE}
        potted = kinds_of(ev, EventType.POT)
        first = next((e for e in ev if e.type is EventType.CONTACT and CUE in e.objects), None)
        require(first is not None and head in first.objects, "the cue ball missed the head ball")
        if hard:
            require(len(railed) >= 4 or bool(potted), f"only {len(railed)} balls reached a rail")
            require(all(e.objects != (CUE,) for e in potted), "the cue ball was potted on the break (a scratch)")
            require(not kinds_of(ev, EventType.OFF_TABLE), "a ball left the table on the break")
        else:
            require(len(railed) < 4 and not potted, "the soft break drove four balls to the rails")
            # Colors has no break requirement but its rail-after-contact rule: a soft break is legal there
            # only when some ball reaches a rail (Up and Down's four-rail rule makes it a foul anyway)
            after = [e for e in ev if first is not None and e.t >= first.t and e.type is EventType.CUSHION]
            require(game != "colors" or bool(after), "no ball reached a rail after the contact")
        clip.meta["rails"] = sorted(railed)
        return _finish(game, clip)

    return attempts(f"{game}/{name}", seed, build)


def _cut_setup(rng: random.Random, spec: TableSpec, pocket: Hole, d_obj: tuple[float, float],
               d_cue: tuple[float, float], cut_deg: tuple[float, float]) -> tuple[Point, Point, Point, Point]:
    """Object ball, its ghost, the cue ball and the pocket's aim point for a cut into ``pocket``."""
    r = _r(spec)
    aim = aim_point(pocket)
    axis = corner_axis(pocket) + math.radians(rng.uniform(-25.0, 25.0))
    obj = add(aim, from_angle(axis, rng.uniform(*d_obj)))
    g = ghost(obj, aim, 2 * r)
    cut = math.radians(rng.uniform(*cut_deg)) * rng.choice((-1.0, 1.0))
    back = rotate(unit(sub(obj, aim)), cut)  # from the ghost back towards the cue ball
    cue = add(g, back, rng.uniform(*d_cue))
    if not (inside(obj, spec.length_mm, spec.width_mm, 2 * r) and inside(cue, spec.length_mm, spec.width_mm, 2 * r)):
        raise IntentNotMet("the planned balls fall off the bed")
    return obj, g, cue, aim


def _legal_pot(game: str, seed: int, fps: float) -> SimResult:
    spec = _spec()
    kind = physics_for(TABLE).kind("ball")
    r = _r(spec)

    def build(rng: random.Random) -> SimResult:
        told = story(game, "legal-pot", seed)
        pocket = rng.choice(corners(spec))
        obj_id = rng.choice([b for b in BALLS[1:] if not (game == "colors" and b == "ball-8")])
        obj, g, cue, aim = _cut_setup(rng, spec, pocket, (300.0, 700.0), (350.0, 750.0), (0.0, 30.0))
        corridors = [(cue, g, 3 * r), (obj, aim, 3 * r)]
        layout = scatter(rng, spec, {CUE: cue, obj_id: obj}, _game_balls(game, rng, rng.randint(3, 6), (obj_id,)),
                         corridors)
        layout, (obj_id,) = legal_labels(game, layout, [obj_id], told)
        if game == "colors":  # its companion dropped on the last shot: this pot completes the colour
            pair = companion(obj_id)
            if pair in layout:
                spare = next(b for b in BALLS[1:] if b not in layout and b not in ("ball-8", pair))
                layout = relabel(layout, [pair], [spare])
            told["window"] = [obj_id]
        clip = _start(game, "legal-pot", seed, fps, rng, spec, layout, told)
        call(clip, game, [obj_id])
        cut = angle_between(sub(g, cue), sub(aim, obj))
        v_obj = stroke_for(kind, dist(obj, aim), rng.uniform(450.0, 800.0))
        v_hit = v_obj / (transfer(E_BALL, 1, 1) * max(math.cos(cut), 0.5))
        speed = stroke_for(kind, dist(cue, g), v_hit)
        shot = clip.shot(CUE, heading(cue, g), speed, intent={"object": obj_id, "pocket": pocket.id})
        ev = clip.events_since(shot)
        pots = kinds_of(ev, EventType.POT)
        require([(e.objects[0], e.where) for e in pots] == [(obj_id, pocket.id)], f"pots were {pots}")
        first = next((e for e in ev if e.type is EventType.CONTACT), None)
        require(first is not None and set(first.objects) == {CUE, obj_id}, "the first hit was not the object ball")
        return _finish(game, clip)

    return attempts(f"{game}/legal-pot", seed, build)


def _scratch(game: str, seed: int, fps: float) -> SimResult:
    """The cue ball cuts an object ball and runs on along the tangent line into a pocket."""
    spec = _spec()
    kind = physics_for(TABLE).kind("ball")
    r = _r(spec)

    def build(rng: random.Random) -> SimResult:
        pocket = rng.choice(corners(spec))
        aim = aim_point(pocket)
        axis = corner_axis(pocket) + math.radians(rng.uniform(-20.0, 20.0))
        g = add(aim, from_angle(axis, rng.uniform(350.0, 650.0)))  # where the cue ball meets the object
        cut = math.radians(rng.uniform(35.0, 55.0))
        side = rng.choice((-1.0, 1.0))
        t_dir = rotate(unit(sub(aim, g)), -side * tangent_correction(cut, E_BALL))
        u = (-side * t_dir[1], side * t_dir[0])  # line of centres, perpendicular to the tangent
        obj = add(g, u, 2 * r)
        d_in = add((math.cos(cut) * u[0], math.cos(cut) * u[1]), t_dir, math.sin(cut))
        cue = add(g, d_in, -rng.uniform(300.0, 600.0))
        for p in (obj, cue):
            if not inside(p, spec.length_mm, spec.width_mm, 2.5 * r):
                raise IntentNotMet("the planned balls fall off the bed")
        obj_id = rng.choice([b for b in BALLS[1:] if not (game == "colors" and b == "ball-8")])
        corridors = [(cue, g, 3 * r), (g, aim, 3 * r), (obj, add(obj, u, 900.0), 3 * r)]
        layout = scatter(rng, spec, {CUE: cue, obj_id: obj}, _game_balls(game, rng, rng.randint(2, 5), (obj_id,)),
                         corridors)
        told = story(game, "scratch", seed)
        layout, (obj_id,) = legal_labels(game, layout, [obj_id], told)
        clip = _start(game, "scratch", seed, fps, rng, spec, layout, told)
        call(clip, game, [obj_id])
        v_after = stroke_for(kind, dist(g, aim), rng.uniform(500.0, 800.0), fresh=False)
        v_hit = v_after / math.hypot(math.sin(cut), (1 - E_BALL) / 2 * math.cos(cut))
        speed = stroke_for(kind, dist(cue, g), v_hit)
        shot = clip.shot(CUE, heading(cue, g), speed, intent={"object": obj_id, "scratch_pocket": pocket.id})
        ev = clip.events_since(shot)
        require(any(e.type is EventType.POT and e.objects == (CUE,) for e in ev), "the cue ball stayed up")
        first = next((e for e in ev if e.type is EventType.CONTACT), None)
        require(first is not None and set(first.objects) == {CUE, obj_id}, "the cue ball hit another ball first")
        return _finish(game, clip)

    return attempts(f"{game}/scratch", seed, build)


def _short(game: str, seed: int, fps: float) -> SimResult:
    """Struck too softly: the cue ball dies before it reaches the object ball."""
    spec = _spec()
    kind = physics_for(TABLE).kind("ball")
    r = _r(spec)

    def build(rng: random.Random) -> SimResult:
        cue = (rng.uniform(400.0, 1000.0), rng.uniform(300.0, 970.0))
        obj = add(cue, from_angle(rng.uniform(-0.6, 0.6), rng.uniform(800.0, 1300.0)))
        if not inside(obj, spec.length_mm, spec.width_mm, 4 * r):
            raise IntentNotMet("object ball off the bed")
        obj_id = rng.choice([b for b in BALLS[1:]])
        layout = scatter(rng, spec, {CUE: cue, obj_id: obj}, _game_balls(game, rng, rng.randint(2, 5), (obj_id,)),
                         [(cue, add(obj, unit(sub(obj, cue)), 400.0), 4 * r)])
        told = story(game, "miss-short", seed)
        layout, (obj_id,) = legal_labels(game, layout, [obj_id], told)
        clip = _start(game, "miss-short", seed, fps, rng, spec, layout, told)
        call(clip, game, [obj_id])
        travel = (dist(cue, obj) - 2 * r) * rng.uniform(0.35, 0.7)
        speed = stroke_for(kind, travel, 0.0)
        shot = clip.shot(CUE, heading(cue, obj), speed, intent={"object": obj_id})
        ev = clip.events_since(shot)
        require(not kinds_of(ev, EventType.CONTACT) and not kinds_of(ev, EventType.CUSHION), "something was touched")
        return _finish(game, clip)

    return attempts(f"{game}/miss-short", seed, build)


def _no_rail(game: str, seed: int, fps: float) -> SimResult:
    """A soft contact in the middle of the bed: nothing potted, no ball touches a rail afterwards."""
    spec = _spec()
    kind = physics_for(TABLE).kind("ball")
    r = _r(spec)

    def build(rng: random.Random) -> SimResult:
        obj = (rng.uniform(900.0, 1640.0), rng.uniform(450.0, 820.0))
        approach = rng.uniform(0.0, 2 * math.pi)
        g = add(obj, from_angle(approach, 2 * r))
        cue = add(g, from_angle(approach + math.radians(rng.uniform(-30.0, 30.0)), rng.uniform(250.0, 450.0)))
        obj_id = rng.choice([b for b in BALLS[1:]])
        layout = scatter(rng, spec, {CUE: cue, obj_id: obj}, _game_balls(game, rng, rng.randint(2, 5), (obj_id,)),
                         [(cue, obj, 3 * r)] + [(obj, obj, 500.0)])
        told = story(game, "no-rail", seed)
        layout, (obj_id,) = legal_labels(game, layout, [obj_id], told)
        clip = _start(game, "no-rail", seed, fps, rng, spec, layout, told)
        call(clip, game, [obj_id])
        speed = stroke_for(kind, dist(cue, g), rng.uniform(250.0, 450.0))
        shot = clip.shot(CUE, heading(cue, g), speed, intent={"object": obj_id})
        ev = clip.events_since(shot)
        require(any(e.type is EventType.CONTACT and CUE in e.objects for e in ev), "the cue ball hit nothing")
        require(not kinds_of(ev, EventType.CUSHION) and not kinds_of(ev, EventType.POT), "a ball reached a rail")
        return _finish(game, clip)

    return attempts(f"{game}/no-rail", seed, build)


def _off_table(game: str, seed: int, fps: float) -> SimResult:
    """A ball near a side rail is driven into it hard, climbs the nose and jumps the table."""
    spec = _spec()
    r = _r(spec)

    def build(rng: random.Random) -> SimResult:
        top = rng.random() < 0.5
        x = rng.uniform(500.0, 1000.0) if rng.random() < 0.5 else rng.uniform(1540.0, 2040.0)
        obj = (x, rng.uniform(110.0, 180.0) if top else spec.width_mm - rng.uniform(110.0, 180.0))
        rail_dir = -math.pi / 2 if top else math.pi / 2
        angle = rail_dir + math.radians(rng.uniform(-6.0, 6.0))
        g = add(obj, from_angle(angle + math.pi, 2 * r))
        cue = add(g, from_angle(angle + math.pi, rng.uniform(250.0, 450.0)))
        obj_id = rng.choice([b for b in BALLS[1:] if not (game == "colors" and b == "ball-8")])
        layout = scatter(rng, spec, {CUE: cue, obj_id: obj}, _game_balls(game, rng, rng.randint(2, 5), (obj_id,)),
                         [(cue, obj, 4 * r), (obj, obj, 300.0)])
        told = story(game, "ball-off-table", seed)
        layout, (obj_id,) = legal_labels(game, layout, [obj_id], told)
        clip = _start(game, "ball-off-table", seed, fps, rng, spec, layout, told)
        call(clip, game, [obj_id])
        speed = rng.uniform(11000.0, 12000.0)
        shot = clip.shot(CUE, heading(cue, g), speed, intent={"object": obj_id})
        ev = clip.events_since(shot)
        off = kinds_of(ev, EventType.OFF_TABLE)
        require(any(e.objects == (obj_id,) and not e.data["returned"] for e in off), "the ball stayed on")
        return _finish(game, clip)

    return attempts(f"{game}/ball-off-table", seed, build)


def _two_ball_pot(game: str, seed: int, fps: float) -> SimResult:
    """The cue ball cuts one ball into a corner and runs on along the tangent to pot a second."""
    spec = _spec()
    kind = physics_for(TABLE).kind("ball")
    r = _r(spec)

    def build(rng: random.Random) -> SimResult:
        right = rng.random() < 0.5
        pair = [h for h in corners(spec) if (h.x > spec.length_mm / 2) == right]
        rng.shuffle(pair)
        p1, p2 = aim_point(pair[0]), aim_point(pair[1])
        centre = ((p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2)
        radius = dist(p1, p2) / 2
        alpha = math.radians(rng.uniform(-22.0, 22.0)) + (math.pi if right else 0.0)
        g1 = add(centre, from_angle(alpha, radius))  # on the Thales circle: P1 and P2 at right angles
        u1 = unit(sub(p1, g1))
        a = add(g1, u1, 2 * r)
        t_line = unit(sub(p2, g1))
        b = add(p2, unit(sub(g1, p2)), rng.uniform(220.0, 380.0))
        g2 = add(b, unit(sub(b, p2)), 2 * r)
        v_a = stroke_for(kind, dist(a, p1), rng.uniform(500.0, 800.0))
        v_b = stroke_for(kind, dist(b, p2), rng.uniform(450.0, 700.0))
        v_hit2 = v_b / transfer(E_BALL, 1, 1)
        need_t = stroke_for(kind, dist(g1, g2), v_hit2, fresh=False)
        need_n = v_a / transfer(E_BALL, 1, 1)
        cut = math.atan2(need_t, need_n)
        if not math.radians(20.0) <= cut <= math.radians(70.0):
            raise IntentNotMet("no cut angle shares the speed between the two balls")
        side = 1.0 if (t_line[0] * u1[1] - t_line[1] * u1[0]) > 0 else -1.0
        t_dir = rotate(t_line, -side * tangent_correction(cut, E_BALL))
        u = (-side * t_dir[1], side * t_dir[0])
        a = add(g1, u, 2 * r)
        d_in = add((math.cos(cut) * u[0], math.cos(cut) * u[1]), t_dir, math.sin(cut))
        cue = add(g1, d_in, -rng.uniform(300.0, 550.0))
        for p in (a, b, cue):
            if not inside(p, spec.length_mm, spec.width_mm, 2.5 * r):
                raise IntentNotMet("the planned balls fall off the bed")
        if dist(a, p1) < 200.0 or dist(g1, g2) < 150.0:
            raise IntentNotMet("balls too close to their pockets")
        ids = [x for x in BALLS[1:] if not (game == "colors" and x == "ball-8")]
        rng.shuffle(ids)
        a_id, b_id = ids[0], ids[1]
        corridors = [(cue, g1, 3 * r), (a, p1, 3 * r), (g1, p2, 3 * r)]
        layout = scatter(rng, spec, {CUE: cue, a_id: a, b_id: b},
                         _game_balls(game, rng, rng.randint(2, 4), (a_id, b_id)), corridors)
        told = story(game, "two-ball-pot", seed)
        if game == "colors":  # a colour's two balls on one stroke: a point
            layout = relabel(layout, [a_id, b_id], [a_id, companion(a_id)])
            b_id = companion(a_id)
        layout, (a_id, b_id) = legal_labels(game, layout, [a_id, b_id], told)
        clip = _start(game, "two-ball-pot", seed, fps, rng, spec, layout, told)
        call(clip, game, [a_id, b_id])
        speed = stroke_for(kind, dist(cue, g1), math.hypot(need_n, need_t))
        shot = clip.shot(CUE, heading(cue, g1), speed,
                         intent={"objects": [a_id, b_id], "pockets": [pair[0].id, pair[1].id]})
        ev = clip.events_since(shot)
        order = [e.objects[0] for e in kinds_of(ev, EventType.POT)]
        require({a_id, b_id} <= set(order) and CUE not in order, f"potted {sorted(order)}")
        # Up and Down: the balls must drop in the order they were called
        require(game != "up-and-down" or order == [a_id, b_id], f"the balls dropped in the order {order}")
        return _finish(game, clip)

    return attempts(f"{game}/two-ball-pot", seed, build)


def pool_scenarios(game: str) -> dict[str, ScenarioInfo]:
    """The pool scenarios for ``game`` (``up-and-down`` or ``colors``), racked as that game starts."""

    def bind(fn: Callable[..., SimResult], **kw: bool) -> Callable[[int, float], SimResult]:
        def run(seed: int, fps: float = 30.0) -> SimResult:
            return fn(game, seed, fps, **kw)

        return run

    return {
        "break": ScenarioInfo("the opening break from the kitchen: four or more object balls reach a rail",
                              bind(_break, hard=True)),
        "break-weak": ScenarioInfo("a soft break: no ball potted and fewer than four reach a rail",
                                   bind(_break, hard=False)),
        "legal-pot": ScenarioInfo("the cue ball cuts an object ball into a corner pocket and stays up",
                                  bind(_legal_pot)),
        "scratch": ScenarioInfo("the cue ball hits an object ball and follows the tangent line into a pocket",
                                bind(_scratch)),
        "miss-short": ScenarioInfo("struck too softly: the cue ball stops before reaching the object ball",
                                   bind(_short)),
        "no-rail": ScenarioInfo("a soft hit: after the contact no ball touches a rail and none is potted",
                                bind(_no_rail)),
        "ball-off-table": ScenarioInfo("an object ball driven hard into a side rail jumps off the table",
                                       bind(_off_table)),
        "two-ball-pot": ScenarioInfo("one stroke pots two object balls in two corner pockets",
                                     bind(_two_ball_pot)),
    }
