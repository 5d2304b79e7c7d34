"""Mafia Legend observation tensors (tablero/rl/encoders/mafia.py): fixed shape and bounds at every
step of random games, equal tensors for equal views, the tensor read back against the view,
seat-relative per-seat blocks, the layout per options, and the docs' tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from random import Random
from typing import Any

import numpy as np
import pytest

from tablero.core.protocol import CHANCE
from tablero.games.mafia import data
from tablero.games.mafia.setup import scenario
from tablero.registry import get_game
from tablero.rl.encoders import layout_markdown, make_encoder
from tablero.rl.encoders.mafia import DECISION_KINDS, MafiaEncoder
from tablero.testing.playouts import random_playout

GAME = get_game("mafia-legend")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl" / "mafia-legend.md"

SETTINGS: list[tuple[int, dict[str, object], tuple[int, ...]]] = [
    (3, {}, (11, 12)),
    (4, {}, (11, 12)),
    (3, {"variant": "beginner"}, (11,)),
    (4, {"variant": "beginner"}, (11,)),
    (4, {"missions": True, "bonus_basis": "total"}, (11,)),
    (3, {"families": "seats", "data": {"CHARACTERS.P7.four_only": 0, "ACTIONS.A04.count": 0, "PHASES": 2,
                                       "MONTHS": 5}}, (11, 12)),
]
"""Players, options and the seeds of the random games walked to their end."""
IDS = ["3p", "4p", "3p-beginner", "4p-beginner", "4p-missions", "3p-overrides"]
SAMPLE_EVERY = 23
"""Every this many steps a state is kept for the slower checks (determinization, decoding)."""

PER_SEAT_PUBLIC = ("family", "vp", "seat_counters", "seat_discards", "seat_characters", "seat_sets", "turn_order")
"""Blocks whose first axis is the relative seat and whose rows hold only public facts."""
TABLE_BLOCKS = ("options", "month", "phase", "month_end_step", "turn_step", "plays", "decision", "decision_deck",
                "decision_dest", "decision_reason", "decision_column", "decision_numbers", "character_row",
                "open_job", "jobs_under_deck", "deck_sizes", "discarded_actions", "discarded_money",
                "discarded_characters", "table_counters", "money_moved", "events", "dice", "schedule")
"""Blocks with no seat in them: the same in every seat's tensor."""


def _encoder(players: int, options: Mapping[str, object]) -> tuple[MafiaEncoder, dict[str, Any]]:
    resolved = GAME.resolve_options(players, options)
    enc = make_encoder("mafia-legend", players, resolved)
    assert isinstance(enc, MafiaEncoder)
    return enc, resolved


def _walk(players: int, resolved: dict[str, Any], seed: int) -> Iterator[tuple[int, Any]]:
    """(step number, live state) at every step of a random game, and its final state."""
    last = None
    for step in random_playout(GAME, players, seed, options=resolved):
        last = step
        yield step.number, step.state
    assert last is not None
    yield last.number + 1, last.state  # the state after the last step: the game is over


def _blocks(enc: MafiaEncoder, x: np.ndarray) -> dict[str, np.ndarray]:
    return enc.layout.split(x)


def _counts(enc_ids: list[str], row: np.ndarray, div: float) -> dict[str, int]:
    """A counts block read back: {id: count} of its non-zero elements."""
    out = {}
    for i, v in enumerate(row):
        if v:
            k = round(float(v) * div)
            assert abs(k - float(v) * div) < 1e-4
            out[enc_ids[i]] = k
    return out


def _one(row: np.ndarray) -> int | None:
    """The index of a one-hot row, None when it is all zero."""
    hot = np.flatnonzero(row)
    assert len(hot) <= 1 and all(row[hot] == 1.0)
    return int(hot[0]) if len(hot) else None


