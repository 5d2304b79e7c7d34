"""The El Grande observation tensor: fixed shape and bounds, read from the view alone, seat-relative,
saying what the view says, and documented (docs/rl/el-grande.md)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
import pytest

from tablero.core.protocol import CHANCE, DATA_OPTION
from tablero.games.elgrande.data import CARD_TYPES, KING_CARD, NUM_AREAS, NUM_REGIONS, ROUNDS
from tablero.games.elgrande.state import PHASE_NAMES
from tablero.games.elgrande.view import ElGrandeView
from tablero.registry import get_game
from tablero.rl.encoders import layout_markdown, make_encoder
from tablero.rl.encoders.elgrande import ElGrandeEncoder
from tablero.testing.playouts import random_playout

GAME = get_game("el-grande")
DOC = Path(__file__).parents[2] / "docs" / "rl" / "el-grande.md"
SHORT = {"short_game": True}


@cache
def _encoder(players: int, short: bool = True) -> ElGrandeEncoder:
    enc = make_encoder("el-grande", players, GAME.resolve_options(players, SHORT if short else {}))
    assert isinstance(enc, ElGrandeEncoder)
    return enc


@cache
def _states(players: int, seed: int, short: bool = True) -> tuple[Any, ...]:
    """Clones of the states before every step of a random playout (the last one: the end)."""
    out, state = [], None
    for step in random_playout(GAME, players, seed, options=SHORT if short else {}):
        out.append(step.state.clone())
        state = step.state
    out.append(state)  # the live state, now at the end
    return tuple(out)


def _decisions(players: int, seed: int, short: bool = True) -> list[Any]:
    return [s for s in _states(players, seed, short) if GAME.to_act(s) and GAME.to_act(s)[0] != CHANCE]


def _blocks(enc: ElGrandeEncoder, view: ElGrandeView) -> dict[str, np.ndarray]:
    return enc.layout.split(enc.encode(view))


def _rel(seat: int, p: int, n: int) -> int:
    return (p - seat) % n


def _one_hot_seats(block: np.ndarray, seat: int, n: int) -> list[int]:
    """Decode a relative multi-hot seat block back to absolute seats, ascending by relative index."""
    return [(seat + int(r)) % n for r in np.flatnonzero(block)]


CASES = [(2, 1), (2, 2), (5, 1), (5, 2)]


# ----------------------------------------------------------------------------- 1. shape and bounds
@pytest.mark.parametrize(("players", "seed"), CASES)
def test_fixed_shape_finite_and_inside_bounds(players: int, seed: int) -> None:
    enc = _encoder(players)
    low, high = enc.layout.bounds()
    states = _states(players, seed)
    assert len(states) > 50
    for s in states:
        for seat in range(players):
            x = enc.encode(GAME.observe(s, seat))
            assert x.shape == (enc.layout.size,)
            assert x.dtype == np.float32
            assert np.isfinite(x).all()
            assert (x >= low).all() and (x <= high).all(), [
                b.name for b in enc.layout.blocks if not ((x[b.start:b.stop] >= b.low).all()
                                                          and (x[b.start:b.stop] <= b.high).all())]
            assert x.any()


def test_layout_depends_on_players_only_and_works_for_the_full_game() -> None:
    for n in (2, 3, 4, 5):
        sizes = {make_encoder("el-grande", n, GAME.resolve_options(n, o)).layout.size
                 for o in ({}, SHORT, {"castillo_open": True}, {"start_seat": 0})}
        assert len(sizes) == 1
    assert _encoder(2).layout.size < _encoder(5).layout.size
    enc = _encoder(3, short=False)
    low, high = enc.layout.bounds()
    rounds = set()
    for s in _states(3, 4, short=False):
        for seat in range(3):
            v = GAME.observe(s, seat)
            x = enc.encode(v)
            assert x.shape == (enc.layout.size,) and (x >= low).all() and (x <= high).all()
            blocks = enc.layout.split(x)
            assert np.flatnonzero(blocks["round"]).tolist() == [ROUNDS.index(v.public.round)]
            assert blocks["short_game"][0] == 0
            rounds.add(v.public.round)
    assert rounds == set(ROUNDS)


def test_a_spectator_view_has_no_tensor() -> None:
    s = GAME.new_initial_state(2, SHORT)
    with pytest.raises(ValueError):
        _encoder(2).encode(GAME.observe(s, None))


# ----------------------------------------------------------------------------- 2. views equal => tensors equal
@pytest.mark.parametrize(("players", "seed"), [(2, 3), (5, 3)])
def test_equal_views_give_equal_tensors(players: int, seed: int) -> None:
    enc = _encoder(players)
    states = _states(players, seed)
    checked = 0
    for k, s in enumerate(states):
        if k % 3 and "disk" not in GAME.observe(s, None).deciding.phase:
            continue
        for seat in range(players):
            view = GAME.observe(s, seat)
            x = enc.encode(view)
            for rs in (1, 2):
                other = GAME.determinize(view, seat, Random(1000 * k + 10 * seat + rs))
                again = GAME.observe(other, seat)
                assert again == view
                assert np.array_equal(enc.encode(again), x)
                checked += 1
    assert checked > 100


def test_another_seats_secret_disk_does_not_reach_the_tensor() -> None:
    """At an open secret pick, each choice of a committed seat's disk leaves the others' tensors
    equal; the seat's own tensor shows its disk."""
    found = 0
    for players, seed in CASES:
        enc = _encoder(players)
        for s in _decisions(players, seed):
            dec = GAME.observe(s, None).deciding
            if dec.phase != "disk":
                continue
            q = dec.to_act[0]
            tensors: dict[int, list[np.ndarray]] = {o: [] for o in range(players)}
            options = GAME.legal_actions(s, q)
            for a in options:
                t = s.clone()
                GAME.apply(t, q, a)
                if not GAME.observe(t, None).public.committed[q]:
                    continue  # the last disk: all are revealed
                for o in range(players):
                    tensors[o].append(enc.encode(GAME.observe(t, o)))
                own = enc.layout.split(tensors[q][-1])["own_disk"]
                assert np.flatnonzero(own).tolist() == [a.a]
            for o in range(players):
                if o != q and len(tensors[o]) > 1:
                    assert all(np.array_equal(tensors[o][0], x) for x in tensors[o][1:])
                    found += 1
    assert found


