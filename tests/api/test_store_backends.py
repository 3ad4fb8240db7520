"""Every public method of the store behaves the same on SQLite and on PostgreSQL; bad URLs are refused.

The behaviour tests take the ``reopen`` fixture, parametrised over both backends (PostgreSQL: a
fresh schema on the throwaway server from test_store_postgres.py, skipped only when no PostgreSQL
binaries exist). The factory tests at the end need no server.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tableref.api.store import Store, StoreConflict, StoreError, open_store
from tableref.errors import UserError

from .test_store_postgres import shared_postgres

Reopen = Callable[[], Store]


@pytest.fixture(params=["sqlite", "postgresql"])
def reopen(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Reopen]:
    """Opens a store on one backend's database; every call opens the same database again."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    else:
        url = shared_postgres(request.config).fresh_url()
    opened: list[Store] = []

    def make() -> Store:
        opened.append(open_store(url, tmp_path / "default.sqlite3"))
        assert opened[-1].dialect == request.param
        return opened[-1]

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(reopen: Reopen) -> Store:
    return reopen()


TABLE = {"id": "t1", "name": "Table one", "table_kind": "bar-billiards", "game": "bar-billiards",
         "source": "rtsp://cam/1", "loop": False, "pipeline": "truth", "options": {"speed": 1.5},
         "calibration": {"corners": [[0.0, 0.0], [1218.5, 0.25]]}, "created": 1_795_000_123.987654321}


def test_a_table_round_trips_and_an_upsert_keeps_its_creation_time(store: Store) -> None:
    store.put_table(TABLE)
    assert store.table("t1") == TABLE
    store.put_table({**TABLE, "name": "Renamed", "loop": True, "calibration": None, "created": 5.0})
    assert store.table("t1") == {**TABLE, "name": "Renamed", "loop": True, "calibration": None}
    assert store.table("nope") is None


def test_a_minimal_table_gets_the_defaults(store: Store) -> None:
    store.put_table({"id": "bare", "table_kind": "pool"})
    row = store.table("bare")
    assert row is not None and row["created"] > 0
    assert {k: v for k, v in row.items() if k != "created"} == {
        "id": "bare", "name": "bare", "table_kind": "pool", "game": None, "source": None, "loop": True,
        "pipeline": "vision", "calibration": None, "options": {}}


def test_tables_come_in_creation_order_and_delete_removes_one(store: Store) -> None:
    for tid, created in (("z", 3.0), ("b", 1.0), ("a", 3.0), ("c", 2.0)):
        store.put_table({"id": tid, "table_kind": "pool", "created": created})
    assert [t["id"] for t in store.tables()] == ["b", "c", "a", "z"]
    store.delete_table("c")
    store.delete_table("never-there")
    assert [t["id"] for t in store.tables()] == ["b", "a", "z"]


def test_matches_round_trip_filter_and_sort_unstarted_first(store: Store) -> None:
    full = {"id": "m1", "table_id": "t1", "game": "pool", "players": ["Ann", "Bo"], "status": "ended",
            "started": 100.25, "ended": 160.5, "result": {"winner": "Ann", "frames": [3, 1]}, "meta": {"k": "v"}}
    store.put_match(full)
    store.put_match({"id": "m0", "table_id": "t2", "game": "pool", "started": 100.25, "result": 0})
    store.put_match({"id": "m2", "table_id": "t1", "game": "pool"})
    assert store.match("m1") == full
    assert store.match("m2") == {"id": "m2", "table_id": "t1", "game": "pool", "players": [], "status": "open",
                                 "started": None, "ended": None, "result": None, "meta": {}}
    m0 = store.match("m0")
    assert m0 is not None and m0["result"] == 0
    assert [m["id"] for m in store.matches()] == ["m2", "m0", "m1"]
    assert [m["id"] for m in store.matches("t1")] == ["m2", "m1"]
    assert store.matches("nobody") == [] and store.match("nope") is None
    store.put_match({**full, "game": "snooker", "status": "open", "result": None})
    assert store.match("m1") == {**full, "status": "open", "result": None}  # the game is fixed once stored


