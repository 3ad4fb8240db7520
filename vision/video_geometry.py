"""What a calibration says about the picture, computed once: pose, surface, ROI, expected sizes.

A venue calibration gives the homography of the plane of the objects' visible centres (a ball's
centre, a carrom man's top face) and, when known, the lens intrinsics and distortion. With the
intrinsics the homography decomposes into the camera's pose (``H ~ K [r1 r2 t + z r3]``), so any
table point at any height projects to a pixel: the top of a standing pin, the cloth under a ball,
the silhouette size of a ball at every place on the table. Without intrinsics a plausible focal
length is assumed (the principal point at the image centre); the ball-plane mapping is then still
exact and only heights are approximate.

Everything here is static for a fixed camera, so :class:`TableView` is built once per image size
and every per-frame stage reads its precomputed arrays (surface mask, radius map, static features
such as holes, pockets and pin spots) at the *work* resolution: the playing surface's bounding box
scaled down so that a ball is still about ``target_radius_px`` pixels across its radius.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.camera import CameraModel
from tableref.calibration.spec import TableSpec
from tableref.errors import UserError

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]

#: Thickness of a carrom man (ICF: 7 to 9 mm); its top face is the plane a carrom calibration maps.
CARROM_MAN_THICKNESS_MM = 7.5


class CalibratedMapping(Protocol):
    """What the pipeline's calibration offers (``HomographyMapping``): a ball-plane homography,
    optional intrinsics ``K`` and distortion ``D``, and the two point mappings."""

    H: Any
    K: Any
    D: Any

    def to_table(self, points_px: Any) -> F64: ...

    def to_image(self, points_mm: Any) -> F64: ...


def object_radius_mm(spec: TableSpec) -> float:
    """Radius of the table's main round object (pool ball, bar-billiards ball, carrom man)."""
    r = spec.object_radius
    for key in ("ball", "white", "red", "black"):
        if key in r:
            return float(r[key])
    raise UserError(f"table {spec.name!r} has no round objects to detect")


def plane_height_mm(spec: TableSpec) -> float:
    """Height above the cloth of the plane the calibration maps: ball centres, or a man's top face."""
    if spec.name == "carrom":
        return CARROM_MAN_THICKNESS_MM
    return object_radius_mm(spec)


def camera_from_homography(H: F64, K: F64 | None, dist: F64 | None, plane_z: float,
                           size: tuple[int, int]) -> CameraModel:
    """The camera whose plane-``plane_z`` homography is ``H`` (table mm -> undistorted pixels).

    ``H = K [r1 r2 t - plane_z r3]`` up to scale (the table frame's third axis points down, as in
    :mod:`tableref.calibration.camera`). Without ``K`` a focal length of the image's larger side
    and a centred principal point are assumed.
    """
    w, h = size
    if K is None:
        f = float(max(w, h))
        K = np.array([[f, 0.0, (w - 1) / 2.0], [0.0, f, (h - 1) / 2.0], [0.0, 0.0, 1.0]])
    M = np.linalg.inv(K) @ (H / H[2, 2])
    lam = 2.0 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
    r1, r2, t3 = M[:, 0] * lam, M[:, 1] * lam, M[:, 2] * lam
    if t3[2] < 0:  # the table must lie in front of the camera
        r1, r2, t3 = -r1, -r2, -t3
    # nearest rotation to [r1 r2 r1 x r2]
    U, _, Vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    R = U @ Vt
    if np.linalg.det(R) < 0:
        R = U @ np.diag([1.0, 1.0, -1.0]) @ Vt
    t = t3 + plane_z * R[:, 2]
    rvec, _ = cv2.Rodrigues(R)
    d = np.zeros(5) if dist is None else np.asarray(dist, dtype=np.float64).ravel()
    d5 = [float(v) for v in d[:5]] + [0.0] * max(0, 5 - len(d))
    return CameraModel(width=w, height=h, fps=30.0, fx=float(K[0, 0]), fy=float(K[1, 1]), cx=float(K[0, 2]),
                       cy=float(K[1, 2]), dist=(d5[0], d5[1], d5[2], d5[3], d5[4]),
                       rvec=(float(rvec[0, 0]), float(rvec[1, 0]), float(rvec[2, 0])),
                       tvec=(float(t[0]), float(t[1]), float(t[2])))


