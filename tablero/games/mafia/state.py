"""Mafia Legend state: plain annotated data with a hand-written clone(), and its small records.

Card multisets are ``dict[id, count]``. A card in the grid is a :class:`GridCard`; what lies in a
seat's attack field is an :class:`AttackSlot` (an attack card, or a protection disc). The flow is
a stack of :class:`Task` records (``tasks``, top at the end) and the open :class:`Decision`, so a
month end with nested decisions is plain, clonable, serializable data.

Seen-by masks: bit ``p`` of ``seen_by`` is set when seat ``p`` may see a card's face (its owner,
Rinaldi after Spitzel); :data:`SEEN_BY_ALL` once it is public.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tablero.core.protocol import GameState
from tablero.games.mafia.data import Tables

NOBODY = -1
"""No seat (a task or decision about the table, a power card nobody holds)."""
SEEN_BY_ALL = 0b1111
"""A seen-by mask: every seat may see the card (it is public)."""
DISC = "DISC"
"""The ``card`` of an :class:`AttackSlot` that holds a protection disc (§7.3)."""


class GridCard(NamedTuple):
    """One card in a job or character field, oldest first (§4)."""

    card: str
    source: str
    """``"H"`` (from the hand) or ``"S"`` (money from behind the screen): public."""
    seen_by: int
    ignored: bool = False
    """A star card that does not count (§8.5); also a star card an immediate job attempt skips."""


class AttackSlot(NamedTuple):
    """What lies in a seat's attack field: an attack card (with its defence) or a disc."""

    card: str
    """The attack card, or :data:`DISC`."""
    attacker: int
    """The attacking seat (a disc: the field's owner)."""
    face_up: bool
    timing: str
    """``"now"`` or ``"me"`` (month end); ``""`` for a disc."""
    defence: str = ""
    """The defence card played onto it, ``""`` while none."""
    seen_by: int = SEEN_BY_ALL

    @property
    def is_disc(self) -> bool:
        return self.card == DISC


class KnownCard(NamedTuple):
    """An event card that one seat knows: under the event deck, or drawn for an E choice."""

    card: str
    knower: int
    """The seat that knows it (who put it under the deck, or drew it)."""


class SetAside(NamedTuple):
    """One card a seat committed to discard in a simultaneous discard (magnifier, EV08)."""

    card: str
    source: str
    """``"hand"`` or ``"screen"``."""


class LastAction(NamedTuple):
    """The last action applied, for the views."""

    seat: int
    text: str
    """Its wire text (what its actor sees)."""
    public_text: str
    """What the other seats see of it (``moves.redact_action``)."""


class Decision(NamedTuple):
    """The open decision or chance node: who decides what now (all of it is public).

    Kinds: ``chance_start``, ``chance_roll``, ``chance_draw`` (chance nodes); ``family``,
    ``turn`` (steps 1-3 of a turn), ``discard`` (the hand limit), ``discards`` (a simultaneous
    discard: every seat with ``must_discard`` > 0 commits), ``guardian``, ``defend``, ``raid``,
    ``hit``, ``hand_over``, ``job_roll``, ``reroll``, ``family_ties``, ``choose_event``,
    ``a_draw``, ``politik``, ``spitzel_column``, ``spitzel_take``.
    """

    kind: str
    seat: int = NOBODY
    """Who decides; ``chance_draw``: the seat drawn for (NOBODY: the table)."""
    target: int = NOBODY
    """``raid``, ``hit``: the attacked seat."""
    receiver: int = NOBODY
    """``hand_over``: the attacker who receives the character."""
    deck: str = ""
    """``chance_draw``: A, M, C, J, E or X (missions)."""
    dest: str = ""
    """``chance_draw``: hand, screen, mission, event, row0-row3 or job."""
    reason: str = ""
    """``discard``: ``limit``; ``discards``: ``magnifier`` or ``audit``."""
    column: str = ""
    """``spitzel_take``: the column looked at; ``family_ties``: the column being resolved."""
    taken: int = 0
    """``spitzel_take``: cards taken back so far."""
    dice: int = 0
    """``job_roll``: the dice the roll would use."""


class Task(NamedTuple):
    """One scheduled step of the flow; ``engine.TASKS`` says what each kind does.

    Only the fields a kind uses are set; the others keep their defaults.
    """

    kind: str
    seat: int = NOBODY
    """The seat the step is about: drawer, attacked seat, job owner, winner, …"""
    attacker: int = NOBODY
    """``attack_effect``: the attacking seat."""
    ties: int = NOBODY
    """``column``: the Barone seat that uses Familienbande in this column."""
    position: int = 0
    """``me_attacks``, ``me_jobs``: the position in the turn-order column."""
    column: int = 0
    """Character column 0-3 (K1-K4)."""
    field: int = 0
    """``discard_field``: 0 = job, 1-4 = K1-K4."""
    stage: int = 0
    """``attack``, ``column``: how far the resolution has come."""
    month_end: bool = False
    """``attack``: resolved at month end (the star rule, §8.5)."""
    immediate: bool = False
    """``job``: an attempt on the own turn (§9.2)."""
    rerolled: bool = False
    """``job_result``: Santori's reroll was used or declined."""
    deck: str = ""
    amount: int = 0
    """``draw``: cards to draw; ``roll``: dice to roll; ``gift``: VP."""
    dest: str = ""
    card: str = ""
    """``attack_effect``: the attack card; ``win_bonus``: the character won."""


