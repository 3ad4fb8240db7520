"""Rebuild ``sample_videos/``: short annotated clips of every table, each ``NAME.mp4`` beside ``NAME.truth.json``.

    python scripts/make_samples.py            # all clips into sample_videos/ (what `make samples` runs)
    python scripts/make_samples.py --only pool --out /tmp/samples

Names are ``<game>-<scenario>-s<seed>``. Every clip is simulated and rendered from its seed alone,
so rebuilding gives the same bytes. The script refuses to leave a set that breaks the limits the
project promises: at least five clips per ball table and two for cards, each at most 20 s at
1280x720, 40 MB in all. Each truth file's events and inputs must replay through the game's referee
without a question, and the clip the service's demo plays first (the first bar-billiards clip with
"pin" in its name) must hold a foul that changes the score and that an overrule gives back.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tableref.catalog import table_for_game
from tableref.events import HumanInput, LogItem, from_json, merge_by_time
from tableref.referee import RefereeError, UpdateKind, make_engine
from tableref.simulator.clip import write_clip
from tableref.simulator.scenarios import run_scenario

ROOT = Path(__file__).resolve().parents[1]
WIDTH, HEIGHT, FPS = 1280, 720, 30.0
MAX_SECONDS = 20.0
MAX_TOTAL_MB = 40.0
MIN_PER_TABLE = {"bar-billiards": 5, "pool": 5, "carrom": 5, "cards": 2}

#: (game, scenario, seed): what each table's samples show; seeds chosen for varied installations
CLIPS: tuple[tuple[str, str, int], ...] = (
    ("bar-billiards", "break-off", 1),
    ("bar-billiards", "potting-visit", 2),
    ("bar-billiards", "white-pin-falls", 3),
    ("bar-billiards", "black-pin-falls", 4),
    ("bar-billiards", "ball-leaves-table", 5),
    ("up-and-down", "break", 1),
    ("up-and-down", "legal-pot", 2),
    ("up-and-down", "scratch", 3),
    ("colors", "two-ball-pot", 4),
    ("colors", "ball-off-table", 5),
    ("carroms", "break", 1),
    ("carroms", "pot", 2),
    ("carroms", "queen-covered", 3),
    ("carroms", "striker-pocketed", 4),
    ("carroms", "piece-off-board", 5),
    ("all-fours", "kick", 1),
    ("all-fours", "lead-out-of-turn", 2),
)


def clip_name(game: str, scenario: str, seed: int) -> str:
    return f"{game}-{scenario}-s{seed}"


README_HEAD = """# Sample clips

Short annotated clips of every table tableref knows, rendered by the simulator (`simulator/`)
through a seeded camera: each `NAME.mp4` (1280x720, 30 fps, MPEG-4) has its truth beside it in
`NAME.truth.json`. Names are `<game>-<scenario>-s<seed>`; every clip is a pure function of its
seed, so `python scripts/make_samples.py` (or `make samples`) rebuilds the same bytes.

What a truth file holds (see `simulator/clip.py` for the full description):

- `homography`: table millimetres (x, y) on the plane of the objects' visible centres
  (`homography_z_mm`: a ball's radius, a carrom man's top face, a card) to *undistorted* pixels;
  `homography_cloth` the same for the cloth. Where `distortion_applied` is true, undistort observed
  pixels first with `camera.K` and `camera.distortion` (`cv2.undistortPoints(..., P=K)`), or project
  table points with the full camera (`CameraModel.from_json(truth["camera"]).project`).
- `camera`: intrinsics, distortion (k1, k2, p1, p2, k3), pose (`rvec`, `tvec`), height, tilt from
  straight down, field of view.
- `states`: every object in every frame, table millimetres and status (`on_table`, `in_hole`,
  `fallen`, `off_table`, `in_hand`); `events`: the true events in DESIGN.md's vocabulary.
- `meta`: the scenario's notes (shots, intents, deal) and what the seed drew for the picture.

Each seed draws its own installation: camera height and tilt (0-35 degrees), where it stands,
lens distortion, lamps (one to three, with shades), cloth colour and texture, rail wood, floor,
sensor noise, exposure (motion blur), sometimes an MJPEG camera's extra compression, the
player's skin tone and sleeves.

