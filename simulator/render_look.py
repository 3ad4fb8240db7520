"""Everything about a clip's appearance that a seed decides: camera, lights, cloth, rails, players.

A detector trained or tested on our clips must not learn one camera, one lamp or one cloth, so
each seed draws its own installation, within what real venues have: a camera a couple of metres
above a pool table or lower over a carrom board, leaning up to 35 degrees from straight down;
lamps over the table; cloth of the usual colours; sensor noise and compression. The draw is a
pure function of (table, seed, resolution, fps), so a clip re-renders to the same bytes.
"""

from __future__ import annotations

import colorsys
import math
import zlib
from dataclasses import dataclass

import numpy as np

from tableref.calibration.camera import CameraModel
from tableref.calibration.spec import TableSpec

BGR = tuple[int, int, int]

#: Thickness of a carrom man or striker: its top face is the plane a detector sees its centre on.
CARROM_THICKNESS_MM = 7.5
#: Height of a card's face above the cloth (a few cards stacked stay within a millimetre).
CARD_PLANE_MM = 0.3


def rgb(r: int, g: int, b: int) -> BGR:
    """Spec colours are RGB (``cloth_colour`` in the table JSON); OpenCV images are BGR."""
    return (b, g, r)


@dataclass(frozen=True)
class Light:
    """A lamp: position in table mm (``z`` above the cloth), relative intensity, BGR tint."""

    x: float
    y: float
    z: float
    intensity: float
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    cone_deg: float = 90.0  # half-angle of the shade's opening: nothing outside it is lit by this lamp


@dataclass(frozen=True)
class Furniture:
    """The table around the playing surface: cushions, wooden rails, the bar-billiards end board.

    Widths are measured outwards from the cushion nose (the edge of the playing surface).
    """

    cushion_mm: float
    rail_mm: float
    rail_height_mm: float
    nose_height_mm: float
    end_board_mm: float
    rail_bgr: BGR
    apron_bgr: BGR
    floor_bgr: BGR
    floor_kind: str  # "wood", "carpet" or "tiles"
    diamonds: bool

    def outer(self, spec: TableSpec) -> tuple[float, float, float, float]:
        """Outer edge of the rails (x0, y0, x1, y1) in table mm."""
        w = self.cushion_mm + self.rail_mm
        return (-w, -w, spec.length_mm + w + self.end_board_mm, spec.width_mm + w)


@dataclass(frozen=True)
class PlayerLook:
    skin_bgr: BGR
    sleeve_bgr: BGR
    sleeve_len: float  # 0 = bare forearm, 1 = sleeve down to the wrist
    hair_bgr: BGR
    cue_shaft_bgr: BGR
    cue_butt_bgr: BGR
    chalk_bgr: BGR
    cue_elevation_deg: float


@dataclass(frozen=True)
class Look:
    """One seed's installation and rendering parameters (all frozen: a Look is shared, never edited)."""

    table: str
    seed: int
    camera: CameraModel
    object_plane_z: float
    cloth_bgr: BGR
    cloth_grain: float
    cloth_mottle: float
    furniture: Furniture
    lights: tuple[Light, ...]
    ambient: float
    shadow_strength: float
    shadow_softness_mm: float
    specular: float
    shininess: float
    noise_sigma: float
    jpeg_quality: int  # 0: no extra JPEG round trip before the video encoder
    softness_px: float
    vignette: float
    white_balance: tuple[float, float, float]
    exposure: float  # shutter open time as a fraction of the frame interval (motion blur length)
    player: PlayerLook
    piece_jitter: tuple[float, float, float]  # per-channel tint on ball/piece colours
    striker_style: int = 0
    texture_seed: int = 0
    noise_seed: int = 0
    orientation_seed: int = 0
    #: the camera's auto exposure: (amplitude, period in s, phase) of swings of the whole
    #: picture's gain over the clip; empty for a camera whose exposure is locked
    auto_exposure: tuple[tuple[float, float, float], ...] = ()

    @property
    def main_light(self) -> Light:
        return max(self.lights, key=lambda light: light.intensity)

    def gain_at(self, t: float) -> float:
        """The camera's exposure gain at ``t`` seconds into the clip (1.0: as the look was lit)."""
        return 1.0 + sum(a * math.sin(2.0 * math.pi * t / period + phase) for a, period, phase in self.auto_exposure)


