"""Points, bullseyes and penalties: the only places the All-Fours state's tallies change.

Every change of a pair's points toward the bullseye goes through :func:`score`, which returns the
SCORE update for it, so ``engine.scores()`` always equals the sum of the SCORE updates (the score
contract of ``referee/base.py``). Games end only through :func:`end_game` and fouls are applied only
through :func:`apply_foul`, which also keeps the state from just before the ruling so that the human
referee can overrule it.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tableref.referee.all_fours_cards import TEAM_OF, next_seat, other_team
from tableref.referee.all_fours_codes import FOULS, Effect, FoulCode, Notice, Phase, ScoreCode
from tableref.referee.all_fours_match import match_decision, match_result, match_tallies
from tableref.referee.all_fours_state import AllFoursState, Game, Hand, Ruling
from tableref.referee.base import RefereeError, Update, UpdateKind


@dataclass(frozen=True)
class Ctx:
    """The venue's options and seat order, passed to every rule handler."""

    options: Mapping[str, Any]
    order: tuple[str, ...]

    @property
    def target(self) -> int:
        return int(self.options["bullseye_points"])


def label(state: AllFoursState, team: str) -> str:
    """``"A (south/north)"`` or the name given with ``teams``."""
    name = state.teams.get(team, "")
    return f"{team} ({name})" if name else team


def live_game(state: AllFoursState) -> Game:
    """The game in progress, or a clear error."""
    if state.match_over:
        raise RefereeError("the match is over; nothing more can be played at this table")
    if state.game is None or state.game.over:
        raise RefereeError("no game is in progress at this table; the next 'deal' (or 'new_game') starts one")
    return state.game


def current_hand(state: AllFoursState) -> Hand:
    """The hand being dealt or played, or a clear error."""
    game = live_game(state)
    if game.hand is None or game.hand.phase is Phase.DONE:
        raise RefereeError("no hand is being played; the next 'deal' starts one")
    return game.hand


def score(ctx: Ctx, state: AllFoursState, team: str, delta: int, code: ScoreCode, text: str) -> list[Update]:
    """Change ``team``'s points and say so; also keeps track of who may sing the bullseye."""
    game = live_game(state)
    if delta == 0:
        return []
    game.points[team] += delta
    hand = game.hand
    if hand is not None and hand.phase is not Phase.DONE and code is not ScoreCode.NEW_GAME:
        game.last_issue[team] += delta
    out = [
        Update(
            UpdateKind.SCORE,
            f"{label(state, team)} {'+' if delta > 0 else ''}{delta}: {text} ({_points(game.points[team])})",
            code=code,
            player=team,
            points=delta,
            data={"total": game.points[team], "scores": dict(game.points)},
        )
    ]
    return out + refresh_singer(ctx, state)


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def refresh_singer(ctx: Ctx, state: AllFoursState) -> list[Update]:
    """The first pair on fourteen may sing (27g-27i); a pair that drops below loses the right."""
    game = state.game
    if game is None or game.over or game.unsung:
        return []
    if game.singer is not None and game.points[game.singer] < ctx.target:
        game.singer = None
    if game.singer is None:
        ready = [t for t in ("A", "B") if game.points[t] >= ctx.target]
        if ready:
            game.singer = max(ready, key=lambda t: game.points[t])
            return [sing_prompt(ctx, state, game.singer)]
    return []


def sing_prompt(ctx: Ctx, state: AllFoursState, team: str) -> Update:
    game = state.game
    points = game.points[team] if game else 0
    return Update(
        UpdateKind.CHOICE,
        f"{label(state, team)} have {points}: sing the bullseye before the next cut (27g-27i)",
        code=Notice.SING_NOW,
        clause="27i",
        player=team,
        data={"options": ["sing"], "points": points},
    )


def end_game(ctx: Ctx, state: AllFoursState, winner: str, bullseyes: int, reason: str) -> list[Update]:
    """Record the game's bullseye(s) for ``winner``; the deal moves on (20c, 21e) and the elimination
    rule (28) and the match are checked."""
    game = live_game(state)
    game.over = True
    game.winner = winner
    game.bullseyes = bullseyes
    game.reason = reason
    game.singer = None
    if game.hand is not None:
        if game.hand.phase is not Phase.DONE:
            game.hand.phase = Phase.DONE
        state.next_dealer = next_seat(ctx.order, game.hand.dealer)
    state.misdeal_streak = 0
    state.bullseyes[winner] += bullseyes
    state.games_played += 1
    out = [
        Update(
            UpdateKind.GAME_OVER,
            f"Bullseye{'s' if bullseyes > 1 else ''} to {label(state, winner)}: {reason} "
            f"(game {game.number} at this table, {game.points['A']}-{game.points['B']})",
            code=Notice.BULLSEYE,
            player=winner,
            data={
                "winner": winner,
                "bullseyes": bullseyes,
                "scores": dict(game.points),
                "game": game.number,
                "table_bullseyes": dict(state.bullseyes),
                "next_dealer": state.next_dealer,
            },
        )
    ]
    if state.games_played >= ctx.options["max_games_per_table"] and not state.table_closed:
        state.table_closed = True
        out.append(
            Update(
                UpdateKind.PHASE,
                f"This table has played its {state.games_played} games: it closes (28)",
                code=Notice.TABLE_CLOSED,
                clause="28",
            )
        )
    return out + check_match(ctx, state)


def award_bullseyes(ctx: Ctx, state: AllFoursState, team: str, count: int, reason: str) -> list[Update]:
    """Bullseyes added to a pair's tally outside any game (penalties while play goes on)."""
    state.bullseyes[team] += count
    out = [
        Update(
            UpdateKind.INFO,
            f"{count} bullseye{'s' if count > 1 else ''} to {label(state, team)}: {reason}",
            code=Notice.BULLSEYE,
            player=team,
            data={"bullseyes": count, "table_bullseyes": dict(state.bullseyes)},
        )
    ]
    return out + check_match(ctx, state)


