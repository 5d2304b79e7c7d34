"""El Grande components and tables (§2 of the specification this implementation
follows, rules version 1, summarised in docs/games/el-grande.md).

Facts only; the rules code reads them. Markers follow the spec: (single source), (decision).
An owner of the real box corrects a value here and raises DATA_VERSION.

Every (single source) value can also be overridden per game without editing this file
(``--data NAME=VALUE``; :data:`DATA_SPECS`). The constants below are the defaults; a game plays
with the :class:`Tables` built from them and its overrides (``state.data``), and the rules,
views, words and bots read every overridable value from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final

from tablero.core.errors import DataError
from tablero.core.protocol import DataSpec, DataValue, data_json, data_overrides

RULES_VERSION: Final = "1"
"""Rules version of el-grande.md this package implements."""

DATA_VERSION: Final = "1"
"""Bump when a value below changes (records under another data version are refused)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Region:
    id: str
    name_es: str
    name_en: str
    name_de: str
    values: tuple[int, int, int]
    """Printed points for 1st / 2nd / 3rd place (§2.2, single source)."""

    @property
    def cls(self) -> int:
        """The printed first value: selects regions for cards 3A–3C (§9.3)."""
        return self.values[0]


REGIONS: Final[tuple[Region, ...]] = (
    Region(id="aragon", name_es="Aragón", name_en="Aragon", name_de="Aragon", values=(5, 4, 1)),
    Region(id="castilla_la_nueva", name_es="Castilla la Nueva", name_en="New Castile",
           name_de="Neukastilien", values=(7, 4, 2)),
    Region(id="castilla_la_vieja", name_es="Castilla la Vieja", name_en="Old Castile",
           name_de="Altkastilien", values=(6, 4, 2)),
    Region(id="cataluna", name_es="Cataluña", name_en="Catalonia", name_de="Katalonien",
           values=(4, 2, 1)),
    Region(id="galicia", name_es="Galicia", name_en="Galicia", name_de="Galicien", values=(4, 2, 0)),
    Region(id="granada", name_es="Granada", name_en="Granada", name_de="Granada", values=(6, 3, 1)),
    Region(id="pais_vasco", name_es="País Vasco", name_en="Basque Country", name_de="Baskenland",
           values=(5, 3, 1)),
    Region(id="sevilla", name_es="Sevilla", name_en="Seville", name_de="Sevilla", values=(4, 3, 1)),
    Region(id="valencia", name_es="Valencia", name_en="Valencia", name_de="Valencia", values=(5, 3, 2)),
)
"""The 9 regions in the order of §2.2 (also the order in which several areas are scored)."""

NUM_REGIONS: Final = len(REGIONS)
CASTILLO: Final = NUM_REGIONS
"""Area index of the Castillo (not a region): areas are 0–8 regions, 9 the Castillo."""
NUM_AREAS: Final = NUM_REGIONS + 1
CASTILLO_VALUES: Final = (5, 3, 1)
AREA_IDS: Final = (*(r.id for r in REGIONS), "castillo")
AREA_INDEX: Final = {a: i for i, a in enumerate(AREA_IDS)}

BORDERS: Final = (
    ("aragon", "castilla_la_nueva"), ("aragon", "castilla_la_vieja"), ("aragon", "cataluna"),
    ("aragon", "pais_vasco"), ("aragon", "valencia"), ("castilla_la_nueva", "castilla_la_vieja"),
    ("castilla_la_nueva", "granada"), ("castilla_la_nueva", "sevilla"),
    ("castilla_la_nueva", "valencia"), ("castilla_la_vieja", "galicia"),
    ("castilla_la_vieja", "pais_vasco"), ("cataluna", "valencia"), ("galicia", "pais_vasco"),
    ("granada", "sevilla"), ("granada", "valencia"),
)
"""The 15 borders (§2.3, single source for six of them)."""


SINGLE_SOURCE_BORDERS: Final = (
    ("aragon", "cataluna"), ("aragon", "pais_vasco"), ("aragon", "valencia"), ("cataluna", "valencia"),
    ("granada", "sevilla"), ("granada", "valencia"),
)
"""The six borders of §2.3 that rest on one source only (each may be overridden as absent)."""


