"""Bots that search in the worker pool, hints and reviews, through the HTTP/WebSocket API.

Searches run off the event loop (:mod:`tablero.server.workers`). Most tests inject a thread
pool and, where the timing matters, a deliberately slow bot that finishes only when the test
lets it; one game runs real searches in real worker processes.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from tablero.bots.registry import PLAYER_LEVELS
from tablero.bots.search.ismcts import Budget
from tablero.core.match import Match
from tablero.core.record import GameRecord
from tablero.registry import get_game
from tablero.server.app import create_app
from tablero.server.service import GameService
from tablero.server.workers import ThinkJob, Workers

from .conftest import FakeClock, create, hello, recv

CHEAP = "ismcts:iterations=6:depth=2"
"""A search bot that answers in milliseconds."""
REVIEW = Budget(iterations=6, depth=2)
"""A review budget that walks a whole game in well under a second."""


class SlowBot:
    """A search that takes as long as the test wants: each call waits for :meth:`release`."""

    def __init__(self) -> None:
        self.calls: list[ThinkJob] = []
        self.finished = 0
        self.granted = 0
        self._gate = threading.Semaphore(0)
        self._lock = threading.Lock()

    def __call__(self, job: ThinkJob) -> str:
        with self._lock:
            self.calls.append(job)
        if not self._gate.acquire(timeout=30):
            raise TimeoutError("the test never let the slow bot finish")
        with self._lock:
            self.finished += 1
        text: str = job.legal[0].to_text()
        return text

    def let_through(self) -> None:
        """Let the oldest waiting search finish (waits until one has started)."""
        wait_for(lambda: len(self.calls) > self.granted)
        self.granted += 1
        self._gate.release()

    def release_all(self) -> None:
        for _ in range(100):
            self._gate.release()


def thread_workers(**kw: Any) -> Workers:
    return Workers(2, executor=ThreadPoolExecutor(2), **kw)


@contextmanager
def client(url: str, clock: FakeClock | None = None, workers: Workers | None = None,
           review: Budget = REVIEW) -> Iterator[TestClient]:
    app = create_app(url, bot_delay=0, clock=clock or FakeClock(), tick_seconds=0.02,
                     workers=workers if workers is not None else thread_workers(), review_budget=review)
    with TestClient(app) as c:
        yield c


def service_of(c: TestClient) -> GameService:
    service: GameService = c.app.state.service  # type: ignore[attr-defined]
    return service


def send(ws: Any, **msg: Any) -> None:
    ws.send_text(json.dumps(msg))


def read_until(ws: Any, pred: Any, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    while True:
        m = recv(ws)
        if seen is not None:
            seen.append(m)
        if pred(m):
            return m


def wait_for(cond: Any, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def my_turn(seat: int) -> Any:
    return lambda m: m["type"] == "update" and (
        m["result"] is not None or (m["viewer"] == seat and seat in m["pending"] and bool(m["legal"])))


def test_a_search_bot_plays_a_whole_game_in_worker_processes(sqlite_url: str) -> None:
    """The real pool: views and actions cross to worker processes, the moves come back as text."""
    with client(sqlite_url, workers=Workers(1)) as c:
        g = create(c, "don-carlo", [{"kind": "you"}, {"kind": "bot", "bot": CHEAP}])
        seen: list[dict[str, Any]] = []
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            first = hello(ws, [g["tokens"]["0"]])
            seen.append(first)
            m = first if my_turn(0)(first) else read_until(ws, my_turn(0), seen)
            while m["result"] is None:
                send(ws, type="act", seat=0, version=m["version"], action=m["legal"][0]["text"])
                m = read_until(ws, my_turn(0), seen)
        record = GameRecord.from_json(c.get(f"/api/games/{g['id']}/record").json())
        assert isinstance(service_of(c).workers.executor(), ProcessPoolExecutor)
    assert record.result == m["result"]
    bot_entries = [i for i, (a, _) in enumerate(record.entries) if a == 1]
    assert bot_entries, "the bot seat decided"
    assert any(u.get("thinking") and u["thinking"]["seat"] == 1 and u["thinking"]["bot"] == CHEAP for u in seen)
    thought = m["thought"]["1"]
    assert thought["i"] in bot_entries and thought["seconds"] >= 0
    assert all(u.get("thinking") is None or u["thinking"]["seat"] == 1 for u in seen)
    assert "thinking" not in json.dumps(record.to_json())  # table facts stay out of the record


def test_the_event_loop_answers_while_a_bot_searches(sqlite_url: str) -> None:
    slow = SlowBot()
    with client(sqlite_url, workers=thread_workers(think=slow)) as c:
        g = create(c, "don-carlo", [{"kind": "you"}, {"kind": "bot", "bot": "hard"}])
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = hello(ws, [g["tokens"]["0"]])
            while not (m["type"] == "update" and m["thinking"]):
                if m["type"] == "update" and 0 in m["pending"] and m["legal"]:
                    send(ws, type="act", seat=0, version=m["version"], action=m["legal"][0]["text"])
                m = recv(ws)
            assert m["thinking"]["seat"] == 1 and m["thinking"]["bot"] == "hard"
            version = m["version"]
            wait_for(lambda: len(slow.calls) == 1)
            send(ws, type="ping")
            assert recv(ws) == {"type": "pong"}
            assert c.get("/api/meta").status_code == 200
            assert c.get("/api/games").status_code == 200
            assert slow.finished == 0, "answered while the search was still running"
            slow.let_through()
            m = read_until(ws, lambda u: u["type"] == "update" and u["version"] > version)
            assert m["thought"]["1"]["i"] == version and m["thinking"] is None
            slow.release_all()


def test_a_search_result_is_dropped_when_the_table_changed_meanwhile(sqlite_url: str) -> None:
    """A take-back while the bot thinks: the search's result is not applied; the bot is asked again."""
    slow = SlowBot()
    with client(sqlite_url, workers=thread_workers(think=slow)) as c:
        g = create(c, "el-grande", [{"kind": "you"}, {"kind": "bot", "bot": "medium"}], options={"short_game": True})
        live = service_of(c).get(g["id"])
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = hello(ws, [g["tokens"]["0"]])
            for _ in range(200):
                if m["type"] == "update" and m["thinking"] and m["can_undo"]:
                    break
                if m["type"] == "update" and m["thinking"]:
                    slow.let_through()  # a bot move we do not test
                elif m["type"] == "update" and 0 in m["pending"] and m["legal"]:
                    send(ws, type="act", seat=0, version=m["version"], action=m["legal"][0]["text"])
                m = recv(ws)
            else:
                raise AssertionError("no point where the bot thinks and seat 0 may take back")
            wait_for(lambda: len(slow.calls) == slow.granted + 1)
            calls = len(slow.calls)
            stale = slow.calls[-1]
            send(ws, type="undo", seat=0, version=m["version"])
            m = read_until(ws, lambda u: u["type"] == "update" and u["version"] == m["version"] + 1)
            assert m["thinking"] is None and 0 in m["pending"]
            slow.let_through()  # the stale search ends now: its move must not be played
            wait_for(lambda: slow.finished == calls and service_of(c).workers.running == 0)
            assert live.version == m["version"] and live.match.record.entries[-1] == (0, "undo")
            send(ws, type="act", seat=0, version=m["version"], action=m["legal"][0]["text"])
            m = read_until(ws, lambda u: u["type"] == "update" and u["thinking"] is not None)
            wait_for(lambda: len(slow.calls) == calls + 1)
            assert slow.calls[-1].seed != stale.seed, "asked again at the new version"
            asked = m["version"]
            slow.let_through()
            m = read_until(ws, lambda u: u["type"] == "update" and u["version"] > asked)
            assert m["thought"]["1"]["i"] == asked and live.match.record.entries[asked][0] == 1
            slow.release_all()


