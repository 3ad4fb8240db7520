"""What each camera event does to the bar-billiards state (DESIGN.md's event vocabulary).

During a shot (``shot_start`` .. ``at_rest``) events are checked against the balls on the cloth
and gathered into the :class:`Shot`; ``at_rest`` evaluates the shot (``bar_billiards_shot``) and
resolves it (``bar_billiards_play``). Between shots the only table events that make sense are
hand moves (``placed``/``removed``/``moved``), a stationary ball dropping (2f(a)) and a pin
knocked while nobody is playing (handling or interference: the referee is asked which).
Anything impossible (a pot from an empty cloth, a pin that is already down) raises
:class:`RefereeError` and the engine base leaves the state as it was.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from tableref.events import EventType, TableEvent, thaw
from tableref.referee.bar_billiards_play import (
    find_ball,
    info,
    match_positions,
    parse_positions,
    red_available,
    resolve_shot,
    take_ball,
)
from tableref.referee.bar_billiards_rules import PENALTY_RANK, Foul, InputKind, Instruction
from tableref.referee.bar_billiards_shot import FoulFound, break_signature, judge, shot_info, touched
from tableref.referee.bar_billiards_state import (
    Ball,
    FrameState,
    Phase,
    Pin,
    Pot,
    Shot,
    ShotEvent,
    ShotKind,
)
from tableref.referee.bar_billiards_venue import Point, Venue, as_point, ball_colour, is_ball, is_pin
from tableref.referee.base import RefereeError, Update

_GENERIC_IDS = frozenset({"white", "red"})


def snapshot(state: FrameState) -> FrameState:
    """A deep copy without the nested snapshots (the checkpoint, a shot's pre-strike state)."""
    saved_cp, state.checkpoint = state.checkpoint, None
    saved_pre = None
    if state.shot is not None:
        saved_pre, state.shot.pre = state.shot.pre, None
    try:
        return copy.deepcopy(state)
    finally:
        state.checkpoint = saved_cp
        if state.shot is not None:
            state.shot.pre = saved_pre


def shot_event(ev: TableEvent) -> ShotEvent:
    return ShotEvent(ev.type.value, list(ev.objects), ev.where, float(ev.t), dict(thaw(ev.data)))


def require_play(state: FrameState, what: str) -> None:
    if state.phase is Phase.TOSS:
        raise RefereeError(f"{what} before anyone is at the table: enter coin_toss or break_winner first (2a)")
    if state.phase is Phase.OVER:
        raise RefereeError(f"{what} after the frame is over: enter new_frame to start the next one")
    if state.phase is Phase.OFFER:
        raise RefereeError(f"{what} while {state.offer_to} decides on the endgame: enter invoke_endgame "
                           "(invoke true or false) first (2i)")


def _require_shot(state: FrameState, ev: TableEvent) -> Shot:
    if state.shot is None:
        raise RefereeError(f"a {ev.type.value} event while no shot is being played (no shot_start since the "
                           "last at_rest)")
    return state.shot


def _object(ev: TableEvent, what: str) -> str:
    if not ev.objects:
        raise RefereeError(f"{ev.type.value} needs the {what} in 'objects'")
    return ev.objects[0]


def _named(shot: Shot) -> set[str]:
    """The ids the camera has used in this shot (the struck ball's and every event's)."""
    return {shot.struck} | {o for e in shot.events for o in e.objects}


def _on_cloth(shot: Shot, obj: str) -> Ball:
    """The ball an event names; a white the referee knew under another id takes the camera's name."""
    ball = find_ball(shot.balls, obj, named=_named(shot))
    if ball is None:
        colours = ", ".join(b.colour for b in shot.balls) or "none"
        raise RefereeError(f"{obj} is not on the table in this shot (on the cloth: {colours})")
    if ball.id != obj and obj not in _GENERIC_IDS:
        ball.id = obj
    return ball


# -- the strike --------------------------------------------------------------------------------


def on_shot_start(state: FrameState, ev: TableEvent, venue: Venue) -> list[Update]:
    require_play(state, "a shot")
    if state.option_for is not None:
        raise RefereeError(f"{state.option_for} must first choose after the foul break: break_option with "
                           "choice 'rebreak' or 'play_on' (2b(b))")
    if state.shot is not None:  # struck again before everything stopped (3b(n))
        if Foul.BEFORE_REST.value not in state.shot.start_fouls:
            state.shot.start_fouls.append(Foul.BEFORE_REST.value)
        state.shot.events.append(shot_event(ev))
        return [info("A ball was struck before everything had come to rest (3b(n)).", rule="3b(n)")]
    struck = _object(ev, "struck ball, such as ['white-1']")
    colour = ball_colour(struck)
    seen, pins_seen = parse_positions(ev.data.get("positions"), venue)
    pos = as_point(ev.data.get("position"), "the struck ball's position") or seen.get(struck)
    pre = snapshot(state)
    out: list[Update] = []
    fouls: list[Foul] = []
    cloth = [b for b in state.table if not b.staged]
    object_ball: Ball | None = None
    break_number = 0
    if state.phase is Phase.ENDGAME:
        kind = ShotKind.ENDGAME
        ball = take_ball(state, colour, venue, pos)
        if pos is not None and not venue.at_centre(pos):
            fouls.append(Foul.NOT_FROM_CENTRE)
    elif not cloth:
        kind = ShotKind.BREAK
        other = "white" if colour == "red" or not red_available(state) else "red"
        ball = take_ball(state, colour, venue, pos, from_cloth=False)
        try:
            object_ball = take_ball(state, other, venue, venue.red_spot, from_cloth=False)
        except RefereeError:
            raise RefereeError(f"a break-off needs a {other} object ball on the spot but none is in play") from None
        object_ball.id = _object_id(seen, other, struck, venue) or (other if other == "red" else f"{other}-spot")
        object_ball.x, object_ball.y = seen.get(object_ball.id, object_ball.pos or venue.red_spot)
        if colour == "red":
            fouls.append(Foul.BREAK_WRONG_WAY_ROUND)
        if pos is not None and not venue.at_centre(pos):
            fouls.append(Foul.BREAK_NOT_FROM_CENTRE)
        break_number = state.breaks_in_row + 1
    else:
        kind = ShotKind.NORMAL
        red_waiting = red_available(state)  # in the trough, or already taken out for this shot
        lying = _ball_lying_at(cloth, colour, pos, struck, venue) if pos is not None and not venue.in_d(pos) else None
        if lying is not None:
            state.table.remove(lying)
            ball = lying
        else:
            ball = take_ball(state, colour, venue, pos)
        if pos is not None and not venue.in_d(pos):
            fouls.append(Foul.CUED_OUTSIDE_D)
        if colour == "white" and red_waiting:
            fouls.append(Foul.RED_NOT_PLAYED)
        state.breaks_in_row = 0
        state.break_holes = []
    if _played_before_reset(state, venue, seen, pins_seen, struck):
        fouls.append(Foul.BEFORE_RESET)
    ball.id, ball.staged = struck, False
    ball.x, ball.y = pos if pos is not None else (None, None)
    rest = state.table
    for b in rest:
        b.staged = False
        if b.id == struck:
            b.id = None
    skip = {struck} | ({object_ball.id} if object_ball is not None and object_ball.id else set())
    if seen:
        warning = match_positions(rest, {k: v for k, v in seen.items() if k not in skip})
        if warning:
            out.append(info(warning))
    balls = rest + [ball] + ([object_ball] if object_ball is not None else [])
    state.table = []
    state.returns_due = []
    striker = state.visitor or state.players[0]
    state.shot = Shot(striker=striker, kind=kind, struck=struck, colour=colour, t=float(ev.t),
                      start=[pos[0], pos[1]] if pos is not None else None, balls=balls,
                      object_ball=object_ball.id if object_ball is not None else None, break_number=break_number,
                      start_fouls=[f.value for f in fouls], pre=pre)
    state.shots_in_frame += 1
    state.last_fouls = []
    return out


def _object_id(seen: dict[str, Point], colour: str, struck: str, venue: Venue) -> str | None:
    candidates = [k for k in seen if k != struck and ball_colour(k) == colour]
    if not candidates:
        return None
    return min(candidates, key=lambda k: math.dist(seen[k], venue.red_spot))


def _ball_lying_at(cloth: list[Ball], colour: str, pos: Point, struck: str, venue: Venue) -> Ball | None:
    """3b(c): the struck ball is one already in play, cued where it lies outside the D."""
    for b in cloth:
        if b.id == struck and b.colour == colour:
            return b
    near = [b for b in cloth if b.colour == colour and b.pos is not None
            and math.dist(b.pos, pos) <= 2 * venue.ball_radius]
    return min(near, key=lambda b: math.dist(b.pos or pos, pos)) if near else None


def _played_before_reset(state: FrameState, venue: Venue, seen: dict[str, Point], pins_seen: dict[str, Point],
                         struck: str) -> bool:
    """3b(o): the camera still sees a ball due in the trough, or a pin due to be reset off its spot."""
    late = False
    for due in state.returns_due:
        if due.x is None or due.y is None:
            continue
        for key, p in seen.items():
            if key != struck and ball_colour(key) == due.colour and math.dist(p, (due.x, due.y)) <= venue.centre_tolerance_mm:
                late = True
    for pin in state.pins:
        if pin.status == "in_hole" or not (pin.due_reset or pin.disturbed_between_shots or pin.status == "fallen"):
            continue
        home = venue.pin(pin.id)
        where = pins_seen.get(pin.id)
        if where is not None and not venue.at_pin_spot(where, home):
            late = True
            pin.x, pin.y = where
            pin.status = "standing"
        else:
            pin.status, pin.x, pin.y = "standing", home.x, home.y
        pin.due_reset = False
        pin.disturbed_between_shots = False
    return late


# -- during the shot ---------------------------------------------------------------------------


def on_pot(state: FrameState, ev: TableEvent, venue: Venue) -> list[Update]:
    obj = _object(ev, "ball that dropped")
    colour = ball_colour(obj)
    hole = venue.check_hole(ev.where)
    shot = state.shot
    if shot is None:
        return stationary_fall(state, obj, hole)
    if state.phase is Phase.ENDGAME and hole not in venue.endgame_holes:
        raise RefereeError(f"during the endgame only {', '.join(venue.endgame_holes)} are open (2i(a)); "
                           f"{hole} is covered")
    if obj not in _GENERIC_IDS and any(p.id == obj and not p.replaced for p in shot.pots):
        raise RefereeError(f"{obj} was already potted in this shot")
    moving = obj in touched(shot.events, shot.struck)
    ball = _on_cloth(shot, obj)
    shot.events.append(shot_event(ev))
    if not moving:
        shot.pots.append(Pot(obj, colour, hole, float(ev.t), replaced=True, x=ball.x, y=ball.y))
        ball.id = obj
        return [info(f"The {colour} fell into {hole} without being hit: it goes back where it stood and "
                     "scores nothing (2f(a)).", rule="2f(a)")]
    shot.balls.remove(ball)
    if state.bar_down:
        state.locked_red += colour == "red"
        state.locked_white += colour == "white"
    else:
        state.trough_red += colour == "red"
        state.trough_white += colour == "white"
    shot.pots.append(Pot(obj, colour, hole, float(ev.t), x=ball.x, y=ball.y))
    return []


def stationary_fall(state: FrameState, obj: str, hole: str) -> list[Update]:
    """2f(a): a ball at rest drops in by itself: it is replaced where it stood, no points, play goes on."""
    from tableref.referee.bar_billiards_play import instruction

    ball = find_ball(state.table, obj)
    if ball is None:
        raise RefereeError(f"{obj} dropped into {hole} but no {ball_colour(obj)} ball is lying on the table")
    return [info(f"The {ball.colour} fell into {hole} by itself: it is replaced and scores nothing (2f(a)).",
                 rule="2f(a)"),
            instruction(Instruction.REPLACE_BALL, colour=ball.colour, at=ball.pos)]


def on_contact(state: FrameState, ev: TableEvent, venue: Venue) -> list[Update]:
    shot = _require_shot(state, ev)
    if len(set(ev.objects)) < 2:
        raise RefereeError("a contact names the two different objects that touched, such as ['white-1', 'red']")
    for obj in ev.objects:
        if is_ball(obj):
            _on_cloth(shot, obj)
        elif is_pin(obj):
            venue.pin(obj)
        else:
            raise RefereeError(f"contact with {obj!r}: objects are balls ('red', 'white-N') and pins")
    shot.events.append(shot_event(ev))
    return []


def on_cushion(state: FrameState, ev: TableEvent, venue: Venue) -> list[Update]:
    shot = _require_shot(state, ev)
    if ev.where not in venue.cushions:
        raise RefereeError(f"a cushion event needs 'where' naming one of {', '.join(venue.cushions)}, got {ev.where!r}")
    _on_cloth(shot, _object(ev, "ball"))
    shot.events.append(shot_event(ev))
    return []


def on_baulk_entry(state: FrameState, ev: TableEvent, venue: Venue) -> list[Update]:
    shot = _require_shot(state, ev)
    if ev.where not in (None, "d", "baulk"):
        raise RefereeError(f"a baulk_entry's 'where' is 'd' or 'baulk', got {ev.where!r}")
    _on_cloth(shot, _object(ev, "ball"))
    shot.events.append(shot_event(ev))
    return []


def on_off_table(state: FrameState, ev: TableEvent, venue: Venue) -> list[Update]:
    shot = _require_shot(state, ev)
    ball = _on_cloth(shot, _object(ev, "ball"))
    shot.events.append(shot_event(ev))
    if not ev.data.get("returned"):
        shot.balls.remove(ball)
        ball.id = ev.objects[0]
        shot.off.append(ball)
    return []


def _pin(state: FrameState, venue: Venue, obj: str) -> Pin:
    venue.pin(obj)
    return next(p for p in state.pins if p.id == obj)


def on_pin_fall(state: FrameState, ev: TableEvent, venue: Venue) -> list[Update]:
    require_play(state, "a pin falling")
    pin = _pin(state, venue, _object(ev, "pin"))
    if pin.status != "standing":
        raise RefereeError(f"{pin.id} cannot fall: it is {'already down' if pin.status == 'fallen' else 'in its hole'}")
    out: list[Update] = []
    colour = ev.data.get("colour")
    if colour is not None and colour != pin.colour:
        out.append(info(f"The camera sees {pin.id} as {colour} but it was set up {pin.colour}: was a pin swap "
                        "missed (rule 6 note)? The penalty follows the hole either way."))
    pin.status = "fallen"
    if state.shot is not None:
        state.shot.events.append(shot_event(ev))
        return out
    pin.disturbed_between_shots = True
    out.append(info(f"{pin.id} fell while no shot was being played: enter handling (3b(g)) if a player knocked it, "
                    "or interference (2e) if not.", pin=pin.id))
    return out


def on_pin_moved(state: FrameState, ev: TableEvent, venue: Venue) -> list[Update]:
    require_play(state, "a pin moving")
    pin = _pin(state, venue, _object(ev, "pin"))
    if pin.status != "standing":
        raise RefereeError(f"{pin.id} cannot move standing: it is {pin.status.replace('_', ' ')}")
    where = as_point(ev.data.get("position"), f"the new position of {pin.id}")
    if where is not None:
        pin.x, pin.y = where
    if state.shot is not None:
        state.shot.events.append(shot_event(ev))
        return []
    pin.disturbed_between_shots = True
    return [info(f"{pin.id} moved while no shot was being played: enter handling (3b(g)) if a player moved it, "
                 "or interference (2e) if not.", pin=pin.id)]


# -- by hand -----------------------------------------------------------------------------------

_HAND_IN_SHOT = ("Something was moved by hand during the shot: enter handling (3b(g)) if a player did it, "
                 "or interference (2e) if not.")


def on_placed(state: FrameState, ev: TableEvent, venue: Venue) -> list[Update]:
    obj = _object(ev, "object placed")
    if is_pin(obj):
        return _pin_by_hand(state, ev, venue, obj)
    require_play(state, "a ball placed")
    colour = ball_colour(obj)
    if state.shot is not None:
        return [info(_HAND_IN_SHOT)]
    where = as_point(ev.data.get("position"), f"the position of {obj}")
    if colour in state.hand:
        state.hand.remove(colour)
    elif colour == "red" and state.trough_red:
        state.trough_red -= 1
    elif colour == "white" and state.trough_white:
        state.trough_white -= 1
    else:
        raise RefereeError(f"a {colour} ball was placed but none is in the trough or in the referee's hand")
    state.table.append(Ball(colour, where[0] if where else None, where[1] if where else None, obj, staged=True))
    if colour == "white" and state.trough_red and any(not b.staged for b in state.table):
        return [info("The red is still in the trough: it must be played before a white (2c(c), 3b(e)).",
                     rule="2c(c)")]
    return []


def on_removed(state: FrameState, ev: TableEvent, venue: Venue) -> list[Update]:
    obj = _object(ev, "object removed")
    if is_pin(obj):
        venue.pin(obj)
        return [info(f"{obj} was taken off the table.")]
    colour = ball_colour(obj)
    if state.shot is not None:
        return [info(_HAND_IN_SHOT)]
    where = as_point(ev.data.get("position"), f"the position of {obj}")
    for due in state.returns_due:
        if due.colour == colour and (where is None or due.x is None or due.y is None
                                     or math.dist(where, (due.x, due.y)) <= 2 * venue.ball_radius):
            state.returns_due.remove(due)
            return []
    candidates = [b for b in state.table if b.colour == colour]
    if not candidates:
        raise RefereeError(f"a {colour} ball was taken off the table but none is lying there")
    ball = next((b for b in candidates if b.id == obj), None)
    if ball is None:
        ball = min(candidates, key=lambda b: math.dist(b.pos, where) if b.pos and where else 0.0)
    state.table.remove(ball)
    state.hand.append(colour)
    return []


def on_moved(state: FrameState, ev: TableEvent, venue: Venue) -> list[Update]:
    obj = _object(ev, "object moved")
    if is_pin(obj):
        return _pin_by_hand(state, ev, venue, obj)
    colour = ball_colour(obj)
    if state.shot is not None:
        return [info(_HAND_IN_SHOT)]
    where = as_point(ev.data.get("position"), f"the new position of {obj}")
    ball = find_ball(state.table, obj)
    if ball is None:
        raise RefereeError(f"{obj} was moved but no {colour} ball is lying on the table")
    if where is not None:
        ball.x, ball.y = where
    ball.id = obj
    if ball.staged:
        return []
    return [info("A ball in play was moved by hand: enter handling (3b(g)) if a player did it, interference (2e) "
                 "if not.", ball=obj)]


def _pin_by_hand(state: FrameState, ev: TableEvent, venue: Venue, obj: str) -> list[Update]:
    pin = _pin(state, venue, obj)
    home = venue.pin(obj)
    where = as_point(ev.data.get("position"), f"the position of {obj}") or (home.x, home.y)
    if state.shot is not None:
        return [info(_HAND_IN_SHOT)]
    if pin.status == "in_hole":
        raise RefereeError(f"{obj} stays in its hole during the endgame (2i(a))")
    pin.x, pin.y = where
    if venue.at_pin_spot(where, home):
        pin.status, pin.x, pin.y = "standing", home.x, home.y
        pin.due_reset = False
        pin.disturbed_between_shots = False
        return []
    pin.status = "standing"
    pin.disturbed_between_shots = True
    return [info(f"{obj} was moved by hand off its spot: enter handling (3b(g)) if a player did it.", pin=obj)]


# -- at rest -----------------------------------------------------------------------------------


def on_at_rest(state: FrameState, ev: TableEvent, venue: Venue) -> list[Update]:
    shot = state.shot
    if shot is None:
        raise RefereeError("at_rest while no shot is being played (it needs a shot_start first)")
    seen, _pins = parse_positions(ev.data.get("positions"), venue)
    out: list[Update] = []
    replaced = {p.id for p in shot.pots if p.replaced}
    for ball in shot.balls:  # whatever the shot set moving is somewhere new; only the camera knows where
        if ball.id in touched(shot.events, shot.struck) and ball.id not in replaced:
            ball.x = ball.y = None
    if seen:
        warning = match_positions([b for b in shot.balls if b.id not in replaced], seen, replaced)
        if warning:
            out.append(info(warning))
    state.shot = None
    state.last_rest_t = float(ev.t)
    facts = shot_info(shot, venue)
    fouls = judge(facts, shot, state.pins, venue)
    fouls = _same_break(state, shot, facts, fouls, venue, out)
    state.last_fouls = [f.code.value for f in fouls]
    resolve_shot(state, shot, facts, fouls, venue, out)
    return out


def _same_break(state: FrameState, shot: Shot, facts: Any, fouls: list[FoulFound], venue: Venue,
                out: list[Update]) -> list[FoulFound]:
    """2b(d)/3b(i): a fourth break-off in a row sending the balls to the same holes as the last three."""
    limit = venue.same_break_limit
    if shot.kind is not ShotKind.BREAK or shot.break_number <= limit:
        return fouls
    signature = break_signature(facts)
    recent = state.break_holes[-limit:]
    if len(recent) < limit or any(s != signature for s in recent):
        return fouls
    if venue.auto_same_break and Foul.SAME_BREAK_FOURTH_TIME.value not in shot.overruled:
        if all(f.code is not Foul.SAME_BREAK_FOURTH_TIME for f in fouls):
            fouls = sorted([*fouls, FoulFound(Foul.SAME_BREAK_FOURTH_TIME, shot.striker)],
                           key=lambda f: -PENALTY_RANK[f.penalty])
        return fouls
    out.append(info(f"Break-off number {shot.break_number} in a row sent the balls to the same holes as the last "
                    f"{limit}: if it was the same shot, enter {InputKind.SAME_BREAK_FOURTH_TIME.value} (3b(i)).",
                    rule="3b(i)"))
    return fouls


EVENT_HANDLERS = {
    EventType.SHOT_START: on_shot_start,
    EventType.POT: on_pot,
    EventType.CONTACT: on_contact,
    EventType.CUSHION: on_cushion,
    EventType.BAULK_ENTRY: on_baulk_entry,
    EventType.OFF_TABLE: on_off_table,
    EventType.PIN_FALL: on_pin_fall,
    EventType.PIN_MOVED: on_pin_moved,
    EventType.PLACED: on_placed,
    EventType.REMOVED: on_removed,
    EventType.MOVED: on_moved,
    EventType.AT_REST: on_at_rest,
}
