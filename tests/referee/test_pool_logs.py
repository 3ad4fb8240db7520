"""The documented example matches (docs/logs/up-and-down.jsonl, docs/logs/colors.jsonl) replay through
``tableref replay``'s own function with no question raised, to a finished game, and the score contract
holds over the printed updates."""

from __future__ import annotations

import io
import json
from collections import defaultdict
from pathlib import Path

import pytest

from tableref.replay import replay_stream

LOGS = Path(__file__).resolve().parents[2] / "docs" / "logs"


@pytest.mark.parametrize("game", ["up-and-down", "colors"])
def test_the_documented_match_replays_without_a_question(game: str) -> None:
    out = io.StringIO()
    with open(LOGS / f"{game}.jsonl", encoding="utf-8") as handle:
        code = replay_stream(game, handle, out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    problems = [line for line in lines if "question" in line or "error" in line]
    assert code == 0 and problems == []
    final = lines[-1]["final"]
    assert final["outcome"] is not None and final["winner"] in final["scores"], "the log is a whole game"
    totals: dict[str, int] = defaultdict(int)
    for line in lines[:-1]:
        if line.get("kind") == "score":
            totals[line["player"]] += line["points"]
    assert dict(totals) == {p: s for p, s in final["scores"].items() if s or p in totals}
    kinds = {line.get("kind") for line in lines}
    assert {"foul", "score", "turn", "instruction", "game_over"} <= kinds


@pytest.mark.parametrize("game", ["up-and-down", "colors"])
def test_every_input_example_in_the_docs_is_a_kind_the_engine_accepts(game: str) -> None:
    from tableref.events import HumanInput, parse_line
    from tableref.referee import engine_class

    text = (Path(__file__).resolve().parents[2] / "docs" / "referee" / f"{game}.md").read_text("utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
    examples = [parse_line(line) for block in blocks for line in block.splitlines() if line.strip()]
    accepted = set(engine_class(game)().input_kinds())
    assert examples and all(isinstance(e, HumanInput) and e.kind in accepted for e in examples)
