"""How the executor scales: games per second on one process, a pool of 2 and Ray local (2 CPUs).

``python -m tablero.study.scaling --out docs/bench-study.json`` (``make bench-study``) plays a
fixed workload on each engine — 1000 games of Don Carlo and 100 of Mafia Legend, four greedy
bots — and writes games/s, the speed-up over one process and the scaling efficiency (speed-up
divided by the workers). Every engine must give the very same outcomes (checked; the run fails
otherwise). The Ray instance is started once; its start-up time and a warm-up (each Ray
worker imports tablero once) are reported on their own, not counted in the games/s. With
``--repeat R`` the engines take turns R times and each one's fastest run is kept (the machine
may be busy with other work: the load average is recorded).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import tablero
from tablero.core.rng import derive_seed
from tablero.study.executor import (
    IN_FLIGHT_PER_WORKER,
    POOL_CHUNK,
    RAY_BATCH,
    RAY_TASKS_PER_CPU,
    GameJob,
    ray_connection,
    run_jobs,
)

WORKLOADS: tuple[dict[str, Any], ...] = (
    {"game": "don-carlo", "seats": ("greedy",) * 4, "games": 1000, "options": None},
    {"game": "mafia-legend", "seats": ("greedy",) * 4, "games": 100, "options": None},
)
WORKERS = 2
SEED = 2024


def _jobs(load: dict[str, Any], games: int) -> list[GameJob]:
    return [GameJob(index=i, game=load["game"], seats=tuple(load["seats"]), seed=derive_seed(SEED, load["game"], i),
                    options=load["options"]) for i in range(games)]


def _timed(jobs: list[GameJob], **engine: Any) -> tuple[float, str]:
    """One run's seconds and a digest of its outcomes."""
    start = time.perf_counter()
    outcomes = list(run_jobs(jobs, **engine))
    seconds = time.perf_counter() - start
    text = json.dumps([o.to_json() for o in outcomes], sort_keys=True)
    return seconds, hashlib.sha256(text.encode()).hexdigest()


def _row(engine: str, workers: int, games: int, seconds: float, base: float) -> dict[str, Any]:
    speedup = base / seconds
    return {"engine": engine, "workers": workers, "seconds": round(seconds, 3),
            "games_per_s": round(games / seconds, 2), "speedup": round(speedup, 3),
            "efficiency": round(speedup / workers, 3)}


def _version(name: str) -> str | None:
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def run(games_scale: float = 1.0, repeat: int = 1) -> dict[str, Any]:
    load_before = list(os.getloadavg())
    results: list[dict[str, Any]] = []
    plans = [(load, _jobs(load, max(2, round(load["games"] * games_scale)))) for load in WORKLOADS]
    engines: list[tuple[str, dict[str, Any]]] = [
        ("local", {"workers": 1}), ("local", {"workers": WORKERS}), ("ray-local", {"ray": "local"})]
    start = time.perf_counter()
    with ray_connection("local", workers=WORKERS) as ray:
        ray_start = time.perf_counter() - start
        cpus = int(ray.cluster_resources().get("CPU", 0))
        # Warm-up: Ray's worker processes import tablero and the games once (a pool forks this
        # process and has them already); a one-time cost like the start, reported apart.
        start = time.perf_counter()
        for _load, jobs in plans:
            list(run_jobs(jobs[:2 * cpus], ray="local", batch=1))
        ray_warmup = time.perf_counter() - start
        for load, jobs in plans:
            # The engines take turns, round after round, so a change in the machine's load hits
            # them alike; the fastest round of each is kept.
            best = [float("inf")] * len(engines)
            digests: set[str] = set()
            for _ in range(repeat):
                for e, (_name, engine) in enumerate(engines):
                    seconds, digest = _timed(jobs, **engine)
                    best[e] = min(best[e], seconds)
                    digests.add(digest)
            if len(digests) != 1:
                raise RuntimeError(f"{load['game']}: the engines gave different outcomes")
            n = len(jobs)
            workers = [1, WORKERS, cpus]
            results.append({
                "game": load["game"], "seats": list(load["seats"]), "games": n, "options": load["options"],
                "engines": [_row(name, w, n, seconds, best[0])
                            for (name, _e), w, seconds in zip(engines, workers, best, strict=True)],
                "same_results": True,
                "outcomes_sha256": digests.pop(),
            })
    return {
        "tool": "tablero.study.scaling",
        "command": "python -m tablero.study.scaling " + " ".join(sys.argv[1:]),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(),
                    "load_average_before": [round(x, 2) for x in load_before],
                    "load_average_after": [round(x, 2) for x in os.getloadavg()]},
        "versions": {"tablero": tablero.__version__, "ray": _version("ray")},
        "repeat": repeat,
        "ray_start_seconds": round(ray_start, 2),
        "ray_warmup_seconds": round(ray_warmup, 2),
        "batching": {"pool_chunk_max": POOL_CHUNK, "ray_batch_max": RAY_BATCH,
                     "ray_tasks_per_cpu": RAY_TASKS_PER_CPU, "in_flight_per_worker": IN_FLIGHT_PER_WORKER},
        "workloads": results,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tablero.study.scaling", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, help="Write the JSON here (also printed).")
    parser.add_argument("--scale", type=float, default=1.0, help="Multiply the games of every workload.")
    parser.add_argument("--repeat", type=int, default=1, help="Measure each engine this many times; keep the fastest.")
    args = parser.parse_args(argv)
    report = run(args.scale, max(1, args.repeat))
    text = json.dumps(report, indent=1)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
