"""El Grande observation tensor: the board, the seats' counters, power and action cards, the open decision.

Built from an :class:`~tablero.games.elgrande.view.ElGrandeView` alone (public part, the seat's
private part, the deciding part). Per-seat blocks are seat-relative: index 0 is the observer,
then the seats after it in seat order (``(p - observer) % n``); seat ids that appear as values
(the active seat, the power-card opener, the lowest card, the turn order, the queue) are
relative seats too. Areas are the 9 regions in the order of ``data.REGIONS``, then the
Castillo (area 9); action cards are the 33 types of ``data.CARD_TYPES`` (5A, the King's card,
last); power cards are the values 1-13.

Scaling (fixed divisors): caballeros /10 (at most 30 of a colour: up to 3.0), scores /100
(unbounded), region values /10, hand sizes /13, cards face down and discarded as the share of
the type's copies, move budgets and intakes /10, the placement limit /5 (the stack number),
2D returns /3, ``power_spent`` 1 (on the pile for sure) or 0.5 (maybe: a 4E may have taken it
back). Everything else is a 0/1 flag or one-hot, or a small count (power cards played, Veto!
cards held).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final, TypeVar

import numpy as np

from tablero.games.elgrande.data import (
    CARD_INDEX,
    CARD_TYPES,
    KING_CARD,
    NUM_AREAS,
    NUM_REGIONS,
    POWER_VALUES,
    ROUNDS,
    TILES,
    VETO_CARD,
    tables_of,
)
from tablero.games.elgrande.state import PHASE_NAMES
from tablero.games.elgrande.view import ElGrandeView
from tablero.rl.encoders.base import Encoder

CAB_SCALE: Final = 10.0
"""Caballeros (per area, court, province) are divided by 10."""
SCORE_SCALE: Final = 100.0
VALUE_SCALE: Final = 10.0
"""Region values for 1st/2nd/3rd place are divided by 10 (data overrides allow up to 20)."""
BUDGET_SCALE: Final = 10.0
"""Move budgets, extra placements and intakes left are divided by 10 (the data's highest bound)."""
PLACE_SCALE: Final = 5.0
"""Placement limit (the card's stack number, 1-5) and caballeros placed, divided by 5."""
RETURN_SCALE: Final = 3.0
"""2D: caballeros the asked opponent still returns (3 at most), divided by 3."""
HAND_SCALE: Final = float(len(POWER_VALUES))

MOVE_MODES: Final = ("region", "any", "own", "opp", "mixed", "allout", "evict")
"""``Deciding.move_mode`` values in the order of the ``move_mode`` block (``""`` = none)."""
PICK_KINDS: Final = ("general scoring", "2F", "2G", "4C", "4G")
"""``Deciding.pick_kind`` 0-4 (``state.PICK_*``)."""

NUM_CARDS: Final = len(CARD_TYPES)
NUM_VALUES: Final = len(POWER_VALUES)
TAKE_BACK_CARD: Final = CARD_INDEX["4E"]


_Piece = tuple[tuple[int, ...], tuple[float, ...]]
"""Indices and values of some non-zero elements of the tensor that follow from a few view fields
(plain tuples of numbers, as are the caches' keys: the garbage collector stops tracking them)."""

CACHE_LIMIT: Final = 512
"""Entries per piece cache of an encoder; a full cache is emptied (it refills in a few games)."""
BASE_LIMIT: Final = 256
"""Entries of an encoder's cache of tensors made of the slowly changing pieces."""

_SlowKey = tuple[int, tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[int, ...],
                 tuple[int, ...], tuple[int, ...] | None]
"""The view fields the slow pieces follow from: (observer, power_log, grande, hand_sizes, unseen,
discard, the observer's hand)."""


_SeatKey = tuple[tuple[int, ...], int, int]
"""A seat's (power log, Grande's region, hand size)."""
_K = TypeVar("_K")


def _cached(cache: dict[_K, _Piece], key: _K, piece: _Piece) -> _Piece:
    """Store ``piece`` under ``key`` (emptying the cache first when full); returns it."""
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = piece
    return piece


@lru_cache(maxsize=8192)
def _spent(log: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """The power cards on a seat's pile after its public ``power_log`` (0 = took one back with 4E,
    value secret): (value, 1.0) on the pile in every history the log allows, (value, 0.5) in some."""
    piles: set[frozenset[int]] = {frozenset()}
    for v in log:
        if not v:  # one of the cards on the pile went back to the hand
            piles = {pile - {u} for pile in piles for u in pile}
            continue
        piles = {pile | {v} for pile in piles if v not in pile}
    if not piles:  # no history fits (never from a game's view): all played values count as maybe
        return tuple((v, 0.5) for v in sorted(set(log) - {0}))
    sure = frozenset.intersection(*piles)
    some = frozenset.union(*piles)
    return tuple((v, 1.0 if v in sure else 0.5) for v in sorted(some))


class ElGrandeEncoder(Encoder):
    """The observation tensor of El Grande (see the module doc; the layout names every block)."""

    game_id = "el-grande"

    def __init__(self, players: int, options: Mapping[str, object] | None = None) -> None:
        super().__init__(players, options)
        n = players
        t = tables_of(options)
        R, A, C, V = NUM_REGIONS, NUM_AREAS, NUM_CARDS, NUM_VALUES
        copies = [c.count for c in t.CARD_TYPES]
        vetoes = copies[VETO_CARD]
        take_backs = copies[TAKE_BACK_CARD]
        L = self.layout
        # -- the map
        self.o_cab = L.add("cab", (A, n), "caballeros per area (9 regions in `data.REGIONS` order, then the "
                           "Castillo) and relative seat, /10", high=3.0)
        self.o_grande = L.add("grande", (n, R), "each relative seat's Grande: one-hot region (all 0 before the deal)")
        self.o_king = L.add("king", R, "the King's region, one-hot (all 0 before the deal)")
        self.o_tiles = L.add("tiles", (len(TILES), R), "the mobile scoreboards (8/4/0, 4/0/0): one-hot region "
                             "(all 0 off the board)")
        self.o_values = L.add("region_values", (R, 3), "points for 1st, 2nd, 3rd place per region, /10 (the "
                              "table's data)", high=2.0)
        # -- the Castillo's secret disks
        self.o_committed = L.add("committed", n, "relative seats that have set their secret disk in the open pick")
        self.o_own_disk = L.add("own_disk", R, "the observer's own committed disk, one-hot region (private)")
        self.o_shown = L.add("shown_disks", (n, R), "the disks of the last reveal per relative seat, one-hot region")
        # -- the seats' counters
        self.o_court = L.add("court", n, "caballeros in the court per relative seat, /10", high=3.0)
        self.o_province = L.add("province", n, "caballeros in the province per relative seat, /10", high=3.0)
        self.o_scores = L.add("scores", n, "points per relative seat, /100", high=float("inf"))
        self.o_hand_sizes = L.add("hand_sizes", n, "power cards in hand per relative seat, /13")
        self.o_veto = L.add("veto", (n, 2), "Veto! cards held per relative seat: [taken this round, taken "
                            "earlier (expires at this round's end)]", high=float(vetoes))
        # -- power cards
        self.o_hand = L.add("hand", V, "the observer's power cards in hand, values 1-13 (private)")
        self.o_own_back = L.add("own_taken_back", V, "the observer's values taken back with 4E, times (private)",
                                high=float(take_backs))
        self.o_played = L.add("power_played", (n, V), "power cards played per relative seat and value 1-13, times "
                              "(a value taken back with 4E may be played again)", high=float(1 + take_backs))
        self.o_backs = L.add("power_take_backs", n, "cards taken back with 4E per relative seat (the value is "
                             "secret)", high=float(take_backs))
        self.o_spent = L.add("power_spent", (n, V), "per relative seat and value 1-13, from the public power log: "
                             "1 = on the pile for sure, 0.5 = on the pile unless a 4E took it back, 0 = in hand")
        self.o_now = L.add("power_now", (n, V), "this round's power card per relative seat, one-hot value 1-13")
        self.o_low = L.add("low_seat", n, "the relative seat with the lowest card of the last power-card phase")
        self.o_first = L.add("power_first", n, "the relative seat that plays (played) this round's first power card")
        # -- action cards
        self.o_offer = L.add("offer", C, "action cards on offer by type (`data.CARD_TYPES` order; 5A: the "
                             "King's card)")
        self.o_unseen = L.add("unseen", C, "copies still face down in the stacks per type, share of the type's "
                              "copies")
        self.o_discard = L.add("discard", C, "copies on the discard pile per type, share of the type's copies")
        # -- round and turn order
        self.o_round = L.add("round", len(ROUNDS), "the round number 1-9, one-hot")
        self.o_short = L.add("short_game", 1, "1 in the short game (rounds 2, 3, 5, 6, 8, 9)")
        self.o_order = L.add("order", (n, n), "turn order: [relative seat, position] one-hot")
        self.o_turn = L.add("turn_index", n + 1, "turns of the order done this round, one-hot 0..n")
        # -- the open decision
        self.o_phase = L.add("phase", len(PHASE_NAMES), "the open decision, one-hot (`state.PHASE_NAMES`: "
                             + ", ".join(PHASE_NAMES) + ")")
        self.o_to_act = L.add("to_act", n, "relative seats asked now (none at a chance step)")
        self.o_active = L.add("active", n, "the relative seat whose turn it is (all 0 outside the turns)")
        self.o_card = L.add("card", C, "the action card the active seat took this turn, one-hot type")
        self.o_action_first = L.add("action_first", 1, "the card's action comes before its placement")
        self.o_place = L.add("place", 2, "`place`: [caballeros the seat may place at most, placed so far], /5")
        self.o_intake = L.add("intake_left", 1, "`intake_from` / `court_from`: caballeros still to take into the "
                              "court, /10")
        self.o_mode = L.add("move_mode", len(MOVE_MODES), "the moves of the card carried out, one-hot: "
                            + ", ".join(MOVE_MODES))
        self.o_budget = L.add("budgets", 2, "[own (or any) moves / extra placements left, opponents' moves left "
                              "(1D)], /10")
        self.o_selected = L.add("selected", R, "the region chosen with `select_region` (1A, 1I, 1H, 4C), one-hot")
        self.o_queue = L.add("queue", n, "relative seats still to handle (Veto! holders to ask, 2D / 2H "
                             "opponents)")
        self.o_returns = L.add("returns_left", 1, "`return_from` (2D): caballeros the asked opponent still "
                               "returns, /3")
        self.o_pick_kind = L.add("pick_kind", len(PICK_KINDS), "what the secret disks decide, one-hot: "
                                 + ", ".join(PICK_KINDS))
        self.o_pick_seats = L.add("pick_seats", n, "relative seats that set a disk in this pick")

        # -- index tables
        self._rel = tuple(tuple((p - s) % n for p in range(n)) for s in range(n))
        """``_rel[observer][p]``: seat p relative to the observer."""
        self._recip = tuple(1.0 / c if c else 0.0 for c in copies)
        self._phase = {name: self.o_phase + i for i, name in enumerate(PHASE_NAMES)}
        self._mode = {m: self.o_mode + i for i, m in enumerate(MOVE_MODES)}
        self._round = {r: self.o_round + i for i, r in enumerate(ROUNDS)}
        self._king_card = self.o_offer + KING_CARD
        const_idx: list[int] = []
        const_val: list[float] = []
        for r, region in enumerate(t.REGIONS):
            for k, x in enumerate(region.values):
                if x:
                    const_idx.append(self.o_values + 3 * r + k)
                    const_val.append(x / VALUE_SCALE)
        self._const_idx = const_idx
        self._const_val = const_val
        # Pieces of the tensor keyed by the view fields they follow from (per relative seat where
        # they sit in per-seat blocks): most of them stay the same from one decision to the next.
        self._cab_cache: tuple[dict[tuple[int, ...], _Piece], ...] = tuple({} for _ in range(n))
        self._seat_cache: tuple[dict[_SeatKey, _Piece], ...] = tuple({} for _ in range(n))
        self._hand_cache: dict[tuple[int, ...], _Piece] = {}
        self._unseen_cache: dict[tuple[int, ...], _Piece] = {}
        self._discard_cache: dict[tuple[int, ...], _Piece] = {}
        self._bases: dict[_SlowKey, np.ndarray] = {}
        """Tensors of the region values and the slow pieces only (``encode`` copies them)."""

    # -- pieces of the tensor that depend on a few view fields only, cached (see ``_cached``)
    def _cab_piece(self, r: int, row: tuple[int, ...]) -> _Piece:
        """The ``cab`` entries of relative seat ``r`` with caballeros ``row`` per area."""
        n = self.players
        base = self.o_cab + r
        ii: list[int] = []
        vv: list[float] = []
        for a, k in enumerate(row):
            if k:
                ii.append(base + a * n)
                vv.append(k / CAB_SCALE)
        return tuple(ii), tuple(vv)

    def _seat_piece(self, r: int, key: _SeatKey) -> _Piece:
        """The entries of relative seat ``r`` in ``grande``, ``hand_sizes`` and, from its public
        power log, ``power_spent``, ``power_played`` and ``power_take_backs``; ``key``: its (power
        log, Grande's region, hand size)."""
        log, g, hand_size = key
        R = NUM_REGIONS
        V = NUM_VALUES
        ii: list[int] = []
        vv: list[float] = []
        if g >= 0:
            ii.append(self.o_grande + r * R + g)
            vv.append(1.0)
        if hand_size:
            ii.append(self.o_hand_sizes + r)
            vv.append(hand_size / HAND_SCALE)
        base = self.o_spent + r * V - 1
        if 0 in log:
            for v, x in _spent(log):
                ii.append(base + v)
                vv.append(x)
        else:  # no take-back: exactly the values played are on the pile
            for v in log:
                ii.append(base + v)
                vv.append(1.0)
        counts: dict[int, int] = {}
        for v in log:
            counts[v] = counts.get(v, 0) + 1
        base = self.o_played + r * V - 1
        for v, k in counts.items():
            if v:
                ii.append(base + v)
                vv.append(float(k))
            else:
                ii.append(self.o_backs + r)
                vv.append(float(k))
        return tuple(ii), tuple(vv)

    def _hand_piece(self, hand: tuple[int, ...]) -> _Piece:
        """The ``hand`` entries of the observer's power cards ``hand``."""
        base = self.o_hand - 1
        return tuple([base + v for v in hand]), (1.0,) * len(hand)

    def _unseen_piece(self, unseen: tuple[int, ...]) -> _Piece:
        """The ``unseen`` entries: copies face down per card type, share of the type's copies."""
        recip = self._recip
        ii: list[int] = []
        vv: list[float] = []
        for c, k in enumerate(unseen):
            if k:
                ii.append(self.o_unseen + c)
                vv.append(k * recip[c])
        return tuple(ii), tuple(vv)

    def _discard_piece(self, discard: tuple[int, ...]) -> _Piece:
        """The ``discard`` entries: copies on the discard pile per card type, share of the copies."""
        recip = self._recip
        dis: dict[int, int] = {}
        for c in discard:
            dis[c] = dis.get(c, 0) + 1
        return tuple([self.o_discard + c for c in dis]), tuple([k * recip[c] for c, k in dis.items()])

    def _slow_pieces(self, view: ElGrandeView, seat: int) -> list[_Piece]:
        """The pieces of ``seat``'s tensor that change a few times a round at most: each seat's
        (``_seat_piece``), the ``unseen`` and ``discard`` action cards, the observer's ``hand``;
        they follow from the view fields in ``_SlowKey``."""
        pub = view.public
        pieces: list[_Piece] = []
        seat_cache = self._seat_cache
        for r, key in zip(self._rel[seat], zip(pub.power_log, pub.grande, pub.hand_sizes, strict=True),
                          strict=True):
            piece = seat_cache[r].get(key)
            if piece is None:
                piece = _cached(seat_cache[r], key, self._seat_piece(r, key))
            pieces.append(piece)
        unseen = pub.unseen
        piece = self._unseen_cache.get(unseen)
        if piece is None:
            piece = _cached(self._unseen_cache, unseen, self._unseen_piece(unseen))
        pieces.append(piece)
        discard = pub.discard
        if discard:
            piece = self._discard_cache.get(discard)
            if piece is None:
                piece = _cached(self._discard_cache, discard, self._discard_piece(discard))
            pieces.append(piece)
        mine = view.private
        if mine is not None:
            hand = mine.hand
            piece = self._hand_cache.get(hand)
            if piece is None:
                piece = _cached(self._hand_cache, hand, self._hand_piece(hand))
            pieces.append(piece)
        return pieces

    def fill(self, view: Any, seat: int, idx: list[int], val: list[float]) -> None:
        assert isinstance(view, ElGrandeView)
        idx += self._const_idx
        val += self._const_val
        for piece in self._slow_pieces(view, seat):
            idx += piece[0]
            val += piece[1]
        self._fill_changing(view, seat, idx, val)

    def encode(self, view: Any) -> np.ndarray:
        """The tensor ``fill`` describes (as :meth:`Encoder.encode`), sooner: the region values and
        the slowly changing pieces (``_slow_pieces``) come as one cached array, copied."""
        seat = view.viewer
        if seat is None:
            raise ValueError("observation tensors are per seat; a spectator's view has no observer")
        assert isinstance(view, ElGrandeView)
        pub = view.public
        mine = view.private
        key = (seat, pub.power_log, pub.grande, pub.hand_sizes, pub.unseen, pub.discard,
               None if mine is None else mine.hand)
        base = self._bases.get(key)
        if base is None:
            idx = list(self._const_idx)
            val = list(self._const_val)
            for piece in self._slow_pieces(view, seat):
                idx += piece[0]
                val += piece[1]
            base = np.zeros(self.layout.size, np.float32)
            base[np.fromiter(idx, np.intp, len(idx))] = np.fromiter(val, np.float32, len(val))
            if len(self._bases) >= BASE_LIMIT:
                self._bases.clear()
            self._bases[key] = base
        out = base.copy()
        idx = []
        val = []
        self._fill_changing(view, seat, idx, val)
        if idx:
            k = len(idx)
            out[np.fromiter(idx, np.intp, k)] = np.fromiter(val, np.float32, k)
        return out

    def _fill_changing(self, view: ElGrandeView, seat: int, idx: list[int], val: list[float]) -> None:
        """``fill`` but for the region values and the ``_slow_pieces``."""
        pub = view.public
        dec = view.deciding
        n = self.players
        rel = self._rel[seat]
        ia = idx.append
        va = val.append
        R = NUM_REGIONS
        V = NUM_VALUES

        # the map and the counters, per seat
        o_court = self.o_court
        o_province = self.o_province
        o_scores = self.o_scores
        o_now = self.o_now
        ri = pub.round_index
        cab_cache = self._cab_cache
        for r, row, court, province, score, held, now in zip(
                rel, pub.cab, pub.court, pub.province, pub.scores, pub.veto, pub.power_now, strict=True):
            piece = cab_cache[r].get(row)
            if piece is None:
                piece = _cached(cab_cache[r], row, self._cab_piece(r, row))
            idx += piece[0]
            val += piece[1]
            if court:
                ia(o_court + r)
                va(court / CAB_SCALE)
            if province:
                ia(o_province + r)
                va(province / CAB_SCALE)
            if score:
                ia(o_scores + r)
                va(score / SCORE_SCALE)
            if now:
                ia(o_now + r * V + now - 1)
                va(1.0)
            if held:
                fresh = sum(1 for x in held if x >= ri)
                if fresh:
                    ia(self.o_veto + 2 * r)
                    va(float(fresh))
                if len(held) > fresh:
                    ia(self.o_veto + 2 * r + 1)
                    va(float(len(held) - fresh))
        if pub.king >= 0:
            ia(self.o_king + pub.king)
            va(1.0)
        for i, pos in enumerate(pub.tiles):
            if pos >= 0:
                ia(self.o_tiles + i * R + pos)
                va(1.0)

        # the Castillo's secret disks
        for p, done in enumerate(pub.committed):
            if done:
                ia(self.o_committed + rel[p])
                va(1.0)
        for p, d in enumerate(pub.shown_picks):
            if d >= 0:
                ia(self.o_shown + rel[p] * R + d)
                va(1.0)
        mine = view.private
        if mine is not None:
            if mine.pick >= 0:
                ia(self.o_own_disk + mine.pick)
                va(1.0)
            if mine.taken_back:
                backs: dict[int, int] = {}
                for v in mine.taken_back:
                    backs[v] = backs.get(v, 0) + 1
                for v, k in backs.items():
                    ia(self.o_own_back + v - 1)
                    va(float(k))
        if pub.low_seat >= 0:
            ia(self.o_low + rel[pub.low_seat])
            va(1.0)
        if dec.power_first >= 0:
            ia(self.o_first + rel[dec.power_first])
            va(1.0)

        # action cards
        for c in pub.offer:
            ia(self.o_offer + c)
            va(1.0)
        if pub.king_card:
            ia(self._king_card)
            va(1.0)

        # round and turn order
        ia(self._round[pub.round])
        va(1.0)
        if pub.short_game:
            ia(self.o_short)
            va(1.0)
        o_order = self.o_order
        for i, p in enumerate(pub.order):
            ia(o_order + rel[p] * n + i)
            va(1.0)
        ia(self.o_turn + min(pub.turn_index, n))
        va(1.0)

        # the open decision
        ia(self._phase[dec.phase])
        va(1.0)
        for p in dec.to_act:
            if p >= 0:
                ia(self.o_to_act + rel[p])
                va(1.0)
        if dec.active >= 0:
            ia(self.o_active + rel[dec.active])
            va(1.0)
        if dec.card >= 0:
            ia(self.o_card + dec.card)
            va(1.0)
        if dec.action_first:
            ia(self.o_action_first)
            va(1.0)
        if dec.place_limit:
            ia(self.o_place)
            va(dec.place_limit / PLACE_SCALE)
        if dec.placed:
            ia(self.o_place + 1)
            va(dec.placed / PLACE_SCALE)
        if dec.intake_left:
            ia(self.o_intake)
            va(dec.intake_left / BUDGET_SCALE)
        mode = self._mode.get(dec.move_mode)
        if mode is not None:
            ia(mode)
            va(1.0)
        if dec.budget_own:
            ia(self.o_budget)
            va(dec.budget_own / BUDGET_SCALE)
        if dec.budget_opp:
            ia(self.o_budget + 1)
            va(dec.budget_opp / BUDGET_SCALE)
        if dec.selected >= 0:
            ia(self.o_selected + dec.selected)
            va(1.0)
        for p in dec.queue:
            ia(self.o_queue + rel[p])
            va(1.0)
        if dec.returns_left:
            ia(self.o_returns)
            va(dec.returns_left / RETURN_SCALE)
        if dec.pick_kind >= 0:
            ia(self.o_pick_kind + dec.pick_kind)
            va(1.0)
        for p in dec.pick_seats:
            ia(self.o_pick_seats + rel[p])
            va(1.0)


ENCODER = ElGrandeEncoder
