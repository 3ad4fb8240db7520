"""A physical camera over a table: pinhole, pose, lens distortion, resolution and frame rate.

The simulator renders through this model and writes it into ``truth.json``; vision can load it
back to compare a fitted calibration with the truth. It is the OpenCV camera model, so every
number here means what it means to ``cv2.projectPoints``.

Frames of reference
-------------------
*Table frame*: millimetres of ``calibration/spec.py`` (``x`` along the long side, ``y`` across,
as seen from above) plus ``z``, the height above the cloth. Seen from above, ``x`` right and
``y`` down is a left-handed frame once ``z`` points up, so the model works internally in the
right-handed *world frame* ``(x, y, -z)``: a camera looking straight down with no rotation then
has the identity rotation and image axes along the table's ``x`` and ``y``.

*Pixels*: OpenCV's convention, the centre of the top-left pixel is ``(0, 0)``.

Why ``homography(z)`` takes a height: a ball's centre sits one radius above the cloth, a carrom
man's top face a few millimetres above it, a card on it. Under a tilted camera those planes map to
pixels through different homographies, and the one that lands on the rendered centre of an object
is the one for the plane of that object's visible centre. Homographies map *undistorted* pixels;
with lens distortion use :meth:`CameraModel.project` (or undistort the pixels first).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

Float = NDArray[np.float64]


def _world(points_xyz: ArrayLike) -> Float:
    """Table (x, y, height) -> world (x, y, -height), shape (N, 3)."""
    pts = np.asarray(points_xyz, dtype=np.float64).reshape(-1, 3).copy()
    pts[:, 2] = -pts[:, 2]
    return pts


@dataclass(frozen=True)
class CameraModel:
    """A calibrated camera: intrinsics, distortion and pose relative to the table.

    ``rvec``/``tvec`` take world points (see the module docstring) into the camera frame, as in
    OpenCV. ``height_mm``, ``tilt_deg``, ``azimuth_deg`` and ``roll_deg`` describe the same pose
    in words a venue understands: how high the lens is above the cloth, how far the optical axis
    leans from straight down, from which side of the table it leans (0 = the camera stands off
    towards +x and looks back towards -x, 90 = off towards +y), and how far the image is turned
    about the vertical.
    """

    width: int
    height: int
    fps: float
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, float, float, float, float]  # k1, k2, p1, p2, k3
    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]
    height_mm: float = 0.0
    tilt_deg: float = 0.0
    azimuth_deg: float = 0.0
    roll_deg: float = 0.0

    # -- matrices ------------------------------------------------------------------------------
    @property
    def K(self) -> Float:
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])

    @property
    def dist_coeffs(self) -> Float:
        return np.asarray(self.dist, dtype=np.float64)

    @property
    def R(self) -> Float:
        """World -> camera rotation matrix."""
        rot, _ = cv2.Rodrigues(np.asarray(self.rvec, dtype=np.float64))
        return np.asarray(rot, dtype=np.float64)

    @property
    def t(self) -> Float:
        return np.asarray(self.tvec, dtype=np.float64)

    @property
    def position(self) -> Float:
        """The camera centre in table millimetres (x, y, height above the cloth)."""
        c = -self.R.T @ self.t
        return np.array([c[0], c[1], -c[2]])

    @property
    def has_distortion(self) -> bool:
        return any(abs(d) > 0.0 for d in self.dist)

    @property
    def fov_deg(self) -> tuple[float, float]:
        """Horizontal and vertical field of view (undistorted), degrees."""
        return (
            math.degrees(2.0 * math.atan(self.width / (2.0 * self.fx))),
            math.degrees(2.0 * math.atan(self.height / (2.0 * self.fy))),
        )

    # -- projection ----------------------------------------------------------------------------
    def project(self, points_xyz: ArrayLike) -> Float:
        """Table points (x, y, height mm) -> pixels, lens distortion included; shape (N, 2)."""
        world = _world(points_xyz)
        if len(world) == 0:
            return np.zeros((0, 2))
        if not self.has_distortion:
            return self.project_undistorted(points_xyz)
        px, _ = cv2.projectPoints(world, np.asarray(self.rvec), self.t, self.K, self.dist_coeffs)
        return np.asarray(px, dtype=np.float64).reshape(-1, 2)

    def project_undistorted(self, points_xyz: ArrayLike) -> Float:
        """Pinhole projection without distortion (what the homographies give); shape (N, 2)."""
        cam = self.to_camera(points_xyz)
        z = cam[:, 2]
        return np.stack([self.fx * cam[:, 0] / z + self.cx, self.fy * cam[:, 1] / z + self.cy], axis=1)

    def to_camera(self, points_xyz: ArrayLike) -> Float:
        """Table points -> camera-frame coordinates (mm; third column is the depth)."""
        return _world(points_xyz) @ self.R.T + self.t

    def depth(self, points_xyz: ArrayLike) -> Float:
        return self.to_camera(points_xyz)[:, 2]

    def homography(self, z_mm: float = 0.0) -> Float:
        """Table (x, y) on the plane ``z_mm`` above the cloth -> undistorted pixels (3x3, H[2,2] = 1)."""
        R = self.R
        H = self.K @ np.column_stack([R[:, 0], R[:, 1], -z_mm * R[:, 2] + self.t])
        return np.asarray(H / H[2, 2], dtype=np.float64)

    def undistort_pixels(self, pixels: ArrayLike) -> Float:
        """Distorted (observed) pixels -> the undistorted pixels that the homographies speak."""
        pts = np.asarray(pixels, dtype=np.float64).reshape(-1, 1, 2)
        if not self.has_distortion or len(pts) == 0:
            return pts.reshape(-1, 2).copy()
        crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-9)
        out = cv2.undistortPoints(pts, self.K, self.dist_coeffs, None, None, self.K, crit)
        return np.asarray(out, dtype=np.float64).reshape(-1, 2)

    def pixel_to_table(self, pixels: ArrayLike, z_mm: float = 0.0) -> Float:
        """Observed pixels -> table (x, y) on the plane ``z_mm`` (undistorting first)."""
        und = self.undistort_pixels(pixels)
        Hinv = np.linalg.inv(self.homography(z_mm))
        h = np.column_stack([und, np.ones(len(und))]) @ Hinv.T
        return np.asarray(h[:, :2] / h[:, 2:3], dtype=np.float64)

    # -- serialisation -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        fov_x, fov_y = self.fov_deg
        pos = self.position
        return {
            "width": self.width,
            "height": self.height,
            "fps": self.fps,
            "K": [[round(float(v), 4) for v in row] for row in self.K],
            "distortion": [round(float(d), 6) for d in self.dist],
            "distortion_model": "opencv k1,k2,p1,p2,k3",
            "rvec": [round(float(v), 7) for v in self.rvec],
            "tvec": [round(float(v), 4) for v in self.tvec],
            "world_frame": "table mm (x, y) with the third axis pointing down into the table: (x, y, -height)",
            "position_mm": [round(float(v), 2) for v in pos],
            "height_mm": round(self.height_mm, 2),
            "tilt_deg": round(self.tilt_deg, 3),
            "azimuth_deg": round(self.azimuth_deg, 3),
            "roll_deg": round(self.roll_deg, 3),
            "fov_deg": [round(fov_x, 3), round(fov_y, 3)],
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CameraModel:
        K = d["K"]
        dist = tuple(float(v) for v in d["distortion"])
        return cls(
            width=int(d["width"]), height=int(d["height"]), fps=float(d["fps"]),
            fx=float(K[0][0]), fy=float(K[1][1]), cx=float(K[0][2]), cy=float(K[1][2]),
            dist=(dist[0], dist[1], dist[2], dist[3], dist[4]),
            rvec=(float(d["rvec"][0]), float(d["rvec"][1]), float(d["rvec"][2])),
            tvec=(float(d["tvec"][0]), float(d["tvec"][1]), float(d["tvec"][2])),
            height_mm=float(d.get("height_mm", 0.0)), tilt_deg=float(d.get("tilt_deg", 0.0)),
            azimuth_deg=float(d.get("azimuth_deg", 0.0)), roll_deg=float(d.get("roll_deg", 0.0)),
        )

    # -- construction --------------------------------------------------------------------------
    @classmethod
    def looking_at(
        cls,
        *,
        width: int,
        height: int,
        fps: float,
        target: tuple[float, float],
        height_mm: float,
        tilt_deg: float = 0.0,
        azimuth_deg: float = 90.0,
        roll_deg: float = 0.0,
        keep_in_view: ArrayLike | None = None,
        fill: float = 0.92,
        dist: Sequence[float] = (0.0, 0.0, 0.0, 0.0, 0.0),
        principal_offset: tuple[float, float] = (0.0, 0.0),
        aspect: float = 1.0,
    ) -> CameraModel:
        """A camera ``height_mm`` above the cloth whose optical axis passes through ``target``.

        The lens leans ``tilt_deg`` from straight down, standing off towards ``azimuth_deg`` (see
        the class docstring); the image is turned ``roll_deg`` about the vertical so that the
        table's +x runs that many degrees clockwise from image-right. The focal length is the
        longest that keeps every point of ``keep_in_view`` (table x, y, height) inside ``fill`` of
        the frame, distortion included: a real installer zooms until the rails just fit.
        """
        if width <= 0 or height <= 0:
            raise ValueError(f"resolution must be positive, got {width}x{height}")
        if height_mm <= 0:
            raise ValueError(f"camera height must be above the cloth, got {height_mm} mm")
        if not 0.0 <= tilt_deg < 80.0:
            raise ValueError(f"tilt must be in [0, 80) degrees from straight down, got {tilt_deg}")
        tilt, az, roll = math.radians(tilt_deg), math.radians(azimuth_deg), math.radians(roll_deg)
        off = height_mm * math.tan(tilt)
        centre_world = np.array([target[0] + off * math.cos(az), target[1] + off * math.sin(az), -height_mm])
        aim = np.array([target[0], target[1], 0.0])
        fwd = aim - centre_world
        fwd /= np.linalg.norm(fwd)
        right0 = np.array([math.cos(roll), math.sin(roll), 0.0])
        xc = right0 - float(right0 @ fwd) * fwd
        xc /= np.linalg.norm(xc)
        yc = np.cross(fwd, xc)
        R = np.vstack([xc, yc, fwd])
        tvec = -R @ centre_world
        rvec, _ = cv2.Rodrigues(R)
        cx = (width - 1) / 2.0 + principal_offset[0]
        cy = (height - 1) / 2.0 + principal_offset[1]
        d5 = tuple(float(v) for v in dist) + (0.0,) * (5 - len(dist))
        base = cls(
            width=width, height=height, fps=float(fps), fx=1.0, fy=aspect, cx=cx, cy=cy,
            dist=(d5[0], d5[1], d5[2], d5[3], d5[4]),
            rvec=(float(rvec[0, 0]), float(rvec[1, 0]), float(rvec[2, 0])),
            tvec=(float(tvec[0]), float(tvec[1]), float(tvec[2])),
            height_mm=float(height_mm), tilt_deg=float(tilt_deg), azimuth_deg=float(azimuth_deg),
            roll_deg=float(roll_deg),
        )
        if keep_in_view is None:
            return base.with_focal(float(max(width, height)))
        pts = np.asarray(keep_in_view, dtype=np.float64).reshape(-1, 3)
        cam = base.to_camera(pts)
        if np.any(cam[:, 2] <= 0):
            raise ValueError("a point to keep in view is behind the camera")
        nx = np.abs(cam[:, 0] / cam[:, 2])
        ny = np.abs(cam[:, 1] / cam[:, 2]) * aspect
        half_w = min(cx, width - 1 - cx) * fill
        half_h = min(cy, height - 1 - cy) * fill
        f = float(min(half_w / nx.max(), half_h / ny.max()))
        cam_model = base.with_focal(f)
        # Pincushion distortion pushes corners outwards: zoom out until they fit again.
        for _ in range(40):
            px = cam_model.project(pts)
            inside = (
                (px[:, 0] >= 0) & (px[:, 0] <= width - 1) & (px[:, 1] >= 0) & (px[:, 1] <= height - 1)
            )
            if bool(inside.all()):
                break
            f *= 0.97
            cam_model = base.with_focal(f)
        return cam_model

    def with_focal(self, f: float) -> CameraModel:
        from dataclasses import replace

        aspect = self.fy / self.fx
        return replace(self, fx=f, fy=f * aspect)