def test_the_log_filters_by_after_kind_match_and_limit(store: Store) -> None:
    store.append_many("t1", [(3, "update", {"n": 3}, 1.5), (1, "event", {"n": 1}, 1.5)], match_id="m1")
    store.append("t1", 2, "input", {"n": 2}, t=None, match_id="m1")
    store.append("t1", 4, "notice", {"n": 4}, t=7)
    store.append("t2", 1, "event", {"n": 99}, t=0.0)

    def seqs(**kw: object) -> list[int]:
        return [r.seq for r in store.log("t1", **kw)]

    assert seqs() == [1, 2, 3, 4]
    assert seqs(after=2) == [3, 4] and seqs(after=4) == [] and seqs(after=1 << 70) == []
    assert seqs(kinds=("event", "notice")) == [1, 4] and seqs(kinds=()) == [1, 2, 3, 4]
    assert seqs(match_id="m1") == [1, 2, 3] and seqs(match_id="other") == []
    assert seqs(limit=2) == [1, 2] and seqs(after=1, limit=1) == [2] and seqs(limit=-1) == [1, 2, 3, 4]
    assert seqs(after=1, kinds=("update", "input", "notice"), match_id="m1", limit=5) == [2, 3]
    rows = store.log("t1")
    assert [(r.table_id, r.match_id, r.kind, r.t) for r in rows] == [
        ("t1", "m1", "event", 1.5), ("t1", "m1", "input", None), ("t1", "m1", "update", 1.5),
        ("t1", None, "notice", 7.0)]
    assert [r.body for r in store.log("t2")] == [{"n": 99}]


def test_bodies_come_back_exactly(store: Store) -> None:
    body = {"text": "Rouge empoché ✓ \u0000 \"quoted\"", "f": 0.1 + 0.2, "big": 2**62, "tiny": 5e-324,
            "nested": [{"a": None, "b": [True, False]}], "empty": {}}
    store.append("t1", 1, "update", body, t=1e-9)
    [row] = store.log("t1")
    assert row.body == body and row.t == 1e-9


def test_last_seq_is_per_table_and_zero_when_empty(store: Store) -> None:
    assert store.last_seq("t1") == 0
    store.append_many("t1", [(1, "event", {}, None), (2, "update", {}, None)])
    store.append("t2", 7, "event", {})
    assert (store.last_seq("t1"), store.last_seq("t2"), store.last_seq("t3")) == (2, 7, 0)


def test_a_duplicate_seq_is_refused_with_its_whole_batch_and_nothing_stored_is_lost(store: Store) -> None:
    store.append("t1", 1, "event", {"first": True})
    with pytest.raises(StoreConflict):
        store.append_many("t1", [(2, "event", {}, None), (1, "update", {"second": True}, None)])
    with pytest.raises(StoreConflict):
        store.append("t1", 1, "event", {"again": True})
    assert [(r.seq, r.body) for r in store.log("t1")] == [(1, {"first": True})]
    store.append("t1", 2, "event", {})  # the store is still usable after a refused write
    assert store.last_seq("t1") == 2


def test_delete_log_clears_one_table_only(store: Store) -> None:
    store.append("t1", 1, "event", {})
    store.append("t2", 1, "event", {})
    store.delete_log("t1")
    assert store.log("t1") == [] and store.last_seq("t1") == 0 and len(store.log("t2")) == 1


def test_every_write_is_committed_when_it_returns(reopen: Reopen) -> None:
    writer, reader = reopen(), reopen()
    writer.put_table(TABLE)
    writer.put_match({"id": "m1", "table_id": "t1", "game": "pool", "players": ["A"]})
    writer.append("t1", 1, "event", {"n": 1}, match_id="m1")
    writer.append_many("t1", [(2, "update", {"n": 2}, None)], match_id="m1")
    assert reader.table("t1") == TABLE and reader.match("m1") is not None
    assert [r.seq for r in reader.log("t1", match_id="m1")] == [1, 2]


