"""The learned detector: a small YOLO network, shipped as ONNX, run with onnxruntime (no torch).

Why a second detector: the classical one reads colours and circle sizes, which breaks where a
venue's light, cloth or camera differs from what its thresholds expect, and it cannot see a pin.
This one was trained on rendered frames of every ball table under wide randomisation (see
``scripts/build_dataset.py`` and ``models/README.md``) plus real photographs, and plugs in behind
the same :class:`~tableref.vision.detect.Detector` protocol.

One call per frame, no state kept between calls. The stages:

1. letterbox the frame to the model's input (long side ``input_size``, sides padded to a
   multiple of the network's stride, so a 1280x720 frame costs 768x432 and not 768x768);
2. run the network once: per anchor a box and one sigmoid score per class;
3. keep the classes of this table only, then class-agnostic non-maximum suppression, because one
   object never carries two labels;
4. give each box a label: a number or a piece used once per table (one cue ball, one queen, one
   red) goes to the box that is surest of it, the others take their next best; a real photo's
   generic ``ball`` takes its best identity at a lower score (see :func:`assign_labels`);
5. back to image pixels; table millimetres and pin names when a calibration is given.

The class list is read from the model file's metadata and matched by *name*, so a retrained model
with a different class order still maps to the right labels.
"""

from __future__ import annotations

import ast
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.errors import UserError
from tableref.vision.detect import Detection, pool_group, with_table_mm

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]

#: Every class the network knows, in the order the shipped model was trained with.
GENERIC_BALL = "ball"
POOL_CLASSES = tuple(f"ball-{n}" for n in range(16))
BAR_CLASSES = ("bb-white", "bb-red", "pin-standing", "pin-fallen")
CARROM_CLASSES = ("carrom-white", "carrom-black", "queen", "striker")
CLASS_NAMES: tuple[str, ...] = (GENERIC_BALL, *POOL_CLASSES, *BAR_CLASSES, *CARROM_CLASSES)

#: The classes a detection on each table may carry (the rest of the network's output is ignored there).
TABLE_CLASSES: dict[str, tuple[str, ...]] = {
    "pool": (GENERIC_BALL, *POOL_CLASSES),
    "bar-billiards": (GENERIC_BALL, *BAR_CLASSES),
    "carrom": CARROM_CLASSES,
}
#: Classes that exist once on a table: the second box claiming one takes its next best class.
UNIQUE_CLASSES = frozenset((*POOL_CLASSES, "bb-red", "queen", "striker"))

MODEL_ENV = "TABLEREF_DETECTOR_MODEL"
#: The shipped model: the CPU recipe's (models/README.md); a GPU-trained file can replace it or be named by the env.
DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "tableref-balls.onnx"
DEFAULT_INPUT_SIZE = 768
STRIDE = 32
#: A box whose class is only the generic ``ball`` keeps its best identity at this fraction of its score.
GENERIC_IDENTITY_WEIGHT = 0.75
#: A box pushed off its best class (the number was taken) keeps at most this fraction.
OVERFLOW_WEIGHT = 0.3


def default_model_path() -> Path:
    """The shipped model, or the file named by ``$TABLEREF_DETECTOR_MODEL``."""
    env = os.environ.get(MODEL_ENV)
    return Path(env) if env else DEFAULT_MODEL


def label_and_group(table: str, class_name: str) -> tuple[str, str]:
    """DESIGN.md's label and group for a network class on ``table`` (pins are named later)."""
    if class_name.startswith("ball-"):
        return class_name, pool_group(int(class_name[5:]))
    if class_name in ("bb-white", "bb-red"):
        name = class_name[3:]
        return name, name
    if class_name in ("pin-standing", "pin-fallen"):
        return "pin", class_name
    if class_name.startswith("carrom-"):
        name = class_name[7:]
        return name, name
    if class_name in ("queen", "striker"):
        return class_name, class_name
    raise ValueError(f"class {class_name!r} has no label on table {table!r}")


