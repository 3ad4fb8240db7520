"""``tableref evaluate DIR --truth truth.json``: how right an analysis is, per event type.

Matching rules (why they are what they are):

* A detected event matches a true one of the same type within ``tolerance`` frames (3 by default,
  the issue's tolerance) when their objects agree and their place (``where``) agrees. Matching is
  one-to-one, nearest in time first, so a doubled detection counts as a false positive.
* Objects are compared by identity where a camera can know it (pool ``ball-9``, ``red``, ``queen``,
  ``striker``, pins) and by colour where it cannot: bar-billiards whites and carrom pieces of one
  colour look alike, so ``white-3`` and ``white-5`` are both ``white``.
* ``card_played`` and ``card_retrieved`` compare the card and the seat (the same card from
  another seat is another play).
* ``contact`` compares the pair as a set; ``at_rest`` and ``shot_start`` compare only the time (and
  the struck ball for ``shot_start``).
* Identity accuracy and position error compare ``tracks.jsonl`` with the truth states frame by
  frame: each true object on the table is paired with the nearest track within two radii.
* Cards (All-Fours): identity accuracy is the share of true ``card_kicked``/``card_played`` events
  whose nearest detected event of the same type (within the tolerance, one to one, whatever its
  label) names the right card; a missed event counts as wrong. A trick is assembled right when its
  cards, in the order they came to the board, come from the same seats (so the lead is right)
  and the referee, fed each stream, names the same winner.
* Referee agreement replays the true events and the detected events (each merged with the same
  human inputs, if any) through the game's referee and compares the fouls (by code) and score
  changes (by player and points) they produce, in order, plus the final scores.

It prints a table, or JSON with ``--json``, and exits 1 when any evaluated event type's F1 is
below ``--min-f1``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tableref.errors import UserError
from tableref.events import EventType, TableEvent, from_json, read_log

_LOOKALIKE = re.compile(r"^(white|black)-\d+$")


def object_class(obj: str) -> str:
    """What a camera can tell an object by: look-alike pieces by colour, the rest by identity."""
    m = _LOOKALIKE.match(obj)
    return m.group(1) if m else obj


def event_key(e: TableEvent) -> tuple[Any, ...]:
    objs = tuple(object_class(o) for o in e.objects)
    if e.type is EventType.CONTACT:
        return (e.type.value, tuple(sorted(objs)))
    if e.type is EventType.AT_REST:
        return (e.type.value,)
    if e.type is EventType.SHOT_START:
        return (e.type.value, objs[:1])
    if e.type in (EventType.CARD_PLAYED, EventType.CARD_RETRIEVED):
        return (e.type.value, tuple(sorted(objs)), e.data.get("seat"))
    return (e.type.value, tuple(sorted(objs)), e.where)


def _frame(e: TableEvent, fps: float) -> int:
    return e.frame if e.frame is not None else round(e.t * fps)


@dataclass(frozen=True)
class PRF:
    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"precision": round(self.precision, 4), "recall": round(self.recall, 4), "f1": round(self.f1, 4),
                "tp": self.tp, "fp": self.fp, "fn": self.fn}


def match_events(detected: Sequence[TableEvent], truth: Sequence[TableEvent], fps: float,
                 tolerance: int = 3) -> tuple[dict[str, PRF], list[tuple[TableEvent, TableEvent]]]:
    """Per-type precision/recall counts and the matched (detected, true) pairs."""
    by_key_truth: dict[tuple[Any, ...], list[TableEvent]] = defaultdict(list)
    for e in truth:
        by_key_truth[event_key(e)].append(e)
    candidates: list[tuple[int, int, int]] = []
    truth_index = {id(e): i for i, e in enumerate(truth)}
    for i, d in enumerate(detected):
        for tr in by_key_truth.get(event_key(d), ()):
            gap = abs(_frame(d, fps) - _frame(tr, fps))
            if gap <= tolerance:
                candidates.append((gap, i, truth_index[id(tr)]))
    candidates.sort()
    used_d: set[int] = set()
    used_t: set[int] = set()
    pairs: list[tuple[TableEvent, TableEvent]] = []
    for _, i, j in candidates:
        if i in used_d or j in used_t:
            continue
        used_d.add(i)
        used_t.add(j)
        pairs.append((detected[i], truth[j]))
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for i, d in enumerate(detected):
        counts[d.type.value][0 if i in used_d else 1] += 1
    for j, tr in enumerate(truth):
        if j not in used_t:
            counts[tr.type.value][2] += 1
    return {k: PRF(*v) for k, v in sorted(counts.items())}, pairs


def first_contact_accuracy(detected: Sequence[TableEvent], truth: Sequence[TableEvent], fps: float,
                           tolerance: int = 3) -> tuple[float, int]:
    """Share of true shots whose first contact (by the struck ball) was detected right."""

    def firsts(events: Sequence[TableEvent]) -> list[tuple[int, tuple[str, ...] | None]]:
        out: list[tuple[int, tuple[str, ...] | None]] = []
        struck: str | None = None
        for e in sorted(events, key=lambda e: e.t):
            if e.type is EventType.SHOT_START:
                struck = e.objects[0] if e.objects else None
                out.append((_frame(e, fps), None))
            elif e.type is EventType.CONTACT and out and out[-1][1] is None and struck in e.objects:
                out[-1] = (out[-1][0], tuple(sorted(object_class(o) for o in e.objects)))
        return out

    true_shots = firsts(truth)
    det_shots = firsts(detected)
    right = 0
    for frame, contact in true_shots:
        near = [c for f, c in det_shots if abs(f - frame) <= tolerance + 3]
        if near and near[0] == contact:
            right += 1
    return (right / len(true_shots) if true_shots else 1.0), len(true_shots)


def track_quality(tracks_file: Path, states: Sequence[Sequence[dict[str, Any]]]) -> dict[str, Any]:
    """Identity accuracy and position error of ``tracks.jsonl`` against the truth states."""
    if not tracks_file.is_file():
        return {}
    errors: list[float] = []
    right = total = 0
    with tracks_file.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            frame = row["frame"]
            if frame >= len(states):
                continue
            tracks = row["tracks"]
            for obj in states[frame]:
                if obj.get("status", "on_table") != "on_table" or obj.get("kind") in ("card",):
                    continue
                best: tuple[float, dict[str, Any]] | None = None
                for tr in tracks:
                    d = math.hypot(tr["x"] - obj["x"], tr["y"] - obj["y"])
                    if best is None or d < best[0]:
                        best = (d, tr)
                limit = 2.0 * float(obj.get("radius", 25.0))
                if best is None or best[0] > limit:
                    continue
                errors.append(best[0])
                if obj.get("kind") == "pin":
                    continue
                total += 1
                right += object_class(best[1]["id"]) == object_class(obj["id"])
    return {
        "identity_accuracy": round(right / total, 4) if total else None,
        "position_error_mm": round(sum(errors) / len(errors), 2) if errors else None,
        "matched_objects": total,
    }


def referee_agreement(game: str, detected: Sequence[TableEvent], truth: Sequence[TableEvent],
                      inputs: Iterable[Any] = ()) -> dict[str, Any]:
    """Run the referee on both event streams; compare fouls, score changes and final scores."""
    from tableref.events import merge_by_time
    from tableref.referee import RefereeError, UpdateKind, make_engine

    inputs = list(inputs)

    def run(events: Sequence[TableEvent]) -> tuple[list[tuple[Any, ...]], dict[str, int], int]:
        engine = make_engine(game)
        calls: list[tuple[Any, ...]] = []
        questions = 0
        for item in merge_by_time(events, inputs):
            try:
                for u in engine.apply(item):
                    if u.kind is UpdateKind.FOUL:
                        calls.append(("foul", u.code))
                    elif u.kind is UpdateKind.SCORE:
                        calls.append(("score", u.player, u.points))
            except RefereeError:
                questions += 1
        return calls, engine.scores(), questions

    true_calls, true_scores, _ = run(truth)
    det_calls, det_scores, questions = run(detected)
    common = _lcs(true_calls, det_calls)
    denom = max(len(true_calls), len(det_calls))
    return {
        "agreement": round(common / denom, 4) if denom else 1.0,
        "calls_truth": len(true_calls),
        "calls_detected": len(det_calls),
        "final_scores_equal": true_scores == det_scores,
        "scores_truth": true_scores,
        "scores_detected": det_scores,
        "questions": questions,
    }


_CARD_EVENTS = (EventType.CARD_KICKED, EventType.CARD_PLAYED)


def card_identity(detected: Sequence[TableEvent], truth: Sequence[TableEvent], fps: float,
                  tolerance: int = 3) -> dict[str, Any]:
    """Per true card event, whether the detected event nearest in time (same type) names the card."""
    cands: list[tuple[int, int, int]] = []
    for i, d in enumerate(detected):
        for j, tr in enumerate(truth):
            if d.type is tr.type and tr.type in _CARD_EVENTS:
                gap = abs(_frame(d, fps) - _frame(tr, fps))
                if gap <= tolerance:
                    cands.append((gap, i, j))
    used_d: set[int] = set()
    used_t: set[int] = set()
    right = 0
    for _, i, j in sorted(cands):
        if i in used_d or j in used_t:
            continue
        used_d.add(i)
        used_t.add(j)
        right += detected[i].data.get("card") == truth[j].data.get("card")
    total = sum(1 for e in truth if e.type in _CARD_EVENTS)
    return {"accuracy": round(right / total, 4) if total else None, "right": right, "events": total}


def assemble_tricks(events: Sequence[TableEvent]) -> dict[int, list[tuple[str, str]]]:
    """Each trick's (seat, card) in the order the cards came to the board.

    The top card of two played together (``order`` 1) goes back to the hand, and a card taken back
    (a lead out of turn) leaves its trick.
    """
    tricks: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for e in sorted(events, key=lambda e: e.t):
        if e.type is EventType.CARD_PLAYED and e.data.get("order", 0) == 0:
            tricks[int(e.data.get("trick", 0))].append((str(e.data.get("seat")), str(e.data.get("card"))))
        elif e.type is EventType.CARD_RETRIEVED:
            for cards in tricks.values():
                cards[:] = [c for c in cards if c[1] != e.data.get("card")]
    return dict(tricks)


def trick_winners(game: str, events: Sequence[TableEvent], inputs: Sequence[Any]) -> dict[int, str | None]:
    """The winner of each trick as the game's referee calls it from ``events`` and ``inputs``."""
    from tableref.events import merge_by_time
    from tableref.referee import RefereeError, UpdateKind, make_engine

    engine = make_engine(game)
    out: dict[int, str | None] = {}
    for item in merge_by_time(events, inputs):
        try:
            for u in engine.apply(item):
                if u.kind is UpdateKind.TRICK:
                    out[int(u.data.get("trick", 0))] = u.player
        except RefereeError:
            continue
    return out


