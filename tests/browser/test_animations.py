"""Animations at the table: pieces and cards glide to where they went (boardkit.js BoardKit.animate).

A card that changes place starts where it was and ends where it now stands; nothing moves with
the system's reduced motion or the table's setting off; a key press finishes what runs; the
boards of all three games keep stable keys and draw without errors while animating.
Screenshots: build/screenshots/animation-*.png (a card or piece caught in flight, the setting).
"""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest

from .conftest import SHOTS
from .test_play import WAIT
from .test_table import DESKTOP, PHONE, create

LONG = 600_000  # ms: an animation that cannot end by itself while the test looks at it

# the animations BoardKit.animate runs (id "bk-anim") on the board, and its flying copies
RUNNING = """() => [...document.querySelectorAll('.board *')]
  .filter(e => e.getAnimations().some(a => a.id === 'bk-anim'))
  .map(e => e.getAttribute('data-anim') || (e.closest('.bk-ghost') ? 'ghost' : e.tagName))"""
KEYS = "() => [...document.querySelectorAll('.board [data-anim]')].map(e => e.dataset.anim)"
CENTRE = """k => { const e = document.querySelector(`.board [data-anim="${k}"]`); if (!e) return null;
  const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }"""


def open_seat(browser: Any, base: str, g: dict[str, Any], errors: list[str], **ctx: Any) -> Any:
    """Seat 0 of ``g`` in a new browser context (every move played at once: no confirm step)."""
    context = browser.new_context(**{**DESKTOP, **ctx})
    stored = {"tokens": [g["tokens"]["0"]], "admin": g["admin"]}
    context.add_init_script(f"localStorage.setItem('tablero:lang', 'en');"
                            f"localStorage.setItem('tablero:confirm', 'never');"
                            f"localStorage.setItem('tablero:game:{g['id']}', {json.dumps(json.dumps(stored))});")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{base}/game/{g['id']}")
    return page


def version(page: Any) -> str:
    v: str = page.get_attribute("#app", "data-version") or ""
    return v


def play(page: Any, button: Any) -> None:
    """Click a move and wait for the update that follows it."""
    v = version(page)
    button.click()
    page.wait_for_function("v => (document.querySelector('#app')?.dataset.version || v) !== v", arg=v, timeout=WAIT)


def play_until(page: Any, prefixes: tuple[str, ...], limit: int = 40) -> Any:
    """Play the first listed move until one whose wire text starts with a prefix is offered; return
    the last such move (El Grande: the card lowest on offer, which has the longest way to go)."""
    for _ in range(limit):
        page.wait_for_selector(".moves button.move", timeout=WAIT)
        moves = page.locator(".moves button.move")
        fit = [i for i in range(moves.count())
               if (moves.nth(i).get_attribute("data-action") or "").startswith(prefixes)]
        if fit:
            return moves.nth(fit[-1])
        play(page, moves.first)
    raise AssertionError(f"no move {prefixes} offered")


def el_grande(server: str) -> dict[str, Any]:
    return create(server, "el-grande", [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "random"}],
                  {"short_game": True})


