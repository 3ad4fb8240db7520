"""The one engine shape every game's referee shares.

A referee is a state machine (python-chess style): ``apply(item)`` pushes a table event or a human
input and returns typed :class:`Update` objects; ``undo()`` pops the last applied item; ``state`` is
a JSON-serialisable snapshot; ``outcome()`` says whether the game is over and who won.

Why the base does the bookkeeping and not each game:

* **Atomicity.** A game's ``_apply`` works on a deep copy of the state. Only when it returns
  without raising is the copy committed, so an impossible event (a card played twice, a pot from
  an empty table) raises :class:`RefereeError` and leaves the referee exactly as it was. The layers
  above turn that error into a question for the human referee, never a crash.
* **Undo and replay for free.** Each committed item stores the state before it, so ``undo`` is
  exact, and ``replay(log)`` on a fresh engine rebuilds the identical state. A match replays
  exactly from its log.

Updates are a closed set of kinds (:class:`UpdateKind`); fouls carry a per-game closed enum code,
the rule-book clause, a sentence for the tablet and the penalty, never free text alone.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar

from tableref.events import HumanInput, LogItem, TableEvent, thaw


class RefereeError(Exception):
    """An event or input that cannot happen in the current state.

    The state is left unchanged. ``question`` is the sentence to put to the human referee.
    """

    def __init__(self, message: str, *, item: LogItem | None = None) -> None:
        super().__init__(message)
        self.item = item

    @property
    def question(self) -> str:
        return f"The referee could not apply this: {self}. Please check the table and correct it."


class UpdateKind(StrEnum):
    """Every kind of message a referee sends to the tablet."""

    FOUL = "foul"
    SCORE = "score"  # a score change (points may be negative)
    BREAK = "break"  # the running break changed (bar billiards, carrom pocketing in a turn)
    BREAK_BANKED = "break_banked"
    BREAK_LOST = "break_lost"
    TURN = "turn"  # the turn, visit or lead passes to another player or team
    INSTRUCTION = "instruction"  # something to do at the table: spot a ball, reset pins, ...
    CHOICE = "choice"  # the rules offer someone a choice; the answer comes back as an input
    ENDGAME = "endgame"  # an endgame or sudden death starts
    PHASE = "phase"  # any other change of phase: clock expired, bar dropped, new rack, new hand
    TRICK = "trick"  # All-Fours: a trick is won
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"
    INFO = "info"  # a note for the log (a legal shot, a call recorded)


@dataclass(frozen=True)
class Update:
    """One message from the referee.

    ``code`` is the value of a game's closed enum (a foul code, an instruction code), ``clause`` the
    rule-book clause it comes from (``"3a(a)"``), ``text`` the sentence for the tablet, ``player``
    whom it concerns, ``points`` a score change or penalty, ``data`` anything else (totals, the
    piece to return, the options of a choice). Text is derived from the code, not the other way.
    """

    kind: UpdateKind
    text: str
    code: str | None = None
    clause: str | None = None
    player: str | None = None
    points: int | None = None
    t: float | None = None
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", UpdateKind(self.kind))
        if isinstance(self.code, Enum):
            object.__setattr__(self, "code", str(self.code.value))
        object.__setattr__(self, "data", MappingProxyType(dict(self.data)))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        for name in ("code", "clause", "player", "points", "t"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        out["text"] = self.text
        if self.data:
            out["data"] = thaw(self.data)
        return out


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winner (``None`` for a shared frame or a tie) and the final scores."""

    winner: str | None
    scores: Mapping[str, int]
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "scores": dict(self.scores), "reason": self.reason}


def to_jsonable(value: Any) -> Any:
    """Dataclasses, enums, sets and tuples into plain JSON data (for ``state``)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return sorted(to_jsonable(v) for v in value)
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    return value


S = TypeVar("S")


class Engine(ABC, Generic[S]):
    """Base of every game's referee; subclasses implement ``_initial_state`` and ``_apply``.

    ``_apply(state, item)`` may mutate ``state`` (a private deep copy) and returns the updates; it
    raises :class:`RefereeError` for anything impossible. It must not read the clock or any
    global: time comes in with the item, so a recorded match and a live table run the same code.
    """

    game: ClassVar[str] = ""

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = self._check_options(options)
        self._state: S = self._initial_state()
        self._history: list[tuple[LogItem, S]] = []

    # -- what a game implements -------------------------------------------------------------
    @abstractmethod
    def _initial_state(self) -> S: ...

    @abstractmethod
    def _apply(self, state: S, item: LogItem) -> list[Update]: ...

    @abstractmethod
    def _outcome(self, state: S) -> Outcome | None: ...

    def _scores(self, state: S) -> dict[str, int]:
        """Current scores by player or team (override; used by ``replay``'s final line)."""
        return {}

    default_options: ClassVar[Mapping[str, Any]] = MappingProxyType({})

    #: The human input kinds this game accepts, for the tablet to offer (each game sets it).
    INPUT_KINDS: ClassVar[tuple[str, ...]] = ()

    def input_kinds(self) -> tuple[str, ...]:
        return tuple(self.INPUT_KINDS)

    def _check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(options) - set(self.default_options)
        if unknown:
            accepted = ", ".join(sorted(self.default_options)) or "none"
            raise ValueError(f"unknown {self.game} option(s) {sorted(unknown)}; accepted: {accepted}")
        merged = dict(self.default_options)
        merged.update(options)
        return merged

    # -- the public verbs -------------------------------------------------------------------
    def apply(self, item: LogItem) -> list[Update]:
        """Apply one event or input; on :class:`RefereeError` the state is unchanged."""
        if not isinstance(item, TableEvent | HumanInput):
            raise RefereeError(f"expected a TableEvent or HumanInput, got {type(item).__name__}")
        work = copy.deepcopy(self._state)
        try:
            updates = self._apply(work, item)
        except RefereeError as exc:
            if exc.item is None:
                exc.item = item
            raise
        self._history.append((item, self._state))
        self._state = work
        return [u if u.t is not None else dataclasses.replace(u, t=item.t) for u in updates]

    def undo(self) -> LogItem:
        """Take back the last applied item and return it; the state is exactly as before it."""
        if not self._history:
            raise RefereeError("nothing to undo")
        item, before = self._history.pop()
        self._state = before
        return item

    @property
    def log(self) -> list[LogItem]:
        """Every item applied so far, in order (what a replay needs)."""
        return [item for item, _ in self._history]

    @property
    def state(self) -> dict[str, Any]:
        """A JSON-serialisable snapshot of the whole game state."""
        return to_jsonable(self._state)

    def outcome(self) -> Outcome | None:
        return self._outcome(self._state)

    def scores(self) -> dict[str, int]:
        return self._scores(self._state)

    def replay(self, items: Iterable[LogItem]) -> list[Update]:
        """Apply a whole log; raises on the first impossible item (with the item attached)."""
        out: list[Update] = []
        for item in items:
            out.extend(self.apply(item))
        return out

    def state_json(self) -> str:
        return json.dumps(self.state, sort_keys=True)
