"""The card detector: every visible card in an image, with its rank and suit or ``face-down``.

``CardDetector(calibration=None).detect(image) -> tuple[Detection, ...]`` follows the detector
contract of ``vision/detect.py``: labels ``10S``, ``KD``, ``AH`` (group ``card``) or ``face-down``
(group ``face-down``), positions in image pixels, table millimetres when calibrated.

Two ways to read a card, chosen by how large cards appear:

* **Whole card** (a venue camera over the table, cards a few dozen pixels long): find each card's
  quadrilateral (``cards_find``: lone cards, touching and overlapping ones, backs), rectify it
  and read it with the card model from its layout, its averaged pips and its averaged corner index.
  With a calibration the search runs on the table seen from straight above, where every card is
  63 x 88 mm whatever the camera's tilt.
* **Corner index** (cards large in the image: a photo, a camera close over the board): read every
  corner index (``cards_index``) with the index model. One card shows two (or four) indices; those
  of one label close together are one card, reported midway between them (the card's centre when
  they are opposite corners). A hand fanned so that only indices show is still read. Without a
  calibration (a photo) indices are always read; with one, only when a card found is large.

The detector is stateless between calls (frames may be skipped); ``observe`` gives the richer
per-card records (:class:`~tableref.vision.cards_read.CardObservation`) the trick builder needs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.spec import TableSpec, load_table
from tableref.errors import UserError
from tableref.vision.cards_find import (
    FoundCard,
    ImagePlane,
    TablePlane,
    estimate_card_size,
    find_cards,
    segment,
)
from tableref.vision.cards_read import LABELS, CardObservation, CardReader, IndexHit
from tableref.vision.detect import Detection

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

#: Cards whose short side is at least this many image pixels are read by their corner indices.
INDEX_READABLE_PX = 90.0


class _Mapping:
    """Table mm <-> image pixels from whatever calibration object we are given."""

    def __init__(self, calibration: Any) -> None:
        m = getattr(calibration, "mapping", calibration)
        to_image = getattr(m, "to_image", None) or getattr(m, "to_pixels", None)
        if to_image is None or not hasattr(m, "to_table"):
            raise UserError("the card detector's calibration must map pixels to table mm and back "
                            "(a calibration from `tableref calibrate`)")
        self._to_image = to_image
        self._to_table = m.to_table

    def to_image(self, points_mm: F64) -> F64:
        return np.asarray(self._to_image(np.asarray(points_mm, np.float64).reshape(-1, 2)), np.float64).reshape(-1, 2)

    def to_table(self, points_px: F64) -> F64:
        return np.asarray(self._to_table(np.asarray(points_px, np.float64).reshape(-1, 2)), np.float64).reshape(-1, 2)


#: A lone index inside a learned proposer box at least this sure is a card at the reader's own
#: threshold: the box is independent evidence that an index is there (``min_single_index`` exists
#: for print on jokers and half indices in fans, which the proposer was taught are not indices).
BOXED_INDEX = 0.5


class CardDetector:
    """Cards on the card table (see the module docstring).

    ``calibration``: anything with ``to_table`` and ``to_image`` (or ``to_pixels``), or an object
    whose ``mapping`` has them (``tableref calibrate``'s calibration); optional.
    ``model_dir``: where ``card.npz`` and ``index.npz`` are (default ``models/cards``).
    ``min_score``: detections less likely than this are not reported.
    ``min_single_index``: a card known only from a single corner index (no outline claims it, no
    second index agrees) is reported only when its reading is at least this likely. Most false
    cards on the real photos were such lone indices read at 0.6-0.9 (print on a joker, half an
    index in a fan); higher drops more of them and some real cards seen by one index only. 0.7 was
    chosen on the validation groups of the photos (0.9827 -> 0.9711 read right, 0.164 -> 0.096
    false cards a photo), never on the held-out photos.
    """

    table = "cards"

    def __init__(self, calibration: Any = None, *, model_dir: str | Path | None = None, spec: TableSpec | None = None,
                 min_score: float = 0.3, region: tuple[float, float, float, float] | None = None,
                 px_per_mm: float | None = None, min_single_index: float = 0.7) -> None:
        """``region`` (x0, y0, x1, y1 in table mm, default the whole table) is where cards are looked
        for when calibrated; ``px_per_mm`` the resolution of the top-down view searched (default:
        the camera's own resolution there, at most one pixel a millimetre)."""
        self.spec = spec or getattr(calibration, "spec", None) or load_table("cards")
        self.mapping = _Mapping(calibration) if calibration is not None else None
        self.reader = CardReader(model_dir)
        self.min_score = min_score
        self.min_single_index = min_single_index
        self.region = region or (0.0, 0.0, self.spec.length_mm, self.spec.width_mm)
        self.px_per_mm = px_per_mm
        self._planes: dict[tuple[int, int], TablePlane] = {}

    # -- the contract --------------------------------------------------------------------------
    def detect(self, image: U8) -> tuple[Detection, ...]:
        return tuple(d for d in (as_detection(o) for o in self.observe(image)) if d.score >= self.min_score
                     or d.group == "face-down")

    # -- observations --------------------------------------------------------------------------
    def observe(self, image: U8, previous: Sequence[CardObservation] = ()) -> tuple[CardObservation, ...]:
        """Every card found in ``image`` with its reading (see the module docstring).

        ``previous`` (calibrated only): the last frame's observations. A card lying exactly as it
        lay then, as much of it showing, keeps its reading (``fresh`` False) instead of being read
        again; a still board costs only the search for cards.
        """
        img = _bgr(image)
        if self.mapping is not None:
            obs = self._observe_table(img, previous)
            big = [o for o in obs if _short_side(o.corners_px) >= INDEX_READABLE_PX]
            if big:
                obs = self._with_indices(img, obs)
            return tuple(obs)
        plane = ImagePlane()
        seg = segment(img, plane.roi(img.shape[:2]))
        size = estimate_card_size(seg.face)
        found = find_cards(img, plane.roi(img.shape[:2]), size, seg) if size is not None else []
        obs = self._read(img, [(f, f.corners) for f in found], None)
        # Uncalibrated (a photo): indices are always read. The card size estimated from the face
        # segmentation is no gate for them: where cards overlap it can come out small for cards
        # whose indices are plain to read (IMG_7757: four cards about 130 pixels long, indices read
        # 0.98, all lost to a whole-card reading of a 34-pixel outline). Where cards really are
        # small their index glyphs are under ``find_glyphs``' size and few proposals are made.
        return tuple(self._with_indices(img, obs))

    def _plane(self, shape: tuple[int, int]) -> TablePlane:
        key = (shape[1], shape[0])
        if key not in self._planes:
            assert self.mapping is not None
            s = self.px_per_mm or _camera_px_per_mm(self.mapping, self.region)
            self._planes[key] = TablePlane(self.mapping, self.region, s)
        return self._planes[key]

    def _observe_table(self, img: U8, previous: Sequence[CardObservation] = ()) -> list[CardObservation]:
        plane = self._plane(img.shape[:2])
        view = plane.view(img)
        roi = plane.roi(img.shape[:2])
        found = find_cards(view, roi, plane.card_size())
        quads = [(f, plane.to_image(f.corners)) for f in found]
        return self._read(img, quads, plane, previous)

    def _read(self, img: U8, found: Sequence[tuple[FoundCard, F64]], plane: TablePlane | None,
              previous: Sequence[CardObservation] = ()) -> list[CardObservation]:
        inside = [(f, q) for f, q in found if _inside(q, img.shape)]
        carried: dict[int, CardObservation] = {}
        if plane is not None and previous:
            for k, (f, _) in enumerate(inside):
                same = _same_view(plane.to_mm(f.corners), f.face_fraction, previous)
                if same is not None:
                    carried[k] = same
        todo = [k for k in range(len(inside)) if k not in carried]
        fresh = dict(zip(todo, self.reader.read_quads(img, [inside[k][1] for k in todo]), strict=True))
        out = []
        for k, (f, q) in enumerate(inside):
            if k in carried:
                out.append(replace(carried[k], fresh=False))
                continue
            logp, p_back, p_none = fresh[k]
            if p_none > 0.5:
                continue  # a hand, a sleeve: not a card
            if not f.face_up:
                p_back = max(p_back, 0.9)
            centre_px = (float(q[:, 0].mean()), float(q[:, 1].mean()))
            centre_mm = angle = corners_mm = None
            if plane is not None:
                corners_mm = plane.to_mm(f.corners)
                c = corners_mm.mean(axis=0)
                centre_mm = (float(c[0]), float(c[1]))
                angle = f.angle
            out.append(CardObservation(q, centre_px, logp, p_back, f.face_fraction, p_none, centre_mm, angle,
                                       corners_mm))
        return out

    def _with_indices(self, img: U8, obs: list[CardObservation]) -> list[CardObservation]:
        """Read corner indices and let them name (or add) cards (see the module docstring)."""
        hits = self.reader.read_indices(img)
        if not hits:
            return obs
        groups = _group_indices(hits)
        out: list[CardObservation] = []
        claimed: set[int] = set()
        for o in obs:
            poly = o.corners_px.astype(np.float32)
            mine = [g for k, g in enumerate(groups) if k not in claimed and any(
                cv2.pointPolygonTest(poly, (h.proposal.cx, h.proposal.cy), False) >= 0 for h in g)]
            if not mine:
                if _short_side(o.corners_px) < INDEX_READABLE_PX or not o.face_up:
                    out.append(o)  # small cards are read whole; large ones need an index
                continue
            best = max(mine, key=lambda g: max(h.p_index * h.best[1] for h in g))
            claimed.add(groups.index(best))
            logp = np.sum([h.logp for h in best], axis=0).astype(np.float32)
            out.append(CardObservation(o.corners_px, o.centre_px, logp, 0.0, o.face_fraction, 0.0, o.centre_mm, o.angle,
                                       o.corners_mm, "index", _boxes(best)))
        for k, g in enumerate(groups):
            if k in claimed or (len(g) == 1 and g[0].best[1] < self.min_single_index
                                and g[0].box_score < BOXED_INDEX):
                continue
            out.append(_index_card(g, self.mapping))
        return out


def _same_view(corners_mm: F64, face: float, previous: Sequence[CardObservation]) -> CardObservation | None:
    """The previous observation of a card lying exactly here (corners within 1.5 mm), equally visible."""
    for o in previous:
        if o.corners_mm is None or abs(o.face_fraction - face) > 0.03:
            continue
        d = np.hypot(*(o.corners_mm - corners_mm).T)
        if float(d.max()) < 1.5:
            return o
    return None


def _camera_px_per_mm(mapping: _Mapping, region: tuple[float, float, float, float]) -> float:
    """Image pixels per table mm in the middle of ``region``, kept within [0.5, 1.0].

    Warping finer than the camera sees only costs time; coarser than half a pixel a millimetre
    would blur the gaps between touching cards.
    """
    cx, cy = (region[0] + region[2]) / 2.0, (region[1] + region[3]) / 2.0
    p = mapping.to_image(np.array([[cx, cy], [cx + 10.0, cy], [cx, cy + 10.0]]))
    jx, jy = (p[1] - p[0]) / 10.0, (p[2] - p[0]) / 10.0
    scale = math.sqrt(abs(float(jx[0] * jy[1] - jx[1] * jy[0])))
    return float(min(1.0, max(0.5, scale)))


def _bgr(image: U8) -> U8:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim not in (2, 3):
        raise UserError("the card detector takes an 8-bit image (BGR colour or grey)")
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    if image.shape[2] == 4:
        return np.asarray(image[..., :3], np.uint8)
    return image


def _inside(q: F64, shape: tuple[int, ...]) -> bool:
    h, w = shape[:2]
    c = q.mean(axis=0)
    return bool(0 <= c[0] < w and 0 <= c[1] < h)


def _short_side(q: F64) -> float:
    sides = [float(np.hypot(*(q[(i + 1) % 4] - q[i]))) for i in range(4)]
    return min(sides[0] + sides[2], sides[1] + sides[3]) / 2.0


def _group_indices(hits: list[IndexHit]) -> list[list[IndexHit]]:
    """Indices of one label close enough to be corners of one card (within its diagonal)."""
    groups: list[list[IndexHit]] = []
    for h in sorted(hits, key=lambda h: -h.p_index * h.best[1]):
        lab = h.best[0]
        for g in groups:
            if g[0].best[0] != lab:
                continue
            reach = 11.0 * max(h.proposal.height, g[0].proposal.height)
            if all(math.hypot(h.proposal.cx - k.proposal.cx, h.proposal.cy - k.proposal.cy) < reach for k in g):
                g.append(h)
                break
        else:
            groups.append([h])
    return groups


def _boxes(group: Sequence[IndexHit]) -> tuple[tuple[float, float, float, float], ...]:
    out = []
    for h in group:
        c = h.proposal.corners()
        out.append((float(c[:, 0].min()), float(c[:, 1].min()), float(c[:, 0].max()), float(c[:, 1].max())))
    return tuple(out)


def _index_card(group: list[IndexHit], mapping: _Mapping | None) -> CardObservation:
    """A card known only by its corner indices.

    Two indices of one card lie in opposite corners, so the card's centre is midway between them;
    a detection's radius is that of a circle of the card's area, and a card's index centres lie
    just outside that circle (about 1.05 radii from the centre on a poker card), so their spread
    gives the card's size whatever the deck's index size. One index alone (or indices too close
    together to be two corners) is reported where it is, with the radius of a card whose index is
    that tall (3.5 index heights: generous, as index sizes differ between decks).
    """
    xs = np.array([h.proposal.cx for h in group])
    ys = np.array([h.proposal.cy for h in group])
    cx, cy = float(xs.mean()), float(ys.mean())
    size = max(h.proposal.height for h in group)
    reach = float(np.max(np.hypot(xs - cx, ys - cy))) if len(group) >= 2 else 0.0
    radius = 1.05 * reach if reach >= size else 3.5 * size
    half = radius * math.sqrt(math.pi) / 2.0  # a square of the same area as that circle
    quad = np.array([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half], [cx - half, cy + half]])
    logp = np.sum([h.logp for h in group], axis=0).astype(np.float32)
    centre_mm = None
    if mapping is not None:
        c = mapping.to_table(np.array([[cx, cy]]))[0]
        centre_mm = (float(c[0]), float(c[1]))
    return CardObservation(quad, (cx, cy), logp, 0.0, 1.0, 0.0, centre_mm, None, None, "index", _boxes(group))


def as_detection(o: CardObservation) -> Detection:
    area = max(o.area_px, 1.0)
    radius = math.sqrt(area / math.pi)
    if not o.face_up:
        return Detection("face-down", "face-down", o.centre_px[0], o.centre_px[1], radius, round(o.p_back, 4),
                         *(o.centre_mm or (None, None)))
    k = int(np.argmax(o.logp))
    score = float(min(1.0, max(0.0, math.exp(float(o.logp[k])) * (1.0 - o.p_back - o.p_none))))
    return Detection(LABELS[k], "card", o.centre_px[0], o.centre_px[1], radius, round(score, 4),
                     *(o.centre_mm or (None, None)))
