"""Mafia Legend words: message catalogue (German, English), descriptions, the table picture."""

from __future__ import annotations

from collections.abc import Callable

from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import CHANCE, Player, Viewer
from tablero.games.mafia import data
from tablero.games.mafia.actions import MONEY_MOVES, MLAction
from tablero.games.mafia.data import ACTIONS, CHARS, JOBS_BY_ID, MONEY
from tablero.games.mafia.moves import redact_action
from tablero.games.mafia.state import MafiaState
from tablero.games.mafia.view import HIDDEN, MafiaView

_EN: dict[str, str] = {
    "ml.start": "{seat} is the start player",
    "ml.reshuffle": "The {deck} deck is reshuffled from its discard pile",
    "ml.draw_lost": "{count} card(s) of the {deck} deck cannot be drawn",
    "ml.draw": "{seat} draws {card}",
    "ml.draw.hidden": "{seat} draws a card from the {deck} deck",
    "ml.mission": "{seat} receives mission {card}",
    "ml.mission.hidden": "{seat} receives a mission",
    "ml.row": "Character {card} is turned up in K{slot}",
    "ml.job": "New open job: {card}",
    "ml.event_drawn": "{seat} draws event {card}",
    "ml.event_drawn.hidden": "{seat} draws an event card",
    "ml.roll": "W8 shows {value}",
    "ml.sit_out": "{seat} sits out this turn",
    "ml.turn": "{seat}'s turn (month {month}, phase {phase})",
    "ml.month_end": "Month end of month {month}",
    "ml.reveal_attack": "{seat}'s attack on {target_seat} is revealed: {card}",
    "ml.star_ignored": "{card} is ignored (star rule)",
    "ml.immune": "{target_seat} is immune to {card}",
    "ml.attack_failed": "{seat}'s {card} against {target_seat} fails",
    "ml.attack_succeeds": "{seat}'s {card} against {target_seat} succeeds",
    "ml.scandal": "Scandal: {target_seat} loses {loss} VP, {seat} gains {gain}",
    "ml.raided": "Raid on {target_seat}'s {field}: {cards} discarded",
    "ml.hit": "{target_seat} loses {card}",
    "ml.handed_over": "{target_seat} hands {card} over to {seat}",
    "ml.job_reveal": "{seat}'s job field: {cards}",
    "ml.job_abandon": "{seat} abandons the job attempt",
    "ml.job_roll_ok": "{seat} rolls {total} (needs {target}): success",
    "ml.job_failed": "{seat} rolls {total} (needs {target}): failure, sits out {sitout}",
    "ml.job_done": "{seat} completes {job}: +{vp} VP, {money} money cards",
    "ml.column_reveal": "K{slot}: {cards}",
    "ml.field": "{seat} {cards}",
    "ml.no_winner": "Nobody wins {card} in K{slot}",
    "ml.win_character": "{seat} wins {card}",
    "ml.gift": "{seat} gets the gift: +{vp} VP",
    "ml.set": "{seat} completes the set {set}: +{vp} VP",
    "ml.event_kept": "{seat} keeps event {card} for next month",
    "ml.power_vp": "{seat} scores {vp} VP for {power}",
    "ml.monthly_bonus": "Monthly bonus: {seat} +{vp} VP",
    "ml.job_rotated": "Job {job} goes under the job deck",
    "ml.order": "Turn order: {seats}",
    "ml.new_month": "Month {month} begins; events: {events}",
    "ml.june_reshuffle": "June: the decks are reshuffled",
    "ml.power": "Power card {power} now held by {seat}",
    "ml.game_over": "Game over; winner: {seats}; VP {vp}",
    "ml.family": "{seat} leads the {family} family",
    "ml.discard": "{seat} discards {card}",
    "ml.discard_secret": "{seat} sets {card} aside to discard",
    "ml.discard_secret.hidden": "{seat} sets a card aside to discard",
    "ml.discards": "{seat} discards {cards} (−{vp} VP)",
    "ml.guardian": "{seat} uses Schutzengel: the attack fails",
    "ml.defend": "{seat} defends with {card}",
    "ml.no_defence": "{seat} does not defend",
    "ml.reroll": "{seat} rerolls {count} dice (Gezinkte Würfel)",
    "ml.family_ties": "{seat} uses Familienbande",
    "ml.politik": "{seat} moves to position {position} (Politik)",
    "ml.spitzel_column": "{seat} looks at the {column} column (Spitzel)",
    "ml.spitzel_take": "{seat} takes a card back from {field} to {to}",
    "ml.spitzel_seen": "{seat} sees in {column}: {cards}",
    "ml.disc": "{seat} places a disc: {where}",
    "ml.money_move": "{seat} moves {card} ({to})",
    "ml.to_hand.hidden": "{seat} takes a money card into the hand",
    "ml.to_screen.hidden": "{seat} puts a money card behind the screen",
    "ml.end_plays": "{seat} ends his plays",
    "ml.job_attempt": "{seat} attempts the job",
    "ml.ability": "{seat} uses the ability {ability}",
    "ml.attack_up": "{seat} attacks {target_seat} face up with {card} ({timing})",
    "ml.attack_down": "{seat} attacks {target_seat} with a face-down card",
    "ml.play_down": "{seat} plays {card} from the {source} into {field}",
    "ml.play_down.hidden": "{seat} plays a card from the {source} into {field}",
    "ml.actor": "{seat}: {what}",
    "ml.o.chance_draw": "draws {card}",
    "ml.o.family": "lead the {family} family",
    "ml.o.disc.none": "place no disc",
    "ml.o.disc.ashtray_money": "disc on the ashtray: 1 money card",
    "ml.o.disc.ashtray_actions": "disc on the ashtray: 3 action cards",
    "ml.o.disc.protect": "disc in front of your plaque: protected this month",
    "ml.o.to_hand": "take {card} from the screen into the hand",
    "ml.o.to_hand.hidden": "takes a money card into the hand",
    "ml.o.to_screen": "put {card} from the hand behind the screen",
    "ml.o.to_screen.hidden": "puts a money card behind the screen",
    "ml.o.defend": "defend with {card}",
    "ml.o.attack_up": "attack {target_seat} face up with {card} ({timing})",
    "ml.o.attack_down": "attack {target_seat} face down with {card}",
    "ml.o.attack_down.hidden": "attacks {target_seat} with a face-down card",
    "ml.o.timing.now": "resolve now",
    "ml.o.timing.me": "resolve at month end",
    "ml.o.src.hand": "hand",
    "ml.o.src.screen": "screen",
    "ml.o.play_field": "play {card} from the {source} into {field}",
    "ml.o.play_field.hidden": "plays a card from the {source} into {field}",
    "ml.o.end_plays": "end your card plays",
    "ml.o.job_attempt": "attempt the job now",
    "ml.o.job_skip": "do not attempt the job",
    "ml.o.ability.geldwaesche": "use Geldwäsche: draw 3 money cards",
    "ml.o.ability.spitzel": "use Spitzel: look at a column",
    "ml.o.ability.grossoffensive": "use Großoffensive: play up to 4 cards",
    "ml.o.spitzel_column": "look at the {column} column",
    "ml.o.spitzel_take": "take {card} back from {field} to the {to}",
    "ml.o.spitzel_take.hidden": "takes a card back from {field} to the {to}",
    "ml.o.spitzel_done": "take nothing more back",
    "ml.o.guardian.yes": "use Schutzengel: the attack fails",
    "ml.o.guardian.no": "do not use Schutzengel",
    "ml.o.no_defence": "do not defend",
    "ml.o.raid": "raid the {field} field",
    "ml.o.hit": "hit {card}",
    "ml.o.hand_over": "hand over {card}",
    "ml.o.job_roll": "roll the dice",
    "ml.o.job_abandon": "abandon the job",
    "ml.o.reroll": "reroll die/dice {dice}",
    "ml.o.no_reroll": "keep the roll",
    "ml.o.family_ties.yes": "use Familienbande in this column",
    "ml.o.family_ties.no": "do not use Familienbande",
    "ml.o.choose_event": "keep event {card}",
    "ml.o.a_draw.yes": "draw 2 action cards",
    "ml.o.a_draw.no": "draw nothing",
    "ml.o.discard": "discard {card}",
    "ml.o.set_aside": "discard {card}",
    "ml.o.set_aside.hidden": "sets a card aside to discard",
    "ml.o.politik": "move your plaque to position {position}",
    "ml.ui.header": "Mafia Legend · month {month} · phase {phase} · goal {goal} VP",
    "ml.ui.row": "Character row: {cards}",
    "ml.ui.job": "Open job: {job}",
    "ml.ui.events": "Events this month: {events} · next month: {next}",
    "ml.ui.powers": "Power cards: {powers}",
    "ml.ui.player": "{seat} ({family}): {vp} VP · hand {hand} · screen {screen} · discs {discs}{extra}",
    "ml.ui.you": "Your hand: {actions} · money in hand: {money} · behind the screen: {screen}",
    "ml.ui.mission": "Your mission: {mission}",
    "ml.ui.sitout": " · sits out {n}",
    "ml.ui.over": "Game over. Winner: {seats}",
}

