"""Load test of the real server: many concurrent games through the WebSocket API.

Run as ``python -m tablero.server.bench --games 200 --players 4 --think 1.0 --seconds 30``.

The bench starts ``tablero serve`` as a subprocess on a free port (``--bot-delay 0``) with a
fresh database (a temporary SQLite file, or the PostgreSQL database given by ``--database``,
whose tables are dropped and created anew), then plays ``--games`` games at once in which
every seat is a person seat: each invite is claimed and every seat is one WebSocket
connection. The seats run in ``--clients`` client processes (asyncio each). A seat whose turn
starts waits ``--think`` seconds, measured from the update that gave it the turn, then sends a
random legal move (seeded); the move's latency runs from sending it to receiving the first
update whose version is larger than the one it acted on. A finished game is replaced at once
by a new one, so ``--games`` games run for the whole measuring window.

The first games start spread over one think time (``--ramp``: over that many seconds), so that
their moves do not all fall on the same instants. After a warm-up (not counted) the bench
measures for ``--seconds`` and prints one JSON object: moves answered in the window, moves per
second, latency percentiles and errors; besides, the CPU share of the server process and of
the client processes during the window (100 = one core), the moves refused as stale (only
games with simultaneous decisions have them: two seats act on the same version, the second is
told the table changed and acts again) and the games started and finished. ``--think 0``
plays as fast as the server answers; ``--saturate`` adds a second phase with think 0
(``saturated_*`` keys). The client processes run with their garbage collector off during the
run, so that their own pauses do not count as the server's latency.

**Bots and several processes.** ``--bot-seats K`` makes the last K seats of every game bots
that the server plays (``--bot``, default ``greedy``); the person seats are clients as above.
Then the throughput is also counted on the servers (``server_moves_per_s``: every move applied,
by people and bots, from each process's ``/metrics``) and as record entries the clients saw
(``entries_per_s``: moves, chance and forced steps). ``--processes N`` starts N servers on one
PostgreSQL database (``--database``; tablero.server.cluster): the games are created on each in
turn, and each seat connects to a random one (``--sticky``: to the one that created its game),
so a table's moves and its bots meet in different processes, as behind a load balancer.
``--kill-after S`` kills the first server (SIGKILL) S seconds into the window: its connections
reconnect with the same tokens to a server that answers, and afterwards every move a client saw
acknowledged (an update answered it and the pong sent right after it came with no refusal;
``--check`` does this without a kill) is looked up in the database: ``acknowledged``, ``lost``
(0 is the only right answer) and ``reconnects``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import multiprocessing as mp
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from random import Random
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tablero.core.errors import ErrorCode

PG_DEFAULT = "postgresql+psycopg://tablero:tablero@127.0.0.1:5432/tablero_bench"
STALE_RE = re.compile(r"you saw (-?\d+)")
MOVES_RE = re.compile(r'^tablero_moves_total\{by="(\w+)"\} (\S+)$', re.M)
STUCK_SECONDS = 30.0
"""A game in which no seat hears anything for this long counts as an error and is replaced."""
GRACE_SECONDS = 5.0
"""After the window, how long moves sent inside it may still be answered."""


def now() -> float:
    """The clock of the whole bench: monotonic and the same in every process."""
    return time.monotonic()


# ---------------------------------------------------------------------------- client side
@dataclass
class PhaseSpec:
    """What one client process plays (picklable: it crosses into the process)."""

    bases: list[str]
    """The servers (``http://host:port``): games are created on each in turn."""
    game: str
    players: int
    options: dict[str, Any]
    think: float
    games: int
    slots: list[int]
    seed: int
    deflate: bool
    bot_seats: int = 0
    bot: str = "greedy"
    sticky: bool = False
    """Each seat connects to the server that created its game (else to a random one)."""
    confirm: bool = False
    """A ping follows every move: its pong tells the move was accepted (``acked``)."""
    ramp: float | None = None
    """Seconds over which the first games start (None: one think time)."""


@dataclass
class ClientReport:
    samples: list[tuple[float, float]] = field(default_factory=list)
    """(sent at, latency in seconds) of every answered move."""
    errors: int = 0
    stale: int = 0
    games_finished: int = 0
    games_started: int = 0
    error_examples: list[str] = field(default_factory=list)
    cpu_window: float = 0.0
    entries: int = 0
    """Record entries (moves, chance, forced steps) the clients saw added inside the window."""
    acked: list[tuple[str, int, int, str]] = field(default_factory=list)
    """(game id, version, seat, move) of every move the server accepted (``confirm``)."""
    reconnects: int = 0

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.error_examples) < 5:
            self.error_examples.append(text[:300])


