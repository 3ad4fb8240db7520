"""``tableref serve`` as a venue runs it: a process configured by flags and environment, killed hard.

The server runs in its own process (``python -m tableref serve``) on 127.0.0.1, configured the way
the README says (``--host``, ``--port``, ``--data-dir``; ``TABLEREF_TOKEN``, ``TABLEREF_MEDIA_DIR``,
``TABLEREF_DEMO_CLIP``, ``TABLEREF_DEMO_LOOP``, ``TABLEREF_DEMO_PIPELINE``), and is killed with
SIGKILL: no shutdown code runs, so whatever the restarted server serves comes from what was
committed to SQLite before each message went out.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tableref.events import from_json
from tableref.referee import make_engine

from .conftest import COIN_TOSS, PIN_FOUL_EVENTS, free_port, make_clip

TOKEN = "cli-referee-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
INPUTS = COIN_TOSS
EVENTS = PIN_FOUL_EVENTS  # home breaks off, pots the red, then knocks the white pin over (3b(a))


@contextmanager
def serve(data_dir: Path, clip: Path, port: int) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``tableref serve`` in its own process; killed (SIGKILL) when the block ends, if still alive."""
    env = {**os.environ, "TABLEREF_TOKEN": TOKEN, "TABLEREF_MEDIA_DIR": str(clip.parent),
           "TABLEREF_DEMO_CLIP": str(clip), "TABLEREF_DEMO_LOOP": "0", "TABLEREF_DEMO_PIPELINE": "truth"}
    env.pop("DATABASE_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tableref", "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data_dir)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    host = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"tableref serve exited ({proc.returncode}): {proc.stdout.read() if proc.stdout else ''}")
            try:
                if httpx.get(f"http://{host}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("tableref serve did not answer /health within 60 s")
            time.sleep(0.2)
        yield host, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=20)
        if proc.stdout is not None:
            proc.stdout.close()


def _state(host: str) -> dict[str, Any]:
    return dict(httpx.get(f"http://{host}/api/tables/demo/state", timeout=10).json())


def _log(host: str) -> list[dict[str, Any]]:
    return list(httpx.get(f"http://{host}/api/tables/demo/log", timeout=10).json())


def _wait_stopped(host: str, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    state = _state(host)
    while state["status"].get("state") != "stopped" and time.monotonic() < deadline:
        time.sleep(0.1)
        state = _state(host)
    assert state["status"].get("state") == "stopped", state["status"]
    return state


def _kill(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(timeout=20) == -signal.SIGKILL


@pytest.fixture()
def clip(tmp_path: Path) -> Path:
    return make_clip(tmp_path / "media", name="league-night", frames=120, events=EVENTS, inputs=INPUTS)


def test_serve_takes_its_flags_and_environment_and_a_killed_server_comes_back_identical(tmp_path: Path, clip: Path) -> None:
    data = tmp_path / "data"
    port = free_port()
    with serve(data, clip, port) as (host, proc):
        assert (data / "tableref.sqlite3").is_file()  # --data-dir
        with connect(f"ws://{host}/ws/tables/demo") as ws:
            snap = json.loads(ws.recv(timeout=10))
            assert snap["can_write"] is False and snap["pipeline"] == "truth"
            assert ws.response is not None  # offered permessage-deflate, served plain (api/cli.py says why)
            assert "Sec-WebSocket-Extensions" not in ws.response.headers
        tables = httpx.get(f"http://{host}/api/tables", timeout=10).json()
        assert [(t["id"], Path(t["source"]).name, t["loop"]) for t in tables] == [("demo", clip.name, False)]
        stopped = _wait_stopped(host)  # TABLEREF_DEMO_LOOP=0: the clip played once
        assert stopped["scores"] == {"home": 0, "away": 0}  # 3b(a): the break is lost
        r = httpx.post(f"http://{host}/api/tables/demo/inputs", json={"input": "overrule", "code": "pin_down"},
                       headers={"Authorization": "Bearer wrong"}, timeout=10)
        assert r.status_code == 401  # TABLEREF_TOKEN is the token
        r = httpx.post(f"http://{host}/api/tables/demo/inputs", json={"input": "overrule"}, headers=AUTH, timeout=10)
        assert r.status_code == 200, r.text
        before, log_before = _state(host), _log(host)
        assert before["scores"]["home"] > 0  # the overrule banked the break
        _kill(proc)
        out = proc.stdout.read() if proc.stdout else ""
    assert f"http://127.0.0.1:{port}/#token={TOKEN}" in out  # the tablet's address, printed for the venue

    with serve(data, clip, free_port()) as (host, _):
        first = _state(host)
        after = _wait_stopped(host)  # the clip's source resumes after the log: nothing is refereed twice
        log_after = _log(host)
    for key in ("scores", "state", "seq", "outcome"):
        assert first[key] == before[key], key
        assert after[key] == before[key], key
    assert log_after == log_before


def test_a_server_killed_mid_clip_resumes_it_and_loses_nothing(tmp_path: Path, clip: Path) -> None:
    """Killed while the clip plays: after the restart every event of the clip is in the log once,
    and the game ends exactly as an uninterrupted run of the same clip does."""
    data = tmp_path / "data"
    with serve(data, clip, free_port()) as (host, proc):
        deadline = time.monotonic() + 30
        while not any(r["kind"] == "event" and r["type"] == "pot" for r in _log(host)):
            assert time.monotonic() < deadline, "the clip's pot never arrived"
            time.sleep(0.05)
        _kill(proc)  # mid-clip: the pin has not fallen yet
    with serve(data, clip, free_port()) as (host, _):
        final = _wait_stopped(host)
        log = _log(host)
    events = [{k: v for k, v in r.items() if k not in ("seq", "kind", "match")} for r in log if r["kind"] == "event"]
    assert [(e["t"], e["type"]) for e in events] == [(e["t"], e["type"]) for e in EVENTS]
    assert [r["input"] for r in log if r["kind"] == "input"] == ["coin_toss"]
    assert [r["seq"] for r in log] == sorted({r["seq"] for r in log})
    engine = make_engine("bar-billiards")  # the same clip, never interrupted
    for item in sorted([*INPUTS, *EVENTS], key=lambda i: i["t"]):
        engine.apply(from_json(item))
    assert final["scores"] == engine.scores() and final["state"] == engine.state
    assert [r["clause"] for r in log if r.get("kind") == "foul"] == ["3b(a)"]
