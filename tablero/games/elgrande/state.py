"""El Grande state: plain annotated data with a hand-written clone().

Areas are indices 0–8 (regions, in the order of data.REGIONS) and 9 (the Castillo).
Power-card hands are bitmasks (bit v set = value v in hand). The annotations are exact (the
core's ``state_to_json`` / ``state_from_json`` follow them), but for ``data`` (the game's
:class:`~tablero.games.elgrande.data.Tables`): its JSON is the overrides only, and the rules'
``state_from_json`` rebuilds the tables from them.
"""

from __future__ import annotations

from typing import Final

from tablero.core.protocol import GameState
from tablero.games.elgrande.actions import EGAction
from tablero.games.elgrande.data import Tables

# Phases: who must act and what kind of decision is open.
DEAL: Final = 0  # chance: region cards (homes of seat 0..N-1, then the King)
START: Final = 1  # chance: the start seat
REVEAL: Final = 2  # chance: one card from stack reveal_k + 1
POWER: Final = 3
INTAKE: Final = 4
INTAKE_FROM: Final = 5  # intake shortfall (no STOP)
TAKE: Final = 6
ORDER: Final = 7
PLACE: Final = 8
AFTER: Final = 9  # AFTER_PLACEMENT
VETO: Final = 10
SELECT: Final = 11  # 1A, 1I, 4C: a region
MOVE: Final = 12
EXTRA: Final = 13  # 1G
MODE: Final = 14  # 1H
SCORE_CHOICE: Final = 15  # 2E, 3H
RETURN: Final = 16  # 2D: the opponent at the head of the queue chooses
SELECT_OPP: Final = 17  # 2H
PICK: Final = 18  # secret disks
TILE: Final = 19  # 4A
KING_TO: Final = 20  # 4B, 5A
GRANDE: Final = 21  # 4D
TAKE_BACK: Final = 22  # 4E
COURT_FROM: Final = 23  # 4F shortfall (with STOP)
OVER: Final = 24

PHASE_NAMES: Final = (
    "deal", "start", "reveal", "power", "intake", "intake_from", "take_card", "order", "place",
    "after_placement", "veto", "select_region", "move", "place_extra", "mode", "select_scoring",
    "return_from", "select_opponent", "disk", "tile", "king_to", "grande", "take_back",
    "court_from", "over",
)

# Secret-pick kinds
PICK_GENERAL: Final = 0
PICK_2F: Final = 1
PICK_2G: Final = 2
PICK_4C: Final = 3
PICK_4G: Final = 4


class ElGrandeState(GameState):
    __slots__ = (
        "action_first",
        "active",
        "actors",
        "budget_opp",
        "budget_own",
        "cab",
        "card",
        "castillo_open",
        "court",
        "data",
        "deal_i",
        "discard",
        "grande",
        "hand",
        "intake_left",
        "king",
        "king_card",
        "last",
        "low_seat",
        "move_mode",
        "n",
        "offer",
        "order",
        "phase",
        "pick_kind",
        "pick_seats",
        "picks",
        "pile",
        "place_limit",
        "placed",
        "power_i",
        "power_log",
        "power_now",
        "power_start",
        "province",
        "queue",
        "ret_left",
        "reveal_k",
        "ri",
        "rounds",
        "score",
        "sel",
        "short_game",
        "shown_picks",
        "start_option",
        "taken_back",
        "ti",
        "tiles",
        "unseen",
        "veto",
    )

    n: int
    data: Tables  # the values this game plays with (defaults and overrides), shared by clones
    short_game: bool
    castillo_open: bool
    start_option: int | None
    rounds: tuple[int, ...]
    ri: int  # index into rounds (the round being played)
    cab: list[list[int]]  # per seat, per area (0-8 regions, 9 Castillo)
    court: list[int]
    province: list[int]
    grande: list[int]  # region of each Grande (-1 before the deal)
    king: int  # the King's region (-1 before the deal)
    score: list[int]
    hand: list[int]  # power cards in hand, bitmask
    pile: list[list[int]]  # played power cards now on the pile, in order
    power_log: list[list[int]]  # public: value played, or 0 for "took one back"
    taken_back: list[list[int]]  # private: the values taken back with 4E, in order
    power_now: list[int]  # the card played this round (0 = none yet)
    low_seat: int  # who played the lowest card last round (-1 before)
    veto: list[list[int]]  # per seat: the round index each held Veto! was taken in
    unseen: list[int]  # per card type: copies still face down in its stack
    offer: list[int]  # card types face up from stacks 1-4, not taken yet
    king_card: bool  # the King's card is on offer
    discard: list[int]
    tiles: list[int]  # region of each mobile scoreboard, -1 = off the board
    order: list[int]  # this round's turn order
    ti: int  # index of the active player in order
    phase: int
    active: int
    deal_i: int
    reveal_k: int
    power_start: int
    power_i: int
    card: int  # card type taken this turn (-1 none)
    action_first: bool
    place_limit: int
    placed: int
    intake_left: int
    move_mode: str  # "region", "any", "own", "opp", "mixed", "allout"
    budget_own: int
    budget_opp: int
    sel: int
    queue: list[int]  # veto holders to ask, 2D / 2H opponents to handle
    ret_left: int
    pick_kind: int
    pick_seats: list[int]  # affected seats in asking order
    picks: list[int]  # per seat: committed region, -1 = none
    actors: tuple[int, ...]
    last: tuple[int, EGAction] | None  # the last applied action and its actor (None before any)
    shown_picks: tuple[int, ...]  # the disks of the last reveal (public), per seat, -1 = none

    def clone(self) -> ElGrandeState:
        s = ElGrandeState.__new__(ElGrandeState)
        s.n = self.n
        s.data = self.data
        s.short_game = self.short_game
        s.castillo_open = self.castillo_open
        s.start_option = self.start_option
        s.rounds = self.rounds
        s.ri = self.ri
        s.cab = [c[:] for c in self.cab]
        s.court = self.court[:]
        s.province = self.province[:]
        s.grande = self.grande[:]
        s.king = self.king
        s.score = self.score[:]
        s.hand = self.hand[:]
        s.pile = [p[:] for p in self.pile]
        s.power_log = [p[:] for p in self.power_log]
        s.taken_back = [t[:] for t in self.taken_back]
        s.power_now = self.power_now[:]
        s.low_seat = self.low_seat
        s.veto = [v[:] for v in self.veto]
        s.unseen = self.unseen[:]
        s.offer = self.offer[:]
        s.king_card = self.king_card
        s.discard = self.discard[:]
        s.tiles = self.tiles[:]
        s.order = self.order[:]
        s.ti = self.ti
        s.phase = self.phase
        s.active = self.active
        s.deal_i = self.deal_i
        s.reveal_k = self.reveal_k
        s.power_start = self.power_start
        s.power_i = self.power_i
        s.card = self.card
        s.action_first = self.action_first
        s.place_limit = self.place_limit
        s.placed = self.placed
        s.intake_left = self.intake_left
        s.move_mode = self.move_mode
        s.budget_own = self.budget_own
        s.budget_opp = self.budget_opp
        s.sel = self.sel
        s.queue = self.queue[:]
        s.ret_left = self.ret_left
        s.pick_kind = self.pick_kind
        s.pick_seats = self.pick_seats[:]
        s.picks = self.picks[:]
        s.actors = self.actors
        s.last = self.last
        s.shown_picks = self.shown_picks
        s.legal_cache = self.legal_cache
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ElGrandeState):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    @property
    def round(self) -> int:
        return self.rounds[self.ri] if self.ri < len(self.rounds) else self.rounds[-1]
