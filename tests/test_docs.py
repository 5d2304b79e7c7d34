"""The README and docs/ stand on their own: they never send a reader outside the repository,
and every relative link in them finds its file."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_docs_exist() -> None:
    assert len(DOCS) > 3 and all(p.is_file() for p in DOCS)


def test_no_doc_points_outside_the_repository() -> None:
    outside = [f"{p.relative_to(ROOT)}:{n}" for p in DOCS
               for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "../shared" in line]
    assert not outside, outside


def test_relative_links_in_the_docs_find_their_files() -> None:
    broken = []
    for p in DOCS:
        text = re.sub(r"```.*?```|`[^`\n]*`", "", p.read_text(encoding="utf-8"), flags=re.S)  # code is no link
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if re.match(r"^[a-z]+:", target):
                continue  # a web address
            path = (p.parent / target).resolve()
            if not path.exists() or ROOT not in path.parents:
                broken.append(f"{p.relative_to(ROOT)} → {target}")
    assert not broken, broken


def test_the_rules_for_players_are_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for folder in ("elgrande", "doncarlo", "mafia"):
        for lang in ("en", "de"):
            assert f"tablero/games/{folder}/web/rules.{lang}.md" in readme