class Seat:
    """One seat: its connection (to one of the servers), the latest update it got, its move in flight."""

    def __init__(self, table: Table, seat: int, token: str, base: str, rng: Random, counts: bool) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.base = base
        self.ws: ClientConnection | None = None
        self.rng = rng
        self.counts = counts
        """This seat's connection counts the table's record entries (one per table)."""
        self.latest: dict[str, Any] | None = None
        self.last_version: int | None = None
        self.turn_start: float | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.awaiting: int | None = None
        self.sent_at = 0.0
        self.rejected = False
        self.confirming: tuple[int, str] | None = None
        self.refused = False
        self.samples: dict[int, tuple[float, float]] = {}
        self.done = False

    async def connect(self) -> None:
        """Open the connection and say hello: to ``base``, or, if it does not answer, to another
        server still taken to be alive (``--kill-after``)."""
        client = self.table.client
        compression = "deflate" if self.table.spec.deflate else None
        while True:
            url = self.base.replace("http://", "ws://") + f"/ws/{self.table.game_id}"
            try:
                self.ws = await connect(url, max_size=None, compression=compression, open_timeout=60,
                                        ping_interval=None)
                await self.ws.send(json.dumps({"type": "hello", "tokens": [self.token], "lang": "en"}))
                return
            except (OSError, InvalidHandshake, ConnectionClosed):
                client.dead.add(self.base)
                self.base = client.alive(self.rng)

    def my_turn(self) -> bool:
        u = self.latest
        return u is not None and u["result"] is None and self.seat in u["pending"] and bool(u["legal"])

    def on_update(self, u: dict[str, Any]) -> None:
        t = now()
        version = int(u["version"])
        if self.counts:
            if self.last_version is not None and self.table.client.measure_from <= t < self.table.client.measure_to:
                self.table.report.entries += max(0, version - self.last_version)
            self.last_version = max(version, self.last_version or 0)
        if self.awaiting is not None:
            if version <= self.awaiting:
                self.latest = u
                return  # an update from before our move was applied (a connection, say)
            if not self.rejected:
                self.samples[self.awaiting] = (self.sent_at, t - self.sent_at)
            self.awaiting = None
            self.rejected = False
            self.turn_start = None
        self.latest = u
        if u["result"] is not None:
            self.done = True
            self._cancel()
            return
        if self.my_turn():
            if self.turn_start is None:
                self.turn_start = t
                self._schedule(self.turn_start + self.table.spec.think - t)
        else:
            self.turn_start = None
            self._cancel()

    def on_error(self, msg: dict[str, Any]) -> None:
        report = self.table.report
        self.refused = True  # every refusal here answers our move in flight (the bench sends nothing else)
        if msg.get("code") == str(ErrorCode.STALE):
            m = STALE_RE.search(str(msg.get("message", "")))
            seen = int(m.group(1)) if m else self.awaiting
            if seen is not None and seen == self.awaiting:
                self.rejected = True  # the next newer update starts the turn anew
                report.stale += 1
                return
            if seen is not None and seen in self.samples:
                del self.samples[seen]  # the update we took for its answer was another seat's move
                report.stale += 1
                return
        report.error(f"{msg.get('code')}: {msg.get('message')}")
        # Not an answer to a move we can match: forget the move in flight and look again.
        self.awaiting = None
        self.rejected = False
        self.turn_start = None
        if self.latest is not None and self.my_turn():
            self.turn_start = now()
            self._schedule(self.table.spec.think)

    def on_pong(self) -> None:
        if self.confirming is not None and not self.refused:
            version, move = self.confirming
            self.table.report.acked.append((self.table.game_id, version, self.seat, move))
        self.confirming = None
        self.refused = False

    def _schedule(self, delay: float) -> None:
        self._cancel()
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(max(0.0, delay), self._fire)

    def _cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _fire(self) -> None:
        self.timer = None
        u = self.latest
        if (u is None or self.ws is None or self.awaiting is not None or self.confirming is not None
                or not self.my_turn() or self.table.stopping()):
            return
        move = self.rng.choice(u["legal"])["text"]
        self.awaiting = int(u["version"])
        self.sent_at = now()
        text = json.dumps({"type": "act", "seat": self.seat, "version": self.awaiting, "action": move})
        if self.table.spec.confirm:
            self.confirming, self.refused = (self.awaiting, move), False
            self.table.spawn(self._send(self.ws, text, json.dumps({"type": "ping"})))
        else:
            self.table.spawn(self.ws.send(text))

    @staticmethod
    async def _send(ws: ClientConnection, *texts: str) -> None:
        for text in texts:
            await ws.send(text)

    def _forget_in_flight(self) -> None:
        """The connection broke: whether the move in flight was made is not known (not counted)."""
        self._cancel()
        self.awaiting = None
        self.rejected = False
        self.confirming = None
        self.refused = False
        self.turn_start = None
        self.latest = None

    async def listen(self) -> None:
        assert self.ws is not None
        async for raw in self.ws:
            self.table.heard = now()
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "update":
                if msg.get("viewer") == self.seat:
                    self.on_update(msg)
            elif kind == "error":
                self.on_error(msg)
            elif kind == "pong":
                self.on_pong()
            if self.done and self.awaiting is None and self.confirming is None:
                return
            if self.table.stopping() and self.awaiting is None and self.confirming is None:
                return

    async def run(self) -> None:
        """Play the seat; when its server goes away, go on with the same token on another."""
        while True:
            try:
                await self.listen()
                return
            except ConnectionClosed:
                if self.done or self.table.stopping() or self.table.stuck:
                    return
            self.table.report.reconnects += 1
            self._forget_in_flight()
            await self.connect()  # the same server if it answers, else another


