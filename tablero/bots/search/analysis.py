"""Analysis of a played game from one seat's information: which move was the mistake.

:func:`analyze` replays a record and, at each decision that was put to seat N (two or more
legal options, or a decision the rules always ask), searches that seat's *view* at the time
— exactly what seat N knew then, never the true state — and ranks the legal options by the
search's value (the seat's estimated winning chances). The decision whose chosen move lost
most against the best one is marked.

JSON (``Analysis.to_json``)::

    {"game": ..., "seat": N, "budget": {...},
     "decisions": [{"index": i, "chosen": text, "best": text, "loss": float,
                    "options": [{"text": ..., "value": ..., "visits": ...}, ...]}, ...],
     "worst": i}

``index`` is the record entry of the decision; ``options`` come best first; ``loss`` is the
best option's value minus the chosen one's; ``worst`` the index with the largest loss (None
if the seat never had a choice).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from random import Random
from typing import Any

from tablero.bots.search.bots import SearchBot, model_for
from tablero.bots.search.ismcts import Budget
from tablero.core.match import UNDO, Match
from tablero.core.protocol import Game
from tablero.core.record import GameRecord
from tablero.core.rng import derive_seed

ANALYSIS_BUDGET = Budget(iterations=300, depth=10)
"""The default budget of one decision's analysis (``--seconds`` replaces it); the CLI searches
with its iterations and seconds and each game's own horizon (``game_budget``)."""
MIN_VISITS = 8
"""A move played that the search visited fewer times is valued by a search of its own."""


@dataclass(frozen=True, slots=True)
class OptionReport:
    text: str
    value: float
    visits: int


@dataclass(frozen=True, slots=True)
class DecisionReport:
    index: int
    chosen: str
    best: str
    loss: float
    options: tuple[OptionReport, ...]

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "chosen": self.chosen, "best": self.best, "loss": self.loss,
                "options": [asdict(o) for o in self.options]}


@dataclass(frozen=True, slots=True)
class Analysis:
    game: str
    seat: int
    budget: Budget
    decisions: tuple[DecisionReport, ...]

    @property
    def worst(self) -> int | None:
        if not self.decisions:
            return None
        worst = max(self.decisions, key=lambda d: d.loss)
        return worst.index if worst.loss > 0 else None

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seat": self.seat, "budget": asdict(self.budget),
                "decisions": [d.to_json() for d in self.decisions], "worst": self.worst}


Progress = Callable[[int, int], None]
"""Called as ``progress(entries_done, entries_total)``."""


def analyze(game: Game[Any, Any, Any], record: GameRecord, seat: int, budget: Budget = ANALYSIS_BUDGET,
            *, seed: int = 0, progress: Progress | None = None) -> Analysis:
    """Rank seat ``seat``'s options at each of its decisions in ``record`` (see the module)."""
    if not 0 <= seat < len(record.players):
        raise ValueError(f"seat {seat} is not a seat of this {len(record.players)}-player game")
    bot = SearchBot("analysis", game, budget, model_for(game))
    out: list[DecisionReport] = []
    total = len(record.entries)
    for index, actor, text, match in Match.walk_record(game, record):
        if progress is not None:
            progress(index, total)
        if actor != seat or text == UNDO:
            continue
        legal = match.legal(seat)
        if len(legal) < 2 and not game.always_asked(match.state, seat):
            continue
        chosen = match.parse(seat, text)
        rng = Random(derive_seed(seed, "analysis", index))
        view = match.view(seat)
        result = bot.analyse(view, legal, rng)
        value = {o.action: o.value for o in result.options}
        visits = {o.action: o.visits for o in result.options}
        if visits.get(chosen, 0) < MIN_VISITS and chosen in visits:
            # The search hardly tried the move played: value it on its own, so the loss is
            # measured rather than read off an untried option's empty statistics.
            alone = bot.search.search_view(view, (chosen,), Random(derive_seed(seed, "chosen", index)))
            value[chosen] = alone.options[0].value
        options = tuple(OptionReport(o.action.to_text(), round(value[o.action], 4), o.visits)
                        for o in result.options)
        best = result.options[0]
        out.append(DecisionReport(index=index, chosen=chosen.to_text(), best=best.action.to_text(),
                                  loss=round(max(0.0, value[best.action] - value.get(chosen, 0.0)), 4),
                                  options=options))
    if progress is not None:
        progress(total, total)
    return Analysis(game=game.id, seat=seat, budget=budget, decisions=tuple(out))