def test_a_person_taking_the_seat_back_drops_the_bots_search(sqlite_url: str, clock: FakeClock) -> None:
    slow = SlowBot()
    with client(sqlite_url, clock, workers=thread_workers(think=slow)) as c:
        g = create(c, "don-carlo", [{"kind": "you"}, {"kind": "person"}], away_seconds=60)
        guest = c.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"]["1"], "name": "Bea"}).json()["token"]
        live = service_of(c).get(g["id"])
        with c.websocket_connect(f"/ws/{g['id']}") as host:
            m = hello(host, [g["tokens"]["0"]], admin=g["admin"])
            clock.advance(61)
            send(host, type="replace", seat=1, bot="medium")
            while True:
                m = recv(host)
                if m["type"] != "update" or not m["seats"][1]["replaced"]:
                    continue
                if m["thinking"]:
                    break
                if 0 in m["pending"] and m["legal"]:
                    send(host, type="act", seat=0, version=m["version"], action=m["legal"][0]["text"])
            version = m["version"]
            wait_for(lambda: len(slow.calls) == 1)
            with c.websocket_connect(f"/ws/{g['id']}") as gw:
                hello(gw, [guest])
                send(gw, type="reclaim", seat=1)
                back = read_until(gw, lambda u: u["type"] == "update" and not u["seats"][1]["replaced"])
                assert back["thinking"] is None and back["version"] == version and 1 in back["pending"]
                slow.let_through()
                wait_for(lambda: slow.finished == 1 and service_of(c).workers.running == 0)
                assert live.version == version, "the search's move was not played for the person"
                send(gw, type="act", seat=1, version=version, action=back["legal"][-1]["text"])
                after = read_until(gw, lambda u: u["type"] == "update" and u["version"] > version)
                assert after["log"] and after["log"][0]["i"] == version
                assert live.match.record.entries[version] == (1, back["legal"][-1]["text"])
        slow.release_all()


