"""Don Carlo and the core protocol of issue 9: action spaces, action JSON, one redaction, reveal
flags on events, take-backs, positions in and out (``Match.from_state``), the chance sampler."""

from __future__ import annotations

import json
from random import Random

import pytest

from tablero.core.errors import ActionParseError
from tablero.core.events import Event, visible_log
from tablero.core.match import Match, bot_rng, replay
from tablero.core.messages import Message
from tablero.core.protocol import CHANCE
from tablero.core.record import GameRecord
from tablero.games.doncarlo import data
from tablero.games.doncarlo.actions import DRAWS, HIDDEN_DRAW, PLAYS, STARTS, Draw, HiddenDraw, StartSeat
from tablero.games.doncarlo.rules import GAME
from tablero.games.doncarlo.setup import play, scenario
from tablero.games.doncarlo.state import BLOCKED_DRAW, DEAL, PLAY, REFILL, START

from .helpers import UniformBot, draw, match_at

# ----------------------------------------------------------------------------- action spaces


@pytest.mark.parametrize("players", [2, 3, 4])
def test_action_spaces_are_fixed_and_cached(players):
    """Seats: the 320 codes, index = code index (whatever the player count); chance: the start
    seats 0…N-1, then the card values 0-6. The same codec object for every call."""
    codec = GAME.action_codec(players, {"majority_tie": "none"})
    assert codec is GAME.action_codec(players)
    assert codec.size == len(data.CODES) == 320
    assert [codec.encode(a) for a in PLAYS[:320]] == list(range(320))
    assert all(codec.decode(i) is PLAYS[i] for i in range(320))
    assert PLAYS[320:] and not any(a in codec for a in PLAYS[320:])  # codes the usual family cannot form
    chance = GAME.chance_codec(players)
    assert chance is GAME.chance_codec(players)
    assert chance.size == players + 7
    assert [chance.decode(i) for i in range(chance.size)] == [*STARTS[:players], *DRAWS]
    assert chance.encode(Draw(3)) == players + 3
    with pytest.raises(ActionParseError):
        codec.encode(DRAWS[0])
    if players < 4:
        with pytest.raises(ActionParseError):
            chance.encode(STARTS[players])


def test_legal_plays_come_in_index_order():
    """Legal codes are listed by action index (= code index)."""
    s = scenario(hands={0: [0, 1, 2, 3, 4, 5, 6]})
    legal = GAME.legal_actions(s, 0)
    indices = [GAME.action_codec(4).encode(a) for a in legal]
    assert len(indices) > 20 and indices == sorted(indices)


def test_actions_to_json():
    """Every action (and what others see of a private draw) has a JSON structure beside its text."""
    assert play("4/1/1").to_json() == {"kind": "play", "code": "1/1/4", "values": [1, 1, 4]}
    assert DRAWS[5].to_json() == {"kind": "draw", "value": 5}
    assert STARTS[2].to_json() == {"kind": "start", "seat": 2}
    assert HIDDEN_DRAW.to_json() == {"kind": "draw"} and HIDDEN_DRAW.to_text() == "draw"
    for a in (*PLAYS, *DRAWS, *STARTS, HIDDEN_DRAW):
        assert json.loads(json.dumps(a.to_json()))["kind"] in ("play", "draw", "start")


# ----------------------------------------------------------------------------- redaction


def test_private_draws_are_redacted_for_everyone_else():
    """A card of an initial hand or a refill: its value to the drawing seat only; every other seat
    and the spectator see a hidden draw. ``describe`` says what ``redact_action`` shows."""
    s = GAME.new_initial_state(3, {"start_seat": 0})
    assert s.phase == DEAL and s.turn == 0
    assert GAME.redact_action(s, CHANCE, DRAWS[4], 0) == DRAWS[4]
    for viewer in (1, 2, None):
        assert isinstance(GAME.redact_action(s, CHANCE, DRAWS[4], viewer), HiddenDraw)
        assert GAME.describe(s, CHANCE, DRAWS[4], viewer) == Message("dc.draw.hidden", seat=0)
    assert GAME.describe(s, CHANCE, DRAWS[4], 0) == Message("dc.draw", seat=0, value=4)
    s = scenario(hands={0: [1, 2, 3, 4]})
    GAME.apply(s, 0, play("1/2/3/4"))
    assert s.phase == REFILL
    assert GAME.redact_action(s, CHANCE, DRAWS[6], 1) is HIDDEN_DRAW
    assert GAME.redact_action(s, CHANCE, DRAWS[6], 0) is DRAWS[6]


