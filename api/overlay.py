"""The calibration snapshot: the table spec's holes, pockets and lines drawn over a live frame."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from tableref.calibration.spec import load_table


def calibration_overlay(jpeg: bytes, table_kind: str, calibration: dict[str, Any] | None) -> bytes:
    """Draw the spec through the calibration's homography so a venue can check the fit by eye."""
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        return jpeg
    if calibration and "homography" in calibration:
        spec = load_table(table_kind)
        H = np.asarray(calibration["homography"], dtype=np.float64)
        size = calibration.get("image_size") or [image.shape[1], image.shape[0]]
        scale = np.diag([image.shape[1] / float(size[0]), image.shape[0] / float(size[1]), 1.0])
        H = scale @ H

        def px(points: list[tuple[float, float]]) -> np.ndarray:
            pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
            return cv2.perspectiveTransform(pts, H).reshape(-1, 2)

        cv2.polylines(image, [px(list(spec.corners)).astype(np.int32)], True, (0, 255, 255), 2)
        for hole in spec.holes:
            c = px([(hole.x, hole.y)])[0]
            cv2.circle(image, (int(c[0]), int(c[1])), 6, (0, 0, 255), 2)
    else:
        cv2.putText(image, "not calibrated", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 255), 2)
    ok, buf = cv2.imencode(".jpg", image)
    return buf.tobytes() if ok else jpeg
