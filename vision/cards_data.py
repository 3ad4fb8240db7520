"""The labelled real card photographs (``shared/datasets/cards-real``): reading them, and the fixed split.

The photos come in bursts: the same card, table and light photographed a few seconds apart
(``IMG_20220921_193915`` .. ``193954``; ``IMG_7702`` .. ``IMG_7711``). A split by file name would put
near-copies of one scene on both sides, so the split is by *capture group* instead: the minute of
the time stamp in the name (``IMG_YYYYMMDD_HHMMSS``, ``WIN_YYYYMMDD_HH_MM_SS_Pro``) or the block of
ten camera numbers (``IMG_NNNN``). A group is held out for testing when the SHA-1 of its name is
0 modulo 5, which fixes the split for good (98 of the 662 photos); nothing is tuned on it.

Labels are YOLO boxes around each card's corner index (usually two per card). A *labelled card*
is one card class present in a photo (its boxes together); jokers and backs are not cards.

Scoring (:func:`score_photo`, shared by the benchmark and the tests): a labelled card is *read
right* when a card detection carries its label and lies on it, i.e. the detection's circle (its
centre and radius, the radius of a circle of the card's area) reaches one of the card's index
boxes. A card detection that reads no labelled card there is a *false card* (a wrong reading, or a
card where there is none); a second detection of a card already read is a *duplicate*.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tableref.errors import UserError

if TYPE_CHECKING:
    from tableref.vision.detect import Detection

Box = tuple[float, float, float, float]

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "cards-real"
CARD_NAMES = frozenset(r + s for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
                       for s in ("S", "H", "D", "C"))


def capture_group(stem: str) -> str:
    """The burst a photo belongs to (see the module docstring)."""
    m = re.match(r"IMG_(\d{8})_(\d{4})\d{2}$", stem)
    if m:
        return f"IMG_{m.group(1)}_{m.group(2)}"
    m = re.match(r"IMG_(\d+)$", stem)
    if m:
        return f"IMG_{int(m.group(1)) // 10}"
    m = re.match(r"WIN_(\d{8})_(\d{2})_(\d{2})_\d{2}_Pro$", stem)
    if m:
        return f"WIN_{m.group(1)}_{m.group(2)}_{m.group(3)}"
    return stem


def is_test(stem: str) -> bool:
    """True for the held-out photos (the benchmark's), False for those a model may train on."""
    return int(hashlib.sha1(capture_group(stem).encode()).hexdigest(), 16) % 5 == 0


@dataclass(frozen=True)
class LabelledPhoto:
    """One photo: its path and its corner-index boxes in pixels (class name, box)."""

    stem: str
    path: Path
    boxes: tuple[tuple[str, Box], ...]

    def cards(self) -> dict[str, list[Box]]:
        """The labelled cards: each card class in the photo with its boxes."""
        out: dict[str, list[Box]] = {}
        for name, box in self.boxes:
            if name in CARD_NAMES:
                out.setdefault(name, []).append(box)
        return out


def dataset_dir(path: str | Path | None = None) -> Path:
    d = Path(path) if path is not None else DEFAULT_DIR
    if not (d / "classes.txt").is_file():
        raise UserError(f"no card photo dataset at {str(d)!r} (it needs classes.txt and NAME.jpg/NAME.txt pairs)")
    return d


def photos(path: str | Path | None = None, split: str | None = None, size: int = 640) -> Iterator[LabelledPhoto]:
    """The dataset's photos in name order; ``split`` ``train`` or ``test`` keeps one side of the split.

    Boxes are scaled to ``size`` pixels (the export's images are 640 x 640). Lines that are not a
    box (polygons drawn around card backs) are skipped.
    """
    if split not in (None, "train", "test"):
        raise ValueError(f"split must be 'train', 'test' or None, got {split!r}")
    d = dataset_dir(path)
    classes = [line.strip() for line in (d / "classes.txt").read_text("utf-8").splitlines() if line.strip()]
    for img in sorted(d.glob("*.jpg")):
        stem = img.stem
        if split is not None and is_test(stem) != (split == "test"):
            continue
        boxes: list[tuple[str, Box]] = []
        label_file = img.with_suffix(".txt")
        if label_file.is_file():
            for line in label_file.read_text("utf-8").splitlines():
                parts = line.split()
                if len(parts) != 5:
                    continue
                k = int(parts[0])
                if not 0 <= k < len(classes):
                    continue
                x, y, w, h = (float(v) * size for v in parts[1:])
                boxes.append((classes[k], (x - w / 2, y - h / 2, x + w / 2, y + h / 2)))
        yield LabelledPhoto(stem, img, tuple(boxes))


# -- scoring a detector on a labelled photo ------------------------------------------------------


@dataclass(frozen=True)
class PhotoScore:
    """What one photo scored: its labelled cards read right or missed, and the other detections."""

    stem: str
    right: tuple[str, ...]
    missed: tuple[tuple[str, str], ...]  # (true label, what was read there or "-")
    false_cards: int
    duplicates: int
    face_down: int
    ms: float


def _near(d: Detection, boxes: Sequence[Box]) -> bool:
    """The detection's circle reaches one of these index boxes."""
    reach = max(d.radius, 1.0)
    for x0, y0, x1, y1 in boxes:
        dx = max(x0 - d.x, 0.0, d.x - x1)
        dy = max(y0 - d.y, 0.0, d.y - y1)
        if math.hypot(dx, dy) <= reach:
            return True
    return False


def score_photo(photo: LabelledPhoto, detections: Sequence[Detection], ms: float) -> PhotoScore:
    """Match one photo's detections to its labelled cards (see the module docstring); ``ms`` is kept as given."""
    cards = photo.cards()
    face = [d for d in detections if d.group == "card"]
    read: set[str] = set()
    false_cards = duplicates = 0
    for d in sorted(face, key=lambda d: -d.score):
        if d.label in cards and _near(d, cards[d.label]):
            if d.label in read:
                duplicates += 1
            read.add(d.label)
        else:
            false_cards += 1
    missed = []
    for name, boxes in cards.items():
        if name in read:
            continue
        there = [d.label for d in face if _near(d, boxes)]
        missed.append((name, there[0] if there else "-"))
    return PhotoScore(photo.stem, tuple(sorted(read)), tuple(missed), false_cards, duplicates,
                      sum(d.group == "face-down" for d in detections), ms)
