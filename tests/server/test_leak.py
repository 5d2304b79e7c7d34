"""No hidden-information leak in anything the server sends, as equality of payloads.

Whole games of each title are played through the service, every seat and a spectator on
its own connection. At the moment each payload is sent, the hidden part of the table is
re-dealt (``Game.determinize`` from that viewer's observation), a match is started from the
re-dealt position (``Match.from_state``: the driver then applies whatever forced steps that
position has, as it would in play) and the payload's position part is built again from it: it
must be exactly what was sent. A spectator's payload must not change under re-deals made from
any seat's point of view. The rest of a payload (version, log, take-back right) comes from the
record and the log, whose lines carry their own visibility (tested with each game).

Tables with search bots and hints add what the searches say: the table's facts in every
payload (``thinking``, ``thought``, ``hints``, the seats, the clocks) are the same for every
viewer, a hint reaches the asking connection only, and every search answer (a bot's move, a
hint) is the one the same search gives from a re-dealt position: it saw the seat's view and
legal moves, nothing else.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from random import Random
from typing import Any, TypeVar

import pytest

from tablero.core.match import Match
from tablero.core.rng import derive_seed
from tablero.server import payload as payload_module
from tablero.server import service as service_module
from tablero.server.service import Conn, GameService, LiveGame
from tablero.server.store import Store
from tablero.server.workers import ThinkJob, Workers, think

from .conftest import FakeClock

T = TypeVar("T")

CASES = [
    ("don-carlo", 3, {}),
    ("el-grande", 3, {"short_game": True}),
    ("mafia-legend", 3, {"variant": "beginner"}),
    ("mafia-legend", 4, {}),
]


def _check(live: LiveGame, conn: Conn, sent: dict[str, Any], rng: Random) -> None:
    viewer = sent["viewer"]
    game, match = live.game, live.match
    tr = live.tr(conn.lang)
    assert payload_module.position_payload(match, viewer, tr).items() <= sent.items()
    points = [viewer] if viewer is not None else list(range(match.players))
    for seat in points:
        redealt = game.determinize(match.view(seat), seat, rng)
        twin = Match.from_state(game, redealt, match.record.players, options=match.options, seed=0)
        again = payload_module.position_payload(twin, viewer, tr)
        assert again.items() <= sent.items(), (
            f"payload for viewer {viewer} depends on what it may not see (re-dealt for {seat})")


async def _sent(conns: list[Conn]) -> None:
    """Let the connections' writers send all that waits (each outbox sends in a task of its own)."""
    while not all(c.outbox is None or c.outbox.idle for c in conns):
        await asyncio.sleep(0)


async def _play(tmp: Path, gid: str, n: int, opts: dict[str, Any], seed: int) -> int:
    service = GameService(Store(f"sqlite:///{tmp / 'leak.db'}"), clock=FakeClock())
    created = service.create({"game": gid, "options": opts, "seats": [{"kind": "local"}] * n})
    live = service.get(created["id"])
    rng = Random(seed)
    checked = 0
    conns: list[Conn] = []
    failures: list[str] = []

    def sender(index: int) -> Any:
        async def send(text: str) -> None:
            nonlocal checked
            msg = json.loads(text)
            if msg["type"] == "update":
                try:
                    _check(live, conns[index], msg, rng)
                except AssertionError as exc:  # the server drops a connection whose send fails
                    failures.append(str(exc))
                checked += 1
        return send

    for i in range(n + 1):
        tokens = [created["tokens"][i]] if i < n else []
        lang = "de" if i % 2 else "en"
        conns.append(Conn(send=sender(i), seats=frozenset(), admin=False, lang=lang))  # until connected
        conns[i] = await service.connect(created["id"], sender(i), tokens=tokens, admin=None, lang=lang)
    steps = 0
    while not live.match.is_over() and steps < 5000:
        steps += 1
        seat = live.match.pending()[0]
        if live.match.can_undo(seat) and rng.random() < 0.1:
            await service.handle(created["id"], conns[seat], json.dumps(
                {"type": "undo", "seat": seat, "version": live.version}))
            await _sent(conns)
            continue
        legal = live.match.legal(seat)
        text = legal[rng.randrange(len(legal))].to_text()
        await service.handle(created["id"], conns[seat], json.dumps(
            {"type": "act", "seat": seat, "version": live.version, "action": text}))
        await _sent(conns)
    service.store.close()
    assert not failures, failures[0]
    assert live.match.is_over()
    return checked


