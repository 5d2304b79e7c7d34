"""The worked training example (examples/train_don_carlo.py) runs end to end with tiny settings.

It needs the ``train`` extra (torch, stable-baselines3, sb3-contrib), which ``make test`` does
not install: without sb3-contrib the test skips.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("sb3_contrib")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_don_carlo.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_don_carlo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("train_don_carlo", module)
    spec.loader.exec_module(module)
    return module


def test_a_tiny_run_writes_the_curve_and_the_evaluation_with_intervals(tmp_path: Path) -> None:
    example = _load()
    out = tmp_path / "run"
    assert example.main(["--out", str(out), "--steps", "256", "--eval-games", "3", "--window", "20"]) == 0

    assert (out / "curve.png").stat().st_size > 10_000
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    results = json.loads((out / "results.json").read_text())
    assert {"game", "players", "algorithm", "steps", "phase_steps", "episodes", "seconds", "settings", "curve",
            "evaluation"} <= set(results)
    assert (results["game"], results["players"]) == ("don-carlo", 3)
    assert results["steps"] >= 256
    assert results["phase_steps"]["random"] > 0 and results["phase_steps"]["greedy"] > 0
    assert sum(results["phase_steps"].values()) == results["steps"]
    assert results["settings"]["seed"] == 0 and results["settings"]["net"] == [128, 128]

    curve = results["curve"]
    assert {p["phase"] for p in curve} == {"random", "greedy"}
    assert [p["steps"] for p in curve] == sorted(p["steps"] for p in curve)
    assert all(0 <= p["win_share"] <= 1 and 1 <= p["episodes"] <= 20 for p in curve)

    evaluation = results["evaluation"]
    assert evaluation["games"] == 3
    for policy in ("trained", "untrained", "random_play"):
        for opponents in ("random", "greedy"):
            e = evaluation[policy][opponents]
            low, high = e["ci95"]
            assert e["games"] == 3
            assert 0 <= low <= e["win_share"] <= high <= 1 and low < high
            assert e["win_share"] == pytest.approx(e["wins"] / 3, abs=1e-4)
            assert len(e["by_seat"]) == 3  # one game in each seat: the seats cycle
            assert e["win_share"] == pytest.approx(sum(e["by_seat"]) / 3, abs=1e-3)
    assert (out / "model.zip").exists()


def test_arguments_are_checked() -> None:
    example = _load()
    with pytest.raises(SystemExit):
        example.parse_args(["--out", "x", "--first-share", "1.5"])
    args = example.parse_args(["--out", "x"])
    assert (args.steps, args.seed, args.eval_games) == (300_000, 0, 1000)
