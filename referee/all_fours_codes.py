"""The closed vocabularies of the All-Fours referee: inputs, phases, fouls, scores and notices.

Every foul the referee can call is a :class:`FoulCode` whose :data:`FOULS` entry holds the IC2024
clause, the sentence for the tablet and the penalty, so the tablet's words are derived from the code
and a new foul cannot be invented as free text. Dealing and kicking faults (:class:`DealFault`)
carry more than a penalty (who deals next, whether kicked points are forfeited), so they have their
own table, :data:`DEAL_FAULTS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class InputKind(StrEnum):
    """What the tablet (or a recorded log) tells the referee that the camera cannot see."""

    TEAMS = "teams"  # names of team A (south/north) and team B (east/west)
    NEW_GAME = "new_game"  # start the next game (optionally naming the dealer)
    DEAL = "deal"  # the dealer has dealt (the cut is done): a new hand
    HANDS = "hands"  # the dealt hands, where known (renege and trump checks use them)
    STAND = "stand"  # the lead player accepts the trump
    BEG = "beg"  # the lead player begs
    GIVE = "give"  # the dealer gives one
    RUN_PACK = "run_pack"  # the dealer runs the pack (the new kicks come as card_kicked)
    BLIND_STAND = "blind_stand"  # the lead player stands without looking, before the kick
    SING = "sing"  # a team sings its bullseye (with the sure point(s) shown, mid-hand)
    CLAIM_RENEGE = "claim_renege"  # a claim of renege or under-trumping, with the hand shown
    THROW_IN = "throw_in"  # a player throws the cards in (checked for a saved Jack, 24c)
    MISDEAL = "misdeal"  # a dealing fault (DealFault)
    KICK_IRREGULARITY = "kick_irregularity"  # a kicking fault (DealFault)
    ADD_PENALTY = "add_penalty"  # a foul the camera cannot see (conduct, delay, scoring)
    OVERRULE = "overrule"  # the human referee overrules the ruling just made
    CONCEDE = "concede"  # a team concedes the game (a scrapped or abandoned table, 5, 29d)
    DEFAULT = "default"  # a team defaults the match (10)
    TABLE_REPORT = "table_report"  # the bullseyes and hang-jacks recorded at another table


class Phase(StrEnum):
    """Where a hand stands."""

    DEALT = "dealt"  # six each dealt, the kick awaited (a blind stand happens here)
    KICKED = "kicked"  # trump turned; the lead player stands or begs
    BEGGED = "begged"  # the dealer gives one or runs the pack
    RUNNING = "running"  # the pack is being run: the next card_kicked is awaited
    PLAY = "play"  # tricks
    DONE = "done"  # played out, run out, dealt over, or ended by a bullseye


class StandKind(StrEnum):
    """How the trump was settled for the hand."""

    STAND = "stand"  # the lead player stood (he must hold trump, 22b)
    BLIND = "blind"  # stood blind by leading before the kick (22c, 22d)
    BLIND_DECLARED = "blind_declared"  # said "blind" but played after the kick: must hold trump (22c)
    GIVE = "give"  # begged and the dealer gave one (the dealer must hold trump, 22e)
    RUN = "run"  # begged and the pack was run to a new trump


class PointName(StrEnum):
    """The points of a hand in IC2024 27a's order of priority."""

    HIGH = "high"
    LOW = "low"
    JACK = "jack"
    HANG_JACK = "hang_jack"
    GAME = "game"


POINT_VALUES: dict[PointName, int] = {
    PointName.HIGH: 1,
    PointName.LOW: 1,
    PointName.JACK: 1,
    PointName.HANG_JACK: 3,
    PointName.GAME: 2,
}

POINT_TITLES: dict[PointName, str] = {
    PointName.HIGH: "High",
    PointName.LOW: "Low",
    PointName.JACK: "Jack",
    PointName.HANG_JACK: "Hang-Jack",
    PointName.GAME: "Game (gamble)",
}


