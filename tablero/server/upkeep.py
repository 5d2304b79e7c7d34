"""Keeping a long-running server healthy: tables that need attention, memory, abandoned tables.

The service (:mod:`tablero.server.service`) calls these small rules; they read and write only a
table's stored row (:class:`~tablero.server.store.StoredGame`) and its in-memory facts, so the
rules live in one place and the service keeps the flow.

**Needs attention.** When a bot and the table's cheap stand-in both fail, or the rules raise while
applying a bot's move, or the move cannot be saved, the service puts the table back exactly as
last saved and marks it: ``settings["attention"] = {"reason", "seat", "bot", "since"}`` (reason
``bot``, ``apply`` or ``store``). A marked table runs no bots and no clock stand-ins (so nothing
retries in a loop, before or after a restart), people still watch it, and every update and the
lobby listing show the mark. It is cleared by the creator's ``resume`` message (the bots try
once more), by a person taking a seat back from its bot (``reclaim``), or by any change a person
makes that is saved (a move, a take-back).

**Abandoned.** A running table nobody changed nor opened for ``abandon_days`` gets the status
``abandoned``: no bots, no clocks. A person's saved change (or the creator's ``resume``) makes
it ``running`` again.

**Loaded tables.** At most ``max_loaded_games`` tables stay in memory (least recently used
first out); a table stays while somebody is connected, a bot loop or search runs, its lock is
held, or the server must act there by itself (:func:`needs_server`). At start-up only the
tables that need the server are loaded; the others load when first asked for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sized
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tablero.server.store import StoredGame


class LiveGame(Protocol):
    """What these rules read of a table in memory (:class:`tablero.server.service.LiveGame`); a
    protocol rather than an import, so that this module stays below the service."""

    @property
    def stored(self) -> StoredGame: ...
    @property
    def conns(self) -> Sized: ...
    @property
    def bots_running(self) -> bool: ...
    @property
    def thinking(self) -> dict[str, Any] | None: ...
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def seen(self) -> float: ...

ATTENTION = "attention"
"""The key of the mark in a table's ``settings``."""

SEEN = "seen"
"""The key in ``settings`` of when somebody last opened the table (saved when it leaves memory)."""

TO_ACT = "to_act"
"""The key in ``settings`` of the seats to decide now (saved with every change): start-up reads
it to find the tables where a bot is to move without replaying any game."""

REASONS = {
    "bot": "the bot and its stand-in failed to decide",
    "apply": "the rules failed applying a move",
    "store": "a move could not be saved",
}
"""What a mark's ``reason`` means (for the log)."""

SWEEP_SECONDS = 3600.0
"""How often (by the service's clock) the ticker looks for abandoned tables."""


class BotFailed(RuntimeError):
    """A bot and the table's stand-in both failed to decide."""


def attention(stored: StoredGame) -> dict[str, Any] | None:
    """The table's mark, or None."""
    mark = stored.settings.get(ATTENTION)
    return dict(mark) if isinstance(mark, Mapping) else None


def mark(stored: StoredGame, *, reason: str, seat: int | None, bot: str | None, now: float) -> None:
    stored.settings[ATTENTION] = {"reason": reason, "seat": seat, "bot": bot, "since": now}


def revive(stored: StoredGame) -> bool:
    """Clear the attention mark and the abandoned status; True if there was either."""
    changed = stored.settings.pop(ATTENTION, None) is not None
    if stored.status == "abandoned":
        stored.status = "running"
        changed = True
    return changed


def bots_may_run(stored: StoredGame) -> bool:
    """Bots and clock stand-ins act only at a running table with no attention mark."""
    return stored.status == "running" and not stored.settings.get(ATTENTION)


def needs_server(stored: StoredGame) -> bool:
    """True when the server must act at this table by itself: a clock runs, or a bot (or a bot
    standing in for a person) is to decide. Read from the row alone (no replay); a row saved
    before the seats to act were kept counts as needing the server."""
    if not bots_may_run(stored):
        return False
    if stored.deadlines:
        return True
    to_act = stored.settings.get(TO_ACT)
    if not isinstance(to_act, list):
        return True
    seats = stored.seats
    return any(isinstance(p, int) and 0 <= p < len(seats)
               and (seats[p].get("kind") == "bot" or seats[p].get("replaced") is not None) for p in to_act)


def _quiet(live: LiveGame) -> bool:
    """Nobody connected, no bot loop or search, lock free."""
    return not live.conns and not live.bots_running and live.thinking is None and not live.lock.locked()


def evictable(live: LiveGame, runs_here: bool = True) -> bool:
    """May leave memory: quiet (:func:`_quiet`), nothing to do alone (``runs_here`` False:
    another server process runs its bots and clock, tablero.server.cluster)."""
    return _quiet(live) and not (runs_here and needs_server(live.stored))


def last_seen(stored: StoredGame) -> float:
    value = stored.settings.get(SEEN)
    return float(value) if isinstance(value, int | float) else 0.0


def idle_since(live: LiveGame) -> float:
    """When the table was last changed or opened."""
    return max(live.stored.updated, live.seen, last_seen(live.stored))


def may_abandon(live: LiveGame, cutoff: float) -> bool:
    return live.stored.status == "running" and _quiet(live) and idle_since(live) < cutoff
