"""Don Carlo's data overrides (issue 12): ``--data NAME=VALUE`` / options ``{"data": {NAME: value}}``.

The overridable values are data.DATA_SPECS: the card counts per value, the hand size, the run and
triple bonuses, the countries' digit sums (one row, SUM_BOUNDS) and each country's player counts.
"""

from __future__ import annotations

import json
from random import Random

import pytest

from tablero.bots.heuristics.doncarlo import GreedyDonCarlo
from tablero.core.errors import DataError
from tablero.core.match import Match, bot_rng
from tablero.core.messages import Message, Translator
from tablero.core.protocol import CHANCE, DATA_OPTION, DataSpec, data_json
from tablero.core.record import GameRecord
from tablero.games.doncarlo import data
from tablero.games.doncarlo.actions import DRAWS
from tablero.games.doncarlo.engine import CODE_COUNTRY
from tablero.games.doncarlo.rules import GAME
from tablero.games.doncarlo.setup import play, scenario
from tablero.games.doncarlo.state import DEAL, OVER, PLAY, REFILL

from .helpers import UniformBot, draw, legal_texts


def _spec(name: str) -> DataSpec:
    return next(d for d in data.DATA_SPECS if d.name == name)


def _dc(**values: object) -> dict[str, object]:
    """Options with these data overrides (``COUNTRIES__land_8__players`` for ``COUNTRIES.land_8.players``)."""
    return {DATA_OPTION: {k.replace("__", "."): v for k, v in values.items()}}


# ----------------------------------------------------------------------------- defaults


def test_every_spec_default_is_the_data_modules_value():
    """Each spec's default is today's data: no behaviour changes without an override."""
    defaults = {d.name: d.default for d in data.DATA_SPECS}
    assert GAME.data_specs == data.DATA_SPECS
    assert defaults.pop("FAMILY_COUNTS") == data.FAMILY_COUNTS == (4, 4, 4, 4, 4, 3, 2)
    assert defaults.pop("HAND_SIZE") == data.HAND_SIZE == 4
    assert defaults.pop("RUN_BONUS") == data.RUN_BONUS == 1
    assert defaults.pop("TRIPLE_BONUS") == data.TRIPLE_BONUS == 2
    assert defaults.pop("SUM_BOUNDS") == data.SUM_BOUNDS
    for c in data.COUNTRIES:
        assert defaults.pop(f"COUNTRIES.{c.id}.players") == c.players
    assert defaults == {}
    assert {d.source for d in data.DATA_SPECS} == {"single source"}
    # SUM_BOUNDS says what the country table says
    t = data.DEFAULT_TABLES
    assert [c.sums for c in t.COUNTRIES] == [c.sums for c in data.COUNTRIES]
    assert [c.players for c in t.COUNTRIES] == [c.players for c in data.COUNTRIES]


def test_the_usual_tables_are_todays_code_tables():
    """Without overrides: the 320 codes with their usual indices, countries, bonuses and hand keys."""
    t = data.tables()
    assert t is data.DEFAULT_TABLES is data.tables({"HAND_SIZE": 4})  # a default value is no override
    assert t.overrides == {} and t.codes == tuple(range(320)) and t.used_size == 320
    assert data.ALL_CODES[:320] == data.CODES and len(data.ALL_CODES) == 329
    assert t.pow == tuple(5**v for v in range(7))
    assert t.code_bonus[:320] == tuple(data.code_bonus(c) for c in data.CODES)
    for n in (2, 3, 4):
        assert t.in_play[n] == data.countries_in_play(n)
        assert t.code_country[n] == CODE_COUNTRY[n]
    s = GAME.new_initial_state(3)
    assert s.data is t and "data" not in GAME.state_to_json(s)


# ----------------------------------------------------------------------------- rules with overrides


