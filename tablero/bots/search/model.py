"""What search needs to know of a game beyond the core protocol: a model per game.

A :class:`SearchModel` gives the search two things, both computed from a *determinized*
world (a full state sampled from the searching seat's view, never the true state):

* ``estimate(state)``: every seat's expected final score if play went on from here (points,
  majorities, expected scorings), from the world's public part (Don Carlo, El Grande) or the
  whole world (Mafia Legend: the cards' values; a world is a sample from the searching seat's
  information, so over the iterations that is an expectation under it). The search turns estimates
  into a reward per seat (:func:`margin_rewards`), so a cut-off playout is judged like a
  finished one;
* ``rollout(state, seat, legal, rng)``: the policy that plays the playouts (usually the
  game's greedy heuristic, or a cheaper one where the greedy bot is too slow to call
  thousands of times a second), with its own ε of uniform exploration applied by the search.

A model may also keep a game clock, ``clock(state) -> int`` (Mafia Legend: the phase of the
month), for searches that cut their playouts at a point of the game (``Budget.phases``).

``scale`` is the score margin that counts as a clear lead (about one good turn's worth of
points): the cut-off reward is ``sigmoid(margin / scale)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from random import Random
from typing import Any, Protocol

from tablero.core.protocol import Game, Result


class SearchModel(Protocol):
    """A game's evaluation and playout policy for search (see the module docstring)."""

    scale: float
    """The score margin that counts as a clear lead (the sigmoid's unit)."""

    def estimate(self, game: Game[Any, Any, Any], state: Any) -> Sequence[float]:
        """Expected final score per seat in this world (``()``: no idea)."""
        ...

    def rollout(self, game: Game[Any, Any, Any], state: Any, seat: int, legal: Sequence[Any],
                rng: Random) -> Any:
        """The playout policy's choice for ``seat`` among ``legal`` (``len(legal) > 1``)."""
        ...


def _sigmoid(x: float) -> float:
    if x < -60:
        return 0.0
    if x > 60:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def margin_rewards(scores: Sequence[float], scale: float, table: float = 0.0) -> list[float]:
    """Per seat: ``sigmoid((own - best other) / scale)``, a smooth stand-in for winning.

    ``table`` > 0 mixes in that share of ``sigmoid((own - mean of the others) / scale)``: a seat
    far behind the leader, whose margin reward is then flat, still prefers the move that gains
    it points against the table (else its search has nothing to tell its options apart by).
    """
    out = []
    n = len(scores)
    total = sum(scores)
    for p, s in enumerate(scores):
        best = max((o for q, o in enumerate(scores) if q != p), default=0.0)
        r = _sigmoid((s - best) / scale)
        if table and n > 1:
            r = (1 - table) * r + table * _sigmoid((s - (total - s) / (n - 1)) / scale)
        out.append(r)
    return out


def result_rewards(result: Result, scale: float, share: float = 0.8, table: float = 0.0) -> list[float]:
    """Per seat at the end: ``share`` × win share (1/k for k shared winners) plus the rest ×
    the margin reward, so a lost game lost by less is still worth a little more."""
    margins = margin_rewards(result.scores, scale, table)
    return [share * result.win_share(p) + (1 - share) * margins[p] for p in range(len(result.scores))]


class GenericModel:
    """A model for any game: uniform playouts, and no estimate of a position before its end.

    The fallback for a game with no model of its own (the toy game in tests): a cut-off
    playout then rewards every seat alike, so such a search should play to the end
    (``depth=0``). ``scores`` may read the scores out of a state instead.
    """

    def __init__(self, scores: Callable[[Any], Sequence[float]] | None = None, scale: float = 1.0) -> None:
        self._scores = scores
        self.scale = scale

    def estimate(self, game: Game[Any, Any, Any], state: Any) -> Sequence[float]:
        return () if self._scores is None else self._scores(state)

    def rollout(self, game: Game[Any, Any, Any], state: Any, seat: int, legal: Sequence[Any],
                rng: Random) -> Any:
        return legal[rng.randrange(len(legal))]
