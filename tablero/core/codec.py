"""Integer action spaces: every action of a game with given players and options has one index.

``Game.action_codec(players, options)`` and ``Game.chance_codec(players, options)`` return an
:class:`ActionCodec`: ``size`` indices, ``encode(action) -> int`` and ``decode(int) -> action``,
the same for every state of that game (what search trees, policy networks and OpenSpiel-style
bindings need). ``legal_actions`` lists a seat's actions sorted by this index.

:class:`TableCodec` is the codec most games need: a fixed list of every possible action.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Generic, Protocol, TypeVar

from tablero.core.errors import ActionParseError

A = TypeVar("A")


class ActionCodec(Protocol[A]):
    """A fixed bijection between a game's possible actions and ``range(size)``."""

    @property
    def size(self) -> int: ...

    def encode(self, action: A) -> int: ...

    def decode(self, index: int) -> A: ...


class TableCodec(Generic[A]):
    """A codec over an explicit list of every possible action (hashable, no duplicates)."""

    __slots__ = ("_actions", "_index")

    def __init__(self, actions: Iterable[A]) -> None:
        self._actions: tuple[A, ...] = tuple(actions)
        self._index: dict[A, int] = {a: i for i, a in enumerate(self._actions)}
        if len(self._index) != len(self._actions):
            raise ValueError("an action space lists some action twice")

    @property
    def size(self) -> int:
        return len(self._actions)

    @property
    def actions(self) -> Sequence[A]:
        return self._actions

    def encode(self, action: A) -> int:
        try:
            return self._index[action]
        except (KeyError, TypeError) as exc:
            raise ActionParseError(f"{action!r} is not in this action space") from exc

    def decode(self, index: int) -> A:
        if not 0 <= index < len(self._actions):
            raise ActionParseError(f"action index {index} is outside 0-{len(self._actions) - 1}")
        return self._actions[index]

    def __contains__(self, action: object) -> bool:
        return action in self._index
