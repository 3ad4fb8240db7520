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
    format: Literal["single", "bar-billiards-league", "all-fours-team"] = "single"
    meta: dict[str, Any] = Field(default_factory=dict)

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
