"""Up and Down (Victor Engel's rule book, ``shared/rules/up-and-down.txt``): the referee.

Every ball may be the cue ball; the object ball is always the next consecutive number still on the
table after the cue ball, going up for one player and down for the other. +1 for each ball pocketed
as called on a legal shot, -1 for each foul; negative scores are possible; nothing is ever spotted.

Rule book -> code
-----------------
* **Object** (directions): ``UpAndDownCore.directions``, fixed by ``_fix_direction`` when a player
  first *makes* a called shot (pockets the called ball legally); until then the table is open.
* **Scoring**: ``_judge_play`` (+1 ``pocketed_as_called``) and ``_penalise`` (-1 per foul).
* **The Break**: ``_judge_break``: the zero ball from the kitchen onto the leading ball
  (:func:`pool_table.leading_ball`), a pot or four balls to the rails (the zero ball counts unless
  it is the first ball to a rail), re-rack and the opponent's break on failure, another turn
  without points after a pot, the open table after every break.
* **Fouls** (1)-(4): :class:`UpAndDownFoul`; ``_judge_break`` and ``_judge_play``. No spotting:
  potted and jumped balls leave ``on_table`` for good.
* **Legal Shot**, wrap-around: :func:`pool_updown.next_ball`; any ball as the cue ball:
  ``_start_shot`` accepts any ball on the table after the break.
* **Combination Shots and Caroms**: nothing restricts the first hit; only the balls potted count.
* **Pocketing Multiple Balls** and the end-of-game two-ball case: :func:`pool_updown.expected_calls`
  (the cue ball may be called only last, after every other ball) and ``_judge_play``.
* **End of Game**: ``_finish_game`` when at most one ball is left, or by ``concede``;
  match play and its tie-break: :func:`pool_updown.standings` (``match_games`` option).

Decisions where the rule book is silent or ambiguous (each a venue option where venues differ)
-----------------------------------------------------------------------------------------------
* **Calling the pocket** (``call_pocket``, default off): the rule book only ever speaks of calling
  *balls* ("both balls must be called"), and the numbering already forces which ball is played, so
  naming the ball identifies the shot. Venues that play the General Rules' ball-and-pocket call turn
  it on; a called ball in another pocket then does not count (no point, turn ends, no foul: it was
  called).
* **An unannounced shot** (``infer_obvious_call``, default on): once a player's direction is fixed
  there is exactly one legal object ball, so a referee accepts a shot at it without a spoken call,
  as the General Rules do for obvious shots. On an open table, with several balls, or when pockets
  must be called, nothing is inferred and any ball potted is uncalled.
* **Several fouls on one shot** (``one_penalty_per_shot``, default on): the General Rules penalise
  only the most serious foul of a shot; every foul is still reported.
* **A foul shot scores nothing else**: points come only "as long as it is a legal shot"; the
  multiple-ball miss points are not added on top of a foul's penalty.
* **Multiple-ball calls**: every called ball not pocketed legally costs a point, as the rule book's
  worked end-of-game example counts it (+1 -1 = 0; the cue ball alone: -2); the turn goes on only
  when every called ball dropped legally. The order "cue ball last" is the option ``cue_ball_last``
  (default on, the rule; off is the visitors' suggestion, for tables where the order cannot be seen).
* **The zero ball first to a rail on the break** (``cue_first_rail``): ``"not_counted"`` (default:
  the zero ball then does not count toward the four, the reading of "if the cue ball is also to be
  counted ... it must not be the first") or ``"foul"`` (the break is a foul outright, the literal
  reading of the "in other words" sentence).
* **The zero ball pocketed on a legal break** is a foul (a scratch, General Rules); the rack stays.
* **The rack** (``rack_spot``, default ``"head"`` as written; most venues rack on the foot spot):
  only the re-rack instruction names the spot; the leading ball is the object ball nearest the
  kitchen either way.
* **Concession** (``concession_needs_agreement``, default off = individual play; on = tournament:
  the opponent must accept). The conceding player loses; the score stands as it is.
* **Next game of a match** (``next_break``): ``"alternate"`` (default), ``"winner"`` or ``"loser"``.
* **A call entered late**: accepted while the balls roll as long as nothing has dropped yet (a
  tablet lags the spoken call).

Inputs: ``players`` {"names": [2 names]}, ``break_winner`` {"player"}, ``called_shot`` {"cue",
"balls" or "ball", "pockets" or "pocket"}, ``concede`` {"player"}, ``agree_concession`` {"accept"},
``add_foul`` {"code", "shot"}, ``overrule`` {"foul": false | "score" | "turn"}, ``setup`` {"on_table",
"player", "scores", "break", "direction"} (a game already in progress: ``_setup_game``). See
docs/referee/up-and-down.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar

from tableref.events import HumanInput, TableEvent
from tableref.referee.base import Outcome, RefereeError, Update, UpdateKind
from tableref.referee.pool_engine import (
    Phase,
    PoolCore,
    PoolEngine,
    PoolState,
    Ruling,
    foul_update,
    info,
    instruction,
    names,
    score_update,
    turn_update,
)
from tableref.referee.pool_shot import (
    Shot,
    balls_to_rail,
    cue_ball,
    first_hit,
    first_to_rail,
    moved,
    off_table,
    pots,
    start_position,
    start_positions,
)
from tableref.referee.pool_table import BALLS, TABLE_OPTIONS, ball_id, ball_number, leading_ball
from tableref.referee.pool_updown import (
    Direction,
    GameResult,
    call_direction,
    match_winner,
    next_ball,
    standings,
)


class UpAndDownFoul(StrEnum):
    BREAK_WRONG_CUE_BALL = "break_wrong_cue_ball"
    BREAK_NOT_FROM_KITCHEN = "break_not_from_kitchen"
    BREAK_MISSED_LEADING_BALL = "break_missed_leading_ball"
    BREAK_TOO_FEW_RAILS = "break_too_few_rails"
    BREAK_CUE_BALL_FIRST_RAIL = "break_cue_ball_first_rail"
    BREAK_SCRATCH = "break_scratch"
    BALL_OFF_TABLE = "ball_off_table"
    UNCALLED_BALL_POTTED = "uncalled_ball_potted"
    NEXT_BALL_NOT_MOVED = "next_ball_not_moved"
    GENERAL_RULES = "general_rules"


#: code -> (rule-book clause, sentence). The tablet's text is derived from the code.
FOUL_RULES: Mapping[UpAndDownFoul, tuple[str, str]] = MappingProxyType({
    UpAndDownFoul.BREAK_WRONG_CUE_BALL: ("The Break", "{player} broke with {balls}; the zero ball is the cue ball for the break"),
    UpAndDownFoul.BREAK_NOT_FROM_KITCHEN: ("The Break", "{player} broke from outside the kitchen"),
    UpAndDownFoul.BREAK_MISSED_LEADING_BALL: ("The Break", "{player}'s break did not strike the leading ball {balls} first"),
    UpAndDownFoul.BREAK_TOO_FEW_RAILS: ("Fouls (1)", "{player}'s break pocketed no ball and drove fewer than four balls to the rails ({detail})"),
    UpAndDownFoul.BREAK_CUE_BALL_FIRST_RAIL: ("Fouls (1)", "the zero ball was the first ball to a rail on {player}'s break"),
    UpAndDownFoul.BREAK_SCRATCH: ("The Break", "{player} pocketed the zero ball on the break (scratch)"),
    UpAndDownFoul.BALL_OFF_TABLE: ("Fouls (2)", "{balls} left the table"),
    UpAndDownFoul.UNCALLED_BALL_POTTED: ("Fouls (3)", "{balls} pocketed without being called (scratch)"),
    UpAndDownFoul.NEXT_BALL_NOT_MOVED: ("Fouls (4)", "{player} did not move the next consecutive ball ({balls})"),
    UpAndDownFoul.GENERAL_RULES: ("General Rules of Pocket Billiards", "{player} fouled under the General Rules (called by the referee)"),
})

_BREAK_REQUIREMENTS = frozenset({
    UpAndDownFoul.BREAK_WRONG_CUE_BALL, UpAndDownFoul.BREAK_NOT_FROM_KITCHEN, UpAndDownFoul.BREAK_MISSED_LEADING_BALL,
    UpAndDownFoul.BREAK_TOO_FEW_RAILS, UpAndDownFoul.BREAK_CUE_BALL_FIRST_RAIL,
})


class UpAndDownScore(StrEnum):
    POCKETED_AS_CALLED = "pocketed_as_called"
    CALLED_BALL_MISSED = "called_ball_missed"
    FOUL_PENALTY = "foul_penalty"


class UpAndDownInstruction(StrEnum):
    RERACK = "rerack"
    RACK_UNDISTURBED = "rack_undisturbed"
    ZERO_BALL_IN_KITCHEN = "zero_ball_in_kitchen"
    NEVER_SPOTTED = "never_spotted"
    RACK_NEXT_GAME = "rack_next_game"


@dataclass
class Call:
    balls: list[int]
    pockets: list[str] | None = None
    cue: int | None = None
    direction: Direction | None = None
    inferred: bool = False


@dataclass
class UpAndDownCore(PoolCore):
    directions: dict[str, Direction] = field(default_factory=dict)  # empty: the table is open
    call: Call | None = None
    game: int = 1
    game_breaker: str | None = None  # who broke first in this game (for "alternate")
    game_scores: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    results: list[GameResult] = field(default_factory=list)
    concession: str | None = None  # a concession waiting for the opponent's answer


_OPTIONS: dict[str, Any] = {
    **TABLE_OPTIONS,
    "call_pocket": False,
    "infer_obvious_call": True,
    "cue_ball_last": True,
    "cue_first_rail": "not_counted",
    "one_penalty_per_shot": True,
    "rack_spot": "head",
    "match_games": 1,
    "next_break": "alternate",
    "concession_needs_agreement": False,
}
_CHOICES = {"cue_first_rail": ("not_counted", "foul"), "rack_spot": ("head", "foot"),
            "next_break": ("alternate", "winner", "loser")}


class UpAndDownEngine(PoolEngine[UpAndDownCore]):
    """The Up and Down referee; see the module docstring for the rule-book map and the choices."""

    game: ClassVar[str] = "up-and-down"
    default_options: ClassVar[Mapping[str, Any]] = MappingProxyType(_OPTIONS)
    foul_enum: ClassVar[type[StrEnum]] = UpAndDownFoul
    game_inputs: ClassVar[tuple[str, ...]] = ("called_shot", "concede", "agree_concession")
    setup_keys: ClassVar[tuple[str, ...]] = ("direction",)
    negative_scores: ClassVar[bool] = True  # -1 a foul: a score may be below zero

    def _validate_options(self, options: Mapping[str, Any]) -> None:
        for name, accepted in _CHOICES.items():
            if options[name] not in accepted:
                raise ValueError(f"option {name} must be one of {', '.join(accepted)}, got {options[name]!r}")
        for name in ("call_pocket", "infer_obvious_call", "cue_ball_last", "one_penalty_per_shot",
                     "concession_needs_agreement"):
            if not isinstance(options[name], bool):
                raise ValueError(f"option {name} must be true or false, got {options[name]!r}")
        games = options["match_games"]
        if not isinstance(games, int) or isinstance(games, bool) or games < 1:
            raise ValueError(f"option match_games must be a whole number of games >= 1, got {games!r}")

    def _new_core(self) -> UpAndDownCore:
        return UpAndDownCore()

    def _on_players(self, core: UpAndDownCore) -> None:
        core.game_scores = {p: 0 for p in core.players}

    def _adjust_score(self, core: UpAndDownCore, player: str, points: int) -> None:
        core.scores[player] += points
        core.game_scores[player] += points

    def _turn_given(self, core: UpAndDownCore, player: str) -> list[Update]:
        core.call = None
        return []

    def _outcome(self, state: PoolState[UpAndDownCore]) -> Outcome | None:
        core = state.core
        if core.phase is not Phase.OVER:
            return None
        return Outcome(winner=core.winner, scores=dict(core.scores), reason=core.result)

    # -- setup ------------------------------------------------------------------------------------
    def _setup_game(self, core: UpAndDownCore, data: Mapping[str, Any], is_break: bool) -> list[Update]:
        """Up and Down keeps the directions besides the position: ``direction`` fixes them (``"up"`` or
        ``"down"`` for the player at the table, or ``{player: direction}``), ``"open"`` opens the table;
        left out, they stay as they were. A break always leaves the table open."""
        core.call, core.concession = None, None
        value = data.get("direction")
        if is_break:
            if value not in (None, "open"):
                raise RefereeError("setup: the next shot is a break, and after a break the table is open; "
                                   "leave 'direction' out")
            core.directions, core.game_breaker = {}, None
            return []
        if len(core.on_table) < 2:
            raise RefereeError("setup needs at least two balls on the table: with one ball or none left the game "
                               "is over (End of Game)")
        if "direction" not in data:
            return []
        if value in (None, "open"):
            core.directions = {}
            return [Update(UpdateKind.PHASE, "The table is open: either direction until a called shot is made",
                           code="open_table", clause="Object")]
        if isinstance(value, str):
            value = {core.turn: value}
        if not isinstance(value, Mapping) or not 1 <= len(value) <= 2:
            raise RefereeError(f"setup 'direction' is 'up' or 'down' (the player at the table), 'open', or "
                               f"{{player: 'up'|'down'}}, got {value!r}")
        fixed: dict[str, Direction] = {}
        for player, word in value.items():
            self._player(core, player, "setup 'direction' player")
            if word not in ("up", "down"):
                raise RefereeError(f"setup 'direction' for {player} is 'up' or 'down', got {word!r}")
            fixed[str(player)] = Direction(word)
        if len(set(fixed.values())) != len(fixed):
            raise RefereeError("setup 'direction': one player shoots up and the other down")
        player, direction = next(iter(fixed.items()))
        return [self._fix_direction(core, player, direction)]

    # -- inputs -----------------------------------------------------------------------------------
    def _game_input(self, state: PoolState[UpAndDownCore], item: HumanInput) -> list[Update] | None:
        if item.kind not in self.game_inputs:
            return None
        if state.core.phase is Phase.OVER:
            raise RefereeError("the game is over")
        state.last = None  # play goes on: the last ruling can no longer be revised
        if item.kind == "called_shot":
            return self._input_call(state, item)
        if state.shot is not None:
            raise RefereeError(f"{item.kind} waits until the balls are at rest")
        if item.kind == "concede":
            return self._input_concede(state.core, item)
        return self._input_agree(state.core, item)

    def _input_call(self, state: PoolState[UpAndDownCore], item: HumanInput) -> list[Update]:
        core, data = state.core, item.data
        if core.phase is Phase.BREAK:
            raise RefereeError("the break is not called: the zero ball breaks from the kitchen")
        raw_balls = data.get("balls", [data["ball"]] if "ball" in data else None)
        if not isinstance(raw_balls, list | tuple) or not raw_balls:
            raise RefereeError("called_shot names 'balls' (in the order they drop) or 'ball', such as {\"ball\": \"ball-8\"}")
        balls = [ball_number(b) for b in raw_balls]
        raw_pockets = data.get("pockets", [data["pocket"]] if "pocket" in data else None)
        pockets = None
        if raw_pockets is not None:
            if not isinstance(raw_pockets, list | tuple) or len(raw_pockets) != len(balls):
                raise RefereeError("called_shot's 'pockets' names one pocket for each called ball")
            pockets = [self.geometry.check_pocket(p) for p in raw_pockets]
        elif self.options["call_pocket"]:
            raise RefereeError("this venue calls the pocket: add 'pocket' (or 'pockets', one per ball)")
        cue = ball_number(data["cue"]) if data.get("cue") is not None else None
        if state.shot is not None:
            if any(e["type"] in ("pot", "off_table") for e in state.shot.events):
                raise RefereeError("the call came too late: a ball has already dropped on this shot")
            struck = ball_number(state.shot.events[0]["objects"][0])
            if cue is not None and cue != struck:
                raise RefereeError(f"the call names {ball_id(cue)} as the cue ball but {ball_id(struck)} was struck")
            cue = struck
        direction = None
        if cue is not None:
            direction = call_direction(core.on_table, cue, balls, core.directions.get(core.turn))
        core.call = Call(balls=balls, pockets=pockets, cue=cue, direction=direction)
        where = f" in {', '.join(pockets)}" if pockets else ""
        using = f" with {ball_id(cue)} as the cue ball" if cue is not None else ""
        return [info("call", f"{core.turn} calls {names(balls)}{where}{using}", core.turn,
                     balls=[ball_id(b) for b in balls], pockets=pockets)]

    def _input_concede(self, core: UpAndDownCore, item: HumanInput) -> list[Update]:
        player = self._player(core, item.data.get("player", item.by), "concede's 'player'")
        if self.options["concession_needs_agreement"]:
            core.concession = player
            opponent = core.next_player(player)
            return [Update(UpdateKind.CHOICE, f"{player} concedes; {opponent}, do you accept? (tournament play)",
                           code="accept_concession", clause="End of Game", player=opponent,
                           data={"input": "agree_concession", "options": [{"accept": True}, {"accept": False}]})]
        return self._finish_game(core, f"{player} conceded", conceded_by=player)

    def _input_agree(self, core: UpAndDownCore, item: HumanInput) -> list[Update]:
        if core.concession is None:
            raise RefereeError("no concession is waiting for an answer")
        accept = item.data.get("accept")
        if not isinstance(accept, bool):
            raise RefereeError("agree_concession takes 'accept': true or false")
        player, core.concession = core.concession, None
        if accept:
            return self._finish_game(core, f"{player} conceded", conceded_by=player)
        return [info("concession_refused", f"{core.next_player(player)} refuses the concession; play on")]

    # -- shots ------------------------------------------------------------------------------------
    def _start_shot(self, core: UpAndDownCore, struck: int, event: TableEvent) -> list[Update]:
        if core.concession is not None:
            raise RefereeError("a concession waits for the opponent's answer (agree_concession)")
        if struck not in core.on_table:
            raise RefereeError(f"{ball_id(struck)} was struck but it is not on the table")
        if core.phase is Phase.BREAK and core.game_breaker is None:
            core.game_breaker = core.turn
        return []

    def _judge(self, core: UpAndDownCore, shot: Shot, ruling: Ruling) -> list[Update]:
        if core.phase is Phase.BREAK:
            return self._judge_break(core, shot, ruling)
        return self._judge_play(core, shot, ruling)

    def _foul_list(self, camera: list[tuple[UpAndDownFoul, dict[str, Any]]], ruling: Ruling) -> list[tuple[UpAndDownFoul, dict[str, Any]]]:
        fouls = [] if ruling.cancel_camera_fouls else list(camera)
        return fouls + [(UpAndDownFoul(code), {}) for code in ruling.extra_fouls]

    def _judge_break(self, core: UpAndDownCore, shot: Shot, ruling: Ruling) -> list[Update]:
        player, cue = core.turn, cue_ball(shot)
        camera: list[tuple[UpAndDownFoul, dict[str, Any]]] = []
        updates: list[Update] = []
        if cue != ball_id(0):
            camera.append((UpAndDownFoul.BREAK_WRONG_CUE_BALL, {"balls": cue}))
        where = start_position(shot, cue)
        if where is not None and not self.geometry.in_kitchen(where):
            camera.append((UpAndDownFoul.BREAK_NOT_FROM_KITCHEN, {}))
        lead, hit = leading_ball(start_positions(shot), exclude=cue), first_hit(shot)
        if lead is None and hit is not None:
            updates.append(info("leading_ball_unknown", "The rack's positions were not seen; the leading ball is not checked"))
        elif hit is None or hit != lead:
            camera.append((UpAndDownFoul.BREAK_MISSED_LEADING_BALL, {"balls": lead or "the rack"}))
        dropped = [ball_number(b) for b, _ in pots(shot)]
        object_pots = [b for b in dropped if ball_id(b) != cue]
        rails, first = balls_to_rail(shot), first_to_rail(shot)
        counted = [b for b in rails if b != cue or first != cue]
        if not object_pots and len(counted) < 4:
            camera.append((UpAndDownFoul.BREAK_TOO_FEW_RAILS, {"detail": f"{len(counted)} counted"}))
        if self.options["cue_first_rail"] == "foul" and first == cue:
            camera.append((UpAndDownFoul.BREAK_CUE_BALL_FIRST_RAIL, {}))
        gone = [ball_number(b) for b in off_table(shot)]
        if gone:
            camera.append((UpAndDownFoul.BALL_OFF_TABLE, {"balls": names(gone)}))
        if ball_number(cue) in dropped:
            camera.append((UpAndDownFoul.BREAK_SCRATCH, {}))
        fouls = self._foul_list(camera, ruling)
        opponent = core.next_player()
        if any(code in _BREAK_REQUIREMENTS for code, _ in fouls):
            updates += self._penalise(core, player, fouls)
            disturbed = any(moved(shot, ball_id(b), self.geometry.moved_tolerance) for b in BALLS if ball_id(b) != cue)
            core.on_table = set(BALLS)
            core.breaker = core.turn = opponent
            if disturbed:
                updates.append(instruction(UpAndDownInstruction.RERACK, f"Rerack the fifteen balls with the leading ball on the {self.options['rack_spot']} spot", clause="The Break"))
            else:
                updates.append(instruction(UpAndDownInstruction.RACK_UNDISTURBED, "The rack was not disturbed: leave it as it is"))
            updates.append(instruction(UpAndDownInstruction.ZERO_BALL_IN_KITCHEN, f"{opponent} breaks: zero ball in hand in the kitchen", opponent))
            updates.append(turn_update(opponent, f"{opponent} breaks"))
            return updates
        core.on_table -= set(dropped) | set(gone)
        core.phase = Phase.PLAY
        updates.append(Update(UpdateKind.PHASE, "The table is open: either direction until a called shot is made", code="open_table", clause="The Break"))
        updates += self._never_spotted(gone)
        if fouls:
            updates += self._penalise(core, player, fouls)
            updates += self._pass_turn(core)
        elif object_pots:
            updates.append(info("break_pots", f"{names(object_pots)} dropped on the break: no points; {player} shoots again", player))
        else:
            updates += self._pass_turn(core)
        return updates + self._check_end(core)

    def _resolve_call(self, core: UpAndDownCore, cue: int) -> tuple[Call | None, list[Update]]:
        call, notes = core.call, []
        fixed = core.directions.get(core.turn)
        if call is not None and call.cue is not None and call.cue != cue:
            notes.append(info("call_void", f"The call was for {ball_id(call.cue)} as the cue ball but {ball_id(cue)} was struck; the call does not apply"))
            call = None
        elif call is not None and call.cue is None:
            try:
                call.direction = call_direction(core.on_table, cue, call.balls, fixed)
                call.cue = cue
            except RefereeError as exc:
                notes.append(info("call_void", f"The call does not fit the cue ball {ball_id(cue)}: {exc}"))
                call = None
        if call is None and fixed is not None and self.options["infer_obvious_call"] and not self.options["call_pocket"]:
            target = next_ball(cue, fixed, core.on_table - {cue})
            if target is not None:
                call = Call(balls=[target], cue=cue, direction=fixed, inferred=True)
                notes.append(info("call_inferred", f"No call entered: {ball_id(target)}, the only object ball, is taken as called"))
        return call, notes

    def _object_balls(self, core: UpAndDownCore, cue: int) -> list[int]:
        fixed = core.directions.get(core.turn)
        options = [fixed] if fixed is not None else [Direction.UP, Direction.DOWN]
        found = [next_ball(cue, d, core.on_table - {cue}) for d in options]
        return sorted({b for b in found if b is not None})

    def _legal(self, ball: int, call: Call, dropped: list[tuple[int, str]]) -> bool:
        order = [b for b, _ in dropped]
        if ball not in order:
            return False
        pocket = dropped[order.index(ball)][1]
        if self.options["call_pocket"] and call.pockets is not None and pocket != call.pockets[call.balls.index(ball)]:
            return False
        if ball == call.cue and self.options["cue_ball_last"]:
            others = [b for b in call.balls if b != ball]
            return all(b in order and order.index(b) < order.index(ball) for b in others)
        return True

    def _judge_play(self, core: UpAndDownCore, shot: Shot, ruling: Ruling) -> list[Update]:
        player, cue = core.turn, ball_number(cue_ball(shot))
        call, updates = self._resolve_call(core, cue)
        core.call = None
        dropped = [(ball_number(b), pocket) for b, pocket in pots(shot)]
        gone = [ball_number(b) for b in off_table(shot)]
        camera: list[tuple[UpAndDownFoul, dict[str, Any]]] = []
        if gone:
            camera.append((UpAndDownFoul.BALL_OFF_TABLE, {"balls": names(gone)}))
        uncalled = [b for b, _ in dropped if call is None or b not in call.balls]
        if uncalled:
            camera.append((UpAndDownFoul.UNCALLED_BALL_POTTED, {"balls": names(uncalled)}))
        must = [call.balls[0]] if call is not None else self._object_balls(core, cue)
        if must and not any(moved(shot, ball_id(b), self.geometry.moved_tolerance) for b in must):
            camera.append((UpAndDownFoul.NEXT_BALL_NOT_MOVED, {"balls": names(must)}))
        fouls = self._foul_list(camera, ruling)
        was_open = core.turn not in core.directions
        core.on_table -= {b for b, _ in dropped} | set(gone)
        updates += self._never_spotted(gone)
        if fouls:
            return updates + self._penalise(core, player, fouls) + self._after_turn(core, False)
        if call is None:
            return updates + [info("miss", f"{player} pocketed nothing", player)] + self._after_turn(core, False)
        legal = [b for b in call.balls if self._legal(b, call, dropped)]
        missed = [b for b in call.balls if b not in legal]
        for b in legal:
            updates.append(self._score(core, player, +1, UpAndDownScore.POCKETED_AS_CALLED, "Scoring",
                                       f"{player} +1: {ball_id(b)} pocketed as called", ball=ball_id(b)))
        if len(call.balls) > 1:
            for b in missed:
                updates.append(self._score(core, player, -1, UpAndDownScore.CALLED_BALL_MISSED, "Pocketing Multiple Balls",
                                           f"{player} -1: called {ball_id(b)} was not pocketed legally", ball=ball_id(b)))
        elif missed and missed[0] in {b for b, _ in dropped}:
            updates.append(info("not_as_called", f"{ball_id(missed[0])} dropped, but not as called: no point", player))
        if was_open and call.balls[0] in legal and call.direction is not None:
            updates.append(self._fix_direction(core, player, call.direction))
        if not legal and len(call.balls) == 1:
            updates.append(info("miss", f"{player} missed {ball_id(call.balls[0])}", player))
        return updates + self._after_turn(core, not missed)

    # -- consequences ------------------------------------------------------------------------------
    def _score(self, core: UpAndDownCore, player: str, points: int, code: UpAndDownScore, clause: str,
               text: str, **data: Any) -> Update:
        self._adjust_score(core, player, points)
        return score_update(player, points, code, clause, text, **data)

    def _penalise(self, core: UpAndDownCore, player: str, fouls: list[tuple[UpAndDownFoul, dict[str, Any]]]) -> list[Update]:
        out: list[Update] = []
        for i, (code, detail) in enumerate(fouls):
            clause, template = FOUL_RULES[code]
            points = -1 if i == 0 or not self.options["one_penalty_per_shot"] else 0
            penalty = "one point lost; the turn passes" if points else "no further point: one penalty per shot"
            text = "Foul: " + template.format(player=player, balls=detail.get("balls", ""), detail=detail.get("detail", ""))
            out.append(foul_update(code, clause, f"{text}. {penalty[0].upper()}{penalty[1:]}", player, points, penalty))
            if points:
                out.append(self._score(core, player, points, UpAndDownScore.FOUL_PENALTY, "Scoring", f"{player} -1 for the foul", foul=code.value))
        return out

    def _fix_direction(self, core: UpAndDownCore, player: str, direction: Direction) -> Update:
        other = core.next_player(player)
        core.directions = {player: direction, other: direction.other}
        return Update(UpdateKind.PHASE, f"{player} shoots {direction.value}; {other} goes {direction.other.value}",
                      code="directions", clause="Object", player=player,
                      data={"directions": {player: direction.value, other: direction.other.value}})

    def _never_spotted(self, gone: list[int]) -> list[Update]:
        if not gone:
            return []
        return [instruction(UpAndDownInstruction.NEVER_SPOTTED, f"Leave {names(gone)} off the table: balls are never spotted", clause="Fouls")]

    def _pass_turn(self, core: UpAndDownCore) -> list[Update]:
        core.turn = core.next_player()
        return [turn_update(core.turn, f"{core.turn} to shoot")]

    def _after_turn(self, core: UpAndDownCore, again: bool) -> list[Update]:
        if len(core.on_table) <= 1:
            return self._check_end(core)
        if again:
            return [info("again", f"{core.turn} shoots again with any ball as the cue ball", core.turn)] + self._check_end(core)
        return self._pass_turn(core) + self._check_end(core)

    def _check_end(self, core: UpAndDownCore) -> list[Update]:
        if len(core.on_table) > 1 or core.phase is not Phase.PLAY:
            return []
        return self._finish_game(core, "no object ball is left on the table")

    def _finish_game(self, core: UpAndDownCore, reason: str, conceded_by: str | None = None) -> list[Update]:
        scores = dict(core.game_scores)
        if conceded_by is not None:
            winner: str | None = core.next_player(conceded_by)
        else:
            best = max(scores.values())
            leaders = [p for p in core.players if scores[p] == best]
            winner = leaders[0] if len(leaders) == 1 else None
        core.results.append(GameResult(core.game, scores, winner, reason))
        said = f"{winner} wins" if winner else "a draw"
        out = [Update(UpdateKind.GAME_OVER, f"Game {core.game} over ({reason}): {said}, {_score_line(scores)}",
                      code="game_over", clause="End of Game", player=winner,
                      data={"game": core.game, "scores": scores, "winner": winner, "reason": reason})]
        if core.game < self.options["match_games"]:
            return out + self._next_game(core, winner)
        table = standings(core.results, core.players)
        core.winner, why = match_winner(table) if self.options["match_games"] > 1 else (winner, reason)
        core.result = why
        core.phase = Phase.OVER
        if self.options["match_games"] > 1:
            out.append(Update(UpdateKind.MATCH_OVER, f"Match over: {core.winner or 'drawn'} ({why})", code="match_over",
                              clause="End of Game", player=core.winner,
                              data={"standings": [vars(s) for s in table], "winner": core.winner}))
        return out

    def _next_game(self, core: UpAndDownCore, winner: str | None) -> list[Update]:
        first = core.game_breaker or core.breaker
        rule = self.options["next_break"]
        if rule == "winner" and winner is not None:
            breaker = winner
        elif rule == "loser" and winner is not None:
            breaker = core.next_player(winner)
        else:
            breaker = core.next_player(first)
        core.game += 1
        core.game_scores = {p: 0 for p in core.players}
        core.on_table, core.positions = set(BALLS), {}
        core.directions, core.call, core.game_breaker = {}, None, None
        core.phase, core.breaker, core.turn = Phase.BREAK, breaker, breaker
        return [
            Update(UpdateKind.PHASE, f"Game {core.game}: {breaker} breaks", code="next_game", player=breaker, data={"game": core.game}),
            instruction(UpAndDownInstruction.RACK_NEXT_GAME, f"Rack the fifteen balls with the leading ball on the {self.options['rack_spot']} spot"),
            instruction(UpAndDownInstruction.ZERO_BALL_IN_KITCHEN, f"{breaker} breaks: zero ball in hand in the kitchen", breaker),
            turn_update(breaker, f"{breaker} breaks"),
        ]

    def _hand(self, core: UpAndDownCore, event: TableEvent, ball: int) -> list[Update]:
        if ball not in core.on_table:
            core.positions.pop(ball_id(ball), None)
            if event.type.value == "placed" and core.phase is not Phase.BREAK:
                return [info("never_spotted", f"{ball_id(ball)} was put back on the table, but balls are never spotted in Up and Down: take it off")]
        return []


def _score_line(scores: Mapping[str, int]) -> str:
    return ", ".join(f"{p} {s}" for p, s in scores.items())
