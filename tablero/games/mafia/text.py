"""Mafia Legend words: message catalogue (German, English), descriptions, the table picture."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import CHANCE, Player, Viewer
from tablero.games.mafia import data, names
from tablero.games.mafia.actions import MONEY_MOVES, MLAction
from tablero.games.mafia.data import ACTIONS, CHARS, JOBS_BY_ID, MONEY
from tablero.games.mafia.moves import redact_action
from tablero.games.mafia.state import MafiaState
from tablero.games.mafia.view import HIDDEN, MafiaView

# ---------------------------------------------------------------------------- names (names.py)
_MONTHS_EN: Final = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
                     "October", "November", "December")
_MONTHS_DE: Final = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
                     "Oktober", "November", "Dezember")
_NAMES: Final[dict[str, str]] = {
    # the same in both languages: printed names keep their German form, as on the board
    "ml.card": "{name} ({code})",
    "ml.money": "${value}",
    **{f"ml.fam.{f}": name for f, name in data.FAMILY_NAMES.items()},
    **{f"ml.pw.{p.id}": p.name for p in data.POWERS},
}

_EN: dict[str, str] = {
    **_NAMES,
    **{f"ml.mon.{i + 1}": m for i, m in enumerate(_MONTHS_EN)},
    "ml.nothing": "nothing",
    "ml.fld.job": "job field",
    "ml.fld.k": "K{k} field",
    "ml.fld.atk": "attack field of {target_seat}",
    "ml.col.atk": "attack column",
    "ml.col.job": "job column",
    "ml.col.k": "column K{k}",
    "ml.src.hand": "from the hand",
    "ml.src.screen": "from behind the screen",
    "ml.to.hand": "into the hand",
    "ml.to.screen": "behind the screen",
    "ml.deck.A": "action deck",
    "ml.deck.M": "money deck",
    "ml.deck.C": "character deck",
    "ml.deck.J": "job deck",
    "ml.deck.E": "event deck",
    "ml.deck.X": "mission deck",
    "ml.unseen.A": "an action card",
    "ml.unseen.M": "a money card",
    "ml.unseen.E": "an event card",
    "ml.unseen.X": "a mission card",
    "ml.ab.geldwaesche": "Geldwäsche ({n:plural:1 money card|# money cards})",
    "ml.ab.spitzel": "Spitzel (look at a column, take up to {n:plural:1 own card|# own cards} back)",
    "ml.ab.grossoffensive": "Großoffensive (up to {n} cards this turn)",
    "ml.timing.now": "resolved now",
    "ml.timing.me": "resolved at month end",
    "ml.score": "{seat} {vp} VP",
    "ml.go.winners": "{seats:plural:the winner is|the winners are} {seats}",
    "ml.go.nobody": "nobody wins, since nobody has fulfilled a mission",
    # ------------------------------------------------------------------------ the log
    "ml.start": "{seat} takes the poker chip and starts",
    "ml.family": "{seat} leads the {family} family",
    "ml.reshuffle": "The {deck} is empty and is reshuffled from its discard pile",
    "ml.draw_lost": "The {deck} is empty: {count:plural:1 card|# cards} cannot be drawn",
    "ml.draw": "{seat} draws {card}",
    "ml.draw.hidden": "{seat} draws {card}",
    "ml.mission": "{seat} receives the mission {card}",
    "ml.mission.hidden": "{seat} receives a secret mission",
    "ml.row": "{card} is turned up in column K{slot}",
    "ml.job": "New open job: {card}",
    "ml.event_drawn": "{seat} draws the event {card}",
    "ml.event_drawn.hidden": "{seat} draws an event card",
    "ml.roll": "Die roll: {value}",
    "ml.month": "Month {month}: {name}",
    "ml.turn": "{seat}'s turn ({month_name}, phase {phase})",
    "ml.sit_out": "{seat} sits out this turn",
    "ml.disc.none": "{seat} places no disc",
    "ml.disc.ashtray_money": "{seat} puts a disc on the ashtray and draws {n:plural:1 money card|# money cards}",
    "ml.disc.ashtray_actions": "{seat} puts a disc on the ashtray and draws {n:plural:1 action card|# action cards}",
    "ml.disc.protect": "{seat} puts a disc in front of the plaque: safe from attacks this month",
    "ml.to_hand": "{seat} takes {card} from behind the screen into the hand",
    "ml.to_hand.hidden": "{seat} takes a money card from behind the screen into the hand",
    "ml.to_screen": "{seat} puts {card} from the hand behind the screen",
    "ml.to_screen.hidden": "{seat} puts a money card from the hand behind the screen",
    "ml.ability": "{seat} uses the family ability {ability}",
    "ml.attack_up": "{seat} attacks {target_seat} face up with {card}, {timing}",
    "ml.attack_down": "{seat} attacks {target_seat} with a face-down card",
    "ml.play_down": "{seat} plays {card} {source} into the {field}",
    "ml.play_down.hidden": "{seat} plays a card {source} into the {field}",
    "ml.end_plays": "{seat} is done playing cards",
    "ml.job_attempt": "{seat} attempts the job now",
    "ml.discard": "Hand limit: {seat} discards {card}",
    "ml.discard_secret": "{seat} picks {card} {source} to discard",
    "ml.discard_secret.hidden": "{seat} picks a card to discard",
    "ml.discards": "{seat} discards {cards}{vp:select:0=|other= and pays {vp} VP}",
    "ml.guardian": "{seat} uses Schutzengel: the attack fails",
    "ml.defend": "{seat} defends with {card}",
    "ml.no_defence": "{seat} does not defend",
    "ml.reveal_attack": "The attack of {seat} on {target_seat} is revealed: {card}",
    "ml.star_ignored": "{card} does not count: only the first star card of a month end counts",
    "ml.immune": "{target_seat} holds the power card {power} and is immune to {card}",
    "ml.attack_failed": "The attack of {seat} on {target_seat} with {card} fails",
    "ml.attack_succeeds": "The attack of {seat} on {target_seat} with {card} succeeds",
    "ml.scandal": "{card}: {target_seat} loses {loss} VP, {seat} gains {gain} VP",
    "ml.raided": "Raid on the {field} of {target_seat}: {cards} discarded",
    "ml.hit": "{target_seat} loses {card}",
    "ml.handed_over": "{target_seat} hands {card} over to {seat}",
    "ml.job_reveal": "Job field of {seat} revealed: {cards}",
    "ml.job_no_dice": "The cards of {seat} neither fulfil the job nor give a die: the attempt ends",
    "ml.job_abandon": "{seat} abandons the job attempt",
    "ml.job_roll_ok": "{seat} rolls {total} (needs {target}): success",
    "ml.job_failed": "{seat} rolls {total} (needs {target}): failure, sits out {sitout:plural:1 phase|# phases}",
    "ml.job_done": "{seat} completes the job {job}: +{vp} VP and {money:plural:1 money card|# money cards}",
    "ml.reroll": "{seat} rerolls {count:plural:1 die|# dice} (Gezinkte Würfel)",
    "ml.family_ties": "{seat} uses Familienbande: qualifies in this column and wins every tie",
    "ml.spitzel_column": "{seat} looks at the {column} (Spitzel)",
    "ml.spitzel_seen": "{seat} sees in the {column}: {cards}",
    "ml.spitzel_take": "{seat} takes a card back from the {field} {to}",
    "ml.month_end": "End of {month_name}: the month is scored",
    "ml.column_reveal": "Column K{slot} is revealed; at stake: {card}",
    "ml.field": "{seat} in column K{slot}: {cards}",
    "ml.no_winner": "Nobody wins {card} in column K{slot}",
    "ml.win_character": "{seat} wins {card}",
    "ml.gift": "{seat} gets the gift: +{vp} VP",
    "ml.set": "{seat} completes the set {set}: +{vp} VP",
    "ml.event_kept": "{seat} keeps the event {card} for next month",
    "ml.power": "{seat} now holds the power card {power}",
    "ml.power_lost": "{seat} loses the power card {power}; nobody holds it now",
    "ml.power_vp": "{seat} scores {vp} VP for the power card {power}",
    "ml.monthly_bonus": "Monthly bonus: {seat} +{vp} VP",
    "ml.job_rotated": "Nobody completed {job}: it goes under the job deck",
    "ml.politik": "{seat} takes place {position} in the turn order (power card Politik)",
    "ml.order": "Turn order: {seats}",
    "ml.new_month": "{events:select:ml.nothing=No event this month|other=Events this month: {events}}",
    "ml.june_reshuffle": "June: the action, money, character and job decks are reshuffled with their discard piles",
    "ml.game_over": "Game over: {result}. Final VP: {scores}",
    # ------------------------------------------------------------------------ the moves
    "ml.actor": "{seat}: {what}",
    "ml.chance.draw": "{card} is drawn",
    "ml.o.family": "lead the {family} family",
    "ml.o.disc.none": "place no disc",
    "ml.o.disc.ashtray_money": "put a disc on the ashtray: draw {n:plural:1 money card|# money cards}",
    "ml.o.disc.ashtray_actions": "put a disc on the ashtray: draw {n:plural:1 action card|# action cards}",
    "ml.o.disc.protect": "put a disc in front of the plaque: safe from attacks this month",
    "ml.o.to_hand": "take {card} from behind the screen into the hand",
    "ml.o.to_hand.hidden": "take a money card from behind the screen into the hand",
    "ml.o.to_screen": "put {card} from the hand behind the screen",
    "ml.o.to_screen.hidden": "put a money card from the hand behind the screen",
    "ml.o.ability": "use {ability}",
    "ml.o.defend": "defend with {card}",
    "ml.o.attack_up": "attack {target_seat} face up with {card}, {timing}",
    "ml.o.attack_down": "attack {target_seat} face down with {card}",
    "ml.o.attack_down.hidden": "attack {target_seat} with a face-down card",
    "ml.o.timing.now": "resolve now",
    "ml.o.timing.me": "resolve at month end",
    "ml.o.play_field": "play {card} {source} into the {field}",
    "ml.o.play_field.hidden": "play a card {source} into the {field}",
    "ml.o.end_plays": "play no more cards",
    "ml.o.job_attempt": "attempt the job now",
    "ml.o.job_skip": "do not attempt the job",
    "ml.o.spitzel_column": "look at the {column}",
    "ml.o.spitzel_take": "take {card} back from the {field} {to}",
    "ml.o.spitzel_take.hidden": "take a card back from the {field} {to}",
    "ml.o.spitzel_done": "take nothing more back",
    "ml.o.guardian.yes": "use Schutzengel: the attack fails",
    "ml.o.guardian.no": "do not use Schutzengel",
    "ml.o.no_defence": "do not defend",
    "ml.o.raid": "raid the {field} of {target_seat}",
    "ml.o.hit": "take out {card} of {target_seat} (the character is discarded)",
    "ml.o.hand_over": "hand {card} over to {receiver_seat}",
    "ml.o.job_roll": "roll {n:plural:1 die|# dice}",
    "ml.o.job_abandon": "abandon the job",
    "ml.o.reroll": "reroll {dice:plural:the die showing|the dice showing} {dice}",
    "ml.o.no_reroll": "keep the roll",
    "ml.o.family_ties.yes": "use Familienbande in this column: qualify and win every tie",
    "ml.o.family_ties.no": "do not use Familienbande",
    "ml.o.choose_event": "keep the event {card}",
    "ml.o.a_draw.yes": "draw {n:plural:1 action card|# action cards}",
    "ml.o.a_draw.no": "draw nothing",
    "ml.o.discard": "discard {card}",
    "ml.o.set_aside": "discard {card} {source}",
    "ml.o.set_aside.hidden": "pick a card to discard",
    "ml.o.politik": "take place {position} in the turn order",
    # ------------------------------------------------------------------------ the lobby's options
    "option.variant": "Game",
    "option.variant.help": "The beginner game leaves out the star cards, Dementi, events, the magnifier and all "
                           "abilities; the advanced game plays every rule.",
    "option.variant.advanced": "Advanced game",
    "option.variant.beginner": "Beginner game",
    "option.missions": "Godfather missions",
    "option.missions.help": "Everyone gets a secret mission and can only win after fulfilling it "
                            "(advanced game only).",
    "option.start_seat": "Start player",
    "option.start_seat.help": "Who holds the poker chip and takes the first turn.",
    "option.start_seat.random": "Drawn at random",
    "option.families": "Families",
    "option.families.help": "Each player chooses a family at the start (its ability differs), or the families "
                            "are given in seat order: Moretti, Rinaldi, Orsini, Lombardo.",
    "option.families.choose": "Players choose",
    "option.families.seats": "Given in seat order",
    "option.bonus_basis": "Monthly bonus counts",
    "option.bonus_basis.help": "The monthly bonus goes to the player with the most characters: counting those "
                               "won this month, or all owned.",
    "option.bonus_basis.month": "Characters won this month",
    "option.bonus_basis.total": "All characters owned",
    # ------------------------------------------------------------------------ the terminal's picture
    "ml.ui.header": "Mafia Legend · {month_name} · phase {phase} · goal {goal} VP",
    "ml.ui.row": "Character row: {cards}",
    "ml.ui.job": "Open job: {job}",
    "ml.ui.jobinfo": "{job} (dice sum {dice}, or the cards {tags}; {vp} VP, ${dollar}, failure: sits out "
                     "{fail:plural:1 phase|# phases})",
    "ml.ui.events": "Events this month: {events} · next month: {next}",
    "ml.ui.powers": "Power cards: {powers}",
    "ml.ui.player": "{seat} ({family}): {vp} VP · hand {hand} · screen {screen} · discs {discs}{extra}",
    "ml.ui.you": "Your hand: {actions} · money in hand: {money} · behind the screen: {screen}",
    "ml.ui.mission": "Your mission: {mission}",
    "ml.ui.sitout": " · sits out {n:plural:1 phase|# phases}",
    "ml.ui.attack": "attack field",
    "ml.ui.disc": "disc",
    "ml.ui.job_field": "job",
    "ml.ui.over": "Game over. {seats:plural:Winner|Winners}: {seats}",
    "ml.ui.nobody": "Game over. Nobody wins.",
}

_DE: dict[str, str] = {
    **_NAMES,
    **{f"ml.mon.{i + 1}": m for i, m in enumerate(_MONTHS_DE)},
    "ml.nothing": "nichts",
    "ml.fld.job": "Jobfeld",
    "ml.fld.k": "Feld K{k}",
    "ml.fld.atk": "Angriffsfeld von {target_seat}",
    "ml.col.atk": "Angriffsspalte",
    "ml.col.job": "Jobspalte",
    "ml.col.k": "Spalte K{k}",
    "ml.src.hand": "von der Hand",
    "ml.src.screen": "vom Schirm",
    "ml.to.hand": "auf die Hand",
    "ml.to.screen": "hinter den Schirm",
    "ml.deck.A": "Aktionsstapel",
    "ml.deck.M": "Geldstapel",
    "ml.deck.C": "Charakterstapel",
    "ml.deck.J": "Jobstapel",
    "ml.deck.E": "Ereignisstapel",
    "ml.deck.X": "Auftragsstapel",
    "ml.unseen.A": "eine Aktionskarte",
    "ml.unseen.M": "eine Geldkarte",
    "ml.unseen.E": "eine Ereigniskarte",
    "ml.unseen.X": "eine Auftragskarte",
    "ml.ab.geldwaesche": "Geldwäsche ({n:plural:eine Geldkarte|# Geldkarten})",
    "ml.ab.spitzel": "Spitzel (eine Spalte ansehen, bis zu {n:plural:eine eigene Karte|# eigene Karten} "
                     "zurücknehmen)",
    "ml.ab.grossoffensive": "Großoffensive (bis zu {n} Karten in diesem Zug)",
    "ml.timing.now": "Auswertung sofort",
    "ml.timing.me": "Auswertung am Monatsende",
    "ml.score": "{seat} {vp} SP",
    "ml.go.winners": "{seats:plural:es gewinnt|es gewinnen} {seats}",
    "ml.go.nobody": "niemand gewinnt, denn niemand hat einen Auftrag erfüllt",
    # ------------------------------------------------------------------------ the log
    "ml.start": "{seat} erhält den Pokerchip und beginnt",
    "ml.family": "{seat} führt die Familie {family}",
    "ml.reshuffle": "Der {deck} ist leer und wird aus dem Ablagestapel neu gemischt",
    "ml.draw_lost": "Der {deck} ist leer: {count:plural:eine Karte kann|# Karten können} nicht gezogen werden",
    "ml.draw": "{seat} zieht {card}",
    "ml.draw.hidden": "{seat} zieht {card}",
    "ml.mission": "{seat} erhält den Auftrag {card}",
    "ml.mission.hidden": "{seat} erhält einen geheimen Auftrag",
    "ml.row": "{card} wird in Spalte K{slot} aufgedeckt",
    "ml.job": "Neuer offener Job: {card}",
    "ml.event_drawn": "{seat} zieht das Ereignis {card}",
    "ml.event_drawn.hidden": "{seat} zieht eine Ereigniskarte",
    "ml.roll": "Würfelwurf: {value}",
    "ml.month": "Monat {month}: {name}",
    "ml.turn": "{seat} ist am Zug ({month_name}, Phase {phase})",
    "ml.sit_out": "{seat} setzt diesen Zug aus",
    "ml.disc.none": "{seat} setzt keine Scheibe",
    "ml.disc.ashtray_money": "{seat} setzt eine Scheibe auf den Aschenbecher und zieht "
                             "{n:plural:eine Geldkarte|# Geldkarten}",
    "ml.disc.ashtray_actions": "{seat} setzt eine Scheibe auf den Aschenbecher und zieht "
                               "{n:plural:eine Aktionskarte|# Aktionskarten}",
    "ml.disc.protect": "{seat} setzt eine Scheibe vor das Täfelchen: diesen Monat vor Angriffen geschützt",
    "ml.to_hand": "{seat} nimmt {card} vom Schirm auf die Hand",
    "ml.to_hand.hidden": "{seat} nimmt eine Geldkarte vom Schirm auf die Hand",
    "ml.to_screen": "{seat} legt {card} von der Hand hinter den Schirm",
    "ml.to_screen.hidden": "{seat} legt eine Geldkarte von der Hand hinter den Schirm",
    "ml.ability": "{seat} setzt die Familienfähigkeit {ability} ein",
    "ml.attack_up": "{seat} greift {target_seat} offen mit {card} an, {timing}",
    "ml.attack_down": "{seat} greift {target_seat} mit einer verdeckten Karte an",
    "ml.play_down": "{seat} spielt {card} {source} ins {field}",
    "ml.play_down.hidden": "{seat} spielt eine Karte {source} ins {field}",
    "ml.end_plays": "{seat} spielt keine weiteren Karten",
    "ml.job_attempt": "{seat} versucht sich jetzt am Job",
    "ml.discard": "Handkartenlimit: {seat} wirft {card} ab",
    "ml.discard_secret": "{seat} wählt {card} {source} zum Abwerfen",
    "ml.discard_secret.hidden": "{seat} wählt eine Karte zum Abwerfen",
    "ml.discards": "{seat} wirft {cards} ab{vp:select:0=|other= und zahlt {vp} SP}",
    "ml.guardian": "{seat} setzt Schutzengel ein: der Angriff scheitert",
    "ml.defend": "{seat} wehrt mit {card} ab",
    "ml.no_defence": "{seat} wehrt nicht ab",
    "ml.reveal_attack": "Der Angriff von {seat} auf {target_seat} wird aufgedeckt: {card}",
    "ml.star_ignored": "{card} zählt nicht: nur die erste Sternkarte einer Monatswertung zählt",
    "ml.immune": "{target_seat} hält die Machtkarte {power} und ist gegen {card} immun",
    "ml.attack_failed": "Der Angriff von {seat} auf {target_seat} mit {card} scheitert",
    "ml.attack_succeeds": "Der Angriff von {seat} auf {target_seat} mit {card} gelingt",
    "ml.scandal": "{card}: {target_seat} verliert {loss} SP, {seat} erhält {gain} SP",
    "ml.raided": "Razzia im {field} von {target_seat}: {cards} abgeworfen",
    "ml.hit": "{target_seat} verliert {card}",
    "ml.handed_over": "{target_seat} gibt {card} an {seat} ab",
    "ml.job_reveal": "Jobfeld von {seat} aufgedeckt: {cards}",
    "ml.job_no_dice": "Die Karten von {seat} erfüllen den Job nicht und bringen keinen Würfel: der Versuch endet",
    "ml.job_abandon": "{seat} gibt den Jobversuch auf",
    "ml.job_roll_ok": "{seat} würfelt {total} (nötig: {target}): Erfolg",
    "ml.job_failed": "{seat} würfelt {total} (nötig: {target}): Fehlschlag, setzt "
                     "{sitout:plural:eine Phase|# Phasen} aus",
    "ml.job_done": "{seat} erledigt den Job {job}: +{vp} SP und {money:plural:eine Geldkarte|# Geldkarten}",
    "ml.reroll": "{seat} würfelt {count:plural:einen Würfel|# Würfel} neu (Gezinkte Würfel)",
    "ml.family_ties": "{seat} setzt Familienbande ein: qualifiziert sich in dieser Spalte und gewinnt jeden "
                      "Gleichstand",
    "ml.spitzel_column": "{seat} sieht sich die {column} an (Spitzel)",
    "ml.spitzel_seen": "{seat} sieht in der {column}: {cards}",
    "ml.spitzel_take": "{seat} nimmt eine Karte aus dem {field} {to} zurück",
    "ml.month_end": "Ende {month_name}: der Monat wird gewertet",
    "ml.column_reveal": "Spalte K{slot} wird aufgedeckt; es geht um {card}",
    "ml.field": "{seat} in Spalte K{slot}: {cards}",
    "ml.no_winner": "Niemand gewinnt {card} in Spalte K{slot}",
    "ml.win_character": "{seat} gewinnt {card}",
    "ml.gift": "{seat} erhält das Geschenk: +{vp} SP",
    "ml.set": "{seat} vervollständigt das Set {set}: +{vp} SP",
    "ml.event_kept": "{seat} behält das Ereignis {card} für den nächsten Monat",
    "ml.power": "{seat} hält jetzt die Machtkarte {power}",
    "ml.power_lost": "{seat} verliert die Machtkarte {power}; niemand hält sie jetzt",
    "ml.power_vp": "{seat} erhält {vp} SP für die Machtkarte {power}",
    "ml.monthly_bonus": "Monatsbonus: {seat} +{vp} SP",
    "ml.job_rotated": "Niemand hat {job} erledigt: der Job kommt unter den Jobstapel",
    "ml.politik": "{seat} nimmt Platz {position} der Zugreihenfolge ein (Machtkarte Politik)",
    "ml.order": "Zugreihenfolge: {seats}",
    "ml.new_month": "{events:select:ml.nothing=Diesen Monat gilt kein Ereignis"
                    "|other=Ereignisse diesen Monat: {events}}",
    "ml.june_reshuffle": "Juni: Aktions-, Geld-, Charakter- und Jobstapel werden mit ihren Ablagestapeln "
                         "neu gemischt",
    "ml.game_over": "Spielende: {result}. Endstand: {scores}",
    # ------------------------------------------------------------------------ the moves
    "ml.actor": "{seat}: {what}",
    "ml.chance.draw": "{card} wird gezogen",
    "ml.o.family": "die Familie {family} führen",
    "ml.o.disc.none": "keine Scheibe setzen",
    "ml.o.disc.ashtray_money": "Scheibe auf den Aschenbecher: {n:plural:eine Geldkarte|# Geldkarten} ziehen",
    "ml.o.disc.ashtray_actions": "Scheibe auf den Aschenbecher: {n:plural:eine Aktionskarte|# Aktionskarten} "
                                 "ziehen",
    "ml.o.disc.protect": "Scheibe vor das eigene Täfelchen: diesen Monat vor Angriffen geschützt",
    "ml.o.to_hand": "{card} vom Schirm auf die Hand nehmen",
    "ml.o.to_hand.hidden": "eine Geldkarte vom Schirm auf die Hand nehmen",
    "ml.o.to_screen": "{card} von der Hand hinter den Schirm legen",
    "ml.o.to_screen.hidden": "eine Geldkarte von der Hand hinter den Schirm legen",
    "ml.o.ability": "{ability} einsetzen",
    "ml.o.defend": "mit {card} abwehren",
    "ml.o.attack_up": "{target_seat} offen mit {card} angreifen, {timing}",
    "ml.o.attack_down": "{target_seat} verdeckt mit {card} angreifen",
    "ml.o.attack_down.hidden": "{target_seat} mit einer verdeckten Karte angreifen",
    "ml.o.timing.now": "sofort auswerten",
    "ml.o.timing.me": "am Monatsende auswerten",
    "ml.o.play_field": "{card} {source} ins {field} spielen",
    "ml.o.play_field.hidden": "eine Karte {source} ins {field} spielen",
    "ml.o.end_plays": "keine weiteren Karten spielen",
    "ml.o.job_attempt": "den Job jetzt versuchen",
    "ml.o.job_skip": "den Job nicht versuchen",
    "ml.o.spitzel_column": "die {column} ansehen",
    "ml.o.spitzel_take": "{card} aus dem {field} {to} zurücknehmen",
    "ml.o.spitzel_take.hidden": "eine Karte aus dem {field} {to} zurücknehmen",
    "ml.o.spitzel_done": "nichts mehr zurücknehmen",
    "ml.o.guardian.yes": "Schutzengel einsetzen: der Angriff scheitert",
    "ml.o.guardian.no": "Schutzengel nicht einsetzen",
    "ml.o.no_defence": "nicht abwehren",
    "ml.o.raid": "Razzia im {field} von {target_seat}",
    "ml.o.hit": "{card} von {target_seat} ausschalten (der Charakter wird abgeworfen)",
    "ml.o.hand_over": "{card} an {receiver_seat} abgeben",
    "ml.o.job_roll": "{n:plural:einen Würfel|# Würfel} werfen",
    "ml.o.job_abandon": "den Job aufgeben",
    "ml.o.reroll": "{dice:plural:den Würfel|die Würfel} mit {dice} neu würfeln",
    "ml.o.no_reroll": "den Wurf behalten",
    "ml.o.family_ties.yes": "Familienbande in dieser Spalte einsetzen: qualifiziert, gewinnt jeden Gleichstand",
    "ml.o.family_ties.no": "Familienbande nicht einsetzen",
    "ml.o.choose_event": "das Ereignis {card} behalten",
    "ml.o.a_draw.yes": "{n:plural:eine Aktionskarte|# Aktionskarten} ziehen",
    "ml.o.a_draw.no": "nichts ziehen",
    "ml.o.discard": "{card} abwerfen",
    "ml.o.set_aside": "{card} {source} abwerfen",
    "ml.o.set_aside.hidden": "eine Karte zum Abwerfen wählen",
    "ml.o.politik": "Platz {position} der Zugreihenfolge einnehmen",
    # ------------------------------------------------------------------------ the lobby's options
    "option.variant": "Spiel",
    "option.variant.help": "Das Einsteigerspiel lässt Sternkarten, Dementi, Ereignisse, die Lupe und alle "
                           "Fähigkeiten weg; das Fortgeschrittenenspiel spielt alle Regeln.",
    "option.variant.advanced": "Fortgeschrittenenspiel",
    "option.variant.beginner": "Einsteigerspiel",
    "option.missions": "Aufträge des Paten",
    "option.missions.help": "Alle erhalten einen geheimen Auftrag und können erst gewinnen, wenn dieser Auftrag "
                            "erfüllt ist (nur im Fortgeschrittenenspiel).",
    "option.start_seat": "Startspieler",
    "option.start_seat.help": "Wer den Pokerchip erhält und den ersten Zug macht.",
    "option.start_seat.random": "Zufällig",
    "option.families": "Familien",
    "option.families.help": "Alle wählen zu Beginn eine Familie (jede hat eine andere Fähigkeit), oder die "
                            "Familien werden in Sitzreihenfolge vergeben: Moretti, Rinaldi, Orsini, Lombardo.",
    "option.families.choose": "Alle wählen selbst",
    "option.families.seats": "In Sitzreihenfolge vergeben",
    "option.bonus_basis": "Monatsbonus zählt",
    "option.bonus_basis.help": "Den Monatsbonus erhält, wer die meisten Charaktere hat: gezählt werden die in "
                               "diesem Monat gewonnenen oder alle.",
    "option.bonus_basis.month": "In diesem Monat gewonnene Charaktere",
    "option.bonus_basis.total": "Alle eigenen Charaktere",
    # ------------------------------------------------------------------------ the terminal's picture
    "ml.ui.header": "Mafia Legend · {month_name} · Phase {phase} · Ziel {goal} SP",
    "ml.ui.row": "Charakterreihe: {cards}",
    "ml.ui.job": "Offener Job: {job}",
    "ml.ui.jobinfo": "{job} (Würfelsumme {dice} oder die Karten {tags}; {vp} SP, ${dollar}, Fehlschlag: "
                     "setzt {fail:plural:eine Phase|# Phasen} aus)",
    "ml.ui.events": "Ereignisse diesen Monat: {events} · nächsten Monat: {next}",
    "ml.ui.powers": "Machtkarten: {powers}",
    "ml.ui.player": "{seat} ({family}): {vp} SP · Hand {hand} · Schirm {screen} · Scheiben {discs}{extra}",
    "ml.ui.you": "Deine Hand: {actions} · Geld auf der Hand: {money} · hinter dem Schirm: {screen}",
    "ml.ui.mission": "Dein Auftrag: {mission}",
    "ml.ui.sitout": " · setzt {n:plural:eine Phase|# Phasen} aus",
    "ml.ui.attack": "Angriffsfeld",
    "ml.ui.disc": "Scheibe",
    "ml.ui.job_field": "Job",
    "ml.ui.over": "Spielende. Sieger: {seats}",
    "ml.ui.nobody": "Spielende. Niemand gewinnt.",
}

CATALOGUE: Catalogue = {"en": _EN, "de": _DE}


def card_name(c: str) -> str:
    """A card for the terminal's picture: code and name (``A04 Anschlag``), money as ``$3``."""
    if c in MONEY:
        return f"${MONEY[c]}"
    if c in ACTIONS:
        return f"{c} {ACTIONS[c].name}"
    if c in CHARS:
        return f"{c} {CHARS[c].name}"
    if c in JOBS_BY_ID:
        return f"{c} {JOBS_BY_ID[c].name}"
    if c in data.EVENTS:
        return f"{c} {data.EVENTS[c]}"
    if c in data.MISSIONS:
        return f"{c} {data.MISSIONS[c]}"
    return c


