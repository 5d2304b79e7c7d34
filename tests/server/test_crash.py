"""Crash safety of the real server process, on SQLite and on a real PostgreSQL.

Each test runs ``tablero serve`` as a subprocess and plays over the WebSocket like a browser:

* ``kill -9`` in the middle of a game, restart on the same database: the table is exactly as
  the last update before the kill showed it, and the game plays on to a record that replays;
* a crash between the commit of a move and its broadcast (the server started through
  ``crashing_serve.py``, which ends the process right after its n-th commit): the mover never
  hears of the move, yet after the restart it is in the game, and nothing told to anybody
  before is lost.

No timing assertions: the timeouts only keep a broken server from hanging the suite.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from random import Random
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tablero.core.errors import ErrorCode
from tablero.core.match import replay
from tablero.core.record import GameRecord
from tablero.registry import GAMES

from .crashing_serve import CRASH_EXIT

TIMEOUT = 30.0
"""Seconds to wait for a server to start, a message to come or a process to end (hangs only)."""

CRASHING_SERVE = Path(__file__).with_name("crashing_serve.py")
"""``tablero serve`` with a service that exits with :data:`CRASH_EXIT` after its n-th commit."""

SPECS: dict[str, dict[str, Any]] = {
    "el-grande": {
        "game": "el-grande",
        "options": {"short_game": True},
        "seats": [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
    },
    "mafia-legend": {
        "game": "mafia-legend",
        "options": {"variant": "beginner"},
        "seats": [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "greedy"},
                  {"kind": "bot", "bot": "random"}],
    },
}
HOT_SEAT: dict[str, Any] = {
    "game": "el-grande",
    "options": {"short_game": True},
    "seats": [{"kind": "you", "name": "Ann"}, {"kind": "local", "name": "Bea"}],
}
ME = 0
"""The seat the test plays in the games with bots."""


# ---------------------------------------------------------------------------- server processes
def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """One ``tablero serve`` subprocess on a free port; its output goes to a file."""

    def __init__(self, url: str, log: Path, crash_after: int | None = None, *, bot_delay: float = 0.0,
                 env: dict[str, str] | None = None) -> None:
        self.port = _free_port()
        self.log = log
        if crash_after is None:
            cmd = [sys.executable, "-c", "from tablero.cli.main import main; main()"]
        else:
            cmd = [sys.executable, str(CRASHING_SERVE), str(crash_after)]
        cmd += ["serve", "--host", "127.0.0.1", "--port", str(self.port), "--database", url,
                "--bot-delay", str(bot_delay)]
        with log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        self._wait_ready()

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + TIMEOUT
        with httpx.Client(trust_env=False, timeout=2) as c:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    pytest.fail(f"server exited with {self.proc.returncode} while starting:\n{self.output()}")
                try:
                    if c.get(self.http + "/").status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.05)
        self.stop()
        pytest.fail(f"server did not answer within {TIMEOUT} s:\n{self.output()}")

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        assert self.proc.wait(timeout=TIMEOUT) == -signal.SIGKILL

    def wait_exit(self) -> int:
        return self.proc.wait(timeout=TIMEOUT)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=TIMEOUT)


class Servers:
    """Starts servers on one database and kills whatever still runs at the end of the test."""

    def __init__(self, url: str, tmp: Path) -> None:
        self.url = url
        self.tmp = tmp
        self.started: list[Server] = []

    def start(self, crash_after: int | None = None) -> Server:
        s = Server(self.url, self.tmp / f"server-{len(self.started)}.log", crash_after)
        self.started.append(s)
        return s

    def close(self) -> None:
        for s in self.started:
            s.stop()


@pytest.fixture
def servers(db_url: str, tmp_path: Path) -> Iterator[Servers]:
    ss = Servers(db_url, tmp_path)
    try:
        yield ss
    finally:
        ss.close()


def create(server: Server, spec: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(server.http + "/api/games", json=spec, timeout=TIMEOUT, trust_env=False)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def get_json(server: Server, path: str) -> dict[str, Any]:
    r = httpx.get(server.http + path, timeout=TIMEOUT, trust_env=False)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


# ---------------------------------------------------------------------------- a player's connection
class Table:
    """A WebSocket connection holding some seats: reads updates, keeps each viewer's log, plays."""

    def __init__(self, server: Server, game_id: str, tokens: list[str]) -> None:
        self.ws: ClientConnection = connect(f"ws://127.0.0.1:{server.port}/ws/{game_id}", open_timeout=TIMEOUT,
                                            close_timeout=2, max_size=None)
        self.logs: dict[int | None, list[dict[str, Any]]] = {}
        self.acted: set[int] = set()
        """Versions at which this connection sent a move (one move per version at most)."""
        self.moves = 0
        self._ahead: list[dict[str, Any]] = []
        self.ws.send(json.dumps({"type": "hello", "tokens": tokens, "lang": "en"}))
        # The table as it stands: one update per seat held (one for a spectator), each with its whole log.
        self._ahead = [self.update() for _ in range(max(1, len(tokens)))]
        assert all(m["log_since"] == 0 and m["version"] == self._ahead[0]["version"] for m in self._ahead)
        self.first = self._ahead.pop(0)

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.ws.close()

    def update(self) -> dict[str, Any]:
        """The next update; a refusal of a move made on a table that changed since is skipped."""
        if self._ahead:
            return self._ahead.pop(0)
        while True:
            m = self._take(json.loads(self.ws.recv(timeout=TIMEOUT)))
            if m is not None:
                return m

    def _take(self, m: dict[str, Any]) -> dict[str, Any] | None:
        if m["type"] == "error":
            # A bot moved at the same time as we did (seats that decide together): skip.
            assert m["code"] == ErrorCode.STALE, m
            return None
        assert m["type"] == "update", m
        log = self.logs.setdefault(m["viewer"], [])
        last = log[-1]["i"] if log else -1
        assert all(line["i"] >= m["log_since"] and line["i"] > last for line in m["log"]), (m, last)
        log.extend(m["log"])
        return m

    def sync(self) -> dict[str, Any] | None:
        """Wait until the server has answered every message sent so far; the last update read meanwhile.

        The server handles one connection's messages in order, so the pong comes after the
        answer (update or refusal) to every move sent before it.
        """
        assert not self._ahead
        self.ws.send(json.dumps({"type": "ping"}))
        latest: dict[str, Any] | None = None
        while True:
            m: dict[str, Any] = json.loads(self.ws.recv(timeout=TIMEOUT))
            if m["type"] == "pong":
                return latest
            latest = self._take(m) or latest

    def can_move(self, m: dict[str, Any]) -> bool:
        return m["result"] is None and m["viewer"] in m["pending"] and bool(m["legal"]) \
            and m["version"] not in self.acted

    def act(self, m: dict[str, Any], rng: Random) -> str:
        text: str = rng.choice(m["legal"])["text"]
        self.ws.send(json.dumps({"type": "act", "seat": m["viewer"], "version": m["version"], "action": text}))
        self.acted.add(m["version"])
        self.moves += 1
        return text

    def play(self, m: dict[str, Any], rng: Random, *, moves: int | None = None) -> dict[str, Any]:
        """Play legal moves from update ``m`` on.

        With ``moves``: until this connection has made that many moves and is the only seat
        to decide (so no bot can change the table any more); returns that update. Without:
        to the end of the game; returns the update with the result.
        """
        while True:
            if m["result"] is not None:
                if moves is not None:
                    pytest.fail(f"the game ended before {moves} moves")
                return m
            if moves is not None and self.moves >= moves and m["pending"] == [m["viewer"]] and self.can_move(m):
                # Only we may change the table now; once every answer is in, this is how it stands.
                newer = self.sync()
                if newer is None:
                    return m
                m = newer
                continue
            if self.can_move(m):
                self.act(m, rng)
            m = self.update()

    def full_log(self, viewer: int | None = ME) -> list[dict[str, Any]]:
        return list(self.logs.get(viewer, []))


