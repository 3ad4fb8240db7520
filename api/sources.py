"""Where a table's frames come from: a video file (looped or once), a local camera, a stream URL.

The source is the one place that may read the wall clock: it stamps each frame with ``t`` (the
file's own timestamps for a video, the arrival time for a live camera), and every stage after it
takes that time as given, so a recording and a live table run the same code.

Live sources reconnect with exponential backoff when the stream drops; the runner reports the
attempts on the tablet (``status``) instead of stopping the table.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from tableref.errors import UserError


@dataclass(frozen=True)
class Frame:
    index: int
    t: float
    image: np.ndarray


@dataclass(frozen=True)
class SourceSpec:
    """A parsed source string: ``file:PATH``/a path, ``camera:N``/``/dev/videoN``, or an RTSP/HTTP URL."""

    kind: str  # file | camera | stream
    target: str
    loop: bool = True

    @property
    def live(self) -> bool:
        return self.kind != "file"

    @property
    def shown(self) -> str:
        """The source as tablets and spectators may see it: a stream URL's password hidden."""
        return redact_source(self.target) or self.target


def redact_source(text: str | None) -> str | None:
    """``rtsp://user:secret@cam/1`` -> ``rtsp://user:***@cam/1``.

    Why: a camera's stream URL often carries its login, and table rows and statuses are readable
    by every spectator; the stored row keeps the real URL for the runner.
    """
    if not text or "://" not in text:
        return text
    scheme, rest = text.split("://", 1)
    netloc, sep, path = rest.partition("/")
    if "@" not in netloc:
        return text
    userinfo, host = netloc.rsplit("@", 1)
    user = userinfo.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}{sep}{path}" if ":" in userinfo else f"{scheme}://***@{host}{sep}{path}"


def parse_source(text: str, media_dir: Path | None, loop: bool = True) -> SourceSpec:
    """Parse and check a source; files must lie inside ``media_dir`` (a service security rule)."""
    text = text.strip()
    if not text:
        raise UserError("empty source; accepted: a video file in the media folder, camera:N, /dev/videoN, rtsp://, http(s)://")
    lower = text.lower()
    if lower.startswith(("rtsp://", "rtsps://", "http://", "https://")):
        return SourceSpec("stream", text, loop=False)
    if lower.startswith("camera:") or lower.startswith("/dev/video"):
        index = text.split(":", 1)[1] if lower.startswith("camera:") else text[len("/dev/video"):]
        if not index.isdigit():
            raise UserError(f"bad camera source {text!r}; accepted: camera:N or /dev/videoN with N a number")
        return SourceSpec("camera", index, loop=False)
    path = Path(text[5:] if lower.startswith("file:") else text)
    if media_dir is not None:
        base = media_dir.resolve()
        resolved = (base / path).resolve() if not path.is_absolute() else path.resolve()
        if base != resolved and base not in resolved.parents:
            raise UserError(f"video files must lie inside the media folder {str(base)!r}; {text!r} does not")
        path = resolved
    if not path.is_file():
        raise UserError(f"video file {str(path)!r} not found")
    return SourceSpec("file", str(path), loop=loop)


def open_capture(spec: SourceSpec) -> cv2.VideoCapture:
    cap = cv2.VideoCapture(int(spec.target)) if spec.kind == "camera" else cv2.VideoCapture(spec.target)
    return cap


def probe(spec: SourceSpec) -> tuple[int, int, float]:
    """Width, height and fps of a file source; ``UserError`` when it cannot be opened or read."""
    cap = open_capture(spec)
    try:
        ok, image = cap.read() if cap.isOpened() else (False, None)
        if not ok or image is None:
            raise UserError(f"cannot read video from {spec.target!r}: not a video OpenCV can decode")
        fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
        return image.shape[1], image.shape[0], float(fps)
    finally:
        cap.release()


def file_frames(spec: SourceSpec) -> Iterator[Frame]:
    """Frames of a video file with their timestamps, ``t`` from the file's frame rate."""
    cap = open_capture(spec)
    if not cap.isOpened():
        raise UserError(f"cannot open video {spec.target!r}")
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    index = 0
    try:
        while True:
            ok, image = cap.read()
            if not ok:
                return
            yield Frame(index, index / fps, image)
            index += 1
    finally:
        cap.release()


@dataclass
class Backoff:
    """Exponential backoff between reconnect attempts: ``first`` doubling up to ``cap`` seconds."""

    first: float = 0.5
    cap: float = 30.0
    attempt: int = 0

    def next_delay(self) -> float:
        delay = min(self.cap, self.first * (2 ** self.attempt))
        self.attempt += 1
        return delay

    def reset(self) -> None:
        self.attempt = 0


def live_frames(spec: SourceSpec, on_status: Callable[..., None], stop: Callable[[], bool],
                backoff: Backoff | None = None) -> Iterator[Frame]:
    """Frames from a camera or stream, reconnecting with backoff; ``t`` is seconds since start."""
    backoff = backoff or Backoff()
    start = time.monotonic()
    index = 0
    while not stop():
        cap = open_capture(spec)
        if cap.isOpened():
            on_status(state="playing", source=spec.shown, attempt=backoff.attempt)
            backoff.reset()
            while not stop():
                ok, image = cap.read()
                if not ok:
                    break
                yield Frame(index, time.monotonic() - start, image)
                index += 1
        cap.release()
        if stop():
            return
        delay = backoff.next_delay()
        on_status(state="reconnecting", source=spec.shown, attempt=backoff.attempt, retry_in=round(delay, 1))
        deadline = time.monotonic() + delay
        while time.monotonic() < deadline and not stop():
            time.sleep(0.1)
