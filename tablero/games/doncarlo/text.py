"""Don Carlo words: the message catalogue (German, English), descriptions, the table picture."""

from __future__ import annotations

from collections.abc import Callable

from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import Player, Viewer
from tablero.games.doncarlo.actions import DonCarloAction, Draw, Play, StartSeat
from tablero.games.doncarlo.data import ALL_CODES, COUNTRIES, FAMILY_COLOURS, code_kind
from tablero.games.doncarlo.engine import redact_action
from tablero.games.doncarlo.state import BLOCKED_DRAW, DonCarloState
from tablero.games.doncarlo.view import DonCarloView

_COUNTRY_NAMES = {f"dc.country.{c.id}": c.name for c in COUNTRIES}


_COUNTRY_SELECT = "{id:select:" + "|".join(f"{c.id}={c.name}" for c in COUNTRIES) + "|other={id}}"
"""A country's name from its id (a data label's ``{id}``)."""

# The lobby's advanced section: a label per overridable data value (data.DATA_SPECS); a country's
# field shares one label with the country's id as {id}.
_DATA_EN = {
    "data.FAMILY_COUNTS": "Cards per value 0–6 in a family",
    "data.FAMILY_COUNTS.help": "Seven numbers: how many cards of each value 0 to 6 one family deck holds "
                               "(usually four each of 0–4, three 5s and two 6s).",
    "data.HAND_SIZE": "Hand size",
    "data.HAND_SIZE.help": "Cards a hand is dealt and refilled to after each agent.",
    "data.RUN_BONUS": "Bonus for a run",
    "data.RUN_BONUS.help": "Bonus points for a 3-card run such as 1/2/3.",
    "data.TRIPLE_BONUS": "Bonus for a triple",
    "data.TRIPLE_BONUS.help": "Bonus points for a 3-card triple such as 2/2/2.",
    "data.SUM_BOUNDS": "Digit sums of the countries",
    "data.SUM_BOUNDS.help": "Eight numbers: the lowest digit sum of each country from Egoistrien to Schwadronien, "
                            "then the highest sum of Schwadronien. Each country takes the sums up to the next "
                            "country's lowest.",
    "data.COUNTRIES.players": f"Player counts with {_COUNTRY_SELECT}",
    "data.COUNTRIES.players.help": f"The player counts (2, 3, 4) with {_COUNTRY_SELECT} on the table.",
    # what the game's checks ask of a whole value (data._check_family, _check_bounds, _check_players)
    "data.FAMILY_COUNTS.rule": "A family needs at least one card.",
    "data.SUM_BOUNDS.rule": "The lowest sums rise from country to country, and the last number (the highest sum of "
                            "Schwadronien) is not below Schwadronien's lowest.",
    "data.COUNTRIES.players.rule": "Name at least one player count (2, 3 or 4).",
}
_DATA_DE = {
    "data.FAMILY_COUNTS": "Karten je Wert 0–6 einer Familie",
    "data.FAMILY_COUNTS.help": "Sieben Zahlen: wie viele Karten jedes Werts 0 bis 6 ein Familienstapel hat "
                               "(üblich je vier 0–4, drei 5er und zwei 6er).",
    "data.HAND_SIZE": "Handkarten",
    "data.HAND_SIZE.help": "Auf so viele Karten wird die Hand ausgeteilt und nach jedem Agenten aufgefüllt.",
    "data.RUN_BONUS": "Bonus für eine Folge",
    "data.RUN_BONUS.help": "Bonuspunkte für eine Folge aus drei Karten wie 1/2/3.",
    "data.TRIPLE_BONUS": "Bonus für einen Drilling",
    "data.TRIPLE_BONUS.help": "Bonuspunkte für einen Drilling aus drei Karten wie 2/2/2.",
    "data.SUM_BOUNDS": "Ziffernsummen der Länder",
    "data.SUM_BOUNDS.help": "Acht Zahlen: die kleinste Ziffernsumme jedes Landes von Egoistrien bis Schwadronien, "
                            "dann die größte Summe von Schwadronien. Jedes Land nimmt die Summen bis zur kleinsten "
                            "des nächsten Landes.",
    "data.COUNTRIES.players": f"Spielerzahlen mit {_COUNTRY_SELECT}",
    "data.COUNTRIES.players.help": f"Die Spielerzahlen (2, 3, 4), bei denen {_COUNTRY_SELECT} ausliegt.",
    "data.FAMILY_COUNTS.rule": "Eine Familie braucht mindestens eine Karte.",
    "data.SUM_BOUNDS.rule": "Die kleinsten Summen steigen von Land zu Land, und die letzte Zahl (die größte Summe von "
                            "Schwadronien) liegt nicht unter der kleinsten von Schwadronien.",
    "data.COUNTRIES.players.rule": "Nenne mindestens eine Spielerzahl (2, 3 oder 4).",
}


