"""The search models of El Grande and Mafia Legend: estimates from public information only, one
per seat; playout policies that always answer with a legal action; a tiny search through games.

Positions come from short random games (a handful of seeds), so the whole file runs in seconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import Any

import pytest

from tablero.bots.base import RandomBot
from tablero.bots.heuristics.mafia import GreedyMafia
from tablero.bots.search.bots import LEVELS, MODELS, make_search_bot, model_for
from tablero.bots.search.models.elgrande import ElGrandeModel
from tablero.bots.search.models.mafia import MafiaModel, TableView
from tablero.core.match import Match, bot_rng
from tablero.core.protocol import CHANCE
from tablero.registry import get_game

TABLES = [
    ("el-grande", 3, None),
    ("el-grande", 4, None),
    ("el-grande", 5, {"short_game": True}),
    ("mafia-legend", 3, None),
    ("mafia-legend", 4, None),
    ("mafia-legend", 4, {"variant": "beginner"}),
    ("mafia-legend", 3, {"missions": True}),
]


def positions(game_id: str, players: int, options: dict[str, object] | None, seed: int,
              every: int = 5, limit: int = 600) -> Iterator[tuple[Any, int]]:
    """(state, seat) at every ``every``-th decision with two or more options of a random game."""
    game = get_game(game_id)
    match = Match(game, ["random"] * players, options=options, seed=seed)
    bot = RandomBot()
    rng = Random(seed)
    k = 0
    while not match.is_over() and k < limit:
        seat = match.pending()[0]
        legal = game.legal_actions(match.state, seat)
        if len(legal) > 1:
            if k % every == 0:
                yield match.state.clone(), seat
            k += 1
        match.act(seat, bot.choose(game.observe(match.state, seat), legal, rng))


def test_the_games_have_their_models_and_levels() -> None:
    assert MODELS["el-grande"] is ElGrandeModel
    assert MODELS["mafia-legend"] is MafiaModel
    for game_id in ("el-grande", "mafia-legend"):
        levels = LEVELS[game_id]
        assert levels["hard"].seconds is not None and levels["hard"].seconds <= 4.0
        assert levels["easy"].iterations is not None and levels["medium"].iterations is not None
        assert levels["easy"].iterations < levels["medium"].iterations


@pytest.mark.parametrize(("game_id", "players", "options"), [t for t in TABLES if t[0] == "el-grande"])
def test_estimate_reads_the_public_view_only(game_id: str, players: int, options: dict[str, object] | None) -> None:
    """El Grande: a state and worlds re-dealt from a seat's view (the same public part) get
    the same estimate, one number per seat."""
    game = get_game(game_id)
    model = model_for(game)
    rng = Random(7)
    checked = 0
    for state, seat in positions(game_id, players, options, seed=players * 11, every=15, limit=450):
        est = list(model.estimate(game, state))
        assert len(est) == players
        assert all(isinstance(x, float) for x in est)
        for viewer in {seat, (seat + 1) % players}:
            world = game.determinize(game.observe(state, viewer), viewer, rng)
            assert game.observe(world, None).public == game.observe(state, None).public
            assert list(model.estimate(game, world)) == est
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize(("players", "options"), [(t[1], t[2]) for t in TABLES if t[0] == "mafia-legend"])
def test_mafia_estimate_values_the_worlds_cards(players: int, options: dict[str, object] | None) -> None:
    """Mafia Legend estimates a world with its cards: one number per seat, the same on a
    clone; a seat holding a $5 instead of a $1 behind its screen is worth 4 dollars more,
    and nobody else's estimate changes."""
    from tablero.bots.search.models.mafia import DOLLAR

    game = get_game("mafia-legend")
    model = model_for(game)
    checked = 0
    for state, _seat in positions("mafia-legend", players, options, seed=players * 11, every=15, limit=450):
        est = list(model.estimate(game, state))
        assert len(est) == players and est == list(model.estimate(game, state.clone()))
        if game.result(state) is not None:
            continue
        p = next((q for q in range(players) if state.screen[q].get("G1")), None)
        if p is None:
            continue
        richer = state.clone()
        richer.screen[p]["G1"] -= 1
        if not richer.screen[p]["G1"]:
            del richer.screen[p]["G1"]
        richer.screen[p]["G5"] = richer.screen[p].get("G5", 0) + 1
        after = list(model.estimate(game, richer))
        assert after[p] == pytest.approx(est[p] + 4 * DOLLAR)
        assert [x for q, x in enumerate(after) if q != p] == [x for q, x in enumerate(est) if q != p]
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize(("game_id", "players", "options"), TABLES)
def test_rollout_answers_with_a_legal_action(game_id: str, players: int, options: dict[str, object] | None) -> None:
    game = get_game(game_id)
    model = model_for(game)
    rng = Random(3)
    checked = 0
    for state, seat in positions(game_id, players, options, seed=players * 5 + 1, every=2, limit=500):
        legal = game.legal_actions(state, seat)
        for world in (state, game.determinize(game.observe(state, seat), seat, rng)):
            before = game.state_to_json(world)
            action = model.rollout(game, world, seat, game.legal_actions(world, seat), rng)
            assert action in game.legal_actions(world, seat)
            assert game.state_to_json(world) == before, "the playout policy changed the world"
        assert model.rollout(game, state, seat, legal, rng) in legal
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2)])
def test_mafia_table_view_chooses_as_the_view(players: int, seed: int) -> None:
    """The playout policy is the greedy bot on a view built from the state: it chooses exactly
    what the greedy bot chooses on the seat's real view (greedy games: realistic positions)."""
    game = get_game("mafia-legend")
    greedy = GreedyMafia()
    match = Match(game, ["greedy"] * players, seed=seed)
    rngs = {p: bot_rng(seed, p) for p in range(players)}
    decisions = 0
    while not match.is_over() and decisions < 400:
        seat = match.pending()[0]
        state = match.state
        legal = game.legal_actions(state, seat)
        view = game.observe(state, seat)
        if len(legal) > 1:
            decisions += 1
            assert (greedy.choose(view, legal, Random(decisions))
                    == greedy.choose(TableView(state, seat), legal, Random(decisions)))  # type: ignore[arg-type]
        match.act(seat, greedy.choose(view, legal, rngs[seat]))
    assert decisions > 100