def option_message(a: MLAction, player: int, s: MafiaState | None = None) -> Message:
    """A decision as words. ``a`` may be what another seat sees of it (``moves.redact_action``):
    then the hidden card is left out of the words too. ``s`` (the state the decision is taken
    in) adds what the action itself does not say: the raided or hit seat, the dice."""
    k, args = a.kind, a.args
    d = s.decision if s is not None else None
    tables = s.data if s is not None else data.DEFAULT
    if k == "family":
        return Message("ml.o.family", family=names.family(args[0]))
    if k == "disc":
        return Message(f"ml.o.disc.{args[0]}", n=names.disc_draws(tables, args[0]))
    if k in MONEY_MOVES:
        return Message(f"ml.o.{k}", card=names.card(args[0])) if args else Message(f"ml.o.{k}.hidden")
    if k == "play":
        hidden = len(args) == 2
        c, src, where = ("", *args) if hidden else args[:3]
        if where.startswith("atk:"):
            q = int(where[4:])
            if q == player:
                return Message("ml.o.defend", card=names.card(c))
            if len(args) > 3:
                return Message("ml.o.attack_up", card=names.card(c), target_seat=q,
                               timing=Message(f"ml.o.timing.{args[4]}"))
            if hidden:
                return Message("ml.o.attack_down.hidden", target_seat=q)
            return Message("ml.o.attack_down", card=names.card(c), target_seat=q)
        source, field = names.source(src), names.field(where)
        if hidden:
            return Message("ml.o.play_field.hidden", source=source, field=field)
        return Message("ml.o.play_field", card=names.card(c), source=source, field=field)
    if k == "ability":
        return Message("ml.o.ability", ability=names.ability(args[0], tables))
    if k == "a_draw":
        return Message(f"ml.o.a_draw.{args[0]}", n=tables.A_DRAW)
    if k in ("guardian", "family_ties"):
        return Message(f"ml.o.{k}.{args[0]}")
    if k == "spitzel_column":
        return Message("ml.o.spitzel_column", column=names.column(args[0]))
    if k == "spitzel_take":
        if len(args) == 2:
            return Message("ml.o.spitzel_take.hidden", field=names.field(args[0]), to=names.destination(args[1]))
        return Message("ml.o.spitzel_take", card=names.card(args[1]), field=names.field(args[0]),
                       to=names.destination(args[2]))
    if k in ("defend", "choose_event", "discard"):
        return Message(f"ml.o.{k}", card=names.card(args[0]))
    if k == "hit":
        return Message("ml.o.hit", card=names.card(args[0]), target_seat=d.target if d is not None else -1)
    if k == "hand_over":
        return Message("ml.o.hand_over", card=names.card(args[0]), receiver_seat=d.receiver if d is not None else -1)
    if k == "set_aside":
        if not args:
            return Message("ml.o.set_aside.hidden")
        return Message("ml.o.set_aside", card=names.card(args[0]), source=names.source(args[1]))
    if k == "raid":
        return Message("ml.o.raid", field=names.field(args[0]), target_seat=d.target if d is not None else -1)
    if k == "job_roll":
        return Message("ml.o.job_roll", n=d.dice if d is not None else 0)
    if k == "reroll":
        idx = [int(i) for i in args[0].split(",")]
        shown = tuple(s.dice[i] for i in idx) if s is not None and max(idx) < len(s.dice) else tuple(
            i + 1 for i in idx)
        return Message("ml.o.reroll", dice=shown)
    if k == "politik":
        return Message("ml.o.politik", position=int(args[0]))
    return Message(f"ml.o.{k}")


