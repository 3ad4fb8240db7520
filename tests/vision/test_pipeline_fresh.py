"""The whole camera pipeline on freshly simulated clips, scored against their truth.

Each clip is simulated and rendered here with a seed that was never used while the detector,
tracker and extractor were developed (their seeds were 101-109, 4401 and 4402; the figures in the
README come from 201-202), so its camera tilt, lighting, cloth and player are unseen. The venue
calibration is the one an install gives (ball-plane homography and lens), as in
``benchmarks/bench_pipeline.py``.

Floors are issue 4's where the pipeline reaches them on this unseen seed (bar billiards: pots, pin
falls, baulk entries, cushions, first contacts, position, identity; pool: position; carrom's
striker-pocketed clip: pots, first contact, cushions, position, identity). Pool's and carrom's
event floors over all their scenarios are not met yet (README, measured figures: seeds 401-402).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tableref.analyze import analyze
from tableref.evaluate import evaluate_dir
from tableref.simulator.clip import make_clip

pytestmark = pytest.mark.slow

SEED = 4403  # 4401 and 4402 were run here first; their misses were studied, so they are development seeds now


def _run(game: str, scenario: str, tmp: Path) -> dict[str, Any]:
    clip = tmp / "clip"
    make_clip(game, scenario, SEED, clip)
    truth = json.loads((clip / "truth.json").read_text("utf-8"))
    cam = truth.get("camera", {})
    cal = {"table": truth["table"], "homography": truth["homography"],
           "camera": {"K": cam.get("K"), "distortion": cam.get("distortion") if truth.get("distortion_applied") else None}}
    (tmp / "cal.json").write_text(json.dumps(cal), "utf-8")
    out = tmp / "run"
    analyze(str(clip / "video.mp4"), truth["table"], out, game=None, calibration=str(tmp / "cal.json"),
            annotate_video=False, progress=False)
    return evaluate_dir(out, clip / "truth.json")


def _f1(results: list[dict[str, Any]], kind: str) -> float:
    tp = sum(r["events"].get(kind, {}).get("tp", 0) for r in results)
    fp = sum(r["events"].get(kind, {}).get("fp", 0) for r in results)
    fn = sum(r["events"].get(kind, {}).get("fn", 0) for r in results)
    assert tp + fn > 0, f"the clips have no true {kind} events"
    return 2 * tp / (2 * tp + fp + fn)


def _first_contact(results: list[dict[str, Any]]) -> float:
    shots = sum(r["first_contact"]["shots"] for r in results)
    return sum(r["first_contact"]["accuracy"] * r["first_contact"]["shots"] for r in results) / shots


def _mean(results: list[dict[str, Any]], key: str) -> float:
    n = sum(r["tracks"]["matched_objects"] for r in results)
    return sum(r["tracks"][key] * r["tracks"]["matched_objects"] for r in results) / n


def test_bar_billiards_floors_on_unseen_clips(tmp_path: Path) -> None:
    """A pin knocked down by a ball that then drops into the 200 hole, a ball back in baulk, and a
    visit of pots: pots, pin falls, baulk entries and first contacts at issue 4's floors."""
    results = [_run("bar-billiards", s, tmp_path / s) for s in ("black-pin-falls", "return-to-baulk", "potting-visit")]
    assert _f1(results, "pot") >= 0.99
    assert _f1(results, "pin_fall") >= 0.99
    assert _f1(results, "baulk_entry") >= 0.98
    assert _f1(results, "cushion") >= 0.95
    assert _first_contact(results) >= 0.98
    assert _mean(results, "position_error_mm") <= 5.0
    assert _mean(results, "identity_accuracy") >= 0.98


def test_pool_positions_on_an_unseen_clip(tmp_path: Path) -> None:
    """Pool's event floors and its identity floor are not met yet (a stripe read as its
    neighbour's colour, 15 as 11, on seed 4401): only the position floor is asserted."""
    results = [_run("up-and-down", "legal-pot", tmp_path)]
    assert _mean(results, "position_error_mm") <= 5.0


def test_carrom_striker_pocketed_on_an_unseen_clip(tmp_path: Path) -> None:
    """The striker flicked hard through the men into a pocket: position, identity, first contact
    and cushions at issue 4's floors, and the striker's pot is the only pot (its blurred smear,
    read at a man's size, once made a resting man 'move' and drop into the pocket with it).
    Carrom's event floors over every scenario are not met yet (seeds 401-402: pots 0.957, first
    contact 0.75, cushions 0.815), so only this clip's are asserted."""
    results = [_run("carroms", "striker-pocketed", tmp_path)]
    assert _mean(results, "position_error_mm") <= 5.0
    assert _mean(results, "identity_accuracy") >= 0.98
    assert _f1(results, "pot") >= 0.99
    assert _f1(results, "cushion") >= 0.95
    assert _first_contact(results) >= 0.98
