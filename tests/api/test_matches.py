"""Matches across frames and tables, played through the service's REST and websocket API.

A bar-billiards league match (rule 6: nine frames, six singles then three doubles) is played frame by
frame to a decided result and on to its ninth frame; a three-table All-Fours team match (IC2024 2,
28) is played game by game until the elimination rule ends it. After every frame or game the
standing is checked against a tally the test keeps itself; the decision must be in the store and
survive a restart. Frames and games are ended by concessions (bar billiards 3a(d), All-Fours 5):
the match logic only sees who won, and real play is the referee tests' business.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tableref.api.app import create_app
from tableref.api.settings import Settings

from .conftest import CHROMIUM, free_port, launch_chromium, running_server

TOKEN = "match-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
DRAW: dict[str, Any] = {
    "singles": [[f"h{i}", f"a{i}"] for i in range(1, 7)],
    "doubles": [[["h1", "h2"], ["a1", "a2"]], [["h3", "h4"], ["a3", "a4"]], [["h5", "h6"], ["a5", "a6"]]],
}


@contextmanager
def service(data_dir: Path) -> Iterator[TestClient]:
    # These tests play whole matches in moments, far faster than any tablet: no write rate limit.
    settings = Settings(data_dir=data_dir, token=TOKEN, demo=False, heartbeat_s=0.2, max_writes_per_second=0)
    with TestClient(create_app(settings)) as client:
        yield client


def post(client: TestClient, url: str, body: dict[str, Any], status: int = 200) -> Any:
    r = client.post(url, json=body, headers=AUTH)
    assert r.status_code == status, r.text
    return r.json()


def send(client: TestClient, table: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = post(client, f"/api/tables/{table}/inputs", body)["messages"]
    questions = [m["question"] for m in messages if m["type"] == "question"]
    assert not questions, questions
    return messages


def standing(client: TestClient, match: str) -> dict[str, Any]:
    r = client.get(f"/api/matches/{match}/standing")
    assert r.status_code == 200, r.text
    return dict(r.json())


# -- bar billiards ----------------------------------------------------------------------------------

#: Who wins each frame, in the drawn order: home leads 5-2 after seven frames (decided), 5-4 after nine.
LEAGUE_WINNERS = ["home", "away", "home", "home", "away", "home", "home", "away", "away"]


def _start_league(client: TestClient) -> None:
    post(client, "/api/tables", {"id": "bb", "table_kind": "bar-billiards", "game": "bar-billiards"}, 201)
    post(client, "/api/matches", {"id": "league", "game": "bar-billiards", "table_ids": ["bb"], "players": ["Oak", "Ash"],
                                  "format": "bar-billiards-league", "meta": {"draw": DRAW}}, 201)


def _play_frame(client: TestClient, winner: str) -> list[dict[str, Any]]:
    loser = "away" if winner == "home" else "home"
    send(client, "bb", {"input": "coin_toss", "winner": "home", "choice": "break"})
    return send(client, "bb", {"input": "concede", "player": loser})


def _expect(winners: list[str]) -> tuple[int, int, bool]:
    home, away = winners.count("home"), winners.count("away")
    left = 9 - len(winners)
    return home, away, max(home, away) > min(home, away) + left or left == 0


def test_rule_6_league_match_counts_frames_of_nine_and_is_decided_when_the_rest_cannot_change_it(tmp_path: Path) -> None:
    """Rule 6: nine frames; the standing after each frame; decided at 5-2 with two left, played on
    to the ninth (7(e): every frame on the card), then ended; a restart serves the same."""
    with service(tmp_path / "data") as client:
        _start_league(client)
        first = standing(client, "league")
        assert first["league"]["frame_in_play"] == 1 and first["league"]["scorecard"] is True
        assert first["sides"] == {"home": "Oak", "away": "Ash"} and not first["decided"]
        for n, winner in enumerate(LEAGUE_WINNERS[:7], start=1):
            messages = _play_frame(client, winner)
            home, away, is_decided = _expect(LEAGUE_WINNERS[:n])
            match_msgs = [m for m in messages if m["type"] == "match"]
            assert len(match_msgs) == 1 and match_msgs[0]["seq"] > messages[0]["seq"]
            now = standing(client, "league")
            assert (now["league"]["home_frames"], now["league"]["away_frames"], now["decided"]) == (home, away, is_decided)
            assert now["league"]["played"] == n and now["league"]["frame_in_play"] is None
            assert now["league"]["frames"][n - 1]["winner"] == winner
            assert match_msgs[0]["league"] == now["league"]
            if n < 9:
                send(client, "bb", {"input": "new_frame"})
                assert standing(client, "league")["league"]["frame_in_play"] == n + 1
        decided = standing(client, "league")
        assert decided["decided"] and not decided["complete"] and decided["winner"] == "home"
        row = client.get("/api/matches/league").json()
        assert row["status"] == "playing", "a decided league match still plays its nine frames (rule 6)"
        assert row["result"]["winner"] == "Oak" and row["result"]["decided"] is True

    with service(tmp_path / "data") as client:  # a restart between frames 7 and 8
        again = standing(client, "league")
        assert again == decided
        log_before = client.get("/api/tables/bb/log").json()
        for n, winner in enumerate(LEAGUE_WINNERS[7:], start=8):
            _play_frame(client, winner)
            if n < 9:
                send(client, "bb", {"input": "new_frame"})
        final = standing(client, "league")
        home, away, _ = _expect(LEAGUE_WINNERS)
        assert (final["league"]["home_frames"], final["league"]["away_frames"]) == (home, away)
        assert final["complete"] and final["status"] == "ended" and final["winner_name"] == "Oak"
        row = client.get("/api/matches/league").json()
        assert row["status"] == "ended" and row["ended"] and row["result"]["complete"] is True
        assert client.get("/api/tables/bb/state").json()["match"] is None, "the table leaves the ended match"
        new_rows = [r for r in client.get("/api/tables/bb/log").json() if r["seq"] > log_before[-1]["seq"]]
        # frame 8 won, frame 9 in play, frame 9 won (the match ends): nothing repeated after the restart
        assert [r["kind"] for r in new_rows].count("match") == 3

    with service(tmp_path / "data") as client:
        stored = standing(client, "league")
        assert stored["live"] is False and stored["status"] == "ended"
        assert stored["league"] == final["league"] and stored["winner"] == final["winner"]


def test_rule_2i_undoing_the_deciding_frame_takes_the_decision_back(tmp_path: Path) -> None:
    """An undo of the frame that decided the match (before it ended) clears the stored result."""
    with service(tmp_path / "data") as client:
        _start_league(client)
        for winner in ["home"] * 5:
            _play_frame(client, winner)
            if standing(client, "league")["decided"]:
                break
            send(client, "bb", {"input": "new_frame"})
        assert client.get("/api/matches/league").json()["result"]["winner"] == "Oak"
        send(client, "bb", {"input": "undo"})
        assert not standing(client, "league")["decided"]
        assert client.get("/api/matches/league").json()["result"] is None


def test_rule_6_without_the_drawn_order_the_frames_come_from_the_referees_frame_history(tmp_path: Path) -> None:
    """No ``league_match`` draw entered: the engine's finished frames are counted (home is the
    engine's first player); decided after five straight home frames (5 > 0 + 4 left)."""
    with service(tmp_path / "data") as client:
        post(client, "/api/tables", {"id": "bb", "table_kind": "bar-billiards", "game": "bar-billiards"}, 201)
        post(client, "/api/matches", {"id": "plain", "game": "bar-billiards", "table_ids": ["bb"],
                                      "format": "bar-billiards-league"}, 201)
        for n in range(1, 6):
            _play_frame(client, "home")
            now = standing(client, "plain")
            assert now["league"]["scorecard"] is False and now["league"]["home_frames"] == n
            assert now["decided"] == (n == 5) and now["sides"] == {"home": "home", "away": "away"}
            send(client, "bb", {"input": "new_frame"})


