"""The core protocol shared by every game (no third-party imports)."""

from tablero.core.codec import ActionCodec, TableCodec
from tablero.core.errors import (
    ActionParseError,
    ErrorCode,
    IllegalActionError,
    OptionError,
    RecordError,
    TableroError,
)
from tablero.core.events import Event, visible_log
from tablero.core.match import Match, replay
from tablero.core.messages import Message, Translator
from tablero.core.protocol import CHANCE, Action, Game, GameState, OptionSpec, Player, Result, View, Viewer
from tablero.core.record import GameRecord

__all__ = [
    "CHANCE", "Action", "ActionCodec", "ActionParseError", "ErrorCode", "Event", "Game", "GameRecord", "GameState",
    "IllegalActionError", "Match", "Message", "OptionError", "OptionSpec", "Player",
    "RecordError", "Result", "TableCodec", "TableroError", "Translator", "View", "Viewer", "replay",
    "visible_log",
]
