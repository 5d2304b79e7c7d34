"""A game against a search bot in Chromium: the bot's thinking shows, a hint, the end screen's review."""

from __future__ import annotations

from random import Random
from typing import Any

from .conftest import SHOTS
from .test_play import WAIT, _page, create_in_lobby, wait_changed


def test_a_game_against_an_easy_bot_shows_its_thinking_a_hint_and_the_review(browser: Any, server: str) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    create_in_lobby(page, server, "don-carlo", ["you", "bot:easy"], {}, name="Ana", hints=True)
    page.wait_for_url("**/game/**", timeout=WAIT)
    assert "bot: Easy" in page.locator(".seatbar").inner_text()
    rng = Random(4)
    saw_bot_time = hinted = False
    for _ in range(300):
        page.wait_for_selector("#end, .moves button.move", timeout=WAIT)
        saw_bot_time = saw_bot_time or page.locator(".seatbar .think-timer, .seatbar .thought").count() > 0
        if page.locator("#end").count():
            break
        version = page.get_attribute("#app", "data-version")
        if not hinted:
            page.keyboard.press("h")  # "What would the bot play?"
            page.wait_for_selector(".moves button.move.hinted", timeout=WAIT)
            assert "asked for a hint" in page.locator(".log li.note").last.inner_text()
            page.locator(".moves button.move.hinted").click()
            hinted = True
        else:
            moves = page.locator(".moves button.move")
            moves.nth(rng.randrange(moves.count())).click()
        wait_changed(page, version)
    page.wait_for_selector("#end", timeout=WAIT)
    saw_bot_time = saw_bot_time or page.locator(".seatbar .thought").count() > 0
    assert saw_bot_time, "the seat bar showed the bot thinking or how long it thought"
    assert page.locator(".seatbar .thought").first.inner_text().startswith("thought ")
    assert page.locator("#review-seat").input_value() == "0"
    page.click("#review-open")
    page.wait_for_selector("#review .review-list .decision", timeout=WAIT)
    decisions = page.locator("#review .decision")
    assert decisions.count() > 0
    assert page.locator("#review .decision.worst").count() <= 1
    first = decisions.first
    assert first.locator(".chosen").inner_text() and first.locator(".opts li").count() >= 2
    index = first.get_attribute("data-index")
    first.locator(".d-index").click()
    page.wait_for_selector(f'.log li.focus[data-i="{index}"]', timeout=WAIT)
    page.screenshot(path=str(SHOTS / "don-carlo-review.png"), full_page=True)
    # after the game any seat may be reviewed: the bot's own decisions
    page.select_option("#review-seat-again", "1")
    page.click("#review-again")
    page.wait_for_selector("#review h2:has-text('Review: Bot B') ~ * .decision, #review .review-list .decision",
                           timeout=WAIT)
    page.wait_for_function("() => document.querySelector('#review h2').textContent.includes('Bot B')"
                           " && document.querySelector('#review .review-list')", timeout=WAIT)
    page.click("#review-close")
    page.wait_for_selector("#review", state="detached")
    assert not errors, errors
    page.context.close()