class MafiaState(GameState):
    __slots__ = (
        "ability_used",
        "acquired",
        "actors",
        "ashtray",
        "atk",
        "bonus_basis",
        "chars",
        "data",
        "decision",
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
        "month",
        "month_end_step",
        "moved_to_hand",
        "moved_to_screen",
        "must_discard",
        "n",
        "next_events",
        "order",
        "over",
        "phase",
        "played",
        "powers",
        "reveals",
        "row",
        "screen",
        "set_aside",
        "sets",
        "sitout",
        "star",
        "start_option",
        "step",
        "tasks",
        "this_events",
        "turn_pos",
        "variant",
        "vp",
        "winners",
    )

    n: int
    data: Tables
    """The values this game plays with (``data.tables``: defaults and data overrides); shared by clones."""
    variant: str
    missions: bool
    start_option: int | None
    families_opt: tuple[str, ...] | None
    bonus_basis: str
    goal: int
    month: int
    phase: int
    turn_pos: int
    """Position in the turn-order column of the player whose turn it is; -1 at the month end."""
    month_end_step: int
    """The month-end step ME1-ME12 being run, 0 during the turns."""
    order: list[int]
    """The turn-order column, top (start player) first."""
    family: list[str]
    hand_a: list[dict[str, int]]
    """Action cards in each hand."""
    hand_m: list[dict[str, int]]
    """Money cards in each hand (taken there to bluff, §7.2)."""
    screen: list[dict[str, int]]
    """Money behind each screen."""
    discs: list[int]
    vp: list[int]
    chars: list[list[str]]
    jobs_done: list[list[str]]
    sets: list[list[str]]
    sitout: list[int]
    ability_used: list[bool]
    mission: list[str]
    acquired: list[int]
    """Characters acquired this month (ME6)."""
    atk: list[AttackSlot | None]
    """Per seat, its attack field."""
    fields: list[list[list[GridCard]]]
    """Per seat: the job field and K1-K4, each oldest card first."""
    row: list[str]
    """The character row K1-K4 (``""`` = empty slot)."""
    job: str
    """The open job (``""`` = none)."""
    job_done_month: bool
    powers: list[int]
    """The holder of each power card (NOBODY = unheld)."""
    decks: dict[str, dict[str, int]]
    """Unseen multisets: A, M, C, J, E, X (missions)."""
    job_bottom: list[str]
    """Jobs put under the job deck (ME8), in order: public."""
    event_bottom: list[KnownCard]
    """Events put under the event deck by an E choice, in order."""
    disc_a: dict[str, int]
    """Discarded action cards."""
    disc_m: dict[str, int]
    """Discarded money."""
    disc_c: dict[str, int]
    """Discarded characters."""
    ashtray: int
    this_events: list[str]
    next_events: list[str]
    star: bool
    """A star card was evaluated this month end (§8.5)."""
    step: int
    """The turn step 1-4 of the player whose turn it is (0 between turns)."""
    played: int
    limit: int
    moved_to_hand: dict[str, int]
    """Money moved screen -> hand this turn."""
    moved_to_screen: dict[str, int]
    """Money moved hand -> screen this turn."""
    grossoffensive: bool
    decision: Decision | None
    tasks: list[Task]
    actors: tuple[int, ...]
    dice: list[int]
    event_choice: list[KnownCard]
    """The events drawn for an E character, with the seat that drew them."""
    set_aside: list[list[SetAside]]
    """Per seat, the cards committed in the open simultaneous discard (hidden until all chose)."""
    must_discard: list[int]
    """Per seat, cards still to discard in the open discard decision."""
    over: bool
    winners: tuple[int, ...] | None
    last: LastAction
    reveals: list[tuple[Any, ...]]
    """This month end's public reveals, as the log showed them: ``("column", slot, ((seat, cards), …))``
    or ``("job", seat, cards)``."""

    def clone(self) -> MafiaState:
        s = MafiaState.__new__(MafiaState)
        s.n = self.n
        s.data = self.data
        s.variant = self.variant
        s.missions = self.missions
        s.start_option = self.start_option
        s.families_opt = self.families_opt
        s.bonus_basis = self.bonus_basis
        s.goal = self.goal
        s.month = self.month
        s.phase = self.phase
        s.turn_pos = self.turn_pos
        s.month_end_step = self.month_end_step
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
        s.atk = self.atk[:]
        s.fields = [[f[:] for f in row] for row in self.fields]
        s.row = self.row[:]
        s.job = self.job
        s.job_done_month = self.job_done_month
        s.powers = self.powers[:]
        s.decks = {k: dict(v) for k, v in self.decks.items()}
        s.job_bottom = self.job_bottom[:]
        s.event_bottom = self.event_bottom[:]
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
        s.moved_to_hand = dict(self.moved_to_hand)
        s.moved_to_screen = dict(self.moved_to_screen)
        s.grossoffensive = self.grossoffensive
        s.decision = self.decision
        s.tasks = self.tasks[:]
        s.actors = self.actors
        s.dice = self.dice[:]
        s.event_choice = self.event_choice[:]
        s.set_aside = [d[:] for d in self.set_aside]
        s.must_discard = self.must_discard[:]
        s.over = self.over
        s.winners = self.winners
        s.last = self.last
        s.reveals = self.reveals[:]
        s.legal_cache = self.legal_cache
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MafiaState):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment]

    @property
    def active(self) -> int:
        """The seat whose turn it is (NOBODY at the month end)."""
        return self.order[self.turn_pos] if 0 <= self.turn_pos < len(self.order) else NOBODY
