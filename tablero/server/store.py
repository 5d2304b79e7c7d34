"""Storage: the record of actions, one code path for SQLite and PostgreSQL (SQLAlchemy Core).

What is stored is what the core calls a game record — the players, options, seed and every
applied entry — plus the table's seating (who holds which seat, by token hash), its settings
and its chat (a table of its own, never part of the record). A game is rebuilt after a restart
by replaying its entries (:meth:`~tablero.core.match.Match.from_record`). Each accepted action
is committed in one transaction with the game row before anybody is told of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, Connection, Engine, make_url

from tablero.core.errors import ErrorCode, TableroError
from tablero.server.settings import ServerSettings

DEFAULT_URL = "sqlite:///tablero.db"


def database_url(given: str | None = None) -> str:
    """The database ``tablero serve`` (and backup, restore) uses: ``given``, else
    ``$TABLERO_DATABASE_URL``, else the SQLite file in the working directory."""
    return given or os.environ.get("TABLERO_DATABASE_URL") or DEFAULT_URL

log = logging.getLogger("tablero.server.store")

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("status", String(16), nullable=False),  # running | over | abandoned (tablero.server.upkeep)
    Column("players", JSON, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("admin_hash", String(64), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("deadlines", JSON, nullable=False),
    Column("rematch", String(40), nullable=True),
    Column("version", Integer, nullable=False),
    # every committed change of the row counts one (entries, seating, settings): a write names the
    # rev it read, so two server processes never overwrite each other (tablero.server.cluster)
    Column("rev", Integer, nullable=False, server_default="0"),
)

entries = Table(
    "entries",
    metadata,
    Column("game_id", String(40), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("actor", Integer, nullable=False),
    Column("text", Text, nullable=False),
)

chat_lines = Table(
    "chat",
    metadata,
    Column("game_id", String(40), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=True),  # None: a spectator
    Column("name", String(40), nullable=False),
    Column("text", Text, nullable=False),
    Column("time", Float, nullable=False),
)
"""The table's chat (tablero.server.chat): one row per message, numbered per game from 0.

A table of its own rather than a list in the game's ``settings`` JSON: a message is one small
INSERT (the game row, rewritten with every move, does not grow), the newest messages are one
indexed query, and nothing in it is ever read back by a replay of the record."""


@dataclass
class ChatLine:
    """One chat message as stored: its number in the table's chat, the seat (None: a spectator)."""

    idx: int
    seat: int | None
    name: str
    text: str
    time: float


@dataclass
class StoredGame:
    id: str
    game: str
    created: float
    updated: float
    status: str
    players: list[str]
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    admin_hash: str
    settings: dict[str, Any]
    deadlines: dict[str, float]
    rematch: str | None
    version: int
    entries: list[tuple[int, str]] = field(default_factory=list)
    rev: int = 0
    """The row's revision as last read or written here (see ``games.c.rev``)."""
    writing: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    """Held while a write of this row is under way on the event loop (:meth:`Store.append_async`)."""


class Conflict(TableroError):
    """A write found the game's row changed since this process read it: another server process
    wrote it first (:mod:`tablero.server.cluster`). Nothing was written."""

    code = ErrorCode.STALE


CHANNEL = "tablero_games"
"""PostgreSQL's ``NOTIFY`` channel of committed changes: ``g <game id> <rev> <origin>`` after a
game's row changed, ``c <game id> <origin> <chat line JSON>`` after a chat message
(:mod:`tablero.server.cluster` listens)."""


def make_engine(url: str, synchronous: str = "FULL") -> Engine:
    """An engine for ``url``; SQLite gets WAL mode so readers never wait for the writer, and
    ``PRAGMA synchronous`` = ``synchronous`` (:attr:`ServerSettings.sqlite_synchronous`)."""
    if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"sqlite synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={synchronous.upper()}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)


def migrate(engine: Engine) -> None:
    """Bring a database made by an earlier tablero up to these tables (after ``create_all``, which
    adds missing tables but no missing columns): ``games.rev``, every row at revision 0."""
    if "rev" in {c["name"] for c in inspect(engine).get_columns("games")}:
        return
    exists = "IF NOT EXISTS " if engine.dialect.name == "postgresql" else ""
    try:
        with engine.begin() as conn:
            conn.execute(text(f"ALTER TABLE games ADD COLUMN {exists}rev INTEGER NOT NULL DEFAULT 0"))
    except Exception:  # another process added it at the same moment
        if "rev" not in {c["name"] for c in inspect(engine).get_columns("games")}:
            raise


