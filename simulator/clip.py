"""One annotated clip: simulate a scenario, render it through a seeded camera, write video and truth.

``truth.json`` is what vision is scored against and what a detector is trained on, so it holds
everything needed to go from the table to the image and back:

* ``homography``: table mm (x, y) on the plane of the objects' visible centres (``homography_z_mm``:
  a ball's radius, a carrom man's top face, a card) to pixels; projecting a ball's (x, y) through
  it lands on the rendered ball's centre. ``homography_cloth`` is the same for the cloth (z = 0).
  Both map *undistorted* pixels: when ``camera.distortion`` is not all zero, undistort observed
  pixels first (``cv2.undistortPoints`` with ``camera.K`` and ``camera.distortion``, ``P = K``).
* ``camera``: intrinsics, distortion, pose (``rvec``/``tvec`` over the world frame it names),
  height, tilt, field of view;
* ``states``: every object in every frame (position in mm, status: on the table, in a hole or
  pocket, fallen, off the table, in hand); ``events``: the true events in DESIGN.md's vocabulary;
* ``meta``: the scenario's own notes and what the seed drew for the rendering.

Floats are rounded (0.01 mm, 1e-10 relative for homographies) so a sample stays small; the file is
written with sorted keys and no spaces, so the same seed gives the same bytes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tableref.calibration.spec import TableSpec, load_table
from tableref.simulator.render import Renderer
from tableref.simulator.render_look import Look, random_look
from tableref.simulator.state import SimResult
from tableref.simulator.video import VideoWriter, check_size

PIXEL_CONVENTION = "OpenCV: the centre of the top-left pixel is (0, 0)"


@dataclass(frozen=True)
class ClipInfo:
    video: Path
    truth: Path
    frames: int
    seconds: float


def _g(v: float, digits: int = 10) -> float:
    return float(f"{v:.{digits}g}") if math.isfinite(v) else 0.0


def _matrix(m: Any) -> list[list[float]]:
    return [[_g(float(v)) for v in row] for row in m]


def render_meta(look: Look) -> dict[str, Any]:
    """What the seed drew for the picture (not needed to use the truth; useful to slice results by)."""
    return {
        "cloth_bgr": list(look.cloth_bgr),
        "lights": [{"x": round(lt.x, 1), "y": round(lt.y, 1), "z": round(lt.z, 1), "intensity": round(lt.intensity, 3),
                    "cone_deg": round(lt.cone_deg, 1)} for lt in look.lights],
        "ambient": round(look.ambient, 3),
        "noise_sigma": round(look.noise_sigma, 3),
        "jpeg_quality": look.jpeg_quality,
        "exposure": round(look.exposure, 3),
        "auto_exposure": [[round(a, 4), round(period, 3), round(phase, 3)] for a, period, phase in look.auto_exposure],
        "softness_px": round(look.softness_px, 3),
        "vignette": round(look.vignette, 3),
        "floor": look.furniture.floor_kind,
        "skin_bgr": list(look.player.skin_bgr),
        "encoder": "mp4v",
    }


def truth_dict(sim: SimResult, spec: TableSpec, look: Look) -> dict[str, Any]:
    """The truth file's content for a simulated clip rendered with ``look``."""
    cam = look.camera
    return {
        "game": sim.game,
        "table": sim.table,
        "scenario": sim.scenario,
        "seed": sim.seed,
        "fps": sim.fps,
        "width": cam.width,
        "height": cam.height,
        "frames": len(sim.frames),
        "homography": _matrix(cam.homography(look.object_plane_z)),
        "homography_z_mm": round(look.object_plane_z, 3),
        "homography_cloth": _matrix(cam.homography(0.0)),
        "homography_maps": "table mm (x, y) on the plane z = homography_z_mm -> undistorted pixels",
        "pixel_convention": PIXEL_CONVENTION,
        "distortion_applied": cam.has_distortion,
        "camera": cam.to_json(),
        "table_spec": spec.name,
        "states": [[o.to_json() for o in f.objects] for f in sim.frames],
        "events": [e.to_json() for e in sim.events],
        "inputs": [dict(i) for i in sim.meta.get("inputs", ())],
        "meta": {**{k: v for k, v in sim.meta.items() if k != "inputs"}, "render": render_meta(look)},
    }


def dumps_truth(truth: dict[str, Any]) -> str:
    return json.dumps(truth, separators=(",", ":"), sort_keys=True, allow_nan=False)


def write_clip(sim: SimResult, out_dir: str | Path, *, width: int = 1280, height: int = 720,
               video_name: str = "video.mp4", truth_name: str = "truth.json", look: Look | None = None) -> ClipInfo:
    """Render ``sim`` and write ``video_name`` and ``truth_name`` into ``out_dir`` (created if needed)."""
    check_size(width, height)
    spec = load_table(sim.table)
    if look is None:
        look = random_look(spec, sim.seed, width, height, sim.fps)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    renderer = Renderer(spec, look)
    video = out / video_name
    with VideoWriter(video, sim.fps, width, height) as writer:
        for frame in sim.frames:
            writer.write(renderer.render(frame))
    truth = out / truth_name
    truth.write_text(dumps_truth(truth_dict(sim, spec, look)), encoding="utf-8")
    seconds = len(sim.frames) / sim.fps if sim.fps else 0.0
    return ClipInfo(video, truth, len(sim.frames), seconds)


def make_clip(game: str, scenario: str, seed: int, out_dir: str | Path, *, width: int = 1280, height: int = 720,
              fps: float = 30.0, video_name: str = "video.mp4", truth_name: str = "truth.json") -> ClipInfo:
    """Simulate ``scenario`` of ``game`` with ``seed`` and write the annotated clip (``UserError`` on bad input)."""
    from tableref.simulator.scenarios import run_scenario

    check_size(width, height)
    sim = run_scenario(game, scenario, seed, fps)
    return write_clip(sim, out_dir, width=width, height=height, video_name=video_name, truth_name=truth_name)
