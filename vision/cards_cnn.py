"""A small convolutional network that reads corner indices, shipped as ONNX and run without torch.

Why a CNN here: the numpy perceptron over hand-made HOG features (``cards_model``) read 0.80 of
the held-out real cards; most misses were indices it saw but read wrong (a 9 as an 8, a spade as
a club, a narrow index in a dense fan). A few convolution layers learn the strokes themselves
from the pixels, and train in minutes on one CPU core on the real training photos with heavy
augmentation (``scripts/train_cards_cnn.py``).

Why ONNX: torch is a training dependency only (the ``train`` extra). The runtime loads
``models/cards/index_cnn.onnx`` with onnxruntime when it is installed (the ``learned`` extra) and
with OpenCV's DNN module otherwise (always there), so reading cards needs nothing new. The
network's heads, input size and preprocessing are in a JSON file beside it, so the pair is
self-describing and a model trained for other classes is refused.

Input: each index proposal (``cards_index.IndexProposal``) warped upright to :data:`CNN_CROP`
(light ink inverted to dark, like ``Cropper.crop``), divided per channel by its own paper white
(the 95th percentile) so a warm lamp or a dim photo look alike, then shifted to about zero mean.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.errors import UserError
from tableref.vision.cards_index import Cropper, IndexProposal

F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]

#: The CNN's index crop (width, height): the proposal's box, a little finer than the perceptron's.
CNN_CROP = (32, 48)
#: The whole-card CNN's crop (width, height): a found card rectified upright (``cards_features.rectify``),
#: about the pixels a venue camera gives a card (a few dozen long), the card's own 63 x 88 shape.
CARD_CNN_CROP = (40, 56)
#: Proposals read per network call (bounded memory on a photo with a couple of thousand).
BATCH = 256


def crop_index(cropper: Cropper, p: IndexProposal, size: tuple[int, int] = CNN_CROP, expand: float = 1.0) -> U8:
    """The proposal's box (grown ``expand`` times about its centre) warped upright to ``size`` pixels.

    Large proposals are cut from the cropper's pre-blurred copies of the image (no aliasing), as
    ``Cropper.crop`` does; light ink on a dark card is inverted so every index is dark on light.
    """
    w, h = size
    grown = IndexProposal(p.cx, p.cy, p.down, p.height * expand, p.width * expand, p.light)
    src = grown.corners()[:3].astype(np.float32)
    dst = np.array([[0, 0], [w, 0], [w, h]], np.float32) - 0.5
    m = cv2.getAffineTransform(src, dst)
    scale = grown.height / h
    img = cropper.at(0.45 * scale if scale > 1.5 else 0.0)
    crop = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if p.light:
        crop = 255 - crop
    return np.asarray(crop, np.uint8)


def preprocess(crops: Sequence[U8] | U8, size: tuple[int, int] = CNN_CROP) -> F32:
    """Crops (N, H, W, 3 BGR, uint8) to the network's input (N, 3, H, W float32): paper white 1, centred.

    ``size`` (width, height) only shapes the empty result when there are no crops.
    """
    c = np.asarray(crops, np.float32)
    if c.ndim == 3:
        c = c[None]
    n = c.shape[0]
    if n == 0:
        return np.zeros((0, 3, size[1], size[0]), np.float32)
    flat = c.reshape(n, -1, 3)
    k = int(round(0.95 * (flat.shape[1] - 1)))
    ref = np.partition(flat, k, axis=1)[:, k, :]
    ref = np.maximum(ref, np.maximum(8.0, ref.max(axis=1, keepdims=True) * 0.25))
    x = np.clip(c / ref[:, None, None, :], 0.0, 1.25) - 0.6
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32)


def _softmax(z: F32) -> F32:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return np.asarray(e / e.sum(axis=1, keepdims=True), np.float32)


def load_onnx(path: Path, backend: str, threads: int, what: str) -> tuple[Any, Any, str]:
    """(onnxruntime session or None, OpenCV net or None, backend used) for the ONNX file ``path``.

    ``backend``: ``onnxruntime``, ``opencv`` or ``auto`` (onnxruntime when importable, else
    OpenCV's DNN module). ``what`` names the model in the error a bad file gets.
    """
    if backend == "auto":
        try:
            import onnxruntime  # noqa: F401
            backend = "onnxruntime"
        except ImportError:
            backend = "opencv"
    if backend == "onnxruntime":
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = max(1, int(threads))
        opts.inter_op_num_threads = 1
        try:
            return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"]), None, backend
        except Exception as exc:  # onnxruntime raises its own error types for a bad file
            raise UserError(f"{what} {str(path)!r} cannot be loaded ({exc})") from None
    if backend == "opencv":
        try:
            return None, cv2.dnn.readNetFromONNX(str(path)), backend
        except cv2.error as exc:
            raise UserError(f"{what} {str(path)!r} cannot be loaded by OpenCV ({exc})") from None
    raise ValueError(f"backend must be 'auto', 'onnxruntime' or 'opencv', got {backend!r}")


class OnnxHeads:
    """An ONNX classifier with one or more softmax heads over named classes (see the module docstring).

    ``path`` is the ``.onnx`` file; ``PATH.json`` beside it names the heads (``{"heads": [[...],
    [...]], "input": [C, H, W], ...}``). The network's one output holds every head's logits side by
    side. ``backend`` is ``onnxruntime``, ``opencv`` or ``auto`` (onnxruntime when importable).
    """

    def __init__(self, path: str | Path, *, backend: str = "auto", threads: int = 1) -> None:
        self.path = Path(path)
        meta_path = self.path.with_suffix(".json")
        if not self.path.is_file() or not meta_path.is_file():
            raise UserError(f"card CNN {str(self.path)!r} (and its .json) is missing; train it with "
                            "`python scripts/train_cards_cnn.py`")
        meta: dict[str, Any] = json.loads(meta_path.read_text("utf-8"))
        self.meta = meta
        self.heads: tuple[tuple[str, ...], ...] = tuple(tuple(str(c) for c in h) for h in meta["heads"])
        self.input_shape = tuple(int(v) for v in meta["input"])
        self._session, self._net, self.backend = load_onnx(self.path, backend, threads, "card CNN")
        if self._session is not None:
            self._input = self._session.get_inputs()[0].name

    def logits(self, x: F32) -> F32:
        """Raw outputs (N, sum of head sizes) for inputs (N, C, H, W)."""
        x = np.ascontiguousarray(x, np.float32)
        if x.shape[1:] != self.input_shape:
            raise ValueError(f"this network takes inputs of shape {self.input_shape}, got {x.shape[1:]}")
        out = []
        for start in range(0, len(x), BATCH):
            chunk = x[start:start + BATCH]
            if self._session is not None:
                out.append(np.asarray(self._session.run(None, {self._input: chunk})[0], np.float32))
            else:
                self._net.setInput(chunk)
                out.append(np.asarray(self._net.forward(), np.float32).reshape(len(chunk), -1))
        width = sum(len(h) for h in self.heads)
        return np.concatenate(out, axis=0) if out else np.zeros((0, width), np.float32)

    def predict(self, x: F32) -> tuple[F32, ...]:
        """Per head, class probabilities with one row per input (as ``cards_model.MLP.predict``)."""
        z = self.logits(x)
        probs = []
        start = 0
        for h in self.heads:
            probs.append(_softmax(z[:, start:start + len(h)]))
            start += len(h)
        return tuple(probs)
