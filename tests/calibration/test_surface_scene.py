"""A synthetic camera view of a table, drawn with cv2, for the calibration and detector tests.

The scene is a real pinhole camera (optionally with lens distortion) over a table: wooden floor,
a rail, the cloth (the playing surface plus the cushions' margin, its outer edge where the cushions
meet the rail above the bed), pockets and balls drawn where a sphere of the right radius would appear. It is deliberately plain: the point is exact geometry
(where the corners and balls truly project), not realism; real photographs are tested elsewhere.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.homography import Intrinsics
from tableref.calibration.pose import EDGE_GEOMETRY
from tableref.calibration.spec import TableSpec, load_table
from tableref.calibration.surface import CLOTH_MARGIN_MM

Image = NDArray[np.uint8]


@dataclass(frozen=True)
class Scene:
    image: Image
    intrinsics: Intrinsics
    rvec: NDArray[np.float64]
    tvec: NDArray[np.float64]
    spec: TableSpec

    def project(self, points_xyz: Sequence[Sequence[float]] | NDArray[np.float64]) -> NDArray[np.float64]:
        """Table (x, y, height above the cloth, mm) -> raw image pixels."""
        pts = np.asarray(points_xyz, dtype=np.float64).reshape(-1, 3).copy()
        pts[:, 2] = -pts[:, 2]  # world z points down into the table
        out, _ = cv2.projectPoints(pts, self.rvec, self.tvec, self.intrinsics.k, self.intrinsics.d)
        return np.asarray(out, dtype=np.float64).reshape(-1, 2)

    def camera_centre(self) -> NDArray[np.float64]:
        """The camera's position in table (x, y, height) mm."""
        rot, _ = cv2.Rodrigues(self.rvec)
        c = -rot.T @ self.tvec
        return np.array([c[0], c[1], -c[2]])

    def cloth_corners(self) -> NDArray[np.float64]:
        side = EDGE_GEOMETRY[self.spec.name].sides[0]
        m, z = side.margin_mm, side.height_mm
        L, W = self.spec.length_mm, self.spec.width_mm
        return self.project([(-m, -m, z), (L + m, -m, z), (L + m, W + m, z), (-m, W + m, z)])

    def surface_corners(self) -> NDArray[np.float64]:
        L, W = self.spec.length_mm, self.spec.width_mm
        return self.project([(0, 0, 0), (L, 0, 0), (L, W, 0), (0, W, 0)])


def camera_pose(spec: TableSpec, tilt_deg: float, azimuth_deg: float, distance_mm: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """rvec, tvec of a camera ``distance_mm`` from the table centre, leaning ``tilt_deg`` from
    straight down, standing off towards ``azimuth_deg`` (90: towards +y, the near long side)."""
    target = np.array([spec.length_mm / 2, spec.width_mm / 2, 0.0])
    t, a = math.radians(tilt_deg), math.radians(azimuth_deg)
    centre = target + distance_mm * np.array([math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), -math.cos(t)])
    fwd = (target - centre) / np.linalg.norm(target - centre)
    ex = np.array([1.0, 0.0, 0.0])
    right = ex - float(ex @ fwd) * fwd
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    rot = np.vstack([right, down, fwd])
    rvec, _ = cv2.Rodrigues(rot)
    return np.asarray(rvec, dtype=np.float64).ravel(), np.asarray(-rot @ centre, dtype=np.float64)


def _fill(img: Image, pts: NDArray[np.float64], colour: tuple[int, int, int]) -> None:
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)


def _outline(spec: TableSpec, grow: float, n: int = 40) -> NDArray[np.float64]:
    L, W = spec.length_mm, spec.width_mm
    x0, y0, x1, y1 = -grow, -grow, L + grow, W + grow
    t = np.linspace(0.0, 1.0, n, endpoint=False)
    sides = [
        np.stack([x0 + t * (x1 - x0), np.full(n, y0)], 1),
        np.stack([np.full(n, x1), y0 + t * (y1 - y0)], 1),
        np.stack([x1 - t * (x1 - x0), np.full(n, y1)], 1),
        np.stack([np.full(n, x0), y1 - t * (y1 - y0)], 1),
    ]
    pts = np.concatenate(sides)
    return np.concatenate([pts, np.zeros((len(pts), 1))], axis=1)


