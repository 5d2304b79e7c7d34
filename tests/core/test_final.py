"""``Match.closes_takeback``: which moves cannot be taken back, said before they are played.

The web table asks for a confirmation before such a move (the payload's ``final`` flag). The
prediction must be the take-back rule itself: right after the move, ``can_undo`` is false
exactly when ``closes_takeback`` said so.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest

from tablero.core.match import Match
from tablero.registry import GAMES
from tablero.testing.toygame import ToyGame

CASES = [("don-carlo", 3, {}), ("el-grande", 3, {"short_game": True}),
         ("mafia-legend", 3, {"variant": "beginner"}), ("toy", 3, {})]


@pytest.mark.parametrize(("gid", "n", "opts"), CASES)
def test_a_move_flagged_final_is_exactly_one_that_cannot_be_taken_back(gid: str, n: int, opts: dict[str, Any]) -> None:
    game = ToyGame() if gid == "toy" else GAMES[gid]
    m = Match(game, [f"p{i}" for i in range(n)], options=opts, seed=5, undo=True)
    rng = Random(5)
    seen: Counter[bool] = Counter()
    steps = 0
    while m.pending() and steps < 3000:
        steps += 1
        p = m.pending()[0]
        legal = m.legal(p)
        flags = [m.closes_takeback(p, a) for a in legal]
        assert m.legal(p) == legal, "asking changes nothing"
        k = rng.randrange(len(legal))
        m.act(p, legal[k])
        assert m.can_undo(p) == (not flags[k]), (steps, legal[k].to_text())
        seen[flags[k]] += 1
    assert seen[True] > 0
    if gid in ("el-grande", "mafia-legend"):
        assert seen[False] > 0  # both kinds occur where the game has take-backs at all
