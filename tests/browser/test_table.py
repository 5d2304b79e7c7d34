"""The table as players expect it: confirm a move that cannot be taken back, live clocks and
time-out lines, the whole log with headers and names rendered now, the decision first on a phone.

Screenshots of each game's table on desktop and phone go to build/screenshots/table-<game>-*.png.
"""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import SHOTS
from .test_play import WAIT

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
GAMES = [("don-carlo", {}), ("el-grande", {"short_game": True}), ("mafia-legend", {"variant": "beginner"})]


def create(base: str, game: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None,
           **extra: Any) -> dict[str, Any]:
    r = httpx.post(base + "/api/games", json={"game": game, "seats": seats, "options": options or {}, **extra},
                   trust_env=False)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def open_table(browser: Any, base: str, g: dict[str, Any], errors: list[str], *, seats: tuple[int, ...] = (0,),
               confirm: str | None = None, fake_clock: bool = False, **ctx: Any) -> Any:
    """The table of ``g`` in a new browser context holding ``seats`` (none: a spectator)."""
    context = browser.new_context(**(ctx or DESKTOP))
    stored = {"tokens": [g["tokens"][str(s)] for s in seats], "admin": g["admin"] if seats else None}
    script = f"localStorage.setItem('tablero:lang', 'en');" \
             f"localStorage.setItem('tablero:game:{g['id']}', {json.dumps(json.dumps(stored))});"
    if confirm:
        script += f"localStorage.setItem('tablero:confirm', '{confirm}');"
    context.add_init_script(script)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    if fake_clock:
        page.clock.install()
    page.goto(f"{base}/game/{g['id']}")
    return page


def version(page: Any) -> str:
    v: str = page.get_attribute("#app", "data-version") or ""
    return v


def wait_version_after(page: Any, v: str) -> None:
    page.wait_for_function("v => (document.querySelector('#app')?.dataset.version || v) !== v", arg=v, timeout=WAIT)


def my_move(page: Any) -> str:
    page.wait_for_selector(".moves button.move", timeout=WAIT)
    return version(page)


def spectator_update(base: str, game_id: str) -> dict[str, Any]:
    with connect(f"ws://{base.removeprefix('http://')}/ws/{game_id}") as ws:
        ws.send(json.dumps({"type": "hello", "tokens": [], "lang": "en"}))
        while True:
            m: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if m["type"] == "update":
                return m


def test_a_move_that_cannot_be_taken_back_waits_for_a_confirmation(browser: Any, server: str) -> None:
    """Don Carlo: every play draws a card. A first click selects, a second one (or Enter, or Confirm) plays."""
    errors: list[str] = []
    g = create(server, "don-carlo", [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "random"}])
    page = open_table(browser, server, g, errors)
    v = my_move(page)
    first = page.locator(".moves button.move").first
    label = first.inner_text().split(" ", 1)[1]  # after the number key
    first.click()
    assert page.locator("#confirm-box").is_visible()
    assert page.inner_text("#confirm-label") == label
    assert "cannot be taken back" in page.inner_text("#confirm-box")
    assert page.locator(".moves button.move.selected").count() == 1
    assert page.locator(".board .bk-selected").count() >= 1, "the move is marked on the board too"
    page.screenshot(path=str(SHOTS / "table-confirm-desktop.png"))
    page.keyboard.press("Escape")
    assert page.locator("#confirm-box").count() == 0 and page.locator(".board .bk-selected").count() == 0
    assert version(page) == v, "nothing was sent"
    # a second click on the same move plays it
    page.locator(".moves button.move").first.click()
    page.locator(".moves button.move.selected").click()
    wait_version_after(page, v)
    # Enter confirms (the focus is on Confirm after a selection)
    v = my_move(page)
    page.locator(".moves button.move").first.click()
    page.keyboard.press("Enter")
    wait_version_after(page, v)
    # a board place: one move is selected (no agent sent on one click), several narrow the list
    v = my_move(page)
    page.locator(".board [data-bk-place]").first.click()
    if page.locator("#all-moves").count():
        page.locator(".moves button.move").first.click()
    assert page.locator("#confirm-box").is_visible() and version(page) == v
    page.click("#confirm-move")
    wait_version_after(page, v)
    # the setting: never ask (kept on this device)
    v = my_move(page)
    page.click("#settings-button")
    page.check("#confirm-never")
    page.locator(".moves button.move").first.click()
    wait_version_after(page, v)
    assert page.locator("#confirm-box").count() == 0
    page.reload()
    page.wait_for_selector("#settings", timeout=WAIT)
    assert page.evaluate("localStorage.getItem('tablero:confirm')") == "never"
    page.click("#settings-button")
    assert page.is_checked("#confirm-never")
    assert not errors, errors
    page.context.close()


