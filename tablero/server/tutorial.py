"""The tutorials' HTTP answers: stateless, every step rebuilt from its scenario on each request.

``GET /api/tutorial/{game}?lang=`` → :func:`overview`: the tutorial's title, introduction and
steps (index, id, title, task)::

    {"type": "tutorial", "game": "el-grande", "title": "El Grande", "lang": "en",
     "heading": "Learn El Grande", "intro": "...",
     "steps": [{"index": 0, "id": "power", "title": "...", "task": "..."}, ...]}

``POST /api/tutorial/{game}/{step}`` with ``{"moves": [...], "lang": "en"}`` → :func:`step`:
the step played from its position with the learner's moves (none: the position as the step
begins; one: that move tried, see :func:`tablero.core.tutorial.attempt`)::

    {"type": "tutorial_step", "game": "el-grande", "index": 3, "count": 7, "id": "place",
     "title": "...", "task": "...",
     "accepted": null | true | false,  # null: no move tried yet
     "done": false,                      # the step's move was accepted
     "say": null | "...",                # the explanation (accepted) or the hint (refused)
     "moves": ["place pais_vasco"],      # the accepted move, to send back for this step
     "payload": {...}}                   # seat 0's update, as a table sends it (payload.seat_payload)

The payload is what a seat at a table gets — the view, the legal moves with their labels, the
log of this step, the seats — so the game's board draws it unchanged. Once the step is done its
``legal`` list is empty: the learner reads the explanation and goes on to the next step.
Nothing is stored: the same request always gives the same answer (fixed positions, a fixed
chance seed, scripted replies).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tablero.core.errors import ErrorCode, TableroError
from tablero.core.messages import LANGUAGES, Translator
from tablero.core.tutorial import LEARNER, Tutorial, attempt
from tablero.registry import get_tutorial
from tablero.server.i18n import WEB_CATALOGUE
from tablero.server.payload import SEAT_COLOURS, SEAT_LETTERS, seat_payload


def _lang(lang: str | None) -> str:
    return lang if lang in LANGUAGES else "en"


def translator(tutorial: Tutorial[Any, Any, Any], lang: str) -> Translator:
    """The game's words, the tutorial's own and the server's, with the tutorial's seat names."""
    return Translator(lang, [tutorial.game.catalogue(), WEB_CATALOGUE, tutorial.catalogue], tutorial.names)


def overview(game_id: str, lang: str | None) -> dict[str, Any]:
    tut = get_tutorial(game_id)
    tr = translator(tut, _lang(lang))
    return {
        "type": "tutorial",
        "game": tut.game.id,
        "title": tut.game.title,
        "lang": tr.lang,
        "heading": tr(tut.title),
        "intro": tr(tut.intro),
        "steps": [{"index": k, "id": s.id, "title": tr(s.title), "task": tr(s.task)}
                  for k, s in enumerate(tut.steps)],
    }


def seats(tutorial: Tutorial[Any, Any, Any], players: int) -> list[dict[str, Any]]:
    """The seats as a table shows them: the learner (a person, here) and the others (bots)."""
    return [{"name": tutorial.names[i], "kind": "person" if i == LEARNER else "bot",
             "bot": None, "replaced": False, "claimed": True, "connected": True, "away": None,
             "left": False, "letter": SEAT_LETTERS[i], "colour": SEAT_COLOURS[i]}
            for i in range(players)]


def step(game_id: str, index: int, moves: Sequence[str], lang: str | None) -> dict[str, Any]:
    tut = get_tutorial(game_id)
    if not isinstance(moves, (list, tuple)) or not all(isinstance(m, str) for m in moves):
        raise TableroError("tutorial: 'moves' is a list of move texts", code=ErrorCode.MALFORMED)
    tr = translator(tut, _lang(lang))
    s = tut.step(index)
    a = attempt(tut, index, moves)
    m = a.match
    payload = seat_payload(m, LEARNER, tr, seats=seats(tut, m.players), log_since=0, deadlines={}, now=0.0)
    payload.update(game_id=None, game=tut.game.id, title=tut.game.title, admin=False, rematch=None,
                   away_seconds=0, hints=False, thinking=None, thought={}, can_undo=False)
    done = a.accepted is True
    if done:
        payload["legal"] = []
    return {
        "type": "tutorial_step",
        "game": tut.game.id,
        "lang": tr.lang,
        "index": index,
        "count": len(tut.steps),
        "id": s.id,
        "title": tr(s.title),
        "task": tr(s.task),
        "accepted": a.accepted,
        "done": done,
        "say": None if a.say is None else tr(a.say),
        "moves": list(a.moves),
        "payload": payload,
    }