class Table:
    """One game in play: its seats and their connections."""

    def __init__(self, client: Client, slot: int, number: int, game_id: str) -> None:
        self.client = client
        self.spec = client.spec
        self.report = client.report
        self.slot = slot
        self.number = number
        self.game_id = game_id
        self.seats: list[Seat] = []
        self.heard = now()
        self.stuck = False

    def stopping(self) -> bool:
        return now() >= self.client.measure_to

    def spawn(self, coro: Any) -> None:
        self.client.spawn(coro)

    async def play(self, tokens: dict[int, str], home: str) -> bool:
        """Connect every seat (to ``home``, the server that created the game, with ``--sticky``;
        else each to a random server) and play until the game is over; True if it finished."""
        try:
            for k, seat in enumerate(sorted(tokens)):
                rng = Random(f"{self.spec.seed}:{self.slot}:{self.number}:{seat}")
                base = home if self.spec.sticky else self.client.alive(rng)
                s = Seat(self, seat, tokens[seat], base, rng, counts=k == 0)
                self.seats.append(s)
                await s.connect()
            players = [asyncio.ensure_future(s.run()) for s in self.seats]
            try:
                await asyncio.gather(*players)
            finally:
                for task in players:
                    task.cancel()
        finally:
            for s in self.seats:
                s._cancel()
                if s.ws is not None:
                    with contextlib.suppress(Exception):
                        await s.ws.close()
            # Moves that got their answer count; the rest (cut by the end of the run) do not.
            for s in self.seats:
                self.report.samples.extend(s.samples.values())
                s.samples.clear()
        return all(s.done for s in self.seats)


