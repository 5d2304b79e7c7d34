"""A Gymnasium environment in which one seat learns and tablero bots play the other seats.

>>> from tablero.rl.gym import SingleSeatEnv
>>> env = SingleSeatEnv("don-carlo", players=3, opponents="random")
>>> obs, info = env.reset(seed=0)
>>> mask = env.action_masks()          # what sb3-contrib's MaskablePPO asks for

* ``observation_space`` is the learning seat's observation tensor (a ``Box``,
  :mod:`tablero.rl.encoders`); ``action_space`` is ``Discrete`` over the game's action codec.
  The legal actions come as ``info["action_mask"]`` and from :meth:`SingleSeatEnv.action_masks`.
* ``opponents``: one bot name for every other seat (``"random"``, ``"greedy"``, a search level)
  or a list with one name per other seat. The bots see their own seat's view and legal actions
  only, as everywhere in tablero.
* ``seat``: the learning seat, or ``"random"`` (default) for a new seat every episode, so an
  agent does not learn one seat only.
* Chance, forced steps of every seat and the bots' moves happen inside ``step``; an episode
  ends when the game does, with the reward of :mod:`tablero.rl.table` (``reward="win"``
  default, ``"rank"``, ``"score"``) — every earlier reward is 0.
* An illegal action raises ``ValueError`` and changes nothing (``illegal="raise"``, default);
  with ``illegal="lose"`` it ends the episode instead, with reward 0 and ``info["illegal"]``
  (what algorithms without action masks, and ``gymnasium``'s ``check_env``, need).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from tablero.bots.registry import is_peeking, make_bot
from tablero.core.errors import TableroError
from tablero.core.protocol import CHANCE
from tablero.core.rng import derive_seed
from tablero.rl.table import Table


class SingleSeatEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One learning seat against tablero bots (see the module doc)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - gymnasium declares it so

    def __init__(self, game_id: str, players: int | None = None, *, opponents: str | Sequence[str] = "random",
                 seat: int | str = "random", reward: str = "win", illegal: str = "raise",
                 render_mode: str | None = None, **options: object) -> None:
        from tablero.registry import get_game

        game = get_game(game_id)
        n = game.min_players if players is None else players
        self.table = Table(game_id, n, options, reward=reward)
        self.game = self.table.game
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"{n} players need {n - 1} opponents, not {len(names)}: {names}")
        for name in names:
            if is_peeking(name):
                raise ValueError(f"{name!r} reads the whole state; the learning seat's opponents may not peek")
        self.opponent_names = names
        self.bots = [make_bot(name, game_id) for name in names]
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or 'random', not {seat!r}")
        self.seat_choice = seat
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        self.illegal = illegal
        self._over = True
        self.render_mode = render_mode
        low, high = self.table.encoder.layout.bounds()
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.table.num_actions)
        self.state: Any = None
        self.seat = 0
        self._rng = Random(0)
        self._bot_rngs: list[Random] = []

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        base = seed if seed is not None else int(self.np_random.integers(2**62))
        self._rng = Random(derive_seed(base, "chance"))
        n = self.table.players
        self.seat = self._rng.randrange(n) if self.seat_choice == "random" else int(self.seat_choice)
        self._bot_rngs = [Random(derive_seed(base, f"bot{i}")) for i in range(n)]
        self.state = self.table.new_state()
        self._over = False
        self._play_others()
        return self._obs(), self._info()

    def _play_others(self) -> None:
        """Chance, forced steps and the bots' moves, up to the learning seat's decision or the end."""
        game, state, table, me = self.game, self.state, self.table, self.seat
        others = [p for p in range(table.players) if p != me]
        while True:
            actors = game.to_act(state)
            if not actors:
                return
            p = actors[0]
            if p == CHANCE:
                game.apply(state, CHANCE, game.sample_chance(state, self._rng))
                continue
            only = table.forced(state, p)
            if only is not None:
                game.apply(state, p, only)
                continue
            if p == me:
                return
            bot = self.bots[others.index(p)]
            legal = game.legal_actions(state, p)
            game.apply(state, p, bot.choose(game.observe(state, p), legal, self._bot_rngs[p]))

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise ValueError("the episode is over: call reset()")
        index = int(action)
        try:
            self.game.apply(self.state, self.seat, self.table.codec.decode(index))
        except TableroError as exc:
            if self.illegal == "raise":
                raise ValueError(f"action {index} is not legal now (see action_masks()): {exc}") from exc
            self._over = True
            return self._obs(), 0.0, True, False, {**self._info(), "illegal": True}
        self._play_others()
        result = self.game.result(self.state)
        done = self._over = result is not None
        reward = self.table.returns(result)[self.seat] if done else 0.0
        return self._obs(), float(reward), done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The learning seat's legal actions as a boolean mask."""
        return self.table.mask(self.state, self.seat).astype(bool)

    def _obs(self) -> np.ndarray:
        return self.table.observation(self.state, self.seat)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.table.mask(self.state, self.seat), "seat": self.seat}
        result = self.game.result(self.state)
        if result is not None:
            info["result"] = result.to_json()
            info["win_share"] = result.win_share(self.seat)
        return info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        from rich.text import Text

        from tablero.core.messages import Translator

        tr = Translator("en", [self.game.catalogue()])
        return Text.from_markup(self.game.render(self.game.observe(self.state, self.seat), tr)).plain
