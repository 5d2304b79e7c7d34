"""The core protocol every game implements.

A :class:`Game` is a stateless rules object (one instance serves every match); a state is
plain mutable data owned by one party, with a hand-written ``clone()``. Everything else —
actions, views, events, results — is immutable.

The life of a game, as the match driver (:mod:`tablero.core.match`) runs it::

    state = game.new_initial_state(players, options)
    while actors := game.to_act(state):           # () once the game is over
        if actors == (CHANCE,):                    # shuffles, draws, dice
            action = game.sample_chance(state, rng)
            game.apply(state, CHANCE, action)
        else:                                      # one seat, or several committing secretly
            seat = actors[0]
            action = choose(game.legal_actions(state, seat))
            game.apply(state, seat, action)        # checks; raises and changes nothing if illegal
    game.result(state)

What a game writes: ``generate_legal`` (a seat's legal actions, sorted by action index),
``chance_outcomes`` and ``step`` (the transition of an action already checked). The core's
``apply`` checks the actor and legality once and calls ``step``; ``apply_unchecked`` skips the
checks for search and playouts; ``legal_actions`` computes a decision's actions once and keeps
them in the state's ``legal_cache`` until the next step. ``action_codec`` / ``chance_codec``
number every action; ``state_to_json`` / ``state_from_json`` (free for annotated states) carry
a position in and out, with ``state_hash`` and ``debug_text`` beside them.

Who may act:

* ``to_act`` names the seats that must decide now. Usually one seat; it need not be the turn
  player (El Grande's Veto! window, Mafia Legend's defence cards). Several seats mean
  simultaneous secret commitments: each commits in any order, nobody sees another's
  commitment until the game reveals them all together.
* ``(CHANCE,)`` means a chance node: ``chance_outcomes`` lists the outcomes with weights and
  ``sample_chance`` draws one; the outcome is applied like any action, so a game's record of
  applied actions replays with no RNG at all.
* A seat with exactly one legal action takes a *forced step*: the driver applies it at once,
  unless ``always_asked`` says that decision is put to the player anyway. A forced step is an
  ordinary record entry, but its timing shows every other seat that the seat had no choice;
  so wherever the number of options depends on what others may not see (a Don Carlo hand that
  forms exactly one code), ``always_asked`` is true and the seat is asked like any other time.
  The conformance suite checks this against re-dealt hidden information.
"""

from __future__ import annotations

import difflib
import math
import reprlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar, Final, Generic, Protocol, Self, TypeVar

from tablero.core import serial
from tablero.core.codec import ActionCodec
from tablero.core.errors import DataError, ErrorCode, IllegalActionError, OptionError, TableroError
from tablero.core.events import Event
from tablero.core.messages import Catalogue, Message

Player = int
Viewer = int | None  # None = spectator (public information only)
CHANCE: Final[Player] = -1


