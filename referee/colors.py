"""Colors (Carl Sandstrom's rule book, ``shared/rules/colors.txt``): the referee.

Seven companion pairs (1-9, 2-10, ... 7-15) and the black 8. A colour is eliminated for one point
when its two balls drop on one shot or on consecutive shots, or when its single remaining ball (a
point ball) is followed by the black. Race to 11 (to 7 with three players), 7 points a rack.

Rule book -> code
-----------------
* **Game**, **Game end**: ``ColorsCore.target`` (``race_to``, ``race_to_three_players``), ``_finish``.
* **Game scoring**, **Point balls**, **Consecutive ball choices**, **Incidental Balls**: ``_run_pots``
  walks the shot's drops in order against what the shooter owes from the shot before
  (``window``: the colours whose companion scores next; ``pending``: point balls down, waiting for
  the black). Companions scored: ``ColorsScore.COMPANIONS``; point balls followed by the black:
  ``ColorsScore.POINT_BALL_AND_BLACK``, one point for each point ball.
* **Neutral balls**: the first ball of a colour stays down; its companion becomes a point ball.
* **Black Ball**, **Spotting of balls**: the black always spots, on the centre spot or, when a ball
  interferes, on the head spot; point balls spot on the foot spot (``_spot``).
* **Illegal balls**: :data:`ILLEGAL_BALLS`: loss of turn, the incoming player takes the cue ball as
  it lies.
* **Break**: ``_judge`` with ``phase == break``: every colour pocketed accrues to the breaker, the
  black returns, with a scratch all colours stay down but one of a same-colour pair.
* **Scratch**, **Fouls**: :class:`ColorsFoul`; no points on the shot, the point attempt fails, cue
  ball in hand anywhere.
* **No called balls**: there is no ``called_shot``; any kiss, carom or combination counts.
* **Set end**: ``_after_shot``: when the seventh colour is scored the balls are racked again and
  the player who made the last point breaks.

Decisions where the rule book is silent or ambiguous
----------------------------------------------------
* **Order within one shot** (``colour_after_black``): ``"illegal"`` (default): a colour that drops
  after the black has dropped, or while the black is off the table, is an illegal ball ("Pocketing
  ANY colored ball without the Black ball on the table surface is illegal"); a point ball that drops
  *before* the black on the same shot scores with it. ``"allowed"``: the black is judged after every
  colour of its shot, for venues where the order of drops is not watched.
* **Two neutrals of different colours on one shot**: the player may pocket either companion next;
  the first companion that drops scores and the other colour's ball becomes a plain point ball
  (it now needs the black), which is what "may choose the color companion of either ball" means.
* **An incidental black after a point on the same shot** is not illegal: it simply spots ("unless
  it spots after a point"); by itself, or with only a neutral, it is loss of turn.
* **A scratch or foul shot scores nothing**: "No point is awarded" on a scratch; every point ball
  down that shot or waiting for the black spots; of a colour with both balls down on a foul shot,
  one spots (the break's rule, applied to every scratch).
* **Points scored before an illegal ball on the same shot stand**; nothing after it scores.
* **A shot that pocketed only the black on the break** passes the turn (the black returns; no
  colour accrued). **The break not from the kitchen** is a foul.
* **Object balls off the table** are a foul (General Rules) and spot like pocketed ones (the black
  on the centre spot, a colour on the foot spot); a cue ball off the table is a scratch.
* **A shot that hits no ball** is a foul, as in every pool game; the rule book only states the
  rail-after-contact requirement.
* **A cue ball moved by hand** when the player must take it as it lies is reported to the referee
  (``add_foul`` if a player did it): the camera cannot tell a player's hand from the referee's.

Inputs: ``players`` {"names": [2 or 3 players or teams]}, ``break_winner`` {"player"}, ``add_foul``
{"code", "shot"}, ``overrule`` {"foul": false | "score" | "turn"}, ``setup`` {"on_table", "player",
"scores", "break", "pending", "window", "in_hand", "rack"} (a set already in progress: ``_setup_game``).
See docs/referee/colors.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar

from tableref.events import EventType, TableEvent
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
    by_type,
    cue_ball,
    first_hit,
    off_table,
    potted,
    rails_after_contact,
    start_position,
)
from tableref.referee.pool_table import BALLS, TABLE_OPTIONS, Point, ball_id, ball_number

CUE, BLACK = 0, 8
COLOUR_NAMES = {1: "yellow", 2: "blue", 3: "red", 4: "purple", 5: "orange", 6: "green", 7: "maroon"}


def colour(ball: int) -> int:
    """1-7: the colour of a companion ball (ball-9 is the yellow, like ball-1)."""
    return ball if ball < BLACK else ball - BLACK


def companion(ball: int) -> int:
    return ball + BLACK if ball < BLACK else ball - BLACK


class ColorsFoul(StrEnum):
    SCRATCH = "scratch"
    CUE_BALL_OFF_TABLE = "cue_ball_off_table"
    NO_CONTACT = "no_contact"
    NO_RAIL_AFTER_CONTACT = "no_rail_after_contact"
    OBJECT_BALL_OFF_TABLE = "object_ball_off_table"
    WRONG_CUE_BALL = "wrong_cue_ball"
    BREAK_NOT_FROM_KITCHEN = "break_not_from_kitchen"
    GENERAL_RULES = "general_rules"
    # Illegal balls: loss of turn, the incoming player takes the cue ball as it lies.
    BLACK_WITHOUT_POINT = "black_without_point"
    NEUTRAL_BEFORE_BLACK = "neutral_before_black"
    TWO_NEUTRALS_RUNNING = "two_neutrals_running"
    COLOUR_WITHOUT_BLACK = "colour_without_black"


ILLEGAL_BALLS = frozenset({
    ColorsFoul.BLACK_WITHOUT_POINT, ColorsFoul.NEUTRAL_BEFORE_BLACK,
    ColorsFoul.TWO_NEUTRALS_RUNNING, ColorsFoul.COLOUR_WITHOUT_BLACK,
})

#: code -> (rule-book clause, sentence); the tablet's text is derived from the code.
FOUL_RULES: Mapping[ColorsFoul, tuple[str, str]] = MappingProxyType({
    ColorsFoul.SCRATCH: ("Scratch", "{player} scratched: the cue ball dropped"),
    ColorsFoul.CUE_BALL_OFF_TABLE: ("Scratch", "{player} scratched: the cue ball left the table"),
    ColorsFoul.NO_CONTACT: ("Fouls", "{player}'s cue ball hit no ball"),
    ColorsFoul.NO_RAIL_AFTER_CONTACT: ("Fouls", "after the cue ball's contact no ball was pocketed and no ball hit a rail"),
    ColorsFoul.OBJECT_BALL_OFF_TABLE: ("Fouls", "{balls} left the table"),
    ColorsFoul.WRONG_CUE_BALL: ("Fouls", "{player} struck {balls} instead of the cue ball"),
    ColorsFoul.BREAK_NOT_FROM_KITCHEN: ("Break", "{player} broke from in front of the head string"),
    ColorsFoul.GENERAL_RULES: ("Fouls", "{player} fouled (called by the referee)"),
    ColorsFoul.BLACK_WITHOUT_POINT: ("Illegal balls", "{player} pocketed the black with no point ball before it"),
    ColorsFoul.NEUTRAL_BEFORE_BLACK: ("Illegal balls", "{player} pocketed the neutral {balls} before the black"),
    ColorsFoul.TWO_NEUTRALS_RUNNING: ("Illegal balls", "{player} pocketed a second neutral ball ({balls}) on consecutive shots"),
    ColorsFoul.COLOUR_WITHOUT_BLACK: ("Illegal balls", "{player} pocketed {balls} while the black was off the table"),
})


class ColorsScore(StrEnum):
    COMPANIONS = "companions"
    POINT_BALL_AND_BLACK = "point_ball_and_black"


class ColorsInstruction(StrEnum):
    SPOT_POINT_BALL = "spot_point_ball"
    SPOT_BLACK = "spot_black"
    CUE_BALL_IN_HAND = "cue_ball_in_hand"
    CUE_BALL_IN_HAND_KITCHEN = "cue_ball_in_hand_kitchen"
    CUE_BALL_AS_IT_LIES = "cue_ball_as_it_lies"
    RACK = "rack"


@dataclass
class ColorsCore(PoolCore):
    target: int = 11
    rack: int = 1
    eliminated: set[int] = field(default_factory=set)  # colours scored this rack
    window: list[int] = field(default_factory=list)  # colours whose companion scores on the next shot
    pending: list[int] = field(default_factory=list)  # point balls down, waiting for the black
    in_hand: str = "kitchen"  # "" (as it lies), "kitchen" or "anywhere"
    last_point_by: str | None = None


@dataclass
class _Run:
    """The walk through one shot's drops (what the shooter owed, what happened)."""

    owe_companion: bool
    owe_black: bool
    window_prev: set[int]
    pending: list[int]
    window_now: list[int] = field(default_factory=list)
    scored: list[tuple[ColorsScore, list[int]]] = field(default_factory=list)
    stay_down: list[int] = field(default_factory=list)
    to_spot: list[int] = field(default_factory=list)
    illegal: tuple[ColorsFoul, int] | None = None
    legal_pot: bool = False
    black_down: bool = False


