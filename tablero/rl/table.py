"""What every binding shares: one game with its seats and options, its integer action spaces,
its observation encoder, the legal-action mask and the returns.

A :class:`Table` holds no position; the bindings keep their own states and ask it. Rewards
come in three kinds (``reward=`` in every binding):

* ``win`` (default): the seat's win share, 1 for a sole winner, 1/k for each of k seats sharing
  first place, else 0 — the statistic tablero's tournaments and simulations report.
* ``rank``: ``(n - rank) / (n - 1)``, 1 for first place and 0 for last (shared ranks 1, 1, 3).
* ``score``: the final score in the game's own unit (points; Mafia Legend's victory points).
  PettingZoo only: OpenSpiel needs bounds on returns, which a score does not have.

They are paid once, when the game ends (every earlier reward is 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np

from tablero.core.protocol import CHANCE, Game, Player, Result
from tablero.registry import get_game
from tablero.rl.encoders import Encoder, make_encoder

REWARDS: Final = ("win", "rank", "score")


class Table:
    """One game for the bindings: ``game_id`` at ``players`` seats with ``options`` (resolved)."""

    def __init__(self, game_id: str, players: int, options: Mapping[str, object] | None = None,
                 *, reward: str = "win") -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.game: Game[Any, Any, Any] = get_game(game_id)
        self.game_id = game_id
        self.players = players
        self.options = self.game.resolve_options(players, options)
        self.reward = reward
        self.codec = self.game.action_codec(players, self.options)
        self.chance_codec = self.game.chance_codec(players, self.options)
        self.encoder: Encoder = make_encoder(game_id, players, self.options)
        self.num_actions = self.codec.size
        self.num_chance = self.chance_codec.size
        self._encode = self.codec.encode
        self._start = self.game.new_initial_state(players, self.options)

    # ------------------------------------------------------------------ positions
    def new_state(self) -> Any:
        """A fresh initial state (a copy of one built once: options are resolved already)."""
        return self._start.clone()

    def legal_indices(self, state: Any, seat: Player) -> list[int]:
        """The indices of ``seat``'s legal actions, ascending (chance: of the chance outcomes)."""
        if seat == CHANCE:
            enc = self.chance_codec.encode
            return sorted(enc(a) for a, _ in self.game.chance_outcomes(state))
        encode = self._encode
        return [encode(a) for a in self.game.legal_actions(state, seat)]

    def mask(self, state: Any, seat: Player) -> np.ndarray:
        """The action mask of ``seat`` (int8, 1 where legal; all 0 when the seat is not to act)."""
        out = np.zeros(self.num_actions, np.int8)
        legal = self.game.legal_actions(state, seat)
        if legal:
            encode = self._encode
            out[[encode(a) for a in legal]] = 1
        return out

    def observation(self, state: Any, seat: Player) -> np.ndarray:
        """``seat``'s observation tensor, from its view alone."""
        return self.encoder.encode(self.game.observe(state, seat))

    def forced(self, state: Any, seat: Player) -> Any | None:
        """The one legal action of a forced step (the driver applies it unasked), else None."""
        legal = self.game.legal_actions(state, seat)
        if len(legal) == 1 and not self.game.always_asked(state, seat):
            return legal[0]
        return None

    # ------------------------------------------------------------------ returns
    def returns(self, result: Result | None) -> list[float]:
        """Each seat's return under this table's reward kind (all 0 before the end)."""
        n = self.players
        if result is None:
            return [0.0] * n
        if self.reward == "win":
            return [result.win_share(p) for p in range(n)]
        if self.reward == "rank":
            return [(n - r) / (n - 1) for r in result.ranks]
        return [float(x) for x in result.scores]

    def bounds(self) -> tuple[float, float]:
        """The least and greatest return (``score`` has none: raises ValueError)."""
        if self.reward == "score":
            raise ValueError("the score reward has no bounds; use reward=win or reward=rank")
        return 0.0, 1.0


def seat_of(agent: str) -> int:
    """``player_2`` → 2."""
    return int(agent.rpartition("_")[2])


def agent_names(players: int) -> Sequence[str]:
    return [f"player_{p}" for p in range(players)]
