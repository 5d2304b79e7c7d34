"""Don Carlo spec §12: one or more tests per scenario DC-01 … DC-32 (docstrings name the id).

Players A, B, C, D are seats 0, 1, 2, 3. Positions are built with the scenario builder
(tablero.games.doncarlo.setup); forced chance outcomes are applied as ``DRAWS[v]``.
"""

from __future__ import annotations

import ast
import os
import re
from collections import Counter
from pathlib import Path
from random import Random

import pytest

from tablero.core.errors import IllegalActionError
from tablero.core.events import Event, visible_log
from tablero.core.match import Match, bot_rng, replay
from tablero.core.messages import Message
from tablero.core.protocol import CHANCE
from tablero.games.doncarlo import data
from tablero.games.doncarlo.actions import DRAWS, Play
from tablero.games.doncarlo.engine import CODE_COUNTRY
from tablero.games.doncarlo.rules import GAME
from tablero.games.doncarlo.setup import play, scenario
from tablero.games.doncarlo.state import BLOCKED_DRAW, DEAL, OVER, PLAY, REFILL

from .helpers import (
    UniformBot,
    draw,
    legal_by_spec,
    legal_texts,
    match_at,
    run_until_turn,
    step,
    used_texts,
)

SPEC = Path(__file__).resolve().parents[3].parent / "shared" / "rules" / "don-carlo.md"
ALL_COUNTRIES = ("egoistrien", "abstrusien", "abrakadabria", "absurdistan", "protzland", "land_8",
                 "schwadronien")


def msgs(events: list[Event], viewer: int | None) -> list[Message]:
    return visible_log(events, viewer)


def ids(events: list[Event], viewer: int | None = None) -> list[str]:
    return [m.id for m in visible_log(events, viewer)]


def known(s, seat: int, viewer: int | None) -> tuple[int, ...]:
    return GAME.observe(s, viewer).public.known[seat]


def deal(players: int, seed: int = 1, **options: object):
    """A new game with the four-card hands dealt (§4 step 3, §4.1)."""
    s = GAME.new_initial_state(players, options)
    rng = Random(seed)
    while s.phase == DEAL:
        GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
    return s


def finished(players: int = 4, agents=None, **kw):
    """A position where every hand and deck is empty: all seats go out at once and the game is scored."""
    empty: dict[int, list[int]] = {p: [] for p in range(players)}
    events: list[Event] = []
    s = scenario(players, hands=empty, decks=empty, agents=agents or {}, events=events, **kw)
    assert s.phase == OVER
    return s, events


# ----------------------------------------------------------------------------- §2, §3.4, §4


def test_dc01_deck_composition():
    """DC-01 Deck composition: 25 cards per family (four each of 0-4, three 5s, two 6s), value
    total 67; 4 families, 100 cards."""
    assert data.FAMILY_COUNTS == (4, 4, 4, 4, 4, 3, 2)
    assert sum(data.FAMILY_COUNTS) == 25
    assert sum(v * c for v, c in enumerate(data.FAMILY_COUNTS)) == 67
    s = GAME.new_initial_state(4, {"start_seat": 0})
    assert s.deck_size == [25, 25, 25, 25]
    assert sum(s.deck_size) == 100
    assert all(tuple(d) == (4, 4, 4, 4, 4, 3, 2) for d in s.deck)


@pytest.mark.parametrize(("players", "countries"), [
    (4, ALL_COUNTRIES),
    (3, ("egoistrien", "abrakadabria", "absurdistan", "protzland", "land_8", "schwadronien")),
    (2, ("egoistrien", "abrakadabria", "absurdistan", "protzland", "schwadronien")),
])
def test_dc02_setup_by_player_count(players, countries):
    """DC-02 Setup by player count: 3 players play without Abstrusien, 2 players also without
    Land 8; every player holds 4 cards and has 21 in his deck."""
    s = deal(players)
    view = GAME.observe(s, None)
    assert tuple(c.id for c in view.public.countries) == countries
    assert view.public.hand_sizes == (4,) * players
    assert view.public.deck_sizes == (21,) * players


def test_dc12_code_universe():
    """DC-12 Code universe: 320 codes; per sum as in §3.4; per country Egoistrien 20,
    Abstrusien 13, Abrakadabria 15, Absurdistan 21, Protzland 20, Land 8 24, Schwadronien 100;
    213 / 200 / 176 possible legal codes with 4 / 3 / 2 players."""
    assert len(data.CODES) == 320
    assert len(set(data.CODES)) == 320
    per_sum = Counter(sum(c) for c in data.CODES)
    expected = {0: 4, 1: 4, 2: 7, 3: 9, 4: 13, 5: 15, 6: 21, 7: 20, 8: 24, 9: 24, 10: 26, 11: 24, 12: 26}
    assert {k: per_sum[k] for k in expected} == expected
    assert sum(n for k, n in per_sum.items() if 13 <= k <= 22) == 103
    per_country = Counter(data.COUNTRIES[i].id for i in CODE_COUNTRY[4] if i >= 0)
    assert per_country == {"egoistrien": 20, "abstrusien": 13, "abrakadabria": 15, "absurdistan": 21,
                           "protzland": 20, "land_8": 24, "schwadronien": 100}
    assert [sum(1 for i in CODE_COUNTRY[n] if i >= 0) for n in (4, 3, 2)] == [213, 200, 176]


# ----------------------------------------------------------------------------- codes and scoring


def test_dc03_seed_example():
    """DC-03 Seed example: A's hand {4, 1, 1, 5}; playing the cards 4, 1, 1 is code 1/1/4, sum 6,
    Absurdistan; A scores 1 (no bonus) in an empty Absurdistan."""
    s = scenario(hands={0: [4, 1, 1, 5]})
    action = GAME.parse_action(s, 0, "4/1/1")
    assert action == play("1/1/4")
    assert action.to_text() == "1/1/4"
    GAME.apply(s, 0, action)
    view = GAME.observe(s, 1)
    absurdistan = next(c for c in view.public.countries if c.id == "absurdistan")
    assert absurdistan.agents == ((0, "1/1/4"),)
    assert (view.public.influence[0], view.public.bonus[0], view.public.scores[0]) == (1, 0, 1)