@pytest.mark.parametrize(("game_id", "players", "limit"), [("el-grande", 4, None), ("el-grande", 3, None),
                                                            ("mafia-legend", 4, 700), ("mafia-legend", 3, 700)])
def test_a_tiny_search_plays_through_a_game(game_id: str, players: int, limit: int | None) -> None:
    """``ismcts:iterations=5`` in seat 0 against random seats: a whole El Grande game, a long
    stretch of a Mafia Legend one (random seats rarely end it early)."""
    game = get_game(game_id)
    bot = make_search_bot("ismcts:iterations=5:depth=8", game)
    assert bot is not None
    match = Match(game, ["ismcts"] + ["random"] * (players - 1), seed=players)
    others = RandomBot()
    rng = Random(players)
    entries = 0
    while not match.is_over() and (limit is None or entries < limit):
        seat = match.pending()[0]
        assert seat != CHANCE
        legal = game.legal_actions(match.state, seat)
        chooser = bot if seat == 0 else others
        match.act(seat, chooser.choose(game.observe(match.state, seat), legal, rng))
        entries += 1
    if limit is None:
        assert match.is_over()


def test_mafia_shortlist_and_clock() -> None:
    """The search's shortlist is every legal move but the money moves between screen and hand
    (the whole list where nothing else is legal); the greedy bot's choice is always in it. The
    game clock never runs backwards and moves on with every phase."""
    game = get_game("mafia-legend")
    model = MafiaModel()
    greedy = GreedyMafia()
    rng = Random(1)
    short = 0
    clocks = []
    for state, seat in positions("mafia-legend", 4, None, seed=3, every=1, limit=400):
        clocks.append(model.clock(state))
        legal = game.legal_actions(state, seat)
        cands = list(model.candidates(game, state, seat, legal))
        assert cands and set(cands) <= set(legal) and len(set(cands)) == len(cands)
        others = [a for a in legal if a.kind not in ("to_hand", "to_screen")]
        assert cands == (others or list(legal))
        assert greedy.choose(game.observe(state, seat), legal, rng) in cands
        short += len(cands) < len(legal)
    assert short >= 10
    assert clocks == sorted(clocks) and len(set(clocks)) >= 4
