"""The match driver: the one holder of a game's true state during play.

It samples chance with one seeded RNG, applies forced steps (a seat with exactly one legal
action that the rules do not always ask about), keeps the record and the event log, and
hands every seat only its own observation and its redacted log.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from random import Random
from typing import Any, Final, Generic, Protocol

from tablero.core.errors import ErrorCode, IllegalActionError, RecordError, TableroError
from tablero.core.events import Event, visible_log
from tablero.core.messages import Message
from tablero.core.protocol import CHANCE, A, Game, Player, Result, S, V, Viewer
from tablero.core.record import GameRecord, check_versions
from tablero.core.rng import derive_seed


class Chooser(Protocol):
    """Anything that picks an action from a seat's view and legal actions (a bot)."""

    def choose(self, view: Any, legal: Sequence[Any], rng: Random) -> Any: ...


UNDO: Final[str] = "undo"
"""Record text of a take-back: ``[seat, "undo"]`` undoes that seat's last decision."""


class Match(Generic[S, A, V]):
    """One game in progress: state, chance RNG, record, log.

    With ``undo=True`` a seat may take back its own decisions (:meth:`undo`) while no other
    seat has acted, no chance outcome was drawn and nothing hidden was shown since (to one
    seat or to all: see :attr:`~tablero.core.events.Event.ends_takeback`).
    A take-back is itself a record entry, ``[seat, "undo"]``, and a public log line.
    """

    def __init__(
        self,
        game: Game[S, A, V],
        players: Sequence[str],
        *,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        undo: bool = False,
        state: S | None = None,
    ) -> None:
        self.game = game
        self.undoable = undo
        self._checkpoints: list[tuple[int, S]] = []
        self._checkpoint_seat: Player | None = None
        self.seed = seed if seed is not None else Random().getrandbits(63)
        self.rng = Random(derive_seed(self.seed, "chance"))
        self.options = game.resolve_options(len(players), options)
        self.state: S = game.new_initial_state(len(players), self.options) if state is None else state
        self.record = GameRecord(
            game=game.id,
            rules_version=game.rules_version,
            data_version=game.data_version,
            players=list(players),
            options=self.options,
            seed=self.seed,
            setup=None if state is None else game.state_to_json(state),
        )
        # Each log item: (index of the record entry that produced it, event).
        self.events: list[tuple[int, Event]] = []
        self.advance()

    @classmethod
    def from_state(
        cls,
        game: Game[S, A, V],
        state: S,
        players: Sequence[str],
        *,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        undo: bool = False,
    ) -> Match[S, A, V]:
        """A match that starts from any position (a tutorial, a puzzle, a position to analyse).

        ``state`` is copied; ``options`` are the ones the position was made with (recorded
        with it). The record carries the position as its ``setup`` header, so it replays
        with no RNG like any other; chance outcomes from here on are drawn with ``seed``.
        """
        if not game.to_act(state) and game.result(state) is None:
            raise TableroError("a position with nobody to act must be a finished game")
        return cls(game, players, options=options, seed=seed, undo=undo, state=state.clone())

    @classmethod
    def from_record(cls, game: Game[S, A, V], record: GameRecord, *, undo: bool = False) -> Match[S, A, V]:
        """Rebuild a match (state, log) from a record, with no RNG; play can go on."""
        m = cls._empty(game, record, undo)
        m.replay_more(record.entries)
        return m

    def replay_more(self, entries: Sequence[tuple[Player, str]]) -> None:
        """Apply record entries made elsewhere after this match's last one (another server process
        committed them), as :meth:`from_record` would, then :meth:`advance`. Raises RecordError
        like it; the match may then be half changed (rebuild it from the record)."""
        start = len(self.record.entries)
        for k, (actor, text) in enumerate(entries):
            self._replay_entry(start + k, actor, text)
        self.advance()

    @classmethod
    def walk_record(cls, game: Game[S, A, V], record: GameRecord) -> Iterator[tuple[int, Player, str, Match[S, A, V]]]:
        """Rebuild a match entry by entry: yields ``(index, actor, text, match)`` before each entry.

        The match is the one being rebuilt (read its ``view`` and ``legal``; do not act on it):
        what a review of the game needs at each decision. Raises RecordError like
        :meth:`from_record`.
        """
        m = cls._empty(game, record, False)
        for i, (actor, text) in enumerate(record.entries):
            yield i, actor, text, m
            m._replay_entry(i, actor, text)

    @classmethod
    def _empty(cls, game: Game[S, A, V], record: GameRecord, undo: bool) -> Match[S, A, V]:
        check_versions(game, record)
        m = cls.__new__(cls)
        m.game = game
        m.undoable = undo or any(t == UNDO for _, t in record.entries)
        m._checkpoints = []
        m._checkpoint_seat = None
        m.seed = record.seed if record.seed is not None else 0
        m.rng = Random(derive_seed(m.seed, "chance", len(record.entries)))
        m.options = game.resolve_options(len(record.players), record.options)
        m.state = initial_state(game, record, m.options)
        m.record = GameRecord(
            game=game.id,
            rules_version=game.rules_version,
            data_version=game.data_version,
            players=list(record.players),
            options=m.options,
            seed=record.seed,
            setup=record.setup,
        )
        m.events = []
        return m

    def _replay_entry(self, i: int, actor: Player, text: str) -> None:
        try:
            if text == UNDO and actor != CHANCE:
                self.undo(actor)
                return
            self._apply(actor, self.game.parse_action(self.state, actor, text))
        except TableroError as exc:
            raise RecordError(f"entry {i} [{actor}, {text!r}] does not replay: {exc}") from exc

    # ------------------------------------------------------------------ flow
    @property
    def players(self) -> int:
        return len(self.record.players)

    def _apply(self, actor: Player, action: A) -> None:
        evs: list[Event] = []
        before = self.state.clone() if self.undoable and actor != CHANCE else None
        self.game.apply(self.state, actor, action, evs)
        if self.undoable:
            self._note_checkpoint(actor, before, evs)
        index = len(self.record.entries)
        self.record.entries.append((actor, action.to_text()))
        self.events.extend((index, e) for e in evs)
        if self.game.is_terminal(self.state):
            res = self.game.result(self.state)
            self.record.result = res.to_json() if res else None

    def advance(self) -> None:
        """Apply chance outcomes and forced steps until a seat must decide or the game ends."""
        game, state = self.game, self.state
        while True:
            actors = game.to_act(state)
            if not actors:
                return
            if actors[0] == CHANCE:
                self._apply(CHANCE, game.sample_chance(state, self.rng))
                continue
            for p in actors:
                legal = game.legal_actions(state, p)
                if len(legal) == 1 and not game.always_asked(state, p):
                    self._apply(p, legal[0])
                    break
            else:
                return

    def pending(self) -> tuple[Player, ...]:
        """Seats that must decide now (empty once the game is over)."""
        return self.game.to_act(self.state)

    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)

    def legal(self, seat: Player) -> Sequence[A]:
        if seat not in self.pending():
            return ()
        return self.game.legal_actions(self.state, seat)

    def act(self, seat: Player, action: A | str) -> None:
        """A seat's decision (an action or its wire text); raises and changes nothing if bad."""
        if seat not in self.pending():
            raise IllegalActionError(f"seat {seat} is not to act now", code=ErrorCode.NOT_YOUR_TURN)
        if isinstance(action, str):
            action = self.game.parse_action(self.state, seat, action)
        self._apply(seat, action)
        self.advance()

    def play_bots(self, bots: Mapping[Player, Chooser], bot_rngs: Mapping[Player, Random]) -> None:
        """Let bot seats decide until a non-bot seat must act or the game is over."""
        while True:
            pending = self.pending()
            bot_seats = [p for p in pending if p in bots]
            if not bot_seats:
                return
            p = bot_seats[0]
            bot, legal = bots[p], self.game.legal_actions(self.state, p)
            if getattr(bot, "peeks", False):
                # A clearly named cheating baseline (mcts-cheat) for measurements: a copy of the
                # true state. Every other bot sees the seat's view and nothing else.
                self.act(p, bot.choose_peeking(self.state.clone(), p, legal, bot_rngs[p]))  # type: ignore[attr-defined]
            else:
                self.act(p, bot.choose(self.game.observe(self.state, p), legal, bot_rngs[p]))

    # ------------------------------------------------------------------ undo
    def _note_checkpoint(self, actor: Player, before: S | None, evs: list[Event]) -> None:
        if actor == CHANCE or before is None or any(e.ends_takeback for e in evs):
            # A draw, something shown to some seats only or any reveal ends take-backs
            # (another seat's action does too, below).
            self._checkpoints.clear()
            self._checkpoint_seat = None
            return
        if actor != self._checkpoint_seat:
            self._checkpoints.clear()
            self._checkpoint_seat = actor
        self._checkpoints.append((len(self.record.entries), before))

    def _undo_target(self, seat: Player) -> int | None:
        """Index into the checkpoints of ``seat``'s last decision that was put to it."""
        if self._checkpoint_seat != seat or self.is_over():
            return None
        for k in range(len(self._checkpoints) - 1, -1, -1):
            state = self._checkpoints[k][1]
            if len(self.game.legal_actions(state, seat)) > 1 or self.game.always_asked(state, seat):
                return k
        return None

    def undo_point(self, seat: Player) -> tuple[int, S] | None:
        """Where a take-back by ``seat`` would return to: (record index, a copy of the state then)."""
        k = self._undo_target(seat) if self.undoable else None
        if k is None:
            return None
        index, before = self._checkpoints[k]
        return index, before.clone()

    def undo_index(self, seat: Player) -> int | None:
        """The record index of the decision a take-back by ``seat`` would undo now, or None.

        A take-back returns to the position before that entry, undoing every decision made from
        there on: a server that knows who made which entry can tell whose decisions it would undo."""
        k = self._undo_target(seat) if self.undoable else None
        return None if k is None else self._checkpoints[k][0]

    def can_undo(self, seat: Player) -> bool:
        """True if ``seat`` may take back its last decision now."""
        return self.undo_index(seat) is not None

    def closes_takeback(self, seat: Player, action: A) -> bool:
        """True if ``seat`` could not take ``action`` back right after playing it now.

        The take-back rule (see :meth:`undo`) read forward: ``action`` and what the driver
        applies at once after it (:meth:`advance`) are tried on a copy of the state. The window
        closes when one of them makes an event that ends take-backs (a reveal, a line shown to
        some seats only), when a chance outcome comes next (a card drawn, a die rolled), when
        another seat's forced step comes next, or when the game ends. A move that hands the
        decision to another seat closes nothing by itself: the seat may take it back until
        that seat acts. ``action`` must be one of ``seat``'s legal actions now.

        It reads the position as :meth:`advance` does (the events' visibility, who acts next,
        forced steps), which the game keeps public: a client may ask before a move that cannot
        be taken back (the conformance suite's forced-step check and the server's leak test
        hold this to account). It does not depend on whether this match allows take-backs.
        """
        game = self.game
        state = self.state.clone()
        actor, act = seat, action
        while True:
            evs: list[Event] = []
            game.apply_unchecked(state, actor, act, evs)
            if any(e.ends_takeback for e in evs):
                return True
            actors = game.to_act(state)
            if not actors or actors[0] == CHANCE:
                return True
            forced = next(((p, legal[0]) for p in actors
                           for legal in (game.legal_actions(state, p),)
                           if len(legal) == 1 and not game.always_asked(state, p)), None)
            if forced is None:
                return False
            if forced[0] != seat:
                return True
            actor, act = forced

    def undo(self, seat: Player) -> None:
        """Take back ``seat``'s last decision (and the forced steps of its own that followed).

        Refused (raising, changing nothing) after another seat's action, a chance outcome, an
        event shown to some seats only, any reveal of hidden information, or the end of the
        game.
        """
        k = self._undo_target(seat) if self.undoable else None
        if k is None:
            raise IllegalActionError(f"seat {seat} has nothing to take back now", code=ErrorCode.UNDO)
        index, before = self._checkpoints[k]
        del self._checkpoints[k:]
        self.state = before.clone()
        self.record.entries.append((seat, UNDO))
        self.events.append((len(self.record.entries) - 1, self._undo_event(seat, index)))
        self.advance()

    def _undo_event(self, seat: Player, index: int) -> Event:
        """The log line of a take-back: the undone decision's own first line, as each viewer saw it."""
        first = next((e for i, e in self.events if i == index), None)
        if first is None:
            return Event(Message("core.undo.plain", seat=seat))
        own = Message("core.undo", seat=seat, action=first.message)
        if first.visible_to is None:
            return Event(own)
        other = (Message("core.undo", seat=seat, action=first.redacted) if first.redacted is not None
                 else Message("core.undo.plain", seat=seat))
        return Event(own, first.visible_to, other)

    def parse(self, seat: Player, text: str) -> A:
        """Read an action's wire text for ``seat`` (raises ActionParseError)."""
        return self.game.parse_action(self.state, seat, text)

    def describe(self, seat: Player, action: A, viewer: Viewer) -> Message:
        """How ``viewer`` sees ``seat`` taking ``action`` now (e.g. to list a seat's moves)."""
        return self.game.describe(self.state, seat, action, viewer)

    # ------------------------------------------------------------------ information
    def view(self, viewer: Viewer) -> V:
        return self.game.observe(self.state, viewer)

    def log(self, viewer: Viewer, since: int = 0) -> list[Message]:
        """The event log as ``viewer`` sees it, from record entry ``since`` on."""
        return visible_log((e for i, e in self.events if i >= since), viewer)

    def result(self) -> Result | None:
        return self.game.result(self.state)


def bot_rng(seed: int, seat: int) -> Random:
    """The RNG a bot in ``seat`` uses in the game with ``seed``."""
    return Random(derive_seed(seed, "bot", seat))


def initial_state(game: Game[S, A, V], record: GameRecord, options: Mapping[str, object] | None = None) -> S:
    """The position a record starts from: its ``setup`` header, else the game's initial state."""
    if record.setup is not None:
        try:
            return game.state_from_json(record.setup)
        except ValueError as exc:
            raise RecordError(f"the record's setup is not a {game.id} position: {exc}") from exc
    return game.new_initial_state(len(record.players), record.options if options is None else options)


def replay(game: Game[S, A, V], record: GameRecord) -> S:
    """Fold ``apply`` over the record's entries and return the final state (no RNG)."""
    check_versions(game, record)
    if any(text == UNDO for _, text in record.entries):
        return Match.from_record(game, record).state  # a take-back needs the match's checkpoints
    state = initial_state(game, record)
    for i, (actor, text) in enumerate(record.entries):
        try:
            game.apply(state, actor, game.parse_action(state, actor, text))
        except TableroError as exc:
            raise RecordError(f"entry {i} [{actor}, {text!r}] does not replay: {exc}") from exc
    return state
