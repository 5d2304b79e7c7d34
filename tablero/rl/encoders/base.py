"""Observation tensors: a fixed-shape float32 vector per seat, built from the seat's view only.

An :class:`Encoder` is made for one game, player count and set of options. Its
:class:`Layout` names every block of the vector (which slice means what, its shape, its
bounds), so a researcher can read a tensor back and the docs list it
(``tablero.rl.encoders.layout_markdown``). Seats are *relative*: index 0 of every per-seat
block is the observer, then the seats after it in turn order (``(seat - observer) % n``).

``encode(view)`` reads the view alone (never the state), so two states a seat cannot tell
apart give the same tensor, and nothing the seat may not see can reach it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import prod
from typing import Any, ClassVar

import numpy as np


@dataclass(frozen=True, slots=True)
class Block:
    """One named slice of the observation vector."""

    name: str
    start: int
    shape: tuple[int, ...]
    doc: str
    low: float = 0.0
    high: float = 1.0

    @property
    def size(self) -> int:
        return prod(self.shape)

    @property
    def stop(self) -> int:
        return self.start + self.size


class Layout:
    """The blocks of an observation vector, in order (built once per encoder)."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.size = 0

    def add(self, name: str, shape: int | Sequence[int], doc: str, *, low: float = 0.0, high: float = 1.0) -> int:
        """Append a block; returns its start offset (row-major for several dimensions)."""
        dims = (shape,) if isinstance(shape, int) else tuple(shape)
        if any(b.name == name for b in self.blocks):
            raise ValueError(f"block {name!r} twice in a layout")
        block = Block(name, self.size, dims, doc, low, high)
        self.blocks.append(block)
        self.size += block.size
        return block.start

    def block(self, name: str) -> Block:
        for b in self.blocks:
            if b.name == name:
                return b
        raise KeyError(name)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-element lower and upper bounds (float32), for a ``gymnasium.spaces.Box``."""
        low = np.empty(self.size, np.float32)
        high = np.empty(self.size, np.float32)
        for b in self.blocks:
            low[b.start:b.stop] = b.low
            high[b.start:b.stop] = b.high
        return low, high

    def split(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        """The tensor's blocks by name, reshaped (views of the same memory)."""
        return {b.name: tensor[b.start:b.stop].reshape(b.shape) for b in self.blocks}

    def markdown(self) -> str:
        """The layout as a Markdown table (the docs print it)."""
        rows = ["| block | slice | shape | range | meaning |", "|---|---|---|---|---|"]
        for b in self.blocks:
            shape = "×".join(str(d) for d in b.shape)
            high = "∞" if b.high == float("inf") else f"{b.high:g}"
            rows.append(f"| `{b.name}` | {b.start}:{b.stop} | {shape} | {b.low:g}..{high} | {b.doc} |")
        return "\n".join(rows)


class Encoder(ABC):
    """Turns a seat's view into a fixed-shape float32 vector (see the module doc).

    Subclasses build ``self.layout`` in ``__init__`` and write ``fill``: it appends the
    indices and values of the non-zero elements to ``idx`` and ``val`` (everything else is 0).
    """

    game_id: ClassVar[str]

    def __init__(self, players: int, options: Mapping[str, object] | None = None) -> None:
        self.players = players
        self.options: Mapping[str, object] = options or {}
        self.layout = Layout()

    @property
    def size(self) -> int:
        return self.layout.size

    @abstractmethod
    def fill(self, view: Any, seat: int, idx: list[int], val: list[float]) -> None:
        """Append (index, value) of every non-zero element for ``seat``'s ``view``."""

    def encode(self, view: Any) -> np.ndarray:
        """The observation vector of ``view`` (a seat's view: ``view.viewer`` is the seat)."""
        seat = view.viewer
        if seat is None:
            raise ValueError("observation tensors are per seat; a spectator's view has no observer")
        idx: list[int] = []
        val: list[float] = []
        self.fill(view, seat, idx, val)
        out = np.zeros(self.layout.size, np.float32)
        if idx:  # fromiter: the quickest way from Python lists into the array (measured)
            k = len(idx)
            out[np.fromiter(idx, np.intp, k)] = np.fromiter(val, np.float32, k)
        return out