def test_dc03_seed_example_third_agent():
    """DC-03 Seed example: if Absurdistan already held 2 agents, A scores 3 for 1/1/4."""
    s = scenario(hands={0: [4, 1, 1, 5]}, agents={"absurdistan": [(1, "6"), (2, "0/6")]})
    GAME.apply(s, 0, play("1/1/4"))
    assert (s.influence[0], s.bonus[0]) == (3, 0)


def test_dc04_zeros_make_distinct_codes():
    """DC-04 Zeros make distinct codes: A 0/1/6, B 1/6, C 0/1/2/4 are all legal, all go to
    Protzland (sum 7) and score 1, 2 and 3."""
    s = scenario(hands={0: [0, 1, 6, 3], 1: [1, 6, 2, 2], 2: [0, 1, 2, 4]})
    rng = Random(4)
    for seat, code in ((0, "0/1/6"), (1, "1/6"), (2, "0/1/2/4")):
        run_until_turn(s, seat, rng)
        assert s.phase == PLAY
        assert code in legal_texts(s)
        GAME.apply(s, seat, play(code))
    protzland = next(c for c in GAME.observe(s, 3).public.countries if c.id == "protzland")
    assert protzland.agents == ((0, "0/1/6"), (1, "1/6"), (2, "0/1/2/4"))
    assert s.influence[:3] == [1, 2, 3]
    assert s.bonus[:3] == [0, 0, 0]


def test_dc05_global_uniqueness():
    """DC-05 Global uniqueness: after A plays 2/3, B's hand {3, 2, 2, 6} may not play 2/3;
    2/2/3, 2/3/6 and 3 are legal."""
    s = scenario(hands={0: [2, 3, 0, 0], 1: [3, 2, 2, 6]})
    GAME.apply(s, 0, play("2/3"))
    run_until_turn(s, 1, Random(5))
    assert s.phase == PLAY
    legal = legal_texts(s)
    assert "2/3" not in legal
    assert {"2/2/3", "2/3/6", "3"} <= legal
    with pytest.raises(IllegalActionError, match="used already"):
        GAME.apply(s, 1, play("2/3"))


def test_dc06_immediate_influence():
    """DC-06 Immediate influence: Protzland holds A 0/1/6, B 1/6, C 0/1/2/4; D plays 2/5 and
    scores 4."""
    s = scenario(turn=3, hands={3: [2, 5, 0, 0]},
                 agents={"protzland": [(0, "0/1/6"), (1, "1/6"), (2, "0/1/2/4")]})
    assert s.influence == [1, 2, 3, 0]
    GAME.apply(s, 3, play("2/5"))
    assert s.influence[3] == 4
    assert s.bonus[3] == 0


def test_dc07_run_bonus():
    """DC-07 Run bonus: 1/2/3 into an empty Absurdistan scores 1 + 1 = 2; 3/4/5 as the first agent
    in Schwadronien scores 1 + 1 = 2."""
    s = scenario(hands={0: [1, 2, 3, 0]})
    GAME.apply(s, 0, play("1/2/3"))
    assert (s.influence[0], s.bonus[0], s.score(0)) == (1, 1, 2)
    s = scenario(hands={0: [3, 4, 5, 0]})
    GAME.apply(s, 0, play("3/4/5"))
    assert (s.influence[0], s.bonus[0], s.score(0)) == (1, 1, 2)
    schwadronien = next(c for c in GAME.observe(s, 2).public.countries if c.id == "schwadronien")
    assert schwadronien.agents == ((0, "3/4/5"),)


def test_dc08_triple_bonus():
    """DC-08 Triple bonus: Absurdistan holds 1 agent, A plays 2/2/2: 2 + 2 = 4; B plays 1/1/1 into
    an empty Egoistrien: 1 + 2 = 3."""
    s = scenario(hands={0: [2, 2, 2, 0]}, agents={"absurdistan": [(2, "6")]})
    GAME.apply(s, 0, play("2/2/2"))
    assert (s.influence[0], s.bonus[0], s.score(0)) == (2, 2, 4)
    s = scenario(turn=1, hands={1: [1, 1, 1, 0]})
    GAME.apply(s, 1, play("1/1/1"))
    assert (s.influence[1], s.bonus[1], s.score(1)) == (1, 2, 3)


@pytest.mark.parametrize(("hand", "code", "country"), [
    ([0, 1, 2, 3], "0/1/2/3", "absurdistan"),
    ([1, 1, 1, 1], "1/1/1/1", "abstrusien"),
    ([3, 4, 0, 0], "3/4", "protzland"),
    ([1, 1, 2, 0], "1/1/2", "abstrusien"),
])
def test_dc09_no_bonus_outside_three_card_codes(hand, code, country):
    """DC-09 No bonus outside 3-card codes: 0/1/2/3, 1/1/1/1, 3/4 and 1/1/2 score influence only."""
    s = scenario(hands={0: hand})
    GAME.apply(s, 0, play(code))
    assert (s.influence[0], s.bonus[0]) == (1, 0)
    target = next(c for c in GAME.observe(s, 1).public.countries if c.id == country)
    assert target.agents == ((0, code),)


def test_dc10_illegal_sums_zeros():
    """DC-10 Illegal sums: hand {0, 0, 0, 6}: 0, 0/0, 0/0/0 are illegal (sum 0); 6, 0/6, 0/0/6,
    0/0/0/6 are legal (Absurdistan) — and nothing else."""
    s = scenario(hands={0: [0, 0, 0, 6]})
    assert legal_texts(s) == {"6", "0/6", "0/0/6", "0/0/0/6"}
    for code in ("0", "0/0", "0/0/0"):
        with pytest.raises(IllegalActionError, match="digit sum 0"):
            GAME.apply(s, 0, play(code))


