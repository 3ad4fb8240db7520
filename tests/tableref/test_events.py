"""The event contract: wire form round-trips, is immutable, and bad lines say what is accepted."""

from __future__ import annotations

import dataclasses

import pytest

from tableref.events import EventType, HumanInput, LogFormatError, TableEvent, dumps, parse_line, read_log


def test_event_round_trips_through_its_flat_json_form() -> None:
    line = '{"t":3.2,"frame":96,"type":"pot","objects":["red"],"where":"hole-100","speed":410.5}'
    event = parse_line(line)
    assert isinstance(event, TableEvent)
    assert event.type is EventType.POT and event.objects == ("red",) and event.where == "hole-100"
    assert event.data["speed"] == 410.5
    assert parse_line(dumps(event)) == event


def test_input_round_trips_and_keeps_its_fields() -> None:
    item = parse_line('{"t": 4, "input": "called_shot", "by": "A", "ball": "ball-3", "balls": ["ball-3"]}')
    assert isinstance(item, HumanInput)
    assert item.kind == "called_shot" and item.by == "A" and item.data["balls"] == ("ball-3",)
    assert parse_line(dumps(item)) == item


def test_events_are_immutable_even_inside_data() -> None:
    event = TableEvent(t=1.0, type="at_rest", data={"positions": {"red": [10.0, 20.0]}})
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.t = 2.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        event.data["positions"]["red"] = (0, 0)  # type: ignore[index]


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("{not json", "not valid JSON"),
        ('{"type": "pot"}', "needs 't'"),
        ('{"t": 1, "type": "explosion"}', "accepted: shot_start"),
        ('{"t": 1}', "needs 'type'"),
        ('{"t": 1, "type": "pot", "objects": "red"}', "list of object ids"),
        ('[1, 2]', "JSON object"),
    ],
)
def test_bad_lines_say_what_was_wrong_and_what_is_accepted(line: str, needle: str) -> None:
    with pytest.raises(LogFormatError, match=needle):
        parse_line(line, 7)


def test_read_log_skips_blanks_and_comments_and_names_the_line() -> None:
    text = ["# a match", "", '{"t": 0, "type": "shot_start", "objects": ["white-1"]}', '{"t": "x", "type": "pot"}']
    items = read_log(text[:3])
    assert [i.type for i in items if isinstance(i, TableEvent)] == [EventType.SHOT_START]
    with pytest.raises(LogFormatError, match="line 4"):
        list(read_log(text))
