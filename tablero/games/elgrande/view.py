"""What a seat may know in El Grande (§13), and sampling a full state consistent with it.

Everything on the table is public: caballeros per area and colour (the Castillo included —
its counts follow from public placements), courts, provinces, scores, Grandes, the King,
tiles, the cards on offer, the discard pile, Veto! holders, every power card played and the
turn order. Private: the viewer's own power hand and the value he took back with 4E; a
secret disk until the reveal (others see only *that* a seat has committed). The stacks' order
is unknown to everyone; their remaining composition follows from the public reveals.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any

from tablero.core.protocol import CHANCE
from tablero.games.elgrande.actions import SECRET_KINDS, EGAction, Kind, act, parse, redact
from tablero.games.elgrande.data import CARD_TYPES, POWER_VALUES
from tablero.games.elgrande.engine import new_state, pick_options
from tablero.games.elgrande.state import PHASE_NAMES, PICK, ElGrandeState


@dataclass(frozen=True, slots=True, kw_only=True)
class ElGrandeView:
    viewer: int | None
    players: int
    short_game: bool
    castillo_open: bool
    start_option: int | None
    rounds: tuple[int, ...]
    round_index: int
    phase: str
    to_act: tuple[int, ...]
    active: int
    order: tuple[int, ...]
    turn_index: int
    cab: tuple[tuple[int, ...], ...]  # per seat, per area (9 regions, then the Castillo)
    court: tuple[int, ...]
    province: tuple[int, ...]
    grande: tuple[int, ...]
    king: int
    scores: tuple[int, ...]
    tiles: tuple[int, ...]
    offer: tuple[int, ...]  # card type indices face up from stacks 1-4
    king_card: bool
    discard: tuple[int, ...]
    unseen: tuple[int, ...]  # per card type: copies still face down (public deduction)
    power_log: tuple[tuple[int, ...], ...]  # per seat: values played, 0 = took one back
    power_now: tuple[int, ...]
    low_seat: int
    hand: tuple[int, ...] | None  # the viewer's own power cards
    taken_back: tuple[int, ...] | None  # the viewer's own values taken back with 4E
    hand_sizes: tuple[int, ...]
    veto: tuple[tuple[int, ...], ...]  # per seat: round index each held Veto! was taken in
    deal_i: int
    reveal_k: int
    power_start: int
    power_i: int
    card: int
    action_first: bool
    place_limit: int
    placed: int
    intake_left: int
    move_mode: str
    budget_own: int
    budget_opp: int
    sel: int
    queue: tuple[int, ...]
    ret_left: int
    pick_kind: int
    pick_seats: tuple[int, ...]
    committed: tuple[bool, ...]  # per seat: has committed his disk (public)
    my_pick: int  # the viewer's own committed disk, -1 = none
    shown_picks: tuple[int, ...]  # the disks of the last reveal, per seat (-1 = no disk)
    last: tuple[int, str]  # the last applied action (actor, text) as the viewer may see it
    ranks: tuple[int, ...] | None

    @property
    def round(self) -> int:
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

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__slots__:
            v = getattr(self, name)
            out[name] = _json(v)
        out["round"] = self.round
        out["offer_ids"] = [CARD_TYPES[c].id for c in self.offer]
        return out


def _json(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_json(x) for x in v]
    return v


def _values(mask: int) -> tuple[int, ...]:
    return tuple(v for v in POWER_VALUES if mask >> v & 1)


def observe(s: ElGrandeState, viewer: int | None) -> ElGrandeView:
    n = s.n
    own = viewer is not None and 0 <= viewer < n
    over = not s.actors and s.phase != 0
    ranks = None
    if over:
        ranks = tuple(1 + sum(1 for o in s.score if o > x) for x in s.score)
    picking = s.phase == PICK
    return ElGrandeView(
        viewer=viewer,
        players=n,
        short_game=s.short_game,
        castillo_open=s.castillo_open,
        start_option=s.start_option,
        rounds=s.rounds,
        round_index=s.ri,
        phase=PHASE_NAMES[s.phase],
        to_act=s.actors,
        active=s.active,
        order=tuple(s.order),
        turn_index=s.ti,
        cab=tuple(tuple(c) for c in s.cab),
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
        power_log=tuple(tuple(x) for x in s.power_log),
        power_now=tuple(s.power_now),
        low_seat=s.low_seat,
        hand=_values(s.hand[viewer]) if own and viewer is not None else None,
        taken_back=tuple(s.taken_back[viewer]) if own and viewer is not None else None,
        hand_sizes=tuple(bin(h).count("1") for h in s.hand),
        veto=tuple(tuple(v) for v in s.veto),
        deal_i=s.deal_i,
        reveal_k=s.reveal_k,
        power_start=s.power_start,
        power_i=s.power_i,
        card=s.card,
        action_first=s.action_first,
        place_limit=s.place_limit,
        placed=s.placed,
        intake_left=s.intake_left,
        move_mode=s.move_mode,
        budget_own=s.budget_own,
        budget_opp=s.budget_opp,
        sel=s.sel,
        queue=tuple(s.queue),
        ret_left=s.ret_left,
        pick_kind=s.pick_kind,
        pick_seats=tuple(s.pick_seats),
        committed=tuple(picking and s.picks[q] >= 0 for q in range(n)),
        my_pick=s.picks[viewer] if own and viewer is not None else -1,
        shown_picks=s.shown_picks,
        last=_last_seen(s, viewer),
        ranks=ranks,
    )


def _last_seen(s: ElGrandeState, viewer: int | None) -> tuple[int, str]:
    """The last applied action as ``viewer`` sees it (``actions.redact``), ``(-1, "")`` before any."""
    if s.last is None:
        return CHANCE, ""
    actor, action = s.last
    return actor, redact(actor, action, viewer).to_text()


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
    among their legal picks (legality is public)."""
    s = new_state(view.players, short_game=view.short_game, castillo_open=view.castillo_open,
                  start_option=view.start_option)
    n = view.players
    s.ri = view.round_index
    s.phase = PHASE_NAMES.index(view.phase)
    s.actors = view.to_act
    s.active = view.active
    s.order = list(view.order)
    s.ti = view.turn_index
    s.cab = [list(c) for c in view.cab]
    s.court = list(view.court)
    s.province = list(view.province)
    s.grande = list(view.grande)
    s.king = view.king
    s.score = list(view.scores)
    s.tiles = list(view.tiles)
    s.offer = list(view.offer)
    s.king_card = view.king_card
    s.discard = list(view.discard)
    s.unseen = list(view.unseen)
    s.power_log = [list(x) for x in view.power_log]
    s.power_now = list(view.power_now)
    s.low_seat = view.low_seat
    s.veto = [list(v) for v in view.veto]
    s.deal_i = view.deal_i
    s.reveal_k = view.reveal_k
    s.power_start = view.power_start
    s.power_i = view.power_i
    s.card = view.card
    s.action_first = view.action_first
    s.place_limit = view.place_limit
    s.placed = view.placed
    s.intake_left = view.intake_left
    s.move_mode = view.move_mode
    s.budget_own = view.budget_own
    s.budget_opp = view.budget_opp
    s.sel = view.sel
    s.queue = list(view.queue)
    s.ret_left = view.ret_left
    s.pick_kind = view.pick_kind
    s.pick_seats = list(view.pick_seats)
    for q in range(n):
        if q == viewer and view.hand is not None and view.taken_back is not None:
            back = list(view.taken_back)
            pile: list[int] = []
            it = iter(back)
            for v in view.power_log[q]:
                if v:
                    pile.append(v)
                else:
                    pile.remove(next(it))
            s.pile[q] = pile
            s.taken_back[q] = back
            s.hand[q] = sum(1 << v for v in view.hand)
        else:
            s.pile[q], s.taken_back[q], s.hand[q] = _sample_power(view.power_log[q], rng)
    s.picks = [-1] * n
    if s.phase == PICK:
        for q in view.pick_seats:
            if q == viewer:
                s.picks[q] = view.my_pick
            elif view.committed[q]:
                options = pick_options(s, q)
                s.picks[q] = options[rng.randrange(len(options))]
    s.shown_picks = view.shown_picks
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
