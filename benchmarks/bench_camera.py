"""The camera pipeline under what a venue's camera does that a rendered clip does not.

Each clip (the bundled samples by default, or simulated clips kept by ``bench_pipeline.py
--clips``) is re-delivered as a real camera would and run through ``tableref analyze``; per
effect it prints the floor events' counts (true, false and missed), first contacts right and
the position error, next to the same clip as rendered:

* ``exposure``: auto exposure swinging the picture by +-12 % over three seconds (a player in a
  white shirt leaning in and out);
* ``step``: the exposure stepping down by a tenth over five frames a second and a half in (a
  door closing);
* ``mains``: lamps beating with the frame rate, +-3 % at 10 Hz;
* ``white-balance``: the blue and the red drifting +-4 % against each other over four seconds;
* ``knock``: the camera moved by two pixels across and one up, for good, a second in;
* ``shake``: a 2-pixel shake dying out over half a second (a bump on the mount).

Every clip passes through the video codec again, so the ``plain`` row (re-encoded unchanged) is
the one to compare with: the codec alone moves a marginal event either way.

    .venv/bin/python benchmarks/bench_camera.py                          # the bundled ball-table samples
    .venv/bin/python benchmarks/bench_camera.py --clips /tmp/clips45 --effects plain exposure knock
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FLOOR_EVENTS = ("pot", "first_contact", "cushion", "pin_fall", "baulk_entry", "shot_start", "off_table")

Frame = np.ndarray
Effect = Callable[[Frame, int, float], Frame]


def _gain(frame: Frame, g: float | tuple[float, float, float]) -> Frame:
    return np.asarray(np.clip(np.round(frame.astype(np.float32) * np.asarray(g, np.float32)), 0, 255), dtype=np.uint8)


def _moved(frame: Frame, dx: float, dy: float) -> Frame:
    m = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], dtype=np.float32)
    return np.asarray(cv2.warpAffine(frame, m, (frame.shape[1], frame.shape[0]), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE), dtype=np.uint8)


def _shake(frame: Frame, i: int, fps: float) -> Frame:
    start = int(fps)
    if i < start:
        return frame
    a = 2.0 * math.exp(-(i - start) / (0.25 * fps))
    return _moved(frame, a * math.sin(1.9 * i), a * math.cos(2.3 * i)) if a > 0.05 else frame


#: each effect: (frame, index, fps) -> the frame as that camera delivers it
EFFECTS: dict[str, Effect] = {
    "plain": lambda f, i, fps: f,
    "exposure": lambda f, i, fps: _gain(f, 1.0 + 0.12 * math.sin(2.0 * math.pi * i / fps / 3.0)),
    "step": lambda f, i, fps: _gain(f, 1.0 - 0.10 * min(1.0, max(0.0, (i - 1.5 * fps) / 5.0))),
    "mains": lambda f, i, fps: _gain(f, 1.0 + 0.03 * math.sin(2.0 * math.pi * 10.0 * i / fps)),
    "white-balance": lambda f, i, fps: _gain(f, (1.0 + 0.04 * math.sin(2.0 * math.pi * i / fps / 4.0), 1.0,
                                                 1.0 - 0.04 * math.sin(2.0 * math.pi * i / fps / 4.0))),
    "knock": lambda f, i, fps: _moved(f, 2.0, -1.0) if i >= int(fps) else f,
    "shake": _shake,
}


def clips(folder: Path | None) -> list[tuple[Path, Path]]:
    """(video, truth) of the ball-table clips in ``folder`` (``NAME/video.mp4`` and ``truth.json``),
    or of the bundled samples (``NAME.mp4`` and ``NAME.truth.json``)."""
    if folder is not None:
        found = sorted((d / "video.mp4", d / "truth.json") for d in folder.iterdir() if (d / "truth.json").exists())
    else:
        samples = ROOT / "sample_videos"
        found = sorted((v, v.with_suffix(".truth.json")) for v in samples.glob("*.mp4")
                       if v.with_suffix(".truth.json").exists())
    out = []
    for video, truth in found:
        if json.loads(truth.read_text("utf-8")).get("table") in ("pool", "bar-billiards", "carrom"):
            out.append((video, truth))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clips", type=Path, help="a folder of simulated clips (NAME/video.mp4, NAME/truth.json)")
    ap.add_argument("--effects", nargs="*", default=list(EFFECTS), choices=list(EFFECTS))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    todo = clips(args.clips)
    if not todo:
        print("no ball-table clips with a truth file found", file=sys.stderr)
        return 2
    from tableref.simulator.video import rewrite

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_pipeline import run_clip, summarise

    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for video, truth in todo:
            name = truth.parent.name if args.clips else video.stem
            for effect in args.effects:
                work = Path(tmp) / name / effect
                work.mkdir(parents=True)
                rewrite(video, work / "video.mp4", EFFECTS[effect])
                r = run_clip(work / "video.mp4", truth, work / "run", "classical")
                r["effect"] = effect
                results.append(r)
                shots = r["first_contact"]["shots"]
                wrong = [f"{k} {m['tp']}/{m['fp']}/{m['fn']}" for k, m in sorted(r["events"].items())
                         if k in FLOOR_EVENTS and (m["fp"] or m["fn"])]
                if round(r["first_contact"]["accuracy"] * shots) < shots:
                    wrong.append(f"first contact {round(r['first_contact']['accuracy'] * shots)}/{shots}")
                print(f"  {name} {effect}: " + ", ".join(wrong), file=sys.stderr, flush=True)
    per = summarise(results, key="effect")
    if args.json:
        print(json.dumps({effect: {"events (true/false/missed)": {k: v for k, v in p["events"].items() if k in FLOOR_EVENTS},
                                   "first_contact": "{}/{}".format(*p["first_contact_right"]),
                                   "position_error_mm": p["position_error_mm"]} for effect, p in per.items()}, indent=2))
    else:
        print(f"{len(todo)} clips; per effect: events true/false/missed, first contacts right, position error")
        for effect in args.effects:
            p = per[effect]
            ev = "  ".join(f"{k} {'/'.join(map(str, v))}" for k, v in p["events"].items() if k in FLOOR_EVENTS)
            print(f"{effect:14s} {ev}  first contact {'{}/{}'.format(*p['first_contact_right'])}  "
                  f"position {p['position_error_mm']} mm")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