def _edge_outline(spec: TableSpec, camera: NDArray[np.float64], n: int = 40) -> NDArray[np.float64]:
    """The cloth's visible outer edge as the camera sees it (x, y, z): each side at its own
    margin and height (:data:`EDGE_GEOMETRY`): the rail's edge above the bed, or the foot of a
    wall (a bar-billiards end board, a carrom frame) when the camera is on its inner side."""
    L, W = spec.length_mm, spec.width_mm
    inside = [camera[1] > 0.0, camera[0] < L, camera[1] < W, camera[0] > 0.0]
    (mt, zt), (mr, zr), (mb, zb), (ml, zl) = [side.seen_from(i) for side, i in
                                              zip(EDGE_GEOMETRY[spec.name].sides, inside, strict=True)]
    t = np.linspace(0.0, 1.0, n, endpoint=False)[:, None]
    ends = [((-ml, -mt, zt), (L + mr, -mt, zt)), ((L + mr, -mt, zr), (L + mr, W + mb, zr)),
            ((L + mr, W + mb, zb), (-ml, W + mb, zb)), ((-ml, W + mb, zl), (-ml, -mt, zl))]
    return np.concatenate([np.asarray(a) + t * (np.asarray(b) - np.asarray(a)) for a, b in ends])


def render(
    table: str = "pool",
    tilt_deg: float = 0.0,
    azimuth_deg: float = 90.0,
    size: tuple[int, int] = (1280, 720),
    distortion: Sequence[float] = (0.0, 0.0, 0.0, 0.0, 0.0),
    balls: Sequence[tuple[Any, ...]] = (),
    cloth_bgr: tuple[int, int, int] = (60, 120, 30),
    fill: float = 0.85,
    seed: int = 0,
    pins: Sequence[tuple[float, float, tuple[int, int, int], float | None]] = (),
    raised_edges: bool | None = None,
) -> Scene:
    """Draw the table seen by a camera; ``balls`` are (x_mm, y_mm, BGR colour[, radius mm]) on the
    cloth; ``pins`` are (x_mm, y_mm, BGR colour, fallen angle in degrees or None for standing).

    ``raised_edges``: draw the cloth's edge where it really is (the rail above the bed, a wall's
    foot or top; :data:`EDGE_GEOMETRY`) rather than flat on the bed at the cushions' margin. By
    default on for cushioned tables; off for a carrom board, whose classical-detector scenes were
    made on the flat drawing (their piece sizes are read off the board's outline)."""
    spec = load_table(table)
    w, h = size
    rvec, tvec = camera_pose(spec, tilt_deg, azimuth_deg, 4000.0)
    # zoom until the rail fits: find the focal length that puts the outline in ``fill`` of the frame
    rot, _ = cv2.Rodrigues(rvec)
    rail = _outline(spec, CLOTH_MARGIN_MM.get(table, 0.0) + 120.0)
    world = rail.copy()
    world[:, 2] = -world[:, 2]
    cam = world @ rot.T + tvec
    nx = np.abs(cam[:, 0] / cam[:, 2]).max()
    ny = np.abs(cam[:, 1] / cam[:, 2]).max()
    f = min((w / 2) * fill / nx, (h / 2) * fill / ny)
    k = [[f, 0.0, (w - 1) / 2], [0.0, f, (h - 1) / 2], [0.0, 0.0, 1.0]]
    intr = Intrinsics.from_arrays(k, list(distortion) + [0.0] * (5 - len(distortion)))
    scene = Scene(np.zeros((h, w, 3), np.uint8), intr, np.asarray(rvec, float), np.asarray(tvec, float), spec)
    rng = np.random.default_rng(seed)
    # a wooden floor with some texture
    base = np.array([40, 75, 120], np.float32)
    noise = cv2.resize(rng.normal(0, 18, (h // 16 + 1, w // 16 + 1)).astype(np.float32), (w, h))
    img = np.clip(base[None, None, :] + noise[..., None], 0, 255).astype(np.uint8)
    raised = raised_edges if raised_edges is not None else table != "carrom"
    if raised:
        rail[:, 2] = max(side.height_mm for side in EDGE_GEOMETRY[table].sides)
    _fill(img, scene.project(rail), (200, 205, 210))
    edge = _edge_outline(spec, scene.camera_centre()) if raised else _outline(spec, CLOTH_MARGIN_MM.get(table, 0.0))
    _fill(img, scene.project(edge), cloth_bgr)
    for hole in spec.holes:
        ring = [(hole.x + hole.radius * math.cos(a), hole.y + hole.radius * math.sin(a), 0.0)
                for a in np.linspace(0, 2 * math.pi, 24, endpoint=False)]
        _fill(img, scene.project(ring), (15, 15, 15))
    default_r = spec.object_radius.get("ball", spec.object_radius.get("white", 25.0))
    for ball in balls:
        x, y, colour = float(ball[0]), float(ball[1]), ball[2]
        radius = float(ball[3]) if len(ball) > 3 else default_r
        c = scene.project([(x, y, radius)])[0]
        depth = float((np.array([x, y, -radius]) @ rot.T + tvec)[2])
        r_px = f * radius / depth
        shadow = scene.project([(x + 0.3 * radius, y + 0.3 * radius, 0.0)])[0]
        cv2.circle(img, (round(shadow[0] * 16), round(shadow[1] * 16)), round(r_px * 16), (30, 70, 20), -1, cv2.LINE_AA, 4)
        cv2.circle(img, (round(c[0] * 16), round(c[1] * 16)), round(r_px * 16), colour, -1, cv2.LINE_AA, 4)
        hl = (c[0] - 0.35 * r_px, c[1] - 0.35 * r_px)
        cv2.circle(img, (round(hl[0] * 16), round(hl[1] * 16)), max(16, round(r_px * 4)), (245, 245, 245), -1, cv2.LINE_AA, 4)
    for x, y, colour, fallen in pins:
        if fallen is None:  # a standing pin seen from above: its round top, 45 mm up
            c = scene.project([(x, y, 45.0)])[0]
            depth = float((np.array([x, y, -45.0]) @ rot.T + tvec)[2])
            r_px = f * 11.0 / depth
            cv2.circle(img, (round(c[0] * 16), round(c[1] * 16)), round(r_px * 16), colour, -1, cv2.LINE_AA, 4)
        else:  # lying on the cloth: a 45 x 22 mm capsule
            a = math.radians(fallen)
            ends = scene.project([(x - 17 * math.cos(a), y - 17 * math.sin(a), 11.0),
                                  (x + 17 * math.cos(a), y + 17 * math.sin(a), 11.0)])
            width = max(1, round(2 * 11.0 * scene.intrinsics.k[0, 0] / 4000.0))
            cv2.line(img, tuple(int(v) for v in ends[0]), tuple(int(v) for v in ends[1]), colour, width, cv2.LINE_AA)
    img = np.clip(img.astype(np.int16) + rng.normal(0, 3, img.shape).astype(np.int16), 0, 255).astype(np.uint8)
    return Scene(img, intr, scene.rvec, scene.tvec, spec)


def test_the_scene_puts_the_cloth_where_the_camera_projects_it() -> None:
    scene = render(tilt_deg=25.0)
    corners = scene.cloth_corners()
    centre = corners.mean(axis=0)
    b, g, r = scene.image[int(centre[1]), int(centre[0])]
    assert g > 90 and g > r + 40  # cloth green at the table's centre
    for i in range(4):  # a quarter of the way along each side, just inside the cloth edge
        edge = corners[i] + 0.25 * (corners[(i + 1) % 4] - corners[i])
        inward = centre + 0.97 * (edge - centre)
        outward = centre + 1.03 * (edge - centre)
        assert scene.image[int(inward[1]), int(inward[0]), 1] > 90
        assert scene.image[int(outward[1]), int(outward[0]), 1] > 150  # the white rail


def test_a_tilted_camera_foreshortens_the_far_side() -> None:
    scene = render(tilt_deg=35.0, azimuth_deg=90.0)
    c = scene.surface_corners()
    far, near = np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[3])
    assert far < 0.9 * near
