"""Rules data overrides on the server: the lobby's list, a table that carries them, refusals.

A table's overrides travel in its options under ``"data"``: the lobby lists each game's specs
with their words (``/api/meta``), a new table stores what was changed, the join page and every
update say so in words, the record carries it (so the game replays exactly), the table's
drawings get the table's data, and a bad value is refused (400, ``game/bad_data``) before
anything is stored.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tablero.core.errors import DataError
from tablero.core.match import Match
from tablero.core.messages import LANGUAGES, Message, Translator
from tablero.core.protocol import Game, data_json
from tablero.core.record import GameRecord
from tablero.registry import GAMES
from tablero.server.advanced import data_meta
from tablero.server.service import GameService

from .conftest import client, create, hello

BOTS = [{"kind": "bot", "bot": "random"}] * 3
CHANGED = {"variant": "beginner", "data": {"BEGINNER_GOAL": 40}}


def expected_label(game: Game[Any, Any, Any], name: str, lang: str) -> str:
    """The catalogue's ``data.<NAME>`` (a row field ``TABLE.ID.FIELD``: ``data.<TABLE>.<FIELD>`` with the
    row as ``{id}``, named by ``data.<TABLE>.name`` where the catalogue has it)."""
    tr = Translator(lang, [game.catalogue()])
    parts = name.split(".")
    key, params = f"data.{name}", {}
    if len(parts) >= 3:
        row, named = ".".join(parts[1:-1]), f"data.{parts[0]}.name"
        key, params = f"data.{parts[0]}.{parts[-1]}", {"id": Message(named, id=row) if named in tr.table else row}
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
    # a row is named in its label (a region, a border by its regions, a card by its printed name), so the
    # filter finds it by the word a player knows, in either language
    label = {gid: {d["name"]: d["label"] for d in meta[gid]["data"]} for gid in meta}
    region, other = ("Aragón", "Cataluña") if lang == "en" else ("Aragon", "Katalonien")
    assert region in label["el-grande"]["REGIONS.aragon.values"]
    assert f"{region} – {other}" in label["el-grande"]["BORDERS.aragon-cataluna.present"]
    assert "Razzia (A01)" in label["mafia-legend"]["ACTIONS.A01.count"]
    assert "Presse (PRE)" in label["mafia-legend"]["POWERS.PRE.vp"]
    assert "$5 (G5)" in label["mafia-legend"]["MONEY.G5.count"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_row_a_catalogue_names_is_named(lang: str) -> None:
    """Where a game names a table's rows (``data.<TABLE>.name``), no row of its specs keeps its raw id."""
    for game in GAMES.values():
        tr = Translator(lang, [game.catalogue()])
        for spec in game.data_specs:
            parts = spec.name.split(".")
            if len(parts) >= 3 and f"data.{parts[0]}.name" in tr.table:
                row = ".".join(parts[1:-1])
                assert tr(Message(f"data.{parts[0]}.name", id=row)) != row, (game.id, spec.name)


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


REFUSAL = re.compile(r"^data (.+?)(=|: | is | takes )")
"""How the lobby (static/advanced.js ``refusal``) reads the values a refusal names: ``data NAME: …``,
``data NAME=[…]: …``, ``data NAME is …``, ``data NAME takes …``, ``data NAME1, NAME2: …``."""


