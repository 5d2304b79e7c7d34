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
            game.apply(state, seat, action)        # validates; raises and changes nothing if illegal
    game.result(state)

Who may act:

* ``to_act`` names the seats that must decide now. Usually one seat; it need not be the turn
  player (El Grande's Veto! window, Mafia Legend's defence cards). Several seats mean
  simultaneous secret commitments: each commits in any order, nobody sees another's
  commitment until the game reveals them all together.
* ``(CHANCE,)`` means a chance node: ``chance_outcomes`` lists the outcomes with weights and
  ``sample_chance`` draws one; the outcome is applied like any action, so a game's record of
  applied actions replays with no RNG at all.
* A seat with exactly one legal action takes a *forced step*: the driver applies it without
  asking, unless ``always_asked`` says that decision is always put to the player. A forced
  step is an ordinary record entry and looks like any other action to every other seat.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, ClassVar, Final, Generic, Protocol, Self, TypeVar

from tablero.core.errors import ErrorCode, OptionError, TableroError
from tablero.core.events import Event
from tablero.core.messages import Catalogue, Message

Player = int
Viewer = int | None  # None = spectator (public information only)
CHANCE: Final[Player] = -1


class Action(Protocol):
    """A context-free action with a stable wire text that ``Game.parse_action`` reads back."""

    def to_text(self) -> str: ...


class View(Protocol):
    """A seat's (or a spectator's) observation: immutable, comparable, JSON-serializable."""

    def to_json(self) -> dict[str, Any]: ...


class State(Protocol):
    def clone(self) -> Self: ...


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


class Game(ABC, Generic[S, A, V]):
    """Rules of one game. Stateless: all game data lives in the state."""

    id: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    data_version: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[OptionSpec, ...]] = ()

    # ----------------------------------------------------------------- setup
    def resolve_options(self, players: int, options: Mapping[str, object] | None = None) -> dict[str, Any]:
        """Defaults filled in, text values parsed, every value checked; raises OptionError."""
        if not self.min_players <= players <= self.max_players:
            raise TableroError(
                f"{self.id} takes {self.min_players}-{self.max_players} players, not {players}",
                code=ErrorCode.PLAYERS,
            )
        specs = {o.name: o for o in self.options}
        given = dict(options or {})
        unknown = sorted(set(given) - set(specs))
        if unknown:
            raise OptionError(
                f"unknown option {unknown[0]!r} for {self.id}; known: {', '.join(specs) or 'none'}"
            )
        out: dict[str, Any] = {}
        for name, spec in specs.items():
            value = given.get(name, spec.default)
            try:
                if isinstance(value, str) and not (spec.choices and value in spec.choices):
                    value = spec.parse(value)
                if spec.choices and isinstance(value, str) and value not in spec.choices:
                    raise ValueError(f"choose one of {', '.join(spec.choices)}")
                if spec.check is not None:
                    value = spec.check(value, players)
            except (ValueError, TypeError) as exc:
                raise OptionError(f"option {name}={given.get(name)!r}: {exc}") from exc
            out[name] = value
        return out

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

    @abstractmethod
    def legal_actions(self, state: S, player: Player) -> Sequence[A]:
        """The legal actions of ``player`` (a seat in ``to_act``), never empty for such a seat."""

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

    def always_asked(self, state: S, player: Player) -> bool:
        """True where the rules put a decision to the player even with one legal option."""
        return False

    @abstractmethod
    def apply(self, state: S, player: Player, action: A, events: list[Event] | None = None) -> None:
        """Validate and apply; append log events to ``events`` when given.

        Raises :class:`~tablero.core.errors.IllegalActionError` and leaves ``state``
        unchanged when ``player`` may not act or ``action`` is not legal.
        """

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """Final result once terminal, else None."""

    # ----------------------------------------------------------------- information
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

    @abstractmethod
    def describe(self, state: S, player: Player, action: A, viewer: Viewer) -> Message:
        """A readable description of ``player`` doing ``action``, as ``viewer`` may see it."""

    @abstractmethod
    def catalogue(self) -> Catalogue:
        """Message templates per language for every message id this game emits."""

    @abstractmethod
    def render(self, view: V, tr: Callable[[Message], str]) -> str:
        """A text picture of the table for the terminal (may use rich markup)."""

    def table_data(self) -> dict[str, Any]:
        """Public, fixed facts a table drawing needs (map values, card tables), JSON-ready.

        Taken from the game's data module, so a board in the browser never keeps a copy that
        could drift from the rules' data.
        """
        return {}

    def score_of(self, view: V, seat: int) -> float:
        """Current score of ``seat`` as shown in a view (for displays and bots)."""
        return 0.0
