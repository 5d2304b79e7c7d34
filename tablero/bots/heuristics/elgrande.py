"""A greedy El Grande bot: one-ply evaluation of every legal action from the seat's view only.

The bot copies the counts of the view's public part (caballeros per seat and area, courts,
provinces, King, Grandes, tiles, scores) into a small board and judges a position by

    margin = my value - the best opponent's value
    value(p) = score(p) + points p would get if every region were scored now (current values,
               King's and Grande bonus, §10) + CASTILLO_WEIGHT * the Castillo's points
               + COURT * caballeros in court + TOWER * caballeros in the Castillo.

Each legal action is applied to a copy of the board by the bot itself (a placement adds a
caballero, a move moves one, a scoring adds the points, the King or a Grande or a tile moves)
and the action with the best margin is chosen; ties are broken with the ``rng`` argument.
Decisions whose effect is not on the board get simple rules:

* power card: caballeros still needed, the turn order it buys (relative to the cards already
  played this round) and a mild preference to keep high cards for the general-scoring rounds;
* intake: take as many as the province gives (never strip regions);
* action card: each card is valued by simulating the whole turn greedily on a copy (placement
  of up to k next to the King, and the card's action as this bot would execute it; secret
  picks of other seats are assumed to be their own best, a 4G is worth half its best scoring);
* order: King moves, 1G and 4F first, everything else after placement; the action is skipped
  when its simulated value is negative;
* Veto!: simulate the announced action as the active seat would play it greedily; veto when it
  costs this seat at least ``VETO_LOSS`` margin (less when the Veto! expires this round);
* secret disks: the region that is best for this seat (Castillo release: all regions are
  scored right after; 2F/2G: the cheapest region; 4C: the best destination; 4G: the best
  scoring).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Final

from tablero.games.elgrande.actions import EGAction, Kind
from tablero.games.elgrande.data import (
    CARD_TYPES,
    CASTILLO,
    CASTILLO_VALUES,
    COURT_INTAKE,
    DECAY_RETURN,
    GRANDE_BONUS,
    KING_BONUS,
    KING_RETURNS,
    MIXED_BUDGET,
    NUM_AREAS,
    NUM_REGIONS,
    TILES,
    Tables,
)
from tablero.games.elgrande.engine import ranks
from tablero.games.elgrande.state import PICK_2F, PICK_2G, PICK_4C, PICK_GENERAL
from tablero.games.elgrande.view import ElGrandeView

REGION_IDX: Final = tuple(range(NUM_REGIONS))
CARD_IDS: Final = tuple(c.id for c in CARD_TYPES)
_ACTION_FIRST: Final = frozenset({"4B", "5A", "1G", "4F", "1H"})
_SCORINGS: Final = frozenset({"2E", "3H", "3A", "3B", "3C", "3D", "3E", "3F", "3G"})


@dataclass(frozen=True, slots=True)
class Weights:
    court: float = 0.3
    """Value of a caballero in the court (a future placement)."""
    tower: float = 0.6
    """Extra value of a caballero in the Castillo (it may go to any region at the scoring)."""
    castillo: float = 1.0
    """Weight of the Castillo's 5/3/1 in the evaluation."""
    opp_mean: float = 0.25
    """Share of the opponents' mean in the opponent term (the rest is the best opponent)."""
    power_cab: float = 1.0
    """Power card: value of a caballero taken into the court."""
    power_order: float = 0.35
    """Power card: value per power-card point (turn order)."""
    veto_loss: float = 3.0
    """Veto! when the announced action costs at least this much margin."""
    veto_loss_expiring: float = 1.0
    fourg_share: float = 0.5
    """Card 4G: share of its best scoring that is expected (others may pick the same region)."""


