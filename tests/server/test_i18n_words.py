"""No German word of the web client is English (tablero/server/i18n.py).

Every German entry of ``UI`` (lobby, table, end screen, replay, chat, rules, tutorial, advanced
data) and of the server's own log lines (``WEB_CATALOGUE``) differs from its English one, unless
its words are on a short list of words both languages use; and none holds an English function
word once its ``{placeholders}`` are taken out.
"""

from __future__ import annotations

import re

import pytest

from tablero.core.messages import parse_template
from tablero.server.i18n import UI, WEB_CATALOGUE

SAME_IN_BOTH = frozenset({"Chat", "OK", "Name", "Bot"})
"""Words German uses as English does: an entry made only of these may be the same in both."""

ENGLISH = re.compile(r"\b(the|and|your|you|is|of|to|with|this|move)\b", re.IGNORECASE)
"""English function words (whole words) that never belong in a German entry."""

WORD = re.compile(r"[^\W\d_]+")


def literal(template: str) -> str:
    """The words of a template: placeholders out (the texts of a plural or select stay in)."""
    try:
        nodes = list(parse_template(template))
    except ValueError:
        return re.sub(r"\{[^{}]*\}", " ", template)
    out: list[str] = []
    while nodes:
        node = nodes.pop(0)
        if isinstance(node, str):
            out.append(node)
        else:  # a placeholder: only the texts inside a plural or a select
            for part in (getattr(node, "one", ()), getattr(node, "other", ()),
                         *(nodes_ for _, nodes_ in getattr(node, "cases", ()))):
                nodes.extend(part)
            out.append(" ")
    return "".join(out)


def german_problems(key: str, en: str, de: str) -> list[str]:
    """What is English about one German entry (empty if nothing)."""
    out = []
    words = WORD.findall(literal(de))
    if de == en and not set(words) <= SAME_IN_BOTH:
        out.append(f"{key}: the German entry is the English one: {de!r}")
    m = ENGLISH.search(literal(de))
    if m:
        out.append(f"{key}: English {m.group(0)!r} in {de!r}")
    return out


def _entries() -> list[tuple[str, str, str]]:
    out = [(k, UI["en"][k], UI["de"][k]) for k in sorted(UI["en"])]
    out += [(k, WEB_CATALOGUE["en"][k], WEB_CATALOGUE["de"][k]) for k in sorted(WEB_CATALOGUE["en"])]
    return out


def test_no_german_ui_entry_is_english() -> None:
    assert set(UI["en"]) == set(UI["de"]) and set(WEB_CATALOGUE["en"]) == set(WEB_CATALOGUE["de"])
    bad = [p for key, en, de in _entries() for p in german_problems(key, en, de)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(("en", "de"), [
    ("Your move", "Your move"),                           # not translated
    ("Copy the link", "Kopiere the Link"),                # a function word left over
    ("{n} points to {name}", "{n} Punkte to {name}"),
    ("{n} cards", "{n:plural:eine Karte|# cards of Ana}"),  # inside a plural's text
    ("Chat and more", "Chat and more"),                   # a same-word entry with English around it
])
def test_the_check_finds_english_in_german(en: str, de: str) -> None:
    assert german_problems("k", en, de)


@pytest.mark.parametrize(("en", "de"), [
    ("Chat", "Chat"), ("Bot: {bot}", "Bot: {bot}"), ("{low}–{high}", "{low}–{high}"),
    ("Move {the}", "Zug {the}"),  # a placeholder's name is no word
    ("Replay", "Wiederholung"),
])
def test_the_check_lets_german_and_shared_words_pass(en: str, de: str) -> None:
    assert german_problems("k", en, de) == []
