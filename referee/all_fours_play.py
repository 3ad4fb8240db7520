"""Trick play and the end of a hand: IC2024 sections 22-24 and 27.

A card counts from the moment it is on the board (23a). The lead player's card leads; a lead out of
turn waits on the board to be taken back (23c); once the true lead is down, any card played in or out
of turn is "card to board" and stands (23d). Two cards landing together: the bottom one counts, the
top one goes back to the hand, and a hidden bottom card is hiding (23b).

After every counted card the player's earlier cards are re-examined for a renege or under-trump
(24), because a later card is often what proves that a suit was held. When the last trick is turned
the stand and give are checked for trump (22b, 22c, 22e) and the hand is scored in 27a's priority
order.
"""

from __future__ import annotations

from tableref.events import TableEvent
from tableref.referee.all_fours_cards import (
    SUIT_NAMES,
    TEAM_OF,
    card_name,
    other_team,
    parse_card,
    parse_seat,
    trick_winner,
)
from tableref.referee.all_fours_codes import FoulCode, Notice, Phase, PointName, ScoreCode, StandKind
from tableref.referee.all_fours_rules import (
    Award,
    cards_left,
    cards_on_board,
    cards_played,
    current_trick,
    find_breach,
    game_totals,
    hand_awards,
    high_team,
    seat_cards,
    sure_awards,
    trump_check,
)
from tableref.referee.all_fours_scoring import (
    Ctx,
    apply_foul,
    current_hand,
    label,
    live_game,
    score,
    sing_prompt,
)
from tableref.referee.all_fours_state import AllFoursState, Hand, Play, Trick
from tableref.referee.base import RefereeError, Update, UpdateKind

POINT_SCORE_CODES: dict[PointName, ScoreCode] = {
    PointName.HIGH: ScoreCode.HIGH,
    PointName.LOW: ScoreCode.LOW,
    PointName.JACK: ScoreCode.JACK,
    PointName.HANG_JACK: ScoreCode.HANG_JACK,
    PointName.GAME: ScoreCode.GAME,
}

# -- whose turn ---------------------------------------------------------------------------------------


def _cards_before(hand: Hand, seat: str, trick_index: int) -> int:
    return sum(1 for t in hand.tricks[:trick_index] for p in t.plays if p.seat == seat)


def _has_card_for(hand: Hand, seat: str, trick_index: int) -> bool:
    return hand.cards_each.get(seat, 0) - _cards_before(hand, seat, trick_index) > 0


def next_leader(ctx: Ctx, hand: Hand) -> str:
    """The lead player for the first trick, then the winner of the last trick (or the next seat on
    with cards, when a short hand has run dry, 20b)."""
    seat = hand.tricks[-1].winner if hand.tricks and hand.tricks[-1].winner else hand.lead_seat
    index = len(hand.tricks) if current_trick(hand) is None else len(hand.tricks) - 1
    for _ in ctx.order:
        if _has_card_for(hand, seat, index):
            return seat
        seat = ctx.order[(ctx.order.index(seat) + 1) % len(ctx.order)]
    return seat


def seats_due(ctx: Ctx, hand: Hand, trick: Trick) -> list[str]:
    """Seats that still have to play to ``trick``, in the order of play from its leader."""
    k = hand.tricks.index(trick)
    start = ctx.order.index(trick.leader)
    ring = [ctx.order[(start + i) % len(ctx.order)] for i in range(len(ctx.order))]
    done = {p.seat for p in trick.plays}
    return [s for s in ring if s not in done and _has_card_for(hand, s, k)]


def whose_turn(ctx: Ctx, hand: Hand) -> str | None:
    trick = current_trick(hand)
    if trick is None:
        return None if hand_finished(hand) else next_leader(ctx, hand)
    if not trick.plays:
        return trick.leader
    due = seats_due(ctx, hand, trick)
    return due[0] if due else None


def turn_update(ctx: Ctx, state: AllFoursState, hand: Hand) -> Update:
    seat = whose_turn(ctx, hand)
    trick = current_trick(hand)
    leading = trick is None or not trick.plays
    number = len(hand.tricks) + (1 if trick is None else 0)
    return Update(
        UpdateKind.TURN,
        f"{seat} to {'lead' if leading else 'play'} (trick {number})",
        code=Notice.TO_LEAD if leading else Notice.TO_PLAY,
        player=seat,
        data={"seat": seat, "trick": number},
    )


