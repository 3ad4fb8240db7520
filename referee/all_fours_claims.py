"""What the players show and say: singing the bullseye, renege claims, throw-ins and the hands.

IC2024 24 and 27g-27i. The camera never sees a hand, so these inputs bring the cards a player shows;
every card shown is checked against the board (it cannot have been played or kicked, nor be in
another hand) and kept as evidence, since a card seen in a hand was held at every earlier trick.
"""

from __future__ import annotations

from collections.abc import Mapping

from tableref.events import HumanInput
from tableref.referee.all_fours_cards import (
    SEATS,
    TEAM_OF,
    card_name,
    other_team,
    parse_card,
    parse_seat,
    parse_team,
)
from tableref.referee.all_fours_codes import FoulCode, Notice, Phase, PointName
from tableref.referee.all_fours_play import POINT_SCORE_CODES, check_breaches, trump_in_hand_check
from tableref.referee.all_fours_rules import cards_on_board, played_by, sure_awards
from tableref.referee.all_fours_scoring import (
    Ctx,
    apply_foul,
    current_hand,
    end_game,
    label,
    live_game,
    score,
)
from tableref.referee.all_fours_state import AllFoursState, Hand
from tableref.referee.base import RefereeError, Update, UpdateKind


def _cards_list(value: object, what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split() if v]
    if not isinstance(value, list | tuple):
        raise RefereeError(f"'{what}' must be a list of cards such as ['AH', '10H']")
    cards = [parse_card(c) for c in value]
    if len(set(cards)) != len(cards):
        raise RefereeError(f"'{what}' names a card twice")
    return cards


def _check_shown(hand: Hand, seat: str | None, cards: list[str]) -> None:
    for card in cards:
        if card in hand.kicks:
            raise RefereeError(f"the {card_name(card)} is the kicked card; it cannot be in a hand")
        if card in cards_on_board(hand):
            raise RefereeError(f"the {card_name(card)} has been played; it cannot be shown from a hand")
        for other, known in list(hand.known.items()) + list(hand.shown.items()):
            if seat is not None and other != seat and card in known:
                raise RefereeError(f"the {card_name(card)} is in {other}'s hand, not {seat}'s")


def _remember(hand: Hand, seat: str, cards: list[str]) -> None:
    shown = hand.shown.setdefault(seat, [])
    shown.extend(c for c in cards if c not in shown)


def bullseyes_for(ctx: Ctx, state: AllFoursState, team: str) -> int:
    game = live_game(state)
    love = ctx.options["love_counts_two"] and game.points[other_team(team)] == 0
    return 2 if love else 1


