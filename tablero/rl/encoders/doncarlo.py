"""Don Carlo observation tensor: one seat's view as a fixed-shape float32 vector.

Everything comes from :class:`~tablero.games.doncarlo.view.DonCarloView` (public part, the
seat's own hand, the open decision) and the table's data (card counts, hand size, countries
in play, their sums; fixed per player count and options). Seats are relative: index 0 of every
per-seat block is the observer, then the seats after him in turn order; the active seat and
the start seat are one-hot over relative seats too.

Card counts are scaled per value by the cards of that value in one family deck (4, 4, 4, 4, 4,
3, 2 in the usual game), so each lies in 0..1; other counts by the fixed divisors below (named
in each block's doc). The table of blocks is ``layout.markdown()`` (docs/rl/don-carlo.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import compress
from operator import itemgetter, mul, sub
from typing import Any, Final

import numpy as np

from tablero.core.protocol import CHANCE
from tablero.games.doncarlo.actions import CODE_TEXTS
from tablero.games.doncarlo.data import ALL_CODES, CODE_SUM_HIGH, COUNTRIES, TIE_RULES, VALUES, tables
from tablero.games.doncarlo.rules import GAME
from tablero.games.doncarlo.state import PHASE_NAMES
from tablero.games.doncarlo.view import CountryView, Deciding, DonCarloView
from tablero.rl.encoders.base import Encoder

ROUND_DIV: Final = 20
"""Divisor of the round counter (random games end by round 14 or so)."""
AGENTS_DIV: Final = 10
"""Divisor of agent counts (per country, per seat and country)."""
COUNTRY_INFLUENCE_DIV: Final = 50
"""Divisor of a seat's influence in one country (the sum of his agents' positions there)."""
INFLUENCE_DIV: Final = 100
"""Divisor of influence points and scores."""
BONUS_DIV: Final = 10
"""Divisor of run/triple bonus points."""
POINTS_DIV: Final = 40
"""Divisor of majority points scored at the end."""
COUNTRY_POINTS_DIV: Final = 10
"""Divisor of a country's majority points (the ``country_points`` option)."""
CACHE_SIZE: Final = 4096
"""Entries each of an encoder's caches keeps (countries by object and by their fields, deciding
parts, card multisets); a cache is emptied when full."""

NV: Final = len(VALUES)


class _Country:
    """One country's entries as seat ``frame`` sees it (indices, values) and, per seat (filled as
    asked), its indices as that seat sees them; the values are the same for every seat."""

    __slots__ = ("frame", "idx", "idx_array", "seat_array", "seat_idx", "val", "val_array")

    def __init__(self, idx: tuple[int, ...], val: tuple[float, ...], frame: int, players: int) -> None:
        self.idx = idx
        self.val = val
        self.frame = frame
        self.val_array = np.array(val, np.float32)
        self.seat_idx: list[tuple[int, ...] | None] = [None] * players
        self.seat_array: list[np.ndarray | None] = [None] * players
        self.seat_idx[frame] = idx
        self.idx_array = self.seat_array[frame] = np.array(idx, np.intp)