def hand_finished(hand: Hand) -> bool:
    """No two seats hold a card any more (a long hand's extra card is void, 20b, 25d)."""
    return sum(1 for s in hand.cards_each if cards_left(hand, s) > 0) < 2


def stand(ctx: Ctx, state: AllFoursState, hand: Hand, how: Notice) -> list[Update]:
    hand.stand = StandKind.STAND
    hand.stander = hand.lead_seat
    hand.phase = Phase.PLAY
    out = [
        Update(
            UpdateKind.PHASE,
            f"{hand.lead_seat} stands: {SUIT_NAMES[hand.trump or 'S']} are trump"
            + (" (playing a card after the kick stands)" if how is Notice.STOOD_BY_PLAYING else ""),
            code=how,
            clause="22a",
            player=hand.lead_seat,
        )
    ]
    out += trump_in_hand_check(ctx, state, hand)
    if hand.phase is Phase.PLAY and how is Notice.STOOD:
        out.append(turn_update(ctx, state, hand))
    return out


# -- cards on the board -------------------------------------------------------------------------------


def _event_card(item: TableEvent) -> tuple[str, str]:
    card = parse_card(item.data.get("card", item.objects[0] if item.objects else None))
    seat_raw = item.data.get("seat", item.where)
    if seat_raw is None:
        raise RefereeError("a card_played event needs the seat that played it ('seat': south/east/north/west)")
    return card, parse_seat(seat_raw)


def _check_card_free(hand: Hand, card: str, seat: str) -> None:
    """A card can reach the board once: not kicked, not already played, not seen in another hand."""
    if card in hand.kicks:
        raise RefereeError(f"the {card_name(card)} is the kicked card; it is in no one's hand")
    if card in cards_on_board(hand):
        raise RefereeError(f"the {card_name(card)} is already on the board; a card cannot be played twice")
    for other, cards in list(hand.known.items()) + list(hand.shown.items()):
        if other != seat and card in cards:
            raise RefereeError(f"the {card_name(card)} was seen in {other}'s hand; {seat} cannot play it")
    known = hand.known.get(seat)
    if known is not None and len(known) >= hand.cards_each[seat] and card not in known:
        raise RefereeError(f"the {card_name(card)} is not in {seat}'s hand as shown ({', '.join(known)})")


def _check_trick_number(hand: Hand, number: object, card: str) -> None:
    """When the camera numbers the trick a card lands in, a card for a trick already turned (a fifth
    card) or for one not yet started cannot happen."""
    if not isinstance(number, int) or isinstance(number, bool):
        return
    trick = current_trick(hand)
    now = trick.number if trick is not None else len(hand.tricks) + 1
    if number < now:
        raise RefereeError(
            f"the {card_name(card)} is reported in trick {number}, which already has its cards; "
            f"trick {now} is being played"
        )
    if number > now:
        raise RefereeError(f"the {card_name(card)} is reported in trick {number}, but trick {now} is being played")


def on_card_played(ctx: Ctx, state: AllFoursState, item: TableEvent) -> list[Update]:
    hand = current_hand(state)
    card, seat = _event_card(item)
    _check_card_free(hand, card, seat)
    _check_trick_number(hand, item.data.get("trick"), card)
    order = item.data.get("order")
    if order is not None and (isinstance(order, bool) or not isinstance(order, int) or order < 0):
        raise RefereeError(f"'order' stacks cards landing together: 0 for the bottom card, 1 above it; got {order!r}")
    if order is not None and order != 0:
        return _top_card(ctx, state, hand, card, seat, bool(item.data.get("bottom_hidden", False)))
    if cards_left(hand, seat) <= 0:
        raise RefereeError(f"{seat} has no cards left to play this hand")
    if hand.phase is Phase.DEALT:
        if seat != hand.lead_seat or hand.tricks or hand.stand not in (None, StandKind.BLIND_DECLARED):
            raise RefereeError(f"the dealer has not kicked yet; only the lead player {hand.lead_seat} may play (blind, 22c)")
        hand.stand = StandKind.BLIND
        hand.stander = seat
        hand.tricks.append(Trick(number=1, leader=seat, plays=[Play(seat, card)]))
        return [
            Update(
                UpdateKind.PHASE,
                f"{seat} stands blind, leading the {card_name(card)} before the kick (22c); {hand.dealer} to kick",
                code=Notice.BLIND_STAND,
                clause="22c",
                player=seat,
                data={"card": card},
            )
        ]
    out: list[Update] = []
    if hand.phase is Phase.KICKED and seat == hand.lead_seat:
        out += stand(ctx, state, hand, Notice.STOOD_BY_PLAYING)
        if hand.phase is not Phase.PLAY:
            return out
    elif hand.phase is Phase.KICKED:
        return _lead_out_of_turn(ctx, state, hand, card, seat)
    elif hand.phase is not Phase.PLAY:
        raise RefereeError(f"no card can be played now: the hand is {hand.phase.value} (the dealer must give or run)")
    return out + _play(ctx, state, hand, card, seat)