# ----------------------------------------------------------------------------- 3. the tensor says what the view says
@pytest.mark.parametrize(("players", "seed"), CASES)
def test_decoded_blocks_match_the_view(players: int, seed: int) -> None:
    enc = _encoder(players)
    n = players
    for s in _states(players, seed)[::2]:
        for seat in range(n):
            v = GAME.observe(s, seat)
            pub, dec, mine = v.public, v.deciding, v.private
            assert mine is not None
            b = _blocks(enc, v)
            # own power hand and the values taken back
            assert [i + 1 for i in np.flatnonzero(b["hand"])] == list(mine.hand)
            assert round(float(b["own_taken_back"].sum())) == len(mine.taken_back)
            # scores, court, province, hand sizes (relative)
            for r in range(n):
                p = (seat + r) % n
                assert round(float(b["scores"][r]) * 100) == pub.scores[p]
                assert round(float(b["court"][r]) * 10) == pub.court[p]
                assert round(float(b["province"][r]) * 10) == pub.province[p]
                assert round(float(b["hand_sizes"][r]) * 13) == pub.hand_sizes[p]
                assert round(float(b["veto"][r].sum())) == len(pub.veto[p])
                assert [round(float(x) * 10) for x in b["cab"][:, r]] == list(pub.cab[p])
                g = np.flatnonzero(b["grande"][r]).tolist()
                assert g == ([] if pub.grande[p] < 0 else [pub.grande[p]])
                played = [v for v in pub.power_log[p] if v]
                assert round(float(b["power_played"][r].sum())) == len(played)
                assert round(float(b["power_take_backs"][r])) == pub.power_log[p].count(0)
            # the King, the offer, the phase, the round, whose turn
            assert np.flatnonzero(b["king"]).tolist() == ([] if pub.king < 0 else [pub.king])
            offer = sorted([*pub.offer, *([KING_CARD] if pub.king_card else [])])
            assert np.flatnonzero(b["offer"]).tolist() == offer
            assert [PHASE_NAMES[i] for i in np.flatnonzero(b["phase"])] == [dec.phase]
            assert [ROUNDS[i] for i in np.flatnonzero(b["round"])] == [pub.round]
            assert b["short_game"][0] == 1
            assert _one_hot_seats(b["active"], seat, n) == ([] if dec.active < 0 else [dec.active])
            asked = sorted(_one_hot_seats(b["to_act"], seat, n), key=lambda p: _rel(seat, p, n))
            assert asked == sorted((p for p in dec.to_act if p >= 0), key=lambda p: _rel(seat, p, n))
            assert np.flatnonzero(b["card"]).tolist() == ([] if dec.card < 0 else [dec.card])
            order = [int(np.flatnonzero(b["order"][:, i])[0] + seat) % n for i in range(len(pub.order))]
            assert order == list(pub.order)
            assert not b["order"][:, len(pub.order):].any()
            assert np.flatnonzero(b["turn_index"]).tolist() == [pub.turn_index]
            assert np.flatnonzero(b["own_disk"]).tolist() == ([] if mine.pick < 0 else [mine.pick])
            assert _one_hot_seats(b["committed"], seat, n) == sorted(
                (p for p in range(n) if pub.committed[p]), key=lambda p: _rel(seat, p, n))


