"""The renderer draws what the truth says where the truth says it, for every table kind."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tableref.calibration.camera import CameraModel
from tableref.calibration.spec import TableSpec, load_table
from tableref.simulator.clip import render_meta, truth_dict
from tableref.simulator.render import Renderer, roll
from tableref.simulator.render_look import Look, random_look
from tableref.simulator.state import CueState, FrameState, HandState, ObjectState, ObjectStatus, SimResult


def _still_look(spec: TableSpec, seed: int, tilt: float, width: int = 1280, height: int = 720) -> Look:
    """A seed's look with the lens made ideal, the noise off, the exposure locked and the room evenly
    lit, so that a whole ball (its shaded side too) stands out from the cloth and its blob can be
    measured exactly."""
    look = random_look(spec, seed, width, height)
    x0, y0, x1, y1 = look.furniture.outer(spec)
    keep = [(x0, y0, 40.0), (x1, y0, 40.0), (x1, y1, 40.0), (x0, y1, 40.0)]
    cam = CameraModel.looking_at(width=width, height=height, fps=30, target=(spec.length_mm / 2, spec.width_mm / 2),
                                 height_mm=look.camera.height_mm, tilt_deg=tilt, azimuth_deg=55.0 + 40 * seed,
                                 roll_deg=2.0, keep_in_view=keep)
    return replace(look, camera=cam, noise_sigma=0.0, jpeg_quality=0, cloth_bgr=(70, 80, 30), ambient=3.0,
                   auto_exposure=())


def _balls(spec: TableSpec) -> list[ObjectState]:
    L, W = spec.length_mm, spec.width_mm
    spots = [(0.08, 0.12), (0.5, 0.5), (0.92, 0.88), (0.2, 0.8), (0.75, 0.3), (0.35, 0.35)]
    if spec.name == "pool":
        r = spec.object_radius["ball"]
        return [ObjectState(f"ball-0-{k}", "ball", fx * L, fy * W, r, label="ball-0") for k, (fx, fy) in enumerate(spots)]
    r = spec.object_radius["white"]
    return [ObjectState(f"white-{k}", "white", fx * L, fy * W, r) for k, (fx, fy) in enumerate(spots)]


def _blob_centre(img: np.ndarray, bg: np.ndarray, u: float, v: float, half: int) -> tuple[float, float]:
    """Centre of the bright blob near (u, v): the ellipse fitted to its outline."""
    x0, y0 = int(u) - half, int(v) - half
    diff = img[y0:y0 + 2 * half, x0:x0 + 2 * half].astype(int) - bg[y0:y0 + 2 * half, x0:x0 + 2 * half].astype(int)
    mask = (diff.sum(axis=2) > 60).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    biggest = max(contours, key=cv2.contourArea)
    m = cv2.moments(mask, binaryImage=True)
    assert cv2.contourArea(biggest) > 20, "no ball found where the homography says"
    return (x0 + m["m10"] / m["m00"], y0 + m["m01"] / m["m00"])


@pytest.mark.parametrize(("table", "tilt", "seed"), [("pool", 32.0, 1), ("bar-billiards", 18.0, 2), ("pool", 0.0, 3)])
def test_truth_homography_lands_within_a_pixel_of_the_rendered_ball_centre(table: str, tilt: float, seed: int) -> None:
    spec = load_table(table)
    look = _still_look(spec, seed, tilt)
    balls = _balls(spec)
    renderer = Renderer(spec, look)
    img = renderer.render(FrameState(0, 0.0, tuple(balls)))
    sim = SimResult(table, table, "still", seed, 30.0, (FrameState(0, 0.0, tuple(balls)),), ())
    H = np.array(truth_dict(sim, spec, look)["homography"])
    for ball in balls:
        p = H @ np.array([ball.x, ball.y, 1.0])
        u, v = p[0] / p[2], p[1] / p[2]
        cu, cv_ = _blob_centre(img, renderer.background.image, u, v, 30)
        assert math.hypot(cu - u, cv_ - v) < 1.0, (ball.id, (u, v), (cu, cv_))


def test_with_lens_distortion_the_truth_camera_finds_the_ball() -> None:
    spec = load_table("pool")
    look = random_look(spec, 5, 1280, 720)
    look = replace(look, noise_sigma=0.0, jpeg_quality=0, cloth_bgr=(70, 80, 30), ambient=3.0,
                   camera=replace(look.camera, dist=(-0.1, 0.01, 3e-4, -3e-4, 0.0)))
    balls = _balls(spec)
    renderer = Renderer(spec, look)
    img = renderer.render(FrameState(0, 0.0, tuple(balls)))
    sim = SimResult("up-and-down", "pool", "still", 5, 30.0, (FrameState(0, 0.0, tuple(balls)),), ())
    truth = truth_dict(sim, spec, look)
    cam = CameraModel.from_json(truth["camera"])
    assert truth["distortion_applied"] is True
    for ball in balls[:3]:
        u, v = cam.project(np.array([[ball.x, ball.y, truth["homography_z_mm"]]]))[0]
        cu, cv_ = _blob_centre(img, renderer.background.image, u, v, 30)
        assert math.hypot(cu - u, cv_ - v) < 1.0


def _frame_for(spec: TableSpec) -> FrameState:
    L, W = spec.length_mm, spec.width_mm
    objs: list[ObjectState] = []
    cue: CueState | None = None
    hands: tuple[HandState, ...] = ()
    if spec.name == "pool":
        r = spec.object_radius["ball"]
        objs = [ObjectState(f"ball-{n}", "ball", 1500 + 60 * (n % 5), 400 + 60 * (n // 5), r, label=f"ball-{n}")
                for n in range(16)]
        objs.append(ObjectState("ball-16", "ball", 700, 640, r, label="ball-0", vx=4000.0, vy=300.0))
        cue = CueState(tip=(640.0, 640.0), angle=0.1)
    elif spec.name == "bar-billiards":
        r = spec.object_radius["white"]
        objs = [ObjectState(f"white-{k}", "white", 400 + 120 * k, 300, r) for k in range(3)]
        objs.append(ObjectState("red", "red", 560, 381, r, colour="red"))
        objs.append(ObjectState("white-9", "white", L + 60, 300, r, status=ObjectStatus.OFF_TABLE))  # on the rail
        objs.append(ObjectState("white-8", "white", 300, 200, r, status=ObjectStatus.IN_HAND))
        for p in spec.pins:
            fallen = p.id == "pin-100"
            objs.append(ObjectState(p.id, "pin", p.x + (22 if fallen else 0), p.y, p.radius, colour=p.colour,
                                    status=ObjectStatus.FALLEN if fallen else ObjectStatus.ON_TABLE))
        cue = CueState(tip=(250.0, 381.0), angle=0.0)
        hands = (HandState(300.0, 200.0, -math.pi / 2, "white-8"),)
    elif spec.name == "carrom":
        objs = [ObjectState("queen", "queen", L / 2, W / 2, 15.5)]
        objs += [ObjectState(f"w{k}", "white" if k % 2 else "black", L / 2 + 32 * math.cos(k), W / 2 + 32 * math.sin(k),
                             15.5) for k in range(6)]
        objs.append(ObjectState("striker", "striker", L / 2, 622.0, 20.6))
        cue = CueState(tip=(L / 2, 650.0), angle=-math.pi / 2, kind="hand")
    else:
        objs = [ObjectState("card-10S", "card", 500, 610, 0, label="10S", angle=3, layer=1),
                ObjectState("card-KD", "card", 610, 500, 0, label="KD", angle=95, layer=2),
                ObjectState("card-AH", "card", 700, 300, 0, label="AH", angle=20, face_up=False, layer=3),
                ObjectState("card-2C", "card", 520, 780, 0, label="2C", status=ObjectStatus.IN_HAND, z=20.0)]
        hands = (HandState(520.0, 820.0, -math.pi / 2, "card-2C"),)
    return FrameState(0, 0.0, tuple(objs), cue=cue, hands=hands)


@pytest.mark.parametrize("table", ["pool", "bar-billiards", "carrom", "cards"])
def test_every_table_kind_renders_its_objects_and_player(table: str) -> None:
    spec = load_table(table)
    look = replace(random_look(spec, 11, 320, 180), noise_sigma=0.0, jpeg_quality=0)
    renderer = Renderer(spec, look)
    frame = _frame_for(spec)
    img = renderer.render(frame)
    assert img.shape == (180, 320, 3) and img.dtype == np.uint8
    changed = np.abs(img.astype(int) - renderer.background.image.astype(int)).sum(axis=2) > 40
    assert changed.mean() > 0.003, "objects, cue and hands must show"
    again = renderer.render(frame)  # the still layer now holds what did not move
    # the same picture, but for the player's shadow now also falling on the objects under it
    assert (np.abs(again.astype(int) - img.astype(int)).max(axis=2) > 2).mean() < 0.002


def test_seeds_draw_different_installations_and_pictures() -> None:
    spec = load_table("pool")
    a, b = random_look(spec, 1, 320, 180), random_look(spec, 2, 320, 180)
    assert a.camera != b.camera and a.lights != b.lights
    frame = _frame_for(spec)
    ia, ib = Renderer(spec, a).render(frame), Renderer(spec, b).render(frame)
    assert np.abs(ia.astype(int) - ib.astype(int)).mean() > 10


def _mask_extent(img: np.ndarray, bg: np.ndarray) -> tuple[int, int]:
    m = (img.astype(int) - bg.astype(int)).sum(axis=2) > 60
    ys, xs = np.nonzero(m)
    return int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)


def test_a_fast_ball_is_smeared_along_its_path() -> None:
    spec = load_table("pool")
    look = _still_look(spec, 4, 0.0, 640, 360)
    still = ObjectState("ball-0", "ball", 1270, 635, 28.575, label="ball-0")
    fast = replace(still, vx=5000.0)
    r1, r2 = Renderer(spec, look), Renderer(spec, look)
    w0, h0 = _mask_extent(r1.render(FrameState(0, 0.0, (still,))), r1.background.image)
    w1, h1 = _mask_extent(r2.render(FrameState(0, 0.0, (fast,))), r2.background.image)
    assert w1 >= w0 + 4 and abs(h1 - h0) <= 2


def test_a_fallen_pin_lies_along_its_angle_and_a_standing_one_is_round() -> None:
    spec = load_table("bar-billiards")
    look = replace(_still_look(spec, 6, 0.0, 960, 540), cloth_bgr=(40, 60, 20))
    pin = spec.pins[0]
    standing = ObjectState(pin.id, "pin", pin.x, pin.y, pin.radius, colour="white")
    fallen = replace(standing, status=ObjectStatus.FALLEN, angle=90.0, y=pin.y + pin.height / 2)
    ra, rb = Renderer(spec, look), Renderer(spec, look)
    ws, hs = _mask_extent(ra.render(FrameState(0, 0.0, (standing,))), ra.background.image)
    wf, hf = _mask_extent(rb.render(FrameState(0, 0.0, (fallen,))), rb.background.image)
    assert abs(ws - hs) <= 2
    assert hf > 1.5 * wf


def test_stripes_show_white_caps_where_solids_show_colour() -> None:
    spec = load_table("pool")
    look = _still_look(spec, 7, 0.0, 1280, 720)
    up = np.eye(3)  # band around the ball's equator, caps facing the camera
    counts = {}
    for label in ("ball-3", "ball-11"):
        obj = ObjectState(label, "ball", 1270, 635, 28.575, label=label)
        r = Renderer(spec, look, orientations={label: up})
        img = r.render(FrameState(0, 0.0, (obj,)))
        u, v = r.centre_pixel(obj)
        roi = img[int(v) - 8:int(v) + 9, int(u) - 8:int(u) + 9].astype(int)
        counts[label] = int(((roi.min(axis=2) > 150) & (np.ptp(roi, axis=2) < 60)).sum())
    assert counts["ball-11"] > 3 * max(1, counts["ball-3"])


def test_rolling_turns_the_ball_the_right_way_and_a_full_turn_comes_back() -> None:
    r = 28.575
    full = roll(np.eye(3), 2 * math.pi * r, 0.0, r)
    assert np.abs(full - np.eye(3)).max() < 1e-9
    quarter = roll(np.eye(3), math.pi * r / 2, 0.0, r)
    top = quarter @ np.array([0.0, 0.0, 1.0])
    assert top == pytest.approx([1.0, 0.0, 0.0], abs=1e-9)  # the top rolls forward


def test_a_ball_that_stops_is_drawn_as_a_fresh_renderer_draws_it() -> None:
    spec = load_table("bar-billiards")
    look = _still_look(spec, 8, 20.0, 640, 360)
    path = [ObjectState("white-1", "white", 600 + 40 * k, 300, 23.0, vx=1200.0 if k < 4 else 0.0) for k in range(5)]
    path += [path[-1]] * 2
    other = ObjectState("red", "red", 900, 500, 23.0, colour="red")
    r = Renderer(spec, look)
    for k, p in enumerate(path):
        img = r.render(FrameState(k, k / 30, (p, other)))
    fresh = Renderer(spec, look)
    fresh.render(FrameState(0, 0.0, (path[-1], other)))
    ref = fresh.render(FrameState(1, 0.0, (path[-1], other)))
    assert np.abs(img.astype(int) - ref.astype(int)).max() <= 1


def test_a_ball_off_the_table_shows_on_the_rail_and_hides_under_the_table() -> None:
    spec = load_table("bar-billiards")
    look = _still_look(spec, 12, 25.0, 640, 360)
    on_rail = ObjectState("white-1", "white", 900.0, spec.width_mm + 60.0, 23.0, status=ObjectStatus.OFF_TABLE)
    under = ObjectState("white-2", "white", 900.0, 300.0, 23.0, status=ObjectStatus.OFF_TABLE)
    beyond = ObjectState("white-3", "white", 900.0, spec.width_mm + 900.0, 23.0, status=ObjectStatus.OFF_TABLE)
    for obj, seen in ((on_rail, True), (under, False)):
        r = Renderer(spec, look)
        img = r.render(FrameState(0, 0.0, (obj,)))
        changed = int((np.abs(img.astype(int) - r.background.image.astype(int)).sum(axis=2) > 30).sum())
        assert (changed > 20) is seen, obj.id
    painter = Renderer(spec, look).objects
    assert painter.hidden_by_table((900.0, 300.0, -700.0))
    assert painter.ball_centre_z(beyond) < 0 and painter.ball_centre_z(on_rail) > 23.0


def test_carrom_homography_lands_on_the_top_face_of_a_man() -> None:
    """Carrom men are discs: the truth plane is their top face, whose centre is what a camera sees."""
    spec = load_table("carrom")
    look = _still_look(spec, 13, 30.0)
    dark = tuple(replace(light, intensity=0.0) for light in look.lights)
    look = replace(look, cloth_bgr=(40, 40, 40), lights=dark, ambient=1.0, piece_jitter=(1.0, 1.0, 1.0))
    men = [ObjectState(f"white-{k}", "white", x, y, 15.5)
           for k, (x, y) in enumerate([(150.0, 150.0), (370.0, 370.0), (600.0, 580.0), (200.0, 560.0)])]
    renderer = Renderer(spec, look)
    img = renderer.render(FrameState(0, 0.0, tuple(men)))
    sim = SimResult("carroms", "carrom", "still", 13, 30.0, (FrameState(0, 0.0, tuple(men)),), ())
    truth = truth_dict(sim, spec, look)
    H = np.array(truth["homography"])
    bg = renderer.background.image.astype(int)
    for man in men:
        p = H @ np.array([man.x, man.y, 1.0])
        u, v = p[0] / p[2], p[1] / p[2]
        x0, y0 = int(u) - 40, int(v) - 40
        diff = img[y0:y0 + 80, x0:x0 + 80].astype(int) - bg[y0:y0 + 80, x0:x0 + 80]
        top = (diff.sum(axis=2) > 300).astype(np.uint8)  # the lit top face, not the darker rim below it
        m = cv2.moments(top, binaryImage=True)
        assert m["m00"] > 50
        assert math.hypot(x0 + m["m10"] / m["m00"] - u, y0 + m["m01"] / m["m00"] - v) < 1.0, man.id
    # the plane of a ball's centre would miss the top face's centre under this tilt
    assert truth["homography_z_mm"] < 15.5


def test_a_camera_setting_its_own_exposure_swings_the_whole_picture() -> None:
    """Half the seeds draw a camera with auto exposure (a player leaning in, a door opening): the
    same still table is brighter or darker by the look's gain at each moment, the truth records
    the swing, and a seed with a locked exposure renders every moment alike."""
    for name in ("bar-billiards", "carrom", "cards"):
        assert 4 <= sum(bool(random_look(load_table(name), seed, 640, 360).auto_exposure) for seed in range(20, 40)) <= 16
    spec = load_table("pool")
    looks = [random_look(spec, seed, 640, 360) for seed in range(20, 40)]
    swinging = [lk for lk in looks if lk.auto_exposure]
    assert 4 <= len(swinging) <= 16
    assert all(0.03 <= a <= 0.08 and 2.0 <= p <= 8.0 for lk in swinging for a, p, _ in lk.auto_exposure)
    look = replace(swinging[0], noise_sigma=0.0, jpeg_quality=0)
    ball = ObjectState("ball-0", "cue", 600, 300, 28.6)
    times = [0.0] + [k * 0.25 for k in range(1, 16)]
    t_hi = max(times, key=look.gain_at)
    t_lo = min(times, key=look.gain_at)
    hi = Renderer(spec, look).render(FrameState(0, t_hi, (ball,))).astype(np.float64)
    lo = Renderer(spec, look).render(FrameState(0, t_lo, (ball,))).astype(np.float64)
    mid = (hi < 200) & (lo > 30)  # unclipped
    assert abs(float(hi[mid].sum() / lo[mid].sum()) - look.gain_at(t_hi) / look.gain_at(t_lo)) < 0.01
    locked = replace(look, auto_exposure=())
    a = Renderer(spec, locked).render(FrameState(0, t_hi, (ball,)))
    b = Renderer(spec, locked).render(FrameState(0, t_lo, (ball,)))
    assert np.array_equal(a, b)
    assert render_meta(look)["auto_exposure"] and not render_meta(locked)["auto_exposure"]
