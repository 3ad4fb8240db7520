"""Matches that span frames or tables: the live standing, the decision, and the league table.

A match row (``api/store.py``) only names its tables; what was played lives in each table's
referee. This module reads the referees and says where the match stands:

* **Bar-billiards league match** (rule 6: six singles frames, then three doubles, on one table).
  The frames come from the engine's state: the league scorecard when the drawn order was entered
  (``league_match`` input; ``bar_billiards_match``), else the engine's frame history (each
  finished frame's winner; the first of the engine's players is the home side). A shared frame
  (level scores, 2i) counts for neither side. The match is *decided* once one side has won more
  frames than the other can still reach, and *complete* when all nine frames are on the card.
  Rule 6 says a match *consists of* nine frames and 7(e) has every frame's score written on the
  card, so a decided match plays on: its result is stored at once (and published), its status
  becomes ``ended`` only when the ninth frame is recorded. Nine played frames with level frame
  counts are a drawn match (the rule book names no tie-break).

* **All-Fours team match** (IC2024 2, 28: three tables, the first team to 17 bullseyes over all
  of them wins, each table plays at most 11 games, and when every table has closed the team with
  more bullseyes wins, level being a draw; a default (10) ends it at once). The standing is
  computed from the three engines directly, with the engine's own ``match_decision`` over the
  first table's tally plus the other two as :class:`TableReport` s, so it is right whatever any one
  table's referee has heard. The service *also* feeds each table's tally to the other two as the
  engine's ``table_report`` input whenever it changes (a game won, a table closed): that is how the
  engine expects the other tables to reach it, and it lets each table's referee close the match
  itself (``match_over``: no further deal is accepted there) the moment the elimination rule
  says so. The reports are ordinary logged inputs, so a restarted server replays them and every
  table comes back exactly as it was. A default entered at one table is passed on as the same
  ``default`` input to the others, for the same reason.

When the standing changes (a frame or game won, a table closed, the match decided) a ``match``
message with the whole standing is stored in each table's log and published on its channel: an
important message with a sequence number, never dropped, replayed to a reconnecting tablet.
When the match is decided its result is written to the store first. A decision that has ended
the match stands: the tables leave the match then, so later undos no longer change it (a league
secretary corrects it with ``PATCH /api/matches/{id}``).

Why a session subclass: the standing must follow every way an item reaches a table (REST, the
websocket, the camera's runner), and all of them call ``TableSession.ingest``; overriding it in
:class:`MatchAwareSession` keeps ``session.py`` untouched and adds nothing to tables outside
matches.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from tableref.api.hub import Hub, Message
from tableref.api.models import (
    FrameLine,
    LeagueStanding,
    LeagueTable,
    MatchStanding,
    StandingRow,
    TableTally,
    TeamStanding,
)
from tableref.api.session import TableSession
from tableref.api.store import LogRow
from tableref.events import HumanInput, LogItem
from tableref.referee.all_fours_match import MatchResult, default_result, match_decision, standings
from tableref.referee.all_fours_state import AllFoursState, TableReport
from tableref.referee.bar_billiards_match import DOUBLES_FRAMES, SINGLES_FRAMES

log = logging.getLogger("tableref.api.matches")

BAR_LEAGUE = "bar-billiards-league"
ALL_FOURS_TEAM = "all-fours-team"
FORMATS = (BAR_LEAGUE, ALL_FOURS_TEAM)
#: The game each match format is played at.
FORMAT_GAME = {BAR_LEAGUE: "bar-billiards", ALL_FOURS_TEAM: "all-fours"}
LEAGUE_FRAMES = SINGLES_FRAMES + DOUBLES_FRAMES
TEAM_TABLES = 3
STANDINGS_ORDER = ("IC2024 2c: wins, then bullseyes for, then fewest bullseyes against, then hang-jacks for, "
                   "then fewest hang-jacks against")
TEAMS = ("A", "B")


class MatchStore(Protocol):
    """The store methods this module uses (any backend with these will do)."""

    def match(self, match_id: str) -> dict[str, Any] | None: ...

    def matches(self, table_id: str | None = None) -> list[dict[str, Any]]: ...

    def put_match(self, row: dict[str, Any]) -> None: ...

    def append(self, table_id: str, seq: int, kind: str, body: dict[str, Any],
               t: float | None = None, match_id: str | None = None) -> None: ...

    def log(self, table_id: str, after: int = 0, kinds: tuple[str, ...] | None = None,
            match_id: str | None = None, limit: int = 100_000) -> list[LogRow]: ...


class MatchHost(Protocol):
    """What the desk needs from the service: read afresh on every call."""

    @property
    def store(self) -> Any: ...

    @property
    def hub(self) -> Hub: ...

    @property
    def sessions(self) -> dict[str, TableSession]: ...


class MatchError(ValueError):
    """A match that cannot be set up as asked; the message says what is accepted."""


def match_format(row: Mapping[str, Any]) -> str:
    return str((row.get("meta") or {}).get("format") or "single")


def match_tables(row: Mapping[str, Any]) -> list[str]:
    tables = (row.get("meta") or {}).get("tables")
    if tables:
        return [str(t) for t in tables]
    return [t for t in str(row.get("table_id") or "").split(",") if t]


# -- bar billiards ---------------------------------------------------------------------------------


def league_standing(row: Mapping[str, Any], state: Mapping[str, Any] | None) -> MatchStanding:
    """The league match from the bar-billiards engine's state (``engine.state``)."""
    players = list((state or {}).get("players") or ["home", "away"])
    card = (state or {}).get("match")
    names = list(row.get("players") or [])
    sides = {"home": str(names[0]) if names else None, "away": str(names[1]) if len(names) > 1 else None}
    if card:
        sides = {"home": sides["home"] or card["home_team"], "away": sides["away"] or card["away_team"]}
        frames = [_card_line(f) for f in card["frames"]]
    else:
        frames = _history_lines(state or {}, players)
    sides = {k: v or k for k, v in sides.items()}
    played = [f for f in frames if f.played][:LEAGUE_FRAMES]
    league = LeagueStanding(
        frames_total=LEAGUE_FRAMES,
        home_frames=sum(f.winner == "home" for f in played),
        away_frames=sum(f.winner == "away" for f in played),
        shared_frames=sum(f.winner is None for f in played),
        played=len(played),
        remaining=LEAGUE_FRAMES - len(played),
        home_points=sum(f.home_score or 0 for f in played),
        away_points=sum(f.away_score or 0 for f in played),
        scorecard=bool(card),
        frames=frames[:LEAGUE_FRAMES],
    )
    if state is not None and state.get("phase") != "over" and league.remaining:
        league.frame_in_play = len(played) + 1
        banked = state.get("banked") or {}
        league.frame_scores = {"home": int(banked.get(players[0], 0)), "away": int(banked.get(players[1], 0))}
    lead, trail = sorted((league.home_frames, league.away_frames), reverse=True)
    complete = league.remaining == 0
    decided = complete or lead > trail + league.remaining
    winner: str | None = None
    reason: str | None = None
    if decided and lead != trail:
        winner = "home" if league.home_frames > league.away_frames else "away"
        reason = (f"{sides[winner]} won {lead} frames to {trail}"
                  + ("" if complete else f"; {league.remaining} left cannot change it (rule 6: nine frames)"))
    elif complete:
        reason = f"drawn: {lead} frames each after nine (rule 6; shared frames count for neither side, 2i)"
    return MatchStanding(match=str(row["id"]), format=BAR_LEAGUE, game=str(row["game"]),
                         status=str(row.get("status") or "playing"), sides=sides, decided=decided,
                         complete=complete, winner=winner, winner_name=sides.get(winner or ""), reason=reason,
                         league=league)


