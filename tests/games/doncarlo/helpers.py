"""Shared helpers for the Don Carlo tests: an independent legality oracle and small drivers."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from random import Random

from tablero.core.events import Event
from tablero.core.match import Match
from tablero.core.protocol import CHANCE
from tablero.games.doncarlo import data
from tablero.games.doncarlo.actions import DRAWS, Play
from tablero.games.doncarlo.rules import GAME
from tablero.games.doncarlo.state import DonCarloState
from tablero.games.doncarlo.tutorial import options_of


def accepted_sums(players: int) -> set[int]:
    """Digit sums some country in play accepts (spec §2.2, §3.2 rule 3)."""
    return {x for c in data.COUNTRIES if players in c.players for x in c.sums}


def legal_by_spec(players: int, hand: Sequence[int], used: Collection[str]) -> set[str]:
    """§3.2 from scratch: every 1-4 card sub-multiset of ``hand`` (counts per value) whose sum a
    country in play accepts and that nobody has used."""
    sums = accepted_sums(players)
    out = set()
    for code in data.CODES:
        if all(hand[v] >= code.count(v) for v in set(code)) and sum(code) in sums:
            text = data.code_text(code)
            if text not in used:
                out.add(text)
    return out


def used_texts(s: DonCarloState) -> set[str]:
    return {data.code_text(data.CODES[code]) for agents in s.agents for _, code in agents}


def legal_texts(s: DonCarloState, seat: int | None = None) -> set[str]:
    seat = s.turn if seat is None else seat
    return {a.to_text() for a in GAME.legal_actions(s, seat)}


def draw(s: DonCarloState, *values: int, events: list[Event] | None = None) -> None:
    """Force the next draws (chance outcomes) to be ``values``."""
    for v in values:
        assert GAME.to_act(s) == (CHANCE,)
        GAME.apply(s, CHANCE, DRAWS[v], events)


def step(s: DonCarloState, rng: Random, avoid: Collection[str] = (),
         events: list[Event] | None = None) -> None:
    """One action: a sampled chance outcome, or the active seat's first legal code not in ``avoid``."""
    if GAME.to_act(s) == (CHANCE,):
        GAME.apply(s, CHANCE, GAME.sample_chance(s, rng), events)
        return
    legal = GAME.legal_actions(s, s.turn)
    pick = next((a for a in legal if a.to_text() not in avoid), legal[0])
    GAME.apply(s, s.turn, pick, events)


def run_until_turn(s: DonCarloState, seat: int, rng: Random, avoid: Collection[str] = (),
                   events: list[Event] | None = None) -> None:
    """Let the other seats play (first legal code not in ``avoid``) until ``seat``'s turn starts."""
    for _ in range(1000):
        if s.turn == seat or not GAME.to_act(s):
            return
        step(s, rng, avoid, events)
    raise AssertionError("seat's turn never came")


def match_at(state: DonCarloState, seed: int = 0) -> Match:  # type: ignore[type-arg]
    """A match driver starting from ``state`` (a scenario), advanced as the driver does:
    chance sampled, forced steps applied."""
    return Match.from_state(GAME, state, [f"P{i}" for i in range(state.n)], options=options_of(state), seed=seed)


def uniform_choice(view: object, legal: Sequence[Play], rng: Random) -> Play:
    return legal[rng.randrange(len(legal))]


class UniformBot:
    """A bot that picks uniformly among the legal codes with its own seeded RNG."""

    def choose(self, view: object, legal: Sequence[Play], rng: Random) -> Play:
        return uniform_choice(view, legal, rng)
