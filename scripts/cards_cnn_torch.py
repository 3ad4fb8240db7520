"""The torch side shared by the two card CNNs (``train_cards_cnn.py``: corner index;
``train_cards_card_cnn.py``: the whole card): the network, the training loop and the ONNX export.

Why one module: both readers are the same small network on different crops, trained the same way
(AdamW, one-cycle schedule, label-smoothed rank and suit heads, a freshly spoilt view of every
sample each epoch), so a fix to the loop or the export must reach both. Torch is imported inside
the functions: it is in the ``train`` extra only, never in the runtime, which loads the ``.onnx``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

#: batch size of every card CNN's training
BATCH = 128


def build_net(crop: tuple[int, int], n_outputs: int, width: int = 16, fine: bool = False,
              dropout: float = 0.2) -> Any:
    """Five 3x3 convolutions (w-2w-2w-4w-6w channels, batch norm, ReLU, three 2x2 max pools down to
    crop/8 cells), the cells flattened, not pooled (where a stroke lies matters: rank above suit, an
    index upside down), 128 hidden units, then rank and suit logits side by side. ``fine`` pools
    after the second convolution instead of the first, so two layers see the full resolution (a
    court card's suit is 2-3 pixels at 720p), at twice the cost. ``dropout`` is before the hidden
    layer (0.2 after it)."""
    import torch
    from torch import nn

    def stage(cin: int, cout: int, pool: bool) -> list[nn.Module]:
        layers: list[nn.Module] = [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]
        if pool:
            layers.append(nn.MaxPool2d(2))
        return layers

    class CardsNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            w = width
            self.features = nn.Sequential(*stage(3, w, not fine), *stage(w, 2 * w, fine), *stage(2 * w, 2 * w, True),
                                          *stage(2 * w, 4 * w, True), *stage(4 * w, 6 * w, False))
            cells = (crop[0] // 8) * (crop[1] // 8)
            self.head = nn.Sequential(nn.Flatten(), nn.Dropout(dropout), nn.Linear(6 * w * cells, 128), nn.ReLU(inplace=True),
                                      nn.Dropout(0.2), nn.Linear(128, n_outputs))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.features(x))

    return CardsNet()


def fit(net: Any, ranks: np.ndarray, suits: np.ndarray, n_ranks: int, per_epoch: int, epochs: int,
        rng: np.random.Generator, draw: Callable[[np.random.Generator], np.ndarray],
        views: Callable[[np.ndarray, np.random.Generator], np.ndarray],
        validate: Callable[[Any], dict[str, Any]] | None, time_box_s: float | None,
        log: bool = True) -> list[dict[str, Any]]:
    """Train ``net``'s rank and suit heads in place (:func:`train_loop` with their summed,
    label-smoothed cross-entropy). Suits of -1 (backs, not-a-card) are ignored by the suit loss."""
    import torch
    from torch import nn

    rank_loss = nn.CrossEntropyLoss(label_smoothing=0.05)
    suit_loss = nn.CrossEntropyLoss(label_smoothing=0.05, ignore_index=-1)

    def batch_loss(z: Any, idx: np.ndarray) -> Any:
        return rank_loss(z[:, :n_ranks], torch.from_numpy(ranks[idx])) + suit_loss(z[:, n_ranks:], torch.from_numpy(suits[idx]))

    return train_loop(net, batch_loss, per_epoch, epochs, rng, draw, views, validate, time_box_s, log)


def train_loop(net: Any, batch_loss: Callable[[Any, np.ndarray], Any], per_epoch: int, epochs: int,
               rng: np.random.Generator, draw: Callable[[np.random.Generator], np.ndarray],
               views: Callable[[np.ndarray, np.random.Generator], np.ndarray],
               validate: Callable[[Any], dict[str, Any]] | None, time_box_s: float | None,
               log: bool = True, weight_decay: float = 5e-4) -> list[dict[str, Any]]:
    """Train ``net`` in place: each epoch ``draw(rng)`` gives the sample order (about ``per_epoch``
    long), ``views(idx, rng)`` the preprocessed, freshly spoilt inputs of a batch and
    ``batch_loss(logits, idx)`` its loss (AdamW, one-cycle schedule). Stops early once
    ``time_box_s`` is spent, after a whole epoch; returns one row an epoch (loss, seconds,
    ``validate(net)`` when given)."""
    import torch

    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=weight_decay)
    steps = epochs * ((per_epoch + BATCH - 1) // BATCH)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.15)
    history: list[dict[str, Any]] = []
    started = time.time()
    for epoch in range(epochs):
        net.train()
        order = draw(rng)
        total = 0.0
        for b in range(0, len(order), BATCH):
            idx = order[b:b + BATCH]
            loss = batch_loss(net(torch.from_numpy(views(idx, rng))), idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        row: dict[str, Any] = {"epoch": epoch + 1, "loss": round(total / len(order), 4), "s": round(time.time() - started)}
        if validate is not None:
            row["validation"] = validate(net)
        history.append(row)
        if log:
            print(json.dumps(row), flush=True)
        if time_box_s is not None and time.time() - started > time_box_s:
            print(f"time box reached after epoch {epoch + 1}", flush=True)
            break
    net.eval()
    return history


def export_onnx(net: Any, out: Path, crop: tuple[int, int], input_name: str, meta: dict[str, Any]) -> None:
    """``out`` (ONNX opset 17, any batch size) and ``out`` with ``.json`` beside it: ``meta`` plus the
    input shape, which the runtime (``vision/cards_cnn.py``) reads to know the model's crop."""
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    x = torch.zeros(1, 3, crop[1], crop[0])
    torch.onnx.export(net, (x,), str(out), input_names=[input_name], output_names=["logits"],
                      dynamic_axes={input_name: {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)
    info = {"heads": meta.pop("heads"), "input": [3, crop[1], crop[0]], **meta}
    out.with_suffix(".json").write_text(json.dumps(info, indent=2) + "\n", "utf-8")
