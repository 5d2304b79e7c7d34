"""One executor for many bot-only games, on three engines: this process, a local process pool,
or Ray (a local instance or a cluster).

A game is a :class:`GameJob`: the game, a bot per seat, the match seed and the options. It is
played exactly as ``tablero simulate`` always played it — ``Match(game, seats, options, seed)``
with the bot in seat ``p`` drawing from ``bot_rng(seed, p)`` — so a job gives the very same
:class:`GameOutcome` wherever it runs. :func:`run_jobs` yields the outcomes in the order of the
jobs whatever the engine, so whatever a caller sums over them (in that order) is identical on
every engine, down to the last bit of a float.

Jobs are batched: a local pool gets chunks of up to 50 games, a Ray task a list of games (about
four tasks per CPU, at most 200 games each) so the scheduling cost of a task is small against the
games it plays. A bounded number of batches is in flight at once; finished batches that overtake
an earlier one wait until it is done. Game records (``GameJob.save_dir``) travel back with the
outcomes and are written by the calling process, so on a cluster they land on this machine.

Ray is imported only when asked for (``ray="local"`` or an address): nothing else in tablero
pays for it.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import os
import platform
import shutil
import socket
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import tablero
from tablero.bots import make_bot
from tablero.core.errors import ErrorCode, TableroError
from tablero.core.match import Match, bot_rng
from tablero.core.protocol import CHANCE, Game
from tablero.registry import get_game

Progress = Callable[[int, int], None]
"""Called as ``progress(games_done, games_total)`` each time an outcome is handed on."""

LOCAL = "local"
"""``ray=LOCAL`` starts a Ray instance on this machine for the run (and stops it at the end)."""

POOL_CHUNK = 50
"""The most games one local worker process plays per chunk."""
RAY_BATCH = 200
"""The most games one Ray task plays (unless ``batch`` says otherwise)."""
RAY_TASKS_PER_CPU = 4
"""Ray batches are sized so each CPU gets about this many tasks (load balance vs. overhead)."""
IN_FLIGHT_PER_WORKER = 4
"""Batches submitted and not yet handed on, per worker process or Ray CPU."""
CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a cluster's address to answer before giving up with a clear error."""


class ExecutorError(TableroError):
    """An engine cannot run the games: Ray missing, a cluster out of reach or a node that runs
    other code (a clear message for the command line; exit 2 there)."""

    code = ErrorCode.MALFORMED


