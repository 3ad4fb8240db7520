"""Judging a finished strike, and everything a verdict sets off: penalties, returned pieces, the queen,
the turn passing, a board won, the match won.

A :class:`Judge` is made for one engine step over the engine's working copy of the state. It
mutates that copy and collects the updates in order; the engine hands them back. Keeping the
verdict apart from the event bookkeeping (``carroms.py``) lets a strike be judged again from its
record (a late pot, an overrule) by the very same code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tableref.referee.base import Update, UpdateKind
from tableref.referee.carroms_geometry import SEATS, Geometry, Placement
from tableref.referee.carroms_rules import (
    FOUL_CLAUSE,
    INSTRUCTION_CLAUSE,
    INSTRUCTION_TEXT,
    CarromFoul,
    CarromInstruction,
    CarromNote,
    cap,
    foul_sentence,
)
from tableref.referee.carroms_state import (
    PIECES_PER_COLOUR,
    BoardResult,
    CarromsState,
    Pending,
    Phase,
    QueenState,
)
from tableref.referee.carroms_strike import StrikeFacts, StrikeRecord, colour_of, pots, strike_facts


@dataclass(frozen=True)
class Rules:
    """The venue options the verdicts read, typed and checked (see ``CarromsEngine`` for each one's why)."""

    queen_cover: str
    queen_bonus: int
    queen_bonus_limit: int
    queen_bonus_basis: str
    match_points: int
    match_boards: int
    break_attempts: int
    opponent_first_contact_foul: bool
    baseline_cross_events: bool
    opponent_last_piece_pocketed: str
    next_board_break: str
    turn_direction: str
    owed_lapse_from_camera: bool
    delay_is_foul: bool

    CHOICES = {
        "queen_cover": ("next_strike", "same_turn"),
        "queen_bonus_basis": ("before_board", "after_pieces"),
        "opponent_last_piece_pocketed": ("foul", "loses_board"),
        "next_board_break": ("rotate", "winner", "loser"),
        "turn_direction": ("clockwise", "anticlockwise"),
    }
    COUNTS = ("queen_bonus", "queen_bonus_limit", "match_points", "match_boards", "break_attempts")
    FLAGS = ("opponent_first_contact_foul", "baseline_cross_events", "owed_lapse_from_camera", "delay_is_foul")

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Rules:
        for name, accepted in cls.CHOICES.items():
            if options[name] not in accepted:
                raise ValueError(f"option {name} must be one of {', '.join(accepted)}; got {options[name]!r}")
        for name in cls.COUNTS:
            value = options[name]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"option {name} must be a whole number >= 0, got {value!r}")
        for name in ("match_boards", "break_attempts", "match_points"):
            if options[name] < 1:
                raise ValueError(f"option {name} must be at least 1, got {options[name]!r}")
        for name in cls.FLAGS:
            if not isinstance(options[name], bool):
                raise ValueError(f"option {name} must be true or false, got {options[name]!r}")
        names = [*cls.CHOICES, *cls.COUNTS, *cls.FLAGS]
        return cls(**{n: options[n] for n in names})