# ------------------------------------------------------------------------------- decoding
def _check_reads_back(enc: MafiaEncoder, view: Any, x: np.ndarray) -> None:
    """The key blocks of ``x`` say what ``view`` says (the view of ``view.viewer``)."""
    n = enc.n
    seat = view.viewer
    pub, dec, mine = view.public, view.deciding, view.private
    b = _blocks(enc, x)
    seat_of = [(seat + r) % n for r in range(n)]
    # own cards
    assert _counts(enc.acts, b["own_hand_actions"], 4) == dict(mine.hand_actions)
    assert _counts(enc.money, b["own_hand_money"], 10) == dict(mine.hand_money)
    assert _counts(enc.money, b["own_screen"], 10) == dict(mine.screen)
    value = [sum(data.MONEY[c] * k for c, k in zone) for zone in (mine.hand_money, mine.screen)]
    assert np.allclose(b["own_money_value"] * 30, value, atol=1e-4)
    # progress and the open decision
    assert _one(b["month"]) == pub.month - 1
    assert _one(b["phase"]) == pub.phase - 1
    assert _one(b["month_end_step"]) == dec.month_end_step
    assert _one(b["turn_step"]) == pub.step
    kind = _one(b["decision"])
    assert (DECISION_KINDS[kind] if kind is not None else "") == dec.kind
    to_act = {seat_of[r] if r < n else CHANCE for r in np.flatnonzero(b["to_act"])}
    assert to_act == set(dec.to_act)
    deciding = _one(b["decision_seat"])
    assert (seat_of[deciding] if deciding is not None else -1) == (dec.seat if dec.seat >= 0 else -1)
    turn = _one(b["turn_seat"])
    active = pub.order[pub.turn_pos] if 0 <= pub.turn_pos < n else None
    assert (seat_of[turn] if turn is not None else None) == active
    assert [seat_of[int(np.flatnonzero(b["turn_order"][:, pos])[0])] for pos in range(n)] == list(pub.order)
    # every seat's public counters, rotated
    for r in range(n):
        p = seat_of[r]
        assert round(float(b["vp"][r]) * 50) == pub.vp[p]
        assert round(float(b["seat_counters"][r][1]) * 10) == pub.hand_sizes[p]
        assert round(float(b["seat_counters"][r][2]) * 10) == pub.screen_sizes[p]
        fam = _one(b["family"][r])
        assert (data.FAMILIES[fam] if fam is not None else "") == pub.family[p]
        assert {enc.chars[i] for i in np.flatnonzero(b["seat_characters"][r])} == set(pub.chars[p])
    for i, holder in enumerate(pub.powers):
        h = _one(b["power_holders"][i])
        assert (seat_of[h] if h is not None else -1) == holder
    # the table: row, job, grid (known cards by id, backs as unknown counts), attack fields
    for slot, c in enumerate(pub.row):
        ch = _one(b["character_row"][slot])
        assert (enc.chars[ch] if ch is not None else "") == c
    j = _one(b["open_job"][:-1])
    assert (enc.jobs[j] if j is not None else "") == pub.job
    nk = len(enc.cards)
    for r in range(n):
        for f in range(5):
            cards = view.grid[seat_of[r]][f]
            cell = b["grid"][r, f]
            known = Counter(sc.card for sc in cards if sc.card != "?")
            assert _counts(enc.cards, cell[:nk], 3) == dict(known)
            assert round(float(cell[nk]) * 3) == sum(sc.card == "?" and sc.source == "H" for sc in cards)
            assert round(float(cell[nk + 1]) * 3) == sum(sc.card == "?" and sc.source == "S" for sc in cards)
            assert round(float(cell[nk + 2]) * 3) == sum(not sc.public for sc in cards)
    na = len(enc.atks)
    for r in range(n):
        x_atk = view.atk[seat_of[r]]
        cell = b["attack_fields"][r]
        if x_atk is None:
            assert not cell.any()
            continue
        if x_atk.card == "DISC":
            assert cell[0] == 1.0 and not cell[1:].any()
            continue
        card = _one(cell[2:3 + na])
        assert card is not None
        assert (enc.atks[card] if card < na else "?") == x_atk.card
        attacker = _one(cell[3 + na:3 + na + n])
        assert attacker is not None and seat_of[attacker] == x_atk.attacker
    if enc.advanced:
        ev = b["events"]
        assert {enc.events[i] for i in np.flatnonzero(ev[0])} == set(pub.this_events)
        assert {enc.events[i] for i in np.flatnonzero(ev[1])} == set(pub.next_events)
    if enc.missions:
        m = _one(b["own_mission"])
        assert (enc.mission_ids[m] if m is not None else "") == mine.mission
    if pub.over:
        winners = {seat_of[r] for r in range(n) if b["end"][r][0] == 1.0}
        assert winners == set(pub.winners or ())