def describe(s: MafiaState, player: Player, a: MLAction, viewer: Viewer) -> Message:
    """``player`` doing ``a`` as ``viewer`` may see it (what ``redact_action`` leaves of it)."""
    seen = redact_action(s, player, a, viewer)
    if player == CHANCE:
        d = s.decision
        if seen.kind == "draw":
            if not seen.args:
                deck = d.deck if d is not None else "A"
                return Message("ml.draw.hidden", seat=d.seat if d is not None else -1, card=names.unseen_card(deck))
            if d is not None and d.seat >= 0:
                return Message("ml.draw", seat=d.seat, card=names.card(seen.args[0]))
            return Message("ml.chance.draw", card=names.card(seen.args[0]))
        if seen.kind == "roll":
            return Message("ml.roll", value=int(seen.args[0]))
        return Message("ml.start", seat=int(seen.args[0]))
    if viewer == player:
        return option_message(seen, player, s)
    return Message("ml.actor", seat=player, what=option_message(seen, player, s))


def render(view: MafiaView, tr: Callable[[Message], str]) -> str:
    name = getattr(tr, "seat", lambda i: f"Seat {i + 1}")
    pub, mine = view.public, view.private
    lines = [f"[bold]{tr(Message('ml.ui.header', month_name=names.month(pub.month), phase=pub.phase, goal=pub.goal))}"
             "[/bold]"]
    lines.append(tr(Message("ml.ui.row", cards=", ".join(
        f"K{i + 1} {card_name(c)}" if c else f"K{i + 1} -" for i, c in enumerate(pub.row)))))
    job = pub.data.JOBS_BY_ID[pub.job] if pub.job else None
    lines.append(tr(Message("ml.ui.job", job=tr(Message(
        "ml.ui.jobinfo", job=card_name(job.id), dice=job.dice_sum, tags="+".join(job.tags), vp=job.ep,
        dollar=job.dollar, fail=job.failure)) if job else "-")))
    lines.append(tr(Message("ml.ui.events", events=", ".join(card_name(e) for e in pub.this_events) or "-",
                            next=", ".join(card_name(e) for e in pub.next_events) or "-")))
    lines.append(tr(Message("ml.ui.powers", powers=", ".join(
        f"{p.name}: {'-' if h < 0 else name(h)}" for p, h in zip(data.POWERS, pub.powers, strict=True)))))
    lines.append("")
    for q in pub.order:
        extra = tr(Message("ml.ui.sitout", n=pub.sitout[q])) if pub.sitout[q] else ""
        mark = "▶" if q in view.deciding.to_act else " "
        fam = data.FAMILY_NAMES.get(pub.family[q], "?")
        lines.append(f"{mark} " + tr(Message("ml.ui.player", seat=q, family=fam, vp=pub.vp[q],
                                             hand=pub.hand_sizes[q], screen=pub.screen_sizes[q],
                                             discs=pub.discs[q], extra=extra)))
        x = view.atk[q]
        atk = "-" if x is None else (tr(Message("ml.ui.disc")) if x.card == "DISC" else
                                      f"{'▲' if x.face_up else '▼'}{card_name(x.card)} ← {name(x.attacker)}"
                                      + (f" + {card_name(x.defence)}" if x.defence else ""))
        cells = [f"{tr(Message('ml.ui.attack'))}: {atk}"]
        for f, label in enumerate((tr(Message("ml.ui.job_field")), "K1", "K2", "K3", "K4")):
            cards = view.grid[q][f]
            if cards:
                cells.append(f"{label}: " + " ".join(card_name(c.card) if c.card != HIDDEN else f"?{c.source}"
                                                    for c in cards))
        lines.append("     " + " · ".join(cells))
        if pub.chars[q]:
            lines.append("     " + ", ".join(card_name(c) for c in pub.chars[q]))
    if mine is not None:
        lines.append("")
        lines.append(tr(Message("ml.ui.you", actions=" ".join(card_name(c) for c, k in mine.hand_actions
                                                               for _ in range(k)) or "-",
                                money=" ".join(card_name(c) for c, k in mine.hand_money for _ in range(k)) or "-",
                                screen=" ".join(card_name(c) for c, k in mine.screen for _ in range(k)) or "-")))
        if mine.mission:
            lines.append(tr(Message("ml.ui.mission", mission=card_name(mine.mission))))
    if pub.over:
        lines.append("")
        over = Message("ml.ui.over", seats=pub.winners) if pub.winners else Message("ml.ui.nobody")
        lines.append(f"[bold]{tr(over)}[/bold]")
    return "\n".join(lines)


