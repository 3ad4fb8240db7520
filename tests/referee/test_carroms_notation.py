"""A compact notation for carrom strikes, so the rule tests read like the game (python-chess's lesson).

``strike(engine, "S -> W3; pot W3 TL")`` plays one strike for the seat on turn: a ``shot_start``,
a forward crossing of that seat's front baseline, the listed events, and an ``at_rest``.

Tokens, separated by ``;``:

* ``@ok`` / ``@circle`` / ``@moon`` / ``@off`` / ``@x,y``: where the striker stood (``shot_start``
  ``position``): touching both lines, covering an end circle, cutting the moon, touching only the
  front line, or a point in mm. Without one the position is not sent (not judged).
* ``S -> W3`` (a chain ``S -> W3 -> B2`` is two contacts): objects touching. ``S`` striker, ``Q``
  queen, ``W3``/``B3`` white-3/black-3, ``W``/``B`` a white/black piece with no id.
* ``pot W3 TL``: W3 drops in the top-left pocket (``TL TR BR BL``; the pocket may be left out).
* ``cross`` / ``cross back`` / ``nocross``: the striker crosses its front baseline forward /
  backward / not at all. With none of these a forward crossing follows the shot_start.
* ``cushion S bottom``, ``off W3`` (left the board), ``off W3 back`` (came back by itself).
* ``foul CODE``: the referee enters a foul during the strike; ``norest``: stop before at_rest.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from tableref.events import EventType, HumanInput, LogItem, TableEvent
from tableref.referee import RefereeError, Update, UpdateKind
from tableref.referee.carroms import CarromsEngine

POCKETS = {"TL": "pocket-top-left", "TR": "pocket-top-right", "BR": "pocket-bottom-right", "BL": "pocket-bottom-left"}


def obj(token: str) -> str:
    """``S`` -> striker, ``Q`` -> queen, ``W3`` -> white-3, ``B`` -> black."""
    token = token.strip()
    if token == "S":
        return "striker"
    if token == "Q":
        return "queen"
    colour = {"W": "white", "B": "black"}.get(token[:1])
    if colour is None:
        raise ValueError(f"unknown piece token {token!r}")
    return f"{colour}-{token[1:]}" if token[1:] else colour


def spot(engine: CarromsEngine, seat: str, where: str) -> list[float]:
    """A striker position on ``seat``'s baseline: ok, circle, moon or off (see the module doc)."""
    line = engine.geometry.baselines[seat]
    ux, uy = line.along
    nx, ny = line.behind
    along, behind = {
        "ok": (line.length / 2, line.gap / 2),
        "circle": (0.0, line.gap / 2),
        "moon": (25.0, line.gap / 2),
        "off": (line.length / 2, -12.0),
    }[where]
    return [round(line.front_a[0] + ux * along + nx * behind, 2), round(line.front_a[1] + uy * along + ny * behind, 2)]


def _clock(engine: CarromsEngine) -> float:
    return round(0.5 * (len(engine.log) + 1), 2)


def feed(engine: CarromsEngine, item: LogItem) -> list[Update]:
    return engine.apply(item)


def events_of(engine: CarromsEngine, text: str, *, positions: Mapping[str, list[float]] | None = None,
              rest_positions: Mapping[str, list[float]] | None = None) -> list[TableEvent | HumanInput]:
    """The log items one strike's notation stands for (the seat on turn is read from the engine)."""
    seat = engine.state["turn"] or "south"
    tokens = [t.strip() for t in text.split(";") if t.strip()]
    start_data: dict[str, Any] = {}
    if positions is not None:
        start_data["positions"] = dict(positions)
    body: list[tuple[str, Any]] = []
    crossing = "auto"
    rest = True
    for tok in tokens:
        words = tok.split()
        if tok.startswith("@"):
            where = tok[1:]
            if "," in where:
                x, y = where.split(",")
                start_data["position"] = [float(x), float(y)]
            else:
                start_data["position"] = spot(engine, seat, where)
        elif "->" in tok:
            chain = [obj(p) for p in tok.split("->")]
            body += [("contact", (a, b)) for a, b in zip(chain, chain[1:], strict=False)]
        elif words[0] == "pot":
            body.append(("pot", (obj(words[1]), POCKETS[words[2]] if len(words) > 2 else None)))
        elif words[0] == "cross":
            crossing = "explicit"
            body.append(("cross", "backward" if words[1:] == ["back"] else "forward"))
        elif words[0] == "nocross":
            crossing = "none"
        elif words[0] == "cushion":
            body.append(("cushion", (obj(words[1]), f"cushion-{words[2]}" if len(words) > 2 else None)))
        elif words[0] == "off":
            body.append(("off", (obj(words[1]), words[2:] == ["back"])))
        elif words[0] == "foul":
            body.append(("foul", words[1]))
        elif words[0] == "norest":
            rest = False
        elif words[0] == "rest":
            pass
        else:
            raise ValueError(f"unknown strike token {tok!r}")
    t = _clock(engine)
    items: list[TableEvent | HumanInput] = [TableEvent(t=t, type=EventType("shot_start"), objects=("striker",), data=start_data)]
    if crossing == "auto":
        body.insert(0, ("cross", "forward"))
    for n, (kind, arg) in enumerate(body, start=1):
        tt = round(t + 0.01 * n, 3)
        if kind == "contact":
            items.append(TableEvent(t=tt, type=EventType("contact"), objects=arg))
        elif kind == "pot":
            items.append(TableEvent(t=tt, type=EventType("pot"), objects=(arg[0],), where=arg[1]))
        elif kind == "cross":
            items.append(TableEvent(t=tt, type=EventType("baseline_cross"), objects=("striker",), where=f"baseline-{seat}",
                                    data={"direction": arg}))
        elif kind == "cushion":
            items.append(TableEvent(t=tt, type=EventType("cushion"), objects=(arg[0],), where=arg[1]))
        elif kind == "off":
            items.append(TableEvent(t=tt, type=EventType("off_table"), objects=(arg[0],), data={"returned": arg[1]}))
        else:
            items.append(HumanInput(t=tt, kind="add_foul", data={"code": arg}))
    if rest:
        data = {"positions": dict(rest_positions)} if rest_positions is not None else {}
        items.append(TableEvent(t=round(t + 0.3, 3), type=EventType("at_rest"), data=data))
    return items


