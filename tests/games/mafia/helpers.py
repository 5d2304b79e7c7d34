"""Shared helpers for the Mafia Legend tests: wire-text drivers, forced steps, quiet turns, card counts.

Players A, B, C, D are seats 0, 1, 2, 3 (spec §20 notation); unless a test says otherwise the
turn order is A, B, C, D and the families are Moretti, Rinaldi, Orsini, Lombardo
(``tablero.games.mafia.setup.DEFAULT_FAMILIES``). Every action is given by its wire text.
"""

from __future__ import annotations

from collections.abc import Callable

from tablero.core.events import Event
from tablero.core.protocol import CHANCE
from tablero.games.mafia import data
from tablero.games.mafia.actions import parse
from tablero.games.mafia.rules import GAME
from tablero.games.mafia.state import Decision, MafiaState

A, B, C, D = range(4)

QUIET = ("disc none", "end_plays", "job_skip", "no_defence", "no_reroll", "a_draw no", "family_ties no",
         "guardian no", "spitzel_done")
"""What a passive player prefers when a test lets turns or a month end go by."""


def texts(s: MafiaState, seat: int | None = None) -> set[str]:
    """The wire texts of ``seat``'s legal actions (default: the first seat to act)."""
    p = s.actors[0] if seat is None else seat
    return {a.to_text() for a in GAME.legal_actions(s, p)}


def kinds(s: MafiaState, prefix: str, seat: int | None = None) -> set[str]:
    """The legal wire texts of ``seat`` that start with ``prefix`` (e.g. ``"disc"``, ``"play"``)."""
    return {t for t in texts(s, seat) if t.split()[0] == prefix}


def do(s: MafiaState, *wire: str, seat: int | None = None, events: list[Event] | None = None) -> None:
    """``seat`` (default: the first seat to act, re-read before each text) applies each wire text."""
    for w in wire:
        p = s.actors[0] if seat is None else seat
        assert p != CHANCE, f"a chance node is due, not a decision (before {w!r})"
        GAME.apply(s, p, parse(w), events)


def chance(s: MafiaState, *wire: str, events: list[Event] | None = None) -> None:
    """Force chance outcomes (``draw G2``, ``roll 4``, ``start 0``)."""
    for w in wire:
        assert GAME.to_act(s) == (CHANCE,), f"no chance node now (pending {s.decision})"
        GAME.apply(s, CHANCE, parse(w), events)


def draw_any(s: MafiaState, k: int = 1) -> list[str]:
    """Apply ``k`` chance nodes with their first outcome; returns the outcomes' texts."""
    out = []
    for _ in range(k):
        assert GAME.to_act(s) == (CHANCE,), f"no chance node now (pending {s.decision})"
        a = GAME.chance_outcomes(s)[0][0]
        GAME.apply(s, CHANCE, a)
        out.append(a.to_text())
    return out


def forced(s: MafiaState, text: str) -> None:
    """Assert that ``text`` is the only legal action of the seat to act and that the driver would
    apply it without asking (§18.4), then apply it."""
    p = s.actors[0]
    assert texts(s, p) == {text}, texts(s, p)
    assert not GAME.always_asked(s, p)
    do(s, text, seat=p)


def asked(s: MafiaState, seat: int, text: str, *, only: bool = False) -> None:
    """An always-asked decision (turn steps, DEFEND, §18.4) of ``seat``: check it is asked and
    apply ``text``; with ``only`` also check that ``text`` is the only legal option."""
    assert s.actors == (seat,), s.actors
    assert GAME.always_asked(s, seat)
    if only:
        assert texts(s, seat) == {text}, texts(s, seat)
    do(s, text, seat=seat)


def quiet(s: MafiaState, until: Callable[[MafiaState], bool], limit: int = 2000) -> list[tuple[int, str]]:
    """Let the game run passively until ``until(s)``: chance nodes take their first outcome, a
    decision takes the first QUIET text that is legal, a hand-limit discard the first card in id
    order, else the only legal option (any other real choice fails the test). Returns the
    (seat, text) of every action applied (chance as seat CHANCE)."""
    log: list[tuple[int, str]] = []
    for _ in range(limit):
        if until(s) or s.over:
            return log
        if GAME.to_act(s) == (CHANCE,):
            log.append((CHANCE, draw_any(s)[0]))
            continue
        p = s.actors[0]
        legal = texts(s, p)
        pick = next((q for q in QUIET if q in legal), None)
        if pick is None and kind_of(s) == "discard":  # the hand limit: the first card in id order
            pick = min(legal)
        if pick is None:
            assert len(legal) == 1, f"seat {p} has a real choice: {sorted(legal)}"
            pick = next(iter(legal))
        do(s, pick, seat=p)
        log.append((p, pick))
    raise AssertionError("quiet did not reach the condition")


def turn_of(seat: int, month: int | None = None) -> Callable[[MafiaState], bool]:
    """A condition for :func:`quiet`: ``seat``'s step-1 decision is open (in ``month`` if given)."""
    def at(s: MafiaState) -> bool:
        return (s.decision == Decision("turn", seat) and s.step == 1 and (month is None or s.month == month))
    return at


def pending(s: MafiaState) -> Decision | None:
    """The open decision (a call, so that type checkers do not narrow the attribute)."""
    return s.decision


def kind_of(s: MafiaState) -> str:
    """The kind of the open decision or chance node, ``""`` if none."""
    return s.decision.kind if s.decision is not None else ""


def n_cards(d: dict[str, int]) -> int:
    return sum(d.values())


def card_totals(s: MafiaState) -> dict[str, int]:
    """Every action, money and character card of the game, wherever it is (for conservation)."""
    out: dict[str, int] = {}

    def add(c: str, k: int = 1) -> None:
        out[c] = out.get(c, 0) + k

    for deck in ("A", "M", "C"):
        for c, k in s.decks[deck].items():
            add(c, k)
    for pile in (s.disc_a, s.disc_m, s.disc_c, *s.hand_a, *s.hand_m, *s.screen):
        for c, k in pile.items():
            add(c, k)
    for q in range(s.n):
        for f in s.fields[q]:
            for slot in f:
                add(slot.card)
        x = s.atk[q]
        if x is not None and not x.is_disc:
            add(x.card)
            if x.defence:
                add(x.defence)
        for c in s.chars[q]:
            add(c)
    for c in s.row:
        if c:
            add(c)
    return out


def full_totals(players: int = 4, variant: str = "advanced") -> dict[str, int]:
    """The card totals of a new game (App. A–C)."""
    out = {c.id: c.count for c in data.ACTION_CARDS
           if variant == "advanced" or c.id not in data.BEGINNER_REMOVED}
    out.update(data.MONEY_COUNTS)
    out.update({c.id: 1 for c in data.CHARACTERS if players == 4 or not c.four_only})
    return out