class ScoreCode(StrEnum):
    """Why a team's points toward the bullseye changed (every SCORE update carries one)."""

    KICK = "kick"
    GIVE_ONE = "give_one"
    HIGH = "high"
    LOW = "low"
    JACK = "jack"
    HANG_JACK = "hang_jack"
    GAME = "game"
    MISDEAL = "misdeal"
    PENALTY = "penalty"
    FORFEIT = "forfeit"  # kicked points forfeited (a deal over, 20a, 20b, 21b, 25c)
    VOID = "void"  # points made null and void (27b, 27h)
    OVERRULE = "overrule"
    NEW_GAME = "new_game"  # the board is wiped for the next game


class Effect(StrEnum):
    """What a foul costs the offending pair."""

    LOSE_GAME = "lose_game"  # the game in progress goes to the opponents (amount = bullseyes)
    BULLSEYE = "bullseye"  # bullseyes added to the opponents' tally; play goes on
    POINT = "point"  # points to the opponents
    ZERO_POINTS = "zero_points"  # the offenders' points go back to zero (27h)
    VOID_LAST = "void_last"  # the offenders' points of the last issue are void (27b)
    CONCEDE_GAME_POINT = "concede_game_point"  # the offenders concede Game for this hand (27f)
    NONE = "none"  # no penalty: an instruction


class FoulCode(StrEnum):
    """Every foul the All-Fours referee calls, automatic or entered with ``add_penalty``."""

    # seen by the referee in the cards (automatic)
    RENEGE = "renege"
    UNDER_TRUMP = "under_trump"
    RENEGE_TO_SAVE_JACK = "renege_to_save_jack"
    THREW_IN_JACK = "threw_in_jack"
    STOOD_WITHOUT_TRUMP = "stood_without_trump"
    BLIND_STAND_WITHOUT_TRUMP = "blind_stand_without_trump"
    GAVE_WITHOUT_TRUMP = "gave_without_trump"
    HIDDEN_CARD = "hidden_card"
    LEAD_OUT_OF_TURN = "lead_out_of_turn"
    # entered by the human referee (add_penalty)
    WRONG_TABLE = "wrong_table"
    SCORE_SHEET_TABLE = "score_sheet_table"
    LATE_START = "late_start"
    DEALER_OVER_BREWING = "dealer_over_brewing"
    IMPROPER_GATHERING = "improper_gathering"
    CUTTER_DELAY = "cutter_delay"
    OTHER_PLAYER_BREWING = "other_player_brewing"
    LOOKED_AT_CARDS = "looked_at_cards"
    WENT_INTO_LIFT = "went_into_lift"
    DISHONESTY = "dishonesty"
    OBSCENE_LANGUAGE = "obscene_language"
    DELAY_OF_GAME = "delay_of_game"
    ABSENT_PLAYER = "absent_player"
    WALKED_AWAY = "walked_away"
    STOLE_POINTS = "stole_points"
    ERASED_POINTS = "erased_points"
    IMPROPER_POINT_WRITING = "improper_point_writing"
    HANDLED_PACK_IN_GAMBLE = "handled_pack_in_gamble"
    LEFT_DISPUTE = "left_dispute"


@dataclass(frozen=True)
class FoulSpec:
    """A foul's clause, its sentence (``{seat}``, ``{team}``, ``{detail}`` filled in) and penalty."""

    clause: str
    sentence: str
    effect: Effect
    amount: int = 1
    manual: bool = False  # may be entered with add_penalty


