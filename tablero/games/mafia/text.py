"""Mafia Legend words: message catalogue (German, English), descriptions, the table picture."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import CHANCE, Player, Viewer
from tablero.games.mafia import data
from tablero.games.mafia.actions import MLAction
from tablero.games.mafia.data import ACTIONS, CHARS, JOBS_BY_ID, MONEY
from tablero.games.mafia.state import MafiaState

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
    "ml.act": "{seat}: {text}",
    "ml.opt": "{text}",
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


def describe(s: MafiaState, player: Player, a: MLAction, viewer: Viewer) -> Message:
    if player == CHANCE:
        if a.kind == "draw" and s.pend and s.pend[0] == "chance_draw":
            seat = s.pend[2]
            if seat >= 0 and viewer != seat:
                return Message("ml.draw.hidden", seat=seat, deck=s.pend[1])
        return Message("ml.opt", text=a.to_text())
    if viewer == player:
        text = " ".join(card_name(x) if (x in ACTIONS or x in MONEY or x in CHARS or x in data.EVENTS)
                        else x for x in (a.kind, *a.args))
        return Message("ml.opt", text=text)
    from tablero.games.mafia.rules import GAME

    return Message("ml.act", seat=player, text=GAME._public_text(s, player, a))


def render(view: Any, tr: Callable[[Message], str]) -> str:
    lines = [f"[bold]{tr(Message('ml.ui.header', month=view.month, phase=view.phase, goal=view.goal))}[/bold]"]
    lines.append(tr(Message("ml.ui.row", cards=", ".join(
        f"K{i + 1} {card_name(c)}" if c else f"K{i + 1} -" for i, c in enumerate(view.row)))))
    job = JOBS_BY_ID[view.job] if view.job else None
    lines.append(tr(Message("ml.ui.job", job=(f"{card_name(view.job)} (dice {job.dice_sum}, cards "
                                              f"{'+'.join(job.tags)}, {job.ep} VP, ${job.dollar}, "
                                              f"fail {job.failure})") if job else "-")))
    lines.append(tr(Message("ml.ui.events", events=", ".join(view.this_events) or "-",
                            next=", ".join(view.next_events) or "-")))
    lines.append(tr(Message("ml.ui.powers", powers=", ".join(
        f"{p.name}: {'-' if h < 0 else getattr(tr, 'seat', str)(h)}" for p, h in zip(data.POWERS, view.powers,
                                                                                   strict=True)))))
    lines.append("")
    for q in view.order:
        extra = tr(Message("ml.ui.sitout", n=view.sitout[q])) if view.sitout[q] else ""
        mark = "▶" if q in view.to_act else " "
        fam = data.FAMILY_NAMES.get(view.family[q], "?")
        lines.append(f"{mark} " + tr(Message("ml.ui.player", seat=q, family=fam, vp=view.vp[q],
                                             hand=view.hand_sizes[q], screen=view.screen_sizes[q],
                                             discs=view.discs[q], extra=extra)))
        x = view.atk[q]
        atk = "-" if x is None else ("disc" if x[0] == "DISC" else
                                      f"{'▲' if x[2] else '▼'}{card_name(x[0])} by {x[1] + 1}"
                                      + (f" + {x[4]}" if x[4] else ""))
        cells = [f"atk: {atk}"]
        for f, name in enumerate(("job", "K1", "K2", "K3", "K4")):
            cards = view.grid[q][f]
            if cards:
                cells.append(f"{name}: " + " ".join(card_name(c) if c != "?" else f"?{src}"
                                                    for c, src, _ign, _pub in cards))
        lines.append("     " + " · ".join(cells))
        if view.chars[q]:
            lines.append("     " + ", ".join(card_name(c) for c in view.chars[q]))
    if view.hand_actions is not None:
        lines.append("")
        lines.append(tr(Message("ml.ui.you", actions=" ".join(card_name(c) for c, k in view.hand_actions
                                                               for _ in range(k)) or "-",
                                money=" ".join(card_name(c) for c, k in view.hand_money for _ in range(k)) or "-",
                                screen=" ".join(card_name(c) for c, k in view.screen for _ in range(k)) or "-")))
        if view.mission:
            lines.append(tr(Message("ml.ui.mission", mission=card_name(view.mission))))
    if view.over:
        lines.append("")
        lines.append(f"[bold]{tr(Message('ml.ui.over', seats=view.winners or ()))}[/bold]")
    return "\n".join(lines)