class Store:
    """Games and their entries in one database."""

    def __init__(self, url: str = DEFAULT_URL, *, settings: ServerSettings | None = None) -> None:
        self.url = url
        self.settings = settings if settings is not None else ServerSettings()
        self.engine = make_engine(url, self.settings.sqlite_synchronous)
        metadata.create_all(self.engine)
        migrate(self.engine)
        self.postgres = self.engine.dialect.name == "postgresql"
        self.notify = self.postgres and self.settings.cluster
        """Every commit tells the other server processes (``NOTIFY`` on :data:`CHANNEL`)."""
        self.origin = secrets.token_hex(6)
        """This process's name in its notifications (its own are skipped when they come back)."""
        self.aio = AsyncPostgres(self.engine.url, self.notify, self.origin) if self.postgres else None
        """PostgreSQL: the connections for writes and reads awaited on the event loop."""
        self._later: set[asyncio.Task[None]] = set()

    def close(self) -> None:
        if self.aio is not None:
            self.aio.close_now()
        self.engine.dispose()

    async def aclose(self) -> None:
        """Wait for the writes put off (:meth:`append`) and close the event loop's connections."""
        if self._later:
            await asyncio.gather(*list(self._later), return_exceptions=True)
        if self.aio is not None:
            await self.aio.close()

    def create(self, g: StoredGame) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(**_row(g), rev=g.rev))
            if g.entries:
                conn.execute(insert(entries), _entry_rows(g.id, 0, g.entries))

    def append(self, g: StoredGame, start: int) -> None:
        """Commit entries ``start..`` of ``g`` together with its row (one transaction), on the
        condition that the row is still at ``g.rev`` (then it is at ``g.rev + 1``). If another
        process wrote the row since, nothing is written and :class:`Conflict` is raised. Entries
        are only ever added, never changed; a commit is announced to the other processes.

        While a write of the same row is under way on the event loop (:meth:`append_async`, which
        holds the row's lock in PostgreSQL until it commits), this one is put off until right
        after it and returns at once: waiting here would stop the loop that write needs."""
        if g.writing.locked() and _in_event_loop():
            self._put_off(g, start)
            return
        note = f"g {g.id} {g.rev + 1} {self.origin}"
        later = self.notify and self.aio is not None and _in_event_loop()  # the note after the commit (AsyncPostgres)
        with self.engine.begin() as conn:
            values = {f"v_{k}": v for k, v in _row(g).items()}
            values.update(v_rev_was=g.rev, v_rev=g.rev + 1, v_note=note)
            if self.notify and not later:  # the announcement in the same statement
                changed = len(conn.execute(_UPDATE_NOTIFY, values).all())
            else:
                changed = conn.execute(_UPDATE, values).rowcount
            if changed != 1:
                raise Conflict(f"table {g.id} was changed by another server process (rev {g.rev} is gone)")
            new = g.entries[start:]
            if new:
                conn.execute(insert(entries), _entry_rows(g.id, start, new))
        g.rev += 1
        if later and self.aio is not None:
            self.aio.announce(note)

    async def append_async(self, g: StoredGame, start: int) -> None:
        """:meth:`append`, awaited: on PostgreSQL the statements go out on connections of the
        event loop (:class:`AsyncPostgres`), so the loop serves the other tables while the database
        works; on SQLite (one process, a local file) it is :meth:`append`. What is written is ``g``
        as it is when this is called."""
        if self.aio is None:
            self.append(g, start)
            return
        async with g.writing:
            await self.aio.append(g, start)

    def _put_off(self, g: StoredGame, start: int) -> None:
        async def later() -> None:
            try:
                await self.append_async(g, start)
            except Conflict:
                log.warning("table %s: a change put off behind another was not saved: another process "
                            "changed the table first", g.id)
            except Exception:
                log.exception("table %s: a change put off behind another could not be saved", g.id)

        task = asyncio.get_running_loop().create_task(later())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def load_tail_async(self, game_id: str, start: int) -> StoredGame | None:
        """:meth:`load_tail`, awaited on the event loop's connections (PostgreSQL; SQLite: a thread)."""
        if self.aio is None:
            return await asyncio.to_thread(self.load_tail, game_id, start)
        return await self.aio.load_tail(game_id, start)

    def save_row(self, g: StoredGame) -> None:
        """Commit a change of seating, deadlines or status (no new entries)."""
        self.append(g, len(g.entries))

    def _notify(self, conn: Connection, payload: str) -> None:
        """Tell the other server processes, when this transaction commits (PostgreSQL)."""
        if self.notify:
            conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload})

    def load(self, game_id: str) -> StoredGame | None:
        g = self.load_tail(game_id, 0)
        if g is not None:  # the row's own entries: another process may have committed more between the two reads
            del g.entries[g.version:]
        return g

    def load_tail(self, game_id: str, start: int) -> StoredGame | None:
        """The game's row with only its entries from ``start`` on (in ``entries``): what a process
        that holds the first ``start`` entries needs to catch up (:mod:`tablero.server.cluster`)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            rows = conn.execute(
                select(entries.c.actor, entries.c.text)
                .where(entries.c.game_id == game_id, entries.c.idx >= start).order_by(entries.c.idx)
            ).all()
        g = _from_row(dict(row))
        g.entries = [(int(a), str(t)) for a, t in rows]
        return g

    def ids(self, status: str | None = None) -> list[str]:
        q = select(games.c.id).order_by(games.c.created)
        if status is not None:
            q = q.where(games.c.status == status)
        with self.engine.connect() as conn:
            return [str(r[0]) for r in conn.execute(q)]

    def rows(self, status: str | None = None, *, updated_before: float | None = None) -> list[StoredGame]:
        """The games' rows without their entries (``entries`` empty, ``version`` as stored), oldest
        first: what start-up and the abandoned-table sweep read instead of replaying games. Never
        save such a row back (its entries are not there)."""
        q = select(games).order_by(games.c.created)
        if status is not None:
            q = q.where(games.c.status == status)
        if updated_before is not None:
            q = q.where(games.c.updated < updated_before)
        with self.engine.connect() as conn:
            return [_from_row(dict(r)) for r in conn.execute(q).mappings()]

    def set_status(self, ids: Sequence[str], status: str, *, was: str) -> int:
        """Give the games ``ids`` whose status is still ``was`` the status ``status`` (one
        transaction); returns how many changed."""
        changed = 0
        ids = list(ids)
        with self.engine.begin() as conn:
            for i in range(0, len(ids), 500):
                q = (update(games).where(games.c.id.in_(ids[i:i + 500]), games.c.status == was)
                     .values(status=status, rev=games.c.rev + 1).returning(games.c.id, games.c.rev))
                for gid, rev in conn.execute(q).all():
                    changed += 1
                    self._notify(conn, f"g {gid} {rev} {self.origin}")
        return changed

    # ---- chat parts (tablero.server.chat)
    def add_chat_line(self, game_id: str, seat: int | None, name: str, text: str, time: float) -> ChatLine:
        """Store one chat message as the table's next (one transaction); returns it with its number."""
        with self.engine.begin() as conn:
            last = conn.execute(select(func.max(chat_lines.c.idx)).where(chat_lines.c.game_id == game_id)).scalar()
            line = ChatLine(idx=0 if last is None else int(last) + 1, seat=seat, name=name, text=text, time=time)
            conn.execute(insert(chat_lines).values(game_id=game_id, idx=line.idx, seat=seat, name=name, text=text,
                                                   time=time))
            self._notify(conn, f"c {game_id} {self.origin} " + json.dumps(
                {"i": line.idx, "seat": seat, "name": name, "text": text, "time": time}))
        return line

    def chat_history(self, game_id: str, limit: int) -> list[ChatLine]:
        """The table's newest ``limit`` chat messages, oldest first."""
        q = (select(chat_lines.c.idx, chat_lines.c.seat, chat_lines.c.name, chat_lines.c.text, chat_lines.c.time)
             .where(chat_lines.c.game_id == game_id).order_by(chat_lines.c.idx.desc()).limit(limit))
        with self.engine.connect() as conn:
            rows = conn.execute(q).all()
        return [ChatLine(idx=int(i), seat=None if s is None else int(s), name=str(n), text=str(t), time=float(tm))
                for i, s, n, t, tm in reversed(rows)]

    def recent(self, limit: int = 50) -> Iterator[StoredGame]:
        q = select(games).order_by(games.c.updated.desc()).limit(limit)
        with self.engine.connect() as conn:
            rows = [dict(r) for r in conn.execute(q).mappings()]
        for r in rows:
            yield _from_row(r)


