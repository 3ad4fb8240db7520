"""A compact notation for pool shots, so the game tests read like the game.

``shot("0 -> 3; rail 3; pot 3 top-left")`` is: ball-0 struck, it hits ball-3, ball-3 meets a
cushion, ball-3 drops in pocket-top-left, the balls come to rest. Statements, separated by ``;``:

* ``N`` or ``N -> M`` first: ``shot_start`` of ball-N (``@ x,y`` gives its position), then a contact;
* ``A -> B`` later: a contact between two balls (a combination or carom);
* ``rail N [M ...] [cushion]``: each ball meets a cushion (``left``, ``right``, ``top``, ``bottom``;
  ``top`` unless named);
* ``pot N [pocket]``: ball-N drops (``top-left`` unless named); ``off N`` leaves the table; ``off N back``
  comes back by itself;
* ``rest``: ``at_rest`` (added at the end when left out); ``late pot N`` after it: a teetering drop.

The module also holds :class:`Play`, a table that applies shots and inputs with a running clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from tableref.events import EventType, HumanInput, LogItem, TableEvent
from tableref.referee import Engine, RefereeError, Update, UpdateKind

Positions = Mapping[str, Sequence[float]]
RADIUS = 28.575


def _ball(token: str) -> str:
    return token if token.startswith("ball-") else f"ball-{int(token)}"


def _where(prefix: str, token: str | None, default: str) -> str:
    if token is None:
        return f"{prefix}-{default}"
    return token if token.startswith(prefix) else f"{prefix}-{token}"


def shot(text: str, *, t: float = 0.0, positions: Positions | None = None,
         rest: Positions | None = None, step: float = 0.1) -> list[TableEvent]:
    """Events of one shot written in the notation (see the module docstring)."""
    events: list[TableEvent] = []
    clock = t
    statements = [s.strip() for s in text.split(";") if s.strip()]
    if not statements:
        raise ValueError("an empty shot")

    def add(kind: EventType, objects: Iterable[str], where: str | None = None, data: Mapping[str, Any] | None = None) -> None:
        nonlocal clock
        events.append(TableEvent(t=round(clock, 4), type=kind, objects=tuple(objects), where=where, data=data or {}))
        clock += step

    at_rest = {"positions": {k: list(v) for k, v in rest.items()}} if rest else {}

    first, *others = statements
    head, _, target = (part.strip() for part in first.partition("->"))
    struck, _, at = (part.strip() for part in head.partition("@"))
    start: dict[str, Any] = {}
    if positions is not None:
        start["positions"] = {k: list(v) for k, v in positions.items()}
    if at:
        start["position"] = [float(v) for v in at.split(",")]
    add(EventType.SHOT_START, [_ball(struck)], data=start)
    if target:
        add(EventType.CONTACT, [_ball(struck), _ball(target)])
    rested = False
    for statement in others:
        words = statement.split()
        if "->" in statement:
            a, b = (part.strip() for part in statement.split("->"))
            add(EventType.CONTACT, [_ball(a), _ball(b)])
        elif words[0] == "rail":
            balls = [w for w in words[1:] if w.isdigit()]
            names = [w for w in words[1:] if not w.isdigit()]
            for b in balls:
                add(EventType.CUSHION, [_ball(b)], _where("cushion", names[0] if names else None, "top"))
        elif words[0] == "pot":
            add(EventType.POT, [_ball(words[1])], _where("pocket", words[2] if len(words) > 2 else None, "top-left"))
        elif words[0] == "off":
            add(EventType.OFF_TABLE, [_ball(words[1])], data={"returned": len(words) > 2 and words[2] == "back"})
        elif words[0] == "rest":
            add(EventType.AT_REST, [], data=at_rest)
            rested = True
        elif words[:2] == ["late", "pot"]:
            add(EventType.POT, [_ball(words[2])], _where("pocket", words[3] if len(words) > 3 else None, "top-left"))
        else:
            raise ValueError(f"unknown shot statement {statement!r}")
    if not rested:
        add(EventType.AT_REST, [], data=at_rest)
    return events


def racked(order: Sequence[int] = tuple(range(1, 16)), apex: tuple[float, float] = (635.0, 635.0),
           cue: tuple[float, float] = (300.0, 635.0)) -> dict[str, list[float]]:
    """Positions of a fifteen-ball triangle with ``order[0]`` at the apex (pointing at the kitchen),
    plus the cue (zero) ball."""
    out = {"ball-0": list(cue)}
    dx, i = 2 * RADIUS * 0.8660254, 0
    for row in range(5):
        for k in range(row + 1):
            out[f"ball-{order[i]}"] = [apex[0] + row * dx, apex[1] + (k - row / 2) * 2 * RADIUS]
            i += 1
    return out


def inp(kind: str, t: float = 0.0, by: str | None = None, **data: Any) -> HumanInput:
    return HumanInput(t=t, kind=kind, data=data, by=by)


class Play:
    """A table under one engine: applies shots and inputs with a running clock, keeps every update."""

    def __init__(self, engine: Engine[Any]) -> None:
        self.engine = engine
        self.t = 0.0
        self.log: list[LogItem] = []
        self.updates: list[Update] = []

    def apply(self, item: LogItem) -> list[Update]:
        out = self.engine.apply(item)
        self.log.append(item)
        self.updates.extend(out)
        return out

    def shot(self, text: str, **kw: Any) -> list[Update]:
        out: list[Update] = []
        for event in shot(text, t=self.t, **kw):
            out.extend(self.apply(event))
        self.t = round(self.t + 5.0, 4)
        return out

    def input(self, kind: str, **data: Any) -> list[Update]:
        self.t = round(self.t + 0.5, 4)
        return self.apply(inp(kind, t=self.t, **data))

    @property
    def state(self) -> dict[str, Any]:
        return self.engine.state

    @property
    def core(self) -> dict[str, Any]:
        core: dict[str, Any] = self.engine.state["core"]
        return core

    def scores(self) -> dict[str, int]:
        return self.engine.scores()


def codes(updates: Iterable[Update], kind: UpdateKind | None = None) -> list[str]:
    return [u.code or "" for u in updates if kind is None or u.kind is kind]


def fouls(updates: Iterable[Update]) -> list[str]:
    return codes(updates, UpdateKind.FOUL)


def points(updates: Iterable[Update]) -> int:
    return sum(u.points or 0 for u in updates if u.kind is UpdateKind.SCORE)


# -- Up and Down tables ------------------------------------------------------------------------
BREAK_FROM = "0 @ 300,635"


def up_and_down(**options: Any) -> Play:
    """A fresh Up and Down game between Ann (who breaks) and Bob."""
    from tableref.referee.up_and_down import UpAndDownEngine

    play = Play(UpAndDownEngine(**options))
    play.input("players", names=["Ann", "Bob"])
    return play


def break_shot(play: Play, rest: str = "rail 2 3 4 5") -> list[Update]:
    """The zero ball from the kitchen onto the leading ball (ball-1), then ``rest``."""
    return play.shot(f"{BREAK_FROM} -> 1; {rest}", positions=racked())


def call(play: Play, *balls: int, cue: int | None = None, pockets: Sequence[str] | None = None) -> list[Update]:
    data: dict[str, Any] = {"balls": [f"ball-{b}" for b in balls]}
    if cue is not None:
        data["cue"] = f"ball-{cue}"
    if pockets is not None:
        data["pockets"] = [p if p.startswith("pocket-") else f"pocket-{p}" for p in pockets]
    return play.input("called_shot", **data)


def make(play: Play, cue: int, ball: int) -> list[Update]:
    """Call ``ball`` with ``cue`` as the cue ball and pocket it."""
    return call(play, ball, cue=cue) + play.shot(f"{cue} -> {ball}; pot {ball}")


def open_table(**options: Any) -> Play:
    """Ann's legal break (four balls to the rails, nothing down): Bob at an open table, all 16 balls up."""
    play = up_and_down(**options)
    break_shot(play)
    return play


