"""The All-Fours referee's state: the table (match), the game at the table, the hand being played.

Plain mutable dataclasses on purpose: the engine base deep-copies the whole state before every
item, so an item is applied atomically and ``undo`` is exact; the engine mutates only its private
copy. Cards are kept as labels and everything is JSON-serialisable through ``to_jsonable``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tableref.referee.all_fours_codes import Phase, StandKind


def _per_team() -> dict[str, int]:
    return {"A": 0, "B": 0}


@dataclass
class Play:
    """One card that counts in a trick (or a lead out of turn waiting to be taken back)."""

    seat: str
    card: str
    out_of_turn: bool = False


@dataclass
class Trick:
    number: int  # 1-based within the hand
    leader: str  # the seat whose turn it is to lead
    plays: list[Play] = field(default_factory=list)  # counted cards, the lead first
    pending: list[Play] = field(default_factory=list)  # leads out of turn not yet taken back (23c)
    winner: str | None = None


@dataclass
class Hand:
    """One issue of cards, from the deal to the last trick."""

    dealer: str
    lead_seat: str  # the dealer's right: stands or begs, and leads the first trick
    phase: Phase = Phase.DEALT
    kicks: list[str] = field(default_factory=list)  # every card kicked, in order
    trump: str | None = None
    runs: int = 0  # how many times three more each were dealt (begging)
    cards_each: dict[str, int] = field(default_factory=dict)
    stand: StandKind | None = None
    stander: str | None = None
    tricks: list[Trick] = field(default_factory=list)
    known: dict[str, list[str]] = field(default_factory=dict)  # dealt hands from a ``hands`` input
    shown: dict[str, list[str]] = field(default_factory=dict)  # cards seen still in a hand
    kick_points: dict[str, int] = field(default_factory=_per_team)
    forfeit: list[str] = field(default_factory=list)  # teams forfeiting this hand's points (20b)
    concedes_game: list[str] = field(default_factory=list)  # teams that conceded Game (27f)
    waived: list[str] = field(default_factory=list)  # breaches overruled by the human referee
    high_team: str | None = None  # the pair that played High (27i tie-break)


@dataclass
class Game:
    """One game to fourteen points at this table (a bullseye to its winner)."""

    number: int  # 1-based count of games at this table
    power_play: bool = False
    points: dict[str, int] = field(default_factory=_per_team)
    last_issue: dict[str, int] = field(default_factory=_per_team)  # points each made in the last issue
    hand: Hand | None = None
    hands_dealt: int = 0
    singer: str | None = None  # the pair entitled to sing the bullseye now
    unsung: bool = False  # a fourteen went unsung past a cut: the issue is played out (27i)
    over: bool = False
    winner: str | None = None
    bullseyes: int = 0
    reason: str | None = None


@dataclass
class TableReport:
    """What another table of the match has recorded (entered by ``table_report``)."""

    bullseyes: dict[str, int] = field(default_factory=_per_team)
    hang_jacks: dict[str, int] = field(default_factory=_per_team)
    games: int = 0
    closed: bool = False


@dataclass
class Ruling:
    """The ruling just made, with the state before it, so that ``overrule`` can take it back."""

    code: str
    key: str  # the breach key (waived on overrule so the same breach is not called again)
    resume: str  # what to carry on with once overruled: "none", "trick" or "score"
    before: AllFoursState


@dataclass
class AllFoursState:
    teams: dict[str, str] = field(default_factory=lambda: {"A": "south/north", "B": "east/west"})
    next_dealer: str | None = None
    misdeal_streak: int = 0  # consecutive misdeals by the same dealer (20d)
    game: Game | None = None
    bullseyes: dict[str, int] = field(default_factory=_per_team)  # this table
    hang_jacks: dict[str, int] = field(default_factory=_per_team)  # this table
    games_played: int = 0
    table_closed: bool = False
    reports: dict[str, TableReport] = field(default_factory=dict)  # other tables, by number
    match_over: bool = False
    match_winner: str | None = None
    match_reason: str | None = None
    defaulted: str | None = None
    ruling: Ruling | None = None
