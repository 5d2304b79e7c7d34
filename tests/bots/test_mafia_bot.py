"""The greedy Mafia Legend bot: registered, sees only its seat's view, and beats random clearly."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

import pytest

from tablero.bots import Bot, bot_names, make_bot
from tablero.bots.heuristics.mafia import GreedyMafia, dice_chance
from tablero.core.match import Match, bot_rng
from tablero.core.rng import derive_seed
from tablero.games.mafia.rules import GAME
from tablero.games.mafia.view import MafiaView
from tablero.sim import simulate


def test_greedy_is_registered() -> None:
    assert isinstance(make_bot("greedy", "mafia-legend"), GreedyMafia)
    assert isinstance(make_bot("greedy", "mafia-legend"), Bot)
    assert bot_names("mafia-legend") == ("random", "greedy", "easy", "medium", "hard", "ismcts")


def test_dice_chance_matches_the_spec_reference() -> None:
    # App. D reference: P(n W8 >= sum)
    assert dice_chance(2, 12) == pytest.approx(0.23, abs=0.01)
    assert dice_chance(3, 12) == pytest.approx(0.68, abs=0.01)
    assert dice_chance(4, 16) == pytest.approx(0.70, abs=0.01)
    assert dice_chance(6, 20) == pytest.approx(0.91, abs=0.01)
    assert dice_chance(0, 5) == 0.0 and dice_chance(1, 1) == 1.0


class Watched:
    """Wraps a bot; checks each call gets exactly the seat's view (a MafiaView equal to
    GAME.observe(state, seat), never the state) and the seat's legal actions, and that the
    answer is one of them."""

    def __init__(self, inner: Bot, seat: int, match: Match[Any, Any, Any]) -> None:
        self.inner, self.seat, self.match = inner, seat, match
        self.calls = 0
        self.kinds: set[str] = set()

    def choose(self, view: Any, legal: Sequence[Any], rng: Random) -> Any:
        m = self.match
        assert type(view) is MafiaView
        assert view.viewer == self.seat
        assert view == GAME.observe(m.state, self.seat)
        assert list(legal) == list(GAME.legal_actions(m.state, self.seat))
        self.calls += 1
        self.kinds.update(a.kind for a in legal)
        choice = self.inner.choose(view, legal, rng)
        assert choice in legal
        return choice


@pytest.mark.parametrize(("players", "options"), [
    (3, {"variant": "advanced"}), (4, {"variant": "advanced", "missions": True}), (3, {"variant": "beginner"}),
])
def test_bots_get_views_never_the_state(players: int, options: dict[str, object]) -> None:
    kinds: set[str] = set()
    for g in range(2):
        seed = derive_seed(31, players, g)
        names = ["greedy", "random", "greedy", "random"][:players]
        match = Match(GAME, names, options=options, seed=seed)
        bots = {p: Watched(make_bot(n, GAME.id), p, match) for p, n in enumerate(names)}
        match.play_bots(bots, {p: bot_rng(seed, p) for p in bots})
        assert match.is_over()
        assert all(b.calls > 0 for b in bots.values())
        kinds |= set().union(*(b.kinds for b in bots.values()))
    assert {"disc", "play", "end_plays"} <= kinds


def test_greedy_is_deterministic_given_its_rng() -> None:
    seed = 4242
    records = []
    for _ in range(2):
        m = Match(GAME, ["greedy"] * 3, seed=seed)
        bots = {p: make_bot("greedy", GAME.id) for p in range(3)}
        m.play_bots(bots, {p: bot_rng(seed, p) for p in range(3)})
        records.append(m.record.entries)
    assert records[0] == records[1]


@pytest.mark.parametrize("variant", ["advanced", "beginner"])
def test_greedy_beats_random(variant: str) -> None:
    """Seats rotated, fixed seeds: the greedy bot wins far more than its fair third."""
    wins = 0.0
    games = 0
    for seat in range(3):
        seats = ["random"] * 3
        seats[seat] = "greedy"
        res = simulate(GAME, seats, games=12, seed=100 + seat, options={"variant": variant})
        wins += res.seats[seat].wins
        games += res.games
        assert res.seats[seat].mean_score > max(s.mean_score for s in res.seats if s.seat != seat)
    assert wins / games >= 0.6  # measured: about 1.0


def test_greedy_at_four_players() -> None:
    res = simulate(GAME, ["greedy", "random", "random", "random"], games=12, seed=7)
    assert res.seats[0].win_share >= 0.5
