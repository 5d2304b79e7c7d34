"""Seats, invites and names over the API: keys never in an address, a new invite for a seat,
names chosen at join, the lobby's option words and game list, the favicon."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from tablero.registry import GAMES
from tablero.server.service import GameService

from .conftest import FakeClock, client, create, hello, recv


def service(c: TestClient) -> GameService:
    s: GameService = c.app.state.service  # type: ignore[attr-defined]
    return s


def update(ws: Any, until: Any = None) -> dict[str, Any]:
    """The next update on ``ws`` (for which ``until`` holds, if given), skipping other messages."""
    while True:
        m = recv(ws)
        if m["type"] == "update" and (until is None or until(m)):
            return m


def until_type(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        m = recv(ws)
        if m["type"] == kind:
            return m


def info(c: TestClient, gid: str, invite: str, lang: str = "en") -> dict[str, Any]:
    r = c.post(f"/api/games/{gid}/invitation", json={"invite": invite, "lang": lang})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


HOST_GUEST = [{"kind": "you", "name": "Ana"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]


def test_a_seat_nobody_joined_is_named_in_each_language_and_the_joiners_name_reaches_every_viewer(
        sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        g = create(c, "don-carlo", HOST_GUEST)
        gid = g["id"]
        with c.websocket_connect(f"/ws/{gid}") as host, c.websocket_connect(f"/ws/{gid}") as watcher:
            m = hello(host, [g["tokens"]["0"]])
            w = hello(watcher, [], lang="de")
            assert [s["name"] for s in m["seats"]] == ["Ana", "Player B", "Bot C"]
            assert [s["name"] for s in w["seats"]] == ["Ana", "Spieler B", "Bot C"]
            assert m["seats"][1]["claimed"] is False and m["seats"][2]["bot"] == "random"
            r = c.post(f"/api/games/{gid}/claim", json={"invite": g["invites"]["1"], "name": "  Bea  "})
            assert r.status_code == 200 and r.json()["seat"] == 1
            joined = lambda u: u["seats"][1]["claimed"]  # noqa: E731
            m, w = update(host, joined), update(watcher, joined)
            for u in (m, w):
                assert [s["name"] for s in u["seats"]] == ["Ana", "Bea", "Bot C"]
                assert u["seats"][1]["claimed"] is True
            # every viewer's whole log again, rendered with the new name: what a newcomer gets
            assert m["log_since"] == 0 and w["log_since"] == 0
            with c.websocket_connect(f"/ws/{gid}") as again, c.websocket_connect(f"/ws/{gid}") as spec:
                assert hello(again, [g["tokens"]["0"]])["log"] == m["log"]
                assert hello(spec, [], lang="de")["log"] == w["log"]
            live = service(c).get(gid)
            assert live.tr("en").seat(1) == live.tr("de").seat(1) == "Bea"
            assert live.match.record.players == ["Ana", "Bea", "Bot C"]


def test_joining_needs_a_name_unless_the_creator_suggested_one(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        g = create(c, "don-carlo", [{"kind": "you"}, {"kind": "person"}, {"kind": "person", "name": "Cleo"}])
        for name in (None, "", "   "):
            r = c.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"]["1"], "name": name})
            assert r.status_code == 400 and r.json()["error"]["code"] == "request/malformed"
        assert info(c, g["id"], g["invites"]["1"])["status"] == "open"  # nothing was used up
        assert info(c, g["id"], g["invites"]["2"])["suggested"] == "Cleo"
        r = c.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"]["2"]})
        assert r.status_code == 200
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            assert [s["name"] for s in hello(ws, [])["seats"]] == ["Player A", "Player B", "Cleo"]


def test_the_join_page_learns_the_inviter_game_options_and_seats_and_why_an_invite_fails(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        g = create(c, "don-carlo", HOST_GUEST, options={"majority_tie": "none", "start_seat": 0})
        gid, invite = g["id"], g["invites"]["1"]
        page = c.get(f"/join/{gid}/{invite}")
        assert page.status_code == 200
        first = info(c, gid, invite, "de")
        assert first["status"] == "open" and first["seat"] == 1 and first["inviter"] == "Ana"
        assert first["title"] == "Don Carlo" and first["game"] == "don-carlo" and not first["over"]
        assert [s["name"] for s in first["seats"]] == ["Ana", "Spieler B", "Bot C"]
        words = {o["name"]: o for o in first["options"]}
        assert set(words) == {o.name for o in GAMES["don-carlo"].options}
        de = GAMES["don-carlo"].catalogue()["de"]
        assert words["start_seat"]["value"] == "Ana"  # a seat by its name
        assert words["majority_tie"]["value"] == de.get("option.majority_tie.none", "none")
        assert words["majority_tie"]["label"] == de.get("option.majority_tie", "majority_tie")
        assert words["country_points"]["value"] == "die Standardwerte"
        assert first["move_seconds"] == 0  # no clock at this table
        timed = create(c, "don-carlo", HOST_GUEST, move_seconds=30)
        assert info(c, timed["id"], timed["invites"]["1"])["move_seconds"] == 30  # the invited see the clock

        assert c.post(f"/api/games/{gid}/claim", json={"invite": invite, "name": "Bea"}).status_code == 200
        assert info(c, gid, invite)["status"] == "taken"
        again = c.post(f"/api/games/{gid}/claim", json={"invite": invite, "name": "Eve"})
        assert again.status_code == 403 and "already used" in again.json()["error"]["message"]
        assert info(c, gid, "no-such-invite") | {"seats": None} == info(c, gid, "other") | {"seats": None}
        assert info(c, gid, "no-such-invite")["status"] == "unknown"

        fresh = c.post(f"/api/games/{gid}/invite", json={"admin": g["admin"], "seat": 1}).json()["invite"]
        newer = c.post(f"/api/games/{gid}/invite", json={"admin": g["admin"], "seat": 1}).json()["invite"]
        assert info(c, gid, fresh)["status"] == "revoked"  # replaced by the newer one before anybody used it
        assert info(c, gid, newer)["status"] == "open" and info(c, gid, invite)["status"] == "taken"
        assert c.post(f"/api/games/{gid}/claim", json={"invite": fresh, "name": "Eve"}).status_code == 403


def test_the_creator_revokes_a_seat_the_device_falls_back_to_watching_and_a_new_invite_takes_it(
        sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        g = create(c, "don-carlo", HOST_GUEST)
        gid = g["id"]
        guest = c.post(f"/api/games/{gid}/claim", json={"invite": g["invites"]["1"], "name": "Bea"}).json()["token"]
        with c.websocket_connect(f"/ws/{gid}") as gw, c.websocket_connect(f"/ws/{gid}") as spec:
            assert hello(gw, [guest])["viewer"] == 1
            hello(spec, [])
            # only with the creator's key, in the body; never for a bot's seat
            wrong = c.post(f"/api/games/{gid}/invite", json={"admin": "guess", "seat": 1})
            assert wrong.status_code == 403
            assert c.post(f"/api/games/{gid}/invite", json={"admin": g["admin"], "seat": 2}).status_code == 400
            assert c.post(f"/api/games/{gid}/invite", json={"admin": g["admin"], "seat": "1"}).status_code == 400
            r = c.post(f"/api/games/{gid}/invite", json={"admin": g["admin"], "seat": 1})
            assert r.status_code == 200 and r.json()["seat"] == 1
            invite = r.json()["invite"]
            assert until_type(gw, "revoked") == {"type": "revoked", "seats": [1]}
            fallen = update(gw)
            spectator = update(spec, lambda u: not u["seats"][1]["claimed"])
            assert fallen["viewer"] is None and fallen["legal"] == []
            assert fallen["view"] == spectator["view"] and fallen["seats"] == spectator["seats"]
            assert fallen["seats"][1]["claimed"] is False
        with c.websocket_connect(f"/ws/{gid}") as old:  # the old key on a reload: told, and a spectator
            assert hello(old, [guest]) == {"type": "revoked", "tokens": [guest], "seats": [1]}
            assert update(old)["viewer"] is None
        claim = c.post(f"/api/games/{gid}/claim", json={"invite": invite, "name": "Cid"}).json()
        assert claim["seat"] == 1
        with c.websocket_connect(f"/ws/{gid}") as ws:
            m = hello(ws, [claim["token"]])
            assert m["viewer"] == 1 and m["seats"][1]["name"] == "Cid"


def test_the_revoked_seat_is_gone_from_a_connection_holding_several(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        g = create(c, "el-grande", [{"kind": "you"}, {"kind": "local"}], options={"short_game": True})
        gid = g["id"]
        with c.websocket_connect(f"/ws/{gid}") as ws:
            first = hello(ws, [g["tokens"]["0"], g["tokens"]["1"]], admin=g["admin"])
            assert first["type"] == "update"
            update(ws)
            assert c.post(f"/api/games/{gid}/invite", json={"admin": g["admin"], "seat": 1}).status_code == 200
            assert until_type(ws, "revoked") == {"type": "revoked", "seats": [1]}
            assert update(ws)["viewer"] == 0
            ws.send_text(json.dumps({"type": "undo", "seat": 1, "version": first["version"]}))
            assert until_type(ws, "error")["code"] == "auth/token"


def test_meta_words_options_in_the_asked_language(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        for lang in ("en", "de"):
            meta = {g["id"]: g for g in c.get(f"/api/meta?lang={lang}").json()["games"]}
            for gid, game in GAMES.items():
                words = game.catalogue()[lang]
                for o in meta[gid]["options"]:
                    assert o["label"] == words.get(f"option.{o['name']}", o["name"])
                    assert o["help"]
                    for choice, label in o["choice_labels"].items():
                        assert label == words.get(f"option.{o['name']}.{choice}", choice)
            dc = {o["name"]: o for o in meta["don-carlo"]["options"]}
            assert dc["start_seat"]["kind"] == "seat" and dc["start_seat"]["choices"] == ["random"]
            assert dc["majority_tie"]["kind"] == "choice"
            points = dc["country_points"]
            assert points["kind"] == "map" and points["default"]["protzland"] == 7
            assert {k["key"]: k["label"] for k in points["keys"]}["protzland"] == "Protzland"
            eg = {o["name"]: o for o in meta["el-grande"]["options"]}
            assert eg["short_game"]["kind"] == "bool" and eg["short_game"]["default"] is False
        g = create(c, "don-carlo", [{"kind": "you"}] * 3, options={"country_points": {"protzland": 9}})
        assert service(c).get(g["id"]).stored.options["country_points"]["protzland"] == 9


def test_the_game_list_is_newest_first_with_dates_and_names_and_lists_the_asked_games(sqlite_url: str) -> None:
    clock = FakeClock()
    with client(sqlite_url, clock) as c:
        ids = []
        for _ in range(3):
            ids.append(create(c, "don-carlo", [{"kind": "you"}, {"kind": "person"}, {"kind": "bot"}])["id"])
            clock.advance(60)
        listed = c.get("/api/games?lang=de").json()["games"]
        assert [x["id"] for x in listed] == ids[::-1]
        assert [x["created"] for x in listed] == sorted((x["created"] for x in listed), reverse=True)
        assert listed[0]["players"] == ["Spieler A", "Spieler B", "Bot C"] and listed[0]["open_seats"] == [1]
        asked = c.get(f"/api/games?mine={ids[0]},nope").json()["games"]
        assert {x["id"] for x in asked} == set(ids)


def test_every_seat_has_a_name_in_each_language(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        g = create(c, "don-carlo", [{"kind": "bot", "bot": "random"}, {"kind": "local"}, {"kind": "person"}])
        live = service(c).get(g["id"])
        assert live.names("en") == ["Bot A", "Player B", "Player C"]
        assert live.names("de") == ["Bot A", "Spieler B", "Spieler C"]
        assert live.tr("de").seat(2) == "Spieler C"


def test_favicon_is_served_and_every_page_links_it(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        for path in ("/favicon.ico", "/favicon.svg"):
            r = c.get(path)
            assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        g = create(c, "don-carlo", HOST_GUEST)
        for page in ("/", f"/game/{g['id']}", f"/join/{g['id']}/{g['invites']['1']}"):
            r = c.get(page)
            assert r.status_code == 200 and '<link rel="icon" href="/favicon.svg"' in r.text
