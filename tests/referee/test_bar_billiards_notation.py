"""A compact notation for bar-billiards scenarios, so tests read like the game.

``Table().play("toss home; break; hit red; pot red 100; pot cue 50-left; rest")`` feeds the
events and inputs to a fresh engine, half a second apart, and returns the updates. Words:

=================================  =============================================================
``toss P`` / ``coin P give``        break_winner / coin_toss (2a)
``break [@x,y] [red]``              break-off: a white (the red with ``red``) from the D's centre,
                                    the other ball on the spot
``shot red|white [@x,y]``           strike a ball (default: inside the D); the struck ball is ``cue``
``hit A [B]``                       contact (cue and A, or A and B)
``pot A HOLE`` / ``late A HOLE +s``  pot (``100``, ``50-left``, ``10-right`` ...); a late pot ``s``
                                    seconds after the last rest (2f(b))
``fall PIN`` / ``nudge PIN x,y``    pin_fall / pin_moved (``200``, ``100``, ``50-left``)
``cushion [A] WHERE``               cushion: ``top``, ``bottom``, ``left`` or ``scoreboard``
``baulk [A]`` / ``off A [back]``    baulk_entry / off_table (``back``: it returned)
``rest [A@x,y ...]``                at_rest, with positions when given
``place A @x,y`` ``remove A`` ``move A @x,y``   by hand
``! KIND k=v ...``                  a human input; values are JSON where they parse
``wait S``                          let S seconds pass
=================================  =============================================================
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tableref.events import EventType, HumanInput, LogItem, TableEvent
from tableref.referee import RefereeError, Update, UpdateKind, make_engine
from tableref.referee.bar_billiards import BarBilliardsEngine

CUE = "white-cue"
CENTRE = (305.0, 381.0)
IN_D = (260.0, 381.0)
SPOT = (560.0, 381.0)
CUSHIONS = {"top": "cushion-top", "bottom": "cushion-bottom", "left": "cushion-left", "scoreboard": "scoreboard"}


def hole(word: str) -> str:
    return word if word.startswith("hole-") else f"hole-{word}"


def pin(word: str) -> str:
    return word if word.startswith("pin-") else f"pin-{word}"


def point(word: str) -> list[float]:
    x, y = word.lstrip("@").split(",")
    return [float(x), float(y)]


def value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


class Table:
    """One engine plus a clock; ``play`` parses the notation into events and inputs."""

    def __init__(self, **options: Any) -> None:
        engine = make_engine("bar-billiards", **options)
        assert isinstance(engine, BarBilliardsEngine)
        self.engine = engine
        self.t = 0.0
        self.rest_t = 0.0
        self.struck = CUE
        self.items: list[LogItem] = []
        self.updates: list[Update] = []

    # -- parsing -------------------------------------------------------------------------------
    def ball(self, word: str) -> str:
        return self.struck if word == "cue" else word

    def items_for(self, script: str) -> list[LogItem]:
        out: list[LogItem] = []
        for raw in script.split(";"):
            words = raw.split()
            if not words:
                continue
            self.t += 0.5
            item = self.item(words)
            if item is not None:
                out.append(item)
        return out

    def event(self, type_: str, objects: list[str], where: str | None = None, **data: Any) -> TableEvent:
        return TableEvent(t=self.t, type=EventType(type_), objects=tuple(objects), where=where, data=data)

    def item(self, w: list[str]) -> LogItem | None:
        head, args = w[0], w[1:]
        at = [point(a) for a in args if a.startswith("@")]
        words = [a for a in args if not a.startswith("@")]
        if head == "toss":
            return HumanInput(self.t, "break_winner", {"player": words[0]})
        if head == "coin":
            return HumanInput(self.t, "coin_toss", {"winner": words[0], "choice": words[1] if len(words) > 1 else "break"})
        if head == "!":
            data = {k: value(v) for k, _, v in (a.partition("=") for a in words[1:])}
            return HumanInput(self.t, words[0], data)
        if head == "break":
            red_first = "red" in words
            self.struck = "red" if red_first else CUE
            other = CUE if red_first else "red"
            pos = at[0] if at else list(CENTRE)
            return self.event("shot_start", [self.struck], position=pos,
                              positions={self.struck: pos, other: list(SPOT)})
        if head == "shot":
            self.struck = {"red": "red", "white": CUE}.get(words[0], words[0])
            return self.event("shot_start", [self.struck], position=at[0] if at else list(IN_D))
        if head == "hit":
            objs = [self.ball(words[0])] if len(words) == 1 else [self.ball(words[0]), self.ball(words[1])]
            return self.event("contact", [self.struck, *objs] if len(words) == 1 else objs)
        if head == "pot":
            return self.event("pot", [self.ball(words[0])], hole(words[1]))
        if head == "late":
            delay = float(words[2].lstrip("+")) if len(words) > 2 else 2.0
            self.t = self.rest_t + delay
            return self.event("pot", [self.ball(words[0])], hole(words[1]), late=True)
        if head == "fall":
            return self.event("pin_fall", [pin(words[0])])
        if head == "nudge":
            return self.event("pin_moved", [pin(words[0])], position=point(words[1]))
        if head == "cushion":
            ball = self.ball(words[0]) if len(words) > 1 else self.struck
            return self.event("cushion", [ball], CUSHIONS.get(words[-1], words[-1]))
        if head == "baulk":
            return self.event("baulk_entry", [self.ball(words[0]) if words else self.struck], "baulk")
        if head == "off":
            return self.event("off_table", [self.ball(words[0])], returned="back" in words)
        if head == "rest":
            self.rest_t = self.t
            positions = {self.ball(k): point(v) for k, _, v in (a.partition("@") for a in words)}
            rest = self.event("at_rest", [])
            return TableEvent(t=rest.t, type=rest.type, data={"positions": positions}) if positions else rest
        if head in ("place", "remove", "move"):
            kind = {"place": "placed", "remove": "removed", "move": "moved"}[head]
            obj = pin(words[0]) if words[0][0].isdigit() else self.ball(words[0])
            event = self.event(kind, [obj])
            return TableEvent(t=event.t, type=event.type, objects=event.objects, data={"position": at[0]}) if at else event
        if head == "wait":
            self.t += float(words[0])
            return None
        raise ValueError(f"unknown notation word {head!r}")

    # -- running ----------------------------------------------------------------------------------
    def play(self, script: str) -> list[Update]:
        """Apply every item; a refused item fails the test with the referee's question."""
        out: list[Update] = []
        for item in self.items_for(script):
            out.extend(self.apply(item))
        return out

    def apply(self, item: LogItem) -> list[Update]:
        updates = self.engine.apply(item)
        self.items.append(item)
        self.updates.extend(updates)
        return updates

    def refuse(self, script: str, match: str) -> RefereeError:
        """The last item of ``script`` must be refused (the ones before it are applied)."""
        items = self.items_for(script)
        for item in items[:-1]:
            self.apply(item)
        before = self.engine.state_json()
        with pytest.raises(RefereeError, match=match) as info:
            self.engine.apply(items[-1])
        assert self.engine.state_json() == before
        return info.value

    # -- reading ----------------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        return self.engine.state

    def scores(self) -> dict[str, int]:
        return self.engine.scores()


