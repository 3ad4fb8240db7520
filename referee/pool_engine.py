"""What both pool referees share: collecting a shot, hand events, common inputs, revising a ruling.

A pool shot is judged once, at ``at_rest``, over everything seen since its ``shot_start``
(:mod:`pool_shot` holds the predicates). This base does the collecting and the checks every pool
game needs, so each game's module holds only its rules (``_judge``):

* **Impossible events** become :class:`RefereeError` (a question for the human referee), and the
  base engine leaves the state as it was: a pot of a ball that is not on the table (already potted,
  or a pot from an empty table), an event of a shot that never started, a new shot before the last
  came to rest, an unknown pocket or ball id.
* **A ruling can be revised** while play has not gone on. DESIGN.md says a ball that teeters and
  drops after the rest still belongs to that shot; the referee may also cancel a foul the camera
  called (``overrule`` with ``"foul": false``) or add one it cannot see (``add_foul``: a touched
  ball, a push). The state before the shot is kept, the shot is judged again with the correction,
  and the score changes go out as *differences*, so ``scores()`` still equals the sum of every
  ``SCORE`` update ever sent. The chance to revise ends with the next shot or call.
* **Hand events** (``placed``, ``moved``, ``removed``) between shots only move balls the rules
  already put there; only the game decides what a hand may add to the table.

Inputs common to both games: ``players``, ``break_winner``, ``add_foul``, ``overrule``, and ``setup``
(a rack already in progress: the balls on the table, the player at the table, the scores; checked in
:mod:`pool_setup`, each game adding what its rules keep besides, ``_setup_game``).
"""

from __future__ import annotations

import copy
from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from tableref.events import EventType, HumanInput, LogItem, TableEvent, from_json, thaw
from tableref.referee.base import Engine, RefereeError, Update, UpdateKind
from tableref.referee.pool_setup import parse_pool_setup
from tableref.referee.pool_shot import Shot, off_table, potted, rest_positions, start_positions
from tableref.referee.pool_table import (
    BALLS,
    Point,
    PoolGeometry,
    as_point,
    ball_id,
    ball_number,
    positions_of,
)


class Phase(StrEnum):
    BREAK = "break"  # the next shot is a break
    PLAY = "play"
    OVER = "over"  # the game (or match) is over: nothing more is accepted but corrections


@dataclass
class PoolCore:
    """The rule-relevant state both games share (each game's core extends it)."""

    players: list[str] = field(default_factory=lambda: ["A", "B"])
    turn: str = "A"  # the player at the table
    breaker: str = "A"
    phase: Phase = Phase.BREAK
    on_table: set[int] = field(default_factory=lambda: set(BALLS))
    positions: dict[str, Point] = field(default_factory=dict)  # last known, table mm
    scores: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    started: bool = False  # a shot has been played: the players and the first breaker are fixed
    winner: str | None = None
    result: str = ""  # why the game ended

    def next_player(self, player: str | None = None) -> str:
        who = self.turn if player is None else player
        return self.players[(self.players.index(who) + 1) % len(self.players)]


C = TypeVar("C", bound=PoolCore)


@dataclass
class OpenShot:
    events: list[dict[str, Any]]  # shot_start first, then contacts, cushions, pots, off_table
    fouls: list[str] = field(default_factory=list)  # fouls the referee added while balls rolled


@dataclass
class LastShot(Generic[C]):
    """The last judged shot, kept until play goes on so its ruling can be revised."""

    before: C
    events: list[dict[str, Any]]  # shot_start ... at_rest
    cancelled: bool = False  # the referee cancelled the camera's fouls
    fouls: list[str] = field(default_factory=list)  # fouls the referee added
    hand: list[dict[str, Any]] = field(default_factory=list)  # hand events since the rest


@dataclass
class PoolState(Generic[C]):
    core: C
    shot: OpenShot | None = None
    last: LastShot[C] | None = None


@dataclass(frozen=True)
class Ruling:
    """What the human referee adds to the camera's facts when a shot is judged."""

    cancel_camera_fouls: bool = False
    extra_fouls: tuple[str, ...] = ()


# -- update builders: text always comes from a code's table, never free-form --------------------
def foul_update(code: StrEnum, clause: str, text: str, player: str, points: int, penalty: str,
                **data: Any) -> Update:
    return Update(UpdateKind.FOUL, text, code=code.value, clause=clause, player=player, points=points,
                  data={"penalty": penalty, **data})


