"""Card sprites: size and alpha of a poker card, every label drawn, designs that really differ."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from tableref.simulator.card_shapes import LABELS, PIP_LAYOUTS, parse_label
from tableref.simulator.cards import (
    CARD_H_MM,
    CARD_W_MM,
    DESIGNS,
    CardDesign,
    card_sprite,
    design_for_seed,
    design_named,
)

SCALE = 1.5  # about what an overhead 1280 x 720 camera gives a 1 m card table, times two


def _ink(sprite: np.ndarray, design: CardDesign, min_distance: float = 90.0) -> np.ndarray:
    """Pixels of the card that are clearly not the face colour (printed ink)."""
    rgb = sprite[..., :3].astype(np.int32)
    dist = np.abs(rgb - np.array(design.face, np.int32)).sum(axis=2)
    return (dist > min_distance) & (sprite[..., 3] == 255)


def test_at_least_four_designs_with_distinct_names() -> None:
    assert len(DESIGNS) >= 4
    assert len({d.name for d in DESIGNS}) == len(DESIGNS)


@pytest.mark.parametrize("scale", [0.7, 1.5, 4.0, 6.3])
def test_sprite_has_poker_size_and_rounded_transparent_corners(scale: float) -> None:
    for design in DESIGNS:
        for label, face_up in (("7H", True), (None, False)):
            sprite = card_sprite(label, design, scale, face_up=face_up)
            assert sprite.dtype == np.uint8 and sprite.ndim == 3 and sprite.shape[2] == 4
            assert sprite.shape[:2] == (round(CARD_H_MM * scale), round(CARD_W_MM * scale))
            alpha = sprite[..., 3]
            h, w = alpha.shape
            corners = [alpha[0, 0], alpha[0, w - 1], alpha[h - 1, 0], alpha[h - 1, w - 1]]
            # a corner pixel is partly covered when the 3 mm radius is only two pixels wide
            assert max(corners) == 0 if scale >= 1.5 else max(corners) < 128
            assert alpha[h // 2, w // 2] == 255 and alpha[h // 2, 1] == 255 and alpha[1, w // 2] == 255
            assert (alpha == 255).mean() > 0.93  # the card is opaque apart from its corners


def test_every_label_renders_in_every_design_and_cards_differ() -> None:
    for design in DESIGNS:
        seen: set[bytes] = set()
        for label in LABELS:
            sprite = card_sprite(label, design, SCALE)
            assert _ink(sprite, design).sum() > 80, f"{label} in {design.name} shows no ink"
            seen.add(sprite.tobytes())
        assert len(seen) == 52, f"{design.name}: two labels give the same image"


def test_face_down_shows_the_back_and_needs_no_label() -> None:
    for design in DESIGNS:
        back = card_sprite(None, design, SCALE, face_up=False)
        assert np.array_equal(back, card_sprite("QS", design, SCALE, face_up=False))
        assert not np.array_equal(back, card_sprite("QS", design, SCALE))
        ground = np.array(design.back_colours[0], np.int32)
        centre = back[back.shape[0] // 3: 2 * back.shape[0] // 3, back.shape[1] // 3: 2 * back.shape[1] // 3, :3]
        near_ground = np.abs(centre.astype(np.int32) - ground).sum(axis=2) < 60
        assert near_ground.mean() > 0.2, f"{design.name}'s back does not show its ground colour"


def test_designs_differ_from_each_other() -> None:
    for a, b in itertools.combinations(DESIGNS, 2):
        for label in ("AS", "10H", "KD", "2C"):
            sa, sb = card_sprite(label, a, SCALE), card_sprite(label, b, SCALE)
            diff = np.abs(sa.astype(np.int32) - sb.astype(np.int32)).sum(axis=2)
            assert (diff > 60).mean() > 0.02, f"{a.name} and {b.name} draw {label} almost alike"
        ba, bb = card_sprite(None, a, SCALE, False), card_sprite(None, b, SCALE, False)
        assert np.abs(ba.astype(np.int32) - bb.astype(np.int32)).mean() > 10


def test_index_size_and_position_differ_between_designs() -> None:
    boxes = set()
    for d in DESIGNS:
        boxes.add((round(d.index_height, 1), round(d.index_x, 1), round(d.index_top, 1), d.font, d.four_index))
    assert len(boxes) == len(DESIGNS)
    assert len({d.font for d in DESIGNS}) >= 4
    assert any(d.four_index for d in DESIGNS) and not all(d.four_index for d in DESIGNS)


def _hue_counts(sprite: np.ndarray, design: CardDesign) -> tuple[int, int, int]:
    """Ink pixels that are red, dark (black) and other-coloured."""
    ink = _ink(sprite, design)
    b, g, r = (sprite[..., i].astype(np.int32) for i in range(3))
    red = ink & (r > g + 80) & (r > b + 80)
    dark = ink & (r < 90) & (g < 90) & (b < 90)
    return int(red.sum()), int(dark.sum()), int(ink.sum())


@pytest.mark.parametrize("rank", ["A", "5", "10"])
def test_red_suits_are_red_and_black_suits_black(rank: str) -> None:
    for design in DESIGNS:
        four_colour = design.ink_diamonds != design.ink_hearts
        for suit in "SHDC":
            red, dark, total = _hue_counts(card_sprite(rank + suit, design, 3.0), design)
            if suit == "H" or (suit == "D" and not four_colour):
                assert red > 0.5 * total and dark == 0, f"{rank}{suit} in {design.name} is not red"
            elif suit == "S" or (suit == "C" and not four_colour):
                assert dark > 0.5 * total and red == 0, f"{rank}{suit} in {design.name} is not black"
            else:  # the four-colour deck: blue diamonds, green clubs, never red
                assert red == 0 and total > 0


def test_the_suit_shapes_differ() -> None:
    """Each suit's pip is its own shape: the aces' centre pips are not the same silhouette."""
    design = DESIGNS[0]
    masks = {}
    for suit in "SHDC":
        sprite = card_sprite("A" + suit, design, 3.0)
        h, w = sprite.shape[:2]
        masks[suit] = _ink(sprite, design)[h // 4: 3 * h // 4, w // 5: 4 * w // 5]
    for a, b in itertools.combinations("SHDC", 2):
        inter = (masks[a] & masks[b]).sum()
        union = (masks[a] | masks[b]).sum()
        assert inter / union < 0.8, f"{a} and {b} pips look alike"


def test_pip_count_matches_the_rank() -> None:
    """Count the body pips of number cards as connected ink blobs between the index columns."""
    design = DESIGNS[0]
    for rank, layout in PIP_LAYOUTS.items():
        sprite = card_sprite(rank + "D", design, 4.0)
        ink = _ink(sprite, design).astype(np.uint8)
        h, w = ink.shape
        margin = int(round((design.index_x + 4.0) * 4.0))
        body = ink[:, margin: w - margin]
        n, _, stats, _ = cv2.connectedComponentsWithStats(body, connectivity=8)
        blobs = [s for s in stats[1:] if s[cv2.CC_STAT_AREA] > 60]
        assert len(blobs) == len(layout), f"{rank}D shows {len(blobs)} pips"


def test_court_cards_have_a_framed_panel() -> None:
    for design in DESIGNS:
        for label in ("JH", "QS", "KC"):
            sprite = card_sprite(label, design, 3.0)
            rank, suit = parse_label(label)
            ink = np.array(design.ink(suit), np.int32)
            is_ink = np.abs(sprite[..., :3].astype(np.int32) - ink).sum(axis=2) < 40
            h, w = is_ink.shape
            col = is_ink[h // 4: 3 * h // 4, :].mean(axis=0)
            assert (col > 0.9).sum() >= 2, f"{label} in {design.name}: no vertical frame lines"
            colourful = np.abs(sprite[..., :3].astype(np.int32) - np.array(design.face)).sum(axis=2) > 90
            assert colourful[h // 3: 2 * h // 3, w // 3: 2 * w // 3].mean() > 0.3


def test_bad_labels_and_scales_are_refused_clearly() -> None:
    design = DESIGNS[0]
    for bad in ("1S", "11H", "KX", "", "S", "10"):
        with pytest.raises(ValueError, match="ranks are|not a card"):
            card_sprite(bad, design, SCALE)
    with pytest.raises(ValueError, match="face-up card needs its label"):
        card_sprite(None, design, SCALE)
    for scale in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="px_per_mm"):
            card_sprite("AS", design, scale)
    with pytest.raises(ValueError, match="unknown card design"):
        design_named("nope")


def test_sprites_are_cached_and_read_only() -> None:
    design = DESIGNS[1]
    a = card_sprite("9C", design, 2.25)
    assert card_sprite("9c", design, 2.25) is a
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a[0, 0, 0] = 1
    # a renderer can still warp it (OpenCV reads read-only arrays)
    m = cv2.getRotationMatrix2D((a.shape[1] / 2, a.shape[0] / 2), 30.0, 1.0)
    assert cv2.warpAffine(a, m, (a.shape[1], a.shape[0])).shape == a.shape


def test_design_for_seed_is_deterministic_and_reaches_every_design() -> None:
    assert design_for_seed(7) is design_for_seed(7)
    assert {design_for_seed(s).name for s in range(len(DESIGNS))} == {d.name for d in DESIGNS}
    assert all(design_named(d.name) is d for d in DESIGNS)
