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

    ``reveal`` marks an event that turns up information some seat did not have (a face-down
    card shown, a secret commitment opened): after it no take-back is allowed, since undoing
    would let a seat look and choose again. An event shown to some seats only counts as a
    reveal too (see :attr:`ends_takeback`).
    """

    message: Message
    visible_to: frozenset[int] | None = None
    redacted: Message | None = None
    reveal: bool = False

    @property
    def ends_takeback(self) -> bool:
        """True if nobody may take back the action that produced this event."""
        return self.reveal or self.visible_to is not None

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