class Client:
    """One client process: an asyncio loop with one connection per seat of its games."""

    def __init__(self, spec: PhaseSpec, pipe: Connection) -> None:
        self.spec = spec
        self.pipe = pipe
        self.report = ClientReport()
        self.measure_from = math.inf
        self.measure_to = math.inf
        self.tasks: set[asyncio.Task[Any]] = set()
        self.tables: set[Table] = set()
        self.http: dict[str, httpx.AsyncClient] = {}
        self.dead: set[str] = set()
        """Servers that refused a connection (killed): nobody connects there any more."""

    def alive_bases(self) -> list[str]:
        """The servers not known to be dead (RuntimeError if none is left)."""
        bases = [b for b in self.spec.bases if b not in self.dead]
        if not bases:
            raise RuntimeError("no server answers")
        return bases

    def alive(self, rng: Random) -> str:
        return rng.choice(self.alive_bases())

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            # a send on a connection that closed: its seat's listener sees it and connects again
            if not isinstance(exc, ConnectionClosed):
                self.report.error(f"send failed: {exc!r}")

    def closing(self) -> bool:
        return now() >= self.measure_to

    async def create(self, slot: int, number: int) -> tuple[str, dict[int, str], str]:
        """A new game on the next server that answers: its id, the person seats' tokens, the server."""
        while True:
            bases = self.alive_bases()
            base = bases[(slot + number) % len(bases)]
            try:
                return await self._create(base)
            except httpx.TransportError:
                self.dead.add(base)

    async def _create(self, base: str) -> tuple[str, dict[int, str], str]:
        spec = self.spec
        http = self.http[base]
        people = spec.players - spec.bot_seats
        seats = [{"kind": "person", "name": f"P{i + 1}"} if i < people else {"kind": "bot", "bot": spec.bot}
                 for i in range(spec.players)]
        r = await http.post("/api/games", json={"game": spec.game, "options": spec.options, "seats": seats})
        r.raise_for_status()
        made = r.json()
        tokens: dict[int, str] = {}
        for seat, invite in made["invites"].items():
            c = await http.post(f"/api/games/{made['id']}/claim", json={"invite": invite})
            c.raise_for_status()
            claimed = c.json()
            tokens[int(claimed["seat"])] = str(claimed["token"])
            if int(claimed["seat"]) != int(seat):
                raise RuntimeError(f"invite of seat {seat} claimed seat {claimed['seat']}")
        return str(made["id"]), tokens, base

    async def slot(self, slot: int, first: tuple[str, dict[int, str], str], release: float) -> None:
        created: tuple[str, dict[int, str], str] | None = first
        table: Table | None
        await asyncio.sleep(max(0.0, release - now()))
        number = 0
        while not self.closing():
            table = None
            try:
                if created is None:
                    created = await self.create(slot, number)
                self.report.games_started += 1
                game_id, tokens, home = created
                table = Table(self, slot, number, game_id)
                self.tables.add(table)
                try:
                    finished = await table.play(tokens, home)
                finally:
                    self.tables.discard(table)
                if finished:
                    self.report.games_finished += 1
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not self.closing() and not (table is not None and table.stuck):
                    self.report.error(f"slot {slot}: {exc!r}")
                    await asyncio.sleep(0.5)
            created = None
            number += 1

    async def watchdog(self) -> None:
        """A game nobody hears from for STUCK_SECONDS is closed (an error) and replaced."""
        while True:
            await asyncio.sleep(2.0)
            t = now()
            for table in list(self.tables):
                if t - table.heard > STUCK_SECONDS:
                    table.heard = t
                    table.stuck = True
                    self.report.error(f"game {table.slot}/{table.number}: no update for {STUCK_SECONDS:.0f} s")
                    for s in table.seats:
                        if s.ws is not None:
                            self.spawn(s.ws.close())

    async def main(self) -> None:
        spec = self.spec
        limits = httpx.Limits(max_connections=8, max_keepalive_connections=8)
        async with contextlib.AsyncExitStack() as stack:
            for base in spec.bases:
                self.http[base] = await stack.enter_async_context(
                    httpx.AsyncClient(base_url=base, timeout=60, limits=limits))
            sem = asyncio.Semaphore(8)

            async def make(slot: int) -> tuple[str, dict[int, str], str]:
                async with sem:
                    return await self.create(slot, 0)

            first = await asyncio.gather(*(make(slot) for slot in spec.slots))
            # The client's own garbage collector must not add pauses to the measured latency:
            # what lives now is frozen, and collection waits until the report is sent.
            gc.collect()
            gc.freeze()
            gc.disable()
            self.pipe.send(("ready", None))
            start, measure_from, measure_to = await asyncio.get_running_loop().run_in_executor(None, self.pipe.recv)
            self.measure_from, self.measure_to = measure_from, measure_to
            cpu: dict[str, float] = {}

            def mark(key: str) -> None:
                cpu[key] = time.process_time()

            loop = asyncio.get_running_loop()
            loop.call_later(max(0.0, measure_from - now()), mark, "from")
            loop.call_later(max(0.0, measure_to - now()), mark, "to")
            watchdog = asyncio.ensure_future(self.watchdog())
            ramp = spec.think if spec.ramp is None else spec.ramp
            slots = [asyncio.ensure_future(self.slot(i, made, start + ramp * i / spec.games))
                     for i, made in zip(spec.slots, first, strict=True)]
            # Moves sent before the end still get their answer; then everything closes.
            await asyncio.sleep(max(0.0, measure_to - now()))
            while now() < measure_to + GRACE_SECONDS and any(
                    s.awaiting is not None or s.confirming is not None for table in self.tables for s in table.seats):
                await asyncio.sleep(0.05)
            for task in slots:
                task.cancel()
            watchdog.cancel()
            await asyncio.gather(*slots, watchdog, return_exceptions=True)
            for task in list(self.tasks):
                task.cancel()
            await asyncio.gather(*list(self.tasks), return_exceptions=True)
            self.report.cpu_window = cpu.get("to", time.process_time()) - cpu.get("from", 0.0)


