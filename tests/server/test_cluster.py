"""Several ``tablero serve`` processes on one PostgreSQL database (tablero.server.cluster).

Each test runs real server subprocesses on one database and plays over the WebSocket like a
browser would, with its connections spread over the processes:

* a player on process A and a spectator on process B: the spectator sees every move;
* one seat on A and the other on B: every move is saved, on a table whose last change came from
  the other process (a move on a stale copy is refused as stale once, then made again);
* the bots of a table run in one process only, while the other one has the table open too;
* ``kill -9`` of the process that runs busy bot tables: the other one takes them over, and every
  move a player was told of (an update after it) is in the store.
* a seat connected to one process is connected on the other (its creator cannot hand it to a
  bot), until the player goes or the process is killed.

No timing assertions: the timeouts only keep a broken server from hanging the suite.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tablero.core.errors import ErrorCode
from tablero.core.match import replay
from tablero.core.record import GameRecord
from tablero.registry import GAMES
from tablero.server.backup import backup, restore
from tablero.server.service import GameService
from tablero.server.settings import ServerSettings
from tablero.server.store import Store

from .conftest import client, create, hello, pg_database, recv
from .test_crash import HOT_SEAT, TIMEOUT, Server, Servers, Table, _free_port, get_json
from .test_crash import create as create_game
from .test_ops import other_database

SWEEP = "0.3"
"""``TABLERO_CLUSTER_SWEEP_SECONDS`` of the test servers: a dead process's tables are taken soon."""

BOTS_ONLY: dict[str, Any] = {
    "game": "el-grande",
    "options": {"short_game": True},
    "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
}
WITH_BOTS: dict[str, Any] = {
    "game": "el-grande",
    "options": {"short_game": True},
    "seats": [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
}


class Node(Server):
    """One ``tablero serve`` subprocess on the shared database; output to a file (a crash test's
    server, started with a bot delay and a short sweep, and no other TABLERO_ settings)."""

    def __init__(self, url: str, log: Path, bot_delay: float) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TABLERO_")}
        env["TABLERO_CLUSTER_SWEEP_SECONDS"] = SWEEP
        super().__init__(url, log, bot_delay=bot_delay, env=env)

    get = get_json
    create = create_game

    def bot_moves(self) -> float:
        """The process's count of bot moves (``/metrics``)."""
        r = httpx.get(self.http + "/metrics", timeout=TIMEOUT, trust_env=False)
        m = re.search(r'^tablero_moves_total\{by="bot"\} (\S+)$', r.text, re.M)
        return float(m.group(1)) if m else 0.0


class Cluster(Servers):
    """Starts :class:`Node` s on one database (the crash tests' :class:`Servers`)."""

    def start(self, bot_delay: float = 0.0) -> Node:  # type: ignore[override]
        node = Node(self.url, self.tmp / f"node-{len(self.started)}.log", bot_delay)
        self.started.append(node)
        return node


@pytest.fixture
def pg() -> str:
    return pg_database()


@pytest.fixture
def cluster(pg: str, tmp_path: Path) -> Iterator[Cluster]:
    c = Cluster(pg, tmp_path)
    try:
        yield c
    finally:
        c.close()


def stored_entries(url: str, game_id: str) -> list[tuple[int, str]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("select actor, text from entries where game_id = :g order by idx"),
                                {"g": game_id}).all()
    finally:
        engine.dispose()
    return [(int(a), str(t)) for a, t in rows]


def check_record(node: Node, game_id: str, final: dict[str, Any]) -> GameRecord:
    """The stored record replays to the result the players were shown; no attention mark."""
    record = GameRecord.from_json(node.get(f"/api/games/{game_id}/record"))
    game = GAMES[record.game]
    result = game.result(replay(game, record))
    assert result is not None
    assert result.to_json() == final["result"] == record.result
    assert len(record.entries) == final["version"]
    listed = {g["id"]: g for g in node.get("/api/games")["games"]}
    assert listed[game_id]["status"] == "over" and not listed[game_id].get("attention")
    return record


def table_part(m: dict[str, Any]) -> dict[str, Any]:
    """What every process shows alike (presence, a process's own, left out)."""
    return {k: m[k] for k in ("version", "pending", "view", "result", "legal")}


def until_version(t: Table, version: int) -> dict[str, Any]:
    while True:
        m = t.update()
        if m["version"] >= version:
            return m


# ---------------------------------------------------------------------------- the tests
def test_a_spectator_on_another_process_sees_every_move(cluster: Cluster) -> None:
    a, b = cluster.start(), cluster.start()
    g = a.create(HOT_SEAT)
    tokens = [g["tokens"]["0"], g["tokens"]["1"]]
    rng = Random(5)
    with Table(a, g["id"], tokens) as player, Table(b, g["id"], []) as spectator:
        m = player.first
        while True:
            if player.can_move(m):
                if player.moves == 16:
                    break  # the table as it stands: only we change it (no bots)
                player.act(m, rng)
            m = player.update()
        seen = until_version(spectator, m["version"])
        assert seen["version"] == m["version"]
        with Table(a, g["id"], []) as fresh:  # a spectator of the process where the moves were made
            assert table_part(seen) == table_part(fresh.first)
            assert spectator.full_log(None) == fresh.full_log(None), "every move's lines, once each, in order"
        final = player.play(m, rng)
        assert until_version(spectator, final["version"])["result"] == final["result"]
    check_record(b, g["id"], final)


def test_seats_on_two_processes_play_a_game_to_its_end(cluster: Cluster) -> None:
    """Seat 0 plays on process A, seat 1 on B: each move is made on a table the other process
    changed last. A move made on a copy that was not yet told is refused as stale and made
    again; nothing else is refused."""
    a, b = cluster.start(), cluster.start()
    g = a.create(HOT_SEAT)
    finals: dict[int, dict[str, Any]] = {}
    errors: list[BaseException] = []

    def play(node: Any, seat: int) -> None:
        try:
            with Table(node, g["id"], [g["tokens"][str(seat)]]) as t:
                finals[seat] = t.play(t.first, Random(seat))  # refusals other than stale fail in Table
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(node, seat)) for seat, node in ((0, a), (1, b))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(TIMEOUT * 4)
    assert not errors, errors
    assert finals[0]["version"] == finals[1]["version"]
    assert finals[0]["result"] == finals[1]["result"]
    record = check_record(a, g["id"], finals[0])
    assert stored_entries(cluster.url, g["id"]) == [tuple(e) for e in record.entries]