def test_a_move_that_can_be_taken_back_is_played_at_once_unless_the_player_always_confirms(
        browser: Any, server: str) -> None:
    """El Grande: a power card can be taken back until the next seat plays, so it needs no confirmation."""
    errors: list[str] = []
    g = create(server, "el-grande", [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "random"}],
               {"short_game": True})
    page = open_table(browser, server, g, errors)
    v = my_move(page)
    assert page.locator(".moves button.move").first.inner_text().split(" ", 1)[1].startswith("play power card")
    page.locator(".moves button.move").first.click()
    wait_version_after(page, v)
    assert page.locator("#confirm-box").count() == 0
    v = my_move(page)
    page.click("#settings-button")
    page.check("#confirm-always")
    page.locator(".moves button.move").first.click()
    assert page.locator("#confirm-box").is_visible() and version(page) == v
    assert "cannot be taken back" not in page.inner_text("#confirm-box")
    page.click("#confirm-move")
    wait_version_after(page, v)
    assert not errors, errors
    page.context.close()


def test_every_clock_counts_down_and_a_time_out_is_a_public_log_line(browser: Any, server: str) -> None:
    errors: list[str] = []
    g = create(server, "don-carlo", [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "random"}],
               move_seconds=90)
    # a spectator, with the browser's time moved by hand
    watcher = open_table(browser, server, g, errors, seats=(), fake_clock=True)
    watcher.wait_for_selector(".seatbar .clock", timeout=WAIT)
    clock = watcher.locator(".seatbar .clock")
    start = clock.inner_text()
    assert start.startswith("1:") and "low" not in (clock.get_attribute("class") or "")
    watcher.clock.run_for(84_000)
    left = clock.inner_text()
    assert left.endswith(" s") and int(left.split()[0]) < 10, (start, left)
    assert "low" in (clock.get_attribute("class") or "")
    watcher.context.close()
    # a clock that runs out: the stand-in moves for Ana, and every log says so
    g = create(server, "don-carlo", [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "random"}],
               move_seconds=2)
    page = open_table(browser, server, g, errors)
    note = page.locator(".log li.note", has_text="Time ran out").first  # (if Ana was not here yet: "Ana is away")
    note.wait_for(timeout=WAIT)
    assert note.locator(".t").text_content() == "Time ran out for Ana; the bot moves for Ana"
    assert not errors, errors
    page.context.close()


