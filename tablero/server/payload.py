"""What the server sends to one viewer: built only from that viewer's observation.

:func:`seat_payload` reads a match solely through the core protocol for one viewer — the
observation (``Match.view``), the legal moves of that seat, the public list of seats to act,
the log as that viewer sees it, the take-back right and the result once the game is over. It
never touches the state otherwise, so a payload cannot say more than the view and the
redacted log (the leak tests check this as equality of payloads over re-dealt states).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from tablero.core.match import Match
from tablero.core.messages import Translator

# Okabe–Ito colours (told apart with the common colour-vision deficiencies), each seat also
# carries a letter so nothing depends on colour alone.
SEAT_COLOURS: tuple[str, ...] = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#D55E00", "#0072B2")
SEAT_LETTERS: tuple[str, ...] = ("A", "B", "C", "D", "E", "F")


def log_lines(match: Match[Any, Any, Any], viewer: int | None, since: int, tr: Translator) -> list[dict[str, Any]]:
    """Log lines from record entry ``since`` on, as ``viewer`` sees them, rendered."""
    out: list[dict[str, Any]] = []
    events = match.events
    # The log only grows, in record order: skip the lines sent before without looking at them.
    for k in range(bisect_left(events, since, key=itemgetter(0)), len(events)):
        i, e = events[k]
        m = e.for_viewer(viewer)
        if m is not None:
            out.append({"i": i, "text": tr(m)})
    return out


def seat_payload(
    match: Match[Any, Any, Any],
    viewer: int | None,
    tr: Translator,
    *,
    seats: Sequence[dict[str, Any]],
    log_since: int,
    deadlines: dict[str, float],
    now: float,
) -> dict[str, Any]:
    """The update for ``viewer`` (a seat, or None for a spectator)."""
    pending = [p for p in match.pending() if p >= 0]
    mine = viewer is not None and viewer in pending
    legal: list[dict[str, str]] = []
    if mine and viewer is not None:
        for a in match.legal(viewer):
            legal.append({"text": a.to_text(), "label": tr(match.describe(viewer, a, viewer))})
    result = match.result()
    clocks = {k: max(0.0, round(v - now, 1)) for k, v in deadlines.items()}
    return {
        "type": "update",
        "viewer": viewer,
        "version": len(match.record.entries),
        "seats": list(seats),
        "pending": pending,
        "view": match.view(viewer).to_json(),
        "legal": legal,
        "can_undo": viewer is not None and match.can_undo(viewer),
        "log_since": log_since,
        "log": log_lines(match, viewer, log_since, tr),
        "result": None if result is None else result.to_json(),
        "clocks": clocks,
        "lang": tr.lang,
    }
