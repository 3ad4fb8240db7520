"""What happened in a shot (small named predicates) and which fouls that makes (the judgement).

pooltool style: the engine collects a shot's events from ``shot_start`` to ``at_rest``; at rest
:func:`shot_info` evaluates the predicates below into a frozen :class:`ShotInfo` ("what
happened"), and :func:`judge` turns it, with the constraints fixed at the strike (break-off,
endgame, red in the trough, ...), into the list of fouls. Nothing here changes the state.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tableref.referee.bar_billiards_rules import FOULS, PENALTY_RANK, Foul, Penalty
from tableref.referee.bar_billiards_state import Call, Pin, Pot, Shot, ShotEvent, ShotKind
from tableref.referee.bar_billiards_venue import Venue, is_ball

# -- filters ---------------------------------------------------------------------------------


def by_type(events: Iterable[ShotEvent], *types: str) -> list[ShotEvent]:
    return [e for e in events if e.type in types]


def involving(events: Iterable[ShotEvent], obj: str) -> list[ShotEvent]:
    return [e for e in events if obj in e.objects]


def before(events: Iterable[ShotEvent], t: float) -> list[ShotEvent]:
    return [e for e in events if e.t <= t]


# -- predicates ------------------------------------------------------------------------------


def first_hit(events: list[ShotEvent], struck: str) -> str | None:
    """The first object the struck ball touched (a ball or a pin), ``None`` if nothing."""
    for e in involving(by_type(events, "contact"), struck):
        others = [o for o in e.objects if o != struck]
        if others:
            return others[0]
    return None


def struck_hit_ball(events: list[ShotEvent], struck: str, target: str | None = None) -> bool:
    """3b(d)/2b(a): the struck ball touched another ball (``target`` only, when given) at any time."""
    for e in involving(by_type(events, "contact"), struck):
        for o in e.objects:
            if o != struck and is_ball(o) and (target is None or o == target):
                return True
    return False


def touched(events: list[ShotEvent], struck: str) -> set[str]:
    """Objects set moving by the play (2f): the struck ball and everything in a contact."""
    out = {struck}
    for e in by_type(events, "contact"):
        out.update(e.objects)
    return out


def pins_fallen(events: list[ShotEvent]) -> list[str]:
    return [o for e in by_type(events, "pin_fall") for o in e.objects]


def pins_moved(events: list[ShotEvent]) -> list[str]:
    return [o for e in by_type(events, "pin_moved") for o in e.objects]


def baulk_entries(events: list[ShotEvent]) -> list[str]:
    return [o for e in by_type(events, "baulk_entry") for o in e.objects]


def left_table(events: list[ShotEvent], *, returned: bool) -> list[str]:
    return [o for e in by_type(events, "off_table") for o in e.objects if bool(e.data.get("returned")) is returned]


def cushion_before(events: list[ShotEvent], ball: str, t: float, cushions: Iterable[str]) -> bool:
    """2i(d)/(e): the ball struck a real cushion (not the scoreboard edge) at or before ``t``."""
    allowed = set(cushions) - {"scoreboard"}
    return any(e.where in allowed for e in before(involving(by_type(events, "cushion"), ball), t))


def hit_scoreboard(events: list[ShotEvent], ball: str) -> bool:
    return any(e.where == "scoreboard" for e in involving(by_type(events, "cushion"), ball))


@dataclass(frozen=True)
class ShotInfo:
    """What happened in one shot, evaluated once at rest."""

    kind: ShotKind
    struck: str
    colour: str
    first_hit: str | None
    hit_ball: bool
    hit_object_ball: bool
    scored_pots: tuple[Pot, ...]
    replaced: tuple[Pot, ...]
    pins_fallen: tuple[str, ...]
    pins_moved: tuple[str, ...]
    baulk: tuple[str, ...]
    left: tuple[str, ...]
    came_back: tuple[str, ...]
    touched_person: tuple[str, ...]
    struck_potted: bool
    cushion_first: bool  # endgame: a cushion before the pot (or at all, when not potted)
    scoreboard: bool

    def points(self, venue: Venue) -> int:
        return sum(venue.value(p.hole, p.colour) for p in self.scored_pots)


def shot_info(shot: Shot, venue: Venue) -> ShotInfo:
    ev = shot.events
    struck_pot = next((p for p in shot.pots if p.id == shot.struck and not p.replaced), None)
    end_t = struck_pot.t if struck_pot is not None else float("inf")
    return ShotInfo(
        kind=shot.kind,
        struck=shot.struck,
        colour=shot.colour,
        first_hit=first_hit(ev, shot.struck),
        hit_ball=struck_hit_ball(ev, shot.struck),
        hit_object_ball=shot.object_ball is not None and struck_hit_ball(ev, shot.struck, shot.object_ball),
        scored_pots=tuple(p for p in shot.pots if not p.replaced),
        replaced=tuple(p for p in shot.pots if p.replaced),
        pins_fallen=tuple(pins_fallen(ev)),
        pins_moved=tuple(pins_moved(ev)),
        baulk=tuple(dict.fromkeys(baulk_entries(ev))),
        left=tuple(left_table(ev, returned=False)),
        came_back=tuple(left_table(ev, returned=True)),
        touched_person=tuple(shot.touched_person),
        struck_potted=struck_pot is not None,
        cushion_first=cushion_before(ev, shot.struck, end_t, venue.cushions),
        scoreboard=hit_scoreboard(ev, shot.struck),
    )


# -- the judgement ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FoulFound:
    code: Foul
    player: str
    data: tuple[tuple[str, Any], ...] = ()

    @property
    def penalty(self) -> Penalty:
        return FOULS[self.code].penalty

    def data_dict(self) -> dict[str, Any]:
        return dict(self.data)


def _pin_foul(pin: Pin, venue: Venue, player: str) -> FoulFound:
    """3a(a)/3b(a): the penalty follows the hole the pin guards, whatever its colour (rule 6 note)."""
    code = Foul.PIN_200_DOWN if pin.hole == venue.score_wiping_hole else Foul.PIN_DOWN
    value = venue.hole_values.get(pin.hole, 0)
    return FoulFound(code, player, (("pin", pin.id), ("colour", pin.colour), ("hole", str(value))))


def judge(info: ShotInfo, shot: Shot, pins: list[Pin], venue: Venue) -> list[FoulFound]:
    """Every foul of the shot, the one that costs most first (rule 3: the highest penalty applies)."""
    who = shot.striker
    found: list[FoulFound] = []
    by_id = {p.id: p for p in pins}
    for pin_id in dict.fromkeys(info.pins_fallen):
        found.append(_pin_foul(by_id[pin_id], venue, who))
    if info.kind is ShotKind.BREAK:
        if not info.hit_object_ball and Foul.BREAK_WRONG_WAY_ROUND.value not in shot.start_fouls:
            found.append(FoulFound(Foul.BREAK_MISSED_RED, who))
    elif info.kind is ShotKind.NORMAL:
        if not info.hit_ball:
            found.append(FoulFound(Foul.MISS, who))
    else:
        if info.struck_potted and not info.cushion_first:
            found.append(FoulFound(Foul.ENDGAME_POT_WITHOUT_CUSHION, who))
        elif not info.cushion_first:
            found.append(FoulFound(Foul.ENDGAME_NO_CUSHION, who))
        if info.scoreboard:
            found.append(FoulFound(Foul.ENDGAME_SCOREBOARD, who))
        if info.left or info.came_back:
            found.append(FoulFound(Foul.ENDGAME_LEFT_TABLE, who))
    if info.baulk:
        found.append(FoulFound(Foul.BALL_IN_BAULK, who, (("balls", ",".join(info.baulk)),)))
    if info.left:
        found.append(FoulFound(Foul.OFF_TABLE, who))
    if info.touched_person:
        found.append(FoulFound(Foul.BALL_TOUCHED_PERSON, who))
    for code in shot.start_fouls:
        found.append(FoulFound(Foul(code), who))
    found.extend(_calls(shot.calls, who))
    found = [f for f in found if f.code.value not in shot.overruled]
    unique: dict[Foul, FoulFound] = {}
    for f in found:
        unique.setdefault(f.code, f)
    return sorted(unique.values(), key=lambda f: -PENALTY_RANK[f.penalty])


def _calls(calls: list[Call], striker: str) -> list[FoulFound]:
    return [FoulFound(Foul(c.code), c.player or striker) for c in calls]


def break_signature(info: ShotInfo) -> str:
    """2b(d): where a break-off sent the two balls (the holes), the camera's proxy for 'the same shot'."""
    white = next((p.hole for p in info.scored_pots if p.colour == "white"), "-")
    red = next((p.hole for p in info.scored_pots if p.colour == "red"), "-")
    return f"white:{white}|red:{red}"
