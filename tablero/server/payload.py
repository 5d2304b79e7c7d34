"""What the server sends to one viewer: built only from that viewer's observation.

:func:`seat_payload` reads a match solely through the core protocol for one viewer. Its
*position* part (:func:`position_payload`: the observation ``Match.view``, that seat's legal
moves, the public list of seats to act, the result once the game is over) depends on the
current position only; its *history* part (the table version, the log as that viewer sees it,
the take-back right) on the record and the log. It never touches the state otherwise, so a
payload cannot say more than the view and the redacted log: the leak test rebuilds the
position part from re-dealt positions (``Match.from_state``) and requires equality.

An update on the wire (``"type": "update"``)::

    {"type": "update", "viewer": 0, "version": 41, "lang": "en",
     "seats": [{"name", "kind", "bot", "replaced", "claimed", "connected", "away", "left",
                "letter", "colour"}, ...],
     "pending": [0],                       # seats to decide now (never chance)
     "view": {...},                         # Game.observe(state, viewer).to_json()
     "legal": [{"text": "place galicia",    # the action's wire text: what "act" sends back
                "label": "place a caballero in Galicia",  # Game.describe for the seat itself
                "action": {"kind": "place", "area": "galicia"},  # Action.to_json()
                "final": false}, ...],              # true: cannot be taken back once played
     "can_undo": false, "log_since": 38,
     "log": [{"i": 39, "text": "Ann places a caballero in Galicia",       # i: the record entry
              "msg": {"id": "eg.place", "params": {"seat": 0, ...}}}, ...],  # the line as data
                                           # + "section": true on a line opening a round/month
     "result": null, "clocks": {"0": 12.5}}

The service adds the table's public facts, the same for every viewer (see
:meth:`~tablero.server.service.GameService.payload`): ``game_id``, ``game``, ``title``, ``admin``,
``rematch``, ``away_seconds``, ``hints``, ``thinking`` (a bot's search running now),
``thought`` (how long each bot's last search took) and ``data_changes`` (the rules data the
table plays with changed, in words), and the table's notes in the log ("B asked
for a hint", ``"note": "hint"``).

``legal`` is empty unless the viewer is to act. Each entry's ``action`` is the action's
structure (``Action.to_json()``: a ``kind`` and the game's named arguments), so a board
finds the moves of a place by their arguments instead of reading wire texts; ``text`` stays
the one thing a client sends back (``{"type": "act", "action": text, ...}``).
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
    """Log lines from record entry ``since`` on, as ``viewer`` sees them: rendered and as the message.

    A line that opens a round or month (``Game.starts_section``) carries ``"section": true``."""
    out: list[dict[str, Any]] = []
    events = match.events
    game = match.game
    # The log only grows, in record order: skip the lines sent before without looking at them.
    for k in range(bisect_left(events, since, key=itemgetter(0)), len(events)):
        i, e = events[k]
        m = e.for_viewer(viewer)
        if m is not None:
            line: dict[str, Any] = {"i": i, "text": tr(m), "msg": m.to_json()}
            if game.starts_section(m):
                line["section"] = True
            out.append(line)
    return out


def legal_moves(match: Match[Any, Any, Any], seat: int, tr: Translator) -> list[dict[str, Any]]:
    """``seat``'s legal moves as the wire carries them: text, the seat's own label, structure, and
    ``final``: the move cannot be taken back once played (:meth:`Match.closes_takeback`)."""
    return [{"text": a.to_text(), "label": tr(match.describe(seat, a, seat)), "action": a.to_json(),
             "final": match.closes_takeback(seat, a)}
            for a in match.legal(seat)]


def position_payload(match: Match[Any, Any, Any], viewer: int | None, tr: Translator) -> dict[str, Any]:
    """The part of ``viewer``'s update that depends on the current position only."""
    pending = [p for p in match.pending() if p >= 0]
    result = match.result()
    return {
        "pending": pending,
        "view": match.view(viewer).to_json(),
        "legal": legal_moves(match, viewer, tr) if viewer is not None and viewer in pending else [],
        "result": None if result is None else result.to_json(),
    }


def seat_payload(
    match: Match[Any, Any, Any],
    viewer: int | None,
    tr: Translator,
    *,
    seats: Sequence[dict[str, Any]],
    log_since: int,
    deadlines: dict[str, float],
    now: float,
    can_undo: bool | None = None,
) -> dict[str, Any]:
    """The update for ``viewer`` (a seat, or None for a spectator).

    ``can_undo``: the server's word on the take-back right (it knows which decisions bots made
    and its caps); None: the match's rule alone (:meth:`Match.can_undo`)."""
    clocks = {k: max(0.0, round(v - now, 1)) for k, v in deadlines.items()}
    return {
        "type": "update",
        "viewer": viewer,
        "version": len(match.record.entries),
        "seats": list(seats),
        **position_payload(match, viewer, tr),
        "can_undo": (viewer is not None and match.can_undo(viewer)) if can_undo is None else can_undo,
        "log_since": log_since,
        "log": log_lines(match, viewer, log_since, tr),
        "clocks": clocks,
        "lang": tr.lang,
    }
