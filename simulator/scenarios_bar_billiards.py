"""Bar-billiards scenarios: the shots the 4-pin referee must judge.

Balls: ``red`` and ``white-1``..``white-7``; pins ``pin-200``, ``pin-100``, ``pin-50-left``,
``pin-50-right`` in the spec's colours (black on the 200). Balls not on the table wait in the
trough (``IN_HAND``, drawn nowhere) until a hand places them in the D, as the rules have it.

Pots are planned into the unguarded back row or, for the endgame, off a side cushion past a pin;
every path is checked clear of pins, holes and balls before the shot, and every scenario checks
that the physics did what it promises (a pot, a fallen pin, a ball back in baulk), drawing again
when it did not. ``meta.setup`` says how the table stood at the start (balls on it, in the trough,
pin spots, endgame, the banked scores and a visit's running break) and every clip opens with a
``setup`` input built from it and frame 0, so the referee starts in the same state.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable

from tableref.calibration.spec import Hole, TableSpec, load_table
from tableref.events import EventType, TableEvent
from tableref.simulator.physics import World
from tableref.simulator.physics_aim import (
    Point,
    add,
    angle_between,
    dist,
    from_angle,
    ghost,
    heading,
    segment_distance,
    stroke_for,
    sub,
    transfer,
    unit,
)
from tableref.simulator.physics_clip import (
    Clip,
    IntentNotMet,
    ScenarioInfo,
    attempts,
    kinds_of,
    require,
    sample,
)
from tableref.simulator.physics_params import BodyKind, physics_for
from tableref.simulator.scenarios_inputs import bar_billiards_setup
from tableref.simulator.state import ObjectStatus, SimResult

TABLE = "bar-billiards"
GAME = "bar-billiards"
BALLS = ("red",) + tuple(f"white-{n}" for n in range(1, 8))
BACK_ROW = ("hole-10-left", "hole-20-left", "hole-30", "hole-20-right", "hole-10-right")
E_BALL = 0.94
FOULS = (EventType.PIN_FALL, EventType.BAULK_ENTRY, EventType.OFF_TABLE)


def _spec() -> TableSpec:
    return load_table(TABLE)


def _kind() -> BodyKind:
    return physics_for(TABLE).kind("white")


def _r(spec: TableSpec) -> float:
    return spec.object_radius["white"]


def trough_xy(i: int) -> Point:
    """Where a ball in the trough is kept in the state (off the table at the player's end)."""
    return (-120.0, 160.0 + 60.0 * i)


def kind_of(ball: str) -> str:
    return "red" if ball == "red" else "white"


class Table:
    """The layout a scenario starts from, and the obstacles its shots must clear."""

    def __init__(self, spec: TableSpec, *, endgame: bool = False) -> None:
        self.spec = spec
        self.endgame = endgame
        self.pins: dict[str, Point] = {p.id: (p.x, p.y) for p in spec.pins}
        disabled: list[str] = []
        if endgame:  # scoreboard down over the back row; the 50 pins stand in the 50 holes
            disabled = list(BACK_ROW) + ["hole-50-left", "hole-50-right"]
            for p in spec.pins:
                if p.hole in ("hole-50-left", "hole-50-right"):
                    h = spec.hole(p.hole)
                    self.pins[p.id] = (h.x, h.y)
        self.disabled = tuple(disabled)
        self.holes: list[Hole] = [h for h in spec.holes if h.id not in self.disabled]

    def world(self, rng: random.Random, on_table: dict[str, Point]) -> World:
        w = World(self.spec, physics_for(TABLE), rng, disabled_holes=self.disabled, pin_positions=self.pins)
        for i, b in enumerate(BALLS):
            if b in on_table:
                w.add_object(b, kind_of(b), *on_table[b], label=kind_of(b))
            else:
                w.add_object(b, kind_of(b), *trough_xy(i), label=kind_of(b), status=ObjectStatus.IN_HAND)
        return w

    def clear(self, a: Point, b: Point, balls: dict[str, Point], *, skip: Iterable[str] = (),
              pin_margin: float = 6.0) -> bool:
        """True when a ball rolling from ``a`` to ``b`` misses every pin, hole and ball not in ``skip``."""
        r = _r(self.spec)
        skip = set(skip)
        pin_r = self.spec.pins[0].radius if self.spec.pins else 0.0
        for pid, p in self.pins.items():
            if pid not in skip and segment_distance(p, a, b) < r + pin_r + pin_margin:
                return False
        for h in self.holes:
            if h.id not in skip and segment_distance((h.x, h.y), a, b) < h.radius + 6.0:
                return False
        return all(bid in skip or segment_distance(p, a, b) >= 2 * r + 4.0 for bid, p in balls.items())

    def in_play_spot(self, p: Point, balls: dict[str, Point]) -> bool:
        """A resting spot for a ball in play: past baulk, off holes and pins, clear of other balls."""
        r = _r(self.spec)
        if not (self.spec.baulk_x or 0.0) + r + 40.0 <= p[0] <= self.spec.length_mm - 2 * r:
            return False
        if not 2 * r <= p[1] <= self.spec.width_mm - 2 * r:
            return False
        if any(dist(p, (h.x, h.y)) < h.radius + r + 15.0 for h in self.holes):
            return False
        if any(dist(p, q) < r + 30.0 for q in self.pins.values()):
            return False
        return all(dist(p, q) >= 3 * r for q in balls.values())


def d_point(spec: TableSpec, rng: random.Random, margin: float = 4.0) -> Point:
    """A random spot for a ball's centre inside the D."""
    assert spec.d_centre is not None and spec.d_radius is not None
    cx, cy = spec.d_centre
    while True:
        a = rng.uniform(math.pi / 2, 3 * math.pi / 2)
        rad = (spec.d_radius - margin) * math.sqrt(rng.random())
        p = (cx + rad * math.cos(a), cy + rad * math.sin(a))
        if p[0] <= cx - margin:
            return p


def plan_pot(table: Table, cue: Point, obj: Point, hole: Hole, balls: dict[str, Point], cue_id: str, obj_id: str,
             arrive: float) -> tuple[float, float, Point]:
    """Angle and stroke speed that send ``obj`` into ``hole`` arriving at ``arrive`` mm/s, and the ghost point."""
    r = _r(table.spec)
    aim = (hole.x, hole.y)
    g = ghost(obj, aim, 2 * r)
    cut = angle_between(sub(g, cue), sub(aim, obj))
    if cut > math.radians(45.0):
        raise IntentNotMet("cut too thin")
    if not table.clear(cue, g, balls, skip=(cue_id, obj_id)):
        raise IntentNotMet("the cue ball's path is blocked")
    if not table.clear(obj, aim, balls, skip=(obj_id, hole.id, cue_id)):
        raise IntentNotMet("the object ball's path is blocked")
    v_obj = stroke_for(_kind(), dist(obj, aim), arrive)
    v_hit = v_obj / (transfer(E_BALL, 1, 1) * math.cos(cut))
    return heading(cue, g), stroke_for(_kind(), dist(cue, g), v_hit), g


def find_pot(table: Table, rng: random.Random, cue: Point | None, balls: dict[str, Point], cue_id: str,
             targets: Iterable[str], arrive: tuple[float, float] = (300.0, 600.0), tries: int = 60,
             ) -> tuple[Point, str, str, float, float]:
    """Search cue spots in the D, object balls and back-row holes for a clear pot; first found wins."""
    targets = list(targets)
    holes = [h for h in table.holes if h.id in BACK_ROW]
    for _ in range(tries):
        c = cue if cue is not None else d_point(table.spec, rng)
        obj_id = rng.choice(targets)
        hole = rng.choice(holes)
        try:
            angle, speed, _ = plan_pot(table, c, balls[obj_id], hole, balls, cue_id, obj_id, rng.uniform(*arrive))
        except IntentNotMet:
            continue
        return c, obj_id, hole.id, angle, speed
    raise IntentNotMet("no clear pot from the D")


#: scenarios whose clip opens a visit already under way (a running break the shot can lose)
RUNNING_BREAK = ("miss", "return-to-baulk", "white-pin-falls", "black-pin-falls", "pin-nudged",
                 "ball-leaves-table", "ball-returns")


def story(name: str, seed: int, last_ball: str | None = None) -> dict[str, object]:
    """Where the frame stands when the clip starts: the banked scores and the running break.

    Drawn from a generator of its own so the story never moves the layout's draws. A break-off
    starts a frame (nothing banked); every other clip is a frame in progress with points on the
    board, so a foul that wipes the score (the black pin) or loses the break visibly costs
    something, and an overrule visibly gives it back. In the endgame (bar down, ``last_ball`` the
    one ball left in the trough) the scores stay within the margin, so the endgame starts at once.
    """
    if name == "break-off":
        return {}
    rng = random.Random(f"bar-billiards/{name}/{seed}/story")
    home = 10 * rng.randint(20, 180)
    if last_ball is not None:
        margin = 400 if last_ball == "red" else 200
        away = max(0, home + 10 * rng.randint(-margin // 10 + 1, margin // 10 - 1))
        return {"scores": {"home": home, "away": away}, "trough": {kind_of(last_ball): 1}}
    out: dict[str, object] = {"scores": {"home": home, "away": 10 * rng.randint(20, 180)}}
    if name in RUNNING_BREAK:
        out["break"] = 10 * rng.randint(2, 30)
    return out


def start(name: str, seed: int, fps: float, rng: random.Random, table: Table, layout: dict[str, Point],
          last_ball: str | None = None) -> Clip:
    world = table.world(rng, layout)
    clip = Clip(game=GAME, scenario=name, seed=seed, fps=fps, spec=table.spec, world=world, rng=rng,
                player_side="low-x")
    clip.meta["setup"] = {
        "on_table": {k: [round(v[0], 1), round(v[1], 1)] for k, v in layout.items()},
        "in_trough": [b for b in BALLS if b not in layout and (last_ball is None or b == last_ball)],
        "pins": {k: [round(v[0], 1), round(v[1], 1)] for k, v in table.pins.items()},
        "pin_colours": {p.id: p.colour for p in table.spec.pins},
        "endgame": table.endgame,
        **story(name, seed, last_ball),
    }
    clip.opening = bar_billiards_setup
    clip.wait(rng.uniform(0.9, 1.5))  # a still table first: calibration and trackers settle
    return clip


def on_table(clip: Clip) -> dict[str, Point]:
    w = clip.world
    return {b: w.position(b) for b in BALLS if w.status(b) is ObjectStatus.ON_TABLE}


def fouls(events: list[TableEvent]) -> list[TableEvent]:
    return [e for e in events if e.type in FOULS]


def random_spot(table: Table, rng: random.Random, balls: dict[str, Point], x: tuple[float, float],
                y: tuple[float, float]) -> Point:
    for _ in range(200):
        p = (rng.uniform(*x), rng.uniform(*y))
        if table.in_play_spot(p, balls):
            return p
    raise IntentNotMet("no free spot")


# -- scenarios ------------------------------------------------------------------------------------

def break_off(seed: int, fps: float = 30.0) -> SimResult:
    """Break-off: red on its spot, a white in the centre of the D, the white plays the red into a hole."""
    spec = _spec()

    def build(rng: random.Random) -> SimResult:
        table = Table(spec)
        assert spec.d_centre is not None
        red, white = spec.spots["red"], spec.d_centre
        balls = {"red": red, "white-1": white}
        c, obj, hole, angle, speed = find_pot(table, rng, white, balls, "white-1", ["red"], (350.0, 650.0))
        clip = start("break-off", seed, fps, rng, table, {})
        clip.place("red", red)
        clip.place("white-1", white)
        shot = clip.shot("white-1", angle, speed, intent={"object": "red", "hole": hole, "break_off": True})
        ev = clip.events_since(shot)
        first = next((e for e in ev if e.type is EventType.CONTACT), None)
        require(first is not None and first.objects == ("white-1", "red"), "the white did not hit the red first")
        require(any(e.type is EventType.POT and e.objects == ("red",) and e.where == hole for e in ev), "red not potted")
        require(not fouls(ev), f"fouls: {fouls(ev)}")
        return clip.result(table=TABLE)

    return attempts("bar-billiards/break-off", seed, build)


def potting_visit(seed: int, fps: float = 30.0) -> SimResult:
    """A visit of two pots: the red, then a white, are taken from the trough and played from the D."""
    spec = _spec()

    def build(rng: random.Random) -> SimResult:
        table = Table(spec)
        balls: dict[str, Point] = {}
        for b in ("white-1", "white-2"):
            balls[b] = random_spot(table, rng, balls, (650.0, 1150.0), (60.0, 700.0))
        c1, obj1, hole1, angle1, speed1 = find_pot(table, rng, None, balls, "red", list(balls))
        clip = start("potting-visit", seed, fps, rng, table, balls)
        clip.place("red", c1, data={"from": "trough"})
        s1 = clip.shot("red", angle1, speed1, intent={"object": obj1, "hole": hole1})
        ev = clip.events_since(s1)
        require(any(e.type is EventType.POT and e.objects == (obj1,) for e in ev), f"{obj1} not potted")
        require(not fouls(ev) and clip.world.status("red") is ObjectStatus.ON_TABLE, "first shot fouled")
        now = on_table(clip)
        nxt = "white-3"
        c2, obj2, hole2, angle2, speed2 = find_pot(table, rng, None, now, nxt, list(now))
        clip.place(nxt, c2, data={"from": "trough"})
        s2 = clip.shot(nxt, angle2, speed2, intent={"object": obj2, "hole": hole2})
        ev = clip.events_since(s2)
        require(any(e.type is EventType.POT and e.objects == (obj2,) for e in ev), f"{obj2} not potted")
        require(not fouls(ev), "second shot fouled")
        return clip.result(table=TABLE)

    return attempts("bar-billiards/potting-visit", seed, build)


def miss(seed: int, fps: float = 30.0) -> SimResult:
    """A miss: the ball played from the D touches no ball on the table."""
    spec = _spec()
    r = _r(spec)

    def build(rng: random.Random) -> SimResult:
        table = Table(spec)
        balls = {"red": random_spot(table, rng, {}, (700.0, 1100.0), (150.0, 612.0))}
        c = d_point(spec, rng)
        towards = heading(c, balls["red"])
        angle = towards + rng.choice((-1.0, 1.0)) * math.radians(rng.uniform(12.0, 22.0))
        travel = rng.uniform(500.0, 800.0)
        end = add(c, from_angle(angle, travel))
        if not (2 * r <= end[1] <= spec.width_mm - 2 * r) or not table.clear(c, end, balls, skip=("white-1",)):
            raise IntentNotMet("the miss would touch something")
        clip = start("miss", seed, fps, rng, table, balls)
        clip.place("white-1", c, data={"from": "trough"})
        shot = clip.shot("white-1", angle, stroke_for(_kind(), travel, 0.0), intent={"object": None, "miss": True})
        ev = clip.events_since(shot)
        require(not kinds_of(ev, EventType.CONTACT) and not kinds_of(ev, EventType.POT) and not fouls(ev),
                "the miss touched something")
        return clip.result(table=TABLE)

    return attempts("bar-billiards/miss", seed, build)


def return_to_baulk(seed: int, fps: float = 30.0) -> SimResult:
    """A white runs up the side, off the scoreboard and back into baulk; the referee takes it out."""
    spec = _spec()
    r = _r(spec)
    kind = _kind()
    baulk = spec.baulk_x or 305.0

    def build(rng: random.Random) -> SimResult:
        table = Table(spec)
        top = rng.random() < 0.5
        lane = rng.uniform(52.0, 58.0)
        obj = (rng.uniform(750.0, 1000.0), lane if top else spec.width_mm - lane)
        balls = {"white-1": obj}
        g = (obj[0] - 2 * r, obj[1])
        end_x = spec.length_mm - r
        if not table.clear(obj, (end_x, obj[1]), balls, skip=("white-1",)):
            raise IntentNotMet("the lane up the side is blocked")
        c = d_point(spec, rng)
        cut = angle_between(sub(g, c), (1.0, 0.0))
        if cut > math.radians(32.0) or not table.clear(c, g, balls, skip=("red", "white-1")):
            raise IntentNotMet("no clean cut up the side")
        v_back = stroke_for(kind, end_x - (baulk + r) + 30.0, rng.uniform(120.0, 260.0), fresh=False)
        v_board = v_back / physics_for(TABLE).cushion_elasticity / math.sqrt(E_BALL)
        v_obj = stroke_for(kind, end_x - obj[0], v_board)
        v_hit = v_obj / (transfer(E_BALL, 1, 1) * math.cos(cut))
        speed = stroke_for(kind, dist(c, g), v_hit)
        if speed > physics_for(TABLE).max_shot_speed:
            raise IntentNotMet("too hard a stroke")
        clip = start("return-to-baulk", seed, fps, rng, table, balls)
        clip.place("red", c, data={"from": "trough"})
        shot = clip.shot("red", heading(c, g), speed, intent={"object": "white-1"})
        ev = clip.events_since(shot)
        require(any(e.type is EventType.BAULK_ENTRY and e.objects == ("white-1",) for e in ev), "no return")
        require(not kinds_of(ev, EventType.PIN_FALL) and not kinds_of(ev, EventType.OFF_TABLE), "other fouls")
        require(any(e.type is EventType.CUSHION and e.where == "scoreboard" for e in ev), "never reached the end")
        for b, p in on_table(clip).items():  # balls at rest in baulk go back to the trough
            if spec.in_baulk(p[0], r):
                clip.remove(b, data={"to": "trough"})
        return clip.result(table=TABLE)

    return attempts("bar-billiards/return-to-baulk", seed, build)


def _pin_hit(name: str, pin_id: str, hard: bool, seed: int, fps: float) -> SimResult:
    spec = _spec()
    r = _r(spec)
    kind = _kind()
    pin = next(p for p in spec.pins if p.id == pin_id)

    def build(rng: random.Random) -> SimResult:
        table = Table(spec)

        def layout() -> tuple[dict[str, Point], Point, Point, float]:
            contact = r + pin.radius
            approach = math.pi + math.radians(rng.uniform(-55.0, 55.0))  # from the baulk side
            hit_at = add((pin.x, pin.y), from_angle(approach, contact))
            hit_at = add(hit_at, from_angle(approach + math.pi / 2, rng.uniform(-4.0, 4.0)))
            obj = add(hit_at, from_angle(approach, rng.uniform(250.0, 600.0)))
            if not table.in_play_spot(obj, {}):
                raise IntentNotMet("object ball spot not in play")
            balls = {"white-1": obj}
            if not table.clear(obj, hit_at, balls, skip=("white-1", pin_id)):
                raise IntentNotMet("the path to the pin crosses a hole or another pin")
            c = d_point(spec, rng)
            g = add(obj, unit(sub(obj, hit_at)), 2 * r)
            cut = angle_between(sub(g, c), sub(hit_at, obj))
            if cut > math.radians(30.0) or not table.clear(c, g, balls, skip=("red", "white-1")):
                raise IntentNotMet("no clean line from the D")
            arrive = rng.uniform(650.0, 1000.0) if hard else rng.uniform(100.0, 170.0)
            v_obj = stroke_for(kind, dist(obj, hit_at), arrive)
            return balls, c, g, stroke_for(kind, dist(c, g), v_obj / (transfer(E_BALL, 1, 1) * math.cos(cut)))

        balls, c, g, speed = sample(layout)
        clip = start(name, seed, fps, rng, table, balls)
        clip.place("red", c, data={"from": "trough"})
        shot = clip.shot("red", heading(c, g), speed, intent={"object": "white-1", "pin": pin_id})
        ev = clip.events_since(shot)
        fell = [e for e in kinds_of(ev, EventType.PIN_FALL)]
        if hard:
            require([e.objects for e in fell] == [(pin_id,)], f"pins fallen: {fell}")
        else:
            require(not fell and any(e.type is EventType.PIN_MOVED and e.objects == (pin_id,) for e in ev),
                    "the pin did not move and stand")
        require(not kinds_of(ev, EventType.BAULK_ENTRY) and not kinds_of(ev, EventType.OFF_TABLE), "other fouls")
        return clip.result(table=TABLE)

    return attempts(f"bar-billiards/{name}", seed, build)


def _leaves(name: str, returns: bool, seed: int, fps: float) -> SimResult:
    spec = _spec()
    r = _r(spec)
    ph = physics_for(TABLE)

    def build(rng: random.Random) -> SimResult:
        table = Table(spec)
        bottom = rng.random() < 0.5
        c = d_point(spec, rng)
        toward = math.radians(rng.uniform(58.0, 72.0)) * (1.0 if bottom else -1.0)
        gap = rng.uniform(40.0, 80.0)  # from the object ball's edge to the cushion
        wall = spec.width_mm if bottom else 0.0
        obj_y = wall - (r + gap) if bottom else r + gap
        g_y = obj_y - 2 * r * math.sin(toward)
        g = (c[0] + (g_y - c[1]) / math.tan(toward), g_y)
        obj = add(g, from_angle(toward, 2 * r))
        balls = {"white-1": obj}
        if not table.in_play_spot(obj, {}) or not table.clear(c, g, balls, skip=("red", "white-1")):
            raise IntentNotMet("no room by the cushion")
        normal = rng.uniform(5850.0, 6150.0) if returns else rng.uniform(6900.0, 7600.0)
        v_obj = normal / math.sin(abs(toward))
        v_hit = v_obj / transfer(E_BALL, 1, 1)
        speed = stroke_for(_kind(), dist(c, g), v_hit) * 1.004
        if speed > ph.max_shot_speed:
            raise IntentNotMet("too hard a stroke")
        clip = start(name, seed, fps, rng, table, balls)
        clip.place("red", c, data={"from": "trough"})
        shot = clip.shot("red", toward, speed, intent={"object": "white-1"})
        ev = clip.events_since(shot)
        off = [e for e in kinds_of(ev, EventType.OFF_TABLE) if e.objects == ("white-1",)]
        require(len(off) == 1 and bool(off[0].data["returned"]) == returns, f"off-table events: {off}")
        require(not kinds_of(ev, EventType.PIN_FALL) and not kinds_of(ev, EventType.BAULK_ENTRY), "other fouls")
        return clip.result(table=TABLE)

    return attempts(f"bar-billiards/{name}", seed, build, tries=30)


def endgame(seed: int, fps: float = 30.0) -> SimResult:
    """Endgame: the last ball, from the centre of the D, doubles off a side cushion into the 100 or 200."""
    spec = _spec()
    r = _r(spec)
    kind = _kind()
    ph = physics_for(TABLE)
    e_cushion = ph.cushion_elasticity * math.sqrt(E_BALL)

    def build(rng: random.Random) -> SimResult:
        table = Table(spec, endgame=True)
        assert spec.d_centre is not None
        start_at = spec.d_centre
        hole = spec.hole(rng.choice(("hole-100", "hole-200")))
        pin = table.pins["pin-" + hole.id.removeprefix("hole-")]
        bottom = rng.random() < 0.5
        wall = spec.width_mm - r if bottom else r
        ball = rng.choice(BALLS)

        def line(angle: float) -> tuple[Point, Point, float]:
            """Bounce point, direction after the bounce, and signed miss of the hole centre."""
            d = from_angle(angle)
            k = (wall - start_at[1]) / d[1]
            bounce = add(start_at, d, k)
            out = unit((d[0], -e_cushion * d[1]))
            rel = sub((hole.x, hole.y), bounce)
            return bounce, out, rel[0] * out[1] - rel[1] * out[0]

        sign = 1.0 if bottom else -1.0

        def aim_for(pass_by: float) -> float:
            """The stroke angle whose line after the bounce passes ``pass_by`` mm from the hole centre."""
            lo, hi = math.radians(15.0) * sign, math.radians(75.0) * sign
            for _ in range(60):
                mid = 0.5 * (lo + hi)
                if (line(mid)[2] - pass_by) * (line(lo)[2] - pass_by) <= 0:
                    hi = mid
                else:
                    lo = mid
            return 0.5 * (lo + hi)

        def pin_side(angle: float) -> float:
            bounce, out, _ = line(angle)
            rel = sub(pin, bounce)
            return rel[0] * out[1] - rel[1] * out[0]

        clearance = r + 11.0 + 5.0
        c0 = pin_side(aim_for(0.0)) - line(aim_for(0.0))[2]  # the pin, relative to a line through the hole
        low = max(2.0, clearance - abs(c0) + 2.0)
        if low > 24.0:
            raise IntentNotMet("no line past the pin reaches the hole")
        angle = aim_for(math.copysign(rng.uniform(low, 24.0), c0))
        bounce, out, miss = line(angle)
        if abs(pin_side(angle)) < clearance or abs(miss) > 25.0:
            raise IntentNotMet("the bank line clips the pin")
        end = add(bounce, out, dist(bounce, (hole.x, hole.y)))
        if not table.clear(start_at, bounce, {}) or not table.clear(bounce, end, {}, skip=(hole.id,)):
            raise IntentNotMet("the bank line crosses another hole or pin")
        d_in = from_angle(angle)
        keep = math.hypot(d_in[0], e_cushion * d_in[1])
        v_after = stroke_for(kind, dist(bounce, (hole.x, hole.y)), rng.uniform(250.0, 450.0), fresh=False)
        speed = stroke_for(kind, dist(start_at, bounce), v_after / keep)
        clip = start("endgame", seed, fps, rng, table, {}, last_ball=ball)
        clip.place(ball, start_at, data={"from": "trough"})
        shot = clip.shot(ball, angle, speed, intent={"object": None, "hole": hole.id, "endgame": True})
        ev = clip.events_since(shot)
        cushions = kinds_of(ev, EventType.CUSHION)
        pots = kinds_of(ev, EventType.POT)
        require(bool(cushions) and cushions[0].where in ("cushion-top", "cushion-bottom"), "no side cushion first")
        require([e.where for e in pots] == [hole.id], f"pots: {pots}")
        require(not kinds_of(ev, EventType.PIN_FALL), "a pin fell")
        return clip.result(table=TABLE)

    return attempts("bar-billiards/endgame", seed, build, tries=30)


def bar_billiards_scenarios() -> dict[str, ScenarioInfo]:
    def bind(fn: Callable[..., SimResult], *args: object) -> Callable[[int, float], SimResult]:
        def run(seed: int, fps: float = 30.0) -> SimResult:
            return fn(*args, seed, fps)

        return run

    return {
        "break-off": ScenarioInfo("break-off from the centre of the D: the white pots the red", break_off),
        "potting-visit": ScenarioInfo("two pots in a visit, the red then a white taken from the trough into the D",
                                      potting_visit),
        "miss": ScenarioInfo("a ball played from the D touches no ball (a miss)", miss),
        "return-to-baulk": ScenarioInfo("a white runs off the scoreboard back into baulk and is taken out",
                                        return_to_baulk),
        "white-pin-falls": ScenarioInfo("an object ball knocks a white 50 pin over",
                                        bind(_pin_hit, "white-pin-falls", "pin-50-left", True)),
        "black-pin-falls": ScenarioInfo("an object ball knocks the black pin (guarding the 200) over",
                                        bind(_pin_hit, "black-pin-falls", "pin-200", True)),
        "pin-nudged": ScenarioInfo("a slow ball nudges the 100 pin: it slides a little and stands",
                                   bind(_pin_hit, "pin-nudged", "pin-100", False)),
        "ball-leaves-table": ScenarioInfo("a white driven into a side cushion jumps it and leaves the table",
                                          bind(_leaves, "ball-leaves-table", False)),
        "ball-returns": ScenarioInfo("a white jumps onto the rail top and rolls back onto the bed by itself",
                                     bind(_leaves, "ball-returns", True)),
        "endgame": ScenarioInfo("endgame: the last ball, from the centre of the D, doubles off a side cushion "
                                "into the 100 or 200", endgame),
    }
