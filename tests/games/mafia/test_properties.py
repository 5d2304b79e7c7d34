"""Mafia Legend properties over random legal playouts (hypothesis; seeds are the strategy).

Every step of every playout (3 and 4 players; beginner, advanced, advanced with missions; seats
played by random or greedy bots) is checked against invariants of the spec: every card in
exactly one place (§3, §18.3), VP ≥ 0 and VP changes equal to the logged VP (§12, §15), discs
only spent (§7.3), one attack card per attack field and the field caps (§4), the end at the
goal or after December (§15). Whole matches are deterministic and replay. Illegal actions,
malformed texts and bad options are refused without changing anything. Leaks are tested as
equality of views (§17, MA-24), never by searching strings.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterator
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablero.bots import make_bot
from tablero.bots.heuristics.mafia import GreedyMafia
from tablero.core.errors import ActionParseError, ErrorCode, IllegalActionError, OptionError, TableroError
from tablero.core.events import Event
from tablero.core.match import Match, bot_rng, replay
from tablero.core.protocol import CHANCE
from tablero.games.mafia import data
from tablero.games.mafia.actions import act, parse
from tablero.games.mafia.data import ACTIONS, MONEY
from tablero.games.mafia.engine import mission_ok
from tablero.games.mafia.rules import GAME
from tablero.games.mafia.setup import DEFAULT_FAMILIES, scenario
from tablero.games.mafia.state import SEEN_BY_ALL, MafiaState

A, B, C, D = range(4)

DEEP = os.environ.get("TABLERO_DEEP") == "1"
EXAMPLES = 150 if DEEP else 15
"""Random playouts per setting."""
FEW = 30 if DEEP else 4
"""Examples for the whole-match properties (records, replays)."""

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
SETTINGS: list[tuple[int, dict[str, object]]] = [
    (3, {"variant": "beginner"}),
    (3, {"variant": "advanced"}),
    (3, {"variant": "advanced", "missions": True}),
    (4, {"variant": "beginner"}),
    (4, {"variant": "advanced"}),
    (4, {"variant": "advanced", "missions": True}),
]
SETTING_IDS = [f"{n}p-{o['variant']}{'-missions' if o.get('missions') else ''}" for n, o in SETTINGS]


# ----------------------------------------------------------------------------- card counts
def _add(out: Counter[str], cards: Any) -> None:
    if isinstance(cards, dict):
        out.update(cards)
    else:
        out.update(cards)


def action_total(variant: str) -> Counter[str]:
    return Counter({c.id: c.count for c in data.ACTION_CARDS
                    if variant == "advanced" or c.id not in data.BEGINNER_REMOVED})


def action_cards(s: MafiaState) -> Counter[str]:
    out: Counter[str] = Counter()
    _add(out, s.decks["A"])
    for q in range(s.n):
        _add(out, s.hand_a[q])
        for f in s.fields[q]:
            _add(out, [sl.card for sl in f if sl.card in ACTIONS])
        x = s.atk[q]
        if x is not None and not x.is_disc:
            _add(out, [x.card] + ([x.defence] if x.defence else []))
    _add(out, s.disc_a)
    return out


def money_cards(s: MafiaState) -> Counter[str]:
    out: Counter[str] = Counter()
    _add(out, s.decks["M"])
    for q in range(s.n):
        _add(out, s.hand_m[q])
        _add(out, s.screen[q])
        for f in s.fields[q]:
            _add(out, [sl.card for sl in f if sl.card in MONEY])
    _add(out, s.disc_m)
    return out


def check_cards(s: MafiaState) -> None:
    assert action_cards(s) == action_total(s.variant)
    assert money_cards(s) == Counter(data.MONEY_COUNTS)
    assert sum(money_cards(s).values()) == 48
    chars: Counter[str] = Counter(s.decks["C"])
    chars.update(c for c in s.row if c)
    for q in range(s.n):
        chars.update(s.chars[q])
    chars.update(s.disc_c)
    expected = {c.id for c in data.CHARACTERS if s.n == 4 or not c.four_only}
    assert len(expected) == (40 if s.n == 4 else 30)
    assert chars == Counter(expected)
    jobs: Counter[str] = Counter(s.decks["J"])
    jobs.update([s.job] if s.job else [])
    for q in range(s.n):
        jobs.update(s.jobs_done[q])
    jobs.update(s.job_bottom)
    assert jobs == Counter(j.id for j in data.JOBS)
    assert sum(jobs.values()) == 18
    # every multiset holds positive counts only
    for zone in [s.disc_a, s.disc_m, *s.hand_a, *s.hand_m, *s.screen, *s.decks.values()]:
        assert all(k > 0 for k in zone.values()), zone


def check_board(s: MafiaState, before: MafiaState) -> None:
    for q in range(s.n):
        assert s.vp[q] >= 0
        assert 0 <= s.discs[q] <= before.discs[q] <= data.DISCS
        assert len(s.fields[q][0]) <= data.JOB_CAP
        assert all(len(f) <= data.CHAR_CAP for f in s.fields[q][1:])
        x = s.atk[q]
        if x is not None and not x.is_disc:
            card = ACTIONS[x.card]
            assert card.kind == "attack" and x.attacker != q  # one attack card, by an opponent
            if x.defence:
                assert ACTIONS[x.defence].kind == "defence" and card.symbol in ACTIONS[x.defence].covers
    assert 1 <= s.month <= data.MONTHS


def logged_vp(events: list[Event], n: int) -> list[int]:
    out = [0] * n
    for e in events:
        m = e.message
        if m.id in ("ml.job_done", "ml.gift", "ml.set", "ml.power_vp", "ml.monthly_bonus"):
            out[int(m.get("seat"))] += int(m.get("vp"))  # type: ignore[arg-type]
        elif m.id == "ml.scandal":
            out[int(m.get("target_seat"))] -= int(m.get("loss"))  # type: ignore[arg-type]
            out[int(m.get("seat"))] += int(m.get("gain"))  # type: ignore[arg-type]
        elif m.id == "ml.discards":
            out[int(m.get("seat"))] -= int(m.get("vp"))  # type: ignore[arg-type]
    return out


def check_end(s: MafiaState) -> None:
    qualified = [q for q in range(s.n) if s.vp[q] >= s.goal and mission_ok(s, q)]
    if not s.over:
        assert not qualified
        assert s.actors
        return
    assert s.winners is not None
    if qualified:
        assert set(s.winners) <= set(qualified) and s.winners
    else:
        assert s.month == data.MONTHS  # only December can end without the goal
        assert set(s.winners) <= {q for q in range(s.n) if mission_ok(s, q)}
        if not s.missions:
            assert s.winners


# ----------------------------------------------------------------------------- playouts
Hook = Callable[[MafiaState, Random], None]


def playout(players: int, options: dict[str, object], seed: int, greedy: tuple[bool, ...],
            check: bool = True, hook: Hook | None = None) -> Iterator[MafiaState]:
    """Play one game with random/greedy seats through GAME directly, checking every step."""
    rng = Random(seed)
    s = GAME.new_initial_state(players, options)
    bots = [GreedyMafia() if g else None for g in greedy]
    steps = 0
    limit = GAME.max_game_length(players)
    while not s.over:
        actors = GAME.to_act(s)
        assert actors
        actor = actors[0]
        if actor == CHANCE:
            a = GAME.sample_chance(s, rng)
        else:
            legal = GAME.legal_actions(s, actor)
            assert legal
            bot = bots[actor]
            a = bot.choose(GAME.observe(s, actor), legal, rng) if bot is not None and len(legal) > 1 \
                else legal[rng.randrange(len(legal))]
        before = s.clone() if check else s
        events: list[Event] = []
        GAME.apply(s, actor, a, events)
        steps += 1
        assert steps <= limit
        if check:
            gained = logged_vp(events, players)
            assert [s.vp[q] - before.vp[q] for q in range(players)] == gained, (a, events)
            check_cards(s)
            check_board(s, before)
            check_end(s)
        if hook is not None:
            hook(s, rng)
        yield s


@pytest.mark.parametrize(("players", "options"), SETTINGS, ids=SETTING_IDS)
@settings(max_examples=EXAMPLES)
@given(seed=SEEDS, greedy=st.lists(st.booleans(), min_size=4, max_size=4))
def test_invariants_every_step(players: int, options: dict[str, object], seed: int, greedy: list[bool]) -> None:
    states = list(playout(players, options, seed, tuple(greedy[:players])))
    last = states[-1]
    assert last.over
    res = GAME.result(last)
    assert res is not None and res.declared_winners == last.winners


# ----------------------------------------------------------------------------- whole matches
@pytest.mark.parametrize(("players", "options"), SETTINGS, ids=SETTING_IDS)
@settings(max_examples=FEW)
@given(seed=SEEDS, names=st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4))
def test_match_is_deterministic_and_replays(players: int, options: dict[str, object], seed: int,
                                            names: list[str]) -> None:
    seats = names[:players]
    records = []
    for _ in range(2):
        m = Match(GAME, seats, options=options, seed=seed)
        bots = {p: make_bot(n, GAME.id) for p, n in enumerate(seats)}
        m.play_bots(bots, {p: bot_rng(seed, p) for p in bots})
        assert m.is_over()
        records.append(m.record)
        assert replay(GAME, m.record) == m.state
        rebuilt = Match.from_record(GAME, m.record)
        assert rebuilt.state == m.state
    assert records[0].entries == records[1].entries
    assert records[0].result == records[1].result


# ----------------------------------------------------------------------------- refusals
def _wrong_actions(s: MafiaState, p: int) -> list[Any]:
    """Actions that are not legal for ``p`` now (a sample of every kind)."""
    legal = set(GAME.legal_actions(s, p))
    candidates = [
        act("end_plays"), act("disc", "protect"), act("disc", "ashtray_money"), act("job_attempt"),
        act("play", "A04", "hand", f"atk:{p}"), act("play", "G5", "screen", "job"),
        act("play", "D01", "hand", "k1"), act("play", "T01", "hand", "k9"), act("raid", "k1"),
        act("defend", "D05"), act("politik", 9), act("family", "nobody"), act("a_draw", "maybe"),
        act("to_hand", "G5"), act("spitzel_take", "k1", "G1", "screen"),
    ]
    return [a for a in candidates if a not in legal]


@pytest.mark.parametrize(("players", "options"), SETTINGS[:2] + SETTINGS[4:5], ids=SETTING_IDS[:2] + SETTING_IDS[4:5])
@settings(max_examples=max(3, EXAMPLES // 5))
@given(seed=SEEDS)
def test_illegal_actions_change_nothing(players: int, options: dict[str, object], seed: int) -> None:
    tried = 0

    def hook(s: MafiaState, rng: Random) -> None:
        nonlocal tried
        if s.over or rng.random() > 0.05:
            return
        actor = GAME.to_act(s)[0]
        keep = s.clone()
        if actor != CHANCE:
            for a in _wrong_actions(s, actor):
                with pytest.raises(IllegalActionError):
                    GAME.apply(s, actor, a)
                assert s == keep
            other = (actor + 1) % s.n
            if other not in GAME.to_act(s):
                legal = GAME.legal_actions(keep, actor)
                with pytest.raises(IllegalActionError) as info:
                    GAME.apply(s, other, legal[0])
                assert info.value.code == ErrorCode.NOT_YOUR_TURN
                assert s == keep
            with pytest.raises(IllegalActionError):
                GAME.apply(s, CHANCE, act("draw", "G1"))
        else:
            with pytest.raises(IllegalActionError):
                GAME.apply(s, CHANCE, act("roll", 99))
            assert s == keep
        tried += 1

    for _ in playout(players, options, seed, (False,) * players, check=False, hook=hook):
        pass
    assert tried > 0


@pytest.mark.parametrize("text", ["", "   ", "bogus", "play A04 hand atk:2;", "disc prot$ect",
                                  "play " + "X" * 30, "end-plays"])
def test_malformed_text_is_a_parse_error(text: str) -> None:
    with pytest.raises(ActionParseError):
        parse(text)
    s = GAME.new_initial_state(3)
    with pytest.raises(ActionParseError):
        GAME.parse_action(s, 0, text)


def test_wire_texts_round_trip() -> None:
    for players, options in SETTINGS[:2]:
        s = GAME.new_initial_state(players, options)
        rng = Random(5)
        for _ in range(400):
            if s.over:
                break
            actor = GAME.to_act(s)[0]
            if actor == CHANCE:
                a = GAME.sample_chance(s, rng)
            else:
                legal = GAME.legal_actions(s, actor)
                for x in legal:
                    assert parse(x.to_text()) == x
                a = legal[rng.randrange(len(legal))]
            GAME.apply(s, actor, a)


@pytest.mark.parametrize("options", [
    {"missions": True, "variant": "beginner"},
    {"families": "moretti,rinaldi,nobody"},
    {"families": "moretti,moretti,orsini"},
    {"families": "moretti,rinaldi"},
    {"variant": "expert"},
    {"start_seat": 7},
    {"bonus_basis": "ever"},
    {"colour": "red"},
])
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        GAME.new_initial_state(3, options)
    with pytest.raises(OptionError):
        Match(GAME, ["random"] * 3, options=options, seed=1)


@pytest.mark.parametrize("players", [3, 4])
def test_families_given_in_seat_order(players: int) -> None:
    """The lobby's choice "given in seat order": no family choice, seat A leads Moretti, B Rinaldi, …"""
    s = GAME.new_initial_state(players, {"families": "seats", "start_seat": 0})
    assert tuple(s.family) == data.FAMILIES[:players]
    assert GAME.resolve_options(players, {"families": "seats"})["families"] == data.FAMILIES[:players]


