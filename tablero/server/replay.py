"""Replay of a finished game: any seat's (or the spectator's) table at any record entry.

``GET /api/games/{id}/replay?seat=N&at=K`` answers with the position part of an update
(:func:`~tablero.server.payload.position_payload`: view, legal moves, seats to act, result) of
the match rebuilt from the record's first ``K`` entries, as seat ``N`` saw it then, plus that
seat's log up to there. Only once the game is over (every seat's view is then open to
everyone); while it runs the answer is an error (``game/not_over``, HTTP 409).

A position is rebuilt exactly as the live match was at that entry: entries are applied, and
nothing more (no chance drawn, no forced step taken, unlike ``Match.from_record``, which plays
on to the next decision). Stepping must be quick, so each finished game gets a :class:`Book`
(kept for a few games): the states after every ``STRIDE``-th entry (and after each take-back,
whose checkpoints lie further back), from which a position is one short walk away
(``Match.walk_record`` over a record whose ``setup`` header is the nearest kept state).

The answer::

    {"type": "replay", "game_id", "game", "viewer", "at": K, "total": entries, "lang",
     "seats": [...],                          # as in an update
     "pending", "view", "legal", "result",    # position_payload at K (result: the final one at K = total)
     "log_since": S, "log": [...],            # log lines of entries S..K-1 as this viewer saw them
                                              # (?since=S, default 0: the whole log up to K)
     "steps": [0, 9, 10, ...],                # where a step goes: 0, each position where a seat had
                                              # to decide (a live table's rests), total
     "sections": [{"at": 9, "text": "Round 1"}, ...]}   # the lines opening a round or month, at
                                              # the first step after them
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from tablero.core.errors import ErrorCode, TableroError
from tablero.core.match import UNDO, Match
from tablero.core.messages import Translator
from tablero.core.protocol import CHANCE, Game
from tablero.core.record import GameRecord
from tablero.server.payload import log_lines, position_payload

STRIDE = 50
"""A state is kept after every ``STRIDE``-th entry: a position is at most that many entries away."""

BOOKS = 8
"""Finished games whose replay states are kept in memory (the most recently asked)."""


@dataclass(frozen=True)
class Guide:
    """One viewer's whole log of a finished game, and what the replay's controls need of it."""

    lines: list[dict[str, Any]]
    """``log_lines`` of the whole game."""
    entries: list[int]
    """Each line's record entry (ascending)."""
    sections: list[dict[str, Any]]
    """The lines opening a round or month: ``{"at", "text"}``, ``at`` the first step after the line."""

    def log(self, since: int, until: int) -> list[dict[str, Any]]:
        """The lines of entries ``since`` to ``until`` (excluded)."""
        return self.lines[bisect_left(self.entries, since):bisect_left(self.entries, until)]


