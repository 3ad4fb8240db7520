"""Persistence: one ``Store`` API over SQLite (the default) or PostgreSQL, written before broadcast.

Why: a venue's box gets unplugged. Every table's configuration, every match, every event and input
the referee applied, and every update it sent are rows here, written (and committed) before the
websocket hears of them, so a restarted server rebuilds each referee by replaying its items and
serves the identical state. The ``log`` table is one sequence per table (``seq``), the same numbers
the websocket uses, so a client that reconnects with its last number is served from here.

Why two backends behind one class: a single box is happiest with a SQLite file (WAL), while a venue
running several boxes, or one that already backs up a PostgreSQL server, points ``DATABASE_URL`` at
that. All SQL and all row conversion live here, once, so both backends answer every call the same
way; a backend (``store_sqlite``, ``store_postgres``) only connects, runs statements, and reports
which of its errors mean "that row already exists". ``open_store`` picks the backend from the URL.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from tableref.errors import UserError

# The schema, once: the backends differ only in these column types. PostgreSQL's REAL is single
# precision (it would round timestamps) and its INTEGER is 32-bit, so it gets DOUBLE PRECISION and
# BIGINT; ids get the byte-order "C" collation so that ties sort the same as SQLite's BINARY.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id {key} PRIMARY KEY,
    name TEXT NOT NULL,
    table_kind TEXT NOT NULL,
    game TEXT,
    source TEXT,
    loop INTEGER NOT NULL DEFAULT 1,
    pipeline TEXT NOT NULL DEFAULT 'vision',
    calibration TEXT,
    options TEXT NOT NULL DEFAULT '{{}}',
    created {real} NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id {key} PRIMARY KEY,
    table_id TEXT,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    status TEXT NOT NULL,
    started {real},
    ended {real},
    result TEXT,
    meta TEXT NOT NULL DEFAULT '{{}}'
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL,
    seq {int} NOT NULL,
    match_id TEXT,
    kind TEXT NOT NULL,      -- event | input | update | question | notice
    t {real},
    body TEXT NOT NULL,
    created {real} NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""
_COLUMN_TYPES = {
    "sqlite": {"key": "TEXT", "real": "REAL", "int": "INTEGER"},
    "postgresql": {"key": 'TEXT COLLATE "C"', "real": "DOUBLE PRECISION", "int": "BIGINT"},
}
_I64_MAX = (1 << 63) - 1
_I64_MIN = -(1 << 63)

ACCEPTED_URLS = "sqlite:///PATH, postgresql://USER:PASSWORD@HOST:PORT/DB or postgres://..."


def schema_statements(dialect: str) -> list[str]:
    """The CREATE TABLE statements for one dialect ("sqlite" or "postgresql")."""
    script = _SCHEMA.format(**_COLUMN_TYPES[dialect])
    return [s.strip() + "\n" for s in script.split(";") if s.strip()]


class StoreError(Exception):
    """The store could not do what was asked (closed, or its database went away)."""


class StoreConflict(StoreError):
    """A row with that key is already stored; nothing of the failed write was kept."""


class StoreUnavailable(StoreError):
    """The database could not be reached; says whether the write may have landed."""


class Backend(Protocol):
    """What a database has to offer the store. Calls arrive one at a time (the store holds a lock).

    SQL uses ``?`` placeholders; a backend that wants another style translates them.
    """

    dialect: str                                    # "sqlite" | "postgresql"
    location: str                                   # for messages: never includes a password
    conflict_errors: tuple[type[BaseException], ...]  # what a duplicate key raises

    def create_schema(self, statements: list[str]) -> None: ...

    def read(self, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]: ...

    def write(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run ``sql`` once per row, all in one transaction, committed before returning."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class LogRow:
    table_id: str
    seq: int
    match_id: str | None
    kind: str
    t: float | None
    body: dict[str, Any]


_TABLE_UPSERT = (
    "INSERT INTO tables (id, name, table_kind, game, source, loop, pipeline, calibration, options, created)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (id) DO UPDATE SET name=excluded.name, table_kind=excluded.table_kind,"
    " game=excluded.game, source=excluded.source, loop=excluded.loop, pipeline=excluded.pipeline,"
    " calibration=excluded.calibration, options=excluded.options"
)
_MATCH_UPSERT = (
    "INSERT INTO matches (id, table_id, game, players, status, started, ended, result, meta)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (id) DO UPDATE SET table_id=excluded.table_id, players=excluded.players,"
    " status=excluded.status, started=excluded.started, ended=excluded.ended,"
    " result=excluded.result, meta=excluded.meta"
)
_LOG_INSERT = "INSERT INTO log (table_id, seq, match_id, kind, t, body, created) VALUES (?, ?, ?, ?, ?, ?, ?)"
# SQLite sorts NULL first and PostgreSQL last; say it explicitly so both agree. Ties break by id.
_MATCH_ORDER = " ORDER BY CASE WHEN started IS NULL THEN 0 ELSE 1 END, started, id"


class Store:
    """A small synchronous store; calls are short, so the event loop may call it directly.

    ``Store(path)`` opens (or creates) a SQLite file, as before; ``Store(backend)`` uses any
    ``Backend``; ``open_store(url, default_path)`` chooses from ``DATABASE_URL``. One lock
    serialises every call, so the event loop and worker threads may share one store.
    """

    def __init__(self, target: str | Path | Backend) -> None:
        if isinstance(target, str | Path):
            from tableref.api.store_sqlite import SqliteBackend

            backend: Backend = SqliteBackend(str(target))
        else:
            backend = target
        self._db = backend
        self._lock = threading.RLock()
        self._closed = False
        with self._lock:
            self._db.create_schema(schema_statements(self._db.dialect))

    @property
    def dialect(self) -> str:
        return self._db.dialect

    @property
    def location(self) -> str:
        """Where the rows live (a file path or a URL without its password), for logs and errors."""
        return self._db.location

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self._lock:
            self._check_open()
            return self._db.read(sql, params)

    def _write(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._lock:
            self._check_open()
            try:
                self._db.write(sql, rows)
            except self._db.conflict_errors as exc:
                raise StoreConflict(f"already stored in {self.location}: {exc}") from exc

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError(f"the store at {self.location} is closed")

    # -- tables ------------------------------------------------------------------------------
    def put_table(self, row: dict[str, Any]) -> None:
        self._write(_TABLE_UPSERT, [(
            row["id"], row.get("name") or row["id"], row["table_kind"], row.get("game"), row.get("source"),
            int(bool(row.get("loop", True))), row.get("pipeline") or "vision",
            json.dumps(row.get("calibration")) if row.get("calibration") else None,
            json.dumps(row.get("options") or {}), row.get("created") or time.time(),
        )])

    def delete_table(self, table_id: str) -> None:
        self._write("DELETE FROM tables WHERE id = ?", [(table_id,)])

    def tables(self) -> list[dict[str, Any]]:
        return [self._table_row(r) for r in self._read("SELECT * FROM tables ORDER BY created, id")]

    def table(self, table_id: str) -> dict[str, Any] | None:
        rows = self._read("SELECT * FROM tables WHERE id = ?", (table_id,))
        return self._table_row(rows[0]) if rows else None

    @staticmethod
    def _table_row(r: dict[str, Any]) -> dict[str, Any]:
        d = dict(r)
        d["loop"] = bool(d["loop"])
        d["calibration"] = json.loads(d["calibration"]) if d["calibration"] else None
        d["options"] = json.loads(d["options"])
        return d

    # -- matches -----------------------------------------------------------------------------
    def put_match(self, row: dict[str, Any]) -> None:
        self._write(_MATCH_UPSERT, [(
            row["id"], row.get("table_id"), row["game"], json.dumps(row.get("players") or []),
            row.get("status", "open"), row.get("started"), row.get("ended"),
            json.dumps(row["result"]) if row.get("result") is not None else None,
            json.dumps(row.get("meta") or {}),
        )])

    def matches(self, table_id: str | None = None) -> list[dict[str, Any]]:
        if table_id is None:
            rows = self._read("SELECT * FROM matches" + _MATCH_ORDER)
        else:
            rows = self._read("SELECT * FROM matches WHERE table_id = ?" + _MATCH_ORDER, (table_id,))
        return [self._match_row(r) for r in rows]

    def match(self, match_id: str) -> dict[str, Any] | None:
        rows = self._read("SELECT * FROM matches WHERE id = ?", (match_id,))
        return self._match_row(rows[0]) if rows else None

    @staticmethod
    def _match_row(r: dict[str, Any]) -> dict[str, Any]:
        d = dict(r)
        d["players"] = json.loads(d["players"])
        d["result"] = json.loads(d["result"]) if d["result"] else None
        d["meta"] = json.loads(d["meta"])
        return d

    # -- the log -----------------------------------------------------------------------------
    def append(self, table_id: str, seq: int, kind: str, body: dict[str, Any],
               t: float | None = None, match_id: str | None = None) -> None:
        self.append_many(table_id, [(seq, kind, body, t)], match_id=match_id)

    def append_many(self, table_id: str, rows: list[tuple[int, str, dict[str, Any], float | None]],
                    match_id: str | None = None) -> None:
        """Several rows in one transaction (an event and the updates it caused land together)."""
        now = time.time()
        self._write(_LOG_INSERT, [
            (table_id, seq, match_id, kind, t, json.dumps(body, separators=(",", ":")), now)
            for seq, kind, body, t in rows
        ])

    def last_seq(self, table_id: str) -> int:
        rows = self._read("SELECT MAX(seq) AS last FROM log WHERE table_id = ?", (table_id,))
        return int(rows[0]["last"] or 0)

    def log(self, table_id: str, after: int = 0, kinds: tuple[str, ...] | None = None,
            match_id: str | None = None, limit: int = 100_000) -> list[LogRow]:
        """Rows with ``seq > after`` in order; a negative ``limit`` means no limit."""
        sql = "SELECT table_id, seq, match_id, kind, t, body FROM log WHERE table_id = ? AND seq > ?"
        params: list[Any] = [table_id, max(_I64_MIN, min(_I64_MAX, after))]
        if kinds:
            sql += f" AND kind IN ({', '.join('?' * len(kinds))})"
            params.extend(kinds)
        if match_id is not None:
            sql += " AND match_id = ?"
            params.append(match_id)
        sql += " ORDER BY seq LIMIT ?"
        params.append(_I64_MAX if limit < 0 else min(_I64_MAX, limit))
        return [LogRow(r["table_id"], r["seq"], r["match_id"], r["kind"], r["t"], json.loads(r["body"]))
                for r in self._read(sql, params)]

    def delete_log(self, table_id: str) -> None:
        self._write("DELETE FROM log WHERE table_id = ?", [(table_id,)])


def open_store(database_url: str | None, default_sqlite_path: Path) -> Store:
    """The store ``DATABASE_URL`` names, or the SQLite file at ``default_sqlite_path`` when unset.

    Accepted: ``sqlite:///PATH`` (``sqlite:////abs/path`` for an absolute path, as SQLAlchemy
    writes it), ``postgresql://...`` and ``postgres://...`` (libpq URLs, query options included).
    Anything else, or a PostgreSQL that cannot be reached, is a ``UserError`` saying so.
    """
    url = (database_url or "").strip()
    if not url:
        return Store(default_sqlite_path)
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if scheme == "sqlite":
        if not url.startswith("sqlite:///") or not url.removeprefix("sqlite:///"):
            raise UserError(f"DATABASE_URL {url!r}: a SQLite URL is sqlite:///PATH (a file path after "
                            f"three slashes); accepted: {ACCEPTED_URLS}")
        path = url.removeprefix("sqlite:///")
        try:
            return Store(path)
        except Exception as exc:  # sqlite3.Error, OSError: an unusable path is the user's to fix
            raise UserError(f"DATABASE_URL {url!r}: cannot open the SQLite file {path!r}: {exc}") from exc
    if scheme in ("postgresql", "postgres"):
        from tableref.api.store_postgres import PostgresBackend

        return Store(PostgresBackend(url))
    shown = url.split("://", 1)[0] + "://..." if "://" in url else "a URL without a scheme"
    raise UserError(f"DATABASE_URL: {shown} is not supported; accepted: {ACCEPTED_URLS}")
