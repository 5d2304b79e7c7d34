"""The server's operating limits and switches, in one place (docs/deploy.md lists them).

Every field has a default that suits a public server on a small machine; an operator changes
one with the environment variable ``TABLERO_<FIELD>`` (``TABLERO_MAX_SPECTATORS=50``), tests
pass a :class:`ServerSettings` to :func:`~tablero.server.app.create_app`. Tuple fields read a
comma-separated list; booleans read ``1/0``, ``true/false``, ``yes/no``, ``on/off``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

ENV_PREFIX = "TABLERO_"

DAY = 86_400.0
"""Seconds in a day: the settings counted in days (``*_days``) are multiplied by it."""


@dataclass(frozen=True)
class ServerSettings:
    """Limits and switches of one server process (see the module docstring for the environment)."""

    # -- inputs
    max_body: int = 16_384
    """Largest request body or WebSocket message (bytes); a larger one is refused before it is read."""

    # -- durability
    sqlite_synchronous: str = "FULL"
    """SQLite's ``PRAGMA synchronous`` (FULL: an acknowledged move survives a power loss; NORMAL is
    faster and may lose the last moves then, never corrupting the file)."""

    # -- memory and bots
    max_loaded_games: int = 200
    """Tables kept in memory at most (each holds its replayed game, roughly half a MiB); beyond it
    the least recently used table nobody is connected to and no bot, search or clock is busy at
    leaves memory, and loads again from the database when asked for."""
    abandon_days: float = 30.0
    """A running table nobody changed nor opened for this many days is marked ``abandoned`` (its
    bots and clocks stop; a person's move revives it); 0: tables are never marked abandoned."""

    # -- operations (health, metrics, logs)
    log_format: str = "text"
    """``tablero serve``'s log lines: ``text``, or ``json`` (one JSON object per line, for a log
    collector); ``--log-format`` overrides it."""
    metrics_token: str = ""
    """When set, ``/metrics`` answers only requests with ``Authorization: Bearer <token>`` (401
    otherwise); empty: it answers everybody who reaches the port (keep it off the public proxy)."""

    # -- fan-out
    outbox_size: int = 128
    """Messages waiting to go out to one connection (a newer update replaces one still waiting,
    so these are mostly chat lines and answers); a connection whose outbox overflows reads too
    slowly and is dropped (close code 4408)."""
    send_timeout: float = 10.0
    """Seconds one message may take to go out to a connection; a connection slower than that is
    dropped (close code 4408), its seats marked away (0: no limit)."""
    max_spectators: int = 100
    """Connections holding no seat that one table accepts; the next is refused with
    ``table/spectators_full`` (close code 4503). Seats and the table's creator are never refused."""

    # -- rate limits
    rate_limits: bool = True
    """Every rate limit below on or off (off: for a load test from one machine)."""
    rate_create: int = 30
    """New games (lobby and rematches) one client address makes per minute, in a burst of as
    many; the next is refused with 429 and ``Retry-After`` (0: no limit; so for every ``rate_*``)."""
    rate_ws_open: int = 64
    """WebSocket connections one client address holds open at once."""
    rate_ws_new: int = 120
    """New WebSocket connections per minute and client address (a burst of as many)."""
    rate_ws_messages: int = 600
    """WebSocket messages per minute and connection (a burst of as many)."""
    rate_ws_messages_ip: int = 1800
    """WebSocket messages per minute of all connections of one client address."""
    rate_chat_ip: int = 60
    """Chat messages per minute of one client address (each connection besides: 5 in 10 s)."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (``10.0.0.0/8``) of reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed: the client's address is then the one the proxy saw."""

    # -- security headers and origins
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://play.example``) besides the site's own (the request's ``Host``) whose
    pages may POST and open WebSockets."""
    hsts: bool = False
    """Send ``Strict-Transport-Security`` on every answer (the site is HTTPS only); requests that
    came over TLS get it anyway."""

    # -- tokens and take-backs
    token_rotate_days: float = 7.0
    """A seat token older than this (days) is replaced at its next hello: the connection gets
    ``{"type": "token", ...}`` and the device stores the new one (0: never)."""
    token_grace_seconds: float = 300.0
    """After an automatic rotation the old token still holds the seat this long (seconds), for
    the device's other tabs and a reply lost on the way; using it then rotates again."""
    token_idle_days: float = 60.0
    """A seat token not used (hello, move) for this long (days) stops working; the table's
    creator can invite anew (0: never)."""
    max_undos_per_turn: int = 20
    """Take-backs a seat may make in a row, before another seat (or chance) acts."""
    max_record: int = 10_000
    """Record entries of a table (the longest random games measure about 1,000) beyond which
    take-backs are refused; moves stay allowed, since every game ends."""

    # -- more than one process (tablero.server.cluster)
    cluster: bool = True
    """On PostgreSQL: several ``tablero serve`` processes may share the database (each commit is
    announced with ``NOTIFY``, each table's bots and clock run in one process, held by an advisory
    lock). Off: this process takes itself to be alone. SQLite always serves one process."""
    cluster_sweep_seconds: float = 1.0
    """How often a process looks for tables with a bot to move or a clock running whose process is
    gone (killed, stopped) and takes them over (after two looks: within 1-2 times this); also how
    often it lets go of tables it dropped."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> ServerSettings:
        """The defaults, changed by ``TABLERO_<FIELD>`` variables of ``env`` (default
        ``os.environ``), then by ``overrides``. A value that does not parse raises ValueError
        naming the variable."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            name = ENV_PREFIX + f.name.upper()
            if name in env:
                try:
                    values[f.name] = _parse(f.default, env[name])
                except ValueError as exc:
                    raise ValueError(f"{name}={env[name]!r}: {exc}") from None
        values.update(overrides)
        return cls(**values)


def _parse(default: Any, raw: str) -> Any:
    """``raw`` read as the type of ``default``."""
    raw = raw.strip()
    if isinstance(default, bool):
        low = raw.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ValueError("expected true or false")
    if isinstance(default, int):
        return int(raw)
    if isinstance(default, float):
        value = float(raw)
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("expected a finite number")
        return value
    if isinstance(default, tuple):
        return tuple(x.strip() for x in raw.split(",") if x.strip())
    return raw