FOULS: dict[FoulCode, FoulSpec] = {
    FoulCode.RENEGE: FoulSpec("24a", "{seat} reneged: {detail}", Effect.LOSE_GAME),
    FoulCode.UNDER_TRUMP: FoulSpec("24b", "{seat} under-trumped: {detail}", Effect.LOSE_GAME),
    FoulCode.RENEGE_TO_SAVE_JACK: FoulSpec(
        "24c", "{seat} reneged to save the Jack: {detail}; the Jack is registered as hung", Effect.LOSE_GAME, 2
    ),
    FoulCode.THREW_IN_JACK: FoulSpec(
        "24c", "{seat} threw the cards in with the Jack: {detail}; the Jack is registered as hung", Effect.LOSE_GAME, 2
    ),
    FoulCode.STOOD_WITHOUT_TRUMP: FoulSpec("22b", "{seat} stood without trump: {detail}", Effect.LOSE_GAME),
    FoulCode.BLIND_STAND_WITHOUT_TRUMP: FoulSpec(
        "22c", "{seat} stood blind but played after the kick without trump: {detail}", Effect.LOSE_GAME
    ),
    FoulCode.GAVE_WITHOUT_TRUMP: FoulSpec("22e", "{seat} gave one without trump: {detail}", Effect.LOSE_GAME),
    FoulCode.HIDDEN_CARD: FoulSpec(
        "23b", "{seat} played two cards and the bottom card is hidden (hiding): {detail}", Effect.LOSE_GAME, manual=True
    ),
    FoulCode.LEAD_OUT_OF_TURN: FoulSpec(
        "23c", "{seat} led out of turn with {detail}: take it back; {team_lead} leads, any card", Effect.NONE
    ),
    FoulCode.WRONG_TABLE: FoulSpec("15f", "{team} were on the wrong table", Effect.BULLSEYE, manual=True),
    FoulCode.SCORE_SHEET_TABLE: FoulSpec(
        "15c", "{team} played a pair on a table other than the score sheet says", Effect.BULLSEYE, manual=True
    ),
    FoulCode.LATE_START: FoulSpec(
        "16a", "{team} were not seated and ready fifteen minutes after the start", Effect.BULLSEYE, manual=True
    ),
    FoulCode.DEALER_OVER_BREWING: FoulSpec(
        "17b", "the dealer {seat} played with the pack past the limit after a warning", Effect.POINT, manual=True
    ),
    FoulCode.IMPROPER_GATHERING: FoulSpec(
        "17c", "{seat} gathered or brewed the pack improperly after a warning", Effect.POINT, manual=True
    ),
    FoulCode.CUTTER_DELAY: FoulSpec(
        "17d", "the cutter {seat} exceeded the play with the pack or delayed the cut", Effect.POINT, manual=True
    ),
    FoulCode.OTHER_PLAYER_BREWING: FoulSpec(
        "17e", "{seat} brewed or played with the cards after a warning", Effect.POINT, manual=True
    ),
    FoulCode.LOOKED_AT_CARDS: FoulSpec(
        "22f", "{seat} looked at the cards without the privilege", Effect.POINT, manual=True
    ),
    FoulCode.WENT_INTO_LIFT: FoulSpec(
        "25b", "{seat} went into a lift of cards without asking", Effect.POINT, manual=True
    ),
    FoulCode.DISHONESTY: FoulSpec(
        "25a", "{seat} was found hiding, palming or stealing a card", Effect.LOSE_GAME, manual=True
    ),
    FoulCode.OBSCENE_LANGUAGE: FoulSpec(
        "11a", "{seat} persisted with insulting or obscene language after a warning", Effect.LOSE_GAME, manual=True
    ),
    FoulCode.DELAY_OF_GAME: FoulSpec(
        "26a", "{seat} froze past the ten-second count", Effect.BULLSEYE, manual=True
    ),
    FoulCode.ABSENT_PLAYER: FoulSpec(
        "26c", "{seat} has been away from the table another five minutes", Effect.BULLSEYE, manual=True
    ),
    FoulCode.WALKED_AWAY: FoulSpec(
        "26d", "{seat} walked away from the table and refused to return", Effect.BULLSEYE, manual=True
    ),
    FoulCode.STOLE_POINTS: FoulSpec(
        "27d", "{seat} wrote points after they were decided or erased the opponents' points", Effect.LOSE_GAME,
        manual=True,
    ),
    FoulCode.ERASED_POINTS: FoulSpec(
        "27h", "{team} erased their points before singing", Effect.ZERO_POINTS, manual=True
    ),
    FoulCode.IMPROPER_POINT_WRITING: FoulSpec(
        "27b", "{team} wrote their points improperly (joined, out of order or in front of an opponent)",
        Effect.VOID_LAST, manual=True,
    ),
    FoulCode.HANDLED_PACK_IN_GAMBLE: FoulSpec(
        "27f", "{seat} handled the pack while Game was contested", Effect.CONCEDE_GAME_POINT, manual=True
    ),
    FoulCode.LEFT_DISPUTE: FoulSpec(
        "29b", "{seat} walked away from the table during a dispute", Effect.BULLSEYE, manual=True
    ),
}