class Board:
    """The public counts of a view, mutable, and the game's data (``data``: values, borders...)."""

    __slots__ = ("cab", "court", "data", "grande", "king", "n", "province", "score", "tiles")

    def __init__(self, n: int, cab: list[list[int]], court: list[int], province: list[int], king: int,
                 grande: list[int], tiles: list[int], score: list[float], data: Tables) -> None:
        self.n = n
        self.data = data
        self.cab = cab
        self.court = court
        self.province = province
        self.king = king
        self.grande = grande
        self.tiles = tiles
        self.score = score

    @staticmethod
    def of(view: ElGrandeView) -> Board:
        v = view.public
        return Board(v.players, [list(r) for r in v.cab], list(v.court), list(v.province),
                     v.king, list(v.grande), list(v.tiles), [float(x) for x in v.scores], v.data)

    def copy(self) -> Board:
        return Board(self.n, [r[:] for r in self.cab], self.court[:], self.province[:], self.king,
                     self.grande[:], self.tiles[:], self.score[:], self.data)

    def values(self, area: int) -> tuple[int, int, int]:
        if area == CASTILLO:
            return CASTILLO_VALUES
        for t, pos in enumerate(self.tiles):
            if pos == area:
                return TILES[t]
        return self.data.REGIONS[area].values

    def points(self, area: int, first_only: bool = False) -> list[float]:
        """What each seat would get if ``area`` were scored now (§10.4)."""
        n = self.n
        counts = [self.cab[p][area] for p in range(n)]
        out = [0.0] * n
        if not any(counts):
            return out
        vals = self.values(area)
        rk = ranks(counts)
        leader = -1
        for p in range(n):
            r = rk[p]
            if r == 1:
                leader = p
            if r and r <= 3 and (not first_only or r == 1):
                out[p] = float(vals[r - 1])
        if area != CASTILLO and leader >= 0:
            if area == self.king:
                out[leader] += KING_BONUS
            if self.grande[leader] == area:
                out[leader] += GRANDE_BONUS
        return out

    def score_area(self, area: int, first_only: bool = False) -> None:
        for p, x in enumerate(self.points(area, first_only)):
            self.score[p] += x


class Evaluator:
    """Margin of ``me`` on a board (see the module docstring)."""

    def __init__(self, me: int, w: Weights) -> None:
        self.me = me
        self.w = w

    def values(self, b: Board) -> list[float]:
        w = self.w
        tot = [b.score[p] + w.court * b.court[p] + w.tower * b.cab[p][CASTILLO] for p in range(b.n)]
        for a in range(NUM_AREAS):
            pts = b.points(a)
            k = w.castillo if a == CASTILLO else 1.0
            for p in range(b.n):
                tot[p] += k * pts[p]
        return tot

    def margin(self, b: Board) -> float:
        return self.margin_of(self.values(b))

    def margin_of(self, tot: Sequence[float]) -> float:
        me = self.me
        others = [x for p, x in enumerate(tot) if p != me]
        if not others:
            return tot[me]
        best = max(others)
        mean = sum(others) / len(others)
        f = self.w.opp_mean
        return tot[me] - ((1 - f) * best + f * mean)


