"""Shared helpers for the El Grande tests: wire-text drivers, forced steps, quiet turns, logs.

Players A, B, C, D, E are seats 0, 1, 2, 3, 4 (spec §15 notation). Every action is given by
its wire text (``place galicia``, ``move galicia 1 castillo``, ``take 2E``, ``disk sevilla``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tablero.core.events import Event, visible_log
from tablero.core.match import Match
from tablero.core.messages import Message
from tablero.core.protocol import CHANCE
from tablero.games.elgrande.actions import EGAction, parse
from tablero.games.elgrande.data import AREA_IDS, CARD_TYPES, NUM_REGIONS
from tablero.games.elgrande.rules import GAME
from tablero.games.elgrande.setup import take
from tablero.games.elgrande.state import PHASE_NAMES, ElGrandeState
from tablero.games.elgrande.view import ElGrandeView, PrivateView

A, B, C, D, E = range(5)
REGION_IDS = AREA_IDS[:NUM_REGIONS]
"""The 9 region ids in the order of §2.2 (the Castillo excluded)."""

QUIET = ("intake 0", "place_first", "end_placement", "skip_action", "allow")
"""What a passive player prefers when the tests let a turn go by (no action, no placement)."""


def legal_texts(s: ElGrandeState, seat: int | None = None) -> set[str]:
    """The wire texts of ``seat``'s legal actions (default: the first seat to act)."""
    seat = s.actors[0] if seat is None else seat
    return {a.to_text() for a in GAME.legal_actions(s, seat)}


def phase(s: ElGrandeState) -> str:
    return PHASE_NAMES[s.phase]


def play(s: ElGrandeState, seat: int, *texts: str, events: list[Event] | None = None) -> None:
    """``seat`` applies each wire text in turn (raises IllegalActionError on the first illegal one)."""
    for t in texts:
        GAME.apply(s, seat, parse(t), events)


def chance(s: ElGrandeState, *texts: str, events: list[Event] | None = None) -> None:
    """Force chance outcomes (``deal galicia``, ``reveal 1A``, ``start 0``)."""
    for t in texts:
        assert GAME.to_act(s) == (CHANCE,), f"no chance node now ({phase(s)})"
        GAME.apply(s, CHANCE, parse(t), events)


def forced(s: ElGrandeState, seat: int, text: str, events: list[Event] | None = None) -> None:
    """Assert that ``text`` is ``seat``'s only legal action (a forced step, §0) and apply it."""
    assert legal_texts(s, seat) == {text}
    play(s, seat, text, events=events)


def drive(s: ElGrandeState, events: list[Event] | None = None, limit: int = 1000) -> list[tuple[int, str]]:
    """Apply forced steps as the Match driver does (a seat with exactly one legal action), until a
    seat has a real choice, a chance node is due or the game is over. Returns (seat, text) applied."""
    done: list[tuple[int, str]] = []
    for _ in range(limit):
        actors = GAME.to_act(s)
        if not actors or actors[0] == CHANCE:
            return done
        for p in actors:
            legal = GAME.legal_actions(s, p)
            if len(legal) == 1:
                GAME.apply(s, p, legal[0], events)
                done.append((p, legal[0].to_text()))
                break
        else:
            return done
    raise AssertionError("drive did not stop")


def quiet_step(s: ElGrandeState, events: list[Event] | None = None) -> tuple[int, str]:
    """One action of a passive game: the first chance outcome, else the acting seat's preferred
    quiet action (QUIET), else its first legal action. Returns (seat, text)."""
    actors = GAME.to_act(s)
    assert actors, "the game is over"
    if actors[0] == CHANCE:
        a = GAME.chance_outcomes(s)[0][0]
        GAME.apply(s, CHANCE, a, events)
        return CHANCE, a.to_text()
    p = actors[0]
    legal = GAME.legal_actions(s, p)
    texts = [a.to_text() for a in legal]
    pick = next((legal[texts.index(t)] for t in QUIET if t in texts), legal[0])
    GAME.apply(s, p, pick, events)
    return p, pick.to_text()


def run_until(s: ElGrandeState, done: Callable[[ElGrandeState], bool],
              events: list[Event] | None = None, limit: int = 2000) -> list[tuple[int, str]]:
    """Quiet steps until ``done(s)`` holds. Returns the applied (seat, text) pairs."""
    out: list[tuple[int, str]] = []
    for _ in range(limit):
        if done(s):
            return out
        out.append(quiet_step(s, events))
    raise AssertionError(f"condition never reached (phase {phase(s)})")


def pass_turn(s: ElGrandeState, card: str, events: list[Event] | None = None) -> None:
    """The active seat takes no caballeros (INTAKE 0 if asked), takes ``card``, places nothing and
    skips the special action; afterwards the next turn (or the end of the round) has begun."""
    p = s.active
    if phase(s) == "intake":
        play(s, p, "intake 0", events=events)
    take(s, card, events)
    while s.active == p and phase(s) in ("order", "place", "after_placement"):
        quiet_step(s, events)


def msgs(events: Iterable[Event], viewer: int | None) -> list[Message]:
    """The log as ``viewer`` sees it (None = spectator)."""
    return visible_log(events, viewer)


def ids(events: Iterable[Event], viewer: int | None = None) -> list[str]:
    return [m.id for m in visible_log(events, viewer)]


def stack_sizes(s: ElGrandeState) -> tuple[int, int, int, int]:
    """Face-down cards left in stacks 1-4."""
    sizes = [0, 0, 0, 0]
    for c, t in enumerate(CARD_TYPES):
        if t.stack <= 4:
            sizes[t.stack - 1] += s.unseen[c]
    return sizes[0], sizes[1], sizes[2], sizes[3]


def total(s: ElGrandeState, seat: int) -> int:
    """Court + province + all regions + Castillo (the conservation invariant, §3)."""
    return s.court[seat] + s.province[seat] + sum(s.cab[seat])


def own(view: ElGrandeView) -> PrivateView:
    """The private part of a seat's view (a spectator has none)."""
    assert view.private is not None, "a seat's view has a private part"
    return view.private


def match_at(state: ElGrandeState, seed: int = 0) -> Match[ElGrandeState, EGAction, ElGrandeView]:
    """A match driver starting from a copy of ``state`` (a scenario; its record has the position
    as ``setup`` and no entries yet), advanced as the driver does: chance sampled, forced steps
    applied (and recorded as ordinary entries)."""
    options = {"start_seat": 0, "short_game": state.short_game, "castillo_open": state.castillo_open}
    return Match.from_state(GAME, state, [f"P{i}" for i in range(state.n)], options=options, seed=seed)
