"""Faults of bots and of the rules, and the server's memory (issue 14, faults 4 and 5).

* A bot that raises gives way to the table's cheap stand-in; when that fails too, or the
  rules' ``apply`` or the store's commit fails, the table is put back exactly as last saved
  and marked as needing attention (persisted, shown in updates and in the lobby): its bots
  stop, people still watch, and the creator's ``resume`` sets them going again.
* Tables in memory are bounded (a least-recently-used set that never drops a table somebody
  is connected to or a bot is playing at); tables nobody touched for days are marked
  abandoned; a start-up loads only the tables where the server must act by itself.

Faults are injected where they happen (a bot's ``choose``, the game's ``apply``, the store's
``append``); counts and the fake clock stand for time.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tablero.server.service as service_mod
from tablero.bots.registry import make_bot
from tablero.core.match import Match
from tablero.core.record import GameRecord
from tablero.registry import get_game
from tablero.server.service import GameService, LiveGame
from tablero.server.settings import ServerSettings
from tablero.server.store import Store, StoredGame
from tablero.server.workers import ThinkJob, Workers

from .conftest import FakeClock, client, create, hello, recv

EG: dict[str, Any] = {"game": "el-grande", "options": {"short_game": True}}
BOTS = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
FAST = ServerSettings(sqlite_synchronous="OFF")
"""Many commits in a test: no fsync (durability is test_settings.py's)."""
DAY = 86_400.0


def service_of(c: TestClient) -> GameService:
    service: GameService = c.app.state.service  # type: ignore[attr-defined]
    return service


def wait_for(cond: Callable[[], Any], timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def new(c: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return create(c, EG["game"], seats, options=EG["options"], **extra)


def listed(c: TestClient, gid: str) -> dict[str, Any]:
    games = c.get("/api/games", params={"mine": gid}).json()["games"]
    entry: dict[str, Any] = next(g for g in games if g["id"] == gid)
    return entry


def state_json(live: LiveGame) -> str:
    return json.dumps(live.game.state_to_json(live.match.state), sort_keys=True)


def saved_row(service: GameService, gid: str) -> StoredGame:
    stored = service.store.load(gid)
    assert stored is not None
    return stored


def stored_state(service: GameService, gid: str) -> tuple[int, str]:
    """The table as the store has it: its record length and its state, replayed."""
    stored = service.store.load(gid)
    assert stored is not None
    game = get_game(stored.game)
    record = GameRecord(game=game.id, rules_version=game.rules_version, data_version=game.data_version,
                        players=stored.players, options=stored.options, seed=stored.seed,
                        entries=list(stored.entries))
    m = Match.from_record(game, record, undo=True)
    return len(m.record.entries), json.dumps(game.state_to_json(m.state), sort_keys=True)


class Broken:
    """A bot whose every decision raises (counted)."""

    def __init__(self, calls: list[str], name: str) -> None:
        self.calls, self.name = calls, name

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        self.calls.append(self.name)
        raise RuntimeError(f"the bot {self.name} broke")


def break_bots(monkeypatch: pytest.MonkeyPatch, *names: str) -> tuple[list[str], dict[str, bool]]:
    """Bots ``names`` raise while ``switch["on"]``; returns their calls and the switch."""
    real = make_bot
    calls: list[str] = []
    switch = {"on": True}

    def make(name: str, game_id: str) -> Any:
        if switch["on"] and name in names:
            return Broken(calls, name)
        return real(name, game_id)

    monkeypatch.setattr(service_mod, "make_bot", make)
    return calls, switch


def count_ticks(monkeypatch: pytest.MonkeyPatch, service: GameService) -> list[int]:
    ticks = [0]
    real = service.tick

    async def tick() -> None:
        ticks[0] += 1
        await real()

    monkeypatch.setattr(service, "tick", tick)
    return ticks


def some_ticks(ticks: list[int], n: int = 10) -> None:
    """Let the ticker run ``n`` more times (each kicks the bots of tables whose clock ran out)."""
    start = ticks[0]
    wait_for(lambda: ticks[0] >= start + n)


def next_update(ws: Any) -> dict[str, Any]:
    """The next update (other messages, such as a rotated token, are skipped)."""
    while True:
        m = recv(ws)
        if m["type"] == "update":
            return m


def join(ws: Any, tokens: list[str], admin: str | None = None) -> list[dict[str, Any]]:
    """Say hello; the first update of each seat held (one for a spectator)."""
    first = hello(ws, tokens, admin=admin)
    out = [first] if first["type"] == "update" else []
    while len(out) < max(1, len(tokens)):
        out.append(next_update(ws))
    return out


def attention_of(service: GameService, gid: str) -> Any:
    live = service.live.get(gid)
    return None if live is None else live.stored.settings.get("attention")


# ---------------------------------------------------------------------------- bots that fail
def test_a_raising_bot_gives_way_to_the_tables_stand_in(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls, _ = break_bots(monkeypatch, "greedy")
    with client(sqlite_url, settings=FAST) as c:
        g = new(c, BOTS, stand_in="random")
        wait_for(lambda: listed(c, g["id"])["status"] == "over")
        record = c.get(f"/api/games/{g['id']}/record").json()
        assert {a for a, _ in record["entries"]} >= {0, 1}, "both seats decided (through their stand-in)"
        assert calls and set(calls) == {"greedy"}
        assert not listed(c, g["id"])["attention"]


def test_a_bot_and_its_stand_in_failing_mark_the_table_and_stop_its_bots(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    calls, _ = break_bots(monkeypatch, "greedy", "random")
    with client(sqlite_url, settings=FAST) as c:
        service = service_of(c)
        ticks = count_ticks(monkeypatch, service)
        g = new(c, BOTS, stand_in="random")
        gid = g["id"]
        wait_for(lambda: attention_of(service, gid), timeout=10)
        live = service.live[gid]
        assert attention_of(service, gid)["reason"] == "bot"
        assert (live.version, state_json(live)) == stored_state(service, gid), "as last saved"
        assert calls == ["greedy", "random"], "the bot, then its stand-in, then nothing more"
        some_ticks(ticks)
        assert calls == ["greedy", "random"], "no retrying in a loop"
        assert saved_row(service, gid).settings["attention"]["reason"] == "bot", "the mark is saved"
        assert listed(c, gid)["attention"] is True
        with c.websocket_connect(f"/ws/{gid}") as ws:
            m = join(ws, [])[0]
            assert m["attention"] == {"reason": "bot", "seat": m["pending"][0], "bot": "greedy",
                                      "since": attention_of(service, gid)["since"]}
        assert "the bot greedy broke" in caplog.text and "the bot random broke" in caplog.text


def test_an_apply_that_raises_midway_leaves_the_table_as_last_saved(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = get_game("el-grande")
    real = game.apply
    saved: dict[str, Any] = {}
    armed = {"go": False, "after": 12, "raised": 0}

    def apply(state: Any, player: int, action: Any, events: Any = None) -> None:
        if player >= 0 and armed["go"] and armed["after"] >= 0:
            armed["after"] -= 1
            if armed["after"] < 0:
                real(state, player, action, events)  # the state changes, then the rules fail
                armed["raised"] += 1
                raise ArithmeticError("the rules broke mid-way")
        real(state, player, action, events)

    monkeypatch.setattr(game, "apply", apply)
    with client(sqlite_url, settings=FAST) as c:
        service = service_of(c)
        real_commit = service.commit

        async def commit(live: LiveGame, start: int, acted: set[int]) -> None:
            await real_commit(live, start, acted)
            saved["state"], saved["version"] = state_json(live), live.version
            armed["go"] = True  # count the rules' steps from the first saved move on

        monkeypatch.setattr(service, "commit", commit)
        g = new(c, BOTS)
        gid = g["id"]
        wait_for(lambda: attention_of(service, gid), timeout=10)
        live = service.live[gid]
        assert armed["raised"] == 1 and attention_of(service, gid)["reason"] == "apply"
        assert (live.version, state_json(live)) == (saved["version"], saved["state"]), "the pre-fault state"
        assert (live.version, state_json(live)) == stored_state(service, gid)
        # The creator sets the bots going again (the rules work now): the game plays on to its end.
        with c.websocket_connect(f"/ws/{gid}") as ws:
            m = join(ws, [], admin=g["admin"])[0]
            assert m["attention"]["reason"] == "apply"
            ws.send_text(json.dumps({"type": "resume"}))
            while m["result"] is None:
                m = next_update(ws)
            assert m["attention"] is None
        assert not listed(c, gid)["attention"]


def test_a_failing_commit_of_a_bots_move_restores_and_marks_the_table(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with client(db_url, settings=FAST) as c:
        service = service_of(c)
        real_append = service.store.append
        left = {"n": 10}

        def append(g: Any, start: int) -> None:
            left["n"] -= 1
            if left["n"] == 0:
                raise OSError("the disk is full")
            real_append(g, start)

        async def append_async(g: Any, start: int) -> None:  # commits (PostgreSQL's awaited ones too) count
            append(g, start)

        monkeypatch.setattr(service.store, "append", append)
        monkeypatch.setattr(service.store, "append_async", append_async)
        g = new(c, BOTS)
        gid = g["id"]
        wait_for(lambda: attention_of(service, gid), timeout=10)
        live = service.live[gid]
        assert attention_of(service, gid)["reason"] == "store"
        assert (live.version, state_json(live)) == stored_state(service, gid)
        wait_for(lambda: saved_row(service, gid).settings.get("attention"))  # saved right after it is set
        assert saved_row(service, gid).settings["attention"]["reason"] == "store"


def test_a_persons_move_that_cannot_be_saved_is_refused_and_changes_nothing(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with client(sqlite_url) as c:
        service = service_of(c)
        g = new(c, [{"kind": "you"}, {"kind": "local"}])
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            both = join(ws, [g["tokens"]["0"], g["tokens"]["1"]])
            m = next(u for u in both if u["viewer"] in u["pending"] and u["legal"])
            seat, text = m["viewer"], m["legal"][0]["text"]
            live = service.live[g["id"]]
            before = (live.version, state_json(live))

            def append(g: Any, start: int) -> None:
                raise OSError("the database went away")

            monkeypatch.setattr(service.store, "append", append)
            ws.send_text(json.dumps({"type": "act", "seat": seat, "version": m["version"], "action": text}))
            err = recv(ws)
            assert err["type"] == "error" and err["code"] == "server/fault", err
            assert (live.version, state_json(live)) == before
            assert service.live[g["id"]] is live, "the connection still watches this table"
            monkeypatch.undo()
            ws.send_text(json.dumps({"type": "act", "seat": seat, "version": m["version"], "action": text}))
            assert next_update(ws)["version"] > m["version"], "the same move, saved this time"


def test_an_attention_table_reloads_without_running_its_bots(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls, switch = break_bots(monkeypatch, "greedy", "random")
    clock = FakeClock()
    with client(db_url, clock, settings=FAST) as c:
        g = new(c, BOTS, stand_in="random")
        gid = g["id"]
        wait_for(lambda: attention_of(service_of(c), gid), timeout=10)
    assert calls == ["greedy", "random"]
    with client(db_url, clock, settings=FAST) as c:
        service = service_of(c)
        ticks = count_ticks(monkeypatch, service)
        assert gid not in service.live, "not loaded at start-up: the server has nothing to do there"
        assert c.get(f"/game/{gid}").status_code == 200
        some_ticks(ticks)
        assert calls == ["greedy", "random"], "loaded, and still no bot runs"
        assert listed(c, gid)["attention"]
        switch["on"] = False
        with c.websocket_connect(f"/ws/{gid}") as ws:
            m = join(ws, [])[0]
            assert m["attention"]["reason"] == "bot"
            ws.send_text(json.dumps({"type": "resume"}))
            assert recv(ws)["code"] == "auth/token", "only the creator resumes"
        with c.websocket_connect(f"/ws/{gid}") as ws:
            m = join(ws, [], admin=g["admin"])[0]
            ws.send_text(json.dumps({"type": "resume"}))
            while m["result"] is None:
                m = next_update(ws)
        assert listed(c, gid)["status"] == "over" and not listed(c, gid)["attention"]


# ---------------------------------------------------------------------------- memory
def finished_games(c: TestClient, n: int) -> list[str]:
    ids = [new(c, [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])["id"] for _ in range(n)]
    wait_for(lambda: all(listed(c, gid)["status"] == "over" for gid in ids))
    return ids


def test_finished_games_read_over_http_keep_the_loaded_tables_bounded(sqlite_url: str) -> None:
    settings = ServerSettings(sqlite_synchronous="OFF", max_loaded_games=3)
    with client(sqlite_url, settings=settings) as c:
        service = service_of(c)
        ids = finished_games(c, 8)
        for gid in ids * 2:
            for path in (f"/game/{gid}", f"/api/games/{gid}/record", f"/api/games/{gid}/summary",
                         f"/api/games/{gid}/replay?at=3", f"/api/games/{gid}/table-data"):
                assert c.get(path).status_code == 200, path
                assert len(service.live) <= 3
        assert c.get(f"/api/games/{ids[0]}/record").json()["entries"], "an evicted game loads again"


def test_the_lru_never_evicts_a_table_with_a_connection_or_a_search(sqlite_url: str) -> None:
    from .test_bots import SlowBot

    slow = SlowBot()
    workers = Workers(2, executor=ThreadPoolExecutor(2), think=slow)
    settings = ServerSettings(sqlite_synchronous="OFF", max_loaded_games=2)
    try:
        with client(sqlite_url, settings=settings, workers=workers) as c:
            service = service_of(c)
            watched = new(c, [{"kind": "you"}, {"kind": "person"}])
            searching = new(c, [{"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "hard"}])
            wait_for(lambda: len(slow.calls) == 1)
            with c.websocket_connect(f"/ws/{watched['id']}") as ws:
                join(ws, [watched["tokens"]["0"]])
                a, b = service.live[watched["id"]], service.live[searching["id"]]
                for gid in finished_games(c, 4):
                    assert c.get(f"/api/games/{gid}/record").status_code == 200
                    assert service.live.get(watched["id"]) is a and service.live.get(searching["id"]) is b
                    assert len(service.live) <= 3, "the two pinned tables and the one just read"
                # The connection still hears its table: somebody takes the invite.
                r = c.post(f"/api/games/{watched['id']}/claim", json={"invite": watched["invites"]["1"], "name": "Bea"})
                assert r.status_code == 200
                assert next_update(ws)["seats"][1]["name"] == "Bea"
            slow.let_through()
            wait_for(lambda: len(slow.calls) == 2)  # the search's move was played: the table was current
    finally:
        slow.release_all()


def test_an_abandoned_table_expires_with_the_fake_clock(db_url: str) -> None:
    clock = FakeClock()
    settings = ServerSettings(sqlite_synchronous="OFF", abandon_days=10, max_loaded_games=2)
    two = [{"kind": "you"}, {"kind": "person"}]
    with client(db_url, clock, settings=settings) as c:
        idle = new(c, [{"kind": "you"}, {"kind": "local"}])
        unloaded, watched, seen, other, another = (new(c, two) for _ in range(5))
    with client(db_url, clock, settings=settings) as c:
        service = service_of(c)
        assert not service.live, "nothing to do at these tables: none is loaded at start-up"
        assert c.get(f"/game/{idle['id']}").status_code == 200
        with c.websocket_connect(f"/ws/{watched['id']}") as ws:
            join(ws, [watched["tokens"]["0"]])
            clock.advance(6 * DAY)
            assert c.get(f"/game/{seen['id']}").status_code == 200  # somebody looked 6 days in
            for g in (other, another):  # ... then at two more tables: that one leaves memory
                assert c.get(f"/game/{g['id']}").status_code == 200
            assert seen["id"] not in service.live and idle["id"] not in service.live
            clock.advance(6 * DAY)
            wait_for(lambda: listed(c, idle["id"])["status"] == "abandoned")
            wait_for(lambda: listed(c, unloaded["id"])["status"] == "abandoned")
            assert listed(c, watched["id"])["status"] == "running", "somebody is at this table"
            assert listed(c, seen["id"])["status"] == "running", "opened 6 days ago (kept when it left memory)"
        # A person's move revives an abandoned table.
        with c.websocket_connect(f"/ws/{idle['id']}") as ws:
            both = join(ws, [idle["tokens"]["0"], idle["tokens"]["1"]])
            assert [u["status"] for u in both] == ["abandoned", "abandoned"]
            m = next(u for u in both if u["viewer"] in u["pending"] and u["legal"])
            ws.send_text(json.dumps({"type": "act", "seat": m["viewer"], "version": m["version"],
                                     "action": m["legal"][0]["text"]}))
            assert next_update(ws)["status"] == "running"
        assert listed(c, idle["id"])["status"] == "running"


def test_start_up_replays_only_the_tables_where_the_server_must_act(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from .test_bots import SlowBot

    slow = SlowBot()
    try:
        with client(db_url, settings=FAST, workers=Workers(1, executor=ThreadPoolExecutor(1), think=slow)) as c:
            idle = [new(c, [{"kind": "you"}, {"kind": "person"}])["id"] for _ in range(20)]
            clocked = new(c, [{"kind": "you"}, {"kind": "person"}], move_seconds=600)["id"]
            bots = new(c, [{"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "hard"}])["id"]
            wait_for(lambda: len(slow.calls) == 1)  # the bot's first search never ends: a bot is to move
            before = listed(c, bots)["entries"]
    finally:
        slow.release_all()

    replayed: list[int] = []
    loaded: list[str] = []
    real_replay = Match.from_record.__func__  # type: ignore[attr-defined]
    real_load = Store.load
    lock = threading.Lock()

    def from_record(cls: Any, game: Any, record: GameRecord, *, undo: bool = False) -> Any:
        with lock:
            replayed.append(len(record.entries))
        return real_replay(cls, game, record, undo=undo)

    def load(self: Store, game_id: str) -> Any:
        with lock:
            loaded.append(game_id)
        return real_load(self, game_id)

    monkeypatch.setattr(Match, "from_record", classmethod(from_record))
    monkeypatch.setattr(Store, "load", load)

    def quick(job: ThinkJob) -> str:
        text: str = job.legal[0].to_text()
        return text

    with client(db_url, settings=FAST, workers=Workers(1, executor=ThreadPoolExecutor(1), think=quick)) as c:
        assert len(replayed) == 2 and sorted(loaded) == sorted([clocked, bots]), \
            "only the table with a clock and the one where a bot is to move"
        wait_for(lambda: listed(c, bots)["entries"] > before)  # its bot moved
        assert c.get(f"/game/{idle[3]}").status_code == 200
        assert len(replayed) == 3 and loaded[-1] == idle[3], "the rest load when first asked for"
