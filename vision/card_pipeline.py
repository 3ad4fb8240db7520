"""The camera pipeline for the card table: image -> cards -> tricks -> card events.

``CardPipeline.step(image, index, t) -> FrameResult`` is the same per-frame verb as
:class:`~tableref.vision.pipeline.VisionPipeline` (of which it is the card table's kind), so
``tableref analyze --table cards`` and the service run it unchanged; ``process`` is its alias for
the service. The card table needs a calibration: the seats, the board and the play spots are in
table millimetres.

Cards lying exactly as in the previous frame keep their reading (``reread_every`` frames all are
read afresh), so a still board costs little more than finding the cards.

A detector misses a card now and then, sometimes for a second or more (a neighbour's edge merging
with its outline, a glare). :class:`PresenceCheck` answers the trick builder's question about each
card not reported in a frame: does the image where it lay still look as it looked when last
seen? If so it is still there (no new evidence of its identity, only of its presence); a hand
over it or the cloth where it was are not it.

Time comes in with each frame; nothing here reads the clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.spec import TableSpec, load_table
from tableref.errors import UserError
from tableref.vision.cards import CardDetector, as_detection
from tableref.vision.cards_read import CardObservation
from tableref.vision.detect import DETECTOR_KINDS
from tableref.vision.pipeline import FrameResult, HomographyMapping, VisionPipeline, load_calibration
from tableref.vision.tricks import CardPlace, TrickBuilder

F32 = NDArray[np.float32]
#: Resolution of the top-down view the cards are searched in: a pixel a millimetre, finer than a
#: venue camera's own (about half a pixel a millimetre over a 1 m table at 720p). At the camera's
#: own resolution the red pips and indices of a lone heart or diamond break its outline and the
#: card is missed for seconds at a time; at 0.75 a lone ace of hearts still was; at 1.0 cards are
#: found in 95-97% of the frames they lie in, and their outlines are tight enough to read them
#: better (per-frame readings right 0.77 against 0.54 on one clip), for about half the speed.
SEARCH_PX_PER_MM = 1.0


class PresenceCheck:
    """How a card looked when the detector last saw it, compared with the image at that place now."""

    def __init__(self, mapping: HomographyMapping, grid: tuple[int, int] = (12, 16), inset: float = 0.1,
                 max_diff: float = 14.0) -> None:
        """``grid``: samples across and along the card (about the camera's resolution of a card; finer
        costs more and adds nothing). ``inset``: the share of each side left out, so a card shifted
        by a millimetre or two still matches. ``max_diff``: the mean absolute difference (grey
        levels, per channel) under which it is the same card lying still; image noise and video
        compression stay well under it, a hand or the cloth in its place far over it.
        """
        self.mapping = mapping
        self.max_diff = max_diff
        v, u = np.meshgrid(np.linspace(inset, 1.0 - inset, grid[1]), np.linspace(inset, 1.0 - inset, grid[0]),
                           indexing="ij")
        # bilinear weights of the four corners for every sample point
        self._weights = np.stack([(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v], axis=-1).reshape(-1, 4)
        self._shape = (grid[1], grid[0])
        self._templates: dict[int, F32] = {}

    def sample(self, image: NDArray[np.uint8], corners_mm: NDArray[np.float64]) -> F32 | None:
        """The card's face as the camera sees it, on a fixed grid (None when it is outside the image)."""
        pts_px = self.mapping.to_image(self._weights @ np.asarray(corners_mm, np.float64).reshape(4, 2))
        h, w = image.shape[:2]
        if not (np.all(pts_px >= 0) and np.all(pts_px[:, 0] <= w - 1) and np.all(pts_px[:, 1] <= h - 1)):
            return None
        mx = pts_px[:, 0].reshape(self._shape).astype(np.float32)
        my = pts_px[:, 1].reshape(self._shape).astype(np.float32)
        return np.asarray(cv2.remap(image, mx, my, cv2.INTER_LINEAR), np.float32)

    def remember(self, image: NDArray[np.uint8], places: Sequence[CardPlace], frame: int) -> None:
        """Keep the look of every card the detector saw this frame; forget cards no longer followed."""
        keep: dict[int, F32] = {}
        for p in places:
            if p.seen_frame == frame and p.corners_mm is not None:
                patch = self.sample(image, p.corners_mm)
                if patch is not None:
                    keep[p.key] = patch
                    continue
            if p.key in self._templates:
                keep[p.key] = self._templates[p.key]
        self._templates = keep

    def still_there(self, image: NDArray[np.uint8], place: CardPlace) -> bool:
        template = self._templates.get(place.key)
        if template is None or place.corners_mm is None:
            return False
        patch = self.sample(image, place.corners_mm)
        return patch is not None and float(np.mean(np.abs(patch - template))) < self.max_diff


