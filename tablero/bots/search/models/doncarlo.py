"""Don Carlo for search: estimated final scores and the greedy bot as playout policy.

The estimate is every seat's score so far (influence and bonus points), plus the majority
points each country would give if the game ended now (``majority_tie`` honoured), plus
``CARD_VALUE`` for every card still in the seat's hand and deck: cards are future agents, so
a seat that spent many cards for points now has fewer turns to come (the greedy bot's card
cost says the same). Playouts to the end (``depth=0``) need no estimate at all; the Don
Carlo budgets play to the end, a game being short.
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

    card_value = 2.0
    """Points a card still to play is worth (about a final score over a family's 25 cards)."""

    def __init__(self) -> None:
        self.greedy = GreedyDonCarlo()

    def estimate(self, game: Game[Any, Any, Any], state: Any) -> Sequence[float]:
        pub = game.observe(state, None).public
        est = [float(x) + self.card_value * (h + d)
               for x, h, d in zip(pub.scores, pub.hand_sizes, pub.deck_sizes, strict=True)]
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
