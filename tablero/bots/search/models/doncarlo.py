"""Don Carlo for search: estimated final scores and the greedy bot as playout policy.

The estimate is every seat's score so far (influence and bonus points) plus the majority
points each country would give if the game ended now (``majority_tie`` honoured): the
only points still to come besides further agents, which the playouts play out.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from tablero.bots.heuristics.doncarlo import GreedyDonCarlo, majority_points
from tablero.core.protocol import Game


class DonCarloModel:
    scale = 4.0
    """About one agent's points with the bonus: a clear lead."""

    def __init__(self) -> None:
        self.greedy = GreedyDonCarlo()

    def estimate(self, game: Game[Any, Any, Any], state: Any) -> Sequence[float]:
        pub = game.observe(state, None).public
        est = [float(x) for x in pub.scores]
        if any(pub.country_points):  # the final scoring is done: the scores are final
            return est
        for country in pub.countries:
            counts = [0] * pub.players
            for owner, _ in country.agents:
                counts[owner] += 1
            for p, pts in enumerate(majority_points(counts, country.points, pub.tie_rule)):
                est[p] += pts
        return est

    def rollout(self, game: Game[Any, Any, Any], state: Any, seat: int, legal: Sequence[Any],
                rng: Random) -> Any:
        return self.greedy.choose(game.observe(state, seat), legal, rng)
