"""``tableref simulate``: a clip for good arguments, exit code 2 and the accepted values for bad ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tableref.cli import main
from tableref.simulator.scenarios import scenario_names


def _simulate(*extra: str, out: Path, game: str = "carroms", scenario: str = "pot") -> list[str]:
    return ["simulate", "--game", game, "--scenario", scenario, "--seed", "2", "--out", str(out), *extra]


def test_an_unknown_scenario_exits_2_and_lists_the_accepted_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                                  ) -> None:
    assert main(_simulate(out=tmp_path, scenario="trick-shot")) == 2
    err = capsys.readouterr().err
    assert "trick-shot" in err
    for name in scenario_names("carroms"):
        assert name in err
    assert not (tmp_path / "video.mp4").exists()


def test_an_unknown_game_exits_2_and_lists_the_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(_simulate(out=tmp_path, game="snooker"))
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "bar-billiards" in err and "all-fours" in err


def test_scenario_list_prints_every_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_simulate(out=tmp_path, game="bar-billiards", scenario="list")) == 0
    out = capsys.readouterr().out
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert names == scenario_names("bar-billiards")


@pytest.mark.parametrize(("extra", "says"), [
    (("--width", "321"), "even"),
    (("--height", "20"), "from 64"),
    (("--fps", "0"), "--fps"),
    (("--seed", "-1"), "seed"),
])
def test_bad_numbers_exit_2_and_say_what_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      extra: tuple[str, ...], says: str) -> None:
    try:
        code = main(_simulate(*extra, out=tmp_path))
    except SystemExit as exc:  # argparse refuses a negative seed itself
        code = int(exc.code or 0)
    assert code == 2
    assert says in capsys.readouterr().err


def test_out_must_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "file.txt"
    f.write_text("x")
    assert main(_simulate(out=f)) == 2
    assert "folder" in capsys.readouterr().err


def test_a_good_command_writes_video_and_truth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "new" / "clip"
    assert main(_simulate("--width", "256", "--height", "144", out=out)) == 0
    assert (out / "video.mp4").stat().st_size > 1000
    truth = json.loads((out / "truth.json").read_text())
    assert truth["game"] == "carroms" and truth["scenario"] == "pot" and truth["width"] == 256
    assert "wrote" in capsys.readouterr().out
