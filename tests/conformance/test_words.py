"""Words players read, in every game: no identifiers, no English in German, both languages whole.

For each game and player count a few seeded random games run through the match driver (with
an occasional take-back). Every log line is rendered for every viewer (each seat and the
spectator) and every legal move label for the seat to act, in English and German, and each
text must read as words: no placeholder or brace left, no unrendered ``msg.id(k=v)``
fallback, no snake_case or other code token, no raw option or choice name, no ``True``/
``False``; a German text must hold none of a list of English function words. The catalogue
checks: both languages have the same keys, every option has its words (``option.<name>``,
``.help``, ``.<choice>``), and a German template differs from its English one unless it is
pure format or a proper name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from random import Random
from typing import Any

import pytest

from tablero.core.match import Match
from tablero.core.messages import CORE_CATALOGUE, LANGUAGES, Message, Translator, parse_template
from tablero.core.protocol import CHANCE, Game
from tablero.registry import GAMES, TUTORIALS

NAMES = ("Ana", "Ben", "Cleo", "Dan", "Eva")

RUNS: dict[str, int] = {"don-carlo": 30, "el-grande": 24, "mafia-legend": 10}
"""Random games per player count (the whole file stays well under half a minute)."""

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "don-carlo": [{}, {"majority_tie": "split_floor", "start_seat": 0}, {"majority_tie": "none"}],
    "el-grande": [{"short_game": True}, {"castillo_open": True}, {}],
    "mafia-legend": [{"variant": "beginner"}, {"variant": "advanced"}, {"variant": "advanced", "missions": True}],
}
"""Option sets cycled over the runs of a game."""

XFAIL: dict[str, str] = {}
"""Games whose words are known not to pass yet: game id -> reason (a non-strict xfail); empty."""

ENGLISH_WORDS = frozenset((
    "the", "and", "of", "to", "from", "with", "your", "their", "his", "is", "are", "it", "its", "this",
    "that", "these", "takes", "take", "places", "place", "plays", "play", "moves", "move", "sends", "send",
    "returns", "return", "chooses", "choose", "gets", "get", "draws", "draw", "scores", "score", "wins",
    "winner", "winners", "into", "onto", "for", "on", "at", "by", "not", "no", "all", "one", "each", "other",
    "card", "cards", "point", "points", "player", "players", "round", "turn", "starts", "start", "nobody",
    "none", "random", "true", "false",
))
"""English words that never belong in a German sentence (the German catalogue must not leak them)."""

SNAKE = re.compile(r"\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b")
DOTTED = re.compile(r"\b[a-z][a-z0-9_]*\.[a-z0-9_.]+")
FALLBACK = re.compile(r"\b[a-z][\w.]*\([^)]*=")
CODE_TOKEN = re.compile(r"\b[a-z]\d+\b")
LITERALS = re.compile(r"\b(True|False|None)\b")
WORD = re.compile(r"[^\W\d_]+")


def _option_words(game: Game[Any, Any, Any]) -> set[str]:
    out = set()
    for o in game.options:
        out.add(o.name)
        out.update(str(c) for c in o.choices)
    return out


ONE_PLURAL = re.compile(r"\b1 (caballeros|points|cards|agents|Caballeros|Punkte|Punkten|Karten|Agenten)\b")
ZERO_OFFER = re.compile(r"\b(up to|bis zu) 0\b")
GENDERED = {"en": re.compile(r"\b(his|her|him)\b"), "de": re.compile(r"\b(sein|seine|seinen|seinem|seiner)\b")}
ARTICLE = {"en": re.compile(r"\b(in|to|from|of|for|score|choose|chooses) Castillo\b"),
           "de": re.compile(r"\b(nach|in|aus|auf) (Castillo|Baskenland|den Hof)\b|\baus den\b")}
"""A place that needs its article or case ("nach Castillo", "aus den Hof", "to Castillo")."""


def _name_ids(game: Game[Any, Any, Any]) -> set[str]:
    """Ids of names in the catalogue ("galicia" of ``eg.area.galicia`` = "Galicia"): in lower
    case in a text they are the raw id, not the name."""
    out = set()
    for key, template in game.catalogue().get("en", {}).items():
        parts = key.split(".")
        tail = parts[-1]
        if (len(parts) >= 3 and not {"ui", "sheet", "opt"} & set(parts) and tail.islower()
                and template[:1].isupper() and template.lower() == tail.replace("_", " ")):
            out.add(tail)
    return out


def problems(text: str, lang: str, raw_names: set[str], name_ids: frozenset[str] = frozenset()) -> list[str]:
    """What is wrong with one rendered text (empty if it reads as words)."""
    out = []
    for pattern, what in ((ONE_PLURAL, "plural after 1"), (ZERO_OFFER, "up to 0"), (GENDERED[lang], "gendered"),
                          (ARTICLE[lang], "article")):
        m = pattern.search(text)
        if m:
            out.append(f"{what} {m.group(0)!r}")
    if "{" in text or "}" in text:
        out.append("brace")
    if FALLBACK.search(text) or DOTTED.search(text):
        out.append("message id")
    for pattern, what in ((SNAKE, "snake_case"), (CODE_TOKEN, "code token"), (LITERALS, "literal")):
        m = pattern.search(text)
        if m:
            out.append(f"{what} {m.group(0)!r}")
    words = WORD.findall(text)
    raw = [w for w in words if (w in raw_names and ("_" in w or lang == "de")) or w in name_ids]
    if raw:
        out.append(f"raw name {raw[0]!r}")
    if lang == "de":
        english = [w for w in words if w.lower() in ENGLISH_WORDS]
        if english:
            out.append(f"English {english[0]!r}")
    return out


def _messages(game: Game[Any, Any, Any], players: int, seed: int,
              options: dict[str, Any]) -> Iterator[tuple[str, Message]]:
    """("log" | "move", message) of one random game: every viewer's log lines, every legal
    move label of each seat to act (as that seat reads it)."""
    rng = Random(seed)
    match = Match(game, list(NAMES[:players]), options=options, seed=seed, undo=True)
    undos = 0
    viewers: list[int | None] = [*range(players), None]
    while not match.is_over():
        pending = [p for p in match.pending() if p != CHANCE]
        seat = pending[rng.randrange(len(pending))]
        legal = match.legal(seat)
        for action in legal:
            yield "move", match.describe(seat, action, seat)
        match.act(seat, legal[rng.randrange(len(legal))])
        if undos < 3 and match.can_undo(seat) and rng.random() < 0.05:
            match.undo(seat)
            undos += 1
    for _, event in match.events:
        for viewer in viewers:
            m = event.for_viewer(viewer)
            if m is not None:
                yield "log", m


def _cases(kind: str) -> list[Any]:
    out = []
    for gid in sorted(GAMES):
        marks = [pytest.mark.xfail(strict=False, reason=XFAIL[gid])] if gid in XFAIL else []
        if kind == "games":
            game = GAMES[gid]
            for n in range(game.min_players, game.max_players + 1):
                out.append(pytest.param(gid, n, marks=marks, id=f"{gid}-{n}p"))
        else:
            out.append(pytest.param(gid, marks=marks, id=gid))
    return out


@pytest.mark.parametrize(("gid", "players"), _cases("games"))
def test_every_log_line_and_move_label_reads_as_words(gid: str, players: int) -> None:
    game = GAMES[gid]
    raw_names, name_ids = _option_words(game), frozenset(_name_ids(game))
    variants = VARIANTS.get(gid, [{}])
    seen: dict[Message, str] = {}
    for run in range(RUNS.get(gid, 3)):
        for kind, msg in _messages(game, players, 1000 * players + run, variants[run % len(variants)]):
            seen.setdefault(msg, kind)
    assert any(k == "log" for k in seen.values()) and any(k == "move" for k in seen.values())
    translators = [Translator(lang, [game.catalogue()], NAMES[:players]) for lang in LANGUAGES]
    bad: dict[str, str] = {}
    for msg, kind in seen.items():
        for tr in translators:
            text = tr(msg)
            found = problems(text, tr.lang, raw_names, name_ids)
            if found and msg.id not in bad:
                bad[msg.id] = f"{kind} {tr.lang}: {text!r}: {', '.join(found)}"
    assert not bad, "\n".join(f"{k}: {v}" for k, v in sorted(bad.items()))


def _identical_allowed(gid: str, key: str, template: str) -> bool:
    """A German template may equal the English one: pure format, or a proper name."""
    literal = "".join(n for n in parse_template(template) if isinstance(n, str))
    if not WORD.search(literal):
        return True  # "{seat}: {what}", "-", ""
    return any(key.startswith(p) or key == p for p in SAME_WORDS.get(gid, ()))


SAME_WORDS: dict[str, tuple[str, ...]] = {
    "el-grande": ("eg.area.", "eg.ui.castillo", "eg.card.2A"),
    "don-carlo": ("dc.country.", "dc.ui.title", "dc.sheet.bonus"),
    "mafia-legend": ("ml.fam.", "ml.mon.", "ml.pw.", "ml.sheet.jobs", "ml.sheet.sets"),
}
"""Per game: keys (or key prefixes) that are proper names, the same in both languages."""


@pytest.mark.parametrize("gid", _cases("catalogues"))
def test_catalogues_have_both_languages_and_option_words(gid: str) -> None:
    game = GAMES[gid]
    cat = game.catalogue()
    en, de = (dict(cat.get(lang, {})) for lang in ("en", "de"))
    assert sorted(set(en) ^ set(de)) == [], "keys only in one language"
    missing = []
    for o in game.options:
        keys = [f"option.{o.name}", f"option.{o.name}.help", *(f"option.{o.name}.{c}" for c in o.choices)]
        if o.name == "start_seat":
            keys.append("option.start_seat.random")
        missing += [k for k in keys if k not in en]
    assert not missing, f"option words missing: {missing}"
    same = sorted(k for k in en if en[k] == de[k] and not _identical_allowed(gid, k, en[k]))
    assert not same, f"German templates equal to the English ones: {same}"
    raw_names = _option_words(game)
    bad = {k: f"{v!r}: {p}" for k, v in de.items() if k.startswith("option.")
           for p in problems(v, "de", raw_names)}
    bad |= {k: f"{v!r}: {p}" for k, v in en.items() if k.startswith("option.")
            for p in problems(v, "en", raw_names)}
    assert not bad, f"option words that are not words: {bad}"


def test_core_catalogue_is_whole_in_both_languages() -> None:
    en, de = CORE_CATALOGUE["en"], CORE_CATALOGUE["de"]
    assert set(en) == set(de)
    assert all(en[k] != de[k] or _identical_allowed("", k, en[k]) for k in en)
    one, two = (Translator(lang, [], ["Ana", "Ben"]) for lang in ("en", "de"))
    assert one(Message("core.result.winners", seats=(0,))) == "Winner: Ana"
    assert one(Message("core.result.winners", seats=(0, 1))) == "Winners: Ana, Ben"
    assert two(Message("core.result.winners", seats=(0, 1))) == "Gewinner: Ana, Ben"


TAUGHT_GENDERED = {"en": re.compile(r"\b(his|her|hers|him|he|she|himself|herself)\b", re.IGNORECASE),
                   "de": re.compile(r"\b(sein|seine|seinen|seinem|seiner|seines|ihm|ihn)\b", re.IGNORECASE)}
"""A tutorial's texts speak of the other players by name: no "he"/"his"/"her" (German: no "sein-",
"ihm", "ihn"; "ihr-" stays, it is also "their")."""


@pytest.mark.parametrize("gid", _cases("catalogues"))
def test_no_gendered_pronoun_for_players_in_the_catalogue_or_the_tutorial(gid: str) -> None:
    """Every template of the game's catalogue (log lines never rendered in a random game too) and
    every text of its tutorial, as written and as rendered with the tutorial's names."""
    game, tut = GAMES[gid], TUTORIALS[gid]
    bad: list[str] = []
    for lang in LANGUAGES:
        for key, template in game.catalogue()[lang].items():
            m = GENDERED[lang].search(template)
            if m:
                bad.append(f"{lang} {key}: {m.group(0)!r} in {template!r}")
        for key, template in tut.catalogue[lang].items():
            m = TAUGHT_GENDERED[lang].search(template)
            if m:
                bad.append(f"{lang} {key}: {m.group(0)!r} in {template!r}")
        tr = Translator(lang, [game.catalogue(), tut.catalogue], tut.names)
        for msg in tut.messages():
            text = tr(msg)
            m = TAUGHT_GENDERED[lang].search(text)
            if m:
                bad.append(f"{lang} {msg.id}: {m.group(0)!r} in {text!r}")
    assert not bad, "\n".join(bad)