def strike(engine: CarromsEngine, text: str = "", **kwargs: Any) -> list[Update]:
    """Play one strike in the notation; returns every update it produced."""
    out: list[Update] = []
    for item in events_of(engine, text, **kwargs):
        out += engine.apply(item)
    return out


def play(engine: CarromsEngine, *texts: str) -> list[Update]:
    out: list[Update] = []
    for text in texts:
        out += strike(engine, text)
    return out


def say(engine: CarromsEngine, kind: str, by: str | None = None, **data: Any) -> list[Update]:
    """A human input from the tablet."""
    return engine.apply(HumanInput(t=_clock(engine), kind=kind, data=data, by=by))


def event(engine: CarromsEngine, type_: str, *objects: str, where: str | None = None, **data: Any) -> list[Update]:
    return engine.apply(TableEvent(t=_clock(engine), type=EventType(type_), objects=objects, where=where, data=data))


def fouls(updates: Iterable[Update]) -> list[str]:
    return [str(u.code) for u in updates if u.kind is UpdateKind.FOUL]


def codes(updates: Iterable[Update], kind: UpdateKind | None = None) -> list[str]:
    return [str(u.code) for u in updates if kind is None or u.kind is kind]


def of_kind(updates: Iterable[Update], kind: UpdateKind) -> list[Update]:
    return [u for u in updates if u.kind is kind]


def singles(**options: Any) -> CarromsEngine:
    """Ann (south, breaks with white) against Bob (north), the central group already broken."""
    engine = CarromsEngine(**options)
    say(engine, "players", south="Ann", north="Bob")
    say(engine, "break_winner", seat="south")
    strike(engine, "S -> W1 -> B1")  # the break: the group is disturbed, nothing drops, Bob to strike
    strike(engine, "")  # Bob misses: back to Ann
    return engine


def turn(engine: CarromsEngine) -> str:
    return str(engine.state["turn"])


def on_board(engine: CarromsEngine) -> dict[str, int]:
    return dict(engine.state["on_board"])


# -- the notation's own tests -----------------------------------------------------------------------
def test_notation_spells_a_strike_as_events() -> None:
    engine = CarromsEngine()
    items = events_of(engine, "@ok; S -> W3 -> B2; pot W3 TL")
    kinds = [i.type.value if isinstance(i, TableEvent) else i.kind for i in items]
    assert kinds == ["shot_start", "baseline_cross", "contact", "contact", "pot", "at_rest"]
    contact, chain, pot = items[2], items[3], items[4]
    assert isinstance(contact, TableEvent) and isinstance(chain, TableEvent) and isinstance(pot, TableEvent)
    assert contact.objects == ("striker", "white-3") and chain.objects == ("white-3", "black-2")
    assert pot.where == "pocket-top-left"
    json.dumps([i.to_json() for i in items])


def test_notation_places_the_striker_for_the_seat_on_turn() -> None:
    engine = CarromsEngine()
    assert spot(engine, "south", "ok") == [370.0, 622.1]
    assert spot(engine, "north", "ok") == [370.0, 117.9]
    assert spot(engine, "south", "circle") == [135.0, 622.1]
    with pytest.raises(ValueError, match="unknown strike token"):
        events_of(engine, "jump")


def test_notation_without_a_crossing_or_rest() -> None:
    engine = CarromsEngine()
    items = events_of(engine, "nocross; S -> W; norest")
    assert [i.type.value for i in items if isinstance(i, TableEvent)] == ["shot_start", "contact"]
    with pytest.raises(RefereeError):
        engine.apply(TableEvent(t=0.1, type=EventType("contact"), objects=("striker", "white")))
