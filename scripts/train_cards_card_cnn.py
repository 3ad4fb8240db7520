"""Train the whole-card CNN (``models/cards/card_cnn.onnx``) on rendered card scenes, on one CPU core.

    OMP_NUM_THREADS=1 .venv/bin/python scripts/train_cards_card_cnn.py --data /tmp/ccnn/tr*.pkl \\
        --val /tmp/ccnn/va*.pkl --out models/cards [--epochs 20]

Why: the perceptron ``card.npz`` (HOG and colour features of the rectified card) reads a card a
few dozen pixels long right about 0.93 of the time per view, and confuses spades with clubs on
court cards (the suit is a few pixels in the index, the figures' panels look alike); on rendered
clips every misread card was such a swap. A few convolutions learn the index strokes from the
pixels themselves.

Data: ``scripts/cards_card_cnn_data.py`` (rendered scenes of every deck design through widely
varied cameras, lamps and cloths; samples cached as pickles, one per chunk of seeds). Validation:
the validation seeds (950000 and up), never trained on; the benchmark seeds are never read here.
Every epoch cuts a freshly spoilt view of each sample (``augment`` there).

Network (the index CNN's shape, ``train_cards_cnn.py``, on a 40 x 56 crop): five 3x3
convolutions (16-32-32-64-96 channels, batch norm, ReLU, three 2x2 max pools down to 5 x 7
cells), the cells flattened (where a stroke lies matters: the index in the corner, the pips'
layout), 128 hidden units, then the card heads side by side: rank (13, ``back``, ``none``) and
suit (4), as ``card.npz`` has them, so the reader uses either unchanged. A half turn is the same
card (cards are printed point-symmetric), so training reads every sample either way up.
"""

from __future__ import annotations

import argparse
import datetime
import pickle
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cards_card_cnn_data import augment, view  # noqa: E402
from cards_cnn_torch import build_net, export_onnx, fit  # noqa: E402

from tableref.vision.cards_cnn import CARD_CNN_CROP, preprocess  # noqa: E402
from tableref.vision.cards_read import CARD_HEADS  # noqa: E402

RANK_CLASSES = CARD_HEADS[0]
SUIT_CLASSES = CARD_HEADS[1]
COURT_BLACK = {r + s for r in ("J", "Q", "K") for s in ("S", "C")}


def load(paths: Sequence[str], min_visible: float) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for p in paths:
        items += [it for it in pickle.loads(Path(p).read_bytes()) if it["visible"] >= min_visible]
    return items


def target(it: dict[str, Any]) -> tuple[int, int]:
    """(rank class, suit class or -1) of a sample."""
    if it["label"] == "none":
        return RANK_CLASSES.index("none"), -1
    if not it["face_up"]:
        return RANK_CLASSES.index("back"), -1
    return RANK_CLASSES.index(it["label"][:-1]), SUIT_CLASSES.index(it["label"][-1])


def logits(net: Any, x: np.ndarray) -> np.ndarray:
    import torch

    net.eval()
    with torch.no_grad():
        return np.asarray(torch.cat([net(torch.from_numpy(x[i:i + 512])) for i in range(0, len(x), 512)]).numpy())


