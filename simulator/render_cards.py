"""Playing cards on the table: the deck's sprite warped through the camera onto the card's corners.

``simulator/cards.py`` draws an upright card at a chosen scale; here it is carried into the frame
by the perspective transform that maps its four corners to the projections of the card's corners
on the table (at the height of the card in its stack), lit by the lamps like the cloth under it.
The sprite is drawn at about the scale the camera sees the table, so the warp neither blurs the
index nor aliases it.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.simulator.cards import CardDesign, card_corners_mm, card_sprite
from tableref.simulator.render_look import CARD_PLANE_MM, Look
from tableref.simulator.render_scene import irradiance
from tableref.simulator.render_sprites import Sprite
from tableref.simulator.state import ObjectState

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]


class CardPainter:
    """Warps card sprites into frames of one clip (one deck design, one camera)."""

    def __init__(self, look: Look, design: CardDesign, gain: float, table_centre: tuple[float, float]) -> None:
        self.look = look
        self.design = design
        self.gain = gain
        cam = look.camera
        depth = float(cam.depth(np.array([[table_centre[0], table_centre[1], 0.0]]))[0])
        near = depth * 0.75  # the nearest card is closer than the centre under a tilted camera
        self.px_per_mm = float(min(40.0, max(1.0, 1.25 * cam.fx / near)))
        self._premult: dict[tuple[str | None, bool], tuple[F32, F32]] = {}

    def _sprite(self, label: str | None, face_up: bool) -> tuple[F32, F32]:
        key = (label if face_up else None, face_up)
        if key not in self._premult:
            bgra = card_sprite(key[0], self.design, self.px_per_mm, face_up)
            a = bgra[..., 3].astype(np.float32) / 255.0
            self._premult[key] = (bgra[..., :3].astype(np.float32) * a[..., None], a)
        return self._premult[key]

    def corners_px(self, obj: ObjectState) -> F64:
        """Observed pixels of the card's sprite corners (top-left, top-right, bottom-right, bottom-left)."""
        z = CARD_PLANE_MM + max(0.0, obj.z)
        pts = np.array([(x, y, z) for x, y in card_corners_mm(obj.x, obj.y, obj.angle)])
        return self.look.camera.project(pts)

    def render(self, obj: ObjectState) -> Sprite | None:
        colour, alpha = self._sprite(obj.label or None, obj.face_up)
        h, w = alpha.shape
        dst = self.corners_px(obj)
        x0, y0 = int(math.floor(dst[:, 0].min())) - 1, int(math.floor(dst[:, 1].min())) - 1
        x1, y1 = int(math.ceil(dst[:, 0].max())) + 2, int(math.ceil(dst[:, 1].max())) + 2
        cam = self.look.camera
        if x1 <= 0 or y1 <= 0 or x0 >= cam.width or y0 >= cam.height:
            return None
        src = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], np.float32)
        M = cv2.getPerspectiveTransform(src, (dst - np.array([x0, y0])).astype(np.float32))
        size = (x1 - x0, y1 - y0)
        col = cv2.warpPerspective(colour, M, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        a = cv2.warpPerspective(alpha, M, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        e = float(irradiance(self.look, np.array([[obj.x, obj.y, 0.0]]))[0]) * self.gain
        wb = np.asarray(self.look.white_balance, np.float32) * e
        return Sprite(x0, y0, (col * wb).astype(np.float32), a.astype(np.float32))

    def outline(self, obj: ObjectState, lift: float = 1.5) -> F64:
        """The card's outline in table mm at a small height (its shadow caster: a card never lies quite flat)."""
        z = CARD_PLANE_MM + max(0.0, obj.z) + lift
        return np.array([(x, y, z) for x, y in card_corners_mm(obj.x, obj.y, obj.angle)])
