"""Mafia Legend tutorial: six steps, each a position from the scenario builder (spec §20).

The learner is seat 0 (Ana, the Moretti family) at a table of four, January. A step's position
is ``setup.scenario`` (or ``setup.at_month_end``) with the moves leading to the decision applied
by the engine. Cards are named by the game's own messages (``names.card``: "Whiskeykiste
(T06)"), the rest is this module's catalogue (``tut.ml.*``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from tablero.core.messages import Catalogue, Message, Param
from tablero.core.tutorial import Step, Tutorial
from tablero.games.mafia.actions import MLAction, parse
from tablero.games.mafia.names import card
from tablero.games.mafia.rules import GAME
from tablero.games.mafia.setup import scenario
from tablero.games.mafia.state import MafiaState
from tablero.games.mafia.view import MafiaView

NAMES: Final = ("Ana", "Bruno", "Carla", "Diego")


def options_of(state: MafiaState) -> Mapping[str, object]:
    """The options of a position (seat 0 starts, as in every scenario)."""
    return {"start_seat": 0, "families": ",".join(state.family), "variant": state.variant,
            "missions": state.missions, "bonus_basis": state.bonus_basis}


def _apply(s: MafiaState, seat: int, *texts: str) -> MafiaState:
    for t in texts:
        GAME.apply(s, seat, parse(t))
    return s


def _ashtray() -> MafiaState:
    return scenario(hands={0: ["A04", "D02", "T01", "T02", "T04", "T11"]}, screens={0: ["G2", "G3"]})


def _job_card() -> MafiaState:
    s = scenario(phase=2, job="J05", hands={0: ["T06", "A04", "T11", "D02"]}, grid={0: {"job": ["T01"]}},
                 screens={0: ["G2", "G1"]})
    return _apply(s, 0, "disc none")


def _attempt() -> MafiaState:
    s = scenario(phase=2, job="J05", hands={0: ["A04", "T11", "D02"]}, grid={0: {"job": ["T01", "T06"]}},
                 screens={0: ["G2", "G1"]})
    return _apply(s, 0, "disc none", "end_plays")


def _attack() -> MafiaState:
    s = scenario(phase=2, grid={1: {"k2": ["G2", "G3"]}}, hands={0: ["A01", "A04", "T11"], 1: ["T12"]},
                 screens={0: ["G2"]})
    return _apply(s, 0, "disc none")


def _defend() -> MafiaState:
    # Bruno's turn: he attacks Ana face up and has it resolved at once; Ana is asked to defend.
    s = scenario(turn=1, grid={0: {"k1": ["G3"]}}, hands={0: ["D02", "T11"], 1: ["A05", "T12"]},
                 screens={0: ["G2"]})
    return _apply(s, 1, "disc none", "play A05 hand atk:0 up now")


def _month_end() -> MafiaState:
    # The last turn of March's phase 3 is Ana's; her $2 lies in K1 under the Bürgermeister, Bruno's $5 too.
    s = scenario(order=[1, 2, 3, 0], turn=3, phase=3, month=3, row=("P1", "S2", "W3", "R4"),
                 grid={0: {"k1": ["S:G2"]}, 1: {"k1": ["G3", "G2"]}}, screens={0: ["G5"]},
                 hands={0: ["T11", "T12"]})
    return _apply(s, 0, "disc none")


def _step(name: str, position: Callable[[], MafiaState], accept: str,
          follow: tuple[tuple[int, str], ...] = (), **params: Param) -> Step[MafiaState]:
    return Step(id=name, position=position, accept=frozenset({accept}), follow=follow,
                title=Message(f"tut.ml.{name}.title"), task=Message(f"tut.ml.{name}.task", **params),
                explain=Message(f"tut.ml.{name}.explain", **params), hint=Message(f"tut.ml.{name}.hint", **params))


STEPS: Final[tuple[Step[MafiaState], ...]] = (
    _step("ashtray", _ashtray, "disc ashtray_actions"),
    _step("job_card", _job_card, "play T06 hand job", card=card("T06"), job=card("J05"), other=card("T01")),
    _step("attempt", _attempt, "job_attempt", job=card("J05")),
    _step("attack", _attack, "play A01 hand atk:1 up now", follow=((1, "no_defence"),), card=card("A01")),
    _step("defend", _defend, "defend D02", card=card("D02"), attack=card("A05")),
    _step("month_end", _month_end, "play G5 screen k1", follow=((0, "end_plays"),), character=card("P1")),
)

CATALOGUE: Final[Catalogue] = {
    "en": {
        "tut.ml.title": "Learn Mafia Legend",
        "tut.ml.intro": "You are Ana, head of the Moretti family, in New York, 1930. Win characters, jobs and "
                        "power to be the first with 50 victory points (VP). A month has three phases; in each "
                        "phase everyone takes one turn: a disc, up to two cards, a job attempt, drawing back.",
        "tut.ml.ashtray.title": "A disc on the ashtray",
        "tut.ml.ashtray.task": "Your turn starts with an optional disc. Put one on the ashtray and draw 3 action "
                               "cards.",
        "tut.ml.ashtray.explain": "Only the first disc on the ashtray each month earns something: 1 money card or 3 "
                                  "action cards. A disc can also protect you from attacks for the month, in front "
                                  "of your plaque. You have 6 discs for the whole game, and every disc placed is "
                                  "gone at the month end: you have 5 left.",
        "tut.ml.ashtray.hint": "Choose the ashtray with 3 action cards.",
        "tut.ml.job_card.title": "Cards for the job",
        "tut.ml.job_card.task": "The open job {job} asks for a vehicle and liquor. Your job field already holds "
                                "the vehicle {other}. Play {card}, a card with liquor, from your hand into your "
                                "job field.",
        "tut.ml.job_card.explain": "You may play up to two cards a turn, face down into your own fields: the job "
                                   "field, or a field under a character. Your job field now holds a vehicle and "
                                   "liquor — every tag the job asks for.",
        "tut.ml.job_card.hint": "Play {card} into your job field.",
        "tut.ml.attempt.title": "Doing the job",
        "tut.ml.attempt.task": "Your job field holds a vehicle and liquor, the tags of {job}. Attempt the job now.",
        "tut.ml.attempt.explain": "Cards whose tags cover the job fulfil it without dice: +5 VP, and money cards — "
                                  "the job's 2 plus the dollar on the Whiskeykiste. You keep the job card, and a new "
                                  "job is turned up. Without the tags you would roll a W8 per dice symbol and need "
                                  "the job's sum; a failure costs turns.",
        "tut.ml.attempt.hint": "Attempt the job: the tags are complete, no dice needed.",
        "tut.ml.attack.title": "An attack",
        "tut.ml.attack.task": "Bruno has money in the K2 field. Attack Bruno with {card}: it has the eye, so it may "
                              "go face up, and you may have it resolved now.",
        "tut.ml.attack.explain": "An attack goes into the opponent's attack field, one per field; face down it "
                                "waits for the month end, face up (only with the eye) you choose now or the month "
                                "end. Bruno did not defend, so the raid succeeded: Bruno's money in K2 went to the "
                                "discard pile.",
        "tut.ml.attack.hint": "Play {card} face up into Bruno's attack field, resolved now.",
        "tut.ml.defend.title": "A defence",
        "tut.ml.defend.task": "Bruno attacks you face up with {attack}, resolved now: strength 3. Defend with "
                              "{card}: strength 4.",
        "tut.ml.defend.explain": "A defence card must cover the attack's symbol. The attack succeeds only if it is "
                                 "stronger than the defence: 3 against 4, so it failed and both cards are "
                                 "discarded. A defence played as a reaction costs you no card play.",
        "tut.ml.defend.hint": "Defend with {card}.",
        "tut.ml.month_end.title": "The month end",
        "tut.ml.month_end.task": "This is the last turn of March. In column K1 you have $2 under {character}, who "
                                 "needs at least $7 as a bribe; Bruno has $5 there. Play your $5 from behind your "
                                 "screen into K1.",
        "tut.ml.month_end.explain": "At the month end the grid is revealed column by column. Under a character, "
                                    "money and fists add up; whoever reaches the bribe or blackmail minimum and "
                                    "has the most wins the character. Your $7 beat Bruno's $5: {character} is "
                                    "yours, with its bonus — an event you choose for next month. The player with "
                                    "the most new characters this month scores the month's number in VP (3 in "
                                    "March).",
        "tut.ml.month_end.hint": "Play the $5 from behind your screen into K1.",
    },
    "de": {
        "tut.ml.title": "Mafia Legend lernen",
        "tut.ml.intro": "Du bist Ana, Oberhaupt der Familie Moretti, New York 1930. Gewinne Charaktere, Jobs und "
                        "Macht, um als Erste 50 Siegpunkte (SP) zu haben. Ein Monat hat drei Phasen; in jeder Phase "
                        "ist jede Familie einmal am Zug: eine Scheibe, bis zu zwei Karten, ein Jobversuch, "
                        "Nachziehen.",
        "tut.ml.ashtray.title": "Eine Scheibe auf den Aschenbecher",
        "tut.ml.ashtray.task": "Dein Zug beginnt mit einer freiwilligen Scheibe. Setze sie auf den Aschenbecher "
                               "und ziehe 3 Aktionskarten.",
        "tut.ml.ashtray.explain": "Nur die erste Scheibe eines Monats auf dem Aschenbecher bringt etwas: 1 "
                                  "Geldkarte oder 3 Aktionskarten. Vor deinem Täfelchen schützt eine Scheibe dich "
                                  "stattdessen einen Monat lang vor Angriffen. Du hast 6 Scheiben für das ganze "
                                  "Spiel, und jede gesetzte ist am Monatsende verbraucht: Dir bleiben 5.",
        "tut.ml.ashtray.hint": "Wähle den Aschenbecher mit 3 Aktionskarten.",
        "tut.ml.job_card.title": "Karten für den Job",
        "tut.ml.job_card.task": "Der offene Job {job} verlangt ein Fahrzeug und Schnaps. In deinem Jobfeld liegt "
                                "schon das Fahrzeug {other}. Spiele {card}, eine Karte mit Schnaps, von der Hand in "
                                "dein Jobfeld.",
        "tut.ml.job_card.explain": "Du spielst bis zu zwei Karten pro Zug verdeckt in deine eigenen Felder: das "
                                   "Jobfeld oder ein Feld unter einem Charakter. Dein Jobfeld hat jetzt ein Fahrzeug "
                                   "und Schnaps — alles, was der Job verlangt.",
        "tut.ml.job_card.hint": "Spiele {card} in dein Jobfeld.",
        "tut.ml.attempt.title": "Den Job erledigen",
        "tut.ml.attempt.task": "Dein Jobfeld hat ein Fahrzeug und Schnaps, die Merkmale von {job}. Versuche dich "
                               "jetzt am Job.",
        "tut.ml.attempt.explain": "Karten, deren Merkmale den Job abdecken, erfüllen den Job ohne Würfel: +5 SP und "
                                  "Geldkarten — die 2 des Jobs und der Dollar auf der Whiskeykiste. Die Jobkarte "
                                  "behältst du, und ein neuer Job wird aufgedeckt. Ohne die Merkmale würfelst du "
                                  "einen W8 pro Würfelsymbol und brauchst die Summe des Jobs; ein Fehlschlag "
                                  "kostet Züge.",
        "tut.ml.attempt.hint": "Versuche dich am Job: Die Merkmale sind vollständig, Würfel braucht es nicht.",
        "tut.ml.attack.title": "Ein Angriff",
        "tut.ml.attack.task": "Bruno hat Geld im Feld K2. Greife Bruno mit {card} an: Die Karte hat das Auge, "
                              "darf also offen liegen, und du darfst sie sofort auswerten lassen.",
        "tut.ml.attack.explain": "Ein Angriff kommt in das Angriffsfeld des Gegners, einer pro Feld; verdeckt wartet "
                                 "er auf das Monatsende, offen (nur mit dem Auge) wählst du: sofort oder am "
                                 "Monatsende. Bruno hat sich nicht verteidigt, die Razzia gelang: Brunos Geld in K2 "
                                 "kam auf den Ablagestapel.",
        "tut.ml.attack.hint": "Spiele {card} offen in Brunos Angriffsfeld, sofort ausgewertet.",
        "tut.ml.defend.title": "Eine Verteidigung",
        "tut.ml.defend.task": "Bruno greift dich offen mit {attack} an, sofort ausgewertet: Stärke 3. Verteidige "
                              "dich mit {card}: Stärke 4.",
        "tut.ml.defend.explain": "Eine Verteidigungskarte muss das Symbol des Angriffs abdecken. Der Angriff gelingt "
                                 "nur, wenn er stärker ist als die Verteidigung: 3 gegen 4, also scheiterte er, und "
                                 "beide Karten kommen auf den Ablagestapel. Eine Verteidigung als Reaktion kostet "
                                 "dich kein Ausspielen.",
        "tut.ml.defend.hint": "Verteidige dich mit {card}.",
        "tut.ml.month_end.title": "Das Monatsende",
        "tut.ml.month_end.task": "Das ist der letzte Zug im März. In Spalte K1 liegen von dir $2 unter "
                                 "{character}, der mindestens $7 Bestechung verlangt; Bruno hat dort $5. Spiele "
                                 "deine $5 von hinter dem Sichtschirm nach K1.",
        "tut.ml.month_end.explain": "Am Monatsende wird das Raster Spalte für Spalte aufgedeckt. Unter einem "
                                    "Charakter zählen Geld und Fäuste zusammen; wer das Mindestgebot für "
                                    "Bestechung oder Erpressung erreicht und am meisten hat, gewinnt den Charakter. "
                                    "Deine $7 schlagen Brunos $5: {character} gehört dir, samt Bonus — ein "
                                    "Ereignis, das du für den nächsten Monat wählst. Wer in diesem Monat die meisten "
                                    "neuen Charaktere hat, bekommt SP in Höhe der Monatszahl (im März 3).",
        "tut.ml.month_end.hint": "Spiele die $5 von hinter dem Sichtschirm nach K1.",
    },
}

TUTORIAL: Final[Tutorial[MafiaState, MLAction, MafiaView]] = Tutorial(
    game=GAME,
    title=Message("tut.ml.title"),
    intro=Message("tut.ml.intro"),
    steps=STEPS,
    names=NAMES,
    options=options_of,
    catalogue=CATALOGUE,
)