# ---- the end screen's score sheet (sheet.py): its row labels, merged into CATALOGUE ----
SHEET_CATALOGUE: Catalogue = {
    "en": {
        "ml.sheet.total": "Total VP",
        "score.points": "{n} VP",
        "ml.sheet.earlier": "VP at the start position",
        "ml.sheet.jobs": "Jobs",
        "ml.sheet.gifts": "Gifts of won characters",
        "ml.sheet.sets": "Sets",
        "ml.sheet.powers": "Power cards",
        "ml.sheet.monthly_bonus": "Monthly bonus",
        "ml.sheet.scandals_won": "Scandals caused",
        "ml.sheet.scandals_lost": "Scandals suffered",
        "ml.sheet.magnifier": "Magnifier: cards paid for",
    },
    "de": {
        "ml.sheet.total": "Siegpunkte gesamt",
        "score.points": "{n} SP",
        "ml.sheet.earlier": "Siegpunkte der Startstellung",
        "ml.sheet.jobs": "Jobs",
        "ml.sheet.gifts": "Geschenke gewonnener Charaktere",
        "ml.sheet.sets": "Sets",
        "ml.sheet.powers": "Machtkarten",
        "ml.sheet.monthly_bonus": "Monatsbonus",
        "ml.sheet.scandals_won": "Ausgelöste Skandale",
        "ml.sheet.scandals_lost": "Erlittene Skandale",
        "ml.sheet.magnifier": "Lupe: bezahlte Karten",
    },
}
CATALOGUE = {lang: {**CATALOGUE[lang], **SHEET_CATALOGUE.get(lang, {})} for lang in CATALOGUE}