class GreedyElGrande:
    """One-ply greedy El Grande bot (see the module docstring). Deterministic but for ties."""

    name = "greedy"

    def __init__(self, weights: Weights | None = None) -> None:
        self.w = weights or Weights()

    # ------------------------------------------------------------------ entry point
    def choose(self, view: ElGrandeView, legal: Sequence[EGAction], rng: Random) -> EGAction:
        if not legal:
            raise ValueError("a bot was asked to choose from no legal actions")
        if len(legal) == 1:
            return legal[0]
        me = view.viewer
        assert me is not None and view.private is not None, "greedy needs a seat's own view"
        handler = _HANDLERS.get(view.deciding.phase)
        if handler is None:
            return legal[rng.randrange(len(legal))]
        ev = Evaluator(me, self.w)
        board = Board.of(view)
        scores = handler(self, view, board, ev, legal)
        return _argmax(legal, scores, rng)

    # ------------------------------------------------------------------ helpers
    def _after(self, board: Board, ev: Evaluator, change: Callable[[Board], None]) -> float:
        b = board.copy()
        change(b)
        return ev.margin(b)

    def _place_greedy(self, b: Board, ev: Evaluator, seat: int, limit: int, anywhere: bool = False) -> None:
        """Place up to ``limit`` caballeros of ``seat`` one at a time, each where it helps most."""
        for _ in range(limit):
            if b.court[seat] <= 0:
                return
            targets = [r for r in REGION_IDX if r != b.king] if anywhere else list(b.data.NEIGHBOURS[b.king])
            targets.append(CASTILLO)
            base = ev.margin(b)
            best, best_v = -1, base
            for t in targets:
                b.cab[seat][t] += 1
                b.court[seat] -= 1
                v = ev.margin(b)
                b.cab[seat][t] -= 1
                b.court[seat] += 1
                if v > best_v + 1e-9:
                    best, best_v = t, v
            if best < 0:
                return
            b.cab[seat][best] += 1
            b.court[seat] -= 1

    def _moves(self, b: Board, seat: int, mode: str, sel: int) -> list[tuple[int, int, int]]:
        k = b.king
        sources = [sel] if mode in ("region", "allout") else [r for r in REGION_IDX if r != k]
        if mode in ("allout", "own"):
            colours = [seat]
        elif mode == "opp":
            colours = [q for q in range(b.n) if q != seat]
        else:
            colours = list(range(b.n))
        out: list[tuple[int, int, int]] = []
        for src in sources:
            for q in colours:
                if b.cab[q][src]:
                    out.extend((src, q, d) for d in range(NUM_AREAS) if d != src and d != k)
        return out

    def _move_greedy(self, b: Board, ev: Evaluator, seat: int, mode: str, budget: int, sel: int = -1,
                     must: bool = False, opp_budget: int = 0) -> None:
        """Execute a move card greedily: each move the best for ``ev``; stop when none helps."""
        own_left, opp_left = budget, opp_budget
        while True:
            if mode == "mixed":
                if own_left <= 0 and opp_left <= 0:
                    return
                cands = [m for m in self._moves(b, seat, "any", sel)
                         if (m[1] == seat and own_left > 0) or (m[1] != seat and opp_left > 0)]
            else:
                if not must and own_left <= 0:
                    return
                cands = self._moves(b, seat, mode, sel)
            if not cands:
                return
            base = ev.margin(b)
            best: tuple[int, int, int] | None = None
            best_v = float("-inf") if must else base
            for src, q, dst in cands:
                b.cab[q][src] -= 1
                b.cab[q][dst] += 1
                v = ev.margin(b)
                b.cab[q][src] += 1
                b.cab[q][dst] -= 1
                if v > best_v + 1e-9:
                    best, best_v = (src, q, dst), v
            if best is None:
                return
            src, q, dst = best
            b.cab[q][src] -= 1
            b.cab[q][dst] += 1
            if mode == "mixed":
                if q == seat:
                    own_left -= 1
                else:
                    opp_left -= 1
            else:
                own_left -= 1
            if mode == "allout" and not b.cab[seat][sel]:
                return

    def _own_best_pick(self, b: Board, q: int, regions: Sequence[int], change: Callable[[Board, int], None]
                       ) -> int:
        """The region ``q`` would pick for himself (his own margin)."""
        evq = Evaluator(q, self.w)
        best, best_v = -1, float("-inf")
        for r in regions:
            c = b.copy()
            change(c, r)
            v = evq.margin(c)
            if v > best_v:
                best, best_v = r, v
        return best

    def simulate_action(self, b: Board, seat: int, cid: str, *, place_after: int = 0) -> None:
        """Play the special action of ``cid`` for ``seat`` greedily on ``b`` (in place).

        ``place_after`` caballeros are then placed (King cards are played before placement)."""
        ev = Evaluator(seat, self.w)
        n = b.n
        k = b.king
        if cid in _SCORINGS:
            if cid in ("2E", "3H"):
                best, best_v = -1, float("-inf")
                for a in range(NUM_AREAS):
                    pts = b.points(a)
                    v = ev.margin_of([b.score[p] + pts[p] for p in range(n)]) - ev.margin_of(b.score)
                    if v > best_v:
                        best, best_v = a, v
                b.score_area(best)
            elif cid in b.data.CLASS_REGIONS:
                for r in b.data.CLASS_REGIONS[cid]:
                    b.score_area(r)
            elif cid == "3D":
                b.score_area(CASTILLO)
            elif cid == "3E":
                for r in REGION_IDX:
                    b.score_area(r, first_only=True)
            else:
                totals = [sum(b.cab[q][r] for q in range(n)) for r in REGION_IDX]
                present = [t for t in totals if t]
                if present:
                    target = max(present) if cid == "3F" else min(present)
                    for r in REGION_IDX:
                        if totals[r] == target:
                            b.score_area(r)
        elif cid in ("4B", "5A"):
            dests = b.data.NEIGHBOURS[k] if cid == "4B" else [r for r in REGION_IDX if r != k]
            best_b, best_v = None, float("-inf")
            for r in dests:
                c = b.copy()
                c.king = r
                self._place_greedy(c, ev, seat, place_after)
                v = ev.margin(c)
                if v > best_v:
                    best_b, best_v = c, v
            assert best_b is not None
            _assign(b, best_b)
            return
        elif cid in ("1B", "1C", "1E", "1F"):
            mode, budget = b.data.MOVE_BUDGETS[cid]
            self._move_greedy(b, ev, seat, mode, budget)
        elif cid == "1D":
            self._move_greedy(b, ev, seat, "mixed", MIXED_BUDGET[0], opp_budget=MIXED_BUDGET[1])
        elif cid == "1A":
            best_b, best_v = None, ev.margin(b)
            for r in REGION_IDX:
                if r != k and any(b.cab[q][r] for q in range(n)):
                    c = b.copy()
                    self._move_greedy(c, ev, seat, "region", b.data.REGION_MOVES, sel=r)
                    v = ev.margin(c)
                    if v > best_v:
                        best_b, best_v = c, v
            if best_b is not None:
                _assign(b, best_b)
        elif cid in ("1G", "1H"):
            self._place_greedy(b, ev, seat, b.data.EXTRA_PLACEMENT, anywhere=True)
        elif cid == "1I":
            best_b, best_v = None, float("-inf")
            for r in REGION_IDX:
                if r != k and b.cab[seat][r]:
                    c = b.copy()
                    self._move_greedy(c, ev, seat, "allout", 99, sel=r, must=True)
                    v = ev.margin(c)
                    if v > best_v:
                        best_b, best_v = c, v
            if best_b is not None:
                _assign(b, best_b)
        elif cid in ("2B", "2C"):
            for q in range(n):
                if q != seat:
                    x = b.court[q] if cid == "2B" else min(DECAY_RETURN, b.court[q])
                    b.court[q] -= x
                    b.province[q] += x
        elif cid == "2D":
            for q in range(n):
                if q != seat:
                    x = min(KING_RETURNS, b.court[q])
                    b.court[q] -= x
                    b.province[q] += x
                    left = KING_RETURNS - x
                    while left > 0:
                        own = [r for r in REGION_IDX if r != k and b.cab[q][r]]
                        if not own:
                            break
                        r = min(own, key=lambda r: -b.cab[q][r])
                        b.cab[q][r] -= 1
                        b.province[q] += 1
                        left -= 1
        elif cid in ("2F", "2G"):
            for q in range(n):
                own = [r for r in REGION_IDX if r != k and b.cab[q][r]]
                if not own:
                    continue
                if cid == "2F":
                    two = [r for r in own if b.cab[q][r] >= 2]
                    own = two or own

                def ret(c: Board, r: int, q: int = q) -> None:
                    x = min(c.data.SECRET_RETURN, c.cab[q][r]) if cid == "2F" else c.cab[q][r]
                    c.cab[q][r] -= x
                    c.province[q] += x

                ret(b, self._own_best_pick(b, q, own, ret))
        elif cid == "2H":
            for q in range(n):
                if q == seat:
                    continue
                best_r, best_v = -1, float("-inf")
                for r in REGION_IDX:
                    if r != k and b.cab[q][r]:
                        b.cab[q][r] -= 1
                        v = ev.margin(b)
                        b.cab[q][r] += 1
                        if v > best_v:
                            best_r, best_v = r, v
                if best_r >= 0:
                    b.cab[q][best_r] -= 1
                    b.province[q] += 1
        elif cid == "4A":
            best_t: tuple[int, int] | None = None
            best_v = float("-inf")
            for t, pos in enumerate(b.tiles):
                if pos == k:
                    continue
                for r in REGION_IDX:
                    if r != k and r not in b.tiles:
                        old = b.tiles[t]
                        b.tiles[t] = r
                        v = ev.margin(b)
                        b.tiles[t] = old
                        if v > best_v:
                            best_t, best_v = (t, r), v
            if best_t is not None:
                b.tiles[best_t[0]] = best_t[1]
        elif cid == "4C":
            best_b, best_v = None, ev.margin(b)
            for r in REGION_IDX:
                if r == k or not any(b.cab[q][r] for q in range(n) if q != seat):
                    continue
                c = b.copy()
                dests = [d for d in REGION_IDX if d != k and d != r]
                for q in range(n):
                    if q != seat and c.cab[q][r]:
                        x = c.cab[q][r]

                        def evict(cc: Board, d: int, q: int = q, x: int = x, r: int = r) -> None:
                            cc.cab[q][r] -= x
                            cc.cab[q][d] += x

                        evict(c, self._own_best_pick(c, q, dests, evict))
                v = ev.margin(c)
                if v > best_v:
                    best_b, best_v = c, v
            if best_b is not None:
                _assign(b, best_b)
        elif cid == "4D":
            if b.grande[seat] != k:
                best_r, best_v = b.grande[seat], ev.margin(b)
                for r in REGION_IDX:
                    if r != k and r != b.grande[seat]:
                        old = b.grande[seat]
                        b.grande[seat] = r
                        v = ev.margin(b)
                        b.grande[seat] = old
                        if v > best_v:
                            best_r, best_v = r, v
                b.grande[seat] = best_r
        elif cid == "4F":
            x = min(COURT_INTAKE, b.province[seat])
            b.province[seat] -= x
            b.court[seat] += x
        elif cid == "4G":
            before = b.score[:]
            best_a, best_v = -1, float("-inf")
            for r in REGION_IDX:
                pts = b.points(r)
                v = ev.margin_of([b.score[p] + pts[p] for p in range(n)])
                if v > best_v:
                    best_a, best_v = r, v
            pts = b.points(best_a)
            f = self.w.fourg_share
            b.score = [before[p] + f * pts[p] for p in range(n)]
        if place_after:
            self._place_greedy(b, ev, seat, place_after)

    def card_value(self, board: Board, ev: Evaluator, card: int) -> float:
        """Margin after a greedy turn with ``card`` (placement and special action)."""
        me = ev.me
        cid = CARD_IDS[card]
        k = CARD_TYPES[card].stack
        b = board.copy()
        if cid == "2A":
            self._place_greedy(b, ev, me, k)
            return ev.margin(b) + 1.0
        if cid == "4E":
            self._place_greedy(b, ev, me, k)
            return ev.margin(b) + 0.5
        if cid in _ACTION_FIRST:
            self.simulate_action(b, me, cid, place_after=k)
            return ev.margin(b)
        self._place_greedy(b, ev, me, k)
        placed = ev.margin(b)
        self.simulate_action(b, me, cid)
        return max(placed, ev.margin(b))

    def action_value(self, view: ElGrandeView, board: Board, ev: Evaluator) -> float:
        """Margin change of doing the taken card's action now (for DO_ACTION / SKIP_ACTION)."""
        cid = CARD_IDS[view.deciding.card]
        b = board.copy()
        self.simulate_action(b, ev.me, cid)
        return ev.margin(b) - ev.margin(board) + (0.5 if cid == "4E" else 0.0)


