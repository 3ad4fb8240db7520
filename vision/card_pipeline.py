"""The camera pipeline for the card table: image -> cards -> tricks -> card events.

``CardPipeline.step(image, index, t) -> FrameResult`` is the same per-frame verb as
:class:`~tableref.vision.pipeline.VisionPipeline` (of which it is the card table's kind), so
``tableref analyze --table cards`` and the service run it unchanged; ``process`` is its alias for
the service. The card table needs a calibration: the seats, the board and the play spots are in
table millimetres.

Cards lying exactly as in the previous frame keep their reading (``reread_every`` frames all are
read afresh), so a still board costs little more than finding the cards.

Time comes in with each frame; nothing here reads the clock.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from tableref.calibration.spec import TableSpec, load_table
from tableref.errors import UserError
from tableref.vision.cards import CardDetector, as_detection
from tableref.vision.cards_read import CardObservation
from tableref.vision.detect import DETECTOR_KINDS
from tableref.vision.pipeline import FrameResult, HomographyMapping, VisionPipeline, load_calibration
from tableref.vision.tricks import TrickBuilder


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
               detector_kind: str = "classical", model_dir: str | Path | None = None) -> CardPipeline:
        if table != "cards":
            raise UserError(f"the card pipeline is for the card table, not {table!r}")
        if detector_kind not in DETECTOR_KINDS:
            raise UserError(f"unknown detector {detector_kind!r}; accepted: {', '.join(DETECTOR_KINDS)}")
        mapping = load_calibration(calibration)
        if mapping is None:
            raise UserError("analysing a card-table video needs a calibration: run `tableref calibrate` and pass "
                            "--calibration (the seats and the board are in table millimetres)")
        spec = load_table(table)
        return cls(spec, mapping, CardDetector(mapping, spec=spec, model_dir=model_dir, region=board_region(spec)))

    @classmethod
    def for_service(cls, table_kind: str, calibration: dict[str, Any] | None, source: Path | None) -> CardPipeline:
        return cls.create(table_kind, calibration)

    def reset(self) -> None:
        self.builder = TrickBuilder(self.spec, **self._builder_options)
        self._last: tuple[CardObservation, ...] = ()

    def step(self, image: NDArray[np.uint8], index: int, t: float) -> FrameResult:
        # a card lying still keeps last frame's reading, but every few frames all are read afresh
        # (each frame's noise is new evidence)
        previous = self._last if index % self.reread_every else ()
        observations = self.card_detector.observe(image, previous)
        self._last = observations
        events, tracks = self.builder.update(observations, t, index)
        detections = tuple(as_detection(o) for o in observations)
        positions = {
            tr.id: {"x": round(tr.x, 1), "y": round(tr.y, 1), "kind": "card", "label": tr.label, "status": "on_table"}
            for tr in tracks.on_table()
        }
        return FrameResult(detections, tracks, tuple(events), positions)

    def process(self, image: NDArray[np.uint8], index: int, t: float) -> FrameResult:
        """The service's per-frame verb: it reads ``events`` and ``positions`` of the result."""
        return self.step(image, index, t)