@pytest.mark.parametrize("players", [2, 5])
def test_player_count_is_refused(players: int) -> None:
    # the framework refuses a player count as a TableroError with the code PLAYERS (as for every game)
    with pytest.raises(TableroError) as info:
        GAME.new_initial_state(players)
    assert info.value.code == ErrorCode.PLAYERS


# ----------------------------------------------------------------------------- leaks (§17)
def _swap_hand_card(s: MafiaState, q: int, rng: Random) -> MafiaState | None:
    """A copy of ``s`` where one card of seat q's hand (or screen) is swapped with a different
    card of the same kind from its deck."""
    t = s.clone()
    zones: list[tuple[dict[str, int], dict[str, int]]] = []
    if t.hand_a[q] and t.decks["A"]:
        zones.append((t.hand_a[q], t.decks["A"]))
    if t.hand_m[q] and t.decks["M"]:
        zones.append((t.hand_m[q], t.decks["M"]))
    if t.screen[q] and t.decks["M"]:
        zones.append((t.screen[q], t.decks["M"]))
    rng.shuffle(zones)
    for hand, deck in zones:
        pairs = [(c, d) for c in sorted(hand) for d in sorted(deck) if c != d]
        if pairs:
            c, d = pairs[rng.randrange(len(pairs))]
            for zone, out_, in_ in ((hand, c, d), (deck, d, c)):
                zone[out_] -= 1
                if not zone[out_]:
                    del zone[out_]
                zone[in_] = zone.get(in_, 0) + 1
            return t
    return None


