"""Spade or club on a black court card seen small: a second network reads it from the card's corners.

Why: at a venue camera's resolution a card is a few dozen pixels long, and on a jack, queen or king
of spades or clubs the suit is only in the corner index and the small pip beside the figure, two
or three pixels each; the figures themselves do not tell the black suits apart. The whole-card
CNN (``card_cnn.onnx``) sees the card at 40 x 56, pooled early, and read the suit of rendered
black court cards right 0.77 / 0.72 / 0.89 of the time at 720p / 1080p / 1440p; on rendered
clips every card named wrong was such a swap, and a deck has one of each card, so one wrong name
makes the real card named wrong later too. ``court_suit_cnn.onnx`` looks only at the corner that
holds the index and the figure's pip, at about one and a half pixels a millimetre (the card
rectified to :data:`CARD_SIZE`, the corner :data:`CORNER` cut from it), through convolutions that
keep the full resolution for two layers, and reads both corners (the card either way up).

It is asked only about cards the card CNN reads as a black court card; it splits the card CNN's
black-suit share between spade and club and leaves everything else (the rank, the red suits,
whether a face is seen) as the card CNN read it. Without the model file the reader goes on
without it. Trained on rendered scenes only (``scripts/train_cards_court_suit.py``), like the
card CNN.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from tableref.errors import UserError
from tableref.vision.cards_cnn import OnnxHeads, preprocess
from tableref.vision.cards_features import order_quad, rectify

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

#: The card rectified upright to this size (width, height: about 1.5 pixels a millimetre) ...
CARD_SIZE = (96, 134)
#: ... and its top-left corner cut from it (width, height): the index and the figure's pip.
CORNER = (44, 52)
#: The network's classes.
HEADS: tuple[tuple[str, ...], ...] = (("S", "C"),)
#: Ranks whose black suits the network tells apart.
COURT_RANKS = ("J", "Q", "K")
#: A card is asked about when the card CNN gives a court rank at least this share of the face's
#: rank and the black suits at least this share of its suit.
ASK_SHARE = 0.5


def corner_crop(image: U8, quad: F64, turned: bool = False) -> U8:
    """The card's index corner, uint8 BGR: of the card read upright, or turned half a turn."""
    q = order_quad(quad)
    card = rectify(image, np.roll(q, 2, axis=0) if turned else q, CARD_SIZE, ordered=True)
    return np.ascontiguousarray(card[: CORNER[1], : CORNER[0]])


def corner_crops(image: U8, quad: F64) -> list[U8]:
    """The card's two index corners (the card read upright, then turned half a turn)."""
    return [corner_crop(image, quad, turned) for turned in (False, True)]


class CourtSuitReader:
    """``court_suit_cnn.onnx`` (and its ``.json``), loaded once; see the module docstring."""

    def __init__(self, path: str | Path, *, backend: str = "auto") -> None:
        self.model = OnnxHeads(path, backend=backend)
        if self.model.heads != HEADS:
            raise UserError(f"the court-suit CNN {str(path)!r} was trained for other classes; retrain it with "
                            "scripts/train_cards_court_suit.py")

    def p_club(self, image: U8, quads: Sequence[F64]) -> F32:
        """For each quad, the chance that its black court card is a club (both corners averaged)."""
        if not quads:
            return np.zeros(0, np.float32)
        crops = [c for q in quads for c in corner_crops(image, q)]
        (p,) = self.model.predict(preprocess(np.stack(crops), CORNER))
        return np.asarray(p[:, 1].reshape(len(quads), 2).mean(axis=1), np.float32)


def asked(rank_p: F32, suit_p: F32, ranks: Sequence[str], suits: Sequence[str]) -> NDArray[np.bool_]:
    """Which readings are black court cards to ask :class:`CourtSuitReader` about (``ranks`` and
    ``suits`` name the card CNN's columns; a rank head may carry extra classes such as a back)."""
    face = rank_p[:, : len(ranks)]
    court = face[:, [ranks.index(r) for r in COURT_RANKS]].sum(axis=1)
    black = suit_p[:, suits.index("S")] + suit_p[:, suits.index("C")]
    return np.asarray((court >= ASK_SHARE * np.maximum(face.sum(axis=1), 1e-9)) & (black >= ASK_SHARE), bool)


def with_court_suits(suit_p: F32, picked: NDArray[np.intp], p_club: F32, suits: Sequence[str]) -> F32:
    """``suit_p`` with the black share of each ``picked`` row split as ``p_club`` says."""
    out = np.array(suit_p, np.float32, copy=True)
    s, c = suits.index("S"), suits.index("C")
    black = out[picked, s] + out[picked, c]
    out[picked, s] = black * (1.0 - p_club)
    out[picked, c] = black * p_club
    return out
