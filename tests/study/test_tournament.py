"""Tournaments: the balanced schedule, the ratings and tables, resume, the plots and the command."""

from __future__ import annotations

import json
from collections import Counter
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest
from matplotlib.image import imread
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from tablero.cli.main import app
from tablero.core.rng import derive_seed
from tablero.study.executor import GameOutcome
from tablero.study.tournament import (
    GAMES_FILE,
    PARAMS_FILE,
    TournamentError,
    bot_table,
    pairs,
    prepare,
    rate,
    reduce,
    report_sections,
    run_tournament,
    schedule,
    seat_table,
)

runner = CliRunner(env={"COLUMNS": "400"})  # wide: rich wraps long paths at the terminal width
VERSIONS = {"tablero": "test"}
PNG = b"\x89PNG\r\n\x1a\n"


def outcome(index: int, players: tuple[str, ...], ranks: tuple[int, ...], scores: tuple[float, ...] | None = None,
            actions: int = 100, rounds: int | None = None) -> GameOutcome:
    """A hand-made game: win shares from the ranks (a first place shared by k counts 1/k)."""
    firsts = ranks.count(1)
    return GameOutcome(index=index, seed=index, players=players,
                       scores=scores if scores is not None else tuple(float(10 - r) for r in ranks), ranks=ranks,
                       win_shares=tuple(1 / firsts if r == 1 else 0.0 for r in ranks), actions=actions,
                       decisions=actions // 2, rounds=rounds)


# ---------------------------------------------------------------------------- schedule
@pytest.mark.parametrize(("k", "n"), [(2, 2), (3, 2), (4, 2), (3, 3), (4, 3), (5, 3), (4, 4), (5, 4), (6, 4), (2, 3),
                                    (2, 4), (3, 4), (2, 5), (3, 5), (4, 5)])
def test_the_schedule_is_balanced_over_every_cycle(k: int, n: int) -> None:
    bots = tuple(f"b{i}" for i in range(k))
    plan = schedule(bots, n)
    for cycles in (1, 2):
        games = [plan.seats(i) for i in range(cycles * plan.cycle)]
        assert all(len(g) == n for g in games)
        # every bot in every seat equally often
        seat_counts = Counter((b, p) for g in games for p, b in enumerate(g))
        assert set(seat_counts) == {(b, p) for b in bots for p in range(n)}
        assert len(set(seat_counts.values())) == 1
        # every two bots meet equally often, and each takes every seat equally often in those games
        met = Counter((a, b) for g in games for a, b in permutations(set(g), 2))
        assert set(met) == set(permutations(bots, 2)) and len(set(met.values())) == 1
        seated = Counter((a, p, b) for g in games for p, a in enumerate(g) for b in set(g) - {a})
        assert set(seated) == {(a, p, b) for a, b in permutations(bots, 2) for p in range(n)}
        assert len(set(seated.values())) == 1
        if k >= n:
            assert all(len(set(g)) == n for g in games)  # no bot twice at a table
        else:
            assert all(set(g) == set(bots) for g in games)  # every bot at every table


def test_games_are_rounded_up_to_whole_cycles_and_rotate_each_line_up() -> None:
    plan = schedule(("random", "greedy"), 3)
    assert plan.lineups == (("random", "random", "greedy"), ("random", "greedy", "greedy"))
    assert plan.cycle == 6
    assert (plan.games(1), plan.games(6), plan.games(25), plan.games(30)) == (6, 6, 30, 30)
    assert [plan.seats(i) for i in range(3)] == [("random", "random", "greedy"), ("random", "greedy", "random"),
                                                 ("greedy", "random", "random")]
    assert plan.seats(6) == plan.seats(0)
    assert schedule(("a", "b", "c", "d"), 3).cycle == 4 * 3


@pytest.mark.parametrize(("bots", "players", "words"), [
    (("a", "a"), 2, "each bot once"), (("a",), 3, "two different bots"), (("a", "b"), 1, "two seats")])
def test_a_schedule_that_cannot_be_is_refused(bots: tuple[str, ...], players: int, words: str) -> None:
    with pytest.raises(TournamentError, match=words):
        schedule(bots, players)


def test_prepare_checks_players_bots_and_options() -> None:
    with pytest.raises(TournamentError, match="takes 2-4 players"):
        prepare("don-carlo", ["random", "greedy"], 5, 6)
    with pytest.raises(ValueError, match="nobody"):
        prepare("don-carlo", ["random", "nobody"], 3, 6)
    with pytest.raises(ValueError, match="no_such_option"):
        prepare("don-carlo", ["random", "greedy"], 3, 6, options={"no_such_option": "1"})
    t = prepare("don-carlo", ["Random", " greedy"], 3, 7, seed=5)
    assert t.bots == ("random", "greedy") and t.games == 12
    assert t.command() == "tablero tournament don-carlo --bots random,greedy --players 3 --games 12 --seed 5"
    job = t.job(4)
    assert job.seed == derive_seed(5, 4) and job.seats == t.plan.seats(4) and job.game == "don-carlo"


# ---------------------------------------------------------------------------- ratings and tables
def test_one_seat_per_bot_is_exactly_openskills_update_in_game_order() -> None:
    games = [outcome(0, ("a", "b", "c"), (1, 2, 3)), outcome(1, ("b", "c", "a"), (1, 1, 3)),
             outcome(2, ("c", "a", "b"), (2, 1, 3))]
    model = PlackettLuce()
    mine = {b: model.rating() for b in "abc"}
    for g in games:
        new = model.rate([[mine[b]] for b in g.players], ranks=[float(r) for r in g.ranks])
        mine = {b: new[p][0] for p, b in enumerate(g.players)}
    ratings = rate("abc", games)
    for b in "abc":
        assert ratings[b]["mu"] == pytest.approx(mine[b].mu, rel=1e-12)
        assert ratings[b]["sigma"] == pytest.approx(mine[b].sigma, rel=1e-12)
        assert ratings[b]["ordinal"] == pytest.approx(mine[b].mu - 3 * mine[b].sigma, rel=1e-12)
    assert max(ratings, key=lambda b: ratings[b]["mu"]) == "a"  # first, third, first
    assert rate("abc", games) == ratings  # deterministic
    assert rate("abc", games[::-1]) != ratings  # the order of the games matters: game order it is


def test_a_bot_in_two_seats_is_one_rating_its_seats_steps_added() -> None:
    model = PlackettLuce()
    beaten_twice = rate("ab", [outcome(0, ("a", "a", "b"), (2, 3, 1))])
    beaten_once = rate("ab", [outcome(0, ("a", "b"), (2, 1))])
    assert beaten_twice["a"]["mu"] < beaten_once["a"]["mu"] < 25 < beaten_once["b"]["mu"]
    assert beaten_twice["a"]["sigma"] < beaten_once["a"]["sigma"] < model.sigma
    # Its two seats split: one ahead of b, one behind; the twin's steps cancel in part.
    split = rate("ab", [outcome(0, ("a", "b", "a"), (1, 2, 3))])
    assert abs(split["a"]["mu"] - 25) < abs(beaten_twice["a"]["mu"] - 25)
    # The same (mu, sigma) by the module's formula from openskill's two seat copies.
    teams = [[model.rating()], [model.rating()], [model.rating()]]
    new = model.rate(teams, ranks=[2.0, 3.0, 1.0])
    prior = model.sigma ** 2 + model.tau ** 2
    mu = 25 + (new[0][0].mu - 25) + (new[1][0].mu - 25)
    sigma = (prior * (1 - (1 - new[0][0].sigma ** 2 / prior) - (1 - new[1][0].sigma ** 2 / prior))) ** 0.5
    assert beaten_twice["a"]["mu"] == pytest.approx(mu) and beaten_twice["a"]["sigma"] == pytest.approx(sigma)


def test_pairs_count_each_game_once_ties_half() -> None:
    games = [outcome(0, ("a", "b", "c"), (1, 2, 3)), outcome(1, ("b", "c", "a"), (1, 1, 3)),
             outcome(2, ("c", "a", "b"), (2, 1, 1)), outcome(3, ("a", "a", "b"), (1, 3, 2))]
    by_pair = {(p["a"], p["b"]): p for p in pairs("abc", games)}
    ab = by_pair[("a", "b")]
    # a ahead, b ahead, tie, and game 3 where a's seats split (1 ahead, 1 behind: half a game each)
    assert ab["games"] == 4
    assert (ab["a_better"], ab["b_better"], ab["ties"]) == (1.5, 1.5, 1.0)
    assert ab["share"] == pytest.approx(0.5)
    assert ab["ci95"][0] < 0.5 < ab["ci95"][1]
    bc = by_pair[("b", "c")]
    assert bc["games"] == 3 and (bc["a_better"], bc["b_better"], bc["ties"]) == (2.0, 0.0, 1.0)
    assert bc["share"] == pytest.approx(2.5 / 3)


def test_seat_and_bot_tables() -> None:
    games = [outcome(0, ("a", "b"), (1, 2), (5.0, 3.0), actions=10, rounds=2),
             outcome(1, ("b", "a"), (1, 1), (4.0, 4.0), actions=20, rounds=4)]
    seats = seat_table("ab", 2, games)
    assert [s["win_share"] for s in seats] == [0.75, 0.25]
    assert seats[0]["by_bot"]["a"]["games"] == 1 and seats[0]["by_bot"]["a"]["win_share"] == 1.0
    assert seats[0]["by_bot"]["b"]["win_share"] == 0.5 and seats[1]["mean_score"] == 3.5
    bots = bot_table("ab", games)
    assert bots["a"]["win_share"] == 0.75 and bots["a"]["mean_score"] == 4.5 and bots["a"]["mean_rank"] == 1.0
    assert bots["b"]["seat_games"] == 2 and bots["b"]["mean_actions"] == 15.0 and bots["b"]["mean_rounds"] == 3.0
    assert bot_table("ab", [outcome(0, ("a", "b"), (1, 2))])["a"]["mean_rounds"] is None


# ---------------------------------------------------------------------------- real tournaments
def test_greedy_is_rated_above_random_in_a_small_don_carlo_tournament(tmp_path: Path) -> None:
    t = prepare("don-carlo", ["random", "greedy"], 3, 18, seed=3)
    run = run_tournament(t, out=tmp_path, versions=VERSIONS, write=False)
    res = run.results
    assert res is not None and run.played == 18 and run.resumed == 0
    assert res["ratings"]["greedy"]["mu"] > res["ratings"]["random"]["mu"]
    assert res["ratings"]["greedy"]["ordinal"] > res["ratings"]["random"]["ordinal"]
    assert res["pairs"][0]["share"] < 0.5  # random ahead of greedy in fewer than half their games
    assert res["by_bot"]["greedy"]["win_share"] > res["by_bot"]["random"]["win_share"]
    assert res["games"] == 18 and len(res["games_played"]) == 18
    assert [g["index"] for g in res["games_played"]] == list(range(18))
    assert all(g["seed"] == derive_seed(3, g["index"]) for g in res["games_played"])
    assert {"game", "players", "bots", "games", "seed", "options", "command", "versions", "ratings", "pairs",
            "seats", "by_bot", "games_played"} <= set(res)
    assert json.loads((tmp_path / "results.json").read_text()) == res
    assert len((tmp_path / GAMES_FILE).read_text().splitlines()) == 18


def test_a_resumed_tournament_equals_an_uninterrupted_one(tmp_path: Path) -> None:
    t = prepare("don-carlo", ["random", "greedy"], 3, 12, seed=7)
    whole = run_tournament(t, out=tmp_path / "whole", versions=VERSIONS, write=False).results
    folder = tmp_path / "resumed"
    first = run_tournament(t, out=folder, versions=VERSIONS, write=False, stop_after=5)
    assert first.results is None and first.played == 5
    assert not (folder / "results.json").exists()

    def interrupt(done: int, total: int) -> None:
        if done == 8:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(t, out=folder, versions=VERSIONS, write=False, progress=interrupt)
    lines = (folder / GAMES_FILE).read_text().splitlines()
    assert len(lines) == 8
    with (folder / GAMES_FILE).open("a") as f:  # a game cut short while being written
        f.write(lines[-1][:40])
    seen: list[tuple[int, int]] = []
    last = run_tournament(t, out=folder, versions=VERSIONS, write=False, progress=lambda d, n: seen.append((d, n)))
    assert (last.resumed, last.played) == (8, 4)
    assert seen[0] == (8, 12) and seen[-1] == (12, 12)
    assert last.results == whole
    assert (folder / "results.json").read_text() == (tmp_path / "whole" / "results.json").read_text()
    again = run_tournament(t, out=folder, versions=VERSIONS, write=False)  # nothing left to play
    assert (again.resumed, again.played) == (12, 0) and again.results == whole


def test_a_folder_of_another_tournament_is_refused(tmp_path: Path) -> None:
    run_tournament(prepare("don-carlo", ["random", "greedy"], 3, 6, seed=1), out=tmp_path, versions=VERSIONS,
                   write=False, stop_after=1)
    with pytest.raises(TournamentError, match=r"holds another tournament \(seed 1 there, 2 now\)"):
        run_tournament(prepare("don-carlo", ["random", "greedy"], 3, 6, seed=2), out=tmp_path, write=False)
    params = json.loads((tmp_path / PARAMS_FILE).read_text())
    assert params["seed"] == 1 and params["games"] == 6 and params["bots"] == ["random", "greedy"]
    # The same tournament asked for with 5 games is the same (rounded up to 6): it resumes.
    run = run_tournament(prepare("don-carlo", ["random", "greedy"], 3, 5, seed=1), out=tmp_path,
                         versions=VERSIONS, write=False)
    assert (run.resumed, run.played) == (1, 5)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("tour")
    res = runner.invoke(app, ["tournament", "don-carlo", "--bots", "random,greedy", "--players", "3", "--games",
                              "5", "--seed", "2", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "5 games asked for, rounded up to 6" in res.output
    assert "greedy" in res.output and "Written to" in res.output
    return out, json.loads((out / "results.json").read_text())


def test_the_command_writes_results_report_and_plots(written: tuple[Path, dict[str, Any]]) -> None:
    out, results = written
    assert results["games"] == 6 and results["schedule"]["cycles"] == 1
    assert results["command"] == "tablero tournament don-carlo --bots random,greedy --players 3 --games 6 --seed 2"
    page = (out / "report.html").read_text()
    assert "<table" in page and "data:image/png;base64," in page and results["command"] in page
    for name in ("ratings.png", "win-share-by-seat.png", "scores.png", "game-length.png"):
        data = (out / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 10_000, name
        pixels = imread(out / name)
        assert pixels.shape[0] > 300 and pixels.shape[1] > 500, name
    res = runner.invoke(app, ["tournament", "don-carlo", "--bots", "random,greedy", "--players", "3", "--games",
                              "6", "--seed", "2", "--out", str(out), "--json"])
    assert res.exit_code == 0, res.output
    # resumed: nothing played again, the same results printed
    assert json.loads(res.stdout) == results


def test_the_command_refuses_another_tournaments_folder_and_bad_bots(written: tuple[Path, dict[str, Any]]) -> None:
    out, _ = written
    res = runner.invoke(app, ["tournament", "don-carlo", "--bots", "random,greedy", "--players", "3", "--games",
                              "6", "--seed", "3", "--out", str(out)])
    assert res.exit_code == 2 and "holds another tournament" in res.output
    res = runner.invoke(app, ["tournament", "don-carlo", "--bots", "random,random", "--games", "6"])
    assert res.exit_code == 2 and "each bot once" in res.output
    res = runner.invoke(app, ["tournament", "don-carlo", "--bots", "random,greedy", "--players", "9", "--games", "6"])
    assert res.exit_code == 2 and "takes 2-4 players" in res.output


def test_the_command_in_german_with_json_only_on_stdout() -> None:
    res = runner.invoke(app, ["tournament", "don-carlo", "--bots", "greedy,random,easy", "--games", "3",
                              "--lang", "de"])
    assert res.exit_code == 0, res.output
    assert "Partien" in res.output and "Siegquote" in res.output
    res = runner.invoke(app, ["tournament", "don-carlo", "--bots", "greedy,random,easy", "--games", "3", "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["players"] == 3 and data["games"] == 3 and set(data["ratings"]) == {"greedy", "random", "easy"}


def test_the_game_length_speaks_the_games_unit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mafia Legend counts months, Don Carlo rounds: results.json, the table and the plot say so."""
    from tablero.study import plots

    labels: list[str] = []
    histogram = plots._histogram
    monkeypatch.setattr(plots, "_histogram", lambda ax, values, label, c: (labels.append(label),
                                                                          histogram(ax, values, label, c)))
    games = [outcome(0, ("random", "greedy", "greedy"), (1, 2, 3), rounds=7),
             outcome(1, ("greedy", "random", "greedy"), (2, 1, 3), rounds=8)]
    for game, unit in (("mafia-legend", "months"), ("don-carlo", "rounds")):
        results = reduce(prepare(game, ["random", "greedy"], 3, 2), games, VERSIONS)
        assert results["rounds_unit"] == unit
        per_bot = dict(report_sections(results))["Per bot"]
        assert f"{unit.capitalize()} / game" in per_bot and f"the game's own {unit}" in per_bot
        labels.clear()
        plots.lengths_plot(results, tmp_path / f"{game}.png")
        assert labels[1] == f"{unit.capitalize()} per game"
    assert "Mafia" not in labels[1]


def test_a_folder_with_another_runs_results_is_refused(tmp_path: Path) -> None:
    (tmp_path / "results.json").write_text('{"command": "tablero lab don-carlo ..."}')
    with pytest.raises(TournamentError, match="holds the results of another run"):
        run_tournament(prepare("don-carlo", ["random", "greedy"], 3, 6), out=tmp_path, write=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.json"]  # nothing written


def test_ctrl_c_keeps_the_finished_games_and_the_same_command_resumes(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from tablero.study import tournament as module

    args = ["tournament", "don-carlo", "--bots", "random,greedy", "--players", "3", "--games", "6", "--seed", "9"]
    whole = runner.invoke(app, [*args, "--out", str(tmp_path / "whole"), "--json"])
    assert whole.exit_code == 0, whole.output
    run_jobs = module.run_jobs

    def two_then_ctrl_c(jobs: Any, **kwargs: Any) -> Any:
        for n, out in enumerate(run_jobs(jobs, **kwargs)):
            if n == 2:
                raise KeyboardInterrupt
            yield out

    monkeypatch.setattr(module, "run_jobs", two_then_ctrl_c)
    folder = tmp_path / "cut"
    res = runner.invoke(app, [*args, "--out", str(folder)])
    assert res.exit_code == 130
    assert "Tournament interrupted after 2 of 6 games; run the same command again" in " ".join(res.output.split())
    assert "Error" not in res.output and not (folder / "results.json").exists()
    assert len((folder / GAMES_FILE).read_text().splitlines()) == 2
    monkeypatch.undo()
    res = runner.invoke(app, [*args, "--out", str(folder), "--json"])
    assert res.exit_code == 0, res.output
    assert "Resumed from" in res.stderr and "2 of 6 games were already played" in res.stderr
    assert json.loads(res.stdout) == json.loads(whole.stdout)


def test_an_out_that_is_a_file_is_refused_before_any_game(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    res = runner.invoke(app, ["tournament", "don-carlo", "--bots", "random,greedy", "--games", "5",
                              "--out", str(a_file)])
    assert res.exit_code == 2 and "is a file, not a folder" in res.output
    assert "rounded up" not in res.output and a_file.read_text() == "x"
