"""Rate limits, security headers and origin checks (issue 14, faults 6 and 7).

Each test is one finding of the audit: one client created hundreds of games a second; nothing
bounded WebSocket connections or their messages; no response carried a Content-Security-Policy,
X-Frame-Options, nosniff or Referrer-Policy; a cross-site ``text/plain`` form post created games
and a page of another site could open the table's WebSocket. The limits run on the app's clock
(a :class:`FakeClock` here): a bucket refills only when a test moves time on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from tablero.registry import GAMES
from tablero.server.app import create_app
from tablero.server.security import Limiter
from tablero.server.service import GameService
from tablero.server.settings import ServerSettings

from .conftest import FakeClock, hello, recv

TWO = [{"kind": "you", "name": "Ann"}, {"kind": "local", "name": "Bea"}]
SPEC = {"game": "don-carlo", "seats": TWO}
PEER = "198.51.100.7"
"""The address the test client connects from (TestClient's ``client``)."""
HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy")


@contextmanager
def app_client(url: str, *, peer: str = PEER, clock: FakeClock | None = None,
               base_url: str = "http://testserver", raise_server_exceptions: bool = True,
               **settings: Any) -> Iterator[TestClient]:
    """The app with ``settings`` (every rate limit off unless given), seen from ``peer``."""
    off = {"rate_create": 0, "rate_ws_open": 0, "rate_ws_new": 0, "rate_ws_messages": 0,
           "rate_ws_messages_ip": 0, "rate_chat_ip": 0}
    app = create_app(url, bot_delay=0, clock=clock or FakeClock(), tick_seconds=0.02,
                     settings=ServerSettings(**{**off, **settings}))
    with TestClient(app, client=(peer, 50000), base_url=base_url,
                    raise_server_exceptions=raise_server_exceptions) as c:
        yield c


def service(c: TestClient) -> GameService:
    svc: GameService = c.app.state.service  # type: ignore[attr-defined]
    return svc


def refused(r: Any, code: str, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    error: dict[str, Any] = r.json()["error"]
    assert error["code"] == code and error["message"], error
    return error


def until(ws: Any, kind: str, skip: tuple[str, ...] = ("update",)) -> dict[str, Any]:
    """The next message of ``kind`` (updates about others coming and going are skipped)."""
    while True:
        m = recv(ws)
        if m["type"] == kind:
            return m
        assert m["type"] in skip, m


def closed_with(ws: Any) -> int:
    """Read until the server closes the connection; its close code."""
    with pytest.raises(WebSocketDisconnect) as info:
        while True:
            ws.receive_text()
    return info.value.code


# ---------------------------------------------------------------------- rate limits: HTTP
def test_one_address_creates_a_few_games_then_waits_others_are_not_held_up(sqlite_url: str,
                                                                          clock: FakeClock) -> None:
    with app_client(sqlite_url, clock=clock, rate_create=3) as c:
        for _ in range(3):
            assert c.post("/api/games", json=SPEC).status_code == 200
        r = c.post("/api/games", json=SPEC)
        refused(r, "request/rate_limited", 429)
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert len(service(c).store.ids()) == 3, "a refused creation made a game"
        # a forwarded-for header from an address that is no trusted proxy changes nothing
        refused(c.post("/api/games", json=SPEC, headers={"x-forwarded-for": "203.0.113.1"}),
                "request/rate_limited", 429)
        clock.advance(int(r.headers["retry-after"]))
        assert c.post("/api/games", json=SPEC).status_code == 200
        # another address has its own bucket (a second client on the same app)
        other = TestClient(c.app, client=("198.51.100.8", 50000))
        assert other.post("/api/games", json=SPEC).status_code == 200


def test_behind_a_trusted_proxy_each_forwarded_address_has_its_own_bucket(sqlite_url: str) -> None:
    with app_client(sqlite_url, rate_create=2, trusted_proxies=(PEER,)) as c:
        ann, bea = {"x-forwarded-for": "203.0.113.1"}, {"x-forwarded-for": "203.0.113.2, " + PEER}
        for _ in range(2):
            assert c.post("/api/games", json=SPEC, headers=ann).status_code == 200
        refused(c.post("/api/games", json=SPEC, headers=ann), "request/rate_limited", 429)
        # the client cannot pick a fresh address: the address the trusted proxy saw counts
        spoof = {"x-forwarded-for": "10.9.9.9, 203.0.113.1"}
        refused(c.post("/api/games", json=SPEC, headers=spoof), "request/rate_limited", 429)
        for _ in range(2):
            assert c.post("/api/games", json=SPEC, headers=bea).status_code == 200
        refused(c.post("/api/games", json=SPEC, headers=bea), "request/rate_limited", 429)
        assert len(service(c).store.ids()) == 4


def test_idle_buckets_are_forgotten(sqlite_url: str, clock: FakeClock) -> None:
    with app_client(sqlite_url, clock=clock, rate_create=2, trusted_proxies=(PEER,)) as c:
        limits = c.app.state.security  # type: ignore[attr-defined]
        for i in range(50):
            c.post("/api/games", json={}, headers={"x-forwarded-for": f"203.0.113.{i}"})
        assert limits.tracked() >= 50
        clock.advance(3600)
        c.post("/api/games", json={}, headers={"x-forwarded-for": "203.0.113.200"})
        assert limits.tracked() <= 2
    # however many addresses come within a minute, a limit keeps at most max_keys (the least recent go)
    few = Limiter(2, max_keys=3)
    for i in range(10):
        few.take(f"203.0.113.{i}", 0.0)
    assert list(few.buckets) == ["203.0.113.7", "203.0.113.8", "203.0.113.9"]


# ---------------------------------------------------------------------- rate limits: WebSocket
def test_too_many_connections_from_one_address_are_told_and_closed(sqlite_url: str, clock: FakeClock) -> None:
    with app_client(sqlite_url, clock=clock, rate_ws_open=2) as c:
        g = c.post("/api/games", json=SPEC).json()
        with c.websocket_connect(f"/ws/{g['id']}") as a, c.websocket_connect(f"/ws/{g['id']}") as b:
            hello(a, [])
            hello(b, [])
            with c.websocket_connect(f"/ws/{g['id']}") as third:
                err = recv(third)
                assert err["type"] == "error" and err["code"] == "request/rate_limited", err
                assert closed_with(third) == 4429
        with c.websocket_connect(f"/ws/{g['id']}") as again:  # the two have closed: room again
            assert hello(again, [])["type"] == "update"


def test_new_connections_per_minute_are_bounded(sqlite_url: str, clock: FakeClock) -> None:
    with app_client(sqlite_url, clock=clock, rate_ws_new=3) as c:
        g = c.post("/api/games", json=SPEC).json()
        for _ in range(3):
            with c.websocket_connect(f"/ws/{g['id']}") as ws:
                assert hello(ws, [])["type"] == "update"
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert recv(ws)["code"] == "request/rate_limited"
            assert closed_with(ws) == 4429
        clock.advance(60)
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert hello(ws, [])["type"] == "update"


def test_a_message_flood_is_refused_once_and_then_closed(sqlite_url: str, clock: FakeClock) -> None:
    with app_client(sqlite_url, clock=clock, rate_ws_messages=4) as c:
        g = c.post("/api/games", json=SPEC).json()
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            hello(ws, [g["tokens"]["0"]])  # the first of four
            for _ in range(5):
                ws.send_text(json.dumps({"type": "ping"}))
            assert [until(ws, "pong") for _ in range(3)]
            err = recv(ws)
            assert err["type"] == "error" and err["code"] == "request/rate_limited", err
            clock.advance(30)  # half a minute: two messages again
            ws.send_text(json.dumps({"type": "ping"}))
            assert until(ws, "pong")
        with c.websocket_connect(f"/ws/{g['id']}") as ws:  # a client that goes on and on is closed
            hello(ws, [])
            for _ in range(12):
                ws.send_text(json.dumps({"type": "ping"}))
            kinds = []
            with pytest.raises(WebSocketDisconnect) as info:
                while True:
                    kinds.append(recv(ws)["type"])
            assert info.value.code == 4429
            assert kinds.count("error") == 1 and kinds.count("pong") <= 3


def test_messages_of_all_connections_of_an_address_share_a_bound(sqlite_url: str, clock: FakeClock) -> None:
    with app_client(sqlite_url, clock=clock, rate_ws_messages_ip=5) as c:
        g = c.post("/api/games", json=SPEC).json()
        with c.websocket_connect(f"/ws/{g['id']}") as a, c.websocket_connect(f"/ws/{g['id']}") as b:
            hello(a, [])
            hello(b, [])
            for ws in (a, b, a):
                ws.send_text(json.dumps({"type": "ping"}))
                until(ws, "pong")
            b.send_text(json.dumps({"type": "ping"}))
            assert until(b, "error")["code"] == "request/rate_limited"


def test_chat_from_one_address_is_bounded_across_its_connections(sqlite_url: str, clock: FakeClock) -> None:
    with app_client(sqlite_url, clock=clock, rate_chat_ip=3) as c:
        g = c.post("/api/games", json=SPEC).json()
        with c.websocket_connect(f"/ws/{g['id']}") as a, c.websocket_connect(f"/ws/{g['id']}") as b:
            hello(a, [g["tokens"]["0"]])
            hello(b, [g["tokens"]["1"]])
            for ws, seat in ((a, 0), (b, 1), (a, 0)):  # each connection within chat.py's own 5 in 10 s
                ws.send_text(json.dumps({"type": "chat", "seat": seat, "text": "hi"}))
                until(ws, "chat")
            b.send_text(json.dumps({"type": "chat", "seat": 1, "text": "one too many"}))
            err = until(b, "error", skip=("update", "chat"))
            assert err["code"] == "chat/too_fast" and "your address" in err["message"], err
            b.send_text(json.dumps({"type": "chat_history"}))
            assert [m["text"] for m in until(b, "chat_history", skip=("chat",))["messages"]] == ["hi"] * 3


def test_a_chat_message_that_does_not_parse_is_left_to_the_service(sqlite_url: str) -> None:
    """The chat bound reads a message's type; one nested too deep for the JSON parser (or not
    JSON) goes on to the service, which answers it, and the connection stays."""
    with app_client(sqlite_url, rate_chat_ip=3) as c:
        g = c.post("/api/games", json=SPEC).json()
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            hello(ws, [g["tokens"]["0"]])
            for raw in ('{"type": "chat", "seat": 0, "text": ' + "[" * 3000 + "]" * 3000 + "}",
                        '{"type": "chat", "seat": 0, "text": "hi"'):
                ws.send_text(raw)
                assert until(ws, "error")["code"].startswith("request/")
            ws.send_text(json.dumps({"type": "ping"}))
            assert until(ws, "pong")


def test_limits_off_when_the_operator_says_so(sqlite_url: str) -> None:
    with app_client(sqlite_url, rate_limits=False, rate_create=1) as c:
        for _ in range(3):
            assert c.post("/api/games", json=SPEC).status_code == 200


def test_the_defaults_are_on() -> None:
    s = ServerSettings()
    assert s.rate_limits and s.rate_create > 0 and s.rate_ws_open > 0 and s.rate_ws_new > 0
    assert s.rate_ws_messages > 0 and s.rate_ws_messages_ip > 0 and s.rate_chat_ip > 0


# ---------------------------------------------------------------------- security headers
def test_every_response_carries_the_security_headers(sqlite_url: str) -> None:
    with app_client(sqlite_url, raise_server_exceptions=False) as c:
        g = c.post("/api/games", json=SPEC).json()

        def boom(*_args: Any, **_kwargs: Any) -> Any:
            raise RuntimeError("a fault inside the server")

        service(c).listing = boom  # type: ignore[method-assign]
        urls = {
            "/": 200, f"/game/{g['id']}": 200, f"/join/{g['id']}/x": 200, "/tutorial/don-carlo": 200,
            "/rules/el-grande": 200, "/api/meta": 200, f"/api/games/{g['id']}/record": 409, "/api/i18n/de": 200,
            "/healthz": 200,
            "/static/app/app.js": 200, "/static/app/style.css": 200, "/static/games/don-carlo/board.js": 200,
            "/favicon.svg": 200, "/static/app/nothing.js": 404, "/game/nope": 404, "/no/such/page": 404,
            "/api/games": 500,
        }
        for url, status in urls.items():
            r = c.get(url)
            assert r.status_code == status, (url, r.status_code)
            missing = [h for h in HEADERS if h not in r.headers]
            assert not missing, (url, missing)
            assert r.headers["x-frame-options"] == "DENY"
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["referrer-policy"] == "no-referrer"
            assert "strict-transport-security" not in r.headers, "HSTS over plain HTTP"
        r = c.post("/api/games", json={"game": "chess"})  # an error answer of the API
        assert r.status_code == 400 and all(h in r.headers for h in HEADERS)


def test_csp_allows_only_the_sites_own_scripts_and_no_framing(sqlite_url: str) -> None:
    with app_client(sqlite_url) as c:
        csp = directives(c.get("/").headers["content-security-policy"])
        assert csp["script-src"] == ["'self'"]
        assert csp["default-src"] == ["'self'"]
        assert csp["frame-ancestors"] == ["'none'"]
        assert csp["object-src"] == ["'none'"] and csp["base-uri"] == ["'none'"]
        assert not any(s.startswith(("http:", "https:", "*")) for v in csp.values() for s in v)


def test_hsts_only_over_tls_or_when_the_operator_says_so(sqlite_url: str) -> None:
    with app_client(sqlite_url, base_url="https://testserver") as c:
        assert "max-age=" in c.get("/").headers["strict-transport-security"]
    with app_client(sqlite_url, hsts=True) as c:
        assert "max-age=" in c.get("/api/meta").headers["strict-transport-security"]
    with app_client(sqlite_url, trusted_proxies=(PEER,)) as c:  # TLS ends at the trusted proxy
        assert "strict-transport-security" in c.get("/", headers={"x-forwarded-proto": "https"}).headers
    with app_client(sqlite_url) as c:  # an untrusted client saying so is not believed
        assert "strict-transport-security" not in c.get("/", headers={"x-forwarded-proto": "https"}).headers


class Scripts(HTMLParser):
    """The scripts of a page and any inline event handler attribute."""

    def __init__(self) -> None:
        super().__init__()
        self.srcs: list[str | None] = []
        self.inline: list[str] = []
        self.handlers: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handlers += [k for k, _ in attrs if k.startswith("on")]
        if tag == "script":
            self.srcs.append(dict(attrs).get("src"))
            self._in_script = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(data)


def test_no_page_has_an_inline_script(sqlite_url: str) -> None:
    with app_client(sqlite_url) as c:
        g = c.post("/api/games", json=SPEC).json()
        pages = ["/", "/?lang=de", f"/game/{g['id']}", f"/join/{g['id']}/x"]
        pages += [f"/tutorial/{gid}?lang=de" for gid in GAMES]
        pages += [f"/rules/{gid}?lang={lang}" for gid in GAMES for lang in ("en", "de")]
        for url in pages:
            page = Scripts()
            page.feed(c.get(url).text)
            assert page.srcs and all(page.srcs), (url, "a script without src")
            assert not page.inline and not page.handlers, (url, page.inline, page.handlers)
            for src in page.srcs:
                assert src is not None and src.startswith("/static/")
                assert c.get(src).status_code == 200, src


def directives(csp: str) -> dict[str, list[str]]:
    out = {}
    for part in csp.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


# ---------------------------------------------------------------------- origins
def test_a_cross_site_post_is_refused_and_creates_nothing(sqlite_url: str) -> None:
    with app_client(sqlite_url) as c:
        evil = {"origin": "https://evil.example"}
        refused(c.post("/api/games", json=SPEC, headers=evil), "request/origin", 403)
        refused(c.post("/api/games", json=SPEC, headers={"origin": "null"}), "request/origin", 403)
        # a form of another site: text/plain (or urlencoded) with the JSON in its body
        body = json.dumps(SPEC).encode()
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
            refused(c.post("/api/games", content=body, headers={**evil, "content-type": kind}), "request/origin", 403)
            refused(c.post("/api/games", content=body, headers={"content-type": kind}),
                    "request/unsupported_media_type", 415)
        assert service(c).store.ids() == []
        assert c.get("/api/games").json()["games"] == []
        # the same site, an allowed one, and clients that send no Origin (curl, scripts) are served
        g = c.post("/api/games", json=SPEC, headers={"origin": "http://testserver"}).json()
        assert c.post(f"/api/games/{g['id']}/claim", json={"invite": "x"},
                      headers=evil).json()["error"]["code"] == "request/origin"
        assert c.post("/api/games", content=body,
                      headers={"content-type": "application/json; charset=utf-8"}).status_code == 200
        assert len(service(c).store.ids()) == 2
    with app_client(sqlite_url, allowed_origins=("https://play.example",)) as c:
        assert c.post("/api/games", json=SPEC, headers={"origin": "https://play.example"}).status_code == 200
        refused(c.post("/api/games", json=SPEC, headers={"origin": "https://evil.example"}), "request/origin", 403)


def test_a_websocket_from_another_site_is_refused(sqlite_url: str) -> None:
    with app_client(sqlite_url) as c:
        g = c.post("/api/games", json=SPEC).json()
        for origin in ("https://evil.example", "http://testserver.evil.example", "null"):
            with (pytest.raises(WebSocketDenialResponse) as denied,
                  c.websocket_connect(f"/ws/{g['id']}", headers={"origin": origin}) as ws):
                hello(ws, [g["tokens"]["0"]])
            assert denied.value.status_code == 403 and denied.value.json()["error"]["code"] == "request/origin"
        assert g["id"] not in service(c).live or not service(c).live[g["id"]].conns
        with c.websocket_connect(f"/ws/{g['id']}", headers={"origin": "http://testserver"}) as ws:
            assert hello(ws, [g["tokens"]["0"]])["viewer"] == 0


def test_behind_a_proxy_that_changes_the_host_the_operator_names_the_site(sqlite_url: str) -> None:
    proxied = {"host": "127.0.0.1:8000", "origin": "https://tablero.example"}
    with app_client(sqlite_url) as c:
        refused(c.post("/api/games", json=SPEC, headers=proxied), "request/origin", 403)
    with app_client(sqlite_url, allowed_origins=("https://tablero.example/",)) as c:
        assert c.post("/api/games", json=SPEC, headers=proxied).status_code == 200
        shouted = {**proxied, "origin": "HTTPS://Tablero.Example"}
        assert c.post("/api/games", json=SPEC, headers=shouted).status_code == 200
