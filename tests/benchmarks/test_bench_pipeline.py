"""The pipeline benchmark's per-clip listing of what it got wrong (``--misses``): the line a
developer starts a change from must name the right events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import ROOT, load_bench


def _bench() -> Any:
    return load_bench("bench_pipeline")


def _event(t: float, kind: str, objects: list[str], where: str | None = None) -> dict[str, Any]:
    e: dict[str, Any] = {"t": t, "frame": round(t * 30), "type": kind, "objects": objects}
    if where:
        e["where"] = where
    return e


def test_misses_names_a_missed_pot_a_false_cushion_and_a_wrong_first_contact(tmp_path: Path) -> None:
    truth = {"fps": 30.0, "events": [
        _event(1.0, "shot_start", ["ball-0"]), _event(1.5, "contact", ["ball-0", "ball-3"]),
        _event(2.0, "cushion", ["ball-3"], "cushion-top"), _event(2.5, "pot", ["ball-3"], "pocket-top-left")]}
    found = [_event(1.0, "shot_start", ["ball-0"]), _event(1.5, "contact", ["ball-0", "ball-5"]),
             _event(2.0, "cushion", ["ball-3"], "cushion-top"), _event(2.2, "cushion", ["ball-5"], "cushion-left")]
    (tmp_path / "truth.json").write_text(json.dumps(truth), "utf-8")
    (tmp_path / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in found), "utf-8")
    lines = _bench().misses(tmp_path, tmp_path / "truth.json")
    assert lines == [
        "missed pot f75 ball-3 pocket-top-left",
        "false cushion f66 ball-5 cushion-left  (nearest: f60 ball-3 cushion-top)",
        "first contact right in 0 of 1 shots: true ['f45 ball-0+ball-3'], found ['f45 ball-0+ball-5']",
    ]
    # all right: nothing to say
    (tmp_path / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in truth["events"]), "utf-8")
    assert _bench().misses(tmp_path, tmp_path / "truth.json") == []


def test_a_replay_of_kept_detections_gives_the_full_runs_events_and_tracks(tmp_path: Path, monkeypatch: Any) -> None:
    """``--detections``: the first run keeps the detector's output, a second reads it back and
    reruns only the tracker and the extractor; both write what a full ``analyze`` writes, event
    for event and track for track. The kept output belongs to its calibration."""
    from tableref.vision.video_detector import VideoDetector

    bench = _bench()
    video = ROOT / "sample_videos" / "up-and-down-legal-pot-s2.mp4"
    truth = video.with_suffix(".truth.json")
    kept = tmp_path / "kept"
    bench.run_clip(video, truth, tmp_path / "full", "classical")
    first = bench.run_clip(video, truth, tmp_path / "first", "classical", kept)
    assert len(list(kept.iterdir())) == 1

    def no_detector(self: Any, image: Any) -> Any:
        raise AssertionError("the kept detections were not used")

    monkeypatch.setattr(VideoDetector, "detect", no_detector)
    second = bench.run_clip(video, truth, tmp_path / "second", "classical", kept)
    for name in ("events.jsonl", "tracks.jsonl"):
        full = (tmp_path / "full" / name).read_text("utf-8")
        assert full and (tmp_path / "first" / name).read_text("utf-8") == full
        assert (tmp_path / "second" / name).read_text("utf-8") == full
    assert first["events"] == second["events"] and first["frames"] == second["frames"] > 0
    calibration = bench.venue_calibration(json.loads(truth.read_text("utf-8")))
    moved = json.loads(json.dumps(calibration))
    moved["homography"][0][2] += 1.0
    assert bench.detections_key(video, calibration, "classical") != bench.detections_key(video, moved, "classical")


def test_kept_detections_are_read_afresh_when_the_detectors_source_changes(tmp_path: Path, monkeypatch: Any) -> None:
    """The key of a clip's kept detector output covers the detector's source files where the
    install really keeps them (an editable install maps ``tableref.vision`` to the repository's
    ``vision/``): a change to the detector must not replay the old detector's output."""
    import tableref.vision

    bench = _bench()
    video = ROOT / "sample_videos" / "up-and-down-legal-pot-s2.mp4"
    calibration = bench.venue_calibration(json.loads(video.with_suffix(".truth.json").read_text("utf-8")))
    before = bench.detections_key(video, calibration, "classical")
    copy = tmp_path / "vision"
    copy.mkdir()
    real = Path(tableref.vision.__file__).resolve().parent
    for source in real.glob("*.py"):
        (copy / source.name).write_bytes(source.read_bytes())
    assert bench.detections_key(video, calibration, "classical") == before
    detector = copy / "video_detector.py"
    monkeypatch.setattr(tableref.vision, "__file__", str(copy / "__init__.py"))
    assert bench.detections_key(video, calibration, "classical") == before
    detector.write_text(detector.read_text("utf-8") + "\n# changed\n", "utf-8")
    assert bench.detections_key(video, calibration, "classical") != before
