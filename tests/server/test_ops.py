"""Operations, on SQLite and a real PostgreSQL: ``/metrics``, ``/healthz``, JSON logs, backup and restore.

No timing assertions: the histogram is checked by its counts, a running server by what it
answers; the timeouts only keep a broken server from hanging the suite.
"""

from __future__ import annotations

import gzip
import io
import json
import logging
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine
from typer.testing import CliRunner

from tablero.cli.main import app as cli
from tablero.server import upkeep
from tablero.server.backup import dump_lines
from tablero.server.logs import JsonFormatter
from tablero.server.service import GameService
from tablero.server.settings import ServerSettings
from tablero.server.store import Store, StoredGame, make_engine
from tablero.server.workers import Workers

from .conftest import client, create, hello, pg_database, until
from .test_api import act, until_turn
from .test_crash import _free_port

CHEAP = "ismcts:iterations=6:depth=2"
"""A search bot that answers in milliseconds (it runs in the test's thread pool)."""

VS_BOTS = [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": CHEAP}, {"kind": "bot", "bot": "greedy"}]
VS_GREEDY = [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]

TIMEOUT = 30.0
"""Seconds to wait for a server process (hangs only)."""


def service_of(c: TestClient) -> GameService:
    service: GameService = c.app.state.service  # type: ignore[attr-defined]
    return service


# ---------------------------------------------------------------------------- /metrics
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(c: TestClient, headers: dict[str, str] | None = None) -> Samples:
    r = c.get("/metrics", headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(r.text) for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    key = (name, frozenset(labels.items()))
    assert key in samples, f"no sample {name}{labels} in {sorted(n for n, _ in samples)}"
    return samples[key]


def test_metrics_count_moves_errors_and_responses_and_read_the_tables(db_url: str) -> None:
    workers = Workers(2, executor=ThreadPoolExecutor(2))
    with client(db_url, workers=workers) as c:
        before = scrape(c)
        assert value(before, "tablero_moves_total", by="person") == 0
        assert value(before, "tablero_move_latency_seconds_count") == 0
        g = create(c, "don-carlo", VS_BOTS)
        with c.websocket_connect(f"/ws/{g['id']}") as spectator, c.websocket_connect(f"/ws/{g['id']}") as ws:
            hello(spectator, [])
            m = until_turn(ws, 0, hello(ws, [g["tokens"]["0"]]))
            moves = 0
            while moves < 3 and m["result"] is None:
                act(ws, m)
                moves += 1
                m = until_turn(ws, 0, stale_ok=True)
            ws.send_text("{not json")
            assert until(ws, "error")["code"] == "request/malformed"
            assert c.get("/api/games/no-such-table/record").status_code == 404
            s = scrape(c)
            stale = s.get(("tablero_errors_total", frozenset({"code": "action/stale_version", "via": "ws"}.items())), 0)
            moves -= int(stale)  # a move the bot's commit beat in a secret pick is refused, not made
            assert value(s, "tablero_moves_total", by="person") == moves
            assert value(s, "tablero_move_latency_seconds_count") == moves
            assert value(s, "tablero_move_latency_seconds_bucket", le="+Inf") == moves
            assert value(s, "tablero_move_latency_seconds_sum") >= 0
            searched = value(s, "tablero_bot_search_seconds_count")
            assert searched >= 1  # the search bot moved, in the pool
            assert value(s, "tablero_moves_total", by="bot") >= searched + 1  # and the greedy one inline
            assert value(s, "tablero_errors_total", code="request/malformed", via="ws") == 1
            assert value(s, "tablero_errors_total", code="game/unknown", via="http") == 1
            assert value(s, "tablero_http_responses_total", status="2xx") >= 2  # the creation, a scrape
            assert value(s, "tablero_http_responses_total", status="4xx") == 1
            assert value(s, "tablero_games_loaded", status="running") == 1
            assert value(s, "tablero_games_stored", status="running") == 1
            assert value(s, "tablero_games_stored", status="over") == 0
            assert value(s, "tablero_connections") == 2
            assert value(s, "tablero_spectators") == 1
            assert value(s, "tablero_bot_searches_running") == 0  # it is the person's turn
            assert value(s, "tablero_bot_loops_running") == 0
        assert value(scrape(c), "tablero_connections") == 0


def test_metrics_of_two_apps_in_one_process_stay_apart(sqlite_url: str, tmp_path: Path) -> None:
    with client(sqlite_url) as a, client(f"sqlite:///{tmp_path / 'other.db'}") as b:
        create(a, "don-carlo", VS_GREEDY)
        assert value(scrape(a), "tablero_games_stored", status="running") == 1
        assert value(scrape(b), "tablero_games_stored", status="running") == 0
        assert value(scrape(b), "tablero_http_responses_total", status="2xx") == 1  # its own scrape


def test_metrics_count_the_tables_needing_attention_in_the_database(db_url: str) -> None:
    with client(db_url) as c:
        g = create(c, "don-carlo", VS_GREEDY)
        create(c, "don-carlo", VS_GREEDY)
        assert value(scrape(c), "tablero_games_needing_attention") == 0
        service = service_of(c)
        live = service.get(g["id"])
        end = time.monotonic() + 30
        while (live.bots_running or live.lock.locked()) and time.monotonic() < end:
            time.sleep(0.01)  # its bot moves (and commits) in the app's loop first: then nothing else writes the row
        stored = live.stored
        upkeep.mark(stored, reason="bot", seat=1, bot="greedy", now=service.clock())
        service.store.save_row(stored)
        service.live.clear()  # a marked table may leave memory: the database still counts it
        assert value(scrape(c), "tablero_games_needing_attention") == 1


def test_metrics_want_the_token_when_one_is_set(sqlite_url: str) -> None:
    with client(sqlite_url, settings=ServerSettings(metrics_token="s3cret-t0ken")) as c:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic s3cret-t0ken"}):
            r = c.get("/metrics", headers=headers)
            assert r.status_code == 401, headers
            assert r.headers["www-authenticate"] == "Bearer"
            assert "tablero_" not in r.text
        assert value(scrape(c, {"Authorization": "Bearer s3cret-t0ken"}), "tablero_connections") == 0


# ---------------------------------------------------------------------------- /healthz
def test_healthz_answers_200_and_503_when_the_database_does_not(db_url: str, tmp_path: Path) -> None:
    with client(db_url) as c:
        r = c.get("/healthz")
        assert r.status_code == 200
        assert r.json()["status"] == "ok" and r.json()["database"] == "ok"
        store = service_of(c).store
        good = store.engine
        if db_url.startswith("sqlite"):
            broken = f"sqlite:///{tmp_path / 'no-such-dir' / 'tablero.db'}"
        else:  # nobody listens on port 1
            broken = "postgresql+psycopg://tablero:tablero@127.0.0.1:1/tablero?connect_timeout=5"
        store.engine = create_engine(broken)
        try:
            r = c.get("/healthz")
            assert r.status_code == 503
            assert r.json()["status"] == "unavailable"
            assert "tablero" not in r.json()["database"]  # the error's kind, never its URL
        finally:
            store.engine.dispose()
            store.engine = good
        assert c.get("/healthz").status_code == 200


# ---------------------------------------------------------------------------- JSON logs
def test_json_log_records_carry_level_logger_extras_and_the_exception() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("tablero.server.test_ops")
    logger.addHandler(handler)
    try:
        logger.warning("game %s is stuck", "g1", extra={"game_id": "g1", "seat": 2})
        try:
            raise RuntimeError("the search died")
        except RuntimeError:
            logger.exception("a bot failed: ünïcode", extra={"game_id": "g2"})
    finally:
        logger.removeHandler(handler)
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["level"] == "WARNING" and first["logger"] == "tablero.server.test_ops"
    assert first["message"] == "game g1 is stuck"
    assert (first["game_id"], first["seat"]) == ("g1", 2)
    assert first["time"].endswith("Z") and "exception" not in first
    assert second["level"] == "ERROR" and second["message"] == "a bot failed: ünïcode"
    assert second["game_id"] == "g2"
    assert "RuntimeError: the search died" in second["exception"]


@pytest.fixture
def json_server(sqlite_url: str, tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """``tablero serve --log-format json`` on a database holding a game this server cannot load."""
    store = Store(sqlite_url)
    now = time.time()
    store.create(StoredGame(id="lost-game", game="no-such-game", created=now, updated=now, status="running",
                            players=["A", "B"], options={}, seed=1, seats=[], admin_hash="", settings={},
                            deadlines={}, rematch=None, version=0))
    store.close()
    port = _free_port()
    err = tmp_path / "stderr.log"
    cmd = [sys.executable, "-c", "from tablero.cli.main import main; main()", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--database", sqlite_url, "--bot-delay", "0", "--log-format", "json"]
    with err.open("wb") as e, (tmp_path / "stdout.log").open("wb") as o:
        proc = subprocess.Popen(cmd, stdout=o, stderr=e)
    try:
        deadline = time.monotonic() + TIMEOUT
        with httpx.Client(trust_env=False, timeout=2) as h:
            while True:
                assert proc.poll() is None, err.read_text()
                assert time.monotonic() < deadline, err.read_text()
                try:
                    if h.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.05)
        yield port, err
    finally:
        proc.kill()
        proc.wait(timeout=TIMEOUT)


def test_serve_with_json_logs_writes_one_json_object_per_line(
        json_server: tuple[int, Path], tmp_path: Path) -> None:
    port, err = json_server
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as s:  # uvicorn warns of it
        s.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        s.recv(1024)
    deadline = time.monotonic() + TIMEOUT
    while "uvicorn.error" not in err.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    lines = [line for line in err.read_text().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    by_logger = {r["logger"]: r for r in records}
    assert "lost-game" in by_logger["tablero.server"]["message"]  # not resumed: a warning
    assert by_logger["uvicorn.error"]["level"] == "WARNING"
    assert (tmp_path / "stdout.log").read_text() == ""


def test_serve_refuses_an_unknown_log_format() -> None:
    r = CliRunner().invoke(cli, ["serve", "--log-format", "xml"])
    assert r.exit_code == 2
    assert "json" in r.output


# ---------------------------------------------------------------------------- backup and restore
def other_database(db_url: str, tmp_path: Path) -> str:
    """A fresh database of the other kind than ``db_url``."""
    if db_url.startswith("sqlite"):
        return pg_database()
    return f"sqlite:///{tmp_path / 'restored.db'}"


def say(ws: Any, seat: int, text: str) -> None:
    ws.send_text(json.dumps({"type": "chat", "seat": seat, "text": text}))
    assert until(ws, "chat")["text"] == text


def run(*args: str) -> str:
    r = CliRunner().invoke(cli, list(args))
    assert r.exit_code == 0, r.output
    return r.output


def test_backup_restores_into_the_other_database_and_play_goes_on(db_url: str, tmp_path: Path) -> None:
    file = tmp_path / ("backup.jsonl.gz" if db_url.startswith("sqlite") else "backup.jsonl")
    with client(db_url) as c:
        over = create(c, "don-carlo", VS_GREEDY, chat="all")
        with c.websocket_connect(f"/ws/{over['id']}") as ws:
            m = until_turn(ws, 0, hello(ws, [over["tokens"]["0"]]))
            say(ws, 0, "¡Hola! 🎲 good luck")
            while m["result"] is None:
                act(ws, m)
                m = until_turn(ws, 0, stale_ok=True)
            say(ws, 0, "gg")
        running = create(c, "don-carlo", VS_GREEDY)
        with c.websocket_connect(f"/ws/{running['id']}") as ws:
            m = until_turn(ws, 0, hello(ws, [running["tokens"]["0"]]))
            act(ws, m)
            m = until_turn(ws, 0, stale_ok=True)  # the bot may commit in the same secret pick
            say(ws, 0, "thinking…")
            version = m["version"]  # the bot may still move after this update (a secret pick)
        invited = create(c, "mafia-legend", [{"kind": "you", "name": "Ann"}, {"kind": "person", "name": "Bo"},
                                             {"kind": "bot", "bot": "random"}], options={"variant": "beginner"})
        record = c.get(f"/api/games/{over['id']}/record").json()
        out = run("backup", str(file), "--database", db_url)  # while the server runs
        assert "3 games" in out
    target = other_database(db_url, tmp_path)
    run("restore", str(file), "--database", target)

    source, restored = Store(db_url), Store(target)
    try:
        assert sorted(restored.ids()) == sorted(source.ids()) == sorted([over["id"], running["id"], invited["id"]])
        for gid in source.ids():
            assert restored.load(gid) == source.load(gid)  # record entries, seats, settings, clocks
            assert restored.chat_history(gid, 100) == source.chat_history(gid, 100)
        assert [x.text for x in restored.chat_history(over["id"], 100)] == ["¡Hola! 🎲 good luck", "gg"]
    finally:
        source.close()
        restored.close()

    with client(target) as c:
        assert c.get(f"/api/games/{over['id']}/record").json() == record
        with c.websocket_connect(f"/ws/{running['id']}") as ws:
            m = until_turn(ws, 0, hello(ws, [running["tokens"]["0"]]))  # the old token holds the seat
            assert m["version"] >= version
            act(ws, m)
            assert until_turn(ws, 0)["version"] > version
        invite = invited["invites"]["1"]
        assert c.post(f"/api/games/{invited['id']}/claim", json={"invite": invite, "name": "Bo"}).status_code == 200


def test_backup_reads_one_snapshot_while_the_server_writes(db_url: str) -> None:
    with client(db_url) as c:
        create(c, "don-carlo", VS_GREEDY)
        engine = make_engine(db_url)
        try:
            lines = dump_lines(engine)
            header = json.loads(next(lines))
            assert header["counts"]["games"] == 1
            create(c, "don-carlo", VS_GREEDY)  # committed while the backup reads
            rows = [json.loads(line) for line in lines]
        finally:
            engine.dispose()
    assert [r["t"] for r in rows[:-1]].count("games") == 1
    assert rows[-1] == {"end": True, "counts": header["counts"]}


def test_restore_refuses_what_it_cannot_restore_and_changes_nothing(sqlite_url: str, tmp_path: Path) -> None:
    with client(sqlite_url) as c:
        create(c, "don-carlo", VS_GREEDY)
    file = tmp_path / "b.jsonl"
    run("backup", str(file), "--database", sqlite_url)
    other = f"sqlite:///{tmp_path / 'other.db'}"

    r = CliRunner().invoke(cli, ["restore", str(file), "--database", sqlite_url])
    assert r.exit_code == 2 and "not empty" in r.output  # the database has its game
    lines = file.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:-1]) + "\n")  # no trailer
    r = CliRunner().invoke(cli, ["restore", str(cut), "--database", other])
    assert r.exit_code == 2 and "cut short" in r.output
    junk = tmp_path / "junk.jsonl.gz"
    junk.write_bytes(gzip.compress(b'{"hello": 1}\n'))
    r = CliRunner().invoke(cli, ["restore", str(junk), "--database", other])
    assert r.exit_code == 2 and "no tablero backup" in r.output
    nope = f"sqlite:///{tmp_path / 'nope.db'}"
    r = CliRunner().invoke(cli, ["backup", str(tmp_path / "x.jsonl"), "--database", nope])
    assert r.exit_code == 2 and not (tmp_path / "nope.db").exists() and not (tmp_path / "x.jsonl").exists()
    store = Store(other)
    try:
        assert store.ids() == []  # the refused restores left nothing
    finally:
        store.close()

    run("restore", str(file), "--database", other)
    run("restore", str(file), "--database", other, "--force")  # replaces what is there
    store = Store(other)
    try:
        assert len(store.ids()) == 1
    finally:
        store.close()
