"""Rules pages: each game's rules in our own words, per language, served as one HTML page.

The rules are Markdown files in the game's own web folder, beside its board drawing:
``tablero/games/<g>/web/rules.en.md`` and ``rules.de.md``. ``GET /rules/{game_id}?lang=de|en``
renders one of them (markdown-it-py) into a page of its own: its style inline, its one script
``static/rules.js`` (the server's CSP allows no inline script), a table of contents from the
``##`` and ``###`` headings, a language switch and links back to the lobby. Boards link single
entries ("what does this card do?") with ``kit.rulesLink(anchor)`` (``static/boardkit.js``),
which opens ``/rules/<game>?lang=…#<anchor>`` in a new tab.

What the Markdown may use beyond CommonMark and tables:

* ``## Heading {#id}`` gives a heading a stable id (the same in both languages); headings
  without one get an id from their text.
* ``{#id}`` at the start of a table row, list item or paragraph gives that element the id:
  the glossary's entries (``{#card-1A}``, ``{#region-castillo}``, ``{#country-protzland}``).
* ``![caption](name.svg)`` with a plain file name of an SVG file in the same folder puts that
  drawing into the page (our own diagrams; the only HTML the page takes from a file). Any other
  picture shows only its caption: the page loads nothing from elsewhere.

Raw HTML in the Markdown is escaped, never passed through (``html=False``), and markdown-it's
link check drops ``javascript:`` and similar links.
"""

from __future__ import annotations

import functools
import html
import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from tablero.core.messages import LANGUAGES
from tablero.registry import GAMES, get_game
from tablero.server.i18n import UI

RULES_FILE = "rules.{lang}.md"
"""The file name of a game's rules in one language, in the game's web folder."""

_HEADING_ID = re.compile(r"\s*\{#([A-Za-z][\w-]*)\}\s*$")
_ANCHOR = re.compile(r"\{#([A-Za-z][\w-]*)\}")
_SVG_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*\.svg$")
_HOIST = ("tr_open", "list_item_open", "paragraph_open")
"""Where an inline ``{#id}`` puts its id: the nearest enclosing row, list item or paragraph."""


def web_dir(game_id: str) -> Path:
    """A game's own web folder (board drawing, rules, diagrams), beside its rules code."""
    return Path(inspect.getfile(type(get_game(game_id)))).parent / "web"


