"""Tables over REST on a real server: the OpenAPI description, create, list, update, remove, a
looped file source, the latest frame, and a calibration upload with its snapshot image."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import cv2
import httpx
import numpy as np
import pytest
from websockets.sync.client import connect

from tableref.api.app import create_app
from tableref.api.settings import Settings

from .conftest import COIN_TOSS, free_port, make_clip, running_server

TOKEN = "tables-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
INPUTS = COIN_TOSS
EVENTS = [{"t": 0.5, "frame": 15, "type": "shot_start", "objects": ["white-1"], "position": [305, 381],
           "positions": {"white-1": [305, 381], "red": [560, 381]}},
          {"t": 1.0, "frame": 30, "type": "pot", "objects": ["red"], "where": "hole-100"}]
#: table mm to the 160x96 test clip's pixels (the whole 1835 x 915 mm bed, roughly)
CALIBRATION = {"table": "bar-billiards", "image_size": [160, 96],
               "homography": [[0.08, 0.0, 6.0], [0.0, 0.09, 6.0], [0.0, 0.0, 1.0]]}


def _poll(fetch: Any, ok: Any, timeout: float = 20.0, what: str = "") -> Any:
    """``fetch()`` until ``ok(result)``, bounded; the last result otherwise fails the test."""
    deadline = time.monotonic() + timeout
    result = fetch()
    while not ok(result) and time.monotonic() < deadline:
        time.sleep(0.1)
        result = fetch()
    assert ok(result), f"{what}: {result}"
    return result


def _jpeg(r: httpx.Response) -> np.ndarray:
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg", r.text[:200]
    image = cv2.imdecode(np.frombuffer(r.content, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    return image


@pytest.fixture()
def server(tmp_path: Path) -> Any:
    clip = make_clip(tmp_path / "media", name="side-table", frames=60, events=EVENTS, inputs=INPUTS)
    settings = Settings(data_dir=tmp_path / "data", token=TOKEN, media_dirs=(clip.parent,), demo=False, heartbeat_s=0.5)
    with running_server(create_app(settings), free_port()) as host:
        yield f"http://{host}", host, clip


def test_the_api_is_described_by_openapi(server: Any) -> None:
    base, _, _ = server
    spec = httpx.get(f"{base}/openapi.json", timeout=10).json()
    for path in ("/health", "/api/tables", "/api/tables/{table_id}", "/api/tables/{table_id}/log",
                 "/api/tables/{table_id}/inputs", "/api/tables/{table_id}/calibration",
                 "/api/tables/{table_id}/calibration.jpg", "/api/matches", "/api/matches/{match_id}",
                 "/api/matches/{match_id}/log", "/api/matches/{match_id}/standing", "/api/standings"):
        assert path in spec["paths"], path
    assert set(spec["paths"]["/api/tables/{table_id}"]) >= {"get", "patch", "delete"}
    assert "TableIn" in spec["components"]["schemas"] and "MatchIn" in spec["components"]["schemas"]


def test_a_table_is_created_listed_updated_calibrated_and_removed(server: Any) -> None:
    base, host, clip = server
    r = httpx.post(f"{base}/api/tables", headers=AUTH, timeout=10,
                   json={"id": "side", "name": "Side table", "table_kind": "bar-billiards", "game": "bar-billiards",
                         "source": clip.name, "loop": True, "pipeline": "truth"})
    assert r.status_code == 201, r.text
    assert r.json()["source"] == clip.name and r.json()["loop"] is True
    listed = httpx.get(f"{base}/api/tables", timeout=10).json()
    assert [(t["id"], t["name"]) for t in listed] == [("side", "Side table")]

    # a looped file starts again with a fresh game, logged, once the clip ends
    log = _poll(lambda: httpx.get(f"{base}/api/tables/side/log", timeout=10).json(),
                lambda rows: any(r.get("reset") for r in rows), what="no reset notice after the clip ended")
    assert "starts again" in next(r for r in log if r.get("reset"))["text"]
    frame = _jpeg(_poll(lambda: httpx.get(f"{base}/api/tables/side/frame.jpg", timeout=10),
                        lambda r: r.status_code == 200, what="no frame"))
    assert frame.shape[:2] == (96, 160)

    plain = _jpeg(httpx.get(f"{base}/api/tables/side/calibration.jpg", timeout=10))
    r = httpx.post(f"{base}/api/tables/side/calibration", json=CALIBRATION, headers=AUTH, timeout=10)
    assert r.status_code == 200, r.text
    assert httpx.get(f"{base}/api/tables/side", timeout=10).json()["calibration"] == CALIBRATION
    drawn = _poll(lambda: httpx.get(f"{base}/api/tables/side/calibration.jpg", timeout=10),
                  lambda r: r.status_code == 200, what="no calibration snapshot")
    # the spec drawn through the homography: the bed's outline in yellow, where the plain frame has none
    yellow = np.all(_jpeg(drawn) > (0, 160, 160), axis=2) & (_jpeg(drawn)[:, :, 0] < 100)
    assert yellow.sum() > 50 and (np.all(plain > (0, 160, 160), axis=2) & (plain[:, :, 0] < 100)).sum() < yellow.sum() / 4

    r = httpx.patch(f"{base}/api/tables/side", json={"name": "Side table 2", "loop": False}, headers=AUTH, timeout=10)
    assert r.status_code == 200 and r.json()["name"] == "Side table 2" and r.json()["loop"] is False
    r = httpx.patch(f"{base}/api/tables/side", json={"source": "elsewhere.mp4"}, headers=AUTH, timeout=10)
    assert r.status_code == 400 and "not found" in r.json()["detail"]
    row = httpx.get(f"{base}/api/tables/side", timeout=10).json()
    assert (row["name"], row["source"], row["loop"]) == ("Side table 2", clip.name, False)  # the refused PATCH changed nothing

    r = httpx.patch(f"{base}/api/tables/side", json={"loop": None}, headers=AUTH, timeout=10)
    assert r.status_code == 422 and "loop cannot be null" in r.json()["detail"]
    r = httpx.patch(f"{base}/api/tables/side", json={"source": None}, headers=AUTH, timeout=10)  # the camera off
    assert r.status_code == 200 and r.json()["source"] is None and r.json()["calibration"] == CALIBRATION
    assert _poll(lambda: httpx.get(f"{base}/api/tables/side/state", timeout=10).json()["status"],
                 lambda st: st.get("state") == "idle", what="the source did not stop")

    assert httpx.delete(f"{base}/api/tables/side", timeout=10).status_code == 401
    assert httpx.delete(f"{base}/api/tables/side", headers=AUTH, timeout=10).status_code == 204
    assert httpx.get(f"{base}/api/tables/side", timeout=10).status_code == 404
    assert httpx.get(f"{base}/api/tables", timeout=10).json() == []
    with connect(f"ws://{host}/ws/tables/side") as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "error"
    assert httpx.get(f"{base}/health", timeout=10).json() == {"ok": True, "tables": {}}


def test_a_removed_table_made_again_under_its_id_starts_afresh(server: Any) -> None:
    """Its log stays (a match may need it), but the game does not come back with the id."""
    base, _, _ = server
    body = {"id": "again", "table_kind": "bar-billiards", "game": "bar-billiards"}
    assert httpx.post(f"{base}/api/tables", json=body, headers=AUTH, timeout=10).status_code == 201
    fresh = httpx.get(f"{base}/api/tables/again/state", timeout=10).json()["state"]
    r = httpx.post(f"{base}/api/tables/again/inputs", json={"input": "coin_toss", "winner": "away", "choice": "break"},
                   headers=AUTH, timeout=10)
    assert r.status_code == 200 and not [m for m in r.json()["messages"] if m["type"] == "question"]
    assert httpx.get(f"{base}/api/tables/again/state", timeout=10).json()["state"] != fresh
    assert httpx.delete(f"{base}/api/tables/again", headers=AUTH, timeout=10).status_code == 204
    assert httpx.post(f"{base}/api/tables", json=body, headers=AUTH, timeout=10).status_code == 201
    again = httpx.get(f"{base}/api/tables/again/state", timeout=10).json()
    assert again["state"] == fresh
    assert any(r["kind"] == "input" for r in httpx.get(f"{base}/api/tables/again/log", timeout=10).json())


def test_a_match_is_started_ended_with_its_result_and_keeps_its_log(server: Any) -> None:
    base, _, _ = server
    body = {"id": "t", "table_kind": "bar-billiards", "game": "bar-billiards"}
    assert httpx.post(f"{base}/api/tables", json=body, headers=AUTH, timeout=10).status_code == 201
    r = httpx.post(f"{base}/api/matches", headers=AUTH, timeout=10,
                   json={"id": "final", "game": "bar-billiards", "table_ids": ["t"], "players": ["Oak", "Ash"]})
    assert r.status_code == 201, r.text
    assert (r.json()["status"], r.json()["players"]) == ("playing", ["Oak", "Ash"])
    assert httpx.get(f"{base}/api/tables/t/state", timeout=10).json()["match"] == "final"
    r = httpx.post(f"{base}/api/tables/t/inputs", json={"input": "coin_toss", "winner": "home", "choice": "break"},
                   headers=AUTH, timeout=10)
    assert r.status_code == 200
    for bad, says in (({"status": "finished"}, "'open', 'playing' or 'ended'"), ({"winner": "Oak"}, "unknown field 'winner'")):
        r = httpx.patch(f"{base}/api/matches/final", json=bad, headers=AUTH, timeout=10)
        assert r.status_code == 422 and says in r.json()["detail"], r.text
    assert httpx.patch(f"{base}/api/matches/nope", json={"status": "ended"}, headers=AUTH, timeout=10).status_code == 404
    assert httpx.patch(f"{base}/api/matches/final", json={"status": "ended"}, timeout=10).status_code == 401
    r = httpx.patch(f"{base}/api/matches/final", json={"status": "ended", "result": {"winner": "Oak", "score": "2-1"}},
                    headers=AUTH, timeout=10)
    assert r.status_code == 200, r.text
    match = httpx.get(f"{base}/api/matches/final", timeout=10).json()
    assert match["status"] == "ended" and match["ended"] and match["result"] == {"winner": "Oak", "score": "2-1"}
    assert [m["id"] for m in httpx.get(f"{base}/api/matches", timeout=10).json()] == ["final"]
    assert httpx.get(f"{base}/api/tables/t/state", timeout=10).json()["match"] is None  # the table left the match
    log = httpx.get(f"{base}/api/matches/final/log", timeout=10).json()
    assert [r["input"] for r in log if r["kind"] == "input"] == ["coin_toss"] and all(r["table"] == "t" for r in log)


def test_a_store_that_cannot_write_gets_a_503_and_the_table_is_unchanged(tmp_path: Path) -> None:
    from tableref.api.store import StoreUnavailable

    settings = Settings(data_dir=tmp_path / "data", token=TOKEN, demo=False)
    app = create_app(settings)
    store = app.state.service.store
    with running_server(app, free_port()) as host:
        base = f"http://{host}"
        body = {"id": "t", "table_kind": "bar-billiards", "game": "bar-billiards"}
        assert httpx.post(f"{base}/api/tables", json=body, headers=AUTH, timeout=10).status_code == 201
        before = httpx.get(f"{base}/api/tables/t/state", timeout=10).json()
        real = store.append_many

        def down(*args: object, **kwargs: object) -> None:
            raise StoreUnavailable(f"cannot write to SQLite at {store.location}: disk full; nothing was written")

        with connect(f"ws://{host}/ws/tables/t?token={TOKEN}") as ws:
            json.loads(ws.recv(timeout=10))
            store.append_many = down
            try:
                r = httpx.post(f"{base}/api/tables/t/inputs", json={"input": "coin_toss", "winner": "home"},
                               headers=AUTH, timeout=10)
                ws.send(json.dumps({"input": "coin_toss", "winner": "home"}))
                reply = json.loads(ws.recv(timeout=10))
                while reply["type"] not in ("ack", "error"):
                    reply = json.loads(ws.recv(timeout=10))
            finally:
                store.append_many = real
            assert reply["type"] == "error" and "not recorded" in reply["error"], reply
        assert r.status_code == 503 and "disk full" in r.json()["detail"] and "not recorded" in r.json()["detail"]
        assert httpx.get(f"{base}/api/tables/t/state", timeout=10).json() == before
        r = httpx.post(f"{base}/api/tables/t/inputs", json={"input": "coin_toss", "winner": "home"}, headers=AUTH, timeout=10)
        assert r.status_code == 200 and r.json()["messages"][0]["seq"] == before["seq"] + 1
