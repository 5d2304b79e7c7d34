"""El Grande words: the message catalogue (German, English), descriptions, the table picture."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import CHANCE, Player, Viewer
from tablero.games.elgrande.actions import EGAction, Hidden, Kind, hidden_message, redact
from tablero.games.elgrande.data import (
    AREA_IDS,
    CARD_TYPES,
    CASTILLO,
    COLOURS,
    LETTERS,
    NEIGHBOURS,
    POWER_CABALLEROS,
    REGIONS,
    TILES,
)
from tablero.games.elgrande.view import ElGrandeView

_AREAS_EN = {f"eg.area.{r.id}": r.name_es for r in REGIONS} | {"eg.area.castillo": "Castillo"}
_AREAS_DE = {f"eg.area.{r.id}": r.name_de for r in REGIONS} | {"eg.area.castillo": "Castillo"}
_CARDS_EN = {f"eg.card.{c.id}": f"{c.id} {c.name_en}" for c in CARD_TYPES}
_CARDS_DE = {f"eg.card.{c.id}": f"{c.id} {c.name_de}" for c in CARD_TYPES}

CATALOGUE: Catalogue = {
    "en": {
        **_AREAS_EN, **_CARDS_EN,
        "eg.actor": "{seat}: {what}",
        "eg.court": "the court",
        "eg.points": "{seat} {points} ({place}.)",
        "eg.score": "Scoring of {area}: {shares}",
        "eg.score.empty": "Scoring of {area}: nobody there",
        "eg.bonus.king": "{seat} gets the King's bonus +{points}",
        "eg.bonus.grande": "{seat} gets the Grande bonus +{points}",
        "eg.deal.home": "{seat}'s home region is {area}",
        "eg.deal.king": "The King starts in {area}",
        "eg.start": "{seat} is the start player",
        "eg.reveal": "Card on offer: {card}",
        "eg.round": "Round {round}",
        "eg.power": "{seat} plays power card {value}",
        "eg.order": "Turn order: {seats}",
        "eg.intake": "{seat} takes {count} caballeros into the court",
        "eg.intake_from": "{seat} takes a caballero from {area} into the court",
        "eg.take": "{seat} takes {card}",
        "eg.place_first": "{seat} places first",
        "eg.place": "{seat} places a caballero in {area}",
        "eg.skip_action": "{seat} does not use the special action",
        "eg.announce": "{seat} announces the action of {card}",
        "eg.veto": "{seat} plays Veto! against {card}",
        "eg.allow": "{seat} allows the action",
        "eg.veto_expired": "{seat}'s old Veto! expires",
        "eg.general_scoring": "General scoring after round {round}",
        "eg.disk": "{seat}: {area}",
        "eg.disk.hidden": "{seat} sets the secret disk",
        "eg.reveal_disks": "Disks revealed: {picks}",
        "eg.castillo_out": "{seat}'s {count} caballeros leave the Castillo for {area}",
        "eg.return": "{seat} returns {count} from {area} to the province",
        "eg.return_all": "{seat} returns all {count} available caballeros to the province",
        "eg.evict": "{seat}'s {count} caballeros move to {area}",
        "eg.select": "{seat} chooses {area}",
        "eg.stop": "{seat} stops",
        "eg.move": "{seat} moves a caballero of {owner_seat} from {area} to {to}",
        "eg.place_extra": "{seat} places an extra caballero in {area}",
        "eg.mode.extra": "{seat} chooses the extra placement",
        "eg.mode.all_out": "{seat} chooses to move all own caballeros out of a region",
        "eg.select_scoring": "{seat} chooses to score {area}",
        "eg.send_back": "{seat} sends a caballero of {owner_seat} from {area} back to the province",
        "eg.tile": "{seat} puts scoreboard {tile} in {area}",
        "eg.king": "{seat} moves the King to {area}",
        "eg.grande": "{seat} moves the Grande to {area}",
        "eg.take_back": "{seat} takes power card {value} back",
        "eg.take_back.hidden": "{seat} takes a power card back",
        "eg.court_intake": "{seat} takes {count} from the province into the court",
        "eg.final": "Final scores {scores}; winner: {seats}",
        "eg.opt.power": "play power card {value} (take up to {cab} caballeros)",
        "eg.opt.intake": "take {count} caballeros into the court",
        "eg.opt.intake_from": "take a caballero from {area}",
        "eg.opt.stop": "stop",
        "eg.opt.take": "take card {card}",
        "eg.opt.action_first": "special action first, then place",
        "eg.opt.place_first": "place first, then decide on the action",
        "eg.opt.place": "place a caballero in {area}",
        "eg.opt.end_placement": "end placement",
        "eg.opt.do_action": "do the special action",
        "eg.opt.skip_action": "skip the special action",
        "eg.opt.veto": "play Veto!",
        "eg.opt.allow": "allow the action",
        "eg.opt.mode_all_out": "move all own caballeros out of one region",
        "eg.opt.mode_extra": "place up to 2 extra caballeros",
        "eg.opt.select": "choose {area}",
        "eg.opt.select_opponent": "send back a caballero of {owner_seat} from {area}",
        "eg.opt.move": "move a caballero of {owner_seat} from {area} to {to}",
        "eg.opt.extra": "place an extra caballero in {area}",
        "eg.opt.score": "score {area}",
        "eg.opt.tile": "put scoreboard {tile} in {area}",
        "eg.opt.move_tile": "move scoreboard {tile} to {area}",
        "eg.opt.king": "move the King to {area}",
        "eg.opt.grande": "move your Grande to {area}",
        "eg.opt.take_back": "take power card {value} back",
        "eg.opt.return": "return a caballero from {area}",
        "eg.opt.disk": "set your disk to {area}",
        "eg.chance.deal": "region card {area}",
        "eg.chance.start": "{seat} starts",
        "eg.chance.reveal": "card {card} turned up",
        "eg.ui.round": "Round {round} ({played} of {rounds} played){scoring}",
        "eg.ui.next_scoring": " · scoring after round {round}",
        "eg.ui.king": "King in {area} · + marks the regions next to the King",
        "eg.ui.offer": "Cards on offer: {cards}",
        "eg.ui.none": "-",
        "eg.ui.player": "{seat}: {score} points · court {court} · province {province} · Grande in {area}",
        "eg.ui.power": "   power cards played: {played} · in hand: {hand}{veto}",
        "eg.ui.veto": " · holds Veto!",
        "eg.ui.castillo": "Castillo: {counts}",
        "eg.ui.castillo_hidden": "Castillo: {total} caballeros",
        "eg.ui.pending": "Waiting for: {seats} ({phase})",
        "eg.ui.committed": "Disks set: {seats}",
        "eg.ui.over": "Game over. Ranks: {ranks}",
        "eg.ui.current": "{seat} plays {card}",
    },
    "de": {
        **_AREAS_DE, **_CARDS_DE,
        "eg.actor": "{seat}: {what}",
        "eg.court": "den Hof",
        "eg.points": "{seat} {points} ({place}.)",
        "eg.score": "Wertung {area}: {shares}",
        "eg.score.empty": "Wertung {area}: niemand vertreten",
        "eg.bonus.king": "{seat} erhält den Königsbonus +{points}",
        "eg.bonus.grande": "{seat} erhält den Grandenbonus +{points}",
        "eg.deal.home": "Heimatland von {seat}: {area}",
        "eg.deal.king": "Der König beginnt in {area}",
        "eg.start": "{seat} ist Startspieler",
        "eg.reveal": "Aufgedeckt: {card}",
        "eg.round": "Runde {round}",
        "eg.power": "{seat} spielt Machtkarte {value}",
        "eg.order": "Zugreihenfolge: {seats}",
        "eg.intake": "{seat} nimmt {count} Caballeros an den Hof",
        "eg.intake_from": "{seat} nimmt einen Caballero aus {area} an den Hof",
        "eg.take": "{seat} nimmt {card}",
        "eg.place_first": "{seat} setzt zuerst ein",
        "eg.place": "{seat} setzt einen Caballero nach {area}",
        "eg.skip_action": "{seat} verzichtet auf die Aktion",
        "eg.announce": "{seat} kündigt die Aktion von {card} an",
        "eg.veto": "{seat} spielt Veto! gegen {card}",
        "eg.allow": "{seat} lässt die Aktion zu",
        "eg.veto_expired": "Das alte Veto! von {seat} verfällt",
        "eg.general_scoring": "Wertung nach Runde {round}",
        "eg.disk": "{seat}: {area}",
        "eg.disk.hidden": "{seat} stellt die Drehscheibe ein",
        "eg.reveal_disks": "Drehscheiben aufgedeckt: {picks}",
        "eg.castillo_out": "{count} Caballeros von {seat} verlassen das Castillo nach {area}",
        "eg.return": "{seat} gibt {count} aus {area} in die Provinz zurück",
        "eg.return_all": "{seat} gibt alle {count} verfügbaren Caballeros in die Provinz zurück",
        "eg.evict": "{count} Caballeros von {seat} ziehen nach {area}",
        "eg.select": "{seat} wählt {area}",
        "eg.stop": "{seat} hört auf",
        "eg.move": "{seat} versetzt einen Caballero von {owner_seat} aus {area} nach {to}",
        "eg.place_extra": "{seat} setzt zusätzlich einen Caballero nach {area}",
        "eg.mode.extra": "{seat} wählt das zusätzliche Einsetzen",
        "eg.mode.all_out": "{seat} wählt: alle eigenen aus einer Region",
        "eg.select_scoring": "{seat} lässt {area} werten",
        "eg.send_back": "{seat} schickt einen Caballero von {owner_seat} aus {area} in die Provinz",
        "eg.tile": "{seat} legt Wertungstafel {tile} nach {area}",
        "eg.king": "{seat} setzt den König nach {area}",
        "eg.grande": "{seat} versetzt seinen Granden nach {area}",
        "eg.take_back": "{seat} nimmt Machtkarte {value} zurück",
        "eg.take_back.hidden": "{seat} nimmt eine Machtkarte zurück",
        "eg.court_intake": "{seat} nimmt {count} aus der Provinz an den Hof",
        "eg.final": "Endstand {scores}; Sieger: {seats}",
        "eg.opt.power": "Machtkarte {value} spielen (bis zu {cab} Caballeros)",
        "eg.opt.intake": "{count} Caballeros an den Hof nehmen",
        "eg.opt.intake_from": "einen Caballero aus {area} nehmen",
        "eg.opt.stop": "aufhören",
        "eg.opt.take": "Karte {card} nehmen",
        "eg.opt.action_first": "erst die Aktion, dann einsetzen",
        "eg.opt.place_first": "erst einsetzen, dann über die Aktion entscheiden",
        "eg.opt.place": "einen Caballero nach {area} setzen",
        "eg.opt.end_placement": "Einsetzen beenden",
        "eg.opt.do_action": "die Aktion ausführen",
        "eg.opt.skip_action": "auf die Aktion verzichten",
        "eg.opt.veto": "Veto! spielen",
        "eg.opt.allow": "die Aktion zulassen",
        "eg.opt.mode_all_out": "alle eigenen Caballeros aus einer Region versetzen",
        "eg.opt.mode_extra": "bis zu 2 Caballeros zusätzlich einsetzen",
        "eg.opt.select": "{area} wählen",
        "eg.opt.select_opponent": "einen Caballero von {owner_seat} aus {area} zurückschicken",
        "eg.opt.move": "einen Caballero von {owner_seat} aus {area} nach {to} versetzen",
        "eg.opt.extra": "zusätzlich einen Caballero nach {area} setzen",
        "eg.opt.score": "{area} werten",
        "eg.opt.tile": "Wertungstafel {tile} nach {area} legen",
        "eg.opt.move_tile": "Wertungstafel {tile} nach {area} versetzen",
        "eg.opt.king": "den König nach {area} setzen",
        "eg.opt.grande": "deinen Granden nach {area} versetzen",
        "eg.opt.take_back": "Machtkarte {value} zurücknehmen",
        "eg.opt.return": "einen Caballero aus {area} zurückgeben",
        "eg.opt.disk": "Drehscheibe auf {area} stellen",
        "eg.chance.deal": "Regionenkarte {area}",
        "eg.chance.start": "{seat} beginnt",
        "eg.chance.reveal": "Karte {card} aufgedeckt",
        "eg.ui.round": "Runde {round} ({played}. von {rounds}){scoring}",
        "eg.ui.next_scoring": " · Wertung nach Runde {round}",
        "eg.ui.king": "König in {area} · + markiert die Nachbarregionen des Königs",
        "eg.ui.offer": "Aktionskarten: {cards}",
        "eg.ui.none": "-",
        "eg.ui.player": "{seat}: {score} Punkte · Hof {court} · Provinz {province} · Grande in {area}",
        "eg.ui.power": "   gespielte Machtkarten: {played} · auf der Hand: {hand}{veto}",
        "eg.ui.veto": " · hält Veto!",
        "eg.ui.castillo": "Castillo: {counts}",
        "eg.ui.castillo_hidden": "Castillo: {total} Caballeros",
        "eg.ui.pending": "Am Zug: {seats} ({phase})",
        "eg.ui.committed": "Drehscheiben gestellt: {seats}",
        "eg.ui.over": "Spielende. Plätze: {ranks}",
        "eg.ui.current": "{seat} spielt {card}",
    },
}


def _area(i: int) -> Message:
    return Message("eg.court") if i < 0 else Message(f"eg.area.{AREA_IDS[i]}")


def _card(c: int) -> Message:
    return Message(f"eg.card.{CARD_TYPES[c].id}")


def describe(player: Player, a: EGAction, viewer: Viewer) -> Message:
    """``player`` doing ``a`` as ``viewer`` may see it: an option for the actor, a log line
    for everyone else (what ``actions.redact`` hides stays hidden: ``eg.disk.hidden``,
    ``eg.take_back.hidden``)."""
    k = a.kind
    if player == CHANCE:
        if k == Kind.DEAL:
            return Message("eg.chance.deal", area=_area(a.a))
        if k == Kind.START:
            return Message("eg.chance.start", seat=a.a)
        return Message("eg.chance.reveal", card=_card(a.a))
    seen = redact(player, a, viewer)
    if isinstance(seen, Hidden):
        return hidden_message(player, seen)
    mine = viewer == player
    opt = f"eg.opt.{k.value}"
    params: dict[str, Any] = {}
    if k == Kind.POWER:
        params = {"value": a.a, "cab": POWER_CABALLEROS[a.a]}
    elif k == Kind.INTAKE:
        params = {"count": a.a}
    elif k in (Kind.INTAKE_FROM, Kind.PLACE, Kind.SELECT, Kind.PLACE_EXTRA, Kind.SCORE, Kind.KING_TO,
               Kind.GRANDE, Kind.DISK, Kind.RETURN_FROM):
        params = {"area": _area(a.a)}
    elif k == Kind.TAKE:
        params = {"card": _card(a.a)}
    elif k == Kind.SELECT_OPPONENT:
        params = {"owner_seat": a.a, "area": _area(a.b)}
    elif k == Kind.MOVE:
        params = {"owner_seat": a.b, "area": _area(a.a), "to": _area(a.c)}
    elif k in (Kind.PLACE_TILE, Kind.MOVE_TILE):
        params = {"tile": "/".join(str(x) for x in TILES[a.a]), "area": _area(a.b)}
    elif k == Kind.TAKE_BACK:
        params = {"value": a.a}
    if mine:
        return Message(opt, **params)
    return Message("eg.actor", seat=player, what=Message(opt, **params))


_MARKUP = re.compile(r"\[/?[a-z ]*\]")


def _pad(text: str, width: int) -> str:
    """Pad rich-markup text to a visible width."""
    return text + " " * max(0, width - len(_MARKUP.sub("", text)))


def render(view: ElGrandeView, tr: Callable[[Message], str]) -> str:
    """A text picture of the table: map with caballeros per colour, King, Grandes, tiles,
    the Castillo, the cards on offer, players' courts, provinces, power cards and scores."""
    name = getattr(tr, "seat", lambda i: f"Seat {i + 1}")
    pub, dec = view.public, view.deciding
    n = pub.players
    lines: list[str] = []
    nxt = next((r for r in pub.rounds[pub.round_index:] if r in (3, 6, 9)), None)
    scoring = tr(Message("eg.ui.next_scoring", round=nxt)) if nxt else ""
    head = Message("eg.ui.round", round=pub.round, played=pub.round_index + 1,
                   rounds=len(pub.rounds), scoring=scoring)
    lines.append(f"[bold]El Grande[/bold] · {tr(head)}")
    if pub.king >= 0:
        lines.append(tr(Message("eg.ui.king", area=_area(pub.king))))
    lines.append("")
    near = set(NEIGHBOURS[pub.king]) if pub.king >= 0 else set()
    for r, reg in enumerate(REGIONS):
        vals = reg.values
        tile = "  "
        for t, pos in enumerate(pub.tiles):
            if pos == r:
                vals = TILES[t]
                tile = " ▣"
        tags = []
        if pub.king == r:
            tags.append("[bold]♚ King[/bold]")
        for p in range(n):
            if pub.grande[p] == r:
                tags.append(f"[bold {COLOURS[p]}]G·{LETTERS[p]}[/bold {COLOURS[p]}]")
        cubes = "  ".join(
            f"[{COLOURS[p]}]{LETTERS[p]}{pub.cab[p][r]}[/{COLOURS[p]}]" for p in range(n) if pub.cab[p][r]
        )
        mark = "+" if r in near else " "
        label = f"{mark} {tr(_area(r))}"
        lines.append(f" {_pad(label, 20)} {vals[0]}/{vals[1]}/{vals[2]}{tile} {_pad(' '.join(tags), 16)} "
                     f"{cubes or '·'}")
    counts = "  ".join(f"[{COLOURS[p]}]{LETTERS[p]}{pub.cab[p][CASTILLO]}[/{COLOURS[p]}]"
                       for p in range(n) if pub.cab[p][CASTILLO])
    if pub.castillo_open or pub.ranks is not None:
        lines.append("  " + tr(Message("eg.ui.castillo", counts=counts or "·")))
    else:
        total = sum(pub.cab[p][CASTILLO] for p in range(n))
        lines.append("  " + tr(Message("eg.ui.castillo_hidden", total=total)))
    lines.append("")
    offer = [CARD_TYPES[c].id for c in pub.offer] + (["5A"] if pub.king_card else [])
    lines.append(tr(Message("eg.ui.offer", cards=", ".join(offer) or "-")))
    if dec.card >= 0 and dec.active >= 0:
        lines.append(tr(Message("eg.ui.current", seat=dec.active, card=_card(dec.card))))
    lines.append("")
    for p in range(n):
        mark = "▶" if p in dec.to_act else " "
        lines.append(f"{mark} [bold {COLOURS[p]}]{LETTERS[p]}[/bold {COLOURS[p]}] " + tr(Message(
            "eg.ui.player", seat=p, score=pub.scores[p], court=pub.court[p], province=pub.province[p],
            area=_area(pub.grande[p]) if pub.grande[p] >= 0 else Message("eg.ui.none"))))
        played = " ".join(str(v) if v else "↩" for v in pub.power_log[p]) or "-"
        if view.private is not None and view.private.seat == p:
            hand = " ".join(str(v) for v in view.private.hand)
        else:
            hand = str(pub.hand_sizes[p])
        veto = tr(Message("eg.ui.veto")) if pub.veto[p] else ""
        lines.append(tr(Message("eg.ui.power", played=played, hand=hand, veto=veto)))
    if dec.phase == "disk":
        done = tuple(q for q in dec.pick_seats if pub.committed[q])
        if done:
            lines.append(tr(Message("eg.ui.committed", seats=done)))
    if pub.ranks is not None:
        ranks = ", ".join(f"{r}. {name(p)}" for p, r in sorted(enumerate(pub.ranks), key=lambda x: x[1]))
        lines.append("")
        lines.append(f"[bold]{tr(Message('eg.ui.over', ranks=ranks))}[/bold]")
    return "\n".join(lines)
