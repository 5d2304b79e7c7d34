"""El Grande for search: expected final scores from the public board, and a cheap playout policy.

**Estimate** (from the spectator's view only, ``observe(state, None).public``): every seat's
score so far, plus what it would get if every region and the Castillo were scored now
(current values, the King's and Grande bonus: the greedy bot's :class:`Board`), counted once
per scoring still to come: the next general scoring fully, each later one by
``LATER_SCORING`` (the board changes until then), and ``SPECIAL_PER_ROUND`` of a board
scoring for every round still to play (each round turns up a card of stack 3, which is
always a special scoring). Caballeros in the court add ``COURT`` each (future placements),
those in the Castillo ``TOWER``. A seat whose turn of this round is still to come (it has
not taken its action card yet) gets what a turn is worth (``TURN_GAIN``): without it, a
playout cut off in the middle of a round makes the seats whose turns fell inside the horizon
look far ahead. At the end the scores are the final ones.

**Rollout** (the playout policy, about 20 µs a decision against 2 ms for the greedy bot, and
about as strong: 0.24 win share against three greedy bots in 40 games): simple rules read
straight off the determinized world (a state the searching seat sampled, never the true
one). An area's
worth to the deciding seat is the points it would give now, weighted +1 for the seat, -3/4
for the opponent with the highest score and -1/4 spread over all opponents (the greedy bot's
margin, area by area), so every rule compares areas by one cheap function:

* power card: the greedy bot's rule (caballeros needed, turn order, keep high cards);
  intake: as many as the province gives;
* action card: caballeros it lets the seat place (the best placement gains next to the King)
  plus a fixed worth per card type, or, for a scoring card, the worth of the areas it scores;
* order: King cards, 1G, 4F and 1H first; an action after placement is done unless it is a
  scoring that costs the seat;
* placement: the area next to the King whose worth rises most, ending when none rises by
  more than a court caballero's worth;
* moves (1A-1F, 1I): the best of a few sampled moves, or stop when none helps;
* secret disks, King, Grande, scoreboards, returns, scorings of choice: the option whose
  area worth is best for the seat; Veto! only against a scoring that costs the seat much.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, Final

from tablero.bots.heuristics.elgrande import Board
from tablero.core.protocol import Game
from tablero.games.elgrande.actions import EGAction, Kind
from tablero.games.elgrande.data import (
    CARD_TYPES,
    CASTILLO,
    CASTILLO_VALUES,
    GRANDE_BONUS,
    KING_BONUS,
    NUM_AREAS,
    NUM_REGIONS,
    SCORING_ROUNDS,
    TILES,
)
from tablero.games.elgrande.state import (
    AFTER,
    COURT_FROM,
    EXTRA,
    GRANDE,
    INTAKE,
    INTAKE_FROM,
    KING_TO,
    MODE,
    MOVE,
    ORDER,
    PICK,
    PICK_2F,
    PICK_2G,
    PICK_4C,
    PICK_GENERAL,
    PLACE,
    POWER,
    RETURN,
    SCORE_CHOICE,
    SELECT,
    SELECT_OPP,
    TAKE,
    TAKE_BACK,
    TILE,
    VETO,
    ElGrandeState,
)
from tablero.games.elgrande.view import ElGrandeView

LATER_SCORING: Final = 0.7
"""Weight of a general scoring after the next one (majorities shift until then)."""
SPECIAL_PER_ROUND: Final = 0.2
"""Share of a whole-board scoring that the special scorings of one round bring."""
COURT: Final = 0.3
"""A caballero in the court: a future placement (as the greedy bot counts it)."""
TOWER: Final = 0.6
"""A caballero in the Castillo: it may go to any region at the general scoring."""

TURN_GAIN: Final = 46.0
"""What a turn of this round still to come is worth to a seat, in points if the board were
scored now, relative to the others (about ``1 + TURN_GAIN / players``, more in early rounds:
measured on greedy games at 3-5 players). Without it a search cut off mid-round sees the
seats whose turns fell inside its horizon far ahead of the others."""

CARD_IDS: Final = tuple(c.id for c in CARD_TYPES)
STACK: Final = tuple(c.stack for c in CARD_TYPES)
ACTION_FIRST: Final = frozenset(i for i, c in enumerate(CARD_IDS) if c in ("4B", "5A", "1G", "4F", "1H"))
CARD_WORTH: Final[dict[str, float]] = {
    "1A": 1.5, "1B": 1.5, "1C": 1.2, "1D": 1.5, "1E": 1.2, "1F": 1.2, "1G": 2.0, "1H": 1.5,
    "1I": 1.0, "2A": 1.5, "2B": 1.0, "2C": 0.8, "2D": 1.0, "2F": 0.5, "2G": 0.5, "2H": 1.0,
    "4A": 1.0, "4B": 1.5, "4C": 1.0, "4D": 1.0, "4E": 0.5, "4F": 1.0, "4G": 1.0, "5A": 2.0,
}
"""A rough worth in points of each non-scoring card's action (scorings are valued on the board)."""
SCORING_CARDS: Final = frozenset({"2E", "3A", "3B", "3C", "3D", "3E", "3F", "3G", "3H"})
MOVE_SAMPLES: Final = 6
"""Moves sampled (and judged) at a move decision."""


