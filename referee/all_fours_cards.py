"""Cards, seats and tricks for All-Fours: the parts of the game that no rule book argues about.

Cards travel through the engine as their camera labels (``10S``, ``KD``, ``AH``, ``JC``): plain
strings keep the state JSON-serialisable and the log readable, and :func:`parse_card` is the one
gate that turns whatever the camera or the tablet sends into that canonical form.

The ranks and card values here are the standard All Fours ones that the IC2024 book assumes
without stating: ace high down to two; for Game (the IC2024 "gamble") ten counts 10, ace 4,
king 3, queen 2, jack 1 and the rest nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tableref.referee.base import RefereeError

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_NAMES: dict[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES: dict[str, str] = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}

#: Standard All Fours card values toward Game (IC2024 27a calls the point "gamble").
GAME_VALUES: dict[str, int] = {"10": 10, "A": 4, "K": 3, "Q": 2, "J": 1}

DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

SEATS: tuple[str, ...] = ("south", "east", "north", "west")
TEAMS: tuple[str, ...] = ("A", "B")
TEAM_OF: dict[str, str] = {"south": "A", "north": "A", "east": "B", "west": "B"}
SEAT_ALIASES: dict[str, str] = {"s": "south", "e": "east", "n": "north", "w": "west"}
TEAM_SEATS: dict[str, tuple[str, str]] = {"A": ("south", "north"), "B": ("east", "west")}


def parse_card(label: object) -> str:
    """The canonical label of a card (``"10h"`` -> ``"10H"``, ``"TH"`` -> ``"10H"``).

    Raises :class:`RefereeError` saying what a card label looks like, so a misread label from the
    camera becomes a question for the referee rather than a crash.
    """
    if not isinstance(label, str) or len(label.strip()) < 2 or len(label.strip()) > 8:
        raise RefereeError(f"{label!r} is not a card; cards are rank+suit such as 10S, KD, AH, JC")
    text = label.strip().upper()
    if text.startswith("CARD-"):  # the camera's object id (card-AH)
        text = text[5:]
    rank, suit = text[:-1], text[-1]
    if rank in ("T", "1"):
        rank = "10"
    if rank not in RANKS or suit not in SUITS:
        raise RefereeError(
            f"{label!r} is not a card; ranks are {', '.join(RANKS)} and suits S, H, D, C (e.g. 10S, KD, AH, JC)"
        )
    return rank + suit


def suit_of(card: str) -> str:
    return card[-1]


def rank_of(card: str) -> str:
    return card[:-1]


def power(card: str) -> int:
    """The card's place in its suit: 0 for the two up to 12 for the ace."""
    return RANKS.index(rank_of(card))


def game_value(card: str) -> int:
    return GAME_VALUES.get(rank_of(card), 0)


def card_name(card: str) -> str:
    """``"JH"`` -> ``"jack of hearts"``, for the sentences on the tablet."""
    rank = rank_of(card)
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit_of(card)]}"


def is_trump(card: str, trump: str | None) -> bool:
    return trump is not None and suit_of(card) == trump


def trumps_in(cards: Iterable[str], trump: str | None) -> list[str]:
    return [c for c in cards if is_trump(c, trump)]


def parse_seat(value: object) -> str:
    """A seat name (``south``/``east``/``north``/``west``, or ``S``/``E``/``N``/``W``)."""
    if isinstance(value, str):
        text = value.strip().lower()
        text = SEAT_ALIASES.get(text, text)
        if text in SEATS:
            return text
    raise RefereeError(f"{value!r} is not a seat; seats are south, east, north, west (or S, E, N, W)")


def parse_team(value: object) -> str:
    """A team (``A`` = south+north, ``B`` = east+west); a seat names its team too."""
    if isinstance(value, str):
        text = value.strip()
        if text.upper() in TEAMS:
            return text.upper()
        low = SEAT_ALIASES.get(text.lower(), text.lower())
        if low in TEAM_OF:
            return TEAM_OF[low]
    raise RefereeError(f"{value!r} is not a team; teams are A (south+north) and B (east+west), or name a seat")


def other_team(team: str) -> str:
    return "B" if team == "A" else "A"


def check_seat_order(order: Sequence[str]) -> tuple[str, ...]:
    """Validate a venue's seat order: all four seats once, partners never adjacent."""
    seats = tuple(parse_seat(s) for s in order)
    if sorted(seats) != sorted(SEATS):
        raise ValueError(f"seat_order must name each of {', '.join(SEATS)} once, got {list(order)}")
    for a, b in zip(seats, seats[1:] + seats[:1], strict=True):
        if TEAM_OF[a] == TEAM_OF[b]:
            raise ValueError(f"seat_order must alternate the partnerships; {a} and {b} are partners")
    return seats


def next_seat(order: Sequence[str], seat: str) -> str:
    """The seat after ``seat`` in the direction of play (IC2024 19b: anticlockwise, to the right)."""
    return order[(order.index(seat) + 1) % len(order)]


def trick_winner(plays: Sequence[tuple[str, str]], trump: str | None) -> str:
    """The seat whose card takes the trick: the highest trump, else the highest of the suit led.

    ``plays`` is ``(seat, card)`` with the lead first.
    """
    if not plays:
        raise RefereeError("an empty trick has no winner")
    led = suit_of(plays[0][1])
    best_seat, best_card = plays[0]
    for seat, card in plays[1:]:
        if _beats(card, best_card, led, trump):
            best_seat, best_card = seat, card
    return best_seat


def _beats(card: str, best: str, led: str, trump: str | None) -> bool:
    if is_trump(card, trump):
        return not is_trump(best, trump) or power(card) > power(best)
    if is_trump(best, trump):
        return False
    return suit_of(card) == led and (suit_of(best) != led or power(card) > power(best))
