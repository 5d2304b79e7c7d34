"""ISMCTS search bots: information only, never raising, budgets honoured, names, the cheat.

The information test is the one that matters: a search bot's choice (with the same RNG) is
the same on two states whose views for its seat are equal but whose hidden parts were
re-dealt — so nothing it does can depend on what the seat may not see.
"""

from __future__ import annotations

import os
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablero.bots import make_bot
from tablero.bots.registry import PLAYER_LEVELS, UnknownBotError, bot_names, is_peeking
from tablero.bots.search.analysis import analyze
from tablero.bots.search.bots import CheatingSearchBot, SearchBot, level_budget, parse_budget
from tablero.bots.search.ismcts import ISMCTS, Budget
from tablero.bots.search.model import GenericModel, margin_rewards
from tablero.core.match import Match
from tablero.core.protocol import CHANCE, Game
from tablero.registry import GAMES, get_game
from tablero.testing import TOY_GAME
from tablero.testing.playouts import random_playout

DEEP = os.environ.get("TABLERO_DEEP") == "1"

GAME_IDS = tuple(GAMES)
TINY = Budget(iterations=12, depth=6)


def _decision_points(game: Game[Any, Any, Any], players: int, seed: int, every: int) -> list[tuple[Any, int]]:
    """Clones of states along a random game where a seat has two or more options."""
    out = []
    for step in random_playout(game, players, seed):
        if step.actor == CHANCE or step.number % every:
            continue
        if len(game.legal_actions(step.state, step.actor)) > 1:
            out.append((step.state.clone(), step.actor))
    return out


