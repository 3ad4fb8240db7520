"""The All-Fours rules as small named predicates over the events of one hand.

Nothing here changes state: each function reads a :class:`Hand` and says what the rule book makes of
it (a renege, an under-trump, the points of the hand, the points already sure). Keeping "what
happened" apart from "what it costs" lets the engine call the same predicate after a card is played,
when a hand is shown (``claim_renege``, ``hands``) and once more when the last trick is turned.

Evidence. The camera never sees a hand, so a renege is proven the way a referee proves it at the
table: the offender later plays, shows or is known (``hands``) to hold a card that he held when he
failed to follow. Cards only leave a hand during play (the pack is run before the first lead), so a
card seen in a hand at any moment was held at every earlier trick of that hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tableref.referee.all_fours_cards import (
    DECK,
    RANKS,
    SUIT_NAMES,
    TEAM_OF,
    card_name,
    game_value,
    is_trump,
    other_team,
    power,
    suit_of,
)
from tableref.referee.all_fours_codes import POINT_TITLES, POINT_VALUES, FoulCode, PointName, StandKind
from tableref.referee.all_fours_state import Hand, Play, Trick

# -- reading the hand ----------------------------------------------------------------------------


def counted_plays(hand: Hand) -> Iterator[tuple[int, Play]]:
    """Every card that counts, with the index of its trick, in the order they landed."""
    for k, trick in enumerate(hand.tricks):
        for play in trick.plays:
            yield k, play


def played_by(hand: Hand, seat: str) -> list[str]:
    return [p.card for _, p in counted_plays(hand) if p.seat == seat]


def cards_played(hand: Hand) -> int:
    return sum(len(t.plays) for t in hand.tricks)


def cards_on_board(hand: Hand) -> set[str]:
    """Counted cards and leads out of turn still on the table."""
    out = {p.card for _, p in counted_plays(hand)}
    for trick in hand.tricks:
        out.update(p.card for p in trick.pending)
    return out


def cards_left(hand: Hand, seat: str) -> int:
    return hand.cards_each.get(seat, 0) - len(played_by(hand, seat))


def current_trick(hand: Hand) -> Trick | None:
    """The trick being played (``None`` before the first lead or once the last trick is turned)."""
    if hand.tricks and hand.tricks[-1].winner is None:
        return hand.tricks[-1]
    return None


def led_suit(trick: Trick) -> str | None:
    return suit_of(trick.plays[0].card) if trick.plays else None


def seat_cards(hand: Hand, seat: str) -> set[str]:
    """Every card known to have been in ``seat``'s hand this issue."""
    cards = set(played_by(hand, seat)) | set(hand.known.get(seat, ())) | set(hand.shown.get(seat, ()))
    for trick in hand.tricks:
        cards.update(p.card for p in trick.pending if p.seat == seat)
    return cards


def held_when(hand: Hand, seat: str, k: int) -> set[str]:
    """Cards ``seat`` is known to have held when it played to trick ``k`` (its own card there excluded)."""
    played_so_far: set[str] = set()
    later: set[str] = set()
    for i, play in counted_plays(hand):
        if play.seat != seat:
            continue
        (played_so_far if i <= k else later).add(play.card)
    for i, trick in enumerate(hand.tricks):
        if i > k:
            later.update(p.card for p in trick.pending if p.seat == seat)
    known = set(hand.known.get(seat, ())) - played_so_far
    shown = set(hand.shown.get(seat, ())) - played_so_far  # a card taken back may be played later
    return later | known | shown


def whole_hand_known(hand: Hand, seat: str) -> bool:
    return len(seat_cards(hand, seat)) >= hand.cards_each.get(seat, 0) > 0


# -- following suit --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Breach:
    """A renege or under-trump found in the cards, with the card that proves it."""

    code: FoulCode
    seat: str
    trick: int  # 1-based
    card: str
    proof: str
    detail: str

    @property
    def key(self) -> str:
        return f"{self.code.value}:{self.seat}:{self.trick}"


def follows(card: str, led: str, trump: str | None) -> bool:
    """Trump and play anything (IC2024 2a): following suit or trumping is always allowed."""
    return suit_of(card) == led or is_trump(card, trump)


def renege_at(hand: Hand, k: int, play: Play) -> Breach | None:
    """A renege: not following the suit led (nor trumping) while holding a card of it (24a, 24c)."""
    trick = hand.tricks[k]
    led = led_suit(trick)
    if led is None or trick.plays[0] is play or follows(play.card, led, hand.trump):
        return None
    held = held_when(hand, play.seat, k)
    proof = sorted((c for c in held if suit_of(c) == led), key=power)
    if not proof:
        return None
    detail = (
        f"the {card_name(proof[0])} was in the hand when {_suit_word(led)} were led to trick {trick.number} "
        f"and the {card_name(play.card)} was played"
    )
    jack = f"J{hand.trump}" if hand.trump else None
    if led == hand.trump and jack in held:
        return Breach(FoulCode.RENEGE_TO_SAVE_JACK, play.seat, trick.number, play.card, jack, detail)
    return Breach(FoulCode.RENEGE, play.seat, trick.number, play.card, proof[0], detail)


