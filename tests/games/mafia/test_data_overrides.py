"""Mafia Legend data overrides (``--data NAME=VALUE``): the specs, what an override changes in the
rules, records that carry and replay them, state JSON, views and the refusal of bad values."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest

from tablero.bots.heuristics.mafia import GreedyMafia
from tablero.core.errors import DataError
from tablero.core.match import Match
from tablero.core.protocol import CHANCE, DATA_OPTION, data_json
from tablero.core.record import GameRecord
from tablero.games.mafia import data
from tablero.games.mafia.rules import GAME
from tablero.games.mafia.setup import at_month_end, scenario
from tablero.games.mafia.state import Decision, MafiaState

from .helpers import asked, do

A, B, C, D = range(4)
NAMES = ("Ana", "Ben", "Cleo", "Dora")


def _default_of(name: str) -> object:
    """The data module's own value of a spec's name (the documented default)."""
    parts = name.split(".")
    if len(parts) == 1:
        return getattr(data, name)
    table, row, field = parts
    if table == "MONEY":
        return data.MONEY_COUNTS[row]
    tables: dict[str, Any] = {"ACTIONS": data.ACTIONS, "CHARACTERS": data.CHARS, "JOBS": data.JOBS_BY_ID,
                              "POWERS": {p.id: p for p in data.POWERS}}
    value = getattr(tables[table][row], field)
    if value is None:  # a "—" (cannot be bribed / blackmailed)
        return data.NOT_BRIBABLE
    return int(value)


# ----------------------------------------------------------------------------- the specs
def test_every_spec_default_is_the_data_modules_value() -> None:
    assert GAME.data_specs == data.DATA_SPECS
    for spec in data.DATA_SPECS:
        assert spec.default == _default_of(spec.name), spec.name
        d = spec.default
        values: list[int] = sorted(d) if isinstance(d, frozenset) else [d] if isinstance(d, int) else list(d)
        assert spec.low is not None and spec.high is not None, spec.name
        assert all(spec.low <= v <= spec.high for v in values), spec.name
        assert spec.source in ("R", "single source"), spec.name
    names = {d.name for d in data.DATA_SPECS}
    assert {"GOAL", "BEGINNER_GOAL", "PAYDAY_MONTHS", "ACTIONS.A04.fist", "CHARACTERS.S2.bribe", "JOBS.J05.ep",
            "POWERS.POL.threshold", "MONEY.G5.count"} <= names
    # the action and chance codecs stay fixed for every option: no spec may change them
    assert not names & {"PLAYERS", "DIE_SIDES", "CHAR_COLUMNS"}
    assert data.DATA_SPECS_BY_NAME["MAX_DICE"].high == data.MAX_DICE


def test_tables_without_overrides_are_the_modules() -> None:
    t = data.tables({})
    assert t is data.DEFAULT and t.overrides == {}
    assert t.ACTIONS is data.ACTIONS and t.CHARS is data.CHARS and t.GOAL == data.GOAL
    for name in data.CONSTANT_NAMES:
        assert getattr(t, name) == getattr(data, name), name
    # one shared object per set of overrides, equal by its overrides
    a = data.tables({"GOAL": 60, "JOBS.J05.ep": 9})
    assert a is data.tables({"JOBS.J05.ep": 9, "GOAL": 60}) and a != data.DEFAULT
    assert a.JOBS_BY_ID["J05"].ep == 9 and a.JOBS_BY_ID["J06"] is data.JOBS_BY_ID["J06"]
    with pytest.raises(AttributeError):
        a.GOAL = 1


# ----------------------------------------------------------------------------- what overrides change
def _job_to_the_goal(vp: int, **kw: Any) -> MafiaState:
    """A (``vp`` VP) completes J05 (+5 VP) by its tags on the own turn."""
    s = scenario(3, vp={A: vp}, hands={A: ["T01", "T06"]}, job="J05", **kw)
    do(s, "disc none", "play T01 hand job", "play T06 hand job", "end_plays", "job_attempt")
    return s


def test_beginner_goal_40_ends_a_game_at_40() -> None:
    s = _job_to_the_goal(37, variant="beginner", overrides={"BEGINNER_GOAL": 40})
    assert s.goal == 40 and s.over and s.winners == (A,) and s.vp[A] == 42
    s = _job_to_the_goal(37, variant="beginner")  # the default goal (50): the game goes on
    assert s.goal == 50 and not s.over
    s = GAME.new_initial_state(3, {"variant": "beginner", DATA_OPTION: {"BEGINNER_GOAL": "40"}})
    assert s.goal == 40 and s.data.BEGINNER_GOAL == 40
    # the advanced game's goal is its own value
    s = GAME.new_initial_state(3, {DATA_OPTION: {"BEGINNER_GOAL": 40, "GOAL": 70}})
    assert s.goal == 70


def test_goal_override_in_the_advanced_game() -> None:
    assert _job_to_the_goal(42, overrides={"GOAL": 45}).over
    assert not _job_to_the_goal(42).over


def test_job_values_come_from_the_overrides() -> None:
    s = _job_to_the_goal(0, overrides={"JOBS.J05.ep": 9, "JOBS.J05.dollar": 4})
    assert s.vp[A] == 9
    assert s.decision == Decision("chance_draw", A, deck="M", dest="screen")
    assert s.tasks[-1].amount == 4 + 1 - 1  # J05 $4 + T06 $1, one card under way


def test_attack_fist_override_beats_a_bodyguard() -> None:
    """MA-08: A04 (4) against D02 (4) fails; with fist 5 it hits."""
    for fist, hits in ((4, False), (5, True)):
        s = scenario(atk={B: ("A04", A, False, "me")}, hands={B: ["D02"]}, chars={B: ["P4", "S4"]},
                     overrides={"ACTIONS.A04.fist": fist})
        at_month_end(s)
        asked(s, B, "defend D02")
        assert (s.decision == Decision("hit", A, target=B)) is hits


def test_unbribable_character_becomes_bribable() -> None:
    """MA-12: S2 Staatsanwalt (no bribe) stays with $9 only; with a bribe minimum of 9 A wins it."""
    for bribe, wins in ((None, False), (9, True)):
        over = {} if bribe is None else {"CHARACTERS.S2.bribe": bribe}
        s = scenario(row=["S2", "P1", "W3", "R4"], grid={A: {"k1": ["G5", "S:G3", "G1"]}}, overrides=over)
        assert s.data.CHARS["S2"].bribe == bribe
        at_month_end(s)
        assert ("S2" in s.chars[A]) is wins


def test_setup_counts_come_from_the_overrides() -> None:
    over = {"START_ACTIONS": 8, "START_MONEY": 2, "DISCS": 3, "MONEY.G5.count": 0,
            "CHARACTERS.P7.four_only": 0, "ACTIONS.A06.count": 4}
    m = Match(GAME, NAMES[:3], options={"start_seat": 0, "families": "seats", DATA_OPTION: over}, seed=3)
    s = m.state
    assert [sum(h.values()) for h in s.hand_a] == [8, 8, 8]
    assert [sum(h.values()) for h in s.screen] == [2, 2, 2]
    assert s.discs == [3, 3, 3]
    money = {g: s.decks["M"].get(g, 0) + sum(h.get(g, 0) for h in s.screen) for g in data.MONEY}
    assert money["G5"] == 0 and money["G1"] == data.MONEY_COUNTS["G1"]
    in_play = set(s.decks["C"]) | set(s.row)
    assert "P7" in in_play and "S7" not in in_play and len(in_play) == 31
    actions = sum(s.decks["A"].values()) + sum(sum(h.values()) for h in s.hand_a)
    assert actions == 80 + 3


def test_monthly_numbers_come_from_the_overrides() -> None:
    """A power card's threshold and VP and the payday months as a month end plays them."""
    over = {"PAYDAY_MONTHS": "2", "POWERS.POL.vp": 5, "POWERS.POL.threshold": 7}
    s = scenario(chars={A: ["P1", "P3"]}, row=["S1", "S2", "W3", "R4"], overrides=over)
    assert s.powers[data.POLITIK] == A  # P1 + P3: influence 7
    weaker = scenario(chars={A: ["P1", "P4"]}, row=["S1", "S2", "W3", "R4"], overrides=over)
    assert weaker.powers[data.POLITIK] == -1  # influence 6 < 7
    at_month_end(s)
    while s.month == 1:
        p = s.actors[0]
        GAME.apply(s, p, GAME.chance_outcomes(s)[0][0] if p == CHANCE else GAME.legal_actions(s, p)[0])
    assert s.vp[A] == 5  # ME5: Politik's overridden 5 VP
    assert s.decision == Decision("chance_draw", A, deck="M", dest="screen")  # payday in February: P1, P3


