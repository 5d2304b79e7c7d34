"""Searches off the event loop: bot decisions, hints and game reviews in a pool of workers.

A search takes a core for up to several seconds (``hard``), a review of a whole game longer:
the server's event loop must never wait for one, or every table on the server stalls. So the
service hands each search to :class:`Workers`: a :class:`~concurrent.futures.ProcessPoolExecutor`
(CPU-bound Python needs processes, not threads) behind an :class:`asyncio.Semaphore` that
bounds how many searches run at once (``tablero serve --max-searches N``, default the CPU
count). Tests inject a thread pool and fake work functions through the same seam.

What crosses to a worker is plain, picklable data: the game id, the bot's name, the seat's
*view* and legal actions (never the state), an RNG seed; a review gets the game record, which
the seat's own views are rebuilt from. What comes back is text: the chosen action's wire text,
or the review as JSON.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import queue
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from random import Random
from typing import Any, TypeVar

from tablero.bots.registry import is_peeking, make_bot
from tablero.bots.search.analysis import analyze
from tablero.bots.search.bots import SearchBot, game_budget
from tablero.bots.search.ismcts import Budget
from tablero.core.match import Match
from tablero.core.messages import Translator
from tablero.core.record import GameRecord
from tablero.registry import get_game
from tablero.server.i18n import WEB_CATALOGUE

T = TypeVar("T")

INLINE_BOTS: frozenset[str] = frozenset({"random", "greedy"})
"""Bots cheap enough to decide on the event loop (microseconds); every other bot searches in the pool."""

REVIEW_BUDGET = Budget(iterations=150, depth=10)
"""A review's budget per decision: a whole game in seconds, not minutes (the CLI's default is
larger); its iterations and seconds, with each game's own horizon (``game_budget``)."""


@dataclass(frozen=True, slots=True)
class ThinkJob:
    """One decision of a bot (or a hint): what the seat sees, nothing more."""

    game: str
    bot: str
    view: Any
    legal: tuple[Any, ...]
    seed: int


def think_job(game_id: str, bot: str, match: Match[Any, Any, Any], seat: int, seed: int) -> ThinkJob:
    """What a search for ``seat`` is given: the seat's view and legal actions, never the state."""
    return ThinkJob(game_id, bot, match.view(seat), tuple(match.legal(seat)), seed)


@dataclass(frozen=True, slots=True)
class ReviewJob:
    """A review of one seat's decisions in a record; ``key`` names its progress reports."""

    key: str
    game: str
    record: GameRecord
    seat: int
    budget: Budget
    seed: int
    lang: str
    progress: Any = None
    """A queue for progress reports in a thread pool; worker processes use the pool's own queue."""


_PROGRESS: Any = None
"""In a worker process: the pool's progress queue (set by :func:`_init_worker`)."""


def _init_worker(progress: Any) -> None:
    global _PROGRESS
    _PROGRESS = progress


def think(job: ThinkJob) -> str:
    """The bot's choice as wire text (runs in a worker)."""
    if is_peeking(job.bot):
        raise ValueError(f"{job.bot} peeks at hidden cards: never at a table with people")
    bot = make_bot(job.bot, job.game)
    rng = Random(job.seed)
    if isinstance(bot, SearchBot):
        # Search even with one legal option (a decision the rules always ask): an instant answer
        # would tell everybody that the seat had no choice, which may depend on its hidden cards.
        action = bot.analyse(job.view, job.legal, rng).best
    else:
        action = bot.choose(job.view, job.legal, rng)
    text: str = action.to_text()
    return text


