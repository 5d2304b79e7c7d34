"""Mafia Legend engine: the flow as a stack of tasks, one handler per task kind (spec §5-§15).

:func:`run` pops tasks (``state.tasks``, top at the end) and runs their handlers (the table
:data:`TASKS`) until one opens a decision or a chance node (``state.decision``). Every handler is
one step of the spec (a turn step, one stage of an attack, one month-end step, one card draw, …),
and the game-end check (§15) runs after every task and every applied action, so a game can end
in the middle of a month end exactly as §12 and MA-29 require.

This module knows nothing of views, sentences or the ``Game`` façade (``rules.py``); its log
lines name things through ``names.py`` (nested messages, never wire tokens), their sentences
are the catalogue of ``text.py``. ``moves.py`` (the decisions), ``view.py``, ``text.py`` and
``setup.py`` build on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from tablero.core.events import Event
from tablero.core.messages import Message
from tablero.core.protocol import CHANCE
from tablero.games.mafia import data, names
from tablero.games.mafia.actions import FIELD_NAMES, JOB_FIELD, MLAction
from tablero.games.mafia.data import ACTIONS, DEFAULT, MONEY, Tables
from tablero.games.mafia.state import (
    NOBODY,
    SEEN_BY_ALL,
    Decision,
    KnownCard,
    LastAction,
    MafiaState,
    Task,
)

Events = list[Event] | None
CHANCE_NODES: Final = frozenset({"chance_draw", "chance_roll", "chance_start"})


# ---------------------------------------------------------------------------- small helpers
def add_card(d: dict[str, int], card: str, n: int = 1) -> None:
    """Put ``n`` copies of ``card`` into the multiset ``d``."""
    d[card] = d.get(card, 0) + n


def take_card(d: dict[str, int], card: str, n: int = 1) -> None:
    """Take ``n`` copies of ``card`` out of the multiset ``d`` (they must be there)."""
    left = d[card] - n
    if left:
        d[card] = left
    else:
        del d[card]


def count_cards(d: Mapping[str, int]) -> int:
    return sum(d.values())


def money_value(d: Mapping[str, int]) -> int:
    return sum(MONEY[k] * v for k, v in d.items())


def emit(ev: Events, mid: str, visible: Iterable[int] | None = None, redacted: Message | None = None,
         *, reveal: bool = False, **params: Any) -> None:
    """Log ``Message(mid, **params)``: public, or seen by ``visible`` only (the others see
    ``redacted``); ``reveal`` flags a line that turns up hidden information (no take-back)."""
    if ev is not None:
        ev.append(Event(Message(mid, **params), None if visible is None else frozenset(visible), redacted,
                        reveal))


def advanced(s: MafiaState) -> bool:
    """The advanced game (abilities, events, magnifiers, power abilities, §16)."""
    return s.variant == "advanced"


def event_on(s: MafiaState, event: str) -> bool:
    """Whether ``event`` applies this month (App. E)."""
    return event in s.this_events


def push(s: MafiaState, *tasks: Task) -> None:
    """Schedule tasks to run in the given order, before anything already scheduled."""
    s.tasks.extend(reversed(tasks))


def draw_task(deck: str, seat: int, count: int, dest: str) -> Task:
    """Draw ``count`` cards of ``deck`` for ``seat`` to ``dest`` (one chance node per card)."""
    return Task("draw", seat=seat, deck=deck, amount=count, dest=dest)


MONTH_END: Final = tuple(Task(k) for k in (
    "me_attacks", "me_jobs", "me_columns", "me_refill", "me_power_vp", "me_monthly_bonus", "me_income",
    "me_rotate_job", "me_clear", "me_december", "me_turn_order", "me_new_month"))
"""The month-end steps ME1 … ME12 (§12), in order; the first four walk seats or columns."""


def start_month_end(s: MafiaState) -> None:
    """Schedule ME1 … ME12 (after the last turn of phase 3)."""
    s.turn_pos = -1
    s.reveals = []
    push(s, *MONTH_END)


# ---------------------------------------------------------------------------- the loop
def run(s: MafiaState, ev: Events) -> None:
    """Run scheduled tasks until a decision or chance node opens or the game ends."""
    while s.decision is None and not s.over:
        if not s.tasks:
            raise AssertionError("no task and no decision")
        task = s.tasks.pop()
        TASKS[task.kind](s, task, ev)
        end_check(s, ev)
    set_actors(s)


def set_actors(s: MafiaState) -> None:
    d = s.decision
    if s.over or d is None:
        s.actors = ()
    elif d.kind in CHANCE_NODES:
        s.actors = (CHANCE,)
    elif d.kind == "discards":
        s.actors = tuple(q for q in s.order if s.must_discard[q] > 0)
    else:
        s.actors = (d.seat,)


def initial_state(players: int, *, variant: str, missions: bool, start_seat: int | None,
                  families: tuple[str, ...] | None, bonus_basis: str, tables: Tables = DEFAULT) -> MafiaState:
    """The state before the first decision or chance node (§5.1), from resolved options and the
    tables the game plays with (``data.tables(overrides)``)."""
    s = MafiaState()
    n = s.n = players
    t = s.data = tables
    s.variant = variant
    s.missions = missions
    s.start_option = start_seat
    s.families_opt = families
    s.bonus_basis = bonus_basis
    adv = variant == "advanced"
    s.goal = t.GOAL if adv else t.BEGINNER_GOAL
    s.month, s.phase, s.turn_pos, s.month_end_step = 1, 1, 0, 0
    s.order = list(range(n))
    s.family = [""] * n
    s.hand_a = [{} for _ in range(n)]
    s.hand_m = [{} for _ in range(n)]
    s.screen = [{} for _ in range(n)]
    s.discs = [t.DISCS] * n
    s.vp = [0] * n
    s.chars = [[] for _ in range(n)]
    s.jobs_done = [[] for _ in range(n)]
    s.sets = [[] for _ in range(n)]
    s.sitout = [0] * n
    s.ability_used = [False] * n
    s.mission = [""] * n
    s.acquired = [0] * n
    s.atk = [None] * n
    s.fields = [[[] for _ in FIELD_NAMES] for _ in range(n)]
    s.row = [""] * data.CHAR_COLUMNS
    s.job = ""
    s.job_done_month = False
    s.powers = [NOBODY] * len(t.POWERS)
    s.decks = {
        "A": {c.id: c.count for c in t.ACTION_CARDS if c.count and (adv or c.id not in data.BEGINNER_REMOVED)},
        "M": {g: k for g, k in t.MONEY_COUNTS.items() if k},
        "C": {c.id: 1 for c in t.CHARACTERS if players == 4 or not c.four_only},
        "J": {j.id: 1 for j in data.JOBS},
        "E": {e: 1 for e in data.EVENTS} if adv else {},
        "X": {m: 1 for m in data.MISSIONS} if missions else {},
    }
    s.job_bottom = []
    s.event_bottom = []
    s.disc_a, s.disc_m, s.disc_c = {}, {}, {}
    s.ashtray = 0
    s.this_events, s.next_events = [], []
    s.star = False
    s.step = s.played = 0
    s.limit = t.PLAY_LIMIT
    s.moved_to_hand, s.moved_to_screen = {}, {}
    s.grossoffensive = False
    s.decision = None
    s.tasks = []
    s.actors = ()
    s.dice = []
    s.event_choice = []
    s.set_aside = [[] for _ in range(n)]
    s.must_discard = [0] * n
    s.over = False
    s.winners = None
    s.last = LastAction(CHANCE, "", "")
    s.reveals = []
    s.legal_cache = None
    push(s, Task("start_seat"), Task("families"), Task("deal"), Task("turn"))
    run(s, None)
    return s


# ---------------------------------------------------------------------------- setup tasks
def _start_seat(s: MafiaState, t: Task, ev: Events) -> None:
    if s.start_option is None:
        s.decision = Decision("chance_start")
    else:
        set_start(s, s.start_option, ev)


def set_start(s: MafiaState, seat: int, ev: Events) -> None:
    s.order = [(seat + i) % s.n for i in range(s.n)]
    emit(ev, "ml.start", seat=seat)


def _families(s: MafiaState, t: Task, ev: Events) -> None:
    if s.families_opt is not None:
        for q in range(s.n):
            s.family[q] = s.families_opt[q]
        return
    for q in reversed(s.order):
        if not s.family[q]:
            s.decision = Decision("family", q)
            s.tasks.append(Task("families"))
            return


def _deal(s: MafiaState, t: Task, ev: Events) -> None:
    tasks = [draw_task("A", q, s.data.START_ACTIONS, "hand") for q in s.order]
    tasks += [draw_task("M", q, s.data.START_MONEY, "screen") for q in s.order]
    if s.missions:
        tasks += [draw_task("X", q, 1, "mission") for q in s.order]
    tasks += [draw_task("C", NOBODY, 1, f"row{k}") for k in range(data.CHAR_COLUMNS)]
    tasks.append(draw_task("J", NOBODY, 1, "job"))
    push(s, *tasks)


# ---------------------------------------------------------------------------- draws (§12 running out, §18.3)
def _draw(s: MafiaState, t: Task, ev: Events) -> None:
    deck, seat, count, dest = t.deck, t.seat, t.amount, t.dest
    if count <= 0:
        return
    d = s.decks[deck]
    if not d:
        if deck in ("A", "M"):
            disc = s.disc_a if deck == "A" else s.disc_m
            if disc:
                s.decks[deck] = dict(disc)
                disc.clear()
                emit(ev, "ml.reshuffle", deck=names.deck(deck))
                d = s.decks[deck]
        elif deck == "J" and s.job_bottom:
            place_drawn(s, deck, seat, dest, s.job_bottom.pop(0), ev)
            s.tasks.append(t._replace(amount=count - 1))
            return
        elif deck == "E" and s.event_bottom:
            place_drawn(s, deck, seat, dest, s.event_bottom.pop(0).card, ev)
            s.tasks.append(t._replace(amount=count - 1))
            return
    if not d:
        emit(ev, "ml.draw_lost", deck=names.deck(deck), seat=seat, count=count)
        return
    s.tasks.append(t._replace(amount=count - 1))
    s.decision = Decision("chance_draw", seat, deck=deck, dest=dest)


def place_drawn(s: MafiaState, deck: str, seat: int, dest: str, card: str, ev: Events) -> None:
    """A drawn card arrives: money behind the screen, action cards in the hand (§7.2), …"""
    if dest == "hand":
        if card in MONEY:
            add_card(s.screen[seat], card)
        else:
            add_card(s.hand_a[seat], card)
        emit(ev, "ml.draw", [seat], Message("ml.draw.hidden", seat=seat, card=names.unseen_card(deck)), seat=seat,
             card=names.card(card))
    elif dest == "screen":
        add_card(s.screen[seat], card)
        emit(ev, "ml.draw", [seat], Message("ml.draw.hidden", seat=seat, card=names.unseen_card(deck)), seat=seat,
             card=names.card(card))
    elif dest == "mission":
        s.mission[seat] = card
        emit(ev, "ml.mission", [seat], Message("ml.mission.hidden", seat=seat), seat=seat, card=names.card(card))
    elif dest.startswith("row"):
        k = int(dest[3:])
        s.row[k] = card
        emit(ev, "ml.row", slot=k + 1, card=names.card(card))
    elif dest == "job":
        s.job = card
        emit(ev, "ml.job", card=names.card(card))
    elif dest == "event":
        s.event_choice.append(KnownCard(card, seat))
        emit(ev, "ml.event_drawn", [seat], Message("ml.event_drawn.hidden", seat=seat), seat=seat,
             card=names.card(card))


def apply_chance(s: MafiaState, a: MLAction, ev: Events) -> None:
    """A chance outcome (``start``, ``roll``, ``draw``) for the open chance node."""
    d = s.decision
    assert d is not None
    s.decision = None
    if d.kind == "chance_start":
        set_start(s, int(a.args[0]), ev)
    elif d.kind == "chance_roll":
        s.dice.append(int(a.args[0]))
        emit(ev, "ml.roll", value=int(a.args[0]))
    else:
        card = a.args[0]
        take_card(s.decks[d.deck], card)
        place_drawn(s, d.deck, d.seat, d.dest, card, ev)


# ---------------------------------------------------------------------------- turns (§7)
def _turn(s: MafiaState, t: Task, ev: Events) -> None:
    p = s.active
    if s.month == 1 and s.phase == 1 and s.turn_pos == 0:
        emit(ev, "ml.month", month=1, name=names.month(1))  # the first turn: month 1 begins (the log's section)
    if s.sitout[p]:
        s.sitout[p] -= 1
        emit(ev, "ml.sit_out", seat=p)
        s.tasks.append(Task("next_turn"))
        return
    s.step = 1
    s.played = 0
    s.limit = s.data.CURFEW_LIMIT if event_on(s, "EV11") else s.data.PLAY_LIMIT
    s.moved_to_hand, s.moved_to_screen = {}, {}
    s.grossoffensive = False
    s.decision = Decision("turn", p)
    emit(ev, "ml.turn", seat=p, month=s.month, month_name=names.month(s.month), phase=s.phase)


def _resume(s: MafiaState, t: Task, ev: Events) -> None:
    """Back to the active player's open turn decision (after draws or a resolution)."""
    p = s.active
    if s.step == 3 and not (s.job and s.fields[p][JOB_FIELD]):
        s.step = 4
    if s.step == 4:
        push(s, draw_task("A", p, max(0, s.data.DRAW_BACK - s.played), "hand"), Task("hand_limit", p),
             Task("next_turn"))
        return
    s.decision = Decision("turn", p)


