"""The ``setup`` input: start refereeing a bar-billiards frame that is already in progress.

Why it exists: a camera or the service restarts mid-frame, or a venue switches tableref on halfway
through a game. Until now the engine only accepted play from the coin toss, and it refused a pot of
a white it never saw placed. ``setup`` tells it the position now (the balls on the cloth, whose
visit it is, the scoreboard, the running break, the clock) and from then on every event is judged
exactly as if the frame had reached that position with the engine watching.

How a position maps to the state (the rules decide what the input does not say):

* **Whites are counted, not named** (``white-3`` is only the camera's name for one shot), so the
  cloth is a list of balls by colour with their positions.
* **A ball in the D** was placed by hand for the coming strike (staged). A ball at rest in baulk
  outside the D goes to the trough, as after any shot (rule 3), with the instruction to take it up.
  A cloth holding nothing but the red on the spot (a white when the red is out of play) and the D's
  balls is a break-off set up (2b).
* **A ball not on the cloth** is in the trough (2c), unless the bar has dropped: then potted balls
  stay in the table (2g) and ``trough`` says how many were put back in the trough.
* **Pins** stand on their spots unless ``pins_moved`` (or a pin's position in ``on_table``) says
  where one stands (moved in this visit, reset when it ends, 2h); ``pins_down`` are pins knocked over
  and not yet stood up: the referee is told to reset them, and a strike before that is 3b(o).
* **The scoreboard** is set by ``scores``; each change goes out as a SCORE update, so the sum of
  SCORE updates still equals ``scores()``. ``break`` is the running visit's points (kept when the
  visiting player does not change, else 0).
* **The last shot can no longer be re-judged** (late pots, calls, overrules): the referee has just
  said what the table is. The frame's history, the league scorecard and pin colours stay.

After the position is in, the frame's end is checked (with the bar down, one ball left starts the
endgame or the leader's option, none ends the frame, 2i) and the next ball is announced.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tableref.events import thaw
from tableref.referee.bar_billiards_play import (
    check_frame,
    instruction,
    next_ball,
    to_trough,
)
from tableref.referee.bar_billiards_rules import Instruction
from tableref.referee.bar_billiards_state import Ball, FrameState, Phase
from tableref.referee.bar_billiards_venue import Point, Venue, as_point, ball_colour, is_ball, is_pin
from tableref.referee.base import RefereeError, Update, UpdateKind

#: every key a bar-billiards setup may carry (anything else is refused: a typo must not pass silently)
SETUP_KEYS: tuple[str, ...] = ("on_table", "player", "scores", "break", "clock_expired", "trough",
                               "pins_down", "pins_moved")


@dataclass(frozen=True)
class BallAt:
    colour: str
    id: str
    at: Point


@dataclass(frozen=True)
class Setup:
    """A checked ``setup`` input: nothing here is ever half-valid."""

    balls: tuple[BallAt, ...]
    pins_at: Mapping[str, Point]
    pins_down: tuple[str, ...]
    player: str
    scores: Mapping[str, int]
    break_points: int | None
    bar_down: bool
    trough: Mapping[str, int] | None


def _ids(venue: Venue) -> str:
    return (f"'red', 'white-N' (at most {venue.whites} whites) and the pins "
            f"({', '.join(p.id for p in venue.pins)})")


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RefereeError(f"setup '{what}' must be a whole number >= 0, got {value!r}")
    return value


def _point(value: Any, what: str, venue: Venue) -> Point:
    p = as_point(value, what)
    if p is None:
        raise RefereeError(f"{what} needs a position [x_mm, y_mm]")
    if not venue.on_surface(p):
        raise RefereeError(f"{what} is at ({p[0]:.0f}, {p[1]:.0f}) mm, off the table: positions lie within "
                           f"0..{venue.length:.0f} x 0..{venue.width:.0f} mm")
    return p


def _mapping(value: Any, what: str, example: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RefereeError(f"setup '{what}' must map {example}, got {value!r}")
    return value


def parse_setup(data: Mapping[str, Any], state: FrameState, venue: Venue) -> Setup:
    """Check a setup's data against the venue and the frame; a ``RefereeError`` says what is wrong."""
    data = thaw(data)  # plain dicts and lists: the messages quote what was entered as it was entered
    if state.shot is not None:
        raise RefereeError("setup is entered between shots: a shot is being played, wait for at_rest")
    if state.phase is Phase.OVER:
        raise RefereeError("the frame is over: enter new_frame first; a setup describes a frame in play")
    unknown = sorted(set(data) - set(SETUP_KEYS))
    if unknown:
        raise RefereeError(f"setup does not know {', '.join(map(repr, unknown))}; accepted: {', '.join(SETUP_KEYS)}")
    if "on_table" not in data:
        raise RefereeError("setup needs 'on_table': every ball on the cloth now, such as "
                           "{\"red\": [560, 381], \"white-1\": [900, 300]} ({} for an empty cloth)")
    on_table = _mapping(data["on_table"], "on_table", f"object ids to [x_mm, y_mm]; ids: {_ids(venue)}")
    balls: list[BallAt] = []
    pins_at: dict[str, Point] = {}
    for key, value in on_table.items():
        if is_ball(key):
            balls.append(BallAt(ball_colour(key), key, _point(value, f"on_table {key}", venue)))
        elif is_pin(key) and any(p.id == key for p in venue.pins):
            pins_at[key] = _point(value, f"on_table {key}", venue)
        else:
            raise RefereeError(f"setup: unknown object id {key!r}; accepted: {_ids(venue)}")
    for i, a in enumerate(balls):
        for b in balls[i + 1:]:
            if math.dist(a.at, b.at) < venue.ball_radius:
                raise RefereeError(f"setup lists {a.id} and {b.id} at the same place ({math.dist(a.at, b.at):.0f} mm "
                                   "apart): each ball on the cloth is listed once")
    reds = sum(b.colour == "red" for b in balls)
    whites = len(balls) - reds
    if reds > 1:
        raise RefereeError(f"setup lists {reds} red balls; there is one red")
    if whites > venue.whites:
        raise RefereeError(f"setup lists {whites} whites; this table has {venue.whites} (venue option whites)")
    pins_down = _pins_down(data.get("pins_down", ()), venue)
    for key, value in _mapping(data.get("pins_moved", {}), "pins_moved",
                               "pin ids to where each stands, such as {\"pin-100\": [1260, 384]}").items():
        if not any(p.id == key for p in venue.pins):
            raise RefereeError(f"setup pins_moved: {key!r} is not a pin; pins: {', '.join(p.id for p in venue.pins)}")
        where = _point(value, f"pins_moved {key}", venue)
        if key in pins_at and pins_at[key] != where:
            raise RefereeError(f"setup gives {key} two positions (on_table and pins_moved): list each pin once")
        pins_at[key] = where
    both = sorted(set(pins_down) & set(pins_at))
    if both:
        raise RefereeError(f"setup lists {', '.join(both)} both down and standing: list each pin once")
    player = data.get("player")
    if player is None:
        if state.phase is Phase.TOSS or state.visitor is None:
            raise RefereeError("setup before the coin toss needs 'player': the player at the table (who then "
                               f"also counts as the break-off winner), one of {', '.join(state.players)}")
        player = state.visitor
    if player not in state.players:
        raise RefereeError(f"setup 'player' must be one of {', '.join(state.players)}, got {player!r}")
    scores: dict[str, int] = {}
    for name, value in _mapping(data.get("scores", {}), "scores", "players to their banked scores").items():
        if name not in state.players:
            raise RefereeError(f"setup 'scores' names {name!r}; players: {', '.join(state.players)}")
        scores[name] = _count(value, f"scores {name}")
    break_points = _count(data["break"], "break") if data.get("break") is not None else None
    bar_down = data.get("clock_expired", state.bar_down)
    if not isinstance(bar_down, bool):
        raise RefereeError(f"setup 'clock_expired' is true (the bar has dropped) or false, got {bar_down!r}")
    trough = None
    if data.get("trough") is not None:
        raw = _mapping(data["trough"], "trough", "'white' and 'red' to the balls in the trough")
        bad = sorted(set(raw) - {"white", "red"})
        if bad:
            raise RefereeError(f"setup 'trough' counts 'white' and 'red', not {', '.join(map(repr, bad))}")
        trough = {c: _count(raw.get(c, 0), f"trough {c}") for c in ("white", "red")}
        if trough["white"] + whites > venue.whites or trough["red"] + reds > 1:
            raise RefereeError(f"setup has more balls than the table: {whites} white(s) and {reds} red on the cloth "
                               f"plus {trough['white']} and {trough['red']} in the trough; the table has "
                               f"{venue.whites} whites and one red")
    return Setup(tuple(balls), pins_at, pins_down, str(player), scores, break_points, bar_down, trough)