def test_threads_can_share_one_store(store: Store) -> None:
    errors: list[BaseException] = []

    def writer(first: int) -> None:
        try:
            for seq in range(first, first + 20):
                store.append_many("t1", [(seq * 2 - 1, "event", {"seq": seq}, None),
                                         (seq * 2, "update", {"seq": seq}, None)])
                store.log("t1", after=seq)
                store.last_seq("t1")
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(1 + 20 * i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert [r.seq for r in store.log("t1")] == list(range(1, 161))


def test_a_closed_store_refuses_calls_and_may_be_closed_twice(reopen: Reopen) -> None:
    store = reopen()
    store.append("t1", 1, "event", {})
    store.close()
    store.close()
    for call in (lambda: store.log("t1"), lambda: store.append("t1", 2, "event", {}), store.tables):
        with pytest.raises(StoreError, match="closed"):
            call()
    assert reopen().last_seq("t1") == 1


# -- choosing a backend from DATABASE_URL (no server needed) ------------------------------------
@pytest.mark.parametrize("url", [None, "", "   "])
def test_no_url_means_the_default_sqlite_file(url: str | None, tmp_path: Path) -> None:
    store = open_store(url, tmp_path / "data" / "tableref.sqlite3")
    assert store.dialect == "sqlite" and (tmp_path / "data" / "tableref.sqlite3").is_file()
    store.close()


def test_sqlite_urls_take_relative_and_absolute_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for url, where in (("sqlite:///rel/db.sqlite3", tmp_path / "rel" / "db.sqlite3"),
                       (f"sqlite:///{tmp_path / 'abs.sqlite3'}", tmp_path / "abs.sqlite3")):
        store = open_store(url, tmp_path / "default.sqlite3")
        store.append("t", 1, "event", {})
        store.close()
        assert where.is_file()
    assert not (tmp_path / "default.sqlite3").exists()


@pytest.mark.parametrize("url", ["mysql://me:s3cret@db/x", "sqlite://host/db", "sqlite:///", "sqlite:db",
                                 "tableref.sqlite3", "http://me:s3cret@db/x"])
def test_other_urls_are_refused_naming_what_is_accepted(url: str, tmp_path: Path) -> None:
    with pytest.raises(UserError) as caught:
        open_store(url, tmp_path / "default.sqlite3")
    message = str(caught.value)
    assert "sqlite:///PATH" in message and "postgresql://" in message and "s3cret" not in message
    assert not any(tmp_path.iterdir())


def test_an_unusable_sqlite_path_is_a_user_error(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    with pytest.raises(UserError, match="cannot open the SQLite file"):
        open_store(f"sqlite:///{tmp_path / 'a-file' / 'db.sqlite3'}", tmp_path / "default.sqlite3")


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_an_unreachable_postgres_is_a_user_error_without_the_password(scheme: str, tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nothing listens on: bound, never listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        with pytest.raises(UserError) as caught:
            open_store(f"{scheme}://referee:s3cret@127.0.0.1:{port}/venue", tmp_path / "default.sqlite3")
    message = str(caught.value)
    assert f"cannot reach PostgreSQL at 127.0.0.1:{port}" in message and "venue" in message
    assert "s3cret" not in message


def test_the_default_sqlite_file_is_in_wal_mode(tmp_path: Path) -> None:
    """WAL: tablets reading the log never block the table writing it, and a commit survives a kill."""
    import sqlite3

    from tableref.api.store import open_store

    open_store(None, tmp_path / "data" / "tableref.sqlite3").close()
    with sqlite3.connect(tmp_path / "data" / "tableref.sqlite3") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
