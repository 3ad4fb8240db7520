"""The camera pipeline for one table: image -> detections -> tracks -> table events.

``VisionPipeline.process(image, index, t)`` is the per-frame verb the service and ``tableref
analyze`` share. Time comes in with the frame; nothing here reads the clock, so a recorded video
and a live camera run the same code.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.spec import TableSpec, load_table
from tableref.errors import UserError
from tableref.events import TableEvent
from tableref.vision.detect import Detection, Detector, make_detector, with_table_mm
from tableref.vision.extract import EventExtractor, ExtractorParams
from tableref.vision.tracker import Tracker, Tracks, TrackStatus


@dataclass(frozen=True)
class FrameResult:
    """What one frame gave: its detections, the tracks after it, and the events it completed."""

    detections: tuple[Detection, ...]
    tracks: Tracks
    events: tuple[TableEvent, ...]
    positions: dict[str, Any] = field(default_factory=dict)


class HomographyMapping:
    """Pixels to table mm through the inverse of a calibration's homography (mm -> px).

    With the camera's intrinsics and distortion, pixels are undistorted first, so a wide-angle
    venue camera still maps straight cushions to straight lines.
    """

    def __init__(self, homography: Any, camera_matrix: Any = None, distortion: Any = None) -> None:
        H = np.asarray(homography, dtype=np.float64)
        if H.shape != (3, 3) or not np.all(np.isfinite(H)) or abs(np.linalg.det(H)) < 1e-12:
            raise UserError("the calibration's homography must be an invertible 3x3 matrix (table mm to pixels)")
        self.H = H
        self.H_inv = np.linalg.inv(H)
        self.K = np.asarray(camera_matrix, dtype=np.float64) if camera_matrix is not None else None
        self.D = np.asarray(distortion, dtype=np.float64) if distortion is not None else None

    def to_table(self, points_px: Any) -> NDArray[np.float64]:
        pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
        if self.K is not None and self.D is not None and np.any(self.D):
            pts = np.asarray(cv2.undistortPoints(pts, self.K, self.D, P=self.K), dtype=np.float64)
        return np.asarray(cv2.perspectiveTransform(pts, self.H_inv), dtype=np.float64).reshape(-1, 2)

    def to_image(self, points_mm: Any) -> NDArray[np.float64]:
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
        out = cv2.perspectiveTransform(pts, self.H).reshape(-1, 2)
        if self.K is not None and self.D is not None and np.any(self.D):
            norm = cv2.undistortPoints(out.reshape(-1, 1, 2), self.K, None)  # to normalised coordinates
            obj = np.concatenate([norm.reshape(-1, 2), np.ones((len(out), 1))], axis=1)
            out = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), self.K, self.D)[0].reshape(-1, 2)
        return np.asarray(out, dtype=np.float64)


def load_calibration(source: str | Path | dict[str, Any] | None) -> HomographyMapping | None:
    """A calibration file (``tableref calibrate``) or its parsed JSON, as a pixel-to-mm mapping.

    The detector works on the plane of the objects' visible centres (a ball's centre, a carrom
    man's top face; ``video_geometry.plane_height_mm``). A file that says which plane its
    homography maps (``plane_z_mm``: 0 for the cloth, as ``tableref calibrate`` writes) is moved
    to that plane through its camera (``camera.matrix``: given with ``--intrinsics`` or fitted by
    calibrate; without one, fitted here from the homography), so a calibration made from a
    frame and one made from the truth of a simulated clip give the detector the same geometry. A
    file without ``plane_z_mm`` is taken to map the objects' plane already.
    """
    if source is None:
        return None
    if isinstance(source, dict):
        data = source
    else:
        try:
            data = json.loads(Path(source).read_text("utf-8"))
        except OSError as exc:
            raise UserError(f"cannot read the calibration {str(source)!r}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise UserError(f"calibration {str(source)!r} is not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict) or "homography" not in data:
        raise UserError("a calibration needs 'homography' (table mm to pixels); make one with `tableref calibrate`")
    camera = data.get("intrinsics") or data.get("camera") or {}
    K = camera.get("matrix") or camera.get("K")
    D = camera.get("distortion") or camera.get("dist")
    H: Any = data["homography"]
    if data.get("plane_z_mm") is not None:
        from tableref.calibration.pose import camera_matrix_for, lift_homography
        from tableref.vision.video_geometry import plane_height_mm

        try:
            plane = float(data["plane_z_mm"])
            Hm = np.asarray(H, dtype=np.float64)
            if Hm.shape != (3, 3) or not np.all(np.isfinite(Hm)) or abs(np.linalg.det(Hm)) < 1e-12:
                raise ValueError("the homography must be an invertible 3x3 matrix")
            spec = load_table(str(data["table"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise UserError(f"the calibration's plane_z_mm needs a valid homography and table ({exc}); "
                            "make one with `tableref calibrate`") from None
        try:
            target = plane_height_mm(spec)
        except UserError:  # a table without round objects (cards): its cloth plane serves
            target = plane
        if abs(target - plane) > 1e-9:
            if K is None:
                size = data.get("image_size")
                if not (isinstance(size, list) and len(size) == 2):
                    raise UserError("a calibration without a camera matrix needs 'image_size' [width, height]")
                K = camera_matrix_for(Hm, (int(size[0]), int(size[1]))).tolist()
            H = lift_homography(Hm, np.asarray(K, dtype=np.float64), target - plane)
    return HomographyMapping(H, K, D)


class VisionPipeline:
    """Detector, calibration, tracker and event extractor for one table."""

    name = "vision"

    def __init__(self, spec: TableSpec, mapping: HomographyMapping, detector: Detector,
                 extractor_params: ExtractorParams | None = None, **tracker_options: Any) -> None:
        self.spec = spec
        self.mapping = mapping
        self.detector = detector
        self._extractor_params = extractor_params
        self._tracker_options = tracker_options
        self._covered = self._covered_fn()
        self.reset()

    @classmethod
    def create(cls, table: str, calibration: str | Path | dict[str, Any] | None,
               detector_kind: str = "classical") -> VisionPipeline:
        if table == "cards":  # cards make card events: their own detector and trick builder
            from tableref.vision.card_pipeline import CardPipeline

            return CardPipeline.create(table, calibration, detector_kind)
        spec = load_table(table)
        mapping = load_calibration(calibration)
        if mapping is None:
            raise UserError(f"analysing a {table} video needs a calibration: run `tableref calibrate` and pass --calibration")
        # A calibrated fixed camera gets the video detector (learned background, expected ball
        # size everywhere); the learned detector and tables it does not read go to make_detector.
        from tableref.vision.video_detector import VIDEO_TABLES, VideoDetector

        detector: Detector
        if detector_kind != "learned" and table in VIDEO_TABLES:
            detector = VideoDetector(table, mapping, spec)
        else:
            detector = make_detector(table, detector_kind, calibration=None)
        return cls(spec, mapping, detector)

    @classmethod
    def for_service(cls, table_kind: str, calibration: dict[str, Any] | None, source: Path | None) -> VisionPipeline:
        return cls.create(table_kind, calibration)

    def reset(self) -> None:
        """Start over (a looped clip, a reconnected stream): tracks, events and the detector's memory.

        A video detector keeps a background model of the empty cloth; after a jump in the footage
        that model describes another moment, so it is cleared too.
        """
        self.tracker = Tracker(self.spec, **self._tracker_options)
        self.extractor = EventExtractor(self.spec, self._extractor_params)
        detector_reset = getattr(self.detector, "reset", None)
        if callable(detector_reset):
            detector_reset()

    def step(self, image: NDArray[np.uint8], index: int, t: float) -> FrameResult:
        return self.track(with_table_mm(self.detector.detect(image), self.mapping), index, t)

    def track(self, detections: tuple[Detection, ...], index: int, t: float) -> FrameResult:
        """The tracker and event-extractor half of :meth:`step`, on one frame's detections (in
        table mm): a replay of recorded detections reruns only this half."""
        tracks = self.tracker.update(detections, t, index, covered=self._covered)
        events = tuple(self.extractor.update(tracks))
        positions = {
            tr.id: {"x": round(tr.x, 1), "y": round(tr.y, 1), "kind": _kind(tr.group), "label": tr.label,
                    "status": "fallen" if tr.group == "pin-fallen" else "on_table"}
            for tr in tracks.tracks if tr.status in (TrackStatus.VISIBLE, TrackStatus.MISSING)
        }
        return FrameResult(detections, tracks, events, positions)

    def _covered_fn(self) -> Callable[[float, float, float], bool] | None:
        """Whether a place (table mm, with a radius) is covered in the last frame, from a detector
        that can tell (the video detector's foreground); None from one that cannot."""
        covered = getattr(self.detector, "covered", None)
        if not callable(covered):
            return None
        mapping = self.mapping

        def at(x: float, y: float, r: float) -> bool:
            (px, py), (qx, qy) = mapping.to_image([(x, y), (x + r, y)])
            return bool(covered(float(px), float(py), math.hypot(qx - px, qy - py)))

        return at

    def process(self, image: NDArray[np.uint8], index: int, t: float) -> FrameResult:
        """The service's per-frame verb: it reads ``events`` and ``positions`` of the result."""
        return self.step(image, index, t)


def _kind(group: str) -> str:
    if group.startswith("pin"):
        return "pin"
    if group in ("cue", "solid", "stripe", "eight"):
        return "ball"
    return group
