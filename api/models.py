"""Request bodies of the REST API (pydantic), so bad requests get a clear 422 naming the field."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tableref.catalog import GAME_TABLE, GAMES, TABLES


class TableIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,40}$")
    name: str | None = Field(default=None, max_length=80)
    table_kind: str
    game: str | None = None
    source: str | None = Field(default=None, max_length=500, description="media file, camera:N, /dev/videoN, rtsp:// or http(s):// URL")
    loop: bool = True
    pipeline: Literal["vision", "truth"] = "vision"
    calibration: dict[str, Any] | None = None
    options: dict[str, Any] = Field(default_factory=dict)

    @field_validator("table_kind")
    @classmethod
    def _known_table(cls, v: str) -> str:
        if v not in TABLES:
            raise ValueError(f"unknown table kind {v!r}; accepted: {', '.join(TABLES)}")
        return v

    @field_validator("game")
    @classmethod
    def _known_game(cls, v: str | None) -> str | None:
        if v is not None and v not in GAMES:
            raise ValueError(f"unknown game {v!r}; accepted: {', '.join(GAMES)}")
        return v

    def check_pair(self) -> None:
        if self.game is not None and GAME_TABLE[self.game] != self.table_kind:
            raise ValueError(f"{self.game} is played on a {GAME_TABLE[self.game]} table, not {self.table_kind}")


class TablePatch(BaseModel):
    """The fields to change; ``"source": null`` stops the table's camera, ``"calibration": null``
    removes its calibration (a file source is then calibrated automatically)."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, max_length=80)
    source: str | None = Field(default=None, max_length=500)
    loop: bool | None = None
    pipeline: Literal["vision", "truth"] | None = None
    calibration: dict[str, Any] | None = None


class MatchIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,40}$")
    game: str
    table_ids: list[str] = Field(default_factory=list, description="one table, or three for an All-Fours team match")
    players: list[str] = Field(default_factory=list, description="players or teams")
    format: Literal["single", "bar-billiards-league", "all-fours-team"] = Field(
        default="single",
        description="bar-billiards-league: nine frames on one table (rule 6); all-fours-team: three tables whose "
                    "referees are tables 1, 2, 3 in the order given (IC2024 2, 28); players are then the two teams")
    meta: dict[str, Any] = Field(
        default_factory=dict,
        description="free notes; for a league match 'draw' may give the drawn order "
                    "({'singles': [[home, away] x6], 'doubles': [[[h, h], [a, a]] x3]}), entered as league_match")

    @field_validator("game")
    @classmethod
    def _known_game(cls, v: str) -> str:
        if v not in GAMES:
            raise ValueError(f"unknown game {v!r}; accepted: {', '.join(GAMES)}")
        return v


class MatchPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    status: Literal["open", "playing", "ended"] | None = None
    result: dict[str, Any] | None = None


# -- match standings (responses and the ``match`` websocket message) ----------------------------------


class FrameLine(BaseModel):
    """One frame of a bar-billiards league match, as the scorecard holds it (rule 6, 7(e))."""

    number: int
    kind: str | None = Field(default=None, description="singles or doubles, when the drawn order was entered")
    home: list[str] = Field(default_factory=list)
    away: list[str] = Field(default_factory=list)
    played: bool = False
    home_score: int | None = None
    away_score: int | None = None
    winner: Literal["home", "away"] | None = Field(default=None, description="None for a shared frame (2i)")
    reason: str | None = None


class LeagueStanding(BaseModel):
    """Frames won per side so far of nine (rule 6: six singles, then three doubles)."""

    frames_total: int = 9
    home_frames: int = 0
    away_frames: int = 0
    shared_frames: int = Field(default=0, description="level frames (2i): they count for neither side")
    played: int = 0
    remaining: int = 9
    frame_in_play: int | None = Field(default=None, description="the frame at the table now; None between frames")
    frame_scores: dict[str, int] = Field(default_factory=dict, description="the banked scores of the frame in play")
    home_points: int = 0
    away_points: int = 0
    scorecard: bool = Field(default=False, description="whether the drawn order (league_match input) is on the card")
    frames: list[FrameLine] = Field(default_factory=list)


class TableTally(BaseModel):
    """What one table of an All-Fours team match has recorded."""

    table: int = Field(description="the table's number in the match (1-3)")
    table_id: str
    bullseyes: dict[str, int] = Field(default_factory=lambda: {"A": 0, "B": 0})
    hang_jacks: dict[str, int] = Field(default_factory=lambda: {"A": 0, "B": 0})
    games: int = Field(default=0, description="games finished at this table")
    max_games: int = 11
    closed: bool = Field(default=False, description="11 games played (28) or closed by a dispute (29d)")
    game_in_play: int | None = None
    points: dict[str, int] = Field(default_factory=lambda: {"A": 0, "B": 0}, description="points of the game in play")


class TeamStanding(BaseModel):
    """The three tables of an IC2024 team match and the match tally (2, 28)."""

    needed: int = Field(default=17, description="bullseyes that win the match (28)")
    tables: list[TableTally] = Field(default_factory=list)
    bullseyes: dict[str, int] = Field(default_factory=lambda: {"A": 0, "B": 0})
    hang_jacks: dict[str, int] = Field(default_factory=lambda: {"A": 0, "B": 0})
    defaulted: str | None = Field(default=None, description="the team (A or B) that defaulted (10)")
    result: dict[str, Any] | None = Field(default=None, description="the finished match as standings count it")


class MatchStanding(BaseModel):
    """A match's standing: live while it is played, the stored final standing once it ended."""

    match: str
    format: str
    game: str
    status: str
    sides: dict[str, str] = Field(description="side key (home/away or A/B) to team name")
    decided: bool = Field(description="the winner can no longer change")
    complete: bool = Field(description="nothing is left to play")
    winner: str | None = Field(default=None, description="the winning side's key; None while open or when drawn")
    winner_name: str | None = None
    reason: str | None = None
    live: bool = Field(default=True, description="computed from the referees now (false: the stored final standing)")
    league: LeagueStanding | None = None
    team: TeamStanding | None = None


class StandingRow(BaseModel):
    """One team's line in the IC2024 league table (2c)."""

    rank: int
    team: str
    played: int
    wins: int
    draws: int
    losses: int
    bullseyes_for: int
    bullseyes_against: int
    hang_jacks_for: int
    hang_jacks_against: int
    defaults: int


class LeagueTable(BaseModel):
    """Standings across the ended matches of a game, best first."""

    game: str
    order: str = Field(description="how rows are ranked")
    matches: int = Field(description="ended matches counted")
    rows: list[StandingRow]
    skipped: list[str] = Field(default_factory=list, description="ended matches not counted, and why")