def test_the_bots_of_a_table_run_in_one_process_only(cluster: Cluster) -> None:
    """The table is open in both processes (a spectator on each) while its bots play: they play
    in the process that created it, and the record has each of their moves once."""
    a = cluster.start(bot_delay=0.02)
    b = cluster.start(bot_delay=0.02)
    g = a.create(BOTS_ONLY)
    with Table(b, g["id"], []) as on_b, Table(a, g["id"], []) as on_a:
        final = on_b.update() if on_b.first["result"] is None else on_b.first
        while final["result"] is None:
            final = on_b.update()
        assert until_version(on_a, final["version"])["result"] == final["result"]
        assert on_a.full_log(None)[-1] == on_b.full_log(None)[-1]
    record = check_record(b, g["id"], final)
    decisions = sum(1 for actor, _ in record.entries if actor >= 0)  # the bots' and the forced ones
    assert b.bot_moves() == 0, "the process that did not create the table made no bot move"
    assert 0 < a.bot_moves() <= decisions


def test_kill_9_of_the_process_running_bot_tables_loses_no_acknowledged_move(cluster: Cluster) -> None:
    """Process A runs the bots of several tables (a person plays one of them on A; the others
    have bots only, watched from B). A is killed mid-game: B takes every table over, each game
    plays to its end, and every move the person was told of is in the record, as made."""
    a = cluster.start(bot_delay=0.05)
    b = cluster.start(bot_delay=0.05)
    bot_games = [a.create(BOTS_ONLY)["id"] for _ in range(3)]
    g = a.create(WITH_BOTS)
    token = g["tokens"]["0"]
    rng = Random(9)
    acknowledged: dict[int, tuple[int, str]] = {}
    watchers = [Table(b, gid, []) for gid in bot_games]
    try:
        seen_before = {}
        with Table(a, g["id"], [token]) as t:
            m = t.first
            while len(acknowledged) < 6:
                if t.can_move(m):
                    version, sent = m["version"], t.act(m, rng)
                    if acknowledge(t, version):
                        acknowledged[version] = (0, sent)
                m = t.update()
            for w, gid in zip(watchers, bot_games, strict=True):
                seen_before[gid] = w.sync() or w.first
            a.kill9()
            with pytest.raises(ConnectionClosed):
                while True:
                    t.update()
        with Table(b, g["id"], [token]) as t:  # the person's device opens the table on B
            final = t.play(t.first, rng)
        check_record(b, g["id"], final)
        entries = stored_entries(cluster.url, g["id"])
        assert {v: entries[v] for v in acknowledged} == acknowledged, "no acknowledged move is lost"
        for w, gid in zip(watchers, bot_games, strict=True):
            end = w.update() if seen_before[gid]["result"] is None else seen_before[gid]
            while end["result"] is None:
                end = w.update()
            assert end["version"] >= seen_before[gid]["version"]
            record = check_record(b, gid, end)
            told = w.full_log(None)
            assert len(told) >= len(seen_before[gid]["log"]) and len(record.entries) == end["version"]
    finally:
        for w in watchers:
            w.ws.close()
    assert b.bot_moves() > 0, "B made the moves of the tables it took over"


