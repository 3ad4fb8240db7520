"""A recorded clip written again through a per-frame change (``simulator/video.py``: ``rewrite``),
as the camera benchmark and the camera tests deliver a clip from another camera."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tableref.simulator.video import VideoWriter, read_frames, rewrite


def test_a_clip_is_written_again_frame_for_frame_through_the_change(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    frames = [np.asarray(cv2.GaussianBlur(rng.integers(40, 200, (96, 128, 3)).astype(np.uint8), (0, 0), 2.0),
                         dtype=np.uint8) for _ in range(12)]
    with VideoWriter(tmp_path / "in.mp4", 30.0, 128, 96) as writer:
        for frame in frames:
            writer.write(frame)
    seen: list[tuple[int, float]] = []

    def darker_from_six(frame: np.ndarray, i: int, fps: float) -> np.ndarray:
        seen.append((i, fps))
        return np.asarray(frame // 2 if i >= 6 else frame, dtype=np.uint8)

    assert rewrite(tmp_path / "in.mp4", tmp_path / "out.mp4", darker_from_six) == 12
    assert seen == [(i, 30.0) for i in range(12)]
    before, after = read_frames(tmp_path / "in.mp4"), read_frames(tmp_path / "out.mp4")
    assert len(after) == 12
    assert abs(float(after[2].mean()) - float(before[2].mean())) < 4.0  # a second pass of the codec
    assert abs(float(after[9].mean()) - float(before[9].mean()) / 2.0) < 4.0
