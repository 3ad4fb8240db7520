"""The table mechanics of 4-pin bar billiards: balls in and out of play, shots resolved, visits, frames.

Functions here act on the engine's private working copy of :class:`FrameState` and append the
updates they cause to ``out``; the engine (``bar_billiards.py``) dispatches events and inputs to
them. The order of a shot's resolution follows the rule book:

1. the balls the shot sends back to the trough (at rest in baulk, off the table, 2d(b));
2. fouls: the highest penalty applies (rule 3); otherwise pots add to the break (2c(a), 2g),
   otherwise the break is banked and the visit passes (2c(d));
3. at the end of a visit the pins are reset and any ball on a pin's spot goes to the trough (2h);
4. after the bar drops, one ball left starts the endgame (or the leader's option) and none ends
   the frame (2i);
5. the next ball for the player at the table: red first from the trough, else a white, else
   the ball nearest the baulk line; a break-off when the cloth is empty (2b, 2c).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from tableref.referee.bar_billiards_match import (
    advance,
    current_frame,
    is_complete,
    match_winner,
    record_frame,
    totals,
)
from tableref.referee.bar_billiards_rules import (
    FOULS,
    Foul,
    Instruction,
    Penalty,
    foul_text,
    instruction_text,
)
from tableref.referee.bar_billiards_shot import FoulFound, ShotInfo, break_signature
from tableref.referee.bar_billiards_state import (
    Ball,
    FrameState,
    Phase,
    Pin,
    ReturnDue,
    Shot,
    ShotKind,
)
from tableref.referee.bar_billiards_venue import Point, Venue, as_point, ball_colour, is_ball, is_pin
from tableref.referee.base import RefereeError, Update, UpdateKind

# -- updates ---------------------------------------------------------------------------------


def instruction(code: Instruction, **data: Any) -> Update:
    from tableref.referee.bar_billiards_rules import INSTRUCTIONS

    return Update(UpdateKind.INSTRUCTION, instruction_text(code, **data), code=code,
                  clause=INSTRUCTIONS[code][0], data={k: v for k, v in data.items() if v is not None})


def info(text: str, **data: Any) -> Update:
    return Update(UpdateKind.INFO, text, data=data)


def foul_update(f: FoulFound, *, applied: bool, points: int | None = None, also: list[str] | None = None) -> Update:
    data: dict[str, Any] = {"penalty": FOULS[f.code].penalty.value, "applied": applied}
    data.update(f.data_dict())
    if also:
        data["also"] = also
    return Update(UpdateKind.FOUL, foul_text(f.code, **f.data_dict()), code=f.code, clause=FOULS[f.code].clause,
                  player=f.player, points=points, data=data)


def new_state(venue: Venue, frame_no: int = 1) -> FrameState:
    pins = [Pin(p.id, p.hole, p.colour, p.x, p.y) for p in venue.pins]
    return FrameState(players=list(venue.players), pins=pins, trough_white=venue.whites, frame_no=frame_no,
                      banked={p: 0 for p in venue.players})


# -- positions -------------------------------------------------------------------------------


def parse_positions(raw: Any, venue: Venue) -> tuple[dict[str, Point], dict[str, Point]]:
    """``data.positions`` into (balls, pins); anything else is refused with the accepted ids."""
    if raw is None:
        return {}, {}
    if not isinstance(raw, Mapping):
        raise RefereeError("positions must map object ids to [x_mm, y_mm]")
    balls: dict[str, Point] = {}
    pins: dict[str, Point] = {}
    for key, value in raw.items():
        p = as_point(value, f"the position of {key}")
        assert p is not None or value is None
        if p is None:
            continue
        if is_ball(key):
            balls[key] = p
        elif is_pin(key):
            venue.pin(key)
            pins[key] = p
        else:
            raise RefereeError(f"positions name {key!r}: accepted ids are 'red', 'white-N' and the pins "
                               f"({', '.join(q.id for q in venue.pins)})")
    return balls, pins


def match_positions(balls: list[Ball], seen: Mapping[str, Point], skip: set[str] | None = None) -> str | None:
    """Give ``balls`` the camera's ids and positions: same id first, then the nearest of the colour.

    Returns a warning when the camera counts differ from the referee's (the positions of the
    unmatched balls then stay as they were: the events, not one frame's detections, decide).
    """
    skip = skip or set()
    targets = [b for b in balls if b.id not in skip or b.id is None]
    entries = {k: v for k, v in seen.items() if k not in skip}
    warning = None
    for colour in ("red", "white"):
        mine = [b for b in targets if b.colour == colour]
        theirs = {k: v for k, v in entries.items() if ball_colour(k) == colour}
        if len(mine) != len(theirs):
            warning = (f"the camera sees {len(theirs)} {colour} ball(s) at rest but the events leave {len(mine)} "
                       "on the cloth; check the table")
        left: list[Ball] = []
        for b in mine:
            if b.id is not None and b.id in theirs:
                b.x, b.y = theirs.pop(b.id)
            else:
                left.append(b)
        for b in left:
            if not theirs:
                break
            here = b.pos
            key = min(theirs, key=lambda k: math.dist(theirs[k], here) if here else 0.0)
            b.id = key
            b.x, b.y = theirs.pop(key)
    return warning


def find_ball(balls: list[Ball], obj: str, *, named: set[str] | None = None) -> Ball | None:
    """The ball a camera id means: the same id; else (whites look alike) a ball of its colour the
    camera has not named yet (``named``: ids already in use), and only then any of the colour."""
    colour = ball_colour(obj)
    same = [b for b in balls if b.colour == colour]
    for b in same:
        if b.id == obj:
            return b
    unnamed = [b for b in same if b.id is None or b.id not in (named or set())]
    return (unnamed or same or [None])[0]


def nearest_to_baulk(balls: list[Ball], venue: Venue) -> Ball | None:
    """2c(c): the ball nearest the baulk line; on a tie (within ``nearest_tie_mm``) nearest the D's centre."""
    known = [b for b in balls if b.pos is not None]
    if not known:
        return balls[0] if balls else None
    closest = min(b.x or 0.0 for b in known)
    tied = [b for b in known if (b.x or 0.0) - closest <= venue.nearest_tie_mm]
    return min(tied, key=lambda b: math.dist(b.pos or (0.0, 0.0), venue.d_centre))


