"""Clocks and absences: when a bot moves for a person, every log says so (a table note).

The notes ``web.timeout`` / ``web.absent`` are public log lines that are no record entries,
like the hint notes; they come before the lines of the move the bot makes and survive a
restart. The clock is the test's own (``FakeClock``): no test waits for real time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from tablero.server.app import create_app

from .conftest import FakeClock, hello, recv


@contextmanager
def client(url: str, clock: FakeClock) -> Iterator[TestClient]:
    app = create_app(url, bot_delay=0, clock=clock, tick_seconds=0.02)
    with TestClient(app) as c:
        yield c


def create(c: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = c.post("/api/games", json={"game": "el-grande", "options": {"short_game": True}, "seats": seats, **extra})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def notes(m: dict[str, Any]) -> list[dict[str, Any]]:
    return [line for line in m["log"] if line.get("note")]


def until_note(ws: Any, m: dict[str, Any], log: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Read updates (collecting their log lines) until one brings a table note."""
    log.extend(m["log"])
    while not notes(m):
        m = recv(ws)
        if m["type"] == "update":
            log.extend(m["log"])
    return m, notes(m)[0]


def test_a_run_out_clock_puts_a_public_line_in_every_log_before_the_stand_ins_move(sqlite_url: str) -> None:
    clock = FakeClock()
    with client(sqlite_url, clock) as c:
        g = create(c, [{"kind": "you", "name": "Ana"}, {"kind": "person", "name": "Bea"}], move_seconds=30)
        bea = c.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"]["1"]}).json()["token"]
        with c.websocket_connect(f"/ws/{g['id']}") as ana, c.websocket_connect(f"/ws/{g['id']}") as other, \
                c.websocket_connect(f"/ws/{g['id']}") as watcher:
            m = hello(ana, [g["tokens"]["0"]])
            hello(other, [bea], lang="de")
            w = hello(watcher, [])
            first = m["pending"][0]
            assert str(first) in m["clocks"] and m["clocks"][str(first)] == 30.0
            assert not notes(m)
            version = m["version"]
            clock.advance(31)
            seen: list[dict[str, Any]] = []
            w, note = until_note(watcher, w, seen)
            name = ["Ana", "Bea"][first]
            assert note["note"] == "timeout"
            assert note["text"] == f"Time ran out for {name}; the bot moves for {name}"
            assert note["msg"] == {"id": "web.timeout", "params": {"seat": first}}
            assert note["i"] < w["version"], "a note is no record entry"
            after = seen[seen.index(note) + 1:]
            assert after and after[0]["i"] >= version, "the note comes before the lines of the bot's move"
            d: list[dict[str, Any]] = []
            _, de = until_note(other, recv(other), d)
            assert de["text"] == f"Die Zeit für {name} ist abgelaufen; ein Bot zieht für {name}"
    with client(sqlite_url, clock) as c, c.websocket_connect(f"/ws/{g['id']}") as ws:
        again = hello(ws, [])
        assert [n["text"] for n in notes(again)][:1] == [note["text"]], "notes survive a restart"


def test_a_seat_handed_to_a_bot_is_announced_as_away(sqlite_url: str) -> None:
    clock = FakeClock()
    with client(sqlite_url, clock) as c:
        g = create(c, [{"kind": "you", "name": "Ana"}, {"kind": "person", "name": "Bea"}], away_seconds=60)
        with c.websocket_connect(f"/ws/{g['id']}") as host:
            m = hello(host, [g["tokens"]["0"]], admin=g["admin"])
            clock.advance(61)
            host.send_text('{"type": "replace", "seat": 1, "bot": "random"}')
            seen: list[dict[str, Any]] = []
            m, note = until_note(host, recv(host), seen)
            assert note["note"] == "absent" and note["msg"]["params"] == {"seat": 1}
            assert note["text"] == "Bea is away; a bot moves for Bea"
            assert m["seats"][1]["replaced"]


def test_a_clock_running_out_while_the_player_is_gone_says_away(sqlite_url: str) -> None:
    clock = FakeClock()
    with client(sqlite_url, clock) as c:
        g = create(c, [{"kind": "you", "name": "Ana"}, {"kind": "local", "name": "Bea"}], move_seconds=20)
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            first = hello(ws, [g["tokens"]["0"], g["tokens"]["1"]])["pending"][0]
        with c.websocket_connect(f"/ws/{g['id']}") as watcher:
            w = hello(watcher, [])
            clock.advance(21)
            seen: list[dict[str, Any]] = []
            _, note = until_note(watcher, w, seen)
            name = ["Ana", "Bea"][first]
            assert note["note"] == "absent" and note["text"] == f"{name} is away; a bot moves for {name}"
