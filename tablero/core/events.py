"""Events: what happened, and who may see what of it.

``Game.apply`` appends events to a list when its caller passes one (the match driver
does; search loops and benchmarks pass none and pay nothing). Each event carries its own
visibility, so redaction happens per event, at one boundary: :meth:`Event.for_viewer`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tablero.core.messages import Message


@dataclass(frozen=True, slots=True)
class Event:
    """One log line.

    ``visible_to`` is ``None`` for a public event, else the seats that see ``message``.
    Every other viewer (other seats and spectators) sees ``redacted`` instead, or nothing
    when ``redacted`` is ``None``.
    """

    message: Message
    visible_to: frozenset[int] | None = None
    redacted: Message | None = None

    def for_viewer(self, viewer: int | None) -> Message | None:
        if self.visible_to is None or (viewer is not None and viewer in self.visible_to):
            return self.message
        return self.redacted


def visible_log(events: Iterable[Event], viewer: int | None) -> list[Message]:
    """The log as ``viewer`` sees it (``None`` = spectator)."""
    out = []
    for e in events:
        m = e.for_viewer(viewer)
        if m is not None:
            out.append(m)
    return out
