"""Reading a pool ``setup`` input: a rack already in progress, checked before anything changes.

Why apart from the engine: both pool games take the same position (the balls on the table with
their positions, the player at the table, the scores, whether the next shot is a break); only
what the rules keep besides it differs (Up and Down's directions, Colors' owed companions and
point balls). This module checks the shared part and refuses anything malformed with a sentence
that says what is accepted; each game checks its own fields (``_setup_game``).

A ball not listed is pocketed (pool never leaves a ball anywhere else between shots).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tableref.referee.base import RefereeError
from tableref.referee.pool_table import Point, PoolGeometry, as_point, ball_id, ball_number

if TYPE_CHECKING:
    from tableref.referee.pool_engine import PoolCore

#: the keys every pool game's setup accepts; a game adds its own
COMMON_SETUP_KEYS: tuple[str, ...] = ("on_table", "player", "scores", "break")


@dataclass(frozen=True)
class PoolSetup:
    on_table: Mapping[int, Point]
    player: str
    scores: Mapping[str, int]
    is_break: bool | None  # None: the game decides (a full rack is a break)


def parse_pool_setup(data: Mapping[str, Any], core: PoolCore, geometry: PoolGeometry, game: str,
                     game_keys: tuple[str, ...], negative_scores: bool) -> PoolSetup:
    """The shared fields of a pool setup, checked; ``RefereeError`` names the problem and what is accepted."""
    accepted = (*COMMON_SETUP_KEYS, *game_keys)
    unknown = sorted(set(data) - set(accepted))
    if unknown:
        raise RefereeError(f"{game} setup does not know {', '.join(map(repr, unknown))}; accepted: {', '.join(accepted)}")
    raw = data.get("on_table")
    if not isinstance(raw, Mapping):
        raise RefereeError("setup needs 'on_table': every ball on the table now with its position, such as "
                           "{\"ball-0\": [400, 600], \"ball-9\": [1905, 635]}; balls not listed are pocketed")
    on_table: dict[int, Point] = {}
    names: dict[int, str] = {}
    for key, value in raw.items():
        number = ball_number(str(key))
        if number in on_table:
            raise RefereeError(f"setup lists {ball_id(number)} twice ({names[number]!r} and {key!r})")
        point = as_point(value)
        if point is None:
            raise RefereeError(f"setup on_table {key} needs a position [x_mm, y_mm], got {value!r}")
        if not (0.0 <= point[0] <= geometry.length and 0.0 <= point[1] <= geometry.width):
            raise RefereeError(f"setup on_table {key} is at ({point[0]:.0f}, {point[1]:.0f}) mm, off the table: "
                               f"positions lie within 0..{geometry.length:.0f} x 0..{geometry.width:.0f} mm")
        for other, where in on_table.items():
            if math.dist(point, where) < geometry.ball_radius:
                raise RefereeError(f"setup puts {key} and {names[other]} at the same place "
                                   f"({math.dist(point, where):.0f} mm apart): each ball is listed once")
        on_table[number], names[number] = point, str(key)
    player = data.get("player")
    if player is None:
        if not core.started:
            raise RefereeError(f"setup before the first shot needs 'player': who is at the table (and breaks, "
                               f"when the next shot is a break), one of {', '.join(core.players)}")
        player = core.turn
    if player not in core.players:
        raise RefereeError(f"setup 'player' must be one of the players {', '.join(core.players)}, got {player!r}")
    scores: dict[str, int] = {}
    given = data.get("scores", {})
    if not isinstance(given, Mapping):
        raise RefereeError(f"setup 'scores' maps players to points, such as {{\"{core.players[0]}\": 3}}, got {given!r}")
    for name, points in given.items():
        if name not in core.players:
            raise RefereeError(f"setup 'scores' names {name!r}; players: {', '.join(core.players)}")
        if isinstance(points, bool) or not isinstance(points, int) or (points < 0 and not negative_scores):
            least = "whole number" if negative_scores else "whole number >= 0"
            raise RefereeError(f"setup 'scores' for {name} must be a {least}, got {points!r}")
        scores[str(name)] = points
    is_break = data.get("break")
    if is_break is not None and not isinstance(is_break, bool):
        raise RefereeError(f"setup 'break' is true (the next shot is a break from a full rack) or false, got {is_break!r}")
    return PoolSetup(on_table, str(player), scores, is_break)