def _hand_limit(s: MafiaState, t: Task, ev: Events) -> None:
    p = t.seat
    excess = count_cards(s.hand_a[p]) - s.data.HAND_LIMIT
    if excess > 0:
        s.must_discard[p] = excess
        s.decision = Decision("discard", p, reason="limit")


def _next_turn(s: MafiaState, t: Task, ev: Events) -> None:
    s.step = 0
    s.played = 0
    s.moved_to_hand, s.moved_to_screen = {}, {}
    s.grossoffensive = False
    s.turn_pos += 1
    if s.turn_pos < s.n:
        s.tasks.append(Task("turn"))
        return
    s.turn_pos = 0
    if s.phase < s.data.PHASES:
        s.phase += 1
        s.tasks.append(Task("turn"))
        return
    emit(ev, "ml.month_end", month=s.month, month_name=names.month(s.month))
    start_month_end(s)


# ---------------------------------------------------------------------------- attacks (§8)
def _attack(s: MafiaState, t: Task, ev: Events) -> None:
    """Resolve the attack in the attack field of ``t.seat``, stage by stage (§8.3)."""
    target, stage, month_end = t.seat, t.stage, t.month_end
    x = s.atk[target]
    if x is None or x.is_disc:
        return
    card, attacker = x.card, x.attacker
    t_ = s.data
    c = t_.ACTIONS[card]
    if stage == 0:
        if not x.face_up or x.seen_by != SEEN_BY_ALL:
            x = s.atk[target] = x._replace(seen_by=SEEN_BY_ALL)
            emit(ev, "ml.reveal_attack", reveal=True, seat=attacker, target_seat=target, card=names.card(card))
        if c.symbol == "star":
            if not month_end or s.star:
                emit(ev, "ml.star_ignored", card=names.card(card))
                discard_attack(s, target)
                return
            s.star = True
        if advanced(s) and ((c.symbol == "badge" and s.powers[data.STAATSGEWALT] == target)
                            or (c.symbol == "star" and s.powers[data.PRESSE] == target)):
            emit(ev, "ml.immune", target_seat=target, card=names.card(card),
                 power=names.power(t_.POWERS[data.STAATSGEWALT if c.symbol == "badge" else data.PRESSE].id))
            discard_attack(s, target)
            return
        if advanced(s) and s.family[target] == "lombardo" and not s.ability_used[target]:
            s.decision = Decision("guardian", target)
            s.tasks.append(t._replace(stage=1))
            return
        stage = 1
    if stage == 1 and not x.defence:
        s.decision = Decision("defend", target)
        s.tasks.append(t._replace(stage=2))
        return
    # stage 2: compare (§8.3 step 5)
    strength = c.fist + (t_.EV02_FIST if c.symbol == "badge" and event_on(s, "EV02") else 0)
    if x.defence:
        dc = t_.ACTIONS[x.defence]
        if dc.strength == data.CANCEL:
            ok = False
        else:
            ok = strength > dc.strength - (t_.EV10_DEFENCE if event_on(s, "EV10") else 0)
    else:
        ok = strength > 0
    if not ok:
        emit(ev, "ml.attack_failed", seat=attacker, target_seat=target, card=names.card(card))
        discard_attack(s, target)
        return
    emit(ev, "ml.attack_succeeds", seat=attacker, target_seat=target, card=names.card(card))
    push(s, Task("attack_effect", target, attacker=attacker, card=card),
         draw_task("M", attacker, c.dollar, "screen"), Task("discard_attack", target))