def colors(names: Sequence[str] = ("Ann", "Bob"), **options: Any) -> Play:
    from tableref.referee.colors import ColorsEngine

    play = Play(ColorsEngine(**options))
    play.input("players", names=list(names))
    return play


#: The Colors rack: the black at the apex on the foot spot, colours behind it.
COLORS_RACK = racked([8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15], apex=(1905.0, 635.0))


# -- the notation's own tests -------------------------------------------------------------------
def test_notation_reads_a_shot_into_events_in_order() -> None:
    events = shot("7 @ 300,600 -> 8; 8 -> 9; rail 9 8 right; pot 9 bottom-middle; off 8")
    assert [e.type.value for e in events] == ["shot_start", "contact", "contact", "cushion", "cushion", "pot", "off_table", "at_rest"]
    assert events[0].objects == ("ball-7",) and events[0].data["position"] == (300.0, 600.0)
    assert events[3].where == "cushion-right" and events[5].where == "pocket-bottom-middle"
    assert events[6].data["returned"] is False
    assert all(a.t < b.t for a, b in zip(events, events[1:], strict=False))


def test_notation_puts_a_late_drop_after_the_rest() -> None:
    events = shot("0 -> 3; rest; late pot 3")
    assert [e.type.value for e in events][-2:] == ["at_rest", "pot"]


def test_notation_refuses_what_it_does_not_know() -> None:
    with pytest.raises(ValueError, match="unknown shot statement"):
        shot("0 -> 3; bounce 3")


def test_racked_puts_the_first_ball_nearest_the_kitchen() -> None:
    rack = racked([5, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
    objects = {k: v for k, v in rack.items() if k != "ball-0"}
    assert min(objects, key=lambda k: objects[k][0]) == "ball-5"
    assert len(objects) == 15


def test_refused_items_are_referee_errors_not_crashes() -> None:
    from tableref.referee.up_and_down import UpAndDownEngine

    engine = UpAndDownEngine()
    with pytest.raises(RefereeError, match="no shot in progress"):
        engine.apply(shot("0 -> 1")[-1])