# -- taking a ball for the strike --------------------------------------------------------------


def red_available(state: FrameState) -> bool:
    return state.trough_red > 0 or "red" in state.hand or any(b.colour == "red" and b.staged for b in state.table)


def take_ball(state: FrameState, colour: str, venue: Venue, near: Point | None, *, from_cloth: bool = True) -> Ball:
    """The ball the player strikes: placed by hand, else in the referee's hand, else the trough,
    else (the trough empty) off the cloth, the one nearest baulk of that colour (2c(c))."""
    staged = [b for b in state.table if b.staged and b.colour == colour]
    if staged:
        pick = min(staged, key=lambda b: math.dist(b.pos, near) if b.pos and near else 0.0)
        state.table.remove(pick)
        pick.staged = False
        return pick
    if colour in state.hand:
        state.hand.remove(colour)
        return Ball(colour)
    if colour == "red" and state.trough_red > 0:
        state.trough_red -= 1
        return Ball(colour)
    if colour == "white" and state.trough_white > 0:
        state.trough_white -= 1
        return Ball(colour)
    cloth = [b for b in state.table if b.colour == colour]
    if from_cloth and cloth:
        pick = nearest_to_baulk(cloth, venue) or cloth[0]
        state.table.remove(pick)
        return Ball(colour)
    raise RefereeError(f"a {colour} ball was struck but no {colour} ball is in play (trough, hand or cloth); "
                       f"in play: {', '.join(state.colours_in_play()) or 'none'}")


# -- resolving a shot --------------------------------------------------------------------------


def to_trough(state: FrameState, ball: Ball, out: list[Update], reason: str) -> None:
    """A ball the referee puts back in the trough (2d, 2h(a), 3: at rest in baulk)."""
    if ball.colour == "red":
        state.trough_red += 1
    else:
        state.trough_white += 1
    state.returns_due.append(ReturnDue(ball.colour, ball.x, ball.y))
    out.append(instruction(Instruction.RETURN_TO_TROUGH, colour=ball.colour, at=ball.pos, reason=reason))