def acknowledge(t: Table, version: int) -> bool:
    """Whether the move just sent at ``version`` was accepted: the server answers a connection's
    messages in order, so every answer to it came before the pong (an update past ``version``,
    or its refusal)."""
    t.ws.send(json.dumps({"type": "ping"}))
    refused = False
    while True:
        m: dict[str, Any] = json.loads(t.ws.recv(timeout=TIMEOUT))
        if m["type"] == "pong":
            return not refused
        if m["type"] == "error" and m["code"] == ErrorCode.STALE and f"you saw {version}" in m["message"]:
            refused = True
            continue
        got = t._take(m)
        if got is not None:
            t._ahead.append(got)


# ---------------------------------------------------------------------------- in one process
ALONE = ServerSettings(cluster=False, sqlite_synchronous="OFF")
"""Two apps in the test process that do not tell each other: one keeps a stale copy of a table."""


def first_update(ws: Any, tokens: list[str]) -> list[dict[str, Any]]:
    out = [hello(ws, tokens)]
    while len(out) < max(1, len(tokens)):
        out.append(recv(ws))
    assert all(m["type"] == "update" for m in out), out
    return out


class Creator:
    """The table's creator, holding seat A, on a raw WebSocket: reads every message."""

    def __init__(self, node: Node, game: dict[str, Any]) -> None:
        self.ws = connect(f"ws://127.0.0.1:{node.port}/ws/{game['id']}", open_timeout=TIMEOUT, close_timeout=2,
                          max_size=None)
        self.ws.send(json.dumps({"type": "hello", "tokens": [game["tokens"]["0"]], "admin": game["admin"],
                                 "lang": "en"}))

    def seat_until(self, seat: int, connected: bool) -> dict[str, Any]:
        """Seat ``seat`` as the next update that shows it (dis)connected has it."""
        while True:
            m = json.loads(self.ws.recv(timeout=TIMEOUT))
            if m["type"] == "update" and m["seats"][seat]["connected"] is connected:
                return dict(m["seats"][seat])

    def replace(self, seat: int) -> dict[str, Any]:
        """Hand ``seat`` to a bot: the refusal, or the update that shows the bot playing."""
        self.ws.send(json.dumps({"type": "replace", "seat": seat, "bot": "random"}))
        while True:
            m = json.loads(self.ws.recv(timeout=TIMEOUT))
            if m["type"] == "error" or (m["type"] == "update" and m["seats"][seat]["replaced"]):
                return dict(m)


def test_a_seat_connected_to_one_process_is_connected_on_every_other(cluster: Cluster) -> None:
    """Seat B's player is on process A; the creator is on B. B shows the seat connected, not
    away, and its creator cannot hand it to a bot. The player goes: the seat is away on B; back:
    connected; process A killed (``kill -9``) with the player on it: away on B, and now the
    creator may hand it to a bot."""
    a, b = cluster.start(), cluster.start()
    g = a.create({"game": "el-grande", "options": {"short_game": True}, "away_seconds": 0.1,
                  "seats": [{"kind": "you", "name": "Ann"}, {"kind": "you", "name": "Bea"}]})
    creator = Creator(b, g)
    assert creator.seat_until(1, connected=False)["away"] is not None
    with Table(a, g["id"], [g["tokens"]["1"]]):
        assert creator.seat_until(1, connected=True)["away"] is None
        refused = creator.replace(1)
        assert refused["type"] == "error" and refused["code"] == ErrorCode.PLAYERS, refused
    assert creator.seat_until(1, connected=False)["away"] is not None
    player = Table(a, g["id"], [g["tokens"]["1"]])
    assert creator.seat_until(1, connected=True)["away"] is None
    a.kill9()
    assert creator.seat_until(1, connected=False)["away"] is not None  # within a sweep or two of B
    while (replaced := creator.replace(1))["type"] == "error":  # until away for away_seconds
        assert replaced["code"] == ErrorCode.PLAYERS, replaced
        time.sleep(0.1)
    assert replaced["seats"][1]["bot"] == "random", replaced
    with contextlib.suppress(Exception):
        player.ws.close()
    creator.ws.close()


