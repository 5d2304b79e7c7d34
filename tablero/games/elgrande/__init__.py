"""El Grande (Kramer & Ulrich; Hans im Glück 1995). Spec: ../shared/rules/el-grande.md."""

from tablero.games.elgrande.rules import GAME, ElGrande
from tablero.games.elgrande.state import ElGrandeState
from tablero.games.elgrande.view import ElGrandeView

__all__ = ["GAME", "ElGrande", "ElGrandeState", "ElGrandeView"]
