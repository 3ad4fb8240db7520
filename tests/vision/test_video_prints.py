"""A carrom board's printed red circles, learned into the background around the pieces on it."""

from __future__ import annotations

import cv2
import numpy as np

from tableref.vision.video_geometry import StaticDisc
from tableref.vision.video_prints import PrintWatcher

CLOTH = (150.0, 180.0, 210.0)  # a light wooden board (BGR)
RED = (40, 40, 170)


def _board() -> tuple[np.ndarray, np.ndarray, list[StaticDisc]]:
    work = np.zeros((60, 80, 3), np.uint8)
    work[:] = CLOTH
    prints = [StaticDisc("baseline-north-circle-0", 15.0, 30.0, 5.0, "print"),
              StaticDisc("baseline-north-circle-1", 40.0, 30.0, 5.0, "print"),
              StaticDisc("baseline-south-circle-0", 15.0, 10.0, 5.0, "print")]
    for pr in prints:
        cv2.circle(work, (int(pr.x), int(pr.y)), int(pr.radius), RED, -1)
    cloth = np.zeros(work.shape, np.float32)
    cloth[:] = CLOTH
    return work, cloth, prints


def _surveyed() -> tuple[np.ndarray, PrintWatcher, np.ndarray, StaticDisc]:
    """The empty board, its watcher having learned the circles, the board as background, and
    the circle in the middle."""
    work, cloth, prints = _board()
    watcher = PrintWatcher(prints)
    watcher.survey(work, cloth, [])
    return work, watcher, work.astype(np.float32), prints[1]


def test_a_base_circle_half_hidden_by_a_man_beside_it_is_learned_whole() -> None:
    """Carroms seed 1802 (piece off the board): a black man lay beside a base circle, its image
    over a third of the circle. The circle is empty (a man beside it is no piece on it), so the
    first frame's pixels were painted into the background around the man; the part the man hid
    stayed plain cloth. That red crescent was then found against the background as a red piece,
    a queen that stayed on the circle for the whole clip. Where a piece beside a circle hides it,
    the circle takes its learned look; the rest of the piece's place stays painted out."""
    work, cloth, prints = _board()
    cv2.circle(work, (47, 30), 5, (25, 25, 25), -1)  # the black man, over the circle's right side
    watcher = PrintWatcher(prints)
    watcher.survey(work, cloth, [])  # learns the circles' empty look (relative to the board)
    objects = np.zeros(work.shape[:2], np.uint8)
    cv2.circle(objects, (47, 30), 6, 255, -1)
    background = cloth.copy()
    watcher.paint(work, cloth, background, [], objects)
    hidden = background[30, 43]  # on the circle, under the man
    assert hidden[2] > 150 and hidden[1] < 80, "the hidden part of the print is red, as the rest of it"
    assert np.allclose(background[30, 49], CLOTH), "the man's place off the circle stays the bare board"
    assert np.allclose(background[30, 38], work[30, 38]), "the circle's own pixels where it shows"


def test_a_circle_under_a_players_arm_shadow_is_not_taken_for_the_queen() -> None:
    """Carroms seed 1802 (pot): the player's arm cast a shadow across the board, over the empty
    centre circle and far beyond it. The print and the ring around it darkened, which is what
    a raised piece on it does, and a "queen" was placed there, then taken away. A circle with a
    shadow across the band around it (``PrintParams.cast_shadow``) is not judged on that frame;
    a queen set on a circle, her own shadow beside her, still is."""
    work, watcher, background, centre = _surveyed()
    shadowed = work.copy()
    band = np.zeros(work.shape[:2], np.uint8)
    cv2.rectangle(band, (32, 0), (52, 59), 255, -1)  # the arm's shadow, a band across the board
    shadowed[band > 0] = (shadowed[band > 0] * 0.7).astype(np.uint8)
    assert centre in watcher.occupied(shadowed, background), "without the shadow mask: a phantom queen"
    assert centre not in watcher.occupied(shadowed, background, band)
    queen = work.copy()
    cv2.circle(queen, (43, 33), 5, (20, 20, 90), -1)  # her own shadow, beside her
    cv2.circle(queen, (40, 30), 5, (50, 45, 185), -1)  # the queen, a slightly different red
    own = np.zeros(work.shape[:2], np.uint8)
    cv2.circle(own, (43, 33), 6, 255, -1)
    assert centre in watcher.occupied(queen, background, own)


def test_a_soft_shadow_over_a_circle_and_the_board_round_it_is_no_queen() -> None:
    """Carroms seed 1802 (queen covered): an arm passing over the empty centre circle dimmed the
    print by 12 % and the board round it by 11 %, too softly for the shadow mask. The darker ring
    round the circle read as a raised piece's shadow and a "queen" stood there for two frames;
    its track then held the queen's name, and the real queen, by a base circle, was reported as
    a second one. A piece's own shadow is darker than the lit board beyond it; a cast shadow
    dims both alike. A queen a shade off the print's red, her shadow round her, is still seen."""
    work, watcher, background, centre = _surveyed()
    dimmed = work.copy()
    dimmed[:, 22:62] = (dimmed[:, 22:62] * 0.885).astype(np.uint8)
    assert centre not in watcher.occupied(dimmed, background)
    queen = work.copy()
    cv2.circle(queen, (40, 30), 8, (105, 126, 147), -1)  # her shadow, all round her
    cv2.circle(queen, (40, 30), 5, (52, 46, 180), -1)
    assert centre in watcher.occupied(queen, background)
