"""All-Fours on the referee tablet, in a real browser (Debian's Chromium through Playwright).

A real server with an All-Fours table (table kind ``cards``) is fed the first hand of the
documented log (``docs/logs/all-fours.jsonl``) through the REST inputs API, as the camera's card
events would arrive; the begging is entered on the page. The page must show the cards on the board
by seat, the kick and the trick, and after the last trick the hand's points exactly as the engine
counted them (the expectation is the engine's own SCORE updates for the server's log, not numbers
written here). Screenshots in portrait (800x1280) and landscape (1280x800) go to ``test-artifacts/``.

``api/views.py`` adds a tablet view (provisional points, whose turn) to the snapshot once the
service hooks it in; the page works with and without it, so both are tested.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tableref.api.app import create_app
from tableref.api.session import TableSession
from tableref.api.settings import Settings
from tableref.api.views import table_view
from tableref.events import from_json
from tableref.referee import RefereeError, UpdateKind, make_engine

from .conftest import CHROMIUM, assert_usable, free_port, launch_chromium, running_server

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
TOKEN = "allfours-tablet-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
POINT_CODES = ("high", "low", "jack", "hang_jack", "game")
# every point cell shows what was wanted ("–" for a team that did not score it)
SETTLED = """(want) => Object.entries(want).every(([code, teams]) => Object.entries(teams).every(([t, v]) => {
    const cell = document.querySelector(`#af-points tr[data-point='${code}'] td[data-team='${t}']`);
    return cell !== null && cell.innerText.trim() === v;
}))"""


def _first_hand() -> list[dict[str, Any]]:
    """The documented log up to the first hand's last card."""
    rows = [json.loads(line) for line in (ROOT / "docs/logs/all-fours.jsonl").read_text("utf-8").splitlines() if line.strip()]
    engine = make_engine("all-fours")
    for i, row in enumerate(rows):
        if any(u.code == "hand_over" for u in engine.apply(from_json(row))):
            return rows[: i + 1]
    raise AssertionError("the documented log has no complete hand")


def _counted(log: list[dict[str, Any]]) -> dict[str, tuple[str, int]]:
    """Replay the server's stored events and inputs into a fresh engine: the points it counted."""
    engine = make_engine("all-fours")
    counted: dict[str, tuple[str, int]] = {}
    for row in log:
        if row["kind"] not in ("event", "input"):
            continue
        body = {k: v for k, v in row.items() if k not in ("seq", "kind", "match")}
        try:
            updates = engine.apply(from_json(body))
        except RefereeError:
            continue
        for u in updates:
            if u.kind is UpdateKind.SCORE and u.code in POINT_CODES and u.player is not None:
                counted[str(u.code)] = (u.player, u.points or 0)
    return counted


def test_the_view_counts_the_hand_as_the_engine_does() -> None:
    hand = _first_hand()
    engine = make_engine("all-fours")
    turns = []
    scored: dict[str, tuple[str, int]] = {}
    for row in hand[:-1]:
        turns += [u.player for u in engine.apply(from_json(row)) if u.kind is UpdateKind.TURN]
    view = table_view(engine)
    assert view is not None and view["hand"] is not None
    assert view["hand"]["to_play"] == turns[-1]  # whose turn, as the engine last said
    trick = view["hand"]["trick"]
    assert trick["winner"] is None and trick["plays"][-1]["card"] == hand[-2]["card"]
    assert view["hand"]["points_final"] is False
    for u in engine.apply(from_json(hand[-1])):
        if u.kind is UpdateKind.SCORE and u.code in POINT_CODES:
            scored[str(u.code)] = (str(u.player), u.points or 0)
    view = table_view(engine)
    assert view is not None and view["hand"]["points_final"] is True
    assert {p["point"]: (p["team"], p["points"]) for p in view["hand"]["points"]} == scored
    assert view["scores"] == engine.scores()
    assert table_view(make_engine("counting")) is None and table_view(None) is None


