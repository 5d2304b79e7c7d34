"""Don Carlo components and tables (§2, §3 of the specification this implementation
follows, rules version 1, summarised in docs/games/don-carlo.md).

Everything an owner of the real box might correct lives here, apart from the rules code:
the card counts, the countries with their sums, player counts and reconstructed majority
points, and the bonus values. Markers follow the spec: (single source), (decision), (R).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations_with_replacement, pairwise
from typing import Final

from tablero.core.protocol import DataSpec, DataValue, data_json

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


def _all_codes(counts: tuple[int, ...] = FAMILY_COUNTS) -> tuple[tuple[int, ...], ...]:
    """Every multiset of 1–4 values a family deck of ``counts`` allows (§3.4): by length, then lexically."""
    out = []
    for length in range(1, MAX_CODE_CARDS + 1):
        for combo in combinations_with_replacement(VALUES, length):
            if all(combo.count(v) <= counts[v] for v in set(combo)):
                out.append(combo)
    return tuple(out)


CODES: Final[tuple[tuple[int, ...], ...]] = _all_codes()
"""The code universe of the usual family deck: 320 codes, each a sorted tuple of values (§3.4)."""

ALL_CODES: Final[tuple[tuple[int, ...], ...]] = CODES + tuple(
    c for c in _all_codes((MAX_CODE_CARDS,) * len(VALUES)) if c not in set(CODES))
"""Every code any family deck could form (1–4 values 0–6, 329 codes): the 320 of :data:`CODES` in
their order, then the 9 the usual deck cannot form (``6/6/6``, ``5/5/5/5``, …), which a table with
other ``FAMILY_COUNTS`` may. A code's index here is its ``Play.code`` at every table."""


def code_text(code: tuple[int, ...]) -> str:
    """Wire form of a code: ascending values joined by '/' (``1/1/4``)."""
    return "/".join(str(v) for v in code)


def code_kind(code: tuple[int, ...]) -> str | None:
    """``run`` for a 3-card run a/a+1/a+2, ``triple`` for a/a/a, else None (§3.3: only 3-card codes)."""
    if len(code) != 3:
        return None
    a, b, c = code
    if a == b == c:
        return "triple"
    if b == a + 1 and c == b + 1:
        return "run"
    return None


def code_bonus(code: tuple[int, ...], run: int = RUN_BONUS, triple: int = TRIPLE_BONUS) -> int:
    """Bonus of a code (§3.3): only 3-card runs (``run``, +1) and triples (``triple``, +2)."""
    kind = code_kind(code)
    return triple if kind == "triple" else run if kind == "run" else 0


# ---------------------------------------------------------------------------- data overrides
SUM_BOUNDS: Final[tuple[int, ...]] = (1, 4, 5, 6, 7, 8, 9, 12)
"""The countries' digit sums (§2.2) as one row: the lowest sum each country accepts, in the order
of :data:`COUNTRIES`, then the highest sum of the last (Schwadronien). A country accepts its lowest
sum up to the next country's lowest minus one: 1–3, 4, 5, 6, 7, 8, 9–12. The sums of Abstrusien,
Abrakadabria, Land 8 and Schwadronien are single source. Written this way, no two countries can
share a sum whatever a table overrides (the code's sum names its country)."""

FAMILY_COUNT_HIGH: Final = 8
"""The most cards of one value a family may hold with ``--data FAMILY_COUNTS``."""

CODE_SUM_HIGH: Final = MAX_CODE_CARDS * VALUES[-1]
"""The highest digit sum a code can have (four 6s)."""


def _check_family(value: DataValue) -> None:
    assert isinstance(value, tuple)
    if sum(value) < 1:
        raise ValueError("a family needs at least one card")


def _check_bounds(value: DataValue) -> None:
    assert isinstance(value, tuple)
    lows, top = value[:-1], value[-1]
    if any(b <= a for a, b in pairwise(lows)):
        raise ValueError("the lowest sums must rise from country to country (each country accepts at least one sum)")
    if top < lows[-1]:
        raise ValueError(f"the highest sum of {COUNTRIES[-1].name} is below its lowest ({lows[-1]})")


def _check_players(value: DataValue) -> None:
    if not value:
        raise ValueError("name at least one player count (2, 3 or 4)")


