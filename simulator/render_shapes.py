"""Round 3D shapes drawn as projected polygons, and the soft shadows they cast on the cloth.

A cue, a forearm, a finger, a pin's stem are tapered cylinders (:class:`Capsule`): two end
circles joined by tangents, projected through the camera so the end nearer the lens is drawn
larger, shaded with a lit side and a highlight towards the main lamp. Their shadows are the same
shapes projected from the lamp onto the cloth, drawn at reduced resolution and blurred into a
penumbra, then multiplied into the frame only inside their bounding box.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.simulator.render_look import Light, Look
from tableref.simulator.render_scene import cone_factor, irradiance

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]
_SHIFT = 4
_ONE = 1 << _SHIFT
Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class Capsule:
    """A tapered cylinder from ``p0`` (radius ``r0``) to ``p1`` (``r1``); points in table mm, z up."""

    p0: Vec3
    p1: Vec3
    r0: float
    r1: float
    albedo: tuple[int, int, int]  # BGR
    gloss: float = 0.0
    shadow: bool = True

    @property
    def height(self) -> float:
        return max(self.p0[2], self.p1[2])


@dataclass(frozen=True)
class Blob:
    """A flat filled ellipse in 3D (a palm, a head seen from above): centre, half-axes, direction."""

    centre: Vec3
    axes: tuple[float, float]
    angle: float  # radians, direction of the first axis in the table plane
    albedo: tuple[int, int, int]
    shadow: bool = True

    @property
    def height(self) -> float:
        return self.centre[2]

    def outline(self, n: int = 20) -> F64:
        a = np.linspace(0, 2 * math.pi, n, endpoint=False)
        ca, sa = math.cos(self.angle), math.sin(self.angle)
        ex = self.axes[0] * np.cos(a)
        ey = self.axes[1] * np.sin(a)
        return np.stack([self.centre[0] + ex * ca - ey * sa, self.centre[1] + ex * sa + ey * ca,
                         np.full(n, self.centre[2])], axis=1)


Shape = Capsule | Blob


def _fixed(px: F64) -> NDArray[np.int32]:
    return np.rint(np.asarray(px) * _ONE).astype(np.int32).reshape(-1, 1, 2)


_T = np.linspace(-math.pi / 2, math.pi / 2, 7)
_COS, _SIN = np.cos(_T)[:, None], np.sin(_T)[:, None]


def _capsule_outline(q0: F64, q1: F64, r0: float, r1: float, n: int = 7) -> F64:
    """Outline of two end circles joined by their tangents (``n`` points per end cap)."""
    d = q1 - q0
    length = float(np.hypot(d[0], d[1]))
    d = np.array([1.0, 0.0]) if length < 1e-06 else d / length
    perp = np.array([-d[1], d[0]])
    cos, sin = (_COS, _SIN) if n == 7 else (np.cos(np.linspace(-math.pi / 2, math.pi / 2, n))[:, None],
                                            np.sin(np.linspace(-math.pi / 2, math.pi / 2, n))[:, None])
    cap1 = q1[None, :] + r1 * (d[None, :] * cos + perp[None, :] * sin)
    cap0 = q0[None, :] + r0 * (-d[None, :] * cos - perp[None, :] * sin)
    return np.vstack([cap1, cap0])


def _clip(c: F64, f: float) -> tuple[int, int, int]:
    v = np.clip(np.rint(c * f), 0, 255)
    return (int(v[0]), int(v[1]), int(v[2]))


def draw_shapes(img: U8, shapes: Sequence[Shape], look: Look, gain: float) -> None:
    """Draw shapes lowest first (a hand over the cue, the forearm over the hand), shaded.

    Every point of every shape goes through the camera in one call and every shape's light in one
    call: a player is some thirty shapes a frame.
    """
    if not shapes:
        return
    cam = look.camera
    light = look.main_light
    f = math.sqrt(cam.fx * cam.fy)
    order = sorted(shapes, key=lambda sh: sh.height)
    pts: list[F64] = []
    mids = np.empty((len(order), 3))
    for k, s in enumerate(order):
        if isinstance(s, Blob):
            pts.append(s.outline())
            mids[k] = s.centre
        else:
            mids[k] = ((s.p0[0] + s.p1[0]) / 2, (s.p0[1] + s.p1[1]) / 2, (s.p0[2] + s.p1[2]) / 2)
            toward = np.array([light.x - mids[k, 0], light.y - mids[k, 1]])
            nt = float(np.hypot(toward[0], toward[1]))
            step = toward / nt * 40.0 if nt > 1e-6 else np.zeros(2)
            pts.append(np.array([s.p0, s.p1, mids[k], (mids[k, 0] + step[0], mids[k, 1] + step[1], mids[k, 2])]))
    sizes = [len(p) for p in pts]
    allp = np.vstack(pts)
    px = cam.project(allp)
    depth = cam.depth(allp)
    wb = np.asarray(look.white_balance)
    base = np.array([s.albedo for s in order], dtype=np.float64) * (irradiance(look, mids) * gain)[:, None] * wb
    start = 0
    for k, s in enumerate(order):
        q = px[start:start + sizes[k]]
        dep = depth[start:start + sizes[k]]
        start += sizes[k]
        if np.any(dep <= 1.0):
            continue
        if isinstance(s, Blob):
            cv2.fillPoly(img, [_fixed(q)], _clip(base[k], 0.85), cv2.LINE_AA, _SHIFT)
            centre = q.mean(axis=0)
            cv2.fillPoly(img, [_fixed(centre + 0.7 * (q - centre))], _clip(base[k], 1.0), cv2.LINE_AA, _SHIFT)
            continue
        r0, r1 = f * s.r0 / dep[0], f * s.r1 / dep[1]
        cv2.fillPoly(img, [_fixed(_capsule_outline(q[0], q[1], r0, r1))], _clip(base[k], 0.72), cv2.LINE_AA, _SHIFT)
        off = _light_offset(light, mids[k], q)
        qa, qb = q[0] + off * r0 * 0.3, q[1] + off * r1 * 0.3
        cv2.fillPoly(img, [_fixed(_capsule_outline(qa, qb, r0 * 0.6, r1 * 0.6))], _clip(base[k], 0.98), cv2.LINE_AA,
                     _SHIFT)
        if s.gloss > 0:
            qa, qb = q[0] + off * r0 * 0.45, q[1] + off * r1 * 0.45
            cv2.fillPoly(img, [_fixed(_capsule_outline(qa, qb, r0 * 0.16, r1 * 0.16))],
                         _clip(base[k], 1.0 + 0.5 * s.gloss), cv2.LINE_AA, _SHIFT)


def _light_offset(light: Light, mid: F64, q: F64) -> F64:
    """Unit image direction, across the shape, towards the lamp (where its highlight sits).

    ``q`` holds the projections of the two ends, the middle and a point 40 mm from the middle
    towards the lamp's foot.
    """
    toward = q[3] - q[2]
    axis = q[1] - q[0]
    la = float(np.hypot(axis[0], axis[1]))
    if la > 1e-6:
        axis = axis / la
        toward = toward - float(toward @ axis) * axis
    nt = float(np.hypot(toward[0], toward[1]))
    if nt < 1e-6:
        return np.zeros(2)
    # how far the lamp is to the side, not just which side: a lamp overhead puts the highlight on top
    horizontal = math.hypot(light.x - mid[0], light.y - mid[1])
    side = min(1.0, horizontal / max(light.z - mid[2], 1.0))
    return np.asarray(toward / nt * side, dtype=np.float64)


def on_cloth(light: Light, pts: F64) -> F64:
    """Project 3D points from the lamp onto the cloth (z = 0)."""
    lp = np.array([light.x, light.y, light.z])
    z = np.minimum(pts[:, 2], light.z - 1.0)
    k = light.z / (light.z - z)
    out = lp[None, :] + (pts - lp[None, :]) * k[:, None]
    out[:, 2] = 0.0
    return out


def shadow_polygons(shapes: Sequence[Shape], look: Look) -> list[tuple[F64, float]]:
    """Each shape's shadow on the cloth from the main lamp: (table-plane outline, height of the caster)."""
    light = look.main_light
    out = []
    for s in shapes:
        if not s.shadow:
            continue
        probe = s.centre if isinstance(s, Blob) else s.p1
        if float(cone_factor(light, np.array([probe]))[0]) < 0.5 or probe[2] > 0.75 * light.z:
            continue  # outside the lamp's shade: this lamp casts no shadow of it
        if isinstance(s, Blob):
            out.append((on_cloth(light, s.outline(16)), s.centre[2]))
            continue
        ends = on_cloth(light, np.array([s.p0, s.p1]))
        k0 = light.z / max(light.z - s.p0[2], 1.0)
        k1 = light.z / max(light.z - s.p1[2], 1.0)
        outline = _capsule_outline(ends[0, :2], ends[1, :2], s.r0 * k0, s.r1 * k1, 5)
        out.append((np.column_stack([outline, np.zeros(len(outline))]), (s.p0[2] + s.p1[2]) / 2))
    return out