def class_of(table: str, label: str, group: str) -> str:
    """The network class a :class:`Detection` of ``table`` stands for (the inverse of :func:`label_and_group`).

    Used to score any detector, classical or learned, against the rendered truth.
    """
    if table == "pool":
        return label if label in POOL_CLASSES else GENERIC_BALL
    if table == "bar-billiards":
        if group in ("pin-standing", "pin-fallen"):
            return group
        return "bb-red" if label == "red" else "bb-white"
    if table == "carrom":
        if label in ("queen", "striker"):
            return label
        return "carrom-black" if label == "black" else "carrom-white"
    raise ValueError(f"table {table!r} has no ball classes; accepted: {', '.join(TABLE_CLASSES)}")


# -- pre- and post-processing (pure numpy, tested without a model) -----------------------------------

@dataclass(frozen=True)
class Letterbox:
    """How an image was fitted into the network input: ``input = image * scale + (pad_x, pad_y)``."""

    scale: float
    pad_x: float
    pad_y: float
    width: int  # network input width and height (multiples of the stride)
    height: int

    def to_image(self, boxes: F32) -> F32:
        """Boxes (x0, y0, x1, y1) from input pixels back to image pixels."""
        out = boxes.astype(np.float32, copy=True)
        out[:, [0, 2]] = (out[:, [0, 2]] - self.pad_x) / self.scale
        out[:, [1, 3]] = (out[:, [1, 3]] - self.pad_y) / self.scale
        return out


def letterbox_shape(width: int, height: int, size: int, stride: int = STRIDE) -> Letterbox:
    """Scale so the long side is ``size``; pad each side up to a multiple of ``stride``, centred."""
    if width <= 0 or height <= 0:
        raise UserError(f"image has no pixels ({width}x{height})")
    scale = size / max(width, height)
    nw, nh = max(1, round(width * scale)), max(1, round(height * scale))
    iw, ih = math.ceil(nw / stride) * stride, math.ceil(nh / stride) * stride
    return Letterbox(scale, (iw - nw) / 2, (ih - nh) / 2, iw, ih)


def letterbox(image: U8, size: int, stride: int = STRIDE) -> tuple[F32, Letterbox]:
    """The network's input tensor (1, 3, H, W), RGB in [0, 1], and how it maps back to ``image``.

    Downscaling uses area averaging, as the training frames were made (a 1280x720 frame shrunk
    with bilinear sampling aliases thin stripes and small pins).
    """
    h, w = image.shape[:2]
    box = letterbox_shape(w, h, size, stride)
    nw, nh = round(w * box.scale), round(h * box.scale)
    interp = cv2.INTER_AREA if box.scale < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(image, (nw, nh), interpolation=interp) if (nw, nh) != (w, h) else image
    top, left = int(round(box.pad_y - 0.1)), int(round(box.pad_x - 0.1))
    padded = cv2.copyMakeBorder(resized, top, box.height - nh - top, left, box.width - nw - left,
                                cv2.BORDER_CONSTANT, value=(114, 114, 114))
    blob = cv2.dnn.blobFromImage(padded, 1.0 / 255.0, swapRB=True)
    return np.asarray(blob, dtype=np.float32), replace(box, pad_x=float(left), pad_y=float(top))


@dataclass(frozen=True)
class RawBoxes:
    """The network's kept boxes in image pixels, before labelling.

    ``scores`` has one column per name in ``classes`` (this table's classes only); ``presence``
    is what the boxes were kept by (see :func:`decode`).
    """

    boxes: F32  # (n, 4) x0, y0, x1, y1
    scores: F32  # (n, k)
    classes: tuple[str, ...]
    presence: F32 | None = None  # (n,)

    def __len__(self) -> int:
        return int(self.boxes.shape[0])


