"""The tutorials in Chromium: each game's tutorial played through by clicking, from the lobby's
"Learn to play" link to the last step, in one language (and its first step in the other).

Every step: a wrong move first (refused: the hint shows, the step and the position stay), then the
right one — on the board where a place plays it (a region, a card, a country), else from the move
list — and its explanation; then "Next step". Screenshots: tutorial-<game>-desktop.png (a step
just explained) and tutorial-<game>-phone.png (a phone: the task above the board, nothing wider
than the screen).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tablero.core.messages import Translator
from tablero.core.tutorial import Tutorial
from tablero.games.mafia import data as ml_data
from tablero.registry import get_tutorial
from tablero.server.i18n import UI

from .conftest import SHOTS

WAIT = 20_000
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
LANG_BUTTON = {"en": "English", "de": "Deutsch"}
SHOT_STEP = {"el-grande": 5, "don-carlo": 4, "mafia-legend": 3}
"""The step of each game whose explanation the desktop screenshot shows."""


def words(tut: Tutorial[Any, Any, Any], lang: str) -> Translator:
    return Translator(lang, [tut.game.catalogue(), tut.catalogue], tut.names)


def wait_step(page: Any, k: int, done: str) -> None:
    page.wait_for_function(
        "([k, d]) => { const a = document.querySelector('#app');"
        " return a.dataset.step === String(k) && a.dataset.done === d; }",
        arg=[k, done], timeout=WAIT)


def move_texts(page: Any) -> list[str]:
    return page.eval_on_selector_all(".tut-moves button.move", "bs => bs.map(b => b.dataset.action)")


def board_click(page: Any, gid: str, text: str) -> bool:
    """Play ``text`` by clicking the board: a place that plays it alone, or a place that narrows the
    move list to it (a Don Carlo country, a Mafia Legend hand card) and then the list. False if no
    place of the board stands for the move."""
    label = page.inner_text(f'.tut-moves button[data-action="{text}"]').strip()
    labels = page.eval_on_selector_all(".tut-board [data-bk-place]",
                                       "ns => ns.map(n => n.getAttribute('aria-label') || '')")
    alone = [i for i, a in enumerate(labels) if a == label or a.endswith(": " + label)]
    if alone:
        page.locator(".tut-board [data-bk-place]").nth(alone[0]).click()
        return True
    if gid == "don-carlo":
        place = page.locator(".tut-board .dc-country.clickable").filter(
            has=page.locator(".dc-ghost .dc-agent-code", has_text=re.compile(rf"^{re.escape(text)}$"))).first
    elif gid == "mafia-legend" and text.startswith("play "):  # a card of the hand or the screen, picked
        card, source = text.split()[1:3]

        def shows(a: str) -> bool:
            if card in ml_data.MONEY:
                return a.endswith(f": ${ml_data.MONEY[card]}") and a.startswith("Hand") == (source == "hand")
            return f" {card} " in a + " "
        found = [i for i, a in enumerate(labels) if shows(a)]
        if not found:
            return False
        place = page.locator(".tut-board [data-bk-place]").nth(found[0])
    else:
        return False
    if not place.count():
        return False
    place.click()
    page.wait_for_selector("#tut-all-moves, #tut-say", timeout=WAIT)
    if page.locator("#tut-all-moves").count():
        page.click(f'.tut-moves button[data-action="{text}"]')
    return True


def play_step(page: Any, tut: Tutorial[Any, Any, Any], k: int, lang: str, gid: str) -> bool:
    """Step ``k``: a wrong move (refused, nothing changes), then the accepted one. True if the board played it."""
    step, tr = tut.steps[k], words(tut, lang)
    wait_step(page, k, "false")
    assert page.inner_text("#tut-task") == tr(step.task)
    assert page.inner_text("#tut-title") == tr(step.title)
    assert page.inner_text("#tut-progress") == UI[lang]["tutorial.step"].format(n=k + 1, count=len(tut.steps))
    legal = move_texts(page)
    right = next(t for t in legal if step.accepts(t))
    wrong = next(t for t in legal if not step.accepts(t))
    board_before = page.inner_text(".tut-board")
    page.click(f'.tut-moves button[data-action="{wrong}"]')
    page.wait_for_selector('#tut-say[data-accepted="false"]', timeout=WAIT)
    assert tr(step.hint) in page.inner_text("#tut-say")
    wait_step(page, k, "false")
    assert move_texts(page) == legal
    assert page.inner_text(".tut-board") == board_before
    on_board = board_click(page, gid, right)
    if not on_board:
        page.click(f'.tut-moves button[data-action="{right}"]')
    page.wait_for_selector('#tut-say[data-accepted="true"]', timeout=WAIT)
    wait_step(page, k, "true")
    assert tr(step.explain) in page.inner_text("#tut-say")
    assert page.locator(".tut-moves button.move").count() == 0  # done: the learner reads and goes on
    return on_board


def switch_language(page: Any, lang: str) -> None:
    page.click(f'header .langs button:has-text("{LANG_BUTTON[lang]}")')
    page.wait_for_function(
        "l => document.documentElement.lang === l && new URLSearchParams(location.search).get('lang') === l",
        arg=lang, timeout=WAIT)


@pytest.mark.parametrize(("gid", "lang"), [("el-grande", "en"), ("don-carlo", "de"), ("mafia-legend", "en")])
def test_tutorial_played_through_by_clicking(browser: Any, server: str, gid: str, lang: str) -> None:
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    tut = get_tutorial(gid)
    other = "de" if lang == "en" else "en"
    page.add_init_script(f"localStorage.getItem('tablero:lang') || localStorage.setItem('tablero:lang', '{lang}')")
    page.goto(f"{server}/?lang={lang}")
    link = page.locator(f'.titles li[data-game="{gid}"] a.tutorial-link')
    link.wait_for(timeout=WAIT)
    assert link.inner_text() == UI[lang]["tutorial.link"]
    link.click()
    page.wait_for_url(f"**/tutorial/{gid}?lang={lang}**", timeout=WAIT)
    wait_step(page, 0, "false")
    assert page.inner_text(".tut-intro") == words(tut, lang)(tut.intro)

    # the first step in the other language, then back: the step (done) stays as it was
    switch_language(page, other)
    board = play_step(page, tut, 0, other, gid)
    switch_language(page, lang)
    wait_step(page, 0, "true")
    assert words(tut, lang)(tut.steps[0].explain) in page.inner_text("#tut-say")
    page.click("#tut-next")

    on_board = int(board)
    for k in range(1, len(tut.steps)):
        if tut.steps[k].id == "blocked":  # Don Carlo: the board speaks to the learner who is blocked
            wait_step(page, k, "false")
            note = page.inner_text(".tut-board .dc-blocknote")
            assert note.startswith({"en": "You are blocked", "de": "Du bist blockiert"}[lang]), note
        on_board += play_step(page, tut, k, lang, gid)
        if k == SHOT_STEP[gid]:
            page.screenshot(path=str(SHOTS / f"tutorial-{gid}-desktop.png"), full_page=True)
        page.click("#tut-next")
    page.wait_for_selector("#tut-finish", timeout=WAIT)
    assert page.inner_text("#tut-finish h2") == UI[lang]["tutorial.finish_title"]
    assert on_board >= 3, f"only {on_board} steps were played on the board"
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("gid", ["el-grande", "don-carlo", "mafia-legend"])
def test_tutorial_on_a_phone(browser: Any, server: str, gid: str) -> None:
    errors: list[str] = []
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    tut = get_tutorial(gid)
    k = 3
    page.goto(f"{server}/tutorial/{gid}?lang=de#step-{k + 1}")
    wait_step(page, k, "false")
    task, board = page.locator("#tut-task").bounding_box(), page.locator(".tut-board").bounding_box()
    assert task is not None and board is not None
    assert task["y"] + task["height"] <= board["y"]  # the task comes first, then the board
    assert task["y"] + task["height"] < 844  # and on the first screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the board pans inside its box
    step = tut.steps[k]
    right = next(t for t in move_texts(page) if step.accepts(t))
    page.click(f'.tut-moves button[data-action="{right}"]')
    page.wait_for_selector('#tut-say[data-accepted="true"]', timeout=WAIT)
    assert words(tut, "de")(step.explain) in page.inner_text("#tut-say")
    say = page.locator("#tut-say").bounding_box()
    assert say is not None and say["x"] >= 0 and say["x"] + say["width"] <= 390
    page.screenshot(path=str(SHOTS / f"tutorial-{gid}-phone.png"), full_page=True)
    assert not errors, errors
    ctx.close()
