"""``tableref calibrate``: find the table in an image or a video's first good frame, write the
calibration file and an overlay for a venue to check.

``--intrinsics FILE`` gives the camera's lens (a JSON object with ``K`` or ``matrix``, 3x3, and
``distortion``, OpenCV order; or an object holding those under ``camera``, such as a simulated
clip's ``truth.json``). With it, lens distortion is undone before the table is measured and the
camera's pose is solved with the true focal length; without it the focal length is fitted from the
picture, and so is the lens's radial distortion when the table's edges are bent (``lens.py``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import cv2

from tableref.calibration.calibrate import calibrate_source, draw_overlay, overlay_path
from tableref.calibration.homography import Intrinsics, parse_corners
from tableref.calibration.resolution import check_resolution
from tableref.errors import UserError


def load_intrinsics(path: str | Path) -> Intrinsics:
    """The camera matrix and distortion in a JSON file (``UserError`` saying what is accepted)."""
    p = Path(path)
    accepted = ('expected a JSON object {"K": [[fx,0,cx],[0,fy,cy],[0,0,1]], "distortion": [k1,k2,p1,p2[,k3]]} '
                '(or the same under "camera")')
    try:
        data: Any = json.loads(p.read_text("utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read the intrinsics file {str(p)!r}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"the intrinsics file {str(p)!r} is not valid JSON ({exc.msg}); {accepted}") from None
    if isinstance(data, dict) and isinstance(data.get("camera"), dict) and "K" not in data and "matrix" not in data:
        data = data["camera"]
    if not isinstance(data, dict):
        raise UserError(f"the intrinsics file {str(p)!r} is not a JSON object; {accepted}")
    matrix = data.get("K", data.get("matrix"))
    dist = data.get("distortion", data.get("dist", [0.0, 0.0, 0.0, 0.0, 0.0]))
    if matrix is None:
        raise UserError(f"the intrinsics file {str(p)!r} has no camera matrix; {accepted}")
    try:
        return Intrinsics.from_arrays(matrix, dist if dist is not None else [0.0, 0.0, 0.0, 0.0])
    except (TypeError, ValueError):
        raise UserError(f"the intrinsics file {str(p)!r} holds no numeric camera matrix and distortion; {accepted}") from None
    except UserError as exc:
        raise UserError(f"the intrinsics file {str(p)!r}: {exc}") from None


def run_calibrate(args: argparse.Namespace) -> int:
    """Calibrate from SOURCE (an image, or a video's first good frame); write the file and an overlay."""
    corners = parse_corners(args.corners) if args.corners else None
    intrinsics = load_intrinsics(args.intrinsics) if getattr(args, "intrinsics", None) else None
    cal, frame = calibrate_source(args.source, args.table, corners, intrinsics)
    out = Path(args.out)
    cal.save(out)
    overlay = overlay_path(out)
    if not cv2.imwrite(str(overlay), draw_overlay(frame, cal)):
        raise UserError(f"cannot write the overlay image {str(overlay)!r}")
    corners_text = " ".join(f"{x:.1f},{y:.1f}" for x, y in cal.corners_px)
    if intrinsics is not None:
        lens = "given intrinsics"
    elif cal.mapping.camera is not None:
        lens = f"fitted focal length and lens distortion k1 {cal.mapping.camera.distortion[0]:+.4f}"
    else:
        lens = "fitted focal length, straight edges: no lens distortion"
    print(f"calibrated {cal.table} table ({cal.source} corners: {corners_text}; {lens})")
    print(f"wrote {out} and {overlay} (check the overlay: every hole and line should sit on the table)")
    print(check_resolution(cal.spec, cal.to_pixels).message())
    return 0
