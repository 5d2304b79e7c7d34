"""The end screen's summary of a finished game: where the points came from, and the scores over time.

``GET /api/games/{id}/summary?lang=de`` (only once the game is over, like the record) answers::

    {"type": "summary", "game_id", "game", "lang", "players": 3, "entries": 412,
     "result": {"scores", "ranks", "winners"},
     "sheet": {"rows": [{"group": "Scoring after round 3", "label": "Castillo", "values": [3, 5, 1]}, ...],
               "total": {"label": "Total", "values": [90, 87, 73]}}      # or null: no breakdown
     "series": {"points": [[0, [0, 0, 0]], [57, [0, 4, 0]], ..., [412, [90, 87, 73]]],
                "sections": [{"at": 31, "n": 2, "text": "Round 2"}, ...],
                "unit": "round"}}                                       # "round", "month" or null

* ``sheet`` is :meth:`Game.score_sheet` of the final state and the whole log as a spectator saw
  it (the lines of entries that were taken back left out), its labels rendered in ``lang``.
  Its total row equals ``result.scores``.
* ``series`` replays the record (:meth:`Match.walk_record`) and reads the public scores of the
  spectator's view after each entry (the view's ``public.scores``, or ``public.vp``, the same
  numbers the seat bar shows). A point ``[k, scores]`` says the scores after ``k`` entries, one
  point where they changed, plus the start and the end. ``sections`` are the log lines that open
  a round or a month (:meth:`Game.starts_section`) at the entry count after them, ``n`` the
  round's or month's number (the line's ``round`` / ``month`` parameter, else its count), and
  ``unit`` names what they count.

Everything comes from the record and public views, so every viewer gets the same summary. It
is computed once per finished game (:func:`build`, in a thread: a whole replay) and kept on the
``LiveGame``; rendering it in a language is cheap (:func:`render`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from tablero.core.errors import ErrorCode, TableroError
from tablero.core.match import UNDO, Match
from tablero.core.messages import LANGUAGES, Message, Translator
from tablero.core.protocol import CHANCE, Game, Result, ScoreSheet
from tablero.core.record import GameRecord

SCORE_KEYS = ("scores", "vp", "score")
"""Where a view's public part keeps each seat's score (the seat bar reads the same keys)."""

UNITS = ("round", "month")
"""Parameters of a section's line that number it; the unit is the parameter's name."""


@dataclass(frozen=True, slots=True)
class Summary:
    """A finished game's sheet and score history, before rendering in a language."""

    players: int
    entries: int
    result: Result
    sheet: ScoreSheet | None
    points: tuple[tuple[int, tuple[float, ...]], ...]
    """(entries applied, each seat's public score then), where the scores changed."""
    sections: tuple[tuple[int, Message], ...]
    """(entries applied, the line opening a round or month)."""


def public_scores(view: Mapping[str, Any], players: int) -> tuple[float, ...] | None:
    """Each seat's score as the view's public part shows it, or None when it shows none."""
    public = view.get("public", view)
    if not isinstance(public, Mapping):
        return None
    for key in SCORE_KEYS:
        v = public.get(key)
        if isinstance(v, list) and len(v) == players and all(isinstance(x, (int, float)) for x in v):
            return tuple(float(x) for x in v)
    return None


def build(game: Game[Any, Any, Any], record: GameRecord) -> Summary:
    """Replay ``record`` (a finished game) once: the public scores after every entry, the log, the sheet."""
    players = len(record.players)
    points: list[tuple[int, tuple[float, ...]]] = []
    undone: set[int] = set()
    last: tuple[float, ...] | None = None
    match: Match[Any, Any, Any] | None = None

    def note(k: int, m: Match[Any, Any, Any]) -> None:
        nonlocal last
        scores = public_scores(m.view(None).to_json(), players)
        if scores is not None and scores != last:
            points.append((k, scores))
            last = scores

    for i, actor, text, m in Match.walk_record(game, record):
        note(i, m)
        if text == UNDO and actor != CHANCE:
            undone.add(i)
            back = m.undo_point(actor)
            if back is not None:
                undone.update(range(back[0], i))
        match = m
    if match is None:  # no entries: the game ended before anyone acted (a set-up position)
        match = Match.from_record(game, record)
    total = len(record.entries)
    note(total, match)
    if points and points[-1][0] != total:
        points.append((total, points[-1][1]))
    result = match.result()
    if result is None:
        raise ValueError("the summary is of a finished game")
    log: list[Message] = []
    sections: list[tuple[int, Message]] = []
    for i, event in match.events:
        msg = event.for_viewer(None)
        if msg is None or i in undone:
            continue
        log.append(msg)
        if game.starts_section(msg):
            sections.append((i + 1, msg))
    return Summary(players=players, entries=total, result=result, sheet=game.score_sheet(match.state, log),
                   points=tuple(points), sections=tuple(sections))


def _number(msg: Message, count: int) -> tuple[int, str | None]:
    params = dict(msg.params)
    for unit in UNITS:
        v = params.get(unit)
        if isinstance(v, int) and not isinstance(v, bool):
            return v, unit
    return count, None


def render(summary: Summary, tr: Translator) -> dict[str, Any]:
    """The summary as the route sends it, its words in ``tr``'s language."""
    sheet = summary.sheet
    sheet_json: dict[str, Any] | None = None
    if sheet is not None:
        sheet_json = {
            "rows": [{"group": None if r.group is None else tr(r.group), "label": tr(r.label),
                      "values": [_num(x) for x in r.values]} for r in sheet.rows],
            "total": {"label": tr(sheet.total), "values": [_num(x) for x in sheet.totals]},
        }
    sections = []
    units: set[str | None] = set()
    for k, (at, msg) in enumerate(summary.sections, start=1):
        n, unit = _number(msg, k)
        units.add(unit)
        sections.append({"at": at, "n": n, "text": tr(msg)})
    return {
        "type": "summary",
        "lang": tr.lang,
        "players": summary.players,
        "entries": summary.entries,
        "result": summary.result.to_json(),
        "sheet": sheet_json,
        "series": {
            "points": [[k, [_num(x) for x in s]] for k, s in summary.points],
            "sections": sections,
            "unit": units.pop() if len(units) == 1 else None,
        },
    }


def _num(x: float) -> float | int:
    """Whole numbers as ints (``3``, not ``3.0``) on the wire."""
    return int(x) if float(x).is_integer() else x


class Table(Protocol):
    """What :func:`summary` needs of a table (the service's ``LiveGame``)."""

    game: Game[Any, Any, Any]
    match: Match[Any, Any, Any]
    summary: Summary | None
    """The summary once built (kept for the table's life in memory)."""

    def tr(self, lang: str) -> Translator: ...


async def summary(table: Table, game_id: str, lang: str) -> dict[str, Any]:
    """The route's answer for a table: built once when first asked after the end, kept on the table."""
    if not table.match.is_over():
        raise TableroError("the summary is published when the game is over", code=ErrorCode.NOT_OVER)
    built = table.summary
    if built is None:
        record = GameRecord.from_json(table.match.record.to_json())  # a copy: the replay runs in a thread
        built = await asyncio.to_thread(build, table.game, record)
        table.summary = built
    out = render(built, table.tr(lang if lang in LANGUAGES else "en"))
    return {**out, "game_id": game_id, "game": table.game.id}
