"""What a seat may know in Mafia Legend (§17), and sampling a full state consistent with it.

A :class:`MafiaView` has three parts:

* ``public`` (:class:`PublicView`): what every seat and every spectator sees — the same for all
  viewers. For every seat the hand size, screen size, discs, VP, characters, jobs, sit-out
  counters, ability tiles; every face-up card; a face-down card as a back (``"?"``) with its
  owner, field and source. Deck sizes are public, deck order is not stored at all. At the end
  every mission, screen and hand's money is public (§15). ``schedule`` is the rules' public
  plan of what runs next (no cards in it): determinization continues from it.
* ``private`` (:class:`PrivateView`, ``None`` for spectators): the seat's own hand, screen,
  mission, secret commitments and money moves, and the table as this seat sees it (its own
  face-down cards, what Spitzel showed it, the events it knows).
* ``deciding`` (:class:`Deciding`): who decides what now, as everyone may know it.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Any, NamedTuple, TypeVar

from tablero.core.serial import plain
from tablero.games.mafia import data
from tablero.games.mafia.data import ACTIONS, MONEY, Tables
from tablero.games.mafia.engine import initial_state, mission_ok
from tablero.games.mafia.state import (
    DISC,
    SEEN_BY_ALL,
    AttackSlot,
    Decision,
    GridCard,
    KnownCard,
    LastAction,
    MafiaState,
    SetAside,
    Task,
)

HIDDEN = "?"
SOMEONE_ELSE = -2
"""A determinized event card's knower: some seat, not the viewer (which one does not matter)."""
Counts = tuple[tuple[str, int], ...]


class SeenAttack(NamedTuple):
    """An attack field as a viewer sees it."""

    card: str
    """The attack card, ``"?"`` (face down) or ``"DISC"`` (a protection disc)."""
    attacker: int
    face_up: bool
    timing: str
    defence: str
    public: bool


class SeenCard(NamedTuple):
    """A card in a job or character field as a viewer sees it."""

    card: str
    """The card, or ``"?"`` (a back)."""
    source: str
    """``"H"`` (from the hand) or ``"S"`` (money from behind the screen)."""
    ignored: bool
    public: bool


