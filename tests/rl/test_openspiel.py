"""The OpenSpiel games: pyspiel.random_sim_test(serialize=True) for every game at its smallest and
largest player count, OpenSpiel's Python ISMCTS on them, and what the binding declares."""

from __future__ import annotations

import pickle
from random import Random
from typing import Any

import numpy as np
import pytest

from .setups import require

pyspiel = require("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from tablero.rl.openspiel import MAX_DECISIONS, NAMES, load, register  # noqa: E402

from .setups import DEEP, IDS, SETUPS  # noqa: E402

SIMS = ({"don-carlo": 300, "el-grande": 40, "mafia-legend": 12} if DEEP
        else {"don-carlo": 4, "el-grande": 2, "mafia-legend": 1})


@pytest.mark.parametrize(("game_id", "players", "options"), SETUPS, ids=IDS)
def test_openspiel_random_sim_test_with_serialization(game_id: str, players: int, options: dict[str, Any]) -> None:
    game = load(game_id, players, **options)
    pyspiel.random_sim_test(game, num_sims=SIMS[game_id], serialize=True, verbose=False)


def test_register_names_every_game_once() -> None:
    names = register()
    assert names == ["tablero_don_carlo", "tablero_el_grande", "tablero_mafia_legend"]
    assert register() == names
    assert set(names) <= set(pyspiel.registered_names())


@pytest.mark.parametrize(("game_id", "players", "options"), SETUPS, ids=IDS)
def test_game_type_and_info_follow_the_game(game_id: str, players: int, options: dict[str, Any]) -> None:
    from tablero.registry import get_game

    game = load(game_id, players, **options)
    g = get_game(game_id)
    t = game.get_type()
    assert t.short_name == NAMES[game_id]
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (t.min_num_players, t.max_num_players) == (g.min_players, g.max_players)
    resolved = g.resolve_options(players, options)
    assert game.num_distinct_actions() == g.action_codec(players, resolved).size
    assert game.max_chance_outcomes() == g.chance_codec(players, resolved).size
    assert game.num_players() == players
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.max_game_length() == MAX_DECISIONS[(game_id, players)]
    if game_id == "mafia-legend":  # a Mafia Legend game can end with nobody winning
        assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    else:
        assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0


def test_rank_reward_and_options_as_parameters() -> None:
    game = pyspiel.load_game("tablero_el_grande", {"players": 3, "short_game": True, "reward": "rank"})
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = game.new_initial_state()
    rng = Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    result = state.tablero_state and game.table.game.result(state.tablero_state)
    assert state.returns() == [(3 - r) / 2 for r in result.ranks]
    assert game.table.game.rounds(state.tablero_state) == 6  # the short game
    with pytest.raises(Exception, match="reward"):
        pyspiel.load_game("tablero_don_carlo", {"players": 3, "reward": "score"})


def test_data_overrides_as_a_parameter() -> None:
    game = pyspiel.load_game("tablero_mafia_legend", {"players": 3, "variant": "beginner", "data": "BEGINNER_GOAL=40"})
    assert game.table.options["data"] == {"BEGINNER_GOAL": 40}


def _random_state(game: Any, seed: int, decisions: int) -> Any:
    state = game.new_initial_state()
    rng = Random(seed)
    done = 0
    while not state.is_terminal() and done < decisions:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize("game_id", ["don-carlo", "el-grande", "mafia-legend"])
def test_resample_from_infostate_keeps_the_players_information(game_id: str) -> None:
    game = load(game_id, 3, **({"short_game": True} if game_id == "el-grande" else {}))
    varied = 0
    for seed in range(3):
        state = _random_state(game, seed, 2 + 5 * seed)
        player = state.current_player()
        key = state.information_state_string(player)
        obs = state.observation_tensor(player)
        worlds = set()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        for _ in range(6):
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == key
            assert world.observation_tensor(player) == obs
            assert world.legal_actions() == state.legal_actions()
            worlds.add(str(world))
        varied += len(worlds) > 1
    if game_id != "el-grande":  # El Grande hides little: hands are known by what was played
        assert varied > 0  # the hidden cards really are drawn anew


def test_resample_depends_only_on_the_players_information() -> None:
    """Two states the player cannot tell apart resample to the same worlds with the same draws."""
    game = load("don-carlo", 3)
    state = _random_state(game, 1, 5)
    player = state.current_player()
    other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    a = state.resample_from_infostate(player, _Fixed(0.25))
    b = other.resample_from_infostate(player, _Fixed(0.25))
    assert str(a) == str(b)


class _Fixed:
    def __init__(self, value: float) -> None:
        self.value = value

    def __call__(self) -> float:
        return self.value


@pytest.mark.parametrize(("game_id", "players", "options", "decisions"), [
    ("don-carlo", 3, {}, 8),
    ("el-grande", 3, {"short_game": True}, 6),
    ("mafia-legend", 3, {}, 4),
])
def test_openspiels_python_ismcts_plays_on_the_games(game_id: str, players: int, options: dict[str, Any],
                                                      decisions: int) -> None:
    game = load(game_id, players, **options)
    rs = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
                           uct_c=2.0, max_simulations=12, random_state=rs)
    state = game.new_initial_state()
    asked = 0
    while not state.is_terminal() and asked < decisions:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        asked += 1
    assert asked == decisions


