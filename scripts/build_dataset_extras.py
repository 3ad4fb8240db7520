"""What the renderer does not draw and a venue camera sees: glare, worn cloth, things left on the rail.

Part of ``scripts/build_dataset.py``. Everything is drawn after the renderer, through the same
camera (so a phone on the far rail is smaller and a pint glass leans with the perspective), and
every pixel that hides part of the table is returned in a mask, so a ball under it is labelled
only when enough of it still shows. Round things that are not balls (a glass seen from above, a
glare spot, a chalk cube's face) are there on purpose: the detector must learn to leave them out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.camera import CameraModel
from tableref.calibration.spec import TableSpec
from tableref.simulator.render_look import Look

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
Box = tuple[float, float, float, float]
SHIFT = 4


def _fixed(px: F64) -> NDArray[np.int32]:
    return np.round(np.asarray(px) * (1 << SHIFT)).astype(np.int32).reshape(-1, 1, 2)


def _edge_points(x0: float, y0: float, x1: float, y1: float, z: float, n: int = 24) -> F64:
    t = np.linspace(0, 1, n, endpoint=False)
    top = np.column_stack([x0 + (x1 - x0) * t, np.full(n, y0)])
    right = np.column_stack([np.full(n, x1), y0 + (y1 - y0) * t])
    bottom = np.column_stack([x1 - (x1 - x0) * t, np.full(n, y1)])
    left = np.column_stack([np.full(n, x0), y1 - (y1 - y0) * t])
    pts = np.vstack([top, right, bottom, left])
    return np.column_stack([pts, np.full(len(pts), z)])


def cloth_polygon(cam: CameraModel, spec: TableSpec) -> F64:
    """The playing surface's outline in the image (lens distortion bends its edges)."""
    return cam.project(_edge_points(0.0, 0.0, spec.length_mm, spec.width_mm, 0.0))


def _rail_point(spec: TableSpec, look: Look, rng: np.random.Generator) -> tuple[float, float, float]:
    """A point on the middle of a rail's top (table mm and height)."""
    furn = look.furniture
    mid = furn.cushion_mm + furn.rail_mm / 2 + float(rng.uniform(-0.2, 0.2)) * furn.rail_mm
    side = int(rng.integers(4))
    L, W = spec.length_mm, spec.width_mm
    if side < 2:
        return (float(rng.uniform(0, L)), -mid if side == 0 else W + mid, furn.rail_height_mm)
    return (-mid if side == 2 else L + mid, float(rng.uniform(0, W)), furn.rail_height_mm)


def _circle(x: float, y: float, r: float, z: float, n: int = 40) -> F64:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.column_stack([x + r * np.cos(a), y + r * np.sin(a), np.full(n, z)])


def _blend_poly(img: U8, mask: U8, poly: F64, colour: Sequence[float] | F64, alpha: float) -> None:
    layer = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(layer, [_fixed(poly)], 255, cv2.LINE_AA, SHIFT)
    x, y, w, h = cv2.boundingRect(np.round(poly).astype(np.int32).reshape(-1, 1, 2))
    x0, y0 = max(0, x - 2), max(0, y - 2)
    x1, y1 = min(img.shape[1], x + w + 2), min(img.shape[0], y + h + 2)
    if x1 <= x0 or y1 <= y0:
        return
    a = layer[y0:y1, x0:x1].astype(np.float32)[..., None] / 255.0 * alpha
    roi = img[y0:y1, x0:x1].astype(np.float32)
    roi = roi * (1 - a) + np.asarray(colour, np.float32) * a
    img[y0:y1, x0:x1] = np.clip(roi + 0.5, 0, 255).astype(np.uint8)
    np.maximum(mask[y0:y1, x0:x1], layer[y0:y1, x0:x1], out=mask[y0:y1, x0:x1])


def _glass(img: U8, mask: U8, cam: CameraModel, spec: TableSpec, look: Look, rng: np.random.Generator) -> None:
    """A pint glass on the rail: a see-through cylinder, drink-tinted, with bright rims."""
    x, y, z = _rail_point(spec, look, rng)
    r = float(rng.uniform(33, 45))
    h = float(rng.uniform(90, 160))
    base, top = cam.project(_circle(x, y, r, z)), cam.project(_circle(x, y, r * 1.12, z + h))
    hull = cv2.convexHull(np.vstack([base, top]).astype(np.float32)).reshape(-1, 2).astype(np.float64)
    drink = [(40, 120, 200), (25, 25, 35), (200, 205, 210), (60, 160, 220), (30, 60, 150)][int(rng.integers(5))]
    _blend_poly(img, mask, hull, drink, float(rng.uniform(0.2, 0.55)))
    rim = (235, 240, 245)
    for ring, w in ((top, 2), (base, 1)):
        cv2.polylines(img, [_fixed(ring)], True, rim, w, cv2.LINE_AA, SHIFT)
    if rng.random() < 0.7:
        c = top.mean(axis=0) + (top.max(axis=0) - top.min(axis=0)) * rng.uniform(-0.25, 0.25, 2)
        cv2.ellipse(img, (int(c[0]), int(c[1])), (max(1, int(rng.uniform(2, 6))), max(1, int(rng.uniform(1, 3)))),
                    float(rng.uniform(0, 180)), 0, 360, (250, 250, 250), -1, cv2.LINE_AA)