def test_the_match_message_reaches_the_tablet_live_and_on_reconnect(tmp_path: Path) -> None:
    """The standing goes out as an important ``match`` message: live, and replayed by sequence number."""
    with service(tmp_path / "data") as client:
        _start_league(client)
        with client.websocket_connect(f"/ws/tables/bb?token={TOKEN}") as ws:
            snap = ws.receive_json()
            assert snap["type"] == "snapshot" and snap["match"] == "league"
            ws.send_json({"input": "coin_toss", "winner": "home"})
            ws.send_json({"input": "concede", "player": "away"})
            got: list[dict[str, Any]] = []
            while not got or got[-1]["type"] != "match":
                got.append(ws.receive_json())
            live = got[-1]
            assert live["league"]["home_frames"] == 1 and live["seq"] > snap["seq"]
        with client.websocket_connect(f"/ws/tables/bb?since={live['seq'] - 1}") as ws:
            ws.receive_json()
            replayed = ws.receive_json()
            assert replayed["type"] == "match" and replayed["replayed"] and replayed["seq"] == live["seq"]


def test_a_league_match_needs_one_bar_billiards_table_and_a_valid_draw(tmp_path: Path) -> None:
    with service(tmp_path / "data") as client:
        post(client, "/api/tables", {"id": "bb", "table_kind": "bar-billiards", "game": "bar-billiards"}, 201)
        bad_draw = {"singles": DRAW["singles"][:5], "doubles": DRAW["doubles"]}
        r = client.post("/api/matches", headers=AUTH, json={"game": "bar-billiards", "table_ids": ["bb"],
                                                              "format": "bar-billiards-league", "meta": {"draw": bad_draw}})
        assert r.status_code == 422 and "6 singles frames" in r.json()["detail"]
        post(client, "/api/matches", {"id": "one", "game": "bar-billiards", "table_ids": ["bb"]}, 201)
        r = client.get("/api/matches/one/standing")
        assert r.status_code == 422 and "single game" in r.json()["detail"]
        assert client.get("/api/matches/nope/standing").status_code == 404


