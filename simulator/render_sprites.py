"""Objects drawn per frame: balls (pool, bar billiards, pin heads), carrom men, soft shadows.

Each object is shaded analytically in a small region of interest around its projected centre, all
objects of a frame in one vectorised batch (a few thousand pixels), because a Python loop over
pixels or a full-frame pass per object would cost the frame rate.

Balls are spheres seen through the camera: their outline is the ellipse a real lens makes of a
sphere off the optical axis (longer along the line to the principal point by 1/cos of the off-axis
angle, centred on the projection of the centre to well under a pixel), lit by every lamp
(diffuse falling off with distance, a specular highlight per lamp where the half vector says, a
little light bounced off the cloth underneath). The pattern (stripe band, number discs with the
number) lives on the ball, so a rolling ball turns its number out of view and back.

Carrom men are discs: the top face is the plane a camera sees the centre on, and under a tilted
camera the rim shows below it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.camera import CameraModel
from tableref.simulator.render_look import Look
from tableref.simulator.render_scene import cone_factor, irradiance

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

GLYPH = 32
_DISC_COS = math.cos(math.radians(27.0))
_DISC_SIN = math.sin(math.radians(27.0))
_STRIPE_Z = 0.52
_RINGS = 3


@dataclass(frozen=True)
class Sprite:
    """A shaded object over the pixels from (x0, y0): colour premultiplied by coverage (BGR 0-255), coverage."""

    x0: int
    y0: int
    colour: F32  # (h, w, 3), premultiplied by alpha
    alpha: F32  # (h, w)


@dataclass(frozen=True)
class BallPattern:
    """What a ball looks like: albedo (BGR 0-1), stripe or solid, the number printed (0: none)."""

    albedo: tuple[float, float, float]
    stripe: bool = False
    number: int = 0
    gloss: float = 1.0


@dataclass(frozen=True)
class SphereJob:
    """One sphere to shade: where it is (table mm, z = height of the centre) and how it is turned."""

    x: float
    y: float
    z: float
    radius: float
    orient: F64  # 3x3, ball frame -> table frame (z up)
    pattern: BallPattern
    centre_px: tuple[float, float]  # observed (distorted) pixel of the centre
    centre_und: tuple[float, float]  # the same without distortion: fixes the ellipse's axes


@dataclass(frozen=True)
class DiscJob:
    """A flat disc (carrom man, striker, a pin's base): centre on the cloth, top at ``thickness``."""

    x: float
    y: float
    radius: float
    thickness: float
    top_bgr: tuple[float, float, float]  # albedo 0-1
    side_bgr: tuple[float, float, float]
    rings: tuple[tuple[float, float, float], ...]  # (r0/R, r1/R, darkening) grooves and printed rings
    ring_bgr: tuple[float, float, float] | None
    centre_px: tuple[float, float]
    centre_und: tuple[float, float]


@dataclass(frozen=True)
class ShadowJob:
    """A soft elliptical shadow on the cloth: centre (px), quadratic form of the ellipse, darkness."""

    centre_px: tuple[float, float]
    inv_shape: tuple[float, float, float]  # (a, b, c): rho^2 = a dx^2 + 2 b dx dy + c dy^2
    extent: float  # half-size of the region, px
    strength: float
    soft: float  # width of the penumbra in rho units


@lru_cache(maxsize=1)
def glyphs() -> F32:
    """Ink coverage (0-1) of the numbers 0-15 as printed on a ball's disc, GLYPH x GLYPH each."""
    out = np.zeros((16, GLYPH, GLYPH), np.float32)
    for n in range(1, 16):
        big = np.zeros((GLYPH * 4, GLYPH * 4), np.uint8)
        text = str(n)
        scale = 2.6 if n < 10 else 2.1
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 9)
        org = ((GLYPH * 4 - tw) // 2, (GLYPH * 4 + th) // 2)
        cv2.putText(big, text, org, cv2.FONT_HERSHEY_DUPLEX, scale, 255, 9, cv2.LINE_AA)
        if n in (6, 9):  # the underline that tells 6 from 9
            cv2.line(big, (org[0], org[1] + 12), (org[0] + tw, org[1] + 12), 255, 7)
        out[n] = cv2.resize(big, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    return out


def _camera_basis(cam: CameraModel) -> tuple[F64, F64, F64]:
    """Camera x (image right), y (image down) and optical axis, as table-frame (z up) vectors."""
    R = cam.R
    flip = np.array([1.0, 1.0, -1.0])
    return R[0] * flip, R[1] * flip, R[2] * flip


def _grid(rois: Sequence[tuple[int, int, int, int]]) -> tuple[F64, F64, NDArray[np.intp]]:
    """Pixel centres of several regions (x0, y0, w, h), concatenated, with each pixel's region index.

    Built with a constant number of array operations whatever the number of regions.
    """
    r = np.asarray(rois, dtype=np.intp).reshape(-1, 4)
    sizes = r[:, 2] * r[:, 3]
    k = np.repeat(np.arange(len(r)), sizes)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    local = np.arange(int(sizes.sum())) - starts[k]
    w = r[k, 2]
    xs = r[k, 0] + local % w
    ys = r[k, 1] + local // w
    return xs.astype(np.float64), ys.astype(np.float64), k


def _split(rois: Sequence[tuple[int, int, int, int]], colour: F64, alpha: F64) -> list[Sprite]:
    out = []
    start = 0
    for x0, y0, w, h in rois:
        n = w * h
        a = alpha[start:start + n]
        out.append(Sprite(x0, y0, (colour[start:start + n] * a[:, None]).reshape(h, w, 3).astype(np.float32),
                          a.reshape(h, w).astype(np.float32)))
        start += n
    return out


def _lights(look: Look) -> tuple[F64, F64, F64, F64]:
    pos = np.array([[lt.x, lt.y, lt.z] for lt in look.lights])
    inten = np.array([lt.intensity for lt in look.lights])
    tint = np.array([lt.tint for lt in look.lights])
    height = pos[:, 2].copy()
    return pos, inten, tint, height


def render_spheres(jobs: Sequence[SphereJob], look: Look, gain: float, cloth_bgr: tuple[int, int, int]
                   ) -> list[Sprite]:
    """Shade every sphere of ``jobs`` in one batch; one :class:`Sprite` per job."""
    if not jobs:
        return []
    cam = look.camera
    f = math.sqrt(cam.fx * cam.fy)
    ex, ey, _ez = _camera_basis(cam)
    cpos = cam.position
    centres = np.array([[j.x, j.y, j.z] for j in jobs])
    radii = np.array([j.radius for j in jobs])
    cam_pts = cam.to_camera(centres)
    depth = cam_pts[:, 2]
    dist = np.linalg.norm(cam_pts, axis=1)
    cos_t = depth / dist
    minor = f * radii / depth
    major = minor / cos_t
    und = np.array([j.centre_und for j in jobs])
    phi = np.arctan2(und[:, 1] - cam.cy, und[:, 0] - cam.cx)
    view = centres - cpos  # camera -> ball, table frame
    view /= np.linalg.norm(view, axis=1, keepdims=True)
    eu = ex[None, :] - (view @ ex)[:, None] * view
    eu /= np.linalg.norm(eu, axis=1, keepdims=True)
    ev = ey[None, :] - (view @ ey)[:, None] * view - (eu @ ey)[:, None] * eu
    ev /= np.linalg.norm(ev, axis=1, keepdims=True)

    rois = []
    for j, b in zip(jobs, major, strict=True):
        u, v = j.centre_px
        half = b + 2.0
        x0, y0 = int(math.floor(u - half)), int(math.floor(v - half))
        x1, y1 = int(math.ceil(u + half)) + 1, int(math.ceil(v + half)) + 1
        rois.append((x0, y0, x1 - x0, y1 - y0))
    xs, ys, k = _grid(rois)
    cpx = np.array([j.centre_px for j in jobs])
    dx, dy = xs - cpx[k, 0], ys - cpx[k, 1]
    cphi, sphi = np.cos(phi)[k], np.sin(phi)[k]
    wr = (dx * cphi + dy * sphi) / major[k]
    wt = (-dx * sphi + dy * cphi) / minor[k]
    rho = np.sqrt(wr * wr + wt * wt)
    soft = max(1.0, look.softness_px)
    alpha = np.clip(0.5 + (1.0 - rho) * minor[k] / soft, 0.0, 1.0)
    scale = np.minimum(1.0, 1.0 / np.maximum(rho, 1e-9))
    wr, wt = wr * scale, wt * scale
    wx = wr * cphi - wt * sphi
    wy = wr * sphi + wt * cphi
    nz = np.sqrt(np.maximum(0.0, 1.0 - wx * wx - wy * wy))

    def dot(per_job: F64) -> F64:
        """n . a for each pixel, given (eu.a, ev.a, view.a) per job: no per-pixel 3-vectors needed."""
        g = per_job[k]
        return np.asarray(wx * g[:, 0] + wy * g[:, 1] - nz * g[:, 2], dtype=np.float64)

    def project(vecs: F64) -> F64:
        return np.stack([np.einsum("ij,ij->i", eu, vecs), np.einsum("ij,ij->i", ev, vecs),
                         np.einsum("ij,ij->i", view, vecs)], axis=1)

    # the pattern on the ball: the normal in the ball's own frame (O^T n, one axis at a time)
    orient = np.array([j.orient for j in jobs])  # body -> table; column c is body axis c
    albedo = np.array([j.pattern.albedo for j in jobs])[k]
    stripe = np.array([j.pattern.stripe for j in jobs])
    number = np.array([j.pattern.number for j in jobs])
    ivory = np.array([0.93, 0.94, 0.95]) * np.asarray(look.piece_jitter)
    col = albedo
    if stripe.any() or number.any():
        nbx, nby, nbz = (dot(project(orient[:, :, c])) for c in range(3))
        white = stripe[k] & (np.abs(nbz) > _STRIPE_Z)
        disc = (number[k] > 0) & (np.abs(nbx) > _DISC_COS)
        col = np.where((white | disc)[:, None], ivory[None, :], albedo)
        if disc.any():
            side = np.sign(nbx)
            gu = np.clip(((side * nby / _DISC_SIN) + 1.0) * 0.5 * (GLYPH - 1), 0, GLYPH - 1).round().astype(np.intp)
            gv = np.clip(((-nbz / _DISC_SIN) + 1.0) * 0.5 * (GLYPH - 1), 0, GLYPH - 1).round().astype(np.intp)
            ink = glyphs()[number[k], gv, gu] * disc
            col = col * (1.0 - 0.92 * ink[:, None])

    # light
    lpos, inten, tint, lheight = _lights(look)
    diffuse = np.full((len(xs), 3), look.ambient)
    specular = np.zeros((len(xs), 3))
    gloss = np.array([j.pattern.gloss for j in jobs])
    for i in range(len(lpos)):
        ldir = lpos[i][None, :] - centres
        ld = np.linalg.norm(ldir, axis=1)
        ldir /= ld[:, None]
        fall = inten[i] * (lheight[i] / ld) ** 2 * cone_factor(look.lights[i], centres)
        if not np.any(fall > 1e-4):
            continue
        ndl = np.maximum(0.0, dot(project(ldir)))
        diffuse += (fall[k] * ndl)[:, None] * tint[i][None, :]
        half = ldir - view
        half /= np.linalg.norm(half, axis=1, keepdims=True)
        ndh = np.maximum(0.0, dot(project(half)))
        specular += ((ndh ** look.shininess) * (fall * gloss)[k])[:, None] * tint[i][None, :]
    up = np.zeros_like(view)
    up[:, 2] = 1.0
    bounce = np.maximum(0.0, -dot(project(up)))[:, None] * (np.array(cloth_bgr)[None, :] / 255.0) * 0.35
    wb = np.asarray(look.white_balance)
    colour = (col * (diffuse + bounce) * gain * 255.0 + specular * (look.specular * 255.0)) * wb
    return _split(rois, colour, alpha)


def render_discs(jobs: Sequence[DiscJob], look: Look, gain: float) -> list[Sprite]:
    """Shade flat discs (carrom men, the striker, pin bases): top face with its rings, then the rim."""
    if not jobs:
        return []
    cam = look.camera
    rois = []
    for j in jobs:
        r_px = cam.fx * j.radius / float(cam.depth(np.array([[j.x, j.y, 0.0]]))[0])
        u, v = j.centre_px
        half = r_px * 1.8 + 2.0
        x0, y0 = int(math.floor(u - half)), int(math.floor(v - half))
        x1, y1 = int(math.ceil(u + half)) + 1, int(math.ceil(v + half)) + 1
        rois.append((x0, y0, x1 - x0, y1 - y0))
    xs, ys, k = _grid(rois)
    shift = np.array([[a[0] - b[0], a[1] - b[1]] for a, b in zip(
        [j.centre_und for j in jobs], [j.centre_px for j in jobs], strict=True)])
    ux, uy = xs + shift[k, 0], ys + shift[k, 1]
    centres = np.array([[j.x, j.y] for j in jobs])
    radius = np.array([j.radius for j in jobs])
    thick = np.array([j.thickness for j in jobs])
    px_per_mm = cam.fx / cam.depth(np.column_stack([centres, thick]))
    soft = max(1.0, look.softness_px)

    def plane_r(z: F64) -> F64:
        # pixel -> table point on the plane at height z (per pixel), distance to the disc's axis
        out = np.empty(len(xs))
        for zv in np.unique(z):
            sel = z == zv
            Hinv = np.linalg.inv(cam.homography(float(zv)))
            den = Hinv[2, 0] * ux[sel] + Hinv[2, 1] * uy[sel] + Hinv[2, 2]
            tx = (Hinv[0, 0] * ux[sel] + Hinv[0, 1] * uy[sel] + Hinv[0, 2]) / den
            ty = (Hinv[1, 0] * ux[sel] + Hinv[1, 1] * uy[sel] + Hinv[1, 2]) / den
            out[sel] = np.hypot(tx - centres[k[sel], 0], ty - centres[k[sel], 1])
        return out

    r_top = plane_r(thick[k])
    a_top = np.clip(0.5 + (radius[k] - r_top) * px_per_mm[k] / soft, 0.0, 1.0)
    a_side = a_top.copy()
    for frac in (0.0, 0.5):
        r_low = plane_r(thick[k] * frac)
        a_side = np.maximum(a_side, np.clip(0.5 + (radius[k] - r_low) * px_per_mm[k] / soft, 0.0, 1.0))
    top = np.array([j.top_bgr for j in jobs])[k]
    rel = r_top / radius[k]
    # rings (grooves darken, printed rings paint ring_bgr), at most _RINGS per disc, all discs at once
    ring_tab = np.zeros((len(jobs), _RINGS, 3))
    ring_tab[:, :, 0] = 2.0  # empty slots never match
    for jdx, j in enumerate(jobs):
        for slot, ring in enumerate(j.rings[:_RINGS]):
            ring_tab[jdx, slot] = ring
    paint = np.array([j.ring_bgr if j.ring_bgr is not None else (0.0, 0.0, 0.0) for j in jobs])[k]
    for slot in range(_RINGS):
        r0, r1, dark = ring_tab[k, slot, 0], ring_tab[k, slot, 1], ring_tab[k, slot, 2]
        hit = (rel >= r0) & (rel <= r1)
        painted = hit & (dark < 0)
        top = np.where(painted[:, None], paint, top)
        top = top * (1.0 - np.where(hit & (dark > 0), dark, 0.0))[:, None]
    top[rel > 0.93] *= 0.88  # the bevelled edge
    side = np.array([j.side_bgr for j in jobs])[k]
    e_top = _flat_irradiance(look, np.column_stack([centres, thick]))
    e_side = e_top * 0.55
    w_top = np.where(a_side > 0, a_top / np.maximum(a_side, 1e-9), 0.0)
    colour = (top * e_top[k][:, None] * w_top[:, None] + side * e_side[k][:, None] * (1 - w_top)[:, None])
    colour = colour * gain * 255.0 * np.asarray(look.white_balance)
    return _split(rois, colour, a_side)


def _flat_irradiance(look: Look, pts: F64) -> F64:
    return irradiance(look, pts)


def render_shadows(jobs: Sequence[ShadowJob]) -> list[tuple[int, int, F32]]:
    """Darkening factors (0 = no shadow) over small regions, one per job."""
    if not jobs:
        return []
    rois = []
    for j in jobs:
        u, v = j.centre_px
        x0, y0 = int(math.floor(u - j.extent)), int(math.floor(v - j.extent))
        x1, y1 = int(math.ceil(u + j.extent)) + 1, int(math.ceil(v + j.extent)) + 1
        rois.append((x0, y0, x1 - x0, y1 - y0))
    xs, ys, k = _grid(rois)
    c = np.array([j.centre_px for j in jobs])
    q = np.array([j.inv_shape for j in jobs])
    dx, dy = xs - c[k, 0], ys - c[k, 1]
    rho = np.sqrt(np.maximum(0.0, q[k, 0] * dx * dx + 2 * q[k, 1] * dx * dy + q[k, 2] * dy * dy))
    soft = np.array([j.soft for j in jobs])[k]
    t = np.clip((1.0 + soft * 0.5 - rho) / soft, 0.0, 1.0)
    val = t * t * (3 - 2 * t) * np.array([j.strength for j in jobs])[k]
    out = []
    start = 0
    for x0, y0, w, h in rois:
        out.append((x0, y0, val[start:start + w * h].reshape(h, w).astype(np.float32)))
        start += w * h
    return out


def shadow_on_cloth(cam: CameraModel, cx_mm: float, cy_mm: float, axes_mm: tuple[float, float], angle: float,
                    strength: float, soft_mm: float, centre_px: tuple[float, float]) -> ShadowJob:
    """A shadow ellipse on the cloth (centre, semi-axes and direction in table mm) as pixels.

    The ellipse is carried into the image through the local linear part of the cloth homography
    at its centre, which is exact to far below a pixel at the size of a ball's shadow.
    """
    H = cam.homography(0.0)
    p = np.array([cx_mm, cy_mm, 1.0])
    w = H[2] @ p
    J = (H[:2, :2] * w - np.outer(H[:2] @ p, H[2, :2])) / (w * w)  # d(pixel)/d(mm)
    ca, sa = math.cos(angle), math.sin(angle)
    Rm = np.array([[ca, -sa], [sa, ca]])
    S = Rm @ np.diag([1.0 / axes_mm[0] ** 2, 1.0 / axes_mm[1] ** 2]) @ Rm.T  # mm quadratic form
    Jinv = np.linalg.inv(J)
    Q = Jinv.T @ S @ Jinv  # pixel quadratic form
    mean_axis = (axes_mm[0] + axes_mm[1]) / 2
    soft = max(0.05, soft_mm / mean_axis)
    stretch = float(np.linalg.svd(J, compute_uv=False)[0])  # the most px a mm can become here
    ext_px = max(axes_mm) * (1.0 + soft / 2) * stretch + 1.5
    return ShadowJob(centre_px, (float(Q[0, 0]), float(Q[0, 1]), float(Q[1, 1])), ext_px, strength, soft)