def test_open_draws_plays_and_the_start_seat_are_public():
    """Draws of a blocked turn are shown to everyone (§5.3); plays and the start seat too."""
    s = scenario(hands={0: [0, 0, 0, 0]})
    assert s.phase == BLOCKED_DRAW
    for viewer in (0, 1, None):
        assert GAME.redact_action(s, CHANCE, DRAWS[5], viewer) is DRAWS[5]
        assert GAME.describe(s, CHANCE, DRAWS[5], viewer) == Message("dc.draw.open", seat=0, value=5)
    s = scenario(hands={0: [1, 2, 3, 4]})
    assert all(GAME.redact_action(s, 0, play("1/2"), v) == play("1/2") for v in (0, 1, None))
    s = GAME.new_initial_state(2)
    while s.phase != START:
        GAME.apply(s, CHANCE, GAME.sample_chance(s, Random(1)))
    assert all(GAME.redact_action(s, CHANCE, STARTS[1], v) == StartSeat(1) for v in (0, 1, None))


# ----------------------------------------------------------------------------- reveals and take-backs


def test_events_that_show_hidden_cards_are_reveals():
    """The hand shown by a blocked seat and every open draw are reveal events; a private draw is
    shown to its seat only (which also ends take-backs); a play shows nothing hidden."""
    events: list[Event] = []
    s = scenario(hands={0: [0, 0, 0, 0]}, events=events)
    draw(s, 5, events=events)
    assert [(e.message.id, e.reveal) for e in events] == [("dc.blocked", True), ("dc.draw.open", True)]
    events.clear()
    GAME.apply(s, 0, play("0/0/0/5"), events)
    draw(s, 1, events=events)
    play_event, refill = events[0], events[1]
    assert play_event.message.id == "dc.play" and not play_event.ends_takeback
    assert refill.message.id == "dc.draw" and refill.visible_to == frozenset({0}) and refill.ends_takeback
    empty: list[Event] = []
    scenario(2, hands={0: [], 1: []}, decks={0: [], 1: []}, events=empty)
    assert [(e.message.id, e.reveal) for e in empty][:2] == [("dc.blocked.empty", False), ("dc.out", False)]


def test_a_turn_start_with_a_hidden_hand_ends_take_backs():
    """A's play with no refill (his deck is empty) starts B's turn in the same step. That B's hidden
    hand holds a legal code is information (§5.3), so A may not take the play back: the step
    carries a reveal event seen by nobody. With B's hand known to all (his deck is empty too)
    the turn start shows nothing, and A may take it back."""
    hidden = scenario(2, hands={0: [1, 2, 3, 4]}, decks={0: []})
    events: list[Event] = []
    GAME.apply(hidden.clone(), 0, play("1"), events)
    marker = events[-1]
    assert marker.message == Message("dc.turn", seat=1) and marker.reveal
    assert marker.visible_to == frozenset() and all(marker.for_viewer(v) is None for v in (0, 1, None))
    m = Match.from_state(GAME, hidden, ["A", "B"], options={"start_seat": 0}, undo=True)
    m.act(0, "1")
    assert m.pending() == (1,) and not m.can_undo(0)
    known = scenario(2, hands={0: [1, 2, 3, 4], 1: [1, 2, 3, 4]}, decks={0: [], 1: []})
    m = Match.from_state(GAME, known, ["A", "B"], options={"start_seat": 0}, undo=True)
    m.act(0, "1")
    assert m.pending() == (1,) and m.can_undo(0)
    m.undo(0)
    assert m.pending() == (0,) and m.state.hand[0] == hidden.hand[0]


# ----------------------------------------------------------------------------- positions


