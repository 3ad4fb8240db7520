"""The empty table's appearance, learned from the video and followed as the light changes.

Two models of what the playing surface looks like without objects, both at the work resolution
of :class:`~tableref.vision.video_geometry.TableView`:

* the *cloth field* (:func:`cloth_field`): a smooth estimate of the bare cloth at every pixel, made
  from one frame by averaging only pixels whose colour is the cloth's (normalised convolution at
  two scales, so a rack of fifteen balls or a hand is bridged by the cloth around it). It finds
  the objects of the first frame, and it lets pixels that look like bare cloth heal the
  background quickly (a hand that was over the table when the video started);
* the *background* (:class:`Background`): one colour per pixel, the first frame with its objects
  painted over by the cloth field, then updated slowly where the picture agrees with it (the light
  drifts, a lamp warms up) and quickly where bare cloth reappears. Static markings (lines, spots,
  holes, pockets, pins, a carrom board's print) are part of it, so they are never foreground.

Foreground is a change against the background that a shadow cannot explain. A shadow darkens the
cloth by a factor while keeping its colour; an object changes the colour (*chroma*), is brighter
(a white ball, a highlight) or much darker than any shadow (a black ball). The thresholds scale
with the pixel's brightness because noise and compression do.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]


@dataclass(frozen=True)
class ForegroundParams:
    """What counts as a change that is an object, and how fast the background follows the light.

    Thresholds follow the camera's own noise: every update measures the 99th percentile of the
    chroma and brightness differences over pixels that agree with the background (sensor noise,
    compression), and a pixel is foreground when it differs by ``noise_factor`` times that, and
    never by less than the floors.

    * ``chroma_floor``: a pixel whose colour (after removing a brightness factor) differs from the
      background by more than the chroma threshold (sum of three 0-255 channels) is foreground.
      Lower finds balls of the cloth's own colour and cream men on a light board; higher ignores
      compression noise and coloured reflections.
    * ``bright_floor``/``bright_ratio``: brighter than the background by the brightness threshold
      (sum of channels) and by this ratio is foreground (white balls, highlights); shadows never
      brighten.
    * ``shadow_tint``: a colour change must also exceed this fraction of the pixel's brightness.
      A shadow leaves only the room's ambient light, whose colour is not the lamp's, so shadowed
      cloth shifts its colour a little (per-channel ratios differ by up to about 20 %); an object's
      colour differs by far more. Higher ignores more tinted shadows, and also balls close to the
      cloth's colour.
    * ``dark_ratio``: darker than this fraction of the background is foreground (a black ball);
      must stay below the deepest shadow a lamp casts (about 0.35 of the lit cloth).
    * ``follow_rate``: per-frame weight of a pixel that agrees with the background (lighting drift);
      agreeing means within ``follow_band`` of its brightness, so a shadow is never learned.
    * ``heal_rate``: per-frame weight of a pixel that looks like bare cloth but not like the
      background (the table uncovered by a hand that was there when the video started).
    """

    chroma_floor: float = 12.0
    bright_floor: float = 14.0
    noise_factor: float = 1.6
    bright_ratio: float = 1.05
    dark_ratio: float = 0.34
    shadow_tint: float = 0.25
    follow_rate: float = 0.03
    follow_band: float = 0.08
    heal_rate: float = 0.25
    cloth_chroma: float = 0.06
    start_chroma: float = 22.0
    start_bright: float = 22.0


def _chromaticity(img: F32) -> F32:
    s = img.sum(axis=2, keepdims=True) + 3.0
    return np.asarray(img / s, dtype=np.float32)


def cloth_field(img: U8, region: U8, radius_px: float) -> tuple[F32, U8]:
    """A smooth bare-cloth image for ``img`` (work resolution) and the mask of cloth-like pixels.

    The cloth's colour is the median chromaticity over ``region``; pixels near it (and not far from
    the local brightness) are averaged with box filters of about four and sixteen ball radii, the
    finer where it has enough cloth pixels. Objects, lines and holes never enter the average.
    """
    f = img.astype(np.float32)
    chroma = _chromaticity(f)
    inside = region > 0
    ref = np.median(chroma[inside], axis=0) if inside.any() else chroma.reshape(-1, 3).mean(axis=0)
    dist = np.abs(chroma - ref).sum(axis=2)
    weight = ((dist < 0.06) & inside).astype(np.float32)
    field = _normalised_blur(f, weight, radius_px)
    # second pass: drop pixels much darker or brighter than the first field (white on grey cloth)
    ratio = (f.sum(axis=2) + 3.0) / (field.sum(axis=2) + 3.0)
    weight2 = weight * ((ratio > 0.75) & (ratio < 1.3)).astype(np.float32)
    field = _normalised_blur(f, weight2, radius_px)
    return field, (weight2 > 0).astype(np.uint8) * 255


def _normalised_blur(f: F32, weight: F32, radius_px: float) -> F32:
    out = np.zeros_like(f)
    have = np.zeros(weight.shape, dtype=np.float32)
    for size in (int(4 * radius_px) | 1, int(16 * radius_px) | 1, int(64 * radius_px) | 1):
        w = cv2.boxFilter(weight, -1, (size, size), normalize=True, borderType=cv2.BORDER_REPLICATE)
        num = cv2.boxFilter(f * weight[..., None], -1, (size, size), normalize=True,
                            borderType=cv2.BORDER_REPLICATE)
        ok = (w > 0.25) & (have == 0)
        est = num / np.maximum(w, 1e-6)[..., None]
        out[ok] = est[ok]
        have[ok] = 1.0
    if not have.all():
        mean = f[weight > 0].mean(axis=0) if (weight > 0).any() else f.reshape(-1, 3).mean(axis=0)
        out[have == 0] = mean
    return out


_SUM = np.ones((1, 3), dtype=np.float32)


def channel_sum(img: NDArray[np.floating] | U8) -> F32:
    """Sum of the three colour channels as one float32 plane (cv2, much faster than numpy's axis sum)."""
    return np.asarray(cv2.transform(np.asarray(img, dtype=np.float32), _SUM), dtype=np.float32)


def _chroma_difference(f: F32, ref: F32, ref_sum: F32, f_sum: F32) -> tuple[F32, F32]:
    """(sum over channels of |f - k ref|, k) with k = brightness ratio of ``f`` to ``ref``."""
    k = np.asarray(cv2.divide(f_sum + 3.0, ref_sum + 3.0), dtype=np.float32)
    scaled = cv2.multiply(ref, cv2.merge([k, k, k]))
    return channel_sum(np.asarray(cv2.absdiff(f, scaled), dtype=np.float32)), k


class Background:
    """Per-pixel background colour of the work image; see the module docstring."""

    def __init__(self, first: U8, cloth: F32, objects: U8, params: ForegroundParams | None = None,
                 unverified: U8 | None = None) -> None:
        """``objects``: 255 where the first frame has objects (painted over with ``cloth``);
        ``unverified``: where the first frame's background is a guess (the objects and their
        shadows), ``objects`` when not given."""
        self.p = params or ForegroundParams()
        bg = first.astype(np.float32)
        cv2.copyTo(cloth, objects, bg)
        self.image: F32 = bg
        self.cloth: F32 = cloth
        #: painted over on the first frame: a guess until seen uncovered (see :meth:`reveal`)
        self.unverified: U8 = (objects if unverified is None else unverified).copy()
        #: the first frame as it was, objects included (see :meth:`reveal`)
        self._first: F32 = first.astype(np.float32)
        self._last: F32 = bg.copy()
        #: updates in a row each pixel has kept its look (a ghost is still; a hand moves)
        self.still: U8 = np.zeros(objects.shape, np.uint8)
        self._sum: F32 = channel_sum(bg)
        self._cloth_sum: F32 = channel_sum(cloth)
        #: current thresholds (chroma, brightness), measured from the noise as the video runs
        self.chroma_threshold = self.p.start_chroma
        self.bright_threshold = self.p.start_bright
        self._noise: tuple[float, float] | None = None

    def trust_clean_cloth(self, img: U8, clothlike: U8) -> None:
        """Lower the start thresholds to what the noise of ``img`` against this model allows, on
        the pixels ``clothlike`` (0/255) marks: never below the floors, never above the start.

        Why: the start thresholds allow for a cloth field that follows a worn or unevenly lit
        cloth badly. Where the cloth is clean, they hide a ball of the cloth's own colour (a
        purple 4 on a purple cloth, a blue 2 on tournament blue), which then becomes part of the
        background until it is knocked far enough to leave a hole in it.
        """
        self._measure_noise(None, img.astype(np.float32), clothlike > 0)
        self.chroma_threshold = min(self.p.start_chroma, self.chroma_threshold)
        self.bright_threshold = min(self.p.start_bright, self.bright_threshold)

    def foreground(self, img: U8) -> tuple[U8, F32, F32]:
        """Object mask (0/255), brightness ratio and chroma difference of ``img``."""
        p = self.p
        f = img.astype(np.float32)
        si = channel_sum(f)
        sb = self._sum
        chroma, k = _chroma_difference(f, self.image, sb, si)
        obj = (chroma > self.chroma_threshold) & (chroma > p.shadow_tint * (si + 30.0))
        obj |= (si - sb > self.bright_threshold) & (k > p.bright_ratio)
        obj |= k < p.dark_ratio
        return obj.view(np.uint8) * np.uint8(255), k, chroma

    def update(self, img: U8, foreground: U8, protect: U8, k: F32, every: int = 1) -> None:
        """Follow the light where ``img`` agrees with the background; heal bare cloth quickly.

        ``protect`` (0/255) marks pixels that must not be learned whatever they look like: the
        objects found in this frame and where they were predicted. ``k`` is the brightness ratio
        :meth:`foreground` returned; ``every``: frames since the last update (rates scale with it).
        """
        p = self.p
        f = img.astype(np.float32)
        moved = channel_sum(np.asarray(cv2.absdiff(f, self._last), dtype=np.float32)) > 2.0 * self.bright_threshold
        self.still = np.where(moved, 0, np.minimum(self.still.astype(np.int32) + 1, 255)).astype(np.uint8)
        self._last = f
        free = protect == 0
        agree = free & (foreground == 0) & (np.abs(k - 1.0) < p.follow_band)
        rate = 1.0 - (1.0 - p.follow_rate) ** every
        self._measure_noise(chroma_now=None, f=f, agree=agree)
        cv2.accumulateWeighted(f, self.image, rate, agree.view(np.uint8))
        # bare cloth where the background still holds something else
        si = channel_sum(f)
        chroma_c, kc = _chroma_difference(f, self.cloth, self._cloth_sum, si)
        clothlike = free & (foreground > 0) & (chroma_c < p.cloth_chroma * self._cloth_sum) & (kc > 0.8) & (kc < 1.25)
        if clothlike.any():
            heal = 1.0 - (1.0 - p.heal_rate) ** every
            cv2.accumulateWeighted(f, self.image, heal, clothlike.view(np.uint8))
        self._sum = channel_sum(self.image)

    def _measure_noise(self, chroma_now: F32 | None, f: F32, agree: NDArray[np.bool_]) -> None:
        """Update the thresholds from the differences on pixels that agree with the background."""
        p = self.p
        sub = agree[::3, ::3]
        if int(sub.sum()) < 200:
            return
        fs = f[::3, ::3][sub]
        bs = self.image[::3, ::3][sub]
        ssum, bsum = fs.sum(axis=1), bs.sum(axis=1)
        k = (ssum + 3.0) / (bsum + 3.0)
        chroma = np.abs(fs - bs * k[:, None]).sum(axis=1)
        c99 = float(np.percentile(chroma, 99))
        d99 = float(np.percentile(np.abs(ssum - bsum), 99))
        if self._noise is None:
            self._noise = (c99, d99)
        else:
            self._noise = (0.8 * self._noise[0] + 0.2 * c99, 0.8 * self._noise[1] + 0.2 * d99)
        self.chroma_threshold = max(p.chroma_floor, p.noise_factor * self._noise[0])
        self.bright_threshold = max(p.bright_floor, p.noise_factor * self._noise[1])

    def reveal(self, img: U8, where: U8, still_updates: int = 3) -> None:
        """Learn ``img`` at once where ``where`` (0/255) marks painted-over pixels now uncovered,
        unchanged for ``still_updates`` background updates and changed since the first frame.

        The first frame's objects were painted out with the cloth estimate; what they covered (a
        spot, a line, the cloth's own texture) is only known once they move away. What lies there
        then stays still; a hand passing over it does not. A pixel that still looks as it did on
        the first frame has not been uncovered: its object never moved (a carrom man left in place
        by the break while the pack around it scattered), whatever the finder made of it in the
        meantime, and learning it would erase that object for good.
        """
        m = cv2.bitwise_and(where, self.unverified)
        m = cv2.bitwise_and(m, ((self.still >= still_updates) * 255).astype(np.uint8))
        if not m.any():
            return
        f = img.astype(np.float32)
        left = channel_sum(np.asarray(cv2.absdiff(f, self._first), dtype=np.float32)) > 2.0 * self.bright_threshold
        m = cv2.bitwise_and(m, (left * 255).astype(np.uint8))
        if not m.any():
            return
        cv2.copyTo(f, m, self.image)
        self.unverified = np.asarray(cv2.bitwise_and(self.unverified, cv2.bitwise_not(m)), dtype=np.uint8)
        self._sum = channel_sum(self.image)

    def refresh(self) -> None:
        """Recompute cached sums after :attr:`image` was edited in place."""
        self._sum = channel_sum(self.image)

    def absorb(self, img: U8, where: U8) -> None:
        """Take ``img`` as background at once where ``where`` (0/255) is set (a revealed marking)."""
        cv2.copyTo(img.astype(np.float32), where, self.image)
        self._sum = channel_sum(self.image)
