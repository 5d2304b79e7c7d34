"""El Grande properties over random legal playouts (hypothesis; seeds are the strategy).

Every step of every playout (2–5 players, full and short game) is checked against invariants
the spec guarantees: §3 conservation of the 30 caballeros, §8.1 the King's region taboo, §10
scores equal to the logged scoring events, §6.2 distinct power cards per round, §9.4 tiles,
§11 the end and its ranks. Leaks are tested as equality of views and logs, never by searching
strings: a secret disk (§8.5), the value taken back with 4E (§9.4) and the order of the action
stacks (§5.1, §13) stay hidden.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablero.core.errors import (
    ActionParseError,
    ErrorCode,
    IllegalActionError,
    OptionError,
    RecordError,
    TableroError,
)
from tablero.core.events import Event, visible_log
from tablero.core.match import Match, bot_rng, replay
from tablero.core.messages import Message
from tablero.core.protocol import CHANCE
from tablero.core.record import GameRecord
from tablero.games.elgrande import data
from tablero.games.elgrande.actions import EGAction, Kind, act
from tablero.games.elgrande.data import CARD_TYPES, CASTILLO, KING_CARD, NUM_REGIONS, VETO_CARD
from tablero.games.elgrande.engine import FULL_HAND
from tablero.games.elgrande.rules import GAME
from tablero.games.elgrande.setup import scenario, take
from tablero.games.elgrande.state import OVER, PICK, POWER, REVEAL, TAKE_BACK, ElGrandeState

DEEP = os.environ.get("TABLERO_DEEP") == "1"
PLAYOUTS = 500 if DEEP else 50
"""Random playouts per player count (full and short game mixed by hypothesis)."""
FEW = 100 if DEEP else 10
"""Examples for the whole-match properties (records, replays, stack order)."""

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
PLAYERS = [2, 3, 4, 5]
TOTAL_CARDS = sum(c.count for c in CARD_TYPES)


def options_for(players: int) -> st.SearchStrategy[dict[str, object]]:
    return st.fixed_dictionaries({
        "short_game": st.booleans(),
        "start_seat": st.one_of(st.just("random"), st.integers(0, players - 1)),
        "castillo_open": st.booleans(),
    })


# ----------------------------------------------------------------------------- invariants


def logged_points(events: list[Event], n: int) -> list[int]:
    """Points per seat in the scoring events (place shares, King's and Grande bonus)."""
    out = [0] * n
    for e in events:
        m = e.message
        if m.id == "eg.score":
            shares = m.get("shares")
            assert isinstance(shares, tuple)
            for share in shares:
                assert isinstance(share, Message) and share.id == "eg.points"
                seat, points = share.get("seat"), share.get("points")
                assert isinstance(seat, int) and isinstance(points, int)
                out[seat] += points
        elif m.id in ("eg.bonus.king", "eg.bonus.grande"):
            seat, points = m.get("seat"), m.get("points")
            assert isinstance(seat, int) and isinstance(points, int)
            assert points == 2
            out[seat] += points
    return out


def check_step(s: ElGrandeState) -> None:
    """Invariants that hold after every action."""
    n = s.n
    for p in range(n):
        # §3: every caballero is somewhere
        assert s.court[p] + s.province[p] + sum(s.cab[p]) == data.CABALLEROS
        assert min(s.cab[p]) >= 0 and s.court[p] >= 0 and s.province[p] >= 0
        # §2.4 / §6.2: hand and pile partition the 13 values; one play per played round
        pile = 0
        for v in s.pile[p]:
            assert not pile >> v & 1
            pile |= 1 << v
        assert pile | s.hand[p] == FULL_HAND and not pile & s.hand[p]
        # §7.5: a held Veto! was taken this round or the previous played one
        assert all(s.ri - 1 <= r <= s.ri for r in s.veto[p])
        # §8.2: no Grande in the Castillo
        assert s.grande[p] < NUM_REGIONS
    played = [v for v in s.power_now if v]
    assert len(played) == len(set(played))  # §6.2: no value twice in a round
    # §9.4: at most one tile per region, never on the Castillo
    placed = [t for t in s.tiles if t >= 0]
    assert len(placed) == len(set(placed)) and all(t < CASTILLO for t in placed)
    assert s.king < NUM_REGIONS
    # §2.5: all 45 action cards are somewhere
    executing = 1 if s.card not in (-1, KING_CARD, VETO_CARD) else 0
    held = sum(len(v) for v in s.veto)
    assert sum(s.unseen) + len(s.offer) + len(s.discard) + held + executing + 1 == TOTAL_CARDS
    actors = GAME.to_act(s)
    if s.phase == PICK:
        # §8.5: to_act lists the seats still to commit, in asking order
        assert actors == tuple(q for q in s.pick_seats if s.picks[q] < 0) and actors
    elif actors and actors != (CHANCE,):
        assert len(actors) == 1
    for p in actors:
        if p != CHANCE:
            assert GAME.legal_actions(s, p)
    assert GAME.is_terminal(s) == (s.phase == OVER) == (not actors)


def check_transition(before: ElGrandeState, after: ElGrandeState) -> None:
    """§8.1: while the King stays, nothing enters or leaves his region; scores never drop."""
    for p in range(before.n):
        assert after.score[p] >= before.score[p]
    k = before.king
    if k < 0 or after.king != k:
        return
    for p in range(before.n):
        assert after.cab[p][k] == before.cab[p][k]
        assert (after.grande[p] == k) == (before.grande[p] == k)
    for t in range(len(before.tiles)):
        assert (after.tiles[t] == k) == (before.tiles[t] == k)


def check_end(s: ElGrandeState, events: list[Event]) -> None:
    """§11: the game ends right after the last round's general scoring; ranks 1, 1, 3."""
    assert s.phase == OVER and s.ri == len(s.rounds) - 1
    ids = [e.message.id for e in events]
    assert ids[-1] == "eg.final"
    general = [e.message.get("round") for e in events if e.message.id == "eg.general_scoring"]
    assert general == [3, 6, 9]
    last = len(ids) - 1 - ids[::-1].index("eg.general_scoring")
    assert all(i in ("eg.score", "eg.score.empty", "eg.bonus.king", "eg.bonus.grande", "eg.disk",
                     "eg.reveal_disks", "eg.castillo_out", "eg.final") for i in ids[last + 1:])
    rounds_played = [e.message.get("round") for e in events if e.message.id == "eg.round"]
    assert tuple(rounds_played) == s.rounds
    for p in range(s.n):
        assert len([v for v in s.power_log[p] if v]) == len(s.rounds)
    res = GAME.result(s)
    assert res is not None
    assert list(res.scores) == [float(x) for x in s.score]
    assert list(res.ranks) == [1 + sum(1 for o in s.score if o > x) for x in s.score]
    for p in (*range(s.n), None):
        assert GAME.observe(s, p).public.ranks == res.ranks


# ----------------------------------------------------------------------------- hidden choices


def check_hidden_choice(s: ElGrandeState, p: int, legal: list[EGAction]) -> None:
    """A secret disk (while others still pick) or a 4E take-back: whichever option p takes,
    every other viewer sees the same view and the same log; p himself sees the difference."""
    if len(legal) < 2:
        return
    if s.phase == PICK and len(GAME.to_act(s)) < 2:
        return  # the last pick reveals all of them
    if s.phase not in (PICK, TAKE_BACK):
        return
    outcomes = []
    for a in legal[:3]:
        t = s.clone()
        events: list[Event] = []
        GAME.apply(t, p, a, events)
        outcomes.append((t, events))
    for viewer in (*range(s.n), None):
        views = [GAME.observe(t, viewer) for t, _ in outcomes]
        logs = [visible_log(ev, viewer) for _, ev in outcomes]
        if viewer == p:
            assert len({repr(v) for v in views}) == len(views)
            assert len({repr(x) for x in logs}) == len(logs)
        else:
            assert all(v == views[0] for v in views)
            assert all(x == logs[0] for x in logs)
    if s.phase == PICK:  # the committed seat stays committed, and nobody else learns where
        for t, _ in outcomes:
            assert GAME.observe(t, None).public.committed[p]


def check_refusals(s: ElGrandeState, rng: Random) -> None:
    """Illegal input raises IllegalActionError and leaves the state unchanged."""
    before = s.clone()
    actors = GAME.to_act(s)
    attempts: list[tuple[int, EGAction, ErrorCode | None]] = []
    pool = [act(Kind.PLACE, CASTILLO), act(Kind.STOP), act(Kind.DISK, 0), act(Kind.TAKE, KING_CARD),
            act(Kind.POWER, 13), act(Kind.KING_TO, 0), act(Kind.VETO), act(Kind.INTAKE, 6),
            act(Kind.MOVE, 0, 0, CASTILLO), act(Kind.TAKE_BACK, 1), act(Kind.END_PLACEMENT)]
    if not actors:
        attempts += [(CHANCE, act(Kind.REVEAL, 0), None), (0, act(Kind.STOP), None)]
    elif actors == (CHANCE,):
        outcomes = {a for a, _ in GAME.chance_outcomes(s)}
        attempts.append((0, pool[rng.randrange(len(pool))], ErrorCode.NOT_YOUR_TURN))
        impossible = [act(Kind.REVEAL, c) for c in range(len(CARD_TYPES))] + [act(Kind.DEAL, r)
                                                                             for r in range(NUM_REGIONS)]
        attempts += [(CHANCE, a, ErrorCode.ILLEGAL) for a in impossible if a not in outcomes][:3]
    else:
        p = actors[0]
        legal = set(GAME.legal_actions(s, p))
        attempts += [(p, a, ErrorCode.ILLEGAL) for a in pool if a not in legal][:3]
        others = [q for q in range(s.n) if q not in actors]
        if others:
            attempts.append((rng.choice(others), next(iter(legal)), ErrorCode.NOT_YOUR_TURN))
        attempts.append((CHANCE, act(Kind.REVEAL, 0), ErrorCode.NOT_YOUR_TURN))
    for player, action, code in attempts:
        with pytest.raises(IllegalActionError) as info:
            GAME.apply(s, player, action)
        if code is not None:
            assert info.value.code == code
        assert s == before


LEFTOVERS = frozenset({"action_first", "place_limit", "placed", "intake_left", "budget_own", "budget_opp",
                       "power_start"})
"""State fields a determinization may hold otherwise than the real state: a decision's context
outside that decision (the view shows it neutral; the rules set it afresh before reading it)."""
HIDDEN_FIELDS = ("hand", "pile", "taken_back", "picks", "last")
"""What a determinization samples: power hands and piles, 4E take-backs, committed disks (and
so the arguments of a secret last action)."""


def check_determinize(s: ElGrandeState, rng: Random) -> None:
    """A determinization is a state the viewer cannot tell from the real one. With the hidden
    facts put back it is the real state but for ``LEFTOVERS``, and plays on exactly like it:
    the view drops no rules counter that matters and no leftover that is read again."""
    for p in range(s.n):
        view = GAME.observe(s, p)
        sample = GAME.determinize(view, p, rng)
        assert GAME.observe(sample, p) == view
        check_step(sample)
    p = rng.randrange(s.n)
    t = GAME.determinize(GAME.observe(s, p), p, rng)
    copy = s.clone()
    for name in HIDDEN_FIELDS:
        setattr(t, name, getattr(copy, name))
    t.touch()
    differ = {k for k in ElGrandeState.__slots__ if getattr(t, k) != getattr(s, k)}
    assert differ <= LEFTOVERS, {k: (getattr(s, k), getattr(t, k)) for k in differ - LEFTOVERS}
    plays_on_alike(s.clone(), t, rng, steps=40)


def plays_on_alike(a: ElGrandeState, b: ElGrandeState, rng: Random, *, steps: int) -> None:
    """The same random actions applied to ``a`` and ``b`` give equal views, legal actions and
    logs for every viewer, step after step."""
    viewers = (*range(a.n), None)
    for _ in range(steps):
        assert GAME.to_act(a) == GAME.to_act(b)
        actors = GAME.to_act(a)
        if not actors:
            break
        if actors == (CHANCE,):
            assert GAME.chance_outcomes(a) == GAME.chance_outcomes(b)
            player, action = CHANCE, GAME.sample_chance(a, rng)
        else:
            player = actors[rng.randrange(len(actors))]
            legal = GAME.legal_actions(a, player)
            assert legal == GAME.legal_actions(b, player)
            action = legal[rng.randrange(len(legal))]
        ev_a: list[Event] = []
        ev_b: list[Event] = []
        GAME.apply(a, player, action, ev_a)
        GAME.apply(b, player, action, ev_b)
        assert ev_a == ev_b
        assert [GAME.observe(a, v) for v in viewers] == [GAME.observe(b, v) for v in viewers]


def check_view_parts(s: ElGrandeState) -> None:
    """The public part and the decision part of a view are the same for every viewer, seats
    and spectator alike; only a seat has a private part, its own."""
    views = [GAME.observe(s, v) for v in (*range(s.n), None)]
    spectator = views[-1]
    assert spectator.private is None
    for q, view in enumerate(views[:-1]):
        assert view.public == spectator.public
        assert view.deciding == spectator.deciding
        assert view.private is not None and view.private.seat == q
        assert view.to_json()["public"] == spectator.to_json()["public"]


# ----------------------------------------------------------------------------- playouts


def playout(players: int, seed: int, options: dict[str, object]) -> ElGrandeState:
    s = GAME.new_initial_state(players, options)
    rng = Random(seed)
    check_rng = Random(seed ^ 0x5EED)
    log: list[Event] = []
    steps = 0
    check_step(s)
    while GAME.to_act(s):
        actors = GAME.to_act(s)
        if steps % 37 == 11:
            check_refusals(s, check_rng)
        if steps % 97 == 50:
            check_determinize(s, check_rng)
        before = s.clone()
        events: list[Event] = []
        if actors == (CHANCE,):
            outcomes = GAME.chance_outcomes(s)
            assert abs(sum(w for _, w in outcomes) - 1.0) < 1e-9
            player = CHANCE
            action = GAME.sample_chance(s, rng)
        else:
            player = actors[rng.randrange(len(actors))] if s.phase == PICK else actors[0]
            legal = list(GAME.legal_actions(s, player))
            check_hidden_choice(s, player, legal)
            action = legal[rng.randrange(len(legal))]
        GAME.apply(s, player, action, events)
        log.extend(events)
        steps += 1
        check_step(s)
        check_transition(before, s)
        assert logged_points(log, players) == s.score  # §10: every point is a logged event
    assert steps <= GAME.max_game_length(players)
    check_end(s, log)
    check_refusals(s, check_rng)
    return s


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", [1, 2])
def test_public_part_is_the_same_for_every_viewer(players: int, seed: int) -> None:
    """At every step of a random game (secret disks and 4E take-backs included) every seat and
    the spectator get the same ``public`` and ``deciding`` parts; only ``private`` differs."""
    s = GAME.new_initial_state(players, {"short_game": seed == 1, "start_seat": "random"})
    rng = Random(seed)
    while True:
        check_view_parts(s)
        actors = GAME.to_act(s)
        if not actors:
            break
        if actors == (CHANCE,):
            GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
        else:
            p = actors[rng.randrange(len(actors))]
            legal = GAME.legal_actions(s, p)
            GAME.apply(s, p, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("players", PLAYERS)
@settings(max_examples=PLAYOUTS)
@given(data_=st.data(), seed=SEEDS)
def test_random_playouts_keep_every_invariant(players: int, data_: st.DataObject, seed: int) -> None:
    """Random legal playouts: 30 caballeros per colour, the King's region untouched while he
    stays, scores equal to the logged scorings and never decreasing, distinct power cards per
    round, tiles and Grandes only in regions, 45 action cards, the end after the last general
    scoring with shared ranks; secret disks and 4E take-backs leak nothing; illegal input is
    refused without a change."""
    playout(players, seed, data_.draw(options_for(players)))


# ----------------------------------------------------------------------------- matches and records


class UniformBot:
    def choose(self, view: object, legal: Sequence[EGAction], rng: Random) -> EGAction:
        return legal[rng.randrange(len(legal))]


def bot_match(players: int, seed: int, options: dict[str, object]) -> Match:  # type: ignore[type-arg]
    m = Match(GAME, [f"P{i}" for i in range(players)], options=options, seed=seed)
    m.play_bots({p: UniformBot() for p in range(players)}, {p: bot_rng(seed, p) for p in range(players)})
    assert m.is_over()
    return m


def roundtrip(record: GameRecord) -> GameRecord:
    return GameRecord.from_json(json.loads(record.dumps()))


@pytest.mark.parametrize("players", PLAYERS)
@settings(max_examples=FEW)
@given(data_=st.data(), seed=SEEDS)
def test_same_seed_same_decisions_same_record(players: int, data_: st.DataObject, seed: int) -> None:
    """EG-31: same seed, options and decisions give the same record; a saved record replays
    with no RNG to the same final state, result, views and logs."""
    options = data_.draw(options_for(players))
    one, two = bot_match(players, seed, options), bot_match(players, seed, options)
    assert one.record.to_json() == two.record.to_json()
    assert len(one.record.entries) <= GAME.max_game_length(players)
    loaded = roundtrip(one.record)
    assert loaded.to_json() == one.record.to_json()
    final = replay(GAME, loaded)
    assert final == one.state
    assert GAME.result(final) == one.result()
    again = Match.from_record(GAME, loaded)
    assert again.state == one.state
    for p in (*range(players), None):
        assert again.view(p) == one.view(p)
        assert again.log(p) == one.log(p)


@pytest.mark.parametrize(("field", "words"), [("rules_version", "rules version"),
                                              ("data_version", "data version"), ("game", "record is for")])
def test_record_of_other_rules_or_data_is_refused(field: str, words: str) -> None:
    """A record made under another rules or data version (or for another game) is refused."""
    m = bot_match(3, 99, {"short_game": True})
    raw = m.record.to_json()
    raw[field] = "0-other"
    record = GameRecord.from_json(raw)
    with pytest.raises(RecordError, match=words):
        replay(GAME, record)
    with pytest.raises(RecordError):
        Match.from_record(GAME, record)


def test_record_with_an_illegal_entry_is_refused() -> None:
    """A tampered record (an entry that is not legal there) does not replay."""
    m = bot_match(3, 5, {"start_seat": 0, "short_game": True})
    raw = m.record.to_json()
    first = next(i for i, (a, _) in enumerate(raw["entries"]) if a != CHANCE)
    raw["entries"][first] = [raw["entries"][first][0], "place castillo"]
    with pytest.raises(RecordError, match="does not replay"):
        replay(GAME, GameRecord.from_json(raw))


@pytest.mark.parametrize("players", [3, 5])
@settings(max_examples=FEW)
@given(data_=st.data(), seed=SEEDS)
def test_stack_order_is_not_in_any_view(players: int, data_: st.DataObject, seed: int) -> None:
    """§5.1, §13: two games that share every entry up to a card reveal and then turn up
    different cards had equal states and equal views before it — the future order of the
    stacks exists nowhere; views carry only the unseen multiset (copies minus reveals)."""
    m = bot_match(players, seed, {"short_game": True})
    entries = m.record.entries
    state = GAME.new_initial_state(players, m.options)
    reveals = []
    for i, (actor, text) in enumerate(entries):
        if state.phase == REVEAL and len(GAME.chance_outcomes(state)) > 1:
            reveals.append(i)
        GAME.apply(state, actor, GAME.parse_action(state, actor, text))
    index = data_.draw(st.sampled_from(reveals))
    prefix = GameRecord.from_json({**m.record.to_json(), "result": None,
                                   "entries": [list(e) for e in entries[:index]]})
    before = replay(GAME, prefix)  # Match.from_record would go on sampling chance
    original = entries[index][1]
    other = next(a.to_text() for a, _ in GAME.chance_outcomes(before) if a.to_text() != original)
    alt_record = GameRecord.from_json({**prefix.to_json(), "entries": [*prefix.to_json()["entries"],
                                                                       [CHANCE, other]]})
    alt = Match.from_record(GAME, alt_record)
    alt.play_bots({p: UniformBot() for p in range(players)}, {p: Random(seed + p) for p in range(players)})
    assert alt.is_over()
    assert alt.record.entries[:index] == entries[:index] and alt.record.entries[index] != entries[index]
    twin = replay(GAME, GameRecord.from_json({**alt.record.to_json(), "result": None,
                                               "entries": [list(e) for e in alt.record.entries[:index]]}))
    assert twin == before
    for p in (*range(players), None):
        view = GAME.observe(before, p)
        assert view == GAME.observe(twin, p)
        pub, card = view.public, view.deciding.card
        seen = [0] * len(CARD_TYPES)
        for c in (*pub.offer, *pub.discard):
            seen[c] += 1
        for held in pub.veto:
            seen[VETO_CARD] += len(held)
        if card not in (-1, KING_CARD, VETO_CARD):
            seen[card] += 1
        expected = tuple(0 if t.stack == 5 else t.count - seen[i] for i, t in enumerate(CARD_TYPES))
        assert pub.unseen == expected


# ----------------------------------------------------------------------------- scenario leak checks


def test_power_card_taken_back_is_hidden() -> None:
    """EG-51: A played 13, 2 and 9 and takes one back with 4E: whichever value, B's, C's and a
    spectator's views and logs are identical; A's differ; others see 11 cards in A's hand and
    the candidates {2, 9, 13}."""
    s = scenario(players=3, round_index=2, power={0: 9, 1: 5, 2: 3})
    s.pile[0] = [13, 2, 9]
    s.power_log[0] = [13, 2, 9]
    s.hand[0] = FULL_HAND & ~(1 << 13 | 1 << 2 | 1 << 9)
    take(s, "4E")
    GAME.apply(s, 0, act(Kind.ACTION_FIRST))
    assert s.phase == TAKE_BACK
    outcomes = {}
    for v in (2, 9, 13):
        t = s.clone()
        events: list[Event] = []
        GAME.apply(t, 0, act(Kind.TAKE_BACK, v), events)
        outcomes[v] = (t, events)
    for viewer in (1, 2, None):
        views = {v: GAME.observe(t, viewer) for v, (t, _) in outcomes.items()}
        logs = {v: visible_log(ev, viewer) for v, (_, ev) in outcomes.items()}
        assert views[2] == views[9] == views[13]
        assert logs[2] == logs[9] == logs[13]
        assert views[2].public.hand_sizes[0] == 11
        if viewer is None:
            assert views[2].private is None
        assert views[2].public.takeback_candidates(0) == [(2, 9, 13)]
    own = {v: GAME.observe(t, 0) for v, (t, _) in outcomes.items()}
    assert own[2] != own[9] != own[13]
    assert own[2].public == own[9].public == own[13].public  # the difference is A's alone
    mine = own[2].private
    assert mine is not None and 2 in mine.hand and mine.taken_back == (2,)
    assert [t.order for t, _ in outcomes.values()] == [s.order] * 3  # §9.4: order unchanged


def test_committed_disk_is_hidden_until_the_reveal() -> None:
    """EG-48 / §8.5: two states that differ only in B's committed 4G pick give every other
    seat (and a spectator) the same view; both show that B has committed."""
    s = scenario(players=3, active=1, order=[1, 2, 0], power={1: 12, 2: 8, 0: 4})
    take(s, "4G")
    GAME.apply(s, 1, act(Kind.ACTION_FIRST))
    assert s.phase == PICK and GAME.to_act(s) == (1, 2, 0)
    states = []
    for r in (0, 4):
        t = s.clone()
        GAME.apply(t, 1, act(Kind.DISK, r))
        states.append(t)
    a, b = states
    assert GAME.to_act(a) == GAME.to_act(b) == (2, 0)
    for viewer in (0, 2, None):
        assert GAME.observe(a, viewer) == GAME.observe(b, viewer)
        assert GAME.observe(a, viewer).public.committed == (False, True, False)
    assert GAME.observe(a, 1) != GAME.observe(b, 1)
    # a state built to differ only in the committed pick (not through apply) gives the same
    c = a.clone()
    c.picks[1] = 7
    for viewer in (0, 2, None):
        assert GAME.observe(c, viewer) == GAME.observe(a, viewer)


# ----------------------------------------------------------------------------- bad input


def test_illegal_actions_leave_the_state_unchanged() -> None:
    """EG-02, EG-27: an illegal placement, a wrong seat, a chance outcome at a decision."""
    s = scenario(players=3, king="galicia", court={0: 5})
    take(s, "3B")
    GAME.apply(s, 0, act(Kind.PLACE_FIRST))
    before = s.clone()
    for player, action, code in [
        (0, act(Kind.PLACE, data.AREA_INDEX["galicia"]), ErrorCode.ILLEGAL),
        (0, act(Kind.PLACE, data.AREA_INDEX["aragon"]), ErrorCode.ILLEGAL),
        (1, act(Kind.PLACE, CASTILLO), ErrorCode.NOT_YOUR_TURN),
        (CHANCE, act(Kind.REVEAL, 0), ErrorCode.NOT_YOUR_TURN),
        (0, act(Kind.POWER, 3), ErrorCode.ILLEGAL),
    ]:
        with pytest.raises(IllegalActionError) as info:
            GAME.apply(s, player, action)
        assert info.value.code == code
        assert s == before


def test_nothing_is_accepted_after_the_end() -> None:
    m = bot_match(2, 3, {"short_game": True})
    s = m.state
    before = s.clone()
    for player, action in ((0, act(Kind.STOP)), (1, act(Kind.POWER, 1)), (CHANCE, act(Kind.REVEAL, 0))):
        with pytest.raises(IllegalActionError):
            GAME.apply(s, player, action)
    assert s == before


@pytest.mark.parametrize("text", [
    "", "fly", "place", "place madrid", "place galicia galicia", "move galicia x castillo",
    "take 6A", "power thirteen", "power 1234", "return attic", "tile 0", "king",
])
def test_malformed_action_text_is_refused(text: str) -> None:
    s = scenario()
    with pytest.raises(ActionParseError):
        GAME.parse_action(s, 0, text)


@pytest.mark.parametrize("options", [
    {"short_game": "maybe"}, {"short_game": 3}, {"start_seat": 4}, {"start_seat": -1},
    {"start_seat": "first"}, {"castillo_open": "perhaps"}, {"rounds": 9},
])
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        GAME.new_initial_state(4, options)
    with pytest.raises(OptionError):
        Match(GAME, ["a", "b", "c", "d"], options=options, seed=1)


@pytest.mark.parametrize("players", [1, 6])
def test_bad_player_count_is_refused(players: int) -> None:
    with pytest.raises(TableroError) as info:
        GAME.new_initial_state(players)
    assert info.value.code == ErrorCode.PLAYERS


def test_power_phase_offers_only_unplayed_values() -> None:
    """§6.2 at the first decision of a game: the start seat may play any of his 13 values."""
    s = GAME.new_initial_state(3, {"start_seat": 1})
    rng = Random(1)
    while GAME.to_act(s) == (CHANCE,):
        GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
    assert s.phase == POWER and GAME.to_act(s) == (1,)
    assert [a.a for a in GAME.legal_actions(s, 1)] == list(data.POWER_VALUES)