@dataclass(frozen=True, slots=True)
class GameJob:
    """One bot-only game to play."""

    index: int
    """The caller's game number: kept in the outcome, names the saved record."""
    game: str
    """The game id."""
    seats: tuple[str, ...]
    """A bot name per seat (``make_bot`` names, e.g. ``greedy``, ``ismcts:iterations=50``)."""
    seed: int
    """The match seed (callers derive it: ``derive_seed(master, index)``)."""
    options: dict[str, Any] | None = None
    """Game options, data overrides included (under ``"data"``)."""
    save_dir: str | None = None
    """Save the game record there as ``f"{game}-{index:06d}.json"`` (written by the caller's process)."""

    @property
    def record_name(self) -> str:
        return f"{self.game}-{self.index:06d}.json"


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What one game contributes to the statistics."""

    index: int
    seed: int
    players: tuple[str, ...]
    """The bot in each seat of this game."""
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    """Shared ranks (1, 1, 3)."""
    win_shares: tuple[float, ...]
    """A first place shared by k seats counts 1/k for each (the game's declared winners)."""
    actions: int
    """Record entries: decisions, forced steps and chance outcomes."""
    decisions: int
    """Record entries by seats (decisions and forced steps): the game's length in turns."""
    rounds: int | None = None
    """:meth:`Game.rounds` of the final state (rounds, months), None where the game has none."""
    roles: tuple[str, ...] | None = None
    """:meth:`Game.seat_roles` of the final state (each seat's family or colour), or None."""

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "players": list(self.players),
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "win_shares": list(self.win_shares),
            "actions": self.actions,
            "decisions": self.decisions,
            "rounds": self.rounds,
            "roles": None if self.roles is None else list(self.roles),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> GameOutcome:
        roles = data.get("roles")
        rounds = data.get("rounds")
        return GameOutcome(
            index=int(data["index"]),
            seed=int(data["seed"]),
            players=tuple(str(p) for p in data["players"]),
            scores=tuple(float(s) for s in data["scores"]),
            ranks=tuple(int(r) for r in data["ranks"]),
            win_shares=tuple(float(w) for w in data["win_shares"]),
            actions=int(data["actions"]),
            decisions=int(data["decisions"]),
            rounds=None if rounds is None else int(rounds),
            roles=None if roles is None else tuple(str(r) for r in roles),
        )


# ---------------------------------------------------------------------------- playing
Played = tuple[GameOutcome, str | None]
"""An outcome and, when the job asked for it, the game record's text."""


def _play(game: Game[Any, Any, Any], job: GameJob) -> Played:
    match = Match(game, list(job.seats), options=job.options, seed=job.seed)
    bots = {p: make_bot(name, game.id) for p, name in enumerate(job.seats)}
    rngs = {p: bot_rng(job.seed, p) for p in bots}
    match.play_bots(bots, rngs)
    result = match.result()
    if result is None:
        raise RuntimeError(f"{game.id} game {job.index} (seed {job.seed}) stopped before its end")
    entries = match.record.entries
    roles = game.seat_roles(match.state)
    outcome = GameOutcome(
        index=job.index,
        seed=job.seed,
        players=tuple(job.seats),
        scores=tuple(float(s) for s in result.scores),
        ranks=tuple(result.ranks),
        win_shares=tuple(result.win_share(p) for p in range(len(job.seats))),
        actions=len(entries),
        decisions=sum(1 for actor, _ in entries if actor != CHANCE),
        rounds=game.rounds(match.state),
        roles=None if roles is None else tuple(roles),
    )
    return outcome, (match.record.dumps() + "\n" if job.save_dir is not None else None)


def play_job(job: GameJob) -> GameOutcome:
    """Play one job in this process (its record, if asked for, saved too)."""
    outcome, record = _play(get_game(job.game), job)
    _save(job, record)
    return outcome


def play_batch(jobs: Sequence[GameJob]) -> list[Played]:
    """Play a batch of jobs (in a worker process or a Ray task); records are returned, not saved."""
    return [_play(get_game(job.game), job) for job in jobs]


def _save(job: GameJob, record: str | None) -> None:
    if job.save_dir is None or record is None:
        return
    directory = Path(job.save_dir)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / job.record_name).write_text(record, encoding="utf-8")


# ---------------------------------------------------------------------------- scheduling
B = TypeVar("B")
H = TypeVar("H")
R = TypeVar("R")


def _batches(jobs: Sequence[GameJob], size: int) -> list[list[GameJob]]:
    size = max(1, size)
    return [list(jobs[s:s + size]) for s in range(0, len(jobs), size)]


def _in_order(batches: Iterable[B], submit: Callable[[B], H], wait: Callable[[H], R], window: int) -> Iterator[R]:
    """Submit batches keeping at most ``window`` unfinished ones in flight; results in order."""
    pending: deque[H] = deque()
    todo = iter(batches)
    exhausted = False
    while True:
        while not exhausted and len(pending) < max(1, window):
            batch = next(todo, None)
            if batch is None:
                exhausted = True
            else:
                pending.append(submit(batch))
        if not pending:
            return
        yield wait(pending.popleft())


def _hand_on(jobs: Sequence[GameJob], parts: Iterator[list[Played]],
             progress: Progress | None) -> Iterator[GameOutcome]:
    """Save the records of each finished batch and hand its outcomes on, in job order."""
    total, done = len(jobs), 0
    for part in parts:
        for outcome, record in part:
            job = jobs[done]
            if outcome.index != job.index:  # a batch out of place would corrupt every sum
                raise RuntimeError(f"outcome {outcome.index} arrived in place of game {job.index}")
            _save(job, record)
            done += 1
            if progress is not None:
                progress(done, total)
            yield outcome


