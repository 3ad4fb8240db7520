"""The service on a real uvicorn server (127.0.0.1), talked to with a real websocket client."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tableref.api.app import create_app
from tableref.api.settings import Settings

from .conftest import COUNTING_FOUL_EVENTS, free_port, make_clip, receive_until, running_server

TOKEN = "test-referee-token"
FOUL_EVENTS = COUNTING_FOUL_EVENTS


def _settings(tmp_path: Path, clip: Path, loop: bool = False) -> Settings:
    # The service's own behaviour (delivery, reconnects, persistence) is tested on a tiny clip
    # replaying its truth, so that it is exact and fast; tests/api/test_demo_vision.py runs the
    # demo through the camera pipeline.
    return Settings(data_dir=tmp_path / "data", token=TOKEN, media_dirs=(clip.parent,), demo_clip=str(clip),
                    demo_loop=loop, heartbeat_s=0.5, demo_pipeline="truth")


@pytest.fixture()
def clip(tmp_path: Path) -> Path:
    return make_clip(tmp_path / "media", events=FOUL_EVENTS, game="counting")


def test_demo_table_fouls_arrive_with_rule_and_still(tmp_path: Path, clip: Path) -> None:
    port = free_port()
    # ``since=0``: the clip starts with the server, and a loaded machine may connect after its foul;
    # the foul then comes in the catch-up (``replayed``) instead of live, and the test still holds.
    with running_server(create_app(_settings(tmp_path, clip)), port) as host, \
            connect(f"ws://{host}/ws/tables/demo?since=0") as ws:
        snap = json.loads(ws.recv(timeout=10))
        assert snap["type"] == "snapshot" and snap["can_write"] is False
        got = receive_until(ws, lambda got: got[-1].get("kind") == "foul")
        foul = got[-1]
        assert foul["clause"] == "3b(a)" and (foul["seq"] > snap["seq"] or foul["replayed"])
        still = httpx.get(f"http://{host}{foul['still']}", timeout=10)
        assert still.status_code == 200 and still.content[:2] == b"\xff\xd8"
        assert snap["positions"] or any(m["type"] == "positions" for m in got)


def test_a_reconnect_with_its_sequence_number_loses_nothing(tmp_path: Path, clip: Path) -> None:
    port = free_port()
    with running_server(create_app(_settings(tmp_path, clip)), port) as host:
        with connect(f"ws://{host}/ws/tables/demo?since=0") as ws:  # the first event, live or caught up
            assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
            first = receive_until(ws, lambda got: got[-1].get("type") == "event")
            last_seen = max(m["seq"] for m in first if m["type"] not in ("positions", "heartbeat", "status"))
        # Meanwhile the clip plays on; wait until the whole log is written.
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            log = httpx.get(f"http://{host}/api/tables/demo/log", timeout=10).json()
            if sum(1 for r in log if r["kind"] == "event") == len(FOUL_EVENTS):
                break
            time.sleep(0.1)
        assert sum(1 for r in log if r["kind"] == "event") == len(FOUL_EVENTS), log
        with connect(f"ws://{host}/ws/tables/demo?since={last_seen}") as ws:
            snap2 = json.loads(ws.recv(timeout=10))
            replayed = [json.loads(ws.recv(timeout=10)) for _ in range(snap2["seq"] - last_seen)]
        expected = [r["seq"] for r in log if r["seq"] > last_seen]
        assert [m["seq"] for m in replayed] == expected and all(m["replayed"] for m in replayed)
        assert snap2["seq"] == log[-1]["seq"]


def test_writes_without_the_token_are_refused(tmp_path: Path, clip: Path) -> None:
    port = free_port()
    with running_server(create_app(_settings(tmp_path, clip)), port) as host:
        r = httpx.post(f"http://{host}/api/tables/demo/inputs", json={"input": "overrule"}, timeout=10)
        assert r.status_code == 401 and "referee token" in r.json()["detail"]
        r = httpx.post(f"http://{host}/api/tables", json={"table_kind": "pool"}, timeout=10)
        assert r.status_code == 401
        with connect(f"ws://{host}/ws/tables/demo") as ws:
            json.loads(ws.recv(timeout=10))
            ws.send(json.dumps({"input": "overrule"}))
            err = receive_until(ws, lambda got: got[-1]["type"] == "error")[-1]
            assert "read-only" in err["error"]
        r = httpx.post(f"http://{host}/api/tables/demo/inputs", json={"input": "overrule"},
                       headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
        assert r.status_code == 200


def _wait_for_source(host: str, state: str, timeout: float = 20.0) -> dict[str, Any]:
    """The demo table's state once its source reports ``state`` (bounded)."""
    deadline = time.monotonic() + timeout
    snap: dict[str, Any] = {}
    while time.monotonic() < deadline:
        snap = httpx.get(f"http://{host}/api/tables/demo/state", timeout=10).json()
        if snap["status"].get("state") == state:
            return snap
        time.sleep(0.1)
    raise AssertionError(f"the source never reported {state!r}: {snap.get('status')}")