def _neighbours(borders: tuple[tuple[str, str], ...] = BORDERS) -> tuple[tuple[int, ...], ...]:
    out: list[set[int]] = [set() for _ in REGIONS]
    for a, b in borders:
        i, j = AREA_INDEX[a], AREA_INDEX[b]
        out[i].add(j)
        out[j].add(i)
    return tuple(tuple(sorted(s)) for s in out)


NEIGHBOURS: Final = _neighbours()
"""Per region index: the indices of its neighbours, ascending."""

POWER_VALUES: Final = tuple(range(1, 14))
POWER_CABALLEROS: Final = (0, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0)
"""Indexed by power-card value 1–13: caballeros taken into the court (§2.4, single source)."""

CABALLEROS: Final = 30
"""Caballeros in play per colour (the 31st marks the score)."""
START_HOME: Final = 2
START_COURT: Final = 7
START_PROVINCE: Final = CABALLEROS - START_HOME - START_COURT

ROUNDS: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9)
SHORT_ROUNDS: Final = (2, 3, 5, 6, 8, 9)
"""The official short game skips rounds 1, 4 and 7 (§12)."""
SCORING_ROUNDS: Final = frozenset({3, 6, 9})

TILES: Final = ((8, 4, 0), (4, 0, 0))
"""The two mobile scoreboards (§2.1): tile 0 is 8/4/0, tile 1 is 4/0/0."""

KING_BONUS: Final = 2
GRANDE_BONUS: Final = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class CardType:
    """One action-card type: id, stack, copies, and our own short name."""

    id: str
    stack: int
    count: int
    name_en: str
    name_de: str


