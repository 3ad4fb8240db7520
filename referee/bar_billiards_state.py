"""The bar-billiards referee's state: plain mutable dataclasses the engine base deep-copies.

Why counts and not ball identities: a camera cannot tell the whites apart and they cycle through
the trough, so an id such as ``white-3`` means something only inside one shot (the tracker keeps
it from ``shot_start`` to ``at_rest``). Between shots the state knows how many whites and whether
the red are on the cloth (with the positions last seen), in the trough, in the referee's hand, or
locked in the table after the bar dropped. Event data (frozen mappings) is always thawed before
it is stored, so the state stays deep-copyable and JSON-serialisable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tableref.referee.bar_billiards_match import Scorecard
from tableref.referee.bar_billiards_venue import Point


class Phase(StrEnum):
    TOSS = "toss"  # waiting for the coin toss (2a)
    PLAY = "play"
    ENDGAME = "endgame"  # 2i: one ball left, sudden death
    OFFER = "endgame_offer"  # 2i: margin too big; the leader may still invoke the endgame
    OVER = "over"


class ShotKind(StrEnum):
    BREAK = "break"
    NORMAL = "normal"
    ENDGAME = "endgame"


@dataclass
class Ball:
    """A ball lying on the cloth; ``id`` is only the camera's name for it in the latest shot."""

    colour: str
    x: float | None = None
    y: float | None = None
    id: str | None = None
    staged: bool = False  # placed by hand for the coming shot (in the D, or on the spot to break)

    @property
    def pos(self) -> Point | None:
        return None if self.x is None or self.y is None else (self.x, self.y)


@dataclass
class Pin:
    id: str
    hole: str
    colour: str
    x: float
    y: float
    status: str = "standing"  # standing | fallen | in_hole (the 50 pins during the endgame)
    due_reset: bool = False  # reset asked for at a visit's end; checked at the next strike (3b(o))
    disturbed_between_shots: bool = False  # moved while no shot was played: handling or interference


@dataclass
class ShotEvent:
    """A table event inside a shot, thawed (plain lists and dicts)."""

    type: str
    objects: list[str]
    where: str | None
    t: float
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Call:
    """A foul called on the tablet during (or about) a shot."""

    code: str
    player: str | None = None


@dataclass
class Pot:
    id: str
    colour: str
    hole: str
    t: float
    replaced: bool = False  # 2f(a): fell in without being hit; goes back where it stood
    x: float | None = None
    y: float | None = None


@dataclass
class Shot:
    """One shot from ``shot_start`` to ``at_rest``: what happened, gathered for the judgement."""

    striker: str
    kind: ShotKind
    struck: str
    colour: str
    t: float
    start: list[float] | None
    balls: list[Ball]  # everything on the cloth during the shot, the struck ball included
    object_ball: str | None = None  # the break-off's object ball
    break_number: int = 0  # 2b(c)/(d): which break-off in a row this is within the visit
    events: list[ShotEvent] = field(default_factory=list)
    start_fouls: list[str] = field(default_factory=list)  # known at the strike (3b(c), (e), (j), (o), 2b(b))
    calls: list[Call] = field(default_factory=list)
    overruled: list[str] = field(default_factory=list)
    touched_person: list[str] = field(default_factory=list)
    pots: list[Pot] = field(default_factory=list)
    off: list[Ball] = field(default_factory=list)  # left the table and did not come back (2d)
    notes: list[str] = field(default_factory=list)
    pre: FrameState | None = None  # the state before the strike, for interference (2e)


@dataclass
class Checkpoint:
    """What a late judgement needs: the state before the last at_rest and every item since.

    A late teetering pot (2f(b)), a foul called after the balls stopped, and an overrule all
    re-judge the last shot: the engine rebuilds from ``snapshot`` with an edited item list and
    sends compensating score updates (``score_since`` is what the old items scored).
    """

    snapshot: FrameState
    items: list[dict[str, Any]] = field(default_factory=list)
    score_since: dict[str, int] = field(default_factory=dict)


@dataclass
class ReturnDue:
    """A ball the referee has to put in the trough before the next strike (3b(o))."""

    colour: str
    x: float | None = None
    y: float | None = None


@dataclass
class FrameState:
    players: list[str]
    pins: list[Pin]
    trough_white: int
    trough_red: int = 1
    phase: Phase = Phase.TOSS
    frame_no: int = 1
    visitor: str | None = None
    break_points: int = 0
    banked: dict[str, int] = field(default_factory=dict)
    table: list[Ball] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)  # colours the referee has taken up off the cloth
    locked_white: int = 0  # potted after the bar dropped: out of the frame
    locked_red: int = 0
    bar_down: bool = False
    shot: Shot | None = None
    shots_in_frame: int = 0
    option_for: str | None = None  # 2b(b): the player choosing re-break or play on
    returns_due: list[ReturnDue] = field(default_factory=list)
    breaks_in_row: int = 0
    break_holes: list[str] = field(default_factory=list)
    last_rest_t: float | None = None
    checkpoint: Checkpoint | None = None
    last_call: str | None = None  # the last foul that took something (what overrule cancels)
    last_fouls: list[str] = field(default_factory=list)  # every foul of the last shot
    offer_to: str | None = None
    result: dict[str, Any] | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    match: Scorecard | None = None

    def opponent(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def balls_in_play(self) -> int:
        """Balls not locked away: on the cloth (or moving), in the trough, in the referee's hand."""
        moving = len(self.shot.balls) if self.shot is not None else len(self.table)
        return moving + self.trough_white + self.trough_red + len(self.hand)

    def colours_in_play(self) -> list[str]:
        cloth = self.shot.balls if self.shot is not None else self.table
        return ([b.colour for b in cloth] + ["white"] * self.trough_white + ["red"] * self.trough_red
                + list(self.hand))