def _country_sums(bounds: tuple[int, ...]) -> tuple[frozenset[int], ...]:
    """Each country's accepted sums from :data:`SUM_BOUNDS`-style bounds."""
    ends = (*(b - 1 for b in bounds[1:-1]), bounds[-1])
    return tuple(frozenset(range(lo, hi + 1)) for lo, hi in zip(bounds[:-1], ends, strict=True))


DATA_SPECS: Final[tuple[DataSpec, ...]] = (
    DataSpec(name="FAMILY_COUNTS", default=FAMILY_COUNTS, length=len(VALUES), low=0, high=FAMILY_COUNT_HIGH,
             source="single source", check=_check_family,
             help="cards of each value 0-6 in one family deck (§2.1); the codes a family can form follow"),
    DataSpec(name="HAND_SIZE", default=HAND_SIZE, low=1, high=10, source="single source",
             help="cards a hand is dealt and refilled to (§4, §5.1 step 4)"),
    DataSpec(name="RUN_BONUS", default=RUN_BONUS, low=0, high=10, source="single source",
             help="bonus points for a 3-card run such as 1/2/3 (§3.3)"),
    DataSpec(name="TRIPLE_BONUS", default=TRIPLE_BONUS, low=0, high=10, source="single source",
             help="bonus points for a 3-card triple such as 2/2/2 (§3.3)"),
    DataSpec(name="SUM_BOUNDS", default=SUM_BOUNDS, length=len(SUM_BOUNDS), low=0, high=CODE_SUM_HIGH,
             source="single source", check=_check_bounds,
             help="the countries' digit sums: each country's lowest sum in order, then Schwadronien's highest (§2.2)"),
    *(DataSpec(name=f"COUNTRIES.{c.id}.players", default=c.players, low=2, high=4, source="single source",
               check=_check_players, help=f"player counts with {c.name} in play (§2.2)")
      for c in COUNTRIES),
)
"""The values of this module a run may override (``--data NAME=VALUE``, ``Game.data_specs``).

Left out: the card values 0–6 and ``MAX_CODE_CARDS`` (a decision of the spec, not a single-source
fact; both fix the universe of codes every table's action space is cut from), the country ids and
names, the colours. The majority points and the tie rule are already the options ``country_points``
and ``majority_tie``."""

_DEFAULTS: Final[dict[str, DataValue]] = {d.name: d.default for d in DATA_SPECS}


