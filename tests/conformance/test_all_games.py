"""The conformance suite over every registered game and the toy game, every player count, seeds.

The default run keeps to a few seeds per (game, players); ``TABLERO_DEEP=1`` runs many more.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from tablero.core.protocol import Game
from tablero.registry import GAMES
from tablero.testing import TOY_GAME, check_metadata, check_overrides, run_conformance

DEEP = os.environ.get("TABLERO_DEEP") == "1"

ALL_GAMES: dict[str, Game[Any, Any, Any]] = {**GAMES, TOY_GAME.id: TOY_GAME}

SEEDS = range(200) if DEEP else range(4)
TOY_SEEDS = range(500) if DEEP else range(20)
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "el-grande": [{}, {"short_game": True}],
    "mafia-legend": [{"variant": "beginner"}, {"variant": "advanced"}, {"variant": "advanced", "missions": True}],
}
"""Option sets cycled over the seeds of a game (seed i uses variant i mod len)."""
DEEP_SEEDS: dict[str, range] = {"el-grande": range(40), "mafia-legend": range(12)}
"""Fewer deep seeds for long games (each El Grande seed checks every step of a whole game)."""
LEAK_EVERY: dict[str, int] = {"el-grande": 3, "mafia-legend": 5}
DEEP_LEAK_EVERY: dict[str, int] = {"mafia-legend": 2}
"""Long games check the no-leak transitions at every k-th step (every step in the deep run)."""


def _cases() -> list[Any]:
    out = []
    for gid, game in sorted(ALL_GAMES.items()):
        seeds = TOY_SEEDS if game is TOY_GAME else SEEDS
        if DEEP and gid in DEEP_SEEDS:
            seeds = DEEP_SEEDS[gid]
        for n in range(game.min_players, game.max_players + 1):
            for seed in seeds:
                out.append(pytest.param(game, n, seed, id=f"{gid}-{n}p-seed{seed}"))
    return out


@pytest.mark.parametrize("game", [ALL_GAMES[k] for k in sorted(ALL_GAMES)], ids=sorted(ALL_GAMES))
def test_metadata(game: Game[Any, Any, Any]) -> None:
    check_metadata(game)


@pytest.mark.parametrize(("game", "players", "seed"), _cases())
def test_conformance(game: Game[Any, Any, Any], players: int, seed: int) -> None:
    variants = VARIANTS.get(game.id, [{}])
    leak_every = DEEP_LEAK_EVERY.get(game.id, 1) if DEEP else LEAK_EVERY.get(game.id, 1)
    report = run_conformance(game, players, seed, leak_every=leak_every,
                             options=variants[seed % len(variants)])
    assert report.result is not None
    assert report.steps <= game.max_game_length(players)


OVERRIDE_SEEDS = range(3) if DEEP else range(2)
OVERRIDE_SPECS = None if DEEP else 4
"""Data values overridden per (game, players, seed): a random few, every one in the deep run (there
three seeds: Mafia Legend's 441 values make each case hundreds of checked games)."""


def _override_cases() -> list[Any]:
    return [pytest.param(game, n, seed, id=f"{gid}-{n}p-seed{seed}")
            for gid, game in sorted(GAMES.items()) if game.data_specs
            for n in range(game.min_players, game.max_players + 1) for seed in OVERRIDE_SEEDS]


@pytest.mark.parametrize(("game", "players", "seed"), _override_cases())
def test_games_with_data_overrides_end_and_replay(game: Game[Any, Any, Any], players: int, seed: int) -> None:
    """A value next to the default of a data spec (``--data NAME=VALUE``) gives a game that ends,
    whose record carries the override and replays to the same game."""
    variants = VARIANTS.get(game.id, [{}])
    played = check_overrides(game, players, seed, specs=OVERRIDE_SPECS, options=variants[seed % len(variants)])
    assert played >= min(1, len(game.data_specs))