def test_the_whole_log_is_kept_numbered_and_can_be_scrolled_back_to_round_one(browser: Any, server: str) -> None:
    errors: list[str] = []
    g = create(server, "el-grande", [{"kind": "bot", "bot": "random", "name": f"Bot {c}"} for c in "ABCDE"])
    end = time.monotonic() + 60
    while not spectator_update(server, g["id"])["result"]:
        assert time.monotonic() < end, "the bots did not finish"
        time.sleep(0.3)
    lines = spectator_update(server, g["id"])["log"]
    assert len(lines) > 400
    page = open_table(browser, server, g, errors, seats=())
    page.wait_for_function("n => document.querySelectorAll('.log li').length === n", arg=len(lines), timeout=WAIT)
    # it opens at its newest line
    page.wait_for_function("() => { const ol = document.querySelector('.log');"
                           " return ol.scrollHeight - ol.scrollTop - ol.clientHeight < 30; }", timeout=WAIT)
    got = page.evaluate(
        """() => {
             const ol = document.querySelector('.log'), lis = ol.querySelectorAll('li');
             const last = lis[lis.length - 1], n = last.querySelector('.n');
             ol.scrollTop = 0;
             const box = ol.getBoundingClientRect(), first = lis[0].getBoundingClientRect();
             return {firstText: lis[0].querySelector('.t').textContent,
                     firstNo: lis[0].querySelector('.n').textContent,
                     firstShown: first.top >= box.top - 1 && first.bottom <= box.bottom + 1,
                     lastNo: n.textContent,
                     clipped: n.scrollWidth > n.clientWidth || n.getBoundingClientRect().left < box.left,
                     sections: ol.querySelectorAll('li.section').length};
           }""")
    assert got["firstShown"] and got["firstNo"] == "1" and got["firstText"] == lines[0]["text"]
    assert got["lastNo"] == str(len(lines)) and not got["clipped"]
    assert got["sections"] == sum(1 for line in lines if line.get("section"))
    if got["sections"]:  # each round opens with a header line
        page.evaluate("document.querySelector('.log li.section').scrollIntoView()")
        assert page.locator(".log li.section").first.is_visible()
    page.screenshot(path=str(SHOTS / "table-log-desktop.png"))
    assert not errors, errors
    page.context.close()


