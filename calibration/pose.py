"""The camera's pose (and focal length when not given) from the four edges of the cloth.

Why a pose and not just a homography of the cloth's outline: the edge a camera sees around the
cloth is not on the cloth. On a pool or bar-billiards table the cloth runs over the cushions up to
the wooden rail, a few centimetres above the bed; on a carrom board the edge is the foot of the
frame's inner wall when the camera looks at that wall from inside, and the top of the wall when it
stands beyond it. Fitting a cloth-plane homography to that outline puts the far end of a table
two or three centimetres short under a tilted camera. So the edges are treated as what they are,
four 3D lines at known offsets and heights (:data:`EDGE_GEOMETRY`), and the camera that projects
them onto the four measured image lines is solved for; the homography of any plane (the cloth, the
balls' centres) then follows from the camera.

Intrinsics: given (``--intrinsics``), only the pose is solved. Not given, the principal point is
taken at the image centre and the focal length is solved too: a rectangle of known proportions seen
at an angle fixes it. Seen nearly straight down it does not (the picture is the same for a long lens
far away and a short lens close by), so a weak prior (a 70-degree horizontal field of view, common
for venue cameras) settles it; that case costs little, since the heights then shift every point
about the same way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tableref.calibration.homography import FloatArray

#: Prior horizontal field of view (degrees) when the focal length is not given.
PRIOR_FOV_DEG = 70.0
#: Spread of that prior, in natural-log units of the focal length (weak: about a factor 1.5).
PRIOR_LOG_SIGMA = 0.4
#: Expected noise of a fitted edge line, in pixels (weighs the lines against the prior).
LINE_SIGMA_PX = 0.3


@dataclass(frozen=True)
class SideEdge:
    """Where the visible edge of the cloth (or board) lies along one side of the playing surface.

    ``margin_mm``: how far beyond the cushion nose (the spec's playing surface) the edge runs;
    ``height_mm``: its height above the cloth. ``foot_margin_mm``: for a side closed by a wall
    (a carrom frame, a bar-billiards end board) whose inner face is not cloth, where the face's
    foot meets the cloth; a camera on the inner side of the wall sees the cloth end there (z = 0),
    one beyond it sees the wall's top edge hide it. ``None``: the side has no such wall.
    """

    margin_mm: float
    height_mm: float
    foot_margin_mm: float | None = None

    def seen_from(self, inside: bool) -> tuple[float, float]:
        """(margin, height) of the edge a camera sees, inside or beyond the wall's plane."""
        if self.foot_margin_mm is not None and inside:
            return self.foot_margin_mm, 0.0
        return self.margin_mm, self.height_mm


@dataclass(frozen=True)
class EdgeGeometry:
    """The visible edges of the four sides, in the order top (y < 0), right (x > L), bottom
    (y > W), left (x < 0). Typical values; a venue with other furniture gives its own
    (``cloth_edge`` in its table JSON)."""

    sides: tuple[SideEdge, SideEdge, SideEdge, SideEdge]


def _all(side: SideEdge) -> EdgeGeometry:
    return EdgeGeometry((side, side, side, side))


#: Pool: cushions about 50 mm wide whose cloth meets the rail about 44 mm above the bed (the nose
#: is at 63.5% of a ball's diameter, ~36 mm). Bar billiards: 40 mm cushions, rail ~38 mm up, and at
#: the far end (x > L) the scoreboard's wooden face, undercut about 10 mm, its top at the nose.
#: Carrom: the board's edge is the foot of a frame ~22 mm high (ICF boards: 19 to 25 mm).
EDGE_GEOMETRY: dict[str, EdgeGeometry] = {
    "pool": _all(SideEdge(50.0, 44.0)),
    "bar-billiards": EdgeGeometry((SideEdge(40.0, 38.0), SideEdge(0.0, 30.0, 10.0), SideEdge(40.0, 38.0),
                                   SideEdge(40.0, 38.0))),
    "carrom": _all(SideEdge(0.0, 22.0, 0.0)),
    "cards": _all(SideEdge(0.0, 0.0)),
}


def edge_geometry(table: str, override: Mapping[str, object] | None = None) -> EdgeGeometry:
    """The edge geometry of ``table``; a venue's ``cloth_edge`` (``margin_mm``, ``height_mm``,
    ``foot_margin_mm``, for every side alike) replaces the typical values."""
    base = EDGE_GEOMETRY.get(table, _all(SideEdge(0.0, 0.0)))
    if not override:
        return base
    first = base.sides[0]
    foot = override.get("foot_margin_mm", None)
    return _all(SideEdge(float(override.get("margin_mm", first.margin_mm)),  # type: ignore[arg-type]
                         float(override.get("height_mm", first.height_mm)),  # type: ignore[arg-type]
                         None if foot is None else float(foot)))  # type: ignore[arg-type]


@dataclass(frozen=True)
class Pose:
    """A pinhole camera over the table: ``K`` and the world-to-camera ``rvec``/``tvec``.

    World frame as in :mod:`tableref.calibration.camera`: table ``(x, y, -z)`` (z up out of the
    cloth), so a camera straight above has the identity rotation.
    """

    K: FloatArray
    rvec: FloatArray
    tvec: FloatArray

    @property
    def R(self) -> FloatArray:
        return np.asarray(cv2.Rodrigues(self.rvec)[0], dtype=np.float64)

    def homography(self, z_mm: float = 0.0) -> FloatArray:
        """Table mm (x, y) on the plane ``z_mm`` above the cloth -> undistorted pixels."""
        R = self.R
        h = self.K @ np.column_stack([R[:, 0], R[:, 1], self.tvec - z_mm * R[:, 2]])
        return np.asarray(h / h[2, 2], dtype=np.float64)

    def project(self, xyz: FloatArray) -> FloatArray:
        """Table points (x, y, height) -> undistorted pixels."""
        return _project(self.K, self.rvec, self.tvec, xyz)

    def centre(self) -> FloatArray:
        """The camera's position in table (x, y, height) millimetres."""
        c = -self.R.T @ self.tvec
        return np.array([c[0], c[1], -c[2]])


def _project(K: FloatArray, rvec: FloatArray, tvec: FloatArray, xyz: FloatArray) -> FloatArray:
    w = np.asarray(xyz, dtype=np.float64).reshape(-1, 3).copy()
    w[:, 2] = -w[:, 2]
    R = cv2.Rodrigues(rvec)[0]
    cam = w @ R.T + tvec
    z = np.maximum(cam[:, 2:3], 1e-6)
    uv = cam[:, :2] / z
    return np.column_stack([K[0, 0] * uv[:, 0] + K[0, 2], K[1, 1] * uv[:, 1] + K[1, 2]])


def _camera_matrix(f: float, size: tuple[int, int]) -> FloatArray:
    w, h = size
    return np.array([[f, 0.0, (w - 1) / 2.0], [0.0, f, (h - 1) / 2.0], [0.0, 0.0, 1.0]])


def prior_focal(size: tuple[int, int]) -> float:
    return size[0] / 2.0 / math.tan(math.radians(PRIOR_FOV_DEG) / 2.0)


def focal_from_homography(h: FloatArray, size: tuple[int, int]) -> float | None:
    """The focal length (square pixels, centred principal point) that makes ``h`` a rectangle's
    view by a rotation, or ``None`` when the view does not fix it (seen straight on)."""
    w, hgt = size
    T = np.array([[1.0, 0.0, -(w - 1) / 2.0], [0.0, 1.0, -(hgt - 1) / 2.0], [0.0, 0.0, 1.0]])
    m = T @ h
    c1, c2 = m[:, 0] / np.linalg.norm(m[:, 0]), m[:, 1] / np.linalg.norm(m[:, 1])
    a1, b1 = c1[0] * c2[0] + c1[1] * c2[1], c1[2] * c2[2]
    a2, b2 = c1[0] ** 2 + c1[1] ** 2 - c2[0] ** 2 - c2[1] ** 2, c1[2] ** 2 - c2[2] ** 2
    den = a1 * a1 + a2 * a2
    if den <= 0:
        return None
    inv_f2 = -(a1 * b1 + a2 * b2) / den
    if inv_f2 <= 0:
        return None
    f = 1.0 / math.sqrt(inv_f2)
    return f if 0.2 * w <= f <= 6.0 * w else None


def _line_residuals(K: FloatArray, rvec: FloatArray, tvec: FloatArray, sides: Sequence[FloatArray],
                    lines: Sequence[FloatArray]) -> FloatArray:
    """Signed pixel distances of each side's 3D sample points, projected, from its image line."""
    out = []
    for pts, (a, b, c) in zip(sides, lines, strict=True):
        uv = _project(K, rvec, tvec, pts)
        out.append(uv[:, 0] * a + uv[:, 1] * b + c)
    return np.concatenate(out)


def side_points(length: float, width: float, seen: Sequence[tuple[float, float]], n: int = 7) -> list[FloatArray]:
    """Sample points (x, y, z) along the four visible edges (``seen``: each side's margin and
    height), sides in the order top (y < 0), right (x > L), bottom (y > W), left (x < 0)."""
    (mt, zt), (mr, zr), (mb, zb), (ml, zl) = seen
    t = np.linspace(0.05, 0.95, n)
    x0, x1, y0, y1 = -ml, length + mr, -mt, width + mb
    ends = [((x0, -mt, zt), (x1, -mt, zt)), ((length + mr, y0, zr), (length + mr, y1, zr)),
            ((x1, width + mb, zb), (x0, width + mb, zb)), ((-ml, y1, zl), (-ml, y0, zl))]
    return [np.column_stack([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), np.full(n, a[2])]) for a, b in ends]


