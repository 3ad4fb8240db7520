"""All-Fours card play for the simulator: the seats' order, the deal, legal cards, the trick winner.

Pure Python (no numpy, no OpenCV), so the rules the simulated clips follow can be read and
tested on their own and the animation in ``card_scenarios.py`` only decides *where* and *when*.
References are to the IC2024 rule book (``shared/rules/all-fours-ic2024.txt``):

* the deal goes anticlockwise (right to left) three cards at a time, starting with the player on
  the dealer's right, who is also the lead player (rule 19b); six cards each;
* the dealer then kicks the top card of the pack, which names trumps; a kicked jack, six or ace
  scores 3, 2 or 1 for the dealer's side (rule 21a);
* play goes anticlockwise from the leader; a card of the suit led wins unless a trump is played,
  then the highest trump wins; the trick's winner leads the next.

Where the book leaves room (may a player trump while holding the suit led?), the simulator
plays the strict, uncontroversial line: it follows suit whenever it can, and only a player void
in the suit led may trump or throw off, and never under a trump already on the trick while it
holds a card of another suit (rule 24b). Every clip is therefore legal under any reading.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tableref.calibration.spec import TableSpec
from tableref.simulator.card_shapes import LABELS, parse_label

#: Card order within a suit, lowest first (the ace is high in All-Fours).
RANK_ORDER: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_VALUE = {r: i for i, r in enumerate(RANK_ORDER)}
#: Points a kicked card gives the dealer's side (rule 21a; the power-play bonus is not included).
KICK_POINTS: Mapping[str, int] = {"J": 3, "6": 2, "A": 1}
CARDS_PER_HAND = 6
DEAL_PACKET = 3


def rank_value(card: str) -> int:
    return _RANK_VALUE[parse_label(card)[0]]


def suit_of(card: str) -> str:
    return parse_label(card)[1]


def seats_anticlockwise(spec: TableSpec) -> tuple[str, ...]:
    """The seat ids in playing order (anticlockwise seen from above), from the spec's first seat.

    Computed from the seats' positions rather than trusted from the file's order, so a venue
    file that lists its seats differently still plays the right way round. The table's ``y``
    axis points towards the south seat (down the camera image), so anticlockwise on screen is
    increasing ``atan2(-(y - cy), x - cx)``.
    """
    if not spec.seats:
        raise ValueError(f"table {spec.name!r} has no seats; All-Fours needs the card table's four seats")
    cx = sum(s.position[0] for s in spec.seats) / len(spec.seats)
    cy = sum(s.position[1] for s in spec.seats) / len(spec.seats)
    angle = {s.id: math.atan2(-(s.position[1] - cy), s.position[0] - cx) for s in spec.seats}
    first = angle[spec.seats[0].id]
    return tuple(sorted(angle, key=lambda sid: (angle[sid] - first) % (2 * math.pi)))


def next_seat(order: Sequence[str], seat: str) -> str:
    """The seat on ``seat``'s right: the next to play (anticlockwise)."""
    return order[(order.index(seat) + 1) % len(order)]


def shuffled_deck(rng: random.Random) -> tuple[str, ...]:
    """A shuffled pack, top card first."""
    deck = list(LABELS)
    rng.shuffle(deck)
    return tuple(deck)


@dataclass(frozen=True)
class Deal:
    """The result of dealing: who got which packet in which order, the hands and the pack left."""

    dealer: str
    packets: tuple[tuple[str, tuple[str, ...]], ...]  # (seat, cards) in dealing order
    hands: Mapping[str, tuple[str, ...]]
    pack: tuple[str, ...]  # what is left, top card first: the kick is pack[0]

    @property
    def kick(self) -> str:
        return self.pack[0]

    @property
    def trump(self) -> str:
        return suit_of(self.kick)


