"""Mafia Legend (Bickmann; Eisenwald 2021), a reconstruction. The specification it follows (rules
version 1) is summarised in docs/games/mafia-legend.md; the rules for players are web/rules.en.md and
web/rules.de.md."""

from tablero.games.mafia.rules import GAME, Mafia
from tablero.games.mafia.state import MafiaState

__all__ = ["GAME", "Mafia", "MafiaState"]
