"""Perfect detections from the simulator's truth, with detection noise: the tracker and extractor
measured apart from the detector (used by tests/vision/test_extract.py and scripts/oracle_events.py)."""

from __future__ import annotations

import random

from tableref.simulator.state import FrameState, ObjectStatus
from tableref.vision.detect import Detection, pool_group


def noisy_detections(frame: FrameState, rng: random.Random, noise: float = 1.5) -> list[Detection]:
    out = []
    for o in frame.objects:
        if o.status not in (ObjectStatus.ON_TABLE, ObjectStatus.FALLEN):
            continue
        if o.kind == "pin":
            label, group = o.id, "pin-fallen" if o.status is ObjectStatus.FALLEN else "pin-standing"
        elif o.kind == "ball":
            label, group = o.id, pool_group(int(o.id.split("-")[1]))
        else:
            label = group = o.kind
        x, y = o.x + rng.gauss(0, noise), o.y + rng.gauss(0, noise)
        out.append(Detection(label=label, group=group, x=x, y=y, radius=10.0, score=0.9, x_mm=x, y_mm=y))
    return out
