"""Rate limits, security headers and origin checks: one ASGI middleware around the whole app.

:func:`install` puts it into the app (the outermost layer, so that every answer carries the
headers: pages, API, static files, the other middlewares' refusals, errors). What it does, per
request (settings in :class:`~tablero.server.settings.ServerSettings`, sections *rate limits*
and *security headers and origins*; docs/deploy.md says it for operators):

* **Headers** on every HTTP answer: a Content-Security-Policy (:data:`CSP`: scripts only from
  the site itself, so the pages carry no inline script; no framing), ``X-Frame-Options: DENY``,
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``, and
  ``Strict-Transport-Security`` when the request came over TLS (or the operator says the site
  is HTTPS only: ``hsts``).
* **Origins.** A state-changing request (POST, PUT, PATCH, DELETE) or a WebSocket whose
  ``Origin`` header names another site is refused (403, ``request/origin``; a WebSocket is
  refused at the handshake). The own site is the one in the request's ``Host``; the operator
  may allow more (``allowed_origins``). Browsers always send ``Origin`` on cross-site POSTs and
  on WebSockets, so refusing a *mismatching* one is the defence against other sites' pages;
  requests without it (curl, scripts, the tests) are no cross-site requests and are served.
  A state-changing request whose body is declared as anything but ``application/json`` is
  refused too (415, ``request/unsupported_media_type``): that is what an HTML form of another
  site sends (``text/plain``, urlencoded, multipart).
* **Rate limits** per client address: new games (``POST /api/games`` and rematches; 429 with
  ``Retry-After``), WebSocket connections open at once and new ones per minute (the connection
  is accepted, told ``request/rate_limited`` and closed with code 4429), messages per
  connection and per address (each refused message is dropped; the first of a run is answered
  with an error, a client that goes on sending as many as its bucket holds is closed with 4429)
  and chat messages per address (``chat/too_fast``, beside chat.py's own bound per connection).

The client address is ``scope["client"]``. Behind a reverse proxy the operator names it in
``trusted_proxies``; uvicorn's own ProxyHeadersMiddleware then takes the client's address (and
the scheme) from that proxy's ``X-Forwarded-For`` and ``X-Forwarded-Proto`` (the right-most
address no trusted proxy added: a client cannot pick a fresh one by sending the header itself).
IPv6 clients count per /64 network: one host has a whole /64 to pick addresses from.

The limits are token buckets (:class:`Bucket`): a limit of N a minute is a bucket of N tokens
refilled at N a minute, so a burst of N passes and then one every 60/N seconds. They are our
own, a few lines, rather than pyrate-limiter: that one is no dependency of tablero (only of
schemathesis, a test tool), its API changed between major versions, it keeps a timestamp per
request where a bucket keeps two numbers, and its clock is its own where these buckets run on
the app's clock (a fake one in the tests: a bucket refills when a test moves time on). Buckets
of addresses live in :class:`Limiter` maps that forget idle buckets (a full bucket is the same
as none) once a minute and never hold more than :data:`MAX_KEYS` addresses (the least recently
used go first).
"""

from __future__ import annotations

import ipaddress
import json
import math
import re
from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI
from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from tablero.core.errors import ErrorCode
from tablero.server.settings import ServerSettings

