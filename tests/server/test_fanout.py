"""Fan-out: a slow reader or a crowd of spectators never holds up a table (issue 14, faults 1 and 2).

Every connection has an outbox of its own and a writer: the table only queues. A reader too
slow (its send does not finish within ``send_timeout``, or its outbox overflows) is dropped
like a disconnect; a spectator's hello is answered to it alone; the spectators' update is
built once per change; a table takes at most ``max_spectators`` spectators. Whatever is
merged on the way, every viewer's log, rebuilt from the updates it got, is the log a fresh
connection gets.

Most tests drive :class:`GameService` through its ``send`` seam (a coroutine per connection
that the test controls: one that never returns, one behind a gate); one runs the real server
(uvicorn in a subprocess, small socket buffers) against a client that stops reading. No timing
assertions: the timeouts only keep a broken server from hanging the suite.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from random import Random
from typing import Any, TypeVar

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tablero.server.service import SHARED_KEEP, Conn, GameService, LiveGame
from tablero.server.settings import ServerSettings
from tablero.server.store import Store
from tablero.server.workers import Workers

from .conftest import FakeClock, client, create, hello, recv

T = TypeVar("T")

GUARD = 30.0
"""Seconds before a test gives up waiting (only a broken server ever waits that long)."""

SLOW_CLOSE = 4408
FULL_CLOSE = 4503
SPECTATORS_FULL = "table/spectators_full"


def _run(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on a thread of its own (a session's Playwright keeps a loop on the main thread)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _until(what: str, done: Callable[[], bool]) -> None:
    """Let the service run until ``done()``; fails (naming ``what``) only if that never happens."""
    deadline = time.monotonic() + GUARD
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.001)


async def _guarded(aw: Awaitable[T], what: str) -> T:
    try:
        return await asyncio.wait_for(aw, GUARD)
    except TimeoutError:
        raise AssertionError(f"{what} did not finish: the table is stuck") from None


class Far:
    """The far end of one connection: every message it got, and each viewer's log rebuilt from the updates.

    ``stuck``: its sends never finish (a reader that stopped reading); ``gate``: each send waits
    until the gate is open (a reader that reads now and then).
    """

    def __init__(self, *, stuck: bool = False, gate: asyncio.Event | None = None) -> None:
        self.stuck, self.gate = stuck, gate
        self.msgs: list[dict[str, Any]] = []
        self.logs: dict[int | None, list[dict[str, Any]]] = {}
        self.latest: dict[int | None, dict[str, Any]] = {}
        self.updates = 0
        self.closed: tuple[int, str] | None = None

    async def send(self, text: str) -> None:
        if self.stuck:
            await asyncio.Event().wait()
        if self.gate is not None:
            await self.gate.wait()
        msg = json.loads(text)
        self.msgs.append(msg)
        if msg["type"] == "update":
            self.updates += 1
            key = msg["viewer"]
            log = [] if msg["log_since"] == 0 else self.logs.get(key, [])
            self.logs[key] = log + msg["log"]
            self.latest[key] = msg

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def version(self, viewer: int | None = None) -> int:
        return int(self.latest[viewer]["version"]) if viewer in self.latest else -1

    def got(self, kind: str) -> int:
        return sum(1 for m in self.msgs if m["type"] == kind)


async def _connect(service: GameService, gid: str, far: Far, tokens: list[str] | None = None,
                   lang: str = "en") -> Conn:
    return await _guarded(service.connect(gid, far.send, tokens=tokens or [], admin=None, lang=lang,
                                          close=far.close), "a hello")


def _fresh_log(service: GameService, live: LiveGame, viewer: int | None, lang: str = "en") -> list[dict[str, Any]]:
    """The log a new connection of ``viewer`` gets with its first update."""
    log: list[dict[str, Any]] = service.payload(live, viewer, lang, 0, False, service.public_seats(live, lang))["log"]
    return log


def _service(tmp: Path, **settings: Any) -> GameService:
    return GameService(Store(f"sqlite:///{tmp / 'fanout.db'}"), clock=FakeClock(),
                       settings=ServerSettings(**settings))


async def _act(service: GameService, gid: str, conn: Conn, live: LiveGame, rng: Random) -> int:
    """The first pending seat (held by ``conn``) plays a random legal move; returns the seat."""
    seat = live.match.pending()[0]
    legal = live.match.legal(seat)
    msg = {"type": "act", "seat": seat, "version": live.version, "action": legal[rng.randrange(len(legal))].to_text()}
    await _guarded(service.handle(gid, conn, json.dumps(msg)), "a move")
    return seat


HOT_SEAT = {"game": "el-grande", "options": {"short_game": True}, "seats": [{"kind": "local"}] * 2}


# ---------------------------------------------------------------------------- fault 1: slow readers
def test_a_spectator_whose_send_never_finishes_does_not_stop_the_table(tmp_path: Path) -> None:
    async def main() -> None:
        service = _service(tmp_path, send_timeout=0.05)
        created = service.create(HOT_SEAT)
        gid, live = created["id"], service.get(created["id"])
        player, stuck, watcher = Far(), Far(stuck=True), Far()
        me = await _connect(service, gid, player, list(created["tokens"].values()))
        await _connect(service, gid, stuck)
        await _connect(service, gid, watcher)
        rng = Random(1)
        for _ in range(12):
            seat = await _act(service, gid, me, live, rng)
            await _until("the move is acknowledged", lambda seat=seat: player.version(seat) == live.version)
        await _until("the stuck spectator is dropped", lambda: stuck.closed is not None)
        assert stuck.closed is not None and stuck.closed[0] == SLOW_CLOSE
        assert len(live.conns) == 2
        await _until("the other spectator is up to date", lambda: watcher.version() == live.version)
        assert watcher.logs[None] == _fresh_log(service, live, None)
        for seat in (0, 1):
            assert player.logs[seat] == _fresh_log(service, live, seat)
        await service.close()
        service.store.close()

    _run(main())


def test_a_reader_whose_outbox_overflows_is_dropped_and_its_seat_is_away(tmp_path: Path) -> None:
    async def main() -> None:
        service = _service(tmp_path, outbox_size=4, send_timeout=3600)
        created = service.create(HOT_SEAT)
        gid, live = created["id"], service.get(created["id"])
        ann, bea = Far(), Far(stuck=True)
        a = await _connect(service, gid, ann, [created["tokens"][0]])
        b = await _connect(service, gid, bea, [created["tokens"][1]])
        await _until("Ann sees Bea come", lambda: ann.version(0) >= 0 and ann.latest[0]["seats"][1]["connected"])
        for _ in range(6):  # Bea asks and never reads the answers: they pile up in her outbox
            await _guarded(service.handle(gid, b, json.dumps({"type": "ping"})), "a ping")
        await _until("Bea is dropped", lambda: bea.closed is not None)
        assert bea.closed is not None and bea.closed[0] == SLOW_CLOSE
        assert b not in live.conns
        await _until("Ann sees Bea away", lambda: not ann.latest[0]["seats"][1]["connected"])
        assert ann.latest[0]["seats"][1]["away"] is not None
        await _guarded(service.handle(gid, a, json.dumps({"type": "ping"})), "a ping")
        await _until("Ann's ping is answered", lambda: ann.got("pong") == 1)
        await service.close()
        service.store.close()

    _run(main())


def test_a_slow_reader_gets_merged_updates_and_every_log_line(tmp_path: Path) -> None:
    """Readers behind a gate get newer updates in place of older ones; their logs still equal a fresh one."""
    async def main() -> None:
        service = GameService(Store(f"sqlite:///{tmp_path / 'fanout.db'}"), clock=FakeClock(),
                              workers=Workers(1, executor=ThreadPoolExecutor(1)),
                              settings=ServerSettings(send_timeout=3600))
        service.hint_bot = "random"
        created = service.create({"game": "el-grande", "options": {"short_game": True}, "hints": True,
                                  "seats": [{"kind": "local"}, {"kind": "local"}, {"kind": "person"}]})
        gid, live = created["id"], service.get(created["id"])
        gate = asyncio.Event()
        fast, slow_player, slow_en, slow_de = Far(), Far(gate=gate), Far(gate=gate), Far(gate=gate)
        me = await _connect(service, gid, fast, [created["tokens"][0], created["tokens"][1]])
        await _connect(service, gid, slow_player, [created["tokens"][0], created["tokens"][1]])
        await _connect(service, gid, slow_en)
        await _connect(service, gid, slow_de, lang="de")
        cleo: Conn | None = None
        rng = Random(7)
        moves = 0
        while not live.match.is_over() and moves < 60:
            seat = live.match.pending()[0]
            if seat == 2 and cleo is None:  # the invited person joins: a new name, every log is re-sent
                claimed = await service.claim(gid, created["invites"][2], "Cleo")
                cleo = await _connect(service, gid, Far(), [claimed["token"]])
            conn = cleo if seat == 2 else me
            assert conn is not None
            if rng.random() < 0.15:  # "B asked for a hint": a note of the table in every log
                await _guarded(service.handle(gid, conn, json.dumps(
                    {"type": "hint", "seat": seat, "version": live.version})), "a hint")
            elif live.match.can_undo(seat) and rng.random() < 0.1:
                await _guarded(service.handle(gid, conn, json.dumps(
                    {"type": "undo", "seat": seat, "version": live.version})), "a take-back")
            else:
                await _act(service, gid, conn, live, rng)
                moves += 1
            if moves % 9 == 0:  # now and then the slow ones read all that waits
                gate.set()
                await _until("the slow readers catch up", lambda: all(
                    f.version(v) == live.version for f, v in ((slow_player, 0), (slow_player, 1),
                                                              (slow_en, None), (slow_de, None))))
                gate.clear()
        gate.set()
        await _until("every reader is up to date", lambda: all(
            f.version(v) == live.version and f.latest[v]["log"] is not None
            for f, v in ((fast, 0), (fast, 1), (slow_player, 0), (slow_player, 1), (slow_en, None),
                         (slow_de, None))))
        await asyncio.sleep(0.05)  # the last hint's answer, if one is still out
        assert live.notes, "no hint was asked: the test lost its notes"
        for far, viewer, lang in ((fast, 0, "en"), (fast, 1, "en"), (slow_player, 0, "en"),
                                  (slow_player, 1, "en"), (slow_en, None, "en"), (slow_de, None, "de")):
            assert far.logs[viewer] == _fresh_log(service, live, viewer, lang), (viewer, lang)
        assert slow_en.updates < fast.updates / 2, "the slow readers got every update: nothing was merged"
        await service.close()
        service.store.close()

    _run(main())


# ---------------------------------------------------------------------------- fault 2: crowds
def test_spectators_joining_cost_linear_work_and_one_build_per_change(tmp_path: Path) -> None:
    n = 200

    async def main() -> None:
        service = _service(tmp_path, max_spectators=n)
        builds = 0
        real = service.payload

        def counting(*args: Any, **kwargs: Any) -> dict[str, Any]:
            nonlocal builds
            builds += 1
            return real(*args, **kwargs)

        service.payload = counting  # type: ignore[method-assign]
        created = service.create(HOT_SEAT)
        gid, live = created["id"], service.get(created["id"])
        player = Far()
        me = await _connect(service, gid, player, list(created["tokens"].values()))
        crowd = [Far() for _ in range(n)]
        for i, far in enumerate(crowd):
            await _connect(service, gid, far, lang="de" if i % 2 else "en")
        await _until("every spectator has its update", lambda: all(f.updates >= 1 for f in crowd))
        sends = player.updates + sum(f.updates for f in crowd)
        assert sends <= 2 * n, f"{sends} updates sent for {n} spectators joining"
        assert builds <= 2 * n, f"{builds} updates built for {n} spectators joining"
        assert player.updates == 2, "a spectator's hello was told to the players"
        builds, before = 0, [f.updates for f in crowd]
        await _act(service, gid, me, live, Random(1))
        await _until("every spectator sees the move", lambda: all(f.version() == live.version for f in crowd))
        assert [f.updates - b for f, b in zip(crowd, before, strict=True)] == [1] * n
        assert builds <= 2 + 2, f"{builds} updates built for one move (2 seats, spectators in 2 languages)"
        await service.close()
        service.store.close()

    _run(main())


def test_spectators_coming_while_time_passes_keep_few_built_updates(tmp_path: Path) -> None:
    """The spectators' update is keyed by the time too (clocks, away, thinking): spectators coming
    one by one, a tenth of a second apart, with no change at the table in between, leave at most
    ``SHARED_KEEP`` built updates in memory, and each gets its own up-to-date one."""
    n = 3 * SHARED_KEEP

    async def main() -> None:
        service = _service(tmp_path, max_spectators=n)
        clock = service.clock
        assert isinstance(clock, FakeClock)
        created = service.create(HOT_SEAT)
        gid, live = created["id"], service.get(created["id"])
        crowd = [Far() for _ in range(n)]

        def got_one(far: Far) -> Callable[[], bool]:
            return lambda: far.updates == 1

        for far in crowd:
            clock.advance(0.2)
            await _connect(service, gid, far)
            await _until("the spectator has its update", got_one(far))
            assert len(live.shared) <= SHARED_KEEP
        assert all(f.version() == live.version for f in crowd)
        await service.close()
        service.store.close()

    _run(main())


def test_a_hello_at_another_table_is_answered_during_a_flood(tmp_path: Path) -> None:
    n = 300

    async def main() -> None:
        service = _service(tmp_path, max_spectators=n)
        busy = service.create(HOT_SEAT)["id"]
        calm = service.create(HOT_SEAT)["id"]
        flood_sent = 0
        seen_then: list[int] = []

        class Crowd(Far):
            async def send(self, text: str) -> None:
                nonlocal flood_sent
                flood_sent += 1
                await asyncio.sleep(0)  # a socket write lets others run
                await super().send(text)

        class Lone(Far):
            async def send(self, text: str) -> None:
                seen_then.append(flood_sent)
                await super().send(text)

        crowd = [Crowd() for _ in range(n)]
        lone = Lone()
        hellos = [_connect(service, busy, f) for f in crowd[: n // 2]]
        hellos.append(_connect(service, calm, lone))
        hellos += [_connect(service, busy, f) for f in crowd[n // 2:]]
        await _guarded(asyncio.gather(*hellos), "the hellos")
        await _until("the lone hello is answered", lambda: lone.updates == 1)
        assert seen_then[0] <= n, f"the other table's hello waited for {seen_then[0]} sends of the flood"
        await _until("the crowd has its updates", lambda: all(f.updates >= 1 for f in crowd))
        assert flood_sent <= 2 * n, f"{flood_sent} sends for {n} hellos"
        await service.close()
        service.store.close()

    _run(main())


def test_the_spectator_cap_refuses_the_next_spectator_never_a_seat(sqlite_url: str) -> None:
    with client(sqlite_url, settings=ServerSettings(max_spectators=2)) as c:
        g = create(c, "el-grande", [{"kind": "you"}, {"kind": "local"}], options={"short_game": True})
        with c.websocket_connect(f"/ws/{g['id']}") as s1, c.websocket_connect(f"/ws/{g['id']}") as s2:
            assert hello(s1, [])["type"] == "update"
            assert hello(s2, [])["type"] == "update"
            with c.websocket_connect(f"/ws/{g['id']}") as s3:
                refused = hello(s3, [])
                assert refused["type"] == "error" and refused["code"] == SPECTATORS_FULL
                with pytest.raises(WebSocketDisconnect) as closed:
                    s3.receive_text()
                assert closed.value.code == FULL_CLOSE
            s1.send_text(json.dumps({"type": "ping"}))
            assert recv(s1)["type"] == "pong"  # the refused hello told nobody anything
            with c.websocket_connect(f"/ws/{g['id']}") as p:  # seats are never refused
                first = hello(p, [g["tokens"]["0"], g["tokens"]["1"]])
                assert first["type"] == "update" and first["viewer"] == 0
            with c.websocket_connect(f"/ws/{g['id']}") as creator:  # nor is the table's creator
                assert hello(creator, [], admin=g["admin"])["type"] == "update"
        with c.websocket_connect(f"/ws/{g['id']}") as s4:  # a spectator left: there is room again
            assert hello(s4, [])["type"] == "update"


# ---------------------------------------------------------------------------- the real server
SMALL_BUFFER_SERVE = Path(__file__).with_name("small_buffer_serve.py")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class _Server:
    """The app on uvicorn in a subprocess, with small socket send buffers (see small_buffer_serve.py)."""

    def __init__(self, url: str, log: Path, **env: str) -> None:
        self.port = _free_port()
        self.log = log
        with log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, str(SMALL_BUFFER_SERVE), str(self.port), url],
                                         stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **env})
        deadline = time.monotonic() + GUARD
        with httpx.Client(trust_env=False, timeout=2) as c:
            while True:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    pytest.fail(f"the server did not start:\n{log.read_text(errors='replace')}")
                try:
                    if c.get(f"http://127.0.0.1:{self.port}/").status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.05)

    def ws(self, stack: contextlib.ExitStack, gid: str, tokens: list[str], *, sock: socket.socket | None = None,
           max_queue: int | None = None) -> ClientConnection:
        """A connection that said hello (``max_queue``: messages the client buffers before it stops
        reading the socket; None: no limit). It closes with ``stack``; no keepalive pings, no
        compression (the updates fill the buffers sooner)."""
        ws = stack.enter_context(connect(f"ws://127.0.0.1:{self.port}/ws/{gid}", sock=sock, open_timeout=GUARD,
                                         close_timeout=2, max_size=None, max_queue=max_queue, ping_interval=None,
                                         compression=None))
        ws.send(json.dumps({"type": "hello", "tokens": tokens, "lang": "en"}))
        return ws

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=GUARD)


class _Reader:
    """Reads one client connection: the latest update and the rebuilt log of each viewer."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.latest: dict[int | None, dict[str, Any]] = {}
        self.logs: dict[int | None, list[dict[str, Any]]] = {}

    def take(self, msg: dict[str, Any]) -> None:
        if msg["type"] == "update":
            key = msg["viewer"]
            log = [] if msg["log_since"] == 0 else self.logs.get(key, [])
            self.logs[key] = log + msg["log"]
            self.latest[key] = msg

    def read_until(self, what: str, done: Callable[[], bool]) -> None:
        while not done():
            try:
                self.take(json.loads(self.ws.recv(timeout=GUARD)))
            except TimeoutError:
                raise AssertionError(f"never came: {what} (the table is stuck)") from None