def _assign(dst: Board, src: Board) -> None:
    for name in Board.__slots__:
        setattr(dst, name, getattr(src, name))


def _argmax(legal: Sequence[EGAction], scores: Sequence[float], rng: Random) -> EGAction:
    best_v = max(scores)
    best = [a for a, v in zip(legal, scores, strict=True) if v > best_v - 1e-9]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


# ---------------------------------------------------------------------------- phase handlers
Handler = Callable[[GreedyElGrande, ElGrandeView, Board, Evaluator, Sequence[EGAction]], list[float]]


def _power(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
           legal: Sequence[EGAction]) -> list[float]:
    me = ev.me
    w = bot.w
    played = [v for v in view.public.power_now if v]
    rounds_left = len(view.public.rounds) - view.public.round_index
    hand = sorted(view.private.hand if view.private is not None else ())
    out = []
    for a in legal:
        v = a.a
        gain = min(b.data.POWER_CABALLEROS[v], b.province[me])
        need = 1.0 if b.court[me] < 6 else 0.5
        order = sum(1 for x in played if x < v) + (v / 13.0) * (view.public.players - 1 - len(played))
        # keep enough spread in the hand: playing a card away from the rest costs a little
        spare = len(hand) - rounds_left
        keep = 0.0 if spare > 0 else 0.2 * v
        out.append(w.power_cab * need * gain + w.power_order * order * 3.0 - keep)
    return out