def test_a_card_glides_from_its_old_place_to_its_new_one(browser: Any, server: str) -> None:
    """El Grande: the action card taken leaves the offer for "In play"; it starts where it was."""
    errors: list[str] = []
    page = open_seat(browser, server, el_grande(server), errors)
    page.wait_for_selector(".moves button.move", timeout=WAIT)
    assert page.evaluate(RUNNING) == [], "nothing moves on the first drawing"
    take = play_until(page, ("take ",))
    card = "card-" + take.get_attribute("data-action").split()[1]
    page.evaluate(f"BoardKit.animate.stop(); BoardKit.animate.options.duration = {LONG}")
    before = page.evaluate(CENTRE, card)
    assert before, "the card on offer has its key"
    play(page, take)
    assert card in page.evaluate(RUNNING), "the card that moved is animated"
    # at its start the card stands where it stood before the move, ...
    page.evaluate("k => document.querySelector(`.board [data-anim='${k}']`).getAnimations()"
                  ".forEach(a => { a.pause(); a.currentTime = 0; })", card)
    start = page.evaluate(CENTRE, card)
    assert abs(start[0] - before[0]) < 2 and abs(start[1] - before[1]) < 2, (start, before)
    page.evaluate("k => document.querySelector(`.board [data-anim='${k}']`).getAnimations()"
                  ".forEach(a => { a.currentTime = 0.4 * a.effect.getTiming().duration; })", card)
    page.screenshot(path=str(SHOTS / "animation-el-grande-card.png"))
    # the same position drawn again (a bot starts thinking): the card flies on from where it is
    mid = page.evaluate(CENTRE, card)
    page.evaluate("Tablero.ctx.draw()")
    assert card in page.evaluate(RUNNING)
    page.evaluate("k => document.querySelector(`.board [data-anim='${k}']`).getAnimations()"
                  ".forEach(a => { a.pause(); a.currentTime = 0; })", card)
    again = page.evaluate(CENTRE, card)
    assert abs(again[0] - mid[0]) < 2 and abs(again[1] - mid[1]) < 2, (again, mid)
    # ... and once finished it stands at its new place, with no transform left
    page.evaluate("Promise.all(document.getAnimations().filter(a => a.id === 'bk-anim')"
                  ".map(a => { a.finish(); return a.finished; }))")
    end = page.evaluate(CENTRE, card)
    assert abs(end[0] - before[0]) + abs(end[1] - before[1]) > 10, "the card is at another place"
    assert page.evaluate(RUNNING) == [] and page.evaluate("BoardKit.animate.running()") == 0
    assert page.evaluate("k => getComputedStyle(document.querySelector(`.board [data-anim='${k}']`)).translate",
                         card) in ("none", "0px", "0px 0px")
    assert page.locator(f".board .eg-current [data-anim='{card}']").count() == 1
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("off", ["reduced-motion", "setting"])
def test_nothing_moves_with_reduced_motion_or_the_setting_off(browser: Any, server: str, off: str) -> None:
    errors: list[str] = []
    ctx = {"reduced_motion": "reduce"} if off == "reduced-motion" else {}
    page = open_seat(browser, server, el_grande(server), errors, **ctx)
    take = play_until(page, ("take ",))
    page.click("#settings-button")
    box = page.locator("#anim-setting")
    if off == "setting":
        assert box.is_checked(), "animations are on unless switched off"
        page.screenshot(path=str(SHOTS / "animation-setting.png"))
        box.uncheck()
        assert page.evaluate("localStorage.getItem('tablero:anim')") == "off"
        assert page.locator("#anim-reduced").count() == 0
    else:
        assert page.locator("#anim-reduced").is_visible(), "the menu says why nothing moves"
        assert box.is_disabled() and not box.is_checked()
        page.screenshot(path=str(SHOTS / "animation-setting-reduced.png"))
    page.click("#settings-button")
    page.evaluate(f"BoardKit.animate.stop(); BoardKit.animate.options.duration = {LONG}")
    card = "card-" + take.get_attribute("data-action").split()[1]
    before = page.evaluate(CENTRE, card)
    play(page, take)
    assert page.evaluate(CENTRE, card) != before, "the card did change place"
    assert page.evaluate(RUNNING) == [] and page.evaluate("BoardKit.animate.running()") == 0
    assert page.locator(".bk-ghost").count() == 0
    assert not errors, errors
    page.context.close()


def test_a_key_press_finishes_the_animations_at_once(browser: Any, server: str) -> None:
    """Mafia Legend: money taken from behind the screen flies to the hand; a key press ends it."""
    errors: list[str] = []
    g = create(server, "mafia-legend", [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "random"},
                                        {"kind": "bot", "bot": "random"}], {"variant": "beginner"})
    page = open_seat(browser, server, g, errors)
    money = play_until(page, ("to_hand ", "to_screen "))
    page.evaluate(f"BoardKit.animate.options.duration = {LONG}; BoardKit.animate.options.fade = {LONG}")
    play(page, money)
    flying = page.evaluate(RUNNING)
    assert flying and page.evaluate("BoardKit.animate.running()") > 0, "the money card is on its way"
    page.evaluate("document.getAnimations().filter(a => a.id === 'bk-anim')"
                  ".forEach(a => { a.pause(); a.currentTime = 0.35 * a.effect.getTiming().duration; })")
    page.screenshot(path=str(SHOTS / "animation-mafia-legend-money.png"), full_page=True)
    page.keyboard.press("Shift")
    assert page.evaluate(RUNNING) == [] and page.evaluate("BoardKit.animate.running()") == 0
    assert page.locator(".bk-ghost").count() == 0, "the flying copies are gone"
    left = page.evaluate("""() => [...document.querySelectorAll('.board [data-anim]')]
        .filter(e => !['none', '0px', '0px 0px'].includes(getComputedStyle(e).translate)).length""")
    assert left == 0, "every piece stands at its place"
    assert not errors, errors
    page.context.close()


