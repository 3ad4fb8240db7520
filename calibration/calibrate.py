"""A camera calibration: build it from one frame, save and load it, and draw it for a venue to check.

The calibration file is the contract between ``tableref calibrate`` and every later stage::

    {"version": 1, "table": "pool", "image_size": [1280, 720], "source": "auto",
     "corners_px": [[x, y] x 4],          # playing-surface corners, clockwise from table (0, 0)
     "plane_z_mm": 0.0, "plane": "cloth", # the plane the homography maps: the cloth (z = 0)
     "homography": 3x3,                   # table mm on that plane -> (undistorted) pixels
     "homography_inv": 3x3,               # pixels -> table mm
     "camera": {"matrix": 3x3, "distortion": [k1, k2, p1, p2, k3] | null,
                "source": "given" | "fitted"} | null,   # --intrinsics, or fitted from the frame
     "features": {"holes": {...}, "pins": {...}, "spots": {...}, "cushions": [...], "d": [...],
                  "baulk": [...], "baselines": {...}, "seats": {...}, "board": [...], ...}}

``features`` holds the table spec's holes, pockets, pins, spots, D, baulk line and baselines
projected into the image (pixels, raw camera coordinates), so that a tablet or an overlay can
draw them without knowing the geometry; they are recomputed from the spec on load, so a file
can never disagree with its own homography.

Why the plane and the camera are written down: the detector works on the plane of the balls'
centres, a ball's radius above the cloth; under a tilted camera that is another homography, which
follows from this one only through the camera (``vision.pipeline.load_calibration`` does the move,
``pose.lift_homography``). The automatic calibration solves the camera anyway (``pose.py``: the
cloth's visible edge is the rail's, above the bed), so it keeps the matrix it fitted.

Why an overlay image: a referee's mistakes start with a calibration a few centimetres off. The
overlay draws every hole, pin, line and the outline over the frame it was made from, so the
person setting up a venue sees at once whether the homography sits on the table.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.homography import (
    FloatArray,
    Intrinsics,
    PlaneMapping,
    Point,
    Quad,
    validate_quad,
)
from tableref.calibration.lens import lens_guess, rescale_k1
from tableref.calibration.pose import EdgeGeometry, Pose, camera_matrix_for, edge_geometry, fit_pose
from tableref.calibration.spec import TableSpec, load_table, spec_from_dict
from tableref.calibration.surface import (
    SurfaceFit,
    check_cloth_kind,
    edge_points,
    find_surface,
    quad_from_lines,
    refine_lines,
)
from tableref.errors import UserError

U8 = NDArray[Any]  # an 8-bit image (cv2's stubs type images loosely)
FORMAT_VERSION = 1
VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v", ".mpg", ".mpeg", ".ts")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


@dataclass(frozen=True)
class Calibration:
    """Pixels <-> table millimetres for one camera and one table (see the module docstring)."""

    table: str
    image_size: tuple[int, int]
    corners_px: Quad
    mapping: PlaneMapping
    source: str = "manual"
    spec: TableSpec = field(default=None, compare=False, repr=False)
    #: The camera matrix when no intrinsics were given: fitted from the picture (square pixels,
    #: principal point at the centre). Lets a later stage move the homography to another plane.
    fitted_matrix: tuple[tuple[float, ...], ...] | None = None
    #: Height above the cloth of the plane ``mapping`` maps (0: the cloth itself).
    plane_z_mm: float = 0.0

    def __post_init__(self) -> None:
        if self.spec is None:
            object.__setattr__(self, "spec", load_table(self.table))

    # -- mapping -----------------------------------------------------------------------------
    def to_table(self, points_px: Sequence[Point] | FloatArray) -> FloatArray:
        return self.mapping.to_table(points_px)

    def to_pixels(self, points_mm: Sequence[Point] | FloatArray) -> FloatArray:
        return self.mapping.to_pixels(points_mm)

    # -- features ----------------------------------------------------------------------------
    def features(self) -> dict[str, Any]:
        """The spec's geometry in image pixels (see the module docstring)."""
        return project_features(self.spec, self.mapping)

    # -- file form ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        h = self.mapping.matrix
        return {
            "version": FORMAT_VERSION,
            "table": self.table,
            "image_size": [int(self.image_size[0]), int(self.image_size[1])],
            "source": self.source,
            "corners_px": [[round(x, 3), round(y, 3)] for x, y in self.corners_px],
            "homography": [[float(v) for v in row] for row in h],
            "homography_inv": [[float(v) for v in row] for row in self.mapping.inverse],
            "plane_z_mm": float(self.plane_z_mm),
            "plane": "cloth" if self.plane_z_mm == 0 else f"{self.plane_z_mm:g} mm above the cloth",
            "camera": self._camera_json(),
            "features": self.features(),
            "table_spec": self.spec.to_dict(),
        }

    def _camera_json(self) -> dict[str, Any] | None:
        """The lens: given (``--intrinsics``), or fitted from the picture (matrix, and the radial
        distortion when the edges showed one), or unknown (``None``)."""
        cam = self.mapping.camera
        if self.fitted_matrix is not None:
            dist = list(cam.distortion) if cam is not None else None
            return {"matrix": [list(row) for row in self.fitted_matrix], "distortion": dist, "source": "fitted"}
        if cam is not None:
            return {"matrix": [list(row) for row in cam.matrix], "distortion": list(cam.distortion), "source": "given"}
        return None

    @staticmethod
    def from_json(data: dict[str, Any], origin: str = "calibration") -> Calibration:
        try:
            if int(data.get("version", 0)) != FORMAT_VERSION:
                raise UserError(f"{origin}: unsupported calibration version {data.get('version')!r} (expected {FORMAT_VERSION})")
            table = str(data["table"])
            spec = spec_from_dict(data["table_spec"]) if isinstance(data.get("table_spec"), dict) else load_table(table)
            size = (int(data["image_size"][0]), int(data["image_size"][1]))
            corners = tuple((float(p[0]), float(p[1])) for p in data["corners_px"])
            cam = None
            fitted = None
            camera = data.get("camera") or {}
            if camera.get("matrix") is not None and camera.get("source") == "fitted":
                fitted = Intrinsics.from_arrays(camera["matrix"], [0, 0, 0, 0]).matrix
                if camera.get("distortion") is not None and any(float(v) for v in camera["distortion"]):
                    cam = Intrinsics.from_arrays(camera["matrix"], camera["distortion"])
            elif camera.get("matrix") is not None:
                cam = Intrinsics.from_arrays(camera["matrix"], camera.get("distortion") or [0, 0, 0, 0])
            plane_z = float(data.get("plane_z_mm", 0.0))
            h = np.asarray(data["homography"], dtype=np.float64)
            if h.shape != (3, 3) or not np.all(np.isfinite(h)):
                raise ValueError("homography must be a finite 3x3 matrix")
        except UserError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise UserError(f"{origin} is not a valid calibration file ({exc}); make one with `tableref calibrate`") from None
        if len(corners) != 4:
            raise UserError(f"{origin}: corners_px must hold four points")
        mapping = PlaneMapping(h=tuple(tuple(float(v) for v in row) for row in h), camera=cam)
        quad = (corners[0], corners[1], corners[2], corners[3])
        return Calibration(table, size, quad, mapping, str(data.get("source", "manual")), spec, fitted, plane_z)

    def save(self, path: str | Path) -> None:
        p = Path(path)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"cannot write the calibration file {str(p)!r}: {exc.strerror}") from None

    @staticmethod
    def load(path: str | Path) -> Calibration:
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise UserError(f"cannot read the calibration file {str(p)!r}: {exc.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UserError(f"calibration file {str(p)!r} is not valid JSON ({exc.msg}); make one with `tableref calibrate`") from None
        if not isinstance(data, dict):
            raise UserError(f"calibration file {str(p)!r} is not a JSON object; make one with `tableref calibrate`")
        return Calibration.from_json(data, origin=f"calibration file {str(p)!r}")


# -- projecting the spec -----------------------------------------------------------------------

def _arc(cx: float, cy: float, r: float, a0: float, a1: float, n: int = 48) -> FloatArray:
    t = np.linspace(a0, a1, n)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


def _pts(a: FloatArray) -> list[list[float]]:
    return [[round(float(x), 2), round(float(y), 2)] for x, y in a]


def _px_radius(mapping: PlaneMapping, x: float, y: float, r: float) -> float:
    return round(r * mapping.scale_at((x, y)), 2)


def project_features(spec: TableSpec, mapping: PlaneMapping) -> dict[str, Any]:
    """Holes, pockets, pins, spots, cushions, D, baulk, baselines, seats in image pixels."""
    to_px = mapping.to_pixels
    out: dict[str, Any] = {}
    if spec.holes:
        centres = to_px([(h.x, h.y) for h in spec.holes])
        out["holes"] = {
            h.id: {"x": round(float(c[0]), 2), "y": round(float(c[1]), 2),
                   "radius": _px_radius(mapping, h.x, h.y, h.radius), "value": h.value}
            for h, c in zip(spec.holes, centres, strict=True)
        }
    if spec.pins:
        centres = to_px([(p.x, p.y) for p in spec.pins])
        out["pins"] = {
            p.id: {"x": round(float(c[0]), 2), "y": round(float(c[1]), 2),
                   "radius": _px_radius(mapping, p.x, p.y, p.radius), "colour": p.colour}
            for p, c in zip(spec.pins, centres, strict=True)
        }
    if spec.spots:
        centres = to_px(list(spec.spots.values()))
        out["spots"] = {k: [round(float(c[0]), 2), round(float(c[1]), 2)] for k, c in zip(spec.spots, centres, strict=True)}
    if spec.cushions:
        out["cushions"] = [
            {"id": c.id, "line": _pts(to_px(np.linspace(c.a, c.b, 12)))} for c in spec.cushions
        ]
    out["outline"] = _pts(to_px(np.array(spec.corners)))
    if spec.d_centre is not None and spec.d_radius is not None:
        cx, cy = spec.d_centre
        out["d"] = _pts(to_px(_arc(cx, cy, spec.d_radius, math.pi / 2, 3 * math.pi / 2)))
    if spec.baulk_x is not None:
        out["baulk"] = _pts(to_px(np.array([(spec.baulk_x, 0.0), (spec.baulk_x, spec.width_mm)])))
    if spec.centre_circle_radius is not None and "centre" in spec.spots:
        cx, cy = spec.spots["centre"]
        out["centre_circle"] = _pts(to_px(_arc(cx, cy, spec.centre_circle_radius, 0, 2 * math.pi, 64)))
    if spec.baselines:
        out["baselines"] = {
            b.id: {"front": _pts(to_px(np.linspace(b.front[0], b.front[1], 12))),
                   "back": _pts(to_px(np.linspace(b.back[0], b.back[1], 12)))}
            for b in spec.baselines
        }
    if spec.seats:
        out["seats"] = {
            s.id: {"position": _pts(to_px(np.array([s.position])))[0],
                   "play_spot": _pts(to_px(np.array([s.play_spot])))[0]}
            for s in spec.seats
        }
    if spec.board is not None:
        (x0, y0), (x1, y1) = spec.board
        out["board"] = _pts(to_px(np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])))
    return out