@pytest.mark.parametrize(("gid", "data", "ruled"), [
    ("el-grande", {"REGIONS.aragon.values": "3,5,1"}, True),  # the spec's own check: descending
    ("el-grande", {"CLASS_SCORINGS.3C.classes": []}, True),
    ("el-grande", {"BORDERS.aragon-cataluna.present": 0, "BORDERS.cataluna-valencia.present": 0}, True),  # lonely
    ("el-grande", {"CARD_TYPES.3A.count": 1, "CARD_TYPES.3B.count": 1, "CARD_TYPES.3D.count": 1}, True),  # stack 3
    ("don-carlo", {"SUM_BOUNDS": "1,4,4,6,7,8,9,12"}, True),
    ("don-carlo", {"SUM_BOUNDS": "1,4,5,6,7,8,9,8"}, True),
    ("don-carlo", {"FAMILY_COUNTS": "0,0,0,0,0,0,0"}, True),
    ("don-carlo", {"COUNTRIES.egoistrien.players": []}, True),
    ("mafia-legend", {"BEGINNER_GOAL": 5}, False),  # out of range: the lobby's own check words it
])
def test_a_refused_value_is_named_and_its_rule_is_worded_in_each_language(
        sqlite_url: str, gid: str, data: dict[str, Any], ruled: bool) -> None:
    """A game's whole-value check (a spec's ``check`` or one across values) refuses with a message that
    names the values; each value it names has the catalogue's ``rule`` in both languages, which the lobby
    says next to the field in the page's language (the server's reason is English)."""
    with client(sqlite_url) as c:
        r = c.post("/api/games", json={"game": gid, "seats": BOTS, "options": {"data": data}})
        assert r.status_code == 400 and r.json()["error"]["code"] == "game/bad_data"
        message = r.json()["error"]["message"]
        m = REFUSAL.match(message)
        assert m is not None, message
        names = m.group(1).split(", ")
        assert set(names) <= set(data), message  # values the player changed
        for lang in LANGUAGES:
            meta = {d["name"]: d for g in c.get(f"/api/meta?lang={lang}").json()["games"] if g["id"] == gid
                    for d in g["data"]}
            assert all(bool(meta[name]["rule"]) == ruled for name in names), (lang, names)


def test_every_value_with_a_check_has_its_rule_in_both_languages() -> None:
    for game in GAMES.values():
        for spec in game.data_specs:
            if spec.check is not None:
                rules = {lang: {d["name"]: d["rule"] for d in data_meta(game, lang)}[spec.name] for lang in LANGUAGES}
                assert all(rules.values()) and rules["en"] != rules["de"], (game.id, spec.name, rules)


def test_a_value_given_as_the_usual_one_is_no_change_in_words(sqlite_url: str) -> None:
    """The API takes a value equal to the usual one (the record keeps it); the table does not call it changed."""
    with client(sqlite_url) as c:
        g = create(c, "mafia-legend", BOTS, options={"variant": "beginner",
                                                     "data": {"BEGINNER_GOAL": 50, "MONTHS": 6}})
        info = c.post(f"/api/games/{g['id']}/invitation", json={"invite": "x", "lang": "en"}).json()
    assert [d["name"] for d in info["data"]] == ["MONTHS"]
    assert info["data"][0]["value"] == "6" and info["data"][0]["usual"] == "12"


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


def test_a_stored_game_whose_overrides_no_longer_pass_is_left_out_and_the_server_starts(tmp_path: Any) -> None:
    """A later version may narrow a range: a running table stored with a value it now refuses is
    not resumed (a warning), every other table is, and opening that one gives its error."""
    from sqlalchemy import text

    from tablero.server.store import make_engine

    url = f"sqlite:///{tmp_path / 'old.db'}"
    with client(url) as c:
        bad = create(c, "mafia-legend", BOTS, options=CHANGED)
        good = create(c, "don-carlo", [{"kind": "you"}, *BOTS[:2]])
    engine = make_engine(url)
    with engine.begin() as conn:  # as if this version allowed no goal below 45
        conn.execute(text("UPDATE games SET options = :o WHERE id = :i"),
                     {"o": '{"variant": "beginner", "data": {"BEGINNER_GOAL": 5}}', "i": bad["id"]})
    engine.dispose()
    with client(url) as c:
        with c.websocket_connect(f"/ws/{good['id']}") as ws:
            assert hello(ws, [good["tokens"]["0"]])["viewer"] == 0
        refused = c.get(f"/api/games/{bad['id']}/table-data")
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "game/bad_data"
