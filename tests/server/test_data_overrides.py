"""Rules data overrides on the server: the lobby's list, a table that carries them, refusals.

A table's overrides travel in its options under ``"data"``: the lobby lists each game's specs
with their words (``/api/meta``), a new table stores what was changed, the join page and every
update say so in words, the record carries it (so the game replays exactly), the table's
drawings get the table's data, and a bad value is refused (400, ``game/bad_data``) before
anything is stored.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tablero.core.errors import DataError
from tablero.core.match import Match
from tablero.core.messages import LANGUAGES, Message, Translator
from tablero.core.protocol import Game, data_json
from tablero.core.record import GameRecord
from tablero.registry import GAMES
from tablero.server.service import GameService

from .conftest import client, create, hello

BOTS = [{"kind": "bot", "bot": "random"}] * 3
CHANGED = {"variant": "beginner", "data": {"BEGINNER_GOAL": 40}}


def expected_label(game: Game[Any, Any, Any], name: str, lang: str) -> str:
    """The catalogue's ``data.<NAME>`` (a row field ``TABLE.ID.FIELD``: ``data.<TABLE>.<FIELD>`` with ``{id}``)."""
    tr = Translator(lang, [game.catalogue()])
    parts = name.split(".")
    key, params = (f"data.{parts[0]}.{parts[-1]}", {"id": ".".join(parts[1:-1])}) if len(parts) >= 3 \
        else (f"data.{name}", {})
    return tr(Message(key, **params)) if key in tr.table else name


