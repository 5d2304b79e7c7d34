"""Server test fixtures: a fresh database per test, SQLite and a real PostgreSQL.

``make test`` installs and starts PostgreSQL (scripts/services.sh) and sets
``TABLERO_TEST_PG_URL``. Without it the PostgreSQL cases skip, except under ``CI=true``,
where they fail.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from tablero.server.app import create_app
from tablero.server.store import metadata


class FakeClock:
    """An injectable clock: tests move time by hand."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def _pg_url() -> str | None:
    url = os.environ.get("TABLERO_TEST_PG_URL")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but TABLERO_TEST_PG_URL is not set (make test starts PostgreSQL)")
        return None
    return url


def _worker_db(base: str) -> str:
    """One database per xdist worker, created on demand, emptied for each test.

    Connections an earlier test left open on it are ended first: one left inside a transaction
    holds its locks, and dropping the tables would wait for it for ever.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"tablero_test_{worker}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        if conn.execute(text("select 1 from pg_database where datname = :n"), {"n": name}).first() is None:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        # Only our own sessions: an autovacuum worker on the database is the server's, and ending
        # it needs a superuser (a CI run failed so once).
        conn.execute(text("select pg_terminate_backend(pid) from pg_stat_activity "
                          "where datname = :n and pid <> pg_backend_pid() and usename = current_user "
                          "and backend_type = 'client backend'"), {"n": name})
    admin.dispose()
    url = base.rsplit("/", 1)[0] + "/" + name
    engine = create_engine(url, connect_args={"options": "-c lock_timeout=30000"})
    metadata.drop_all(engine)
    engine.dispose()
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tablero.db'}"
        return
    yield pg_database()


def pg_database() -> str:
    """This worker's PostgreSQL test database, emptied (:func:`_worker_db`); the test is skipped
    without one (never under CI: :func:`_pg_url`)."""
    base = _pg_url()
    if base is None:
        pytest.skip("no PostgreSQL (set TABLERO_TEST_PG_URL; make test does)")
    return _worker_db(base)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tablero.db'}"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def recv(ws: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ws.receive_text())
    return data


def until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (updates in between, from others' moves, comings and goings, are read past)."""
    while True:
        m = recv(ws)
        if m["type"] == kind:
            return m
        assert m["type"] == "update", m


def hello(ws: Any, tokens: list[str], admin: str | None = None, lang: str = "en") -> dict[str, Any]:
    ws.send_text(json.dumps({"type": "hello", "tokens": tokens, "admin": admin, "lang": lang}))
    return recv(ws)


@contextmanager
def client(url: str, clock: FakeClock | None = None, **app: Any) -> Iterator[TestClient]:
    """The app on ``url`` with no bot delay and a fake clock (``app``: more create_app arguments)."""
    with TestClient(create_app(url, bot_delay=0, clock=clock or FakeClock(), tick_seconds=0.02, **app)) as c:
        yield c


def create(c: TestClient, game: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A new table through the API: its id, admin key, tokens and invites."""
    r = c.post("/api/games", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data
