"""More than one ``tablero serve`` process on one PostgreSQL database.

A load balancer may send any connection of any table to any process; the processes share
nothing but the database. Four rules make that safe (docs/deploy.md, "More than one process"):

* **Writes never overwrite each other.** Each game row has a revision ``rev``, one more with
  every committed change (entries, seating, settings). A process writes a row only if it is
  still at the rev the process last read (``UPDATE … WHERE id = :id AND rev = :rev``); if
  another process wrote it first, nothing is written (:class:`~tablero.server.store.Conflict`),
  the table is put back as the store has it and the request is refused as stale
  (``action/stale_version``; clients act again on the newer table). Entries are only ever
  added, so a process that holds a table's first n entries has them right for ever.
* **Every process hears of every commit.** A commit sends ``NOTIFY tablero_games`` in its own
  transaction (delivered when it commits; :data:`~tablero.server.store.CHANNEL`). Each process
  listens on a connection of its own (:meth:`Cluster._listen`); for a table it has in memory at
  an older rev it reads the new entries and row (:meth:`Cluster.refresh`: no replay from the
  start, the match applies only the new entries), keeps its connections, and tells them. Chat
  lines go the same way. The notes of moves are sent right after their commits, gathered (see
  :class:`~tablero.server.store.AsyncPostgres`); every sweep (below) and every new listening
  connection compare the tables in memory with the store, for a note that never came.
* **One process runs a table's bots and clock.** It holds PostgreSQL's session advisory lock
  of the table (``pg_try_advisory_lock(hashtextextended(id, …))``) on a connection of its own,
  taken when the table first has a bot to move or a clock to run there, let go when the table
  leaves its memory or ends. A person's move saved by another process reaches the owner by the
  notification, and the owner's bots answer. A process that dies (``kill -9`` too) loses its
  connection, and PostgreSQL lets go of its locks at once; every ``cluster_sweep_seconds`` each
  process looks for running tables that need a process (a bot to move, a clock) and whose lock
  nobody held at this sweep and the one before (a table just created has no lock for a moment),
  takes their locks and loads them. At start-up that sweep (taking every such table at once) is
  how a process resumes tables. Were two processes ever to run one table's bots
  (a lock lost with its connection), the revisions still let only one move in.
* **Commits do not stop the event loop.** A move is applied in memory under the table's lock,
  then committed on connections the event loop awaits
  (:meth:`~tablero.server.store.Store.append_async`), then told: other tables go on while the
  database works, and PostgreSQL groups the commits that come together. (Not in a thread: a
  thread waiting for the interpreter behind a busy event loop made each commit take tens of
  milliseconds.) A row change made meanwhile without the table's lock (a hello stamping its
  token, a seat leaving) is saved right after that commit (:meth:`~tablero.server.store.Store.append`).

SQLite serves one process only: ``tablero serve`` on a SQLite file holds a lock file beside it
(:func:`sqlite_guard`), and a second ``tablero serve`` on the same file refuses to start.

* **Every process knows which seats are connected anywhere.** A process announces, on the same
  channel, the seats its connections hold at a table whenever they change
  (``p <id> <origin> <seats>``; :meth:`Cluster.here`), all of them again every
  :data:`PRESENCE_REFRESH` seconds, and when a new process asks (``q <origin>``). The others keep
  what they heard (:meth:`Cluster.elsewhere`): a seat connected to process A is connected on B
  too (not away, so B's creator cannot hand it to a bot). A process holds an advisory lock of
  its own while it lives; each sweep forgets what processes whose lock is gone had said (a
  ``kill -9``: their seats are away from then on), and what was not said again for
  :data:`PRESENCE_TTL` seconds (a note lost).

What one process does not know of another: a bot's "thinking" mark.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import fcntl
import json
import logging
import os
from collections.abc import Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import psycopg
from sqlalchemy.engine import make_url

from tablero.core.errors import TableroError
from tablero.core.match import Match
from tablero.server import chat, seatkeys, upkeep
from tablero.server.settings import ServerSettings
from tablero.server.store import CHANNEL, Conflict, Store, StoredGame, conninfo

log = logging.getLogger("tablero.server.cluster")


class Conn(Protocol):
    """What this module reads and changes of a connection (:class:`tablero.server.service.Conn`;
    protocols rather than imports keep this module below the service)."""

    seats: frozenset[int]
    sent: dict[int | None, int]
    notes_sent: dict[int | None, int]

    async def send(self, text: str, /) -> None: ...


class LiveGame(Protocol):
    """A table in memory (:class:`tablero.server.service.LiveGame`)."""

    stored: StoredGame
    match: Match[Any, Any, Any]
    translators: dict[str, Any]
    away_since: dict[int, float]
    elsewhere: frozenset[int]

    def connected(self, seat: int) -> bool: ...

    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def conns(self) -> set[Any]: ...
    def touch(self) -> None: ...


class GameService(Protocol):
    """What this module uses of :class:`tablero.server.service.GameService`."""

    store: Store
    settings: ServerSettings
    clock: Callable[[], float]

    @property
    def live(self) -> Mapping[str, Any]: ...
    def get(self, game_id: str) -> Any: ...
    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None: ...
    def _kick_bots(self, live: Any) -> None: ...
    def _restore(self, live: Any) -> bool: ...
    def _settle(self, live: Any) -> None: ...
    def _resend_logs(self, live: Any) -> None: ...
    async def _broadcast(self, live: Any) -> None: ...

KEY_SEED = 1410
"""Seed of ``hashtextextended`` for the tables' advisory lock keys (a table's key: its id hashed)."""

LOCK_KEY = f"hashtextextended(k, {KEY_SEED})"

HELD_KEYS = """
    SELECT (l.classid::bigint << 32) | l.objid::bigint AS key
    FROM pg_locks l JOIN pg_database d ON d.oid = l.database
    WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted AND d.datname = current_database()"""

ORPHANS = f"""
    WITH held AS ({HELD_KEYS})
    SELECT g.id, g.rev FROM games g
    WHERE g.status = 'running' AND hashtextextended(g.id, {KEY_SEED}) NOT IN (SELECT key FROM held)"""
"""Running tables whose advisory lock no process holds (only some of them need one)."""

PROCESS_SEED = 1411
"""Seed of ``hashtextextended`` for the processes' own advisory lock keys (a process's key: its
origin hashed; held while the process lives)."""

ALIVE = f"""
    WITH held AS ({HELD_KEYS})
    SELECT o FROM unnest(%s::text[]) AS o WHERE hashtextextended(o, {PROCESS_SEED}) IN (SELECT key FROM held)"""
"""Of the given processes (origins), those alive: holding their own lock."""

PRESENCE_REFRESH = 30.0
"""Seconds between two announcements of every seat connected to a process (a note lost is made up for)."""

PRESENCE_TTL = 2.5 * PRESENCE_REFRESH
"""Seconds after which what a process said of a table's seats is forgotten unless said again."""