def test_dc10_illegal_sums_high():
    """DC-10 Illegal sums: hand {6, 6, 1, 5}: 1/6/6 (13), 5/6/6 (17), 1/5/6/6 (18) are illegal;
    5/6 (11) and 1/5/6 (12) are legal (Schwadronien)."""
    s = scenario(hands={0: [6, 6, 1, 5]})
    legal = legal_texts(s)
    assert {"5/6", "1/5/6"} <= legal
    assert not {"1/6/6", "5/6/6", "1/5/6/6"} & legal
    # §3.2 in full for this hand: 1, 5, 6, 1/5, 1/6, 5/6, 6/6, 1/5/6
    assert legal == {"1", "5", "6", "1/5", "1/6", "5/6", "6/6", "1/5/6"}
    for code, total in (("1/6/6", 13), ("5/6/6", 17), ("1/5/6/6", 18)):
        with pytest.raises(IllegalActionError, match=f"digit sum {total}"):
            GAME.apply(s, 0, play(code))
    GAME.apply(s, 0, play("1/5/6"))
    schwadronien = next(c for c in GAME.observe(s, 1).public.countries if c.id == "schwadronien")
    assert schwadronien.agents == ((0, "1/5/6"),)


def test_dc10_sum_fifteen_never_legal():
    """DC-10 Illegal sums: 4/5/6 and 5/5/5 (sum 15) are never legal, with any player count."""
    for n in (2, 3, 4):
        for code in ("4/5/6", "5/5/5"):
            assert CODE_COUNTRY[n][play(code).code] == -1
    s = scenario(hands={0: [4, 5, 5, 5, 6]})
    assert not {"4/5/6", "5/5/5"} & legal_texts(s)


@pytest.mark.parametrize(("players", "removed"), [(3, {4}), (2, {4, 8})])
def test_dc11_removed_countries(players, removed):
    """DC-11 Removed countries: with 3 players every sum-4 code is illegal, with 2 players also
    every sum-8 code; sums 1-3, 5-7 and 9-12 stay legal."""
    for code in data.CODES:
        text, total = data.code_text(code), sum(code)
        if total in removed:
            s = scenario(players, hands={0: [*code, 5]})
            assert text not in legal_texts(s), text
            assert "5" in legal_texts(s)
            assert legal_texts(s) == legal_by_spec(players, s.hand[0], set())
        elif 1 <= total <= 12:
            s = scenario(players, hands={0: list(code)})
            assert text in legal_texts(s), text
    for text in ("4", "0/4", "1/3", "2/2", "1/1/2", "0/0/4", "1/1/1/1"):
        assert CODE_COUNTRY[players][play(text).code] == -1
    if 8 in removed:
        for text in ("2/6", "4/4", "0/2/6", "2/2/2/2"):
            assert CODE_COUNTRY[players][play(text).code] == -1


# ----------------------------------------------------------------------------- refill, blocked turns


def test_dc13_refill_three():
    """DC-13 Refill: A holds 4 cards, deck 10, plays a 3-card code, draws 3: hand 4, deck 7."""
    s = scenario(hands={0: [1, 2, 3, 0]}, decks={0: [0, 0, 0, 1, 1, 1, 2, 2, 2, 3]})
    assert (s.hand_size[0], s.deck_size[0]) == (4, 10)
    GAME.apply(s, 0, play("1/2/3"))
    draw(s, 0, 1)
    assert s.phase == REFILL and s.turn == 0  # a third card is still due
    draw(s, 2)
    assert (s.hand_size[0], s.deck_size[0]) == (4, 7)
    assert (s.phase, s.turn) == (PLAY, 1)


def test_dc13_refill_until_deck_empty():
    """DC-13 Refill: A holds 4 cards, deck 1, plays a 2-card code, draws 1: hand 3, deck 0."""
    s = scenario(hands={0: [1, 2, 3, 0]}, decks={0: [4]})
    GAME.apply(s, 0, play("1/2"))
    draw(s, 4)
    assert (s.hand_size[0], s.deck_size[0]) == (3, 0)
    assert (s.phase, s.turn) == (PLAY, 1)


def test_dc13_no_refill_above_four():
    """DC-13 Refill: A holds 6 cards after a blocked turn and plays a 1-card code: hand 5, no draw."""
    s = scenario(hands={0: [0, 0, 0, 0]}, used=["6", "0/6", "0/0/6", "0/0/0/6"])
    assert s.phase == BLOCKED_DRAW
    draw(s, 6)
    assert s.phase == BLOCKED_DRAW  # every code with the 6 is used, zeros alone sum to 0
    draw(s, 3)
    assert s.phase == PLAY and s.hand_size[0] == 6
    deck = s.deck_size[0]
    GAME.apply(s, 0, play("3"))
    assert s.hand_size[0] == 5
    assert s.deck_size[0] == deck
    assert (s.phase, s.turn) == (PLAY, 1)


def dc14_after_the_five(events: list[Event] | None = None):
    """DC-14 up to the open draw of the 5: A's hand {0, 0, 0, 0}, next cards 5, 3."""
    s = scenario(hands={0: [0, 0, 0, 0]}, events=events)
    draw(s, 5, events=events)
    return s