def deal(deck: Sequence[str], dealer: str, order: Sequence[str]) -> Deal:
    """Deal six cards each, three at a time, anticlockwise from the dealer's right (rule 19b)."""
    if dealer not in order:
        raise ValueError(f"dealer {dealer!r} is not a seat; seats are {', '.join(order)}")
    receivers = [order[(order.index(dealer) + k) % len(order)] for k in range(1, len(order) + 1)]
    packets: list[tuple[str, tuple[str, ...]]] = []
    hands: dict[str, list[str]] = {s: [] for s in order}
    top = 0
    for _ in range(CARDS_PER_HAND // DEAL_PACKET):
        for seat in receivers:
            cards = tuple(deck[top: top + DEAL_PACKET])
            top += DEAL_PACKET
            packets.append((seat, cards))
            hands[seat].extend(cards)
    return Deal(dealer, tuple(packets), {s: tuple(h) for s, h in hands.items()}, tuple(deck[top:]))


def trick_winner(plays: Sequence[tuple[str, str]], trump: str) -> tuple[str, str]:
    """The (seat, card) that wins a trick: the highest trump, else the highest card of the suit led."""
    if not plays:
        raise ValueError("an empty trick has no winner")
    led = suit_of(plays[0][1])
    trumps = [p for p in plays if suit_of(p[1]) == trump]
    pool = trumps if trumps else [p for p in plays if suit_of(p[1]) == led]
    return max(pool, key=lambda p: rank_value(p[1]))


def legal_cards(hand: Sequence[str], led_suit: str | None) -> list[str]:
    """The cards the simulator lets a player play: any card to lead, else the suit led when held."""
    if led_suit is None:
        return list(hand)
    follow = [c for c in hand if suit_of(c) == led_suit]
    return follow if follow else list(hand)


def allowed_cards(hand: Sequence[str], plays: Sequence[tuple[str, str]], trump: str) -> list[str]:
    """:func:`legal_cards` less any under-trump: a trump lower than one already on a trick led in
    another suit, while the hand still holds a card that is not trump (rule 24b; a hand of nothing
    but trumps may, "except when flush")."""
    led = suit_of(plays[0][1]) if plays else None
    legal = legal_cards(hand, led)
    if led is None or led == trump or all(suit_of(c) == trump for c in hand):
        return legal
    top = max((rank_value(c) for _, c in plays if suit_of(c) == trump), default=None)
    if top is None:
        return legal
    return [c for c in legal if suit_of(c) != trump or rank_value(c) > top]


def choose_card(rng: random.Random, hand: Sequence[str], plays: Sequence[tuple[str, str]], trump: str,
                seat: str, partner: str) -> str:
    """A plausible card: win cheaply when it can and the partner is not already winning, else shed low.

    Realism only; legality comes from :func:`allowed_cards`, which every choice is drawn from.
    """
    legal = allowed_cards(hand, plays, trump)

    def cheapness(card: str) -> tuple[int, int]:
        return (1 if suit_of(card) == trump else 0, rank_value(card))

    if not plays:
        return rng.choice(sorted(legal, key=cheapness))
    current = trick_winner(plays, trump)
    if current[0] != partner:
        winners = [c for c in legal if trick_winner([*plays, (seat, c)], trump)[0] == seat]
        if winners and rng.random() < 0.8:
            return min(winners, key=cheapness)
    ordered = sorted(legal, key=cheapness)
    return ordered[0] if rng.random() < 0.75 else rng.choice(ordered)


@dataclass(frozen=True)
class Trick:
    leader: str
    plays: tuple[tuple[str, str], ...]  # (seat, card) in playing order
    winner: str
    winning_card: str


def partner_of(order: Sequence[str], seat: str) -> str:
    return order[(order.index(seat) + 2) % len(order)]


def play_tricks(rng: random.Random, hands: Mapping[str, Sequence[str]], leader: str, trump: str,
                order: Sequence[str], n_tricks: int) -> tuple[Trick, ...]:
    """Play ``n_tricks`` tricks from ``hands`` (not modified), each led by the previous winner."""
    held = {s: list(h) for s, h in hands.items()}
    tricks: list[Trick] = []
    for _ in range(n_tricks):
        plays: list[tuple[str, str]] = []
        seat = leader
        for _ in range(len(order)):
            card = choose_card(rng, held[seat], plays, trump, seat, partner_of(order, seat))
            held[seat].remove(card)
            plays.append((seat, card))
            seat = next_seat(order, seat)
        winner, card = trick_winner(plays, trump)
        tricks.append(Trick(leader, tuple(plays), winner, card))
        leader = winner
    return tuple(tricks)