class Payee(StrEnum):
    """Who scores a dealing fault's point."""

    DEALER_OPPONENTS = "dealer_opponents"
    DEALER_TEAM = "dealer_team"
    FOULER_OPPONENTS = "fouler_opponents"
    NOBODY = "nobody"


class After(StrEnum):
    """What happens to the hand after a dealing fault."""

    DEAL_OVER = "deal_over"  # the same dealer deals again (unless 20c or 20d moves the deal)
    KICK_AGAIN = "kick_again"  # the kick is void; the dealer kicks the proper card (21f)
    PLAY_ON = "play_on"  # the hand goes on


class DealFault(StrEnum):
    """Faults in cutting, dealing and kicking (the ``misdeal`` and ``kick_irregularity`` inputs)."""

    # misdeal
    WRONG_COUNT = "wrong_count"
    DEAL_VARIATION = "deal_variation"
    LANDSLIDE = "landslide"
    RESHUFFLED_AFTER_CUT = "reshuffled_after_cut"
    CARDS_CHECKED_AFTER_PACK_DOWN = "cards_checked_after_pack_down"
    WRONG_SADDLE = "wrong_saddle"
    EXPOSED_CARD_REFUSED = "exposed_card_refused"
    CUT_TURNED_OVER = "cut_turned_over"
    # kick irregularity
    DEALER_HANDLED_PACK = "dealer_handled_pack"
    TWO_CARDS_KICKED = "two_cards_kicked"
    TWO_CARDS_WRONGLY_DECLARED = "two_cards_wrongly_declared"
    TOP_CUT_CARD_KICKED = "top_cut_card_kicked"
    RUN_VARIATION = "run_variation"
    PACK_FELL_BEFORE_KICK = "pack_fell_before_kick"
    PACK_FELL_AFTER_KICK = "pack_fell_after_kick"


@dataclass(frozen=True)
class DealFaultSpec:
    clause: str
    sentence: str
    payee: Payee
    points: int
    forfeit_kick: bool
    after: After
    misdeal: bool  # counts toward the dealer's two consecutive misdeals (20d)
    kick: bool  # entered as a kick irregularity (else as a misdeal)
    needs_seat: bool = False


