"""Pool numbers from colour: the cue ball against a stripe showing its cap, the red against the maroon."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tableref.vision.video_identity import (
    BallColour,
    assign_unique,
    ball_colours,
    carrom_scores,
    maroon_fit,
    pool_scores,
    white_reference,
)

CLOTH_BGR = (150, 60, 70)  # a blue-violet cloth
MAROON_BGR = (30, 35, 125)


def _cloth_hue() -> float:
    return float(cv2.cvtColor(np.uint8([[CLOTH_BGR]]), cv2.COLOR_BGR2HSV)[0, 0, 0])


def _scene(ring_from: float | None, neighbour: bool = False, band: tuple[int, int, int] = MAROON_BGR) -> np.ndarray:
    """A white ball of radius 10 px at (30, 30) on the cloth; with ``ring_from`` its band shows as a
    ring of ``band`` (maroon) from that fraction of the radius to the limb; ``neighbour``: a maroon
    ball touching it on the right."""
    img = np.zeros((60, 60, 3), np.uint8)
    img[:] = CLOTH_BGR
    yy, xx = np.mgrid[0:60, 0:60]
    if neighbour:
        img[(xx - 50) ** 2 + (yy - 30) ** 2 <= 100] = MAROON_BGR
    d2 = (xx - 30) ** 2 + (yy - 30) ** 2
    img[d2 <= 100] = (225, 228, 230)
    if ring_from is not None:
        img[(d2 <= 100) & (d2 > (10 * ring_from) ** 2)] = band
    return cv2.GaussianBlur(img, (3, 3), 0.8)


def _read(img: np.ndarray) -> BallColour:
    v = float(max(CLOTH_BGR))
    luma = 0.114 * CLOTH_BGR[0] + 0.587 * CLOTH_BGR[1] + 0.299 * CLOTH_BGR[2]
    return ball_colours(img, [(30.0, 30.0, 10.0)], [v], cloth_luma=[luma], cloth_hue=[_cloth_hue()])[0]


def test_a_stripe_lying_cap_up_is_not_the_cue_ball() -> None:
    """A stripe whose pole faces the camera shows a white disc with its band as a ring at the
    limb; the reading inside 0.9 of the radius sees mostly white. The ring, all round, names it."""
    cap = _read(_scene(ring_from=0.8))
    assert cap.white > 0.6 and cap.rim_cover >= 0.75
    scores = pool_scores(cap, white_ref=cap.white_value)
    assert scores[0] < 0.1
    assert int(np.argmax(scores)) in (11, 15)


def test_the_cue_ball_touching_a_coloured_ball_stays_the_cue_ball() -> None:
    """A neighbour's colour on one side of the rim is not a band all round."""
    cue = _read(_scene(ring_from=None, neighbour=True))
    assert cue.rim_cover <= 0.25
    scores = pool_scores(cue, white_ref=cue.white_value)
    assert int(np.argmax(scores)) == 0 and scores[0] > 0.8


def test_bare_cue_ball_rim_shows_no_colour() -> None:
    cue = _read(_scene(ring_from=None))
    assert cue.rim_cover == 0.0 and int(np.argmax(pool_scores(cue, white_ref=cue.white_value))) == 0


def _stripe(sat_value: float, hue: float = 177.0) -> BallColour:
    return BallColour(white=0.5, dark=0.0, sat=0.4, hue=hue, hue_spread=0.05, sat_value=sat_value,
                      brightness=1.5, white_value=2.4, white_spread=0.3)


def test_of_two_red_stripes_the_darker_is_the_15() -> None:
    """Both read darker than a red usually does (their bands lie on shaded sides), yet one set has
    one 11 and one 15: the darker takes the 15 whatever the absolute brightness."""
    white_ref = 2.4
    brighter, darker = _stripe(0.50 * white_ref), _stripe(0.33 * white_ref)
    assert maroon_fit(darker, white_ref) > maroon_fit(brighter, white_ref)
    for pair, expected in (((brighter, darker), [11, 15]), ((darker, brighter), [15, 11])):
        labels = assign_unique([pool_scores(c, white_ref) for c in pair])
        assert [n for n, _ in labels] == expected


