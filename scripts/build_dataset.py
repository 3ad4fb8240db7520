"""Build the learned detector's data set: rendered frames of every ball table, labelled, plus real photos.

    .venv/bin/python scripts/build_dataset.py --out out/detector-data            # the shipped model's set
    .venv/bin/python scripts/build_dataset.py --out /tmp/tiny --train-looks 2 --val-looks 1   # a smoke test
    .venv/bin/python scripts/build_dataset.py --out out/detector-data --jobs 16          # the same set on 16 cores

Output (YOLO format, what ``ultralytics`` reads from ``data.yaml``)::

    OUT/images/{train,val}/*.jpg   OUT/labels/{train,val}/*.txt   OUT/data.yaml
    OUT/truth/{train,val}.jsonl    per image: table, camera, every object's class, box, centre (pixels)
    OUT/tiles/{images,labels}/{train,val}/   the 384x384 training tiles that data.yaml points at
    OUT/manifest.json              the arguments, the counts, the seeds of each split

Why it looks like this:

* **Every ball table, wide randomisation.** Each *look* is one installation drawn from a seed by
  the simulator (camera height and tilt up to 35 degrees, lens distortion, lamps and their cones,
  cloth, rails, noise, compression); on top of it this script widens what a seed draws (any cloth
  colour, stronger lamp tints and white balance) and adds what the renderer does not draw: glare
  spots, worn cloth, chalk cubes, phones and pint glasses on the rail, arms crossing the table,
  colour casts and light falloff. Frames come from the game scenarios (racks, shots with the cue
  and motion blur, hands placing balls, pins falling) and from random layouts (clusters, balls on
  cushions and in pocket mouths, balls held in a hand or left on the rail, pins standing, nudged
  and fallen).
* **A fixed validation split by seed.** Training looks use seeds ``0..``, validation looks seeds
  ``900000..``: a validation frame never shares a camera, lamp or cloth with a training frame, and
  the same arguments give the same files.
* **Boxes from geometry, not from pixels.** Each object's box is the projection of points on its
  surface through the camera (distortion included); an object hidden under a hand, a cue or a
  distractor (less than ``MIN_VISIBLE`` of it showing) is left unlabelled rather than taught as
  background or as a ball.
* **Real photos for the generic ball.** ``pool-balls-real/train`` (``Ball`` -> ``ball``; the table
  boxes are not used) joins the training split, after dropping the augmented copies whose boxes do
  not sit on balls (:func:`labels_fit`). Its ``valid`` split is never read here: it stays held out.
* **Training frames at the model's input scale.** A 1280x720 frame is stored shrunk to the
  detector's ``--input-size`` (768: x0.6, 768x432) with area averaging, as the detector shrinks it
  at run time, and cut into tiles where the objects are (``build_dataset_crops.py`` says why);
  validation frames stay at 1280x720 so that both detectors can be scored on what a venue camera
  records.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "scripts") not in sys.path:
    sys.path.insert(0, str(ROOT / "scripts"))

from build_dataset_crops import write_tiles  # noqa: E402
from build_dataset_extras import add_distractors, cloth_polygon  # noqa: E402
from build_dataset_scenes import random_frame, scenario_frames, widen_look  # noqa: E402

from tableref.calibration.spec import TableSpec, load_table  # noqa: E402
from tableref.simulator.render import HELD_LIFT_MM, Renderer  # noqa: E402
from tableref.simulator.render_look import random_look  # noqa: E402
from tableref.simulator.render_objects import PIN_BASE_MM  # noqa: E402
from tableref.simulator.render_shapes import draw_shapes  # noqa: E402
from tableref.simulator.state import FrameState, ObjectState, ObjectStatus  # noqa: E402
from tableref.vision.learned import CLASS_NAMES, GENERIC_BALL  # noqa: E402

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]

TABLES = ("pool", "bar-billiards", "carrom")
VAL_SEED_BASE = 900_000
WIDTH, HEIGHT = 1280, 720
MIN_VISIBLE = 0.45  # fraction of an object's silhouette that must show for it to be labelled
MIN_IN_FRAME = 0.5
REAL_MIN_FIT = 0.85


def default_real_dir() -> Path:
    return ROOT.parent / "shared" / "datasets" / "pool-balls-real"


# -- truth: which class, which box ------------------------------------------------------------------

def class_name(table: str, obj: ObjectState) -> str | None:
    """The network class of a simulated object on ``table`` (``None``: not a detector target)."""
    if table == "pool" and obj.kind == "ball":
        label = obj.label or obj.id
        return label if label in CLASS_NAMES else None
    if table == "bar-billiards":
        if obj.kind == "pin":
            return "pin-fallen" if obj.status is ObjectStatus.FALLEN else "pin-standing"
        if obj.kind in ("white", "red"):
            return f"bb-{obj.kind}"
    if table == "carrom" and obj.kind in ("white", "black", "queen", "striker"):
        return obj.kind if obj.kind in ("queen", "striker") else f"carrom-{obj.kind}"
    return None


def _sphere(n: int = 96) -> F64:
    k = np.arange(n) + 0.5
    phi = np.arccos(1 - 2 * k / n)
    theta = math.pi * (1 + 5 ** 0.5) * k
    return np.stack([np.cos(theta) * np.sin(phi), np.sin(theta) * np.sin(phi), np.cos(phi)], axis=1)


_SPHERE = _sphere()
_RING = np.stack([np.cos(np.linspace(0, 2 * math.pi, 32, endpoint=False)),
                  np.sin(np.linspace(0, 2 * math.pi, 32, endpoint=False))], axis=1)


def _disc(x: float, y: float, r: float, z0: float, z1: float) -> F64:
    ring = np.column_stack([x + r * _RING[:, 0], y + r * _RING[:, 1]])
    return np.vstack([np.column_stack([ring, np.full(len(ring), z0)]), np.column_stack([ring, np.full(len(ring), z1)])])


def object_points(renderer: Renderer, obj: ObjectState, lift: float) -> F64:
    """Points on the object's surface (table mm, height) whose projection bounds its image."""
    spec = renderer.spec
    if obj.kind == "pin":
        pin = next((p for p in spec.pins if p.id == obj.id), None)
        h = pin.height if pin is not None else 4.0 * obj.radius
        head = 0.82 * obj.radius
        if obj.status is ObjectStatus.ON_TABLE:
            return np.vstack([_disc(obj.x, obj.y, obj.radius, 0.0, PIN_BASE_MM),
                              _SPHERE * head + (obj.x, obj.y, h - head)])
        a = math.radians(obj.angle)
        ux, uy = math.cos(a), math.sin(a)
        hx, hy = obj.x + ux * (h / 2 - head), obj.y + uy * (h / 2 - head)
        bx, by = obj.x - ux * (h / 2 - PIN_BASE_MM / 2), obj.y - uy * (h / 2 - PIN_BASE_MM / 2)
        return np.vstack([_SPHERE * head + (hx, hy, head), _SPHERE * obj.radius + (bx, by, obj.radius)])
    if spec.name == "carrom":
        top = renderer.objects.visible_centre(obj)[2] + lift
        return _disc(obj.x, obj.y, obj.radius, top - 7.5, top)
    zc = renderer.objects.ball_centre_z(obj) + lift
    return _SPHERE * obj.radius + (obj.x, obj.y, zc)


