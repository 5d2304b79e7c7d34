"""El Grande on the core protocol: action spaces, state JSON, the one redaction, reveal events,
forced steps that stay asked, and the import shape of the package."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest

from tablero.core.events import Event
from tablero.core.match import Match
from tablero.core.protocol import CHANCE
from tablero.games.elgrande import engine
from tablero.games.elgrande.actions import EGAction, Hidden, Kind, act, parse
from tablero.games.elgrande.data import AREA_INDEX, CARD_TYPES, NUM_REGIONS, POWER_VALUES
from tablero.games.elgrande.rules import GAME
from tablero.games.elgrande.setup import scenario, take
from tablero.games.elgrande.state import PICK, POWER, ElGrandeState
from tablero.games.elgrande.view import observe

from .helpers import A, B, C, D, play

PACKAGE = Path(__file__).parents[3] / "tablero" / "games" / "elgrande"

SEAT_SPACE = {2: 377, 3: 467, 4: 557, 5: 647}
"""Seat actions per player count: 197 for any table + 90 per seat (81 moves, 9 send-backs)."""


def _playout(players: int, seed: int,
             options: dict[str, object] | None = None) -> Iterator[tuple[ElGrandeState, int, EGAction]]:
    """Yield (state, actor, action) before each step of a random legal playout."""
    s = GAME.new_initial_state(players, options)
    rng = Random(seed)
    while GAME.to_act(s):
        actors = GAME.to_act(s)
        if actors == (CHANCE,):
            actor, action = CHANCE, GAME.sample_chance(s, rng)
        else:
            actor = actors[rng.randrange(len(actors))]
            legal = GAME.legal_actions(s, actor)
            action = legal[rng.randrange(len(legal))]
        yield s, actor, action
        GAME.apply(s, actor, action)


# ----------------------------------------------------------------------------- action spaces


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_codecs_are_fixed_and_cached(players: int) -> None:
    seat = GAME.action_codec(players)
    assert seat is GAME.action_codec(players, {"short_game": True, "castillo_open": True})
    assert seat.size == SEAT_SPACE[players]
    chance = GAME.chance_codec(players)
    assert chance is GAME.chance_codec(players, {"start_seat": 0})
    assert chance.size == NUM_REGIONS + players + sum(1 for c in CARD_TYPES if c.stack <= 4)
    for codec in (seat, chance):
        for i in range(codec.size):
            a = codec.decode(i)
            assert codec.encode(a) == i
            assert codec.encode(parse(a.to_text())) == i


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_legal_actions_and_outcomes_come_in_index_order(players: int, seed: int) -> None:
    seat, chance = GAME.action_codec(players), GAME.chance_codec(players)
    every_chance = [chance.decode(i) for i in range(chance.size)]
    for s, actor, _ in _playout(players, seed, {"short_game": seed % 2 == 0}):
        if actor == CHANCE:
            outcomes = [a for a, _ in GAME.chance_outcomes(s)]
            index = [chance.encode(a) for a in outcomes]
            assert index == sorted(index)
            # the fast check accepts exactly the listed outcomes
            assert [a for a in every_chance if GAME.is_chance_outcome(s, a)] == outcomes
        else:
            for p in GAME.to_act(s):
                index = [seat.encode(a) for a in GAME.legal_actions(s, p)]
                assert index == sorted(set(index))


def test_action_json() -> None:
    assert parse("move galicia 1 castillo").to_json() == {"kind": "move", "from": "galicia", "owner": 1,
                                                          "to": "castillo"}
    assert parse("return court").to_json() == {"kind": "return", "from": "court"}
    assert parse("take 2E").to_json() == {"kind": "take", "card": "2E"}
    assert parse("tile 1 aragon").to_json() == {"kind": "tile", "tile": 1, "area": "aragon"}
    assert parse("select_opponent 2 aragon").to_json() == {"kind": "select_opponent", "owner": 2, "area": "aragon"}
    assert parse("end_placement").to_json() == {"kind": "end_placement"}
    assert Hidden(Kind.DISK).to_json() == {"kind": "disk"} and Hidden(Kind.DISK).to_text() == "disk"
    for players in (2, 5):
        codec = GAME.action_codec(players)
        for i in range(codec.size):
            a = codec.decode(i)
            j = a.to_json()
            assert j["kind"] == a.kind.value and len(j) == len(a.to_text().split())


# ----------------------------------------------------------------------------- state in and out


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (3, 6), (4, 7), (5, 8)])
def test_state_json_round_trip_and_the_copy_plays_on_identically(players: int, seed: int) -> None:
    """At some steps of random games the JSON copy equals the state, hashes alike, and the rest of
    the game applied to both gives equal states at every later step (and equal views)."""
    copies: list[ElGrandeState] = []
    for k, (s, actor, action) in enumerate(_playout(players, seed, {"short_game": seed % 2 == 1})):
        if k % 29 == 3:
            data = json.loads(json.dumps(GAME.state_to_json(s)))
            back = GAME.state_from_json(data)
            assert back == s
            assert GAME.state_hash(back) == GAME.state_hash(s)
            copies.append(back)
        for c in copies:
            assert c == s
            if k % 17 == 5:
                assert [observe(c, v) for v in (*range(players), None)] == [
                    observe(s, v) for v in (*range(players), None)]
            GAME.apply(c, actor, action)
    assert len(copies) >= 3


def test_state_json_keeps_the_types() -> None:
    s = scenario(players=3, cab={"galicia": {A: 2}})
    take(s, "3D")
    back = GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(s))))
    assert back == s
    assert type(back.rounds) is tuple and type(back.cab) is list and type(back.actors) is tuple
    assert back.last == (A, parse("take 3D"))
    assert back.legal_cache is None


# ----------------------------------------------------------------------------- one redaction


def test_redaction_is_the_one_for_log_view_and_describe() -> None:
    """A secret disk shows as a bare ``disk`` to everyone but the picker: in redact_action, in the
    view's last action, in describe and in the private log line."""
    s = scenario(players=3, king="sevilla", cab={"galicia": {A: 3}, "cataluna": {B: 1}, "aragon": {B: 1}})
    take(s, "2G")
    play(s, A, "action_first")
    assert s.phase == PICK and s.actors == (A, B)
    disk = parse("disk galicia")
    assert GAME.redact_action(s, A, disk, A) == disk
    for viewer in (B, C, None):
        seen = GAME.redact_action(s, A, disk, viewer)
        assert seen == Hidden(Kind.DISK) and seen.to_text() == "disk"
        assert GAME.describe(s, A, disk, viewer).id == "eg.disk.hidden"
    events: list[Event] = []
    GAME.apply(s, A, disk, events)
    (line,) = events
    assert line.visible_to == frozenset({A}) and line.redacted is not None and line.redacted.id == "eg.disk.hidden"
    assert observe(s, A).last == (A, "disk galicia")
    assert [observe(s, v).last for v in (B, C, None)] == [(A, "disk")] * 3
    back = parse("take_back 13")
    assert GAME.redact_action(s, A, back, B).to_text() == "take_back"
    assert GAME.redact_action(s, A, parse("power 13"), B) == parse("power 13")