def test_a_match_from_a_scenario_records_its_setup_and_replays():
    """``Match.from_state`` starts from a scenario; its record carries the position (``setup``)
    and replays with no RNG to the same state, logs and views."""
    s = scenario(hands={0: [0, 0, 0, 4]}, used=["4", "1/3"], options={"majority_tie": "none"})
    m = match_at(s, seed=9)
    m.play_bots({p: UniformBot() for p in range(4)}, {p: bot_rng(9, p) for p in range(4)})
    assert m.is_over()
    record = GameRecord.from_json(json.loads(m.record.dumps()))
    assert record.setup == GAME.state_to_json(s)
    assert replay(GAME, record) == m.state
    again = Match.from_record(GAME, record)
    assert all(again.log(v) == m.log(v) and again.view(v) == m.view(v) for v in (0, 1, 2, 3, None))


def test_state_json_keeps_types():
    """Tuples stay tuples, lists lists, the used-code flags a bytearray; the hash is stable."""
    s = scenario(hands={0: [0, 0, 0, 0]}, agents={"protzland": [(1, "1/6")]})
    data_ = json.loads(json.dumps(GAME.state_to_json(s)))
    back = GAME.state_from_json(data_)
    assert back == s
    assert type(back.used) is bytearray and type(back.countries) is tuple
    assert back.agents[data.COUNTRY_INDEX["protzland"]] == [(1, play("1/6").code)]
    assert GAME.state_hash(back) == GAME.state_hash(s) == GAME.state_hash(s.clone())
    assert "hand" in GAME.debug_text(s)
    with pytest.raises(ValueError):
        GAME.state_from_json({**data_, "nonsense": 1})


# ----------------------------------------------------------------------------- chance


@pytest.mark.parametrize("seed", range(6))
def test_sample_chance_draws_what_randrange_would(seed):
    """The sampler draws the card ``rng.randrange(deck size)`` picks (by value order), so a seed
    gives the same games as with ``randrange``; the RNG ends in the same state."""
    rng = Random(seed)
    s = GAME.new_initial_state(4)
    while GAME.to_act(s):
        if GAME.to_act(s) == (CHANCE,):
            state = rng.getstate()
            ours, theirs = Random(), Random()
            ours.setstate(state)
            theirs.setstate(state)
            got = GAME.sample_chance(s, ours)
            if s.phase == START:
                expected = STARTS[theirs.randrange(s.n)]
            else:
                r = theirs.randrange(s.deck_size[s.turn])
                values = [v for v, c in enumerate(s.deck[s.turn]) for _ in range(c)]
                expected = DRAWS[values[r]]
            assert got == expected and ours.getstate() == theirs.getstate()
            GAME.apply(s, CHANCE, got)
            rng.random()
        else:
            legal = GAME.legal_actions(s, s.turn)
            GAME.apply(s, s.turn, legal[rng.randrange(len(legal))])
    assert s.phase != PLAY


def test_chance_outcome_check_is_exact():
    """``is_chance_outcome``: a value still in the deck at a draw, a seat of the table at START."""
    s = scenario(hands={0: [6, 6, 1, 2]})
    GAME.apply(s, 0, play("1/2"))
    assert GAME.is_chance_outcome(s, DRAWS[5]) and not GAME.is_chance_outcome(s, DRAWS[6])
    assert not GAME.is_chance_outcome(s, Draw(-1)) and not GAME.is_chance_outcome(s, Draw(7))
    assert not GAME.is_chance_outcome(s, STARTS[0]) and not GAME.is_chance_outcome(s, PLAYS[0])
    assert {a for a, _ in GAME.chance_outcomes(s)} == {d for d in DRAWS if GAME.is_chance_outcome(s, d)}
    s = GAME.new_initial_state(2)
    rng = Random(3)
    while s.phase != START:
        GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
    assert GAME.is_chance_outcome(s, STARTS[1]) and not GAME.is_chance_outcome(s, STARTS[2])
    assert not GAME.is_chance_outcome(s, DRAWS[0])


def test_a_log_seen_by_others_is_the_redacted_action():
    """What each viewer's log shows of a step starts with ``describe`` of the redacted action."""
    s = scenario(hands={0: [1, 2, 3, 4]})
    GAME.apply(s, 0, play("1/2/3/4"))
    for v in DRAWS:
        if not GAME.is_chance_outcome(s, v):
            continue
        t = s.clone()
        events: list[Event] = []
        GAME.apply(t, CHANCE, v, events)
        for viewer in (0, 1, 2, 3, None):
            assert visible_log(events, viewer)[0] == GAME.describe(s, CHANCE, v, viewer)
