"""Mafia Legend names as nested messages: cards, money, fields, columns, decks, families, powers.

The log and the move labels never carry a wire token (``A04``, ``k2``, ``to_hand``,
``ashtray_money``, ``moretti``): every parameter that names a thing is one of these messages,
rendered from the catalogue in ``text.py`` (de/en). A card keeps its printed German name in both
languages, as on the board, with its code in brackets (``Razzia (A01)``); the message carries the
code as its ``code`` parameter too, for a reader of the log that needs the id.

Below the engine (imports only ``data`` and the core), so that ``engine.py`` and ``moves.py``
name things where they log them. The names are cached: a playout without a log (search, bots)
pays a dictionary look-up per name, not a new message.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Final

from tablero.core.messages import Message
from tablero.games.mafia import data

CARD: Final = "ml.card"
"""A named card: ``{name} ({code})``."""
MONEY: Final = "ml.money"
"""A money card: ``${value}``."""


@cache
def card(c: str) -> Message:
    """Any card by its id: action, character, job, event, mission (name and code) or money ($)."""
    if c in data.MONEY:
        return Message(MONEY, value=data.MONEY[c], code=c)
    if c in data.ACTIONS:
        name = data.ACTIONS[c].name
    elif c in data.CHARS:
        name = data.CHARS[c].name
    elif c in data.JOBS_BY_ID:
        name = data.JOBS_BY_ID[c].name
    elif c in data.EVENTS:
        name = data.EVENTS[c]
    elif c in data.MISSIONS:
        name = data.MISSIONS[c]
    else:
        raise KeyError(f"no card {c!r}")
    return Message(CARD, name=name, code=c)


def cards(cs: Iterable[str]) -> tuple[Message, ...] | Message:
    """A list of cards (``Message("ml.nothing")`` when empty, so a line never ends in a blank)."""
    out = tuple(card(c) for c in cs)
    return out if out else Message("ml.nothing")


@cache
def field(where: str) -> Message:
    """A field of the grid by its wire name: ``job``, ``k1``…``k4``, or ``atk:<seat>``."""
    if where.startswith("atk:"):
        return Message("ml.fld.atk", target_seat=int(where[4:]))
    if where == "job":
        return Message("ml.fld.job")
    return Message("ml.fld.k", k=int(where[1:]))


@cache
def column(col: str) -> Message:
    """A column of the grid by its wire name: ``atk``, ``job``, ``k1``…``k4``."""
    if col in ("atk", "job"):
        return Message(f"ml.col.{col}")
    return Message("ml.col.k", k=int(col[1:]))


@cache
def source(src: str) -> Message:
    """Where a played card comes from: ``hand`` or ``screen`` ("from the hand")."""
    return Message(f"ml.src.{src}")


@cache
def destination(to: str) -> Message:
    """Where a card taken back goes: ``hand`` or ``screen`` ("into the hand")."""
    return Message(f"ml.to.{to}")


@cache
def timing(t: str) -> Message:
    """When a face-up attack is resolved: ``now`` or ``me`` (month end)."""
    return Message(f"ml.timing.{t}")


@cache
def deck(d: str) -> Message:
    """A deck by its letter (A, M, C, J, E, X): "the action deck"."""
    return Message(f"ml.deck.{d}")


@cache
def unseen_card(d: str) -> Message:
    """A card drawn for a seat that the viewer does not see (deck A, M, E or X): "an action card"."""
    return Message(f"ml.unseen.{d}")


def disc_draws(t: data.Tables, where: str) -> int:
    """How many cards a disc placed at ``where`` (its wire name) draws with the tables ``t``."""
    if where == "ashtray_money":
        return t.ASHTRAY_MONEY
    return t.ASHTRAY_ACTIONS if where == "ashtray_actions" else 0


_ABILITY_COUNTS: Final = {"geldwaesche": "GELDWAESCHE", "spitzel": "SPITZEL_TAKE", "grossoffensive": "ORSINI_LIMIT"}


@cache
def ability(a: str, t: data.Tables = data.DEFAULT) -> Message:
    """A family ability used on the own turn (``geldwaesche``, ``spitzel``, ``grossoffensive``),
    with its number from the tables ``t``."""
    n: int = getattr(t, _ABILITY_COUNTS[a])
    return Message(f"ml.ab.{a}", n=n)


@cache
def family(f: str) -> Message:
    """A family by its id (``moretti``): "Moretti"."""
    return Message(f"ml.fam.{f}")


@cache
def power(pid: str) -> Message:
    """A power card by its id (``POL``): "Politik"."""
    return Message(f"ml.pw.{pid}", code=pid)


@cache
def month(m: int) -> Message:
    """A month by its number (1 = January)."""
    return Message(f"ml.mon.{m}")


def seat_score(seat: int, vp: int) -> Message:
    """One seat's final VP: "Ana 53 VP"."""
    return Message("ml.score", seat=seat, vp=vp)