def settle_cloth(state: FrameState, shot: Shot, facts: ShotInfo, venue: Venue, out: list[Update]) -> None:
    """After the shot: replaced balls stay, balls in baulk or off a person go to the trough."""
    for pot in facts.replaced:
        out.append(instruction(Instruction.REPLACE_BALL, colour=pot.colour, at=(pot.x, pot.y) if pot.x else None))
    for ball in list(shot.balls):
        reason = None
        if ball.id in facts.touched_person:
            reason = "it came back off a person or object (2d(b))"
        elif ball.pos is not None and venue.in_baulk(ball.pos):
            reason = "it is at rest in baulk (3)"
        elif ball.pos is None and ball.id in facts.baulk:
            reason = "it came back into baulk (3)"
        if reason:
            shot.balls.remove(ball)
            to_trough(state, ball, out, reason)
    for ball in shot.off:
        to_trough(state, ball, out, "it left the table (2d)")
    for b in shot.balls:
        b.staged = False
    state.table = shot.balls


def penalise(state: FrameState, fouls: list[FoulFound], out: list[Update]) -> str:
    """Rule 3: report every foul; the costliest applies to its player. Returns the offender."""
    top = fouls[0]
    offender = top.player
    lost = state.break_points if offender == state.visitor else 0
    wiped = state.banked.get(offender, 0) if top.penalty is Penalty.SCORE else 0
    out.append(foul_update(top, applied=True, points=-(lost + wiped), also=[f.code.value for f in fouls[1:]]))
    out.extend(foul_update(f, applied=False) for f in fouls[1:])
    if lost:
        state.break_points = 0
        out.append(Update(UpdateKind.BREAK_LOST, f"{offender} loses the break of {lost}.", player=offender,
                          points=-lost, data={"break": lost}))
    if wiped:
        state.banked[offender] = 0
        out.append(Update(UpdateKind.SCORE, f"{offender} loses the whole score of {wiped} (3a).", code=top.code,
                          clause=FOULS[top.code].clause, player=offender, points=-wiped, data={"total": 0}))
    state.last_call = top.code.value
    return offender


def bank(state: FrameState, out: list[Update]) -> None:
    """2c/2g: the break goes on the scoreboard at the end of a visit without a foul."""
    player, points = state.visitor, state.break_points
    if player is None or points <= 0:
        state.break_points = 0
        return
    state.banked[player] = state.banked.get(player, 0) + points
    state.break_points = 0
    out.append(Update(UpdateKind.SCORE, f"{player} banks {points}: {state.banked[player]}.", player=player,
                      points=points, data={"total": state.banked[player]}))
    out.append(Update(UpdateKind.BREAK_BANKED, f"Break of {points} banked.", player=player, points=points,
                      data={"total": state.banked[player]}))


def reset_pins(state: FrameState, venue: Venue, out: list[Update]) -> None:
    """2h: pins off their spots are reset once the visit is over; a ball on a pin's spot goes to the trough."""
    moved: list[str] = []
    for pin in state.pins:
        home = venue.pin(pin.id)
        if pin.status == "in_hole":
            continue
        if pin.status == "fallen" or math.dist((pin.x, pin.y), (home.x, home.y)) > 0.5:
            for ball in [b for b in state.table if b.pos is not None and venue.blocks_pin_spot(b.pos, home)]:
                state.table.remove(ball)
                to_trough(state, ball, out, f"it stands on the spot of {pin.id} (2h(a))")
            pin.status, pin.x, pin.y = "standing", home.x, home.y
            pin.due_reset = True
            pin.disturbed_between_shots = False
            moved.append(pin.id)
    if moved:
        out.append(instruction(Instruction.RESET_PINS, pins=moved))


def end_visit(state: FrameState, venue: Venue, out: list[Update], next_player: str) -> None:
    reset_pins(state, venue, out)
    state.break_points = 0
    state.breaks_in_row = 0
    state.break_holes = []
    previous = state.visitor
    state.visitor = next_player
    out.append(Update(UpdateKind.TURN, f"{next_player} to the table.", player=next_player,
                      data={"from": previous}))


