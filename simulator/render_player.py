"""The player the camera sees for each shot: the cue, the bridge hand, the arms, the body at the edge.

A real overhead camera sees far more than balls: a cue with its tip, ferrule, shaft and butt
lying at a slant over the cloth; the bridge hand under it with fingers spread; the forearm and
sleeve coming from the player leaning over the rail; the back hand gripping the butt; the head
and shoulders beyond the rail. A detector must learn that none of these is a ball. The player
is built from tapered cylinders and flat ellipses in table millimetres (heights above the cloth)
and projected through the camera, so what is higher is drawn larger and casts a shadow further
from its foot.

For carrom (``CueState.kind == "hand"``) the flicking hand rests on the board behind the
striker, index finger at the striker. A :class:`HandState` is a hand reaching in to place or
take an object (a ball in the D, a card on the board), its arm coming from ``angle``'s origin.
"""

from __future__ import annotations

import math

from tableref.calibration.spec import TableSpec
from tableref.simulator.render_look import Look
from tableref.simulator.render_shapes import Blob, Capsule, Shape
from tableref.simulator.state import CueState, HandState

Vec3 = tuple[float, float, float]
BGR = tuple[int, int, int]

_CUE_LENGTH = {"pool": 1470.0, "bar-billiards": 1300.0}
#: shoulder height over the playing surface of a player reaching in: standing at a pool table,
#: kneeling or sitting at a carrom board, seated at a card table
_SHOULDER_Z = {"carrom": 300.0, "cards": 250.0}


def _mix(a: BGR, b: BGR, t: float) -> BGR:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _darker(c: BGR, f: float) -> BGR:
    return (round(c[0] * f), round(c[1] * f), round(c[2] * f))


