"""El Grande data overrides (``--data NAME=VALUE``): every (single source) value of data.py can be
changed per game; the rules, views, words, board data and bots then play with the changed value.

Players A, B, C are seats 0, 1, 2; the King stands in sevilla unless a test says otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from random import Random

import pytest

from tablero.bots.registry import make_bot
from tablero.core.errors import DataError
from tablero.core.events import Event, visible_log
from tablero.core.match import Match, bot_rng
from tablero.core.messages import Message
from tablero.core.protocol import CHANCE, DATA_OPTION, data_json
from tablero.core.record import GameRecord
from tablero.games.elgrande import data
from tablero.games.elgrande.actions import Kind, act, parse
from tablero.games.elgrande.data import AREA_INDEX, CARD_INDEX, DATA_SPECS, DEFAULT_TABLES, tables
from tablero.games.elgrande.rules import GAME
from tablero.games.elgrande.setup import scenario, take
from tablero.games.elgrande.state import PHASE_NAMES, ElGrandeState
from tablero.games.elgrande.text import CATALOGUE
from tablero.games.elgrande.view import determinize
from tablero.testing import play_match

A, B, C = range(3)
SPECS = {d.name: d for d in DATA_SPECS}


def texts(s: ElGrandeState, seat: int | None = None) -> set[str]:
    p = s.actors[0] if seat is None else seat
    return {a.to_text() for a in GAME.legal_actions(s, p)}


def do(s: ElGrandeState, *wire: str, seat: int | None = None, events: list[Event] | None = None) -> None:
    for w in wire:
        GAME.apply(s, s.actors[0] if seat is None else seat, parse(w), events)


def phase(s: ElGrandeState) -> str:
    return PHASE_NAMES[s.phase]


def start(card: str, overrides: Mapping[str, object], events: list[Event] | None = None, **kw: object) -> ElGrandeState:
    """A 3-player scenario with ``overrides`` in which A has taken ``card`` and announced it."""
    s = scenario(players=3, options={DATA_OPTION: overrides}, **kw)  # type: ignore[arg-type]
    take(s, card, events)
    do(s, "action_first", events=events)
    return s


def row(s: ElGrandeState, area: str) -> tuple[int, ...]:
    return tuple(s.cab[p][AREA_INDEX[area]] for p in range(s.n))


# ----------------------------------------------------------------------------- the specs


def test_every_default_is_the_data_modules_value() -> None:
    """Each spec's default is today's value in data.py; the default tables are the constants."""
    expected: dict[str, object] = {f"REGIONS.{r.id}.values": r.values for r in data.REGIONS}
    expected |= {data.border_name(a, b): 1 for a, b in data.SINGLE_SOURCE_BORDERS}
    expected |= {f"CARD_TYPES.{c.id}.count": c.count for c in data.CARD_TYPES}
    expected |= {f"MOVE_BUDGETS.{c}.moves": k for c, (_, k) in data.MOVE_BUDGETS.items()}
    expected |= {"POWER_CABALLEROS": data.POWER_CABALLEROS[1:], "REGION_MOVES": data.REGION_MOVES,
                 "EXTRA_PLACEMENT": data.EXTRA_PLACEMENT, "SECRET_RETURN": data.SECRET_RETURN,
                 "CLASS_SCORINGS.3C.classes": data.CLASS_SCORINGS["3C"]}
    for spec in DATA_SPECS:
        assert spec.default == expected[spec.name], spec.name
        assert spec.source == "single source"
    assert set(data.SINGLE_SOURCE_BORDERS) <= set(data.BORDERS)
    t = DEFAULT_TABLES
    assert t.REGIONS == data.REGIONS and t.BORDERS == data.BORDERS and t.NEIGHBOURS == data.NEIGHBOURS
    assert t.POWER_CABALLEROS == data.POWER_CABALLEROS and t.CARD_TYPES == data.CARD_TYPES
    assert dict(t.MOVE_BUDGETS) == data.MOVE_BUDGETS and dict(t.CLASS_SCORINGS) == data.CLASS_SCORINGS
    assert (t.REGION_MOVES, t.EXTRA_PLACEMENT, t.SECRET_RETURN) == (
        data.REGION_MOVES, data.EXTRA_PLACEMENT, data.SECRET_RETURN)
    assert tables({}) is t and t.to_json() == {}
    assert GAME.data_specs == DATA_SPECS


def test_every_spec_has_words_in_both_languages() -> None:
    for spec in DATA_SPECS:
        parts = spec.name.split(".")
        key = "data." + (spec.name if len(parts) == 1 else f"{parts[0]}.{parts[-1]}")
        assert key in CATALOGUE["en"] and key in CATALOGUE["de"], key


def test_tables_are_built_once_per_overrides() -> None:
    a = tables({"REGION_MOVES": 3})
    assert tables({"REGION_MOVES": 3}) is a and a != DEFAULT_TABLES
    s1 = GAME.new_initial_state(3, {DATA_OPTION: {"REGION_MOVES": "3"}})
    s2 = GAME.new_initial_state(3, {DATA_OPTION: {"REGION_MOVES": 3}})
    assert s1.data is s2.data is a
    assert s1.clone().data is a


# ----------------------------------------------------------------------------- the rules follow the tables


def test_power_caballeros_changes_the_intake() -> None:
    """POWER_CABALLEROS: card 13 takes nobody into the court by default; with 3 it offers 0-3."""
    def game(overrides: dict[str, object]) -> ElGrandeState:
        s = GAME.new_initial_state(3, {"start_seat": 0, DATA_OPTION: overrides})
        for t in ("deal galicia", "deal aragon", "deal granada", "deal sevilla",
                  "reveal 1A", "reveal 2A", "reveal 3A", "reveal 4A"):
            GAME.apply(s, CHANCE, parse(t))
        do(s, "power 13", "power 12", "power 1")
        return s

    s = game({})
    assert phase(s) == "take_card" and s.active == A
    cab = (6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 3)
    s = game({"POWER_CABALLEROS": ",".join(map(str, cab))})
    assert phase(s) == "intake" and texts(s) == {"intake 0", "intake 1", "intake 2", "intake 3"}
    do(s, "intake 3")
    assert s.court[A] == 7 + 3
    msg = GAME.describe(s, B, act(Kind.POWER, 13), B)
    assert msg.get("cab") == 3


def test_power_caballeros_above_six_widen_the_action_codec() -> None:
    opts = {DATA_OPTION: {"POWER_CABALLEROS": "9,5,5,4,4,3,3,2,2,1,1,0,0"}}
    assert GAME.action_codec(3) is GAME.action_codec(3, {DATA_OPTION: {"REGION_MOVES": 3}})
    wide = GAME.action_codec(3, opts)
    assert wide.size == GAME.action_codec(3).size + 3
    assert wide.decode(wide.encode(act(Kind.INTAKE, 9))) == act(Kind.INTAKE, 9)


def test_region_moves_ends_1a_early_and_the_card_name_shows_it() -> None:
    ev: list[Event] = []
    s = start("1A", {"REGION_MOVES": 2}, ev, cab={"galicia": {A: 1, B: 3}})
    do(s, "select galicia", "move galicia 1 aragon")
    assert phase(s) == "move"
    do(s, "move galicia 1 aragon")
    assert phase(s) == "place" and row(s, "galicia") == (1, 1, 0)
    taken = [m for m in visible_log(ev, None) if m.id == "eg.take"]
    assert taken[0].get("card") == Message("eg.card_n.1A", n=2)
    assert data.card_amounts(DEFAULT_TABLES) == {}


def test_move_budget_of_1b() -> None:
    s = start("1B", {"MOVE_BUDGETS.1B.moves": 2}, cab={"galicia": {A: 1, B: 1}, "aragon": {C: 3}})
    do(s, "move galicia 0 aragon", "move aragon 2 castillo")
    assert phase(s) == "place"


def test_extra_placement_of_1g() -> None:
    s = start("1G", {"EXTRA_PLACEMENT": 1})
    do(s, "extra galicia")
    assert phase(s) == "place" and row(s, "galicia") == (1, 0, 0)


def test_secret_return_of_2f() -> None:
    s = start("2F", {"SECRET_RETURN": 1}, cab={"galicia": {A: 3}, "valencia": {B: 2}, "aragon": {C: 2}})
    prov = s.province[:]
    do(s, "disk galicia", seat=A)
    do(s, "disk valencia", seat=B)
    do(s, "disk aragon", seat=C)
    assert [s.province[p] - prov[p] for p in range(3)] == [1, 1, 1]
    assert row(s, "galicia") == (2, 0, 0)


def test_region_values_score_and_select_by_class() -> None:
    """REGIONS.galicia.values=9,5,1: a scoring of galicia pays 9; galicia is now of class 9, so
    3B (all 4-regions) leaves it out."""
    over = {"REGIONS.galicia.values": "9,5,1"}
    s = start("3H", over, cab={"galicia": {A: 2, B: 1}})
    do(s, "score galicia")
    assert s.score == [9, 5, 0]
    s = start("3B", over, cab={"galicia": {A: 2}, "cataluna": {B: 1}})
    assert s.score == [0, 4, 0]
    assert GAME.table_data({DATA_OPTION: over})["values"][AREA_INDEX["galicia"]] == [9, 5, 1]


def test_class_scorings_of_3c() -> None:
    s = start("3C", {"CLASS_SCORINGS.3C.classes": "5"}, cab={"aragon": {A: 1}, "granada": {B: 1}})
    assert s.score == [5, 0, 0]


def test_a_border_can_be_closed() -> None:
    """BORDERS.granada-sevilla.present=0: with the King in sevilla nobody places in granada, and
    4B can only take him to castilla_la_nueva."""
    over = {data.border_name("granada", "sevilla"): 0}
    s = scenario(players=3, options={DATA_OPTION: over})
    take(s, "1C")
    do(s, "place_first")
    assert texts(s) == {"place castilla_la_nueva", "place castillo", "end_placement"}
    s = scenario(players=3, options={DATA_OPTION: over})
    take(s, "4B")
    do(s, "action_first")
    assert texts(s) == {"king castilla_la_nueva"}
    assert ["granada", "sevilla"] not in GAME.table_data({DATA_OPTION: over})["borders"]


def test_card_counts_fill_the_stacks() -> None:
    s = GAME.new_initial_state(3, {DATA_OPTION: {"CARD_TYPES.3A.count": 4}})
    assert s.unseen[CARD_INDEX["3A"]] == 4
    s.phase, s.reveal_k = 2, 2  # a reveal from stack 3
    weights = {a.to_text(): w for a, w in GAME.chance_outcomes(s)}
    assert weights["reveal 3A"] == pytest.approx(4 / 13)
    counts = GAME.table_data({DATA_OPTION: {"CARD_TYPES.3A.count": 4}})["card_counts"]
    assert counts[CARD_INDEX["3A"]] == 4


# ----------------------------------------------------------------------------- refused values


@pytest.mark.parametrize(("overrides", "named"), [
    ({"REGIONS.galicia.values": "2,4,0"}, "REGIONS.galicia.values"),
    ({"REGIONS.galicia.values": "4,2"}, "REGIONS.galicia.values"),
    ({"POWER_CABALLEROS": "6,5,5"}, "POWER_CABALLEROS"),
    ({"CARD_TYPES.1A.count": 0}, "CARD_TYPES.1A.count"),
    ({"REGION_MOVES": "many"}, "REGION_MOVES"),
    ({"BORDERS.aragon-cataluna.present": 2}, "BORDERS.aragon-cataluna.present"),
    ({"CLASS_SCORINGS.3C.classes": ""}, "CLASS_SCORINGS.3C.classes"),
    ({"BORDERS.aragon-cataluna.present": 0, "BORDERS.cataluna-valencia.present": 0},
     "BORDERS.aragon-cataluna.present"),
    ({"CARD_TYPES.3A.count": 1, "CARD_TYPES.3B.count": 1, "CARD_TYPES.3D.count": 1}, "CARD_TYPES.3D.count"),
    ({"KING_BONUS": 3}, "KING_BONUS"),
])
def test_bad_values_are_refused_by_name(overrides: dict[str, object], named: str) -> None:
    with pytest.raises(DataError, match=named.replace(".", r"\.")):
        GAME.resolve_options(3, {DATA_OPTION: overrides})
    with pytest.raises(DataError):
        GAME.new_initial_state(3, {DATA_OPTION: overrides})


# ----------------------------------------------------------------------------- records, JSON, views

SEVERAL = {"REGIONS.aragon.values": "6,4,1", "POWER_CABALLEROS": "6,6,5,4,4,3,3,2,2,1,1,1,0",
           "CARD_TYPES.2E.count": 1, "REGION_MOVES": 3, "MOVE_BUDGETS.1E.moves": 4,
           "BORDERS.granada-valencia.present": 0, "CLASS_SCORINGS.3C.classes": "6", "SECRET_RETURN": 3}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_with_overrides_end_and_replay(players: int) -> None:
    opts = {"short_game": True, DATA_OPTION: SEVERAL}
    m = play_match(GAME, players, seed=players, options=opts)
    assert m.result() is not None
    assert m.record.options[DATA_OPTION] == {k: data_json(SPECS[k].parse(v)) for k, v in SEVERAL.items()}
    back = Match.from_record(GAME, GameRecord.from_json(json.loads(m.record.dumps())))
    assert back.result() == m.result()
    assert back.state == m.state and back.state.data is m.state.data


def test_greedy_bots_play_with_overrides() -> None:
    m = Match(GAME, ["greedy"] * 3, options={"short_game": True, DATA_OPTION: SEVERAL}, seed=7)
    bots = {p: make_bot("greedy", GAME.id) for p in range(3)}
    m.play_bots(bots, {p: bot_rng(7, p) for p in range(3)})
    assert m.result() is not None and GAME.rounds(m.state) == 6
    assert GAME.seat_roles(m.state) == ("yellow", "red", "blue")


def test_state_json_round_trips_with_overrides_and_stays_small_without() -> None:
    plain = GAME.new_initial_state(4)
    assert "data" not in GAME.state_to_json(plain)  # the usual game's JSON (and hash) as before
    s = GAME.new_initial_state(4, {DATA_OPTION: SEVERAL})
    text = json.dumps(GAME.state_to_json(s))
    back = GAME.state_from_json(json.loads(text))
    assert back == s and back.data is s.data
    assert GAME.state_hash(s) != GAME.state_hash(plain)
    assert GAME.state_hash(GAME.new_initial_state(4, {DATA_OPTION: {"REGION_MOVES": 4}})) != GAME.state_hash(plain)
    assert len(json.dumps(GAME.state_to_json(plain))) < 1500
    assert GAME.state_from_json(GAME.state_to_json(plain)) == plain  # also a position saved before overrides
    assert GAME.state_from_json({**GAME.state_to_json(plain), "data": {}}) == plain
    broken = {**GAME.state_to_json(s), "data": {"REGION_MOVES": 99}}
    with pytest.raises(ValueError):
        GAME.state_from_json(broken)


def test_views_carry_the_tables_and_determinize_keeps_them() -> None:
    s = GAME.new_initial_state(3, {"start_seat": 0, DATA_OPTION: SEVERAL})
    rng = Random(1)
    while s.actors == (CHANCE,):
        GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
    view = GAME.observe(s, A)
    assert view.public.data is s.data
    assert view.to_json()["public"]["data"] == s.data.to_json()
    assert "data" not in GAME.observe(GAME.new_initial_state(3), A).to_json()["public"]
    assert determinize(view, A, rng).data is s.data
    assert "6/4/1" in GAME.render(view, lambda m: m.id)


def test_table_data_shows_the_tables_overrides() -> None:
    plain = GAME.table_data()
    assert plain == data.table_data() and plain["overrides"] == {} and plain["card_amounts"] == {}
    t = GAME.table_data(GAME.resolve_options(3, {DATA_OPTION: SEVERAL}))
    assert t["values"][AREA_INDEX["aragon"]] == [6, 4, 1]
    assert t["power_caballeros"][2] == 6
    assert t["card_amounts"] == {"1A": 3, "1E": 4, "2F": 3, "3C": "6"}
    assert t["overrides"]["REGION_MOVES"] == 3
    assert len(t["borders"]) == len(data.BORDERS) - 1


def test_rounds_counts_the_rounds_begun() -> None:
    s = GAME.new_initial_state(3, {"short_game": True})
    assert GAME.rounds(s) == 0
    m = play_match(GAME, 3, seed=1, options={"short_game": True})
    assert GAME.rounds(m.state) == 6