def resolve_shot(state: FrameState, shot: Shot, facts: ShotInfo, fouls: list[FoulFound], venue: Venue,
                 out: list[Update]) -> None:
    """Rule 2c/3: the shot's fouls, pots and break, then the visit, the frame and the next ball."""
    settle_cloth(state, shot, facts, venue, out)
    points = facts.points(venue)
    if fouls:
        offender = penalise(state, fouls, out)
        if shot.kind is ShotKind.BREAK and any(f.code in _FOUL_BREAKS for f in fouls):
            state.option_for = state.opponent(offender)
            out.append(Update(UpdateKind.CHOICE, f"Foul break: {state.option_for} may re-break or play on "
                              "from where the balls lie (2b(b)).", code="break_option", clause="2b(b)",
                              player=state.option_for, data={"options": ["rebreak", "play_on"]}))
        if offender == state.visitor:
            end_visit(state, venue, out, state.opponent(offender))
        else:  # out of turn (3b(p)): the player whose visit it is carries on
            reset_pins(state, venue, out)
    elif points > 0:
        state.break_points += points
        out.append(Update(UpdateKind.BREAK, f"{shot.striker}'s break: {state.break_points}.", player=shot.striker,
                          points=points, data={"break": state.break_points,
                                               "pots": [[p.colour, p.hole] for p in facts.scored_pots]}))
        if shot.kind is ShotKind.BREAK and len(facts.scored_pots) >= 2 and not state.table:
            state.breaks_in_row = shot.break_number
            state.break_holes.append(break_signature(facts))
            out.append(info(f"Both balls potted from the break-off: {shot.striker} breaks off again "
                                         "(2b(c)).", rule="2b(c)"))
            if state.breaks_in_row == venue.same_break_limit:
                out.append(info_update_same_break(venue))
    else:
        bank(state, out)
        end_visit(state, venue, out, state.opponent(state.visitor or shot.striker))
    check_frame(state, venue, out)
    next_ball(state, venue, out)


def info_update_same_break(venue: Venue) -> Update:
    return info(f"{venue.same_break_limit} break-offs in a row: the next one must be a materially different "
                "shot (2b(d)).", rule="2b(d)")


_FOUL_BREAKS = frozenset({Foul.BREAK_NOT_FROM_CENTRE, Foul.BREAK_MISSED_RED, Foul.BREAK_WRONG_WAY_ROUND})


# -- the frame's end and the endgame ------------------------------------------------------------


def projected(state: FrameState) -> dict[str, int]:
    """The scores if the visit ended now without a foul (the break banked)."""
    scores = dict(state.banked)
    if state.visitor is not None:
        scores[state.visitor] = scores.get(state.visitor, 0) + state.break_points
    return scores


def check_frame(state: FrameState, venue: Venue, out: list[Update]) -> None:
    """2i: after the bar drops, no ball left ends the frame; one ball starts the endgame when close."""
    if not state.bar_down or state.phase not in (Phase.PLAY, Phase.ENDGAME) or state.shot is not None:
        return
    left = state.colours_in_play()
    if not left:
        finish(state, venue, out, "every ball is potted (2i)")
        return
    if len(left) != 1 or state.phase is not Phase.PLAY:
        return
    colour = left[0]
    margin = venue.endgame_margin_red if colour == "red" else venue.endgame_margin_white
    scores = projected(state)
    a, b = state.players
    if abs(scores[a] - scores[b]) <= margin:
        start_endgame(state, venue, out, colour)
        return
    leader = a if scores[a] > scores[b] else b
    state.phase = Phase.OFFER
    state.offer_to = leader
    out.append(Update(UpdateKind.CHOICE, f"One {colour} ball left and {leader} leads by {abs(scores[a] - scores[b])} "
                      f"(more than {margin}): the frame is over unless {leader} invokes the endgame (2i).",
                      code="endgame_option", clause="2i", player=leader,
                      data={"options": ["invoke_endgame", "decline_endgame"], "margin": abs(scores[a] - scores[b])}))


def start_endgame(state: FrameState, venue: Venue, out: list[Update], colour: str) -> None:
    state.phase = Phase.ENDGAME
    state.offer_to = None
    for pin in state.pins:
        home = venue.pin(pin.id)
        if pin.hole in venue.endgame_holes:
            pin.status, pin.x, pin.y = "standing", home.x, home.y
        else:
            pin.status = "in_hole"
    out.append(Update(UpdateKind.ENDGAME, f"Endgame: one {colour} ball left; {state.visitor} plays first, "
                      "off a cushion into the 100 or 200 hole (2i).", clause="2i", player=state.visitor,
                      data={"ball": colour, "scores": projected(state)}))
    out.append(instruction(Instruction.ENDGAME_SETUP))


