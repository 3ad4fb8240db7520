"""A corner index is read from five crops, not one (``cards_read._second_looks``).

A misreading that holds for one exact crop (an edge of the next card cutting in, a suit read
from half a glyph) rarely holds for crops a little larger, smaller or shifted; the average of the
five looks keeps a true reading and loses such a one. Only likely indices are looked at again.
"""

from __future__ import annotations

import numpy as np

from tableref.vision.cards_index import Cropper, IndexProposal
from tableref.vision.cards_read import RANKS, SECOND_LOOK_P, SECOND_LOOKS, SUITS, _second_looks


class _Reader:
    """Stands in for the CNN: every second look reads the seven of diamonds."""

    def __init__(self) -> None:
        self.crops_seen: list[int] = []

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.crops_seen.append(len(x))
        rank = np.zeros((len(x), len(RANKS) + 1), np.float32)
        rank[:, RANKS.index("7")] = 0.9
        rank[:, -1] = 0.1
        suit = np.zeros((len(x), len(SUITS)), np.float32)
        suit[:, SUITS.index("D")] = 1.0
        return rank, suit


def _first_look(rank: str, p_rank: float, suit: str) -> tuple[np.ndarray, np.ndarray]:
    r = np.zeros(len(RANKS) + 1, np.float32)
    r[RANKS.index(rank)] = p_rank
    r[-1] = 1.0 - p_rank
    s = np.zeros(len(SUITS), np.float32)
    s[SUITS.index(suit)] = 1.0
    return r, s


def test_a_reading_that_holds_for_one_crop_only_is_outvoted() -> None:
    image = np.full((200, 200, 3), 230, np.uint8)
    props = [IndexProposal(100.0, 100.0, (0.0, 1.0), 40.0, 24.0, False),
             IndexProposal(50.0, 50.0, (0.0, 1.0), 40.0, 24.0, False)]
    (r0, s0), (r1, s1) = _first_look("8", 0.95, "S"), _first_look("2", 0.1, "C")  # the second: hardly an index
    reader = _Reader()
    rank_p, suit_p = _second_looks(reader, Cropper(image), props, np.stack([r0, r1]), np.stack([s0, s1]))  # type: ignore[arg-type]
    assert reader.crops_seen == [1] * len(SECOND_LOOKS)  # only the likely index is looked at again
    assert RANKS[int(np.argmax(rank_p[0, :-1]))] == "7" and SUITS[int(np.argmax(suit_p[0]))] == "D"
    assert np.allclose(rank_p[1], r1) and np.allclose(suit_p[1], s1)  # untouched
    assert 1.0 - r1[-1] < SECOND_LOOK_P
    assert np.allclose(rank_p.sum(axis=1), 1.0) and np.allclose(suit_p.sum(axis=1), 1.0)