def decode(output: F32, class_index: Sequence[int], classes: tuple[str, ...], box: Letterbox,
           min_score: float, iou: float, max_boxes: int = 300) -> RawBoxes:
    """YOLO head output (1, 4 + nc, anchors) -> boxes kept by presence and non-maximum suppression.

    *Presence* is the sum of the two best class scores (at most 1), not the best alone: the head
    scores each class on its own, so a ball the network is sure of but torn between two numbers
    (the 3 or the 11 under a glare) has two middling scores, and would be lost at a threshold on
    either of them. Background, low on every class, stays low.
    """
    pred = np.asarray(output)[0]
    scores = pred[4:][list(class_index)]  # (k, anchors)
    if scores.shape[0] > 1:
        top2 = np.partition(scores, scores.shape[0] - 2, axis=0)[-2:]
        best = np.minimum(1.0, top2.sum(axis=0))
    else:
        best = scores[0]
    keep = np.flatnonzero(best >= min_score)
    if keep.size == 0:
        return RawBoxes(np.zeros((0, 4), np.float32), np.zeros((0, len(classes)), np.float32), classes)
    if keep.size > 4 * max_boxes:
        keep = keep[np.argsort(-best[keep])[: 4 * max_boxes]]
    cx, cy, w, h = pred[0, keep], pred[1, keep], pred[2, keep], pred[3, keep]
    xywh = np.stack([cx - w / 2, cy - h / 2, w, h], axis=1)
    chosen = cv2.dnn.NMSBoxes(xywh.tolist(), best[keep].tolist(), float(min_score), float(iou), top_k=max_boxes)
    idx = keep[np.asarray(chosen, dtype=np.int64).reshape(-1)]
    boxes = np.stack([pred[0, idx] - pred[2, idx] / 2, pred[1, idx] - pred[3, idx] / 2,
                      pred[0, idx] + pred[2, idx] / 2, pred[1, idx] + pred[3, idx] / 2], axis=1)
    return RawBoxes(box.to_image(boxes.astype(np.float32)), scores[:, idx].T.astype(np.float32), classes,
                    best[idx].astype(np.float32))


def assign_labels(raw: RawBoxes) -> list[tuple[str, float]]:
    """One class and score per box: each unique class (a pool number, the queen) at most once.

    Pairs (box, class) are taken best score first, so the box surest of the 9 gets the 9 and a
    second box that also looks like the 9 takes its next best number at that number's (lower)
    score. A box whose best class is the generic ``ball`` (a real photo: no identity learnt)
    keeps its best identity at ``GENERIC_IDENTITY_WEIGHT`` of its ball score. A box left with no
    free class keeps its best one at ``OVERFLOW_WEIGHT`` of the score.
    """
    names = [c for c in raw.classes if c != GENERIC_BALL]
    if not names or len(raw) == 0:
        return []
    cols = [raw.classes.index(c) for c in names]
    ident = raw.scores[:, cols]
    generic = (raw.scores[:, raw.classes.index(GENERIC_BALL)] if GENERIC_BALL in raw.classes
               else np.zeros(len(raw), np.float32))
    n = len(raw)
    out: list[tuple[str, float] | None] = [None] * n
    taken: set[str] = set()
    order = np.dstack(np.unravel_index(np.argsort(-ident, axis=None), ident.shape))[0]
    left = n
    for i, j in order:
        if out[i] is not None:
            continue
        name = names[j]
        if name in UNIQUE_CLASSES and name in taken:
            continue
        score = float(ident[i, j])
        if generic[i] > ident[i].max():
            score = max(score, GENERIC_IDENTITY_WEIGHT * float(generic[i]))
        out[i] = (name, score)
        if name in UNIQUE_CLASSES:
            taken.add(name)
        left -= 1
        if left == 0:
            break
    result: list[tuple[str, float]] = []
    for i, item in enumerate(out):
        if item is None:
            j = int(np.argmax(ident[i]))
            item = (names[j], OVERFLOW_WEIGHT * float(max(ident[i, j], generic[i])))
        result.append((item[0], float(min(1.0, max(0.0, item[1])))))
    return result


