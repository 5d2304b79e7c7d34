"""The hypothesis strategies draw valid setups and reachable states."""

from __future__ import annotations

import os
from random import Random
from typing import Any

from hypothesis import given, settings

from tablero.core.protocol import Game
from tablero.registry import GAMES
from tablero.testing import TOY_GAME, check_determinize, check_flow, check_result
from tablero.testing.strategies import seeds, setups, states
from tablero.testing.toygame import DECK_SIZE, ToyState

DEEP = os.environ.get("TABLERO_DEEP") == "1"
ALL_GAMES = [*GAMES.values(), TOY_GAME]


@given(states(TOY_GAME))
def test_toy_cards_are_conserved(state: ToyState) -> None:
    assert sum(state.deck) + sum(map(sum, state.hands)) + len(state.discards) == DECK_SIZE
    assert all(c >= 0 for c in state.deck)


@settings(max_examples=400 if DEEP else 40)
@given(setups(ALL_GAMES).flatmap(lambda s: states(s[0], s[1]).map(lambda st: (s[0], s[1], st))), seeds())
def test_states_are_consistent(case: tuple[Game[Any, Any, Any], int, Any], seed: int) -> None:
    game, players, state = case
    rng = Random(seed)
    check_flow(game, state, players, rng)
    check_result(game, state, players)
    check_determinize(game, state, players, rng)
