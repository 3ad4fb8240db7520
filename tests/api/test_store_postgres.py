"""The store on a real, throwaway PostgreSQL server: restart identity, parity with SQLite, reconnects.

The server (``initdb`` + ``pg_ctl``, 127.0.0.1 on a free port, its socket in its own folder) is
started once per test run and stopped at the end; each test gets a fresh schema on it. The tests
skip, saying why, only when no PostgreSQL binaries can be found (``scripts/system-deps.sh``
installs them on Debian). The same behaviour tests run on both backends in test_store_backends.py.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tableref.api.hub import Hub
from tableref.api.session import TableSession
from tableref.api.store import Store, StoreError, open_store
from tableref.events import EventType, HumanInput, TableEvent


def find_postgres_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: PATH first, then where Debian and builds put them."""
    found = shutil.which("initdb")
    candidates = [Path(found).parent] if found else []
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                    key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0, reverse=True)
    candidates += [*debian, Path("/usr/local/bin"), Path("/usr/local/pgsql/bin")]
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PostgresServer:
    """One throwaway cluster. As root it runs as ``postgres`` (else ``nobody``): initdb refuses root."""

    bin_dir: Path
    root: Path
    port: int = 0
    made_root: bool = False
    user: pwd.struct_passwd | None = None
    _schemas: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def url(self) -> str:
        return f"postgresql://tableref@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        extra: dict[str, Any] = {}
        if self.user is not None:
            extra = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        return subprocess.run([str(self.bin_dir / args[0]), *args[1:]], cwd=self.root, capture_output=True,
                              text=True, timeout=60, env={**os.environ, "LC_ALL": "C"}, **extra)

    def start(self) -> None:
        done = self._run("initdb", "-D", str(self.data), "-U", "tableref", "--auth=trust", "--no-sync",
                         "-E", "UTF8", "--locale=C")
        if done.returncode != 0:
            pytest.fail(f"initdb failed: {done.stderr or done.stdout}")
        for _ in range(3):  # a free port can be taken between choosing and binding it
            self.port = _free_port()
            done = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w", "-t", "30",
                             "-o", f"-F -h 127.0.0.1 -p {self.port} -k {self.root} -c max_connections=30",
                             "start")
            if done.returncode == 0:
                return
        log = (self.root / "server.log").read_text(errors="replace")[-2000:]
        pytest.fail(f"pg_ctl start failed: {done.stderr or done.stdout}\n{log}")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        if self.made_root:
            shutil.rmtree(self.root, ignore_errors=True)

    def fresh_url(self) -> str:
        """A URL whose tables land in a new, empty schema (its own ``search_path``)."""
        import psycopg

        schema = f"test_{next(self._schemas)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")  # a generated name
        return f"{self.url}?options=-csearch_path%3D{schema}"


_shared: dict[str, PostgresServer] = {}
_shared_lock = threading.Lock()


def shared_postgres(config: pytest.Config) -> PostgresServer:
    """The run's one server, started on first use and stopped when pytest finishes."""
    with _shared_lock:
        if "server" in _shared:
            return _shared["server"]
        bin_dir = find_postgres_bin()
        if bin_dir is None:
            pytest.skip("no PostgreSQL binaries (initdb, pg_ctl) on PATH, in /usr/lib/postgresql/*/bin or "
                        "/usr/local/bin; scripts/system-deps.sh installs Debian's postgresql")
        user = None
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                user = pwd.getpwnam("nobody")
            root = Path(tempfile.mkdtemp(prefix="tableref-pg-"))  # pytest's tmp folders are root-only
            os.chown(root, user.pw_uid, user.pw_gid)
            server = PostgresServer(bin_dir, root, made_root=True, user=user)
        else:
            root = Path(tempfile.mkdtemp(prefix="tableref-pg-"))
            server = PostgresServer(bin_dir, root, made_root=True)
        try:
            server.start()
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
        config.add_cleanup(server.stop)
        _shared["server"] = server
        return server


@pytest.fixture
def pg(request: pytest.FixtureRequest) -> PostgresServer:
    return shared_postgres(request.config)