def finish(state: FrameState, venue: Venue, out: list[Update], reason: str, winner: str | None = None,
           decided: bool = False) -> None:
    """The frame is over: bank the running break, name the winner (a tie is a shared frame, 2i)."""
    bank(state, out)
    a, b = state.players
    if not decided:
        winner = None if state.banked[a] == state.banked[b] else (a if state.banked[a] > state.banked[b] else b)
    state.phase = Phase.OVER
    state.offer_to = None
    state.option_for = None
    state.result = {"winner": winner, "reason": reason, "scores": dict(state.banked)}
    text = f"Frame over: {winner} wins" if winner else "Frame over: scores level, the frame is shared"
    out.append(Update(UpdateKind.GAME_OVER, f"{text} ({state.banked[a]}-{state.banked[b]}).", clause="2i",
                      player=winner, data={"reason": reason, "scores": dict(state.banked), "shared": winner is None}))
    card = state.match
    if card is None:
        return
    side = {a: "home", b: "away"}
    slot = record_frame(card, state.banked[a], state.banked[b], reason, side.get(winner) if winner else None)
    out.append(info(f"Scorecard: frame {slot.number} {slot.home_score}-{slot.away_score}.",
                    frame=slot.number, totals=totals(card)))
    if is_complete(card):
        won = match_winner(card)
        name = {"home": card.home_team, "away": card.away_team}.get(won or "")
        t = totals(card)
        out.append(Update(UpdateKind.MATCH_OVER, (f"Match over: {name} win" if name else "Match over: drawn")
                          + f" {t['home_frames']}-{t['away_frames']} on frames.", player=won,
                          data={"totals": t, "winner": won}))


def next_frame(state: FrameState, venue: Venue, out: list[Update]) -> FrameState:
    """A fresh frame between the same sides; scores go back to zero (sent as SCORE updates)."""
    for player, score in state.banked.items():
        if score:
            out.append(Update(UpdateKind.SCORE, f"New frame: {player}'s score back to 0.", player=player,
                              points=-score, data={"total": 0}))
    fresh = new_state(venue, state.frame_no + 1)
    fresh.history = state.history + [dict(state.result or {}, frame=state.frame_no)]
    fresh.match = state.match
    if fresh.match is not None:
        slot = advance(fresh.match)
        if slot is None:
            raise RefereeError("the league match is complete: all nine frames are on the scorecard")
    out.append(Update(UpdateKind.PHASE, f"Frame {fresh.frame_no}: toss a coin for the break (2a).",
                      code="new_frame", data=frame_data(fresh)))
    return fresh


def frame_data(state: FrameState) -> dict[str, Any]:
    data: dict[str, Any] = {"frame": state.frame_no}
    slot = current_frame(state.match) if state.match is not None else None
    if slot is not None:
        data.update(league_frame=slot.number, kind=slot.kind, home=list(slot.home), away=list(slot.away),
                    referee_team=slot.referee_team)
    return data


# -- the next ball -----------------------------------------------------------------------------


def next_ball(state: FrameState, venue: Venue, out: list[Update]) -> None:
    """2b/2c(c)/2i(c): what the player at the table plays next."""
    if state.phase is Phase.ENDGAME:
        left = state.colours_in_play()
        if left:
            out.append(instruction(Instruction.PLAY_FROM_CENTRE, colour=left[0]))
        return
    if state.phase is not Phase.PLAY or state.option_for is not None:
        return
    if not any(not b.staged for b in state.table):
        out.append(instruction(Instruction.BREAK_OFF if red_available(state) else Instruction.BREAK_OFF_WHITES))
    elif state.trough_red:
        out.append(instruction(Instruction.TAKE_RED))
    elif state.trough_white:
        out.append(instruction(Instruction.TAKE_WHITE))
    elif not state.hand:
        ball = nearest_to_baulk(state.table, venue)
        if ball is not None:
            out.append(instruction(Instruction.TAKE_NEAREST, colour=ball.colour, at=ball.pos))