def _in_play_label(players: frozenset[int], en: bool) -> str:
    counts = sorted(players)
    n = str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
    return f"{n} players" if en else f"{n} Spieler"


# The lobby's field per country (Don Carlo's own word beats the country's plain name): a country
# that is not in play with every player count says with which, so nobody sets points that never count.
_KEY_LABELS = {
    lang: {f"option.country_points.{c.id}": f"{c.name} ({_in_play_label(c.players, lang == 'en')})"
           for c in COUNTRIES if c.players != frozenset({2, 3, 4})}
    for lang in ("en", "de")
}

_OPTIONS_EN = {
    "option.start_seat": "Start player",
    "option.start_seat.help": "Who takes the first turn: a chosen seat, or drawn by lot.",
    "option.start_seat.random": "drawn by lot",
    "option.country_points": "Majority points",
    "option.country_points.help": "Points the majority in each country earns at the end, one whole number per "
                                  "country. Most of the usual values are reconstructed, not printed on the cards.",
    "option.majority_tie": "Tied majorities",
    "option.majority_tie.help": "What the families get that are tied for the most agents in a country.",
    "option.majority_tie.all_full": "each gets the full points",
    "option.majority_tie.split_floor": "they share the points, rounded down",
    "option.majority_tie.none": "nobody gets the points",
}
_OPTIONS_DE = {
    "option.start_seat": "Wer beginnt",
    "option.start_seat.help": "Wer den ersten Zug macht: ein bestimmter Platz oder per Los.",
    "option.start_seat.random": "per Los",
    "option.country_points": "Mehrheitspunkte",
    "option.country_points.help": "Punkte für die Mehrheit in jedem Land am Spielende, eine ganze Zahl je Land. "
                                  "Die üblichen Werte sind meist rekonstruiert, nicht auf den Karten aufgedruckt.",
    "option.majority_tie": "Gleichstand um die Mehrheit",
    "option.majority_tie.help": "Was die Familien bekommen, die in einem Land gleich viele Agenten an der Spitze "
                                "haben.",
    "option.majority_tie.all_full": "jede erhält die vollen Punkte",
    "option.majority_tie.split_floor": "sie teilen die Punkte, abgerundet",
    "option.majority_tie.none": "niemand erhält die Punkte",
}


