"""Rebuild ``sample_videos/``: short annotated clips of every table, each ``NAME.mp4`` beside ``NAME.truth.json``.

    python scripts/make_samples.py            # all clips into sample_videos/ (what `make samples` runs)
    python scripts/make_samples.py --only pool --out /tmp/samples

Names are ``<game>-<scenario>-s<seed>``. Every clip is simulated and rendered from its seed alone,
so rebuilding gives the same bytes. The script refuses to leave a set that breaks the limits the
project promises: at least five clips per ball table and two for cards, each at most 20 s at
1280x720, 40 MB in all.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from tableref.catalog import table_for_game
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

| clip | table | s | frames | camera height, tilt | events |
| --- | --- | --- | --- | --- | --- |
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
        rows.append(f"| `{name}` | {truth['table']} | {truth['frames'] / truth['fps']:.1f} | {truth['frames']} | "
                    f"{cam['height_mm'] / 1000:.2f} m, {cam['tilt_deg']:.0f} deg | {events} |")
    (out / "README.md").write_text(README_HEAD + "\n".join(rows) + "\n", encoding="utf-8")


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