def test_power_cards_on_the_pile_follow_the_public_log() -> None:
    """``power_spent`` says from the public log alone which of a seat's power cards are on its
    pile: the observer's own truth (its hand and the values it took back) never contradicts it."""
    take_backs = 0
    for players, seed in [*CASES, (3, 6), (4, 7)]:
        enc = _encoder(players)
        for s in _states(players, seed)[::3]:
            for seat in range(players):
                v = GAME.observe(s, seat)
                assert v.private is not None
                spent = _blocks(enc, v)["power_spent"]
                pile = [x for x in range(1, 14) if x not in v.private.hand]
                sure = [x + 1 for x in np.flatnonzero(spent[0] == 1.0)]
                maybe = [x + 1 for x in np.flatnonzero(spent[0] == 0.5)]
                assert set(sure) <= set(pile) <= set(sure) | set(maybe)
                if 0 not in v.public.power_log[seat]:
                    assert not maybe and sorted(sure) == sorted(v.public.power_log[seat])
                else:
                    take_backs += 1
                for r in range(players):  # the pile holds the cards played less those taken back
                    log = v.public.power_log[(seat + r) % players]
                    size = len(log) - 2 * log.count(0)
                    assert np.count_nonzero(spent[r] == 1.0) <= size <= np.count_nonzero(spent[r])
    assert take_backs


def test_power_spent_inference_on_logs() -> None:
    from tablero.rl.encoders.elgrande import _spent

    assert _spent((13, 12, 0, 11)) == ((11, 1.0), (12, 0.5), (13, 0.5))
    assert _spent((13, 0)) == ()
    assert _spent((13, 0, 13)) == ((13, 1.0),)
    assert _spent((13, 12, 0, 13)) == ((12, 1.0), (13, 1.0))  # 13 played again: it was the one back
    assert _spent((5, 4, 3, 0, 0)) == ((3, 0.5), (4, 0.5), (5, 0.5))


def test_cards_face_down_and_discarded_are_shares_of_the_copies() -> None:
    enc = _encoder(3)
    s = _states(3, 5)[-1]  # the end: every stack card was turned up
    v = GAME.observe(s, 1)
    b = _blocks(enc, v)
    for c, t in enumerate(CARD_TYPES):
        assert b["unseen"][c] == pytest.approx(v.public.unseen[c] / t.count)
        assert b["discard"][c] == pytest.approx(v.public.discard.count(c) / t.count)
    assert b["discard"].any()


def test_region_values_follow_the_tables_data() -> None:
    opts = GAME.resolve_options(2, {DATA_OPTION: {"REGIONS.aragon.values": "9,5,0"}})
    enc = make_encoder("el-grande", 2, opts)
    s = GAME.new_initial_state(2, opts)
    vals = enc.layout.split(enc.encode(GAME.observe(s, 0)))["region_values"]
    assert vals[0].tolist() == pytest.approx([0.9, 0.5, 0.0])
    default = _blocks(_encoder(2), GAME.observe(GAME.new_initial_state(2, SHORT), 0))["region_values"]
    assert default[1].tolist() == pytest.approx([0.7, 0.4, 0.2])  # Castilla la Nueva 7/4/2