def _pin_colour(image: U8, box: F32) -> str:
    """``black``, ``red`` or ``white``: the pin's colour read from the middle of its box."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    r = max(1, min(x1 - x0, y1 - y0) // 4)
    patch = image[max(0, cy - r): cy + r + 1, max(0, cx - r): cx + r + 1]
    if patch.size == 0:
        return "white"
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    v, s, h = float(np.median(hsv[:, 2])), float(np.median(hsv[:, 1])), float(np.median(hsv[:, 0]))
    if v < 70:
        return "black"
    if s > 110 and (h < 12 or h > 165):
        return "red"
    return "white"


_PIN_BY_COLOUR = {"black": "pin-200", "red": "pin-100"}


def name_pins(dets: list[Detection], image: U8, boxes: Sequence[F32], spec_pins: Sequence[Any],
              to_table: Any = None) -> list[Detection]:
    """Pins are named by the hole they guard (DESIGN.md): the nearest pin spot when a calibration
    maps pixels to millimetres; without one, by colour as the rule book sets them up (black on the
    200, red on the 100, whites on the 50s, left before right in the image) at a lower score,
    since players may swap the black and red pins.
    """
    pins = [i for i, d in enumerate(dets) if d.label == "pin"]
    if not pins:
        return dets
    out = list(dets)
    if to_table is not None and spec_pins:
        mm = np.asarray(to_table([(dets[i].x, dets[i].y) for i in pins]), dtype=np.float64).reshape(-1, 2)
        spots = np.array([[p.x, p.y] for p in spec_pins], dtype=np.float64)
        cost = np.linalg.norm(mm[:, None, :] - spots[None, :, :], axis=2)
        used: set[int] = set()
        for flat in np.argsort(cost, axis=None):
            a, b = divmod(int(flat), len(spots))
            if out[pins[a]].label != "pin" or b in used:
                continue
            out[pins[a]] = replace(out[pins[a]], label=spec_pins[b].id)
            used.add(b)
        for a in pins:
            if out[a].label == "pin":  # more pins seen than the table has: nearest spot, lower score
                b = int(np.argmin(cost[pins.index(a)]))
                out[a] = replace(out[a], label=spec_pins[b].id, score=out[a].score * OVERFLOW_WEIGHT)
        return out
    colours = {i: _pin_colour(image, boxes[i]) for i in pins}
    whites = sorted((i for i in pins if colours[i] == "white"), key=lambda i: dets[i].x)
    for i in pins:
        colour = colours[i]
        if colour in _PIN_BY_COLOUR:
            label = _PIN_BY_COLOUR[colour]
        else:
            label = "pin-50-left" if whites.index(i) % 2 == 0 else "pin-50-right"
        out[i] = replace(out[i], label=label, score=out[i].score * 0.8)
    return out


def _names_from_metadata(meta: Mapping[str, str]) -> tuple[str, ...]:
    raw = meta.get("names")
    if raw is None:
        return CLASS_NAMES
    parsed = ast.literal_eval(raw)
    if isinstance(parsed, dict):
        return tuple(str(parsed[k]) for k in sorted(parsed))
    return tuple(str(v) for v in parsed)


class LearnedDetector:
    """Detector for pool, bar billiards and carrom from the shipped ONNX model (see the module docstring).

    ``model``: an ``.onnx`` file (default :func:`default_model_path`). ``input_size``: the long
    side the frame is scaled to (default: the size the model was trained at, from its metadata;
    smaller is faster and loses small pins first). ``min_score``: boxes below it are dropped
    (higher: fewer false detections, fewer objects found). ``iou``: overlap above which two boxes
    are one object. ``threads``: CPU threads for the network (1 keeps the other stages' cores free).
    """

    def __init__(self, table: str, calibration: Any = None, *, model: str | Path | None = None,
                 input_size: int | None = None, min_score: float = 0.3, iou: float = 0.5, threads: int = 1) -> None:
        if table not in TABLE_CLASSES:
            raise UserError(f"the learned detector reads balls and pieces on {', '.join(TABLE_CLASSES)}; "
                            f"{table!r} is not one of them")
        if calibration is not None and getattr(calibration, "table", table) != table:
            raise UserError(f"the calibration is for table {calibration.table!r} but the table is {table!r}; "
                            "use a calibration made for this table")
        if not 0.0 < min_score < 1.0 or not 0.0 < iou < 1.0:
            raise UserError(f"min_score and iou must be between 0 and 1, got {min_score} and {iou}")
        try:
            import onnxruntime as ort
        except ImportError as exc:  # pragma: no cover - the learned extra installs it
            raise UserError("the learned detector needs onnxruntime: pip install 'tableref[learned]'") from exc
        path = Path(model) if model is not None else default_model_path()
        if not path.is_file():
            raise UserError(f"no detector model at {path}; set ${MODEL_ENV} or use --detector classical")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = max(1, int(threads))
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own error types for a bad file
            raise UserError(f"cannot load detector model {path}: {exc}") from exc
        meta = dict(self.session.get_modelmeta().custom_metadata_map)
        self.model_classes = _names_from_metadata(meta)
        self.table = table
        self.calibration = calibration
        self.classes = tuple(c for c in TABLE_CLASSES[table] if c in self.model_classes)
        if not self.classes:
            raise UserError(f"model {path} has no classes for table {table!r} (it knows {', '.join(self.model_classes)})")
        self._index = [self.model_classes.index(c) for c in self.classes]
        trained = ast.literal_eval(meta["imgsz"]) if "imgsz" in meta else [DEFAULT_INPUT_SIZE]
        self.stride = int(meta.get("stride", STRIDE))
        self.input_size = int(input_size or max(trained))
        if self.input_size < self.stride or self.input_size % self.stride:
            raise UserError(f"input_size must be a multiple of {self.stride}, got {self.input_size}")
        self.min_score = float(min_score)
        self.iou = float(iou)
        self._input = self.session.get_inputs()[0].name
        self._spec_pins: tuple[Any, ...] = ()
        if table == "bar-billiards":
            spec = getattr(calibration, "spec", None)
            if spec is None:
                from tableref.calibration.spec import load_table

                spec = load_table(table)
            self._spec_pins = tuple(spec.pins)

    def _to_table(self) -> Any:
        cal = self.calibration
        if cal is None:
            return None
        mapping = getattr(cal, "mapping", cal)
        return getattr(mapping, "to_table", None)

    def raw(self, image: U8, min_score: float | None = None) -> RawBoxes:
        """The network's boxes in image pixels with this table's class scores (before labelling)."""
        if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise UserError("expected a colour (BGR, 8-bit) image")
        blob, box = letterbox(image, self.input_size, self.stride)
        (out,) = self.session.run(None, {self._input: blob})[:1]
        thr = self.min_score if min_score is None else float(min_score)
        return decode(out, self._index, self.classes, box, thr, self.iou)

    def detect(self, image: U8) -> tuple[Detection, ...]:
        return self.detect_with_threshold(image, self.min_score)

    def detect_with_threshold(self, image: U8, min_score: float) -> tuple[Detection, ...]:
        """:meth:`detect` at another score floor (a benchmark draws the precision-recall curve from 0.01)."""
        raw = self.raw(image, min_score)
        dets: list[Detection] = []
        boxes: list[F32] = []
        for (name, score), b in zip(assign_labels(raw), raw.boxes, strict=True):
            label, group = label_and_group(self.table, name)
            w, h = float(b[2] - b[0]), float(b[3] - b[1])
            if w <= 0 or h <= 0:
                continue
            dets.append(Detection(label, group, float(b[0] + b[2]) / 2, float(b[1] + b[3]) / 2,
                                  math.sqrt(w * h) / 2, score))
            boxes.append(b)
        to_table = self._to_table()
        if self.table == "bar-billiards":
            dets = name_pins(dets, image, boxes, self._spec_pins, to_table)
        if to_table is not None and dets:
            mapping = getattr(self.calibration, "mapping", self.calibration)
            return with_table_mm(dets, mapping)
        return tuple(dets)


__all__ = [
    "CLASS_NAMES",
    "TABLE_CLASSES",
    "LearnedDetector",
    "Letterbox",
    "RawBoxes",
    "assign_labels",
    "class_of",
    "decode",
    "default_model_path",
    "label_and_group",
    "letterbox",
    "letterbox_shape",
]