CARD_TYPES: Final[tuple[CardType, ...]] = (
    CardType(id="1A", stack=1, count=2, name_en="Intrigue: one region, up to 5",
             name_de="Intrige: eine Region, bis zu 5"),
    CardType(id="1B", stack=1, count=1, name_en="Intrigue: up to 4, any colours",
             name_de="Intrige: bis zu 4, beliebige Farben"),
    CardType(id="1C", stack=1, count=1, name_en="Intrigue: up to 4 own", name_de="Intrige: bis zu 4 eigene"),
    CardType(id="1D", stack=1, count=2, name_en="Intrigue: up to 2 own and 2 opponents'",
             name_de="Intrige: bis zu 2 eigene und 2 fremde"),
    CardType(id="1E", stack=1, count=1, name_en="Intrigue: up to 3 opponents'",
             name_de="Intrige: bis zu 3 fremde"),
    CardType(id="1F", stack=1, count=1, name_en="Intrigue: up to 3, any colours",
             name_de="Intrige: bis zu 3, beliebige Farben"),
    CardType(id="1G", stack=1, count=1, name_en="Extra placement: up to 2 anywhere",
             name_de="Zusätzlich bis zu 2 beliebig einsetzen"),
    CardType(id="1H", stack=1, count=1, name_en="All own out of one region, or extra placement",
             name_de="Alle eigenen aus einer Region oder zusätzlich einsetzen"),
    CardType(id="1I", stack=1, count=1, name_en="Intrigue: all own out of one region",
             name_de="Intrige: alle eigenen aus einer Region"),
    CardType(id="2A", stack=2, count=2, name_en="Veto!", name_de="Veto!"),
    CardType(id="2B", stack=2, count=1, name_en="Decay of Authority (all)", name_de="Machtverfall (alle)"),
    CardType(id="2C", stack=2, count=1, name_en="Decay of Authority (3)", name_de="Machtverfall (3)"),
    CardType(id="2D", stack=2, count=1, name_en="The King returns!", name_de="Der König kehrt zurück!"),
    CardType(id="2E", stack=2, count=3, name_en="Special scoring: region of choice",
             name_de="Sonderwertung: Region nach Wahl"),
    CardType(id="2F", stack=2, count=1, name_en="Secret pick: return 2", name_de="Geheim: 2 zurück"),
    CardType(id="2G", stack=2, count=1, name_en="Secret pick: return all", name_de="Geheim: alle zurück"),
    CardType(id="2H", stack=2, count=1, name_en="One of each opponent back",
             name_de="Von jedem Gegner einen zurück"),
    CardType(id="3A", stack=3, count=2, name_en="Special scoring: all 5-regions",
             name_de="Sonderwertung: alle 5er-Regionen"),
    CardType(id="3B", stack=3, count=2, name_en="Special scoring: all 4-regions",
             name_de="Sonderwertung: alle 4er-Regionen"),
    CardType(id="3C", stack=3, count=1, name_en="Special scoring: all 6- and 7-regions",
             name_de="Sonderwertung: alle 6er- und 7er-Regionen"),
    CardType(id="3D", stack=3, count=2, name_en="Special scoring: the Castillo",
             name_de="Sonderwertung: das Castillo"),
    CardType(id="3E", stack=3, count=1, name_en="Special scoring: first place only",
             name_de="Sonderwertung: nur erste Plätze"),
    CardType(id="3F", stack=3, count=1, name_en="Special scoring: most caballeros",
             name_de="Sonderwertung: meiste Caballeros"),
    CardType(id="3G", stack=3, count=1, name_en="Special scoring: fewest caballeros",
             name_de="Sonderwertung: wenigste Caballeros"),
    CardType(id="3H", stack=3, count=1, name_en="Special scoring: region or Castillo of choice",
             name_de="Sonderwertung: Region oder Castillo nach Wahl"),
    CardType(id="4A", stack=4, count=3, name_en="Mobile scoreboard", name_de="Wertungstafel"),
    CardType(id="4B", stack=4, count=1, name_en="Royal Adviser: King to a neighbour",
             name_de="Königlicher Berater: König ins Nachbarland"),
    CardType(id="4C", stack=4, count=1, name_en="Eviction", name_de="Vertreibung"),
    CardType(id="4D", stack=4, count=2, name_en="Grande: move own Grande", name_de="Grande versetzen"),
    CardType(id="4E", stack=4, count=2, name_en="Power cards: take one back",
             name_de="Machtkarten: eine zurücknehmen"),
    CardType(id="4F", stack=4, count=1, name_en="The Court: 2 into the court",
             name_de="Der Hof: 2 an den Hof"),
    CardType(id="4G", stack=4, count=1, name_en="Secret special scoring",
             name_de="Geheime Sonderwertung"),
    CardType(id="5A", stack=5, count=1, name_en="The King's card: King to any region",
             name_de="Königskarte: König in beliebige Region"),
)
"""The 33 card types, 45 cards (§2.5; counts partly single source)."""

CARD_INDEX: Final = {c.id: i for i, c in enumerate(CARD_TYPES)}
KING_CARD: Final = CARD_INDEX["5A"]
VETO_CARD: Final = CARD_INDEX["2A"]

MOVE_BUDGETS: Final[dict[str, tuple[str, int]]] = {
    "1B": ("any", 4), "1C": ("own", 4), "1E": ("opp", 3), "1F": ("any", 3),
}
"""Move cards with one budget: which colours may move, and how many moves (§9.1)."""
REGION_MOVES: Final = 5
"""1A: up to 5 caballeros out of one region."""
MIXED_BUDGET: Final = (2, 2)
"""1D: up to 2 own and up to 2 opponents' caballeros."""
EXTRA_PLACEMENT: Final = 2
"""1G: up to 2 extra caballeros anywhere."""
DECAY_RETURN: Final = 3
"""2C: each opponent returns 3 court caballeros."""
KING_RETURNS: Final = 3
"""2D: each opponent returns 3 caballeros."""
SECRET_RETURN: Final = 2
"""2F: each player returns 2 from his pick."""
COURT_INTAKE: Final = 2
"""4F: 2 caballeros from province to court."""
CLASS_SCORINGS: Final[dict[str, frozenset[int]]] = {
    "3A": frozenset({5}), "3B": frozenset({4}), "3C": frozenset({6, 7}),
}
"""3A–3C: regions selected by their printed first value."""