# ----------------------------------------------------------------------------- reveals


def test_events_that_show_hidden_things_are_reveals() -> None:
    """Region cards dealt, cards turned up from the stacks and secret disks shown are reveals
    (a take-back closes there); plain public moves are not."""
    reveals: set[str] = set()
    plain: set[str] = set()
    for s, actor, action in _playout(4, 11):
        events: list[Event] = []
        GAME.apply(s.clone(), actor, action, events)
        for e in events:
            (reveals if e.reveal else plain).add(e.message.id)
    assert {"eg.deal.home", "eg.deal.king", "eg.reveal", "eg.reveal_disks"} <= reveals
    assert reveals == {"eg.deal.home", "eg.deal.king", "eg.reveal", "eg.reveal_disks"}
    assert {"eg.place", "eg.power", "eg.take"} <= plain


# ----------------------------------------------------------------------------- forced steps


def _power_after_takeback() -> ElGrandeState:
    """A (hand-built) power-card phase: A took back the 5 with 4E and holds 5, 11, 12, 13; B, C
    and D played 11, 12 and 5 this round, so A's only card is 13. Others know only that A took
    back one of 1-10."""
    s = scenario(players=4)
    s.phase = POWER
    s.active = -1
    s.power_start = B
    s.power_i = 3
    s.power_now = [0, 11, 12, 5]
    for p, v in ((B, 11), (C, 12), (D, 5)):
        s.power_log[p] = [v]
        s.pile[p] = [v]
        s.hand[p] = engine.FULL_HAND & ~(1 << v)
    s.power_log[A] = [*range(1, 11), 0]
    s.pile[A] = [v for v in range(1, 11) if v != 5]
    s.taken_back[A] = [5]
    s.hand[A] = sum(1 << v for v in (5, 11, 12, 13))
    s.actors = (A,)
    s.touch()
    return s


