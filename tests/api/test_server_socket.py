"""The websocket's promises on a real server: heartbeats, and a tablet too slow for its queue
resynchronised from the store so that no foul or score is lost."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from websockets.sync.client import connect

from tableref.api.app import create_app
from tableref.api.settings import Settings

from .conftest import free_port, receive_until, running_server

TOKEN = "socket-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _table(host: str) -> None:
    r = httpx.post(f"http://{host}/api/tables", headers=AUTH, timeout=10,
                   json={"id": "bb", "table_kind": "bar-billiards", "game": "bar-billiards"})
    assert r.status_code == 201, r.text


def test_a_quiet_table_sends_heartbeats_with_the_current_sequence_number(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", token=TOKEN, demo=False, heartbeat_s=0.3)
    with running_server(create_app(settings), free_port()) as host:
        _table(host)
        with connect(f"ws://{host}/ws/tables/bb") as ws:
            snap = json.loads(ws.recv(timeout=10))
            beats = receive_until(ws, lambda got: sum(m["type"] == "heartbeat" for m in got) >= 2, timeout=10)
            assert all(m["seq"] == snap["seq"] for m in beats if m["type"] == "heartbeat")


def test_a_client_whose_queue_overflows_is_resynchronised_and_loses_nothing(tmp_path: Path) -> None:
    """A queue of two: one coin toss stores four messages at once, so the queue overflows with
    messages that may not be dropped; the client is told to resync and gets each from the store."""
    settings = Settings(data_dir=tmp_path / "data", token=TOKEN, demo=False, heartbeat_s=5.0, client_queue=2)
    with running_server(create_app(settings), free_port()) as host:
        _table(host)
        with connect(f"ws://{host}/ws/tables/bb") as ws:
            snap = json.loads(ws.recv(timeout=10))
            for body in ({"input": "coin_toss", "winner": "home", "choice": "break"},
                         {"input": "push"}):  # no shot yet: stored with its question
                r = httpx.post(f"http://{host}/api/tables/bb/inputs", json=body, headers=AUTH, timeout=10)
                assert r.status_code == 200, r.text
            log = httpx.get(f"http://{host}/api/tables/bb/log", timeout=10).json()
            want = [row["seq"] for row in log if row["seq"] > snap["seq"]]
            got = receive_until(ws, lambda got: want[-1] in {m.get("seq") for m in got if m["type"] not in ("heartbeat", "status")})
        assert any(m["type"] == "resync" for m in got)
        stored = [m["seq"] for m in got if m["type"] not in ("resync", "heartbeat", "status", "positions")]
        assert stored == want  # every stored message once, in order: none lost, none twice
