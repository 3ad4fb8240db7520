"""A card known only from one corner index needs a surer reading than one seen twice or outlined.

Most false cards on the real photos were lone indices read at 0.6-0.9 (print on a joker, half an
index in a fan); ``CardDetector.min_single_index`` holds those back (see its docstring).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tableref.vision.cards import CardDetector
from tableref.vision.cards_index import IndexProposal
from tableref.vision.cards_read import LABELS, IndexHit


def _hit(label: str, p: float, x: float, y: float) -> IndexHit:
    logp = np.full(len(LABELS), math.log((1.0 - p) / (len(LABELS) - 1)), np.float32)
    logp[LABELS.index(label)] = math.log(p)
    return IndexHit(IndexProposal(x, y, (0.0, 1.0), 20.0, 12.0, False), logp, 1.0)


@pytest.mark.parametrize(("p", "kept"), [(0.65, False), (0.8, True)])
def test_a_lone_index_is_reported_only_when_sure(monkeypatch: pytest.MonkeyPatch, p: float, kept: bool) -> None:
    det = CardDetector()
    monkeypatch.setattr(det.reader, "read_indices", lambda img: [_hit("7D", p, 100.0, 100.0)])
    out = det._with_indices(np.zeros((400, 400, 3), np.uint8), [])
    assert [o.best[0] for o in out] == (["7D"] if kept else [])


def test_two_indices_of_one_card_need_no_more_than_before(monkeypatch: pytest.MonkeyPatch) -> None:
    det = CardDetector()
    monkeypatch.setattr(det.reader, "read_indices",
                        lambda img: [_hit("7D", 0.6, 100.0, 100.0), _hit("7D", 0.6, 160.0, 190.0)])
    out = det._with_indices(np.zeros((400, 400, 3), np.uint8), [])
    assert [o.best[0] for o in out] == ["7D"]


def test_a_photo_reads_indices_whatever_card_size_its_segmentation_suggests(monkeypatch: pytest.MonkeyPatch) -> None:
    # overlapping cards can make the face segmentation's size estimate small; the indices still count
    import tableref.vision.cards as cards

    det = CardDetector()
    monkeypatch.setattr(cards, "estimate_card_size", lambda face: (34.0, 48.0))
    monkeypatch.setattr(cards, "find_cards", lambda *a, **k: [])
    monkeypatch.setattr(det.reader, "read_indices",
                        lambda img: [_hit("2D", 0.98, 100.0, 100.0), _hit("2D", 0.98, 160.0, 190.0)])
    assert [d.label for d in det.detect(np.zeros((400, 400, 3), np.uint8))] == ["2D"]