def test_an_el_grande_power_card_played_again_is_keyed_once(browser: Any, server: str) -> None:
    """A power card taken back (4E) and played again shows twice in its player's log: only its
    last showing is the card (a key used twice made the deep tier fail on ``power-1-1``)."""
    errors: list[str] = []
    g = create(server, "el-grande", [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "greedy"},
                                     {"kind": "bot", "bot": "random"}], {"short_game": True})
    page = open_seat(browser, server, g, errors)
    page.wait_for_selector(".moves button.move", timeout=WAIT)
    keyed = page.evaluate("""() => { const S = Tablero.ctx.S;
        for (const p of Object.values(S.payloads)) p.view.public.power_log[1] = [5, 1, 0, 1];
        BoardKit.animate.stop(); Tablero.ctx.draw();
        return [...document.querySelectorAll('.board [data-anim^="power-1-"]')].map(e => e.dataset.anim); }""")
    assert sorted(keyed) == ["power-1-1", "power-1-5"]
    keys = page.evaluate(KEYS)
    assert len(keys) == len(set(keys)), f"a key is used twice: {sorted(k for k in keys if keys.count(k) > 1)}"
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize(("game", "options", "shape"), [
    ("don-carlo", {}, DESKTOP),
    ("el-grande", {"short_game": True}, DESKTOP),
    ("mafia-legend", {"variant": "beginner"}, PHONE),
])
def test_every_board_keys_its_pieces_and_animates_without_errors(
        browser: Any, server: str, game: str, options: dict[str, Any], shape: dict[str, Any]) -> None:
    errors: list[str] = []
    g = create(server, game, [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "greedy"},
                              {"kind": "bot", "bot": "random"}], options)
    page = open_seat(browser, server, g, errors, **shape)
    page.wait_for_selector(".moves button.move", timeout=WAIT)
    rng = Random(7)
    animated, shot = 0, False
    normal = page.evaluate("BoardKit.animate.options.duration")
    for step in range(10):
        page.wait_for_selector(".moves button.move, #end", timeout=WAIT)
        keys = page.evaluate(KEYS)
        assert keys or page.locator(".board [data-anim-origin]").count(), "the board keys its pieces and places"
        assert len(keys) == len(set(keys)), f"a key is used twice: {sorted(k for k in keys if keys.count(k) > 1)}"
        inline = page.evaluate("""() => [...document.querySelectorAll('.board [data-anim]')]
            .filter(e => !(e instanceof SVGElement) && getComputedStyle(e).display === 'inline')
            .map(e => e.dataset.anim)""")
        assert inline == [], f"an inline element cannot be moved by a transform: {inline}"
        # the same position drawn again: the same keys, and nothing moves
        page.evaluate("BoardKit.animate.stop(); Tablero.ctx.draw()")
        assert page.evaluate(KEYS) == keys
        assert page.evaluate(RUNNING) == []
        if page.locator("#end").count():
            break
        moves = page.locator(".moves button.move")
        slow = step >= 3 and not shot  # one move caught in flight for the screenshot
        if slow:
            page.evaluate(f"BoardKit.animate.options.duration = {LONG}")
        play(page, moves.nth(rng.randrange(moves.count())))
        flying = page.evaluate(RUNNING)
        animated += len(flying)
        if slow:
            if flying:
                page.evaluate("document.getAnimations().filter(a => a.id === 'bk-anim')"
                              ".forEach(a => { a.pause(); a.currentTime = 0.3 * a.effect.getTiming().duration; })")
                page.screenshot(path=str(SHOTS / f"animation-{game}-{'phone' if shape is PHONE else 'desktop'}.png"),
                                full_page=True)
                shot = True
            page.evaluate(f"BoardKit.animate.stop(); BoardKit.animate.options.duration = {normal}")
    assert animated > 0, "some piece or card moved in ten moves"
    assert not errors, errors
    page.context.close()