def test_hand_size_deals_and_refills_to_the_tables_value():
    """HAND_SIZE=6: every hand is dealt 6 cards; a play refills to 6."""
    s = GAME.new_initial_state(3, {**_dc(HAND_SIZE=6), "start_seat": 0})
    rng = Random(1)
    while s.phase == DEAL:
        GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
    assert s.hand_size == [6, 6, 6] and s.deck_size == [19, 19, 19]
    s = scenario(hands={0: [1, 2, 3, 4, 5, 6]}, options=_dc(HAND_SIZE=6))
    GAME.apply(s, 0, play("1/2/3"))
    assert s.phase == REFILL
    draw(s, 0, 0)
    assert s.phase == REFILL
    draw(s, 0)
    assert s.hand_size[0] == 6 and s.turn == 1


def test_a_family_smaller_than_a_hand_deals_what_it_has():
    """FAMILY_COUNTS=1,1,0,0,0,0,0 with hands of 4: each seat is dealt its two cards; the game ends."""
    m = Match(GAME, ["a", "b"], options=_dc(FAMILY_COUNTS="1,1,0,0,0,0,0"), seed=3)
    m.play_bots({0: UniformBot(), 1: UniformBot()}, {0: Random(0), 1: Random(1)})
    assert m.result() is not None
    assert sum(len(a) for a in m.state.agents) >= 1  # 1 and 0/1 are codes (Egoistrien)


def test_bonuses_score_the_tables_points_and_say_so():
    """RUN_BONUS=3, TRIPLE_BONUS=5: a run scores 1 + 3, a triple 1 + 5; the log, the action's words
    and the score sheet give the table's values."""
    opts = _dc(RUN_BONUS=3, TRIPLE_BONUS=5)
    s = scenario(hands={0: [1, 2, 3, 6], 1: [2, 2, 2, 5]}, options=opts)
    assert GAME.describe(s, 0, play("1/2/3"), 0) == Message(
        "dc.play.action", code="1/2/3", country=Message("dc.country.absurdistan"), influence=1,
        bonus_text=Message("dc.bonus.run", bonus=3))
    events: list = []
    GAME.apply(s, 0, play("1/2/3"), events)
    assert (s.influence[0], s.bonus[0]) == (1, 3)
    assert any(e.message.id == "dc.play" and e.message.get("bonus") == 3 for e in events)
    draw(s, 0, 0, 0)
    GAME.apply(s, 1, play("2/2/2"))
    assert (s.influence[1], s.bonus[1]) == (2, 5)  # the second agent in Absurdistan
    sheet = GAME.score_sheet(s, [])
    labels = {r.label.id: r for r in sheet.rows}
    assert labels["dc.sheet.runs"].label == Message("dc.sheet.runs", bonus=3)
    assert labels["dc.sheet.triples"].values[1] == 5
    tr = Translator("en", [GAME.catalogue()])
    assert tr(Message("dc.bonus.triple", bonus=5)) == ", +5 bonus points (triple)"
    assert tr(labels["dc.sheet.runs"].label) == "Runs (+3 each)"


def test_family_counts_change_the_code_universe_and_the_action_space():
    """FAMILY_COUNTS=4,4,4,4,4,4,4 (four 6s) with Schwadronien up to 18: 6/6/6 is a code of the table
    (329 codes in its action space) and legal; the usual action space stays 320 codes."""
    opts = _dc(FAMILY_COUNTS="4,4,4,4,4,4,4", SUM_BOUNDS="1,4,5,6,7,8,9,18")
    codec = GAME.action_codec(4, opts)
    assert codec.size == 329 and play("6/6/6") in codec
    assert GAME.action_codec(4).size == 320 and play("6/6/6") not in GAME.action_codec(4)
    s = scenario(hands={0: [6, 6, 6, 0]}, options=opts)
    assert s.data.used_size == 329
    legal = GAME.legal_actions(s, 0)
    assert "6/6/6" in legal_texts(s) and "0/6/6/6" in legal_texts(s)
    indices = [codec.encode(a) for a in legal]
    assert indices == sorted(indices)
    GAME.apply(s, 0, play("6/6/6"))
    assert s.agents[data.COUNTRY_INDEX["schwadronien"]] == [(0, play("6/6/6").code)]
    assert s.bonus[0] == 2
    # fewer cards: two of each value give fewer codes; hands and decks follow the table's family
    small = GAME.action_codec(2, _dc(FAMILY_COUNTS="2,2,2,2,2,2,2"))
    assert small.size == len([c for c in data.ALL_CODES if max(c.count(v) for v in c) <= 2])
    s = GAME.new_initial_state(2, _dc(FAMILY_COUNTS="2,2,2,2,2,2,2"))
    assert s.deck == [[2] * 7, [2] * 7] and s.deck_size == [14, 14]


