"""A clip on disk: video and truth agree, follow the schema, and the same seed gives the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tableref.calibration.camera import CameraModel
from tableref.events import EventType
from tableref.simulator.clip import make_clip
from tableref.simulator.state import ObjectStatus
from tableref.simulator.video import read_frames

W, H = 320, 180
GAME, SCENARIO = "colors", "two-ball-pot"  # the shortest pool scenario


@pytest.fixture(scope="module")
def clip_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("clip")
    make_clip(GAME, SCENARIO, 3, out, width=W, height=H)
    return out


def test_the_same_seed_writes_the_same_bytes(clip_dir: Path, tmp_path: Path) -> None:
    make_clip(GAME, SCENARIO, 3, tmp_path, width=W, height=H)
    for name in ("video.mp4", "truth.json"):
        assert (tmp_path / name).read_bytes() == (clip_dir / name).read_bytes(), name


def test_another_seed_makes_another_clip(clip_dir: Path, tmp_path: Path) -> None:
    make_clip(GAME, SCENARIO, 4, tmp_path, width=W, height=H)
    assert (tmp_path / "video.mp4").read_bytes() != (clip_dir / "video.mp4").read_bytes()
    a = json.loads((clip_dir / "truth.json").read_text())
    b = json.loads((tmp_path / "truth.json").read_text())
    assert a["camera"] != b["camera"] and a["states"] != b["states"]


def test_truth_follows_the_schema_and_matches_the_video(clip_dir: Path) -> None:
    truth = json.loads((clip_dir / "truth.json").read_text())
    for key in ("game", "table", "scenario", "seed", "fps", "width", "height", "frames", "homography",
                "homography_cloth", "camera", "table_spec", "states", "events", "meta"):
        assert key in truth, key
    assert (truth["game"], truth["table"], truth["scenario"], truth["seed"]) == (GAME, "pool", SCENARIO, 3)
    assert (truth["width"], truth["height"], truth["fps"]) == (W, H, 30.0)
    frames = read_frames(clip_dir / "video.mp4")
    assert len(frames) == truth["frames"] == len(truth["states"])
    assert frames[0].shape == (H, W, 3)
    statuses = {s.value for s in ObjectStatus}
    ids = None
    for states in truth["states"]:
        for o in states:
            assert {"id", "kind", "x", "y", "status"} <= set(o) and o["status"] in statuses
            assert isinstance(o["x"], float | int) and isinstance(o["y"], float | int)
        frame_ids = [o["id"] for o in states]
        ids = ids or frame_ids
        assert frame_ids == ids, "every object in every frame"
    vocabulary = {e.value for e in EventType}
    assert truth["events"], "a pot scenario has events"
    for e in truth["events"]:
        assert e["type"] in vocabulary and isinstance(e["objects"], list) and 0 <= e["frame"] < truth["frames"]
    assert any(e["type"] == "pot" for e in truth["events"])


def test_truth_homographies_are_the_cameras(clip_dir: Path) -> None:
    truth = json.loads((clip_dir / "truth.json").read_text())
    cam = CameraModel.from_json(truth["camera"])
    Hb = np.array(truth["homography"])
    Hc = np.array(truth["homography_cloth"])
    assert Hb.shape == (3, 3) and Hc.shape == (3, 3)
    assert truth["homography_z_mm"] == pytest.approx(28.575)
    pts = np.array([[0.0, 0.0], [2540.0, 1270.0], [1270.0, 300.0]])
    for Hm, z in ((Hb, truth["homography_z_mm"]), (Hc, 0.0)):
        h = np.column_stack([pts, np.ones(3)]) @ Hm.T
        via = h[:, :2] / h[:, 2:3]
        assert np.abs(via - cam.project_undistorted(np.column_stack([pts, np.full(3, z)]))).max() < 0.01
    assert len(truth["camera"]["distortion"]) == 5 and truth["distortion_applied"] == cam.has_distortion
    assert 0.0 <= truth["camera"]["tilt_deg"] <= 35.0


def test_the_writer_refuses_what_it_cannot_write_faithfully(tmp_path: Path) -> None:
    from tableref.errors import UserError
    from tableref.simulator.video import VideoWriter, check_size

    with pytest.raises(UserError, match="even"):
        check_size(321, 180)
    with pytest.raises(UserError, match="folder"):
        VideoWriter(tmp_path / "missing" / "v.mp4", 30.0, 320, 180)
    with VideoWriter(tmp_path / "v.mp4", 30.0, 320, 180) as w, pytest.raises(ValueError, match="320"):
        w.write(np.zeros((180, 322, 3), np.uint8))
