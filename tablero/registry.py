"""The registry of games, by their ids (``don-carlo``, later ``el-grande``, ``mafia-legend``)."""

from __future__ import annotations

from typing import Any

from tablero.core.errors import ErrorCode, TableroError
from tablero.core.protocol import Game
from tablero.core.tutorial import Tutorial
from tablero.games.doncarlo import GAME as DON_CARLO
from tablero.games.doncarlo.tutorial import TUTORIAL as DON_CARLO_TUTORIAL
from tablero.games.elgrande import GAME as EL_GRANDE
from tablero.games.elgrande.tutorial import TUTORIAL as EL_GRANDE_TUTORIAL
from tablero.games.mafia import GAME as MAFIA_LEGEND
from tablero.games.mafia.tutorial import TUTORIAL as MAFIA_LEGEND_TUTORIAL

GAMES: dict[str, Game[Any, Any, Any]] = {
    DON_CARLO.id: DON_CARLO,
    EL_GRANDE.id: EL_GRANDE,
    MAFIA_LEGEND.id: MAFIA_LEGEND,
}

TUTORIALS: dict[str, Tutorial[Any, Any, Any]] = {
    t.game.id: t for t in (DON_CARLO_TUTORIAL, EL_GRANDE_TUTORIAL, MAFIA_LEGEND_TUTORIAL)
}
"""Each game's tutorial (``games/<g>/tutorial.py``), by game id."""


def get_game(game_id: str) -> Game[Any, Any, Any]:
    try:
        return GAMES[game_id]
    except KeyError:
        raise TableroError(
            f"unknown game {game_id!r}; known games: {', '.join(sorted(GAMES))}",
            code=ErrorCode.UNKNOWN_GAME,
        ) from None


def get_tutorial(game_id: str) -> Tutorial[Any, Any, Any]:
    get_game(game_id)
    try:
        return TUTORIALS[game_id]
    except KeyError:
        raise TableroError(f"{game_id!r} has no tutorial", code=ErrorCode.UNKNOWN_GAME) from None