def _intake(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
            legal: Sequence[EGAction]) -> list[float]:
    me = ev.me
    prov = b.province[me]
    return [float(a.a) if a.a <= prov else -float(a.a) for a in legal]


def _region_change(b: Board, ev: Evaluator, legal: Sequence[EGAction],
                   fn: Callable[[Board, EGAction], None]) -> list[float]:
    out = []
    for a in legal:
        c = b.copy()
        fn(c, a)
        out.append(ev.margin(c))
    return out


def _intake_from(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
                 legal: Sequence[EGAction]) -> list[float]:
    me = ev.me

    def f(c: Board, a: EGAction) -> None:
        if a.kind == Kind.INTAKE_FROM:
            c.cab[me][a.a] -= 1
            c.court[me] += 1

    return _region_change(b, ev, legal, f)


def _take(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
          legal: Sequence[EGAction]) -> list[float]:
    return [bot.card_value(b, ev, a.a) for a in legal]


def _order(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
           legal: Sequence[EGAction]) -> list[float]:
    first = CARD_IDS[view.deciding.card] in _ACTION_FIRST
    return [1.0 if (a.kind == Kind.ACTION_FIRST) == first else 0.0 for a in legal]


def _after(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
           legal: Sequence[EGAction]) -> list[float]:
    gain = bot.action_value(view, b, ev)
    return [gain if a.kind == Kind.DO_ACTION else 0.0 for a in legal]


