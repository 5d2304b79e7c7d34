"""No hidden-information leak in anything the server sends, as equality of payloads.

Whole games of each title are played through the service, every seat and a spectator on
its own connection. At the moment each payload is sent, the hidden part of the table is
re-dealt (``Game.determinize`` from that viewer's observation) and the payload is built
again from the re-dealt state: it must be exactly the payload that was sent. A spectator's
payload must not change under re-deals made from any seat's point of view.
"""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from tablero.server.service import Conn, GameService, LiveGame
from tablero.server.store import Store

from .conftest import FakeClock

CASES = [
    ("don-carlo", 3, {}),
    ("el-grande", 3, {"short_game": True}),
    ("mafia-legend", 3, {"variant": "beginner"}),
    ("mafia-legend", 4, {}),
]


def _check(service: GameService, live: LiveGame, conn: Conn, sent: dict[str, Any], rng: Random) -> None:
    viewer = sent["viewer"]
    game, match = live.game, live.match
    seats = sent["seats"]
    points = [viewer] if viewer is not None else list(range(match.players))
    for seat in points:
        view = game.observe(match.state, seat)
        twin = copy.copy(match)
        twin.state = game.determinize(view, seat, rng)
        again = service.payload(live, twin, viewer, conn.lang, sent["log_since"], conn.admin, seats)
        assert again == sent, f"payload for viewer {viewer} depends on what it may not see (re-dealt for {seat})"


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
                    _check(service, live, conns[index], msg, rng)
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
            continue
        legal = live.match.legal(seat)
        text = legal[rng.randrange(len(legal))].to_text()
        await service.handle(created["id"], conns[seat], json.dumps(
            {"type": "act", "seat": seat, "version": live.version, "action": text}))
    service.store.close()
    assert not failures, failures[0]
    assert live.match.is_over()
    return checked


@pytest.mark.parametrize(("gid", "n", "opts"), CASES)
def test_every_payload_is_the_same_when_hidden_cards_are_re_dealt(
        tmp_path: Path, gid: str, n: int, opts: dict[str, Any]) -> None:
    checked = asyncio.run(_play(tmp_path, gid, n, opts, seed=11))
    assert checked > 0


def test_the_check_catches_a_payload_that_peeks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tablero.server.service as service_module

    real = service_module.seat_payload

    def peeking(match: Any, viewer: Any, tr: Any, **kw: Any) -> dict[str, Any]:
        p = real(match, viewer, tr, **kw)
        other = 1 if viewer == 0 else 0
        p["peek"] = match.game.observe(match.state, other).to_json()  # another seat's hand
        return p

    monkeypatch.setattr(service_module, "seat_payload", peeking)
    with pytest.raises(AssertionError, match="depends on what it may not see"):
        asyncio.run(_play(tmp_path, "don-carlo", 3, {}, seed=1))
