"""Random legal playouts of any game (no hypothesis needed): the loop the conformance suite walks.

Decisions are uniform over the legal actions of a seat drawn uniformly from ``to_act`` (so
simultaneous commitments come in every order); chance is drawn with ``Game.sample_chance``.
Choices and chance use two RNG streams derived from the seed, so checks that draw from
their own RNG never change the path of a playout.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from random import Random
from typing import Any, NamedTuple

from tablero.core.events import Event
from tablero.core.protocol import CHANCE, Game, Player
from tablero.core.rng import derive_seed


class Step(NamedTuple):
    """Step ``number`` of a playout: ``actor`` is about to apply ``action`` to the *live* ``state``.

    The state is mutated once the consumer resumes the generator: clone it to keep it.
    """

    number: int
    state: Any
    actor: Player
    action: Any


class RandomChooser:
    """A bot for the match driver: a uniform choice among the legal actions."""

    def choose(self, view: Any, legal: Sequence[Any], rng: Random) -> Any:
        return legal[rng.randrange(len(legal))]


def choose_step(game: Game[Any, Any, Any], state: Any, choice_rng: Random,
                chance_rng: Random) -> tuple[Player, Any] | None:
    """The next (actor, action) of a random playout, or None once the game is over."""
    actors = game.to_act(state)
    if not actors:
        return None
    if actors[0] == CHANCE:
        return CHANCE, game.sample_chance(state, chance_rng)
    seat = actors[choice_rng.randrange(len(actors))] if len(actors) > 1 else actors[0]
    legal = game.legal_actions(state, seat)
    if not legal:
        raise AssertionError(
            f"{game.id}: seat {seat} is in to_act {actors} but has no legal action"
        )
    return seat, legal[choice_rng.randrange(len(legal))]


def random_playout(game: Game[Any, Any, Any], players: int, seed: int, *,
                   options: Mapping[str, object] | None = None,
                   events: list[Event] | None = None,
                   max_steps: int | None = None) -> Iterator[Step]:
    """Yield the steps of one random game of ``players`` seats from ``seed``.

    Each :class:`Step` is yielded *before* its action is applied; when ``events`` is given,
    the events of every applied step are appended to it. Stops at the end of the game, or
    raises AssertionError past ``max_steps`` (default: ``game.max_game_length(players)``).
    """
    limit = game.max_game_length(players) if max_steps is None else max_steps
    state = game.new_initial_state(players, options)
    choice_rng = Random(derive_seed(seed, "playout", "choice"))
    chance_rng = Random(derive_seed(seed, "playout", "chance"))
    index = 0
    while True:
        step = choose_step(game, state, choice_rng, chance_rng)
        if step is None:
            return
        if index >= limit:
            raise AssertionError(
                f"{game.id} with {players} players, seed {seed}: no end after {limit} steps "
                f"(max_game_length {game.max_game_length(players)})"
            )
        actor, action = step
        yield Step(index, state, actor, action)
        game.apply(state, actor, action, events)
        index += 1


def final_state(game: Game[Any, Any, Any], players: int, seed: int, *,
                options: Mapping[str, object] | None = None, stop_after: int | None = None) -> Any:
    """The state of the random playout from ``seed`` after ``stop_after`` steps (or at its end)."""
    last = None
    for step in random_playout(game, players, seed, options=options):
        if stop_after is not None and step.number >= stop_after:
            return step.state
        last = step
    if last is None:
        return game.new_initial_state(players, options)
    return last.state  # the live state, now past the final step
