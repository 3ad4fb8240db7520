"""From the cut to the first lead: games and deals, the kick, begging, and dealing faults.

IC2024 sections 15-22 and 25c. The deal passes to the right (the next seat in the direction of
play) after every hand (the standard All Fours rotation the book assumes in 20b, 20c and 21e); a
"deal over" keeps the same dealer unless the bullseye was completed (20c, 21e) or it is the dealer's
second misdeal running (20d).
"""

from __future__ import annotations

from tableref.events import HumanInput, TableEvent
from tableref.referee.all_fours_cards import (
    SUIT_NAMES,
    TEAM_OF,
    card_name,
    next_seat,
    other_team,
    parse_card,
    parse_seat,
    rank_of,
    suit_of,
)
from tableref.referee.all_fours_codes import (
    DEAL_FAULTS,
    After,
    DealFault,
    Notice,
    Payee,
    Phase,
    ScoreCode,
    StandKind,
)
from tableref.referee.all_fours_match import power_play_on
from tableref.referee.all_fours_play import stand, trump_in_hand_check, turn_update
from tableref.referee.all_fours_rules import cards_on_board, cards_played, played_by
from tableref.referee.all_fours_scoring import Ctx, current_hand, label, live_game, score
from tableref.referee.all_fours_state import AllFoursState, Game, Hand
from tableref.referee.base import RefereeError, Update, UpdateKind

DECK_SIZE = 52
FIRST_DEAL = 6
RUN_DEAL = 3


# -- games and deals ---------------------------------------------------------------------------------


def start_game(ctx: Ctx, state: AllFoursState, dealer: str | None) -> list[Update]:
    """A new game at this table: the board wiped to 0-0, power play decided (30b, 30c)."""
    if state.match_over:
        raise RefereeError("the match is over; no further games are played")
    if state.table_closed:
        raise RefereeError(
            f"this table has closed after {state.games_played} games (28: at most "
            f"{ctx.options['max_games_per_table']} games a table)"
        )
    if state.game is not None and not state.game.over:
        raise RefereeError(f"game {state.game.number} is still in progress; it ends with a bullseye")
    out: list[Update] = []
    number = state.games_played + 1
    previous = state.game
    state.game = Game(number=number, power_play=power_play_on(state, ctx.options, number))
    if previous is not None:
        # the old game's points come off the board so that the SCORE updates still add up
        for team in ("A", "B"):
            if previous.points[team]:
                state.game.points[team] = previous.points[team]
                out += score(ctx, state, team, -previous.points[team], ScoreCode.NEW_GAME, "board wiped for the next game")
    if dealer is not None:
        state.next_dealer = dealer
    out.append(
        Update(
            UpdateKind.PHASE,
            f"Game {number} at this table: all games start at zero (27i)"
            + (f"; {state.next_dealer} deals" if state.next_dealer else "; name the dealer (the toss winner, 15b)"),
            code=Notice.NEW_GAME,
            clause="27i",
            data={"game": number, "power_play": state.game.power_play, "dealer": state.next_dealer},
        )
    )
    if state.game.power_play:
        bonus = ctx.options["power_play_bonus"]
        out.append(
            Update(
                UpdateKind.INFO,
                f"Power play: every kicked card scores {bonus} more this game (30b, 30c)",
                code=Notice.POWER_PLAY,
                clause="30c",
                data={"bonus": bonus},
            )
        )
    return out


