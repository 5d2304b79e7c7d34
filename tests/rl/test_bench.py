"""make bench-rl: every loop plays whole games through the checked apply and reports decisions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .setups import require

require("pyspiel")

from tablero.rl import bench  # noqa: E402


def test_bench_reports_every_loop_with_costs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rl.json"
    assert bench.main(["--only", "don-carlo", "--seconds", "0.05", "--no-pettingzoo-benchmark",
                       "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert json.loads(capsys.readouterr().out) == doc
    (row,) = doc["results"]
    assert row["game"] == "don-carlo" and row["tensor_size"] > 0
    assert set(row["loops"]) == {"engine", "engine+view", "engine+tensor", "pettingzoo", "pettingzoo-wrapped",
                                 "openspiel", "openspiel+tensor"}
    for loop in row["loops"].values():
        assert loop["games"] >= 1 and loop["decisions"] > 0 and loop["us_per_decision"] > 0
    assert row["loops"]["engine"]["cost"] == 1.0


def test_each_loop_plays_a_whole_game() -> None:
    """Each loop plays one whole game from a seed and counts its decisions and chance entries
    (PettingZoo's forced steps, applied inside, count as decisions too)."""
    table = bench.Table("el-grande", 3, {"short_game": True})
    counts = {
        "engine": bench.engine_loop(table, False)(5),
        "pettingzoo": bench.pettingzoo_loop("el-grande", 3, {"short_game": True}, False)(5),
        "openspiel": bench.openspiel_loop("el-grande", 3, {"short_game": True}, False)(5),
    }
    for decisions, chance in counts.values():
        assert 100 < decisions < 300 and 20 < chance < 60  # a 3-player short game: 6 rounds