def _card_line(f: Mapping[str, Any]) -> FrameLine:
    return FrameLine(number=f["number"], kind=f["kind"], home=list(f["home"]), away=list(f["away"]),
                     played=f["home_score"] is not None, home_score=f["home_score"], away_score=f["away_score"],
                     winner=f["winner"], reason=f["reason"])


def _history_lines(state: Mapping[str, Any], players: list[str]) -> list[FrameLine]:
    """Frames without a scorecard: the engine's finished frames, then the one just over."""
    results = [dict(h) for h in state.get("history") or []]
    if state.get("phase") == "over" and state.get("result"):
        results.append({**state["result"], "frame": state.get("frame_no")})
    side = {players[0]: "home", players[1]: "away"}
    lines = []
    for i, r in enumerate(results):
        scores = r.get("scores") or {}
        lines.append(FrameLine.model_validate({
            "number": i + 1, "played": True, "home_score": scores.get(players[0]),
            "away_score": scores.get(players[1]), "winner": side.get(r.get("winner") or ""), "reason": r.get("reason"),
        }))
    return lines


# -- All-Fours -------------------------------------------------------------------------------------


def _tally(table_id: str, state: Mapping[str, Any], options: Mapping[str, Any]) -> TableTally:
    game = state.get("game") or None
    in_play = game is not None and not game.get("over")
    return TableTally(table=int(options["table"]), table_id=table_id, bullseyes=dict(state["bullseyes"]),
                      hang_jacks=dict(state["hang_jacks"]), games=int(state["games_played"]),
                      max_games=int(options["max_games_per_table"]), closed=bool(state["table_closed"]),
                      game_in_play=int(game["number"]) if in_play and game else None,
                      points=dict(game["points"]) if in_play and game else {"A": 0, "B": 0})


