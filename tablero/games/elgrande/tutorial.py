"""El Grande tutorial: seven steps, each a position from the scenario builder (spec §15).

The learner is seat 0 (Ana) at a table of three. A step's position is the scenario builder's
(``setup.scenario``, ``setup.take``) or a new game with its chance outcomes forced (the region
cards dealt, the action cards turned up), with the moves that lead to the decision applied by
the engine. The words are this module's own catalogue (``tut.eg.*``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import CHANCE
from tablero.core.tutorial import Step, Tutorial
from tablero.games.elgrande.actions import EGAction, parse
from tablero.games.elgrande.rules import GAME
from tablero.games.elgrande.setup import scenario, take
from tablero.games.elgrande.state import ElGrandeState
from tablero.games.elgrande.view import ElGrandeView

NAMES: Final = ("Ana", "Bruno", "Carla", "Diego", "Elena")
OFFER: Final = ("1C", "2E", "3A", "4B")
"""The action cards on offer (besides the King's card) in the scenario steps."""


def options_of(state: ElGrandeState) -> Mapping[str, object]:
    """The options of a position: seat 0 starts (as in every scenario), the state's own flags."""
    return {"start_seat": 0, "short_game": state.short_game, "castillo_open": state.castillo_open}


def _apply(s: ElGrandeState, seat: int, *texts: str) -> ElGrandeState:
    for t in texts:
        GAME.apply(s, seat, parse(t))
    return s


def _new_round() -> ElGrandeState:
    """A new game of three, seat 0 to start: homes Galicia, Aragón, Granada; the King in Castilla
    la Nueva; 1C, 2E, 3A and 4B turned up (the chance outcomes forced)."""
    s = GAME.new_initial_state(3, {"start_seat": 0})
    for t in ("deal galicia", "deal aragon", "deal granada", "deal castilla_la_nueva",
              *(f"reveal {c}" for c in OFFER)):
        GAME.apply(s, CHANCE, parse(t))
    return s


def _power() -> ElGrandeState:
    return _new_round()


def _intake() -> ElGrandeState:
    s = _apply(_new_round(), 0, "power 4")
    return _apply(_apply(s, 1, "power 3"), 2, "power 2")


BOARD: Final = {"galicia": {0: 2, 1: 1}, "aragon": {1: 2}, "granada": {2: 2, 0: 1}, "valencia": {2: 1}}
"""Caballeros of the middle steps: a board a few rounds into the game."""
GRANDES: Final = {0: "galicia", 1: "aragon", 2: "granada"}


def _take() -> ElGrandeState:
    return scenario(players=3, king="castilla_la_nueva", grandes=GRANDES, cab=BOARD, offer=OFFER)


def _place() -> ElGrandeState:
    s = scenario(players=3, king="galicia", grandes={0: "valencia", 1: "aragon", 2: "granada"},
                 cab={"valencia": {0: 2}, "aragon": {1: 2}, "granada": {2: 2}, "pais_vasco": {1: 1}},
                 offer=OFFER)
    take(s, "3A")
    return _apply(s, 0, "place_first")


def _ties() -> ElGrandeState:
    s = scenario(players=3, king="castilla_la_nueva", grandes=GRANDES,
                 cab={**BOARD, "pais_vasco": {0: 3, 1: 3, 2: 1}}, offer=OFFER)
    take(s, "2E")
    return _apply(s, 0, "action_first")


def _castillo() -> ElGrandeState:
    # The last turn of round 3 (Carla's) is played by the builder; the general scoring's disks follow.
    s = scenario(players=3, round_index=2, king="sevilla", active=2, grandes=GRANDES,
                 cab={"castillo": {0: 3, 1: 2}, "galicia": {0: 1, 1: 2}, "granada": {2: 2}}, offer=OFFER)
    take(s, "4B")
    return _apply(s, 2, "place_first", "end_placement", "skip_action")


def _veto() -> ElGrandeState:
    # Round 4: Ana took a Veto! this round; Carla (first in the turn order) announces the King's card.
    s = scenario(players=3, round_index=3, king="sevilla", veto={0: [3]}, order=[2, 0, 1], grandes=GRANDES,
                 cab={"granada": {2: 3, 0: 2}, "castilla_la_nueva": {0: 2, 1: 1}, "galicia": {0: 2}},
                 offer=OFFER)
    take(s, "5A")
    return _apply(s, 2, "action_first")


def _step(name: str, position: Callable[[], ElGrandeState], accept: frozenset[str],
          follow: tuple[tuple[int, str], ...] = ()) -> Step[ElGrandeState]:
    return Step(id=name, position=position, accept=accept, follow=follow,
                title=Message(f"tut.eg.{name}.title"), task=Message(f"tut.eg.{name}.task"),
                explain=Message(f"tut.eg.{name}.explain"), hint=Message(f"tut.eg.{name}.hint"))


STEPS: Final[tuple[Step[ElGrandeState], ...]] = (
    _step("power", _power, frozenset({"power 11"}), follow=((1, "power 7"), (2, "power 3"))),
    _step("intake", _intake, frozenset({"intake 4"})),
    _step("take", _take, frozenset({"take 5A"})),
    _step("place", _place, frozenset({"place castilla_la_vieja", "place pais_vasco"})),
    _step("ties", _ties, frozenset({"score pais_vasco"})),
    _step("castillo", _castillo, frozenset({"disk galicia"}), follow=((1, "disk sevilla"),)),
    _step("veto", _veto, frozenset({"veto"}),
          follow=((2, "place granada"), (2, "place granada"), (2, "end_placement"))),
)

CATALOGUE: Final[Catalogue] = {
    "en": {
        "tut.eg.title": "Learn El Grande",
        "tut.eg.intro": "You are Ana, a Grande of Spain. Win the regions by having more caballeros there than the "
                        "others when they are scored. Your caballeros go from your province to your court, and "
                        "from your court onto the board.",
        "tut.eg.power.title": "Power cards and the turn order",
        "tut.eg.power.task": "Every round starts with the power cards. Play your power card 11: a high card lets "
                             "you act early.",
        "tut.eg.power.explain": "Everyone played one power card; a value played this round cannot be played again "
                                "by anyone. The highest card acts first: you, then Bruno (7), then Carla (3). The "
                                "small number under a power card is how many caballeros you may bring from your "
                                "province to your court — the 11 brings only 1, the 3 would bring 5. Each card "
                                "can be played once per game.",
        "tut.eg.power.hint": "Play the 11 (in the list or your power card 11): the higher the card, the "
                             "earlier you act.",
        "tut.eg.intake.title": "From the province to the court",
        "tut.eg.intake.task": "You played the power card 4 and go first. Bring all 4 caballeros it allows from "
                              "your province into your court.",
        "tut.eg.intake.explain": "Only caballeros in your court can be placed on the board; those in your province "
                                 "wait. Your court now holds 11 caballeros. Next you will take an action card.",
        "tut.eg.intake.hint": "Take the most the power card 4 allows: 4 caballeros.",
        "tut.eg.take.title": "Action cards",
        "tut.eg.take.task": "Take the King's card (5A): it lets you place up to 5 caballeros and move the King.",
        "tut.eg.take.explain": "Every action card has two parts. The number of its stack (1 to 5) is how many "
                               "caballeros you may place from your court this turn. Its special action you may do "
                               "before or after placing — or leave out. The King's card is on offer every round.",
        "tut.eg.take.hint": "The King's card is 5A: up to 5 caballeros, and the King moves to any region.",
        "tut.eg.place.title": "Placing next to the King",
        "tut.eg.place.task": "The King stands in Galicia. Place a caballero in a region next to the King.",
        "tut.eg.place.explain": "Caballeros go only into the regions bordering the King's region — here Castilla "
                                "la Vieja and País Vasco — or into the Castillo. Nobody may enter or leave the "
                                "King's region itself. You may place up to the card's number, one at a time.",
        "tut.eg.place.hint": "Galicia borders Castilla la Vieja and País Vasco: place there (the Castillo would "
                             "be allowed too, but this step is about the regions).",
        "tut.eg.ties.title": "A scoring with a tie",
        "tut.eg.ties.task": "Your card 2E scores one region of your choice. Score País Vasco (5, 3 and 1 points), "
                            "where you and Bruno have 3 caballeros each and Carla 1.",
        "tut.eg.ties.explain": "Players tied for a place fall to the next place: you and Bruno are both second and "
                               "get 3 points each, Carla is third and gets 1. Nobody got the 5 points for first "
                               "place. Only a sole leader gets the King's and Grande bonuses.",
        "tut.eg.ties.hint": "Choose País Vasco.",
        "tut.eg.castillo.title": "The Castillo and the general scoring",
        "tut.eg.castillo.task": "Round 3 is over: general scoring. You have 3 caballeros in the Castillo, Bruno 2. "
                                "Set your secret disk to Galicia, where Bruno leads you by 2 to 1.",
        "tut.eg.castillo.explain": "The Castillo was scored first (5, 3, 1: you 5, Bruno 3). Then the disks were "
                                   "shown and all caballeros left the Castillo for the regions picked: your 3 went "
                                   "to Galicia, and with 4 against Bruno's 2 you were first there when all nine "
                                   "regions were scored: 4 points, and 2 more because your Grande stands there. "
                                   "Bruno picked the King's region, Sevilla: those caballeros went back to "
                                   "Bruno's court. Scorings follow rounds 3, 6 and 9.",
        "tut.eg.castillo.hint": "Pick Galicia: your Castillo caballeros will all go there.",
        "tut.eg.veto.title": "Veto!",
        "tut.eg.veto.task": "Carla took the King's card and wants to move the King now. You hold a Veto! card: "
                            "cancel Carla's special action.",
        "tut.eg.veto.explain": "Your Veto! cancelled the whole special action: the King stays in Sevilla. Carla "
                               "still placed caballeros next to the King. A Veto! can be used in the round it was "
                               "taken and in the next one, never against your own card.",
        "tut.eg.veto.hint": "Play your Veto!",
    },
    "de": {
        "tut.eg.title": "El Grande lernen",
        "tut.eg.intro": "Du bist Ana, ein Grande Spaniens. Gewinne die Regionen, indem du bei ihrer Wertung mehr "
                        "Caballeros dort hast als die anderen. Deine Caballeros kommen aus deiner Provinz an deinen "
                        "Hof und vom Hof auf das Spielbrett.",
        "tut.eg.power.title": "Machtkarten und Zugreihenfolge",
        "tut.eg.power.task": "Jede Runde beginnt mit den Machtkarten. Spiele deine Machtkarte 11: Eine hohe Karte "
                             "lässt dich früh handeln.",
        "tut.eg.power.explain": "Alle haben eine Machtkarte gespielt; ein Wert, der in dieser Runde schon gespielt "
                                "wurde, ist für alle gesperrt. Die höchste Karte beginnt: du, dann Bruno (7), dann "
                                "Carla (3). Die kleine Zahl unter einer Machtkarte sagt, wie viele Caballeros du "
                                "aus deiner Provinz an deinen Hof holen darfst — die 11 bringt nur 1, die 3 "
                                "brächte 5. Jede Karte spielst du nur einmal im Spiel.",
        "tut.eg.power.hint": "Spiele die 11 (in der Liste oder deine Machtkarte 11): Je höher die Karte, "
                             "desto früher bist du dran.",
        "tut.eg.intake.title": "Von der Provinz an den Hof",
        "tut.eg.intake.task": "Du hast die Machtkarte 4 gespielt und beginnst. Hole alle 4 Caballeros, die sie "
                              "erlaubt, aus deiner Provinz an deinen Hof.",
        "tut.eg.intake.explain": "Nur Caballeros an deinem Hof können auf das Brett; die in deiner Provinz warten. "
                                 "Dein Hof hat jetzt 11 Caballeros. Als Nächstes nimmst du eine Aktionskarte.",
        "tut.eg.intake.hint": "Nimm so viele, wie die Machtkarte 4 erlaubt: 4 Caballeros.",
        "tut.eg.take.title": "Aktionskarten",
        "tut.eg.take.task": "Nimm die Königskarte (5A): Mit ihr setzt du bis zu 5 Caballeros ein und versetzt "
                            "den König.",
        "tut.eg.take.explain": "Jede Aktionskarte hat zwei Teile. Die Nummer ihres Stapels (1 bis 5) sagt, wie "
                               "viele Caballeros du in diesem Zug von deinem Hof einsetzen darfst. Ihre "
                               "Sonderaktion führst du vor oder nach dem Einsetzen aus — oder gar nicht. Die "
                               "Königskarte liegt jede Runde aus.",
        "tut.eg.take.hint": "Die Königskarte ist 5A: bis zu 5 Caballeros, und der König zieht in eine beliebige "
                            "Region.",
        "tut.eg.place.title": "Neben dem König einsetzen",
        "tut.eg.place.task": "Der König steht in Galicien. Setze einen Caballero in eine Region neben dem König.",
        "tut.eg.place.explain": "Caballeros kommen nur in die Nachbarregionen der Königsregion — hier Altkastilien "
                                "und das Baskenland — oder ins Castillo. In die Königsregion selbst darf niemand "
                                "hinein und niemand heraus. Du setzt bis zur Zahl der Karte ein, einen nach dem "
                                "anderen.",
        "tut.eg.place.hint": "Galicien grenzt an Altkastilien und das Baskenland: Setze dort ein (das Castillo "
                             "wäre auch erlaubt, aber hier geht es um die Regionen).",
        "tut.eg.ties.title": "Eine Wertung mit Gleichstand",
        "tut.eg.ties.task": "Deine Karte 2E wertet eine Region deiner Wahl. Werte das Baskenland (5, 3 und 1 "
                            "Punkte), wo du und Bruno je 3 Caballeros habt und Carla 1.",
        "tut.eg.ties.explain": "Wer gleichauf liegt, rutscht auf den nächsten Platz: Du und Bruno seid beide "
                               "Zweite und bekommt je 3 Punkte, Carla ist Dritte und bekommt 1. Die 5 Punkte für "
                               "den ersten Platz bekam niemand. Die Boni für König und Grande gibt es nur für "
                               "eine alleinige Mehrheit.",
        "tut.eg.ties.hint": "Wähle das Baskenland.",
        "tut.eg.castillo.title": "Das Castillo und die Wertung",
        "tut.eg.castillo.task": "Runde 3 ist vorbei: Wertung. Du hast 3 Caballeros im Castillo, Bruno 2. Stelle "
                                "deine geheime Drehscheibe auf Galicien, wo Bruno mit 2 zu 1 vorn liegt.",
        "tut.eg.castillo.explain": "Zuerst wurde das Castillo gewertet (5, 3, 1: du 5, Bruno 3). Dann wurden die "
                                   "Drehscheiben aufgedeckt, und alle Caballeros zogen aus dem Castillo in die "
                                   "gewählten Regionen: Deine 3 kamen nach Galicien, und mit 4 gegen Brunos 2 warst "
                                   "du dort Erste, als alle neun Regionen gewertet wurden: 4 Punkte und 2 "
                                   "weitere, weil dein Grande dort steht. Bruno wählte die Königsregion Sevilla: "
                                   "Brunos Caballeros aus dem Castillo kamen zurück an den Hof. Wertungen gibt "
                                   "es nach den Runden 3, 6 und 9.",
        "tut.eg.castillo.hint": "Wähle Galicien: Alle deine Caballeros aus dem Castillo ziehen dorthin.",
        "tut.eg.veto.title": "Veto!",
        "tut.eg.veto.task": "Carla hat die Königskarte genommen und will den König jetzt versetzen. Du hast eine "
                            "Veto!-Karte: Verhindere Carlas Sonderaktion.",
        "tut.eg.veto.explain": "Dein Veto! hat die ganze Sonderaktion verhindert: Der König bleibt in Sevilla. "
                               "Carla hat trotzdem Caballeros neben dem König eingesetzt. Ein Veto! gilt in der "
                               "Runde, in der du es genommen hast, und in der nächsten, nie gegen deine eigene "
                               "Karte.",
        "tut.eg.veto.hint": "Spiele dein Veto!",
    },
}

TUTORIAL: Final[Tutorial[ElGrandeState, EGAction, ElGrandeView]] = Tutorial(
    game=GAME,
    title=Message("tut.eg.title"),
    intro=Message("tut.eg.intro"),
    steps=STEPS,
    names=NAMES,
    options=options_of,
    catalogue=CATALOGUE,
)