Grid = tuple[tuple[tuple[SeenCard, ...], ...], ...]
"""Per seat and field (job, K1-K4): the cards, oldest first."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PublicView:
    players: int
    data: Tables
    """The values the game plays with (its data overrides; public, as the rules are)."""
    variant: str
    missions: bool
    bonus_basis: str
    start_option: int | None
    families_opt: tuple[str, ...] | None
    goal: int
    month: int
    phase: int
    order: tuple[int, ...]
    turn_pos: int
    step: int
    played: int
    limit: int
    grossoffensive: bool
    family: tuple[str, ...]
    discs: tuple[int, ...]
    vp: tuple[int, ...]
    chars: tuple[tuple[str, ...], ...]
    jobs_done: tuple[tuple[str, ...], ...]
    sets: tuple[tuple[str, ...], ...]
    sitout: tuple[int, ...]
    ability_used: tuple[bool, ...]
    acquired: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    """Action and money cards in each hand."""
    screen_sizes: tuple[int, ...]
    mission_dealt: tuple[bool, ...]
    public_money: tuple[tuple[Counts, Counts] | None, ...]
    """At the end: (hand money, screen) per seat."""
    public_missions: tuple[str, ...] | None
    atk: tuple[SeenAttack | None, ...]
    grid: Grid
    row: tuple[str, ...]
    job: str
    job_done_month: bool
    powers: tuple[int, ...]
    deck_sizes: tuple[tuple[str, int], ...]
    job_bottom: tuple[str, ...]
    event_bottom: tuple[str, ...]
    """``"?"`` per event under the event deck (only the seat that put it there knows it)."""
    disc_a: Counts
    disc_m: Counts
    disc_c: Counts
    ashtray: int
    this_events: tuple[str, ...]
    next_events: tuple[str, ...]
    events_out: tuple[str, ...]
    """Events discarded after their month: out of the game."""
    star: bool
    dice: tuple[int, ...]
    event_choice: tuple[str, ...]
    """``"?"`` per event drawn for an E character (only the drawer sees them)."""
    set_aside_counts: tuple[int, ...]
    """Per seat: cards committed so far in the open simultaneous discard (the cards are hidden)."""
    must_discard: tuple[int, ...]
    money_moved: tuple[int, int]
    """This turn: cards moved to the hand, to the screen (not which)."""
    reveals: tuple[tuple[Any, ...], ...]
    """This month end's reveals, as the log showed them."""
    schedule: tuple[Task, ...]
    """What the rules run next, top first (public: no task carries a hidden card)."""
    over: bool
    winners: tuple[int, ...] | None
    last: tuple[int, str]
    """The last action: (seat, its text as the other seats see it)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PrivateView:
    seat: int
    hand_actions: Counts
    hand_money: Counts
    screen: Counts
    mission: str
    set_aside: tuple[SetAside, ...]
    """The seat's commitments in the open simultaneous discard."""
    money_moved: tuple[Counts, Counts] | None
    """On its own turn: the money moved to the hand, to the screen."""
    atk: tuple[SeenAttack | None, ...]
    """The attack column as this seat sees it."""
    grid: Grid
    """The grid as this seat sees it (its own face-down cards, what Spitzel showed it)."""
    event_bottom: tuple[str, ...]
    """The events under the event deck, ``"?"`` where this seat does not know the card."""
    event_choice: tuple[str, ...]
    last_move: str
    """The text of the last action if this seat took it, else ``""``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Deciding:
    """Who decides what now (see ``state.Decision`` for the fields); ``kind`` ``""``: nobody."""

    to_act: tuple[int, ...]
    kind: str
    seat: int
    target: int
    receiver: int
    deck: str
    dest: str
    reason: str
    column: str
    taken: int
    dice: int
    month_end_step: int
    """The month-end step ME1-ME12 under way, 0 during the turns."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MafiaView:
    viewer: int | None
    public: PublicView
    private: PrivateView | None
    deciding: Deciding

    @property
    def grid(self) -> Grid:
        """The grid as this viewer sees it."""
        return self.private.grid if self.private is not None else self.public.grid

    @property
    def atk(self) -> tuple[SeenAttack | None, ...]:
        """The attack column as this viewer sees it."""
        return self.private.atk if self.private is not None else self.public.atk

    def to_json(self) -> dict[str, Any]:
        public = plain(self.public)
        del public["data"]
        if self.public.data.overrides:  # the overrides only, where there are some (as in the state's JSON)
            public["data"] = self.public.data.overrides_json()
        return {"viewer": self.viewer, "public": public,
                "private": None if self.private is None else plain(self.private),
                "deciding": plain(self.deciding)}


def _sees(mask: int, viewer: int | None) -> bool:
    return mask == SEEN_BY_ALL or (viewer is not None and bool(mask >> viewer & 1))


# The pieces of a view that are built card by card (a row of the grid, the attack column, the
# open decision) are cached by their state's content: the state's records are immutable
# NamedTuples, so equal keys give equal pieces, and a view (frozen) may share them. Each cache is
# bounded: it is emptied when full.
_CACHE_MAX = 4096
_VIEWERS = SEEN_BY_ALL.bit_length() + 1
"""The viewers a cache entry has a slot for: everyone (slot 0), then each seat ``v`` (slot ``v + 1``)."""
RowKey = tuple[tuple[GridCard, ...], ...]
SeenRow = tuple[tuple[SeenCard, ...], ...]
_ROWS: dict[RowKey, list[SeenRow | None]] = {}
_FIELDS: dict[tuple[GridCard, ...], list[tuple[SeenCard, ...] | None]] = {}
"""Below the rows: a row that changed changed in one field."""
_COLUMNS: dict[tuple[AttackSlot | None, ...], list[tuple[SeenAttack | None, ...] | None]] = {}
_DECIDING: dict[tuple[tuple[int, ...], Decision, int], Deciding] = {}
_NO_DECISION = Decision("")


_K = TypeVar("_K")
_V = TypeVar("_V")


def _slots(cache: dict[_K, list[_V | None]], key: _K) -> list[_V | None]:
    """The per-viewer slots of ``key`` in one of observe's caches (everyone's first, then one per
    seat, filled as asked); a full cache is emptied first."""
    entry = cache.get(key)
    if entry is None:
        if len(cache) >= _CACHE_MAX:
            cache.clear()
        entry = cache[key] = [None] * _VIEWERS
    return entry


