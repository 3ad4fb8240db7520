"""The ``setup`` input: start refereeing a carrom board that is already in progress.

Why: a camera or the service restarts mid-board, or a venue switches tableref on halfway through
a match. The engine otherwise starts from the toss and a full board. ``setup`` gives it the board
now (the pieces on it, the seat on turn, the match totals, the queen) and every strike after it is
judged as if the engine had watched the board get there.

How a position maps to the state (the rules decide what the input does not say):

* **Pieces not listed are pocketed**: they count for their colour's side (Scoring.1 counts the
  pieces left), so who pocketed them does not matter. Between strikes nothing is due back: a
  setup is the board after any returns were placed.
* **Colours**: a board in play keeps who plays white; a new one gives white to the player at the
  table (the breaker plays white, Preparation.1) unless ``white`` names the side.
* **The queen** listed on the board is in play; otherwise ``queen`` says ``{"covered_by": side}``
  or ``{"awaiting_cover": side}`` (only the side on turn can still cover her, Queen.2-4), and that
  side must already have an own piece pocketed (Queen.1). On a board in play whose queen is
  already covered or awaiting cover, leaving ``queen`` out keeps her so.
* **Breaking** (the three attempts of Basic.1) is on when all nineteen pieces are on the board,
  unless ``breaking`` says otherwise. **Owed penalties** (Fouls.12) stay as they were on a board in
  play, or come from ``owed``.
* **Scores** are the match totals; each change goes out as a SCORE update, so the sum of SCORE
  updates still equals ``scores()``. Board results already recorded stay.
* **The last strike can no longer be re-judged** (late pots, overrules): the referee has just said
  what the board is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tableref.events import thaw
from tableref.referee.base import RefereeError, Update, UpdateKind
from tableref.referee.carroms_geometry import Geometry
from tableref.referee.carroms_judge import Judge, Rules
from tableref.referee.carroms_rules import CarromNote
from tableref.referee.carroms_state import PIECES_PER_COLOUR, CarromsState, Phase, QueenState
from tableref.referee.carroms_strike import COLOURS, colour_of, point_of

#: every key a carroms setup may carry (anything else is refused: a typo must not pass silently)
SETUP_KEYS: tuple[str, ...] = ("on_table", "player", "scores", "white", "queen", "owed", "board", "breaking")
_PIECE = re.compile(r"^(white|black)-0*(\d+)$")
_KEPT = {QueenState.COVERED: "covered_by", QueenState.AWAITING_COVER: "awaiting_cover"}
_IDS = f"white-1..white-{PIECES_PER_COLOUR}, black-1..black-{PIECES_PER_COLOUR}, queen, striker"


@dataclass(frozen=True)
class CarromSetup:
    """A checked setup: pieces on the board by id, the seat on turn, and what the rules keep besides."""

    pieces: Mapping[str, list[float]]  # normalised id -> position (the striker included when given)
    seat: str
    white: str  # the side playing white
    queen: QueenState
    queen_side: str | None
    owed: Mapping[str, int]
    scores: Mapping[str, int]
    board: int
    breaking: bool


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RefereeError(f"setup '{what}' must be a whole number >= 0, got {value!r}")
    return value


def _piece_id(key: str) -> str:
    colour = colour_of(key)
    if colour in ("queen", "striker"):
        return colour
    match = _PIECE.match(key)
    if match is None:
        raise RefereeError(f"setup names {key!r}: name each piece, {_IDS}")
    return f"{match.group(1)}-{int(match.group(2))}"


def _side(s: CarromsState, value: Any, what: str) -> str:
    """A side from a side name, a seat or a player's name."""
    if isinstance(value, str):
        if value in s.sides:
            return value
        if value in s.seats:
            return s.side(value)
        seats = [seat for seat, name in s.seats.items() if name == value]
        if seats:
            return s.side(seats[0])
    raise RefereeError(f"setup '{what}' must name a side ({', '.join(s.sides)}), a seat ({', '.join(s.seats)}) "
                       f"or a player, got {value!r}")


