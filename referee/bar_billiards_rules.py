"""The closed vocabularies of the 4-pin bar-billiards referee: fouls, instructions, input kinds.

Every foul the rule book names in 3a and 3b (plus the endgame's illegal shots of 2i(e)/(f)) is
one member of :class:`Foul`; its clause, its penalty and the sentence the tablet shows are looked
up from the code (python-chess style: text derived from the code, never the other way round).
Instructions to the table are the same: a closed :class:`Instruction` code with a sentence
template filled from the update's data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any


class Penalty(StrEnum):
    """What a foul costs: the running break only (3b) or every point of the game so far (3a)."""

    BREAK = "break"
    SCORE = "score"


#: a combination of fouls costs the highest penalty (rule 3, general points)
PENALTY_RANK: Mapping[Penalty, int] = MappingProxyType({Penalty.BREAK: 1, Penalty.SCORE: 2})


class Foul(StrEnum):
    """Every foul of rule 3 (and the endgame's illegal shots), one code each."""

    PIN_200_DOWN = "pin_200_down"
    ENDGAME_POT_WITHOUT_CUSHION = "endgame_pot_without_cushion"
    DELIBERATE = "deliberate"
    UNSPORTING = "unsporting"
    PIN_DOWN = "pin_down"
    BREAK_NOT_FROM_CENTRE = "break_not_from_centre"
    BREAK_MISSED_RED = "break_missed_red"
    BREAK_WRONG_WAY_ROUND = "break_wrong_way_round"
    CUED_OUTSIDE_D = "cued_outside_d"
    MISS = "miss"
    RED_NOT_PLAYED = "red_not_played"
    BALL_IN_BAULK = "ball_in_baulk"
    HANDLING = "handling"
    OFF_TABLE = "off_table"
    BALL_TOUCHED_PERSON = "ball_touched_person"
    SAME_BREAK_FOURTH_TIME = "same_break_fourth_time"
    NOT_FROM_CENTRE = "not_from_centre"
    JUMP = "jump"
    PUSH = "push"
    NOT_TIP = "not_tip"
    BEFORE_REST = "before_rest"
    BEFORE_RESET = "before_reset"
    OUT_OF_TURN = "out_of_turn"
    DOUBLE_HIT = "double_hit"
    ENDGAME_NO_CUSHION = "endgame_no_cushion"
    ENDGAME_SCOREBOARD = "endgame_scoreboard"
    ENDGAME_LEFT_TABLE = "endgame_left_table"


@dataclass(frozen=True)
class FoulSpec:
    clause: str
    penalty: Penalty
    text: str
    #: True when the foul belongs to a shot (judged with it); False for a foul committed between
    #: shots on its own (handling the balls, time wasting), which ends the offender's visit at once.
    of_shot: bool = True


_B, _S = Penalty.BREAK, Penalty.SCORE

FOULS: Mapping[Foul, FoulSpec] = MappingProxyType({
    Foul.PIN_200_DOWN: FoulSpec("3a(a)", _S, "The {colour} pin guarding the 200 hole fell: the whole score is lost."),
    Foul.ENDGAME_POT_WITHOUT_CUSHION: FoulSpec(
        "3a(b)", _S, "The final ball was potted without first striking a cushion: the whole score is lost."),
    Foul.DELIBERATE: FoulSpec("3a(c)", _S, "Deliberate foul: the whole score is lost."),
    Foul.UNSPORTING: FoulSpec(
        "3a(d)", _S, "Not playing in the spirit of the game: the whole score is lost.", of_shot=False),
    Foul.PIN_DOWN: FoulSpec("3b(a)", _B, "The {colour} pin guarding the {hole} hole fell: the break is lost."),
    Foul.BREAK_NOT_FROM_CENTRE: FoulSpec(
        "3b(b)", _B, "Foul break (2b(b)1): the white was not played from the centre of the D."),
    Foul.BREAK_MISSED_RED: FoulSpec(
        "3b(b)", _B, "Foul break (2b(b)2): the white did not touch the red."),
    Foul.BREAK_WRONG_WAY_ROUND: FoulSpec(
        "3b(b)", _B, "Foul break (2b(b)3): the red and the white were racked the wrong way round."),
    Foul.CUED_OUTSIDE_D: FoulSpec("3b(c)", _B, "A ball was cued from outside the D: the break is lost."),
    Foul.MISS: FoulSpec("3b(d)", _B, "Miss: the cue ball did not strike another ball."),
    Foul.RED_NOT_PLAYED: FoulSpec("3b(e)", _B, "The red was in the trough but a white was played."),
    Foul.BALL_IN_BAULK: FoulSpec("3b(f)", _B, "A ball came back to the D or baulk: the break is lost."),
    Foul.HANDLING: FoulSpec(
        "3b(g)", _B, "A ball or pin in play was moved other than by a shot from the D.", of_shot=False),
    Foul.OFF_TABLE: FoulSpec("3b(h)", _B, "A ball left the table and did not come back by itself."),
    Foul.BALL_TOUCHED_PERSON: FoulSpec(
        "3b(h)", _B, "A ball left the table and came back off a person or object (2d(b))."),
    Foul.SAME_BREAK_FOURTH_TIME: FoulSpec(
        "3b(i)", _B, "The same break-off shot was played more than three times in a row."),
    Foul.NOT_FROM_CENTRE: FoulSpec("3b(j)", _B, "The endgame ball was not played from the centre of the D."),
    Foul.JUMP: FoulSpec("3b(k)", _B, "The cue ball was jumped intentionally."),
    Foul.PUSH: FoulSpec("3b(l)", _B, "Push shot."),
    Foul.NOT_TIP: FoulSpec("3b(m)", _B, "The cue ball was struck with something other than the tip."),
    Foul.BEFORE_REST: FoulSpec("3b(n)", _B, "A shot was played before every ball had come to rest."),
    Foul.BEFORE_RESET: FoulSpec(
        "3b(o)", _B, "A shot was played before the balls were returned or the pins reset."),
    Foul.OUT_OF_TURN: FoulSpec("3b(p)", _B, "Played out of turn."),
    Foul.DOUBLE_HIT: FoulSpec("3b(q)", _B, "Double hit: the tip touched the cue ball twice."),
    Foul.ENDGAME_NO_CUSHION: FoulSpec(
        "2i(e)", _B, "Illegal endgame shot: the ball did not strike a cushion."),
    Foul.ENDGAME_SCOREBOARD: FoulSpec(
        "2i(f)", _B, "Illegal endgame shot: the ball touched the edge of the scoreboard."),
    Foul.ENDGAME_LEFT_TABLE: FoulSpec("2i(f)", _B, "Illegal endgame shot: the ball left the table."),
})


def foul_text(code: Foul, **data: Any) -> str:
    """The tablet's sentence for a foul, with its clause; missing template fields read plainly."""
    spec = FOULS[code]
    fields = {"colour": data.get("colour", ""), "hole": data.get("hole", "")}
    text = spec.text.format(**fields).replace("The  pin", "The pin")
    return f"{text} ({spec.clause})"


class Instruction(StrEnum):
    """What the referee has to do at the table next."""

    BREAK_OFF = "break_off"
    BREAK_OFF_WHITES = "break_off_whites"
    TAKE_RED = "take_red"
    TAKE_WHITE = "take_white"
    TAKE_NEAREST = "take_nearest"
    RETURN_TO_TROUGH = "return_to_trough"
    RESET_PINS = "reset_pins"
    REPLACE_BALL = "replace_ball"
    RESTORE_POSITIONS = "restore_positions"
    REPLAY_SHOT = "replay_shot"
    RERACK = "rerack"
    ENDGAME_SETUP = "endgame_setup"
    PLAY_FROM_CENTRE = "play_from_centre"


INSTRUCTIONS: Mapping[Instruction, tuple[str, str]] = MappingProxyType({
    Instruction.BREAK_OFF: ("2b", "No balls on the table: break off with the red on the spot and a white "
                                  "in the centre of the D."),
    Instruction.BREAK_OFF_WHITES: ("2b", "No balls on the table and the red is out of play: break off with a "
                                         "white on the spot and a white in the centre of the D."),
    Instruction.TAKE_RED: ("2c(c)", "Take the red from the trough and play it from the D."),
    Instruction.TAKE_WHITE: ("2c(b)", "Take a white from the trough and play it from the D."),
    Instruction.TAKE_NEAREST: ("2c(c)", "The trough is empty: take the {colour} ball nearest the baulk line"
                                        "{at} and play it from the D."),
    Instruction.RETURN_TO_TROUGH: ("3", "Return the {colour} ball{at} to the trough: {reason}."),
    Instruction.RESET_PINS: ("2h", "Reset the pins: {pins}."),
    Instruction.REPLACE_BALL: ("2f(a)", "Replace the {colour} ball that fell in without being hit where it "
                                        "stood; it scores nothing."),
    Instruction.RESTORE_POSITIONS: ("2e", "Interference: put the balls and pins back as close as possible "
                                          "to where they were; no penalty."),
    Instruction.REPLAY_SHOT: ("2e", "The shot does not count: {player} plays it again."),
    Instruction.RERACK: ("2b(b)", "Re-break: take up the balls, put the red on the spot and a white in the "
                                  "centre of the D."),
    Instruction.ENDGAME_SETUP: ("2i(a)", "Endgame: fold the scoreboard down, put the 50 pins into the 50 "
                                         "holes and stand the 100 and 200 pins on their spots."),
    Instruction.PLAY_FROM_CENTRE: ("2i(c)", "Place the {colour} ball on the centre of the D and play it off a "
                                            "cushion into the 100 or 200 hole."),
})


def instruction_text(code: Instruction, **data: Any) -> str:
    clause, template = INSTRUCTIONS[code]
    at = data.get("at")
    fields = {
        "colour": data.get("colour", ""),
        "at": f" (at {at[0]:.0f}, {at[1]:.0f} mm)" if at else "",
        "reason": data.get("reason", ""),
        "pins": ", ".join(data.get("pins", ())),
        "player": data.get("player", ""),
    }
    return template.format(**fields)


class InputKind(StrEnum):
    """Every human input the bar-billiards referee accepts (the tablet's buttons)."""

    COIN_TOSS = "coin_toss"
    BREAK_WINNER = "break_winner"
    BREAK_OPTION = "break_option"
    CLOCK_EXPIRED = "clock_expired"
    BAR_DROPPED = "bar_dropped"
    PIN_SWAP = "pin_swap"
    INTERFERENCE = "interference"
    BALL_TOUCHED_PERSON = "ball_touched_person"
    HANDLING = "handling"
    PUSH = "push"
    DOUBLE_HIT = "double_hit"
    JUMP = "jump"
    OUT_OF_TURN = "out_of_turn"
    DELIBERATE = "deliberate"
    UNSPORTING = "unsporting"
    NOT_FROM_D = "not_from_d"
    NOT_TIP = "not_tip"
    BEFORE_REST = "before_rest"
    BEFORE_RESET = "before_reset"
    SAME_BREAK_FOURTH_TIME = "same_break_fourth_time"
    ADD_FOUL = "add_foul"
    OVERRULE = "overrule"
    INVOKE_ENDGAME = "invoke_endgame"
    CONCEDE = "concede"
    NEW_FRAME = "new_frame"
    LEAGUE_MATCH = "league_match"
    SETUP = "setup"


#: the human inputs that are fouls in themselves (a camera cannot see them)
FOUL_INPUTS: Mapping[InputKind, Foul] = MappingProxyType({
    InputKind.HANDLING: Foul.HANDLING,
    InputKind.PUSH: Foul.PUSH,
    InputKind.DOUBLE_HIT: Foul.DOUBLE_HIT,
    InputKind.JUMP: Foul.JUMP,
    InputKind.OUT_OF_TURN: Foul.OUT_OF_TURN,
    InputKind.DELIBERATE: Foul.DELIBERATE,
    InputKind.UNSPORTING: Foul.UNSPORTING,
    InputKind.NOT_TIP: Foul.NOT_TIP,
    InputKind.BEFORE_REST: Foul.BEFORE_REST,
    InputKind.BEFORE_RESET: Foul.BEFORE_RESET,
    InputKind.SAME_BREAK_FOURTH_TIME: Foul.SAME_BREAK_FOURTH_TIME,
    InputKind.BALL_TOUCHED_PERSON: Foul.BALL_TOUCHED_PERSON,
})


def parse_foul(code: Any) -> Foul:
    """A foul code from the tablet; unknown codes list every accepted one."""
    try:
        return Foul(str(code))
    except ValueError:
        raise ValueError(f"unknown foul code {code!r}; accepted: {', '.join(f.value for f in Foul)}") from None
