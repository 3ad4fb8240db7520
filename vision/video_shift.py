"""A camera knocked or sagging on its mount: the picture registered back to its calibration.

A venue's camera hangs from a ceiling or a bracket; a cue's butt, a ladder or a mount settling
moves it by a pixel or a few. The calibration (table millimetres from picture pixels) and the
background the detector learned (every cushion, hole, pin and print) then lie off the picture by
that much: the edges of every fixed feature become change, a pin's look no longer matches its
place, a ball at rest seems to move, and positions are off by millimetres (a rendered clip moved
by 1.8 pixels for good: false shot starts, two pins read as moved, position error doubled).

So the detector measures, every ``every`` frames, how far the picture has moved from its learned
background (on the background's strongest edges, the table's fixed structure, away from the
objects: :func:`measure_move`), and once two measurements in a row
agree on a move of at least ``min_px`` picture pixels, every later frame is translated back by it
(in whole pixels: what is left is under half a pixel, a fraction of a millimetre). A move beyond
``max_px`` is not followed: the camera was moved, not knocked, and needs calibrating again; the
detector says so (``moved_px``), and ``tableref analyze`` writes it in its summary.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]


@dataclass(frozen=True)
class ShiftParams:
    """When the picture's move is measured and followed.

    * ``every``: frames read in full between measurements (one costs a millisecond or two at the
      work size of a pool table; a knock is followed within two measurements, two thirds of a
      second at 30 fps while anything moves; a still table is read in full every tenth frame).
    * ``min_px``: a move (picture pixels) smaller than this is left alone: whole-pixel steps
      could not correct it, and what is left is under a millimetre (the measurement itself
      agrees with a known move to a few hundredths of a pixel on our clips).
    * ``agree_px``: two measurements in a row must agree within this to be followed (a hand
      sweeping over the table moves one measurement, not two the same way).
    * ``max_px``: a move larger than this is not followed but reported (calibrate again).
    """

    every: int = 10
    min_px: float = 0.75
    agree_px: float = 0.5
    max_px: float = 12.0


class CameraShift:
    """The picture's move since the background was learned, and the frame translated back."""

    def __init__(self, scale: float, params: ShiftParams | None = None) -> None:
        self.p = params or ShiftParams()
        self.scale = scale
        #: the whole-pixel move (dx, dy) every frame is translated back by
        self.followed: tuple[int, int] = (0, 0)
        #: a move measured too large to follow (picture pixels, see ``max_px``); None until then
        self.moved_px: float | None = None
        self._pending: tuple[float, float] | None = None
        self._frames = 0

    def apply(self, image: U8, box: tuple[int, int, int, int], margin: int = 24) -> U8:
        """``image`` with the part around ``box`` (x0, y0, x1, y1) translated back by the followed
        move (a copy; the same array when there is none)."""
        dx, dy = self.followed
        if dx == 0 and dy == 0:
            return image
        h, w = image.shape[:2]
        x0, y0 = max(0, box[0] - margin), max(0, box[1] - margin)
        x1, y1 = min(w, box[2] + margin), min(h, box[3] + margin)
        out = image.copy()
        m = np.array([[1.0, 0.0, x0 + dx], [0.0, 1.0, y0 + dy]], dtype=np.float64)
        out[y0:y1, x0:x1] = cv2.warpAffine(image, m, (x1 - x0, y1 - y0),
                                           flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
                                           borderMode=cv2.BORDER_REPLICATE)
        return out

    def observe(self, look: U8, background: F32, foreground: U8 | None = None) -> None:
        """Measure, every ``every`` frames, the move of ``look`` (this frame at the work size, as
        already translated back) against ``background``, leaving out ``foreground`` (0/255, the
        objects of the last frame read), and follow it when two measurements agree."""
        self._frames += 1
        if self._frames % self.p.every:
            return
        found = measure_move(look, background, foreground)
        if found is None:
            self._pending = None
            return
        mx, my = found[0] / self.scale, found[1] / self.scale  # picture pixels
        if math.hypot(mx, my) < self.p.min_px:
            self._pending = None
            return
        before, self._pending = self._pending, (mx, my)
        if before is None or math.hypot(mx - before[0], my - before[1]) > self.p.agree_px:
            return
        self._pending = None
        fx, fy = self.followed[0] + round(mx), self.followed[1] + round(my)
        if math.hypot(fx, fy) > self.p.max_px:
            self.moved_px = math.hypot(fx, fy)
            return
        self.followed = (int(fx), int(fy))


def measure_move(look: U8, background: F32, foreground: U8 | None = None, edge_share: float = 0.15,
                 margin: int = 8, steps: int = 8, robust: float = 4.0,
                 min_structure: float = 50.0) -> tuple[float, float] | None:
    """The translation (work pixels) that carries ``background`` onto ``look``, or None when the
    table shows too little fixed structure to tell.

    Measured where the background has its strongest edges (the ``edge_share`` of its pixels with
    the steepest gradient: cushions, holes, pins, prints, markings), away from the objects of the
    last frame and the border, by Lucas and Kanade's least squares for a pure translation,
    repeated on the frame moved back until the step is a hundredth of a pixel, each pixel weighed
    down by what the move left unexplained at it (``robust`` grey levels halve its weight). Why not phase
    correlation: the bare cloth is most of the picture and its weave and noise make a broad, noisy
    peak, and the window it needs fades out the cushions at the border, which are the very
    structure that tells the move (a pixel of noise on a still table, garbage two pixels off)."""
    a = cv2.cvtColor(np.asarray(background, dtype=np.float32), cv2.COLOR_BGR2GRAY)
    b = cv2.cvtColor(look.astype(np.float32), cv2.COLOR_BGR2GRAY)
    a = cv2.GaussianBlur(a, (5, 5), 1.0)
    b = cv2.GaussianBlur(b, (5, 5), 1.0)
    gx = cv2.Sobel(a, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(a, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    mag = gx * gx + gy * gy
    use = np.zeros(a.shape, bool)
    use[margin:-margin, margin:-margin] = True
    if foreground is not None:
        use &= cv2.dilate(foreground, np.ones((5, 5), np.uint8)) == 0
    if int(use.sum()) < 500:
        return None
    use &= mag >= np.quantile(mag[use], 1.0 - edge_share)
    gxu, gyu = gx[use], gy[use]
    weight = np.ones(gxu.shape, np.float32)
    dx = dy = 0.0
    for _ in range(steps):
        m = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], dtype=np.float64)
        back = cv2.warpAffine(b, m, (b.shape[1], b.shape[0]), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
        diff = (back - a)[use]
        wx, wy = weight * gxu, weight * gyu
        h = np.array([[float((wx * gxu).sum()), float((wx * gyu).sum())],
                      [float((wx * gyu).sum()), float((wy * gyu).sum())]])
        if min(np.linalg.eigvalsh(h)) < min_structure:
            return None  # structure in one direction only (or none): the move along it is unknown
        step = -np.linalg.solve(h, np.array([float((wx * diff).sum()), float((wy * diff).sum())]))
        dx, dy = dx + float(step[0]), dy + float(step[1])
        # what a move cannot explain (a shadow over a cushion, a hand, a ball's ghost) weighs
        # less on the next step: Cauchy's weights on what is left after this one
        left = diff + step[0] * gxu + step[1] * gyu
        weight = (1.0 / (1.0 + (left / robust) ** 2)).astype(np.float32)
        if math.hypot(float(step[0]), float(step[1])) < 0.01:
            break
    return dx, dy
