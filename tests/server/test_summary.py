"""The end screen's summary (tablero/server/summary.py): score sheet and scores over time."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tablero.core.match import UNDO, Match
from tablero.core.messages import Translator
from tablero.registry import GAMES
from tablero.server.app import create_app
from tablero.server.summary import build, public_scores, render

from .conftest import FakeClock, hello
from .test_api import act, create, until_turn


def _random_match(gid: str, n: int, seed: int, options: dict[str, Any] | None = None, *,
                  undo_rate: float = 0.0) -> Match[Any, Any, Any]:
    """A random game to the end; with ``undo_rate``, each move the seat may take back is taken back that often."""
    m: Match[Any, Any, Any] = Match(GAMES[gid], [f"P{i}" for i in range(n)], options=options, seed=seed,
                                    undo=undo_rate > 0)
    rng = Random(seed)
    while not m.is_over():
        seat = m.pending()[0]
        legal = m.legal(seat)
        m.act(seat, legal[rng.randrange(len(legal))])
        if undo_rate and m.can_undo(seat) and rng.random() < undo_rate:
            m.undo(seat)
    return m


@pytest.mark.parametrize(("gid", "n", "options", "unit"), [
    ("don-carlo", 3, {}, "round"),
    ("el-grande", 4, {"short_game": True}, "round"),
    ("mafia-legend", 3, {"variant": "beginner"}, "month"),
])
def test_the_series_runs_from_nothing_to_the_final_scores(gid: str, n: int, options: dict[str, Any],
                                                          unit: str) -> None:
    game = GAMES[gid]
    m = _random_match(gid, n, 3, options)
    s = build(game, m.record)
    result = m.result()
    assert result is not None and s.result == result
    entries = len(m.record.entries)
    assert s.entries == entries
    xs = [k for k, _ in s.points]
    assert xs[0] == 0 and xs[-1] == entries and xs == sorted(set(xs))
    assert s.points[0][1] == (0.0,) * n
    assert s.points[-1][1] == result.scores
    assert all(len(v) == n for _, v in s.points)
    assert s.sheet is not None and s.sheet.totals == result.scores
    # every score change shows: consecutive points differ
    assert all(a[1] != b[1] for a, b in zip(s.points[:-2], s.points[1:-1], strict=True))
    out = render(s, Translator("de", [game.catalogue()]))
    assert json.loads(json.dumps(out)) == out
    series = out["series"]
    assert series["unit"] == unit
    ats = [x["at"] for x in series["sections"]]
    assert ats and ats == sorted(ats) and ats[0] > 0 and ats[-1] <= entries
    if gid == "el-grande":  # the short game skips rounds 1, 4 and 7
        assert [x["n"] for x in series["sections"]] == [2, 3, 5, 6, 8, 9]
        assert series["sections"][0]["text"] == "Runde 2"
    assert out["sheet"]["total"]["values"] == [int(x) for x in result.scores]
    assert out["result"] == result.to_json()


def test_moves_taken_back_leave_no_points_on_the_sheet() -> None:
    """El Grande: a scoring card announced and then taken back scored in the log, but not in the game."""
    game = GAMES["el-grande"]
    for seed in (0, 3):
        m = _random_match("el-grande", 3, seed, undo_rate=0.5)
        assert any(text == UNDO for _, text in m.record.entries)
        naive = game.score_sheet(m.state, m.log(None))
        assert naive is not None and any(r.label.id == "eg.sheet.earlier" for r in naive.rows), \
            "the seed has a scoring taken back"
        s = build(game, m.record)
        assert s.sheet is not None and s.sheet.totals == s.result.scores
        assert not any(r.label.id == "eg.sheet.earlier" for r in s.sheet.rows)
        assert s.points[-1][1] == s.result.scores


def test_public_scores_reads_the_views_public_part() -> None:
    assert public_scores({"public": {"scores": [1, 2]}}, 2) == (1.0, 2.0)
    assert public_scores({"public": {"vp": [0, 5, 3]}}, 3) == (0.0, 5.0, 3.0)
    assert public_scores({"public": {"scores": [1, 2]}}, 3) is None
    assert public_scores({"public": {"round": 3}}, 2) is None


def test_the_route_serves_the_summary_once_the_game_is_over(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, clock=FakeClock(), tick_seconds=0.02)
    with TestClient(app) as c:
        g = create(c, "don-carlo", [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "greedy", "name": "Bo"}])
        r = c.get(f"/api/games/{g['id']}/summary")
        assert r.status_code == 409 and r.json()["error"]["code"] == "game/not_over"
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = until_turn(ws, 0, hello(ws, [g["tokens"]["0"]]))
            while m["result"] is None:
                act(ws, m)
                m = until_turn(ws, 0, stale_ok=True)  # the bot may commit in the same secret pick
        en = c.get(f"/api/games/{g['id']}/summary?lang=en").json()
        live = app.state.service.live[g["id"]]
        built = live.summary
        assert built is not None
        de = c.get(f"/api/games/{g['id']}/summary?lang=de").json()
        assert live.summary is built, "built once, kept on the table"
        assert en["type"] == "summary" and en["game_id"] == g["id"] and en["game"] == "don-carlo"
        assert en["result"] == m["result"]
        assert en["sheet"]["total"]["values"] == m["result"]["scores"]
        assert en["series"]["points"][-1][1] == m["result"]["scores"]
        assert en["series"] == {**de["series"], "sections": en["series"]["sections"]}
        assert en["sheet"]["total"]["label"] == "Total" and de["sheet"]["total"]["label"] == "Summe"
        groups_en = {row["group"] for row in en["sheet"]["rows"]}
        groups_de = {row["group"] for row in de["sheet"]["rows"]}
        assert "Influence" in groups_en and "Einfluss" in groups_de
        assert c.get(f"/api/games/{g['id']}/summary?lang=xx").json()["lang"] == "en"
        assert c.get("/api/games/nope/summary").status_code == 404