class ElGrandeModel:
    """Estimate and playout policy of El Grande (see the module docstring)."""

    scale = 20.0
    """A clear lead, on the estimate's scale: about what one seat's turn early in the game
    adds to it, or a good general scoring (estimated margins are often 20 and more, and a
    smaller scale saturates the reward so the search can no longer tell options apart)."""

    # ------------------------------------------------------------------ estimate
    def estimate(self, game: Game[Any, Any, Any], state: Any) -> Sequence[float]:
        view = game.observe(state, None)
        pub = view.public
        scores = [float(x) for x in pub.scores]
        if pub.ranks is not None or pub.king < 0:
            return scores
        board = Board.of(view)
        rounds = pub.rounds[pub.round_index:]
        general = sum(1 for r in rounds if r in SCORING_ROUNDS)
        weight = (1.0 + LATER_SCORING * (general - 1) if general else 0.0) + SPECIAL_PER_ROUND * len(rounds)
        n = pub.players
        now = [0.0] * n
        for area in range(NUM_AREAS):
            for p, x in enumerate(board.points(area)):
                now[p] += x
        turn = weight * (1.0 + TURN_GAIN / n) * (0.5 + len(rounds) / 9.0)
        pending = _pending_turns(view)
        return [scores[p] + weight * now[p] + COURT * pub.court[p] + TOWER * pub.cab[p][CASTILLO]
                + turn * pending[p] for p in range(n)]

    # ------------------------------------------------------------------ rollout
    def rollout(self, game: Game[Any, Any, Any], state: Any, seat: int, legal: Sequence[Any],
                rng: Random) -> Any:
        s: ElGrandeState = state
        rule = _RULES.get(s.phase)
        if rule is None:
            return legal[rng.randrange(len(legal))]
        return rule(_Local(s, seat), legal, rng)


def _pending_turns(view: ElGrandeView) -> list[float]:
    """Per seat: 1 if its turn of this round is still to come (it has not taken a card yet)."""
    pub, dec = view.public, view.deciding
    out = [0.0] * pub.players
    if dec.phase in ("reveal", "power"):
        return [1.0] * pub.players
    if dec.active < 0:  # between the turns (a general scoring)
        return out
    for j in range(pub.turn_index + 1, len(pub.order)):
        out[pub.order[j]] = 1.0
    if dec.card < 0:
        out[dec.active] = 1.0
    return out


class _Local:
    """One decision's view of the world for the deciding seat: what an area is worth to it."""

    __slots__ = ("cab", "data", "grande", "king", "me", "n", "s", "tiles", "w")

    def __init__(self, s: ElGrandeState, me: int) -> None:
        self.s = s
        self.data = s.data
        self.me = me
        n = self.n = s.n
        self.cab = s.cab
        self.king = s.king
        self.grande = s.grande
        self.tiles = s.tiles
        lead, best = -1, -1
        for q in range(n):
            if q != me and s.score[q] > best:
                lead, best = q, s.score[q]
        share = 0.25 / (n - 1)
        w = [-share] * n
        w[lead] -= 0.75
        w[me] = 1.0
        self.w = w

    def values(self, area: int) -> tuple[int, int, int]:
        if area == CASTILLO:
            return CASTILLO_VALUES
        for t, pos in enumerate(self.tiles):
            if pos == area:
                return TILES[t]
        return self.data.REGIONS[area].values

    def counts(self, area: int) -> list[int]:
        cab = self.cab
        return [cab[p][area] for p in range(self.n)]

    def worth(self, area: int, counts: list[int] | None = None, vals: tuple[int, int, int] | None = None,
              king: int = -2) -> float:
        """The seat-weighted points ``area`` gives if scored now (with changed counts, values or
        King's region); the Castillo's caballeros count ``TOWER`` each besides."""
        if counts is None:
            counts = self.counts(area)
        if vals is None:
            vals = self.values(area)
        if king == -2:
            king = self.king
        w = self.w
        total = 0.0
        if area == CASTILLO:
            for p, c in enumerate(counts):
                total += TOWER * w[p] * c
        r = 1
        for c in sorted(set(counts), reverse=True):
            if c <= 0 or r > 3:
                break
            if counts.count(c) == 1:
                p = counts.index(c)
                pts = float(vals[r - 1])
                if r == 1 and area != CASTILLO:
                    if area == king:
                        pts += KING_BONUS
                    if self.grande[p] == area:
                        pts += GRANDE_BONUS
                total += w[p] * pts
                r += 1
            else:
                if r < 3:
                    v = vals[r]
                    for p, x in enumerate(counts):
                        if x == c:
                            total += w[p] * v
                r += 2
        return total

    def change(self, area: int, seat: int, delta: int) -> float:
        """How much ``area``'s worth changes if ``seat`` gets ``delta`` more caballeros there."""
        counts = self.counts(area)
        before = self.worth(area, counts)
        counts[seat] += delta
        return self.worth(area, counts) - before

    def leader(self, area: int) -> int:
        """The seat alone in first place in ``area`` (-1: nobody or a tie)."""
        counts = self.counts(area)
        top = max(counts)
        return counts.index(top) if top > 0 and counts.count(top) == 1 else -1

    def scored(self, areas: Sequence[int]) -> float:
        return sum(self.worth(a) for a in areas)


