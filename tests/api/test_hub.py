"""The hub's promise: positions may be dropped for a slow tablet, fouls and scores never are."""

from __future__ import annotations

import asyncio

from tableref.api.hub import Hub


def test_sequence_numbers_count_only_important_messages() -> None:
    hub = Hub()
    a = hub.publish("t1", "update", {"kind": "foul"})
    p = hub.publish("t1", "positions", {"objects": {}})
    b = hub.publish("t1", "update", {"kind": "score"})
    assert (a.seq, p.seq, b.seq) == (1, 1, 2)
    assert hub.last_seq("t2") == 0


def test_a_full_queue_drops_positions_first_and_never_a_foul() -> None:
    hub = Hub(queue_size=3)
    sub = hub.subscribe("t")
    hub.publish("t", "positions", {"n": 1})
    hub.publish("t", "update", {"kind": "foul"})
    hub.publish("t", "positions", {"n": 2})
    hub.publish("t", "update", {"kind": "score"})  # queue full: the oldest positions go
    kinds = [m.type for m in sub.queue]
    assert kinds == ["update", "positions", "update"]
    assert sub.dropped == 1 and sub.lagging_since is None


def test_a_queue_full_of_important_messages_marks_the_client_for_resync() -> None:
    hub = Hub(queue_size=2)
    sub = hub.subscribe("t")
    for i in range(3):
        hub.publish("t", "update", {"i": i})
    assert sub.lagging_since == 1  # it must fetch again from seq 1 on: nothing silently lost
    hub.publish("t", "positions", {})
    assert [m.type for m in sub.queue] == ["update", "positions"]


def test_subscriber_get_times_out_for_heartbeats() -> None:
    hub = Hub()
    sub = hub.subscribe("t")

    async def go() -> tuple[object, object]:
        first = await sub.get(timeout=0.01)
        hub.publish("t", "update", {"x": 1})
        second = await sub.get(timeout=0.01)
        return first, second

    first, second = asyncio.run(go())
    assert first is None and second is not None
    hub.unsubscribe(sub)
    assert hub.subscriber_count("t") == 0


def test_newer_positions_replace_those_a_slow_tablet_has_not_been_sent() -> None:
    hub = Hub(queue_size=10)
    sub = hub.subscribe("t")
    hub.publish("t", "positions", {"n": 1})
    hub.publish("t", "update", {"kind": "foul"})
    hub.publish("t", "positions", {"n": 2})
    hub.publish("t", "positions", {"n": 3})
    assert [(m.type, m.payload.get("n")) for m in sub.queue] == [("update", None), ("positions", 3)]
    assert sub.dropped == 2
