"""The core seams on the toy game: checked apply, the legal-action cache, codecs, positions in and out."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from enum import Enum
from random import Random
from typing import Any, NamedTuple

import pytest

from tablero.core import serial
from tablero.core.codec import TableCodec
from tablero.core.errors import ActionParseError, ErrorCode, IllegalActionError, RecordError
from tablero.core.match import Match, replay
from tablero.core.protocol import CHANCE, GameState, Player
from tablero.core.record import GameRecord
from tablero.testing import TOY_GAME
from tablero.testing.conformance import play_on
from tablero.testing.toygame import BID, PLAY, Bid, PlayCard, Roll, ToyAction, ToyGame, ToyState

GAME = TOY_GAME
NAMES = ["Ada", "Bea", "Cem"]


def state_at(phase: int, seed: int = 3, players: int = 3) -> ToyState:
    m = Match(GAME, NAMES[:players], seed=seed)
    rng = Random(seed)
    while m.state.phase != phase:
        p = m.pending()[0]
        legal = m.legal(p)
        m.act(p, legal[rng.randrange(len(legal))])
    state = m.state.clone()
    state.touch()  # the match asked for the legal actions already
    return state


class Counting(ToyGame):
    """The toy game, counting how often the legal actions are generated."""

    def __init__(self) -> None:
        self.calls = 0

    def generate_legal(self, state: ToyState, player: Player) -> Sequence[ToyAction]:
        self.calls += 1
        return super().generate_legal(state, player)


# ---------------------------------------------------------------------------- legal actions, apply
def test_legal_actions_are_generated_once_per_decision() -> None:
    game = Counting()
    state = state_at(PLAY)
    seat = game.to_act(state)[0]
    legal = game.legal_actions(state, seat)
    assert game.legal_actions(state, seat) is legal
    game.apply(state, seat, legal[0])  # checks against the cached list
    assert game.calls == 1
    game.legal_actions(state, game.to_act(state)[0])  # a new decision
    assert game.calls == 2


def test_a_clone_keeps_the_cache_and_an_apply_clears_it() -> None:
    game = Counting()
    state = state_at(PLAY)
    seat = game.to_act(state)[0]
    game.legal_actions(state, seat)
    twin = state.clone()
    assert game.legal_actions(twin, seat) == game.legal_actions(state, seat)
    assert game.calls == 1
    game.apply_unchecked(twin, seat, game.legal_actions(twin, seat)[0])
    assert twin.legal_cache is None


def test_touch_forgets_the_cache_after_editing_by_hand() -> None:
    state = state_at(BID)
    GAME.legal_actions(state, 0)
    state.bids[0] = 1
    state.touch()
    assert GAME.legal_actions(state, 0) == ()  # seat 0 has committed: not to act


def test_legal_actions_of_a_seat_not_to_act_are_empty() -> None:
    state = state_at(PLAY)
    seat = GAME.to_act(state)[0]
    assert GAME.legal_actions(state, (seat + 1) % 3) == ()
    assert GAME.legal_actions(state, CHANCE) == ()


def test_checked_apply_refuses_and_changes_nothing() -> None:
    state = state_at(PLAY)
    seat = GAME.to_act(state)[0]
    before = state.clone()
    with pytest.raises(IllegalActionError) as exc:
        GAME.apply(state, (seat + 1) % 3, PlayCard(1))
    assert exc.value.code == ErrorCode.NOT_YOUR_TURN
    not_in_hand = next(PlayCard(v) for v in (1, 2, 3, 4) if PlayCard(v) not in GAME.legal_actions(state, seat))
    with pytest.raises(IllegalActionError, match="play a card from your hand"):
        GAME.apply(state, seat, not_in_hand)
    with pytest.raises(IllegalActionError):
        GAME.apply(state, CHANCE, Roll(3))
    assert state == before


def test_apply_unchecked_is_the_same_step_without_the_checks() -> None:
    rng = Random(5)
    a = GAME.new_initial_state(3)
    b = GAME.new_initial_state(3)
    while GAME.to_act(a):
        p = GAME.to_act(a)[0]
        action = GAME.sample_chance(a, rng) if p == CHANCE else GAME.legal_actions(a, p)[0]
        GAME.apply(a, p, action)
        GAME.apply_unchecked(b, p, action)
        assert a == b


# ---------------------------------------------------------------------------- codecs
def test_table_codec() -> None:
    codec = TableCodec(["a", "b", "c"])
    assert codec.size == 3 and codec.encode("b") == 1 and codec.decode(2) == "c"
    with pytest.raises(ActionParseError):
        codec.encode("d")
    with pytest.raises(ActionParseError):
        codec.decode(3)
    with pytest.raises(ValueError):
        TableCodec(["a", "a"])


def test_the_toy_codec_is_fixed_and_orders_the_legal_actions() -> None:
    codec = GAME.action_codec(3)
    assert codec is GAME.action_codec(4, {"rounds": 5})
    state = state_at(BID)
    assert [codec.encode(a) for a in GAME.legal_actions(state, 0)] == sorted(
        codec.encode(Bid(b)) for b in (0, 1, 2))


# ---------------------------------------------------------------------------- serial
class Colour(Enum):
    RED = "red"
    BLUE = "blue"


class Pair(NamedTuple):
    seat: int
    card: str


@dataclasses.dataclass(frozen=True)
class Task:
    kind: str
    seats: tuple[int, ...]
    pair: Pair | None = None


class Sample(GameState):
    __slots__ = ("anything", "colour", "counts", "flags", "grid", "name", "pairs", "seen", "task", "tasks")

    name: str
    counts: dict[int, int]
    flags: bytearray
    grid: list[list[tuple[int, int]]]
    pairs: tuple[Pair, ...]
    seen: frozenset[int]
    colour: Colour
    task: Task | None
    tasks: list[Task]
    anything: Any

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sample) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment]


def sample() -> Sample:
    s = Sample()
    s.name, s.counts, s.flags = "x", {3: 1, 10: 2}, bytearray(b"\x00\x01")
    s.grid = [[(1, 2)], []]
    s.pairs = (Pair(0, "G1"), Pair(2, "K3"))
    s.seen = frozenset({2, 0})
    s.colour = Colour.BLUE
    s.task = Task("defend", (1, 2), Pair(1, "A"))
    s.tasks = [Task("turn", ())]
    s.anything = [(1, "a"), {"k": (2,)}, {5: None}, frozenset({1}), b"z", 1.5]
    s.legal_cache = ((0, ()))
    return s


def test_serial_round_trips_exact_types() -> None:
    s = sample()
    data = json.loads(json.dumps(serial.state_to_json(s)))
    back = serial.state_from_json(Sample, data)
    assert back == s
    assert type(back.grid[0][0]) is tuple and type(back.flags) is bytearray
    assert type(back.anything[0]) is tuple and back.anything[2] == {5: None}
    assert back.legal_cache is None and "legal_cache" not in data


def test_serial_refuses_what_does_not_fit() -> None:
    s = sample()
    data = serial.state_to_json(s)
    del data["name"]
    with pytest.raises(ValueError, match="missing"):
        serial.state_from_json(Sample, data)
    s.anything = object()
    with pytest.raises(TypeError, match="anything"):
        serial.state_to_json(s)


def test_the_hash_is_stable_and_follows_the_position() -> None:
    state = state_at(BID)
    assert GAME.state_hash(state) == GAME.state_hash(state.clone())
    assert GAME.state_hash(state) == serial.stable_hash(GAME.state_to_json(state))
    other = state.clone()
    other.scores[0] += 1
    assert GAME.state_hash(other) != GAME.state_hash(state)
    assert "scores" in GAME.debug_text(state)


# ---------------------------------------------------------------------------- positions
def test_a_match_starts_from_any_position_and_its_record_replays() -> None:
    position = state_at(PLAY, seed=8)
    m = Match.from_state(GAME, position, NAMES, seed=11)
    assert m.state == position and m.state is not position
    assert m.record.setup == GAME.state_to_json(position)
    play_on(m)
    saved = GameRecord.from_json(json.loads(m.record.dumps()))
    assert saved.setup == m.record.setup
    assert replay(GAME, saved) == m.state
    again = Match.from_record(GAME, saved)
    assert again.record.entries == m.record.entries and again.log(0) == m.log(0)


def test_a_record_without_setup_keeps_its_shape() -> None:
    m = Match(GAME, NAMES, seed=1)
    assert "setup" not in m.record.to_json()


def test_a_broken_setup_is_refused_clearly() -> None:
    m = Match.from_state(GAME, state_at(PLAY), NAMES, seed=1)
    data = m.record.to_json()
    data["setup"] = {"n": 3}
    with pytest.raises(RecordError, match="setup"):
        replay(GAME, GameRecord.from_json(data))