CATALOGUE: Catalogue = {
    "en": {
        **_COUNTRY_NAMES, **_OPTIONS_EN, **_KEY_LABELS["en"], **_DATA_EN,
        "dc.play": "{seat} sends agent {code} to {country}: +{influence} influence"
                   "{bonus:select:0=|other=, +{bonus} bonus {bonus:plural:point|points}}",
        "dc.play.action": "send agent {code} to {country}: +{influence} influence{bonus_text}",
        "dc.bonus.run": ", +{bonus} bonus {bonus:plural:point|points} (run)",
        "dc.bonus.triple": ", +{bonus} bonus {bonus:plural:point|points} (triple)",
        "dc.bonus.none": "",
        "dc.draw": "{seat} draws a {value}",
        "dc.draw.hidden": "{seat} draws a card",
        "dc.draw.open": "{seat} draws a {value} face up",
        "dc.start": "{seat} starts",
        "dc.turn": "{seat}'s turn",
        "dc.round": "Round {round}",
        "dc.blocked": "{seat} is blocked and shows their hand: {hand}",
        "dc.blocked.empty": "{seat} has no cards left, neither in hand nor in the deck",
        "dc.out": "{seat} is out of the game with {score} {score:plural:point|points}",
        "dc.majority": "Majority in {country}: {seats} {seats:plural:scores|score} {points} "
                       "{points:plural:point|points}{seats:plural:| each}",
        "dc.majority.none": "Majority in {country}: nobody scores",
        "dc.final": "Final scores: {standings}. {seats:plural:Winner|Winners}: {seats}",
        "dc.ui.title": "Don Carlo",
        "dc.ui.your_hand": "Your hand: {hand}",
        "dc.ui.hand": "hand {size} (known: {known})",
        "dc.ui.hand_public": "hand {hand}",
        "dc.ui.deck": "deck {size}",
        "dc.ui.score": "{total} {total:plural:point|points} (influence {influence}, bonus {bonus}, countries "
                       "{countries})",
        "dc.ui.out": "out",
        "dc.ui.blocked": "blocked",
        "dc.ui.country": "{name} (sums {sums}, majority {points} {points:plural:point|points}{r})",
        "dc.ui.reconstructed": ", reconstructed",
        "dc.ui.no_agents": "no agents",
        "dc.ui.over": "Game over. Ranks: {ranks}",
        "dc.ui.tie_rule": "Majority ties: {rule}",
        "dc.ui.empty": "",
        "dc.standing": "{seat} {points} {points:plural:point|points}",
    },
    "de": {
        **_COUNTRY_NAMES, **_OPTIONS_DE, **_KEY_LABELS["de"], **_DATA_DE,
        "dc.play": "{seat} schickt Agent {code} nach {country}: +{influence} Einfluss"
                   "{bonus:select:0=|other=, +{bonus} {bonus:plural:Bonuspunkt|Bonuspunkte}}",
        "dc.play.action": "Agent {code} nach {country} schicken: +{influence} Einfluss{bonus_text}",
        "dc.bonus.run": ", +{bonus} {bonus:plural:Bonuspunkt|Bonuspunkte} (Folge)",
        "dc.bonus.triple": ", +{bonus} {bonus:plural:Bonuspunkt|Bonuspunkte} (Drilling)",
        "dc.bonus.none": "",
        "dc.draw": "{seat} zieht eine {value}",
        "dc.draw.hidden": "{seat} zieht eine Karte",
        "dc.draw.open": "{seat} zieht offen eine {value}",
        "dc.start": "{seat} beginnt",
        "dc.turn": "{seat} ist am Zug",
        "dc.round": "Runde {round}",
        "dc.blocked": "{seat} ist blockiert und zeigt die Handkarten: {hand}",
        "dc.blocked.empty": "{seat} hat keine Karten mehr, weder auf der Hand noch im Stapel",
        "dc.out": "{seat} scheidet mit {score} {score:plural:Punkt|Punkten} aus",
        "dc.majority": "Mehrheit in {country}: {seats} {seats:plural:erhält|erhalten je} {points} "
                       "{points:plural:Punkt|Punkte}",
        "dc.majority.none": "Mehrheit in {country}: niemand punktet",
        "dc.final": "Endstand: {standings}. {seats:plural:Gewinner|Gewinner}: {seats}",
        "dc.ui.title": "Don Carlo",
        "dc.ui.your_hand": "Deine Hand: {hand}",
        "dc.ui.hand": "Hand {size} (bekannt: {known})",
        "dc.ui.hand_public": "Hand {hand}",
        "dc.ui.deck": "Stapel {size}",
        "dc.ui.score": "{total} {total:plural:Punkt|Punkte} (Einfluss {influence}, Bonus {bonus}, Länder {countries})",
        "dc.ui.out": "ausgeschieden",
        "dc.ui.blocked": "blockiert",
        "dc.ui.country": "{name} (Summen {sums}, Mehrheit {points} {points:plural:Punkt|Punkte}{r})",
        "dc.ui.reconstructed": ", rekonstruiert",
        "dc.ui.no_agents": "keine Agenten",
        "dc.ui.over": "Spielende. Plätze: {ranks}",
        "dc.ui.tie_rule": "Gleichstand bei Mehrheiten: {rule}",
        "dc.ui.empty": "",
        "dc.standing": "{seat} {points} {points:plural:Punkt|Punkte}",
    },
}

_RECONSTRUCTED = {c.id: c.reconstructed for c in COUNTRIES}


def describe_action(s: DonCarloState, player: Player, action: DonCarloAction, viewer: Viewer) -> Message:
    """How ``viewer`` sees ``player`` doing ``action`` in state ``s`` (before it is applied).

    What the viewer sees of the action is :func:`~tablero.games.doncarlo.engine.redact_action`.
    """
    seen = redact_action(s, player, action, viewer)
    if isinstance(seen, Play):
        country = s.data.code_country[s.n][seen.code]
        cid = COUNTRIES[country].id if country >= 0 else "none"
        gain = len(s.agents[country]) + 1 if country >= 0 else 0
        bonus = s.data.code_bonus[seen.code]
        if player == viewer:
            kind = code_kind(ALL_CODES[seen.code]) if bonus else None
            btext = Message(f"dc.bonus.{kind}", bonus=bonus) if kind else Message("dc.bonus.none")
            return Message("dc.play.action", code=seen.to_text(),
                           country=Message(f"dc.country.{cid}"), influence=gain,
                           bonus_text=btext)
        return Message("dc.play", seat=player, code=seen.to_text(),
                       country=Message(f"dc.country.{cid}"), influence=gain, bonus=bonus)
    if isinstance(seen, StartSeat):
        return Message("dc.start", seat=seen.seat)
    if isinstance(seen, Draw):
        if s.phase == BLOCKED_DRAW:
            return Message("dc.draw.open", seat=s.turn, value=seen.value)
        return Message("dc.draw", seat=s.turn, value=seen.value)
    return Message("dc.draw.hidden", seat=s.turn)