def test_dc14_blocked_by_sums():
    """DC-14 Blocked by sums: A's hand {0, 0, 0, 0} is revealed, A draws the 5 in the open, stops
    drawing (the 3 stays in the deck) with 5 cards and must play 5, 0/5, 0/0/5 or 0/0/0/5."""
    events: list[Event] = []
    s = scenario(hands={0: [0, 0, 0, 0]}, events=events)
    assert s.phase == BLOCKED_DRAW and s.turn == 0
    assert [m for m in msgs(events, 2)] == [Message("dc.blocked", seat=0, hand=(0, 0, 0, 0))]
    assert GAME.observe(s, 2).deciding.blocked == 0
    assert all(known(s, 0, p) == (0, 0, 0, 0) for p in (1, 2, 3, None))
    draw(s, 5, events=events)
    assert msgs(events, 3)[-1] == Message("dc.draw.open", seat=0, value=5)
    assert msgs(events, None)[-1] == Message("dc.draw.open", seat=0, value=5)
    assert s.phase == PLAY and GAME.to_act(s) == (0,)
    assert legal_texts(s) == {"5", "0/5", "0/0/5", "0/0/0/5"}
    assert s.hand_size[0] == 5
    assert s.deck_size[0] == 20 and s.deck[0][3] == 4  # the 3 is still in the deck
    assert all(known(s, 0, p) == (0, 0, 0, 0, 5) for p in (1, 2, 3, None))


def test_dc14a_play_four_cards_then_private_refill():
    """DC-14 (a): A plays 0/0/0/5 as the first agent in Abrakadabria, scores 1; hand {0}; draws
    three cards privately (the 3 first, then two more): hand 4."""
    s = dc14_after_the_five()
    GAME.apply(s, 0, play("0/0/0/5"))
    assert (s.influence[0], s.bonus[0]) == (1, 0)
    assert GAME.observe(s, 0).private.hand == (0,)
    assert s.phase == REFILL
    events: list[Event] = []
    draw(s, 3, 1, 2, events=events)
    assert GAME.observe(s, 0).private.hand == (0, 1, 2, 3)
    assert s.hand_size[0] == 4 and s.deck_size[0] == 17
    assert msgs(events, 1) == [Message("dc.draw.hidden", seat=0)] * 3
    assert msgs(events, 0) == [Message("dc.draw", seat=0, value=v) for v in (3, 1, 2)]
    assert known(s, 0, 1) == (0,)
    assert (s.phase, s.turn) == (PLAY, 1)


def test_dc14b_play_one_card_no_draw_blocked_again():
    """DC-14 (b): A plays 5 instead: hand {0, 0, 0, 0}, no draw; on his next turn he is blocked again."""
    s = dc14_after_the_five()
    GAME.apply(s, 0, play("5"))
    assert GAME.observe(s, 0).private.hand == (0, 0, 0, 0)
    assert s.deck_size[0] == 20
    assert (s.phase, s.turn) == (PLAY, 1)
    events: list[Event] = []
    run_until_turn(s, 0, Random(14), events=events)
    assert s.phase == BLOCKED_DRAW and s.turn == 0
    assert msgs(events, 1)[-1] == Message("dc.blocked", seat=0, hand=(0, 0, 0, 0))


def test_dc15_blocked_by_used_codes():
    """DC-15 Blocked by used codes: A's hand {0, 0, 6, 6} with 6, 0/6, 0/0/6, 6/6, 0/6/6 and
    0/0/6/6 used: A is blocked (0 and 0/0 have sum 0), reveals his hand and starts drawing."""
    events: list[Event] = []
    used = ["6", "0/6", "0/0/6", "6/6", "0/6/6", "0/0/6/6"]
    s = scenario(hands={0: [0, 0, 6, 6]}, used=used, strict=False, events=events)
    assert set(used) <= used_texts(s)
    assert s.phase == BLOCKED_DRAW and s.turn == 0 and GAME.to_act(s) == (CHANCE,)
    assert msgs(events, 1) == [Message("dc.blocked", seat=0, hand=(0, 0, 6, 6))]
    assert known(s, 0, 3) == (0, 0, 6, 6)


def test_dc15_position_needs_more_sixes_than_exist():
    """DC-15 note: the position cannot arise with real families — the six used codes contain
    nine 6s and A holds two, but the four families have only eight (§2.1). The strict builder
    refuses it; the scenario test above builds it with strict=False."""
    sixes = sum(play(c).to_text().split("/").count("6") for c in ("6", "0/6", "0/0/6", "6/6", "0/6/6",
                                                                  "0/0/6/6"))
    assert sixes + 2 > 4 * data.FAMILY_COUNTS[6]
    with pytest.raises(ValueError, match="no family has the cards"):
        scenario(hands={0: [0, 0, 6, 6]}, used=["6", "0/6", "0/0/6", "6/6", "0/6/6", "0/0/6/6"])


def test_dc16_deck_runs_out_while_blocked():
    """DC-16 Deck runs out while blocked: A's hand {0, 0, 0, 0}, deck empty, 12 points: A reveals
    and is out, keeps 12 points and his agents; turns skip A from now on."""
    events: list[Event] = []
    s = scenario(hands={0: [0, 0, 0, 0]}, decks={0: []}, influence={0: 12},
                 agents={"protzland": [(0, "1/6")], "schwadronien": [(0, "4/5")]}, events=events)
    assert msgs(events, 1) == [Message("dc.blocked", seat=0, hand=(0, 0, 0, 0)),
                               Message("dc.out", seat=0, score=12)]
    view = GAME.observe(s, 1)
    assert view.public.out == (True, False, False, False)
    assert view.public.scores[0] == 12
    assert {c.id: c.agents for c in view.public.countries if c.agents} == {
        "protzland": ((0, "1/6"),), "schwadronien": ((0, "4/5"),)}
    assert (s.phase, s.turn) == (PLAY, 1)
    turns: list[int] = []
    rng = Random(16)
    while len(turns) < 9:
        if s.phase == PLAY:
            turns.append(s.turn)
        step(s, rng)
    assert turns == [1, 2, 3] * 3
    assert s.score(0) == 12


