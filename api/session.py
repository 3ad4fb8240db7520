"""One live table: its referee, its log and its channel, tied together in the right order.

Order matters and is the point of this module: an event or input is (1) applied to the referee,
(2) written to the store together with every update it caused, and only then (3) published. A
crash between (2) and (3) loses no foul: the client catches up from the store. An item the
referee refuses becomes a ``question`` for the human referee (stored and published), never an
exception that stops the table.

The referee is rebuilt on start-up by replaying the stored events and inputs (``undo`` included),
so a restarted server serves the identical state.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tableref.api.hub import Hub, Message
from tableref.api.store import Store
from tableref.api.views import table_view
from tableref.events import HumanInput, LogFormatError, LogItem, TableEvent, from_json
from tableref.referee import Engine, RefereeError, Update, UpdateKind, make_engine

#: Inputs the service handles itself rather than passing to the referee.
SERVICE_INPUTS = frozenset({"undo"})

#: Update kinds that deserve a still frame of the moment on the tablet.
STILL_KINDS = frozenset({UpdateKind.FOUL})


@dataclass
class TableSession:
    """A table's live state. ``game`` may be ``None`` for a table that only reports events."""

    table_id: str
    table_kind: str
    game: str | None
    store: Store
    hub: Hub
    options: dict[str, Any] = field(default_factory=dict)
    engine: Engine[Any] | None = None
    match_id: str | None = None
    status: dict[str, Any] = field(default_factory=lambda: {"source": "idle"})
    positions: dict[str, Any] = field(default_factory=dict)
    last_t: float = 0.0
    stills_dir: Path | None = None
    pipeline: str = "none"

    def __post_init__(self) -> None:
        if self.game is not None and self.engine is None:
            self.engine = make_engine(self.game, **self.options)
        self.hub.set_sequence(self.table_id, self.store.last_seq(self.table_id))

    # -- rebuilding ---------------------------------------------------------------------------
    def rebuild(self) -> int:
        """Replay the stored events and inputs into a fresh referee; returns how many were applied."""
        if self.game is None:
            return 0
        self.engine = make_engine(self.game, **self.options)
        applied = 0
        for row in self.store.log(self.table_id, kinds=("event", "input", "notice")):
            if row.kind == "notice":
                if row.body.get("reset"):
                    self.engine = make_engine(self.game, **self.options)
                    self.last_t = row.t or 0.0  # as ``reset`` left it
                    applied = 0
                continue
            if row.body.get("input") == "undo":
                with contextlib.suppress(RefereeError):
                    self.engine.undo()
                continue
            try:
                self.engine.apply(from_json(row.body))
                applied += 1
            except RefereeError:
                continue  # it was a question when it happened too
            if row.t is not None:
                self.last_t = max(self.last_t, row.t)
        return applied

    def items_since_reset(self) -> list[dict[str, Any]]:
        """The events and inputs stored since the table last started afresh, oldest first.

        A file source that starts again over them (after a restart, or a new calibration) resumes
        after them instead of replaying the clip over the game it already refereed.
        """
        items: list[dict[str, Any]] = []
        for row in self.store.log(self.table_id, kinds=("event", "input", "notice"), limit=-1):
            if row.kind == "notice":
                if row.body.get("reset"):
                    items.clear()
                continue
            items.append(row.body)
        return items

    # -- feeding ------------------------------------------------------------------------------
    def check_request(self, item: LogItem) -> None:
        """Refuse an input kind this table's referee does not have, before anything is stored.

        Such an input is a client's mistake (a typo, the wrong game), not a situation for the human
        referee, so it gets a ``LogFormatError`` naming the kinds accepted and never reaches the
        log. An input the referee knows but cannot apply now still becomes a question.
        """
        if not isinstance(item, HumanInput) or item.kind in SERVICE_INPUTS or self.engine is None:
            return
        kinds = self.engine.input_kinds()
        if item.kind not in kinds:
            accepted = ", ".join((*sorted(SERVICE_INPUTS), *kinds))
            raise LogFormatError(f"unknown {self.game} input {item.kind!r}; accepted: {accepted}")

    def ingest(self, item: LogItem, still: Callable[[], bytes | None] | None = None) -> list[Message]:
        """Apply, store, publish; returns the published messages.

        ``still`` encodes the current camera frame (JPEG) on demand: it is called only when the
        item causes a foul, and the foul's message then links the still of that moment.
        """
        kind = "input" if isinstance(item, HumanInput) else "event"
        body = item.to_json()
        rows: list[tuple[str, dict[str, Any], float | None]] = [(kind, body, item.t)]
        applied = False
        undone: LogItem | None = None
        if isinstance(item, HumanInput) and item.kind == "undo":
            undo_rows, undone = self._undo(item)
            rows.extend(undo_rows)
        elif self.engine is not None:
            try:
                updates = self.engine.apply(item)
            except RefereeError as exc:
                rows.append(("question", {"question": exc.question, "item": body}, item.t))
            else:
                applied = True
                rows.extend(("update", self._update_body(u), item.t) for u in updates)
        last_seq, last_t = self.hub.last_seq(self.table_id), self.last_t
        self.last_t = max(self.last_t, item.t)
        numbered = [(self.hub.next_seq(self.table_id), k, b, t) for k, b, t in rows]
        if still is not None and self.stills_dir is not None:
            self._attach_stills(numbered, still)
        try:
            self.store.append_many(self.table_id, numbered, match_id=self.match_id)
        except Exception:
            # Not stored, so it never happened: the referee, the numbering and the table time go
            # back to what the store holds, and the caller hears of the failure (503 on REST).
            if self.engine is not None and applied:
                self.engine.undo()
            elif self.engine is not None and undone is not None:
                self.engine.apply(undone)
            self.hub.set_sequence(self.table_id, last_seq)
            self.last_t = last_t
            raise
        return [self.hub.publish(self.table_id, k, b, seq=seq) for seq, k, b, _ in numbered]

    def _attach_stills(self, numbered: list[tuple[int, str, dict[str, Any], float | None]],
                       still: Callable[[], bytes | None]) -> None:
        fouls = [(seq, body) for seq, kind, body, _ in numbered if kind == "update" and body.get("kind") == "foul"]
        if not fouls or self.stills_dir is None:
            return
        jpeg = still()
        if jpeg is None:
            return
        self.stills_dir.mkdir(parents=True, exist_ok=True)
        for seq, body in fouls:
            (self.stills_dir / f"{seq}.jpg").write_bytes(jpeg)
            body["still"] = f"/api/tables/{self.table_id}/stills/{seq}.jpg"

    def _undo(self, item: HumanInput) -> tuple[list[tuple[str, dict[str, Any], float | None]], LogItem | None]:
        """The rows an undo adds, and the item it took back (``None`` when there was none)."""
        if self.engine is None:
            return [("question", {"question": "This table has no referee to undo."}, item.t)], None
        try:
            undone = self.engine.undo()
        except RefereeError as exc:
            return [("question", {"question": f"Nothing to undo ({exc})."}, item.t)], None
        # the scores as they stand again, so a tablet's scoreboard follows the undo
        return [("notice", {"text": "Undone", "undone": undone.to_json(), "state": self.snapshot_state(),
                            "scores": self.engine.scores()}, item.t)], undone

    def _update_body(self, update: Update) -> dict[str, Any]:
        body = update.to_json()
        if self.engine is not None and update.kind in (UpdateKind.SCORE, UpdateKind.GAME_OVER, UpdateKind.MATCH_OVER):
            body["scores"] = self.engine.scores()
        return body

    def event(self, event: TableEvent) -> list[Message]:
        return self.ingest(event)

    def publish_positions(self, t: float, frame: int, positions: dict[str, Any]) -> None:
        """Ball positions for the live drawing: droppable, never stored."""
        self.positions = positions
        self.hub.publish(self.table_id, "positions", {"t": t, "frame": frame, "objects": positions})

    def set_status(self, **status: Any) -> None:
        """Source status (playing, reconnecting, stopped): published and kept for snapshots."""
        self.status = {**self.status, **status}
        self.hub.publish(self.table_id, "status", {"status": self.status}, seq=self.hub.last_seq(self.table_id))

    # -- reading ------------------------------------------------------------------------------
    def snapshot_state(self) -> dict[str, Any] | None:
        return self.engine.state if self.engine is not None else None

    def snapshot(self) -> dict[str, Any]:
        outcome = self.engine.outcome() if self.engine is not None else None
        return {
            "table": self.table_id,
            "table_kind": self.table_kind,
            "game": self.game,
            "match": self.match_id,
            "seq": self.hub.last_seq(self.table_id),
            "scores": self.engine.scores() if self.engine is not None else {},
            "state": self.snapshot_state(),
            "view": table_view(self.engine),  # what the tablet shows beyond the state (All-Fours points)
            "outcome": outcome.to_json() if outcome else None,
            "positions": self.positions,
            "status": self.status,
            "pipeline": self.pipeline,
            "t": self.last_t,
        }

    def reset(self, t: float = 0.0, reason: str = "new game") -> Message:
        """Start the table afresh (a new demo loop or a new match): a new referee, the log kept.

        The reset is itself logged, so a rebuild after a restart starts from the same point.
        """
        if self.game is not None:
            self.engine = make_engine(self.game, **self.options)
        self.last_t = t
        seq = self.hub.next_seq(self.table_id)
        body = {"reset": True, "text": f"Reset: {reason}", "state": self.snapshot_state()}
        self.store.append(self.table_id, seq, "notice", body, t=t, match_id=self.match_id)
        return self.hub.publish(self.table_id, "notice", body, seq=seq)


def item_from_request(body: dict[str, Any], default_t: float) -> LogItem:
    """Parse a tablet's input, filling in the table time when the tablet does not know it."""
    data = dict(body)
    data.setdefault("t", default_t)
    return from_json(data)
