"""A compact text notation for All-Fours hands, so tests and hand-written logs read like the game.

Items are separated by ``;``; times are 1, 2, 3, ... seconds in order::

    deal S; kick 6H; stand; E:3H N:10H W:JH S:AH; S:2C E:KC ...

=========================  ==========================================================================
notation                   log item
=========================  ==========================================================================
``deal S``                 input ``deal`` with ``dealer`` (omit the seat after the first deal)
``new_game [S]``           input ``new_game``
``kick 6H``                event ``card_kicked``
``stand`` / ``beg``        inputs ``stand`` / ``beg``
``give`` / ``run``         inputs ``give`` / ``run_pack``
``blind``                  input ``blind_stand``
``E:3H N:10H``             events ``card_played`` (seat letter or name, then the card)
``W:5C+KD``                two cards landing together: ``5C`` at the bottom (order 0), ``KD`` on top
``back E:3H``              event ``card_retrieved``
``sing A`` / ``sing S AH``  input ``sing`` by a team, or by a seat showing sure-point cards
``hands S=AH,2H E=...``    input ``hands``
``!kind key=value ...``    any input; values are JSON where they parse (``true``, ``2``), lists by commas
=========================  ==========================================================================
"""

from __future__ import annotations

import json
from typing import Any

from tableref.events import EventType, HumanInput, LogItem, TableEvent
from tableref.referee.all_fours_cards import parse_card, parse_seat
from tableref.referee.base import Engine, Update

_SIMPLE = {"stand": "stand", "beg": "beg", "give": "give", "run": "run_pack", "blind": "blind_stand"}


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    if "," in text:
        return [v for v in text.split(",") if v]
    return text


def _plays(words: list[str], t: float) -> list[LogItem]:
    items: list[LogItem] = []
    for word in words:
        seat_text, sep, cards = word.partition(":")
        if not sep:
            raise ValueError(f"{word!r}: a play is SEAT:CARD such as E:3H (or an item keyword)")
        seat = parse_seat(seat_text)
        parts = cards.split("+")
        for order, card in enumerate(parts):
            data: dict[str, Any] = {"card": parse_card(card), "seat": seat}
            if len(parts) > 1:
                data["order"] = order
            items.append(TableEvent(t=t, type=EventType.CARD_PLAYED, objects=(data["card"],), data=data))
            t += 1.0
    return items


def parse(text: str, start: float = 1.0) -> list[LogItem]:
    """The log items a notation string stands for, timed ``start``, ``start + 1``, ..."""
    items: list[LogItem] = []
    t = start
    for chunk in text.split(";"):
        words = chunk.split()
        if not words:
            continue
        head, rest = words[0], words[1:]
        key = head.lower()
        new: list[LogItem]
        if key in ("deal", "new_game"):
            data = {"dealer": parse_seat(rest[0])} if rest else {}
            new = [HumanInput(t=t, kind=key, data=data)]
        elif key == "kick":
            card = parse_card(rest[0])
            new = [TableEvent(t=t, type=EventType.CARD_KICKED, objects=(card,), data={"card": card})]
        elif key in _SIMPLE:
            new = [HumanInput(t=t, kind=_SIMPLE[key])]
        elif key == "back":
            seat_text, _, card_text = rest[0].partition(":")
            card = parse_card(card_text)
            data = {"card": card, "seat": parse_seat(seat_text)}
            new = [TableEvent(t=t, type=EventType.CARD_RETRIEVED, objects=(card,), data=data)]
        elif key == "sing":
            who = rest[0]
            data = {"team": who.upper()} if who.upper() in ("A", "B") else {"seat": parse_seat(who)}
            if len(rest) > 1:
                data["cards"] = [parse_card(c) for c in rest[1:]]
            new = [HumanInput(t=t, kind="sing", data=data)]
        elif key == "hands":
            data = {}
            for word in rest:
                seat_text, _, cards = word.partition("=")
                data[parse_seat(seat_text)] = [parse_card(c) for c in cards.split(",") if c]
            new = [HumanInput(t=t, kind="hands", data=data)]
        elif head.startswith("!"):
            data = {}
            for word in rest:
                name, sep, value = word.partition("=")
                if not sep:
                    raise ValueError(f"{word!r}: input fields are key=value")
                data[name] = _value(value)
            new = [HumanInput(t=t, kind=head[1:], data=data)]
        else:
            new = _plays(words, t)
        items.extend(new)
        t += len(new)
    return items


def run(engine: Engine[Any], text: str) -> list[Update]:
    """Apply a notation string to an engine (timed after what it has already seen); the updates."""
    out: list[Update] = []
    for item in parse(text, start=float(len(engine.log) + 1)):
        out.extend(engine.apply(item))
    return out
