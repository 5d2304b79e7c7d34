"""The rules pages (/rules/{game}): every game in both languages, the glossary entries the boards
link to, the values in the glossary against each game's data, and no HTML from the Markdown."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tablero.games.doncarlo import data as dc
from tablero.games.elgrande import data as eg
from tablero.games.mafia import data as ml
from tablero.registry import GAMES
from tablero.server.app import create_app
from tablero.server.rules_pages import RULES_FILE, render_markdown, web_dir

LANGS = ("en", "de")
SECTIONS = {"goal", "components", "setup", "end", "options", "glossary", "about"}
"""Sections every rules page has, with the same ids in both languages."""
GOAL_HEADING = {"en": "Goal", "de": "Ziel des Spiels"}


class Page(HTMLParser):
    """What a test reads of a page: ids, headings, links, scripts, the document's language."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.headings: dict[str, list[str]] = {}
        self.links: list[str] = []
        self.scripts = 0
        self.lang = ""
        self.tags: list[str] = []
        self._heading: str | None = None
        self._text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(tag)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if tag == "html":
            self.lang = str(a.get("lang"))
        if tag == "a" and a.get("href"):
            self.links.append(str(a["href"]))
        if tag == "script":
            self.scripts += 1
        if tag in ("h1", "h2", "h3"):
            self._heading, self._text = tag, []

    def handle_endtag(self, tag: str) -> None:
        if tag == self._heading:
            self.headings.setdefault(tag, []).append("".join(self._text).strip())
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._heading:
            self._text.append(data)


def board_anchors(game_id: str) -> set[str]:
    """Every anchor the game's board links to: the fixed ones written in board.js (its help
    calls and *_HELP tables) and the ones it makes from the game's cards, regions, countries."""
    js = (web_dir(game_id) / "board.js").read_text(encoding="utf-8")
    calls = r"\b(?:help|helpLink|helpWrap|svgHelp|rulesLink|rulesLinkHTML)\((?:kit|cx), \"([\w-]+)\"(?!\s*\+)"
    fixed = set(re.findall(calls, js))
    for table in re.findall(r"const \w*HELP\w* = \{(.*?)\};", js, re.S):
        fixed |= set(re.findall(r":\s*\"([\w-]+)\"", table))
    assert fixed, f"{game_id}: board.js links no rules entry"
    if game_id == "el-grande":
        made = {f"card-{c.id}" for c in eg.CARD_TYPES} | {f"region-{a}" for a in eg.AREA_IDS}
    elif game_id == "don-carlo":
        made = {f"country-{c.id}" for c in dc.COUNTRIES}
    else:
        ids = ([c.id for c in ml.ACTION_CARDS] + list(ml.MONEY) + [c.id for c in ml.CHARACTERS]
               + [j.id for j in ml.JOBS] + list(ml.EVENTS) + list(ml.MISSIONS) + [p.id for p in ml.POWERS])
        made = {f"card-{i}" for i in ids} | {f"family-{f}" for f in ml.FAMILIES}
    return fixed | made


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, bot_delay=0)) as c:
        yield c


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_its_rules_in_both_languages(client: TestClient, game_id: str, lang: str) -> None:
    r = client.get(f"/rules/{game_id}", params={"lang": lang})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    page = Page(r.text)
    assert page.lang == lang
    assert GAMES[game_id].title in page.headings["h1"][0]
    assert GOAL_HEADING[lang] in page.headings["h2"]
    assert set(page.ids) >= SECTIONS
    assert len(page.ids) == len(set(page.ids)), "an id twice"
    missing = board_anchors(game_id) - set(page.ids)
    assert not missing, f"the board links entries the rules page lacks: {sorted(missing)}"
    # the page's contents list every section, and every link inside the page finds its target
    inner = {href[1:] for href in page.links if href.startswith("#")}
    assert inner >= SECTIONS
    assert inner <= set(page.ids), sorted(inner - set(page.ids))
    # language switch, the lobby, the other games' rules
    assert {f"/rules/{game_id}?lang={other}" for other in LANGS} <= set(page.links)
    assert "/" in page.links
    assert {f"/rules/{g}?lang={lang}" for g in GAMES if g != game_id} <= set(page.links)
    # the page is one file: the drawings are in it, no stylesheet or script from elsewhere
    assert "svg" in page.tags and "link" not in page.tags


