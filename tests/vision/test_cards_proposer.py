"""The learned corner-index proposer (``vision/cards_proposer.py``, ``models/cards/index_proposals.onnx``).

It says where indices are; the corner-index CNN reads them. Checked here: the shipped file loads
through onnxruntime and through OpenCV's DNN module alike (no torch), finds the labelled indices
of a held-out real photo, turns each box into proposals every way round, and two of its boxes
keep two close readings apart in the vote while one box lets the surer reading speak.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tableref.errors import UserError
from tableref.vision.cards import CardDetector
from tableref.vision.cards_data import DEFAULT_DIR, photos
from tableref.vision.cards_index import IndexProposal
from tableref.vision.cards_proposer import DEFAULT_PATH, IndexBoxes, IndexProposer, proposals_from_boxes
from tableref.vision.cards_read import LABELS, RANKS, SUITS, IndexHit, _vote, box_of

needs_data = pytest.mark.skipif(not (DEFAULT_DIR / "classes.txt").is_file(), reason="cards-real data set not present")


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def test_the_proposer_is_shipped_small() -> None:
    assert DEFAULT_PATH.is_file()
    assert DEFAULT_PATH.stat().st_size < 15_000_000


@needs_data
@pytest.mark.parametrize("backend", ["onnxruntime", "opencv"])
def test_it_finds_the_indices_of_a_held_out_photo(backend: str) -> None:
    # a held-out photo (never trained on) with several cards
    photo = next(p for p in photos(split="test") if len(p.cards()) >= 4)
    image = cv2.imread(str(photo.path))
    found = IndexProposer(backend=backend).boxes(image)
    assert len(found) >= 1 and np.all(np.diff(found.scores) <= 0)  # surest first
    truth = [b for name, b in photo.boxes if name in LABELS]
    hit = sum(any(_iou(tuple(f), t) >= 0.3 for f in found.boxes.tolist()) for t in truth)
    assert hit >= 0.75 * len(truth), (hit, len(truth))


def test_a_blank_table_gives_no_sure_box() -> None:
    # green cloth, nothing on it (the few faint boxes it may give are read "none" by the CNN)
    table = np.full((480, 640, 3), (40, 110, 30), np.uint8)
    assert len(IndexProposer().boxes(table, min_score=0.5)) == 0


def test_a_missing_model_is_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UserError, match="train_cards_detector"):
        IndexProposer(tmp_path / "none.onnx")


def test_a_square_box_is_offered_every_way_round() -> None:
    # an index turned 45 degrees fills a square box: which way it runs is unknown
    image = np.full((200, 200, 3), 235, np.uint8)
    boxes = IndexBoxes(np.array([[100.0, 50.0, 140.0, 90.0]], np.float32), np.array([0.9], np.float32))
    props = proposals_from_boxes(image, boxes)
    assert len({(round(p.down[0], 2), round(p.down[1], 2)) for p in props}) == len(props) == 8
    assert all((p.cx, p.cy) == (120.0, 70.0) for p in props)


def test_a_tall_box_is_read_along_its_length_only() -> None:
    # an upright index is taller than wide: a crop across it is a sight the reader never learnt
    image = np.full((200, 200, 3), 235, np.uint8)
    boxes = IndexBoxes(np.array([[100.0, 50.0, 120.0, 100.0], [10.0, 10.0, 60.0, 30.0]], np.float32),
                       np.array([0.9, 0.8], np.float32))
    props = proposals_from_boxes(image, boxes)
    assert [p.down for p in props] == [(0.0, 1.0), (0.0, -1.0), (1.0, 0.0), (-1.0, 0.0)]
    assert props[0].height == pytest.approx(1.25 * 50.0)  # spans the box's height, a little more
    assert props[2].height == pytest.approx(1.25 * 50.0)  # the wide box: along its width
    assert not props[0].light


def test_light_print_on_a_dark_card_is_inverted() -> None:
    image = np.full((200, 200, 3), 25, np.uint8)
    boxes = IndexBoxes(np.array([[100.0, 50.0, 120.0, 100.0]], np.float32), np.array([0.9], np.float32))
    assert all(p.light for p in proposals_from_boxes(image, boxes))


def _probs(readings: list[tuple[str, float]]) -> tuple[np.ndarray, np.ndarray]:
    rank_p = np.zeros((len(readings), len(RANKS) + 1), np.float32)
    suit_p = np.zeros((len(readings), len(SUITS)), np.float32)
    for k, (label, p) in enumerate(readings):
        rank_p[k, RANKS.index(label[:-1])] = p
        rank_p[k, -1] = 1.0 - p
        suit_p[k, SUITS.index(label[-1])] = 1.0
    return rank_p, suit_p


def _prop(x: float, y: float) -> IndexProposal:
    return IndexProposal(x, y, (0.0, 1.0), 50.0, 30.0, False)


def test_two_boxes_keep_two_close_indices_of_a_dense_fan() -> None:
    # QD and 3D 12 px apart across the index: the distance rule alone takes them for one print
    props = [_prop(100.0, 100.0), _prop(112.0, 104.0)]
    rank_p, suit_p = _probs([("QD", 0.97), ("3D", 0.8)])
    assert [h.best[0] for h in _vote(props, rank_p, suit_p, 0.5)] == ["QD"]
    boxes = np.array([[92.0, 80.0, 106.0, 120.0], [107.0, 84.0, 120.0, 124.0]], np.float32)
    where = box_of(props, boxes)
    assert where == [0, 1]
    hits = _vote(props, rank_p, suit_p, 0.5, where, np.array([0.9, 0.8], np.float32))
    assert sorted(h.best[0] for h in hits) == ["3D", "QD"]
    assert sorted(h.box_score for h in hits) == pytest.approx([0.8, 0.9])


def test_one_box_lets_the_surer_reading_speak() -> None:
    props = [_prop(100.0, 100.0), _prop(104.0, 102.0)]
    rank_p, suit_p = _probs([("QD", 0.97), ("QS", 0.7)])
    boxes = np.array([[90.0, 75.0, 115.0, 125.0]], np.float32)
    hits = _vote(props, rank_p, suit_p, 0.5, box_of(props, boxes), np.array([0.9], np.float32))
    assert [h.best[0] for h in hits] == ["QD"]


def _hit(label: str, p: float, box_score: float) -> IndexHit:
    logp = np.full(len(LABELS), math.log((1.0 - p) / (len(LABELS) - 1)), np.float32)
    logp[LABELS.index(label)] = math.log(p)
    return IndexHit(IndexProposal(100.0, 100.0, (0.0, 1.0), 20.0, 12.0, False), logp, 1.0, box_score)


@pytest.mark.parametrize(("box_score", "kept"), [(0.0, False), (0.3, False), (0.8, True)])
def test_a_lone_index_in_a_sure_box_needs_only_the_readers_bar(monkeypatch: pytest.MonkeyPatch, box_score: float,
                                                                kept: bool) -> None:
    det = CardDetector()
    monkeypatch.setattr(det.reader, "read_indices", lambda img: [_hit("7D", 0.6, box_score)])
    out = det._with_indices(np.zeros((400, 400, 3), np.uint8), [])
    assert [o.best[0] for o in out] == (["7D"] if kept else [])


@needs_data
def test_without_the_proposer_the_glyph_search_still_reads() -> None:
    photo = next(p for p in photos(split="test") if len(p.cards()) == 1 and len(p.boxes) == 2)
    image = cv2.imread(str(photo.path))
    det = CardDetector()
    det.reader.learned_proposals = False
    (name,) = photo.cards()
    assert [d.label for d in det.detect(image) if d.group == "card"] == [name]
