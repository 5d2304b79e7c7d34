"""The games and player counts the bindings are tested with: each game's smallest and largest
player count, on the short variant where a game has one (El Grande's ``short_game``)."""

from __future__ import annotations

import os
from typing import Any

DEEP = os.environ.get("TABLERO_DEEP") == "1"
"""make test-deep: many more games through each binding."""

SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("don-carlo", 2, {}),
    ("don-carlo", 4, {}),
    ("el-grande", 2, {"short_game": True}),
    ("el-grande", 5, {"short_game": True}),
    ("mafia-legend", 3, {}),
    ("mafia-legend", 4, {}),
]

if DEEP:  # make test-deep: every player count
    SETUPS = [("don-carlo", n, {}) for n in (2, 3, 4)] + [("el-grande", n, {}) for n in (2, 3, 4, 5)] + [
        ("el-grande", 3, {"short_game": True})] + [
        ("mafia-legend", n, o) for n in (3, 4) for o in ({}, {"variant": "beginner"}, {"missions": True})]

IDS = [f"{g}-{n}p" + "".join(f"-{k}={v}" for k, v in o.items()) for g, n, o in SETUPS]

KNOWN_WARNINGS = (
    # pettingzoo.test.api_test warns about every environment whose observations are dicts with an
    # action mask (its own classic games too): it checks the dict as if it were the array.
    "Observation space for each agent probably should be",
    "Observation is not a NumPy array",
    "The observation contains negative numbers",
)


def require(module: str) -> Any:
    """Import a research library: skip without it, except under ``CI=true`` (make test installs
    the ``rl`` extra), where its absence fails."""
    import importlib
    import os

    import pytest

    if os.environ.get("CI") == "true":
        return importlib.import_module(module)
    return pytest.importorskip(module)
