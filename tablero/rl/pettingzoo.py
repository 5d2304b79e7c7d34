"""A PettingZoo AEC environment for every tablero game.

>>> from tablero.rl.pettingzoo import env
>>> e = env("don-carlo", players=3)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.step(int(obs["action_mask"].nonzero()[0][0]))

* Agents are ``player_0`` … ``player_{n-1}`` (seat order). Actions are ``Discrete(size)`` over
  the game's fixed action codec (``Game.action_codec``); each observation is
  ``{"observation": float32 vector, "action_mask": int8 vector}``: the seat's observation tensor
  (:mod:`tablero.rl.encoders`, built from the seat's view alone) and its legal actions (all 0
  for an agent not to act). ``info["action_mask"]`` carries the same mask.
* Chance (shuffles, draws, dice) is sampled inside, from ``reset(seed=...)``: the same seed and
  the same actions give the same game.
* Forced steps (a seat with one legal action that the rules do not always ask about) are
  applied inside by default, as tablero's match driver does; ``forced="ask"`` hands them to the
  agent like every other decision.
* Simultaneous secret choices (El Grande's Castillo disks) are asked one seat after the other;
  no agent sees another's choice before the game reveals them all (the views hide them).
* Rewards are paid when the game ends: ``reward="win"`` (win share, default), ``"rank"`` or
  ``"score"`` (:mod:`tablero.rl.table`).
* An action whose mask entry is 0 raises ``ValueError`` and changes nothing.
* ``render_mode="ansi"``: ``render()`` returns the game's text picture as a spectator sees it.

``env(...)`` wraps the environment in PettingZoo's order-enforcing wrapper (what ``api_test``
expects of a published environment); ``raw_env(...)`` is the bare environment.
"""

from __future__ import annotations

from random import Random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from rich.text import Text

from tablero.core.errors import TableroError
from tablero.core.messages import Translator
from tablero.core.protocol import CHANCE
from tablero.rl.table import Table, agent_names

FORCED = ("auto", "ask")


class TableroEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """The AEC environment of one tablero game (see the module doc)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo declares it so; each instance names its game
        "render_modes": ["ansi"], "is_parallelizable": False, "name": "tablero_v0"}

    def __init__(self, game_id: str, players: int | None = None, *, render_mode: str | None = None,
                 forced: str = "auto", reward: str = "win", lang: str = "en", **options: object) -> None:
        super().__init__()
        from tablero.registry import get_game

        game = get_game(game_id)
        n = game.min_players if players is None else players
        if forced not in FORCED:
            raise ValueError(f"forced must be 'auto' or 'ask', not {forced!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.table = Table(game_id, n, options, reward=reward)
        self.game = self.table.game
        self.render_mode = render_mode
        self.forced = forced
        self.lang = lang
        self.metadata = {**self.metadata, "name": f"tablero_{game_id.replace('-', '_')}_v0"}
        self.possible_agents = list(agent_names(n))
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = self.table.encoder.layout.bounds()
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.table.num_actions,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.table.num_actions) for a in self.possible_agents}
        self.state: Any = None
        self._rng = Random(0)
        self.decisions = 0
        """Seat entries applied since ``reset`` (the agents' actions and the forced steps)."""
        self.chance = 0
        """Chance outcomes applied since ``reset``."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = Random(seed) if seed is not None else Random()
        self.state = self.table.new_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self.decisions = self.chance = 0
        self._advance()

    def _advance(self) -> None:
        """Chance and (by default) forced steps, up to the next decision or the end."""
        game, state, table = self.game, self.state, self.table
        auto = self.forced == "auto"
        while True:
            actors = game.to_act(state)
            if not actors:
                self._finish()
                return
            if actors[0] == CHANCE:
                game.apply(state, CHANCE, game.sample_chance(state, self._rng))
                self.chance += 1
                continue
            seat = actors[0]
            if auto:
                only = table.forced(state, seat)
                if only is not None:
                    game.apply(state, seat, only)
                    self.decisions += 1
                    continue
            self.agent_selection = self.possible_agents[seat]
            return

    def _finish(self) -> None:
        returns = self.table.returns(self.game.result(self.state))
        for a in self.agents:
            self.rewards[a] = returns[self._seat[a]]
            self.terminations[a] = True
        self._accumulate_rewards()
        # Every agent steps once more (with None) to leave, the first seat first.
        self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: step(None) is only for agents whose game is over")
        seat = self._seat[agent]
        index = int(action)
        try:
            chosen = self.table.codec.decode(index)
            self.game.apply(self.state, seat, chosen)
        except TableroError as exc:
            raise ValueError(f"action {index} is not legal for {agent} now (see its action_mask): {exc}") from exc
        self.decisions += 1
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self._advance()

    # ------------------------------------------------------------------ observing
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        return {"observation": self.table.observation(self.state, seat),
                "action_mask": self.table.mask(self.state, seat)}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        info = self.infos[agent]
        if obs is not None:
            info["action_mask"] = obs["action_mask"]
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent], info)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self.state is None:
            return ""
        tr = Translator(self.lang, [self.game.catalogue()])
        return Text.from_markup(self.game.render(self.game.observe(self.state, None), tr)).plain

    def close(self) -> None:
        self.state = None

    def __str__(self) -> str:
        return str(self.metadata["name"])


def raw_env(game_id: str, players: int | None = None, **kwargs: Any) -> TableroEnv:
    """The bare AEC environment (no wrapper)."""
    return TableroEnv(game_id, players, **kwargs)


def env(game_id: str, players: int | None = None, **kwargs: Any) -> AECEnv[str, dict[str, np.ndarray], int]:
    """The AEC environment of ``game_id`` in PettingZoo's order-enforcing wrapper.

    Keyword arguments: ``render_mode`` (None or ``"ansi"``), ``forced`` (``"auto"`` or ``"ask"``),
    ``reward`` (``"win"``, ``"rank"``, ``"score"``), ``lang`` for the picture (``en``, ``de``),
    and the game's options by their spec names (``short_game=True``, ``variant="beginner"``).
    """
    e = raw_env(game_id, players, **kwargs)
    return wrappers.OrderEnforcingWrapper(e)