def test_a_move_on_a_stale_copy_is_refused_as_stale_and_the_copy_catches_up(db_url: str) -> None:
    """Process B holds the table as it was before process A's move: B's move on it is not saved
    (the row is no longer at the revision B read), B reloads the table, refuses the move as stale
    and shows the table as stored; the move made again is saved."""
    with client(db_url, settings=ALONE) as ca, client(db_url, settings=ALONE) as cb:
        g = create(ca, "el-grande", [{"kind": "you"}, {"kind": "local"}], options={"short_game": True})
        tokens = [g["tokens"]["0"], g["tokens"]["1"]]
        with cb.websocket_connect(f"/ws/{g['id']}") as wb, ca.websocket_connect(f"/ws/{g['id']}") as wa:
            on_b = first_update(wb, tokens)  # B has the table now, at this version
            m = next(u for u in first_update(wa, tokens) if u["viewer"] in u["pending"] and u["legal"])
            v = m["version"]
            wa.send_text(json.dumps({"type": "act", "seat": m["viewer"], "version": v,
                                     "action": m["legal"][0]["text"]}))
            after_a = recv(wa)
            assert after_a["type"] == "update" and after_a["version"] > v
            stale = next(u for u in on_b if u["viewer"] in u["pending"] and u["legal"])
            assert stale["version"] == v
            wb.send_text(json.dumps({"type": "act", "seat": stale["viewer"], "version": v,
                                     "action": stale["legal"][-1]["text"]}))
            err = recv(wb)
            assert err["type"] == "error" and err["code"] == ErrorCode.STALE and f"you saw {v}" in err["message"], err
            told = recv(wb)
            while told["type"] != "update":
                told = recv(wb)
            assert told["version"] == after_a["version"], "B shows the table as stored"
            service_b: GameService = cb.app.state.service  # type: ignore[attr-defined]
            assert [tuple(e) for e in service_b.live[g["id"]].match.record.entries] == \
                service_b.store.load(g["id"]).entries  # type: ignore[union-attr]
            updates = [told, recv(wb)]
            again = next(u for u in updates if u["type"] == "update" and u["viewer"] in u["pending"] and u["legal"])
            wb.send_text(json.dumps({"type": "act", "seat": again["viewer"], "version": again["version"],
                                     "action": again["legal"][0]["text"]}))
            saved = recv(wb)
            assert saved["type"] == "update" and saved["version"] > again["version"], saved
        stored = Store(db_url)
        try:
            row = stored.load(g["id"])
            assert row is not None and len(row.entries) == saved["version"] == row.version
        finally:
            stored.close()


def test_a_database_from_before_revisions_gets_them(db_url: str, tmp_path: Path) -> None:
    """A database (and a backup of it) made before ``games.rev``: the server adds the column,
    a backup of the old database restores, every game at revision 0."""
    store = Store(db_url)
    with client(db_url) as c:
        g = create(c, "el-grande", [{"kind": "you"}, {"kind": "local"}], options={"short_game": True})
    with store.engine.begin() as conn:
        conn.execute(text("ALTER TABLE games DROP COLUMN rev"))
    store.close()
    old = backup(db_url, tmp_path / "old.jsonl")
    target = other_database(db_url, tmp_path)
    assert restore(target, tmp_path / "old.jsonl") == old
    for url in (db_url, target):
        store = Store(url)  # adds the column where it is missing
        try:
            row = store.load(g["id"])
            assert row is not None and row.rev == 0 and row.version == len(row.entries)
            store.save_row(row)
            saved = store.load(g["id"])
            assert saved is not None and saved.rev == 1
        finally:
            store.close()


def test_a_second_server_on_one_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    first = Node(url, tmp_path / "first.log", 0.0)
    try:
        second = subprocess.run(
            [sys.executable, "-c", "from tablero.cli.main import main; main()", "serve", "--host", "127.0.0.1",
             "--port", str(_free_port()), "--database", url], capture_output=True, text=True, timeout=TIMEOUT)
        assert second.returncode != 0
        assert "SQLite serves one process" in " ".join((second.stdout + second.stderr).split())
        assert httpx.get(first.http + "/", timeout=TIMEOUT, trust_env=False).status_code == 200
    finally:
        first.stop()
