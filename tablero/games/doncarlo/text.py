"""Don Carlo words: the message catalogue (German, English), descriptions, the table picture."""

from __future__ import annotations

from collections.abc import Callable

from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import Player, Viewer
from tablero.games.doncarlo.actions import DonCarloAction, Draw, Play, StartSeat
from tablero.games.doncarlo.data import COUNTRIES, FAMILY_COLOURS
from tablero.games.doncarlo.engine import CODE_BONUS, CODE_COUNTRY, redact_action
from tablero.games.doncarlo.state import BLOCKED_DRAW, DonCarloState
from tablero.games.doncarlo.view import DonCarloView

_COUNTRY_NAMES = {f"dc.country.{c.id}": c.name for c in COUNTRIES}

CATALOGUE: Catalogue = {
    "en": {
        **_COUNTRY_NAMES,
        "dc.play": "{seat} sends agent {code} to {country}: +{influence} influence, +{bonus} bonus",
        "dc.play.action": "send agent {code} to {country} (+{influence}{bonus_text})",
        "dc.bonus.run": ", run +1",
        "dc.bonus.triple": ", triple +2",
        "dc.bonus.none": "",
        "dc.draw": "{seat} draws a {value}",
        "dc.draw.hidden": "{seat} draws a card",
        "dc.draw.open": "{seat} draws a {value} in the open",
        "dc.start": "{seat} starts",
        "dc.turn": "{seat}'s turn",
        "dc.blocked": "{seat} is blocked and reveals the hand: {hand}",
        "dc.blocked.empty": "{seat} has no cards left in hand or deck",
        "dc.out": "{seat} is out of the game with {score} points",
        "dc.majority": "Majority in {country}: {seats} score {points}",
        "dc.majority.none": "Majority in {country}: nobody scores",
        "dc.final": "Final scores {scores}; winner: {seats}",
        "dc.ui.title": "Don Carlo",
        "dc.ui.your_hand": "Your hand: {hand}",
        "dc.ui.hand": "hand {size} (known: {known})",
        "dc.ui.hand_public": "hand {hand}",
        "dc.ui.deck": "deck {size}",
        "dc.ui.score": "{total} points (influence {influence}, bonus {bonus}, countries {countries})",
        "dc.ui.out": "out",
        "dc.ui.blocked": "blocked",
        "dc.ui.country": "{name} (sums {sums}, majority {points}{r})",
        "dc.ui.reconstructed": ", reconstructed",
        "dc.ui.no_agents": "no agents",
        "dc.ui.over": "Game over. Ranks: {ranks}",
        "dc.ui.tie_rule": "Majority ties: {rule}",
        "dc.ui.empty": "",
    },
    "de": {
        **_COUNTRY_NAMES,
        "dc.play": "{seat} schickt Agent {code} nach {country}: +{influence} Einfluss, +{bonus} Bonus",
        "dc.play.action": "Agent {code} nach {country} schicken (+{influence}{bonus_text})",
        "dc.bonus.run": ", Folge +1",
        "dc.bonus.triple": ", Drilling +2",
        "dc.bonus.none": "",
        "dc.draw": "{seat} zieht eine {value}",
        "dc.draw.hidden": "{seat} zieht eine Karte",
        "dc.draw.open": "{seat} zieht offen eine {value}",
        "dc.start": "{seat} beginnt",
        "dc.turn": "{seat} ist am Zug",
        "dc.blocked": "{seat} ist blockiert und deckt die Hand auf: {hand}",
        "dc.blocked.empty": "{seat} hat weder Handkarten noch Stapel",
        "dc.out": "{seat} scheidet mit {score} Punkten aus",
        "dc.majority": "Mehrheit in {country}: {seats} erhalten {points}",
        "dc.majority.none": "Mehrheit in {country}: niemand punktet",
        "dc.final": "Endstand {scores}; Sieger: {seats}",
        "dc.ui.title": "Don Carlo",
        "dc.ui.your_hand": "Deine Hand: {hand}",
        "dc.ui.hand": "Hand {size} (bekannt: {known})",
        "dc.ui.hand_public": "Hand {hand}",
        "dc.ui.deck": "Stapel {size}",
        "dc.ui.score": "{total} Punkte (Einfluss {influence}, Bonus {bonus}, Länder {countries})",
        "dc.ui.out": "ausgeschieden",
        "dc.ui.blocked": "blockiert",
        "dc.ui.country": "{name} (Summen {sums}, Mehrheit {points}{r})",
        "dc.ui.reconstructed": ", rekonstruiert",
        "dc.ui.no_agents": "keine Agenten",
        "dc.ui.over": "Spielende. Plätze: {ranks}",
        "dc.ui.tie_rule": "Gleichstand bei Mehrheiten: {rule}",
        "dc.ui.empty": "",
    },
}

_RECONSTRUCTED = {c.id: c.reconstructed for c in COUNTRIES}


def describe_action(s: DonCarloState, player: Player, action: DonCarloAction, viewer: Viewer) -> Message:
    """How ``viewer`` sees ``player`` doing ``action`` in state ``s`` (before it is applied).

    What the viewer sees of the action is :func:`~tablero.games.doncarlo.engine.redact_action`.
    """
    seen = redact_action(s, player, action, viewer)
    if isinstance(seen, Play):
        country = CODE_COUNTRY[s.n][seen.code]
        cid = COUNTRIES[country].id if country >= 0 else "none"
        gain = len(s.agents[country]) + 1 if country >= 0 else 0
        bonus = CODE_BONUS[seen.code]
        if player == viewer:
            btext = ("dc.bonus.none", "dc.bonus.run", "dc.bonus.triple")[bonus]
            return Message("dc.play.action", code=seen.to_text(),
                           country=Message(f"dc.country.{cid}"), influence=gain,
                           bonus_text=Message(btext))
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
                 f"{tr(Message('dc.ui.tie_rule', rule=pub.tie_rule))}")
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
