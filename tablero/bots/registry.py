"""Bots by name: ``make_bot("greedy", "don-carlo")``, ``make_bot("ismcts:iterations=400", ...)``."""

from __future__ import annotations

from collections.abc import Callable

from tablero.bots.base import Bot, RandomBot
from tablero.bots.heuristics.doncarlo import GreedyDonCarlo
from tablero.bots.heuristics.elgrande import GreedyElGrande
from tablero.bots.heuristics.mafia import GreedyMafia
from tablero.bots.search.bots import CHEAT, LEVEL_NAMES, BotSpecError, make_search_bot
from tablero.core.errors import TableroError
from tablero.registry import get_game

GREEDY: dict[str, Callable[[], Bot]] = {
    "don-carlo": GreedyDonCarlo,
    "el-grande": GreedyElGrande,
    "mafia-legend": GreedyMafia,
}
"""The greedy bot of each game, by game id."""

BOT_NAMES: tuple[str, ...] = ("random", "greedy", *LEVEL_NAMES, "ismcts")
"""Every bot a person may seat (``ismcts`` takes parameters: ``ismcts:iterations=400``)."""
PLAYER_LEVELS: tuple[str, ...] = ("random", "greedy", *LEVEL_NAMES)
"""The opponents offered in the browser's seat menu, weakest first."""


class UnknownBotError(TableroError):
    """No bot of that name (for that game)."""


def bot_names(game_id: str | None = None) -> tuple[str, ...]:
    """Bot names, all of them or those available for ``game_id``."""
    if game_id is None:
        return BOT_NAMES
    return tuple(n for n in BOT_NAMES if n != "greedy" or game_id in GREEDY)


def is_peeking(name: str) -> bool:
    """True for the cheating baseline (``mcts-cheat``), which must never face people."""
    return name.strip().lower().split(":")[0] == CHEAT


def make_bot(name: str, game_id: str) -> Bot:
    """A new bot called ``name`` for the game ``game_id``; raises UnknownBotError."""
    key = name.strip().lower()
    if key == "random":
        return RandomBot()
    if key == "greedy":
        factory = GREEDY.get(game_id)
        if factory is None:
            raise UnknownBotError(
                f"no greedy bot for {game_id!r}; greedy exists for: {', '.join(sorted(GREEDY))}"
            )
        return factory()
    try:
        search = make_search_bot(key, get_game(game_id))
    except BotSpecError as exc:
        raise UnknownBotError(str(exc)) from exc
    if search is not None:
        return search
    raise UnknownBotError(f"unknown bot {name!r}; bots: {', '.join(bot_names(game_id))}, {CHEAT} "
                          "(measurements only)")
