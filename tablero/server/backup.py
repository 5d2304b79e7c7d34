"""``tablero backup`` and ``tablero restore``: every table of the store as portable JSON lines.

A backup is a text file (gzip-compressed when its name ends with ``.gz``; ``-`` is standard
output or input) of JSON objects, one per line:

1. a header ``{"format": "tablero-backup", "version": 1, "created", "source", "tables", "counts"}``:
   ``tables`` names each table's columns in the order its rows give them, ``counts`` its rows;
2. one line per row, parents first (games, entries, chat): ``{"t": "entries", "r": [...]}``, the
   values in the header's column order (JSON columns as JSON, numbers as numbers);
3. a trailer ``{"end": true, "counts": {...}}``: a file cut short has none and is refused.

The dump reads one snapshot (a ``REPEATABLE READ`` read-only transaction on PostgreSQL, one read
transaction on SQLite's WAL), so it is consistent while the server runs and writes on; rows are
streamed (never the whole database in memory). A restore goes into an empty database of either
kind (the tables are created), in one transaction: it is all there or nothing is; into a
database with games only with ``force=True``, which replaces what is there.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, cast

from sqlalchemy import Table, delete, func, insert, inspect, select
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

from tablero.server.store import make_engine, metadata, migrate

FORMAT = "tablero-backup"
VERSION = 1
TABLES: tuple[Table, ...] = tuple(metadata.sorted_tables)
"""Every table of the store (games, entries, chat, and any added later), parents before children:
the order of the file and of a restore."""

BATCH = 500
"""Rows read per fetch and inserted per statement."""


class BackupError(Exception):
    """A backup or restore that cannot be done (the message says why); nothing was changed."""


def summary(counts: dict[str, int]) -> str:
    """``3 games, 120 record entries, 4 chat lines`` (tables added later by their names)."""
    words = {"games": "games", "entries": "record entries", "chat": "chat lines"}
    return ", ".join(f"{n} {words.get(name, name + ' rows')}" for name, n in counts.items())


@contextlib.contextmanager
def _database_errors() -> Iterator[None]:
    """A database that does not answer or refuses a statement, as a :class:`BackupError`."""
    try:
        yield
    except SQLAlchemyError as exc:
        cause = getattr(exc, "orig", None) or exc
        first = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
        raise BackupError(f"database error: {first}") from exc


# ---------------------------------------------------------------------------- backup
def dump_lines(engine: Engine) -> Iterator[str]:
    """The backup of the database behind ``engine``, line by line (no newlines), from one snapshot."""
    with _snapshot(engine) as conn:
        present = set(inspect(conn).get_table_names())
        missing = [t.name for t in TABLES if t.name not in present]
        if missing:
            raise BackupError(f"no tablero database here: table(s) {', '.join(missing)} missing")
        counts = {t.name: int(conn.execute(select(func.count()).select_from(t)).scalar_one()) for t in TABLES}
        # a database an earlier tablero made may lack a newer column (games.rev): its rows without it
        there = {t.name: {c["name"] for c in inspect(conn).get_columns(t.name)} for t in TABLES}
        columns = {t.name: [c for c in t.columns if c.name in there[t.name]] for t in TABLES}
        yield json.dumps({"format": FORMAT, "version": VERSION, "created": time.time(),
                          "source": engine.dialect.name,
                          "tables": {t.name: [c.name for c in columns[t.name]] for t in TABLES}, "counts": counts})
        written: dict[str, int] = {}
        for t in TABLES:
            n = 0
            q = select(*columns[t.name]).order_by(*t.primary_key.columns)
            for row in conn.execution_options(yield_per=BATCH).execute(q):
                yield json.dumps({"t": t.name, "r": list(row)}, ensure_ascii=False, allow_nan=False)
                n += 1
            written[t.name] = n
        if written != counts:  # a snapshot never changes: this is a bug, not a busy server
            raise BackupError(f"the database changed under the backup: counted {counts}, read {written}")
        yield json.dumps({"end": True, "counts": written})


@contextlib.contextmanager
def _snapshot(engine: Engine) -> Iterator[Connection]:
    """A connection inside one read-only snapshot of the whole database."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn = conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
            with conn.begin():
                yield conn
        return
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            # pysqlite opens no transaction for reads: without BEGIN each SELECT would see the
            # database as it is then. In WAL mode the read transaction never blocks the server.
            conn.exec_driver_sql("BEGIN")
        try:
            yield conn
        finally:
            conn.rollback()


def backup(url: str, file: str | Path) -> dict[str, int]:
    """Write the backup of the database at ``url`` to ``file`` (``.gz``: compressed; ``-``: standard
    output); returns the rows per table. The file appears under its name only when complete."""
    engine = _engine(url, must_exist=True)
    try:
        counts: dict[str, int] = {}
        with _database_errors(), _writer(str(file)) as out:
            for line in dump_lines(engine):
                out.write(line)
                out.write("\n")
                if line.startswith('{"end"'):
                    counts = json.loads(line)["counts"]
        return counts
    finally:
        engine.dispose()