def test_the_open_decision_context_is_encoded() -> None:
    """Over the playouts, each context field the view names shows in its block when it is set."""
    seen: set[str] = set()
    for players, seed in CASES:
        enc = _encoder(players)
        for s in _decisions(players, seed):
            seat = GAME.to_act(s)[0]
            v = GAME.observe(s, seat)
            dec = v.deciding
            b = _blocks(enc, v)
            assert b["action_first"][0] == float(dec.action_first)
            assert b["place"][0] * 5 == pytest.approx(dec.place_limit)
            assert b["place"][1] * 5 == pytest.approx(dec.placed)
            assert b["intake_left"][0] * 10 == pytest.approx(dec.intake_left)
            assert b["budgets"][0] * 10 == pytest.approx(dec.budget_own)
            assert b["budgets"][1] * 10 == pytest.approx(dec.budget_opp)
            assert b["returns_left"][0] * 3 == pytest.approx(dec.returns_left)
            assert np.flatnonzero(b["selected"]).tolist() == ([] if dec.selected < 0 else [dec.selected])
            assert np.flatnonzero(b["pick_kind"]).tolist() == ([] if dec.pick_kind < 0 else [dec.pick_kind])
            assert sorted(_one_hot_seats(b["queue"], seat, players)) == sorted(dec.queue)
            assert sorted(_one_hot_seats(b["pick_seats"], seat, players)) == sorted(dec.pick_seats)
            assert b["move_mode"].sum() == (1 if dec.move_mode else 0)
            for name, on in (("place", dec.place_limit), ("move_mode", dec.move_mode), ("queue", dec.queue),
                             ("pick", dec.pick_seats), ("card", dec.card >= 0), ("selected", dec.selected >= 0)):
                if on:
                    seen.add(name)
    assert seen >= {"place", "queue", "pick", "card"}


# ----------------------------------------------------------------------------- 4. seat-relative
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (5, 1)])
def test_per_seat_blocks_rotate_with_the_observer(players: int, seed: int) -> None:
    enc = _encoder(players)
    n = players
    per_seat = {"power_spent": 0, "court": 0, "province": 0, "scores": 0, "hand_sizes": 0, "veto": 0, "committed": 0,
                "power_played": 0, "power_take_backs": 0, "power_now": 0, "grande": 0, "shown_disks": 0,
                "cab": 1, "low_seat": 0, "power_first": 0, "to_act": 0, "active": 0, "queue": 0, "pick_seats": 0}
    for s in _states(players, seed)[::4]:
        base = _blocks(enc, GAME.observe(s, 0))
        for seat in range(1, n):
            b = _blocks(enc, GAME.observe(s, seat))
            for name, axis in per_seat.items():
                # relative index r of seat s is seat (s + r) % n: seat 0's block rolled by -s
                assert np.array_equal(b[name], np.roll(base[name], -seat, axis=axis)), name
            # the turn order holds relative seats as values
            for i, p in enumerate(GAME.observe(s, seat).public.order):
                assert b["order"][_rel(seat, p, n), i] == 1
            # public, non-seat blocks are the same for every observer
            for name in ("king", "tiles", "offer", "unseen", "discard", "round", "phase", "card", "turn_index"):
                assert np.array_equal(b[name], base[name]), name


def test_scores_at_relative_index() -> None:
    n = 5
    enc = _encoder(n)
    s = _states(n, 2)[-1]
    scores = GAME.observe(s, None).public.scores
    assert any(scores)
    for seat in range(n):
        b = _blocks(enc, GAME.observe(s, seat))
        assert [round(float(x) * 100) for x in b["scores"]] == [scores[(seat + r) % n] for r in range(n)]


# ----------------------------------------------------------------------------- 5. docs
def test_docs_hold_the_generated_layouts() -> None:
    text = DOC.read_text(encoding="utf-8")
    for n in (GAME.min_players, GAME.max_players):
        assert f"## {n} players" in text
        assert layout_markdown("el-grande", n, GAME.resolve_options(n, {})) in text


def test_layout_blocks_cover_areas_cards_and_phases() -> None:
    enc = _encoder(4)
    assert enc.layout.block("cab").shape == (NUM_AREAS, 4)
    assert enc.layout.block("king").shape == (NUM_REGIONS,)
    assert enc.layout.block("offer").shape == (len(CARD_TYPES),)
    assert enc.layout.block("phase").shape == (len(PHASE_NAMES),)
    assert enc.layout.block("own_disk").shape == (NUM_REGIONS,)
