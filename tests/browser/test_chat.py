"""The table's chat and the "your turn" alerts in Chromium: two browsers chat, a spectator reads
(or writes) as the creator chose, markup shows as text, mutes, and the tab's title and icon when
it becomes your move while the tab is in the background.

Screenshots: build/screenshots/chat-desktop.png and chat-phone.png.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from .conftest import SHOTS
from .test_play import WAIT

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}

HIDE = """() => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.hasFocus = () => false;
  document.dispatchEvent(new Event("visibilitychange"));
}"""
"""The tab goes to the background (what switching tabs does to a page)."""

ASK = """() => {
  let state = "default"; window.asked = 0;
  Object.defineProperty(Notification, "permission", { configurable: true, get: () => state });
  Notification.requestPermission = async () => { window.asked += 1; state = "granted"; return state; };
}"""
"""The browser's notification permission, not asked yet; asking it counts (window.asked) and grants it."""

RECORD = """() => {
  window.made = []; window.beeps = 0;
  const N = function (title, opts) { window.made.push([title, opts.body]); this.close = () => {}; };
  N.permission = "granted"; N.requestPermission = async () => "granted";
  window.Notification = N;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...a) { window.beeps += 1; return start.apply(this, a); };
}"""
"""Count the notifications shown and the beeps started (the browser's own would need a person)."""

SHOW = """() => {
  delete document.visibilityState; delete document.hidden; delete document.hasFocus;
  document.dispatchEvent(new Event("visibilitychange"));
  window.dispatchEvent(new Event("focus"));
}"""