def apply_polygon_shadows(img: U8, polys: Sequence[tuple[F64, float]], look: Look, strength: float) -> None:
    """Darken the frame under the shadow polygons (by ``strength``, 0-1) with a penumbra that widens
    with the caster's height."""
    if not polys:
        return
    cam = look.camera
    pix = [cam.project(p) for p, _ in polys]
    allp = np.vstack(pix)
    h, w = img.shape[:2]
    soft_mm = look.shadow_softness_mm
    mean_h = float(np.mean([z for _, z in polys]))
    blur_mm = soft_mm * (0.4 + mean_h / 120.0)
    px_per_mm = cam.fx / float(cam.depth(np.array([[0.0, 0.0, 0.0]]))[0])
    sigma = max(0.8, blur_mm * px_per_mm * 0.5)
    pad = int(3 * sigma) + 2
    x0, y0 = max(0, int(allp[:, 0].min()) - pad), max(0, int(allp[:, 1].min()) - pad)
    x1, y1 = min(w, int(allp[:, 0].max()) + pad + 1), min(h, int(allp[:, 1].max()) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return
    ds = 4 if sigma > 6 else (2 if sigma > 2 else 1)
    mw, mh = (x1 - x0 + ds - 1) // ds, (y1 - y0 + ds - 1) // ds
    mask = np.zeros((mh, mw), np.uint8)
    off = np.array([x0, y0], dtype=np.float64)
    for p in pix:
        cv2.fillPoly(mask, [_fixed((p - off) / ds)], 255, cv2.LINE_AA, _SHIFT)
    mask = cv2.GaussianBlur(mask, (0, 0), sigma / ds)
    if ds > 1:
        mask = cv2.resize(mask, (mw * ds, mh * ds), interpolation=cv2.INTER_LINEAR)[: y1 - y0, : x1 - x0]
    roi = img[y0:y1, x0:x1]
    factor = 1.0 - (strength / 255.0) * mask.astype(np.float32)  # strength 0-1, mask 0-255
    roi[:] = (roi.astype(np.float32) * factor[..., None] + 0.5).astype(np.uint8)
