"""The frame-to-events step a live table runs, behind one small interface.

Two implementations:

* ``vision``: the camera pipeline of ``tableref.vision`` (calibration, detection, tracking,
  event extraction) — what a venue runs, and what the demo table runs. Its calibration is the
  table's own (``tableref calibrate``, uploaded or given at creation); for a video file without
  one, the file ``NAME.calibration.json`` beside it (the bundled demo clip ships one, made by
  ``tableref calibrate`` on the clip), else the automatic calibration of the clip's first good
  frame — what a venue does once when it installs a camera. Never the simulator's truth.
* ``truth``: for a simulated clip with its ``truth.json`` beside it, the true positions and events
  frame by frame. It exists so the demo and the service tests can check the service (latency,
  persistence, the tablet) independently of detection quality, and it is labelled as such on
  the tablet. It never applies to a real camera.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from tableref.errors import UserError
from tableref.events import HumanInput, TableEvent, from_json

PIPELINES = ("vision", "truth")


@dataclass(frozen=True)
class FrameOutput:
    events: tuple[TableEvent, ...] = ()
    positions: dict[str, Any] = field(default_factory=dict)


class FrameOutputLike(Protocol):
    """What the runner reads of a pipeline's result (vision's ``FrameResult`` has both)."""

    @property
    def events(self) -> tuple[TableEvent, ...]: ...

    @property
    def positions(self) -> dict[str, Any]: ...


class FramePipeline(Protocol):
    name: str

    def process(self, image: np.ndarray, index: int, t: float) -> FrameOutputLike: ...

    def reset(self) -> None: ...


def truth_path_for(video: Path) -> Path | None:
    """``NAME.truth.json`` beside ``NAME.mp4``, or ``truth.json`` beside ``video.mp4``."""
    for candidate in (video.with_suffix(".truth.json"), video.parent / "truth.json"):
        if candidate.is_file():
            return candidate
    return None


class TruthReplay:
    """Positions and events from a simulated clip's truth file, keyed by frame index."""

    name = "truth"

    def __init__(self, truth_file: Path) -> None:
        try:
            truth = json.loads(truth_file.read_text("utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise UserError(f"cannot read the truth file {str(truth_file)!r}: {exc}") from None
        self.fps = float(truth.get("fps", 30.0))
        self._states: list[list[dict[str, Any]]] = truth.get("states", [])
        self._events: dict[int, list[TableEvent]] = {}
        self._last_index = -1
        for raw in truth.get("events", []):
            event = from_json(raw)
            assert isinstance(event, TableEvent)
            frame = event.frame if event.frame is not None else round(event.t * self.fps)
            self._events.setdefault(frame, []).append(event)


    def process(self, image: np.ndarray, index: int, t: float) -> FrameOutput:
        """This frame's positions, and the events of this frame and of any frame skipped since the
        last one processed (the runner drops frames when it falls behind, like a live camera)."""
        positions: dict[str, Any] = {}
        if 0 <= index < len(self._states):
            for obj in self._states[index]:
                if obj.get("status", "on_table") in ("on_table", "fallen"):
                    positions[obj["id"]] = {k: obj[k] for k in ("x", "y", "kind", "status", "label") if k in obj}
        first = self._last_index + 1 if self._last_index < index else index
        self._last_index = index
        events = tuple(e for i in range(first, index + 1) for e in self._events.get(i, ()))
        return FrameOutput(events, positions)

    def reset(self) -> None:
        """The truth is indexed by frame: only where the replay stands is forgotten."""
        self._last_index = -1


def recorded_inputs(video: Path) -> list[HumanInput]:
    """The human inputs recorded with a clip (a setup, a toss, the calls), replayed as the tablet
    would have entered them: ``NAME.inputs.jsonl`` beside the video, else the truth file's list."""
    from tableref.events import read_log

    jsonl = video.with_suffix(".inputs.jsonl")
    if jsonl.is_file():
        return [i for i in read_log(jsonl.read_text("utf-8").splitlines()) if isinstance(i, HumanInput)]
    truth = truth_path_for(video)
    if truth is None:
        return []
    try:
        raw = json.loads(truth.read_text("utf-8")).get("inputs", [])
    except (OSError, json.JSONDecodeError):
        return []
    return [i for i in (from_json(r) for r in raw) if isinstance(i, HumanInput)]


def calibration_path_for(video: Path) -> Path | None:
    """``NAME.calibration.json`` beside ``NAME.mp4`` (written by ``tableref calibrate``), if any."""
    candidate = video.with_suffix(".calibration.json")
    return candidate if candidate.is_file() else None


def read_calibration(path: Path) -> dict[str, Any]:
    """A calibration file as the JSON object a table row stores; ``UserError`` when unreadable."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read the calibration {str(path)!r}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"calibration {str(path)!r} is not valid JSON: {exc.msg}; make one with `tableref calibrate`") from None
    if not isinstance(data, dict) or "homography" not in data:
        raise UserError(f"calibration {str(path)!r} has no 'homography'; make one with `tableref calibrate`")
    return data


def calibration_for_video(table_kind: str, video: Path) -> dict[str, Any]:
    """The calibration a venue would have for a recorded clip: the file beside it, else the
    automatic calibration of the clip's first good frame (as ``tableref calibrate`` does)."""
    beside = calibration_path_for(video)
    if beside is not None:
        return read_calibration(beside)
    from tableref.calibration.calibrate import calibrate_source

    try:
        cal, _ = calibrate_source(video, table_kind)
    except UserError as exc:
        raise UserError(f"the vision pipeline needs a calibration and the automatic one failed on "
                        f"{video.name!r}: {exc}; run `tableref calibrate` and upload the result") from None
    return cal.to_json()


def make_pipeline(kind: str, table_kind: str, source: Path | None,
                  calibration: dict[str, Any] | None = None) -> FramePipeline:
    """Build the pipeline a table asks for; a clear ``UserError`` when it cannot run.

    May take a second or two (an automatic calibration reads the clip): call it off the event loop.
    """
    if kind == "truth":
        truth = truth_path_for(source) if source is not None else None
        if truth is None:
            raise UserError("the 'truth' pipeline needs a simulated clip with NAME.truth.json beside it")
        return TruthReplay(truth)
    if kind == "vision":
        try:
            from tableref.vision.pipeline import VisionPipeline  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise UserError("the vision pipeline is not installed in this build; use pipeline 'truth' for a simulated clip") from None
        if calibration is None and source is not None and table_kind != "cards":
            calibration = calibration_for_video(table_kind, source)
        pipeline: FramePipeline = VisionPipeline.for_service(table_kind, calibration, source)
        return pipeline
    raise UserError(f"unknown pipeline {kind!r}; accepted: {', '.join(PIPELINES)}")


def camera_status(pipeline: Any) -> dict[str, Any] | None:
    """The camera's pixels a millimetre over the area of play against the table's need
    (``calibration/resolution.py``), for the table's status: a venue adding a card table with its
    camera too far learns it on the tablet, not from a disputed trick. None for a pipeline with no
    calibration (a truth replay)."""
    spec, mapping = getattr(pipeline, "spec", None), getattr(pipeline, "mapping", None)
    if spec is None or mapping is None or not hasattr(mapping, "to_image"):
        return None
    from tableref.calibration.resolution import check_resolution

    r = check_resolution(spec, mapping.to_image)
    return {**r.to_json(), "message": r.message()}


CALIBRATION_ACCEPTED = ("a JSON object as `tableref calibrate` writes it, with at least 'homography': an invertible "
                        "3x3 matrix of numbers (table mm to image pixels)")


def check_calibration(data: Any, table_kind: str) -> dict[str, Any]:
    """Check a calibration a venue uploads before it replaces the table's current one.

    Why at the door: a table keeps running on its calibration, so a broken one stored would only
    show up as a table that stops seeing anything. ``UserError`` says what was wrong and what is
    accepted; the caller stores nothing then.
    """
    if not isinstance(data, dict):
        raise UserError(f"a calibration must be a JSON object; accepted: {CALIBRATION_ACCEPTED}")
    if "homography" not in data:
        raise UserError(f"the calibration has no 'homography'; accepted: {CALIBRATION_ACCEPTED}")
    try:
        h = np.asarray(data["homography"], dtype=np.float64)
    except (TypeError, ValueError):
        h = np.zeros(0)
    if h.shape != (3, 3) or not np.all(np.isfinite(h)) or abs(float(np.linalg.det(h))) < 1e-12:
        shown = json.dumps(data["homography"])[:80]
        raise UserError(f"'homography' {shown} is not an invertible 3x3 matrix of numbers; accepted: {CALIBRATION_ACCEPTED}")
    table = data.get("table")
    if table is not None and table != table_kind:
        raise UserError(f"this calibration is for a {table!r} table and this table is {table_kind!r}; "
                        f"calibrate this table's camera with `tableref calibrate --table {table_kind}`")
    size = data.get("image_size")
    if size is not None and not (isinstance(size, list) and len(size) == 2
                                 and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)):
        raise UserError(f"'image_size' must be [width, height] in pixels, got {json.dumps(size)[:80]}")
    if table_kind != "cards":
        try:
            from tableref.vision.pipeline import load_calibration  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            return data
        try:
            load_calibration(data)
        except UserError as exc:
            raise UserError(f"the calibration cannot be used: {exc}") from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise UserError(f"the calibration cannot be used ({exc}); accepted: {CALIBRATION_ACCEPTED}") from None
    return data
