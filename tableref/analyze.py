"""``tableref analyze SOURCE --table T [--game G] --out DIR``: the whole pipeline over a recording.

Writes, in ``DIR``:

* ``events.jsonl``: the table events, one a line (DESIGN.md vocabulary);
* ``tracks.jsonl``: every frame's tracks in table mm (what ``evaluate`` scores positions on);
* ``referee.jsonl`` (with ``--game``): each referee update, and ``question`` lines for what it
  could not apply, with the human inputs of ``--inputs`` merged in by time;
* ``inputs.jsonl``: a copy of those inputs, so ``evaluate`` can replay the same match;
* ``summary.json``: counts per event type, final scores, frames and processing speed;
* ``annotated.mp4``: the video with tracks, ids, events and fouls drawn on it.

Vision never imports the referee (DESIGN.md), so this command lives in ``tableref/``, the edge where
the stages meet (like the service), and imports the referee only when a game is given.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, deque
from pathlib import Path
from typing import Any, TextIO

import cv2
import numpy as np

from tableref.calibration.resolution import check_resolution
from tableref.catalog import GAME_TABLE
from tableref.errors import UserError
from tableref.events import HumanInput, LogFormatError, TableEvent, read_log
from tableref.vision.pipeline import FrameResult, VisionPipeline

COLOURS = {"foul": (40, 40, 230), "event": (255, 255, 255), "track": (0, 255, 255)}


class Progress:
    """A plain progress bar on stderr (no extra dependency): frames done, total and speed."""

    def __init__(self, total: int, stream: TextIO = sys.stderr) -> None:
        self.total = max(total, 1)
        self.stream = stream
        self.start = time.monotonic()
        self.last = 0.0

    def update(self, done: int, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last < 0.5:
            return
        self.last = now
        fps = done / max(1e-6, now - self.start)
        width = 30
        filled = int(width * min(done, self.total) / self.total)
        self.stream.write(f"\ranalyze [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} frames {fps:5.1f} fps")
        self.stream.flush()

    def close(self) -> None:
        self.update(self.total, force=True)
        self.stream.write("\n")


class RefereeFeed:
    """Feeds events and the recorded human inputs (merged by time) to the game's referee."""

    def __init__(self, game: str, inputs: list[HumanInput]) -> None:
        from tableref.referee import make_engine

        self.engine = make_engine(game)
        self.pending = deque(sorted(inputs, key=lambda i: i.t))
        self.lines: list[dict[str, Any]] = []
        self.fouls: list[tuple[float, str]] = []
        self.penalties: list[dict[str, Any]] = []

    def _apply(self, item: TableEvent | HumanInput) -> None:
        from tableref.referee import RefereeError, UpdateKind

        try:
            updates = self.engine.apply(item)
        except RefereeError as exc:
            self.lines.append({"question": exc.question, "item": item.to_json()})
            return
        for u in updates:
            self.lines.append(u.to_json())
            if u.kind is UpdateKind.FOUL:
                self.fouls.append((item.t, u.text))
                self.penalties.append(u.to_json())

    def until(self, t: float) -> None:
        while self.pending and self.pending[0].t <= t:
            self._apply(self.pending.popleft())

    def event(self, event: TableEvent) -> None:
        self.until(event.t)
        self._apply(event)

    def finish(self) -> dict[str, Any]:
        self.until(float("inf"))
        outcome = self.engine.outcome()
        return {"scores": self.engine.scores(), "outcome": outcome.to_json() if outcome else None,
                "penalties": self.penalties, "questions": sum(1 for line in self.lines if "question" in line)}


