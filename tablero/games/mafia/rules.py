"""Mafia Legend rules (spec: ../shared/rules/mafia-legend.md, a reconstruction; rules version 1).

The flow is a stack of task tuples in the state (``s.tasks``): ``_run`` pops and executes
tasks until one opens a decision or a chance node (``s.pend``). Every task handler is one
step of the spec (a turn step, one attack's resolution stage, one month-end step, …), and the
game-end check (§15) runs after every task and every applied action, so a game can end in
the middle of a month end exactly as §12 and MA-29 require.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from random import Random
from typing import Any, Final

from tablero.core.errors import ErrorCode, IllegalActionError
from tablero.core.events import Event
from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import (
    CHANCE,
    Game,
    OptionSpec,
    Player,
    Result,
    Viewer,
    check_start_seat,
    parse_bool,
    parse_start_seat,
)
from tablero.games.mafia import data
from tablero.games.mafia.actions import MLAction, act, parse
from tablero.games.mafia.data import ACTIONS, CHARS, JOBS_BY_ID, MONEY, POWERS
from tablero.games.mafia.state import MafiaState, Slot

Events = list[Event] | None
ALL = 0b1111  # seen by every seat
FIELD_NAMES: Final = ("job", "k1", "k2", "k3", "k4")


# ---------------------------------------------------------------------------- options
def _parse_families(text: str) -> object:
    t = text.strip().lower()
    if t == "choose":
        return t
    return tuple(x.strip() for x in t.split(","))


def _check_families(value: object, players: int) -> object:
    if value == "choose":
        return value
    if isinstance(value, (list, tuple)):
        fams = tuple(str(x) for x in value)
        if len(fams) != players or len(set(fams)) != players or not set(fams) <= set(data.FAMILIES):
            raise ValueError(f"give {players} different families from {', '.join(data.FAMILIES)}")
        return fams
    raise ValueError("expected 'choose' or a comma-separated list of families")






def _check_choice(choices: tuple[str, ...]) -> Callable[[object, int], object]:
    def check(value: object, players: int) -> object:
        if value not in choices:
            raise ValueError(f"choose one of {', '.join(choices)}")
        return value
    return check


def _check_bool(value: object, players: int) -> object:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value


OPTIONS: Final = (
    OptionSpec(name="variant", default="advanced", parse=str, choices=("advanced", "beginner"),
               check=_check_choice(("advanced", "beginner")), help="advanced (every rule) or beginner (§16)"),
    OptionSpec(name="missions", default=False, parse=parse_bool, check=_check_bool,
               help="Godfather missions (advanced game only)"),
    OptionSpec(name="start_seat", default="random", parse=parse_start_seat, check=check_start_seat,
               help="first start player: a seat or 'random'"),
    OptionSpec(name="families", default="choose", parse=_parse_families, check=_check_families,
               help="'choose' or one family per seat, e.g. moretti,rinaldi,orsini"),
    OptionSpec(name="bonus_basis", default="month", parse=str, choices=("month", "total"),
               check=_check_choice(("month", "total")), help="ME6 counts characters acquired this month or owned"),
)


# ---------------------------------------------------------------------------- helpers
def _add(d: dict[str, int], k: str, n: int = 1) -> None:
    d[k] = d.get(k, 0) + n


def _take(d: dict[str, int], k: str, n: int = 1) -> None:
    left = d[k] - n
    if left:
        d[k] = left
    else:
        del d[k]


def _count(d: Mapping[str, int]) -> int:
    return sum(d.values())


def _money_value(d: Mapping[str, int]) -> int:
    return sum(MONEY[k] * v for k, v in d.items())


def _illegal(msg: str, code: ErrorCode = ErrorCode.ILLEGAL) -> IllegalActionError:
    return IllegalActionError(msg, code=code)


def _ev(ev: Events, mid: str, visible: Iterable[int] | None = None, redacted: Message | None = None,
        **params: Any) -> None:
    if ev is not None:
        ev.append(Event(Message(mid, **params), None if visible is None else frozenset(visible), redacted))


_LEGAL_CACHE: list[Any] = [None, None, ()]
"""The last legal-action list: a weak reference to its state, the key (state version, seat, open
decision), the list. ``apply``
validates against the list the caller just asked for without computing it twice. Code that
edits a state's fields by hand (scenario builders) must raise ``state.version`` afterwards."""


