"""The PettingZoo AEC environment: PettingZoo's own api_test and seed_test for every game at its
smallest and largest player count, and what the environment promises beyond them."""

from __future__ import annotations

import warnings
from random import Random
from typing import Any

import numpy as np
import pytest

from .setups import require

require("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from tablero.core.protocol import CHANCE  # noqa: E402
from tablero.rl.pettingzoo import env, raw_env  # noqa: E402
from tablero.rl.table import seat_of  # noqa: E402

from .setups import DEEP, IDS, KNOWN_WARNINGS, SETUPS  # noqa: E402


def _unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return sorted({str(w.message) for w in caught if not any(k in str(w.message) for k in KNOWN_WARNINGS)})


@pytest.mark.parametrize(("game_id", "players", "options"), SETUPS, ids=IDS)
def test_pettingzoo_api_test_and_seed_test(game_id: str, players: int, options: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game_id, players, render_mode="ansi", **options), num_cycles=1000)
        seed_test(lambda: env(game_id, players, **options), num_cycles=1000)
    assert _unexpected(caught) == []


@pytest.mark.parametrize(("game_id", "players", "options"), SETUPS, ids=IDS)
def test_many_games_stay_in_their_spaces(game_id: str, players: int, options: dict[str, Any]) -> None:
    """Every observation of many random games lies in its space; the mask marks what is legal."""
    e = raw_env(game_id, players, **options)
    games = (200 if game_id == "don-carlo" else 40 if game_id == "el-grande" else 10) if DEEP else 2
    for seed in range(games):
        e.reset(seed=seed)
        rng = Random(seed)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            assert e.observation_space(agent).contains(obs)
            if terminated or truncated:
                e.step(None)
                continue
            seat = int(agent.rpartition("_")[2])
            legal = e.game.legal_actions(e.state, seat)
            assert [int(i) for i in np.flatnonzero(obs["action_mask"])] == [e.table.codec.encode(a) for a in legal]
            e.step(int(np.flatnonzero(obs["action_mask"])[rng.randrange(len(legal))]))


def _play(e: Any, seed: int, rng: Random) -> list[tuple[str, int]]:
    """A whole game with random legal actions; returns (agent, action) of every decision."""
    e.reset(seed=seed)
    moves: list[tuple[str, int]] = []
    for agent in e.agent_iter():
        obs, _, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        moves.append((agent, action))
        e.step(action)
    return moves


@pytest.mark.parametrize(("game_id", "players", "options"), SETUPS[::2], ids=IDS[::2])
def test_rewards_are_paid_at_the_end_by_kind(game_id: str, players: int, options: dict[str, Any]) -> None:
    """win (default), rank and score rewards equal what the game's result says, paid once at the end."""
    for reward in ("win", "rank", "score"):
        e = raw_env(game_id, players, reward=reward, **options)
        e.reset(seed=5)
        rng = Random(5)
        paid: dict[str, float] = dict.fromkeys(e.possible_agents, 0.0)
        while e.agents:
            agent = e.agent_selection
            obs, rew, terminated, truncated, _ = e.last()
            if terminated or truncated:
                paid[agent] += rew
                result = e.game.result(e.state)
                e.step(None)
                continue
            assert rew == 0.0
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
        n = players
        expect = {
            "win": [result.win_share(p) for p in range(n)],
            "rank": [(n - r) / (n - 1) for r in result.ranks],
            "score": list(result.scores),
        }[reward]
        assert [paid[a] for a in e.possible_agents] == pytest.approx(expect)
        if reward == "win" and game_id != "mafia-legend":
            assert sum(paid.values()) == pytest.approx(1.0)


def test_same_seed_same_game_and_different_seed_other_game() -> None:
    a = _play(raw_env("don-carlo", 3), 11, Random(1))
    b = _play(raw_env("don-carlo", 3), 11, Random(1))
    c = _play(raw_env("don-carlo", 3), 12, Random(1))
    assert a == b
    assert a != c


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env("el-grande", 3, short_game=True)
    e.reset(seed=3)
    agent = e.agent_selection
    obs = e.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.game.state_to_json(e.state)
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    assert e.game.state_to_json(e.state) == before
    assert e.agent_selection == agent


def test_agents_not_to_act_see_an_all_zero_mask() -> None:
    e = raw_env("mafia-legend", 3)
    e.reset(seed=2)
    rng = Random(2)
    for _ in range(60):
        acting = e.agent_selection
        for agent in e.agents:
            mask = e.observe(agent)["action_mask"]
            assert (mask.sum() > 0) == (agent == acting)
        legal = np.flatnonzero(e.observe(acting)["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))


def test_forced_steps_applied_inside_or_asked() -> None:
    """forced="auto" never asks a decision with one legal option (unless the rules always ask);
    forced="ask" hands them to the agent like every other decision."""
    def one_option_decisions(forced: str) -> int:
        e = raw_env("el-grande", 3, forced=forced, short_game=True)
        e.reset(seed=4)
        rng = Random(4)
        count = 0
        while e.agents:
            agent = e.agent_selection
            obs, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if len(legal) == 1:
                count += 0 if e.game.always_asked(e.state, seat_of(agent)) else 1
            e.step(int(legal[rng.randrange(len(legal))]))
        return count

    assert one_option_decisions("auto") == 0
    assert one_option_decisions("ask") > 0


def test_chance_never_reaches_an_agent() -> None:
    e = raw_env("mafia-legend", 4)
    e.reset(seed=9)
    rng = Random(9)
    for _ in range(200):
        assert e.game.to_act(e.state)[0] != CHANCE
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))


def test_render_ansi_is_the_spectators_picture_in_both_languages() -> None:
    for lang in ("en", "de"):
        e = raw_env("don-carlo", 3, render_mode="ansi", lang=lang)
        e.reset(seed=1)
        text = e.render()
        assert isinstance(text, str) and "Egoistrien" in text
        assert "[bold" not in text and "[/" not in text
    assert raw_env("don-carlo", 3).render() is None


def test_bad_arguments_are_refused_clearly() -> None:
    with pytest.raises(ValueError, match="forced"):
        raw_env("don-carlo", 3, forced="never")
    with pytest.raises(ValueError, match="reward"):
        raw_env("don-carlo", 3, reward="money")
    with pytest.raises(Exception, match="short_gam"):
        raw_env("el-grande", 3, short_gam=True)