class PlayerPainter:
    """Builds the player's shapes for one clip's table and look."""

    def __init__(self, spec: TableSpec, look: Look) -> None:
        self.spec = spec
        self.look = look
        self.p = look.player
        x0, y0, x1, y1 = look.furniture.outer(spec)
        self.outer = (x0, y0, x1, y1)
        self.tip_z = max(12.0, look.object_plane_z + 4.0) if spec.name != "carrom" else 12.0
        self.side = -1.0 if (look.seed % 9) == 4 else 1.0  # one player in nine is left-handed

    # -- helpers ----------------------------------------------------------------------------------
    def _edge_distance(self, x: float, y: float, ux: float, uy: float) -> float:
        """Distance from (x, y) along (ux, uy) to the outer edge of the rails (0 when already outside)."""
        x0, y0, x1, y1 = self.outer
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return 0.0
        ts = []
        if ux > 1e-9:
            ts.append((x1 - x) / ux)
        elif ux < -1e-9:
            ts.append((x0 - x) / ux)
        if uy > 1e-9:
            ts.append((y1 - y) / uy)
        elif uy < -1e-9:
            ts.append((y0 - y) / uy)
        return min(ts) if ts else 0.0

    def _arm(self, wrist: Vec3, shoulder: Vec3, bend: float) -> list[Shape]:
        """Forearm (skin, sleeve part-way) and upper arm (sleeve) from the wrist to the shoulder."""
        p = self.p
        ex = (wrist[0] + shoulder[0]) / 2
        ey = (wrist[1] + shoulder[1]) / 2
        ez = max(wrist[2], shoulder[2]) + bend
        elbow = (ex, ey, ez)
        out: list[Shape] = []
        t = 1.0 - p.sleeve_len
        cut = (wrist[0] + (elbow[0] - wrist[0]) * t, wrist[1] + (elbow[1] - wrist[1]) * t,
               wrist[2] + (elbow[2] - wrist[2]) * t)
        if t > 0.02:
            out.append(Capsule(wrist, cut, 27.0, 27.0 + 10.0 * t, p.skin_bgr))
        if t < 0.98:
            out.append(Capsule(cut, elbow, 36.0, 44.0, p.sleeve_bgr))
        out.append(Capsule(elbow, shoulder, 46.0, 58.0, p.sleeve_bgr))
        return out

    def _hand_flat(self, at: Vec3, fwd: float, spread: float = 1.0) -> list[Shape]:
        """A hand resting on the cloth, fingers pointing along ``fwd`` (radians) from the palm at ``at``."""
        skin = self.p.skin_bgr
        out: list[Shape] = [Blob(at, (48.0, 40.0), fwd, skin)]
        ux, uy = math.cos(fwd), math.sin(fwd)
        for k, off in enumerate((-1.5, -0.5, 0.5, 1.5)):
            a = fwd + off * 0.16 * spread
            bx, by = at[0] + ux * 38 + off * 14 * -uy, at[1] + uy * 38 + off * 14 * ux
            length = 62.0 - abs(off) * 9 - (8 if k == 0 else 0)
            out.append(Capsule((bx, by, at[2] - 6), (bx + math.cos(a) * length, by + math.sin(a) * length, 7.0),
                               9.0, 7.5, _darker(skin, 0.97)))
        # thumb, raised along the side towards the cue
        ta = fwd - self.side * 0.9
        tx, ty = at[0] - self.side * 30 * -uy, at[1] - self.side * 30 * ux
        out.append(Capsule((tx, ty, at[2]), (tx + math.cos(ta) * 48, ty + math.sin(ta) * 48, at[2] + 12), 10.0, 8.0,
                           skin))
        return out

    def _body(self, centre: Vec3, facing: float) -> list[Shape]:
        """Shoulders, back and head seen from above, ``facing`` the direction the player looks."""
        p = self.p
        ux, uy = math.cos(facing), math.sin(facing)
        shoulders = Blob(centre, (130.0, 230.0), facing, p.sleeve_bgr)
        back = Blob((centre[0] - ux * 140, centre[1] - uy * 140, centre[2] - 60), (170.0, 200.0), facing,
                    _darker(p.sleeve_bgr, 0.9))
        neck = (centre[0] + ux * 80, centre[1] + uy * 80, centre[2] + 30)
        head = Blob((neck[0] + ux * 40, neck[1] + uy * 40, centre[2] + 80), (105.0, 80.0), facing, p.hair_bgr)
        return [back, shoulders, Blob(neck, (45.0, 45.0), facing, _darker(p.skin_bgr, 0.8)), head]

    # -- a cue shot -------------------------------------------------------------------------------
    def cue_shapes(self, cue: CueState) -> list[Shape]:
        if cue.kind == "hand":
            return self._flick(cue)
        p = self.p
        ux, uy = math.cos(cue.angle), math.sin(cue.angle)
        elev = math.radians(p.cue_elevation_deg)
        length = _CUE_LENGTH.get(self.spec.name, 1400.0)
        tx, ty = cue.tip

        def at(s: float, dz: float = 0.0) -> Vec3:
            return (tx - ux * s * math.cos(elev), ty - uy * s * math.cos(elev), self.tip_z + s * math.sin(elev) + dz)

        def radius(s: float) -> float:
            if s < 720:
                return 6.4 + 3.6 * s / 720
            return 10.0 + 4.8 * (s - 720) / (length - 720)

        shapes: list[Shape] = [
            Capsule(at(0), at(4), 6.4, 6.4, p.chalk_bgr, shadow=False),
            Capsule(at(4), at(26), 6.5, 6.6, (238, 240, 240), gloss=0.6, shadow=False),
        ]
        stops = [26.0, 200.0, 380.0, 560.0, 720.0]
        for a, b in zip(stops, stops[1:], strict=False):
            shapes.append(Capsule(at(a), at(b), radius(a), radius(b), p.cue_shaft_bgr, gloss=0.5))
        shapes.append(Capsule(at(720), at(745), radius(720), radius(745), (200, 205, 210), gloss=1.0))
        butt = [745.0, 900.0, 1050.0, 1200.0, length - 12]
        for k, (a, b) in enumerate(zip(butt, butt[1:], strict=False)):
            col = p.cue_butt_bgr if k != 0 else _mix(p.cue_butt_bgr, p.cue_shaft_bgr, 0.35)
            shapes.append(Capsule(at(a), at(b), radius(a), radius(b), col, gloss=0.8))
        shapes.append(Capsule(at(length - 12), at(length), radius(length - 12), radius(length), (20, 20, 20)))

        # bridge hand on the cloth under the shaft, fingers forward
        sb = 190.0
        bridge = (tx - ux * (sb + 45), ty - uy * (sb + 45), 26.0)
        shapes += self._hand_flat(bridge, cue.angle)
        # the player: at the rail behind the butt (or where the arms reach), facing along the cue
        out_s = self._edge_distance(tx, ty, -ux, -uy)
        body_s = max(760.0, out_s + 120.0)
        grip_s = min(length - 140.0, body_s + 330.0)
        perp = (-uy * self.side, ux * self.side)
        body = (tx - ux * body_s - perp[0] * 60, ty - uy * body_s - perp[1] * 60, self.tip_z + 330.0)
        shapes += self._body(body, cue.angle)
        grip = at(grip_s)
        fist = (grip[0] + perp[0] * 4, grip[1] + perp[1] * 4, grip[2] + 14)
        shapes.append(Blob(fist, (44.0, 34.0), cue.angle, p.skin_bgr))
        r_sh = (body[0] + perp[0] * 190, body[1] + perp[1] * 190, body[2] + 20)
        l_sh = (body[0] - perp[0] * 190 + ux * 40, body[1] - perp[1] * 190 + uy * 40, body[2] + 10)
        shapes += self._arm((fist[0], fist[1], fist[2] + 20), r_sh, 160.0)
        wrist = (bridge[0] - ux * 55, bridge[1] - uy * 55, 50.0)
        shapes += self._arm(wrist, l_sh, 60.0)
        return shapes

    def _flick(self, cue: CueState) -> list[Shape]:
        """Carrom: the hand flat on the board behind the striker, index finger at it."""
        p = self.p
        ux, uy = math.cos(cue.angle), math.sin(cue.angle)
        tx, ty = cue.tip
        knuckle = (tx - ux * 55, ty - uy * 55, 22.0)
        palm = (tx - ux * 95, ty - uy * 95, 30.0)
        shapes: list[Shape] = [
            Capsule(knuckle, (tx, ty, 9.0), 9.5, 8.0, p.skin_bgr),
            Blob(palm, (50.0, 42.0), cue.angle, p.skin_bgr),
        ]
        for off in (-1.0, 1.0, 2.0):
            bx, by = knuckle[0] + off * 17 * -uy, knuckle[1] + off * 17 * ux
            shapes.append(Capsule((bx, by, 24.0), (bx + ux * 22, by + uy * 22, 16.0), 9.0, 8.0,
                                  _darker(p.skin_bgr, 0.95)))
        wrist = (tx - ux * 145, ty - uy * 145, 45.0)
        out_s = self._edge_distance(tx, ty, -ux, -uy)
        body_s = max(520.0, out_s + 200.0)
        perp = (-uy * self.side, ux * self.side)
        body = (tx - ux * body_s + perp[0] * 120, ty - uy * body_s + perp[1] * 120, 300.0)
        shapes += self._body(body, cue.angle)
        shoulder = (body[0] - perp[0] * 150, body[1] - perp[1] * 150, body[2] + 20)
        shapes += self._arm(wrist, shoulder, 90.0)
        return shapes

    # -- a hand placing or taking -----------------------------------------------------------------
    def hand_shapes(self, hand: HandState, holding_radius: float = 0.0) -> list[Shape]:
        p = self.p
        ux, uy = math.cos(hand.angle), math.sin(hand.angle)
        z = 45.0 + 1.6 * holding_radius
        palm = (hand.x - ux * (55 + holding_radius), hand.y - uy * (55 + holding_radius), z)
        shapes: list[Shape] = [Blob(palm, (50.0, 42.0), hand.angle, p.skin_bgr)]
        for off in (-1.5, -0.5, 0.5, 1.5):
            bx, by = palm[0] + ux * 36 + off * 14 * -uy, palm[1] + uy * 36 + off * 14 * ux
            reach = 40.0 + holding_radius * 0.6 - abs(off) * 6
            shapes.append(Capsule((bx, by, z - 4), (bx + ux * reach, by + uy * reach, z - 14), 9.0, 7.5,
                                  _darker(p.skin_bgr, 0.96)))
        tx, ty = palm[0] - self.side * 38 * -uy, palm[1] - self.side * 38 * ux
        shapes.append(Capsule((tx, ty, z - 5), (tx + ux * 45, ty + uy * 45, z - 12), 10.0, 8.0, p.skin_bgr))
        wrist = (palm[0] - ux * 60, palm[1] - uy * 60, z + 15)
        out_s = self._edge_distance(hand.x, hand.y, -ux, -uy)
        reach = max(520.0, out_s + 150.0)
        shoulder = (hand.x - ux * reach, hand.y - uy * reach, _SHOULDER_Z.get(self.spec.name, 380.0))
        shapes += self._arm(wrist, shoulder, 60.0)
        return shapes