# Each time the log list is put into the page (every drawing): which lines run an animation then
# (getAnimations() resolves the styles at once, so a line about to fade in counts too).
WATCH_LOG = """() => { window.logAnims = [];
  const look = () => window.logAnims.push([...document.querySelectorAll('.log li')]
    .filter(li => li.getAnimations().length).map(li => li.querySelector('.n').textContent));
  new MutationObserver(recs => {
    if (recs.some(r => [...r.addedNodes].some(n => n.nodeType === 1 && (n.matches('.log, .log li')
        || n.querySelector('.log'))))) look();
  }).observe(document.body, { childList: true, subtree: true }); }"""
# the table drawn again, and at once how its newest log lines look (one evaluate: bots redraw too)
REDRAW_NEWEST = """() => { Tablero.ctx.draw();
  return [...document.querySelectorAll('.log li')].slice(-5)
    .map(li => [li.querySelector('.n').textContent, getComputedStyle(li).opacity, li.getAnimations().length]); }"""


def _moves_with_redraws(page: Any, moves: int) -> list[list[Any]]:
    """Play ``moves`` moves; after each, draw the table again (as a setting changed or a bot starting
    to think does) and return the newest log lines as they stand right after each redraw."""
    page.wait_for_selector(".moves button.move", timeout=WAIT)
    page.evaluate(WATCH_LOG)
    newest: list[list[Any]] = []
    for _ in range(moves):
        page.wait_for_selector(".moves button.move", timeout=WAIT)
        play(page, page.locator(".moves button.move").first)
        newest += page.evaluate(REDRAW_NEWEST)
    return newest


def test_a_new_log_line_fades_in_once_and_a_redraw_shows_it_at_once(browser: Any, server: str) -> None:
    """The log list is put back into the page at every drawing; a line that came in fades in
    once, and a redraw (a setting changed, a bot thinking, the end screen folded) shows it at once."""
    errors: list[str] = []
    page = open_seat(browser, server, el_grande(server), errors)
    newest = _moves_with_redraws(page, 4)
    assert newest and all(opacity == "1" and running == 0 for _, opacity, running in newest), newest
    seen = page.evaluate("window.logAnims")
    faded = [n for shot in seen for n in shot]
    assert faded, "lines that come in fade in"
    again = sorted({n for n in faded if faded.count(n) > 1})
    assert again == [], f"log lines faded in again at a redraw: {again}"
    # a setting switched off and on again redraws the table: the newest lines stay in view
    page.click("#settings-button")
    page.locator("#anim-setting").uncheck()
    page.locator("#anim-setting").check()
    page.click("#settings-button")
    assert all(opacity == "1" and running == 0 for _, opacity, running in page.evaluate(REDRAW_NEWEST))
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("off", ["reduced-motion", "setting"])
def test_no_log_line_fades_in_with_reduced_motion_or_the_setting_off(browser: Any, server: str, off: str) -> None:
    errors: list[str] = []
    ctx = {"reduced_motion": "reduce"} if off == "reduced-motion" else {}
    page = open_seat(browser, server, el_grande(server), errors, **ctx)
    if off == "setting":
        page.click("#settings-button")
        page.locator("#anim-setting").uncheck()
        page.click("#settings-button")
    newest = _moves_with_redraws(page, 3)
    assert all(opacity == "1" for _, opacity, _ in newest), newest
    seen = page.evaluate("window.logAnims")
    assert len(seen) >= 3, "the log was drawn after every move"
    assert all(shot == [] for shot in seen), f"log lines faded in: {seen}"
    assert not errors, errors
    page.context.close()
