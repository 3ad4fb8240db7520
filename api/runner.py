"""Runs one table: frames from its source, through its pipeline, into its session.

A video file plays in real time (frame ``t`` is due at ``start + t``), so the demo behaves like a
live camera and latency figures mean something. Reading and processing a frame happen in a worker
thread; everything that touches the session (referee, store, hub) happens on the event loop, so
one slow table never corrupts another's state.

A pipeline slower than the clip for a moment catches up on the next frames (it has headroom: the
vision pipeline runs at about twice the clip's rate on one core). One that stays behind by more
than ``max_lag_s`` drops frames, as a live camera's driver drops what nobody reads: the frame is
decoded but not processed, and ``frames_dropped`` in the table's status counts it. A file never
plays later and later behind the clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tableref.api.pipeline import (
    FrameOutputLike,
    FramePipeline,
    camera_status,
    make_pipeline,
    recorded_inputs,
)
from tableref.api.session import TableSession
from tableref.api.sources import Frame, SourceSpec, file_frames, live_frames
from tableref.errors import UserError

log = logging.getLogger("tableref.runner")


def encode_jpeg(image: np.ndarray, quality: int = 80, max_width: int = 960) -> bytes:
    """JPEG for the tablet, downscaled: a tablet needs a picture, not every pixel."""
    h, w = image.shape[:2]
    if w > max_width:
        image = cv2.resize(image, (max_width, round(h * max_width / w)), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return buf.tobytes() if ok else b""


class TableRunner:
    """The frame loop of one table; ``start()`` schedules it, ``stop()`` ends it."""

    def __init__(self, session: TableSession, spec: SourceSpec, pipeline_kind: str,
                 calibration: dict[str, Any] | None = None, speed: float = 1.0,
                 frame_interval: float = 0.2, positions_interval: float = 0.1, max_lag_s: float = 0.5,
                 resume: bool = True) -> None:
        self.session = session
        #: a file source whose game is already in the log resumes after it (see ``_play``)
        self.resume = resume
        self.spec = spec
        self.pipeline_kind = pipeline_kind
        self.calibration = calibration
        self.speed = speed
        self.frame_interval = frame_interval
        # Positions go to tablets at 10 Hz: enough to draw the table, a third of the traffic.
        self.positions_interval = positions_interval
        #: how late (seconds) a file frame may be processed before frames are dropped to catch up
        self.max_lag_s = max_lag_s
        self.latest_jpeg: bytes | None = None
        self.frames_seen = 0
        self.frames_dropped = 0
        self._stop = False
        self._task: asyncio.Task[None] | None = None
        #: frame due time (monotonic) per event, for the latency benchmark
        self.due: dict[int, float] = {}
        #: seconds the pipeline took on each of the last frames, and when the clip's t = 0 was due
        self.process_s: deque[float] = deque(maxlen=5000)
        self.clock_start: float | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.session.table_id}")

    async def stop(self) -> None:
        self._stop = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def _frames(self) -> Iterator[Frame]:
        if self.spec.kind == "file":
            return file_frames(self.spec)
        return live_frames(self.spec, self._status_from_thread, lambda: self._stop)

    def _status_from_thread(self, **status: Any) -> None:
        loop = self._loop
        loop.call_soon_threadsafe(lambda: self.session.set_status(**status))

    async def _run(self) -> None:
        """The table's loop; whatever stops it is said on the tablet, never a silent dead task."""
        try:
            await self._run_source()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug or a broken store must not leave the table showing "playing"
            log.exception("table %s stopped", self.session.table_id)
            self.session.set_status(state="error", error=f"the table stopped: {type(exc).__name__}: {exc}")

    async def _run_source(self) -> None:
        self._loop = asyncio.get_running_loop()
        source = Path(self.spec.target) if self.spec.kind == "file" else None
        self.session.set_status(state="starting", pipeline=self.pipeline_kind)
        try:
            # off the loop: an automatic calibration reads the clip, a detector loads its tables
            pipeline = await asyncio.to_thread(make_pipeline, self.pipeline_kind, self.session.table_kind,
                                               source, self.calibration)
        except UserError as exc:
            self.session.set_status(state="error", error=str(exc))
            return
        self.session.pipeline = pipeline.name
        camera = camera_status(pipeline)
        if camera is not None:
            self.session.set_status(camera=camera)
        first = True
        while not self._stop:
            done: list[dict[str, Any]] = []
            if not first:
                self.session.reset(t=0.0, reason="the demo clip starts again")
                pipeline.reset()
            elif self.resume and self.spec.kind == "file":
                done = self.session.items_since_reset()
            first = False
            self.session.set_status(state="playing", source=self.spec.shown, pipeline=pipeline.name)
            await self._play(pipeline, done)
            if not (self.spec.kind == "file" and self.spec.loop):
                break
        self.session.set_status(state="stopped")

    def _timed(self, pipeline: FramePipeline, frame: Frame) -> FrameOutputLike:
        began = time.perf_counter()
        out = pipeline.process(frame.image, frame.index, frame.t)
        self.process_s.append(time.perf_counter() - began)
        return out

    async def _play(self, pipeline: FramePipeline, done_items: list[dict[str, Any]] | None = None) -> None:
        """Play the source into the session in real time.

        ``done_items``: what the log already holds of this clip (a file source restarted over a
        game in progress: the server was restarted, or the table got a new calibration). The clip
        then resumes where the log ends instead of refereeing the same shots twice over the game:
        frames before the last stored item's time run through the pipeline at full speed (so the
        tracker knows the table as it was) with their events discarded (every frame before it was
        refereed), and from there any event or recorded input equal to one already stored is
        skipped (an event may be dated a little before the frame that reports it, and a kill may
        fall between two events of one frame). A live camera never resumes: it was live all along.
        """
        frames = self._frames()
        pending = sorted(recorded_inputs(Path(self.spec.target)), key=lambda i: i.t) if self.spec.kind == "file" else []
        stored = {_canonical(body) for body in done_items or ()}
        resume_t = max((float(b.get("t") or 0.0) for b in done_items or ()), default=-1.0)
        if done_items:
            self.session.set_status(state="resuming", resume_at=round(resume_t, 2))
        start = time.monotonic()
        self.clock_start = start
        last_jpeg_t = -1.0
        last_positions_t = -1.0
        end = object()
        while not self._stop:
            frame = await asyncio.to_thread(next, frames, end)
            if frame is end:
                return
            assert isinstance(frame, Frame)
            if frame.t < resume_t:
                await asyncio.to_thread(pipeline.process, frame.image, frame.index, frame.t)  # events discarded
                start = time.monotonic() - resume_t / self.speed
                self.clock_start = start
                continue
            if self.session.status.get("state") == "resuming":
                self.session.status.pop("resume_at", None)  # resumed: the status says only "playing"
                self.session.set_status(state="playing")
            if self.spec.kind == "file":
                due = start + frame.t / self.speed
                delay = due - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
                elif -delay > self.max_lag_s:
                    self.frames_dropped += 1  # too far behind the clock: drop it, as a camera would
                    if self.frames_dropped == 1 or self.frames_dropped % 30 == 0:
                        self.session.set_status(frames_dropped=self.frames_dropped)
                    continue
            else:
                due = time.monotonic()
            out = await asyncio.to_thread(self._timed, pipeline, frame)
            self.frames_seen += 1
            image = frame.image
            still = functools.partial(encode_jpeg, image)
            while pending and pending[0].t <= frame.t:
                item = pending.pop(0)
                if item.t >= resume_t and _canonical(item.to_json()) not in stored:
                    self.session.ingest(item)
            for event in out.events:
                if stored and _canonical(event.to_json()) in stored:
                    continue  # refereed before the restart
                for m in self.session.ingest(event, still=still):
                    self.due[m.seq] = due
            while len(self.due) > 10_000:
                self.due.pop(next(iter(self.due)))
            if out.positions and frame.t - last_positions_t >= self.positions_interval:
                last_positions_t = frame.t
                self.session.publish_positions(frame.t, frame.index, out.positions)
            if frame.t - last_jpeg_t >= self.frame_interval:
                last_jpeg_t = frame.t
                self.latest_jpeg = await asyncio.to_thread(encode_jpeg, image)


def _canonical(body: dict[str, Any]) -> str:
    """One text per logged item, whatever order its keys came in (to recognise it again)."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"))