def test_a_stopped_and_restarted_server_serves_identical_match_state(tmp_path: Path, clip: Path) -> None:
    """The clip is still the table's source after the restart: it resumes after what the log holds
    (here: nothing left to play) instead of refereeing the same shots again over the match."""
    settings = _settings(tmp_path, clip)
    with running_server(create_app(settings), free_port()) as host:
        _wait_for_source(host, "stopped")
        r = httpx.post(f"http://{host}/api/tables/demo/inputs", json={"input": "overrule"},
                       headers={"X-Referee-Token": TOKEN}, timeout=10)
        assert r.status_code == 200, r.text
        before = httpx.get(f"http://{host}/api/tables/demo/state", timeout=10).json()
        log_before = httpx.get(f"http://{host}/api/tables/demo/log", timeout=10).json()
    assert before["scores"] == {"A": 2}
    with running_server(create_app(settings), free_port()) as host:
        first = httpx.get(f"http://{host}/api/tables/demo/state", timeout=10).json()
        after = _wait_for_source(host, "stopped")  # the clip has run to its end again
        log_after = httpx.get(f"http://{host}/api/tables/demo/log", timeout=10).json()
    for key in ("scores", "state", "seq", "outcome"):
        assert first[key] == before[key], key
        assert after[key] == before[key], key
    assert log_after == log_before


def test_bad_requests_get_clear_errors_and_the_server_keeps_serving(tmp_path: Path, clip: Path) -> None:
    """Each refusal says what was wrong and what is accepted, and records nothing."""
    port = free_port()
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with running_server(create_app(_settings(tmp_path, clip)), port) as host:
        base = f"http://{host}"
        r = httpx.get(f"{base}/api/tables/nope/state", timeout=10)
        assert r.status_code == 404 and "no table 'nope'" in r.json()["detail"] and "demo" in r.json()["detail"]
        r = httpx.post(f"{base}/api/tables", json={"table_kind": "snooker"}, headers=auth, timeout=10)
        assert r.status_code == 422 and "accepted: bar-billiards, pool, carrom, cards" in r.json()["detail"]
        r = httpx.post(f"{base}/api/tables", json={"table_kind": "pool", "colour": "red"}, headers=auth, timeout=10)
        assert r.status_code == 422 and "unknown field 'colour'" in r.json()["detail"]
        assert "accepted fields: id, name, table_kind" in r.json()["detail"]
        r = httpx.post(f"{base}/api/tables", json={}, headers=auth, timeout=10)
        assert r.status_code == 422 and "table_kind: required" in r.json()["detail"]
        r = httpx.post(f"{base}/api/tables", json={"table_kind": "pool", "source": "missing.mp4"}, headers=auth, timeout=10)
        assert r.status_code == 400 and "not found" in r.json()["detail"]
        r = httpx.post(f"{base}/api/tables", json={"table_kind": "pool", "source": "/etc/passwd"}, headers=auth, timeout=10)
        assert r.status_code == 400 and "media folder" in r.json()["detail"]
        r = httpx.post(f"{base}/api/tables", json={"table_kind": "pool", "source": clip.with_suffix(".truth.json").name},
                       headers=auth, timeout=10)
        assert r.status_code == 400 and "cannot read video" in r.json()["detail"]  # a source that cannot be opened
        assert [t["id"] for t in httpx.get(f"{base}/api/tables", timeout=10).json()] == ["demo"]

        # inputs: malformed JSON, not an object, an unknown kind, too large; none reaches the log
        log_before = httpx.get(f"{base}/api/tables/demo/log", timeout=10).json()
        seq_before = log_before[-1]["seq"] if log_before else 0
        r = httpx.post(f"{base}/api/tables/demo/inputs", content=b"{not json", headers={**auth, "content-type": "application/json"}, timeout=10)
        assert r.status_code == 422 and "not valid JSON" in r.json()["detail"] and "{\"input\"" in r.json()["detail"]
        r = httpx.post(f"{base}/api/tables/demo/inputs", json=[1, 2], headers=auth, timeout=10)
        assert r.status_code == 422 and "must be a JSON object" in r.json()["detail"]
        r = httpx.post(f"{base}/api/tables/demo/inputs", content=b'{"input": "overrule"}', timeout=10,
                       headers={**auth, "content-type": "text/plain"})
        assert r.status_code == 422 and "Content-Type: application/json" in r.json()["detail"]
        r = httpx.post(f"{base}/api/tables/demo/inputs", content=b"", headers={**auth, "content-type": "application/json"}, timeout=10)
        assert r.status_code == 422 and "the request body is empty" in r.json()["detail"]
        r = httpx.post(f"{base}/api/tables/demo/inputs", json={"input": "nonsense"}, headers=auth, timeout=10)
        assert r.status_code == 422 and "unknown counting input 'nonsense'; accepted: undo, overrule" in r.json()["detail"]
        r = httpx.post(f"{base}/api/tables/demo/inputs", json={"inputs": "overrule"}, headers=auth, timeout=10)
        assert r.status_code == 422 and "'type' (a table event) or 'input'" in r.json()["detail"]
        r = httpx.post(f"{base}/api/tables/demo/inputs", json={"input": "overrule", "pad": "y" * 20_000}, headers=auth, timeout=10)
        assert r.status_code == 413 and "limit is 16384 bytes" in r.json()["detail"]
        log_after = httpx.get(f"{base}/api/tables/demo/log", params={"after": seq_before}, timeout=10).json()
        assert not [row for row in log_after if row["kind"] == "input"], log_after

        # a calibration that cannot be used leaves the table's own in place
        before = httpx.get(f"{base}/api/tables/demo", timeout=10).json()["calibration"]
        for bad, says in (({"homography": [[1, 2], [3]]}, "invertible 3x3"),
                          ({"homography": [[0, 0, 0], [0, 0, 0], [0, 0, 1]]}, "invertible 3x3"),
                          ({"scale": 2}, "no 'homography'"),
                          ({"table": "pool", "homography": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}, "for a 'pool' table")):
            r = httpx.post(f"{base}/api/tables/demo/calibration", json=bad, headers=auth, timeout=10)
            assert r.status_code == 422 and says in r.json()["detail"], r.text
        assert httpx.get(f"{base}/api/tables/demo", timeout=10).json()["calibration"] == before
        r = httpx.post(f"{base}/api/tables", json={"id": "p", "table_kind": "pool", "calibration": {"homography": "x"}},
                       headers=auth, timeout=10)
        assert r.status_code == 422 and "invertible 3x3" in r.json()["detail"]
        assert httpx.get(f"{base}/api/tables/p", timeout=10).status_code == 404

        with connect(f"ws://{host}/ws/tables/demo?since=last") as ws:
            err = json.loads(ws.recv(timeout=10))
            assert err["type"] == "error" and "?since='last': give a whole number" in err["error"]
        with connect(f"ws://{host}/ws/tables/nope") as ws:
            err = json.loads(ws.recv(timeout=10))
            assert err["type"] == "error" and "no table 'nope'" in err["error"] and "demo" in err["error"]
        with connect(f"ws://{host}/ws/tables/demo?token={TOKEN}") as ws:
            json.loads(ws.recv(timeout=10))
            ws.send("{oops")
            assert "not valid JSON" in receive_until(ws, lambda got: got[-1]["type"] == "error")[-1]["error"]
            ws.send(json.dumps({"input": "x", "pad": "y" * 20000}))
            assert "too large" in receive_until(ws, lambda got: got[-1]["type"] == "error")[-1]["error"]
            ws.send(json.dumps({"input": "nonsense"}))
            err = receive_until(ws, lambda got: got[-1]["type"] == "error")[-1]
            assert "unknown counting input 'nonsense'; accepted: undo, overrule" in err["error"]
            ws.send(json.dumps({"input": "overrule"}))  # the connection is still up and accepts good input
            assert receive_until(ws, lambda got: got[-1]["type"] in ("ack", "error"))[-1]["type"] == "ack"
        assert httpx.get(f"{base}/health", timeout=10).json()["ok"] is True