def test_red_and_maroon_are_told_by_brightness_not_by_a_few_degrees_of_hue() -> None:
    """A maroon solid whose hue reads as red's (a lamp, another maker's dye) is still the 7."""
    white_ref = 2.4
    maroon = BallColour(white=0.05, dark=0.05, sat=0.85, hue=177.5, hue_spread=0.02, sat_value=0.42 * white_ref,
                        brightness=0.8, white_value=2.2, white_spread=0.05)
    red = BallColour(white=0.05, dark=0.01, sat=0.9, hue=3.0, hue_spread=0.02, sat_value=0.82 * white_ref,
                     brightness=1.4, white_value=1.4, white_spread=0.05)
    assert int(np.argmax(pool_scores(maroon, white_ref))) == 7
    assert int(np.argmax(pool_scores(red, white_ref))) == 3


def test_a_stripe_cap_up_with_a_band_of_the_cloth_s_colour_is_not_a_second_cue_ball() -> None:
    """Traced on a rendered clip: a 12 (violet stripe) lying cap-up on a violet cloth shows its
    band as a thin ring the colour of the cloth, which the rim reading must ignore (it cannot tell
    it from the cloth). It read as the cue ball, its track became "ball-0-dup", and its pot was
    called a pot of the cue ball. There is one cue ball in a set: the disc white to its limb keeps
    it, and the other takes a stripe whose band this cloth hides, the number no other ball holds."""
    band = (140, 40, 80)  # a violet within RIM_CLOTH_GAP of the cloth's hue
    cue = _read(_scene(ring_from=None))
    cap = _read(_scene(ring_from=0.85, band=band))
    assert cap.rim_cover == 0.0, "the band is not told from the cloth"
    assert cap.rim_white < cue.rim_white
    white_ref = cue.white_value
    cue_s, cap_s = pool_scores(cue, white_ref), pool_scores(cap, white_ref)
    for rows, (i_cue, i_cap) in (([cue_s, cap_s], (0, 1)), ([cap_s, cue_s], (1, 0))):
        got = assign_unique(rows)
        assert got[i_cue][0] == 0
        assert got[i_cap][0] in (10, 12)


def test_a_lone_white_disc_on_a_violet_cloth_is_still_the_cue_ball() -> None:
    """The hidden-band reading is a fallback: alone, the white disc is the cue ball."""
    cue = _read(_scene(ring_from=None))
    (got,) = assign_unique([pool_scores(cue, cue.white_value)])
    assert got[0] == 0 and got[1] > 0.8


def _orange(white: float, spread: float) -> BallColour:
    return BallColour(white=white, dark=0.0, sat=0.74, hue=13.0, hue_spread=0.05, sat_value=1.5,
                      brightness=1.9, white_value=1.8, white_spread=spread)


def test_a_stripe_showing_its_caps_only_at_the_limbs_is_a_stripe() -> None:
    """Traced on a rendered clip: a 13 (orange stripe) at rest with its axis across the view showed
    its white caps as two thin crescents at opposite limbs, 22 % of the disc, and was read as the
    5 (orange solid) for the whole clip. White spread as widely as the disc itself is two caps;
    a solid's white (its number disc and highlight) is a compact patch."""
    stripe_view = pool_scores(_orange(white=0.22, spread=0.62))
    assert int(np.argmax(stripe_view)) == 13
    solid_view = pool_scores(_orange(white=0.22, spread=0.11))
    assert int(np.argmax(solid_view)) == 5


def test_a_cap_up_stripe_too_small_to_show_its_band_is_not_a_second_cue_ball() -> None:
    """Traced on a rendered clip: a camera far from the table imaged the balls 7 px across, and a
    14 lying cap-up on a grey cloth read all white, its band under a pixel wide. It became a
    second "ball-0", and its pot was called a scratch. The disc less white to its limb takes a
    stripe no other ball holds; it is never a second cue ball."""
    cue = BallColour(white=1.0, dark=0.0, sat=0.0, hue=-1.0, hue_spread=1.0, sat_value=0.0, brightness=2.45,
                     white_value=2.45, white_spread=0.39, rim_white=0.93)
    cap = BallColour(white=0.99, dark=0.0, sat=0.0, hue=-1.0, hue_spread=1.0, sat_value=0.0, brightness=2.42,
                     white_value=2.44, white_spread=0.41, rim_white=0.74)
    got = assign_unique([pool_scores(cap, 2.45), pool_scores(cue, 2.45)])
    assert got[1][0] == 0
    assert 9 <= got[0][0] <= 15