def _seen_field(cards: tuple[GridCard, ...], v: int | None) -> tuple[SeenCard, ...]:
    """A field's cards as seat ``v`` (None: everyone) sees them."""
    entry = _slots(_FIELDS, cards)
    slot = 0 if v is None else v + 1
    seen = entry[slot]
    if seen is None:
        seen = entry[slot] = tuple([
            SeenCard(sl.card if _sees(sl.seen_by, v) else HIDDEN, sl.source, sl.ignored, sl.seen_by == SEEN_BY_ALL)
            for sl in cards])
    return seen


def _seen_row(row: RowKey, v: int | None) -> SeenRow:
    return tuple([_seen_field(f, v) if f else () for f in row])


def _grids(s: MafiaState, v: int | None) -> tuple[Grid, Grid]:
    """The grid as every seat sees it, and as seat ``v`` sees it (the first again for ``v`` None)."""
    rows = _ROWS
    slot = 0 if v is None else v + 1
    public: list[SeenRow] = []
    own: list[SeenRow] = []
    for row in s.fields:
        if not any(row):
            empty = ((),) * len(row)
            public.append(empty)
            own.append(empty)
            continue
        key = tuple(map(tuple, row))
        entry = _slots(rows, key)
        seen = entry[0]
        if seen is None:
            seen = entry[0] = _seen_row(key, None)
        public.append(seen)
        if slot:
            seen = entry[slot]
            if seen is None:
                seen = entry[slot] = _seen_row(key, v)
        own.append(seen)
    return tuple(public), tuple(own)


def _seen_column(column: tuple[AttackSlot | None, ...], v: int | None) -> tuple[SeenAttack | None, ...]:
    out: list[SeenAttack | None] = []
    for x in column:
        if x is None:
            out.append(None)
        elif x.is_disc:
            out.append(SeenAttack(DISC, x.attacker, True, "", "", True))
        else:
            card = x.card if x.face_up or _sees(x.seen_by, v) else HIDDEN
            out.append(SeenAttack(card, x.attacker, x.face_up, x.timing, x.defence, x.seen_by == SEEN_BY_ALL))
    return tuple(out)


def _attacks(s: MafiaState, v: int | None) -> tuple[tuple[SeenAttack | None, ...], tuple[SeenAttack | None, ...]]:
    """The attack column as every seat sees it, and as seat ``v`` sees it (the first again for ``v`` None)."""
    if not any(s.atk):
        empty = (None,) * len(s.atk)
        return empty, empty
    key = tuple(s.atk)
    entry = _slots(_COLUMNS, key)
    public = entry[0]
    if public is None:
        public = entry[0] = _seen_column(key, None)
    if v is None:
        return public, public
    own = entry[v + 1]
    if own is None:
        own = entry[v + 1] = _seen_column(key, v)
    return public, own


def _deciding(s: MafiaState) -> Deciding:
    d = s.decision if s.decision is not None and not s.over else _NO_DECISION
    key = (s.actors, d, s.month_end_step)
    out = _DECIDING.get(key)
    if out is None:
        if len(_DECIDING) >= _CACHE_MAX:
            _DECIDING.clear()
        out = _DECIDING[key] = Deciding(
            to_act=s.actors, kind=d.kind, seat=d.seat, target=d.target, receiver=d.receiver, deck=d.deck,
            dest=d.dest, reason=d.reason, column=d.column, taken=d.taken, dice=d.dice,
            month_end_step=s.month_end_step)
    return out


