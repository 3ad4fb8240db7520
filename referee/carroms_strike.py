"""What happened in one strike: the events from ``shot_start`` to ``at_rest`` and small predicates over them.

Why apart from the engine (pooltool's lesson): "what happened" is a pure function of the strike's
events, while "what is allowed next" (a queen awaiting cover, owed penalties, whose turn) lives
in the engine's state. The engine collects a :class:`StrikeRecord`, then asks the predicates here
and gets a frozen :class:`StrikeFacts`; the foul rules read only those facts.

Piece identity: a camera may not keep ids (DESIGN.md), so every predicate works on colours,
taken from the id's prefix (``white-3`` and ``white`` are both white). Ids are used only where
they are known, to refuse a piece pocketed twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tableref.referee.base import RefereeError
from tableref.referee.carroms_geometry import Geometry, Placement

COLOURS: tuple[str, ...] = ("white", "black")
KINDS: tuple[str, ...] = ("white", "black", "queen", "striker")


def colour_of(obj: str, pieces_per_colour: int = 9) -> str:
    """``white``/``black``/``queen``/``striker`` for an object id; RefereeError for anything else."""
    head, sep, tail = obj.partition("-")
    if head in ("queen", "striker") and not sep:
        return head
    if head in COLOURS and (not sep or (tail.isdigit() and 1 <= int(tail) <= pieces_per_colour)):
        return head
    raise RefereeError(
        f"unknown carrom object {obj!r}; accepted: white-1..white-{pieces_per_colour}, "
        f"black-1..black-{pieces_per_colour}, white, black, queen, striker")


def other_colour(colour: str) -> str:
    return "black" if colour == "white" else "white"


@dataclass(frozen=True)
class StrikeEvent:
    """One table event inside a strike, kept to what the rules read (JSON-friendly, immutable)."""

    type: str  # contact, cushion, pot, off_table, baseline_cross
    objects: tuple[str, ...] = ()
    where: str | None = None
    direction: str | None = None  # baseline_cross: forward/backward when the camera knows
    returned: bool = False  # off_table: came back by itself


@dataclass
class StrikeRecord:
    """The strike being played (mutable while it runs; the engine's state holds it)."""

    seat: str
    side: str
    colour: str
    number: int  # strike number on this board, from 1
    break_attempt: int  # 1..3 while breaking, 0 otherwise
    position: list[float] | None  # the striker's centre at shot_start
    start_positions: dict[str, list[float]]
    start_on_board: dict[str, int]  # pieces on the board when struck (white, black, queen)
    events: list[StrikeEvent] = field(default_factory=list)
    rest_positions: dict[str, list[float]] = field(default_factory=dict)
    human_fouls: list[str] = field(default_factory=list)  # foul codes entered on the tablet
    overruled: list[str] = field(default_factory=list)  # foul codes the referee ruled out
    first_contact_override: str | None = None


# -- predicates over the events (each small, named after the question it answers) -----------------
def striker_contacts(events: Sequence[StrikeEvent]) -> list[tuple[int, str]]:
    """(index, object) of every contact the striker made, in order."""
    out: list[tuple[int, str]] = []
    for i, ev in enumerate(events):
        if ev.type == "contact" and "striker" in ev.objects:
            out.extend((i, o) for o in ev.objects if o != "striker")
    return out


def first_contact(events: Sequence[StrikeEvent]) -> tuple[int, str] | None:
    """The striker's first hit (index, object), or None when it touched nothing."""
    contacts = striker_contacts(events)
    return contacts[0] if contacts else None


def pots(events: Sequence[StrikeEvent]) -> list[str]:
    """Objects that dropped, in order (the striker included)."""
    return [o for ev in events if ev.type == "pot" for o in ev.objects]


def striker_potted(events: Sequence[StrikeEvent]) -> bool:
    return "striker" in pots(events)


def queen_potted(events: Sequence[StrikeEvent]) -> bool:
    return "queen" in pots(events)


def potted_of(events: Sequence[StrikeEvent], colour: str) -> int:
    return sum(1 for o in pots(events) if colour_of(o) == colour)


def colour_touched_after(events: Sequence[StrikeEvent], index: int, colour: str) -> bool:
    """Whether any piece of ``colour`` was touched (by anything) or pocketed after event ``index``."""
    for ev in events[index + 1:]:
        if ev.type in ("contact", "pot") and any(colour_of(o) == colour for o in ev.objects):
            return True
    # the first contact event itself may name two pieces (a striker touching two at once)
    first = events[index] if 0 <= index < len(events) else None
    return first is not None and sum(colour_of(o) == colour for o in first.objects) > 0


def first_crossing(events: Sequence[StrikeEvent], seat: str) -> tuple[int, str | None] | None:
    """(index, direction) of the striker's first crossing of ``seat``'s front baseline, if any."""
    own = f"baseline-{seat}"
    for i, ev in enumerate(events):
        if ev.type == "baseline_cross" and ev.where in (own, None) and (not ev.objects or "striker" in ev.objects):
            return i, ev.direction
    return None


def off_board(events: Sequence[StrikeEvent]) -> list[str]:
    """Pieces (not the striker) that left the board and did not come back by themselves."""
    return [o for ev in events if ev.type == "off_table" and not ev.returned for o in ev.objects if o != "striker"]


def hit_before_crossing(events: Sequence[StrikeEvent], seat: str, crossing_events: bool) -> list[str]:
    """Pieces the striker touched before it crossed its front baseline (Striking.5).

    With crossing events, "before" is before the first ``baseline_cross``. Without them (a venue whose
    camera does not report crossings) the only hit that can come before crossing is the striker's
    very first one, with no cushion before it: a piece behind the line may still be played off a
    rebound, as the rule book's doubles section says.
    """
    hits = striker_contacts(events)
    if crossing_events:
        crossing = first_crossing(events, seat)
        limit = crossing[0] if crossing else len(events)
        return [o for i, o in hits if i < limit]
    if not hits:
        return []
    i0, _ = hits[0]
    rebound = any(ev.type == "cushion" and "striker" in ev.objects for ev in events[:i0])
    return [] if rebound else [o for i, o in hits if i == i0]


@dataclass(frozen=True)
class StrikeFacts:
    """The answers to the rule book's questions about one strike, for the player who struck."""

    own: str
    opponent: str
    first_contact: str | None
    first_contact_colour: str | None
    own_touched_after_first: bool
    own_potted: int
    opponent_potted: int
    queen_potted: bool
    striker_potted: bool
    crossed_forward: bool | None  # None: crossing not judged at this venue
    hit_behind_line: tuple[str, ...]
    off_board: tuple[str, ...]
    placement: Placement
    disturbed: bool  # the central group moved (break attempts)
    striker_under: bool


def strike_facts(rec: StrikeRecord, geo: Geometry, crossing_events: bool) -> StrikeFacts:
    """Evaluate every predicate once for a finished strike."""
    events = rec.events
    own, opp = rec.colour, other_colour(rec.colour)
    first = first_contact(events)
    first_obj: str | None = first[1] if first else None
    if rec.first_contact_override is not None:
        first_obj = rec.first_contact_override or None
    first_colour = colour_of(first_obj) if first_obj else None
    touched_after = False
    if first is not None:
        touched_after = colour_touched_after(events, first[0], own)
    elif first_obj is not None:
        touched_after = any(ev.type in ("contact", "pot") and any(colour_of(o) == own for o in ev.objects)
                            for ev in events)
    crossed: bool | None = None
    if crossing_events:
        crossing = first_crossing(events, rec.seat)
        crossed = crossing is not None and (crossing[1] in (None, "forward", "in"))
    crossed_later = crossing_events and first_crossing(events, rec.seat) is not None
    behind = tuple(o for o in hit_before_crossing(events, rec.seat, crossing_events)
                   if _behind_line(geo, rec, o, crossed_later))
    potted = pots(events)
    disturbed = (bool(striker_contacts(events)) or any(o != "striker" for o in potted)
                 or geo.moved(rec.start_positions, rec.rest_positions))
    return StrikeFacts(
        own=own, opponent=opp, first_contact=first_obj, first_contact_colour=first_colour,
        own_touched_after_first=touched_after,
        own_potted=potted_of(events, own), opponent_potted=potted_of(events, opp),
        queen_potted=queen_potted(events), striker_potted=striker_potted(events),
        crossed_forward=crossed, hit_behind_line=behind, off_board=tuple(off_board(events)),
        placement=geo.placement(rec.seat, rec.position), disturbed=disturbed,
        striker_under=geo.striker_under_piece(rec.rest_positions),
    )


def _behind_line(geo: Geometry, rec: StrikeRecord, obj: str, crossed_later: bool) -> bool:
    """Whether a piece hit before the crossing lay on or behind the front line.

    With its position known, the geometry says. Unknown, only a hit followed by the crossing counts
    (the striker was still behind its line when it touched the piece, so the piece was at the line);
    a striker that never crossed is already the not-forward foul, and with neither crossing events
    nor positions nothing can be judged (the referee enters the call).
    """
    where = rec.start_positions.get(obj)
    return crossed_later if where is None else geo.on_or_behind_front_line(rec.seat, where)


def positions_of(data: Mapping[str, Any], key: str = "positions") -> dict[str, list[float]]:
    """``{id: [x, y]}`` from an event's data, checked; RefereeError names what is wrong."""
    raw = data.get(key)
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise RefereeError(f"'{key}' must map object ids to [x_mm, y_mm], got {type(raw).__name__}")
    out: dict[str, list[float]] = {}
    for obj, p in raw.items():
        out[str(obj)] = point_of(p, f"{key}.{obj}")
    return out


def point_of(p: Any, what: str) -> list[float]:
    if (isinstance(p, str) or not isinstance(p, Sequence) or len(p) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in p)):
        raise RefereeError(f"{what} must be a position [x_mm, y_mm], got {p!r}")
    return [float(p[0]), float(p[1])]
