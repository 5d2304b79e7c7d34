"""Hypothesis strategies for property tests of any game (the only module here importing hypothesis).

``seeds()`` and ``setups()`` draw what a conformance run needs; ``states()`` draws a state
reached by a random legal playout, for per-game invariants (cards conserved, scores that never
fall, ...)::

    @given(states(GAME))
    def test_cards_conserved(state): ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import strategies as st

from tablero.core.protocol import Game
from tablero.testing.playouts import Step, final_state, random_playout

__all__ = ["Step", "player_counts", "random_playout", "seeds", "setups", "states"]

AnyGame = Game[Any, Any, Any]

MAX_SEED = 2**63 - 1


def seeds() -> st.SearchStrategy[int]:
    """Playout seeds (any non-negative 63-bit integer)."""
    return st.integers(min_value=0, max_value=MAX_SEED)


def player_counts(game: AnyGame) -> st.SearchStrategy[int]:
    """Every player count the game takes."""
    return st.integers(min_value=game.min_players, max_value=game.max_players)


def setups(games: Sequence[AnyGame]) -> st.SearchStrategy[tuple[AnyGame, int, int]]:
    """(game, players, seed) triples over the given games."""
    return st.sampled_from(list(games)).flatmap(
        lambda g: st.tuples(st.just(g), player_counts(g), seeds())
    )


def states(game: AnyGame, players: int | None = None,
           options: Mapping[str, object] | None = None) -> st.SearchStrategy[Any]:
    """A state somewhere along a random legal playout (its start, its end or in between)."""
    counts = player_counts(game) if players is None else st.just(players)

    @st.composite
    def build(draw: st.DrawFn) -> Any:
        n = draw(counts)
        seed = draw(seeds())
        length = sum(1 for _ in random_playout(game, n, seed, options=options))
        stop = draw(st.integers(min_value=0, max_value=length))
        return final_state(game, n, seed, options=options, stop_after=stop)

    return build()
