"""The tablet page in a real browser: Debian's Chromium, driven headless by Playwright.

The demo table replays a bar-billiards frame: home breaks off and pots the red (a break of 200),
then knocks the white pin over (3b(a): the break is lost). The page must show the foul banner with
the rule; overruling it must bank the 200. Screenshots are saved in ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tableref.api.app import create_app
from tableref.api.settings import Settings
from tableref.api.store import Store

from .conftest import (
    CHROMIUM,
    COIN_TOSS,
    PIN_FOUL_EVENTS,
    assert_usable,
    free_port,
    launch_chromium,
    make_clip,
    running_server,
)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TOKEN = "browser-test-token"

INPUTS = COIN_TOSS
EVENTS = PIN_FOUL_EVENTS  # home breaks off, pots the red, then knocks the white pin over (3b(a))

#: true when the canvas shows a red ball at the red's last position (table mm mapped as draw() does)
DRAWN_RED = """() => {
    const spec = state.spec, o = state.positions["red"], c = document.querySelector("#table");
    if (!spec || !o) return false;
    const pad = 20, W = c.width - 2 * pad, H = c.height - 2 * pad;
    const s = Math.min(W / spec.length_mm, H / spec.width_mm);
    const x = pad + (W - spec.length_mm * s) / 2 + o.x * s, y = pad + (H - spec.width_mm * s) / 2 + o.y * s;
    const [r, g, b] = c.getContext("2d").getImageData(Math.round(x), Math.round(y), 1, 1).data;
    return r > 150 && g < 90 && b < 90;
}"""


pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed (scripts/system-deps.sh installs it)")


def test_the_tablet_shows_the_foul_and_an_overrule_changes_the_score(tmp_path: Path) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    clip = make_clip(tmp_path / "media", name="bar-billiards-demo", frames=120, events=EVENTS, inputs=INPUTS)
    settings = Settings(data_dir=tmp_path / "data", token=TOKEN, media_dirs=(clip.parent,), demo_clip=str(clip),
                        demo_loop=False, heartbeat_s=1.0)
    ARTIFACTS.mkdir(exist_ok=True)
    with running_server(create_app(settings), free_port()) as host, playwright.sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"http://{host}/#token={TOKEN}")
            page.wait_for_selector("#role.ok", timeout=15_000)  # connected as the referee
            page.wait_for_selector("#foul:not([hidden])", timeout=20_000)
            assert "3b(a)" in page.inner_text("#foul-clause")
            assert "pin" in page.inner_text("#foul-text")
            page.wait_for_function("document.querySelector('#foul-still') && !document.querySelector('#foul-still').hidden")
            page.screenshot(path=str(ARTIFACTS / "tablet-foul.png"), full_page=True)
            assert "200" not in page.inner_text("#scoreboard")
            # the table drawn live: the red ball's pixel on the canvas, where the page's spec puts it
            page.wait_for_function(DRAWN_RED, timeout=10_000)
            # the break of 200 was lost with the foul: the current break is no longer shown
            page.wait_for_function("document.querySelector('#break').innerText.trim() === ''", timeout=10_000)
            for width, height in ((1280, 800), (800, 1280)):  # a 10-inch tablet, landscape and portrait
                page.set_viewport_size({"width": width, "height": height})
                assert_usable(page, width, ["#foul-confirm", "#foul-overrule", "#undo", "#overrule"])
            page.set_viewport_size({"width": 1280, "height": 800})
            page.click("#foul-overrule")
            page.wait_for_function("document.querySelector('#scoreboard').innerText.includes('200')", timeout=10_000)
            assert page.is_hidden("#foul")
            page.screenshot(path=str(ARTIFACTS / "tablet-overruled.png"), full_page=True)
            page.set_viewport_size({"width": 800, "height": 1280})  # a 10-inch tablet in portrait
            page.screenshot(path=str(ARTIFACTS / "tablet-portrait.png"), full_page=True)
            # Undo takes the overrule back: the foul stands again and the 200 is gone
            page.click("#undo")
            page.wait_for_function("document.querySelector('#log').innerText.includes('Undone')", timeout=10_000)
            page.wait_for_function("!document.querySelector('#scoreboard').innerText.includes('200')", timeout=10_000)
        finally:
            browser.close()


def test_the_tablet_says_when_a_camera_stream_is_lost_and_retried(tmp_path: Path) -> None:
    """A stream nobody serves: the source pill says so and counts the retries as they happen."""
    playwright = pytest.importorskip("playwright.sync_api")
    import httpx

    settings = Settings(data_dir=tmp_path / "data", token=TOKEN, demo=False, heartbeat_s=1.0)
    dead = f"http://127.0.0.1:{free_port()}/stream.mjpg"  # nothing listens there
    with running_server(create_app(settings), free_port()) as host, playwright.sync_playwright() as pw:
        r = httpx.post(f"http://{host}/api/tables", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10,
                       json={"id": "cam", "table_kind": "pool", "game": "colors", "source": dead,
                             "calibration": {"homography": [[0.4, 0, 100], [0, 0.4, 80], [0, 0, 1]]}})
        assert r.status_code == 201, r.text
        browser = launch_chromium(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"http://{host}/#token={TOKEN}")
            page.wait_for_selector("#role.ok", timeout=15_000)
            page.wait_for_function("document.querySelector('#source').innerText.includes('source lost')", timeout=15_000)
            first = int(page.inner_text("#source").split("retry ")[1].split()[0])
            # a later attempt arrives live over the websocket (the page is not reloaded)
            page.wait_for_function(
                "(n) => { const m = document.querySelector('#source').innerText.match(/retry (\\d+)/);"
                " return m !== null && +m[1] > n; }", arg=first, timeout=20_000)
            assert "warn" in (page.get_attribute("#source", "class") or "")
        finally:
            browser.close()


def test_the_api_page_lists_every_route_without_anything_from_outside(tmp_path: Path) -> None:
    """``/docs`` works at a venue without internet: every request it makes goes to this server."""
    playwright = pytest.importorskip("playwright.sync_api")
    settings = Settings(data_dir=tmp_path / "data", token=TOKEN, demo=False)
    with running_server(create_app(settings), free_port()) as host, playwright.sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            requested: list[str] = []
            page.on("request", lambda req: requested.append(req.url))
            page.goto(f"http://{host}/docs")
            page.wait_for_function("document.querySelectorAll('#ops details').length > 10", timeout=15_000)
            text = page.inner_text("#ops")
            for route in ("/api/tables/{table_id}/calibration", "/api/matches/{match_id}/standing", "/health"):
                assert route in text
            page.click("#ops details:has(code:text-is('/api/tables')):has(.POST) summary")
            assert "table_kind (required)" in page.inner_text("#ops")
            assert requested and all(url.startswith(f"http://{host}/") for url in requested), requested
        finally:
            browser.close()


def test_the_inputs_a_camera_cannot_see_are_sent_from_the_page(tmp_path: Path) -> None:
    """The called ball in Up and Down and the choice after a foul break in bar billiards, entered
    on the page, reach the table's log as the referee's inputs with their data."""
    playwright = pytest.importorskip("playwright.sync_api")
    import httpx

    settings = Settings(data_dir=tmp_path / "data", token=TOKEN, demo=False, heartbeat_s=1.0)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with running_server(create_app(settings), free_port()) as host, playwright.sync_playwright() as pw:
        for body in ({"id": "ud", "table_kind": "pool", "game": "up-and-down"},
                     {"id": "bb", "table_kind": "bar-billiards", "game": "bar-billiards"}):
            assert httpx.post(f"http://{host}/api/tables", json=body, headers=auth, timeout=10).status_code == 201

        def logged(table: str, kind: str) -> dict[str, Any]:
            rows = [r for r in httpx.get(f"http://{host}/api/tables/{table}/log", timeout=10).json()
                    if r["kind"] == "input" and r["input"] == kind]
            assert len(rows) == 1, rows
            return dict(rows[0])

        browser = launch_chromium(pw)
        try:
            page = browser.new_page(viewport={"width": 800, "height": 1280})
            page.goto(f"http://{host}/#token={TOKEN}")
            page.wait_for_selector("#role.ok", timeout=15_000)
            call = page.locator("#game-inputs .row", has_text="Call:")
            call.wait_for(timeout=10_000)
            selects = call.locator("select")
            selects.nth(0).select_option("ball-0")
            selects.nth(1).select_option("ball-3")
            selects.nth(2).select_option("ball-5")
            call.get_by_role("button", name="Send call").click()
            page.wait_for_function("document.querySelector('#log').innerText.includes('input: called_shot')", timeout=10_000)
            shot = logged("ud", "called_shot")
            assert (shot["cue"], shot["balls"]) == ("ball-0", ["ball-3", "ball-5"])

            page.select_option("#table-select", "bb")
            # the page's own state: the new table's snapshot has come over an open websocket
            page.wait_for_function("state.snapshot !== null && state.snapshot.table === 'bb' && state.ws.readyState === 1",
                                   timeout=10_000)
            page.locator("#game-inputs button", has_text="Re-break").click()
            page.wait_for_function("document.querySelector('#log').innerText.includes('input: break_option')", timeout=10_000)
            assert logged("bb", "break_option")["choice"] == "rebreak"
        finally:
            browser.close()


def test_the_tablet_reconnects_after_a_server_restart_and_gets_what_it_missed(tmp_path: Path) -> None:
    """The page keeps its log, reconnects with its last sequence number, and shows what happened
    while it was away once each (the server restarted on the same port and data folder)."""
    playwright = pytest.importorskip("playwright.sync_api")
    import httpx

    settings = Settings(data_dir=tmp_path / "data", token=TOKEN, demo=False, heartbeat_s=1.0)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    port = free_port()
    log_js = "[...document.querySelectorAll('#log li')].map(li => li.innerText)"
    with playwright.sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            with running_server(create_app(settings), port) as host:
                r = httpx.post(f"http://{host}/api/tables", json={"id": "bb", "table_kind": "bar-billiards",
                                                                  "game": "bar-billiards"}, headers=auth, timeout=10)
                assert r.status_code == 201
                page.goto(f"http://{host}/#token={TOKEN}")
                page.wait_for_selector("#role.ok", timeout=15_000)
                r = httpx.post(f"http://{host}/api/tables/bb/inputs", json={"input": "coin_toss", "winner": "home"},
                               headers=auth, timeout=10)
                assert r.status_code == 200
                page.wait_for_function("document.querySelector('#log').innerText.includes('input: coin_toss')", timeout=10_000)
            page.wait_for_function("document.querySelector('#conn').innerText.includes('reconnecting')", timeout=10_000)
            # while the page is away, the log grows (as another tablet's input would have made it grow)
            store = Store(settings.db_path)
            store.append("bb", store.last_seq("bb") + 1, "input", {"t": 0.0, "input": "bar_dropped"})
            store.close()
            with running_server(create_app(settings), port) as host:
                page.wait_for_function("document.querySelector('#log').innerText.includes('input: bar_dropped')",
                                       timeout=20_000)
                page.wait_for_selector("#conn.ok", timeout=10_000)
                lines = page.evaluate(log_js)
                assert sum("input: coin_toss" in line for line in lines) == 1  # kept, not shown twice
                assert sum("input: bar_dropped" in line for line in lines) == 1
        finally:
            browser.close()
