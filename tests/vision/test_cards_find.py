"""Finding card outlines in a top-down view: lone cards, touching and overlapping ones, a hand, backs.

The views are drawn here (cloth, white cards with dark pips, a skin-coloured hand, a patterned back),
one pixel a millimetre, so every card is exactly 63 x 88 and its true outline is known.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tableref.vision.cards_features import order_quad
from tableref.vision.cards_find import (
    CARD_H_MM,
    CARD_W_MM,
    estimate_card_size,
    find_cards,
    iou_quads,
    segment,
)

CLOTHS = {"green": (50, 100, 20), "blue": (120, 60, 30), "tan": (70, 110, 150), "red": (35, 30, 100)}


def corners(cx: float, cy: float, angle: float) -> np.ndarray:
    t = math.radians(angle)
    u = np.array([math.sin(t), math.cos(t)])  # long axis
    v = np.array([math.cos(t), -math.sin(t)])
    hw, hh = CARD_W_MM / 2, CARD_H_MM / 2
    c = np.array([cx, cy])
    return np.array([c - v * hw - u * hh, c + v * hw - u * hh, c + v * hw + u * hh, c - v * hw + u * hh])


def draw_card(img: np.ndarray, q: np.ndarray, face: tuple[int, int, int] = (245, 247, 248), back: bool = False) -> None:
    cv2.fillConvexPoly(img, np.round(q).astype(np.int32), face, cv2.LINE_AA)
    centre = q.mean(axis=0)
    if back:
        inner = centre + (q - centre) * 0.9
        cv2.fillConvexPoly(img, np.round(inner).astype(np.int32), (150, 60, 30), cv2.LINE_AA)
        return
    for fx, fy in ((0.3, 0.25), (0.7, 0.25), (0.5, 0.5), (0.3, 0.75), (0.7, 0.75)):  # pips
        p = q[0] + (q[1] - q[0]) * fx + (q[3] - q[0]) * fy
        cv2.circle(img, (int(round(p[0])), int(round(p[1]))), 4, (30, 30, 200), -1, cv2.LINE_AA)


def view(cards: list[tuple[float, float, float]], cloth: str = "green", backs: tuple[tuple[float, float, float], ...] = (),
         hand: tuple[int, int] | None = None) -> np.ndarray:
    img = np.zeros((500, 600, 3), np.uint8)
    img[:] = CLOTHS[cloth]
    rng = np.random.default_rng(0)
    for cx, cy, a in backs:
        draw_card(img, corners(cx, cy, a), back=True)
    for cx, cy, a in cards:
        draw_card(img, corners(cx, cy, a))
    if hand is not None:
        cv2.ellipse(img, hand, (30, 26), 20, 0, 360, (80, 130, 190), -1, cv2.LINE_AA)  # skin
    noise = rng.normal(0.0, 2.0, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def match(found: list, truth: list[tuple[float, float, float]]) -> list[float]:
    """Best quad overlap of each true card among the found ones."""
    quads = [f.corners for f in found]
    return [max((iou_quads(q, corners(*t)) for q in quads), default=0.0) for t in truth]


@pytest.mark.parametrize("cloth", sorted(CLOTHS))
def test_lone_cards_at_any_angle_on_any_cloth(cloth: str) -> None:
    truth = [(120.0, 120.0, 0.0), (300.0, 140.0, 33.0), (470.0, 130.0, 90.0), (150.0, 360.0, 145.0), (400.0, 360.0, 271.0)]
    img = view(truth, cloth)
    found = find_cards(img, np.ones(img.shape[:2], np.uint8), (CARD_W_MM, CARD_H_MM))
    assert len(found) == len(truth)
    assert min(match(found, truth)) > 0.9
    assert all(f.face_up and f.alone for f in found)


def test_overlapping_cards_are_told_apart_by_their_corners_and_edges() -> None:
    truth = [(250.0, 250.0, 10.0), (300.0, 270.0, 60.0)]  # the second lies across the first's corner
    img = view(truth)
    found = find_cards(img, np.ones(img.shape[:2], np.uint8), (CARD_W_MM, CARD_H_MM))
    assert len(found) == 2
    assert min(match(found, truth)) > 0.8


def test_a_hand_over_a_card_hides_part_of_it_but_the_card_is_still_found() -> None:
    truth = [(300.0, 250.0, 20.0)]
    img = view(truth, hand=(300, 300))
    found = find_cards(img, np.ones(img.shape[:2], np.uint8), (CARD_W_MM, CARD_H_MM))
    assert len(found) == 1
    assert match(found, truth)[0] > 0.8
    assert found[0].face_fraction < 1.0


def test_a_back_is_found_face_down() -> None:
    img = view([(150.0, 250.0, 0.0)], backs=((420.0, 250.0, 75.0),))
    found = find_cards(img, np.ones(img.shape[:2], np.uint8), (CARD_W_MM, CARD_H_MM))
    assert len(found) == 2
    back = [f for f in found if iou_quads(f.corners, corners(420.0, 250.0, 75.0)) > 0.8]
    assert back, "the back's outline was not found"


def test_without_a_calibration_the_card_size_is_measured_from_lone_cards() -> None:
    img = view([(150.0, 150.0, 0.0), (400.0, 300.0, 40.0)])
    seg = segment(img, np.ones(img.shape[:2], np.uint8))
    size = estimate_card_size(seg.face)
    assert size is not None
    assert size[0] == pytest.approx(CARD_W_MM, abs=3.0) and size[1] == pytest.approx(CARD_H_MM, abs=3.0)


def test_an_empty_table_has_no_cards() -> None:
    img = view([])
    assert find_cards(img, np.ones(img.shape[:2], np.uint8), (CARD_W_MM, CARD_H_MM)) == []


def test_quads_are_ordered_clockwise_with_a_short_side_first() -> None:
    q = corners(100.0, 100.0, 30.0)[[1, 2, 3, 0]][::-1]
    o = order_quad(q)
    sides = [float(np.hypot(*(o[(i + 1) % 4] - o[i]))) for i in range(4)]
    assert sides[0] == pytest.approx(CARD_W_MM, abs=0.1) and sides[1] == pytest.approx(CARD_H_MM, abs=0.1)
    area = sum(o[i, 0] * o[(i + 1) % 4, 1] - o[(i + 1) % 4, 0] * o[i, 1] for i in range(4))
    assert area > 0  # clockwise as seen on screen
