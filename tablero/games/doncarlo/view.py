"""What a seat may know (§9), and sampling a full state consistent with it.

A :class:`DonCarloView` has three parts, each built field by field from what the viewer may
see (an allow-list):

* ``public`` (:class:`PublicView`): what every seat and every spectator sees — the same for
  all viewers of a state. The countries in play with their agents, every seat's influence,
  bonus, country points and score, hand size, deck size and known multiset K, who is out, the
  options (tie rule, start seat); at the end of the game every hand (§6) and the ranks.
* ``private`` (:class:`PrivateView`, ``None`` for spectators): the seat's own hand.
* ``deciding`` (:class:`Deciding`): who decides what now — the phase, the active seat, who
  is to act and whether a blocked turn is under way.
* ``data``: the table's data (card counts, hand size, bonuses, the countries' sums and player
  counts with any ``--data`` overrides). The rules are public; the JSON carries the overrides
  only, as ``public.data`` and only where there are some (as every game's view JSON).

A spectator sees what every seat sees of the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any, Final

from tablero.core.serial import plain
from tablero.games.doncarlo.actions import CODE_BY_TEXT, CODE_TEXTS
from tablero.games.doncarlo.data import ALL_CODES, COUNTRIES, COUNTRY_INDEX, Tables
from tablero.games.doncarlo.engine import hand_values, has_legal_code, new_state
from tablero.games.doncarlo.state import OVER, PHASE_NAMES, PLAY, DonCarloState

DEFAULT_POINTS: Final = {c.id: c.default_points for c in COUNTRIES}
"""Majority points of the countries out of play (no view shows them; they never score)."""
MAX_TRIES: Final = 1000
"""Hands sampled for a seat about to play before determinize gives up (it never needs many)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CountryView:
    id: str
    sums: tuple[int, ...]
    """The digit sums the country accepts, ascending."""
    points: int
    """Majority points."""
    agents: tuple[tuple[int, str], ...]
    """(seat, code) in the order sent."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PublicView:
    """What every viewer of a state sees alike (per-seat tuples are indexed by seat)."""

    players: int
    start_seat: int
    """The seat that started; -1 until known."""
    start_option: int | None
    """The ``start_seat`` option (None = random)."""
    round: int
    """The round under way: 0 before the first turn, then +1 each time the turn comes round past
    the start seat (the rules have no rounds; the log's sections and the replay count them)."""
    tie_rule: str
    """The ``majority_tie`` option."""
    countries: tuple[CountryView, ...]
    """The countries in play, by ascending sums."""
    influence: tuple[int, ...]
    bonus: tuple[int, ...]
    country_points: tuple[int, ...]
    """Majority points scored (at the end)."""
    scores: tuple[int, ...]
    """Influence + bonus + country points."""
    hand_sizes: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    """K, the known part of each hand (sorted values, §5.3)."""
    hands: tuple[tuple[int, ...] | None, ...]
    """Each whole hand where it is public (at the end, §6), else None."""
    out: tuple[bool, ...]
    ranks: tuple[int, ...] | None
    """Shared ranks (1, 1, 3) at the end, else None."""

    def used_codes(self) -> frozenset[str]:
        """The codes of every agent on the table (no family may send them again)."""
        return frozenset(code for c in self.countries for _, code in c.agents)


@dataclass(frozen=True, slots=True, kw_only=True)
class PrivateView:
    """What only the seat itself knows."""

    seat: int
    hand: tuple[int, ...]
    """The seat's own hand (sorted values)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Deciding:
    """Who decides what now, as every viewer may know it."""

    phase: str
    """``state.PHASE_NAMES``: deal, start, play, refill, blocked_draw or over."""
    turn: int
    """The active seat (while dealing: the seat being dealt to)."""
    to_act: tuple[int, ...]
    """The seats (or chance) to act now."""
    blocked: int | None
    """The active seat while his blocked turn (open draws, §5.3) is under way, else None."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DonCarloView:
    viewer: int | None
    public: PublicView
    private: PrivateView | None
    """None for a spectator."""
    deciding: Deciding
    data: Tables
    """The table's data (the same object as the state's)."""

    def to_json(self) -> dict[str, Any]:
        public = plain(self.public)
        if self.data.overrides:  # the overrides only, where there are some (as every game's view JSON)
            public["data"] = self.data.overrides_json()
        return {"viewer": self.viewer, "public": public,
                "private": None if self.private is None else plain(self.private),
                "deciding": plain(self.deciding)}


OBSERVE_CACHE_SIZE: Final = 4096
"""Entries each of observe's caches keeps (countries, values of a multiset, private parts,
deciding parts); a cache is emptied when full."""


class _Values(dict[tuple[int, ...], tuple[int, ...]]):
    """Counts per value -> the sorted values (``hand_values``), filled as asked."""

    def __missing__(self, key: tuple[int, ...]) -> tuple[int, ...]:
        if len(self) >= OBSERVE_CACHE_SIZE:
            self.clear()
        value = self[key] = hand_values(key)
        return value


_VALUES: Final = _Values()
_COUNTRIES: Final[dict[tuple[Any, ...], CountryView]] = {}
"""(country index, its accepted sums, its points, its agents as the state has them) -> its view:
one object for a country that has not changed (the encoders cache by it)."""
_PRIVATE: Final[dict[tuple[int, tuple[int, ...]], PrivateView]] = {}
_DECIDING: Final[dict[tuple[int, int, tuple[int, ...], bool], Deciding]] = {}


def _country(c: int, sums: frozenset[int], points: int, agents: tuple[tuple[int, int], ...]) -> CountryView:
    if len(_COUNTRIES) >= OBSERVE_CACHE_SIZE:
        _COUNTRIES.clear()
    view = _COUNTRIES[c, sums, points, agents] = CountryView(
        id=COUNTRIES[c].id,
        sums=tuple(sorted(sums)),
        points=points,
        agents=tuple([(seat, CODE_TEXTS[code]) for seat, code in agents]),
    )
    return view


def observe_state(s: DonCarloState, viewer: int | None) -> DonCarloView:
    """What ``viewer`` (a seat, or None for a spectator) may know of ``s`` (§9).

    The parts that repeat from one step to the next (a country whose agents have not changed,
    a hand's values, the private and deciding parts) come from small caches keyed by everything
    they are made of: the same object for equal inputs.
    """
    over = s.phase == OVER
    n = s.n
    table = s.data.COUNTRIES
    influence = s.influence
    bonus = s.bonus
    country_points = s.country_points
    scores = tuple([a + b + c for a, b, c in zip(influence, bonus, country_points, strict=True)])
    ranks = None
    if over:
        ranks = tuple([1 + sum(1 for o in scores if o > x) for x in scores])
    points = s.points
    agents = s.agents
    cached = _COUNTRIES.get
    countries = []
    for c in s.countries:
        sums = table[c].sums
        a = tuple(agents[c])
        cv = cached((c, sums, points[c], a))
        if cv is None:
            cv = _country(c, sums, points[c], a)
        countries.append(cv)
    values = _VALUES.__getitem__
    public = PublicView(
        players=n,
        start_seat=s.start_seat,
        start_option=s.start_option,
        round=s.round,
        tie_rule=s.tie_rule,
        countries=tuple(countries),
        influence=tuple(influence),
        bonus=tuple(bonus),
        country_points=tuple(country_points),
        scores=scores,
        hand_sizes=tuple(s.hand_size),
        deck_sizes=tuple(s.deck_size),
        known=tuple(map(values, map(tuple, s.known))),
        hands=tuple(map(values, map(tuple, s.hand))) if over else (None,) * n,
        out=tuple(s.out),
        ranks=ranks,
    )
    private = None
    if viewer is not None and 0 <= viewer < n:
        hand = values(tuple(s.hand[viewer]))
        private = _PRIVATE.get((viewer, hand))
        if private is None:
            if len(_PRIVATE) >= OBSERVE_CACHE_SIZE:
                _PRIVATE.clear()
            private = _PRIVATE[viewer, hand] = PrivateView(seat=viewer, hand=hand)
    key = (s.phase, s.turn, s.actors, s.blocked)
    deciding = _DECIDING.get(key)
    if deciding is None:
        if len(_DECIDING) >= OBSERVE_CACHE_SIZE:
            _DECIDING.clear()
        deciding = _DECIDING[key] = Deciding(
            phase=PHASE_NAMES[s.phase],
            turn=s.turn,
            to_act=s.actors,
            blocked=s.turn if s.blocked else None,
        )
    return DonCarloView(viewer=viewer, public=public, private=private, deciding=deciding, data=s.data)


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
    pub, dec = view.public, view.deciding
    own = view.private.hand if view.private is not None and view.private.seat == viewer else None
    options = {
        "start_seat": "random" if pub.start_option is None else pub.start_option,
        "country_points": {**DEFAULT_POINTS, **{c.id: c.points for c in pub.countries}},
        "majority_tie": pub.tie_rule,
    }
    t = view.data
    s = new_state(pub.players, options, t)
    n = pub.players
    s.phase = PHASE_NAMES.index(dec.phase)
    s.turn = dec.turn
    s.start_seat = pub.start_seat
    s.round = pub.round
    s.actors = dec.to_act
    s.blocked = dec.blocked is not None
    s.influence = list(pub.influence)
    s.bonus = list(pub.bonus)
    s.country_points = list(pub.country_points)
    s.out = list(pub.out)
    played = [[0] * 7 for _ in range(n)]
    for cv in pub.countries:
        ci = COUNTRY_INDEX[cv.id]
        for seat, code in cv.agents:
            idx = CODE_BY_TEXT[code]
            s.agents[ci].append((seat, idx))
            s.used[idx] = 1
            s.plays += 1
            for v in ALL_CODES[idx]:
                played[seat][v] += 1
    s.known = [_counts(k) for k in pub.known]
    for _ in range(MAX_TRIES):
        for p in range(n):
            rest = [t.FAMILY_COUNTS[v] - played[p][v] for v in range(7)]
            shown = pub.hands[p]
            if p == viewer and own is not None:
                hand = _counts(own)
            elif shown is not None:
                hand = _counts(shown)
            else:
                hand = s.known[p][:]
                pool = [v for v in range(7) for _ in range(rest[v] - hand[v])]
                hidden = pub.hand_sizes[p] - sum(hand)
                for v in rng.sample(pool, hidden):
                    hand[v] += 1
            s.hand[p] = hand
            s.hand_key[p] = sum(c * t.pow[v] for v, c in enumerate(hand))
            s.hand_size[p] = sum(hand)
            s.deck[p] = [rest[v] - hand[v] for v in range(7)]
            s.deck_size[p] = sum(s.deck[p])
        if s.phase != PLAY or has_legal_code(s, s.turn):
            return s
    raise RuntimeError("no consistent hand found for the active player")
