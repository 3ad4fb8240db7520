"""The closed vocabulary of the Carroms referee: foul codes, instruction codes and rule clauses.

Why a separate module: the tablet's sentences, the docs and the tests all speak in these codes, and
the engine (``carroms.py``) should read as the rule book's logic, not as a phrasebook. Text is
always derived from a code here, never the other way round (DESIGN.md: "terminations and fouls as
a closed enum, text derived from it").

Clause ids name the rule book's section and the bullet's position inside it, counted from 1
(``Fouls.6`` is the sixth bullet of "A foul is recorded in the following situations", the single
due). ``Fouls.0`` is the penalty paragraph that opens the Fouls section. The full map is
:data:`CLAUSES`; ``docs/referee/carroms.md`` prints it.
"""

from __future__ import annotations

from enum import StrEnum


class CarromFoul(StrEnum):
    """Every foul and due in the rule book, plus the venue-only delay foul."""

    STRIKER_POCKETED = "striker_pocketed"  # single due, or the striker with the queen/opponent's piece
    DOUBLE_DUE = "double_due"  # the striker with one or more own pieces
    OPPONENT_PIECE_FIRST = "opponent_piece_first"
    OWN_LAST_PIECE_FIRST = "own_last_piece_first"
    OPPONENT_LAST_PIECE_FIRST = "opponent_last_piece_first"  # the board is lost
    OPPONENT_LAST_PIECE_POCKETED = "opponent_last_piece_pocketed"
    FINAL_PIECE_BEFORE_QUEEN = "final_piece_before_queen"
    BAD_PLACEMENT = "bad_placement"  # not within the baseline touching both lines, nor on a circle
    CUT_THE_MOON = "cut_the_moon"
    NOT_FORWARD = "not_forward"  # did not cross the front baseline, or flicked backwards/sideways
    NOT_A_FLICK = "not_a_flick"  # not flicked with one finger (pushed, two fingers)
    PIECE_BEHIND_BASELINE = "piece_behind_baseline"  # struck a piece on/behind the front line first
    ARM_OVER_FOUL_LINE = "arm_over_foul_line"
    TOUCHED_PIECE = "touched_piece"
    BREAK_FAILED = "break_failed"
    DELAY = "delay"  # venue rule only (option delay_is_foul); the rule book has no delay foul


class CarromInstruction(StrEnum):
    """Things the referee asks the table to do."""

    RETURN_PENALTY_PIECE = "return_penalty_piece"
    RETURN_POCKETED_PIECE = "return_pocketed_piece"
    RETURN_OWED_PIECE = "return_owed_piece"
    RETURN_QUEEN = "return_queen"
    PLACE_OFF_BOARD_PIECE = "place_off_board_piece"
    REMOVE_STRIKER = "remove_striker"
    BREAK_AGAIN = "break_again"
    SET_UP_BOARD = "set_up_board"


class CarromNote(StrEnum):
    """Codes of INFO, PHASE, CHOICE and BREAK updates (the non-foul messages)."""

    PLAYERS = "players"
    TOSS = "toss"
    BOARD_START = "board_start"
    DEFAULT_BREAK = "default_break"
    STRIKE_AGAIN = "strike_again"
    QUEEN_POCKETED = "queen_pocketed"
    QUEEN_AWAITS_COVER = "queen_awaits_cover"
    QUEEN_NOT_EARNED = "queen_not_earned"
    QUEEN_COVERED = "queen_covered"
    QUEEN_NOT_COVERED = "queen_not_covered"
    OPPONENT_PIECE_POCKETED = "opponent_piece_pocketed"
    OWED_PAID_NOW = "owed_paid_now"
    OWED_LAPSED = "owed_lapsed"
    PLACED = "placed"
    OFF_BOARD_RETURNED = "off_board_returned"
    HAND_MOVED = "hand_moved"
    REJUDGED = "rejudged"
    DECIDING_BOARD = "deciding_board"
    BOARD_OVER = "board_over"
    MATCH_OVER = "match_over"
    TURN = "turn"
    SCORE = "score"
    SETUP = "setup"