def same_table(before: dict[str, Any], after: dict[str, Any]) -> None:
    """Two updates for one viewer show the same table (the logs are compared on their own)."""
    skip = {"log", "log_since"}
    assert {k: v for k, v in after.items() if k not in skip} == {k: v for k, v in before.items() if k not in skip}


def check_record(server: Server, game_id: str, final: dict[str, Any]) -> GameRecord:
    """The stored record replays to the result the players were shown."""
    record = GameRecord.from_json(get_json(server, f"/api/games/{game_id}/record"))
    game = GAMES[record.game]
    result = game.result(replay(game, record))
    assert result is not None
    assert result.to_json() == final["result"] == record.result
    assert len(record.entries) == final["version"]
    listed = {g["id"]: g for g in get_json(server, "/api/games")["games"]}
    assert listed[game_id]["status"] == "over"
    return record


# ---------------------------------------------------------------------------- the tests
@pytest.mark.parametrize("game", list(SPECS))
def test_kill_9_mid_game_resumes_exactly_and_finishes(servers: Servers, game: str) -> None:
    rng = Random(7)
    first = servers.start()
    g = create(first, SPECS[game])
    token = g["tokens"][str(ME)]
    with Table(first, g["id"], [token]) as t:
        before = t.play(t.first, rng, moves=8)
        log_before = t.full_log()
        first.kill9()
        with pytest.raises(ConnectionClosed):
            t.ws.recv(timeout=TIMEOUT)

    second = servers.start()
    with Table(second, g["id"], [token]) as t:
        after = t.first
        assert after["version"] == before["version"]
        same_table(before, after)
        assert t.full_log() == log_before, "the log replays as it was told"
        final = t.play(after, rng)
    record = check_record(second, g["id"], final)
    assert len(record.entries) > before["version"]