# -- All-Fours ---------------------------------------------------------------------------------------


def _af_tables(client: TestClient, numbered: bool = True) -> None:
    for n in (1, 2, 3):
        options = {"table": n} if numbered else {}
        post(client, "/api/tables", {"id": f"t{n}", "table_kind": "cards", "game": "all-fours", "options": options}, 201)


def _game(client: TestClient, table: int, winner: str) -> list[dict[str, Any]]:
    loser = "B" if winner == "A" else "A"
    send(client, f"t{table}", {"input": "new_game", "dealer": "south"})
    return send(client, f"t{table}", {"input": "concede", "team": loser})


#: (table, winner) per game: table 1 plays its eleven games (6-5) and closes (28); then table 2 and
#: table 3 until Oak (A) reaches 17 bullseyes.
TEAM_GAMES = ([(1, w) for w in "ABABABABABA"] + [(2, w) for w in "AAABAAABA"] + [(3, w) for w in "AAAA"])


def test_ic2024_28_team_match_ends_at_17_bullseyes_with_each_table_at_most_11_games(tmp_path: Path) -> None:
    """IC2024 28: first to 17 bullseyes over three tables, each table at most 11 games; the tally
    per table and in total after every game; every table's referee closes the match."""
    with service(tmp_path / "data") as client:
        _af_tables(client)
        post(client, "/api/matches", {"id": "m1", "game": "all-fours", "table_ids": ["t1", "t2", "t3"],
                                      "players": ["Oak", "Ash"], "format": "all-fours-team"}, 201)
        start = standing(client, "m1")
        assert start["team"]["needed"] == 17 and [t["games"] for t in start["team"]["tables"]] == [0, 0, 0]
        tally = {n: {"A": 0, "B": 0} for n in (1, 2, 3)}
        for i, (table, winner) in enumerate(TEAM_GAMES):
            messages = _game(client, table, winner)
            tally[table][winner] += 1
            now = standing(client, "m1")
            totals = {t: sum(tally[n][t] for n in tally) for t in "AB"}
            assert [t["bullseyes"] for t in now["team"]["tables"]] == [tally[1], tally[2], tally[3]]
            assert now["team"]["bullseyes"] == totals
            assert now["team"]["tables"][0]["closed"] == (sum(tally[1].values()) >= 11)
            assert now["decided"] == (max(totals.values()) >= 17)
            assert [m["type"] for m in messages].count("match") == 1
            if i == 10:
                r = client.post("/api/tables/t1/inputs", headers=AUTH, json={"input": "new_game", "dealer": "south"})
                question = [m for m in r.json()["messages"] if m["type"] == "question"]
                assert question and "closed after 11 games" in question[0]["question"]
        assert now["winner_name"] == "Oak" and now["complete"] and "17" in now["reason"]
        row = client.get("/api/matches/m1").json()
        assert row["status"] == "ended" and row["result"]["match_result"]["bullseyes_a"] == totals["A"]
        for n in (1, 2, 3):  # each table's referee heard the others (table_report) and closed the match
            state = client.get(f"/api/tables/t{n}/state").json()
            assert state["state"]["match_over"] and state["state"]["match_winner"] == "A"
            assert state["match"] is None
        r = client.post("/api/tables/t2/inputs", headers=AUTH, json={"input": "new_game", "dealer": "south"})
        assert any("match is over" in m.get("question", "") for m in r.json()["messages"])
        before = {n: client.get(f"/api/tables/t{n}/state").json() for n in (1, 2, 3)}

    with service(tmp_path / "data") as client:  # a restart: the same tables, the same stored result
        for n in (1, 2, 3):
            after = client.get(f"/api/tables/t{n}/state").json()
            assert after["state"] == before[n]["state"] and after["seq"] == before[n]["seq"]
        stored = standing(client, "m1")
        assert stored["live"] is False and stored["team"] == now["team"]


