"""Log sections (``Game.starts_section``): the line that opens each round or month.

A played game of each title has one section line per round (El Grande, Don Carlo) or month
(Mafia Legend), the same for every viewer, and the web payload's log marks exactly those lines
with ``"section": true``.
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from tablero.core.match import Match
from tablero.core.messages import Translator
from tablero.registry import get_game
from tablero.server.payload import log_lines


def _played(gid: str, players: int, options: dict[str, Any], seed: int) -> Match[Any, Any, Any]:
    m: Match[Any, Any, Any] = Match(get_game(gid), [f"P{i}" for i in range(players)], options=options, seed=seed)
    rng = Random(seed)
    while not m.is_over():
        seat = m.pending()[0]
        m.act(seat, rng.choice(list(m.legal(seat))))
    return m


def _sections(m: Match[Any, Any, Any], viewer: int | None) -> list[Any]:
    return [msg for msg in m.log(viewer) if m.game.starts_section(msg)]


def _same_for_everyone(m: Match[Any, Any, Any]) -> list[Any]:
    """The section lines, checked to be the same for every viewer and marked in the payload's log."""
    spectator = _sections(m, None)
    for seat in range(m.players):
        assert _sections(m, seat) == spectator
    tr = Translator("en", [m.game.catalogue()], m.record.players)
    for viewer in (None, 1):
        lines = log_lines(m, viewer, 0, tr)
        assert [line["msg"] for line in lines if line.get("section")] == [s.to_json() for s in spectator]
    return spectator


@pytest.mark.parametrize("seed", [1, 2])
def test_el_grande_short_game_has_a_section_per_round(seed: int) -> None:
    m = _played("el-grande", 3, {"short_game": True}, seed)
    rounds = m.view(None).public.rounds
    sections = _same_for_everyone(m)
    assert len(rounds) == 6  # the short game (§11)
    assert [s.id for s in sections] == ["eg.round"] * len(rounds)
    assert [dict(s.params)["round"] for s in sections] == list(rounds)


@pytest.mark.parametrize("seed", [1, 2])
def test_mafia_legend_has_a_section_per_month(seed: int) -> None:
    m = _played("mafia-legend", 3, {"variant": "beginner"}, seed)
    months = m.view(None).public.month  # the month the game ended in (it may end before December)
    sections = _same_for_everyone(m)
    assert [dict(s.params)["month"] for s in sections] == list(range(1, months + 1))
    # Month 1's line comes after the setup (start player, families, the deal), before the first turn.
    log = [msg.id for msg in m.log(None)]
    assert log.index("ml.month") < log.index("ml.turn")
    assert log.index("ml.month") > log.index("ml.start")


def _rounds_of_turns(m: Match[Any, Any, Any]) -> int:
    """Rounds counted from the public log alone: each turn ends with the seat's agent or with the
    seat going out (§5), so those lines give the turns in order; a round begins with the first
    turn and whenever the turn comes round past the start seat again."""
    start, n = m.view(None).public.start_seat, m.players
    rounds, prev = 0, None
    for msg in m.log(None):
        if msg.id not in ("dc.play", "dc.out"):
            continue
        seat = dict(msg.params)["seat"]
        if prev is None or (seat - start) % n <= (prev - start) % n:
            rounds += 1
        prev = seat
    return rounds


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_don_carlo_has_a_section_per_round(seed: int) -> None:
    m = _played("don-carlo", 3, {}, seed)
    sections = _same_for_everyone(m)
    assert [dict(s.params)["round"] for s in sections] == list(range(1, len(sections) + 1))
    assert len(sections) == m.view(None).public.round == _rounds_of_turns(m)
    assert len(sections) > 1
