"""Storage: the record of actions, one code path for SQLite and PostgreSQL (SQLAlchemy Core).

What is stored is what the core calls a game record — the players, options, seed and every
applied entry — plus the table's seating (who holds which seat, by token hash), its settings
and its chat (a table of its own, never part of the record). A game is rebuilt after a restart
by replaying its entries (:meth:`~tablero.core.match.Match.from_record`). Each accepted action
is committed in one transaction with the game row before anybody is told of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

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
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

DEFAULT_URL = "sqlite:///tablero.db"

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("status", String(16), nullable=False),  # running | over
    Column("players", JSON, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("admin_hash", String(64), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("deadlines", JSON, nullable=False),
    Column("rematch", String(40), nullable=True),
    Column("version", Integer, nullable=False),
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


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL mode so readers never wait for the writer."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)


class Store:
    """Games and their entries in one database."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = url
        self.engine = make_engine(url)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create(self, g: StoredGame) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(games).values(**_row(g)))
            if g.entries:
                conn.execute(insert(entries), _entry_rows(g.id, 0, g.entries))

    def append(self, g: StoredGame, start: int) -> None:
        """Commit entries ``start..`` of ``g`` together with its row (one transaction)."""
        with self.engine.begin() as conn:
            new = g.entries[start:]
            if new:
                conn.execute(insert(entries), _entry_rows(g.id, start, new))
            values = _row(g)
            del values["id"]
            conn.execute(update(games).where(games.c.id == g.id).values(**values))

    def save_row(self, g: StoredGame) -> None:
        """Commit a change of seating, deadlines or status (no new entries)."""
        self.append(g, len(g.entries))

    def load(self, game_id: str) -> StoredGame | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            rows = conn.execute(
                select(entries.c.actor, entries.c.text).where(entries.c.game_id == game_id).order_by(entries.c.idx)
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

    # ---- chat parts (tablero.server.chat)
    def add_chat_line(self, game_id: str, seat: int | None, name: str, text: str, time: float) -> ChatLine:
        """Store one chat message as the table's next (one transaction); returns it with its number."""
        with self.engine.begin() as conn:
            last = conn.execute(select(func.max(chat_lines.c.idx)).where(chat_lines.c.game_id == game_id)).scalar()
            line = ChatLine(idx=0 if last is None else int(last) + 1, seat=seat, name=name, text=text, time=time)
            conn.execute(insert(chat_lines).values(game_id=game_id, idx=line.idx, seat=seat, name=name, text=text,
                                                   time=time))
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
    )


def _entry_rows(game_id: str, start: int, items: list[tuple[int, str]]) -> list[dict[str, Any]]:
    return [{"game_id": game_id, "idx": start + i, "actor": a, "text": t} for i, (a, t) in enumerate(items)]
