"""The core protocol shared by every game (no third-party imports)."""

from tablero.core.errors import (
    ActionParseError,
    ErrorCode,
    IllegalActionError,
    OptionError,
    RecordError,
    TableroError,
)
from tablero.core.events import Event, visible_log
from tablero.core.match import Match
from tablero.core.messages import Message, Translator
from tablero.core.protocol import CHANCE, Action, Game, OptionSpec, Player, Result, View, Viewer
from tablero.core.record import GameRecord, replay

__all__ = [
    "CHANCE", "Action", "ActionParseError", "ErrorCode", "Event", "Game", "GameRecord",
    "IllegalActionError", "Match", "Message", "OptionError", "OptionSpec", "Player",
    "RecordError", "Result", "TableroError", "Translator", "View", "Viewer", "replay",
    "visible_log",
]
