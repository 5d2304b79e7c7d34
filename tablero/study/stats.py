"""What simulate, the tournament and the lab share: seat rotation, Wilson intervals, the unit of
a game's rounds and the names of families and colours.

They live here, under :mod:`tablero.sim` in the import layers, so the study tools
(:mod:`tablero.study`) and ``simulate`` use one definition; :mod:`tablero.sim` re-exports them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

ROTATED = "rotated"
"""The ``bot`` of a seat position in a rotated run: every bot sat there in turn."""


def seating(seats: Sequence[str], index: int, rotate: bool) -> tuple[str, ...]:
    """The bots of game ``index``: ``seats`` itself, or rotated by ``index % n`` (seat p gets
    ``seats[(p + index) % n]``)."""
    if not rotate:
        return tuple(seats)
    n = len(seats)
    return tuple(seats[(p + index) % n] for p in range(n))


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (successes may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


ROUND_UNITS = {"mafia-legend": "months"}
"""What :meth:`Game.rounds` counts where it is not rounds (El Grande and Don Carlo count rounds)."""


def rounds_unit(game_id: str) -> str:
    """The unit of :meth:`Game.rounds` for ``game_id``, plural and lower case: ``rounds`` or ``months``."""
    return ROUND_UNITS.get(game_id, "rounds")


def role_label(role: str) -> str:
    """A family's or colour's id as a reader sees it: ``barone`` → ``Barone``, ``yellow`` → ``Yellow``."""
    return role.replace("_", " ").capitalize() if role else "?"


def fixed_roles(roles: Sequence[Sequence[str] | None]) -> tuple[str, ...] | None:
    """The role of each seat when every game gave each seat the same one (El Grande's and Don
    Carlo's colours go with the seat), else None (Mafia Legend's families move between seats)."""
    seen = {tuple(r) if r else None for r in roles}
    if len(seen) != 1 or None in seen:
        return None
    return seen.pop()


def jsonable(value: Any) -> Any:
    """Options and results as plain JSON: mappings with text keys, lists (a set sorted), and
    anything else that is not a JSON scalar as its text."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(jsonable(v) for v in value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