def report(z: np.ndarray, items: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per-view figures as ``train_cards.card_report`` gives them for card.npz (per resolution)."""
    nr = len(RANK_CLASSES)
    rank = z[:, :nr].argmax(1)
    suit = z[:, nr:].argmax(1)
    pred = [RANK_CLASSES[r] + ("" if RANK_CLASSES[r] in ("back", "none") else SUIT_CLASSES[s])
            for r, s in zip(rank, suit, strict=True)]
    out: dict[str, Any] = {}
    for res in sorted({it["res"] for it in items}, key=int):
        idx = [i for i, it in enumerate(items) if it["res"] == res and it["label"] != "none" and it["face_up"]]
        court = [i for i in idx if items[i]["label"] in COURT_BLACK]
        out[res] = {"cards": len(idx),
                    "label_accuracy": round(float(np.mean([pred[i] == items[i]["label"] for i in idx])), 4) if idx else None,
                    "black_court_suit_accuracy": round(float(np.mean([pred[i][-1:] == items[i]["label"][-1] for i in court])), 4)
                    if court else None}
    backs = [i for i, it in enumerate(items) if it["label"] != "none" and not it["face_up"]]
    nones = [i for i, it in enumerate(items) if it["label"] == "none"]
    out["backs_recognised"] = round(float(np.mean([pred[i] == "back" for i in backs])), 4) if backs else None
    out["non_cards_rejected"] = round(float(np.mean([pred[i] == "none" for i in nones])), 4) if nones else None
    return out


def clean_views(items: Sequence[dict[str, Any]]) -> np.ndarray:
    return preprocess(np.stack([view(it["patch"], it["quad"]) for it in items]), CARD_CNN_CROP)


def train(items: list[dict[str, Any]], val: list[dict[str, Any]], epochs: int, seed: int, strength: float,
          time_box_s: float | None, court_weight: float = 2.0, fine: bool = False) -> tuple[Any, list[dict[str, Any]]]:
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    tg = np.array([target(it) for it in items], np.int64)
    # black court cards are the hard ones (the suit is only in a few pixels): seen more often
    weight = np.array([court_weight if it["label"] in COURT_BLACK and it["face_up"] else 1.0 for it in items])
    per_epoch = int(round(weight.sum()))
    # the whole card's crop is larger than an index's: a little more dropout before the hidden layer
    net = build_net(CARD_CNN_CROP, len(RANK_CLASSES) + len(SUIT_CLASSES), fine=fine, dropout=0.25)
    xv = clean_views(val) if val else None

    def draw(rng: np.random.Generator) -> np.ndarray:
        return rng.choice(len(items), per_epoch, replace=True, p=weight / weight.sum())

    def views(idx: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return preprocess(np.stack([augment(items[i]["patch"], items[i]["quad"], rng, strength) for i in idx]),
                          CARD_CNN_CROP)

    validate = None if xv is None else (lambda net: report(logits(net, xv), val))
    history = fit(net, tg[:, 0], tg[:, 1], len(RANK_CLASSES), per_epoch, epochs, rng, draw, views, validate, time_box_s)
    return net, history


def export(net: Any, out: Path, info: dict[str, Any]) -> None:
    export_onnx(net, out, CARD_CNN_CROP, "card", {
        "heads": [list(RANK_CLASSES), list(SUIT_CLASSES)],
        "preprocess": "vision/cards_features.py rectify to 40 x 56, then vision/cards_cnn.py preprocess", **info})


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--data", nargs="+", required=True, help="training sample pickles (cards_card_cnn_data.py)")
    ap.add_argument("--val", nargs="*", default=[], help="validation sample pickles (validation seeds)")
    ap.add_argument("--out", default="models/cards")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--strength", type=float, default=1.0, help="augmentation strength")
    ap.add_argument("--min-visible", type=float, default=0.5, help="cards less seen than this are left out")
    ap.add_argument("--court-weight", type=float, default=2.0, help="how much more often black court cards are drawn")
    ap.add_argument("--fine", action="store_true", help="two convolutions at full resolution before the first pooling")
    ap.add_argument("--time-box-min", type=float, default=None)
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    started = time.time()
    items = load(args.data, args.min_visible)
    val = load(args.val, 0.6)  # as train_cards.py validates card.npz
    print(f"{len(items)} training samples, {len(val)} validation samples", flush=True)
    net, history = train(items, val, args.epochs, args.seed, args.strength,
                         None if args.time_box_min is None else 60.0 * args.time_box_min, args.court_weight,
                         args.fine)
    seeds = sorted({int(it["seed"]) for it in items})
    info = {"trained": str(datetime.date.today()), "epochs_run": len(history),
            "data": f"rendered card scenes: {len(items)} samples from {len(seeds)} seeds ({seeds[0]}-{seeds[-1]})",
            "command": "python scripts/train_cards_card_cnn.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "seconds": round(time.time() - started), "history": history}
    export(net, Path(args.out) / "card_cnn.onnx", info)
    print(f"wrote {Path(args.out) / 'card_cnn.onnx'} ({time.time() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