def _new_trick(ctx: Ctx, hand: Hand) -> Trick:
    trick = Trick(number=len(hand.tricks) + 1, leader=next_leader(ctx, hand))
    hand.tricks.append(trick)
    return trick


def _lead_out_of_turn(ctx: Ctx, state: AllFoursState, hand: Hand, card: str, seat: str) -> list[Update]:
    trick = current_trick(hand) or _new_trick(ctx, hand)
    if any(p.seat == seat for p in trick.pending):
        raise RefereeError(f"{seat} already has a card led out of turn on the board; it must be taken back (23c)")
    trick.pending.append(Play(seat, card, out_of_turn=True))
    return [
        Update(
            UpdateKind.INSTRUCTION,
            f"{seat} led the {card_name(card)} out of turn: take it back; {trick.leader} leads, any card, "
            "no penalty (23c)",
            code=FoulCode.LEAD_OUT_OF_TURN,
            clause="23c",
            player=seat,
            data={"card": card, "leader": trick.leader},
        )
    ]


def _play(ctx: Ctx, state: AllFoursState, hand: Hand, card: str, seat: str) -> list[Update]:
    trick = current_trick(hand) or _new_trick(ctx, hand)
    out: list[Update] = []
    if not trick.plays:
        if seat != trick.leader:
            return _lead_out_of_turn(ctx, state, hand, card, seat)
        trick.plays.append(Play(seat, card))
        for p in trick.pending:  # not taken back before the lead: card to board (23d)
            trick.plays.append(p)
            out.append(_card_to_board(p, "was not taken back before the lead"))
        trick.pending = []
    else:
        if any(p.seat == seat for p in trick.plays):
            raise RefereeError(f"{seat} has already played to trick {trick.number}; one card each")
        due = seats_due(ctx, hand, trick)
        if seat not in due:
            raise RefereeError(f"{seat} has no card to play to trick {trick.number}")
        play = Play(seat, card, out_of_turn=seat != due[0])
        trick.plays.append(play)
        if play.out_of_turn:
            out.append(_card_to_board(play, f"played before {due[0]}"))
    if cards_played(hand) == 5:
        state.misdeal_streak = 0  # the deal survived the first round (20a, 20d)
    return out + continue_play(ctx, state, hand)


def _card_to_board(play: Play, why: str) -> Update:
    return Update(
        UpdateKind.INFO,
        f"{play.seat}'s {card_name(play.card)} {why}: card to board, it stands (23d)",
        code=Notice.CARD_TO_BOARD,
        clause="23d",
        player=play.seat,
        data={"card": play.card},
    )


def _top_card(ctx: Ctx, state: AllFoursState, hand: Hand, card: str, seat: str, hidden: bool) -> list[Update]:
    if hand.phase in (Phase.BEGGED, Phase.RUNNING):
        raise RefereeError(f"no card can be played now: the hand is {hand.phase.value}")
    if hidden:
        return apply_foul(ctx, state, FoulCode.HIDDEN_CARD, seat=seat, detail=f"the {card_name(card)} lay on top",
                          key=f"hidden_card:{seat}:{len(hand.tricks)}")
    hand.shown.setdefault(seat, [])
    if card not in hand.shown[seat]:
        hand.shown[seat].append(card)
    out = [
        Update(
            UpdateKind.INFO,
            f"Two cards landed together: the bottom card counts; {seat} takes the {card_name(card)} back (23b)",
            code=Notice.BOTTOM_CARD_COUNTS,
            clause="23b",
            player=seat,
            data={"card": card},
        )
    ]
    return out + check_breaches(ctx, state, hand, [seat])


