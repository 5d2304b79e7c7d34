"""El Grande (Kramer & Ulrich; Hans im Glück 1995). The specification it follows (rules version 1) is summarised in
docs/games/el-grande.md; the rules for players are web/rules.en.md and web/rules.de.md."""

from tablero.games.elgrande.rules import GAME, ElGrande
from tablero.games.elgrande.state import ElGrandeState
from tablero.games.elgrande.view import ElGrandeView

__all__ = ["GAME", "ElGrande", "ElGrandeState", "ElGrandeView"]