def test_a_player_who_joins_later_is_named_in_the_earlier_log_lines(browser: Any, server: str) -> None:
    errors: list[str] = []
    g = create(server, "don-carlo",
               [{"kind": "you", "name": "Ana"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}])
    page = open_table(browser, server, g, errors)
    page.wait_for_selector(".log li", timeout=WAIT)
    placeholder = page.locator(".seatbar .name").nth(1).inner_text()  # the name of a seat nobody took yet
    texts = page.locator(".log li .t").all_text_contents()
    before = texts.count(f"{placeholder} draws a card")
    assert before > 0, texts
    r = httpx.post(f"{server}/api/games/{g['id']}/claim", json={"invite": g["invites"]["1"], "name": "Bea"},
                   trust_env=False)
    assert r.status_code == 200, r.text
    with connect(f"ws://{server.removeprefix('http://')}/ws/{g['id']}") as ws:  # Bea sits down
        ws.send(json.dumps({"type": "hello", "tokens": [r.json()["token"]], "lang": "en"}))
        page.wait_for_function(
            "() => [...document.querySelectorAll('.seatbar .name')].some(n => n.textContent === 'Bea')", timeout=WAIT)
    texts = page.locator(".log li .t").all_text_contents()
    assert texts.count(f"{placeholder} draws a card") == 0 and texts.count("Bea draws a card") >= before
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_on_a_phone_the_players_decision_comes_first(browser: Any, server: str, game: str,
                                                     options: dict[str, Any]) -> None:
    errors: list[str] = []
    seats = [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    g = create(server, game, seats, options, move_seconds=300)
    page = open_table(browser, server, g, errors, **PHONE)
    page.wait_for_selector(".moves button.move", timeout=WAIT)
    got = page.evaluate(
        """() => {
             const r = (s) => document.querySelector(s).getBoundingClientRect();
             const seats = [...document.querySelectorAll('.seatbar .seat')].map(s => s.getBoundingClientRect().top);
             return {move: r('.moves button.move').top, header: r('header.top').height,
                     board: r('.board').top, seatRows: new Set(seats).size,
                     pan: getComputedStyle(document.querySelector('.board')).overflowX,
                     wide: document.documentElement.scrollWidth};
           }""")
    assert got["move"] < 844, got
    assert got["move"] < got["board"], "the decision comes before the board"
    assert got["header"] < 48 and got["seatRows"] == 1, got
    assert got["pan"] == "auto" and got["wide"] <= 390, got
    page.screenshot(path=str(SHOTS / f"table-{game}-phone.png"))
    if game == "don-carlo":  # every play draws a card: the confirm box sits at the bottom of the screen
        page.locator(".moves button.move").first.click()
        box = page.locator("#confirm-box").bounding_box()
        assert box and box["y"] + box["height"] <= 844 + 1 and box["width"] <= 390 + 1, box
        page.screenshot(path=str(SHOTS / f"table-{game}-phone-confirm.png"))
    page.context.close()
    page = open_table(browser, server, g, errors)
    page.wait_for_selector(".moves button.move", timeout=WAIT)
    page.screenshot(path=str(SHOTS / f"table-{game}-desktop.png"))
    assert not errors, errors
    page.context.close()


def test_the_settings_menu_holds_every_setting_closes_on_escape_and_fits_a_phone(browser: Any, server: str) -> None:
    """The ⚙ popover in the header: confirm moves, animations and the "your turn" alerts, kept on the device."""
    errors: list[str] = []
    g = create(server, "don-carlo", [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "random"}])
    page = open_table(browser, server, g, errors)
    my_move(page)
    button = page.locator("#settings-button")
    assert button.get_attribute("aria-expanded") == "false" and not page.locator("#settings-panel").is_visible()
    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    panel = page.locator("#settings-panel")
    assert panel.is_visible()
    for group in ("#settings-confirm", "#anim-setting", "#settings-alerts"):
        assert panel.locator(group).is_visible(), group
    assert page.evaluate("document.getElementById('settings-panel').contains(document.activeElement)")
    page.check("#confirm-always")
    page.uncheck("#anim-setting")
    page.check("#alert-sound")
    page.screenshot(path=str(SHOTS / "settings-desktop.png"))
    page.keyboard.press("Escape")
    assert not panel.is_visible() and button.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.id") == "settings-button"
    button.click()
    page.locator(".layout").click(position={"x": 2, "y": 2})  # a click elsewhere closes it too
    assert not panel.is_visible()
    page.reload()
    my_move(page)
    page.click("#settings-button")
    assert page.is_checked("#confirm-always") and page.is_checked("#alert-sound")
    assert not page.is_checked("#anim-setting")
    assert not errors, errors
    page.context.close()
    page = open_table(browser, server, g, errors, **PHONE)
    my_move(page)
    page.click("#settings-button")
    box = page.locator("#settings-panel").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SHOTS / "settings-phone.png"))
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_el_grande_region_names_do_not_run_into_each_other_on_a_phone(browser: Any, server: str, lang: str) -> None:
    """The phone's larger map lettering: "Galicien" and "Baskenland" (the longest neighbours) stay apart."""
    errors: list[str] = []
    g = create(server, "el-grande", [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "random"}],
               {"short_game": True})
    page = open_table(browser, server, g, errors, seats=(), **PHONE)
    page.goto(f"{server}/game/{g['id']}?lang={lang}")
    page.wait_for_selector(".eg-map .eg-rname", timeout=WAIT)
    boxes = page.eval_on_selector_all(".eg-map .eg-rname", "ts => ts.map(t => { const r = t.getBoundingClientRect();"
                                      " return [t.textContent, r.left, r.top, r.right, r.bottom]; })")
    assert len(boxes) == 10  # nine regions and the Castillo
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            # side by side at least 8 px apart (the lettering's light outline takes some of that)
            apart = a[3] + 8 <= b[1] or b[3] + 8 <= a[1] or a[4] <= b[2] or b[4] <= a[2]
            assert apart, (a, b)
    assert not errors, errors
    page.context.close()