def _seat(s: CarromsState, value: Any) -> str:
    """The seat to strike, from a seat or a player's name (a singles side is its player)."""
    if isinstance(value, str):
        if value in s.seats:
            return value
        seats = [seat for seat, name in s.seats.items() if name == value]
        if len(seats) == 1:
            return seats[0]
        if value in s.sides and not s.doubles:
            return next(seat for seat in s.seats if s.side(seat) == value)
    raise RefereeError(f"setup 'player' must be a seat ({', '.join(s.seats)}) or a player's name "
                       f"({', '.join(s.seats.values())}), got {value!r}")


def parse_setup(data: Mapping[str, Any], s: CarromsState, rules: Rules, geo: Geometry) -> CarromSetup:
    """Check a setup against the board and the match; a ``RefereeError`` says what is wrong and what is accepted."""
    if s.phase is Phase.STRIKE:
        raise RefereeError("setup is entered between strikes: a strike is being played, wait for at_rest")
    if s.phase is Phase.MATCH_OVER:
        raise RefereeError("the match is over; a setup describes a board in play")
    data = thaw(data)  # plain dicts and lists: the messages quote what was entered as it was entered
    unknown = sorted(set(data) - set(SETUP_KEYS))
    if unknown:
        raise RefereeError(f"carroms setup does not know {', '.join(map(repr, unknown))}; accepted: "
                           f"{', '.join(SETUP_KEYS)}")
    raw = data.get("on_table")
    if not isinstance(raw, Mapping):
        raise RefereeError("setup needs 'on_table': every piece on the board now with its position, such as "
                           f"{{\"queen\": [370, 370], \"white-1\": [300, 420]}}; ids: {_IDS}")
    pieces: dict[str, list[float]] = {}
    for key, value in raw.items():
        piece = _piece_id(str(key))
        if piece in pieces:
            raise RefereeError(f"setup lists {piece} twice: each piece is listed once")
        where = point_of(value, f"setup on_table {key}")
        if not geo.on_board(where):
            raise RefereeError(f"setup on_table {key} is at ({where[0]:.0f}, {where[1]:.0f}) mm, off the board: "
                               f"positions lie within 0..{geo.size:.0f} mm")
        pieces[piece] = where
    counts = {c: sum(colour_of(p) == c for p in pieces) for c in COLOURS}
    empty = [c for c in COLOURS if counts[c] == 0]
    if empty:
        raise RefereeError(f"setup has no {' and no '.join(empty)} piece on the board: the board would be over; "
                           "enter the result with concede or start the next board with new_board")
    in_play = s.phase is Phase.READY
    if data.get("player") is None:
        if not in_play or s.turn is None:
            raise RefereeError("setup before a board is in play needs 'player': the seat to strike now (who then "
                               f"also counts as the break winner), one of {', '.join(s.seats)}")
        seat = s.turn
    else:
        seat = _seat(s, data["player"])
    if data.get("white") is not None:
        white = _side(s, data["white"], "white")
    elif in_play and s.colour_of:
        white = next(side for side, colour in s.colour_of.items() if colour == "white")
    else:
        white = s.side(seat)
    everything = counts["white"] + counts["black"] + ("queen" in pieces) == 2 * PIECES_PER_COLOUR + 1
    breaking = data.get("breaking", everything)
    if not isinstance(breaking, bool):
        raise RefereeError(f"setup 'breaking' is true (the break attempts, Basic.1) or false, got {breaking!r}")
    if breaking and white != s.side(seat):
        raise RefereeError("setup: the player breaking plays white (Preparation.1); give 'white' as their side")
    queen, queen_side = _queen(data.get("queen"), "queen" in pieces, s, counts, white, seat)
    owed = dict(s.owed) if in_play else {side: 0 for side in s.sides}
    given = data.get("owed", {})
    if not isinstance(given, Mapping):
        raise RefereeError(f"setup 'owed' maps sides to penalty pieces owed (Fouls.12), got {given!r}")
    for who, n in given.items():
        owed[_side(s, who, "owed")] = _count(n, f"owed {who}")
    scores = dict(s.totals)
    given = data.get("scores", {})
    if not isinstance(given, Mapping):
        raise RefereeError(f"setup 'scores' maps sides to match totals, such as {{\"{s.sides[0]}\": 12}}, got {given!r}")
    for who, n in given.items():
        side = _side(s, who, "scores")
        scores[side] = _count(n, f"scores {who}")
        if scores[side] >= rules.match_points:
            raise RefereeError(f"setup gives {side} {scores[side]} points: {rules.match_points} wins the match "
                               "(Scoring.3), so it would be over")
    board = _count(data.get("board", s.board if in_play else s.board + 1), "board")
    if board < 1:
        raise RefereeError("setup 'board' counts from 1")
    return CarromSetup(pieces, seat, white, queen, queen_side, owed, scores, board, breaking)