def _discard_attack(s: MafiaState, t: Task, ev: Events) -> None:
    discard_attack(s, t.seat)


def discard_attack(s: MafiaState, target: int) -> None:
    """The attack card in ``target``'s attack field (and its defence) to the discard pile."""
    x = s.atk[target]
    if x is None or x.is_disc:
        return
    add_card(s.disc_a, x.card)
    if x.defence:
        add_card(s.disc_a, x.defence)
    s.atk[target] = None


def _attack_effect(s: MafiaState, t: Task, ev: Events) -> None:
    target, attacker = t.seat, t.attacker
    c = s.data.ACTIONS[t.card]
    if c.symbol == "badge":
        if any(s.fields[target]):
            s.decision = Decision("raid", attacker, target=target)
    elif c.symbol == "cross":
        if s.chars[target]:
            s.decision = Decision("hit", attacker, target=target)
    elif c.symbol == "hand":
        if s.chars[target]:
            s.decision = Decision("hand_over", target, receiver=attacker)
    else:
        mult = 2 if event_on(s, "EV05") else 1
        loss = min(s.vp[target], s.data.STAR_LOSS * c.stars * mult)
        gain = s.data.STAR_GAIN * c.stars * mult
        s.vp[target] -= loss
        s.vp[attacker] += gain
        emit(ev, "ml.scandal", target_seat=target, loss=loss, seat=attacker, gain=gain, card=names.card(t.card))


