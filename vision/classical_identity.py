"""Names for the classical detector's circles: which ball, piece or pin each one is.

Colour is read inside the circle (shrunk to keep the cloth out), pixel by pixel, as three
fractions and a hue: *white* (bright, unsaturated: a cue ball, a stripe's band, a carrom white),
*black* (dark: the 8, a carrom black), and the dominant hue of the saturated rest. Numbers are
fixed by the rules of the set, not by look-up tables of one camera's colours:

* pool: mostly white is the cue ball (``ball-0``); mostly black the ``ball-8``; otherwise the hue
  gives the colour (yellow 1/9, blue 2/10, red 3/11, purple 4/12, orange 5/13, green 6/14,
  maroon 7/15) and a large white fraction makes it a stripe. Each number is given once, most
  confident first; a ball left with a taken or doubtful number keeps a best guess at a lower score.
* bar billiards: red hue is the red ball, the rest white balls; small objects at a pin's spot are
  standing pins, elongated pin-sized objects fallen pins.
* carrom: the striker by its size; queen by a red/pink hue; black by darkness; the rest white.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableref.calibration.spec import TableSpec
from tableref.vision.classical_blobs import Candidate, CandidateSet, square_factors
from tableref.vision.classical_view import TableRegion
from tableref.vision.detect import Detection, pool_group

U8 = NDArray[Any]  # an 8-bit image (cv2's stubs type images loosely)

#: Pool colours by number (1-7; stripes add 8): OpenCV hue centre (0-180) and whether it is dark.
POOL_HUES: dict[int, tuple[float, bool]] = {
    1: (26.0, False),   # yellow
    2: (112.0, False),  # blue
    3: (177.0, False),  # red
    4: (140.0, False),  # purple
    5: (12.0, False),   # orange
    6: (70.0, False),   # green
    7: (5.0, True),     # maroon / brown
}


#: Blob sizes (in ball areas) beyond which a circle needs a ball's colour to count: more than a
#: small cluster, and more than a full rack (15 balls, overlapping in view).
BIG_BLOB = 4.0
HUGE_BLOB = 20.0


@dataclass(frozen=True)
class ColourStats:
    white: float  # fraction of bright, unsaturated pixels
    black: float  # fraction of dark pixels
    hue: float  # circular mean hue of the saturated pixels (OpenCV 0-180); -1 when none
    hue_weight: float  # fraction of saturated pixels
    value: float  # median brightness of the saturated pixels
    hue_spread: float  # 0 (one hue) .. 1 (all hues)
    sat: float = 0.0  # median saturation of the whole disc
    val: float = 0.0  # median brightness of the whole disc
    chroma: float = 1.0  # median of (Cr, Cb) distance from grey over luma: colourfulness, light-independent
    cb: float = 128.0  # median blue-difference (YCrCb): low for yellows and oranges


def colour_stats(
    hsv: U8, x: float, y: float, r: float, aspect: float, bright: float, bgr: U8 | None = None
) -> ColourStats:
    """Colour fractions inside the circle at (x, y), radius ``r`` (image pixels), shrunk to 0.7."""
    fx, fy = square_factors(aspect)
    rx = max(1.0, 0.7 * r * math.sqrt(fx * fy) / fx)
    ry = max(1.0, 0.7 * r * math.sqrt(fx * fy) / fy)
    rows, cols = hsv.shape[:2]
    x0, x1 = max(0, int(x - rx)), min(cols, int(x + rx) + 1)
    y0, y1 = max(0, int(y - ry)), min(rows, int(y + ry) + 1)
    if x1 <= x0 or y1 <= y0:
        return ColourStats(0.0, 0.0, -1.0, 0.0, 0.0, 1.0)
    patch = hsv[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32)
    dy = ((np.arange(y0, y1, dtype=np.float32) - y) / ry) ** 2
    dx = ((np.arange(x0, x1, dtype=np.float32) - x) / rx) ** 2
    inside = (dy[:, None] + dx[None, :] <= 1.0).ravel()
    p = patch[inside] if inside.any() else patch
    h, s, v = p[:, 0], p[:, 1], p[:, 2]
    white = (s < 70) & (v > 0.55 * bright)
    black = v < 0.25 * bright + 10
    sat = (s >= 90) & ~black
    n = float(len(p))
    if sat.any():
        ang = h[sat] * (2 * math.pi / 180.0)
        c, sn = float(np.cos(ang).mean()), float(np.sin(ang).mean())
        hue = (math.atan2(sn, c) % (2 * math.pi)) * 180.0 / (2 * math.pi)
        spread = 1.0 - math.hypot(c, sn)
        val = _median(v[sat])
    else:
        hue, spread, val = -1.0, 1.0, 0.0
    chroma, cb = 1.0, 128.0
    if bgr is not None:
        ycc = cv2.cvtColor(bgr[y0:y1, x0:x1], cv2.COLOR_BGR2YCrCb).reshape(-1, 3).astype(np.float32)
        q = ycc[inside] if inside.any() else ycc
        chroma = _median(np.hypot(q[:, 1] - 128.0, q[:, 2] - 128.0) / np.maximum(q[:, 0], 1.0))
        cb = _median(q[:, 2])
    return ColourStats(
        float(white.sum()) / n, float(black.sum()) / n, hue, float(sat.sum()) / n, val, spread,
        _median(s), _median(v), chroma, cb,
    )


def _median(a: NDArray[Any]) -> float:
    """The (upper) median of a small 1-D array; np.median's overhead dominates at this size."""
    return float(np.sort(a)[len(a) // 2]) if len(a) else 0.0


def _unit(v: float) -> float:
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else v


def _hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 180.0
    return min(d, 180.0 - d)


def pool_guesses(c: ColourStats, bright: float) -> list[tuple[int, float]]:
    """Candidate numbers with a confidence each, best first."""
    out: list[tuple[int, float]] = []
    out.append((0, _unit((c.white - 0.45) / 0.35) * (1.0 - min(1.0, c.hue_weight * 2.0))))
    out.append((8, _unit((c.black - 0.35) / 0.35)))
    if c.hue >= 0:
        stripe = _unit((c.white - 0.15) / 0.3)
        dark = c.value < 0.55 * bright
        for n, (hue, is_dark) in POOL_HUES.items():
            gap = _hue_gap(c.hue, hue)
            conf = max(0.0, 1.0 - gap / 25.0) * min(1.0, c.hue_weight / 0.25) * (1.0 - c.hue_spread)
            if n in (3, 7, 5):
                conf *= 1.0 if dark == is_dark or n == 5 else 0.6
            out.append((n, conf * (1.0 - stripe)))
            out.append((n + 8, conf * stripe))
    out.sort(key=lambda q: -q[1])
    return out


def assign_pool(stats: Sequence[ColourStats], bright: float) -> list[tuple[int, float]]:
    """One number per ball, each number used once while possible, most confident first."""
    guesses = [pool_guesses(c, bright) for c in stats]
    order = sorted(range(len(stats)), key=lambda i: -guesses[i][0][1] if guesses[i] else 0.0)
    taken: set[int] = set()
    out: list[tuple[int, float]] = [(0, 0.0)] * len(stats)
    for i in order:
        g = guesses[i]
        best = g[0] if g else (0, 0.0)
        for n, conf in g:
            if n not in taken:
                out[i] = (n, conf if n == best[0] else conf * 0.5)
                taken.add(n)
                break
        else:
            out[i] = (best[0], best[1] * 0.3)
    return out


def _dedupe(cands: list[Candidate]) -> list[Candidate]:
    cands = sorted(cands, key=lambda c: -c.score)
    kept: list[Candidate] = []
    for c in cands:
        if any(math.hypot(c.x - k.x, c.y - k.y) < 0.9 * min(c.radius, k.radius) for k in kept):
            continue
        kept.append(c)
    return kept


def plausible(c: Candidate, s: ColourStats, region: TableRegion) -> bool:
    """False for what the shape test lets through but no ball looks like.

    * In a pocket's mouth, only a clearly coloured or white object is a ball: the mouth itself is
      dark and dull (a black ball hanging in a jaw is lost; the tracker still knows it).
    * An object of several strong hues is not a ball: every ball has one hue, plus white on a
      stripe (a hand with a watch, a sleeve, the cue's wrap have several).
    * A circle cut out of a large blob (a hand, an arm, the cue over the table, balls touching
      them) must stand out as a ball does: white, black, or a strongly saturated colour. Skin and
      wood are only moderately saturated, in HSV and in YCrCb chroma relative to luma (the
      yellows and oranges, whose blue-difference is low, are never skin); the paint of a ball is
      strongly coloured.
    """
    in_hole = any(math.hypot(c.x - hx, c.y - hy) < 1.5 * hr for hx, hy, hr in region.holes_px)
    if in_hole and s.hue_weight < 0.5 and s.white < 0.3:
        return False
    if s.hue_weight >= 0.2 and s.hue_spread > 0.3:
        return False
    plain = s.white >= 0.3 or s.black >= 0.4
    if c.blob > BIG_BLOB and not plain and (s.sat < 120 or (s.cb > 92 and s.chroma < 0.3)):
        return False
    return not (c.blob > HUGE_BLOB and not plain and s.sat < 150)


def identify(
    found: CandidateSet,
    region: TableRegion,
    spec: TableSpec,
    min_score: float,
) -> list[Detection]:
    """Label the candidates for ``spec``'s table and drop pocket mouths and weak ones."""
    cands = [c for c in _dedupe(list(found.candidates)) if c.score >= min_score]
    if not cands:
        return []
    x0, y0, _, _ = region.box
    hsv, sc, aspect = found.hsv, found.scale, found.aspect
    values = hsv[..., 2][found.mask > 0][::5]
    bright = float(np.percentile(values, 95)) if values.size else max(60.0, float(region.cloth.val))
    stats = [
        colour_stats(hsv, (c.x - x0) * sc, (c.y - y0) * sc, c.radius * sc, aspect, bright, found.bgr) for c in cands
    ]
    keep = []
    for c, s in zip(cands, stats, strict=True):
        if c.kind == "ball" and not plausible(c, s, region):
            continue
        keep.append((c, s))
    if not keep:
        return []
    cands = [c for c, _ in keep]
    stats = [s for _, s in keep]
    out: list[Detection] = []
    if spec.name == "pool":
        for c, (n, conf) in zip(cands, assign_pool(stats, bright), strict=True):
            score = c.score * (0.6 + 0.4 * conf)
            out.append(Detection(f"ball-{n}", pool_group(n), c.x, c.y, c.radius, float(min(1.0, score))))
    elif spec.name == "bar-billiards":
        out.extend(label_bar_billiards(cands, stats, region))
    else:  # carrom
        out.extend(label_carrom(cands, stats, spec))
    return out


def _red(s: ColourStats) -> bool:
    return s.hue >= 0 and _hue_gap(s.hue, 177.0) < 20 and s.hue_weight > 0.3


def label_bar_billiards(
    cands: Sequence[Candidate], stats: Sequence[ColourStats], region: TableRegion
) -> list[Detection]:
    """Balls by colour (one red, the rest white); pins by place: a standing pin is the pin whose
    spot it stands on, a fallen pin the nearest pin whose spot is empty (players may swap the black
    and red pins, so colour does not name a pin)."""
    out: list[Detection] = []
    standing: set[str] = set()
    fallen: list[Candidate] = []
    for c, s in zip(cands, stats, strict=True):
        if c.kind == "pin-standing":
            pid = min(region.pins_px, key=lambda p: math.hypot(c.x - p[1], c.y - p[2]))[0]
            standing.add(pid)
            out.append(Detection(pid, "pin-standing", c.x, c.y, c.radius, float(min(1.0, c.score))))
        elif c.kind == "pin-fallen":
            fallen.append(c)
        else:
            label = "red" if _red(s) else "white"
            out.append(Detection(label, label, c.x, c.y, c.radius, float(min(1.0, c.score))))
    for c in fallen:
        free = [p for p in region.pins_px if p[0] not in standing] or list(region.pins_px)
        pid = min(free, key=lambda p: math.hypot(c.x - p[1], c.y - p[2]))[0]
        standing.add(pid)
        out.append(Detection(pid, "pin-fallen", c.x, c.y, c.radius, float(min(1.0, c.score))))
    return out


def label_carrom(cands: Sequence[Candidate], stats: Sequence[ColourStats], spec: TableSpec) -> list[Detection]:
    """The striker by its size (a third larger than a carrom man), the queen by its red, black men
    by darkness, the rest white."""
    men = spec.object_radius.get("white", 15.5)
    striker = spec.object_radius.get("striker", 20.6)
    cut = math.sqrt(men * striker) / men  # halfway (geometrically) between the two sizes
    sizes = sorted(c.radius / c.expected for c in cands)
    typical = sizes[len(sizes) // 2] if sizes else 1.0
    out: list[Detection] = []
    biggest = max(range(len(cands)), key=lambda i: cands[i].radius / cands[i].expected, default=-1)
    for i, (c, s) in enumerate(zip(cands, stats, strict=True)):
        rel = (c.radius / c.expected) / max(typical, 1e-6)
        if i == biggest and rel >= cut:
            label = "striker"
        elif s.black > 0.5:
            label = "black"
        elif _red(s) or (s.hue >= 0 and _hue_gap(s.hue, 165.0) < 20 and s.hue_weight > 0.3):
            label = "queen"
        else:
            label = "white"
        out.append(Detection(label, label, c.x, c.y, c.radius, float(min(1.0, c.score))))
    return out
