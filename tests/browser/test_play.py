"""Whole games in Chromium by clicking: against bots, hot-seat, and two browsers online.

Screenshots of each table go to build/screenshots/.
"""

from __future__ import annotations

import contextlib
import re
from random import Random
from typing import Any

import pytest

from .conftest import SHOTS

CLICK = 5_000
"""ms a click may wait for its button to stand still; a table the bots keep redrawing (a slow
machine) is looked at again instead (a CI run once spent the whole 30 s retrying one button)."""

WAIT = 30_000


def create_in_lobby(page: Any, base: str, game: str, kinds: list[str], options: dict[str, Any],
                    name: str = "Ana", *, hints: bool = False) -> None:
    page.goto(base + "/?lang=en")
    page.wait_for_selector("#f-game")
    page.select_option("#f-game", game)
    page.select_option("#f-players", str(len(kinds)))
    for opt, value in options.items():
        if isinstance(value, bool):
            page.set_checked(f"#opt-{opt}", value)
        else:
            page.select_option(f"#opt-{opt}", value)
    for i, kind in enumerate(kinds):
        page.select_option(f"#f-kind-{i}", kind)
    page.fill("#f-name-0", name)
    if hints:
        page.check("#f-hints")
    page.screenshot(path=str(SHOTS / f"lobby-{game}.png"), full_page=True)
    page.click("#f-create")


def wait_changed(page: Any, version: str | None) -> None:
    page.wait_for_function(
        """v => document.querySelector('#end') || document.querySelector('#handover-go')
               || document.querySelector('#all-moves')
               || (document.querySelector('#app')?.dataset.version || '') !== v""",
        arg=version or "", timeout=WAIT)


RAW = re.compile(r"\b[a-z]{2,}\.[a-z_.]+\(|\b[a-z]+_[a-z_]+\b|\{[a-z_:]+")
"""What an identifier looks like on a page: an unrendered message (``ml.fam.moretti()``), a
snake_case engine name (``ashtray_money``) or a template placeholder (``{seat}``)."""


def assert_no_identifiers(page: Any) -> None:
    """The table as a person reads it (board, seats, moves, log) names no engine identifier."""
    text = page.evaluate("() => document.querySelector('#app')?.innerText || ''")
    assert not RAW.findall(text), RAW.findall(text)


def play_to_end(page: Any, rng: Random, shot: str, *, max_steps: int = 4000) -> int:
    """Click legal moves (on the board or in the move list) until the end screen shows; every
    few moves the page is checked for identifiers."""
    steps = 0
    for steps in range(max_steps):
        page.wait_for_selector("#end, .moves button.move, #handover-go", timeout=WAIT)
        if steps % 5 == 0:
            assert_no_identifiers(page)
        if page.locator("#end").count():
            break
        if page.locator("#handover-go").count():
            assert page.locator(".board").count() == 0, "the hand-over screen hides the table"
            page.click("#handover-go")
            continue
        version = page.get_attribute("#app", "data-version")
        if steps == 12:
            page.screenshot(path=str(SHOTS / f"{shot}-mid.png"), full_page=True)
        board = page.locator(".board .clickable")
        if steps % 3 == 1 and board.count():
            board.nth(rng.randrange(board.count())).click()
            with contextlib.suppress(Exception):  # the element stood for no move now: use the list
                wait_changed(page, version)
            if page.locator("#all-moves").count() == 0:
                continue
        moves = page.locator(".moves button.move")
        n = moves.count()
        if n == 0:
            continue
        try:
            moves.nth(rng.randrange(n)).click(timeout=CLICK)
        except Exception as exc:  # redrawn under the click as the bots moved: look at the table again
            if "Timeout" not in type(exc).__name__:
                raise
            continue
        wait_changed(page, version)
    page.wait_for_selector("#end", timeout=WAIT)
    assert_no_identifiers(page)
    page.screenshot(path=str(SHOTS / f"{shot}-end.png"), full_page=True)
    return steps


