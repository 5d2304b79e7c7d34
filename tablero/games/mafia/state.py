"""Mafia Legend state: plain data with a hand-written clone().

Card multisets are ``dict[id, count]``. A card in the grid is a ``Slot`` list
``[card_id, source, seen_mask, ignored]``: source ``"H"`` (hand) or ``"S"`` (screen); bit ``p`` of
``seen_mask`` is set when seat ``p`` may see the card's face (its owner, everyone once
revealed, Rinaldi after Spitzel). The flow is a stack of small task tuples (``tasks``), so
a month end with nested decisions is plain, clonable data.
"""

from __future__ import annotations

from typing import Any

Slot = list[Any]  # [card_id: str, source: "H" | "S", seen_mask: int, ignored: bool]


def _copy_fields(rows: list[list[list[Slot]]]) -> list[list[list[Slot]]]:
    return [[[c[:] for c in f] for f in row] for row in rows]


class MafiaState:
    __slots__ = (
        "__weakref__",
        "ability_used",
        "acquired",
        "actors",
        "ashtray",
        "atk",
        "bonus_basis",
        "chars",
        "decks",
        "dice",
        "disc_a",
        "disc_c",
        "disc_m",
        "discs",
        "event_bottom",
        "event_choice",
        "families_opt",
        "family",
        "fields",
        "goal",
        "grossoffensive",
        "hand_a",
        "hand_m",
        "job",
        "job_bottom",
        "job_done_month",
        "jobs_done",
        "last",
        "limit",
        "mission",
        "missions",
        "mm_hand",
        "mm_screen",
        "month",
        "n",
        "next_events",
        "order",
        "over",
        "pdisc",
        "pend",
        "phase",
        "played",
        "pneed",
        "powers",
        "reveals",
        "row",
        "screen",
        "sets",
        "sitout",
        "star",
        "start_option",
        "step",
        "tasks",
        "this_events",
        "tp",
        "variant",
        "version",
        "vp",
        "winners",
    )

    n: int
    variant: str
    missions: bool
    start_option: int | None
    families_opt: tuple[str, ...] | None
    bonus_basis: str
    goal: int
    month: int
    phase: int
    tp: int  # position in the turn-order column of the player whose turn it is
    order: list[int]  # turn-order column, top first
    family: list[str]
    hand_a: list[dict[str, int]]  # action cards in hand
    hand_m: list[dict[str, int]]  # money cards in hand
    screen: list[dict[str, int]]  # money behind the screen
    discs: list[int]
    vp: list[int]
    chars: list[list[str]]
    jobs_done: list[list[str]]
    sets: list[list[str]]
    sitout: list[int]
    ability_used: list[bool]
    mission: list[str]
    acquired: list[int]
    atk: list[list[Any] | None]  # per target seat: [card, attacker, face_up, timing, defence, seen]
    fields: list[list[list[Slot]]]  # per seat: [job, K1, K2, K3, K4] fields
    row: list[str]  # character row K1..K4 ("" = empty)
    job: str  # open job ("" = none)
    job_done_month: bool
    powers: list[int]  # holder per power, -1 = unheld
    decks: dict[str, dict[str, int]]  # unseen multisets: A, M, C, J, E, X (missions)
    job_bottom: list[str]
    event_bottom: list[list[Any]]  # [card, knower seat]
    disc_a: dict[str, int]
    disc_m: dict[str, int]
    disc_c: dict[str, int]
    ashtray: int
    this_events: list[str]
    next_events: list[str]
    star: bool
    step: int
    played: int
    limit: int
    mm_hand: dict[str, int]  # money moved screen -> hand this turn
    mm_screen: dict[str, int]  # money moved hand -> screen this turn
    grossoffensive: bool
    pend: tuple[Any, ...]  # the open decision: (kind, seat, *context) or ()
    tasks: list[tuple[Any, ...]]
    actors: tuple[int, ...]
    dice: list[int]
    event_choice: list[list[Any]]  # [card, drawer] of the events drawn for an E character
    pdisc: list[dict[str, int]]  # simultaneous discards chosen so far (hidden until all chose)
    pneed: list[int]
    over: bool
    winners: tuple[int, ...] | None
    last: tuple[int, str, str]
    version: int
    reveals: list[tuple[Any, ...]]  # this month end's public reveals (what the log showed)

    def clone(self) -> MafiaState:
        s = MafiaState.__new__(MafiaState)
        s.n = self.n
        s.variant = self.variant
        s.missions = self.missions
        s.start_option = self.start_option
        s.families_opt = self.families_opt
        s.bonus_basis = self.bonus_basis
        s.goal = self.goal
        s.month = self.month
        s.phase = self.phase
        s.tp = self.tp
        s.order = self.order[:]
        s.family = self.family[:]
        s.hand_a = [dict(h) for h in self.hand_a]
        s.hand_m = [dict(h) for h in self.hand_m]
        s.screen = [dict(h) for h in self.screen]
        s.discs = self.discs[:]
        s.vp = self.vp[:]
        s.chars = [c[:] for c in self.chars]
        s.jobs_done = [j[:] for j in self.jobs_done]
        s.sets = [x[:] for x in self.sets]
        s.sitout = self.sitout[:]
        s.ability_used = self.ability_used[:]
        s.mission = self.mission[:]
        s.acquired = self.acquired[:]
        s.atk = [a[:] if a is not None else None for a in self.atk]
        s.fields = _copy_fields(self.fields)
        s.row = self.row[:]
        s.job = self.job
        s.job_done_month = self.job_done_month
        s.powers = self.powers[:]
        s.decks = {k: dict(v) for k, v in self.decks.items()}
        s.job_bottom = self.job_bottom[:]
        s.event_bottom = [e[:] for e in self.event_bottom]
        s.disc_a = dict(self.disc_a)
        s.disc_m = dict(self.disc_m)
        s.disc_c = dict(self.disc_c)
        s.ashtray = self.ashtray
        s.this_events = self.this_events[:]
        s.next_events = self.next_events[:]
        s.star = self.star
        s.step = self.step
        s.played = self.played
        s.limit = self.limit
        s.mm_hand = dict(self.mm_hand)
        s.mm_screen = dict(self.mm_screen)
        s.grossoffensive = self.grossoffensive
        s.pend = self.pend
        s.tasks = self.tasks[:]
        s.actors = self.actors
        s.dice = self.dice[:]
        s.event_choice = [e[:] for e in self.event_choice]
        s.pdisc = [dict(d) for d in self.pdisc]
        s.pneed = self.pneed[:]
        s.over = self.over
        s.winners = self.winners
        s.last = self.last
        s.version = self.version
        s.reveals = self.reveals[:]
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MafiaState):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self.__slots__ if k != "__weakref__")

    __hash__ = None  # type: ignore[assignment]

    @property
    def active(self) -> int:
        return self.order[self.tp] if 0 <= self.tp < len(self.order) else -1
