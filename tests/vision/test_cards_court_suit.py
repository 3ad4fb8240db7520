"""Spade or club on a black court card seen small (``vision/cards_court_suit.py``).

The corner reader is asked only about black court cards, splits only their black-suit share, and
reads both corners of the card: the index corner the right way up and the opposite one turned.
The shipped network is checked on court cards rendered by the simulator at a venue camera's
resolution, on deck designs and placements it was not trained on.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.simulator.cards import DESIGNS, card_sprite
from tableref.vision.cards_court_suit import CORNER, asked, corner_crops, with_court_suits
from tableref.vision.cards_read import CARD_HEADS, DEFAULT_MODEL_DIR, LABELS, RANKS, SUITS, CardReader

MODEL = DEFAULT_MODEL_DIR / "court_suit_cnn.onnx"


def _rank_suit(rank: str, suit: str, p: float = 0.9) -> tuple[np.ndarray, np.ndarray]:
    r = np.full(len(CARD_HEADS[0]), (1.0 - p) / (len(CARD_HEADS[0]) - 1), np.float32)
    r[CARD_HEADS[0].index(rank)] = p
    s = np.full(len(SUITS), (1.0 - p) / 3, np.float32)
    s[SUITS.index(suit)] = p
    return r, s


def test_only_black_court_cards_are_asked_about() -> None:
    cards = [("K", "S"), ("Q", "C"), ("J", "H"), ("7", "S"), ("back", "S"), ("A", "D")]
    rank_p, suit_p = (np.stack(x) for x in zip(*(_rank_suit(r, s) for r, s in cards), strict=True))
    assert asked(rank_p, suit_p, RANKS, SUITS).tolist() == [True, True, False, False, False, False]


def test_the_corner_reader_splits_only_the_black_share() -> None:
    suit_p = np.array([[0.5, 0.1, 0.1, 0.3], [0.25, 0.25, 0.25, 0.25]], np.float32)
    out = with_court_suits(suit_p, np.array([0]), np.array([0.8], np.float32), SUITS)
    assert np.allclose(out[0], [0.8 * 0.2, 0.1, 0.1, 0.8 * 0.8])
    assert np.allclose(out[1], suit_p[1])  # not asked: untouched
    assert np.allclose(out.sum(axis=1), 1.0)


def test_both_corners_are_read_each_the_right_way_up() -> None:
    # a card 96 x 134 pixels, upright, with a dark mark in its top-left corner only
    image = np.full((200, 200, 3), 60, np.uint8)
    image[30:164, 50:146] = 240
    image[36:50, 56:66] = 0
    quad = np.array([[50.0, 30.0], [146.0, 30.0], [146.0, 164.0], [50.0, 164.0]])
    upright, turned = corner_crops(image, quad)
    assert upright.shape == turned.shape == (CORNER[1], CORNER[0], 3)
    assert upright[:20, :16].mean() < 150 < turned[:20, :16].mean()  # the mark is in this corner only
    # the same card lying the other way up gives the same two corners (which comes first is not
    # known: a card is printed point-symmetric, hence both are read)
    flipped = cv2.rotate(image, cv2.ROTATE_180)
    pair = sorted(float(c.mean()) for c in corner_crops(flipped, 199.0 - quad))
    assert np.allclose(pair, sorted([float(upright.mean()), float(turned.mean())]), atol=3.0)


def _lay(label: str, design_index: int, px_per_mm: float, angle: float, rng: np.random.Generator
         ) -> tuple[np.ndarray, np.ndarray]:
    """A card rendered at ``px_per_mm`` and turned by ``angle`` degrees on green cloth, with its quad."""
    sprite = card_sprite(label, DESIGNS[design_index], px_per_mm)
    h, w = sprite.shape[:2]
    size = 3 * max(h, w)
    image = np.zeros((size, size, 3), np.float32)
    image[:] = (60, 120, 40)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += (size / 2 - w / 2, size / 2 - h / 2)
    card = cv2.warpAffine(sprite[..., :3].astype(np.float32), m, (size, size), flags=cv2.INTER_AREA)
    alpha = cv2.warpAffine(sprite[..., 3].astype(np.float32) / 255.0, m, (size, size), flags=cv2.INTER_AREA)[..., None]
    image = image * (1 - alpha) + card * alpha + rng.normal(0.0, 2.0, image.shape)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    quad = corners @ m[:, :2].T + m[:, 2]
    return np.clip(image, 0, 255).astype(np.uint8), quad


@pytest.mark.skipif(not MODEL.is_file(), reason="models/cards/court_suit_cnn.onnx is not shipped")
def test_rendered_black_court_cards_at_a_venue_cameras_size_are_told_apart() -> None:
    """Black court cards of every deck design, 44 to 60 pixels long (a venue camera over a card
    table), turned any way: the card reader with the corner reader names at least 27 of 30 right
    (28 when written; the whole-card CNN alone named 24)."""
    reader = CardReader()
    assert reader.court_suit is not None
    rng = np.random.default_rng(7)
    right = total = 0
    for label in (r + s for r in ("J", "Q", "K") for s in ("S", "C")):
        for d in range(len(DESIGNS)):
            image, quad = _lay(label, d, float(rng.uniform(0.5, 0.68)), float(rng.uniform(0, 360)), rng)
            ((logp, _, _),) = reader.read_quads(image, [quad])
            right += LABELS[int(np.argmax(logp))] == label
            total += 1
    assert total == 30
    assert right >= 27, f"{right} of {total} black court cards named right"
