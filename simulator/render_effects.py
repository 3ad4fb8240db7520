"""Per-frame image effects: compositing sprites, motion blur, shadows, sensor noise, JPEG.

Sensor noise comes from a bank of noise fields drawn once per clip, each a little larger than the
frame; a frame adds one of them at a random offset, as two saturating ``uint8`` passes (the
positive and the negative part), which costs a millisecond where drawing fresh Gaussian noise
for a 1280x720 frame would cost twenty. The noise is stronger in the dark, like a real sensor's
read noise pushed up by gain, because the bank is scaled by a per-pixel factor of the background.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.simulator.render_sprites import Sprite

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]


def _clip_roi(shape: tuple[int, ...], x0: int, y0: int, w: int, h: int) -> tuple[int, int, int, int, int, int] | None:
    H, W = shape[:2]
    ax0, ay0 = max(0, x0), max(0, y0)
    ax1, ay1 = min(W, x0 + w), min(H, y0 + h)
    if ax1 <= ax0 or ay1 <= ay0:
        return None
    return ax0, ay0, ax1, ay1, ax0 - x0, ay0 - y0


def composite(img: U8, sprite: Sprite) -> None:
    """Alpha-blend a premultiplied sprite into the frame, in place, clipped at the frame's border."""
    h, w = sprite.alpha.shape
    c = _clip_roi(img.shape, sprite.x0, sprite.y0, w, h)
    if c is None:
        return
    ax0, ay0, ax1, ay1, sx, sy = c
    a = sprite.alpha[sy:sy + ay1 - ay0, sx:sx + ax1 - ax0]
    col = sprite.colour[sy:sy + ay1 - ay0, sx:sx + ax1 - ax0]
    roi = img[ay0:ay1, ax0:ax1]
    out = roi.astype(np.float32) * (1.0 - a)[..., None] + col
    np.clip(out + 0.5, 0, 255, out=out)
    roi[:] = out.astype(np.uint8)


def average(sprites: Sequence[Sprite]) -> Sprite:
    """Motion blur: the mean of an object's sprites over the exposure, as one sprite."""
    if len(sprites) == 1:
        return sprites[0]
    x0 = min(s.x0 for s in sprites)
    y0 = min(s.y0 for s in sprites)
    x1 = max(s.x0 + s.alpha.shape[1] for s in sprites)
    y1 = max(s.y0 + s.alpha.shape[0] for s in sprites)
    col = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
    a = np.zeros((y1 - y0, x1 - x0), np.float32)
    for s in sprites:
        h, w = s.alpha.shape
        col[s.y0 - y0:s.y0 - y0 + h, s.x0 - x0:s.x0 - x0 + w] += s.colour
        a[s.y0 - y0:s.y0 - y0 + h, s.x0 - x0:s.x0 - x0 + w] += s.alpha
    n = float(len(sprites))
    return Sprite(x0, y0, col / n, a / n)


