"""Hostile inputs (issue 14, fault 3): every one is refused with a 400 (or 413) and changes nothing.

Each test is one finding of the audit: bodies that are no UTF-8, nested too deep, with a huge
number; fields of the wrong type; numbers that are not finite; names with control, bidi or
lone-surrogate characters; options and rules data too large to play with; bodies too large,
refused before they are read; binary and malformed WebSocket frames, answered with an error on
a connection that stays open.
"""

from __future__ import annotations

import asyncio
import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text, update
from websockets.sync.client import connect

from tablero.server.app import create_app
from tablero.server.service import GameService
from tablero.server.settings import ServerSettings
from tablero.server.store import games, make_engine

from .conftest import FakeClock, client, create, hello, recv
from .test_crash import TIMEOUT, Server

TWO = [{"kind": "you", "name": "Ann"}, {"kind": "local", "name": "Bea"}]
BOTS = [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
DEEP = 2_500


def service(c: TestClient) -> GameService:
    svc: GameService = c.app.state.service  # type: ignore[attr-defined]
    return svc


def refused(r: Any, code: str = "request/malformed", status: int = 400) -> dict[str, Any]:
    """The error of a refused request: the status, our error shape, the code."""
    assert r.status_code == status, r.text
    error: dict[str, Any] = r.json()["error"]
    assert set(error) == {"code", "message"} and error["message"], error
    assert error["code"] == code, error
    return error


def post_raw(c: TestClient, url: str, body: bytes) -> Any:
    return c.post(url, content=body, headers={"content-type": "application/json"})


def nothing_created(c: TestClient) -> None:
    assert c.get("/api/games").json()["games"] == []
    assert service(c).store.ids() == []


# ---------------------------------------------------------------------- bodies that do not parse
@pytest.mark.parametrize("body", [
    b'{"game": "don-carlo", "seats": [{"kind": "you", "name": "\xff\xfe"}]}',  # not UTF-8
    b"[" * DEEP + b"]" * DEEP,  # nested ~2,500 deep
    b'{"game": "don-carlo", "options": ' + b'{"a": ' * 2_000 + b"1" + b"}" * 2_000 + b"}",
    b'{"game": "don-carlo", "move_seconds": 1' + b"0" * 5_000 + b"}",  # a 5,000-digit integer
    b'{"game": "don-carlo", "seats": [{"kind": "you"}, {"kind": "local"}], "move_seconds": NaN}',
    b'{"game": "don-carlo", "seats": [{"kind": "you"}, {"kind": "local"}], "move_seconds": Infinity}',
])
def test_a_body_that_does_not_parse_is_a_400(sqlite_url: str, body: bytes) -> None:
    with client(sqlite_url) as c:
        refused(post_raw(c, "/api/games", body))
        for url in ("/api/games/x/claim", "/api/games/x/invitation", "/api/games/x/invite",
                    "/api/games/x/rematch", "/api/tutorial/don-carlo/0"):
            refused(post_raw(c, url, body))
        nothing_created(c)


# ---------------------------------------------------------------------- fields of the wrong type
@pytest.mark.parametrize("options", ["short_game", 7, ["short_game"], True])
def test_options_that_are_no_object_are_a_400(sqlite_url: str, options: Any) -> None:
    with client(sqlite_url) as c:
        refused(c.post("/api/games", json={"game": "el-grande", "seats": TWO, "options": options}))
        nothing_created(c)


@pytest.mark.parametrize(("field", "value"), [
    ("move_seconds", "thirty"), ("move_seconds", [30]), ("move_seconds", {"s": 30}),
    ("move_seconds", "inf"), ("move_seconds", "nan"), ("move_seconds", "-inf"), ("move_seconds", 1e308),
    ("move_seconds", -5), ("move_seconds", "30"), ("move_seconds", False),
    ("away_seconds", "inf"), ("away_seconds", "nan"), ("away_seconds", [60]),
    ("hints", [True]), ("stand_in", 3), ("chat", ["all"]), ("seats", "you"), ("game", 3),
])
def test_settings_of_the_wrong_type_or_not_finite_are_a_400(sqlite_url: str, field: str, value: Any) -> None:
    with client(sqlite_url) as c:
        body = {"game": "el-grande", "seats": TWO, field: value}
        refused(c.post("/api/games", json=body))
        nothing_created(c)


def test_a_clock_that_is_not_finite_never_reaches_a_payload(sqlite_url: str) -> None:
    """``"inf"`` once put ``Infinity`` in every update (no browser parses it), ``"nan"`` made the
    stand-in play every person's seat at once: both are refused, a real clock still works."""
    clock = FakeClock()
    with client(sqlite_url, clock) as c:
        for value in ("inf", "nan", "Infinity", float("inf")):
            r = c.post("/api/games", content=json.dumps({"game": "don-carlo", "seats": TWO, "move_seconds": value}),
                       headers={"content-type": "application/json"})
            refused(r)
        nothing_created(c)
        g = create(c, "don-carlo", TWO, move_seconds=30)
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            ws.send_text(json.dumps({"type": "hello", "tokens": [g["tokens"]["0"]]}))
            raw = ws.receive_text()
            assert "Infinity" not in raw and "NaN" not in raw
            m = json.loads(raw)
            assert m["clocks"] and set(m["clocks"].values()) == {30.0}, m  # the clock runs for the seat to move
        assert service(c).get(g["id"]).stored.settings["move_seconds"] == 30


def test_other_bodies_with_wrong_types_are_a_400(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        g = create(c, "don-carlo", [{"kind": "you"}, {"kind": "person"}])
        gid, invite = g["id"], g["invites"]["1"]
        refused(c.post(f"/api/games/{gid}/claim", json={"invite": invite, "name": ["Bob"]}))
        refused(c.post(f"/api/games/{gid}/claim", json={"invite": 12}))
        refused(c.post(f"/api/games/{gid}/invitation", json={"invite": invite, "lang": 7}))
        refused(c.post(f"/api/games/{gid}/invite", json={"admin": g["admin"], "seat": [1]}))
        refused(c.post(f"/api/games/{gid}/rematch", json={"tokens": "abc"}))
        refused(c.post("/api/tutorial/don-carlo/0", json={"moves": [1, 2]}))
        refused(c.post("/api/tutorial/don-carlo/0", json={"moves": [], "lang": ["en"]}))
        refused(c.post(f"/api/games/{gid}/claim", content=b"[1, 2]", headers={"content-type": "application/json"}))
        assert c.post(f"/api/games/{gid}/invitation", json={"invite": invite}).json()["status"] == "open"


# ---------------------------------------------------------------------- names
BAD_NAMES = [
    "Ann\x00", "Ann\x07", "Ann\x1b[31m", "\u202eevil", "Ann\u2066", "Ann\u200f", "Ann\u061c", "Ann\x7f",
]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_names_with_control_or_bidi_characters_are_a_400(db_url: str, name: str) -> None:
    with client(db_url) as c:
        refused(c.post("/api/games", json={"game": "don-carlo", "seats": [{"kind": "you", "name": name},
                                                                          {"kind": "local"}]}))
        nothing_created(c)
        g = create(c, "don-carlo", [{"kind": "you"}, {"kind": "person"}])
        refused(c.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"]["1"], "name": name}))
        info = c.post(f"/api/games/{g['id']}/invitation", json={"invite": g["invites"]["1"]}).json()
        assert info["status"] == "open"  # the invite was not used up


def test_a_name_with_a_lone_surrogate_is_a_400(db_url: str) -> None:
    with client(db_url) as c:
        body = b'{"game": "don-carlo", "seats": [{"kind": "you", "name": "Ann\\ud800"}, {"kind": "local"}]}'
        refused(post_raw(c, "/api/games", body))
        nothing_created(c)
        g = create(c, "don-carlo", [{"kind": "you"}, {"kind": "person"}])
        claim = json.dumps({"invite": g["invites"]["1"], "name": "Bob"}).replace("Bob", "Bob\\udc00").encode()
        refused(post_raw(c, f"/api/games/{g['id']}/claim", claim))
        assert c.get("/api/games").status_code == 200


def test_names_are_trimmed_and_normalised(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        g = create(c, "don-carlo", [{"kind": "you", "name": "  Jose\u0301\t  Luis "}, {"kind": "person"}])
        assert service(c).get(g["id"]).stored.players[0] == "Jos\u00e9 Luis"  # NFC, one space
        r = c.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"]["1"], "name": " Zoe\u0308 "})
        assert r.status_code == 200
        assert service(c).get(g["id"]).stored.players[1] == "Zo\u00eb"


def test_one_bad_stored_row_does_not_break_the_lobby(sqlite_url: str) -> None:
    """A name with a lone surrogate stored by an older version once made ``GET /api/games`` fail
    for everyone until 50 newer games pushed it out."""
    with client(sqlite_url) as c:
        good = create(c, "don-carlo", TWO)
        bad = create(c, "don-carlo", TWO)
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:  # as an older version stored it
        conn.execute(update(games).where(games.c.id == bad["id"]).values(players=["Ann\ud800", "Bea"]))
    engine.dispose()
    with client(sqlite_url) as c:
        r = c.get("/api/games")
        assert r.status_code == 200
        listed = {g["id"]: g for g in r.json()["games"]}
        assert good["id"] in listed
        if bad["id"] in listed:
            json.dumps(listed[bad["id"]]).encode()  # whatever it shows is valid text
            assert all("\ud800" not in p for p in listed[bad["id"]]["players"])


# ---------------------------------------------------------------------- options and data too large
@pytest.mark.parametrize(("points", "code", "says"), [
    (10**400, "request/malformed", "digits"),  # refused as it is read: no number that long is read
    (10**29, "game/bad_option", "country_points"),  # read, then out of the games' bounds (core)
    (10**7, "game/bad_option", "country_points"),
    ("1" + "0" * 400, "game/bad_option", "country_points"),  # as text, as the command line gives it
    (-1, "game/bad_option", "country_points"),
])
def test_country_points_too_large_are_refused_at_creation(sqlite_url: str, points: object, code: str,
                                                          says: str) -> None:
    """Don Carlo's ``country_points`` of 10**400 once passed, crashed the bot task and froze the
    table for good (and again on every reload)."""
    with client(sqlite_url) as c:
        body = json.dumps({"game": "don-carlo", "seats": BOTS, "options": {"country_points": {"protzland": points}}})
        error = refused(c.post("/api/games", content=body, headers={"content-type": "application/json"}), code)
        assert says in error["message"] and len(error["message"]) < 500
        nothing_created(c)


@pytest.mark.parametrize("value", [10**400, "1" + "0" * 400, float("inf"), [1] * 5_000, {"a": 1}])
def test_data_overrides_out_of_bounds_are_refused_at_creation(sqlite_url: str, value: Any) -> None:
    with client(sqlite_url) as c:
        body = json.dumps({"game": "mafia-legend", "seats": [*BOTS, {"kind": "bot", "bot": "random"}],
                           "options": {"variant": "beginner", "data": {"BEGINNER_GOAL": value}}})
        r = c.post("/api/games", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        assert r.json()["error"]["code"] in ("game/bad_data", "request/malformed")
        assert len(r.json()["error"]["message"]) < 500
        nothing_created(c)


def test_a_stored_table_with_options_out_of_bounds_is_not_resumed(sqlite_url: str) -> None:
    """A table stored before the bounds (country_points of 10**400) is left out at start (a
    warning), the server starts for every other table, opening it gives a clear 400."""
    with client(sqlite_url) as c:
        bad = create(c, "don-carlo", BOTS)
        good = create(c, "don-carlo", TWO)
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        row = conn.execute(text("SELECT options FROM games WHERE id = :i"), {"i": bad["id"]}).scalar_one()
        options = json.loads(row) if isinstance(row, str) else dict(row)
        options["country_points"]["protzland"] = 10**400
        conn.execute(text("UPDATE games SET options = :o WHERE id = :i"), {"o": json.dumps(options), "i": bad["id"]})
    engine.dispose()
    with client(sqlite_url) as c:
        assert bad["id"] not in service(c).live
        with c.websocket_connect(f"/ws/{good['id']}") as ws:
            assert hello(ws, [good["tokens"]["0"]])["viewer"] == 0
        r = c.get(f"/api/games/{bad['id']}/table-data")
        refused(r, "game/bad_option")
        assert c.get("/api/games").status_code == 200


# ---------------------------------------------------------------------- body size
def _asgi_post(app: Any, chunks: int, chunk: bytes, content_length: int | None) -> tuple[int, int]:
    """POST /api/games to ``app`` by hand: the status, and how many body chunks the app pulled."""
    pulled = 0
    status = 0
    headers = [(b"content-type", b"application/json"), (b"host", b"testserver")]
    if content_length is not None:
        headers.append((b"content-length", str(content_length).encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/api/games", "raw_path": b"/api/games", "root_path": "",
             "query_string": b"", "headers": headers, "client": ("127.0.0.1", 1), "server": ("testserver", 80)}

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        if pulled >= chunks:
            return {"type": "http.disconnect"}
        pulled += 1
        return {"type": "http.request", "body": chunk, "more_body": pulled < chunks}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    # in a thread of its own: a browser test before this one in the same worker leaves an event
    # loop running in this thread (Playwright's sync API), where asyncio.run refuses to start
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    return status, pulled


def test_a_body_over_the_limit_is_refused_before_it_is_read(sqlite_url: str) -> None:
    """A 100 MB body was once read whole before its size was checked."""
    app = create_app(sqlite_url, settings=ServerSettings(max_body=16_384), clock=FakeClock())
    chunk = b" " * 65_536
    status, pulled = _asgi_post(app, 1_600, chunk, content_length=1_600 * len(chunk))  # 100 MB announced
    assert status == 413 and pulled == 0
    status, pulled = _asgi_post(app, 1_600, b" " * 1024, content_length=None)  # chunked: counted as it comes
    assert status == 413 and pulled <= 17
    app.state.service.store.close()


def test_the_limit_is_a_setting_and_the_refusal_is_our_error(sqlite_url: str) -> None:
    with client(sqlite_url, settings=ServerSettings(max_body=1_000)) as c:
        body = {"game": "don-carlo", "seats": TWO, "options": {}, "chat": "players"}
        body["pad"] = " " * 1_000
        refused(c.post("/api/games", json=body), "request/too_large", 413)
        nothing_created(c)
        with c.websocket_connect("/ws/nope") as ws:  # the WebSocket's messages have the same limit
            ws.send_text(json.dumps({"type": "hello", "tokens": ["x" * 2_000]}))
            assert recv(ws)["code"] == "request/too_large"


def test_tablero_serve_reads_messages_up_to_a_raised_limit(tmp_path: Path) -> None:
    """``tablero serve`` lets uvicorn read WebSocket messages up to four times ``max_body`` (64 KiB
    at least): with the limit raised to 100 KB, a 90 KB message is read and answered by the
    service (it used to be cut at 64 KiB, the connection closed with 1009)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLERO_")}
    env["TABLERO_MAX_BODY"] = "100000"
    server = Server(f"sqlite:///{tmp_path / 'big.db'}", tmp_path / "serve.log", env=env)
    try:
        for size, code in ((90_000, "request/malformed"), (110_000, "request/too_large")):  # read, then refused
            with connect(f"ws://127.0.0.1:{server.port}/ws/nope", open_timeout=TIMEOUT) as ws:
                ws.send(json.dumps({"type": "hello", "tokens": ["x" * size]}))
                answer = json.loads(ws.recv(timeout=TIMEOUT))
                assert answer["type"] == "error" and answer["code"] == code, answer
    finally:
        server.stop()


# ---------------------------------------------------------------------- WebSocket frames
def _table(c: TestClient) -> tuple[dict[str, Any], Any]:
    g = create(c, "don-carlo", TWO)
    return g, c.websocket_connect(f"/ws/{g['id']}")


def _still_open(ws: Any) -> None:
    ws.send_text(json.dumps({"type": "ping"}))
    while (m := recv(ws))["type"] != "pong":
        assert m["type"] in ("update", "error"), m


def test_a_binary_frame_is_answered_and_the_connection_stays_open(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        g, conn = _table(c)
        with conn as ws:
            ws.send_bytes(b'{"type": "hello", "tokens": []}')
            m = recv(ws)
            assert m["type"] == "error" and m["code"] == "request/malformed" and "binary" in m["message"]
            m = hello(ws, [g["tokens"]["0"]])  # the hello still works after it
            assert m["type"] == "update" and m["viewer"] == 0
            version = m["version"]
            ws.send_bytes(b"\x00\x01\x02")
            m = recv(ws)
            assert m["type"] == "error" and "binary" in m["message"]
            _still_open(ws)
        assert service(c).get(g["id"]).version == version


@pytest.mark.parametrize("raw", [
    "[" * DEEP + "]" * DEEP,
    '{"type": "act", "seat": 0, "version": 1' + "0" * 5_000 + ', "action": "x"}',
    '{"type": "act", "seat": 0, "version": NaN, "action": "x"}',
    '{"type": "act", "seat": 0, "version": 0, "action": ' + "[" * DEEP + "]" * DEEP + "}",
    '{"type": "act", "seat": 1e400, "version": 0, "action": "x"}',
    '{"type": "chat", "seat": 0, "text": ' + '{"a": ' * 2_000 + "1" + "}" * 2_000 + "}",
])
def test_a_frame_that_does_not_parse_is_an_error_and_changes_nothing(sqlite_url: str, raw: str) -> None:
    with client(sqlite_url) as c:
        _, conn = _table(c)
        with conn as ws:
            ws.send_text(raw)  # as the hello
            m = recv(ws)
            assert m["type"] == "error" and m["code"] == "request/malformed", m
        g2, conn = _table(c)
        with conn as ws:
            version = hello(ws, [g2["tokens"]["0"]])["version"]
            ws.send_text(raw)
            m = recv(ws)
            assert m["type"] == "error" and m["code"] == "request/malformed", m
            _still_open(ws)
        assert service(c).get(g2["id"]).version == version


@pytest.mark.parametrize("msg", [
    {"type": "act", "seat": 0, "version": 0, "action": ["pass"]},
    {"type": "act", "seat": "0", "version": 0, "action": "x"},
    {"type": "act", "seat": 0, "version": 2**70, "action": "x"},
    {"type": "review", "seat": [0]},
    {"type": "replace", "seat": 1, "bot": {"name": "random"}},
    {"type": "chat_mute", "seat": 1, "muted": "yes"},
    {"type": "hello", "tokens": "abc"},
    {"type": 7},
])
def test_client_messages_of_the_wrong_shape_are_malformed(sqlite_url: str, msg: dict[str, Any]) -> None:
    with client(sqlite_url) as c:
        g, conn = _table(c)
        with conn as ws:
            version = hello(ws, [g["tokens"]["0"]], admin=g["admin"])["version"]
            ws.send_text(json.dumps(msg))
            while (m := recv(ws))["type"] == "update":
                pass
            assert m["type"] == "error" and m["code"] == "request/malformed", m
            _still_open(ws)
        assert service(c).get(g["id"]).version == version
