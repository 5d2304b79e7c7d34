"""The Don Carlo observation tensor: fixed shape and bounds, read from the view alone, seat-relative,
saying what the view says, and documented (docs/rl/don-carlo.md)."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
import pytest

from tablero.core.protocol import CHANCE, DATA_OPTION
from tablero.games.doncarlo.actions import CODE_BY_TEXT, PLAYS
from tablero.games.doncarlo.data import COUNTRIES, FAMILY_COUNTS
from tablero.games.doncarlo.setup import scenario
from tablero.games.doncarlo.state import PHASE_NAMES
from tablero.games.doncarlo.view import DonCarloView
from tablero.registry import get_game
from tablero.rl.encoders import layout_markdown, make_encoder
from tablero.rl.encoders.doncarlo import (
    AGENTS_DIV,
    BONUS_DIV,
    COUNTRY_INFLUENCE_DIV,
    INFLUENCE_DIV,
    ROUND_DIV,
    DonCarloEncoder,
)
from tablero.testing.playouts import random_playout

GAME = get_game("don-carlo")
DOC = Path(__file__).parents[2] / "docs" / "rl" / "don-carlo.md"
OTHER = {"majority_tie": "none", "country_points": "protzland:12,schwadronien:0",
         DATA_OPTION: {"FAMILY_COUNTS": [5, 5, 5, 5, 5, 4, 3], "HAND_SIZE": 5,
                       "COUNTRIES.land_8.players": [2, 3, 4]}}
"""A table with other options and data: a bigger family, another hand size, Land 8 at every count."""
SEEDS = (1, 2, 3)


def _options(players: int, other: bool = False) -> dict[str, Any]:
    return GAME.resolve_options(players, OTHER if other else {})


@cache
def _encoder(players: int, other: bool = False) -> DonCarloEncoder:
    enc = make_encoder("don-carlo", players, _options(players, other))
    assert isinstance(enc, DonCarloEncoder)
    return enc


@cache
def _states(players: int, seed: int, other: bool = False) -> tuple[Any, ...]:
    """Clones of the states before every step of a random playout (the last one: the end)."""
    out, state = [], None
    for step in random_playout(GAME, players, seed, options=_options(players, other)):
        out.append(step.state.clone())
        state = step.state
    out.append(state)  # the live state, now at the end
    return tuple(out)


def _blocks(enc: DonCarloEncoder, view: DonCarloView) -> dict[str, np.ndarray]:
    return enc.layout.split(enc.encode(view))


def _counts(values: tuple[int, ...] | None, family: tuple[int, ...] = FAMILY_COUNTS) -> np.ndarray:
    """Cards per value, scaled as the tensor scales them (by the family's cards of each value)."""
    c = Counter(values or ())
    return np.array([c[v] / family[v] for v in range(7)], np.float32)


def _close(a: np.ndarray, b: Any) -> bool:
    return np.allclose(a, np.asarray(b, np.float32), rtol=0, atol=1e-4)


# ---------------------------------------------------------------- shape and bounds
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("other", [False, True], ids=["default", "other-table"])
def test_fixed_shape_and_bounds_at_every_step_for_every_seat(players: int, other: bool) -> None:
    enc = _encoder(players, other)
    low, high = enc.layout.bounds()
    assert enc.size == enc.layout.blocks[-1].stop
    seen = 0
    for seed in SEEDS[:2]:
        for s in _states(players, seed, other):
            for seat in range(players):
                x = enc.encode(GAME.observe(s, seat))
                assert x.shape == (enc.size,) and x.dtype == np.float32
                assert np.isfinite(x).all()
                outside = [b.name for b in enc.layout.blocks
                           if not ((x[b.start:b.stop] >= low[b.start:b.stop]).all()
                                   and (x[b.start:b.stop] <= high[b.start:b.stop]).all())]
                assert not outside, f"out of bounds: {outside}"
                assert x.any()
                seen += 1
    assert seen > 100


def test_sizes_follow_the_player_count_and_the_table() -> None:
    default = {n: _encoder(n) for n in (2, 3, 4)}
    other = {n: _encoder(n, True) for n in (2, 3, 4)}
    for n in (2, 3, 4):
        codec = GAME.action_codec(n, _options(n))
        assert default[n].layout.block("used").size == codec.size == 320
        assert other[n].layout.block("used").size == GAME.action_codec(n, _options(n, True)).size
        in_play = len(GAME.observe(GAME.new_initial_state(n, {}), 0).public.countries)
        assert default[n].layout.block("digits").shape == (in_play, n, 7)
        assert other[n].layout.block("digits").shape == (in_play + (n == 2), n, 7)  # Land 8 at 2 players too
    assert default[2].size < default[3].size < default[4].size


def test_a_spectator_view_has_no_tensor() -> None:
    s = _states(2, 1)[-1]
    with pytest.raises(ValueError):
        _encoder(2).encode(GAME.observe(s, None))


# ---------------------------------------------------------------- from the view alone
@pytest.mark.parametrize("players", [2, 4])
def test_equal_views_give_equal_tensors(players: int) -> None:
    """Two states sampled from a seat's view (determinize) look the same to it: the same tensor,
    also from a second encoder that has cached nothing yet."""
    enc = _encoder(players)
    checked = 0
    for seed in SEEDS:
        states = _states(players, seed)
        for i, s in enumerate(states):
            if i % 7 and i != len(states) - 1:
                continue
            for seat in range(players):
                view = GAME.observe(s, seat)
                x = enc.encode(view)
                fresh = DonCarloEncoder(players, _options(players))
                for k in (11, 12):
                    d = GAME.determinize(view, seat, Random(k))
                    other = GAME.observe(d, seat)
                    assert other == view
                    assert np.array_equal(fresh.encode(other), x)
                checked += 1
    assert checked > 50


def test_the_cache_changes_nothing() -> None:
    """An encoder that has seen the whole game before gives the tensors a new one gives."""
    warm = _encoder(3)
    states = _states(3, 5)
    for s in states:
        for seat in range(3):
            warm.encode(GAME.observe(s, seat))
    cold = DonCarloEncoder(3, _options(3))
    for s in states[::-1]:
        for seat in range(3):
            view = GAME.observe(s, seat)
            assert np.array_equal(warm.encode(view), cold.encode(view))


def test_the_hidden_hands_of_others_do_not_reach_the_tensor() -> None:
    """Views equal for seat 0, hands of the others different: the same tensor for seat 0, and a
    different one for a seat whose hand changed."""
    enc = _encoder(4)
    for s in _states(4, 2)[60::40]:
        view = GAME.observe(s, 0)
        for k in range(5):
            d = GAME.determinize(view, 0, Random(k))
            assert np.array_equal(enc.encode(GAME.observe(d, 0)), enc.encode(view))
            for seat in range(1, 4):
                if GAME.observe(d, seat).private != GAME.observe(s, seat).private:
                    assert not np.array_equal(enc.encode(GAME.observe(d, seat)), enc.encode(GAME.observe(s, seat)))


# ---------------------------------------------------------------- what the view says
@pytest.mark.parametrize("players", [2, 4])
def test_the_tensor_says_what_the_view_says(players: int) -> None:
    enc = _encoder(players)
    n = players
    codec = GAME.action_codec(n, _options(n))
    ids = [c.id for c in GAME.observe(GAME.new_initial_state(n, {}), 0).public.countries]
    over = 0
    for seed in SEEDS:
        states = _states(players, seed)
        for s in states[:-1:3] + states[-1:]:
            for seat in range(n):
                view = GAME.observe(s, seat)
                pub, dec = view.public, view.deciding
                b = _blocks(enc, view)
                assert view.private is not None
                assert _close(b["hand"], _counts(view.private.hand))
                assert PHASE_NAMES[int(np.argmax(b["phase"]))] == dec.phase and b["phase"].sum() == 1
                assert int(np.argmax(b["turn"])) == (dec.turn - seat) % n and b["turn"].sum() == 1
                seats = {(p - seat) % n for p in dec.to_act if p != CHANCE}
                assert {int(r) for r in np.flatnonzero(b["to_act"])} == seats
                assert b["chance"][0] == (CHANCE in dec.to_act)
                assert b["blocked"][0] == (dec.blocked is not None)
                if pub.start_seat < 0:
                    assert not b["start_seat"].any()
                else:
                    assert int(np.argmax(b["start_seat"])) == (pub.start_seat - seat) % n
                assert round(float(b["round"][0]) * ROUND_DIV) == pub.round
                assert int(np.argmax(b["tie_rule"])) == ("all_full", "split_floor", "none").index(pub.tie_rule)
                # the agents, country by country
                used = set()
                for k, c in enumerate(pub.countries):
                    assert c.id == ids[k]
                    per_seat = Counter((p - seat) % n for p, _ in c.agents)
                    infl: Counter[int] = Counter()
                    digits = np.zeros((n, 7), np.float32)
                    for pos, (p, code) in enumerate(c.agents, 1):
                        infl[(p - seat) % n] += pos
                        digits[(p - seat) % n] += _counts(tuple(int(v) for v in code.split("/")))
                        used.add(codec.encode(PLAYS[CODE_BY_TEXT[code]]))
                    assert _close(b["agents"][k] * AGENTS_DIV, [per_seat[r] for r in range(n)])
                    assert _close(b["country_influence"][k] * COUNTRY_INFLUENCE_DIV, [infl[r] for r in range(n)])
                    assert _close(b["agents_total"][k] * AGENTS_DIV, len(c.agents))
                    assert _close(b["digits"][k], digits)
                    top = max(per_seat.values(), default=0)
                    assert {int(r) for r in np.flatnonzero(b["leader"][k])} == (
                        {r for r, m in per_seat.items() if m == top} if top else set())
                    assert _close(b["country_sums"][k] * 24, [min(c.sums), max(c.sums)])
                    assert _close(b["country_value"][k] * 10, c.points)
                assert {int(i) for i in np.flatnonzero(b["used"])} == used
                if dec.phase == "play":  # the legal codes are never marked used
                    legal = [codec.encode(a) for a in GAME.legal_actions(s, dec.turn)]
                    assert not b["used"][legal].any()
                if pub.ranks is None:
                    assert not b["rank"].any() and not b["final_hands"].any()
                else:
                    over += 1
                    assert _close(b["rank"] * n, [pub.ranks[(seat + r) % n] for r in range(n)])
                    for r in range(n):
                        assert _close(b["final_hands"][r], _counts(pub.hands[(seat + r) % n]))
    assert over == len(SEEDS) * n


def test_a_blocked_turn_shows_the_hand_in_the_open() -> None:
    """Scenario: seat 1's hand 0/0/0/0 forms no code any country accepts: it is revealed (K) and
    the open draws begin; every seat's tensor says so, at seat 1's relative index."""
    enc = _encoder(4)
    s = scenario(4, hands={1: [0, 0, 0, 0]}, turn=1)
    for seat in range(4):
        b = _blocks(enc, GAME.observe(s, seat))
        r = (1 - seat) % 4
        assert b["blocked"][0] == 1 and b["chance"][0] == 1
        assert PHASE_NAMES[int(np.argmax(b["phase"]))] == "blocked_draw"
        assert int(np.argmax(b["turn"])) == r
        assert _close(b["known"][r], [1, 0, 0, 0, 0, 0, 0])
        assert b["hidden_cards"][r] == 0
        assert _close(b["known"].sum(axis=1), [1 if q == r else 0 for q in range(4)])


# ---------------------------------------------------------------- seat-relative
PER_SEAT = ("influence", "bonus", "scores", "country_points", "hand_sizes", "deck_sizes", "out")
"""Per-seat tuples of the public view and the blocks that hold them (same names)."""
SCALE = {"influence": INFLUENCE_DIV, "bonus": BONUS_DIV, "scores": INFLUENCE_DIV, "country_points": 40,
         "hand_sizes": 4, "deck_sizes": 25, "out": 1}
ROTATING = ("turn", "to_act", "start_seat", "influence", "bonus", "country_points", "scores", "hand_sizes",
            "hidden_cards", "deck_sizes", "out", "known", "final_hands", "rank")
"""Public blocks with the seat as their first axis; the countries' blocks have it second."""


@pytest.mark.parametrize("players", [2, 4])
def test_per_seat_blocks_are_the_view_rotated_to_the_observer(players: int) -> None:
    enc = _encoder(players)
    n = players
    for seed in SEEDS[:2]:
        states = _states(players, seed)
        for s in states[:-1:5] + states[-1:]:
            tensors = {seat: _blocks(enc, GAME.observe(s, seat)) for seat in range(n)}
            pub = GAME.observe(s, 0).public
            for seat, b in tensors.items():
                for name in PER_SEAT:
                    fact = getattr(pub, name)
                    assert _close(b[name] * SCALE[name], [fact[(seat + r) % n] for r in range(n)]), name
                for r in range(n):
                    assert _close(b["known"][r], _counts(pub.known[(seat + r) % n]))
                # seat s sees the public blocks of seat 0 turned by s places
                for name in ROTATING:
                    assert np.array_equal(b[name], np.roll(tensors[0][name], -seat, axis=0)), name
                for name in ("agents", "country_influence", "leader", "digits"):
                    assert np.array_equal(b[name], np.roll(tensors[0][name], -seat, axis=1)), name
                for name in ("phase", "chance", "blocked", "round", "country_sums", "country_value", "used"):
                    assert np.array_equal(b[name], tensors[0][name]), name


# ---------------------------------------------------------------- docs
def test_the_docs_hold_the_generated_layouts() -> None:
    text = DOC.read_text(encoding="utf-8")
    for n in (GAME.min_players, GAME.max_players):
        assert f"## {n} players" in text
        assert layout_markdown("don-carlo", n, GAME.resolve_options(n, {})) in text


def test_every_block_is_documented_and_the_countries_are_named() -> None:
    enc = _encoder(4)
    assert all(b.doc for b in enc.layout.blocks)
    sums_doc = enc.layout.block("country_sums").doc
    assert all(c.id in sums_doc for c in COUNTRIES)
