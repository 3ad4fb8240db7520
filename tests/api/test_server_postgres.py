"""The service on a real uvicorn server with ``DATABASE_URL`` naming PostgreSQL (issue #5, persistence).

The store's own parity with SQLite is tested in ``test_store_backends.py``; this checks the whole
service on top of it: the demo table's foul is written before it is broadcast, and a killed and
restarted server reading the same PostgreSQL database serves the identical match state.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tableref.api.app import create_app
from tableref.api.settings import Settings

from .conftest import COUNTING_FOUL_EVENTS, free_port, make_clip, running_server
from .test_store_postgres import PostgresServer, pg  # noqa: F401  (the fixture)

TOKEN = "test-referee-token"
FOUL_EVENTS = COUNTING_FOUL_EVENTS


def test_a_restarted_server_on_postgres_serves_identical_match_state(pg: PostgresServer,  # noqa: F811
                                                                      tmp_path: Path) -> None:
    clip = make_clip(tmp_path / "media", events=FOUL_EVENTS, game="counting")
    url = pg.fresh_url()
    settings = Settings(data_dir=tmp_path / "data", token=TOKEN, media_dirs=(clip.parent,), demo_clip=str(clip),
                        demo_loop=False, heartbeat_s=0.5, demo_pipeline="truth", database_url=url)
    with running_server(create_app(settings), free_port()) as host:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            state = httpx.get(f"http://{host}/api/tables/demo/state", timeout=10).json()
            if state["status"].get("state") == "stopped":
                break
            time.sleep(0.1)
        assert state["status"].get("state") == "stopped", state["status"]
        r = httpx.post(f"http://{host}/api/tables/demo/inputs", json={"input": "overrule"},
                       headers={"X-Referee-Token": TOKEN}, timeout=10)
        assert r.status_code == 200, r.text
        before = httpx.get(f"http://{host}/api/tables/demo/state", timeout=10).json()
        log_before = httpx.get(f"http://{host}/api/tables/demo/log", timeout=10).json()
    assert before["scores"] == {"A": 2}
    assert len(log_before) >= 4  # the events, the overrule and their updates
    # A fresh data folder: everything the restarted server knows must come from PostgreSQL.
    again = Settings(data_dir=tmp_path / "data-again", token=TOKEN, media_dirs=settings.media_dirs,
                     demo=False, heartbeat_s=0.5, demo_pipeline="truth", database_url=url)
    with running_server(create_app(again), free_port()) as host:
        # the clip is still the source: it resumes after the stored log (nothing left) and stops
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            after = httpx.get(f"http://{host}/api/tables/demo/state", timeout=10).json()
            if after["status"].get("state") == "stopped":
                break
            time.sleep(0.1)
        assert after["status"].get("state") == "stopped", after["status"]
        log_after = httpx.get(f"http://{host}/api/tables/demo/log", timeout=10).json()
    for key in ("scores", "state", "seq", "outcome"):
        assert after[key] == before[key], key
    assert log_after == log_before
