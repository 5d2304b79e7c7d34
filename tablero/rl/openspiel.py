"""Every tablero game as an OpenSpiel Python game.

>>> import pyspiel
>>> from tablero.rl.openspiel import register
>>> register()
['tablero_don_carlo', 'tablero_el_grande', 'tablero_mafia_legend']
>>> game = pyspiel.load_game("tablero_don_carlo", {"players": 3})
>>> pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)

What the games declare (``GameType`` / ``GameInfo``):

* sequential, explicit stochastic chance (every shuffle, draw and die is a chance node with the
  game's own outcomes and probabilities), imperfect information, terminal rewards;
* ``num_distinct_actions`` and ``max_chance_outcomes``: the sizes of the game's fixed action and
  chance codecs (``Game.action_codec`` / ``chance_codec``);
* utility: ``reward="win"`` (default) pays the win share, 0..1, constant-sum 1 where every game
  has a winner (Don Carlo, El Grande) and general-sum where a game can end with nobody winning
  (Mafia Legend); ``reward="rank"`` pays ``(n - rank) / (n - 1)``, general-sum;
* ``max_game_length``: player decisions (forced steps included: OpenSpiel asks every decision),
  from the longest of thousands of random games per player count with a margin
  (:data:`MAX_DECISIONS`).

Simultaneous secret choices (El Grande's Castillo disks) are asked one seat after the other:
``current_player`` is the first seat still to commit, and the views hide what was committed.

Observers: the observation (string: the seat's view as JSON; tensor: :mod:`tablero.rl.encoders`)
and the information state (string only: everything the seat has seen happen, each action as it
was shown to that seat, then its current view — perfect recall). A public observer
(``private_info=NONE``) gives the spectator's view as a string.

``resample_from_infostate(player, sampler)`` draws a full state consistent with the player's view
through ``Game.determinize``. The sampled state keeps the player's own recall; the other seats'
recall there is the public record (what they saw privately in the sampled world is not
invented), and its ``history()`` is empty: its past is the sampled position itself. OpenSpiel's
Python ISMCTS (``open_spiel.python.algorithms.ismcts``) runs on it.

Serialization (``pyspiel.serialize_game_and_state``, pickling) carries the position as the
game's state JSON (``Game.state_to_json``) with the seats' recall.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from random import Random
from typing import Any, Final

import numpy as np
import pyspiel

from tablero.core.protocol import CHANCE, DATA_OPTION
from tablero.registry import GAMES, get_game
from tablero.rl.table import Table

NAMES: Final = {gid: "tablero_" + gid.replace("-", "_") for gid in GAMES}
"""The OpenSpiel short name of every game: ``tablero_don_carlo``, ``tablero_el_grande``, ..."""

DEFAULT_PLAYERS: Final = {"don-carlo": 3, "el-grande": 4, "mafia-legend": 4}
"""The player count a game loads with when ``players`` is not given."""

MAX_DECISIONS: Final = {
    # (game, players): seat decisions in one game (forced steps included). The longest of many
    # random games (scripts/rl_lengths.py: 30,000 Don Carlo, 5,000 El Grande, 3,000 Mafia Legend
    # games per player count, and the options that play longest) times 1.25, rounded up to ten.
    ("don-carlo", 2): 30, ("don-carlo", 3): 50, ("don-carlo", 4): 60,  # measured 24, 34, 44
    ("el-grande", 2): 210, ("el-grande", 3): 300,  # measured 164, 238
    ("el-grande", 4): 400, ("el-grande", 5): 500,  # measured 315, 397
    ("mafia-legend", 3): 900, ("mafia-legend", 4): 1160,  # measured 719, 926 (missions)
}
"""OpenSpiel's ``max_game_length``. Random play is the long end of play here (every option is
tried, bots end games sooner); a policy that moves money back and forth on purpose in Mafia
Legend could still go beyond it."""

NO_WINNER_GAMES: Final = frozenset({"mafia-legend"})
"""Games that can end with nobody winning (their win-share returns are not constant-sum)."""


def _params_spec(game_id: str) -> dict[str, Any]:
    game = get_game(game_id)
    spec: dict[str, Any] = {"players": DEFAULT_PLAYERS[game_id], "reward": "win", DATA_OPTION: ""}
    for o in game.options:
        spec[o.name] = o.default if isinstance(o.default, bool) else ""
    return spec


def _game_type(game_id: str, *, general: bool = False) -> pyspiel.GameType:
    """The game's type; ``general``: general-sum utility whatever the game (the rank reward)."""
    game = get_game(game_id)
    return pyspiel.GameType(
        short_name=NAMES[game_id],
        long_name=f"{game.title} (tablero)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.GENERAL_SUM if general or game_id in NO_WINNER_GAMES
                 else pyspiel.GameType.Utility.CONSTANT_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_params_spec(game_id),
        default_loadable=True,
        provides_factored_observation_string=False,
    )


