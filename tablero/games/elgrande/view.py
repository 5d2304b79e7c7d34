"""What a seat may know in El Grande (§13), and sampling a full state consistent with it.

An :class:`ElGrandeView` has three parts:

* ``public`` (:class:`PublicView`): what every seat and every spectator sees, the same for all
  viewers. Everything on the table is public: caballeros per area and colour (the Castillo
  included: its counts follow from public placements), courts, provinces, scores, Grandes,
  the King, tiles, the cards on offer, the discard pile, Veto! holders, every power card
  played and the turn order; of a secret disk only *that* a seat has committed; the last
  action as the spectator saw it. The stacks' order is unknown to everyone; their remaining
  composition follows from the public reveals.
* ``private`` (:class:`PrivateView`, ``None`` for a spectator): the seat's own power hand, the
  values it took back with 4E, its own committed disk, and the last action as this seat saw
  it when that differs (its own secret disk or take-back).
* ``deciding`` (:class:`Deciding`): who decides what now and the context of that decision (the
  card being carried out, limits, budgets, the selected region, the queue of seats to ask),
  the same for every viewer. A context field outside the decision it describes holds its
  neutral value, never a leftover of an earlier decision.

The rules' own counters that are not in the view (which region card is dealt next, which card
of the round is turned up next, how many power cards of the round are down) follow from
public facts; :func:`determinize` rebuilds them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from random import Random
from typing import Any

from tablero.core.protocol import CHANCE
from tablero.core.serial import plain
from tablero.games.elgrande.actions import SECRET_KINDS, EGAction, Kind, act, parse, redact
from tablero.games.elgrande.data import CARD_TYPES, POWER_VALUES, Tables
from tablero.games.elgrande.engine import new_state, pick_options
from tablero.games.elgrande.state import (
    COURT_FROM,
    DEAL,
    EXTRA,
    INTAKE_FROM,
    MOVE,
    PHASE_NAMES,
    PICK,
    PLACE,
    REVEAL,
    START,
    ElGrandeState,
)

STACKS_TURNED_UP = 4
"""Cards turned up each round, one from each of stacks 1-4 (§6.1)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PublicView:
    """What every viewer sees, spectators included (the same for all)."""

    players: int
    data: Tables
    """The values the game plays with (region values, borders, card counts...: the defaults of
    ``data`` with the table's overrides). Public like every rule; JSON gives the overrides only."""
    short_game: bool
    castillo_open: bool
    """The option: the terminal shows the running Castillo counts (``cab`` has them either way)."""
    start_option: int | None
    """The option ``start_seat`` (None: drawn at random)."""
    rounds: tuple[int, ...]
    """The round numbers played (1-9, or 2, 3, 5, 6, 8, 9 in the short game)."""
    round_index: int
    """Index into ``rounds`` of the round being played."""
    order: tuple[int, ...]
    """The turn order of this round (of the last round until this round's power cards are down)."""
    turn_index: int
    """Turns of ``order`` done: the active seat is ``order[turn_index]`` during the turns."""
    cab: tuple[tuple[int, ...], ...]
    """Caballeros per seat and area (9 regions, then the Castillo)."""
    court: tuple[int, ...]
    province: tuple[int, ...]
    grande: tuple[int, ...]
    """Each seat's Grande's region (-1 before the deal)."""
    king: int
    """The King's region (-1 before the deal)."""
    scores: tuple[int, ...]
    tiles: tuple[int, ...]
    """The region of each mobile scoreboard (``data.TILES``), -1 = off the board."""
    offer: tuple[int, ...]
    """Card type indices face up from stacks 1-4, not taken yet."""
    king_card: bool
    """The King's card (5A) is on offer."""
    discard: tuple[int, ...]
    unseen: tuple[int, ...]
    """Per card type: copies still face down in its stack (copies minus the reveals)."""
    power_log: tuple[tuple[int, ...], ...]
    """Per seat: the power cards played, in order; 0 = took one back with 4E (which is secret)."""
    power_now: tuple[int, ...]
    """Per seat: the power card of this round's power-card phase (0 = none yet)."""
    low_seat: int
    """Who played the lowest power card in the last completed power-card phase (-1 before)."""
    hand_sizes: tuple[int, ...]
    """Power cards in each hand."""
    veto: tuple[tuple[int, ...], ...]
    """Per seat: the round index each Veto! he holds was taken in."""
    committed: tuple[bool, ...]
    """Per seat: has set his secret disk in the open secret pick (the region is secret)."""
    shown_picks: tuple[int, ...]
    """The disks of the last reveal, per seat (-1 = no disk)."""
    last: tuple[int, str]
    """The last applied action as the spectator saw it: (actor, wire text), ``(-1, "")`` before any."""
    ranks: tuple[int, ...] | None
    """At the end: each seat's place (shared places: 1, 1, 3); None before."""

    @property
    def round(self) -> int:
        """The round number being played."""
        return self.rounds[min(self.round_index, len(self.rounds) - 1)]

    def takeback_candidates(self, seat: int) -> list[tuple[int, ...]]:
        """For each 4E of ``seat``: the values that could have been taken back, from public
        knowledge only (the values he had played before it)."""
        out = []
        played: list[int] = []
        for v in self.power_log[seat]:
            if v:
                played.append(v)
            else:
                out.append(tuple(sorted(set(played))))
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class PrivateView:
    """What only this seat knows."""

    seat: int
    hand: tuple[int, ...]
    """The seat's power cards in hand."""
    taken_back: tuple[int, ...]
    """The values it took back with 4E, in order (the others see a 0 in ``power_log``)."""
    pick: int
    """Its own committed disk in the open secret pick, -1 = none."""
    last_move: str
    """The wire text of the last action when this seat took it and the others saw less of it
    (its secret disk, its 4E take-back); ``""`` otherwise (then ``public.last`` is what it saw)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Deciding:
    """Who decides what now, as every viewer may know it (the same for all viewers).

    Each context field names the decisions it describes; outside them it is neutral (-1, 0,
    False, ``""`` or empty).
    """

    phase: str
    """The kind of decision open now (``state.PHASE_NAMES``: ``"power"``, ``"take_card"``,
    ``"disk"``, …; ``"deal"``, ``"start"``, ``"reveal"`` are chance; ``"over"`` at the end)."""
    to_act: tuple[int, ...]
    """The seats asked now (CHANCE = -1 for a chance step); during secret disks the seats that
    have not committed yet, in asking order."""
    active: int
    """The seat whose turn it is (-1 outside the turns: cards turned up, power cards, a general
    scoring). Every decision of a turn but the Veto! window, 2D returns and others' disks is his."""
    card: int
    """The action card (card type index) the active seat took this turn, whose placement and
    action are being carried out; -1 before he takes one."""
    action_first: bool
    """With ``card``: its action comes before the placement (``order`` chose it, or the card is
    a Veto!, which has no action: the turn ends after placing)."""
    place_limit: int
    """``place``: caballeros he may place at most from the court (the card's stack number)."""
    placed: int
    """``place``: caballeros placed so far."""
    intake_left: int
    """``intake_from`` (a power card's intake beyond the province) and ``court_from`` (4F):
    caballeros still to take into the court from the regions."""
    move_mode: str
    """The moves of the card carried out (``select_region``, ``move``; 4C's ``disk`` too):
    ``"region"`` 1A (any caballeros out of one region), ``"any"`` / ``"own"`` / ``"opp"`` (1B,
    1C, 1E, 1F), ``"mixed"`` 1D (own and opponents' budgets), ``"allout"`` 1I / 1H (all own out
    of one region), ``"evict"`` 4C."""
    budget_own: int
    """``move`` (not ``"allout"``): moves left (own ones for ``"mixed"``); ``place_extra`` (1G,
    1H): extra caballeros left."""
    budget_opp: int
    """``move`` with ``"mixed"`` (1D): moves of opponents' caballeros left."""
    selected: int
    """The region chosen with ``select_region`` (1A, 1I, 1H, 4C), which the moves (or 4C's
    disks) refer to; -1 = none."""
    queue: tuple[int, ...]
    """The seats still to handle, the first one's decision open: ``veto`` the Veto! holders
    still to ask (turn order after the active seat), ``return_from`` the 2D opponents still to
    return caballeros, ``select_opponent`` the 2H opponents whose caballero is still to choose."""
    returns_left: int
    """``return_from`` (2D): caballeros the asked opponent still returns."""
    pick_kind: int
    """``disk``: what the secret disks decide (``state.PICK_*``): 0 a general scoring (where the
    Castillo's caballeros go), 1 2F, 2 2G, 3 4C (where the evicted caballeros go), 4 4G; -1 none."""
    pick_seats: tuple[int, ...]
    """``disk``: the seats that set a disk, in asking order."""
    power_first: int
    """``power``: the seat that plays (or played) this round's first power card, the others
    following clockwise: the start seat in round 1 (-1 until it is drawn), else the seat with
    the last round's lowest card (§6.2)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ElGrandeView:
    """What ``viewer`` (a seat, or None for a spectator) may know: see the module docstring."""

    viewer: int | None
    public: PublicView
    private: PrivateView | None
    deciding: Deciding

    @property
    def last(self) -> tuple[int, str]:
        """The last applied action as this viewer saw it: (actor, wire text)."""
        actor, text = self.public.last
        return actor, (self.private.last_move if self.private is not None and self.private.last_move else text)

    def to_json(self) -> dict[str, Any]:
        public = {f.name: plain(getattr(self.public, f.name)) for f in fields(PublicView) if f.name != "data"}
        if self.public.data.overrides:  # the overrides only, where there are some (as in the state's JSON)
            public["data"] = self.public.data.to_json()
        public["round"] = self.public.round
        public["offer_ids"] = [CARD_TYPES[c].id for c in self.public.offer]
        return {"viewer": self.viewer, "public": public,
                "private": None if self.private is None else plain(self.private),
                "deciding": plain(self.deciding)}


_VALUES: dict[int, tuple[int, ...]] = {}
"""``_values`` by hand bitmask (at most 2**13 hands of the values 1-13)."""


def _values(mask: int) -> tuple[int, ...]:
    """The power values in the hand bitmask ``mask``, ascending."""
    found = _VALUES.get(mask)
    if found is None:
        found = tuple(v for v in POWER_VALUES if mask >> v & 1)
        if len(_VALUES) >= 1 << 14:  # only a mask with stray bits could get here
            _VALUES.clear()
        _VALUES[mask] = found
    return found


_TEXTS: dict[int, tuple[EGAction, str]] = {}
"""``to_text`` of actions by ``id``; each entry holds its action, so the id cannot be reused
while the entry lives (actions are interned: a game uses a few thousand)."""


def _text(action: EGAction) -> str:
    """``action.to_text()``, cached."""
    hit = _TEXTS.get(id(action))
    if hit is not None and hit[0] is action:
        return hit[1]
    text = action.to_text()
    if len(_TEXTS) >= 8192:
        _TEXTS.clear()
    _TEXTS[id(action)] = (action, text)
    return text


_NOT_COMMITTED: dict[int, tuple[bool, ...]] = {}
"""``committed`` outside the open secret pick, per player count."""


def observe(s: ElGrandeState, viewer: int | None) -> ElGrandeView:
    n = s.n
    over = not s.actors and s.phase != 0
    ranks = None
    if over:
        ranks = tuple(1 + sum(1 for o in s.score if o > x) for x in s.score)
    ph = s.phase
    if ph == PICK:
        committed = tuple(s.picks[q] >= 0 for q in range(n))
    else:
        committed = _NOT_COMMITTED.get(n) or _NOT_COMMITTED.setdefault(n, (False,) * n)
    public = PublicView(
        players=n,
        data=s.data,
        short_game=s.short_game,
        castillo_open=s.castillo_open,
        start_option=s.start_option,
        rounds=s.rounds,
        round_index=s.ri,
        order=tuple(s.order),
        turn_index=s.ti,
        cab=tuple(map(tuple, s.cab)),
        court=tuple(s.court),
        province=tuple(s.province),
        grande=tuple(s.grande),
        king=s.king,
        scores=tuple(s.score),
        tiles=tuple(s.tiles),
        offer=tuple(s.offer),
        king_card=s.king_card,
        discard=tuple(s.discard),
        unseen=tuple(s.unseen),
        power_log=tuple(map(tuple, s.power_log)),
        power_now=tuple(s.power_now),
        low_seat=s.low_seat,
        hand_sizes=tuple(map(int.bit_count, s.hand)),
        veto=tuple(map(tuple, s.veto)),
        committed=committed,
        shown_picks=s.shown_picks,
        last=_last_seen(s, None),
        ranks=ranks,
    )
    private = None
    if viewer is not None and 0 <= viewer < n:
        mine = _last_seen(s, viewer)[1]
        private = PrivateView(
            seat=viewer,
            hand=_values(s.hand[viewer]),
            taken_back=tuple(s.taken_back[viewer]),
            pick=s.picks[viewer],
            last_move=mine if mine != public.last[1] else "",
        )
    mode = s.move_mode
    deciding = Deciding(
        phase=PHASE_NAMES[ph],
        to_act=s.actors,
        active=s.active,
        card=s.card,
        action_first=s.action_first and s.card >= 0,
        place_limit=s.place_limit if ph == PLACE else 0,
        placed=s.placed if ph == PLACE else 0,
        intake_left=s.intake_left if ph in (INTAKE_FROM, COURT_FROM) else 0,
        move_mode=mode,
        budget_own=s.budget_own if (ph == MOVE and mode != "allout") or ph == EXTRA else 0,
        budget_opp=s.budget_opp if ph == MOVE and mode == "mixed" else 0,
        selected=s.sel,
        queue=tuple(s.queue),
        returns_left=s.ret_left,
        pick_kind=s.pick_kind,
        pick_seats=tuple(s.pick_seats),
        # Until this round's power cards start, the state still names the last round's opener.
        power_first=s.low_seat if ph == REVEAL and s.ri > 0 else s.power_start,
    )
    return ElGrandeView(viewer=viewer, public=public, private=private, deciding=deciding)


def _last_seen(s: ElGrandeState, viewer: int | None) -> tuple[int, str]:
    """The last applied action as ``viewer`` sees it (``actions.redact``), ``(-1, "")`` before any."""
    if s.last is None:
        return CHANCE, ""
    actor, action = s.last
    seen = redact(actor, action, viewer)
    return actor, (_text(action) if seen is action else seen.to_text())


def _sample_power(log: tuple[int, ...], rng: Random, tries: int = 200) -> tuple[list[int], list[int], int]:
    """A pile, the values taken back, and a hand consistent with a public power log."""
    for _ in range(tries):
        pile: list[int] = []
        hand = set(POWER_VALUES)
        back: list[int] = []
        ok = True
        for v in log:
            if v:
                if v not in hand:
                    ok = False
                    break
                hand.discard(v)
                pile.append(v)
            else:
                if not pile:
                    ok = False
                    break
                b = pile[rng.randrange(len(pile))]
                pile.remove(b)
                hand.add(b)
                back.append(b)
        if ok:
            return pile, back, sum(1 << v for v in hand)
    raise RuntimeError("no power hand consistent with the public log")


def determinize(view: ElGrandeView, viewer: int, rng: Random) -> ElGrandeState:
    """A full state ``viewer`` cannot tell from the real one: other seats' power cards taken
    back with 4E are sampled from the public log, other seats' committed disks are sampled
    among their legal picks (legality is public).

    The rules' counters left out of the view are rebuilt from public facts: region cards dealt
    (a Grande or the King placed for each), cards turned up this round (the offer while cards
    are turned up, all four afterwards), power cards down this round (``power_now``). A
    decision context the view shows as neutral gets its neutral value: the rules set it
    afresh before the decision it belongs to.
    """
    pub, dec = view.public, view.deciding
    s = new_state(pub.players, short_game=pub.short_game, castillo_open=pub.castillo_open,
                  start_option=pub.start_option, tables=pub.data)
    n = pub.players
    s.ri = pub.round_index
    s.order = list(pub.order)
    s.ti = pub.turn_index
    s.cab = [list(c) for c in pub.cab]
    s.court = list(pub.court)
    s.province = list(pub.province)
    s.grande = list(pub.grande)
    s.king = pub.king
    s.score = list(pub.scores)
    s.tiles = list(pub.tiles)
    s.offer = list(pub.offer)
    s.king_card = pub.king_card
    s.discard = list(pub.discard)
    s.unseen = list(pub.unseen)
    s.power_log = [list(x) for x in pub.power_log]
    s.power_now = list(pub.power_now)
    s.low_seat = pub.low_seat
    s.veto = [list(v) for v in pub.veto]
    s.phase = PHASE_NAMES.index(dec.phase)
    s.actors = dec.to_act
    s.active = dec.active
    s.card = dec.card
    s.action_first = dec.action_first
    s.place_limit = dec.place_limit
    s.placed = dec.placed
    s.intake_left = dec.intake_left
    s.move_mode = dec.move_mode
    s.budget_own = dec.budget_own
    s.budget_opp = dec.budget_opp
    s.sel = dec.selected
    s.queue = list(dec.queue)
    s.ret_left = dec.returns_left
    s.pick_kind = dec.pick_kind
    s.pick_seats = list(dec.pick_seats)
    s.power_start = dec.power_first
    s.deal_i = sum(1 for g in pub.grande if g >= 0) + (pub.king >= 0)
    s.reveal_k = len(pub.offer) if s.phase in (DEAL, START, REVEAL) else STACKS_TURNED_UP
    s.power_i = sum(1 for v in pub.power_now if v)
    mine = view.private
    for q in range(n):
        if q == viewer and mine is not None:
            back = list(mine.taken_back)
            pile: list[int] = []
            it = iter(back)
            for v in pub.power_log[q]:
                if v:
                    pile.append(v)
                else:
                    pile.remove(next(it))
            s.pile[q] = pile
            s.taken_back[q] = back
            s.hand[q] = sum(1 << v for v in mine.hand)
        else:
            s.pile[q], s.taken_back[q], s.hand[q] = _sample_power(pub.power_log[q], rng)
    s.picks = [-1] * n
    if s.phase == PICK:
        for q in dec.pick_seats:
            if q == viewer and mine is not None:
                s.picks[q] = mine.pick
            elif pub.committed[q]:
                options = pick_options(s, q)
                s.picks[q] = options[rng.randrange(len(options))]
    s.shown_picks = pub.shown_picks
    s.last = _last_action(s, view.last)
    return s


def _last_action(s: ElGrandeState, last: tuple[int, str]) -> tuple[int, EGAction] | None:
    """A last action that shows as ``last`` to the viewer: a secret one the viewer saw as its
    bare kind gets arguments consistent with the sampled state (the disk now committed or last
    shown, the value last taken back)."""
    actor, seen = last
    if not seen:
        return None
    secret = {k.value: k for k in SECRET_KINDS}
    if seen not in secret:
        return actor, parse(seen)
    if secret[seen] == Kind.DISK:
        region = s.picks[actor] if s.picks[actor] >= 0 else max(s.shown_picks[actor], 0)
        return actor, act(Kind.DISK, region)
    return actor, act(Kind.TAKE_BACK, s.taken_back[actor][-1])


__all__ = ["Deciding", "ElGrandeView", "PrivateView", "PublicView", "determinize", "observe"]
