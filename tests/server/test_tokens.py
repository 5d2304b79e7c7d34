"""Seat tokens and take-backs (issue 14, fault 8 and the caps of fault 5).

A person takes back only their own decisions: never a move a bot made for their seat (a seat
handed to a bot, the clock's stand-in). Take-backs are capped per turn and by the record's
length. Seat tokens rotate (on request, and by themselves when old), the old one stops working,
and a token nobody used for long expires. Everything holds across a restart.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from tablero.server.settings import ServerSettings

from .conftest import FakeClock, client, create, hello, recv

DAY = 86_400.0


def until(ws: Any, want: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first message ``want`` accepts (an error on the way fails the test)."""
    while True:
        m = recv(ws)
        assert m["type"] != "error" or want(m), m
        if want(m):
            return m


def update(ws: Any, version: int = 0) -> dict[str, Any]:
    """The next update at ``version`` or later."""
    return until(ws, lambda m: m["type"] == "update" and m["version"] >= version)


def send(ws: Any, **msg: Any) -> None:
    ws.send_text(json.dumps(msg))


def error(ws: Any) -> dict[str, Any]:
    return until(ws, lambda m: m["type"] == "error")


def play(ws: Any, m: dict[str, Any]) -> None:
    """Send the viewer's first legal move (it must be to act)."""
    assert m["legal"], m
    send(ws, type="act", seat=m["viewer"], version=m["version"], action=m["legal"][0]["text"])


def act(ws: Any, m: dict[str, Any]) -> dict[str, Any]:
    """Play the viewer's first legal move; the next update after it."""
    play(ws, m)
    return update(ws, m["version"] + 1)


def undo(ws: Any, m: dict[str, Any]) -> None:
    send(ws, type="undo", seat=m["viewer"], version=m["version"])


def claim(c: TestClient, g: dict[str, Any], seat: int) -> str:
    r = c.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"][str(seat)], "name": "Bea"})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def hot_seat(c: TestClient, **extra: Any) -> dict[str, Any]:
    return create(c, "el-grande", [{"kind": "you"}, {"kind": "local"}], options={"short_game": True}, **extra)


# ---------------------------------------------------------------------------- take-backs
def test_a_seat_handed_to_a_bot_and_reclaimed_cannot_take_back_the_bots_move(db_url: str, clock: FakeClock) -> None:
    with client(db_url, clock) as c:
        g = create(c, "el-grande", [{"kind": "you"}, {"kind": "person"}], options={"short_game": True},
                   away_seconds=60)
        tokens = [g["tokens"]["0"], claim(c, g, 1)]
        with c.websocket_connect(f"/ws/{g['id']}") as host:
            m = hello(host, [], admin=g["admin"])  # the creator watches: both seats are away
            first, version = m["pending"][0], m["version"]
            clock.advance(61)
            send(host, type="replace", seat=first, bot="random")
            m = until(host, lambda m: m["type"] == "update" and m["version"] > version and first not in m["pending"])
            done = m["version"]  # the bot chose the seat's power card; the other seat is to choose
    with client(db_url, clock) as c, c.websocket_connect(f"/ws/{g['id']}") as ws:  # a restart between
        m = hello(ws, [tokens[first]])
        assert m["seats"][first]["replaced"] and m["version"] == done
        send(ws, type="reclaim", seat=first)
        m = until(ws, lambda m: m["type"] == "update" and not m["seats"][first]["replaced"])
        assert m["can_undo"] is False, "the bot's decision is not the person's to take back"
        undo(ws, m)
        err = error(ws)
        assert err["code"] == "action/no_undo" and "bot" in err["message"]
    with client(db_url, clock) as c, c.websocket_connect(f"/ws/{g['id']}") as ws:
        assert hello(ws, [tokens[first]])["version"] == done, "the refused take-back changed nothing"


