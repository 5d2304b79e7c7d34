"""Don Carlo properties over random legal playouts (hypothesis; seeds are the strategy).

Every step of every playout is checked against invariants the spec guarantees (§2.1 family
composition, §3.2 legality, §5 scoring and hands, §5.3 K, §6 end, §7 majorities). Leaks are
tested as equality of views and logs, never by searching strings.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablero.core.errors import ActionParseError, ErrorCode, IllegalActionError, OptionError, RecordError
from tablero.core.events import Event, visible_log
from tablero.core.match import Match, bot_rng, replay
from tablero.core.messages import Message
from tablero.core.protocol import CHANCE
from tablero.core.record import GameRecord
from tablero.games.doncarlo import data
from tablero.games.doncarlo.actions import DRAWS, PLAYS, STARTS, Draw, Play
from tablero.games.doncarlo.rules import GAME
from tablero.games.doncarlo.setup import play, scenario
from tablero.games.doncarlo.state import BLOCKED_DRAW, DEAL, OVER, PLAY, REFILL, START, DonCarloState

from .helpers import UniformBot, legal_by_spec, used_texts

DEEP = os.environ.get("TABLERO_DEEP") == "1"
FEW = 400 if DEEP else 40
"""Examples for the heavier whole-match properties (the playouts use the profile's count)."""

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
OPTIONS = st.fixed_dictionaries({
    "majority_tie": st.sampled_from(data.TIE_RULES),
    "start_seat": st.one_of(st.just("random"), st.integers(0, 3)),
})
POW5 = tuple(5**v for v in range(7))


def fix_options(options: dict[str, object], players: int) -> dict[str, object]:
    start = options["start_seat"]
    return {**options, "start_seat": start if start == "random" else int(start) % players}  # type: ignore[call-overload]


# ----------------------------------------------------------------------------- invariants


def agent_cards(s: DonCarloState) -> list[list[int]]:
    cards = [[0] * 7 for _ in range(s.n)]
    for agents in s.agents:
        for seat, code in agents:
            for v in data.CODES[code]:
                cards[seat][v] += 1
    return cards


def check_step(s: DonCarloState) -> None:
    """Invariants that hold after every action (spec §2.1, §3.2, §5, §5.3, §5.4, §6)."""
    n = s.n
    cards = agent_cards(s)
    for p in range(n):
        # §2.1/§9: each family's 25 cards are in exactly one place
        assert [s.hand[p][v] + s.deck[p][v] + cards[p][v] for v in range(7)] == list(data.FAMILY_COUNTS)
        assert min(s.hand[p]) >= 0 and min(s.deck[p]) >= 0
        assert s.hand_size[p] == sum(s.hand[p]) and s.deck_size[p] == sum(s.deck[p])
        assert s.hand_key[p] == sum(c * POW5[v] for v, c in enumerate(s.hand[p]))
        # §5.3: K is part of the hand
        assert all(k <= h for k, h in zip(s.known[p], s.hand[p], strict=True))
        if s.out[p]:
            assert s.deck_size[p] == 0  # §5.4
    # §3.2 rule 4: no code is used twice; the used set is exactly the agents' codes
    codes = [code for agents in s.agents for _, code in agents]
    assert len(codes) == len(set(codes)) == s.plays
    assert {i for i, u in enumerate(s.used) if u} == set(codes)
    # §5.1 effects 2-3: scores recomputable from the table
    influence, bonus = [0] * n, [0] * n
    for c, agents in enumerate(s.agents):
        if agents:
            assert c in s.countries
        for position, (seat, code) in enumerate(agents, start=1):
            assert sum(data.CODES[code]) in data.COUNTRIES[c].sums
            influence[seat] += position
            bonus[seat] += data.code_bonus(data.CODES[code])
    assert s.influence == influence and s.bonus == bonus
    # §6: the game ends exactly when every seat is out
    actors = GAME.to_act(s)
    assert GAME.is_terminal(s) == all(s.out) == (s.phase == OVER)
    if actors and actors != (CHANCE,):
        assert all(not s.out[p] for p in actors)
    if s.phase == PLAY:
        p = s.turn
        assert actors == (p,)
        legal = {a.to_text() for a in GAME.legal_actions(s, p)}
        assert legal and legal == legal_by_spec(n, s.hand[p], used_texts(s))  # §3.2, §5.1
        assert all(isinstance(a, Play) for a in GAME.legal_actions(s, p))  # DC-22: no pass
        for q in range(n):  # §5.2: fewer than 4 cards only once the deck is exhausted
            assert s.hand_size[q] >= data.HAND_SIZE or s.deck_size[q] == 0
    elif s.phase == BLOCKED_DRAW:
        p = s.turn
        assert actors == (CHANCE,)
        assert not legal_by_spec(n, s.hand[p], used_texts(s)) and s.deck_size[p] > 0
        assert s.known[p] == s.hand[p]  # the whole hand is revealed and every draw was open
    if actors:
        assert s.country_points == [0] * n  # majority points only at the end (§7)


def check_end(s: DonCarloState) -> None:
    """§6, §7, §8 at the end of the game."""
    n = s.n
    assert all(s.out) and s.deck_size == [0] * n
    used = used_texts(s)
    for p in range(n):
        assert not legal_by_spec(n, s.hand[p], used)
    expected = [0] * n
    for c in s.countries:
        counts = Counter(seat for seat, _ in s.agents[c])
        if not counts:
            continue
        top = max(counts.values())
        leaders = [p for p in range(n) if counts[p] == top]
        pts = s.points[c]
        if len(leaders) > 1:
            pts = {"all_full": pts, "split_floor": pts // len(leaders), "none": 0}[s.tie_rule]
        for p in leaders:
            expected[p] += pts
    assert s.country_points == expected
    res = GAME.result(s)
    assert res is not None
    scores = [s.influence[p] + s.bonus[p] + expected[p] for p in range(n)]
    assert list(res.scores) == scores
    assert list(res.ranks) == [1 + sum(1 for o in scores if o > x) for x in scores]
    for p in (*range(n), None):
        view = GAME.observe(s, p)
        assert view.public.hands == tuple(tuple(v for v in range(7) for _ in range(s.hand[q][v])) for q in range(n))


# ----------------------------------------------------------------------------- leak checks


def check_view_parts(s: DonCarloState) -> None:
    """Issue 9's view shape: ``public`` and ``deciding`` are the same value for every viewer of
    a state (each seat and the spectator); ``private`` is the seat's own hand, None for the
    spectator."""
    views = [GAME.observe(s, p) for p in (*range(s.n), None)]
    assert all(v.public == views[0].public for v in views)
    assert all(v.deciding == views[0].deciding for v in views)
    assert views[-1].private is None
    for p, v in enumerate(views[:-1]):
        assert v.viewer == p and v.private is not None and v.private.seat == p
        assert v.private.hand == tuple(x for x in range(7) for _ in range(s.hand[p][x]))
    dumped = views[0].to_json()
    assert set(dumped) == {"viewer", "public", "private", "deciding"}
    assert all(v.to_json()["public"] == dumped["public"] for v in views)


def check_determinize(s: DonCarloState, rng: Random) -> None:
    """observe(determinize(observe(s, p), p), p) == observe(s, p), and the sample is a valid
    state the rules can go on from."""
    for p in range(s.n):
        view = GAME.observe(s, p)
        sample = GAME.determinize(view, p, rng)
        assert GAME.observe(sample, p) == view
        check_step(sample)
        actors = GAME.to_act(sample)
        if actors == (CHANCE,):
            GAME.apply(sample, CHANCE, GAME.sample_chance(sample, rng))
            check_step(sample)
        elif actors:
            legal = GAME.legal_actions(sample, actors[0])
            GAME.apply(sample, actors[0], legal[rng.randrange(len(legal))])
            check_step(sample)


def check_forced_step(s: DonCarloState, rng: Random) -> None:
    """Issue 9, forced-step timing: a play the driver applies at once (one legal code, not
    ``always_asked``) is one in every state another seat cannot tell from this one; and a seat
    is asked with one code only where its hand is not known to everyone."""
    if s.phase != PLAY:
        return
    p = s.turn
    legal = GAME.legal_actions(s, p)
    if GAME.always_asked(s, p):
        assert s.known[p] != s.hand[p] and s.deck_size[p] > 0
        return
    if len(legal) != 1:
        return
    for v in [q for q in range(s.n) if q != p]:
        for _ in range(2):
            sample = GAME.determinize(GAME.observe(s, v), v, rng)
            assert GAME.legal_actions(sample, p) == legal
            assert not GAME.always_asked(sample, p)


def check_state_json(s: DonCarloState, action: object, actor: int) -> None:
    """The state goes through JSON text and back equal, and play goes on from the copy exactly
    as from the original (same state, same events)."""
    back = GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(s))))
    assert back == s and type(back.used) is bytearray
    assert GAME.state_hash(back) == GAME.state_hash(s)
    one, two = s.clone(), back
    events_one: list[Event] = []
    events_two: list[Event] = []
    GAME.apply(one, actor, action, events_one)  # type: ignore[arg-type]
    GAME.apply(two, actor, action, events_two)  # type: ignore[arg-type]
    assert one == two and events_one == events_two