class Cluster:
    """This process's part in a cluster of server processes (nothing to do when it is alone).

    ``enabled``: PostgreSQL with ``settings.cluster`` on. Until :meth:`start` (a service used
    without its app, in tests) the process behaves as if alone.
    """

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store
        self.settings = service.settings
        self.enabled = self.store.notify
        self.started = False
        self.owned: set[str] = set()
        """The tables whose bots and clock this process runs (it holds their advisory locks)."""
        self._info = conninfo(self.store.engine.url) if self.enabled else ""
        self._locks: psycopg.AsyncConnection[Any] | None = None
        self._mutex = asyncio.Lock()
        self._next_connect = 0.0
        self._tasks: list[asyncio.Task[None]] = []
        self._listening = asyncio.Event()
        self._refreshing: set[str] = set()
        self._again: set[str] = set()
        self._idle: dict[str, int] = {}
        """Tables found needing no process at a rev (the sweep reads them again only once changed)."""
        self._orphans: dict[str, int] | None = None
        """The tables the last sweep found with no process, at their rev (None: no sweep yet)."""
        self._elsewhere: dict[str, float] = {}
        """Tables another process held when last asked, until when not to ask again (loop time)."""
        self._broken: set[str] = set()
        """Tables that do not load here (left to the log; not tried again by the sweep)."""
        self._said: dict[str, frozenset[int]] = {}
        """Per table: the seats this process last announced as connected here (none: not listed)."""
        self._heard: dict[str, dict[str, tuple[frozenset[int], float]]] = {}
        """Per table, per other process (origin): the seats connected there, and when that was heard (loop time)."""
        self._next_refresh = 0.0
        """When (loop time) to announce every seat connected here again."""

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        """Listen for other processes' commits and take over the tables that need a process."""
        self.started = True
        if not self.enabled:
            return
        self._tasks.append(asyncio.create_task(self._listen()))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._listening.wait(), timeout=10)
        try:
            await self.sweep()  # the tables waiting for a bot or a clock: resumed here
        except Exception:
            log.exception("the first sweep for tables to run failed; the next one tries again")
        self._announce(f"q {self.store.origin}")  # the others: which seats are connected there
        self._tasks.append(asyncio.create_task(self._sweeper()))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()
        conn, self._locks = self._locks, None
        self.owned.clear()
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()  # PostgreSQL lets go of the tables' locks

    # ------------------------------------------------------------------ who runs a table
    def runs(self, game_id: str) -> bool:
        """True if this process runs the table's bots and clock (always, when it is alone)."""
        return not self.enabled or not self.started or game_id in self.owned

    async def own(self, live: LiveGame) -> bool:
        """Whether this process runs ``live``'s bots and clock now: it does already, or the table
        needs a process (:func:`~tablero.server.upkeep.needs_server`) and nobody holds it."""
        gid = live.stored.id
        if self.runs(gid):
            return True
        now = asyncio.get_running_loop().time()
        if not upkeep.needs_server(live.stored) or self._elsewhere.get(gid, 0.0) > now:
            return False
        if gid in await self._take([gid]):
            return True
        # another process holds it: not asked again for a while (a person's moves here kick the
        # bots every time); if that process dies, the sweep takes the table over
        self._elsewhere[gid] = now + self.settings.cluster_sweep_seconds
        if len(self._elsewhere) > 10_000:
            self._elsewhere = {k: t for k, t in self._elsewhere.items() if t > now}
        return False

    async def _connection(self) -> psycopg.AsyncConnection[Any] | None:
        """The connection that holds this process's locks (opened again, at most once a second,
        after it was lost)."""
        if self._locks is not None and not self._locks.closed:
            return self._locks
        loop = asyncio.get_running_loop()
        if loop.time() < self._next_connect:
            return None
        self._next_connect = loop.time() + 1.0
        try:
            conn = await psycopg.AsyncConnection.connect(self._info, autocommit=True)
            # this process's own lock: the others know it lives while it holds it (see here())
            await conn.execute(f"SELECT pg_try_advisory_lock(hashtextextended(%s, {PROCESS_SEED}))".encode(),
                               (self.store.origin,))
        except psycopg.Error as exc:
            log.warning("no connection for the tables' locks (%s); this process runs no bots until there is", exc)
            return None
        self._locks = conn
        self._next_refresh = 0.0  # the others may have taken this process for dead: say again who is here
        return self._locks

    async def _lost(self, exc: BaseException) -> None:
        """The locks' connection failed: PostgreSQL let go of every lock it held."""
        if self.owned:
            log.warning("the connection holding %d table lock(s) failed (%s); other processes may take them",
                        len(self.owned), exc)
        self.owned.clear()
        conn, self._locks = self._locks, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()

    async def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]] | None:
        """Rows of ``sql`` on the locks' connection, or None if there is none (under ``_mutex``)."""
        conn = await self._connection()
        if conn is None:
            return None
        try:
            cur = await conn.execute(sql.encode(), params)  # our own SQL (no query parameters in it)
            return await cur.fetchall() if cur.description else []
        except psycopg.Error as exc:
            await self._lost(exc)
            return None

    async def _take(self, ids: Sequence[str]) -> set[str]:
        """Take the locks of the tables ``ids`` that nobody holds; the ones held here now."""
        async with self._mutex:
            want = sorted({i for i in ids if i not in self.owned})
            if want:
                rows = await self._query(f"SELECT k, pg_try_advisory_lock({LOCK_KEY}) FROM unnest(%s::text[]) AS k",
                                         (want,))
                self.owned |= {str(k) for k, ok in rows or () if ok}
            return {i for i in ids if i in self.owned}

    async def let_go(self, ids: Sequence[str]) -> None:
        """Stop running the tables ``ids`` here: their locks are free for other processes."""
        async with self._mutex:
            mine = sorted({i for i in ids if i in self.owned})
            if not mine:
                return
            self.owned.difference_update(mine)
            if self._locks is not None:
                await self._query(f"SELECT pg_advisory_unlock({LOCK_KEY}) FROM unnest(%s::text[]) AS k", (mine,))

    # ------------------------------------------------------------------ the sweep
    async def _sweeper(self) -> None:
        while True:
            await asyncio.sleep(self.settings.cluster_sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep for tables to run failed; it runs again")

    async def sweep(self) -> int:
        """Let go of the tables this process no longer has in memory (or that ended), then take
        over the running tables that need a process and have none; returns how many it took."""
        service = self.service
        done = [gid for gid in self.owned  # (an ended table's last commit may still be under way)
                if (live := service.live.get(gid)) is None or (live.match.is_over() and not live.lock.locked())]
        if done:
            await self.let_go(done)
        await self._compare()
        await self._presence_sweep()
        async with self._mutex:
            found = await self._query(ORPHANS)
        if found is None:
            return 0  # no connection to the database now
        revs = {str(gid): int(rev) for gid, rev in found}
        # Only a table that had no process at the same rev one sweep ago too: a table just made
        # has none for a moment, until its process takes it (the first sweep takes them all).
        before, self._orphans = self._orphans, revs
        look = [gid for gid, rev in revs.items() if (before is None or before.get(gid) == rev)
                and self._idle.get(gid) != rev and gid not in self._broken]
        self._idle = {gid: rev for gid, rev in self._idle.items() if revs.get(gid) == rev}
        if not look:
            return 0
        async with self._mutex:
            rows = await self._query("SELECT id, status, seats, settings, deadlines FROM games WHERE id = ANY(%s)",
                                     (look,))
        need = []
        for gid, status, seats, settings, deadlines in rows or ():
            row = StoredGame(id=gid, game="", created=0.0, updated=0.0, status=status, players=[], options={},
                             seed=0, seats=list(seats or []), admin_hash="", settings=dict(settings or {}),
                             deadlines=dict(deadlines or {}), rematch=None, version=0)  # what needs_server reads
            if upkeep.needs_server(row):
                need.append(gid)
            else:
                self._idle[gid] = revs[gid]
        taken = 0
        for gid in sorted(await self._take(need)) if need else ():
            if gid in self.owned and await self._run_here(gid):
                taken += 1
            await asyncio.sleep(0)  # the event loop serves others between two loads
        if taken:
            log.info("this process took over %d table(s) that had no process", taken)
        return taken

    async def _compare(self) -> None:
        """Tables in memory older than the store (a note that never came: its sender died right
        after the commit, or nobody listened then) are brought up to date."""
        loaded = list(self.service.live)
        if not loaded:
            return
        async with self._mutex:
            rows = await self._query("SELECT id, rev FROM games WHERE id = ANY(%s)", (loaded,))
        for gid, rev in rows or ():
            live = self.service.live.get(gid)
            if live is not None and int(rev) > live.stored.rev:
                self.refresh_soon(live)

    async def _run_here(self, gid: str) -> bool:
        """Run a table whose lock this process just took: loaded (or brought up to date) and its
        bots set going. A table that does not load is let go and left to the log."""
        service = self.service
        try:
            live = service.live.get(gid)
            if live is None:
                service.get(gid)  # loads it, saves what the replay added, kicks its bots
            else:
                await self.refresh(live)
                service._kick_bots(live)
        except Exception as exc:
            log.warning("table %s was not taken over: %s", gid, exc)
            if isinstance(exc, TableroError):  # it does not load (a database error: the next sweep tries again)
                self._broken.add(gid)
            await self.let_go([gid])
            return False
        return True

    # ------------------------------------------------------------------ who is connected where
    def here(self, live: LiveGame) -> None:
        """Announce the seats this process's connections hold at ``live`` if they changed since
        last said (the service calls this with every update it sends a table)."""
        if not (self.enabled and self.started):
            return
        gid = live.stored.id
        seats = frozenset(s for c in live.conns for s in c.seats)
        if self._said.get(gid, frozenset()) != seats:
            if seats:
                self._said[gid] = seats
            else:
                self._said.pop(gid, None)
            self._announce(_presence_note(gid, self.store.origin, seats))

    def elsewhere(self, gid: str) -> frozenset[int]:
        """The seats of table ``gid`` that connections of other live processes hold."""
        return frozenset(s for seats, _ in self._heard.get(gid, {}).values() for s in seats)

    def _announce(self, note: str) -> None:
        if self.store.aio is not None:
            self.store.aio.announce(note)

    def _said_again(self) -> None:
        """Every seat connected here, announced again."""
        self._next_refresh = asyncio.get_running_loop().time() + PRESENCE_REFRESH
        for gid, seats in list(self._said.items()):
            self._announce(_presence_note(gid, self.store.origin, seats))

    def _heard_presence(self, gid: str, origin: str, seats: frozenset[int]) -> None:
        told = self._heard.setdefault(gid, {})
        if seats:
            told[origin] = (seats, asyncio.get_running_loop().time())
        else:
            told.pop(origin, None)
        if not told:
            del self._heard[gid]
        self._apply_presence(gid)

    def _apply_presence(self, gid: str) -> None:
        """The table in memory (if it is) learns which of its seats are connected elsewhere: a
        seat no connection holds any more anywhere is away from now on; viewers are told."""
        live = self.service.live.get(gid)
        if live is None:
            return
        now_elsewhere = self.elsewhere(gid)
        before, live.elsewhere = live.elsewhere, now_elsewhere
        if now_elsewhere == before:
            return
        here = {s for c in live.conns for s in c.seats}
        for seat in now_elsewhere - before:
            live.away_since.pop(seat, None)
        for seat in before - now_elsewhere - here:
            live.away_since[seat] = self.service.clock()
        self.service._spawn(self.service._broadcast(live))

    async def _presence_sweep(self) -> None:
        """Forget what dead processes (their lock gone) said, and what was not said again for
        :data:`PRESENCE_TTL`; say again every seat connected here when it is time."""
        now = asyncio.get_running_loop().time()
        if now >= self._next_refresh:
            self._said_again()
        origins = sorted({o for told in self._heard.values() for o in told})
        if not origins:
            return
        async with self._mutex:
            rows = await self._query(ALIVE, (origins,))
        alive = None if rows is None else {str(o) for (o,) in rows}  # None: not known now
        for gid, told in list(self._heard.items()):
            gone = [o for o, (_, at) in told.items()
                    if now - at > PRESENCE_TTL or (alive is not None and o not in alive)]
            if gone:
                for o in gone:
                    del told[o]
                if not told:
                    del self._heard[gid]
                self._apply_presence(gid)

    # ------------------------------------------------------------------ hearing other processes
    async def _listen(self) -> None:
        """Hear every commit of the other processes (``LISTEN``), for ever; after the connection
        was lost, compare every table in memory with the store."""
        delay = 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self._info, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}".encode())
                    delay = 0.5
                    if self._listening.is_set():
                        await self._compare()  # what was committed while nobody listened
                        self._announce(f"q {self.store.origin}")  # and who connected where meanwhile
                    self._listening.set()
                    async for note in conn.notifies():
                        self.heard(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("not listening to the other processes' commits (%s); trying again", exc)
            await asyncio.sleep(delay)
            delay = min(10.0, delay * 2)


    def heard(self, payload: str) -> None:
        """One notification: ``g <id> <rev> <origin>`` (a game's row changed), ``c <id> <origin>
        <line>`` (a chat line), ``p <id> <origin> <seats>`` (the seats connected to a process, see
        :meth:`here`) or ``q <origin>`` (a new process asks who is connected where); this
        process's own are skipped."""
        kind, _, rest = payload.partition(" ")
        try:
            if kind == "g":
                gid, rev, origin = rest.split(" ")
                if origin != self.store.origin:
                    self._changed(gid, int(rev))
            elif kind == "c":
                gid, origin, line = rest.split(" ", 2)
                if origin != self.store.origin:
                    self._chat(gid, line)
            elif kind == "p":
                gid, origin, seats = rest.split(" ")
                if origin != self.store.origin:
                    self._heard_presence(gid, origin, frozenset(int(x) for x in seats.split(",") if x != "-"))
            elif kind == "q" and rest != self.store.origin:
                self._said_again()
        except ValueError:
            log.warning("a notification that does not read: %r", payload[:200])

    def _changed(self, gid: str, rev: int) -> None:
        live = self.service.live.get(gid)
        if live is None:
            if gid in self.owned:  # held but no longer in memory here: free it for the process that acts
                self.service._spawn(self.let_go([gid]))
            return
        if rev > live.stored.rev:
            self.refresh_soon(live)

    def _chat(self, gid: str, line: str) -> None:
        live = self.service.live.get(gid)
        if live is None or not live.conns:
            return
        text = json.dumps({"type": "chat", **json.loads(line)})
        self.service._spawn(_tell(list(live.conns), text))

    def refresh_soon(self, live: LiveGame) -> None:
        """:meth:`refresh` ``live`` in a task of its own; notes coming meanwhile make one more."""
        gid = live.stored.id
        if gid in self._refreshing:
            self._again.add(gid)
            return
        self._refreshing.add(gid)
        self.service._spawn(self._refresh_until_current(live))

    async def _refresh_until_current(self, live: LiveGame) -> None:
        gid = live.stored.id
        try:
            while True:
                self._again.discard(gid)
                await self.refresh(live)
                if gid not in self._again:
                    return
        finally:
            self._refreshing.discard(gid)
            self._again.discard(gid)

    async def refresh(self, live: LiveGame) -> None:
        """Bring ``live`` up to the store: the row as stored, the entries after the ones it has
        applied to the match (a full reload only if they do not replay); then its connections
        are told, seats whose tokens no longer hold them are taken from their connections, and
        the table's bots are set going (if this process runs them)."""
        service = self.service
        gid = live.stored.id
        async with live.lock:
            if service.live.get(gid) is not live:
                return
            have = len(live.stored.entries)
            row = await self.store.load_tail_async(gid, have)
            stored = live.stored
            if row is None or row.rev <= stored.rev or len(stored.entries) != have:
                return
            names, chat_state = list(stored.players), chat.state_json(stored)
            tail = row.entries[:max(0, row.version - have)]  # the row read first: its entries, no later ones
            try:
                if row.version < have:
                    raise ValueError(f"the store has {row.version} entries, this process {have}")
                live.match.replay_more(tail)
            except Exception:
                log.exception("table %s does not catch up with the store; it is loaded again", gid)
                if not service._restore(live):
                    return
            else:
                for f in dataclasses.fields(StoredGame):
                    if f.name not in ("entries", "writing"):
                        setattr(stored, f.name, getattr(row, f.name))
                stored.entries = stored.entries + tail
                live.match.record.players[:] = stored.players
                with contextlib.suppress(Conflict):  # changed again meanwhile: its notification follows
                    service._settle(live)  # forced steps the replay added, if any (none as a rule)
            if live.stored.players != names:
                live.translators.clear()
                service._resend_logs(live)
            live.touch()
        await self._drop_revoked(live)
        if chat.state_json(live.stored) != chat_state:
            await _tell(list(live.conns), json.dumps(chat.state_json(live.stored)))
        await service._broadcast(live)
        service._kick_bots(live)

    async def _drop_revoked(self, live: LiveGame) -> None:
        """Seats held here by tokens that no longer hold them (another process rotated or revoked
        them): the connection hears ``revoked`` and watches as a spectator."""
        now = self.service.clock()
        for conn in list(live.conns):
            gone = []
            for seat in sorted(conn.seats):
                token = seatkeys.held_with(conn, seat)
                if token is not None and seatkeys.token_seat(live.stored.seats, seatkeys.key_hash(token), now,
                                                             self.settings) != seat:
                    gone.append(seat)
            if gone:
                conn.seats = conn.seats - set(gone)
                for seat in gone:
                    conn.sent.pop(seat, None)
                    conn.notes_sent.pop(seat, None)
                    if not live.connected(seat):
                        live.away_since.setdefault(seat, now)
                await _tell([conn], json.dumps({"type": "revoked", "seats": gone}))


def _presence_note(gid: str, origin: str, seats: frozenset[int]) -> str:
    return f"p {gid} {origin} {','.join(map(str, sorted(seats))) or '-'}"


async def _tell(conns: Sequence[Any], text: str) -> None:
    for conn in conns:
        with contextlib.suppress(Exception):
            await conn.send(text)


# ---------------------------------------------------------------------------- SQLite: one process
def sqlite_guard(url: str) -> int | None:
    """Take the lock file beside a SQLite database (``<file>-serve.lock``) for this process: the
    open file's descriptor (the lock lasts while it is open, and ends with the process however it
    ends), or None for other databases. Raises RuntimeError if another process holds it. SQLite
    has no notifications and no advisory locks: a second process on the file would run the same
    bots and never tell its players of the first one's moves."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    path = Path(u.database + "-serve.lock").resolve()
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise RuntimeError(f"another tablero serve runs on {u.database}; SQLite serves one process "
                           "(several run on PostgreSQL: docs/deploy.md, 'More than one process')") from None
    return fd
