"""El Grande components and tables (§2 of the specification this implementation
follows, rules version 1, summarised in docs/games/el-grande.md).

Facts only; the rules code reads them. Markers follow the spec: (single source), (decision).
An owner of the real box corrects a value here and raises DATA_VERSION.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

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


def _neighbours() -> tuple[tuple[int, ...], ...]:
    out: list[set[int]] = [set() for _ in REGIONS]
    for a, b in BORDERS:
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


def table_data() -> dict[str, object]:
    """Map and card facts for the board drawing in the browser (``Game.table_data``)."""
    return {
        "regions": [r.id for r in REGIONS],
        "values": [list(r.values) for r in REGIONS],
        "castillo_values": list(CASTILLO_VALUES),
        "tiles": [list(t) for t in TILES],
        "card_ids": [c.id for c in CARD_TYPES],
        "king_card": KING_CARD,
        "power_caballeros": list(POWER_CABALLEROS),
        "scoring_rounds": sorted(SCORING_ROUNDS),
    }
