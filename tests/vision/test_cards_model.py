"""The numpy perceptron the card readers use, and the features it is fed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tableref.errors import UserError
from tableref.vision.cards_features import (
    CARD_CROP,
    CARD_FINE,
    INDEX_CROP,
    card_descriptor,
    hog,
    index_features,
    index_features_many,
    rectify,
    white_normalise,
)
from tableref.vision.cards_model import MLP, TrainConfig, train_mlp


def blobs(n: int, rng: np.random.Generator) -> tuple[np.ndarray, list[str], list[str | None]]:
    """Two heads' worth of labels on separable Gaussian blobs; the second head is sometimes unknown."""
    centres = {"a": (0.0, 0.0), "b": (4.0, 0.0), "c": (0.0, 4.0)}
    x, first, second = [], [], []
    for k in range(n):
        lab = "abc"[k % 3]
        x.append(np.array(centres[lab]) + rng.normal(0.0, 0.5, 2))
        first.append(lab)
        second.append(None if lab == "c" else ("left" if lab == "a" else "right"))
    return np.asarray(x, np.float32), first, second


def test_a_two_headed_perceptron_learns_and_skips_missing_labels(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    x, first, second = blobs(300, rng)
    model = train_mlp(x, [first, second], [("a", "b", "c"), ("left", "right")], TrainConfig(hidden=(16,), epochs=30, batch=32))
    xt, ft, st = blobs(90, rng)
    p1, p2 = model.predict(xt)
    assert np.mean([model.heads[0][i] == f for i, f in zip(p1.argmax(1), ft, strict=True)]) > 0.95
    known = [k for k, s in enumerate(st) if s is not None]
    assert np.mean([model.heads[1][int(p2[k].argmax())] == st[k] for k in known]) > 0.95
    assert np.allclose(p1.sum(axis=1), 1.0, atol=1e-4)
    model.save(tmp_path / "m.npz")
    again = MLP.load(tmp_path / "m.npz")
    assert again.heads == model.heads
    assert np.allclose(again.predict(xt)[0], p1, atol=2e-3)  # weights are stored as float16


def test_a_model_refuses_features_of_the_wrong_length_and_a_missing_file_says_how_to_make_it(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    x, first, second = blobs(30, rng)
    model = train_mlp(x, [first, second], [("a", "b", "c"), ("left", "right")], TrainConfig(hidden=(4,), epochs=1))
    with pytest.raises(ValueError, match="takes 2 features"):
        model.predict(np.zeros((1, 3), np.float32))
    with pytest.raises(UserError, match="train_cards.py"):
        MLP.load(tmp_path / "nothing.npz")
    with pytest.raises(ValueError, match="not among the classes"):
        train_mlp(x, [["z"] * len(x), second], [("a", "b", "c"), ("left", "right")])


def test_hog_ignores_brightness_and_contrast() -> None:
    rng = np.random.default_rng(3)
    g = rng.random((40, 24)).astype(np.float32)
    a, b = hog(g), hog(0.5 * g + 0.2)
    assert a.shape == (1, 5 * 9 * 36)
    assert np.allclose(a, b, atol=1e-3)


def test_white_normalisation_makes_a_warm_dim_card_look_like_a_white_one() -> None:
    card = np.full((44, 32, 3), 240, np.uint8)
    card[10:20, 10:20] = 30
    warm = (card.astype(np.float32) * np.array([0.6, 0.8, 0.95])).astype(np.uint8)
    assert np.allclose(white_normalise(card), white_normalise(warm), atol=0.04)


def test_rectify_turns_a_card_upright_whatever_corner_comes_first() -> None:
    img = np.zeros((200, 200, 3), np.uint8)
    quad = np.array([[60.0, 40.0], [123.0, 40.0], [123.0, 128.0], [60.0, 128.0]])
    img[40:128, 60:123] = 255
    img[40:60, 60:80] = (0, 0, 255)  # a red top-left corner
    up = rectify(img, quad)
    turned = rectify(img, np.roll(quad, 2, axis=0))  # the same card named from the other end
    assert up.shape == (CARD_CROP[1], CARD_CROP[0], 3)
    assert up[2, 2, 2] > 200 and up[2, 2, 0] < 60
    assert np.array_equal(turned[::-1, ::-1], up)
    assert card_descriptor(img, quad).shape == card_descriptor(img, np.roll(quad, 1, axis=0)).shape
    assert rectify(img, quad, CARD_FINE).shape == (CARD_FINE[1], CARD_FINE[0], 3)


def test_index_features_have_a_fixed_length_with_or_without_glyph_crops() -> None:
    crop = np.full((INDEX_CROP[1], INDEX_CROP[0], 3), 230, np.uint8)
    glyph = np.full((20, 20, 3), 230, np.uint8)
    assert index_features(crop).shape == index_features(crop, glyph, glyph).shape
    with pytest.raises(ValueError, match="index crop"):
        index_features(np.zeros((10, 10, 3), np.uint8))


def test_index_features_of_many_proposals_at_once_are_those_of_one_at_a_time() -> None:
    rng = np.random.default_rng(4)
    crops = [rng.integers(0, 256, (INDEX_CROP[1], INDEX_CROP[0], 3), dtype=np.uint8) for _ in range(5)]
    tops = [rng.integers(0, 256, (20, 20, 3), dtype=np.uint8) for _ in range(5)]
    bottoms = [rng.integers(0, 256, (20, 20, 3), dtype=np.uint8) for _ in range(5)]
    many = index_features_many(crops, tops, bottoms)
    one = np.stack([index_features(c, t, b) for c, t, b in zip(crops, tops, bottoms, strict=True)])
    assert many.shape == one.shape
    assert np.allclose(many, one, atol=1e-4)
    with pytest.raises(ValueError, match="index crops"):
        index_features_many([np.zeros((10, 10, 3), np.uint8)], tops[:1], bottoms[:1])
