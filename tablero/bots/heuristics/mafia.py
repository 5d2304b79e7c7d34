"""A greedy Mafia Legend bot: plans the rest of its turn from the seat's view only.

The bot looks at nothing but its ``MafiaView`` and the legal actions. On its turn it scores
short *plans* (at most the plays left this turn) and plays the first card of the best one:

* **characters**: money (screen first) and fist cards into the column whose character it can
  win: eligible (bribe or blackmail minimum, EV01 honoured) and ahead of the others' estimated
  scores (a back from a screen counts as an average money card, a back from the hand a little
  less, and an opponent who still has turns this month may add a card). The gain is the rise
  in the estimated chance to win times the character's worth (monthly bonus, gift and set,
  influence towards a power card, $ signs, E/A), minus the cost of the cards;
* **jobs**: tag cards that (together with the cards already in the job field) fulfil the open
  job, or dice cards when the chance to reach the dice sum is good; then ``job_attempt``;
* **attacks**: against the opponent who hurts it most (the VP leader), weighed by the effect
  (hit/poach the best character, raid the fullest field, scandal) and the chance to succeed.

Step 1 puts a disc on the ashtray early (money) or protects the seat when it leads or has
much on the board. Reactions defend with the cheapest covering card that holds, raids take the
fullest field, hits take the character that costs the target most (a power card first).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement, pairwise
from random import Random

from tablero.games.mafia import data
from tablero.games.mafia.actions import MLAction
from tablero.games.mafia.data import MONEY, Tables
from tablero.games.mafia.engine import job_dice, tags_fulfilled
from tablero.games.mafia.view import MafiaView, PrivateView

FIELDS = ("job", "k1", "k2", "k3", "k4")
FAMILY_PREFERENCE = ("moretti", "barone", "orsini", "santori", "lombardo", "rinaldi")
EVENT_PREFERENCE = ("EV12", "EV15", "EV01", "EV06", "EV07", "EV13", "EV09", "EV02", "EV05", "EV10",
                    "EV08", "EV03", "EV14", "EV04", "EV11", "EV16")


@cache
def dice_chance(n: int, target: int) -> float:
    """P(sum of n W8 >= target)."""
    if target <= n:
        return 1.0 if n > 0 else 0.0
    if n <= 0:
        return 0.0
    dist = {0: 1.0}
    for _ in range(n):
        nxt: dict[int, float] = {}
        for s, p in dist.items():
            for v in range(1, data.DIE_SIDES + 1):
                nxt[s + v] = nxt.get(s + v, 0.0) + p / data.DIE_SIDES
        dist = nxt
    return sum(p for s, p in dist.items() if s >= target)


@cache
def avg_money(t: Tables) -> float:
    """The average value of a money card of the tables ``t`` (2.33 with the defaults)."""
    total = sum(t.MONEY_COUNTS.values())
    return sum(MONEY[g] * k for g, k in t.MONEY_COUNTS.items()) / total if total else 0.0


def _expand(counts: Sequence[tuple[str, int]] | None) -> list[str]:
    return [c for c, k in (counts or ()) for _ in range(k)]


def _mine(v: MafiaView) -> PrivateView:
    """The seat's own part of its view (a bot always plays a seat)."""
    assert v.private is not None, "greedy needs a seat's own view"
    return v.private


def _fits(idx: tuple[int, ...], copies: list[int]) -> bool:
    """A sorted choice of card kinds ``idx`` takes no kind more often than its ``copies``."""
    run = 1
    for a, b in pairwise(idx):
        if a == b:
            run += 1
            if run > copies[a]:
                return False
        else:
            run = 1
    return True


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