def test_dc16_no_penalty_for_cards_left():
    """DC-16 Deck runs out while blocked: no penalty for the four zeros — with 2 players and B
    out at once, A's final score is his 12 points plus Protzland's majority (7)."""
    s = scenario(2, hands={0: [0, 0, 0, 0], 1: []}, decks={0: [], 1: []}, influence={0: 12},
                 agents={"protzland": [(0, "1/6")]})
    assert s.phase == OVER
    res = GAME.result(s)
    assert res is not None
    assert res.scores == (19.0, 0.0)


def test_dc17_end_of_game():
    """DC-17 End of game: 2 players, B already out; A takes turns alone until he is out; then the
    game ends and is scored. It never ends while a seat that is not out has cards in his deck."""
    s = scenario(2, out={1})
    rng = Random(17)
    events: list[Event] = []
    while GAME.to_act(s):
        if s.phase == PLAY:
            assert GAME.to_act(s) == (0,)
        assert not (s.deck_size[0] and GAME.is_terminal(s))
        step(s, rng, events=events)
    assert s.out == [True, True]
    assert s.deck_size[0] == 0
    assert not legal_by_spec(2, s.hand[0], used_texts(s))
    assert ids(events)[-1] == "dc.final"
    assert GAME.result(s) is not None


# ----------------------------------------------------------------------------- final scoring


def test_dc18_majority_points():
    """DC-18 Majority points: Abstrusien A 2, B 1 agents: A gets 4; Schwadronien A 1, B 3, C 2:
    B gets 10 (R)."""
    s, events = finished(agents={
        "abstrusien": [(0, "4"), (1, "1/3"), (0, "0/4")],
        "schwadronien": [(0, "3/6"), (1, "4/5"), (2, "5/6"), (1, "4/6"), (2, "2/4/4"), (1, "5/5")],
    })
    assert s.country_points == [4, 10, 0, 0]
    assert Message("dc.majority", country=Message("dc.country.abstrusien"), seats=(0,), points=4) \
        in msgs(events, None)
    assert Message("dc.majority", country=Message("dc.country.schwadronien"), seats=(1,), points=10) \
        in msgs(events, None)


DC19_AGENTS = {
    "egoistrien": [(0, "1"), (1, "2"), (2, "3")],
    "schwadronien": [(0, "4/5"), (1, "5/6"), (0, "4/6"), (1, "5/5"), (0, "3/6"), (1, "3/3/3/3")],
}


@pytest.mark.parametrize(("tie", "expected"), [
    ("all_full", [13, 13, 3, 0]),
    ("split_floor", [6, 6, 1, 0]),
    ("none", [0, 0, 0, 0]),
])
def test_dc19_majority_ties(tie, expected):
    """DC-19 Majority ties: Egoistrien A 1, B 1, C 1; Schwadronien A 3, B 3. all_full: 3 each and
    10 each; split_floor: 1 each and 5 each; none: nothing for either country."""
    s, _ = finished(agents=DC19_AGENTS, options={"majority_tie": tie})
    assert s.country_points == expected


def test_dc19_default_is_all_full():
    """DC-19 Majority ties: all_full is the default."""
    s, _ = finished(agents=DC19_AGENTS)
    assert s.country_points == [13, 13, 3, 0]


def test_dc20_empty_country():
    """DC-20 Empty country: Land 8 has no agents at the end; nobody gets its points."""
    s, events = finished(agents={"protzland": [(0, "1/6")]})
    assert s.country_points == [7, 0, 0, 0]
    assert Message("dc.majority.none", country=Message("dc.country.land_8")) in msgs(events, 2)


def test_dc21_final_total_and_shared_rank():
    """DC-21 Final total and shared rank: A 20 + 3 + 9 = 32, B 25 + 0 + 7 = 32, C 18 + 2 + 5 = 25;
    ranks A 1, B 1, C 3."""
    s, _ = finished(3, agents={"egoistrien": [(0, "1")], "absurdistan": [(0, "6")],
                               "protzland": [(1, "1/6")], "abrakadabria": [(2, "5")]},
                    influence={0: 20, 1: 25, 2: 18}, bonus={0: 3, 1: 0, 2: 2})
    assert s.country_points == [9, 7, 5]
    res = GAME.result(s)
    assert res is not None
    assert res.scores == (32.0, 32.0, 25.0)
    assert res.ranks == (1, 1, 3)
    assert res.winners == (0, 1)
    assert GAME.observe(s, 2).public.ranks == (1, 1, 3)


# ----------------------------------------------------------------------------- turns and information


def test_dc22_mandatory_play_at_most_four_cards():
    """DC-22 Mandatory play, at most 4 cards: with a legal code the legal actions are only PLAY
    actions (no pass); with a hand of 6 cards no legal action has more than 4 cards."""
    s = scenario(hands={0: [0, 1, 2, 3, 4, 5]})
    legal = GAME.legal_actions(s, 0)
    assert legal and all(isinstance(a, Play) for a in legal)
    assert max(len(a.to_text().split("/")) for a in legal) == 4
    assert legal_texts(s) == legal_by_spec(4, s.hand[0], set())


def test_dc23_turn_order():
    """DC-23 Turn order: start_seat = 2 with 4 players: C, D, A, B, C, …"""
    m = Match(GAME, ["A", "B", "C", "D"], options={"start_seat": 2}, seed=23)
    rng = Random(23)
    while len([a for a, _ in m.record.entries if a != CHANCE]) < 12:
        seat = m.pending()[0]
        legal = m.legal(seat)
        m.act(seat, legal[rng.randrange(len(legal))])
    seats = [a for a, _ in m.record.entries if a != CHANCE][:12]
    assert seats == [2, 3, 0, 1] * 3


