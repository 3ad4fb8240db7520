"""Train the corner-index CNN (``models/cards/index_cnn.onnx``) on the real training photos, on one CPU core.

    OMP_NUM_THREADS=1 .venv/bin/python scripts/train_cards_cnn.py --out models/cards [--all] [--epochs 14]

Needs the ``train`` extra (torch, onnx); the model it writes runs without either
(``vision/cards_cnn.py``). Data: the training side of the fixed ``cards-real`` split
(``vision/cards_data.py``); the held-out photos are never read here. Without ``--all`` the
training-side groups whose name bytes sum to 0 modulo 7 are kept back and the script reports
the network's figures on them (as ``scripts/train_cards.py`` does for the perceptron); with
``--all`` every training-side photo is trained on. Samples and their augmentation:
``scripts/cards_cnn_data.py``. The extracted samples are cached (``--cache``), so a second run
with other training settings starts at once.

Network: five 3x3 convolution layers (16-32-32-64-96 channels, batch norm, ReLU; 2x2 max pooling
three times, down to 6 x 4 cells), the cells flattened (not pooled: where a stroke lies tells a 6
from an upside-down 9, and the rank from the suit under it), one hidden layer of 128, and one
output row holding the rank logits (13 ranks and ``none``) and the suit logits (4) side by side:
the same heads as the perceptron, so the reader votes over them unchanged. About 9.4 million
multiply-adds a proposal. A first run with global pooling instead of the flattened cells learnt
far more slowly (0.23 of the validation proposals read right after 8 epochs against 0.61 after 6).
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cards_cnn_data import augment, centre, collect  # noqa: E402
from cards_cnn_torch import build_net, export_onnx, fit  # noqa: E402

from tableref.vision.cards_cnn import CNN_CROP, OnnxHeads, preprocess  # noqa: E402
from tableref.vision.cards_model import MLP  # noqa: E402
from tableref.vision.cards_read import DEFAULT_MODEL_DIR, INDEX_HEADS, RANKS, SUITS  # noqa: E402

RANK_CLASSES = INDEX_HEADS[0]
SUIT_CLASSES = INDEX_HEADS[1]


def _val_group(stem: str) -> bool:
    from tableref.vision.cards_data import capture_group

    return sum(capture_group(stem).encode()) % 7 == 0


def encode(labels: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    ranks = np.array([RANK_CLASSES.index("none" if lab == "none" else lab[:-1]) for lab in labels], np.int64)
    suits = np.array([-1 if lab == "none" else SUIT_CLASSES.index(lab[-1]) for lab in labels], np.int64)
    return ranks, suits


def evaluate(net: Any, crops: np.ndarray, labels: Sequence[str]) -> dict[str, Any]:
    """Per-proposal figures on unspoilt crops: index proposals read right, non-index ones accepted."""
    import torch

    net.eval()
    x = preprocess(np.stack([centre(c) for c in crops]))
    with torch.no_grad():
        z = torch.cat([net(torch.from_numpy(x[i:i + 512])) for i in range(0, len(x), 512)]).numpy()
    nr = len(RANK_CLASSES)
    rank = z[:, :nr].argmax(1)
    suit = z[:, nr:].argmax(1)
    zr = z[:, :nr] - z[:, :nr].max(1, keepdims=True)
    p_none = np.exp(zr[:, -1]) / np.exp(zr).sum(1)
    pos = np.array([lab != "none" for lab in labels])
    pred = [RANKS[r] + SUITS[s] if r < len(RANKS) else "none" for r, s in zip(rank, suit, strict=True)]
    right = np.array([p == lab for p, lab in zip(pred, labels, strict=True)])
    suit_ok = np.array([lab != "none" and SUITS[s] == lab[-1] for s, lab in zip(suit, labels, strict=True)])
    return {"index_proposals": int(pos.sum()), "read_right": round(float(right[pos].mean()), 4) if pos.any() else None,
            "suit_right": round(float(suit_ok[pos].mean()), 4) if pos.any() else None,
            "non_index": int((~pos).sum()),
            "non_index_accepted": round(float((p_none[~pos] < 0.5).mean()), 4) if (~pos).any() else None}


def train(data: dict[str, Any], epochs: int, seed: int, val: dict[str, Any] | None, log: bool = True,
          time_box_s: float | None = None, strength: float = 1.0) -> tuple[Any, list[dict[str, Any]]]:
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    crops, labels = data["crops"], list(data["labels"])
    ranks, suits = encode(labels)
    pos = np.flatnonzero(ranks != RANK_CLASSES.index("none"))
    neg = np.flatnonzero(ranks == RANK_CLASSES.index("none"))
    net = build_net(CNN_CROP, len(RANK_CLASSES) + len(SUIT_CLASSES))

    def draw(rng: np.random.Generator) -> np.ndarray:
        # an epoch: every positive twice (two different spoilt views), as many negatives as positives
        order = np.concatenate([pos, pos, rng.choice(neg, min(len(neg), 2 * len(pos)), replace=False)])
        rng.shuffle(order)
        return order

    def views(idx: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return preprocess(np.stack([augment(crops[i], rng, strength) for i in idx]))

    validate = None if val is None else (lambda net: evaluate(net, val["crops"], list(val["labels"])))
    history = fit(net, ranks, suits, len(RANK_CLASSES), 2 * len(pos) + min(len(neg), 2 * len(pos)), epochs, rng,
                  draw, views, validate, time_box_s, log=log)
    return net, history


def export(net: Any, out: Path, info: dict[str, Any]) -> None:
    export_onnx(net, out, CNN_CROP, "crop", {
        "heads": [list(RANK_CLASSES), list(SUIT_CLASSES)],
        "preprocess": "vision/cards_cnn.py preprocess: BGR / per-channel 95th percentile, clipped to 1.25, minus 0.6",
        **info})


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--out", default="models/cards", help="folder for index_cnn.onnx and its .json")
    ap.add_argument("--real", default=None, help="the cards-real folder (default ../shared/datasets/cards-real)")
    ap.add_argument("--all", action="store_true", help="train on every training-side photo (no validation groups)")
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hard-model", default=str(DEFAULT_MODEL_DIR / "index.npz"),
                    help="the model whose most confident non-index proposals are mined as hard negatives "
                         "(index.npz, or a first index_cnn.onnx)")
    ap.add_argument("--proposer", action="store_true",
                    help="also take samples from the learned index proposer's boxes (models/cards/index_proposals.onnx)")
    ap.add_argument("--extract-only", action="store_true", help="write the samples to --cache and stop")
    ap.add_argument("--strength", type=float, default=1.0, help="geometric augmentation strength")
    ap.add_argument("--cache", default="/tmp/tableref-index-cnn-samples.npz", help="extracted samples ('' for none)")
    ap.add_argument("--time-box-min", type=float, default=None, help="stop after the epoch that passes this many minutes")
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    started = time.time()
    cache = Path(args.cache) if args.cache else None
    if cache is not None and cache.is_file():
        with np.load(cache) as z:
            samples = {k: z[k] for k in z.files}
        print(f"samples from {cache}: {len(samples['labels'])}", flush=True)
    else:
        hard: MLP | OnnxHeads = (OnnxHeads(args.hard_model) if args.hard_model.endswith(".onnx")
                                 else MLP.load(args.hard_model))
        proposer = None
        if args.proposer:
            from tableref.vision.cards_proposer import IndexProposer

            proposer = IndexProposer()
        samples = collect(args.real, lambda s: True, hard, np.random.default_rng(args.seed), proposer=proposer)
        if cache is not None:
            np.savez(cache, **samples)
        print(f"extracted {len(samples['labels'])} samples ({time.time() - started:.0f} s)", flush=True)
    if args.extract_only:
        return 0
    is_val = np.array([_val_group(str(s)) for s in samples["stems"]])
    train_idx = np.arange(len(is_val)) if args.all else np.flatnonzero(~is_val)
    data = {k: v[train_idx] for k, v in samples.items()}
    val = None if args.all else {k: v[is_val] for k, v in samples.items()}
    n_pos = int((data["labels"] != "none").sum())
    print(f"training on {len(train_idx)} samples ({n_pos} index proposals) from "
          f"{len(set(data['stems'].tolist()))} photos", flush=True)
    net, history = train(data, args.epochs, args.seed, val,
                         time_box_s=None if args.time_box_min is None else 60.0 * args.time_box_min, strength=args.strength)
    info = {"trained": str(datetime.date.today()), "epochs_run": len(history),
            "data": f"cards-real training side ({'all groups' if args.all else 'validation groups kept back'}): "
                    f"{len(train_idx)} proposals, {n_pos} of them indices, from {len(set(data['stems'].tolist()))} photos",
            "command": "python scripts/train_cards_cnn.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "seconds": round(time.time() - started), "history": history}
    export(net, Path(args.out) / "index_cnn.onnx", info)
    print(f"wrote {Path(args.out) / 'index_cnn.onnx'} ({time.time() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
