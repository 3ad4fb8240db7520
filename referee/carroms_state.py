"""The Carroms referee's state: one mutable dataclass the base engine deep-copies for atomic apply and undo.

"What is allowed next" lives here (the queen awaiting cover, penalties owed, pieces the table
still has to place, whose turn), apart from "what happened" in the strike record
(``carroms_strike.py``). Everything is plain data so ``Engine.state`` serialises it as is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tableref.referee.carroms_strike import StrikeRecord

PIECES_PER_COLOUR = 9


class Phase(StrEnum):
    SETUP = "setup"  # before the first board: players, toss, who breaks
    READY = "ready"  # between strikes
    STRIKE = "strike"  # from shot_start to at_rest
    BOARD_OVER = "board_over"  # a board is won; waiting for new_board
    MATCH_OVER = "match_over"


class QueenState(StrEnum):
    ON_BOARD = "on_board"
    AWAITING_COVER = "awaiting_cover"  # pocketed with permission; the cover must follow
    NOT_EARNED = "not_earned"  # pocketed before an own piece: returns at the end of the turn (Queen.2)
    COVERED = "covered"


@dataclass
class Pending:
    """A piece the table has to place (the referee counts it on the board from the instruction on)."""

    piece: str  # white, black or queen
    reason: str  # a CarromInstruction value
    by: str  # the seat that places it (the opponent)
    owed_by: str | None = None  # side whose owed penalty this pays: lapses if forgotten (Fouls.12)
    position: list[float] | None = None


@dataclass
class LastStrike:
    """What the referee needs to judge the last strike again (a late pot, an overrule, a foul added).

    ``before`` is the whole state at the moment the strike came to rest, before it was judged;
    ``rest`` the at_rest event; ``after`` every item applied since (replayed after the new verdict).
    """

    before: CarromsState
    rest: dict[str, Any]
    judged: list[str] = field(default_factory=list)
    after: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class BoardResult:
    board: int
    winner: str
    points: int
    queen_bonus: int
    reason: str


@dataclass
class CarromsState:
    phase: Phase = Phase.SETUP
    # who plays: seat -> player name, seat -> side (a singles player or a doubles team)
    seats: dict[str, str] = field(default_factory=lambda: {"south": "south", "north": "north"})
    side_of: dict[str, str] = field(default_factory=lambda: {"south": "south", "north": "north"})
    sides: list[str] = field(default_factory=lambda: ["south", "north"])
    doubles: bool = False
    chooser: str | None = None  # the seat that chooses who goes first, after a toss
    first_breaker: str | None = None
    # the board
    board: int = 0
    breaker: str | None = None
    order: list[str] = field(default_factory=list)  # seats in turn order, from the breaker
    colour_of: dict[str, str] = field(default_factory=dict)  # side -> white/black
    turn: str | None = None  # the seat to strike
    strikes: int = 0
    on_board: dict[str, int] = field(default_factory=lambda: {
        "white": PIECES_PER_COLOUR, "black": PIECES_PER_COLOUR, "queen": 1})
    ids_off: list[str] = field(default_factory=list)  # ids known to be off the board
    unknown_returns: dict[str, int] = field(default_factory=lambda: {"white": 0, "black": 0, "queen": 0})
    queen: QueenState = QueenState.ON_BOARD
    queen_side: str | None = None
    breaking: bool = True
    break_failures: int = 0
    turn_kept: int = 0  # own pieces pocketed (and kept) this turn, for the same-turn queen cover
    owed: dict[str, int] = field(default_factory=dict)
    pending: list[Pending] = field(default_factory=list)
    positions: dict[str, list[float]] = field(default_factory=dict)
    strike: StrikeRecord | None = None
    last: LastStrike | None = None
    # the match
    totals: dict[str, int] = field(default_factory=lambda: {"south": 0, "north": 0})
    results: list[BoardResult] = field(default_factory=list)
    deciding: bool = False
    match_winner: str | None = None
    match_reason: str | None = None

    def side(self, seat: str) -> str:
        return self.side_of[seat]

    def opponent_side(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def player(self, seat: str) -> str:
        return self.seats[seat]

    def placer(self, seat: str) -> str:
        """The opponent who places returned pieces: the next opposing seat in turn order."""
        order = self.order or list(self.seats)
        i = order.index(seat) if seat in order else 0
        for k in range(1, len(order) + 1):
            other = order[(i + k) % len(order)]
            if self.side_of[other] != self.side_of[seat]:
                return other
        return seat

    def pocketed(self, colour: str) -> int:
        """Pieces of ``colour`` off the board (pocketed and not due back)."""
        return PIECES_PER_COLOUR - self.on_board[colour]