@dataclass(frozen=True)
class StaticDisc:
    """A fixed round feature of the table in work pixels (a hole, a pocket, a pin's spot, a
    carrom base circle): never reported as an object by itself, learned as background."""

    name: str
    x: float
    y: float
    radius: float
    kind: str = "hole"  # hole (or pocket), pin, print (a carrom board's red circles)
    x_mm: float = 0.0
    y_mm: float = 0.0


class TableView:
    """The calibrated table as the detector sees it, for one image size (see module docstring).

    Work pixels relate to image pixels by ``image = box[:2] + work / scale`` (pixel centres).
    """

    def __init__(self, spec: TableSpec, mapping: CalibratedMapping, size: tuple[int, int],
                 target_radius_px: float = 4.5, min_radius_px: float = 3.5) -> None:
        self.spec = spec
        self.mapping = mapping
        self.size = size
        self.radius_mm = object_radius_mm(spec)
        self.plane_z = plane_height_mm(spec)
        H = np.asarray(mapping.H, dtype=np.float64)
        K = None if getattr(mapping, "K", None) is None else np.asarray(mapping.K, dtype=np.float64)
        D = None if getattr(mapping, "D", None) is None else np.asarray(mapping.D, dtype=np.float64)
        self.camera = camera_from_homography(H, K, D, self.plane_z, size)
        L, W = spec.length_mm, spec.width_mm
        # The region that matters: the surface, the pockets' jaws and one ball beyond the noses.
        margin = 1.5 * self.radius_mm
        outline = [(x, y) for x in np.linspace(-margin, L + margin, 24) for y in (-margin, W + margin)]
        outline += [(x, y) for y in np.linspace(-margin, W + margin, 12) for x in (-margin, L + margin)]
        for hole in spec.holes:
            outline += [(hole.x + hole.radius * math.cos(a), hole.y + hole.radius * math.sin(a))
                        for a in np.linspace(0, 2 * math.pi, 12)]
        px = self.project(np.array(outline), 0.0)
        w, h = size
        x0 = int(max(0, math.floor(px[:, 0].min())))
        y0 = int(max(0, math.floor(px[:, 1].min())))
        x1 = int(min(w, math.ceil(px[:, 0].max()) + 1))
        y1 = int(min(h, math.ceil(px[:, 1].max()) + 1))
        if x1 - x0 < 16 or y1 - y0 < 16:
            raise UserError("the calibration puts the playing surface outside the image; recalibrate on this camera")
        self.box = (x0, y0, x1, y1)
        centre = np.array([[L / 2, W / 2]])
        r_centre = self.ball_radius_px(centre)[0]
        self.full_radius_px = float(r_centre)
        corners = np.array([[0.0, 0.0], [L, 0.0], [L, W], [0.0, W]])
        r_min = float(self.ball_radius_px(corners).min())
        self.scale = float(min(1.0, max(target_radius_px / max(r_centre, 1e-6), min_radius_px / max(r_min, 1e-6))))
        self.work_size = (max(8, int(round((x1 - x0) * self.scale))), max(8, int(round((y1 - y0) * self.scale))))
        self._build_maps()

    # -- projections ---------------------------------------------------------------------------
    def project(self, points_mm: F64, z: float) -> F64:
        """Table points (x, y) at height ``z`` above the cloth -> image pixels (distortion included)."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        xyz = np.column_stack([pts, np.full(len(pts), float(z))])
        return self.camera.project(xyz)

    def to_table(self, pixels: F64, z: float) -> F64:
        """Image pixels -> table (x, y) on the plane ``z`` above the cloth."""
        return self.camera.pixel_to_table(np.asarray(pixels, dtype=np.float64).reshape(-1, 2), z)

    def to_work(self, pixels: F64) -> F64:
        p = np.asarray(pixels, dtype=np.float64).reshape(-1, 2)
        return (p - np.array(self.box[:2], dtype=np.float64) + 0.5) * self.scale - 0.5

    def to_image(self, work: F64) -> F64:
        p = np.asarray(work, dtype=np.float64).reshape(-1, 2)
        return (p + 0.5) / self.scale - 0.5 + np.array(self.box[:2], dtype=np.float64)

    def ball_radius_px(self, points_mm: F64, radius_mm: float | None = None) -> F64:
        """Apparent radius (image pixels) of a ball of ``radius_mm`` resting at each table point.

        A sphere's silhouette is about ``f R / d`` across whatever the tilt (it is not foreshortened
        like a disc on the cloth); a carrom man is a flat disc, so its size is the plane's local scale.
        """
        r = self.radius_mm if radius_mm is None else radius_mm
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        if self.spec.name == "carrom":
            return r * self.local_scale(pts, self.plane_z)
        cam = self.camera.to_camera(np.column_stack([pts, np.full(len(pts), r)]))
        d = np.linalg.norm(cam, axis=1)
        f = math.sqrt(self.camera.fx * self.camera.fy)
        return np.asarray(f * r / np.sqrt(np.maximum(d * d - r * r, 1.0)), dtype=np.float64)

    def local_scale(self, points_mm: F64, z: float) -> F64:
        """Pixels per millimetre (square root of the area ratio) of the plane ``z`` at each point."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        e = 5.0
        p0 = self.project(pts, z)
        px = self.project(pts + [e, 0.0], z)
        py = self.project(pts + [0.0, e], z)
        a, b = (px - p0) / e, (py - p0) / e
        return np.asarray(np.sqrt(np.abs(a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0])), dtype=np.float64)

    # -- static maps ---------------------------------------------------------------------------
    def _work_grid_to_table(self, step: int) -> tuple[F64, F64, F64]:
        ww, wh = self.work_size
        gx = np.arange(0, ww + step, step, dtype=np.float64)
        gy = np.arange(0, wh + step, step, dtype=np.float64)
        xx, yy = np.meshgrid(gx, gy)
        work = np.column_stack([xx.ravel(), yy.ravel()])
        table = self.to_table(self.to_image(work), self.plane_z)
        return gx, gy, table

    def _build_maps(self) -> None:
        spec = self.spec
        ww, wh = self.work_size
        step = 8
        gx, gy, table = self._work_grid_to_table(step)
        L, W = spec.length_mm, spec.width_mm
        # Clamp so that points far outside (behind the horizon of a steep view) stay finite.
        table = np.clip(np.nan_to_num(table, nan=0.0), [-L, -W], [2 * L, 2 * W])
        r = self.ball_radius_px(table) * self.scale
        self.radius_map: F32 = _upsample(r.reshape(len(gy), len(gx)), step, (ww, wh))
        #: a typical object radius in work pixels (the median over the work image)
        self.median_radius = float(np.median(self.radius_map))
        tx = _upsample(table[:, 0].reshape(len(gy), len(gx)), step, (ww, wh))
        ty = _upsample(table[:, 1].reshape(len(gy), len(gx)), step, (ww, wh))
        #: table mm (ball plane) of every work pixel, for cheap per-pixel geometry
        self.table_x: F32 = np.ascontiguousarray(tx)
        self.table_y: F32 = np.ascontiguousarray(ty)
        rmm = self.radius_mm

        def within(m: float) -> NDArray[np.bool_]:
            return np.asarray((tx >= m) & (tx <= L - m) & (ty >= m) & (ty <= W - m))

        holes = np.zeros(tx.shape, dtype=bool)
        for hole in spec.holes:
            holes |= (tx - hole.x) ** 2 + (ty - hole.y) ** 2 <= (hole.radius + rmm) ** 2
        #: where a ball's centre may be: on the surface, in a pocket's jaws, or flying over a cushion
        #: (a carrom man's centre stays a radius inside the frame; a striker held over the edge is
        #: in a hand, not on the board)
        flight = -0.5 * rmm if spec.name == "carrom" else 0.6 * rmm
        self.centre_mask: U8 = ((within(-flight) | holes) * 255).astype(np.uint8)
        #: where a ball's centre may be when it rests on the cloth
        self.rest_mask: U8 = ((within(0.6 * rmm) | holes) * 255).astype(np.uint8)
        # Where a ball's pixels may be: its centre region grown by a radius.
        grow = (tx >= -1.3 * rmm) & (tx <= L + 1.3 * rmm) & (ty >= -1.3 * rmm) & (ty <= W + 1.3 * rmm)
        self.surface_mask: U8 = ((grow | holes) * 255).astype(np.uint8)
        self.statics = self._static_discs()

    def _static_discs(self) -> tuple[StaticDisc, ...]:
        spec = self.spec
        items: list[tuple[str, float, float, float, str]] = []
        for hole in spec.holes:
            items.append((hole.id, hole.x, hole.y, hole.radius, "hole"))
        for pin in spec.pins:
            items.append((pin.id, pin.x, pin.y, pin.radius, "pin"))
        for b in spec.baselines:
            # base circles sit at the ends of the baselines' strip, centred between the two lines
            for i in (0, 1):
                cx = (b.front[i][0] + b.back[i][0]) / 2.0
                cy = (b.front[i][1] + b.back[i][1]) / 2.0
                items.append((f"{b.id}-circle-{i}", cx, cy, b.circle_radius, "print"))
        if spec.baselines and "centre" in spec.spots:
            # the board's centre circle, where the queen is placed: printed like the base circles
            cx, cy = spec.spots["centre"]
            items.append(("centre-circle", cx, cy, spec.baselines[0].circle_radius, "print"))
        out = []
        for name, x, y, rad, kind in items:
            c = self.to_work(self.project(np.array([[x, y]]), 0.0))[0]
            s = float(self.local_scale(np.array([[x, y]]), 0.0)[0]) * self.scale
            out.append(StaticDisc(name, float(c[0]), float(c[1]), rad * s, kind, x, y))
        return tuple(out)

    # -- crops -------------------------------------------------------------------------------
    def work_image(self, image: U8) -> U8:
        """The surface's box of ``image`` at the work resolution."""
        x0, y0, x1, y1 = self.box
        crop = image[y0:y1, x0:x1]
        if self.scale >= 0.999:
            return np.ascontiguousarray(crop)
        # The resize is given the scale itself, not the output size: a size rounds to whole
        # pixels, and each axis would then have its own scale, up to half a work pixel (a
        # millimetre or two) off ``to_work`` at the far cushion.
        out = cv2.resize(crop, None, fx=self.scale, fy=self.scale, interpolation=cv2.INTER_AREA)
        if (out.shape[1], out.shape[0]) != self.work_size:  # a size that rounds the other way
            out = cv2.copyMakeBorder(out[:self.work_size[1], :self.work_size[0]], 0,
                                     max(0, self.work_size[1] - out.shape[0]), 0,
                                     max(0, self.work_size[0] - out.shape[1]), cv2.BORDER_REPLICATE)
        return np.asarray(out, dtype=np.uint8)

    def probe_image(self, image: U8) -> U8:
        """The surface's box at the work size by plain bilinear sampling: a tenth of the cost of
        :meth:`work_image`, noisier, enough to tell whether anything changed since a frame."""
        x0, y0, x1, y1 = self.box
        crop = image[y0:y1, x0:x1]
        if self.scale >= 0.999:
            return np.ascontiguousarray(crop)
        return np.asarray(cv2.resize(crop, self.work_size, interpolation=cv2.INTER_LINEAR), dtype=np.uint8)

    def full_image(self, work: NDArray[Any]) -> NDArray[Any]:
        """A work-resolution image (the cloth estimate) brought back to the surface's box at full
        resolution, by the same scale as :meth:`work_image` (bilinear)."""
        x0, y0, x1, y1 = self.box
        if self.scale >= 0.999:
            return np.ascontiguousarray(work)
        out = cv2.resize(work, None, fx=1.0 / self.scale, fy=1.0 / self.scale, interpolation=cv2.INTER_LINEAR)
        h, w = y1 - y0, x1 - x0
        return np.asarray(cv2.copyMakeBorder(out[:h, :w], 0, max(0, h - out.shape[0]), 0, max(0, w - out.shape[1]),
                                             cv2.BORDER_REPLICATE))


def polygon_mask(shape: tuple[int, int], points: Sequence[tuple[float, float]]) -> U8:
    """A filled polygon as a 0/255 mask of ``shape`` (rows, cols)."""
    mask = np.zeros(shape, dtype=np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(points)).astype(np.int32)], 255)
    return mask


def _upsample(coarse: NDArray[Any], step: int, size: tuple[int, int]) -> F32:
    """A map sampled at every ``step``-th work pixel (from 0), interpolated to every work pixel
    of ``size`` (width, height). Pixel ``x`` takes the value at ``x / step`` on the coarse grid:
    a plain resize takes it at ``(x + 0.5) / step - 0.5``, half a coarse cell off, which moved
    every map 3.5 pixels right and down (on a carrom board a third of a man: a man resting against
    the left cushion fell outside the centre mask and was never found there).
    """
    m = np.array([[float(step), 0.0, 0.0], [0.0, float(step), 0.0]])
    out = cv2.warpAffine(coarse.astype(np.float32), m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(out, dtype=np.float32)
