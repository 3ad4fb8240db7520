"""``tableref calibrate`` and ``tableref detect``: thin wrappers that read files and print results.

Every failure a user can cause (a missing or unreadable file, a picture with no table, a table
kind that does not match the picture or the calibration, degenerate corners) is a
:class:`~tableref.errors.UserError`, which ``tableref.cli`` prints as one line with exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.calibrate import (
    VIDEO_SUFFIXES,
    Calibration,
    calibrate_source,
    draw_overlay,
    overlay_path,
    read_frames,
    read_image,
)
from tableref.calibration.homography import parse_corners
from tableref.errors import UserError
from tableref.vision.detect import Detection, make_detector


def run_calibrate(args: argparse.Namespace) -> int:
    """Calibrate from SOURCE (an image, or a video's first good frame); write the file and an overlay."""
    corners = parse_corners(args.corners) if args.corners else None
    cal, frame = calibrate_source(args.source, args.table, corners)
    out = Path(args.out)
    cal.save(out)
    overlay = overlay_path(out)
    if not cv2.imwrite(str(overlay), draw_overlay(frame, cal)):
        raise UserError(f"cannot write the overlay image {str(overlay)!r}")
    corners_text = " ".join(f"{x:.1f},{y:.1f}" for x, y in cal.corners_px)
    print(f"calibrated {cal.table} table ({cal.source} corners: {corners_text})")
    print(f"wrote {out} and {overlay} (check the overlay: every hole and line should sit on the table)")
    return 0


def _read_picture(path: str) -> NDArray[np.uint8]:
    if Path(path).suffix.lower() in VIDEO_SUFFIXES:
        return read_frames(path, limit=1, step=1)[0]
    return read_image(path)


def format_detections(detections: tuple[Detection, ...]) -> str:
    lines = [f"{'label':<14}{'group':<14}{'x':>8}{'y':>8}{'radius':>8}{'score':>7}{'x_mm':>9}{'y_mm':>9}"]
    for d in detections:
        mm = f"{d.x_mm:>9.1f}{d.y_mm:>9.1f}" if d.x_mm is not None and d.y_mm is not None else ""
        lines.append(f"{d.label:<14}{d.group:<14}{d.x:>8.1f}{d.y:>8.1f}{d.radius:>8.1f}{d.score:>7.2f}{mm}")
    lines.append(f"{len(detections)} objects")
    return "\n".join(lines)


def run_detect(args: argparse.Namespace) -> int:
    """Detect the objects in one image; ``--json`` prints ``{"detections": [...]}``."""
    calibration = Calibration.load(args.calibration) if args.calibration else None
    if calibration is not None and calibration.table != args.table:
        raise UserError(
            f"the calibration {args.calibration!r} is for table {calibration.table!r}, not {args.table!r}; "
            "use --table to match it or calibrate again"
        )
    image = _read_picture(args.image)
    detector = make_detector(args.table, getattr(args, "detector", "classical"), calibration)
    detections = detector.detect(image)
    if args.json:
        json.dump({"detections": [d.to_json() for d in detections]}, sys.stdout)
        sys.stdout.write("\n")
    else:
        print(format_detections(detections))
    return 0
