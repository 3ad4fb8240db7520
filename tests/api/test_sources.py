"""Sources: parsing what a venue types, and a dropped stream reconnecting with backoff."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tableref.api.app import create_app
from tableref.api.settings import Settings
from tableref.api.sources import Backoff, parse_source, redact_source
from tableref.errors import UserError

from .conftest import free_port, make_clip, running_server


def test_sources_a_venue_can_name(tmp_path: Path) -> None:
    assert parse_source("camera:0", None).kind == "camera"
    assert parse_source("/dev/video2", None).target == "2"
    assert parse_source("rtsp://10.0.0.5/stream1", None).kind == "stream"
    clip = make_clip(tmp_path / "media")
    assert parse_source(clip.name, clip.parent).target == str(clip.resolve())
    with pytest.raises(UserError, match="camera:N"):
        parse_source("camera:front", None)
    with pytest.raises(UserError, match="media folder"):
        parse_source("../../etc/passwd", clip.parent)


def test_a_stream_password_is_hidden_when_shown() -> None:
    assert redact_source("rtsp://admin:pw@10.0.0.5:554/live?x=1") == "rtsp://admin:***@10.0.0.5:554/live?x=1"
    assert redact_source("http://token@cam.local/mjpg") == "http://***@cam.local/mjpg"
    assert redact_source("rtsp://10.0.0.5/live") == "rtsp://10.0.0.5/live"
    assert redact_source("camera:0") == "camera:0" and redact_source(None) is None


def test_backoff_doubles_up_to_its_cap() -> None:
    b = Backoff(first=0.5, cap=3.0)
    assert [b.next_delay() for _ in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    b.reset()
    assert b.next_delay() == 0.5


def test_a_dead_stream_reconnects_with_backoff_and_says_so(tmp_path: Path) -> None:
    clip = make_clip(tmp_path / "media")
    settings = Settings(data_dir=tmp_path / "data", token="t", media_dirs=(clip.parent,), demo_clip=str(clip),
                        demo_loop=False)
    dead = f"http://cam:s3cret@127.0.0.1:{free_port()}/stream.mjpg"  # nothing listens there
    with running_server(create_app(settings), free_port()) as host:
        r = httpx.post(f"http://{host}/api/tables", headers={"Authorization": "Bearer t"}, timeout=10,
                       json={"id": "cam", "table_kind": "pool", "game": "colors", "source": dead,
                             "calibration": {"homography": [[0.4, 0, 100], [0, 0.4, 80], [0, 0, 1]]}})
        assert r.status_code == 201, r.text
        deadline = time.monotonic() + 20
        status: dict = {}
        while time.monotonic() < deadline:
            status = httpx.get(f"http://{host}/api/tables/cam/state", timeout=10).json()["status"]
            if status.get("state") == "reconnecting" and status.get("attempt", 0) >= 2:
                break
            time.sleep(0.2)
        assert status.get("state") == "reconnecting" and status["attempt"] >= 2, status
        assert status["retry_in"] > 0
        # the tablet hears of each attempt as it happens, not only in the snapshot it connected with
        with connect(f"ws://{host}/ws/tables/cam") as ws:
            snap = json.loads(ws.recv(timeout=10))
            seen = snap["status"]["attempt"]
            deadline = time.monotonic() + 20
            live: dict = {}
            while time.monotonic() < deadline and live.get("attempt", 0) <= seen:
                try:
                    msg = json.loads(ws.recv(timeout=max(0.05, deadline - time.monotonic())))
                except TimeoutError:
                    break
                if msg["type"] == "status":
                    live = msg["status"]
                    assert msg["seq"] == snap["seq"]  # a status carries the current number, takes none
        assert live.get("state") == "reconnecting" and live["attempt"] > seen, (snap["status"], live)
        # the camera's password is kept for the runner and shown to nobody: rows, statuses, health
        shown = [r.text, httpx.get(f"http://{host}/api/tables", timeout=10).text, json.dumps(snap), json.dumps(live),
                 httpx.get(f"http://{host}/api/tables/cam", timeout=10).text, httpx.get(f"http://{host}/health", timeout=10).text]
        assert not [text for text in shown if "s3cret" in text]
        assert live["source"] == dead.replace("s3cret", "***")
        assert httpx.get(f"http://{host}/health", timeout=10).json()["ok"] is True  # the rest keeps serving


class _DroppingStream:
    """An MJPEG camera on 127.0.0.1 that drops every connection after ``frames`` frames."""

    def __init__(self, frames: int = 20) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        import cv2
        import numpy as np

        outer = self
        self.connections = 0

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                outer.connections += 1
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                try:
                    for i in range(frames):
                        img = np.full((96, 160, 3), (40, 110, 60), np.uint8)
                        cv2.circle(img, (10 + i * 3, 48), 6, (240, 240, 240), -1)
                        jpeg = cv2.imencode(".jpg", img)[1].tobytes()
                        self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                                         + str(len(jpeg)).encode() + b"\r\n\r\n" + jpeg + b"\r\n")
                        time.sleep(1 / 30)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/stream.mjpg"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> _DroppingStream:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def _played_dropped_played(states: list[str]) -> bool:
    """Whether the states went playing, then reconnecting, then playing again."""
    want = iter(("playing", "reconnecting", "playing"))
    step = next(want)
    for state in states:
        if state == step:
            step = next(want, "")
            if not step:
                return True
    return False


def test_a_dropped_stream_reconnects_and_plays_again(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", token="t", demo=False, heartbeat_s=1.0)
    with _DroppingStream() as camera, running_server(create_app(settings), free_port()) as host:
        r = httpx.post(f"http://{host}/api/tables", headers={"Authorization": "Bearer t"}, timeout=10,
                       json={"id": "cam", "table_kind": "pool", "game": "colors", "source": camera.url,
                             "calibration": {"homography": [[0.1, 0, 5], [0, 0.1, 5], [0, 0, 1]]}})
        assert r.status_code == 201, r.text
        states: list[str] = []
        with connect(f"ws://{host}/ws/tables/cam") as ws:
            states.append(json.loads(ws.recv(timeout=10))["status"].get("state", ""))
            deadline = time.monotonic() + 30
            # playing, dropped (reconnecting), playing again: the tablet hears each as it happens
            while not _played_dropped_played(states) and time.monotonic() < deadline:
                try:
                    msg = json.loads(ws.recv(timeout=max(0.05, deadline - time.monotonic())))
                except TimeoutError:
                    break
                if msg["type"] == "status":
                    states.append(msg["status"].get("state", ""))
        assert _played_dropped_played(states), states
        assert camera.connections >= 2
        frame = httpx.get(f"http://{host}/api/tables/cam/frame.jpg", timeout=10)
        assert frame.status_code == 200 and frame.content[:2] == b"\xff\xd8"  # the camera's frames arrived


@pytest.mark.parametrize("source", ["camera:9", "/dev/video9"])
def test_a_local_camera_that_is_not_there_is_retried_and_says_so(tmp_path: Path, source: str) -> None:
    """A camera by index (unplugged here) is a live source: retried with backoff, never a crash."""
    settings = Settings(data_dir=tmp_path / "data", token="t", demo=False)
    with running_server(create_app(settings), free_port()) as host:
        r = httpx.post(f"http://{host}/api/tables", headers={"Authorization": "Bearer t"}, timeout=10,
                       json={"id": "cam", "table_kind": "pool", "game": "colors", "source": source,
                             "calibration": {"homography": [[0.4, 0, 100], [0, 0.4, 80], [0, 0, 1]]}})
        assert r.status_code == 201, r.text
        deadline = time.monotonic() + 20
        status: dict = {}
        while time.monotonic() < deadline and status.get("state") != "reconnecting":
            status = httpx.get(f"http://{host}/api/tables/cam/state", timeout=10).json()["status"]
            time.sleep(0.1)
        assert status.get("state") == "reconnecting" and status["source"] == "9", status
        assert httpx.get(f"http://{host}/health", timeout=10).json()["ok"] is True
