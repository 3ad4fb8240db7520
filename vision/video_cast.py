"""The colour of the light over the table, read from the balls that are white.

A pool ball's number is its hue, and the hues of the set lie close: yellow (the 1, the 9) is
about 12 OpenCV hue steps from orange, orange about 9 from red. Warm lamps (tungsten, warm-white
LEDs) over a table, and a camera whose white balance was set under other light, tint everything:
on a rendered warm installation (pool, seed 1301) the cue ball read BGR (151, 190, 211), a cream
of saturation 77, so it was no longer white (saturation under 75) and read as the yellow 9 for
whole clips, and every other hue had moved towards orange.

The remedy is the oldest in colour constancy: something in the scene is known to be white. Every
ball table has white balls (the cue ball, a stripe's caps, the bar-billiards white, carrom's white
men), and those lie where the detector looks anyway. So :class:`LightCast` keeps an estimate of
the light's colour from the discs that are mostly near-white, and gives the per-channel gains
that make them neutral; the colour reading (:func:`~tableref.vision.video_identity.ball_colours`)
applies the gains to the ball's pixels and to the cloth references alike, so that every reading
is what it would be under neutral light. The detector uses it for pool, where hues name the
balls; bar billiards (red or not) and carrom (dark, red or light) read no fine hue.

Why not the cloth or the whole frame (grey world): the cloth's colour is whatever the venue
bought, and it fills most of the frame. Why not each ball's own brightest pixels: a highlight is
the light's colour, but it clips to white in a well-exposed frame and is a handful of pixels.
Why slowly (``memory_frames``): the lamps do not change during a match, and one frame's discs may
include a knuckle or a chalk cube; the estimate from a frame is the median over its candidate
discs, and the running estimate moves a little towards it each frame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.vision.video_balls import annulus_offsets, values_at

U8 = NDArray[np.uint8]


@dataclass(frozen=True)
class CastParams:
    """Thresholds of the light's colour estimate.

    * ``white_sat``: HSV saturation (0-255) under which a pixel, seen through the current gains,
      counts as near-white; ``first_sat`` before any estimate exists (the raw cast itself may be
      that strong: a cream of blue-to-red ratio 0.5 reads about 128). Higher lets pale colours
      (skin, a shaded stripe's mixed rim) vote; lower misses a strong cast until it is corrected.
    * ``share``: the part of a disc's reading area that must be near-white and brighter than the
      cloth for the disc to vote (the cue ball, a stripe lying cap-up; not a solid's number disc
      or a stripe showing its band).
    * ``memory_frames``: the running estimate's time constant, in frames that had votes.
    * ``max_gain``: the most any channel's gain may be (either way): beyond it the picture is no
      colour camera's under any lamp, and a wrong estimate must not wreck every hue.
    """

    white_sat: float = 100.0
    first_sat: float = 140.0
    share: float = 0.6
    memory_frames: float = 30.0
    max_gain: float = 1.8


class LightCast:
    """The running estimate of the light's colour over one table (reset with the detector)."""

    def __init__(self, params: CastParams | None = None) -> None:
        self.p = params or CastParams()
        self._log_bg = 0.0  # log(B / G) of white under this light
        self._log_rg = 0.0  # log(R / G)
        self._votes = 0.0

    @property
    def known(self) -> bool:
        return self._votes > 0

    @property
    def gains(self) -> tuple[float, float, float]:
        """BGR multipliers that make white neutral (1, 1, 1 before any estimate)."""
        lo, hi = 1.0 / self.p.max_gain, self.p.max_gain
        return (min(hi, max(lo, math.exp(-self._log_bg))), 1.0, min(hi, max(lo, math.exp(-self._log_rg))))

    def update(self, image: U8, discs: Sequence[tuple[float, float, float]], cloth_luma: Sequence[float]) -> None:
        """Move the estimate towards this frame's: ``discs`` are ``(x, y, radius)`` of isolated
        objects in full-resolution pixels, ``cloth_luma`` the bare cloth's luminance under each
        (a white ball outshines its cloth; a grey one in shade does not vote)."""
        votes: list[tuple[float, float]] = []
        limit = self.p.white_sat if self.known else self.p.first_sat
        g = np.asarray(self.gains, dtype=np.float32)
        for (x, y, r), luma in zip(discs, cloth_luma, strict=True):
            raw = values_at(image, y, x, annulus_offsets(0.0, max(1.5, 0.8 * r))).astype(np.float32)
            seen = np.clip(raw * g, 0, 255).astype(np.uint8).reshape(-1, 1, 3)
            hsv = cv2.cvtColor(seen, cv2.COLOR_BGR2HSV).reshape(-1, 3)
            # near-white, lit (brighter than the cloth) and not clipped (a clipped channel hides
            # the light's colour)
            ok = (hsv[:, 1] < limit) & (hsv[:, 2] > 1.05 * max(20.0, luma)) & (raw.max(axis=1) < 250)
            if ok.sum() < max(3, self.p.share * len(raw)):
                continue
            b, gg, rd = (float(np.median(raw[ok, k])) for k in range(3))
            if min(b, gg, rd) < 1.0:
                continue
            votes.append((math.log(b / gg), math.log(rd / gg)))
        if not votes:
            return
        bg = float(np.median([v[0] for v in votes]))
        rg = float(np.median([v[1] for v in votes]))
        step = 1.0 if not self.known else 1.0 / self.p.memory_frames
        self._log_bg += step * (bg - self._log_bg)
        self._log_rg += step * (rg - self._log_rg)
        self._votes += 1.0