# ---- data overrides (data.DATA_SPECS): a short label per value, the lobby's "advanced" section ----
DATA_CATALOGUE: Catalogue = {
    "en": {
        "data.GOAL": "Victory points to win (advanced game)",
        "data.BEGINNER_GOAL": "Victory points to win (beginner game)",
        "data.MONTHS": "Months in the game",
        "data.PHASES": "Phases per month",
        "data.DISCS": "Discs per family",
        "data.START_ACTIONS": "Action cards at the start",
        "data.START_MONEY": "Money cards at the start",
        "data.PLAY_LIMIT": "Cards played per turn",
        "data.ORSINI_LIMIT": "Cards per turn with Großoffensive",
        "data.CURFEW_LIMIT": "Cards per turn during Ausgangssperre",
        "data.DRAW_BACK": "Cards drawn back after a turn (less the cards played)",
        "data.HAND_LIMIT": "Hand limit (action cards)",
        "data.MAGNIFIER_LIMIT": "Action cards kept at a Lupe",
        "data.MAGNIFIER_COST": "VP per card discarded at a Lupe",
        "data.JOB_CAP": "Cards in a job field",
        "data.CHAR_CAP": "Cards in a character field",
        "data.MAX_DICE": "Dice per job roll at most",
        "data.STAR_LOSS": "VP lost per star of a scandal",
        "data.STAR_GAIN": "VP gained per star of a scandal",
        "data.ASHTRAY_MONEY": "Money cards for a disc on the ashtray",
        "data.ASHTRAY_ACTIONS": "Action cards for a disc on the ashtray",
        "data.GELDWAESCHE": "Money cards drawn by Geldwäsche",
        "data.SPITZEL_TAKE": "Cards taken back by Spitzel",
        "data.A_DRAW": "Action cards for winning an A character",
        "data.E_DRAW": "Event cards drawn for winning an E character",
        "data.EV01_BRIBE": "Börsenkrach: lower bribe minimums by",
        "data.EV02_FIST": "Bundesagenten: extra fist of badge attacks",
        "data.EV06_DICE": "Korrupte Nachtschicht: lower job dice sums by",
        "data.EV07_GIFT": "Wohltätigkeitsball: extra VP per gift",
        "data.EV08_LIMIT": "Steuerprüfung: money cards kept",
        "data.EV10_DEFENCE": "Verrat: weaker defence cards by",
        "data.EV15_MONEY": "Große Lieferung: extra money cards per job",
        "data.RESHUFFLE_MONTH": "Month of the reshuffle",
        "data.PAYDAY_MONTHS": "Months with payday",
        "data.M07_CHARACTERS": "Große Familie: characters needed",
        "data.M09_JOBS": "Geschäftstüchtig: jobs needed",
        "data.M10_MONEY": "Die Kriegskasse: money needed",
        "data.M12_INFLUENCE": "Schwergewicht: influence needed",
        "data.MONEY.count": "Copies of money card {id}",
        "data.ACTIONS.count": "Copies of action card {id}",
        "data.ACTIONS.strength": "Strength of defence card {id} (-1: cancels)",
        "data.ACTIONS.stars": "Stars of action card {id}",
        "data.ACTIONS.fist": "Fist of action card {id}",
        "data.ACTIONS.dollar": "Money cards for action card {id}",
        "data.ACTIONS.dice": "Dice of action card {id}",
        "data.CHARACTERS.influence": "Influence of character {id}",
        "data.CHARACTERS.bribe": "Bribe minimum of character {id} (0: none)",
        "data.CHARACTERS.blackmail": "Blackmail minimum of character {id} (0: none)",
        "data.CHARACTERS.dollars": "Payday signs of character {id}",
        "data.CHARACTERS.gift": "Gift VP of character {id}",
        "data.CHARACTERS.four_only": "Character {id} only with 4 players (1: yes)",
        "data.JOBS.dice_sum": "Dice sum of job {id}",
        "data.JOBS.ep": "VP for job {id}",
        "data.JOBS.dollar": "Money cards for job {id}",
        "data.JOBS.failure": "Phases sat out after failing job {id}",
        "data.POWERS.threshold": "Influence needed for power card {id}",
        "data.POWERS.vp": "VP per month of power card {id}",
    },
    "de": {
        "data.GOAL": "Siegpunkte zum Sieg (Profispiel)",
        "data.BEGINNER_GOAL": "Siegpunkte zum Sieg (Einsteigerspiel)",
        "data.MONTHS": "Monate im Spiel",
        "data.PHASES": "Phasen pro Monat",
        "data.DISCS": "Scheiben pro Familie",
        "data.START_ACTIONS": "Aktionskarten zu Beginn",
        "data.START_MONEY": "Geldkarten zu Beginn",
        "data.PLAY_LIMIT": "Gespielte Karten pro Zug",
        "data.ORSINI_LIMIT": "Karten pro Zug mit Großoffensive",
        "data.CURFEW_LIMIT": "Karten pro Zug während der Ausgangssperre",
        "data.DRAW_BACK": "Nachziehen nach dem Zug (abzüglich gespielter Karten)",
        "data.HAND_LIMIT": "Handkartenlimit (Aktionskarten)",
        "data.MAGNIFIER_LIMIT": "Aktionskarten, die bei einer Lupe bleiben",
        "data.MAGNIFIER_COST": "SP pro bei einer Lupe abgeworfener Karte",
        "data.JOB_CAP": "Karten in einem Jobfeld",
        "data.CHAR_CAP": "Karten in einem Charakterfeld",
        "data.MAX_DICE": "Höchstens Würfel pro Jobwurf",
        "data.STAR_LOSS": "Verlorene SP pro Stern eines Skandals",
        "data.STAR_GAIN": "Gewonnene SP pro Stern eines Skandals",
        "data.ASHTRAY_MONEY": "Geldkarten für eine Scheibe am Aschenbecher",
        "data.ASHTRAY_ACTIONS": "Aktionskarten für eine Scheibe am Aschenbecher",
        "data.GELDWAESCHE": "Geldkarten durch Geldwäsche",
        "data.SPITZEL_TAKE": "Zurückgenommene Karten durch Spitzel",
        "data.A_DRAW": "Aktionskarten für den Gewinn eines A-Charakters",
        "data.E_DRAW": "Ereigniskarten für den Gewinn eines E-Charakters",
        "data.EV01_BRIBE": "Börsenkrach: Bestechungsminimum sinkt um",
        "data.EV02_FIST": "Bundesagenten: zusätzliche Faust der Polizeimarken-Angriffe",
        "data.EV06_DICE": "Korrupte Nachtschicht: Job-Würfelsummen sinken um",
        "data.EV07_GIFT": "Wohltätigkeitsball: zusätzliche SP pro Geschenk",
        "data.EV08_LIMIT": "Steuerprüfung: verbleibende Geldkarten",
        "data.EV10_DEFENCE": "Verrat: Abwehrkarten schwächer um",
        "data.EV15_MONEY": "Große Lieferung: zusätzliche Geldkarten pro Job",
        "data.RESHUFFLE_MONTH": "Monat des Neumischens",
        "data.PAYDAY_MONTHS": "Monate mit Zahltag",
        "data.M07_CHARACTERS": "Große Familie: nötige Charaktere",
        "data.M09_JOBS": "Geschäftstüchtig: nötige Jobs",
        "data.M10_MONEY": "Die Kriegskasse: nötiges Geld",
        "data.M12_INFLUENCE": "Schwergewicht: nötiger Einfluss",
        "data.MONEY.count": "Anzahl der Geldkarte {id}",
        "data.ACTIONS.count": "Anzahl der Aktionskarte {id}",
        "data.ACTIONS.strength": "Stärke der Abwehrkarte {id} (-1: hebt auf)",
        "data.ACTIONS.stars": "Sterne der Aktionskarte {id}",
        "data.ACTIONS.fist": "Faust der Aktionskarte {id}",
        "data.ACTIONS.dollar": "Geldkarten für die Aktionskarte {id}",
        "data.ACTIONS.dice": "Würfel der Aktionskarte {id}",
        "data.CHARACTERS.influence": "Einfluss des Charakters {id}",
        "data.CHARACTERS.bribe": "Bestechungsminimum des Charakters {id} (0: keins)",
        "data.CHARACTERS.blackmail": "Erpressungsminimum des Charakters {id} (0: keins)",
        "data.CHARACTERS.dollars": "Zahltagszeichen des Charakters {id}",
        "data.CHARACTERS.gift": "Geschenk-SP des Charakters {id}",
        "data.CHARACTERS.four_only": "Charakter {id} nur zu viert (1: ja)",
        "data.JOBS.dice_sum": "Würfelsumme des Jobs {id}",
        "data.JOBS.ep": "SP für den Job {id}",
        "data.JOBS.dollar": "Geldkarten für den Job {id}",
        "data.JOBS.failure": "Ausgesetzte Phasen nach gescheitertem Job {id}",
        "data.POWERS.threshold": "Nötiger Einfluss für die Machtkarte {id}",
        "data.POWERS.vp": "SP pro Monat der Machtkarte {id}",
    },
}


