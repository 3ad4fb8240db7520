"""Up and Down's counting rules, apart from the engine: the wrapping ball order and match standings.

Kept small and pure so the tests can check the numbering (wrap-around, the cue ball as the last
object ball) and the match tie-break without playing shots.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from tableref.referee.base import RefereeError
from tableref.referee.pool_table import BALLS, ball_id


class Direction(StrEnum):
    UP = "up"
    DOWN = "down"

    @property
    def other(self) -> Direction:
        return Direction.DOWN if self is Direction.UP else Direction.UP


def next_ball(after: int, direction: Direction, pool: Iterable[int]) -> int | None:
    """The next consecutive number in ``pool`` after ``after``, wrapping 15 -> 0 going up and 0 -> 15
    going down (Legal Shot: "The ball numbering system wraps")."""
    balls = set(pool)
    step = 1 if direction is Direction.UP else -1
    for k in range(1, len(BALLS) + 1):
        candidate = (after + k * step) % len(BALLS)
        if candidate in balls:
            return candidate
    return None


def expected_calls(on_table: Iterable[int], cue: int, count: int, direction: Direction) -> list[int]:
    """The only balls a player may call, in order, for ``count`` balls: each the next consecutive ball
    after the one before, the cue ball included as the very last once every other ball is called
    (Pocketing Multiple Balls: "the cue ball must be the second ball to be pocketed")."""
    pool = set(on_table) - {cue}
    out: list[int] = []
    previous = cue
    for _ in range(count):
        if pool:
            nxt = next_ball(previous, direction, pool)
            assert nxt is not None
        elif cue not in out:
            nxt = cue
        else:
            break
        out.append(nxt)
        pool.discard(nxt)
        previous = nxt
    return out


def call_direction(on_table: Iterable[int], cue: int, balls: Sequence[int], fixed: Direction | None) -> Direction | None:
    """The direction a call implies; ``None`` when both directions fit (two balls left on an open table).

    Raises :class:`RefereeError` naming the balls that may be called when the call breaks the order.
    """
    table = set(on_table)
    if cue not in table:
        raise RefereeError(f"the cue ball {ball_id(cue)} is not on the table")
    missing = [b for b in balls if b not in table]
    if missing:
        raise RefereeError(f"called {', '.join(ball_id(b) for b in missing)}, which is not on the table")
    if not balls or len(set(balls)) != len(balls):
        raise RefereeError("a call names one or more different balls, such as ['ball-8']")
    options = [fixed] if fixed is not None else [Direction.UP, Direction.DOWN]
    fits = [d for d in options if expected_calls(table, cue, len(balls), d) == list(balls)]
    if not fits:
        hints = "; ".join(
            f"going {d.value} from {ball_id(cue)}: {', '.join(ball_id(b) for b in expected_calls(table, cue, len(balls), d))}"
            for d in options
        )
        raise RefereeError(f"{', '.join(ball_id(b) for b in balls)} is not the next consecutive ball(s) still on the table ({hints})")
    return fits[0] if len(fits) == 1 else None


@dataclass
class GameResult:
    game: int
    scores: dict[str, int]
    winner: str | None
    reason: str


@dataclass(frozen=True)
class Standing:
    player: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0

    @property
    def match_points(self) -> int:
        """A win counts two, a draw one: wins, draws and losses are all counted (End of Game)."""
        return 2 * self.wins + self.draws


@dataclass
class _Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    games: list[int] = field(default_factory=list)


def standings(results: Iterable[GameResult], players: Sequence[str]) -> list[Standing]:
    """Match play (End of Game): rank by wins/draws/losses, ties broken by the total point score."""
    tally = {p: _Tally() for p in players}
    for result in results:
        for player, points in result.scores.items():
            t = tally.setdefault(player, _Tally())
            t.points += points
            if result.winner is None:
                t.draws += 1
            elif result.winner == player:
                t.wins += 1
            else:
                t.losses += 1
    table = [Standing(p, t.wins, t.draws, t.losses, t.points) for p, t in tally.items()]
    return sorted(table, key=lambda s: (-s.match_points, -s.points, players.index(s.player) if s.player in players else 99))


def match_winner(table: Sequence[Standing]) -> tuple[str | None, str]:
    """The match winner and why: most wins, else the highest total point score, else a drawn match."""
    if not table:
        return None, "no games played"
    if len(table) == 1:
        return table[0].player, "the only player"
    first, second = table[0], table[1]
    if first.match_points > second.match_points:
        return first.player, f"{first.player} won {first.wins} game(s) to {second.wins}"
    if first.points > second.points:
        return first.player, f"tied on games; {first.player} wins on total points {first.points} to {second.points}"
    return None, f"tied on games and on total points ({first.points})"