COLOURS: Final = ("yellow", "red", "blue", "green", "magenta")
LETTERS: Final = ("Y", "R", "B", "G", "M")


# ---------------------------------------------------------------------------- data overrides
GAME_ID: Final = "el-grande"


def _descending(value: DataValue) -> None:
    assert isinstance(value, tuple)
    if list(value) != sorted(value, reverse=True):
        raise ValueError("1st place pays at least as much as 2nd, and 2nd at least as much as 3rd")


def _not_empty(value: DataValue) -> None:
    if not value:
        raise ValueError("name at least one region class")


def border_name(a: str, b: str) -> str:
    """The data spec name of the border between regions ``a`` and ``b`` (§2.3)."""
    return f"BORDERS.{a}-{b}.present"


_MOVE_CARDS: Final = {"1B": "1B: moves of caballeros of any colours", "1C": "1C: moves of own caballeros",
                      "1E": "1E: moves of opponents' caballeros", "1F": "1F: moves of caballeros of any colours"}
_SINGLE_SOURCE_COUNTS: Final = (
    "1A", "1B", "1C", "1D", "1E", "1F", "1G", "1H", "1I", "2E", "2F", "2G", "2H", "3A", "3B", "3C", "3D",
    "4A", "4B", "4C",
)
"""The card types whose number of copies rests on one source (§2.5, §16)."""

DATA_SPECS: Final[tuple[DataSpec, ...]] = (
    *(DataSpec(name=f"REGIONS.{r.id}.values", default=r.values, length=3, low=0, high=20, check=_descending,
               source="single source",
               help=f"points for 1st, 2nd and 3rd place in {r.name_es}, descending; the first is its class "
                    "for 3A-3C (§2.2)")
      for r in REGIONS),
    *(DataSpec(name=border_name(a, b), default=1, low=0, high=1, source="single source",
               help=f"1 if {a} and {b} are neighbours, 0 if not (§2.3)")
      for a, b in SINGLE_SOURCE_BORDERS),
    DataSpec(name="POWER_CABALLEROS", default=POWER_CABALLEROS[1:], length=13, low=0, high=10,
             source="single source",
             help="caballeros each power card 1-13 takes from the province into the court (§2.4)"),
    *(DataSpec(name=f"CARD_TYPES.{c}.count", default=CARD_TYPES[CARD_INDEX[c]].count, low=1, high=6,
               source="single source",
               help=f"copies of action card {c} in stack {CARD_TYPES[CARD_INDEX[c]].stack} (§2.5); "
                    "each of stacks 1-4 keeps at least 9 cards")
      for c in _SINGLE_SOURCE_COUNTS),
    DataSpec(name="REGION_MOVES", default=REGION_MOVES, low=1, high=10, source="single source",
             help="1A: caballeros moved out of one region at most (§9.1)"),
    *(DataSpec(name=f"MOVE_BUDGETS.{c}.moves", default=MOVE_BUDGETS[c][1], low=1, high=8, source="single source",
               help=f"{text} at most (§9.1)")
      for c, text in _MOVE_CARDS.items()),
    DataSpec(name="EXTRA_PLACEMENT", default=EXTRA_PLACEMENT, low=1, high=6, source="single source",
             help="1G (and 1H's extra placement): extra caballeros placed anywhere at most (§9.1)"),
    DataSpec(name="SECRET_RETURN", default=SECRET_RETURN, low=1, high=6, source="single source",
             help="2F: caballeros each player returns from the region picked in secret (§9.2)"),
    DataSpec(name="CLASS_SCORINGS.3C.classes", default=CLASS_SCORINGS["3C"], low=1, high=20, check=_not_empty,
             source="single source",
             help="3C: the region classes (printed first values) it scores, e.g. 6,7 (§9.3)"),
)
"""The values a run may override by name (``--data NAME=VALUE``): every (single source) value
of §2.2-2.5 and §9 that is a number. The defaults are the constants above."""