def _row_names(names: dict[str, str]) -> str:
    """A select naming a card from its raw ``{id}`` (the id itself for an unknown one)."""
    return "{id:select:" + "|".join(f"{k}={v}" for k, v in names.items()) + "|other={id}}"


DATA_ROW_NAMES: Final[dict[str, str]] = {
    "data.MONEY.name": _row_names({c: f"${v} ({c})" for c, v in MONEY.items()}),
    "data.ACTIONS.name": _row_names({c: f"{a.name} ({c})" for c, a in ACTIONS.items()}),
    "data.CHARACTERS.name": _row_names({c: f"{ch.name} ({c})" for c, ch in CHARS.items()}),
    "data.JOBS.name": _row_names({c: f"{j.name} ({c})" for c, j in JOBS_BY_ID.items()}),
    "data.POWERS.name": _row_names({p.id: f"{p.name} ({p.id})" for p in data.POWERS}),
}
"""A card in a data label by its printed (German) name and code, in both languages as on the board
(``Copies of action card Razzia (A01)``): the lobby names a table row with ``data.<TABLE>.name``
(server/advanced.py), so the filter finds a card by its name."""
CATALOGUE = {lang: {**CATALOGUE[lang], **DATA_CATALOGUE.get(lang, {}), **DATA_ROW_NAMES} for lang in CATALOGUE}