def board_region(spec: TableSpec, margin_mm: float = 130.0) -> tuple[float, float, float, float]:
    """Where play happens: the board with room for the kick card and the hands laying cards.

    The pack and the dealt packets lie outside it, face down: they make no events.
    """
    (x0, y0), (x1, y1) = spec.board or ((0.0, 0.0), (spec.length_mm, spec.width_mm))
    return (max(0.0, x0 - margin_mm), max(0.0, y0 - margin_mm), min(spec.length_mm, x1 + margin_mm),
            min(spec.width_mm, y1 + margin_mm))


class CardPipeline(VisionPipeline):
    """Card detector, calibration and trick builder for one card table."""

    name = "vision"

    def __init__(self, spec: TableSpec, mapping: HomographyMapping, detector: CardDetector | None = None,
                 reread_every: int = 4, **builder_options: Any) -> None:
        """``reread_every``: read even unchanged cards afresh every this many frames (1: every frame);
        ``builder_options`` go to :class:`~tableref.vision.tricks.TrickBuilder`."""
        self.spec = spec
        self.mapping = mapping
        self.card_detector = detector or CardDetector(mapping, spec=spec, region=board_region(spec))
        self.detector = self.card_detector
        self.reread_every = max(1, int(reread_every))
        self._builder_options = builder_options
        self.reset()

    @classmethod
    def create(cls, table: str, calibration: str | Path | dict[str, Any] | None,
               detector_kind: str = "classical", model_dir: str | Path | None = None,
               px_per_mm: float = SEARCH_PX_PER_MM) -> CardPipeline:
        if table != "cards":
            raise UserError(f"the card pipeline is for the card table, not {table!r}")
        if detector_kind not in DETECTOR_KINDS:
            raise UserError(f"unknown detector {detector_kind!r}; accepted: {', '.join(DETECTOR_KINDS)}")
        mapping = load_calibration(calibration)
        if mapping is None:
            raise UserError("analysing a card-table video needs a calibration: run `tableref calibrate` and pass "
                            "--calibration (the seats and the board are in table millimetres)")
        spec = load_table(table)
        return cls(spec, mapping, CardDetector(mapping, spec=spec, model_dir=model_dir, region=board_region(spec),
                                               px_per_mm=px_per_mm))

    @classmethod
    def for_service(cls, table_kind: str, calibration: dict[str, Any] | None, source: Path | None) -> CardPipeline:
        return cls.create(table_kind, calibration)

    def reset(self) -> None:
        self.builder = TrickBuilder(self.spec, **self._builder_options)
        self.presence = PresenceCheck(self.mapping)
        self._last: tuple[CardObservation, ...] = ()

    def step(self, image: NDArray[np.uint8], index: int, t: float) -> FrameResult:
        # a card lying still keeps last frame's reading, but every few frames all are read afresh
        # (each frame's noise is new evidence)
        previous = self._last if index % self.reread_every else ()
        observations = self.card_detector.observe(image, previous)
        self._last = observations
        events, tracks = self.builder.update(observations, t, index,
                                             still_there=lambda place: self.presence.still_there(image, place))
        self.presence.remember(image, self.builder.places, index)
        detections = tuple(as_detection(o) for o in observations)
        positions = {
            tr.id: {"x": round(tr.x, 1), "y": round(tr.y, 1), "kind": "card", "label": tr.label, "status": "on_table"}
            for tr in tracks.on_table()
        }
        return FrameResult(detections, tracks, tuple(events), positions)

    def overlay(self, image: NDArray[np.uint8]) -> NDArray[np.uint8]:
        """``image`` with every followed card boxed and labelled (seat and trick for a played card, the
        kick marked) and the hand's state written across the top: for the annotated video."""
        out = image.copy()
        colours = {"kick": (0, 200, 255), "play": (0, 255, 0), "top": (255, 160, 0), None: (200, 200, 200)}
        for place in self.builder.places:
            if place.corners_mm is None:
                continue
            quad = self.mapping.to_image(place.corners_mm)
            colour = colours.get(place.role, colours[None])
            cv2.polylines(out, [np.round(quad).astype(np.int32)], True, colour, 2 if place.role else 1, cv2.LINE_AA)
            text = place.guess if place.role is None else place.label or "?"
            if place.role == "play" and place.seat:
                text += f" {place.seat}"
            elif place.role in ("kick", "top"):
                text += f" {place.role}"
            x, y = int(quad[:, 0].min()), int(quad[:, 1].min()) - 4
            cv2.putText(out, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3, cv2.LINE_AA)
            cv2.putText(out, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv2.LINE_AA)
        state = self.builder.state
        line = f"kick {' '.join(state.kicks) or '-'} | trick {state.trick}: " + (
            ", ".join(f"{seat} {card}" for seat, card in state.on_board) or "-")
        h = out.shape[0]
        cv2.putText(out, line, (16, h - 16), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(out, line, (16, h - 16), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1, cv2.LINE_AA)
        return out

    def process(self, image: NDArray[np.uint8], index: int, t: float) -> FrameResult:
        """The service's per-frame verb: it reads ``events`` and ``positions`` of the result."""
        return self.step(image, index, t)