def team_standing(row: Mapping[str, Any], tables: list[tuple[str, Mapping[str, Any], Mapping[str, Any]]]
                  ) -> MatchStanding:
    """The team match from its tables' All-Fours engines: ``(table id, engine.state, engine.options)``."""
    options = tables[0][2]
    tallies = [_tally(tid, state, opts) for tid, state, opts in tables]
    names = list(row.get("players") or [])
    engine_teams = tables[0][1].get("teams") or {}
    sides = {t: str(names[i]) if len(names) > i else str(engine_teams.get(t, t)) for i, t in enumerate(TEAMS)}
    bulls = {t: sum(x.bullseyes[t] for x in tallies) for t in TEAMS}
    hangs = {t: sum(x.hang_jacks[t] for x in tallies) for t in TEAMS}
    team = TeamStanding(needed=int(options["match_bullseyes"]), tables=tallies, bullseyes=bulls, hang_jacks=hangs)
    defaulted = next((s["defaulted"] for _, s, _ in tables if s.get("defaulted")), None)
    decided, complete, winner, reason = False, False, None, None
    result: MatchResult | None = None
    if defaulted is not None:
        winner = "B" if defaulted == "A" else "A"
        decided = complete = True
        reason = f"{sides[defaulted]} defaulted (10)"
        team.defaulted = defaulted
        result = default_result(sides["A"], sides["B"], sides[defaulted], int(options["match_bullseyes"]),
                                int(options["default_bullseyes_against"]), (hangs["A"], hangs["B"]))
    else:
        decision = match_decision(_as_one_table(tallies), options)
        if decision is not None:
            winner, reason = decision
            decided = complete = True
            reason = _named(reason, sides)
            result = MatchResult(sides["A"], sides["B"], bulls["A"], bulls["B"], hangs["A"], hangs["B"],
                                 sides[winner] if winner else None)
    if result is not None:
        team.result = dataclasses.asdict(result)
    return MatchStanding(match=str(row["id"]), format=ALL_FOURS_TEAM, game=str(row["game"]),
                         status=str(row.get("status") or "playing"), sides=sides, decided=decided, complete=complete,
                         winner=winner, winner_name=sides.get(winner or ""), reason=reason, team=team)


def _as_one_table(tallies: list[TableTally]) -> AllFoursState:
    """The first table's tally with the other two as reports: what ``match_decision`` reads."""
    first, others = tallies[0], tallies[1:]
    state = AllFoursState(bullseyes=dict(first.bullseyes), hang_jacks=dict(first.hang_jacks),
                          games_played=first.games, table_closed=first.closed)
    state.reports = {str(t.table): TableReport(dict(t.bullseyes), dict(t.hang_jacks), t.games, t.closed)
                     for t in others}
    return state


def _named(reason: str, sides: Mapping[str, str]) -> str:
    """``match_decision`` says "A reached ..."; the standing names the team."""
    for key in TEAMS:
        if reason.startswith(f"{key} "):
            return f"{sides[key]}{reason[1:]}"
        reason = reason.replace(f"; {key} lead", f"; {sides[key]} lead")
    return reason