@dataclass(frozen=True)
class Truth:
    cls: str
    box: tuple[float, float, float, float]  # the whole silhouette, image pixels (may leave the frame)
    centre: tuple[float, float]  # where the object's visible centre lands (what a tracker wants)


def drawn_objects(frame: FrameState) -> Iterator[tuple[ObjectState, float]]:
    """The objects the renderer draws in ``frame`` with their lift (mirrors ``Renderer.render``)."""
    held = {h.holding for h in frame.hands if h.holding}
    for obj in frame.objects:
        in_hand = obj.id in held
        visible = obj.status in (ObjectStatus.ON_TABLE, ObjectStatus.FALLEN) or in_hand or (
            obj.status is ObjectStatus.OFF_TABLE and obj.kind != "card")
        if visible:
            yield obj, (HELD_LIFT_MM if in_hand and obj.status is not ObjectStatus.ON_TABLE else 0.0)


def frame_truth(renderer: Renderer, frame: FrameState) -> list[Truth]:
    out = []
    for obj, lift in drawn_objects(frame):
        cls = class_name(renderer.spec.name, obj)
        if cls is None:
            continue
        px = renderer.cam.project(object_points(renderer, obj, lift))
        x0, y0 = px.min(axis=0)
        x1, y1 = px.max(axis=0)
        cx, cy = renderer.cam.project(np.array([renderer.objects.visible_centre(obj)]))[0]
        if lift:
            cx, cy = renderer.cam.project(np.array([[obj.x, obj.y, renderer.objects.visible_centre(obj)[2] + lift]]))[0]
        out.append(Truth(cls, (float(x0), float(y0), float(x1), float(y1)), (float(cx), float(cy))))
    return out


