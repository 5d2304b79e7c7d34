"""The lobby's advanced section, in Chromium: rules data overrides chosen, checked, refused, shown.

A player opens "Advanced: rules data" in the new-game form, changes Mafia Legend's
BEGINNER_GOAL and creates the table: the invited person's join page and the table say that the
table plays with changed data, and the table's drawings get the table's data. A value out of
range is caught next to its field before anything is sent; a value the server refuses
(game/bad_data) is said next to the field too, and no game is made either way.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from .conftest import SHOTS
from .test_links import WAIT, Watch, ui

NAME = "BEGINNER_GOAL"
INPUT = f'.adv-input[data-name="{NAME}"]'
ERROR = f'.adv-row[data-name="{NAME}"] .adv-error'


def spec(server: str, lang: str, name: str = NAME) -> dict[str, Any]:
    meta = httpx.get(f"{server}/api/meta?lang={lang}", trust_env=False).json()
    game = next(g for g in meta["games"] if g["id"] == "mafia-legend")
    found: dict[str, Any] = next(d for d in game["data"] if d["name"] == name)
    return found


def games(server: str) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = httpx.get(f"{server}/api/games", trust_env=False).json()["games"]
    return listed


def new_mafia_form(page: Any, server: str, lang: str) -> None:
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("#f-game")
    page.select_option("#f-game", "mafia-legend")
    page.select_option("#f-players", "3")
    page.select_option("#opt-variant", "beginner")
    page.fill("#f-name-0", "Ana")
    page.select_option("#f-kind-1", "bot:random")
    page.select_option("#f-kind-2", "person")


def test_a_changed_goal_is_checked_refused_when_bad_and_shown_at_the_table(browser: Any, server: str) -> None:
    w = Watch(browser, server)
    en = ui(server, "en")
    goal = spec(server, "en")
    page = w.page()
    new_mafia_form(page, server, "en")

    # closed at first; opened, it lists the game's values with a filter (Mafia Legend has many)
    assert page.locator("#adv-panel").is_hidden()
    assert page.get_attribute("#adv-toggle", "aria-expanded") == "false"
    page.click("#adv-toggle")
    assert page.locator("#adv-panel").is_visible()
    assert page.get_attribute("#adv-toggle", "aria-expanded") == "true"
    total = page.locator(".adv-row").count()
    page.fill("#adv-filter", "goal")
    page.wait_for_function("() => document.querySelector('#adv-shown').textContent !== ''")
    shown = page.locator(".adv-row:visible").count()
    assert 1 <= shown < total
    assert page.locator(INPUT).is_visible()
    assert page.get_attribute(INPUT, "placeholder") == goal["text"] == "50"
    assert goal["label"] in page.inner_text(f'.adv-row[data-name="{NAME}"] .adv-label')

    # out of range: said next to the field, nothing sent
    low = goal["low"]
    page.fill(INPUT, str(low - 1))
    page.click("#f-create")
    page.wait_for_selector(ERROR + ":visible")
    wanted = en["adv.err_range"].format(value=low - 1, range=en["adv.range"].format(low=low, high=goal["high"]))
    assert page.inner_text(ERROR) == wanted
    assert page.get_attribute(INPUT, "aria-invalid") == "true"
    assert page.inner_text("#f-error") == en["adv.err_form"]
    assert games(server) == []

    # the server refuses too (the request changed on its way): its message next to the field, no game
    def tamper(route: Any) -> None:
        body = json.loads(route.request.post_data)
        body["options"]["data"][NAME] = low - 1
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/games", lambda route: tamper(route) if route.request.method == "POST" else route.continue_())
    page.fill(INPUT, "40")
    assert page.locator(ERROR).is_hidden()  # fixed as it is typed
    page.click("#f-create")
    page.wait_for_function("t => document.querySelector('#f-error').textContent === t",
                           arg=en["adv.refused_fields"], timeout=WAIT)
    # the field's own check finds nothing in "40": the server's reason stands next to it
    reason = f"{low - 1} is out of range {low}..{goal['high']}"
    assert page.inner_text(ERROR) == en["adv.err_rules"].format(detail=reason)
    assert games(server) == []
    page.unroute("**/api/games")
    w.failed = [f for f in w.failed if not f.endswith("/api/games")]  # the refusal was the point

    page.fill(INPUT, "40")
    page.fill("#adv-filter", "")
    page.fill("#adv-filter", "goal")
    page.wait_for_selector(ERROR, state="hidden")
    assert page.inner_text(".adv-count") == en["adv.changed_count"].format(n=1)
    page.locator("#advanced").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "advanced-desktop.png"))
    page.click("#f-create")
    page.wait_for_selector("#created input.invite", timeout=WAIT)
    gid = page.get_attribute("#go-table", "href").rsplit("/", 1)[1]
    (created,) = games(server)
    assert created["id"] == gid
    line = en["adv.changed_item"].format(label=goal["label"], value="40", usual="50")

    # the invited person sees it before sitting down
    guest = w.page(phone=True)
    guest.goto(page.input_value('input.invite[data-seat="2"]'))
    guest.wait_for_selector("#j-data li")
    assert guest.locator("#j-data li").all_inner_texts() == [line]
    assert guest.inner_text("#j-data h3") == en["adv.changed"]

    # the table: everyone is told; the drawings get the table's data (the goal is 40)
    page.click("#go-table")
    page.wait_for_function("() => document.querySelector('#app')?.dataset.viewer === '0'", timeout=WAIT)
    page.wait_for_selector("#data-changes li")
    assert page.locator("#data-changes li").all_inner_texts() == [line]
    table_data = httpx.get(f"{server}/api/games/{gid}/table-data", trust_env=False).json()
    assert page.evaluate("Tablero.ctx.S.tableData") == table_data
    assert table_data != httpx.get(f"{server}/api/table-data/mafia-legend", trust_env=False).json()
    assert page.inner_text(".board .ml-goal b") == "40"
    page.screenshot(path=str(SHOTS / "advanced-table.png"), full_page=True)
    assert not w.errors, w.errors
    assert not w.failed, w.failed
    w.close()


def test_the_advanced_section_on_a_phone_in_german(browser: Any, server: str) -> None:
    w = Watch(browser, server)
    de = ui(server, "de")
    goal = spec(server, "de", "GOAL")
    page = w.page(phone=True)
    new_mafia_form(page, server, "de")
    assert page.inner_text("#adv-toggle").strip() == de["adv.toggle"]
    page.click("#adv-toggle")
    page.fill("#adv-filter", "Razzia")  # a card found by its printed name (labels name cards, not only codes)
    shown = page.eval_on_selector_all(".adv-row:not([hidden])", "rs => rs.map(r => r.dataset.name)")
    assert "ACTIONS.A01.count" in shown and "ACTIONS.A02.count" in shown  # Razzia, Großrazzia
    assert "Razzia (A01)" in page.inner_text('.adv-row[data-name="ACTIONS.A01.count"] .adv-label')
    page.fill("#adv-filter", "goal")
    page.fill(INPUT, "40")
    page.fill('.adv-input[data-name="GOAL"]', "vierzig")
    err = '.adv-row[data-name="GOAL"] .adv-error'
    page.wait_for_selector(err + ":visible")  # once the typing pauses
    assert page.inner_text(err) == de["adv.err_number"].format(text="vierzig")
    assert goal["label"] in page.inner_text('.adv-row[data-name="GOAL"] .adv-label')
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")  # fits the phone
    page.locator("#advanced").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "advanced-phone.png"))
    page.click("#f-create")
    assert page.inner_text("#f-error") == de["adv.err_form"]
    assert games(server) == []
    assert not w.errors, w.errors
    assert not w.failed, w.failed
    w.close()


def test_a_value_the_games_rules_refuse_is_said_in_german_next_to_its_fields(browser: Any, server: str) -> None:
    """El Grande in German: rows named by their regions; a whole-value rule the lobby cannot check itself
    (descending points, a region left without neighbours) is refused by the server and said in German
    next to every field the refusal names; nothing is created."""
    w = Watch(browser, server)
    de = ui(server, "de")
    meta = httpx.get(f"{server}/api/meta?lang=de", trust_env=False).json()
    specs = {d["name"]: d for g in meta["games"] if g["id"] == "el-grande" for d in g["data"]}
    page = w.page()
    page.goto(f"{server}/?lang=de")
    page.wait_for_selector("#f-game")
    page.select_option("#f-game", "el-grande")
    page.select_option("#f-players", "3")
    for i in (1, 2):
        page.select_option(f"#f-kind-{i}", "bot:random")
    page.click("#adv-toggle")
    aragon = "REGIONS.aragon.values"
    left, right = "BORDERS.aragon-cataluna.present", "BORDERS.cataluna-valencia.present"
    label = page.inner_text(f'.adv-row[data-name="{aragon}"] .adv-label')
    assert "Aragon" in label and "aragon" not in label.split("\n")[0]  # the region's name, not its id
    page.fill("#adv-filter", "Katalonien")  # a region found by its German name
    shown = page.eval_on_selector_all(".adv-row:not([hidden])", "rs => rs.map(r => r.dataset.name)")
    assert {left, right} <= set(shown)
    page.fill("#adv-filter", "")

    field, err = f'.adv-input[data-name="{aragon}"]', f'.adv-row[data-name="{aragon}"] .adv-error'
    page.fill(field, "5,4,1,")
    page.wait_for_selector(err + ":visible")
    assert page.inner_text(err) == de["adv.err_gap"]
    page.fill(field, "3,5,1")  # three whole numbers in range: only the game's rule refuses them
    page.wait_for_selector(err, state="hidden")
    page.click("#f-create")
    page.wait_for_selector(err + ":visible", timeout=WAIT)
    assert page.inner_text(err) == de["adv.err_rules"].format(detail=specs[aragon]["rule"])
    assert page.inner_text("#f-error") == de["adv.refused_fields"]
    page.locator(f'.adv-row[data-name="{aragon}"]').scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "advanced-refused-de.png"))

    page.fill(field, "")
    page.fill(f'.adv-input[data-name="{left}"]', "0")
    page.fill(f'.adv-input[data-name="{right}"]', "0")  # Katalonien without a neighbour: a check across values
    page.click("#f-create")
    page.wait_for_function("n => document.querySelectorAll('.adv-row.invalid').length === n", arg=2, timeout=WAIT)
    assert page.eval_on_selector_all(".adv-row.invalid", "rs => rs.map(r => r.dataset.name)") == [left, right]
    for name in (left, right):
        assert page.inner_text(f'.adv-row[data-name="{name}"] .adv-error') == de["adv.err_rules"].format(
            detail=specs[name]["rule"])
    assert games(server) == []
    w.failed = [f for f in w.failed if not f.endswith("/api/games")]  # the refusals were the point
    assert not w.errors, w.errors
    assert not w.failed, w.failed
    w.close()
