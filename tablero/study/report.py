"""One self-contained HTML page for a study's results (tournament, lab).

:func:`html_page` puts the command line, tables, the PNG plots (embedded as base64 data URIs)
and the versions into one file with inline CSS: it makes no request of its own, opens offline
and can be mailed as it is. It reads well on a phone: wide tables scroll sideways in their own
box, pictures shrink to the screen.
"""

from __future__ import annotations

import base64
import html
import platform
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import tablero
from tablero.core.protocol import Game
from tablero.registry import get_game

CSS = """
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #d9dee7; --head: #eef1f6;
  --accent: #2f5f9e; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
  background: #fafbfc; }
main { max-width: 1000px; margin: 0 auto; padding: 1rem 1rem 3rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 0.6rem; padding-bottom: 0.2rem; border-bottom: 2px solid var(--line); }
p, li { max-width: 70ch; }
code, pre { font: 0.9em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre.command { background: #1d2330; color: #f4f6fa; padding: 0.7rem 0.9rem; border-radius: 6px;
  white-space: pre-wrap; word-break: break-all; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; margin: 0.5rem 0 1rem; }
table { border-collapse: collapse; background: #fff; font-size: 0.95rem; }
th, td { padding: 0.35rem 0.65rem; border: 1px solid var(--line); text-align: left; white-space: nowrap; }
th { background: var(--head); font-weight: 600; white-space: normal; min-width: 3.5em; vertical-align: bottom; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) td { background: #f7f9fc; }
figure { margin: 1rem 0 1.5rem; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem; }
figure img { display: block; max-width: 100%; height: auto; margin: 0 auto; }
figcaption { color: var(--muted); font-size: 0.9rem; padding: 0.3rem 0.2rem 0; }
.note { color: var(--muted); font-size: 0.92rem; }
dl.versions { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; font-size: 0.92rem; }
dl.versions dt { color: var(--muted); }
dl.versions dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
@media (max-width: 600px) {
  body { font-size: 15px; }
  main { padding: 0.6rem 0.6rem 2rem; }
  h1 { font-size: 1.3rem; }
  table { font-size: 0.85rem; }
  th, td { padding: 0.3rem 0.45rem; }
  figure { padding: 0.2rem; margin: 0.8rem -0.3rem 1.2rem; }
}
"""


def esc(text: object) -> str:
    """``text`` as HTML text (quotes escaped too)."""
    return html.escape(str(text), quote=True)


def html_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A table in a sideways-scrolling box. Cells are escaped; int and float cells are set
    right-aligned (floats with 3 decimals; format them yourself for another precision), None as
    a dash; a cell given as ``(text, True)`` is set right-aligned as a number."""
    head = "".join(f"<th scope=\"col\">{esc(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = []
        for cell in row:
            numeric = isinstance(cell, (int, float)) and not isinstance(cell, bool)
            if isinstance(cell, tuple) and len(cell) == 2 and isinstance(cell[1], bool):
                cell, numeric = cell
            if cell is None:
                text, numeric = "–", True
            elif isinstance(cell, float):
                text = f"{cell:.3f}"
            else:
                text = str(cell)
            cells.append(f"<td class=\"num\">{esc(text)}</td>" if numeric else f"<td>{esc(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f"<div class=\"scroll\"><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>")


def _caption(path: Path) -> str:
    return path.stem.replace("_", " ").replace("-", " ").capitalize()


def _figure(path: Path) -> str:
    data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
    caption = _caption(Path(path))
    return (f"<figure><img src=\"data:image/png;base64,{data}\" alt=\"{esc(caption)}\">"
            f"<figcaption>{esc(caption)} ({esc(Path(path).name)})</figcaption></figure>")


def html_page(title: str, *, command: str, sections: Sequence[tuple[str, str]], figures: Sequence[Path],
              versions: Mapping[str, str]) -> str:
    """The whole page: the title, the command line, each ``(heading, html)`` section (its html
    as given: build it with :func:`html_table` and :func:`esc`), the figures (PNG files,
    embedded) and the versions. Nothing on it is loaded from elsewhere."""
    parts = [
        "<!DOCTYPE html>",
        "<html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body><main>",
        f"<h1>{esc(title)}</h1>",
        f"<pre class=\"command\">{esc(command)}</pre>",
    ]
    for heading, content in sections:
        parts.append(f"<section><h2>{esc(heading)}</h2>{content}</section>")
    if figures:
        parts.append("<section><h2>Plots</h2>" + "".join(_figure(Path(f)) for f in figures) + "</section>")
    rows = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in versions.items())
    parts.append(f"<section><h2>Versions</h2><dl class=\"versions\">{rows}</dl></section>")
    parts.append("</main></body></html>")
    return "\n".join(parts) + "\n"


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def versions(game: Game[Any, Any, Any] | str) -> dict[str, str]:
    """What produced a study's numbers: tablero, the game's rules and data versions, Python,
    and the versions of openskill, matplotlib and ray (where installed; ray is not imported)."""
    if isinstance(game, str):
        game = get_game(game)
    out = {
        "tablero": tablero.__version__,
        "game": game.id,
        "rules_version": str(game.rules_version),
        "data_version": str(game.data_version),
        "python": platform.python_version(),
    }
    for package in ("openskill", "matplotlib", "ray"):
        version = _version(package)
        if version is not None:
            out[package] = version
    return out