@pytest.mark.parametrize("game", list(SPECS))
def test_crash_after_commit_before_broadcast_keeps_the_move(servers: Servers, game: str) -> None:
    rng = Random(11)
    first = servers.start()
    g = create(first, SPECS[game])
    token = g["tokens"][str(ME)]
    with Table(first, g["id"], [token]) as t:
        before = t.play(t.first, rng, moves=4)
        log_before = t.full_log()
        first.kill9()

    # Restarted with a table where only we are to decide: our next move is the first commit.
    crashing = servers.start(crash_after=1)
    with Table(crashing, g["id"], [token]) as t:
        m = t.first
        same_table(before, m)
        assert m["pending"] == [ME] and m["legal"]
        told = t.full_log()
        assert told == log_before
        version = m["version"]
        sent = t.act(m, rng)
        with pytest.raises(ConnectionClosed):
            while True:  # nothing about the move may reach us: the process dies first
                assert t.update()["version"] == version
    assert crashing.wait_exit() == CRASH_EXIT, crashing.output()

    last = servers.start()
    with Table(last, g["id"], [token]) as t:
        m = t.first
        assert m["version"] > version, "the committed move is in the game"
        assert t.full_log()[:len(told)] == told, "nothing told before the crash is lost"
        final = t.play(m, rng)
    record = check_record(last, g["id"], final)
    assert record.entries[version] == (ME, sent), "the move sent before the crash, as sent"


def test_crash_on_the_nth_move_of_a_hot_seat_game(servers: Servers) -> None:
    """Two seats on one connection, no bots: every commit is one of our moves, counted from creation."""
    n = 6
    rng = Random(3)
    crashing = servers.start(crash_after=n)
    g = create(crashing, HOT_SEAT)
    tokens = [g["tokens"]["0"], g["tokens"]["1"]]
    with Table(crashing, g["id"], tokens) as t:
        m = t.first
        versions: list[int] = []
        sent: list[tuple[int, str]] = []
        while True:
            if t.can_move(m):
                versions.append(m["version"])
                sent.append((m["viewer"], t.act(m, rng)))
                if t.moves == n:
                    break
            m = t.update()
        told = {v: t.full_log(v) for v in (0, 1)}
        with pytest.raises(ConnectionClosed):
            while True:
                assert t.update()["version"] <= versions[-1]
    assert crashing.wait_exit() == CRASH_EXIT, crashing.output()

    last = servers.start()
    with Table(last, g["id"], tokens) as t:
        m = t.first
        assert m["version"] > versions[-1]
        for v in (0, 1):
            assert t.full_log(v)[:len(told[v])] == told[v]
        final = t.play(m, rng)
    record = check_record(last, g["id"], final)
    assert [record.entries[v] for v in versions] == sent
