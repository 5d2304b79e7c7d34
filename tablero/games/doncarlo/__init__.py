"""Don Carlo (Kramer, Lach & Rapp; moses. Verlag 2020). Spec: ../shared/rules/don-carlo.md."""

from tablero.games.doncarlo.rules import GAME, DonCarlo
from tablero.games.doncarlo.state import DonCarloState
from tablero.games.doncarlo.view import DonCarloView

__all__ = ["GAME", "DonCarlo", "DonCarloState", "DonCarloView"]