def _swap_grid_back(s: MafiaState, rng: Random) -> tuple[MafiaState, int] | None:
    """MA-24: a face-down card from a hand in a character field is exchanged with a card of the
    other kind (money for an action card, or back) from its owner's hand, so hand sizes and deck
    sizes stay the same; returns the copy and the mask of seats that saw the card."""
    spots = []
    for q in range(s.n):
        for f in range(1, 5):
            for i, sl in enumerate(s.fields[q][f]):
                if sl.source != "H" or sl.seen_by == SEEN_BY_ALL:
                    continue
                if sl.card in MONEY:
                    other = [c for c in sorted(s.hand_a[q]) if ACTIONS[c].kind != "defence"]
                else:
                    other = sorted(s.hand_m[q])
                if other:
                    spots.append((q, f, i, other))
    if not spots:
        return None
    q, f, i, other = spots[rng.randrange(len(spots))]
    t = s.clone()
    slot = t.fields[q][f][i]
    old, new = slot.card, other[rng.randrange(len(other))]
    src, dst = (t.hand_a[q], t.hand_m[q]) if old in MONEY else (t.hand_m[q], t.hand_a[q])
    src[new] -= 1
    if not src[new]:
        del src[new]
    dst[old] = dst.get(old, 0) + 1
    t.fields[q][f][i] = slot._replace(card=new)
    return t, slot.seen_by