def trick_agreement(game: str | None, detected: Sequence[TableEvent], truth: Sequence[TableEvent],
                    inputs: Sequence[Any] = ()) -> dict[str, Any]:
    """How many true tricks were assembled right (cards, seats, lead and, with a game, the winner)."""
    true_tricks = assemble_tricks(truth)
    found = assemble_tricks(detected)
    winners_t = trick_winners(game, truth, inputs) if game else {}
    winners_d = trick_winners(game, detected, inputs) if game else {}
    wrong = [n for n, cards in sorted(true_tricks.items())
             if found.get(n) != cards or (game is not None and winners_d.get(n) != winners_t.get(n))]
    # the seats alone, in order: the trick built right whatever each card was read as
    seats_right = sum(1 for n, cards in true_tricks.items() if [s for s, _ in found.get(n, [])] == [s for s, _ in cards])
    return {"right": len(true_tricks) - len(wrong), "tricks": len(true_tricks), "wrong": wrong,
            "seats_right": seats_right, "extra": sorted(set(found) - set(true_tricks))}


def _lcs(a: Sequence[Any], b: Sequence[Any]) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def load_events(path: Path) -> list[TableEvent]:
    out: list[TableEvent] = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                item = from_json(json.loads(line))
                if not isinstance(item, TableEvent):
                    raise UserError(f"{path}:{n}: expected a table event, got an input")
                out.append(item)
    return out