def _page(browser: Any, errors: list[str], **kw: Any) -> Any:
    ctx = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **kw})
    # These games click moves at random: one click plays a move (the "confirm moves" setting
    # "never"; the confirm step itself is tested in test_table.py).
    ctx.add_init_script("localStorage.setItem('tablero:confirm', 'never')")
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


@pytest.mark.parametrize(("game", "kinds", "options"), [
    ("don-carlo", ["you", "bot:greedy"], {}),
    ("el-grande", ["you", "bot:greedy"], {"short_game": True}),
    ("mafia-legend", ["you", "bot:greedy", "bot:random"], {"variant": "beginner"}),
])
def test_full_game_against_bots_by_clicking(browser: Any, server: str, game: str, kinds: list[str],
                                            options: dict[str, Any]) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    create_in_lobby(page, server, game, kinds, options)
    page.wait_for_url("**/game/**", timeout=WAIT)
    steps = play_to_end(page, Random(1), f"{game}-vs-bots")
    assert steps > 0
    assert page.locator("#end .ranks li").count() == len(kinds)
    assert page.locator(".seatbar .score").count() == len(kinds)  # read from the view's public part
    assert not errors, errors
    page.context.close()


def test_hot_seat_game_hides_each_hand_between_players(browser: Any, server: str) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    create_in_lobby(page, server, "don-carlo", ["you", "local", "bot:greedy"], {})
    page.wait_for_url("**/game/**", timeout=WAIT)
    page.wait_for_selector("#handover-go, .moves button.move", timeout=WAIT)
    handovers = 0
    rng = Random(2)
    for _ in range(400):
        page.wait_for_selector("#end, .moves button.move, #handover-go", timeout=WAIT)
        if page.locator("#end").count():
            break
        if page.locator("#handover-go").count():
            handovers += 1
            if handovers == 1:
                page.screenshot(path=str(SHOTS / "hot-seat-handover.png"))
            assert page.locator(".board").count() == 0
            page.click("#handover-go")
            continue
        version = page.get_attribute("#app", "data-version")
        moves = page.locator(".moves button.move")
        moves.nth(rng.randrange(moves.count())).click()
        wait_changed(page, version)
    page.wait_for_selector("#end", timeout=WAIT)
    page.screenshot(path=str(SHOTS / "hot-seat-end.png"), full_page=True)
    assert handovers >= 2
    assert not errors, errors


def test_two_browsers_play_online_with_an_invite_link(browser: Any, server: str) -> None:
    errors: list[str] = []
    host = _page(browser, errors)
    create_in_lobby(host, server, "don-carlo", ["you", "person"], {}, name="Host")
    host.wait_for_selector("input.invite", timeout=WAIT)
    link = host.input_value("input.invite")
    host.click("#go-table")
    guest = _page(browser, errors, viewport={"width": 390, "height": 844})
    guest.goto(link)
    guest.fill("#j-name", "Guest")
    guest.click("#j-go")
    guest.wait_for_url("**/game/**", timeout=WAIT)
    rng = Random(3)
    pages = [host, guest]
    for _ in range(400):
        if all(p.locator("#end").count() for p in pages):
            break
        moved = False
        for p in pages:
            if p.locator("#end").count() or p.locator(".moves button.move").count() == 0:
                continue
            version = p.get_attribute("#app", "data-version")
            moves = p.locator(".moves button.move")
            moves.nth(rng.randrange(moves.count())).click()
            wait_changed(p, version)
            moved = True
        if not moved:  # the other browser's update is on its way: poll again shortly
            host.wait_for_timeout(50)
    for p in pages:
        p.wait_for_selector("#end", timeout=WAIT)
    host.screenshot(path=str(SHOTS / "online-host-end.png"), full_page=True)
    guest.screenshot(path=str(SHOTS / "online-guest-phone-end.png"), full_page=True)
    names = guest.locator(".seatbar .name").all_inner_texts()
    assert names == ["Host", "Guest"]
    assert not errors, errors


