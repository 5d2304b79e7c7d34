"""A stateful fuzzer over the WebSocket protocol (docs/web.md), for each of the three games.

Hypothesis drives a table (a creator's seats, invited people, a bot) through the documented
messages: people joining with invites (odd names too), connections opening and closing (seats,
the creator, spectators, stale keys, bad hellos), reloads, legal moves, stale and malformed moves
and binary frames, take-backs offered and not, leaving, the creator handing a seat to a bot and
the player taking it back, the creator taking a seat back and inviting anew, keys rotated (asked
for, and at a hello after days away), ``resume``, the move clock running out, chat, and server
restarts on the same database. After every step, once the table is quiet, it checks:

* nothing went wrong inside the server: no ERROR log record, no exception out of a handler, every
  error a client got carries a documented code (never ``server/fault``), a refused request got
  exactly one error and changed nothing, and no table needs attention;
* every move the server acknowledged is the record's entry at the version it was made at, and the
  store holds the live record;
* the stored record replays (``Match.from_record``) to the live match's state and take-back rights;
* every update a connection got tells its viewer exactly the position at its version (view, legal
  moves, seats to act, result: rebuilt from the record through the match's protocol, not with the
  server's payload code), and each connection's newest update per viewer is the live table: its
  log (put together from the incremental logs as a client does), take-back right (never one the
  rules refuse; one offered is accepted), notes and seats (names, bots, presence, as the test's
  model has them). No payload says more than the seat's view, and none is stale.

The TestClient's ``receive`` blocks, so messages are read up to barriers: a ``ping`` on every
connection, read until its ``pong`` (messages on one connection are handled and answered in
order, so what it sent before is done), then a wait until no bot runs and no disconnect is in
flight, then a barrier again. Time moves only by the fake clock. A table's deal comes from
hypothesis (the service's seed is drawn), so a failing run replays exactly.

``make test`` runs a short derandomized search (``HYPOTHESIS_PROFILE=ci``, SQLite); ``TABLERO_DEEP=1``
(``make test-deep``) runs many more and longer ones, on PostgreSQL too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import shutil
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

import anyio
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from tablero.core.errors import ErrorCode
from tablero.core.match import Match
from tablero.core.record import GameRecord
from tablero.registry import get_game
from tablero.server import service as service_module
from tablero.server.lobby import seat_name
from tablero.server.payload import SEAT_COLOURS, SEAT_LETTERS
from tablero.server.service import GameService
from tablero.server.settings import ServerSettings

from .conftest import FakeClock, _pg_url, _worker_db, client, create, hello, recv

DEEP = os.environ.get("TABLERO_DEEP") == "1"

EXAMPLES = 60 if DEEP else 6
"""Tables per game (each a fresh server and database)."""
STEPS = 120 if DEEP else 40
"""Steps per table at most."""

TIMEOUT = 30.0
"""Seconds a read may wait before the test calls the server stuck (a broken server, never timing)."""

MOVE_SECONDS = 30.0
AWAY_SECONDS = 60.0

SPECS: dict[str, dict[str, Any]] = {
    "el-grande": {
        "options": {"short_game": True},
        "seats": [{"kind": "you", "name": "Ann"}, {"kind": "local", "name": "Bea"}, {"kind": "person"},
                  {"kind": "bot", "bot": "greedy"}],
    },
    "mafia-legend": {
        "options": {"variant": "beginner"},
        "seats": [{"kind": "you", "name": "Ann"}, {"kind": "person", "name": "Cy"}, {"kind": "bot", "bot": "random"}],
    },
    "don-carlo": {
        "options": {},
        "seats": [{"kind": "you", "name": "Ann"}, {"kind": "person"}, {"kind": "person"},
                  {"kind": "bot", "bot": "greedy"}],
    },
}
"""Short variants with a creator, invited people and a bot (cheap bots only: no worker processes)."""

CODES = frozenset(str(c) for c in ErrorCode) - {str(ErrorCode.SERVER_FAULT)}
"""Every code a client may be told (docs/web.md: the core's and the server's own), but the one
for a fault of the server."""

MAX_CONNS = 5
DAYS = 8 * 86_400.0
"""A long pause (longer than ``token_rotate_days``: keys rotate at the next hello)."""

SETTINGS = ServerSettings(rate_limits=False, token_grace_seconds=0, token_idle_days=0, abandon_days=0)
"""The defaults, but for switches that would make the test's model guess: no rate limits (the
fuzzer sends far faster than people), a rotated key stops at once (no grace), keys and tables
never expire. Each has tests of its own."""
BOTS = ("random", "greedy")
BAD_BOTS = ("mcts-cheat", "nonsense", "")
NAMES = st.one_of(st.sampled_from(["Dee", "Eve", "  Flo  ", "", "   ", "Zoë 🎲", "a" * 40]),
                  st.text(max_size=30))


# ---------------------------------------------------------------------------- reading
async def _receive(ws: Any, timeout: float) -> Any:
    # The TestClient session's own stream (its receive() has no timeout): a stuck server fails the
    # test with a message instead of hanging it.
    with anyio.fail_after(timeout):
        return await ws._send_rx.receive()


def _norm(x: Any) -> Any:
    """``x`` as it travels: JSON and back."""
    return json.loads(json.dumps(x))  # (Any in, Any out)


class _Seeded:
    """``secrets`` for the service while a table is created: the deal comes from hypothesis's seed
    (a deal of its own each run would make the search's draws differ between runs)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randbits(self, k: int) -> int:
        return self.seed % (1 << k)

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)


@contextlib.contextmanager
def _seeded(seed: int) -> Iterator[None]:
    names = vars(service_module)
    saved = names["secrets"]
    names["secrets"] = _Seeded(seed)
    try:
        yield
    finally:
        names["secrets"] = saved


