"""The replay of a finished game in Chromium: open it from the table, step, jump by round, switch
the seat, follow a link that opens at a move; refused while the game runs.

Games are played by bots on the server (quick); the browser opens the finished table. Screenshots
of the replay go to build/screenshots/replay-<game>-{desktop,phone}.png.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from .conftest import SHOTS

WAIT = 30_000
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        data: dict[str, Any] = json.loads(r.read())
        return data


def _status(base: str, path: str) -> int:
    try:
        with urllib.request.urlopen(base + path, timeout=30) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def finished_game(base: str, game: str, options: dict[str, Any], bots: list[str]) -> str:
    """A game between bots, played on the server to its end; returns its id."""
    g = _post(base, "/api/games", {"game": game, "options": options,
                                   "seats": [{"kind": "bot", "bot": b, "name": f"{b.title()} {chr(65 + i)}"}
                                             for i, b in enumerate(bots)]})
    deadline = time.monotonic() + 120
    while _status(base, f"/api/games/{g['id']}/replay") == 409:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)
    return str(g["id"])


def _page(browser: Any, errors: list[str], **kw: Any) -> Any:
    ctx = browser.new_context(**{**DESKTOP, "locale": "en-US", **kw})
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def at(page: Any) -> int:
    """The position the replay shows (record entries), once drawn."""
    page.wait_for_selector("#replay[data-at]", timeout=WAIT)
    return int(page.get_attribute("#replay", "data-at"))


def query(page: Any) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}


def wait_at(page: Any, k: int) -> None:
    page.wait_for_selector(f'#replay[data-at="{k}"]', timeout=WAIT)


def test_replay_steps_jumps_by_round_switches_seat_and_opens_from_a_link(browser: Any, server: str) -> None:
    errors: list[str] = []
    gid = finished_game(server, "el-grande", {"short_game": True}, ["greedy", "random", "greedy"])
    page = _page(browser, errors)
    page.goto(f"{server}/game/{gid}")
    page.click("#end-replay", timeout=WAIT)  # the end screen's button (the side box stands in when it is hidden)
    assert at(page) == 0 and query(page)["replay"] == "0"
    assert page.locator("#app").is_hidden() and page.locator("#replay-prev").is_disabled()
    assert page.locator("#replay-log li:visible").count() == 0  # nothing has happened yet

    # Step forward with the key and the button, back with the key.
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => Number(document.querySelector('#replay').dataset.at) > 0", timeout=WAIT)
    first = at(page)
    page.click("#replay-next")
    page.wait_for_function(f"() => Number(document.querySelector('#replay').dataset.at) > {first}", timeout=WAIT)
    second = at(page)
    assert query(page)["replay"] == str(second)
    assert page.locator("#replay-log li.current").count() >= 1
    assert page.locator("#replay-log li:visible").count() >= 2
    page.keyboard.press("ArrowLeft")
    wait_at(page, first)

    # Jump by round: ⏭ goes to the next round's line; the list of rounds picks round 3.
    rounds = page.locator("#replay-round option")
    assert rounds.count() == 6 + 2  # setup, the six rounds of the short game, the end
    page.keyboard.press("Home")
    wait_at(page, 0)
    page.click("#replay-last")
    wait_at(page, int(rounds.nth(1).get_attribute("value")))
    assert page.locator("#replay-log li.current.section").count() == 1
    assert rounds.nth(1).inner_text() in page.inner_text("#replay-now")  # "Round 2": the short game's first
    third = rounds.nth(3).get_attribute("value")
    page.select_option("#replay-round", third)
    wait_at(page, int(third))
    assert rounds.nth(3).inner_text() in page.inner_text("#replay-now")
    assert page.locator("#replay-log li.section:visible").count() == 3
    page.keyboard.press("PageUp")  # at the start of the third round already: back to the second
    wait_at(page, int(rounds.nth(2).get_attribute("value")))

    # Another seat's view, at the same position; the address follows.
    k = at(page)
    page.select_option("#replay-seat", "1")
    page.wait_for_selector('#replay[data-seat="1"]', timeout=WAIT)
    assert at(page) == k and query(page) == {"replay": str(k), "seat": "1"}
    assert page.locator(".replay-seats li.me").count() == 1
    assert "me" in (page.locator(".replay-seats li").nth(1).get_attribute("class") or "")
    page.keyboard.press("End")
    page.wait_for_function("() => !document.querySelector('#replay-next') || "
                           "document.querySelector('#replay-next').disabled", timeout=WAIT)
    end = at(page)
    assert end == int(rounds.last.get_attribute("value"))  # the list's last item: the end of the game
    page.screenshot(path=str(SHOTS / "replay-el-grande-end.png"), full_page=True)

    # Back to the table: the address no longer holds the replay.
    page.click("#replay-close")
    assert page.locator("#replay").count() == 0 and page.locator("#app").is_visible()
    assert "replay" not in query(page)

    # A link that opens at a move, from a fresh browser.
    link = f"{server}/game/{gid}?replay={k + 1}&seat=2"
    other = _page(browser, errors)
    other.goto(link)
    wait_at(other, k + 1)
    assert other.get_attribute("#replay", "data-seat") == "2"
    assert other.locator("#replay-log li.current").count() + other.locator("#replay-now p").count() >= 1
    other.context.close()
    assert end > k
    assert not errors, errors
    page.context.close()


def test_the_replay_waits_for_the_end_of_the_game(browser: Any, server: str) -> None:
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "greedy"}]  # the person never comes: it runs on
    g = _post(server, "/api/games", {"game": "don-carlo", "seats": seats})
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(f"{server}/game/{g['id']}?replay=3")
    page.wait_for_selector("#replay-wait", timeout=WAIT)
    assert page.locator("#replay").count() == 0 and page.locator("#replay-open").count() == 0
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize(("game", "options", "bots"), [
    ("el-grande", {"short_game": True}, ["greedy", "random", "greedy"]),
    ("mafia-legend", {"variant": "beginner"}, ["greedy", "greedy", "random"]),
    ("don-carlo", {}, ["greedy", "random", "greedy"]),
])
def test_replay_screenshots(browser: Any, server: str, game: str, options: dict[str, Any], bots: list[str]) -> None:
    gid = finished_game(server, game, options, bots)
    errors: list[str] = []
    for name, kw in (("desktop", DESKTOP), ("phone", PHONE)):
        page = _page(browser, errors, **kw)
        page.goto(f"{server}/game/{gid}?replay=0&seat=0")
        wait_at(page, 0)
        page.select_option("#replay-round", page.locator("#replay-round option").nth(2).get_attribute("value"))
        page.wait_for_function("() => Number(document.querySelector('#replay').dataset.at) > 0", timeout=WAIT)
        for _ in range(3):
            k = at(page)
            page.click("#replay-next")
            page.wait_for_function(f"() => Number(document.querySelector('#replay').dataset.at) > {k}", timeout=WAIT)
        assert page.locator("#replay-board").inner_text().strip()
        page.screenshot(path=str(SHOTS / f"replay-{game}-{name}.png"), full_page=name == "desktop")
        page.context.close()
    assert not errors, errors