def test_serialization_and_pickling_keep_the_position_and_recall() -> None:
    game = load("el-grande", 3, short_game=True)
    state = _random_state(game, 4, 30)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    for p in range(3):
        assert state2.information_state_string(p) == state.information_state_string(p)
    state3 = pickle.loads(pickle.dumps(state))
    assert str(state3) == str(state)
    state.apply_action(state.legal_actions()[0])
    assert str(state3) != str(state)  # independent copies


def test_observation_tensor_is_the_encoders_at_every_point() -> None:
    """OpenSpiel's observation_tensor (with the observer's shortcut for the initial state) equals
    the encoder's tensor of the seat's view, for every seat, from the first state on."""
    game = load("mafia-legend", 3)
    table = game.table
    rng = Random(6)
    state = game.new_initial_state()
    for step in range(300):
        if state.is_terminal():
            break
        for p in range(3):
            assert np.array_equal(np.array(state.observation_tensor(p), np.float32),
                                  table.observation(state.tablero_state, p)), (step, p)
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_observers_string_tensor_and_public() -> None:
    game = load("don-carlo", 3)
    state = _random_state(game, 2, 4)
    obs = make_observation(game)
    obs.set_from(state, 1)
    assert obs.tensor is not None and np.array_equal(obs.tensor, np.array(state.observation_tensor(1), np.float32))
    assert set(obs.dict) == {"observation"}  # one piece (OpenSpiel copies each piece per call)
    named = game.table.encoder.layout.split(obs.tensor)
    assert {b.name for b in game.table.encoder.layout.blocks} == set(named)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert info.tensor is None
    assert info.string_from(state, 1) == state.information_state_string(1)
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    assert public.string_from(state, 0) == public.string_from(state, 2)
    assert state.observation_string(0) != state.observation_string(1)  # each seat's own hand


def test_information_state_is_perfect_recall_of_what_the_seat_saw() -> None:
    """The information state grows by one line per action, each line as the seat saw it: a card
    drawn for another seat shows as hidden, one's own by its value."""
    game = load("don-carlo", 3)
    state = game.new_initial_state()
    private_lines = 0
    for _ in range(20):
        before = [len(state.information_state_string(p).split("\n")) for p in range(3)]
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
        after = [state.information_state_string(p).split("\n") for p in range(3)]
        assert [len(a) for a in after] == [n + 1 for n in before]
        if len({a[-2] for a in after}) >= 2:  # read differently by the seats
            private_lines += 1
    assert private_lines > 0