def object_plane_z(spec: TableSpec) -> float:
    """Height of the plane holding the visible centre of the table's main objects (mm).

    Balls: their centre, one radius up. Carrom men: their top face (they are discs, so the centre
    a camera sees is on the top face, not one radius up). Cards: the cloth plus a card.
    """
    if spec.name == "carrom":
        return CARROM_THICKNESS_MM
    if spec.name == "cards":
        return CARD_PLANE_MM
    radii = [r for k, r in spec.object_radius.items() if k in ("ball", "white", "red")]
    return float(radii[0]) if radii else 0.0


_POOL_CLOTHS: tuple[BGR, ...] = (
    rgb(30, 90, 150), rgb(22, 110, 60), rgb(35, 120, 70), rgb(25, 75, 140), rgb(120, 30, 40),
    rgb(95, 95, 100), rgb(20, 100, 110), rgb(60, 45, 110),
)
_RAIL_WOODS: tuple[BGR, ...] = (
    rgb(92, 52, 28), rgb(60, 34, 20), rgb(130, 80, 45), rgb(40, 28, 22), rgb(150, 105, 70),
    rgb(225, 225, 220), rgb(30, 30, 32),
)
_SKINS: tuple[BGR, ...] = (
    rgb(240, 200, 170), rgb(225, 180, 145), rgb(200, 150, 110), rgb(165, 115, 80), rgb(120, 80, 55),
    rgb(90, 60, 40),
)
_CLOTHES: tuple[BGR, ...] = (
    rgb(30, 30, 35), rgb(200, 200, 205), rgb(40, 60, 120), rgb(120, 30, 30), rgb(60, 90, 60),
    rgb(150, 130, 100), rgb(80, 80, 90), rgb(230, 180, 60),
)


def _jitter(c: BGR, rng: np.random.Generator, hue: float, sat: float, val: float) -> BGR:
    b, g, r = (v / 255.0 for v in c)
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    h = (h + rng.uniform(-hue, hue)) % 1.0
    s = float(np.clip(s * rng.uniform(1 - sat, 1 + sat), 0, 1))
    v = float(np.clip(v * rng.uniform(1 - val, 1 + val), 0, 1))
    r2, g2, b2 = colorsys.hsv_to_rgb(h, s, v)
    return (round(b2 * 255), round(g2 * 255), round(r2 * 255))


def _pick(rng: np.random.Generator, options: tuple[BGR, ...]) -> BGR:
    return options[int(rng.integers(len(options)))]


def _furniture(spec: TableSpec, rng: np.random.Generator) -> Furniture:
    floor_kind = ("wood", "carpet", "tiles")[int(rng.integers(3))]
    floor = {
        "wood": _jitter(rgb(120, 85, 55), rng, 0.02, 0.2, 0.3),
        "carpet": _jitter(_pick(rng, (rgb(90, 30, 35), rgb(40, 45, 70), rgb(70, 70, 70))), rng, 0.02, 0.2, 0.2),
        "tiles": _jitter(rgb(150, 145, 135), rng, 0.03, 0.3, 0.25),
    }[floor_kind]
    rail = _jitter(_pick(rng, _RAIL_WOODS), rng, 0.015, 0.15, 0.15)
    apron = tuple(int(v * 0.6) for v in rail)
    if spec.name == "pool":
        return Furniture(50.0, float(rng.uniform(100, 140)), 44.0, 36.0, 0.0, rail, apron,  # type: ignore[arg-type]
                         floor, floor_kind, True)
    if spec.name == "bar-billiards":
        return Furniture(40.0, float(rng.uniform(70, 100)), 38.0, 30.0, float(rng.uniform(200, 280)),
                         rail, apron, floor, floor_kind, False)  # type: ignore[arg-type]
    if spec.name == "carrom":
        frame = _jitter(_pick(rng, (rgb(60, 35, 22), rgb(35, 25, 20), rgb(110, 65, 35))), rng, 0.01, 0.1, 0.2)
        return Furniture(0.0, float(rng.uniform(60, 85)), 22.0, 22.0, 0.0, frame,
                         tuple(int(v * 0.6) for v in frame), floor, floor_kind, False)  # type: ignore[arg-type]
    edge = _jitter(_pick(rng, (rgb(90, 55, 30), rgb(50, 32, 22), rgb(140, 95, 60))), rng, 0.01, 0.1, 0.2)
    return Furniture(0.0, float(rng.uniform(40, 70)), 12.0, 12.0, 0.0, edge,
                     tuple(int(v * 0.6) for v in edge), floor, floor_kind, False)  # type: ignore[arg-type]


