"""Replay of a finished game: ``tablero/server/replay.py`` and ``GET /api/games/{id}/replay``.

The replay at record entry K must be the table as it stood in play at K, for every seat and the
spectator: the position part of the update (view, legal moves, seats to act, result) and the log
so far. A seat's replay shows what that seat saw and nothing else: rebuilt from a re-dealt
position (``Game.determinize`` of the seat's view then), the replay's position part is the same.
While the game runs the replay is refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from random import Random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tablero.core.match import Match
from tablero.core.messages import Translator
from tablero.registry import get_game
from tablero.server.app import create_app
from tablero.server.i18n import WEB_CATALOGUE
from tablero.server.payload import log_lines, position_payload
from tablero.server.replay import STRIDE, Replays

from .conftest import FakeClock, hello, recv

CASES = [
    ("el-grande", 3, {"short_game": True}),
    ("don-carlo", 3, {}),
    ("mafia-legend", 3, {"variant": "beginner"}),
]
EVERY = {"el-grande": 9, "don-carlo": 4, "mafia-legend": 37}
"""Entries between the positions compared (and every take-back): some 20-30 points per game."""

Seen = dict[int | None, tuple[dict[str, Any], list[dict[str, Any]], Any]]


@dataclass
class Played:
    match: Match[Any, Any, Any]
    tr: Translator
    seen: dict[int, Seen]
    """At some rests: each viewer's position part, log and view as the live match gave them."""
    rests: list[int]
    """Every position where the live table waited for a seat, the start and the end."""


def _play(gid: str, n: int, opts: dict[str, Any], seed: int) -> Played:
    """A random game with take-backs; at rests of the live table (after a move or a take-back)
    each viewer's position part, log and view as the live match gave them then."""
    game = get_game(gid)
    players = ["Ann", "Bea", "Cid", "Dan"][:n]
    m: Match[Any, Any, Any] = Match(game, players, options=opts, seed=seed, undo=True)
    tr = Translator("en", [game.catalogue(), WEB_CATALOGUE], players)
    rng = Random(seed)
    seen: dict[int, Seen] = {}
    viewers: list[int | None] = [None, *range(n)]
    logs: dict[int | None, list[dict[str, Any]]] = {v: [] for v in viewers}
    told = 0  # the live log grows only: the lines of entries from `told` on are the new ones
    rests = {0, len(m.record.entries)}
    while not m.is_over():
        seat = m.pending()[0]
        if m.can_undo(seat) and rng.random() < 0.2:
            m.undo(seat)
        else:
            m.act(seat, rng.choice(list(m.legal(seat))))
        k = len(m.record.entries)
        rests.add(k)
        if k // EVERY[gid] > max(seen, default=0) // EVERY[gid] or m.is_over() or m.record.entries[-1][1] == "undo":
            for v in viewers:
                logs[v] = logs[v] + log_lines(m, v, told, tr)
            told = k
            seen[k] = {v: (position_payload(m, v, tr), logs[v], m.view(v) if v is not None else None)
                       for v in viewers}
    return Played(m, tr, seen, sorted(rests))


@pytest.mark.parametrize(("gid", "n", "opts"), CASES)
def test_the_replay_at_k_is_the_live_table_at_k(gid: str, n: int, opts: dict[str, Any]) -> None:
    played = _play(gid, n, opts, seed=4)
    m, tr, seen = played.match, played.tr, played.seen
    replays = Replays()
    for j, (k, per) in enumerate(seen.items()):
        for viewer, (position, log, _view) in per.items():
            got = replays.payload("t1", m, viewer, k, tr)
            assert got["at"] == k and got["total"] == len(m.record.entries) and got["viewer"] == viewer
            assert {key: got[key] for key in position} == position, (k, viewer)
            assert got["log"] == log, (k, viewer)
            if j % 4 == 0:  # a client that has the lines up to `since` asks for the rest only
                half = k // 2
                rest = replays.payload("t1", m, viewer, k, tr, since=half)["log"]
                assert rest == [x for x in log if x["i"] >= half]
    book = replays.books["t1"]
    assert len(book.marks) >= len(m.record.entries) // STRIDE  # positions were rebuilt from kept states
    if gid == "el-grande":  # take-backs were replayed (the others rarely allow one)
        assert any(text == "undo" for _, text in m.record.entries)
    # The end: the final result, the whole log, the round or month lines as sections.
    end = replays.payload("t1", m, 0, None, tr)
    assert end["at"] == end["total"] and end["result"] == m.result().to_json()  # type: ignore[union-attr]
    assert end["steps"] == played.rests  # a step goes from one rest of the live table to the next
    assert len(end["sections"]) > 1
    assert all(line.get("section") for line in end["log"] if {"at": line["i"] + 1, "text": line["text"]}
               in end["sections"])