def test_the_clocks_stand_in_move_cannot_be_taken_back_but_the_persons_own_can(db_url: str, clock: FakeClock) -> None:
    with client(db_url, clock) as c:
        g = hot_seat(c, move_seconds=30)
        with c.websocket_connect(f"/ws/{g['id']}") as a, c.websocket_connect(f"/ws/{g['id']}") as b:
            ws = {0: a, 1: b}
            last = {0: hello(a, [g["tokens"]["0"]]), 1: hello(b, [g["tokens"]["1"]])}

            def sync(version: int) -> int:
                """Both connections' updates up to ``version`` at least; the version they show."""
                for s in (0, 1):
                    last[s] = update(ws[s], version)
                assert last[0]["version"] == last[1]["version"]
                return int(last[0]["version"])

            p = last[0]["pending"][0]
            q = 1 - p
            v = last[p]["version"]  # (a has one more update at v: sync skips it)
            # power cards: the stand-in picks p's when the clock runs out ...
            clock.advance(31)
            v = sync(v + 1)
            assert p not in last[p]["pending"] and last[p]["can_undo"] is False
            undo(ws[p], last[p])
            assert error(ws[p])["code"] == "action/no_undo"
            # ... q picks its own and may take it back
            play(ws[q], last[q])
            v = sync(v + 1)
            assert last[q]["can_undo"] is True
            undo(ws[q], last[q])
            v = sync(v + 1)
            play(ws[q], last[q])
            v = sync(v + 1)
            # the action phase: a seat with several decisions in a row; the stand-in makes the first
            r = last[0]["pending"][0]
            assert not any(x["final"] for x in last[r]["legal"]), "this test needs a first step that can be undone"
            clock.advance(31)
            v = sync(v + 1)
            assert r in last[r]["pending"] and last[r]["can_undo"] is False
            play(ws[r], last[r])  # the person's own decision after the stand-in's
            v = sync(v + 1)
            assert last[r]["can_undo"] is True
            undo(ws[r], last[r])
            v = sync(v + 1)
            assert last[r]["can_undo"] is False, "what is left to take back is the stand-in's"
            undo(ws[r], last[r])
            assert error(ws[r])["code"] == "action/no_undo"
            version = last[r]["version"]
    with client(db_url, clock) as c, c.websocket_connect(f"/ws/{g['id']}") as w:
        m = hello(w, [g["tokens"][str(r)]])
        assert m["version"] == version and m["can_undo"] is False, "the server still knows after a restart"
        undo(w, m)
        assert error(w)["code"] == "action/no_undo"


def test_take_backs_are_capped_per_turn(db_url: str) -> None:
    settings = ServerSettings(max_undos_per_turn=2)
    with client(db_url, settings=settings) as c:
        g = hot_seat(c)
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = hello(ws, [g["tokens"]["0"], g["tokens"]["1"]])
            p = m["pending"][0]
            if m["viewer"] != p:
                m = until(ws, lambda m: m["type"] == "update" and m["viewer"] == p)
            for _ in range(2):
                m = act(ws, m)
                while m["viewer"] != p:
                    m = update(ws, m["version"])
                assert m["can_undo"] is True
                undo(ws, m)
                m = until(ws, lambda x, v=m["version"]: x["type"] == "update" and x["viewer"] == p and x["version"] > v)
            m = act(ws, m)
            while m["viewer"] != p:
                m = update(ws, m["version"])
            assert m["can_undo"] is False, "two take-backs this turn: the cap"
            undo(ws, m)
            err = error(ws)
            assert err["code"] == "action/undo_limit" and "2" in err["message"]
            version = m["version"]
    with client(db_url, settings=settings) as c, c.websocket_connect(f"/ws/{g['id']}") as ws:
        m = hello(ws, [g["tokens"][str(p)]])
        assert m["version"] == version and m["can_undo"] is False
        undo(ws, m)
        assert error(ws)["code"] == "action/undo_limit", "counted from the record: a restart resets nothing"


def test_take_backs_stop_when_the_record_is_full_and_moves_go_on(db_url: str) -> None:
    with client(db_url) as c:
        g = hot_seat(c)
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            start = hello(ws, [])["version"]
    settings = ServerSettings(max_record=start + 3)
    with client(db_url, settings=settings) as c, c.websocket_connect(f"/ws/{g['id']}") as ws:
        m = hello(ws, [g["tokens"]["0"], g["tokens"]["1"]])
        p = m["pending"][0]
        if m["viewer"] != p:
            m = until(ws, lambda m: m["type"] == "update" and m["viewer"] == p)
        m = act(ws, m)  # start + 1
        while m["viewer"] != p:
            m = update(ws, m["version"])
        undo(ws, m)  # start + 2
        m = until(ws, lambda x: x["type"] == "update" and x["viewer"] == p and x["version"] == start + 2)
        m = act(ws, m)  # start + 3: the cap
        while m["viewer"] != p:
            m = update(ws, m["version"])
        assert m["version"] >= start + 3 and m["can_undo"] is False
        undo(ws, m)
        err = error(ws)
        assert err["code"] == "action/record_full"
        q = 1 - p
    with client(db_url, settings=settings) as c, c.websocket_connect(f"/ws/{g['id']}") as ws:
        m = hello(ws, [g["tokens"][str(q)]])
        assert q in m["pending"]
        after = act(ws, m)
        assert after["version"] > m["version"], "moves stay allowed at the cap"


