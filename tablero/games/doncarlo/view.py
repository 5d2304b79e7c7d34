"""What a seat may know (§9), and sampling a full state consistent with it.

The view is built field by field from what the viewer may see (an allow-list): the
viewer's own hand; for every seat the hand size, deck size and the known multiset K;
everything on the table. A spectator sees what every seat sees of the others. At the end
of the game every hand is public (§6).
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any, Final

from tablero.games.doncarlo.actions import CODE_BY_TEXT, CODE_TEXTS
from tablero.games.doncarlo.data import CODES, COUNTRIES, COUNTRY_INDEX, FAMILY_COUNTS
from tablero.games.doncarlo.engine import POW5, hand_values, has_legal_code, new_state
from tablero.games.doncarlo.state import OVER, PHASE_NAMES, PLAY, DonCarloState

DEFAULT_POINTS: Final = {c.id: c.default_points for c in COUNTRIES}
"""Majority points of the countries out of play (no view shows them; they never score)."""
MAX_TRIES: Final = 1000
"""Hands sampled for a seat about to play before determinize gives up (it never needs many)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CountryView:
    id: str
    sums: tuple[int, ...]
    points: int
    agents: tuple[tuple[int, str], ...]  # (seat, code) in the order sent


@dataclass(frozen=True, slots=True, kw_only=True)
class DonCarloView:
    viewer: int | None
    players: int
    phase: str
    turn: int
    to_act: tuple[int, ...]
    start_seat: int  # -1 until known
    start_option: int | None  # the start_seat option (None = random)
    hand: tuple[int, ...] | None  # the viewer's own hand (sorted values); None for spectators
    hands: tuple[tuple[int, ...] | None, ...]  # per seat: the whole hand where public (end), else None
    known: tuple[tuple[int, ...], ...]  # per seat: K, the known part of his hand
    hand_sizes: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    countries: tuple[CountryView, ...]  # in play, ascending sums
    influence: tuple[int, ...]
    bonus: tuple[int, ...]
    country_points: tuple[int, ...]
    scores: tuple[int, ...]
    out: tuple[bool, ...]
    blocked: int | None  # the active seat while his blocked turn is under way
    tie_rule: str
    ranks: tuple[int, ...] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "viewer": self.viewer,
            "players": self.players,
            "phase": self.phase,
            "turn": self.turn,
            "to_act": list(self.to_act),
            "start_seat": self.start_seat,
            "start_option": self.start_option,
            "hand": None if self.hand is None else list(self.hand),
            "hands": [None if h is None else list(h) for h in self.hands],
            "known": [list(k) for k in self.known],
            "hand_sizes": list(self.hand_sizes),
            "deck_sizes": list(self.deck_sizes),
            "countries": [
                {"id": c.id, "sums": list(c.sums), "points": c.points,
                 "agents": [[s, code] for s, code in c.agents]}
                for c in self.countries
            ],
            "influence": list(self.influence),
            "bonus": list(self.bonus),
            "country_points": list(self.country_points),
            "scores": list(self.scores),
            "out": list(self.out),
            "blocked": self.blocked,
            "tie_rule": self.tie_rule,
            "ranks": None if self.ranks is None else list(self.ranks),
        }

    def used_codes(self) -> frozenset[str]:
        return frozenset(code for c in self.countries for _, code in c.agents)


def observe_state(s: DonCarloState, viewer: int | None) -> DonCarloView:
    """What ``viewer`` (a seat, or None for a spectator) may know of ``s`` (§9)."""
    over = s.phase == OVER
    n = s.n
    own = viewer is not None and 0 <= viewer < n
    scores = tuple(s.score(p) for p in range(n))
    ranks = None
    if over:
        ranks = tuple(1 + sum(1 for o in scores if o > x) for x in scores)
    return DonCarloView(
        viewer=viewer,
        players=n,
        phase=PHASE_NAMES[s.phase],
        turn=s.turn,
        to_act=s.actors,
        start_seat=s.start_seat,
        start_option=s.start_option,
        hand=hand_values(s.hand[viewer]) if own and viewer is not None else None,
        hands=tuple(hand_values(s.hand[p]) if over else None for p in range(n)),
        known=tuple(hand_values(k) for k in s.known),
        hand_sizes=tuple(s.hand_size),
        deck_sizes=tuple(s.deck_size),
        countries=tuple(
            CountryView(
                id=COUNTRIES[c].id,
                sums=tuple(sorted(COUNTRIES[c].sums)),
                points=s.points[c],
                agents=tuple((seat, CODE_TEXTS[code]) for seat, code in s.agents[c]),
            )
            for c in s.countries
        ),
        influence=tuple(s.influence),
        bonus=tuple(s.bonus),
        country_points=tuple(s.country_points),
        scores=scores,
        out=tuple(s.out),
        blocked=s.turn if s.blocked else None,
        tie_rule=s.tie_rule,
        ranks=ranks,
    )


def _counts(values: tuple[int, ...]) -> list[int]:
    c = [0] * 7
    for v in values:
        c[v] += 1
    return c


def determinize_view(view: DonCarloView, viewer: int, rng: Random) -> DonCarloState:
    """Sample a full state that ``viewer`` cannot tell from the real one.

    Each seat's hand and deck together are his family minus his agents (§9). What the viewer
    knows of a hand (his own hand, K, every hand at the end) is kept; the rest of each hand is
    drawn at random from the rest of that family. An active player in the PLAY phase must hold
    a legal code, so his hand is resampled until it does.
    """
    options = {
        "start_seat": "random" if view.start_option is None else view.start_option,
        "country_points": {**DEFAULT_POINTS, **{c.id: c.points for c in view.countries}},
        "majority_tie": view.tie_rule,
    }
    s = new_state(view.players, options)
    n = view.players
    s.phase = PHASE_NAMES.index(view.phase)
    s.turn = view.turn
    s.start_seat = view.start_seat
    s.actors = view.to_act
    s.blocked = view.blocked is not None
    s.influence = list(view.influence)
    s.bonus = list(view.bonus)
    s.country_points = list(view.country_points)
    s.out = list(view.out)
    played = [[0] * 7 for _ in range(n)]
    for cv in view.countries:
        ci = COUNTRY_INDEX[cv.id]
        for seat, code in cv.agents:
            idx = CODE_BY_TEXT[code]
            s.agents[ci].append((seat, idx))
            s.used[idx] = 1
            s.plays += 1
            for v in CODES[idx]:
                played[seat][v] += 1
    s.known = [_counts(k) for k in view.known]
    for _ in range(MAX_TRIES):
        for p in range(n):
            rest = [FAMILY_COUNTS[v] - played[p][v] for v in range(7)]
            shown = view.hands[p]
            if p == viewer and view.hand is not None:
                hand = _counts(view.hand)
            elif shown is not None:
                hand = _counts(shown)
            else:
                hand = s.known[p][:]
                pool = [v for v in range(7) for _ in range(rest[v] - hand[v])]
                hidden = view.hand_sizes[p] - sum(hand)
                for v in rng.sample(pool, hidden):
                    hand[v] += 1
            s.hand[p] = hand
            s.hand_key[p] = sum(c * POW5[v] for v, c in enumerate(hand))
            s.hand_size[p] = sum(hand)
            s.deck[p] = [rest[v] - hand[v] for v in range(7)]
            s.deck_size[p] = sum(s.deck[p])
        if s.phase != PLAY or has_legal_code(s, s.turn):
            return s
    raise RuntimeError("no consistent hand found for the active player")