# -- building ----------------------------------------------------------------------------------

def check_table_kind(spec: TableSpec, fit: SurfaceFit) -> None:
    """Refuse a found surface that cannot be ``spec``'s kind of table (``--table`` is wrong).

    Two tests: the surface's look (a carrom board is light lacquered wood, the others are cloth),
    and its outline (a square table cannot look nearly twice as long as wide).
    """
    check_cloth_kind(spec.name, fit.cloth)
    q = fit.corners
    along = math.dist(q[0], q[1]) + math.dist(q[2], q[3])
    across = math.dist(q[1], q[2]) + math.dist(q[3], q[0])
    seen = max(along, across) / max(1e-6, min(along, across))
    want = spec.length_mm / spec.width_mm
    if want < 1.2 and seen > 1.75:
        raise UserError(
            f"the table found is {seen:.1f} times as long as wide, but a {spec.name} table is square; check --table"
        )
    # (the converse is not refused: a long table filmed from one end, beyond the supported tilt,
    # can look square, and refusing a real pool table would be worse than accepting it)


def _abc(line: FloatArray) -> FloatArray:
    """A line ``(vx, vy, x0, y0)`` as ``(a, b, c)`` with ``a x + b y + c = 0`` and ``a^2 + b^2 = 1``."""
    vx, vy, x0, y0 = (float(v) for v in line)
    n = math.hypot(vx, vy)
    a, b = vy / n, -vx / n
    return np.array([a, b, -(a * x0 + b * y0)])