def under_trump_at(hand: Hand, k: int, play: Play, flush_exception: str) -> Breach | None:
    """Under-trumping: a lower trump on a trick already trumped higher, holding a card that is not
    trump (24b). ``flush_exception``: ``"remaining"`` excuses a hand of nothing but trumps at that
    moment; ``"dealt"`` only a hand dealt all trumps (22g's six-trump flush)."""
    trick = hand.tricks[k]
    led = led_suit(trick)
    trump = hand.trump
    if led is None or led == trump or not is_trump(play.card, trump):
        return None
    before = trick.plays[: trick.plays.index(play)]
    over = [p for p in before if is_trump(p.card, trump) and power(p.card) > power(play.card)]
    if not over:
        return None
    pool = held_when(hand, play.seat, k) if flush_exception == "remaining" else seat_cards(hand, play.seat)
    proof = sorted(c for c in pool if not is_trump(c, trump))
    if not proof:
        return None
    held = "was in the hand" if flush_exception == "remaining" else "was dealt (no flush)"
    detail = (
        f"the {card_name(play.card)} went under the {card_name(over[0].card)} on trick {trick.number} "
        f"while the {card_name(proof[0])} {held}"
    )
    return Breach(FoulCode.UNDER_TRUMP, play.seat, trick.number, play.card, proof[0], detail)


def find_breach(hand: Hand, seat: str, flush_exception: str) -> Breach | None:
    """The first renege or under-trump by ``seat`` this hand that the referee has not waived."""
    for k, play in counted_plays(hand):
        if play.seat != seat:
            continue
        for breach in (renege_at(hand, k, play), under_trump_at(hand, k, play, flush_exception)):
            if breach is not None and breach.key not in hand.waived:
                return breach
    return None


# -- trump in hand (22b, 22c, 22e) -----------------------------------------------------------------


def trump_check(hand: Hand) -> tuple[FoulCode, str] | None:
    """Whoever stood or gave one must have held trump; blind standers only if they played after the kick.

    Decided only once the seat's whole hand is known (played out, or shown with ``hands``).
    """
    checks: list[tuple[FoulCode, str | None]] = []
    if hand.stand is StandKind.STAND:
        checks.append((FoulCode.STOOD_WITHOUT_TRUMP, hand.stander))
    elif hand.stand is StandKind.BLIND_DECLARED:
        checks.append((FoulCode.BLIND_STAND_WITHOUT_TRUMP, hand.stander))
    elif hand.stand is StandKind.GIVE:
        checks.append((FoulCode.GAVE_WITHOUT_TRUMP, hand.dealer))
    for code, seat in checks:
        if seat is None or not whole_hand_known(hand, seat):
            continue
        if not any(is_trump(c, hand.trump) for c in seat_cards(hand, seat)):
            key = f"{code.value}:{seat}"
            if key not in hand.waived:
                return code, seat
    return None


# -- the points of a hand ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Award:
    point: PointName
    team: str
    points: int
    detail: str


def _award(point: PointName, team: str, detail: str) -> Award:
    return Award(point, team, POINT_VALUES[point], f"{POINT_TITLES[point]}: {detail}")


def jack_award(hand: Hand) -> Award | None:
    """Jack (1) to the holder's pair when it is theirs at the end of its trick, else Hang-Jack (3)
    to the pair that captured it."""
    if hand.trump is None:
        return None
    jack = f"J{hand.trump}"
    for trick in hand.tricks:
        for play in trick.plays:
            if play.card == jack and trick.winner is not None:
                holder = TEAM_OF[play.seat]
                taker = TEAM_OF[trick.winner]
                if taker == holder:
                    return _award(PointName.JACK, holder, f"{play.seat} kept the {card_name(jack)}")
                return _award(PointName.HANG_JACK, taker, f"{trick.winner} hung {play.seat}'s {card_name(jack)}")
    return None


def game_totals(hand: Hand) -> dict[str, int]:
    """Card values each pair has taken in finished tricks (ten 10, ace 4, king 3, queen 2, jack 1)."""
    totals = {"A": 0, "B": 0}
    for trick in hand.tricks:
        if trick.winner is not None:
            totals[TEAM_OF[trick.winner]] += sum(game_value(p.card) for p in trick.plays)
    return totals


