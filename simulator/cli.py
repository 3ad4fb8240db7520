"""``tableref simulate --game G --scenario S --seed N --out DIR``: write ``video.mp4`` and ``truth.json``.

``--scenario list`` prints the game's scenarios instead. Every bad argument is a
:class:`~tableref.errors.UserError` naming what is accepted, which the CLI turns into exit code 2
(argparse itself already refuses unknown games).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tableref.errors import UserError


def _scenarios(game: str) -> list[tuple[str, str]]:
    from tableref.simulator.scenarios import SCENARIOS, scenario_names

    names = scenario_names(game)
    return [(n, getattr(SCENARIOS[game][n], "description", "")) for n in names]


def run(args: argparse.Namespace) -> int:
    from tableref.simulator.video import check_size

    game: str = args.game
    scenarios = _scenarios(game)
    names = [n for n, _ in scenarios]
    if args.scenario == "list":
        width = max((len(n) for n in names), default=0)
        for name, desc in scenarios:
            print(f"{name.ljust(width)}  {desc}".rstrip())
        return 0
    if args.scenario not in names:
        raise UserError(f"unknown scenario {args.scenario!r} for {game}; accepted: {', '.join(names) or 'none yet'} "
                        "(or 'list')")
    check_size(int(args.width), int(args.height))
    fps = int(args.fps)
    if not 1 <= fps <= 240:
        raise UserError(f"--fps must be from 1 to 240, got {fps}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {str(out)!r} is a file; give a folder (it is created if missing)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the output folder {str(out)!r}: {exc.strerror}") from None

    from tableref.simulator.clip import make_clip

    info = make_clip(game, args.scenario, int(args.seed), out, width=int(args.width), height=int(args.height),
                     fps=float(fps))
    print(f"wrote {info.video} and {info.truth}: {info.frames} frames, {info.seconds:.1f} s", file=sys.stdout)
    return 0
