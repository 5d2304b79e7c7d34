"""Bots: the registry, the random bot, and that bots see only their seat's view."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from random import Random
from typing import Any

import pytest

from tablero.bots import Bot, RandomBot, UnknownBotError, bot_names, make_bot
from tablero.bots.heuristics.doncarlo import GreedyDonCarlo
from tablero.core.match import Match, bot_rng
from tablero.core.rng import derive_seed
from tablero.games.doncarlo import DonCarloView
from tablero.games.doncarlo.actions import CODE_BY_TEXT, PLAYS
from tablero.registry import get_game

GAME = get_game("don-carlo")


def test_make_bot_names() -> None:
    assert isinstance(make_bot("random", "don-carlo"), RandomBot)
    assert isinstance(make_bot("greedy", "don-carlo"), GreedyDonCarlo)
    assert isinstance(make_bot(" Greedy ", "don-carlo"), GreedyDonCarlo)
    assert isinstance(make_bot("random", "some-other-game"), RandomBot)
    assert bot_names("don-carlo") == ("random", "greedy", "easy", "medium", "hard", "ismcts")
    assert isinstance(make_bot("greedy", "don-carlo"), Bot)


def test_unknown_bot_lists_the_names() -> None:
    with pytest.raises(UnknownBotError, match=r"unknown bot 'clever'.*random, greedy"):
        make_bot("clever", "don-carlo")
    with pytest.raises(UnknownBotError, match="no greedy bot for 'some-other-game'"):
        make_bot("greedy", "some-other-game")


def test_random_bot_is_uniform_over_legal() -> None:
    bot, rng = RandomBot(), Random(5)
    picks = [bot.choose(None, ["a", "b", "c"], rng) for _ in range(3000)]
    assert set(picks) == {"a", "b", "c"}
    assert all(800 < picks.count(x) < 1200 for x in "abc")
    with pytest.raises(ValueError):
        bot.choose(None, [], rng)


class Watched:
    """Wraps a bot; checks each call gets exactly the seat's view and legal actions."""

    def __init__(self, inner: Bot, seat: int) -> None:
        self.inner, self.seat = inner, seat
        self.match: Match[Any, Any, Any] | None = None
        self.calls = 0

    def choose(self, view: Any, legal: Sequence[Any], rng: Random) -> Any:
        m = self.match
        assert m is not None
        assert type(view) is DonCarloView
        assert view == GAME.observe(m.state, self.seat)
        assert view.viewer == self.seat
        assert list(legal) == list(GAME.legal_actions(m.state, self.seat))
        self.calls += 1
        choice = self.inner.choose(view, legal, rng)
        assert choice in legal
        return choice


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_get_views_never_the_state(players: int) -> None:
    for g in range(4):
        seed = derive_seed(11, players, g)
        names = ["greedy", "random", "greedy", "random"][:players]
        match = Match(GAME, names, seed=seed)
        bots = {p: Watched(make_bot(n, GAME.id), p) for p, n in enumerate(names)}
        for b in bots.values():
            b.match = match
        match.play_bots(bots, {p: bot_rng(seed, p) for p in bots})
        assert match.is_over()
        assert all(b.calls > 0 for b in bots.values())


def test_greedy_is_deterministic_given_its_rng() -> None:
    seed = 77
    records = []
    for _ in range(2):
        match = Match(GAME, ["greedy", "greedy", "random"], seed=seed)
        bots = {p: make_bot(n, GAME.id) for p, n in enumerate(match.record.players)}
        match.play_bots(bots, {p: bot_rng(seed, p) for p in bots})
        records.append(match.record.entries)
    assert records[0] == records[1]


def test_greedy_prefers_the_crowded_country() -> None:
    """Same number of cards: the greedy bot sends "5" where three agents wait (+4), not "2" (+1)."""
    match = Match(GAME, ["greedy", "random", "random"], seed=3, options={"start_seat": "0"})
    view = match.view(0)
    assert view.deciding.to_act == (0,)
    countries = tuple(
        replace(c, agents=((1, "0/5"), (1, "1/4"), (1, "2/3"))) if c.id == "abrakadabria" else c
        for c in view.public.countries
    )
    assert view.private is not None
    view = replace(view, private=replace(view.private, hand=(2, 5, 6, 6)),
                   public=replace(view.public, countries=countries))
    two, five = PLAYS[CODE_BY_TEXT["2"]], PLAYS[CODE_BY_TEXT["5"]]
    assert GreedyDonCarlo().choose(view, [two, five], Random(0)) == five
    assert GreedyDonCarlo().choose(view, [five, two], Random(0)) == five