Each truth file also holds `inputs`: what a person entered on the tablet while the clip was filmed
(the log format of `tableref/events.py`). A ball-game clip opens with a `setup` at t = 0 (frame 0's
objects, who is at the table, the scores, the game's state), so the referee starts where the clip
starts; Up and Down calls each shot; All-Fours has the deal, then a stand, or a beg and a give.
Merged by time with `events`, they replay through the referee with no question:
`jq -c '(.events + .inputs) | sort_by(.t) | .[]' NAME.truth.json > log.jsonl` then
`tableref replay --game GAME log.jsonl`.

| clip | table | s | frames | camera height, tilt | events | inputs |
| --- | --- | --- | --- | --- | --- | --- |
"""


def write_readme(out: Path) -> None:
    """``README.md`` listing the clips as they are on disk (read back from their truth files)."""
    rows = []
    for game, scenario, seed in CLIPS:
        name = clip_name(game, scenario, seed)
        path = out / f"{name}.truth.json"
        if not path.exists():
            continue
        truth = json.loads(path.read_text(encoding="utf-8"))
        cam = truth["camera"]
        counts = Counter(e["type"] for e in truth["events"])
        events = ", ".join(f"{t} {n}" if n > 1 else t for t, n in counts.items())
        said = Counter(i["input"] for i in truth.get("inputs", []))
        inputs = ", ".join(f"{k} {n}" if n > 1 else k for k, n in said.items())
        rows.append(f"| `{name}` | {truth['table']} | {truth['frames'] / truth['fps']:.1f} | {truth['frames']} | "
                    f"{cam['height_mm'] / 1000:.2f} m, {cam['tilt_deg']:.0f} deg | {events} | {inputs} |")
    (out / "README.md").write_text(README_HEAD + "\n".join(rows) + "\n", encoding="utf-8")


def truth_log(truth: dict[str, Any]) -> list[LogItem]:
    """A truth file's events and inputs, merged by time: the match segment the clip shows."""
    events = [from_json(e) for e in truth["events"]]
    inputs = [from_json(i) for i in truth.get("inputs", [])]
    return merge_by_time([e for e in events if not isinstance(e, HumanInput)], inputs)


def referee_questions(truth: dict[str, Any]) -> list[str]:
    """What the game's referee could not apply (each would be a question on the tablet)."""
    engine = make_engine(truth["game"])
    out = []
    for item in truth_log(truth):
        try:
            engine.apply(item)
        except RefereeError as exc:
            what = item.kind if isinstance(item, HumanInput) else item.type.value
            out.append(f"{what} at {item.t:.2f} s: {exc}")
    return out


def overruled_score_foul(truth: dict[str, Any]) -> bool:
    """Whether the clip holds a foul that changes the score and that an overrule right after gives back."""
    log = truth_log(truth)
    engine = make_engine(truth["game"])
    for n, item in enumerate(log):
        before = engine.scores()
        updates = engine.apply(item)
        if not any(u.kind is UpdateKind.FOUL for u in updates) or engine.scores() == before:
            continue
        check = make_engine(truth["game"])
        check.replay(log[: n + 1])
        try:  # bar billiards' plain overrule; other games name what they cancel
            check.apply(HumanInput(t=item.t, kind="overrule"))
        except RefereeError:
            return False
        return check.scores() == before
    return False


def demo_clip(out: Path) -> Path | None:
    """The clip the service's demo plays first: the first bar-billiards clip with "pin" in its name."""
    return next((v for v in sorted(out.glob("*.mp4")) if v.name.startswith("bar-billiards") and "pin" in v.name),
                None)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Rebuild the sample clips (video + truth) in sample_videos/.")
    p.add_argument("--out", default=str(ROOT / "sample_videos"), help="folder to write (default: sample_videos/)")
    p.add_argument("--only", default="", help="only clips whose name contains this text")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    chosen = [c for c in CLIPS if args.only in clip_name(*c)]
    if not chosen:
        print(f"no clip name contains {args.only!r}; names: {', '.join(clip_name(*c) for c in CLIPS)}",
              file=sys.stderr)
        return 2
    problems: list[str] = []
    for game, scenario, seed in chosen:
        name = clip_name(game, scenario, seed)
        t0 = time.perf_counter()
        sim = run_scenario(game, scenario, seed, FPS)
        seconds = len(sim.frames) / FPS
        if seconds > MAX_SECONDS:
            problems.append(f"{name} lasts {seconds:.1f} s (at most {MAX_SECONDS:.0f} s)")
        info = write_clip(sim, out, width=WIDTH, height=HEIGHT, video_name=f"{name}.mp4",
                          truth_name=f"{name}.truth.json")
        mb = (info.video.stat().st_size + info.truth.stat().st_size) / 1e6
        print(f"{name:45} {info.frames:4d} frames {seconds:5.1f} s {mb:6.2f} MB  ({time.perf_counter() - t0:.1f} s)")
        questions = referee_questions(json.loads(info.truth.read_text(encoding="utf-8")))
        problems.extend(f"{name}: the referee asked about {q}" for q in questions)

    # the limits hold for the whole folder, not just what was rebuilt now
    videos = sorted(out.glob("*.mp4"))
    total_mb = sum(f.stat().st_size for f in out.iterdir() if f.suffix in (".mp4", ".json")) / 1e6
    per_table: dict[str, int] = {}
    for v in videos:
        if not (out / f"{v.stem}.truth.json").exists():
            problems.append(f"{v.name} has no {v.stem}.truth.json beside it")
        owner = next((g for g, _, _ in CLIPS if v.stem.startswith(g + "-")), None)
        if owner is not None:
            table = table_for_game(owner)
            per_table[table] = per_table.get(table, 0) + 1
    demo = demo_clip(out)
    if demo is not None and not overruled_score_foul(
            json.loads(demo.with_suffix(".truth.json").read_text(encoding="utf-8"))):
        problems.append(f"{demo.name}, the demo's first clip, has no foul that changes the score and that an "
                        "overrule gives back")
    if not args.only:
        write_readme(out)
        for table, need in MIN_PER_TABLE.items():
            if per_table.get(table, 0) < need:
                problems.append(f"{table}: {per_table.get(table, 0)} clips, at least {need} wanted")
    if total_mb > MAX_TOTAL_MB:
        problems.append(f"the samples take {total_mb:.1f} MB, at most {MAX_TOTAL_MB:.0f} MB")
    print(f"\n{len(videos)} clips, {total_mb:.1f} MB in {out}")
    for msg in problems:
        print(f"problem: {msg}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
