"""boardkit.js renders every message as the server's Translator does: plurals and selects too.

The messages are every log line (for each seat and the spectator) and every move label of a
few random games of each game, and a small catalogue of template edge cases; each is rendered
in English and German by ``tablero.core.messages.Translator`` and by ``BoardKit.renderMessage``
in Chromium, and the two texts must be equal.
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from tablero.core.match import Match
from tablero.core.messages import LANGUAGES, Message, Translator
from tablero.core.protocol import CHANCE, Game
from tablero.registry import GAMES
from tablero.server.i18n import WEB_CATALOGUE

NAMES = ["Ana", "Ben", "Cleo"]
OPTIONS: dict[str, dict[str, Any]] = {"el-grande": {"short_game": True}, "mafia-legend": {"variant": "beginner"}}

EDGE_CATALOGUE = {
    "t.plural": "{seat} places {n} {n:plural:caballero|caballeros}",
    "t.hash": "{n:plural:a caballero|# caballeros} {{x}} # {{",
    "t.select": "{x:select:t.castillo=the Castillo|other={x} ({n:plural:one|# many})}",
    "t.seats": "{seats:plural:Winner|Winners}: {seats}",
    "t.flags": "{own:select:True=own|False=not own|other=?} {k:select:0=none|1=one|other=# {k}}",
    "t.nested": "{n:plural:{m:plural:one-one #|one-many #}|{m:select:2=two #|other=other #}}",
    "t.inner": "x {a} y {b:select:t.q=Q {a}|other=O}",
    "t.castillo": "Castillo",
    "t.q": "q{a}",
}
EDGE_CASES: list[Message] = [
    Message("t.plural", seat=0, n=1), Message("t.plural", seat=1, n=0), Message("t.plural", seat=7, n="1"),
    Message("t.hash", n=1), Message("t.hash", n=7),
    Message("t.select", x=Message("t.castillo"), n=2), Message("t.select", x="Galicia", n=1),
    Message("t.seats", seats=(0,)), Message("t.seats", seats=(0, 1)), Message("t.seats", seats=()),
    Message("t.flags", own=True, k=0), Message("t.flags", own=False, k=1), Message("t.flags", k=5),
    Message("t.nested", n=1, m=1), Message("t.nested", n=1, m=3), Message("t.nested", n=2, m=2),
    Message("t.nested", n=2, m=9), Message("t.inner", a="A", b=Message("t.q", a="z")),
    Message("t.inner", a=3, b="x"), Message("t.plural", seat=0, n=2.0),
]


def game_messages(game: Game[Any, Any, Any], seed: int) -> list[Message]:
    """Every log line (each viewer) and every move label of one random game."""
    rng = Random(seed)
    match = Match(game, NAMES, options=OPTIONS.get(game.id), seed=seed)
    out: list[Message] = []
    while not match.is_over():
        seat = next(p for p in match.pending() if p != CHANCE)
        legal = match.legal(seat)
        out.extend(match.describe(seat, a, seat) for a in legal)
        match.act(seat, legal[rng.randrange(len(legal))])
    for _, event in match.events:
        out.extend(m for v in (0, 1, 2, None) if (m := event.for_viewer(v)) is not None)
    return list(dict.fromkeys(out))


def render_in_browser(page: Any, cat: dict[str, str] | str, msgs: list[Message]) -> list[str]:
    got: list[str] = page.evaluate(
        """async ([cat, names, msgs]) => {
             if (typeof cat === "string") cat = await (await fetch(cat)).json();
             return msgs.map((m) => BoardKit.renderMessage(cat, names, m.id, m.params));
           }""", [cat, NAMES, [m.to_json() for m in msgs]])
    return got


@pytest.mark.parametrize("lang", LANGUAGES)
def test_boardkit_renders_plurals_and_selects_as_the_server_does(browser: Any, server: str, lang: str) -> None:
    errors: list[str] = []
    page = browser.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/?lang=" + lang)
    page.add_script_tag(url=server + "/static/app/boardkit.js")
    page.wait_for_function("() => window.BoardKit !== undefined")
    edge = Translator(lang, [{lang: EDGE_CATALOGUE}], NAMES)
    assert render_in_browser(page, {**EDGE_CATALOGUE, "core.seat": edge.table["core.seat"]}, EDGE_CASES) == [
        edge(m) for m in EDGE_CASES]
    assert edge(EDGE_CASES[0]) == "Ana places 1 caballero" and edge(EDGE_CASES[1]) == "Ben places 0 caballeros"
    for gid in sorted(GAMES):
        game = GAMES[gid]
        msgs = [m for seed in (1, 2) for m in game_messages(game, seed)]
        tr = Translator(lang, [game.catalogue(), WEB_CATALOGUE], NAMES)
        want = [tr(m) for m in msgs]
        got = render_in_browser(page, f"/api/catalogue/{gid}/{lang}", msgs)
        diff = [(m, w, g) for m, w, g in zip(msgs, want, got, strict=True) if w != g]
        assert not diff, f"{gid} {lang}: {len(diff)} of {len(msgs)} differ, e.g. {diff[:3]}"
    assert not errors, errors
    page.close()


@pytest.mark.parametrize(("shot", "size"), [("desktop", {"width": 1280, "height": 800}),
                                            ("phone", {"width": 390, "height": 844})])
def test_a_german_table_log_shows_the_server_lines(browser: Any, server: str, shot: str,
                                                    size: dict[str, int]) -> None:
    """A German El Grande table of three bots: every log line the page shows is one of the server's
    German lines (the log only grows: the server's lines are read after the page's)."""
    import json

    import httpx
    from websockets.sync.client import connect

    from .conftest import SHOTS

    seats = [{"kind": "bot", "bot": "random", "name": name} for name in NAMES]
    g = httpx.post(server + "/api/games", json={"game": "el-grande", "seats": seats, "options": {"short_game": True}},
                   trust_env=False).json()
    ctx = browser.new_context(viewport=size, is_mobile=shot == "phone")
    ctx.add_init_script("localStorage.setItem('tablero:lang', 'de')")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/game/{g['id']}")
    page.wait_for_function("() => document.querySelectorAll('.log li .t').length >= 20", timeout=30_000)
    shown = page.eval_on_selector_all(".log li .t", "els => els.map((e) => e.textContent)")
    page.evaluate("document.querySelector('.log-box').scrollIntoView()")  # one step: the box is redrawn as bots move
    # the log follows its newest line: scrolled to its end
    page.wait_for_function("""() => { const ol = document.querySelector('.log-box ol');
        return !!ol && ol.scrollHeight - ol.scrollTop - ol.clientHeight < 30; }""", timeout=30_000)
    page.screenshot(path=str(SHOTS / f"words-el-grande-de-{shot}.png"), full_page=True)
    # The bots keep moving and the table redraws the log box: an element screenshot can find it
    # detached, so the box's rectangle is read in one step and the page is clipped to it.
    box = page.evaluate("""() => { const r = document.querySelector('.log-box').getBoundingClientRect();
                                   return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height}; }""")
    page.screenshot(path=str(SHOTS / f"words-el-grande-de-log-{shot}.png"), clip=box, full_page=True)
    with connect(f"ws://{server.removeprefix('http://')}/ws/{g['id']}") as ws:
        ws.send(json.dumps({"type": "hello", "tokens": [], "lang": "de"}))
        update = json.loads(ws.recv(timeout=30))
    server_lines = {line["text"] for line in update["log"]}
    assert len(shown) >= 20
    assert [t for t in shown if t not in server_lines] == []
    assert any("Caballero" in t for t in shown)
    assert not errors, errors
    ctx.close()
