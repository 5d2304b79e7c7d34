"""``make bench-bots`` on a tiny scale: a strength match with rotated seats, a speed row, the
report merged into its file and printed as Markdown tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablero import botbench


def test_a_tiny_bench_writes_json_and_prints_its_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "bench.json"
    monkeypatch.setattr(botbench, "MATCHES", (
        ("don-carlo", ("ismcts:iterations=4:depth=2", "random", "random"), "a goal"),
        ("el-grande", ("hard", "greedy", "greedy", "greedy"), "not run"),
    ))
    monkeypatch.setattr(botbench, "PLAYER_COUNTS", {"don-carlo": (3,)})
    assert botbench.main(["--out", str(out), "--only", "don-carlo", "--games", "3", "--workers", "1",
                          "--points", "1", "--match", "ismcts"]) == 0
    report = json.loads(out.read_text())
    row = report["strength"]["don-carlo/ismcts:iterations=4:depth=2,random,random"]
    assert row["games"] == 3 and row["rotate"] and row["goal"] == "a goal"
    assert set(row["by_bot"]) == {"ismcts:iterations=4:depth=2", "random"}
    assert row["by_bot"]["random"]["games"] == 6  # two seats in each of three games
    assert sum(s["win_share"] * s["games"] for s in row["by_bot"].values()) == pytest.approx(3)
    assert list(report["speed"]) == ["don-carlo/3/medium", "don-carlo/3/hard"]
    speed = report["speed"]["don-carlo/3/medium"]
    assert speed["decisions"] == 1 and speed["iterations_per_s"] > 0 and speed["budget"]["iterations"] == 250

    capsys.readouterr()
    assert botbench.main(["--out", str(out), "--table"]) == 0
    table = capsys.readouterr().out
    lines = table.splitlines()
    bot = "ismcts:iterations=4:depth=2"
    share = row["by_bot"][bot]["win_share"]
    assert f"| Don Carlo | {bot},random,random | {bot} | 3 | {share:.2f} |" in table
    assert sum(line.startswith("| Don Carlo | 3 | ") for line in lines) == 2
    assert json.loads(out.read_text()) == report, "printing the tables leaves the report alone"