def player_mask(renderer: Renderer, frame: FrameState) -> U8:
    """Pixels covered by the cue, hands and arms: drawn on black and on white, covered where either changed."""
    shapes = []
    if frame.cue is not None:
        shapes += renderer.player.cue_shapes(frame.cue)
    by_id = frame.by_id()
    for h in frame.hands:
        held = by_id.get(h.holding) if h.holding else None
        shapes += renderer.player.hand_shapes(h, held.radius if held is not None else 0.0)
    mask = np.zeros((renderer.cam.height, renderer.cam.width), np.uint8)
    if not shapes:
        return mask
    black = np.zeros((renderer.cam.height, renderer.cam.width, 3), np.uint8)
    white = np.full_like(black, 255)
    draw_shapes(black, shapes, renderer.look, renderer.background.gain)
    draw_shapes(white, shapes, renderer.look, renderer.background.gain)
    covered = (black.max(axis=2) > 0) | (white.min(axis=2) < 255)
    mask[covered] = 255
    return mask


def visible_fraction(t: Truth, occluded: U8) -> float:
    """Share of the object's silhouette (the ellipse in its box) inside the frame and not covered."""
    x0, y0, x1, y1 = t.box
    w, h = max(1.0, x1 - x0), max(1.0, y1 - y0)
    ys, xs = np.mgrid[0:12, 0:12]
    u, v = (xs + 0.5) / 12, (ys + 0.5) / 12
    inside = (u - 0.5) ** 2 + (v - 0.5) ** 2 <= 0.25
    px, py = (x0 + u * w)[inside], (y0 + v * h)[inside]
    rows, cols = occluded.shape
    in_frame = (px >= 0) & (px < cols) & (py >= 0) & (py < rows)
    if in_frame.mean() < MIN_IN_FRAME:
        return 0.0
    hit = occluded[py[in_frame].astype(int), px[in_frame].astype(int)] > 0
    return float(in_frame.mean() * (1.0 - hit.mean()))


def clip_box(box: tuple[float, float, float, float], w: int, h: int) -> tuple[float, float, float, float]:
    return (max(0.0, box[0]), max(0.0, box[1]), min(float(w), box[2]), min(float(h), box[3]))


def yolo_lines(truths: Sequence[Truth], w: int, h: int) -> list[str]:
    lines = []
    for t in truths:
        x0, y0, x1, y1 = clip_box(t.box, w, h)
        if x1 - x0 < 1 or y1 - y0 < 1:
            continue
        c = CLASS_NAMES.index(t.cls)
        lines.append(f"{c} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}")
    return lines


# -- one look: several frames -------------------------------------------------------------------------

@dataclass(frozen=True)
class Sample:
    name: str
    image: U8
    truths: tuple[Truth, ...]
    table: str
    seed: int
    camera: dict[str, Any]
    source: str


def render_look(spec: TableSpec, seed: int, frames: int) -> list[Sample]:
    """``frames`` labelled frames of one installation: a third from a scenario, the rest random layouts.

    Several frames share one look because building a look (the static scene, the noise bank)
    costs ten times a frame; the layouts differ frame to frame."""
    rng = np.random.default_rng([seed, sum(map(ord, spec.name)), 6])
    look = widen_look(random_look(spec, seed, WIDTH, HEIGHT, 30.0), rng)
    renderer = Renderer(spec, look)
    states: list[tuple[str, FrameState]] = []
    from_scenarios, template = scenario_frames(spec, seed, max(1, frames // 3), rng)
    states += [("scenario", f) for f in from_scenarios]
    while len(states) < frames:
        states.append(("random", random_frame(spec, template, rng, len(states))))
    cloth = cloth_polygon(look.camera, spec)
    out = []
    for k, (source, state) in enumerate(states):
        img = renderer.render(state)
        truths = frame_truth(renderer, state)
        occluded = player_mask(renderer, state)
        img, more = add_distractors(img, spec, look, [t.box for t in truths], cloth, rng)
        occluded = np.maximum(occluded, more)
        keep = tuple(t for t in truths if visible_fraction(t, occluded) >= MIN_VISIBLE)
        out.append(Sample(f"{spec.name}-{seed:06d}-{k}", img, keep, spec.name, seed, look.camera.to_json(), source))
    return out


# -- real photos -------------------------------------------------------------------------------------

def read_yolo(path: Path, w: int, h: int) -> list[tuple[int, tuple[float, float, float, float]]]:
    out = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) != 5:
            continue
        c, cx, cy, bw, bh = int(parts[0]), *map(float, parts[1:])
        out.append((c, ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h)))
    return out


