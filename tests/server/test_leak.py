"""No hidden-information leak in anything the server sends, as equality of payloads.

Whole games of each title are played through the service, every seat and a spectator on
its own connection. At the moment each payload is sent, the hidden part of the table is
re-dealt (``Game.determinize`` from that viewer's observation), a match is started from the
re-dealt position (``Match.from_state``: the driver then applies whatever forced steps that
position has, as it would in play) and the payload's position part is built again from it: it
must be exactly what was sent. A spectator's payload must not change under re-deals made from
any seat's point of view. The rest of a payload (version, log, take-back right) comes from the
record and the log, whose lines carry their own visibility (tested with each game).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from random import Random
from typing import Any

import pytest

from tablero.core.match import Match
from tablero.server import payload as payload_module
from tablero.server.service import Conn, GameService, LiveGame
from tablero.server.store import Store

from .conftest import FakeClock

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
    real = payload_module.position_payload

    def peeking(match: Any, viewer: Any, tr: Any) -> dict[str, Any]:
        p = real(match, viewer, tr)
        other = 1 if viewer == 0 else 0
        p["peek"] = match.view(other).to_json()  # another seat's hand
        return p

    monkeypatch.setattr(payload_module, "position_payload", peeking)
    with pytest.raises(AssertionError, match="depends on what it may not see"):
        asyncio.run(_play(tmp_path, "don-carlo", 3, {}, seed=1))
