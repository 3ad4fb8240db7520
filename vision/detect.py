"""The detector interface and the one canonical per-object detection type that later stages consume.

Every detector (classical now, learned later) returns :class:`Detection` records in image pixels,
with table millimetres filled in when a calibration is known; adapters from other formats belong
at the edge, never inside the tracker. Labels and groups follow DESIGN.md's command-line contract:

* pool: ``ball-0`` (the cue ball) to ``ball-15``; groups ``cue``, ``solid``, ``stripe``, ``eight``
* bar billiards: ``white``/``red`` (groups ``white``/``red``); pins ``pin-200``, ``pin-100``,
  ``pin-50-left``, ``pin-50-right`` with group ``pin-standing`` or ``pin-fallen``
* carrom: ``white``, ``black``, ``queen``, ``striker`` (label and group alike)

When an identity is unsure the object is still reported with a best guess and a lower score, so
that a tracker can fix the identity over time and recall is counted on objects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from tableref.errors import UserError

POOL_GROUPS = ("cue", "solid", "stripe", "eight")
BAR_BILLIARDS_GROUPS = ("white", "red", "pin-standing", "pin-fallen")
CARROM_GROUPS = ("white", "black", "queen", "striker")
PIN_LABELS = ("pin-200", "pin-100", "pin-50-left", "pin-50-right")
DETECTOR_KINDS = ("classical", "learned")


#: The pool cue ball's label (number 0): the only ball a player's cue strikes.
CUE_BALL_LABEL = "ball-0"
#: The objects a player strikes on the pool and carrom tables: the cue ball and the striker
#: (in bar billiards any ball may be played from the D, the red too).
PLAYED_LABELS = (CUE_BALL_LABEL, "striker")


def pool_group(number: int) -> str:
    """The group of pool ball ``number`` (0 the cue ball, 8 the black)."""
    if number == 0:
        return "cue"
    if number == 8:
        return "eight"
    return "solid" if number < 8 else "stripe"


@dataclass(frozen=True)
class Detection:
    """One object seen in one image.

    ``x``, ``y`` and ``radius`` are image pixels (the radius of a circle with the object's apparent
    area); ``score`` in [0, 1] is the detector's confidence that the object is there *and* carries
    this label. ``x_mm``/``y_mm`` are table millimetres (``None`` without a calibration), and
    ``radius_mm`` the radius there in millimetres (the pixel radius through the calibration's local
    scale): under a tilted camera a piece on the far side is imaged smaller than the same piece on
    the near side, so only millimetres compare sizes across the table.

    ``joined``: found as a part of a larger mass of change that the found objects do not explain
    (a hand holding a ball, an arm, a cue): the object may be a ball under a hand, or a knuckle.
    A tracker holds back a *new* object seen only this way until it is seen on its own (a ball put
    down is left by the hand; a knuckle goes with it).
    """

    label: str
    group: str
    x: float
    y: float
    radius: float
    score: float
    x_mm: float | None = None
    y_mm: float | None = None
    joined: bool = False
    radius_mm: float | None = None

    def __post_init__(self) -> None:
        for name in ("x", "y", "radius", "score"):
            v = getattr(self, name)
            if not math.isfinite(v):
                raise ValueError(f"Detection.{name} must be finite, got {v}")
        if self.radius <= 0:
            raise ValueError(f"Detection.radius must be positive, got {self.radius}")
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"Detection.score must be in [0, 1], got {self.score}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "label": self.label,
            "group": self.group,
            "x": round(self.x, 2),
            "y": round(self.y, 2),
            "radius": round(self.radius, 2),
            "score": round(self.score, 3),
        }
        if self.x_mm is not None and self.y_mm is not None:
            out["x_mm"] = round(self.x_mm, 1)
            out["y_mm"] = round(self.y_mm, 1)
        return out

    def box(self) -> tuple[float, float, float, float]:
        """Axis-aligned box (x0, y0, x1, y1) of the detection's circle."""
        return (self.x - self.radius, self.y - self.radius, self.x + self.radius, self.y + self.radius)