def labels_fit(image: U8, boxes: Sequence[tuple[float, float, float, float]]) -> float:
    """Share of ball boxes that sit on something unlike their surroundings (the box follows a ball).

    Some augmented copies in ``pool-balls-real/train`` carry the boxes of another copy (flipped,
    sheared): those boxes sit on plain cloth, where the inside and a ring around look alike.
    """
    if not boxes:
        return 0.0
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    rows, cols = lab.shape[:2]
    fits = []
    for x0, y0, x1, y1 in boxes:
        cx, cy, w, h = (x0 + x1) / 2, (y0 + y1) / 2, max(2.0, x1 - x0), max(2.0, y1 - y0)

        def window(f: float, cx: float = cx, cy: float = cy, w: float = w, h: float = h) -> tuple[int, int, int, int]:
            return (int(max(0, cx - f * w / 2)), int(max(0, cy - f * h / 2)),
                    int(min(cols, cx + f * w / 2 + 1)), int(min(rows, cy + f * h / 2 + 1)))

        a0, b0, a1, b1 = window(0.6)
        inner = lab[b0:b1, a0:a1].reshape(-1, 3)
        o0, p0, o1, p1 = window(2.2)
        ring_mask = np.ones((p1 - p0, o1 - o0), bool)
        i0, j0, i1, j1 = window(1.3)
        ring_mask[j0 - p0:j1 - p0, i0 - o0:i1 - o0] = False
        ring = lab[p0:p1, o0:o1][ring_mask]
        if len(inner) == 0 or len(ring) == 0:
            fits.append(0.0)
            continue
        fits.append(float(np.linalg.norm(np.median(inner, axis=0) - np.median(ring, axis=0)) > 14.0))
    return float(np.mean(fits))


def real_samples(real_dir: Path) -> Iterator[tuple[Path, list[str], float]]:
    """(image, YOLO lines in our classes, label fit) for every real training photo."""
    ball = CLASS_NAMES.index(GENERIC_BALL)
    for img_path in sorted((real_dir / "train" / "images").glob("*.jpg")):
        label = real_dir / "train" / "labels" / f"{img_path.stem}.txt"
        read = cv2.imread(str(img_path))
        if read is None or not label.exists():
            continue
        image = np.asarray(read, dtype=np.uint8)
        h, w = image.shape[:2]
        balls = [b for c, b in read_yolo(label, w, h) if c == 0]
        lines = [f"{ball} {(b[0] + b[2]) / 2 / w:.6f} {(b[1] + b[3]) / 2 / h:.6f} {(b[2] - b[0]) / w:.6f} "
                 f"{(b[3] - b[1]) / h:.6f}" for b in balls]
        yield img_path, lines, labels_fit(image, balls)


# -- writing -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BuildConfig:
    out: Path
    train_looks: int = 90
    val_looks: int = 30
    frames_per_look: int = 8
    val_frames_per_look: int = 4
    real_dir: Path | None = None
    real_repeat: int = 1
    tables: tuple[str, ...] = TABLES
    tile: int = 384  # training tiles' side (0: train on whole frames)
    input_size: int = 768  # the detector's input: long side of a frame or photo at run time

    @property
    def train_scale(self) -> float:
        """Training frames are stored at the scale the detector shrinks a 1280x720 frame to."""
        return self.input_size / WIDTH


