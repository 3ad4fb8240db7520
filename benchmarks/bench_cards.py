"""All-Fours from the camera on rendered card clips: card identity, tricks, events, referee, speed.

For each seed and each card-table scenario it renders a clip (``simulator/clip.py``), gives the
pipeline the calibration a venue's install would have (the truth's homography of the card plane and
the camera's intrinsics and distortion, as ``bench_pipeline.py`` does for the ball tables), runs
``tableref analyze --table cards --game all-fours`` with the truth's human inputs (deal, stand, beg,
give) as the ``--inputs`` log, scores it with ``tableref evaluate`` and prints, over all clips:

* card identity accuracy: per true ``card_kicked``/``card_played``, the right card named;
* tricks assembled right: every trick's cards, seats, lead and the referee's winner;
* event precision, recall and F1 per type (3-frame tolerance, plays matched by card and seat);
* referee agreement: clips whose final scores equal the truth log's replay, and the calls' agreement;
* frames per second of the whole pipeline (one thread) next to decoding alone.

Pass seeds not used in development (``--seeds``); the issue's floors are identity 0.99 and every
trick right.

    .venv/bin/python benchmarks/bench_cards.py --seeds 501 502 503
    .venv/bin/python benchmarks/bench_cards.py --seeds 501 --scenarios hand --json
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402

GAME = "all-fours"
FLOORS = {"identity": 0.99, "tricks": 1.0}


def venue_calibration(truth: dict[str, Any]) -> dict[str, Any]:
    """The calibration a venue's install gives: the card plane's homography plus lens intrinsics."""
    cam = truth.get("camera", {})
    return {"table": truth["table"], "homography": truth["homography"],
            "camera": {"K": cam.get("K"), "distortion": cam.get("distortion") if truth.get("distortion_applied") else None}}


def decode_fps(video: Path) -> float:
    cap = cv2.VideoCapture(str(video))
    n, start = 0, time.perf_counter()
    while cap.read()[0]:
        n += 1
    cap.release()
    return n / max(1e-9, time.perf_counter() - start)


def run_clip(video: Path, truth_path: Path, work: Path, annotate: bool = False) -> dict[str, Any]:
    from tableref.analyze import analyze
    from tableref.evaluate import evaluate_dir

    truth = json.loads(truth_path.read_text("utf-8"))
    work.mkdir(parents=True, exist_ok=True)
    cal = work / "cal.json"
    cal.write_text(json.dumps(venue_calibration(truth)))
    inputs = work / "human_inputs.jsonl"
    inputs.write_text("".join(json.dumps(i) + "\n" for i in truth.get("inputs", [])), "utf-8")
    start = time.perf_counter()
    summary = analyze(str(video), "cards", work, game=GAME, calibration=str(cal), inputs_path=str(inputs),
                      annotate_video=annotate, progress=False)
    elapsed = time.perf_counter() - start
    result = evaluate_dir(work, truth_path)
    result["frames"] = summary["frames"]
    result["seconds"] = elapsed
    result["decode_fps"] = decode_fps(video)
    result["questions"] = summary.get("referee", {}).get("questions", 0)
    return result


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    events: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    ident = [0, 0]
    tricks = [0, 0, 0]
    scores_equal = 0
    agreement = 0.0
    frames = 0
    seconds = 0.0
    decode: list[float] = []
    wrong: list[str] = []
    for r in results:
        for name, m in r["events"].items():
            e = events[name]
            e[0] += m["tp"]
            e[1] += m["fp"]
            e[2] += m["fn"]
        cards = r.get("cards", {})
        ident[0] += cards.get("identity", {}).get("right", 0)
        ident[1] += cards.get("identity", {}).get("events", 0)
        tricks[0] += cards.get("tricks", {}).get("right", 0)
        tricks[1] += cards.get("tricks", {}).get("tricks", 0)
        tricks[2] += cards.get("tricks", {}).get("seats_right", 0)
        if cards.get("tricks", {}).get("wrong"):
            wrong.append(f"{r['clip']}: tricks {cards['tricks']['wrong']}")
        ref = r.get("referee", {})
        scores_equal += bool(ref.get("final_scores_equal"))
        agreement += float(ref.get("agreement", 0.0))
        frames += r["frames"]
        seconds += r["seconds"]
        decode.append(r["decode_fps"])

    def prf(tp: int, fp: int, fn: int) -> dict[str, Any]:
        p = tp / (tp + fp) if tp + fp else 1.0
        rc = tp / (tp + fn) if tp + fn else 1.0
        return {"precision": round(p, 4), "recall": round(rc, 4), "f1": round(2 * p * rc / (p + rc), 4) if p + rc else 0.0,
                "tp": tp, "fp": fp, "fn": fn}

    n = len(results)
    return {
        "clips": n,
        "identity_accuracy": round(ident[0] / ident[1], 4) if ident[1] else None,
        "card_events": ident[1],
        "tricks_right": tricks[0],
        "tricks": tricks[1],
        "tricks_seats_right": tricks[2],
        "events": {k: prf(*v) for k, v in sorted(events.items())},
        "referee_final_scores_equal": scores_equal,
        "referee_agreement_mean": round(agreement / n, 4) if n else None,
        "referee_questions": sum(r["questions"] for r in results),
        "pipeline_fps": round(frames / max(seconds, 1e-9), 1),
        "decode_fps": round(sum(decode) / len(decode), 1) if decode else None,
        "wrong": wrong,
    }


def main() -> int:
    from tableref.simulator.clip import make_clip
    from tableref.simulator.scenarios import scenario_names

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", required=True, help="seeds not used in development")
    ap.add_argument("--scenarios", nargs="*", default=None, help="card scenarios (default: all)")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=720)
    ap.add_argument("--keep", help="keep the clips and analyses in this folder")
    ap.add_argument("--annotate", action="store_true", help="write the annotated videos too (slower)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    names = args.scenarios or scenario_names(GAME)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep) if args.keep else Path(tmp)
        for name in names:
            for seed in args.seeds:
                clip = root / f"{name}-s{seed}"
                info = make_clip(GAME, name, seed, clip, width=args.width, height=args.height)
                r = run_clip(info.video, info.truth, clip / "analysis", annotate=args.annotate)
                r["clip"] = clip.name
                results.append(r)
                cards = r.get("cards", {})
                print(f"  {clip.name}: {r['frames']} frames, {r['frames'] / r['seconds']:.1f} fps, identity "
                      f"{cards.get('identity', {}).get('accuracy')}, tricks {cards.get('tricks', {}).get('right')}/"
                      f"{cards.get('tricks', {}).get('tricks')}, scores equal "
                      f"{r.get('referee', {}).get('final_scores_equal')}", file=sys.stderr)
    summary = summarise(results)
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"clips {summary['clips']} (scenarios {', '.join(names)}; seeds {' '.join(map(str, args.seeds))})")
    print(f"card identity accuracy {summary['identity_accuracy']} over {summary['card_events']} card events "
          f"(floor {FLOORS['identity']})")
    print(f"tricks assembled right {summary['tricks_right']}/{summary['tricks']} (cards, seats, lead, winner); "
          f"seats and order right {summary['tricks_seats_right']}/{summary['tricks']}")
    print(f"{'event':<16}{'precision':>10}{'recall':>10}{'f1':>8}{'tp':>6}{'fp':>6}{'fn':>6}")
    for name, m in summary["events"].items():
        print(f"{name:<16}{m['precision']:>10.3f}{m['recall']:>10.3f}{m['f1']:>8.3f}{m['tp']:>6}{m['fp']:>6}{m['fn']:>6}")
    print(f"referee: final scores equal to the truth's replay in {summary['referee_final_scores_equal']}/"
          f"{summary['clips']} clips; calls agreement (mean) {summary['referee_agreement_mean']}; "
          f"questions {summary['referee_questions']}")
    print(f"pipeline {summary['pipeline_fps']} fps (one thread), decoding alone {summary['decode_fps']} fps")
    for line in summary["wrong"]:
        print(f"wrong: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