def test_both_languages_have_the_same_entries() -> None:
    for game_id in GAMES:
        folder = web_dir(game_id)
        en, de = (render_markdown((folder / RULES_FILE.format(lang=lang)).read_text(encoding="utf-8"), folder)
                  for lang in LANGS)
        assert set(en.ids[1:]) == set(de.ids[1:]), game_id  # all but the title's own id


def test_language_from_the_browser_when_none_is_asked(client: TestClient) -> None:
    de = Page(client.get("/rules/don-carlo", headers={"accept-language": "de-DE,de;q=0.9,en;q=0.8"}).text)
    en = Page(client.get("/rules/don-carlo", headers={"accept-language": "fr-FR"}).text)
    asked = Page(client.get("/rules/don-carlo?lang=en", headers={"accept-language": "de"}).text)
    assert (de.lang, en.lang, asked.lang) == ("de", "en", "en")


def test_unknown_game_is_not_found(client: TestClient) -> None:
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/rules/chess?lang=de").status_code == 404


def test_lobby_links_every_games_rules(client: TestClient) -> None:
    page = Page(client.get("/").text)
    assert {f"/rules/{g}" for g in GAMES} <= set(page.links)


def test_markdown_html_is_escaped_not_passed_through(tmp_path: Path) -> None:
    (tmp_path / "ok.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>')
    text = ("# Title\n\n<script>alert(1)</script>\n\nA <img src=x onerror=alert(1)> and <b onclick=x>bold</b>.\n\n"
            "[click](javascript:alert(1)) [fine](#goal)\n\n![far](../../secret.svg) ![mine](ok.svg)\n\n"
            "| a | b |\n|---|---|\n| {#row-1} <i>x</i> | y |\n")
    r = render_markdown(text, tmp_path)
    page = Page(r.body)
    assert not {"script", "img", "b", "i"} & set(page.tags)
    assert "&lt;script&gt;" in r.body
    assert "javascript:" not in " ".join(page.links) and "#goal" in page.links
    assert page.tags.count("svg") == 1  # only the drawing from the folder itself
    assert "row-1" in page.ids


def test_served_pages_carry_only_their_own_script(client: TestClient) -> None:
    for game_id in GAMES:
        for lang in LANGS:
            assert Page(client.get(f"/rules/{game_id}?lang={lang}").text).scripts == 1


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_options_are_explained_under_the_names_the_lobby_shows(game_id: str, lang: str) -> None:
    text = (web_dir(game_id) / RULES_FILE.format(lang=lang)).read_text(encoding="utf-8")
    section = re.search(r"^## .*\{#options\}$(.*?)^## ", text, re.S | re.M)
    assert section, "no options section"
    words = " ".join(section.group(1).split()).lower()
    labels = {k: v for k, v in GAMES[game_id].catalogue()[lang].items()
              if k.startswith("option.") and not k.endswith(".help")}
    assert {f"option.{o.name}" for o in GAMES[game_id].options} <= set(labels)
    missing = [f"{k}: {v}" for k, v in labels.items() if " ".join(v.split()).lower() not in words]
    assert not missing, missing


# ---------------------------------------------------------------------- the values in the glossary
def rows(game_id: str, lang: str, prefix: str) -> dict[str, list[str]]:
    """The glossary rows whose first cell starts with ``{#prefix…}``: id → the other cells."""
    text = (web_dir(game_id) / RULES_FILE.format(lang=lang)).read_text(encoding="utf-8")
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        m = re.match(r"\|\s*\{#" + re.escape(prefix) + r"([\w-]+)\}[^|]*\|(.*)\|\s*$", line)
        if m:
            out[m.group(1)] = [c.strip() for c in m.group(2).split("|")]
    return out


YES = {"en": "yes", "de": "ja"}
NO = {"en": "no", "de": "nein"}


def num(v: int | None) -> str:
    return "—" if v is None else str(v)


@pytest.mark.parametrize("lang", LANGS)
def test_el_grande_glossary_values_are_the_games(lang: str) -> None:
    regions = rows("el-grande", lang, "region-")
    assert set(regions) == set(eg.AREA_IDS)
    for r in eg.REGIONS:
        assert regions[r.id][1] == " · ".join(map(str, r.values)), r.id
    assert regions["castillo"][1] == " · ".join(map(str, eg.CASTILLO_VALUES))


@pytest.mark.parametrize("lang", LANGS)
def test_don_carlo_glossary_values_are_the_games(lang: str) -> None:
    countries = rows("don-carlo", lang, "country-")
    assert set(countries) == {c.id for c in dc.COUNTRIES}
    for c in dc.COUNTRIES:
        sums, points = countries[c.id][0], countries[c.id][1]
        assert sums == ", ".join(map(str, sorted(c.sums))), c.id
        assert points == f"{c.default_points}{' (R)' if c.reconstructed else ''}", c.id


@pytest.mark.parametrize("lang", LANGS)
def test_don_carlo_rules_explain_the_rounds_the_log_counts(lang: str) -> None:
    """The log, the replay and the chart count rounds (``dc.round``): the rules say what one is
    instead of denying that there are any."""
    text = (web_dir("don-carlo") / RULES_FILE.format(lang=lang)).read_text(encoding="utf-8")
    word = GAMES["don-carlo"].catalogue()[lang]["dc.round"].split(" ")[0]  # "Round" / "Runde"
    setup = text[text.index("{#setup}"):text.index("{#turn}")]
    assert f"**{word.lower() if lang == 'en' else word}**" in setup
    assert "no rounds, only turns" not in text and "keine Runden, nur Züge" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_mafia_glossary_values_are_the_games(lang: str) -> None:
    cards = rows("mafia-legend", lang, "card-")
    for a in ml.ACTION_CARDS:
        cells = cards[a.id]
        if a.kind == "attack":
            assert cells[2:7] == [str(a.stars), YES[lang] if a.eye else NO[lang], str(a.fist), str(a.dollar),
                                  str(a.count)], a.id
        elif a.kind == "defence":
            assert cells[3] == str(a.count) and (a.strength == ml.CANCEL or cells[2] == str(a.strength)), a.id
        else:
            assert cells[2:6] == [str(a.dice), str(a.fist), str(a.dollar), str(a.count)], a.id
    for c in ml.CHARACTERS:
        cells = cards[c.id]
        assert cells[2:6] == [str(c.influence), num(c.bribe), num(c.blackmail), str(c.dollars)], c.id
        assert cells[7] == (f"{c.gift} ({c.set})" if c.gift else "—"), c.id
        assert cells[8] == ("4" if c.four_only else "3–4"), c.id
    for j in ml.JOBS:
        cells = cards[j.id]
        assert [cells[1], cells[3], cells[4], cells[5]] == [str(j.dice_sum), str(j.ep), str(j.dollar), str(j.failure)]
    for m, value in ml.MONEY.items():
        assert cards[m] == [f"${value}", str(ml.MONEY_COUNTS[m])]
    for p in ml.POWERS:
        assert cards[p.id][1:3] == [str(p.threshold), str(p.vp)], p.id
    assert set(ml.EVENTS) | set(ml.MISSIONS) <= set(cards)


def test_mafia_goal_in_the_rules_is_the_games() -> None:
    for lang, vp in (("en", "VP"), ("de", "SP")):
        text = (web_dir("mafia-legend") / RULES_FILE.format(lang=lang)).read_text(encoding="utf-8")
        assert f"{ml.GOAL} {vp}" in text and f"{ml.BEGINNER_GOAL} {vp}" in text

