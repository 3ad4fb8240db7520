"""The FastAPI application: tables, matches, the log, inputs, the websocket and the tablet page.

``create_app(settings)`` builds everything from the store: every table configured before a
restart comes back with its referee rebuilt from its log. With no tables configured and the demo
enabled, it adds one demo table replaying a bundled sample clip in real time.

Writes (inputs, corrections, table and match configuration) need the referee token
(``Authorization: Bearer <token>`` or ``X-Referee-Token``; on the websocket, ``?token=``);
reading is open to spectators.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from tableref.api.hub import Hub
from tableref.api.limits import RequestLimits, validation_error_handler
from tableref.api.matches import MatchAwareSession, MatchDesk, MatchError, league_table
from tableref.api.models import LeagueTable, MatchIn, MatchPatch, MatchStanding, TableIn, TablePatch
from tableref.api.pipeline import check_calibration
from tableref.api.runner import TableRunner
from tableref.api.session import TableSession, item_from_request
from tableref.api.settings import Settings, resolve_token
from tableref.api.sources import parse_source, probe, redact_source
from tableref.api.store import Store, StoreError, open_store
from tableref.api.websocket import serve_table_socket
from tableref.calibration.spec import load_table_dict
from tableref.catalog import GAME_TABLE
from tableref.errors import UserError
from tableref.events import LogFormatError

log = logging.getLogger("tableref.api")
STATIC = Path(__file__).parent / "static"


@dataclass
class Service:
    """Everything the routes share: settings, store, hub, the live sessions and their runners."""

    settings: Settings
    token: str
    store: Store
    hub: Hub
    sessions: dict[str, TableSession] = field(default_factory=dict)
    runners: dict[str, TableRunner] = field(default_factory=dict)
    desk: MatchDesk = field(init=False)

    def __post_init__(self) -> None:
        self.desk = MatchDesk(self)

    # -- tables --------------------------------------------------------------------------------
    def media_source(self, source: str, loop: bool) -> Any:
        last: UserError | None = None
        for media in self.settings.media_dirs:
            try:
                return parse_source(source, media, loop)
            except UserError as exc:
                last = exc
        assert last is not None
        raise last

    def open_table(self, row: dict[str, Any]) -> TableSession:
        session = MatchAwareSession(
            table_id=row["id"], table_kind=row["table_kind"], game=row.get("game"), store=self.store,
            hub=self.hub, options=dict(row.get("options") or {}),
            stills_dir=self.settings.stills_dir / row["id"], on_change=self.desk.after_change,
        )
        session.rebuild()
        session.match_id = self.desk.open_match_for(row["id"])  # a team match lists three tables
        self.sessions[row["id"]] = session
        return session

    def start_runner(self, row: dict[str, Any], resume: bool = True) -> None:
        """Start the table's source. ``resume``: a file source continues after what the log holds
        of it (a restart, a new calibration) rather than playing the clip over the game again."""
        source = row.get("source")
        session = self.sessions[row["id"]]
        if not source:
            session.set_status(state="idle")
            return
        try:
            spec = self.media_source(source, bool(row.get("loop", True)))
        except UserError as exc:
            session.set_status(state="error", error=str(exc))
            return
        runner = TableRunner(session, spec, row.get("pipeline") or "vision",
                             calibration=row.get("calibration"), speed=self.settings.playback_speed, resume=resume,
                             max_lag_s=self.settings.max_lag_s)
        self.runners[row["id"]] = runner
        runner.start()

    async def stop_runner(self, table_id: str) -> None:
        runner = self.runners.pop(table_id, None)
        if runner is not None:
            await runner.stop()

    def session(self, table_id: str) -> TableSession:
        try:
            return self.sessions[table_id]
        except KeyError:
            raise HTTPException(404, f"no table {table_id!r}; tables: {sorted(self.sessions)}") from None


def _demo_row(settings: Settings) -> dict[str, Any] | None:
    """The demo table: the configured clip, else the bundled bar-billiards foul clip, else any.

    It runs the camera pipeline with the clip's venue calibration (``NAME.calibration.json``
    beside it, made by ``tableref calibrate``; without one the runner calibrates automatically).
    ``settings.demo_pipeline`` chooses otherwise; unset, only a simulated clip with a truth file
    and no calibration replays its truth (see ``Settings``).
    """
    samples = sorted(settings.media_dirs[-1].glob("*.mp4"))
    if settings.demo_clip:
        chosen = Path(settings.demo_clip)
    else:
        preferred = [p for p in samples if p.name.startswith("bar-billiards") and "pin" in p.name]
        chosen = (preferred or [p for p in samples if p.name.startswith("bar-billiards")] or samples or [None])[0]
        if chosen is None:
            return None
    truth_file = chosen.with_suffix(".truth.json")
    game, table = "bar-billiards", "bar-billiards"
    if truth_file.is_file():
        truth = json.loads(truth_file.read_text("utf-8"))
        game = truth.get("game", game)
        table = truth.get("table", GAME_TABLE.get(game, table))
    from tableref.api.pipeline import calibration_path_for, read_calibration, truth_path_for

    cal_file = calibration_path_for(chosen)
    pipeline = settings.demo_pipeline or (
        "truth" if cal_file is None and truth_path_for(chosen) is not None else "vision")
    calibration = read_calibration(cal_file) if cal_file is not None and pipeline == "vision" else None
    return {
        "id": "demo", "name": f"Demo: {chosen.stem}", "table_kind": table, "game": game,
        "source": str(chosen), "loop": settings.demo_loop, "calibration": calibration, "pipeline": pipeline,
        "options": {}, "created": time.time(),
    }


def _is_token(given: str | None, token: str) -> bool:
    """Constant-time comparison, so the referee token cannot be guessed a character at a time."""
    return given is not None and secrets.compare_digest(given.encode("utf-8"), token.encode("utf-8"))


def _public(row: dict[str, Any]) -> dict[str, Any]:
    """A table row as any reader may see it: a stream URL's password hidden (``redact_source``)."""
    return {**row, "source": redact_source(row.get("source"))}


