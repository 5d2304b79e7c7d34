"""Mafia Legend for search: expected final victory points of a determinized world, and the
greedy bot as playout policy on a cheap view of the world.

**Estimate** of a world (one the search dealt from its seat's view: the seat's own cards as it
knows them, the others' hidden cards as this determinization dealt them, so that over the
search's worlds the estimate is an expectation under the seat's information): each seat's VP
so far, plus

* the characters still to be won in the grid: in each character column every seat with cards
  there gets the character's worth (the greedy bot's ``char_worth``: monthly bonus share,
  gift and set, influence towards a power card) times its chance to win the contest, from the
  cards in its field (money by value, fist cards by their fist): the chance to be eligible
  (money reaching the bribe minimum, or fist the blackmail minimum) shared out by strength
  among the seats likely eligible. (Counting a field below the minimum as a fair chance made
  the search spread single cards over every column and win nothing.) An earlier version read
  only the public view, with a face-down card as an average one: the search could then not
  tell a $1 from a $5 it played face down, and lost clearly to the greedy bot;
* the job: a seat with cards in its job field gets a share of the job's worth times the
  chance that its cards fulfil it (by tags, else by the dice sum), less the risk of
  sitting out (counting every card as a share of the job made the search dump cards there);
* the power cards: their VP for every month end still expected (the game ends once a seat
  reaches the goal, so the months left are capped by the leader's distance to it);
* the monthly bonus (ME6) of this month once characters were acquired;
* resources: ``DOLLAR`` per dollar held (hand and screen) and ``ACTION_CARD`` per action card
  in hand (cards are future characters and jobs: a card played into a field is then not a
  free gain). These are the *world's* cards: the searching seat's own as it knows them, the
  others' as this determinization dealt them (averaged over the search's worlds, an
  expectation under the seat's information). Counting every card alike, as the public view
  alone allows, let the search spend a $5 where a $1 would do;
* a pending attack on a seat costs it ``ATTACK_LOSS``;
* ``TURN`` for each seat whose turn of this phase is still to come.

**Rollout**: the greedy bot itself (:class:`GreedyMafia`), but on a :class:`TableView`, the
parts of the seat's view the bot reads built straight from the determinized world (lazily:
the grid only when a rule needs it) instead of ``observe``, which costs more than the bot.
A test checks that the bot chooses the same on both. With the bot's plan search made
cheaper (same choices) this is about 3-4 times cheaper than ``observe`` + the old bot, and
exactly as strong.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from random import Random
from typing import Any, Final, cast

from tablero.bots.heuristics.mafia import GreedyMafia, dice_chance
from tablero.core.protocol import Game
from tablero.games.mafia.actions import MONEY_MOVES
from tablero.games.mafia.data import MONEY
from tablero.games.mafia.engine import job_dice, job_tags_ok
from tablero.games.mafia.state import DISC, SEEN_BY_ALL, MafiaState
from tablero.games.mafia.view import HIDDEN, MafiaView

DOLLAR: Final = 0.3
"""VP a dollar held (hand or screen) is worth: future bribes (the greedy bot's cost of money)."""
ACTION_CARD: Final = 0.8
"""VP an action card in hand is worth (a future play into a field, a defence, an attack)."""
ATTACK_LOSS: Final = 1.5
"""VP an attack card waiting in a seat's attack field is expected to cost it."""
JOB_SHARE: Final = 0.7
"""Share of the open job's worth a seat whose job field fulfils it expects (another seat may
fulfil it first)."""
SIT_OUT: Final = 2.0
"""VP a phase sat out after a failed job costs."""
TURN: Final = 4.0
"""What a turn of this phase still to come is worth to a seat relative to the others, on this
estimate's scale (measured on greedy games). Without it a search cut off in the middle of a
phase sees the seats whose turns fell inside its horizon ahead of the others."""
VP_PER_MONTH: Final = 5.0
"""The leader's pace (VP a month) that caps the months the power cards still pay."""
CONTEST_SPREAD: Final = 1.3
"""How sharply the stronger of two eligible fields is expected to win (in card values)."""


def _reach(value: float, minimum: int | None) -> float:
    """The chance that a field estimated at ``value`` reaches ``minimum`` (None: it cannot)."""
    if minimum is None:
        return 0.0
    return 1.0 / (1.0 + math.exp(-(value - minimum + 0.5) / 0.7))


class MafiaModel:
    """Estimate and playout policy of Mafia Legend (see the module docstring)."""

    scale = 12.0
    """A clear lead in VP: about two characters with their gifts, or a month's bonus late in the
    game (estimated margins are often 10 and more; a smaller scale saturates the reward)."""

    def __init__(self) -> None:
        self.greedy = GreedyMafia()

    # ------------------------------------------------------------------ estimate
    def estimate(self, game: Game[Any, Any, Any], state: Any) -> Sequence[float]:
        view: MafiaView = game.observe(state, None)
        pub = view.public
        n = pub.players
        est = [float(x) for x in pub.vp]
        if pub.over:
            return est
        step = view.deciding.month_end_step
        if step == 0 and 0 <= pub.turn_pos < len(pub.order):
            for j in range(pub.turn_pos, len(pub.order)):
                p = pub.order[j]
                if (j > pub.turn_pos or pub.step <= 1) and not pub.sitout[p]:
                    est[p] += TURN
        world = cast(MafiaState, state)
        for p in range(n):
            money = sum(MONEY[c] * k for c, k in world.hand_m[p].items()) + sum(
                MONEY[c] * k for c, k in world.screen[p].items())
            est[p] += DOLLAR * money + ACTION_CARD * sum(world.hand_a[p].values())
            slot = pub.atk[p]
            if slot is not None and slot.card != DISC:
                est[p] -= ATTACK_LOSS
        # the power cards: this month end's ME5 if still to come, then one per month
        left = pub.data.MONTHS - pub.month + (1 if step < 5 else 0)
        pace = max(1.0, (pub.goal - max(pub.vp)) / VP_PER_MONTH)
        months = min(float(left), pace)
        for i, holder in enumerate(pub.powers):
            if holder >= 0:
                est[holder] += pub.data.POWERS[i].vp * months
        # the monthly bonus once this month's characters are won (ME6 still to come)
        if 3 < step < 7 and max(pub.acquired) > 0:
            top = max(pub.acquired)
            tied = [p for p in range(n) if pub.acquired[p] == top]
            for p in tied:
                est[p] += pub.month / len(tied)
        # contests in the grid: characters, then the job
        if step <= 3:
            for k, cid in enumerate(pub.row):
                if cid:
                    self._contest(view, world, k, cid, est)
        if pub.job and step <= 2:
            self._jobs(world, est)
        return est

    @staticmethod
    def _jobs(world: MafiaState, est: list[float]) -> None:
        """Each seat with cards in its job field: the job's worth times the chance that those
        cards fulfil it (by tags, else by the dice sum: the engine's own rules), less the
        sit-outs a failure costs, never below nothing (a seat may skip the attempt)."""
        t = world.data
        job = t.JOBS_BY_ID[world.job]
        target = job.dice_sum - (t.EV06_DICE if "EV06" in world.this_events else 0)
        gain = job.ep + 0.4 * job.dollar
        for p in range(world.n):
            cards = [sl.card for sl in world.fields[p][0]]
            if not cards:
                continue
            chance = 1.0 if job_tags_ok(world, cards) else dice_chance(job_dice(t, cards), target)
            est[p] += JOB_SHARE * max(0.0, chance * gain - (1 - chance) * job.failure * SIT_OUT)

    def _contest(self, view: MafiaView, world: MafiaState, k: int, cid: str, est: list[float]) -> None:
        """Each seat with cards in column ``k``: its chance to win the character there times
        the character's worth to it. The chance is that of being eligible (its money, or its
        fist, reaching the minimum) shared out by strength among the seats likely eligible."""
        f = k + 1
        t = world.data
        acts = t.ACTIONS
        ch = t.CHARS[cid]
        bribe = ch.bribe
        if bribe is not None and "EV01" in world.this_events:
            bribe = max(1, bribe - t.EV01_BRIBE)
        seats: list[tuple[int, float, float]] = []
        for p in range(world.n):
            if not world.fields[p][f]:
                continue
            money = fist = 0.0
            for sl in world.fields[p][f]:
                if sl.card in MONEY:
                    money += MONEY[sl.card]
                elif not sl.ignored:
                    fist += acts[sl.card].fist
            eligible = max(_reach(money, bribe), _reach(fist, ch.blackmail))
            seats.append((p, eligible, money + fist))
        if not seats:
            return
        weights = [e * math.exp(min(40.0, score / CONTEST_SPREAD)) for _, e, score in seats]
        total = sum(weights)
        if total <= 0:
            return
        for (p, e, _), w in zip(seats, weights, strict=True):
            if w:
                est[p] += e * w / total * self.greedy.char_worth(view, p, cid)

    def candidates(self, game: Game[Any, Any, Any], state: Any, seat: int, legal: Sequence[Any]) -> Sequence[Any]:
        """Every legal move but the money moves between screen and hand (with ``prune``).

        A money move changes nothing on the table but what the others can guess (a bluff), and
        it does not end the decision: after it the same choice comes again. In the tree such a
        move is worth the best of what follows, so it looks better than every real option and
        the search kept choosing it (about 60 money moves a game, where the greedy bot makes
        none) while its iterations were spread over one more level. Without them the search
        wins as often and a game takes half the time (docs/bots.md). The bot never bluffs.
        """
        keep = [a for a in legal if a.kind not in MONEY_MOVES]
        return keep or legal

    @staticmethod
    def clock(state: Any) -> int:
        """Game time in phases: 4 a month (3 phases, then the month end)."""
        s = cast(MafiaState, state)
        return s.month * 4 + (3 if s.month_end_step else s.phase - 1)

    # ------------------------------------------------------------------ rollout
    def rollout(self, game: Game[Any, Any, Any], state: Any, seat: int, legal: Sequence[Any],
                rng: Random) -> Any:
        return self.greedy.choose(cast(MafiaView, TableView(state, seat)), legal, rng)


# ---------------------------------------------------------------------------- a cheap seat's view
class _Public:
    """The public fields the greedy bot reads, straight from the state (not copied: read only)."""

    __slots__ = ("ability_used", "chars", "data", "dice", "discs", "family", "job", "limit", "month", "order",
                 "phase", "played", "players", "powers", "row", "this_events", "turn_pos", "variant", "vp")

    def __init__(self, s: MafiaState) -> None:
        self.players = s.n
        self.data = s.data
        self.variant = s.variant
        self.month = s.month
        self.phase = s.phase
        self.order = s.order
        self.turn_pos = s.turn_pos
        self.played = s.played
        self.limit = s.limit
        self.family = s.family
        self.discs = s.discs
        self.vp = s.vp
        self.chars = s.chars
        self.ability_used = s.ability_used
        self.row = s.row
        self.job = s.job
        self.powers = s.powers
        self.this_events = s.this_events
        self.dice = s.dice


class _Private:
    __slots__ = ("hand_actions", "hand_money", "screen")

    def __init__(self, s: MafiaState, seat: int) -> None:
        self.hand_actions = tuple(sorted(s.hand_a[seat].items()))
        self.hand_money = tuple(sorted(s.hand_m[seat].items()))
        self.screen = tuple(sorted(s.screen[seat].items()))


class _Deciding:
    __slots__ = ("column", "target")

    def __init__(self, s: MafiaState) -> None:
        d = s.decision
        self.target = d.target if d is not None else -1
        self.column = d.column if d is not None else ""


class TableView:
    """What :class:`GreedyMafia` reads of ``observe(state, seat)``, built from the state itself.

    Equal to the view in every part the bot reads (``public``: the fields of :class:`_Public`;
    ``private``: the seat's hand and screen; ``grid`` and ``atk`` as the seat sees them;
    ``deciding.target`` and ``column``), with lists where the view has tuples. The grid is built
    on first use. Only for playouts in a world the searching seat sampled.
    """

    __slots__ = ("_grid", "_s", "deciding", "private", "public", "viewer")

    def __init__(self, s: MafiaState, seat: int) -> None:
        self._s = s
        self._grid: tuple[tuple[tuple[tuple[str, str, bool, bool], ...], ...], ...] | None = None
        self.viewer = seat
        self.public = _Public(s)
        self.private = _Private(s, seat)
        self.deciding = _Deciding(s)

    @property
    def grid(self) -> tuple[tuple[tuple[tuple[str, str, bool, bool], ...], ...], ...]:
        if self._grid is None:
            bit = 1 << self.viewer
            self._grid = tuple(
                tuple(tuple((sl.card if sl.seen_by == SEEN_BY_ALL or sl.seen_by & bit else HIDDEN, sl.source,
                             sl.ignored, sl.seen_by == SEEN_BY_ALL) for sl in f) for f in row)
                for row in self._s.fields)
        return self._grid

    @property
    def atk(self) -> list[Any]:
        bit = 1 << self.viewer
        out: list[Any] = []
        for x in self._s.atk:
            if x is None or x.is_disc:
                out.append(None if x is None else _Seen(DISC))
            else:
                out.append(_Seen(x.card if x.face_up or x.seen_by == SEEN_BY_ALL or x.seen_by & bit else HIDDEN))
        return out


class _Seen:
    """An attack field as the bot reads it: the card (``"?"`` face down, ``"DISC"``)."""

    __slots__ = ("card",)

    def __init__(self, card: str) -> None:
        self.card = card
