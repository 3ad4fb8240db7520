"""Tablet views: what a referee's page needs to draw, computed from an engine, beside its raw state.

Why a separate view: ``engine.state`` is the referee's own bookkeeping (every trick, every play,
the ruling to undo). The tablet needs a few things the state does not hold as such: the points
this hand has earned so far *as the engine tallies them* (High, Low, Jack or Hang-Jack, Game),
whose turn it is, and the trick on the board. Recomputing those rules in JavaScript would be a
second referee that could disagree with the first, so the page reads them from here.

The view is read-only: it never changes the engine or its state (it reads the engine's private
state object, which ``engine.state`` would only deep-copy).
"""

from __future__ import annotations

from typing import Any

from tableref.referee import Engine
from tableref.referee.all_fours_cards import TEAM_OF
from tableref.referee.all_fours_codes import Phase
from tableref.referee.all_fours_play import whose_turn
from tableref.referee.all_fours_rules import current_trick, game_totals, hand_awards
from tableref.referee.all_fours_scoring import Ctx
from tableref.referee.all_fours_state import AllFoursState, Hand, Trick


def table_view(engine: Engine[Any] | None) -> dict[str, Any] | None:
    """The tablet view of a table's referee, or ``None`` for a game without one."""
    if engine is None or engine.game != "all-fours":
        return None
    state = getattr(engine, "_state", None)
    if not isinstance(state, AllFoursState):
        return None
    return all_fours_view(state, engine.options, engine.scores())


def _trick_json(trick: Trick) -> dict[str, Any]:
    return {
        "number": trick.number,
        "leader": trick.leader,
        "plays": [{"seat": p.seat, "card": p.card} for p in trick.plays],
        "pending": [{"seat": p.seat, "card": p.card} for p in trick.pending],
        "winner": trick.winner,
    }


def _hand_json(hand: Hand, ctx: Ctx) -> dict[str, Any]:
    """The hand on the board: kick, trump, the trick in play (or the last one turned), the points."""
    trick = current_trick(hand)
    shown = trick if trick is not None else (hand.tricks[-1] if hand.tricks else None)
    playing = hand.phase is Phase.PLAY
    awards = hand_awards(hand) if hand.trump is not None and hand.tricks else []
    return {
        "dealer": hand.dealer,
        "lead_seat": hand.lead_seat,
        "phase": hand.phase.value,
        "kicks": list(hand.kicks),
        "kick": hand.kicks[-1] if hand.kicks else None,
        "trump": hand.trump,
        "stand": hand.stand.value if hand.stand is not None else None,
        "stander": hand.stander,
        "cards_each": dict(hand.cards_each),
        "tricks_total": max(hand.cards_each.values(), default=6),
        "tricks_done": sum(1 for t in hand.tricks if t.winner is not None),
        "trick": _trick_json(shown) if shown is not None else None,
        "tricks": [_trick_json(t) for t in hand.tricks],
        "to_play": whose_turn(ctx, hand) if playing else None,
        "game_totals": game_totals(hand),
        "kick_points": dict(hand.kick_points),
        # while the hand is played these are the points as they stand (High and Low may still change)
        "points_final": hand.phase is Phase.DONE,
        "points": [{"point": a.point.value, "team": a.team, "points": a.points, "detail": a.detail} for a in awards],
    }


def all_fours_view(state: AllFoursState, options: dict[str, Any], scores: dict[str, int]) -> dict[str, Any]:
    order = tuple(options["seat_order"])
    ctx = Ctx(options, order)
    game = state.game
    hand = game.hand if game is not None else None
    return {
        "game": "all-fours",
        "seat_order": list(order),
        "team_of": dict(TEAM_OF),
        "teams": dict(state.teams),
        "scores": dict(scores),
        "target": int(options["bullseye_points"]),
        "bullseyes": dict(state.bullseyes),
        "hang_jacks": dict(state.hang_jacks),
        "games_played": state.games_played,
        "game_number": game.number if game is not None else 0,
        "power_play": bool(game.power_play) if game is not None else False,
        "singer": game.singer if game is not None else None,
        "next_dealer": state.next_dealer,
        "table_closed": state.table_closed,
        "match_over": state.match_over,
        "hand": _hand_json(hand, ctx) if hand is not None else None,
    }