def test_a_grey_patch_as_white_as_the_cue_ball_does_not_take_its_number() -> None:
    """Traced on a rendered clip: a dim white patch beside the table (white all over, half as
    bright as the cue ball) tied with the rolling cue ball for number 0; when it won, the cue ball
    took a stripe's number for twenty frames and its scratch was called a pot of the 10. The disc
    lit like the frame's white balls is the cue ball."""
    cue = BallColour(white=1.0, dark=0.0, sat=0.0, hue=-1.0, hue_spread=1.0, sat_value=0.0, brightness=1.66,
                     white_value=1.68, white_spread=0.41, rim_white=0.9)
    grey = BallColour(white=1.0, dark=0.0, sat=0.0, hue=-1.0, hue_spread=1.0, sat_value=0.0, brightness=0.76,
                      white_value=0.76, white_spread=0.40, rim_white=0.9)
    ref = white_reference([cue, grey])
    for rows, i_cue in (([pool_scores(cue, ref), pool_scores(grey, ref)], 0), ([pool_scores(grey, ref), pool_scores(cue, ref)], 1)):
        assert assign_unique(rows)[i_cue][0] == 0


def test_a_cap_up_stripe_s_few_band_pixels_name_its_colour() -> None:
    """Up and Down seed 1802 (two-ball pot): the 12 lay cap-up on a grey cloth, its violet band a
    pixel wide. Too few band pixels to colour the rim's sectors (``rim_cover`` 0), so every stripe
    scored alike as a hidden band and the ball was named the 15 for the whole clip; its pot was
    called a pot of the 15. The few coloured pixels on its rim (hue 137) name the violet: the 12
    leads the stripes, and the cue ball is still the whiter disc."""
    cue = BallColour(white=1.0, dark=0.0, sat=0.0, hue=-1.0, hue_spread=1.0, sat_value=0.0, brightness=2.23,
                     white_value=2.23, white_spread=0.40, rim_white=0.93)
    cap = BallColour(white=0.9, dark=0.03, sat=0.006, hue=-1.0, hue_spread=1.0, sat_value=0.0, brightness=2.32,
                     white_value=2.5, white_spread=0.385, rim_cover=0.0, rim_hue=137.0, rim_white=0.625)
    got = assign_unique([pool_scores(cap, 2.51), pool_scores(cue, 2.51)])
    assert got[1][0] == 0
    assert got[0][0] == 12
    no_hint = pool_scores(replace(cap, rim_hue=-1.0), 2.51)
    assert len({round(float(v), 6) for v in no_hint[9:16]}) == 1  # without it, every stripe alike


def test_a_black_carrom_man_measured_large_is_still_a_black_man() -> None:
    """Carroms seed 1802 (striker pocketed): a black man in the centre circle, its shadow as dark
    as it joined to its outline, measured 1.22-1.27 men across, and a piece that size scored the
    striker (0.2) over a black man (0.0). It was named the striker for the whole clip, and the
    real striker's pot was called a pot of a white man. Dark all over is a black man; a striker
    under a player's shadow, dark over less of its disc, is still the striker."""
    def piece(dark: float) -> BallColour:
        return BallColour(white=0.0, dark=dark, sat=0.04, hue=13.0, hue_spread=0.5, sat_value=0.2,
                          brightness=0.23, white_value=0.0, white_spread=0.0)

    names = ("white", "black", "queen", "striker")
    assert names[int(np.argmax(carrom_scores(piece(0.95), 1.27)))] == "black"
    assert names[int(np.argmax(carrom_scores(piece(0.95), 1.0)))] == "black"
    assert names[int(np.argmax(carrom_scores(piece(0.75), 1.38)))] == "striker"  # shadowed striker


def test_the_queen_measured_large_is_still_the_queen() -> None:
    """Carroms seed 2902 (queen covered, queen returned): the still queen, red all over (hue 176,
    every pixel saturated), measured 1.20-1.25 men across while the striker was in the player's
    hand, and scored the striker (0.58-0.93) over the queen (0.06-0.36). The striker's track sat on
    it, and the queen's pot was called a pot of the striker. Red all over is the queen whatever its
    size; a striker with a red ring printed on it, saturated over part of its disc, is still the
    striker."""
    def piece(sat: float, hue: float = 176.0) -> BallColour:
        return BallColour(white=0.0, dark=0.0, sat=sat, hue=hue, hue_spread=0.05, sat_value=0.8,
                          brightness=0.8, white_value=0.0, white_spread=0.0)

    names = ("white", "black", "queen", "striker")
    for size in (1.0, 1.22, 1.25, 1.38):
        assert names[int(np.argmax(carrom_scores(piece(1.0), size)))] == "queen"
    assert names[int(np.argmax(carrom_scores(piece(0.45), 1.38)))] == "striker"  # a ringed striker
    # a cream man under warm light (hue 12, saturated all over) is no queen, whatever its size
    assert names[int(np.argmax(carrom_scores(piece(0.9, 12.0), 1.0)))] == "white"