def _place(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
           legal: Sequence[EGAction]) -> list[float]:
    me = ev.me

    def f(c: Board, a: EGAction) -> None:
        if a.kind in (Kind.PLACE, Kind.PLACE_EXTRA):
            c.cab[me][a.a] += 1
            c.court[me] -= 1

    return _region_change(b, ev, legal, f)


def _veto(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
          legal: Sequence[EGAction]) -> list[float]:
    me = ev.me
    cid = CARD_IDS[view.deciding.card]
    c = b.copy()
    bot.simulate_action(c, view.deciding.active, cid)
    loss = ev.margin(b) - ev.margin(c)
    expiring = bool(view.public.veto[me]) and min(view.public.veto[me]) < view.public.round_index
    limit = bot.w.veto_loss_expiring if expiring else bot.w.veto_loss
    veto = loss >= limit
    return [1.0 if (a.kind == Kind.VETO) == veto else 0.0 for a in legal]


def _move(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
          legal: Sequence[EGAction]) -> list[float]:
    def f(c: Board, a: EGAction) -> None:
        if a.kind == Kind.MOVE:
            c.cab[a.b][a.a] -= 1
            c.cab[a.b][a.c] += 1

    return _region_change(b, ev, legal, f)


def _select(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
            legal: Sequence[EGAction]) -> list[float]:
    me = ev.me
    mode = view.deciding.move_mode
    out = []
    for a in legal:
        c = b.copy()
        if mode == "region":
            bot._move_greedy(c, ev, me, "region", c.data.REGION_MOVES, sel=a.a)
        elif mode == "allout":
            bot._move_greedy(c, ev, me, "allout", 99, sel=a.a, must=True)
        else:  # 4C: opponents leave; assume each goes to his own best region
            r = a.a
            dests = [d for d in REGION_IDX if d != c.king and d != r]
            for q in range(c.n):
                if q != me and c.cab[q][r]:
                    x = c.cab[q][r]

                    def evict(cc: Board, d: int, q: int = q, x: int = x, r: int = r) -> None:
                        cc.cab[q][r] -= x
                        cc.cab[q][d] += x

                    evict(c, bot._own_best_pick(c, q, dests, evict))
        out.append(ev.margin(c))
    return out