_DE: dict[str, str] = {
    **_EN,
    "ml.actor": "{seat}: {what}",
    "ml.o.chance_draw": "zieht {card}",
    "ml.o.family": "die Familie {family} führen",
    "ml.o.disc.none": "keine Scheibe setzen",
    "ml.o.disc.ashtray_money": "Scheibe auf den Aschenbecher: 1 Geldkarte",
    "ml.o.disc.ashtray_actions": "Scheibe auf den Aschenbecher: 3 Aktionskarten",
    "ml.o.disc.protect": "Scheibe vor das eigene Täfelchen: diesen Monat geschützt",
    "ml.o.to_hand": "{card} vom Schirm auf die Hand nehmen",
    "ml.o.to_hand.hidden": "nimmt eine Geldkarte auf die Hand",
    "ml.o.to_screen": "{card} von der Hand hinter den Schirm legen",
    "ml.o.to_screen.hidden": "legt eine Geldkarte hinter den Schirm",
    "ml.o.defend": "mit {card} abwehren",
    "ml.o.attack_up": "{target_seat} offen mit {card} angreifen ({timing})",
    "ml.o.attack_down": "{target_seat} verdeckt mit {card} angreifen",
    "ml.o.attack_down.hidden": "greift {target_seat} mit einer verdeckten Karte an",
    "ml.o.timing.now": "sofort auswerten",
    "ml.o.timing.me": "am Monatsende auswerten",
    "ml.o.src.hand": "Hand",
    "ml.o.src.screen": "Schirm",
    "ml.o.play_field": "{card} von {source} nach {field} spielen",
    "ml.o.play_field.hidden": "spielt eine Karte von {source} nach {field}",
    "ml.o.end_plays": "Ausspielen beenden",
    "ml.o.job_attempt": "den Job jetzt versuchen",
    "ml.o.job_skip": "den Job nicht versuchen",
    "ml.o.ability.geldwaesche": "Geldwäsche: 3 Geldkarten ziehen",
    "ml.o.ability.spitzel": "Spitzel: eine Spalte ansehen",
    "ml.o.ability.grossoffensive": "Großoffensive: bis zu 4 Karten spielen",
    "ml.o.spitzel_column": "die Spalte {column} ansehen",
    "ml.o.spitzel_take": "{card} aus {field} zurück auf {to} nehmen",
    "ml.o.spitzel_take.hidden": "nimmt eine Karte aus {field} zurück auf {to}",
    "ml.o.spitzel_done": "nichts mehr zurücknehmen",
    "ml.o.guardian.yes": "Schutzengel: der Angriff scheitert",
    "ml.o.guardian.no": "Schutzengel nicht einsetzen",
    "ml.o.no_defence": "nicht abwehren",
    "ml.o.raid": "das Feld {field} ausheben",
    "ml.o.hit": "{card} ausschalten",
    "ml.o.hand_over": "{card} abgeben",
    "ml.o.job_roll": "würfeln",
    "ml.o.job_abandon": "den Job aufgeben",
    "ml.o.reroll": "Würfel {dice} neu würfeln",
    "ml.o.no_reroll": "den Wurf behalten",
    "ml.o.family_ties.yes": "Familienbande in dieser Spalte einsetzen",
    "ml.o.family_ties.no": "Familienbande nicht einsetzen",
    "ml.o.choose_event": "Ereignis {card} behalten",
    "ml.o.a_draw.yes": "2 Aktionskarten ziehen",
    "ml.o.a_draw.no": "nichts ziehen",
    "ml.o.discard": "{card} abwerfen",
    "ml.o.set_aside": "{card} abwerfen",
    "ml.o.set_aside.hidden": "legt eine Karte zum Abwerfen beiseite",
    "ml.o.politik": "das eigene Täfelchen auf Platz {position} stellen",
    "ml.start": "{seat} ist Startspieler",
    "ml.draw": "{seat} zieht {card}",
    "ml.draw.hidden": "{seat} zieht eine Karte vom Stapel {deck}",
    "ml.row": "Charakter {card} wird in K{slot} aufgedeckt",
    "ml.job": "Neuer offener Job: {card}",
    "ml.roll": "W8 zeigt {value}",
    "ml.sit_out": "{seat} setzt diesen Zug aus",
    "ml.turn": "{seat} ist am Zug (Monat {month}, Phase {phase})",
    "ml.month_end": "Monatsende von Monat {month}",
    "ml.attack_failed": "{card} von {seat} gegen {target_seat} scheitert",
    "ml.attack_succeeds": "{card} von {seat} gegen {target_seat} gelingt",
    "ml.win_character": "{seat} gewinnt {card}",
    "ml.job_done": "{seat} erfüllt {job}: +{vp} SP, {money} Geldkarten",
    "ml.game_over": "Spielende; Sieger: {seats}; SP {vp}",
    "ml.family": "{seat} führt die Familie {family}",
    "ml.disc": "{seat} setzt eine Scheibe: {where}",
    "ml.end_plays": "{seat} beendet seine Ausspielungen",
    "ml.attack_down": "{seat} greift {target_seat} mit einer verdeckten Karte an",
    "ml.play_down.hidden": "{seat} spielt eine Karte aus {source} nach {field}",
    "ml.ui.header": "Mafia Legend · Monat {month} · Phase {phase} · Ziel {goal} SP",
    "ml.ui.row": "Charakterreihe: {cards}",
    "ml.ui.job": "Offener Job: {job}",
    "ml.ui.events": "Ereignisse diesen Monat: {events} · nächsten Monat: {next}",
    "ml.ui.powers": "Machtkarten: {powers}",
    "ml.ui.player": "{seat} ({family}): {vp} SP · Hand {hand} · Schirm {screen} · Scheiben {discs}{extra}",
    "ml.ui.you": "Deine Hand: {actions} · Geld auf der Hand: {money} · hinter dem Schirm: {screen}",
    "ml.ui.mission": "Dein Auftrag: {mission}",
    "ml.ui.sitout": " · setzt {n} aus",
    "ml.ui.over": "Spielende. Sieger: {seats}",
}