def test_ic2024_28_every_table_closed_short_of_17_goes_to_the_team_with_more_bullseyes(tmp_path: Path) -> None:
    """28 with 29d: two tables play their eleven games, the third is abandoned (closed); the team
    ahead when every table has closed wins, though nobody reached 17."""
    with service(tmp_path / "data") as client:
        _af_tables(client)
        post(client, "/api/matches", {"id": "m2", "game": "all-fours", "table_ids": ["t1", "t2", "t3"],
                                      "players": ["Oak", "Ash"], "format": "all-fours-team"}, 201)
        send(client, "t3", {"input": "concede", "team": "A", "bullseyes": 2, "close_table": True})
        for w in "ABABABABABA":
            _game(client, 1, w)
        halfway = standing(client, "m2")
        assert [t["closed"] for t in halfway["team"]["tables"]] == [True, False, True] and not halfway["decided"]
    with service(tmp_path / "data") as client:  # a restart mid-match: the three tables are still in it
        assert [client.get(f"/api/tables/t{n}/state").json()["match"] for n in (1, 2, 3)] == ["m2"] * 3
        assert standing(client, "m2") == halfway
        for w in "BABABABABAB":
            _game(client, 2, w)
        now = standing(client, "m2")
        assert now["team"]["bullseyes"] == {"A": 11, "B": 13} and all(t["closed"] for t in now["team"]["tables"])
        assert now["decided"] and now["winner_name"] == "Ash" and "every table closed" in now["reason"]


def test_a_team_match_needs_its_tables_numbered_1_to_3(tmp_path: Path) -> None:
    with service(tmp_path / "data") as client:
        _af_tables(client, numbered=False)
        r = client.post("/api/matches", headers=AUTH, json={"game": "all-fours", "table_ids": ["t1", "t2", "t3"],
                                                             "format": "all-fours-team"})
        assert r.status_code == 422 and "options {'table': 2}" in r.json()["detail"]
        r = client.post("/api/matches", headers=AUTH, json={"game": "all-fours", "table_ids": ["t1", "t1", "t2"],
                                                             "format": "all-fours-team"})
        assert r.status_code == 422 and "three different tables" in r.json()["detail"]


def test_a_deleted_table_leaves_its_match_without_a_standing_but_the_other_tables_play_on(tmp_path: Path) -> None:
    with service(tmp_path / "data") as client:
        _af_tables(client)
        post(client, "/api/matches", {"id": "m3", "game": "all-fours", "table_ids": ["t1", "t2", "t3"],
                                      "players": ["Oak", "Ash"], "format": "all-fours-team"}, 201)
        assert client.delete("/api/tables/t3", headers=AUTH).status_code == 204
        messages = _game(client, 1, "A")
        assert any(m["type"] == "update" and m["kind"] == "game_over" for m in messages)
        r = client.get("/api/matches/m3/standing")
        assert r.status_code == 422 and "'t3'" in r.json()["detail"]


