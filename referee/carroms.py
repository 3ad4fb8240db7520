"""Carroms referee: the rule book ``/work/shared/rules/carroms.txt`` as a state machine over table events.

How the rule book maps to the code (clause ids as in ``carroms_rules.CLAUSES``):

=====================  ==========================================================================
Rule book section      Code
=====================  ==========================================================================
Preparation            inputs ``players``, ``toss`` (a CHOICE for whoever chooses), ``break_winner``;
                       ``Judge.start_board`` (the breaker's side plays white)
Objective              ``Judge.legal_strike`` / ``Judge.last_piece_down`` (win by clearing own colour
                       once the queen is covered), ``QueenState``
Striking               ``Geometry.placement`` (Striking.1-3), ``strike_facts`` crossing and
                       ``hit_before_crossing`` (Striking.4-5); human ``add_foul`` for one-finger and
                       foul-line calls
Basic rules            break attempts in ``Judge.strike`` (Basic.1), ``Judge.place_off_board``
                       (Basic.2), turn continuation in ``Judge.legal_strike`` (Basic.4)
Covering the Queen     ``Judge.legal_strike`` (Queen.1-3), ``Judge.end_turn`` (Queen.2, Queen.4)
Other Rules            returned pieces go "in the centre circle, not on top" (instruction text);
                       ``Geometry.striker_under_piece`` (Other.3); Other.2 needs nothing
Fouls                  ``Judge.strike_fouls`` (every foul judged from events), ``Judge.foul_strike``
                       (Fouls.0 penalty, dues), ``Judge.penalise`` and ``Judge.end_turn`` (owed
                       penalties), ``Judge.standalone_foul`` (touching a piece between strikes)
Doubles                ``players`` with four seats, ``Judge.order_from`` (clockwise turns)
Scoring                ``Judge.end_board`` (Scoring.1-2), ``Judge.match_check`` (Scoring.3-4)
=====================  ==========================================================================

Decisions where the rule book is ambiguous or silent (what a referee at the table would accept):

* **Queen cover, "immediately after" (Objective) against "in the same turn" (Covering the Queen).**
  Default ``queen_cover="next_strike"``: the cover is an own piece pocketed on the same strike as the
  queen or on the very next strike. This is the Objective's definition and the international
  (ICF) practice; the covering section's "same turn" sentence is read as allowing the same-strike
  cover. Venues that read it literally (an own piece pocketed *earlier* in the turn also covers)
  set ``queen_cover="same_turn"``. Either way "already pocketed one piece" (Queen.1) means before
  the strike that pockets the queen.
* **Fouls end the turn, but a double due does not (Fouls.7-8).** Only a strike whose sole foul is
  the double due continues; the striker with the queen or with an opponent's piece is a plain due.
  Own pieces and the queen pocketed on any foul strike come back; the opponent's pieces stay down
  (they count for the opponent). One penalty piece a strike, however many fouls it holds.
* **Fouls.2 (opponent's piece first).** "Touching his own later" is read as any own piece touched
  (by the striker or another piece) or pocketed later in the strike. It contradicts Basic.3, so it
  is a venue option (``opponent_first_contact_foul``, default on as the rule book lists it).
* **Fouls.3 (own last piece first).** No foul when the same strike covers the queen with it.
* **Fouls.5 (the arrows).** Read together with Striking.5: striking a piece on or behind the front
  baseline before the striker crosses it (``piece_behind_baseline``).
* **The opponent's last piece pocketed** (not hit directly, which loses the board by Fouls.4). The
  rule book is silent. With the queen covered the opponent has cleared the colour and wins the
  board; before that it is a foul (the piece and a penalty come back), as most club rules have it.
  ``opponent_last_piece_pocketed="loses_board"`` makes it a lost board every time.
* **Owed penalties (Fouls.12).** Paid at the end of any turn once a piece of the debtor's colour is
  pocketed. Whether the opponent forgot to place it is for the human (``owed_forgotten``), or, with
  ``owed_lapse_from_camera``, lapses when no ``placed`` event confirmed it before the next strike.
  A player cannot win with a penalty owed: the debt is paid at once from the pieces just pocketed.
* **Queen bonus "under 24 points" (Scoring.2).** The winner's match total before the board
  (``queen_bonus_basis="before_board"``, ICF practice); ``"after_pieces"`` adds the board's piece
  points first.
* **Next board's break.** Silent in the rule book; the break rotates to the next seat in turn order
  (``next_board_break="rotate"``, ICF practice), or goes to the ``winner``/``loser`` of the board.
* **Doubles order** follows the rule book (clockwise seen from above: south, west, north, east);
  ``turn_direction="anticlockwise"`` for venues that play to the right.
* **Deciding board (Scoring.4).** Its winner wins the match whatever the totals.
* **Break attempts (Basic.1).** An attempt breaks when the striker touches a piece, anything drops,
  or (given positions) a piece moved more than ``break_disturb_mm``. A foul on an attempt is judged
  as a foul and ends the breaking. After three misses: the break-failed foul, the turn passes.
* **Late pots.** A piece that drops after ``at_rest`` and before the next strike belongs to the last
  strike (DESIGN.md): the strike is judged again, as for ``overrule`` and for a striking foul entered
  after the strike; a re-judgement sends the corrected verdict and SCORE corrections (the score
  contract holds: the scores equal the sum of SCORE updates).

Human inputs (``HumanInput.kind``): ``players``, ``toss``, ``break_winner``, ``add_foul``,
``overrule``, ``owed_forgotten``, ``concede``, ``new_board``, and ``setup`` (a board already in
progress, ``carroms_setup``); see ``docs/referee/carroms.md``.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from tableref.events import EventType, HumanInput, LogItem, TableEvent, from_json
from tableref.referee.base import Engine, Outcome, RefereeError, Update, UpdateKind
from tableref.referee.carroms_geometry import DEFAULT_GEOMETRY_OPTIONS, SEATS, Geometry
from tableref.referee.carroms_judge import Judge, Rules
from tableref.referee.carroms_rules import HUMAN_FOULS, STRIKE_FOULS, CarromFoul, CarromNote, cap
from tableref.referee.carroms_setup import apply_setup, parse_setup
from tableref.referee.carroms_state import CarromsState, LastStrike, Pending, Phase
from tableref.referee.carroms_strike import (
    StrikeEvent,
    StrikeRecord,
    colour_of,
    point_of,
    positions_of,
    striker_potted,
)

INPUT_KINDS: tuple[str, ...] = ("players", "toss", "break_winner", "add_foul", "overrule", "owed_forgotten",
                                "concede", "new_board", "setup")
_STRIKE_TYPES = (EventType.CONTACT, EventType.CUSHION, EventType.OFF_TABLE, EventType.BASELINE_CROSS)


class CarromsEngine(Engine[CarromsState]):
    """The Carroms referee (singles and doubles, boards and the match)."""

    INPUT_KINDS = INPUT_KINDS

    game: ClassVar[str] = "carroms"

    default_options: ClassVar[Mapping[str, Any]] = MappingProxyType({
        "queen_cover": "next_strike",
        "queen_bonus": 5,
        "queen_bonus_limit": 24,
        "queen_bonus_basis": "before_board",
        "match_points": 29,
        "match_boards": 8,
        "break_attempts": 3,
        "opponent_first_contact_foul": True,
        "baseline_cross_events": True,
        "opponent_last_piece_pocketed": "foul",
        "next_board_break": "rotate",
        "turn_direction": "clockwise",
        "owed_lapse_from_camera": False,
        "delay_is_foul": False,
        **DEFAULT_GEOMETRY_OPTIONS,
    })

    rules: Rules
    geometry: Geometry

    def _check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        merged = super()._check_options(options)
        self.rules = Rules.from_options(merged)
        self.geometry = Geometry.from_options(merged)
        return merged

    def _initial_state(self) -> CarromsState:
        return CarromsState()

    def _outcome(self, state: CarromsState) -> Outcome | None:
        if state.match_winner is None:
            return None
        return Outcome(winner=state.match_winner, scores=dict(state.totals), reason=state.match_reason or "")

    def _scores(self, state: CarromsState) -> dict[str, int]:
        return dict(state.totals)

    def _judge(self, state: CarromsState) -> Judge:
        return Judge(state, self.rules, self.geometry)

    # -- dispatch ---------------------------------------------------------------------------------
    def _apply(self, state: CarromsState, item: LogItem) -> list[Update]:
        return self._step(state, item)

    def _step(self, state: CarromsState, item: LogItem) -> list[Update]:
        """Apply one item; items between a strike's rest and the next strike are kept for re-judging."""
        had_last = state.last is not None
        rejudge = self._is_rejudge(state, item)
        updates = self._dispatch(state, item)
        if had_last and not rejudge and state.last is not None:
            state.last.after.append(item.to_json())
        return updates

    def _dispatch(self, state: CarromsState, item: LogItem) -> list[Update]:
        if isinstance(item, HumanInput):
            handler = self._inputs().get(item.kind)
            if handler is None:
                raise RefereeError(f"unknown carroms input {item.kind!r}; accepted: {', '.join(INPUT_KINDS)}")
            return handler(state, item)
        return self._event(state, item)

    def _inputs(self) -> dict[str, Callable[[CarromsState, HumanInput], list[Update]]]:
        return {"players": self._players, "toss": self._toss, "break_winner": self._break_winner,
                "add_foul": self._add_foul, "overrule": self._overrule, "owed_forgotten": self._owed_forgotten,
                "concede": self._concede, "new_board": self._new_board, "setup": self._setup}

    def _is_rejudge(self, state: CarromsState, item: LogItem) -> bool:
        if state.phase is Phase.STRIKE:
            return False
        if isinstance(item, TableEvent):
            return item.type is EventType.POT
        if item.kind == "overrule":
            return True
        return item.kind == "add_foul" and str(item.data.get("code")) in STRIKE_FOULS

    # -- table events -------------------------------------------------------------------------------
    def _event(self, s: CarromsState, ev: TableEvent) -> list[Update]:
        for obj in ev.objects:
            colour_of(obj)
        if s.phase is Phase.MATCH_OVER and ev.type is EventType.SHOT_START:
            raise RefereeError("the match is over; no more strikes are judged")
        if ev.type is EventType.SHOT_START:
            return self._shot_start(s, ev)
        if ev.type in _STRIKE_TYPES:
            return self._in_strike(s, ev)
        if ev.type is EventType.POT:
            return self._pot(s, ev)
        if ev.type is EventType.AT_REST:
            return self._at_rest(s, ev)
        if ev.type in (EventType.PLACED, EventType.REMOVED, EventType.MOVED):
            return self._by_hand(s, ev)
        accepted = ", ".join(t.value for t in (EventType.SHOT_START, *_STRIKE_TYPES, EventType.POT,
                                                EventType.AT_REST, EventType.PLACED, EventType.REMOVED,
                                                EventType.MOVED))
        raise RefereeError(f"a {ev.type.value} event has no meaning on a carrom board; accepted: {accepted}")

    def _shot_start(self, s: CarromsState, ev: TableEvent) -> list[Update]:
        if ev.objects and "striker" not in ev.objects:
            raise RefereeError(f"a carrom strike is made with the striker, but shot_start names {list(ev.objects)}")
        if s.phase is Phase.STRIKE:
            raise RefereeError("a new strike started before the last one came to rest (no at_rest seen)")
        if s.phase is Phase.BOARD_OVER:
            raise RefereeError("the board is over; enter new_board to start the next one")
        judge = self._judge(s)
        if s.phase is Phase.SETUP:
            breaker = s.first_breaker or judge.seat_cycle()[0]
            judge.emit(UpdateKind.INFO, f"No break winner was entered: {s.player(breaker)} breaks.",
                       code=CarromNote.DEFAULT_BREAK.value, clause="Preparation.1")
            judge.start_board(breaker)
        positions = positions_of(ev.data)
        position = ev.data.get("position")
        striker_at = point_of(position, "position") if position is not None else positions.get("striker")
        judge.out.extend(self._settle_pending(s, judge))
        seat = s.turn
        assert seat is not None
        s.last = None
        s.strikes += 1
        if positions:
            s.positions = positions
        s.strike = StrikeRecord(
            seat=seat, side=s.side(seat), colour=s.colour_of[s.side(seat)], number=s.strikes,
            break_attempt=s.break_failures + 1 if s.breaking else 0, position=striker_at,
            start_positions=dict(positions or s.positions), start_on_board=dict(s.on_board))
        s.phase = Phase.STRIKE
        return judge.out

    def _settle_pending(self, s: CarromsState, judge: Judge) -> list[Update]:
        """Pieces the table had to place are taken as placed when the next strike starts, except an owed
        penalty piece no ``placed`` event confirmed, where the venue lets the camera decide (Fouls.12)."""
        out: list[Update] = []
        if self.rules.owed_lapse_from_camera:
            out.extend(self._lapse(s, judge, [p for p in s.pending if p.owed_by is not None]))
        s.pending = []
        return out

    def _lapse(self, s: CarromsState, judge: Judge, entries: list[Pending]) -> list[Update]:
        out: list[Update] = []
        for p in entries:
            s.pending.remove(p)
            s.on_board[p.piece] -= 1
            if s.unknown_returns[p.piece] > 0:
                s.unknown_returns[p.piece] -= 1
            out.append(Update(kind=UpdateKind.INFO, text=f"The owed {p.piece} piece was not placed before the next "
                              "turn: that penalty is lost.", code=CarromNote.OWED_LAPSED.value, clause="Fouls.12",
                              player=p.owed_by, data={"piece": p.piece}))
        return out

    def _require_strike(self, s: CarromsState, ev: TableEvent) -> StrikeRecord:
        if s.phase is not Phase.STRIKE or s.strike is None:
            raise RefereeError(f"a {ev.type.value} event with no strike in play (pieces move between strikes "
                               "only by hand: placed, moved, removed)")
        return s.strike

    def _in_strike(self, s: CarromsState, ev: TableEvent) -> list[Update]:
        rec = self._require_strike(s, ev)
        if ev.type is EventType.CONTACT and len(ev.objects) < 2:
            raise RefereeError(f"a contact names the two objects that touched, got {list(ev.objects)}")
        direction = ev.data.get("direction")
        rec.events.append(StrikeEvent(type=ev.type.value, objects=tuple(ev.objects), where=ev.where,
                                      direction=str(direction) if direction is not None else None,
                                      returned=bool(ev.data.get("returned", False))))
        return []

    def _pot(self, s: CarromsState, ev: TableEvent) -> list[Update]:
        if not ev.objects:
            raise RefereeError("a pot names the object that dropped, such as ['white-3']")
        if ev.where is not None and ev.where not in self.geometry.pockets:
            raise RefereeError(f"unknown pocket {ev.where!r}; accepted: {', '.join(self.geometry.pockets)}")
        if s.phase is Phase.STRIKE:
            self._record_pot(s, ev)
            return []
        return self._rejudge(s, f"{', '.join(ev.objects)} dropped after the rest",
                             lambda new: self._record_pot(new, ev))

    def _record_pot(self, s: CarromsState, ev: TableEvent) -> None:
        rec = s.strike
        assert rec is not None
        for obj in ev.objects:
            colour = colour_of(obj)
            if colour == "striker":
                if striker_potted(rec.events):
                    raise RefereeError("the striker was already pocketed on this strike")
            elif colour == "queen":
                if s.on_board["queen"] == 0:
                    raise RefereeError("a pot of the queen, but the queen is not on the board")
                s.on_board["queen"] = 0
            else:
                if s.on_board[colour] == 0:
                    raise RefereeError(f"a pot of {obj}, but no {colour} piece is on the board")
                if obj != colour:
                    if obj in s.ids_off:
                        if s.unknown_returns[colour] == 0:
                            raise RefereeError(f"a pot of {obj}, but {obj} is already pocketed")
                        s.unknown_returns[colour] -= 1
                    else:
                        s.ids_off.append(obj)
                s.on_board[colour] -= 1
            rec.events.append(StrikeEvent(type="pot", objects=(obj,), where=ev.where))

    def _at_rest(self, s: CarromsState, ev: TableEvent) -> list[Update]:
        positions = positions_of(ev.data)
        if s.phase is not Phase.STRIKE or s.strike is None:
            if positions:
                s.positions = positions
            return []
        before = copy.deepcopy(s)
        rec = s.strike
        rec.rest_positions = positions
        if positions:
            s.positions = positions
        judge = self._judge(s)
        judge.strike()
        s.strike = None
        if s.phase is Phase.STRIKE:
            s.phase = Phase.READY
        s.last = LastStrike(before=before, rest=ev.to_json(), judged=list(judge.judged))
        return judge.out

    def _by_hand(self, s: CarromsState, ev: TableEvent) -> list[Update]:
        """placed / removed / moved: the table's hands. Placing confirms a piece the referee asked for."""
        if s.phase is Phase.STRIKE:
            raise RefereeError(f"a piece was {ev.type.value} by hand during a strike; wait for at_rest")
        pieces = [o for o in ev.objects if o != "striker"]
        if s.phase in (Phase.SETUP, Phase.BOARD_OVER, Phase.MATCH_OVER) or not pieces:
            return []
        if ev.type is EventType.REMOVED:
            raise RefereeError(f"{', '.join(pieces)} taken off the board by hand; pieces in play stay on the "
                               "board (use overrule or undo to correct a miscount)")
        judge = self._judge(s)
        if ev.type is EventType.MOVED:
            if s.pending:  # the opponent is placing returned pieces
                return []
            judge.emit(UpdateKind.INFO, f"{', '.join(pieces)} moved by hand; if a player touched a piece in play, "
                       "enter add_foul touched_piece.", code=CarromNote.HAND_MOVED.value, clause="Fouls.11")
            return judge.out
        for obj in pieces:
            colour = colour_of(obj)
            match = next((p for p in s.pending if p.piece == colour), None)
            if match is None:
                raise RefereeError(f"{obj} was placed on the board but no {colour} piece is due back; "
                                   "pieces return only after a foul, an uncovered queen or leaving the board")
            s.pending.remove(match)
            if obj != colour and obj in s.ids_off:
                s.ids_off.remove(obj)
                if s.unknown_returns[colour] > 0:
                    s.unknown_returns[colour] -= 1
            judge.emit(UpdateKind.INFO, f"{cap(obj)} is back on the board.", code=CarromNote.PLACED.value, clause="Fouls.0",
                       data={"piece": obj, "reason": match.reason})
        return judge.out

    # -- re-judging the last strike -------------------------------------------------------------------
    def _rejudge(self, s: CarromsState, why: str, change: Callable[[CarromsState], None]) -> list[Update]:
        """Judge the last strike again from its record with ``change`` applied, then replay what came after.

        The tablet gets the new verdict in full; SCORE updates are replaced by one correction per side
        so that the scores still equal the sum of every SCORE update sent.
        """
        last = s.last
        if last is None:
            raise RefereeError("there is no finished strike to judge again (it must be the last strike of this "
                               "board, before the next strike starts)")
        old = dict(s.totals)
        new = copy.deepcopy(last.before)
        change(new)
        out = [Update(kind=UpdateKind.PHASE, text=f"The last strike is judged again: {why}.",
                      code=CarromNote.REJUDGED.value, data={"why": why})]
        out += self._dispatch(new, from_json(last.rest))
        for raw in last.after:
            out += self._step(new, from_json(raw))
        out = [u for u in out if u.kind is not UpdateKind.SCORE]
        for side in new.sides:
            delta = new.totals.get(side, 0) - old.get(side, 0)
            if delta:
                out.append(Update(kind=UpdateKind.SCORE, text=f"Score after judging the strike again: {side} "
                                  f"{delta:+d} ({new.totals[side]} in all).", code=CarromNote.SCORE.value, player=side,
                                  points=delta, data={"totals": dict(new.totals)}))
        for f in dataclasses.fields(s):
            setattr(s, f.name, getattr(new, f.name))
        return out

    # -- human inputs ----------------------------------------------------------------------------------
    def _seat(self, s: CarromsState, value: Any, what: str) -> str:
        if value not in s.seats:
            raise RefereeError(f"{what} must be a seat in play ({', '.join(s.seats)}), got {value!r}")
        return str(value)

    def _players(self, s: CarromsState, item: HumanInput) -> list[Update]:
        if s.phase is not Phase.SETUP:
            raise RefereeError("players are set before the first strike of the match")
        seats = {k: v for k, v in item.data.items() if k != "teams"}
        bad = set(seats) - set(SEATS)
        if bad:
            raise RefereeError(f"players maps seats to names; unknown seat(s) {sorted(bad)}; accepted: {', '.join(SEATS)}")
        names = list(seats.values())
        if not all(isinstance(n, str) and n.strip() for n in names) or len(set(names)) != len(names):
            raise RefereeError("players needs a different non-empty name for each seat")
        if len(seats) == 2 and set(seats) in ({"south", "north"}, {"east", "west"}):
            doubles = False
        elif len(seats) == 4:
            doubles = True
        else:
            raise RefereeError("players: singles is two opposite seats (south and north, or east and west), "
                               "doubles all four seats")
        ordered = {seat: str(seats[seat]) for seat in SEATS if seat in seats}
        if doubles:
            teams = item.data.get("teams", {})
            if not isinstance(teams, Mapping):
                raise RefereeError("teams maps 'north-south' and 'east-west' to team names")
            ns = str(teams.get("north-south") or f"{ordered['south']} & {ordered['north']}")
            ew = str(teams.get("east-west") or f"{ordered['west']} & {ordered['east']}")
            if ns == ew:
                raise RefereeError("the two teams need different names")
            side_of = {"south": ns, "north": ns, "west": ew, "east": ew}
            sides = [ns, ew]
        else:
            side_of = dict(ordered)
            sides = list(ordered.values())
        s.seats, s.side_of, s.sides, s.doubles = ordered, side_of, sides, doubles
        s.totals = {side: 0 for side in sides}
        s.chooser = s.first_breaker = None
        text = " v ".join(sides)
        return [Update(kind=UpdateKind.INFO, text=f"{'Doubles' if doubles else 'Singles'}: {text}.",
                       code=CarromNote.PLAYERS.value, clause="Doubles.1" if doubles else "Preparation.1", data={"seats": dict(ordered)})]

    def _toss(self, s: CarromsState, item: HumanInput) -> list[Update]:
        if s.phase is not Phase.SETUP:
            raise RefereeError("the toss is made before the first strike of the match")
        concealer = self._seat(s, item.data.get("concealer"), "toss concealer")
        guessed = item.data.get("guessed")
        if not isinstance(guessed, bool):
            raise RefereeError("toss needs 'guessed': true when the opponent found the hiding hand, else false")
        judge = self._judge(s)
        guesser = self._seat(s, item.data.get("guesser", s.placer(concealer)), "toss guesser")
        s.chooser = guesser if guessed else concealer
        judge.emit(UpdateKind.CHOICE, f"{cap(s.player(s.chooser))} chooses who strikes first (with white); "
                   "enter break_winner.", code=CarromNote.TOSS.value, clause="Preparation.1",
                   player=s.player(s.chooser), data={"chooser": s.chooser, "options": list(s.seats)})
        return judge.out

    def _break_winner(self, s: CarromsState, item: HumanInput) -> list[Update]:
        seat = self._seat(s, item.data.get("seat"), "break_winner seat")
        judge = self._judge(s)
        if s.phase is Phase.SETUP:
            s.first_breaker = seat
            judge.start_board(seat)
        elif s.phase is Phase.READY and s.strikes == 0 and s.breaking and not s.break_failures:
            judge.start_board(seat, again=True)
        elif s.phase is Phase.BOARD_OVER:
            judge.start_board(seat)
        else:
            raise RefereeError("who breaks is decided before a board's first strike")
        return judge.out

    def _add_foul(self, s: CarromsState, item: HumanInput) -> list[Update]:
        code_raw = item.data.get("code")
        accepted = sorted(c.value for c in HUMAN_FOULS)
        try:
            code = CarromFoul(str(code_raw))
        except ValueError:
            code = None
        if code is None or code not in HUMAN_FOULS:
            raise RefereeError(f"add_foul code {code_raw!r} is not one the referee enters; accepted: "
                               f"{', '.join(accepted)}")
        if code is CarromFoul.DELAY and not self.rules.delay_is_foul:
            raise RefereeError("delay is not a foul in this rule book; the venue enables it with delay_is_foul")
        if s.phase is Phase.STRIKE and s.strike is not None:
            seat = self._seat(s, item.data.get("seat", s.strike.seat), "add_foul seat")
            if seat == s.strike.seat:
                s.strike.human_fouls.append(code.value)
                return []
            judge = self._judge(s)
            judge.standalone_foul(code, seat)
            return judge.out
        if code in STRIKE_FOULS:
            last = s.last
            if last is None or last.before.strike is None:
                raise RefereeError(f"{code.value} is a call on a strike, and no strike has been played "
                                   "since the last one was judged on this board")
            striker = last.before.strike.seat

            def change(new: CarromsState) -> None:
                assert new.strike is not None
                new.strike.human_fouls.append(code.value)
                if code.value in new.strike.overruled:
                    new.strike.overruled.remove(code.value)
            return self._rejudge(s, f"{s.player(striker)}: {code.value} called by the referee", change)
        if s.phase is not Phase.READY or s.turn is None:
            raise RefereeError("a foul between strikes needs a board in play")
        seat = self._seat(s, item.data.get("seat", s.turn), "add_foul seat")
        judge = self._judge(s)
        judge.standalone_foul(code, seat)
        return judge.out

    def _overrule(self, s: CarromsState, item: HumanInput) -> list[Update]:
        if s.phase is Phase.STRIKE:
            raise RefereeError("overrule applies to a finished strike; wait for at_rest")
        last = s.last
        if last is None or last.before.strike is None:
            raise RefereeError("there is no finished strike to overrule on this board")
        keys = [k for k in ("foul", "pot", "first_contact") if k in item.data]
        if len(keys) != 1:
            raise RefereeError("overrule takes one of: foul (a foul code to cancel), pot (an object that did not "
                               "drop), first_contact (the object the striker really hit first, or '' for none)")
        key, value = keys[0], item.data[keys[0]]
        if key == "foul":
            if value not in last.judged and value not in last.before.strike.human_fouls:
                called = ", ".join(last.judged) or "none"
                raise RefereeError(f"{value!r} was not called on the last strike; fouls called: {called}")

            def cancel(new: CarromsState) -> None:
                assert new.strike is not None
                new.strike.overruled.append(str(value))
                if value in new.strike.human_fouls:
                    new.strike.human_fouls.remove(str(value))
            return self._rejudge(s, f"the referee cancels {value}", cancel)
        if key == "pot":
            obj = str(value)
            colour_of(obj)
            return self._rejudge(s, f"{obj} did not drop", lambda new: self._unpot(new, obj))
        target = str(value)
        if target:
            colour_of(target)

        def set_first(new: CarromsState) -> None:
            assert new.strike is not None
            new.strike.first_contact_override = target
        return self._rejudge(s, f"the striker's first contact was {target or 'nothing'}", set_first)

    def _unpot(self, s: CarromsState, obj: str) -> None:
        rec = s.strike
        assert rec is not None
        colour = colour_of(obj)
        for i in range(len(rec.events) - 1, -1, -1):
            ev = rec.events[i]
            if ev.type == "pot" and (obj in ev.objects or (obj == colour and any(
                    colour_of(o) == colour for o in ev.objects))):
                dropped = next(o for o in ev.objects if o == obj or colour_of(o) == colour)
                del rec.events[i]
                if colour in ("white", "black"):
                    s.on_board[colour] += 1
                    if dropped in s.ids_off:
                        s.ids_off.remove(dropped)
                elif colour == "queen":
                    s.on_board["queen"] = 1
                return
        raise RefereeError(f"no pot of {obj} on the last strike to overrule")

    def _owed_forgotten(self, s: CarromsState, item: HumanInput) -> list[Update]:
        owed = [p for p in s.pending if p.owed_by is not None]
        if not owed:
            raise RefereeError("no owed penalty piece is waiting to be placed")
        return self._lapse(s, self._judge(s), owed)

    def _concede(self, s: CarromsState, item: HumanInput) -> list[Update]:
        seat = self._seat(s, item.data.get("seat"), "concede seat")
        match = item.data.get("match", False)
        if not isinstance(match, bool):
            raise RefereeError("concede 'match' is true (the whole match) or false (this board)")
        judge = self._judge(s)
        winner = s.opponent_side(s.side(seat))
        if match and s.phase is not Phase.MATCH_OVER:
            s.strike = None
            judge.match_over(winner, f"{s.side(seat)} conceded the match")
        elif s.phase is Phase.READY:
            judge.end_board(winner, f"{s.side(seat)} conceded the board", "Objective.1")
        else:
            raise RefereeError("a board is conceded between strikes of a board in play; the match at any time "
                               "before it is over")
        return judge.out

    def _setup(self, s: CarromsState, item: HumanInput) -> list[Update]:
        """A board already in progress: the pieces, the seat on turn, the totals, the queen (``carroms_setup``)."""
        return apply_setup(s, parse_setup(item.data, s, self.rules, self.geometry), self._judge(s))

    def _new_board(self, s: CarromsState, item: HumanInput) -> list[Update]:
        if s.phase is not Phase.BOARD_OVER:
            raise RefereeError("new_board follows a finished board (the board in play is not over)")
        judge = self._judge(s)
        winner = s.results[-1].winner if s.results else None
        given = item.data.get("breaker")
        breaker = self._seat(s, given, "new_board breaker") if given is not None else judge.next_breaker(winner)
        judge.start_board(breaker)
        return judge.out