#: Rule book clause id -> what it says (paraphrased; the rule book is /work/shared/rules/carroms.txt).
CLAUSES: dict[str, str] = {
    "Preparation.1": "a concealed piece decides who chooses the first player; the first player plays white",
    "Preparation.2": "the queen in the centre, six then twelve pieces around her, white towards the breaker",
    "Objective.1": "a turn is one or more strikes; a player wins by pocketing all of her colour first",
    "Objective.2": "no one wins until the queen is covered: an own piece pocketed immediately after her",
    "Striking.1": "the striker within the baseline or on one of its two end circles",
    "Striking.2": "within the baseline the striker touches both the front and the rear line",
    "Striking.3": "the striker may not cut the moon (partly over an end circle)",
    "Striking.4": "a one-finger flick that crosses the front baseline, never backwards or sideways",
    "Striking.5": "a piece on or behind the front baseline is not struck before the striker crosses it; "
    "hand and arm stay inside the diagonal foul lines",
    "Basic.1": "the first player has three attempts to break the central group",
    "Basic.2": "a piece that leaves the board goes to the centre, touching the centre piece on the far side",
    "Basic.3": "it does not matter which piece the striker hits first, or none",
    "Basic.4": "pocketing the queen or an own piece earns another strike; no pocket or a foul ends the turn",
    "Queen.1": "the queen may be pocketed and covered only after one own piece is pocketed",
    "Queen.2": "a queen pocketed too early: the turn goes on, the queen returns at the end of the turn",
    "Queen.3": "the queen and an own piece in the same turn covers her",
    "Queen.4": "an uncovered queen is returned near the centre by the opponent",
    "Other.1": "returned pieces are not placed on top of others in the main circle",
    "Other.2": "pieces on edge or overlapping stay as they lie",
    "Other.3": "a striker under a piece is removed with as little disturbance as possible",
    "Fouls.0": "penalty: the opponent returns one pocketed piece to the main circle, with any other "
    "pieces to return",
    "Fouls.1": "the striker is pocketed",
    "Fouls.2": "the striker hits an opponent's piece first and no own piece is touched later",
    "Fouls.3": "touching the own last piece directly without covering the queen",
    "Fouls.4": "touching the opponent's last piece directly loses the game",
    "Fouls.5": "touching own pieces between the two arrows on the player's side",
    "Fouls.6": "single due: only the striker pocketed, the turn ends",
    "Fouls.7": "double due: the striker and an own piece; both to the centre, the turn goes on",
    "Fouls.8": "double due: the striker and two own pieces; all to the centre, the turn goes on",
    "Fouls.9": "the final piece before the queen is covered: it and a penalty piece return",
    "Fouls.10": "any contravention of the striking rules",
    "Fouls.11": "touching any piece in play other than the striker",
    "Fouls.12": "no break in three attempts; a penalty with nothing pocketed is owed until paid",
    "Doubles.1": "partners sit opposite, turns go clockwise, otherwise as singles",
    "Scoring.1": "the board's winner scores one point per opponent piece left",
    "Scoring.2": "five more for covering the queen while under 24 points",
    "Scoring.3": "the match goes to 29 points or the leader after eight boards",
    "Scoring.4": "a tie after eight boards: one deciding board",
    "Venue": "a venue rule that the rule book does not have",
}

#: The clause each foul comes from.
FOUL_CLAUSE: dict[CarromFoul, str] = {
    CarromFoul.STRIKER_POCKETED: "Fouls.6",
    CarromFoul.DOUBLE_DUE: "Fouls.7",
    CarromFoul.OPPONENT_PIECE_FIRST: "Fouls.2",
    CarromFoul.OWN_LAST_PIECE_FIRST: "Fouls.3",
    CarromFoul.OPPONENT_LAST_PIECE_FIRST: "Fouls.4",
    CarromFoul.OPPONENT_LAST_PIECE_POCKETED: "Fouls.9",
    CarromFoul.FINAL_PIECE_BEFORE_QUEEN: "Fouls.9",
    CarromFoul.BAD_PLACEMENT: "Striking.2",
    CarromFoul.CUT_THE_MOON: "Striking.3",
    CarromFoul.NOT_FORWARD: "Striking.4",
    CarromFoul.NOT_A_FLICK: "Striking.4",
    CarromFoul.PIECE_BEHIND_BASELINE: "Striking.5",
    CarromFoul.ARM_OVER_FOUL_LINE: "Striking.5",
    CarromFoul.TOUCHED_PIECE: "Fouls.11",
    CarromFoul.BREAK_FAILED: "Fouls.12",
    CarromFoul.DELAY: "Venue",
}

