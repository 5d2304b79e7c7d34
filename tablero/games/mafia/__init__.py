"""Mafia Legend (Bickmann; Eisenwald 2021), from the reconstructed spec ../shared/rules/mafia-legend.md."""

from tablero.games.mafia.rules import GAME, Mafia
from tablero.games.mafia.state import MafiaState

__all__ = ["GAME", "Mafia", "MafiaState"]