@pytest.mark.parametrize(("players", "options"), SETTINGS, ids=SETTING_IDS)
@settings(max_examples=max(3, EXAMPLES // 3))
@given(seed=SEEDS)
def test_other_hands_and_grid_backs_do_not_leak(players: int, options: dict[str, object], seed: int) -> None:
    counts = {"hand": 0, "grid": 0}

    def hook(s: MafiaState, rng: Random) -> None:
        if s.over or rng.random() > 0.1:
            return
        viewer = rng.randrange(s.n)
        q = (viewer + 1 + rng.randrange(s.n - 1)) % s.n
        t = _swap_hand_card(s, q, rng)
        if t is not None:
            assert GAME.observe(t, viewer) == GAME.observe(s, viewer)
            assert GAME.observe(t, q) != GAME.observe(s, q)
            counts["hand"] += 1
        g = _swap_grid_back(s, rng)
        if g is not None:
            t2, mask = g
            blind = [v for v in range(s.n) if not mask >> v & 1]
            for v in blind:
                assert GAME.observe(t2, v) == GAME.observe(s, v)
            assert GAME.observe(t2, None) == GAME.observe(s, None)
            counts["grid"] += 1

    for _ in playout(players, options, seed, (False,) * players, check=False, hook=hook):
        pass
    assert counts["hand"] > 0


def test_ma24_money_or_action_back_looks_the_same() -> None:
    """Seeded search for a hand back in a character field; swapping its kind changes no other view."""
    found = 0
    for seed in range(20):
        def hook(s: MafiaState, rng: Random) -> None:
            nonlocal found
            g = _swap_grid_back(s, rng)
            if g is None or s.over:
                return
            t, mask = g
            for v in range(s.n):
                if not mask >> v & 1:
                    assert GAME.observe(t, v) == GAME.observe(s, v)
            found += 1

        for _ in playout(3, {"variant": "advanced"}, seed, (False, False, False), check=False, hook=hook):
            if found > 50:
                return
    assert found > 0


# ----------------------------------------------------------------------------- positions, spaces, views
@pytest.mark.parametrize(("players", "options"), SETTINGS, ids=SETTING_IDS)
@settings(max_examples=max(2, EXAMPLES // 5))
@given(seed=SEEDS)
def test_state_json_round_trip_and_replay_goes_on_the_same(players: int, options: dict[str, object],
                                                             seed: int) -> None:
    """A state through JSON text comes back equal, and play from the copy goes on exactly as from
    the original (the same chance outcomes and choices give the same states)."""
    checked = 0

    def hook(s: MafiaState, rng: Random) -> None:
        nonlocal checked
        if s.over or rng.random() > 0.03:
            return
        back = GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(s))))
        assert back == s and GAME.state_hash(back) == GAME.state_hash(s)
        a, b = s.clone(), back
        ra, rb = Random(checked), Random(checked)
        for _ in range(60):
            if a.over:
                break
            p = GAME.to_act(a)[0]
            assert GAME.to_act(b)[0] == p and GAME.legal_actions(a, p) == GAME.legal_actions(b, p)
            x = GAME.sample_chance(a, ra) if p == CHANCE else GAME.legal_actions(a, p)[ra.randrange(
                len(GAME.legal_actions(a, p)))]
            y = GAME.sample_chance(b, rb) if p == CHANCE else GAME.legal_actions(b, p)[rb.randrange(
                len(GAME.legal_actions(b, p)))]
            assert x == y
            GAME.apply(a, p, x)
            GAME.apply(b, p, y)
            assert a == b
        checked += 1

    for _ in playout(players, options, seed, (False,) * players, check=False, hook=hook):
        pass


def test_action_spaces_are_fixed_and_legal_actions_sorted() -> None:
    """Every legal action and chance outcome has its index in the fixed spaces (the reroll subsets
    of at most MAX_DICE dice bound the only open-ended action), listed in index order."""
    assert [GAME.action_codec(n).size for n in (3, 4)] == [724, 763]
    assert [GAME.chance_codec(n).size for n in (3, 4)] == [133, 134]
    assert sum(1 for a in GAME.action_codec(4).actions if a.kind == "reroll") == 2 ** data.MAX_DICE - 1
    for players, options in SETTINGS:
        seen = 0

        def hook(s: MafiaState, rng: Random) -> None:
            nonlocal seen
            for p in GAME.to_act(s):
                if p == CHANCE:
                    codec = GAME.chance_codec(s.n)
                    index = [codec.encode(a) for a, _ in GAME.chance_outcomes(s)]
                else:
                    codec = GAME.action_codec(s.n)
                    index = [codec.encode(a) for a in GAME.legal_actions(s, p)]
                    for a in GAME.legal_actions(s, p):
                        assert json.loads(json.dumps(a.to_json()))["kind"] == a.kind
                assert index == sorted(set(index))
                seen += 1

        for _ in playout(players, options, 11, (False,) * players, check=False, hook=hook):
            pass
        assert seen > 100


def test_public_part_of_every_view_is_the_same() -> None:
    """The public part of a view is what everyone sees: equal for every seat and the spectator;
    the private part is the seat's own (none for spectators)."""
    checked = 0

    def hook(s: MafiaState, rng: Random) -> None:
        nonlocal checked
        spectator = GAME.observe(s, None)
        assert spectator.private is None
        for v in range(s.n):
            view = GAME.observe(s, v)
            assert view.public == spectator.public and view.deciding == spectator.deciding
            assert view.private is not None and view.private.seat == v
        checked += 1

    for _ in playout(4, {"variant": "advanced", "missions": True}, 3, (True, False, True, False),
                     check=False, hook=hook):
        pass
    assert checked > 100


def test_a_match_starts_from_a_scenario_position() -> None:
    """``Match.from_state`` starts from a built position; its record (with the position as its
    setup header) replays with no RNG to the same end."""
    s = scenario(hands={A: ["A04", "T01", "G2"]}, screens={B: ["G5"]}, grid={D: {"k1": ["G5", "S:G2"]}},
                 month=11, vp={A: 40, B: 44})
    m = Match.from_state(GAME, s, ["greedy"] * 4, options={"start_seat": 0, "families": ",".join(DEFAULT_FAMILIES)},
                         seed=5)
    bots = {p: make_bot("greedy", GAME.id) for p in range(4)}
    m.play_bots(bots, {p: bot_rng(5, p) for p in range(4)})
    assert m.is_over() and m.record.setup is not None
    assert replay(GAME, m.record) == m.state
    assert Match.from_record(GAME, m.record).state == m.state
