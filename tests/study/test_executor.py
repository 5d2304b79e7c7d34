"""The executor: the same outcomes, in the same order, in this process, in a process pool and
on a local Ray instance; simulate --ray local prints what --workers 1 prints; clear errors.

One local Ray instance serves the whole module (the ``ray_local`` fixture starts it through
the executor's own ``ray_connection`` and checks at the end that it is stopped and its files
removed); run_jobs and the command inside it use that connection.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tablero.cli.main import app
from tablero.core.errors import TableroError
from tablero.core.rng import derive_seed
from tablero.study import scaling
from tablero.study.executor import ExecutorError, GameJob, GameOutcome, ray_connection, run_jobs

runner = CliRunner()

SEATS = ("greedy", "random", "greedy")


def jobs(save_dir: Path | None = None) -> list[GameJob]:
    """A few short games of two games, seats rotated, Mafia with its families and months."""
    out = [GameJob(index=i, game="don-carlo", seats=SEATS[i % 3:] + SEATS[:i % 3], seed=derive_seed(11, i),
                   save_dir=None if save_dir is None else str(save_dir)) for i in range(6)]
    out += [GameJob(index=6 + i, game="mafia-legend", seats=SEATS, seed=derive_seed(12, i),
                    options={"variant": "beginner"}) for i in range(2)]
    return out


def outcomes(**engine: Any) -> list[GameOutcome]:
    return list(run_jobs(jobs(), **engine))


@pytest.fixture(scope="module")
def reference() -> list[GameOutcome]:
    return outcomes(workers=1)


@pytest.fixture(scope="module")
def ray_local() -> Iterator[Any]:
    made: list[Path] = []
    mkdtemp = tempfile.mkdtemp

    def spy(*args: Any, **kwargs: Any) -> str:
        made.append(Path(mkdtemp(*args, **kwargs)))
        return str(made[-1])

    with ExitStack() as stack:
        with pytest.MonkeyPatch.context() as patch:  # only while Ray starts
            patch.setattr(tempfile, "mkdtemp", spy)
            ray = stack.enter_context(ray_connection("local", workers=2))
        assert ray.is_initialized()
        assert ray.cluster_resources()["CPU"] == 2
        assert len(made) == 1 and made[0].name.startswith("tablero-ray-") and made[0].is_dir()
        yield ray
    assert not ray.is_initialized()  # stopped, and its files gone
    assert not made[0].exists()


def test_outcomes_follow_the_jobs(reference: list[GameOutcome]) -> None:
    assert [o.index for o in reference] == list(range(8))
    for job, out in zip(jobs(), reference, strict=True):
        assert out.seed == job.seed and out.players == job.seats
        assert len(out.scores) == len(out.ranks) == len(out.win_shares) == 3
        assert sum(out.win_shares) in (0.0, 1.0) or abs(sum(out.win_shares) - 1.0) < 1e-9
        assert min(out.ranks) == 1 and out.actions >= out.decisions > 0
    mafia = reference[-1]
    assert mafia.rounds is not None and mafia.rounds > 0  # months played
    assert mafia.roles is not None and len(set(mafia.roles)) == 3  # a family per seat


def test_outcome_json_round_trip(reference: list[GameOutcome]) -> None:
    for out in reference:
        assert GameOutcome.from_json(json.loads(json.dumps(out.to_json()))) == out


def test_process_pool_gives_the_same_outcomes(reference: list[GameOutcome]) -> None:
    assert outcomes(workers=2) == reference
    assert outcomes(workers=2, batch=1) == reference


def test_progress_counts_every_game() -> None:
    seen: list[tuple[int, int]] = []
    list(run_jobs(jobs()[:4], workers=2, progress=lambda done, total: seen.append((done, total))))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_ray_local_gives_the_same_outcomes(ray_local: Any, reference: list[GameOutcome]) -> None:
    assert outcomes(ray="local") == reference
    assert outcomes(ray="local", batch=3) == reference  # batches of 3 games, the last one shorter


def test_records_are_written_by_the_caller_alike(ray_local: Any, tmp_path: Path) -> None:
    one, on_ray = tmp_path / "one", tmp_path / "ray"
    list(run_jobs(jobs(one)[:4], workers=1))
    list(run_jobs(jobs(on_ray)[:4], ray="local", batch=2))
    names = sorted(p.name for p in one.iterdir())
    assert names == [f"don-carlo-{i:06d}.json" for i in range(4)]
    assert names == sorted(p.name for p in on_ray.iterdir())
    for name in names:
        assert (one / name).read_text() == (on_ray / name).read_text()


def test_a_games_own_error_comes_out_as_it_is(ray_local: Any) -> None:
    bad = [GameJob(index=0, game="don-carlo", seats=("greedy", "nosuchbot", "random"), seed=1)]
    with pytest.raises(TableroError, match="nosuchbot") as caught:
        list(run_jobs(bad, ray="local"))
    assert not isinstance(caught.value, ray_local.exceptions.RayTaskError)


def test_simulate_on_ray_prints_what_one_process_prints(ray_local: Any) -> None:
    args = ["simulate", "don-carlo", "--seats", "greedy,random,random", "--games", "6", "--seed", "4",
            "--rotate", "--json"]
    one = runner.invoke(app, [*args, "--workers", "1"])
    on_ray = runner.invoke(app, [*args, "--ray", "local"])
    assert one.exit_code == 0, one.output
    assert on_ray.exit_code == 0, on_ray.output
    assert on_ray.stdout == one.stdout
    assert json.loads(one.stdout)["games"] == 6


@pytest.mark.parametrize(("address", "words"), [
    ("127.0.0.1:1", "no Ray cluster answers at 127.0.0.1:1"),
    ("not an address", "--ray expects 'local', HOST:PORT"),
])
def test_a_bad_ray_address_is_a_clear_error(address: str, words: str) -> None:
    res = runner.invoke(app, ["simulate", "don-carlo", "--games", "2", "--ray", address, "--json"])
    assert res.exit_code == 2
    assert words in " ".join(res.stderr.split())
    assert "Traceback" not in res.output
    with pytest.raises(ExecutorError):
        list(run_jobs(jobs()[:1], ray=address))


def test_the_scaling_bench_measures_every_engine(ray_local: Any) -> None:
    report = scaling.run(games_scale=0.01)
    assert [w["game"] for w in report["workloads"]] == ["don-carlo", "mafia-legend"]
    for load in report["workloads"]:
        assert load["same_results"] is True
        assert [(e["engine"], e["workers"]) for e in load["engines"]] == [("local", 1), ("local", 2), ("ray-local", 2)]
        assert all(e["games_per_s"] > 0 and e["efficiency"] > 0 for e in load["engines"])
        assert load["engines"][0]["speedup"] == 1.0