def observe(s: MafiaState, viewer: int | None) -> MafiaView:
    n = s.n
    v = viewer if viewer is not None and 0 <= viewer < n else None
    over = s.over
    hand_a, hand_m, screen, last = s.hand_a, s.hand_m, s.screen, s.last
    atk, own_atk = _attacks(s, v)
    grid, own_grid = _grids(s, v)
    public_money: tuple[tuple[Counts, Counts] | None, ...]
    if over:
        public_money = tuple([(tuple(sorted(hand_m[q].items())), tuple(sorted(screen[q].items()))) for q in range(n)])
        public_missions = tuple(s.mission)
    else:
        public_money = (None,) * n
        public_missions = None
    pub = PublicView(
        players=n,
        data=s.data,
        variant=s.variant,
        missions=s.missions,
        bonus_basis=s.bonus_basis,
        start_option=s.start_option,
        families_opt=s.families_opt,
        goal=s.goal,
        month=s.month,
        phase=s.phase,
        order=tuple(s.order),
        turn_pos=s.turn_pos,
        step=s.step,
        played=s.played,
        limit=s.limit,
        grossoffensive=s.grossoffensive,
        family=tuple(s.family),
        discs=tuple(s.discs),
        vp=tuple(s.vp),
        chars=tuple(map(tuple, s.chars)),
        jobs_done=tuple(map(tuple, s.jobs_done)),
        sets=tuple(map(tuple, s.sets)),
        sitout=tuple(s.sitout),
        ability_used=tuple(s.ability_used),
        acquired=tuple(s.acquired),
        hand_sizes=tuple([sum(a.values()) + sum(m.values()) for a, m in zip(hand_a, hand_m, strict=True)]),
        screen_sizes=tuple([sum(d.values()) for d in screen]),
        mission_dealt=tuple(map(bool, s.mission)),
        public_money=public_money,
        public_missions=public_missions,
        atk=atk,
        grid=grid,
        row=tuple(s.row),
        job=s.job,
        job_done_month=s.job_done_month,
        powers=tuple(s.powers),
        deck_sizes=tuple([(k, sum(d.values())) for k, d in sorted(s.decks.items())]),
        job_bottom=tuple(s.job_bottom),
        event_bottom=(HIDDEN,) * len(s.event_bottom),
        disc_a=tuple(sorted(s.disc_a.items())),
        disc_m=tuple(sorted(s.disc_m.items())),
        disc_c=tuple(sorted(s.disc_c.items())),
        ashtray=s.ashtray,
        this_events=tuple(s.this_events),
        next_events=tuple(s.next_events),
        events_out=_events_out(s),
        star=s.star,
        dice=tuple(s.dice),
        event_choice=(HIDDEN,) * len(s.event_choice),
        set_aside_counts=tuple(map(len, s.set_aside)),
        must_discard=tuple(s.must_discard),
        money_moved=(sum(s.moved_to_hand.values()), sum(s.moved_to_screen.values())),
        reveals=tuple(s.reveals),
        schedule=tuple(reversed(s.tasks)),
        over=over,
        winners=s.winners,
        last=(last.seat, last.public_text),
    )
    mine: PrivateView | None = None
    if v is not None:
        mine = PrivateView(
            seat=v,
            hand_actions=tuple(sorted(hand_a[v].items())),
            hand_money=tuple(sorted(hand_m[v].items())),
            screen=tuple(sorted(screen[v].items())),
            mission=s.mission[v],
            set_aside=tuple(s.set_aside[v]),
            money_moved=((tuple(sorted(s.moved_to_hand.items())), tuple(sorted(s.moved_to_screen.items())))
                         if v == s.active else None),
            atk=own_atk,
            grid=own_grid,
            event_bottom=tuple([e.card if e.knower == v else HIDDEN for e in s.event_bottom]),
            event_choice=tuple([e.card if e.knower == v else HIDDEN for e in s.event_choice]),
            last_move=last.text if last.seat == v else "",
        )
    return MafiaView(viewer=viewer, public=pub, private=mine, deciding=_deciding(s))


_EVENTS: frozenset[str] = frozenset(data.EVENTS)


def _events_out(s: MafiaState) -> tuple[str, ...]:
    if s.variant != "advanced":
        return ()
    out = _EVENTS.difference(s.decks["E"], s.this_events, s.next_events)
    if s.event_bottom:
        out = out.difference([e.card for e in s.event_bottom])
    if s.event_choice:
        out = out.difference([e.card for e in s.event_choice])
    return tuple(sorted(out))


# ---------------------------------------------------------------------------- determinization
def _all_actions(variant: str, t: Tables) -> dict[str, int]:
    return {c.id: c.count for c in t.ACTION_CARDS
            if c.count and (variant == "advanced" or c.id not in data.BEGINNER_REMOVED)}


def _minus(pool: dict[str, int], cards: Any) -> None:
    for c in cards:
        pool[c] -= 1
        if pool[c] < 0:
            raise ValueError(f"card {c} seen more often than it exists")