# ----------------------------------------------------------------------------- records, JSON, views
OVERRIDES: dict[str, object] = {"BEGINNER_GOAL": 40, "GOAL": 45, "HAND_LIMIT": 8, "PLAY_LIMIT": 3,
                                "PAYDAY_MONTHS": "2,5,8", "ACTIONS.T04.dice": 2, "CHARACTERS.P1.bribe": 0,
                                "JOBS.J01.dice_sum": 6, "POWERS.BEV.threshold": 4, "MONEY.G3.count": 20,
                                "EV06_DICE": 3, "STAR_LOSS": 3}


def _play(players: int, options: dict[str, Any], seed: int) -> Match[Any, Any, Any]:
    m = Match(GAME, NAMES[:players], options=options, seed=seed)
    rng, greedy = Random(seed), GreedyMafia()
    while not m.is_over():
        p = m.pending()[0]
        legal = list(m.legal(p))
        a = greedy.choose(m.view(p), legal, rng) if p == 0 else rng.choice(legal)
        m.act(p, a)
    return m


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("variant", ["beginner", "advanced"])
def test_games_with_overrides_end_and_replay(players: int, variant: str) -> None:
    options = {"variant": variant, "missions": variant == "advanced", DATA_OPTION: OVERRIDES}
    m = _play(players, options, seed=players * 10 + len(variant))
    result = m.result()
    assert result is not None
    recorded = m.record.options[DATA_OPTION]
    assert recorded == {k: data_json(data.DATA_SPECS_BY_NAME[k].parse(v)) for k, v in OVERRIDES.items()}
    assert recorded["PAYDAY_MONTHS"] == [2, 5, 8]
    back = Match.from_record(GAME, GameRecord.from_json(json.loads(m.record.dumps())))
    assert back.result() == result
    assert GAME.state_hash(back.state) == GAME.state_hash(m.state)
    assert back.state.data is m.state.data


