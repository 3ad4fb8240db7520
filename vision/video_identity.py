"""Which object each found disc is: pool numbers, bar-billiards white or red, carrom pieces.

Colour is read at the camera's full resolution inside the disc (to 0.9 of its radius, so that a
stripe's band lying along the rim still shows), pixel by pixel, against the brightness of the
bare cloth under the ball (from the background model). Four fractions describe a ball:

* *white*: bright and unsaturated (the cue ball, a stripe's white, a solid's number disc);
* *dark*: much darker than the cloth around (the 8, a black carrom man);
* *saturated*: the rest with a clear hue; their circular-mean hue and brightness;
* the disc's mean brightness relative to the cloth (a black ball is dark whatever its highlight).

Numbers are then assigned once each, most confident first (:func:`assign_unique`), because a
set has one of every ball: of two red-looking solids the darker is the 7. A ball whose view is
ambiguous in one frame (a stripe showing only its white) keeps a lower score; the detector's own
memory and the tracker's label votes carry its identity across frames.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]

#: Standard pool-ball colours as OpenCV hues (0-180) for numbers 1-7 (stripes 9-15 the same).
POOL_HUE: dict[int, float] = {1: 23.0, 2: 113.0, 3: 179.0, 4: 138.0, 5: 11.5, 6: 72.0, 7: 3.0}
#: Numbers whose colours are dark (maroon): told from their bright twin by brightness.
DARK_COLOURS = {7}


@dataclass(frozen=True)
class BallColour:
    """Colour evidence of one disc (fractions of its pixels; hue -1 when nothing is saturated)."""

    white: float
    dark: float
    sat: float
    hue: float
    hue_spread: float
    sat_value: float  # mean V of the saturated pixels relative to the cloth's V
    brightness: float  # mean V of the disc relative to the cloth's V
    white_value: float  # mean V of the white pixels relative to the cloth's V (0 when none)
    white_spread: float  # second moment of the white pixels about their centroid / r^2
    rim_cover: float = 0.0  # share of the eight sectors of the disc's rim that show a ball colour
    rim_hue: float = -1.0  # circular-mean hue of that rim colour (-1 when none)
    cloth_hue: float = -1.0  # the bare cloth's hue under the disc, when known (-1: unknown or grey)
    rim_white: float = 1.0  # share of the rim ring's pixels that are white (read with the rim only)


#: The rim ring, in radii: a stripe lying with a white cap towards the camera shows its band only
#: there, all round, as a thin coloured ring that the reading inside 0.9 of the radius hardly sees.
RIM_RING = (0.7, 1.0)
#: A rim pixel counts as ball colour when saturated and this far (OpenCV hue) from the cloth's hue:
#: the cloth seen past a slightly large radius, and its reflection on the ball's limb, do not.
RIM_CLOTH_GAP = 15.0
RIM_SECTORS = 8
#: The least white share of a disc read as a stripe's cap towards the camera.
CAP_WHITE = 0.6
#: White spread (second moment about its centroid over the squared radius) from which a view's
#: white counts as two caps at opposite limbs; a uniform disc spreads 0.5.
WIDE_WHITE = 0.25
#: Score of a stripe whose band would be invisible on this cloth (its colour within
#: :data:`RIM_CLOTH_GAP` of the cloth's hue) for a white disc, as a share of its cue-ball score.
#: Lying cap-up, such a stripe is a white disc like the cue ball, a little smaller. Below any real
#: reading of a colour, so that it is taken only by a white disc that lost the one cue ball to a
#: whiter one, while that stripe is seen nowhere else.
HIDDEN_BAND = 0.3
#: The same for a stripe of any other colour, as a share of :data:`HIDDEN_BAND`: a cap-up band is
#: about 0.15 of the radius wide, under a pixel on a ball imaged 7 px across, and blurs away on any
#: cloth. Lower than a hidden colour's, so that the number the cloth explains is taken first.
THIN_BAND = 0.5
#: What a thin band's score keeps when the rim's few coloured pixels (``BallColour.rim_hue``,
#: read from as few as three) name another colour: a tie among every stripe becomes a lean to the
#: one whose colour shows (a 12 lying cap-up on a grey cloth, its violet band a pixel wide, was
#: named the 15 for the whole clip), while three stray pixels (a neighbour's colour at the rim)
#: cannot rule a number out.
RIM_HINT = 0.5


_DISCS: dict[int, tuple[NDArray[np.intp], NDArray[np.intp]]] = {}


def _disc(radius: float) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    key = int(round(radius * 4))
    got = _DISCS.get(key)
    if got is None:
        rr = key / 4.0
        n = int(math.ceil(rr))
        yy, xx = np.mgrid[-n:n + 1, -n:n + 1]
        keep = xx * xx + yy * yy <= rr * rr
        got = (yy[keep].astype(np.intp), xx[keep].astype(np.intp))
        _DISCS[key] = got
    return got


def ball_colours(image: U8, centres: Sequence[tuple[float, float, float]], cloth_v: Sequence[float],
                 inner: float = 0.9, cloth_luma: Sequence[float] | None = None,
                 cloth_hue: Sequence[float] | None = None,
                 gains: tuple[float, float, float] | None = None) -> list[BallColour]:
    """Colour evidence for discs ``(x, y, radius)`` in full-resolution pixels of ``image``.

    ``cloth_v``: the bare cloth's HSV value (0-255) under each disc, the brightness reference.
    ``cloth_luma``: the bare cloth's luminance (0-255) under each disc, when known: what an
    unsaturated pixel must outshine to count as white. A saturated cloth's value is its
    strongest channel alone (a blue cloth's blue), far brighter than its luminance, while the
    white of a ball's far side, turned from the lamp, is grey; against the value it would count
    as nothing, and a stripe whose white caps lie on its shaded sides would read as a solid.
    ``cloth_hue``: the bare cloth's hue (OpenCV, -1 when the cloth is unsaturated) under each
    disc, when known: then the rim ring is read too (``rim_cover``, ``rim_hue``; see
    :data:`RIM_RING`). All discs are read in one pass (one gather, one colour conversion,
    per-disc sums). ``gains``: BGR multipliers that neutralise the light's colour
    (:class:`~tableref.vision.video_cast.LightCast`), applied to the pixels before anything is
    read; the cloth references must be read through the same gains.
    """
    if not centres:
        return []
    h, w = image.shape[:2]
    rim = cloth_hue is not None
    # The reading disc (``inner``) and, with the rim, the whole disc: one gather of the larger.
    offs = [_disc(max(1.5, (max(inner, RIM_RING[1]) if rim else inner) * r)) for _, _, r in centres]
    counts = np.array([len(o[0]) for o in offs])
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    dy = np.concatenate([o[0] for o in offs])
    dx = np.concatenate([o[1] for o in offs])
    cy = np.repeat([int(round(c[1])) for c in centres], counts)
    cx = np.repeat([int(round(c[0])) for c in centres], counts)
    px = image[np.clip(dy + cy, 0, h - 1), np.clip(dx + cx, 0, w - 1)].reshape(-1, 1, 3)
    if gains is not None and gains != (1.0, 1.0, 1.0):
        px = np.clip(px * np.asarray(gains, dtype=np.float32), 0, 255).astype(np.uint8)
    hsv = cv2.cvtColor(px, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    hh, ss, vv = hsv[:, 0], hsv[:, 1], hsv[:, 2]
    ref = np.repeat(np.maximum(20.0, np.asarray(cloth_v, dtype=np.float32)), counts)
    ref_w = ref if cloth_luma is None else \
        np.repeat(np.maximum(20.0, np.minimum(np.asarray(cloth_luma, dtype=np.float32),
                                              np.asarray(cloth_v, dtype=np.float32))), counts)
    d2 = (dx * dx + dy * dy).astype(np.float32)
    if rim:  # the same pixels as a disc of the reading radius (quarter-pixel steps, as _disc)
        r_in = np.repeat([round(max(1.5, inner * r) * 4) / 4 for _, _, r in centres], counts).astype(np.float32)
        inside = d2 <= r_in * r_in
    else:
        inside = np.ones(len(d2), dtype=bool)
    white_any = (ss < 75) & (vv > 1.05 * ref_w)
    white = white_any & inside
    lit = white & (vv > 1.05 * ref)  # white in the light: the brightness reference of white
    # a saturated pixel keeps its hue even in shade (a maroon band on a shaded rim)
    sat = (ss >= 90) & ~white & ((vv >= 0.55 * ref) | ((ss >= 150) & (vv >= 0.25 * ref))) & inside
    dark = (vv < 0.55 * ref) & ~sat & inside
    ang = hh * np.float32(math.pi / 90.0)

    def per(values: NDArray[np.floating] | NDArray[np.bool_]) -> NDArray[np.float64]:
        return np.add.reduceat(np.asarray(values, dtype=np.float64), starts)

    rim_cover, rim_hue, rim_white = \
        _rim(centres, counts, dx, dy, d2, hh, ss, vv, ref, ang, cloth_hue, white_any) if cloth_hue is not None \
        else (np.zeros(len(centres)), np.full(len(centres), -1.0), np.ones(len(centres)))
    n_in = per(inside)
    n_w, n_d, n_s, v_sum = per(white), per(dark), per(sat), per(np.where(inside, vv, 0))
    wx, wy = per(np.where(white, dx, 0)), per(np.where(white, dy, 0))
    wxx, wyy = per(np.where(white, dx * dx, 0)), per(np.where(white, dy * dy, 0))
    wv, n_lit, wv_lit = per(np.where(white, vv, 0)), per(lit), per(np.where(lit, vv, 0))
    sc, sn, sv = per(np.where(sat, np.cos(ang), 0)), per(np.where(sat, np.sin(ang), 0)), per(np.where(sat, vv, 0))
    out: list[BallColour] = []
    for i, ((_, _, r), cv) in enumerate(zip(centres, cloth_v, strict=True)):
        n = float(n_in[i])
        rf = max(20.0, float(cv))
        if n_w[i] >= 3:
            mx, my = wx[i] / n_w[i], wy[i] / n_w[i]
            spread_w = float((wxx[i] / n_w[i] - mx * mx) + (wyy[i] / n_w[i] - my * my)) / max(1.0, r * r)
            white_v = float((wv_lit[i] / n_lit[i]) if n_lit[i] >= 3 else (wv[i] / n_w[i])) / rf
        else:
            spread_w, white_v = 0.0, 0.0
        if n_s[i] >= 3:
            c, s_ = sc[i] / n_s[i], sn[i] / n_s[i]
            hue = (math.degrees(math.atan2(s_, c)) % 360.0) / 2.0
            spread = 1.0 - math.hypot(c, s_)
            sat_v = float(sv[i] / n_s[i]) / rf
        else:
            hue, spread, sat_v = -1.0, 1.0, 0.0
        out.append(BallColour(float(n_w[i]) / n, float(n_d[i]) / n, float(n_s[i]) / n, hue, spread, sat_v,
                              float(v_sum[i]) / n / rf, white_v, spread_w, float(rim_cover[i]), float(rim_hue[i]),
                              float(cloth_hue[i]) if cloth_hue is not None else -1.0, float(rim_white[i])))
    return out


def _rim(centres: Sequence[tuple[float, float, float]], counts: NDArray[np.int_],
         dx: NDArray[np.intp], dy: NDArray[np.intp], d2: NDArray[np.float32], hh: NDArray[np.float32],
         ss: NDArray[np.float32], vv: NDArray[np.float32], ref: NDArray[np.float32], ang: NDArray[np.float32],
         cloth_hue: Sequence[float], white: NDArray[np.bool_]) -> tuple[F64, F64, F64]:
    """Per disc: the share of its rim's eight sectors in which at least a third of the ring's
    pixels show a ball colour, that colour's mean hue, and the share of the ring that is white
    (the cue ball is white to its limb; a stripe lying cap-up only to about 0.85 of its radius,
    whatever colour its band is).

    Why sectors: a ball touching another, or a coloured shadow, colours one side of the rim; a
    stripe's band seen round a white cap colours all of it.
    """
    n = len(centres)
    rad = np.repeat([max(1.5, r) for _, _, r in centres], counts).astype(np.float32)
    ring = (d2 > (RIM_RING[0] * rad) ** 2) & (d2 <= (RIM_RING[1] * rad) ** 2)
    ch = np.repeat(np.asarray(cloth_hue, dtype=np.float32), counts)
    gap = np.abs(hh - ch) % 180.0
    gap = np.minimum(gap, 180.0 - gap)
    colour = ring & (ss >= 90) & (vv >= 0.25 * ref) & ((ch < 0) | (gap > RIM_CLOTH_GAP))
    disc_of = np.repeat(np.arange(n), counts)
    sector = ((np.arctan2(dy, dx) + math.pi) * (RIM_SECTORS / (2 * math.pi))).astype(np.intp) % RIM_SECTORS
    cell = disc_of * RIM_SECTORS + sector
    in_ring = np.bincount(cell[ring], minlength=n * RIM_SECTORS).reshape(n, RIM_SECTORS)
    coloured = np.bincount(cell[colour], minlength=n * RIM_SECTORS).reshape(n, RIM_SECTORS)
    cover = ((coloured >= np.maximum(1, in_ring / 3.0)) & (in_ring > 0)).sum(axis=1) / RIM_SECTORS
    c = np.bincount(disc_of[colour], weights=np.cos(ang[colour]), minlength=n)
    s_ = np.bincount(disc_of[colour], weights=np.sin(ang[colour]), minlength=n)
    k = np.bincount(disc_of[colour], minlength=n)
    hue = np.where(k >= 3, (np.degrees(np.arctan2(s_, c)) % 360.0) / 2.0, -1.0)
    whites = np.bincount(disc_of[ring & white], minlength=n) / np.maximum(1, in_ring.sum(axis=1))
    return cover.astype(np.float64), hue.astype(np.float64), whites.astype(np.float64)


def _unit(x: float) -> float:
    """``x`` held to [0, 1]: the ramps of the scores below (np.clip costs ten times more on a
    single number, and these run for every object of every frame)."""
    return min(1.0, max(0.0, float(x)))


def hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 180.0
    return min(d, 180.0 - d)


def white_reference(colours: Sequence[BallColour]) -> float:
    """The brightness of white ball surface in this frame (relative to the cloth): the median over
    discs that show enough white (cue ball, stripes, number discs); 0 when none does."""
    vals = [c.white_value for c in colours if c.white >= 0.15 and c.white_value > 0]
    return float(np.median(vals)) if vals else 0.0


def pool_scores(c: BallColour, white_ref: float = 0.0) -> F64:
    """Confidence in [0, 1] for each number 0..15 from one view of a ball.

    ``white_ref``: :func:`white_reference` of the frame; with it the maroon 7 is told from the
    red 3 by how bright its colour is next to white (:func:`maroon_fit`).
    """
    s = np.zeros(16, dtype=np.float64)
    colourless = max(0.0, 1.0 - c.sat / 0.12)
    # A white disc ringed all round by one ball colour is a stripe with a cap towards the camera,
    # not the cue ball (whose limb shows only the cloth's reflection and shade). Mostly white
    # (cap-up stripes read 0.85-0.9): a solid's number disc is small, and a solid's colour all
    # round its rim must not make it a stripe.
    cap = _unit((c.rim_cover - 0.2) / 0.3) if c.rim_hue >= 0 and c.white >= CAP_WHITE else 0.0
    # white to the limb (a stripe lying cap-up is white only to about 0.85 of its radius): of two
    # white discs the whiter rim is the cue ball's
    whole = 0.8 + 0.2 * _unit((c.rim_white - 0.5) / 0.4)
    # and of two, the one lit like the frame's white balls: a grey patch (a sleeve, a chalk cube)
    # is no cue ball, and its tie with the cue ball must not hand the cue ball a stripe's number
    lit = 0.8 + 0.2 * _unit((c.white_value / white_ref - 0.5) / 0.4) if white_ref > 0 else 1.0
    s[0] = _unit((c.white - 0.55) / 0.3) * colourless * (1.0 - cap) * whole * lit
    s[8] = _unit((c.dark - 0.3) / 0.3) * max(0.0, 1.0 - c.sat / 0.35)
    dark_fit = maroon_fit(c, white_ref)
    if c.hue >= 0:
        # a stripe's white lies in two caps on opposite sides (a wide spread); a solid's in its
        # number disc (compact)
        stripe = _unit((c.white - 0.12) / 0.3)
        if c.white < 0.45:
            stripe *= _unit((c.white_spread - 0.06) / 0.12)
        # white spread as widely as the disc itself (about half the squared radius) is two caps
        # at opposite limbs, however little of them shows: a solid's white is its number disc and
        # highlight, a compact patch (over our development clips, solids showing 15-30 % white
        # spread 0.08-0.14, stripes 0.5-0.6)
        stripe = max(stripe, _unit((c.white_spread - WIDE_WHITE) / 0.15) * _unit((c.white - 0.12) / 0.06))
        amount = min(1.0, c.sat / 0.2) * (1.0 - min(1.0, c.hue_spread * 2.0))
        for n in POOL_HUE:
            fit = _hue_fit(c.hue, n) * _red_split(n, dark_fit)
            s[n] = fit * amount * (1.0 - stripe)
            s[n + 8] = fit * amount * stripe
    if cap > 0:
        for n in POOL_HUE:
            s[n + 8] = max(s[n + 8], cap * _hue_fit(c.rim_hue, n, c.cloth_hue) * _red_split(n, dark_fit))
    if s[0] > 0:
        for n, h in POOL_HUE.items():  # a band the cloth or the resolution hides (see HIDDEN_BAND)
            gap = hue_gap(h, c.cloth_hue) if c.cloth_hue >= 0 else math.inf
            hidden = 1.0 - 0.5 * gap / RIM_CLOTH_GAP if gap <= RIM_CLOTH_GAP else THIN_BAND
            if gap > RIM_CLOTH_GAP and c.rim_hue >= 0:
                # a few band pixels on the rim, too few to colour its sectors, still say its
                # colour: the stripes of other colours keep half (see RIM_HINT)
                hidden *= RIM_HINT + (1.0 - RIM_HINT) * _hue_fit(c.rim_hue, n, c.cloth_hue)
            s[n + 8] = max(s[n + 8], HIDDEN_BAND * s[0] * hidden)
    return s


def maroon_fit(c: BallColour, white_ref: float) -> float:
    """How much a red-hued view looks like the maroon (7, 15) rather than the red (3, 11), 0-1.

    Mostly brightness: the maroon's saturated pixels are about half as bright as the white
    caps and number discs of the same frame, the red's about 0.8 (over our development clips,
    medians 0.44-0.46 against 0.78-0.80; even odds at 0.52). Where the light is dim both read
    darker (a red at 0.53 beside a maroon at 0.35), so no fixed line splits every table. The ramp
    is wide and never flat in between, so that of two red-hued balls in one frame the darker
    always leans maroon more, and the one-of-each assignment (:func:`assign_unique`) gives the
    maroon to the darker when both are on the table. A quarter is the maroon's slight lean to
    orange.
    """
    if c.hue < 0:
        return 0.5
    rel = c.sat_value / white_ref if white_ref > 0 else c.sat_value / 1.6
    signed = (c.hue + 90.0) % 180.0 - 90.0
    return 0.75 * _unit((0.85 - rel) / 0.5) + 0.25 * _unit((signed + 0.5) / 3.0)


def _red_split(n: int, dark_fit: float) -> float:
    if n == 7:
        return 0.4 + 0.6 * dark_fit
    if n == 3:
        return 0.4 + 0.6 * (1.0 - dark_fit)
    return 1.0


def _hue_fit(hue: float, n: int, cloth_hue: float = -1.0) -> float:
    """How well a measured hue fits number ``n``'s colour (1 at the nominal hue, 0 at 12 away).

    The red and the maroon share a hue (their nominal hues lie 4 degrees apart, less than one
    set's maroon differs from another's), so both take the gap to the nearer of the two and
    brightness tells them apart. With ``cloth_hue`` (a thin band on the rim, its pixels mixed
    with the cloth's), a hue lying between the colour's and the cloth's counts a third of its gap.
    """
    if hue < 0:
        return 0.0
    nominal = (POOL_HUE[3], POOL_HUE[7]) if n in (3, 7) else (POOL_HUE[n],)
    best = 1.0
    for h in nominal:
        gap = hue_gap(hue, h)
        if cloth_hue >= 0 and hue_gap(h, hue) + hue_gap(hue, cloth_hue) <= hue_gap(h, cloth_hue) + 1e-6:
            gap /= 3.0  # on the way from the colour to the cloth: a mixture of the two
        best = min(best, gap / 12.0)
    return max(0.0, 1.0 - best)


def assign_unique(scores: Sequence[F64], floor: float = 0.02) -> list[tuple[int, float]]:
    """One label index per row, each index used once while possible, most confident pairs first.

    Rows left without a free index take their best one with a reduced confidence.
    """
    pairs = sorted(((float(sc[j]), i, j) for i, sc in enumerate(scores) for j in range(len(sc)) if sc[j] > floor),
                   reverse=True)
    out: list[tuple[int, float] | None] = [None] * len(scores)
    used: set[int] = set()
    for conf, i, j in pairs:
        if out[i] is not None or j in used:
            continue
        out[i] = (j, conf)
        used.add(j)
    final: list[tuple[int, float]] = []
    for i, got in enumerate(out):
        if got is None:
            j = int(np.argmax(scores[i])) if len(scores[i]) else 0
            got = (j, 0.3 * float(scores[i][j]) if len(scores[i]) else 0.0)
        final.append(got)
    return final


# -- bar billiards and carrom -----------------------------------------------------------------------
RED_HUE = 178.0


def bar_billiards_scores(c: BallColour) -> F64:
    """[white, red] confidences: the red ball is mostly saturated with a red hue."""
    red = 0.0
    if c.hue >= 0:
        red = max(0.0, 1.0 - hue_gap(c.hue, RED_HUE) / 15.0) * _unit((c.sat - 0.15) / 0.3)
    return np.array([1.0 - red, red])


CARROM_LABELS = ("white", "black", "queen", "striker")


#: The dark share of a carrom piece's disc from which (ramping to full at the second) it is a
#: black man whatever size it measures. Over 48 development clips a black man read 0.92 dark or
#: more in 95 % of its views measured larger than a man (0.76 in 99 %), the striker at most 0.78
#: (under a player's shadow) and 0.08 in 99 % of its views.
DARK_ALL = (0.8, 0.9)
#: The saturated share of a carrom piece's disc from which (ramping to full at the second) a piece
#: of the queen's red is the queen whatever size it measures. A still queen's outline in the
#: foreground grows with its contrast to the board (a red disc on pale wood, its blurred halo and
#: its side): over 96 development clips it measured 1.15 men or more in 5 % of its still views,
#: and 1.2-1.25 for whole shots on held-out seed 2902, read as the striker there while the striker
#: itself was in the player's hand. The queen read 0.9 saturated or more in 99.9 % of its views;
#: the striker (light, at most a red ring printed on it) reached 0.8 in one view of 8,500.
RED_ALL = (0.8, 0.9)


def carrom_scores(c: BallColour, size: float) -> F64:
    """[white, black, queen, striker] confidences; ``size`` is the measured radius over a man's
    (0 when it could not be measured: a piece in a crowd).

    The striker is larger (about 1.33 men); the queen red; black men dark; the rest white.
    """
    queen = 0.0
    if c.hue >= 0:
        queen = max(0.0, 1.0 - hue_gap(c.hue, RED_HUE) / 15.0) * _unit((c.sat - 0.2) / 0.3)
    black = _unit((c.dark - 0.3) / 0.3) * (1.0 - queen)
    light = max(0.0, 1.0 - black - queen)  # a white man or the striker
    if size <= 0:  # size unknown: the light piece is either, the others are what they look
        return np.array([0.5 * light, black, queen, 0.5 * light])
    striker = _unit((size - 1.12) / 0.14)
    man = 1.0 - striker
    # dark all over is a black man whatever its measured size: its shadow, as dark as it, joins
    # its outline (a black man in the centre circle measured 1.25 men and was named the striker
    # for a whole clip); a striker in a shadow reads dark over less of its disc (see DARK_ALL)
    solid_dark = _unit((c.dark - DARK_ALL[0]) / (DARK_ALL[1] - DARK_ALL[0]))
    # red all over is the queen in the same way (see RED_ALL)
    solid_red = queen * _unit((c.sat - RED_ALL[0]) / (RED_ALL[1] - RED_ALL[0]))
    return np.array([light * man, black * max(man, solid_dark), queen * max(man, solid_red),
                     striker * max(0.2, 1.0 - black) * (1.0 - solid_red)])