def on_new_game(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    dealer = parse_seat(item.data["dealer"]) if "dealer" in item.data else None
    return start_game(ctx, state, dealer)


def on_deal(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    """The cut is made and six each are dealt; the next thing is the kick (or a blind stand)."""
    named = item.data.get("dealer", item.by if item.by in TEAM_OF else None)
    dealer = parse_seat(named) if named is not None else None
    out: list[Update] = []
    if state.game is None or state.game.over:
        out += start_game(ctx, state, dealer if state.next_dealer is None else None)
    game = live_game(state)
    if game.hand is not None and game.hand.phase is not Phase.DONE:
        raise RefereeError(f"the hand dealt by {game.hand.dealer} is not finished ({game.hand.phase.value})")
    expected = state.next_dealer
    if expected is None:
        if dealer is None:
            raise RefereeError("name the first dealer: {'input': 'deal', 'dealer': 'south'} (the toss winner, 15b)")
        expected = dealer
    elif dealer is not None and dealer != expected:
        raise RefereeError(f"it is {expected}'s deal, not {dealer}'s (the deal passes to the right, 19b)")
    if game.singer is not None:
        # 27i: a fourteen not sung before the cut: this issue is played out, then the higher pair sings
        game.unsung = True
        out.append(
            Update(
                UpdateKind.INFO,
                f"{label(state, game.singer)} did not sing before the cut: this issue is played out, then the "
                "pair with more points sings (a tie goes to the pair that played High) (27i)",
                code=Notice.UNSUNG,
                clause="27i",
                player=game.singer,
            )
        )
        game.singer = None
    lead = next_seat(ctx.order, expected)
    game.hand = Hand(dealer=expected, lead_seat=lead, cards_each=dict.fromkeys(ctx.order, FIRST_DEAL))
    game.hands_dealt += 1
    game.last_issue = {"A": 0, "B": 0}
    state.next_dealer = expected
    out.append(
        Update(
            UpdateKind.PHASE,
            f"{expected} deals; {lead} is the lead player",
            code=Notice.NEW_HAND,
            player=expected,
            data={"dealer": expected, "lead": lead, "hand": game.hands_dealt, "game": game.number},
        )
    )
    return out


# -- the kick -----------------------------------------------------------------------------------------


def kick_value(ctx: Ctx, state: AllFoursState, card: str) -> int:
    """Jack 3, six 2, ace 1 (21a), each one more under power play (30c)."""
    points = int(ctx.options["kick_points"].get(rank_of(card), 0))
    game = state.game
    if points and game is not None and game.power_play:
        points += int(ctx.options["power_play_bonus"])
    return points


def _score_kick(ctx: Ctx, state: AllFoursState, hand: Hand, card: str) -> list[Update]:
    points = kick_value(ctx, state, card)
    if not points:
        return []
    team = TEAM_OF[hand.dealer]
    hand.kick_points[team] += points
    return score(ctx, state, team, points, ScoreCode.KICK, f"{hand.dealer} kicked the {card_name(card)} (21a)")


def on_kick(ctx: Ctx, state: AllFoursState, item: TableEvent) -> list[Update]:
    hand = current_hand(state)
    raw = item.data.get("card", item.objects[0] if item.objects else None)
    card = parse_card(raw)
    if card in hand.kicks or card in cards_on_board(hand):
        raise RefereeError(f"the {card_name(card)} is already on the table; it cannot be kicked")
    for seat, cards in hand.known.items():
        if card in cards:
            raise RefereeError(f"the {card_name(card)} is in {seat}'s hand (hands input); it cannot be kicked")
    if hand.phase is Phase.DEALT:
        return _first_kick(ctx, state, hand, card)
    if hand.phase is Phase.RUNNING:
        return _run_kick(ctx, state, hand, card)
    raise RefereeError(f"the trump is already turned ({_trump_words(hand)}); a kick is not expected now")


def _trump_words(hand: Hand) -> str:
    return SUIT_NAMES[hand.trump] if hand.trump else "none yet"


def _first_kick(ctx: Ctx, state: AllFoursState, hand: Hand, card: str) -> list[Update]:
    hand.kicks.append(card)
    hand.trump = suit_of(card)
    out = [
        Update(
            UpdateKind.PHASE,
            f"{hand.dealer} kicks the {card_name(card)}: {SUIT_NAMES[hand.trump]} are trump",
            code=Notice.KICKED,
            player=hand.dealer,
            data={"card": card, "trump": hand.trump},
        )
    ]
    out += _score_kick(ctx, state, hand, card)
    if hand.stand in (StandKind.BLIND, StandKind.BLIND_DECLARED):
        hand.phase = Phase.PLAY
        out.append(turn_update(ctx, state, hand))
        return out
    hand.phase = Phase.KICKED
    out.append(
        Update(
            UpdateKind.CHOICE,
            f"{hand.lead_seat}: stand or beg (15 seconds, 26a)",
            code=Notice.STAND_OR_BEG,
            clause="22a",
            player=hand.lead_seat,
            data={"options": ["stand", "beg"]},
        )
    )
    return out


def _run_kick(ctx: Ctx, state: AllFoursState, hand: Hand, card: str) -> list[Update]:
    original = suit_of(hand.kicks[0])
    hand.kicks.append(card)
    same = suit_of(card) == original
    out: list[Update] = []
    if not same or ctx.options["score_same_suit_kicks"]:
        out += _score_kick(ctx, state, hand, card)
    if not same:
        hand.trump = suit_of(card)
        hand.phase = Phase.PLAY
        out.append(
            Update(
                UpdateKind.PHASE,
                f"{hand.dealer} kicks the {card_name(card)}: the suit changed, {SUIT_NAMES[hand.trump]} are trump "
                f"({hand.cards_each[hand.lead_seat]} cards each)",
                code=Notice.NEW_TRUMP,
                clause="21d",
                player=hand.dealer,
                data={"card": card, "trump": hand.trump, "cards_each": hand.cards_each[hand.lead_seat]},
            )
        )
        out.append(turn_update(ctx, state, hand))
        return out
    used = FIRST_DEAL * 4 + RUN_DEAL * 4 * hand.runs + len(hand.kicks)
    if used + RUN_DEAL * 4 + 1 <= DECK_SIZE:
        hand.runs += 1
        for seat in hand.cards_each:
            hand.cards_each[seat] += RUN_DEAL
        out.append(
            Update(
                UpdateKind.INSTRUCTION,
                f"The {card_name(card)} is the same suit: put it under the pack, deal three more each and kick "
                "again (21d)",
                code=Notice.SAME_SUIT,
                clause="21d",
                player=hand.dealer,
                data={"card": card, "cards_each": hand.cards_each[hand.lead_seat]},
            )
        )
        return out
    return out + run_out(ctx, state, hand)


def run_out(ctx: Ctx, state: AllFoursState, hand: Hand) -> list[Update]:
    """21e: the pack ran out before the suit changed: the dealer keeps the deal and the kicked points,
    unless those points completed the bullseye (then the deal goes on to the next player)."""
    hand.phase = Phase.DONE
    game = live_game(state)
    completed = game.singer == TEAM_OF[hand.dealer]
    state.next_dealer = next_seat(ctx.order, hand.dealer) if completed else hand.dealer
    why = "the kicked points completed the bullseye, so the deal moves on" if completed else "he deals again"
    return [
        Update(
            UpdateKind.PHASE,
            f"{hand.dealer} ran out the pack: the kicked points stand and {why} (21e)",
            code=Notice.RUN_OUT,
            clause="21e",
            player=hand.dealer,
            data={"next_dealer": state.next_dealer},
        )
    ]


# -- begging --------------------------------------------------------------------------------------------


def _by_seat(item: HumanInput, expected: str, what: str) -> None:
    named = item.data.get("seat", item.by)
    if named is None or named == "referee":
        return
    seat = parse_seat(named)
    if seat != expected:
        raise RefereeError(f"only {expected} can {what} now, not {seat}")


def on_stand(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    hand = current_hand(state)
    if hand.phase is not Phase.KICKED:
        raise RefereeError(f"the lead player stands or begs after the kick; the hand is {hand.phase.value}")
    _by_seat(item, hand.lead_seat, "stand")
    return stand(ctx, state, hand, Notice.STOOD)


def on_beg(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    hand = current_hand(state)
    if hand.phase is not Phase.KICKED:
        raise RefereeError(f"the lead player begs after the kick; the hand is {hand.phase.value}")
    _by_seat(item, hand.lead_seat, "beg")
    if any(t.pending for t in hand.tricks):
        raise RefereeError("a card led out of turn is still on the board; it must be taken back first (23c)")
    hand.phase = Phase.BEGGED
    return [
        Update(
            UpdateKind.CHOICE,
            f"{hand.lead_seat} begs: {hand.dealer}, give one or run the pack (15 seconds, 26a)",
            code=Notice.GIVE_OR_RUN,
            clause="22a",
            player=hand.dealer,
            data={"options": ["give", "run_pack"]},
        )
    ]


def on_give(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    hand = current_hand(state)
    if hand.phase is not Phase.BEGGED:
        raise RefereeError(f"the dealer gives one only after a beg; the hand is {hand.phase.value}")
    _by_seat(item, hand.dealer, "give one")
    hand.stand = StandKind.GIVE
    hand.stander = hand.lead_seat
    hand.phase = Phase.PLAY
    team = other_team(TEAM_OF[hand.dealer])
    out = [
        Update(
            UpdateKind.PHASE,
            f"{hand.dealer} gives one: {SUIT_NAMES[hand.trump or 'S']} stay trump",
            code=Notice.GAVE_ONE,
            clause="22a",
            player=hand.dealer,
        )
    ]
    out += score(ctx, state, team, 1, ScoreCode.GIVE_ONE, f"{hand.dealer} gave one (22a)")
    out += trump_in_hand_check(ctx, state, hand)
    if hand.phase is Phase.PLAY:
        out.append(turn_update(ctx, state, hand))
    return out


def on_run_pack(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    hand = current_hand(state)
    if hand.phase is not Phase.BEGGED:
        raise RefereeError(f"the dealer runs the pack only after a beg; the hand is {hand.phase.value}")
    _by_seat(item, hand.dealer, "run the pack")
    hand.stand = StandKind.RUN
    hand.stander = hand.lead_seat
    hand.runs += 1
    for seat in hand.cards_each:
        hand.cards_each[seat] += RUN_DEAL
    hand.phase = Phase.RUNNING
    return [
        Update(
            UpdateKind.INSTRUCTION,
            f"{hand.dealer} runs the pack: the kick goes under the pack, three more each, then kick until the "
            "suit changes (21d)",
            code=Notice.RUN_PACK,
            clause="21d",
            player=hand.dealer,
            data={"cards_each": hand.cards_each[hand.lead_seat]},
        )
    ]


def on_blind_stand(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    """A stand declared before the kick without a card played: trump is then required (22c)."""
    hand = current_hand(state)
    if hand.phase is not Phase.DEALT or hand.stand is not None:
        raise RefereeError("a blind stand is made before the dealer kicks (22c)")
    _by_seat(item, hand.lead_seat, "stand blind")
    hand.stand = StandKind.BLIND_DECLARED
    hand.stander = hand.lead_seat
    return [
        Update(
            UpdateKind.INFO,
            f"{hand.lead_seat} stands blind without playing a card: if the lead comes after the kick, "
            "trump must be in the hand (22c)",
            code=Notice.BLIND_STAND,
            clause="22c",
            player=hand.lead_seat,
        )
    ]


# -- dealing and kicking faults (18-21, 25c) -------------------------------------------------------------


def on_deal_fault(ctx: Ctx, state: AllFoursState, item: HumanInput, kick: bool) -> list[Update]:
    key = "code" if kick else "cause"
    raw = item.data.get(key, item.data.get("cause" if kick else "code"))
    accepted = [f.value for f, spec in DEAL_FAULTS.items() if spec.kick == kick]
    try:
        fault = DealFault(raw)
    except ValueError:
        raise RefereeError(f"unknown {item.kind} {key} {raw!r}; accepted: {', '.join(accepted)}") from None
    if fault.value not in accepted:
        raise RefereeError(f"{fault.value} is entered as a {'misdeal' if kick else 'kick_irregularity'}, not {item.kind}")
    hand = current_hand(state)
    spec = DEAL_FAULTS[fault]
    seat = parse_seat(item.data["seat"]) if "seat" in item.data else None
    if spec.needs_seat and seat is None:
        raise RefereeError(f"{fault.value} needs the seat of the player at fault ('seat')")
    played = cards_played(hand)
    if fault is DealFault.WRONG_COUNT and played >= 5:
        return late_misdeal(ctx, state, hand, item, seat)
    _check_fault_timing(hand, fault, played)
    return deal_fault(ctx, state, hand, fault, seat)


def _check_fault_timing(hand: Hand, fault: DealFault, played: int) -> None:
    if played >= 5:
        raise RefereeError(
            f"{fault.value} must be reported in the first round of cards; five cards are already played (20a)"
        )
    kicked = bool(hand.kicks)
    if fault in (DealFault.PACK_FELL_BEFORE_KICK, DealFault.WRONG_SADDLE) and kicked:
        raise RefereeError(f"{fault.value} is before the kick; the {card_name(hand.kicks[0])} is already kicked")
    needs_kick = (DealFault.PACK_FELL_AFTER_KICK, DealFault.TWO_CARDS_KICKED, DealFault.TWO_CARDS_WRONGLY_DECLARED,
                  DealFault.TOP_CUT_CARD_KICKED, DealFault.DEALER_HANDLED_PACK)
    if fault in needs_kick and not kicked and fault is not DealFault.DEALER_HANDLED_PACK:
        raise RefereeError(f"{fault.value} happens at the kick; no card has been kicked yet")
    if fault is DealFault.PACK_FELL_AFTER_KICK and hand.phase is not Phase.KICKED:
        raise RefereeError("after the lead player begs or plays, cards found on the floor are void and the points stand (25c, 25d)")
    if fault is DealFault.RUN_VARIATION and hand.runs == 0:
        raise RefereeError("the pack has not been run this hand (21d)")


def deal_fault(ctx: Ctx, state: AllFoursState, hand: Hand, fault: DealFault, seat: str | None) -> list[Update]:
    spec = DEAL_FAULTS[fault]
    dealer_team = TEAM_OF[hand.dealer]
    payee = {
        Payee.DEALER_OPPONENTS: other_team(dealer_team),
        Payee.DEALER_TEAM: dealer_team,
        Payee.FOULER_OPPONENTS: other_team(TEAM_OF[seat]) if seat else None,
        Payee.NOBODY: None,
    }[spec.payee]
    sentence = spec.sentence.format(seat=seat or hand.dealer)
    out = [
        Update(
            UpdateKind.FOUL,
            f"{sentence[0].upper()}{sentence[1:]}"
            + (f"; {spec.points} point to {label(state, payee)}" if payee and spec.points else "")
            + f" ({spec.clause})",
            code=fault,
            clause=spec.clause,
            player=seat or hand.dealer,
            points=spec.points or None,
            data={"to": payee, "forfeit_kick": spec.forfeit_kick, "after": spec.after.value},
        )
    ]
    if spec.forfeit_kick:
        out += forfeit_kick(ctx, state, hand)
    if spec.after is After.KICK_AGAIN:
        hand.kicks = []
        hand.trump = None
        hand.phase = Phase.DEALT
    if payee is not None and spec.points:
        out += score(ctx, state, payee, spec.points, ScoreCode.MISDEAL, f"{fault.value.replace('_', ' ')} ({spec.clause})")
    if spec.after is After.KICK_AGAIN:
        out.append(
            Update(UpdateKind.INSTRUCTION, f"{hand.dealer}: kick the proper card (21f)", code=Notice.KICK_AGAIN,
                   clause="21f", player=hand.dealer)
        )
    if spec.after is After.DEAL_OVER:
        out += deal_over(ctx, state, hand, spec.misdeal)
    return out


def forfeit_kick(ctx: Ctx, state: AllFoursState, hand: Hand) -> list[Update]:
    out: list[Update] = []
    for team, points in hand.kick_points.items():
        if points:
            hand.kick_points[team] = 0
            out += score(ctx, state, team, -points, ScoreCode.FORFEIT, "kicked points forfeited")
    return out


def deal_over(ctx: Ctx, state: AllFoursState, hand: Hand, misdeal: bool) -> list[Update]:
    """The hand is void and dealt again: by the same dealer, unless the points just scored completed
    the bullseye (20c) or this is his second misdeal running (20d)."""
    hand.phase = Phase.DONE
    game = live_game(state)
    streak = state.misdeal_streak + 1 if misdeal else state.misdeal_streak
    if game.singer is not None:
        state.next_dealer = next_seat(ctx.order, hand.dealer)
        why, clause = "the bullseye is completed, so the deal goes to the next player", "20c"
        state.misdeal_streak = 0
    elif misdeal and streak >= 2:
        state.next_dealer = next_seat(ctx.order, hand.dealer)
        why, clause = "his second misdeal running loses him the deal", "20d"
        state.misdeal_streak = 0
    else:
        state.next_dealer = hand.dealer
        why, clause = "he deals over", "20a"
        state.misdeal_streak = streak
    kind = Notice.DEAL_PASSES if state.next_dealer != hand.dealer else Notice.DEAL_OVER
    return [
        Update(
            UpdateKind.PHASE,
            f"Deal void: {why}; {state.next_dealer} deals ({clause})",
            code=kind,
            clause=clause,
            data={"next_dealer": state.next_dealer},
        )
    ]


def late_misdeal(ctx: Ctx, state: AllFoursState, hand: Hand, item: HumanInput, seat: str | None) -> list[Update]:
    """20b: a wrong count found after the fifth card: the offender's pair forfeits what it makes, the
    other pair scores one for the misdeal, and the hand is played out; the deal moves on as usual."""
    if seat is None:
        raise RefereeError("after the fifth card, name the player with the wrong number of cards ('seat') (20b)")
    if hand.phase is not Phase.PLAY:
        raise RefereeError("a late misdeal is reported while the hand is played")
    team = TEAM_OF[seat]
    out = [
        Update(
            UpdateKind.FOUL,
            f"{seat} holds the wrong number of cards after the fifth card: misdeal; {label(state, team)} forfeit "
            f"the points they make this hand and {label(state, other_team(team))} score one (20b)",
            code=DealFault.WRONG_COUNT,
            clause="20b",
            player=seat,
            points=1,
            data={"to": other_team(team), "forfeit": team},
        )
    ]
    if team not in hand.forfeit:
        hand.forfeit.append(team)
    if team == TEAM_OF[hand.dealer]:
        out += forfeit_kick(ctx, state, hand)
    if "cards_held" in item.data:
        held = item.data["cards_held"]
        if not isinstance(held, int) or held < 0:
            raise RefereeError("'cards_held' is the number of cards the player holds now (0 or more)")
        hand.cards_each[seat] = len(played_by(hand, seat)) + held
    out += score(ctx, state, other_team(team), 1, ScoreCode.MISDEAL, "misdeal after the fifth card (20b)")
    return out

