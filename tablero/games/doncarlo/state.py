"""Don Carlo state: plain annotated data with a hand-written clone().

Card multisets are lists of 7 counts indexed by value. A hand also keeps a key
(``sum(count[v] * data.pow[v])``, base 5 in the usual game) so that the candidate codes of a
hand are one dict lookup. The annotations are exact (lists, tuples, ``bytearray``): the core
writes the state to JSON and reads it back equal from them; the table's data (``data``, one
shared :class:`~tablero.games.doncarlo.data.Tables`) goes as its overrides only
(``DonCarlo.state_to_json`` / ``state_from_json``).
"""

from __future__ import annotations

from typing import Final

from tablero.core.protocol import GameState
from tablero.games.doncarlo.data import Tables

# Phases
DEAL: Final = 0  # chance: initial hands, seat by seat, one card at a time (§4.1)
START: Final = 1  # chance: the random start seat
PLAY: Final = 2  # the active player sends an agent
REFILL: Final = 3  # chance: private refill draws of the active player (§5.1 step 4)
BLOCKED_DRAW: Final = 4  # chance: open draws of a blocked player (§5.3)
OVER: Final = 5

PHASE_NAMES: Final = ("deal", "start", "play", "refill", "blocked_draw", "over")


class DonCarloState(GameState):
    """Everything about one game of Don Carlo. Mutated only by the engine's transitions."""

    __slots__ = (
        "actors",
        "agents",
        "blocked",
        "bonus",
        "countries",
        "country_points",
        "data",
        "deck",
        "deck_size",
        "hand",
        "hand_key",
        "hand_size",
        "influence",
        "known",
        "n",
        "out",
        "phase",
        "plays",
        "points",
        "round",
        "start_option",
        "start_seat",
        "tie_rule",
        "turn",
        "used",
    )

    data: Tables  # the table's data: defaults and --data overrides (shared, never copied)
    n: int
    countries: tuple[int, ...]  # indices of countries in play (data.COUNTRIES)
    points: tuple[int, ...]  # majority points per country index (all 7)
    tie_rule: str
    start_option: int | None  # None = random
    hand: list[list[int]]  # per seat: counts per value
    hand_key: list[int]
    hand_size: list[int]
    deck: list[list[int]]  # per seat: the unseen multiset of his family deck
    deck_size: list[int]
    known: list[list[int]]  # per seat: K, the known multiset of his hand (§5.3)
    used: bytearray  # per code index: 1 once any family has used it
    agents: list[list[tuple[int, int]]]  # per country index: (seat, code) in order
    influence: list[int]
    bonus: list[int]
    country_points: list[int]
    out: list[bool]
    phase: int
    turn: int  # active seat (DEAL: the seat being dealt to)
    start_seat: int  # -1 until known
    blocked: bool  # the active player is in a blocked turn (his hand was revealed)
    actors: tuple[int, ...]
    plays: int  # agents sent so far
    round: int  # 0 until the first turn; +1 each time the turn comes round past the start seat

    def clone(self) -> DonCarloState:
        s = DonCarloState.__new__(DonCarloState)
        s.data = self.data
        s.n = self.n
        s.countries = self.countries
        s.points = self.points
        s.tie_rule = self.tie_rule
        s.start_option = self.start_option
        s.hand = [h[:] for h in self.hand]
        s.hand_key = self.hand_key[:]
        s.hand_size = self.hand_size[:]
        s.deck = [d[:] for d in self.deck]
        s.deck_size = self.deck_size[:]
        s.known = [k[:] for k in self.known]
        s.used = self.used[:]
        s.agents = [a[:] for a in self.agents]
        s.influence = self.influence[:]
        s.bonus = self.bonus[:]
        s.country_points = self.country_points[:]
        s.out = self.out[:]
        s.phase = self.phase
        s.turn = self.turn
        s.start_seat = self.start_seat
        s.blocked = self.blocked
        s.actors = self.actors
        s.plays = self.plays
        s.round = self.round
        s.legal_cache = self.legal_cache
        return s

    def __eq__(self, other: object) -> bool:
        """Equal positions: every field but the core's cache of legal actions."""
        if not isinstance(other, DonCarloState):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def score(self, seat: int) -> int:
        """Running total: influence + bonus + country points (the latter only at the end)."""
        return self.influence[seat] + self.bonus[seat] + self.country_points[seat]