def _through(p: Point, q: Point) -> FloatArray:
    return _abc(np.array([q[0] - p[0], q[1] - p[1], p[0], p[1]]))


def auto_pose(image: U8, spec: TableSpec, intrinsics: Intrinsics | None = None,
              edge: EdgeGeometry | None = None) -> tuple[Pose, Intrinsics | None]:
    """Find the table and solve the camera from the cloth's visible edges (see ``pose.py``).

    Returns the pose (undistorted pixels) and the lens: ``intrinsics`` when given; otherwise the
    fitted camera matrix with the radial distortion the edges' curvature shows (``lens.py``), or
    ``None`` when the edges are straight.
    """
    rows, cols = image.shape[:2]
    aspect = spec.length_mm / spec.width_mm
    work = image
    lens: Intrinsics | None = intrinsics
    guess: Intrinsics | None = None
    if intrinsics is not None:
        work = cv2.undistort(image, intrinsics.k, intrinsics.d)
    fit = find_surface(work, aspect=aspect, table=spec.name, allow_grey=True)
    check_table_kind(spec, fit)
    if intrinsics is None:
        guess = lens_guess(edge_points(image, fit), (cols, rows))
        if guess is not None:
            try:
                work = cv2.undistort(image, guess.k, guess.d)
                fit = find_surface(work, aspect=aspect, table=spec.name, allow_grey=True)
            except UserError:  # the straightened picture lost the table: keep the raw one
                work, guess = image, None
    lines = refine_lines(work, fit)
    quad = quad_from_lines(lines, fit.corners, 0.05 * math.hypot(rows, cols))
    abc = [_abc(ln) if ln is not None else _through(quad[i], quad[(i + 1) % 4]) for i, ln in enumerate(lines)]
    edge = edge if edge is not None else edge_geometry(spec.name)
    pose = fit_pose(abc, np.asarray(quad, dtype=np.float64), spec.length_mm, spec.width_mm, edge, (cols, rows),
                    intrinsics.k if intrinsics is not None else None)
    if guess is not None:
        k1 = rescale_k1(float(guess.d[0]), float(guess.k[0, 0]), float(pose.K[0, 0]))
        lens = Intrinsics.from_arrays(pose.K, [k1, 0.0, 0.0, 0.0, 0.0])
    return pose, lens