def report_input(tally: TableTally, t: float) -> HumanInput:
    """One table's tally as the engine's ``table_report`` input for another table."""
    return HumanInput(t=t, kind="table_report", by="service",
                      data={"table": tally.table, "bullseyes": dict(tally.bullseyes),
                            "hang_jacks": dict(tally.hang_jacks), "games": tally.games, "closed": tally.closed})


def _report_matches(report: Mapping[str, Any] | None, tally: TableTally) -> bool:
    if report is None:
        return tally.games == 0 and not any(tally.bullseyes.values()) and not tally.closed
    return (dict(report["bullseyes"]) == tally.bullseyes and dict(report["hang_jacks"]) == tally.hang_jacks
            and int(report["games"]) == tally.games and bool(report["closed"]) == tally.closed)


# -- the league table ------------------------------------------------------------------------------


def league_table(game: str, rows: Iterable[Mapping[str, Any]]) -> LeagueTable:
    """IC2024 standings (2c) over the ended All-Fours team matches with a result."""
    if game != "all-fours":
        raise MatchError(f"standings are kept for game=all-fours (IC2024 2c ranks teams); got {game!r}. A bar-billiards "
                         "league's table is not in its rule book: see each match's standing")
    results: list[MatchResult] = []
    skipped: list[str] = []
    for row in rows:
        if row.get("game") != "all-fours" or row.get("status") != "ended":
            continue
        if match_format(row) != ALL_FOURS_TEAM:
            skipped.append(f"{row['id']}: a {match_format(row)} match, not a team match")
            continue
        data = (row.get("result") or {}).get("match_result")
        try:
            if not isinstance(data, Mapping):
                raise TypeError("no match_result")
            results.append(MatchResult(**data))
        except TypeError:
            skipped.append(f"{row['id']}: ended without a team result (result.match_result holds team_a, team_b, "
                           "bullseyes_a, bullseyes_b, ...)")
    ranked = standings(results)
    return LeagueTable(game=game, order=STANDINGS_ORDER, matches=len(results), skipped=skipped,
                       rows=[StandingRow(rank=i + 1, **dataclasses.asdict(s)) for i, s in enumerate(ranked)])


# -- the desk: keeping the service's matches in step with their tables --------------------------------


@dataclass
class MatchAwareSession(TableSession):
    """A table session that tells the match desk after every item it takes."""

    on_change: Callable[[TableSession], list[Message]] | None = None

    def ingest(self, item: LogItem, still: Callable[[], bytes | None] | None = None) -> list[Message]:
        msgs = super().ingest(item, still)
        if self.on_change is None or self.match_id is None:
            return msgs
        try:
            extra = self.on_change(self)
        except Exception:  # the item is stored and published already: the table must go on
            log.exception("match standing of %s after an item at table %s", self.match_id, self.table_id)
            return msgs
        return msgs + [m for m in extra if m.channel == self.table_id]