def hand_awards(hand: Hand) -> list[Award]:
    """The hand's points in 27a's priority order, before forfeits: High, Low, Jack or Hang-Jack, Game.

    High and Low go to the pair that held (played) the highest and lowest trump; with no trump
    played at all after a blind stand (22d) both go to the blind stander's pair. Game ties go to the
    dealer's opponents (27f).
    """
    awards: list[Award] = []
    trumps = [p for _, p in counted_plays(hand) if is_trump(p.card, hand.trump)]
    if trumps:
        high = max(trumps, key=lambda p: power(p.card))
        low = min(trumps, key=lambda p: power(p.card))
        awards.append(_award(PointName.HIGH, TEAM_OF[high.seat], f"{high.seat} played the {card_name(high.card)}"))
        awards.append(_award(PointName.LOW, TEAM_OF[low.seat], f"{low.seat} played the {card_name(low.card)}"))
    elif hand.stand is StandKind.BLIND and hand.stander is not None:
        team = TEAM_OF[hand.stander]
        awards.append(_award(PointName.HIGH, team, f"no trump played; {hand.stander} stood blind (22d)"))
        awards.append(_award(PointName.LOW, team, f"no trump played; {hand.stander} stood blind (22d)"))
    jack = jack_award(hand)
    if jack is not None:
        awards.append(jack)
    totals = game_totals(hand)
    if totals["A"] != totals["B"]:
        winner = "A" if totals["A"] > totals["B"] else "B"
        detail = f"{totals[winner]} to {totals[other_team(winner)]}"
    else:
        winner = other_team(TEAM_OF[hand.dealer])
        detail = f"tied {totals['A']} each: the dealer's opponents take it (27f)"
    awards.append(_award(PointName.GAME, winner, detail))
    return awards


def high_team(awards: list[Award]) -> str | None:
    return next((a.team for a in awards if a.point is PointName.HIGH), None)


# -- sure points (27g) -------------------------------------------------------------------------------


def sure_awards(hand: Hand, team: str, shown: set[str]) -> list[Award]:
    """Points of this hand already certain for ``team``, given the board and the cards it shows.

    High is sure when no higher trump can still appear (every higher trump was kicked); Low likewise
    below; Jack once its trick is turned (or when the shown Jack can no longer be taken); Game when
    the other pair could not catch up even taking every value card still to be played.
    """
    trump = hand.trump
    if trump is None:
        return []
    kicked = set(hand.kicks)
    on_board = {p.card: p.seat for _, p in counted_plays(hand)}
    out: list[Award] = []
    candidates = [(c, TEAM_OF[s]) for c, s in on_board.items() if is_trump(c, trump)]
    candidates += [(c, team) for c in shown if is_trump(c, trump)]
    if candidates:
        top = max(candidates, key=lambda x: power(x[0]))
        above = [r + trump for r in RANKS[power(top[0]) + 1 :]]
        if top[1] == team and all(c in kicked for c in above):
            out.append(_award(PointName.HIGH, team, f"the {card_name(top[0])} cannot be beaten"))
        bottom = min(candidates, key=lambda x: power(x[0]))
        below = [r + trump for r in RANKS[: power(bottom[0])]]
        if bottom[1] == team and all(c in kicked for c in below):
            out.append(_award(PointName.LOW, team, f"the {card_name(bottom[0])} cannot be undercut"))
    jack = f"J{trump}"
    decided = jack_award(hand)
    if decided is not None:
        if decided.team == team:
            out.append(decided)
    elif jack in shown:
        higher = [r + trump for r in ("Q", "K", "A")]
        if all(c in kicked or c in on_board for c in higher):
            out.append(_award(PointName.JACK, team, f"no trump is left to take the {card_name(jack)}"))
    game = _sure_game(hand, team)
    if game is not None:
        out.append(game)
    return out


def _sure_game(hand: Hand, team: str) -> Award | None:
    totals = game_totals(hand)
    opponents = other_team(team)
    loose: list[str] = [c for c in DECK if c not in hand.kicks and c not in _finished_cards(hand)]
    to_come = sum(max(0, cards_left(hand, s)) for s in hand.cards_each)
    trick = current_trick(hand)
    if trick is not None:
        to_come += len(trick.plays)
    best = sorted((game_value(c) for c in loose), reverse=True)[:to_come]
    their_best = totals[opponents] + sum(best)
    tie_ok = other_team(TEAM_OF[hand.dealer]) == team
    if totals[team] > their_best or (tie_ok and totals[team] == their_best):
        return _award(PointName.GAME, team, f"{totals[team]} taken; the other pair can reach {their_best} at most")
    return None


def _finished_cards(hand: Hand) -> set[str]:
    return {p.card for t in hand.tricks if t.winner is not None for p in t.plays}


def _suit_word(suit: str) -> str:
    return SUIT_NAMES[suit]
