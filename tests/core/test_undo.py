"""Take-backs: within a seat's own turn only, as record entries that replay."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from tablero.core.errors import IllegalActionError
from tablero.core.match import UNDO, Match, replay
from tablero.core.protocol import CHANCE
from tablero.core.record import GameRecord
from tablero.registry import GAMES
from tablero.testing.toygame import ToyGame

CASES = [("don-carlo", 3, {}), ("el-grande", 2, {"short_game": True}), ("el-grande", 4, {}),
         ("mafia-legend", 3, {"variant": "beginner"}), ("toy", 3, {})]


def _game(gid: str) -> Any:
    return ToyGame() if gid == "toy" else GAMES[gid]


def _views(m: Match[Any, Any, Any]) -> list[Any]:
    return [m.view(v) for v in [*range(m.players), None]]


@pytest.mark.parametrize(("gid", "n", "opts"), CASES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_with_undos_replay_exactly(gid: str, n: int, opts: dict[str, Any], seed: int) -> None:
    game = _game(gid)
    m = Match(game, [f"p{i}" for i in range(n)], options=opts, seed=seed, undo=True)
    rng = Random(seed)
    stack: list[tuple[int, list[Any]]] = []
    undos = 0
    steps = 0
    while m.pending() and steps < 3000:
        steps += 1
        p = m.pending()[0]
        if m.can_undo(p) and rng.random() < 0.3:
            seat, before = stack.pop()
            assert seat == p
            m.undo(p)
            undos += 1
            assert _views(m) == before, "a take-back restores every seat's view"
            assert m.record.entries[-1] == (p, UNDO)
            continue
        stack.append((p, _views(m)))
        legal = m.legal(p)
        m.act(p, legal[rng.randrange(len(legal))])
    # Don Carlo (and the toy game) draw after every decision: nothing there can be taken back.
    assert undos > 0 or gid in ("don-carlo", "toy")
    rebuilt = Match.from_record(game, GameRecord.from_json(m.record.to_json()))
    assert _views(rebuilt) == _views(m)
    assert [rebuilt.log(v) for v in range(n)] == [m.log(v) for v in range(n)]
    state = replay(game, m.record)
    assert [game.observe(state, v) for v in range(n)] == [m.view(v) for v in range(n)]


def test_undo_is_refused_after_a_draw_and_after_another_seat() -> None:
    game = GAMES["don-carlo"]
    m = Match(game, ["a", "b", "c"], seed=5, undo=True)
    p = m.pending()[0]
    m.act(p, m.legal(p)[0])
    # Don Carlo: a play is followed by the player's draws (chance) or the next seat's turn.
    after = m.record.entries[-1][0]
    assert after == CHANCE or after != p
    assert not m.can_undo(p)
    before = (list(m.record.entries), _views(m))
    with pytest.raises(IllegalActionError):
        m.undo(p)
    assert (list(m.record.entries), _views(m)) == before


def test_el_grande_placement_taken_back_and_logged_for_everyone() -> None:
    game = GAMES["el-grande"]
    m = Match(game, ["Ana", "Bo"], options={"short_game": True}, seed=3, undo=True)
    rng = Random(0)
    while True:  # play until a seat can take back a decision
        p = m.pending()[0]
        if m.can_undo(p):
            break
        legal = m.legal(p)
        m.act(p, legal[rng.randrange(len(legal))])
    other = 1 - p
    assert not m.can_undo(other)
    with pytest.raises(IllegalActionError):
        m.undo(other)
    m.undo(p)
    lines = [m.log(v)[-1] for v in (0, 1, None)]
    assert all(line.id == "core.undo" and line.get("seat") == p for line in lines)
