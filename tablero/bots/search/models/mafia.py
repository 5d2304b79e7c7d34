"""Mafia Legend for search: expected final victory points from the public view, and the greedy
bot as playout policy on a cheap view of the world.

**Estimate** (from the spectator's view only, ``observe(state, None).public``): each seat's
VP so far, plus

* the characters still to be won in the grid: in each character column every seat with cards
  there gets the character's worth (the greedy bot's ``char_worth``: monthly bonus share,
  gift and set, influence towards a power card) times its chance to win the contest, from the
  cards everyone can see (a back from the screen counts as average money, a back from the
  hand as ``HAND_BACK`` of money or fist, a face-up card by its value): the chance to be
  eligible (money reaching the bribe minimum, or fist the blackmail minimum) shared out by
  strength among the seats likely eligible. (Counting a field below the minimum as a fair
  chance made the search spread single cards over every column and win nothing.);
* the job: a seat with cards in its job field gets a share of the job's VP;
* the power cards: their VP for every month end still expected (the game ends once a seat
  reaches the goal, so the months left are capped by the leader's distance to it);
* the monthly bonus (ME6) of this month once characters were acquired;
* resources: ``HAND_CARD`` per card in hand and ``SCREEN_CARD`` per card behind the screen
  (cards are future characters and jobs: a card played into a field is then not a free gain);
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

from tablero.bots.heuristics.mafia import AVG_MONEY, GreedyMafia
from tablero.core.protocol import Game
from tablero.games.mafia import data
from tablero.games.mafia.data import ACTIONS, CHARS, JOBS_BY_ID, MONEY, POWERS
from tablero.games.mafia.state import DISC, SEEN_BY_ALL, MafiaState
from tablero.games.mafia.view import HIDDEN, MafiaView, PublicView

HAND_CARD: Final = 0.5
"""VP a card in hand is worth (a future play into a field, a defence, an attack)."""
SCREEN_CARD: Final = 0.6
"""VP a money card behind the screen is worth (about 2.7 $ of bribes to come)."""
HAND_BACK: Final = 1.8
"""What a face-down card from the hand adds to a contest, as the greedy bot guesses it."""
ATTACK_LOSS: Final = 1.5
"""VP an attack card waiting in a seat's attack field is expected to cost it."""
JOB_SHARE: Final = 0.25
"""Share of the open job's VP per card in a seat's job field (3 cards: most of it)."""
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
        for p in range(n):
            est[p] += HAND_CARD * pub.hand_sizes[p] + SCREEN_CARD * pub.screen_sizes[p]
            slot = pub.atk[p]
            if slot is not None and slot.card != DISC:
                est[p] -= ATTACK_LOSS
        # the power cards: this month end's ME5 if still to come, then one per month
        left = data.MONTHS - pub.month + (1 if step < 5 else 0)
        pace = max(1.0, (pub.goal - max(pub.vp)) / VP_PER_MONTH)
        months = min(float(left), pace)
        for i, holder in enumerate(pub.powers):
            if holder >= 0:
                est[holder] += POWERS[i].vp * months
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
                    self._contest(view, pub, k, cid, est)
        if pub.job and step <= 2:
            job = JOBS_BY_ID[pub.job]
            for p in range(n):
                cards = len(pub.grid[p][0])
                if cards:
                    est[p] += JOB_SHARE * min(cards, 3) * (job.ep + 0.4 * job.dollar)
        return est

    def _contest(self, view: MafiaView, pub: PublicView, k: int, cid: str, est: list[float]) -> None:
        """Each seat with cards in column ``k``: its chance to win the character there times
        the character's worth to it. The chance is that of being eligible (its money, or its
        fist, reaching the minimum) shared out by strength among the seats likely eligible."""
        f = k + 1
        ch = CHARS[cid]
        bribe = ch.bribe
        if bribe is not None and "EV01" in pub.this_events:
            bribe = max(1, bribe - data.EV01_BRIBE)
        seats: list[tuple[int, float, float]] = []
        for p in range(pub.players):
            cards = pub.grid[p][f]
            if not cards:
                continue
            money = fist = unknown = 0.0
            for card, src, ignored, _public in cards:
                if card == HIDDEN:
                    if src == "S":
                        money += AVG_MONEY
                    else:
                        unknown += HAND_BACK
                elif card in MONEY:
                    money += MONEY[card]
                elif not ignored:
                    fist += ACTIONS[card].fist
            eligible = max(_reach(money + unknown, bribe), _reach(fist + unknown, ch.blackmail))
            seats.append((p, eligible, money + fist + unknown))
        if not seats:
            return
        weights = [e * math.exp(min(40.0, t / CONTEST_SPREAD)) for _, e, t in seats]
        total = sum(weights)
        if total <= 0:
            return
        for (p, e, _), w in zip(seats, weights, strict=True):
            if w:
                est[p] += e * w / total * self.greedy.char_worth(view, p, cid)

    # ------------------------------------------------------------------ rollout
    def rollout(self, game: Game[Any, Any, Any], state: Any, seat: int, legal: Sequence[Any],
                rng: Random) -> Any:
        return self.greedy.choose(cast(MafiaView, TableView(state, seat)), legal, rng)


# ---------------------------------------------------------------------------- a cheap seat's view
class _Public:
    """The public fields the greedy bot reads, straight from the state (not copied: read only)."""

    __slots__ = ("ability_used", "chars", "dice", "discs", "family", "job", "limit", "month", "order",
                 "phase", "played", "players", "powers", "row", "this_events", "turn_pos", "variant", "vp")

    def __init__(self, s: MafiaState) -> None:
        self.players = s.n
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
