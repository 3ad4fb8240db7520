"""Publish/subscribe for table updates, with sequence numbers, catch-up and bounded client queues.

Why it looks like this (broadcaster's lesson): the websocket endpoint only talks to a :class:`Hub`
interface, so the in-memory backend used here and in tests can be swapped for a real broker when a
venue runs many tables on several processes.

* Every important message on a channel (events, fouls, scores, turns, instructions, game over)
  gets the next sequence number and is written to the store before it is published, so a client
  that reconnects with its last sequence number gets exactly what it missed from the store.
* Each subscriber has a bounded queue. When a slow tablet falls behind, *droppable* messages
  (ball positions, video frames) are dropped first; important ones are never dropped: if the
  queue is full of important messages, the subscriber is marked ``lagging`` and told to resync
  from its last sequence number instead of silently losing a foul.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any

#: Message types a client may miss without harm: the next one supersedes them.
DROPPABLE = frozenset({"positions", "frame", "heartbeat"})

#: Message types that are not stored and take no sequence number of their own (they carry the
#: current one): the droppable ones, and a table's source status (playing, reconnecting), which
#: the snapshot carries and a resync re-sends, so it needs no place in the log.
UNSTORED = DROPPABLE | {"status"}


@dataclass(frozen=True)
class Message:
    channel: str
    seq: int
    type: str
    payload: dict[str, Any]

    @property
    def droppable(self) -> bool:
        return self.type in DROPPABLE

    @property
    def stored(self) -> bool:
        """Whether this message is in the store under its own ``seq`` (a client may fetch it again)."""
        return self.type not in UNSTORED

    @functools.cached_property
    def text(self) -> str:
        """The JSON text, serialised once however many clients receive it."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    def to_json(self) -> dict[str, Any]:
        return wire(self.channel, self.seq, self.type, self.payload)


def wire(channel: str, seq: int, type_: str, body: dict[str, Any]) -> dict[str, Any]:
    """The JSON a client receives: a table event's own fields sit under ``event``, so its
    ``type`` (pot, contact, ...) never collides with the message type."""
    if type_ == "event":
        return {"seq": seq, "type": "event", "channel": channel, "event": body}
    return {**body, "seq": seq, "type": type_, "channel": channel}


@dataclass(eq=False)
class Subscriber:
    channel: str
    maxsize: int
    queue: deque[Message] = field(default_factory=deque)
    event: asyncio.Event = field(default_factory=asyncio.Event)
    lagging_since: int | None = None  # first seq the client must fetch again when it lagged
    dropped: int = 0

    def offer(self, msg: Message) -> None:
        if msg.droppable and self.queue:
            # A newer droppable message supersedes one of its type still waiting here (the table's
            # positions of a moment ago): a tablet that fell behind skips to the present instead of
            # being sent every frame it missed, which also spares the server those sends.
            for i, queued in enumerate(self.queue):
                if queued.type == msg.type:
                    del self.queue[i]
                    self.dropped += 1
                    break
        if len(self.queue) >= self.maxsize:
            # Make room by dropping the oldest droppable message, never an important one.
            for i, queued in enumerate(self.queue):
                if queued.droppable:
                    del self.queue[i]
                    self.dropped += 1
                    break
            else:
                if msg.droppable:
                    self.dropped += 1
                    return
                if self.lagging_since is None:
                    self.lagging_since = self.queue[0].seq
                self.queue.clear()
        self.queue.append(msg)
        self.event.set()

    async def get(self, timeout: float | None = None) -> Message | None:
        """Next message, or ``None`` on timeout (the caller sends a heartbeat then)."""
        while not self.queue:
            self.event.clear()
            try:
                # asyncio.timeout, not wait_for: wait_for wraps the wait in a task of its own, about
                # three times the cost, paid by every tablet for every message it is woken for
                async with asyncio.timeout(timeout):
                    await self.event.wait()
            except TimeoutError:
                return None
        return self.queue.popleft()


class Hub:
    """The in-memory backend: one process, many channels (one per table), many subscribers.

    Sequence numbers count important messages only (each of them is in the store), so a client
    that sees a gap knows it missed something; droppable messages carry the current number.
    """

    def __init__(self, queue_size: int = 256) -> None:
        self._queue_size = queue_size
        self._last: dict[str, int] = {}
        self._subs: dict[str, set[Subscriber]] = {}

    def set_sequence(self, channel: str, last_seq: int) -> None:
        """Continue numbering after ``last_seq`` (what the store holds after a restart)."""
        self._last[channel] = last_seq

    def last_seq(self, channel: str) -> int:
        return self._last.get(channel, 0)

    def next_seq(self, channel: str) -> int:
        """Reserve the next number for an important message (stored before it is published)."""
        seq = self._last.get(channel, 0) + 1
        self._last[channel] = seq
        return seq

    def publish(self, channel: str, type_: str, payload: dict[str, Any], seq: int | None = None) -> Message:
        if seq is None:
            seq = self.last_seq(channel) if type_ in UNSTORED else self.next_seq(channel)
        msg = Message(channel, seq, type_, payload)
        for sub in list(self._subs.get(channel, ())):
            sub.offer(msg)
        return msg

    def subscribe(self, channel: str) -> Subscriber:
        sub = Subscriber(channel, self._queue_size)
        self._subs.setdefault(channel, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        self._subs.get(sub.channel, set()).discard(sub)

    def subscriber_count(self, channel: str) -> int:
        return len(self._subs.get(channel, ()))
