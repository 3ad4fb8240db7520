"""The 4-pin bar-billiards referee (rule book: ``shared/rules/bar-billiards-4pin.txt``).

Where each part of the rule book lives:

=====================================  ===========================================================
rule book                              code
=====================================  ===========================================================
1 object; 2i frame end, shared frame   ``bar_billiards_play.check_frame`` / ``finish``
2a coin toss                           inputs ``coin_toss``, ``break_winner``
(a frame already in progress)          input ``setup`` (``bar_billiards_setup``)
2b break-off, foul break, option       ``bar_billiards_events.on_shot_start`` (BREAK), ``judge``,
                                       ``resolve_shot`` (CHOICE), input ``break_option``
2b(c)/(d) re-breaks, three in a row    ``resolve_shot`` (``breaks_in_row``), ``_same_break``,
                                       input ``same_break_fourth_time``, option ``auto_same_break``
2c continuous play, red first, trough  ``take_ball``, ``next_ball``, ``nearest_to_baulk``
2d balls off the table                 ``on_off_table``, ``settle_cloth``, ``ball_touched_person``
2e interference                        input ``interference``
2f(a)/(b) ball dropping, teetering     ``on_pot`` / ``stationary_fall``, late pots re-judge the shot
2g scoring, banking                    ``Venue.value``, ``bank``
2h pins, reset after a visit, spots    ``on_pin_moved``, ``reset_pins``, ``end_visit``
2i endgame, margins, invoke            ``check_frame``, ``start_endgame``, ``judge`` (ENDGAME),
                                       input ``invoke_endgame``
3 general: highest penalty             ``judge`` (sorted), ``penalise``
3a(a)-(d), 3b(a)-(q)                   ``bar_billiards_rules.Foul`` / ``FOULS``
5(a) six or seven whites               option ``whites``
6 pin swap; 6, 8 league match          input ``pin_swap``; ``bar_billiards_match``, input
                                       ``league_match``
7 referee duties (advice, card)        INFO advice (red in trough, three break-offs), scorecard
=====================================  ===========================================================

Choices where the rule book is silent or ambiguous (a real referee would accept these):

* **Whites are counted, not named.** A white's id means something only inside one shot; the
  state counts balls on the cloth, in the trough, in hand, and locked away after the bar drops.
* **A teetering ball (2f(b))** that drops within ``teeter_seconds`` of ``at_rest`` (its pot
  arrives after ``at_rest``, usually with ``"late": true``; the engine uses the times) belongs to
  that shot when the ball was set moving by the play: the shot is judged again as if the pot had
  come before the rest, and the scores are corrected with SCORE updates. Later, or for a ball
  the shot never touched, it is a stationary ball (2f(a)): replaced, no points.
* **A ball that was never hit** is one that is neither the struck ball nor in any ``contact``.
* **Fouls called after the balls stop** (push, double hit, ...) and ``overrule`` re-judge the
  last shot the same way, until the next ``shot_start``; after that the call stands (rule 4).
* **Out of turn (3b(p))**: the offender's shot scores nothing and costs them (3a if deliberate
  etc.), the player whose visit it was carries on with their break.
* **Interference during a shot (2e)** voids the shot: the balls go back and it is replayed.
* **Balls put in the trough after the bar dropped** stay available (rule 2d says "returned to
  the trough" without exception); only potted balls are locked away.
* **The break-off without the red** (the red locked away after the bar dropped): a white goes on
  the spot. **The endgame margin** compares the scores as they would stand with the visiting
  player's break banked. **An illegal pot of the final ball** ends the frame (all balls are
  potted, 2i); its foul applies first.
* **Conceding** is forfeiting before the end (3a(d)): the conceder loses their score and the frame.
* **A shared frame** (level scores, 2i) has no winner; in a league match it counts for neither side.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from tableref.events import EventType, HumanInput, LogFormatError, LogItem, TableEvent, from_json
from tableref.referee.bar_billiards_events import EVENT_HANDLERS, require_play, snapshot
from tableref.referee.bar_billiards_match import build_scorecard, set_referee
from tableref.referee.bar_billiards_play import (
    end_visit,
    finish,
    frame_data,
    info,
    instruction,
    new_state,
    next_ball,
    next_frame,
    penalise,
    reset_pins,
    start_endgame,
)
from tableref.referee.bar_billiards_rules import FOUL_INPUTS, FOULS, Foul, InputKind, Instruction, parse_foul
from tableref.referee.bar_billiards_setup import apply_setup, parse_setup
from tableref.referee.bar_billiards_shot import FoulFound, touched
from tableref.referee.bar_billiards_state import Call, Checkpoint, FrameState, Phase, ShotKind
from tableref.referee.bar_billiards_venue import DEFAULT_OPTIONS, Venue, is_ball, venue_from_options
from tableref.referee.base import Engine, Outcome, RefereeError, Update, UpdateKind

#: human inputs about a shot: during it they join the shot; after it they re-judge the last shot
SHOT_CALLS = frozenset({k for k, f in FOUL_INPUTS.items() if FOULS[f].of_shot} | {InputKind.NOT_FROM_D})


def _score_sums(updates: list[Update]) -> dict[str, int]:
    sums: dict[str, int] = {}
    for u in updates:
        if u.kind is UpdateKind.SCORE and u.player is not None and u.points:
            sums[u.player] = sums.get(u.player, 0) + u.points
    return sums


class BarBilliardsEngine(Engine[FrameState]):
    """4-pin bar billiards, one frame at a time (``new_frame`` for the next; a league match on top)."""

    INPUT_KINDS = tuple(k.value for k in InputKind)

    game: ClassVar[str] = "bar-billiards"
    default_options: ClassVar[Mapping[str, Any]] = DEFAULT_OPTIONS
    venue: Venue

    def _check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        merged = super()._check_options(options)
        self.venue = venue_from_options(merged)
        return merged

    def _initial_state(self) -> FrameState:
        return new_state(self.venue)

    def _outcome(self, state: FrameState) -> Outcome | None:
        if state.phase is not Phase.OVER or state.result is None:
            return None
        return Outcome(state.result["winner"], dict(state.banked), str(state.result["reason"]))

    def _scores(self, state: FrameState) -> dict[str, int]:
        return dict(state.banked)

    # -- checkpoints: what lets a late pot, a late call or an overrule re-judge the last shot ----
    def _apply(self, state: FrameState, item: LogItem) -> list[Update]:
        if state.shot is None and self._rejudges(state, item):
            return self._rejudge(state, item)
        if isinstance(item, TableEvent) and item.type is EventType.AT_REST and state.shot is not None:
            before = snapshot(state)
            out = self._dispatch(state, item)
            state.checkpoint = Checkpoint(before, [item.to_json()], _score_sums(out))
            return out
        if state.shot is not None:
            return self._dispatch(state, item)
        if isinstance(item, TableEvent) and item.type is EventType.SHOT_START:
            state.checkpoint = None
            return self._dispatch(state, item)
        if state.checkpoint is None:
            state.checkpoint = Checkpoint(snapshot(state))
        cp = state.checkpoint
        out = self._dispatch(state, item)
        if state.checkpoint is cp:
            cp.items.append(item.to_json())
            for player, points in _score_sums(out).items():
                cp.score_since[player] = cp.score_since.get(player, 0) + points
        return out

    def _rejudges(self, state: FrameState, item: LogItem) -> bool:
        cp = state.checkpoint
        if cp is None:
            return False
        if isinstance(item, HumanInput):
            if item.kind == InputKind.OVERRULE:
                return True
            if cp.snapshot.shot is None:
                return False
            if item.kind in SHOT_CALLS:
                return True
            if item.kind == InputKind.ADD_FOUL:
                try:
                    return FOULS[parse_foul(item.data.get("code"))].of_shot
                except ValueError:
                    return False
            return False
        shot = cp.snapshot.shot
        if item.type is not EventType.POT or shot is None or state.last_rest_t is None or not item.objects:
            return False
        if item.t - state.last_rest_t > self.venue.teeter_seconds or not is_ball(item.objects[0]):
            return False
        return item.objects[0] in touched(shot.events, shot.struck)

    def _rejudge(self, state: FrameState, item: LogItem) -> list[Update]:
        cp = state.checkpoint
        assert cp is not None
        items = [dict(x) for x in cp.items]
        rest = next((i for i, x in enumerate(items) if x.get("type") == EventType.AT_REST.value), None)
        if isinstance(item, HumanInput) and item.kind == InputKind.OVERRULE:
            code = item.data.get("code") or state.last_call
            if not code:
                raise RefereeError("there is no foul call to overrule")
            standalone = [i for i, x in enumerate(items) if _standalone_code(x) == code]
            if standalone:
                del items[standalone[-1]]
            elif rest is not None and code in state.last_fouls:
                items.insert(rest, item.to_json() | {"code": code})
            else:
                raise RefereeError(f"no {code} foul was called since the last shot started; nothing to overrule")
            why = f"{code} overruled"
        else:
            assert rest is not None
            items.insert(rest, item.to_json())
            why = "a late pot (2f(b))" if isinstance(item, TableEvent) else f"{item.kind} called"
        fresh, updates = self._rebuild(cp.snapshot, items)
        out = [info(f"The last shot is judged again: {why}.", rejudged=True)]
        for player, points in cp.score_since.items():
            if points:
                out.append(Update(UpdateKind.SCORE, f"Correction: {player}'s {points:+d} is withdrawn.",
                                  player=player, points=-points, data={"correction": True}))
        out.extend(updates)
        turned = any(u.kind is UpdateKind.TURN for u in updates)
        if not turned and fresh.visitor != state.visitor and fresh.visitor is not None and fresh.phase is not Phase.OVER:
            out.append(Update(UpdateKind.TURN, f"{fresh.visitor} to the table.", player=fresh.visitor,
                              data={"rejudged": True}))
        for f in dataclasses.fields(state):
            setattr(state, f.name, getattr(fresh, f.name))
        return out

    def _rebuild(self, before: FrameState, items: list[dict[str, Any]]) -> tuple[FrameState, list[Update]]:
        work = copy.deepcopy(before)
        work.checkpoint = None
        out: list[Update] = []
        for obj in items:
            try:
                out.extend(self._apply(work, from_json(obj)))
            except (RefereeError, LogFormatError) as exc:
                raise RefereeError(f"the last shot cannot be judged again: {exc}") from None
        return work, out

    # -- dispatch ------------------------------------------------------------------------------
    def _dispatch(self, state: FrameState, item: LogItem) -> list[Update]:
        if isinstance(item, HumanInput):
            try:
                kind = InputKind(item.kind)
            except ValueError:
                accepted = ", ".join(k.value for k in InputKind)
                raise RefereeError(f"unknown bar-billiards input {item.kind!r}; accepted: {accepted}") from None
            return self._inputs()[kind](state, item)
        handler = EVENT_HANDLERS.get(item.type)
        if handler is None:
            accepted = ", ".join(t.value for t in EVENT_HANDLERS)
            raise RefereeError(f"{item.type.value} events are not part of bar billiards; accepted: {accepted}")
        return handler(state, item, self.venue)

    def _inputs(self) -> dict[InputKind, Callable[[FrameState, HumanInput], list[Update]]]:
        handlers: dict[InputKind, Callable[[FrameState, HumanInput], list[Update]]] = {
            InputKind.COIN_TOSS: self._coin_toss,
            InputKind.BREAK_WINNER: self._coin_toss,
            InputKind.BREAK_OPTION: self._break_option,
            InputKind.CLOCK_EXPIRED: self._bar_drops,
            InputKind.BAR_DROPPED: self._bar_drops,
            InputKind.PIN_SWAP: self._pin_swap,
            InputKind.INTERFERENCE: self._interference,
            InputKind.ADD_FOUL: self._foul_call,
            InputKind.NOT_FROM_D: self._foul_call,
            InputKind.OVERRULE: self._overrule,
            InputKind.INVOKE_ENDGAME: self._invoke_endgame,
            InputKind.CONCEDE: self._concede,
            InputKind.NEW_FRAME: self._new_frame,
            InputKind.LEAGUE_MATCH: self._league_match,
            InputKind.SETUP: self._setup,
        }
        for kind in FOUL_INPUTS:
            handlers[kind] = self._foul_call
        return handlers

    def _player(self, state: FrameState, item: HumanInput, key: str, default: str | None) -> str:
        name = item.data.get(key, default)
        if name not in state.players:
            raise RefereeError(f"{item.kind} needs '{key}' naming a player: one of {', '.join(state.players)} "
                               f"(got {name!r})")
        return str(name)

    # -- the frame's start ----------------------------------------------------------------------
    def _coin_toss(self, state: FrameState, item: HumanInput) -> list[Update]:
        if state.phase is not Phase.TOSS:
            raise RefereeError("the break-off is already decided for this frame (2a)")
        if item.kind == InputKind.COIN_TOSS:
            winner = self._player(state, item, "winner", None)
            choice = item.data.get("choice", "break")
            if choice not in ("break", "give"):
                raise RefereeError(f"coin_toss 'choice' is 'break' or 'give' (2a), got {choice!r}")
            breaker = winner if choice == "break" else state.opponent(winner)
        else:
            breaker = self._player(state, item, "player", None)
        state.phase = Phase.PLAY
        state.visitor = breaker
        out = [Update(UpdateKind.PHASE, f"{breaker} breaks off (2a).", code="break_off", clause="2a",
                      player=breaker, data=frame_data(state)),
               Update(UpdateKind.TURN, f"{breaker} to the table.", player=breaker)]
        next_ball(state, self.venue, out)
        return out

    def _setup(self, state: FrameState, item: HumanInput) -> list[Update]:
        """A frame already in progress: the position now, whose visit, the scoreboard (``bar_billiards_setup``)."""
        return apply_setup(state, parse_setup(item.data, state, self.venue), self.venue)

    def _pin_swap(self, state: FrameState, item: HumanInput) -> list[Update]:
        if state.phase not in (Phase.TOSS, Phase.PLAY) or state.shots_in_frame or state.shot is not None:
            raise RefereeError("pins may be swapped only at the start of a frame, before the first shot (rule 6 note)")
        if item.data.get("home_agrees", True) is not True:
            raise RefereeError("the pins may be swapped only if the home player agrees (rule 6 note)")
        ids = list(item.data.get("pins", ("pin-200", "pin-100")))
        if len(ids) != 2 or len(set(ids)) != 2:
            raise RefereeError(f"pin_swap 'pins' names two pins, such as ['pin-200', 'pin-100'], got {ids!r}")
        for pid in ids:
            self.venue.pin(pid)
        first, second = (next(p for p in state.pins if p.id == pid) for pid in ids)
        first.colour, second.colour = second.colour, first.colour
        return [Update(UpdateKind.PHASE, f"Pins swapped: {first.id} is {first.colour}, {second.id} is {second.colour}; "
                       "the penalties follow the holes (rule 6 note).", code="pin_swap", clause="6",
                       data={first.id: first.colour, second.id: second.colour})]

    def _league_match(self, state: FrameState, item: HumanInput) -> list[Update]:
        if state.match is not None:
            raise RefereeError("a league match is already on the scorecard")
        if state.phase is not Phase.TOSS or state.shots_in_frame:
            raise RefereeError("a league match starts before the first frame's coin toss")
        try:
            state.match = build_scorecard(item.data)
        except ValueError as exc:
            raise RefereeError(str(exc)) from None
        out = [Update(UpdateKind.PHASE, f"League match: {state.match.home_team} v {state.match.away_team}, six "
                      "singles then three doubles (rule 6).", code="league_match", clause="6",
                      data=frame_data(state))]
        if item.data.get("referee"):
            warning = set_referee(state.match, str(item.data["referee"]))
            if warning:
                out.append(info(warning))
        return out

    def _new_frame(self, state: FrameState, item: HumanInput) -> list[Update]:
        out: list[Update] = []
        if state.phase is Phase.OFFER:
            finish(state, self.venue, out, "the lead is too big for the endgame (2i)")
        if state.phase is not Phase.OVER:
            raise RefereeError("the frame is not over: play it out, or concede it (3a(d))")
        fresh = next_frame(state, self.venue, out)
        if fresh.match is not None and item.data.get("referee"):
            warning = set_referee(fresh.match, str(item.data["referee"]))
            if warning:
                out.append(info(warning))
        for f in dataclasses.fields(state):
            setattr(state, f.name, getattr(fresh, f.name))
        return out

    # -- during play ------------------------------------------------------------------------------
    def _break_option(self, state: FrameState, item: HumanInput) -> list[Update]:
        if state.option_for is None:
            raise RefereeError("no foul break is waiting for the opponent's choice (2b(b))")
        chooser = self._player(state, item, "player", state.option_for)
        if chooser != state.option_for:
            raise RefereeError(f"the choice after the foul break is {state.option_for}'s, not {chooser}'s")
        choice = item.data.get("choice")
        if choice not in ("rebreak", "play_on"):
            raise RefereeError(f"break_option 'choice' is 'rebreak' or 'play_on' (2b(b)), got {choice!r}")
        state.option_for = None
        out = [Update(UpdateKind.INFO, f"{chooser} chooses to {'re-break' if choice == 'rebreak' else 'play on'}.",
                      code=str(choice), clause="2b(b)", player=chooser)]
        if choice == "rebreak":
            for ball in state.table:
                state.trough_red += ball.colour == "red"
                state.trough_white += ball.colour == "white"
            state.table = []
            state.returns_due = []
            out.append(instruction(Instruction.RERACK))
        else:
            next_ball(state, self.venue, out)
        return out

    def _bar_drops(self, state: FrameState, item: HumanInput) -> list[Update]:
        if state.phase is Phase.OVER:
            raise RefereeError("the frame is over; the clock no longer matters")
        if state.bar_down:
            raise RefereeError("the bar has already dropped in this frame")
        state.bar_down = True
        return [Update(UpdateKind.PHASE, "The bar has dropped: potted balls stay in the table; the scoring is "
                       "unchanged (2g).", code="bar_dropped", clause="2g")]

    def _interference(self, state: FrameState, item: HumanInput) -> list[Update]:
        require_play(state, "interference")
        shot = state.shot
        if shot is not None and shot.pre is not None:
            pre = shot.pre
            for f in dataclasses.fields(state):
                setattr(state, f.name, getattr(pre, f.name))
            return [instruction(Instruction.RESTORE_POSITIONS),
                    instruction(Instruction.REPLAY_SHOT, player=shot.striker)]
        for pin in state.pins:
            if pin.disturbed_between_shots:
                home = self.venue.pin(pin.id)
                pin.status, pin.x, pin.y = "standing", home.x, home.y
                pin.disturbed_between_shots = False
        return [instruction(Instruction.RESTORE_POSITIONS)]

    def _foul_call(self, state: FrameState, item: HumanInput) -> list[Update]:
        require_play(state, f"a {item.kind} call")
        shot = state.shot
        kind = InputKind(item.kind)
        if kind is InputKind.ADD_FOUL:
            try:
                code = parse_foul(item.data.get("code"))
            except ValueError as exc:
                raise RefereeError(str(exc)) from None
        elif kind is InputKind.NOT_FROM_D:
            kinds = {ShotKind.BREAK: Foul.BREAK_NOT_FROM_CENTRE, ShotKind.ENDGAME: Foul.NOT_FROM_CENTRE}
            code = kinds.get(shot.kind, Foul.CUED_OUTSIDE_D) if shot is not None else Foul.CUED_OUTSIDE_D
        else:
            code = FOUL_INPUTS[kind]
        if shot is None:
            if FOULS[code].of_shot:
                raise RefereeError(f"{item.kind}: no shot has been played since the frame or visit started to "
                                   "call it on")
            return self._foul_between_shots(state, item, code)
        if code is Foul.BALL_TOUCHED_PERSON:
            ball = item.data.get("ball")
            came_back = [o for e in shot.events if e.type == "off_table" and e.data.get("returned") for o in e.objects]
            if ball is None and len(set(came_back)) != 1:
                raise RefereeError("ball_touched_person: say which ball ('ball': 'white-2'); "
                                   f"balls that left the table and came back: {sorted(set(came_back)) or 'none'}")
            name = str(ball or came_back[0])
            if not any(b.id == name for b in shot.balls):
                raise RefereeError(f"ball_touched_person: {name} is not on the table in this shot")
            shot.touched_person.append(name)
            return [info(f"{name} came back off a person or object (2d(b)).")]
        player = self._player(state, item, "player",
                              state.opponent(shot.striker) if code is Foul.OUT_OF_TURN else shot.striker)
        if code is Foul.OUT_OF_TURN:
            if player == state.visitor:
                raise RefereeError(f"out_of_turn: {player} is the player whose visit it is")
            shot.striker = player
        if code is Foul.SAME_BREAK_FOURTH_TIME and (shot.kind is not ShotKind.BREAK
                                                    or shot.break_number <= self.venue.same_break_limit):
            raise RefereeError(f"same_break_fourth_time: this shot is break-off number {shot.break_number} in a row; "
                               f"the limit is {self.venue.same_break_limit} (2b(d))")
        shot.calls.append(Call(code.value, player))
        return [info(f"Call recorded: {code.value} by {player} ({FOULS[code].clause}).", code=code.value)]

    def _foul_between_shots(self, state: FrameState, item: HumanInput, code: Foul) -> list[Update]:
        """A foul that is no shot's: handling the balls or pins, time wasting (3a(d), 3b(g))."""
        offender = self._player(state, item, "player", state.visitor)
        out: list[Update] = []
        penalise(state, [FoulFound(code, offender)], out)
        if offender == state.option_for:  # a foul by the player choosing after a foul break ends the choice
            state.option_for = None
        if offender == state.visitor:
            end_visit(state, self.venue, out, state.opponent(offender))
        else:
            reset_pins(state, self.venue, out)
        next_ball(state, self.venue, out)
        return out

    def _overrule(self, state: FrameState, item: HumanInput) -> list[Update]:
        shot = state.shot
        if shot is None:
            raise RefereeError("there is no foul call to overrule")
        code = item.data.get("code")
        if code is None and shot.calls:
            code = shot.calls[-1].code
        if code is None:
            raise RefereeError("overrule during a shot needs 'code' (the foul to cancel) when nothing was called yet")
        try:
            parse_foul(code)
        except ValueError as exc:
            raise RefereeError(str(exc)) from None
        mine = [c for c in shot.calls if c.code == code]
        if mine:
            shot.calls.remove(mine[-1])
        else:
            shot.overruled.append(str(code))
        return [info(f"{code} overruled.", code=str(code))]

    def _invoke_endgame(self, state: FrameState, item: HumanInput) -> list[Update]:
        if state.phase is not Phase.OFFER or state.offer_to is None:
            raise RefereeError("the endgame can be invoked only when one ball is left and the lead is bigger "
                               "than the endgame margin (2i)")
        self._player(state, item, "player", state.offer_to)
        if item.data.get("player", state.offer_to) != state.offer_to:
            raise RefereeError(f"only the leader, {state.offer_to}, may invoke the endgame (2i)")
        out: list[Update] = []
        if item.data.get("invoke", True):
            colours = state.colours_in_play()
            start_endgame(state, self.venue, out, colours[0])
            next_ball(state, self.venue, out)
        else:
            finish(state, self.venue, out, "the lead is too big for the endgame (2i)")
        return out

    def _concede(self, state: FrameState, item: HumanInput) -> list[Update]:
        if state.phase in (Phase.TOSS, Phase.OVER):
            raise RefereeError("there is no frame in play to concede")
        conceder = self._player(state, item, "player", state.visitor)
        state.shot = None
        out: list[Update] = []
        penalise(state, [FoulFound(Foul.UNSPORTING, conceder, (("reason", "conceded"),))], out)
        finish(state, self.venue, out, f"{conceder} conceded (3a(d))", winner=state.opponent(conceder), decided=True)
        return out


def _standalone_code(obj: Mapping[str, Any]) -> str | None:
    """The foul code of a logged input that was a foul on its own (not attached to a shot)."""
    kind = obj.get("input")
    if kind == InputKind.ADD_FOUL.value:
        code = obj.get("code")
        try:
            return parse_foul(code).value if not FOULS[parse_foul(code)].of_shot else None
        except ValueError:
            return None
    try:
        foul = FOUL_INPUTS.get(InputKind(str(kind)))
    except ValueError:
        return None
    return foul.value if foul is not None and not FOULS[foul].of_shot else None
