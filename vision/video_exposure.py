"""The camera's exposure and white balance, held where the background was learned.

A venue's camera sets its own exposure: a player in a dark shirt leaning over the table, a cloud
over a skylight or a door opening brightens or darkens the whole picture by ten or twenty per
cent within a second or two, and mains lamps beat with the frame rate by a few per cent. The
background model follows the light only slowly (``ForegroundParams.follow_rate``) and only where
the picture is within ``follow_band`` of it, because a shadow must never be learned; a whole
picture a tenth brighter is then all "brighter than the background" (a white ball's test) and the
cloth's own texture and prints break into objects: false pots, cushions and shot starts (rendered
clips re-exposed by a swing of +-12 % over three seconds, one a game: three false pots more, a
carrom pot lost, ten false cushions).

So each frame is first brought back to the exposure the background was learned at: the gain of
each colour channel is measured on the cloth where nothing is (the pixels that were not
foreground on the last frame read), and the frame divided by it. A change of the whole picture
is the camera's, a change of part of it is an object or a shadow: the gain is taken from the
largest group of pixels that agree on one brightness ratio (the peak of their histogram), not
their median, so a player's shadow over part of the table does not pass for the camera darkening.
Colour readings (a pool ball's number, a carrom man's colour) then also stay where they were
learned.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]


@dataclass(frozen=True)
class ExposureParams:
    """How the camera's gain is measured and when a frame is corrected.

    * ``samples``: about this many pixels of the surface, on a grid, are measured (the gain is one
      number per channel; a few thousand pixels give it to a tenth of a per cent).
    * ``bin``: width of the histogram bins of the brightness ratio. The peak is found on bins
      smoothed over three, so a ratio spread by sensor noise still makes one peak.
    * ``inlier``: pixels within this ratio of the peak give each channel's gain. Wider takes in
      a soft shadow's edge; narrower leaves too few pixels on a noisy camera.
    * ``min_share``: the peak's pixels must be at least this share of those measured, else the
      frame is left as it is (most of the cloth covered or changing at once: there is no cloth
      to measure the camera by).
    * ``min_change``: a gain closer to one than this in every channel is left uncorrected: the
      background's own following and the noise thresholds absorb it, and the frame is not copied.
    * ``max_change``: a measured gain farther from one than this is not the camera's (the lights
      switched off, the camera covered); the frame is left as it is.
    * ``darkest``/``brightest``: background pixels outside this range of channel sums (0-765)
      are not measured: a hole or a black print has no brightness to scale, a clipped highlight
      cannot grow.
    * ``dim_level``: a channel whose mean on the measured cloth is below this level (0-255) is
      given the picture's overall gain in proportion (at half of it, half its own, half the
      overall): its own ratio is mostly rounding.
    """

    samples: int = 2000
    bin: float = 0.005
    inlier: float = 0.03
    min_share: float = 0.25
    min_change: float = 0.012
    max_change: float = 0.6
    darkest: float = 60.0
    brightest: float = 720.0
    dim_level: float = 60.0


class ExposureMeter:
    """Measures the camera's gain on a fixed sample of the surface's pixels (chosen once, a
    ``samples``-point grid over ``surface``): a few thousand pixels give the gain to a tenth of a
    per cent for a tenth of a millisecond, where every pixel would cost a millisecond a frame."""

    def __init__(self, surface: U8, params: ExposureParams | None = None) -> None:
        self.p = params or ExposureParams()
        ys, xs = np.nonzero(surface)
        step = max(1, int(round(np.sqrt(len(ys) / max(1, self.p.samples)))))
        keep = (ys % step == 0) & (xs % step == 0)
        #: flat indices (row * width + column) of the measured pixels
        self.points = (ys[keep] * surface.shape[1] + xs[keep]).astype(np.intp)

    def gain(self, frame: U8, background: F32, exclude: U8 | None = None) -> NDArray[np.float64] | None:
        """The per-channel gain (B, G, R) of ``frame`` against ``background`` (both at the work
        size), measured outside ``exclude`` (0/255, what was foreground a frame ago). None when it
        cannot be measured or is too small or too large to correct (see :class:`ExposureParams`)."""
        p = self.p
        pts = self.points
        if exclude is not None:
            pts = pts[exclude.reshape(-1)[pts] == 0]
        f = frame.reshape(-1, 3)[pts].astype(np.float32)
        b = background.reshape(-1, 3)[pts]
        bs = b[:, 0] + b[:, 1] + b[:, 2]  # column sums: numpy's sum over a short axis is slow
        fs = f[:, 0] + f[:, 1] + f[:, 2]
        use = (bs > p.darkest) & (bs < p.brightest) & (np.maximum(np.maximum(f[:, 0], f[:, 1]), f[:, 2]) < 250.0)
        n = int(use.sum())
        if n < 200:
            return None
        f, b = f[use], b[use]
        ratio = fs[use] / bs[use]
        lo = 1.0 - p.max_change
        bins = int(np.ceil(2.0 * p.max_change / p.bin)) + 1
        idx = np.floor((ratio - lo) / p.bin).astype(np.intp)
        idx = idx[(idx >= 0) & (idx < bins)]
        smooth = np.convolve(np.bincount(idx, minlength=bins), np.ones(3), mode="same")
        peak = lo + (int(np.argmax(smooth)) + 0.5) * p.bin
        near = np.abs(ratio - peak) <= p.inlier * peak
        m = int(near.sum())
        if m < p.min_share * n:
            return None
        fb = f[near].sum(axis=0, dtype=np.float64)
        bb = b[near].sum(axis=0, dtype=np.float64)
        # A dim channel (the red of a blue cloth, a few tens of levels) is measured mostly in its
        # rounding and the codec's: it takes the picture's overall gain, as far as it is dim.
        whole = float(fb.sum() / max(bb.sum(), 1.0))
        trust = np.clip(bb / (m * p.dim_level), 0.0, 1.0)
        gain = trust * (fb / np.maximum(bb, 1.0)) + (1.0 - trust) * whole
        if np.all(np.abs(gain - 1.0) < p.min_change) or np.any(np.abs(gain - 1.0) > p.max_change):
            return None
        return np.asarray(gain, dtype=np.float64)


def gain_table(gain: NDArray[np.float64]) -> U8:
    """The lookup table (256 x 1 x 3, for ``cv2.LUT``) that divides each channel by ``gain``."""
    lut = np.clip(np.round(np.arange(256, dtype=np.float64)[:, None] / gain[None, :]), 0, 255)
    return np.ascontiguousarray(lut.astype(np.uint8).reshape(256, 1, 3))


def corrected(image: U8, table: U8, box: tuple[int, int, int, int] | None = None) -> U8:
    """``image`` through ``table`` (:func:`gain_table`): a copy, changed only inside ``box``
    (x0, y0, x1, y1) when given (the part of the picture the detector reads)."""
    if box is None:
        return np.asarray(cv2.LUT(image, table), dtype=np.uint8)
    x0, y0, x1, y1 = box
    out = image.copy()
    out[y0:y1, x0:x1] = cv2.LUT(np.ascontiguousarray(image[y0:y1, x0:x1]), table)
    return out
