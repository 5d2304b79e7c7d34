"""Chat per table over the WebSocket, on SQLite and PostgreSQL: stored, limited, muted, as written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tablero.server.chat import HISTORY, MAX_CHARS, RATE_COUNT, RATE_SECONDS, clean, mode_of

from .conftest import FakeClock, client, hello, until
from .conftest import create as create_game

TWO = [{"kind": "you", "name": "Ana"}, {"kind": "local", "name": "Bea"}]
"""Two seats with tokens on the creating device: two connections, one seat each (no claims)."""


def create(c: TestClient, **extra: Any) -> dict[str, Any]:
    return create_game(c, "don-carlo", TWO, **extra)


def say(ws: Any, text: str, seat: int | None, **extra: Any) -> None:
    ws.send_text(json.dumps({"type": "chat", "seat": seat, "text": text, **extra}))


def history(ws: Any) -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "chat_history"}))
    return until(ws, "chat_history")


def texts(h: dict[str, Any]) -> list[str]:
    return [x["text"] for x in h["messages"]]


def test_messages_reach_everyone_and_come_back_after_a_restart(db_url: str) -> None:
    with client(db_url) as c:
        g = create(c)
        with c.websocket_connect(f"/ws/{g['id']}") as a, c.websocket_connect(f"/ws/{g['id']}") as b:
            hello(a, [g["tokens"]["0"]])
            hello(b, [g["tokens"]["1"]])
            assert history(a) == {"type": "chat_history", "mode": "players", "muted": [], "max_chars": MAX_CHARS,
                                  "messages": []}
            say(a, "hola", 0)
            got = until(b, "chat")
            assert (got["seat"], got["name"], got["text"], got["i"]) == (0, "Ana", "hola", 0)
            assert until(a, "chat") == got  # the writer gets its own line back like everyone
            say(b, "buenas", 1)
            assert until(a, "chat")["text"] == "buenas"
    with client(db_url) as c, c.websocket_connect(f"/ws/{g['id']}") as ws:
        hello(ws, [g["tokens"]["1"]])
        h = history(ws)
        assert [(x["i"], x["seat"], x["name"], x["text"]) for x in h["messages"]] == [
            (0, 0, "Ana", "hola"), (1, 1, "Bea", "buenas")]


def test_history_sends_the_newest_messages(sqlite_url: str, clock: FakeClock) -> None:
    with client(sqlite_url, clock) as c:
        g = create(c)
        with c.websocket_connect(f"/ws/{g['id']}") as a:
            hello(a, [g["tokens"]["0"]])
            for i in range(HISTORY + 3):
                clock.advance(RATE_SECONDS)
                say(a, f"m{i}", 0)
                until(a, "chat")
            h = history(a)
            assert len(h["messages"]) == HISTORY
            assert texts(h)[0] == "m3" and texts(h)[-1] == f"m{HISTORY + 2}"


@pytest.mark.parametrize("mode", ["players", "all", "off"])
def test_spectators_read_and_write_as_the_creator_chose(sqlite_url: str, mode: str) -> None:
    with client(sqlite_url) as c:
        g = create(c, chat=mode)
        with c.websocket_connect(f"/ws/{g['id']}") as a, c.websocket_connect(f"/ws/{g['id']}") as spec:
            hello(a, [g["tokens"]["0"]])
            hello(spec, [])
            say(a, "from a player", 0)
            if mode == "off":
                assert until(a, "error")["code"] == "chat/off"
            else:
                assert until(spec, "chat")["text"] == "from a player"  # spectators read in both modes
                assert until(a, "chat")["text"] == "from a player"
            say(spec, "from a spectator", None, name="Carla")
            if mode == "all":
                line = until(a, "chat")
                assert (line["seat"], line["name"], line["text"]) == (None, "Carla", "from a spectator")
                assert until(spec, "chat") == line
            else:
                err = until(spec, "error")
                assert err["code"] == ("chat/forbidden" if mode == "players" else "chat/off")
            h = history(spec)
            assert h["mode"] == mode
            assert texts(h) == {"players": ["from a player"], "all": ["from a player", "from a spectator"],
                                "off": []}[mode]


def test_bad_settings_and_seats_are_refused(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        r = c.post("/api/games", json={"game": "don-carlo", "seats": TWO, "chat": "everybody"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "game/bad_option"
        g = create(c)
        with c.websocket_connect(f"/ws/{g['id']}") as a:
            hello(a, [g["tokens"]["0"]])
            say(a, "as Bea", 1)
            assert until(a, "error")["code"] == "auth/token"
            say(a, "as nobody", None)
            assert until(a, "error")["code"] == "request/malformed"  # a player writes as its seat
            a.send_text(json.dumps({"type": "chat", "seat": 0, "text": 42}))
            assert until(a, "error")["code"] == "request/malformed"
            assert texts(history(a)) == []


def test_limits_give_clear_errors_and_store_nothing(db_url: str, clock: FakeClock) -> None:
    with client(db_url, clock) as c:
        g = create(c)
        with c.websocket_connect(f"/ws/{g['id']}") as a:
            hello(a, [g["tokens"]["0"]])
            say(a, "x" * (MAX_CHARS + 1), 0)
            err = until(a, "error")
            assert err["code"] == "chat/too_long" and str(MAX_CHARS) in err["message"]
            say(a, " \n\t\x00\u202e ", 0)
            assert until(a, "error")["code"] == "chat/empty"
            say(a, "x" * MAX_CHARS, 0)
            assert len(until(a, "chat")["text"]) == MAX_CHARS
            for i in range(RATE_COUNT - 1):
                clock.advance(1)
                say(a, f"quick {i}", 0)
                until(a, "chat")
            say(a, "one too many", 0)
            err = until(a, "error")
            assert err["code"] == "chat/too_fast" and f"{RATE_COUNT} messages" in err["message"]
            clock.advance(RATE_SECONDS)  # the window has moved on
            say(a, "calm again", 0)
            assert until(a, "chat")["text"] == "calm again"
            assert texts(history(a)) == ["x" * MAX_CHARS, *(f"quick {i}" for i in range(RATE_COUNT - 1)),
                                         "calm again"]


def test_control_characters_are_removed_and_markup_is_kept_as_written(sqlite_url: str) -> None:
    assert clean("a\x00b\u202ec\nd\te\u200b ") == "abc d e"
    assert clean("👩\u200d👩\u200d👧") == "👩\u200d👩\u200d👧"  # the joiner holds the emoji together
    with client(sqlite_url) as c:
        g = create(c)
        with c.websocket_connect(f"/ws/{g['id']}") as a:
            hello(a, [g["tokens"]["0"]])
            markup = '<b>html</b> & "quotes" <script>alert(1)</script>'
            say(a, markup, 0)
            # The server neither escapes nor strips markup: the client shows the text as text.
            assert until(a, "chat")["text"] == markup
            say(a, "line\x07one\r\nline two", 0)
            assert until(a, "chat")["text"] == "lineone  line two"
            assert texts(history(a)) == [markup, "lineone  line two"]


def test_the_creator_mutes_a_seat_for_the_table(db_url: str) -> None:
    with client(db_url) as c:
        g = create(c, chat="all")
        with c.websocket_connect(f"/ws/{g['id']}") as a, c.websocket_connect(f"/ws/{g['id']}") as b:
            hello(a, [g["tokens"]["0"]], admin=g["admin"])
            hello(b, [g["tokens"]["1"]])
            b.send_text(json.dumps({"type": "chat_mute", "seat": 0, "muted": True}))
            assert until(b, "error")["code"] == "auth/token"  # only the creator
            a.send_text(json.dumps({"type": "chat_mute", "seat": 1, "muted": True}))
            assert until(b, "chat_state") == {"type": "chat_state", "mode": "all", "muted": [1]}
            say(b, "let me speak", 1)
            assert until(b, "error")["code"] == "chat/muted"
            a.send_text(json.dumps({"type": "chat_mute", "seat": None, "muted": True}))
            assert until(a, "chat_state")["muted"] == [1]  # the state a's own mute of seat 1 sent
            assert until(a, "chat_state")["muted"] == [None, 1]
            a.send_text(json.dumps({"type": "chat_mute", "seat": 7, "muted": True}))
            assert until(a, "error")["code"] == "request/malformed"
    with client(db_url) as c:  # the mute is the table's: it survives a restart
        with c.websocket_connect(f"/ws/{g['id']}") as b, c.websocket_connect(f"/ws/{g['id']}") as spec:
            hello(b, [g["tokens"]["1"]])
            hello(spec, [])
            assert history(b)["muted"] == [None, 1]
            say(b, "still muted?", 1)
            assert until(b, "error")["code"] == "chat/muted"
            say(spec, "and me?", None)
            assert until(spec, "error")["code"] == "chat/muted"
        with c.websocket_connect(f"/ws/{g['id']}") as a, c.websocket_connect(f"/ws/{g['id']}") as b:
            hello(a, [g["tokens"]["0"]], admin=g["admin"])
            hello(b, [g["tokens"]["1"]])
            a.send_text(json.dumps({"type": "chat_mute", "seat": 1, "muted": False}))
            assert until(b, "chat_state")["muted"] == [None]
            assert until(a, "chat_state")["muted"] == [None]
            say(b, "thanks", 1)
            assert until(a, "chat")["text"] == "thanks"
            assert texts(history(a)) == ["thanks"]


def test_the_setting_is_stored_with_the_table_and_defaults_to_players(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        g = create(c, chat="off")
        service = c.app.state.service  # type: ignore[attr-defined]
        assert mode_of(service.get(g["id"]).stored) == "off"
        assert mode_of(service.get(create(c)["id"]).stored) == "players"  # the default
