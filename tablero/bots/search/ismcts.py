"""Information-set Monte Carlo tree search over the core protocol, for 2-5 seats.

Cowling, Powley & Whitehouse (2012), *Information Set Monte Carlo Tree Search*, in its
multiple-observer form (MO-ISMCTS), with a reward per seat (max^n: every seat maximises its
own reward). One iteration:

1. **Determinize**: sample a full world from the searching seat's view
   (``game.determinize(view, seat, rng)``). The true state is never read (the cheating
   baseline in :mod:`tablero.bots.search.bots` passes a copy of it here instead).
2. **Select and expand** in one tree *per seat*. A seat's tree is keyed by the moves as that
   seat observes them: its own moves in full, another seat's move as
   ``game.redact_action(world, actor, action, seat)`` shows it (El Grande's secret disk is
   only ``disk``), chance not at all (open loop: every outcome passes through, so the trees
   stay small and share statistics across draws). Where seat q decides, q's own tree picks the
   action by UCB1 over the actions legal *in this world* (with availability counts, as ISMCTS
   does), so q's choice depends only on what q has observed, never on the other seats' hidden
   cards or secret commitments. Simultaneous secret choices (El Grande's disks, Mafia Legend's
   EV08 discards) need nothing more: the seats commit one after another in the world, and a
   later seat's tree holds the earlier commitments only as their redacted form.
   A node with untried legal actions gets one of them (the first untried one in a random
   order) and the tree phase ends there.
3. **Play out** with the game's policy (:class:`~tablero.bots.search.model.SearchModel`),
   with ε uniform exploration, for at most ``depth`` decisions (0 = to the end) or, with a
   model that keeps a game clock, to a fixed point of the game (``phases`` after the searched
   position: options that take more or fewer decisions are then judged at the same time, not
   each at its own horizon), then
4. **Evaluate**: a finished game by its result (win share, 1/k for shared first places, plus
   a little of the score margin), a cut-off one by the model's estimated scores
   (``sigmoid(margin / scale)`` per seat), and back the reward vector up: every edge along
   the path adds the reward of the seat that chose it.

The move played is the root action visited most; the value of an option is its mean reward
for the searching seat (an estimate of its winning chances), which is what the analysis of
a game reports.

The search uses ``apply_unchecked`` on its own worlds, the game's ``legal_actions`` cache and
``clone``; everything it sees of the real game is ``view`` and ``legal``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, Final

from tablero.bots.search.model import SearchModel, margin_rewards, result_rewards
from tablero.core.protocol import CHANCE, Game

OPPONENTS: Final = ("search", "policy")
"""How the other seats choose in the tree (:attr:`Budget.opponents`)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How long and how a search thinks.

    ``iterations`` and ``seconds`` bound the search (whichever comes first; at least one
    iteration always runs). ``depth`` is the number of playout decisions after the tree before
    the position is evaluated (0 = play to the end); ``c`` the UCB1 exploration constant for
    rewards in [0, 1]; ``epsilon`` the share of uniformly random playout decisions.
    """

    iterations: int | None = 400
    seconds: float | None = None
    depth: int = 20
    c: float = 0.7
    epsilon: float = 0.1
    phases: int = 0
    """With a model that has a ``clock`` (game time: a phase, a round): the playouts stop
    where the clock has advanced ``phases`` steps from the position searched (and after
    ``depth`` decisions at most), so every option is judged at the same point of the game;
    0 = cut by ``depth`` alone."""
    reuse: bool = True
    """A bot's next search goes on from the subtree of its last move where that is valid
    (:meth:`ISMCTS.follow`); False: every search starts afresh."""
    prune: bool = False
    """With a model that has ``candidates`` (a shortlist of the moves worth a look, from the
    seat's information): the tree chooses among them only. Analysis of a game never prunes."""
    prior: float = 0.0
    """Weight of the playout policy's choice in the tree (progressive bias): at a node the
    policy's action is tried first and scores ``prior / (visits + 1)`` more; 0 = off."""
    table: float = 0.0
    """Share of the reward that is the margin over the other seats' mean rather than over the
    best of them (:func:`~tablero.bots.search.model.margin_rewards`): keeps a seat far behind
    playing for points; 0 = off."""
    opponents: str = "search"
    """``search``: every seat chooses in its own tree (max^n). ``policy``: only the searching
    seat does; in the tree the other seats play the playout policy (with ε), as in the
    playouts. In a world dealt from the searching seat's view, an opponent searched in the
    tree is rewarded as if it knew the searcher's hidden cards (it learns to answer the real
    hand, not the seat's public picture of it), and it is a model of a searching player, not of
    the players at the table; the policy avoids both."""

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a search budget needs iterations or seconds")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("iterations must be at least 1")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("seconds must be positive")
        if self.depth < 0:
            raise ValueError("depth must be 0 (to the end) or more")
        if self.c < 0 or not 0 <= self.epsilon <= 1:
            raise ValueError("c must be >= 0 and epsilon in [0, 1]")
        if self.prior < 0 or self.phases < 0:
            raise ValueError("prior and phases must be >= 0")
        if self.opponents not in OPPONENTS:
            raise ValueError(f"opponents must be one of {', '.join(OPPONENTS)}")
        if not 0 <= self.table <= 1:
            raise ValueError("table must be in [0, 1]")


class Edge:
    """An action of the deciding seat at a node of its tree."""

    __slots__ = ("avail", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 0

    @property
    def value(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class Node:
    """A node of one seat's tree: its own actions' statistics and the children by observed move."""

    __slots__ = ("edges", "kids")

    def __init__(self) -> None:
        self.edges: dict[Any, Edge] = {}
        self.kids: dict[Any, Node] = {}

    def child(self, key: Any) -> Node:
        kid = self.kids.get(key)
        if kid is None:
            kid = self.kids[key] = Node()
        return kid


@dataclass(frozen=True, slots=True)
class OptionValue:
    """One root option: visits and mean reward for the searching seat."""

    action: Any
    visits: int
    value: float


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The root's options, best first (most visited, then highest value), and the work done."""

    options: tuple[OptionValue, ...]
    iterations: int
    seconds: float
    reused: int = 0
    """Root visits carried over from the previous search (subtree reuse)."""
    trees: list[Node] = field(default_factory=list, compare=False, repr=False)
    """Every seat's tree (for reuse by the next search)."""

    @property
    def best(self) -> Any:
        return self.options[0].action


Determinizer = Callable[[Random], Any]
"""Gives a full world to search in, one per iteration."""


class ISMCTS:
    """The search (see the module docstring). Stateless between calls but for the model."""

    def __init__(self, game: Game[Any, Any, Any], model: SearchModel, budget: Budget | None = None,
                 *, observed_moves: bool = True) -> None:
        self.game = game
        self.model = model
        self.budget = budget or Budget()
        self.observed_moves = observed_moves
        """False: every seat's tree keys every move in full (the cheating baseline's trees)."""

    def search_view(self, view: Any, legal: Sequence[Any], rng: Random,
                    trees: list[Node] | None = None, prune: bool = True) -> SearchResult:
        """Search for the seat whose ``view`` this is, among its ``legal`` actions
        (``prune=False``: every one of them, whatever the budget says)."""
        seat = self.game.view_seat(view)
        if seat is None:
            raise ValueError("search needs a seat's view, not a spectator's")
        game = self.game
        return self.search(lambda r: game.determinize(view, seat, r), seat, legal, rng, trees=trees, prune=prune)

    def search(self, determinize: Determinizer, seat: int, legal: Sequence[Any], rng: Random,
               clock: Callable[[], float] = time.perf_counter, trees: list[Node] | None = None,
               prune: bool = True) -> SearchResult:
        """Run the budget's iterations from worlds drawn by ``determinize``; ``seat`` decides first.

        ``trees`` continues from earlier statistics (:meth:`follow`); the budget counts only
        the new iterations.
        """
        if not legal:
            raise ValueError("search was asked to choose from no legal actions")
        budget = self.budget
        start = clock()
        deadline = None if budget.seconds is None else start + budget.seconds
        limit = budget.iterations
        roots: list[Node] | None = trees
        reused = sum(e.visits for e in trees[seat].edges.values()) if trees else 0
        iterations = 0
        shortlist: Callable[..., Sequence[Any]] | None = (
            getattr(self.model, "candidates", None) if budget.prune and prune else None)
        tried: Sequence[Any] = legal
        while True:
            world = determinize(rng)
            if roots is None:
                roots = [Node() for _ in range(self.game.num_players(world))]
                if shortlist is not None and len(legal) > 1:
                    tried = shortlist(self.game, world, seat, legal) or legal
            self._iterate(world, seat, tried, roots, rng, shortlist)
            iterations += 1
            if limit is not None and iterations >= limit:
                break
            if deadline is not None and clock() >= deadline:
                break
        assert roots is not None
        edges = roots[seat].edges
        options = [OptionValue(a, edges[a].visits, edges[a].value) if a in edges else OptionValue(a, 0, 0.0)
                   for a in legal]
        options.sort(key=lambda o: (-o.visits, -o.value))
        return SearchResult(tuple(options), iterations, clock() - start, reused, roots)

    def follow(self, trees: list[Node], view: Any, action: Any, new_view: Any, rng: Random) -> list[Node] | None:
        """The subtrees to reuse when the seat of ``view`` played ``action`` and decides again.

        Valid only where nothing but the seat's own moves came between (a compound turn: El
        Grande's placements, Mafia Legend's two plays): in a world drawn from ``view``, the
        action and the seat's own forced steps after it, with no chance outcome and no other
        seat, must lead to a position whose view is ``new_view``. Else None (search afresh).
        """
        game = self.game
        seat = game.view_seat(view)
        if seat is None or game.view_seat(new_view) != seat:
            return None
        world = game.determinize(view, seat, rng)
        redact = game.redact_action if self.observed_moves else None
        cur = list(trees)
        while True:
            for j in range(len(cur)):
                key = action if j == seat or redact is None else redact(world, seat, action, j)
                kid = cur[j].kids.get(key)
                if kid is None:
                    return None
                cur[j] = kid
            game.apply_unchecked(world, seat, action)
            actors = game.to_act(world)
            if seat not in actors:
                return None
            if len(actors) == 1:
                legal = game.legal_actions(world, seat)
                if len(legal) == 1 and not game.always_asked(world, seat):
                    action = legal[0]
                    continue
            if game.observe(world, seat) != new_view:
                return None
            return cur

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, world: Any, seat: int, root_legal: Sequence[Any], roots: list[Node],
                 rng: Random, shortlist: Callable[..., Sequence[Any]] | None = None) -> None:
        game, model, budget = self.game, self.model, self.budget
        to_act, legal_actions = game.to_act, game.legal_actions
        apply, sample = game.apply_unchecked, game.sample_chance
        redact = game.redact_action if self.observed_moves else None
        n = len(roots)
        cur: list[Node] = list(roots)
        path: list[tuple[Edge, int]] = []
        in_tree = True
        first = True
        left = budget.depth or -1
        epsilon = budget.epsilon
        c = budget.c
        prior = budget.prior
        policy_others = budget.opponents == "policy"
        clock: Callable[[Any], int] | None = getattr(model, "clock", None) if budget.phases else None
        horizon = clock(world) + budget.phases if clock is not None else 0
        while True:
            actors = to_act(world)
            if not actors:
                result = game.result(world)
                assert result is not None
                rewards = result_rewards(result, model.scale, table=budget.table)
                break
            q = actors[0]
            if q == CHANCE:
                apply(world, CHANCE, sample(world, rng))
                continue
            if clock is not None and clock(world) >= horizon:  # in the tree or in the playout
                est = model.estimate(game, world)
                rewards = margin_rewards(est, model.scale, budget.table) if est else [0.5] * n
                break
            at_root = first
            if first:
                q, legal, first = seat, root_legal, False
            else:
                legal = legal_actions(world, q)
                if in_tree and shortlist is not None and len(legal) > 1:
                    legal = shortlist(game, world, q, legal) or legal
            if in_tree:
                node = cur[q]
                if len(legal) == 1 and not at_root:  # the root always keeps statistics
                    action = legal[0]
                elif policy_others and q != seat:  # another seat plays its policy, unsearched
                    action = _policy(model, game, world, q, legal, rng, epsilon)
                else:
                    hint = model.rollout(game, world, q, legal, rng) if prior else None
                    action, edge, expanded = _select(node, legal, c, rng, hint, prior)
                    path.append((edge, q))
                    if expanded:
                        in_tree = False
                if in_tree:
                    for j in range(n):
                        if j == q or redact is None:
                            cur[j] = cur[j].child(action)
                        else:
                            cur[j] = cur[j].child(redact(world, q, action, j))
                apply(world, q, action)
                continue
            if left == 0:
                est = model.estimate(game, world)
                rewards = margin_rewards(est, model.scale, budget.table) if est else [0.5] * n
                break
            if len(legal) == 1:
                action = legal[0]
            else:
                left -= 1
                action = _policy(model, game, world, q, legal, rng, epsilon)
            apply(world, q, action)
        for edge, p in path:
            edge.visits += 1
            edge.total += rewards[p]


def _policy(model: SearchModel, game: Game[Any, Any, Any], world: Any, q: int, legal: Sequence[Any],
            rng: Random, epsilon: float) -> Any:
    """The playout policy's move, or with probability ``epsilon`` a uniformly random one."""
    if rng.random() < epsilon:
        return legal[rng.randrange(len(legal))]
    return model.rollout(game, world, q, legal, rng)


def _select(node: Node, legal: Sequence[Any], c: float, rng: Random, hint: Any = None,
            prior: float = 0.0) -> tuple[Any, Edge, bool]:
    """UCB1 with availability over ``legal``; an untried action first (``hint``, the playout
    policy's choice, if untried, else a random one); ``hint`` scores ``prior / (visits + 1)``
    more (progressive bias)."""
    edges = node.edges
    untried = [a for a in legal if a not in edges]
    if untried:
        action = hint if hint is not None and hint in untried else untried[rng.randrange(len(untried))]
        edge = edges[action] = Edge()
        for a in legal:
            e = edges.get(a)
            if e is not None:
                e.avail += 1
        return action, edge, True
    best_edge: Edge | None = None
    best_action: Any = None
    best = -1.0
    for a in legal:
        e = edges[a]
        e.avail += 1
        score = e.total / e.visits + c * math.sqrt(math.log(e.avail) / e.visits)
        if a == hint:
            score += prior / (e.visits + 1)
        if score > best:
            best, best_edge, best_action = score, e, a
    assert best_edge is not None
    return best_action, best_edge, False
