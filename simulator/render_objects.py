"""What each object of a frame turns into: shaded parts in drawing order, and the shadows it casts.

Pool balls carry the standard colours (1 yellow, 2 blue, 3 red, 4 purple, 5 orange, 6 green,
7 maroon, 8 black; 9-15 the same colours as stripes), bar-billiards balls are ivory whites and
one red, carrom men are cream and black discs with turned grooves, the queen red, the striker
larger with a printed ring. A standing bar-billiards pin is a base disc, a stem and a mushroom
head (from above, a small disc with its cap); a fallen pin lies along its angle, base at one end,
head at the other.

Heights follow the physics' convention: an object's ``z`` is its lift above where it rests (0 on
the cloth), so a ball's centre is ``radius + z`` above the cloth and a carrom man's top face
``thickness + z``. A ball that left the table is drawn on the rail top when it stopped within
the rails, and on the floor below otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.spec import TableSpec
from tableref.simulator.render_look import CARROM_THICKNESS_MM, Look
from tableref.simulator.render_scene import FLOOR_DEPTH_MM, cone_factor, irradiance
from tableref.simulator.render_shapes import Blob, Capsule, Shape
from tableref.simulator.render_sprites import BallPattern, DiscJob, ShadowJob, SphereJob, shadow_on_cloth
from tableref.simulator.state import ObjectState, ObjectStatus

F64 = NDArray[np.float64]

_POOL_RGB: dict[int, tuple[int, int, int]] = {
    1: (245, 190, 20), 2: (25, 60, 170), 3: (205, 30, 35), 4: (85, 40, 125), 5: (240, 105, 25),
    6: (20, 120, 65), 7: (125, 35, 30), 8: (18, 18, 20),
}
_CUE_BALL_RGB = (242, 240, 230)
_PIN_RGB = {"white": (238, 236, 228), "black": (26, 26, 28), "red": (195, 28, 32)}
_BAR_RGB = {"white": (238, 232, 215), "red": (195, 25, 30)}
_CARROM_RGB = {"white": (226, 204, 158), "black": (42, 32, 27), "queen": (200, 32, 52), "striker": (238, 234, 222)}
_STRIKER_RINGS: tuple[tuple[tuple[int, int, int], tuple[tuple[float, float, float], ...]], ...] = (
    ((200, 30, 30), ((0.55, 0.66, -1.0), (0.0, 0.12, -1.0))),
    ((30, 60, 170), ((0.72, 0.80, -1.0), (0.30, 0.36, -1.0))),
    ((20, 20, 20), ((0.80, 0.86, -1.0),)),
    ((30, 140, 60), ((0.45, 0.58, -1.0), (0.0, 0.10, -1.0))),
)
PIN_BASE_MM = 4.0


def _bgr01(rgb: tuple[int, int, int], jitter: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> tuple[float, float, float]:
    return (min(1.0, rgb[2] / 255 * jitter[0]), min(1.0, rgb[1] / 255 * jitter[1]), min(1.0, rgb[0] / 255 * jitter[2]))


def pool_number(label: str) -> int:
    """``ball-9`` -> 9 (0 for the cue or zero ball, and for labels that are not pool balls)."""
    head, _, num = label.rpartition("-")
    return int(num) if head == "ball" and num.isdigit() and 0 <= int(num) <= 15 else 0


def ball_pattern(spec: TableSpec, obj: ObjectState, look: Look) -> BallPattern:
    j = look.piece_jitter
    if spec.name == "pool":
        n = pool_number(obj.label or obj.id)
        if n == 0:
            return BallPattern(_bgr01(_CUE_BALL_RGB, j))
        base = _POOL_RGB[n if n <= 8 else n - 8]
        return BallPattern(_bgr01(base, j), stripe=n > 8, number=n)
    colour = obj.colour or ("red" if obj.kind == "red" else "white")
    return BallPattern(_bgr01(_BAR_RGB.get(colour, _BAR_RGB["white"]), j), gloss=0.8)


@dataclass(frozen=True)
class SpherePart:
    samples: tuple[SphereJob, ...]
    blur: tuple[float, float] = (0.0, 0.0)  # image travel over the exposure (px): motion blur


@dataclass(frozen=True)
class DiscPart:
    samples: tuple[DiscJob, ...]
    blur: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class ShapePart:
    shapes: tuple[Shape, ...]


@dataclass(frozen=True)
class CardPart:
    obj: ObjectState


Part = SpherePart | DiscPart | ShapePart | CardPart


@dataclass(frozen=True)
class Plan:
    """One object's parts in drawing order, its sort key and its shadows."""

    id: str
    order: tuple[float, float]  # sort key: drawn in ascending order
    parts: tuple[Part, ...]
    blob_shadows: tuple[ShadowJob, ...] = ()
    casters: tuple[Shape, ...] = field(default_factory=tuple)
    shadow_polys: tuple[tuple[F64, float], ...] = ()


