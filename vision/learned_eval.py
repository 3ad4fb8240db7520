"""Scoring detections against labelled objects: mAP50, recall, false positives, position error.

Used by ``benchmarks/compare_detectors.py`` (both detectors, side by side) and by the tests, so the
figures in ``models/README.md`` come from one definition:

* Boxes are compared as *circle boxes*: a box becomes the square around the circle of the same
  area (centre kept, radius ``sqrt(w * h) / 2``). A :class:`Detection` only carries a centre and a
  radius, so this is the box every detector can be scored on, and a tilted camera's slightly oval
  ball or a lying pin is judged by where it is and how big, not by its outline.
* ``AP50`` per class: detections of that class, best score first, each matched to the unmatched
  labelled object of that class it overlaps most, a hit at IoU >= 0.5; precision interpolated at
  101 recall points (the COCO convention, as ultralytics reports). ``mAP50`` is the mean over the
  classes that have labelled objects.
* At the operating point (the detector's own threshold): *recall* counts labelled objects matched
  by any detection regardless of label, *false positives per frame* the detections matching
  nothing, *identity* the share of matched objects that also carry the right class, and the
  *position error* is the distance from a matched detection's centre to the object's true centre.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from tableref.vision.detect import Box, box_iou, match_boxes

IOU = 0.5


def circle_box(box: Box) -> Box:
    """The square around the circle with the box's area and centre (see the module docstring)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = math.sqrt(max(0.0, x1 - x0) * max(0.0, y1 - y0)) / 2
    return (cx - r, cy - r, cx + r, cy + r)


@dataclass(frozen=True)
class Labelled:
    """One labelled object: its class, its box and the point its position is judged at (pixels)."""

    cls: str
    box: Box
    centre: tuple[float, float]


@dataclass(frozen=True)
class Found:
    """One detection to score: class, circle box (centre +- radius), score."""

    cls: str
    box: Box
    score: float

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)


def average_precision(scores: Sequence[float], hits: Sequence[bool], n_truth: int) -> float:
    """Area under the precision-recall curve, precision made monotone, sampled at 101 recall points."""
    if n_truth == 0:
        return float("nan")
    if not scores:
        return 0.0
    order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")
    tp = np.asarray(hits, dtype=np.float64)[order]
    ctp, cfp = np.cumsum(tp), np.cumsum(1.0 - tp)
    recall = ctp / n_truth
    precision = ctp / np.maximum(ctp + cfp, 1e-12)
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    points = np.linspace(0, 1, 101)
    idx = np.searchsorted(recall, points, side="left")
    return float(np.mean([envelope[i] if i < len(envelope) else 0.0 for i in idx]))


@dataclass
class Scorer:
    """Accumulates frames; :meth:`figures` gives the totals. ``class_aware=False`` scores one class."""

    threshold: float
    class_aware: bool = True
    frames: int = 0
    truth_count: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    ap_items: dict[str, list[tuple[float, bool]]] = field(default_factory=lambda: defaultdict(list))
    n_truth: int = 0
    matched: int = 0
    same_class: int = 0
    false_pos: int = 0
    errors_px: list[float] = field(default_factory=list)
    errors_mm: list[float] = field(default_factory=list)

    def add(self, truth: Sequence[Labelled], found: Sequence[Found], kept: Sequence[Found] | None = None,
            to_mm: Callable[[Sequence[tuple[float, float]]], np.ndarray] | None = None) -> None:
        """One frame. ``found``: every detection down to a low score (the AP curve); ``kept``: what
        the detector reports at its operating point (default: ``found`` at ``threshold`` or more).
        ``to_mm`` maps image pixels to table millimetres when the frame's camera is known."""
        self.frames += 1
        truth = [Labelled(t.cls if self.class_aware else "ball", circle_box(t.box), t.centre) for t in truth]
        found = [Found(f.cls if self.class_aware else "ball", f.box, f.score) for f in found]
        kept = ([f for f in found if f.score >= self.threshold] if kept is None
                else [Found(f.cls if self.class_aware else "ball", f.box, f.score) for f in kept])
        for t in truth:
            self.truth_count[t.cls] += 1
        by_class: dict[str, list[int]] = defaultdict(list)
        for i, f in enumerate(found):
            by_class[f.cls].append(i)
        for cls, idx in by_class.items():
            cand = [j for j, t in enumerate(truth) if t.cls == cls]
            used: set[int] = set()
            for i in sorted(idx, key=lambda i: -found[i].score):
                best, best_iou = -1, IOU
                for j in cand:
                    if j in used:
                        continue
                    iou = box_iou(found[i].box, truth[j].box)
                    if iou >= best_iou:
                        best, best_iou = j, iou
                if best >= 0:
                    used.add(best)
                self.ap_items[cls].append((found[i].score, best >= 0))
        pairs = match_boxes([f.box for f in kept], [t.box for t in truth], IOU)
        self.n_truth += len(truth)
        self.matched += len(pairs)
        self.false_pos += len(kept) - len(pairs)
        for i, j in pairs:
            self.same_class += int(kept[i].cls == truth[j].cls)
            (fx, fy), (tx, ty) = kept[i].centre, truth[j].centre
            self.errors_px.append(math.hypot(fx - tx, fy - ty))
        if to_mm is not None and pairs:
            a = np.asarray(to_mm([kept[i].centre for i, _ in pairs]), dtype=np.float64).reshape(-1, 2)
            b = np.asarray(to_mm([truth[j].centre for _, j in pairs]), dtype=np.float64).reshape(-1, 2)
            self.errors_mm.extend(float(v) for v in np.linalg.norm(a - b, axis=1))

    @staticmethod
    def _median(v: Sequence[float]) -> float:
        return float(np.median(v)) if v else float("nan")

    def per_class_ap(self) -> dict[str, float]:
        out = {}
        for cls, n in sorted(self.truth_count.items()):
            items = self.ap_items.get(cls, [])
            out[cls] = average_precision([s for s, _ in items], [h for _, h in items], n)
        return out

    def figures(self) -> dict[str, float]:
        aps = [v for v in self.per_class_ap().values() if not math.isnan(v)]
        return {
            "frames": self.frames,
            "objects": self.n_truth,
            "mAP50": float(np.mean(aps)) if aps else float("nan"),
            "recall": self.matched / self.n_truth if self.n_truth else float("nan"),
            "identity": self.same_class / self.matched if self.matched else float("nan"),
            "false_pos_per_frame": self.false_pos / self.frames if self.frames else float("nan"),
            "position_px_median": self._median(self.errors_px),
            "position_px_p90": float(np.percentile(self.errors_px, 90)) if self.errors_px else float("nan"),
            "position_mm_median": self._median(self.errors_mm),
        }