def on_sing(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    """A bullseye is recorded only when sung (27g-27i): by the pair on fourteen, or mid-hand by a
    pair whose sure points shown or played take it to fourteen."""
    game = live_game(state)
    named = item.data.get("team", item.data.get("seat", item.by))
    if named is None:
        raise RefereeError("say who sings: 'team' (A or B) or 'seat'")
    team = parse_team(named)
    hand = game.hand
    if game.unsung and hand is not None and hand.phase is not Phase.DONE:
        raise RefereeError("a fourteen went unsung past the cut: this issue must be played out first (27i)")
    if game.singer is not None:
        if team != game.singer:
            raise RefereeError(f"{label(state, game.singer)} reached {ctx.target} first; only they can sing now")
        n = bullseyes_for(ctx, state, team)
        return end_game(ctx, state, team, n, f"sung on {game.points[team]} points" + (", 14-0 counts two (30d)" if n > 1 else ""))
    have = game.points[team]
    if hand is None or hand.phase is not Phase.PLAY:
        raise RefereeError(f"{label(state, team)} have {have}; a bullseye needs {ctx.target}")
    seat = parse_seat(item.data["seat"]) if "seat" in item.data else None
    shown = _cards_list(item.data.get("cards"), "cards")
    _check_shown(hand, seat, shown)
    if seat is not None:
        if TEAM_OF[seat] != team:
            raise RefereeError(f"{seat} is not in team {team}")
        _remember(hand, seat, shown)
    awards = sure_awards(hand, team, set(shown))
    worth = sum(a.points for a in awards)
    if have + worth < ctx.target:
        sure = ", ".join(a.detail for a in awards) or "none"
        raise RefereeError(
            f"{label(state, team)} have {have} and the sure points shown are worth {worth} ({sure}): "
            f"{have + worth} is short of {ctx.target}; play on"
        )
    out: list[Update] = []
    for award in awards:
        if game.points[team] >= ctx.target:
            break
        if award.point is PointName.HANG_JACK:
            state.hang_jacks[team] += 1
        out += score(ctx, state, team, award.points, POINT_SCORE_CODES[award.point], f"sure point sung: {award.detail}")
    out = [u for u in out if u.code != Notice.SING_NOW]
    n = bullseyes_for(ctx, state, team)
    return out + end_game(ctx, state, team, n, "sure point sung (27g)" + (", 14-0 counts two (30d)" if n > 1 else ""))


def on_claim_renege(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    game = live_game(state)
    hand = game.hand
    if hand is None:
        raise RefereeError("no hand has been dealt in this game")
    if "seat" not in item.data:
        raise RefereeError("a renege claim names the accused 'seat' and the 'cards' the accused shows")
    seat = parse_seat(item.data["seat"])
    shown = _cards_list(item.data.get("cards"), "cards")
    _check_shown(hand, seat, shown)
    _remember(hand, seat, shown)
    out = check_breaches(ctx, state, hand, [seat])
    if not out and not (game.over or hand.phase is Phase.DONE):
        out = trump_in_hand_check(ctx, state, hand)
    if out:
        return out
    return [
        Update(
            UpdateKind.INFO,
            f"Claim against {seat} not upheld: the cards shown ({', '.join(shown) or 'none'}) prove no renege "
            "or under-trump (24)",
            code=Notice.CLAIM_NOT_UPHELD,
            clause="24",
            player=seat,
        )
    ]


def on_throw_in(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    hand = current_hand(state)
    if "seat" not in item.data:
        raise RefereeError("a throw-in names the 'seat' and the 'cards' thrown in")
    seat = parse_seat(item.data["seat"])
    cards = _cards_list(item.data.get("cards"), "cards")
    _check_shown(hand, seat, cards)
    jack = f"J{hand.trump}" if hand.trump else None
    if jack is None or jack not in cards:
        raise RefereeError(
            "throwing the cards in is refereed only when it saves the Jack (24c); otherwise play the hand out"
        )
    _remember(hand, seat, cards)
    return apply_foul(
        ctx, state, FoulCode.THREW_IN_JACK, seat=seat, detail=f"the {card_name(jack)} was among {', '.join(cards)}",
        key=f"threw_in_jack:{seat}",
    )


def on_hands(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    """The dealt hands, where the referee knows them: plays are then checked against them."""
    hand = current_hand(state)
    given: dict[str, list[str]] = {}
    raw = item.data.get("hands", item.data)
    if not isinstance(raw, Mapping):
        raise RefereeError("'hands' maps seats to their cards, e.g. {'south': ['AH', '10H', ...]}")
    for key, value in raw.items():
        seat = parse_seat(key)
        given[seat] = _cards_list(value, key)
    if not given:
        raise RefereeError("'hands' names seats and their cards, e.g. {'south': ['AH', '10H', ...]}")
    seen: dict[str, str] = {}
    for seat, cards in given.items():
        if len(cards) > hand.cards_each[seat]:
            raise RefereeError(f"{seat} was dealt {hand.cards_each[seat]} cards, not {len(cards)}")
        for card in cards:
            if card in seen:
                raise RefereeError(f"the {card_name(card)} is given to both {seen[card]} and {seat}")
            seen[card] = seat
            if card in hand.kicks:
                raise RefereeError(f"the {card_name(card)} is the kicked card; it is in no one's hand")
            for other, shown in hand.shown.items():
                if other != seat and card in shown:
                    raise RefereeError(f"the {card_name(card)} was seen in {other}'s hand, not {seat}'s")
        missing = [c for c in played_by(hand, seat) if c not in cards]
        if missing and len(cards) >= hand.cards_each[seat]:
            raise RefereeError(f"{seat} has played {', '.join(missing)}, which is not in the hand given")
        for p_seat in SEATS:
            if p_seat != seat and any(c in cards for c in played_by(hand, p_seat)):
                raise RefereeError(f"a card given to {seat} was played by {p_seat}")
    for seat, cards in given.items():
        hand.known[seat] = cards
    out = [
        Update(
            UpdateKind.INFO,
            f"Hands recorded for {', '.join(given)}",
            code=Notice.HANDS,
            data={"seats": list(given)},
        )
    ]
    fouls = check_breaches(ctx, state, hand, list(given))
    if not fouls:
        fouls = trump_in_hand_check(ctx, state, hand)
    return out + fouls