def _options(game_id: str, params: Mapping[str, Any]) -> dict[str, object]:
    """The game options among OpenSpiel parameters ("" = the game's default)."""
    out: dict[str, object] = {}
    for o in get_game(game_id).options:
        v = params.get(o.name, "")
        if v != "" and not (isinstance(o.default, bool) and v == o.default):
            out[o.name] = v
    data = str(params.get(DATA_OPTION, "") or "")
    if data:
        pairs = [p for p in data.replace(";", " ").split() if p]
        try:
            out[DATA_OPTION] = dict(p.split("=", 1) for p in pairs)
        except ValueError:
            raise ValueError(f"data must be NAME=VALUE pairs separated by ';', not {data!r}") from None
    return out


class TableroGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one tablero game (a subclass per game id: :func:`register`)."""

    game_id: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        players = int(given.get("players", DEFAULT_PLAYERS[self.game_id]))
        reward = str(given.get("reward", "win"))
        if reward not in ("win", "rank"):
            raise ValueError(f"reward must be 'win' or 'rank' in OpenSpiel, not {reward!r}")
        table = Table(self.game_id, players, _options(self.game_id, given), reward=reward)
        constant = reward == "win" and self.game_id not in NO_WINNER_GAMES
        low, high = table.bounds()
        game_type = _game_type(self.game_id, general=not constant)
        info = pyspiel.GameInfo(
            num_distinct_actions=table.num_actions,
            max_chance_outcomes=table.num_chance,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=1.0 if constant else None,
            max_game_length=MAX_DECISIONS[(self.game_id, players)],
        )
        super().__init__(game_type, info, given)
        self.table = table

    def new_initial_state(self) -> TableroState:
        return TableroState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        return Observer(self.table, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


# ---------------------------------------------------------------------- recall
# Each seat's recall is a list of lines, kept as a persistent linked list of cells
# ``(previous cell, actor, texts)`` so that a clone shares it: ``texts`` is one string when
# every viewer saw the action alike, else a tuple with one text per seat and the spectator's last.
Cell = tuple[Any, int, "str | tuple[str, ...]"]


def _lines(cell: Cell | None, who: int) -> list[str]:
    out: list[str] = []
    while cell is not None:
        prev, actor, texts = cell
        text = texts if isinstance(texts, str) else texts[who]
        out.append(f"{actor}:{text}")
        cell = prev
    out.reverse()
    return out


class Position:
    """A tablero state with its recall: the one attribute of a :class:`TableroState`.

    Cloning copies the state with the game's own ``clone`` and shares the recall; pickling
    writes the state JSON (OpenSpiel serializes a Python state by pickling its attributes).
    """

    __slots__ = ("recall", "state", "table")

    def __init__(self, table: Table, state: Any, recall: Cell | None = None) -> None:
        self.table = table
        self.state = state
        self.recall = recall

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return Position(self.table, self.state.clone(), self.recall)

    def __reduce__(self) -> tuple[Any, ...]:
        t = self.table
        recall = [(actor, texts) for _, actor, texts in _cells(self.recall)]
        return (_restore, (t.game_id, t.players, dict(t.options), t.reward,
                           json.dumps(t.game.state_to_json(self.state)), recall))


def _cells(cell: Cell | None) -> list[Cell]:
    out: list[Cell] = []
    while cell is not None:
        out.append(cell)
        cell = cell[0]
    out.reverse()
    return out


_TABLES: dict[tuple[str, int, str, str], Table] = {}


def _table(game_id: str, players: int, options: Mapping[str, object], reward: str) -> Table:
    key = (game_id, players, json.dumps(options, sort_keys=True, default=str), reward)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = Table(game_id, players, options, reward=reward)
    return table


def _restore(game_id: str, players: int, options: dict[str, object], reward: str, state_json: str,
             recall: list[tuple[int, Any]]) -> Position:
    table = _table(game_id, players, options, reward)
    cell: Cell | None = None
    for actor, texts in recall:
        cell = (cell, actor, texts if isinstance(texts, str) else tuple(texts))
    return Position(table, table.game.state_from_json(json.loads(state_json)), cell)


class TableroState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a tablero state (see the module doc)."""

    def __init__(self, game: TableroGame) -> None:
        super().__init__(game)
        self._p = Position(game.table, game.table.new_state())

    # ------------------------------------------------------------------ flow
    def current_player(self) -> int:
        actors = self._p.table.game.to_act(self._p.state)
        if not actors:
            return int(pyspiel.PlayerId.TERMINAL)
        if actors[0] == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return int(actors[0])

    def is_terminal(self) -> bool:
        return not self._p.table.game.to_act(self._p.state)

    def _legal_actions(self, player: int) -> list[int]:
        if player < 0 or player != self.current_player():
            return []
        return self._p.table.legal_indices(self._p.state, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = self._p
        outcomes = p.table.game.chance_outcomes(p.state)
        total = sum(w for _, w in outcomes)
        encode = p.table.chance_codec.encode
        return sorted((encode(a), w / total) for a, w in outcomes)

    def _apply_action(self, action: int) -> None:
        p = self._p
        table, game, state = p.table, p.table.game, p.state
        actors = game.to_act(state)
        actor = actors[0] if actors else CHANCE
        chosen = (table.chance_codec if actor == CHANCE else table.codec).decode(int(action))
        n = table.players
        texts = [game.redact_action(state, actor, chosen, v).to_text() for v in (*range(n), None)]
        game.apply(state, actor, chosen)
        p.recall = (p.recall, actor, texts[0] if all(t == texts[0] for t in texts) else tuple(texts))

    def _action_to_string(self, player: int, action: int) -> str:
        table = self._p.table
        codec = table.chance_codec if player == CHANCE else table.codec
        return str(codec.decode(int(action)).to_text())

    def returns(self) -> list[float]:
        p = self._p
        return p.table.returns(p.table.game.result(p.state))

    def __str__(self) -> str:
        p = self._p
        return str(p.table.game.debug_text(p.state))

    # ------------------------------------------------------------------ search
    def resample_from_infostate(self, player: int, probability_sampler: Any) -> TableroState:
        """A state drawn from ``player``'s information (``Game.determinize`` of its view)."""
        p = self._p
        game = p.table.game
        rng = Random(int(probability_sampler() * 2**53))
        world = game.determinize(game.observe(p.state, player), player, rng)
        n = p.table.players
        cell: Cell | None = None
        for _, actor, texts in _cells(p.recall):
            if not isinstance(texts, str):
                texts = tuple(texts[player] if v == player else texts[n] for v in range(n + 1))
            cell = (cell, actor, texts)
        out: TableroState = self.get_game().new_initial_state()
        out._p = Position(p.table, world, cell)
        return out

    # ------------------------------------------------------------------ helpers
    @property
    def tablero_state(self) -> Any:
        """The tablero state inside (the true position: for tests and cheating baselines)."""
        return self._p.state


class Observer:
    """OpenSpiel's PyObserver for a tablero game (observation or information state)."""

    def __init__(self, table: Table, iig_obs_type: Any) -> None:
        self.table = table
        self.recall = bool(iig_obs_type.perfect_recall)
        self.public_only = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("tablero games observe one seat's private information, not all players'")
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        self._first: dict[int, np.ndarray] = {}
        if not self.recall and not self.public_only:
            self.tensor = np.zeros(table.encoder.size, np.float32)
            # One piece: OpenSpiel copies every piece of ``dict`` on each ``observation_tensor``
            # call, and the layout's 28-60 named blocks cost more than the encoding itself
            # (measured). The named blocks: ``table.encoder.layout.split(tensor)``.
            self.dict = {"observation": self.tensor}

    def set_from(self, state: TableroState, player: int) -> None:
        if self.tensor is None:
            return
        p = state._p
        if p.recall is None:
            # Before the first action (no recall yet) every state is the game's initial state:
            # OpenSpiel asks for it on each observation_tensor() call, to learn the shape.
            first = self._first.get(player)
            if first is None:
                first = self._first[player] = p.table.observation(p.state, player)
            self.tensor[:] = first
            return
        self.tensor[:] = p.table.observation(p.state, player)

    def string_from(self, state: TableroState, player: int) -> str:
        p = state._p
        game = p.table.game
        view = game.observe(p.state, None if self.public_only else player)
        now = json.dumps(view.to_json(), sort_keys=True, separators=(",", ":"))
        if not self.recall:
            return now
        who = p.table.players if self.public_only else player
        return "\n".join([*_lines(p.recall, who), now])


def register() -> list[str]:
    """Register every tablero game with OpenSpiel (again: no effect); returns their names."""
    known = set(pyspiel.registered_names())
    for gid, name in NAMES.items():
        if name not in known:
            cls = type(f"TableroGame_{gid.replace('-', '_')}", (TableroGame,), {"game_id": gid})
            pyspiel.register_game(_game_type(gid), cls)
    return list(NAMES.values())


def load(game_id: str, players: int | None = None, **params: Any) -> Any:
    """``pyspiel.load_game`` of a tablero game by its tablero id (registers the games first)."""
    register()
    given: dict[str, Any] = dict(params)
    if players is not None:
        given["players"] = players
    return pyspiel.load_game(NAMES[game_id], given)