def auto_corners(image: U8, spec: TableSpec, intrinsics: Intrinsics | None = None,
                 edge: EdgeGeometry | None = None) -> tuple[PlaneMapping, Quad, FloatArray]:
    """Find the table and fit the cloth-plane mapping; returns it, the playing-surface corners in
    raw pixels and the camera matrix (the given one, or the fitted one). The mapping's lens is the
    given one, or the fitted one when the edges showed distortion."""
    pose, lens = auto_pose(image, spec, intrinsics, edge)
    h = pose.homography(0.0)
    mapping = PlaneMapping(h=tuple(tuple(float(v) for v in row) for row in h), camera=lens)
    corners = mapping.to_pixels(np.array(spec.corners))
    quad = tuple((float(x), float(y)) for x, y in corners)
    return mapping, (quad[0], quad[1], quad[2], quad[3]), pose.K


def build_calibration(
    image: U8,
    table: str,
    corners: Sequence[Point] | None = None,
    intrinsics: Intrinsics | None = None,
    venue: str | Path | None = None,
) -> Calibration:
    """A calibration from one BGR frame: manual ``corners`` (validated) or found automatically."""
    if image is None or not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
        raise UserError("calibration needs a colour image")
    spec = load_table(table, venue=venue)
    rows, cols = image.shape[:2]
    if corners is not None:
        quad = validate_quad(corners, (cols, rows), aspect=spec.length_mm / spec.width_mm, what="--corners")
        mapping = PlaneMapping.from_corners(quad, spec.length_mm, spec.width_mm, intrinsics)
        fitted = None if intrinsics is not None else _matrix(camera_matrix_for(mapping.matrix, (cols, rows)))
        return Calibration(table, (cols, rows), quad, mapping, "manual", spec, fitted)
    edge = venue_edge(venue)
    mapping, quad, k = auto_corners(image, spec, intrinsics, edge_geometry(spec.name, edge) if edge else None)
    validate_quad(quad, (cols, rows), what="the table found")
    return Calibration(table, (cols, rows), quad, mapping, "auto", spec, None if intrinsics is not None else _matrix(k))