def _best(legal: Sequence[EGAction], scores: Sequence[float], rng: Random) -> EGAction:
    top = max(scores)
    best = [a for a, v in zip(legal, scores, strict=True) if v >= top - 1e-9]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def _card_areas(loc: _Local, cid: str) -> list[int]:
    """The areas a scoring card scores (2E / 3H: the best one for the seat)."""
    if cid in loc.data.CLASS_REGIONS:
        return list(loc.data.CLASS_REGIONS[cid])
    if cid == "3D":
        return [CASTILLO]
    if cid == "3E":
        return list(range(NUM_REGIONS))
    if cid in ("3F", "3G"):
        totals = [sum(loc.counts(r)) for r in range(NUM_REGIONS)]
        present = [t for t in totals if t]
        if not present:
            return []
        target = max(present) if cid == "3F" else min(present)
        return [r for r in range(NUM_REGIONS) if totals[r] == target]
    areas = range(NUM_AREAS) if cid == "3H" else range(NUM_REGIONS)
    return [max(areas, key=loc.worth)]


def _scoring_gain(loc: _Local, cid: str) -> float:
    areas = _card_areas(loc, cid)
    if cid == "3E":  # first places only: about half of what a full scoring gives
        return 0.5 * loc.scored(areas)
    if cid == "3D":
        return loc.scored(areas) - sum(TOWER * w * c for w, c in zip(loc.w, loc.counts(CASTILLO), strict=True))
    return loc.scored(areas)