# ------------------------------------------------------------------------------- the walk
@pytest.mark.parametrize(("players", "options", "seeds"), SETTINGS, ids=IDS)
def test_every_step_fixed_shape_in_bounds_equal_for_equal_views_and_read_back(
        players: int, options: dict[str, object], seeds: tuple[int, ...]) -> None:
    enc, resolved = _encoder(players, options)
    low, high = enc.layout.bounds()
    kinds: set[str] = set()
    checked = determinized = 0
    for seed in seeds:
        rng = Random(seed)
        for number, state in _walk(players, resolved, seed):
            tensors = []
            for seat in range(players):
                view = GAME.observe(state, seat)
                x = enc.encode(view)
                assert x.shape == (enc.size,) and x.dtype == np.float32
                assert np.isfinite(x).all() and x.any()
                bad = np.flatnonzero((x < low) | (x > high))
                assert not len(bad), [b.name for b in enc.layout.blocks if b.start <= bad[0] < b.stop]
                tensors.append(x)
                kinds.add(view.deciding.kind)
                if number % SAMPLE_EVERY == 0 or view.public.over:
                    _check_reads_back(enc, view, x)
                    checked += 1
                    # 2. views equal => tensors equal: two worlds the seat cannot tell apart
                    if not view.public.over:
                        worlds = [GAME.determinize(view, seat, Random(rng.random())) for _ in range(2)]
                        for world in worlds:
                            other = GAME.observe(world, seat)
                            assert other == view
                            assert np.array_equal(enc.encode(other), x)
                        determinized += 1
            _check_rotation(enc, tensors)
    assert checked > 10 and determinized > 10
    assert {"turn", "chance_draw", ""} <= kinds  # the walk reached decisions, draws and the end


def _check_rotation(enc: MafiaEncoder, tensors: list[np.ndarray]) -> None:
    """4. Seat-relative: row r of seat s's per-seat blocks is row (s + r) % n of seat 0's."""
    n = enc.n
    split = [_blocks(enc, x) for x in tensors]
    for s in range(1, n):
        for name in PER_SEAT_PUBLIC:
            rotated = np.roll(split[0][name], -s, axis=0)
            assert np.array_equal(split[s][name], rotated), name
        assert np.array_equal(split[s]["power_holders"], np.roll(split[0]["power_holders"], -s, axis=1))
        for name in TABLE_BLOCKS:
            assert np.array_equal(split[s][name], split[0][name]), name