def _write_a_venue(store: Store) -> None:
    """Every kind of row the service writes, with awkward values (unicode, NULLs, ties, floats)."""
    store.put_table({"id": "b2", "name": "Bar billiards — 2", "table_kind": "bar-billiards", "game": "bar-billiards",
                     "source": "rtsp://cam/2", "loop": False, "pipeline": "truth",
                     "calibration": {"corners": [[0.5, 1.25], [1e-9, 3.0]]}, "options": {"k": [1, 2]},
                     "created": 1_795_000_000.123456789})
    store.put_table({"id": "a1", "table_kind": "pool", "created": 1_795_000_000.123456789})
    store.put_table({"id": "c3", "table_kind": "snooker", "game": "snooker", "created": 1.5})
    store.put_match({"id": "m2", "table_id": "b2", "game": "bar-billiards", "players": ["Ann", "Bo"],
                     "status": "ended", "started": 10.0, "ended": 99.5, "result": {"winner": "Ann"}})
    store.put_match({"id": "m1", "table_id": "b2", "game": "bar-billiards", "players": ["Cy"], "started": 10.0})
    store.put_match({"id": "m0", "table_id": "a1", "game": "pool", "players": [], "result": 0})
    store.append_many("b2", [(1, "event", {"type": "pot", "objects": ["red"], "t": 1.0}, 1.0),
                             (2, "update", {"text": "Rouge empoché ✓", "points": 1}, 1.0)], match_id="m1")
    store.append("b2", 3, "notice", {"reset": True, "state": None}, t=None, match_id="m1")
    store.append("b2", 4, "input", {"kind": "undo", "t": 2.0000000001}, t=2.0000000001)
    store.append("a1", 1, "event", {"nested": {"a": [1, {"b": None}]}}, t=0.0)


def _read_everything(store: Store) -> dict[str, Any]:
    return {
        "tables": store.tables(), "table": store.table("b2"), "missing": store.table("zz"),
        "matches": store.matches(), "matches_b2": store.matches("b2"), "match": store.match("m2"),
        "last": {t: store.last_seq(t) for t in ("b2", "a1", "none")},
        "log": store.log("b2"), "log_a1": store.log("a1"), "after": store.log("b2", after=2),
        "kinds": store.log("b2", kinds=("event", "notice")), "match_log": store.log("b2", match_id="m1"),
        "limit": store.log("b2", after=1, limit=2),
    }


def test_a_restarted_service_reads_back_exactly_what_it_wrote(pg: PostgresServer, tmp_path: Path) -> None:
    url = pg.fresh_url()
    store = open_store(url, tmp_path / "unused.sqlite3")
    assert store.dialect == "postgresql"
    _write_a_venue(store)
    before = _read_everything(store)
    store.close()
    again = open_store(url, tmp_path / "unused.sqlite3")
    assert _read_everything(again) == before
    assert before["table"]["created"] == 1_795_000_000.123456789  # full double precision, not REAL
    assert not (tmp_path / "unused.sqlite3").exists()
    again.close()


def test_postgres_and_sqlite_answer_identically(pg: PostgresServer, tmp_path: Path) -> None:
    answers = []
    for url in (pg.fresh_url(), f"sqlite:///{tmp_path / 'venue.sqlite3'}"):
        store = open_store(url, tmp_path / "default.sqlite3")
        _write_a_venue(store)
        answers.append(_read_everything(store))
        store.close()
    assert answers[0] == answers[1]
    assert [t["id"] for t in answers[0]["tables"]] == ["c3", "a1", "b2"]      # by created, ties by id
    assert [m["id"] for m in answers[0]["matches"]] == ["m0", "m1", "m2"]     # no start first, ties by id


def test_a_table_session_rebuilds_identically_from_postgres(pg: PostgresServer, tmp_path: Path) -> None:
    url = pg.fresh_url()

    def session() -> TableSession:
        return TableSession("t1", "bar-billiards", "counting", open_store(url, tmp_path / "x.sqlite3"), Hub(),
                            stills_dir=tmp_path / "stills")

    first = session()
    first.ingest(TableEvent(t=1.0, type=EventType.POT, objects=("red",)))
    first.ingest(TableEvent(t=2.0, type=EventType.PIN_FALL, objects=("pin-50-left",)))
    first.ingest(HumanInput(t=2.5, kind="overrule"))
    first.ingest(TableEvent(t=3.0, type=EventType.POT, objects=("white-1",)))
    first.ingest(HumanInput(t=3.5, kind="undo"))
    snap = first.snapshot()
    first.store.close()
    again = session()
    assert again.rebuild() > 0
    assert {k: again.snapshot()[k] for k in ("state", "scores", "seq")} == {k: snap[k] for k in ("state", "scores", "seq")}
    assert snap["scores"] == {"A": 1}
    again.store.close()


def test_a_dropped_connection_is_reopened_and_nothing_is_lost(pg: PostgresServer, tmp_path: Path) -> None:
    import psycopg

    url = pg.fresh_url()
    store = open_store(url, tmp_path / "x.sqlite3")
    store.append("t", 1, "event", {"n": 1})

    def kill_store_connections() -> None:
        with psycopg.connect(pg.url, autocommit=True) as admin:
            killed = admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                   " WHERE application_name = 'tableref'").fetchall()
        assert killed, "the store's connection should have been there to kill"

    kill_store_connections()
    assert store.last_seq("t") == 1          # a read reconnects
    kill_store_connections()
    store.append("t", 2, "event", {"n": 2})  # so does a write that failed before its commit
    assert [r.body["n"] for r in store.log("t")] == [1, 2]
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.log("t")
