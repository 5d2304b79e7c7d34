"""Mafia Legend decisions: the legal actions of each open decision, their effects (§18), and
what the other seats see of an action (the one redaction of the game)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from tablero.core.messages import Message
from tablero.core.protocol import CHANCE, Viewer
from tablero.games.mafia import data, names
from tablero.games.mafia.actions import (
    FIELD_NAMES,
    JOB_FIELD,
    MONEY_MOVES,
    SPITZEL_COLUMNS,
    MLAction,
    act,
    reroll_subsets,
    reroll_text,
)
from tablero.games.mafia.data import ACTIONS, MONEY
from tablero.games.mafia.engine import (
    Events,
    add_card,
    advanced,
    discard_attack,
    discard_field,
    draw_task,
    emit,
    event_on,
    job_dice,
    job_field_cards,
    job_tags_ok,
    keep_event,
    lose_character,
    push,
    raid,
    take_card,
)
from tablero.games.mafia.state import DISC, SEEN_BY_ALL, AttackSlot, Decision, GridCard, MafiaState, SetAside, Task


# ---------------------------------------------------------------------------- legality
def field_open(s: MafiaState, p: int, f: int) -> bool:
    """A field can take a card: its column is open (§4) and the cap is not reached."""
    if f == JOB_FIELD:
        return bool(s.job) and len(s.fields[p][JOB_FIELD]) < s.data.JOB_CAP
    return bool(s.row[f - 1]) and len(s.fields[p][f]) < s.data.CHAR_CAP


def _plays(s: MafiaState, p: int) -> list[MLAction]:
    out: list[MLAction] = []
    ev3, ev4, ev14 = event_on(s, "EV03"), event_on(s, "EV04"), event_on(s, "EV14")
    own = [f for f in range(5) if field_open(s, p, f)]
    for c in sorted(s.hand_a[p]):
        card = ACTIONS[c]
        if card.kind == "defence":
            x = s.atk[p]
            if (x is not None and not x.is_disc and x.face_up and x.timing == "me" and not x.defence
                    and ACTIONS[x.card].symbol in card.covers):
                out.append(act("play", c, "hand", f"atk:{p}"))
            continue
        if card.kind == "attack":
            banned = (card.symbol == "cross" and ev3) or (card.symbol == "hand" and ev14)
            if not banned:
                for q in range(s.n):
                    if q != p and s.atk[q] is None:
                        out.append(act("play", c, "hand", f"atk:{q}"))
                        if card.eye and not ev4:
                            out.append(act("play", c, "hand", f"atk:{q}", "up", "now"))
                            out.append(act("play", c, "hand", f"atk:{q}", "up", "me"))
        out.extend(act("play", c, "hand", FIELD_NAMES[f]) for f in own)
    chars = [f for f in own if f > 0]
    for c in sorted(s.hand_m[p]):
        out.extend(act("play", c, "hand", FIELD_NAMES[f]) for f in chars)
    for c in sorted(s.screen[p]):
        out.extend(act("play", c, "screen", FIELD_NAMES[f]) for f in chars)
    return out


def _money_moves(s: MafiaState, p: int) -> list[MLAction]:
    """Single-card moves between screen and hand before the first play (§7.2, split)."""
    out = [act("to_hand", c) for c in sorted(s.screen[p]) if s.screen[p][c] > s.moved_to_screen.get(c, 0)]
    out += [act("to_screen", c) for c in sorted(s.hand_m[p]) if s.hand_m[p][c] > s.moved_to_hand.get(c, 0)]
    return out


def _abilities(s: MafiaState, p: int) -> list[MLAction]:
    if not advanced(s) or s.ability_used[p]:
        return []
    fam = s.family[p]
    if fam == "moretti":
        return [act("ability", "geldwaesche")]
    if fam == "rinaldi":
        return [act("ability", "spitzel")]
    if fam == "orsini" and s.played == 0 and s.step <= 2:
        return [act("ability", "grossoffensive")]
    return []


def _uncommitted(zone: dict[str, int], committed: list[SetAside], source: str) -> list[str]:
    """The cards of ``zone`` not yet set aside from it (sorted)."""
    left = dict(zone)
    for sa in committed:
        if sa.source == source:
            take_card(left, sa.card)
    return sorted(left)


def _turn_options(s: MafiaState, p: int, d: Decision) -> list[MLAction]:
    out: list[MLAction] = []
    if s.step == 1:
        out.append(act("disc", "none"))
        if s.discs[p] and not event_on(s, "EV16"):
            if s.ashtray < (2 if event_on(s, "EV09") else 1):
                out += [act("disc", "ashtray_money"), act("disc", "ashtray_actions")]
            if s.atk[p] is None:
                out.append(act("disc", "protect"))
    elif s.step == 2:
        if s.played < s.limit:
            out += _plays(s, p)
        out.append(act("end_plays"))
    elif s.step == 3:
        cards = job_field_cards(s, p, True)
        if job_tags_ok(s, cards) or job_dice(s.data, cards) > 0:
            out.append(act("job_attempt"))
        out.append(act("job_skip"))
    if s.step in (1, 2) and s.played == 0:
        out += _money_moves(s, p)
    out += _abilities(s, p)
    return out


def _discard_options(s: MafiaState, p: int, d: Decision) -> list[MLAction]:
    return [act("discard", c, "hand") for c in sorted(s.hand_a[p])]


def _set_aside_options(s: MafiaState, p: int, d: Decision) -> list[MLAction]:
    done = s.set_aside[p]
    if d.reason == "magnifier":
        return [act("set_aside", c, "hand") for c in _uncommitted(s.hand_a[p], done, "hand")]
    return ([act("set_aside", c, "hand") for c in _uncommitted(s.hand_m[p], done, "hand")]
            + [act("set_aside", c, "screen") for c in _uncommitted(s.screen[p], done, "screen")])


def _defend_options(s: MafiaState, p: int, d: Decision) -> list[MLAction]:
    x = s.atk[p]
    assert x is not None
    sym = ACTIONS[x.card].symbol
    return [act("defend", c) for c in sorted(s.hand_a[p])
            if ACTIONS[c].kind == "defence" and sym in ACTIONS[c].covers] + [act("no_defence")]


def _reroll_options(s: MafiaState, p: int, d: Decision) -> list[MLAction]:
    return [act("reroll", reroll_text(sub)) for sub in reroll_subsets(len(s.dice))] + [act("no_reroll")]


def _spitzel_takes(s: MafiaState, p: int, d: Decision) -> list[MLAction]:
    col = d.column
    out: list[MLAction] = []
    if col == "atk":
        for q in range(s.n):
            x = s.atk[q]
            if x is not None and not x.is_disc and x.attacker == p and not x.defence:
                out.append(act("spitzel_take", f"atk:{q}", x.card, "hand"))
    else:
        f = FIELD_NAMES.index(col)
        for c in sorted({sl.card for sl in s.fields[p][f]}):
            if c in MONEY:
                out += [act("spitzel_take", col, c, "hand"), act("spitzel_take", col, c, "screen")]
            else:
                out.append(act("spitzel_take", col, c, "hand"))
    out.append(act("spitzel_done"))
    return out


def _yes_no(kind: str) -> Callable[[MafiaState, int, Decision], list[MLAction]]:
    both = [act(kind, "yes"), act(kind, "no")]
    return lambda s, p, d: both


OPTIONS: Final[dict[str, Callable[[MafiaState, int, Decision], list[MLAction]]]] = {
    "family": lambda s, p, d: [act("family", f) for f in data.FAMILIES if f not in s.family],
    "turn": _turn_options,
    "discard": _discard_options,
    "discards": _set_aside_options,
    "guardian": _yes_no("guardian"),
    "family_ties": _yes_no("family_ties"),
    "a_draw": _yes_no("a_draw"),
    "defend": _defend_options,
    "raid": lambda s, p, d: [act("raid", FIELD_NAMES[f]) for f in range(5) if s.fields[d.target][f]],
    "hit": lambda s, p, d: [act("hit", c) for c in sorted(set(s.chars[d.target]))],
    "hand_over": lambda s, p, d: [act("hand_over", c) for c in sorted(set(s.chars[p]))],
    "job_roll": lambda s, p, d: [act("job_roll"), act("job_abandon")],
    "reroll": _reroll_options,
    "choose_event": lambda s, p, d: [act("choose_event", c) for c in sorted({e.card for e in s.event_choice})],
    "politik": lambda s, p, d: [act("politik", i + 1) for i in range(s.n)],
    "spitzel_column": lambda s, p, d: [act("spitzel_column", c) for c in SPITZEL_COLUMNS],
    "spitzel_take": _spitzel_takes,
}
"""The legal actions of each decision kind, in action-index order (``actions.seat_actions``)."""


def legal_actions(s: MafiaState, p: int) -> tuple[MLAction, ...]:
    """Seat ``p``'s legal actions in the open decision (``p`` is to act)."""
    d = s.decision
    assert d is not None
    return tuple(OPTIONS[d.kind](s, p, d))