CATALOGUE: Catalogue = {"en": _EN, "de": _DE}


def card_name(c: str) -> str:
    if c in ACTIONS:
        return f"{c} {ACTIONS[c].name}"
    if c in MONEY:
        return f"${MONEY[c]}"
    if c in CHARS:
        return f"{c} {CHARS[c].name}"
    if c in JOBS_BY_ID:
        return f"{c} {JOBS_BY_ID[c].name}"
    if c in data.EVENTS:
        return f"{c} {data.EVENTS[c]}"
    return c


def _field(name: str) -> str:
    return "job" if name == "job" else name.upper()


def option_message(a: MLAction, player: int) -> Message:
    """A decision as words. ``a`` may be what another seat sees of it (``moves.redact_action``):
    then the hidden card is left out of the words too."""
    k, args = a.kind, a.args
    if k == "family":
        return Message("ml.o.family", family=data.FAMILY_NAMES.get(args[0], args[0]))
    if k == "disc":
        return Message(f"ml.o.disc.{args[0]}")
    if k in MONEY_MOVES:
        return Message(f"ml.o.{k}", card=card_name(args[0])) if args else Message(f"ml.o.{k}.hidden")
    if k == "play":
        hidden = len(args) == 2
        c, src, where = ("", *args) if hidden else args[:3]
        if where.startswith("atk:"):
            q = int(where[4:])
            if q == player:
                return Message("ml.o.defend", card=card_name(c))
            if len(args) > 3:
                return Message("ml.o.attack_up", card=card_name(c), target_seat=q,
                               timing=Message(f"ml.o.timing.{args[4]}"))
            if hidden:
                return Message("ml.o.attack_down.hidden", target_seat=q)
            return Message("ml.o.attack_down", card=card_name(c), target_seat=q)
        source = Message(f"ml.o.src.{src}")
        if hidden:
            return Message("ml.o.play_field.hidden", source=source, field=_field(where))
        return Message("ml.o.play_field", card=card_name(c), source=source, field=_field(where))
    if k in ("ability",):
        return Message(f"ml.o.ability.{args[0]}")
    if k in ("guardian", "family_ties", "a_draw"):
        return Message(f"ml.o.{k}.{args[0]}")
    if k == "spitzel_column":
        return Message("ml.o.spitzel_column", column=_field(args[0]) if args[0] != "atk" else "attack")
    if k == "spitzel_take":
        if len(args) == 2:
            return Message("ml.o.spitzel_take.hidden", field=args[0], to=Message(f"ml.o.src.{args[1]}"))
        return Message("ml.o.spitzel_take", card=card_name(args[1]), field=args[0],
                       to=Message(f"ml.o.src.{args[2]}"))
    if k in ("defend", "hit", "hand_over", "choose_event", "discard"):
        return Message(f"ml.o.{k}", card=card_name(args[0]))
    if k == "set_aside":
        return Message("ml.o.set_aside", card=card_name(args[0])) if args else Message("ml.o.set_aside.hidden")
    if k == "raid":
        return Message("ml.o.raid", field=_field(args[0]))
    if k == "reroll":
        return Message("ml.o.reroll", dice=tuple(int(i) + 1 for i in args[0].split(",")))
    if k == "politik":
        return Message("ml.o.politik", position=int(args[0]))
    return Message(f"ml.o.{k}")