@dataclass(eq=False)
class Book:
    """A finished game's record with states kept along it, for positions at any entry."""

    game: Game[Any, Any, Any]
    record: GameRecord
    final: Match[Any, Any, Any]
    """The finished match (its log is the whole game's)."""
    kept: dict[int, Any] = field(default_factory=dict)
    """Entry count → the state after that many entries."""
    marks: list[int] = field(default_factory=list)
    """The keys of ``kept``, sorted."""
    steps: list[int] = field(default_factory=list)
    """Where a step goes: the start (0), each position where a seat had to decide, the end."""
    guides: dict[tuple[int | None, str], Guide] = field(default_factory=dict)
    """Per (viewer, language): its log and sections."""

    @classmethod
    def of(cls, game: Game[Any, Any, Any], record: GameRecord) -> Book:
        """Walk the record once, keeping states every ``STRIDE`` entries and after take-backs, and
        noting where a seat had to decide."""
        entries = record.entries
        kept: dict[int, Any] = {}
        steps = {0, len(entries)}
        final: Match[Any, Any, Any] | None = None
        for i, _actor, _text, m in Match.walk_record(game, record):
            if i % STRIDE == 0 or entries[i - 1][1] == UNDO:
                kept[i] = m.state.clone()
            if decides(game, m.state):
                steps.add(i)
            final = m
        if final is None:  # no entries at all
            final = Match.from_record(game, record)
        # The walk's match has taken the last entry once the loop is done: the game's end.
        return cls(game=game, record=record, final=final, kept=kept, marks=sorted(kept), steps=sorted(steps))

    @property
    def total(self) -> int:
        return len(self.record.entries)

    def match_at(self, k: int) -> Match[Any, Any, Any]:
        """The match after the first ``k`` entries, exactly as it stood then (do not act on it)."""
        if k >= self.total:
            return self.final
        # The nearest kept state at or before k: no take-back lies between it and k (each
        # take-back keeps the state after it), so the walk needs no checkpoints from before.
        start = self.marks[bisect_right(self.marks, k) - 1]
        r = self.record
        part = GameRecord(game=r.game, rules_version=r.rules_version, data_version=r.data_version,
                          players=list(r.players), options=r.options, seed=r.seed,
                          setup=self.game.state_to_json(self.kept[start]), entries=r.entries[start:])
        for i, _actor, _text, m in Match.walk_record(self.game, part):
            if i == k - start:
                return m
        raise AssertionError("unreachable: k is below the record's length")

    def guide(self, viewer: int | None, tr: Translator) -> Guide:
        """``viewer``'s whole log in ``tr``'s language and its sections (a round's first step)."""
        key = (viewer, tr.lang)
        got = self.guides.get(key)
        if got is None:
            lines = log_lines(self.final, viewer, 0, tr)
            steps = self.steps
            got = self.guides[key] = Guide(
                lines=lines,
                entries=[line["i"] for line in lines],
                sections=[{"at": steps[bisect_left(steps, line["i"] + 1)], "text": line["text"]}
                          for line in lines if line.get("section")],
            )
        return got


def decides(game: Game[Any, Any, Any], state: Any) -> bool:
    """True where a live table rests: a seat must decide (not chance, not a forced step), or the end.

    What :meth:`Match.advance <tablero.core.match.Match.advance>` stops at: a step of the replay
    goes from one such position to the next, a move and all it set off (draws, forced steps).
    """
    actors = game.to_act(state)
    if not actors:
        return True
    if actors[0] == CHANCE:
        return False
    return all(len(game.legal_actions(state, p)) != 1 or game.always_asked(state, p) for p in actors)


class Replays:
    """The :class:`Book` of each recently replayed game, by table id."""

    def __init__(self, size: int = BOOKS) -> None:
        self.size = size
        self.books: OrderedDict[str, Book] = OrderedDict()

    def book(self, table_id: str, match: Match[Any, Any, Any]) -> Book:
        """The book of a finished table (made on first use from a copy of its record)."""
        if not match.is_over():
            raise TableroError("the replay opens when the game is over", code=ErrorCode.NOT_OVER)
        b = self.books.get(table_id)
        if b is None or b.total != len(match.record.entries):
            record = GameRecord.from_json(match.record.to_json())
            b = Book.of(match.game, record)
            self.books[table_id] = b
        self.books.move_to_end(table_id)
        while len(self.books) > self.size:
            self.books.popitem(last=False)
        return b

    def payload(self, table_id: str, match: Match[Any, Any, Any], viewer: int | None, at: int | None,
                tr: Translator, since: int = 0) -> dict[str, Any]:
        """``viewer``'s table after ``at`` entries (None: the end; clamped to the game) with its log
        lines of entries ``since`` to ``at`` (a client that keeps the lines it has asks for the rest)."""
        if viewer is not None and not 0 <= viewer < match.players:
            raise TableroError(f"replay: no seat {viewer} in this game", code=ErrorCode.MALFORMED)
        b = self.book(table_id, match)
        k = b.total if at is None else max(0, min(at, b.total))
        m = b.match_at(k)
        guide = b.guide(viewer, tr)
        since = max(0, min(since, k))
        return {
            "type": "replay",
            "game_id": table_id,
            "game": b.game.id,
            "viewer": viewer,
            "at": k,
            "total": b.total,
            "lang": tr.lang,
            **position_payload(m, viewer, tr),
            "log_since": since,
            "log": guide.log(since, k),
            "steps": b.steps,
            "sections": guide.sections,
        }