def test_levels_are_offered_and_the_peeking_bot_is_refused(sqlite_url: str, clock: FakeClock) -> None:
    with client(sqlite_url, clock) as c:
        meta = {g["id"]: g for g in c.get("/api/meta").json()["games"]}
        for g in meta.values():
            assert g["bots"] == list(PLAYER_LEVELS) and g["default_bot"] == "medium"
        for bot in ("mcts-cheat", "MCTS-cheat:iterations=5"):
            r = c.post("/api/games", json={"game": "don-carlo",
                                           "seats": [{"kind": "you"}, {"kind": "bot", "bot": bot}]})
            assert r.status_code == 400 and r.json()["error"]["code"] == "bot/peeking", r.text
        r = c.post("/api/games", json={"game": "don-carlo", "seats": [{"kind": "you"}, {"kind": "local"}],
                                       "stand_in": "mcts-cheat"})
        assert r.json()["error"]["code"] == "bot/peeking"
        r = c.post("/api/games", json={"game": "don-carlo",
                                       "seats": [{"kind": "you"}, {"kind": "bot", "bot": "ismcts:x=1"}]})
        assert r.json()["error"]["code"] == "game/bad_player_count"
        g = create(c, "don-carlo", [{"kind": "you"}, {"kind": "bot"}, {"kind": "bot", "bot": "ISMCTS:iterations=10"},
                                    {"kind": "person"}], stand_in="easy")
        stored = service_of(c).get(g["id"]).stored
        assert [s["bot"] for s in stored.seats[1:3]] == ["medium", "ismcts:iterations=10"]
        assert stored.settings["stand_in"] == "easy" and stored.settings["hints"] is False
        with c.websocket_connect(f"/ws/{g['id']}") as host:
            hello(host, [g["tokens"]["0"]], admin=g["admin"])
            clock.advance(120)
            send(host, type="replace", seat=3, bot="mcts-cheat")
            err = read_until(host, lambda u: u["type"] == "error")
            assert err["code"] == "bot/peeking"
        assert stored.seats[3]["replaced"] is None


def _check_review(review: dict[str, Any], record: GameRecord, seat: int) -> None:
    assert review["seat"] == seat and review["game"] == record.game
    indices = [d["index"] for d in review["decisions"]]
    assert indices == sorted(indices) and len(set(indices)) == len(indices)
    legal = {i: sorted(a.to_text() for a in m.legal(seat))
             for i, actor, _text, m in Match.walk_record(get_game(record.game), record) if actor == seat}
    for d in review["decisions"]:
        assert record.entries[d["index"]] == (seat, d["chosen"]), "every decision is an entry of that seat"
        texts = [o["text"] for o in d["options"]]
        # every legal option ranked (one only where the rules ask even a forced choice)
        assert d["chosen"] in texts and d["best"] == texts[0] and sorted(texts) == legal[d["index"]]
        assert d["loss"] >= 0 and d["chosen_label"] and d["best_label"] and all(o["label"] for o in d["options"])
    assert review["worst"] is None or review["worst"] in indices