class DonCarloEncoder(Encoder):
    """Don Carlo: the countries' agents per relative seat with their cards, every seat's
    counters and known cards, the own hand, the used code names and the open decision."""

    game_id = "don-carlo"

    def __init__(self, players: int, options: Mapping[str, object] | None = None) -> None:
        super().__init__(players, options)
        opts = GAME.resolve_options(players, options)
        t = tables(GAME.data_overrides(opts))
        n = players
        self.countries: tuple[int, ...] = t.in_play[n]
        nc = len(self.countries)
        fam = t.FAMILY_COUNTS
        fs = t.family_size
        hs = t.HAND_SIZE
        points = opts["country_points"]
        assert isinstance(points, Mapping)
        ids = [COUNTRIES[c].id for c in self.countries]
        # codes per country (the most agents it can hold) and the bounds that follow
        country_of = t.code_country[n]
        per_country = [sum(1 for i in t.codes if country_of[i] == c) for c in self.countries]
        seat_agents = [min(k, fs) for k in per_country]  # each agent costs its family a card at least
        seat_influence = [sum(range(k - m + 1, k + 1)) for k, m in zip(per_country, seat_agents, strict=True)]
        max_bonus = (fs // 3) * max(t.RUN_BONUS, t.TRIPLE_BONUS)  # only 3-card codes earn a bonus
        max_points = sum(int(points[i]) for i in ids)
        max_influence = sum(seat_influence)
        inv_fam = [1.0 / f if f else 0.0 for f in fam]
        fam_text = "/".join(str(f) for f in fam)

        lay = self.layout
        add = lay.add
        self.o_phase = add("phase", len(PHASE_NAMES), "phase one-hot: " + ", ".join(PHASE_NAMES))
        self.o_turn = add("turn", n, "active seat, one-hot per relative seat (0 = observer, then in turn "
                          "order; while dealing: the seat dealt to)")
        self.o_to_act = add("to_act", n, "1 for each seat to act now, per relative seat")
        self.o_chance = add("chance", 1, "1 when chance acts now (a card is drawn, the start seat is drawn)")
        self.o_blocked = add("blocked", 1, "1 while the active seat's blocked turn (open draws, §5.3) is under way")
        self.o_start = add("start_seat", n, "start seat, one-hot per relative seat; all 0 until it is known")
        self.o_round = add("round", 1, f"round under way / {ROUND_DIV} (0 before the first turn)",
                           high=(fs + 1) / ROUND_DIV)
        self.o_tie = add("tie_rule", len(TIE_RULES), "majority_tie option one-hot: " + ", ".join(TIE_RULES))
        self.o_influence = add("influence", n, f"influence points per relative seat / {INFLUENCE_DIV}",
                               high=max_influence / INFLUENCE_DIV)
        self.o_bonus = add("bonus", n, f"run/triple bonus points per relative seat / {BONUS_DIV}",
                           high=max_bonus / BONUS_DIV)
        self.o_cpoints = add("country_points", n,
                             f"majority points scored (at the end) per relative seat / {POINTS_DIV}",
                             high=max_points / POINTS_DIV)
        self.o_scores = add("scores", n,
                            f"score (influence + bonus + majority points) per relative seat / {INFLUENCE_DIV}",
                            high=(max_influence + max_bonus + max_points) / INFLUENCE_DIV)
        self.o_hand_size = add("hand_sizes", n, f"cards in hand per relative seat / hand size ({hs})",
                               high=fs / hs)
        self.o_hidden = add("hidden_cards", n,
                            f"cards in hand not in K (unknown to the others) per relative seat / hand size ({hs})",
                            high=fs / hs)
        self.o_deck_size = add("deck_sizes", n, f"cards left in the family deck per relative seat / family size ({fs})")
        self.o_out = add("out", n, "1 for each relative seat that is out")
        self.o_known = add("known", (n, NV),
                           "K, the known part of each hand: cards per relative seat per value 0-6 / "
                           f"cards of that value in a family ({fam_text})")
        self.o_hand = add("hand", NV, "own hand: cards per value 0-6 / cards of that value in a family")
        country_list = ", ".join(ids)
        self.o_sums = add("country_sums", (nc, 2), f"per country in play ({country_list}): lowest and "
                          f"highest accepted digit sum / {CODE_SUM_HIGH}")
        self.o_cvalue = add("country_value", nc, f"per country: its majority points / {COUNTRY_POINTS_DIV}",
                            high=max([*(int(points[i]) for i in ids), 0]) / COUNTRY_POINTS_DIV)
        self.o_agents_total = add("agents_total", nc,
                                  f"per country: agents sent there / {AGENTS_DIV} (the next agent gains this + 1)",
                                  high=max([*per_country, 0]) / AGENTS_DIV)
        self.o_agents = add("agents", (nc, n), f"per country, per relative seat: agents / {AGENTS_DIV}",
                            high=max([*seat_agents, 0]) / AGENTS_DIV)
        self.o_cinfluence = add("country_influence", (nc, n),
                                "per country, per relative seat: influence gained there (the sum of the "
                                f"agents' positions) / {COUNTRY_INFLUENCE_DIV}",
                                high=max([*seat_influence, 0]) / COUNTRY_INFLUENCE_DIV)
        self.o_leader = add("leader", (nc, n),
                            "per country: 1 for each relative seat with the most agents there (none while empty)")
        self.o_digits = add("digits", (nc, n, NV),
                            "per country, per relative seat, per value 0-6: cards of that value in the seat's "
                            "agents' codes there / cards of that value in a family")
        self.o_used = add("used", len(t.codes),
                          "1 for each code name already used by any family, in action-index order")
        self.o_final_hands = add("final_hands", (n, NV),
                                 "at the end: every hand, cards per relative seat per value / cards of that "
                                 "value in a family (0 before)")
        self.o_rank = add("rank", n, "at the end: shared rank / players per relative seat (1/n = first; 0 before)")

        # ---- index tables
        self.phase_index = {p: i for i, p in enumerate(PHASE_NAMES)}
        self.tie_index = {r: i for i, r in enumerate(TIE_RULES)}
        self.rel: tuple[tuple[int, ...], ...] = tuple(tuple((p - s) % n for p in range(n)) for s in range(n))
        self.rot: tuple[tuple[int, ...], ...] = tuple(tuple((s + r) % n for r in range(n)) for s in range(n))
        self.slot = {cid: k for k, cid in enumerate(ids)}
        position = {code: a for a, code in enumerate(t.codes)}
        # code text -> (index in `used`, ((value, copies), ...))
        self.code_info: dict[str, tuple[int, tuple[tuple[int, int], ...]]] = {
            CODE_TEXTS[i]: (self.o_used + position[i], tuple((v, code.count(v)) for v in sorted(set(code))))
            for i in t.codes
            for code in (ALL_CODES[i],)
        }
        self.inv_fam = inv_fam
        self.inv_round = 1.0 / ROUND_DIV
        self.inv_influence = 1.0 / INFLUENCE_DIV
        self.inv_bonus = 1.0 / BONUS_DIV
        self.inv_points = 1.0 / POINTS_DIV
        self.inv_hand = 1.0 / hs
        self.inv_deck = 1.0 / fs
        self.inv_sum = 1.0 / CODE_SUM_HIGH
        self.inv_cvalue = 1.0 / COUNTRY_POINTS_DIV
        self.inv_agents = 1.0 / AGENTS_DIV
        self.inv_cinfluence = 1.0 / COUNTRY_INFLUENCE_DIV
        self.inv_rank = 1.0 / n

        # every seat's counters, out and hidden cards, concatenated in this order (fill), picked in
        # relative order: (block, scale) per part
        counters = ((self.o_influence, self.inv_influence), (self.o_bonus, self.inv_bonus),
                    (self.o_cpoints, self.inv_points), (self.o_scores, self.inv_influence),
                    (self.o_hand_size, self.inv_hand), (self.o_deck_size, self.inv_deck),
                    (self.o_out, 1.0), (self.o_hidden, self.inv_hand))
        self.pick_counters = tuple(_picker(tuple(j * n + p for j in range(len(counters)) for p in rot))
                                   for rot in self.rot)
        self.counter_index = tuple(base + r for base, _ in counters for r in range(n))
        self.counter_inv = tuple(inv for _, inv in counters for _ in range(n))
        # a country is encoded once, as the first seat to see it sees it (its frame); perm[d] maps
        # those indices to the view of the seat d places after the frame seat
        perm = [list(range(lay.size)) for _ in range(n)]
        for d in range(n):
            for k in range(nc):
                for p in range(n):
                    r = (p - d) % n
                    for base in (self.o_agents, self.o_cinfluence, self.o_leader):
                        perm[d][base + k * n + p] = base + k * n + r
                    for v in range(NV):
                        perm[d][self.o_digits + (k * n + p) * NV + v] = self.o_digits + (k * n + r) * NV + v
        self.perm: tuple[list[int], ...] = tuple(perm)
        self.perm_array: tuple[np.ndarray, ...] = tuple(np.array(p, np.intp) for p in perm)
        # caches (bounded by CACHE_SIZE)
        self.cache: dict[int, tuple[CountryView, _Country]] = {}  # id(country view) -> (it, record)
        self.records: dict[tuple[Any, ...], _Country] = {}  # a country's fields -> record
        self.deciding: dict[int, tuple[Deciding, list[Any]]] = {}  # id -> (it, per seat (idx, val))
        self.multisets: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, ...], tuple[float, ...]]] = {}

    def fill(self, view: Any, seat: int, idx: list[int], val: list[float]) -> None:
        assert isinstance(view, DonCarloView)
        self._head(view, seat, idx, val)
        # countries: most look the same from one step to the next (observe gives the same object
        # for a country that has not changed)
        n = self.players
        ext = idx.extend
        vext = val.extend
        cache = self.cache
        for c in view.public.countries:
            hit = cache.get(id(c))
            rec = hit[1] if hit is not None and hit[0] is c else self._record(c, seat)
            ix = rec.seat_idx[seat]
            if ix is None:
                ix = rec.seat_idx[seat] = tuple(map(self.perm[(seat - rec.frame) % n].__getitem__, rec.idx))
            ext(ix)
            vext(rec.val)

    def encode(self, view: Any) -> np.ndarray:
        """As :meth:`Encoder.encode` (the same tensor as from :meth:`fill`), with each country's
        entries kept as arrays (most countries are the same as at the step before)."""
        seat = view.viewer
        if seat is None:
            raise ValueError("observation tensors are per seat; a spectator's view has no observer")
        assert isinstance(view, DonCarloView)
        idx: list[int] = []
        val: list[float] = []
        self._head(view, seat, idx, val)
        out = np.zeros(self.layout.size, np.float32)
        k = len(idx)
        out[np.fromiter(idx, np.intp, k)] = np.fromiter(val, np.float32, k)
        n = self.players
        cache = self.cache
        for c in view.public.countries:
            hit = cache.get(id(c))
            rec = hit[1] if hit is not None and hit[0] is c else self._record(c, seat)
            ix = rec.seat_array[seat]
            if ix is None:
                ix = rec.seat_array[seat] = self.perm_array[(seat - rec.frame) % n][rec.idx_array]
            out[ix] = rec.val_array
        return out

    def _head(self, view: DonCarloView, seat: int, idx: list[int], val: list[float]) -> None:
        """Every entry but the countries'."""
        n = self.players
        pub = view.public
        ext = idx.extend
        vext = val.extend

        # ---- the open decision (one entry per Deciding object and seat)
        dec = view.deciding
        hit = self.deciding.get(id(dec))
        if hit is None or hit[0] is not dec:
            if len(self.deciding) >= CACHE_SIZE:
                self.deciding.clear()
            hit = self.deciding[id(dec)] = (dec, [None] * n)
        entry = hit[1][seat]
        if entry is None:
            entry = hit[1][seat] = self._deciding(dec, seat)
        ext(entry[0])
        vext(entry[1])
        ap = idx.append
        vp = val.append
        if pub.start_seat >= 0:
            ap(self.o_start + self.rel[seat][pub.start_seat])
            vp(1.0)
        if pub.round:
            ap(self.o_round)
            vp(pub.round * self.inv_round)
        ap(self.o_tie + self.tie_index[pub.tie_rule])
        vp(1.0)

        # ---- per-seat counters, out and hidden cards (the non-zero ones, in one pass)
        known = pub.known
        sizes = pub.hand_sizes
        some_known = any(known)
        x = self.pick_counters[seat](
            pub.influence + pub.bonus + pub.country_points + pub.scores + sizes + pub.deck_sizes + pub.out
            + (tuple(map(sub, sizes, map(len, known))) if some_known else sizes))
        ext(compress(self.counter_index, x))
        vext(map(mul, compress(x, x), compress(self.counter_inv, x)))
        if some_known:
            rot = self.rot[seat]
            for r in range(n):
                kp = known[rot[r]]
                if kp:
                    self._multiset(self.o_known + r * NV, kp, ext, vext)

        # ---- own hand; every hand and the ranks at the end
        if view.private is not None and view.private.hand:
            self._multiset(self.o_hand, view.private.hand, ext, vext)
        ranks = pub.ranks
        if ranks is not None:
            inv_fam = self.inv_fam
            rot = self.rot[seat]
            hands = pub.hands
            for r in range(n):
                p = rot[r]
                hand = hands[p]
                if hand:
                    _counts(hand, self.o_final_hands + r * NV, inv_fam, ap, vp)
                ap(self.o_rank + r)
                vp(ranks[p] * self.inv_rank)

    def _deciding(self, dec: Deciding, seat: int) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """The open decision's entries for ``seat``."""
        rel = self.rel[seat]
        idx = [self.o_phase + self.phase_index[dec.phase], self.o_turn + rel[dec.turn]]
        idx += [self.o_chance if p == CHANCE else self.o_to_act + rel[p] for p in dec.to_act]
        if dec.blocked is not None:
            idx.append(self.o_blocked)
        return tuple(idx), (1.0,) * len(idx)

    def _multiset(self, base: int, values: tuple[int, ...], ext: Callable[[Any], None],
                  vext: Callable[[Any], None]) -> None:
        """The counts per value of ``values`` (sorted) at ``base + value`` (cached)."""
        key = (base, values)
        entry = self.multisets.get(key)
        if entry is None:
            if len(self.multisets) >= CACHE_SIZE:
                self.multisets.clear()
            i: list[int] = []
            v: list[float] = []
            _counts(values, base, self.inv_fam, i.append, v.append)
            entry = self.multisets[key] = (tuple(i), tuple(v))
        ext(entry[0])
        vext(entry[1])

    def _record(self, c: CountryView, seat: int) -> _Country:
        """``c``'s record, found or made (in ``seat``'s frame) by its fields, cached by its object too."""
        key = (c.id, c.points, c.sums, c.agents)
        rec = self.records.get(key)
        if rec is None:
            if len(self.records) >= CACHE_SIZE:
                self.records.clear()
            rec = self.records[key] = _Country(*self._country(self.rel[seat], c), seat, self.players)
        if len(self.cache) >= CACHE_SIZE:
            self.cache.clear()
        self.cache[id(c)] = (c, rec)
        return rec

    def _country(self, rel: tuple[int, ...], c: CountryView) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """The non-zero entries of one country with seat ``p`` at relative index ``rel[p]``:
        (indices, values)."""
        n = self.players
        k = self.slot[c.id]
        idx: list[int] = []
        val: list[float] = []
        ap = idx.append
        vp = val.append
        lo, hi = c.sums[0], c.sums[-1]
        if lo:
            ap(self.o_sums + 2 * k)
            vp(lo * self.inv_sum)
        if hi:
            ap(self.o_sums + 2 * k + 1)
            vp(hi * self.inv_sum)
        if c.points:
            ap(self.o_cvalue + k)
            vp(c.points * self.inv_cvalue)
        agents = c.agents
        if agents:
            ap(self.o_agents_total + k)
            vp(len(agents) * self.inv_agents)
            counts = [0] * n
            influence = [0] * n
            digits: dict[int, int] = {}
            dbase = self.o_digits + k * n * NV
            info = self.code_info
            for pos, (p, code) in enumerate(agents, 1):
                r = rel[p]
                counts[r] += 1
                influence[r] += pos
                used, items = info[code]
                ap(used)
                vp(1.0)
                d = dbase + r * NV
                for v, m in items:
                    digits[d + v] = digits.get(d + v, 0) + m
            top = max(counts)
            for r in range(n):
                x = counts[r]
                if x:
                    ap(self.o_agents + k * n + r)
                    vp(x * self.inv_agents)
                    ap(self.o_cinfluence + k * n + r)
                    vp(influence[r] * self.inv_cinfluence)
                    if x == top:
                        ap(self.o_leader + k * n + r)
                        vp(1.0)
            inv_fam = self.inv_fam
            for i, x in digits.items():
                ap(i)
                vp(x * inv_fam[(i - dbase) % NV])
        return tuple(idx), tuple(val)


def _counts(values: tuple[int, ...], base: int, inv: list[float],
            ap: Callable[[int], None], vp: Callable[[float], None]) -> None:
    """Append the counts per value of ``values`` (sorted) at ``base + value``, scaled by ``inv``."""
    last = values[0]
    m = 0
    for v in values:
        if v != last:
            ap(base + last)
            vp(m * inv[last])
            last = v
            m = 0
        m += 1
    ap(base + last)
    vp(m * inv[last])


def _picker(order: tuple[int, ...]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """A tuple's items in ``order``, as a tuple (``itemgetter`` gives a bare item for one)."""
    if len(order) == 1:
        only = order[0]
        return lambda t: (t[only],)
    return itemgetter(*order)


ENCODER: Final = DonCarloEncoder