def _bot(game: Game[Any, Any, Any], budget: Budget = TINY) -> SearchBot:
    return SearchBot("test", game, budget)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_choice_depends_only_on_the_seats_information(game_id: str) -> None:
    """Same view, same RNG → same choice and the same values, whatever the hidden parts are."""
    game = get_game(game_id)
    bot = _bot(game)
    checked = 0
    for players in (game.min_players, 4 if game.max_players >= 4 else game.max_players):
        points = _decision_points(game, players, seed=players, every=9)
        for state, seat in points[:: max(1, len(points) // 6)]:
            view = game.observe(state, seat)
            redealt = game.determinize(view, seat, Random(99))
            assert game.observe(redealt, seat) == view
            first = bot.analyse(view, game.legal_actions(state, seat), Random(5))
            second = bot.analyse(game.observe(redealt, seat), game.legal_actions(redealt, seat), Random(5))
            assert first.options == second.options
            checked += 1
    assert checked >= 4


def _edges(node: Any) -> int:
    return len(node.edges) + sum(_edges(kid) for kid in node.kids.values())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_with_opponents_as_policy_only_the_seat_searches_and_sees_only_its_information(game_id: str) -> None:
    """``opponents=policy``: the other seats' trees hold no statistics (they play the playout
    policy in the tree), the seat's own tree reaches below the root, and the choice still
    depends only on the seat's view."""
    game = get_game(game_id)
    bot = _bot(game, Budget(iterations=60, depth=6, opponents="policy", table=0.3))
    deep_own = 0
    points = _decision_points(game, 4 if game.max_players >= 4 else game.max_players, seed=4, every=7)
    for state, seat in points[:: max(1, len(points) // 4)]:
        view = game.observe(state, seat)
        legal = game.legal_actions(state, seat)
        first = bot.analyse(view, legal, Random(5))
        redealt = game.determinize(view, seat, Random(99))
        assert bot.analyse(game.observe(redealt, seat), game.legal_actions(redealt, seat), Random(5)).options \
            == first.options
        assert all(_edges(t) == 0 for j, t in enumerate(first.trees) if j != seat)
        deep_own += _edges(first.trees[seat]) > len(first.trees[seat].edges)
    assert deep_own >= 1


def test_toy_game_search_is_information_only_and_plays_to_the_end() -> None:
    bot = SearchBot("toy", TOY_GAME, Budget(iterations=30, depth=0), GenericModel())
    for players in (2, 3):
        for state, seat in _decision_points(TOY_GAME, players, seed=3, every=1):
            view = TOY_GAME.observe(state, seat)
            other = TOY_GAME.determinize(view, seat, Random(1))
            a = bot.analyse(view, TOY_GAME.legal_actions(state, seat), Random(2))
            b = bot.analyse(TOY_GAME.observe(other, seat), TOY_GAME.legal_actions(other, seat), Random(2))
            assert a.options == b.options


@settings(max_examples=60 if DEEP else 12)
@given(game_id=st.sampled_from(GAME_IDS), seed=st.integers(0, 2**32), where=st.floats(0, 1))
def test_search_never_raises_on_reachable_positions(game_id: str, seed: int, where: float) -> None:
    game = get_game(game_id)
    players = Random(seed).randint(game.min_players, game.max_players)
    points = _decision_points(game, players, seed, every=1)
    if not points:
        return
    state, seat = points[min(len(points) - 1, int(where * len(points)))]
    legal = game.legal_actions(state, seat)
    result = _bot(game, Budget(iterations=4, depth=4)).analyse(game.observe(state, seat), legal, Random(seed))
    assert {o.action for o in result.options} == set(legal)
    assert result.best in legal


@pytest.mark.parametrize("iterations", [1, 7, 40])
def test_iteration_budget_is_exact_and_every_iteration_backs_up_one_root_edge(iterations: int) -> None:
    game = get_game("don-carlo")
    state, seat = _decision_points(game, 3, seed=11, every=1)[2]
    legal = game.legal_actions(state, seat)
    result = _bot(game, Budget(iterations=iterations, depth=5)).analyse(game.observe(state, seat), legal, Random(1))
    assert result.iterations == iterations
    assert sum(o.visits for o in result.options) == iterations
    assert all(0.0 <= o.value <= 1.0 for o in result.options)


class _LastPolicy(GenericModel):
    """A playout policy that always plays the last legal action (to spot it in the tree)."""

    def rollout(self, game: Game[Any, Any, Any], state: Any, seat: int, legal: Any, rng: Random) -> Any:
        return legal[-1]


def test_a_prior_tries_the_policys_choice_first_and_favours_it() -> None:
    game = get_game("don-carlo")
    state, seat = next((s, q) for s, q in _decision_points(game, 3, seed=11, every=1)
                       if len(game.legal_actions(s, q)) >= 4)
    legal = game.legal_actions(state, seat)
    view = game.observe(state, seat)

    def run(prior: float, iterations: int) -> dict[Any, int]:
        search = ISMCTS(game, _LastPolicy(), Budget(iterations=iterations, depth=3, prior=prior))
        res = search.search(lambda r: game.determinize(view, seat, r), seat, legal, Random(5))
        return {o.action: o.visits for o in res.options}

    assert run(1.0, 1)[legal[-1]] == 1
    assert run(0.0, 1)[legal[-1]] == 0  # without a prior: a random untried one (seeded)
    # a large prior keeps the policy's choice the most visited
    with_prior = run(50.0, 200)
    assert max(with_prior, key=lambda a: with_prior[a]) == legal[-1]
    with pytest.raises(ValueError):
        Budget(prior=-1.0)
    assert parse_budget(["prior=0.5"], Budget()).prior == 0.5


class _CardClock(GenericModel):
    """Don Carlo with a game clock: cards played so far (what the hands and decks lost)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[int] = []

    @staticmethod
    def clock(state: Any) -> int:
        pub = get_game("don-carlo").observe(state, None).public
        return -sum(pub.hand_sizes) - sum(pub.deck_sizes)

    def estimate(self, game: Game[Any, Any, Any], state: Any) -> list[float]:
        self.seen.append(self.clock(state))
        return [0.0] * game.num_players(state)


def test_playouts_stop_at_the_same_point_of_the_game_with_a_clock() -> None:
    game = get_game("don-carlo")
    state, seat = _decision_points(game, 3, seed=11, every=1)[3]
    view = game.observe(state, seat)
    model = _CardClock()
    start = model.clock(state)
    search = ISMCTS(game, model, Budget(iterations=30, depth=50, phases=2))
    search.search(lambda r: game.determinize(view, seat, r), seat, game.legal_actions(state, seat), Random(2))
    # every iteration is judged once the clock passed the horizon (a move may play several
    # cards), in the tree as in the playout, never before and never long after
    assert len(model.seen) == 30 and all(start + 2 <= x <= start + 6 for x in model.seen)
    deep = _CardClock()
    ISMCTS(game, deep, Budget(iterations=30, depth=12)).search(
        lambda r: game.determinize(view, seat, r), seat, game.legal_actions(state, seat), Random(2))
    assert min(deep.seen) > start + 6


def test_seconds_budget_stops_at_the_deadline_on_its_clock() -> None:
    game = get_game("don-carlo")
    state, seat = _decision_points(game, 3, seed=11, every=1)[2]
    ticks = iter(range(10_000))
    search = ISMCTS(game, GenericModel(), Budget(iterations=None, seconds=5.0, depth=3))
    view = game.observe(state, seat)
    result = search.search(lambda r: game.determinize(view, seat, r), seat, game.legal_actions(state, seat),
                           Random(1), clock=lambda: float(next(ticks)))
    # The clock reads 0 at the start and one more after each iteration: 5 iterations fit.
    assert result.iterations == 5
    both = ISMCTS(game, GenericModel(), Budget(iterations=3, seconds=1000.0, depth=3))
    assert both.search(lambda r: game.determinize(view, seat, r), seat, game.legal_actions(state, seat),
                       Random(1)).iterations == 3


def test_bot_names_parameters_and_levels() -> None:
    bot = make_bot("ismcts:iterations=400:depth=7", "don-carlo")
    assert isinstance(bot, SearchBot)
    assert bot.budget.iterations == 400 and bot.budget.depth == 7
    timed = make_bot("ISMCTS:seconds=1", "el-grande")
    assert isinstance(timed, SearchBot)
    assert timed.budget.iterations is None and timed.budget.seconds == 1.0
    for level in ("easy", "medium", "hard"):
        for game_id in GAME_IDS:
            b = make_bot(level, game_id)
            assert isinstance(b, SearchBot) and b.budget == level_budget(game_id, level)
    for game_id in GAME_IDS:
        easy, medium, hard = (level_budget(game_id, lv) for lv in ("easy", "medium", "hard"))
        assert (easy.iterations or 0) < (medium.iterations or 0) < (hard.iterations or 10**9)
        assert hard.seconds is not None, "hard must answer within a few seconds"
    for bad in ("ismcts:iterations=0", "ismcts:speed=3", "ismcts:iterations=x", "hard:iterations=3",
                "alphazero"):
        with pytest.raises(UnknownBotError):
            make_bot(bad, "don-carlo")
    assert parse_budget([], Budget()) == Budget()
    assert "mcts-cheat" not in bot_names("don-carlo") and "mcts-cheat" not in PLAYER_LEVELS
    assert is_peeking("mcts-cheat:iterations=5") and not is_peeking("hard")


def test_the_cheating_baseline_sees_the_state_only_through_the_driver() -> None:
    cheat = make_bot("mcts-cheat:iterations=10:depth=5", "don-carlo")
    assert isinstance(cheat, CheatingSearchBot) and cheat.peeks
    game = get_game("don-carlo")
    m = Match(game, ["mcts-cheat", "greedy", "greedy"], seed=4)
    with pytest.raises(TypeError):
        cheat.choose(m.view(m.pending()[0]), m.legal(m.pending()[0]), Random(0))
    bots = {0: cheat, 1: make_bot("greedy", game.id), 2: make_bot("greedy", game.id)}
    m.play_bots(bots, {p: Random(p) for p in bots})
    assert m.is_over()


def test_search_beats_random_in_a_short_run() -> None:
    """A sanity check of the reward vector: a small search wins most games against random."""
    game = get_game("don-carlo")
    wins = 0.0
    for i in range(4):
        seats = ["ismcts:iterations=40:depth=6", "random", "random"]
        seats = seats[i % 3:] + seats[: i % 3]
        m = Match(game, seats, seed=100 + i)
        bots = {p: make_bot(s, game.id) for p, s in enumerate(seats)}
        m.play_bots(bots, {p: Random(p) for p in bots})
        res = m.result()
        assert res is not None
        wins += res.win_share(seats.index("ismcts:iterations=40:depth=6"))
    assert wins >= 3


def test_margin_rewards_favour_the_leader() -> None:
    r = margin_rewards([10.0, 4.0, 4.0], scale=4.0)
    assert r[0] > 0.5 > r[1] and r[1] == r[2]


def test_table_share_keeps_a_seat_far_behind_playing_for_points() -> None:
    """Far behind the leader the margin reward is nearly flat: 10 points more against the rest
    of the table hardly count. With ``table`` they count three times as much, and the leader
    still gets the most."""
    behind, ahead_of_rest = [60.0, 10.0, 10.0, 10.0], [60.0, 20.0, 10.0, 10.0]
    flat = margin_rewards(ahead_of_rest, 12.0)[1] - margin_rewards(behind, 12.0)[1]
    mixed = margin_rewards(ahead_of_rest, 12.0, table=0.3)[1] - margin_rewards(behind, 12.0, table=0.3)[1]
    assert mixed > 3 * flat
    r = margin_rewards(ahead_of_rest, 12.0, table=0.3)
    assert r[0] > r[1] > r[2] == r[3]
    assert margin_rewards([5.0, 5.0], 12.0, table=0.5) == [0.5, 0.5]
    assert parse_budget(["table=0.3"], Budget()).table == 0.3
    with pytest.raises(ValueError):
        Budget(table=1.5)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_analysis_follows_the_record(game_id: str, tmp_path: Any) -> None:
    game = get_game(game_id)
    m = Match(game, ["greedy"] * game.min_players, seed=8)
    bots = {p: make_bot("random", game.id) for p in range(game.min_players)}
    m.play_bots(bots, {p: Random(p) for p in bots})
    seat = 1
    report = analyze(game, m.record, seat, Budget(iterations=2, depth=2))
    data = report.to_json()
    asked = [i for i, (actor, _t) in enumerate(m.record.entries) if actor == seat]
    assert data["decisions"], "the seat had choices"
    for d in data["decisions"]:
        assert d["index"] in asked
        assert m.record.entries[d["index"]][1] == d["chosen"]
        assert d["options"][0]["text"] == d["best"]
        visits = [o["visits"] for o in d["options"]]
        assert visits == sorted(visits, reverse=True)
        assert d["chosen"] in {o["text"] for o in d["options"]}
        assert d["loss"] >= 0
    assert data["worst"] is None or data["worst"] in {d["index"] for d in data["decisions"]}


@pytest.mark.parametrize("reuse", [True, False])
def test_subtree_reuse_within_a_compound_turn_only(reuse: bool) -> None:
    """El Grande places caballeros one at a time: the search goes on from the last one's subtree;
    after another seat's move or a draw it starts afresh. With ``reuse=false`` always afresh."""
    game = get_game("el-grande")
    m = Match(game, ["ismcts", "random", "random"], seed=5)
    spec = f"ismcts:iterations=30:depth=4:reuse={str(reuse).lower()}"
    bots = {0: make_bot(spec, game.id), 1: make_bot("random", game.id), 2: make_bot("random", game.id)}
    rngs = {p: Random(p) for p in bots}
    reused, fresh, own = 0, 0, 0
    for _ in range(300):
        if m.is_over():
            break
        p = m.pending()[0]
        asked = len(m.legal(p)) > 1
        previous = m.record.entries[-1][0] if m.record.entries else None
        m.act(p, bots[p].choose(m.view(p), m.legal(p), rngs[p]))
        if p == 0 and asked:
            last = bots[0].last  # type: ignore[attr-defined]
            assert last is not None
            if previous != 0:
                assert last.reused == 0, "another seat or chance came between: no reuse"
                fresh += 1
            else:
                own += 1  # right after its own move: reuse is possible
            if last.reused:
                reused += 1
                assert sum(o.visits for o in last.options) == last.iterations + last.reused
    assert fresh >= 3 and own >= 3
    assert reused >= 3 if reuse else reused == 0
