"""A table session writes before it publishes, asks the human instead of crashing, and rebuilds exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from tableref.api.hub import Hub, Message
from tableref.api.session import TableSession
from tableref.api.store import Store, StoreUnavailable
from tableref.events import HumanInput, TableEvent


def _session(tmp_path: Path, hub: Hub | None = None) -> TableSession:
    return TableSession("t1", "bar-billiards", "counting", Store(tmp_path / "db.sqlite3"), hub or Hub(),
                        stills_dir=tmp_path / "stills")


def test_every_published_message_is_already_in_the_store(tmp_path: Path) -> None:
    hub = Hub()
    session = _session(tmp_path, hub)
    seen: list[int] = []
    sub = hub.subscribe("t1")
    offer = sub.offer

    def offer_checked(msg: Message) -> None:  # at the moment of publishing, not afterwards
        if msg.stored:
            assert [r.seq for r in session.store.log("t1", after=msg.seq - 1)][:1] == [msg.seq], msg
        seen.append(msg.seq)
        offer(msg)

    sub.offer = offer_checked  # type: ignore[method-assign]
    msgs = session.ingest(TableEvent(t=1.0, type="pot", objects=("red",), where="hole-100"))
    msgs += session.ingest(TableEvent(t=2.0, type="pin_fall", objects=("pin-50-left",)), still=lambda: b"\xff\xd8")
    assert seen == [m.seq for m in msgs] == [1, 2, 3, 4, 5]
    assert session.snapshot()["scores"] == {"A": 0}


def test_an_impossible_event_becomes_a_question_and_changes_nothing(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.ingest(TableEvent(t=1.0, type="pot", objects=("red",), where="hole-100"))
    before = session.snapshot()["state"]
    msgs = session.ingest(TableEvent(t=2.0, type="pot", objects=("red",), where="hole-200"))
    assert [m.type for m in msgs] == ["event", "question"]
    assert "red is not on the table" in msgs[1].payload["question"]
    assert session.snapshot()["state"] == before


def test_a_foul_links_a_still_of_the_moment(tmp_path: Path) -> None:
    session = _session(tmp_path)
    msgs = session.ingest(TableEvent(t=3.0, type="pin_fall", objects=("pin-100",)), still=lambda: b"\xff\xd8jpeg")
    foul = next(m for m in msgs if m.payload.get("kind") == "foul")
    assert foul.payload["still"] == f"/api/tables/t1/stills/{foul.seq}.jpg"
    assert (tmp_path / "stills" / f"{foul.seq}.jpg").read_bytes() == b"\xff\xd8jpeg"


def test_rebuild_after_restart_gives_the_identical_state_including_undo_and_resets(tmp_path: Path) -> None:
    session = _session(tmp_path)
    session.ingest(TableEvent(t=1.0, type="pot", objects=("red",)))
    session.ingest(TableEvent(t=2.0, type="pin_fall", objects=("pin-50-left",)))
    session.ingest(HumanInput(t=2.5, kind="overrule"))
    session.ingest(TableEvent(t=3.0, type="pot", objects=("white-1",)))
    session.ingest(HumanInput(t=3.5, kind="undo"))
    state, scores = session.snapshot()["state"], session.snapshot()["scores"]
    assert scores == {"A": 1}
    again = _session(tmp_path)
    again.rebuild()
    assert again.snapshot()["state"] == state and again.snapshot()["scores"] == scores
    assert again.snapshot()["seq"] == session.snapshot()["seq"]
    session.reset(t=4.0)
    third = _session(tmp_path)
    third.rebuild()
    assert third.snapshot()["scores"] == {"A": 0}


def test_an_item_the_store_cannot_take_is_not_applied_either(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written before published, and not applied unless written: otherwise the live referee would
    hold a call the log lacks, and a restart would serve another game."""
    session = _session(tmp_path)
    session.ingest(TableEvent(t=1.0, type="pot", objects=("red",)))
    session.ingest(TableEvent(t=2.0, type="pin_fall", objects=("pin-50-left",)))
    before = session.snapshot()
    real = session.store.append_many

    def down(*args: object, **kwargs: object) -> None:
        raise StoreUnavailable("cannot write to SQLite at test: disk I/O error; nothing was written")

    monkeypatch.setattr(session.store, "append_many", down)
    for item in (HumanInput(t=2.5, kind="overrule"), HumanInput(t=2.6, kind="undo"),
                 TableEvent(t=3.0, type="pot", objects=("white-1",))):
        with pytest.raises(StoreUnavailable):
            session.ingest(item)
        assert session.snapshot() == before, item
    monkeypatch.setattr(session.store, "append_many", real)
    msgs = session.ingest(HumanInput(t=2.5, kind="overrule"))
    assert msgs[0].seq == before["seq"] + 1  # the numbering carries on without a gap
    again = _session(tmp_path)
    again.rebuild()
    assert again.snapshot()["state"] == session.snapshot()["state"]
