"""Persistence: SQLite in WAL mode, written before anything is broadcast.

Why: a venue's box gets unplugged. Every table's configuration, every match, every event and input
the referee applied, and every update it sent are rows here, written (and committed) before the
websocket hears of them, so a restarted server rebuilds each referee by replaying its items and
serves the identical state. The ``log`` table is one sequence per table (``seq``), the same numbers
the websocket uses, so a client that reconnects with its last number is served from here.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    table_kind TEXT NOT NULL,
    game TEXT,
    source TEXT,
    loop INTEGER NOT NULL DEFAULT 1,
    pipeline TEXT NOT NULL DEFAULT 'vision',
    calibration TEXT,
    options TEXT NOT NULL DEFAULT '{}',
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    table_id TEXT,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    status TEXT NOT NULL,
    started REAL,
    ended REAL,
    result TEXT,
    meta TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS log (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    match_id TEXT,
    kind TEXT NOT NULL,      -- event | input | update | question | notice
    t REAL,
    body TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
"""


@dataclass(frozen=True)
class LogRow:
    table_id: str
    seq: int
    match_id: str | None
    kind: str
    t: float | None
    body: dict[str, Any]


class Store:
    """A small synchronous store; calls are short, so the event loop may call it directly."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    # -- tables ------------------------------------------------------------------------------
    def put_table(self, row: dict[str, Any]) -> None:
        with self._tx() as c:
            c.execute(
                "INSERT INTO tables (id, name, table_kind, game, source, loop, pipeline, calibration, options, created)"
                " VALUES (:id, :name, :table_kind, :game, :source, :loop, :pipeline, :calibration, :options, :created)"
                " ON CONFLICT(id) DO UPDATE SET name=excluded.name, table_kind=excluded.table_kind,"
                " game=excluded.game, source=excluded.source, loop=excluded.loop, pipeline=excluded.pipeline,"
                " calibration=excluded.calibration, options=excluded.options",
                {
                    "id": row["id"], "name": row.get("name") or row["id"], "table_kind": row["table_kind"],
                    "game": row.get("game"), "source": row.get("source"), "loop": int(bool(row.get("loop", True))),
                    "pipeline": row.get("pipeline") or "vision",
                    "calibration": json.dumps(row.get("calibration")) if row.get("calibration") else None,
                    "options": json.dumps(row.get("options") or {}), "created": row.get("created") or time.time(),
                },
            )

    def delete_table(self, table_id: str) -> None:
        with self._tx() as c:
            c.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    def tables(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._conn.execute("SELECT * FROM tables ORDER BY created").fetchall()
        return [self._table_row(r) for r in rows]

    def table(self, table_id: str) -> dict[str, Any] | None:
        with self._lock:
            r = self._conn.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        return self._table_row(r) if r else None

    @staticmethod
    def _table_row(r: sqlite3.Row) -> dict[str, Any]:
        d = dict(r)
        d["loop"] = bool(d["loop"])
        d["calibration"] = json.loads(d["calibration"]) if d["calibration"] else None
        d["options"] = json.loads(d["options"])
        return d

    # -- matches -----------------------------------------------------------------------------
    def put_match(self, row: dict[str, Any]) -> None:
        with self._tx() as c:
            c.execute(
                "INSERT INTO matches (id, table_id, game, players, status, started, ended, result, meta)"
                " VALUES (:id, :table_id, :game, :players, :status, :started, :ended, :result, :meta)"
                " ON CONFLICT(id) DO UPDATE SET table_id=excluded.table_id, players=excluded.players,"
                " status=excluded.status, started=excluded.started, ended=excluded.ended,"
                " result=excluded.result, meta=excluded.meta",
                {
                    "id": row["id"], "table_id": row.get("table_id"), "game": row["game"],
                    "players": json.dumps(row.get("players") or []), "status": row.get("status", "open"),
                    "started": row.get("started"), "ended": row.get("ended"),
                    "result": json.dumps(row["result"]) if row.get("result") is not None else None,
                    "meta": json.dumps(row.get("meta") or {}),
                },
            )

    def matches(self, table_id: str | None = None) -> list[dict[str, Any]]:
        with self._lock:
            if table_id is None:
                rows = self._conn.execute("SELECT * FROM matches ORDER BY started").fetchall()
            else:
                rows = self._conn.execute(
                    "SELECT * FROM matches WHERE table_id = ? ORDER BY started", (table_id,)
                ).fetchall()
        return [self._match_row(r) for r in rows]

    def match(self, match_id: str) -> dict[str, Any] | None:
        with self._lock:
            r = self._conn.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
        return self._match_row(r) if r else None

    @staticmethod
    def _match_row(r: sqlite3.Row) -> dict[str, Any]:
        d = dict(r)
        d["players"] = json.loads(d["players"])
        d["result"] = json.loads(d["result"]) if d["result"] else None
        d["meta"] = json.loads(d["meta"])
        return d

    # -- the log -----------------------------------------------------------------------------
    def append(self, table_id: str, seq: int, kind: str, body: dict[str, Any],
               t: float | None = None, match_id: str | None = None) -> None:
        with self._tx() as c:
            c.execute(
                "INSERT INTO log (table_id, seq, match_id, kind, t, body, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table_id, seq, match_id, kind, t, json.dumps(body, separators=(",", ":")), time.time()),
            )

    def append_many(self, table_id: str, rows: list[tuple[int, str, dict[str, Any], float | None]],
                    match_id: str | None = None) -> None:
        """Several rows in one transaction (an event and the updates it caused land together)."""
        now = time.time()
        with self._tx() as c:
            c.executemany(
                "INSERT INTO log (table_id, seq, match_id, kind, t, body, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(table_id, seq, match_id, kind, t, json.dumps(body, separators=(",", ":")), now)
                 for seq, kind, body, t in rows],
            )

    def last_seq(self, table_id: str) -> int:
        with self._lock:
            r = self._conn.execute("SELECT MAX(seq) FROM log WHERE table_id = ?", (table_id,)).fetchone()
        return int(r[0] or 0)

    def log(self, table_id: str, after: int = 0, kinds: tuple[str, ...] | None = None,
            match_id: str | None = None, limit: int = 100_000) -> list[LogRow]:
        sql = "SELECT * FROM log WHERE table_id = ? AND seq > ?"
        params: list[Any] = [table_id, after]
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            params.extend(kinds)
        if match_id is not None:
            sql += " AND match_id = ?"
            params.append(match_id)
        sql += " ORDER BY seq LIMIT ?"
        params.append(limit)
        with self._lock:
            rows = self._conn.execute(sql, params).fetchall()
        return [
            LogRow(r["table_id"], r["seq"], r["match_id"], r["kind"], r["t"], json.loads(r["body"])) for r in rows
        ]

    def delete_log(self, table_id: str) -> None:
        with self._tx() as c:
            c.execute("DELETE FROM log WHERE table_id = ?", (table_id,))