def _pins_down(value: Any, venue: Venue) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise RefereeError(f"setup 'pins_down' lists pin ids, such as [\"pin-50-left\"], got {value!r}")
    ids = [str(v) for v in value]
    for pid in ids:
        if not any(p.id == pid for p in venue.pins):
            raise RefereeError(f"setup pins_down: {pid!r} is not a pin; pins: {', '.join(p.id for p in venue.pins)}")
    if len(set(ids)) != len(ids):
        raise RefereeError("setup pins_down lists a pin twice")
    return tuple(ids)


def apply_setup(state: FrameState, setup: Setup, venue: Venue) -> list[Update]:
    """Put the checked position into the (private working copy of the) state; return the updates."""
    out: list[Update] = []
    player = setup.player
    for name in state.players:
        new = setup.scores.get(name, state.banked.get(name, 0))
        delta = new - state.banked.get(name, 0)
        state.banked[name] = new
        if delta:
            out.append(Update(UpdateKind.SCORE, f"Setup: {name}'s score is {new}.", player=name, points=delta,
                              data={"total": new, "setup": True}))
    running = state.break_points if player == state.visitor else 0
    new_break = running if setup.break_points is None else setup.break_points
    if new_break != state.break_points:
        out.append(Update(UpdateKind.BREAK, f"{player}'s break: {new_break}.", player=player,
                          points=new_break - running, data={"break": new_break, "setup": True}))
    previous = state.visitor
    state.visitor, state.break_points, state.bar_down = player, new_break, setup.bar_down
    state.phase, state.offer_to, state.option_for, state.result = Phase.PLAY, None, None, None
    state.breaks_in_row, state.break_holes = 0, []
    state.checkpoint, state.last_rest_t, state.last_call, state.last_fouls = None, None, None, []
    _place_pins(state, setup, venue, out)
    _place_balls(state, setup, venue, out)
    if any(not b.staged for b in state.table) or new_break or any(state.banked.values()):
        state.shots_in_frame = max(state.shots_in_frame, 1)
    summary = {"visitor": player, "break": new_break, "scores": dict(state.banked), "bar_down": state.bar_down,
               "cloth": [b.colour for b in state.table], "trough_white": state.trough_white,
               "trough_red": state.trough_red, "locked": state.locked_white + state.locked_red}
    out.insert(0, Update(UpdateKind.PHASE, f"Frame {state.frame_no} set up in progress: {player} at the table.",
                         code="setup", player=player, data=summary))
    if player != previous:
        out.append(Update(UpdateKind.TURN, f"{player} to the table.", player=player, data={"from": previous}))
    check_frame(state, venue, out)
    placed = any(b.staged for b in state.table) and any(not b.staged for b in state.table)
    if state.phase is not Phase.OVER and not placed:  # a ball already in the D needs no "take a ball"
        next_ball(state, venue, out)
    return out