def test_dc23_turn_order_skips_out_seat():
    """DC-23 Turn order: once D is out: C, A, B, C, …"""
    s = scenario(out={3}, turn=2)
    turns: list[int] = []
    rng = Random(23)
    while len(turns) < 9:
        if s.phase == PLAY:
            turns.append(s.turn)
        step(s, rng)
    assert turns == [2, 0, 1] * 3


RESERVED = {"3", "0/3", "0/0/3", "0/0/0/3", "4/5", "0/4"}


def dc24_after_refill():
    """DC-14 (b) continued as DC-24: A plays 5, is blocked again, draws the 3, plays 0/0/0/3 and
    refills 4, 5, 6 privately."""
    s = dc14_after_the_five()
    GAME.apply(s, 0, play("5"))
    rng = Random(24)
    run_until_turn(s, 0, rng, avoid=RESERVED)
    draw(s, 3)
    GAME.apply(s, 0, play("0/0/0/3"))
    draw(s, 4, 5, 6)
    return s, rng


def test_dc24_revealed_cards_stay_known():
    """DC-24 Revealed cards stay known: after A plays 5 every other seat sees A's hand as {0, 0, 0, 0};
    on his next turn he is blocked, draws the 3 (shown), plays 0/0/0/3 (Egoistrien) and refills
    3 cards privately: the others see one known 0 and 3 unknown cards."""
    s = dc14_after_the_five()
    GAME.apply(s, 0, play("5"))
    for p in (1, 2, 3, None):
        view = GAME.observe(s, p)
        assert view.public.known[0] == (0, 0, 0, 0)
        assert view.public.hand_sizes[0] == 4
    events: list[Event] = []
    run_until_turn(s, 0, Random(24), avoid=RESERVED, events=events)
    assert s.phase == BLOCKED_DRAW
    draw(s, 3, events=events)
    assert msgs(events, 1)[-2:] == [Message("dc.blocked", seat=0, hand=(0, 0, 0, 0)),
                                    Message("dc.draw.open", seat=0, value=3)]
    assert "0/0/0/3" in legal_texts(s)
    GAME.apply(s, 0, play("0/0/0/3"), events)
    assert msgs(events, 1)[-1].get("country") == Message("dc.country.egoistrien")
    draw(s, 4, 5, 6, events=events)
    for p in (1, 2, 3, None):
        view = GAME.observe(s, p)
        assert (view.public.hand_sizes[0], view.public.known[0]) == (4, (0,))
    assert GAME.observe(s, 0).private.hand == (0, 4, 5, 6)


def test_dc28a_mixed_play_keeps_known_zero():
    """DC-28 Known cards after a mixed play (a): A's hand {0, 4, 5, 6} with K = {0}; A plays 4/5:
    K stays {0}; after the private refill of 2 the others see one known 0 and 3 unknown cards."""
    s, rng = dc24_after_refill()
    run_until_turn(s, 0, rng, avoid=RESERVED)
    assert s.phase == PLAY and GAME.observe(s, 0).private.hand == (0, 4, 5, 6)
    assert known(s, 0, 1) == (0,)
    GAME.apply(s, 0, play("4/5"))
    assert known(s, 0, 1) == (0,)
    draw(s, 1, 2)
    for p in (1, 2, 3, None):
        view = GAME.observe(s, p)
        assert (view.public.hand_sizes[0], view.public.known[0]) == (4, (0,))


def test_dc28b_played_zero_counts_against_known():
    """DC-28 Known cards after a mixed play (b): A plays 0/4 (Abstrusien) instead: K becomes empty;
    after the refill all 4 cards are unknown to the others."""
    s, rng = dc24_after_refill()
    run_until_turn(s, 0, rng, avoid=RESERVED)
    GAME.apply(s, 0, play("0/4"))
    assert known(s, 0, 2) == ()
    draw(s, 1, 2)
    for p in (1, 2, 3, None):
        view = GAME.observe(s, p)
        assert (view.public.hand_sizes[0], view.public.known[0]) == (4, ())


def test_dc28_built_directly():
    """DC-28 (a) and (b) from a position written down directly: hand {0, 4, 5, 6}, K = {0}."""
    for code, after in (("4/5", (0,)), ("0/4", ())):
        s = scenario(hands={0: [0, 4, 5, 6]}, known={0: [0]})
        assert known(s, 0, 1) == (0,)
        GAME.apply(s, 0, play(code))
        assert known(s, 0, 1) == after


def test_dc25_reproducible_games():
    """DC-25 Reproducible games: two games with the same seed, options and decisions produce the
    same record, draws and start seat included; the record replays with no RNG to the same state."""
    def run(seed: int) -> Match:
        m = Match(GAME, ["A", "B", "C"], seed=seed)
        m.play_bots({p: UniformBot() for p in range(3)}, {p: bot_rng(seed, p) for p in range(3)})
        return m

    one, two = run(2025), run(2025)
    assert one.is_over()
    assert one.record.entries == two.record.entries
    assert one.record.result == two.record.result
    assert sum(1 for a, t in one.record.entries if a == CHANCE and t.startswith("start ")) == 1
    # §4.1 setup order: the hands of seats 0, 1, 2 one draw at a time, then the start seat
    assert all(a == CHANCE and t.startswith("draw ") for a, t in one.record.entries[:12])
    assert one.record.entries[12][0] == CHANCE and one.record.entries[12][1].startswith("start ")
    s = GAME.new_initial_state(3, one.options)
    for i, (actor, text) in enumerate(one.record.entries[:12]):
        assert s.turn == i // 4
        GAME.apply(s, actor, GAME.parse_action(s, actor, text))
    assert sum(1 for a, t in one.record.entries if a == CHANCE and t.startswith("draw ")) == 75
    assert replay(GAME, one.record) == one.state
    assert GAME.result(replay(GAME, one.record)) == one.result()


