"""All-Fours under the Independence Cup 2024 3-table rules (``rules/all-fours-ic2024.txt``).

One engine referees one table of a three-table match: games to fourteen points (a bullseye each),
the hands within them, and the match tally (17 bullseyes over three tables, 11 games a table).

Where the rule book lives in the code
-------------------------------------
=========================================  ===========================================================
IC2024 section                             code
=========================================  ===========================================================
2a trump and play anything, 14-point       ``all_fours_rules.follows``, ``bullseye_points`` option
2c standings order                         ``all_fours_match.standings``
10 default                                 ``default`` input, ``all_fours_match.default_result``
5, 29d, 29e scrapped / abandoned table     ``concede`` input (``close_table``)
11a, 15c, 15f, 16a, 17b-e, 22f, 25a, 25b,  ``add_penalty`` input, ``FoulCode`` / ``FOULS`` in
26a, 26c, 26d, 27b, 27d, 27f, 27h, 29b     ``all_fours_codes``
15b the toss winner deals first            the first ``deal`` names its dealer
18b, 18d, 19a-c, 19e, 19f, 20a, 20c, 20d   ``misdeal`` input, ``all_fours_deal.deal_fault``/``deal_over``
20b misdeal after the fifth card           ``all_fours_deal.late_misdeal``
21a kick points, 30c power play            ``all_fours_deal.kick_value``, ``all_fours_match.power_play_on``
21b, 21c, 21d, 21f, 25c kick faults        ``kick_irregularity`` input, ``DEAL_FAULTS``
21d run the pack, 21e run-out              ``all_fours_deal._run_kick``, ``run_out``
22a stand, beg, give one                   ``all_fours_deal.on_stand/on_beg/on_give/on_run_pack``
22b, 22c, 22e trump in hand                ``all_fours_rules.trump_check``, ``hands`` input
22c, 22d blind stand                       ``all_fours_play.on_card_played`` (a lead before the kick),
                                           ``all_fours_rules.hand_awards``
23a-d card on board                        ``all_fours_play`` (``_top_card``, ``_lead_out_of_turn``,
                                           ``on_card_retrieved``, ``_card_to_board``)
24a, 24b, 22g renege, under-trump, flush   ``all_fours_rules.renege_at``, ``under_trump_at``
24c renege to save the Jack / throw-in     ``renege_at`` (``RENEGE_TO_SAVE_JACK``), ``all_fours_claims.on_throw_in``
27a High, Low, Jack/Hang-Jack, Game        ``all_fours_rules.hand_awards``, ``all_fours_play.score_hand``
27f Game tie to the dealer's opponents     ``all_fours_rules.hand_awards``
27g-27i singing, sure points, unsung 14    ``all_fours_claims.on_sing``, ``all_fours_rules.sure_awards``
28 elimination (17 bullseyes, 11 games)    ``all_fours_scoring.end_game``, ``all_fours_match``
30b-30d power play, 14-0 counts two        ``power_play`` options, ``all_fours_claims.bullseyes_for``
=========================================  ===========================================================

Standard All Fours the book assumes
-----------------------------------
The IC2024 book never states the game itself; these are the standard (Trinidad) All Fours rules:
52 cards ranked A K Q J 10 ... 2; six each, dealt and played anticlockwise (19b: to the right,
south -> east -> north -> west seen from above); the dealer's right-hand neighbour is the lead
player who stands or begs and leads first; the deal passes to the right after each hand. The kicked
card is out of play. High: the pair that held the highest trump played; Low: the pair that held the
lowest trump played (not who won it); Jack: the holder's pair if it is theirs at the end of its
trick, else Hang-Jack to the pair that took it; Game (the IC2024 "gamble"): ten 10, ace 4, king 3,
queen 2, jack 1 in the tricks each pair took. Running the pack deals three more each and kicks
again until the suit changes; the hand is then played with every card held (nine or twelve).

Choices where the book is silent or ambiguous (what a referee would accept)
----------------------------------------------------------------------------
* **Power play, "the 7-11 bullseye mark" (30b).** Counted as the 7th to the 11th game at this
  table: 28 caps a table at eleven games, so 7-11 reads as its last five. Venue option
  ``power_play``: ``"games"`` (default), ``"table_bullseyes"`` (the coming bullseye at this table,
  both pairs and penalties counted, is the 7th to the 11th) or ``"off"``; the bounds are
  ``power_play_from``/``power_play_to`` and the extra point ``power_play_bonus``.
* **Kicks while running the pack.** Every kicked card scores, also one of the original suit (21a
  scores the act of kicking and 21e lets the dealer keep "any points scored by kicking" after a
  run-out). Venue option ``score_same_suit_kicks`` (default true).
* **"Except when flush" (24b).** A player whose remaining cards are all trumps cannot avoid
  under-trumping, so he is excused. Venue option ``flush_exception``: ``"remaining"`` (default) or
  ``"dealt"`` (only a hand dealt six trumps, 22g).
* **"Loses the bullseye"** (22b, 22c, 22e, 23b, 24a-c, 25a, 27d, 11a) ends the game in progress: the
  opponents take its bullseye (two for 24c), a penalty bullseye never doubles as 14-0. Bullseyes
  "awarded" or "penalized" while "the game continues" (15c, 15f, 16a, 26a, 26c, 26d, 29b) are added
  to the opponents' tally and the game goes on.
* **Priority (27a).** At the end of a hand the points are counted High, Low, Jack/Hang-Jack, Game and
  the count stops once a pair has fourteen: the rest are not counted (so 14-0 can stand). After an
  unsung fourteen (27i) the next issue is played out and every point counts.
* **Singing (27g-27i).** Fourteen is a bullseye only once sung. A pair may sing any time before the
  next cut; mid-hand it may sing on sure points (shown or played) that take it to fourteen: High or
  Low that nothing left can beat, a Jack already kept or hung (or a shown Jack no trump can take),
  Game the other pair can no longer reach. A sure point played to sing is not an under-trump (27g).
* **Renege proof.** A renege or under-trump is called as soon as the cards prove it: a card of the
  suit (or a non-trump) played later, shown in a claim, put back from a two-card landing or given in
  ``hands``. "Renege to save the Jack" (24c) is a renege on a trump lead while holding the trump
  Jack; it also registers a hang-jack for the opponents.
* **Lead out of turn not taken back.** If the true lead is played while it is still on the board it
  becomes card to board (23d) and counts as that player's card in the trick.
* **Misdeal after the fifth card (20b).** The offenders' High, Low, Jack and Game this hand are not
  scored (their opponents' are); ``cards_held`` tells the referee how many cards the offender holds so
  the hand can be played out.
* **Default (10).** The winner is credited the required 17 bullseyes for and "half against" as
  ``default_bullseyes_against`` (8: half of 17 rounded down, in the present team's favour); hang-jacks
  already recorded stand and none are added.

What the referee decides and what it asks: see ``docs/referee/all-fours.md``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from tableref.events import EventType, HumanInput, LogItem, TableEvent
from tableref.referee import all_fours_claims as claims
from tableref.referee import all_fours_deal as deal
from tableref.referee import all_fours_play as play
from tableref.referee.all_fours_cards import SEATS, check_seat_order, other_team, parse_seat, parse_team
from tableref.referee.all_fours_codes import FOULS, FoulCode, InputKind, Notice, Phase, ScoreCode
from tableref.referee.all_fours_match import POWER_PLAY_MODES, match_result, match_tallies
from tableref.referee.all_fours_scoring import (
    Ctx,
    apply_foul,
    award_bullseyes,
    check_match,
    close_match,
    end_game,
    label,
)
from tableref.referee.all_fours_state import AllFoursState, TableReport
from tableref.referee.base import Engine, Outcome, RefereeError, Update, UpdateKind

Handler = Callable[[Ctx, AllFoursState, Any], list[Update]]


class AllFoursEngine(Engine[AllFoursState]):
    """The IC2024 All-Fours referee for one table of a three-table match."""

    INPUT_KINDS = tuple(k.value for k in InputKind)

    game: ClassVar[str] = "all-fours"

    default_options: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {
            "table": 1,  # which of the match's tables this engine referees
            "tables": 3,
            "seat_order": ["south", "east", "north", "west"],  # direction of play (19b: anticlockwise)
            "bullseye_points": 14,
            "match_bullseyes": 17,
            "max_games_per_table": 11,
            "kick_points": {"J": 3, "6": 2, "A": 1},
            "power_play": "games",
            "power_play_from": 7,
            "power_play_to": 11,
            "power_play_bonus": 1,
            "score_same_suit_kicks": True,
            "flush_exception": "remaining",
            "love_counts_two": True,
            "default_bullseyes_against": 8,
        }
    )

    def _check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        merged = super()._check_options(options)
        merged["seat_order"] = list(check_seat_order(merged["seat_order"]))
        if merged["power_play"] not in POWER_PLAY_MODES:
            raise ValueError(f"power_play must be one of {', '.join(POWER_PLAY_MODES)}, got {merged['power_play']!r}")
        if merged["flush_exception"] not in ("remaining", "dealt"):
            raise ValueError(f"flush_exception must be 'remaining' or 'dealt', got {merged['flush_exception']!r}")
        for name in ("table", "tables", "bullseye_points", "match_bullseyes", "max_games_per_table"):
            if not isinstance(merged[name], int) or merged[name] < 1:
                raise ValueError(f"{name} must be a positive whole number, got {merged[name]!r}")
        for name in ("power_play_from", "power_play_to", "power_play_bonus", "default_bullseyes_against"):
            if not isinstance(merged[name], int) or merged[name] < 0:
                raise ValueError(f"{name} must be a whole number 0 or more, got {merged[name]!r}")
        if not 1 <= merged["table"] <= merged["tables"]:
            raise ValueError(f"table must be between 1 and tables ({merged['tables']}), got {merged['table']}")
        kicks = merged["kick_points"]
        if not isinstance(kicks, Mapping) or not all(isinstance(v, int) and v >= 0 for v in kicks.values()):
            raise ValueError("kick_points maps ranks to points, e.g. {'J': 3, '6': 2, 'A': 1}")
        return merged

    @property
    def _ctx(self) -> Ctx:
        return Ctx(self.options, tuple(self.options["seat_order"]))

    # -- the engine contract -------------------------------------------------------------------
    def _initial_state(self) -> AllFoursState:
        return AllFoursState()

    def _scores(self, state: AllFoursState) -> dict[str, int]:
        """Points per pair toward the bullseye in the current (or just finished) game."""
        return dict(state.game.points) if state.game is not None else {"A": 0, "B": 0}

    def _outcome(self, state: AllFoursState) -> Outcome | None:
        """The match once it is over; before that, the game just won until the next one starts."""
        if state.match_over:
            result = match_result(state, self.options)
            bulls = {"A": result.bullseyes_a, "B": result.bullseyes_b}
            return Outcome(state.match_winner, bulls, state.match_reason or "match over")
        game = state.game
        if game is not None and game.over and game.winner is not None:
            return Outcome(game.winner, dict(game.points), game.reason or "bullseye")
        return None

    def _apply(self, state: AllFoursState, item: LogItem) -> list[Update]:
        ruling = state.ruling
        state.ruling = None
        ctx = self._ctx
        if isinstance(item, TableEvent):
            if item.type in _SEEN_NOT_REFEREED:
                return []
            handler = _EVENT_HANDLERS.get(item.type)
            if handler is None:
                accepted = ", ".join(e.value for e in (*_EVENT_HANDLERS, *_SEEN_NOT_REFEREED))
                raise RefereeError(f"All-Fours does not use {item.type.value} events; accepted: {accepted}")
            return handler(ctx, state, item)
        try:
            kind = InputKind(item.kind)
        except ValueError:
            accepted = ", ".join(k.value for k in InputKind)
            raise RefereeError(f"unknown All-Fours input {item.kind!r}; accepted: {accepted}") from None
        if kind is InputKind.OVERRULE:
            return _overrule(ctx, state, ruling)
        if state.match_over and kind is not InputKind.TEAMS:
            raise RefereeError(f"the match is over ({state.match_reason}); {kind.value} cannot be applied")
        return _INPUT_HANDLERS[kind](ctx, state, item)

    # -- conveniences for the tablet -------------------------------------------------------------
    def phase(self) -> str:
        """A one-word summary: the hand's phase, ``game_over``, ``match_over`` or ``await_deal``."""
        state = self._state
        if state.match_over:
            return "match_over"
        if state.game is None:
            return "await_deal"
        if state.game.over:
            return "game_over"
        hand = state.game.hand
        if hand is None or hand.phase is Phase.DONE:
            return "await_deal"
        return hand.phase.value

    def match_tallies(self) -> dict[str, dict[str, int]]:
        bulls, hangs = match_tallies(self._state)
        return {"bullseyes": bulls, "hang_jacks": hangs}