def test_el_grande_round_line_counts_rounds_once(browser: Any, server: str) -> None:
    """The full game says "Round 1 of 9"; the short game, which leaves rounds out, says where it stands."""
    errors: list[str] = []
    for options, want in (({}, "Round 1 of 9"), ({"short_game": True}, "Round 2 (1 of 6, short game)")):
        g = create(server, "el-grande", [{"kind": "you", "name": "Ana"}, {"kind": "bot", "bot": "random"}], options)
        page = open_table(browser, server, g, errors, seats=())
        page.wait_for_selector(".eg-roundtxt", timeout=WAIT)
        assert page.inner_text(".eg-roundtxt") == want
        page.context.close()
    assert not errors, errors


# The seat bar on a phone, as drawn: is it wider than the screen, and which seat runs past its right edge
CUT_SEAT = """sel => { const bar = document.querySelector(sel); const r = bar.getBoundingClientRect();
  const cut = [...bar.querySelectorAll('.seat')].map(s => s.getBoundingClientRect())
    .find(b => b.left < r.right - 8 && b.right > r.right + 1);
  return {overflow: bar.scrollWidth > bar.clientWidth + 1, x: r.width - 2,
          y: cut ? (cut.top + cut.bottom) / 2 - r.top : null, bg: getComputedStyle(bar).backgroundColor}; }"""
# one pixel of a PNG (base64), read through a canvas (no image library needed)
PIXEL = """async ([png, x, y]) => { const img = new Image(); img.src = 'data:image/png;base64,' + png;
  await img.decode(); const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
  const g = c.getContext('2d'); g.drawImage(img, 0, 0);
  return [...g.getImageData(Math.round(x), Math.round(y), 1, 1).data].slice(0, 3); }"""


def _seat_bar_hints_that_it_scrolls(page: Any, sel: str) -> None:
    """The seat that runs past the bar's right edge fades into the bar there (no hard cut in the
    middle of a name); scrolled to its end, the bar shows its last seat whole."""
    got = page.evaluate(CUT_SEAT, sel)
    assert got["overflow"] and got["y"] is not None, got
    png = base64.b64encode(page.locator(sel).screenshot(scale="css", animations="disabled")).decode()
    edge = page.evaluate(PIXEL, [png, got["x"], got["y"]])
    bg = [int(c) for c in got["bg"][got["bg"].index("(") + 1:].rstrip(")").split(",")[:3]]
    assert max(abs(a - b) for a, b in zip(edge, bg, strict=True)) <= 8, \
        f"the seat at the right edge is cut hard: pixel {edge}, bar {bg}"
    last = page.evaluate("""sel => { const bar = document.querySelector(sel); bar.scrollLeft = bar.scrollWidth;
        const r = bar.getBoundingClientRect(), s = [...bar.querySelectorAll('.seat')].pop().getBoundingClientRect();
        return s.right <= r.right + 0.5 && s.left >= r.left; }""", sel)
    assert last, "scrolled to its end, the last seat shows whole"


def test_a_phone_seat_bar_that_runs_past_the_edge_shows_that_it_scrolls(browser: Any, server: str) -> None:
    errors: list[str] = []
    names = ["Anastasia", "Bartholomew", "Cleopatra", "Dimitrios", "Evangelina"]
    seats = [{"kind": "you", "name": names[0]}, *({"kind": "bot", "bot": "random", "name": n} for n in names[1:])]
    g = create(server, "el-grande", seats, {"short_game": True}, move_seconds=300)
    page = open_table(browser, server, g, errors, **PHONE)
    page.wait_for_selector(".moves button.move", timeout=WAIT)
    _seat_bar_hints_that_it_scrolls(page, ".seatbar")
    page.context.close()
    # the tutorial's seat bar (Mafia Legend, four families) on a phone
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/tutorial/mafia-legend?lang=de#step-4")
    page.wait_for_selector("#app[data-step='3'] .tut-seats .seat", timeout=WAIT)
    _seat_bar_hints_that_it_scrolls(page, ".tut-seats")
    assert not errors, errors
    ctx.close()
