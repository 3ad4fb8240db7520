"""The fast classical detector: cloth model, colour segmentation, circles of the expected size.

One call per frame, no state kept between frames (the tracker smooths over time). The stages:

1. the table region (``classical_view``): from the calibration when given, else found in the image;
2. ball candidates (``classical_blobs``): non-cloth blobs split into circles of the expected size;
3. identity and clean-up (``classical_identity``): pocket mouths and rails removed, each object
   named from its colours (pool number, bar-billiards white/red, pins, carrom pieces);
4. image pixels back to table millimetres when the mapping is metric.

Why this and not a learned model by default: it needs no weights, runs in a few milliseconds on one
core, and its failure modes (a ball the colour of the cloth, a ball in a hand) are easy to reason
about. The learned detector plugs in behind the same :class:`~tableref.vision.detect.Detector`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.spec import TableSpec, load_table
from tableref.calibration.surface import CLOTH_MARGIN_MM, estimate_cloth
from tableref.errors import UserError
from tableref.vision.classical_blobs import BlobParams, find_candidates
from tableref.vision.classical_identity import identify
from tableref.vision.classical_view import TableRegion, auto_region, region_from_mapping
from tableref.vision.detect import Detection

U8 = NDArray[Any]  # an 8-bit image (cv2's stubs type images loosely)

#: Tables the classical detector knows how to read (cards need a card reader, not circles).
SUPPORTED_TABLES = ("pool", "bar-billiards", "carrom")


def ball_radius_mm(spec: TableSpec) -> float:
    """The radius of the table's round objects (pool ball, bar-billiards ball, carrom man)."""
    r = spec.object_radius
    for key in ("ball", "white", "red", "black"):
        if key in r:
            return float(r[key])
    raise UserError(f"table {spec.name!r} has no round objects to detect")


@dataclass(frozen=True)
class ClassicalParams:
    """Every threshold in one place; see :class:`BlobParams` for the candidate stage.

    ``min_score``: candidates below it are not reported (higher: fewer false detections, fewer
    balls found).
    """

    blobs: BlobParams = field(default_factory=BlobParams)
    min_score: float = 0.5


class ClassicalDetector:
    """Detector for pool, bar billiards and carrom; see the module docstring.

    ``calibration`` (a :class:`tableref.calibration.calibrate.Calibration`) fixes the table region
    and the mapping to millimetres; without it the table is found in every image.
    """

    def __init__(self, table: str, calibration: Any = None, params: ClassicalParams | None = None) -> None:
        if table not in SUPPORTED_TABLES:
            raise UserError(
                f"the classical detector reads balls and pieces on {', '.join(SUPPORTED_TABLES)}; "
                f"{table!r} is not one of them"
            )
        self.table = table
        self.spec: TableSpec = load_table(table) if calibration is None else calibration.spec
        if calibration is not None and calibration.table != table:
            raise UserError(
                f"the calibration is for table {calibration.table!r} but --table is {table!r}; "
                "use a calibration made for this table"
            )
        self.calibration = calibration
        self.params = params or ClassicalParams()
        self.ball_mm = ball_radius_mm(self.spec)
        if self.spec.pins and self.params.blobs.pin_ratio == 0.0:
            from dataclasses import replace

            ratio = self.spec.pins[0].radius / self.ball_mm
            self.params = replace(self.params, blobs=replace(self.params.blobs, pin_ratio=ratio))
        self._region_cache: dict[tuple[int, int], TableRegion] = {}

    # -- the table region --------------------------------------------------------------------
    def region(self, image: U8) -> TableRegion:
        rows, cols = image.shape[:2]
        cal = self.calibration
        if cal is None:
            return auto_region(self.spec, image, self.ball_mm)
        if tuple(cal.image_size) != (cols, rows):
            raise UserError(
                f"the calibration was made on {cal.image_size[0]}x{cal.image_size[1]} images, "
                f"this image is {cols}x{rows}; calibrate on a frame of this camera"
            )
        cached = self._region_cache.get((cols, rows))
        if cached is None:
            margin = CLOTH_MARGIN_MM.get(self.spec.name, 0.0)
            cached = region_from_mapping(
                self.spec, (cols, rows), cal.mapping.to_pixels, cal.mapping.to_table, None, margin, self.ball_mm
            )
            self._region_cache[(cols, rows)] = cached
        # the cloth colour may change with the light: measure it in every frame
        crop = cached.crop(image)
        hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
        cloth = estimate_cloth(hsv, (cached.mask > 0).astype(np.float64))
        from dataclasses import replace

        return replace(cached, cloth=cloth)

    # -- detection ---------------------------------------------------------------------------
    def detect(self, image: U8) -> tuple[Detection, ...]:
        if image is None or not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
            raise UserError("expected a colour (BGR) image")
        region = self.region(image)
        found = find_candidates(image, region, self.params.blobs)
        objects = identify(found, region, self.spec, self.params.min_score)
        if region.metric and region.to_mm is not None and objects:
            mm = region.to_mm(np.array([[d.x, d.y] for d in objects], dtype=np.float64))
            from dataclasses import replace

            objects = [replace(d, x_mm=float(p[0]), y_mm=float(p[1])) for d, p in zip(objects, mm, strict=True)]
            if self.calibration is None:
                # auto-found tables: positions are approximate, keep them only with a calibration
                objects = [replace(d, x_mm=None, y_mm=None) for d in objects]
        return tuple(objects)
