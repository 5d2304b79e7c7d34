"""HTTP and WebSocket API, on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tablero.core.match import replay
from tablero.core.record import GameRecord
from tablero.registry import GAMES
from tablero.server.service import GameService

from .conftest import FakeClock, client, create, hello, recv


def until_turn(ws: Any, seat: int, first: dict[str, Any] | None = None, *, stale_ok: bool = False) -> dict[str, Any]:
    """Read updates (starting with ``first``) until ``seat`` must move or the game is over.

    ``stale_ok``: a refusal of a stale move is read past (a bot may commit in the same secret pick
    as ``seat``, so the version ``seat`` acted on can be one behind)."""
    while True:
        m, first = (first, None) if first is not None else (recv(ws), None)
        if stale_ok and m["type"] == "error" and m["code"] == "action/stale_version":
            continue
        assert m["type"] == "update", m
        if m["result"] is not None or (m["viewer"] == seat and seat in m["pending"] and m["legal"]):
            return m


def act(ws: Any, m: dict[str, Any], text: str | None = None) -> None:
    ws.send_text(json.dumps({"type": "act", "seat": m["viewer"], "version": m["version"],
                             "action": text if text is not None else m["legal"][0]["text"]}))


def test_lobby_names_the_three_titles_without_scripts(sqlite_url: str) -> None:
    with client(sqlite_url) as c:
        page = c.get("/").text
        for title in ("El Grande", "Don Carlo", "Mafia Legend"):
            assert title in page
        de = c.get("/?lang=de").text
        assert "Neues Spiel" in de
        meta = c.get("/api/meta").json()
        assert {g["id"] for g in meta["games"]} == {"don-carlo", "el-grande", "mafia-legend"}


def test_whole_game_against_a_bot_is_stored_and_replays(db_url: str) -> None:
    with client(db_url) as c:
        g = create(c, "don-carlo", [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = until_turn(ws, 0, hello(ws, [g["tokens"]["0"]]))
            while m["result"] is None:
                act(ws, m)
                m = until_turn(ws, 0, stale_ok=True)  # the bot may commit in the same secret pick
        record = GameRecord.from_json(c.get(f"/api/games/{g['id']}/record").json())
        game = GAMES["don-carlo"]
        final = replay(game, record)
        result = game.result(final)
        assert result is not None and result.to_json() == m["result"] == record.result
        listed = {x["id"]: x for x in c.get("/api/games").json()["games"]}
        assert listed[g["id"]]["status"] == "over"


@pytest.mark.parametrize("gid", sorted(GAMES))
def test_legal_moves_and_log_lines_carry_their_structure(sqlite_url: str, gid: str) -> None:
    """A legal move is {text, label, action: Action.to_json(), final}; a log line carries its message."""
    with client(sqlite_url) as c:
        g = create(c, gid, [{"kind": "you"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = until_turn(ws, 0, hello(ws, [g["tokens"]["0"]]))
            service: GameService = c.app.state.service  # type: ignore[attr-defined]
            legal = service.get(g["id"]).match.legal(0)
    assert m["legal"] and [x["text"] for x in m["legal"]] == [a.to_text() for a in legal]
    for entry, action in zip(m["legal"], legal, strict=True):
        assert set(entry) == {"text", "label", "action", "final"} and entry["label"]
        assert entry["final"] is service.get(g["id"]).match.closes_takeback(0, action)
        assert entry["action"] == json.loads(json.dumps(action.to_json()))
        assert isinstance(entry["action"]["kind"], str)
    assert m["log"] and all(set(line) - {"section"} == {"i", "text", "msg"} and line["msg"]["id"] for line in m["log"])


def test_bad_requests_get_clear_errors_and_change_nothing(db_url: str) -> None:
    with client(db_url) as c:
        assert c.post("/api/games", content=b"{nope").json()["error"]["code"] == "request/malformed"
        r = c.post("/api/games", json={"game": "chess", "seats": [{"kind": "you"}]})
        assert r.status_code == 404 and r.json()["error"]["code"] == "game/unknown"
        r = c.post("/api/games", json={"game": "don-carlo", "seats": [{"kind": "you"}]})
        assert r.json()["error"]["code"] == "game/bad_player_count"
        r = c.post("/api/games", json={"game": "don-carlo", "seats": [{"kind": "you"}] * 3,
                                       "options": {"nonsense": 1}})
        assert r.json()["error"]["code"] == "game/bad_option"
        assert c.get("/game/nope").status_code == 404
        assert c.post("/api/games", content=b"x" * 20_000).status_code == 413

        g = create(c, "el-grande", [{"kind": "you"}, {"kind": "local"}], options={"short_game": True})
        t0, t1 = g["tokens"]["0"], g["tokens"]["1"]
        with c.websocket_connect(f"/ws/{g['id']}") as bad:  # a key holding no seat: told so, then a spectator
            told = hello(bad, ["not-a-token"])
            assert told == {"type": "revoked", "tokens": ["not-a-token"], "seats": []}
            assert recv(bad)["viewer"] is None
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = hello(ws, [t0])
            version = m["version"]
            seat = m["pending"][0]
            other = 1 - seat
            for raw in [
                "{not json",
                json.dumps([1, 2]),
                json.dumps({"type": "dance"}),
                "x" * 20_000,
                json.dumps({"type": "act", "seat": 1, "version": version, "action": "stop"}),  # not our seat
                json.dumps({"type": "act", "seat": 0, "version": version - 1, "action": "stop"}),  # stale
                json.dumps({"type": "act", "seat": 0, "version": version, "action": "fly to the moon"}),
                json.dumps({"type": "undo", "seat": 0, "version": version}),
            ]:
                ws.send_text(raw)
                err = recv(ws)
                assert err["type"] == "error" and err["code"] and err["message"], raw
            if other == 0:  # out of turn with our own seat
                ws.send_text(json.dumps({"type": "act", "seat": 0, "version": version, "action": "stop"}))
                assert recv(ws)["code"] == "action/not_your_turn"
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            again = hello(ws, [t0, t1])
            assert again["version"] == version, "nothing changed"


def test_invites_claim_once_and_seats_stay_apart(db_url: str) -> None:
    with client(db_url) as c:
        g = create(c, "don-carlo", [{"kind": "you", "name": "Host"}, {"kind": "person"}, {"kind": "bot"}])
        invite = g["invites"]["1"]
        page = c.get(f"/join/{g['id']}/{invite}")
        assert page.status_code == 200
        claim = c.post(f"/api/games/{g['id']}/claim", json={"invite": invite, "name": "Guest"}).json()
        assert claim["seat"] == 1
        again = c.post(f"/api/games/{g['id']}/claim", json={"invite": invite})
        assert again.status_code == 403
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = hello(ws, [claim["token"]])
            assert m["viewer"] == 1 and m["seats"][1]["name"] == "Guest"
            assert m["view"]["viewer"] == 1
            ws.send_text(json.dumps({"type": "act", "seat": 0, "version": m["version"], "action": "x"}))
            assert recv(ws)["code"] == "auth/token"
        with c.websocket_connect(f"/ws/{g['id']}") as spec:
            m = hello(spec, [])
            assert ((m["viewer"] is None and m["legal"] == [] and m["view"]["private"] is None)
                    or m["view"]["private"]["hand"] == [])


def test_restart_resumes_where_the_game_stood(db_url: str) -> None:
    with client(db_url) as c:
        g = create(c, "el-grande", [{"kind": "you"}, {"kind": "bot", "bot": "random"}], options={"short_game": True})
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = until_turn(ws, 0, hello(ws, [g["tokens"]["0"]]))
            for _ in range(5):
                act(ws, m)
                m = until_turn(ws, 0, stale_ok=True)
    with client(db_url) as c, c.websocket_connect(f"/ws/{g['id']}") as ws:
        resumed = hello(ws, [g["tokens"]["0"]])
        assert resumed["version"] == m["version"]
        assert resumed["view"] == m["view"]
        assert resumed["legal"] == m["legal"]


def test_creator_hands_an_absent_seat_to_a_bot_and_the_player_takes_it_back(db_url: str, clock: FakeClock) -> None:
    with client(db_url, clock) as c:
        g = create(c, "don-carlo", [{"kind": "you"}, {"kind": "person"}, {"kind": "bot"}], away_seconds=60)
        guest = c.post(f"/api/games/{g['id']}/claim", json={"invite": g["invites"]["1"], "name": "Gu"}).json()["token"]
        with c.websocket_connect(f"/ws/{g['id']}") as host:
            m = hello(host, [g["tokens"]["0"]], admin=g["admin"])
            assert m["admin"] is True
            host.send_text(json.dumps({"type": "replace", "seat": 1, "bot": "greedy"}))
            assert recv(host)["code"] == "game/bad_player_count"  # still within away_seconds
            clock.advance(61)
            host.send_text(json.dumps({"type": "replace", "seat": 1, "bot": "greedy"}))
            m = recv(host)
            while m["type"] != "update" or not m["seats"][1]["replaced"]:
                m = recv(host)
            assert m["seats"][1]["bot"] == "greedy"
            with c.websocket_connect(f"/ws/{g['id']}") as gw:
                back = hello(gw, [guest])
                assert back["seats"][1]["replaced"]
                gw.send_text(json.dumps({"type": "reclaim", "seat": 1}))
                m = recv(gw)
                while m["type"] != "update" or m["seats"][1]["replaced"]:
                    m = recv(gw)
                assert m["seats"][1]["bot"] is None


def test_move_clock_lets_a_bot_move_and_survives_a_restart(db_url: str, clock: FakeClock) -> None:
    with client(db_url, clock) as c:
        g = create(c, "el-grande", [{"kind": "you"}, {"kind": "local"}], options={"short_game": True},
                   move_seconds=30)
        tokens = [g["tokens"]["0"], g["tokens"]["1"]]
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = hello(ws, tokens)
            assert m["clocks"], "a pending person seat has a deadline"
            version = m["version"]
    clock.advance(31)
    with client(db_url, clock) as c, c.websocket_connect(f"/ws/{g['id']}") as ws:
        m = hello(ws, tokens)
        while m["version"] == version:
            m = recv(ws)
        assert m["version"] > version, "the clock's stand-in moved after the restart"


def test_undo_within_the_own_turn_is_an_entry_everyone_sees(db_url: str) -> None:
    with client(db_url) as c:
        g = create(c, "el-grande", [{"kind": "you"}, {"kind": "local"}], options={"short_game": True})
        tokens = [g["tokens"]["0"], g["tokens"]["1"]]
        with c.websocket_connect(f"/ws/{g['id']}") as ws, c.websocket_connect(f"/ws/{g['id']}") as spec:
            hello(spec, [])
            latest: dict[Any, dict[str, Any]] = {}
            ws.send_text(json.dumps({"type": "hello", "tokens": tokens, "lang": "en"}))
            while True:
                m = recv(ws)
                latest[m["viewer"]] = m
                if len(latest) < 2:
                    continue
                p = m["pending"][0] if m["pending"] else None
                if p is None or latest[0]["version"] != latest[1]["version"]:
                    continue
                cur = latest[p]
                if cur["can_undo"]:
                    break
                act(ws, cur)
            ws.send_text(json.dumps({"type": "undo", "seat": p, "version": cur["version"]}))
            m = recv(ws)
            assert m["type"] == "update" and m["version"] == cur["version"] + 1
            last = m["log"][-1]["text"]
            assert "took back" in last
            s = recv(spec)
            while s["version"] < m["version"]:
                s = recv(spec)
            assert s["log"][-1]["text"] == last


def test_rematch_keeps_the_seats(db_url: str) -> None:
    with client(db_url) as c:
        g = create(c, "don-carlo", [{"kind": "you"}, {"kind": "bot", "bot": "random"}])
        tok = g["tokens"]["0"]
        assert c.post(f"/api/games/{g['id']}/rematch", json={"tokens": [tok]}).status_code == 409  # not over
        with c.websocket_connect(f"/ws/{g['id']}") as ws:
            m = until_turn(ws, 0, hello(ws, [tok]))
            while m["result"] is None:
                act(ws, m)
                m = until_turn(ws, 0, stale_ok=True)  # the bot may commit in the same secret pick
        r = c.post(f"/api/games/{g['id']}/rematch", json={"tokens": [tok]}).json()
        assert r["id"] != g["id"] and list(r["tokens"]) == ["0"]
        with c.websocket_connect(f"/ws/{r['id']}") as ws:
            m = hello(ws, [r["tokens"]["0"]])
            assert m["viewer"] == 0 and m["seats"][1]["kind"] == "bot"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_catalogues_and_words(sqlite_url: str, lang: str) -> None:
    with client(sqlite_url) as c:
        for gid in GAMES:
            cat = c.get(f"/api/catalogue/{gid}/{lang}").json()
            assert "core.undo" in cat
        assert "table.undo" in c.get(f"/api/i18n/{lang}").json()
        assert c.get("/static/games/el-grande/board.js").status_code == 200
        assert c.get("/api/table-data/el-grande").json()["regions"][0] == "aragon"
        assert c.get("/static/app/app.js").status_code == 200


def test_both_languages_have_every_word_of_the_web_client() -> None:
    from tablero.server.i18n import UI

    assert set(UI["en"]) == set(UI["de"])