def raid(s: MafiaState, target: int, f: int, ev: Events) -> None:
    """A successful badge attack clears one field of ``target`` (its cards shown, §8.4)."""
    cards = s.fields[target][f]
    s.fields[target][f] = []
    for slot in cards:
        add_card(s.disc_m if slot.card in MONEY else s.disc_a, slot.card)
    # sorted: which back was which card stays unknown (the view shows only the discard piles)
    if ev is not None:  # names only for a log (playouts pass none)
        emit(ev, "ml.raided", reveal=True, target_seat=target, field=names.field(FIELD_NAMES[f]),
             cards=names.cards(sorted(x.card for x in cards)))


def lose_character(s: MafiaState, owner: int, card: str, to: int, ev: Events) -> None:
    """``owner`` loses ``card``: discarded (``to`` = NOBODY, a hit) or handed over to ``to``."""
    s.chars[owner].remove(card)
    if to < 0:
        add_card(s.disc_c, card)
        emit(ev, "ml.hit", target_seat=owner, card=names.card(card))
    else:
        s.chars[to].append(card)
        s.acquired[to] += 1
        emit(ev, "ml.handed_over", target_seat=owner, seat=to, card=names.card(card))
        check_sets(s, to, ev)
    update_powers(s, ev)


# ---------------------------------------------------------------------------- jobs (§9)
def job_tags_ok(s: MafiaState, cards: Sequence[str]) -> bool:
    """The cards fulfil the open job by its tags (§9.1)."""
    return tags_fulfilled(s.data.JOBS_BY_ID[s.job].tags, cards)


def tags_fulfilled(tags: Sequence[str], cards: Sequence[str]) -> bool:
    """The tags on ``cards`` (one per tool card) include every one of ``tags`` (§9.1)."""
    need: dict[str, int] = {}
    for tag in tags:
        add_card(need, tag)
    have: dict[str, int] = {}
    for c in cards:
        if c in ACTIONS and ACTIONS[c].tag:
            add_card(have, ACTIONS[c].tag)
    return all(have.get(k, 0) >= v for k, v in need.items())


def job_dice(t: Tables, cards: Sequence[str]) -> int:
    """The W8 the cards roll for a job (at most ``MAX_DICE``) with the tables ``t``."""
    acts = t.ACTIONS
    return min(t.MAX_DICE, sum(acts[c].dice for c in cards if c in acts))


def job_field_cards(s: MafiaState, p: int, immediate: bool) -> list[str]:
    """The cards an attempt would count (an immediate attempt skips star cards, §8.5)."""
    return [sl.card for sl in s.fields[p][JOB_FIELD]
            if not (immediate and sl.card in ACTIONS and ACTIONS[sl.card].symbol == "star")]


def counted_job_cards(s: MafiaState, q: int) -> list[str]:
    """The cards the job attempt under way counts (revealed, the skipped star cards marked)."""
    return [sl.card for sl in s.fields[q][JOB_FIELD] if not sl.ignored]


def _job(s: MafiaState, t: Task, ev: Events) -> None:
    """An attempt (§9.2): immediate (own turn) or at ME2; reveals, tags, dice."""
    q, immediate = t.seat, t.immediate
    field = s.fields[q][JOB_FIELD]
    if not field:
        return
    if not s.job:
        discard_field(s, q, JOB_FIELD)
        return
    for i, slot in enumerate(field):
        skip = False
        if slot.card in ACTIONS and ACTIONS[slot.card].symbol == "star":
            if immediate or s.star:
                skip = True
            else:
                s.star = True
        field[i] = slot._replace(seen_by=SEEN_BY_ALL, ignored=skip)
    counted = counted_job_cards(s, q)
    shown = tuple(x.card for x in field)
    s.reveals.append(("job", q, shown))
    if ev is not None:
        emit(ev, "ml.job_reveal", reveal=True, seat=q, cards=names.cards(shown))
    if job_tags_ok(s, counted):
        push(s, Task("job_success", q), Task("discard_field", q, field=JOB_FIELD))
        return
    dice = job_dice(s.data, counted)
    if dice == 0:
        emit(ev, "ml.job_no_dice", seat=q)
        discard_field(s, q, JOB_FIELD)
        return
    if immediate:
        push(s, Task("roll", q, amount=dice))
    else:
        s.decision = Decision("job_roll", q, dice=dice)