def motion_blur(sprite: Sprite, travel: tuple[float, float]) -> Sprite:
    """Smear a sprite along its image travel ``(dx, dy)`` px over the exposure: a box filter along the
    line, centred, so the blurred object stays centred where the truth puts it. Under a pixel of travel
    the sprite is returned as it is.
    """
    dx, dy = travel
    length = math.hypot(dx, dy)
    if length < 1.0:
        return sprite
    rx, ry = int(math.ceil(abs(dx) / 2)) + 1, int(math.ceil(abs(dy) / 2)) + 1
    kernel = np.zeros((2 * ry + 1, 2 * rx + 1), np.float32)
    n = int(math.ceil(length * 2)) + 1
    for t in np.linspace(-0.5, 0.5, n):
        x, y = rx + dx * t, ry + dy * t
        x0, y0 = int(math.floor(x)), int(math.floor(y))
        fx, fy = x - x0, y - y0
        kernel[y0, x0] += (1 - fx) * (1 - fy)
        kernel[y0, x0 + 1] += fx * (1 - fy)
        kernel[y0 + 1, x0] += (1 - fx) * fy
        kernel[y0 + 1, x0 + 1] += fx * fy
    kernel /= kernel.sum()
    col = cv2.copyMakeBorder(sprite.colour, ry, ry, rx, rx, cv2.BORDER_CONSTANT, value=(0.0, 0.0, 0.0))
    a = cv2.copyMakeBorder(sprite.alpha, ry, ry, rx, rx, cv2.BORDER_CONSTANT, value=0.0)
    col = cv2.filter2D(col, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    a = cv2.filter2D(a, -1, kernel, borderType=cv2.BORDER_CONSTANT)
    return Sprite(sprite.x0 - rx, sprite.y0 - ry, np.asarray(col, np.float32), np.asarray(a, np.float32))


def darken(img: U8, x0: int, y0: int, amount: F32) -> None:
    """Multiply the frame by ``1 - amount`` over a region (a soft shadow), in place."""
    h, w = amount.shape
    c = _clip_roi(img.shape, x0, y0, w, h)
    if c is None:
        return
    ax0, ay0, ax1, ay1, sx, sy = c
    roi = img[ay0:ay1, ax0:ax1]
    f = 1.0 - amount[sy:sy + ay1 - ay0, sx:sx + ax1 - ax0]
    roi[:] = (roi.astype(np.float32) * f[..., None] + 0.5).astype(np.uint8)


class NoiseBank:
    """Pre-drawn sensor noise: ``n`` fields a little larger than the frame, used at random offsets."""

    def __init__(self, width: int, height: int, sigma: float, seed: int, background: U8 | None = None,
                 n: int = 4, pad: int = 24) -> None:
        rng = np.random.default_rng([seed, 0x0153])
        self.pad = pad
        self.width, self.height = width, height
        self.rng = np.random.default_rng([seed, 0x0154])
        shape = (height + pad, width + pad, 3)
        self.pos: list[U8] = []
        self.neg: list[U8] = []
        if sigma <= 0:
            return
        gain = np.ones((height + pad, width + pad, 1), np.float32)
        if background is not None:
            luma = cv2.cvtColor(background, cv2.COLOR_BGR2GRAY).astype(np.float32) / 255.0
            luma = np.asarray(cv2.copyMakeBorder(luma, 0, pad, 0, pad, cv2.BORDER_REPLICATE), dtype=np.float32)
            # smooth, so the random offset of a field does not misplace it noticeably
            gain[..., 0] = cv2.GaussianBlur(1.4 - 0.8 * luma, (0, 0), 25.0)
        for _ in range(n):
            field = rng.standard_normal(shape, dtype=np.float32) * np.float32(sigma)
            field[..., 1] = field[..., 1] * 0.7 + field[..., 0] * 0.3  # correlated channels, like a Bayer demosaic
            field *= gain
            self.pos.append(np.clip(np.rint(field), 0, 255).astype(np.uint8))
            self.neg.append(np.clip(np.rint(-field), 0, 255).astype(np.uint8))

    def apply(self, img: U8) -> None:
        """Add one noise field at a random offset, in place."""
        if not self.pos:
            return
        k = int(self.rng.integers(len(self.pos)))
        dx, dy = int(self.rng.integers(self.pad + 1)), int(self.rng.integers(self.pad + 1))
        h, w = img.shape[:2]
        pos = self.pos[k][dy:dy + h, dx:dx + w]
        neg = self.neg[k][dy:dy + h, dx:dx + w]
        cv2.add(img, pos, dst=img)
        cv2.subtract(img, neg, dst=img)


def jpeg_round_trip(img: U8, quality: int) -> U8:
    """Compress and decompress: the blocking and ringing of a camera that streams JPEG."""
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:  # pragma: no cover - OpenCV always encodes a valid BGR frame
        return img
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return np.asarray(out, dtype=np.uint8)
