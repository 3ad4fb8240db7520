"""Training tiles: square crops of the frames at the network's input scale, where the objects are.

Part of ``scripts/build_dataset.py``. Why crops: the network is fully convolutional, so it can
learn from 384x384 pieces of a frame and run on the whole 768x448 frame. A CPU spends its time on
pixels, and a full frame is mostly floor, rails and empty cloth; tiles chosen to cover the objects
(plus, now and then, one anywhere, so rails with their glasses and phones are seen too) give the
same objects for a quarter of the pixels. The frames are first brought to the scale the detector
runs them at (a 1280x720 frame x0.6, a 640x640 photo x1.2), so a ball is as many pixels wide in a
tile as at run time; the validation frames get the same treatment for the training's own
validation, while the benchmark scores whole frames.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

U8 = NDArray[np.uint8]
Box = tuple[float, float, float, float]
MIN_KEPT = 0.45  # share of a box that must lie inside a tile for it to be labelled there


def read_boxes(label: Path, w: int, h: int) -> list[tuple[int, Box]]:
    out = []
    for line in label.read_text().splitlines():
        p = line.split()
        if len(p) != 5:
            continue
        c, cx, cy, bw, bh = int(p[0]), *(float(v) for v in p[1:])
        out.append((c, ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h)))
    return out


def _positions(extent: int, size: int) -> list[int]:
    if extent <= size:
        return [0]
    step = max(1, size // 4)
    return sorted({*range(0, extent - size, step), extent - size})


def choose_tiles(boxes: Sequence[Box], w: int, h: int, size: int, rng: np.random.Generator,
                 max_tiles: int = 2, background: float = 0.25) -> list[tuple[int, int]]:
    """Top-left corners of up to ``max_tiles`` tiles, each covering the most objects not yet covered."""
    centres = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes]).reshape(-1, 2)
    uncovered = np.ones(len(centres), bool)
    xs, ys = _positions(w, size), _positions(h, size)
    out: list[tuple[int, int]] = []
    margin = 4.0
    while uncovered.any() and len(out) < max_tiles:
        best, best_n = (0, 0), 0
        for y in ys:
            in_y = (centres[:, 1] >= y + margin) & (centres[:, 1] < y + size - margin)
            for x in xs:
                n = int(np.count_nonzero(uncovered & in_y & (centres[:, 0] >= x + margin)
                                         & (centres[:, 0] < x + size - margin)))
                if n > best_n:
                    best, best_n = (x, y), n
        if best_n == 0:
            break
        x, y = best
        uncovered &= ~((centres[:, 0] >= x + margin) & (centres[:, 0] < x + size - margin)
                       & (centres[:, 1] >= y + margin) & (centres[:, 1] < y + size - margin))
        out.append(best)
    if not out or rng.random() < background:
        out.append((int(rng.choice(xs)), int(rng.choice(ys))))
    return out


def tile_labels(items: Sequence[tuple[int, Box]], x: int, y: int, size: int) -> list[str]:
    lines = []
    for c, (x0, y0, x1, y1) in items:
        a0, b0, a1, b1 = max(x0, x), max(y0, y), min(x1, x + size), min(y1, y + size)
        area = max(0.0, x1 - x0) * max(0.0, y1 - y0)
        if a1 <= a0 or b1 <= b0 or area <= 0 or (a1 - a0) * (b1 - b0) < MIN_KEPT * area:
            continue
        lines.append(f"{c} {((a0 + a1) / 2 - x) / size:.6f} {((b0 + b1) / 2 - y) / size:.6f} "
                     f"{(a1 - a0) / size:.6f} {(b1 - b0) / size:.6f}")
    return lines


def write_tiles(data: Path, split: str, size: int, frame_scale: float, photo_scale: float, seed: int = 0,
                max_tiles: int = 2) -> int:
    """Tiles of ``data/images/<split>`` into ``data/tiles/{images,labels}/<split>``; returns how many.

    Rendered frames (``WxH`` with ``W > H``) are brought to the network's scale by
    ``frame_scale`` relative to 1280 px wide, square photos by ``photo_scale``.
    """
    rng = np.random.default_rng([seed, len(split)])
    img_out, lab_out = data / "tiles" / "images" / split, data / "tiles" / "labels" / split
    for d in (img_out, lab_out):
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
    count = 0
    for path in sorted((data / "images" / split).glob("*.jpg")):
        label = data / "labels" / split / f"{path.stem}.txt"
        read = cv2.imread(str(path))
        if read is None or not label.exists():
            continue
        img = np.asarray(read, dtype=np.uint8)
        h, w = img.shape[:2]
        scale = photo_scale if w == h else frame_scale * 1280 / w
        if abs(scale - 1.0) > 1e-3:
            interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
            img = np.asarray(cv2.resize(img, (round(w * scale), round(h * scale)), interpolation=interp), np.uint8)
            h, w = img.shape[:2]
        items = read_boxes(label, w, h)
        for k, (x, y) in enumerate(choose_tiles([b for _, b in items], w, h, size, rng, max_tiles)):
            tile = img[y:y + size, x:x + size]
            if tile.shape[0] < size or tile.shape[1] < size:  # a frame smaller than a tile: pad like the letterbox
                tile = np.asarray(cv2.copyMakeBorder(tile, 0, size - tile.shape[0], 0, size - tile.shape[1],
                                                     cv2.BORDER_CONSTANT, value=(114, 114, 114)), np.uint8)
            cv2.imwrite(str(img_out / f"{path.stem}-t{k}.jpg"), tile, [cv2.IMWRITE_JPEG_QUALITY, 95])
            (lab_out / f"{path.stem}-t{k}.txt").write_text("\n".join(tile_labels(items, x, y, size)) + "\n")
            count += 1
    return count
