"""The bot protocol and the uniform random bot.

A bot sees exactly what its seat may see: the seat's observation (``game.observe(state,
seat)``) and the seat's legal actions. It never receives the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Bot(Protocol):
    """Picks one of ``legal`` from the seat's ``view``; ``rng`` is the bot's own stream."""

    def choose(self, view: Any, legal: Sequence[Any], rng: Random) -> Any: ...


class RandomBot:
    """Uniform over the legal actions (works for every game)."""

    name = "random"

    def choose(self, view: Any, legal: Sequence[Any], rng: Random) -> Any:
        if not legal:
            raise ValueError("a bot was asked to choose from no legal actions")
        return legal[rng.randrange(len(legal))]
