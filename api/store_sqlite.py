"""The SQLite backend of ``Store``: one file in WAL mode, the default for a single box.

Why WAL with ``synchronous=NORMAL``: readers never block the writer, and a committed row survives
the process being killed (an unplugged box may lose the last few commits' fsync, never the file).
One connection serves every thread; ``Store``'s lock keeps calls one at a time.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tableref.api.store import StoreUnavailable


class SqliteBackend:
    dialect = "sqlite"
    conflict_errors: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)

    def __init__(self, path: str) -> None:
        self.location = path
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")

    def create_schema(self, statements: list[str]) -> None:
        self._conn.executescript(";\n".join(statements) + ";")

    def read(self, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        return [dict(r) for r in self._conn.execute(sql, tuple(params)).fetchall()]

    def write(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.executemany(sql, [tuple(r) for r in rows])
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
        except sqlite3.IntegrityError:
            raise  # a duplicate key: Store reports it as StoreConflict
        except sqlite3.Error as exc:  # locked, disk full, read-only: the transaction left nothing
            raise StoreUnavailable(f"cannot write to SQLite at {self.location}: {exc}; nothing was written") from exc

    def close(self) -> None:
        self._conn.close()