# -- inputs handled at the table level ---------------------------------------------------------------


def _on_teams(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    names = {team: item.data[team] for team in ("A", "B") if team in item.data}
    if not names or not all(isinstance(v, str) and v.strip() for v in names.values()):
        raise RefereeError("'teams' names the teams: {'A': 'White Oak', 'B': 'Rivals'} (A sits south/north)")
    state.teams.update({k: v.strip() for k, v in names.items()})
    return [Update(UpdateKind.INFO, f"Teams: A {state.teams['A']} (south/north), B {state.teams['B']} (east/west)",
                   code=Notice.TEAMS, data={"teams": dict(state.teams)})]


def _offender(item: HumanInput) -> tuple[str | None, str]:
    if "seat" in item.data:
        seat = parse_seat(item.data["seat"])
        return seat, parse_team(seat)
    if "team" in item.data:
        return None, parse_team(item.data["team"])
    raise RefereeError("name the offender: 'seat' (south/east/north/west) or 'team' (A or B)")


def _on_add_penalty(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    manual = [c.value for c, spec in FOULS.items() if spec.manual]
    raw = item.data.get("code")
    try:
        code = FoulCode(raw)
    except ValueError:
        raise RefereeError(f"unknown penalty code {raw!r}; accepted: {', '.join(manual)}") from None
    if code.value not in manual:
        raise RefereeError(f"{code.value} is called by the referee from the cards; add_penalty accepts: {', '.join(manual)}")
    seat, team = _offender(item)
    return apply_foul(ctx, state, code, seat=seat, team=team, key=f"{code.value}:manual")


def _on_concede(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    """A pair concedes: the game in progress goes to the opponents with ``bullseyes`` (1, or at most 2
    for an abandoned table, 29d); ``close_table`` closes this table for the match (5, 29d, 29e)."""
    _, team = _offender(item)
    count = item.data.get("bullseyes", 1)
    if not isinstance(count, int) or not 1 <= count <= 2:
        raise RefereeError("a pair concedes 1 or 2 bullseyes (at most two for an abandoned table, 29d)")
    winner = other_team(team)
    reason = f"{label(state, team)} conceded ({'29d' if item.data.get('close_table') else '5'})"
    game = state.game
    if game is not None and not game.over:
        out = end_game(ctx, state, winner, count, reason)
    else:
        out = award_bullseyes(ctx, state, winner, count, reason)
    if item.data.get("close_table") and not state.table_closed and not state.match_over:
        state.table_closed = True
        out.append(Update(UpdateKind.PHASE, "This table is closed for the rest of the match (29d)",
                          code=Notice.TABLE_CLOSED, clause="29d"))
        out += check_match(ctx, state)
    return out


def _on_default(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    _, team = _offender(item)
    state.defaulted = team
    winner = other_team(team)
    return close_match(ctx, state, winner, f"{label(state, team)} defaulted (10)")


def _on_table_report(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    table = item.data.get("table")
    own = ctx.options["table"]
    if not isinstance(table, int) or not 1 <= table <= ctx.options["tables"] or table == own:
        raise RefereeError(f"'table' must be another table of the match (1-{ctx.options['tables']}, not {own})")
    report = TableReport()
    for field_name in ("bullseyes", "hang_jacks"):
        value = item.data.get(field_name, {})
        if not isinstance(value, Mapping) or not all(isinstance(value.get(t, 0), int) and value.get(t, 0) >= 0
                                                      for t in ("A", "B")):
            raise RefereeError(f"'{field_name}' is a count per team, e.g. {{'A': 4, 'B': 6}}")
        setattr(report, field_name, {t: int(value.get(t, 0)) for t in ("A", "B")})
    games = item.data.get("games", 0)
    if not isinstance(games, int) or not 0 <= games <= ctx.options["max_games_per_table"]:
        raise RefereeError(f"'games' is the number of games played there (0-{ctx.options['max_games_per_table']})")
    report.games = games
    report.closed = bool(item.data.get("closed", False)) or games >= ctx.options["max_games_per_table"]
    state.reports[str(table)] = report
    out = [Update(UpdateKind.INFO,
                  f"Table {table}: bullseyes A {report.bullseyes['A']}, B {report.bullseyes['B']} after {games} games"
                  + (" (closed)" if report.closed else ""),
                  code=Notice.TABLE_REPORT, data={"table": table, **dataclasses.asdict(report)})]
    return out + check_match(ctx, state)


def _overrule(ctx: Ctx, state: AllFoursState, ruling: Any) -> list[Update]:
    """Take back the ruling just made (only directly after it): the state returns to just before the
    foul, the breach is waived for the rest of the hand, and play resumes where it stopped."""
    if ruling is None:
        raise RefereeError("there is no ruling to overrule; overrule directly after the foul it takes back")
    old = dict(state.game.points) if state.game is not None else {"A": 0, "B": 0}
    before: AllFoursState = ruling.before
    for f in dataclasses.fields(AllFoursState):
        setattr(state, f.name, getattr(before, f.name))
    new = dict(state.game.points) if state.game is not None else {"A": 0, "B": 0}
    out = [Update(UpdateKind.INFO, f"The referee overruled the {ruling.code.replace('_', ' ')} call",
                  code=Notice.OVERRULED, data={"overruled": ruling.code})]
    for team in ("A", "B"):
        delta = new[team] - old[team]
        if delta:
            out.append(Update(UpdateKind.SCORE, f"{label(state, team)} {delta:+d}: overruled ({new[team]} points)",
                              code=ScoreCode.OVERRULE, player=team, points=delta,
                              data={"total": new[team], "scores": new}))
    hand = state.game.hand if state.game is not None else None
    if hand is not None and ruling.key and ruling.key not in hand.waived:
        hand.waived.append(ruling.key)
    return out + play.resume_after_overrule(ctx, state, ruling.resume)


#: Hands moving cards about (a trick gathered, the pack put down): seen by the camera, nothing to referee.
_SEEN_NOT_REFEREED: tuple[EventType, ...] = (EventType.REMOVED, EventType.PLACED, EventType.MOVED, EventType.AT_REST)

_EVENT_HANDLERS: dict[EventType, Handler] = {
    EventType.CARD_KICKED: deal.on_kick,
    EventType.CARD_PLAYED: play.on_card_played,
    EventType.CARD_RETRIEVED: play.on_card_retrieved,
}


def _misdeal(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    return deal.on_deal_fault(ctx, state, item, kick=False)


def _kick_fault(ctx: Ctx, state: AllFoursState, item: HumanInput) -> list[Update]:
    return deal.on_deal_fault(ctx, state, item, kick=True)


_INPUT_HANDLERS: dict[InputKind, Handler] = {
    InputKind.TEAMS: _on_teams,
    InputKind.NEW_GAME: deal.on_new_game,
    InputKind.DEAL: deal.on_deal,
    InputKind.HANDS: claims.on_hands,
    InputKind.STAND: deal.on_stand,
    InputKind.BEG: deal.on_beg,
    InputKind.GIVE: deal.on_give,
    InputKind.RUN_PACK: deal.on_run_pack,
    InputKind.BLIND_STAND: deal.on_blind_stand,
    InputKind.SING: claims.on_sing,
    InputKind.CLAIM_RENEGE: claims.on_claim_renege,
    InputKind.THROW_IN: claims.on_throw_in,
    InputKind.MISDEAL: _misdeal,
    InputKind.KICK_IRREGULARITY: _kick_fault,
    InputKind.ADD_PENALTY: _on_add_penalty,
    InputKind.CONCEDE: _on_concede,
    InputKind.DEFAULT: _on_default,
    InputKind.TABLE_REPORT: _on_table_report,
}

__all__ = ["AllFoursEngine", "SEATS"]