def _roll(s: MafiaState, t: Task, ev: Events) -> None:
    s.dice = []
    push(s, *[Task("roll_die")] * t.amount, Task("job_result", t.seat))


def _roll_die(s: MafiaState, t: Task, ev: Events) -> None:
    s.decision = Decision("chance_roll")


def _job_result(s: MafiaState, t: Task, ev: Events) -> None:
    q = t.seat
    job = s.data.JOBS_BY_ID[s.job]
    target = job.dice_sum - (s.data.EV06_DICE if event_on(s, "EV06") else 0)
    total = sum(s.dice)
    if total >= target:
        emit(ev, "ml.job_roll_ok", seat=q, total=total, target=target)
        push(s, Task("job_success", q), Task("discard_field", q, field=JOB_FIELD))
        return
    if not t.rerolled and advanced(s) and s.family[q] == "santori" and not s.ability_used[q]:
        s.decision = Decision("reroll", q)
        return
    s.sitout[q] += job.failure
    emit(ev, "ml.job_failed", seat=q, total=total, target=target, sitout=job.failure)
    discard_field(s, q, JOB_FIELD)


def _job_success(s: MafiaState, t: Task, ev: Events) -> None:
    q = t.seat
    tab = s.data
    job = tab.JOBS_BY_ID[s.job]
    s.vp[q] += job.ep
    s.jobs_done[q].append(s.job)
    s.job_done_month = True
    acts = tab.ACTIONS
    money = job.dollar + sum(acts[c].dollar for c in counted_job_cards(s, q) if c in acts)
    money += tab.EV15_MONEY if event_on(s, "EV15") else 0
    emit(ev, "ml.job_done", seat=q, job=names.card(s.job), vp=job.ep, money=money)
    s.job = ""
    push(s, draw_task("M", q, money, "screen"), draw_task("J", NOBODY, 1, "job"))


def _discard_field(s: MafiaState, t: Task, ev: Events) -> None:
    discard_field(s, t.seat, t.field)


def discard_field(s: MafiaState, q: int, f: int) -> None:
    """Every card of ``q``'s field ``f`` to its discard pile."""
    for slot in s.fields[q][f]:
        add_card(s.disc_m if slot.card in MONEY else s.disc_a, slot.card)
    s.fields[q][f] = []


# ---------------------------------------------------------------------------- month end (§12)
def _me_attacks(s: MafiaState, t: Task, ev: Events) -> None:
    """ME1: the attacks, seat by seat down the turn-order column."""
    s.month_end_step = 1
    i = t.position
    if i >= s.n:
        return
    s.tasks.append(t._replace(position=i + 1))
    q = s.order[i]
    x = s.atk[q]
    if x is not None and not x.is_disc:
        s.tasks.append(Task("attack", q, month_end=True))


def _me_jobs(s: MafiaState, t: Task, ev: Events) -> None:
    """ME2: job attempts, seat by seat down the turn-order column."""
    s.month_end_step = 2
    i = t.position
    if i >= s.n:
        return
    s.tasks.append(t._replace(position=i + 1))
    q = s.order[i]
    if s.fields[q][JOB_FIELD]:
        s.tasks.append(Task("job", q))


def _me_columns(s: MafiaState, t: Task, ev: Events) -> None:
    """ME3: the character columns K1 … K4."""
    s.month_end_step = 3
    k = t.column
    if k >= data.CHAR_COLUMNS:
        return
    s.tasks.append(t._replace(column=k + 1))
    s.tasks.append(Task("column", column=k))