# ---------------------------------------------------------------------------- effects
def decide(s: MafiaState, p: int, a: MLAction, ev: Events) -> None:
    """Seat ``p`` takes the legal action ``a`` in the open decision."""
    d = s.decision
    assert d is not None
    if d.kind != "discards":
        s.decision = None
    EFFECTS[d.kind](s, p, a, d, ev)


def _family(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    s.family[p] = a.args[0]
    emit(ev, "ml.family", seat=p, family=names.family(a.args[0]))


def _discard(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    c = a.args[0]
    take_card(s.hand_a[p], c)
    add_card(s.disc_a, c)
    s.must_discard[p] -= 1
    emit(ev, "ml.discard", seat=p, card=names.card(c))
    if s.must_discard[p] > 0:
        s.decision = d


def _set_aside(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    """One secret commitment of a simultaneous discard; hidden until every seat has chosen,
    then all are applied and shown together (§10.4, EV08, §17)."""
    c, src = a.args
    s.set_aside[p].append(SetAside(c, src))
    s.must_discard[p] -= 1
    emit(ev, "ml.discard_secret", (p,), Message("ml.discard_secret.hidden", seat=p), seat=p, card=names.card(c),
         source=names.source(src))
    if any(s.must_discard):
        return
    s.decision = None
    for q in range(s.n):
        cards = s.set_aside[q]
        if not cards:
            continue
        for sa in cards:
            if d.reason == "magnifier":
                take_card(s.hand_a[q], sa.card)
            else:
                take_card(s.hand_m[q] if sa.source == "hand" else s.screen[q], sa.card)
            add_card(s.disc_m if sa.card in MONEY else s.disc_a, sa.card)
        cost = 0
        if d.reason == "magnifier":
            cost = min(s.vp[q], len(cards) * s.data.MAGNIFIER_COST)
            s.vp[q] -= cost
        if ev is not None:  # names only for a log (playouts pass none)
            emit(ev, "ml.discards", reveal=True, seat=q, cards=names.cards(sorted(sa.card for sa in cards)), vp=cost)
        s.set_aside[q] = []


def _guardian(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    if a.args[0] == "yes":
        s.ability_used[p] = True
        emit(ev, "ml.guardian", seat=p)
        discard_attack(s, p)


def _defend(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    if a.kind == "defend":
        c = a.args[0]
        take_card(s.hand_a[p], c)
        x = s.atk[p]
        assert x is not None
        s.atk[p] = x._replace(defence=c)
        emit(ev, "ml.defend", seat=p, card=names.card(c))
    else:
        emit(ev, "ml.no_defence", seat=p)


def _raid(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    raid(s, d.target, FIELD_NAMES.index(a.args[0]), ev)


def _hit(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    lose_character(s, d.target, a.args[0], -1, ev)


def _hand_over(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    lose_character(s, p, a.args[0], d.receiver, ev)


def _job_roll(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    if a.kind == "job_roll":
        s.tasks.append(Task("roll", p, amount=d.dice))
    else:
        emit(ev, "ml.job_abandon", seat=p)
        discard_field(s, p, JOB_FIELD)


def _reroll(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    if a.kind == "reroll":
        s.ability_used[p] = True
        idx = {int(i) for i in a.args[0].split(",")}
        s.dice = [v for i, v in enumerate(s.dice) if i not in idx]
        emit(ev, "ml.reroll", seat=p, count=len(idx))
        push(s, *[Task("roll_die")] * len(idx), Task("job_result", p, rerolled=True))
    else:
        s.tasks.append(Task("job_result", p, rerolled=True))


def _family_ties(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    if a.args[0] == "yes":
        s.ability_used[p] = True
        emit(ev, "ml.family_ties", seat=p)
    else:
        column = s.tasks.pop()
        s.tasks.append(column._replace(ties=-1))


def _choose_event(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    keep_event(s, p, a.args[0], ev)


def _a_draw(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    if a.args[0] == "yes":
        s.tasks.append(draw_task("A", p, s.data.A_DRAW, "hand"))


def _politik(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    pos = int(a.args[0]) - 1
    s.order.remove(p)
    s.order.insert(pos, p)
    emit(ev, "ml.politik", seat=p, position=pos + 1)


def _spitzel_column(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    col = a.args[0]
    bit = 1 << p
    if col == "atk":
        for q, x in enumerate(s.atk):
            if x is not None and not x.is_disc:
                s.atk[q] = x._replace(seen_by=x.seen_by | bit)
        seen = tuple(x.card for x in s.atk if x is not None and not x.is_disc)
    else:
        f = FIELD_NAMES.index(col)
        for q in range(s.n):
            cards = s.fields[q][f]
            for i, sl in enumerate(cards):
                cards[i] = sl._replace(seen_by=sl.seen_by | bit)
        seen = tuple(sl.card for q in range(s.n) for sl in s.fields[q][f])
    emit(ev, "ml.spitzel_column", seat=p, column=names.column(col))
    if ev is not None:
        emit(ev, "ml.spitzel_seen", (p,), None, seat=p, column=names.column(col), cards=names.cards(seen))
    s.decision = Decision("spitzel_take", p, column=col)


def _spitzel_take(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    if a.kind == "spitzel_done":
        s.tasks.append(Task("resume"))
        return
    where, c, to = a.args
    if where.startswith("atk:"):
        s.atk[int(where[4:])] = None
        add_card(s.hand_a[p], c)
    else:
        f = FIELD_NAMES.index(where)
        slot = next(sl for sl in s.fields[p][f] if sl.card == c)
        s.fields[p][f].remove(slot)
        if c in MONEY:
            add_card(s.hand_m[p] if to == "hand" else s.screen[p], c)
        else:
            add_card(s.hand_a[p], c)
    emit(ev, "ml.spitzel_take", seat=p, field=names.field(where), to=names.destination(to))
    if d.taken + 1 < s.data.SPITZEL_TAKE:
        s.decision = d._replace(taken=d.taken + 1)
    else:
        s.tasks.append(Task("resume"))


# ---------------------------------------------------------------------------- a turn's steps (§7)
def _turn(s: MafiaState, p: int, a: MLAction, d: Decision, ev: Events) -> None:
    TURN_EFFECTS[a.kind](s, p, a, ev)


def _disc(s: MafiaState, p: int, a: MLAction, ev: Events) -> None:
    what = a.args[0]
    s.step = 2
    if what != "none":
        s.discs[p] -= 1
    if what == "protect":
        s.atk[p] = AttackSlot(DISC, p, True, "", "", SEEN_BY_ALL)
    elif what.startswith("ashtray"):
        s.ashtray += 1
    emit(ev, f"ml.disc.{what}", seat=p, n=names.disc_draws(s.data, what))
    s.tasks.append(Task("resume"))
    if what == "ashtray_money":
        s.tasks.append(draw_task("M", p, s.data.ASHTRAY_MONEY, "screen"))
    elif what == "ashtray_actions":
        s.tasks.append(draw_task("A", p, s.data.ASHTRAY_ACTIONS, "hand"))


def _move_money(s: MafiaState, p: int, a: MLAction, ev: Events) -> None:
    c = a.args[0]
    if a.kind == "to_hand":
        take_card(s.screen[p], c)
        add_card(s.hand_m[p], c)
        add_card(s.moved_to_hand, c)
    else:
        take_card(s.hand_m[p], c)
        add_card(s.screen[p], c)
        add_card(s.moved_to_screen, c)
    emit(ev, f"ml.{a.kind}", (p,), Message(f"ml.{a.kind}.hidden", seat=p), seat=p, card=names.card(c))
    s.tasks.append(Task("resume"))


def _end_plays(s: MafiaState, p: int, a: MLAction, ev: Events) -> None:
    s.step = 3
    emit(ev, "ml.end_plays", seat=p)
    s.tasks.append(Task("resume"))


def _job_attempt(s: MafiaState, p: int, a: MLAction, ev: Events) -> None:
    s.step = 4
    emit(ev, "ml.job_attempt", seat=p)
    push(s, Task("job", p, immediate=True), Task("resume"))


def _job_skip(s: MafiaState, p: int, a: MLAction, ev: Events) -> None:
    s.step = 4
    s.tasks.append(Task("resume"))


def _ability(s: MafiaState, p: int, a: MLAction, ev: Events) -> None:
    s.ability_used[p] = True
    what = a.args[0]
    emit(ev, "ml.ability", seat=p, ability=names.ability(what, s.data))
    if what == "geldwaesche":
        push(s, draw_task("M", p, s.data.GELDWAESCHE, "screen"), Task("resume"))
    elif what == "spitzel":
        s.decision = Decision("spitzel_column", p)
    else:
        s.grossoffensive = True
        s.limit = 2 * s.data.CURFEW_LIMIT if event_on(s, "EV11") else s.data.ORSINI_LIMIT
        s.tasks.append(Task("resume"))


def _play(s: MafiaState, p: int, a: MLAction, ev: Events) -> None:
    c, src, where = a.args[0], a.args[1], a.args[2]
    up = len(a.args) > 3
    if c in MONEY:
        take_card(s.hand_m[p] if src == "hand" else s.screen[p], c)
    else:
        take_card(s.hand_a[p], c)
    s.played += 1
    s.step = 2
    if where.startswith("atk:"):
        q = int(where[4:])
        if q == p:  # a defence card onto the face-up attack in his own field
            x = s.atk[p]
            assert x is not None
            s.atk[p] = x._replace(defence=c)
            emit(ev, "ml.defend", seat=p, card=names.card(c))
            s.tasks.append(Task("resume"))
            return
        timing = a.args[4] if up else "me"
        s.atk[q] = AttackSlot(c, p, up, timing, "", SEEN_BY_ALL if up else 1 << p)
        if up:
            emit(ev, "ml.attack_up", seat=p, target_seat=q, card=names.card(c), timing=names.timing(timing))
        else:
            emit(ev, "ml.attack_down", seat=p, target_seat=q)
        s.tasks.append(Task("resume"))
        if up and timing == "now":
            s.tasks.append(Task("attack", q))
        return
    f = FIELD_NAMES.index(where)
    s.fields[p][f].append(GridCard(c, "H" if src == "hand" else "S", 1 << p))
    field, source = names.field(where), names.source(src)
    emit(ev, "ml.play_down", (p,), Message("ml.play_down.hidden", seat=p, field=field, source=source),
         seat=p, card=names.card(c), field=field, source=source)
    s.tasks.append(Task("resume"))


Effect = Callable[[MafiaState, int, MLAction, Decision, Events], None]
TurnEffect = Callable[[MafiaState, int, MLAction, Events], None]

TURN_EFFECTS: Final[dict[str, TurnEffect]] = {
    "disc": _disc,
    "to_hand": _move_money,
    "to_screen": _move_money,
    "play": _play,
    "end_plays": _end_plays,
    "job_attempt": _job_attempt,
    "job_skip": _job_skip,
    "ability": _ability,
}
"""The effect of each action kind of a turn decision (steps 1-3)."""

EFFECTS: Final[dict[str, Effect]] = {
    "family": _family,
    "turn": _turn,
    "discard": _discard,
    "discards": _set_aside,
    "guardian": _guardian,
    "defend": _defend,
    "raid": _raid,
    "hit": _hit,
    "hand_over": _hand_over,
    "job_roll": _job_roll,
    "reroll": _reroll,
    "family_ties": _family_ties,
    "choose_event": _choose_event,
    "a_draw": _a_draw,
    "politik": _politik,
    "spitzel_column": _spitzel_column,
    "spitzel_take": _spitzel_take,
}
"""The effect of an action in each decision kind."""


# ---------------------------------------------------------------------------- redaction
def redact_action(s: MafiaState, player: int, a: MLAction, viewer: Viewer) -> MLAction:
    """What ``viewer`` sees of ``player`` taking ``a`` in ``s`` (before it is applied).

    The actor sees everything. The others do not see the card of a face-down play (``play hand
    atk:2``), of a money move (``to_hand``), of a Spitzel take-back (``spitzel_take k2 hand``) or
    of a secret discard (``set_aside``), nor a card drawn for another seat (``draw``). Public
    plays (face up, a defence card), public draws (row, job) and everything else stay whole.
    """
    if viewer is not None and viewer == player:
        return a
    k = a.kind
    if player == CHANCE:
        if k == "draw":
            d = s.decision
            if d is not None and d.kind == "chance_draw" and d.seat >= 0 and viewer != d.seat:
                return act("draw")
        return a
    if k in MONEY_MOVES or k == "set_aside":
        return act(k)
    if k == "spitzel_take" and len(a.args) == 3:
        return act("spitzel_take", a.args[0], a.args[2])
    if k == "play" and len(a.args) == 3 and a.args[2] != f"atk:{player}":
        return act("play", a.args[1], a.args[2])
    return a
