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
from tableref.api.sources import Backoff, parse_source
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


def test_backoff_doubles_up_to_its_cap() -> None:
    b = Backoff(first=0.5, cap=3.0)
    assert [b.next_delay() for _ in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    b.reset()
    assert b.next_delay() == 0.5


def test_a_dead_stream_reconnects_with_backoff_and_says_so(tmp_path: Path) -> None:
    clip = make_clip(tmp_path / "media")
    settings = Settings(data_dir=tmp_path / "data", token="t", media_dirs=(clip.parent,), demo_clip=str(clip),
                        demo_loop=False)
    dead = f"http://127.0.0.1:{free_port()}/stream.mjpg"  # nothing listens there
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
        assert httpx.get(f"http://{host}/health", timeout=10).json()["ok"] is True  # the rest keeps serving