def check_redeal(s: DonCarloState, rng: Random) -> None:
    """A re-deal of what p cannot see (q's unknown hand cards vs q's deck) keeps p's view."""
    if s.phase == OVER:
        return
    for q in range(s.n):
        hidden = [v for v in range(7) if s.hand[q][v] > s.known[q][v]]
        if not hidden:
            continue
        v = rng.choice(hidden)
        others = [w for w in range(7) if s.deck[q][w] and w != v]
        if not others:
            continue
        w = rng.choice(others)
        t = s.clone()
        t.hand[q][v] -= 1
        t.hand[q][w] += 1
        t.deck[q][w] -= 1
        t.deck[q][v] += 1
        t.hand_key[q] += POW5[w] - POW5[v]
        t.touch()
        for p in (*range(s.n), None):
            if p != q:
                assert GAME.observe(t, p) == GAME.observe(s, p)
        assert GAME.observe(t, q) != GAME.observe(s, q)


def check_private_draw(s: DonCarloState) -> None:
    """A private draw of seat q (initial hand or refill): whatever value comes, every other seat
    sees the same log and the same view afterwards (unless the turn comes back round to q)."""
    if s.phase not in (DEAL, REFILL):
        return
    q = s.turn
    outcomes = []
    for v in range(7):
        if not s.deck[q][v]:
            continue
        t = s.clone()
        events: list[Event] = []
        GAME.apply(t, CHANCE, DRAWS[v], events)
        if t.phase == OVER or (t.turn == q and t.phase != DEAL):
            return  # q's own turn starts: whether he is blocked is public by rule (§5.3)
        outcomes.append((t, events))
    for p in (*range(s.n), None):
        if p == q:
            continue
        first_state, first_events = outcomes[0]
        for t, events in outcomes[1:]:
            assert visible_log(events, p) == visible_log(first_events, p)
            assert GAME.observe(t, p) == GAME.observe(first_state, p)