def _mode(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
          legal: Sequence[EGAction]) -> list[float]:
    out = []
    for a in legal:
        c = b.copy()
        bot.simulate_action(c, ev.me, "1G" if a.kind == Kind.MODE_EXTRA else "1I")
        out.append(ev.margin(c))
    return out


def _score_choice(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
                  legal: Sequence[EGAction]) -> list[float]:
    return _region_change(b, ev, legal, lambda c, a: c.score_area(a.a))


def _return_from(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
                 legal: Sequence[EGAction]) -> list[float]:
    me = ev.me

    def f(c: Board, a: EGAction) -> None:
        if a.a < 0:
            c.court[me] -= 1
        else:
            c.cab[me][a.a] -= 1
        c.province[me] += 1

    return _region_change(b, ev, legal, f)


def _select_opponent(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
                     legal: Sequence[EGAction]) -> list[float]:
    def f(c: Board, a: EGAction) -> None:
        c.cab[a.a][a.b] -= 1
        c.province[a.a] += 1

    return _region_change(b, ev, legal, f)


def _disk(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
          legal: Sequence[EGAction]) -> list[float]:
    me = ev.me
    kind = view.deciding.pick_kind
    out = []
    for a in legal:
        r = a.a
        c = b.copy()
        if kind == PICK_GENERAL:  # general scoring: my Castillo caballeros go to r (the court if the King's)
            x = c.cab[me][CASTILLO]
            c.cab[me][CASTILLO] = 0
            if r == c.king:
                c.court[me] += x
            else:
                c.cab[me][r] += x
            for q in range(c.n):
                c.cab[q][CASTILLO] = 0
        elif kind in (PICK_2F, PICK_2G):
            x = min(c.data.SECRET_RETURN, c.cab[me][r]) if kind == PICK_2F else c.cab[me][r]
            c.cab[me][r] -= x
            c.province[me] += x
        elif kind == PICK_4C:
            src = view.deciding.selected
            x = c.cab[me][src]
            c.cab[me][src] = 0
            c.cab[me][r] += x
        else:
            c.score_area(r)
        out.append(ev.margin(c))
    return out


def _tile(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
          legal: Sequence[EGAction]) -> list[float]:
    def f(c: Board, a: EGAction) -> None:
        c.tiles[a.a] = a.b

    return _region_change(b, ev, legal, f)


def _king(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
          legal: Sequence[EGAction]) -> list[float]:
    me = ev.me
    pending = CARD_TYPES[view.deciding.card].stack if view.deciding.action_first else 0
    out = []
    for a in legal:
        c = b.copy()
        c.king = a.a
        bot._place_greedy(c, ev, me, pending)
        out.append(ev.margin(c))
    return out


def _grande(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
            legal: Sequence[EGAction]) -> list[float]:
    me = ev.me

    def f(c: Board, a: EGAction) -> None:
        c.grande[me] = a.a

    return _region_change(b, ev, legal, f)


def _take_back(bot: GreedyElGrande, view: ElGrandeView, b: Board, ev: Evaluator,
               legal: Sequence[EGAction]) -> list[float]:
    return [float(a.a) for a in legal]


_HANDLERS: Final[dict[str, Handler]] = {
    "power": _power,
    "intake": _intake,
    "intake_from": _intake_from,
    "take_card": _take,
    "order": _order,
    "place": _place,
    "after_placement": _after,
    "veto": _veto,
    "select_region": _select,
    "move": _move,
    "place_extra": _place,
    "mode": _mode,
    "select_scoring": _score_choice,
    "return_from": _return_from,
    "select_opponent": _select_opponent,
    "disk": _disk,
    "tile": _tile,
    "king_to": _king,
    "grande": _grande,
    "take_back": _take_back,
    "court_from": _intake_from,
}

__all__ = ["Board", "Evaluator", "GreedyElGrande", "Weights"]