def score_update(player: str, points: int, code: StrEnum | str, clause: str | None, text: str,
                 **data: Any) -> Update:
    value = code.value if isinstance(code, StrEnum) else code
    return Update(UpdateKind.SCORE, text, code=value, clause=clause, player=player, points=points, data=data)


def turn_update(player: str, text: str, **data: Any) -> Update:
    return Update(UpdateKind.TURN, text, code="turn", player=player, data=data)


def instruction(code: StrEnum, text: str, player: str | None = None, clause: str | None = None,
                **data: Any) -> Update:
    return Update(UpdateKind.INSTRUCTION, text, code=code.value, clause=clause, player=player, data=data)


def info(code: str, text: str, player: str | None = None, **data: Any) -> Update:
    return Update(UpdateKind.INFO, text, code=code, player=player, data=data)


def names(balls: Any) -> str:
    """``[3, 11]`` -> ``"ball-3, ball-11"`` for tablet sentences."""
    return ", ".join(ball_id(b) if isinstance(b, int) else str(b) for b in balls)


COMMON_INPUTS: tuple[str, ...] = ("players", "break_winner", "add_foul", "overrule", "setup")


class PoolEngine(Engine[PoolState[C]], Generic[C]):
    """Base of the pool referees. A game implements ``_new_core``, ``_judge``, ``_start_shot``,
    ``_outcome`` and its own inputs in ``_game_input``."""

    player_counts: ClassVar[tuple[int, ...]] = (2,)
    foul_enum: ClassVar[type[StrEnum]]
    game_inputs: ClassVar[tuple[str, ...]] = ()
    setup_keys: ClassVar[tuple[str, ...]] = ()  # a game's own setup fields
    negative_scores: ClassVar[bool] = False

    geometry: PoolGeometry

    # -- what a game implements -----------------------------------------------------------------
    @abstractmethod
    def _new_core(self) -> C: ...

    @abstractmethod
    def _judge(self, core: C, shot: Shot, ruling: Ruling) -> list[Update]:
        """Apply one finished shot to ``core`` (positions at rest already recorded) and say what follows."""

    @abstractmethod
    def _start_shot(self, core: C, struck: int, event: TableEvent) -> list[Update]:
        """Check that ``struck`` may be struck now (raise :class:`RefereeError` if not); may update ``core``."""

    def _game_input(self, state: PoolState[C], item: HumanInput) -> list[Update] | None:
        """A game's own inputs; ``None`` means the kind is unknown."""
        return None

    def _hand(self, core: C, event: TableEvent, ball: int) -> list[Update]:
        """A ball placed, moved or removed by hand between shots (positions are already recorded)."""
        return []

    def _on_players(self, core: C) -> None:
        """The players were named (Colors sets its race length here)."""

    def _adjust_score(self, core: C, player: str, points: int) -> None:
        core.scores[player] += points

    def _turn_given(self, core: C, player: str) -> list[Update]:
        """The referee gave the table to ``player``: what the last shooter owed lapses."""
        return []

    def _validate_options(self, options: Mapping[str, Any]) -> None:
        """Raise ``ValueError`` for a bad venue option value (the name is already known)."""

    def _full_rack(self, on_table: set[int]) -> bool:
        """Every ball a rack starts with is on the table (a setup's default for "the next shot is a break")."""
        return set(BALLS) <= on_table

    def _setup_game(self, core: C, data: Mapping[str, Any], is_break: bool) -> list[Update]:
        """A game's own setup fields, applied to ``core`` (the shared position is already in); may raise."""
        return []

    # -- the base's hooks -----------------------------------------------------------------------
    def _check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        merged = super()._check_options(options)
        self.geometry = PoolGeometry.from_options(merged)
        self._validate_options(merged)
        return merged

    def _initial_state(self) -> PoolState[C]:
        return PoolState(core=self._new_core())

    def _scores(self, state: PoolState[C]) -> dict[str, int]:
        return dict(state.core.scores)

    def _apply(self, state: PoolState[C], item: LogItem) -> list[Update]:
        if isinstance(item, HumanInput):
            return self._on_input(state, item)
        kind = item.type
        if kind is EventType.SHOT_START:
            return self._on_shot_start(state, item)
        if kind in (EventType.CONTACT, EventType.CUSHION, EventType.POT, EventType.OFF_TABLE):
            return self._on_shot_event(state, item)
        if kind is EventType.AT_REST:
            return self._on_rest(state, item)
        if kind in (EventType.PLACED, EventType.MOVED, EventType.REMOVED):
            return self._on_hand(state, item)
        accepted = "shot_start, contact, cushion, pot, off_table, at_rest, placed, moved, removed"
        raise RefereeError(f"a {kind.value} event has no meaning in {self.game}; accepted: {accepted}")

    # -- table events -----------------------------------------------------------------------------
    def _on_shot_start(self, state: PoolState[C], event: TableEvent) -> list[Update]:
        core = state.core
        if state.shot is not None:
            raise RefereeError("a new shot started before the last one came to rest (no at_rest was seen)")
        if core.phase is Phase.OVER:
            raise RefereeError(f"the {self.game} game is over; no more shots are judged")
        if not event.objects:
            raise RefereeError("shot_start must name the struck ball in 'objects', such as ['ball-0']")
        struck = ball_number(event.objects[0])
        core.positions.update(positions_of(event.data))
        updates = self._start_shot(core, struck, event)
        own = as_point(event.data.get("position"))
        if own is not None:
            core.positions[ball_id(struck)] = own
        core.started = True
        state.last = None
        state.shot = OpenShot(events=[event.to_json()])
        return updates

    def _live(self, on_table: set[int], events: list[dict[str, Any]]) -> set[int]:
        """Balls still on the table part-way through a shot."""
        live = set(on_table)
        for raw in events:
            item = from_json(raw)
            if not isinstance(item, TableEvent):
                continue
            gone = item.type is EventType.POT or (item.type is EventType.OFF_TABLE and not item.data.get("returned"))
            if gone:
                live -= {ball_number(o) for o in item.objects}
        return live

    def _check_event(self, live: set[int], event: TableEvent) -> None:
        kind = event.type.value
        if not event.objects:
            raise RefereeError(f"a {kind} event must name its ball(s) in 'objects', such as ['ball-3']")
        if event.type is EventType.CONTACT and len(event.objects) != 2:
            raise RefereeError(f"a contact names the two balls that touched, got {list(event.objects)}")
        for obj in event.objects:
            if ball_number(obj) not in live:
                raise RefereeError(f"{kind} of {obj}, which is not on the table (already potted or off the table)")
        if event.type is EventType.POT:
            self.geometry.check_pocket(event.where)
        if event.type is EventType.CUSHION and not event.where:
            raise RefereeError("a cushion event must say which cushion in 'where', such as 'cushion-left'")

    def _on_shot_event(self, state: PoolState[C], event: TableEvent) -> list[Update]:
        if state.shot is None:
            if event.type in (EventType.POT, EventType.OFF_TABLE) and state.last is not None:
                return self._late_event(state, event)
            raise RefereeError(f"a {event.type.value} with no shot in progress (no shot_start since the last at_rest)")
        self._check_event(self._live(state.core.on_table, state.shot.events[1:]), event)
        state.shot.events.append(event.to_json())
        return []

    def _on_rest(self, state: PoolState[C], event: TableEvent) -> list[Update]:
        if state.shot is None:
            raise RefereeError("at_rest with no shot in progress (no shot_start since the last at_rest)")
        events = [*state.shot.events, event.to_json()]
        fouls = list(state.shot.fouls)
        state.last = LastShot(before=copy.deepcopy(state.core), events=events, fouls=fouls)
        state.shot = None
        return self._judge_into(state.core, events, Ruling(extra_fouls=tuple(fouls)))

    def _judge_into(self, core: C, events: list[dict[str, Any]], ruling: Ruling) -> list[Update]:
        shot = Shot.from_log(events)
        for ball in (*potted(shot), *off_table(shot)):
            core.positions.pop(ball, None)
        core.positions.update(rest_positions(shot))
        for key in start_positions(shot):
            if ball_number(key) not in core.on_table:
                core.positions.pop(key, None)
        return self._judge(core, shot, ruling)

    def _late_event(self, state: PoolState[C], event: TableEvent) -> list[Update]:
        """A ball that drops (or falls off) after the rest still belongs to the last shot (DESIGN.md)."""
        last = state.last
        assert last is not None
        self._check_event(self._live(last.before.on_table, last.events[1:-1]), event)
        events = [*last.events[:-1], event.to_json(), last.events[-1]]
        note = info("late_ball", f"{names(event.objects)} dropped after the balls stopped; the last shot is judged again")
        return [note, *self._revise(state, events=events)]

    def _revise(self, state: PoolState[C], *, events: list[dict[str, Any]] | None = None,
                cancel: bool | None = None, foul: str | None = None) -> list[Update]:
        last = state.last
        if last is None:
            raise RefereeError("there is no judged shot to revise: play has gone on since the last shot")
        if events is not None:
            last.events = events
        if cancel is not None:
            last.cancelled = cancel
        if foul is not None:
            last.fouls.append(foul)
        core = copy.deepcopy(last.before)
        updates = self._judge_into(core, last.events, Ruling(last.cancelled, tuple(last.fouls)))
        for raw in last.hand:
            hand = from_json(raw)
            assert isinstance(hand, TableEvent)
            self._hand_into(core, hand)
        old = state.core.scores
        state.core = core
        out = [
            score_update(p, core.scores[p] - old.get(p, 0), "revised", None,
                         f"{p}: {core.scores[p] - old.get(p, 0):+d} after the revised ruling")
            for p in core.scores if core.scores[p] != old.get(p, 0)
        ]
        for u in updates:
            if u.kind is not UpdateKind.SCORE:
                out.append(Update(u.kind, u.text, u.code, u.clause, u.player, u.points, u.t, {**u.data, "revised": True}))
        return out

    def _on_hand(self, state: PoolState[C], event: TableEvent) -> list[Update]:
        if state.shot is not None:
            raise RefereeError(
                f"a ball was {event.type.value} by hand while balls were rolling; if a player touched a ball, "
                "enter add_foul"
            )
        updates = self._hand_into(state.core, event)
        if state.last is not None:
            state.last.hand.append(event.to_json())
        return updates

    def _hand_into(self, core: C, event: TableEvent) -> list[Update]:
        if not event.objects:
            raise RefereeError(f"a {event.type.value} event must name the ball(s) in 'objects'")
        updates: list[Update] = []
        many = positions_of(event.data)
        own = as_point(event.data.get("position"))
        for obj in event.objects:
            ball = ball_number(obj)
            if event.type is EventType.REMOVED:
                core.positions.pop(obj, None)
            else:
                point = many.get(obj, own)
                if point is not None:
                    core.positions[obj] = point
            updates.extend(self._hand(core, event, ball))
        return updates

    # -- inputs -----------------------------------------------------------------------------------
    def _on_input(self, state: PoolState[C], item: HumanInput) -> list[Update]:
        handlers = {
            "players": self._input_players,
            "break_winner": self._input_break_winner,
            "add_foul": self._input_add_foul,
            "overrule": self._input_overrule,
            "setup": self._input_setup,
        }
        if item.kind in handlers:
            return handlers[item.kind](state, item)
        updates = self._game_input(state, item)
        if updates is None:
            accepted = ", ".join((*COMMON_INPUTS, *self.game_inputs))
            raise RefereeError(f"unknown {self.game} input {item.kind!r}; accepted: {accepted}")
        return updates

    def input_kinds(self) -> tuple[str, ...]:
        return (*COMMON_INPUTS, *self.game_inputs)

    def _player(self, core: C, value: Any, what: str) -> str:
        if value not in core.players:
            raise RefereeError(f"{what} must be one of the players {core.players}, got {value!r}")
        return str(value)

    def _input_players(self, state: PoolState[C], item: HumanInput) -> list[Update]:
        core = state.core
        if core.started:
            raise RefereeError("the players are named before the first shot of the match")
        given = item.data.get("names")
        counts = " or ".join(str(n) for n in self.player_counts)
        if (not isinstance(given, list | tuple) or len(given) not in self.player_counts
                or not all(isinstance(n, str) and n.strip() for n in given) or len(set(given)) != len(given)):
            raise RefereeError(f"players takes 'names': a list of {counts} different names (players or teams), got {given!r}")
        core.players = [str(n) for n in given]
        core.turn = core.breaker = core.players[0]
        core.scores = {n: 0 for n in core.players}
        self._on_players(core)
        return [Update(UpdateKind.PHASE, f"Players: {', '.join(core.players)}; {core.breaker} breaks",
                       code="players", data={"players": list(core.players)})]

    def _input_break_winner(self, state: PoolState[C], item: HumanInput) -> list[Update]:
        core = state.core
        if core.started:
            raise RefereeError("the break winner is entered before the first shot of the match")
        player = self._player(core, item.data.get("player"), "break_winner's 'player'")
        core.breaker = core.turn = player
        return [turn_update(player, f"{player} breaks")]

    def _input_setup(self, state: PoolState[C], item: HumanInput) -> list[Update]:
        """A rack already in progress: replace the position, keep the match (players, earlier games)."""
        if state.shot is not None:
            raise RefereeError("setup is entered between shots: balls are rolling, wait for at_rest")
        core = state.core
        if core.phase is Phase.OVER:
            raise RefereeError(f"the {self.game} game is over; a setup describes a game in play")
        data = thaw(item.data)  # plain dicts and lists: the messages quote what was entered as it was entered
        spec = parse_pool_setup(data, core, self.geometry, self.game, self.setup_keys, self.negative_scores)
        balls = set(spec.on_table)
        full = self._full_rack(balls)
        is_break = full if spec.is_break is None else spec.is_break
        if is_break and not full:
            raise RefereeError(f"setup 'break': true needs a full rack on the table; missing: "
                               f"{names(sorted(set(BALLS) - balls))}")
        previous = core.turn
        core.on_table = balls
        core.positions = {ball_id(b): p for b, p in spec.on_table.items()}
        core.turn = spec.player
        core.phase = Phase.BREAK if is_break else Phase.PLAY
        if is_break:
            core.breaker = spec.player
        core.started = True  # the players and the first breaker are fixed: a renaming would lose the scores
        state.last = None
        updates = [Update(UpdateKind.PHASE, f"Set up in progress: {names(sorted(balls)) or 'no balls'} on the table; "
                          f"{spec.player} to {'break' if is_break else 'shoot'}", code="setup", player=spec.player,
                          data={"on_table": [ball_id(b) for b in sorted(balls)], "break": is_break})]
        for player in core.players:
            delta = spec.scores.get(player, core.scores[player]) - core.scores[player]
            if delta:
                self._adjust_score(core, player, delta)
                updates.append(score_update(player, delta, "setup", None,
                                            f"{player}: {core.scores[player]} (setup)", total=core.scores[player]))
        updates += self._setup_game(core, data, is_break)
        if spec.player != previous or is_break:
            updates.append(turn_update(spec.player, f"{spec.player} to {'break' if is_break else 'shoot'}"))
        return updates

    def _input_add_foul(self, state: PoolState[C], item: HumanInput) -> list[Update]:
        accepted = ", ".join(c.value for c in self.foul_enum)
        code = item.data.get("code")
        if code not in {c.value for c in self.foul_enum}:
            raise RefereeError(f"add_foul needs a 'code'; accepted: {accepted}")
        which = item.data.get("shot", "current" if state.shot is not None else "last")
        if which not in ("current", "last"):
            raise RefereeError(f"add_foul's 'shot' is 'current' (balls rolling) or 'last', got {which!r}")
        if which == "current":
            if state.shot is None:
                raise RefereeError("no shot is in progress; use \"shot\": \"last\" for the shot just played")
            state.shot.fouls.append(str(code))
            return [info("foul_noted", f"Foul noted ({code}); it is applied when the balls stop", state.core.turn)]
        return self._revise(state, foul=str(code))

    def _input_overrule(self, state: PoolState[C], item: HumanInput) -> list[Update]:
        data = item.data
        if state.shot is not None:
            raise RefereeError("overrule once the balls are at rest")
        if not {"foul", "score", "turn"} & set(data):
            raise RefereeError("overrule takes 'foul': false (cancel the camera's fouls on the last shot), "
                               "'score': {player: points} and/or 'turn': player")
        updates: list[Update] = []
        if "foul" in data:
            if data["foul"] is not False:
                raise RefereeError("overrule's 'foul' only takes false (cancel the camera's fouls); use add_foul to add one")
            updates.extend(self._revise(state, cancel=True))
        core = state.core
        if "score" in data:
            change = data["score"]
            if not isinstance(change, Mapping) or not all(isinstance(v, int) and not isinstance(v, bool) for v in change.values()):
                raise RefereeError(f"overrule's 'score' is {{player: whole points to add}}, got {change!r}")
            for player, points in change.items():
                self._player(core, player, "overrule's score player")
                self._adjust_score(core, player, points)
                updates.append(score_update(player, points, "overrule", None, f"{player}: {points:+d} by the referee"))
            state.last = None
        if "turn" in data:
            player = self._player(core, data["turn"], "overrule's 'turn'")
            if player != core.turn:
                updates.extend(self._turn_given(core, player))
            core.turn = player
            updates.append(turn_update(player, f"{player} to shoot (referee)"))
            state.last = None
        return updates