def test_dc25_replay_uses_no_rng(monkeypatch):
    """DC-25 Reproducible games: a record replays to the same final state with no RNG at all (any
    use of an RNG or of the chance sampler during the replay fails the test)."""
    m = Match(GAME, ["A", "B", "C", "D"], seed=725)
    m.play_bots({p: UniformBot() for p in range(4)}, {p: bot_rng(725, p) for p in range(4)})
    expected = m.state

    def no_rng(*args, **kwargs):
        raise AssertionError("an RNG was used during the replay")

    for name in ("random", "randrange", "randint", "choice", "choices", "sample", "shuffle", "getrandbits"):
        monkeypatch.setattr(Random, name, no_rng)
    monkeypatch.setattr(GAME, "sample_chance", no_rng)
    monkeypatch.setattr(GAME, "chance_outcomes", no_rng)
    assert replay(GAME, m.record) == expected


def test_dc25_forced_draws_are_exact():
    """DC-25 Reproducible games: a scenario that forces the next draws gets exactly those cards."""
    s = scenario(hands={0: [1, 2, 3, 4]})
    GAME.apply(s, 0, play("1/2/3/4"))
    draw(s, 6, 0, 6, 5)
    assert GAME.observe(s, 0).private.hand == (0, 5, 6, 6)
    s = scenario(hands={0: [6, 6, 1, 2]})  # both 6s of A's family are in his hand
    GAME.apply(s, 0, play("1/2"))
    before = s.clone()
    with pytest.raises(IllegalActionError, match="cannot be drawn"):
        GAME.apply(s, CHANCE, DRAWS[6])
    assert s == before


def test_dc26_last_card_unblocks():
    """DC-26 The last card unblocks: A's hand {0, 0, 0, 0}, deck {2}: A reveals, draws the 2, is not
    out and plays 0/0/0/2 (1 point, Egoistrien empty): hand {0}, deck 0, no refill. On his next
    turn he is blocked with an empty deck: reveals {0} and is out."""
    s = scenario(hands={0: [0, 0, 0, 0]}, decks={0: [2]})
    assert s.phase == BLOCKED_DRAW
    draw(s, 2)
    assert not s.out[0]
    assert s.phase == PLAY and s.turn == 0
    assert legal_texts(s) == {"2", "0/2", "0/0/2", "0/0/0/2"}
    GAME.apply(s, 0, play("0/0/0/2"))
    assert (s.influence[0], s.bonus[0]) == (1, 0)
    assert GAME.observe(s, 0).private.hand == (0,)
    assert s.deck_size[0] == 0
    assert (s.phase, s.turn) == (PLAY, 1)  # no refill
    events: list[Event] = []
    rng = Random(26)
    while not s.out[0]:
        assert s.turn != 0
        step(s, rng, events=events)
    assert msgs(events, 3)[-2:] == [Message("dc.blocked", seat=0, hand=(0,)),
                                    Message("dc.out", seat=0, score=1)]
    assert s.out[0]
    assert s.turn == 1


def test_dc27_blocked_by_other_families_codes():
    """DC-27 Blocked by other families' codes, decided at the start of the turn: 3 players, A's hand
    {1, 1, 1, 1}; B used 1 and 1/1/1; A is not blocked before C plays 1/1, and is blocked at the
    start of his next turn (1/1/1/1 has sum 4: no Abstrusien with 3 players). A reveals and draws."""
    s = scenario(3, turn=2, hands={0: [1, 1, 1, 1], 2: [1, 1, 5, 6]},
                 agents={"egoistrien": [(1, "1"), (1, "1/1/1")]})
    assert legal_by_spec(3, s.hand[0], used_texts(s)) == {"1/1"}
    assert not s.out[0] and s.known[0] == [0] * 7
    events: list[Event] = []
    GAME.apply(s, 2, play("1/1"), events)
    assert s.known[0] == [0] * 7  # nothing is decided for A at C's play
    draw(s, 0, 0, events=events)
    assert s.turn == 0 and s.phase == BLOCKED_DRAW
    assert msgs(events, 1)[-1] == Message("dc.blocked", seat=0, hand=(1, 1, 1, 1))
    assert known(s, 0, 2) == (1, 1, 1, 1)


def test_dc29_all_remaining_players_blocked_with_empty_decks():
    """DC-29 All remaining players blocked with empty decks: 3 players, C out; A {0, 0} and B {0}
    with empty decks, A to move: with no decision A reveals and is out, B reveals and is out, the
    game ends and is scored; no points change; every hand is public at the end."""
    events: list[Event] = []
    s = scenario(3, hands={0: [0, 0], 1: [0], 2: [5]}, decks={0: [], 1: []}, out={2},
                 influence={0: 5, 1: 7, 2: 9}, events=events)
    log = msgs(events, 2)
    assert log[:4] == [Message("dc.blocked", seat=0, hand=(0, 0)), Message("dc.out", seat=0, score=5),
                       Message("dc.blocked", seat=1, hand=(0,)), Message("dc.out", seat=1, score=7)]
    assert log[-1].id == "dc.final"
    assert s.phase == OVER and s.out == [True, True, True]
    res = GAME.result(s)
    assert res is not None and res.scores == (5.0, 7.0, 9.0)
    for p in (0, 1, 2, None):
        assert GAME.observe(s, p).public.hands == ((0, 0), (0,), (5,))
    assert match_at(s).record.entries == []


