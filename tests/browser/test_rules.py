"""The rules pages in Chromium: linked from the lobby and from the table's header, the boards'
"?" links open the entry they name (and play no move), German pages speak German.

Screenshots: build/screenshots/rules-<game>-{desktop,phone}.png.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from tablero.registry import GAMES

from .conftest import SHOTS

WAIT = 30_000
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
TABLES = {
    "el-grande": (3, {"start_seat": 0}),
    "don-carlo": (3, {"start_seat": 0}),
    "mafia-legend": (3, {"start_seat": 0, "families": "moretti,rinaldi,orsini"}),
}
"""Tables for a seat on this device and people not yet there: nothing moves while a test looks."""


@contextmanager
def context(browser: Any, errors: list[str], *, init: str = "", **kw: Any) -> Iterator[Any]:
    """A browser context whose pages report console errors and page errors into ``errors``."""
    ctx = browser.new_context(**{**DESKTOP, **kw})
    # (the script runs in every document, also about:blank, which has no storage)
    ctx.add_init_script("try { localStorage.setItem('tablero:confirm', 'never');" + init + " } catch (e) {}")

    def watch(page: Any) -> None:
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))

    ctx.on("page", watch)
    try:
        yield ctx
    finally:
        ctx.close()


def anchor_exists(page: Any, anchor: str) -> bool:
    return bool(page.evaluate("a => !!document.getElementById(a)", anchor))


def create_table(server: str, game: str) -> dict[str, Any]:
    n, options = TABLES[game]
    seats = [{"kind": "you", "name": "Ana"}] + [{"kind": "person", "name": f"P{i}"} for i in range(1, n)]
    r = httpx.post(server + "/api/games", json={"game": game, "seats": seats, "options": options}, timeout=30)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def seat_script(table: dict[str, Any]) -> str:
    """Put the creator's seat on this device, as the lobby does after creating the table."""
    tokens = list(table["tokens"].values()) if isinstance(table["tokens"], dict) else table["tokens"]
    return (f"localStorage.setItem('tablero:game:{table['id']}', "
            f"JSON.stringify({{tokens: {json.dumps(tokens)}, admin: {json.dumps(table.get('admin'))}}}));")


def test_lobby_links_each_games_rules_and_the_pages_read_well(browser: Any, server: str) -> None:
    errors: list[str] = []
    with context(browser, errors) as ctx:
        page = ctx.new_page()
        page.goto(server + "/?lang=en")
        page.wait_for_selector("#f-game", timeout=WAIT)
        for game_id in GAMES:
            assert page.locator(f'a.rules-link[href^="/rules/{game_id}"]').count() == 1
        page.click('a.rules-link[href^="/rules/el-grande"]')
        page.wait_for_url("**/rules/el-grande**", timeout=WAIT)
        assert "El Grande" in page.inner_text("h1")
        # the contents lead into the page, the language switch keeps the place
        page.click('#toc a[href="#scoring"]')
        assert page.evaluate("location.hash") == "#scoring"
        page.click('.langs a[data-lang="de"]')
        page.wait_for_url("**lang=de#scoring", timeout=WAIT)
        assert page.evaluate("document.documentElement.lang") == "de"
        assert "Ziel des Spiels" in page.locator("main h2").all_inner_texts()
        assert page.locator("#scoring").inner_text().startswith("Wertung")
        page.click("#to-lobby")
        page.wait_for_selector("#f-game", timeout=WAIT)
        # every game's page, on a desktop and on a phone
        for game_id in GAMES:
            page.goto(f"{server}/rules/{game_id}?lang=en")
            assert page.locator("figure.diagram svg").count() >= 1
            page.screenshot(path=str(SHOTS / f"rules-{game_id}-desktop.png"))
    with context(browser, errors, **PHONE) as ctx:
        page = ctx.new_page()
        for game_id in GAMES:
            page.goto(f"{server}/rules/{game_id}?lang=de#components")
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
            page.screenshot(path=str(SHOTS / f"rules-{game_id}-phone.png"))
    assert not errors, errors


@pytest.mark.parametrize("game_id", sorted(TABLES))
def test_table_links_the_rules_and_every_question_mark_finds_its_entry(browser: Any, server: str,
                                                                      game_id: str) -> None:
    table = create_table(server, game_id)
    errors: list[str] = []
    with context(browser, errors, init=seat_script(table)) as ctx:
        page = ctx.new_page()
        page.goto(f"{server}/game/{table['id']}")
        page.wait_for_selector(".board [data-rules]", timeout=WAIT)
        page.wait_for_function("document.querySelector('#app')?.dataset.viewer === '0'", timeout=WAIT)
        # the header's Rules link opens this game's rules in a new tab
        with ctx.expect_page() as popup:
            page.click("#rules-link")
        rules = popup.value
        rules.wait_for_load_state()
        assert f"/rules/{game_id}?lang=en" in rules.url
        assert GAMES[game_id].title in rules.inner_text("h1")
        # every "?" on the board names an entry the rules page has
        anchors = set(page.eval_on_selector_all(".board [data-rules]", "ns => ns.map(n => n.dataset.rules)"))
        assert len(anchors) >= 5
        missing = [a for a in sorted(anchors) if not anchor_exists(rules, a)]
        assert not missing, missing
        # following one opens the rules at that entry, and plays no move at the table
        link = page.locator(".board a.bk-help[data-rules^='card-'], .board a.bk-help[data-rules^='country-']").first
        anchor = link.get_attribute("data-rules")
        version = page.get_attribute("#app", "data-version")
        with ctx.expect_page() as popup:
            link.click()
        entry = popup.value
        entry.wait_for_load_state()
        assert entry.evaluate("location.hash") == f"#{anchor}"
        assert entry.evaluate("h => document.querySelector(':target') === document.getElementById(h)", anchor)
        page.wait_for_timeout(300)  # a move sent by mistake would come back as a new version
        assert page.get_attribute("#app", "data-version") == version
        assert page.locator("#all-moves").count() == 0
    assert not errors, errors


def test_a_german_table_links_the_german_rules(browser: Any, server: str) -> None:
    table = create_table(server, "don-carlo")
    errors: list[str] = []
    with context(browser, errors, init="localStorage.setItem('tablero:lang', 'de');" + seat_script(table)) as ctx:
        page = ctx.new_page()
        page.goto(f"{server}/game/{table['id']}")
        page.wait_for_selector(".board [data-rules^='country-']", timeout=WAIT)
        assert "lang=de" in (page.get_attribute("#rules-link", "href") or "")
        with ctx.expect_page() as popup:
            page.locator(".board a.bk-help[data-rules='country-protzland']").click()
        rules = popup.value
        rules.wait_for_load_state()
        assert rules.evaluate("document.documentElement.lang") == "de"
        headings = rules.locator("main h2").all_inner_texts()
        assert {"Ziel des Spiels", "Spielaufbau", "Spielende und Schlusswertung", "Glossar"} <= set(headings)
        assert "Protzland" in rules.inner_text("#country-protzland")
    assert not errors, errors