def check_refusals(s: DonCarloState, rng: Random) -> None:
    """Illegal input raises IllegalActionError and leaves the state unchanged (protocol apply)."""
    before = s.clone()
    attempts: list[tuple[int, object, str | None]] = []
    if s.phase == PLAY:
        p = s.turn
        legal = set(GAME.legal_actions(s, p))
        illegal = [a for a in PLAYS if a not in legal]
        for a in rng.sample(illegal, 3):
            attempts.append((p, a, None))
        attempts.append(((p + 1) % s.n, next(iter(legal)), "turn"))
        attempts.append((p, DRAWS[0], "not a play"))
        attempts.append((CHANCE, DRAWS[0], "turn"))
    elif s.phase == OVER:
        attempts.append((CHANCE, DRAWS[0], "over"))
        attempts.append((0, PLAYS[0], "over"))
    else:
        attempts.append((CHANCE, PLAYS[rng.randrange(len(PLAYS))], None))
        attempts.append((0, DRAWS[0], "cannot act now"))
        if s.phase != START:
            missing = [v for v in range(7) if not s.deck[s.turn][v]]
            if missing:
                attempts.append((CHANCE, DRAWS[rng.choice(missing)], "cannot be drawn"))
            attempts.append((CHANCE, STARTS[0], "cannot be drawn"))
    for player, action, words in attempts:
        with pytest.raises(IllegalActionError, match=words):
            GAME.apply(s, player, action)  # type: ignore[arg-type]
        assert s == before


# ----------------------------------------------------------------------------- transitions