def _place_pins(state: FrameState, setup: Setup, venue: Venue, out: list[Update]) -> None:
    for pin in state.pins:
        home = venue.pin(pin.id)
        pin.status, pin.x, pin.y = "standing", home.x, home.y
        pin.due_reset = pin.disturbed_between_shots = False
        where = setup.pins_at.get(pin.id)
        if where is not None and not venue.at_pin_spot(where, home):
            pin.x, pin.y = where
        if pin.id in setup.pins_down:
            pin.due_reset = True
    if setup.pins_down:
        out.append(instruction(Instruction.RESET_PINS, pins=list(setup.pins_down)))


def _place_balls(state: FrameState, setup: Setup, venue: Venue, out: list[Update]) -> None:
    cloth = [Ball(b.colour, b.at[0], b.at[1], b.id, staged=venue.in_d(b.at)) for b in setup.balls]
    in_baulk = [b for b in cloth if not b.staged and b.pos is not None and venue.in_baulk(b.pos)]
    lying = [b for b in cloth if not b.staged and b not in in_baulk]
    listed = {c: sum(b.colour == c for b in cloth) for c in ("white", "red")}
    total = {"white": venue.whites, "red": 1}
    if setup.trough is not None:
        trough = dict(setup.trough)
    elif setup.bar_down:
        trough = {"white": 0, "red": 0}
    else:
        trough = {c: total[c] - listed[c] for c in total}
    state.trough_white, state.trough_red = trough["white"], trough["red"]
    state.locked_white = total["white"] - listed["white"] - trough["white"]
    state.locked_red = total["red"] - listed["red"] - trough["red"]
    state.hand, state.returns_due = [], []
    state.table = [b for b in cloth if b not in in_baulk]
    if len(lying) == 1 and lying[0].pos is not None and venue.on_red_spot(lying[0].pos) and (
            lying[0].colour == "red" or not (listed["red"] or state.trough_red)):
        lying[0].staged = True  # only the break-off's object ball on the spot and the D's: a break-off is set up (2b)
    for ball in in_baulk:
        to_trough(state, ball, out, "it is at rest in baulk (3)")