_UPDATE = (update(games).where(games.c.id == bindparam("v_id"), games.c.rev == bindparam("v_rev_was"))
           .values({c.name: bindparam(f"v_{c.name}", type_=c.type) for c in games.columns if c.name != "id"}))
"""A game's row written if it is still at the rev read (built once: SQLAlchemy caches its SQL)."""
_UPDATE_NOTIFY = _UPDATE.returning(func.pg_notify(CHANNEL, bindparam("v_note", type_=Text)))


def conninfo(url: str | URL) -> str:
    """A libpq connection string (URL) from a SQLAlchemy URL (``postgresql+psycopg://…``)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False  # another thread (a script, a test): waiting for the row's lock stops no loop
    return True


# ---------------------------------------------------------------------------- PostgreSQL on the event loop
_GAME_COLUMNS = list(games.columns)
_PG_SET = ", ".join(f"{c.name} = %({c.name})s" + ("::json" if isinstance(c.type, JSON) else "")
                    for c in _GAME_COLUMNS if c.name != "id")
_PG_COMMIT = f"""
WITH up AS (
    UPDATE games SET {_PG_SET} WHERE id = %(id)s AND rev = %(rev_was)s RETURNING id
), ins AS (
    INSERT INTO entries (game_id, idx, actor, text)
    SELECT up.id, e.idx, e.actor, e.text
    FROM up, unnest(%(idx)s::integer[], %(actor)s::integer[], %(text)s::text[]) AS e(idx, actor, text)
    RETURNING 1
)
SELECT (SELECT count(*) FROM up), (SELECT count(*) FROM ins)"""
"""A commit in one statement (one round trip, its own transaction): the row if it is still at the
rev read, then the new entries only if it was."""
_PG_NOTIFY = f"SELECT pg_notify('{CHANNEL}', n) FROM unnest(%s::text[]) AS n"
_PG_LOAD_TAIL = f"""
SELECT {', '.join(c.name for c in _GAME_COLUMNS)},
    ARRAY(SELECT actor FROM entries WHERE game_id = games.id AND idx >= %(start)s ORDER BY idx),
    ARRAY(SELECT text FROM entries WHERE game_id = games.id AND idx >= %(start)s ORDER BY idx)
