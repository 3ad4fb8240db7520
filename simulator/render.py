"""The renderer: a frame state in, the image a mounted camera would record out.

Per clip, the static scene is drawn once (``render_scene``); per frame, the renderer copies it and
adds only what changes, each in a small region: soft shadows, the objects (shaded in one batch;
re-used from the previous frame when an object has not moved), the player and cue, then sensor
noise and, for some seeds, a JPEG round trip. The video encoder adds its own compression.

Frames must be rendered in order: the renderer remembers how far each ball has rolled to turn
its number and stripe with it, and draws the noise of successive frames from one stream, so a
clip renders to the same bytes every time.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.spec import TableSpec
from tableref.simulator.cards import CardDesign
from tableref.simulator.render_effects import (
    NoiseBank,
    average,
    composite,
    darken,
    jpeg_round_trip,
    motion_blur,
)
from tableref.simulator.render_look import Look
from tableref.simulator.render_objects import CardPart, DiscPart, ObjectPainter, Plan, ShapePart, SpherePart
from tableref.simulator.render_player import PlayerPainter
from tableref.simulator.render_scene import build_background
from tableref.simulator.render_shapes import (
    Shape,
    apply_polygon_shadows,
    draw_shapes,
    on_cloth,
    shadow_polygons,
)
from tableref.simulator.render_sprites import Sprite, render_discs, render_shadows, render_spheres
from tableref.simulator.state import FrameState, ObjectState, ObjectStatus

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
F64 = NDArray[np.float64]

HELD_LIFT_MM = 35.0


def random_rotation(seed: int, key: str) -> F64:
    """A uniformly random 3D rotation for one object of one clip (a ball's initial orientation)."""
    rng = np.random.default_rng([seed, zlib.crc32(key.encode())])
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def roll(orient: F64, dx: float, dy: float, radius: float) -> F64:
    """Turn a ball's orientation as it rolls (dx, dy) mm on the cloth without slipping."""
    d = math.hypot(dx, dy)
    if d < 1e-9 or radius <= 0:
        return orient
    axis = np.array([-dy / d, dx / d, 0.0]) * (d / radius)
    rot, _ = cv2.Rodrigues(axis)
    return np.asarray(rot @ orient, dtype=np.float64)


@dataclass(frozen=True)
class _Rendered:
    """One object drawn: its parts, its shadows, where it lies in the frame."""

    key: tuple[object, ...]
    order: tuple[float, float]
    parts: tuple[Sprite | tuple[Shape, ...], ...]
    shadow: tuple[int, int, F32] | None
    casters: tuple[Shape, ...]
    card_shadow: F64 | None
    bbox: tuple[int, int, int, int]  # x0, y0, x1, y1 of its sprites (empty when it has none)


def _union(boxes: Sequence[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
    if not boxes:
        return (0, 0, 0, 0)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _combine_shadows(shadows: Sequence[tuple[int, int, F32]]) -> tuple[int, int, F32] | None:
    """Several soft shadows of one object as one region: 1 - prod(1 - a)."""
    if not shadows:
        return None
    if len(shadows) == 1:
        return shadows[0]
    x0, y0, x1, y1 = _union([(x, y, x + a.shape[1], y + a.shape[0]) for x, y, a in shadows])
    keep = np.ones((y1 - y0, x1 - x0), np.float32)
    for x, y, a in shadows:
        h, w = a.shape
        keep[y - y0:y - y0 + h, x - x0:x - x0 + w] *= 1.0 - a
    return (x0, y0, 1.0 - keep)


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class Renderer:
    """Renders the frames of one clip (one table, one look) in order."""

    def __init__(self, spec: TableSpec, look: Look, *, card_design: CardDesign | None = None,
                 orientations: Mapping[str, F64] | None = None) -> None:
        """``card_design`` overrides the deck the seed picks (``cards.design_for_seed``);
        ``orientations`` fixes balls' initial orientations (ball frame -> table frame) by id, the
        others are drawn from the look's seed."""
        self.spec = spec
        self.look = look
        self.cam = look.camera
        self.background = build_background(spec, look)
        self.objects = ObjectPainter(spec, look)
        self.player = PlayerPainter(spec, look)
        self.cards = None
        if spec.name == "cards":
            from tableref.simulator.cards import design_for_seed
            from tableref.simulator.render_cards import CardPainter

            design = card_design if card_design is not None else design_for_seed(look.seed)
            self.cards = CardPainter(look, design, self.background.gain, (spec.length_mm / 2, spec.width_mm / 2))
        self.noise = NoiseBank(self.cam.width, self.cam.height, look.noise_sigma, look.noise_seed,
                               self.background.image)
        self._orient: dict[str, F64] = {k: np.asarray(v, dtype=np.float64) for k, v in (orientations or {}).items()}
        self._last: dict[str, ObjectState] = {}
        self._cache: dict[str, _Rendered] = {}
        self._prev_keys: dict[str, tuple[object, ...]] = {}
        self._still_keys: dict[str, tuple[object, ...]] = {}
        self._still: U8 = self.background.image.copy()

    # -- geometry the truth and the tests need ----------------------------------------------------
    def centre_pixel(self, obj: ObjectState) -> tuple[float, float]:
        """Where the object's visible centre lands in the frame (lens distortion included)."""
        p = self.cam.project(np.array([self.objects.visible_centre(obj)]))[0]
        return (float(p[0]), float(p[1]))

    # -- per frame --------------------------------------------------------------------------------
    def _orientation(self, obj: ObjectState) -> F64:
        o = self._orient.get(obj.id)
        if o is None:
            o = random_rotation(self.look.orientation_seed, obj.id)
        last = self._last.get(obj.id)
        if last is not None and last.status is ObjectStatus.ON_TABLE and obj.status is ObjectStatus.ON_TABLE:
            o = roll(o, obj.x - last.x, obj.y - last.y, obj.radius)
        self._orient[obj.id] = o
        self._last[obj.id] = obj
        return o

    def _travel(self, obj: ObjectState) -> tuple[float, float]:
        """How far the object moves (mm) while the shutter is open: the length of its motion blur."""
        if obj.speed <= 0 or obj.kind in ("card", "pin"):
            return (0.0, 0.0)
        te = self.look.exposure / self.cam.fps
        return (obj.vx * te, obj.vy * te)

    def render(self, frame: FrameState) -> U8:
        """The camera image of ``frame`` (BGR ``uint8``, height x width x 3)."""
        held = {h.holding: h for h in frame.hands if h.holding}
        current: dict[str, _Rendered] = {}
        pending: list[tuple[str, tuple[object, ...], Plan]] = []
        for obj in frame.objects:
            orient = self._orientation(obj) if obj.kind not in ("card", "pin") else np.eye(3)
            in_hand = obj.id in held
            visible = obj.status in (ObjectStatus.ON_TABLE, ObjectStatus.FALLEN) or in_hand or (
                obj.status is ObjectStatus.OFF_TABLE and obj.kind != "card")
            if not visible:
                continue
            lift = HELD_LIFT_MM if in_hand and obj.status is not ObjectStatus.ON_TABLE else 0.0
            travel = self._travel(obj)
            key = (obj.x, obj.y, obj.z, obj.status, obj.angle, obj.face_up, obj.layer, lift, travel, in_hand,
                   orient.tobytes())
            cached = self._cache.get(obj.id)
            if cached is not None and cached.key == key:
                current[obj.id] = cached
                continue
            plan = self.objects.plan(obj, [(obj.x, obj.y)], orient, lift, travel)
            if plan is not None:
                pending.append((obj.id, key, plan))
        for r_id, r in self._render_plans(pending):
            current[r_id] = r
        self._cache = current

        # what has not changed since the last frame lives in the still layer, drawn once
        still = {i: r for i, r in current.items() if self._prev_keys.get(i) == r.key and i not in held}
        self._prev_keys = {i: r.key for i, r in current.items()}
        still_keys = {i: r.key for i, r in still.items()}
        if still_keys != self._still_keys:
            self._still = self.background.image.copy()
            self._draw_objects(self._still, list(still.values()))
            self._still_keys = still_keys
        img = self._still.copy()
        moving = [r for i, r in current.items() if i not in still]
        player: list[Shape] = []
        if frame.cue is not None:
            player += self.player.cue_shapes(frame.cue)
        by_id = {o.id: o for o in frame.objects}
        for h in frame.hands:
            obj = by_id.get(h.holding) if h.holding else None
            radius = obj.radius if obj is not None and obj.kind != "card" else 0.0
            player += self.player.hand_shapes(h, radius)
        self._draw_objects(img, moving, player)
        # a still object nearer the camera than a moving one that overlaps it is drawn again over it
        if moving and still:
            for r in sorted(still.values(), key=lambda r: r.order):
                if any(_overlaps(r.bbox, m.bbox) and r.order > m.order for m in moving):
                    self._draw_parts(img, r)
        if player:
            draw_shapes(img, player, self.look, self.background.gain)
        if self.look.auto_exposure:  # the camera's own exposure, before its sensor noise
            img = np.asarray(cv2.convertScaleAbs(img, alpha=self.look.gain_at(frame.t)), dtype=np.uint8)
        self.noise.apply(img)
        if self.look.jpeg_quality:
            img = jpeg_round_trip(img, self.look.jpeg_quality)
        return img

    def _draw_parts(self, img: U8, r: _Rendered) -> None:
        for part in r.parts:
            if isinstance(part, Sprite):
                composite(img, part)
            else:
                draw_shapes(img, part, self.look, self.background.gain)

    def _draw_objects(self, img: U8, objs: Sequence[_Rendered], player: Sequence[Shape] = ()) -> None:
        """Shadows on the cloth first (objects', then the player's), then the objects far to near."""
        for r in objs:
            if r.shadow is not None:
                darken(img, *r.shadow)
        casters = [c for r in objs for c in r.casters]
        if casters:
            apply_polygon_shadows(img, shadow_polygons(casters, self.look), self.look, 0.5)
        cards = [r.card_shadow for r in objs if r.card_shadow is not None]
        if cards:
            apply_polygon_shadows(img, [(on_cloth(self.look.main_light, c), 1.5) for c in cards], self.look, 0.35)
        if player:
            apply_polygon_shadows(img, shadow_polygons(player, self.look), self.look,
                                  min(0.75, 0.3 + self.look.shadow_strength * 0.6))
        for r in sorted(objs, key=lambda r: r.order):
            self._draw_parts(img, r)

    def _render_plans(self, pending: Sequence[tuple[str, tuple[object, ...], Plan]]) -> list[tuple[str, _Rendered]]:
        spheres = [j for _, _, p in pending for part in p.parts if isinstance(part, SpherePart) for j in part.samples]
        discs = [j for _, _, p in pending for part in p.parts if isinstance(part, DiscPart) for j in part.samples]
        blobs = [s for _, _, p in pending for s in p.blob_shadows]
        s_out = iter(render_spheres(spheres, self.look, self.background.gain, self.background.cloth_bgr))
        d_out = iter(render_discs(discs, self.look, self.background.gain))
        b_out = iter(render_shadows(blobs))
        out = []
        for obj_id, key, plan in pending:
            parts: list[Sprite | tuple[Shape, ...]] = []
            card_shadow = None
            for part in plan.parts:
                if isinstance(part, SpherePart):
                    parts.append(motion_blur(average([next(s_out) for _ in part.samples]), part.blur))
                elif isinstance(part, DiscPart):
                    parts.append(motion_blur(average([next(d_out) for _ in part.samples]), part.blur))
                elif isinstance(part, ShapePart):
                    parts.append(part.shapes)
                elif isinstance(part, CardPart) and self.cards is not None:
                    sprite = self.cards.render(part.obj)
                    if sprite is not None:
                        parts.append(sprite)
                        card_shadow = self.cards.outline(part.obj)
            shadow = _combine_shadows([next(b_out) for _ in plan.blob_shadows])
            boxes = [(p.x0, p.y0, p.x0 + p.alpha.shape[1], p.y0 + p.alpha.shape[0]) for p in parts
                     if isinstance(p, Sprite)]
            out.append((obj_id, _Rendered(key, plan.order, tuple(parts), shadow, plan.casters, card_shadow,
                                          _union(boxes))))
        return out


def render_frames(renderer: Renderer, frames: Sequence[FrameState]) -> list[U8]:
    """Render a sequence of frames in order (a convenience for tests and small clips)."""
    return [renderer.render(f) for f in frames]
