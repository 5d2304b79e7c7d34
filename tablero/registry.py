"""The registry of games, by their ids (``don-carlo``, later ``el-grande``, ``mafia-legend``)."""

from __future__ import annotations

from typing import Any

from tablero.core.errors import ErrorCode, TableroError
from tablero.core.protocol import Game
from tablero.games.doncarlo import GAME as DON_CARLO
from tablero.games.elgrande import GAME as EL_GRANDE
from tablero.games.mafia import GAME as MAFIA_LEGEND

GAMES: dict[str, Game[Any, Any, Any]] = {
    DON_CARLO.id: DON_CARLO,
    EL_GRANDE.id: EL_GRANDE,
    MAFIA_LEGEND.id: MAFIA_LEGEND,
}


def get_game(game_id: str) -> Game[Any, Any, Any]:
    try:
        return GAMES[game_id]
    except KeyError:
        raise TableroError(
            f"unknown game {game_id!r}; known games: {', '.join(sorted(GAMES))}",
            code=ErrorCode.UNKNOWN_GAME,
        ) from None