def _check_calibration(data: Any, table_kind: str) -> None:
    """A calibration fit for this table, else a 422 saying what is wrong (nothing is stored)."""
    try:
        check_calibration(data, table_kind)
    except UserError as exc:
        raise HTTPException(422, str(exc)) from None


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    store = open_store(settings.database_url, settings.db_path)
    service = Service(settings, resolve_token(settings), store, Hub(settings.client_queue))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        rows = service.store.tables()
        if not rows and settings.demo:
            demo = _demo_row(settings)
            if demo is not None:
                service.store.put_table(demo)
                rows = [demo]
        for row in rows:
            service.open_table(row)
            service.start_runner(row)
        try:
            yield
        finally:
            for table_id in list(service.runners):
                await service.stop_runner(table_id)
            service.store.close()

    # /docs is our own page (api/static/docs.html): FastAPI's pulls Swagger UI from a CDN, which a
    # venue without internet cannot reach; /openapi.json is the same either way.
    app = FastAPI(title="tableref", version="0.1.0", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="A camera referee for table games: live fouls, scores and instructions.")
    app.state.service = service

    def require_token(authorization: str | None = Header(default=None),
                      x_referee_token: str | None = Header(default=None)) -> None:
        given = x_referee_token or (authorization.removeprefix("Bearer ").strip() if authorization else None)
        if not _is_token(given, service.token):
            raise HTTPException(401, "this needs the referee token (Authorization: Bearer <token>)")

    app.add_middleware(RequestLimits, max_input_bytes=settings.max_message_bytes,
                       max_upload_bytes=settings.max_upload_bytes,
                       writes_per_second=settings.max_writes_per_second, write_burst=settings.write_burst)
    app.add_exception_handler(RequestValidationError, validation_error_handler)

    @app.exception_handler(StoreError)
    async def _store_error(_: Request, exc: StoreError) -> JSONResponse:
        # the store refused or could not be reached: the item was not applied either (session.ingest)
        return JSONResponse({"detail": f"{exc}. This request was not recorded; try again."}, status_code=503)

    @app.exception_handler(UserError)
    async def _user_error(_: Request, exc: UserError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.get("/health")
    def health() -> dict[str, Any]:
        return {"ok": True, "tables": {tid: s.status for tid, s in service.sessions.items()}}

    # -- tables --------------------------------------------------------------------------------
    @app.get("/api/tables")
    def list_tables() -> list[dict[str, Any]]:
        return [{**_public(row), "status": service.sessions[row["id"]].status if row["id"] in service.sessions else None}
                for row in service.store.tables()]

    @app.post("/api/tables", status_code=201, dependencies=[Depends(require_token)])
    async def create_table(body: TableIn) -> dict[str, Any]:
        try:
            body.check_pair()
        except ValueError as exc:
            raise HTTPException(422, str(exc)) from None
        table_id = body.id or uuid.uuid4().hex[:8]
        if service.store.table(table_id) is not None:
            raise HTTPException(409, f"table {table_id!r} exists; PATCH it or choose another id")
        if body.source:
            spec = service.media_source(body.source, body.loop)
            if spec.kind == "file":
                probe(spec)
        if body.calibration is not None:
            _check_calibration(body.calibration, body.table_kind)
        row = {"id": table_id, "name": body.name, "table_kind": body.table_kind, "game": body.game,
               "source": body.source, "loop": body.loop, "calibration": body.calibration,
               "pipeline": body.pipeline, "options": body.options, "created": time.time()}
        if body.game is not None:
            from tableref.referee import make_engine

            try:
                make_engine(body.game, **body.options)
            except ValueError as exc:
                raise HTTPException(422, str(exc)) from None
        service.store.put_table(row)
        service.open_table(service.store.table(table_id) or row)
        service.start_runner(service.store.table(table_id) or row)
        return _public(service.store.table(table_id) or row)

    @app.get("/api/tables/{table_id}")
    def get_table(table_id: str) -> dict[str, Any]:
        row = service.store.table(table_id)
        if row is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return {**_public(row), "snapshot": service.session(table_id).snapshot()}

    @app.patch("/api/tables/{table_id}", dependencies=[Depends(require_token)])
    async def update_table(table_id: str, body: TablePatch) -> dict[str, Any]:
        row = service.store.table(table_id)
        if row is None:
            raise HTTPException(404, f"no table {table_id!r}")
        # fields sent as null: source and calibration are removed by it, the others cannot be null
        changes = body.model_dump(exclude_unset=True)
        for key in ("name", "loop", "pipeline"):
            if key in changes and changes[key] is None:
                raise HTTPException(422, f"{key} cannot be null; leave it out to keep it (only source and "
                                         "calibration may be null, which removes them)")
        if changes.get("source") is not None:
            spec = service.media_source(changes["source"], changes.get("loop", row["loop"]))
            if spec.kind == "file":
                probe(spec)
        if changes.get("calibration") is not None:
            _check_calibration(changes["calibration"], row["table_kind"])
        same_source = changes.get("source", row["source"]) == row["source"]
        row.update(changes)
        service.store.put_table(row)
        await service.stop_runner(table_id)
        service.start_runner(row, resume=same_source)
        return _public(row)

    @app.delete("/api/tables/{table_id}", status_code=204, dependencies=[Depends(require_token)])
    async def delete_table(table_id: str) -> Response:
        if service.store.table(table_id) is None:
            raise HTTPException(404, f"no table {table_id!r}")
        await service.stop_runner(table_id)
        session = service.sessions.pop(table_id, None)
        if session is not None:
            # The log stays (a match's record needs it); the reset notice ends it, so a table made
            # again under this id starts afresh instead of rebuilding the removed table's game.
            session.reset(t=session.last_t, reason="table removed")
        service.store.delete_table(table_id)
        return Response(status_code=204)

    @app.get("/api/tables/{table_id}/state")
    def table_state(table_id: str) -> dict[str, Any]:
        return service.session(table_id).snapshot()

    @app.get("/api/tables/{table_id}/spec")
    def table_spec(table_id: str) -> dict[str, Any]:
        return load_table_dict(service.session(table_id).table_kind)

    @app.get("/api/tables/{table_id}/input-kinds")
    def input_kinds(table_id: str) -> list[str]:
        engine = service.session(table_id).engine
        return ["undo", *(engine.input_kinds() if engine is not None else ())]

    @app.get("/api/tables/{table_id}/log")
    def table_log(table_id: str, after: int = Query(0, ge=0), limit: int = Query(1000, ge=1, le=10000),
                  match: str | None = None) -> list[dict[str, Any]]:
        service.session(table_id)
        return [{"seq": r.seq, "kind": r.kind, "t": r.t, "match": r.match_id, **r.body}
                for r in service.store.log(table_id, after=after, match_id=match, limit=limit)]

    @app.post("/api/tables/{table_id}/inputs", dependencies=[Depends(require_token)])
    def post_input(table_id: str, body: dict[str, Any]) -> dict[str, Any]:
        session = service.session(table_id)
        try:
            item = item_from_request(body, session.last_t)
            session.check_request(item)
        except LogFormatError as exc:
            raise HTTPException(422, str(exc)) from None
        msgs = session.ingest(item)
        return {"messages": [m.to_json() for m in msgs]}

    @app.get("/api/tables/{table_id}/frame.jpg")
    def latest_frame(table_id: str) -> Response:
        service.session(table_id)
        runner = service.runners.get(table_id)
        if runner is None or runner.latest_jpeg is None:
            raise HTTPException(404, "no frame yet from this table's source")
        return Response(runner.latest_jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.get("/api/tables/{table_id}/stills/{seq}.jpg")
    def still(table_id: str, seq: int) -> FileResponse:
        path = service.settings.stills_dir / service.session(table_id).table_id / f"{seq}.jpg"
        if not path.is_file():
            raise HTTPException(404, f"no still for message {seq}")
        return FileResponse(path, media_type="image/jpeg")

    @app.post("/api/tables/{table_id}/calibration", dependencies=[Depends(require_token)])
    async def upload_calibration(table_id: str, body: dict[str, Any]) -> dict[str, Any]:
        row = service.store.table(table_id)
        if row is None:
            raise HTTPException(404, f"no table {table_id!r}")
        _check_calibration(body, row["table_kind"])
        row["calibration"] = body
        service.store.put_table(row)
        await service.stop_runner(table_id)
        service.start_runner(row)
        return {"ok": True}

    @app.get("/api/tables/{table_id}/calibration.jpg")
    def calibration_snapshot(table_id: str) -> Response:
        from tableref.api.overlay import calibration_overlay

        session = service.session(table_id)
        runner = service.runners.get(table_id)
        row = service.store.table(table_id) or {}
        if runner is None or runner.latest_jpeg is None:
            raise HTTPException(404, "no frame yet from this table's source")
        jpeg = calibration_overlay(runner.latest_jpeg, session.table_kind, row.get("calibration"))
        return Response(jpeg, media_type="image/jpeg")

    # -- matches -------------------------------------------------------------------------------
    @app.get("/api/matches")
    def list_matches() -> list[dict[str, Any]]:
        return service.store.matches()

    @app.post("/api/matches", status_code=201, dependencies=[Depends(require_token)])
    def create_match(body: MatchIn) -> dict[str, Any]:
        for tid in body.table_ids:
            session = service.session(tid)
            if session.game != body.game:
                raise HTTPException(422, f"table {tid!r} plays {session.game}, not {body.game}")
        if body.format == "all-fours-team" and len(body.table_ids) != 3:
            raise HTTPException(422, "an All-Fours team match is played on three tables")
        try:
            service.desk.check_new(body.format, body.game, body.table_ids, body.players, body.meta)
        except MatchError as exc:
            raise HTTPException(422, str(exc)) from None
        match_id = body.id or uuid.uuid4().hex[:8]
        if service.store.match(match_id) is not None:
            raise HTTPException(409, f"match {match_id!r} exists; choose another id")
        row = {"id": match_id, "table_id": ",".join(body.table_ids) or None, "game": body.game,
               "players": body.players, "status": "playing", "started": time.time(),
               "meta": {**body.meta, "format": body.format, "tables": body.table_ids}}
        service.store.put_match(row)
        for tid in body.table_ids:
            session = service.sessions[tid]
            session.match_id = match_id
            session.reset(t=session.last_t, reason=f"match {match_id} starts")
        service.desk.start(row)
        return service.store.match(match_id) or row

    @app.get("/api/matches/{match_id}")
    def get_match(match_id: str) -> dict[str, Any]:
        row = service.store.match(match_id)
        if row is None:
            raise HTTPException(404, f"no match {match_id!r}")
        tables = row["meta"].get("tables", [])
        row["tables"] = {tid: service.sessions[tid].snapshot() for tid in tables if tid in service.sessions}
        return row

    @app.patch("/api/matches/{match_id}", dependencies=[Depends(require_token)])
    def update_match(match_id: str, body: MatchPatch) -> dict[str, Any]:
        row = service.store.match(match_id)
        if row is None:
            raise HTTPException(404, f"no match {match_id!r}")
        if body.status:
            row["status"] = body.status
            if body.status == "ended":
                row["ended"] = time.time()
                for s in service.sessions.values():
                    if s.match_id == match_id:
                        s.match_id = None
        if body.result is not None:
            row["result"] = body.result
        service.store.put_match(row)
        return row

    @app.get("/api/matches/{match_id}/standing", response_model=MatchStanding)
    def match_standing(match_id: str) -> MatchStanding:
        """Where a league or team match stands.

        ``bar-billiards-league``: frames won per side of nine (rule 6), the frame in play and its
        banked scores, the scorecard lines. ``all-fours-team``: per table the bullseyes,
        hang-jacks and games recorded, whether it closed (28: at most 11 games), the team totals
        against the 17 needed. ``decided`` once the winner can no longer change; an ended match
        serves its stored final standing (``live: false``). The same object is the ``match``
        message on each of the match's tables' websockets whenever it changes.
        """
        row = service.store.match(match_id)
        if row is None:
            raise HTTPException(404, f"no match {match_id!r}")
        try:
            return service.desk.standing(row)
        except MatchError as exc:
            raise HTTPException(422, str(exc)) from None

    @app.get("/api/standings", response_model=LeagueTable)
    def league_standings(game: str = Query(..., description="the game whose league table to rank: all-fours")
                         ) -> LeagueTable:
        """The league table over ended All-Fours team matches, ranked by IC2024 2c (wins, bullseyes
        for, fewest against, hang-jacks for, fewest against); defaults count as 10 says."""
        try:
            return league_table(game, service.store.matches())
        except MatchError as exc:
            raise HTTPException(422, str(exc)) from None

    @app.get("/api/matches/{match_id}/log")
    def match_log(match_id: str) -> list[dict[str, Any]]:
        row = service.store.match(match_id)
        if row is None:
            raise HTTPException(404, f"no match {match_id!r}")
        out: list[dict[str, Any]] = []
        for tid in row["meta"].get("tables", []):
            out.extend({"table": tid, "seq": r.seq, "kind": r.kind, "t": r.t, **r.body}
                       for r in service.store.log(tid, match_id=match_id))
        return out

    # -- websocket and page ----------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str, since: str | None = None,
                           token: str | None = None, recent: str | None = None) -> None:
        # parsed here, not by FastAPI, whose refusal is a bare HTTP 403 that says nothing
        numbers: dict[str, int | None] = {}
        for name, text, meaning in (("since", since, "the last sequence number you received"),
                                    ("recent", recent, "how many recent messages to replay")):
            if text is None or text == "":
                numbers[name] = None
            elif text.isascii() and text.isdigit():
                numbers[name] = int(text)
            else:
                await websocket.accept()
                await websocket.send_json({"type": "error", "error": f"?{name}={text!r}: give a whole number >= 0 ({meaning})"})
                await websocket.close(code=4400, reason=f"bad {name}")
                return
        await serve_table_socket(websocket, service.sessions.get(table_id), service.store, service.hub, settings,
                                 since=numbers["since"], can_write=_is_token(token, service.token),
                                 recent=numbers["recent"] or 0, table_id=table_id, known=tuple(sorted(service.sessions)))

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/docs", include_in_schema=False)
    def api_docs() -> FileResponse:
        return FileResponse(STATIC / "docs.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
