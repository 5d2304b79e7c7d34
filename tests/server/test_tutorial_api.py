"""The tutorial API (tablero/server/tutorial.py) and page: stateless steps, seat 0's payload,
refusals that change nothing, both languages, the lobby's "Learn to play" links."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tablero.core.messages import Translator
from tablero.registry import GAMES, get_tutorial
from tablero.server.app import create_app
from tablero.server.i18n import UI


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, bot_delay=0)) as c:
        yield c


@pytest.mark.parametrize("lang", ["en", "de"])
def test_steps_listed_in_each_language(client: TestClient, lang: str) -> None:
    for gid in GAMES:
        tut = get_tutorial(gid)
        tr = Translator(lang, [tut.game.catalogue(), tut.catalogue], tut.names)
        r = client.get(f"/api/tutorial/{gid}?lang={lang}")
        assert r.status_code == 200
        body = r.json()
        assert body["heading"] == tr(tut.title) and body["lang"] == lang
        assert [s["task"] for s in body["steps"]] == [tr(s.task) for s in tut.steps]


def test_a_step_shows_seat_0_then_refuses_and_accepts(client: TestClient) -> None:
    tut = get_tutorial("el-grande")
    k = next(i for i, s in enumerate(tut.steps) if s.id == "place")
    start = client.post(f"/api/tutorial/el-grande/{k}", json={"moves": [], "lang": "en"}).json()
    p = start["payload"]
    assert start["accepted"] is None and start["say"] is None and not start["done"]
    assert p["viewer"] == 0 and 0 in p["pending"] and p["seats"][0]["name"] == "Ana"
    texts = [m["text"] for m in p["legal"]]
    assert "place pais_vasco" in texts and all(m["label"] for m in p["legal"])

    wrong = client.post(f"/api/tutorial/el-grande/{k}", json={"moves": ["place castillo"], "lang": "en"}).json()
    assert wrong["accepted"] is False and wrong["moves"] == [] and not wrong["done"]
    assert wrong["payload"]["view"] == p["view"] and wrong["payload"]["legal"] == p["legal"]
    assert wrong["say"] == Translator("en", [tut.game.catalogue(), tut.catalogue])(tut.steps[k].hint)

    right = client.post(f"/api/tutorial/el-grande/{k}", json={"moves": ["place pais_vasco"], "lang": "de"}).json()
    assert right["accepted"] is True and right["done"] and right["moves"] == ["place pais_vasco"]
    assert right["payload"]["legal"] == []  # done: nothing more to play in this step
    assert right["payload"]["log"][0]["text"] == "Ana setzt einen Caballero ins Baskenland ein"
    again = client.post(f"/api/tutorial/el-grande/{k}", json={"moves": ["place pais_vasco"], "lang": "de"}).json()
    assert again == right  # rebuilt from the scenario: the same answer every time


def test_bad_requests(client: TestClient) -> None:
    assert client.get("/api/tutorial/chess").status_code == 404
    assert client.post("/api/tutorial/don-carlo/99", json={"moves": []}).status_code == 400
    assert client.post("/api/tutorial/don-carlo/0", json={"moves": "1/6"}).status_code == 400
    assert client.post("/api/tutorial/don-carlo/0", json={"moves": ["1/6", "1/6"]}).status_code == 400


@pytest.mark.parametrize("lang", ["en", "de"])
def test_lobby_links_each_tutorial_and_the_page_loads_its_script(client: TestClient, lang: str) -> None:
    lobby = client.get(f"/?lang={lang}").text
    for gid in GAMES:
        assert f'href="/tutorial/{gid}?lang={lang}">{UI[lang]["tutorial.link"]}</a>' in lobby
        page = client.get(f"/tutorial/{gid}?lang={lang}")
        assert page.status_code == 200
        assert '<script src="/static/app/tutorial.js"></script>' in page.text
        assert f'<script src="/static/games/{gid}/board.js"></script>' in page.text
    assert client.get("/tutorial/chess").status_code == 404
    assert client.get("/static/app/tutorial.js").status_code == 200
