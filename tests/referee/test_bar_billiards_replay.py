"""The documented bar-billiards log replays through ``tableref replay`` with no question raised."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from tableref.cli import main
from tableref.events import read_log
from tableref.referee import make_engine
from tableref.replay import replay_stream

LOG = Path(__file__).resolve().parents[2] / "docs" / "logs" / "bar-billiards.jsonl"


def replayed() -> list[dict[str, Any]]:
    out = io.StringIO()
    with LOG.open(encoding="utf-8") as handle:
        code = replay_stream("bar-billiards", handle, out)
    assert code == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_documented_frame_replays_without_a_question() -> None:
    lines = replayed()
    assert not [x for x in lines if "question" in x or "error" in x]
    final = lines[-1]["final"]
    assert isinstance(final, dict)
    assert final["scores"] == {"home": 330, "away": 470} and final["winner"] == "away"


def test_the_documented_frame_shows_the_rules_it_was_written_for() -> None:
    lines = replayed()
    kinds = [(x.get("kind"), x.get("code")) for x in lines]
    for expected in [("foul", "pin_down"), ("foul", "push"), ("instruction", "reset_pins"), ("endgame", None),
                     ("instruction", "take_nearest"), ("phase", "bar_dropped"), ("game_over", None)]:
        assert expected in kinds, expected
    assert any(isinstance(x.get("data"), dict) and x["data"].get("rejudged") for x in lines)  # late pot, overrule


def test_scores_equal_the_sum_of_score_updates_all_along_the_log() -> None:
    engine = make_engine("bar-billiards")
    totals: dict[str, int] = {}
    with LOG.open(encoding="utf-8") as handle:
        for item in read_log(handle):
            for update in engine.apply(item):
                if update.kind.value == "score" and update.player and update.points:
                    totals[update.player] = totals.get(update.player, 0) + update.points
            assert {k: v for k, v in engine.scores().items() if v} == {k: v for k, v in totals.items() if v}


def test_the_cli_replays_the_log_and_ends_with_the_final_line(capsys: object) -> None:
    assert main(["replay", "--game", "bar-billiards", str(LOG)]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert json.loads(out.splitlines()[-1])["final"]["winner"] == "away"


def test_a_bad_venue_option_is_a_clear_cli_error(capsys: object) -> None:
    assert main(["replay", "--game", "bar-billiards", "--option", "whites=0", str(LOG)]) == 2
    assert "whites" in capsys.readouterr().err  # type: ignore[attr-defined]