@dataclass(frozen=True, slots=True, eq=False)
class Tables:
    """The data one table plays with: the defaults above with its overrides, and what follows from them.

    Built once per set of overrides (:func:`tables`); every state of the game holds the same object
    (``state.data``). The fields in capitals carry this module's names; the rest is derived for the
    rules' hot paths. Two tables are equal when their overrides are.
    """

    overrides: Mapping[str, DataValue]
    """The values that differ from the defaults, by spec name (empty: the usual game)."""
    FAMILY_COUNTS: tuple[int, ...]
    HAND_SIZE: int
    RUN_BONUS: int
    TRIPLE_BONUS: int
    SUM_BOUNDS: tuple[int, ...]
    COUNTRIES: tuple[Country, ...]
    """The country cards with this table's sums and player counts (ids, names, order as usual)."""
    family_size: int
    in_play: tuple[tuple[int, ...], ...]
    """Per player count (index 0–4): indices into COUNTRIES of the countries in play."""
    codes: tuple[int, ...]
    """The table's code universe (§3.4): indices into :data:`ALL_CODES` of every code a family deck
    can form, ascending. The seats' action space lists these codes in this order."""
    used_size: int
    """Length of a state's ``used`` array (the highest code index of the universe + 1)."""
    code_country: tuple[tuple[int, ...], ...]
    """Per player count (index 0–4), per index of ALL_CODES: the country index the code goes to, or -1."""
    code_bonus: tuple[int, ...]
    """Per index of ALL_CODES: the code's bonus points."""
    pow: tuple[int, ...]
    """Weights of a hand's key, ``sum(count[v] * pow[v])``: base 5, more if a family has more than
    four cards of a value."""
    code_key: tuple[int, ...]
    """Per index of ALL_CODES: the code's weight in a hand key."""
    candidates: tuple[dict[int, tuple[int, ...]], ...] = field(repr=False)
    """Per player count: hand key -> codes formable from that hand with an accepted sum (a cache
    the engine fills)."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tables):
            return NotImplemented
        return self is other or self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def key(self) -> tuple[tuple[str, DataValue], ...]:
        return tuple(sorted(self.overrides.items()))

    def overrides_json(self) -> dict[str, int | list[int]]:
        """The overrides as JSON (for a state's JSON, the views)."""
        return {k: data_json(v) for k, v in self.overrides.items()}


def tables(overrides: Mapping[str, DataValue] | None = None) -> Tables:
    """The tables of a game with these (checked) overrides; one object per set of overrides.

    Values equal to their default are dropped, so they give the usual game's object.
    """
    if not overrides:
        return DEFAULT_TABLES
    unknown = sorted(k for k in overrides if k not in _DEFAULTS)
    if unknown:
        raise KeyError(f"no overridable data value {unknown[0]!r}")
    changed = tuple(sorted((k, v) for k, v in overrides.items() if _DEFAULTS[k] != v))
    # the usual game's object itself (an LRU cache could have let it go after 64 other tables)
    return _tables(changed) if changed else DEFAULT_TABLES


@lru_cache(maxsize=64)
def _tables(changed: tuple[tuple[str, DataValue], ...]) -> Tables:
    over = dict(changed)
    counts = tuple(over.get("FAMILY_COUNTS", FAMILY_COUNTS))  # type: ignore[arg-type]
    bounds = tuple(over.get("SUM_BOUNDS", SUM_BOUNDS))  # type: ignore[arg-type]
    run, triple = int(over.get("RUN_BONUS", RUN_BONUS)), int(over.get("TRIPLE_BONUS", TRIPLE_BONUS))  # type: ignore[arg-type]
    sums = _country_sums(bounds)
    countries = tuple(
        replace(c, sums=sums[i], players=frozenset(over.get(f"COUNTRIES.{c.id}.players", c.players)))  # type: ignore[arg-type]
        for i, c in enumerate(COUNTRIES)
    )
    in_play = tuple(tuple(i for i, c in enumerate(countries) if n in c.players) for n in range(5))
    codes = tuple(i for i, c in enumerate(ALL_CODES) if all(c.count(v) <= counts[v] for v in set(c)))
    code_country = []
    for n in range(5):
        by_sum = {x: i for i in in_play[n] for x in countries[i].sums}
        code_country.append(tuple(by_sum.get(sum(c), -1) for c in ALL_CODES))
    base = max(5, max(counts) + 1)
    pow_ = tuple(base**v for v in VALUES)
    return Tables(
        overrides=over,
        FAMILY_COUNTS=counts,
        HAND_SIZE=int(over.get("HAND_SIZE", HAND_SIZE)),  # type: ignore[arg-type]
        RUN_BONUS=run,
        TRIPLE_BONUS=triple,
        SUM_BOUNDS=bounds,
        COUNTRIES=countries,
        family_size=sum(counts),
        in_play=in_play,
        codes=codes,
        used_size=max(codes) + 1,
        code_country=tuple(code_country),
        code_bonus=tuple(code_bonus(c, run, triple) for c in ALL_CODES),
        pow=pow_,
        code_key=tuple(sum(pow_[v] for v in c) for c in ALL_CODES),
        candidates=tuple({} for _ in range(5)),
    )


DEFAULT_TABLES: Final = _tables(())
"""The usual game's tables (no overrides)."""


def table_data(t: Tables = DEFAULT_TABLES) -> dict[str, object]:
    """Country facts and card tables for the board drawing in the browser (``Game.table_data``): the
    countries whose usual majority points are reconstructed, and those usual points (a table that
    chose other points shows no reconstruction mark); the table's card counts, hand size, bonuses and
    each country's sums and player counts; the data values it overrides."""
    return {"reconstructed": [c.id for c in COUNTRIES if c.reconstructed],
            "default_points": {c.id: c.default_points for c in COUNTRIES},
            "family_counts": list(t.FAMILY_COUNTS), "hand_size": t.HAND_SIZE,
            "run_bonus": t.RUN_BONUS, "triple_bonus": t.TRIPLE_BONUS,
            "sums": {c.id: sorted(c.sums) for c in t.COUNTRIES},
            "players": {c.id: sorted(c.players) for c in t.COUNTRIES},
            "overrides": t.overrides_json()}