def check_transition(before: DonCarloState, after: DonCarloState, player: int, action: object,
                     events: list[Event]) -> None:
    """One applied action: K (§5.3), turn order (§5), and the log as each seat sees it."""
    n = before.n
    p = before.turn
    revealed: set[int] = set()
    for e in events:
        if e.message.id == "dc.blocked.empty":
            q = int(e.message.get("seat"))  # type: ignore[arg-type]
            revealed.add(q)
            assert after.hand_size[q] == 0 and e.visible_to is None
        if e.message.id == "dc.blocked":
            q = int(e.message.get("seat"))  # type: ignore[arg-type]
            revealed.add(q)
            assert e.message.get("hand") == tuple(v for v in range(7) for _ in range(after.hand[q][v]))
            assert e.visible_to is None  # the reveal is public
    for q in range(n):
        if q in revealed:
            assert after.known[q] == after.hand[q]
        elif q != p:
            assert after.known[q] == before.known[q]
    if p not in revealed:
        if isinstance(action, Play):  # K - C, never below zero
            code = data.CODES[action.code]
            assert after.known[p] == [max(0, k - code.count(v)) for v, k in enumerate(before.known[p])]
        elif isinstance(action, Draw) and before.phase == BLOCKED_DRAW:  # drawn in the open
            assert after.known[p] == [k + (v == action.value) for v, k in enumerate(before.known[p])]
        elif before.phase in (DEAL, REFILL):  # a private draw adds nothing
            assert after.known[p] == before.known[p]
    # turn order: clockwise, skipping exactly the seats that are out
    if before.phase == START:
        assert after.turn == action.seat  # type: ignore[attr-defined]
    elif before.phase != DEAL and after.turn != p:
        q = (p + 1) % n
        while q != after.turn:
            assert after.out[q]
            q = (q + 1) % n
    # describe() tells each viewer what the log shows him
    for viewer in (*range(n), None):
        if viewer == player:
            continue
        shown = visible_log(events, viewer)
        assert shown and shown[0] == GAME.describe(before, player, action, viewer)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- playouts


def playout(players: int, seed: int, options: dict[str, object]) -> int:
    s = GAME.new_initial_state(players, options)
    rng = Random(seed)
    check_rng = Random(seed ^ 0x5EED)
    steps = 0
    check_step(s)
    while GAME.to_act(s):
        if steps % 23 == 7:
            check_determinize(s, check_rng)
            check_redeal(s, check_rng)
            check_refusals(s, check_rng)
        if steps % 5 == 0:
            check_private_draw(s)
        check_forced_step(s, check_rng)
        if steps % 3 == 0:
            check_view_parts(s)
        actors = GAME.to_act(s)
        before = s.clone()
        events: list[Event] = []
        if actors == (CHANCE,):
            outcomes = GAME.chance_outcomes(s)
            assert abs(sum(w for _, w in outcomes) - 1.0) < 1e-9
            action = GAME.sample_chance(s, rng)
            assert action in [a for a, _ in outcomes]
        else:
            legal = GAME.legal_actions(s, actors[0])
            action = legal[rng.randrange(len(legal))]
        if steps % 11 == 3:
            check_state_json(s, action, actors[0])
        GAME.apply(s, actors[0], action, events)
        steps += 1
        check_step(s)
        check_transition(before, s, actors[0], action, events)
    assert steps <= GAME.max_game_length(players)
    assert steps == 25 * players + s.plays + (1 if options["start_seat"] == "random" else 0)
    check_end(s)
    check_view_parts(s)
    check_determinize(s, check_rng)
    check_refusals(s, check_rng)
    return steps


@pytest.mark.parametrize("players", [2, 3, 4])
@given(seed=SEEDS, options=OPTIONS)
def test_random_playouts_keep_every_invariant(players, seed, options):
    """Random legal playouts: every family's 25 cards in one place, no code twice, scores
    recomputable, K within the hand, legal codes exactly §3.2, the end exactly when nobody can
    play, majorities by the tie rule, the record within max_game_length; views leak nothing."""
    playout(players, seed, fix_options(options, players))


@pytest.mark.parametrize("players", [2, 3, 4])
@given(seed=SEEDS)
@settings(max_examples=FEW)
def test_public_part_of_the_view_is_the_same_for_every_viewer(players, seed):
    """At every step of a playout (a blocked turn and the end included, where they come): each
    seat and the spectator get equal ``public`` and ``deciding`` parts; only ``private`` differs."""
    s = GAME.new_initial_state(players)
    rng = Random(seed)
    while GAME.to_act(s):
        check_view_parts(s)
        actors = GAME.to_act(s)
        if actors == (CHANCE,):
            GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
        else:
            legal = GAME.legal_actions(s, actors[0])
            GAME.apply(s, actors[0], legal[rng.randrange(len(legal))])
    check_view_parts(s)


# ----------------------------------------------------------------------------- matches and records


