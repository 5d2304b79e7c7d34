"""Benchmarks: random full-game playouts per second, actions per second, clone cost.

The checked loop is the one play uses: legal actions → uniform choice → the same checked
``apply`` used in play → chance sampled as the match driver samples it (``sample_chance``).
The unchecked loop is the one search and playouts use: the same, through ``apply_unchecked``.
No observations are built; every record entry (decision, forced step, chance outcome)
counts as an action. ``clone_us`` is the median over states sampled along the playouts.
"""

from __future__ import annotations

import statistics
import time
from random import Random
from typing import Any

from tablero.core.protocol import CHANCE, Game


def playout(game: Game[Any, Any, Any], players: int, rng: Random,
            options: dict[str, Any] | None = None, snapshots: list[Any] | None = None,
            every: int = 0, checked: bool = True) -> int:
    """One random game; returns the number of applied actions (record entries)."""
    state = game.new_initial_state(players, options)
    to_act, legal_actions, sample = game.to_act, game.legal_actions, game.sample_chance
    apply = game.apply if checked else game.apply_unchecked
    randrange = rng.randrange
    count = 0
    while True:
        actors = to_act(state)
        if not actors:
            return count
        p = actors[0]
        if p == CHANCE:
            apply(state, CHANCE, sample(state, rng))
        else:
            legal = legal_actions(state, p)
            apply(state, p, legal[randrange(len(legal))])
        count += 1
        if snapshots is not None and every and count % every == 0:
            snapshots.append(state.clone())


def clone_cost_us(states: list[Any], repeat: int = 200) -> float:
    """Median time of one ``clone()`` in microseconds over the given states."""
    times = []
    for s in states:
        t0 = time.perf_counter()
        for _ in range(repeat):
            s.clone()
        times.append((time.perf_counter() - t0) / repeat * 1e6)
    return statistics.median(times) if times else float("nan")


def _loop(game: Game[Any, Any, Any], players: int, seconds: float, rng: Random,
          opts: dict[str, Any], checked: bool) -> tuple[int, int, float]:
    games = actions = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        actions += playout(game, players, rng, opts, checked=checked)
        games += 1
        now = time.perf_counter()
        if now >= end:
            return games, actions, now - t0


def bench(game: Game[Any, Any, Any], players: int, seconds: float = 5.0, seed: int = 1,
          options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Checked and unchecked random playouts for ``seconds`` each (after a short warm-up)."""
    rng = Random(seed)
    opts = game.resolve_options(players, options)
    # warm-up (fills caches such as Don Carlo's candidate codes per hand)
    warm_end = time.perf_counter() + min(1.0, seconds / 5)
    while time.perf_counter() < warm_end:
        playout(game, players, rng, opts)
    games, actions, elapsed = _loop(game, players, seconds, rng, opts, checked=True)
    u_games, u_actions, u_elapsed = _loop(game, players, seconds, rng, opts, checked=False)
    snaps: list[Any] = []
    for _ in range(10):
        playout(game, players, rng, opts, snaps, every=7)
    return {
        "game": game.id,
        "players": players,
        "seconds": round(elapsed, 3),
        "games": games,
        "actions": actions,
        "games_per_s": round(games / elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1),
        "unchecked_actions_per_s": round(u_actions / u_elapsed, 1),
        "unchecked_games_per_s": round(u_games / u_elapsed, 1),
        "mean_actions": round(actions / games, 1),
        "clone_us": round(clone_cost_us(snaps[:: max(1, len(snaps) // 50)]), 2),
    }