# ---------------------------------------------------------------------------- tokens
def test_a_rotated_token_replaces_the_old_one_and_its_other_connections_are_told(db_url: str,
                                                                                  clock: FakeClock) -> None:
    with client(db_url, clock) as c:
        g = hot_seat(c)
        old = g["tokens"]["0"]
        with c.websocket_connect(f"/ws/{g['id']}") as a, c.websocket_connect(f"/ws/{g['id']}") as b:
            assert hello(a, [old])["viewer"] == 0
            assert hello(b, [old])["viewer"] == 0
            send(a, type="rotate", seat=0)
            told = until(a, lambda m: m["type"] == "token")
            new = told["token"]
            assert told["seat"] == 0 and told["old"] == old and new != old
            assert until(b, lambda m: m["type"] == "revoked") == {"type": "revoked", "seats": [0]}
            assert update(b)["viewer"] is None, "the other connection watches now"
            send(a, type="rotate", seat=1)
            assert error(a)["code"] == "auth/token", "only a seat the connection holds"
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert hello(ws, [old]) == {"type": "revoked", "tokens": [old], "seats": []}
            assert update(ws)["viewer"] is None
    with client(db_url, clock) as c:
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert hello(ws, [new])["viewer"] == 0, "the new token holds the seat after a restart"
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert hello(ws, [old])["type"] == "revoked"


def test_an_old_token_is_rotated_at_hello_with_a_short_grace(db_url: str, clock: FakeClock) -> None:
    settings = ServerSettings(token_rotate_days=7, token_grace_seconds=300)
    with client(db_url, clock, settings=settings) as c:
        g = hot_seat(c)
        t0 = g["tokens"]["0"]
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert hello(ws, [t0])["viewer"] == 0, "a young token is kept"
    clock.advance(8 * DAY)
    with client(db_url, clock, settings=settings) as c:
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            told = hello(ws, [t0])
            assert told["type"] == "token" and told["seat"] == 0 and told["old"] == t0
            t1 = told["token"]
            assert update(ws)["viewer"] == 0
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert hello(ws, [t1])["viewer"] == 0, "the new token works and is not rotated again"
        with c.websocket_connect(f"/ws/{g['id']}") as ws:  # a device holding both drops the old quietly
            told = hello(ws, [t1, t0])
            assert told == {"type": "token", "seat": 0, "token": t1, "old": t0}
            assert update(ws)["viewer"] == 0
        clock.advance(60)
        with c.websocket_connect(f"/ws/{g['id']}") as ws:  # another tab, or the reply was lost: within the grace
            told = hello(ws, [t0])
            assert told["type"] == "token" and told["old"] == t0
            t2 = told["token"]
            assert t2 not in (t0, t1) and update(ws)["viewer"] == 0
    clock.advance(300)
    with client(db_url, clock, settings=settings) as c:
        for dead in (t0, t1):
            with c.websocket_connect(f"/ws/{g['id']}") as ws:
                assert hello(ws, [dead]) == {"type": "revoked", "tokens": [dead], "seats": []}
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert hello(ws, [t2])["viewer"] == 0


def test_a_token_nobody_used_for_long_expires(db_url: str, clock: FakeClock) -> None:
    settings = ServerSettings(token_idle_days=30, token_rotate_days=0)
    with client(db_url, clock, settings=settings) as c:
        g = create(c, "el-grande", [{"kind": "you"}, {"kind": "person"}], options={"short_game": True})
        t0, t1 = g["tokens"]["0"], claim(c, g, 1)
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert hello(ws, [t0])["viewer"] == 0
    for _ in range(2):  # used every 20 days: it keeps working, across restarts
        clock.advance(20 * DAY)
        with client(db_url, clock, settings=settings) as c, c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert hello(ws, [t0])["viewer"] == 0
    # seat 1 was claimed 40 days ago and never used since
    with client(db_url, clock, settings=settings) as c:
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert hello(ws, [t1]) == {"type": "revoked", "tokens": [t1], "seats": []}
            m = update(ws)
            assert m["viewer"] is None and m["seats"][1]["connected"] is False
        r = c.post(f"/api/games/{g['id']}/invite", json={"admin": g["admin"], "seat": 1})
        assert r.status_code == 200, r.text
        again = c.post(f"/api/games/{g['id']}/claim", json={"invite": r.json()["invite"]}).json()["token"]
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert hello(ws, [again])["viewer"] == 1, "the creator invited anew"