def _cloth(spec: TableSpec, rng: np.random.Generator) -> BGR:
    base = rgb(*spec.cloth_colour)
    if spec.name == "pool":
        base = base if rng.random() < 0.3 else _pick(rng, _POOL_CLOTHS)
        return _jitter(base, rng, 0.02, 0.15, 0.15)
    if spec.name == "carrom":
        return _jitter(base, rng, 0.015, 0.2, 0.12)
    if spec.name == "cards" and rng.random() < 0.35:
        return _jitter(_pick(rng, (rgb(30, 60, 120), rgb(150, 110, 70), rgb(100, 30, 35))), rng, 0.02, 0.2, 0.2)
    return _jitter(base, rng, 0.03, 0.15, 0.15)


def _camera(spec: TableSpec, furn: Furniture, rng: np.random.Generator, width: int, height: int,
            fps: float) -> CameraModel:
    heights = {"pool": (2200, 3000), "bar-billiards": (1500, 2300), "carrom": (1000, 1600), "cards": (1200, 1900)}
    lo, hi = heights.get(spec.name, (1500, 2500))
    x0, y0, x1, y1 = furn.outer(spec)
    z = furn.rail_height_mm
    keep = [(x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z), ((x0 + x1) / 2, y0, z), ((x0 + x1) / 2, y1, z),
            (x0, (y0 + y1) / 2, z), (x1, (y0 + y1) / 2, z)]
    tilt = float(rng.uniform(0.0, 35.0))
    az = float(rng.uniform(0.0, 360.0))
    roll = float(rng.uniform(-4.0, 4.0))
    target = (spec.length_mm / 2 + rng.uniform(-0.03, 0.03) * spec.length_mm,
              spec.width_mm / 2 + rng.uniform(-0.03, 0.03) * spec.width_mm)
    k1 = float(rng.uniform(-0.12, 0.04))
    dist = (k1, float(rng.uniform(-0.02, 0.03)), float(rng.uniform(-8e-4, 8e-4)),
            float(rng.uniform(-8e-4, 8e-4)), 0.0)
    return CameraModel.looking_at(
        width=width, height=height, fps=fps, target=target, height_mm=float(rng.uniform(lo, hi)),
        tilt_deg=tilt, azimuth_deg=az, roll_deg=roll, keep_in_view=keep, fill=float(rng.uniform(0.86, 0.97)),
        dist=dist, principal_offset=(float(rng.uniform(-6, 6)), float(rng.uniform(-4, 4))),
    )


def _lights(spec: TableSpec, rng: np.random.Generator) -> tuple[Light, ...]:
    L, W = spec.length_mm, spec.width_mm
    warm = float(rng.uniform(-0.12, 0.12))
    tint = (1.0 - warm, 1.0, 1.0 + warm * 0.6)
    if spec.name in ("pool", "bar-billiards"):
        n = int(rng.integers(1, 4))
        zl = float(rng.uniform(750, 1100))
        span = L * float(rng.uniform(0.3, 0.6))
        cy = W / 2 + float(rng.uniform(-0.08, 0.08)) * W
        xs = [L / 2] if n == 1 else list(np.linspace(L / 2 - span / 2, L / 2 + span / 2, n))
        cone = float(rng.uniform(55.0, 72.0))
        return tuple(Light(float(x + rng.uniform(-40, 40)), float(cy), zl, float(rng.uniform(0.85, 1.0)), tint, cone)
                     for x in xs)
    zl = float(rng.uniform(700, 1600))
    return (Light(float(L / 2 + rng.uniform(-0.35, 0.35) * L), float(W / 2 + rng.uniform(-0.35, 0.35) * W),
                  zl, 1.0, tint, float(rng.uniform(65.0, 85.0))),)


