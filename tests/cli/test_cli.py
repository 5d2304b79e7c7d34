"""The tablero command: play (one person, hot-seat), simulate, replay, analyze, bench, errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tablero.bots import make_bot
from tablero.cli.main import app
from tablero.cli.tui import CLEAR_ALL
from tablero.core.match import UNDO, Match, bot_rng
from tablero.core.record import GameRecord
from tablero.registry import GAMES, get_game

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


def test_play_against_a_search_bot_says_how_long_it_thought() -> None:
    res = runner.invoke(app, ["play", "don-carlo", "--seats", "you,ismcts:iterations=5", "--seed", "3"],
                        input="1\n" * 40)
    assert res.exit_code == 0, res.output
    assert "Search bot 2 thought" in res.output
    assert "iterations" not in res.output  # the parameters stay out of the seat's name


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
    assert data["rotate"] is False
    by_bot = data["by_bot"]
    assert isinstance(by_bot, dict) and set(by_bot) == {"greedy", "random"}
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


def test_simulate_rotate_json() -> None:
    data = simulate_json("--rotate", "--games", "12", "--seats", "random,random,greedy")
    assert data["rotate"] is True and data["games"] == 12
    seats = data["seats"]
    assert isinstance(seats, list) and [s["bot"] for s in seats] == ["rotated"] * 3
    by_bot = data["by_bot"]
    assert isinstance(by_bot, dict) and set(by_bot) == {"random", "greedy"}
    assert sum(b["wins"] for b in by_bot.values()) == 12
    assert by_bot["random"]["games"] == 24 and by_bot["greedy"]["games"] == 12
    for b in by_bot.values():
        low, high = b["ci95"]
        assert 0 <= low <= b["win_share"] <= high <= 1
    assert by_bot["greedy"]["win_share"] > 0.6
    assert simulate_json("--rotate", "--games", "12", "--seats", "random,random,greedy", "--workers", "2") == data


def test_simulate_rotate_table_shows_every_bot(tmp_path: Path) -> None:
    res = runner.invoke(app, ["simulate", "don-carlo", "--games", "6", "--seats", "greedy,random,random",
                              "--rotate", "--save-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "rotated" in res.output and "Per bot" in res.output and "Seat-games" in res.output
    pooled = res.output[res.output.index("Per bot"):]
    assert "greedy" in pooled and "random" in pooled
    assert "Seat 1" in res.output and "Greedy 1" not in res.output  # positions, not bots
    players = [GameRecord.load(f).players for f in sorted(tmp_path.glob("*.json"))]
    assert [p.index("greedy") for p in players] == [0, 2, 1, 0, 2, 1]
    de = runner.invoke(app, ["simulate", "don-carlo", "--games", "3", "--seats", "greedy,random",
                             "--rotate", "--lang", "de"])
    assert de.exit_code == 0, de.output
    assert "rotiert" in de.output and "Je Bot" in de.output


def test_simulate_bots_with_parameters() -> None:
    data = simulate_json("--games", "2", "--seats", "ISMCTS:iterations=5, greedy, mcts-cheat:iterations=5",
                         "--rotate")
    by_bot = data["by_bot"]
    assert isinstance(by_bot, dict)
    assert set(by_bot) == {"ismcts:iterations=5", "greedy", "mcts-cheat:iterations=5"}
    res = runner.invoke(app, ["simulate", "don-carlo", "--seats", "ismcts:iterations=0,greedy", "--games", "1"])
    assert res.exit_code == 2 and "iterations" in res.output


def test_play_refuses_the_peeking_bot() -> None:
    for seats in ("you,mcts-cheat", "you,random, MCTS-Cheat:iterations=5"):
        res = runner.invoke(app, ["play", "don-carlo", "--seats", seats], input="")
        assert res.exit_code == 2, res.output
        text = " ".join(res.output.split())  # the message may wrap
        assert "'mcts-cheat" in text and "never plays at a table with people" in text


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


# ---------------------------------------------------------------------------- analyze
RECORDS = sorted((Path(__file__).parent.parent / "data" / "records").glob("*.json"))


def analyze_json(path: Path, seat: int, *extra: str) -> dict[str, Any]:
    res = runner.invoke(app, ["analyze", str(path), "--seat", str(seat), "--json", *extra])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert isinstance(data, dict)
    return data


def check_analysis(path: Path, seat: int, data: dict[str, Any]) -> None:
    """The decisions are exactly the seat's choices in the record, each ranked over its legal moves."""
    record = GameRecord.load(path)
    game = get_game(record.game)
    assert data["game"] == record.game and data["seat"] == seat
    decisions = {d["index"]: d for d in data["decisions"]}
    assert list(decisions) == sorted(decisions)
    for index, actor, text, match in Match.walk_record(game, record):
        if actor != seat or text == UNDO:
            assert index not in decisions
            continue
        legal = [a.to_text() for a in match.legal(seat)]
        if index not in decisions:  # a forced step the rules do not ask about
            assert len(legal) == 1 and not game.always_asked(match.state, seat)
            continue
        d = decisions[index]
        assert record.entries[index][0] == seat and record.entries[index][1] == d["chosen"] == text
        assert d["chosen"] in legal
        options = d["options"]
        assert sorted(o["text"] for o in options) == sorted(legal)
        visits = [o["visits"] for o in options]
        assert visits == sorted(visits, reverse=True)  # best first
        assert d["best"] == options[0]["text"]
        assert all(0 <= o["value"] <= 1 for o in options) and d["loss"] >= 0
    losses = [d["loss"] for d in data["decisions"]]
    if losses and max(losses) > 0:
        assert decisions[data["worst"]]["loss"] == max(losses)
    else:
        assert data["worst"] is None


