"""``tableref replay --game G LOG.jsonl``: feed a recorded log to a referee and print its updates.

Each update is printed as one JSON line. An item the referee cannot apply becomes a
``{"question": ...}`` line, as it would on the tablet, and the replay goes on: a bad line in a
recorded match must never lose what came before it. The last line is
``{"final": {"scores": ..., "winner": ..., "state": ...}}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from tableref.errors import UserError
from tableref.events import LogFormatError, parse_line


def _parse_option(text: str) -> tuple[str, Any]:
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise UserError(f"--option takes NAME=VALUE, got {text!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return name.strip(), value


def replay_stream(game: str, stream: TextIO, out: TextIO, options: dict[str, Any] | None = None) -> int:
    """Replay ``stream`` through a fresh engine, writing JSON lines to ``out``; returns the exit code."""
    from tableref.referee import RefereeError, make_engine

    try:
        engine = make_engine(game, **(options or {}))
    except ValueError as exc:
        raise UserError(str(exc)) from None
    problems = 0
    for lineno, line in enumerate(stream, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            item = parse_line(text, lineno)
        except LogFormatError as exc:
            problems += 1
            out.write(json.dumps({"error": str(exc), "line": lineno}) + "\n")
            continue
        try:
            updates = engine.apply(item)
        except RefereeError as exc:
            problems += 1
            out.write(json.dumps({"question": exc.question, "line": lineno, "item": item.to_json()}) + "\n")
            continue
        for update in updates:
            out.write(json.dumps(update.to_json()) + "\n")
    outcome = engine.outcome()
    final = {
        "scores": engine.scores(),
        "winner": outcome.winner if outcome else None,
        "outcome": outcome.to_json() if outcome else None,
        "state": engine.state,
    }
    out.write(json.dumps({"final": final}) + "\n")
    out.flush()
    return 0 if problems == 0 else 1


def run(args: argparse.Namespace) -> int:
    options = dict(_parse_option(o) for o in args.option)
    if args.log == "-":
        return replay_stream(args.game, sys.stdin, sys.stdout, options)
    try:
        with open(args.log, encoding="utf-8") as handle:
            return replay_stream(args.game, handle, sys.stdout, options)
    except OSError as exc:
        raise UserError(f"cannot read the log {args.log!r}: {exc.strerror}") from None
