"""Carrom scenarios: the strikes the Carroms referee must judge.

Pieces ``white-1``..``white-9``, ``black-1``..``black-9``, ``queen`` and the ``striker``, each
with its own mass and friction (:mod:`simulator.physics_params`). The first player sits south
(high ``y``) and plays the whites; each strike starts with the striker placed on the south
baselines (touching both lines) and a flick of the finger (the cue state's ``kind`` is ``hand``),
and the striker must cross the front baseline (``baseline_cross``).

The break uses the rule book's set-up: the queen in the centre, six pieces touching her and
twelve around them, colours alternating, with the queen, an inner white and an outer white in
a line pointing at the first player. Other scenarios start from a game in progress, listed in
``meta.setup`` (pieces on the board and already pocketed, the match totals, and who covered the
queen when she is already off the board); every clip opens with a ``setup`` input built from it and
frame 0, so the referee starts where the clip starts. A game in progress always leaves the shooter
a second white and the opponent a black (a board with either side cleared would be over), and the
striker stands clear of the end circles, touching both baselines (Striking.1-3).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable

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
    rotate,
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
from tableref.simulator.physics_params import physics_for
from tableref.simulator.scenarios_inputs import carrom_setup
from tableref.simulator.state import ObjectStatus, SimResult

TABLE = "carrom"
GAME = "carroms"
WHITES = tuple(f"white-{n}" for n in range(1, 10))
BLACKS = tuple(f"black-{n}" for n in range(1, 10))
PIECES = WHITES + BLACKS + ("queen",)
E_PIECE = 0.85
SEAT = "south"


def _spec() -> TableSpec:
    return load_table(TABLE)


def kind_of(piece: str) -> str:
    return piece.split("-")[0]


def baseline_y(spec: TableSpec) -> float:
    b = next(b for b in spec.baselines if b.seat == SEAT)
    return (b.front[0][1] + b.back[0][1]) / 2.0


#: the striker stays this far clear of an end circle (a striker overlapping one "cuts the moon", Striking.3)
MOON_CLEARANCE_MM = 1.5


def baseline_x_range(spec: TableSpec) -> tuple[float, float]:
    """Where the striker's centre may stand on the south baselines: between the end circles, clear of both.

    The circles' centres sit at the lines' ends, midway between the front and the back line; a
    striker whose edge reaches into a circle without covering it cuts the moon (a foul).
    """
    b = next(b for b in spec.baselines if b.seat == SEAT)
    clear = b.circle_radius + spec.object_radius["striker"] + MOON_CLEARANCE_MM
    return (b.front[0][0] + clear, b.front[1][0] - clear)


def set_up(spec: TableSpec, rng: random.Random) -> dict[str, Point]:
    """The opening circle: queen, six touching her, twelve around them, whites lined up to the south."""
    cx, cy = spec.spots["centre"]
    d = 2.0 * spec.object_radius["white"] + 0.4
    whites, blacks = list(WHITES), list(BLACKS)
    rng.shuffle(whites)
    rng.shuffle(blacks)
    out: dict[str, Point] = {"queen": (cx, cy)}
    south = math.pi / 2  # +y points at the south player
    for k in range(6):
        a = south + k * math.pi / 3
        out[(whites if k % 2 == 0 else blacks).pop()] = (cx + d * math.cos(a), cy + d * math.sin(a))
        out[whites.pop()] = (cx + 2 * d * math.cos(a), cy + 2 * d * math.sin(a))
        b = a + math.pi / 6
        out[blacks.pop()] = (cx + math.sqrt(3.0) * d * math.cos(b), cy + math.sqrt(3.0) * d * math.sin(b))
    return {k: (x + rng.uniform(-0.1, 0.1), y + rng.uniform(-0.1, 0.1)) for k, (x, y) in out.items()}


def new_world(spec: TableSpec, rng: random.Random, layout: dict[str, Point], pocketed: Iterable[str]) -> World:
    w = World(spec, physics_for(TABLE), rng)
    pocketed = set(pocketed)
    pockets = [h.id for h in spec.holes]
    for n, p in enumerate(PIECES):
        if p in layout:
            w.add_object(p, kind_of(p), *layout[p], label=kind_of(p))
        elif p in pocketed:
            h = spec.hole(pockets[n % len(pockets)])
            w.add_object(p, kind_of(p), h.x, h.y, label=kind_of(p), status=ObjectStatus.IN_HOLE, hole=h.id)
        else:
            raise ValueError(f"{p} is neither on the board nor pocketed")
    w.add_object("striker", "striker", spec.length_mm / 2, spec.width_mm + 120.0, label="striker",
                 status=ObjectStatus.IN_HAND)
    return w


OPPONENT = "north"


def on_board(layout: dict[str, Point], colour: str) -> int:
    return sum(kind_of(p) == colour for p in layout)


def require_game_on(layout: dict[str, Point], whites: int = 2) -> None:
    """A board in progress that a strike cannot end by itself: the shooter keeps ``whites`` pieces, the opponent one.

    A board with no black piece (or only the shooter's last white) would be over, or the strike
    would pocket the last white before the queen is covered (a foul): neither is what the
    scenario shows.
    """
    require(on_board(layout, "white") >= whites, "the shooter has too few pieces on the board")
    require(on_board(layout, "black") >= 1, "the opponent has no piece on the board: the board would be over")


def story(name: str, seed: int, layout: dict[str, Point]) -> dict[str, object]:
    """The board's past, from a generator of its own (it never moves a piece): the match totals, and
    who covered the queen when she is not on the board (a side with at least two own pieces pocketed:
    one before the queen, Queen.1, and the cover)."""
    if name == "break":
        return {}
    rng = random.Random(f"carroms/{name}/{seed}/story")
    out: dict[str, object] = {"scores": {SEAT: rng.randint(0, 20), OPPONENT: rng.randint(0, 20)}}
    if "queen" not in layout:
        sides = [seat for seat, colour in ((SEAT, "white"), (OPPONENT, "black")) if on_board(layout, colour) <= 7]
        if not sides:
            raise IntentNotMet("the queen is down but no side has pocketed two pieces to cover her")
        out["queen"] = {"covered_by": rng.choice(sides)}
    return out


def start(name: str, seed: int, fps: float, rng: random.Random, spec: TableSpec, layout: dict[str, Point],
          striker_at: Point) -> Clip:
    pocketed = [p for p in PIECES if p not in layout]
    told = story(name, seed, layout)
    world = new_world(spec, rng, layout, pocketed)
    clip = Clip(game=GAME, scenario=name, seed=seed, fps=fps, spec=spec, world=world, rng=rng, player_side="high-y")
    clip.meta["setup"] = {"on_board": {k: [round(v[0], 1), round(v[1], 1)] for k, v in layout.items()},
                          "pocketed": pocketed, "shooter": SEAT, "shooter_colour": "white", **told}
    clip.opening = carrom_setup
    clip.wait(rng.uniform(0.9, 1.5))  # a still table first: calibration and trackers settle
    clip.place("striker", striker_at)
    return clip


def top_pockets(spec: TableSpec) -> list[Hole]:
    return [h for h in spec.holes if h.y < spec.width_mm / 2]


def scatter(rng: random.Random, spec: TableSpec, fixed: dict[str, Point], ids: Iterable[str],
            lanes: list[tuple[Point, Point, float]]) -> dict[str, Point]:
    """Pieces at random on the board, clear of the lanes, the pockets, the baseline and each other."""
    r = spec.object_radius["white"]
    out = dict(fixed)
    for p in ids:
        for _ in range(300):
            q = (rng.uniform(3 * r, spec.length_mm - 3 * r), rng.uniform(3 * r, spec.width_mm - 3 * r))
            if q[1] > 560.0:  # keep the shooter's baseline area free
                continue
            if any(dist(q, (h.x, h.y)) < 70.0 for h in spec.holes):
                continue
            if any(dist(q, o) < 2.6 * r for o in out.values()):
                continue
            if any(segment_distance(q, a, b) < w for a, b, w in lanes):
                continue
            out[p] = q
            break
        else:
            raise IntentNotMet(f"no room for {p}")
    return out


def plan(spec: TableSpec, striker: Point, obj: Point, target: Point) -> tuple[float, Point]:
    """Cut angle and ghost point for the striker to send ``obj`` at ``target``."""
    rs, rp = spec.object_radius["striker"], spec.object_radius["white"]
    g = ghost(obj, target, rs + rp)
    return angle_between(sub(g, striker), sub(target, obj)), g


def strike_speed(spec: TableSpec, striker: Point, g: Point, obj: Point, target: Point, cut: float,
                 arrive: float, other: str = "white") -> float:
    ph = physics_for(TABLE)
    piece, stk = ph.kind(other), ph.kind("striker")
    v_obj = stroke_for(piece, dist(obj, target), arrive)
    v_hit = v_obj / (transfer(E_PIECE, stk.mass, piece.mass) * math.cos(cut))
    return stroke_for(stk, dist(striker, g), v_hit)


def clean(events: list[TableEvent]) -> bool:
    """No striker in a pocket and nothing off the board."""
    return not any(e.type is EventType.POT and e.objects == ("striker",) for e in events) and not kinds_of(
        events, EventType.OFF_TABLE)


def _pot_layout(rng: random.Random, spec: TableSpec, target_id: str, others: list[str],
                taken: dict[str, Point] | None = None) -> tuple[dict[str, Point], Point, float, float, str]:
    """A piece ``target_id`` placed for a clean cut into a top pocket from the south baseline."""
    r = spec.object_radius["white"]
    rs = spec.object_radius["striker"]
    pocket = rng.choice(top_pockets(spec))
    aim = (pocket.x, pocket.y)
    y0 = baseline_y(spec)
    x_lo, x_hi = baseline_x_range(spec)

    def draw() -> tuple[Point, Point, float, Point]:
        axis = heading(aim, (spec.length_mm / 2, spec.width_mm / 2)) + math.radians(rng.uniform(-20.0, 20.0))
        obj = add(aim, from_angle(axis, rng.uniform(160.0, 380.0)))
        s = (rng.uniform(x_lo, x_hi), y0)
        cut, g = plan(spec, s, obj, aim)
        if not math.radians(12.0) <= cut <= math.radians(35.0):
            raise IntentNotMet("cut out of range")
        for q in (taken or {}).values():
            if (dist(obj, q) < 3 * r or segment_distance(q, s, g) < rs + r + 6.0
                    or segment_distance(q, obj, aim) < 2 * r + 6.0):
                raise IntentNotMet("spot taken or lane blocked")
        return obj, s, cut, g

    obj, s, cut, g = sample(draw)
    lanes = [(s, g, rs + r + 6.0), (obj, aim, 2 * r + 6.0)]
    layout = scatter(rng, spec, {**(taken or {}), target_id: obj}, others, lanes)
    speed = strike_speed(spec, s, g, obj, aim, cut, rng.uniform(350.0, 800.0), kind_of(target_id))
    return layout, s, heading(s, g), speed, pocket.id


# -- scenarios ------------------------------------------------------------------------------------

def carrom_break(seed: int, fps: float = 30.0) -> SimResult:
    """The opening break: the striker from the south baseline into the circle of pieces."""
    spec = _spec()

    def build(rng: random.Random) -> SimResult:
        layout = set_up(spec, rng)
        x_lo, x_hi = baseline_x_range(spec)
        s = (rng.uniform(x_lo + 60.0, x_hi - 60.0), baseline_y(spec))
        target = add(spec.spots["centre"], (rng.uniform(-8.0, 8.0), 0.0))
        clip = start("break", seed, fps, rng, spec, layout, s)
        shot = clip.shot("striker", heading(s, target), rng.uniform(4500.0, 6000.0), kind="hand", seat=SEAT,
                         intent={"break": True})
        ev = clip.events_since(shot)
        require(any(e.type is EventType.CONTACT and "striker" in e.objects for e in ev), "the break missed")
        require(any(e.type is EventType.BASELINE_CROSS for e in ev), "the striker never crossed the baseline")
        require(clean(ev), "the striker was pocketed or a piece left the board")
        return clip.result(table=TABLE)

    return attempts("carroms/break", seed, build)


def carrom_pot(seed: int, fps: float = 30.0) -> SimResult:
    """A white cut into a top pocket; the striker stays on the board."""
    spec = _spec()

    def build(rng: random.Random) -> SimResult:
        target = rng.choice(WHITES)
        others = rng.sample([p for p in PIECES if p != target], rng.randint(5, 10))
        layout, s, angle, speed, pocket = _pot_layout(rng, spec, target, others)
        require_game_on(layout)
        clip = start("pot", seed, fps, rng, spec, layout, s)
        shot = clip.shot("striker", angle, speed, kind="hand", seat=SEAT, intent={"object": target, "pocket": pocket})
        ev = clip.events_since(shot)
        require(any(e.type is EventType.POT and e.objects == (target,) and e.where == pocket for e in ev), "no pot")
        require(clean(ev), "due or off the board")
        return clip.result(table=TABLE)

    return attempts("carroms/pot", seed, build)


def striker_pocketed(seed: int, fps: float = 30.0) -> SimResult:
    """A due: the striker cuts a piece and runs on into a top pocket."""
    spec = _spec()
    ph = physics_for(TABLE)
    stk, piece = ph.kind("striker"), ph.kind("white")
    r, rs = spec.object_radius["white"], spec.object_radius["striker"]
    keep_n = (stk.mass - E_PIECE * piece.mass) / (stk.mass + piece.mass)  # striker's normal speed kept

    def build(rng: random.Random) -> SimResult:
        y0 = baseline_y(spec)
        x_lo, x_hi = baseline_x_range(spec)

        def draw() -> tuple[Point, Point, Point, float, str]:
            pocket = rng.choice(top_pockets(spec))
            aim = (pocket.x, pocket.y)
            g = (rng.uniform(90.0, spec.length_mm - 90.0), rng.uniform(130.0, 480.0))
            if dist(g, aim) < 180.0:
                raise IntentNotMet("too near the pocket")
            cut = math.radians(rng.uniform(30.0, 55.0))
            side = rng.choice((-1.0, 1.0))
            exit_dir = unit(sub(aim, g))
            turn = math.atan2(math.sin(cut), keep_n * math.cos(cut))  # exit direction, from the line of centres
            n = rotate(exit_dir, -side * turn)
            t = rotate(n, side * math.pi / 2)
            d_in = add((math.cos(cut) * n[0], math.cos(cut) * n[1]), t, math.sin(cut))
            if d_in[1] >= -0.2:
                raise IntentNotMet("the striker would not travel up the board")
            k = (g[1] - y0) / d_in[1]
            s = (g[0] - k * d_in[0], y0)
            if not x_lo <= s[0] <= x_hi or k < 0:
                raise IntentNotMet("no baseline spot for that line")
            obj = add(g, n, rs + r)
            if obj[1] > 540.0 or not (3 * r < obj[0] < spec.length_mm - 3 * r and 3 * r < obj[1]):
                raise IntentNotMet("object piece out of reach")
            v_exit = stroke_for(stk, dist(g, aim), rng.uniform(400.0, 900.0))
            v_hit = v_exit / math.hypot(keep_n * math.cos(cut), math.sin(cut))
            return s, g, obj, stroke_for(stk, dist(s, g), v_hit), pocket.id

        s, g, obj, speed, pocket = sample(draw)
        target = rng.choice(WHITES)  # an own piece first: the due is the strike's only foul
        others = rng.sample([p for p in PIECES if p != target], rng.randint(4, 9))
        aim = spec.hole(pocket)
        lanes = [(s, g, rs + r + 6.0), (g, (aim.x, aim.y), rs + r + 6.0), (obj, add(obj, unit(sub(obj, g)), 500.0),
                                                                           2 * r + 6.0)]
        layout = scatter(rng, spec, {target: obj}, others, lanes)
        require_game_on(layout)
        clip = start("striker-pocketed", seed, fps, rng, spec, layout, s)
        shot = clip.shot("striker", heading(s, g), speed, kind="hand", seat=SEAT,
                         intent={"object": target, "striker_pocket": pocket})
        ev = clip.events_since(shot)
        require(any(e.type is EventType.POT and e.objects == ("striker",) for e in ev), "the striker stayed up")
        require(not kinds_of(ev, EventType.OFF_TABLE), "a piece left the board")
        return clip.result(table=TABLE)

    return attempts("carroms/striker-pocketed", seed, build)


def _queen(name: str, covered: bool, seed: int, fps: float) -> SimResult:
    spec = _spec()

    def build(rng: random.Random) -> SimResult:
        already = rng.sample(WHITES, rng.randint(1, 3))  # the shooter has pocketed a white before
        cover = rng.choice([w for w in WHITES if w not in already])
        others = rng.sample([p for p in PIECES if p not in already and p not in (cover, "queen")], rng.randint(4, 8))
        layout, s, angle, speed, pocket = _pot_layout(rng, spec, "queen", others)
        # the covering white needs a clean line of its own, clear of the queen's shot
        layout2, s2, angle2, speed2, pocket2 = _pot_layout(rng, spec, cover, [], taken=layout)
        full = {**layout, cover: layout2[cover]}
        require_game_on(full)
        clip = start(name, seed, fps, rng, spec, full, s)
        clip.meta["setup"]["pocketed_by_shooter"] = already
        shot = clip.shot("striker", angle, speed, kind="hand", seat=SEAT, intent={"object": "queen", "pocket": pocket})
        ev = clip.events_since(shot)
        require(any(e.type is EventType.POT and e.objects == ("queen",) for e in ev), "the queen stayed up")
        require(clean(ev), "due or off the board")
        require(clip.world.status(cover) is ObjectStatus.ON_TABLE, "the cover piece went down too")
        cover_at = clip.world.position(cover)
        if dist(cover_at, layout2[cover]) > 1.0:
            raise IntentNotMet("the cover piece was moved")
        if covered:
            clip.move("striker", s2)
            shot2 = clip.shot("striker", angle2, speed2, kind="hand", seat=SEAT,
                              intent={"object": cover, "pocket": pocket2, "covers_queen": True})
            ev2 = clip.events_since(shot2)
            require(any(e.type is EventType.POT and e.objects == (cover,) for e in ev2), "the cover missed")
            require(clean(ev2), "due or off the board on the cover")
        else:
            miss_at = (rng.uniform(*baseline_x_range(spec)), baseline_y(spec))
            clip.move("striker", miss_at)
            shot2 = clip.shot("striker", -math.pi / 2 + math.radians(rng.uniform(-6.0, 6.0)),
                              rng.uniform(900.0, 1400.0), kind="hand", seat=SEAT, intent={"covers_queen": True})
            ev2 = clip.events_since(shot2)
            require(not kinds_of(ev2, EventType.POT) and clean(ev2), "the cover attempt potted something")
            hit = next((e for e in ev2 if e.type is EventType.CONTACT and "striker" in e.objects), None)
            require(hit is None or all(kind_of(o) in ("white", "striker") for o in hit.objects),
                    "the cover attempt hit an opponent's piece first (a foul)")
            centre = spec.spots["centre"]
            r = spec.object_radius["queen"]
            spot = centre
            on = {p: clip.world.position(p) for p in PIECES + ("striker",)
                  if clip.world.status(p) is ObjectStatus.ON_TABLE}
            for k in range(24):  # as near the centre as the pieces there allow
                cand = add(centre, from_angle(k * 0.9, 0.0 if k == 0 else 8.0 * k))
                if all(dist(cand, q) >= 2.2 * r for q in on.values()):
                    spot = cand
                    break
            else:
                raise IntentNotMet("no room for the queen")
            clip.place("queen", spot, side="low-y", data={"from": pocket, "returned_queen": True})
        return clip.result(table=TABLE)

    return attempts(f"carroms/{name}", seed, build)


def piece_off_board(seed: int, fps: float = 30.0) -> SimResult:
    """A piece by the side frame is driven into it, jumps it and leaves the board; it is put back at the centre."""
    spec = _spec()
    ph = physics_for(TABLE)
    stk, piece_kind = ph.kind("striker"), ph.kind("white")
    r, rs = spec.object_radius["white"], spec.object_radius["striker"]

    def build(rng: random.Random) -> SimResult:
        y0 = baseline_y(spec)
        x_lo, x_hi = baseline_x_range(spec)

        def draw() -> tuple[Point, Point, Point, float]:
            east = rng.random() < 0.5
            s = (rng.uniform(x_lo, x_lo + 120.0) if east else rng.uniform(x_hi - 120.0, x_hi), y0)
            wall_x = spec.length_mm if east else 0.0
            obj = (wall_x - (r + rng.uniform(25.0, 60.0)) * (1 if east else -1), rng.uniform(250.0, 420.0))
            direction = unit(sub(obj, s))
            g = add(obj, direction, -(rs + r))
            into = abs(direction[0])
            if into < 0.6:
                raise IntentNotMet("too glancing")
            normal = rng.uniform(5200.0, 6000.0)
            v_hit = normal / into / transfer(E_PIECE, stk.mass, piece_kind.mass)
            return s, g, obj, stroke_for(stk, dist(s, g), v_hit)

        s, g, obj, speed = sample(draw)
        if speed > ph.max_shot_speed:
            raise IntentNotMet("too hard")
        target = rng.choice(WHITES)  # an own piece: hitting an opponent's first would be a foul (Fouls.2)
        others = rng.sample([p for p in PIECES if p != target], rng.randint(4, 8))
        layout = scatter(rng, spec, {target: obj}, others, [(s, g, rs + r + 8.0), (obj, obj, 120.0)])
        require_game_on(layout)
        clip = start("piece-off-board", seed, fps, rng, spec, layout, s)
        shot = clip.shot("striker", heading(s, g), speed, kind="hand", seat=SEAT, intent={"object": target})
        ev = clip.events_since(shot)
        off = [e for e in kinds_of(ev, EventType.OFF_TABLE) if not e.data["returned"]]
        require([e.objects for e in off] == [(target,)], f"off the board: {off}")
        require(not any(e.type is EventType.POT and e.objects == ("striker",) for e in ev), "due")
        centre = spec.spots["centre"]
        on = [clip.world.position(p) for p in PIECES + ("striker",) if clip.world.status(p) is ObjectStatus.ON_TABLE]
        spot = next((add(centre, from_angle(k * 0.9, 0.0 if k == 0 else 8.0 * k)) for k in range(40)
                     if all(dist(add(centre, from_angle(k * 0.9, 0.0 if k == 0 else 8.0 * k)), q) >= 2.2 * r
                            for q in on)), None)
        if spot is None:
            raise IntentNotMet("no room at the centre")
        clip.place(target, spot, side="low-y", data={"from": "floor"})
        return clip.result(table=TABLE)

    return attempts("carroms/piece-off-board", seed, build)


def carrom_scenarios() -> dict[str, ScenarioInfo]:
    def queen(covered: bool, name: str) -> ScenarioInfo:
        def run(seed: int, fps: float = 30.0) -> SimResult:
            return _queen(name, covered, seed, fps)

        text = ("the queen is pocketed and covered by a white on the next strike" if covered else
                "the queen is pocketed, the cover fails and the queen is put back at the centre")
        return ScenarioInfo(text, run)

    return {
        "break": ScenarioInfo("the opening break from the south baseline into the circle", carrom_break),
        "pot": ScenarioInfo("a white cut into a top pocket, the striker stays up", carrom_pot),
        "striker-pocketed": ScenarioInfo("a due: the striker follows a cut piece into a pocket", striker_pocketed),
        "queen-covered": queen(True, "queen-covered"),
        "queen-returned": queen(False, "queen-returned"),
        "piece-off-board": ScenarioInfo("a piece by the frame is struck hard, jumps it and leaves the board; "
                                        "it is put back at the centre", piece_off_board),
    }