def bot_match(players: int, seed: int, options: dict[str, object]) -> Match:  # type: ignore[type-arg]
    m = Match(GAME, [f"P{i}" for i in range(players)], options=options, seed=seed)
    m.play_bots({p: UniformBot() for p in range(players)}, {p: bot_rng(seed, p) for p in range(players)})
    assert m.is_over()
    return m


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=FEW)
@given(seed=SEEDS, options=OPTIONS)
def test_same_seed_same_decisions_same_record(players, seed, options):
    """§4.1 / DC-25: same seed, options and decisions give the same record; a saved record
    (JSON) replays with no RNG to the same state and result."""
    options = fix_options(options, players)
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
        assert again.log(p) == one.log(p)
        assert again.view(p) == one.view(p)


def roundtrip(record: GameRecord) -> GameRecord:
    """A record saved as JSON text and read back."""
    return GameRecord.from_json(json.loads(record.dumps()))


@pytest.mark.parametrize(("field", "words"), [("rules_version", "rules version"),
                                              ("data_version", "data version"), ("game", "record is for")])
def test_record_of_other_rules_or_data_is_refused(field, words):
    """A record made under another rules or data version (or for another game) is refused."""
    m = bot_match(3, 99, {"start_seat": "random"})
    data_ = m.record.to_json()
    data_[field] = "0-other"
    record = GameRecord.from_json(data_)
    with pytest.raises(RecordError, match=words):
        replay(GAME, record)
    with pytest.raises(RecordError):
        Match.from_record(GAME, record)


def test_record_with_an_illegal_entry_is_refused():
    """A tampered record (an entry that is not legal there) does not replay."""
    m = bot_match(2, 5, {"start_seat": 0})
    data_ = m.record.to_json()
    first_play = next(i for i, (a, _) in enumerate(data_["entries"]) if a != CHANCE)
    data_["entries"][first_play] = [data_["entries"][first_play][0], "5/5/5"]
    with pytest.raises(RecordError, match="does not replay"):
        replay(GAME, GameRecord.from_json(data_))


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=FEW)
@given(seed=SEEDS, data_=st.data())
def test_private_draws_do_not_reach_other_logs(players, seed, data_):
    """Two matches that differ only in one private refill draw of seat q: every other seat's
    log (Match.log) and view are identical (unless the turn came back to q)."""
    m = bot_match(players, seed, {"start_seat": "random"})
    entries = m.record.entries
    state = GAME.new_initial_state(players, m.options)
    refills = []
    for i, (actor, text) in enumerate(entries):
        if state.phase == REFILL:
            refills.append((i, state.turn, [v for v in range(7) if state.deck[state.turn][v]]))
        GAME.apply(state, actor, GAME.parse_action(state, actor, text))
    refills = [r for r in refills if len(r[2]) > 1]
    if not refills:
        return
    index, q, values = data_.draw(st.sampled_from(refills))
    matches = []
    for v in values:
        prefix = [list(e) for e in entries[:index]] + [[CHANCE, f"draw {v}"]]
        record = GameRecord.from_json({**m.record.to_json(), "result": None, "entries": prefix})
        alt = Match.from_record(GAME, record)
        if alt.is_over() or q in {a for a, _ in alt.record.entries[index + 1:]} or alt.state.turn == q:
            return
        matches.append(alt)
    for p in (*range(players), None):
        if p == q:
            continue
        assert all(alt.log(p) == matches[0].log(p) for alt in matches)
        assert all(alt.view(p) == matches[0].view(p) for alt in matches)
    for v, alt in zip(values, matches, strict=True):  # q himself sees his card
        assert alt.log(q, since=index)[0] == Message("dc.draw", seat=q, value=v)


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("code", "words"), [
    ("2/3", "used already"),  # used by B
    ("4/4", "not all in the hand"),
    ("6", "not all in the hand"),
    ("0/0", "digit sum 0"),
    ("1/1/2", "digit sum 4"),  # no Abstrusien with 3 players
])
def test_illegal_plays_are_refused_with_a_reason(code, words):
    """§3.2: a used code, cards not in the hand, a sum no country in play accepts are refused
    with a clear message; the state is unchanged."""
    s = scenario(3, hands={0: [0, 0, 1, 1, 2, 3, 4]}, agents={"abrakadabria": [(1, "2/3")]})
    before = s.clone()
    with pytest.raises(IllegalActionError, match=words) as info:
        GAME.apply(s, 0, play(code))
    assert info.value.code == ErrorCode.ILLEGAL
    assert code in str(info.value)
    assert s == before