Clock = Callable[[], float]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""The Content-Security-Policy of every answer (``connect-src`` is added per request: the site's
own WebSocket address). Scripts only from the site: every page starts its script from
``static/app.js`` (the body's ``data-start``). Styles allow ``'unsafe-inline'`` on purpose: the
boards colour pieces and seats with ``style="--seat: …"`` attributes in the markup they build
(boardkit.js, every game's board.js) and the rules page is one file with its own ``<style>``;
CSS cannot run script, and getting markup into a page at all would first need a hole in the
escaping that ``script-src 'self'`` keeps from turning into script. Images may be ``data:``
addresses (a picture made in the page; it loads nothing)."""

HSTS = "max-age=31536000"
"""One year; no ``includeSubDomains`` (the operator's other subdomains are not ours to decide)."""

MAX_KEYS = 100_000
"""Most addresses one limit keeps a bucket for."""

SWEEP_SECONDS = 60.0
"""How often a limit forgets its idle buckets."""

CLOSE_FLOOD = 4429
"""WebSocket close code of a refused connection or a message flood (4000 + HTTP's 429)."""

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_CREATES = re.compile(r"^/api/games(/[^/]+/rematch)?/?$")
"""Requests that make a new game (POST): the lobby's and a rematch."""
_HOST = re.compile(r"^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$")
"""A Host header fit to be written into the CSP."""
_DEFAULT_PORT = {"http": ":80", "https": ":443"}


class Bucket:
    """A token bucket: ``per_minute`` tokens, refilled at ``per_minute`` a minute."""

    __slots__ = ("capacity", "rate", "stamp", "tokens")

    def __init__(self, per_minute: int, now: float) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.tokens = self.capacity
        self.stamp = now

    def _refill(self, now: float) -> None:
        self.tokens = min(self.capacity, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float) -> float:
        """Take a token: 0 when there was one, else the seconds until there is one (nothing taken)."""
        self._refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate

    def full(self, now: float) -> bool:
        return self.tokens + max(0.0, now - self.stamp) * self.rate >= self.capacity


class Limiter:
    """One bucket per key (a client address) for one limit; ``per_minute <= 0``: no limit."""

    def __init__(self, per_minute: int, max_keys: int = MAX_KEYS) -> None:
        self.per_minute = per_minute
        self.max_keys = max_keys
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()
        self._swept = -math.inf

    def take(self, key: str, now: float) -> float:
        """Take a token of ``key``'s bucket: 0, or the seconds to wait (see :meth:`Bucket.take`)."""
        if self.per_minute <= 0:
            return 0.0
        self.sweep(now)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(self.per_minute, now)
            if len(self.buckets) > self.max_keys:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket.take(now)

    def sweep(self, now: float) -> None:
        """Forget the buckets that have filled up again (once a :data:`SWEEP_SECONDS`)."""
        if now - self._swept < SWEEP_SECONDS and now >= self._swept:
            return
        self._swept = now
        for key in [k for k, b in self.buckets.items() if b.full(now)]:
            del self.buckets[key]


def client_key(scope: Scope) -> str:
    """The address a client is counted by: its IP (IPv6: its /64 network)."""
    client = scope.get("client")
    host = str(client[0]) if client else ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _wait_words(seconds: float) -> str:
    return f"try again in {max(1, math.ceil(seconds))} s"


def _error(code: ErrorCode, message: str) -> dict[str, Any]:
    return {"code": str(code), "message": message}


class Guard:
    """The state of the checks for one app: the limits' buckets and the open connections."""

    def __init__(self, settings: ServerSettings, clock: Clock) -> None:
        self.settings = settings
        self.clock = clock
        on = settings.rate_limits
        self.create = Limiter(settings.rate_create if on else 0)
        self.ws_new = Limiter(settings.rate_ws_new if on else 0)
        self.ws_messages_ip = Limiter(settings.rate_ws_messages_ip if on else 0)
        self.chat_ip = Limiter(settings.rate_chat_ip if on else 0)
        self.ws_open_max = settings.rate_ws_open if on else 0
        self.ws_messages = settings.rate_ws_messages if on else 0
        self.flood = self.ws_messages or (settings.rate_ws_messages_ip if on else 0)
        """Refused messages in a row after which a connection is closed."""
        self.open: dict[str, int] = {}
        """Open WebSocket connections per address (addresses with none are not kept)."""
        self.allowed = frozenset(o.strip().rstrip("/").lower() for o in settings.allowed_origins)

    def tracked(self) -> int:
        """Addresses the guard keeps something of now (buckets, open connections): bounded."""
        limits = (self.create, self.ws_new, self.ws_messages_ip, self.chat_ip)
        return sum(len(x.buckets) for x in limits) + len(self.open)

    # ------------------------------------------------------------------ checks
    def origin_ok(self, origin: str, headers: Headers) -> bool:
        """Whether a request with this ``Origin`` comes from the site itself or an allowed one."""
        origin = origin.strip().lower()
        if origin.rstrip("/") in self.allowed:
            return True
        parts = urlsplit(origin)
        if parts.scheme not in _DEFAULT_PORT or not parts.netloc:
            return False  # "null" (sandboxed frames, files) and the like
        host = headers.get("host", "").strip().lower()
        port = _DEFAULT_PORT[parts.scheme]
        return bool(host) and parts.netloc.removesuffix(port) == host.removesuffix(port)

    def http_refusal(self, scope: Scope, headers: Headers) -> tuple[int, dict[str, Any], float] | None:
        """Why this HTTP request is refused: (status, error, seconds to wait), or None."""
        if scope["method"] not in STATE_CHANGING:
            return None
        origin = headers.get("origin")
        if origin is not None and not self.origin_ok(origin, headers):
            return 403, _error(ErrorCode.ORIGIN, f"a request from another site ({origin[:100]}) is refused"), 0.0
        kind = headers.get("content-type")
        if kind is not None and kind.split(";")[0].strip().lower() != "application/json":
            return 415, _error(ErrorCode.MEDIA_TYPE, "the body must be JSON (Content-Type: application/json)"), 0.0
        if _CREATES.match(scope["path"]):
            wait = self.create.take(client_key(scope), self.clock())
            if wait:
                return 429, _error(ErrorCode.RATE_LIMITED, (
                    f"too many new games from your address: at most {self.create.per_minute} a minute "
                    f"({_wait_words(wait)})")), wait
        return None

    def ws_refusal(self, key: str) -> str | None:
        """Why a new WebSocket connection from ``key`` is refused, or None."""
        if self.ws_open_max > 0 and self.open.get(key, 0) >= self.ws_open_max:
            return f"too many connections open from your address (at most {self.ws_open_max})"
        wait = self.ws_new.take(key, self.clock())
        if wait:
            return (f"too many new connections from your address: at most {self.ws_new.per_minute} a minute "
                    f"({_wait_words(wait)})")
        return None

    def message_refusal(self, key: str, bucket: Bucket | None) -> str | None:
        """Why one more message of a connection (its own ``bucket``) from ``key`` is refused, or None."""
        now = self.clock()
        if bucket is not None:
            wait = bucket.take(now)
            if wait:
                return f"too many messages: at most {self.ws_messages} a minute per connection ({_wait_words(wait)})"
        wait = self.ws_messages_ip.take(key, now)
        if wait:
            return (f"too many messages from your address: at most {self.ws_messages_ip.per_minute} a minute "
                    f"({_wait_words(wait)})")
        return None

    def chat_refusal(self, key: str, message: Message) -> str | None:
        """Why a chat message is refused for its address's bound, or None (other messages: None)."""
        if self.chat_ip.per_minute <= 0 or not _is_chat(message):
            return None
        wait = self.chat_ip.take(key, self.clock())
        if wait:
            return (f"slow down: at most {self.chat_ip.per_minute} chat messages a minute from your address "
                    f"(the next in {max(1, math.ceil(wait))} s)")
        return None

    def headers(self, scope: Scope, headers: Headers) -> dict[str, str]:
        """The security headers of an answer to this request."""
        host = headers.get("host", "").strip().lower()
        connect = "connect-src 'self'"
        if _HOST.match(host):  # older browsers (Safari) do not count ws(s) of the page's host as 'self'
            connect += f" {'wss' if scope.get('scheme') == 'https' else 'ws'}://{host}"
        out = {
            "content-security-policy": f"{CSP}; {connect}",
            "x-frame-options": "DENY",
            "x-content-type-options": "nosniff",
            "referrer-policy": "no-referrer",
        }
        if self.settings.hsts or scope.get("scheme") in ("https", "wss"):
            out["strict-transport-security"] = HSTS
        return out


def _is_chat(message: Message) -> bool:
    text = message.get("text")
    if not isinstance(text, str) or ("chat" not in text and "\\u" not in text):
        return False
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):  # the service answers what does not parse
        return False
    return isinstance(msg, dict) and msg.get("type") == "chat"


def _error_text(code: ErrorCode, message: str) -> str:
    return json.dumps({"type": "error", **_error(code, message)})


class SecurityMiddleware:
    """The ASGI middleware over a :class:`Guard` (see the module docstring)."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        request_headers = Headers(scope=scope)
        extra = self.guard.headers(scope, request_headers)
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                out = MutableHeaders(scope=message)
                for name, value in extra.items():
                    if name not in out:
                        out[name] = value
            await send(message)

        refusal = self.guard.http_refusal(scope, request_headers)
        if refusal is not None:
            status, error, wait = refusal
            retry = {"retry-after": str(max(1, math.ceil(wait)))} if wait else None
            await JSONResponse({"error": error}, status_code=status, headers=retry)(scope, receive, send_with_headers)
            return
        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            # An unexpected fault: answer here, with the headers, before Starlette's outermost
            # error middleware would (it still logs the exception, which goes on up).
            if not started:
                await PlainTextResponse("Internal Server Error", status_code=500)(scope, receive, send_with_headers)
            raise

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        guard = self.guard
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is not None and not guard.origin_ok(origin, headers):
            await _deny(scope, receive, send, _error(ErrorCode.ORIGIN, "a connection from another site is refused"))
            return
        key = client_key(scope)
        why = guard.ws_refusal(key)
        if why is not None:
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": _error_text(ErrorCode.RATE_LIMITED, why)})
            await send({"type": "websocket.close", "code": CLOSE_FLOOD})
            return
        bucket = Bucket(guard.ws_messages, guard.clock()) if guard.ws_messages > 0 else None
        refused_in_a_row = 0
        closed = False

        async def guarded_send(message: Message) -> None:
            if not closed:  # after a flood's close the app's last sends go nowhere
                await send(message)

        async def guarded_receive() -> Message:
            nonlocal refused_in_a_row, closed
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return message
                why = guard.message_refusal(key, bucket)
                if why is None:
                    refused_in_a_row = 0
                    chat_why = guard.chat_refusal(key, message)
                    if chat_why is None:
                        return message
                    await send({"type": "websocket.send", "text": _error_text(ErrorCode.CHAT_TOO_FAST, chat_why)})
                    continue
                refused_in_a_row += 1
                if refused_in_a_row == 1:
                    await send({"type": "websocket.send", "text": _error_text(ErrorCode.RATE_LIMITED, why)})
                elif refused_in_a_row > guard.flood:
                    closed = True
                    await send({"type": "websocket.close", "code": CLOSE_FLOOD})
                    return {"type": "websocket.disconnect", "code": CLOSE_FLOOD}

        guard.open[key] = guard.open.get(key, 0) + 1
        try:
            await self.app(scope, guarded_receive, guarded_send)
        finally:
            left = guard.open[key] - 1
            if left:
                guard.open[key] = left
            else:
                del guard.open[key]


async def _deny(scope: Scope, receive: Receive, send: Send, error: dict[str, Any]) -> None:
    """Refuse a WebSocket at its handshake: an HTTP 403 with our error where the server can, else a close."""
    await receive()  # websocket.connect
    if "websocket.http.response" in scope.get("extensions", {}):
        body = json.dumps({"error": error}).encode()
        await send({"type": "websocket.http.response.start", "status": 403,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 1008})


def install(app: FastAPI, settings: ServerSettings, clock: Clock) -> Guard:
    """Put the checks into ``app`` as its outermost middleware (call it after every other
    ``add_middleware``), behind uvicorn's proxy headers when ``trusted_proxies`` names proxies;
    the guard is ``app.state.security``."""
    guard = Guard(settings, clock)
    app.add_middleware(SecurityMiddleware, guard=guard)
    if settings.trusted_proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies))
    app.state.security = guard
    return guard