def test_sum_bounds_move_the_countries_sums():
    """SUM_BOUNDS=1,4,5,6,7,8,9,13: Schwadronien takes 9-13, so 1/6/6 (13) is legal there; the view
    shows the table's sums. Without the override 1/6/6 has no country (DC-10)."""
    s = scenario(hands={0: [1, 5, 6, 6]}, options=_dc(SUM_BOUNDS="1,4,5,6,7,8,9,13"))
    assert "1/6/6" in legal_texts(s)
    view = GAME.observe(s, 1)
    assert next(c.sums for c in view.public.countries if c.id == "schwadronien") == (9, 10, 11, 12, 13)
    assert "1/6/6" not in legal_texts(scenario(hands={0: [1, 5, 6, 6]}))
    # lower bounds shift every country: Egoistrien 2-4, Abstrusien 5, ... (sum 1 has no country)
    s = scenario(hands={0: [1, 0, 0, 4]}, options=_dc(SUM_BOUNDS="2,5,6,7,8,9,10,12"))
    assert legal_texts(s) == {"4", "0/4", "0/0/4", "0/1/4", "1/4", "0/0/1/4"}
    GAME.apply(s, 0, play("1/4"))
    assert s.agents[data.COUNTRY_INDEX["abstrusien"]] == [(0, play("1/4").code)]


def test_player_counts_put_countries_in_play():
    """COUNTRIES.land_8.players=2,3,4 and COUNTRIES.abstrusien.players=2,3,4: two players play with
    all seven countries; COUNTRIES.egoistrien.players=4 takes Egoistrien out of a 3-player game."""
    s = GAME.new_initial_state(2, _dc(COUNTRIES__land_8__players="2,3,4", COUNTRIES__abstrusien__players=[2, 3, 4]))
    assert s.countries == tuple(range(7))
    s = GAME.new_initial_state(3, _dc(COUNTRIES__egoistrien__players="4"))
    assert data.COUNTRY_INDEX["egoistrien"] not in s.countries
    assert "3" not in legal_texts(scenario(3, hands={0: [3, 5, 5, 6]}, options=_dc(COUNTRIES__egoistrien__players="4")))


def test_greedy_reads_the_tables_bonus():
    """The greedy bot values a code's bonus by the table: with TRIPLE_BONUS=10 it sends the triple."""
    s = scenario(hands={0: [2, 2, 2, 1]}, options=_dc(TRIPLE_BONUS=10))
    legal = GAME.legal_actions(s, 0)
    assert GreedyDonCarlo().choose(GAME.observe(s, 0), legal, Random(0)).to_text() == "2/2/2"
    usual = scenario(hands={0: [2, 2, 2, 1]})
    assert GreedyDonCarlo().choose(GAME.observe(usual, 0), GAME.legal_actions(usual, 0), Random(0)).to_text() != "2/2/2"


# ----------------------------------------------------------------------------- records, JSON, views

