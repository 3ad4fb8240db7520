"""``/ws/tables/{id}``: a snapshot on connect, what the client missed, then every update live.

Protocol (server to client, JSON text frames, each with ``seq`` and ``type``):

* ``snapshot``: the table's full state (scores, referee state, positions, source status); its
  ``seq`` is the last sequence number it includes.
* then, when the client connected with ``?since=N``, every stored message with ``seq > N`` up to
  the snapshot, in order (``replayed: true``), so a reconnect loses nothing; a first connection
  may ask for the last ``?recent=N`` instead (a tablet opened mid-match shows the recent calls);
* then live messages: ``event``, ``update`` (fouls carry ``code``, ``clause``, ``text`` and a
  ``still`` link), ``question``, ``notice``, ``input``, ``status``, ``match`` (the standing of a
  league or team match the table belongs to, when it changes: ``api/matches.py``), and droppable
  ``positions``;
* ``heartbeat`` every few seconds when nothing else was sent;
* ``resync`` when this client fell so far behind that its queue overflowed with important
  messages: the server re-sends from the store what it missed, so nothing is lost.

Client to server: a human input as JSON (``{"input": "overrule", ...}``), accepted only with the
referee token (``?token=``); each gets an ``ack`` or an ``error``. Messages over the size limit or
faster than the rate limit get an ``error`` and are dropped; the connection stays up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from tableref.api.hub import Hub, Subscriber, wire
from tableref.api.session import TableSession, item_from_request
from tableref.api.settings import Settings
from tableref.api.store import Store, StoreError
from tableref.events import LogFormatError


def _stored_since(store: Store, table_id: str, after: int, upto: int) -> list[dict[str, Any]]:
    rows = store.log(table_id, after=after)
    return [{**wire(table_id, r.seq, r.kind, r.body), "replayed": True} for r in rows if r.seq <= upto]


class RateLimit:
    """A token bucket: ``rate`` messages a second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float | None = None) -> None:
        self.rate = rate
        self.capacity = burst or max(1.0, rate)
        self.tokens = self.capacity
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


async def serve_table_socket(websocket: WebSocket, session: TableSession | None, store: Store, hub: Hub,
                             settings: Settings, since: int | None, can_write: bool, recent: int = 0,
                             table_id: str = "", known: tuple[str, ...] = ()) -> None:
    if session is None:
        await websocket.accept()
        await websocket.send_json({"type": "error", "error": f"no table {table_id!r}; tables: {list(known)}"})
        await websocket.close(code=4404, reason="no such table")
        return
    await websocket.accept()
    sub = hub.subscribe(session.table_id)
    try:
        snap = session.snapshot()
        await websocket.send_json({"type": "snapshot", **snap, "can_write": can_write})
        last = snap["seq"]
        if since is None and recent > 0:
            since = max(0, last - min(recent, 1000))  # a tablet opened mid-match sees the recent calls
        if since is not None and since < last:
            for msg in _stored_since(store, session.table_id, since, last):
                await websocket.send_json(msg)
        reader = asyncio.create_task(_read_inputs(websocket, session, settings, can_write))
        try:
            await _pump(websocket, sub, store, session, last, settings.heartbeat_s, reader)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
    except WebSocketDisconnect:
        pass
    finally:
        hub.unsubscribe(sub)


async def _pump(websocket: WebSocket, sub: Subscriber, store: Store, session: TableSession, last: int,
                heartbeat_s: float, reader: asyncio.Task[None]) -> None:
    """Live messages to one client. Stored messages go once each, in order (one already in the
    snapshot or the catch-up is skipped); unstored ones (positions, source status) carry the
    current number and always go, so a "reconnecting" status reaches the tablet as it happens."""
    table_id = session.table_id
    while not reader.done():
        msg = await sub.get(timeout=heartbeat_s)
        if sub.lagging_since is not None:
            sub.lagging_since = None
            missed = _stored_since(store, table_id, last, 1 << 62)
            await websocket.send_json({"type": "resync", "seq": last, "count": len(missed)})
            for m in missed:
                await websocket.send_json(m)
            if missed:
                last = missed[-1]["seq"]
            # a status cleared from the overflowing queue is not in the store: send the current one
            await websocket.send_json(wire(table_id, last, "status", {"status": session.status}))
            continue
        if msg is None:
            await websocket.send_json({"type": "heartbeat", "seq": last, "t": time.time()})
            continue
        if msg.stored:
            if msg.seq <= last:
                continue  # already in the snapshot or the catch-up
            last = msg.seq
        await websocket.send_text(msg.text)


async def _read_inputs(websocket: WebSocket, session: TableSession, settings: Settings, can_write: bool) -> None:
    limit = RateLimit(settings.max_messages_per_second)
    while True:
        text = await websocket.receive_text()
        if len(text.encode("utf-8")) > settings.max_message_bytes:
            await websocket.send_json({"type": "error", "error": f"message too large (limit {settings.max_message_bytes} bytes)"})
            continue
        if not limit.allow():
            await websocket.send_json({"type": "error", "error": "too many messages; slow down"})
            continue
        try:
            body = json.loads(text)
        except json.JSONDecodeError as exc:
            await websocket.send_json({"type": "error", "error": f"not valid JSON: {exc.msg}"})
            continue
        if not isinstance(body, dict):
            await websocket.send_json({"type": "error", "error": "send a JSON object such as {\"input\": \"overrule\"}"})
            continue
        if body.get("type") == "ping":
            await websocket.send_json({"type": "pong"})
            continue
        if not can_write:
            await websocket.send_json({"type": "error", "error": "read-only: inputs need the referee token (?token=)"})
            continue
        try:
            item = item_from_request(body, session.last_t)
            session.check_request(item)
        except LogFormatError as exc:
            await websocket.send_json({"type": "error", "error": str(exc)})
            continue
        try:
            msgs = session.ingest(item)
        except StoreError as exc:  # not stored, so not applied either (TableSession.ingest)
            await websocket.send_json({"type": "error", "error": f"{exc}. This input was not recorded; send it again."})
            continue
        await websocket.send_json({"type": "ack", "seq": msgs[0].seq if msgs else None})