@pytest.mark.parametrize(("gid", "n", "opts"), CASES)
def test_a_seats_replay_shows_only_what_that_seat_saw(gid: str, n: int, opts: dict[str, Any]) -> None:
    """Compared as views: the replay of seat v at K is what a match started from a position
    re-dealt from v's view at K gives; the spectator's is the same under any seat's re-deal."""
    played = _play(gid, n, opts, seed=7)
    m, tr, seen = played.match, played.tr, played.seen
    game = m.game
    replays = Replays()
    rng = Random(3)
    differs = False
    points = list(seen.items())
    for k, per in points[::max(1, len(points) // 8)]:  # some 8 positions along the game
        for seat in range(n):
            view = per[seat][2]
            redealt = game.determinize(view, seat, rng)
            twin = Match.from_state(game, redealt, m.record.players, options=m.options, seed=0)
            for viewer in (seat, None):
                got = replays.payload("t2", m, viewer, k, tr)
                again = position_payload(twin, viewer, tr)
                assert {key: got[key] for key in again} == again, (k, viewer, seat)
        views = [replays.payload("t2", m, v, k, tr)["view"] for v in range(n)]
        differs = differs or any(views[0].get("private") != x.get("private") for x in views[1:])
        assert replays.payload("t2", m, None, k, tr)["view"].get("private") is None
    assert differs  # the seats' tables do differ: each replay is its own seat's


def _client(url: str) -> TestClient:
    return TestClient(create_app(url, bot_delay=0, clock=FakeClock(), tick_seconds=0.02))


def test_the_replay_route_opens_when_the_game_is_over(sqlite_url: str) -> None:
    with _client(sqlite_url) as c:
        r = c.post("/api/games", json={"game": "don-carlo", "seats": [{"kind": "you", "name": "Ann"},
                                                                      {"kind": "bot", "bot": "greedy"}]})
        g = r.json()
        running = c.get(f"/api/games/{g['id']}/replay?seat=0&at=3")
        assert running.status_code == 409 and running.json()["error"]["code"] == "game/not_over"
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = hello(ws, [g["tokens"]["0"]])
            while m.get("result") is None:
                if m["type"] == "update" and 0 in m["pending"] and m["legal"]:
                    ws.send_text(json.dumps({"type": "act", "seat": 0, "version": m["version"],
                                             "action": m["legal"][0]["text"]}))
                m = recv(ws)
        end = c.get(f"/api/games/{g['id']}/replay?seat=0").json()
        assert end["type"] == "replay" and end["at"] == end["total"] == m["version"]
        assert (end["viewer"], end["view"], end["result"]) == (0, m["view"], m["result"])
        assert end["seats"][0]["name"] == "Ann"
        k = end["steps"][len(end["steps"]) // 2]
        mid = c.get(f"/api/games/{g['id']}/replay?seat=spectator&at={k}&lang=de").json()
        assert mid["at"] == k and mid["viewer"] is None and mid["lang"] == "de" and mid["result"] is None
        assert all(line["i"] < k for line in mid["log"]) and mid["log"]
        assert c.get(f"/api/games/{g['id']}/replay?at=99999").json()["at"] == end["total"]  # clamped
        assert c.get(f"/api/games/{g['id']}/replay?seat=7").status_code == 400
        assert c.get(f"/api/games/{g['id']}/replay?seat=x").status_code == 400
        assert c.get("/api/games/nope/replay").status_code == 404