def kinds(updates: list[Update], kind: UpdateKind) -> list[Update]:
    return [u for u in updates if u.kind is kind]


def fouls(updates: list[Update], *, applied_only: bool = False) -> list[str]:
    return [str(u.code) for u in updates if u.kind is UpdateKind.FOUL and (u.data.get("applied") or not applied_only)]


def instructions(updates: list[Update]) -> list[str]:
    return [str(u.code) for u in updates if u.kind is UpdateKind.INSTRUCTION]


def score_sum(updates: list[Update]) -> dict[str, int]:
    """The per-player sum of SCORE updates, players at zero left out (compare with ``nonzero``)."""
    totals: dict[str, int] = {}
    for u in updates:
        if u.kind is UpdateKind.SCORE and u.player is not None and u.points:
            totals[u.player] = totals.get(u.player, 0) + u.points
    return {k: v for k, v in totals.items() if v}


def nonzero(scores: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in scores.items() if v}


# -- the notation itself ---------------------------------------------------------------------------


def test_notation_turns_words_into_the_event_vocabulary() -> None:
    table = Table()
    items = table.items_for("toss home; break; hit red; pot red 100; cushion top; rest cue@900,300")
    assert [getattr(i, "kind", None) or i.type.value for i in items] == [  # type: ignore[union-attr]
        "break_winner", "shot_start", "contact", "pot", "cushion", "at_rest"]
    start = items[1]
    assert isinstance(start, TableEvent) and start.objects == (CUE,) and start.data["positions"]["red"] == tuple(SPOT)
    assert isinstance(items[3], TableEvent) and items[3].where == "hole-100"
    assert isinstance(items[5], TableEvent) and items[5].data["positions"][CUE] == (900.0, 300.0)
    assert [i.t for i in items] == sorted(i.t for i in items)


def test_notation_refuses_words_it_does_not_know() -> None:
    with pytest.raises(ValueError, match="unknown notation word"):
        Table().items_for("juggle red")
