"""The pages under the server's Content-Security-Policy, in Chromium (issue 14, fault 7).

The CSP allows only the site's own script files: the pages start from static/app.js (the body's
``data-start``), never from an inline script. Every page of a player's way (lobby → create →
table, an invite's join page, a tutorial, a rules page) must run with no CSP violation — each is
reported as a ``securitypolicyviolation`` event and a console error — and no page error.
Screenshots: build/screenshots/csp-*.png.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from .conftest import SHOTS
from .test_play import create_in_lobby

WAIT = 30_000
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "") + " " + (e.sample || ""));
});
"""
"""Kept from the start of every document: the CSP violations the page met."""


class Watch:
    """Console errors, page errors and CSP violations of one browser context's pages."""

    def __init__(self, browser: Any, **kw: Any) -> None:
        self.ctx = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **kw})
        self.ctx.add_init_script(WATCH)
        self.ctx.add_init_script("localStorage.setItem('tablero:confirm', 'never')")
        self.errors: list[str] = []
        self.page = self.ctx.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)

    def goto(self, url: str) -> Any:
        response = self.page.goto(url)
        assert response is not None and response.ok, url
        csp = response.headers["content-security-policy"]
        assert "script-src 'self';" in csp and "frame-ancestors 'none'" in csp
        return response

    def check(self, where: str) -> None:
        violations = self.page.evaluate("() => window.__violations")
        assert not violations, (where, violations)
        assert not self.errors, (where, self.errors)


def test_lobby_table_join_tutorial_and_rules_run_under_the_csp(browser: Any, server: str) -> None:
    w = Watch(browser)
    page = w.page
    # the lobby creates a game (a POST from the page: same origin, JSON) and the table loads
    w.goto(server + "/?lang=en")
    create_in_lobby(page, server, "don-carlo", ["you", "bot:greedy"], {})
    page.wait_for_url("**/game/**", timeout=WAIT)
    page.wait_for_selector(".board", timeout=WAIT)
    page.wait_for_selector(".moves button.move", timeout=WAIT)
    w.check("lobby → table")
    for _ in range(3):  # moves over the WebSocket (connect-src)
        version = page.get_attribute("#app", "data-version")
        page.locator(".moves button.move").first.click()
        page.wait_for_function("v => (document.querySelector('#app')?.dataset.version || '') !== v",
                               arg=version or "", timeout=WAIT)
    page.wait_for_selector(".seatbar .name", timeout=WAIT)
    page.screenshot(path=str(SHOTS / "csp-table-don-carlo.png"), full_page=True)
    w.check("table")

    # Mafia Legend's board colours its families and seats with style attributes in its markup
    g = httpx.post(server + "/api/games", json={
        "game": "mafia-legend", "options": {"variant": "beginner"},
        "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]},
        trust_env=False).json()
    w.goto(f"{server}/game/{g['id']}")
    page.wait_for_selector(".board [style]", timeout=WAIT)
    applied = page.evaluate("() => [...document.querySelectorAll('.board [style]')].map(e => e.style.length)")
    assert applied and all(applied), "the board's style attributes were not applied"
    page.screenshot(path=str(SHOTS / "csp-table-mafia-legend.png"), full_page=True)
    w.check("mafia legend table")

    # an invite's join page
    w.goto(f"{server}/join/{g['id']}/{g['invites']['0']}")
    page.wait_for_selector("#j-name", timeout=WAIT)
    page.screenshot(path=str(SHOTS / "csp-join.png"), full_page=True)
    w.check("join")

    # a tutorial: ?lang=de is taken into the device's setting without the old inline script
    w.goto(server + "/tutorial/el-grande?lang=de")
    page.wait_for_function("() => document.querySelector('#app')?.dataset.step === '0'", timeout=WAIT)
    assert page.evaluate("() => [localStorage.getItem('tablero:lang'), document.documentElement.lang]") == ["de", "de"]
    page.screenshot(path=str(SHOTS / "csp-tutorial-el-grande-de.png"), full_page=True)
    w.check("tutorial")

    # a rules page: its script (now a file) takes the device's language and folds nothing on a desktop
    w.goto(server + "/rules/don-carlo")
    page.wait_for_url("**/rules/don-carlo?lang=de", timeout=WAIT)
    page.wait_for_selector("#toc details[open]", timeout=WAIT)
    page.screenshot(path=str(SHOTS / "csp-rules-de.png"))
    w.check("rules")
    w.ctx.close()


def test_another_sites_page_can_neither_create_a_game_nor_open_the_websocket(browser: Any, server: str) -> None:
    """A page of another origin (here: the same server under another host name, 'localhost'
    against '127.0.0.1') tries what the audit did: a text/plain form post and a WebSocket."""
    before = httpx.get(server + "/api/games", trust_env=False).json()["games"]
    g = httpx.post(server + "/api/games", json={"game": "don-carlo", "seats": [{"kind": "you"}, {"kind": "local"}]},
                   trust_env=False).json()
    other = server.replace("127.0.0.1", "localhost")
    w = Watch(browser)
    page = w.page
    page.goto(other + "/static/app/favicon.svg")  # any page of the other origin
    result = page.evaluate("""async ([target, gid, spec]) => {
        const out = {};
        try {
          await fetch(target + "/api/games", { method: "POST", mode: "no-cors",
                                                headers: { "content-type": "text/plain" }, body: spec });
          out.post = "sent";
        } catch (e) { out.post = "failed"; }
        out.ws = await new Promise((resolve) => {
          const ws = new WebSocket(target.replace("http", "ws") + "/ws/" + gid);
          ws.onopen = () => resolve("open");
          ws.onerror = () => resolve("refused");
        });
        return out;
    }""", [server, g["id"], json.dumps({"game": "don-carlo", "seats": [{"kind": "you"}, {"kind": "local"}]})])
    assert result["ws"] == "refused", result
    after = httpx.get(server + "/api/games", trust_env=False).json()["games"]
    assert len(after) == len(before) + 1, "the other site's post made a game"
    w.ctx.close()
