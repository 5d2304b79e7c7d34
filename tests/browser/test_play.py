"""Whole games in Chromium by clicking: against bots, hot-seat, and two browsers online.

Screenshots of each table go to build/screenshots/.
"""

from __future__ import annotations

import contextlib
from random import Random
from typing import Any

import pytest

from .conftest import SHOTS

WAIT = 30_000


def create_in_lobby(page: Any, base: str, game: str, kinds: list[str], options: dict[str, Any],
                    name: str = "Ana") -> None:
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
    page.screenshot(path=str(SHOTS / f"lobby-{game}.png"), full_page=True)
    page.click("#f-create")


def wait_changed(page: Any, version: str | None) -> None:
    page.wait_for_function(
        """v => document.querySelector('#end') || document.querySelector('#handover-go')
               || document.querySelector('#all-moves')
               || (document.querySelector('#app').dataset.version || '') !== v""",
        arg=version or "", timeout=WAIT)


def play_to_end(page: Any, rng: Random, shot: str, *, max_steps: int = 4000) -> int:
    """Click legal moves (on the board or in the move list) until the end screen shows."""
    steps = 0
    for steps in range(max_steps):
        page.wait_for_selector("#end, .moves button.move, #handover-go", timeout=WAIT)
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
        moves.nth(rng.randrange(n)).click()
        wait_changed(page, version)
    page.wait_for_selector("#end", timeout=WAIT)
    page.screenshot(path=str(SHOTS / f"{shot}-end.png"), full_page=True)
    return steps


def _page(browser: Any, errors: list[str], **kw: Any) -> Any:
    ctx = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **kw})
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