def _expand(counts: Counts | dict[str, int]) -> list[str]:
    items = counts.items() if isinstance(counts, dict) else counts
    return [c for c, k in items for _ in range(k)]


def determinize(view: MafiaView, viewer: int, rng: Random, tries: int = 200) -> MafiaState:
    """A full state consistent with ``view``: unknown cards (other hands and screens, backs in
    the grid, decks, missions, events known to others, other seats' secret commitments) are
    dealt at random from what the viewer cannot place, respecting each slot's kind (a back from
    a screen is money, a back in a job field is an attack or tool card, …).

    Everything that follows from the view alone (the public fields, the pools of unplaced
    cards, the unknown slots) is worked out once per view and kept for the next call with the
    same view object (a search determinizes one view thousands of times); each call then only
    deals the unknown cards.
    """
    plan = _plan(view, viewer)
    if plan.impossible:
        raise RuntimeError("no consistent deal found")
    for _ in range(tries):
        s = _deal(plan, rng)
        if s is not None:
            return s
    raise RuntimeError("no consistent deal found")


class _Plan:
    """What a determinization of one view for one seat deals from (all but the random part).

    ``skeleton`` holds every field that follows from the view (the unknown cards of the grid
    and the attack column as ``"?"``); the lists and counts below say what is dealt where.
    """

    __slots__ = ("acts", "char_choice", "deck_sizes", "drawer", "hand_sizes", "impossible", "money",
                 "own_choice", "pool_e", "pool_x", "public_money", "screen_sizes", "set_aside_counts",
                 "skeleton", "slots_atk", "slots_char", "slots_job", "slots_money", "view", "viewer")

    def __init__(self, view: MafiaView, v: int) -> None:
        pub, dec = view.public, view.deciding
        mine = view.private
        assert mine is not None, "determinize needs a seat's own view"
        self.view, self.viewer = view, v
        self.impossible = False
        n = pub.players
        s = initial_state(n, variant=pub.variant, missions=pub.missions, start_seat=pub.start_option,
                          families=pub.families_opt, bonus_basis=pub.bonus_basis, tables=pub.data)
        s.month, s.phase, s.order, s.turn_pos = pub.month, pub.phase, list(pub.order), pub.turn_pos
        s.month_end_step = dec.month_end_step
        s.step, s.played, s.limit, s.grossoffensive = pub.step, pub.played, pub.limit, pub.grossoffensive
        s.family = list(pub.family)
        s.discs, s.vp = list(pub.discs), list(pub.vp)
        s.chars = [list(c) for c in pub.chars]
        s.jobs_done = [list(j) for j in pub.jobs_done]
        s.sets = [list(x) for x in pub.sets]
        s.sitout, s.ability_used, s.acquired = list(pub.sitout), list(pub.ability_used), list(pub.acquired)
        s.row, s.job, s.job_done_month, s.powers = list(pub.row), pub.job, pub.job_done_month, list(pub.powers)
        s.job_bottom = list(pub.job_bottom)
        s.disc_a, s.disc_m, s.disc_c = dict(pub.disc_a), dict(pub.disc_m), dict(pub.disc_c)
        s.ashtray, s.this_events, s.next_events, s.star = pub.ashtray, list(pub.this_events), \
            list(pub.next_events), pub.star
        s.dice, s.must_discard = list(pub.dice), list(pub.must_discard)
        s.over, s.winners = pub.over, pub.winners
        self.skeleton = s
        bit_v = 1 << v
        # --- pools of what the viewer cannot place
        pool_a = _all_actions(pub.variant, pub.data)
        pool_m = {g: k for g, k in pub.data.MONEY_COUNTS.items() if k}
        _minus(pool_a, _expand(pub.disc_a))
        _minus(pool_m, _expand(pub.disc_m))
        _minus(pool_a, _expand(mine.hand_actions))
        _minus(pool_m, _expand(mine.hand_money))
        _minus(pool_m, _expand(mine.screen))
        if pub.over:
            for q in range(n):
                pm = pub.public_money[q]
                if q != v and pm is not None:
                    _minus(pool_m, _expand(pm[0]) + _expand(pm[1]))
        # grid and attack column: known cards leave the pools; unknown slots are collected
        self.slots_atk: list[int] = []  # target seats whose attack card is unknown
        self.slots_job: list[tuple[int, int, int]] = []
        self.slots_char: list[tuple[int, int, int]] = []  # (seat, field, index) from the hand
        self.slots_money: list[tuple[int, int, int]] = []  # from the screen
        s.atk = [None] * n
        for q, x in enumerate(mine.atk):
            if x is None:
                continue
            if x.card == DISC:
                s.atk[q] = AttackSlot(DISC, x.attacker, True, "", "", SEEN_BY_ALL)
                continue
            if x.defence:
                _minus(pool_a, [x.defence])
            mask = SEEN_BY_ALL if x.public else (1 << x.attacker) | (bit_v if x.card != HIDDEN else 0)
            s.atk[q] = AttackSlot(x.card, x.attacker, x.face_up, x.timing, x.defence, mask)
            if x.card == HIDDEN:
                self.slots_atk.append(q)
            else:
                _minus(pool_a, [x.card])
        s.fields = [[[] for _ in range(5)] for _ in range(n)]
        for q in range(n):
            for f in range(5):
                for i, seen in enumerate(mine.grid[q][f]):
                    known = seen.card != HIDDEN
                    mask = SEEN_BY_ALL if seen.public else (1 << q) | (bit_v if known else 0)
                    s.fields[q][f].append(GridCard(seen.card, seen.source, mask, seen.ignored))
                    if known:
                        (pool_m if seen.card in MONEY else pool_a)[seen.card] -= 1
                    elif seen.source == "S":
                        self.slots_money.append((q, f, i))
                    elif f == 0:
                        self.slots_job.append((q, f, i))
                    else:
                        self.slots_char.append((q, f, i))
        if any(k < 0 for k in pool_a.values()) or any(k < 0 for k in pool_m.values()):
            self.impossible = True
        self.money = _expand(pool_m)
        self.acts = _expand(pool_a)
        self.deck_sizes = dict(pub.deck_sizes)
        self.screen_sizes = pub.screen_sizes
        self.hand_sizes = pub.hand_sizes
        self.public_money = pub.public_money
        self.set_aside_counts = pub.set_aside_counts
        # the viewer's own zones; the others' public money at the end
        for q in range(n):
            if q == v:
                s.hand_a[q] = dict(mine.hand_actions)
                s.hand_m[q] = dict(mine.hand_money)
                s.screen[q] = dict(mine.screen)
                continue
            pm = pub.public_money[q]
            s.hand_a[q], s.hand_m[q] = {}, {}
            s.screen[q] = {} if pm is None else dict(pm[1])
            if pm is not None:
                s.hand_m[q] = dict(pm[0])
        s.set_aside = [[] for _ in range(n)]
        s.set_aside[v] = list(mine.set_aside)
        # --- characters, jobs: the decks follow from public information
        chars = {c.id for c in pub.data.CHARACTERS if n == 4 or not c.four_only}
        placed = set(pub.row) | {c for cs in pub.chars for c in cs} | {c for c, _ in pub.disc_c}
        s.decks["C"] = {c: 1 for c in sorted(chars - placed)}
        jobs = {j.id for j in data.JOBS}
        seen_jobs = {pub.job} | {j for js in pub.jobs_done for j in js} | set(pub.job_bottom)
        s.decks["J"] = {j: 1 for j in sorted(jobs - seen_jobs)}
        # --- events: public ones are placed; the viewer's known bottom cards too; the rest random
        self.pool_e: list[str] = []
        self.own_choice: list[str] = []
        self.drawer = v
        if pub.variant == "advanced":
            ev_pool = set(data.EVENTS) - set(pub.this_events) - set(pub.next_events) - set(pub.events_out)
            ev_pool -= {e for e in mine.event_bottom if e != HIDDEN}
            self.own_choice = [e for e in mine.event_choice if e != HIDDEN]
            ev_pool -= set(self.own_choice)
            self.pool_e = sorted(ev_pool)
            drawer = next((t.seat for t in pub.schedule if t.kind == "draw" and t.deck == "E"), None)
            if dec.kind == "chance_draw" and dec.deck == "E":
                drawer = dec.seat
            if dec.kind == "choose_event":
                drawer = dec.seat
            if drawer is None:
                drawer = next((t.seat for t in pub.schedule if t.kind == "choose_event"), v)
            self.drawer = drawer
        else:
            s.decks["E"] = {}
        self.char_choice = len(mine.event_choice)
        self.pool_x: list[str] | None = None
        if pub.missions:
            if pub.public_missions is not None:
                s.mission = list(pub.public_missions)
                pool_x = sorted(set(data.MISSIONS) - set(pub.public_missions))
                if len(pool_x) < self.deck_sizes.get("X", 0):
                    self.impossible = True
                s.decks["X"] = {m: 1 for m in pool_x[: self.deck_sizes.get("X", 0)]}
            else:
                self.pool_x = sorted(set(data.MISSIONS) - {mine.mission})
        # --- the open decision and its continuation
        s.decision = None if not dec.kind else Decision(
            dec.kind, dec.seat, target=dec.target, receiver=dec.receiver, deck=dec.deck, dest=dec.dest,
            reason=dec.reason, column=dec.column, taken=dec.taken, dice=dec.dice)
        s.tasks = list(reversed(pub.schedule))
        if mine.money_moved is not None:
            s.moved_to_hand, s.moved_to_screen = dict(mine.money_moved[0]), dict(mine.money_moved[1])
        else:
            s.moved_to_hand, s.moved_to_screen = _fake_moves(pub.money_moved[0]), _fake_moves(pub.money_moved[1])
        s.actors = dec.to_act
        s.reveals = list(pub.reveals)
        seat, public_text = pub.last
        s.last = LastAction(seat, mine.last_move or public_text, public_text)
        s.legal_cache = None