# ------------------------------------------------------------------------------- a position by hand
def test_a_written_position_reads_as_each_seat_sees_it() -> None:
    """Seat 2 attacks seat 1 face down; seat 0 has a face-down card in K1 and one from the screen;
    each seat sees its own cards by id and the others' as unknown cards."""
    s = scenario(4, hands={0: ["A04", "A04", "T06", "G2"], 1: ["D02"]}, screens={0: ["G5", "G1"]},
                 vp={0: 7, 1: 12, 2: 3, 3: 30}, chars={3: ["P2"]},
                 grid={0: {"k1": ["T11", "S:G3"]}, 3: {"job": ["T01"]}},
                 atk={1: ("A04", 2, False, "me")}, protect=(3,), events=("EV03",), turn=0)
    enc, _ = _encoder(4, {})
    x0 = _blocks(enc, enc.encode(GAME.observe(s, 0)))
    assert _counts(enc.acts, x0["own_hand_actions"], 4) == {"A04": 2, "T06": 1}
    assert _counts(enc.money, x0["own_hand_money"], 10) == {"G2": 1}
    assert _counts(enc.money, x0["own_screen"], 10) == {"G1": 1, "G5": 1}
    assert np.allclose(x0["own_money_value"] * 30, [2, 6])
    assert np.allclose(x0["vp"] * 50, [7, 12, 3, 30])
    nk = len(enc.cards)
    k1 = x0["grid"][0, 1]  # seat 0 itself, field K1: both its cards by id, neither public
    assert _counts(enc.cards, k1[:nk], 3) == {"T11": 1, "G3": 1}
    assert np.allclose(k1[nk:] * 3, [0, 0, 2, 0])
    job3 = x0["grid"][3, 0]  # seat 3 (relative 3): one unknown card from the hand
    assert not job3[:nk].any() and np.allclose(job3[nk:] * 3, [1, 0, 1, 0])
    # the attack in seat 1's field: seat 0 sees an unknown attack card by relative seat 2
    na = len(enc.atks)
    cell = x0["attack_fields"][1]
    assert cell[1] == 1.0 and cell[2 + na] == 1.0 and _one(cell[3 + na:7 + na]) == 2
    # face down, resolved at month end, not known to every seat, no defence card
    assert list(cell[7 + na:11 + na]) == [0, 0, 1, 0] and not cell[11 + na:].any()
    assert x0["attack_fields"][3][0] == 1.0  # seat 3's protection disc
    assert x0["seat_characters"][3][enc.chars.index("P2")] == 1.0
    assert x0["events"][0][enc.events.index("EV03")] == 1.0
    assert x0["decision"][DECISION_KINDS.index("turn")] == 1.0 and x0["turn_step"][1] == 1.0
    assert x0["turn_seat"][0] == 1.0 and x0["to_act"][0] == 1.0
    # seat 1 (attacked): the attack is in its own field (relative 0), still unknown, by relative seat 1;
    # seat 0's K1 is two unknown cards, one from the hand and one from the screen
    x1 = _blocks(enc, enc.encode(GAME.observe(s, 1)))
    cell = x1["attack_fields"][0]
    assert cell[2 + na] == 1.0 and cell[3 + na + 1] == 1.0
    k1 = x1["grid"][3, 1]
    assert not k1[:nk].any() and np.allclose(k1[nk:] * 3, [1, 1, 2, 0])
    assert np.allclose(x1["vp"] * 50, [12, 3, 30, 7])
    assert x1["turn_seat"][3] == 1.0 and x1["to_act"][3] == 1.0
    # seat 2 (the attacker) knows its card: A04, attacker itself (relative 0), in relative seat 3's field
    x2 = _blocks(enc, enc.encode(GAME.observe(s, 2)))
    cell = x2["attack_fields"][3]
    assert cell[2 + enc.atks.index("A04")] == 1.0 and cell[2 + na] == 0.0 and cell[3 + na] == 1.0


# ------------------------------------------------------------------------------- layouts
def test_layout_follows_the_options() -> None:
    full, _ = _encoder(4, {})
    beginner, _ = _encoder(4, {"variant": "beginner"})
    missions, _ = _encoder(4, {"missions": True})
    three, _ = _encoder(3, {})
    assert {"A10", "A11", "A12", "D04"} <= set(full.acts)
    assert not {"A10", "A11", "A12", "D04"} & set(beginner.acts)
    assert len(full.events) == 16 and not beginner.events
    assert beginner.layout.block("events").size == 0 and full.layout.block("events").size == 48
    assert missions.layout.block("own_mission").size == 12 and full.layout.block("own_mission").size == 0
    assert len(full.chars) == 40 and len(three.chars) == 30
    assert beginner.size < full.size < missions.size and three.size < full.size
    over, _ = _encoder(3, {"data": {"CHARACTERS.P7.four_only": 0, "ACTIONS.A04.count": 0, "PHASES": 2}})
    assert "P7" in over.chars and len(over.chars) == 31 and "A04" not in over.acts
    assert over.layout.block("phase").size == 2
    # every block named once, laid end to end
    stop = 0
    for block in full.layout.blocks:
        assert block.start == stop and block.low < block.high and block.doc
        stop = block.stop
    assert stop == full.size


def test_a_spectator_view_is_refused() -> None:
    enc, resolved = _encoder(3, {})
    state = GAME.new_initial_state(3, resolved)
    with pytest.raises(ValueError):
        enc.encode(GAME.observe(state, None))


def test_docs_hold_the_generated_tables() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for n in (GAME.min_players, GAME.max_players):
        assert f"## {n} players" in text
        assert layout_markdown("mafia-legend", n, GAME.resolve_options(n, {})) in text