class Action(Protocol):
    """A context-free action with a stable wire text that ``Game.parse_action`` reads back.

    ``to_json`` gives its structure for the wire: ``{"kind": ..., <argument>: ...}``.
    """

    def to_text(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


class View(Protocol):
    """A seat's (or a spectator's) observation: immutable, comparable, JSON-serializable."""

    def to_json(self) -> dict[str, Any]: ...


class State(Protocol):
    legal_cache: tuple[int, Sequence[Any]] | None

    def clone(self) -> Self: ...


class GameState:
    """Base of every game state: plain annotated data in ``__slots__`` plus the core's cache.

    ``legal_cache`` holds ``(seat, legal actions)`` of the decision now open, filled by
    :meth:`Game.legal_actions` and cleared by :meth:`Game.apply_unchecked`; a hand-written
    ``clone`` may copy it (the clone is the same position). Code that edits a state's fields by
    hand (scenario builders in tests) calls :meth:`touch` afterwards.
    """

    __slots__ = ("legal_cache",)

    legal_cache: tuple[int, Sequence[Any]] | None

    def touch(self) -> None:
        """Forget the cached legal actions after editing fields by hand."""
        self.legal_cache = None


S = TypeVar("S", bound=State)
A = TypeVar("A", bound=Action)
V = TypeVar("V", bound=View)


@dataclass(frozen=True, slots=True, kw_only=True)
class OptionSpec:
    """One game option: its spec name, default, and a parser for command-line text."""

    name: str
    default: object
    parse: Callable[[str], object]
    help: str
    choices: tuple[str, ...] = ()
    check: Callable[[object, int], object] | None = None
    """Validates (and may normalise) a parsed value for a player count; raises ValueError."""


DATA_OPTION: Final = "data"
"""The reserved option that carries a table's data overrides: ``{"data": {NAME: value}}``.

Overrides travel with the options, so whatever keeps a game's options — a record, a stored
server game, a simulation job — keeps its overrides too, and a replay applies them again.
"""

VALUE_LIMIT: Final = 10**6
"""Largest magnitude of a number in a game's options, and in its rules data unless a
:class:`DataSpec` sets its own range: whatever a table may play with stays a number every bot,
score and clock handles (10**400 once passed and crashed the bots of a table for good)."""

MAX_ITEMS: Final = 1_000
"""Most entries of one option's or one data override's value (a list, a mapping, text)."""

MAX_VALUE_DEPTH: Final = 4
"""Deepest nesting of one option's value (a mapping of numbers is 1)."""

_SHORT = reprlib.Repr()
_SHORT.maxlong = _SHORT.maxstring = _SHORT.maxother = 40
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = _SHORT.maxfrozenset = 8
_SHORT.maxlevel = 3


def short(value: object) -> str:
    """``repr(value)`` cut to a few dozen characters (a value a refusal names may be huge)."""
    return _SHORT.repr(value)


def check_bounded(value: object, depth: int = 0) -> None:
    """Refuse (ValueError) a value no table plays with: a number beyond ±:data:`VALUE_LIMIT`, not
    finite, more than :data:`MAX_ITEMS` entries, nested deeper than :data:`MAX_VALUE_DEPTH`."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        if abs(value) > VALUE_LIMIT:
            raise ValueError(f"numbers lie within -{VALUE_LIMIT}..{VALUE_LIMIT}")
    elif isinstance(value, float):
        if not math.isfinite(value) or abs(value) > VALUE_LIMIT:
            raise ValueError(f"numbers lie within -{VALUE_LIMIT}..{VALUE_LIMIT}")
    elif isinstance(value, str):
        if len(value) > MAX_ITEMS:
            raise ValueError(f"at most {MAX_ITEMS} characters")
    elif isinstance(value, (Mapping, list, tuple, set, frozenset)):
        if depth >= MAX_VALUE_DEPTH:
            raise ValueError(f"nested at most {MAX_VALUE_DEPTH} deep")
        if len(value) > MAX_ITEMS:
            raise ValueError(f"at most {MAX_ITEMS} entries")
        for item in ([*value.keys(), *value.values()] if isinstance(value, Mapping) else value):
            check_bounded(item, depth + 1)


DATA_FIELD: Final = "data"
"""The state field holding a game's tables (the values it plays with, overrides applied)."""

DataValue = int | tuple[int, ...] | frozenset[int]
"""What an overridable data value is: a number, a row of numbers (a table's column, in order)
or a set of numbers (the rounds that score)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DataSpec:
    """One value of a game's data module that a run may override by name (``--data NAME=VALUE``).

    The values the specification marks (R) (reconstructed) or (single source): an owner of the
    real box corrects them here without editing files. ``name`` is the data module's name for it
    (``BEGINNER_GOAL``; a field of one card or country is ``TABLE.ID.FIELD``, e.g.
    ``COUNTRIES.land_8.points``). The kind follows ``default``: an int, a tuple of ints (text
    ``6,5,5,4``; ``length`` fixes how many) or a frozenset of ints (text ``3,6,9``). Every number
    lies in ``low``..``high`` (unset: within ±:data:`VALUE_LIMIT`); ``check`` may refuse a whole
    value (raise ValueError).
    """

    name: str
    default: DataValue
    help: str
    low: int | None = None
    high: int | None = None
    length: int | None = None
    source: str = "R"
    """Why it may be overridden: ``R`` (reconstruction) or ``single source``."""
    check: Callable[[DataValue], None] | None = None

    @property
    def kind(self) -> str:
        """``int``, ``ints`` (a tuple) or ``set`` (a frozenset)."""
        if isinstance(self.default, frozenset):
            return "set"
        return "ints" if isinstance(self.default, tuple) else "int"

    def parse(self, value: object) -> DataValue:
        """A value from command-line text (``6,5,5``) or JSON (a number, a list), checked."""
        items: list[object]
        if isinstance(value, str):
            text = value.strip()
            if len(text) > MAX_ITEMS:
                raise DataError(f"data {self.name}: at most {MAX_ITEMS} characters")
            items = [t.strip() for t in text.split(",")] if text else []
        elif isinstance(value, (list, tuple, frozenset, set)):
            if len(value) > MAX_ITEMS:
                raise DataError(f"data {self.name}: at most {MAX_ITEMS} numbers")
            items = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
        else:
            items = [value]
        numbers = [_data_int(self.name, v) for v in items]
        low = self.low if self.low is not None else -VALUE_LIMIT
        high = self.high if self.high is not None else VALUE_LIMIT
        for v in numbers:
            if not low <= v <= high:
                raise DataError(f"data {self.name}: {short(v)} is out of range {_range(self.low, self.high)}")
        out: DataValue
        if self.kind == "int":
            if len(numbers) != 1:
                raise DataError(f"data {self.name} is one whole number, not {short(value)}")
            out = numbers[0]
        elif self.kind == "ints":
            want = self.length if self.length is not None else len(self.default)  # type: ignore[arg-type]
            if len(numbers) != want:
                raise DataError(f"data {self.name} takes {want} numbers separated by commas, not {len(numbers)}")
            out = tuple(numbers)
        else:
            out = frozenset(numbers)
        if self.check is not None:
            try:
                self.check(out)
            except ValueError as exc:
                raise DataError(f"data {self.name}={data_json(out)}: {exc}") from exc
        return out

    def to_json(self) -> dict[str, Any]:
        """The spec for a client (the lobby's advanced section): name, kind, default, range."""
        return {"name": self.name, "kind": self.kind, "default": data_json(self.default), "help": self.help,
                "low": self.low, "high": self.high, "length": self.length, "source": self.source}


def _data_int(name: str, value: object) -> int:
    if isinstance(value, bool):
        raise DataError(f"data {name}: expected a whole number, got {short(value)}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and len(value.strip()) <= 40:
        try:
            return int(value.strip())
        except ValueError:
            pass
    raise DataError(f"data {name}: expected a whole number, got {short(value)}")


def _range(low: int | None, high: int | None) -> str:
    return f"{-VALUE_LIMIT if low is None else low}..{VALUE_LIMIT if high is None else high}"


def data_json(value: DataValue) -> int | list[int]:
    """A data value as JSON: a number, or a list (a set sorted)."""
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def resolve_data(game_id: str, specs: Sequence[DataSpec], overrides: object) -> dict[str, DataValue]:
    """Checked data overrides, in the specs' order: ``{NAME: value}`` (raises DataError).

    ``overrides`` is a mapping of names to text or JSON values (None or {} for none).
    """
    if overrides is None:
        return {}
    if not isinstance(overrides, Mapping):
        raise DataError(f"data overrides must be NAME=VALUE pairs, not {short(overrides)}")
    by_name = {d.name: d for d in specs}
    unknown = sorted(str(k) for k in overrides if k not in by_name)
    if unknown:
        name = unknown[0]
        row = name.rpartition(".")[0] + "."
        fields = [n for n in by_name if row != "." and n.startswith(row)]  # a known row's own fields
        close = ([n for n in by_name if n.lower() == name.lower()]
                 or difflib.get_close_matches(name, fields, n=1) or fields
                 or difflib.get_close_matches(name, by_name, n=3))
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        raise DataError(f"{game_id} has no overridable data value {name!r}{hint}; known: {data_names(specs)}")
    return {d.name: d.parse(overrides[d.name]) for d in specs if d.name in overrides}


def data_names(specs: Sequence[DataSpec]) -> str:
    """The names of ``specs`` for a message, short even for hundreds of card fields: the plain
    names, then per table its ids and fields (``GOAL, MONTHS; JOBS.ID.FIELD (ID J01 … J18, 18 of
    them; FIELD ep, dollar)``)."""
    plain: list[str] = []
    rows: dict[str, tuple[dict[str, None], dict[str, None]]] = {}  # table -> (ids, fields), in order
    for d in specs:
        table, dot, rest = d.name.partition(".")
        row, dot2, fld = rest.rpartition(".")
        if not (dot and dot2 and row):
            plain.append(d.name)
            continue
        ids, fields = rows.setdefault(table, ({}, {}))
        ids[row] = None
        fields[fld] = None
    out = [", ".join(plain)] if plain else []
    for table, (ids, fields) in rows.items():
        names = list(ids)
        shown = ", ".join(names) if len(names) <= 10 else f"{names[0]} … {names[-1]}, {len(names)} of them"
        if len(fields) == 1:
            out.append(f"{table}.ID.{next(iter(fields))} (ID {shown})")
        else:
            out.append(f"{table}.ID.FIELD (ID {shown}; FIELD {', '.join(fields)})")
    return "; ".join(out) or "none"


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """Final scores, shared ranks (1, 1, 3) and winners (every seat ranked 1)."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    declared_winners: tuple[int, ...] | None = None
    """Set where the rules decide the winners otherwise than by rank (possibly nobody)."""

    @property
    def winners(self) -> tuple[int, ...]:
        if self.declared_winners is not None:
            return self.declared_winners
        return tuple(i for i, r in enumerate(self.ranks) if r == 1)

    def win_share(self, seat: int) -> float:
        """1 for a sole winner, 1/k for each of k seats sharing first place, else 0."""
        w = self.winners
        return 1.0 / len(w) if seat in w else 0.0

    @staticmethod
    def from_scores(scores: Sequence[float]) -> Result:
        """Higher is better; equal scores share a rank, the next rank counts all above."""
        ranks = tuple(1 + sum(1 for o in scores if o > s) for s in scores)
        return Result(scores=tuple(scores), ranks=ranks)

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "ranks": list(self.ranks), "winners": list(self.winners)}


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of a score sheet: where points came from, and each seat's points from it."""

    label: Message
    values: tuple[float, ...]
    """Points per seat (seat order), negative for points lost."""
    group: Message | None = None
    """The heading the row sits under (a scoring round, "Influence", ...); None: no heading."""

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label.to_json(), "group": None if self.group is None else self.group.to_json(),
                "values": list(self.values)}


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Where each seat's final score came from: a column per seat, a row per source, a total row.

    Built by :meth:`Game.score_sheet` from public facts only. The total row is the column sums
    (:attr:`totals`), which equal the game's ``Result.scores`` (the tests check it over random
    games of every game and player count). Labels are messages of the game's catalogue.
    """

    players: int
    rows: tuple[SheetRow, ...]
    total: Message
    """The label of the total row."""

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row.values) != self.players:
                raise ValueError(f"score sheet row {row.label.id}: {len(row.values)} values for {self.players} seats")

    @property
    def totals(self) -> tuple[float, ...]:
        """The total row: each seat's sum over the rows."""
        return tuple(sum(r.values[p] for r in self.rows) for p in range(self.players))

    def messages(self) -> list[Message]:
        """Every label of the sheet (for catalogue checks)."""
        out = [self.total]
        for r in self.rows:
            out.append(r.label)
            if r.group is not None:
                out.append(r.group)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "rows": [r.to_json() for r in self.rows],
                "total": {"label": self.total.to_json(), "values": list(self.totals)}}


