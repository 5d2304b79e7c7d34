"""What a seat may know in Mafia Legend (§17), and sampling a full state consistent with it.

Allow-list: the viewer's hand, screen and mission; for every seat the hand size, screen size,
discs, VP, characters, jobs, sit-out counters, ability tiles; every face-up card; a face-down
card as a back with its owner, field and source, unless the viewer may see it (his own, or
seen with Spitzel). Deck sizes are public, deck order is not stored at all. At the end every
mission, screen and hand's money is public (§15).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from random import Random
from typing import TYPE_CHECKING, Any

from tablero.games.mafia import data
from tablero.games.mafia.data import ACTIONS, MONEY
from tablero.games.mafia.state import MafiaState

if TYPE_CHECKING:
    from tablero.games.mafia.rules import Mafia

HIDDEN = "?"
Counts = tuple[tuple[str, int], ...]


def _counts(d: dict[str, int]) -> Counts:
    return tuple(sorted(d.items()))


@dataclass(frozen=True, slots=True, kw_only=True)
class MafiaView:
    viewer: int | None
    players: int
    variant: str
    missions: bool
    bonus_basis: str
    start_option: int | None
    families_opt: tuple[str, ...] | None
    goal: int
    month: int
    phase: int
    order: tuple[int, ...]
    tp: int
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
    hand_sizes: tuple[int, ...]  # action + money cards in hand
    screen_sizes: tuple[int, ...]
    hand_actions: Counts | None  # the viewer's own
    hand_money: Counts | None
    screen: Counts | None
    mission: str | None
    mission_dealt: tuple[bool, ...]
    public_money: tuple[tuple[Counts, Counts] | None, ...]  # at the end: (hand money, screen) per seat
    public_missions: tuple[str, ...] | None
    atk: tuple[tuple[Any, ...] | None, ...]  # per target: (card|"?", attacker, up, timing, defence, public)
    grid: tuple[tuple[tuple[tuple[str, str, bool, bool], ...], ...], ...]
    """Per seat and field (job, K1-K4): (card or "?", source, ignored, public) oldest first."""
    row: tuple[str, ...]
    job: str
    job_done_month: bool
    powers: tuple[int, ...]
    deck_sizes: tuple[tuple[str, int], ...]
    job_bottom: tuple[str, ...]
    event_bottom: tuple[str, ...]  # "?" where the viewer does not know the card
    disc_a: Counts
    disc_m: Counts
    disc_c: Counts
    ashtray: int
    this_events: tuple[str, ...]
    next_events: tuple[str, ...]
    events_out: tuple[str, ...]  # discarded after their month: out of the game, public
    star: bool
    pend: tuple[Any, ...]  # the open decision's public part
    to_act: tuple[int, ...]
    dice: tuple[int, ...]
    event_choice: tuple[str, ...]  # the viewer's own choice, else "?" per card
    secret_discards: tuple[int, ...]  # per seat: cards set aside in a simultaneous discard
    my_discards: Counts | None
    pneed: tuple[int, ...]
    money_moved: tuple[int, int]  # this turn: cards moved to hand, to screen
    my_money_moved: tuple[Counts, Counts] | None
    tasks: tuple[tuple[Any, ...], ...]
    reveals: tuple[tuple[Any, ...], ...]  # this month end's reveals, as the log showed them
    over: bool
    winners: tuple[int, ...] | None
    last: tuple[int, str]

    def to_json(self) -> dict[str, Any]:
        return {f.name: _json(getattr(self, f.name)) for f in fields(self)}


def _json(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_json(x) for x in v]
    return v


def _sees(mask: int, viewer: int | None) -> bool:
    return viewer is not None and bool(mask >> viewer & 1) if mask != 0b1111 else True


def observe(s: MafiaState, viewer: int | None) -> MafiaView:
    n = s.n
    own = viewer is not None and 0 <= viewer < n
    v = viewer if own else None
    atk: list[tuple[Any, ...] | None] = []
    for x in s.atk:
        if x is None:
            atk.append(None)
        elif x[0] == "DISC":
            atk.append(("DISC", x[1], True, "", "", True))
        else:
            card = x[0] if x[2] or _sees(x[5], v) else HIDDEN
            atk.append((card, x[1], x[2], x[3], x[4], x[5] == 0b1111))
    grid = tuple(
        tuple(tuple((sl[0] if _sees(sl[2], v) else HIDDEN, sl[1], sl[3], sl[2] == 0b1111) for sl in f)
              for f in row)
        for row in s.fields
    )
    pend: tuple[Any, ...] = ()
    if s.pend:
        kind = s.pend[0]
        if kind == "chance_draw":
            pend = s.pend  # (kind, deck, seat, destination) is public
        elif kind in ("job_roll", "reroll"):
            pend = s.pend[:2]
        else:
            pend = tuple(x for x in s.pend if not isinstance(x, tuple))
    return MafiaView(
        viewer=viewer, players=n, variant=s.variant, missions=s.missions, bonus_basis=s.bonus_basis,
        start_option=s.start_option, families_opt=s.families_opt, goal=s.goal,
        month=s.month, phase=s.phase, order=tuple(s.order), tp=s.tp, step=s.step, played=s.played,
        limit=s.limit, grossoffensive=s.grossoffensive, family=tuple(s.family), discs=tuple(s.discs),
        vp=tuple(s.vp), chars=tuple(tuple(c) for c in s.chars), jobs_done=tuple(tuple(j) for j in s.jobs_done),
        sets=tuple(tuple(x) for x in s.sets), sitout=tuple(s.sitout), ability_used=tuple(s.ability_used),
        acquired=tuple(s.acquired),
        hand_sizes=tuple(sum(s.hand_a[q].values()) + sum(s.hand_m[q].values()) for q in range(n)),
        screen_sizes=tuple(sum(s.screen[q].values()) for q in range(n)),
        hand_actions=_counts(s.hand_a[v]) if v is not None else None,
        hand_money=_counts(s.hand_m[v]) if v is not None else None,
        screen=_counts(s.screen[v]) if v is not None else None,
        mission=s.mission[v] if v is not None else None,
        mission_dealt=tuple(bool(m) for m in s.mission),
        public_money=tuple((_counts(s.hand_m[q]), _counts(s.screen[q])) if s.over else None for q in range(n)),
        public_missions=tuple(s.mission) if s.over else None,
        atk=tuple(atk), grid=grid, row=tuple(s.row), job=s.job, job_done_month=s.job_done_month,
        powers=tuple(s.powers),
        deck_sizes=tuple((k, sum(d.values())) for k, d in sorted(s.decks.items())),
        job_bottom=tuple(s.job_bottom),
        event_bottom=tuple(e[0] if e[1] == v else HIDDEN for e in s.event_bottom),
        disc_a=_counts(s.disc_a), disc_m=_counts(s.disc_m), disc_c=_counts(s.disc_c), ashtray=s.ashtray,
        this_events=tuple(s.this_events), next_events=tuple(s.next_events),
        events_out=_events_out(s), star=s.star,
        pend=pend, to_act=s.actors, dice=tuple(s.dice),
        event_choice=tuple(e[0] if e[1] == v else HIDDEN for e in s.event_choice),
        secret_discards=tuple(sum(d.values()) for d in s.pdisc),
        my_discards=_counts(s.pdisc[v]) if v is not None else None,
        pneed=tuple(s.pneed),
        money_moved=(sum(s.mm_hand.values()), sum(s.mm_screen.values())),
        my_money_moved=(_counts(s.mm_hand), _counts(s.mm_screen)) if v is not None and v == s.active else None,
        tasks=tuple(_public_task(t) for t in s.tasks),
        reveals=tuple(s.reveals),
        over=s.over, winners=s.winners,
        last=(s.last[0], s.last[1] if viewer == s.last[0] else s.last[2]),
    )


def _events_out(s: MafiaState) -> tuple[str, ...]:
    if s.variant != "advanced":
        return ()
    inside = set(s.decks["E"]) | {e[0] for e in s.event_bottom} | {e[0] for e in s.event_choice}
    return tuple(sorted(set(data.EVENTS) - inside - set(s.this_events) - set(s.next_events)))


def _public_task(t: tuple[Any, ...]) -> tuple[Any, ...]:
    """Scheduled work is public except the cards it carries (a job attempt's counted cards)."""
    return tuple(x for x in t if not isinstance(x, tuple))


# ---------------------------------------------------------------------------- determinization
def _all_actions(variant: str) -> dict[str, int]:
    return {c.id: c.count for c in data.ACTION_CARDS if variant == "advanced" or c.id not in data.BEGINNER_REMOVED}


def _minus(pool: dict[str, int], cards: Any) -> None:
    for c in cards:
        pool[c] -= 1
        if pool[c] < 0:
            raise ValueError(f"card {c} seen more often than it exists")


def _expand(counts: Counts | dict[str, int]) -> list[str]:
    items = counts.items() if isinstance(counts, dict) else counts
    return [c for c, k in items for _ in range(k)]


def determinize(game: Mafia, view: MafiaView, viewer: int, rng: Random, tries: int = 200) -> MafiaState:
    """A full state consistent with ``view``: unknown cards (other hands and screens, backs in
    the grid, decks, missions, events known to others) are dealt at random from what the
    viewer cannot place, respecting each slot's kind (a back from a screen is money, a back in
    a job field is an attack or tool card, …)."""
    for _ in range(tries):
        s = _attempt(game, view, viewer, rng)
        if s is not None:
            return s
    raise RuntimeError("no consistent deal found")


def _attempt(game: Mafia, view: MafiaView, v: int, rng: Random) -> MafiaState | None:
    opts = {
        "variant": view.variant, "missions": view.missions, "bonus_basis": view.bonus_basis,
        "start_seat": "random" if view.start_option is None else view.start_option,
        "families": "choose" if view.families_opt is None else view.families_opt,
    }
    s = game.new_initial_state(view.players, opts)
    n = view.players
    s.month, s.phase, s.order, s.tp = view.month, view.phase, list(view.order), view.tp
    s.step, s.played, s.limit, s.grossoffensive = view.step, view.played, view.limit, view.grossoffensive
    s.family = list(view.family)
    s.discs, s.vp = list(view.discs), list(view.vp)
    s.chars = [list(c) for c in view.chars]
    s.jobs_done = [list(j) for j in view.jobs_done]
    s.sets = [list(x) for x in view.sets]
    s.sitout, s.ability_used, s.acquired = list(view.sitout), list(view.ability_used), list(view.acquired)
    s.row, s.job, s.job_done_month, s.powers = list(view.row), view.job, view.job_done_month, list(view.powers)
    s.job_bottom = list(view.job_bottom)
    s.disc_a, s.disc_m, s.disc_c = dict(view.disc_a), dict(view.disc_m), dict(view.disc_c)
    s.ashtray, s.this_events, s.next_events, s.star = view.ashtray, list(view.this_events), \
        list(view.next_events), view.star
    s.dice, s.pneed = list(view.dice), list(view.pneed)
    s.over, s.winners = view.over, view.winners
    s.tasks = []
    bit_v = 1 << v
    # --- pools of what the viewer cannot place
    pool_a = _all_actions(view.variant)
    pool_m = dict(data.MONEY_COUNTS)
    _minus(pool_a, _expand(view.disc_a))
    _minus(pool_m, _expand(view.disc_m))
    _minus(pool_a, _expand(view.hand_actions or ()))
    _minus(pool_m, _expand(view.hand_money or ()))
    _minus(pool_m, _expand(view.screen or ()))
    for mine in _expand(view.my_discards or ()):
        (pool_m if mine in MONEY else pool_a)[mine] -= 1
    if view.over and view.public_money is not None:
        for q in range(n):
            pm = view.public_money[q]
            if q != v and pm is not None:
                _minus(pool_m, _expand(pm[0]) + _expand(pm[1]))
    # grid and attack column: known cards leave the pools; unknown slots are collected
    slots_atk: list[int] = []  # target seats whose attack card is unknown
    slots_job: list[tuple[int, int, int]] = []
    slots_char: list[tuple[int, int, int]] = []  # (seat, field, index) from the hand
    slots_money: list[tuple[int, int, int]] = []  # from the screen
    s.atk = [None] * n
    for q, x in enumerate(view.atk):
        if x is None:
            continue
        if x[0] == "DISC":
            s.atk[q] = ["DISC", x[1], True, "", "", 0b1111]
            continue
        if x[4]:
            _minus(pool_a, [x[4]])
        mask = 0b1111 if x[5] else (1 << x[1]) | (bit_v if x[0] != "?" else 0)
        s.atk[q] = [x[0], x[1], x[2], x[3], x[4], mask]
        if x[0] == "?":
            slots_atk.append(q)
        else:
            _minus(pool_a, [x[0]])
    s.fields = [[[] for _ in range(5)] for _ in range(n)]
    for q in range(n):
        for f in range(5):
            for i, (card, src, ign, public) in enumerate(view.grid[q][f]):
                known = card != "?"
                mask = 0b1111 if public else (1 << q) | (bit_v if known else 0)
                s.fields[q][f].append([card, src, mask, ign])
                if known:
                    (pool_m if card in MONEY else pool_a)[card] -= 1
                elif src == "S":
                    slots_money.append((q, f, i))
                elif f == 0:
                    slots_job.append((q, f, i))
                else:
                    slots_char.append((q, f, i))
    # fix masks of cards known to everyone (revealed) vs known to the viewer only: a revealed
    # card is public; the view does not say which, so seen-by-all is kept where every seat saw it
    # (at most the viewer's own bit matters for observe(., viewer))
    if any(k < 0 for k in pool_a.values()) or any(k < 0 for k in pool_m.values()):
        return None
    # --- money-only slots: screens of others, backs from screens, the money deck, secret audits
    money = _expand(pool_m)
    rng.shuffle(money)
    acts = _expand(pool_a)
    rng.shuffle(acts)
    deck_sizes = dict(view.deck_sizes)

    def take_money() -> str | None:
        return money.pop() if money else None

    for q in range(n):
        if q == v:
            continue
        s.screen[q] = {}
        pm = view.public_money[q]
        if pm is not None:
            s.screen[q] = dict(pm[1])
            continue
        for _ in range(view.screen_sizes[q]):
            c = take_money()
            if c is None:
                return None
            s.screen[q][c] = s.screen[q].get(c, 0) + 1
    for q, f, i in slots_money:
        c = take_money()
        if c is None:
            return None
        s.fields[q][f][i][0] = c
    audit = bool(view.pend) and view.pend[0] == "discards" and view.pend[2] == "audit"
    s.pdisc = [{} for _ in range(n)]
    for q in range(n):
        k = view.secret_discards[q]
        if q == v:
            s.pdisc[q] = dict(view.my_discards or ())
            continue
        for _ in range(k):
            c = take_money() if audit else (acts.pop() if acts else None)
            if c is None:
                return None
            s.pdisc[q][c] = s.pdisc[q].get(c, 0) + 1
    s.decks["M"] = {}
    for _ in range(deck_sizes.get("M", 0)):
        c = take_money()
        if c is None:
            return None
        s.decks["M"][c] = s.decks["M"].get(c, 0) + 1
    # --- action-only slots: attack backs (attack cards), job backs (attack/tool), the action deck
    def take_action(kinds: tuple[str, ...]) -> str | None:
        for i in range(len(acts) - 1, -1, -1):
            if ACTIONS[acts[i]].kind in kinds:
                return acts.pop(i)
        return None

    for q in slots_atk:
        c = take_action(("attack",))
        if c is None:
            return None
        s.atk[q][0] = c  # type: ignore[index]
    for q, f, i in slots_job:
        c = take_action(("attack", "tool"))
        if c is None:
            return None
        s.fields[q][f][i][0] = c
    # the action deck takes action cards (the largest constrained zone, so it goes first)
    s.decks["A"] = {}
    need = deck_sizes.get("A", 0)
    if need > len(acts):
        return None
    for _ in range(need):
        c = acts.pop()
        s.decks["A"][c] = s.decks["A"].get(c, 0) + 1
    rest = money + acts
    rng.shuffle(rest)
    # char backs from the hand: money, attack or tool (never defence)
    for q, f, i in slots_char:
        for j in range(len(rest) - 1, -1, -1):
            c = rest[j]
            if c in MONEY or ACTIONS[c].kind != "defence":
                s.fields[q][f][i][0] = rest.pop(j)
                break
        else:
            return None
    # hands take whatever is left
    for q in range(n):
        if q == v:
            s.hand_a[q] = dict(view.hand_actions or ())
            s.hand_m[q] = dict(view.hand_money or ())
            s.screen[q] = dict(view.screen or ())
            continue
        s.hand_a[q], s.hand_m[q] = {}, {}
        size = view.hand_sizes[q]
        if view.over and view.public_money is not None and view.public_money[q] is not None:
            pm = view.public_money[q]
            assert pm is not None
            s.hand_m[q] = dict(pm[0])
            s.screen[q] = dict(pm[1])
            size -= sum(s.hand_m[q].values())
            for _ in range(size):
                j = next((j for j in range(len(rest)) if rest[j] not in MONEY), -1)
                if j < 0:
                    return None
                c = rest.pop(j)
                s.hand_a[q][c] = s.hand_a[q].get(c, 0) + 1
            continue
        for _ in range(size):
            if not rest:
                return None
            c = rest.pop()
            zone = s.hand_m[q] if c in MONEY else s.hand_a[q]
            zone[c] = zone.get(c, 0) + 1
    if rest:
        return None
    # --- characters, jobs: the decks follow from public information
    chars = {c.id for c in data.CHARACTERS if n == 4 or not c.four_only}
    placed = set(view.row) | {c for cs in view.chars for c in cs} | {c for c, _ in view.disc_c}
    s.decks["C"] = {c: 1 for c in sorted(chars - placed)}
    jobs = {j.id for j in data.JOBS}
    seen_jobs = {view.job} | {j for js in view.jobs_done for j in js} | set(view.job_bottom)
    s.decks["J"] = {j: 1 for j in sorted(jobs - seen_jobs)}
    # --- events: public ones are placed; the viewer's known bottom cards too; the rest random
    if view.variant == "advanced":
        ev_pool = set(data.EVENTS) - set(view.this_events) - set(view.next_events) - set(view.events_out)
        ev_pool -= {e for e in view.event_bottom if e != "?"}
        own_choice = [e for e in view.event_choice if e != "?"]
        ev_pool -= set(own_choice)
        pool_e = sorted(ev_pool)
        rng.shuffle(pool_e)
        s.event_bottom = []
        for e in view.event_bottom:
            if e == "?":
                if not pool_e:
                    return None
                s.event_bottom.append([pool_e.pop(), -2])
            else:
                s.event_bottom.append([e, v])
        drawer = next((t[2] for t in view.tasks if t and t[0] == "draw" and t[1] == "E"), None)
        if view.pend and view.pend[0] == "chance_draw" and view.pend[1] == "E":
            drawer = view.pend[2]
        if view.pend and view.pend[0] == "choose_event":
            drawer = view.pend[1]
        if drawer is None:
            drawer = next((t[1] for t in view.tasks if t and t[0] == "choose_event"), v)
        if own_choice:
            s.event_choice = [[e, v] for e in own_choice]
        else:
            if len(pool_e) < len(view.event_choice):
                return None
            s.event_choice = [[pool_e.pop(), drawer] for _ in view.event_choice]
        if len(pool_e) != deck_sizes.get("E", 0):
            return None
        s.decks["E"] = {e: 1 for e in pool_e}
    else:
        s.decks["E"] = {}
    if view.missions:
        if view.public_missions is not None:
            s.mission = list(view.public_missions)
            pool_x = sorted(set(data.MISSIONS) - set(view.public_missions))
        else:
            pool_x = sorted(set(data.MISSIONS) - {view.mission or ""})
            rng.shuffle(pool_x)
            s.mission = [(view.mission or "") if q == v else (pool_x.pop() if view.mission_dealt[q] else "")
                         for q in range(n)]
        if len(pool_x) < deck_sizes.get("X", 0):
            return None
        s.decks["X"] = {m: 1 for m in pool_x[: deck_sizes.get("X", 0)]}
    # --- the open decision and its continuation
    s.pend = view.pend
    if view.pend and view.pend[0] in ("job_roll", "reroll"):
        q = view.pend[1]
        counted = tuple(sl[0] for sl in s.fields[q][0])
        s.pend = (view.pend[0], q, game.job_dice(list(counted)), counted) if view.pend[0] == "job_roll" \
            else (view.pend[0], q, counted)
    s.tasks = [_restore_task(game, s, t) for t in view.tasks]
    s.mm_hand = dict(view.my_money_moved[0]) if view.my_money_moved else _fake_moves(s, view.money_moved[0])
    s.mm_screen = dict(view.my_money_moved[1]) if view.my_money_moved else _fake_moves(s, view.money_moved[1])
    s.actors = view.to_act
    s.reveals = list(view.reveals)
    if view.last[0] == v and view.last[1]:
        from tablero.games.mafia.actions import parse

        s.last = (v, view.last[1], game._public_text(s, v, parse(view.last[1])))
    else:
        s.last = (view.last[0], view.last[1], view.last[1])
    s.version = 0
    return s


def _fake_moves(s: MafiaState, k: int) -> dict[str, int]:
    return {"G1": k} if k else {}


def _restore_task(game: Mafia, s: MafiaState, t: tuple[Any, ...]) -> tuple[Any, ...]:
    if t and t[0] in ("job_success", "job_result", "roll"):
        q = t[1]
        counted = tuple(sl[0] for sl in s.fields[q][0])
        if t[0] == "job_success":
            return (t[0], q, counted)
        if t[0] == "job_result":
            return (t[0], q, counted, t[2])
        return (t[0], q, t[2], counted)
    return t