def client_process(spec: PhaseSpec, pipe: Connection) -> None:
    """Entry point of one client process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import uvloop
        uvloop.install()
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it
        pass
    client = Client(spec, pipe)
    try:
        asyncio.run(client.main())
        pipe.send(("report", client.report))
    except Exception as exc:
        pipe.send(("failed", repr(exc)))
    finally:
        gc.enable()


# ---------------------------------------------------------------------------- server side
def free_port(host: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def prepare_database(url: str | None) -> tuple[str, str, Path | None]:
    """(url, kind, temp folder to remove): a fresh SQLite file, or the given database emptied."""
    if url is None or url.startswith("sqlite"):
        if url is not None:
            return url, "sqlite", None
        folder = Path(tempfile.mkdtemp(prefix="tablero-bench-"))
        return f"sqlite:///{folder / 'bench.db'}", "sqlite", folder
    from sqlalchemy import create_engine

    from tablero.server.store import metadata

    engine = create_engine(url)
    metadata.drop_all(engine)
    metadata.create_all(engine)
    engine.dispose()
    return url, "postgresql", None


def start_server(host: str, port: int, url: str, log: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-c", "from tablero.cli.main import main; main()", "serve",
           "--host", host, "--port", str(port), "--database", url, "--bot-delay", "0"]
    env = {k: v for k, v in os.environ.items() if k != "TABLERO_DATABASE_URL"}
    env["TABLERO_RATE_LIMITS"] = "off"  # every client runs on this machine: one address for hundreds of seats
    env.setdefault("TABLERO_MAX_LOADED_GAMES", "10000")  # every game of the bench is busy: none leaves memory
    out = log.open("wb")
    try:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    finally:
        out.close()


def wait_ready(base: str, server: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with code {server.returncode}")
        try:
            with urllib.request.urlopen(base + "/api/meta", timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server did not answer within {timeout:.0f} s")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), None where unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[k]


@dataclass
class PhaseResult:
    moves: int
    moves_per_s: float
    latency_ms: dict[str, float]
    errors: int
    stale: int
    games_started: int
    games_finished: int
    server_cpu_pct: float | None
    client_cpu_pct: float
    error_examples: list[str]
    samples: list[tuple[float, float]]
    """(sent at, from the window's start, and latency), both in seconds, ordered by sending time."""
    entries_per_s: float = 0.0
    server_moves_per_s: float | None = None
    """Every move applied in the window (people's and bots'), from the servers' ``/metrics``."""
    server_cpu_pcts: list[float | None] = field(default_factory=list)
    acknowledged: int | None = None
    lost: int | None = None
    lost_examples: list[str] = field(default_factory=list)
    reconnects: int = 0
    killed_at_s: float | None = None


@dataclass
class Server:
    """One ``tablero serve`` of the bench."""

    proc: subprocess.Popen[bytes]
    base: str
    log: Path
    killed: bool = False


def start_profiler(args: argparse.Namespace, server_pid: int, tag: str) -> subprocess.Popen[bytes] | None:
    """py-spy on the server for the window (``--profile``), collapsed stacks to ``PROFILE[.tag]``."""
    if not args.profile:
        return None
    exe = shutil.which("py-spy")
    if exe is None:
        print("bench: --profile needs py-spy on PATH (pip install py-spy)", file=sys.stderr)
        return None
    out = args.profile + (f".{tag}" if tag else "")
    cmd = [exe, "record", "--pid", str(server_pid), "--duration", str(max(1, round(args.seconds))),
           "--rate", "200", "--format", "raw", "--output", out, "--nonblocking"]
    if args.profile_idle:
        cmd.append("--idle")
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def server_moves(server: Server) -> float | None:
    """Moves the server applied so far (people's and bots'), from its ``/metrics``."""
    if server.killed:
        return None
    try:
        with urllib.request.urlopen(server.base + "/metrics", timeout=10) as r:
            body = r.read().decode()
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None
    return sum(float(v) for _, v in MOVES_RE.findall(body))


def lost_moves(url: str, acked: Sequence[tuple[str, int, int, str]]) -> list[str]:
    """The acknowledged moves that are not in the database as made (entry ``version`` of the game)."""
    from sqlalchemy import create_engine, select

    from tablero.server.store import entries

    games = sorted({gid for gid, _, _, _ in acked})
    stored: dict[tuple[str, int], tuple[int, str]] = {}
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            for i in range(0, len(games), 500):
                q = select(entries.c.game_id, entries.c.idx, entries.c.actor, entries.c.text).where(
                    entries.c.game_id.in_(games[i:i + 500]))
                stored.update(((str(g), int(k)), (int(a), str(t))) for g, k, a, t in conn.execute(q))
    finally:
        engine.dispose()
    return [f"{gid} entry {v}: acknowledged {seat} {move!r}, stored {stored.get((gid, v))}"
            for gid, v, seat, move in acked if stored.get((gid, v)) != (seat, move)]


def run_phase(args: argparse.Namespace, servers: list[Server], think: float, tag: str = "",
              url: str = "") -> PhaseResult:
    clients = max(1, min(args.clients, args.games))
    ctx = mp.get_context("spawn")
    procs: list[tuple[Any, Connection]] = []
    kill = args.kill_after is not None and not tag
    for c in range(clients):
        spec = PhaseSpec(bases=[s.base for s in servers if not s.killed], game=args.game, players=args.players,
                         options=dict(args.options), think=think, games=args.games,
                         slots=list(range(c, args.games, clients)), seed=args.seed, deflate=not args.no_deflate,
                         bot_seats=args.bot_seats, bot=args.bot, sticky=args.sticky, confirm=args.check or kill,
                         ramp=args.ramp)
        here, there = ctx.Pipe()
        p = ctx.Process(target=client_process, args=(spec, there), daemon=True)
        p.start()
        procs.append((p, here))
    reports: list[ClientReport] = []
    killed_at: float | None = None
    try:
        for _, pipe in procs:
            kind, detail = pipe.recv()
            if kind != "ready":
                raise RuntimeError(f"a client process failed while creating games: {detail}")
        start = time.monotonic() + 0.2
        measure_from = start + args.warmup
        measure_to = measure_from + args.seconds
        for _, pipe in procs:
            pipe.send((start, measure_from, measure_to))
        time.sleep(max(0.0, measure_from - time.monotonic()))
        cpu_from = [cpu_seconds(s.proc.pid) for s in servers]
        moves_from = [server_moves(s) for s in servers]
        cpu_to: list[float | None] = [None] * len(servers)
        moves_to: list[float | None] = [None] * len(servers)
        profiler = start_profiler(args, servers[0].proc.pid, tag)
        if kill:
            time.sleep(max(0.0, measure_from + args.kill_after - time.monotonic()))
            victim = servers[0]
            cpu_to[0], moves_to[0] = cpu_seconds(victim.proc.pid), server_moves(victim)
            victim.proc.send_signal(signal.SIGKILL)
            victim.proc.wait()
            victim.killed = True
            killed_at = time.monotonic() - measure_from
        time.sleep(max(0.0, measure_to - time.monotonic()))
        for i, s in enumerate(servers):
            if not s.killed:
                cpu_to[i], moves_to[i] = cpu_seconds(s.proc.pid), server_moves(s)
        if profiler is not None:
            profiler.wait()
        for p, pipe in procs:
            if not pipe.poll(GRACE_SECONDS + 60):
                raise RuntimeError("a client process did not report")
            kind, detail = pipe.recv()
            if kind != "report":
                raise RuntimeError(f"a client process failed: {detail}")
            reports.append(detail)
            p.join(10)
    finally:
        for p, _ in procs:
            if p.is_alive():
                p.terminate()
                p.join(5)
    samples = sorted((sent - measure_from, lat) for r in reports for sent, lat in r.samples
                     if measure_from <= sent < measure_to)
    lat = sorted(lat for _, lat in samples)
    window = args.seconds
    cpus = [None if a is None or b is None else round((b - a) / window * 100, 1)
            for a, b in zip(cpu_from, cpu_to, strict=True)]
    moved = [None if a is None or b is None else b - a for a, b in zip(moves_from, moves_to, strict=True)]
    acked = [m for r in reports for m in r.acked]
    lost = lost_moves(url, acked) if (args.check or kill) and url else None
    return PhaseResult(
        moves=len(lat),
        moves_per_s=round(len(lat) / window, 1),
        latency_ms={"p50": round(percentile(lat, 0.50) * 1e3, 2), "p99": round(percentile(lat, 0.99) * 1e3, 2),
                    "max": round(lat[-1] * 1e3, 2) if lat else float("nan")},
        errors=sum(r.errors for r in reports),
        stale=sum(r.stale for r in reports),
        games_started=sum(r.games_started for r in reports),
        games_finished=sum(r.games_finished for r in reports),
        server_cpu_pct=None if any(c is None for c in cpus) else round(sum(c or 0.0 for c in cpus), 1),
        client_cpu_pct=round(sum(r.cpu_window for r in reports) / window * 100, 1),
        error_examples=[e for r in reports for e in r.error_examples][:5],
        samples=samples,
        entries_per_s=round(sum(r.entries for r in reports) / window, 1),
        server_moves_per_s=None if any(m is None for m in moved) else round(sum(m or 0.0 for m in moved) / window, 1),
        server_cpu_pcts=cpus,
        acknowledged=len(acked) if lost is not None else None,
        lost=None if lost is None else len(lost),
        lost_examples=(lost or [])[:5],
        reconnects=sum(r.reconnects for r in reports),
        killed_at_s=None if killed_at is None else round(killed_at, 2),
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m tablero.server.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    ap.add_argument("--players", type=int, default=4, help="seats per game (default 4)")
    ap.add_argument("--think", type=float, default=1.0, help="seconds a seat thinks before each move (default 1)")
    ap.add_argument("--seconds", type=float, default=30.0, help="measuring window in seconds (default 30)")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds played before the window (default 5)")
    ap.add_argument("--ramp", type=float, default=None, metavar="S",
                    help="the first games start spread over S seconds (default one think time); with games "
                         "that end, a ramp as long as a game spreads their ends and new starts too")
    ap.add_argument("--game", default="don-carlo", help="game id (default don-carlo)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option (repeatable)")
    ap.add_argument("--database", default=None,
                    help=f"SQLAlchemy URL, e.g. {PG_DEFAULT} (its tables are dropped); default a fresh SQLite file")
    ap.add_argument("--clients", type=int, default=2, help="client processes (default 2)")
    ap.add_argument("--saturate", action="store_true", help="add a second phase with think 0")
    ap.add_argument("--seed", type=int, default=1, help="seed of the seats' random moves (default 1)")
    ap.add_argument("--no-deflate", action="store_true",
                    help="do not offer permessage-deflate (browsers do, so the default offers it)")
    ap.add_argument("--host", default="127.0.0.1", help="address the server listens on (default 127.0.0.1)")
    ap.add_argument("--bot-seats", type=int, default=0,
                    help="the last N seats of every game are bots the server plays (default 0)")
    ap.add_argument("--bot", default="greedy", help="the bot of those seats (default greedy)")
    ap.add_argument("--processes", type=int, default=1,
                    help="server processes on the one database (more than 1 needs PostgreSQL; default 1)")
    ap.add_argument("--sticky", action="store_true",
                    help="each seat connects to the server that created its game (default: a random one)")
    ap.add_argument("--kill-after", type=float, default=None, metavar="S",
                    help="kill -9 the first server S seconds into the window; look up every acknowledged move")
    ap.add_argument("--check", action="store_true",
                    help="confirm every move with a ping and look each acknowledged one up in the database")
    ap.add_argument("--verbose", action="store_true",
                    help="tell the servers' pids and keep their logs (paths on stderr)")
    ap.add_argument("--samples", metavar="FILE",
                    help="write every measured move as CSV: phase, sent at (s into the window), latency (ms)")
    ap.add_argument("--profile", metavar="FILE", help="record the server with py-spy during the window (raw stacks)")
    ap.add_argument("--profile-idle", action="store_true", help="with --profile: count waiting time too")
    args = ap.parse_args(argv)
    if args.games < 1 or args.players < 1 or args.seconds <= 0 or args.think < 0 or args.warmup < 0:
        ap.error("--games and --players must be positive, --seconds > 0, --think and --warmup >= 0")
    if not 0 <= args.bot_seats < args.players:
        ap.error("--bot-seats must leave at least one person seat")
    if args.processes < 1 or (args.processes > 1 and not (args.database or "").startswith("postgresql")):
        ap.error("--processes above 1 needs a PostgreSQL --database (SQLite serves one process)")
    if args.kill_after is not None and (args.processes < 2 or not 0 <= args.kill_after < args.seconds):
        ap.error("--kill-after needs --processes 2 or more and a time inside the window")
    options: dict[str, str] = {}
    for pair in args.option:
        name, sep, value = pair.partition("=")
        if not sep:
            ap.error(f"--option expects NAME=VALUE, got {pair!r}")
        options[name.strip()] = value.strip()
    args.options = options
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    url, kind, folder = prepare_database(args.database)
    log_dir = Path(tempfile.mkdtemp(prefix="tablero-bench-log-"))
    servers: list[Server] = []
    out: dict[str, Any] = {"database": kind, "game": args.game, "games": args.games, "players": args.players,
                           "think_s": args.think, "seconds": args.seconds}
    if args.bot_seats:
        out.update(bot_seats=args.bot_seats, bot=args.bot)
    if args.processes > 1:
        out.update(processes=args.processes, sticky=args.sticky)
    code = 0
    try:
        for i in range(args.processes):
            port = free_port(args.host)
            base = f"http://{args.host}:{port}"
            log = log_dir / f"server-{i}.log"
            servers.append(Server(start_server(args.host, port, url, log), base, log))
            if args.verbose:
                print(f"bench: server pid {servers[-1].proc.pid} on {base}, log {log}", file=sys.stderr)
        for s in servers:
            wait_ready(s.base, s.proc)
        phase = run_phase(args, servers, args.think, url=url)
        phases = [("think", phase)]
        out.update(moves=phase.moves, moves_per_s=phase.moves_per_s, latency_ms=phase.latency_ms,
                   errors=phase.errors, stale=phase.stale, games_started=phase.games_started,
                   games_finished=phase.games_finished, server_cpu_pct=phase.server_cpu_pct,
                   client_cpu_pct=phase.client_cpu_pct)
        if args.bot_seats or args.processes > 1:
            out.update(server_moves_per_s=phase.server_moves_per_s, entries_per_s=phase.entries_per_s)
        if args.processes > 1:
            out.update(server_cpu_pcts=phase.server_cpu_pcts)
        if phase.reconnects:
            out["reconnects"] = phase.reconnects
        if phase.lost is not None:
            out.update(acknowledged=phase.acknowledged, lost=phase.lost)
            if phase.lost_examples:
                out["lost_examples"] = phase.lost_examples
        if phase.killed_at_s is not None:
            out["killed_at_s"] = phase.killed_at_s
        if phase.error_examples:
            out["error_examples"] = phase.error_examples
        if args.saturate:
            sat = run_phase(args, [s for s in servers if not s.killed], 0.0, "saturated", url=url)
            phases.append(("saturated", sat))
            out.update(saturated_moves_per_s=sat.moves_per_s, saturated_latency_ms=sat.latency_ms,
                       saturated_errors=sat.errors, saturated_stale=sat.stale,
                       saturated_server_cpu_pct=sat.server_cpu_pct, saturated_client_cpu_pct=sat.client_cpu_pct)
            if args.bot_seats or args.processes > 1:
                out.update(saturated_server_moves_per_s=sat.server_moves_per_s)
            if sat.error_examples:
                out["saturated_error_examples"] = sat.error_examples
        if args.samples:
            with open(args.samples, "w") as f:
                f.write("phase,sent_s,latency_ms\n")
                for name, ph in phases:
                    f.writelines(f"{name},{t:.4f},{lat * 1e3:.3f}\n" for t, lat in ph.samples)
    except (RuntimeError, OSError) as exc:
        print(f"bench failed: {exc}", file=sys.stderr)
        for s in servers:
            tail = s.log.read_text(errors="replace")[-3000:] if s.log.exists() else ""
            if tail:
                print(f"server log {s.log.name} (end):\n{tail}", file=sys.stderr)
        code = 1
    finally:
        for s in servers:
            if s.proc.poll() is None:
                s.proc.terminate()
        for s in servers:
            try:
                s.proc.wait(15)
            except subprocess.TimeoutExpired:
                s.proc.kill()
                s.proc.wait()
        if not args.verbose:
            shutil.rmtree(log_dir, ignore_errors=True)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    if code == 0:
        print(json.dumps(out))
    return code


if __name__ == "__main__":
    sys.exit(main())