def _corners3d(length: float, width: float, seen: Sequence[tuple[float, float]]) -> FloatArray:
    """Where neighbouring visible edges meet, seen from above (x, y, mean height)."""
    (mt, zt), (mr, zr), (mb, zb), (ml, zl) = seen
    return np.array([[-ml, -mt, (zl + zt) / 2], [length + mr, -mt, (zt + zr) / 2],
                     [length + mr, width + mb, (zr + zb) / 2], [-ml, width + mb, (zb + zl) / 2]])


def fit_pose(lines: Sequence[FloatArray], corners_px: FloatArray, length: float, width: float, edge: EdgeGeometry,
             size: tuple[int, int], K: FloatArray | None = None) -> Pose:
    """The camera that sees the cloth's visible edges on ``lines`` (undistorted pixels).

    ``lines``: four normalised image lines ``(a, b, c)`` (``a x + b y + c = 0``, ``a^2 + b^2 = 1``)
    of the sides top, right, bottom, left (table frame, see :func:`side_points`); ``corners_px``
    their intersections, clockwise from the corner at table (0, 0). ``K``: known intrinsics, or
    ``None`` to solve the focal length as well (principal point at the image centre).
    """
    seen = [s.seen_from(True) for s in edge.sides]
    corners3d = _corners3d(length, width, seen)
    solve_f = K is None
    if K is None:
        hom, _ = cv2.findHomography(corners3d[:, :2], corners_px, 0)
        f0 = prior_focal(size)
        f_init = focal_from_homography(np.asarray(hom, dtype=np.float64), size) if hom is not None else None
        K = _camera_matrix(f_init if f_init is not None else f0, size)
    else:
        f0 = float(K[0, 0])
    obj = np.column_stack([corners3d[:, :2], np.full(4, -float(corners3d[:, 2].mean()))])
    ok, rvec, tvec = cv2.solvePnP(obj, corners_px.reshape(-1, 1, 2), K, None, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        ok, rvec, tvec = cv2.solvePnP(obj, corners_px.reshape(-1, 1, 2), K, None)
    rvec = np.asarray(rvec, dtype=np.float64).ravel()
    tvec = np.asarray(tvec, dtype=np.float64).ravel()
    fy_over_fx = float(K[1, 1] / K[0, 0])
    for _ in range(3):  # which walls are seen from inside depends on where the camera is
        params = np.concatenate([rvec, tvec, [math.log(float(K[0, 0]))]])
        sides = side_points(length, width, seen)

        def residuals(p: FloatArray, sides: list[FloatArray] = sides, k0: FloatArray = K) -> FloatArray:
            k = k0.copy()
            if solve_f:
                k[0, 0] = math.exp(p[6])
                k[1, 1] = k[0, 0] * fy_over_fx
            r = _line_residuals(k, p[:3], p[3:6], sides, lines) / LINE_SIGMA_PX
            prior = (p[6] - math.log(f0)) / PRIOR_LOG_SIGMA if solve_f else 0.0
            return np.append(r, prior)

        params = _gauss_newton(residuals, params, 7 if solve_f else 6)
        rvec, tvec = params[:3].copy(), params[3:6].copy()
        if solve_f:
            K = K.copy()
            K[0, 0] = math.exp(params[6])
            K[1, 1] = K[0, 0] * fy_over_fx
        c = Pose(K, rvec, tvec).centre()
        inside = [c[1] > 0.0, c[0] < length, c[1] < width, c[0] > 0.0]
        new = [s.seen_from(ins) for s, ins in zip(edge.sides, inside, strict=True)]
        if new == seen:
            break
        seen = new
    return Pose(K, rvec, tvec)


def _gauss_newton(fun: object, x0: FloatArray, n: int, iters: int = 30) -> FloatArray:
    """Levenberg-Marquardt on the first ``n`` parameters of ``x0`` (numeric Jacobian; a handful
    of parameters and a few dozen residuals, so this is cheap)."""
    f = fun  # a callable: params -> residual vector
    x = x0.astype(np.float64).copy()
    r = f(x)  # type: ignore[operator]
    cost = float(r @ r)
    lam = 1e-3
    steps = np.array([1e-6, 1e-6, 1e-6, 1e-3, 1e-3, 1e-3, 1e-6])[:n]
    for _ in range(iters):
        J = np.empty((len(r), n))
        for j in range(n):
            xp = x.copy()
            xp[j] += steps[j]
            J[:, j] = (f(xp) - r) / steps[j]  # type: ignore[operator]
        g = J.T @ r
        A = J.T @ J
        improved = False
        for _ in range(8):
            dx = np.linalg.solve(A + lam * np.diag(np.diag(A) + 1e-12), -g)
            xn = x.copy()
            xn[:n] += dx
            rn = f(xn)  # type: ignore[operator]
            cn = float(rn @ rn)
            if cn < cost:
                x, r, cost = xn, rn, cn
                lam = max(lam / 3.0, 1e-9)
                improved = True
                break
            lam *= 5.0
        if not improved or float(np.abs(dx).max()) < 1e-10:
            break
    return x


def camera_matrix_for(h: FloatArray, size: tuple[int, int]) -> FloatArray:
    """A camera matrix for a cloth homography when none is given: the focal length it implies
    (:func:`focal_from_homography`), else the prior; principal point at the image centre."""
    f = focal_from_homography(np.asarray(h, dtype=np.float64), size)
    return _camera_matrix(f if f is not None else prior_focal(size), size)


def lift_homography(h: FloatArray, K: FloatArray, dz_mm: float) -> FloatArray:
    """The homography of the plane ``dz_mm`` above the one ``h`` maps (table mm -> undistorted px).

    ``h ~ K [r1 r2 t]``; the plane ``dz`` higher is ``K [r1 r2 t - dz r3]`` (``r3 = r1 x r2``, the
    world's down axis in camera coordinates).
    """
    hm = np.asarray(h, dtype=np.float64)
    M = np.linalg.inv(np.asarray(K, dtype=np.float64)) @ hm
    lam = 2.0 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
    if M[2, 2] * lam < 0:  # the table lies in front of the camera
        lam = -lam
    r1, r2 = M[:, 0] * lam, M[:, 1] * lam
    r3 = np.cross(r1, r2)
    r3 /= np.linalg.norm(r3)
    out = hm.copy()
    out[:, 2] = hm[:, 2] - dz_mm * (np.asarray(K, dtype=np.float64) @ r3) / lam
    return np.asarray(out / out[2, 2], dtype=np.float64)
