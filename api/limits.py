"""Request limits and readable errors for the REST API: body size, write rate, validation messages.

Why here and not in each route: a limit that one route forgets is no limit. The size limit is an
ASGI middleware that refuses a body before the route (or the JSON parser) ever sees it, counting
the bytes as they arrive when a client sends no ``Content-Length``; the rate limit is a token
bucket per client address on every write (POST, PATCH, PUT, DELETE), so a runaway script cannot
flood a table's log while spectators keep reading. Nothing refused here reaches the store: a
refused request loses nothing already recorded and adds nothing.

Validation errors (FastAPI's 422) get a ``detail`` that a person can act on: which field, what was
wrong, and what is accepted (the body's fields when an unknown one was sent), with the structured
list kept under ``errors`` for programs.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class BodyTooLarge(HTTPException):
    """Raised while the body arrives; an ``HTTPException`` so FastAPI answers it as a 413 itself."""

    def __init__(self, detail: str) -> None:
        super().__init__(413, detail)


async def _send_json(send: Send, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
    raw = json.dumps(body).encode("utf-8")
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    head += [(k.encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": raw})


class TokenBucket:
    """``rate`` requests a second on average, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.capacity = max(1.0, burst)
        self.tokens = self.capacity
        self.stamp = time.monotonic()

    def take(self) -> float:
        """0.0 when allowed (a token is used), else the seconds until the next token."""
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate


class RequestLimits:
    """ASGI middleware: body size per kind of request, and a write rate per client address.

    ``max_input_bytes`` applies to inputs and events (``.../inputs``: the same size as a websocket
    message), ``max_upload_bytes`` to everything else written (table configuration, calibration
    uploads, matches). ``writes_per_second`` with bursts of ``write_burst`` per client address;
    0 turns the rate limit off.
    """

    def __init__(self, app: ASGIApp, max_input_bytes: int, max_upload_bytes: int,
                 writes_per_second: float, write_burst: float, max_clients: int = 10_000) -> None:
        self.app = app
        self.max_input_bytes = max_input_bytes
        self.max_upload_bytes = max_upload_bytes
        self.writes_per_second = writes_per_second
        self.write_burst = write_burst
        self.max_clients = max_clients
        self._buckets: dict[str, TokenBucket] = {}

    def _limit_for(self, path: str) -> tuple[int, str]:
        if path.rstrip("/").endswith("/inputs"):
            return self.max_input_bytes, "an input or event"
        return self.max_upload_bytes, "a configuration or calibration upload"

    def _bucket(self, client: str) -> TokenBucket:
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= self.max_clients:  # bounded: forget the longest-known client
                self._buckets.pop(next(iter(self._buckets)))
            bucket = self._buckets[client] = TokenBucket(self.writes_per_second, self.write_burst)
        return bucket

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method", "GET") not in WRITE_METHODS:
            await self.app(scope, receive, send)
            return
        if self.writes_per_second > 0:
            client = (scope.get("client") or ("unknown", 0))[0]
            wait = self._bucket(str(client)).take()
            if wait > 0:
                await _send_json(send, 429, {"detail": (
                    f"too many writes from {client}: at most {self.writes_per_second:g} a second "
                    f"(bursts of {self.write_burst:g}); retry in {wait:.2f} s. Nothing of this request was recorded.")},
                    {"retry-after": str(max(1, round(wait + 0.5)))})
                return
        limit, what = self._limit_for(scope.get("path", ""))
        declared = dict(scope.get("headers") or []).get(b"content-length")
        too_large = {"detail": f"request body too large for {what}: the limit is {limit} bytes. Nothing of this request was recorded."}
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _send_json(send, 413, too_large)
            return
        received = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(too_large["detail"])
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, tracked_send)
        except BodyTooLarge:
            if not started:
                await _send_json(send, 413, too_large)


def _field_list(request: Request) -> list[str]:
    """The fields the route's JSON body accepts, when its body is a pydantic model."""
    route = request.scope.get("route")
    field = getattr(route, "body_field", None)
    model = getattr(getattr(field, "field_info", None), "annotation", None)
    if isinstance(model, type) and issubclass(model, BaseModel):
        return list(model.model_fields)
    return []


def describe_validation_error(exc: RequestValidationError, fields: list[str]) -> str:
    """One readable sentence per problem: where, what was wrong, what is accepted."""
    parts: list[str] = []
    for err in exc.errors():
        kind = err.get("type", "")
        loc = [str(x) for x in err.get("loc", ()) if x != "body"]
        where = ".".join(loc) if loc else "the request body"
        if kind == "json_invalid":
            reason = (err.get("ctx") or {}).get("error", "")
            parts.append(f"the request body is not valid JSON ({reason}); send one JSON object, "
                         "for example {\"input\": \"overrule\"}")
            continue
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        if kind == "extra_forbidden":
            accepted = f"; accepted fields: {', '.join(fields)}" if fields else ""
            parts.append(f"unknown field {where!r}{accepted}")
        elif kind == "missing" and not loc:
            parts.append("the request body is empty; send one JSON object, for example {\"input\": \"overrule\"}")
        elif kind == "missing":
            parts.append(f"{where}: required but missing")
        elif kind in ("dict_type", "model_attributes_type") and not loc and isinstance(err.get("input"), bytes | str):
            parts.append("the request body was not read as JSON: send it with Content-Type: application/json")
        elif kind in ("dict_type", "model_attributes_type") and not loc:
            parts.append("the request body must be a JSON object" + (f" with the fields {', '.join(fields)}" if fields else ""))
        else:
            parts.append(f"{where}: {msg} (got {err.get('input')!r})" if "input" in err and kind != "value_error"
                         else f"{where}: {msg}")
    return "; ".join(parts) or "the request is not valid"


async def validation_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    detail = describe_validation_error(exc, _field_list(request))
    errors = json.loads(json.dumps(exc.errors(), default=str))
    return JSONResponse({"detail": detail, "errors": errors}, status_code=422)
