"""The ``tableref`` command: one CLI with the subcommands of DESIGN.md's command-line contract.

Each subcommand's work lives beside its stage (``simulator/cli.py``, ``vision/cli.py``, ...); this
module only parses arguments and imports the handler on demand, so ``tableref replay`` never
pays for OpenCV and ``--help`` is instant. argparse already exits with 2 and lists the accepted
choices for unknown games, tables and flags; handlers raise :class:`UserError` for the rest.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from tableref.catalog import GAMES, TABLES
from tableref.errors import UserError

Handler = Callable[[argparse.Namespace], int]


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tableref",
        description="A camera referee for table games (bar billiards, pool, carroms, All-Fours).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("simulate", help="render an annotated match clip: video.mp4 + truth.json")
    p.add_argument("--game", required=True, choices=GAMES)
    p.add_argument("--scenario", required=True, help="scenario name (see `tableref simulate --game G --scenario list`)")
    p.add_argument("--seed", type=_positive_int, default=0)
    p.add_argument("--out", help="output folder (required unless --scenario list)")
    p.add_argument("--width", type=_positive_int, default=1280)
    p.add_argument("--height", type=_positive_int, default=720)
    p.add_argument("--fps", type=_positive_int, default=30)
    p.set_defaults(handler="tableref.simulator.cli:run")

    p = sub.add_parser("calibrate", help="find the playing surface and fit the camera homography")
    p.add_argument("source", help="an image or video file")
    p.add_argument("--table", required=True, choices=TABLES)
    p.add_argument("--corners", help='playing-surface corners in image pixels, clockwise: "x,y x,y x,y x,y"')
    p.add_argument("--intrinsics", help="JSON file with the camera matrix K and lens distortion (OpenCV order)")
    p.add_argument("--out", required=True, help="calibration JSON file to write")
    p.set_defaults(handler="tableref.calibration.cli:run_calibrate")

    p = sub.add_parser("detect", help="detect the balls, pins, pieces or cards in one image")
    p.add_argument("image")
    p.add_argument("--table", required=True, choices=TABLES)
    p.add_argument("--calibration")
    p.add_argument("--detector", choices=("classical", "learned"), default="classical")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler="tableref.vision.cli:run_detect")

    p = sub.add_parser("analyze", help="run the whole pipeline over a video: events, referee, annotated video")
    p.add_argument("source")
    p.add_argument("--table", required=True, choices=TABLES)
    p.add_argument("--game", choices=GAMES)
    p.add_argument("--calibration")
    p.add_argument("--inputs", help="human inputs of the recorded match (JSON Lines)")
    p.add_argument("--detector", choices=("classical", "learned"), default="classical")
    p.add_argument("--out", required=True)
    p.set_defaults(handler="tableref.analyze:run")

    p = sub.add_parser("evaluate", help="score an analysis against the truth: precision, recall, F1")
    p.add_argument("dir")
    p.add_argument("--truth", required=True)
    p.add_argument("--json", action="store_true")
    p.add_argument("--min-f1", type=float, default=0.0)
    p.set_defaults(handler="tableref.evaluate:run")

    p = sub.add_parser("replay", help="feed a log of events and inputs to a referee; print its updates")
    p.add_argument("--game", required=True, choices=GAMES)
    p.add_argument("log", help="JSON Lines log of events and inputs ('-' for standard input)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a venue option")
    p.set_defaults(handler="tableref.replay:run")

    p = sub.add_parser("serve", help="start the service (a demo table when unconfigured)")
    p.add_argument("--host", default=None)
    p.add_argument("--port", type=_positive_int, default=None)
    p.add_argument("--data-dir", default=None)
    p.set_defaults(handler="tableref.api.cli:run")
    return parser


def _load(target: str) -> Handler:
    module_name, _, func = target.partition(":")
    handler: Handler = getattr(importlib.import_module(module_name), func)
    return handler


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _load(args.handler)(args)
    except UserError as exc:
        print(f"tableref {args.command}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
