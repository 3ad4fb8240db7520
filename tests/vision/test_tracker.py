"""The tracker keeps identities through motion and tells a pot from a ball hidden by a hand."""

from __future__ import annotations

from tableref.calibration.spec import load_table
from tableref.vision.detect import Detection
from tableref.vision.tracker import Tracker, TrackStatus

POOL = load_table("pool")
BAR = load_table("bar-billiards")
FPS = 30.0


def det(label: str, group: str, x: float, y: float, score: float = 0.9) -> Detection:
    return Detection(label=label, group=group, x=x, y=y, radius=10.0, score=score, x_mm=x, y_mm=y)


def test_a_rolling_ball_keeps_its_number_through_a_misread_frame() -> None:
    tracker = Tracker(POOL)
    out = None
    for i in range(20):
        label = "ball-3" if i != 10 else "ball-11"  # one frame misread as the stripe of the same colour
        group = "solid" if i != 10 else "stripe"
        out = tracker.update([det(label, group, 500 + 60 * i, 600)], i / FPS, i)
    assert out is not None
    (track,) = out.tracks
    assert track.id == "ball-3" and track.status is TrackStatus.VISIBLE
    assert abs(track.vx - 1800) < 200 and abs(track.vy) < 50


def test_two_balls_crossing_paths_do_not_swap() -> None:
    tracker = Tracker(POOL)
    ids: list[dict[str, float]] = []
    for i in range(30):
        a = det("ball-1", "solid", 800 + 40 * i, 600 + 2 * i)
        b = det("ball-2", "solid", 2000 - 40 * i, 640 - 2 * i)
        out = tracker.update([a, b], i / FPS, i)
        ids.append({tr.id: tr.x for tr in out.tracks})
    assert ids[-1]["ball-1"] > ids[-1]["ball-2"]


def test_indistinguishable_whites_get_their_own_names() -> None:
    tracker = Tracker(BAR)
    for i in range(3):
        out = tracker.update([det("white", "white", 700, 300), det("white", "white", 900, 500),
                              det("red", "red", 560, 381)], i / FPS, i)
    assert sorted(tr.id for tr in out.tracks) == ["red", "white-1", "white-2"]


def test_a_ball_vanishing_over_a_hole_is_potted_and_one_under_a_hand_is_kept() -> None:
    tracker = Tracker(BAR)
    hole = BAR.hole("hole-100")
    for i in range(5):
        tracker.update([det("white", "white", hole.x - 150 + 30 * i, hole.y), det("red", "red", 500, 200)], i / FPS, i)
    statuses: list[dict[str, TrackStatus]] = []
    for i in range(5, 20):
        out = tracker.update([], i / FPS, i)  # both vanish: the white over the hole, the red mid-table
        statuses.append({tr.id: tr.status for tr in out.tracks})
    potted = [s for s in statuses if s.get("white-1") is TrackStatus.POTTED]
    assert len(potted) == 1, "a pot is reported once"
    assert all(s["red"] is TrackStatus.MISSING for s in statuses), "a hidden ball is kept while a hand is over it"


def test_a_hidden_ball_comes_back_under_its_own_name() -> None:
    tracker = Tracker(BAR)
    for i in range(3):
        tracker.update([det("red", "red", 800, 300)], i / FPS, i)
    for i in range(3, 25):
        tracker.update([], i / FPS, i)
    out = tracker.update([det("red", "red", 805, 302)], 25 / FPS, 25)
    (track,) = out.tracks
    assert track.id == "red" and track.status is TrackStatus.VISIBLE


def test_update_with_no_detections_still_ages_tracks_until_removed() -> None:
    tracker = Tracker(BAR, occlusion_s=0.5)
    tracker.update([det("red", "red", 800, 300)], 0.0, 0)
    tracker.update([det("red", "red", 800, 300)], 1 / FPS, 1)
    seen = [tracker.update([], i / FPS, i) for i in range(2, 30)]
    final = [tr.status for out in seen for tr in out.tracks]
    assert TrackStatus.REMOVED in final and seen[-1].tracks == ()
