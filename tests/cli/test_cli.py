"""The tablero command: play (one person, hot-seat), simulate, replay, bench, errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tablero.bots import make_bot
from tablero.cli.main import app
from tablero.cli.tui import CLEAR_ALL
from tablero.core.match import Match, bot_rng
from tablero.core.record import GameRecord
from tablero.registry import get_game

GAME = get_game("don-carlo")
runner = CliRunner()


def first_moves(seats: list[str], seed: int) -> list[str]:
    """The wire texts of the first person's legal moves at their first decision."""
    match = Match(GAME, seats, seed=seed)
    bots = {p: make_bot(s, GAME.id) for p, s in enumerate(seats) if s != "you"}
    match.play_bots(bots, {p: bot_rng(seed, p) for p in bots})
    seat = match.pending()[0]
    return [a.to_text() for a in match.legal(seat)]


def test_play_one_person_against_bots(tmp_path: Path) -> None:
    seats, seed = ["you", "greedy", "random"], 3
    moves = first_moves(seats, seed)
    typed = max(moves, key=len)  # a multi-card code, typed in another order
    backwards = "/".join(reversed(typed.split("/")))
    unlisted = next(t for t in ("0/0/0", "6/6", "1/1/1/1", "2/2/2/2") if t not in moves)
    lines = ["hello", "99", unlisted, backwards] + ["1"] * 300
    save = tmp_path / "game.json"
    res = runner.invoke(app, ["play", "don-carlo", "--seats", ",".join(seats), "--seed", str(seed),
                              "--save", str(save)], input="\n".join(lines) + "\n")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "'hello' is not a move" in out
    assert "There is no move 99" in out
    assert f"{unlisted} is not a legal move now" in out
    assert "Your moves" in out and "Greedy 2" in out and "Random 3" in out
    assert "Final result" in out and "Winner:" in out
    assert CLEAR_ALL not in out  # a single person needs no hand-over screen
    rec = GameRecord.load(save)
    assert rec.players == seats and rec.seed == seed and rec.result is not None
    mine = [t for a, t in rec.entries if a == 0]
    assert mine[0] == typed
    res = runner.invoke(app, ["replay", str(save)])
    assert res.exit_code == 0, res.output
    assert "matches the saved result" in res.output


def test_play_in_german() -> None:
    res = runner.invoke(app, ["play", "don-carlo", "--seats", "you,random", "--seed", "1", "--lang", "de"],
                        input="1\n" * 300)
    assert res.exit_code == 0, res.output
    assert "Deine Züge" in res.output and "Endergebnis" in res.output and "Gewinner" in res.output


def test_hot_seat_hands_over_and_clears() -> None:
    res = runner.invoke(app, ["play", "don-carlo", "--seats", "you,you,greedy", "--seed", "8"],
                        input="\n1\n" * 300)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Pass the device to Player 1" in out and "Pass the device to Player 2" in out
    assert out.count(CLEAR_ALL) >= 4
    # Between a clear and the next person's table only the hand-over screen shows: no hand.
    for chunk in out.split(CLEAR_ALL)[1:]:
        if "Pass the device" in chunk:
            assert "Your hand" not in chunk and "Your moves" not in chunk


def test_play_ends_cleanly_at_end_of_input(tmp_path: Path) -> None:
    save = tmp_path / "partial.json"
    args = ["play", "don-carlo", "--seats", "you,random", "--seed", "2", "--save", str(save)]
    res = runner.invoke(app, args, input="1\n")
    assert res.exit_code == 1
    assert "Game aborted" in res.output and "Traceback" not in res.output
    rec = GameRecord.load(save)
    assert rec.result is None and rec.entries  # the game so far, resumable


def test_play_refuses_bad_input() -> None:
    for args, text in [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "don-carlo", "--seats", "you"], "takes 2-4 seats, not 1"),
        (["play", "don-carlo", "--seats", "you,a,b,c,d"], "takes 2-4 seats, not 5"),
        (["play", "don-carlo", "--seats", "you,genius"], "unknown bot 'genius'"),
        (["play", "don-carlo", "--seats", "you,random", "--option", "majority_tie=maybe"], "majority_tie"),
        (["play", "don-carlo", "--seats", "you,random", "--option", "speed=3"], "unknown option 'speed'"),
        (["play", "don-carlo", "--seats", "you,random", "--option", "speed"], "NAME=VALUE"),
        (["play", "don-carlo", "--lang", "fr"], "unknown language"),
        (["simulate", "don-carlo", "--seats", "you,random"], "seat bots only"),
    ]:
        res = runner.invoke(app, args, input="")
        assert res.exit_code == 2, (args, res.output)
        assert text in res.output, (args, res.output)


