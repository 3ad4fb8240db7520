"""The small classifiers that read cards: a numpy multi-layer perceptron, its training and its file.

Why a hand-written MLP rather than a framework: the models are tiny (a few thousand inputs, one
hidden layer, a few dozen outputs), train in minutes on two CPU cores, and must run where only
numpy and OpenCV are installed (the OpenCV wheels we use have no ``ml`` module). The weights are
one ``.npz`` file per model under ``models/cards/`` with the input standardisation and the class
names beside them, so a model file is self-describing and nothing but numpy is needed to use it.

A model has one or more *heads* sharing the hidden layer, each a softmax over its own classes:
the card reader has a rank head and a suit head. Factoring the 52 cards into 13 ranks and 4 suits
lets every card of a suit teach the suit head what that suit's pips look like (52 classes would
each have to learn it alone). A training sample may leave a head out (``None``): a card back has a
"rank" (``back``) but no suit.

Training is plain mini-batch Adam on the summed softmax cross-entropies with weight decay, input
dropout and label smoothing, under a cosine learning-rate decay. Everything is seeded, so a
training run is repeatable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from tableref.errors import UserError

F32 = NDArray[np.float32]


@dataclass(frozen=True)
class MLP:
    """A trained perceptron: ReLU hidden layers, then one softmax per head over ``heads[k]``."""

    heads: tuple[tuple[str, ...], ...]
    mean: F32
    scale: F32
    weights: tuple[F32, ...]
    biases: tuple[F32, ...]
    info: str = ""

    @property
    def n_inputs(self) -> int:
        return int(self.mean.shape[0])

    def _logits(self, features: F32) -> F32:
        x = (np.asarray(features, np.float32) - self.mean) / self.scale
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if i < len(self.weights) - 1:
                np.maximum(x, 0.0, out=x)
        return np.asarray(x, np.float32)

    def predict(self, features: F32) -> tuple[F32, ...]:
        """Per head, class probabilities with one row per feature row."""
        f = np.asarray(features, np.float32)
        if f.ndim == 1:
            f = f[None, :]
        if f.shape[0] == 0:
            return tuple(np.zeros((0, len(h)), np.float32) for h in self.heads)
        if f.shape[1] != self.n_inputs:
            raise ValueError(f"this model takes {self.n_inputs} features, got {f.shape[1]}")
        z = self._logits(f)
        out = []
        start = 0
        for h in self.heads:
            zz = z[:, start:start + len(h)]
            zz = zz - zz.max(axis=1, keepdims=True)
            e = np.exp(zz)
            out.append(np.asarray(e / e.sum(axis=1, keepdims=True), np.float32))
            start += len(h)
        return tuple(out)

    def save(self, path: str | Path) -> None:
        arrays: dict[str, NDArray[np.generic]] = {"mean": self.mean, "scale": self.scale, "info": np.array(self.info),
                                                  "n_heads": np.array(len(self.heads))}
        for k, h in enumerate(self.heads):
            arrays[f"head{k}"] = np.array(h)
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w.astype(np.float16)
            arrays[f"b{i}"] = b.astype(np.float32)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as fh:
            np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | Path) -> MLP:
        p = Path(path)
        if not p.is_file():
            raise UserError(f"card model {str(p)!r} is missing; train it with `python scripts/train_cards.py`")
        try:
            with np.load(p, allow_pickle=False) as z:
                n = sum(1 for k in z.files if k.startswith("w"))
                heads = tuple(tuple(str(c) for c in z[f"head{k}"]) for k in range(int(z["n_heads"])))
                return cls(
                    heads=heads,
                    mean=z["mean"].astype(np.float32),
                    scale=z["scale"].astype(np.float32),
                    weights=tuple(z[f"w{i}"].astype(np.float32) for i in range(n)),
                    biases=tuple(z[f"b{i}"].astype(np.float32) for i in range(n)),
                    info=str(z["info"]),
                )
        except (OSError, KeyError, ValueError) as exc:
            raise UserError(f"card model {str(p)!r} cannot be read ({exc}); retrain it with scripts/train_cards.py") from None


@dataclass(frozen=True)
class TrainConfig:
    """Hyper-parameters; the defaults are what ``scripts/train_cards.py`` uses."""

    hidden: tuple[int, ...] = (192,)
    epochs: int = 25
    batch: int = 256
    lr: float = 2e-3
    weight_decay: float = 1e-4
    input_dropout: float = 0.1
    label_smoothing: float = 0.05
    seed: int = 0


def _encode(labels: Sequence[str | None], classes: Sequence[str]) -> NDArray[np.int64]:
    index = {c: i for i, c in enumerate(classes)}
    unknown = sorted({lab for lab in labels if lab is not None and lab not in index})
    if unknown:
        raise ValueError(f"labels not among the classes {list(classes)[:6]}...: {unknown[:5]}")
    return np.array([-1 if lab is None else index[lab] for lab in labels], np.int64)


def train_mlp(features: F32, labels: Sequence[Sequence[str | None]], heads: Sequence[Sequence[str]],
              config: TrainConfig = TrainConfig(), log: bool = False) -> MLP:
    """Fit an :class:`MLP` to ``features`` (rows); ``labels[k]`` holds head ``k``'s label per row (or None)."""
    x = np.asarray(features, np.float32)
    if len(labels) != len(heads):
        raise ValueError(f"need one label list per head ({len(heads)}), got {len(labels)}")
    ys = [_encode(lab, h) for lab, h in zip(labels, heads, strict=True)]
    if any(len(y) != len(x) for y in ys) or len(x) == 0:
        raise ValueError("need one label per feature row in every head, and at least one row")
    rng = np.random.default_rng(config.seed)
    mean = x.mean(axis=0).astype(np.float32)
    scale = (x.std(axis=0) + 1e-3).astype(np.float32)
    xs = (x - mean) / scale
    widths = [len(h) for h in heads]
    sizes = [x.shape[1], *config.hidden, sum(widths)]
    ws = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32) for a, b in zip(sizes[:-1], sizes[1:], strict=True)]
    bs = [np.zeros(b, np.float32) for b in sizes[1:]]
    params = ws + bs
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    b1, b2, eps = 0.9, 0.999, 1e-8
    smooth = config.label_smoothing
    n = len(x)
    step = 0
    total_steps = config.epochs * int(np.ceil(n / config.batch))
    for epoch in range(config.epochs):
        order = rng.permutation(n)
        loss_sum = 0.0
        for start in range(0, n, config.batch):
            idx = order[start:start + config.batch]
            xb = xs[idx]
            if config.input_dropout > 0:
                keep = rng.random(xb.shape, dtype=np.float32) >= config.input_dropout
                xb = xb * keep / (1.0 - config.input_dropout)
            acts = [xb]
            h = xb
            for i in range(len(ws)):
                h = h @ ws[i] + bs[i]
                if i < len(ws) - 1:
                    h = np.maximum(h, 0.0)
                acts.append(h)
            grad = np.zeros_like(acts[-1])
            col = 0
            for k, y in enumerate(ys):
                yb = y[idx]
                valid = yb >= 0
                width = widths[k]
                z = acts[-1][:, col:col + width]
                z = z - z.max(axis=1, keepdims=True)
                p = np.exp(z)
                p /= p.sum(axis=1, keepdims=True)
                target = np.full((len(idx), width), smooth / width, np.float32)
                target[np.arange(len(idx))[valid], yb[valid]] += 1.0 - smooth
                target[~valid] = p[~valid]  # no label: no gradient
                loss_sum += float(-(target[valid] * np.log(p[valid] + 1e-9)).sum())
                grad[:, col:col + width] = (p - target) / len(idx)
                col += width
            gw: list[F32] = [np.zeros_like(w) for w in ws]
            gb: list[F32] = [np.zeros_like(b) for b in bs]
            for i in range(len(ws) - 1, -1, -1):
                gw[i] = acts[i].T @ grad + config.weight_decay * ws[i]
                gb[i] = grad.sum(axis=0)
                if i > 0:
                    grad = (grad @ ws[i].T) * (acts[i] > 0)
            step += 1
            lr = config.lr * 0.5 * (1.0 + np.cos(np.pi * step / total_steps))
            for j, g in enumerate(gw + gb):
                m1[j] = b1 * m1[j] + (1 - b1) * g
                m2[j] = b2 * m2[j] + (1 - b2) * g * g
                mh = m1[j] / (1 - b1 ** step)
                vh = m2[j] / (1 - b2 ** step)
                params[j] -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        if log:
            print(f"epoch {epoch + 1}/{config.epochs} loss {loss_sum / n:.4f}", flush=True)
    return MLP(tuple(tuple(h) for h in heads), mean, scale, tuple(ws), tuple(bs))
