"""The PostgreSQL backend of ``Store`` (``DATABASE_URL=postgresql://...``), via psycopg 3.

Why these choices:

* Autocommit, with an explicit transaction per write: a write is committed when ``write`` returns
  (written before broadcast), and no read ever leaves a transaction open on the server.
* One connection, used one call at a time under ``Store``'s lock, like the SQLite backend, so both
  behave the same when the event loop and worker threads share the store.
* A server that restarts, or a connection a proxy dropped, must not take the referee down: a broken
  connection is reopened on the next call, and a call that failed *before* its commit was sent is
  retried once on the new connection. A connection lost *during* the commit is reported as
  ``StoreUnavailable`` (the row may or may not be stored), never silently retried into a duplicate.
* Timeouts on connect and on unacknowledged TCP data, so a vanished server makes a call fail in
  seconds instead of freezing the event loop for the kernel's retransmission time. A URL's own
  settings for these win.
* Messages name the host, port, database and user, never the password.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tableref.api.store import ACCEPTED_URLS, StoreUnavailable
from tableref.errors import UserError

try:
    import psycopg
    from psycopg.conninfo import conninfo_to_dict
    from psycopg.rows import dict_row
except ImportError as exc:  # the `serve` extra brings it; a bare install may lack it
    raise UserError("DATABASE_URL names PostgreSQL, which needs psycopg: pip install 'psycopg[binary]' "
                    "(or the package's `serve` extra)") from exc

_DEFAULTS: dict[str, Any] = {
    "connect_timeout": 5, "application_name": "tableref",
    "keepalives": 1, "keepalives_idle": 30, "keepalives_interval": 10, "keepalives_count": 3,
}
_SCHEMA_LOCK = 0x7AB1E7EF  # an advisory lock id, so two services starting together create tables once
_USERINFO = re.compile(r"(://[^:/@\s]*):[^@\s]*@")


def _sql(sql: str) -> str:
    """The store's ``?`` placeholders in psycopg's style."""
    return sql.replace("%", "%%").replace("?", "%s")


class PostgresBackend:
    dialect = "postgresql"
    conflict_errors: tuple[type[BaseException], ...] = (psycopg.errors.UniqueViolation,)

    def __init__(self, url: str) -> None:
        try:
            info = conninfo_to_dict(url)
        except psycopg.Error as exc:
            raise UserError(f"DATABASE_URL is not a usable PostgreSQL URL ({self._scrub(str(exc), None)}); "
                            f"accepted: {ACCEPTED_URLS}") from exc
        self._url = url
        password, user, dbname = (info.get(k) for k in ("password", "user", "dbname"))
        self._password = str(password) if password else None
        self._options = {k: v for k, v in _DEFAULTS.items() if k not in info}
        if psycopg.pq.version() >= 120000 and "tcp_user_timeout" not in info:
            self._options["tcp_user_timeout"] = 30_000  # ms
        host, port = info.get("host") or "the local socket", info.get("port") or "5432"
        self.where = f"{host}:{port}" if not str(host).startswith("/") else f"{host} (port {port})"
        self.location = f"postgresql://{f'{user}@' if user else ''}{self.where}/{dbname or ''}"
        try:
            self._conn = self._connect()
        except psycopg.Error as exc:
            raise UserError(f"DATABASE_URL: cannot reach PostgreSQL at {self.where} "
                            f"(database {dbname or '(default)'}, user {user or '(default)'}): "
                            f"{self._message(exc)}; check that the server is running and the URL's host, "
                            "port, user and password") from exc

    def _connect(self) -> psycopg.Connection[dict[str, Any]]:
        return psycopg.connect(self._url, autocommit=True, row_factory=dict_row, **self._options)

    def _message(self, exc: BaseException) -> str:
        return self._scrub(" ".join(str(exc).split()), self._password)

    @staticmethod
    def _scrub(text: str, password: str | None) -> str:
        text = _USERINFO.sub(r"\1:***@", text)
        return text.replace(password, "***") if password else text

    def _live(self) -> psycopg.Connection[dict[str, Any]]:
        """The connection, reopened first if it broke since the last call."""
        if self._conn.closed:
            try:
                self._conn = self._connect()
            except psycopg.Error as exc:
                raise StoreUnavailable(f"cannot reach PostgreSQL at {self.where}: {self._message(exc)}") from exc
        return self._conn

    def create_schema(self, statements: list[str]) -> None:
        try:
            with self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                for statement in statements:
                    self._conn.execute(statement)  # our own constant SQL
        except psycopg.Error as exc:
            self._conn.close()
            raise UserError(f"DATABASE_URL: PostgreSQL at {self.where} refused to create the tables: "
                            f"{self._message(exc)}") from exc

    def read(self, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        query = _sql(sql)
        for attempt in (1, 2):
            conn = self._live()
            try:
                return conn.execute(query, tuple(params)).fetchall()
            except psycopg.OperationalError as exc:
                if not conn.broken:
                    raise
                if attempt == 2:
                    raise StoreUnavailable(f"lost PostgreSQL at {self.where}: {self._message(exc)}") from exc
        raise AssertionError("unreachable")

    def write(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        query = _sql(sql)
        for attempt in (1, 2):
            conn = self._live()
            committing = False
            try:
                with conn.transaction():
                    with conn.cursor() as cur:
                        cur.executemany(query, [tuple(r) for r in rows])
                    committing = True
                return
            except psycopg.OperationalError as exc:
                if not conn.broken:
                    raise
                if committing:
                    raise StoreUnavailable(f"lost PostgreSQL at {self.where} while committing; the write may "
                                           f"or may not be stored: {self._message(exc)}") from exc
                if attempt == 2:
                    raise StoreUnavailable(f"lost PostgreSQL at {self.where}; nothing was written: "
                                           f"{self._message(exc)}") from exc

    def close(self) -> None:
        self._conn.close()