MIXED = (
    {"FAMILY_COUNTS": "5,4,3,4,4,4,3", "HAND_SIZE": 5, "RUN_BONUS": 2, "SUM_BOUNDS": "1,4,5,6,7,8,9,13"},
    {"HAND_SIZE": 3, "TRIPLE_BONUS": 4, "COUNTRIES.land_8.players": "2,3,4", "COUNTRIES.egoistrien.players": "3,4"},
    {"FAMILY_COUNTS": "8,8,0,1,8,2,8", "SUM_BOUNDS": "0,2,4,6,8,10,12,24"},
)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("overrides", MIXED, ids=["cards-hand-run-sums", "hand-triple-countries", "odd-family"])
def test_games_with_several_overrides_end_and_replay(players, overrides):
    """Greedy and random bots play a game with several overrides to the end within max_game_length;
    the record carries the overrides and Match.from_record replays it to the same final state."""
    seed = 11 + players
    m = Match(GAME, [f"P{i}" for i in range(players)], options={DATA_OPTION: overrides}, seed=seed)
    bots = {p: (GreedyDonCarlo() if p % 2 else UniformBot()) for p in range(players)}
    m.play_bots(bots, {p: bot_rng(seed, p) for p in range(players)})
    assert m.result() is not None and m.state.phase == OVER
    assert len(m.record.entries) <= GAME.max_game_length(players)
    assert m.record.options[DATA_OPTION] == {k: data_json(_spec(k).parse(v)) for k, v in overrides.items()}
    back = Match.from_record(GAME, GameRecord.from_json(json.loads(m.record.dumps())))
    assert back.state == m.state and back.result() == m.result()
    assert GAME.rounds(m.state) == m.state.round >= 1
    assert GAME.seat_roles(m.state) == data.FAMILY_COLOURS[:players]


def test_state_json_round_trips_with_overrides_and_hashes_differ():
    """A state with overrides goes to JSON as its overrides only and comes back equal, sharing the
    table's one data object; its hash differs from the same position without them."""
    opts = _dc(HAND_SIZE=5, SUM_BOUNDS="1,4,5,6,7,8,9,13")
    s = scenario(hands={0: [1, 2, 3, 4]}, options=opts)
    raw = json.loads(json.dumps(GAME.state_to_json(s)))
    assert raw["data"] == {"HAND_SIZE": 5, "SUM_BOUNDS": [1, 4, 5, 6, 7, 8, 9, 13]}
    back = GAME.state_from_json(raw)
    assert back == s and back.data is s.data and s.clone().data is s.data
    assert GAME.state_to_json(back) == raw
    usual = scenario(hands={0: [1, 2, 3, 4]})
    assert GAME.state_hash(s) != GAME.state_hash(usual)
    assert GAME.state_hash(s) != GAME.state_hash(scenario(hands={0: [1, 2, 3, 4]}, options=_dc(HAND_SIZE=6)))
    with pytest.raises(ValueError, match="HAND_SIZE"):
        GAME.state_from_json({**raw, "data": {"HAND_SIZE": 0}})


def test_views_and_determinize_keep_the_tables_data():
    """A seat's view carries the table's data (its JSON the overrides); a state determinized from it
    plays with the same data and looks the same to that seat."""
    opts = _dc(FAMILY_COUNTS="5,5,4,4,4,3,2", HAND_SIZE=5)
    m = Match(GAME, ["a", "b", "c"], options=opts, seed=5)
    for _ in range(25):
        if m.is_over():
            break
        seat = m.pending()[0]
        m.act(seat, m.legal(seat)[0])
    view = GAME.observe(m.state, 1)
    assert view.data is m.state.data
    assert view.to_json()["public"]["data"] == {"FAMILY_COUNTS": [5, 5, 4, 4, 4, 3, 2], "HAND_SIZE": 5}
    assert "data" not in GAME.observe(GAME.new_initial_state(3), 1).to_json()["public"]
    for seed in range(5):
        d = GAME.determinize(view, 1, Random(seed))
        assert d.data is m.state.data and GAME.observe(d, 1) == view
        assert [sum(d.hand[p]) + sum(d.deck[p]) for p in range(3)] == [
            sum(m.state.hand[p]) + sum(m.state.deck[p]) for p in range(3)]