class Judge:
    """One step's verdicts over the state; ``out`` collects the updates in the order the tablet shows them."""

    def __init__(self, state: CarromsState, rules: Rules, geo: Geometry) -> None:
        self.s = state
        self.r = rules
        self.g = geo
        self.out: list[Update] = []
        self.judged: list[str] = []

    # -- small builders -----------------------------------------------------------------------------
    def emit(self, kind: UpdateKind, text: str, *, code: str | None = None, clause: str | None = None,
             player: str | None = None, points: int | None = None, data: Mapping[str, Any] | None = None) -> None:
        self.out.append(Update(kind=kind, text=text, code=code, clause=clause, player=player, points=points,
                               data=dict(data or {})))

    def name(self, seat: str) -> str:
        return self.s.player(seat)

    def instruct(self, code: CarromInstruction, by: str | None, **fields: Any) -> None:
        text = INSTRUCTION_TEXT[code].format(**fields)
        who = f"{cap(self.name(by))}: " if by else ""
        text = text if by else text[:1].upper() + text[1:]
        data = {k: v for k, v in fields.items() if v is not None}
        if by:
            data["by"] = by
        self.emit(UpdateKind.INSTRUCTION, f"{who}{text}.", code=code.value, clause=INSTRUCTION_CLAUSE[code],
                  player=self.name(by) if by else None, data=data)

    def foul_update(self, code: CarromFoul, seat: str, penalty: Mapping[str, Any] | None,
                    clause: str | None = None) -> Update:
        side = self.s.side(seat)
        text = foul_sentence(code, self.name(seat))
        if penalty is None:
            text += " No further penalty: one penalty a strike."
        else:
            text += " " + self.penalty_sentence(seat, penalty)
        data: dict[str, Any] = {"seat": seat, "side": side}
        if penalty is not None:
            data["penalty"] = dict(penalty)
        return Update(kind=UpdateKind.FOUL, text=text, code=code.value, clause=clause or FOUL_CLAUSE[code],
                      player=side, data=data)

    def penalty_sentence(self, seat: str, penalty: Mapping[str, Any]) -> str:
        colour = self.s.colour_of[self.s.side(seat)]
        parts = []
        if penalty.get("board_lost"):
            return "The board is lost."
        if penalty.get("returned"):
            parts.append(f"Penalty: a pocketed {colour} piece returns to the centre circle")
        else:
            parts.append(f"Penalty owed: no {colour} piece is pocketed yet ({penalty.get('owed', 0)} owed)")
        parts.append("the turn goes on" if penalty.get("turn_continues") else "the turn ends")
        return "; ".join(parts) + "."

    # -- pieces coming back ---------------------------------------------------------------------------
    def return_piece(self, colour: str, code: CarromInstruction, by: str, *, ident: str | None = None,
                     owed_by: str | None = None, position: list[float] | None = None) -> None:
        """Count a piece back on the board and tell the table to place it (Fouls.0, Queen.4, Basic.2)."""
        s = self.s
        if colour == "queen":
            s.on_board["queen"] = 1
        else:
            s.on_board[colour] += 1
            if ident is not None and ident in s.ids_off:
                s.ids_off.remove(ident)
            else:
                s.unknown_returns[colour] += 1
        s.pending.append(Pending(piece=colour, reason=code.value, by=by, owed_by=owed_by, position=position))
        self.instruct(code, by, colour=colour, position=position)

    def return_queen(self, by: str) -> None:
        self.s.queen = QueenState.ON_BOARD
        self.s.queen_side = None
        self.return_piece("queen", CarromInstruction.RETURN_QUEEN, by)

    def penalise(self, side: str, seat: str) -> dict[str, Any]:
        """One pocketed piece back to the centre, or one more penalty owed when none is pocketed."""
        colour = self.s.colour_of[side]
        if self.s.pocketed(colour) > 0:
            self.return_piece(colour, CarromInstruction.RETURN_PENALTY_PIECE, self.s.placer(seat))
            return {"returned": True, "piece": colour}
        self.s.owed[side] = self.s.owed.get(side, 0) + 1
        return {"returned": False, "owed": self.s.owed[side]}

    # -- the strike -----------------------------------------------------------------------------------
    def strike(self) -> None:
        """Judge the strike in ``state.strike`` (the at_rest has come)."""
        s = self.s
        rec = s.strike
        assert rec is not None
        f = strike_facts(rec, self.g, self.r.baseline_cross_events)
        fouls = self.strike_fouls(f, rec)
        self.place_off_board(f, rec)
        if f.striker_under:
            self.instruct(CarromInstruction.REMOVE_STRIKER, None)
        if rec.break_attempt:
            if f.disturbed or fouls:
                s.breaking = False
            else:
                s.break_failures += 1
                if s.break_failures < self.r.break_attempts:
                    self.instruct(CarromInstruction.BREAK_AGAIN, rec.seat, attempt=s.break_failures + 1,
                                  attempts=self.r.break_attempts)
                    return
                s.breaking = False
                if CarromFoul.BREAK_FAILED.value not in rec.overruled:
                    fouls.append(CarromFoul.BREAK_FAILED)
        self.judged = [c.value for c in fouls]
        if CarromFoul.OPPONENT_LAST_PIECE_FIRST in fouls:
            self.out.append(self.foul_update(CarromFoul.OPPONENT_LAST_PIECE_FIRST, rec.seat, {"board_lost": True}))
            self.end_board(s.opponent_side(rec.side), "the opponent's last piece was hit directly", "Fouls.4")
            return
        if fouls:
            self.foul_strike(fouls, f, rec)
        else:
            self.legal_strike(f, rec)

    def strike_fouls(self, f: StrikeFacts, rec: StrikeRecord) -> list[CarromFoul]:
        """Every foul of the strike, in the rule book's order, less the ones the referee overruled."""
        s = self.s
        found: list[CarromFoul] = []
        if f.placement is Placement.CUT_THE_MOON:
            found.append(CarromFoul.CUT_THE_MOON)
        elif f.placement is Placement.OFF_LINES:
            found.append(CarromFoul.BAD_PLACEMENT)
        if f.crossed_forward is False:
            found.append(CarromFoul.NOT_FORWARD)
        if f.hit_behind_line:
            found.append(CarromFoul.PIECE_BEHIND_BASELINE)
        found.extend(CarromFoul(code) for code in rec.human_fouls)
        if f.first_contact_colour == f.opponent:
            if rec.start_on_board[f.opponent] == 1:
                found.append(CarromFoul.OPPONENT_LAST_PIECE_FIRST)
            elif self.r.opponent_first_contact_foul and not f.own_touched_after_first:
                found.append(CarromFoul.OPPONENT_PIECE_FIRST)
        if f.striker_potted:
            found.append(CarromFoul.DOUBLE_DUE if f.own_potted else CarromFoul.STRIKER_POCKETED)
        if (f.first_contact_colour == f.own and rec.start_on_board[f.own] == 1 and s.queen is not QueenState.COVERED
                and (found or not self.would_cover(f, rec))):
            found.append(CarromFoul.OWN_LAST_PIECE_FIRST)
        unique = list(dict.fromkeys(found))
        return [c for c in unique if c.value not in rec.overruled]

    def permitted(self, rec: StrikeRecord) -> bool:
        """Queen.1: an own piece was already pocketed when the strike began."""
        return PIECES_PER_COLOUR - rec.start_on_board[rec.colour] >= 1

    def would_cover(self, f: StrikeFacts, rec: StrikeRecord) -> bool:
        s = self.s
        awaiting = s.queen is QueenState.AWAITING_COVER and s.queen_side == rec.side
        queen_now = f.queen_potted and self.permitted(rec)
        return f.own_potted > 0 and (awaiting or queen_now)

    def own_pots(self, rec: StrikeRecord) -> list[str]:
        return [o for o in pots(rec.events) if colour_of(o) == rec.colour]

    def foul_strike(self, fouls: list[CarromFoul], f: StrikeFacts, rec: StrikeRecord) -> None:
        """Fouls.0: pieces pocketed in the foul come back, one penalty piece (or one owed); the turn ends
        except on a double due (Fouls.7-8), the only foul after which the rule book lets the player go on."""
        s = self.s
        seat, side = rec.seat, rec.side
        by = s.placer(seat)
        continues = set(fouls) == {CarromFoul.DOUBLE_DUE}
        mark = len(self.out)
        for obj in self.own_pots(rec):
            self.return_piece(rec.colour, CarromInstruction.RETURN_POCKETED_PIECE, by,
                              ident=obj if obj != rec.colour else None)
        if f.queen_potted or (s.queen is QueenState.AWAITING_COVER and s.queen_side == side):
            self.emit(UpdateKind.INFO, "The queen is not covered: a foul strike covers nothing.",
                      code=CarromNote.QUEEN_NOT_COVERED.value, clause="Queen.4", player=side)
            self.return_queen(by)
        penalty = self.penalise(side, seat)
        penalty["turn_continues"] = continues
        two = len(self.own_pots(rec)) >= 2
        clauses = {CarromFoul.DOUBLE_DUE: "Fouls.8" if two else "Fouls.7",
                   CarromFoul.STRIKER_POCKETED: "Fouls.6" if not f.queen_potted and not f.opponent_potted else "Fouls.1"}
        updates = [self.foul_update(fouls[0], seat, penalty, clauses.get(fouls[0]))]
        updates += [self.foul_update(code, seat, None, clauses.get(code)) for code in fouls[1:]]
        self.out[mark:mark] = updates
        if f.opponent_potted:
            self.note_opponent_pieces(f, rec)
            if self.opponent_emptied(f, rec, penalised=True):
                return
        if continues:
            self.strike_again(rec, "after the double due")
        else:
            self.end_turn()

    def legal_strike(self, f: StrikeFacts, rec: StrikeRecord) -> None:
        s = self.s
        side = rec.side
        covered = False
        if s.queen is QueenState.AWAITING_COVER and s.queen_side == side:
            if f.own_potted:
                covered = True
            else:
                self.emit(UpdateKind.INFO, "The queen is not covered: no own piece followed her.",
                          code=CarromNote.QUEEN_NOT_COVERED.value, clause="Objective.2", player=side)
                self.return_queen(s.placer(rec.seat))
        if f.queen_potted:
            if not self.permitted(rec):
                s.queen, s.queen_side = QueenState.NOT_EARNED, side
                self.emit(UpdateKind.INFO, "The queen is pocketed before an own piece: the turn goes on, "
                          "and she returns to the centre at the end of the turn.",
                          code=CarromNote.QUEEN_NOT_EARNED.value, clause="Queen.2", player=side)
            elif f.own_potted or (self.r.queen_cover == "same_turn" and s.turn_kept > 0):
                covered = True
            else:
                s.queen, s.queen_side = QueenState.AWAITING_COVER, side
                self.emit(UpdateKind.INFO, "The queen is pocketed: cover her with an own piece on the next strike.",
                          code=CarromNote.QUEEN_AWAITS_COVER.value, clause="Objective.2", player=side)
        if covered:
            s.queen, s.queen_side = QueenState.COVERED, side
            self.emit(UpdateKind.INFO, f"{cap(side)} covers the queen.", code=CarromNote.QUEEN_COVERED.value,
                      clause="Queen.3", player=side)
        s.turn_kept += f.own_potted
        if f.opponent_potted:
            self.note_opponent_pieces(f, rec)
            if self.opponent_emptied(f, rec, penalised=False):
                return
        if s.on_board[rec.colour] == 0 and self.last_piece_down(rec):
            return
        if f.own_potted or f.queen_potted:
            self.strike_again(rec, "")
        else:
            self.end_turn()

    def last_piece_down(self, rec: StrikeRecord) -> bool:
        """All own pieces are off. Before the queen is covered that is a foul (Fouls.9); with the queen
        covered the board is won, unless a penalty is still owed: it is paid at once from the pieces
        just pocketed and play goes on (a board cannot be won with a debt on it)."""
        s = self.s
        side, seat = rec.side, rec.seat
        if s.queen is not QueenState.COVERED:
            by = s.placer(seat)
            mark = len(self.out)
            final = self.own_pots(rec)[-1:] or [rec.colour]
            self.return_piece(rec.colour, CarromInstruction.RETURN_POCKETED_PIECE, by,
                              ident=final[0] if final[0] != rec.colour else None)
            penalty = self.penalise(side, seat)
            penalty["turn_continues"] = False
            self.out.insert(mark, self.foul_update(CarromFoul.FINAL_PIECE_BEFORE_QUEEN, seat, penalty))
            self.judged.append(CarromFoul.FINAL_PIECE_BEFORE_QUEEN.value)
            self.end_turn()
            return True
        owed = s.owed.get(side, 0)
        if owed:
            self.emit(UpdateKind.INFO, f"{cap(side)} still owes {owed} penalty piece(s): paid now, "
                      "play goes on.", code=CarromNote.OWED_PAID_NOW.value, clause="Fouls.12", player=side)
            for _ in range(min(owed, s.pocketed(rec.colour))):
                self.return_piece(rec.colour, CarromInstruction.RETURN_OWED_PIECE, s.placer(seat))
            s.owed[side] = 0
            return False
        self.end_board(side, "all pieces pocketed with the queen covered", "Objective.1")
        return True

    def note_opponent_pieces(self, f: StrikeFacts, rec: StrikeRecord) -> None:
        opp = self.s.opponent_side(rec.side)
        self.emit(UpdateKind.INFO, f"{f.opponent_potted} {f.opponent} piece(s) pocketed for {opp}; they stay off.",
                  code=CarromNote.OPPONENT_PIECE_POCKETED.value, clause="Basic.4", player=opp)

    def opponent_emptied(self, f: StrikeFacts, rec: StrikeRecord, *, penalised: bool) -> bool:
        """The opponent's last piece went down on this strike. With the queen covered the opponent has
        cleared the board and wins it; before that it is a foul: the piece returns with a penalty.
        Venue option ``opponent_last_piece_pocketed="loses_board"``: the striker loses the board."""
        s = self.s
        if s.on_board[f.opponent] > 0:
            return False
        opp_side = s.opponent_side(rec.side)
        if self.r.opponent_last_piece_pocketed == "loses_board" or s.queen is QueenState.COVERED:
            self.end_board(opp_side, "the opponent's last piece was pocketed for them", "Objective.1")
            return True
        by = s.placer(rec.seat)
        mark = len(self.out)
        last = [o for o in pots(rec.events) if colour_of(o) == f.opponent][-1]
        self.return_piece(f.opponent, CarromInstruction.RETURN_POCKETED_PIECE, by,
                          ident=last if last != f.opponent else None)
        penalty = None if penalised else {**self.penalise(rec.side, rec.seat), "turn_continues": False}
        self.out.insert(mark, self.foul_update(CarromFoul.OPPONENT_LAST_PIECE_POCKETED, rec.seat, penalty))
        self.judged.append(CarromFoul.OPPONENT_LAST_PIECE_POCKETED.value)
        self.end_turn()
        return True

    def place_off_board(self, f: StrikeFacts, rec: StrikeRecord) -> None:
        """Basic.2: each piece that left the board goes to the centre, on the far side from the player."""
        if not f.off_board:
            return
        spots = self.g.centre_spots(rec.seat, len(f.off_board), rec.rest_positions)
        for obj, spot in zip(f.off_board, spots, strict=True):
            self.s.pending.append(Pending(piece=colour_of(obj), reason=CarromInstruction.PLACE_OFF_BOARD_PIECE.value,
                                          by=rec.seat, position=list(spot)))
            self.instruct(CarromInstruction.PLACE_OFF_BOARD_PIECE, rec.seat, colour=colour_of(obj),
                          position=list(spot))

    # -- turns, boards, the match -------------------------------------------------------------------
    def strike_again(self, rec: StrikeRecord, why: str) -> None:
        s = self.s
        left = s.on_board[rec.colour]
        text = f"{cap(self.name(rec.seat))} strikes again{(' ' + why) if why else ''} ({left} {rec.colour} left)."
        self.emit(UpdateKind.BREAK, text, code=CarromNote.STRIKE_AGAIN.value, clause="Basic.4", player=rec.side,
                  data={"seat": rec.seat, "pocketed_this_turn": s.turn_kept, "left": left})

    def end_turn(self) -> None:
        """The turn passes: an uncovered queen goes back (Queen.2, Queen.4), owed penalties are paid
        from pieces now pocketed (Fouls.12), and the next seat in turn order strikes."""
        s = self.s
        seat = s.turn
        assert seat is not None
        side = s.side(seat)
        if s.queen in (QueenState.AWAITING_COVER, QueenState.NOT_EARNED):
            self.emit(UpdateKind.INFO, "The queen was not covered this turn: she returns to the centre.",
                      code=CarromNote.QUEEN_NOT_COVERED.value, clause="Queen.2", player=side)
            self.return_queen(s.placer(seat))
        for debtor in s.sides:
            owed = s.owed.get(debtor, 0)
            n = min(owed, s.pocketed(s.colour_of[debtor]))
            by = s.placer(seat) if debtor == side else seat
            for _ in range(n):
                self.return_piece(s.colour_of[debtor], CarromInstruction.RETURN_OWED_PIECE, by, owed_by=debtor)
            if n:
                s.owed[debtor] = owed - n
        s.turn_kept = 0
        nxt = s.order[(s.order.index(seat) + 1) % len(s.order)]
        s.turn = nxt
        self.announce_turn()

    def announce_turn(self) -> None:
        s = self.s
        seat = s.turn
        assert seat is not None
        colour = s.colour_of[s.side(seat)]
        self.emit(UpdateKind.TURN, f"{cap(self.name(seat))} to strike ({colour}).",
                  code=CarromNote.TURN.value, player=self.name(seat),
                  data={"seat": seat, "side": s.side(seat), "colour": colour})

    def end_board(self, winner: str, reason: str, clause: str) -> None:
        """Scoring.1-2: one point per opponent piece on the board, five for the queen while under 24."""
        s = self.s
        loser = s.opponent_side(winner)
        points = s.on_board[s.colour_of[loser]]
        bonus = 0
        if s.queen is QueenState.COVERED and s.queen_side == winner:
            basis = s.totals[winner] + (points if self.r.queen_bonus_basis == "after_pieces" else 0)
            if basis < self.r.queen_bonus_limit:
                bonus = self.r.queen_bonus
        s.totals[winner] += points + bonus
        s.results.append(BoardResult(board=s.board, winner=winner, points=points + bonus, queen_bonus=bonus,
                                     reason=reason))
        s.pending.clear()
        s.phase = Phase.BOARD_OVER
        self.emit(UpdateKind.GAME_OVER, f"Board {s.board} to {winner}: {reason}.", code=CarromNote.BOARD_OVER.value,
                  clause=clause, player=winner,
                  data={"board": s.board, "winner": winner, "pieces": points, "queen_bonus": bonus, "reason": reason})
        queen = f" + {bonus} for the queen" if bonus else ""
        self.emit(UpdateKind.SCORE, f"{cap(winner)} scores {points}{queen}: {s.totals[winner]} in all.",
                  code=CarromNote.SCORE.value, clause="Scoring.2" if bonus else "Scoring.1", player=winner,
                  points=points + bonus, data={"totals": dict(s.totals)})
        self.match_check(winner)

    def match_check(self, winner: str) -> None:
        """Scoring.3-4: 29 points first, else the leader after eight boards, else one deciding board."""
        s = self.s
        if s.totals[winner] >= self.r.match_points:
            self.match_over(winner, f"reached {self.r.match_points} points")
        elif s.deciding:
            self.match_over(winner, "won the deciding board")
        elif s.board >= self.r.match_boards:
            a, b = s.sides
            if s.totals[a] != s.totals[b]:
                leader = a if s.totals[a] > s.totals[b] else b
                self.match_over(leader, f"led after {s.board} boards")
            else:
                s.deciding = True
                self.emit(UpdateKind.PHASE, f"Level after {s.board} boards: one more board decides the match.",
                          code=CarromNote.DECIDING_BOARD.value, clause="Scoring.4")
                self.set_up_next(winner)
        else:
            self.set_up_next(winner)

    def set_up_next(self, winner: str) -> None:
        nxt = self.next_breaker(winner)
        self.instruct(CarromInstruction.SET_UP_BOARD, None, board=self.s.board + 1, seat=nxt)

    def match_over(self, winner: str, reason: str) -> None:
        s = self.s
        s.phase = Phase.MATCH_OVER
        s.match_winner, s.match_reason = winner, reason
        self.emit(UpdateKind.MATCH_OVER, f"{cap(winner)} wins the match: {reason}.",
                  code=CarromNote.MATCH_OVER.value, clause="Scoring.3", player=winner,
                  data={"winner": winner, "totals": dict(s.totals), "reason": reason})

    # -- who breaks and in what order ------------------------------------------------------------
    def seat_cycle(self) -> list[str]:
        cycle = list(SEATS) if self.r.turn_direction == "clockwise" else [SEATS[0], *reversed(SEATS[1:])]
        return [seat for seat in cycle if seat in self.s.seats]

    def order_from(self, breaker: str) -> list[str]:
        cycle = self.seat_cycle()
        i = cycle.index(breaker)
        return cycle[i:] + cycle[:i]

    def next_breaker(self, winner: str | None) -> str:
        """The next board's breaker: the next seat in turn order (rotate), or a seat of the winner/loser."""
        s = self.s
        prev = s.breaker or self.seat_cycle()[0]
        after = self.order_from(prev)[1:] + [prev]
        if self.r.next_board_break == "rotate" or winner is None:
            return after[0]
        target = winner if self.r.next_board_break == "winner" else s.opponent_side(winner)
        return next(seat for seat in after if s.side(seat) == target)

    def start_board(self, breaker: str, *, again: bool = False) -> None:
        """Preparation.1-2: a fresh board; the breaker's side plays white."""
        s = self.s
        if not again:
            s.board += 1
        s.breaker = breaker
        s.order = self.order_from(breaker)
        side = s.side(breaker)
        s.colour_of = {side: "white", s.opponent_side(side): "black"}
        s.turn = breaker
        s.strikes = 0
        s.on_board = {"white": PIECES_PER_COLOUR, "black": PIECES_PER_COLOUR, "queen": 1}
        s.ids_off = []
        s.unknown_returns = {"white": 0, "black": 0, "queen": 0}
        s.queen, s.queen_side = QueenState.ON_BOARD, None
        s.breaking, s.break_failures, s.turn_kept = True, 0, 0
        s.owed = {sd: 0 for sd in s.sides}
        s.pending, s.positions, s.strike, s.last = [], {}, None, None
        s.phase = Phase.READY
        deciding = " (the deciding board)" if s.deciding else ""
        self.emit(UpdateKind.PHASE, f"Board {s.board}{deciding}: {self.name(breaker)} breaks with white, "
                  f"{self.r.break_attempts} attempts.", code=CarromNote.BOARD_START.value, clause="Basic.1",
                  player=self.name(breaker),
                  data={"board": s.board, "breaker": breaker, "colours": dict(s.colour_of), "order": list(s.order)})
        self.announce_turn()

    # -- a foul outside a strike (touching a piece, delay) ---------------------------------------
    def standalone_foul(self, code: CarromFoul, seat: str) -> None:
        s = self.s
        side = s.side(seat)
        mark = len(self.out)
        penalty = self.penalise(side, seat)
        ends = seat == s.turn
        penalty["turn_continues"] = not ends
        self.out.insert(mark, self.foul_update(code, seat, penalty))
        if ends:
            self.end_turn()
