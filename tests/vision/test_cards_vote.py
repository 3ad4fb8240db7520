"""One reading per corner index, without losing the next card's index in a dense fan.

``cards_read._vote`` keeps the surest of the proposals that look at one print. In a fan the
neighbouring cards' indices lie side by side, closer than half an index height; they are told
apart from proposals of the same print by lying *across* the index (beside it), not along it.
"""

from __future__ import annotations

import numpy as np

from tableref.vision.cards_index import IndexProposal
from tableref.vision.cards_read import RANKS, SUITS, _vote


def _probs(readings: list[tuple[str, float]]) -> tuple[np.ndarray, np.ndarray]:
    rank_p = np.full((len(readings), len(RANKS) + 1), 0.0, np.float32)
    suit_p = np.full((len(readings), len(SUITS)), 0.0, np.float32)
    for k, (label, p) in enumerate(readings):
        rank_p[k, RANKS.index(label[:-1])] = p
        rank_p[k, -1] = 1.0 - p
        suit_p[k, SUITS.index(label[-1])] = 1.0
    return rank_p, suit_p


def _prop(x: float, y: float) -> IndexProposal:
    return IndexProposal(x, y, (0.0, 1.0), 50.0, 30.0, False)


def test_the_next_index_of_a_fan_is_kept() -> None:
    # 3C, and JC 20 px to its side (two thirds of an index's width): two cards
    rank_p, suit_p = _probs([("3C", 0.95), ("JC", 0.85)])
    hits = _vote([_prop(100.0, 100.0), _prop(120.0, 100.0)], rank_p, suit_p, 0.5)
    assert sorted(h.best[0] for h in hits) == ["3C", "JC"]


def test_a_worse_reading_of_the_same_print_is_dropped() -> None:
    # a crop of the same index shifted along it (the rank alone, say) read as another card
    rank_p, suit_p = _probs([("3C", 0.95), ("8C", 0.85), ("3C", 0.9)])
    hits = _vote([_prop(100.0, 100.0), _prop(100.0, 115.0), _prop(118.0, 100.0)], rank_p, suit_p, 0.5)
    assert [h.best[0] for h in hits] == ["3C"]