def _column(s: MafiaState, t: Task, ev: Events) -> None:
    """§10.1 for column K(k+1): reveal, Barone, eligibility, winner, bonuses, cleanup."""
    k, stage, ties = t.column, t.stage, t.ties
    f = k + 1
    x = s.row[k]
    if stage == 0:
        if not x:
            for q in range(s.n):
                discard_field(s, q, f)
            return
        present = [q for q in s.order if s.fields[q][f]]
        if not present:
            return
        for q in present:
            cards = s.fields[q][f]
            for i, slot in enumerate(cards):
                ignored = slot.ignored
                if slot.card in ACTIONS and ACTIONS[slot.card].symbol == "star":
                    if s.star:
                        ignored = True  # a later star card: ignored (§8.5)
                    else:
                        s.star = True
                cards[i] = slot._replace(seen_by=SEEN_BY_ALL, ignored=ignored)
        s.reveals.append(("column", k + 1, tuple((q, tuple(sl.card for sl in s.fields[q][f])) for q in present)))
        if ev is not None:
            emit(ev, "ml.column_reveal", reveal=True, slot=k + 1, card=names.card(x))
            for q in present:
                emit(ev, "ml.field", reveal=True, seat=q, slot=k + 1,
                     cards=names.cards(sl.card for sl in s.fields[q][f]))
        barone = [q for q in present if s.family[q] == "barone" and not s.ability_used[q]]
        if advanced(s) and barone:
            s.decision = Decision("family_ties", barone[0], column=FIELD_NAMES[f])
            s.tasks.append(t._replace(stage=1, ties=barone[0]))
            return
    tab = s.data
    acts = tab.ACTIONS
    ch = tab.CHARS[x]
    bribe = ch.bribe
    if bribe is not None and event_on(s, "EV01"):
        bribe = max(1, bribe - tab.EV01_BRIBE)
    best, best_score = NOBODY, -1
    for q in s.order:
        cards = s.fields[q][f]
        if not cards:
            continue
        m = sum(MONEY[sl.card] for sl in cards if sl.card in MONEY)
        fist = sum(acts[sl.card].fist for sl in cards if sl.card in acts and not sl.ignored)
        eligible = (bribe is not None and m >= bribe) or (ch.blackmail is not None and fist >= ch.blackmail)
        if q == ties:
            eligible = True
        if not eligible:
            continue
        score = m + fist
        if score > best_score or (q == ties and score == best_score):
            best, best_score = q, score
    if best < 0:
        emit(ev, "ml.no_winner", slot=k + 1, card=names.card(x))
        push(s, Task("column_cleanup", column=k))
        return
    dollars = sum(acts[sl.card].dollar for sl in s.fields[best][f] if sl.card in acts and not sl.ignored)
    push(s, Task("win", best, column=k), Task("win_bonus", best, card=x), draw_task("M", best, dollars, "screen"),
         Task("column_cleanup", best, column=k))


def _win(s: MafiaState, t: Task, ev: Events) -> None:
    k, w = t.column, t.seat
    x = s.row[k]
    s.row[k] = ""
    s.chars[w].append(x)
    s.acquired[w] += 1
    emit(ev, "ml.win_character", seat=w, card=names.card(x))
    update_powers(s, ev)


def _win_bonus(s: MafiaState, t: Task, ev: Events) -> None:
    """Gift, set, then E or A (§10.3); each its own task so the end check runs between."""
    w = t.seat
    tab = s.data
    ch = tab.CHARS[t.card]
    tasks: list[Task] = []
    if ch.gift:
        tasks.append(Task("gift", w, amount=ch.gift + (tab.EV07_GIFT if event_on(s, "EV07") else 0)))
    tasks.append(Task("sets", w))
    if ch.symbol == "E" and advanced(s) and s.month < tab.MONTHS:
        tasks.append(draw_task("E", w, tab.E_DRAW, "event"))
        tasks.append(Task("choose_event", w))
    elif ch.symbol == "A":
        tasks.append(Task("ask_a_draw", w))
    push(s, *tasks)


def _gift(s: MafiaState, t: Task, ev: Events) -> None:
    s.vp[t.seat] += t.amount
    emit(ev, "ml.gift", seat=t.seat, vp=t.amount)


def _sets(s: MafiaState, t: Task, ev: Events) -> None:
    check_sets(s, t.seat, ev)


def check_sets(s: MafiaState, w: int, ev: Events) -> None:
    """Score every gift set ``w`` has just completed (App. C)."""
    for name, (a, b) in data.SETS.items():
        if name not in s.sets[w] and a in s.chars[w] and b in s.chars[w]:
            s.sets[w].append(name)
            vp = s.data.CHARS[a].gift + s.data.CHARS[b].gift
            s.vp[w] += vp
            emit(ev, "ml.set", seat=w, set=name, vp=vp)


def _choose_event(s: MafiaState, t: Task, ev: Events) -> None:
    w = t.seat
    if len(s.event_choice) >= 2:
        s.decision = Decision("choose_event", w)
    elif s.event_choice:
        keep_event(s, w, s.event_choice[0].card, ev)


def keep_event(s: MafiaState, w: int, card: str, ev: Events) -> None:
    """``w`` keeps ``card`` for next month; the others go under the event deck (§10.3)."""
    s.next_events.append(card)
    emit(ev, "ml.event_kept", seat=w, card=names.card(card))
    others = [e.card for e in s.event_choice]
    others.remove(card)
    for other in others:
        s.event_bottom.append(KnownCard(other, w))
    s.event_choice = []


def _ask_a_draw(s: MafiaState, t: Task, ev: Events) -> None:
    s.decision = Decision("a_draw", t.seat)


def _column_cleanup(s: MafiaState, t: Task, ev: Events) -> None:
    """§10.1 step 6/7: winner's money discarded, others' money back behind screens."""
    k, w = t.column, t.seat
    f = k + 1
    for q in range(s.n):
        for slot in s.fields[q][f]:
            c = slot.card
            if c in MONEY:
                if q == w:
                    add_card(s.disc_m, c)
                else:
                    add_card(s.screen[q], c)
            else:
                add_card(s.disc_a, c)
        s.fields[q][f] = []


def _me_refill(s: MafiaState, t: Task, ev: Events) -> None:
    """ME4: empty slots of the character row are refilled; a magnifier acts at once (§10.4)."""
    s.month_end_step = 4
    k = t.column
    if k >= data.CHAR_COLUMNS:
        return
    s.tasks.append(t._replace(column=k + 1))
    if not s.row[k]:
        push(s, draw_task("C", NOBODY, 1, f"row{k}"), Task("magnifier", column=k))


def _magnifier(s: MafiaState, t: Task, ev: Events) -> None:
    x = s.row[t.column]
    if not x or s.data.CHARS[x].symbol != "L" or not advanced(s):
        return
    need = [max(0, count_cards(s.hand_a[q]) - s.data.MAGNIFIER_LIMIT) for q in range(s.n)]
    if any(need):
        s.must_discard = need
        s.set_aside = [[] for _ in range(s.n)]
        s.decision = Decision("discards", reason="magnifier")