@contextlib.contextmanager
def _writer(file: str) -> Iterator[IO[str]]:
    if file == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    path = Path(file)
    tmp = path.with_name(path.name + ".partial")
    try:
        with _open(tmp, "wt", gz=path.name.endswith(".gz")) as out:
            yield out
        with tmp.open("rb") as done:  # on disk before it takes the name
            os.fsync(done.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _open(path: Path, mode: str, *, gz: bool) -> IO[str]:
    if gz:
        return cast(IO[str], gzip.open(path, mode, encoding="utf-8"))
    return path.open(mode, encoding="utf-8")


# ---------------------------------------------------------------------------- restore
def restore_lines(engine: Engine, lines: Iterable[str], *, force: bool = False) -> dict[str, int]:
    """Restore a backup (its lines) into ``engine``'s database in one transaction; returns the rows
    per table. Refuses a database that holds games unless ``force`` (then its rows are replaced)."""
    metadata.create_all(engine)
    migrate(engine)
    it = iter(lines)
    header = _header(next(it, ""))
    with engine.begin() as conn:
        there = {t.name: int(conn.execute(select(func.count()).select_from(t)).scalar_one()) for t in TABLES}
        if any(there.values()):
            if not force:
                raise BackupError(f"the database is not empty ({there['games']} games, {there['entries']} "
                                  f"record entries, {there['chat']} chat lines): restore into an empty one, "
                                  "or force it to replace them")
            for t in reversed(TABLES):
                conn.execute(delete(t))
        counts = _insert_rows(conn, header, it)
    return counts


def _header(line: str) -> dict[str, Any]:
    try:
        header = json.loads(line)
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BackupError("this is no tablero backup (its first line is not a tablero-backup header)")
    if header.get("version") != VERSION:
        raise BackupError(f"backup format version {header.get('version')!r}; this tablero reads version {VERSION}")
    known = {t.name: t for t in TABLES}
    tables = header.get("tables")
    if not isinstance(tables, dict) or "games" not in tables or not set(tables) <= set(known):
        raise BackupError(f"the backup's tables are {sorted(tables or {})}; this tablero has {sorted(known)}")
    for name, columns in tables.items():
        have = {c.name for c in known[name].columns}
        if not isinstance(columns, list) or not set(columns) <= have:
            raise BackupError(f"table {name}: the backup's columns {columns} are not all columns of this tablero")
        for c in known[name].columns:
            if c.name not in columns and not c.nullable and c.server_default is None:  # games.rev: 0
                raise BackupError(f"table {name}: the backup has no column {c.name!r}")
    return header


def _insert_rows(conn: Connection, header: dict[str, Any], lines: Iterator[str]) -> dict[str, int]:
    known = {t.name: t for t in TABLES}
    columns: dict[str, list[str]] = header["tables"]
    counts = dict.fromkeys(columns, 0)
    batch: list[dict[str, Any]] = []
    batch_table: str | None = None

    def flush() -> None:
        if batch:
            conn.execute(insert(known[str(batch_table)]), batch)
            batch.clear()

    for number, line in enumerate(lines, 2):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BackupError(f"line {number}: not JSON ({exc.msg}); the file is damaged") from None
        if not isinstance(item, dict):
            raise BackupError(f"line {number}: expected a JSON object")
        if item.get("end") is True:
            flush()
            if item.get("counts") != counts:
                raise BackupError(f"the backup's trailer counts {item.get('counts')} rows, the file holds {counts}")
            return counts
        name, values = item.get("t"), item.get("r")
        if name not in columns or not isinstance(values, list) or len(values) != len(columns[name]):
            raise BackupError(f"line {number}: expected a row of one of {', '.join(columns)}")
        if name != batch_table or len(batch) >= BATCH:
            flush()
            batch_table = name
        batch.append(dict(zip(columns[name], values, strict=True)))
        counts[name] += 1
    raise BackupError("the backup ends before its trailer: the file is cut short (nothing restored)")


def restore(url: str, file: str | Path, *, force: bool = False) -> dict[str, int]:
    """Restore the backup ``file`` (``.gz``: compressed; ``-``: standard input) into the database at
    ``url`` (created if it is a new SQLite file); returns the rows per table."""
    name = str(file)
    if name != "-" and not Path(name).is_file():
        raise BackupError(f"no backup file {name}")
    engine = _engine(url, must_exist=False)
    try:
        with _database_errors():
            if name == "-":
                return restore_lines(engine, sys.stdin, force=force)
            try:
                with _open(Path(name), "rt", gz=name.endswith(".gz")) as f:
                    return restore_lines(engine, f, force=force)
            except (OSError, EOFError, UnicodeDecodeError) as exc:  # gzip: bad magic or cut short
                raise BackupError(f"{name}: {exc}") from None
    finally:
        engine.dispose()


def _engine(url: str, *, must_exist: bool) -> Engine:
    """An engine like the server's; ``must_exist``: a SQLite file that is not there is an error
    (instead of a new, empty database)."""
    parsed = make_url(url)
    if must_exist and parsed.get_backend_name() == "sqlite":
        db = parsed.database or ""
        if db in ("", ":memory:") or not Path(db).is_file():
            raise BackupError(f"no SQLite database at {db or url!r}")
    return make_engine(url)