def test_wrong_seat_draw_at_play_and_play_at_chance_are_refused():
    """Only the active seat plays; a Draw is no play; a Play is no chance outcome; a value not in
    the deck cannot be drawn — each refused, the state unchanged."""
    s = scenario(hands={0: [1, 2, 3, 4]})
    before = s.clone()
    with pytest.raises(IllegalActionError, match="seat 0's turn") as info:
        GAME.apply(s, 1, play("1/2"))
    assert info.value.code == ErrorCode.NOT_YOUR_TURN
    with pytest.raises(IllegalActionError, match="not a play"):
        GAME.apply(s, 0, DRAWS[1])
    with pytest.raises(IllegalActionError):
        GAME.apply(s, CHANCE, DRAWS[1])
    assert s == before
    s = scenario(hands={0: [6, 6, 1, 2]})
    GAME.apply(s, 0, play("1/2"))
    before = s.clone()
    with pytest.raises(IllegalActionError, match="cannot act now"):
        GAME.apply(s, 0, play("6/6"))
    with pytest.raises(IllegalActionError, match="cannot be drawn"):
        GAME.apply(s, CHANCE, play("1/2"))
    with pytest.raises(IllegalActionError, match="cannot be drawn"):
        GAME.apply(s, CHANCE, DRAWS[6])  # both 6s are in the hand
    assert s == before


def test_nothing_is_accepted_after_the_end():
    """Once the game is over every action is refused."""
    s = scenario(2, hands={0: [], 1: []}, decks={0: [], 1: []})
    assert s.phase == OVER
    before = s.clone()
    for player, action in ((0, play("1")), (CHANCE, DRAWS[0]), (CHANCE, STARTS[0])):
        with pytest.raises(IllegalActionError, match="over"):
            GAME.apply(s, player, action)
    assert s == before


@pytest.mark.parametrize("text", ["1/1/1/1/1", "7", "abc", "", "draw 9", "start x", "0/0/0/0/0"])
def test_malformed_action_text_is_refused(text):
    """Text that names no code (more than 4 cards, a value above 6, not numbers, nothing) is an
    ActionParseError."""
    s = scenario()
    with pytest.raises(ActionParseError):
        GAME.parse_action(s, 0, text)


@pytest.mark.parametrize(("text", "code"), [("4/1/1", "1/1/4"), (" 1/4/1 ", "1/1/4"), ("0", "0"),
                                            ("6/5/4/3", "3/4/5/6")])
def test_codes_are_read_in_any_order(text, code):
    """§3.1: the order in which the cards are picked does not matter."""
    action = GAME.parse_action(scenario(), 0, text)
    assert isinstance(action, Play) and action.to_text() == code


@pytest.mark.parametrize("options", [
    {"start_seat": 9},
    {"start_seat": "9"},
    {"start_seat": -1},
    {"majority_tie": "foo"},
    {"country_points": "nowhere:3"},
    {"country_points": {"nowhere": 3}},
    {"country_points": {"protzland": -1}},
    {"colour": "red"},
])
def test_bad_options_are_refused(options):
    """§10: a start seat outside the table, an unknown tie rule, an unknown country, negative
    points and unknown options are OptionErrors."""
    with pytest.raises(OptionError):
        GAME.new_initial_state(4, options)
    with pytest.raises(OptionError):
        Match(GAME, ["a", "b", "c", "d"], options=options, seed=1)


def test_start_seat_must_exist_for_the_player_count():
    """§10: start_seat is 0…N-1."""
    with pytest.raises(OptionError):
        GAME.new_initial_state(2, {"start_seat": 2})
    assert GAME.new_initial_state(2, {"start_seat": 1}).start_option == 1


def test_country_points_from_text():
    """§10: country_points read from text; countries left out keep their defaults."""
    opts = GAME.resolve_options(4, {"country_points": "protzland:9, land_8=2"})
    assert opts["country_points"] == {"egoistrien": 3, "abstrusien": 4, "abrakadabria": 5,
                                      "absurdistan": 6, "protzland": 9, "land_8": 2, "schwadronien": 10}


def test_chance_outcomes_are_weighted_by_copies():
    """§4.1: a draw's outcomes are the distinct values left in the deck, weighted by copies."""
    s = scenario(hands={0: [1, 2, 3, 4]})
    GAME.apply(s, 0, play("1/2/3/4"))
    outcomes = dict(GAME.chance_outcomes(s))
    assert outcomes == {Draw(v): c / 21 for v, c in enumerate((4, 3, 3, 3, 3, 3, 2))}