class Mafia(Game[MafiaState, MLAction, Any]):
    """Mafia Legend (Bickmann; Eisenwald 2021), 3–4 players, from the reconstructed spec.

    | | |
    |---|---|
    | decisions | the catalogue of §18.1, lists split into single-card decisions |
    | chance | every card drawn (one node per card), each W8, the start seat |
    | hidden | hands, screens, face-down grid cards, missions, deck order |
    | rules versions | 1: mafia-legend.md rules version 1 |
    """

    id = "mafia-legend"
    title = "Mafia Legend"
    rules_version = data.RULES_VERSION
    data_version = data.DATA_VERSION
    min_players = 3
    max_players = 4
    options = OPTIONS

    # ------------------------------------------------------------------ setup (§5.1)
    def resolve_options(self, players: int, options: Mapping[str, object] | None = None) -> dict[str, Any]:
        out = super().resolve_options(players, options)
        if out["missions"] and out["variant"] == "beginner":
            from tablero.core.errors import OptionError

            raise OptionError("option missions=true needs variant=advanced (§16)")
        return out

    def new_initial_state(self, players: int, options: Mapping[str, object] | None = None) -> MafiaState:
        o = self.resolve_options(players, options)
        s = MafiaState()
        n = s.n = players
        s.variant = str(o["variant"])
        s.missions = bool(o["missions"])
        s.start_option = None if o["start_seat"] == "random" else int(o["start_seat"])
        s.families_opt = None if o["families"] == "choose" else tuple(o["families"])
        s.bonus_basis = str(o["bonus_basis"])
        adv = s.variant == "advanced"
        s.goal = data.GOAL if adv else data.BEGINNER_GOAL
        s.month, s.phase, s.tp = 1, 1, 0
        s.order = list(range(n))
        s.family = [""] * n
        s.hand_a = [{} for _ in range(n)]
        s.hand_m = [{} for _ in range(n)]
        s.screen = [{} for _ in range(n)]
        s.discs = [data.DISCS] * n
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
        s.row = [""] * 4
        s.job = ""
        s.job_done_month = False
        s.powers = [-1] * len(POWERS)
        s.decks = {
            "A": {c.id: c.count for c in data.ACTION_CARDS if adv or c.id not in data.BEGINNER_REMOVED},
            "M": dict(data.MONEY_COUNTS),
            "C": {c.id: 1 for c in data.CHARACTERS if players == 4 or not c.four_only},
            "J": {j.id: 1 for j in data.JOBS},
            "E": {e: 1 for e in data.EVENTS} if adv else {},
            "X": {m: 1 for m in data.MISSIONS} if s.missions else {},
        }
        s.job_bottom = []
        s.event_bottom = []
        s.disc_a, s.disc_m, s.disc_c = {}, {}, {}
        s.ashtray = 0
        s.this_events, s.next_events = [], []
        s.star = False
        s.step = s.played = 0
        s.limit = data.PLAY_LIMIT
        s.mm_hand, s.mm_screen = {}, {}
        s.grossoffensive = False
        s.pend = ()
        s.tasks = []
        s.actors = ()
        s.dice = []
        s.event_choice = []
        s.pdisc = [{} for _ in range(n)]
        s.pneed = [0] * n
        s.over = False
        s.winners = None
        s.last = (CHANCE, "", "")
        s.version = 0
        s.reveals = []
        self._push(s, ("start_seat",), ("families",), ("deal",), ("turn",))
        self._run(s, None)
        return s

    def max_game_length(self, players: int) -> int:
        return 30_000

    @staticmethod
    def _push(s: MafiaState, *tasks: tuple[Any, ...]) -> None:
        """Schedule tasks to run in the given order, before anything already scheduled."""
        s.tasks.extend(reversed(tasks))

    # ------------------------------------------------------------------ engine loop
    def _run(self, s: MafiaState, ev: Events) -> None:
        while not s.pend and not s.over:
            if not s.tasks:
                raise AssertionError("no task and no decision")
            t = s.tasks.pop()
            getattr(self, "_t_" + t[0])(s, t, ev)
            self._end_check(s, ev)
        self._set_actors(s)

    def _set_actors(self, s: MafiaState) -> None:
        if s.over or not s.pend:
            s.actors = ()
        elif s.pend[0] in ("chance_draw", "chance_roll", "chance_start"):
            s.actors = (CHANCE,)
        elif s.pend[0] == "discards":
            s.actors = tuple(q for q in s.order if s.pneed[q] > 0)
        else:
            s.actors = (s.pend[1],)

    def adv(self, s: MafiaState) -> bool:
        return s.variant == "advanced"

    def ev_on(self, s: MafiaState, e: str) -> bool:
        return e in s.this_events

    # ------------------------------------------------------------------ setup tasks
    def _t_start_seat(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        if s.start_option is None:
            s.pend = ("chance_start",)
        else:
            self._set_start(s, s.start_option, ev)

    def _set_start(self, s: MafiaState, seat: int, ev: Events) -> None:
        s.order = [(seat + i) % s.n for i in range(s.n)]
        _ev(ev, "ml.start", seat=seat)

    def _t_families(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        if s.families_opt is not None:
            for q in range(s.n):
                s.family[q] = s.families_opt[q]
            return
        for q in reversed(s.order):
            if not s.family[q]:
                s.pend = ("family", q)
                s.tasks.append(("families",))
                return

    def _t_deal(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        tasks: list[tuple[Any, ...]] = []
        tasks += [("draw", "A", q, data.START_ACTIONS, "hand") for q in s.order]
        tasks += [("draw", "M", q, data.START_MONEY, "screen") for q in s.order]
        if s.missions:
            tasks += [("draw", "X", q, 1, "mission") for q in s.order]
        tasks += [("draw", "C", -1, 1, f"row{k}") for k in range(4)]
        tasks.append(("draw", "J", -1, 1, "job"))
        self._push(s, *tasks)

    # ------------------------------------------------------------------ draws (§12 running out, §18.3)
    def _t_draw(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        _, deck, seat, count, dest = t
        if count <= 0:
            return
        d = s.decks[deck]
        if not d:
            if deck in ("A", "M"):
                disc = s.disc_a if deck == "A" else s.disc_m
                if disc:
                    s.decks[deck] = dict(disc)
                    disc.clear()
                    _ev(ev, "ml.reshuffle", deck=deck)
                    d = s.decks[deck]
            elif deck == "J" and s.job_bottom:
                card = s.job_bottom.pop(0)
                self._place_drawn(s, deck, seat, dest, card, ev)
                s.tasks.append(("draw", deck, seat, count - 1, dest))
                return
            elif deck == "E" and s.event_bottom:
                card = s.event_bottom.pop(0)[0]
                self._place_drawn(s, deck, seat, dest, card, ev)
                s.tasks.append(("draw", deck, seat, count - 1, dest))
                return
        if not d:
            _ev(ev, "ml.draw_lost", deck=deck, seat=seat, count=count)
            return
        s.tasks.append(("draw", deck, seat, count - 1, dest))
        s.pend = ("chance_draw", deck, seat, dest)

    def _place_drawn(self, s: MafiaState, deck: str, seat: int, dest: str, card: str, ev: Events) -> None:
        if dest == "hand":
            if card in MONEY:
                _add(s.screen[seat], card)
            else:
                _add(s.hand_a[seat], card)
            _ev(ev, "ml.draw", [seat], Message("ml.draw.hidden", seat=seat, deck=deck), seat=seat, card=card)
        elif dest == "screen":
            _add(s.screen[seat], card)
            _ev(ev, "ml.draw", [seat], Message("ml.draw.hidden", seat=seat, deck=deck), seat=seat, card=card)
        elif dest == "mission":
            s.mission[seat] = card
            _ev(ev, "ml.mission", [seat], Message("ml.mission.hidden", seat=seat), seat=seat, card=card)
        elif dest.startswith("row"):
            k = int(dest[3:])
            s.row[k] = card
            _ev(ev, "ml.row", slot=k + 1, card=card)
        elif dest == "job":
            s.job = card
            _ev(ev, "ml.job", card=card)
        elif dest == "event":
            s.event_choice.append([card, seat])
            _ev(ev, "ml.event_drawn", [seat], Message("ml.event_drawn.hidden", seat=seat), seat=seat, card=card)

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self, state: MafiaState) -> Sequence[tuple[MLAction, float]]:
        s = state
        if not s.pend:
            return []
        k = s.pend[0]
        if k == "chance_start":
            return [(act("start", q), 1.0 / s.n) for q in range(s.n)]
        if k == "chance_roll":
            return [(act("roll", v), 1.0 / data.DIE_SIDES) for v in range(1, data.DIE_SIDES + 1)]
        if k == "chance_draw":
            d = s.decks[s.pend[1]]
            total = _count(d)
            return [(act("draw", c), d[c] / total) for c in sorted(d)]
        return []

    def sample_chance(self, state: MafiaState, rng: Random) -> MLAction:
        s = state
        k = s.pend[0]
        if k == "chance_start":
            return act("start", rng.randrange(s.n))
        if k == "chance_roll":
            return act("roll", rng.randrange(data.DIE_SIDES) + 1)
        d = s.decks[s.pend[1]]
        r = rng.randrange(_count(d))
        for c in sorted(d):
            r -= d[c]
            if r < 0:
                return act("draw", c)
        raise AssertionError("deck counts out of step")

    # ------------------------------------------------------------------ protocol
    def to_act(self, state: MafiaState) -> tuple[Player, ...]:
        return state.actors

    def always_asked(self, state: MafiaState, player: Player) -> bool:
        """Steps 1–3 of a played turn and DEFEND are asked even with one option (§18.4)."""
        return bool(state.pend) and state.pend[0] in ("turn", "defend")

    def legal_actions(self, state: MafiaState, player: Player) -> Sequence[MLAction]:
        if player == CHANCE or player not in state.actors:
            return ()
        key = (state.version, player, state.pend)
        ref, cached_key, cached = _LEGAL_CACHE
        if cached_key == key and ref is not None and ref() is state:
            return cached  # type: ignore[no-any-return]
        from tablero.games.mafia.moves import legal

        found = tuple(legal(self, state, player))
        _LEGAL_CACHE[:] = [weakref.ref(state), key, found]
        return found

    def apply(self, state: MafiaState, player: Player, action: MLAction, events: list[Event] | None = None) -> None:
        s = state
        if player == CHANCE:
            if s.actors != (CHANCE,):
                raise _illegal("no chance event is due now", ErrorCode.NOT_YOUR_TURN)
            if not any(a == action for a, _ in self.chance_outcomes(s)):
                raise _illegal(f"{action.to_text()!r} is not a possible chance outcome now")
            self._chance(s, action, events)
        else:
            if player not in s.actors:
                raise _illegal(f"seat {player} cannot act now", ErrorCode.NOT_YOUR_TURN)
            if action not in self.legal_actions(s, player):
                raise _illegal(f"{action.to_text()!r} is not legal for seat {player} now "
                               f"(decision: {s.pend[0]})")
            from tablero.games.mafia.moves import decide

            public = self._public_text(s, player, action)
            decide(self, s, player, action, events)
            s.last = (player, action.to_text(), public)
        if player == CHANCE:
            s.last = (player, action.to_text(), self._public_text(s, player, action))
        s.version += 1
        self._end_check(s, events)
        self._run(s, events)

    def _public_text(self, s: MafiaState, player: int, a: MLAction) -> str:
        if player == CHANCE:
            return a.kind if a.kind == "draw" else a.to_text()
        if a.kind in ("to_hand", "to_screen"):
            return a.kind
        if a.kind == "spitzel_take":
            return f"spitzel_take {a.args[0]} {a.args[2]}"
        if a.kind == "play":
            if len(a.args) > 3:  # face up: public
                return a.to_text()
            return f"play {a.args[1]} {a.args[2]}"
        if a.kind == "set_aside":
            return "set_aside"
        return a.to_text()

    def _chance(self, s: MafiaState, a: MLAction, ev: Events) -> None:
        k = s.pend[0]
        if k == "chance_start":
            s.pend = ()
            self._set_start(s, int(a.args[0]), ev)
        elif k == "chance_roll":
            s.pend = ()
            s.dice.append(int(a.args[0]))
            _ev(ev, "ml.roll", value=int(a.args[0]))
        else:
            _, deck, seat, dest = s.pend
            s.pend = ()
            card = a.args[0]
            _take(s.decks[deck], card)
            self._place_drawn(s, deck, seat, dest, card, ev)

    # ------------------------------------------------------------------ turns (§7)
    def _t_turn(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        p = s.active
        if s.sitout[p]:
            s.sitout[p] -= 1
            _ev(ev, "ml.sit_out", seat=p)
            s.tasks.append(("next_turn",))
            return
        s.step = 1
        s.played = 0
        s.limit = data.CURFEW_LIMIT if self.ev_on(s, "EV11") else data.PLAY_LIMIT
        s.mm_hand, s.mm_screen = {}, {}
        s.grossoffensive = False
        s.pend = ("turn", p)
        _ev(ev, "ml.turn", seat=p, month=s.month, phase=s.phase)

    def _t_resume(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        """Back to the active player's open turn decision (after draws or a resolution)."""
        p = s.active
        if s.step == 3 and not (s.job and s.fields[p][0]):
            s.step = 4
        if s.step == 4:
            self._push(s, ("draw", "A", p, max(0, data.DRAW_BACK - s.played), "hand"),
                       ("hand_limit", p), ("next_turn",))
            return
        s.pend = ("turn", p)

    def _t_hand_limit(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        p = t[1]
        excess = _count(s.hand_a[p]) - data.HAND_LIMIT
        if excess > 0:
            s.pneed[p] = excess
            s.pend = ("discard", p, "limit")

    def _t_next_turn(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        s.step = 0
        s.played = 0
        s.mm_hand, s.mm_screen = {}, {}
        s.grossoffensive = False
        s.tp += 1
        if s.tp < s.n:
            s.tasks.append(("turn",))
            return
        s.tp = 0
        if s.phase < data.PHASES:
            s.phase += 1
            s.tasks.append(("turn",))
            return
        s.tp = -1
        s.reveals = []
        _ev(ev, "ml.month_end", month=s.month)
        self._push(s, ("me1", 0), ("me2", 0), ("me3", 0), ("me4", 0), ("me5",), ("me6",), ("me7",),
                   ("me8",), ("me9",), ("me10",), ("me11",), ("me12",))

    # ------------------------------------------------------------------ attacks (§8)
    def _t_attack(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        """Resolve the attack in ``target``'s attack field; stage per §8.3."""
        _, target, stage, month_end = t
        x = s.atk[target]
        if x is None or x[0] == "DISC":
            return
        card, attacker = x[0], x[1]
        c = ACTIONS[card]
        if stage == 0:
            if not x[2] or x[5] != ALL:
                x[5] = ALL
                _ev(ev, "ml.reveal_attack", seat=attacker, target_seat=target, card=card)
            if c.symbol == "star":
                if not month_end or s.star:
                    _ev(ev, "ml.star_ignored", card=card)
                    self._discard_attack(s, target, ev)
                    return
                s.star = True
            if self.adv(s) and ((c.symbol == "badge" and s.powers[1] == target)
                                or (c.symbol == "star" and s.powers[3] == target)):
                _ev(ev, "ml.immune", target_seat=target, card=card)
                self._discard_attack(s, target, ev)
                return
            if self.adv(s) and s.family[target] == "lombardo" and not s.ability_used[target]:
                s.pend = ("guardian", target)
                s.tasks.append(("attack", target, 1, month_end))
                return
            stage = 1
        if stage == 1:
            if not x[4]:
                s.pend = ("defend", target)
                s.tasks.append(("attack", target, 2, month_end))
                return
            stage = 2
        # stage 2: compare (§8.3 step 5)
        strength = c.fist + (data.EV02_FIST if c.symbol == "badge" and self.ev_on(s, "EV02") else 0)
        d = x[4]
        if d:
            dc = ACTIONS[d]
            if dc.strength == data.CANCEL:
                ok = False
            else:
                ok = strength > dc.strength - (data.EV10_DEFENCE if self.ev_on(s, "EV10") else 0)
        else:
            ok = strength > 0
        if not ok:
            _ev(ev, "ml.attack_failed", seat=attacker, target_seat=target, card=card)
            self._discard_attack(s, target, ev)
            return
        _ev(ev, "ml.attack_succeeds", seat=attacker, target_seat=target, card=card)
        self._push(s, ("attack_effect", target, attacker, card), ("draw", "M", attacker, c.dollar, "screen"),
                   ("discard_attack", target))

    def _t_discard_attack(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        self._discard_attack(s, t[1], ev)

    def _discard_attack(self, s: MafiaState, target: int, ev: Events) -> None:
        x = s.atk[target]
        if x is None or x[0] == "DISC":
            return
        _add(s.disc_a, x[0])
        if x[4]:
            _add(s.disc_a, x[4])
        s.atk[target] = None

    def _t_attack_effect(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        _, target, attacker, card = t
        c = ACTIONS[card]
        if c.symbol == "badge":
            if any(s.fields[target]):
                s.pend = ("raid", attacker, target)
        elif c.symbol == "cross":
            if s.chars[target]:
                s.pend = ("hit", attacker, target)
        elif c.symbol == "hand":
            if s.chars[target]:
                s.pend = ("hand_over", target, attacker)
        else:
            mult = 2 if self.ev_on(s, "EV05") else 1
            loss = min(s.vp[target], data.STAR_LOSS * c.stars * mult)
            s.vp[target] -= loss
            s.vp[attacker] += data.STAR_GAIN * c.stars * mult
            _ev(ev, "ml.scandal", target_seat=target, loss=loss, seat=attacker,
                gain=data.STAR_GAIN * c.stars * mult)

    def raid(self, s: MafiaState, target: int, f: int, ev: Events) -> None:
        cards = s.fields[target][f]
        s.fields[target][f] = []
        for slot in cards:
            if slot[0] in MONEY:
                _add(s.disc_m, slot[0])
            else:
                _add(s.disc_a, slot[0])
        _ev(ev, "ml.raided", target_seat=target, field=FIELD_NAMES[f], cards=tuple(x[0] for x in cards))

    def lose_character(self, s: MafiaState, owner: int, card: str, to: int, ev: Events) -> None:
        s.chars[owner].remove(card)
        if to < 0:
            _add(s.disc_c, card)
            _ev(ev, "ml.hit", target_seat=owner, card=card)
        else:
            s.chars[to].append(card)
            s.acquired[to] += 1
            _ev(ev, "ml.handed_over", target_seat=owner, seat=to, card=card)
            self._check_sets(s, to, ev)
        self._update_powers(s, ev)

    # ------------------------------------------------------------------ jobs (§9)
    def job_tags_ok(self, s: MafiaState, cards: Sequence[str]) -> bool:
        need: dict[str, int] = {}
        for tag in JOBS_BY_ID[s.job].tags:
            _add(need, tag)
        have: dict[str, int] = {}
        for c in cards:
            if c in ACTIONS and ACTIONS[c].tag:
                _add(have, ACTIONS[c].tag)
        return all(have.get(k, 0) >= v for k, v in need.items())

    def job_dice(self, cards: Sequence[str]) -> int:
        return min(data.MAX_DICE, sum(ACTIONS[c].dice for c in cards if c in ACTIONS))

    def _t_job(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        """An attempt (§9.2): immediate (own turn) or at ME2; reveals, tags, dice."""
        _, q, immediate = t
        field = s.fields[q][0]
        if not field:
            return
        if not s.job:
            self._discard_field(s, q, 0, ev)
            return
        counted = []
        for slot in field:
            if slot[2] != ALL:
                slot[2] = ALL
            c = slot[0]
            if c in ACTIONS and ACTIONS[c].symbol == "star":
                if immediate or s.star:
                    continue
                s.star = True
            counted.append(c)
        s.reveals.append(("job", q, tuple(x[0] for x in field)))
        _ev(ev, "ml.job_reveal", seat=q, cards=tuple(x[0] for x in field))
        if self.job_tags_ok(s, counted):
            self._push(s, ("job_success", q, tuple(counted)), ("discard_field", q, 0))
            return
        dice = self.job_dice(counted)
        if dice == 0:
            _ev(ev, "ml.job_abandon", seat=q)
            self._discard_field(s, q, 0, ev)
            return
        if immediate:
            self._push(s, ("roll", q, dice, tuple(counted)))
        else:
            s.pend = ("job_roll", q, dice, tuple(counted))

    def _t_roll(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        _, q, dice, counted = t
        s.dice = []
        self._push(s, *[("roll_die",)] * dice, ("job_result", q, counted, False))

    def _t_roll_die(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        s.pend = ("chance_roll",)

    def _t_job_result(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        _, q, counted, rerolled = t
        job = JOBS_BY_ID[s.job]
        target = job.dice_sum - (data.EV06_DICE if self.ev_on(s, "EV06") else 0)
        total = sum(s.dice)
        if total >= target:
            _ev(ev, "ml.job_roll_ok", seat=q, total=total, target=target)
            self._push(s, ("job_success", q, counted), ("discard_field", q, 0))
            return
        if (not rerolled and self.adv(s) and s.family[q] == "santori" and not s.ability_used[q]):
            s.pend = ("reroll", q, counted)
            return
        s.sitout[q] += job.failure
        _ev(ev, "ml.job_failed", seat=q, total=total, target=target, sitout=job.failure)
        self._discard_field(s, q, 0, ev)

    def _t_job_success(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        _, q, counted = t
        job = JOBS_BY_ID[s.job]
        s.vp[q] += job.ep
        s.jobs_done[q].append(s.job)
        s.job_done_month = True
        money = job.dollar + sum(ACTIONS[c].dollar for c in counted if c in ACTIONS)
        money += data.EV15_MONEY if self.ev_on(s, "EV15") else 0
        _ev(ev, "ml.job_done", seat=q, job=s.job, vp=job.ep, money=money)
        s.job = ""
        self._push(s, ("draw", "M", q, money, "screen"), ("draw", "J", -1, 1, "job"))

    def _t_discard_field(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        self._discard_field(s, t[1], t[2], ev)

    def _discard_field(self, s: MafiaState, q: int, f: int, ev: Events) -> None:
        for slot in s.fields[q][f]:
            _add(s.disc_m if slot[0] in MONEY else s.disc_a, slot[0])
        s.fields[q][f] = []

    # ------------------------------------------------------------------ month end (§12)
    def _t_me1(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        i = t[1]
        if i >= s.n:
            return
        s.tasks.append(("me1", i + 1))
        q = s.order[i]
        x = s.atk[q]
        if x is not None and x[0] != "DISC":
            s.tasks.append(("attack", q, 0, True))

    def _t_me2(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        i = t[1]
        if i >= s.n:
            return
        s.tasks.append(("me2", i + 1))
        q = s.order[i]
        if s.fields[q][0]:
            s.tasks.append(("job", q, False))

    def _t_me3(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        k = t[1]
        if k >= 4:
            return
        s.tasks.append(("me3", k + 1))
        s.tasks.append(("column", k, 0, -1))

    def _t_column(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        """§10.1 for column K(k+1): reveal, Barone, eligibility, winner, bonuses, cleanup."""
        _, k, stage, ties = t
        f = k + 1
        x = s.row[k]
        if stage == 0:
            if not x:
                for q in range(s.n):
                    self._discard_field(s, q, f, ev)
                return
            present = [q for q in s.order if s.fields[q][f]]
            if not present:
                return
            for q in present:
                for slot in s.fields[q][f]:
                    slot[2] = ALL
                    c = slot[0]
                    if c in ACTIONS and ACTIONS[c].symbol == "star":
                        if s.star:
                            slot[3] = True  # a later star card: ignored (§8.5)
                        else:
                            s.star = True
            s.reveals.append(("column", k + 1, tuple((q, tuple(sl[0] for sl in s.fields[q][f])) for q in present)))
            _ev(ev, "ml.column_reveal", slot=k + 1, cards=tuple(
                Message("ml.field", seat=q, cards=tuple(sl[0] for sl in s.fields[q][f])) for q in present))
            barone = [q for q in present if s.family[q] == "barone" and not s.ability_used[q]]
            if self.adv(s) and barone:
                s.pend = ("family_ties", barone[0])
                s.tasks.append(("column", k, 1, barone[0]))
                return
        ch = CHARS[x]
        bribe = ch.bribe
        if bribe is not None and self.ev_on(s, "EV01"):
            bribe = max(1, bribe - data.EV01_BRIBE)
        best, best_score = -1, -1
        for q in s.order:
            cards = s.fields[q][f]
            if not cards:
                continue
            m = sum(MONEY[sl[0]] for sl in cards if sl[0] in MONEY)
            fist = sum(ACTIONS[sl[0]].fist for sl in cards if sl[0] in ACTIONS and not sl[3])
            eligible = (bribe is not None and m >= bribe) or (ch.blackmail is not None and fist >= ch.blackmail)
            if q == ties:
                eligible = True
            if not eligible:
                continue
            score = m + fist
            if score > best_score or (q == ties and score == best_score):
                best, best_score = q, score
        if best < 0:
            _ev(ev, "ml.no_winner", slot=k + 1, card=x)
            self._push(s, ("column_cleanup", k, -1))
            return
        dollars = sum(ACTIONS[sl[0]].dollar for sl in s.fields[best][f] if sl[0] in ACTIONS and not sl[3])
        self._push(s, ("win", k, best), ("win_bonus", best, x), ("draw", "M", best, dollars, "screen"),
                   ("column_cleanup", k, best))

    def _t_win(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        _, k, w = t
        x = s.row[k]
        s.row[k] = ""
        s.chars[w].append(x)
        s.acquired[w] += 1
        _ev(ev, "ml.win_character", seat=w, card=x)
        self._update_powers(s, ev)

    def _t_win_bonus(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        """Gift, set, then E or A (§10.3); each its own task so the end check runs between."""
        _, w, x = t
        ch = CHARS[x]
        tasks: list[tuple[Any, ...]] = []
        if ch.gift:
            tasks.append(("gift", w, ch.gift + (data.EV07_GIFT if self.ev_on(s, "EV07") else 0)))
        tasks.append(("sets", w))
        if ch.symbol == "E" and self.adv(s) and s.month < data.MONTHS:
            tasks.append(("draw", "E", w, data.E_DRAW, "event"))
            tasks.append(("choose_event", w))
        elif ch.symbol == "A":
            tasks.append(("ask_a", w))
        self._push(s, *tasks)

    def _t_gift(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        s.vp[t[1]] += t[2]
        _ev(ev, "ml.gift", seat=t[1], vp=t[2])

    def _t_sets(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        self._check_sets(s, t[1], ev)

    def _check_sets(self, s: MafiaState, w: int, ev: Events) -> None:
        for name, (a, b) in data.SETS.items():
            if name not in s.sets[w] and a in s.chars[w] and b in s.chars[w]:
                s.sets[w].append(name)
                vp = CHARS[a].gift + CHARS[b].gift
                s.vp[w] += vp
                _ev(ev, "ml.set", seat=w, set=name, vp=vp)

    def _t_choose_event(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        w = t[1]
        if len(s.event_choice) >= 2:
            s.pend = ("choose_event", w)
        elif s.event_choice:
            self.keep_event(s, w, s.event_choice[0][0], ev)

    def keep_event(self, s: MafiaState, w: int, card: str, ev: Events) -> None:
        s.next_events.append(card)
        _ev(ev, "ml.event_kept", seat=w, card=card)
        others = [e[0] for e in s.event_choice]
        others.remove(card)
        for other in others:
            s.event_bottom.append([other, w])
        s.event_choice = []

    def _t_ask_a(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        s.pend = ("a_draw", t[1])

    def _t_column_cleanup(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        """§10.1 step 6/7: winner's money discarded, others' money back behind screens."""
        _, k, w = t
        f = k + 1
        for q in range(s.n):
            for slot in s.fields[q][f]:
                c = slot[0]
                if c in MONEY:
                    if q == w:
                        _add(s.disc_m, c)
                    else:
                        _add(s.screen[q], c)
                else:
                    _add(s.disc_a, c)
            s.fields[q][f] = []

    def _t_me4(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        k = t[1]
        if k >= 4:
            return
        s.tasks.append(("me4", k + 1))
        if not s.row[k]:
            self._push(s, ("draw", "C", -1, 1, f"row{k}"), ("magnifier", k))

    def _t_magnifier(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        x = s.row[t[1]]
        if not x or CHARS[x].symbol != "L" or not self.adv(s):
            return
        need = [max(0, _count(s.hand_a[q]) - data.MAGNIFIER_LIMIT) for q in range(s.n)]
        if any(need):
            s.pneed = need
            s.pdisc = [{} for _ in range(s.n)]
            s.pend = ("discards", -1, "magnifier")

    def _t_me5(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        for i, pw in enumerate(POWERS):
            h = s.powers[i]
            if h >= 0:
                s.vp[h] += pw.vp
                _ev(ev, "ml.power_vp", seat=h, power=pw.id, vp=pw.vp)

    def _t_me6(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        counts = s.acquired if s.bonus_basis == "month" else [len(c) for c in s.chars]
        top = max(counts)
        if top < 1:
            return
        tied = [q for q in range(s.n) if counts[q] == top]
        mult = 2 if self.ev_on(s, "EV13") else 1
        full = s.month * mult
        bev = s.powers[4]
        if len(tied) == 1:
            gains = {tied[0]: full}
        elif self.adv(s) and bev in tied:
            gains = {bev: full}
        else:
            gains = {q: (s.month // 2) * mult for q in tied}
        for q, g in gains.items():
            s.vp[q] += g
            _ev(ev, "ml.monthly_bonus", seat=q, vp=g)

    def _t_me7(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        tasks: list[tuple[Any, ...]] = []
        if self.adv(s) and s.powers[2] >= 0:
            tasks.append(("draw", "M", s.powers[2], 1, "screen"))
        if self.ev_on(s, "EV08"):
            tasks.append(("audit",))
        self._push(s, *tasks)

    def _t_audit(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        need = [max(0, _count(s.hand_m[q]) + _count(s.screen[q]) - data.EV08_LIMIT) for q in range(s.n)]
        if any(need):
            s.pneed = need
            s.pdisc = [{} for _ in range(s.n)]
            s.pend = ("discards", -1, "audit")

    def _t_me8(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        if s.job_done_month or not s.job:
            return
        if not s.decks["J"] and not s.job_bottom:
            return
        s.job_bottom.append(s.job)
        _ev(ev, "ml.job_rotated", job=s.job)
        s.job = ""
        s.tasks.append(("draw", "J", -1, 1, "job"))

    def _t_me9(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        for q in range(s.n):
            x = s.atk[q]
            if x is not None and x[0] != "DISC":
                self._discard_attack(s, q, ev)
            s.atk[q] = None
            for f in range(len(FIELD_NAMES)):
                self._discard_field(s, q, f, ev)
        s.this_events = []
        s.star = False
        s.ashtray = 0
        s.acquired = [0] * s.n
        s.job_done_month = False

    def _t_me10(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        if s.month >= data.MONTHS:
            self._finish(s, ev, december=True)

    def _t_me11(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        s.order.sort(key=lambda q: s.vp[q])  # stable: equal VP keep their order (§14)
        h = s.powers[0]
        if self.adv(s) and h >= 0:
            s.pend = ("politik", h)
            s.tasks.append(("order_done",))
            return
        self._t_order_done(s, t, ev)

    def _t_order_done(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        _ev(ev, "ml.order", seats=tuple(s.order))

    def _t_me12(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        s.month += 1
        s.phase = 1
        s.tp = 0
        s.this_events = s.next_events
        s.next_events = []
        _ev(ev, "ml.new_month", month=s.month, events=tuple(s.this_events))
        tasks: list[tuple[Any, ...]] = []
        if s.month in data.PAYDAY_MONTHS:
            dollars = {q: sum(CHARS[c].dollars for c in s.chars[q]) for q in s.order}
            for r in range(max(dollars.values(), default=0)):
                tasks += [("draw", "M", q, 1, "screen") for q in s.order if dollars[q] > r]
        if s.month == data.RESHUFFLE_MONTH:
            tasks.append(("reshuffle",))
        if self.ev_on(s, "EV12"):
            tasks += [("draw", "M", q, 1, "screen") for q in s.order]
        tasks.append(("turn",))
        self._push(s, *tasks)

    def _t_reshuffle(self, s: MafiaState, t: tuple[Any, ...], ev: Events) -> None:
        """June (§12 ME12): action, money, character and job decks with their discards."""
        for deck, disc in (("A", s.disc_a), ("M", s.disc_m), ("C", s.disc_c)):
            for c, k in disc.items():
                _add(s.decks[deck], c, k)
            disc.clear()
        for j in s.job_bottom:
            _add(s.decks["J"], j)
        s.job_bottom = []
        _ev(ev, "ml.june_reshuffle")

    # ------------------------------------------------------------------ powers (§11)
    def influence(self, s: MafiaState, q: int, colour: str) -> int:
        return sum(CHARS[c].influence for c in s.chars[q] if CHARS[c].colour == colour)

    def _update_powers(self, s: MafiaState, ev: Events) -> None:
        for i, pw in enumerate(POWERS):
            infl = [self.influence(s, q, pw.colour) for q in range(s.n)]
            top = max(infl)
            h = s.powers[i]
            if h >= 0 and infl[h] == top and top >= pw.threshold:
                continue
            leaders = [q for q in range(s.n) if infl[q] == top]
            new = leaders[0] if len(leaders) == 1 and top >= pw.threshold else -1
            if new != h:
                s.powers[i] = new
                _ev(ev, "ml.power", power=pw.id, seat=new)

    # ------------------------------------------------------------------ end (§15)
    def mission_ok(self, s: MafiaState, q: int) -> bool:
        m = s.mission[q]
        if not s.missions:
            return True
        held = [i for i, h in enumerate(s.powers) if h == q]
        if m in ("M01", "M02", "M03", "M04", "M05"):
            return int(m[1:]) - 1 in held
        if m == "M06":
            return len(held) >= 2
        if m == "M07":
            return len(s.chars[q]) >= data.M07_CHARACTERS
        if m == "M08":
            return any(a in s.chars[q] and b in s.chars[q] for a, b in data.SETS.values())
        if m == "M09":
            return len(s.jobs_done[q]) >= data.M09_JOBS
        if m == "M10":
            return _money_value(s.hand_m[q]) + _money_value(s.screen[q]) >= data.M10_MONEY
        if m == "M11":
            return {CHARS[c].colour for c in s.chars[q]} >= {p.colour for p in POWERS}
        if m == "M12":
            return sum(CHARS[c].influence for c in s.chars[q]) >= data.M12_INFLUENCE
        return False

    def _end_check(self, s: MafiaState, ev: Events) -> None:
        if s.over or max(s.vp) < s.goal:
            return
        qualified = [q for q in range(s.n) if s.vp[q] >= s.goal and self.mission_ok(s, q)]
        if qualified:
            self._finish(s, ev, december=False, qualified=qualified)

    def tiebreak(self, s: MafiaState, q: int) -> tuple[int, int, int, int]:
        return (s.vp[q], len(s.chars[q]), sum(CHARS[c].influence for c in s.chars[q]),
                _money_value(s.hand_m[q]) + _money_value(s.screen[q]))

    def _finish(self, s: MafiaState, ev: Events, *, december: bool, qualified: list[int] | None = None) -> None:
        s.over = True
        s.pend = ()
        s.tasks = []
        s.actors = ()
        if qualified is None:
            qualified = [q for q in range(s.n) if self.mission_ok(s, q)]
        if qualified:
            best = max(self.tiebreak(s, q) for q in qualified)
            s.winners = tuple(q for q in qualified if self.tiebreak(s, q) == best)
        else:
            s.winners = ()
        _ev(ev, "ml.game_over", seats=s.winners, vp=tuple(s.vp))

    def result(self, state: MafiaState) -> Result | None:
        s = state
        if not s.over:
            return None
        keys = [self.tiebreak(s, q) for q in range(s.n)]
        ranks = tuple(1 + sum(1 for o in keys if o > k) for k in keys)
        return Result(scores=tuple(float(v) for v in s.vp), ranks=ranks, declared_winners=s.winners)

    # ------------------------------------------------------------------ information
    def observe(self, state: MafiaState, viewer: Viewer) -> Any:
        from tablero.games.mafia.view import observe

        return observe(state, viewer)

    def determinize(self, view: Any, viewer: Player, rng: Random) -> MafiaState:
        from tablero.games.mafia.view import determinize

        return determinize(self, view, viewer, rng)

    def score_of(self, view: Any, seat: int) -> float:
        return float(view.vp[seat])

    # ------------------------------------------------------------------ text
    def parse_action(self, state: MafiaState, player: Player, text: str) -> MLAction:
        return parse(text)

    def describe(self, state: MafiaState, player: Player, action: MLAction, viewer: Viewer) -> Message:
        from tablero.games.mafia.text import describe

        return describe(state, player, action, viewer)

    def catalogue(self) -> Catalogue:
        from tablero.games.mafia.text import CATALOGUE

        return CATALOGUE

    def table_data(self) -> dict[str, Any]:
        from tablero.games.mafia.data import table_data

        return table_data()

    def render(self, view: Any, tr: Callable[[Message], str]) -> str:
        from tablero.games.mafia.text import render

        return render(view, tr)


GAME: Final = Mafia()
__all__ = ["ALL", "FIELD_NAMES", "GAME", "Mafia", "Slot"]
