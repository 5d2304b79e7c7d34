"""No hidden information through the bindings: the commitment-variation test on what the
bindings hand out (PettingZoo's observation tensor and mask, OpenSpiel's observation and
information state), and equal tensors for positions a seat cannot tell apart."""

from __future__ import annotations

from random import Random
from typing import Any

import numpy as np
import pytest

from .setups import require

pyspiel = require("pyspiel")

from tablero.core.protocol import CHANCE  # noqa: E402
from tablero.rl.openspiel import load  # noqa: E402

GAMES = [("don-carlo", 3, {}), ("el-grande", 3, {"short_game": True}), ("el-grande", 5, {"short_game": True}),
         ("mafia-legend", 3, {})]


def _seen(state: Any, seat: int) -> tuple[Any, ...]:
    """Everything the bindings give ``seat``: tensor, mask, observation and information state."""
    table = state.get_game().table
    s = state.tablero_state
    return (tuple(state.observation_tensor(seat)), table.mask(s, seat).tobytes(),
            state.observation_string(seat), state.information_state_string(seat))


def _step(state: Any, rng: Random) -> None:
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _vary(state: Any, players: int, rng: Random) -> int:
    """At a node where several seats commit in secret: every choice of the first committing seat
    q leaves what every other seat gets equal, up to (not including) the last commitment."""
    game = state.get_game().table.game
    actors = tuple(game.to_act(state.tablero_state))
    q = state.current_player()
    options = state.legal_actions()
    if len(actors) < 2 or CHANCE in actors or len(options) < 2:
        return 0
    traces = []
    plan: list[int] = []
    for b in options[: 4]:
        s = state.clone()
        s.apply_action(b)
        trace = []
        step = 0
        while True:
            others = [v for v in range(players) if v != q]
            trace.append(tuple(_seen(s, v) for v in others))
            left = [p for p in game.to_act(s.tablero_state) if p != q and p != CHANCE]
            if len(left) < 2 or s.is_chance_node():
                break
            legal = s.legal_actions()
            if step >= len(plan):
                plan.append(legal[rng.randrange(len(legal))])
            if plan[step] not in legal:
                break
            s.apply_action(plan[step])
            step += 1
        traces.append(trace)
    for t in traces[1:]:
        assert t == traces[0], f"seat {q}'s secret choice shows through the bindings"
    return 1


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES,
                         ids=[f"{g}-{n}p" for g, n, _ in GAMES])
def test_commitment_variation_through_the_bindings(game_id: str, players: int, options: dict[str, Any]) -> None:
    game = load(game_id, players, **options)
    varied = 0
    for seed in range(2):
        rng = Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                varied += _vary(state, players, rng)
            _step(state, rng)
    if game_id == "el-grande":  # the Castillo disks are chosen in secret, all at once
        assert varied > 0


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES,
                         ids=[f"{g}-{n}p" for g, n, _ in GAMES])
def test_positions_a_seat_cannot_tell_apart_give_it_the_same_tensor(game_id: str, players: int,
                                                                      options: dict[str, Any]) -> None:
    """Re-deal what a seat may not see (determinize its view): its tensor and mask stay equal."""
    game = load(game_id, players, **options)
    table = game.table
    g = table.game
    rng = Random(3)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if not state.is_chance_node() and rng.random() < 0.2:
            s = state.tablero_state
            for seat in range(players):
                view = g.observe(s, seat)
                other = g.determinize(view, seat, Random(rng.getrandbits(32)))
                assert g.observe(other, seat) == view
                assert np.array_equal(table.observation(other, seat), table.observation(s, seat))
                assert np.array_equal(table.mask(other, seat), table.mask(s, seat))
                checked += 1
        _step(state, rng)
    assert checked > 0


@pytest.mark.parametrize(("game_id", "players", "options"),
                         [("don-carlo", 4, {}), ("el-grande", 4, {"short_game": True})])
def test_a_fast_encode_equals_the_tensor_of_fill(game_id: str, players: int, options: dict[str, Any]) -> None:
    """Don Carlo's and El Grande's encoders write cached pieces as arrays in their own ``encode``;
    the base class builds the tensor from ``fill`` alone. Both give the same bytes at every step."""
    from tablero.rl.encoders import Encoder

    game = load(game_id, players, **options)
    table = game.table
    g = table.game
    rng = Random(8)
    state = game.new_initial_state()
    while not state.is_terminal():
        s = state.tablero_state
        for seat in range(players):
            view = g.observe(s, seat)
            assert table.encoder.encode(view).tobytes() == Encoder.encode(table.encoder, view).tobytes()
        _step(state, rng)