def test_analyze_every_game_json() -> None:
    assert {GameRecord.load(p).game for p in RECORDS} == set(GAMES)
    for path in RECORDS:
        data = analyze_json(path, 2, "--iterations", "2")
        assert data["budget"]["iterations"] == 2 and data["budget"]["seconds"] is None
        assert data["decisions"], path
        check_analysis(path, 1, data)


def test_analyze_a_simulated_game_and_seconds(tmp_path: Path) -> None:
    res = runner.invoke(app, ["simulate", "don-carlo", "--games", "2", "--seats", "greedy,random,random",
                              "--rotate", "--seed", "4", "--save-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    path = sorted(tmp_path.glob("*.json"))[1]
    seat = GameRecord.load(path).players.index("greedy")
    data = analyze_json(path, seat + 1, "--seconds", "0.01")
    assert data["budget"]["iterations"] is None and data["budget"]["seconds"] == 0.01
    check_analysis(path, seat, data)
    assert analyze_json(path, seat + 1, "--seconds", "5", "--iterations", "3")["budget"]["iterations"] == 3


def test_analyze_table_marks_the_biggest_mistake() -> None:
    path = next(p for p in RECORDS if p.name.startswith("don-carlo"))
    data = analyze_json(path, 1, "--iterations", "20")
    worst = data["worst"]
    assert worst is not None
    res = runner.invoke(app, ["analyze", str(path), "--seat", "1", "--iterations", "20"])
    assert res.exit_code == 0, res.output
    assert "Greedy 1" in res.output and "Played" in res.output and "Loss" in res.output
    lines = res.output.splitlines()
    marked = [i for i, line in enumerate(lines) if "← biggest mistake" in line]
    assert len(marked) == 1
    # The mark sits under the move played, in the row of that entry (counted from 1, as in replay).
    assert re.match(rf"│\s+{worst + 1} │", lines[marked[0] - 1]), lines[marked[0] - 1]
    best = data["decisions"][0]["options"][0]
    assert f"{best['value']:.0%}  {best['text']}" in res.output
    text = " ".join(res.output.split())
    assert f"Biggest mistake: entry {worst + 1}," in text
    de = runner.invoke(app, ["analyze", str(path), "--seat", "1", "--iterations", "20", "--lang", "de"])
    assert de.exit_code == 0, de.output
    assert "größter Fehler" in de.output and "Gierig 1" in de.output


def test_analyze_refuses_bad_input(tmp_path: Path) -> None:
    path = next(p for p in RECORDS if p.name.startswith("don-carlo"))
    for seat in ("0", "4"):
        res = runner.invoke(app, ["analyze", str(path), "--seat", seat])
        assert res.exit_code == 2, res.output
        assert "--seat must be a seat number 1-3" in " ".join(res.output.split())
    res = runner.invoke(app, ["analyze", str(path), "--seat", "1", "--seconds", "0"])
    assert res.exit_code == 2 and "seconds must be positive" in res.output
    data = json.loads(path.read_text())
    data["rules_version"] = "999"
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(data))
    res = runner.invoke(app, ["analyze", str(wrong), "--seat", "1"])
    assert res.exit_code == 2 and "rules version '999'" in res.output
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    res = runner.invoke(app, ["analyze", str(junk), "--seat", "1"])
    assert res.exit_code == 2 and "cannot read game record" in res.output
    data = json.loads(path.read_text())
    data["entries"][20][1] = "9/9/9"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    res = runner.invoke(app, ["analyze", str(broken), "--seat", "1", "--iterations", "2"])
    assert res.exit_code == 2, res.output
