"""Balls of the cloth's own colour told by their whole disc (``vision/video_tint.py``).

The colours follow the blue 2 of Up and Down seed 2101 (scratch): the cloth about BGR (68, 44, 5);
the ball's disc, with its white number and highlight, about (101, 55, 34) on average, a little
brighter than the cloth and redder (``BALL`` is a plain disc of that hue). Pixel by pixel its
difference was within a shadow's tint, and its outline gave 1.36 Hough votes against 1.5.
"""

from __future__ import annotations

import cv2
import numpy as np

from tableref.vision.video_balls import CircleParams, ObjectFinder
from tableref.vision.video_tint import TintParams, disc_contrast, tinted

R = 6.0
CLOTH = (68, 44, 5)
BALL = (80, 40, 20)


def _table(disc: tuple[int, int, int] | None, at: tuple[int, int] = (40, 40), number: bool = True,
           shadow: bool = True) -> np.ndarray:
    """An 80x80 cloth with noise; ``disc``: the colour of a ball of radius ``R`` at ``at``."""
    rng = np.random.default_rng(7)
    img = np.empty((80, 80, 3), np.float32)
    img[:] = CLOTH
    img += rng.normal(0.0, 2.0, img.shape)
    if disc is not None:
        if shadow:
            cv2.circle(img, (at[0] + 4, at[1] + 2), int(R), tuple(0.7 * c for c in CLOTH), -1)
        cv2.circle(img, at, int(R), disc, -1)
        if number:
            cv2.circle(img, (at[0] - 2, at[1]), 2, (200, 200, 200), -1)
    return np.clip(cv2.GaussianBlur(img, (3, 3), 0.8), 0, 255).astype(np.uint8)


def _finder() -> ObjectFinder:
    return ObjectFinder(np.full((80, 80), R, np.float32), np.full((80, 80), 255, np.uint8), 1.0, (0, 0, 80, 80),
                        CircleParams())


def _changed(at: tuple[int, int] = (40, 40)) -> np.ndarray:
    """Change from the empty table over the ball and its shadow (what shading alone marks)."""
    m = np.zeros((80, 80), np.uint8)
    cv2.circle(m, at, int(R), 255, -1)
    cv2.circle(m, (at[0] + 4, at[1] + 2), int(R), 255, -1)
    return m


def test_the_disc_of_a_ball_of_the_cloths_colour_differs_in_hue_and_a_shadow_does_not() -> None:
    ball = disc_contrast(_table(BALL), 40.0, 40.0, R)
    shade = disc_contrast(_table(tuple(int(0.6 * c) for c in CLOTH), number=False, shadow=False), 40.0, 40.0, R)  # type: ignore[arg-type]
    p = TintParams()
    assert p.chroma <= ball.chroma <= p.most * (ball.brightness + 30.0) and ball.ratio >= p.darkest
    assert shade.chroma < p.chroma  # darker by 40 %, the same hue: a shadow


def test_a_ball_of_the_cloths_colour_is_found_on_the_first_frame_by_its_disc() -> None:
    """*seek*: a piece of change from the empty table with a weak outline in it is a ball when its
    disc's colour differs from its ring's; the bare cloth and a shadow's disc are not."""
    finder = _finder()
    empty = np.zeros((80, 80), np.uint8)
    got = tinted(finder, _table(BALL), empty, _changed(), [], seek=True)
    assert len(got) == 1 and abs(got[0].x - 40) < 1.5 and abs(got[0].y - 40) < 1.5
    # the same piece of change over a shadow (darker, the cloth's hue), or bare cloth: no ball
    shadow = _table(tuple(int(0.6 * c) for c in CLOTH), number=False, shadow=False)  # type: ignore[arg-type]
    assert tinted(finder, shadow, empty, _changed(), [], seek=True) == []
    assert tinted(finder, _table(None), empty, _changed(), [], seek=True) == []
    # without seek (a later frame) a piece of change is not searched at all
    assert tinted(finder, _table(BALL), empty, _changed(), []) == []
    # nor beside a fixed feature of the table (a pin's foot, a hole's rim differ from the cloth)
    assert tinted(finder, _table(BALL), empty, _changed(), [], seek=True, fixed=[(46.0, 40.0, 3.0)]) == []


def test_a_ball_of_the_cloths_colour_is_kept_where_it_rested_and_a_hand_there_is_not_a_ball() -> None:
    """*keep*: where an object rested a frame ago; a disc inside foreground that nothing explains
    (a knuckle among fingers) is refused, and so is a hole's dark mouth."""
    finder = _finder()
    image = _table(BALL)
    empty = np.zeros((80, 80), np.uint8)
    assert len(tinted(finder, image, empty, empty, [], keep=[(41.0, 39.0, 0.85 * R)])) == 1
    assert tinted(finder, image, empty, empty, [], keep=[(15.0, 15.0, 0.85 * R)]) == []  # kept elsewhere
    hand = np.zeros((80, 80), np.uint8)
    cv2.circle(hand, (40, 40), int(2.2 * R), 255, -1)
    assert tinted(finder, image, hand, empty, [], keep=[(41.0, 39.0, 0.85 * R)]) == []
    hole = _table((8, 8, 8), number=False, shadow=False)
    assert tinted(finder, hole, empty, empty, [], keep=[(40.0, 40.0, 0.85 * R)]) == []
    # a disc far from the cloth's colour that the ordinary finder did not take is no ball of the
    # cloth's colour: a cue's pale ferrule where the cue ball was struck too fast for a smear
    tip = _table((200, 215, 225), number=False, shadow=False)
    assert tinted(finder, tip, empty, empty, [], keep=[(40.0, 40.0, 0.85 * R)]) == []