class GreedyMafia:
    """One-turn planning Mafia Legend bot (see the module docstring)."""

    name = "greedy"

    def choose(self, view: MafiaView, legal: Sequence[MLAction], rng: Random) -> MLAction:
        if not legal:
            raise ValueError("a bot was asked to choose from no legal actions")
        if len(legal) == 1:
            return legal[0]
        me = view.viewer
        assert me is not None, "greedy needs a seat's own view"
        kinds = {a.kind for a in legal}
        pick = self._decide(view, me, legal, kinds)
        return pick if pick is not None and pick in legal else legal[0]

    # ------------------------------------------------------------------ dispatch
    def _decide(self, v: MafiaView, me: int, legal: Sequence[MLAction], kinds: set[str]) -> MLAction | None:
        if "family" in kinds:
            by = {a.args[0]: a for a in legal}
            return next(by[f] for f in FAMILY_PREFERENCE if f in by)
        if "disc" in kinds:
            return self._step1(v, me, legal)
        if "end_plays" in kinds:
            return self._step2(v, me, legal)
        if "job_attempt" in kinds or "job_skip" in kinds:
            return self._step3(v, me, legal)
        if kinds & {"defend", "no_defence"}:
            return self._defend(v, me, legal)
        if "guardian" in kinds:
            return self._yes_no(legal, "guardian", self._guardian(v, me))
        if "raid" in kinds:
            return self._raid(v, legal)
        if "hit" in kinds:
            target = v.deciding.target
            return max(legal, key=lambda a: self._char_loss(v, target, a.args[0]))
        if "hand_over" in kinds:
            return min(legal, key=lambda a: self._char_loss(v, me, a.args[0]))
        if kinds & {"job_roll", "job_abandon"}:
            return self._job_roll(v, me, legal)
        if "reroll" in kinds or "no_reroll" in kinds:
            return self._reroll(v, legal)
        if "family_ties" in kinds:
            return self._yes_no(legal, "family_ties", self._ties_help(v, me))
        if "choose_event" in kinds:
            by = {a.args[0]: a for a in legal}
            return next((by[e] for e in EVENT_PREFERENCE if e in by), legal[0])
        if "a_draw" in kinds:
            hand = sum(k for _, k in _mine(v).hand_actions)
            return self._yes_no(legal, "a_draw", hand <= 7)
        if "discard" in kinds or "set_aside" in kinds:
            return min(legal, key=lambda a: self._keep_value(v, me, a.args[0]))
        if "politik" in kinds:
            pos = v.public.order.index(me) + 1
            return next((a for a in legal if a.args[0] == str(pos)), legal[0])
        if "spitzel_take" in kinds or "spitzel_done" in kinds:
            return next((a for a in legal if a.kind == "spitzel_done"), legal[0])
        if "spitzel_column" in kinds:
            return legal[0]
        return None

    @staticmethod
    def _yes_no(legal: Sequence[MLAction], kind: str, yes: bool) -> MLAction | None:
        want = "yes" if yes else "no"
        return next((a for a in legal if a.kind == kind and a.args and a.args[0] == want), None)

    # ------------------------------------------------------------------ evaluation helpers
    def _leader_weight(self, v: MafiaView, q: int, me: int) -> float:
        others = [v.public.vp[x] for x in range(v.public.players) if x != me]
        top = max(others)
        return 1.0 + 0.8 * (v.public.vp[q] == top) + max(0.0, (v.public.vp[q] - v.public.vp[me]) / 15.0)

    def char_worth(self, v: MafiaView, me: int, cid: str) -> float:
        """Rough VP worth of winning character ``cid`` for seat ``me`` now (public facts only)."""
        return self._char_worth(v, me, cid)

    def _char_worth(self, v: MafiaView, me: int, cid: str) -> float:
        """Rough VP worth of winning character ``cid`` for seat ``me`` now."""
        t = v.public.data
        ch = t.CHARS[cid]
        months_left = t.MONTHS - v.public.month
        worth = 2.0 + 0.6 * v.public.month  # share of the monthly bonus (ME6)
        worth += ch.gift
        if ch.set:
            partner = next((a if b == cid else b for a, b in data.SETS.values() if cid in (a, b)), "")
            if partner in v.public.chars[me]:
                worth += ch.gift + t.CHARS[partner].gift
        worth += 0.6 * ch.dollars * sum(1 for m in t.PAYDAY_MONTHS if m > v.public.month)
        # influence towards the power card of its colour
        pi = next(i for i, p in enumerate(t.POWERS) if p.colour == ch.colour)
        mine = sum(t.CHARS[c].influence for c in v.public.chars[me] if t.CHARS[c].colour == ch.colour)
        best_other = max((sum(t.CHARS[c].influence for c in v.public.chars[q] if t.CHARS[c].colour == ch.colour)
                          for q in range(v.public.players) if q != me), default=0)
        after = mine + ch.influence
        if v.public.powers[pi] != me and after >= t.POWERS[pi].threshold and after > best_other:
            worth += t.POWERS[pi].vp * max(1, months_left) * 0.8
        else:
            worth += ch.influence * 0.5 * min(1.0, months_left / 4)
        if ch.symbol == "A":
            worth += 1.0
        return worth

    def _char_loss(self, v: MafiaView, owner: int, cid: str) -> float:
        """What losing ``cid`` costs ``owner`` (power cards first)."""
        t = v.public.data
        ch = t.CHARS[cid]
        pi = next(i for i, p in enumerate(t.POWERS) if p.colour == ch.colour)
        loss = ch.influence + 0.5 * ch.dollars
        if v.public.powers[pi] == owner:
            loss += 3 * t.POWERS[pi].vp
        if ch.set and any(cid in pair for pair in data.SETS.values()):
            loss += 1.0
        return loss

    def _bribe(self, v: MafiaView, cid: str) -> int | None:
        t = v.public.data
        b = t.CHARS[cid].bribe
        if b is not None and "EV01" in v.public.this_events:
            b = max(1, b - t.EV01_BRIBE)
        return b

    def _turns_left(self, v: MafiaView, q: int, me: int) -> int:
        """Turns seat ``q`` still gets this month after the current one."""
        t = v.public.data
        later_phases = t.PHASES - v.public.phase
        if q == me:
            return later_phases
        return later_phases + (1 if v.public.order.index(q) > v.public.turn_pos else 0)

    def _field_est(self, v: MafiaView, q: int, f: int) -> float:
        t = v.public.data
        total = 0.0
        for card, src, ignored, _public in v.grid[q][f]:
            if card != "?":
                if card in MONEY:
                    total += MONEY[card]
                elif not ignored:
                    total += t.ACTIONS[card].fist
            else:
                total += avg_money(t) if src == "S" else 1.8
        return total

    def _win_chance(self, v: MafiaView, me: int, k: int, money: int, fist: int) -> float:
        t = v.public.data
        cid = v.public.row[k]
        return self._chance(t.CHARS[cid], self._bribe(v, cid), money, fist, self._opp_estimate(v, me, k))

    def _opp_estimate(self, v: MafiaView, me: int, k: int) -> float:
        """The strongest opponent's estimated score in column ``k`` (0.0: no contest)."""
        t = v.public.data
        opp = 0.0
        for q in range(v.public.players):
            if q == me or (not v.grid[q][k + 1] and self._turns_left(v, q, me) == 0):
                continue
            est = self._field_est(v, q, k + 1)
            room = t.CHAR_CAP - len(v.grid[q][k + 1])
            if room > 0 and self._turns_left(v, q, me) > 0 and v.grid[q][k + 1]:
                est += 1.5
            opp = max(opp, est)
        return opp

    @staticmethod
    def _chance(ch: data.Character, bribe: int | None, money: int, fist: int, opp: float) -> float:
        """The chance to win ``ch`` with ``money`` and ``fist`` against ``opp``."""
        eligible = (bribe is not None and money >= bribe) or (ch.blackmail is not None and fist >= ch.blackmail)
        if not eligible:
            return 0.0
        if opp == 0.0:
            return 0.95
        return 0.95 * _sigmoid((money + fist - opp + 0.5) / 1.3)

    def _keep_value(self, v: MafiaView, me: int, card: str) -> float:
        t = v.public.data
        if card in MONEY:
            return float(MONEY[card])
        c = t.ACTIONS[card]
        if c.kind == "defence":
            return 3.0 if c.strength == data.CANCEL else 2.0 + c.strength / 5
        val = c.fist / 2 + c.dice / 2 + c.dollar
        if c.kind == "attack":
            val += 1.0 + c.stars
        if c.tag and v.public.job and c.tag in t.JOBS_BY_ID[v.public.job].tags:
            val += 2.0
        return val

    # ------------------------------------------------------------------ step 1
    def _step1(self, v: MafiaView, me: int, legal: Sequence[MLAction]) -> MLAction | None:
        t = v.public.data
        by = {a.to_text(): a for a in legal}
        if "ability geldwaesche" in by:
            return by["ability geldwaesche"]
        hand = sum(k for _, k in _mine(v).hand_actions)
        if "ability grossoffensive" in by and v.public.month >= 2 and hand >= 7:
            return by["ability grossoffensive"]
        months_left = t.MONTHS - v.public.month + 1
        discs = v.public.discs[me]
        top_vp = max(v.public.vp)
        exposed = len(v.public.chars[me]) >= 2 or (v.public.vp[me] == top_vp and v.public.vp[me] > 0)
        if "disc protect" in by and exposed and discs * 2 >= months_left and v.public.phase <= 2:
            return by["disc protect"]
        if "disc ashtray_money" in by:
            if hand <= 3:
                return by.get("disc ashtray_actions", by["disc ashtray_money"])
            return by["disc ashtray_money"]
        if "disc protect" in by and exposed and discs >= months_left:
            return by["disc protect"]
        return by.get("disc none")

    # ------------------------------------------------------------------ step 2
    def _step2(self, v: MafiaView, me: int, legal: Sequence[MLAction]) -> MLAction:
        plays = [a for a in legal if a.kind == "play"]
        end = next(a for a in legal if a.kind == "end_plays")
        if not plays:
            return end
        left = v.public.limit - v.public.played
        best_val, best_act = 0.3, end
        # defence onto a face-up attack waiting for month end: only if it holds (a free reaction
        # at month end would do as well, so only cheap when plays are left over)
        # characters
        for val, a in self._char_plans(v, me, plays, left):
            if val > best_val:
                best_val, best_act = val, a
        for val, a in self._job_plans(v, me, plays, left):
            if val > best_val:
                best_val, best_act = val, a
        for val, a in self._attack_plans(v, me, plays):
            if val > best_val:
                best_val, best_act = val, a
        return best_act

    def _char_plans(self, v: MafiaView, me: int, plays: list[MLAction], left: int
                    ) -> list[tuple[float, MLAction]]:
        """Per character column, its best plan (the first of the best ones): value, first play."""
        t = v.public.data
        out: list[tuple[float, MLAction]] = []
        # resources: (card, source) -> action per field
        by_field: dict[str, dict[tuple[str, str], MLAction]] = {}
        for a in plays:
            c, src, where = a.args[0], a.args[1], a.args[2]
            usable = c in MONEY or (t.ACTIONS[c].fist > 0 and t.ACTIONS[c].kind != "defence")
            if where.startswith("k") and len(a.args) == 3 and usable:
                by_field.setdefault(where, {})[(c, src)] = a
        for where, options in by_field.items():
            k = int(where[1]) - 1
            cid = v.public.row[k]
            if not cid:
                continue
            f = k + 1
            cur = v.grid[me][f]
            money = sum(MONEY[c] for c, *_ in cur if c in MONEY)
            fist = sum(t.ACTIONS[c].fist for c, _, ign, _ in cur if c in t.ACTIONS and not ign)
            room = min(left, t.CHAR_CAP - len(cur))
            ch, bribe, opp = t.CHARS[cid], self._bribe(v, cid), self._opp_estimate(v, me, k)
            base = self._chance(ch, bribe, money, fist, opp)
            worth = self._char_worth(v, me, cid)
            # the cards usable here, with how many of each (at most ``room``)
            groups: list[tuple[str, str]] = []
            copies: list[int] = []
            for (c, src) in options:
                have = dict(_mine(v).screen) if src == "screen" else (
                    dict(_mine(v).hand_money) if c in MONEY else dict(_mine(v).hand_actions))
                k_have = min(have.get(c, 0), room)
                if k_have > 0:
                    groups.append((c, src))
                    copies.append(k_have)
            # per card: money, fist, cost (the cost of a combination adds them up in its order)
            gain = [(MONEY.get(c, 0), t.ACTIONS[c].fist if c in t.ACTIONS else 0,
                     0.3 * MONEY[c] if c in MONEY else 0.6 + self._keep_value(v, me, c) * 0.4) for c, _ in groups]
            best_val, best_combo = 0.0, None
            for size in range(1, room + 1):
                # each multiset of cards once, in the order of its first appearance among the
                # combinations of the pool (the pool lists each card's copies together)
                for idx in combinations_with_replacement(range(len(groups)), size):
                    if size > 1 and not _fits(idx, copies):
                        continue
                    m, fi, cost = money, fist, 0.0
                    for i in idx:
                        g = gain[i]
                        m += g[0]
                        fi += g[1]
                        cost += g[2]
                    val = (self._chance(ch, bribe, m, fi, opp) - base) * worth - cost
                    if val <= 0:
                        continue
                    val /= 1 + 0.15 * (size - 1)
                    if best_combo is None or val > best_val:
                        best_val, best_combo = val, tuple(groups[i] for i in idx)
            if best_combo is not None:
                # first card: money from the screen first, then the strongest
                first = max(best_combo, key=lambda x: (x[1] == "screen", MONEY.get(x[0], t.ACTIONS[x[0]].fist
                                                                                  if x[0] in t.ACTIONS else 0)))
                out.append((best_val, options[first]))
        return out

    def _job_plans(self, v: MafiaView, me: int, plays: list[MLAction], left: int
                   ) -> list[tuple[float, MLAction]]:
        t = v.public.data
        if not v.public.job:
            return []
        job = t.JOBS_BY_ID[v.public.job]
        cur = [c for c, *_ in v.grid[me][0]]
        room = min(left, t.JOB_CAP - len(cur))
        if room <= 0:
            return []
        options: dict[str, MLAction] = {}
        for a in plays:
            if a.args[2] == "job" and a.args[0] in t.ACTIONS and t.ACTIONS[a.args[0]].kind == "tool":
                options[a.args[0]] = a
        if not options:
            return []
        hand = dict(_mine(v).hand_actions)
        pool = [c for c in options for _ in range(min(hand.get(c, 0), room))]
        target = job.dice_sum - (t.EV06_DICE if "EV06" in v.public.this_events else 0)
        gain = job.ep + 0.4 * job.dollar + 1.0
        out: list[tuple[float, MLAction]] = []
        seen: set[tuple[str, ...]] = set()
        for size in range(1, room + 1):
            for combo in combinations(pool, size):
                key = tuple(sorted(combo))
                if key in seen:
                    continue
                seen.add(key)
                cards = cur + list(combo)
                if tags_fulfilled(job.tags, cards):
                    p = 1.0
                else:
                    dice = job_dice(t, cards)
                    p = dice_chance(dice, target)
                    if p < 0.5:
                        continue
                    p = p - (1 - p) * job.failure * 3.0 / gain
                cost = sum(0.5 + 0.3 * self._keep_value(v, me, c) for c in combo)
                val = 0.85 * p * gain - cost
                first = max(combo, key=lambda c: (t.ACTIONS[c].tag in job.tags, t.ACTIONS[c].dice))
                out.append((val, options[first]))
        return out

    def _attack_plans(self, v: MafiaView, me: int, plays: list[MLAction]) -> list[tuple[float, MLAction]]:
        t = v.public.data
        out: list[tuple[float, MLAction]] = []
        adv = v.public.variant == "advanced"
        for a in plays:
            c, where = a.args[0], a.args[2]
            if not where.startswith("atk:") or t.ACTIONS[c].kind != "attack":
                continue
            q = int(where[4:])
            if q == me:
                continue
            card = t.ACTIONS[c]
            up = len(a.args) > 3
            timing = a.args[4] if up else "me"
            if up and timing == "me":
                continue
            powers = v.public.powers
            if adv and ((card.symbol == "badge" and powers[data.STAATSGEWALT] == q)
                        or (card.symbol == "star" and powers[data.PRESSE] == q)):
                continue
            fist = card.fist + (t.EV02_FIST if card.symbol == "badge" and "EV02" in v.public.this_events else 0)
            p = min(0.85, 0.35 + 0.08 * fist)
            if adv and v.public.family[q] == "lombardo" and not v.public.ability_used[q]:
                p *= 0.5
            if card.symbol == "cross":
                if not v.public.chars[q]:
                    continue
                effect = max(self._char_loss(v, q, x) for x in v.public.chars[q])
            elif card.symbol == "hand":
                if not v.public.chars[q]:
                    continue
                effect = max(self._char_loss(v, q, x) for x in v.public.chars[q]) * 0.6 + 3.0
            elif card.symbol == "badge":
                cards_now = sum(len(fl) for fl in v.grid[q])
                biggest = max(len(fl) for fl in v.grid[q])
                if up:
                    effect = 1.5 * biggest if cards_now else 0.0
                else:
                    effect = 1.5 * min(3, biggest + 1.0) if self._turns_left(v, q, me) or cards_now else 0.0
            else:
                if up:
                    continue
                effect = (min(v.public.vp[q], t.STAR_LOSS * card.stars) + t.STAR_GAIN * card.stars) * 0.6
            val = p * effect * self._leader_weight(v, q, me) + p * card.dollar * 0.5 - 1.0 - 0.2 * fist
            out.append((val, a))
        return out

    # ------------------------------------------------------------------ step 3
    def _step3(self, v: MafiaView, me: int, legal: Sequence[MLAction]) -> MLAction | None:
        t = v.public.data
        attempt = next((a for a in legal if a.kind == "job_attempt"), None)
        skip = next((a for a in legal if a.kind == "job_skip"), None)
        if attempt is None or not v.public.job:
            return skip
        job = t.JOBS_BY_ID[v.public.job]
        cards = [c for c, *_ in v.grid[me][0] if c in t.ACTIONS and t.ACTIONS[c].symbol != "star"]
        if tags_fulfilled(job.tags, cards):
            return attempt
        target = job.dice_sum - (t.EV06_DICE if "EV06" in v.public.this_events else 0)
        dice = job_dice(t, cards)
        return attempt if dice_chance(dice, target) >= 0.5 else skip

    # ------------------------------------------------------------------ reactions
    def _defend(self, v: MafiaView, me: int, legal: Sequence[MLAction]) -> MLAction | None:
        t = v.public.data
        x = v.atk[me]
        options = [a for a in legal if a.kind == "defend"]
        none = next((a for a in legal if a.kind == "no_defence"), None)
        if x is None or x.card in ("DISC", "?") or not options:
            return none if none is not None else (options[0] if options else None)
        card = t.ACTIONS[x.card]
        strength = card.fist + (t.EV02_FIST if card.symbol == "badge" and "EV02" in v.public.this_events else 0)
        ev10 = t.EV10_DEFENCE if "EV10" in v.public.this_events else 0
        holding = [a for a in options
                   if t.ACTIONS[a.args[0]].strength == data.CANCEL or t.ACTIONS[a.args[0]].strength - ev10 >= strength]
        if card.symbol in ("cross", "hand") and not v.public.chars[me]:
            return none
        if card.symbol == "badge" and not any(v.grid[me]):
            return none
        if card.symbol == "star" and v.public.vp[me] == 0:
            return none
        if not holding:
            return none
        # the weakest card that holds (keep cancels and strong cards for later)
        return min(holding, key=lambda a: self._keep_value(v, me, a.args[0]))

    def _guardian(self, v: MafiaView, me: int) -> bool:
        t = v.public.data
        x = v.atk[me]
        if x is None or x.card in ("DISC", "?"):
            return False
        sym = t.ACTIONS[x.card].symbol
        if sym in ("cross", "hand"):
            return bool(v.public.chars[me]) and max(self._char_loss(v, me, c) for c in v.public.chars[me]) >= 3
        if sym == "badge":
            return sum(len(f) for f in v.grid[me]) >= 3
        return v.public.vp[me] >= 4

    def _raid(self, v: MafiaView, legal: Sequence[MLAction]) -> MLAction:
        t = v.public.data
        target = v.deciding.target

        def size(a: MLAction) -> float:
            if target < 0:
                return 0.0
            fl = v.grid[target][FIELDS.index(a.args[0])]
            return sum(avg_money(t) if src == "S" else 1.5 for _, src, _, _ in fl)

        return max(legal, key=size)

    def _job_roll(self, v: MafiaView, me: int, legal: Sequence[MLAction]) -> MLAction | None:
        t = v.public.data
        if not v.public.job:
            return next((a for a in legal if a.kind == "job_abandon"), None)
        job = t.JOBS_BY_ID[v.public.job]
        cards = [c for c, _, ign, _ in v.grid[me][0] if c in t.ACTIONS and not ign]
        target = job.dice_sum - (t.EV06_DICE if "EV06" in v.public.this_events else 0)
        dice = job_dice(t, cards)
        p = dice_chance(dice, target)
        roll = p * (job.ep + 0.4 * job.dollar) > (1 - p) * job.failure * 2.5
        return next((a for a in legal if a.kind == ("job_roll" if roll else "job_abandon")), None)

    def _reroll(self, v: MafiaView, legal: Sequence[MLAction]) -> MLAction | None:
        t = v.public.data
        if not v.public.job or not v.public.dice:
            return None
        job = t.JOBS_BY_ID[v.public.job]
        target = job.dice_sum - (t.EV06_DICE if "EV06" in v.public.this_events else 0)
        best, best_p = None, 0.0
        for a in legal:
            if a.kind != "reroll":
                continue
            idx = {int(i) for i in a.args[0].split(",")}
            kept = sum(d for i, d in enumerate(v.public.dice) if i not in idx)
            p = dice_chance(len(idx), target - kept)
            if p > best_p:
                best, best_p = a, p
        return best

    def _ties_help(self, v: MafiaView, me: int) -> bool:
        """Familienbande: use it when the column's character is worth it and it changes the
        winner (every card of the column has just been revealed)."""
        t = v.public.data
        column = v.deciding.column
        if not column.startswith("k"):
            return False
        k = int(column[1:]) - 1
        cid = v.public.row[k]
        if not cid:
            return False
        f = k + 1
        ch = t.CHARS[cid]
        bribe = self._bribe(v, cid)
        best, best_score = -1, -1
        mine = 0
        for q in v.public.order:
            cards = v.grid[q][f]
            if not cards:
                continue
            m = sum(MONEY[c] for c, *_ in cards if c in MONEY)
            fi = sum(t.ACTIONS[c].fist for c, _, ign, _ in cards if c in t.ACTIONS and not ign)
            if q == me:
                mine = m + fi
            ok = (bribe is not None and m >= bribe) or (ch.blackmail is not None and fi >= ch.blackmail)
            if ok and m + fi > best_score:
                best, best_score = q, m + fi
        if best == me:
            return False
        return mine >= best_score and self._char_worth(v, me, cid) >= 6
