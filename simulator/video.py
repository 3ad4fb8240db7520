"""Writing a clip's frames as an MPEG-4 video (OpenCV's ``mp4v``), byte-for-byte repeatable.

The encoder is part of the realism: its blocks and smoothing are what vision sees in a venue's
recording. ``mp4v`` ships with every OpenCV wheel (H.264 does not), writes the same bytes for
the same frames (checked by a test), and keeps a 10 s 720p clip around a megabyte or two.
MPEG-4 Part 2 needs even frame sizes; :func:`check_size` says so before anything is rendered.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import TracebackType

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.errors import UserError

MIN_SIDE = 64
MAX_SIDE = 4096


def check_size(width: int, height: int) -> None:
    """Raise ``UserError`` unless the frame size is one the encoder writes faithfully."""
    for name, v in (("width", width), ("height", height)):
        if not MIN_SIDE <= v <= MAX_SIDE:
            raise UserError(f"--{name} must be from {MIN_SIDE} to {MAX_SIDE} pixels, got {v}")
        if v % 2:
            raise UserError(f"--{name} must be even (the MPEG-4 encoder drops an odd last row or column), got {v}")


class VideoWriter:
    """Frames in (BGR ``uint8``, all the same size), an ``.mp4`` file out. Use as a context manager."""

    def __init__(self, path: str | Path, fps: float, width: int, height: int) -> None:
        check_size(width, height)
        if not fps > 0:
            raise UserError(f"fps must be positive, got {fps}")
        self.path = Path(path)
        self.width, self.height = width, height
        self.frames = 0
        fourcc = cv2.VideoWriter.fourcc(*"mp4v")
        self._writer = cv2.VideoWriter(str(self.path), fourcc, float(fps), (width, height))
        if not self._writer.isOpened():
            raise UserError(f"cannot write a video to {str(self.path)!r}: is the folder writable?")

    def write(self, frame: NDArray[np.uint8]) -> None:
        if frame.shape != (self.height, self.width, 3) or frame.dtype != np.uint8:
            raise ValueError(f"frame must be {self.height}x{self.width}x3 uint8, got {frame.shape} {frame.dtype}")
        self._writer.write(frame)
        self.frames += 1

    def close(self) -> None:
        self._writer.release()

    def __enter__(self) -> VideoWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def read_frames(path: str | Path) -> list[NDArray[np.uint8]]:
    """Every frame of a video file (for tests and checks; loads it all into memory)."""
    cap = cv2.VideoCapture(str(path))
    out: list[NDArray[np.uint8]] = []
    try:
        while True:
            ok, frame = cap.read()
            if not ok:
                break
            out.append(np.asarray(frame, dtype=np.uint8))
    finally:
        cap.release()
    return out


def rewrite(src: str | Path, dst: str | Path,
            transform: Callable[[NDArray[np.uint8], int, float], NDArray[np.uint8]]) -> int:
    """``src`` written again to ``dst`` as the clips are encoded, each frame through ``transform``
    (frame, index, fps): a recorded clip as another camera would have delivered it (its exposure
    swinging, the camera knocked). Answers the number of frames."""
    cap = cv2.VideoCapture(str(src))
    try:
        fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
        size = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        with VideoWriter(dst, fps, *size) as writer:
            while True:
                ok, frame = cap.read()
                if not ok:
                    break
                writer.write(np.asarray(transform(np.asarray(frame, dtype=np.uint8), writer.frames, fps), dtype=np.uint8))
            return writer.frames
    finally:
        cap.release()
