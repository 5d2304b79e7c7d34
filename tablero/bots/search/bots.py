"""Search bots by name: ``ismcts``, ``ismcts:iterations=400``, the levels, ``mcts-cheat``.

A seat name is the bot's name, then parameters separated by ``:`` (commas separate seats):
``ismcts:iterations=400``, ``ismcts:seconds=1:depth=10``. Parameters: ``iterations``,
``seconds``, ``depth`` (playout decisions before the evaluation; 0 = to the end), ``c``
(exploration), ``epsilon`` (random playout decisions), ``phases`` (with a game clock: cut the
playouts that many phases on), ``prior`` (weight of the playout policy's choice in the tree),
``prune`` (true: choose among the model's shortlist only), ``table`` (share of the reward
that is the margin over the other seats' mean, not over the best of them), ``opponents``
(``search``: every seat searched in its own tree; ``policy``: the other seats play the
playout policy in the tree too), ``reuse`` (false: no subtree reuse). A budget of ``seconds`` only drops
the default iteration count; giving both stops at whichever comes first.

The levels people pick from are fixed budgets per game (:data:`LEVELS`):

* ``easy``: a short search with noisy playouts: it sees the obvious, it blunders;
* ``medium``: a real search that answers in well under a second;
* ``hard``: the strongest search that answers within a few seconds on one core.

``mcts-cheat`` is the same search on the *true* state (every determinization is a copy of
it, every move is seen in full): the upper bound that shows what hidden information is
worth. It is for measurements only and is never offered to people as an opponent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from random import Random
from typing import Any, Final

from tablero.bots.search.ismcts import ISMCTS, OPPONENTS, Budget, SearchResult
from tablero.bots.search.model import GenericModel, SearchModel
from tablero.bots.search.models.doncarlo import DonCarloModel
from tablero.bots.search.models.elgrande import ElGrandeModel
from tablero.bots.search.models.mafia import MafiaModel
from tablero.core.errors import TableroError
from tablero.core.protocol import Game

SEARCH_BOTS: Final = ("ismcts", "mcts-cheat")
LEVEL_NAMES: Final = ("easy", "medium", "hard")
CHEAT: Final = "mcts-cheat"

MODELS: Final[Mapping[str, type]] = {
    "don-carlo": DonCarloModel,
    "el-grande": ElGrandeModel,
    "mafia-legend": MafiaModel,
}
"""The search model of each game, by game id (other games fall back to GenericModel)."""

BASES: Final[Mapping[str, Budget]] = {
    "don-carlo": Budget(iterations=400, depth=0, epsilon=0.0),
    "el-grande": Budget(iterations=400, depth=20, c=0.4, epsilon=0.03),
    "mafia-legend": Budget(iterations=400, depth=40, phases=1, c=0.4, epsilon=0.03, prior=1.0, prune=True,
                           reuse=False),
}
"""The budget ``ismcts`` starts from per game, before its parameters (else ``Budget()``): the
horizon, exploration, playout noise and tree options of the game's ``medium`` and ``hard``
levels, 400 iterations."""

LEVELS: Final[Mapping[str, Mapping[str, Budget]]] = {
    "don-carlo": {
        "easy": Budget(iterations=40, depth=4, epsilon=0.5),
        "medium": replace(BASES["don-carlo"], iterations=250),
        "hard": replace(BASES["don-carlo"], iterations=1000, seconds=4.0),
    },
    "el-grande": {
        "easy": Budget(iterations=200, depth=6, epsilon=0.5),
        "medium": replace(BASES["el-grande"], iterations=600),
        "hard": replace(BASES["el-grande"], iterations=4000, seconds=3.0),
    },
    "mafia-legend": {
        "easy": Budget(iterations=120, depth=4, epsilon=0.5),
        "medium": replace(BASES["mafia-legend"], iterations=150),
        # more iterations measured weaker here (docs/bots.md): hard is the best budget measured
        "hard": replace(BASES["mafia-legend"], seconds=3.0),
    },
}
"""Budgets of the levels per game (see docs/bots.md for how they were chosen)."""

DEFAULT_LEVELS: Final[Mapping[str, Budget]] = {
    "easy": Budget(iterations=50, depth=4, epsilon=0.5),
    "medium": Budget(iterations=200, depth=8),
    "hard": Budget(iterations=800, seconds=4.0, depth=10),
}


class BotSpecError(TableroError):
    """A search bot's name or parameters cannot be read."""


def model_for(game: Game[Any, Any, Any]) -> SearchModel:
    factory = MODELS.get(game.id)
    model: SearchModel = factory() if factory is not None else GenericModel()
    return model


def game_budget(game_id: str, budget: Budget) -> Budget:
    """``budget``'s iterations and seconds with the game's own horizon, exploration, noise and
    prior (those ``ismcts`` starts from): how an analysis or a review searches each game."""
    return replace(BASES.get(game_id, budget), iterations=budget.iterations, seconds=budget.seconds)