class ObjectPainter:
    """Turns object states into :class:`Plan` s for one clip's table and look."""

    def __init__(self, spec: TableSpec, look: Look) -> None:
        self.spec = spec
        self.look = look
        self.cam = look.camera
        self.pins = {p.id: p for p in spec.pins}
        x0, y0, x1, y1 = look.furniture.outer(spec)
        self._outer = (x0, y0, x1, y1)

    # -- geometry ---------------------------------------------------------------------------------
    def ball_centre_z(self, obj: ObjectState) -> float:
        """Height of a ball's centre above the cloth (see the module docstring)."""
        r = obj.radius
        if obj.status is ObjectStatus.OFF_TABLE:
            x0, y0, x1, y1 = self._outer
            if x0 <= obj.x <= x1 and y0 <= obj.y <= y1 and not self.spec.on_surface(obj.x, obj.y):
                return r + self.look.furniture.rail_height_mm
            return r - FLOOR_DEPTH_MM
        return r + max(0.0, obj.z)

    def visible_centre(self, obj: ObjectState) -> tuple[float, float, float]:
        """The 3D point a camera sees as the object's centre (a ball's centre, a man's top face)."""
        if self.spec.name == "carrom":
            return (obj.x, obj.y, CARROM_THICKNESS_MM + max(0.0, obj.z))
        if obj.kind == "card":
            return (obj.x, obj.y, self.look.object_plane_z + max(0.0, obj.z))
        if obj.kind == "pin":
            h = self._pin_height(obj)
            return (obj.x, obj.y, h if obj.status is ObjectStatus.ON_TABLE else obj.radius)
        return (obj.x, obj.y, self.ball_centre_z(obj))

    def _pin_height(self, obj: ObjectState) -> float:
        spec_pin = self.pins.get(obj.id)
        return spec_pin.height if spec_pin is not None else 4.0 * obj.radius

    def _depth(self, p: tuple[float, float, float]) -> float:
        return float(self.cam.depth(np.array([p]))[0])

    # -- shadows ----------------------------------------------------------------------------------
    def sphere_shadows(self, x: float, y: float, zc: float, r: float, contact: float = 1.0) -> list[ShadowJob]:
        """One soft shadow per lamp (as dark as that lamp's share of the light there) and a contact shadow."""
        look = self.look
        out = []
        e_total = float(irradiance(look, np.array([[x, y, 0.0]]))[0])
        for light in look.lights:
            if zc >= light.z - 50:
                continue
            k = light.z / (light.z - zc)
            sx, sy = light.x + (x - light.x) * k, light.y + (y - light.y) * k
            d2 = (sx - light.x) ** 2 + (sy - light.y) ** 2
            direct = light.intensity * light.z ** 2 / (d2 + light.z ** 2) * light.z / math.sqrt(d2 + light.z ** 2)
            direct *= float(cone_factor(light, np.array([[x, y, zc]]))[0])
            if direct <= 1e-3:
                continue
            share = direct / max(e_total, 1e-6)
            strength = min(0.9, share * (0.5 + look.shadow_strength))
            if strength < 0.04:
                continue
            minor = r * k
            major = minor * math.sqrt(1.0 + d2 / light.z ** 2)
            ang = math.atan2(sy - light.y, sx - light.x)
            px = self.cam.project(np.array([[sx, sy, 0.0]]))[0]
            soft = look.shadow_softness_mm * (0.5 + zc / 40.0)
            out.append(shadow_on_cloth(self.cam, sx, sy, (major, minor), ang, strength, soft,
                                       (float(px[0]), float(px[1]))))
        if contact > 0:
            px = self.cam.project(np.array([[x, y, 0.0]]))[0]
            out.append(shadow_on_cloth(self.cam, x, y, (0.6 * r, 0.6 * r), 0.0, 0.55 * contact, 0.5 * r,
                                       (float(px[0]), float(px[1]))))
        return out

    # -- plans ------------------------------------------------------------------------------------
    def blur_px(self, x: float, y: float, z: float, travel: tuple[float, float]) -> tuple[float, float]:
        """How far the object's image moves while the shutter is open (``travel`` in table mm)."""
        if travel == (0.0, 0.0):
            return (0.0, 0.0)
        dx, dy = travel
        a, b = self.cam.project(np.array([[x - dx / 2, y - dy / 2, z], [x + dx / 2, y + dy / 2, z]]))
        return (float(b[0] - a[0]), float(b[1] - a[1]))

    def plan(self, obj: ObjectState, samples: Sequence[tuple[float, float]], orient: F64, lift: float = 0.0,
             travel: tuple[float, float] = (0.0, 0.0)) -> Plan | None:
        """The object drawn at ``samples`` (one position, or several to average), moving ``travel`` mm
        while the shutter is open."""
        if obj.kind == "card":
            order = (0.0, float(obj.layer) + (1000.0 if lift else 0.0))
            lifted = obj if not lift else _with_z(obj, obj.z + lift)
            return Plan(obj.id, order, (CardPart(lifted),))
        if obj.kind == "pin":
            return self._pin(obj)
        if self.spec.name == "carrom":
            return self._disc(obj, samples, lift, travel)
        return self._ball(obj, samples, orient, lift, travel)

    def hidden_by_table(self, point: tuple[float, float, float]) -> bool:
        """True for a point below the table top (on the floor) that the table hides from the camera."""
        x0, y0, x1, y1 = self._outer
        z = self.look.furniture.rail_height_mm
        ring = self.cam.project(np.array([(x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z)]))
        p = self.cam.project(np.array([point]))[0]
        inside = cv2.pointPolygonTest(ring.astype(np.float32).reshape(-1, 1, 2), (float(p[0]), float(p[1])), False)
        return bool(inside >= 0)

    def _ball(self, obj: ObjectState, samples: Sequence[tuple[float, float]], orient: F64, lift: float,
              travel: tuple[float, float]) -> Plan | None:
        zc = self.ball_centre_z(obj) + lift
        if zc < 0 and self.hidden_by_table((obj.x, obj.y, zc)):
            return None  # on the floor, out of sight under the table
        pattern = ball_pattern(self.spec, obj, self.look)
        pts = np.array([(sx, sy, zc) for sx, sy in samples])
        obs = self.cam.project(pts)
        und = self.cam.project_undistorted(pts)
        jobs = tuple(
            SphereJob(sx, sy, zc, obj.radius, orient, pattern, (float(o[0]), float(o[1])), (float(u[0]), float(u[1])))
            for (sx, sy), o, u in zip(samples, obs, und, strict=True))
        mid = samples[len(samples) // 2]
        on_floor = zc < 0
        shadows = () if on_floor or zc > 400 else tuple(
            self.sphere_shadows(mid[0], mid[1], zc, obj.radius, contact=max(0.0, 1.0 - (zc - obj.radius) / 30.0)))
        blur = self.blur_px(mid[0], mid[1], zc, travel)
        return Plan(obj.id, (1.0, -self._depth((obj.x, obj.y, zc + obj.radius))), (SpherePart(jobs, blur),), shadows)

    def _disc(self, obj: ObjectState, samples: Sequence[tuple[float, float]], lift: float,
              travel: tuple[float, float]) -> Plan:
        look = self.look
        j = look.piece_jitter
        kind = obj.kind if obj.kind in _CARROM_RGB else "white"
        top = _bgr01(_CARROM_RGB[kind], j)
        side = tuple(c * 0.8 for c in top)
        rings: tuple[tuple[float, float, float], ...] = ((0.58, 0.64, 0.22), (0.26, 0.31, 0.18))
        ring_bgr: tuple[float, float, float] | None = None
        if kind == "striker":
            colour, rings = _STRIKER_RINGS[look.striker_style % len(_STRIKER_RINGS)]
            ring_bgr = _bgr01(colour)
        elif kind == "black":
            rings = ((0.58, 0.64, -1.0), (0.26, 0.31, -1.0))
            ring_bgr = _bgr01((70, 55, 45))
        thick = CARROM_THICKNESS_MM + max(0.0, obj.z) + lift
        pts = np.array([(sx, sy, thick) for sx, sy in samples])
        obs = self.cam.project(pts)
        und = self.cam.project_undistorted(pts)
        jobs = tuple(
            DiscJob(sx, sy, obj.radius, thick, top, (side[0], side[1], side[2]), rings, ring_bgr,
                    (float(o[0]), float(o[1])), (float(u[0]), float(u[1])))
            for (sx, sy), o, u in zip(samples, obs, und, strict=True))
        mid = samples[len(samples) // 2]
        shadows = tuple(self.sphere_shadows(mid[0], mid[1], thick * 0.6, obj.radius * 1.02, contact=0.7))
        blur = self.blur_px(mid[0], mid[1], thick, travel)
        return Plan(obj.id, (1.0, -self._depth((obj.x, obj.y, thick))), (DiscPart(jobs, blur),), shadows)

    def _pin(self, obj: ObjectState) -> Plan:
        look = self.look
        rgb = _PIN_RGB.get(obj.colour or "white", _PIN_RGB["white"])
        albedo = _bgr01(rgb, look.piece_jitter)
        bgr255 = (round(albedo[0] * 255), round(albedo[1] * 255), round(albedo[2] * 255))
        r = obj.radius
        h = self._pin_height(obj)
        head_r = 0.82 * r
        stem_r = 0.42 * r
        ident = np.eye(3)
        pattern = BallPattern(albedo, gloss=0.9)
        if obj.status is ObjectStatus.ON_TABLE:
            zh = h - head_r
            head = (obj.x, obj.y, zh)
            hp = self.cam.project(np.array([head]))[0]
            hu = self.cam.project_undistorted(np.array([head]))[0]
            bp = self.cam.project(np.array([[obj.x, obj.y, PIN_BASE_MM]]))[0]
            bu = self.cam.project_undistorted(np.array([[obj.x, obj.y, PIN_BASE_MM]]))[0]
            side = (albedo[0] * 0.8, albedo[1] * 0.8, albedo[2] * 0.8)
            base = DiscJob(obj.x, obj.y, r, PIN_BASE_MM, albedo, side,
                           ((0.8, 0.86, 0.25),), None, (float(bp[0]), float(bp[1])), (float(bu[0]), float(bu[1])))
            stem = Capsule((obj.x, obj.y, PIN_BASE_MM), (obj.x, obj.y, zh), stem_r, stem_r, bgr255, gloss=0.5)
            cap = SphereJob(obj.x, obj.y, zh, head_r, ident, pattern, (float(hp[0]), float(hp[1])),
                            (float(hu[0]), float(hu[1])))
            casters: tuple[Shape, ...] = (Capsule((obj.x, obj.y, 0.0), (obj.x, obj.y, zh), stem_r, stem_r, bgr255),
                                          Blob(head, (head_r, head_r), 0.0, bgr255))
            parts: tuple[Part, ...] = (DiscPart((base,)), ShapePart((stem,)), SpherePart((cap,)))
            shadows = tuple(self.sphere_shadows(obj.x, obj.y, 2.0, r, contact=0.8)[-1:])
            return Plan(obj.id, (1.0, -self._depth((obj.x, obj.y, h))), parts, shadows, casters)
        # fallen: lying along its angle, the head towards ``angle``
        a = math.radians(obj.angle)
        ux, uy = math.cos(a), math.sin(a)
        bx, by = obj.x - ux * h / 2, obj.y - uy * h / 2
        hx, hy = obj.x + ux * (h / 2 - head_r), obj.y + uy * (h / 2 - head_r)
        head = (hx, hy, head_r)
        hp = self.cam.project(np.array([head]))[0]
        hu = self.cam.project_undistorted(np.array([head]))[0]
        rim = Blob((bx + ux * PIN_BASE_MM / 2, by + uy * PIN_BASE_MM / 2, r), (PIN_BASE_MM / 2 + 0.5, r), a, bgr255)
        stem = Capsule((bx + ux * PIN_BASE_MM, by + uy * PIN_BASE_MM, r * 0.9), (hx, hy, head_r), stem_r, stem_r,
                       bgr255, gloss=0.5)
        cap = SphereJob(hx, hy, head_r, head_r, ident, pattern, (float(hp[0]), float(hp[1])), (float(hu[0]), float(hu[1])))
        shadows = tuple(self.sphere_shadows(hx, hy, head_r, head_r, contact=0.8))
        return Plan(obj.id, (1.0, -self._depth((obj.x, obj.y, r))), (ShapePart((stem, rim)), SpherePart((cap,))),
                    shadows, (stem, rim))


def _with_z(obj: ObjectState, z: float) -> ObjectState:
    from dataclasses import replace

    return replace(obj, z=z)