def test_a_real_client_that_never_reads_is_dropped_while_play_goes_on(sqlite_url: str, tmp_path: Path) -> None:
    server = _Server(sqlite_url, tmp_path / "server.log", TABLERO_SEND_TIMEOUT="0.5", TABLERO_MAX_SPECTATORS="2")
    with contextlib.ExitStack() as stack:
        stack.callback(server.stop)  # last: after the connections closed
        r = httpx.post(f"http://127.0.0.1:{server.port}/api/games", trust_env=False, timeout=GUARD,
                       json={**HOT_SEAT, "seats": [{"kind": "you"}, {"kind": "local"}]})
        assert r.status_code == 200, r.text
        gid, tokens = r.json()["id"], list(r.json()["tokens"].values())
        player = _Reader(server.ws(stack, gid, tokens))
        player.read_until("the player's first updates", lambda: len(player.latest) == 2)
        watcher = _Reader(server.ws(stack, gid, []))  # reads all the time (its client buffers everything)
        tiny = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tiny.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        tiny.connect(("127.0.0.1", server.port))
        stuck = _Reader(server.ws(stack, gid, [], sock=tiny, max_queue=1))  # stops reading after a message or two
        rng, moves = Random(5), 0
        while True:
            now = max(int(p["version"]) for p in player.latest.values())
            player.read_until("the updates of every seat", lambda now=now: all(
                int(p["version"]) == now for p in player.latest.values()))
            p0 = player.latest[0]
            if p0["result"] is not None or not p0["pending"]:
                break
            seat = p0["pending"][0]
            legal = player.latest[seat]["legal"]
            player.ws.send(json.dumps({"type": "act", "seat": seat, "version": now,
                                       "action": legal[rng.randrange(len(legal))]["text"]}))
            moves += 1
            player.read_until(f"the answer to move {moves}",
                              lambda seat=seat, now=now: int(player.latest[seat]["version"]) > now)
        assert moves > 40 and player.latest[0]["result"] is not None  # dozens of updates the stuck one never read
        final = int(player.latest[0]["version"])
        deadline, fresh = time.monotonic() + GUARD, None
        while fresh is None:  # the stuck spectator's place frees once it is dropped
            with contextlib.ExitStack() as once:
                msg = json.loads(server.ws(once, gid, []).recv(timeout=GUARD))
            if msg["type"] == "update":
                fresh = msg
            else:
                assert msg["code"] == SPECTATORS_FULL, msg
                assert time.monotonic() < deadline, "the client that never reads was never dropped"
                time.sleep(0.05)
        assert fresh["log_since"] == 0 and fresh["version"] == final
        watcher.read_until("the watcher's last update", lambda: watcher.latest.get(None, {}).get("version") == final)
        assert watcher.logs[None] == fresh["log"]
        with pytest.raises(ConnectionClosed) as closed:  # it reads at last: what waited, then the close
            while True:
                stuck.take(json.loads(stuck.ws.recv(timeout=GUARD)))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == SLOW_CLOSE
        got = stuck.logs.get(None, [])
        assert got == fresh["log"][: len(got)] and len(got) < len(fresh["log"])