def simulate_json(*extra: str) -> dict[str, object]:
    res = runner.invoke(app, ["simulate", "don-carlo", "--games", "20", "--seats", "greedy,random,random",
                              "--seed", "1", "--json", *extra])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert isinstance(data, dict)
    return data


def test_simulate_json_keys_and_reproducible() -> None:
    data = simulate_json()
    assert {"game", "games", "seats", "mean_actions"} <= set(data)
    assert data["game"] == "don-carlo" and data["games"] == 20
    seats = data["seats"]
    assert isinstance(seats, list) and len(seats) == 3
    for s in seats:
        assert {"bot", "wins", "win_share", "ci95", "mean_score"} <= set(s)
        low, high = s["ci95"]
        assert low <= s["win_share"] <= high
    assert [s["bot"] for s in seats] == ["greedy", "random", "random"]
    assert simulate_json() == data
    assert simulate_json("--workers", "2") == data


def test_simulate_greedy_beats_random() -> None:
    res = runner.invoke(app, ["simulate", "don-carlo", "--games", "200", "--seats", "random,greedy,random",
                              "--seed", "42", "--json"])
    assert res.exit_code == 0, res.output
    seats = json.loads(res.stdout)["seats"]
    assert seats[1]["win_share"] > 0.6
    assert seats[1]["win_share"] > seats[0]["win_share"] + seats[2]["win_share"]


def test_simulate_table_and_save_dir(tmp_path: Path) -> None:
    res = runner.invoke(app, ["simulate", "don-carlo", "--games", "5", "--seats", "greedy,random",
                              "--save-dir", str(tmp_path / "recs"), "--option", "majority_tie=none"])
    assert res.exit_code == 0, res.output
    assert "Win share" in res.output and "95% CI" in res.output and "Mean game length" in res.output
    files = sorted((tmp_path / "recs").glob("*.json"))
    assert len(files) == 5
    assert GameRecord.load(files[0]).options["majority_tie"] == "none"
    res = runner.invoke(app, ["replay", str(files[0]), "--lang", "de"])
    assert res.exit_code == 0, res.output
    assert "stimmt mit dem gespeicherten überein" in res.output


def saved_game(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    res = runner.invoke(app, ["play", "don-carlo", "--seats", "greedy,random,greedy", "--seed", "5",
                              "--save", str(path)])
    assert res.exit_code == 0, res.output
    return path


def test_replay_hides_draws_from_spectators(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    spectator = runner.invoke(app, ["replay", str(path)])
    assert spectator.exit_code == 0, spectator.output
    assert "as seen by Spectator" in spectator.output
    assert "Greedy 1 draws a card" in spectator.output
    assert "Greedy 1 draws a 0" not in spectator.output and "Greedy 1 draws a 3" not in spectator.output
    seat1 = runner.invoke(app, ["replay", str(path), "--viewer", "1"])
    assert seat1.exit_code == 0
    assert "Greedy 1 draws a " in seat1.output.replace("Greedy 1 draws a card", "")
    assert "Random 2 draws a card" in seat1.output
    assert "matches the saved result" in seat1.output


def test_replay_step_waits_for_enter(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    res = runner.invoke(app, ["replay", str(path), "--step"], input="\n" * 5)
    assert res.exit_code == 0, res.output
    assert res.output.count("Press Enter for the next move") == 6  # the 6th meets end of input
    assert "matches the saved result" in res.output


def test_replay_refuses_other_versions_and_bad_files(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    data = json.loads(path.read_text())
    data["rules_version"] = "999"
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(data))
    res = runner.invoke(app, ["replay", str(wrong)])
    assert res.exit_code == 2
    assert "rules version '999'" in res.output
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    res = runner.invoke(app, ["replay", str(junk)])
    assert res.exit_code == 2 and "cannot read game record" in res.output
    res = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert res.exit_code == 2


def test_replay_detects_a_wrong_saved_result(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    data = json.loads(path.read_text())
    data["result"]["scores"][0] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    res = runner.invoke(app, ["replay", str(bad)])
    assert res.exit_code == 1
    assert "differs from the saved result" in res.output


def test_bench_json() -> None:
    res = runner.invoke(app, ["bench", "--game", "don-carlo", "--players", "4", "--seconds", "0.2", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert {"game", "players", "games_per_s", "actions_per_s", "clone_us"} <= set(data)
    assert data["game"] == "don-carlo" and data["players"] == 4
    res = runner.invoke(app, ["bench", "--game", "don-carlo", "--players", "7", "--seconds", "0.1"])
    assert res.exit_code == 2 and "2-4 players" in res.output