class MatchDesk:
    """Computes standings, passes All-Fours tallies between tables, records and announces decisions."""

    def __init__(self, host: MatchHost) -> None:
        self.host = host
        self._lock = threading.RLock()
        self._busy: set[str] = set()
        self._last: dict[str, str] = {}

    @property
    def store(self) -> MatchStore:
        store: MatchStore = self.host.store
        return store

    # -- set-up ------------------------------------------------------------------------------
    def open_match_for(self, table_id: str) -> str | None:
        """The latest match not ended that plays at this table (one table or three)."""
        rows = [m for m in self.store.matches() if m["status"] != "ended" and table_id in match_tables(m)]
        return str(rows[-1]["id"]) if rows else None

    def check_new(self, fmt: str, game: str, table_ids: list[str], players: list[str],
                  meta: Mapping[str, Any]) -> None:
        """Refuse a match its tables cannot referee, saying what is accepted."""
        if fmt not in FORMATS:
            return
        if game != FORMAT_GAME[fmt]:
            raise MatchError(f"a {fmt} match is played at {FORMAT_GAME[fmt]}, not {game}")
        if fmt == BAR_LEAGUE:
            if len(table_ids) != 1:
                raise MatchError("a bar-billiards league match is played on one table: give one table id")
            if meta.get("draw") is not None:
                from tableref.referee.bar_billiards_match import build_scorecard

                try:
                    build_scorecard(dict(meta["draw"]))
                except (ValueError, TypeError) as exc:
                    raise MatchError(f"meta.draw: {exc}") from None
            return
        if len(table_ids) != TEAM_TABLES or len(set(table_ids)) != TEAM_TABLES:
            raise MatchError("an All-Fours team match is played on three different tables (IC2024 2)")
        for number, tid in enumerate(table_ids, start=1):
            engine = self.host.sessions[tid].engine
            opts = engine.options if engine is not None else {}
            if opts.get("table") != number or opts.get("tables") != TEAM_TABLES:
                raise MatchError(f"table {tid!r} is listed as table {number} but its referee is table "
                                 f"{opts.get('table')} of {opts.get('tables')}; create it with options "
                                 f"{{'table': {number}}} or list the tables in their order")

    def start(self, row: Mapping[str, Any]) -> None:
        """After the tables were reset for the match: team names, the drawn order, the first standing."""
        fmt = match_format(row)
        if fmt not in FORMATS:
            return
        players = [str(p) for p in row.get("players") or []]
        match_id = str(row["id"])
        draw = (row.get("meta") or {}).get("draw")
        with self._lock:
            self._busy.add(match_id)
            try:
                for tid in match_tables(row):
                    session = self.host.sessions[tid]
                    if fmt == ALL_FOURS_TEAM and len(players) == 2:
                        session.ingest(HumanInput(t=session.last_t, kind="teams", by="service",
                                                  data={"A": players[0], "B": players[1]}))
                    if fmt == BAR_LEAGUE and draw is not None:
                        home, away = players[:2] if len(players) >= 2 else ["home", "away"]
                        session.ingest(HumanInput(t=session.last_t, kind="league_match", by="service",
                                                  data={"home_team": home, "away_team": away, **dict(draw)}))
            finally:
                self._busy.discard(match_id)
            self._sync(match_id, force=True)

    # -- reading -----------------------------------------------------------------------------
    def standing(self, row: Mapping[str, Any]) -> MatchStanding:
        """The live standing; an ended match's stored one (its tables may have moved on)."""
        fmt = match_format(row)
        if fmt not in FORMATS:
            raise MatchError(f"match {row['id']!r} is a single game: its state is its table's "
                             f"(/api/tables/{{id}}/state); standings are computed for {' and '.join(FORMATS)}")
        stored = (row.get("result") or {}).get("standing")
        if row.get("status") == "ended" and stored:
            return MatchStanding(**{**stored, "status": "ended", "live": False})
        return self._compute(row)

    def _compute(self, row: Mapping[str, Any]) -> MatchStanding:
        sessions = [self.host.sessions.get(tid) for tid in match_tables(row)]
        if match_format(row) == BAR_LEAGUE:
            session = sessions[0] if sessions else None
            state = session.engine.state if session is not None and session.engine is not None else None
            return league_standing(row, state)
        tables = []
        for tid, session in zip(match_tables(row), sessions, strict=True):
            if session is None or session.engine is None:
                raise MatchError(f"table {tid!r} of match {row['id']!r} is no longer configured")
            tables.append((tid, session.engine.state, session.engine.options))
        return team_standing(row, tables)

    # -- after every item at a match's table ----------------------------------------------------
    def after_change(self, session: TableSession) -> list[Message]:
        match_id = session.match_id
        if match_id is None:
            return []
        with self._lock:
            if match_id in self._busy:
                return []  # a report this desk is passing on; the outer call finishes the work
            row = self.store.match(match_id)
            if row is None or row.get("status") == "ended" or match_format(row) not in FORMATS:
                return []
            self._busy.add(match_id)
            try:
                out: list[Message] = []
                if match_format(row) == ALL_FOURS_TEAM:
                    out += self._pass_reports(row)
                return out + self._sync(match_id)
            except MatchError as exc:  # a table of the match was deleted: nothing to compute until it is back
                log.warning("match %s: %s", match_id, exc)
                return []
            finally:
                self._busy.discard(match_id)

    def _pass_reports(self, row: Mapping[str, Any]) -> list[Message]:
        """Give every table the others' tallies it has not heard yet (``table_report``, 28)."""
        out: list[Message] = []
        tids = match_tables(row)
        sessions = [self.host.sessions[t] for t in tids if t in self.host.sessions]
        if len(sessions) != len(tids) or any(s.engine is None for s in sessions):
            return out
        for _ in range(len(sessions)):  # a report can close the match at a table; one more pass settles it
            changed = False
            tallies = [(s, _tally(s.table_id, s.engine.state, s.engine.options)) for s in sessions if s.engine]
            for source, tally in tallies:
                for target in sessions:
                    if target is source or target.engine is None:
                        continue
                    state = target.engine.state
                    if state.get("match_over"):
                        continue
                    if source.engine is not None and source.engine.state.get("defaulted") and not state.get("defaulted"):
                        out += target.ingest(HumanInput(t=target.last_t, kind="default", by="service",
                                                        data={"team": source.engine.state["defaulted"]}))
                        changed = True
                        continue
                    if _report_matches((state.get("reports") or {}).get(str(tally.table)), tally):
                        continue
                    out += target.ingest(report_input(tally, target.last_t))
                    changed = True
            if not changed:
                break
        return out

    def _sync(self, match_id: str, force: bool = False) -> list[Message]:
        """Compare the standing with the last one announced; record and announce what changed."""
        row = self.store.match(match_id)
        if row is None:
            return []
        standing = self._compute(row)
        key = _key(standing)
        if match_id not in self._last and not force:
            last = self._last_announced(row)
            if last is not None:
                self._last[match_id] = last
        if not force and self._last.get(match_id) == key:
            return []
        self._last[match_id] = key
        self._record(row, standing)
        standing.status = str(row.get("status") or standing.status)
        return self._announce(row, standing)

    def _record(self, row: dict[str, Any], standing: MatchStanding) -> None:
        """Write the decision to the store before anyone hears of it."""
        old = row.get("result") or {}
        if standing.decided:
            row["result"] = {"winner": standing.winner_name, "side": standing.winner, "reason": standing.reason,
                             "decided": True, "complete": standing.complete,
                             "standing": standing.model_dump(mode="json")}
            if standing.team is not None and standing.team.result is not None:
                row["result"]["match_result"] = standing.team.result
            if standing.complete:
                row["status"] = "ended"
                row["ended"] = time.time()
                row["result"]["standing"]["status"] = "ended"
        elif old.get("decided"):
            row["result"] = None  # an undo took the deciding frame back before the match ended
        else:
            return
        self.store.put_match(row)
        if row.get("status") == "ended":
            for s in self.host.sessions.values():
                if s.match_id == row["id"]:
                    s.match_id = None

    def _announce(self, row: Mapping[str, Any], standing: MatchStanding) -> list[Message]:
        body = standing.model_dump(mode="json")
        out: list[Message] = []
        for tid in match_tables(row):
            session = self.host.sessions.get(tid)
            if session is None:
                continue
            seq = self.host.hub.next_seq(tid)
            self.store.append(tid, seq, "match", body, t=session.last_t, match_id=str(row["id"]))
            out.append(self.host.hub.publish(tid, "match", body, seq=seq))
        return out

    def _last_announced(self, row: Mapping[str, Any]) -> str | None:
        """After a restart: the standing last published, from the first table's log."""
        tids = match_tables(row)
        if not tids:
            return None
        rows = self.store.log(tids[0], kinds=("match",), match_id=str(row["id"]))
        if not rows:
            return None
        with contextlib.suppress(ValueError, TypeError):
            return _key(MatchStanding(**rows[-1].body))
        return None


def _key(standing: MatchStanding) -> str:
    """What makes a standing worth announcing: frames or bullseyes, tables closed, the decision
    (not every point of the frame or game in play: the table's own messages carry those)."""
    parts: list[Any] = [standing.decided, standing.complete, standing.winner]
    if standing.league is not None:
        lg = standing.league
        parts += [lg.home_frames, lg.away_frames, lg.shared_frames, lg.played, lg.frame_in_play]
    if standing.team is not None:
        parts += [(t.bullseyes, t.hang_jacks, t.games, t.closed) for t in standing.team.tables]
        parts.append(standing.team.defaulted)
    return repr(parts)
