"""Train the court-suit CNN (``models/cards/court_suit_cnn.onnx``): spade or club on a black court card seen small.

    OMP_NUM_THREADS=1 .venv/bin/python scripts/train_cards_court_suit.py \\
        --data /tmp/ccnn/tr*.pkl /tmp/spec/g*.pkl --val /tmp/ccnn/va*.pkl --out models/cards [--epochs 40]

Why a network of its own: see ``vision/cards_court_suit.py``. The whole-card CNN read the suit of
rendered 720p black court cards right 0.79 of the time per view; this one looks only at the corner
that holds the index and the figure's pip, at full resolution for two convolutions.

Data: rendered card samples as ``scripts/cards_card_cnn_data.py`` cuts them (any pickles of
``render_samples`` records: patch, quad, label, visibility), of which only black court cards face
up and at least half seen are used; ``--court-scenes`` pickles made by ``--make-scenes`` (scenes
whose cards are drawn from the six black court cards and 24 others, so that each holds
several) add more of them. Validation: pickles of the validation seeds (950000 and up), never
trained on; the benchmark seeds are never read here. Every epoch cuts a freshly spoilt view of
each sample in the camera's pixels (``cards_card_cnn_data.augment``: clutter, light, blur, a
coarser camera, noise, JPEG, the quad's corners moved) and reads one of its two corners.

Network: ``cards_cnn_torch.build_net`` with ``fine`` (two convolutions at full resolution before
the first pooling) on the 44 x 52 corner crop, two classes (S, C).
"""

from __future__ import annotations

import argparse
import datetime
import pickle
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cards_card_cnn_data as ccd  # noqa: E402
from cards_cnn_torch import build_net, export_onnx, train_loop  # noqa: E402

from tableref.vision.cards_cnn import preprocess  # noqa: E402
from tableref.vision.cards_court_suit import CORNER, COURT_RANKS, HEADS, corner_crop  # noqa: E402

COURT_BLACK = tuple(r + s for r in COURT_RANKS for s in HEADS[0])


def load(paths: Sequence[str], min_visible: float) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for p in paths:
        items += [it for it in pickle.loads(Path(p).read_bytes())
                  if it["face_up"] and it["label"] in COURT_BLACK and it["visible"] >= min_visible]
    return items


def make_scenes(res: str, first: int, last: int, out: Path) -> int:
    """Render black-court-rich scenes (training seeds ``first``..``last - 1`` of ``res``) to ``out``."""
    import train_cards

    others = [lab for lab in train_cards.SIM_LABELS if lab not in COURT_BLACK]
    items: list[dict[str, Any]] = []
    for k in range(first, last):
        train_cards.SIM_LABELS = (*COURT_BLACK, *random.Random(k).sample(others, 24))
        seed = ccd.seed_of(res, k)
        for it in train_cards.render_samples(seed, res, 8):
            if it["face_up"] and it["label"] in COURT_BLACK and it["visible"] >= 0.5:
                it["seed"] = seed
                items.append(it)
    out.write_bytes(pickle.dumps(items, protocol=pickle.HIGHEST_PROTOCOL))
    return len(items)


def accuracy(net: Any, items: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per resolution: the share of validation cards whose two corners, averaged, name the suit."""
    import torch

    net.eval()
    out: dict[str, Any] = {}
    for res in sorted({it["res"] for it in items}, key=int):
        its = [it for it in items if it["res"] == res]
        x = preprocess(np.stack([corner_crop(it["patch"], it["quad"], t) for it in its for t in (False, True)]), CORNER)
        with torch.no_grad():
            p = torch.softmax(net(torch.from_numpy(x)), 1).numpy()[:, 1].reshape(-1, 2).mean(axis=1)
        truth = np.array([it["label"][-1] == "C" for it in its])
        out[res] = {"cards": len(its), "suit_accuracy": round(float(np.mean((p >= 0.5) == truth)), 4)}
    return out


def train(items: list[dict[str, Any]], val: list[dict[str, Any]], epochs: int, seed: int,
          strength: float) -> tuple[Any, list[dict[str, Any]]]:
    import torch
    from torch import nn

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    y = np.array([HEADS[0].index(it["label"][-1]) for it in items], np.int64)
    net = build_net(CORNER, len(HEADS[0]), fine=True, dropout=0.3)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)

    def views(idx: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return preprocess(np.stack([ccd.augment(items[i]["patch"], items[i]["quad"], rng, strength, corner_crop)
                                    for i in idx]), CORNER)

    history = train_loop(net, lambda z, idx: loss_fn(z, torch.from_numpy(y[idx])), len(items), epochs, rng,
                         lambda rng: rng.permutation(len(items)), views,
                         (lambda net: accuracy(net, val)) if val else None, None, weight_decay=1e-3)
    return net, history


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--data", nargs="*", default=[], help="training sample pickles (rendered card samples)")
    ap.add_argument("--val", nargs="*", default=[], help="validation sample pickles (validation seeds)")
    ap.add_argument("--out", default="models/cards")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--strength", type=float, default=1.0, help="augmentation strength")
    ap.add_argument("--make-scenes", nargs=4, metavar=("RES", "FIRST", "LAST", "OUT"),
                    help="only render black-court-rich scenes of training set-ups FIRST..LAST-1 at RES to OUT")
    args = ap.parse_args(argv)
    if args.make_scenes:
        res, first, last, out = args.make_scenes
        n = make_scenes(res, int(first), int(last), Path(out))
        print(f"{n} black court samples -> {out}")
        return 0
    import torch

    torch.set_num_threads(1)
    started = time.time()
    items = load(args.data, 0.5)
    val = load(args.val, 0.6)
    print(f"{len(items)} training samples, {len(val)} validation samples", flush=True)
    if not items:
        raise SystemExit("no black court cards in the training data")
    net, history = train(items, val, args.epochs, args.seed, args.strength)
    seeds = sorted({int(it["seed"]) for it in items})
    info = {"heads": [list(h) for h in HEADS], "trained": str(datetime.date.today()), "epochs_run": len(history),
            "preprocess": "vision/cards_court_suit.py corner_crops, then vision/cards_cnn.py preprocess",
            "data": f"rendered black court cards: {len(items)} samples from {len(seeds)} seeds ({seeds[0]}-{seeds[-1]})",
            "command": "python scripts/train_cards_court_suit.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "seconds": round(time.time() - started), "history": history}
    export_onnx(net, Path(args.out) / "court_suit_cnn.onnx", CORNER, "corner", info)
    print(f"wrote {Path(args.out) / 'court_suit_cnn.onnx'} ({time.time() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