pytestmark_browser = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                        reason="Debian's chromium is not installed (scripts/system-deps.sh installs it)")


@pytest.fixture(params=["state only", "with view"])
def hooked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[bool]:
    """Serve the snapshot as it is, or with the tablet view the service is to add (api/views.py)."""
    with_view = request.param == "with view"
    if with_view:
        plain = TableSession.snapshot

        def snapshot(self: TableSession) -> dict[str, Any]:
            snap = plain(self)
            snap.setdefault("view", table_view(self.engine))
            return snap

        monkeypatch.setattr(TableSession, "snapshot", snapshot)
    yield with_view


def _post(host: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    """Send an event or input as the camera or a scorer would; the messages it caused."""
    r = httpx.post(f"http://{host}/api/tables/af/inputs", json=body, headers=AUTH, timeout=10)
    assert r.status_code == 200, r.text
    messages: list[dict[str, Any]] = r.json()["messages"]
    assert not any(m["type"] == "question" for m in messages), messages
    return messages


def _hand_state(host: str) -> dict[str, Any]:
    state = httpx.get(f"http://{host}/api/tables/af/state", timeout=10).json()["state"]
    return state["game"]["hand"]


def _shots(page: Any, name: str) -> None:
    for w, h, tag in ((1280, 800, "landscape"), (800, 1280, "portrait")):
        page.set_viewport_size({"width": w, "height": h})
        assert_usable(page, w, ["#undo", "#overrule"])
        page.screenshot(path=str(ARTIFACTS / f"tablet-allfours-{name}-{tag}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})


@pytestmark_browser
def test_the_board_the_points_and_begging_from_the_page(tmp_path: Path, hooked: bool) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    hand = _first_hand()
    stand = next(i for i, row in enumerate(hand) if row.get("input") == "stand")
    # the test feeds a whole hand as fast as it can post, faster than a card camera: no write rate limit
    settings = Settings(data_dir=tmp_path / "data", token=TOKEN, demo=False, heartbeat_s=1.0, max_writes_per_second=0)
    ARTIFACTS.mkdir(exist_ok=True)
    with running_server(create_app(settings), free_port()) as host, playwright.sync_playwright() as pw:
        r = httpx.post(f"http://{host}/api/tables", headers=AUTH, timeout=10,
                       json={"id": "af", "name": "All-Fours table 1", "table_kind": "cards", "game": "all-fours"})
        assert r.status_code == 201, r.text
        browser = launch_chromium(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))  # a script error fails the test
            page.goto(f"http://{host}/#token={TOKEN}")
            page.wait_for_selector("#role.ok", timeout=15_000)
            page.wait_for_selector("#af-board:not([hidden])", timeout=10_000)
            assert page.is_hidden("#table")  # the board replaces the drawn table

            for row in hand[:stand]:  # teams, the deal, the kick: as the camera and tablet send them
                _post(host, row)
            kick = next(row["card"] for row in hand[:stand] if row.get("type") == "card_kicked")
            page.wait_for_selector(f"#af-centre .card.kicked[data-card='{kick}']", timeout=10_000)
            page.wait_for_selector("#game-inputs button[data-input='beg'].suggested", timeout=10_000)

            # begging from the page: east begs, south gives one
            page.click("#game-inputs button[data-input='beg']")
            page.wait_for_function("document.querySelector('#af-prompt').innerText.includes('give one')", timeout=10_000)
            assert _hand_state(host)["phase"] == "begged"
            page.click("#game-inputs button[data-input='give']")
            page.wait_for_selector("#af-points tr[data-point='give_one']", timeout=10_000)
            after = _hand_state(host)
            assert after["phase"] == "play" and after["stand"] == "give"

            # the first trick: a lead out of turn, taken back, then two cards on the board
            played = [row for row in hand[stand + 1:] if row.get("type") in ("card_played", "card_retrieved")]
            first = played[:4]
            turns = [m["player"] for row in first for m in _post(host, row) if m.get("kind") == "turn"]
            on_board = [row for row in first[2:] if row["type"] == "card_played"]
            for row in on_board:
                page.wait_for_selector(f"#af-seat-{row['seat']} .af-slot .card[data-card='{row['card']}']", timeout=10_000)
            empty = {"south", "east", "north", "west"} - {row["seat"] for row in on_board}
            for seat in empty:
                assert page.locator(f"#af-seat-{seat} .af-slot .card.empty").count() == 1
            assert "trick 1" in page.inner_text("#af-centre")
            suit = kick[-1]
            assert {"D": "♦", "H": "♥", "S": "♠", "C": "♣"}[suit] in page.inner_text("#af-centre")
            state_now = _hand_state(host)
            page.wait_for_selector(f"#af-seat-{turns[-1]}.to-play", timeout=10_000)  # whose turn, as the engine said
            assert page.locator(".af-seat.to-play").count() == 1
            if hooked:  # the view's points as they stand mid-hand
                page.wait_for_function("document.querySelector('#af-points-source').innerText.includes('as it stands')",
                                       timeout=10_000)
            _shots(page, "trick")

            for row in played[4:]:
                _post(host, row)
            page.wait_for_function("document.querySelector('#af-points-source').innerText.includes('counted')",
                                   timeout=10_000)
            page.wait_for_function("document.querySelectorAll('#af-tricks li').length >= 5", timeout=10_000)
            log = httpx.get(f"http://{host}/api/tables/af/log", timeout=10).json()
            counted = _counted(log)
            assert counted, "the hand scored nothing"
            # the engine's points arrive as one message each: the page shows the first before the last
            # has come, so wait for every cell to settle (a wrong count still fails after the timeout)
            wanted = {code: {t: (str(counted[code][1]) if code in counted and counted[code][0] == t else "–")
                             for t in "AB"} for code in POINT_CODES}
            with contextlib.suppress(PlaywrightTimeout):  # on a timeout the asserts below show what differs
                page.wait_for_function(SETTLED, arg=wanted, timeout=10_000, polling=100)
            for code in POINT_CODES:
                cells = {t: page.inner_text(f"#af-points tr[data-point='{code}'] td[data-team='{t}']") for t in "AB"}
                assert cells == wanted[code], (code, cells, wanted[code])
            final = httpx.get(f"http://{host}/api/tables/af/state", timeout=10).json()
            for team in "AB":
                pts = f"#scoreboard .af-team[data-team='{team}'] .pts"
                with contextlib.suppress(PlaywrightTimeout):
                    page.wait_for_function("([sel, v]) => document.querySelector(sel)?.innerText === v",
                                           arg=[pts, str(final["scores"][team])], timeout=10_000, polling=100)
                assert page.inner_text(pts) == str(final["scores"][team])
            assert state_now["tricks"], "the board was read from a hand in play"
            _shots(page, "hand-over")

            # a hand shown for a renege claim reaches the referee with its seat and cards
            page.click("#af-shown summary")
            page.select_option("#af-shown-seat", "west")
            for card in ("9C", "2D"):
                page.click(f"#af-picker .card[data-card='{card}']")
            page.set_viewport_size({"width": 800, "height": 1280})
            page.screenshot(path=str(ARTIFACTS / "tablet-allfours-hand-shown-portrait.png"), full_page=True)
            page.click("#af-shown button[data-input='claim_renege']")
            page.wait_for_function("document.querySelector('#log').innerText.includes('claim_renege')", timeout=10_000)
            log = httpx.get(f"http://{host}/api/tables/af/log", timeout=10).json()
            claim = [r for r in log if r["kind"] == "input" and r.get("input") == "claim_renege"]
            assert claim and claim[-1]["seat"] == "west" and claim[-1]["cards"] == ["9C", "2D"]
            assert errors == []
        finally:
            browser.close()