def _matrix(k: FloatArray) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(float(v) for v in row) for row in k)


def venue_edge(venue: str | Path | None) -> dict[str, Any] | None:
    """A venue table file's ``cloth_edge`` (``margin_mm``, ``height_mm``, ``wall``), if it has one."""
    if venue is None:
        return None
    try:
        data = json.loads(Path(venue).read_text("utf-8"))
    except (OSError, json.JSONDecodeError):
        return None  # load_table has already said what is wrong with the file
    edge = data.get("cloth_edge") if isinstance(data, dict) else None
    if edge is not None and not isinstance(edge, dict):
        raise UserError("the venue file's 'cloth_edge' must be an object: {\"margin_mm\": .., \"height_mm\": .., \"wall\": ..}")
    return edge


# -- reading sources ---------------------------------------------------------------------------

def read_image(path: str | Path) -> U8:
    """A BGR image from a file, or ``UserError`` saying why not."""
    p = Path(path)
    if not p.exists():
        raise UserError(f"no such file: {str(p)!r}")
    if p.is_dir():
        raise UserError(f"{str(p)!r} is a folder, not an image")
    data = np.fromfile(str(p), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise UserError(
            f"cannot read {str(p)!r} as an image (accepted: {', '.join(s.lstrip('.') for s in IMAGE_SUFFIXES)})"
        )
    return np.asarray(image, dtype=np.uint8)


def _looks_blank(frame: U8) -> bool:
    return float(frame.std()) < 4.0


def read_frames(path: str | Path, limit: int = 300, step: int = 5) -> list[U8]:
    """Up to ``limit // step`` frames from the start of a video (every ``step``-th), skipping blank ones."""
    p = Path(path)
    if not p.exists():
        raise UserError(f"no such file: {str(p)!r}")
    cap = cv2.VideoCapture(str(p))
    frames: list[U8] = []
    try:
        if not cap.isOpened():
            raise UserError(f"cannot open {str(p)!r} as a video (accepted: {', '.join(s.lstrip('.') for s in VIDEO_SUFFIXES)})")
        for i in range(limit):
            ok, frame = cap.read()
            if not ok or frame is None:
                break
            if i % step == 0 and not _looks_blank(frame):
                frames.append(frame)
    finally:
        cap.release()
    if not frames:
        raise UserError(f"{str(p)!r} has no readable, non-blank frame in its first {limit} frames")
    return frames


def calibrate_source(
    source: str | Path,
    table: str,
    corners: Sequence[Point] | None = None,
    intrinsics: Intrinsics | None = None,
) -> tuple[Calibration, U8]:
    """Calibrate from an image, or from a video's first good frame; returns the frame used too."""
    p = Path(source)
    if p.suffix.lower() in VIDEO_SUFFIXES:
        frames = read_frames(p)
        last: UserError | None = None
        for frame in frames:
            try:
                return build_calibration(frame, table, corners, intrinsics), frame
            except UserError as exc:
                if corners is not None:
                    raise
                last = exc
        assert last is not None
        raise UserError(f"{last} (tried {len(frames)} frames from the start of the video)")
    image = read_image(p)
    return build_calibration(image, table, corners, intrinsics), image


# -- overlay -----------------------------------------------------------------------------------

def _poly(img: U8, pts: Sequence[Sequence[float]], colour: tuple[int, int, int], closed: bool = False, thick: int = 1) -> None:
    arr = np.round(np.asarray(pts, dtype=np.float64) * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(img, [arr], closed, colour, thick, cv2.LINE_AA, shift=4)


def _circle(img: U8, x: float, y: float, r: float, colour: tuple[int, int, int], thick: int = 1) -> None:
    cv2.circle(img, (round(x * 16), round(y * 16)), max(16, round(r * 16)), colour, thick, cv2.LINE_AA, shift=4)


def draw_overlay(image: U8, cal: Calibration) -> U8:
    """A copy of ``image`` with the calibration drawn on it (the input is not changed)."""
    out = image.copy()
    spec = cal.spec
    scale = max(1, round(max(out.shape[:2]) / 900))
    grid = (90, 90, 90)
    step = 250.0 if spec.length_mm > 1500 else 100.0
    for x in np.arange(step, spec.length_mm, step):
        _poly(out, cal.to_pixels(np.linspace((x, 0.0), (x, spec.width_mm), 16)), grid)
    for y in np.arange(step, spec.width_mm, step):
        _poly(out, cal.to_pixels(np.linspace((0.0, y), (spec.length_mm, y), 24)), grid)
    f = cal.features()
    edge = np.concatenate([np.linspace(a, b, 24) for a, b in zip(spec.corners, spec.corners[1:] + spec.corners[:1], strict=True)])
    _poly(out, cal.to_pixels(edge), (0, 255, 255), closed=True, thick=scale)
    for c in f.get("cushions", []):
        _poly(out, c["line"], (255, 200, 0), thick=scale)
    for hid, h in f.get("holes", {}).items():
        _circle(out, h["x"], h["y"], h["radius"], (0, 0, 255), scale)
        label = str(h["value"]) if h.get("value") else hid.replace("pocket-", "")
        cv2.putText(out, label, (round(h["x"] + h["radius"]), round(h["y"] - h["radius"])),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.35 * scale, (0, 0, 255), 1, cv2.LINE_AA)
    for pid, p in f.get("pins", {}).items():
        _circle(out, p["x"], p["y"], p["radius"], (255, 0, 255), scale)
        cv2.putText(out, pid, (round(p["x"] + 4), round(p["y"] + 12 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.3 * scale, (255, 0, 255), 1, cv2.LINE_AA)
    for key in ("d", "baulk", "centre_circle"):
        if key in f:
            _poly(out, f[key], (255, 255, 255), thick=scale)
    for b in f.get("baselines", {}).values():
        _poly(out, b["front"], (255, 255, 255), thick=scale)
        _poly(out, b["back"], (255, 255, 255), thick=scale)
    if "board" in f:
        _poly(out, f["board"], (255, 255, 255), closed=True, thick=scale)
    for s in f.get("seats", {}).values():
        _circle(out, s["play_spot"][0], s["play_spot"][1], 4, (255, 255, 255), scale)
    for name, (x, y) in f.get("spots", {}).items():
        _circle(out, x, y, 3, (0, 255, 0), -1)
        cv2.putText(out, name, (round(x + 5), round(y - 5)), cv2.FONT_HERSHEY_SIMPLEX, 0.3 * scale, (0, 255, 0), 1, cv2.LINE_AA)
    x0, y0 = cal.corners_px[0]
    cv2.putText(out, "(0,0)", (round(x0) + 4, round(y0) + 14 * scale), cv2.FONT_HERSHEY_SIMPLEX, 0.45 * scale,
                (0, 255, 255), 1, cv2.LINE_AA)
    return out


def overlay_path(out: str | Path) -> Path:
    """Where ``tableref calibrate --out cal.json`` puts its overlay: ``cal.overlay.png`` beside it."""
    p = Path(out)
    return p.with_name(p.stem + ".overlay.png")