def _queen(value: Any, listed: bool, s: CarromsState, counts: Mapping[str, int], white: str,
           seat: str) -> tuple[QueenState, str | None]:
    accepted = "'on_board' (list her in on_table), {\"covered_by\": side} or {\"awaiting_cover\": side}"
    if listed:
        if value not in (None, "on_board"):
            raise RefereeError(f"setup lists the queen on the board but 'queen' says {value!r}; accepted: {accepted}")
        return QueenState.ON_BOARD, None
    if value is None and s.phase is Phase.READY and s.queen_side is not None and s.queen in _KEPT:
        value = {_KEPT[s.queen]: s.queen_side}  # a board in play keeps where the queen is
    if not isinstance(value, Mapping) or len(value) != 1 or next(iter(value)) not in ("covered_by", "awaiting_cover"):
        raise RefereeError(f"setup: the queen is not on the board, so say where she is with 'queen': {accepted}")
    key, who = next(iter(value.items()))
    side = _side(s, who, f"queen {key}")
    colour = "white" if side == white else "black"
    if counts[colour] == PIECES_PER_COLOUR:
        raise RefereeError(f"setup: {side} has no {colour} piece pocketed, so the queen cannot be theirs yet "
                           "(Queen.1)")
    if key == "covered_by":
        return QueenState.COVERED, side
    if side != s.side(seat):
        raise RefereeError(f"setup: the queen awaits cover only during {side}'s own turn (Queen.2-4); "
                           f"it is {s.side(seat)}'s turn")
    return QueenState.AWAITING_COVER, side


def apply_setup(s: CarromsState, setup: CarromSetup, judge: Judge) -> list[Update]:
    """Put the checked board into the (private working copy of the) state; the updates go to ``judge.out``."""
    in_play = s.phase is Phase.READY
    for side in s.sides:
        delta = setup.scores.get(side, s.totals.get(side, 0)) - s.totals.get(side, 0)
        s.totals[side] = s.totals.get(side, 0) + delta
        if delta:
            judge.emit(UpdateKind.SCORE, f"Setup: {side} has {s.totals[side]} in all.", code=CarromNote.SCORE.value,
                       player=side, points=delta, data={"totals": dict(s.totals), "setup": True})
    black = s.opponent_side(setup.white)
    s.colour_of = {setup.white: "white", black: "black"}
    if not in_play:
        s.breaker = setup.seat if s.side(setup.seat) == setup.white else next(
            seat for seat in judge.order_from(setup.seat) if s.side(seat) == setup.white)
        s.order = judge.order_from(s.breaker)
        s.first_breaker = s.first_breaker or s.breaker
        s.strikes = 0
    s.board, s.turn, s.phase = setup.board, setup.seat, Phase.READY
    s.on_board = {c: sum(colour_of(p) == c for p in setup.pieces) for c in ("white", "black", "queen")}
    s.ids_off = [f"{c}-{n}" for c in COLOURS for n in range(1, PIECES_PER_COLOUR + 1) if f"{c}-{n}" not in setup.pieces]
    s.unknown_returns = {"white": 0, "black": 0, "queen": 0}
    s.queen, s.queen_side = setup.queen, setup.queen_side
    s.breaking, s.break_failures, s.turn_kept = setup.breaking, 0, 0
    s.owed = dict(setup.owed)
    s.pending, s.strike, s.last = [], None, None
    s.positions = {k: list(v) for k, v in setup.pieces.items()}
    judge.out.insert(0, Update(
        kind=UpdateKind.PHASE, text=f"Board {s.board} set up in progress: {s.on_board['white']} white, "
        f"{s.on_board['black']} black, the queen {s.queen.value.replace('_', ' ')}.", code=CarromNote.SETUP.value,
        player=s.player(setup.seat),
        data={"board": s.board, "on_board": dict(s.on_board), "colours": dict(s.colour_of), "queen": s.queen.value,
              "queen_side": s.queen_side, "owed": dict(s.owed), "breaking": s.breaking, "order": list(s.order)}))
    judge.announce_turn()
    return judge.out