def _write_sample(cfg: BuildConfig, split: str, s: Sample, scale: float) -> str:
    """Write one frame's image and labels; returns its line of ``truth/<split>.jsonl``."""
    img = s.image
    if scale != 1.0:
        img = np.asarray(cv2.resize(img, (round(WIDTH * scale), round(HEIGHT * scale)), interpolation=cv2.INTER_AREA),
                         dtype=np.uint8)
    h, w = img.shape[:2]
    quality = 92 if split == "val" else int(70 + (s.seed * 7 + len(s.name)) % 26)
    cv2.imwrite(str(cfg.out / "images" / split / f"{s.name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    scaled = [replace(t, box=tuple(v * scale for v in t.box)) for t in s.truths]  # type: ignore[arg-type]
    (cfg.out / "labels" / split / f"{s.name}.txt").write_text("\n".join(yolo_lines(scaled, w, h)) + "\n")
    return json.dumps({
        "image": f"images/{split}/{s.name}.jpg", "table": s.table, "seed": s.seed, "source": s.source,
        "width": WIDTH, "height": HEIGHT, "stored_scale": scale, "camera": s.camera,
        "objects": [{"cls": t.cls, "box": [round(v, 2) for v in t.box], "centre": [round(v, 2) for v in t.centre]}
                    for t in s.truths],
    }, separators=(",", ":")) + "\n"


@dataclass(frozen=True)
class LookTask:
    """One installation to render and write: what a worker process needs (all of it picklable)."""

    cfg: BuildConfig
    split: str
    table: str
    seed: int
    frames: int
    scale: float


def render_and_write(task: LookTask) -> tuple[list[str], dict[str, int]]:
    """Render one look, write its frames; returns their truth lines and the counts they add."""
    lines: list[str] = []
    counts: dict[str, int] = {}
    for s in render_look(load_table(task.table), task.seed, task.frames):
        lines.append(_write_sample(task.cfg, task.split, s, task.scale))
        counts[task.table] = counts.get(task.table, 0) + 1
        for t in s.truths:
            counts[t.cls] = counts.get(t.cls, 0) + 1
    return lines, counts


def write_data_yaml(cfg: BuildConfig) -> dict[str, int]:
    """Tiles (unless ``cfg.tile`` is 0) and ``data.yaml`` pointing ultralytics at them."""
    counts = {}
    root = "images"
    if cfg.tile:
        frame_scale = cfg.input_size / WIDTH
        for split in ("train", "val"):
            counts[split] = write_tiles(cfg.out, split, cfg.tile, frame_scale, cfg.input_size / 640)
        root = "tiles/images"
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(CLASS_NAMES))
    (cfg.out / "data.yaml").write_text(
        f"# written by scripts/build_dataset.py\npath: {cfg.out.resolve()}\ntrain: {root}/train\nval: {root}/val\n"
        f"names:\n{names}\n")
    return counts


@contextmanager
def _pool(jobs: int) -> Iterator[Callable[[Callable[[LookTask], Any], list[LookTask]], Iterator[Any]]]:
    """An ordered map over ``jobs`` worker processes (``jobs`` 1: in this process). Rendering is
    the whole cost and each look is independent, so a many-core machine (a lent GPU machine has
    16 cores) builds the set in a minute instead of a quarter of an hour."""
    if jobs <= 1:
        yield map
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield lambda fn, items: pool.imap(fn, items)


def build(cfg: BuildConfig, log: Any = print, jobs: int = 1) -> dict[str, Any]:
    """Render and write the whole set; returns the manifest (also written to ``manifest.json``)."""
    for split in ("train", "val"):
        for kind in ("images", "labels"):
            d = cfg.out / kind / split
            if d.exists():
                shutil.rmtree(d)
            d.mkdir(parents=True)
    (cfg.out / "truth").mkdir(parents=True, exist_ok=True)
    counts: dict[str, dict[str, int]] = {"train": {}, "val": {}}
    t0 = time.time()
    plan = [("val", VAL_SEED_BASE, cfg.val_looks, cfg.val_frames_per_look, 1.0),
            ("train", 0, cfg.train_looks, cfg.frames_per_look, cfg.train_scale)]
    for split, base, looks, frames, scale in plan:
        tasks = [LookTask(cfg, split, table, base + i, frames, scale) for table in cfg.tables for i in range(looks)]
        with (cfg.out / "truth" / f"{split}.jsonl").open("w") as truth_file, _pool(jobs) as pool:
            # in order whatever the number of workers: the same arguments give the same files
            for n, (task, (lines, added)) in enumerate(zip(tasks, pool(render_and_write, tasks), strict=True)):
                truth_file.writelines(lines)
                for k, v in added.items():
                    counts[split][k] = counts[split].get(k, 0) + v
                if (n + 1) % 10 == 0 or n + 1 == len(tasks):
                    log(f"{split} {task.table}: {n + 1}/{len(tasks)} looks, {time.time() - t0:.0f} s")
    real_dir = cfg.real_dir
    if real_dir is not None and (real_dir / "train").is_dir():
        kept = dropped = 0
        for img_path, lines, fit in real_samples(real_dir):
            if fit < REAL_MIN_FIT or not lines:
                dropped += 1
                continue
            kept += 1
            for r in range(max(1, cfg.real_repeat)):
                name = f"real-{img_path.stem[:48]}-{r}"
                shutil.copyfile(img_path, cfg.out / "images" / "train" / f"{name}.jpg")
                (cfg.out / "labels" / "train" / f"{name}.txt").write_text("\n".join(lines) + "\n")
        counts["train"]["real_photos"] = kept
        counts["train"]["real_photos_dropped"] = dropped
        log(f"real photos: kept {kept}, dropped {dropped} whose boxes do not sit on balls")
    counts["tiles"] = write_data_yaml(cfg)
    manifest = {
        "train_looks": cfg.train_looks, "val_looks": cfg.val_looks, "frames_per_look": cfg.frames_per_look,
        "val_frames_per_look": cfg.val_frames_per_look, "train_scale": cfg.train_scale,
        "train_seeds": [0, cfg.train_looks - 1], "val_seeds": [VAL_SEED_BASE, VAL_SEED_BASE + cfg.val_looks - 1],
        "tables": list(cfg.tables), "real_dir": str(real_dir) if real_dir else None, "real_repeat": cfg.real_repeat,
        "tile": cfg.tile, "input_size": cfg.input_size,
        "classes": list(CLASS_NAMES), "counts": counts, "seconds": round(time.time() - t0, 1),
    }
    (cfg.out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "detector-data")
    ap.add_argument("--train-looks", type=int, default=BuildConfig.train_looks, help="installations per table")
    ap.add_argument("--val-looks", type=int, default=BuildConfig.val_looks)
    ap.add_argument("--frames-per-look", type=int, default=BuildConfig.frames_per_look)
    ap.add_argument("--val-frames-per-look", type=int, default=BuildConfig.val_frames_per_look)
    ap.add_argument("--real", type=Path, default=default_real_dir(), help="pool-balls-real (its train split is used)")
    ap.add_argument("--no-real", action="store_true")
    ap.add_argument("--real-repeat", type=int, default=BuildConfig.real_repeat, help="copies of each real photo")
    ap.add_argument("--tables", default=",".join(TABLES))
    ap.add_argument("--tile", type=int, default=BuildConfig.tile, help="training tile side in pixels (0: whole frames)")
    ap.add_argument("--input-size", type=int, default=BuildConfig.input_size, help="the detector's input size")
    ap.add_argument("--tiles-only", action="store_true", help="only (re)make the tiles and data.yaml of --out")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes rendering looks (same files for any number)")
    args = ap.parse_args(argv)
    tables = tuple(t for t in args.tables.split(",") if t)
    bad = [t for t in tables if t not in TABLES]
    if bad or args.train_looks < 1 or args.val_looks < 1 or args.frames_per_look < 1 \
            or not 128 <= args.input_size <= WIDTH or args.input_size % 32 or args.tile < 0 or args.jobs < 1:
        print(f"bad arguments: tables must be among {', '.join(TABLES)}, looks and frames >= 1, "
              f"input size a multiple of 32 in [128, {WIDTH}], tile >= 0, jobs >= 1", file=sys.stderr)
        return 2
    real = None if args.no_real else args.real
    if real is not None and not (real / "train").is_dir():
        print(f"no real photos at {real} (pass --real DIR or --no-real)", file=sys.stderr)
        return 2
    cfg = BuildConfig(args.out, args.train_looks, args.val_looks, args.frames_per_look, args.val_frames_per_look,
                      real, args.real_repeat, tables, args.tile, args.input_size)
    if args.tiles_only:
        tiles = write_data_yaml(cfg)
        path = cfg.out / "manifest.json"
        if path.exists():
            manifest = json.loads(path.read_text())
            manifest["counts"]["tiles"] = tiles
            manifest.update({"tile": cfg.tile, "input_size": cfg.input_size})
            path.write_text(json.dumps(manifest, indent=1))
        print(json.dumps(tiles))
        return 0
    manifest = build(cfg, jobs=args.jobs)
    print(json.dumps(manifest["counts"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
