"""The end screen in Chromium: ranks, score breakdown, score-over-time chart, record, on desktop and phone.

Each game is played to the end against bots: Don Carlo by clicking (the player and two bots),
El Grande (short game) and Mafia Legend with bots in every seat, watched. Screenshots go to
build/screenshots/end-<game>-{desktop,phone}.png.
"""

from __future__ import annotations

import time
from itertools import pairwise
from random import Random
from typing import Any

import httpx
import pytest

from .conftest import SHOTS
from .test_play import WAIT, _page, create_in_lobby, play_to_end

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _bots_only(server: str, game: str, players: int, options: dict[str, Any], bot: str = "random") -> str:
    """A table of bots, played to the end before anyone looks (its record is published then)."""
    seats = [{"kind": "bot", "bot": bot, "name": name} for name in ("Ana", "Bea", "Cem", "Dan")[:players]]
    r = httpx.post(server + "/api/games", json={"game": game, "seats": seats, "options": options}, trust_env=False)
    assert r.status_code == 200, r.text
    gid: str = r.json()["id"]
    deadline = time.monotonic() + 180
    while httpx.get(f"{server}/api/games/{gid}/record", trust_env=False).status_code != 200:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.25)
    return gid


def _numbers(texts: list[str]) -> list[float]:
    return [float(x.replace("−", "-")) for x in texts]


def _check_end(page: Any, players: int) -> None:
    """What every end screen shows, wherever it is drawn."""
    page.wait_for_selector("#end #end-sheet tfoot td", timeout=WAIT)
    ranks = page.locator("#end .ranks li")
    assert ranks.count() == players
    by_seat = {int(li.get_attribute("data-seat")): float(li.locator(".score").get_attribute("data-score"))
               for li in ranks.all()}
    places = [int(x.rstrip(".")) for x in page.locator("#end .ranks .place").all_inner_texts()]
    assert places == sorted(places) and places[0] == 1
    # the breakdown's total row is the ranks' scores, seat by seat
    totals = page.locator("#end-sheet tfoot td")
    assert totals.count() == players
    assert {int(td.get_attribute("data-seat")): _numbers([td.inner_text()])[0] for td in totals.all()} == by_seat
    winners = page.locator("#end-winners").inner_text()
    won = page.locator("#end .ranks li.won").count()
    assert winners.startswith({0: "Nobody", 1: "Winner:"}.get(won, "Winners:")), winners
    # the chart: one line per seat, each with its letter, a title and a description
    series = page.locator("#end-chart .series")
    assert series.count() == players
    assert sorted(int(s.get_attribute("data-seat")) for s in series.all()) == list(range(players))
    letters = page.locator("#end-chart .end-letter").all_text_contents()  # SVG: no innerText
    assert letters == [chr(65 + i) for i in range(players)]
    assert page.locator("#end-chart > title").text_content() == "Score over time"
    assert "Final scores" in page.locator("#end-chart > desc").text_content()
    assert page.locator("#end-chart .axis-label").count() == 2
    # the rounds' numbers on the x axis never run into each other (short last rounds crowd the axis)
    boxes = page.evaluate("""() => [...document.querySelectorAll('#end-chart text.tick[text-anchor="middle"]')]
        .map(t => { const r = t.getBoundingClientRect(); return [r.left, r.right]; })""")
    assert all(a[1] <= b[0] for a, b in pairwise(boxes)), boxes


def _groups_open_and_close(page: Any) -> None:
    toggles = page.locator("#end-sheet .grp-toggle")
    if not toggles.count():
        return
    first = toggles.first
    before = page.locator("#end-sheet tr.row").count()
    expanded = first.get_attribute("aria-expanded") == "true"
    first.click()
    page.wait_for_function("n => document.querySelectorAll('#end-sheet tr.row').length !== n", arg=before,
                           timeout=WAIT)
    after = page.locator("#end-sheet tr.row").count()
    assert (after < before) if expanded else (after > before)


