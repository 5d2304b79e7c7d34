"""Mafia Legend components and tables (appendices A–G of the specification this
implementation follows, rules version 1, a reconstruction summarised in docs/games/mafia-legend.md).

Every value here is a reconstruction (R) unless marked (S) (stated by the seed). An owner of
the real box enters the printed values here, raises DATA_VERSION, and touches no rules code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

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


def table_data() -> dict[str, object]:
    """The card tables for the board drawing in the browser (``Game.table_data``)."""
    return {
        "actions": [{"id": c.id, "name": c.name, "kind": c.kind, "symbol": c.symbol, "stars": c.stars,
                     "eye": c.eye, "fist": c.fist, "dollar": c.dollar, "dice": c.dice, "tag": c.tag,
                     "covers": sorted(c.covers), "strength": c.strength} for c in ACTION_CARDS],
        "money": dict(MONEY),
        "characters": [{"id": c.id, "name": c.name, "colour": c.colour, "influence": c.influence,
                        "bribe": c.bribe, "blackmail": c.blackmail, "dollars": c.dollars, "symbol": c.symbol,
                        "gift": c.gift, "set": c.set, "four_only": c.four_only} for c in CHARACTERS],
        "jobs": [{"id": j.id, "name": j.name, "dice_sum": j.dice_sum, "tags": list(j.tags), "ep": j.ep,
                  "dollar": j.dollar, "failure": j.failure} for j in JOBS],
        "events": dict(EVENTS),
        "missions": dict(MISSIONS),
        "powers": [{"id": p.id, "name": p.name, "threshold": p.threshold, "vp": p.vp} for p in POWERS],
    }
