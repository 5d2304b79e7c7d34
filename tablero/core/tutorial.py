"""Tutorials: short lessons whose steps are positions from a game's scenario builder.

A :class:`Tutorial` is plain data kept beside a game (``games/<g>/tutorial.py``): the seats'
names, a few :class:`Step`\\ s and the tutorial's own words (a catalogue in German and English,
rendered with the game's catalogue, so a text may nest the game's messages: a region, a card).

A step builds its position (deterministic: no randomness, nothing the learner must not see),
asks the learner — always seat 0, who sees only seat 0's view — for **one** move, and names
the moves it accepts: wire texts, or a predicate on them. After an accepted move the step's
scripted replies of the other seats follow (``follow``), so the explanation can show the result;
a move that is not accepted is refused and changes nothing (``hint``). :func:`attempt` plays a
step from scratch each time: same position, same chance seed, same replies, same result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic

from tablero.core.errors import ErrorCode, TableroError
from tablero.core.match import Match
from tablero.core.messages import Catalogue, Message
from tablero.core.protocol import A, Game, S, V

LEARNER: Final = 0
"""The seat the learner plays in every step."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Step(Generic[S]):
    """One lesson: a position, the one move it asks for, and what it says before and after."""

    id: str
    """A stable name (``castillo``), the same in both languages."""
    position: Callable[[], S]
    """Builds the position (the game's scenario builder); seat 0 must be to act in it, or at a
    chance node the driver resolves with the tutorial's seed before seat 0 acts."""
    accept: frozenset[str] | Callable[[str], bool]
    """The accepted moves: wire texts as ``Action.to_text()`` writes them, or a predicate."""
    title: Message
    task: Message
    """What the learner is asked to do: one move."""
    explain: Message
    """Shown after the accepted move: the rule the move shows and what happened."""
    hint: Message
    """Shown after any other move (refused: the position stays as it was)."""
    follow: tuple[tuple[int, str], ...] = ()
    """Moves applied after the accepted one, in order: ``(seat, wire text)`` (the other seats'
    replies, or the learner's own routine moves the lesson is not about)."""

    def accepts(self, text: str) -> bool:
        return text in self.accept if isinstance(self.accept, frozenset) else self.accept(text)


@dataclass(frozen=True, slots=True, kw_only=True)
class Tutorial(Generic[S, A, V]):
    """A game's tutorial: steps in order, the seats' names, its words."""

    game: Game[S, A, V]
    title: Message
    intro: Message
    steps: tuple[Step[S], ...]
    names: tuple[str, ...]
    """The seats' names (as many as the game's most players); the learner is the first."""
    options: Callable[[S], Mapping[str, object]]
    """The options a position was built with (recorded with the match)."""
    catalogue: Catalogue
    """The tutorial's own words: ids used by the steps' messages, in ``en`` and ``de``."""
    seed: int = 1
    """The chance seed of every step's match (a card drawn after a move is always the same)."""

    def start(self, index: int) -> Match[S, A, V]:
        """A match at step ``index``'s position (chance and forced steps already applied)."""
        step = self.step(index)
        state = step.position()
        names = self.names[: self.game.num_players(state)]
        return Match.from_state(self.game, state, names, options=self.options(state), seed=self.seed)

    def step(self, index: int) -> Step[S]:
        if not 0 <= index < len(self.steps):
            raise TableroError(f"the tutorial has steps 0-{len(self.steps) - 1}, not {index}",
                               code=ErrorCode.MALFORMED)
        return self.steps[index]

    def messages(self) -> list[Message]:
        """Every message the tutorial shows (for checks that its words exist in both languages)."""
        out = [self.title, self.intro]
        for s in self.steps:
            out.extend((s.title, s.task, s.explain, s.hint))
        return out


@dataclass(frozen=True, slots=True)
class Attempt(Generic[S, A, V]):
    """A step played: the match after it, whether the move was accepted, and what to say."""

    match: Match[S, A, V]
    accepted: bool | None
    """None: no move tried yet (the position as the step begins)."""
    say: Message | None
    """The step's explanation (accepted) or hint (refused), else None."""
    moves: tuple[str, ...]
    """The accepted move of this step, as its wire text (empty until one is accepted)."""


def attempt(tutorial: Tutorial[S, A, V], index: int, moves: Sequence[str]) -> Attempt[S, A, V]:
    """Step ``index`` from its position, with ``moves`` tried by the learner (none or one).

    A move that is not legal for the learner, or legal but not one the step accepts, is refused:
    the match stays at the step's position. An accepted move is applied, then the step's
    ``follow`` moves. Raises ``TableroError`` for an unknown step or more than one move.
    """
    step = tutorial.step(index)
    if len(moves) > 1:
        raise TableroError("a tutorial step asks for one move", code=ErrorCode.MALFORMED)
    match = tutorial.start(index)
    if not moves:
        return Attempt(match, None, None, ())
    legal: dict[str, Any] = {a.to_text(): a for a in match.legal(LEARNER)}
    try:
        text = match.parse(LEARNER, moves[0]).to_text()  # a code's values in any order, spaces, case
    except TableroError:
        text = moves[0]
    if text not in legal or not step.accepts(text):
        return Attempt(match, False, step.hint, ())
    match.act(LEARNER, legal[text])
    for seat, reply in step.follow:
        match.act(seat, reply)
    return Attempt(match, True, step.explain, (text,))