def pick_language(lang: str | None, accept_language: str | None = None) -> str:
    """The page's language: ``lang`` if it is one of ours, else the browser's first choice we have."""
    if lang in LANGUAGES:
        return lang
    for part in (accept_language or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


# ---------------------------------------------------------------------- Markdown
def _slug(text: str) -> str:
    s = re.sub(r"[^\w]+", "-", text.lower()).strip("-")
    return s or "section"


def _heading_ids(state: StateCore) -> None:
    """``## Title {#id}``: the id comes off the text and onto the heading (before inline parsing)."""
    tokens = state.tokens
    for k, tok in enumerate(tokens):
        if tok.type != "heading_open" or k + 1 >= len(tokens):
            continue
        inline = tokens[k + 1]
        m = _HEADING_ID.search(inline.content)
        if m:
            inline.content = inline.content[: m.start()]
            tok.attrSet("id", m.group(1))


def _anchor_inline(state: StateInline, silent: bool) -> bool:
    """``{#id}`` inside a paragraph, list item or table cell: an anchor token (hoisted below)."""
    if state.src[state.pos] != "{":
        return False
    m = _ANCHOR.match(state.src, state.pos)
    if not m:
        return False
    if not silent:
        tok = state.push("rules_anchor", "", 0)
        tok.attrSet("id", m.group(1))
    state.pos = m.end()
    return True


def _hoist_anchors(state: StateCore) -> None:
    """Give an inline anchor's id to its enclosing row / list item / paragraph (so ``:target``
    marks the whole entry) and give the remaining headings an id from their text."""
    open_blocks: list[Token] = []
    for tok in state.tokens:
        if tok.nesting == 1:
            open_blocks.append(tok)
        elif tok.nesting == -1 and open_blocks:
            open_blocks.pop()
        if tok.type != "inline" or not tok.children:
            continue
        kept: list[Token] = []
        for child in tok.children:
            if child.type != "rules_anchor":
                kept.append(child)
                continue
            target = next((b for t in _HOIST for b in reversed(open_blocks) if b.type == t), None)
            if target is not None and target.attrGet("id") is None:
                target.attrSet("id", str(child.attrGet("id")))
            else:
                kept.append(child)  # rendered as an empty span with the id
        # the space after a leading anchor goes too
        if kept and kept[0].type == "text" and len(kept) != len(tok.children):
            kept[0].content = kept[0].content.lstrip()
        tok.children = kept
    for k, tok in enumerate(state.tokens):
        if tok.type == "heading_open" and tok.attrGet("id") is None:
            text = state.tokens[k + 1].content if k + 1 < len(state.tokens) else ""
            tok.attrSet("id", _slug(text))


def _md(folder: Path) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    md.core.ruler.after("block", "rules_heading_ids", _heading_ids)
    md.inline.ruler.before("text", "rules_anchor", _anchor_inline)
    md.core.ruler.push("rules_hoist_anchors", _hoist_anchors)

    def anchor(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        return f'<span class="anchor" id="{html.escape(str(tokens[idx].attrGet("id")))}"></span>'

    def table_open(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        return '<div class="table-wrap">' + str(self.renderToken(tokens, idx, options, env))

    def table_close(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        return str(self.renderToken(tokens, idx, options, env)) + "</div>"

    def image(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        tok = tokens[idx]
        src = str(tok.attrGet("src") or "")
        caption = html.escape(tok.content)
        path = folder / src
        if _SVG_NAME.match(src) and path.is_file():
            drawing = re.sub(r"^\s*<\?xml[^>]*\?>\s*", "", path.read_text(encoding="utf-8"))
            return (f'<figure class="diagram" aria-label="{caption}">{drawing}'
                    f"<figcaption>{caption}</figcaption></figure>")
        return f'<span class="missing-picture">[{caption}]</span>'  # the page loads nothing from elsewhere

    md.add_render_rule("rules_anchor", anchor)
    md.add_render_rule("table_open", table_open)
    md.add_render_rule("table_close", table_close)
    md.add_render_rule("image", image)
    return md


@dataclass(frozen=True, slots=True)
class Rendered:
    """One Markdown text as HTML, with what the page and the tests need from it."""

    title: str
    """The text of the first ``#`` heading."""
    body: str
    toc: tuple[tuple[int, str, str], ...]
    """``(level, id, text)`` of every ``##`` and ``###`` heading, in order."""
    ids: tuple[str, ...]
    """Every id in the body (headings, glossary entries), in order; duplicates stay visible."""


def render_markdown(text: str, folder: Path) -> Rendered:
    """Markdown (ours: see the module) as HTML; ``folder`` holds the SVG files it may embed."""
    md = _md(folder)
    env: dict[str, Any] = {}
    tokens = md.parse(text, env)
    title = ""
    toc: list[tuple[int, str, str]] = []
    ids: list[str] = []
    for k, tok in enumerate(tokens):
        tid = tok.attrGet("id")
        if tid is not None and tok.nesting == 1:
            ids.append(str(tid))
        if tok.type == "inline" and tok.children:
            ids.extend(str(c.attrGet("id")) for c in tok.children if c.type == "rules_anchor")
        if tok.type != "heading_open":
            continue
        words = "".join(c.content for c in (tokens[k + 1].children or []) if c.type in ("text", "code_inline"))
        if tok.tag == "h1" and not title:
            title = words
        elif tok.tag in ("h2", "h3"):
            toc.append((int(tok.tag[1]), str(tid), words))
    return Rendered(title=title, body=md.renderer.render(tokens, md.options, env), toc=tuple(toc), ids=tuple(ids))


@functools.lru_cache(maxsize=16)
def rules(game_id: str, lang: str) -> Rendered:
    """A game's rules in one language (read once per process: they are package data)."""
    folder = web_dir(game_id)
    return render_markdown((folder / RULES_FILE.format(lang=lang)).read_text(encoding="utf-8"), folder)


# ---------------------------------------------------------------------- the page
def _toc_html(toc: tuple[tuple[int, str, str], ...]) -> str:
    out: list[str] = ["<ul>"]
    open_sub = False
    for level, tid, text in toc:
        link = f'<a href="#{html.escape(tid)}">{html.escape(text)}</a>'
        if level == 2:
            if open_sub:
                out.append("</ul></li>")
                open_sub = False
            elif len(out) > 1:
                out.append("</li>")
            out.append(f"<li>{link}")
        else:
            if not open_sub:
                out.append("<ul>")
                open_sub = True
            out.append(f"<li>{link}</li>")
    out.append("</ul></li></ul>" if open_sub else ("</li></ul>" if len(out) > 1 else "</ul>"))
    return "".join(out)


def rules_page(game_id: str, lang: str) -> str:
    """The whole HTML page of a game's rules in ``lang`` (an unknown game raises ``TableroError``)."""
    game = get_game(game_id)
    r = rules(game.id, lang)
    ui = UI[lang]
    gid = html.escape(game.id)
    langs = "".join(
        f'<a class="lang{" active" if code == lang else ""}" data-lang="{code}" hreflang="{code}" lang="{code}"'
        f' href="/rules/{gid}?lang={code}"{" aria-current=" + chr(34) + "true" + chr(34) if code == lang else ""}>'
        f'{"Deutsch" if code == "de" else "English"}</a>'
        for code in LANGUAGES)
    others = " · ".join(
        f'<a href="/rules/{html.escape(g.id)}?lang={lang}">{html.escape(g.title)}</a>'
        for g in GAMES.values() if g.id != game.id)
    words = {k: html.escape(ui.get(k, k)) for k in (
        "rules.title", "rules.contents", "rules.lobby", "rules.other", "rules.photos")}
    title = html.escape(f"{game.title} — {ui.get('rules.title', 'Rules')} — tablero")
    return f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{RULES_CSS}</style>
</head>
<body class="rules-page" data-game="{gid}" data-lang="{lang}">
<header class="rules-top">
<a class="home" href="/">tablero</a>
<span class="rules-game">{words["rules.title"]}: {html.escape(game.title)}</span>
<nav class="langs" aria-label="Language / Sprache">{langs}</nav>
<a class="back" id="to-lobby" href="/">{words["rules.lobby"]}</a>
</header>
<div class="rules-layout">
<nav class="toc" id="toc" aria-label="{words["rules.contents"]}">
<details open><summary>{words["rules.contents"]}</summary>{_toc_html(r.toc)}</details>
</nav>
<main class="rules" id="rules">
{r.body}
<footer class="rules-foot"><p>{words["rules.photos"]}</p>
<p>{words["rules.other"]}: {others} · <a href="/">{words["rules.lobby"]}</a></p></footer>
</main>
</div>
<script src="/static/app/rules.js"></script>
</body></html>"""


RULES_CSS = """
:root { --bg: #f6f1e7; --fg: #1d1b18; --muted: #6b6358; --card: #fffdf8; --line: #d9cfbd;
  --accent: #8b1e1e; --focus: #0b57d0; --mark: #fff3c4;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
* { box-sizing: border-box; }
body { margin: 0; line-height: 1.5; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.rules-top { display: flex; align-items: center; gap: .4rem 1rem; flex-wrap: wrap; padding: .5rem 1rem;
  background: #2b2118; color: #f6f1e7; position: sticky; top: 0; z-index: 5; }
.rules-top a.home { color: #f6c86b; font-weight: 700; font-size: 1.15rem; text-decoration: none; }
.rules-top .rules-game { flex: 1; font-weight: 600; min-width: 0; }
.rules-top a.back { color: #f6c86b; }
.langs { display: flex; gap: .3rem; }
.langs a { color: #f6f1e7; border: 1px solid #8a7a66; border-radius: 6px; padding: .1em .6em; font-size: .85rem;
  text-decoration: none; }
.langs a.active { background: #f6c86b; border-color: #f6c86b; color: #1d1b18; }
.rules-layout { display: grid; grid-template-columns: 16rem minmax(0, 1fr); gap: 1.5rem; max-width: 76rem;
  margin: 0 auto; padding: 1rem; }
.toc { position: sticky; top: 3.5rem; align-self: start; max-height: calc(100vh - 4.5rem); overflow: auto;
  font-size: .9rem; }
.toc summary { font-weight: 700; cursor: pointer; margin-bottom: .3rem; }
.toc ul { list-style: none; padding-left: 0; margin: .2rem 0; }
.toc ul ul { padding-left: .9rem; font-size: .85rem; }
.toc li { margin: .2rem 0; }
main.rules { min-width: 0; background: var(--card); border: 1px solid var(--line); border-radius: 10px;
  padding: .5rem 1.5rem 1rem; }
main.rules h1 { font-size: 1.7rem; margin: .6rem 0; }
main.rules h2 { font-size: 1.3rem; margin: 1.6rem 0 .5rem; padding-top: .3rem; border-top: 2px solid var(--line); }
main.rules h3 { font-size: 1.08rem; margin: 1.2rem 0 .4rem; }
main.rules h4 { font-size: 1rem; margin: 1rem 0 .3rem; }
main.rules [id] { scroll-margin-top: 4rem; }
main.rules :target { background: var(--mark); outline: 2px solid #c9a227; outline-offset: 2px; }
main.rules blockquote { margin: .8rem 0; padding: .4rem .9rem; border-left: 4px solid #c9a227; background: #fbf6e6; }
main.rules code { background: #f1eadb; padding: 0 .25em; border-radius: 3px; font-size: .92em; }
.table-wrap { overflow-x: auto; margin: .6rem 0; }
main.rules table { border-collapse: collapse; font-size: .92rem; min-width: 60%; }
main.rules th, main.rules td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left;
  vertical-align: top; }
main.rules th { background: #efe6d6; }
main.rules tr:nth-child(even) td { background: #fbf8f1; }
main.rules tr:target td { background: var(--mark); }
figure.diagram { margin: 1rem 0; text-align: center; }
figure.diagram svg { max-width: 100%; height: auto; }
figure.diagram figcaption { font-size: .85rem; color: var(--muted); margin-top: .3rem; }
.rules-foot { margin-top: 2rem; border-top: 1px solid var(--line); font-size: .9rem; color: var(--muted); }
@media (max-width: 800px) {
  .rules-layout { grid-template-columns: minmax(0, 1fr); padding: .5rem; gap: .5rem; }
  .toc { position: static; max-height: none; background: var(--card); border: 1px solid var(--line);
    border-radius: 10px; padding: .4rem .8rem; }
  main.rules { padding: .3rem .8rem .8rem; }
  main.rules h1 { font-size: 1.4rem; }
  .rules-top { position: static; padding: .4rem .6rem; }
  .rules-top .rules-game { display: none; }
  .rules-top a.back { margin-left: auto; }
  main.rules [id] { scroll-margin-top: .5rem; }
}
"""
"""The rules page's own style, inline (the page is one file; nothing else to load)."""
