"""The light's colour from the white balls: a cream cue ball under warm lamps is read as white again,
coloured balls and a hand do not pass for white, and a neutral light is left alone."""

from __future__ import annotations

import math

import cv2
import numpy as np

from tableref.vision.video_cast import LightCast
from tableref.vision.video_identity import ball_colours, pool_scores, white_reference

CLOTH_BGR = (150, 75, 12)  # a blue cloth
WHITE = (225.0, 228.0, 230.0)  # a cue ball's lit surface under neutral light
YELLOW = (20.0, 190.0, 230.0)  # the 1
ORANGE = (10.0, 110.0, 235.0)  # the 5
SKIN = (95.0, 130.0, 185.0)  # a knuckle read as a disc
WARM = (0.66, 0.84, 0.95)  # BGR gains of warm lamps on a camera balanced for daylight (cue ball S 82)


def _table(balls: list[tuple[tuple[float, float, float], float, float]], light: tuple[float, float, float]) -> np.ndarray:
    """The cloth with discs of radius 9 px at (x, 30), each of its colour, all under ``light``."""
    img = np.zeros((60, 60 * len(balls) + 60, 3), np.float32)
    img[:] = CLOTH_BGR
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    for colour, x, _ in balls:
        img[(xx - x) ** 2 + (yy - 30) ** 2 <= 81] = colour
    img *= np.asarray(light, np.float32)
    rng = np.random.default_rng(7)
    img += rng.normal(0.0, 1.5, img.shape)
    return cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (3, 3), 0.8)


def _luma(light: tuple[float, float, float]) -> float:
    return float(np.dot(np.asarray(CLOTH_BGR) * np.asarray(light), (0.114, 0.587, 0.299)))


def _cast_after(img: np.ndarray, discs: list[tuple[float, float, float]], light: tuple[float, float, float],
                frames: int = 1) -> LightCast:
    cast = LightCast()
    for _ in range(frames):
        cast.update(img, discs, [_luma(light)] * len(discs))
    return cast


def _scene(colours: list[tuple[float, float, float]], light: tuple[float, float, float]) -> tuple[np.ndarray, list[tuple[float, float, float]]]:
    balls = [(c, 40.0 + 60.0 * i, 9.0) for i, c in enumerate(colours)]
    return _table(balls, light), [(x, 30.0, r) for _, x, r in balls]


def test_warm_lamps_are_measured_on_the_white_balls() -> None:
    """The gains are the inverse of the light's colour, read on the cue ball and a white cap."""
    img, discs = _scene([WHITE, YELLOW, WHITE, ORANGE], WARM)
    b, g, r = _cast_after(img, discs, WARM).gains
    assert math.isclose(b / g, WARM[1] / WARM[0], rel_tol=0.06)
    assert math.isclose(r / g, WARM[1] / WARM[2], rel_tol=0.06)


def test_neutral_light_is_left_alone() -> None:
    img, discs = _scene([WHITE, YELLOW, ORANGE], (1.0, 1.0, 1.0))
    b, g, r = _cast_after(img, discs, (1.0, 1.0, 1.0), frames=5).gains
    assert abs(b - 1.0) < 0.05 and g == 1.0 and abs(r - 1.0) < 0.05


def test_coloured_balls_alone_do_not_pass_for_white() -> None:
    """With no white ball in view nothing is estimated: a yellow is never made grey."""
    img, discs = _scene([YELLOW, ORANGE, YELLOW], (1.0, 1.0, 1.0))
    cast = _cast_after(img, discs, (1.0, 1.0, 1.0))
    assert not cast.known and cast.gains == (1.0, 1.0, 1.0)


def test_a_knuckle_among_white_balls_does_not_move_the_estimate() -> None:
    """Each frame's estimate is the median over its voting discs."""
    img, discs = _scene([WHITE, SKIN, WHITE], WARM)
    b, g, r = _cast_after(img, discs, WARM).gains
    assert math.isclose(b / g, WARM[1] / WARM[0], rel_tol=0.06)


def test_the_estimate_moves_slowly_once_known() -> None:
    """One frame of odd votes (a sleeve's cuff) shifts a known light by a memory step, not at once."""
    img, discs = _scene([WHITE, WHITE], WARM)
    cast = _cast_after(img, discs, WARM, frames=3)
    before = cast.gains
    odd, odd_discs = _scene([SKIN, SKIN], (1.0, 1.0, 1.0))
    cast.update(odd, odd_discs, [_luma((1.0, 1.0, 1.0))] * 2)
    after = cast.gains
    assert abs(after[0] - before[0]) < 0.1 * abs(before[0] - 1.0) + 0.01


def test_a_cream_cue_ball_under_warm_lamps_is_the_cue_ball_read_through_the_gains() -> None:
    """Up and Down rule 1 needs the cue ball told from the yellow 9: under warm lamps the cue ball
    is cream (saturated enough to have a yellow hue); read through the light's gains it is white."""
    img, discs = _scene([WHITE, YELLOW], WARM)
    cloth = np.asarray(CLOTH_BGR, np.float64) * np.asarray(WARM)
    cast = _cast_after(img, discs, WARM)

    def read(gains: tuple[float, float, float] | None) -> np.ndarray:
        under = cloth * (np.asarray(gains) if gains else 1.0)
        hue = float(cv2.cvtColor(np.clip(under, 0, 255).astype(np.uint8).reshape(1, 1, 3), cv2.COLOR_BGR2HSV)[0, 0, 0])
        luma = float(under @ (0.114, 0.587, 0.299))
        colours = ball_colours(img, discs, [float(under.max())] * 2, cloth_luma=[luma] * 2, cloth_hue=[hue] * 2,
                               gains=gains)
        return pool_scores(colours[0], white_reference(colours))

    raw, seen = read(None), read(cast.gains)
    assert raw[0] < 0.3  # unbalanced, the cue ball is too saturated to be white
    assert int(np.argmax(seen)) == 0 and seen[0] > 0.5