def check_match(ctx: Ctx, state: AllFoursState) -> list[Update]:
    if state.match_over:
        return []
    decision = match_decision(state, ctx.options)
    if decision is None:
        return []
    winner, reason = decision
    return close_match(ctx, state, winner, reason)


def close_match(ctx: Ctx, state: AllFoursState, winner: str | None, reason: str) -> list[Update]:
    state.match_over = True
    state.match_winner = winner
    state.match_reason = reason
    if state.game is not None and not state.game.over:
        state.game.over = True
        state.game.reason = "the match ended"
        if state.game.hand is not None:
            state.game.hand.phase = Phase.DONE
    bulls, hangs = match_tallies(state)
    result = match_result(state, ctx.options)
    who = label(state, winner) if winner else "nobody (a drawn match)"
    return [
        Update(
            UpdateKind.MATCH_OVER,
            f"Match over: {who} wins; {reason}",
            code=Notice.MATCH_OVER,
            player=winner,
            data={
                "winner": winner,
                "bullseyes": bulls,
                "hang_jacks": hangs,
                "teams": dict(state.teams),
                "defaulted": state.defaulted,
                "result": dataclasses.asdict(result),
            },
        )
    ]


def _penalty_words(state: AllFoursState, effect: Effect, amount: int, opponents: str, offender: str) -> str:
    opp = label(state, opponents)
    plural = "s" if amount > 1 else ""
    return {
        Effect.LOSE_GAME: f"{label(state, offender)} lose the bullseye: {amount} bullseye{plural} to {opp}",
        Effect.BULLSEYE: f"{amount} bullseye{plural} to {opp}; play goes on",
        Effect.POINT: f"{amount} point{plural} to {opp}",
        Effect.ZERO_POINTS: f"{label(state, offender)}'s points go back to zero",
        Effect.VOID_LAST: f"{label(state, offender)}'s points of the last issue are void",
        Effect.CONCEDE_GAME_POINT: f"{label(state, offender)} concede Game this hand",
        Effect.NONE: "no penalty",
    }[effect]


def snapshot(state: AllFoursState) -> AllFoursState:
    before = copy.deepcopy(state)
    before.ruling = None
    return before


def apply_foul(
    ctx: Ctx,
    state: AllFoursState,
    code: FoulCode,
    *,
    seat: str | None = None,
    team: str | None = None,
    detail: str = "",
    key: str = "",
    resume: str = "none",
) -> list[Update]:
    """Call a foul: one FOUL update (code, clause, sentence, penalty), then its penalty applied."""
    spec = FOULS[code]
    offender = team if team is not None else TEAM_OF[seat] if seat is not None else None
    if offender is None:
        raise RefereeError(f"the foul {code.value} needs the offending seat or team")
    opponents = other_team(offender)
    if spec.effect in (Effect.POINT, Effect.ZERO_POINTS, Effect.VOID_LAST, Effect.CONCEDE_GAME_POINT):
        live_game(state)
    if spec.effect is Effect.CONCEDE_GAME_POINT and (state.game is None or state.game.hand is None):
        raise RefereeError("Game can only be conceded while a hand is being played or counted (27f)")
    before = snapshot(state)
    who = seat if seat is not None else label(state, offender)
    sentence = spec.sentence.format(seat=who, team=label(state, offender), detail=detail, team_lead="")
    penalty = _penalty_words(state, spec.effect, spec.amount, opponents, offender)
    out = [
        Update(
            UpdateKind.FOUL,
            f"{sentence}. {penalty} ({spec.clause})",
            code=code,
            clause=spec.clause,
            player=seat if seat is not None else offender,
            points=spec.amount if spec.effect is Effect.POINT else None,
            data={
                "team": offender,
                "penalty": spec.effect.value,
                "amount": spec.amount,
                "to": opponents,
                "penalty_text": penalty,
            },
        )
    ]
    game = state.game
    if spec.effect is Effect.LOSE_GAME:
        if code in (FoulCode.RENEGE_TO_SAVE_JACK, FoulCode.THREW_IN_JACK):
            state.hang_jacks[opponents] += 1
        if game is not None and not game.over and not state.match_over:
            out += end_game(ctx, state, opponents, spec.amount, f"{code.value.replace('_', ' ')} ({spec.clause})")
        else:
            out += award_bullseyes(ctx, state, opponents, spec.amount, f"{code.value.replace('_', ' ')}")
    elif spec.effect is Effect.BULLSEYE:
        out += award_bullseyes(ctx, state, opponents, spec.amount, f"{code.value.replace('_', ' ')} ({spec.clause})")
    elif spec.effect is Effect.POINT:
        out += score(ctx, state, opponents, spec.amount, ScoreCode.PENALTY, f"penalty ({spec.clause})")
    elif spec.effect is Effect.ZERO_POINTS and game is not None:
        out += score(ctx, state, offender, -game.points[offender], ScoreCode.VOID, f"points erased ({spec.clause})")
    elif spec.effect is Effect.VOID_LAST and game is not None:
        out += score(ctx, state, offender, -game.last_issue[offender], ScoreCode.VOID, f"points void ({spec.clause})")
    elif (
        spec.effect is Effect.CONCEDE_GAME_POINT
        and game is not None
        and game.hand is not None
        and offender not in game.hand.concedes_game
    ):
        game.hand.concedes_game.append(offender)
    state.ruling = Ruling(code=code.value, key=key, resume=resume, before=before)
    return out
