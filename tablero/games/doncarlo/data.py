"""Don Carlo components and tables (§2, §3 of the specification this implementation
follows, rules version 1, summarised in docs/games/don-carlo.md).

Everything an owner of the real box might correct lives here, apart from the rules code:
the card counts, the countries with their sums, player counts and reconstructed majority
points, and the bonus values. Markers follow the spec: (single source), (decision), (R).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Final

RULES_VERSION: Final = "1"
"""Rules version of don-carlo.md this module implements."""

DATA_VERSION: Final = "1"
"""Bump when a value below changes (records under another data version are refused)."""

VALUES: Final = tuple(range(7))
"""Card values 0–6 (§2.1)."""

FAMILY_COUNTS: Final[tuple[int, ...]] = (4, 4, 4, 4, 4, 3, 2)
"""Cards per value in one family deck (§2.1; counts single source): 25 cards, total 67."""

HAND_SIZE: Final = 4
"""A hand is refilled up to this many cards (§5.1 step 4)."""

MAX_CODE_CARDS: Final = 4
"""A code has 1 to 4 cards (§3.1, decision)."""

RUN_BONUS: Final = 1
"""Bonus for a 3-card run a/a+1/a+2 (§3.3)."""

TRIPLE_BONUS: Final = 2
"""Bonus for a 3-card triple a/a/a (§3.3)."""

FAMILY_COLOURS: Final = ("red", "blue", "yellow", "green")
"""Display colours of the four families (seat order)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Country:
    """One country card: wire id, display name, accepted digit sums, player counts."""

    id: str
    name: str
    sums: frozenset[int]
    default_points: int
    reconstructed: bool
    """True where the majority points are a reconstruction (R), not a printed value."""
    players: frozenset[int]
    """Player counts with this country in play (§2.2, single source)."""


COUNTRIES: Final[tuple[Country, ...]] = (
    Country(id="egoistrien", name="Egoistrien", sums=frozenset({1, 2, 3}), default_points=3,
            reconstructed=True, players=frozenset({2, 3, 4})),
    Country(id="abstrusien", name="Abstrusien", sums=frozenset({4}), default_points=4,
            reconstructed=False, players=frozenset({4})),
    Country(id="abrakadabria", name="Abrakadabria", sums=frozenset({5}), default_points=5,
            reconstructed=True, players=frozenset({2, 3, 4})),
    Country(id="absurdistan", name="Absurdistan", sums=frozenset({6}), default_points=6,
            reconstructed=True, players=frozenset({2, 3, 4})),
    Country(id="protzland", name="Protzland", sums=frozenset({7}), default_points=7,
            reconstructed=True, players=frozenset({2, 3, 4})),
    # The sum-8 card's real name is unknown (decision: no invented official-sounding name).
    Country(id="land_8", name="Land 8", sums=frozenset({8}), default_points=8,
            reconstructed=True, players=frozenset({3, 4})),
    Country(id="schwadronien", name="Schwadronien", sums=frozenset({9, 10, 11, 12}),
            default_points=10, reconstructed=True, players=frozenset({2, 3, 4})),
)
"""The 7 country cards in ascending order of their sums (display order, single source)."""

COUNTRY_IDS: Final = tuple(c.id for c in COUNTRIES)
COUNTRY_INDEX: Final = {c.id: i for i, c in enumerate(COUNTRIES)}

TIE_RULES: Final = ("all_full", "split_floor", "none")
"""Majority tie rules (§7 step 4; decision): default all_full (house rule)."""


def countries_in_play(players: int) -> tuple[int, ...]:
    """Indices into COUNTRIES of the country cards in play for a player count."""
    return tuple(i for i, c in enumerate(COUNTRIES) if players in c.players)


def _all_codes() -> tuple[tuple[int, ...], ...]:
    """Every multiset of 1–4 values a family deck allows (§3.4): by length, then lexically."""
    out = []
    for length in range(1, MAX_CODE_CARDS + 1):
        for combo in combinations_with_replacement(VALUES, length):
            if all(combo.count(v) <= FAMILY_COUNTS[v] for v in set(combo)):
                out.append(combo)
    return tuple(out)


CODES: Final[tuple[tuple[int, ...], ...]] = _all_codes()
"""The code universe: 320 codes, each a sorted tuple of values (§3.4)."""


def code_text(code: tuple[int, ...]) -> str:
    """Wire form of a code: ascending values joined by '/' (``1/1/4``)."""
    return "/".join(str(v) for v in code)


def code_bonus(code: tuple[int, ...]) -> int:
    """Bonus of a code (§3.3): only 3-card runs (+1) and triples (+2)."""
    if len(code) != 3:
        return 0
    a, b, c = code
    if a == b == c:
        return TRIPLE_BONUS
    if b == a + 1 and c == b + 1:
        return RUN_BONUS
    return 0


def table_data() -> dict[str, object]:
    """Country facts for the board drawing in the browser (``Game.table_data``): the countries whose
    usual majority points are reconstructed, and those usual points (a table that chose other points
    shows no reconstruction mark)."""
    return {"reconstructed": [c.id for c in COUNTRIES if c.reconstructed],
            "default_points": {c.id: c.default_points for c in COUNTRIES}}
