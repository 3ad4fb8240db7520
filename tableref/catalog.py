"""The tables and games tableref knows, in one place so every command lists the same choices."""

from __future__ import annotations

TABLES: tuple[str, ...] = ("bar-billiards", "pool", "carrom", "cards")
GAMES: tuple[str, ...] = ("bar-billiards", "up-and-down", "colors", "carroms", "all-fours")

#: The table each game is played on.
GAME_TABLE: dict[str, str] = {
    "bar-billiards": "bar-billiards",
    "up-and-down": "pool",
    "colors": "pool",
    "carroms": "carrom",
    "all-fours": "cards",
}


def table_for_game(game: str) -> str:
    return GAME_TABLE[game]