_SPEC_NAMES: Final = frozenset(d.name for d in DATA_SPECS)


@dataclass(frozen=True, slots=True, eq=False)
class Tables:
    """The data one game plays with: the defaults above with the game's overrides applied.

    Built once per set of overrides (:func:`tables`, cached), shared by every state of the game
    (``state.data``; a clone shares the reference) and its views (``view.public.data``). Field
    names are the module constants' names; ``NEIGHBOURS`` and ``CLASS_REGIONS`` are derived.
    Two tables are equal when their overrides are.
    """

    REGIONS: tuple[Region, ...]
    BORDERS: tuple[tuple[str, str], ...]
    NEIGHBOURS: tuple[tuple[int, ...], ...]
    """Per region index: the indices of its neighbours, ascending (from ``BORDERS``)."""
    POWER_CABALLEROS: tuple[int, ...]
    """Indexed by power-card value 1-13 (index 0 unused, 0)."""
    CARD_TYPES: tuple[CardType, ...]
    MOVE_BUDGETS: Mapping[str, tuple[str, int]]
    REGION_MOVES: int
    EXTRA_PLACEMENT: int
    SECRET_RETURN: int
    CLASS_SCORINGS: Mapping[str, frozenset[int]]
    CLASS_REGIONS: Mapping[str, tuple[int, ...]]
    """3A-3C: the region indices each scores (selected by the regions' classes)."""
    overrides: tuple[tuple[str, DataValue], ...]
    """The overrides these tables were built with, in the order of ``DATA_SPECS``."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tables):
            return NotImplemented
        return self.overrides == other.overrides

    def __hash__(self) -> int:
        return hash(self.overrides)

    def to_json(self) -> dict[str, int | list[int]]:
        """The overrides as JSON (``{}`` for the defaults): what a state or a view stores."""
        return {name: data_json(value) for name, value in self.overrides}


def _int(o: Mapping[str, DataValue], name: str, default: int) -> int:
    v = o.get(name, default)
    assert isinstance(v, int)
    return v


def _ints(o: Mapping[str, DataValue], name: str, default: tuple[int, ...]) -> tuple[int, ...]:
    v = o.get(name, default)
    assert isinstance(v, tuple)
    return v


def _values(o: Mapping[str, DataValue], r: Region) -> tuple[int, int, int]:
    a, b, c = _ints(o, f"REGIONS.{r.id}.values", r.values)
    return a, b, c


@lru_cache(maxsize=256)
def _build(key: tuple[tuple[str, DataValue], ...]) -> Tables:
    o = dict(key)
    regions = tuple(replace(r, values=_values(o, r)) for r in REGIONS)
    borders = tuple(b for b in BORDERS if _int(o, border_name(*b), 1))
    neighbours = _neighbours(borders)
    lonely = [REGIONS[i].id for i, near in enumerate(neighbours) if not near]
    if lonely:
        names = ", ".join(border_name(*b) for b in SINGLE_SOURCE_BORDERS if lonely[0] in b)
        raise DataError(f"data {names}: {lonely[0]} would have no neighbour left (the King could not move on with 4B)")
    cards = tuple(replace(c, count=_int(o, f"CARD_TYPES.{c.id}.count", c.count)) for c in CARD_TYPES)
    for stack in (1, 2, 3, 4):
        size = sum(c.count for c in cards if c.stack == stack)
        if size < len(ROUNDS):
            names = ", ".join(f"CARD_TYPES.{c.id}.count" for c in cards if c.stack == stack
                              and f"CARD_TYPES.{c.id}.count" in o)
            raise DataError(f"data {names}: stack {stack} would hold {size} cards; each of stacks 1-4 needs at "
                            f"least {len(ROUNDS)}, one per round")
    classes: dict[str, frozenset[int]] = {}
    for cid, default in CLASS_SCORINGS.items():
        v = o.get(f"CLASS_SCORINGS.{cid}.classes", default)
        assert isinstance(v, frozenset)
        classes[cid] = v
    return Tables(
        REGIONS=regions,
        BORDERS=borders,
        NEIGHBOURS=neighbours,
        POWER_CABALLEROS=(0, *_ints(o, "POWER_CABALLEROS", POWER_CABALLEROS[1:])),
        CARD_TYPES=cards,
        MOVE_BUDGETS={c: (mode, _int(o, f"MOVE_BUDGETS.{c}.moves", k)) for c, (mode, k) in MOVE_BUDGETS.items()},
        REGION_MOVES=_int(o, "REGION_MOVES", REGION_MOVES),
        EXTRA_PLACEMENT=_int(o, "EXTRA_PLACEMENT", EXTRA_PLACEMENT),
        SECRET_RETURN=_int(o, "SECRET_RETURN", SECRET_RETURN),
        CLASS_SCORINGS=classes,
        CLASS_REGIONS={c: tuple(i for i, r in enumerate(regions) if r.cls in v) for c, v in classes.items()},
        overrides=key,
    )


def tables(overrides: Mapping[str, DataValue] | None = None) -> Tables:
    """The tables of a game with these checked overrides (``Game.data_overrides``), cached.

    Raises :class:`DataError` for a name that is no spec and for overrides that do not fit
    together (a region left without neighbours, a stack of fewer than 9 cards).
    """
    if not overrides:
        return DEFAULT_TABLES
    unknown = sorted(set(overrides) - _SPEC_NAMES)
    if unknown:
        raise DataError(f"{GAME_ID} has no overridable data value {unknown[0]!r}")
    return _build(tuple((d.name, overrides[d.name]) for d in DATA_SPECS if d.name in overrides))


def tables_of(options: Mapping[str, object] | None) -> Tables:
    """The tables of a game's options (resolved or not: the overrides under ``"data"`` are
    parsed and checked here; raises :class:`DataError`)."""
    return tables(data_overrides(GAME_ID, DATA_SPECS, options))


DEFAULT_TABLES: Final = _build(())
"""The tables without overrides: exactly the constants of this module."""


@lru_cache(maxsize=256)
def card_amounts(t: Tables) -> dict[str, int | str]:
    """The numbers in the card names (1A "up to 5", 2F "return 2", 3C "6- and 7-regions") that
    the table ``t`` changes, by card id: the cards whose names then show the table's number
    (``eg.card_n.<id>``). Empty for the defaults."""
    d = DEFAULT_TABLES
    out: dict[str, int | str] = {}
    if t.REGION_MOVES != d.REGION_MOVES:
        out["1A"] = t.REGION_MOVES
    for c, (_, k) in t.MOVE_BUDGETS.items():
        if k != d.MOVE_BUDGETS[c][1]:
            out[c] = k
    if t.EXTRA_PLACEMENT != d.EXTRA_PLACEMENT:
        out["1G"] = t.EXTRA_PLACEMENT
    if t.SECRET_RETURN != d.SECRET_RETURN:
        out["2F"] = t.SECRET_RETURN
    for c, v in t.CLASS_SCORINGS.items():
        if v != d.CLASS_SCORINGS[c]:
            out[c] = ", ".join(str(x) for x in sorted(v))
    return out


def table_data(t: Tables = DEFAULT_TABLES) -> dict[str, object]:
    """Map and card facts for the board drawing in the browser (``Game.table_data``), as the
    table ``t`` plays them (its overrides are listed under ``overrides``)."""
    return {
        "regions": [r.id for r in t.REGIONS],
        "values": [list(r.values) for r in t.REGIONS],
        "castillo_values": list(CASTILLO_VALUES),
        "tiles": [list(x) for x in TILES],
        "borders": [list(b) for b in t.BORDERS],
        "card_ids": [c.id for c in t.CARD_TYPES],
        "card_counts": [c.count for c in t.CARD_TYPES],
        "card_amounts": card_amounts(t),
        "king_card": KING_CARD,
        "power_caballeros": list(t.POWER_CABALLEROS),
        "scoring_rounds": sorted(SCORING_ROUNDS),
        "overrides": t.to_json(),
    }
