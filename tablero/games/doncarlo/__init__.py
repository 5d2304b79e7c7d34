"""Don Carlo (Kramer, Lach & Rapp; moses. Verlag 2020). The specification it follows (rules version 1) is summarised in
docs/games/don-carlo.md; the rules for players are web/rules.en.md and web/rules.de.md."""

from tablero.games.doncarlo.rules import GAME, DonCarlo
from tablero.games.doncarlo.state import DonCarloState
from tablero.games.doncarlo.view import DonCarloView

__all__ = ["GAME", "DonCarlo", "DonCarloState", "DonCarloView"]