# ---------------------------------------------------------------------------- rules per phase
def _power(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    s, me = loc.s, loc.me
    played = [v for v in s.power_now if v]
    rounds_left = len(s.rounds) - s.ri
    spare = bin(s.hand[me]).count("1") - rounds_left
    need = 1.0 if s.court[me] < 6 else 0.5
    prov = s.province[me]
    others = s.n - 1 - len(played)
    out = []
    for a in legal:
        v = a.a
        order = sum(1 for x in played if x < v) + (v / 13.0) * others
        out.append(need * min(s.data.POWER_CABALLEROS[v], prov) + 1.05 * order - (0.0 if spare > 0 else 0.2 * v))
    return _best(legal, out, rng)


def _intake(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    prov = loc.s.province[loc.me]
    return max(legal, key=lambda a: a.a if a.a <= prov else -a.a)


def _place_gains(loc: _Local, areas: Sequence[int]) -> list[float]:
    return [loc.change(a, loc.me, 1) for a in areas]


def _take(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    s, me = loc.s, loc.me
    near = [*s.data.NEIGHBOURS[s.king], CASTILLO]
    gains = sorted((g for g in _place_gains(loc, near) if g > COURT), reverse=True)
    court = s.court[me]
    out = []
    for a in legal:
        cid = CARD_IDS[a.a]
        k = min(STACK[a.a], court)
        v = sum(gains[:k]) + 0.5 * max(0, k - len(gains))
        if cid in SCORING_CARDS:
            v += _scoring_gain(loc, cid)
        else:
            v += CARD_WORTH[cid]
        out.append(v)
    return _best(legal, out, rng)


def _order(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    first = loc.s.card in ACTION_FIRST
    return next((a for a in legal if (a.kind == Kind.ACTION_FIRST) == first), legal[0])


def _after(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    cid = CARD_IDS[loc.s.card]
    do = _scoring_gain(loc, cid) >= 0 if cid in SCORING_CARDS else True
    return next((a for a in legal if (a.kind == Kind.DO_ACTION) == do), legal[0])


def _veto(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    cid = CARD_IDS[loc.s.card]
    veto = cid in SCORING_CARDS and cid not in ("2E", "3H") and _scoring_gain(loc, cid) <= -3.0
    return next((a for a in legal if (a.kind == Kind.VETO) == veto), legal[0])


def _place(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    me = loc.me
    out = []
    for a in legal:
        if a.kind in (Kind.PLACE, Kind.PLACE_EXTRA):
            out.append(loc.change(a.a, me, 1))
        else:  # END_PLACEMENT / STOP: keep the caballero in the court
            out.append(COURT)
    return _best(legal, out, rng)


def _move(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    stop = legal[-1] if legal[-1].kind == Kind.STOP else None
    moves = legal[:-1] if stop is not None else legal
    if len(moves) > MOVE_SAMPLES:
        moves = rng.sample(moves, MOVE_SAMPLES)
    best, best_v = stop, 0.05 if stop is not None else float("-inf")
    for a in moves:
        src, q, dst = a.a, a.b, a.c
        v = loc.change(src, q, -1) + loc.change(dst, q, 1)
        if v > best_v:
            best, best_v = a, v
    return best if best is not None else moves[0]


def _select(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    s, me = loc.s, loc.me
    if s.move_mode != "evict":  # 1A, 1I / 1H: the moves decide; any region will do
        return legal[rng.randrange(len(legal))]
    out = []
    for a in legal:  # 4C: the others leave the region
        counts = loc.counts(a.a)
        before = loc.worth(a.a, counts)
        out.append(loc.worth(a.a, [c if p == me else 0 for p, c in enumerate(counts)]) - before)
    return _best(legal, out, rng)


def _mode(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    return next((a for a in legal if a.kind == Kind.MODE_EXTRA), legal[0])


def _score_choice(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    return _best(legal, [loc.worth(a.a) for a in legal], rng)


def _return(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    me = loc.me
    return _best(legal, [-COURT if a.a < 0 else loc.change(a.a, me, -1) for a in legal], rng)


def _select_opp(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    return _best(legal, [loc.change(a.b, a.a, -1) for a in legal], rng)


def _intake_from(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    me = loc.me
    return _best(legal, [0.0 if a.kind == Kind.STOP else COURT + loc.change(a.a, me, -1) for a in legal], rng)


def _disk(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    s, me = loc.s, loc.me
    kind = s.pick_kind
    out = []
    for a in legal:
        r = a.a
        if kind == PICK_GENERAL:
            x = s.cab[me][CASTILLO]
            out.append(COURT * x if r == s.king else loc.change(r, me, x))
        elif kind in (PICK_2F, PICK_2G):
            x = min(s.data.SECRET_RETURN, s.cab[me][r]) if kind == PICK_2F else s.cab[me][r]
            out.append(loc.change(r, me, -x))
        elif kind == PICK_4C:
            out.append(loc.change(r, me, s.cab[me][s.sel]))
        else:  # 4G: the region scored if nobody else picks it
            out.append(loc.worth(r))
    return _best(legal, out, rng)


def _tile(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    out = []
    for a in legal:
        t, r = a.a, a.b
        v = loc.worth(r, vals=TILES[t]) - loc.worth(r)
        old = loc.tiles[t]
        if old >= 0:
            v += loc.worth(old, vals=loc.data.REGIONS[old].values) - loc.worth(old)
        out.append(v)
    return _best(legal, out, rng)


def _king(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    s = loc.s
    pending = STACK[s.card] if s.action_first else 0
    gains = {}
    if pending:
        gains = {r: g for r, g in zip(range(NUM_REGIONS), _place_gains(loc, range(NUM_REGIONS)), strict=True)}
    out = []
    for a in legal:
        r = a.a
        v = loc.worth(r, king=r) - loc.worth(r) + loc.worth(s.king, king=r) - loc.worth(s.king)
        if pending:
            v += sum(sorted((gains[x] for x in loc.data.NEIGHBOURS[r]), reverse=True)[:pending])
        out.append(v)
    return _best(legal, out, rng)


def _grande(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    me = loc.me
    w = loc.w[me] * GRANDE_BONUS
    return _best(legal, [w if loc.leader(a.a) == me else 0.0 for a in legal], rng)


def _take_back(loc: _Local, legal: Sequence[EGAction], rng: Random) -> EGAction:
    return max(legal, key=lambda a: a.a)


_RULES: Final = {
    POWER: _power,
    INTAKE: _intake,
    INTAKE_FROM: _intake_from,
    TAKE: _take,
    ORDER: _order,
    PLACE: _place,
    AFTER: _after,
    VETO: _veto,
    SELECT: _select,
    MOVE: _move,
    EXTRA: _place,
    MODE: _mode,
    SCORE_CHOICE: _score_choice,
    RETURN: _return,
    SELECT_OPP: _select_opp,
    PICK: _disk,
    TILE: _tile,
    KING_TO: _king,
    GRANDE: _grande,
    TAKE_BACK: _take_back,
    COURT_FROM: _intake_from,
}
"""The playout rule of each decision phase (others: uniform)."""