def level_budget(game_id: str, level: str) -> Budget:
    return LEVELS.get(game_id, DEFAULT_LEVELS)[level]


_FLOAT: Final = ("seconds", "c", "epsilon", "prior", "table")
_INT: Final = ("iterations", "depth", "phases")
_BOOL: Final = ("prune", "reuse")
_CHOICE: Final[Mapping[str, tuple[str, ...]]] = {"opponents": OPPONENTS}


def parse_budget(params: Sequence[str], base: Budget) -> Budget:
    """``["iterations=400", "depth=10"]`` over ``base``; raises BotSpecError."""
    changes: dict[str, Any] = {}
    for item in params:
        key, sep, value = item.partition("=")
        key = key.strip().lower()
        if not sep or key not in _FLOAT + _INT + _BOOL + tuple(_CHOICE):
            raise BotSpecError(f"search parameter {item!r}: use NAME=VALUE with NAME one of "
                               f"{', '.join(_INT + _FLOAT + _BOOL + tuple(_CHOICE))}")
        if key in _CHOICE:
            choice = value.strip().lower()
            if choice not in _CHOICE[key]:
                raise BotSpecError(f"search parameter {item!r}: {value!r} is not one of {', '.join(_CHOICE[key])}")
            changes[key] = choice
            continue
        if key in _BOOL:
            flag = value.strip().lower()
            if flag not in ("true", "false", "1", "0", "yes", "no"):
                raise BotSpecError(f"search parameter {item!r}: {value!r} is not true or false")
            changes[key] = flag in ("true", "1", "yes")
            continue
        try:
            changes[key] = int(value) if key in _INT else float(value)
        except ValueError as exc:
            raise BotSpecError(f"search parameter {item!r}: {value!r} is not a number") from exc
    if "seconds" in changes and "iterations" not in changes:
        changes["iterations"] = None
    try:
        return replace(base, **changes)
    except ValueError as exc:
        raise BotSpecError(f"search parameters {':'.join(params)!r}: {exc}") from exc


class SearchBot:
    """A bot that searches with ISMCTS from its seat's view (``choose``) — never the state.

    ``last`` keeps the latest search's result (options with values, iterations, time).
    """

    peeks = False

    def __init__(self, name: str, game: Game[Any, Any, Any], budget: Budget,
                 model: SearchModel | None = None) -> None:
        self.name = name
        self.game = game
        self.budget = budget
        self.search = ISMCTS(game, model or model_for(game), budget)
        self.last: SearchResult | None = None
        self._played: tuple[Any, Any, SearchResult] | None = None  # (view, action, search) of the last choice

    def analyse(self, view: Any, legal: Sequence[Any], rng: Random) -> SearchResult:
        """Every legal option with its value for the view's seat (best first); a fresh search."""
        self.last = self.search.search_view(view, legal, rng, prune=False)
        return self.last

    def choose(self, view: Any, legal: Sequence[Any], rng: Random) -> Any:
        """The most visited option; the search goes on from the last one's subtree where valid."""
        if not legal:
            raise ValueError("a bot was asked to choose from no legal actions")
        if len(legal) == 1:
            return legal[0]
        trees = None
        if self._played is not None and self.budget.reuse:
            old_view, action, old = self._played
            trees = self.search.follow(old.trees, old_view, action, view, Random(0))
        self.last = self.search.search_view(view, legal, rng, trees=trees)
        choice = self.last.best
        self._played = (view, choice, self.last)
        return choice


class CheatingSearchBot:
    """``mcts-cheat``: the same search on copies of the true state (``peeks``).

    The match driver hands a peeking bot the state (:meth:`choose_peeking`); everything else
    (a person's table, the server) refuses it. It cannot play from a view alone.
    """

    peeks = True

    def __init__(self, name: str, game: Game[Any, Any, Any], budget: Budget) -> None:
        self.name = name
        self.game = game
        self.search = ISMCTS(game, model_for(game), budget, observed_moves=False)

    def choose(self, view: Any, legal: Sequence[Any], rng: Random) -> Any:
        raise TypeError("mcts-cheat searches the true state: call choose_peeking")

    def choose_peeking(self, state: Any, seat: int, legal: Sequence[Any], rng: Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        return self.search.search(lambda _r: state.clone(), seat, legal, rng).best


def make_search_bot(spec: str, game: Game[Any, Any, Any]) -> SearchBot | CheatingSearchBot | None:
    """The search bot called ``spec`` (``hard``, ``ismcts:iterations=400``…), None if not one."""
    name, *params = spec.strip().lower().split(":")
    if name in LEVEL_NAMES:
        if params:
            raise BotSpecError(f"the level {name!r} takes no parameters; use ismcts:... for a budget")
        return SearchBot(name, game, level_budget(game.id, name))
    base = BASES.get(game.id, Budget())
    if name == "ismcts":
        return SearchBot(spec, game, parse_budget(params, base))
    if name == CHEAT:
        return CheatingSearchBot(spec, game, parse_budget(params, base))
    return None