def test_review_of_the_own_seat_any_time_and_of_every_seat_after_the_game(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        g = create(c, "don-carlo", [{"kind": "you"}, {"kind": "bot", "bot": "greedy"}])
        live = service_of(c).get(g["id"])
        with c.websocket_connect(f"/ws/{g['id']}") as ws, c.websocket_connect(f"/ws/{g['id']}") as spec:
            hello(spec, [])
            m = hello(ws, [g["tokens"]["0"]])
            if not my_turn(0)(m):
                m = read_until(ws, my_turn(0))
            # while the game goes on (asked before any move of ours: a short deal may end within a
            # few moves, and then every seat may be reviewed): another seat's review is refused
            assert m["result"] is None
            send(ws, type="review", seat=1)
            assert read_until(ws, lambda u: u["type"] == "error")["code"] == "review/forbidden"
            send(spec, type="review", seat=0)
            assert read_until(spec, lambda u: u["type"] == "error")["code"] == "review/forbidden"
            for _ in range(6):
                if m["result"] is not None:
                    break
                send(ws, type="act", seat=0, version=m["version"], action=m["legal"][-1]["text"])
                m = read_until(ws, my_turn(0))
            send(ws, type="review", seat=0)
            msgs: list[dict[str, Any]] = []
            done = read_until(ws, lambda u: u["type"] == "review", msgs)
            record = live.match.record
            _check_review(done["review"], record, 0)
            assert done["review"]["decisions"], "seat 0 had choices"
            assert all(u["type"] in ("update", "review_progress", "review") for u in msgs)
            while m["result"] is None:
                send(ws, type="act", seat=0, version=m["version"], action=m["legal"][0]["text"])
                m = read_until(ws, my_turn(0))
            send(spec, type="review", seat=1)
            seen: list[dict[str, Any]] = []
            other = read_until(spec, lambda u: u["type"] == "review", seen)
            final = GameRecord.from_json(c.get(f"/api/games/{g['id']}/record").json())
            _check_review(other["review"], final, 1)
            assert other["version"] == len(final.entries)
            progress = [u for u in seen if u["type"] == "review_progress"]
            assert all(0 <= u["done"] <= u["total"] == len(final.entries) for u in progress)
            send(spec, type="review", seat=7)
            assert read_until(spec, lambda u: u["type"] == "error")["code"] == "request/malformed"


def test_hints_are_refused_when_off_and_answered_to_the_asker_alone(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        off = create(c, "don-carlo", [{"kind": "you"}, {"kind": "local"}])
        with c.websocket_connect(f"/ws/{off['id']}") as ws:
            m = hello(ws, [off["tokens"]["0"], off["tokens"]["1"]])
            assert m["hints"] is False
            seat = m["pending"][0]
            send(ws, type="hint", seat=seat, version=m["version"])
            assert read_until(ws, lambda u: u["type"] == "error")["code"] == "hint/off"

        service_of(c).hint_bot = CHEAP
        g = create(c, "don-carlo", [{"kind": "you", "name": "Ann"}, {"kind": "person", "name": "Bo"}], hints=True)
        guest = c.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"]["1"]}).json()["token"]
        with c.websocket_connect(f"/ws/{g['id']}") as ws, c.websocket_connect(f"/ws/{g['id']}") as spec, \
                c.websocket_connect(f"/ws/{g['id']}") as gw:
            m = hello(ws, [g["tokens"]["0"]])
            hello(spec, [])
            hello(gw, [guest])
            assert m["hints"] is True
            # whoever is to act asks; the other seat must be refused (not its turn)
            asker, other, token = (ws, gw, g["tokens"]["0"]) if 0 in m["pending"] else (gw, ws, guest)
            seat = m["pending"][0]
            send(other, type="hint", seat=1 - seat, version=m["version"])
            assert read_until(other, lambda u: u["type"] == "error")["code"] == "action/not_your_turn"
            send(asker, type="hint", seat=seat, version=m["version"])
            got: list[dict[str, Any]] = []
            hint = read_until(asker, lambda u: u["type"] == "hint", got)
            mine = service_of(c).get(g["id"]).match.legal(seat)
            assert hint["seat"] == seat and hint["version"] == m["version"]
            assert hint["text"] in [a.to_text() for a in mine] and hint["label"]
            name = "Ann" if seat == 0 else "Bo"
            line = f"{name} asked for a hint"
            assert any(line in [x["text"] for x in u.get("log", [])] for u in got if u["type"] == "update")
            # every viewer's log shows the note; the answer reaches nobody else
            for conn in (spec, other):
                u = read_until(conn, lambda u: u["type"] == "update" and any(x.get("note") for x in u["log"]))
                note = next(x for x in u["log"] if x.get("note"))
                assert note == {"i": m["version"] - 1, "text": line, "note": "hint",
                                "msg": {"id": "web.hint", "params": {"seat": seat}}}
            send(asker, type="act", seat=seat, version=m["version"], action=hint["text"])
            for conn in (spec, other):
                rest: list[dict[str, Any]] = []
                read_until(conn, lambda u: u["type"] == "update" and u["version"] > m["version"], rest)
                assert all(u["type"] != "hint" for u in rest)
        # a new connection (a reload, a restart) gets the note in its log too
        with c.websocket_connect(f"/ws/{g['id']}") as late:
            first = hello(late, [token])
            assert [x["text"] for x in first["log"] if x.get("note")] == [line]