def test_state_json_round_trips_with_overrides_and_stays_small_without() -> None:
    plain = GAME.new_initial_state(4, {"start_seat": 0})
    raw = GAME.state_to_json(plain)
    assert "data" not in raw  # the usual game's JSON (and hash) as before
    assert GAME.state_from_json(json.loads(json.dumps(raw))) == plain
    over = GAME.new_initial_state(4, {"start_seat": 0, DATA_OPTION: {"GOAL": 60, "JOBS.J05.ep": 9}})
    raw = GAME.state_to_json(over)
    assert raw["data"] == {"GOAL": 60, "JOBS.J05.ep": 9}
    back = GAME.state_from_json(json.loads(json.dumps(raw)))
    assert back == over and back.data is over.data and back.goal == 60
    assert GAME.state_hash(plain) != GAME.state_hash(over)
    other = GAME.new_initial_state(4, {"start_seat": 0, DATA_OPTION: {"GOAL": 60, "JOBS.J05.ep": 8}})
    assert GAME.state_hash(other) != GAME.state_hash(over)
    # a state stored before data overrides existed reads back with the defaults
    del raw["data"]
    assert GAME.state_from_json(raw).data is data.DEFAULT
    with pytest.raises(ValueError, match="GOAL"):
        GAME.state_from_json({**raw, "data": {"GOAL": 1}})


