"""Every game's score sheet (``Game.score_sheet``): its totals recompute the final scores.

Over random games of every game, player count and option variant: the sheet's total row equals
``Result.scores``, every label is a message of the game's catalogue in both languages, the sheet
reads public facts only (a state re-dealt for another seat gives the same sheet), and a game from
the initial position needs no row of points from before the log.
"""

from __future__ import annotations

import json
import re
from random import Random
from typing import Any

import pytest

from tablero.core.match import Match
from tablero.core.messages import LANGUAGES, Message, Translator
from tablero.core.protocol import Game, ScoreSheet, SheetRow
from tablero.registry import GAMES

SEEDS = range(3)
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "el-grande": [{}, {"short_game": True}],
    "mafia-legend": [{"variant": "beginner"}, {"variant": "advanced"}, {"variant": "advanced", "missions": True}],
}
IDENTIFIER = re.compile(r"\b[a-z]+\.[a-z_.]+\b|\b[a-z]+_[a-z_]+\b")
"""A raw message id (``eg.sheet.king``) or engine name (``monthly_bonus``) left in a label."""


def _cases() -> list[Any]:
    out = []
    for gid, game in sorted(GAMES.items()):
        variants = VARIANTS.get(gid, [{}])
        for n in range(game.min_players, game.max_players + 1):
            for seed in SEEDS:
                out.append(pytest.param(gid, n, seed, variants[seed % len(variants)], id=f"{gid}-{n}p-{seed}"))
    return out


def _finished(game: Game[Any, Any, Any], n: int, seed: int, options: dict[str, Any]) -> Match[Any, Any, Any]:
    m: Match[Any, Any, Any] = Match(game, [f"P{i}" for i in range(n)], options=options, seed=seed)
    rng = Random(seed)
    while not m.is_over():
        seat = m.pending()[0]
        legal = m.legal(seat)
        m.act(seat, legal[rng.randrange(len(legal))])
    return m


@pytest.mark.parametrize(("gid", "n", "seed", "options"), _cases())
def test_the_sheet_totals_are_the_final_scores(gid: str, n: int, seed: int, options: dict[str, Any]) -> None:
    game = GAMES[gid]
    m = _finished(game, n, seed, options)
    result = m.result()
    assert result is not None
    sheet = game.score_sheet(m.state, m.log(None))
    assert isinstance(sheet, ScoreSheet)
    assert sheet.players == n
    assert sheet.totals == result.scores
    assert all(isinstance(r, SheetRow) and len(r.values) == n for r in sheet.rows)
    assert not any(r.label.id.endswith(".sheet.earlier") for r in sheet.rows), "every point is in the log"
    assert all(any(r.values) for r in sheet.rows), "rows where nobody scored are left out"
    if any(result.scores):
        assert sheet.rows
    data = json.loads(json.dumps(sheet.to_json()))
    assert data["total"]["values"] == list(result.scores)
    assert [Message.from_json(r["label"]) for r in data["rows"]] == [r.label for r in sheet.rows]
    # public facts only: the final state as another seat could rebuild it gives the same sheet
    view = game.observe(m.state, 0)
    again = game.determinize(view, 0, Random(seed + 100))
    assert game.score_sheet(again, m.log(None)) == sheet


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_every_label_is_worded_in_both_languages(gid: str) -> None:
    game = GAMES[gid]
    catalogue = game.catalogue()
    seen: set[str] = set()
    texts: dict[str, list[str]] = {lang: [] for lang in LANGUAGES}
    for n in range(game.min_players, game.max_players + 1):
        for seed in SEEDS:
            m = _finished(game, n, seed, VARIANTS.get(gid, [{}])[seed % len(VARIANTS.get(gid, [{}]))])
            sheet = game.score_sheet(m.state, m.log(None))
            assert sheet is not None
            for msg in sheet.messages():
                for mid in msg.ids():
                    seen.add(mid)
                for lang in LANGUAGES:
                    texts[lang].append(Translator(lang, [catalogue])(msg))
    sheet_ids = {mid for mid in seen if ".sheet." in mid}
    assert sheet_ids, "the sheet's own labels"
    for lang in LANGUAGES:
        missing = sorted(mid for mid in seen if mid not in catalogue[lang])
        assert not missing, (lang, missing)
        for text in texts[lang]:
            assert text.strip() and not IDENTIFIER.search(text), (lang, text)
    assert texts["en"] != texts["de"], "the German labels are German"


def test_a_game_without_a_sheet_says_none() -> None:
    from tablero.testing import TOY_GAME

    state = TOY_GAME.new_initial_state(2)
    assert TOY_GAME.score_sheet(state, []) is None


def test_a_sheet_checks_its_rows() -> None:
    with pytest.raises(ValueError, match="2 values for 3 seats"):
        ScoreSheet(players=3, rows=(SheetRow(Message("x.row"), (1, 2)),), total=Message("x.total"))
    sheet = ScoreSheet(players=2, rows=(SheetRow(Message("x.a"), (1, 2), Message("x.g")),
                                        SheetRow(Message("x.b"), (3, -1))), total=Message("x.total"))
    assert sheet.totals == (4, 1)
    assert sheet.messages() == [Message("x.total"), Message("x.a"), Message("x.g"), Message("x.b")]