def on_card_retrieved(ctx: Ctx, state: AllFoursState, item: TableEvent) -> list[Update]:
    hand = current_hand(state)
    card = parse_card(item.data.get("card", item.objects[0] if item.objects else None))
    for trick in hand.tricks:
        for p in trick.pending:
            if p.card == card:
                trick.pending.remove(p)
                hand.shown.setdefault(p.seat, [])
                if card not in hand.shown[p.seat]:
                    hand.shown[p.seat].append(card)
                if not trick.plays and not trick.pending:
                    hand.tricks.remove(trick)
                out = [
                    Update(
                        UpdateKind.INFO,
                        f"{p.seat} took back the {card_name(card)} led out of turn (23c)",
                        code=Notice.CARD_RETRIEVED,
                        clause="23c",
                        player=p.seat,
                        data={"card": card},
                    )
                ]
                if hand.phase is Phase.PLAY:
                    out.append(turn_update(ctx, state, hand))
                return out + check_breaches(ctx, state, hand, [p.seat])
    if card in cards_on_board(hand):
        raise RefereeError(
            f"the {card_name(card)} is a card on board: it stands and cannot be taken back (23a, 23d)"
        )
    raise RefereeError(f"the {card_name(card)} is not on the board")


# -- after a card: fouls, the trick, the hand ------------------------------------------------------------


def continue_play(ctx: Ctx, state: AllFoursState, hand: Hand) -> list[Update]:
    """Check every seat for a proven renege or under-trump, then turn the trick if it is complete."""
    out = check_breaches(ctx, state, hand, list(ctx.order))
    if hand.phase is not Phase.PLAY:
        return out
    trick = current_trick(hand)
    if trick is None:
        return out
    if trick.plays and not seats_due(ctx, hand, trick):
        return out + _turn_trick(ctx, state, hand, trick)
    if trick.plays:
        out.append(turn_update(ctx, state, hand))
    return out


def check_breaches(ctx: Ctx, state: AllFoursState, hand: Hand, seats: list[str]) -> list[Update]:
    """Call the first proven renege or under-trump (24a-24c) among ``seats``."""
    game = state.game
    for seat in seats:
        breach = find_breach(hand, seat, ctx.options["flush_exception"])
        if breach is None:
            continue
        if breach.code is FoulCode.UNDER_TRUMP and _sure_point_play(ctx, state, hand, TEAM_OF[seat]):
            hand.waived.append(breach.key)
            return [
                Update(
                    UpdateKind.INFO,
                    f"{seat} played a sure point to sing: no under-trumping penalty (27g)",
                    code=Notice.SURE_POINT,
                    clause="27g",
                    player=seat,
                )
            ]
        resume = "trick" if hand.phase is Phase.PLAY else "none"
        if game is None or game.over:
            return []
        return apply_foul(ctx, state, breach.code, seat=seat, detail=breach.detail, key=breach.key, resume=resume)
    return []


def _sure_point_play(ctx: Ctx, state: AllFoursState, hand: Hand, team: str) -> bool:
    game = state.game
    if game is None or game.unsung:
        return False
    sure = sum(a.points for a in sure_awards(hand, team, set()))
    return sure > 0 and game.points[team] + sure >= ctx.target


def _turn_trick(ctx: Ctx, state: AllFoursState, hand: Hand, trick: Trick) -> list[Update]:
    winner = trick_winner([(p.seat, p.card) for p in trick.plays], hand.trump)
    trick.winner = winner
    cards = [p.card for p in trick.plays]
    out = [
        Update(
            UpdateKind.TRICK,
            f"{winner} wins trick {trick.number} ({', '.join(cards)})",
            code=Notice.TRICK,
            player=winner,
            data={"trick": trick.number, "cards": cards, "team": TEAM_OF[winner], "game_totals": game_totals(hand)},
        )
    ]
    jack = f"J{hand.trump}" if hand.trump else None
    for p in trick.plays:
        if p.card == jack and TEAM_OF[p.seat] != TEAM_OF[winner]:
            out.append(
                Update(
                    UpdateKind.INFO,
                    f"Hang-Jack! {winner} hung {p.seat}'s {card_name(p.card)}",
                    code=Notice.JACK_HUNG,
                    clause="27a",
                    player=winner,
                )
            )
    if hand_finished(hand):
        return out + finish_hand(ctx, state, hand)
    out.append(turn_update(ctx, state, hand))
    return out