def test_a_single_power_card_after_a_takeback_is_asked() -> None:
    """§13: after a 4E the owner's hand is private, so whether he has one playable card or two is
    too; the driver asks him even with one (always_asked), else the others would learn it from
    the move arriving at once. In a real game this cannot happen (a hand after 4E keeps at least
    two playable cards), so the position is built by hand."""
    s = _power_after_takeback()
    assert [a.to_text() for a in GAME.legal_actions(s, A)] == ["power 13"]
    assert GAME.always_asked(s, A)
    rng = Random(1)
    counts = {len(GAME.legal_actions(GAME.determinize(observe(s, B), B, rng), A)) for _ in range(20)}
    assert 2 in counts  # what B cannot tell apart: A may hold two playable cards
    m = Match.from_state(GAME, s, ["a", "b", "c", "d"], options={"start_seat": 0}, seed=1)
    assert m.pending() == (A,) and [a.to_text() for a in m.legal(A)] == ["power 13"]
    assert m.record.entries == []


def test_forced_steps_without_takeback_are_applied_at_once() -> None:
    """Without a 4E every hand is public (13 minus the played values): a single card is forced."""
    s = scenario(players=5)
    s.phase = POWER
    s.power_now = [0, 9, 10, 11, 12]
    s.power_i = 4
    for p in range(1, 5):
        s.power_log[p] = [s.power_now[p]]
    played = [v for v in POWER_VALUES if v not in (9, 10, 11, 12, 13)][:8]
    s.power_log[A] = played
    s.pile[A] = played[:]
    s.hand[A] = sum(1 << v for v in (9, 10, 11, 12, 13))
    s.actors = (A,)
    s.touch()
    assert not GAME.always_asked(s, A)
    m = Match.from_state(GAME, s, ["a", "b", "c", "d", "e"], options={"start_seat": 0}, seed=1)
    assert m.record.entries[0] == (A, "power 13")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_forced_steps_tell_nobody_anything(players: int) -> None:
    """At every forced step applied at once, every other seat's determinizations give the seat
    exactly one option too (the conformance suite's check, on more games here)."""
    rng = Random(players)
    checked = 0
    for seed in range(8):
        for s, actor, _ in _playout(players, 100 + seed):
            if actor == CHANCE:
                continue
            for p in GAME.to_act(s):
                if len(GAME.legal_actions(s, p)) != 1 or GAME.always_asked(s, p):
                    continue
                checked += 1
                for v in range(players):
                    if v != p:
                        s2 = GAME.determinize(observe(s, v), v, rng)
                        assert len(GAME.legal_actions(s2, p)) == 1 and not GAME.always_asked(s2, p)
    assert checked > 0


# ----------------------------------------------------------------------------- import shape


LAYERS = {"tutorial": 5, "rules": 4, "view": 3, "text": 3, "setup": 3, "sheet": 3, "engine": 2, "state": 1,
          "actions": 0, "data": -1}
"""Inside the package: a module imports only modules of lower layers (text may import view)."""


def test_modules_import_downwards_only() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        name = path.stem
        if name == "__init__":
            continue
        assert name in LAYERS, f"{name}.py has no layer"
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == "tablero.games.elgrande":
                    targets = [a.name for a in node.names]
                elif node.module.startswith("tablero.games.elgrande."):
                    targets = [node.module.rsplit(".", 1)[1]]
            for t in targets:
                ok = LAYERS[t] < LAYERS[name] or (name, t) == ("text", "view")
                assert ok, f"{name}.py imports {t}.py"


def test_codecs_cover_every_kind() -> None:
    """Every decision kind is in the seat space, the three chance kinds in the chance space."""
    seat, chance = GAME.action_codec(3), GAME.chance_codec(3)
    assert {seat.decode(i).kind for i in range(seat.size)} == set(Kind) - {Kind.DEAL, Kind.START, Kind.REVEAL}
    assert {chance.decode(i).kind for i in range(chance.size)} == {Kind.DEAL, Kind.START, Kind.REVEAL}
    assert seat.encode(act(Kind.PLACE, AREA_INDEX["galicia"])) == seat.encode(parse("place galicia"))