def _cards(values: tuple[int, ...] | list[int]) -> str:
    return " ".join(f"[{v}]" for v in values) if values else "-"


def render_view(view: DonCarloView, tr: Callable[[Message], str]) -> str:
    """A text picture of the table for the terminal (rich markup)."""
    pub, dec = view.public, view.deciding
    own = view.private.hand if view.private is not None else None
    lines: list[str] = []
    name = getattr(tr, "seat", lambda i: f"Seat {i + 1}")
    lines.append(f"[bold]{tr(Message('dc.ui.title'))}[/bold]   "
                 f"{tr(Message('dc.ui.tie_rule', rule=Message(f'option.majority_tie.{pub.tie_rule}')))}")
    for c in pub.countries:
        r = Message("dc.ui.reconstructed") if _RECONSTRUCTED[c.id] else Message("dc.ui.empty")
        head = tr(Message("dc.ui.country", name=Message(f"dc.country.{c.id}"),
                          sums=",".join(str(x) for x in c.sums), points=c.points, r=r))
        if c.agents:
            agents = "  ".join(
                f"[{FAMILY_COLOURS[seat]}]{code}[/{FAMILY_COLOURS[seat]}] ({name(seat)})"
                for seat, code in c.agents
            )
        else:
            agents = f"[dim]{tr(Message('dc.ui.no_agents'))}[/dim]"
        lines.append(f"  [bold]{head}[/bold]")
        lines.append(f"      {agents}")
    lines.append("")
    for p in range(pub.players):
        colour = FAMILY_COLOURS[p]
        marker = "▶" if p in dec.to_act or (dec.turn == p and dec.phase != "over") else " "
        shown = pub.hands[p]
        if shown is not None:
            hand = tr(Message("dc.ui.hand_public", hand=_cards(shown)))
        elif view.private is not None and view.private.seat == p:
            hand = tr(Message("dc.ui.hand_public", hand=_cards(view.private.hand)))
        else:
            hand = tr(Message("dc.ui.hand", size=pub.hand_sizes[p], known=_cards(pub.known[p])))
        status = ""
        if pub.out[p]:
            status = f" [dim]{tr(Message('dc.ui.out'))}[/dim]"
        elif dec.blocked == p:
            status = f" [red]{tr(Message('dc.ui.blocked'))}[/red]"
        score = tr(Message("dc.ui.score", total=pub.scores[p], influence=pub.influence[p],
                           bonus=pub.bonus[p], countries=pub.country_points[p]))
        lines.append(f"{marker} [bold {colour}]■ {name(p)}[/bold {colour}]  {score}{status}")
        lines.append(f"      {hand}  {tr(Message('dc.ui.deck', size=pub.deck_sizes[p]))}")
    if own is not None and dec.phase != "over":
        lines.append("")
        lines.append(f"[bold]{tr(Message('dc.ui.your_hand', hand=_cards(own)))}[/bold]")
    if pub.ranks is not None:
        ranks = ", ".join(f"{r}. {name(p)}" for p, r in sorted(enumerate(pub.ranks), key=lambda x: x[1]))
        lines.append("")
        lines.append(f"[bold]{tr(Message('dc.ui.over', ranks=ranks))}[/bold]")
    return "\n".join(lines)


# ---- the end screen's score sheet (sheet.py): its row labels, merged into CATALOGUE ----
SHEET_CATALOGUE: Catalogue = {
    "en": {
        "dc.sheet.total": "Total",
        "dc.sheet.earlier": "Points at the start position",
        "dc.sheet.influence": "Influence",
        "dc.sheet.bonus": "Bonus",
        "dc.sheet.runs": "Runs (+{bonus} each)",
        "dc.sheet.triples": "Triples (+{bonus} each)",
        "dc.sheet.majorities": "Country majorities",
    },
    "de": {
        "dc.sheet.total": "Summe",
        "dc.sheet.earlier": "Punkte der Startstellung",
        "dc.sheet.influence": "Einfluss",
        "dc.sheet.bonus": "Bonus",
        "dc.sheet.runs": "Folgen (je +{bonus})",
        "dc.sheet.triples": "Drillinge (je +{bonus})",
        "dc.sheet.majorities": "Mehrheiten in den Ländern",
    },
}
CATALOGUE = {lang: {**CATALOGUE[lang], **SHEET_CATALOGUE.get(lang, {})} for lang in CATALOGUE}