def test_dc30_single_legal_code_of_a_hidden_hand_is_asked():
    """DC-30 Exactly one legal code: A's hand {0, 0, 0, 4} with 4, 0/4, 0/0/4 used. Only A knows
    that his hand forms exactly one code, so the driver asks him anyway (``always_asked``; a play
    at once would tell the others, issue 9). The record entry is an ordinary [0, "0/0/0/4"] and
    the other seats' log is the same as when A chose 0/0/0/4 among several codes."""
    forced = scenario(hands={0: [0, 0, 0, 4]}, used=["4", "0/4", "0/0/4"])
    assert legal_texts(forced) == {"0/0/0/4"}
    assert GAME.always_asked(forced, 0)
    direct = forced.clone()
    direct_events: list[Event] = []
    GAME.apply(direct, 0, play("0/0/0/4"), direct_events)
    m = match_at(forced)
    assert m.record.entries == [] and m.pending() == (0,)  # asked, with one option
    assert [a.to_text() for a in m.legal(0)] == ["0/0/0/4"]
    m.act(0, "0/0/0/4")
    assert m.record.entries[0] == (0, "0/0/0/4")
    assert [a for a, _ in m.record.entries[1:5]] == [CHANCE] * 4
    assert m.pending() == (1,)  # B has several codes: he is asked
    assert m.state.influence[0] == 4
    assert [e for i, e in m.events if i == 0] == direct_events  # the driver adds no mark
    chosen_state = scenario(hands={0: [0, 0, 0, 4]}, used=["4", "0/4", "1/3"])
    assert legal_texts(chosen_state) == {"0/0/4", "0/0/0/4"}
    chosen = match_at(chosen_state)
    assert chosen.pending() == (0,)  # two legal codes: A is asked
    chosen.act(0, "0/0/0/4")
    assert chosen.record.entries[0] == (0, "0/0/0/4")
    for p in (1, 2, 3, None):
        assert m.log(p) == chosen.log(p)
    assert m.log(1)[0] == Message("dc.play", seat=0, code="0/0/0/4",
                                  country=Message("dc.country.abstrusien"), influence=4, bonus=0)


def test_dc30_single_legal_code_of_a_known_hand_is_a_forced_step():
    """DC-30 Exactly one legal code, with a hand every seat knows: A is blocked with {0, 0, 0, 0}
    (4, 0/4, 0/0/4 used) and draws the 4 in the open; his only legal code 0/0/0/4 is public
    knowledge, so the driver plays it without asking (spec §0 forced step)."""
    s = scenario(hands={0: [0, 0, 0, 0]}, used=["4", "0/4", "0/0/4"])
    assert s.phase == BLOCKED_DRAW
    draw(s, 4)
    assert s.phase == PLAY and legal_texts(s) == {"0/0/0/4"}
    assert all(known(s, 0, p) == (0, 0, 0, 0, 4) for p in (1, 2, 3, None))
    assert not GAME.always_asked(s, 0)
    m = match_at(s)
    assert m.record.entries[0] == (0, "0/0/0/4")
    assert m.pending() != (0,)


def test_dc31_empty_deck_still_playing_then_out_at_once():
    """DC-31 Empty deck, still playing; then out at once: A's hand {3}, deck empty, 3 unused: A plays
    3 (forced step), scores, hand 0, deck 0, no refill; on his next turn he is out at once."""
    s = scenario(hands={0: [3]}, decks={0: []})
    assert s.phase == PLAY and legal_texts(s) == {"3"}
    m = match_at(s)
    assert m.record.entries == [(0, "3")]  # no refill draw follows
    assert (m.state.influence[0], m.state.hand_size[0], m.state.deck_size[0]) == (1, 0, 0)
    assert m.pending() == (1,)
    while not m.state.out[0]:
        seat = m.pending()[0]
        assert seat != 0
        m.act(seat, m.legal(seat)[0])
    assert m.state.out[0]
    assert all(a != 0 for a, _ in m.record.entries[1:])  # A was never asked again
    seen_by_b = [msg for msg in m.log(1) if dict(msg.params).get("seat") == 0]
    assert seen_by_b[-2:] == [Message("dc.blocked.empty", seat=0), Message("dc.out", seat=0, score=1)]
    assert not any(msg.id == "dc.draw.open" for msg in seen_by_b)  # no blocked draw was started
    assert m.state.turn == 1


def test_dc32_what_the_others_see_of_a_deck():
    """DC-32 What the others see of a deck: right after setup B sees A with hand size 4, deck size
    21 and K empty; A's hand and deck are the full family composition; A sees his own 4 cards and
    deck size 21."""
    s = deal(4, seed=32, start_seat=0)
    b = GAME.observe(s, 1)
    assert (b.public.hand_sizes[0], b.public.deck_sizes[0], b.public.known[0]) == (4, 21, ())
    assert [h + d for h, d in zip(s.hand[0], s.deck[0], strict=True)] == list(data.FAMILY_COUNTS)
    a = GAME.observe(s, 0)
    assert a.private is not None and len(a.private.hand) == 4 and a.public.deck_sizes[0] == 21
    assert Counter(a.private.hand) == Counter({v: c for v, c in enumerate(s.hand[0]) if c})
    # B cannot tell A's hand from any other split of A's family: swap a hand card with a deck card
    other = s.clone()
    v = next(v for v in range(7) if other.hand[0][v])
    w = next(w for w in range(7) if other.deck[0][w] and w != v)
    other.hand[0][v] -= 1
    other.hand[0][w] += 1
    other.deck[0][w] -= 1
    other.deck[0][v] += 1
    other.hand_key[0] += 5 ** w - 5 ** v
    other.touch()
    assert other != s
    assert GAME.observe(other, 1) == b
    assert GAME.observe(other, None) == GAME.observe(s, None)


# ----------------------------------------------------------------------------- coverage of §12


def test_every_spec_scenario_has_a_test():
    """Every scenario id **DC-NN** of the spec's §12 is named in some test docstring here."""
    if not SPEC.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"spec not found at {SPEC}")
        pytest.skip(f"spec not found at {SPEC}")
    wanted = {int(x) for x in re.findall(r"\*\*DC-(\d+)", SPEC.read_text(encoding="utf-8"))}
    assert wanted == set(range(1, 33))
    named: set[int] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                doc = ast.get_docstring(node) or ""
                named |= {int(x) for x in re.findall(r"DC-(\d+)", doc)}
    assert sorted(wanted - named) == []
