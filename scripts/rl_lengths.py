"""Measure seat decisions and chance entries per random game: the bounds behind
``tablero.rl.openspiel.MAX_DECISIONS`` (OpenSpiel's ``max_game_length``).

Usage: ``python scripts/rl_lengths.py GAME PLAYERS GAMES [OPTIONS_JSON]`` prints one JSON line
with the longest game's decisions, chance entries and record entries.
"""

from __future__ import annotations

import json
import sys
import time
from random import Random

from tablero.core.protocol import CHANCE
from tablero.registry import get_game


def longest(game_id: str, players: int, options: dict[str, object], games: int) -> dict[str, int]:
    g = get_game(game_id)
    opts = g.resolve_options(players, options)
    worst = {"decisions": 0, "chance": 0, "entries": 0}
    for seed in range(games):
        rng = Random(seed)
        s = g.new_initial_state(players, opts)
        decisions = chance = 0
        while actors := g.to_act(s):
            if actors == (CHANCE,):
                g.apply_unchecked(s, CHANCE, g.sample_chance(s, rng))
                chance += 1
            else:
                legal = g.legal_actions(s, actors[0])
                g.apply_unchecked(s, actors[0], legal[rng.randrange(len(legal))])
                decisions += 1
        worst["decisions"] = max(worst["decisions"], decisions)
        worst["chance"] = max(worst["chance"], chance)
        worst["entries"] = max(worst["entries"], decisions + chance)
    return worst


def main() -> None:
    game_id, players, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    options = json.loads(sys.argv[4]) if len(sys.argv) > 4 else {}
    start = time.time()
    worst = longest(game_id, players, options, games)
    print(json.dumps({"game": game_id, "players": players, "options": options, "games": games, **worst,
                      "seconds": round(time.time() - start, 1)}), flush=True)


if __name__ == "__main__":
    main()
