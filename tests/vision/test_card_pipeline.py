"""The card table end to end: a rendered hand through ``tableref analyze`` to the All-Fours referee.

The clip is rendered here, from the kick to the last trick, and analysed as a venue would: the
calibration is the one an install gives (the card plane's homography and the camera's lens), the
human inputs (the deal, the stand or the beg) come from the recorded log. The answer is not
written down: it is what the All-Fours engine says when fed the true events with the same inputs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import pytest

from tableref.cli import main
from tableref.evaluate import assemble_tricks, load_events
from tableref.events import EventType, HumanInput, TableEvent, from_json, merge_by_time
from tableref.referee import make_engine
from tableref.simulator.clip import make_clip

#: A seed not used to develop the trick builder.
SEED = 613


def _venue_files(truth: dict[str, Any], folder: Path) -> tuple[Path, Path]:
    cam = truth["camera"]
    cal = folder / "cal.json"
    cal.write_text(json.dumps({"table": "cards", "homography": truth["homography"], "camera": {
        "K": cam["K"], "distortion": cam["distortion"] if truth["distortion_applied"] else None}}))
    inputs = folder / "inputs.jsonl"
    inputs.write_text("".join(json.dumps(i) + "\n" for i in truth["inputs"]))
    return cal, inputs


def test_a_rendered_hand_analysed_end_to_end_scores_as_the_engine_does_on_the_true_events(tmp_path: Path) -> None:
    # 960 x 540 (a quarter fewer pixels than the usual 720p) keeps the test quick; the detector
    # still sees a card about 30 pixels long there
    clip = make_clip("all-fours", "hand", SEED, tmp_path / "clip", width=960, height=540)
    truth = json.loads(clip.truth.read_text("utf-8"))
    cal, inputs_path = _venue_files(truth, tmp_path)
    out = tmp_path / "out"
    rc = main(["analyze", str(clip.video), "--table", "cards", "--game", "all-fours", "--calibration", str(cal),
               "--inputs", str(inputs_path), "--out", str(out)])
    assert rc == 0

    true_events = [e for e in (from_json(x) for x in truth["events"]) if isinstance(e, TableEvent)]
    inputs = [i for i in (from_json(x) for x in truth["inputs"]) if isinstance(i, HumanInput)]
    engine = make_engine("all-fours")
    for item in merge_by_time(true_events, inputs):
        engine.apply(item)
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    assert summary["referee"]["scores"] == engine.scores()
    assert summary["referee"]["questions"] == 0  # nothing the referee could not apply
    # a camera this far is below the card table's need: analyze says so (this hand is read right all the same)
    assert summary["camera_resolution"]["ok"] is False and summary["camera_resolution"]["needed"] == 0.6

    # every trick's cards from the right seats, in order (so the lead is right too)
    found = load_events(out / "events.jsonl")
    assert assemble_tricks(found) == assemble_tricks(true_events)
    assert [(t["lead"], t["winner"]) for t in summary["tricks"]] == [
        (t["leader"], t["winner"]) for t in truth["meta"]["tricks"]]
    assert [e.data["card"] for e in found if e.type is EventType.CARD_KICKED] == [truth["meta"]["kick"]]

    # the annotated video: every frame, same size
    cap = cv2.VideoCapture(str(out / "annotated.mp4"))
    n = 0
    while cap.read()[0]:
        n += 1
    assert n == truth["frames"]


def test_analysing_a_card_video_without_a_calibration_is_a_clear_error(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    clip = make_clip("all-fours", "kick", SEED, tmp_path / "clip", width=320, height=240)
    rc = main(["analyze", str(clip.video), "--table", "cards", "--game", "all-fours", "--out", str(tmp_path / "o")])
    assert rc == 2
    err = capsys.readouterr().err
    assert "calibration" in err and "Traceback" not in err