class Detector(Protocol):
    """Turns one BGR image into detections. Stateless between calls, so frames may be skipped."""

    table: str

    def detect(self, image: NDArray[np.uint8]) -> tuple[Detection, ...]: ...


class PixelToTable(Protocol):
    """Anything that maps image pixels to table millimetres (a calibration does)."""

    def to_table(self, points_px: Sequence[tuple[float, float]] | NDArray[np.float64]) -> NDArray[np.float64]: ...


def with_table_mm(detections: Sequence[Detection], mapping: PixelToTable) -> tuple[Detection, ...]:
    """Copies of ``detections`` with ``x_mm``/``y_mm`` and ``radius_mm`` from ``mapping`` (inputs
    are not changed). The radius goes through the mapping's local scale: the square root of the
    area a pixel covers there, from where the centre and a pixel's step right and down map to."""
    if not detections:
        return ()
    n = len(detections)
    px = [(d.x, d.y) for d in detections]
    pts = mapping.to_table(px + [(x + 1.0, y) for x, y in px] + [(x, y + 1.0) for x, y in px])
    c, ex, ey = pts[:n], pts[n:2 * n] - pts[:n], pts[2 * n:] - pts[:n]
    scale = np.sqrt(np.abs(ex[:, 0] * ey[:, 1] - ex[:, 1] * ey[:, 0]))
    return tuple(
        replace(d, x_mm=float(p[0]), y_mm=float(p[1]), radius_mm=float(d.radius * k) if math.isfinite(k) else None)
        for d, p, k in zip(detections, c, scale, strict=True)
    )


def make_detector(table: str, kind: str = "classical", calibration: Any = None) -> Detector:
    """The detector of ``kind`` for ``table``; ``calibration`` (a :class:`Calibration`) is optional.

    ``classical`` is the default for the ball tables; the card table always uses the card reader
    (``vision/cards.py``), and ``learned`` the ONNX model (``vision/learned.py``). Raises
    ``UserError`` for a table or kind that has no detector (yet).
    """
    if kind not in DETECTOR_KINDS:
        raise UserError(f"unknown detector {kind!r}; accepted: {', '.join(DETECTOR_KINDS)}")
    if table == "cards":
        try:
            from tableref.vision.cards import CardDetector
        except ImportError:
            raise UserError("card reading is not available in this build; the ball tables are") from None
        card_detector: Detector = CardDetector(calibration=calibration)
        return card_detector
    if kind == "learned":
        try:
            from tableref.vision.learned import LearnedDetector
        except ImportError:
            raise UserError("the learned detector is not available in this build; use --detector classical") from None
        learned: Detector = LearnedDetector(table, calibration=calibration)
        return learned
    from tableref.vision.classical import ClassicalDetector

    return ClassicalDetector(table, calibration=calibration)


# -- scoring against labelled boxes (benchmarks and tests) ---------------------------------------

Box = tuple[float, float, float, float]


def box_iou(a: Box, b: Box) -> float:
    """Intersection over union of two (x0, y0, x1, y1) boxes."""
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def match_boxes(predicted: Sequence[Box], truth: Sequence[Box], min_iou: float = 0.5) -> list[tuple[int, int]]:
    """Greedy one-to-one matching, best IoU first; returns (predicted index, truth index) pairs."""
    pairs = [
        (box_iou(p, t), i, j)
        for i, p in enumerate(predicted)
        for j, t in enumerate(truth)
    ]
    pairs = [q for q in pairs if q[0] >= min_iou]
    pairs.sort(reverse=True)
    used_p: set[int] = set()
    used_t: set[int] = set()
    out = []
    for _, i, j in pairs:
        if i in used_p or j in used_t:
            continue
        used_p.add(i)
        used_t.add(j)
        out.append((i, j))
    return out