def truth_events(truth: dict[str, Any]) -> list[TableEvent]:
    """The table events of a truth file's contents (its human inputs left out)."""
    return [e for e in (from_json(x) for x in truth.get("events", [])) if isinstance(e, TableEvent)]


def evaluate_dir(folder: Path, truth_path: Path, tolerance: int = 3) -> dict[str, Any]:
    events_file = folder / "events.jsonl"
    if not events_file.is_file():
        raise UserError(f"{str(folder)!r} has no events.jsonl; run `tableref analyze ... --out {folder}` first")
    try:
        truth = json.loads(truth_path.read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise UserError(f"cannot read the truth file {str(truth_path)!r}: {exc}") from None
    fps = float(truth.get("fps", 30.0))
    true_events = truth_events(truth)
    detected = load_events(events_file)
    per_type, _ = match_events(detected, true_events, fps, tolerance)
    first, shots = first_contact_accuracy(detected, true_events, fps, tolerance)
    result: dict[str, Any] = {
        "events": {k: v.to_json() for k, v in per_type.items()},
        "first_contact": {"accuracy": round(first, 4), "shots": shots},
        "tracks": track_quality(folder / "tracks.jsonl", truth.get("states", [])),
        "tolerance_frames": tolerance,
    }
    game = truth.get("game")
    summary_file = folder / "summary.json"
    if summary_file.is_file():
        game = json.loads(summary_file.read_text("utf-8")).get("game") or game
    inputs_file = folder / "inputs.jsonl"
    inputs = list(read_log(inputs_file.read_text("utf-8").splitlines())) if game and inputs_file.is_file() else []
    if game:
        try:
            result["referee"] = referee_agreement(game, detected, true_events, inputs)
        except (ImportError, ValueError) as exc:
            result["referee"] = {"error": str(exc)}
    if any(e.type in _CARD_EVENTS for e in true_events):
        result["cards"] = {"identity": card_identity(detected, true_events, fps, tolerance),
                           "tricks": trick_agreement(game, detected, true_events, inputs)}
    return result


def run(args: argparse.Namespace) -> int:
    folder, truth = Path(args.dir), Path(args.truth)
    result = evaluate_dir(folder, truth)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{'event':<16}{'precision':>10}{'recall':>10}{'f1':>8}{'tp':>6}{'fp':>6}{'fn':>6}")
        for name, m in result["events"].items():
            print(f"{name:<16}{m['precision']:>10.3f}{m['recall']:>10.3f}{m['f1']:>8.3f}{m['tp']:>6}{m['fp']:>6}{m['fn']:>6}")
        fc = result["first_contact"]
        print(f"first contact accuracy {fc['accuracy']:.3f} over {fc['shots']} shots")
        for k, v in result["tracks"].items():
            print(f"{k} {v}")
        if "cards" in result:
            ident, tricks = result["cards"]["identity"], result["cards"]["tricks"]
            print(f"card identity accuracy {ident['accuracy']} over {ident['events']} card events; "
                  f"tricks assembled right {tricks['right']}/{tricks['tricks']}")
        if "referee" in result:
            print("referee " + json.dumps(result["referee"]))
    worst = min((m["f1"] for m in result["events"].values()), default=1.0)
    if worst < args.min_f1:
        print(f"an event type's F1 {worst:.3f} is below --min-f1 {args.min_f1}", file=sys.stderr)
        return 1
    return 0