def review(job: ReviewJob) -> dict[str, Any]:
    """:func:`~tablero.bots.search.analysis.analyze` of one seat, with the moves' labels (runs in a worker).

    The JSON is ``Analysis.to_json()`` with a ``label`` beside every move text: ``chosen_label``,
    ``best_label`` and each option's ``label``, the game's ``describe`` for the seat itself at
    that point, in ``job.lang``.
    """
    game = get_game(job.game)
    sink = job.progress if job.progress is not None else _PROGRESS
    last = [-1]

    def progress(done: int, total: int) -> None:
        pct = 100 * done // max(1, total)
        if sink is not None and (pct >= last[0] + 5 or done == total):
            last[0] = pct
            sink.put((job.key, done, total))

    out = analyze(game, job.record, job.seat, game_budget(job.game, job.budget), seed=job.seed,
                  progress=progress).to_json()
    tr = Translator(job.lang, [game.catalogue(), WEB_CATALOGUE], job.record.players)
    decisions = {d["index"]: d for d in out["decisions"]}
    for index, _actor, _text, match in Match.walk_record(game, job.record):
        d = decisions.get(index)
        if d is None:
            continue

        def label(text: str, match: Match[Any, Any, Any] = match) -> str:
            return tr(match.describe(job.seat, match.parse(job.seat, text), job.seat))

        d["chosen_label"] = label(d["chosen"])
        d["best_label"] = label(d["best"])
        for o in d["options"]:
            o["label"] = label(o["text"])
    return out


class Workers:
    """The pool searches run in, and the per-server limit on how many run at once.

    ``executor``: None for a pool of ``limit`` worker processes started on first use (the
    server's default), or any executor (tests pass a thread pool). ``think`` and ``review`` are
    the functions run for a bot's decision or a hint and for a review; tests replace them (a
    deliberately slow bot). With worker processes they must be module-level functions.
    """

    def __init__(
        self,
        limit: int | None = None,
        *,
        executor: Executor | None = None,
        think: Callable[[ThinkJob], str] = think,
        review: Callable[[ReviewJob], dict[str, Any]] = review,
    ) -> None:
        self.limit = max(1, limit if limit is not None else (os.cpu_count() or 1))
        self.think = think
        self.review = review
        self._executor = executor
        self._own = executor is None
        self._progress: Any = queue.Queue() if isinstance(executor, ThreadPoolExecutor) else None
        self._latest: dict[str, tuple[int, int]] = {}
        self._sem: asyncio.Semaphore | None = None
        self._sem_loop: asyncio.AbstractEventLoop | None = None
        self.running = 0
        """Searches in the pool now (for tests and the curious)."""

    @property
    def threads(self) -> bool:
        """True if the work runs in threads of this process (tests), not in worker processes."""
        return isinstance(self._executor, ThreadPoolExecutor)

    def executor(self) -> Executor:
        if self._executor is None:
            ctx = multiprocessing.get_context("forkserver")  # never fork a process with threads
            ctx.set_forkserver_preload([__name__])  # each worker starts with the games imported
            self._progress = ctx.Queue()
            self._executor = ProcessPoolExecutor(self.limit, mp_context=ctx, initializer=_init_worker,
                                                 initargs=(self._progress,))
        return self._executor

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._sem is None or self._sem_loop is not loop:
            self._sem, self._sem_loop = asyncio.Semaphore(self.limit), loop
        return self._sem

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the pool once a slot is free; the caller's event loop goes on meanwhile."""
        async with self._semaphore():
            self.running += 1
            try:
                return await asyncio.get_running_loop().run_in_executor(self.executor(), fn, *args)
            except BrokenProcessPool:
                if self._own:  # a worker died (killed, out of memory): a fresh pool next time
                    self._executor = None
                raise
            finally:
                self.running -= 1

    def progress_queue(self) -> Any:
        """The queue a review job in a thread pool reports to (None: the worker processes' own)."""
        return self._progress if self.threads else None

    def progress(self, key: str) -> tuple[int, int] | None:
        """The latest ``(entries_done, entries_total)`` reported by the review ``key``."""
        q = self._progress
        while q is not None:
            try:
                k, done, total = q.get_nowait()
            except (queue.Empty, OSError, ValueError):
                break
            self._latest[k] = (done, total)
        return self._latest.get(key)

    def forget(self, key: str) -> None:
        self._latest.pop(key, None)

    def close(self) -> None:
        """Stop the pool; searches still running are abandoned (their worker processes end)."""
        ex, self._executor = self._executor, None
        if ex is None:
            return
        if isinstance(ex, ProcessPoolExecutor):
            for proc in list(getattr(ex, "_processes", {}).values()):  # a review may run for minutes
                proc.terminate()
        ex.shutdown(wait=False, cancel_futures=True)