_LAST_PLAN: list[_Plan] = []
"""The plan of the latest view determinized (a search asks for the same view over and over)."""


def _plan(view: MafiaView, viewer: int) -> _Plan:
    last = _LAST_PLAN[0] if _LAST_PLAN else None
    if last is not None and last.view is view and last.viewer == viewer:
        return last
    plan = _Plan(view, viewer)
    _LAST_PLAN[:] = [plan]
    return plan


def _shuffle(rng: Random, x: list[Any]) -> None:
    """``rng.shuffle(x)`` (the same permutation for the same ``rng`` state), inlined for a plain
    :class:`Random`: the deals shuffle a few long lists on every call."""
    if type(rng) is not Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _deal(plan: _Plan, rng: Random) -> MafiaState | None:
    """One random deal of what ``plan`` leaves unknown (None if it does not fit)."""
    view, v = plan.view, plan.viewer
    pub, mine = view.public, view.private
    assert mine is not None
    n = pub.players
    s = plan.skeleton.clone()
    # --- money-only slots: screens of others, backs from screens, the money deck
    money = plan.money[:]
    _shuffle(rng, money)
    acts = plan.acts[:]
    _shuffle(rng, acts)
    deck_sizes = plan.deck_sizes

    def put_card(q: int, f: int, i: int, card: str) -> None:
        s.fields[q][f][i] = s.fields[q][f][i]._replace(card=card)

    for q in range(n):
        if q == v or plan.public_money[q] is not None:
            continue
        k = plan.screen_sizes[q]
        if k > len(money):
            return None
        screen = s.screen[q]
        for _ in range(k):
            c = money.pop()
            screen[c] = screen.get(c, 0) + 1
    for q, f, i in plan.slots_money:
        if not money:
            return None
        put_card(q, f, i, money.pop())
    k = deck_sizes.get("M", 0)
    if k > len(money):
        return None
    deck: dict[str, int] = {}
    for _ in range(k):
        c = money.pop()
        deck[c] = deck.get(c, 0) + 1
    s.decks["M"] = deck

    # --- action-only slots: attack backs (attack cards), job backs (attack/tool), the action deck
    def take_action(kinds: tuple[str, ...]) -> str | None:
        for i in range(len(acts) - 1, -1, -1):
            if ACTIONS[acts[i]].kind in kinds:
                return acts.pop(i)
        return None

    for q in plan.slots_atk:
        drawn = take_action(("attack",))
        slot = s.atk[q]
        if drawn is None or slot is None:
            return None
        s.atk[q] = slot._replace(card=drawn)
    for q, f, i in plan.slots_job:
        drawn = take_action(("attack", "tool"))
        if drawn is None:
            return None
        put_card(q, f, i, drawn)
    # the action deck takes action cards (the largest constrained zone, so it goes first)
    need = deck_sizes.get("A", 0)
    if need > len(acts):
        return None
    deck = {}
    for _ in range(need):
        c = acts.pop()
        deck[c] = deck.get(c, 0) + 1
    s.decks["A"] = deck
    rest = money + acts
    _shuffle(rng, rest)
    # char backs from the hand: money, attack or tool (never defence)
    for q, f, i in plan.slots_char:
        for j in range(len(rest) - 1, -1, -1):
            c = rest[j]
            if c in MONEY or ACTIONS[c].kind != "defence":
                put_card(q, f, i, rest.pop(j))
                break
        else:
            return None
    # hands take whatever is left
    for q in range(n):
        if q == v:
            continue
        hand_a, hand_m = s.hand_a[q], s.hand_m[q]
        size = plan.hand_sizes[q]
        if plan.public_money[q] is not None:
            size -= sum(hand_m.values())
            for _ in range(size):
                j = next((j for j in range(len(rest)) if rest[j] not in MONEY), -1)
                if j < 0:
                    return None
                c = rest.pop(j)
                hand_a[c] = hand_a.get(c, 0) + 1
            continue
        if size > len(rest):
            return None
        for _ in range(size):
            c = rest.pop()
            if c in MONEY:
                hand_m[c] = hand_m.get(c, 0) + 1
            else:
                hand_a[c] = hand_a.get(c, 0) + 1
    if rest:
        return None
    # --- the open simultaneous discard: the others' commitments are cards of their own
    reason = view.deciding.reason
    for q in range(n):
        if q != v and not _commit_at_random(s, q, plan.set_aside_counts[q], reason, rng):
            return None
    if pub.variant == "advanced" and not _deal_events(s, plan, rng):
        return None
    if plan.pool_x is not None:
        pool_x = plan.pool_x[:]
        _shuffle(rng, pool_x)
        s.mission = [mine.mission if q == v else (pool_x.pop() if pub.mission_dealt[q] else "")
                     for q in range(n)]
        if len(pool_x) < deck_sizes.get("X", 0):
            return None
        s.decks["X"] = {m: 1 for m in pool_x[: deck_sizes.get("X", 0)]}
    # the game goes on: nobody at the goal fulfils his mission (§15) — a public inference
    if not pub.over and any(s.vp[q] >= s.goal and mission_ok(s, q) for q in range(n)):
        return None
    return s