def wait_over(service: GameService, gid: str, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not service.get(gid).match.is_over():
        assert time.monotonic() < end, "the bots did not finish the game"
        time.sleep(0.02)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_meta_lists_each_games_data_with_labels_in_the_language(sqlite_url: str, lang: str) -> None:
    with client(sqlite_url) as c:
        meta = {g["id"]: g for g in c.get(f"/api/meta?lang={lang}").json()["games"]}
        light = c.get(f"/api/meta?lang={lang}&data=false").json()["games"]  # what the table asks for
    assert [g["data"] for g in light] == [[] for _ in GAMES]
    for gid, game in GAMES.items():
        listed = meta[gid]["data"]
        assert [d["name"] for d in listed] == [s.name for s in game.data_specs]
        for d, spec in zip(listed, game.data_specs, strict=True):
            assert {k: d[k] for k in spec.to_json()} == spec.to_json()
            assert d["label"] == expected_label(game, spec.name, lang)
            assert spec.parse(d["text"]) == spec.default  # the placeholder is the usual value, as the field takes it
    names = [d["name"] for d in meta["mafia-legend"]["data"]]
    assert "BEGINNER_GOAL" in names and "GOAL" in names


def test_a_table_with_changed_data_stores_them_says_so_and_its_record_carries_them(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        service: GameService = c.app.state.service  # type: ignore[attr-defined]
        g = create(c, "mafia-legend", BOTS, options=CHANGED)
        assert service.get(g["id"]).stored.options["data"] == {"BEGINNER_GOAL": 40}
        words = {}
        for lang in LANGUAGES:
            # the join page (any invite, even an unknown one, shows the table's facts)
            info = c.post(f"/api/games/{g['id']}/invitation", json={"invite": "x", "lang": lang}).json()
            label = expected_label(GAMES["mafia-legend"], "BEGINNER_GOAL", lang)
            words[lang] = [{"name": "BEGINNER_GOAL", "label": label, "value": "40", "usual": "50"}]
            assert info["data"] == words[lang]
            with c.websocket_connect(f"/ws/{g['id']}") as ws:
                assert hello(ws, [], lang=lang)["data_changes"] == words[lang]  # every viewer's update
        wait_over(service, g["id"])
        record = c.get(f"/api/games/{g['id']}/record").json()
        assert record["options"]["data"] == {"BEGINNER_GOAL": 40}
        replayed = Match.from_record(GAMES["mafia-legend"], GameRecord.from_json(record))
        assert replayed.result() is not None and replayed.result().to_json() == record["result"]  # type: ignore[union-attr]
        plain = create(c, "mafia-legend", BOTS, options={"variant": "beginner"})
        assert "data" not in service.get(plain["id"]).stored.options
        info = c.post(f"/api/games/{plain['id']}/invitation", json={"invite": "x", "lang": "en"}).json()
        assert info["data"] == []


GOAL_SPEC = next(s for s in GAMES["mafia-legend"].data_specs if s.name == "BEGINNER_GOAL")


@pytest.mark.parametrize(("data", "says"), [
    ({"BEGINNER_GOAL": (GOAL_SPEC.low or 0) - 1},
     ["BEGINNER_GOAL", str((GOAL_SPEC.low or 0) - 1), "out of range", f"{GOAL_SPEC.low}..{GOAL_SPEC.high}"]),
    ({"BEGINNER_GOAL": "forty"}, ["BEGINNER_GOAL", "whole number", "forty"]),
    ({"BEGINNER_GOAL": "40,50"}, ["BEGINNER_GOAL", "one whole number"]),
    ({"NO_SUCH_VALUE": 3}, ["NO_SUCH_VALUE", "BEGINNER_GOAL"]),
    ([40], ["NAME=VALUE"]),
])
def test_bad_data_is_refused_clearly_and_creates_nothing(sqlite_url: str, data: Any, says: list[str]) -> None:
    with client(sqlite_url) as c:
        service: GameService = c.app.state.service  # type: ignore[attr-defined]
        r = c.post("/api/games", json={"game": "mafia-legend", "seats": BOTS,
                                       "options": {"variant": "beginner", "data": data}})
        assert r.status_code == 400
        error = r.json()["error"]
        assert error["code"] == "game/bad_data"
        for part in says:
            assert part in error["message"]
        assert c.get("/api/games").json()["games"] == []
        assert service.store.ids("running") == [] and not service.live


def test_the_table_page_draws_with_the_tables_data(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """/api/games/ID/table-data is the game's table data for the table's options (its overrides)."""
    game = GAMES["mafia-legend"]
    shown = game.table_data

    def table_data(options: Any = None) -> dict[str, Any]:
        return {**shown(options), "given": dict((options or {}).get("data") or {})}

    with client(sqlite_url) as c:
        changed = create(c, "mafia-legend", BOTS, options=CHANGED)
        plain = create(c, "mafia-legend", BOTS, options={"variant": "beginner"})
        page = c.get(f"/game/{changed['id']}").text
        assert '<script src="/static/app/advanced.js"></script>' in page
        got = c.get(f"/api/games/{changed['id']}/table-data").json()
        assert got == game.table_data({**game.resolve_options(3, CHANGED)})
        monkeypatch.setattr(game, "table_data", table_data)
        assert c.get(f"/api/games/{changed['id']}/table-data").json()["given"] == {"BEGINNER_GOAL": 40}
        assert c.get(f"/api/games/{plain['id']}/table-data").json()["given"] == {}
        assert c.get("/api/games/nope/table-data").status_code == 404


def an_override_the_drawings_show(game: Game[Any, Any, Any]) -> tuple[str, object]:
    """A value of ``game`` whose override (the usual number ± 1, where valid) changes its table data."""
    plain = game.table_data(game.resolve_options(game.min_players))
    for spec in game.data_specs:
        if not isinstance(spec.default, int):
            continue
        for v in (spec.default + 1, spec.default - 1):
            try:
                options = game.resolve_options(game.min_players, {"data": {spec.name: v}})
            except DataError:  # out of range, or refused by the spec's own check
                continue
            if game.table_data(options) != plain:
                return spec.name, data_json(v)
    raise AssertionError(f"no override of {game.id} shows in its table data")


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_an_override_the_drawings_show_reaches_the_table(sqlite_url: str, gid: str) -> None:
    game = GAMES[gid]
    name, value = an_override_the_drawings_show(game)
    seats = [{"kind": "bot", "bot": "random"}] * game.min_players
    with client(sqlite_url) as c:
        g = create(c, gid, seats, options={"data": {name: value}})
        got = c.get(f"/api/games/{g['id']}/table-data").json()
        usual = c.get(f"/api/table-data/{gid}").json()
    assert got == game.table_data(game.resolve_options(game.min_players, {"data": {name: value}}))
    assert got != usual
