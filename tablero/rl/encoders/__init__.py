"""Observation encoders, one per game (``doncarlo.py``, ``elgrande.py``, ``mafia.py``).

``make_encoder(game_id, players, options)`` builds the encoder of a game for a player count
and resolved options; ``layout_markdown`` prints its layout for the docs.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module

from tablero.rl.encoders.base import Block, Encoder, Layout

MODULES = {"don-carlo": "doncarlo", "el-grande": "elgrande", "mafia-legend": "mafia"}
"""The module under ``tablero.rl.encoders`` of each game id; each defines ``ENCODER``."""


def encoder_class(game_id: str) -> type[Encoder]:
    try:
        module = MODULES[game_id]
    except KeyError:
        raise KeyError(f"no observation encoder for {game_id!r}; known: {', '.join(sorted(MODULES))}") from None
    cls: type[Encoder] = import_module(f"tablero.rl.encoders.{module}").ENCODER
    return cls


def make_encoder(game_id: str, players: int, options: Mapping[str, object] | None = None) -> Encoder:
    """The encoder of ``game_id`` for ``players`` seats and (resolved) ``options``."""
    return encoder_class(game_id)(players, options)


def layout_markdown(game_id: str, players: int, options: Mapping[str, object] | None = None) -> str:
    return make_encoder(game_id, players, options).layout.markdown()


__all__ = ["MODULES", "Block", "Encoder", "Layout", "encoder_class", "layout_markdown", "make_encoder"]
