"""The All-Fours play the card scenarios follow: seat order, the deal, legal cards, trick winners."""

from __future__ import annotations

import random

import pytest

from tableref.calibration.spec import load_table
from tableref.simulator.card_game import (
    deal,
    legal_cards,
    next_seat,
    play_tricks,
    seats_anticlockwise,
    shuffled_deck,
    trick_winner,
)
from tableref.simulator.card_scenarios import seat_geometry
from tableref.simulator.cards import LABELS


def test_play_goes_south_east_north_west_whatever_order_the_file_lists() -> None:
    spec = load_table("cards")
    assert seats_anticlockwise(spec) == ("south", "east", "north", "west")
    seats = [{"id": s.id, "team": s.team, "position": list(s.position), "play_spot": list(s.play_spot)}
             for s in spec.seats]
    shuffled = load_table("cards", venue={"seats": [seats[2], seats[0], seats[3], seats[1]]})
    assert seats_anticlockwise(shuffled) == ("north", "west", "south", "east")
    assert next_seat(("south", "east", "north", "west"), "west") == "south"


def test_seat_geometry_faces_the_centre_with_the_next_player_on_the_right() -> None:
    geo = seat_geometry(load_table("cards"))
    assert geo["south"].forward == pytest.approx((0.0, -1.0)) and geo["south"].right == pytest.approx((1.0, 0.0))
    assert [round(geo[s].angle) for s in ("south", "east", "north", "west")] == [0, 90, 180, 270]
    for seat, nxt in (("south", "east"), ("east", "north"), ("north", "west"), ("west", "south")):
        g, n = geo[seat], geo[nxt]
        to_next = (n.position[0] - g.position[0], n.position[1] - g.position[1])
        assert to_next[0] * g.right[0] + to_next[1] * g.right[1] > 0


def test_deal_three_at_a_time_from_the_dealers_right() -> None:
    order = ("south", "east", "north", "west")
    d = deal(LABELS, "north", order)
    assert [s for s, _ in d.packets] == ["west", "south", "east", "north"] * 2
    assert d.hands["west"] == (*LABELS[0:3], *LABELS[12:15])
    assert d.hands["north"] == (*LABELS[9:12], *LABELS[21:24])
    assert d.pack == tuple(LABELS[24:]) and d.kick == LABELS[24] and d.trump == LABELS[24][-1]
    with pytest.raises(ValueError, match="not a seat"):
        deal(LABELS, "centre", order)


@pytest.mark.parametrize(
    ("plays", "trump", "winner"),
    [
        ([("south", "KS"), ("east", "AS"), ("north", "2H"), ("west", "10S")], "H", "north"),  # a trump wins
        ([("south", "5D"), ("east", "KD"), ("north", "AC"), ("west", "10D")], "H", "east"),  # off-suit ace loses
        ([("south", "3H"), ("east", "JH"), ("north", "AH"), ("west", "QH")], "H", "north"),
        ([("south", "9D"), ("east", "10D"), ("north", "2S"), ("west", "4S")], "C", "east"),  # 10 beats 9
        ([("south", "4C"), ("east", "2S"), ("north", "3S"), ("west", "KC")], "S", "north"),  # higher trump
    ],
)
def test_trick_winner(plays: list[tuple[str, str]], trump: str, winner: str) -> None:
    assert trick_winner(plays, trump)[0] == winner


def test_legal_cards_follow_suit_when_able() -> None:
    hand = ["2H", "KS", "9S", "AD"]
    assert legal_cards(hand, None) == hand
    assert legal_cards(hand, "S") == ["KS", "9S"]
    assert legal_cards(hand, "C") == hand  # void: anything, trump included


def test_play_tricks_is_legal_and_leaves_the_hands_alone() -> None:
    order = ("south", "east", "north", "west")
    for seed in range(30):
        rng = random.Random(seed)
        d = deal(shuffled_deck(rng), "east", order)
        hands = {s: tuple(h) for s, h in d.hands.items()}
        tricks = play_tricks(rng, hands, "north", d.trump, order, 6)
        assert hands == d.hands
        assert sorted(c for t in tricks for _, c in t.plays) == sorted(c for h in hands.values() for c in h)
        leader = "north"
        for t in tricks:
            assert t.leader == leader and [s for s, _ in t.plays][0] == leader
            leader = t.winner
