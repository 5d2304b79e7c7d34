"""A tournament's report.html in Chromium: one page that needs nothing else (no request leaves
it, no console error), with the ratings table and the plots, readable on a desktop and a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tablero.study.tournament import prepare, run_tournament

from .conftest import SHOTS


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report")
    run = run_tournament(prepare("don-carlo", ["random", "greedy"], 3, 12, seed=4), out=out)
    assert run.results is not None
    return out / "report.html"


@pytest.mark.parametrize(("name", "width", "height", "mobile"), [("desktop", 1280, 900, False),
                                                                 ("phone", 390, 844, True)])
def test_the_tournament_report_opens_clean(browser: Any, report: Path, name: str, width: int, height: int,
                                           mobile: bool) -> None:
    url = report.as_uri()
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=mobile, has_touch=mobile,
                                  device_scale_factor=2 if mobile else 1)
    page = context.new_page()
    problems: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url} {r.failure}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    page.wait_for_load_state("load")
    assert problems == []
    # The page itself and nothing else: the plots are data URIs, the styles inline.
    assert [u for u in requests if not u.startswith("data:")] == [url]
    ratings = page.locator("section", has=page.locator("h2", has_text="Ratings")).locator("table")
    assert ratings.locator("th").all_inner_texts()[:5] == ["#", "Bot", "μ", "σ", "Ordinal μ − 3σ"]
    rows = ratings.locator("tbody tr").all_inner_texts()
    assert len(rows) == 2 and rows[0].split("\t")[1] == "greedy"  # the stronger bot first
    images = page.locator("figure img")
    assert images.count() == 4
    assert all(page.evaluate("(i) => i.complete && i.naturalWidth > 500", images.nth(k).element_handle())
               for k in range(4))
    assert "tablero tournament don-carlo" in page.locator("pre.command").inner_text()
    # No sideways scrolling of the whole page (wide tables scroll in their own box).
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(SHOTS / f"report-{name}.png"), full_page=True)
    context.close()


@pytest.fixture(scope="module")
def lab_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tablero.study.lab import plan_lab, run_lab, write_outputs

    out = tmp_path_factory.mktemp("lab")
    plan = plan_lab("mafia-legend", "BEGINNER_GOAL", "40,50", players=3, games=3, options={"variant": "beginner"})
    _, _, page = write_outputs(run_lab(plan, command="tablero lab mafia-legend ..."), out)
    return page


def test_the_lab_report_opens_clean_with_the_games_words(browser: Any, lab_report: Path) -> None:
    url = lab_report.as_uri()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    page.wait_for_load_state("load")
    assert problems == [] and [u for u in requests if not u.startswith("data:")] == [url]
    assert page.locator("h1").inner_text() == "Lab: Mafia Legend, BEGINNER_GOAL = 40, 50"
    length = page.locator("section", has=page.locator("h2", has_text="Game length, margin")).locator("th")
    assert length.all_inner_texts()[:2] == ["BEGINNER_GOAL", "months"]
    families = page.locator("section", has=page.locator("h2", has_text="per family")).locator("th")
    names = families.all_inner_texts()[1:]
    assert names and all(n[:1].isupper() and n[1:].islower() for n in names)  # Barone, not barone
    images = page.locator("figure img")
    assert images.count() == 5
    assert all(page.evaluate("(i) => i.complete && i.naturalWidth > 500", images.nth(k).element_handle())
               for k in range(5))
    page.screenshot(path=str(SHOTS / "report-lab-desktop.png"), full_page=True)
    context.close()