def test_ic2024_2c_league_standings_rank_ended_team_matches_and_count_a_default_as_rule_10(tmp_path: Path) -> None:
    """2c ranking over ended matches; a default (10) credits the winner 17 for and 8 against."""
    with service(tmp_path / "data") as client:
        _af_tables(client)
        post(client, "/api/matches", {"id": "r1", "game": "all-fours", "table_ids": ["t1", "t2", "t3"],
                                      "players": ["Oak", "Ash"], "format": "all-fours-team"}, 201)
        games = [(1, "B"), (2, "B")] + [(1, "A")] * 6 + [(2, "A")] * 6 + [(3, "A")] * 5
        for table, w in games:
            _game(client, table, w)
        first = standing(client, "r1")
        assert first["decided"] and first["team"]["bullseyes"] == {"A": 17, "B": 2}
        post(client, "/api/matches", {"id": "r2", "game": "all-fours", "table_ids": ["t1", "t2", "t3"],
                                      "players": ["Ash", "Elm"], "format": "all-fours-team"}, 201)
        send(client, "t2", {"input": "default", "team": "B"})
        second = standing(client, "r2")
        assert second["decided"] and second["winner_name"] == "Ash" and second["team"]["defaulted"] == "B"
        for n in (1, 3):  # the default reached the other tables too
            assert client.get(f"/api/tables/t{n}/state").json()["state"]["defaulted"] == "B"
        table = client.get("/api/standings", params={"game": "all-fours"}).json()
        assert table["matches"] == 2
        rows = {r["team"]: r for r in table["rows"]}
        assert (rows["Ash"]["bullseyes_for"], rows["Ash"]["bullseyes_against"]) == (2 + 17, 17 + 8)
        assert rows["Elm"]["defaults"] == 1 and rows["Elm"]["losses"] == 1
        # Oak and Ash each won once: 2c puts the team with more bullseyes for first.
        assert [r["team"] for r in table["rows"]] == ["Ash", "Oak", "Elm"]
        assert client.get("/api/standings", params={"game": "bar-billiards"}).status_code == 422
    with service(tmp_path / "data") as client:
        assert client.get("/api/standings", params={"game": "all-fours"}).json() == table


# -- the tablet's match panel ------------------------------------------------------------------------


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")
def test_the_tablet_match_panel_shows_frames_of_nine_and_follows_the_match_message(tmp_path: Path) -> None:
    """Fetched on load (0-0 of 9), then updated by the ``match`` message when a frame is won."""
    playwright = pytest.importorskip("playwright.sync_api")
    settings = Settings(data_dir=tmp_path / "data", token=TOKEN, demo=False, heartbeat_s=0.3)
    with running_server(create_app(settings), free_port()) as host, playwright.sync_playwright() as pw:
        base = f"http://{host}"
        for body, url in (({"id": "bb", "table_kind": "bar-billiards", "game": "bar-billiards"}, "/api/tables"),
                          ({"id": "league", "game": "bar-billiards", "table_ids": ["bb"], "players": ["Oak", "Ash"],
                            "format": "bar-billiards-league", "meta": {"draw": DRAW}}, "/api/matches")):
            assert httpx.post(base + url, json=body, headers=AUTH, timeout=10).status_code == 201
        browser = launch_chromium(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"{base}/#token={TOKEN}")
            page.wait_for_selector("#match-panel:not([hidden])", timeout=15_000)
            assert "Oak v Ash" in page.inner_text("#match-title")
            assert "0–0" in page.inner_text("#match-score") and "of 9" in page.inner_text("#match-score")
            for body in ({"input": "coin_toss", "winner": "home"}, {"input": "concede", "player": "away"}):
                assert httpx.post(f"{base}/api/tables/bb/inputs", json=body, headers=AUTH, timeout=10).status_code == 200
            page.wait_for_function("document.querySelector('#match-score').innerText.startsWith('1–0')", timeout=10_000)
        finally:
            browser.close()