def _me_power_vp(s: MafiaState, t: Task, ev: Events) -> None:
    """ME5: power cards score."""
    s.month_end_step = 5
    for i, pw in enumerate(s.data.POWERS):
        h = s.powers[i]
        if h >= 0:
            s.vp[h] += pw.vp
            emit(ev, "ml.power_vp", seat=h, power=names.power(pw.id), vp=pw.vp)


def _me_monthly_bonus(s: MafiaState, t: Task, ev: Events) -> None:
    """ME6: the monthly bonus for the most characters."""
    s.month_end_step = 6
    counts = s.acquired if s.bonus_basis == "month" else [len(c) for c in s.chars]
    top = max(counts)
    if top < 1:
        return
    tied = [q for q in range(s.n) if counts[q] == top]
    mult = 2 if event_on(s, "EV13") else 1
    full = s.month * mult
    bev = s.powers[data.BEVOELKERUNG]
    if len(tied) == 1:
        gains = {tied[0]: full}
    elif advanced(s) and bev in tied:
        gains = {bev: full}
    else:
        gains = {q: (s.month // 2) * mult for q in tied}
    for q, g in gains.items():
        s.vp[q] += g
        emit(ev, "ml.monthly_bonus", seat=q, vp=g)


def _me_income(s: MafiaState, t: Task, ev: Events) -> None:
    """ME7: Wirtschaft's money card; EV08's tax audit."""
    s.month_end_step = 7
    tasks: list[Task] = []
    if advanced(s) and s.powers[data.WIRTSCHAFT] >= 0:
        tasks.append(draw_task("M", s.powers[data.WIRTSCHAFT], 1, "screen"))
    if event_on(s, "EV08"):
        tasks.append(Task("audit"))
    push(s, *tasks)


def _audit(s: MafiaState, t: Task, ev: Events) -> None:
    need = [max(0, count_cards(s.hand_m[q]) + count_cards(s.screen[q]) - s.data.EV08_LIMIT) for q in range(s.n)]
    if any(need):
        s.must_discard = need
        s.set_aside = [[] for _ in range(s.n)]
        s.decision = Decision("discards", reason="audit")


def _me_rotate_job(s: MafiaState, t: Task, ev: Events) -> None:
    """ME8: a job nobody completed goes under the job deck."""
    s.month_end_step = 8
    if s.job_done_month or not s.job:
        return
    if not s.decks["J"] and not s.job_bottom:
        return
    s.job_bottom.append(s.job)
    emit(ev, "ml.job_rotated", job=names.card(s.job))
    s.job = ""
    s.tasks.append(draw_task("J", NOBODY, 1, "job"))


def _me_clear(s: MafiaState, t: Task, ev: Events) -> None:
    """ME9: the grid is cleared, monthly counters reset."""
    s.month_end_step = 9
    for q in range(s.n):
        x = s.atk[q]
        if x is not None and not x.is_disc:
            discard_attack(s, q)
        s.atk[q] = None
        for f in range(len(FIELD_NAMES)):
            discard_field(s, q, f)
    s.this_events = []
    s.star = False
    s.ashtray = 0
    s.acquired = [0] * s.n
    s.job_done_month = False


def _me_december(s: MafiaState, t: Task, ev: Events) -> None:
    """ME10: after December the game ends."""
    s.month_end_step = 10
    if s.month >= s.data.MONTHS:
        finish(s, ev)


def _me_turn_order(s: MafiaState, t: Task, ev: Events) -> None:
    """ME11: the turn order by VP; Politik may move his plaque (§14)."""
    s.month_end_step = 11
    s.order.sort(key=lambda q: s.vp[q])  # stable: equal VP keep their order (§14)
    h = s.powers[data.POLITIK]
    if advanced(s) and h >= 0:
        s.decision = Decision("politik", h)
        s.tasks.append(Task("announce_order"))
        return
    _announce_order(s, t, ev)


def _announce_order(s: MafiaState, t: Task, ev: Events) -> None:
    emit(ev, "ml.order", seats=tuple(s.order))


def _me_new_month(s: MafiaState, t: Task, ev: Events) -> None:
    """ME12: the next month begins: events, payday, June's reshuffle, EV12."""
    s.month += 1
    s.phase = 1
    s.turn_pos = 0
    s.month_end_step = 0
    s.this_events = s.next_events
    s.next_events = []
    if ev is not None:
        emit(ev, "ml.month", month=s.month, name=names.month(s.month))  # the log's section
        emit(ev, "ml.new_month", month=s.month, month_name=names.month(s.month), events=names.cards(s.this_events))
    tasks: list[Task] = []
    if s.month in s.data.PAYDAY_MONTHS:
        chars = s.data.CHARS
        dollars = {q: sum(chars[c].dollars for c in s.chars[q]) for q in s.order}
        for r in range(max(dollars.values(), default=0)):
            tasks += [draw_task("M", q, 1, "screen") for q in s.order if dollars[q] > r]
    if s.month == s.data.RESHUFFLE_MONTH:
        tasks.append(Task("june_reshuffle"))
    if event_on(s, "EV12"):
        tasks += [draw_task("M", q, 1, "screen") for q in s.order]
    tasks.append(Task("turn"))
    push(s, *tasks)


def _june_reshuffle(s: MafiaState, t: Task, ev: Events) -> None:
    """June (§12 ME12): action, money, character and job decks with their discards."""
    for deck, disc in (("A", s.disc_a), ("M", s.disc_m), ("C", s.disc_c)):
        for c, k in disc.items():
            add_card(s.decks[deck], c, k)
        disc.clear()
    for j in s.job_bottom:
        add_card(s.decks["J"], j)
    s.job_bottom = []
    emit(ev, "ml.june_reshuffle")


# ---------------------------------------------------------------------------- powers (§11)
def influence(s: MafiaState, q: int, colour: str) -> int:
    chars = s.data.CHARS
    return sum(chars[c].influence for c in s.chars[q] if chars[c].colour == colour)


def update_powers(s: MafiaState, ev: Events) -> None:
    """Power cards go to the single leader of their colour at or above the threshold (§11)."""
    for i, pw in enumerate(s.data.POWERS):
        infl = [influence(s, q, pw.colour) for q in range(s.n)]
        top = max(infl)
        h = s.powers[i]
        if h >= 0 and infl[h] == top and top >= pw.threshold:
            continue
        leaders = [q for q in range(s.n) if infl[q] == top]
        new = leaders[0] if len(leaders) == 1 and top >= pw.threshold else NOBODY
        if new != h:
            s.powers[i] = new
            if new >= 0:
                emit(ev, "ml.power", power=names.power(pw.id), seat=new)
            else:
                emit(ev, "ml.power_lost", power=names.power(pw.id), seat=h)


# ---------------------------------------------------------------------------- end (§15)
def mission_ok(s: MafiaState, q: int) -> bool:
    """Seat ``q`` fulfils its mission now (always true without missions, App. G)."""
    m = s.mission[q]
    if not s.missions:
        return True
    held = [i for i, h in enumerate(s.powers) if h == q]
    if m in ("M01", "M02", "M03", "M04", "M05"):
        return int(m[1:]) - 1 in held
    if m == "M06":
        return len(held) >= 2
    t = s.data
    if m == "M07":
        return len(s.chars[q]) >= t.M07_CHARACTERS
    if m == "M08":
        return any(a in s.chars[q] and b in s.chars[q] for a, b in data.SETS.values())
    if m == "M09":
        return len(s.jobs_done[q]) >= t.M09_JOBS
    if m == "M10":
        return money_value(s.hand_m[q]) + money_value(s.screen[q]) >= t.M10_MONEY
    if m == "M11":
        return {t.CHARS[c].colour for c in s.chars[q]} >= {p.colour for p in t.POWERS}
    if m == "M12":
        return sum(t.CHARS[c].influence for c in s.chars[q]) >= t.M12_INFLUENCE
    return False


def end_check(s: MafiaState, ev: Events) -> None:
    """§15: the game ends as soon as a seat has the goal (and its mission)."""
    if s.over or max(s.vp) < s.goal:
        return
    qualified = [q for q in range(s.n) if s.vp[q] >= s.goal and mission_ok(s, q)]
    if qualified:
        finish(s, ev, qualified=qualified)


def tiebreak(s: MafiaState, q: int) -> tuple[int, int, int, int]:
    """VP, characters, influence, money (§15)."""
    return (s.vp[q], len(s.chars[q]), sum(s.data.CHARS[c].influence for c in s.chars[q]),
            money_value(s.hand_m[q]) + money_value(s.screen[q]))


def finish(s: MafiaState, ev: Events, *, qualified: list[int] | None = None) -> None:
    s.over = True
    s.decision = None
    s.tasks = []
    s.actors = ()
    if qualified is None:
        qualified = [q for q in range(s.n) if mission_ok(s, q)]
    if qualified:
        best = max(tiebreak(s, q) for q in qualified)
        s.winners = tuple(q for q in qualified if tiebreak(s, q) == best)
    else:
        s.winners = ()
    # hands' money, screens and missions are shown at the end (§15)
    emit(ev, "ml.game_over", reveal=True, seats=s.winners, vp=tuple(s.vp),
         result=Message("ml.go.winners", seats=s.winners) if s.winners else Message("ml.go.nobody"),
         scores=tuple(names.seat_score(q, v) for q, v in enumerate(s.vp)))


TaskHandler = Callable[[MafiaState, Task, Events], None]

TASKS: Final[dict[str, TaskHandler]] = {
    "start_seat": _start_seat,
    "families": _families,
    "deal": _deal,
    "draw": _draw,
    "turn": _turn,
    "resume": _resume,
    "hand_limit": _hand_limit,
    "next_turn": _next_turn,
    "attack": _attack,
    "discard_attack": _discard_attack,
    "attack_effect": _attack_effect,
    "job": _job,
    "roll": _roll,
    "roll_die": _roll_die,
    "job_result": _job_result,
    "job_success": _job_success,
    "discard_field": _discard_field,
    "me_attacks": _me_attacks,
    "me_jobs": _me_jobs,
    "me_columns": _me_columns,
    "column": _column,
    "win": _win,
    "win_bonus": _win_bonus,
    "gift": _gift,
    "sets": _sets,
    "choose_event": _choose_event,
    "ask_a_draw": _ask_a_draw,
    "column_cleanup": _column_cleanup,
    "me_refill": _me_refill,
    "magnifier": _magnifier,
    "me_power_vp": _me_power_vp,
    "me_monthly_bonus": _me_monthly_bonus,
    "me_income": _me_income,
    "audit": _audit,
    "me_rotate_job": _me_rotate_job,
    "me_clear": _me_clear,
    "me_december": _me_december,
    "me_turn_order": _me_turn_order,
    "announce_order": _announce_order,
    "me_new_month": _me_new_month,
    "june_reshuffle": _june_reshuffle,
}
"""Every task kind and its handler: what ``run`` does with a popped task."""