def parse_bool(text: str) -> bool:
    t = text.strip().lower()
    if t in ("1", "true", "yes", "on", "ja"):
        return True
    if t in ("0", "false", "no", "off", "nein"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def parse_start_seat(text: str) -> object:
    """Command-line text of a ``start_seat`` option: a seat number or ``random``."""
    t = text.strip().lower()
    if t == "random":
        return t
    if t.isdigit():
        return int(t)
    raise ValueError("expected a seat number or 'random'")


def check_start_seat(value: object, players: int) -> object:
    """A ``start_seat`` value: ``random`` or a seat of the table."""
    if value == "random":
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return value
    raise ValueError(f"start_seat must be 'random' or a seat 0-{players - 1}")


def resolve_options(game_id: str, min_players: int, max_players: int, specs: Sequence[OptionSpec],
                    players: int, options: Mapping[str, object] | None = None,
                    data_specs: Sequence[DataSpec] = ()) -> dict[str, Any]:
    """A game's options for a player count: defaults filled in, text parsed, every value checked.

    What ``Game.resolve_options`` does, as a function, for the parts of a game below its
    façade (a scenario builder) that must read options exactly as the game does.
    Data overrides come under the reserved key :data:`DATA_OPTION`, are checked against
    ``data_specs`` and stay there (resolved, as JSON-ready values) only when there are any, so
    the options of a game without overrides keep their shape. Raises :class:`TableroError` for a
    player count out of range, :class:`DataError` for a bad override, :class:`OptionError` else
    (also for a value no table plays with: :func:`check_bounded`, before and after the option's check).
    """
    if not min_players <= players <= max_players:
        raise TableroError(
            f"{game_id} takes {min_players}-{max_players} players, not {players}", code=ErrorCode.PLAYERS,
        )
    by_name = {o.name: o for o in specs}
    given = dict(options or {})
    data = resolve_data(game_id, data_specs, given.pop(DATA_OPTION, None))
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise OptionError(f"unknown option {short(unknown[0])} for {game_id}; known: {', '.join(by_name) or 'none'}")
    out: dict[str, Any] = {}
    for name, spec in by_name.items():
        value = given.get(name, spec.default)
        try:
            check_bounded(value)
            if isinstance(value, str) and not (spec.choices and value in spec.choices):
                value = spec.parse(value)
            if spec.choices and isinstance(value, str) and value not in spec.choices:
                raise ValueError(f"choose one of {', '.join(spec.choices)}")
            if spec.check is not None:
                value = spec.check(value, players)
            check_bounded(value)
        except (ValueError, TypeError) as exc:
            raise OptionError(f"option {name}={short(given.get(name))}: {exc}") from exc
        out[name] = value
    if data:
        out[DATA_OPTION] = {k: data_json(v) for k, v in data.items()}
    return out


def data_overrides(game_id: str, specs: Sequence[DataSpec],
                   options: Mapping[str, object] | None) -> dict[str, DataValue]:
    """The data overrides of (resolved) options as Python values (tuples, frozensets)."""
    return resolve_data(game_id, specs, (options or {}).get(DATA_OPTION))


class Game(ABC, Generic[S, A, V]):
    """Rules of one game. Stateless: all game data lives in the state."""

    id: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    data_version: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    data_specs: ClassVar[tuple[DataSpec, ...]] = ()
    """The data values a run may override (``--data NAME=VALUE``), see :class:`DataSpec`."""

    # ----------------------------------------------------------------- setup
    def resolve_options(self, players: int, options: Mapping[str, object] | None = None) -> dict[str, Any]:
        """Defaults filled in, text values parsed, every value checked; raises OptionError."""
        return resolve_options(self.id, self.min_players, self.max_players, self.options, players, options,
                               self.data_specs)

    def data_overrides(self, options: Mapping[str, object] | None) -> dict[str, DataValue]:
        """The checked data overrides in ``options`` (under :data:`DATA_OPTION`), by name."""
        return data_overrides(self.id, self.data_specs, options)

    @abstractmethod
    def new_initial_state(self, players: int, options: Mapping[str, object] | None = None) -> S:
        """The state before the first (usually chance) action; options are resolved here."""

    def max_game_length(self, players: int) -> int:
        """An upper bound on record entries in one game (tests assert against it)."""
        return 100_000

    # ----------------------------------------------------------------- flow
    @abstractmethod
    def to_act(self, state: S) -> tuple[Player, ...]:
        """Seats that must decide now; ``(CHANCE,)`` at a chance node; ``()`` once over."""

    def is_terminal(self, state: S) -> bool:
        return not self.to_act(state)

    def legal_actions(self, state: S, player: Player) -> Sequence[A]:
        """The legal actions of ``player``, sorted by action index; ``()`` if it is not to act.

        Computed once per decision (by :meth:`generate_legal`) and kept in the state's
        ``legal_cache`` until the next ``apply``: asking again, or ``apply`` checking the
        action, costs a lookup.
        """
        try:
            cached = state.legal_cache
        except AttributeError:
            cached = None
        if cached is not None and cached[0] == player:
            return cached[1]
        if player == CHANCE or player not in self.to_act(state):
            return ()
        legal = self.generate_legal(state, player)
        state.legal_cache = (player, legal)
        return legal

    @abstractmethod
    def generate_legal(self, state: S, player: Player) -> Sequence[A]:
        """The legal actions of ``player`` (a seat in ``to_act``), never empty, sorted by index.

        Called by :meth:`legal_actions` at most once per decision; return a tuple (or another
        sequence nobody mutates).
        """

    @abstractmethod
    def chance_outcomes(self, state: S) -> Sequence[tuple[A, float]]:
        """At a chance node: every possible outcome with its probability."""

    def sample_chance(self, state: S, rng: Random) -> A:
        """Draw one chance outcome with the probabilities of ``chance_outcomes``.

        Games may override this with a faster sampler of the same distribution.
        """
        outcomes = self.chance_outcomes(state)
        actions = [a for a, _ in outcomes]
        return rng.choices(actions, weights=[p for _, p in outcomes])[0]

    def is_chance_outcome(self, state: S, action: A) -> bool:
        """True if ``state`` is a chance node and ``action`` one of its possible outcomes.

        ``apply`` checks chance with this alone; games may override it with a faster exact
        test (which must be False wherever ``to_act`` is not ``(CHANCE,)``).
        """
        return self.to_act(state) == (CHANCE,) and any(a == action for a, _ in self.chance_outcomes(state))

    def always_asked(self, state: S, player: Player) -> bool:
        """True where the decision is put to the player even with one legal option.

        Either the rules say so, or whether the seat has one option or several depends on
        what other seats may not see (a Don Carlo hand that forms exactly one code): then an
        at-once forced step would tell them. The conformance suite checks the second case.
        """
        return False

    def apply(self, state: S, player: Player, action: A, events: list[Event] | None = None) -> None:
        """Check, then apply; append log events to ``events`` when given.

        Raises :class:`~tablero.core.errors.IllegalActionError` and leaves ``state``
        unchanged when ``player`` may not act now or ``action`` is not legal for it.
        """
        if player == CHANCE:
            if not self.is_chance_outcome(state, action):
                if self.to_act(state) != (CHANCE,):
                    raise IllegalActionError(self.explain_not_to_act(state, player), code=ErrorCode.NOT_YOUR_TURN)
                raise IllegalActionError(self.explain_illegal(state, player, action))
        else:
            try:
                cached = state.legal_cache
            except AttributeError:
                cached = None
            # The cached list of this decision (what the caller just asked for), else the one
            # mechanism of legal_actions: () means the seat is not to act.
            legal = cached[1] if cached is not None and cached[0] == player else self.legal_actions(state, player)
            if not legal:
                raise IllegalActionError(self.explain_not_to_act(state, player), code=ErrorCode.NOT_YOUR_TURN)
            if action not in legal:
                raise IllegalActionError(self.explain_illegal(state, player, action))
        state.legal_cache = None
        self.step(state, player, action, events)

    def apply_unchecked(self, state: S, player: Player, action: A, events: list[Event] | None = None) -> None:
        """Apply without checking who acts or whether ``action`` is legal.

        For search and playouts that take actions from ``legal_actions`` or
        ``chance_outcomes`` of this very state (like python-chess ``push`` beside
        ``push_san``). Anything else corrupts the state silently: play goes through ``apply``.
        """
        state.legal_cache = None
        self.step(state, player, action, events)

    @abstractmethod
    def step(self, state: S, player: Player, action: A, events: list[Event] | None) -> None:
        """The game's transition for a checked action (``apply`` has checked it)."""

    def explain_not_to_act(self, state: S, player: Player) -> str:
        """Why ``player`` may not act now (the text of the error ``apply`` raises)."""
        if not self.to_act(state):
            return "the game is over"
        if player == CHANCE:
            return "no chance event is due now"
        return f"seat {player} cannot act now"

    def explain_illegal(self, state: S, player: Player, action: A) -> str:
        """Why ``action`` is not legal for ``player`` now (the text of the error ``apply`` raises)."""
        if player == CHANCE:
            return f"{action.to_text()!r} is not a possible chance outcome now"
        return f"{action.to_text()!r} is not legal for seat {player} now"

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """Final result once terminal, else None."""

    def score_sheet(self, state: S, log: Sequence[Message]) -> ScoreSheet | None:
        """Where the final scores of a finished game came from; None: the game gives no breakdown.

        ``state`` is the final state, ``log`` the game's whole log as a spectator sees it, in
        order, without the lines of entries that were taken back. Only public facts may go in
        (the end screen shows the sheet to everyone); the totals equal ``result(state).scores``.
        Games build it from the final state (Don Carlo's agents) or by reading their own log
        lines (El Grande's scorings, Mafia Legend's VP lines). Default: None.
        """
        return None

    def num_players(self, state: S) -> int:
        """The number of seats of the game in ``state`` (every state here keeps it as ``n``)."""
        n: int = getattr(state, "n")  # noqa: B009 - the State protocol does not name it
        return n

    # ----------------------------------------------------------------- information
    @abstractmethod
    def view_seat(self, view: V) -> Viewer:
        """Whose observation ``view`` is: the seat, or None for a spectator's.

        Bots are handed a view and the legal actions only; a search bot reads its own seat here.
        """

    @abstractmethod
    def observe(self, state: S, viewer: Viewer) -> V:
        """What ``viewer`` may know, built field by field (allow-list)."""

    @abstractmethod
    def determinize(self, view: V, viewer: Player, rng: Random) -> S:
        """A full state consistent with ``view``: ``observe(result, viewer) == view``."""

    # ----------------------------------------------------------------- text
    @abstractmethod
    def parse_action(self, state: S, player: Player, text: str) -> A:
        """Read an action's wire text (raises ActionParseError); legality is not checked."""

    def redact_action(self, state: S, player: Player, action: A, viewer: Viewer) -> Action:
        """What ``viewer`` sees of ``player`` taking ``action`` in ``state`` (before it is applied).

        The one place a game says what stays hidden of an action (El Grande's secret disk
        shows as ``disk``, a face-down card as its region only): ``describe``, the views'
        last-action fields and the server's payloads all go through it. Default: everything.
        """
        return action

    @abstractmethod
    def describe(self, state: S, player: Player, action: A, viewer: Viewer) -> Message:
        """A readable description of ``player`` doing ``action``, as ``viewer`` may see it."""

    @abstractmethod
    def catalogue(self) -> Catalogue:
        """Message templates per language for every message id this game emits."""

    def starts_section(self, msg: Message) -> bool:
        """True for the log line that opens a section of the game (a round, a month).

        Clients show such lines as headers and jump between them (the web table's log and its
        replay). A game says it by the message alone, so it holds for every viewer's copy of
        the line; such a line is public. Default: no sections.
        """
        return False

    @abstractmethod
    def render(self, view: V, tr: Callable[[Message], str]) -> str:
        """A text picture of the table for the terminal (may use rich markup)."""

    def table_data(self, options: Mapping[str, object] | None = None) -> dict[str, Any]:
        """Public, fixed facts a table drawing needs (map values, card tables), JSON-ready.

        Taken from the game's data module, so a board in the browser never keeps a copy that
        could drift from the rules' data; ``options`` are a table's resolved options, whose
        data overrides (:data:`DATA_OPTION`) the facts then show.
        """
        return {}

    def rounds(self, state: S) -> int | None:
        """How far the game in ``state`` got in its own unit of length (El Grande's and Don
        Carlo's rounds, Mafia Legend's months): what the lab reports as game length beside the
        record entries. Default: None (no such unit)."""
        return None

    def seat_roles(self, state: S) -> tuple[str, ...] | None:
        """Each seat's family or colour in ``state`` (an id of the game's data), for statistics
        per family; None where the game has no such thing apart from the seat. Default: None."""
        return None

    # ----------------------------------------------------------------- action spaces
    @abstractmethod
    def action_codec(self, players: int, options: Mapping[str, object] | None = None) -> ActionCodec[A]:
        """The fixed integer space of every seat action with these players and options."""

    @abstractmethod
    def chance_codec(self, players: int, options: Mapping[str, object] | None = None) -> ActionCodec[A]:
        """The fixed integer space of every chance outcome with these players and options."""

    # ----------------------------------------------------------------- positions
    state_type: ClassVar[type[Any]]
    """The game's state class (annotated fields), for the default JSON in and out."""

    def data_tables(self, overrides: Mapping[str, DataValue]) -> Any:
        """The frozen tables object a state of a game with :attr:`data_specs` keeps in its
        :data:`DATA_FIELD` (its ``overrides`` are the checked overrides it was built from)."""
        raise NotImplementedError(f"{self.id} has data specs but no data_tables")

    def state_to_json(self, state: S) -> dict[str, Any]:
        """The whole position as JSON-ready data; :meth:`state_from_json` reads it back equal.

        A game with :attr:`data_specs` keeps its tables in the state's :data:`DATA_FIELD`; they
        go to JSON as their overrides only, and only where there are some, so the usual game's
        JSON and hash are those of a state without the field."""
        if not self.data_specs:
            return serial.state_to_json(state)
        out = serial.state_to_json(state, skip=(DATA_FIELD,))
        overrides = dict(getattr(state, DATA_FIELD).overrides)
        if overrides:
            out[DATA_FIELD] = {k: data_json(v) for k, v in overrides.items()}
        return out

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """A state from :meth:`state_to_json` output (raises ValueError on data that does not fit);
        a position saved before a game had data overrides plays with the usual data."""
        try:
            given = dict(data)
            tables = None
            if self.data_specs:
                tables = self.data_tables(self.data_overrides({DATA_OPTION: given.pop(DATA_FIELD, {})}))
            state: S = serial.state_from_json(self.state_type, given, skip=(DATA_FIELD,) if self.data_specs else ())
            if tables is not None:
                setattr(state, DATA_FIELD, tables)
        except (KeyError, TypeError, IndexError, TableroError) as exc:
            raise ValueError(f"not a {self.id} state: {exc!r}") from exc
        return state

    def state_hash(self, state: S) -> str:
        """A hash of the position, the same on every machine and run (16 hex digits)."""
        return serial.stable_hash(self.state_to_json(state))

    def debug_text(self, state: S) -> str:
        """The whole position as readable ``field  value`` lines (true state: never for players)."""
        return serial.debug_text(self.state_to_json(state))