def describe(s: MafiaState, player: Player, a: MLAction, viewer: Viewer) -> Message:
    """``player`` doing ``a`` as ``viewer`` may see it (what ``redact_action`` leaves of it)."""
    seen = redact_action(s, player, a, viewer)
    if player == CHANCE:
        if seen.kind == "draw":
            d = s.decision
            if not seen.args and d is not None:
                return Message("ml.draw.hidden", seat=d.seat, deck=d.deck)
            return Message("ml.o.chance_draw", card=card_name(seen.args[0]))
        if seen.kind == "roll":
            return Message("ml.roll", value=int(seen.args[0]))
        return Message("ml.start", seat=int(seen.args[0]))
    if viewer == player:
        return option_message(seen, player)
    return Message("ml.actor", seat=player, what=option_message(seen, player))


def render(view: MafiaView, tr: Callable[[Message], str]) -> str:
    name = getattr(tr, "seat", lambda i: f"Seat {i + 1}")
    pub, mine = view.public, view.private
    lines = [f"[bold]{tr(Message('ml.ui.header', month=pub.month, phase=pub.phase, goal=pub.goal))}[/bold]"]
    lines.append(tr(Message("ml.ui.row", cards=", ".join(
        f"K{i + 1} {card_name(c)}" if c else f"K{i + 1} -" for i, c in enumerate(pub.row)))))
    job = JOBS_BY_ID[pub.job] if pub.job else None
    lines.append(tr(Message("ml.ui.job", job=(f"{card_name(pub.job)} (dice {job.dice_sum}, cards "
                                              f"{'+'.join(job.tags)}, {job.ep} VP, ${job.dollar}, "
                                              f"fail {job.failure})") if job else "-")))
    lines.append(tr(Message("ml.ui.events", events=", ".join(pub.this_events) or "-",
                            next=", ".join(pub.next_events) or "-")))
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
        atk = "-" if x is None else ("disc" if x.card == "DISC" else
                                      f"{'▲' if x.face_up else '▼'}{card_name(x.card)} ← {name(x.attacker)}"
                                      + (f" + {card_name(x.defence)}" if x.defence else ""))
        cells = [f"atk: {atk}"]
        for f, label in enumerate(("job", "K1", "K2", "K3", "K4")):
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
        lines.append(f"[bold]{tr(Message('ml.ui.over', seats=pub.winners or ()))}[/bold]")
    return "\n".join(lines)