def _commit_at_random(s: MafiaState, q: int, k: int, reason: str, rng: Random) -> bool:
    """Seat ``q`` has committed ``k`` cards of its own (unseen): pick them at random."""
    if not k:
        return True
    if reason == "magnifier":
        cards = [SetAside(c, "hand") for c in _expand(s.hand_a[q])]
    else:
        cards = [SetAside(c, "hand") for c in _expand(s.hand_m[q])]
        cards += [SetAside(c, "screen") for c in _expand(s.screen[q])]
    if len(cards) < k:
        return False
    s.set_aside[q] = rng.sample(cards, k)
    return True


def _deal_events(s: MafiaState, plan: _Plan, rng: Random) -> bool:
    mine = plan.view.private
    assert mine is not None
    v = plan.viewer
    pool_e = plan.pool_e[:]
    _shuffle(rng, pool_e)
    s.event_bottom = []
    for e in mine.event_bottom:
        if e == HIDDEN:
            if not pool_e:
                return False
            s.event_bottom.append(KnownCard(pool_e.pop(), SOMEONE_ELSE))
        else:
            s.event_bottom.append(KnownCard(e, v))
    if plan.own_choice:
        s.event_choice = [KnownCard(e, v) for e in plan.own_choice]
    else:
        if len(pool_e) < plan.char_choice:
            return False
        s.event_choice = [KnownCard(pool_e.pop(), plan.drawer) for _ in range(plan.char_choice)]
    if len(pool_e) != plan.deck_sizes.get("E", 0):
        return False
    s.decks["E"] = {e: 1 for e in pool_e}
    return True


def _fake_moves(k: int) -> dict[str, int]:
    return {"G1": k} if k else {}


__all__ = [
    "HIDDEN",
    "Deciding",
    "MafiaView",
    "PrivateView",
    "PublicView",
    "SeenAttack",
    "SeenCard",
    "determinize",
    "observe",
]
