"""El Grande words: the message catalogue (German, English), descriptions, the table picture."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import CHANCE, Player, Viewer
from tablero.games.elgrande.actions import EGAction, Hidden, Kind, card_message, hidden_message, redact
from tablero.games.elgrande.data import (
    AREA_IDS,
    CARD_TYPES,
    CASTILLO,
    COLOURS,
    LETTERS,
    REGIONS,
    SINGLE_SOURCE_BORDERS,
    TILES,
    CardType,
    Region,
    Tables,
)
from tablero.games.elgrande.view import ElGrandeView

_AREAS_EN = {f"eg.area.{r.id}": r.name_es for r in REGIONS} | {"eg.area.castillo": "Castillo"}
_AREAS_DE = {f"eg.area.{r.id}": r.name_de for r in REGIONS} | {"eg.area.castillo": "Castillo"}
_CARDS_EN = {f"eg.card.{c.id}": f"{c.id} {c.name_en}" for c in CARD_TYPES}
_CARDS_DE = {f"eg.card.{c.id}": f"{c.id} {c.name_de}" for c in CARD_TYPES}
# A card name with the number a data override gives it (actions.card_message, data.card_amounts).
_CARDS_N_EN = {
    "eg.card_n.1A": "1A Intrigue: one region, up to {n}", "eg.card_n.1B": "1B Intrigue: up to {n}, any colours",
    "eg.card_n.1C": "1C Intrigue: up to {n} own", "eg.card_n.1E": "1E Intrigue: up to {n} opponents'",
    "eg.card_n.1F": "1F Intrigue: up to {n}, any colours", "eg.card_n.1G": "1G Extra placement: up to {n} anywhere",
    "eg.card_n.2F": "2F Secret pick: return {n}", "eg.card_n.3C": "3C Special scoring: all regions of class {n}",
}
_CARDS_N_DE = {
    "eg.card_n.1A": "1A Intrige: eine Region, bis zu {n}", "eg.card_n.1B": "1B Intrige: bis zu {n}, beliebige Farben",
    "eg.card_n.1C": "1C Intrige: bis zu {n} eigene", "eg.card_n.1E": "1E Intrige: bis zu {n} fremde",
    "eg.card_n.1F": "1F Intrige: bis zu {n}, beliebige Farben",
    "eg.card_n.1G": "1G Zusätzlich bis zu {n} beliebig einsetzen",
    "eg.card_n.2F": "2F Geheim: {n} zurück", "eg.card_n.3C": "3C Sonderwertung: alle Regionen der Klasse {n}",
}


def _select(param: str, cases: dict[str, str], other: str) -> str:
    """A ``{param:select:KEY=TEXT|…|other=TEXT}`` template part (syntax: tablero.core.messages)."""
    return "{" + param + ":select:" + "".join(f"{k}={v}|" for k, v in cases.items()) + f"other={other}}}"


# Areas in a sentence. Most regions are names without an article ("nach Galicien"); the
# Castillo, the Baskenland and the court take one ("ins Castillo", "ins Baskenland", "an den
# Hof"), so a German template picks the form by the area's message id.
_ARTICLED = ("eg.area.castillo", "eg.area.pais_vasco", "eg.court")
_DE_FORMS = {
    "acc": ("das Castillo", "das Baskenland", "den Hof", "{}"),
    "dat": ("dem Castillo", "dem Baskenland", "dem Hof", "{}"),
    "to": ("ins Castillo", "ins Baskenland", "an den Hof", "nach {}"),
    "into": ("ins Castillo", "ins Baskenland", "an den Hof", "in {}"),
    "in": ("im Castillo", "im Baskenland", "am Hof", "in {}"),
    "from": ("aus dem Castillo", "aus dem Baskenland", "vom Hof", "aus {}"),
    "onto": ("auf das Castillo", "auf das Baskenland", "auf den Hof", "auf {}"),
}


def _de(form: str, param: str = "area") -> str:
    """German: the area in ``param`` in a case or after a preposition (``_de("to")``: "nach
    Galicien", "ins Castillo")."""
    *special, other = _DE_FORMS[form]
    return _select(param, dict(zip(_ARTICLED, special, strict=True)), other.format("{" + param + "}"))


def _en(param: str = "area") -> str:
    """English: the area in ``param`` inside a sentence ("the Castillo", "Galicia")."""
    return _select(param, {"eg.area.castillo": "the Castillo"}, "{" + param + "}")


def _n_de(param: str, one: str, many: str, none: str) -> str:
    """German: "keinen Caballero" / "einen Caballero" / "3 Caballeros" by the number in ``param``."""
    return _select(param, {"0": none, "1": one}, f"{{{param}}} {many}")


def _n_en(param: str, one: str = "a caballero", many: str = "caballeros", none: str = "no caballeros") -> str:
    return _select(param, {"0": none, "1": one}, f"{{{param}}} {many}")


_CAB_EN = _n_en("count")
_CAB_DE = _n_de("count", "einen Caballero", "Caballeros", "keinen Caballero")
_TILE = _select("tile", {str(i): " · ".join(str(v) for v in t) for i, t in enumerate(TILES)}, "{tile}")
_POINTS_EN = "{points} {points:plural:point|points}"
_POINTS_DE = "{points} {points:plural:Punkt|Punkte}"
_PLACE_EN = _select("place", {"1": "1st", "2": "2nd", "3": "3rd"}, "{place}th")

_OPTIONS_EN = {
    "option.short_game": "Short game",
    "option.short_game.help": "The official game over 6 rounds instead of 9: rounds 1, 4 and 7 are left out.",
    "option.start_seat": "Start player",
    "option.start_seat.help": "Who plays the first power card: a chosen seat, or drawn by lot.",
    "option.start_seat.random": "drawn by lot",
    "option.castillo_open": "Open Castillo",
    "option.castillo_open.help": "Show during play how many caballeros of each colour stand in the Castillo "
                                 "(everyone may count them anyway).",
}
_OPTIONS_DE = {
    "option.short_game": "Kurzes Spiel",
    "option.short_game.help": "Die offizielle Partie über 6 statt 9 Runden: die Runden 1, 4 und 7 entfallen.",
    "option.start_seat": "Wer beginnt",
    "option.start_seat.help": "Wer die erste Machtkarte spielt: ein bestimmter Platz oder per Los.",
    "option.start_seat.random": "per Los",
    "option.castillo_open": "Offenes Castillo",
    "option.castillo_open.help": "Zeigt während des Spiels, wie viele Caballeros jeder Farbe im Castillo stehen "
                                 "(mitzählen darf man ohnehin).",
}

# Labels of the data overrides (data.DATA_SPECS) in the lobby's advanced section; a table
# field's label names its row with data.<TABLE>.name (server/advanced.py): a region, a border
# "aragon-cataluna" as its two regions, a card with its name.
def _row_names(names: dict[str, str]) -> str:
    """A select naming a table row from its raw ``{id}`` (the id itself for an unknown row)."""
    return "{id:select:" + "|".join(f"{k}={v}" for k, v in names.items()) + "|other={id}}"


def _data_names(region: Callable[[Region], str], card: Callable[[CardType], str]) -> dict[str, str]:
    by_id = {r.id: region(r) for r in REGIONS}
    return {
        "data.REGIONS.name": _row_names(by_id),
        "data.BORDERS.name": _row_names({f"{a}-{b}": f"{by_id[a]} – {by_id[b]}" for a, b in SINGLE_SOURCE_BORDERS}),
        "data.CARD_TYPES.name": _row_names({c.id: f"{c.id} ({card(c)})" for c in CARD_TYPES}),
    }


_DATA_EN = {
    **_data_names(lambda r: r.name_es, lambda c: c.name_en),
    "data.REGIONS.values": "Points of {id} for 1st, 2nd, 3rd place",
    "data.REGIONS.values.help": "Descending (1st ≥ 2nd ≥ 3rd); the first is the region's class for 3A-3C (§2.2).",
    "data.BORDERS.present": "Border {id} (1 = neighbours, 0 = none)",
    "data.BORDERS.present.help": "1 if the two regions are neighbours, 0 if not (§2.3); every region keeps at least "
                                 "one neighbour.",
    # what the game's checks ask of a whole value (data._descending, _not_empty, the checks of _build)
    "data.REGIONS.values.rule": "1st place pays at least as much as 2nd, and 2nd at least as much as 3rd.",
    "data.BORDERS.present.rule": "Every region keeps at least one neighbour (the King must be able to move on "
                                 "with 4B).",
    "data.CARD_TYPES.count.rule": "Each of stacks 1-4 keeps at least 9 cards, one per round.",
    "data.CLASS_SCORINGS.classes.rule": "Name at least one region class.",
    "data.POWER_CABALLEROS": "Caballeros per power card 1-13",
    "data.POWER_CABALLEROS.help": "Thirteen numbers: the caballeros each power card 1-13 takes from the province "
                                  "into the court (§2.4).",
    "data.CARD_TYPES.count": "Copies of action card {id}",
    "data.CARD_TYPES.count.help": "Copies of this card in its stack (§2.5); each of stacks 1-4 keeps at least 9 "
                                  "cards, one per round.",
    "data.REGION_MOVES": "1A: caballeros moved out of one region",
    "data.REGION_MOVES.help": "1A: caballeros moved out of one region at most (§9.1).",
    "data.MOVE_BUDGETS.moves": "{id}: moves at most",
    "data.MOVE_BUDGETS.moves.help": "{id}: caballeros the card moves at most (§9.1).",
    "data.EXTRA_PLACEMENT": "1G/1H: extra caballeros placed",
    "data.EXTRA_PLACEMENT.help": "1G (and 1H's extra placement): extra caballeros placed anywhere at most (§9.1).",
    "data.SECRET_RETURN": "2F: caballeros each player returns",
    "data.SECRET_RETURN.help": "2F: caballeros each player returns from the region picked in secret (§9.2).",
    "data.CLASS_SCORINGS.classes": "{id}: region classes scored",
    "data.CLASS_SCORINGS.classes.help": "{id}: the region classes (a region's first printed value) it scores, "
                                        "e.g. 6,7 (§9.3).",
}
_DATA_DE = {
    **_data_names(lambda r: r.name_de, lambda c: c.name_de),
    "data.REGIONS.values": "Punkte von {id} für 1., 2., 3. Platz",
    "data.REGIONS.values.help": "Absteigend (1. ≥ 2. ≥ 3.); der erste Wert ist die Klasse der Region für 3A-3C "
                                "(§2.2).",
    "data.BORDERS.present": "Grenze {id} (1 = Nachbarn, 0 = keine)",
    "data.BORDERS.present.help": "1, wenn die beiden Regionen Nachbarn sind, 0, wenn nicht (§2.3); jede Region behält "
                                 "mindestens einen Nachbarn.",
    "data.REGIONS.values.rule": "Der 1. Platz bringt mindestens so viel wie der 2., der 2. mindestens so viel wie "
                                "der 3.",
    "data.BORDERS.present.rule": "Jede Region behält mindestens einen Nachbarn (der König muss mit 4B weiterziehen "
                                 "können).",
    "data.CARD_TYPES.count.rule": "Jeder der Stapel 1-4 behält mindestens 9 Karten, eine je Runde.",
    "data.CLASS_SCORINGS.classes.rule": "Nenne mindestens eine Regionsklasse.",
    "data.POWER_CABALLEROS": "Caballeros je Machtkarte 1-13",
    "data.POWER_CABALLEROS.help": "Dreizehn Zahlen: die Caballeros, die jede Machtkarte 1-13 aus der Provinz an den "
                                  "Hof holt (§2.4).",
    "data.CARD_TYPES.count": "Anzahl der Aktionskarte {id}",
    "data.CARD_TYPES.count.help": "Exemplare dieser Karte in ihrem Stapel (§2.5); jeder der Stapel 1-4 behält "
                                  "mindestens 9 Karten, eine je Runde.",
    "data.REGION_MOVES": "1A: Caballeros aus einer Region",
    "data.REGION_MOVES.help": "1A: höchstens so viele Caballeros aus einer Region bewegen (§9.1).",
    "data.MOVE_BUDGETS.moves": "{id}: höchstens so viele Züge",
    "data.MOVE_BUDGETS.moves.help": "{id}: höchstens so viele Caballeros, die die Karte bewegt (§9.1).",
    "data.EXTRA_PLACEMENT": "1G/1H: zusätzlich eingesetzte Caballeros",
    "data.EXTRA_PLACEMENT.help": "1G (und die zusätzliche Einsetzung von 1H): höchstens so viele Caballeros "
                                 "zusätzlich beliebig einsetzen (§9.1).",
    "data.SECRET_RETURN": "2F: Caballeros, die jeder zurückgibt",
    "data.SECRET_RETURN.help": "2F: Caballeros, die jede Familie aus der geheim gewählten Region zurückgibt (§9.2).",
    "data.CLASS_SCORINGS.classes": "{id}: gewertete Regionsklassen",
    "data.CLASS_SCORINGS.classes.help": "{id}: die gewerteten Regionsklassen (der erste aufgedruckte Wert einer "
                                        "Region), z. B. 6,7 (§9.3).",
}

CATALOGUE: Catalogue = {
    "en": {
        **_AREAS_EN, **_CARDS_EN, **_CARDS_N_EN, **_OPTIONS_EN, **_DATA_EN,
        "eg.actor": "{seat}: {what}",
        "eg.court": "the court",
        "eg.points": f"{{seat}} {_POINTS_EN} ({_PLACE_EN})",
        "eg.score": f"Scoring in {_en()}: {{shares}}",
        "eg.score.empty": f"Scoring in {_en()}: no caballeros there",
        "eg.bonus.king": f"{{seat}} gets the King's bonus: +{_POINTS_EN}",
        "eg.bonus.grande": f"{{seat}} gets the Grande bonus: +{_POINTS_EN}",
        "eg.deal.home": "{seat}'s home region is {area}",
        "eg.deal.king": "The King starts in {area}",
        "eg.start": "{seat} is the start player",
        "eg.reveal": "Card on offer: {card}",
        "eg.round": "Round {round}",
        "eg.power": "{seat} plays power card {value}",
        "eg.order": "Turn order: {seats}",
        "eg.intake": f"{{seat}} takes {_CAB_EN} into the court",
        "eg.intake_from": f"{{seat}} takes a caballero from {_en()} into the court",
        "eg.take": "{seat} takes {card}",
        "eg.place_first": "{seat} places first",
        "eg.place": f"{{seat}} places a caballero in {_en()}",
        "eg.skip_action": "{seat} does not use the special action",
        "eg.announce": "{seat} announces the action of {card}",
        "eg.veto": "{seat} plays Veto! against {card}",
        "eg.allow": "{seat} allows the action",
        "eg.veto_expired": "{seat}'s old Veto! expires",
        "eg.general_scoring": "General scoring after round {round}",
        "eg.disk": "{secret:select:True={seat} sets the secret disk to {area}|other={seat}: {area}}",
        "eg.disk.hidden": "{seat} sets the secret disk",
        "eg.reveal_disks": "Disks revealed — {picks}",
        "eg.castillo_out": f"{{count:plural:{{seat}}'s caballero leaves|{{seat}}'s # caballeros leave}} the Castillo "
                           f"for {_en()}",
        "eg.return": f"{{seat}} returns {_CAB_EN} from {_en()} to the province",
        "eg.return_all": "{seat} returns {count:plural:the only available caballero|all # available caballeros} to "
                         "the province",
        "eg.evict": f"{{count:plural:{{seat}}'s caballero moves|{{seat}}'s # caballeros move}} to {_en()}",
        "eg.select": f"{{seat}} chooses {_en()}",
        "eg.stop": "{seat} moves no more caballeros",
        "eg.move": f"{{seat}} moves {{own:select:True=one of their own caballeros|other=one of "
                   f"{{owner_seat}}'s caballeros}} from {_en()} to {_en('to')}",
        "eg.place_extra": f"{{seat}} places an extra caballero in {_en()}",
        "eg.mode.extra": "{seat} chooses the extra placement",
        "eg.mode.all_out": "{seat} chooses to move all of their caballeros out of one region",
        "eg.select_scoring": f"{{seat}} chooses to score {_en()}",
        "eg.send_back": f"{{seat}} sends one of {{owner_seat}}'s caballeros from {_en()} back to the province",
        "eg.tile": f"{{seat}} puts the {_TILE} scoreboard in {_en()}",
        "eg.king": f"{{seat}} moves the King to {_en()}",
        "eg.grande": f"{{seat}} moves their Grande to {_en()}",
        "eg.take_back": "{seat} takes power card {value} back",
        "eg.take_back.hidden": "{seat} takes a power card back",
        "eg.court_intake": f"{{seat}} takes {_CAB_EN} from the province into the court",
        "eg.final": "Final scores: {standings}. {seats:plural:Winner|Winners}: {seats}",
        "eg.opt.power": "play power card {value} ({cab:select:0=no caballeros into the court|1=up to 1 caballero "
                        "into the court|other=up to {cab} caballeros into the court})",
        "eg.opt.intake": f"take {_CAB_EN} into the court",
        "eg.opt.intake_from": f"take a caballero from {_en()} into the court",
        "eg.opt.stop": "end the action here",
        "eg.opt.take": "take card — {card}",
        "eg.opt.action_first": "special action first, then place",
        "eg.opt.place_first": "place first, then decide on the action",
        "eg.opt.place": f"place a caballero in {_en()}",
        "eg.opt.end_placement": "stop placing",
        "eg.opt.do_action": "do the special action",
        "eg.opt.skip_action": "skip the special action",
        "eg.opt.veto": "play Veto!",
        "eg.opt.allow": "allow the action",
        "eg.opt.mode_all_out": "move all of your caballeros out of one region",
        "eg.opt.mode_extra": "place up to 2 extra caballeros",
        "eg.opt.select": f"choose {_en()}",
        "eg.opt.select_opponent": f"send one of {{owner_seat}}'s caballeros from {_en()} back to the province",
        "eg.opt.move": f"move {{own:select:True=one of your caballeros|other=one of {{owner_seat}}'s caballeros}} from "
                       f"{_en()} to {_en('to')}",
        "eg.opt.extra": f"place an extra caballero in {_en()}",
        "eg.opt.score": f"score {_en()}",
        "eg.opt.tile": f"put the {_TILE} scoreboard in {_en()}",
        "eg.opt.move_tile": f"move the {_TILE} scoreboard to {_en()}",
        "eg.opt.king": f"move the King to {_en()}",
        "eg.opt.grande": f"move your Grande to {_en()}",
        "eg.opt.take_back": "take power card {value} back",
        "eg.opt.return": f"send a caballero from {_en()} back to the province",
        "eg.opt.disk": f"set your secret disk to {_en()}",
        "eg.chance.deal": "region card {area}",
        "eg.chance.start": "{seat} starts",
        "eg.chance.reveal": "card {card} turned up",
        "eg.ui.round": "Round {round} ({played} of {rounds} played){scoring}",
        "eg.ui.next_scoring": " · scoring after round {round}",
        "eg.ui.king": f"King in {_en()} · + marks the regions next to the King",
        "eg.ui.offer": "Cards on offer: {cards}",
        "eg.ui.none": "-",
        "eg.ui.player": "{seat}: {score} {score:plural:point|points} · court {court} · province {province} · Grande "
                        "in {area}",
        "eg.ui.power": "   power cards played: {played} · in hand: {hand}{veto}",
        "eg.ui.veto": " · holds Veto!",
        "eg.ui.castillo": "Castillo: {counts}",
        "eg.ui.castillo_hidden": "Castillo: {total} {total:plural:caballero|caballeros}",
        "eg.ui.pending": "Waiting for: {seats} ({phase})",
        "eg.ui.committed": "Disks set: {seats}",
        "eg.ui.over": "Game over. Ranks: {ranks}",
        "eg.ui.current": "{seat} plays {card}",
        "eg.ui.king_mark": "King",
    },
    "de": {
        **_AREAS_DE, **_CARDS_DE, **_CARDS_N_DE, **_OPTIONS_DE, **_DATA_DE,
        "eg.actor": "{seat}: {what}",
        "eg.court": "der Hof",
        "eg.points": f"{{seat}} {_POINTS_DE} ({{place}}. Platz)",
        "eg.score": f"Wertung {_de('in')}: {{shares}}",
        "eg.score.empty": f"Wertung {_de('in')}: kein Caballero da",
        "eg.bonus.king": f"{{seat}} erhält den Königsbonus: +{_POINTS_DE}",
        "eg.bonus.grande": f"{{seat}} erhält den Grandenbonus: +{_POINTS_DE}",
        "eg.deal.home": "Heimatregion von {seat}: {area}",
        "eg.deal.king": f"Der König beginnt {_de('in')}",
        "eg.start": "{seat} beginnt",
        "eg.reveal": "Aufgedeckt: {card}",
        "eg.round": "Runde {round}",
        "eg.power": "{seat} spielt Machtkarte {value}",
        "eg.order": "Zugreihenfolge: {seats}",
        "eg.intake": f"{{seat}} nimmt {_CAB_DE} an den Hof",
        "eg.intake_from": f"{{seat}} holt einen Caballero {_de('from')} an den Hof",
        "eg.take": "{seat} nimmt die Karte {card}",
        "eg.place_first": "{seat} setzt zuerst ein",
        "eg.place": f"{{seat}} setzt einen Caballero {_de('into')} ein",
        "eg.skip_action": "{seat} verzichtet auf die Sonderaktion",
        "eg.announce": "{seat} kündigt die Sonderaktion von {card} an",
        "eg.veto": "{seat} spielt Veto! gegen {card}",
        "eg.allow": "{seat} lässt die Sonderaktion zu",
        "eg.veto_expired": "Das alte Veto! von {seat} verfällt",
        "eg.general_scoring": "Wertung aller Regionen nach Runde {round}",
        "eg.disk": f"{{secret:select:True={{seat}} stellt die geheime Drehscheibe {_de('onto')}|other={{seat}}: "
                   f"{{area}}}}",
        "eg.disk.hidden": "{seat} stellt die geheime Drehscheibe ein",
        "eg.reveal_disks": "Drehscheiben aufgedeckt — {picks}",
        "eg.castillo_out": f"{{count:plural:Ein Caballero|# Caballeros}} von {{seat}} {{count:plural:zieht|ziehen}} "
                           f"aus dem Castillo {_de('to')}",
        "eg.return": f"{{seat}} schickt {_CAB_DE} {_de('from')} in die Provinz zurück",
        "eg.return_all": "{seat} schickt {count:plural:den einzigen verfügbaren Caballero|alle # verfügbaren "
                         "Caballeros} in die Provinz zurück",
        "eg.evict": f"{{count:plural:Ein Caballero|# Caballeros}} von {{seat}} {{count:plural:zieht|ziehen}} "
                    f"{_de('to')}",
        "eg.select": f"{{seat}} wählt {_de('acc')}",
        "eg.stop": "{seat} versetzt keine weiteren Caballeros",
        "eg.move": f"{{seat}} versetzt {{own:select:True=einen eigenen Caballero|other=einen Caballero von "
                   f"{{owner_seat}}}} {_de('from')} {_de('to', 'to')}",
        "eg.place_extra": f"{{seat}} setzt zusätzlich einen Caballero {_de('into')} ein",
        "eg.mode.extra": "{seat} wählt das zusätzliche Einsetzen",
        "eg.mode.all_out": "{seat} wählt: alle eigenen Caballeros aus einer Region abziehen",
        "eg.select_scoring": f"{{seat}} lässt {_de('acc')} werten",
        "eg.send_back": f"{{seat}} schickt einen Caballero von {{owner_seat}} {_de('from')} in die Provinz zurück",
        "eg.tile": f"{{seat}} legt die Wertungstafel {_TILE} {_de('into')}",
        "eg.king": f"{{seat}} versetzt den König {_de('to')}",
        "eg.grande": f"{{seat}} versetzt den eigenen Granden {_de('to')}",
        "eg.take_back": "{seat} nimmt Machtkarte {value} zurück",
        "eg.take_back.hidden": "{seat} nimmt eine Machtkarte zurück",
        "eg.court_intake": f"{{seat}} holt {_CAB_DE} aus der Provinz an den Hof",
        "eg.final": "Endstand: {standings}. {seats:plural:Gewinner|Gewinner}: {seats}",
        "eg.opt.power": "Machtkarte {value} spielen ({cab:select:0=keine Caballeros an den Hof|1=bis zu 1 Caballero "
                        "an den Hof|other=bis zu {cab} Caballeros an den Hof})",
        "eg.opt.intake": f"{_CAB_DE} an den Hof nehmen",
        "eg.opt.intake_from": f"einen Caballero {_de('from')} an den Hof holen",
        "eg.opt.stop": "die Aktion hier beenden",
        "eg.opt.take": "Karte nehmen — {card}",
        "eg.opt.action_first": "erst die Sonderaktion, dann einsetzen",
        "eg.opt.place_first": "erst einsetzen, dann über die Sonderaktion entscheiden",
        "eg.opt.place": f"einen Caballero {_de('into')} einsetzen",
        "eg.opt.end_placement": "Einsetzen beenden",
        "eg.opt.do_action": "die Sonderaktion ausführen",
        "eg.opt.skip_action": "auf die Sonderaktion verzichten",
        "eg.opt.veto": "Veto! spielen",
        "eg.opt.allow": "die Sonderaktion zulassen",
        "eg.opt.mode_all_out": "alle eigenen Caballeros aus einer Region abziehen",
        "eg.opt.mode_extra": "bis zu 2 Caballeros zusätzlich einsetzen",
        "eg.opt.select": f"{_de('acc')} wählen",
        "eg.opt.select_opponent": f"einen Caballero von {{owner_seat}} {_de('from')} in die Provinz zurückschicken",
        "eg.opt.move": f"{{own:select:True=einen eigenen Caballero|other=einen Caballero von {{owner_seat}}}} "
                       f"{_de('from')} {_de('to', 'to')} versetzen",
        "eg.opt.extra": f"zusätzlich einen Caballero {_de('into')} einsetzen",
        "eg.opt.score": f"{_de('acc')} werten",
        "eg.opt.tile": f"die Wertungstafel {_TILE} {_de('into')} legen",
        "eg.opt.move_tile": f"die Wertungstafel {_TILE} {_de('to')} versetzen",
        "eg.opt.king": f"den König {_de('to')} versetzen",
        "eg.opt.grande": f"deinen Granden {_de('to')} versetzen",
        "eg.opt.take_back": "Machtkarte {value} zurücknehmen",
        "eg.opt.return": f"einen Caballero {_de('from')} in die Provinz zurückschicken",
        "eg.opt.disk": f"die geheime Drehscheibe {_de('onto')} stellen",
        "eg.chance.deal": "Regionenkarte {area}",
        "eg.chance.start": "{seat} beginnt",
        "eg.chance.reveal": "Karte {card} aufgedeckt",
        "eg.ui.round": "Runde {round} ({played}. von {rounds}){scoring}",
        "eg.ui.next_scoring": " · Wertung nach Runde {round}",
        "eg.ui.king": f"König {_de('in')} · + markiert die Nachbarregionen des Königs",
        "eg.ui.offer": "Aktionskarten: {cards}",
        "eg.ui.none": "-",
        "eg.ui.player": f"{{seat}}: {{score}} {{score:plural:Punkt|Punkte}} · Hof {{court}} · Provinz {{province}} · "
                        f"Grande {_de('in')}",
        "eg.ui.power": "   gespielte Machtkarten: {played} · auf der Hand: {hand}{veto}",
        "eg.ui.veto": " · hält Veto!",
        "eg.ui.castillo": "Castillo: {counts}",
        "eg.ui.castillo_hidden": "Castillo: {total} {total:plural:Caballero|Caballeros}",
        "eg.ui.pending": "Am Zug: {seats} ({phase})",
        "eg.ui.committed": "Drehscheiben gestellt: {seats}",
        "eg.ui.over": "Spielende. Plätze: {ranks}",
        "eg.ui.current": "{seat} spielt {card}",
        "eg.ui.king_mark": "König",
    },
}


def _area(i: int) -> Message:
    return Message("eg.court") if i < 0 else Message(f"eg.area.{AREA_IDS[i]}")


def _card(c: int, tables: Tables) -> Message:
    return card_message(c, tables)


def describe(player: Player, a: EGAction, viewer: Viewer, tables: Tables) -> Message:
    """``player`` doing ``a`` as ``viewer`` may see it: an option for the actor, a log line
    for everyone else (what ``actions.redact`` hides stays hidden: ``eg.disk.hidden``,
    ``eg.take_back.hidden``); ``tables``: the game's data (a power card's intake)."""
    k = a.kind
    if player == CHANCE:
        if k == Kind.DEAL:
            return Message("eg.chance.deal", area=_area(a.a))
        if k == Kind.START:
            return Message("eg.chance.start", seat=a.a)
        return Message("eg.chance.reveal", card=_card(a.a, tables))
    seen = redact(player, a, viewer)
    if isinstance(seen, Hidden):
        return hidden_message(player, seen)
    mine = viewer == player
    opt = f"eg.opt.{k.value}"
    params: dict[str, Any] = {}
    if k == Kind.POWER:
        params = {"value": a.a, "cab": tables.POWER_CABALLEROS[a.a]}
    elif k == Kind.INTAKE:
        params = {"count": a.a}
    elif k in (Kind.INTAKE_FROM, Kind.PLACE, Kind.SELECT, Kind.PLACE_EXTRA, Kind.SCORE, Kind.KING_TO,
               Kind.GRANDE, Kind.DISK, Kind.RETURN_FROM):
        params = {"area": _area(a.a)}
    elif k == Kind.TAKE:
        params = {"card": _card(a.a, tables)}
    elif k == Kind.SELECT_OPPONENT:
        params = {"owner_seat": a.a, "area": _area(a.b)}
    elif k == Kind.MOVE:
        params = {"owner_seat": a.b, "area": _area(a.a), "to": _area(a.c), "own": a.b == player}
    elif k in (Kind.PLACE_TILE, Kind.MOVE_TILE):
        params = {"tile": a.a, "area": _area(a.b)}
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
    near = set(pub.data.NEIGHBOURS[pub.king]) if pub.king >= 0 else set()
    for r, reg in enumerate(pub.data.REGIONS):
        vals = reg.values
        tile = "  "
        for t, pos in enumerate(pub.tiles):
            if pos == r:
                vals = TILES[t]
                tile = " ▣"
        tags = []
        if pub.king == r:
            tags.append(f"[bold]♚ {tr(Message('eg.ui.king_mark'))}[/bold]")
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
        lines.append(tr(Message("eg.ui.current", seat=dec.active, card=_card(dec.card, pub.data))))
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


# ---- the end screen's score sheet (sheet.py): its row labels, merged into CATALOGUE ----
SHEET_CATALOGUE: Catalogue = {
    "en": {
        "eg.sheet.total": "Total",
        "eg.sheet.earlier": "Points at the start position",
        "eg.sheet.general": "Scoring after round {round}",
        "eg.sheet.cards": "Special scorings",
        "eg.sheet.card": "Round {round}: {card}",
        "eg.sheet.king": "King's bonus",
        "eg.sheet.grande": "Grande bonus",
        "eg.sheet.other": "Other scorings",
    },
    "de": {
        "eg.sheet.total": "Summe",
        "eg.sheet.earlier": "Punkte der Startstellung",
        "eg.sheet.general": "Wertung nach Runde {round}",
        "eg.sheet.cards": "Sonderwertungen",
        "eg.sheet.card": "Runde {round}: {card}",
        "eg.sheet.king": "Königsbonus",
        "eg.sheet.grande": "Grandenbonus",
        "eg.sheet.other": "Weitere Wertungen",
    },
}
CATALOGUE = {lang: {**CATALOGUE[lang], **SHEET_CATALOGUE.get(lang, {})} for lang in CATALOGUE}
