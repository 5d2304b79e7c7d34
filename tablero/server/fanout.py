"""One connection's way out: a bounded outbox and a writer of its own.

The service never waits for a client. It puts what a connection is to get into the
connection's :class:`Outbox` (a message, or "an update is due") and goes on; the outbox's
writer task sends one message at a time, in the order they were put, so a slow reader holds
up nobody but itself.

Updates are built when the writer gets to them (``build``, the service's
:meth:`~tablero.server.service.GameService.updates` under the table's lock, so never from a
change that is not saved yet), not when they are asked for: an update
still waiting when the next is asked for moves to the end of the outbox and is built once,
from the newest state. The log goes out incrementally (each update carries the lines from
where the connection's last update ended: ``Conn.sent``), and that mark only moves when an
update is built, so merging two updates never loses a line.

A reader too slow is dropped: when one message takes over ``timeout`` seconds to go out, or
when its outbox holds ``size`` messages and another comes. The service then treats it as
disconnected (``on_drop``: its seats are marked away) and the connection is closed with
:data:`SLOW_CLOSE`, as soon as the close can get through.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

log = logging.getLogger("tablero.server")

Send = Callable[[str], Awaitable[None]]
Close = Callable[[int, str], Awaitable[None]]
"""Closes a connection with a WebSocket close code and reason."""

SLOW_CLOSE = 4408
"""Close code of a connection dropped for reading too slowly (4000 + HTTP 408, like the other
close codes of ``/ws``: 4000 + the HTTP status of the error)."""

FAILED_CLOSE = 1011
"""Close code of a connection whose send failed (usually it is gone already)."""


class _Update:
    """The place of an update in an outbox; it is built when the writer reaches it."""

    def __repr__(self) -> str:
        return "UPDATE"


UPDATE = _Update()


async def _nothing() -> list[str]:
    return []


class Outbox:
    """The messages waiting for one connection and the task that sends them (see the module doc)."""

    def __init__(self, send: Send, close: Close | None = None, *, size: int = 128, timeout: float = 10.0) -> None:
        self._send = send
        self._close = close
        self.size = max(1, size)
        self.timeout = timeout
        self._items: deque[str | _Update] = deque()
        self._wake = asyncio.Event()
        self._sending = False
        self._build: Callable[[], Awaitable[list[str]]] = _nothing
        self._on_drop: Callable[[], Coroutine[Any, Any, None]] | None = None
        self._keep: Callable[[asyncio.Future[Any]], None] = lambda _task: None
        self._writer: asyncio.Task[None] | None = None
        self.closed: str | None = None
        """Why the outbox takes nothing more (dropped as too slow, its send failed, the connection ended)."""

    def start(self, build: Callable[[], Awaitable[list[str]]], on_drop: Callable[[], Coroutine[Any, Any, None]],
              keep: Callable[[asyncio.Future[Any]], None]) -> None:
        """Start the writer: ``build`` makes the connection's update (its JSON texts) when one is
        due (it may wait: never from a change not yet saved), ``on_drop`` is awaited once the
        connection is dropped, ``keep`` holds the tasks (the service cancels them when it closes)."""
        self._build, self._on_drop, self._keep = build, on_drop, keep
        self._writer = asyncio.get_running_loop().create_task(self._run())
        keep(self._writer)

    @property
    def idle(self) -> bool:
        """Nothing waits and nothing is being sent."""
        return not self._items and not self._sending

    async def put(self, text: str) -> None:
        """Queue ``text`` (never waits: this is the connection's ``send`` for the service)."""
        self._post(text)

    def update(self) -> None:
        """An update is due: it goes to the end of the outbox (replacing one still waiting there)."""
        if self.closed is not None:
            return
        with contextlib.suppress(ValueError):
            self._items.remove(UPDATE)
        self._post(UPDATE)

    def stop(self, reason: str = "the connection ended") -> None:
        """Take nothing more and stop the writer (the connection is gone)."""
        if self.closed is None:
            self.closed = reason
        self._items.clear()
        if self._writer is not None and self._writer is not asyncio.current_task():
            self._writer.cancel()

    def _post(self, item: str | _Update) -> None:
        if self.closed is not None:
            return
        if len(self._items) >= self.size:
            self._drop(SLOW_CLOSE, f"too slow: {self.size} messages were waiting to be read")
            return
        self._items.append(item)
        self._wake.set()

    async def _run(self) -> None:
        while self.closed is None:
            if not self._items:
                self._wake.clear()
                await self._wake.wait()
                continue
            item = self._items.popleft()
            self._sending = True
            try:
                await self._deliver(item)
            finally:
                self._sending = False

    async def _deliver(self, item: str | _Update) -> None:
        try:
            texts = await self._build() if isinstance(item, _Update) else [item]
        except Exception:
            log.exception("an update could not be built")
            self._drop(FAILED_CLOSE, "the server failed to build an update")
            return
        for text in texts:
            try:
                async with asyncio.timeout(self.timeout if self.timeout > 0 else None):  # None: no limit
                    await self._send(text)
            except TimeoutError:
                self._drop(SLOW_CLOSE, f"too slow: a message took over {self.timeout:g} s to be read")
                return
            except Exception as exc:  # the socket is gone: the connection ends
                self._drop(FAILED_CLOSE, f"sending failed: {exc.__class__.__name__}")
                return

    def _drop(self, code: int, reason: str) -> None:
        if self.closed is not None:
            return
        log.warning("a connection is dropped: %s", reason)
        self.stop(reason)
        loop = asyncio.get_running_loop()
        if self._on_drop is not None:
            self._keep(loop.create_task(self._on_drop()))
        if self._close is not None:
            # Its own task: the close frame waits behind what the reader has not read yet.
            self._keep(loop.create_task(self._close_quietly(self._close, code, reason)))

    @staticmethod
    async def _close_quietly(close: Close, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await close(code, reason[:120])  # a close frame's reason has at most 123 bytes