def _phone(img: U8, mask: U8, cam: CameraModel, spec: TableSpec, look: Look, rng: np.random.Generator) -> None:
    x, y, z = _rail_point(spec, look, rng)
    a = float(rng.uniform(0, math.pi))
    w, h = float(rng.uniform(140, 165)), float(rng.uniform(68, 78))
    ux, uy = math.cos(a), math.sin(a)
    corners = [(x + sx * w / 2 * ux - sy * h / 2 * uy, y + sx * w / 2 * uy + sy * h / 2 * ux, z + 8)
               for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    body = cam.project(np.array(corners))
    shade = float(rng.uniform(15, 70))
    _blend_poly(img, mask, body, (shade, shade, shade * 1.05), 1.0)
    screen = body.mean(axis=0) + 0.86 * (body - body.mean(axis=0))
    glow = [(20, 20, 25), (120, 90, 60), (200, 180, 160), (60, 140, 90)][int(rng.integers(4))]
    _blend_poly(img, mask, screen, glow, float(rng.uniform(0.7, 1.0)))


def _chalk(img: U8, mask: U8, cam: CameraModel, spec: TableSpec, look: Look, rng: np.random.Generator,
           avoid: Sequence[Box]) -> None:
    """A chalk cube on the rail or on the cloth (away from the balls)."""
    s = float(rng.uniform(20, 24))
    if rng.random() < 0.6:
        x, y, z = _rail_point(spec, look, rng)
    else:
        x, y, z = float(rng.uniform(40, spec.length_mm - 40)), float(rng.uniform(40, spec.width_mm - 40)), 0.0
    a = float(rng.uniform(0, math.pi / 2))
    ux, uy = math.cos(a), math.sin(a)
    sq = [(x + (sx * ux - sy * uy) * s / 2, y + (sx * uy + sy * ux) * s / 2) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    pts = cam.project(np.array([(p[0], p[1], zz) for zz in (z, z + s) for p in sq]))
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    if any(lo[0] < b[2] + 4 and b[0] - 4 < hi[0] and lo[1] < b[3] + 4 and b[1] - 4 < hi[1] for b in avoid):
        return
    colour = np.array(look.player.chalk_bgr if rng.random() < 0.6 else
                      [(170, 110, 40), (60, 150, 60), (40, 40, 170)][int(rng.integers(3))], np.float64)
    hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64)
    _blend_poly(img, mask, hull, colour * 0.7, 1.0)
    _blend_poly(img, mask, pts[4:], colour * float(rng.uniform(0.9, 1.15)), 1.0)
    if rng.random() < 0.5:  # the cup worn into the top face
        c = pts[4:].mean(axis=0)
        cv2.circle(img, (int(c[0]), int(c[1])), max(1, int((hi[0] - lo[0]) * 0.18)),
                   tuple(float(v) for v in colour * 0.75), -1, cv2.LINE_AA)


def _arm(img: U8, mask: U8, rng: np.random.Generator, boxes: Sequence[Box]) -> None:
    """A sleeve or a bare forearm crossing part of an object, coming in from the frame's edge."""
    b = boxes[int(rng.integers(len(boxes)))]
    cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    size = max(b[2] - b[0], b[3] - b[1])
    a = float(rng.uniform(0, 2 * math.pi))
    end = np.array([cx + math.cos(a) * size * rng.uniform(0.1, 0.6), cy + math.sin(a) * size * rng.uniform(0.1, 0.6)])
    start = end + np.array([math.cos(a), math.sin(a)]) * max(img.shape[:2]) * 1.5
    width = size * float(rng.uniform(1.2, 3.0))
    colour = [(150, 180, 225), (95, 130, 185), (55, 75, 110), (40, 40, 45), (170, 170, 175), (120, 60, 40)][
        int(rng.integers(6))]
    d = (end - start) / np.linalg.norm(end - start)
    n = np.array([-d[1], d[0]]) * width / 2
    poly = np.array([start + n, end + n, end + d * width / 2, end - n, start - n])
    _blend_poly(img, mask, poly, colour, 1.0)
    lit = np.array([start + 0.3 * n, end + 0.3 * n, end - 0.1 * n, start - 0.1 * n])
    _blend_poly(img, mask, lit, tuple(min(255.0, c * 1.15) for c in colour), 0.6)


def _glare(img: U8, rng: np.random.Generator) -> None:
    """Reflections of lamps and windows: soft bright ellipses anywhere (they hide nothing)."""
    rows, cols = img.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        axes = (int(rng.uniform(4, 60)), int(rng.uniform(3, 30)))
        blur = float(rng.uniform(1.5, 8))
        pad = int(max(axes) + 3 * blur + 2)
        cx, cy = int(rng.uniform(0, cols)), int(rng.uniform(0, rows))
        x0, y0, x1, y1 = max(0, cx - pad), max(0, cy - pad), min(cols, cx + pad), min(rows, cy + pad)
        if x1 <= x0 or y1 <= y0:
            continue
        layer = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.ellipse(layer, (cx - x0, cy - y0), axes, float(rng.uniform(0, 180)), 0, 360, float(rng.uniform(0.3, 1.0)), -1)
        layer = cv2.GaussianBlur(layer, (0, 0), blur)
        tint = np.array([1.0, 1.0, float(rng.uniform(0.85, 1.1))], np.float32) * float(rng.uniform(60, 200))
        roi = img[y0:y1, x0:x1].astype(np.float32) + layer[..., None] * tint
        img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def _wear(img: U8, cloth: F64, boxes: Sequence[Box], rng: np.random.Generator) -> None:
    """Worn cloth: paler, greyer patches (the break area, the spots, along the cushions)."""
    rows, cols = img.shape[:2]
    region = np.zeros((rows, cols), np.uint8)
    cv2.fillPoly(region, [_fixed(cloth)], 255, cv2.LINE_AA, SHIFT)
    for b in boxes:  # keep the balls themselves as they are
        cv2.ellipse(region, (int((b[0] + b[2]) / 2), int((b[1] + b[3]) / 2)),
                    (int((b[2] - b[0]) * 0.7) + 1, int((b[3] - b[1]) * 0.7) + 1), 0, 0, 360, 0, -1)
    noise = rng.random((max(2, rows // 90), max(2, cols // 90))).astype(np.float32)
    field = cv2.resize(noise, (cols, rows), interpolation=cv2.INTER_CUBIC)
    patches = np.clip((field - float(rng.uniform(0.45, 0.75))) * 4.0, 0, 1) * (region.astype(np.float32) / 255.0)
    if rng.random() < 0.5:  # fine scuffs along the grain
        streak = cv2.GaussianBlur(rng.random((rows, cols)).astype(np.float32), (0, 0), 1.2)
        patches *= 0.7 + 0.6 * streak
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
    k = float(rng.uniform(0.1, 0.3))
    hsv[..., 1] *= 1.0 - k * patches
    hsv[..., 2] = np.minimum(255.0, hsv[..., 2] * (1.0 + 0.6 * k * patches))
    img[:] = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR)


def _light(img: U8, rng: np.random.Generator) -> None:
    """Colour cast, gamma and a lamp's falloff over the whole frame."""
    rows, cols = img.shape[:2]
    gains = (rng.uniform(0.85, 1.15), rng.uniform(0.92, 1.08), rng.uniform(0.85, 1.15))
    gamma = float(rng.uniform(0.8, 1.25))
    ramp = np.arange(256, dtype=np.float64) / 255.0
    luts = [np.clip(np.power(ramp, gamma) * g * 255.0 + 0.5, 0, 255).astype(np.uint8) for g in gains]
    for c in range(3):
        img[..., c] = cv2.LUT(img[..., c], luts[c])
    small = (max(2, cols // 16), max(2, rows // 16))
    yy, xx = np.mgrid[0:small[1], 0:small[0]].astype(np.float32)
    cx, cy = float(rng.uniform(0, small[0])), float(rng.uniform(0, small[1]))
    d2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / float(small[0] ** 2 + small[1] ** 2)
    fall = cv2.resize(1.0 - float(rng.uniform(0.0, 0.6)) * d2, (cols, rows), interpolation=cv2.INTER_LINEAR)
    img[:] = cv2.multiply(img, cv2.merge([fall, fall, fall]), dtype=cv2.CV_8U)


def add_distractors(img: U8, spec: TableSpec, look: Look, boxes: Sequence[Box], cloth: F64,
                    rng: np.random.Generator) -> tuple[U8, U8]:
    """The frame with this draw's extras, and the mask of what they hide (255 = hidden)."""
    out = img.copy()
    mask = np.zeros(img.shape[:2], np.uint8)
    cam = look.camera
    if rng.random() < 0.4:
        _wear(out, cloth, boxes, rng)
    for _ in range(int(rng.choice([0, 0, 1, 2]))):
        _glass(out, mask, cam, spec, look, rng)
    if rng.random() < 0.3:
        _phone(out, mask, cam, spec, look, rng)
    for _ in range(int(rng.choice([0, 1, 1, 2]))):
        _chalk(out, mask, cam, spec, look, rng, boxes)
    if boxes and rng.random() < 0.2:
        _arm(out, mask, rng, boxes)
    if rng.random() < 0.35:
        _glare(out, rng)
    if rng.random() < 0.5:
        _light(out, rng)
    if rng.random() < 0.3:
        sigma = float(rng.uniform(1.0, 4.0))
        # from a child of the look's own generator, not OpenCV's process-wide one: a frame must not
        # depend on what the process drew before it (the set is built by several worker processes);
        # a child draws nothing from the look's stream, so the frames after this one are unchanged
        noise = np.rint(rng.spawn(1)[0].normal(0.0, sigma, out.shape)).astype(np.int16)
        out = np.asarray(cv2.add(out, noise, dtype=cv2.CV_8U), dtype=np.uint8)
    return out, mask
