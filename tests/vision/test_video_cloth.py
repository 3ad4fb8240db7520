"""The empty table's model: what the first frame may call an object."""

from __future__ import annotations

import numpy as np

from tableref.vision.video_cloth import Background, ForegroundParams

CLOTH = (150.0, 40.0, 110.0)  # a violet cloth (BGR)
BALL = (162.0, 36.0, 122.0)  # a violet ball a shade more saturated: the cloth's own colour, nearly


def _first_frame(noise: float, seed: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 120x120 cloth with a ball of nearly its colour at (60, 60), radius 8; its cloth model;
    the mask of the cloth-like pixels (the ball left out, as the cloth field leaves it out)."""
    rng = np.random.default_rng(seed)
    img = np.zeros((120, 120, 3), np.float32)
    img[:] = CLOTH
    yy, xx = np.mgrid[0:120, 0:120]
    ball = (xx - 60) ** 2 + (yy - 60) ** 2 <= 64
    img[ball] = BALL
    img += rng.normal(0.0, noise, img.shape)
    frame = np.clip(img, 0, 255).astype(np.uint8)
    model = np.zeros((120, 120, 3), np.float32)
    model[:] = CLOTH
    clothlike = np.where(ball, 0, 255).astype(np.uint8)
    return frame, model, clothlike


def _ball_share(bg: Background, frame: np.ndarray) -> float:
    fg, _, _ = bg.foreground(frame)
    yy, xx = np.mgrid[0:120, 0:120]
    return float((fg[(xx - 60) ** 2 + (yy - 60) ** 2 <= 49] > 0).mean())


def test_a_clean_cloth_lets_the_first_frame_see_a_ball_of_its_own_colour() -> None:
    """The start thresholds allow for a badly fitted cloth model; measured on a clean cloth,
    the noise allows the running floors, and the ball of the cloth's colour is an object."""
    frame, model, clothlike = _first_frame(noise=1.0)
    bg = Background(frame, model, np.full((120, 120), 255, np.uint8), ForegroundParams())
    assert _ball_share(bg, frame) < 0.2
    bg.trust_clean_cloth(frame, clothlike)
    assert bg.chroma_threshold < ForegroundParams().start_chroma
    assert _ball_share(bg, frame) > 0.8


def test_a_noisy_cloth_keeps_the_cautious_start_thresholds() -> None:
    """Never above the start values, never below what the cloth's own noise needs."""
    frame, model, clothlike = _first_frame(noise=9.0)
    bg = Background(frame, model, np.full((120, 120), 255, np.uint8), ForegroundParams())
    bg.trust_clean_cloth(frame, clothlike)
    p = ForegroundParams()
    assert bg.chroma_threshold == p.start_chroma and bg.bright_threshold == p.start_bright