_OPTIONS: dict[str, Any] = {**TABLE_OPTIONS, "race_to": 11, "race_to_three_players": 7, "colour_after_black": "illegal"}


class ColorsEngine(PoolEngine[ColorsCore]):
    """The Colors referee; see the module docstring for the rule-book map and the choices."""

    game: ClassVar[str] = "colors"
    default_options: ClassVar[Mapping[str, Any]] = MappingProxyType(_OPTIONS)
    foul_enum: ClassVar[type[StrEnum]] = ColorsFoul
    player_counts: ClassVar[tuple[int, ...]] = (2, 3)
    setup_keys: ClassVar[tuple[str, ...]] = ("pending", "window", "in_hand", "rack")

    def _validate_options(self, options: Mapping[str, Any]) -> None:
        for name in ("race_to", "race_to_three_players"):
            value = options[name]
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"option {name} must be a whole number of points >= 1, got {value!r}")
        if options["colour_after_black"] not in ("illegal", "allowed"):
            raise ValueError(f"option colour_after_black must be illegal or allowed, got {options['colour_after_black']!r}")

    def _new_core(self) -> ColorsCore:
        return ColorsCore(target=self.options["race_to"])

    def _on_players(self, core: ColorsCore) -> None:
        core.target = self.options["race_to_three_players" if len(core.players) == 3 else "race_to"]

    def _turn_given(self, core: ColorsCore, player: str) -> list[Update]:
        spot, core.pending, core.window = list(core.pending), [], []
        core.on_table |= set(spot)
        return self._spot(core, spot, black=False)

    def _outcome(self, state: PoolState[ColorsCore]) -> Outcome | None:
        core = state.core
        if core.phase is not Phase.OVER:
            return None
        return Outcome(winner=core.winner, scores=dict(core.scores), reason=core.result)

    # -- setup ------------------------------------------------------------------------------------
    def _full_rack(self, on_table: set[int]) -> bool:
        return set(BALLS) - {CUE} <= on_table  # the cue ball may still be in hand for the break

    def _setup_game(self, core: ColorsCore, data: Mapping[str, Any], is_break: bool) -> list[Update]:
        """What Colors keeps besides the position. A colour with both balls down is scored (eliminated)
        unless ``pending`` names its point ball (down, waiting for the black); ``window`` names companions
        on the table the player must pocket next (their neutral dropped on the last shot); ``in_hand`` is
        ``anywhere``, ``kitchen`` or ``as_it_lies`` (default: anywhere when the cue ball is off the table);
        the black always stands on the table (spotted when it is not listed)."""
        rack = data.get("rack", core.rack)
        if isinstance(rack, bool) or not isinstance(rack, int) or rack < 1:
            raise RefereeError(f"setup 'rack' is the set's number, a whole number >= 1, got {rack!r}")
        high = [p for p, points in core.scores.items() if points >= core.target]
        if high:
            raise RefereeError(f"setup gives {', '.join(high)} {core.target} points or more: the game would be over "
                               f"(race to {core.target})")
        core.rack, core.window, core.pending = rack, [], []
        owed = {key: data.get(key) for key in ("pending", "window") if data.get(key)}
        if is_break:
            if owed:
                raise RefereeError("setup: nothing is owed before a break; leave 'pending' and 'window' out")
            core.eliminated, core.in_hand = set(), "kitchen"
            return []
        pending = self._setup_balls(owed.get("pending"), "pending", core, on_table=False)
        window = self._setup_balls(owed.get("window"), "window", core, on_table=True)
        if pending and window:
            raise RefereeError("setup: a player owes the black (pending) or a companion (window), not both")
        core.pending, core.window = pending, [colour(b) for b in window]
        down = set(range(1, BLACK)) - {colour(b) for b in core.on_table}
        core.eliminated = {c for c in down if companion(c) not in core.on_table} - {colour(b) for b in pending}
        if len(core.eliminated) == len(COLOUR_NAMES):
            raise RefereeError("setup: every colour is scored, so the set is over; rack the balls and set up the break")
        words = {"anywhere": "anywhere", "kitchen": "kitchen", "as_it_lies": ""}
        hand = data.get("in_hand", "anywhere" if CUE not in core.on_table else "as_it_lies")
        if hand not in words:
            raise RefereeError(f"setup 'in_hand' is one of {', '.join(words)}, got {hand!r}")
        if hand == "as_it_lies" and CUE not in core.on_table:
            raise RefereeError("setup: the cue ball is not on the table, so it cannot be played as it lies; "
                               "give 'in_hand': 'anywhere' or list ball-0")
        core.in_hand = words[hand]
        if BLACK in core.on_table:
            return []
        core.on_table.add(BLACK)
        return self._spot(core, [], black=True)

    def _setup_balls(self, raw: Any, key: str, core: ColorsCore, *, on_table: bool) -> list[int]:
        if raw is None:
            return []
        if isinstance(raw, str) or not isinstance(raw, list | tuple):
            raise RefereeError(f"setup '{key}' lists ball ids, such as [\"ball-4\"], got {raw!r}")
        balls = [ball_number(str(b)) for b in raw]
        for ball in balls:
            where = "on the table" if on_table else "pocketed"
            if ball in (CUE, BLACK) or (ball in core.on_table) != on_table or companion(ball) in core.on_table:
                what = ("companion balls on the table whose partner is down" if on_table
                        else "point balls pocketed with their companion, waiting for the black")
                raise RefereeError(f"setup '{key}' lists {ball_id(ball)}; it takes {what} ({ball_id(ball)} must be "
                                   f"{where}, its companion {ball_id(companion(ball))} pocketed)")
        return sorted(set(balls))

    # -- shots ------------------------------------------------------------------------------------
    def _start_shot(self, core: ColorsCore, struck: int, event: TableEvent) -> list[Update]:
        if struck == CUE and core.in_hand:
            core.on_table.add(CUE)  # ball in hand: striking it is placing it
        if struck not in core.on_table:
            raise RefereeError(f"{ball_id(struck)} was struck but it is not on the table")
        return []

    def _hand(self, core: ColorsCore, event: TableEvent, ball: int) -> list[Update]:
        if ball != CUE or event.type is EventType.REMOVED:
            return []
        if core.in_hand:
            core.on_table.add(CUE)
            return []
        return [info("cue_ball_handled", "The cue ball was moved by hand, but it must be played as it lies; "
                     "enter add_foul if a player moved it", core.turn)]

    def _judge(self, core: ColorsCore, shot: Shot, ruling: Ruling) -> list[Update]:
        player, is_break = core.turn, core.phase is Phase.BREAK
        core.in_hand = ""
        cue = cue_ball(shot)
        dropped = [ball_number(b) for b in potted(shot)]
        gone = [ball_number(b) for b in off_table(shot)]
        camera: list[tuple[ColorsFoul, str]] = []
        if cue != ball_id(CUE):
            camera.append((ColorsFoul.WRONG_CUE_BALL, cue))
        where = start_position(shot, cue)
        if is_break and where is not None and not self.geometry.in_kitchen(where):
            camera.append((ColorsFoul.BREAK_NOT_FROM_KITCHEN, ""))
        if CUE in dropped:
            camera.append((ColorsFoul.SCRATCH, ""))
        if CUE in gone:
            camera.append((ColorsFoul.CUE_BALL_OFF_TABLE, ""))
        if [b for b in gone if b != CUE]:
            camera.append((ColorsFoul.OBJECT_BALL_OFF_TABLE, names(b for b in gone if b != CUE)))
        if first_hit(shot) is None and CUE not in dropped:
            camera.append((ColorsFoul.NO_CONTACT, ""))
        elif first_hit(shot) is not None and not dropped and not rails_after_contact(shot):
            camera.append((ColorsFoul.NO_RAIL_AFTER_CONTACT, ""))
        fouls = ([] if ruling.cancel_camera_fouls else camera) + [(ColorsFoul(c), "") for c in ruling.extra_fouls]
        run = _Run(owe_companion=bool(core.window), owe_black=bool(core.pending),
                   window_prev=set(core.window), pending=list(core.pending))
        declared = next((code for code, _ in fouls if code in ILLEGAL_BALLS), None)
        dead = any(code not in ILLEGAL_BALLS for code, _ in fouls)
        self._run_pots(core, shot, run, is_break, dead or declared is not None)
        updates = [self._foul(code, player, detail) for code, detail in fouls]
        if declared is not None and not dead:
            run.illegal = (declared, -1)
        elif run.illegal is not None and not dead:
            code, ball = run.illegal
            updates.append(self._foul(code, player, ball_id(ball)))
        for kind, balls in run.scored:
            updates.append(self._point(core, player, kind, balls))
        core.on_table -= set(dropped) | set(gone)
        return updates + self._after_shot(core, run, shot, is_break, dead, gone)

    def _run_pots(self, core: ColorsCore, shot: Shot, run: _Run, is_break: bool, dead: bool) -> None:
        """Walk the drops in order (the black last when ``colour_after_black`` is allowed)."""
        sequence: list[tuple[str, int]] = []
        for e in by_type(shot.events, EventType.POT, EventType.OFF_TABLE):
            ball = ball_number(e.objects[0])
            if e.type is EventType.POT and ball != CUE:
                sequence.append(("pot", ball))
            elif e.type is EventType.OFF_TABLE and ball == BLACK and not e.data.get("returned"):
                sequence.append(("black_off", ball))
        if self.options["colour_after_black"] == "allowed":
            sequence.sort(key=lambda s: s[1] == BLACK)
        table = set(core.on_table)
        for what, ball in sequence:
            table.discard(ball)
            if ball == BLACK:
                run.black_down = True
                if what == "pot" and not (dead or run.illegal or is_break):
                    if run.pending:
                        run.scored.append((ColorsScore.POINT_BALL_AND_BLACK, list(run.pending)))
                        run.pending, run.owe_black, run.legal_pot = [], False, True
                    elif not run.scored:
                        run.illegal = (ColorsFoul.BLACK_WITHOUT_POINT, BLACK)
                continue
            if dead or run.illegal is not None:
                self._dead_pot(run, ball, table)
            elif run.black_down and not is_break:
                run.illegal = (ColorsFoul.COLOUR_WITHOUT_BLACK, ball)
                self._dead_pot(run, ball, table)
            elif companion(ball) in table:  # a neutral ball: its companion is still on the table
                if not is_break and run.owe_companion:
                    run.illegal = (ColorsFoul.TWO_NEUTRALS_RUNNING, ball)
                elif not is_break and run.owe_black:
                    run.illegal = (ColorsFoul.NEUTRAL_BEFORE_BLACK, ball)
                else:
                    run.window_now.append(colour(ball))
                    run.legal_pot = True
                run.stay_down.append(ball)
            elif colour(ball) in run.window_prev or colour(ball) in run.window_now:
                run.scored.append((ColorsScore.COMPANIONS, [companion(ball), ball]))
                if colour(ball) in run.window_prev:
                    run.window_prev, run.owe_companion = set(), False
                else:
                    run.window_now.remove(colour(ball))
                run.legal_pot = True
            else:  # a point ball: it needs the black
                run.pending.append(ball)
                run.legal_pot = True

    def _dead_pot(self, run: _Run, ball: int, table: set[int]) -> None:
        """A ball that cannot score: the first of its colour stays down, a point ball spots."""
        if companion(ball) in table:
            run.stay_down.append(ball)
        else:
            run.to_spot.append(ball)

    # -- consequences -----------------------------------------------------------------------------
    def _foul(self, code: ColorsFoul, player: str, detail: str) -> Update:
        clause, template = FOUL_RULES[code]
        if code in ILLEGAL_BALLS:
            penalty = "loss of turn; the incoming player takes the cue ball as it lies"
            text = f"Illegal ball: {template.format(player=player, balls=detail)}. Loss of turn"
        else:
            penalty = "loss of turn; cue ball in hand anywhere on the table"
            text = f"Foul: {template.format(player=player, balls=detail)}. Cue ball in hand for the next player"
        return foul_update(code, clause, text, player, 0, penalty)

    def _point(self, core: ColorsCore, player: str, kind: ColorsScore, balls: list[int]) -> Update:
        if kind is ColorsScore.COMPANIONS:
            core.eliminated.add(colour(balls[0]))
            text = f"{player} +1: the {COLOUR_NAMES[colour(balls[0])]} companions ({names(balls)})"
            return score_update(player, 1, kind, "Game scoring", text, balls=[ball_id(b) for b in balls])
        core.eliminated.update(colour(b) for b in balls)
        text = f"{player} +{len(balls)}: point ball(s) {names(balls)} followed by the black"
        return score_update(player, len(balls), kind, "Game scoring", text, balls=[ball_id(b) for b in balls])

    def _after_shot(self, core: ColorsCore, run: _Run, shot: Shot, is_break: bool, dead: bool,
                    gone: list[int]) -> list[Update]:
        player = core.turn
        updates: list[Update] = []
        points = sum(len(balls) if kind is ColorsScore.POINT_BALL_AND_BLACK else 1 for kind, balls in run.scored)
        core.scores[player] += points
        if points:
            core.last_point_by = player
        failed = dead or run.illegal is not None or run.owe_companion or run.owe_black or not run.legal_pot
        if is_break and not dead:
            failed = not run.legal_pot
            core.phase = Phase.PLAY
        elif is_break:
            core.phase = Phase.PLAY
        spot = list(run.to_spot) + [b for b in gone if b not in (CUE, BLACK)]
        if failed:
            spot += run.pending
            if run.owe_companion and not dead and run.illegal is None:
                updates.append(info("companion_missed", f"{player} did not pocket the companion: no point", player))
            if run.owe_black and not dead and run.illegal is None:
                updates.append(info("black_missed", f"{player} did not pocket the black: no point", player))
            core.window, core.pending = [], []
        elif run.pending:
            core.window, core.pending = [], list(run.pending)
        else:
            core.window, core.pending = list(run.window_now), []
        black_back = run.black_down or BLACK in gone
        core.on_table |= set(spot) | ({BLACK} if black_back else set())
        updates += self._spot(core, spot, black_back)
        if core.scores[player] >= core.target:
            return updates + self._finish(core, player)
        if len(core.eliminated) == len(COLOUR_NAMES):
            return updates + self._next_rack(core)
        if not failed:
            return updates + [self._owed(core, player)]
        incoming = core.turn = core.next_player()
        updates.append(turn_update(incoming, f"{incoming} to shoot"))
        if dead:
            core.in_hand = "anywhere"
            updates.append(instruction(ColorsInstruction.CUE_BALL_IN_HAND, f"{incoming}: cue ball in hand anywhere on the table", incoming, "Fouls"))
        elif run.illegal is not None:
            updates.append(instruction(ColorsInstruction.CUE_BALL_AS_IT_LIES, f"{incoming} takes the cue ball as it lies", incoming, "Illegal balls"))
        return updates

    def _owed(self, core: ColorsCore, player: str) -> Update:
        if core.pending:
            return info("owe_black", f"{player} shoots again and must pocket the black to score {names(core.pending)}",
                        player, pending=[ball_id(b) for b in core.pending])
        if core.window:
            balls = [ball_id(companion(c) if companion(c) in core.on_table else c) for c in core.window]
            choice = "either companion" if len(balls) > 1 else "the companion"
            return info("owe_companion", f"{player} shoots again and must pocket {choice}: {', '.join(balls)}",
                        player, companions=balls)
        return info("again", f"{player} shoots again: any ball of colour", player)

    def _spot(self, core: ColorsCore, balls: list[int], black: bool) -> list[Update]:
        occupied: dict[str, Point] = {k: v for k, v in core.positions.items() if ball_number(k) in core.on_table
                                      and ball_number(k) not in balls and ball_number(k) != BLACK}
        out: list[Update] = []
        if black:
            point, where = self._black_spot(occupied)
            occupied[ball_id(BLACK)] = point
            core.positions[ball_id(BLACK)] = point
            out.append(instruction(ColorsInstruction.SPOT_BLACK, f"Spot the 8 on the {where}", clause="Spotting of balls",
                                   ball=ball_id(BLACK), position=list(point), spot=where))
        for ball in balls:
            point, on_spot = self.geometry.place_on_string("foot", occupied, toward=+1)
            occupied[ball_id(ball)] = point
            core.positions[ball_id(ball)] = point
            where = "foot spot" if on_spot else "long string behind the foot spot, as close to it as possible"
            out.append(instruction(ColorsInstruction.SPOT_POINT_BALL, f"Spot {ball_id(ball)} on the {where}",
                                   clause="Spotting of balls", ball=ball_id(ball), position=list(point)))
        return out

    def _black_spot(self, occupied: Mapping[str, Point]) -> tuple[Point, str]:
        spots = self.geometry.spots
        if not self.geometry.blocked(spots["centre"], occupied):
            return spots["centre"], "centre spot"
        if not self.geometry.blocked(spots["head"], occupied):
            return spots["head"], "head spot (the centre spot is blocked)"
        point, _ = self.geometry.place_on_string("head", occupied, toward=-1)
        return point, "long string behind the head spot (the centre and head spots are blocked)"

    def _finish(self, core: ColorsCore, player: str) -> list[Update]:
        core.phase, core.winner = Phase.OVER, player
        core.result = f"{player} reached {core.target} points"
        return [Update(UpdateKind.GAME_OVER, f"{player} wins the game, {core.scores[player]} points", code="game_over",
                       clause="Game end", player=player, data={"scores": dict(core.scores), "winner": player})]

    def _next_rack(self, core: ColorsCore) -> list[Update]:
        breaker = core.last_point_by or core.turn
        core.rack += 1
        core.on_table, core.eliminated, core.window, core.pending = set(BALLS), set(), [], []
        core.phase, core.breaker, core.turn, core.in_hand = Phase.BREAK, breaker, breaker, "kitchen"
        return [
            Update(UpdateKind.PHASE, f"Set {core.rack - 1} is over; set {core.rack}: {breaker} breaks", code="next_rack",
                   clause="Set end", player=breaker, data={"rack": core.rack}),
            instruction(ColorsInstruction.RACK, "Rack the fifteen balls, the black on the foot spot at the apex "
                        "(the black still on the table is racked)", clause="Rack"),
            instruction(ColorsInstruction.CUE_BALL_IN_HAND_KITCHEN, f"{breaker} breaks from behind the head string", breaker, "Break"),
            turn_update(breaker, f"{breaker} breaks"),
        ]