@pytest.mark.parametrize("lang", ["en", "de"])
def test_boardkit_renders_every_log_line_as_the_server_does(browser: Any, server: str, lang: str) -> None:
    """boardkit.js renders a message (id + params) through the catalogue exactly like the server's Translator."""
    import json

    import httpx
    from websockets.sync.client import connect

    errors: list[str] = []
    page = _page(browser, errors)
    host = server.removeprefix("http://")
    for gid in ("don-carlo", "el-grande", "mafia-legend"):
        seats = [{"kind": "bot", "bot": "random", "name": f"Bot {i}"} for i in range(3)]
        g = httpx.post(server + "/api/games", json={"game": gid, "seats": seats}, trust_env=False).json()
        with connect(f"ws://{host}/ws/{g['id']}") as ws:
            ws.send(json.dumps({"type": "hello", "tokens": [], "lang": lang}))
            update = json.loads(ws.recv(timeout=30))
        names = [s["name"] for s in update["seats"]]
        lines = update["log"]
        assert lines, gid
        page.goto(f"{server}/game/{g['id']}")
        page.wait_for_function("() => window.BoardKit !== undefined", timeout=WAIT)
        rendered = page.evaluate(
            """async ([gid, lang, names, lines]) => {
                 const cat = await (await fetch(`/api/catalogue/${gid}/${lang}`)).json();
                 return lines.map((l) => BoardKit.renderMessage(cat, names, l.msg.id, l.msg.params));
               }""", [gid, lang, names, lines])
        assert rendered == [line["text"] for line in lines], gid
    assert not errors, errors
    page.context.close()


