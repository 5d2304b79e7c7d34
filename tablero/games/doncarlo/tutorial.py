"""Don Carlo tutorial: five steps, each a position from the scenario builder (spec §12).

The learner is seat 0 (Ana) at a table of three; every step asks for one code. The words are
this module's own catalogue (``tut.dc.*``), rendered together with the game's catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import DATA_OPTION
from tablero.core.tutorial import Step, Tutorial
from tablero.games.doncarlo.actions import DonCarloAction
from tablero.games.doncarlo.data import COUNTRIES
from tablero.games.doncarlo.rules import GAME
from tablero.games.doncarlo.setup import scenario
from tablero.games.doncarlo.state import DonCarloState
from tablero.games.doncarlo.view import DonCarloView

NAMES: Final = ("Ana", "Bruno", "Carla", "Diego")


def options_of(state: DonCarloState) -> Mapping[str, object]:
    """The options a position was made with (all of them are kept in the state, data overrides too)."""
    out: dict[str, object] = {
        "start_seat": "random" if state.start_option is None else state.start_option,
        "country_points": {c.id: state.points[i] for i, c in enumerate(COUNTRIES)},
        "majority_tie": state.tie_rule,
    }
    if state.data.overrides:
        out[DATA_OPTION] = state.data.overrides_json()
    return out


def _first() -> DonCarloState:
    return scenario(3, hands={0: [1, 2, 4, 6]}, agents={"protzland": [(1, "3/4"), (2, "0/2/5")]})


def _bonus() -> DonCarloState:
    return scenario(3, hands={0: [1, 1, 1, 5]}, agents={"protzland": [(1, "3/4")], "absurdistan": [(2, "2/4")]})


def _unique() -> DonCarloState:
    return scenario(3, hands={0: [0, 2, 3, 5]}, agents={"protzland": [(1, "2/5")], "egoistrien": [(2, "1/2")]})


def _blocked() -> DonCarloState:
    # A hand of zeros forms no code (sum 0): the turn opens blocked, the hand shown; the one card
    # left in the deck (a 5) is the open draw the driver makes before Ana decides.
    return scenario(3, hands={0: [0, 0, 0, 0]}, decks={0: [5]},
                    agents={"abrakadabria": [(1, "1/4")], "protzland": [(2, "3/4")]})


def _majority() -> DonCarloState:
    return scenario(3, hands={0: [4, 5]}, decks={0: []}, out=[1, 2],
                    agents={"schwadronien": [(1, "3/6"), (0, "4/6"), (1, "2/4/6")],
                            "protzland": [(2, "1/6"), (0, "0/3/4")],
                            "absurdistan": [(1, "1/5"), (2, "0/6")]})


STEPS: Final[tuple[Step[DonCarloState], ...]] = (
    Step(id="code", position=_first, accept=frozenset({"1/6", "1/2/4"}),
         title=Message("tut.dc.code.title"), task=Message("tut.dc.code.task"),
         explain=Message("tut.dc.code.explain"), hint=Message("tut.dc.code.hint")),
    Step(id="bonus", position=_bonus, accept=frozenset({"1/1/1"}),
         title=Message("tut.dc.bonus.title"), task=Message("tut.dc.bonus.task"),
         explain=Message("tut.dc.bonus.explain"), hint=Message("tut.dc.bonus.hint")),
    Step(id="unique", position=_unique, accept=frozenset({"0/2/5"}),
         title=Message("tut.dc.unique.title"), task=Message("tut.dc.unique.task"),
         explain=Message("tut.dc.unique.explain"), hint=Message("tut.dc.unique.hint")),
    Step(id="blocked", position=_blocked, accept=frozenset({"0/0/0/5"}),
         title=Message("tut.dc.blocked.title"), task=Message("tut.dc.blocked.task"),
         explain=Message("tut.dc.blocked.explain"), hint=Message("tut.dc.blocked.hint")),
    Step(id="majority", position=_majority, accept=frozenset({"4/5"}),
         title=Message("tut.dc.majority.title"), task=Message("tut.dc.majority.task"),
         explain=Message("tut.dc.majority.explain"), hint=Message("tut.dc.majority.hint")),
)

CATALOGUE: Final[Catalogue] = {
    "en": {
        "tut.dc.title": "Learn Don Carlo",
        "tut.dc.intro": "You are Ana, head of a family. Send agents — codes made of your cards — into the "
                        "countries: each agent scores at once, and at the end the family with the most agents "
                        "in a country wins its majority points.",
        "tut.dc.code.title": "Send an agent",
        "tut.dc.code.task": "Send an agent to Protzland: choose cards of your hand whose digits add up to 7.",
        "tut.dc.code.explain": "A code is one to four cards of your hand; the sum of its digits chooses the "
                               "country, and Protzland takes the sum 7. Your agent is the third in Protzland, so "
                               "it scores 3 influence points at once: an agent scores as many points as there are "
                               "agents in its country, itself included. Then you refilled your hand to four cards.",
        "tut.dc.code.hint": "Protzland takes codes whose digits add up to 7, such as 1/6 or 1/2/4.",
        "tut.dc.bonus.title": "Runs and triples",
        "tut.dc.bonus.task": "Play a triple — three cards of the same value — for a bonus.",
        "tut.dc.bonus.explain": "Three equal cards (a triple) earn 2 bonus points, three cards in a row such as "
                                "2/3/4 (a run) earn 1. Codes of two or four cards never earn a bonus. 1/1/1 adds "
                                "up to 3 and went to Egoistrien: 1 influence point and 2 bonus points.",
        "tut.dc.bonus.hint": "A triple is three cards of the same value: you hold three 1s.",
        "tut.dc.unique.title": "Every code once",
        "tut.dc.unique.task": "Bruno has sent the code 2/5 to Protzland already. Send another agent to "
                              "Protzland (digit sum 7) all the same.",
        "tut.dc.unique.explain": "Each code can be sent only once in the whole game, by any family. A 0 adds "
                                 "nothing to the sum but makes a new code: 0/2/5 is not 2/5. Your agent is the "
                                 "second in Protzland: 2 influence points.",
        "tut.dc.unique.hint": "Protzland takes the sum 7, and 2/5 is used already. A 0 changes the code but "
                              "not its sum.",
        "tut.dc.blocked.title": "Blocked",
        "tut.dc.blocked.task": "Your hand was four 0s: no code (their sum is 0 and no country takes it). So you "
                               "were blocked: you showed your hand and drew face up until a code became possible — "
                               "a 5. Now you must send an agent: get rid of every 0 with 0/0/0/5.",
        "tut.dc.blocked.explain": "A blocked family shows its hand and draws openly until it can play; everyone "
                                  "now knows those cards. Had your deck run out first, you would have been out of "
                                  "the game, keeping your points. 0/0/0/5 adds up to 5 and went to Abrakadabria.",
        "tut.dc.blocked.hint": "Play all four cards as one code: 0/0/0/5 (sum 5, Abrakadabria).",
        "tut.dc.majority.title": "Majorities at the end",
        "tut.dc.majority.task": "Bruno and Carla are out and your deck is empty: this is the last agent of the "
                                "game. Bruno leads Schwadronien (sums 9 to 12) with 2 agents to your 1. Draw level "
                                "with Bruno there.",
        "tut.dc.majority.explain": "When nobody can send an agent any more, the game ends and each country pays "
                                   "its majority points to the family with the most agents there. Families tied "
                                   "at the top each get the full points (the default; a table may choose to "
                                   "split them or to give nothing). You and Bruno both scored Schwadronien's 10 "
                                   "points.",
        "tut.dc.majority.hint": "Schwadronien takes the sums 9 to 12: which of your codes adds up to 9?",
    },
    "de": {
        "tut.dc.title": "Don Carlo lernen",
        "tut.dc.intro": "Du bist Ana, Oberhaupt einer Familie. Schicke Agenten — Codenamen aus deinen Karten — in "
                        "die Länder: Jeder Agent bringt sofort Punkte, und am Ende erhält die Familie mit den "
                        "meisten Agenten in einem Land dessen Mehrheitspunkte.",
        "tut.dc.code.title": "Einen Agenten schicken",
        "tut.dc.code.task": "Schicke einen Agenten nach Protzland: Wähle Karten deiner Hand, deren Ziffern "
                            "zusammen 7 ergeben.",
        "tut.dc.code.explain": "Ein Codename besteht aus einer bis vier Karten deiner Hand; die Summe der Ziffern "
                               "bestimmt das Land, und Protzland nimmt die Summe 7. Dein Agent ist der dritte in "
                               "Protzland und bringt darum sofort 3 Einflusspunkte: Ein Agent zählt so viele "
                               "Punkte, wie Agenten im Land liegen, er selbst eingeschlossen. Danach hast du auf "
                               "vier Karten nachgezogen.",
        "tut.dc.code.hint": "Protzland nimmt Codenamen mit der Ziffernsumme 7, etwa 1/6 oder 1/2/4.",
        "tut.dc.bonus.title": "Folgen und Drillinge",
        "tut.dc.bonus.task": "Spiele einen Drilling — drei Karten mit demselben Wert — für einen Bonus.",
        "tut.dc.bonus.explain": "Drei gleiche Karten (ein Drilling) bringen 2 Bonuspunkte, drei aufeinander "
                                "folgende wie 2/3/4 (eine Folge) bringen 1. Codenamen aus zwei oder vier Karten "
                                "bringen nie einen Bonus. 1/1/1 ergibt 3 und ging nach Egoistrien: 1 Einflusspunkt "
                                "und 2 Bonuspunkte.",
        "tut.dc.bonus.hint": "Ein Drilling sind drei Karten mit demselben Wert: Du hast drei Einsen.",
        "tut.dc.unique.title": "Jeder Codename nur einmal",
        "tut.dc.unique.task": "Bruno hat den Codenamen 2/5 schon nach Protzland geschickt. Schicke trotzdem einen "
                              "weiteren Agenten nach Protzland (Ziffernsumme 7).",
        "tut.dc.unique.explain": "Jeder Codename darf im ganzen Spiel nur einmal verwendet werden, von welcher "
                                 "Familie auch immer. Eine 0 ändert die Summe nicht, ergibt aber einen neuen "
                                 "Codenamen: 0/2/5 ist nicht 2/5. Dein Agent ist der zweite in Protzland: 2 "
                                 "Einflusspunkte.",
        "tut.dc.unique.hint": "Protzland nimmt die Summe 7, und 2/5 ist schon vergeben. Eine 0 ändert den "
                              "Codenamen, nicht aber die Summe.",
        "tut.dc.blocked.title": "Blockiert",
        "tut.dc.blocked.task": "Deine Hand bestand aus vier Nullen: kein Codename (die Summe 0 nimmt kein Land). "
                               "Darum warst du blockiert: Du hast deine Hand gezeigt und offen gezogen, bis ein "
                               "Codename möglich wurde — eine 5. Jetzt musst du einen Agenten schicken: Werde mit "
                               "0/0/0/5 alle Nullen los.",
        "tut.dc.blocked.explain": "Eine blockierte Familie zeigt ihre Hand und zieht offen, bis sie spielen kann; "
                                  "alle kennen diese Karten nun. Wäre dein Stapel vorher leer gewesen, wärst du "
                                  "mit deinen Punkten ausgeschieden. 0/0/0/5 ergibt 5 und ging nach Abrakadabria.",
        "tut.dc.blocked.hint": "Spiele alle vier Karten als einen Codenamen: 0/0/0/5 (Summe 5, Abrakadabria).",
        "tut.dc.majority.title": "Mehrheiten am Ende",
        "tut.dc.majority.task": "Bruno und Carla sind ausgeschieden, und dein Stapel ist leer: Das ist der letzte "
                                "Agent des Spiels. Bruno führt in Schwadronien (Summen 9 bis 12) mit 2 Agenten gegen "
                                "deinen einen. Zieh dort mit Bruno gleich.",
        "tut.dc.majority.explain": "Wenn niemand mehr einen Agenten schicken kann, endet das Spiel, und jedes Land "
                                   "gibt die eigenen Mehrheitspunkte der Familie mit den meisten Agenten dort. Bei "
                                   "Gleichstand an der Spitze erhält jede beteiligte Familie die vollen Punkte (die "
                                   "Voreinstellung; ein Tisch kann auch Teilen oder gar keine Punkte wählen). Du und "
                                   "Bruno erhaltet beide die 10 Punkte von Schwadronien.",
        "tut.dc.majority.hint": "Schwadronien nimmt die Summen 9 bis 12: Welcher deiner Codenamen ergibt 9?",
    },
}

TUTORIAL: Final[Tutorial[DonCarloState, DonCarloAction, DonCarloView]] = Tutorial(
    game=GAME,
    title=Message("tut.dc.title"),
    intro=Message("tut.dc.intro"),
    steps=STEPS,
    names=NAMES,
    options=options_of,
    catalogue=CATALOGUE,
)