def test_table_data_shows_the_tables_values():
    """Game.table_data(options): the board's facts with the table's overrides."""
    usual = GAME.table_data()
    assert usual["family_counts"] == [4, 4, 4, 4, 4, 3, 2] and usual["run_bonus"] == 1
    assert usual["sums"]["schwadronien"] == [9, 10, 11, 12] and usual["overrides"] == {}
    assert usual["reconstructed"] and usual["default_points"]["abstrusien"] == 4
    opts = GAME.resolve_options(2, _dc(TRIPLE_BONUS=3, SUM_BOUNDS="1,4,5,6,7,8,9,11",
                                       COUNTRIES__land_8__players="2,3,4"))
    table = GAME.table_data(opts)
    assert table["triple_bonus"] == 3 and table["sums"]["schwadronien"] == [9, 10, 11]
    assert table["players"]["land_8"] == [2, 3, 4]
    assert table["overrides"]["TRIPLE_BONUS"] == 3


# ----------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(("overrides", "name"), [
    ({"FAMILY_COUNTS": "0,0,0,0,0,0,0"}, "FAMILY_COUNTS"),
    ({"FAMILY_COUNTS": "4,4"}, "FAMILY_COUNTS"),
    ({"FAMILY_COUNTS": "9,4,4,4,4,3,2"}, "FAMILY_COUNTS"),
    ({"HAND_SIZE": 0}, "HAND_SIZE"),
    ({"HAND_SIZE": "four"}, "HAND_SIZE"),
    ({"RUN_BONUS": -1}, "RUN_BONUS"),
    ({"SUM_BOUNDS": "1,4,4,6,7,8,9,12"}, "SUM_BOUNDS"),
    ({"SUM_BOUNDS": "1,4,5,6,7,8,9,8"}, "SUM_BOUNDS"),
    ({"SUM_BOUNDS": "1,4,5,6,7,8,9,25"}, "SUM_BOUNDS"),
    ({"COUNTRIES.land_8.players": "5"}, "COUNTRIES.land_8.players"),
    ({"COUNTRIES.land_8.players": ""}, "COUNTRIES.land_8.players"),
    ({"COUNTRIES.atlantis.players": "2"}, "COUNTRIES.atlantis.players"),
])
def test_bad_values_are_refused_naming_the_value(overrides, name):
    """Out of range, the wrong count of numbers, a family without cards, sums that do not rise, a
    country in play with no player count, an unknown name: a DataError that names the value."""
    with pytest.raises(DataError, match=name.replace(".", r"\.")):
        GAME.new_initial_state(3, {DATA_OPTION: overrides})
    with pytest.raises(DataError):
        scenario(3, options={DATA_OPTION: overrides})


def test_a_record_whose_overrides_cannot_apply_is_refused():
    """A record with an override this game does not know is refused, not replayed without it."""
    m = Match(GAME, ["a", "b"], options=_dc(HAND_SIZE=5), seed=1)
    raw = json.loads(m.record.dumps())
    raw["options"][DATA_OPTION] = {"HAND_SIZE": 99}
    with pytest.raises(DataError, match="HAND_SIZE"):
        Match.from_record(GAME, GameRecord.from_json(raw))


def test_a_draw_of_a_value_the_family_lacks_is_no_chance_outcome():
    """FAMILY_COUNTS without 6s: a 6 is never drawn, and a forced 6 is refused."""
    s = GAME.new_initial_state(2, _dc(FAMILY_COUNTS="4,4,4,4,4,3,0"))
    assert DRAWS[6] not in [a for a, _ in GAME.chance_outcomes(s)]
    assert not GAME.is_chance_outcome(s, DRAWS[6])
    rng = Random(2)
    while s.phase != PLAY:
        GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
    assert all(h[6] == 0 for h in s.hand)
