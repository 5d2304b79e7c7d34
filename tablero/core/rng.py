"""Seed derivation: one master seed gives every game and every bot its own stream."""

from __future__ import annotations

import hashlib


def derive_seed(seed: int, *parts: int | str) -> int:
    """A 63-bit seed derived from ``seed`` and ``parts`` (stable across runs and machines)."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1