def test_clones_views_and_determinized_worlds_share_the_tables() -> None:
    s = GAME.new_initial_state(3, {"start_seat": 0, DATA_OPTION: {"HAND_LIMIT": 7, "MONEY.G2.count": 3}})
    while s.actors == (CHANCE,) or (s.decision is not None and s.decision.kind == "family"):
        p = s.actors[0]
        GAME.apply(s, p, GAME.chance_outcomes(s)[0][0] if p == CHANCE else GAME.legal_actions(s, p)[0])
    assert s.clone().data is s.data
    view = GAME.observe(s, 1)
    assert view.public.data is s.data
    assert json.loads(json.dumps(view.to_json()))["public"]["data"] == {"HAND_LIMIT": 7, "MONEY.G2.count": 3}
    assert "data" not in GAME.observe(GAME.new_initial_state(3), 1).to_json()["public"]
    world = GAME.determinize(view, 1, Random(5))
    assert world.data is s.data
    money = sum(world.decks["M"].values()) + sum(sum(h.values()) for h in world.screen)
    assert money == sum(s.data.MONEY_COUNTS.values()) == 14 + 3 + 12 + 6


def test_table_data_and_hooks() -> None:
    opts = GAME.resolve_options(3, {DATA_OPTION: {"ACTIONS.A04.fist": 6, "CHARACTERS.S2.bribe": 5, "GOAL": 55}})
    td = GAME.table_data(opts)
    assert next(a for a in td["actions"] if a["id"] == "A04")["fist"] == 6
    assert next(c for c in td["characters"] if c["id"] == "S2")["bribe"] == 5
    assert td["constants"]["GOAL"] == 55 and td["overrides"]["GOAL"] == 55
    assert GAME.table_data()["constants"]["GOAL"] == data.GOAL
    m = _play(3, {"variant": "beginner"}, seed=2)
    assert GAME.rounds(m.state) == m.state.month and 1 <= m.state.month <= data.MONTHS
    roles = GAME.seat_roles(m.state)
    assert roles is not None and len(set(roles)) == 3 and set(roles) <= set(data.FAMILIES)


# ----------------------------------------------------------------------------- bad values
@pytest.mark.parametrize(("given", "words"), [
    ({"BEGINNER_GOAL": 5}, "BEGINNER_GOAL: 5 is out of range"),
    ({"BEGINNER_GOAL": "forty"}, "BEGINNER_GOAL: expected a whole number"),
    ({"ACTIONS.A04.fist": 12}, "ACTIONS.A04.fist: 12 is out of range"),
    ({"ACTIONS.Z99.fist": 3}, "'ACTIONS.Z99.fist'"),
    ({"ACTIONS.D01.fist": 3}, "'ACTIONS.D01.fist'"),  # a defence card has no fist to override
    ({"PAYDAY_MONTHS": "1,6"}, "PAYDAY_MONTHS: 1 is out of range"),
    ({"MAX_DICE": 7}, "MAX_DICE: 7 is out of range"),
    ({"CHARACTERS.P1.four_only": 2}, "four_only: 2 is out of range"),
])
def test_bad_values_are_refused_by_name(given: dict[str, object], words: str) -> None:
    with pytest.raises(DataError, match=words.replace(".", r"\.").replace("(", r"\(")):
        GAME.resolve_options(3, {DATA_OPTION: given})
    with pytest.raises(DataError):
        scenario(overrides=given)