FROM games WHERE id = %(id)s"""
"""A row and its entries from ``start`` on, in one statement (one snapshot, one round trip)."""


class AsyncPostgres:
    """A few psycopg connections used from the event loop: the moves' commits (and the catch-up
    reads of :mod:`tablero.server.cluster`) wait for the database without holding up the loop,
    and without a thread (a thread waiting for the interpreter behind a busy loop took tens of
    milliseconds per commit). The same SQL as :meth:`Store.append`, written for PostgreSQL.

    The announcements of these commits (``NOTIFY``) go out after them, gathered, on a connection
    of their own with ``synchronous_commit`` off: PostgreSQL lets one notifying transaction commit
    at a time (a lock held through its flush to disk), so a ``NOTIFY`` inside each commit would
    make every commit wait for the one before it. A note lost with its process is made up for by
    :mod:`tablero.server.cluster`, which compares the tables in memory with the store now and then."""

    SIZE = 4
    """Connections for commits and reads at most (commits of different tables overlap)."""

    def __init__(self, url: Any, notify: bool, origin: str) -> None:
        self._info = conninfo(url)
        self._notify = notify
        self._origin = origin
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._free: asyncio.Semaphore | None = None
        self._notes: list[str] = []
        self._wake: asyncio.Event | None = None
        self._notifier: asyncio.Task[None] | None = None
        self._notify_conn: psycopg.AsyncConnection[Any] | None = None

    def announce(self, note: str) -> None:
        """Send ``note`` on :data:`CHANNEL` soon (with others that come meanwhile)."""
        self._notes.append(note)
        if self._wake is None:
            self._wake = asyncio.Event()
        if self._notifier is None or self._notifier.done():
            self._notifier = asyncio.get_running_loop().create_task(self._announcing())
        self._wake.set()

    async def _announcing(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            notes, self._notes = self._notes, []
            if not notes:
                continue
            try:
                conn = self._notify_conn
                if conn is None or conn.closed:
                    conn = self._notify_conn = await psycopg.AsyncConnection.connect(self._info, autocommit=True)
                    await conn.execute(b"SET synchronous_commit = off")  # a note need not wait for the disk
                await conn.execute(_PG_NOTIFY.encode(), (notes,))
            except psycopg.Error as exc:
                log.warning("%d change note(s) to the other processes were not sent (%s)", len(notes), exc)
                self._notify_conn = None

    @contextlib.asynccontextmanager
    async def _connection(self, fresh: bool = False) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        if self._free is None:
            self._free = asyncio.Semaphore(self.SIZE)
        async with self._free:
            conn = None
            while not fresh and self._idle and conn is None:
                conn = self._idle.pop()
                if conn.closed:
                    conn = None
            if conn is None:
                conn = await psycopg.AsyncConnection.connect(self._info, autocommit=True)  # a statement: a transaction
            try:
                yield conn
            except BaseException:
                with contextlib.suppress(Exception):  # a statement cut off mid-way: the connection is not reused
                    await conn.close()
                raise
            self._idle.append(conn)

    async def _retrying(self, work: Any) -> Any:
        """``work(connection)``; a connection the database dropped while idle (a restart) is
        replaced once: the transaction did not commit, or committed and the retry meets its rev."""
        try:
            async with self._connection() as conn:
                return await work(conn)
        except psycopg.OperationalError:
            async with self._connection(fresh=True) as conn:
                return await work(conn)

    async def append(self, g: StoredGame, start: int) -> None:
        values = _row(g)
        for c in _GAME_COLUMNS:
            if isinstance(c.type, JSON):
                values[c.name] = json.dumps(values[c.name])
        rev = g.rev
        new = g.entries[start:]
        values.update(rev_was=rev, rev=rev + 1, note=f"g {g.id} {rev + 1} {self._origin}",
                      idx=list(range(start, start + len(new))), actor=[a for a, _ in new], text=[t for _, t in new])
        sql = _PG_COMMIT.encode()

        async def work(conn: psycopg.AsyncConnection[Any]) -> None:
            cur = await conn.execute(sql, values)
            row = await cur.fetchone()
            if row is None or row[0] != 1:
                raise Conflict(f"table {g.id} was changed by another server process (rev {rev} is gone)")
            if row[1] != len(new):  # cannot be: one statement inserts them all or fails
                raise RuntimeError(f"table {g.id}: {row[1]} of {len(new)} entries saved")

        await self._retrying(work)
        g.rev = rev + 1
        if self._notify:
            self.announce(values["note"])

    async def load_tail(self, game_id: str, start: int) -> StoredGame | None:
        async def work(conn: psycopg.AsyncConnection[Any]) -> StoredGame | None:
            cur = await conn.execute(_PG_LOAD_TAIL.encode(), {"id": game_id, "start": start})
            return _tail(await cur.fetchone())

        result: StoredGame | None = await self._retrying(work)
        return result

    async def close(self) -> None:
        if self._notifier is not None:
            self._notifier.cancel()
            with contextlib.suppress(BaseException):
                await self._notifier
            self._notifier = None
        notes, self._notes = self._notes, []
        if notes and self._notify_conn is not None:  # the last ones (a batch cut off is made up for: see above)
            with contextlib.suppress(psycopg.Error):
                await self._notify_conn.execute(_PG_NOTIFY.encode(), (notes,))
        for conn in self._let_go():
            with contextlib.suppress(Exception):
                await conn.close()

    def close_now(self) -> None:
        """Close the idle connections without the event loop (their sockets, at once)."""
        for conn in self._let_go():
            with contextlib.suppress(Exception):
                conn.pgconn.finish()

    def _let_go(self) -> list[psycopg.AsyncConnection[Any]]:
        """The idle connections and the notes' one, no longer this object's (to be closed)."""
        conns, self._idle = self._idle, []
        if self._notify_conn is not None:
            conns.append(self._notify_conn)
            self._notify_conn = None
        return conns


def _tail(row: Any) -> StoredGame | None:
    if row is None:
        return None
    n = len(_GAME_COLUMNS)
    g = _from_row(dict(zip([c.name for c in _GAME_COLUMNS], row[:n], strict=True)))
    g.entries = [(int(a), str(t)) for a, t in zip(row[n], row[n + 1], strict=True)]
    return g


def _row(g: StoredGame) -> dict[str, Any]:
    return {
        "id": g.id,
        "game": g.game,
        "created": g.created,
        "updated": g.updated,
        "status": g.status,
        "players": g.players,
        "options": g.options,
        "seed": g.seed,
        "seats": g.seats,
        "admin_hash": g.admin_hash,
        "settings": g.settings,
        "deadlines": g.deadlines,
        "rematch": g.rematch,
        "version": len(g.entries),
    }


def _from_row(r: dict[str, Any]) -> StoredGame:
    return StoredGame(
        id=r["id"],
        game=r["game"],
        created=r["created"],
        updated=r["updated"],
        status=r["status"],
        players=list(r["players"]),
        options=dict(r["options"]),
        seed=int(r["seed"]),
        seats=list(r["seats"]),
        admin_hash=r["admin_hash"],
        settings=dict(r["settings"]),
        deadlines=dict(r["deadlines"] or {}),
        rematch=r["rematch"],
        version=int(r["version"]),
        rev=int(r.get("rev") or 0),
    )


def _entry_rows(game_id: str, start: int, items: list[tuple[int, str]]) -> list[dict[str, Any]]:
    return [{"game_id": game_id, "idx": start + i, "actor": a, "text": t} for i, (a, t) in enumerate(items)]
