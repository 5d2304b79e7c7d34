"""The lab: one run per value of an option or data value, common random numbers, the statistics,
refusals before any game, the plots, the page and the command."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from matplotlib.image import imread
from typer.testing import CliRunner

from tablero.cli.main import app
from tablero.core.errors import TableroError
from tablero.core.rng import derive_seed
from tablero.study import lab as lab_module
from tablero.study.executor import GameOutcome
from tablero.study.lab import mean_ci, plan_lab, run_lab, split_values, summarize, t95, write_outputs

runner = CliRunner(env={"COLUMNS": "400"})  # wide: rich wraps long paths at the terminal width
PNG = b"\x89PNG\r\n\x1a\n"
MAFIA = ["mafia-legend", "--players", "3", "--option", "variant=beginner"]


def lab(*args: str) -> Any:
    return runner.invoke(app, ["lab", *args])


# ---------------------------------------------------------------------------- statistics
def test_t_quantiles_and_mean_intervals() -> None:
    assert t95(1) == pytest.approx(12.706, abs=1e-3)
    assert t95(30) == pytest.approx(2.042, abs=1e-3)
    assert t95(60) == pytest.approx(2.000, abs=1e-3)  # past the table: the expansion
    assert t95(10_000) == pytest.approx(1.960, abs=1e-3)
    mean, ci = mean_ci([1.0, 2.0, 3.0])
    assert mean == 2.0 and ci is not None
    assert ci == pytest.approx([2 - t95(2) / math.sqrt(3), 2 + t95(2) / math.sqrt(3)])
    assert mean_ci([5.0]) == (5.0, None)  # one game: no interval
    assert mean_ci([0.0, 0.0, 3.0], floor=0.0)[1][0] == 0.0  # type: ignore[index]


def test_values_split_on_commas_or_on_semicolons_when_a_value_holds_commas() -> None:
    assert split_values("40, 45,50") == ["40", "45", "50"]
    assert split_values("6,5,5;7,5,5") == ["6,5,5", "7,5,5"]


def outcome(index: int, scores: tuple[float, ...], rounds: int, roles: tuple[str, ...] | None,
            winners: tuple[int, ...] | None = None) -> GameOutcome:
    top = max(scores)
    won = winners if winners is not None else tuple(p for p, s in enumerate(scores) if s == top)
    return GameOutcome(index=index, seed=index, players=("greedy",) * len(scores), scores=scores,
                       ranks=tuple(1 + sum(o > s for o in scores) for s in scores),
                       win_shares=tuple(1 / len(won) if p in won else 0.0 for p in range(len(scores))),
                       actions=100 + index, decisions=50 + index, rounds=rounds, roles=roles)


def test_a_run_counts_margin_spread_shared_wins_families_and_the_paired_length() -> None:
    plan = plan_lab("mafia-legend", "BEGINNER_GOAL", "40,50", games=3, options={"variant": "beginner"})
    first = [outcome(0, (50.0, 40.0, 30.0), 7, ("barone", "moretti", "orsini")),
             outcome(1, (45.0, 45.0, 30.0), 8, ("orsini", "barone", "moretti")),
             outcome(2, (20.0, 10.0, 10.0), 12, ("moretti", "orsini", "barone"), winners=())]
    second = [outcome(3, (60.0, 40.0, 30.0), 8, ("barone", "moretti", "orsini")),
              outcome(4, (50.0, 45.0, 30.0), 8, ("orsini", "barone", "moretti")),
              outcome(5, (50.0, 30.0, 30.0), 9, ("moretti", "orsini", "barone"))]
    run = summarize(plan, 0, first, None, "rounds")
    assert run["value"] == 40 and run["games"] == 3 and run["delta_length"] is None
    assert run["mean_margin"] == pytest.approx((10 + 0 + 10) / 3)
    assert run["mean_spread"] == pytest.approx((math.sqrt(200 / 3) + math.sqrt(50) + math.sqrt(200 / 9)) / 3)
    assert run["mean_rounds"] == pytest.approx(9.0) and run["rounds_seen"] == [[7, 1], [8, 1], [12, 1]]
    assert run["no_winner"] == pytest.approx(1 / 3)  # game 2: nobody reached the goal with a mission
    assert [s["wins"] for s in run["seats"]] == [1.5, 0.5, 0.0]  # a shared first place counts 1/2 each
    assert run["roles"]["barone"]["wins"] == 1.5 and run["roles"]["orsini"]["wins"] == 0.5
    assert run["roles"]["moretti"]["games"] == 3 and run["roles"]["moretti"]["wins"] == 0.0
    assert all(0 <= s["ci95"][0] <= s["win_share"] <= s["ci95"][1] <= 1 for s in run["seats"])
    paired = summarize(plan, 1, second, first, "rounds")
    assert paired["delta_length"]["mean"] == pytest.approx((1 + 0 - 3) / 3)  # game by game against value 1


# ---------------------------------------------------------------------------- plans and refusals
def test_an_unknown_name_is_refused_with_the_options_and_data_values_listed() -> None:
    with pytest.raises(TableroError) as err:
        plan_lab("mafia-legend", "BEGINER_GOAL", "40,50")
    text = str(err.value)
    assert "did you mean BEGINNER_GOAL" in text
    assert "options: variant, missions" in text and "data values: GOAL, BEGINNER_GOAL" in text


@pytest.mark.parametrize(("name", "values", "options", "message"), [
    ("BEGINNER_GOAL", "40,500", {}, "500 is out of range"),
    ("BEGINNER_GOAL", "40,forty", {}, "expected a whole number"),
    ("BEGINNER_GOAL", "40,40", {}, "given twice"),
    ("variant", "beginner,expert", {}, "choose one of"),
    ("variant", "beginner,advanced", {"variant": "beginner"}, "do not also set it with --option"),
    ("BEGINNER_GOAL", "40,50", {"data": {"BEGINNER_GOAL": "45"}}, "do not also set it with --data"),
    ("BEGINNER_GOAL", "40,50", {"missions": "perhaps"}, "option missions"),
])
def test_bad_values_are_refused_before_any_game(name: str, values: str, options: dict[str, Any], message: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def no_games(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(lab_module, "run_jobs", no_games)
    with pytest.raises(TableroError, match=message):
        plan_lab("mafia-legend", name, values, options=options)


def test_the_seats_one_bot_everywhere_or_one_per_seat_rotated() -> None:
    same = plan_lab("don-carlo", "majority_tie", "all_full,none", games=3)
    assert same.players == 3 and not same.rotate
    assert [j.seats for j in same.jobs()] == [("greedy",) * 3] * 6
    rotated = plan_lab("don-carlo", "majority_tie", "all_full,none", bots=["greedy", "random", "random"], games=3)
    assert rotated.players == 3 and rotated.rotate
    seats = [j.seats for j in rotated.jobs()]
    assert seats[:3] == [("greedy", "random", "random"), ("random", "random", "greedy"),
                         ("random", "greedy", "random")]
    assert seats[3:] == seats[:3]  # every value sees the same line-ups
    with pytest.raises(TableroError, match="one per seat"):
        plan_lab("don-carlo", "majority_tie", "all_full,none", bots=["greedy", "random"], players=3)
    with pytest.raises(TableroError, match="unknown bot"):
        plan_lab("don-carlo", "majority_tie", "all_full,none", bots=["nobody"])


def test_game_i_of_every_value_has_the_same_seed() -> None:
    plan = plan_lab("mafia-legend", "BEGINNER_GOAL", "40,45,50", games=4, seed=7, options={"variant": "beginner"})
    jobs = plan.jobs()
    assert [j.index for j in jobs] == list(range(12))
    assert [j.seed for j in jobs] == [derive_seed(7, i) for i in range(4)] * 3
    assert [j.options for j in jobs[::4]] == [{"variant": "beginner", "data": {"BEGINNER_GOAL": v}}
                                              for v in ("40", "45", "50")]


# ---------------------------------------------------------------------------- runs
def test_vary_an_option_gives_a_run_per_value_with_the_metrics(tmp_path: Path) -> None:
    plan = plan_lab("don-carlo", "majority_tie", "all_full,none", games=3)
    results = run_lab(plan, command="tablero lab ...", versions={"tablero": "test"})
    assert results["vary"] == "majority_tie" and results["vary_kind"] == "option"
    assert results["values"] == ["all_full", "none"] and results["games"] == 3
    assert [r["value"] for r in results["runs"]] == ["all_full", "none"]
    for run in results["runs"]:
        assert run["games"] == 3 and run["ended"] == 1.0
        assert run["options"]["majority_tie"] == run["value"]
        assert run["mean_actions"] > run["mean_decisions"] > 0
        assert run["ci_actions"][0] <= run["mean_actions"] <= run["ci_actions"][1]
        assert run["mean_rounds"] is not None and run["mean_margin"] >= 0 and run["mean_spread"] >= 0
        assert len(run["seats"]) == 3 and sum(s["win_share"] for s in run["seats"]) == pytest.approx(1.0)
        assert set(run["roles"]) and all(g["games"] for g in run["roles"].values())
        assert [o["seed"] for o in run["outcomes"]] == [derive_seed(1, i) for i in range(3)]
    # Don Carlo's colours go with the seats: the seat table and plot name them, no family table or plot.
    assert results["title"] == "Don Carlo" and results["seat_roles"] == ["red", "blue", "yellow"]
    json_path, figures, page = write_outputs(results, tmp_path)
    assert json.loads(json_path.read_text()) == results
    assert {f.name for f in figures} == {"game-length.png", "win-share-by-seat.png", "margin-and-spread.png",
                                         "rounds-distribution.png"}
    assert all(f.stat().st_size > 10_000 for f in figures)
    text = page.read_text()
    assert "Win share per seat" in text and "seat 1 (Red)" in text and "Win share per family/colour" not in text
    assert "<h1>Lab: Don Carlo, majority_tie = all_full, none</h1>" in text


def test_vary_a_data_value_changes_the_game(tmp_path: Path) -> None:
    """A lower goal in the beginner game: the games are not longer, game by game."""
    plan = plan_lab("mafia-legend", "BEGINNER_GOAL", "30,50", games=3, options={"variant": "beginner"})
    results = run_lab(plan)
    assert results["vary_kind"] == "data" and results["values"] == [30, 50]
    low, high = results["runs"]
    assert low["options"]["data"] == {"BEGINNER_GOAL": 30} and high["options"]["data"] == {"BEGINNER_GOAL": 50}
    assert results["length_metric"] == "rounds" and results["rounds_unit"] == "months"
    assert high["delta_length"]["mean"] > 0 and high["mean_rounds"] > low["mean_rounds"]
    assert max(o["scores"][0] for o in low["outcomes"]) < 50 <= max(max(o["scores"]) for o in high["outcomes"])
    assert set(low["roles"]) <= {"barone", "lombardo", "moretti", "orsini", "rinaldi", "santori"}


# ---------------------------------------------------------------------------- the command
def test_the_done_when_command_writes_results_plots_and_the_page(tmp_path: Path) -> None:
    out = tmp_path / "lab"
    res = lab(*MAFIA, "--vary", "BEGINNER_GOAL=40,50", "--games", "4", "--out", str(out))
    assert res.exit_code == 0, res.output
    assert "BEGINNER_GOAL" in res.output and "Months" in res.output and "Win share per seat" in res.output
    results = json.loads((out / "results.json").read_text())
    assert [r["value"] for r in results["runs"]] == [40, 50]
    assert results["command"].startswith("tablero lab mafia-legend --players 3 --vary BEGINNER_GOAL=40,50")
    assert results["versions"]["game"] == "mafia-legend"
    pngs = sorted(out.glob("*.png"))
    assert {p.name for p in pngs} == {"game-length.png", "win-share-by-seat.png", "win-share-by-family.png",
                                      "margin-and-spread.png", "rounds-distribution.png"}
    for p in pngs:
        data = p.read_bytes()
        assert data.startswith(PNG)
        pixels = imread(p)
        assert pixels.shape[0] > 300 and pixels.shape[1] > 600
        assert pixels[..., :3].std() > 0.05  # not a blank picture
    page = (out / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "Common random numbers" in page
    assert page.count("data:image/png;base64,") == len(pngs)
    assert "tablero lab mafia-legend" in page and "Win share per family/colour" in page
    assert "http://" not in page and "https://" not in page  # self-contained
    # The game and its families by the names a reader knows, not their ids.
    assert results["title"] == "Mafia Legend" and "<h1>Lab: Mafia Legend, BEGINNER_GOAL = 40, 50</h1>" in page
    assert results["seat_roles"] is None  # the families move between the seats
    families = {f for r in results["runs"] for f in r["roles"]}
    assert families
    for family in families:
        assert f'<th scope="col">{family.capitalize()}</th>' in page and f'<th scope="col">{family}</th>' not in page
        assert family.capitalize() in res.output


def test_the_same_seed_gives_the_same_json_and_json_prints_it(tmp_path: Path) -> None:
    args = ["don-carlo", "--vary", "majority_tie=all_full,split_floor", "--games", "2", "--seed", "5",
            "--bots", "greedy,random,random"]
    first = lab(*args, "--out", str(tmp_path / "a"), "--json")
    assert first.exit_code == 0, first.output
    saved = (tmp_path / "a" / "results.json").read_bytes()
    assert json.loads(first.stdout) == json.loads(saved)
    second = lab(*args, "--out", str(tmp_path / "b"), "--workers", "2")
    assert second.exit_code == 0, second.output
    assert (tmp_path / "b" / "results.json").read_bytes() == saved
    results = json.loads(saved)
    assert results["rotate"] and set(results["runs"][0]["bots"]) == {"greedy", "random"}


@pytest.mark.parametrize(("args", "message"), [
    (["--vary", "NOPE=1,2"], "no option or data value 'NOPE'"),
    (["--vary", "BEGINNER_GOAL=40,1000"], "out of range"),
    (["--vary", "BEGINNER_GOAL"], "--vary expects NAME=V1,V2"),
    (["--vary", "BEGINNER_GOAL=40,50", "--bots", "greedy,random"], "one per seat"),
])
def test_the_command_refuses_bad_input_with_exit_2_and_writes_nothing(tmp_path: Path, args: list[str],
                                                                       message: str) -> None:
    out = tmp_path / "lab"
    res = lab(*MAFIA, *args, "--games", "2", "--out", str(out))
    assert res.exit_code == 2
    assert message in " ".join(res.output.split())
    assert not out.exists()


def test_the_command_in_german(tmp_path: Path) -> None:
    res = lab("don-carlo", "--vary", "majority_tie=all_full,none", "--games", "2", "--out", str(tmp_path),
              "--lang", "de")
    assert res.exit_code == 0, res.output
    assert "Siegquote je Platz" in res.output and "Geschrieben nach" in res.output
    # The colours go with the seats in Don Carlo: named in the seat table, in German; no family table.
    assert "Platz 1 (Rot)" in res.output and "Platz 2 (Blau)" in res.output and "Familie" not in res.output
    assert "Δ Runden" in res.output and "höchste minus zweithöchste" in res.output


def test_the_delta_heading_names_the_unit_in_german(tmp_path: Path) -> None:
    res = lab(*MAFIA, "--vary", "BEGINNER_GOAL=40,50", "--games", "2", "--out", str(tmp_path), "--lang", "de")
    assert res.exit_code == 0, res.output
    assert "Δ Monate " in res.output and "Δ Monaten" not in res.output  # a heading, not the note's dative
    assert "Unterschied in Monaten" in " ".join(res.output.split())


def no_games(*_args: object, **_kwargs: object) -> None:
    raise AssertionError("a game was played")


def test_an_out_folder_that_is_a_file_or_holds_another_run_is_refused_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["don-carlo", "--vary", "majority_tie=all_full,none", "--games", "2"]
    first = tmp_path / "first"
    assert lab(*args, "--out", str(first)).exit_code == 0
    before = {p.name: p.read_bytes() for p in first.iterdir()}
    monkeypatch.setattr(lab_module, "run_jobs", no_games)
    a_file = tmp_path / "file"
    a_file.write_text("x")
    tour = tmp_path / "tour"
    tour.mkdir()
    (tour / "tournament.json").write_text("{}")
    for out, words in ((a_file, "is a file, not a folder"), (a_file / "sub", f"cannot be made: {a_file} is a file"),
                       (tour, "holds a tournament"),
                       (first, "holds the results of `tablero lab don-carlo")):
        res = lab(*args[:-1], "3", "--out", str(out))  # 3 games, not the first run's 2
        assert res.exit_code == 2, res.output
        assert words in " ".join(res.output.split()) and "Traceback" not in res.output
    assert {p.name: p.read_bytes() for p in first.iterdir()} == before  # nothing overwritten
    assert (tour / "tournament.json").read_text() == "{}" and sorted(p.name for p in tour.iterdir()) == [
        "tournament.json"]
    monkeypatch.undo()
    again = lab(*args, "--out", str(first))  # the same command may write there again: the same results
    assert again.exit_code == 0, again.output
    assert (first / "results.json").read_bytes() == before["results.json"]


def test_ctrl_c_stops_the_lab_with_exit_130_and_writes_nothing(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(lab_module, "run_jobs", interrupted)
    out = tmp_path / "lab"
    res = lab("don-carlo", "--vary", "majority_tie=all_full,none", "--games", "2", "--out", str(out))
    assert res.exit_code == 130
    assert "Lab interrupted; nothing written." in res.output and "Error" not in res.output
    assert not out.exists()


def test_a_folder_that_cannot_be_written_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tablero.cli.lab as cli_lab

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cli_lab, "write_outputs", refuse)
    res = lab("don-carlo", "--vary", "majority_tie=all_full,none", "--games", "1", "--out", str(tmp_path / "x"))
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert f"cannot write into {tmp_path / 'x'}" in " ".join(res.output.split())