def test_boardkit_places_play_one_move_narrow_several_and_pick(browser: Any, server: str) -> None:
    """The clickable-place registry on its own: patterns, one move, several, pick and narrow."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/?lang=en")
    page.add_script_tag(url=server + "/static/app/boardkit.js")
    got = page.evaluate(
        """() => {
          const legal = [
            {text: "take 2E", label: "take 2E", action: {kind: "take", card: "2E"}},
            {text: "play A hand k1", label: "A to K1", action: {kind: "play", card: "A", source: "hand", field: "k1"}},
            {text: "play A hand k2", label: "A to K2", action: {kind: "play", card: "A", source: "hand", field: "k2"}},
            {text: "play B hand k1", label: "B to K1", action: {kind: "play", card: "B", source: "hand", field: "k1"}},
          ];
          const payload = {viewer: 0, pending: [0, 1], legal, view: {}, result: null,
                           seats: [{name: "Ann", letter: "A", colour: "#E69F00"},
                                   {name: "Bot", letter: "B", colour: "#56B4E9", bot: "greedy"}]};
          const calls = [];
          const make = (picked, filter) => {
            const root = document.createElement("div");
            document.body.append(root);
            const kit = BoardKit.create(root, payload, {
              lang: "en", cat: {"x.hi": "{seat} greets {other_seat} and {seats}"}, ui: (k) => k,
              picked, filter, choose: (texts, pick) => calls.push([texts, pick]), unpick: () => calls.push("unpick")});
            return {root, kit};
          };
          const {root, kit} = make(null, null);
          const one = kit.h("span", {}, "2E"), card = kit.h("span", {}, "A"), none = kit.h("span", {}, "-");
          root.append(one, card, none);
          const n1 = kit.place(one, {kind: "take", card: "2E"}, {label: "card"}).length;
          const n2 = kit.place(card, (a) => a.kind === "play" && a.card === "A", {label: "A", pick: "A"}).length;
          const n3 = kit.place(none, {kind: "veto"}).length;
          one.click(); card.click(); none.click();
          // a second kit with A picked: a field narrows to A's moves, A itself puts the pick back
          const b = make("A", ["play A hand k1", "play A hand k2"]);
          const field = b.kit.h("span", {}, "K1"), again = b.kit.h("span", {}, "A");
          b.root.append(field, again);
          const narrowed = b.kit.place(field, {kind: "play", field: "k1"}, {narrow: true}).map((m) => m.text);
          b.kit.place(again, {kind: "play", card: "A"}, {pick: "A"});
          again.click();
          return {n1, n2, n3, calls, narrowed, cls: field.className, aria: one.getAttribute("aria-label"),
                  clickable: [one, card, none].map((x) => x.classList.contains("clickable")),
                  pressed: again.getAttribute("aria-pressed"), thinking: kit.seat(1).thinking,
                  chip: kit.chip(1, {name: true}).querySelectorAll(".bk-dots").length,
                  msg: kit.msg("x.hi", {seat: 0, other_seat: 1, seats: [1, 0]}), missing: kit.msg("x.no", {}, "fb")};
        }""")
    assert (got["n1"], got["n2"], got["n3"]) == (1, 2, 0)
    assert got["clickable"] == [True, True, False]
    assert got["aria"] == "card: take 2E"
    assert got["calls"] == [[["take 2E"], None], [["play A hand k1", "play A hand k2"], "A"], "unpick"]
    assert got["narrowed"] == ["play A hand k1"] and "bk-target" in got["cls"]
    assert got["pressed"] == "true"
    assert got["thinking"] is True and got["chip"] == 1
    assert got["msg"] == "Ann greets Bot and Bot, Ann" and got["missing"] == "fb"
    assert not errors, errors
    page.context.close()


def test_don_carlo_majority_points_and_tie_rule_from_the_lobby_reach_the_table(browser: Any, server: str) -> None:
    """Points per country typed into the lobby form and the tie rule chosen there are the table's:
    the country shows the chosen points (without the mark of a reconstructed value), the foot the rule."""
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(server + "/?lang=en")
    page.wait_for_selector("#f-game")
    page.select_option("#f-game", "don-carlo")
    page.select_option("#f-players", "3")
    assert "Majority points" in page.inner_text('[data-option="country_points"]')
    assert "colon" not in page.inner_text('[data-option="country_points"]'), "the help explains the form's fields"
    # a country that is not in play with every player count says with which
    assert "Abstrusien (4 players)" in page.inner_text('[data-option="country_points"]')
    heights = page.eval_on_selector_all(".opt-map .opt-key > span",
                                        "ss => ss.map(s => s.getBoundingClientRect().height)")
    assert max(heights) < 1.5 * min(heights), "every country's label on one line"
    page.fill("#opt-country_points-protzland", "20")
    page.select_option("#opt-majority_tie", "none")
    page.select_option("#f-kind-1", "bot:random")
    page.select_option("#f-kind-2", "bot:random")
    page.click("#f-create")
    page.wait_for_url("**/game/**", timeout=WAIT)
    page.wait_for_selector(".board .dc-country", timeout=WAIT)
    protzland = page.locator(".dc-country", has=page.locator(".dc-cname", has_text="Protzland"))
    assert protzland.locator(".dc-points-n").inner_text() == "20"
    assert protzland.locator(".dc-r").count() == 0, "chosen points are no reconstruction"
    egoistrien = page.locator(".dc-country", has=page.locator(".dc-cname", has_text="Egoistrien"))
    assert egoistrien.locator(".dc-points-n").inner_text() == "3" and egoistrien.locator(".dc-r").count() == 1
    assert page.inner_text(".dc-foot").startswith("Majority ties: nobody scores")
    # the board's labels agree in number ("1 possible agent", "2 possible agents")
    labels = page.eval_on_selector_all(".board [aria-label]", "ns => ns.map(n => n.getAttribute('aria-label'))")
    counted = re.findall(r"\b(\d+) possible (agents?)\b", " ".join(labels))
    assert counted and all((n == "1") == (word == "agent") for n, word in counted), counted
    assert not errors, errors
    page.context.close()