def _local(jobs: Sequence[GameJob], workers: int, batch: int | None) -> Iterator[list[Played]]:
    if workers <= 1 or len(jobs) < 2:
        for job in jobs:
            yield [_play(get_game(job.game), job)]
        return
    size = batch or max(1, min(POOL_CHUNK, len(jobs) // (workers * 8)))
    batches = _batches(jobs, size)
    pool = ProcessPoolExecutor(max_workers=min(workers, len(batches)))
    try:
        yield from _in_order(batches, lambda b: pool.submit(play_batch, b), _future_result,
                             window=workers * IN_FLIGHT_PER_WORKER)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _future_result(future: Future[list[Played]]) -> list[Played]:
    return future.result()


# ---------------------------------------------------------------------------- Ray
def _ray_module() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise ExecutorError(f"Ray is not installed ({exc}); install it with: pip install 'ray>=2.9' "
                            "(make install does it)") from None


def _check_address(address: str) -> None:
    """A clear error, fast, for an address that is malformed or does not answer."""
    if address == "auto":  # the cluster `ray start` last started on this machine
        return
    rest = address.removeprefix("ray://")
    host, sep, port_text = rest.rpartition(":")
    if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ExecutorError(f"--ray expects 'local', HOST:PORT (e.g. 10.0.0.5:6379) or ray://HOST:PORT, "
                            f"not {address!r}")
    try:
        with socket.create_connection((host.strip("[]"), int(port_text)), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        raise ExecutorError(f"no Ray cluster answers at {address} ({exc}); start its head with "
                            "`ray start --head`, or use --ray local") from None


@contextmanager
def _start_lock() -> Iterator[None]:
    """One local Ray start at a time on this machine: a new Ray writes its first authentication
    token to ~/.ray on its first start, and two starts at once could each write their own."""
    try:
        from filelock import FileLock  # a dependency of Ray
    except ImportError:
        yield
        return
    with FileLock(os.path.join(tempfile.gettempdir(), "tablero-ray-start.lock"), timeout=300):
        yield


def _local_cpus(workers: int) -> int:
    return workers if workers > 1 else (os.cpu_count() or 1)


@contextmanager
def ray_connection(ray: str, workers: int = 1) -> Iterator[Any]:
    """This process connected to Ray for the duration of the block; yields the ``ray`` module.

    ``ray="local"`` starts a Ray instance on this machine with ``workers`` CPUs (all of them
    when ``workers`` is 1), its files in a fresh temporary folder, and stops it at the end (also
    on an error or Ctrl-C). Any other value is a cluster's address (``HOST:6379``,
    ``ray://HOST:10001`` or ``auto``): joined, and left at the end without stopping it. Inside
    the block :func:`run_jobs` uses this connection, so several runs share one Ray start. When
    the process is already connected to Ray, that connection is used as it is.
    """
    if ray != LOCAL:
        _check_address(ray)
    ray_mod = _ray_module()
    if ray.startswith("ray://") and importlib.util.find_spec("grpc") is None:
        raise ExecutorError(f"{ray} is a Ray client address, which needs the Ray client: "
                            "pip install 'ray[client]' (or give the head's HOST:6379 on the cluster's network)")
    if ray_mod.is_initialized():
        yield ray_mod
        return
    temp_dir = None
    quiet = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
    try:
        if ray == LOCAL:
            # A folder of its own: two local instances (parallel test processes) never share
            # session files, and nothing is left in /tmp/ray. Short, as Ray's socket paths are.
            temp_dir = tempfile.mkdtemp(prefix="tablero-ray-")
            with _start_lock():
                ray_mod.init(address=LOCAL, num_cpus=_local_cpus(workers), _temp_dir=temp_dir,
                             object_store_memory=200 * 1024 * 1024, **quiet)
        else:
            ray_mod.init(address=ray, **quiet)
    except Exception as exc:
        if temp_dir is not None:
            shutil.rmtree(temp_dir, ignore_errors=True)
        if ray == LOCAL:
            raise ExecutorError(f"cannot start a local Ray instance: {exc}") from None
        hint = ("" if os.environ.get("RAY_AUTH_MODE") else
                "; if the cluster uses token authentication, set RAY_AUTH_MODE=token here, with the head's "
                "token in ~/.ray/auth_token or RAY_AUTH_TOKEN (docs/cluster.md)")
        raise ExecutorError(f"cannot join the Ray cluster at {ray}: {exc}{hint}") from None
    try:
        yield ray_mod
    finally:
        ray_mod.shutdown()  # a cluster is only left; a local instance is stopped
        if temp_dir is not None:
            shutil.rmtree(temp_dir, ignore_errors=True)


def _stamp(game_id: str) -> tuple[str, str, str, str]:
    game = get_game(game_id)
    return (game_id, tablero.__version__, game.rules_version, game.data_version)


def _ray_batch(jobs: Sequence[GameJob]) -> tuple[tuple[str, str, str, str], str, list[Played]]:
    """A Ray task: the node's versions (checked by the caller) and the batch's outcomes."""
    return _stamp(jobs[0].game), platform.node(), play_batch(jobs)


def _ray(jobs: Sequence[GameJob], ray: str, workers: int, batch: int | None) -> Iterator[list[Played]]:
    with ray_connection(ray, workers) as ray_mod:
        cpus = max(1, int(ray_mod.cluster_resources().get("CPU", 1)))
        size = batch or max(1, min(RAY_BATCH, -(-len(jobs) // (cpus * RAY_TASKS_PER_CPU))))
        task = ray_mod.remote(num_cpus=1)(_ray_batch)
        task_error = ray_mod.exceptions.RayTaskError

        def wait(ref: Any) -> list[Played]:
            try:
                stamp, node, part = ray_mod.get(ref)
            except task_error as exc:  # the game's own error, not Ray's wrapper around it
                cause = getattr(exc, "cause", None)
                if isinstance(cause, BaseException):
                    raise cause from None
                raise
            mine = _stamp(stamp[0])
            if stamp != mine:
                raise ExecutorError(
                    f"Ray node {node} runs tablero {stamp[1]} ({stamp[0]} rules {stamp[2]}, data {stamp[3]}); "
                    f"this machine runs {mine[1]} (rules {mine[2]}, data {mine[3]}): install the same tablero "
                    "on every node")
            played: list[Played] = part
            return played

        yield from _in_order(_batches(jobs, size), task.remote, wait, window=cpus * IN_FLIGHT_PER_WORKER)


def run_jobs(jobs: Sequence[GameJob], *, workers: int = 1, ray: str | None = None,
             progress: Progress | None = None, batch: int | None = None) -> Iterator[GameOutcome]:
    """Play ``jobs`` and yield their outcomes in the order of ``jobs``, whatever the engine.

    ``ray=None``: this process (``workers`` 1) or a pool of ``workers`` processes.
    ``ray="local"``: a Ray instance on this machine with ``workers`` CPUs (all when 1), started
    and stopped here. ``ray=ADDRESS`` (``HOST:6379``, ``ray://HOST:10001``, ``auto``): a running
    cluster, joined and left. ``batch`` overrides the games per chunk or Ray task. ``progress``
    is called after each outcome. Raises :class:`ExecutorError` when Ray is missing or a cluster
    cannot be reached; a game's own error (a bad bot name, a bad option) is raised as it is.
    """
    jobs = list(jobs)
    workers = max(1, workers)
    if not jobs:
        return
    if ray is None:
        parts = _local(jobs, workers, batch)
    else:
        ray = LOCAL if ray.strip().lower() == LOCAL else ray.strip()
        parts = _ray(jobs, ray, workers, batch)
    yield from _hand_on(jobs, parts, progress)
