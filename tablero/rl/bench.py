"""Decisions per second through the research bindings beside the raw engine (``make bench-rl``).

Every loop plays whole random games (uniform over the legal actions, chance sampled with the
game's probabilities) through the game's checked ``apply``, for ``--seconds`` each, and counts
*decisions*: the seat entries of the record (forced steps included; chance outcomes are not
decisions). The loops:

* ``engine``: ``legal_actions`` + ``apply`` on the tablero state, nothing else;
* ``engine+view``: the same, plus the acting seat's view (``observe``), as tablero's own match
  driver hands every bot its view at each decision;
* ``engine+tensor``: the same, plus the acting seat's observation tensor and action mask at every
  decision (the least any binding must do);
* ``pettingzoo``: ``last()`` (observation tensor + mask) + ``step()`` on the bare AEC environment,
  and ``pettingzoo-wrapped`` through ``env()``'s order-enforcing wrapper (what ``api_test`` runs);
* ``openspiel``: ``legal_actions()`` + ``apply_action()`` on the OpenSpiel Python game (chance by
  ``chance_outcomes()``), and ``openspiel+tensor`` with ``observation_tensor()`` of the acting seat.

Beside them, ``pettingzoo.test.performance_benchmark`` (PettingZoo's own, turns per second) for
every game and player count.

``cost`` is each loop's time per decision over the bare engine's, ``cost_vs_view`` over
``engine+view``'s. Output: one JSON document.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable
from random import Random
from typing import Any

import numpy as np

from tablero.core.protocol import CHANCE
from tablero.rl.openspiel import load
from tablero.rl.pettingzoo import env as wrapped_env
from tablero.rl.pettingzoo import raw_env
from tablero.rl.table import Table

Loop = Callable[[int], tuple[int, int]]
"""Plays one game from a seed; returns (decisions, chance entries)."""


def engine_loop(table: Table, tensors: bool, view: bool = False) -> Loop:
    game = table.game

    def play(seed: int) -> tuple[int, int]:
        rng = Random(seed)
        state = table.new_state()
        decisions = chance = 0
        while actors := game.to_act(state):
            p = actors[0]
            if p == CHANCE:
                game.apply(state, CHANCE, game.sample_chance(state, rng))
                chance += 1
                continue
            legal = game.legal_actions(state, p)
            if tensors:
                table.observation(state, p)
                table.mask(state, p)
            elif view:
                game.observe(state, p)
            game.apply(state, p, legal[rng.randrange(len(legal))])
            decisions += 1
        return decisions, chance

    return play


def pettingzoo_loop(game_id: str, players: int, options: dict[str, Any], wrapped: bool) -> Loop:
    e = (wrapped_env if wrapped else raw_env)(game_id, players, **options)
    bare = e.unwrapped

    def play(seed: int) -> tuple[int, int]:
        rng = Random(seed)
        e.reset(seed=seed)
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
        return bare.decisions, bare.chance

    return play


def openspiel_loop(game_id: str, players: int, options: dict[str, Any], tensors: bool) -> Loop:
    game = load(game_id, players, **options)

    def play(seed: int) -> tuple[int, int]:
        rng = Random(seed)
        state = game.new_initial_state()
        decisions = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                chance += 1
                continue
            legal = state.legal_actions()
            if tensors:
                state.observation_tensor(state.current_player())
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
        return decisions, chance

    return play


def measure(loop: Loop, seconds: float) -> dict[str, float]:
    games = decisions = chance = 0
    start = time.perf_counter()
    while True:
        d, c = loop(games)
        games += 1
        decisions += d
        chance += c
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {"games": games, "decisions": decisions, "chance": chance, "seconds": round(elapsed, 3),
            "decisions_per_s": round(decisions / elapsed, 1), "us_per_decision": round(1e6 * elapsed / decisions, 2)}


def bench(game_id: str, players: int, options: dict[str, Any], seconds: float) -> dict[str, Any]:
    table = Table(game_id, players, options)
    loops: dict[str, Loop] = {
        "engine": engine_loop(table, False),
        "engine+view": engine_loop(table, False, view=True),
        "engine+tensor": engine_loop(table, True),
        "pettingzoo": pettingzoo_loop(game_id, players, options, False),
        "pettingzoo-wrapped": pettingzoo_loop(game_id, players, options, True),
        "openspiel": openspiel_loop(game_id, players, options, False),
        "openspiel+tensor": openspiel_loop(game_id, players, options, True),
    }
    out: dict[str, Any] = {"game": game_id, "players": players, "options": options,
                           "tensor_size": table.encoder.size, "actions": table.num_actions, "loops": {}}
    for name, loop in loops.items():
        loop(10_000)  # warm caches (interned actions, encoders' tables)
        out["loops"][name] = measure(loop, seconds)
    base = out["loops"]["engine"]["us_per_decision"]
    seen = out["loops"]["engine+view"]["us_per_decision"]
    for row in out["loops"].values():
        row["cost"] = round(row["us_per_decision"] / base, 2)
        row["cost_vs_view"] = round(row["us_per_decision"] / seen, 2)
    return out


SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("don-carlo", 4, {}), ("el-grande", 4, {}), ("mafia-legend", 4, {}),
]


def pettingzoo_benchmark(game_id: str, players: int) -> float:
    """PettingZoo's own ``performance_benchmark`` (5 s of random masked play): turns per second."""
    import contextlib
    import io
    import re

    from pettingzoo.test import performance_benchmark

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(wrapped_env(game_id, players))
    found = re.search(r"([0-9.]+) turns per second", out.getvalue())
    if found is None:
        raise RuntimeError(f"performance_benchmark printed no turns per second: {out.getvalue()!r}")
    return round(float(found.group(1)), 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tablero.rl.bench", description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="per loop and game")
    ap.add_argument("--only", help="one game id")
    ap.add_argument("--out", help="also write the JSON here")
    ap.add_argument("--no-pettingzoo-benchmark", action="store_true",
                    help="skip pettingzoo.test.performance_benchmark (5 s per game and player count)")
    args = ap.parse_args(argv)
    rows = [bench(g, n, o, args.seconds) for g, n, o in SETUPS if args.only in (None, g)]
    doc: dict[str, Any] = {"benchmark": "rl", "python": platform.python_version(), "machine": platform.machine(),
                           "seconds_per_loop": args.seconds, "results": rows}
    if not args.no_pettingzoo_benchmark:
        from tablero.registry import get_game

        doc["pettingzoo_performance_benchmark"] = [
            {"game": gid, "players": n, "turns_per_s": pettingzoo_benchmark(gid, n)}
            for gid, _, _ in SETUPS if args.only in (None, gid)
            for n in range(get_game(gid).min_players, get_game(gid).max_players + 1)]
    text = json.dumps(doc, indent=2)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