FOUL_TEXT: dict[CarromFoul, str] = {
    CarromFoul.STRIKER_POCKETED: "the striker was pocketed (due)",
    CarromFoul.DOUBLE_DUE: "the striker was pocketed with an own piece (double due)",
    CarromFoul.OPPONENT_PIECE_FIRST: "the striker hit an opponent's piece first and no own piece was touched",
    CarromFoul.OWN_LAST_PIECE_FIRST: "the striker hit the player's own last piece first before the queen "
    "was covered",
    CarromFoul.OPPONENT_LAST_PIECE_FIRST: "the striker hit the opponent's last piece directly: the board is lost",
    CarromFoul.OPPONENT_LAST_PIECE_POCKETED: "the opponent's last piece was pocketed before the queen was covered",
    CarromFoul.FINAL_PIECE_BEFORE_QUEEN: "the final piece was pocketed before the queen was covered",
    CarromFoul.BAD_PLACEMENT: "the striker was not within the baseline touching both lines, nor on an end circle",
    CarromFoul.CUT_THE_MOON: "the striker cut the moon (partly over an end circle)",
    CarromFoul.NOT_FORWARD: "the striker did not go forward across the front baseline",
    CarromFoul.NOT_A_FLICK: "the striker was not flicked with one finger",
    CarromFoul.PIECE_BEHIND_BASELINE: "the striker hit a piece on or behind the front baseline before crossing it",
    CarromFoul.ARM_OVER_FOUL_LINE: "the hand or arm crossed a diagonal foul line",
    CarromFoul.TOUCHED_PIECE: "a piece in play was touched by hand",
    CarromFoul.BREAK_FAILED: "the central group was not broken in three attempts",
    CarromFoul.DELAY: "the player delayed the game (venue rule)",
}

#: Fouls the referee may enter on the tablet (``add_foul``). The rest are judged from the events.
HUMAN_FOULS: frozenset[CarromFoul] = frozenset({
    CarromFoul.BAD_PLACEMENT, CarromFoul.CUT_THE_MOON, CarromFoul.NOT_FORWARD, CarromFoul.NOT_A_FLICK,
    CarromFoul.PIECE_BEHIND_BASELINE, CarromFoul.ARM_OVER_FOUL_LINE, CarromFoul.TOUCHED_PIECE,
    CarromFoul.OPPONENT_PIECE_FIRST, CarromFoul.DELAY,
})

#: Human fouls about how a strike was played: entered between strikes they belong to the last strike.
STRIKE_FOULS: frozenset[CarromFoul] = frozenset({
    CarromFoul.BAD_PLACEMENT, CarromFoul.CUT_THE_MOON, CarromFoul.NOT_FORWARD, CarromFoul.NOT_A_FLICK,
    CarromFoul.PIECE_BEHIND_BASELINE, CarromFoul.ARM_OVER_FOUL_LINE, CarromFoul.OPPONENT_PIECE_FIRST,
})

INSTRUCTION_TEXT: dict[CarromInstruction, str] = {
    CarromInstruction.RETURN_PENALTY_PIECE: "place a {colour} piece from the pocketed pieces in the centre circle "
    "(penalty)",
    CarromInstruction.RETURN_POCKETED_PIECE: "place the {colour} piece pocketed in the foul in the centre circle",
    CarromInstruction.RETURN_OWED_PIECE: "place a {colour} piece in the centre circle for the owed penalty, "
    "before the next turn starts",
    CarromInstruction.RETURN_QUEEN: "return the queen to the centre",
    CarromInstruction.PLACE_OFF_BOARD_PIECE: "place the {colour} piece that left the board at the centre",
    CarromInstruction.REMOVE_STRIKER: "lift the striker from under the piece with as little disturbance as possible",
    CarromInstruction.BREAK_AGAIN: "put the striker back: break attempt {attempt} of {attempts}",
    CarromInstruction.SET_UP_BOARD: "set up board {board}: the queen in the centre, white towards {seat}",
}

INSTRUCTION_CLAUSE: dict[CarromInstruction, str] = {
    CarromInstruction.RETURN_PENALTY_PIECE: "Fouls.0",
    CarromInstruction.RETURN_POCKETED_PIECE: "Fouls.0",
    CarromInstruction.RETURN_OWED_PIECE: "Fouls.12",
    CarromInstruction.RETURN_QUEEN: "Queen.4",
    CarromInstruction.PLACE_OFF_BOARD_PIECE: "Basic.2",
    CarromInstruction.REMOVE_STRIKER: "Other.3",
    CarromInstruction.BREAK_AGAIN: "Basic.1",
    CarromInstruction.SET_UP_BOARD: "Preparation.2",
}


def cap(text: str) -> str:
    """Upper-case the first letter only (``str.capitalize`` would lower-case the rest of a name)."""
    return text[:1].upper() + text[1:]


def foul_sentence(code: CarromFoul, player: str) -> str:
    """The tablet's sentence for a foul, from its code."""
    return f"Foul by {player}: {FOUL_TEXT[code]}."
