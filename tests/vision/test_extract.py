"""Tracker + event extractor on simulated matches, apart from the detector.

Each scenario of each ball table is simulated with a seed not used in development; its true
positions, with 1.5 mm of detection noise, are fed through the tracker and the extractor, and the
events are scored against the truth within 3 frames. This pins down the event logic; the whole
pipeline, detector included, is measured by benchmarks/bench_pipeline.py.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from tableref.calibration.spec import load_table
from tableref.evaluate import PRF, first_contact_accuracy, match_events
from tableref.events import EventType, TableEvent
from tableref.simulator.scenarios import SCENARIOS, run_scenario
from tableref.vision.extract import EventExtractor
from tableref.vision.tracker import Tracker

from .oracle import noisy_detections

SEEDS = (31,)  # not used while developing the extractor (1-5)


def run_table(game: str) -> tuple[dict[str, PRF], float]:
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    right = shots = 0
    for name in SCENARIOS[game]:
        for seed in SEEDS:
            sim = run_scenario(game, name, seed)
            spec = load_table(sim.table)
            tracker, extractor = Tracker(spec), EventExtractor(spec)
            rng = random.Random(seed)
            found: list[TableEvent] = []
            for f in sim.frames:
                found += extractor.update(tracker.update(noisy_detections(f, rng), f.t, f.index))
            per, _ = match_events(found, list(sim.events), sim.fps)
            for k, v in per.items():
                t = totals[k]
                t[0] += v.tp
                t[1] += v.fp
                t[2] += v.fn
            acc, n = first_contact_accuracy(found, list(sim.events), sim.fps)
            right += round(acc * n)
            shots += n
    return {k: PRF(*v) for k, v in totals.items()}, right / shots


@pytest.mark.parametrize("game", ["bar-billiards", "up-and-down", "carroms"])
def test_events_from_noisy_positions_meet_the_floors(game: str) -> None:
    per, first_contact = run_table(game)
    assert per[EventType.SHOT_START.value].f1 >= 0.98, per
    assert per[EventType.POT.value].f1 >= 0.99, per
    assert first_contact >= 0.98
    assert per[EventType.CUSHION.value].f1 >= 0.85, per[EventType.CUSHION.value]
    assert per.get(EventType.OFF_TABLE.value, PRF(1, 0, 0)).f1 >= 0.95
    if game == "bar-billiards":
        assert per[EventType.PIN_FALL.value].f1 >= 0.99
        assert per[EventType.BAULK_ENTRY.value].f1 >= 0.98
    if game == "carroms":
        assert per[EventType.BASELINE_CROSS.value].f1 >= 0.95
