"""The greedy El Grande bot: registered, sees only its seat's view, and beats random clearly."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

import pytest

from tablero.bots import Bot, bot_names, make_bot
from tablero.bots.heuristics.elgrande import GreedyElGrande
from tablero.core.match import Match, bot_rng
from tablero.core.rng import derive_seed
from tablero.games.elgrande import GAME, ElGrandeView
from tablero.games.elgrande.actions import Kind, act
from tablero.games.elgrande.data import AREA_INDEX
from tablero.games.elgrande.setup import scenario, take
from tablero.sim import simulate


def test_greedy_is_registered() -> None:
    assert isinstance(make_bot("greedy", "el-grande"), GreedyElGrande)
    assert isinstance(make_bot("greedy", "el-grande"), Bot)
    assert bot_names("el-grande") == ("random", "greedy", "easy", "medium", "hard", "ismcts")


class Watched:
    """Wraps a bot; checks each call gets exactly the seat's view (an ElGrandeView, never the
    state) and the seat's legal actions, and that the answer is one of them."""

    def __init__(self, inner: Bot, seat: int, match: Match[Any, Any, Any]) -> None:
        self.inner, self.seat, self.match = inner, seat, match
        self.calls = 0
        self.phases: set[str] = set()

    def choose(self, view: Any, legal: Sequence[Any], rng: Random) -> Any:
        m = self.match
        assert type(view) is ElGrandeView
        assert view.viewer == self.seat
        assert view == GAME.observe(m.state, self.seat)
        assert list(legal) == list(GAME.legal_actions(m.state, self.seat))
        # forced steps are applied by the driver, unless the rules always ask (always_asked)
        assert len(legal) >= 2 or GAME.always_asked(m.state, self.seat)
        self.calls += 1
        self.phases.add(view.deciding.phase)
        choice = self.inner.choose(view, legal, rng)
        assert choice in legal
        return choice


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bots_get_views_never_the_state(players: int) -> None:
    phases: set[str] = set()
    for g in range(3):
        seed = derive_seed(23, players, g)
        names = ["greedy", "random", "greedy", "random", "greedy"][:players]
        match = Match(GAME, names, options={"short_game": g != 0}, seed=seed)
        bots = {p: Watched(make_bot(n, GAME.id), p, match) for p, n in enumerate(names)}
        match.play_bots(bots, {p: bot_rng(seed, p) for p in bots})
        assert match.is_over()
        assert all(b.calls > 0 for b in bots.values())
        phases |= {ph for p, b in bots.items() if names[p] == "greedy" for ph in b.phases}
    assert {"power", "take_card", "place"} <= phases


def test_greedy_is_deterministic_given_its_rng() -> None:
    """Same seed, same bots → same record (the bot draws only from its own rng)."""
    records = []
    for _ in range(2):
        seed = 4242
        m = Match(GAME, ["greedy", "random", "greedy"], options={"short_game": True}, seed=seed)
        m.play_bots({p: make_bot(n, GAME.id) for p, n in enumerate(["greedy", "random", "greedy"])},
                    {p: bot_rng(seed, p) for p in range(3)})
        records.append(m.record.to_json())
    assert records[0] == records[1]


def test_greedy_beats_random_at_four_players() -> None:
    """40 fixed short games, greedy in seat 0 against three random bots: a fair share would be
    25%; the bot is expected to win far more (measured: nearly all). Generous margin."""
    res = simulate("el-grande", ["greedy", "random", "random", "random"], 40, seed=2024,
                   options={"short_game": True})
    greedy, rand = res.by_bot["greedy"], res.by_bot["random"]
    assert greedy.win_share >= 0.6
    assert greedy.mean_score > 1.5 * rand.mean_score


# ----------------------------------------------------------------------------- single decisions


def _choose(s: Any, seat: int) -> Any:
    view = GAME.observe(s, seat)
    legal = list(GAME.legal_actions(s, seat))
    return GreedyElGrande().choose(view, legal, Random(0))


def test_scores_the_region_it_leads() -> None:
    """3H: the bot scores the area where it gains most over the others."""
    s = scenario(players=3, cab={"castilla_la_nueva": {0: 3, 1: 1}, "galicia": {1: 3},
                                 "castillo": {2: 4}})
    take(s, "3H")
    GAME.apply(s, 0, act(Kind.ACTION_FIRST))
    assert _choose(s, 0) == act(Kind.SCORE, AREA_INDEX["castilla_la_nueva"])


def test_places_to_take_the_lead() -> None:
    """King in Sevilla (neighbours Castilla la Nueva, Granada); A and B tie in Granada, A leads
    Castilla la Nueva alone, the Castillo is crowded: the caballero breaks the tie in Granada."""
    s = scenario(players=3, king="sevilla", court={0: 3},
                 cab={"granada": {0: 2, 1: 2}, "castilla_la_nueva": {0: 4}, "castillo": {1: 5, 2: 4}})
    take(s, "3G")
    GAME.apply(s, 0, act(Kind.PLACE_FIRST))
    assert _choose(s, 0) == act(Kind.PLACE, AREA_INDEX["granada"])


def test_vetoes_a_scoring_that_hurts_it() -> None:
    """C holds a Veto!; A announces 3C while A leads both Castillas and Granada: C vetoes.
    Against a harmless 3D (Castillo empty) C allows."""
    cab = {"castilla_la_nueva": {0: 4}, "castilla_la_vieja": {0: 3}, "granada": {0: 2, 2: 1}}
    s = scenario(players=3, cab=cab, veto={2: [0]})
    take(s, "3C")
    GAME.apply(s, 0, act(Kind.ACTION_FIRST))
    assert GAME.to_act(s) == (2,)
    assert _choose(s, 2) == act(Kind.VETO)
    s = scenario(players=3, cab=cab, veto={2: [0]})
    take(s, "3D")
    GAME.apply(s, 0, act(Kind.ACTION_FIRST))
    assert _choose(s, 2) == act(Kind.ALLOW)

