"""Mafia Legend components and tables (appendices A–G of the specification this
implementation follows, rules version 1, a reconstruction summarised in docs/games/mafia-legend.md).

Every value here is a reconstruction (R) unless marked (S) (stated by the seed). An owner of
the real box enters the printed values here, raises DATA_VERSION, and touches no rules code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Final

from tablero.core.protocol import DataSpec, DataValue, data_json

RULES_VERSION: Final = "1"
DATA_VERSION: Final = "2"
"""2: BEGINNER_GOAL 40 -> 50 after the balance runs (docs/games/mafia-legend.md, "Balance")."""

# ---------------------------------------------------------------------------- constants (R)
PLAYERS: Final = (3, 4)  # (S)
MONTHS: Final = 12
PHASES: Final = 3  # (S)
DISCS: Final = 6
START_ACTIONS: Final = 6  # (S)
START_MONEY: Final = 4  # (S)
PLAY_LIMIT: Final = 2  # (S)
ORSINI_LIMIT: Final = 4
CURFEW_LIMIT: Final = 1
DRAW_BACK: Final = 2  # (S): draws max(0, 2 - played)
HAND_LIMIT: Final = 10
MAGNIFIER_LIMIT: Final = 6  # (S)
MAGNIFIER_COST: Final = 1  # VP per discarded card
JOB_CAP: Final = 3
CHAR_CAP: Final = 3
MAX_DICE: Final = 6
DIE_SIDES: Final = 8  # W8 (S)
GOAL: Final = 50  # (S)
BEGINNER_GOAL: Final = 50
"""(R) §16 says 40; tuned to 50 (data version 2): with 40 a 3-player beginner game of greedy
bots lasted 7.4 months, below the 8-12 months of §19; with 50 it lasts 8.4 (4 players: 9.5)."""
STAR_LOSS: Final = 2  # per star, target
STAR_GAIN: Final = 1  # per star, attacker
ASHTRAY_MONEY: Final = 1  # (S)
ASHTRAY_ACTIONS: Final = 3  # (S)
GELDWAESCHE: Final = 3
SPITZEL_TAKE: Final = 2
A_DRAW: Final = 2  # (S)
E_DRAW: Final = 2  # (S)
EV08_LIMIT: Final = 6
EV01_BRIBE: Final = 2
EV02_FIST: Final = 2
EV06_DICE: Final = 2
EV10_DEFENCE: Final = 1
EV15_MONEY: Final = 2
PAYDAY_MONTHS: Final = frozenset({3, 6, 9})  # (S)
RESHUFFLE_MONTH: Final = 6  # (S)
CHAR_COLUMNS: Final = 4

FAMILIES: Final = ("moretti", "rinaldi", "orsini", "lombardo", "santori", "barone")
FAMILY_NAMES: Final = {
    "moretti": "Moretti", "rinaldi": "Rinaldi", "orsini": "Orsini",
    "lombardo": "Lombardo", "santori": "Santori", "barone": "Barone",
}
FAMILY_COLOURS: Final = {
    "moretti": "red", "rinaldi": "blue", "orsini": "green",
    "lombardo": "yellow", "santori": "magenta", "barone": "white",
}

# ---------------------------------------------------------------------------- money (App. A)
MONEY: Final[dict[str, int]] = {"G1": 1, "G2": 2, "G3": 3, "G5": 5}
MONEY_COUNTS: Final[dict[str, int]] = {"G1": 14, "G2": 16, "G3": 12, "G5": 6}


# ---------------------------------------------------------------------------- action cards (App. B)
@dataclass(frozen=True, slots=True, kw_only=True)
class ActionCard:
    id: str
    name: str
    kind: str  # "attack", "defence", "tool"
    count: int
    symbol: str = ""  # attack: badge, cross, hand, star
    stars: int = 0
    eye: bool = False
    fist: int = 0
    dollar: int = 0
    dice: int = 0
    tag: str = ""  # tool: Fahrzeug, Waffe, Schnaps, Werkzeug
    covers: frozenset[str] = frozenset()  # defence
    strength: int = 0  # defence; -1 = cancel


def _atk(id: str, name: str, symbol: str, stars: int, eye: bool, fist: int, dollar: int,
         count: int) -> ActionCard:
    return ActionCard(id=id, name=name, kind="attack", count=count, symbol=symbol, stars=stars,
                      eye=eye, fist=fist, dollar=dollar)


def _dfn(id: str, name: str, covers: str, strength: int, count: int) -> ActionCard:
    return ActionCard(id=id, name=name, kind="defence", count=count,
                      covers=frozenset(covers.split(",")), strength=strength)


def _tool(id: str, name: str, tag: str, dice: int, fist: int, dollar: int,
          count: int) -> ActionCard:
    return ActionCard(id=id, name=name, kind="tool", count=count, tag=tag, dice=dice, fist=fist,
                      dollar=dollar)


CANCEL: Final = -1

ACTION_CARDS: Final[tuple[ActionCard, ...]] = (
    _atk("A01", "Razzia", "badge", 0, True, 3, 0, 4),
    _atk("A02", "Großrazzia", "badge", 0, False, 5, 1, 2),
    _atk("A03", "Anonymer Hinweis", "badge", 0, True, 2, 0, 2),
    _atk("A04", "Anschlag", "cross", 0, False, 4, 0, 3),
    _atk("A05", "Überfall aus dem Auto", "cross", 0, True, 3, 0, 2),
    _atk("A06", "Der Profi", "cross", 0, False, 6, 0, 1),
    _atk("A07", "Abwerbung", "hand", 0, False, 3, 1, 3),
    _atk("A08", "Verlockendes Angebot", "hand", 0, True, 4, 0, 2),
    _atk("A09", "Doppelspiel", "hand", 0, False, 5, 0, 1),
    _atk("A10", "Schlagzeile", "star", 1, False, 2, 0, 3),
    _atk("A11", "Skandal", "star", 2, False, 3, 0, 2),
    _atk("A12", "Enthüllung", "star", 3, False, 4, 0, 1),
    _dfn("D01", "Anwalt", "badge", CANCEL, 3),
    _dfn("D02", "Leibwächter", "cross,hand", 4, 4),
    _dfn("D03", "Familienehre", "hand", CANCEL, 2),
    _dfn("D04", "Dementi", "star", CANCEL, 2),
    _dfn("D05", "Alibi", "badge,cross,hand,star", 3, 3),
    _dfn("D06", "Untertauchen", "badge,cross", 5, 2),
    _tool("T01", "Lastwagen", "Fahrzeug", 2, 0, 0, 3),
    _tool("T02", "Fluchtwagen", "Fahrzeug", 1, 1, 0, 3),
    _tool("T03", "Maschinenpistole", "Waffe", 1, 3, 0, 2),
    _tool("T04", "Revolver", "Waffe", 1, 2, 0, 4),
    _tool("T05", "Schlagring", "Waffe", 0, 2, 0, 2),
    _tool("T06", "Whiskeykiste", "Schnaps", 1, 0, 1, 4),
    _tool("T07", "Schwarzbrennerei", "Schnaps", 2, 0, 0, 2),
    _tool("T08", "Dietrich", "Werkzeug", 2, 0, 0, 3),
    _tool("T09", "Dynamit", "Werkzeug", 1, 2, 0, 2),
    _tool("T10", "Bauplan", "Werkzeug", 1, 0, 1, 2),
    _tool("T11", "Schläger", "", 0, 3, 0, 4),
    _tool("T12", "Drohbrief", "", 0, 2, 0, 3),
    _tool("T13", "Kompromittierende Fotos", "", 0, 4, 0, 2),
    _tool("T14", "Tippgeber", "", 1, 1, 1, 2),
)
ACTIONS: Final = {c.id: c for c in ACTION_CARDS}
BEGINNER_REMOVED: Final = frozenset({"A10", "A11", "A12", "D04"})
"""The beginner game removes the star cards and Dementi (§16): 72 action cards."""


# ---------------------------------------------------------------------------- characters (App. C)
@dataclass(frozen=True, slots=True, kw_only=True)
class Character:
    id: str
    name: str
    colour: str  # POL, STA, WIR, PRE, BEV
    influence: int
    bribe: int | None
    blackmail: int | None
    dollars: int
    symbol: str  # "", "L", "E", "A"
    gift: int
    set: str
    four_only: bool


def _ch(id: str, name: str, colour: str, infl: int, bribe: int | None, blackmail: int | None,
        dollars: int, symbol: str = "", gift: int = 0, set_: str = "", four: bool = False) -> Character:
    return Character(id=id, name=name, colour=colour, influence=infl, bribe=bribe, blackmail=blackmail,
                     dollars=dollars, symbol=symbol, gift=gift, set=set_, four_only=four)


CHARACTERS: Final[tuple[Character, ...]] = (
    _ch("P1", "Bürgermeister", "POL", 4, 7, 9, 1, "E"),
    _ch("P2", "Ausschussvorsitzender", "POL", 3, 6, 7, 1, "L"),
    _ch("P3", "Parteiboss", "POL", 3, 5, 6, 1),
    _ch("P4", "Stadtrat", "POL", 2, 3, 4, 1),
    _ch("P5", "Bezirksvorsteher", "POL", 1, 2, 3, 1, "A"),
    _ch("P6", "Rennstallbesitzer", "POL", 2, 4, 5, 1, "", 2, "Rennbahn"),
    _ch("P7", "Wahlkampfleiter", "POL", 2, 4, 4, 1, four=True),
    _ch("P8", "Lobbyist", "POL", 1, 3, 4, 2, four=True),
    _ch("S1", "Polizeipräsident", "STA", 4, 7, 8, 1, "E"),
    _ch("S2", "Staatsanwalt", "STA", 3, None, 7, 0, "L"),
    _ch("S3", "Richter", "STA", 3, 6, 6, 1),
    _ch("S4", "Gefängnisdirektor", "STA", 2, 4, 4, 1),
    _ch("S5", "Streifenpolizist", "STA", 1, 2, 3, 1, "A"),
    _ch("S6", "Boxkommissar", "STA", 2, 4, 5, 1, "", 3, "Boxkampf"),
    _ch("S7", "Prohibitionsagent", "STA", 2, 5, 5, 1, "L", four=True),
    _ch("S8", "Hafenpolizist", "STA", 1, 2, 3, 1, four=True),
    _ch("W1", "Bankier", "WIR", 4, 8, 8, 2, "E"),
    _ch("W2", "Reeder", "WIR", 3, 6, 6, 2),
    _ch("W3", "Filmstudio", "WIR", 2, 5, 6, 1, "", 3, "Hollywood"),
    _ch("W4", "Nachtclubbesitzer", "WIR", 2, 4, 5, 1, "", 2, "Jazz"),
    _ch("W5", "Waffenhändler", "WIR", 1, 3, 4, 1, "A"),
    _ch("W6", "Bauunternehmer", "WIR", 3, 5, 6, 1),
    _ch("W7", "Brauereibesitzer", "WIR", 2, 4, 4, 2, four=True),
    _ch("W8", "Pfandleiher", "WIR", 1, 2, 3, 1, four=True),
    _ch("R1", "Chefredakteur", "PRE", 4, 7, 8, 1, "E"),
    _ch("R2", "Enthüllungsreporter", "PRE", 2, None, 5, 0, "L"),
    _ch("R3", "Radiomoderator", "PRE", 3, 5, 6, 1, "E"),
    _ch("R4", "Filmstar", "PRE", 3, 6, 7, 1, "", 3, "Hollywood"),
    _ch("R5", "Pressefotograf", "PRE", 1, 2, 3, 1, "A"),
    _ch("R6", "Sportreporter", "PRE", 2, 3, 4, 1, "", 2, "Baseball"),
    _ch("R7", "Klatschkolumnistin", "PRE", 2, 4, 4, 1, four=True),
    _ch("R8", "Zeitungsjunge", "PRE", 1, 1, 2, 1, four=True),
    _ch("B1", "Gewerkschaftsboss", "BEV", 4, 7, 8, 1, "E"),
    _ch("B2", "Pfarrer", "BEV", 3, 5, None, 1),
    _ch("B3", "Preisboxer", "BEV", 2, 4, None, 1, "", 2, "Boxkampf"),
    _ch("B4", "Jazzsängerin", "BEV", 2, 4, 5, 1, "", 2, "Jazz"),
    _ch("B5", "Baseballstar", "BEV", 3, 5, 6, 1, "", 3, "Baseball"),
    _ch("B6", "Jockey", "BEV", 1, 3, 3, 1, "", 2, "Rennbahn"),
    _ch("B7", "Hafenarbeiter", "BEV", 1, 2, 3, 1, "A", four=True),
    _ch("B8", "Privatdetektiv", "BEV", 2, 4, 5, 1, "L", four=True),
)
CHARS: Final = {c.id: c for c in CHARACTERS}
SETS: Final[dict[str, tuple[str, str]]] = {
    "Hollywood": ("W3", "R4"), "Boxkampf": ("S6", "B3"), "Jazz": ("W4", "B4"),
    "Baseball": ("R6", "B5"), "Rennbahn": ("P6", "B6"),
}


# ---------------------------------------------------------------------------- jobs (App. D)
@dataclass(frozen=True, slots=True, kw_only=True)
class Job:
    id: str
    name: str
    dice_sum: int
    tags: tuple[str, ...]
    ep: int
    dollar: int
    failure: int


_TAG = {"Fz": "Fahrzeug", "Wa": "Waffe", "Sc": "Schnaps", "Wz": "Werkzeug"}


def _job(id: str, name: str, dice_sum: int, tags: str, ep: int, dollar: int, failure: int) -> Job:
    return Job(id=id, name=name, dice_sum=dice_sum, tags=tuple(_TAG[t] for t in tags.split("+")),
               ep=ep, dollar=dollar, failure=failure)


JOBS: Final[tuple[Job, ...]] = (
    _job("J01", "Flüsterkneipe beliefern", 9, "Sc", 3, 1, 1),
    _job("J02", "Schutzgeld eintreiben", 10, "Wa", 3, 2, 1),
    _job("J03", "Zeugen einschüchtern", 11, "Wa+Wa", 4, 1, 1),
    _job("J04", "Schwarzbrennerei ausbauen", 11, "Sc+Wz", 4, 2, 1),
    _job("J05", "Schnapsschmuggel", 12, "Fz+Sc", 5, 2, 1),
    _job("J06", "Lagerhaus ausräumen", 12, "Fz+Wz", 5, 2, 1),
    _job("J07", "Kasinonacht", 13, "Sc+Sc", 5, 3, 1),
    _job("J08", "Streik brechen", 13, "Fz+Wa", 5, 2, 1),
    _job("J09", "Wettbüro ausnehmen", 14, "Wa+Wz", 6, 3, 1),
    _job("J10", "Pferderennen manipulieren", 14, "Wz+Wz", 6, 3, 1),
    _job("J11", "Hafenlieferung abfangen", 15, "Fz+Wa+Sc", 6, 3, 1),
    _job("J12", "Boot aus Kanada", 15, "Fz+Sc+Sc", 6, 3, 1),
    _job("J13", "Lastwagenkonvoi", 16, "Fz+Fz+Sc", 7, 3, 1),
    _job("J14", "Tresor knacken", 16, "Wa+Wz+Wz", 7, 3, 2),
    _job("J15", "Juwelierraub", 17, "Fz+Wa+Wz", 7, 4, 2),
    _job("J16", "Falschgelddruckerei", 17, "Fz+Wz+Wz", 7, 5, 2),
    _job("J17", "Geldtransporter", 19, "Fz+Wa+Wa", 8, 4, 2),
    _job("J18", "Banküberfall", 20, "Wa+Wa+Wz", 9, 5, 2),
)
JOBS_BY_ID: Final = {j.id: j for j in JOBS}

# ---------------------------------------------------------------------------- events (App. E)
EVENTS: Final[dict[str, str]] = {
    "EV01": "Börsenkrach", "EV02": "Bundesagenten", "EV03": "Waffenruhe",
    "EV04": "Nebel über dem Hudson", "EV05": "Sensationspresse", "EV06": "Korrupte Nachtschicht",
    "EV07": "Wohltätigkeitsball", "EV08": "Steuerprüfung", "EV09": "Schwarzmarkt",
    "EV10": "Verrat", "EV11": "Ausgangssperre", "EV12": "Wahlkampfspenden",
    "EV13": "Straßenfest", "EV14": "Zeugenschutz", "EV15": "Große Lieferung", "EV16": "Stromausfall",
}
EV07_GIFT: Final = 2


# ---------------------------------------------------------------------------- powers (App. F)
@dataclass(frozen=True, slots=True, kw_only=True)
class Power:
    id: str
    name: str
    colour: str
    threshold: int
    vp: int


POWERS: Final[tuple[Power, ...]] = (
    Power(id="POL", name="Politik", colour="POL", threshold=6, vp=3),
    Power(id="STA", name="Staatsgewalt", colour="STA", threshold=5, vp=2),
    Power(id="WIR", name="Wirtschaft", colour="WIR", threshold=5, vp=2),
    Power(id="PRE", name="Presse", colour="PRE", threshold=5, vp=2),
    Power(id="BEV", name="Bevölkerung", colour="BEV", threshold=5, vp=2),
)
POLITIK, STAATSGEWALT, WIRTSCHAFT, PRESSE, BEVOELKERUNG = range(len(POWERS))
"""Indices into ``POWERS`` (and into a state's ``powers``)."""

# ---------------------------------------------------------------------------- missions (App. G)
MISSIONS: Final[dict[str, str]] = {
    "M01": "Der Mann im Rathaus", "M02": "Das Gesetz in der Tasche", "M03": "Der Geldgeber",
    "M04": "Die Schlagzeilen", "M05": "Der Mann des Volkes", "M06": "Doppelte Macht",
    "M07": "Große Familie", "M08": "Der Mäzen", "M09": "Geschäftstüchtig", "M10": "Die Kriegskasse",
    "M11": "Überall Freunde", "M12": "Schwergewicht",
}
M07_CHARACTERS: Final = 7
M09_JOBS: Final = 3
M10_MONEY: Final = 20
M12_INFLUENCE: Final = 14



# ---------------------------------------------------------------------------- data overrides
# Every (R) value above and every number the seed states (S) can be overridden for one game by
# name (``--data NAME=VALUE``, options ``{"data": {NAME: value}}``): the seed is the one source
# of the whole game, so its numbers count as (single source). Left out, because the action and
# chance codecs are fixed for every option: PLAYERS, DIE_SIDES, CHAR_COLUMNS, a card's kind,
# symbol, eye, tag and covers; money values (the ids G1-G5 name them); the ids and names.

_CONSTANTS: Final[tuple[tuple[str, int, int, str, str], ...]] = (
    # name, low, high, source, help
    ("GOAL", 10, 200, "single source", "victory points that end the advanced game at once (§15)"),
    ("BEGINNER_GOAL", 10, 200, "R", "victory points that end the beginner game at once (§16)"),
    ("MONTHS", 1, 12, "R", "months the game lasts at most (ME10)"),
    ("PHASES", 1, 6, "single source", "phases in a month, one turn per player each (§6)"),
    ("DISCS", 0, 12, "R", "discs per family for the whole game (§7.3)"),
    ("START_ACTIONS", 0, 12, "single source", "action cards each player draws at the start (§5)"),
    ("START_MONEY", 0, 12, "single source", "money cards each player draws at the start, behind the screen (§5)"),
    ("PLAY_LIMIT", 1, 4, "single source", "cards a player may play in one turn (§7.4)"),
    ("ORSINI_LIMIT", 1, 8, "R", "cards a turn with Orsini's Großoffensive may play (§13)"),
    ("CURFEW_LIMIT", 1, 3, "R", "cards a turn may play under EV11 Ausgangssperre (Orsini twice as many)"),
    ("DRAW_BACK", 0, 4, "single source", "a turn draws back max(0, DRAW_BACK - cards played) action cards (§7.6)"),
    ("HAND_LIMIT", 3, 20, "R", "action cards a hand keeps at the end of its turn (§7.6)"),
    ("MAGNIFIER_LIMIT", 0, 12, "single source", "action cards a hand keeps when a magnifier is turned up (§10.4)"),
    ("MAGNIFIER_COST", 0, 3, "R", "VP paid per card discarded to a magnifier (§10.4)"),
    ("JOB_CAP", 1, 6, "R", "cards a job field holds (§4)"),
    ("CHAR_CAP", 1, 6, "R", "cards a character field holds (§4)"),
    ("MAX_DICE", 1, 6, "R", "W8 a job roll uses at most (§9.2)"),
    ("STAR_LOSS", 0, 6, "R", "VP a scandal's target loses per star (§8.4)"),
    ("STAR_GAIN", 0, 6, "R", "VP a scandal's attacker gains per star (§8.4)"),
    ("ASHTRAY_MONEY", 0, 5, "single source", "money cards a disc on the ashtray draws (§7.3)"),
    ("ASHTRAY_ACTIONS", 0, 6, "single source", "action cards a disc on the ashtray draws (§7.3)"),
    ("GELDWAESCHE", 0, 8, "R", "money cards Moretti's Geldwäsche draws (§13)"),
    ("SPITZEL_TAKE", 1, 5, "R", "cards Rinaldi's Spitzel takes back at most (§13)"),
    ("A_DRAW", 0, 5, "single source", "action cards the winner of an A character may draw (§10.3)"),
    ("E_DRAW", 1, 4, "single source", "event cards the winner of an E character draws, keeping one (§10.3)"),
    ("EV01_BRIBE", 0, 5, "R", "EV01 Börsenkrach: bribe minimums lower by this (not below 1)"),
    ("EV02_FIST", 0, 5, "R", "EV02 Bundesagenten: badge attacks stronger by this"),
    ("EV06_DICE", 0, 6, "R", "EV06 Korrupte Nachtschicht: job dice sums lower by this"),
    ("EV07_GIFT", 0, 5, "R", "EV07 Wohltätigkeitsball: extra VP per gift character won"),
    ("EV08_LIMIT", 0, 12, "R", "EV08 Steuerprüfung: money cards a player keeps at ME7"),
    ("EV10_DEFENCE", 0, 3, "R", "EV10 Verrat: defence cards with a number weaker by this"),
    ("EV15_MONEY", 0, 5, "R", "EV15 Große Lieferung: extra money cards per completed job"),
    ("RESHUFFLE_MONTH", 2, 12, "single source", "the month that begins with the reshuffle of the decks (§12 ME12)"),
    ("M07_CHARACTERS", 1, 20, "R", "M07 Große Familie: characters needed"),
    ("M09_JOBS", 1, 10, "R", "M09 Geschäftstüchtig: completed jobs needed"),
    ("M10_MONEY", 1, 60, "R", "M10 Die Kriegskasse: money ($) needed"),
    ("M12_INFLUENCE", 1, 40, "R", "M12 Schwergewicht: total influence needed"),
)
CONSTANT_NAMES: Final = (*(c[0] for c in _CONSTANTS), "PAYDAY_MONTHS")
"""The overridable constants: the attributes of :class:`Tables` with the module's names."""

NOT_BRIBABLE: Final = 0
"""A character's ``bribe`` or ``blackmail`` override 0: it cannot be bribed (blackmailed), the "—"."""


def _action_specs() -> list[DataSpec]:
    out: list[DataSpec] = []
    for c in ACTION_CARDS:
        what = f"{c.name} ({c.id})"
        out.append(DataSpec(name=f"ACTIONS.{c.id}.count", default=c.count, low=0, high=10,
                            help=f"copies of {what} in the action deck (App. B)"))
        if c.kind == "defence":
            out.append(DataSpec(name=f"ACTIONS.{c.id}.strength", default=c.strength, low=CANCEL, high=9,
                                help=f"strength of {what}; -1 cancels a covered attack (App. B)"))
            continue
        if c.symbol == "star":
            out.append(DataSpec(name=f"ACTIONS.{c.id}.stars", default=c.stars, low=1, high=4,
                                help=f"stars of {what} (App. B)"))
        out.append(DataSpec(name=f"ACTIONS.{c.id}.fist", default=c.fist, low=0, high=9,
                            help=f"fist of {what} (App. B)"))
        out.append(DataSpec(name=f"ACTIONS.{c.id}.dollar", default=c.dollar, low=0, high=4,
                            help=f"money cards {what} draws on success (App. B)"))
        if c.kind == "tool":
            out.append(DataSpec(name=f"ACTIONS.{c.id}.dice", default=c.dice, low=0, high=3,
                                help=f"W8 {what} adds to a job roll (App. B)"))
    return out


def _character_specs() -> list[DataSpec]:
    out: list[DataSpec] = []
    for c in CHARACTERS:
        what = f"{c.name} ({c.id})"
        out += [
            DataSpec(name=f"CHARACTERS.{c.id}.influence", default=c.influence, low=0, high=8,
                     help=f"influence number of {what} (App. C)"),
            DataSpec(name=f"CHARACTERS.{c.id}.bribe", default=NOT_BRIBABLE if c.bribe is None else c.bribe,
                     low=0, high=20, help=f"bribe minimum ($) of {what}; 0: cannot be bribed (App. C)"),
            DataSpec(name=f"CHARACTERS.{c.id}.blackmail",
                     default=NOT_BRIBABLE if c.blackmail is None else c.blackmail, low=0, high=20,
                     help=f"blackmail minimum (fist) of {what}; 0: cannot be blackmailed (App. C)"),
            DataSpec(name=f"CHARACTERS.{c.id}.dollars", default=c.dollars, low=0, high=4,
                     help=f"$ signs of {what}, money cards at payday (App. C)"),
        ]
        if c.set:
            out.append(DataSpec(name=f"CHARACTERS.{c.id}.gift", default=c.gift, low=0, high=6,
                                help=f"gift VP of {what} (set {c.set}, App. C)"))
        out.append(DataSpec(name=f"CHARACTERS.{c.id}.four_only", default=int(c.four_only), low=0, high=1,
                            help=f"1: {what} is removed with 3 players (App. C)"))
    return out


def _job_specs() -> list[DataSpec]:
    out: list[DataSpec] = []
    for j in JOBS:
        what = f"{j.name} ({j.id})"
        out += [
            DataSpec(name=f"JOBS.{j.id}.dice_sum", default=j.dice_sum, low=1, high=40,
                     help=f"dice sum {what} needs (App. D)"),
            DataSpec(name=f"JOBS.{j.id}.ep", default=j.ep, low=0, high=15, help=f"VP {what} gives (App. D)"),
            DataSpec(name=f"JOBS.{j.id}.dollar", default=j.dollar, low=0, high=8,
                     help=f"money cards {what} gives (App. D)"),
            DataSpec(name=f"JOBS.{j.id}.failure", default=j.failure, low=0, high=4,
                     help=f"phases a failed roll at {what} sits out (App. D)"),
        ]
    return out


DATA_SPECS: Final[tuple[DataSpec, ...]] = (
    *(DataSpec(name=name, default=globals()[name], low=low, high=high, source=source, help=help_)
      for name, low, high, source, help_ in _CONSTANTS),
    DataSpec(name="PAYDAY_MONTHS", default=PAYDAY_MONTHS, low=2, high=12, source="single source",
             help="months that begin with payday, e.g. 3,6,9 (none: empty) (§12 ME12)"),
    *(DataSpec(name=f"MONEY.{g}.count", default=k, low=0, high=30,
               help=f"money cards of ${MONEY[g]} in the money deck (App. A)") for g, k in MONEY_COUNTS.items()),
    *_action_specs(),
    *_character_specs(),
    *_job_specs(),
    *(x for p in POWERS for x in (
        DataSpec(name=f"POWERS.{p.id}.threshold", default=p.threshold, low=1, high=20,
                 help=f"influence {p.name} needs at least (App. F)"),
        DataSpec(name=f"POWERS.{p.id}.vp", default=p.vp, low=0, high=8,
                 help=f"VP {p.name} gives its holder at each month end (App. F)"))),
)
"""What a run may override by name (``--data NAME=VALUE``): the constants by their names, a
field of a card as ``TABLE.ID.FIELD`` (``ACTIONS.A04.fist``, ``CHARACTERS.P1.bribe``,
``JOBS.J05.dice_sum``, ``POWERS.POL.vp``, ``MONEY.G5.count``)."""

DATA_SPECS_BY_NAME: Final = {d.name: d for d in DATA_SPECS}
_SPEC_ORDER: Final = {d.name: i for i, d in enumerate(DATA_SPECS)}


class Tables:
    """The values one game plays with: this module's defaults with the game's data overrides.

    Built once per set of overrides (:func:`tables`, cached), held by the state (``s.data``,
    shared by every clone) and the public view; the rules, views, words and bots read every
    overridable value here (``s.data.GOAL``, ``s.data.ACTIONS[c].fist``), never the module
    constants, which stay the documented defaults. Immutable; equal when the overrides are.
    """

    __slots__ = (
        "ACTIONS",
        "ACTION_CARDS",
        "ASHTRAY_ACTIONS",
        "ASHTRAY_MONEY",
        "A_DRAW",
        "BEGINNER_GOAL",
        "CHARACTERS",
        "CHARS",
        "CHAR_CAP",
        "CURFEW_LIMIT",
        "DISCS",
        "DRAW_BACK",
        "EV01_BRIBE",
        "EV02_FIST",
        "EV06_DICE",
        "EV07_GIFT",
        "EV08_LIMIT",
        "EV10_DEFENCE",
        "EV15_MONEY",
        "E_DRAW",
        "GELDWAESCHE",
        "GOAL",
        "HAND_LIMIT",
        "JOBS",
        "JOBS_BY_ID",
        "JOB_CAP",
        "M07_CHARACTERS",
        "M09_JOBS",
        "M10_MONEY",
        "M12_INFLUENCE",
        "MAGNIFIER_COST",
        "MAGNIFIER_LIMIT",
        "MAX_DICE",
        "MONEY_COUNTS",
        "MONTHS",
        "ORSINI_LIMIT",
        "PAYDAY_MONTHS",
        "PHASES",
        "PLAY_LIMIT",
        "POWERS",
        "RESHUFFLE_MONTH",
        "SPITZEL_TAKE",
        "START_ACTIONS",
        "START_MONEY",
        "STAR_GAIN",
        "STAR_LOSS",
        "key",
        "overrides",
    )

    overrides: Mapping[str, DataValue]
    """The overrides by name, in the order of :data:`DATA_SPECS` (empty: the defaults)."""
    key: tuple[tuple[str, DataValue], ...]
    GOAL: int
    BEGINNER_GOAL: int
    MONTHS: int
    PHASES: int
    DISCS: int
    START_ACTIONS: int
    START_MONEY: int
    PLAY_LIMIT: int
    ORSINI_LIMIT: int
    CURFEW_LIMIT: int
    DRAW_BACK: int
    HAND_LIMIT: int
    MAGNIFIER_LIMIT: int
    MAGNIFIER_COST: int
    JOB_CAP: int
    CHAR_CAP: int
    MAX_DICE: int
    STAR_LOSS: int
    STAR_GAIN: int
    ASHTRAY_MONEY: int
    ASHTRAY_ACTIONS: int
    GELDWAESCHE: int
    SPITZEL_TAKE: int
    A_DRAW: int
    E_DRAW: int
    EV01_BRIBE: int
    EV02_FIST: int
    EV06_DICE: int
    EV07_GIFT: int
    EV08_LIMIT: int
    EV10_DEFENCE: int
    EV15_MONEY: int
    RESHUFFLE_MONTH: int
    M07_CHARACTERS: int
    M09_JOBS: int
    M10_MONEY: int
    M12_INFLUENCE: int
    PAYDAY_MONTHS: frozenset[int]
    MONEY_COUNTS: Mapping[str, int]
    ACTION_CARDS: tuple[ActionCard, ...]
    ACTIONS: Mapping[str, ActionCard]
    CHARACTERS: tuple[Character, ...]
    CHARS: Mapping[str, Character]
    JOBS: tuple[Job, ...]
    JOBS_BY_ID: Mapping[str, Job]
    POWERS: tuple[Power, ...]

    def __init__(self, overrides: Mapping[str, DataValue] | None = None) -> None:
        given = dict(overrides or {})
        unknown = sorted(set(given) - set(_SPEC_ORDER))
        if unknown:
            raise KeyError(f"no overridable data value {unknown[0]!r}")
        ordered = {k: given[k] for k in sorted(given, key=_SPEC_ORDER.__getitem__)}
        put = object.__setattr__
        put(self, "overrides", ordered)
        put(self, "key", tuple(ordered.items()))
        module = globals()
        for name in CONSTANT_NAMES:
            put(self, name, ordered.get(name, module[name]))
        rows: dict[str, dict[str, dict[str, Any]]] = {}
        for name, value in ordered.items():
            if name.count(".") == 2:
                table, row, fld = name.split(".")
                rows.setdefault(table, {}).setdefault(row, {})[fld] = value
        money = rows.get("MONEY", {})
        put(self, "MONEY_COUNTS", {g: int(money.get(g, {}).get("count", k)) for g, k in MONEY_COUNTS.items()}
            if money else MONEY_COUNTS)
        fix = rows.get("ACTIONS")
        acts = tuple(replace(c, **fix[c.id]) if c.id in fix else c for c in ACTION_CARDS) if fix else ACTION_CARDS
        put(self, "ACTION_CARDS", acts)
        put(self, "ACTIONS", {c.id: c for c in acts} if fix else ACTIONS)
        fix = rows.get("CHARACTERS")
        chars = tuple(replace(c, **_character_fields(fix[c.id])) if c.id in fix else c
                      for c in CHARACTERS) if fix else CHARACTERS
        put(self, "CHARACTERS", chars)
        put(self, "CHARS", {c.id: c for c in chars} if fix else CHARS)
        fix = rows.get("JOBS")
        jobs = tuple(replace(j, **fix[j.id]) if j.id in fix else j for j in JOBS) if fix else JOBS
        put(self, "JOBS", jobs)
        put(self, "JOBS_BY_ID", {j.id: j for j in jobs} if fix else JOBS_BY_ID)
        fix = rows.get("POWERS")
        put(self, "POWERS", tuple(replace(p, **fix[p.id]) if p.id in fix else p for p in POWERS) if fix else POWERS)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Tables are immutable (setting {name})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tables) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __reduce__(self) -> tuple[Any, ...]:
        return (tables, (dict(self.overrides),))

    def __repr__(self) -> str:
        return f"Tables({self.overrides_json()})"

    def overrides_json(self) -> dict[str, int | list[int]]:
        """The overrides as JSON (what a state's JSON, a view's JSON and a record carry)."""
        return {k: data_json(v) for k, v in self.overrides.items()}


