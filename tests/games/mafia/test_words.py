"""Mafia Legend's words: every log line and move label is a whole sentence in both languages.

Seeded random games (3 and 4 players; beginner, advanced, advanced with missions) are played
to the end. Every log line, as every seat and a spectator sees it, every legal move's label of
the seat to act, and the chosen move as every other viewer sees it are rendered in English and
German. No rendered text may carry a wire token (``to_hand``, ``ashtray_money``, ``k2``,
``moretti``, ``POL``), a card code outside its brackets (``Razzia (A01)`` is fine, ``draws
A01`` is not), an unrendered message (``ml.x(…)``), a brace, an English word in German or a
gendered pronoun for a player. The catalogue itself: the same keys in both languages, every
German template its own words (except the pure formats listed below), the same parameters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from random import Random

import pytest

from tablero.core.match import Match
from tablero.core.messages import LANGUAGES, Message, Translator, template_fields
from tablero.core.protocol import CHANCE
from tablero.games.mafia import data
from tablero.games.mafia.rules import GAME, OPTIONS

NAMES = ("Ana", "Ben", "Cleo", "Dora")
"""Seat names that are no English word and no card code."""

CONFIGS: tuple[tuple[int, dict[str, object]], ...] = (
    (3, {"variant": "advanced"}),
    (4, {"variant": "advanced"}),
    (3, {"variant": "advanced", "missions": True}),
    (4, {"variant": "advanced", "missions": True}),
    (3, {"variant": "beginner"}),
    (4, {"variant": "beginner"}),
)
GAMES_PER_CONFIG = 40
LABELS_EVERY = 3
"""Every legal move's label is rendered at every third decision, and the chosen move as every
viewer sees it at the next (every decision would triple the test's time for the same words)."""

SAME_IN_BOTH: frozenset[str] = frozenset({
    # pure formats: a printed name and its code, a money card, "seat: move"
    "ml.card", "ml.money", "ml.actor",
    # printed names, German in both languages (as on the board and the cards)
    "ml.fam.moretti", "ml.fam.rinaldi", "ml.fam.orsini", "ml.fam.lombardo", "ml.fam.santori", "ml.fam.barone",
    "ml.pw.POL", "ml.pw.STA", "ml.pw.WIR", "ml.pw.PRE", "ml.pw.BEV",
    # months spelled the same
    "ml.mon.4", "ml.mon.8", "ml.mon.9", "ml.mon.11",
    # the score sheet's rows: words German uses too
    "ml.sheet.jobs", "ml.sheet.sets",
    # a card in the lobby's data labels: its printed name and code (text.DATA_ROW_NAMES)
    "data.MONEY.name", "data.ACTIONS.name", "data.CHARACTERS.name", "data.JOBS.name", "data.POWERS.name",
})
"""Catalogue entries whose German template may equal the English one; every other one differs."""

RARE: frozenset[str] = frozenset({
    "ml.draw_lost",  # a deck and its discard pile both empty
    "ml.deck.A", "ml.deck.C", "ml.deck.J", "ml.deck.E", "ml.deck.X",  # only in that line, or a reshuffle
    # a chance draw described to a viewer as a move (the log says it with its own lines)
    "ml.chance.draw", "ml.unseen.E", "ml.unseen.X",
    "ml.ui.header", "ml.ui.row", "ml.ui.job", "ml.ui.jobinfo", "ml.ui.events", "ml.ui.powers", "ml.ui.player",
    "ml.ui.you", "ml.ui.mission", "ml.ui.sitout", "ml.ui.attack", "ml.ui.disc", "ml.ui.job_field", "ml.ui.over",
    "ml.ui.nobody",  # the terminal's picture, not the log
})
"""Catalogue ids random games need not reach; every other message id must be rendered at least once."""

SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
UNRENDERED = re.compile(r"\b(?:ml|core|option)\.[\w.]+")
CODE = re.compile(r"\b(?:[ADT]\d\d|[PSWRB][1-8]|J\d\d|EV\d\d|M\d\d|G[1235])\b")
WIRE = re.compile(r"\b(?:k[1-4]|atk(?::\d)?|POL|STA|WIR|PRE|BEV|up|now|me|yes|no|none|hand|screen)\b|"
                  + r"\b(?:" + "|".join(data.FAMILIES) + r")\b")
ENGLISH = re.compile(r"\b(?:the|a|takes|draws|plays|card|cards|money|disc|attack|field|column|deck|with|and|"
                     r"of|is|wins|nobody|turn|month|phase|face|down|up|into|from|behind|screen|hand)\b")
GENDERED = {"en": re.compile(r"\b(?:his|him|her|he|she)\b", re.IGNORECASE),
            "de": re.compile(r"\b(?:sein|seine|seinen|seinem|seiner|seines|ihn|ihm|er)\b")}


def _defects(text: str, lang: str) -> list[str]:
    """What is wrong with one rendered line (empty: nothing)."""
    out = []
    if "{" in text or "}" in text:
        out.append("a brace")
    for pattern, what in ((SNAKE, "a snake_case token"), (UNRENDERED, "an unrendered message id")):
        if m := pattern.search(text):
            out.append(f"{what} {m.group()!r}")
    for m in CODE.finditer(text):
        if text[m.start() - 1:m.start()] != "(" or text[m.end():m.end() + 1] != ")":
            out.append(f"a card code outside brackets {m.group()!r}")
    # the wire words, outside the English words they also are ("hand", "screen", "up")
    probe = text if lang == "de" else re.sub(r"\b(?:up|hand|screen|now|no)\b", "", text)
    if m := WIRE.search(probe):
        out.append(f"a wire token {m.group()!r}")
    if lang == "de" and (m := ENGLISH.search(text)):
        out.append(f"an English word {m.group()!r}")
    if m := GENDERED[lang].search(text):
        out.append(f"a gendered pronoun {m.group()!r}")
    return out


def _play(players: int, options: dict[str, object], seed: int) -> Iterable[Message]:
    """Every message one random game shows anyone: log lines and move labels."""
    m = Match(GAME, NAMES[:players], options=options, seed=seed)
    rng = Random(seed)
    viewers = (None, *range(players))
    decisions = 0
    while not m.is_over():
        p = m.pending()[0]
        legal = list(m.legal(p))
        if decisions % LABELS_EVERY == 0:
            for a in legal:
                yield m.describe(p, a, p)
        a = rng.choice(legal)
        if decisions % LABELS_EVERY == 1:
            for v in viewers:
                yield m.describe(p, a, v)
        m.act(p, a)
        decisions += 1
    for v in viewers:
        yield from m.log(v)


@pytest.fixture(scope="module")
def shown() -> set[Message]:
    out: set[Message] = set()
    for k, (players, options) in enumerate(CONFIGS):
        for g in range(GAMES_PER_CONFIG):
            out.update(_play(players, options, 1000 * k + g))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_and_label_of_random_games_is_whole_words(shown: set[Message], lang: str) -> None:
    tr = Translator(lang, [GAME.catalogue()], NAMES)
    bad: dict[str, str] = {}
    for msg in shown:
        text = tr(msg)
        problems = _defects(text, lang)
        if problems and msg.id not in bad:
            bad[msg.id] = f"{text!r}: {', '.join(problems)}"
    assert not bad, "\n".join(f"{k}: {v}" for k, v in sorted(bad.items()))


def test_random_games_reach_every_message(shown: set[Message]) -> None:
    """The words above are checked on real lines: every catalogued message appears in the games."""
    reached = {i for msg in shown for i in msg.ids()}
    catalogued = {k for k in GAME.catalogue()["en"] if not k.startswith(("option.", "ml.sheet.", "score.", "data."))}
    assert catalogued - RARE - reached == set()
    assert reached <= set(GAME.catalogue()["en"])


def test_every_chance_step_and_decision_is_described_to_every_viewer() -> None:
    """``describe`` of chance outcomes and of hidden moves to other viewers: whole words too."""
    m = Match(GAME, NAMES[:3], seed=7)
    rng = Random(7)
    seen: list[Message] = []
    state = m.state
    while not m.is_over() and len(seen) < 4000:
        for p in GAME.to_act(state):
            for a in GAME.legal_actions(state, p) if p != CHANCE else [o for o, _ in GAME.chance_outcomes(state)]:
                seen.extend(GAME.describe(state, p, a, v) for v in (None, 0, 1, 2))
        p = m.pending()[0]
        m.act(p, rng.choice(list(m.legal(p))))
        state = m.state
    for lang in LANGUAGES:
        tr = Translator(lang, [GAME.catalogue()], NAMES)
        bad = {msg.id: tr(msg) for msg in seen if _defects(tr(msg), lang)}
        assert not bad, bad


def test_catalogue_german_is_its_own_and_agrees_with_english() -> None:
    en, de = GAME.catalogue()["en"], GAME.catalogue()["de"]
    assert set(en) == set(de)
    same = {k for k in en if en[k] == de[k]}
    assert same == SAME_IN_BOTH, f"German templates that are the English ones: {sorted(same - SAME_IN_BOTH)}"
    for k in en:
        assert template_fields(en[k]) == template_fields(de[k]), k
        for lang, t in (("en", en[k]), ("de", de[k])):
            assert not GENDERED[lang].search(re.sub(r"\{[^{}]*\}", "", t)), (lang, k, t)


def test_every_option_has_words_in_both_languages() -> None:
    for lang in LANGUAGES:
        cat = GAME.catalogue()[lang]
        for spec in OPTIONS:
            assert cat.get(f"option.{spec.name}"), (lang, spec.name)
            assert cat.get(f"option.{spec.name}.help", "").endswith("."), (lang, spec.name)
            for choice in spec.choices or ():
                assert cat.get(f"option.{spec.name}.{choice}"), (lang, spec.name, choice)
            if spec.name in ("start_seat", "families"):
                assert cat.get(f"option.{spec.name}.{spec.default}"), (lang, spec.name)


def test_a_seats_moves_read_differently() -> None:
    """A player tells every legal move apart by its words alone, in both languages."""
    for seed, (players, options) in enumerate(CONFIGS):
        m = Match(GAME, NAMES[:players], options=options, seed=seed)
        rng = Random(seed)
        translators = [Translator(lang, [GAME.catalogue()], NAMES) for lang in LANGUAGES]
        while not m.is_over():
            p = m.pending()[0]
            legal = list(m.legal(p))
            for tr in translators:
                labels = [tr(m.describe(p, a, p)) for a in legal]
                assert len(set(labels)) == len(labels), (tr.lang, [a.to_text() for a in legal], labels)
            m.act(p, rng.choice(legal))
