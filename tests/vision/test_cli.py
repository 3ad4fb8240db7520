"""``tableref calibrate`` and ``tableref detect`` end to end: files in, JSON out, exit code 2 on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tableref.cli import main
from tests.calibration.test_surface_scene import render

BALLS = [(400.0, 400.0, (240, 240, 240)), (1200.0, 300.0, (0, 200, 240)), (2000.0, 900.0, (30, 30, 200))]


@pytest.fixture()
def photo(tmp_path: Path) -> Path:
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), render("pool", tilt_deg=20.0, balls=BALLS).image)
    return path


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_calibrate_writes_the_file_and_an_overlay(photo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cal" / "cal.json"
    code, text, _ = _run(["calibrate", str(photo), "--table", "pool", "--out", str(out)], capsys)
    assert code == 0 and "calibrated pool table (auto" in text
    data = json.loads(out.read_text())
    assert data["table"] == "pool" and len(data["corners_px"]) == 4
    assert (tmp_path / "cal" / "cal.overlay.png").exists()


def test_calibrate_with_manual_corners(photo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cal.json"
    corners = "-20,40 1300,40 1250,700 30,700"  # some outside the frame: accepted
    code, text, _ = _run(["calibrate", str(photo), "--table", "pool", "--corners", corners, "--out", str(out)], capsys)
    assert code == 0 and "manual" in text
    assert json.loads(out.read_text())["corners_px"][0] == [-20.0, 40.0]


def test_detect_prints_the_json_contract(photo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = _run(["detect", str(photo), "--table", "pool", "--json"], capsys)
    assert code == 0
    dets = json.loads(text)["detections"]
    assert len(dets) == len(BALLS)
    for d in dets:
        assert set(d) == {"label", "group", "x", "y", "radius", "score"}
    cal = tmp_path / "cal.json"
    assert main(["calibrate", str(photo), "--table", "pool", "--out", str(cal)]) == 0
    capsys.readouterr()
    code, text, _ = _run(["detect", str(photo), "--table", "pool", "--calibration", str(cal), "--json"], capsys)
    assert code == 0
    assert all({"x_mm", "y_mm"} <= set(d) for d in json.loads(text)["detections"])
    code, text, _ = _run(["detect", str(photo), "--table", "pool"], capsys)
    assert code == 0 and "3 objects" in text


@pytest.mark.parametrize(
    ("make", "args", "fragment"),
    [
        ("missing", ["detect", "{f}", "--table", "pool"], "no such file"),
        ("garbage", ["detect", "{f}", "--table", "pool"], "cannot read"),
        ("grey", ["detect", "{f}", "--table", "pool"], "no table found"),
        ("grey", ["calibrate", "{f}", "--table", "pool", "--out", "{d}/c.json"], "no table found"),
        ("photo", ["detect", "{f}", "--table", "carrom"], "carrom"),
        ("photo", ["calibrate", "{f}", "--table", "carrom", "--out", "{d}/c.json"], "carrom"),
        ("photo", ["calibrate", "{f}", "--table", "pool", "--corners", "0,0 10,0 20,0 0,10", "--out", "{d}/c.json"],
         "degenerate"),
        ("photo", ["calibrate", "{f}", "--table", "pool", "--corners", "1,2 3,4", "--out", "{d}/c.json"], "four points"),
        ("video", ["calibrate", "{f}", "--table", "pool", "--out", "{d}/c.json"], "video"),
        ("photo", ["detect", "{f}", "--table", "pool", "--calibration", "{d}/nope.json"], "cannot read the calibration"),
        ("photo", ["detect", "{f}", "--table", "pool", "--detector", "classical", "--calibration", "{d}/bad.json"],
         "not valid JSON"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(
    make: str, args: list[str], fragment: str, tmp_path: Path, photo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = {
        "missing": tmp_path / "nothing.png",
        "garbage": tmp_path / "garbage.jpg",
        "grey": tmp_path / "grey.png",
        "photo": photo,
        "video": tmp_path / "broken.mp4",
    }[make]
    if make == "garbage":
        target.write_bytes(b"this is not a picture")
    elif make == "grey":
        cv2.imwrite(str(target), np.full((360, 640, 3), 128, np.uint8))
    elif make == "video":
        target.write_bytes(b"\x00\x01 not a video" * 20)
    (tmp_path / "bad.json").write_text("{oops")
    argv = [a.format(f=target, d=tmp_path) for a in args]
    code, out, err = _run(argv, capsys)
    assert code == 2
    assert err.startswith(f"tableref {argv[0]}: error: ") and fragment in err
    assert "Traceback" not in err and out == ""


def test_a_calibration_for_another_table_is_refused(photo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cal = tmp_path / "cal.json"
    assert main(["calibrate", str(photo), "--table", "pool", "--out", str(cal)]) == 0
    capsys.readouterr()
    code, _, err = _run(["detect", str(photo), "--table", "bar-billiards", "--calibration", str(cal)], capsys)
    assert code == 2 and "is for table 'pool'" in err


def test_unknown_table_is_an_argparse_error(photo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["detect", str(photo), "--table", "snooker"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