@pytest.mark.parametrize(("game", "players", "options", "bot"), [
    ("don-carlo", 3, {}, ""),
    ("el-grande", 3, {"short_game": True}, "random"),
    ("mafia-legend", 3, {}, "greedy"),  # greedy bots end a game of Mafia Legend sooner than random ones
])
def test_the_end_screen_explains_the_scores(browser: Any, server: str, game: str, players: int,
                                            options: dict[str, Any], bot: str) -> None:
    errors: list[str] = []
    page = _page(browser, errors, viewport={"width": 1280, "height": 800})
    if game == "don-carlo":  # played by clicking: the player's own end screen, with the rematch button
        create_in_lobby(page, server, game, ["you", "bot:greedy", "bot:random"], options)
        page.wait_for_url("**/game/**", timeout=WAIT)
        play_to_end(page, Random(5), f"end-{game}-play")
        table = page.url.split("#")[0]
        assert page.locator("#end #rematch").count() == 1
    else:  # bots in every seat: a spectator watches the game end
        table = f"{server}/game/{_bots_only(server, game, players, options, bot)}"
        page.goto(table)
    page.wait_for_selector("#end", timeout=WAIT)
    _check_end(page, players)
    assert page.locator("#end #review-seat").count() == 1 and page.locator("#end #review-open").count() == 1
    # the record download works
    link = page.locator("#end a#end-record")
    assert link.get_attribute("download")
    rec = page.request.get(server + link.get_attribute("href"))
    assert rec.ok and rec.json()["game"] == game and rec.json()["result"]["scores"] == [
        float(x) for x in page.locator("#end-sheet tfoot td").all_inner_texts()]
    # the panel sits beside the board, never on it
    board, end = page.locator(".board").bounding_box(), page.locator("#end").bounding_box()
    assert end["x"] >= board["x"] + board["width"] or end["y"] >= board["y"] + board["height"]
    _groups_open_and_close(page)
    page.screenshot(path=str(SHOTS / f"end-{game}-desktop.png"), full_page=True)
    # collapsed to one line and back
    assert page.locator("#replay-open").count() == 0  # one Replay button: the end screen's
    page.click("#end-toggle")
    page.wait_for_selector("#end-body", state="detached", timeout=WAIT)
    assert page.locator("#end-winners").is_visible()
    assert page.locator("#replay-open").count() == 1  # folded: the side panel's box stands in
    page.click("#end-toggle")
    page.wait_for_selector("#end-chart", timeout=WAIT)

    # a phone: the panel fits the screen's width
    phone = _page(browser, errors, **PHONE)
    phone.goto(table)
    phone.wait_for_selector("#end #end-chart", timeout=WAIT)
    _check_end(phone, players)
    box = phone.locator("#end").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    for part in ("#end-sheet", "#end-chart", "#end .ranks"):
        b = phone.locator(part).bounding_box()
        assert b["x"] >= 0 and b["x"] + b["width"] <= 390, (part, b)
    phone.locator("#end").scroll_into_view_if_needed()
    phone.screenshot(path=str(SHOTS / f"end-{game}-phone.png"), full_page=True)
    # the replay opens from the end screen, at the start (no scrolling down to its box)
    phone.click("#end #end-replay")
    phone.wait_for_selector('#replay[data-at="0"]', timeout=WAIT)
    assert phone.locator("#app").is_hidden()
    assert not errors, errors
    phone.context.close()
    page.context.close()


def test_the_end_screen_speaks_german(browser: Any, server: str) -> None:
    errors: list[str] = []
    page = _page(browser, errors, viewport={"width": 1280, "height": 800})
    page.context.add_init_script("localStorage.setItem('tablero:lang', 'de')")
    page.goto(f"{server}/game/{_bots_only(server, 'don-carlo', 2, {})}")
    page.wait_for_selector("#end #end-sheet tfoot td", timeout=WAIT)
    assert page.locator("#end-title").inner_text() == "Endwertung"
    assert page.locator("#end-sheet tfoot th").inner_text() == "Summe"
    assert page.locator("#end-chart > title").text_content() == "Punkte im Verlauf"
    winners = page.locator("#end-winners").inner_text()
    assert winners.startswith("Gewonnen hat ") or winners.startswith("Gewonnen haben "), winners
    groups = page.locator("#end-sheet .grp-toggle").all_inner_texts()
    assert any("Einfluss" in g for g in groups), groups
    assert not errors, errors
    page.context.close()


def test_el_grande_places_read_as_ordinals_and_lang_in_the_address_is_kept(browser: Any, server: str) -> None:
    """The seat panels' place badges read "1st place" in English, "1. Platz" in German; a ?lang=
    in the address chooses the language and the next page without it keeps it."""
    errors: list[str] = []
    page = _page(browser, errors, viewport={"width": 1280, "height": 800})
    table = f"{server}/game/{_bots_only(server, 'el-grande', 3, {'short_game': True})}"
    page.goto(table + "?lang=en")
    page.wait_for_selector("#end", timeout=WAIT)
    page.wait_for_selector(".board .eg-badge-rank", timeout=WAIT)
    badges = page.locator(".eg-badge-rank").all_inner_texts()
    assert all(b.lstrip("★ ").split()[0] in ("1st", "2nd", "3rd") and b.endswith("place") for b in badges), badges
    page.goto(table + "?lang=de")
    page.wait_for_selector("#end", timeout=WAIT)
    page.wait_for_selector(".board .eg-badge-rank", timeout=WAIT)
    assert all(b.lstrip("★ ").split()[0] in ("1.", "2.", "3.") and b.endswith("Platz")
               for b in page.locator(".eg-badge-rank").all_inner_texts())
    page.goto(server + "/")  # no ?lang=: the lobby stays German
    page.wait_for_selector("#f-game", timeout=WAIT)
    assert page.locator("#langs .lang.active, .langs .lang.active").first.inner_text() == "Deutsch"
    assert not errors, errors
    page.context.close()