def create(base: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = httpx.post(base + "/api/games", json={"game": "don-carlo", "seats": seats, **extra}, trust_env=False)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def open_table(browser: Any, base: str, g: dict[str, Any], errors: list[str], seats: tuple[int, ...],
               ctx: dict[str, Any] | None = None, *, admin: bool = False) -> Any:
    """The table of ``g`` in a new browser context holding ``seats`` (none: a spectator)."""
    context = browser.new_context(**(ctx or DESKTOP))
    stored = {"tokens": [g["tokens"][str(s)] for s in seats], "admin": g["admin"] if admin else None}
    context.add_init_script(
        "localStorage.setItem('tablero:lang', 'en'); localStorage.setItem('tablero:confirm', 'never');"
        f"localStorage.setItem('tablero:game:{g['id']}', {json.dumps(json.dumps(stored))});")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/game/{g['id']}")
    page.wait_for_selector("#chat", timeout=WAIT)
    return page


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def lines(page: Any) -> list[str]:
    texts: list[str] = page.locator(".chat-list .chat-text").all_inner_texts()
    return texts


def wait_lines(page: Any, n: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('.chat-list .chat-text').length === n", arg=n,
                           timeout=WAIT)


def test_two_browsers_chat_a_spectator_reads_and_markup_stays_text(browser: Any, server: str) -> None:
    errors: list[str] = []
    g = create(server, [{"kind": "you", "name": "Ana"}, {"kind": "local", "name": "Bea"}])  # chat: players
    ana = open_table(browser, server, g, errors, (0,), admin=True)
    bea = open_table(browser, server, g, errors, (1,), PHONE)
    spec = open_table(browser, server, g, errors, ())

    # On a phone the chat starts folded: new lines show as a count until it is opened.
    say(ana, "Hola <b>html</b> & <img src=x onerror=alert(1)>")
    bea.wait_for_selector("#chat-unread", timeout=WAIT)
    assert bea.inner_text("#chat-unread") == "1"
    bea.click("#chat-toggle")
    wait_lines(bea, 1)
    assert bea.locator("#chat-unread").count() == 0
    assert lines(bea) == ["Hola <b>html</b> & <img src=x onerror=alert(1)>"]
    assert bea.locator(".chat-list b, .chat-list img").count() == 0  # shown as text, never as HTML
    assert bea.inner_text(".chat-line .chat-name") == "Ana"
    say(bea, "Buenas, Ana")
    wait_lines(ana, 2)
    assert lines(ana)[1] == "Buenas, Ana"

    # The spectator reads both lines and may not write ("players").
    wait_lines(spec, 2)
    assert spec.locator("#chat-input").is_hidden()
    assert "Only the players write" in spec.inner_text("#chat-note")

    # What is typed survives a move arriving (the table redraws).
    bea.fill("#chat-input", "half a senten")
    v = ana.get_attribute("#app", "data-version")
    mover = ana if ana.locator(".moves button.move").count() else bea
    mover.locator(".moves button.move").first.click()
    bea.wait_for_function("v => document.querySelector('#app')?.dataset.version !== v", arg=v, timeout=WAIT)
    assert bea.input_value("#chat-input") == "half a senten"

    # Bea hides Ana's lines on her device; Ana (the creator) mutes Bea for the table.
    bea.click("#chat-mute-summary")
    bea.check(".mute-here[data-seat='0']")
    wait_lines(bea, 1)
    assert lines(bea) == ["Buenas, Ana"]
    ana.click("#chat-mute-summary")
    ana.check(".mute-table[data-seat='1']")
    bea.wait_for_selector("#chat-note:has-text('muted you')", timeout=WAIT)
    assert bea.locator("#chat-input").is_hidden()
    ana.screenshot(path=str(SHOTS / "chat-desktop.png"))
    bea.uncheck(".mute-here[data-seat='0']")
    wait_lines(bea, 2)
    bea.locator("#chat").scroll_into_view_if_needed()
    bea.screenshot(path=str(SHOTS / "chat-phone.png"))

    # After a reload the history comes back from the server.
    ana.reload()
    ana.wait_for_selector("#chat-toggle", timeout=WAIT)
    wait_lines(ana, 2)
    assert lines(ana) == ["Hola <b>html</b> & <img src=x onerror=alert(1)>", "Buenas, Ana"]
    assert not errors, errors
    for p in (ana, bea, spec):
        p.context.close()


def test_spectators_write_when_the_creator_lets_them_and_errors_are_clear(browser: Any, server: str) -> None:
    errors: list[str] = []
    ana = browser.new_context(**DESKTOP).new_page()
    ana.on("pageerror", lambda e: errors.append(str(e)))
    ana.goto(server + "/?lang=en")
    ana.select_option("#f-game", "don-carlo")
    ana.select_option("#f-players", "2")
    ana.select_option("#f-kind-1", "bot:random")
    ana.fill("#f-name-0", "Ana")
    ana.click("#create-form details > summary")
    ana.select_option("#f-chat", "all")  # the creator lets spectators write
    ana.click("#f-create")
    ana.wait_for_url("**/game/**", timeout=WAIT)
    ana.wait_for_selector("#chat-input", timeout=WAIT)
    spec = browser.new_context(**DESKTOP).new_page()
    spec.on("pageerror", lambda e: errors.append(str(e)))
    spec.goto(ana.url)
    spec.fill("#chat-name", "Carla")
    say(spec, "Go Ana!")
    wait_lines(ana, 1)
    assert ana.inner_text(".chat-line .chat-name") == "Carla (watching)"
    assert lines(ana) == ["Go Ana!"]
    for i in range(6):  # the sixth message within ten seconds is refused, clearly
        say(ana, f"thanks {i}")
    ana.wait_for_selector("#chat-error", timeout=WAIT)
    assert "at most 5 messages in 10 seconds" in ana.inner_text("#chat-error")
    assert ana.input_value("#chat-input") == "thanks 5"  # the refused text comes back to edit
    wait_lines(ana, 6)
    assert lines(ana) == ["Go Ana!", *(f"thanks {i}" for i in range(5))]
    assert not errors, errors
    for p in (ana, spec):
        p.context.close()


def test_the_title_and_icon_change_when_it_becomes_your_move_in_a_hidden_tab(browser: Any, server: str) -> None:
    errors: list[str] = []
    g = create(server, [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "random"}], chat="off")
    page = open_table(browser, server, g, errors, (0,))
    assert "No chat at this table" in page.inner_text("#chat")  # the alerts are in the ⚙ menu all the same
    page.wait_for_selector(".moves button.move", timeout=WAIT)
    title = page.title()
    icon = "document.querySelector(\"link[rel~='icon']\").getAttribute('href')"
    assert page.evaluate(icon) == "/favicon.svg"
    page.evaluate(HIDE)
    for _ in range(40):  # play until the bot has moved and it is Ana's move again
        v = page.get_attribute("#app", "data-version")
        page.locator(".moves button.move").first.click()
        page.wait_for_function("v => document.querySelector('#app')?.dataset.version !== v", arg=v, timeout=WAIT)
        page.wait_for_selector(".moves button.move", timeout=WAIT)
        if page.title() != title:
            break
    assert page.title() == "● Your move — Don Carlo"
    assert page.evaluate(icon) == "/static/app/favicon-turn.svg"
    assert "●" not in page.inner_text("header.top h1")  # the page's own header keeps the game's name
    page.evaluate(SHOW)
    assert page.title() == title
    assert page.evaluate(icon) == "/favicon.svg"
    # Sound and notification are the player's choice in the table's ⚙ menu, kept on the device (off
    # until switched on); the browser's permission is asked only when notifications are switched on.
    page.evaluate(ASK)
    assert page.locator(".chat-part svg, #alerts-menu").count() == 0  # no second menu in the chat
    page.click("#settings-button")
    assert "Your turn alerts" in page.inner_text("#settings-alerts")
    assert not page.is_checked("#alert-sound") and not page.is_checked("#alert-notify")
    page.check("#alert-sound")
    assert page.evaluate("JSON.parse(localStorage.getItem('tablero:alerts')).sound") is True
    assert page.evaluate("window.asked") == 0
    page.check("#alert-notify")
    page.wait_for_function("JSON.parse(localStorage.getItem('tablero:alerts')).notify === true", timeout=WAIT)
    assert page.evaluate("window.asked") == 1
    assert page.is_checked("#alert-notify")
    # switched on, both come when it next becomes Ana's move in a background tab
    page.keyboard.press("Escape")
    page.evaluate(RECORD)
    page.evaluate(HIDE)
    for _ in range(40):
        v = page.get_attribute("#app", "data-version")
        page.locator(".moves button.move").first.click()
        page.wait_for_function("v => document.querySelector('#app')?.dataset.version !== v", arg=v, timeout=WAIT)
        page.wait_for_selector(".moves button.move", timeout=WAIT)
        if page.title() != title:
            break
    assert page.evaluate("window.made") == [["● Your move — Don Carlo", "Ana, it is your move in Don Carlo."]]
    assert page.evaluate("window.beeps") == 1
    assert not errors, errors
    page.context.close()
