"""Mafia Legend decisions: the legal actions of each open decision and their effects (§18)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from tablero.core.events import Event
from tablero.core.messages import Message
from tablero.games.mafia import data
from tablero.games.mafia.actions import MLAction, act
from tablero.games.mafia.data import ACTIONS, MONEY
from tablero.games.mafia.rules import ALL, FIELD_NAMES, _add, _ev, _take
from tablero.games.mafia.state import MafiaState

if TYPE_CHECKING:
    from tablero.games.mafia.rules import Mafia

FIELDS = FIELD_NAMES


# ---------------------------------------------------------------------------- legality
def field_open(s: MafiaState, p: int, f: int) -> bool:
    """A field can take a card: its column is open (§4) and the cap is not reached."""
    if f == 0:
        return bool(s.job) and len(s.fields[p][0]) < data.JOB_CAP
    return bool(s.row[f - 1]) and len(s.fields[p][f]) < data.CHAR_CAP


def _plays(game: Mafia, s: MafiaState, p: int) -> list[MLAction]:
    out: list[MLAction] = []
    ev3, ev4, ev14 = game.ev_on(s, "EV03"), game.ev_on(s, "EV04"), game.ev_on(s, "EV14")
    own = [f for f in range(5) if field_open(s, p, f)]
    for c in sorted(s.hand_a[p]):
        card = ACTIONS[c]
        if card.kind == "defence":
            x = s.atk[p]
            if (x is not None and x[0] != "DISC" and x[2] and x[3] == "me" and not x[4]
                    and ACTIONS[x[0]].symbol in card.covers):
                out.append(act("play", c, "hand", f"atk:{p}"))
            continue
        if card.kind == "attack":
            banned = (card.symbol == "cross" and ev3) or (card.symbol == "hand" and ev14)
            if not banned:
                for q in s.order:
                    if q != p and s.atk[q] is None:
                        out.append(act("play", c, "hand", f"atk:{q}"))
                        if card.eye and not ev4:
                            out.append(act("play", c, "hand", f"atk:{q}", "up", "now"))
                            out.append(act("play", c, "hand", f"atk:{q}", "up", "me"))
        out.extend(act("play", c, "hand", FIELDS[f]) for f in own)
    chars = [f for f in own if f > 0]
    for c in sorted(s.hand_m[p]):
        out.extend(act("play", c, "hand", FIELDS[f]) for f in chars)
    for c in sorted(s.screen[p]):
        out.extend(act("play", c, "screen", FIELDS[f]) for f in chars)
    return out


def _money_moves(s: MafiaState, p: int) -> list[MLAction]:
    """Single-card moves between screen and hand before the first play (§7.2, split)."""
    out = [act("to_hand", c) for c in sorted(s.screen[p]) if s.screen[p][c] > s.mm_screen.get(c, 0)]
    out += [act("to_screen", c) for c in sorted(s.hand_m[p]) if s.hand_m[p][c] > s.mm_hand.get(c, 0)]
    return out


def _abilities(game: Mafia, s: MafiaState, p: int) -> list[MLAction]:
    if not game.adv(s) or s.ability_used[p]:
        return []
    fam = s.family[p]
    if fam == "moretti":
        return [act("ability", "geldwaesche")]
    if fam == "rinaldi":
        return [act("ability", "spitzel")]
    if fam == "orsini" and s.played == 0 and s.step <= 2:
        return [act("ability", "grossoffensive")]
    return []


def job_field_cards(s: MafiaState, p: int, immediate: bool) -> list[str]:
    return [sl[0] for sl in s.fields[p][0]
            if not (immediate and sl[0] in ACTIONS and ACTIONS[sl[0]].symbol == "star")]


def legal(game: Mafia, s: MafiaState, p: int) -> list[MLAction]:
    kind = s.pend[0]
    if kind == "family":
        taken = set(s.family)
        return [act("family", f) for f in data.FAMILIES if f not in taken]
    if kind == "turn":
        out: list[MLAction] = []
        if s.step == 1:
            out.append(act("disc", "none"))
            if s.discs[p] and not game.ev_on(s, "EV16"):
                if s.ashtray < (2 if game.ev_on(s, "EV09") else 1):
                    out += [act("disc", "ashtray_money"), act("disc", "ashtray_actions")]
                if s.atk[p] is None:
                    out.append(act("disc", "protect"))
        elif s.step == 2:
            if s.played < s.limit:
                out += _plays(game, s, p)
            out.append(act("end_plays"))
        elif s.step == 3:
            cards = job_field_cards(s, p, True)
            if game.job_tags_ok(s, cards) or game.job_dice(cards) > 0:
                out.append(act("job_attempt"))
            out.append(act("job_skip"))
        if s.step in (1, 2) and s.played == 0:
            out += _money_moves(s, p)
        out += _abilities(game, s, p)
        return out
    if kind == "discard":
        return [act("discard", c, "hand") for c in sorted(s.hand_a[p])]
    if kind == "discards":
        if s.pend[2] == "magnifier":
            return [act("set_aside", c, "hand") for c in sorted(s.hand_a[p])]
        return ([act("set_aside", c, "hand") for c in sorted(s.hand_m[p])]
                + [act("set_aside", c, "screen") for c in sorted(s.screen[p])])
    if kind in ("guardian", "family_ties"):
        return [act(kind, "yes"), act(kind, "no")]
    if kind == "a_draw":
        return [act("a_draw", "yes"), act("a_draw", "no")]
    if kind == "defend":
        x = s.atk[p]
        assert x is not None
        sym = ACTIONS[x[0]].symbol
        return [act("defend", c) for c in sorted(s.hand_a[p])
                if ACTIONS[c].kind == "defence" and sym in ACTIONS[c].covers] + [act("no_defence")]
    if kind == "raid":
        target = s.pend[2]
        return [act("raid", FIELDS[f]) for f in range(5) if s.fields[target][f]]
    if kind == "hit":
        return [act("hit", c) for c in sorted(set(s.chars[s.pend[2]]))]
    if kind == "hand_over":
        return [act("hand_over", c) for c in sorted(set(s.chars[p]))]
    if kind == "job_roll":
        return [act("job_roll"), act("job_abandon")]
    if kind == "reroll":
        n = len(s.dice)
        subsets = [c for k in range(1, n + 1) for c in combinations(range(n), k)]
        return [act("reroll", ",".join(str(i) for i in c)) for c in subsets] + [act("no_reroll")]
    if kind == "choose_event":
        return [act("choose_event", c) for c in sorted({e[0] for e in s.event_choice})]
    if kind == "politik":
        return [act("politik", i + 1) for i in range(s.n)]
    if kind == "spitzel_column":
        return [act("spitzel_column", c) for c in ("atk", *FIELDS)]
    if kind == "spitzel_take":
        return [*_spitzel_takes(s, p), act("spitzel_done")]
    raise AssertionError(f"unknown decision {kind}")


def _spitzel_takes(s: MafiaState, p: int) -> list[MLAction]:
    col = s.pend[2]
    out: list[MLAction] = []
    if col == "atk":
        for q in range(s.n):
            x = s.atk[q]
            if x is not None and x[0] != "DISC" and x[1] == p and not x[4]:
                out.append(act("spitzel_take", f"atk:{q}", x[0], "hand"))
        return out
    f = FIELDS.index(col)
    for c in sorted({sl[0] for sl in s.fields[p][f]}):
        if c in MONEY:
            out += [act("spitzel_take", col, c, "hand"), act("spitzel_take", col, c, "screen")]
        else:
            out.append(act("spitzel_take", col, c, "hand"))
    return out


# ---------------------------------------------------------------------------- effects
def decide(game: Mafia, s: MafiaState, p: int, a: MLAction, ev: list[Event] | None) -> None:
    kind = s.pend[0]
    pend = s.pend
    if kind != "discards":
        s.pend = ()
    k = a.kind
    if kind == "family":
        s.family[p] = a.args[0]
        _ev(ev, "ml.family", seat=p, family=a.args[0])
        return
    if kind == "turn":
        _turn_action(game, s, p, a, ev)
        return
    if kind == "discard":
        c = a.args[0]
        _take(s.hand_a[p], c)
        _add(s.disc_a, c)
        s.pneed[p] -= 1
        _ev(ev, "ml.discard", seat=p, card=c)
        if s.pneed[p] > 0:
            s.pend = pend
        return
    if kind == "discards":
        c, src = a.args
        zone = s.hand_a[p] if pend[2] == "magnifier" else (s.hand_m[p] if src == "hand" else s.screen[p])
        _take(zone, c)
        _add(s.pdisc[p], c)
        s.pneed[p] -= 1
        _ev(ev, "ml.discard_secret", (p,), Message("ml.discard_secret.hidden", seat=p), seat=p, card=c)
        if any(s.pneed):
            return
        s.pend = ()
        for q in range(s.n):
            cards = s.pdisc[q]
            if not cards:
                continue
            n = sum(cards.values())
            for c2, m in cards.items():
                _add(s.disc_m if c2 in MONEY else s.disc_a, c2, m)
            cost = 0
            if pend[2] == "magnifier":
                cost = min(s.vp[q], n * data.MAGNIFIER_COST)
                s.vp[q] -= cost
            _ev(ev, "ml.discards", seat=q, cards=tuple(sorted(c2 for c2, m in cards.items() for _ in range(m))),
                vp=cost)
            s.pdisc[q] = {}
        return
    if kind == "guardian":
        if a.args[0] == "yes":
            s.ability_used[p] = True
            _ev(ev, "ml.guardian", seat=p)
            game._discard_attack(s, p, ev)
        return
    if kind == "defend":
        if k == "defend":
            c = a.args[0]
            _take(s.hand_a[p], c)
            x = s.atk[p]
            assert x is not None
            x[4] = c
            _ev(ev, "ml.defend", seat=p, card=c)
        else:
            _ev(ev, "ml.no_defence", seat=p)
        return
    if kind == "raid":
        game.raid(s, pend[2], FIELDS.index(a.args[0]), ev)
        return
    if kind == "hit":
        game.lose_character(s, pend[2], a.args[0], -1, ev)
        return
    if kind == "hand_over":
        game.lose_character(s, p, a.args[0], pend[2], ev)
        return
    if kind == "job_roll":
        if k == "job_roll":
            s.tasks.append(("roll", p, pend[2], pend[3]))
        else:
            _ev(ev, "ml.job_abandon", seat=p)
            game._discard_field(s, p, 0, ev)
        return
    if kind == "reroll":
        if k == "reroll":
            s.ability_used[p] = True
            idx = {int(i) for i in a.args[0].split(",")}
            s.dice = [d for i, d in enumerate(s.dice) if i not in idx]
            _ev(ev, "ml.reroll", seat=p, count=len(idx))
            game._push(s, *[("roll_die",)] * len(idx), ("job_result", p, pend[2], True))
        else:
            s.tasks.append(("job_result", p, pend[2], True))
        return
    if kind == "family_ties":
        if a.args[0] == "yes":
            s.ability_used[p] = True
            _ev(ev, "ml.family_ties", seat=p)
        else:
            t = s.tasks.pop()
            s.tasks.append((t[0], t[1], t[2], -1))
        return
    if kind == "choose_event":
        game.keep_event(s, p, a.args[0], ev)
        return
    if kind == "a_draw":
        if a.args[0] == "yes":
            s.tasks.append(("draw", "A", p, data.A_DRAW, "hand"))
        return
    if kind == "politik":
        pos = int(a.args[0]) - 1
        s.order.remove(p)
        s.order.insert(pos, p)
        _ev(ev, "ml.politik", seat=p, position=pos + 1)
        return
    if kind == "spitzel_column":
        col = a.args[0]
        bit = 1 << p
        if col == "atk":
            for x in s.atk:
                if x is not None and x[0] != "DISC":
                    x[5] |= bit
        else:
            f = FIELDS.index(col)
            for q in range(s.n):
                for sl in s.fields[q][f]:
                    sl[2] |= bit
        _ev(ev, "ml.spitzel_column", seat=p, column=col)
        if col == "atk":
            seen = tuple(x[0] for x in s.atk if x is not None and x[0] != "DISC")
        else:
            seen = tuple(sl[0] for q in range(s.n) for sl in s.fields[q][FIELDS.index(col)])
        _ev(ev, "ml.spitzel_seen", (p,), None, seat=p, column=col, cards=seen)
        s.pend = ("spitzel_take", p, col, 0)
        return
    if kind == "spitzel_take":
        if k == "spitzel_done":
            s.tasks.append(("resume",))
            return
        where, c, to = a.args
        if where.startswith("atk:"):
            q = int(where[4:])
            s.atk[q] = None
            _add(s.hand_a[p], c)
        else:
            f = FIELDS.index(where)
            slot = next(sl for sl in s.fields[p][f] if sl[0] == c)
            s.fields[p][f].remove(slot)
            if c in MONEY:
                _add(s.hand_m[p] if to == "hand" else s.screen[p], c)
            else:
                _add(s.hand_a[p], c)
        _ev(ev, "ml.spitzel_take", seat=p, field=where, to=to)
        if pend[3] + 1 < data.SPITZEL_TAKE:
            s.pend = ("spitzel_take", p, pend[2], pend[3] + 1)
        else:
            s.tasks.append(("resume",))
        return
    raise AssertionError(f"unknown decision {kind}")


def _turn_action(game: Mafia, s: MafiaState, p: int, a: MLAction, ev: list[Event] | None) -> None:
    k = a.kind
    if k == "disc":
        what = a.args[0]
        s.step = 2
        if what != "none":
            s.discs[p] -= 1
        if what == "protect":
            s.atk[p] = ["DISC", p, True, "", "", ALL]
        elif what.startswith("ashtray"):
            s.ashtray += 1
        _ev(ev, "ml.disc", seat=p, where=what)
        if what == "ashtray_money":
            s.tasks.append(("resume",))
            s.tasks.append(("draw", "M", p, data.ASHTRAY_MONEY, "screen"))
        elif what == "ashtray_actions":
            s.tasks.append(("resume",))
            s.tasks.append(("draw", "A", p, data.ASHTRAY_ACTIONS, "hand"))
        else:
            s.tasks.append(("resume",))
        return
    if k in ("to_hand", "to_screen"):
        c = a.args[0]
        if k == "to_hand":
            _take(s.screen[p], c)
            _add(s.hand_m[p], c)
            _add(s.mm_hand, c)
        else:
            _take(s.hand_m[p], c)
            _add(s.screen[p], c)
            _add(s.mm_screen, c)
        _ev(ev, "ml.money_move", (p,), Message(f"ml.{k}.hidden", seat=p), seat=p, card=c, to=k)
        s.tasks.append(("resume",))
        return
    if k == "play":
        _play(game, s, p, a, ev)
        return
    if k == "end_plays":
        s.step = 3
        _ev(ev, "ml.end_plays", seat=p)
        s.tasks.append(("resume",))
        return
    if k == "job_attempt":
        s.step = 4
        _ev(ev, "ml.job_attempt", seat=p)
        game._push(s, ("job", p, True), ("resume",))
        return
    if k == "job_skip":
        s.step = 4
        s.tasks.append(("resume",))
        return
    if k == "ability":
        s.ability_used[p] = True
        what = a.args[0]
        _ev(ev, "ml.ability", seat=p, ability=what)
        if what == "geldwaesche":
            game._push(s, ("draw", "M", p, data.GELDWAESCHE, "screen"), ("resume",))
        elif what == "spitzel":
            s.pend = ("spitzel_column", p)
        else:
            s.grossoffensive = True
            s.limit = 2 * data.CURFEW_LIMIT if game.ev_on(s, "EV11") else data.ORSINI_LIMIT
            s.tasks.append(("resume",))
        return
    raise AssertionError(f"unexpected turn action {a.to_text()}")


def _play(game: Mafia, s: MafiaState, p: int, a: MLAction, ev: list[Event] | None) -> None:
    c, src, where = a.args[0], a.args[1], a.args[2]
    up = len(a.args) > 3
    if c in MONEY:
        _take(s.hand_m[p] if src == "hand" else s.screen[p], c)
    else:
        _take(s.hand_a[p], c)
    s.played += 1
    s.step = 2
    if where.startswith("atk:"):
        q = int(where[4:])
        if q == p:  # a defence card onto the face-up attack in his own field
            x = s.atk[p]
            assert x is not None
            x[4] = c
            _ev(ev, "ml.defend", seat=p, card=c)
            s.tasks.append(("resume",))
            return
        timing = a.args[4] if up else "me"
        s.atk[q] = [c, p, up, timing, "", ALL if up else 1 << p]
        if up:
            _ev(ev, "ml.attack_up", seat=p, target_seat=q, card=c, timing=timing)
        else:
            _ev(ev, "ml.attack_down", seat=p, target_seat=q)
        s.tasks.append(("resume",))
        if up and timing == "now":
            s.tasks.append(("attack", q, 0, False))
        return
    f = FIELDS.index(where)
    s.fields[p][f].append([c, "H" if src == "hand" else "S", 1 << p, False])
    _ev(ev, "ml.play_down", (p,), Message("ml.play_down.hidden", seat=p, field=where, source=src),
        seat=p, card=c, field=where, source=src)
    s.tasks.append(("resume",))
