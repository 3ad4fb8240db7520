"""The static scene of a clip, rendered once: floor, table body, cloth, cushions, rails, holes, markings.

Everything that does not move is drawn here once per clip and reused for every frame, which is
what makes 60 rendered frames a second possible on one core. Surfaces are drawn in 3D through the
camera: the cloth is a texture in table millimetres warped through the homography of the plane
z = 0, the rails through the plane of their top, cushion faces and the table's sides as projected
polygons, so a tilted camera sees the far cushion's face, the near rail hiding a strip of cloth,
and the wall inside a bar-billiards hole, as a real one does.

Lighting is physical enough to matter to a detector: irradiance from each lamp falls off with
distance and angle (:func:`irradiance`), so the cloth is brighter under the lamps and the corners
darker; the same function shades the balls, so a ball in a dark corner is darker too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.camera import CameraModel
from tableref.calibration.spec import TableSpec
from tableref.simulator.render_look import BGR, Furniture, Light, Look

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

_SHIFT = 4
_ONE = 1 << _SHIFT
FLOOR_DEPTH_MM = 780.0
APRON_MM = 170.0


@dataclass(frozen=True)
class Background:
    """The rendered static scene (distorted like the lens, lit, white-balanced) and the exposure.

    ``gain`` turns irradiance times albedo into pixel values: sprites use it so a ball is exactly
    as bright as the cloth around it would make it.
    """

    image: U8
    gain: float
    cloth_bgr: BGR


def cone_factor(light: Light, pts: F64) -> F64:
    """How much of a lamp reaches each point through its shade (1 inside the cone, 0 outside, soft edge)."""
    pts = np.asarray(pts, dtype=np.float64).reshape(-1, 3)
    d = np.array([light.x, light.y, light.z]) - pts
    ang = np.degrees(np.arctan2(np.hypot(d[:, 0], d[:, 1]), np.maximum(d[:, 2], 1e-6)))
    t = np.clip((light.cone_deg - ang) / 12.0, 0.0, 1.0)
    return np.asarray(t * t * (3 - 2 * t), dtype=np.float64)


def irradiance(look: Look, pts: F64, normals: F64 | None = None) -> F64:
    """Light falling on surface points (N, 3: x, y, height mm) with unit normals (N, 3, z up).

    Each lamp gives ``intensity * (h / d)^2 * max(0, n.l)``, where ``h`` is its height over the
    cloth (so the cloth right under a lamp gets its full intensity); ``look.ambient`` is added.
    """
    pts = np.asarray(pts, dtype=np.float64).reshape(-1, 3)
    if normals is None:
        normals = np.zeros_like(pts)
        normals[:, 2] = 1.0
    total = np.full(len(pts), look.ambient)
    for light in look.lights:
        d = np.array([light.x, light.y, light.z]) - pts
        dist = np.linalg.norm(d, axis=1)
        cosang = np.maximum(0.0, np.einsum("ij,ij->i", d, normals) / np.maximum(dist, 1e-6))
        total += light.intensity * (light.z / np.maximum(dist, 1.0)) ** 2 * cosang * cone_factor(light, pts)
    return total


def _fixed(px: F64) -> NDArray[np.int32]:
    return np.round(np.asarray(px) * _ONE).astype(np.int32).reshape(-1, 1, 2)


def _fill3d(img: U8, cam: CameraModel, pts: list[tuple[float, float, float]] | F64, colour: BGR) -> None:
    px = cam.project_undistorted(np.asarray(pts, dtype=np.float64))
    cv2.fillPoly(img, [_fixed(px)], colour, cv2.LINE_AA, _SHIFT)


def _circle3d(x: float, y: float, r: float, z: float, n: int = 56) -> F64:
    a = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
    return np.stack([x + r * np.cos(a), y + r * np.sin(a), np.full(n, z)], axis=1)


def _shade(c: BGR, f: float) -> BGR:
    return (min(255, round(c[0] * f)), min(255, round(c[1] * f)), min(255, round(c[2] * f)))


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cell: int) -> F32:
    """Low-frequency noise in [-1, 1] (bicubic upsampling of a coarse random grid)."""
    h, w = shape
    small = rng.uniform(-1, 1, (max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(big, -1.0, 1.0)


# -- textures in table millimetres --------------------------------------------------------------
class _Canvas:
    """A top-down texture over the table-space rectangle ``box`` at ``scale`` pixels per mm."""

    def __init__(self, box: tuple[float, float, float, float], scale: float, colour: BGR) -> None:
        self.x0, self.y0, x1, y1 = box
        self.scale = scale
        w, h = int(math.ceil((x1 - self.x0) * scale)) + 1, int(math.ceil((y1 - self.y0) * scale)) + 1
        self.img: U8 = np.empty((h, w, 3), np.uint8)
        self.img[:] = colour

    def px(self, pts: F64 | list[tuple[float, float]]) -> NDArray[np.int32]:
        p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        return _fixed(np.stack([(p[:, 0] - self.x0) * self.scale, (p[:, 1] - self.y0) * self.scale], axis=1))

    def line(self, a: tuple[float, float], b: tuple[float, float], colour: BGR, width_mm: float) -> None:
        pa, pb = self.px([a]).reshape(2), self.px([b]).reshape(2)
        th = max(1, round(width_mm * self.scale))
        cv2.line(self.img, (int(pa[0]), int(pa[1])), (int(pb[0]), int(pb[1])), colour, th, cv2.LINE_AA, _SHIFT)

    def circle(self, c: tuple[float, float], r_mm: float, colour: BGR, width_mm: float | None = None) -> None:
        pc = self.px([c]).reshape(2)
        th = -1 if width_mm is None else max(1, round(width_mm * self.scale))
        cv2.circle(self.img, (int(pc[0]), int(pc[1])), round(r_mm * self.scale * _ONE), colour, th, cv2.LINE_AA,
                   _SHIFT)

    def arc(self, c: tuple[float, float], r_mm: float, a0: float, a1: float, colour: BGR, width_mm: float) -> None:
        a = np.linspace(math.radians(a0), math.radians(a1), 64)
        pts = np.stack([c[0] + r_mm * np.cos(a), c[1] + r_mm * np.sin(a)], axis=1)
        th = max(1, round(width_mm * self.scale))
        cv2.polylines(self.img, [self.px(pts)], False, colour, th, cv2.LINE_AA, _SHIFT)

    def to_image(self, cam: CameraModel, z: float) -> U8:
        A = np.array([[1.0 / self.scale, 0.0, self.x0], [0.0, 1.0 / self.scale, self.y0], [0.0, 0.0, 1.0]])
        H = cam.homography(z) @ A
        out = cv2.warpPerspective(self.img, H, (cam.width, cam.height), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
        return np.asarray(out, dtype=np.uint8)


def _texture_scale(spec: TableSpec, cam: CameraModel) -> float:
    """Canvas resolution: a little finer than the finest the camera sees the cloth."""
    pts = np.array([[0, 0, 0], [spec.length_mm, 0, 0], [0, spec.width_mm, 0], [spec.length_mm, spec.width_mm, 0]])
    depth = float(cam.depth(pts).min())
    return float(np.clip(1.3 * cam.fx / depth, 0.4, 2.5))


def _felt(canvas: _Canvas, look: Look, rng: np.random.Generator) -> None:
    """Cloth: fine grain along the nap, slow mottling, a little wear."""
    h, w = canvas.img.shape[:2]
    grain = rng.normal(0.0, 1.0, (h, w)).astype(np.float32)
    grain = cv2.blur(grain, (5, 1)) * 0.6 + grain * 0.4
    mottle = _smooth_noise(rng, (h, w), max(8, int(180 * canvas.scale)))
    f = 1.0 + grain * (0.035 * look.cloth_grain) + mottle * (0.05 * look.cloth_mottle)
    canvas.img[:] = np.clip(canvas.img.astype(np.float32) * f[..., None], 0, 255).astype(np.uint8)


def _wood(canvas: _Canvas, base: BGR, rng: np.random.Generator, along_x: bool = True, amount: float = 1.0) -> None:
    h, w = canvas.img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    warp = _smooth_noise(rng, (h, w), max(8, int(120 * canvas.scale))) * 18.0 * canvas.scale
    coord = (yy if along_x else xx) + warp
    period = float(rng.uniform(6.0, 11.0)) * canvas.scale
    rings = np.sin(coord * (2 * math.pi / period)) * 0.5 + 0.5
    fine = rng.normal(0.0, 1.0, (h, w)).astype(np.float32)
    fine = np.asarray(cv2.blur(fine, (9, 1) if along_x else (1, 9)), dtype=np.float32)
    f = 1.0 + amount * (0.09 * rings ** 3 - 0.045 + 0.05 * fine)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    canvas.img[:] = np.clip(img * f[..., None], 0, 255).astype(np.uint8)


# -- markings ------------------------------------------------------------------------------------
def _markings(spec: TableSpec, canvas: _Canvas, look: Look, rng: np.random.Generator) -> None:
    white: BGR = _shade((235, 238, 240), 1.0)
    if spec.name == "bar-billiards" and spec.baulk_x is not None:
        canvas.line((spec.baulk_x, 0.0), (spec.baulk_x, spec.width_mm), white, 3.0)
        if spec.d_centre is not None and spec.d_radius is not None:
            canvas.arc(spec.d_centre, spec.d_radius, 90.0, 270.0, white, 3.0)
        for p in spec.spots.values():
            canvas.circle(p, 4.0, white)
    elif spec.name == "pool":
        dot: BGR = white if rng.random() < 0.5 else (25, 25, 25)
        for p in spec.spots.values():
            canvas.circle(p, 5.0, dot)
        if spec.baulk_x is not None and rng.random() < 0.4:
            canvas.line((spec.baulk_x, 0.0), (spec.baulk_x, spec.width_mm), _shade(look.cloth_bgr, 1.35), 2.0)
    elif spec.name == "carrom":
        ink: BGR = (20, 20, 25)
        red: BGR = (35, 30, 175)
        for b in spec.baselines:
            canvas.line(b.front[0], b.front[1], ink, 1.6)
            canvas.line(b.back[0], b.back[1], ink, 1.6)
            for end in (0, 1):
                c = ((b.front[end][0] + b.back[end][0]) / 2, (b.front[end][1] + b.back[end][1]) / 2)
                canvas.circle(c, b.circle_radius, red)
                canvas.circle(c, b.circle_radius, ink, 1.4)
        cx, cy = spec.spots.get("centre", (spec.length_mm / 2, spec.width_mm / 2))
        if spec.centre_circle_radius:
            canvas.circle((cx, cy), spec.centre_circle_radius, ink, 1.6)
            canvas.circle((cx, cy), spec.centre_circle_radius - 5.0, ink, 1.0)
        canvas.circle((cx, cy), 15.9, red)
        canvas.circle((cx, cy), 15.9, ink, 1.2)
        for hole in spec.holes:
            dx, dy = np.sign(cx - hole.x), np.sign(cy - hole.y)
            u = (dx / math.sqrt(2), dy / math.sqrt(2))
            s0 = hole.radius + 50.0
            a = (hole.x + u[0] * s0, hole.y + u[1] * s0)
            b = (hole.x + u[0] * (s0 + 267.0), hole.y + u[1] * (s0 + 267.0))
            canvas.line(a, b, ink, 1.4)
            for side in (-1.0, 1.0):
                head = (a[0] + u[0] * 14 + side * u[1] * 7, a[1] + u[1] * 14 - side * u[0] * 7)
                canvas.line(a, head, ink, 1.4)
            ang = math.degrees(math.atan2(u[1], u[0]))
            canvas.arc((b[0] - u[0] * 32, b[1] - u[1] * 32), 32.0, ang - 140, ang + 140, ink, 1.4)


# -- the 3D table --------------------------------------------------------------------------------
def _draw_apron(img: U8, cam: CameraModel, spec: TableSpec, furn: Furniture) -> None:
    x0, y0, x1, y1 = furn.outer(spec)
    zt, zb = furn.rail_height_mm, furn.rail_height_mm - APRON_MM
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    pos = cam.position
    faces = []
    for i in range(4):
        (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 4]
        mid = np.array([(ax + bx) / 2, (ay + by) / 2])
        quad = [(ax, ay, zt), (bx, by, zt), (bx, by, zb), (ax, ay, zb)]
        faces.append((float(np.linalg.norm(mid - pos[:2])), i, quad))
    for _, i, quad in sorted(faces, reverse=True):
        _fill3d(img, cam, quad, _shade(furn.apron_bgr, 0.8 + 0.1 * (i % 2)))


def _cushion_quads(spec: TableSpec, furn: Furniture) -> list[tuple[F64, F64, bool]]:
    """(face, top, is_scoreboard) for each cushion: the sloping face and the top to the rail."""
    out = []
    cxm, cym = spec.length_mm / 2, spec.width_mm / 2
    corner_pockets = [(h.x, h.y) for h in spec.holes if h.id.startswith("pocket-") and "middle" not in h.id]
    for c in spec.cushions:
        a, b = np.array(c.a), np.array(c.b)
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 1e-6:
            continue
        d /= length
        n = np.array([-d[1], d[0]])
        mid = (a + b) / 2
        if np.dot(n, mid - np.array([cxm, cym])) < 0:
            n = -n  # outwards
        w = furn.cushion_mm

        def ext(p: F64, sign: float, d: F64 = d, w: float = w) -> F64:
            near_corner = any(np.hypot(p[0] - q[0], p[1] - q[1]) < 160 for q in corner_pockets)
            return p + sign * d * w * (0.9 if near_corner else (0.25 if spec.holes and spec.name == "pool" else 1.0))

        nh = furn.nose_height_mm
        a_b, b_b = a + n * min(12.0, w * 0.25), b + n * min(12.0, w * 0.25)
        face = np.array([[a[0], a[1], nh], [b[0], b[1], nh], [b_b[0], b_b[1], 0.0], [a_b[0], a_b[1], 0.0]])
        a_o, b_o = ext(a, -1.0) + n * w, ext(b, 1.0) + n * w
        top = np.array([[a[0], a[1], nh], [b[0], b[1], nh], [b_o[0], b_o[1], furn.rail_height_mm],
                        [a_o[0], a_o[1], furn.rail_height_mm]])
        out.append((face, top, c.id == "scoreboard"))
    return out


def _draw_holes(img: U8, cam: CameraModel, spec: TableSpec, look: Look) -> None:
    """Holes and pockets: the dark shaft with its far wall lit, cut through cushions and rails."""
    furn = look.furniture
    for hole in spec.holes:
        through_rail = spec.name == "pool"
        top_z = furn.rail_height_mm if through_rail else 0.0
        rim = _circle3d(hole.x, hole.y, hole.radius, top_z)
        rim0 = _circle3d(hole.x, hole.y, hole.radius, 0.0)
        deep = _circle3d(hole.x, hole.y, hole.radius * 0.95, -90.0)
        px_rim = cam.project_undistorted(np.vstack([rim, rim0]))
        px_deep = cam.project_undistorted(deep)
        x_lo = int(max(0, math.floor(min(px_rim[:, 0].min(), px_deep[:, 0].min())) - 2))
        y_lo = int(max(0, math.floor(min(px_rim[:, 1].min(), px_deep[:, 1].min())) - 2))
        x_hi = int(min(cam.width, math.ceil(max(px_rim[:, 0].max(), px_deep[:, 0].max())) + 3))
        y_hi = int(min(cam.height, math.ceil(max(px_rim[:, 1].max(), px_deep[:, 1].max())) + 3))
        if x_hi <= x_lo or y_hi <= y_lo:
            continue
        roi = img[y_lo:y_hi, x_lo:x_hi]
        off = np.array([x_lo, y_lo], dtype=np.float64)
        mouth = np.zeros(roi.shape[:2], np.uint8)
        hull = cv2.convexHull(np.round((px_rim - off) * _ONE).astype(np.int32))
        cv2.fillPoly(mouth, [hull], 255, cv2.LINE_AA, _SHIFT)
        bottom = np.zeros_like(mouth)
        cv2.fillPoly(bottom, [_fixed(px_deep - off)], 255, cv2.LINE_AA, _SHIFT)
        bottom = np.minimum(bottom, mouth)
        wall_col = np.array(_shade(furn.rail_bgr if through_rail else look.cloth_bgr, 0.22), np.float32)
        a_m = mouth.astype(np.float32)[..., None] / 255.0
        a_b = bottom.astype(np.float32)[..., None] / 255.0
        out = roi.astype(np.float32) * (1 - a_m) + wall_col * a_m
        out = out * (1 - a_b) + np.array((8, 8, 9), np.float32) * a_b
        roi[:] = np.clip(out, 0, 255).astype(np.uint8)
        if through_rail:
            # the pocket liner's lip on the rail
            lip = cam.project_undistorted(rim)
            cv2.polylines(img, [_fixed(lip)], True, (18, 18, 20), max(1, round(6 * cam.fx / 2500)), cv2.LINE_AA,
                          _SHIFT)


def _draw_diamonds(img: U8, cam: CameraModel, spec: TableSpec, furn: Furniture) -> None:
    d = furn.cushion_mm + furn.rail_mm * 0.5
    z = furn.rail_height_mm
    L, W = spec.length_mm, spec.width_mm
    pts: list[tuple[float, float]] = []
    for k in range(1, 8):
        if k != 4:
            pts += [(L * k / 8, -d), (L * k / 8, W + d)]
    for k in range(1, 4):
        pts += [(-d, W * k / 4), (L + d, W * k / 4)]
    for x, y in pts:
        _fill3d(img, cam, _circle3d(x, y, 6.0, z, 16), (225, 232, 235))


def _draw_end_board(img: U8, cam: CameraModel, spec: TableSpec, furn: Furniture, rng: np.random.Generator) -> None:
    """Bar billiards: the scoreboard end beyond the holes, with its score counters."""
    w = furn.cushion_mm + furn.rail_mm
    x0, x1 = spec.length_mm + w, spec.length_mm + w + furn.end_board_mm
    z = furn.rail_height_mm
    margin = 25.0
    _fill3d(img, cam, [(x0 + margin, margin, z), (x1 - margin, margin, z), (x1 - margin, spec.width_mm - margin, z),
                       (x0 + margin, spec.width_mm - margin, z)], _shade(furn.rail_bgr, 0.55))
    tile = (x1 - x0 - 2 * margin) / 3.0
    for row in range(2):
        for k in range(4):
            ty = spec.width_mm * (0.2 + 0.17 * k + 0.35 * row) * 0.75
            tx = x0 + margin + tile * (0.4 + row * 1.3)
            _fill3d(img, cam, [(tx, ty, z), (tx + tile * 0.8, ty, z), (tx + tile * 0.8, ty + 45, z), (tx, ty + 45, z)],
                    (215, 225, 230) if rng.random() < 0.8 else (40, 40, 200))


def _floor(look: Look, cam: CameraModel, rng: np.random.Generator) -> U8:
    furn = look.furniture
    h, w = cam.height, cam.width
    H = cam.homography(-FLOOR_DEPTH_MM)
    Hinv = np.linalg.inv(H)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    den = Hinv[2, 0] * xs + Hinv[2, 1] * ys + Hinv[2, 2]
    fx = (Hinv[0, 0] * xs + Hinv[0, 1] * ys + Hinv[0, 2]) / den
    fy = (Hinv[1, 0] * xs + Hinv[1, 1] * ys + Hinv[1, 2]) / den
    base = np.array(furn.floor_bgr, np.float32)
    noise = rng.normal(0, 1, (h, w)).astype(np.float32)
    if furn.floor_kind == "wood":
        plank = float(rng.uniform(90, 180))
        idx = np.floor(fy / plank)
        f = 1.0 + 0.08 * np.sin(idx * 12.9898) + 0.04 * np.sin(fx / 37.0 + idx * 3.0) + 0.03 * noise
        seam = (np.abs(fy / plank - np.round(fy / plank)) * plank) < 3.0
        f = np.where(seam, f * 0.6, f)
    elif furn.floor_kind == "tiles":
        size = float(rng.uniform(300, 600))
        gx = np.abs(fx / size - np.round(fx / size)) * size
        gy = np.abs(fy / size - np.round(fy / size)) * size
        f = 1.0 + 0.03 * noise + 0.05 * np.sin(np.floor(fx / size) * 7.1 + np.floor(fy / size) * 3.3)
        f = np.where((gx < 4) | (gy < 4), f * 0.7, f)
    else:
        f = 1.0 + 0.08 * cv2.GaussianBlur(noise, (0, 0), 1.2) * 2.0
    img = base[None, None, :] * np.asarray(f, np.float32)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def build_background(spec: TableSpec, look: Look) -> Background:
    """Render the static scene of ``look`` (see the module docstring)."""
    margin = _distortion_margin(look.camera)
    cam = _extended(look.camera, margin)
    furn = look.furniture
    rng = np.random.default_rng([look.texture_seed, 11])
    img = _floor(look, cam, rng)
    # the table's shadow on the floor, soft
    x0, y0, x1, y1 = furn.outer(spec)
    shadow = np.zeros(img.shape[:2], np.uint8)
    foot = [(x0 + 60, y0 + 60, -FLOOR_DEPTH_MM), (x1 - 60, y0 + 60, -FLOOR_DEPTH_MM),
            (x1 - 60, y1 - 60, -FLOOR_DEPTH_MM), (x0 + 60, y1 - 60, -FLOOR_DEPTH_MM)]
    cv2.fillPoly(shadow, [_fixed(cam.project_undistorted(np.array(foot)))], 255, cv2.LINE_AA, _SHIFT)
    shadow = np.asarray(cv2.GaussianBlur(shadow, (0, 0), max(2.0, cam.width / 60)), dtype=np.uint8)
    img = (img.astype(np.float32) * (1 - 0.55 * shadow.astype(np.float32)[..., None] / 255) + 0.5).astype(np.uint8)
    _draw_apron(img, cam, spec, furn)

    scale = _texture_scale(spec, cam)
    cloth = _Canvas((-furn.cushion_mm - 30, -furn.cushion_mm - 30, spec.length_mm + furn.cushion_mm + 30,
                     spec.width_mm + furn.cushion_mm + 30), scale, look.cloth_bgr)
    if spec.name == "carrom":
        _wood(cloth, look.cloth_bgr, rng, along_x=True, amount=0.55)
    else:
        _felt(cloth, look, rng)
    _markings(spec, cloth, look, rng)
    cloth_img = cloth.to_image(cam, 0.0)
    mask = np.zeros(img.shape[:2], np.uint8)
    cw = furn.cushion_mm + 5.0 if furn.cushion_mm > 0 else 0.0
    surf = [(-cw, -cw, 0.0), (spec.length_mm + cw, -cw, 0.0), (spec.length_mm + cw, spec.width_mm + cw, 0.0),
            (-cw, spec.width_mm + cw, 0.0)]
    cv2.fillPoly(mask, [_fixed(cam.project_undistorted(np.array(surf)))], 255, cv2.LINE_AA, _SHIFT)
    a = mask.astype(np.float32)[..., None] / 255.0
    img = (img.astype(np.float32) * (1 - a) + cloth_img.astype(np.float32) * a + 0.5).astype(np.uint8)
    if spec.name != "pool":
        _draw_holes(img, cam, spec, look)

    # cushions: faces first (far ones are seen), then tops
    quads = _cushion_quads(spec, furn)
    cushion_col = _shade(look.cloth_bgr, 0.92)
    for face, _top, is_board in quads:
        col = _shade(furn.rail_bgr, 0.7) if (is_board or furn.cushion_mm == 0) else _shade(look.cloth_bgr, 0.7)
        _fill3d(img, cam, face, col)
    for _face, top, is_board in quads:
        if furn.cushion_mm > 0:
            _fill3d(img, cam, top, _shade(furn.rail_bgr, 0.9) if is_board else cushion_col)

    # rails: wood texture through the plane of the rail top, inside the rail ring
    rail = _Canvas((x0, y0, x1, y1), min(scale, 1.5), furn.rail_bgr)
    _wood(rail, furn.rail_bgr, rng, along_x=True, amount=0.35 if sum(furn.rail_bgr) > 600 else 1.0)
    rail_img = rail.to_image(cam, furn.rail_height_mm)
    ring = np.zeros(img.shape[:2], np.uint8)
    zr = furn.rail_height_mm
    outer = [(x0, y0, zr), (x1, y0, zr), (x1, y1, zr), (x0, y1, zr)]
    inner_w = furn.cushion_mm
    inner = [(-inner_w, -inner_w, zr), (spec.length_mm + inner_w, -inner_w, zr),
             (spec.length_mm + inner_w, spec.width_mm + inner_w, zr), (-inner_w, spec.width_mm + inner_w, zr)]
    cv2.fillPoly(ring, [_fixed(cam.project_undistorted(np.array(outer)))], 255, cv2.LINE_AA, _SHIFT)
    cv2.fillPoly(ring, [_fixed(cam.project_undistorted(np.array(inner)))], 0, cv2.LINE_AA, _SHIFT)
    a = ring.astype(np.float32)[..., None] / 255.0
    img = (img.astype(np.float32) * (1 - a) + rail_img.astype(np.float32) * a + 0.5).astype(np.uint8)
    if spec.name == "pool":
        _draw_holes(img, cam, spec, look)
        if furn.diamonds:
            _draw_diamonds(img, cam, spec, furn)
    if furn.end_board_mm > 0:
        _draw_end_board(img, cam, spec, furn, rng)

    # light: irradiance on the plane of the cloth, exposure, vignette, white balance
    gain, lit = _light(img, look, cam, spec)
    out = _finish(lit, look, margin)
    return Background(image=out, gain=gain, cloth_bgr=look.cloth_bgr)


def _light(img: U8, look: Look, cam: CameraModel, spec: TableSpec) -> tuple[float, F32]:
    h, w = img.shape[:2]
    step = 8  # irradiance varies slowly: compute it on a coarse grid and upsample
    ys, xs = np.mgrid[0:h + step:step, 0:w + step:step].astype(np.float64)
    Hinv = np.linalg.inv(cam.homography(0.0))
    den = Hinv[2, 0] * xs + Hinv[2, 1] * ys + Hinv[2, 2]
    tx = (Hinv[0, 0] * xs + Hinv[0, 1] * ys + Hinv[0, 2]) / den
    ty = (Hinv[1, 0] * xs + Hinv[1, 1] * ys + Hinv[1, 2]) / den
    pts = np.stack([tx.ravel(), ty.ravel(), np.zeros(tx.size)], axis=1)
    e = irradiance(look, pts).reshape(tx.shape).astype(np.float32)
    centre = irradiance(look, np.array([[spec.length_mm / 2, spec.width_mm / 2, 0.0]]))[0]
    gain = float(1.0 / centre)
    # grid point (i, j) sits at pixel (j*step, i*step)
    e_full = cv2.warpAffine(e, np.array([[1.0 / step, 0, 0], [0, 1.0 / step, 0]]), (w, h),
                            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    if look.vignette > 0:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - cam.cx) ** 2 + (yy - cam.cy) ** 2) / float(cam.cx ** 2 + cam.cy ** 2)
        e_full = e_full * (1.0 - look.vignette * r2)
    wb = np.array(look.white_balance, np.float32)
    lit = img.astype(np.float32) * (e_full * gain)[..., None] * wb
    return gain, lit


def _extended(cam: CameraModel, margin: int) -> CameraModel:
    """The same camera with a wider sensor, undistorted: the static scene is drawn on it first."""
    return replace(cam, width=cam.width + 2 * margin, height=cam.height + 2 * margin, cx=cam.cx + margin,
                   cy=cam.cy + margin, dist=(0.0, 0.0, 0.0, 0.0, 0.0))


def _distortion_margin(cam: CameraModel) -> int:
    """How far outside the frame the undistorted image must reach for the distorted frame."""
    if not cam.has_distortion:
        return 0
    edge = np.concatenate([
        np.stack([np.arange(0, cam.width, 8.0), np.zeros(len(range(0, cam.width, 8)))], axis=1),
        np.stack([np.arange(0, cam.width, 8.0), np.full(len(range(0, cam.width, 8)), cam.height - 1.0)], axis=1),
        np.stack([np.zeros(len(range(0, cam.height, 8))), np.arange(0, cam.height, 8.0)], axis=1),
        np.stack([np.full(len(range(0, cam.height, 8)), cam.width - 1.0), np.arange(0, cam.height, 8.0)], axis=1),
    ])
    und = cam.undistort_pixels(edge)
    over = max(0.0, -und[:, 0].min(), -und[:, 1].min(), und[:, 0].max() - cam.width + 1,
               und[:, 1].max() - cam.height + 1)
    return int(math.ceil(over)) + 4


def _finish(lit: F32, look: Look, margin: int) -> U8:
    """Lens distortion (once, for the whole static scene) and the optics' softness."""
    cam = look.camera
    out = np.clip(lit + 0.5, 0, 255).astype(np.uint8)
    if cam.has_distortion:
        mapx, mapy = distortion_maps(cam)
        out = np.asarray(cv2.remap(out, mapx + margin, mapy + margin, cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE), dtype=np.uint8)
    elif margin:
        out = out[margin:margin + cam.height, margin:margin + cam.width]
    if look.softness_px > 0.5:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), look.softness_px * 0.55), dtype=np.uint8)
    return np.ascontiguousarray(out, dtype=np.uint8)


def distortion_maps(cam: CameraModel, step: int = 8) -> tuple[F32, F32]:
    """For every observed (distorted) pixel, where it lies in the undistorted image.

    Lens distortion is smooth, so the inverse is solved on a grid every ``step`` pixels and
    interpolated in between (well under a hundredth of a pixel off for real lenses).
    """
    gx = np.arange(0, cam.width + step, step, dtype=np.float64)
    gy = np.arange(0, cam.height + step, step, dtype=np.float64)
    xs, ys = np.meshgrid(gx, gy)
    und = cam.undistort_pixels(np.stack([xs.ravel(), ys.ravel()], axis=1))
    to_pixels = np.array([[1.0 / step, 0.0, 0.0], [0.0, 1.0 / step, 0.0]])
    maps = []
    for c in (0, 1):
        coarse = und[:, c].reshape(len(gy), len(gx)).astype(np.float32)
        fine = cv2.warpAffine(coarse, to_pixels, (cam.width, cam.height),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
        maps.append(np.asarray(fine, dtype=np.float32))
    return maps[0], maps[1]