def _run(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on a thread of its own: a session's Playwright (sync API) keeps an event loop
    running on the test worker's main thread, where ``asyncio.run`` would refuse to start."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.mark.parametrize(("gid", "n", "opts"), CASES)
def test_every_payload_is_the_same_when_hidden_cards_are_re_dealt(
        tmp_path: Path, gid: str, n: int, opts: dict[str, Any]) -> None:
    checked = _run(_play(tmp_path, gid, n, opts, seed=11))
    assert checked > 0


def test_the_check_catches_a_payload_that_peeks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = payload_module.position_payload

    def peeking(match: Any, viewer: Any, tr: Any) -> dict[str, Any]:
        p = real(match, viewer, tr)
        other = 1 if viewer == 0 else 0
        p["peek"] = match.view(other).to_json()  # another seat's hand
        return p

    monkeypatch.setattr(payload_module, "position_payload", peeking)
    with pytest.raises(AssertionError, match="depends on what it may not see"):
        _run(_play(tmp_path, "don-carlo", 3, {}, seed=1))


SEARCH = "ismcts:iterations=4:depth=2"
PUBLIC = ("seats", "thinking", "thought", "hints", "clocks", "pending", "result", "version")


def _search_from_redealt(live: LiveGame, seat: int, bot: str, seed: int, rng: Random) -> str:
    """The search's answer for ``seat`` from a position re-dealt from its view (same seed)."""
    game, match = live.game, live.match
    redealt = game.determinize(match.view(seat), seat, rng)
    twin = Match.from_state(game, redealt, match.record.players, options=match.options, seed=0)
    return think(service_module.think_job(game.id, bot, twin, seat, seed))  # the service's own path


async def _play_with_searches(tmp: Path, gid: str, kinds: list[dict[str, Any]], opts: dict[str, Any],
                              seed: int) -> tuple[int, int, int]:
    workers = Workers(1, executor=ThreadPoolExecutor(1))
    service = GameService(Store(f"sqlite:///{tmp / 'leak.db'}"), clock=FakeClock(), workers=workers)
    service.hint_bot = SEARCH
    service.timer = lambda: 0.0  # the thinking time is the same for every viewer of one broadcast
    created = service.create({"game": gid, "options": opts, "seats": kinds, "hints": True})
    live = service.get(created["id"])
    people = sorted(int(i) for i in created["tokens"])
    rng, play = Random(seed), Random(seed + 1)  # re-deals; the people's choices
    conns: list[Conn] = []
    failures: list[str] = []
    counts = {"updates": 0, "hints": 0, "bot": 0}
    asked: dict[int, tuple[int, int]] = {}  # connection index -> (seat, version) of its open hint

    def sender(index: int) -> Any:
        async def send(text: str) -> None:
            msg = json.loads(text)
            try:
                if msg["type"] == "update":
                    _check(live, conns[index], msg, rng)
                    spectator = service.payload(live, None, "en", live.version, False, service.public_seats(live))
                    for key in PUBLIC:
                        assert msg[key] == spectator[key], f"{key} differs between viewers"
                    counts["updates"] += 1
                elif msg["type"] == "hint":
                    assert asked.get(index) == (msg["seat"], msg["version"]), "a hint reached another connection"
                    if msg["version"] == live.version:
                        s = msg["seat"]
                        again = _search_from_redealt(live, s, SEARCH, derive_seed(live.stored.seed, "hint", s,
                                                                                  live.version), rng)
                        assert msg["text"] == again, "the hint depends on what the seat may not see"
                    counts["hints"] += 1
            except AssertionError as exc:  # the server drops a connection whose send fails
                failures.append(str(exc))
        return send

    for i in range(len(people) + 1):
        tokens = [created["tokens"][people[i]]] if i < len(people) else []
        conns.append(Conn(send=sender(i), seats=frozenset(), admin=False, lang="en"))
        conns[i] = await service.connect(created["id"], sender(i), tokens=tokens, admin=None, lang="en")

    # every bot move must be what its search gives from a re-dealt position
    real_apply = service._apply_bot

    async def checked_apply(lv: LiveGame, seat: int, action: Any, seconds: float | None = None) -> None:
        if isinstance(action, str):
            name = lv.controller(seat)
            assert name is not None
            again = _search_from_redealt(lv, seat, name, derive_seed(lv.stored.seed, "bot", seat, lv.version), rng)
            if action != again:
                failures.append("a bot's move depends on what its seat may not see")
            counts["bot"] += 1
        await real_apply(lv, seat, action, seconds)

    service._apply_bot = checked_apply  # type: ignore[method-assign]
    steps = 0
    while not live.match.is_over() and steps < 3000 and not failures:
        steps += 1
        seat = live.match.pending()[0]
        if seat not in people:
            await asyncio.sleep(0.002)  # a bot thinks in the pool
            continue
        index = people.index(seat)
        if play.random() < 0.25 and asked.get(index) != (seat, live.version):
            asked[index] = (seat, live.version)
            before = counts["hints"]
            await service.handle(created["id"], conns[index], json.dumps(
                {"type": "hint", "seat": seat, "version": live.version}))
            for _ in range(2000):
                if counts["hints"] > before:
                    break
                await asyncio.sleep(0.002)
            continue
        legal = live.match.legal(seat)
        await service.handle(created["id"], conns[index], json.dumps(
            {"type": "act", "seat": seat, "version": live.version,
             "action": legal[play.randrange(len(legal))].to_text()}))
    await service.close()
    service.store.close()
    assert not failures, failures[0]
    assert live.match.is_over()
    return counts["updates"], counts["hints"], counts["bot"]


@pytest.mark.parametrize(("gid", "kinds", "opts"), [
    ("don-carlo", [{"kind": "local"}, {"kind": "bot", "bot": SEARCH}, {"kind": "local"}], {}),
    ("el-grande", [{"kind": "local"}, {"kind": "bot", "bot": SEARCH}, {"kind": "local"}], {"short_game": True}),
])
def test_search_bots_and_hints_see_only_their_seat(tmp_path: Path, gid: str, kinds: list[dict[str, Any]],
                                                  opts: dict[str, Any]) -> None:
    updates, hints, bot_moves = _run(_play_with_searches(tmp_path, gid, kinds, opts, seed=5))
    assert updates > 0 and hints > 0 and bot_moves > 0


def test_the_check_catches_a_search_that_peeks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = service_module.think_job

    def peeking(game_id: str, bot: str, match: Any, seat: int, seed: int) -> ThinkJob:
        job = real(game_id, bot, match, seat, seed)  # a search whose luck depends on the hidden cards
        return ThinkJob(job.game, job.bot, job.view, job.legal, seed ^ int(match.game.state_hash(match.state), 16))

    monkeypatch.setattr(service_module, "think_job", peeking)
    with pytest.raises(AssertionError, match="depends on what"):
        _run(_play_with_searches(tmp_path, "don-carlo", [{"kind": "local"}, {"kind": "bot", "bot": SEARCH},
                                                                {"kind": "local"}], {}, seed=5))
