"""The Gymnasium single-seat environment: one seat learns, tablero bots play the others."""

from __future__ import annotations

from random import Random

import numpy as np
import pytest

from .setups import require

require("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from tablero.rl.gym import SingleSeatEnv  # noqa: E402


@pytest.mark.parametrize(("game_id", "players", "options"), [
    ("don-carlo", 3, {}), ("el-grande", 2, {"short_game": True}), ("mafia-legend", 3, {}),
])
def test_gymnasium_check_env(game_id: str, players: int, options: dict[str, object]) -> None:
    """gymnasium's own checker (it steps with unmasked random actions: illegal="lose")."""
    env = SingleSeatEnv(game_id, players, opponents="random", illegal="lose", **options)
    check_env(env, skip_render_check=True)


def _episode(env: SingleSeatEnv, seed: int) -> tuple[float, dict[str, object], int]:
    obs, info = env.reset(seed=seed)
    rng = Random(seed)
    steps = 0
    while True:
        assert env.observation_space.contains(obs)
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        legal = np.flatnonzero(mask)
        obs, reward, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        if terminated:
            return reward, info, steps
        assert reward == 0.0 and not truncated


def test_an_episode_is_one_game_against_greedy_bots_with_the_win_share_at_the_end() -> None:
    env = SingleSeatEnv("don-carlo", 3, opponents="greedy")
    seats = set()
    for seed in range(6):
        reward, info, steps = _episode(env, seed)
        assert reward == info["win_share"]
        assert steps >= 5
        seats.add(info["seat"])
    assert len(seats) > 1  # seat="random": a new seat every episode


def test_same_seed_same_episode() -> None:
    a = _episode(SingleSeatEnv("mafia-legend", 3, opponents=["greedy", "random"]), 3)
    b = _episode(SingleSeatEnv("mafia-legend", 3, opponents=["greedy", "random"]), 3)
    assert a[0] == b[0] and a[2] == b[2] and a[1]["result"] == b[1]["result"]


def test_fixed_seat_and_rank_reward() -> None:
    env = SingleSeatEnv("el-grande", 3, opponents="random", seat=2, reward="rank", short_game=True)
    reward, info, _ = _episode(env, 1)
    rank = info["result"]["ranks"][2]  # type: ignore[index]
    assert info["seat"] == 2 and reward == (3 - rank) / 2


def test_refusals() -> None:
    with pytest.raises(ValueError, match="opponents"):
        SingleSeatEnv("don-carlo", 3, opponents=["random"])
    with pytest.raises(ValueError, match="peek"):
        SingleSeatEnv("don-carlo", 3, opponents="mcts-cheat")
    with pytest.raises(ValueError, match="seat"):
        SingleSeatEnv("don-carlo", 3, seat=3)
    env = SingleSeatEnv("don-carlo", 3)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = env.game.state_to_json(env.state)
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    assert env.game.state_to_json(env.state) == before
    lose = SingleSeatEnv("don-carlo", 3, illegal="lose")
    lose.reset(seed=0)
    _, reward, terminated, _, info = lose.step(illegal)
    assert (reward, terminated, info["illegal"]) == (0.0, True, True)
    with pytest.raises(ValueError, match="reset"):
        lose.step(illegal)