def read_inputs(path: str | None) -> list[HumanInput]:
    if not path:
        return []
    try:
        with open(path, encoding="utf-8") as fh:
            items = list(read_log(fh))
    except OSError as exc:
        raise UserError(f"cannot read the inputs log {path!r}: {exc.strerror}") from None
    except LogFormatError as exc:
        raise UserError(f"inputs log {path!r}: {exc}") from None
    bad = [i for i in items if not isinstance(i, HumanInput)]
    if bad:
        raise UserError(f"inputs log {path!r} holds table events (e.g. {bad[0].to_json()}); it takes human inputs only")
    return [i for i in items if isinstance(i, HumanInput)]


def annotate(image: np.ndarray, result: FrameResult, pipeline: VisionPipeline, recent: deque[tuple[float, str, bool]],
             t: float) -> np.ndarray:
    overlay = getattr(pipeline, "overlay", None)  # the card table draws its cards and tricks itself
    out = overlay(image) if overlay is not None else image.copy()
    on_table = [tr for tr in result.tracks.tracks if tr.alive] if overlay is None else []
    if on_table:
        pts = pipeline.mapping.to_image([(tr.x, tr.y) for tr in on_table])
        for tr, (px, py) in zip(on_table, pts, strict=True):
            centre = (int(round(px)), int(round(py)))
            cv2.circle(out, centre, 14, COLOURS["track"], 1, cv2.LINE_AA)
            cv2.putText(out, tr.id, (centre[0] + 12, centre[1] - 10), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                        COLOURS["track"], 1, cv2.LINE_AA)
    y = 28
    for when, text, foul in list(recent):
        if t - when > 3.0:
            continue
        colour = COLOURS["foul"] if foul else COLOURS["event"]
        cv2.putText(out, text, (16, y), cv2.FONT_HERSHEY_SIMPLEX, 0.7 if foul else 0.55, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(out, text, (16, y), cv2.FONT_HERSHEY_SIMPLEX, 0.7 if foul else 0.55, colour, 1 if not foul else 2,
                    cv2.LINE_AA)
        y += 26
    cv2.putText(out, f"t={t:6.2f}s", (out.shape[1] - 150, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1,
                cv2.LINE_AA)
    return out


def track_line(index: int, t: float, result: FrameResult) -> str:
    """One frame's line of ``tracks.jsonl``: the objects on the table and where."""
    return json.dumps({"frame": index, "t": round(t, 4), "tracks": [
        {"id": tr.id, "x": round(tr.x, 1), "y": round(tr.y, 1), "status": tr.status.value}
        for tr in result.tracks.tracks if tr.alive]}, separators=(",", ":")) + "\n"


def event_line(event: TableEvent) -> str:
    """One line of ``events.jsonl``."""
    return json.dumps(event.to_json(), separators=(",", ":")) + "\n"


def analyze(source: str, table: str, out_dir: Path, game: str | None = None, calibration: str | None = None,
            inputs_path: str | None = None, detector: str = "classical", annotate_video: bool = True,
            progress: bool = True) -> dict[str, Any]:
    if game is not None and GAME_TABLE[game] != table:
        raise UserError(f"{game} is played on the {GAME_TABLE[game]} table, not {table}; use --table {GAME_TABLE[game]}")
    cap = cv2.VideoCapture(source)
    if not cap.isOpened():
        raise UserError(f"cannot open video {source!r}: not found or not a format OpenCV can decode")
    ok, first = cap.read()
    if not ok or first is None:
        raise UserError(f"cannot read any frame from {source!r}")
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    total = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
    inputs = read_inputs(inputs_path)
    pipeline = VisionPipeline.create(table, calibration, detector)
    resolution = check_resolution(pipeline.spec, pipeline.mapping.to_image)
    if not resolution.ok:
        print(resolution.message(), file=sys.stderr)
    feed = RefereeFeed(game, inputs) if game else None
    out_dir.mkdir(parents=True, exist_ok=True)
    writer = None
    if annotate_video:
        h, w = first.shape[:2]
        writer = cv2.VideoWriter(str(out_dir / "annotated.mp4"), cv2.VideoWriter.fourcc(*"mp4v"), fps, (w, h))
    counts: Counter[str] = Counter()
    events_seen: list[TableEvent] = []
    recent: deque[tuple[float, str, bool]] = deque(maxlen=8)
    bar = Progress(total) if progress else None
    started = time.monotonic()
    index = 0
    image: np.ndarray | None = first
    with (out_dir / "events.jsonl").open("w", encoding="utf-8") as ev_fh, \
            (out_dir / "tracks.jsonl").open("w", encoding="utf-8") as tr_fh:
        while image is not None:
            t = index / fps
            result = pipeline.step(image, index, t)
            tr_fh.write(track_line(index, t, result))
            for event in result.events:
                counts[event.type.value] += 1
                events_seen.append(event)
                ev_fh.write(event_line(event))
                recent.append((t, f"{event.type.value} {' '.join(event.objects)} {event.where or ''}".strip(), False))
                if feed is not None:
                    n = len(feed.fouls)
                    feed.event(event)
                    for _, text in feed.fouls[n:]:
                        recent.append((t, f"FOUL: {text}", True))
            if writer is not None:
                writer.write(annotate(image, result, pipeline, recent, t))
            index += 1
            if bar is not None:
                bar.update(index)
            ok, image = cap.read()
            if not ok:
                image = None
    cap.release()
    if writer is not None:
        writer.release()
    if bar is not None:
        bar.total = index
        bar.close()
    elapsed = time.monotonic() - started
    summary: dict[str, Any] = {
        "source": source, "table": table, "game": game, "frames": index, "fps": fps,
        "processing_fps": round(index / max(elapsed, 1e-6), 1), "events": dict(sorted(counts.items())),
        "detector": detector, "camera_resolution": resolution.to_json(),
    }
    shift = getattr(pipeline.detector, "shift", None)
    if shift is not None:
        # a camera knocked or sagging is followed; one moved further needs calibrating again
        summary["camera_shift"] = {"followed_px": list(shift.followed),
                                   "moved_px": None if shift.moved_px is None else round(shift.moved_px, 1)}
        if shift.moved_px is not None:
            print(f"warning: the camera moved about {shift.moved_px:.0f} pixels from where it was calibrated, more "
                  f"than the detector follows ({shift.p.max_px:.0f}); positions and calls after it are unreliable: "
                  "run `tableref calibrate` again", file=sys.stderr)
    if feed is not None:
        summary["referee"] = feed.finish()
        with (out_dir / "referee.jsonl").open("w", encoding="utf-8") as fh:
            for line in feed.lines:
                fh.write(json.dumps(line) + "\n")
        with (out_dir / "inputs.jsonl").open("w", encoding="utf-8") as fh:
            for item in inputs:
                fh.write(json.dumps(item.to_json()) + "\n")
    if table == "cards":
        summary["tricks"] = trick_summary(events_seen, feed.lines if feed is not None else [])
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", "utf-8")
    return summary


def trick_summary(events: list[TableEvent], referee_lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each trick as the camera saw it (seats and cards in order, the lead first) and its winner as
    the referee called it, for the card table's summary."""
    from tableref.evaluate import assemble_tricks

    winners = {int(line.get("data", {}).get("trick", 0)): line.get("player")
               for line in referee_lines if line.get("kind") == "trick"}
    return [{"trick": n, "lead": cards[0][0] if cards else None,
             "cards": [{"seat": seat, "card": card} for seat, card in cards], "winner": winners.get(n)}
            for n, cards in sorted(assemble_tricks(events).items())]


def run(args: argparse.Namespace) -> int:
    summary = analyze(args.source, args.table, Path(args.out), game=args.game, calibration=args.calibration,
                      inputs_path=args.inputs, detector=args.detector, progress=True)
    print(json.dumps({"out": args.out, "frames": summary["frames"], "events": summary["events"],
                      **({"referee": summary["referee"]} if "referee" in summary else {})}))
    return 0
