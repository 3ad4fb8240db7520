"""Learned corner-index proposals: a small YOLO network that says *where* indices are.

Why: the glyph search of ``cards_index`` proposes an index only where it finds the rank and the
suit as separate blobs of ink. On the held-out real photos that failed for 0.045 of the cards
(glare, blur, a fan so dense the glyphs touch, gold ink on a dark deck), and no reader can read
what was never proposed. This network was trained (``scripts/train_cards_detector.py
--single-class``) on the corner boxes of the photos' training side as one class, ``index``, so it
learns what an index looks like as a whole instead of needing its two glyphs apart.

It only proposes. Its boxes become oriented proposals (:func:`proposals_from_boxes`) that the
corner-index CNN reads like any other, and the vote (``cards_read._vote``) lets the surest reading
of each print speak. A box is axis-aligned and says nothing of which way the index is turned, so
each box is offered four ways up along the image axes and four along the diagonals.

Runs through onnxruntime when installed, else OpenCV's DNN module (as the other card models); no
torch. The file's absence is not an error: reading falls back to the glyph search alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.errors import UserError
from tableref.vision.cards_cnn import load_onnx
from tableref.vision.cards_index import INDEX_ASPECT, IndexProposal
from tableref.vision.learned import letterbox

F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]

DEFAULT_PATH = Path(__file__).resolve().parents[1] / "models" / "cards" / "index_proposals.onnx"
#: The network's input: long side, in pixels (it was trained on 640 x 640 photos).
INPUT_SIZE = 640
#: Boxes at least this likely become proposals. Low on purpose: a box costs eight small crops, and
#: the reader, not the box, decides whether an index is there.
MIN_SCORE = 0.1
#: Boxes overlapping more than this (IoU) are one box.
NMS_IOU = 0.5
#: A proposal is this much taller than the box side it spans (as the glyph pairs' 1.25 x span).
GROW = 1.25
#: A box this much taller than wide (or wider than tall) holds an index along that side only: an
#: index is about 1.6 times taller than wide, and turned 45 degrees its box is square. Offering
#: a crop across a tall index only shows the reader a sight it never learnt, read with false
#: confidence.
UPRIGHT = 1.25
#: Ink this dark inside a box (median luminance of the box) means light print on a dark card.
DARK_CARD = 90


@dataclass(frozen=True)
class IndexBoxes:
    """The network's boxes in image pixels (x0, y0, x1, y1) and their scores, surest first."""

    boxes: F32
    scores: F32

    def __len__(self) -> int:
        return int(self.boxes.shape[0])


class IndexProposer:
    """The shipped proposer network (``models/cards/index_proposals.onnx``), loaded once."""

    def __init__(self, path: str | Path | None = None, *, backend: str = "auto", threads: int = 1,
                 input_size: int = INPUT_SIZE) -> None:
        self.path = Path(path) if path is not None else DEFAULT_PATH
        if not self.path.is_file():
            raise UserError(f"index proposer {str(self.path)!r} is missing; train it with "
                            "`python scripts/train_cards_detector.py --single-class`")
        self.input_size = input_size
        self._session, self._net, self.backend = load_onnx(self.path, backend, threads, "index proposer")
        if self._session is not None:
            self._input = self._session.get_inputs()[0].name

    def _forward(self, blob: F32) -> F32:
        if self._session is not None:
            return np.asarray(self._session.run(None, {self._input: blob})[0], np.float32)
        self._net.setInput(blob)
        return np.asarray(self._net.forward(), np.float32)

    def boxes(self, image: U8, min_score: float = MIN_SCORE) -> IndexBoxes:
        """Index boxes in ``image`` (BGR) scoring at least ``min_score``, after non-maximum suppression."""
        blob, fit = letterbox(image, self.input_size)
        out = self._forward(blob)[0]  # (4 + classes, anchors): cx, cy, w, h, then class scores
        score = out[4:].max(axis=0)
        keep = np.flatnonzero(score >= min_score)
        if keep.size == 0:
            return IndexBoxes(np.zeros((0, 4), np.float32), np.zeros(0, np.float32))
        cx, cy, w, h = out[0, keep], out[1, keep], out[2, keep], out[3, keep]
        rects = np.stack([cx - w / 2, cy - h / 2, w, h], axis=1)
        picked = np.asarray(cv2.dnn.NMSBoxes(rects.tolist(), score[keep].tolist(), min_score, NMS_IOU)).reshape(-1)
        if picked.size == 0:
            return IndexBoxes(np.zeros((0, 4), np.float32), np.zeros(0, np.float32))
        picked = picked[np.argsort(-score[keep][picked])]
        xyxy = np.concatenate([rects[picked, :2], rects[picked, :2] + rects[picked, 2:]], axis=1)
        return IndexBoxes(fit.to_image(xyxy), score[keep][picked].astype(np.float32))


def proposals_from_boxes(image: U8, boxes: IndexBoxes) -> list[IndexProposal]:
    """Eight oriented proposals per box: its index may be turned any way (see the module docstring).

    Along an image axis the index spans the box's side in that direction; along a diagonal an
    index of span ``s`` and breadth ``b`` fills a square box of side about ``(s + b) / sqrt 2``,
    so the span is taken as 0.9 of the box's longer side. The glyphs a proposal names (``top``,
    ``bottom``) are its upper and lower halves, as for a single long glyph in ``cards_index``.
    """
    grey = image.min(axis=2) if image.ndim == 3 else image
    out: list[IndexProposal] = []
    for x0, y0, x1, y1 in boxes.boxes.astype(np.float64):
        bw, bh = max(float(x1 - x0), 1.0), max(float(y1 - y0), 1.0)
        cx, cy = float(x0 + x1) / 2.0, float(y0 + y1) / 2.0
        ix0, iy0 = max(int(x0), 0), max(int(y0), 0)
        inside = grey[iy0:max(int(y1), iy0 + 1), ix0:max(int(x1), ix0 + 1)]
        light = bool(inside.size) and float(np.median(inside)) < DARK_CARD
        diag = 0.9 * max(bw, bh)
        r = math.sqrt(0.5)
        ways = [((0.0, 1.0), bh, bw), ((0.0, -1.0), bh, bw), ((1.0, 0.0), bw, bh), ((-1.0, 0.0), bw, bh),
                ((r, r), diag, 0.6 * diag), ((-r, -r), diag, 0.6 * diag), ((r, -r), diag, 0.6 * diag),
                ((-r, r), diag, 0.6 * diag)]
        if bh > UPRIGHT * bw:
            ways = ways[:2]  # a tall box holds an index along the image's columns
        elif bw > UPRIGHT * bh:
            ways = ways[2:4]
        for (dx, dy), span, breadth in ways:
            height = GROW * span
            width = max(INDEX_ASPECT * height, 1.1 * breadth)
            quarter, size = 0.25 * span, 0.6 * span
            upper = (cx - dx * quarter, cy - dy * quarter, size)
            lower = (cx + dx * quarter, cy + dy * quarter, size)
            out.append(IndexProposal(cx, cy, (dx, dy), height, width, light, upper, lower))
    return out