def _character_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(fields)
    for k in ("bribe", "blackmail"):
        if k in out and out[k] == NOT_BRIBABLE:
            out[k] = None
    if "four_only" in out:
        out["four_only"] = bool(out["four_only"])
    return out


@lru_cache(maxsize=512)
def _tables(key: tuple[tuple[str, DataValue], ...]) -> Tables:
    return Tables(dict(key))


def tables(overrides: Mapping[str, DataValue] | None = None) -> Tables:
    """The tables for these (checked) overrides: one shared object per set of overrides."""
    if not overrides:
        return DEFAULT
    return _tables(tuple(sorted(overrides.items(), key=lambda kv: _SPEC_ORDER.get(kv[0], -1))))


DEFAULT: Final = Tables()
"""The tables without overrides (this module's values)."""


def table_data(t: Tables = DEFAULT) -> dict[str, object]:
    """The card tables for the board drawing in the browser (``Game.table_data``), as one
    table plays them (its overrides applied); ``constants`` has the overridable numbers."""
    return {
        "actions": [{"id": c.id, "name": c.name, "kind": c.kind, "symbol": c.symbol, "stars": c.stars,
                     "eye": c.eye, "fist": c.fist, "dollar": c.dollar, "dice": c.dice, "tag": c.tag,
                     "covers": sorted(c.covers), "strength": c.strength, "count": c.count} for c in t.ACTION_CARDS],
        "money": dict(MONEY),
        "money_counts": dict(t.MONEY_COUNTS),
        "characters": [{"id": c.id, "name": c.name, "colour": c.colour, "influence": c.influence,
                        "bribe": c.bribe, "blackmail": c.blackmail, "dollars": c.dollars, "symbol": c.symbol,
                        "gift": c.gift, "set": c.set, "four_only": c.four_only} for c in t.CHARACTERS],
        "jobs": [{"id": j.id, "name": j.name, "dice_sum": j.dice_sum, "tags": list(j.tags), "ep": j.ep,
                  "dollar": j.dollar, "failure": j.failure} for j in t.JOBS],
        "events": dict(EVENTS),
        "missions": dict(MISSIONS),
        "powers": [{"id": p.id, "name": p.name, "threshold": p.threshold, "vp": p.vp} for p in t.POWERS],
        "constants": {name: data_json(getattr(t, name)) for name in CONSTANT_NAMES},
        "overrides": t.overrides_json(),
    }