def trump_in_hand_check(ctx: Ctx, state: AllFoursState, hand: Hand) -> list[Update]:
    """22b, 22c, 22e, once the stander's or giver's whole hand is known."""
    found = trump_check(hand)
    if found is None:
        return []
    code, seat = found
    return apply_foul(
        ctx, state, code, seat=seat, detail=f"no {SUIT_NAMES.get(hand.trump or '', 'trump')} among {', '.join(_whole(hand, seat))}",
        key=f"{code.value}:{seat}", resume="finish" if hand_finished(hand) else "none",
    )


def _whole(hand: Hand, seat: str) -> list[str]:
    return sorted(seat_cards(hand, seat))


def finish_hand(ctx: Ctx, state: AllFoursState, hand: Hand) -> list[Update]:
    """The last trick is turned: check the stand or give for trump, then count the hand (27a)."""
    out = trump_in_hand_check(ctx, state, hand)
    if out:
        return out
    return score_hand(ctx, state, hand)


def score_hand(ctx: Ctx, state: AllFoursState, hand: Hand) -> list[Update]:
    """High, Low, Jack or Hang-Jack, Game, counted in that order; in a normal game the count stops
    as soon as a pair has fourteen (27a), in a played-out issue every point counts (27i)."""
    game = live_game(state)
    awards = hand_awards(hand)
    hand.high_team = high_team(awards)
    totals = game_totals(hand)
    out = [
        Update(
            UpdateKind.PHASE,
            f"Hand over: Game {totals['A']} to {totals['B']}",
            code=Notice.HAND_OVER,
            data={"game_totals": totals, "awards": [a.detail for a in awards]},
        )
    ]
    for award in awards:
        out += _count(ctx, state, hand, award)
    hand.phase = Phase.DONE
    state.next_dealer = ctx.order[(ctx.order.index(hand.dealer) + 1) % len(ctx.order)]
    state.misdeal_streak = 0
    if game.unsung:
        game.unsung = False
        a, b = game.points["A"], game.points["B"]
        higher = "A" if a > b else "B" if b > a else hand.high_team
        if higher is not None and game.points[higher] >= ctx.target:
            game.singer = higher
            out.append(sing_prompt(ctx, state, higher))
    return out


def _count(ctx: Ctx, state: AllFoursState, hand: Hand, award: Award) -> list[Update]:
    game = live_game(state)
    team = award.team
    if award.point is PointName.GAME and team in hand.concedes_game:
        team = other_team(team)
    if team in hand.forfeit:
        return [_note(Notice.FORFEITED, f"{award.detail}: forfeited by {label(state, team)} (20b)", "20b", team)]
    if game.singer is not None and not game.unsung:
        return [_note(Notice.NOT_COUNTED, f"{award.detail}: not counted, {label(state, game.singer)} already "
                      f"have {game.points[game.singer]} (27a)", "27a", team)]
    if award.point is PointName.HANG_JACK:
        state.hang_jacks[team] += 1
    return score(ctx, state, team, award.points, POINT_SCORE_CODES[award.point], award.detail)


def _note(code: Notice, text: str, clause: str, team: str) -> Update:
    return Update(UpdateKind.INFO, text, code=code, clause=clause, player=team)


def resume_after_overrule(ctx: Ctx, state: AllFoursState, resume: str) -> list[Update]:
    game = state.game
    if game is None or game.over or game.hand is None:
        return []
    hand = game.hand
    if resume == "trick" and hand.phase is Phase.PLAY:
        return continue_play(ctx, state, hand)
    if resume == "finish" and hand.phase is Phase.PLAY:
        return finish_hand(ctx, state, hand)
    return []