def test_writes_faster_than_the_rate_limit_are_refused_and_not_recorded(tmp_path: Path, clip: Path) -> None:
    # one write every 5 s after a burst of 3: however slow the machine, 8 quick requests exceed it
    settings = dataclasses.replace(_settings(tmp_path, clip), max_writes_per_second=0.2, write_burst=3.0,
                                   max_messages_per_second=0.2)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with running_server(create_app(settings), free_port()) as host:
        base = f"http://{host}"
        codes = [httpx.post(f"{base}/api/tables/demo/inputs", json={"input": "overrule"}, headers=auth, timeout=10)
                 for _ in range(8)]
        assert [r.status_code for r in codes[:3]] == [200, 200, 200]
        refused = [r for r in codes if r.status_code == 429]
        assert refused and "at most 0.2 a second (bursts of 3)" in refused[0].json()["detail"]
        assert int(refused[0].headers["retry-after"]) >= 1
        stored = [row for row in httpx.get(f"{base}/api/tables/demo/log", timeout=10).json() if row["kind"] == "input"]
        assert len(stored) == 8 - len(refused)
        assert httpx.get(f"{base}/api/tables/demo/state", timeout=10).status_code == 200  # reading is not limited
        with connect(f"ws://{host}/ws/tables/demo?token={TOKEN}") as ws:
            json.loads(ws.recv(timeout=10))
            for _ in range(6):
                ws.send(json.dumps({"input": "overrule"}))
            replies = receive_until(ws, lambda got: sum(x["type"] in ("ack", "error") for x in got) >= 6)
            answers = [m for m in replies if m["type"] in ("ack", "error")]
            assert any(m["type"] == "error" and "too many messages" in m["error"] for m in answers)
