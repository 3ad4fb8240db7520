"""The IC2024 match around the table: power play, the elimination rule, defaults and standings.

A match is three tables (2: "3 table system"), the first team to 17 bullseyes over all of them
wins, and each table plays at most 11 games (28). One engine referees one table; the other tables'
tallies arrive as ``table_report`` inputs so the engine can say when the match is over. Standings
across a round robin rank by wins, then bullseyes for, bullseyes against, hang-jacks for and
hang-jacks against (2c), which :func:`standings` computes from finished matches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tableref.referee.all_fours_cards import TEAMS, other_team
from tableref.referee.all_fours_state import AllFoursState

POWER_PLAY_MODES: tuple[str, ...] = ("games", "table_bullseyes", "off")


def power_play_on(state: AllFoursState, options: Mapping[str, Any], game_number: int) -> bool:
    """Whether the game about to start at this table is played under power play (30b, 30c).

    ``"games"`` (the default): the 7th to the 11th game at this table, the last five of the eleven
    the elimination rule allows. ``"table_bullseyes"``: while the bullseyes recorded at this table
    (both pairs, penalties included) put the coming bullseye between the 7th and the 11th.
    """
    mode = options["power_play"]
    low, high = options["power_play_from"], options["power_play_to"]
    if mode == "games":
        return bool(low <= game_number <= high)
    if mode == "table_bullseyes":
        coming = sum(state.bullseyes.values()) + 1
        return bool(low <= coming <= high)
    return False


def match_tallies(state: AllFoursState) -> tuple[dict[str, int], dict[str, int]]:
    """Bullseyes and hang-jacks per team over this table and every reported table."""
    bulls = dict(state.bullseyes)
    hangs = dict(state.hang_jacks)
    for report in state.reports.values():
        for team in TEAMS:
            bulls[team] += report.bullseyes[team]
            hangs[team] += report.hang_jacks[team]
    return bulls, hangs


def match_decision(state: AllFoursState, options: Mapping[str, Any]) -> tuple[str | None, str] | None:
    """``(winner, reason)`` once the match is decided, else ``None``.

    Decided when a team reaches the required bullseyes (17), or when every table has closed (its
    eleven games played, or closed by a dispute): then the team with more bullseyes wins, and equal
    tallies are a drawn match (``None``).
    """
    bulls, _ = match_tallies(state)
    need = options["match_bullseyes"]
    leaders = [t for t in TEAMS if bulls[t] >= need]
    if leaders:
        winner = max(leaders, key=lambda t: bulls[t])
        return winner, f"{winner} reached {bulls[winner]} bullseyes of the {need} needed"
    others = [str(n) for n in range(1, options["tables"] + 1) if n != options["table"]]
    if state.table_closed and all(n in state.reports and state.reports[n].closed for n in others):
        if bulls["A"] == bulls["B"]:
            return None, f"every table closed level at {bulls['A']} bullseyes each"
        winner = "A" if bulls["A"] > bulls["B"] else "B"
        return winner, f"every table closed; {winner} lead {bulls[winner]} to {bulls[other_team(winner)]} (28)"
    return None


@dataclass(frozen=True)
class MatchResult:
    """A finished match, by team name, as the standings need it."""

    team_a: str
    team_b: str
    bullseyes_a: int
    bullseyes_b: int
    hang_jacks_a: int = 0
    hang_jacks_b: int = 0
    winner: str | None = None  # a team name, or None for a draw
    defaulted: str | None = None  # the team name that defaulted, if any


def match_result(state: AllFoursState, options: Mapping[str, Any]) -> MatchResult:
    """This match as a standings row needs it (team names from ``teams``)."""
    bulls, hangs = match_tallies(state)
    a, b = state.teams["A"], state.teams["B"]
    if state.defaulted is not None:
        loser = a if state.defaulted == "A" else b
        return default_result(
            a, b, loser, options["match_bullseyes"], options["default_bullseyes_against"], (hangs["A"], hangs["B"])
        )
    winner = None if state.match_winner is None else state.teams[state.match_winner]
    return MatchResult(a, b, bulls["A"], bulls["B"], hangs["A"], hangs["B"], winner)


def default_result(
    team_a: str, team_b: str, defaulter: str, required: int, against: int, hang_jacks: tuple[int, int] = (0, 0)
) -> MatchResult:
    """A match won by default (10): the winner is credited the required bullseyes for and half of
    them against (``against``, 8 of 17 rounded down by default), and no hang-jacks are added to what
    was already recorded ("all points stand")."""
    if defaulter not in (team_a, team_b):
        raise ValueError(f"the defaulting team {defaulter!r} is not in this match ({team_a!r}, {team_b!r})")
    winner = team_b if defaulter == team_a else team_a
    bulls_a, bulls_b = (against, required) if defaulter == team_a else (required, against)
    return MatchResult(team_a, team_b, bulls_a, bulls_b, hang_jacks[0], hang_jacks[1], winner, defaulter)


@dataclass(frozen=True)
class Standing:
    team: str
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    bullseyes_for: int = 0
    bullseyes_against: int = 0
    hang_jacks_for: int = 0
    hang_jacks_against: int = 0
    defaults: int = 0

    def sort_key(self) -> tuple[int, int, int, int, int, str]:
        """2c: wins, then bullseyes for, then (fewest) bullseyes against, then hang-jacks for, then
        (fewest) hang-jacks against; the name only keeps equal rows in a stable order."""
        return (
            -self.wins,
            -self.bullseyes_for,
            self.bullseyes_against,
            -self.hang_jacks_for,
            self.hang_jacks_against,
            self.team,
        )


def standings(results: Iterable[MatchResult]) -> list[Standing]:
    """The round-robin table, best first, from finished matches."""
    rows: dict[str, dict[str, int]] = {}
    for r in results:
        for me, bf, ba, hf, ha in (
            (r.team_a, r.bullseyes_a, r.bullseyes_b, r.hang_jacks_a, r.hang_jacks_b),
            (r.team_b, r.bullseyes_b, r.bullseyes_a, r.hang_jacks_b, r.hang_jacks_a),
        ):
            row = rows.setdefault(me, dict.fromkeys(
                ("played", "wins", "draws", "losses", "bf", "ba", "hf", "ha", "defaults"), 0
            ))
            row["played"] += 1
            if r.winner is None:
                row["draws"] += 1
            elif r.winner == me:
                row["wins"] += 1
            else:
                row["losses"] += 1
            row["bf"] += bf
            row["ba"] += ba
            row["hf"] += hf
            row["ha"] += ha
            if r.defaulted == me:
                row["defaults"] += 1
    table = [
        Standing(
            team, row["played"], row["wins"], row["draws"], row["losses"], row["bf"], row["ba"], row["hf"],
            row["ha"], row["defaults"],
        )
        for team, row in rows.items()
    ]
    return sorted(table, key=Standing.sort_key)