DEAL_FAULTS: dict[DealFault, DealFaultSpec] = {
    DealFault.WRONG_COUNT: DealFaultSpec(
        "20a", "a player has more or fewer cards than dealt: misdeal", Payee.DEALER_OPPONENTS, 1, True,
        After.DEAL_OVER, True, False,
    ),
    DealFault.DEAL_VARIATION: DealFaultSpec(
        "19b", "the cards were not dealt anticlockwise one or three at a time: misdeal", Payee.DEALER_OPPONENTS, 1,
        True, After.DEAL_OVER, True, False,
    ),
    DealFault.LANDSLIDE: DealFaultSpec(
        "19f", "cards fell out of the deck while dealing (landslide): misdeal", Payee.DEALER_OPPONENTS, 1, True,
        After.DEAL_OVER, True, False,
    ),
    DealFault.RESHUFFLED_AFTER_CUT: DealFaultSpec(
        "18d", "the pack was reshuffled, brewed or run after the cut: misdeal", Payee.DEALER_OPPONENTS, 1, True,
        After.DEAL_OVER, True, False,
    ),
    DealFault.CARDS_CHECKED_AFTER_PACK_DOWN: DealFaultSpec(
        "19e", "cards were checked after the deck was placed on the table: misdeal", Payee.DEALER_OPPONENTS, 1,
        True, After.DEAL_OVER, True, False,
    ),
    DealFault.WRONG_SADDLE: DealFaultSpec(
        "19a", "the pack was wrong-saddled after the cut: deal over, no points", Payee.NOBODY, 0, False,
        After.DEAL_OVER, False, False,
    ),
    DealFault.EXPOSED_CARD_REFUSED: DealFaultSpec(
        "19c", "a card turned up in the deal was refused: deal over, no points", Payee.NOBODY, 0, False,
        After.DEAL_OVER, False, False,
    ),
    DealFault.CUT_TURNED_OVER: DealFaultSpec(
        "18b", "{seat} turned the cards over when given to cut: deal over", Payee.FOULER_OPPONENTS, 1, False,
        After.DEAL_OVER, False, False, needs_seat=True,
    ),
    DealFault.DEALER_HANDLED_PACK: DealFaultSpec(
        "21b", "the dealer dealt, looked or peeped after placing the deck: deal over", Payee.DEALER_OPPONENTS, 1,
        True, After.DEAL_OVER, False, True,
    ),
    DealFault.TWO_CARDS_KICKED: DealFaultSpec(
        "21c", "two cards were kicked and the underneath card correctly declared: misdeal", Payee.DEALER_OPPONENTS,
        1, True, After.DEAL_OVER, True, True,
    ),
    DealFault.TWO_CARDS_WRONGLY_DECLARED: DealFaultSpec(
        "21c", "two cards were kicked but the underneath card was wrongly declared: the dealer scores the misdeal",
        Payee.DEALER_TEAM, 1, True, After.DEAL_OVER, True, True,
    ),
    DealFault.TOP_CUT_CARD_KICKED: DealFaultSpec(
        "21f", "the card cut from the top was kicked: kick again", Payee.DEALER_OPPONENTS, 1, True,
        After.KICK_AGAIN, False, True,
    ),
    DealFault.RUN_VARIATION: DealFaultSpec(
        "21d", "the pack was not run as the rule says (kick under the pack, deal to a new suit)",
        Payee.DEALER_OPPONENTS, 1, False, After.PLAY_ON, False, True,
    ),
    DealFault.PACK_FELL_BEFORE_KICK: DealFaultSpec(
        "25c", "the cards fell to the ground before the kick: deal over, no penalty", Payee.NOBODY, 0, False,
        After.DEAL_OVER, False, True,
    ),
    DealFault.PACK_FELL_AFTER_KICK: DealFaultSpec(
        "25c", "{seat} fouled the pack after the kick: deal over", Payee.FOULER_OPPONENTS, 1, True,
        After.DEAL_OVER, False, True, needs_seat=True,
    ),
}


class Notice(StrEnum):
    """Codes of the non-foul messages (turns, choices, phases, instructions, notes)."""

    NEW_GAME = "new_game"
    NEW_HAND = "new_hand"
    POWER_PLAY = "power_play"
    KICKED = "kicked"
    STAND_OR_BEG = "stand_or_beg"
    GIVE_OR_RUN = "give_or_run"
    STOOD = "stood"
    STOOD_BY_PLAYING = "stood_by_playing"
    BLIND_STAND = "blind_stand"
    GAVE_ONE = "gave_one"
    RUN_PACK = "run_pack"
    SAME_SUIT = "same_suit"
    NEW_TRUMP = "new_trump"
    RUN_OUT = "run_out"
    TO_PLAY = "to_play"
    TO_LEAD = "to_lead"
    CARD_TO_BOARD = "card_to_board"
    BOTTOM_CARD_COUNTS = "bottom_card_counts"
    CARD_RETRIEVED = "card_retrieved"
    TRICK = "trick"
    JACK_HUNG = "jack_hung"
    HAND_OVER = "hand_over"
    NOT_COUNTED = "not_counted"
    FORFEITED = "forfeited"
    SING_NOW = "sing_now"
    UNSUNG = "unsung"
    SURE_POINT = "sure_point"
    BULLSEYE = "bullseye"
    DEAL_OVER = "deal_over"
    DEAL_PASSES = "deal_passes"
    KICK_AGAIN = "kick_again"
    TABLE_CLOSED = "table_closed"
    MATCH_OVER = "match_over"
    CLAIM_NOT_UPHELD = "claim_not_upheld"
    OVERRULED = "overruled"
    HANDS = "hands"
    TEAMS = "teams"
    TABLE_REPORT = "table_report"
    MISDEAL_LATE = "misdeal_late"
