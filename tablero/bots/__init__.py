"""Bots: they see only their seat's view and legal actions, never the state."""

from tablero.bots.base import Bot, RandomBot
from tablero.bots.registry import BOT_NAMES, GREEDY, UnknownBotError, bot_names, make_bot

__all__ = ["BOT_NAMES", "GREEDY", "Bot", "RandomBot", "UnknownBotError", "bot_names", "make_bot"]
