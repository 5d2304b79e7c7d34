"""Simulation: many bot-only games through the match driver, with win shares and intervals.

Game ``i`` of a run with master seed ``seed`` uses the match seed ``derive_seed(seed, i)``;
the bot in seat ``p`` draws from ``match.bot_rng(that seed, p)``. A run is therefore fully
reproducible, and ``workers > 1`` or Ray give the very same numbers as ``workers = 1`` (the
games are the same and are summed in the same order: :mod:`tablero.study.executor`).

With ``rotate``, game ``i`` seats the bots of the seat list rotated by ``i % n``
(:func:`seating`): seat ``p`` gets ``seats[(p + i) % n]``, so over every block of ``n`` games
each bot plays each seat once. The statistics per bot (``by_bot``) then count each game for
the bot that actually sat in each seat; the statistics per seat position remain (the
advantage of a seat), with ``bot`` set to :data:`ROTATED`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablero.bots import make_bot
from tablero.core.protocol import Game
from tablero.core.rng import derive_seed
from tablero.registry import get_game
from tablero.study.executor import GameJob, GameOutcome, Progress, play_job, run_jobs
from tablero.study.stats import ROTATED, Z95, jsonable, seating, wilson_interval

__all__ = [
    "ROTATED", "Z95", "GameOutcome", "Progress", "SeatStats", "SimResult", "game_jobs", "play_one", "seating",
    "simulate", "wilson_interval",
]


@dataclass(frozen=True, slots=True)
class SeatStats:
    seat: int
    bot: str
    wins: float
    win_share: float
    ci95: tuple[float, float]
    mean_score: float
    games: int = 0
    """The seat-games counted: the games for a seat position, all seat-games of a bot."""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_share": self.win_share,
            "ci95": [self.ci95[0], self.ci95[1]],
            "mean_score": self.mean_score,
        }


@dataclass(frozen=True, slots=True)
class SimResult:
    game: str
    games: int
    players: int
    seed: int
    options: dict[str, Any]
    seats: tuple[SeatStats, ...]
    mean_actions: float
    """Record entries per game (decisions, forced steps and chance outcomes)."""
    mean_decisions: float
    """Seat entries per game (decisions and forced steps): the game's length in turns."""
    by_bot: dict[str, SeatStats] = field(default_factory=dict)
    """Seats pooled per bot name (``seat`` is -1; the interval is over all its seat-games)."""
    rotate: bool = False
    """Whether the seats were rotated from game to game (then every ``seats[p].bot`` is
    :data:`ROTATED`)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "rotate": self.rotate,
            "options": self.options,
            "seats": [s.to_json() for s in self.seats],
            "by_bot": {name: s.to_json() for name, s in self.by_bot.items()},
            "mean_actions": self.mean_actions,
            "mean_decisions": self.mean_decisions,
        }


def game_jobs(game: Game[Any, Any, Any], seats: Sequence[str], games: int, seed: int,
              options: Mapping[str, Any] | None = None, save_dir: str | None = None,
              rotate: bool = False) -> list[GameJob]:
    """The jobs of a run: game ``i`` with match seed ``derive_seed(seed, i)``, seated by :func:`seating`."""
    opts = dict(options) if options else None
    return [GameJob(index=i, game=game.id, seats=seating(seats, i, rotate), seed=derive_seed(seed, i),
                    options=opts, save_dir=save_dir) for i in range(games)]


def play_one(game: Game[Any, Any, Any], seats: Sequence[str], index: int, seed: int,
             options: Mapping[str, Any] | None = None, save_dir: str | None = None,
             rotate: bool = False) -> GameOutcome:
    """Play game ``index`` of a run with master ``seed``; bots only (seated by :func:`seating`)."""
    game_seed = derive_seed(seed, index)
    job = GameJob(index=index, game=game.id, seats=seating(seats, index, rotate), seed=game_seed,
                  options=dict(options) if options else None, save_dir=save_dir)
    return play_job(job)


def simulate(game: Game[Any, Any, Any] | str, seats: Sequence[str], games: int, seed: int,
             options: Mapping[str, object] | None = None, progress: Progress | None = None,
             save_dir: str | Path | None = None, workers: int = 1, rotate: bool = False,
             ray: str | None = None) -> SimResult:
    """Play ``games`` bot-only games and collect per-seat and per-bot statistics.

    ``seats`` holds a bot name per seat (``make_bot``; parameters after ``:`` as in
    ``ismcts:iterations=400``); a first place shared by k seats counts 1/k of a win for each.
    With ``rotate`` game ``i`` seats the list rotated by ``i % n`` (:func:`seating`). The games
    run on :func:`tablero.study.executor.run_jobs`: in this process, ``workers`` processes, or
    Ray (``ray="local"`` or a cluster's address), with the same result on every engine. Raises
    TableroError for an unknown game or bot, a wrong number of seats or a bad option (before
    any game is played), ExecutorError when Ray cannot be reached.
    """
    if isinstance(game, str):
        game = get_game(game)
    seats = tuple(s.strip().lower() for s in seats)
    if games < 1:
        raise ValueError("games must be at least 1")
    for name in seats:
        make_bot(name, game.id)  # fail early with a clear message
    resolved = game.resolve_options(len(seats), options)
    # Pass the caller's options on (resolved values may not be picklable text).
    opts = dict(options) if options else None
    directory = None
    if save_dir is not None:
        Path(save_dir).mkdir(parents=True, exist_ok=True)
        directory = str(save_dir)
    n = len(seats)
    wins = [0.0] * n
    score_sum = [0.0] * n
    names = tuple(dict.fromkeys(seats))
    bot_wins = dict.fromkeys(names, 0.0)
    bot_scores = dict.fromkeys(names, 0.0)
    bot_games = dict.fromkeys(names, 0)
    actions = decisions = 0
    outcomes: Iterator[GameOutcome] = run_jobs(game_jobs(game, seats, games, seed, opts, directory, rotate),
                                               workers=workers, ray=ray, progress=progress)
    for out in outcomes:
        for p, name in enumerate(out.players):
            wins[p] += out.win_shares[p]
            score_sum[p] += out.scores[p]
            bot_wins[name] += out.win_shares[p]
            bot_scores[name] += out.scores[p]
            bot_games[name] += 1
        actions += out.actions
        decisions += out.decisions
    stats = tuple(
        SeatStats(seat=p, bot=ROTATED if rotate else seats[p], wins=wins[p], win_share=wins[p] / games,
                  ci95=wilson_interval(wins[p], games), mean_score=score_sum[p] / games, games=games)
        for p in range(n)
    )
    by_bot = {
        name: SeatStats(seat=-1, bot=name, wins=bot_wins[name], win_share=bot_wins[name] / bot_games[name],
                        ci95=wilson_interval(bot_wins[name], bot_games[name]),
                        mean_score=bot_scores[name] / bot_games[name], games=bot_games[name])
        for name in names
    }
    return SimResult(
        game=game.id, games=games, players=n, seed=seed, options=jsonable(resolved), seats=stats,
        mean_actions=actions / games, mean_decisions=decisions / games, by_bot=by_bot, rotate=rotate,
    )