class _ErrorLog(logging.Handler):
    """Every ERROR record the server logs while a table is fuzzed."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass(eq=False, repr=False)
class Client:
    """One open connection and what it was told."""

    name: str
    ws: Any
    stack: contextlib.ExitStack
    tokens: list[str]
    admin: str | None
    lang: str
    seats: set[int]
    """The seats it holds (the test's model)."""
    latest: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    lines: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    """Per viewer: the record's log lines told so far, put together as the client does."""
    notes: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    """Per viewer: the table's notes told so far."""
    inbox: list[dict[str, Any]] = field(default_factory=list)
    """Messages read in the current step."""

    @property
    def viewers(self) -> list[int | None]:
        out: list[int | None] = [*sorted(self.seats)] or [None]
        return out

    def __repr__(self) -> str:
        return f"<{self.name} holding {sorted(self.seats)}>"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # how hypothesis prints a failing step
        p.text(repr(self))


# ---------------------------------------------------------------------------- the machine
class WsFuzz(RuleBasedStateMachine):
    GAME: ClassVar[str] = "el-grande"
    BASE: ClassVar[str] = ""
    """A directory for the SQLite files."""
    PG: ClassVar[str] = ""
    """A PostgreSQL server's URL: each table in a fresh database there instead."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.mkdtemp(dir=self.BASE or None)
        self.url = _worker_db(self.PG) if self.PG else f"sqlite:///{self.dir}/t.db"
        self.clock = FakeClock()
        self.errors = _ErrorLog()
        logging.getLogger().addHandler(self.errors)
        self.disconnecting = 0
        self._start_server()
        self.game = get_game(self.GAME)
        self.clients: list[Client] = []
        self.opened = 0
        self.tokens: dict[int, str] = {}
        """The valid key of each seat that has one (the test's model)."""
        self.old_tokens: list[str] = []
        self.rotated: dict[str, int] = {}
        """Keys rotation replaced, and their seats: named beside the seat's current key in a hello, the
        device is told quietly to drop one; alone, it holds nothing."""
        self.invites: dict[int, str] = {}
        self.kinds: list[str] = []
        self.left: dict[int, bool] = {}
        self.away: dict[int, float | None] = {}
        self.replaced: dict[int, str | None] = {}
        self.acked: list[tuple[int, int, str | None]] = []
        """Moves the server acknowledged: (version, seat, text)."""
        self.gid = ""
        self.admin = ""
        self.creator_seats: list[int] = []
        self.names: list[str] = []
        """Each seat's name as stored (an empty claim keeps it)."""

    def _start_server(self) -> None:
        self.stack = contextlib.ExitStack()
        self.c = self.stack.enter_context(client(self.url, self.clock, settings=SETTINGS))
        self.service: GameService = self.c.app.state.service  # type: ignore[attr-defined]
        self._instrument()

    def _instrument(self) -> None:
        """Count disconnects in flight: the table is quiet only once they have told everyone."""
        original = self.service.disconnect

        async def disconnect(*args: Any, **kwargs: Any) -> None:
            self.disconnecting += 1
            try:
                await original(*args, **kwargs)
            finally:
                self.disconnecting -= 1

        self.service.disconnect = disconnect  # type: ignore[method-assign]

    def teardown(self) -> None:
        try:
            for cl in list(self.clients):
                with contextlib.suppress(Exception):
                    self._close(cl)
            self.stack.close()
        finally:
            logging.getLogger().removeHandler(self.errors)
            shutil.rmtree(self.dir, ignore_errors=True)

    # ------------------------------------------------------------------ helpers
    def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn`` in the server's event loop (the service is not thread-safe)."""
        return self.c.portal.call(fn, *args)  # type: ignore[union-attr]

    @property
    def now(self) -> float:
        return self.clock.now

    def _dead(self, cl: Client) -> AssertionError:
        """The connection's handler is gone: leaving its session raises what ended it, if anything did."""
        self.clients.remove(cl)
        cl.stack.close()
        return AssertionError(f"{cl.name}: the server ended the connection")

    def _recv(self, cl: Client) -> dict[str, Any]:
        try:
            m = self._call(_receive, cl.ws, TIMEOUT)
        except TimeoutError:
            raise AssertionError(f"{cl.name}: no answer within {TIMEOUT} s") from None
        except (anyio.ClosedResourceError, anyio.EndOfStream):
            raise self._dead(cl) from None
        assert m["type"] == "websocket.send", f"{cl.name}: the server closed the connection: {m}"
        text = m.get("text")
        assert text is not None, f"{cl.name}: a binary frame from the server: {m}"
        msg: dict[str, Any] = json.loads(text)
        return msg

    def _send(self, cl: Client, msg: Any) -> None:
        try:
            if isinstance(msg, bytes):
                cl.ws.send_bytes(msg)
            else:
                cl.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            raise self._dead(cl) from None

    async def _quiet(self) -> None:
        """Wait until no bot runs and no disconnect is telling the table."""
        with anyio.fail_after(TIMEOUT):
            calm = 0
            while calm < 3:
                await asyncio.sleep(0.001 if calm else 0.002)
                live = self.service.live.get(self.gid)
                busy = self.disconnecting > 0 or (live is not None and live.bots_running)
                calm = 0 if busy else calm + 1

    def settle(self) -> None:
        """Read every connection up to a ping/pong barrier (each connection's messages are handled in
        order: what it sent before is done), wait until the table is quiet, and read up to a barrier
        again (what the bots and disconnects told everyone)."""
        self._barrier()
        try:
            self._call(self._quiet)
        except TimeoutError:
            raise AssertionError(f"the table never got quiet within {TIMEOUT} s") from None
        self._barrier()

    def _barrier(self) -> None:
        for cl in list(self.clients):
            self._send(cl, {"type": "ping"})
        for cl in list(self.clients):
            while True:
                m = self._recv(cl)
                if m.get("type") == "pong":
                    break
                self._take(cl, m)

    def _take(self, cl: Client, m: dict[str, Any]) -> None:
        cl.inbox.append(m)
        kind = m.get("type")
        if kind == "error":
            assert m.get("code") in CODES, f"{cl.name}: an error with an unknown code: {m}"
            assert isinstance(m.get("message"), str) and m["message"], m
        elif kind == "update":
            v = m["viewer"]
            assert v in cl.viewers, f"{cl.name} holds {cl.viewers} but got an update for {v!r}"
            prev = cl.latest.get(v)
            assert prev is None or m["version"] >= prev["version"], (
                f"{cl.name}: an older version after a newer one ({prev['version']} then {m['version']})")
            cl.latest[v] = m
            since = m["log_since"]
            lines = [x for x in m["log"] if "note" not in x]
            notes = [x for x in m["log"] if "note" in x]
            assert [x["i"] for x in m["log"]] == sorted(x["i"] for x in m["log"]), "the log is in entry order"
            assert all(x["i"] >= since for x in lines), "lines before log_since were sent again"
            cl.lines[v] = [x for x in cl.lines.get(v, []) if x["i"] < since] + lines
            cl.notes[v] = (notes if since == 0 else cl.notes.get(v, []) + notes)
        elif kind == "revoked":
            for s in m.get("seats", []):
                cl.seats.discard(s)
                cl.latest.pop(s, None)
                cl.lines.pop(s, None)
                cl.notes.pop(s, None)
        elif kind == "token":  # the seat's key rotated: the device keeps the new one
            seat, token, old = m["seat"], m["token"], m["old"]
            assert seat in cl.seats, f"{cl.name} got a key for a seat it does not hold: {m}"
            if self.tokens.get(seat) != token:
                if seat in self.tokens:
                    self.old_tokens.append(self.tokens[seat])
                    self.rotated[self.tokens[seat]] = seat
                self.tokens[seat] = token
            cl.tokens = list(dict.fromkeys(token if t == old else t for t in cl.tokens))
            if token not in cl.tokens:
                cl.tokens.append(token)

    def _errors(self, cl: Client) -> list[dict[str, Any]]:
        return [m for m in cl.inbox if m.get("type") == "error"]

    def _step(self) -> None:
        for cl in self.clients:
            cl.inbox = []

    def _version(self) -> int:
        return self._call(lambda: self.service.get(self.gid).version)  # type: ignore[no-any-return]

    def _state(self) -> Any:
        def snap() -> Any:
            live = self.service.get(self.gid)
            return (live.version, _norm(self.game.state_to_json(live.match.state)),
                    _norm(live.stored.seats), dict(live.stored.deadlines))
        return self._call(snap)

    def _over(self) -> bool:
        return self._call(lambda: self.service.get(self.gid).match.is_over())  # type: ignore[no-any-return]

    def held(self, tokens: list[str]) -> set[int]:
        return {s for s, t in self.tokens.items() if t in tokens}

    def _open(self, tokens: list[str], admin: str | None, lang: str) -> Client:
        self.opened += 1
        stack = contextlib.ExitStack()
        ws = stack.enter_context(self.c.websocket_connect(f"/ws/{self.gid}"))
        seats = self.held(tokens)
        refused = [t for t in tokens if t not in self.tokens.values() and self.rotated.get(t) not in seats]
        cl = Client(f"conn{self.opened}", ws, stack, list(tokens), admin, lang, set(seats))
        self._step()
        self.clients.append(cl)
        self._send(cl, {"type": "hello", "tokens": tokens, "admin": admin, "lang": lang})
        for s in seats:
            self.away[s] = None
            self.left[s] = False
        self.settle()
        told = [m for m in cl.inbox if m.get("type") == "revoked"]
        if refused:
            assert told and sorted(told[0]["tokens"]) == sorted(refused), f"keys holding no seat are named: {cl.inbox}"
        else:
            assert not told, cl.inbox
        assert {m["viewer"] for m in cl.inbox if m.get("type") == "update"} == set(cl.viewers), cl.inbox
        assert not self._errors(cl), cl.inbox
        return cl

    def _close(self, cl: Client) -> None:
        self._step()
        self.clients.remove(cl)
        cl.ws.close(1000)  # the handler ends by itself (leaving the session would cancel it mid-way)
        self._call(self._gone, len(self.clients))
        for s in cl.seats:
            if not any(s in o.seats for o in self.clients):
                self.away[s] = self.now
        cl.stack.close()

    async def _gone(self, n: int) -> None:
        with anyio.fail_after(TIMEOUT):
            while True:
                live = self.service.live.get(self.gid)
                if live is None or len(live.conns) <= n:
                    return
                await asyncio.sleep(0.001)

    def _holding(self) -> list[tuple[Client, int]]:
        return [(cl, s) for cl in self.clients for s in sorted(cl.seats)]

    def _to_act(self) -> list[tuple[Client, int]]:
        return [(cl, s) for cl, s in self._holding() if cl.latest.get(s, {}).get("legal")]

    # ------------------------------------------------------------------ start
    @initialize(seed=st.integers(0, 2 ** 63 - 1), chat_mode=st.sampled_from(["players", "all"]),
                claim=st.lists(st.booleans(), min_size=4, max_size=4), lang=st.sampled_from(["en", "de"]))
    def start(self, seed: int, chat_mode: str, claim: list[bool], lang: str) -> None:
        spec = SPECS[self.GAME]
        with _seeded(seed):
            r = self.c.post("/api/games", json={"game": self.GAME, "seats": spec["seats"], "options": spec["options"],
                                                "move_seconds": MOVE_SECONDS, "away_seconds": AWAY_SECONDS,
                                                "chat": chat_mode})
        assert r.status_code == 200, r.text
        g = r.json()
        self.gid, self.admin = g["id"], g["admin"]
        self.tokens = {int(s): t for s, t in g["tokens"].items()}
        self.invites = {int(s): t for s, t in g["invites"].items()}
        self.kinds = [s["kind"] for s in spec["seats"]]
        self.names = [s.get("name") or (f"Bot {SEAT_LETTERS[i]}" if s["kind"] == "bot" else "")
                      for i, s in enumerate(spec["seats"])]
        self.creator_seats = sorted(self.tokens)
        for i, k in enumerate(self.kinds):
            self.replaced[i] = None
            self.left[i] = False
            self.away[i] = None if k == "bot" else self.now
        for seat, yes in zip(sorted(self.invites), claim, strict=False):
            if yes:
                self._claim(seat, "")
        self._open([self.tokens[s] for s in self.creator_seats], self.admin, lang)

    def _claim(self, seat: int, name: str) -> None:
        self._step()
        invite = self.invites[seat]
        suggested = self.names[seat]
        r = self.c.post(f"/api/games/{self.gid}/claim", json={"invite": invite, "name": name})
        assert r.status_code < 500, r.text
        kept, bad = _name(name)
        if r.status_code != 200:
            assert r.json()["error"]["code"] in CODES, r.text
            assert bad or not (kept or suggested), f"a name was refused: {name!r}: {r.text}"
            return
        assert not bad and (kept or suggested), f"a name was taken: {name!r}"
        body = r.json()
        assert body["seat"] == seat
        self.names[seat] = kept or suggested
        self.tokens[seat] = body["token"]
        del self.invites[seat]
        self.settle()

    # ------------------------------------------------------------------ connections
    @precondition(lambda self: len(self.clients) < MAX_CONNS)
    @rule(data=st.data())
    def open_connection(self, data: st.DataObject) -> None:
        kind = data.draw(st.sampled_from(["spectator", "seat", "creator", "stale", "several"]), label="who")
        lang = data.draw(st.sampled_from(["en", "de"]), label="lang")
        admin: str | None = None
        if kind == "seat" and self.tokens:
            tokens = [self.tokens[data.draw(st.sampled_from(sorted(self.tokens)), label="seat")]]
        elif kind == "creator":
            tokens, admin = [self.tokens[s] for s in self.creator_seats if s in self.tokens], self.admin
        elif kind == "stale" and self.old_tokens:
            tokens = [data.draw(st.sampled_from(self.old_tokens), label="old key"), "not-a-key"]
        elif kind == "several" and self.tokens:
            seats = data.draw(st.lists(st.sampled_from(sorted(self.tokens)), unique=True, min_size=1), label="seats")
            tokens = [self.tokens[s] for s in seats]
        else:
            tokens = []
        self._open(tokens, admin, lang)

    def bad_hello(self, data: st.DataObject) -> None:
        """A first message that is no good hello: an error, the connection closed, nothing else."""
        raw = data.draw(st.sampled_from([
            "{nope", "[]", json.dumps({"type": "ping"}), json.dumps({"type": "hello", "tokens": "abc"}),
            json.dumps({"type": "hello", "tokens": [], "admin": "wrong-admin-key"}),
            json.dumps({"type": "hello", "tokens": [1, 2]}),
            json.dumps({"type": "hello", "tokens": [], "lang": "xx"}),
        ]), label="hello")
        self._step()
        with self.c.websocket_connect(f"/ws/{self.gid}") as ws:
            ws.send_text(raw)
            m = self._call(_receive, ws, TIMEOUT)
            assert m["type"] == "websocket.send", m
            err = json.loads(m["text"])
            assert err["type"] == "error" and err["code"] in CODES, err
            closed = self._call(_receive, ws, TIMEOUT)
            assert closed["type"] == "websocket.close", closed
        self.settle()

    @precondition(lambda self: bool(self.clients))
    @rule(data=st.data())
    def close_connection(self, data: st.DataObject) -> None:
        cl = data.draw(st.sampled_from(self.clients), label="conn")
        self._close(cl)
        self.settle()

    @precondition(lambda self: bool(self.clients))
    @rule(data=st.data())
    def reconnect(self, data: st.DataObject) -> None:
        """Close a connection and open it again with the same keys (a reload)."""
        cl = data.draw(st.sampled_from(self.clients), label="conn")
        self._close(cl)
        self._open(cl.tokens, cl.admin, cl.lang)

    @rule(data=st.data())
    def restart(self, data: st.DataObject) -> None:
        """The server restarts on the same database (a deploy); some devices connect again."""
        back = data.draw(st.lists(st.booleans(), min_size=len(self.clients), max_size=len(self.clients)),
                         label="back")
        kept = [(cl.tokens, cl.admin, cl.lang) for cl, b in zip(self.clients, back, strict=True) if b]
        for cl in list(self.clients):
            self._close(cl)
        self.stack.close()
        self._start_server()
        for i, k in enumerate(self.kinds):
            if k != "bot":
                self.away[i] = self.now  # a loaded table counts everybody away from its loading on
        for tokens, admin, lang in kept:
            self._open(tokens, admin, lang)

    # ------------------------------------------------------------------ moves
    # The game should move on in many steps, and rules are drawn alike: playing is three rules (named
    # to sort first, so that the simplest choice plays).
    @precondition(lambda self: self._can_play())
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        """Play legal moves from the seats' newest updates: each is accepted and lands in the record."""
        self._play(data)

    @precondition(lambda self: self._can_play())
    @rule(data=st.data())
    def act_again(self, data: st.DataObject) -> None:
        self._play(data)

    @precondition(lambda self: self._can_play())
    @rule(data=st.data())
    def act_more(self, data: st.DataObject) -> None:
        self._play(data)

    def _waiting(self) -> list[int]:
        """Seats to act that nobody at the table holds: a person away, or invited and not yet come."""
        if not self.clients:
            return []
        cl = self.clients[0]
        pending = cl.latest[cl.viewers[0]]["pending"]
        return [s for s in pending if (s in self.tokens or s in self.invites) and self.replaced[s] is None
                and not any(s in c.seats for c in self.clients)]

    def _can_play(self) -> bool:
        return bool(self._to_act()) or (len(self.clients) < MAX_CONNS and bool(self._waiting()))

    def _play(self, data: st.DataObject) -> None:
        times = data.draw(st.integers(1, 10), label="moves")
        for _ in range(times):
            options = self._to_act()
            if not options:
                waiting = self._waiting()
                if not waiting or len(self.clients) >= MAX_CONNS:
                    return
                seat = data.draw(st.sampled_from(waiting), label="comes")
                if seat in self.invites:
                    self._claim(seat, f"P{seat}")
                self._open([self.tokens[seat]], None, data.draw(st.sampled_from(["en", "de"]), label="lang"))
                options = self._to_act()
            cl, seat = data.draw(st.sampled_from(options), label="who")
            m = cl.latest[seat]
            move = data.draw(st.sampled_from(m["legal"]), label="move")
            self._act(cl, seat, m["version"], move["text"], must=True)

    def _act(self, cl: Client, seat: Any, version: Any, text: Any, *, must: bool) -> bool:
        self._step()
        before = self._version()
        self._send(cl, {"type": "act", "seat": seat, "version": version, "action": text})
        self.settle()
        errors = self._errors(cl)
        if must:
            assert version == before, "the newest update is the table's version once it is quiet"
            assert not errors, f"a legal move from the newest update was refused: {text!r}: {errors}"
        if errors:
            assert len(errors) == 1, errors
            assert self._version() == before, "a refused move changed the table"
            return False
        assert type(seat) is int and version == before, f"accepted: seat {seat!r} version {version!r} {text!r}"
        assert any(m.get("type") == "update" and m["version"] > version for m in cl.inbox), (
            "an accepted move is told to its connection")
        self.acked.append((version, seat, text if must else None))
        return True

    @rule(data=st.data())
    def refused(self, data: st.DataObject) -> None:
        """Something the server must refuse: one error to the sender (or a closed connection for a bad
        hello), and the table as it was."""
        kinds: dict[str, Callable[[st.DataObject], None]] = {"bad_hello": self.bad_hello}
        if self._holding():
            kinds["act_stale"] = self.act_stale
        if self.clients:
            kinds.update(act_garbage=self.act_garbage, malformed=self.malformed)
            kinds["binary_frame"] = self.binary_frame
        if any(not cl.latest[s]["can_undo"] for cl, s in self._holding()):
            kinds["undo_refused"] = self.undo_refused
        kinds[data.draw(st.sampled_from(sorted(kinds)), label="refused")](data)

    def act_stale(self, data: st.DataObject) -> None:
        """A move naming a version the table is not at: refused as stale, nothing changes."""
        delta = data.draw(st.sampled_from([-3, -1, 1, 2]), label="off by")
        cl, seat = data.draw(st.sampled_from(self._holding()), label="who")
        m = cl.latest[seat]
        if m["version"] + delta < 0:
            delta = 1
        text = m["legal"][0]["text"] if m["legal"] else "pass"
        before = self._state()
        self._step()
        self._send(cl, {"type": "act", "seat": seat, "version": m["version"] + delta, "action": text})
        self.settle()
        errors = self._errors(cl)
        assert [e["code"] for e in errors] == [str(ErrorCode.STALE)], errors
        assert self._state() == before

    def act_garbage(self, data: st.DataObject) -> None:
        """A move that is no legal move now (or no move at all): one error, nothing changes."""
        cl = data.draw(st.sampled_from(self.clients), label="conn")
        seat = data.draw(st.sampled_from([*sorted(cl.seats), *range(-1, len(self.kinds) + 1), True, False]),
                         label="seat")
        latest = (cl.latest.get(seat) if type(seat) is int else None) or cl.latest.get(cl.viewers[0]) or {}
        version = latest.get("version", 0)
        other = [x["text"] for c in self.clients for x in c.latest.get(c.viewers[0], {}).get("legal", [])]
        text = data.draw(st.one_of(st.text(max_size=40), st.sampled_from(["", "pass", "undo", " ", "\x00"]),
                                   *([st.sampled_from(other)] if other else [])), label="text")
        if type(seat) is int and seat in cl.seats and text in [x["text"] for x in latest.get("legal", [])]:
            return  # a legal move after all: the act rules' part
        before = self._state()
        accepted = self._act(cl, seat, version, text, must=False)
        if not accepted:
            assert self._state() == before, "a refused move changed the table"

    def malformed(self, data: st.DataObject) -> None:
        """Messages of the wrong shape: one error each, the connection stays, nothing changes."""
        cl = data.draw(st.sampled_from(self.clients), label="conn")
        v = max((m["version"] for m in cl.latest.values()), default=0)
        seat = min(cl.seats) if cl.seats else 0
        big = "x" * (self.service.settings.max_body + 10)
        raw = data.draw(st.sampled_from([
            "{not json", "[1, 2]", "null", "42", '"act"', json.dumps({"type": "dance"}), json.dumps({}),
            json.dumps({"type": None}), json.dumps({"type": "act"}), big,
            json.dumps({"type": "act", "seat": str(seat), "version": v, "action": "x"}),
            json.dumps({"type": "act", "seat": seat, "version": str(v), "action": "x"}),
            json.dumps({"type": "act", "seat": seat, "version": float(v), "action": "x"}),
            json.dumps({"type": "act", "seat": seat, "version": v, "action": ["x"]}),
            json.dumps({"type": "act", "seat": seat, "version": v, "action": None}),
            json.dumps({"type": "act", "seat": seat, "version": True, "action": "x"}),
            json.dumps({"type": "act", "seat": 10 ** 30, "version": v, "action": "x"}),
            json.dumps({"type": "undo", "seat": seat, "version": None}),
            json.dumps({"type": "undo", "seat": [seat], "version": v}),
            json.dumps({"type": "leave", "seat": None}),
            json.dumps({"type": "reclaim", "seat": -1}),
            json.dumps({"type": "replace", "seat": "1", "bot": "random"}),
            json.dumps({"type": "replace", "seat": 1, "bot": 7}),
            json.dumps({"type": "hint", "seat": seat, "version": v}),
            json.dumps({"type": "hello", "tokens": []}),
            json.dumps({"type": "chat", "seat": seat, "text": 5}),
            json.dumps({"type": "chat_mute", "seat": "all", "muted": 1}),
        ]), label="raw")
        before = self._state()
        self._step()
        self._send(cl, raw)
        self.settle()
        errors = self._errors(cl)
        assert len(errors) == 1, f"one error for {raw[:80]!r}: {cl.inbox}"
        assert self._state() == before, f"a refused message changed the table: {raw[:80]!r}"

    def binary_frame(self, data: st.DataObject) -> None:
        """A binary frame (the protocol is text): refused with an error, nothing changes."""
        cl = data.draw(st.sampled_from(self.clients), label="conn")
        payload = data.draw(st.sampled_from([b"\x00\xff", json.dumps({"type": "ping"}).encode()]), label="bytes")
        before = self._state()
        self._step()
        self._send(cl, payload)
        self.settle()
        assert len(self._errors(cl)) == 1, cl.inbox
        assert self._state() == before

    # ------------------------------------------------------------------ take-backs
    @precondition(lambda self: any(cl.latest.get(s, {}).get("can_undo") for cl, s in self._holding()))
    @rule(data=st.data())
    def undo(self, data: st.DataObject) -> None:
        """Take back a move where the newest update offers it: accepted, an entry of the record."""
        options = [(cl, s) for cl, s in self._holding() if cl.latest[s]["can_undo"]]
        cl, seat = data.draw(st.sampled_from(options), label="who")
        version = cl.latest[seat]["version"]
        self._step()
        self._send(cl, {"type": "undo", "seat": seat, "version": version})
        self.settle()
        assert not self._errors(cl), f"a take-back the update offered was refused: {cl.inbox}"
        self.acked.append((version, seat, "undo"))

    def undo_refused(self, data: st.DataObject) -> None:
        """A take-back the update does not offer: refused, nothing changes."""
        options = [(cl, s) for cl, s in self._holding() if not cl.latest[s]["can_undo"]]
        cl, seat = data.draw(st.sampled_from(options), label="who")
        before = self._state()
        self._step()
        self._send(cl, {"type": "undo", "seat": seat, "version": cl.latest[seat]["version"]})
        self.settle()
        assert len(self._errors(cl)) == 1, cl.inbox
        assert self._state() == before

    # ------------------------------------------------------------------ seats
    @precondition(lambda self: bool(self._holding()))
    @rule(data=st.data())
    def leave(self, data: st.DataObject) -> None:
        cl, seat = data.draw(st.sampled_from(self._holding()), label="who")
        self._step()
        self._send(cl, {"type": "leave", "seat": seat})
        self.settle()
        assert not self._errors(cl), cl.inbox
        self.left[seat] = True

    @precondition(lambda self: bool(self._holding()))
    @rule(data=st.data())
    def reclaim(self, data: st.DataObject) -> None:
        cl, seat = data.draw(st.sampled_from(self._holding()), label="who")
        self._step()
        self._send(cl, {"type": "reclaim", "seat": seat})
        self.settle()
        assert not self._errors(cl), cl.inbox
        self.left[seat] = False
        self.replaced[seat] = None

    @precondition(lambda self: bool(self.clients))
    @rule(data=st.data())
    def replace(self, data: st.DataObject) -> None:
        """The creator hands a seat to a bot: accepted exactly when the seat is a person's who left or
        is away long enough; anyone else is refused."""
        cl = data.draw(st.sampled_from(self.clients), label="conn")
        seat = data.draw(st.integers(-1, len(self.kinds)), label="seat")
        bot = data.draw(st.sampled_from(BOTS + BAD_BOTS), label="bot")
        before = self._state()
        over = self._over()
        self._step()
        self._send(cl, {"type": "replace", "seat": seat, "bot": bot})
        self.settle()
        errors = self._errors(cl)
        if not 0 <= seat < len(self.kinds):
            expect = False
        else:
            away = self.away.get(seat)
            gone = self.left[seat] or (away is not None and self.now - away >= AWAY_SECONDS)
            expect = (cl.admin is not None and self.kinds[seat] != "bot" and self.replaced[seat] is None
                      and bot in BOTS and gone)
        if over:
            expect = not errors  # a finished table: either answer (the model does not follow a reload)
        assert (not errors) == expect, f"replace {seat} by {bot!r}: expected {'accepted' if expect else 'refused'}: " \
                                       f"{errors} (left {self.left}, away {self.away}, now {self.now})"
        if errors:
            assert len(errors) == 1
            assert self._state() == before
        else:
            self.replaced[seat] = bot

    @precondition(lambda self: bool(self.invites))
    @rule(data=st.data())
    def claim(self, data: st.DataObject) -> None:
        """A person joins with an invite (every connection is told the new name, its whole log again)."""
        seat = data.draw(st.sampled_from(sorted(self.invites)), label="seat")
        self._claim(seat, data.draw(NAMES, label="name"))

    @rule(data=st.data())
    def invite_anew(self, data: st.DataObject) -> None:
        """The creator takes a seat back and invites anew: the old key stops working, its holders watch."""
        seat = data.draw(st.integers(0, len(self.kinds) - 1), label="seat")
        over = self._over()
        before = self._state()
        self._step()
        r = self.c.post(f"/api/games/{self.gid}/invite", json={"admin": self.admin, "seat": seat})
        assert r.status_code < 500, r.text
        if self.kinds[seat] == "bot" or over:
            assert r.status_code != 200, r.text
            assert r.json()["error"]["code"] in CODES
            self.settle()
            assert self._state() == before
            return
        assert r.status_code == 200, r.text
        holders = [cl for cl in self.clients if seat in cl.seats]
        if seat in self.tokens:
            self.old_tokens.append(self.tokens.pop(seat))
        self.rotated = {t: s for t, s in self.rotated.items() if s != seat}  # revoked with the seat's key
        self.invites[seat] = r.json()["invite"]
        self.kinds[seat] = "person"
        self.left[seat] = False
        self.away[seat] = self.now
        self.settle()
        for cl in holders:
            told = [m for m in cl.inbox if m.get("type") == "revoked"]
            assert told and told[0]["seats"] == [seat], f"{cl.name} is told its seat was taken: {cl.inbox}"
            assert seat not in cl.seats

    @precondition(lambda self: bool(self._holding()))
    @rule(data=st.data())
    def rotate(self, data: st.DataObject) -> None:
        """A device asks for a new key: it alone gets it, the old one stops, other holders watch."""
        cl, seat = data.draw(st.sampled_from(self._holding()), label="who")
        others = [o for o in self.clients if o is not cl and seat in o.seats]
        mine = list(cl.tokens)
        self._step()
        self._send(cl, {"type": "rotate", "seat": seat})
        self.settle()
        assert not self._errors(cl), cl.inbox
        told = [m for m in cl.inbox if m.get("type") == "token"]
        assert len(told) == 1 and told[0]["seat"] == seat and told[0]["old"] in mine, cl.inbox
        assert self.tokens[seat] == told[0]["token"] not in mine
        for o in others:
            assert [m for m in o.inbox if m.get("type") == "revoked"] == [{"type": "revoked", "seats": [seat]}], \
                f"{o.name} is told it holds the seat no more: {o.inbox}"
            assert not any(m.get("type") == "token" for m in o.inbox), f"{o.name} got the new key: {o.inbox}"

    @precondition(lambda self: bool(self.clients))
    @rule(data=st.data())
    def resume(self, data: st.DataObject) -> None:
        """``resume`` at a table that needs no attention: the creator's changes nothing, anybody else's
        is refused."""
        cl = data.draw(st.sampled_from(self.clients), label="conn")
        before = self._state()
        self._step()
        self._send(cl, {"type": "resume"})
        self.settle()
        codes = [e["code"] for e in self._errors(cl)]
        assert codes == ([] if cl.admin else [str(ErrorCode.TOKEN)]), cl.inbox
        assert self._state() == before

    # ------------------------------------------------------------------ time, chat
    @rule(seconds=st.sampled_from([5.0, MOVE_SECONDS + 1, AWAY_SECONDS + 1, DAYS]))
    def time_passes(self, seconds: float) -> None:
        """The fake clock moves: a person whose move clock ran out gets the stand-in's move."""
        self._step()
        self.clock.advance(seconds)
        self._call(self.service.tick)
        self.settle()

    @precondition(lambda self: bool(self.clients))
    @rule(data=st.data())
    def chat(self, data: st.DataObject) -> None:
        cl = data.draw(st.sampled_from(self.clients), label="conn")
        seat = data.draw(st.sampled_from([None, *sorted(cl.seats)]), label="seat")
        text = data.draw(st.one_of(st.text(max_size=20), st.just("hello")), label="text")
        before = self._state()
        self._step()
        self._send(cl, {"type": "chat", "seat": seat, "text": text})
        self.settle()
        errors = self._errors(cl)
        if errors:
            assert len(errors) == 1
            assert self._state() == before
            return
        said = [m for m in cl.inbox if m.get("type") == "chat"]
        assert len(said) == 1, cl.inbox
        for other in self.clients:
            assert [m for m in other.inbox if m.get("type") == "chat"] == said, f"{other.name} heard it too"

    # ------------------------------------------------------------------ invariants
    @invariant()
    def server_is_well(self) -> None:
        assert not self.errors.records, "the server logged an error: " + "; ".join(
            f"{r.name}: {r.getMessage()}" for r in self.errors.records)

    @invariant()
    def record_and_payloads_are_true(self) -> None:
        if not self.gid:
            return
        wanted: dict[int, set[tuple[int | None, str]]] = {}
        for cl in self.clients:
            for m in cl.inbox:
                if m.get("type") == "update":
                    wanted.setdefault(m["version"], set()).add((m["viewer"], cl.lang))
        checks = self._call(self._truth, wanted, [(v, cl.lang) for cl in self.clients for v in cl.viewers])
        (version, entries, stored_entries, state, replayed, undo_live, undo_replayed, positions, fresh,
         notes, over) = checks
        assert stored_entries == entries, "the store holds the live record"
        assert replayed == state, "the stored record replays to the live state"
        assert undo_replayed == undo_live, "the replayed match has the live take-back rights"
        for v, seat, text in self.acked:
            assert entries[v][0] == seat and text in (None, entries[v][1]), (
                f"acknowledged move {text!r} of seat {seat} at {v}: {entries[v]}")
        for cl in self.clients:
            for m in cl.inbox:
                if m.get("type") != "update":
                    continue
                pos = positions[m["version"]][(m["viewer"], cl.lang)]
                got = {k: m[k] for k in pos}
                assert got == pos, f"{cl.name}: the update for {m['viewer']!r} at {m['version']} says other than " \
                                   f"the position then"
            for viewer in cl.viewers:
                newest = cl.latest.get(viewer)
                assert newest is not None, f"{cl.name} got no update for {viewer!r}"
                m, want = newest, fresh[(viewer, cl.lang)]
                assert m["version"] == version, f"{cl.name}: its newest update for {viewer!r} is stale"
                assert not m["can_undo"] or want["can_undo"], f"{cl.name}: a take-back the rules do not allow"
                assert m["attention"] is None, f"the table needs attention: {m['attention']}"
                assert m["status"] == ("over" if over else "running"), m["status"]
                seats, model = [_drop_away(s) for s in m["seats"]], self._seats(cl.lang)
                assert seats == model, f"{cl.name}: the seats: " + "; ".join(
                    f"{i}: {_delta(a, b)}" for i, (a, b) in enumerate(zip(seats, model, strict=True)) if a != b)
                assert {k: m[k] for k in want["position"]} == want["position"]
                assert cl.lines[viewer] == want["log"], f"{cl.name}: the log for {viewer!r} as the record tells it"
                assert [(x["i"], x["note"], x["msg"]["params"].get("seat")) for x in cl.notes[viewer]] == notes, \
                    f"{cl.name}: the table's notes"
                assert m["result"] is None or over
                if not over:  # nobody waits for a bot that does not move
                    assert all(m["seats"][p]["bot"] is None for p in m["pending"]), m["seats"]

    def _truth(self, wanted: dict[int, set[tuple[int | None, str]]],
               viewers: list[tuple[int | None, str]]) -> tuple[Any, ...]:
        """In the server's loop: the live table, the stored record replayed, positions at past versions.

        What a viewer should be told is built here from the match's own protocol (docs/web.md), not
        with the server's payload code, so a fault there cannot hide itself."""
        service, game = self.service, self.game
        live = service.get(self.gid)
        stored = service.store.load(self.gid)
        assert stored is not None
        record = GameRecord(game=game.id, rules_version=game.rules_version, data_version=game.data_version,
                            players=stored.players, options=stored.options, seed=stored.seed,
                            entries=[(a, t) for a, t in stored.entries])
        replayed = Match.from_record(game, record, undo=True)
        match = live.match
        seats = range(match.players)
        positions: dict[int, dict[tuple[int | None, str], Any]] = {}
        current = wanted.pop(live.version, set())
        if current:
            positions[live.version] = {(v, lang): _position(match, v, live.tr(lang)) for v, lang in current}
        if wanted:
            for i, _actor, _text, m in Match.walk_record(game, record):
                if i in wanted:
                    positions[i] = {(v, lang): _position(m, v, live.tr(lang)) for v, lang in wanted[i]}
        assert set(wanted) <= set(positions), f"updates at versions the record never had: {wanted}"
        fresh = {}
        for v, lang in viewers:
            tr = live.tr(lang)
            fresh[(v, lang)] = {
                "position": _position(match, v, tr),
                "can_undo": v is not None and match.can_undo(v),
                "log": _norm([_line(game, i, m, tr) for i, e in match.events
                              for m in (e.for_viewer(v),) if m is not None]),
            }
        notes = [(n[0], n[2] if len(n) > 2 else "hint", n[1]) for n in live.notes]
        entries = [[a, t] for a, t in match.record.entries]
        return (live.version, entries, [[a, t] for a, t in stored.entries],
                _norm(game.state_to_json(match.state)), _norm(game.state_to_json(replayed.state)),
                [match.can_undo(s) for s in seats], [replayed.can_undo(s) for s in seats],
                positions, fresh, notes, match.is_over())

    def _seats(self, lang: str) -> list[dict[str, Any]]:
        """The seats as the test's model has them (docs/web.md: name, kind, bot, presence)."""
        spec = SPECS[self.GAME]["seats"]
        return [{
            "name": seat_name(self.names[i], i, lang),
            "kind": self.kinds[i],
            "bot": spec[i]["bot"] if self.kinds[i] == "bot" else self.replaced[i],
            "replaced": self.replaced[i] is not None,
            "claimed": i not in self.invites,
            "connected": self.kinds[i] == "bot" or any(i in cl.seats for cl in self.clients),
            "left": self.left[i],
            "letter": SEAT_LETTERS[i],
            "colour": SEAT_COLOURS[i],
        } for i in range(len(self.kinds))]


def _position(match: Match[Any, Any, Any], viewer: int | None, tr: Any) -> dict[str, Any]:
    """What ``viewer`` may be told of the position (docs/web.md, "An update on the wire")."""
    pending = [p for p in match.pending() if p >= 0]
    legal = [] if viewer is None or viewer not in pending else [
        {"text": a.to_text(), "label": tr(match.describe(viewer, a, viewer)), "action": a.to_json(),
         "final": match.closes_takeback(viewer, a)} for a in match.legal(viewer)]
    result = match.result()
    position: dict[str, Any] = _norm({"pending": pending, "view": match.view(viewer).to_json(), "legal": legal,
                                      "result": None if result is None else result.to_json()})
    return position


def _line(game: Any, i: int, m: Any, tr: Any) -> dict[str, Any]:
    """A log line: its entry, the text in the viewer's language, the message; a round's opening marked."""
    line = {"i": i, "text": tr(m), "msg": m.to_json()}
    if game.starts_section(m):
        line["section"] = True
    return line


def _name(raw: str) -> tuple[str, bool]:
    """A name as docs/web.md keeps it (whitespace runs one space, trimmed, NFC, 24 characters), and
    whether it is refused (a control, lone surrogate or invisible format character; joiners stay)."""
    text = " ".join(raw.split())
    bad = any(unicodedata.category(ch) in ("Cc", "Cs")
              or (unicodedata.category(ch) == "Cf" and ch not in "\u200c\u200d") for ch in text)
    return unicodedata.normalize("NFC", text)[:24].strip(), bad


def _delta(got: dict[str, Any], want: dict[str, Any]) -> str:
    return ", ".join(f"{k} {got.get(k)!r} (expected {want.get(k)!r})" for k in sorted({*got, *want})
                     if got.get(k) != want.get(k))


def _drop_away(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat without ``away`` (seconds away, as of the update: the fake clock moves without one)."""
    return {k: v for k, v in seat.items() if k != "away"}


# ---------------------------------------------------------------------------- the tests
@pytest.mark.parametrize("db", ["sqlite", "postgresql"] if DEEP else ["sqlite"])
@pytest.mark.parametrize("game", sorted(SPECS))
def test_websocket_protocol_fuzz(game: str, db: str, tmp_path: Any) -> None:
    pg = ""
    if db == "postgresql":
        pg = _pg_url() or ""
        if not pg:
            pytest.skip("no PostgreSQL (set TABLERO_TEST_PG_URL; make test-deep does)")
    machine = type(f"WsFuzz_{game.replace('-', '_')}", (WsFuzz,), {"GAME": game, "BASE": str(tmp_path), "PG": pg})
    examples = EXAMPLES if db == "sqlite" else EXAMPLES // 2  # PostgreSQL takes about twice as long
    run_state_machine_as_test(machine, settings=settings(max_examples=examples, stateful_step_count=STEPS))


# ---------------------------------------------------------------------------- what the fuzzer found
def _until(ws: Any, ok: Callable[[dict[str, Any]], bool], first: dict[str, Any] | None = None) -> dict[str, Any]:
    m = first if first is not None else recv(ws)
    while not ok(m):
        m = recv(ws)
    return m


def test_a_player_back_after_leaving_is_no_longer_left_after_a_restart(sqlite_url: str, clock: FakeClock) -> None:
    seats = [{"kind": "you", "name": "Ann"}, {"kind": "local", "name": "Bea"}]
    with client(sqlite_url, clock) as c:
        g = create(c, "el-grande", seats, options={"short_game": True})
        token = g["tokens"]["0"]
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            hello(ws, [token])
            ws.send_text(json.dumps({"type": "leave", "seat": 0}))
            _until(ws, lambda m: m["type"] == "update" and m["seats"][0]["left"])
        with c.websocket_connect(f"/ws/{g['id']}") as ws:  # back: the seat is no longer left
            m = _until(ws, lambda m: m["type"] == "update", hello(ws, [token]))
            assert m["seats"][0]["left"] is False
    with client(sqlite_url, clock) as c, c.websocket_connect(f"/ws/{g['id']}") as ws:  # a restart
        m = _until(ws, lambda m: m["type"] == "update", hello(ws, []))
        assert m["seats"][0]["left"] is False, "the seat is left again after a restart"