def _player(rng: np.random.Generator) -> PlayerLook:
    return PlayerLook(
        skin_bgr=_jitter(_pick(rng, _SKINS), rng, 0.01, 0.1, 0.08),
        sleeve_bgr=_jitter(_pick(rng, _CLOTHES), rng, 0.02, 0.2, 0.2),
        sleeve_len=float(rng.choice([0.0, 0.0, 0.5, 0.9])),
        hair_bgr=_jitter(_pick(rng, (rgb(30, 22, 18), rgb(90, 60, 35), rgb(150, 120, 80), rgb(110, 110, 110))),
                         rng, 0.01, 0.1, 0.2),
        cue_shaft_bgr=_jitter(rgb(225, 195, 150), rng, 0.01, 0.15, 0.08),
        cue_butt_bgr=_jitter(_pick(rng, (rgb(50, 25, 15), rgb(20, 20, 22), rgb(110, 40, 30), rgb(30, 40, 90))),
                             rng, 0.01, 0.1, 0.2),
        chalk_bgr=_jitter(rgb(60, 110, 190), rng, 0.02, 0.2, 0.1),
        cue_elevation_deg=float(rng.uniform(3.0, 9.0)),
    )


def random_look(spec: TableSpec, seed: int, width: int = 1280, height: int = 720, fps: float = 30.0) -> Look:
    """The installation and rendering parameters that ``seed`` draws for ``spec``."""
    rng = np.random.default_rng([int(seed), zlib.crc32(spec.name.encode()), 0x7AB1E])
    furn = _furniture(spec, rng)
    cam = _camera(spec, furn, rng, width, height, fps)
    lights = _lights(spec, rng)
    # An MJPEG camera (about one in six) smooths its own sensor noise before compressing.
    jpeg = int(rng.integers(60, 90)) if rng.random() < 0.16 else 0
    noise = float(rng.uniform(0.8, 3.0)) if not jpeg else float(rng.uniform(0.5, 1.2))
    wb = (float(rng.uniform(0.92, 1.08)), 1.0, float(rng.uniform(0.92, 1.08)))
    return Look(
        table=spec.name,
        seed=int(seed),
        camera=cam,
        object_plane_z=object_plane_z(spec),
        cloth_bgr=_cloth(spec, rng),
        cloth_grain=float(rng.uniform(0.3, 1.0)),
        cloth_mottle=float(rng.uniform(0.2, 1.0)),
        furniture=furn,
        lights=lights,
        ambient=float(rng.uniform(0.35, 0.6)),
        shadow_strength=float(rng.uniform(0.35, 0.65)),
        shadow_softness_mm=float(rng.uniform(3.0, 12.0)),
        specular=float(rng.uniform(0.6, 1.0)),
        shininess=float(rng.uniform(40.0, 160.0)),
        noise_sigma=noise,
        jpeg_quality=jpeg,
        softness_px=float(rng.uniform(0.7, 1.5)),
        vignette=float(rng.uniform(0.0, 0.35)),
        white_balance=wb,
        exposure=float(rng.uniform(0.25, 0.9)),
        player=_player(rng),
        piece_jitter=(float(rng.uniform(0.93, 1.07)), float(rng.uniform(0.93, 1.07)), float(rng.uniform(0.93, 1.07))),
        striker_style=int(rng.integers(4)),
        texture_seed=int(rng.integers(1 << 30)),
        noise_seed=int(rng.integers(1 << 30)),
        orientation_seed=int(rng.integers(1 << 30)),
        auto_exposure=_auto_exposure(spec, seed),
    )


def _auto_exposure(spec: TableSpec, seed: int) -> tuple[tuple[float, float, float], ...]:
    """Half the cameras set their own exposure: a player leaning over the table, a door or a
    skylight swings the whole picture by a few to ten per cent over a few seconds. Drawn from its
    own stream, so a seed's other draws are those it always had."""
    rng = np.random.default_rng([int(seed), zlib.crc32(spec.name.encode()), 0xE7905])
    if rng.random() < 0.5:
        return ()
    return tuple((float(rng.uniform(0.03, 0.08)), float(rng.uniform(2.0, 8.0)), float(rng.uniform(0.0, 2.0 * math.pi)))
                 for _ in range(int(rng.integers(1, 3))))
