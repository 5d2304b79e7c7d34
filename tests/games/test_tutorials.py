"""Every game's tutorial (``games/<g>/tutorial.py``): legal positions, accepted moves, refusals, words.

Each step's position must be a consistent position with the learner (seat 0) to act, its accepted
moves legal for seat 0; any other move is refused and changes nothing; the texts exist in German
and English with the same parameters; and each step teaches what it says: after the accepted move
(and the scripted replies) the effect the explanation names holds in the state.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from tablero.core.messages import LANGUAGES, Message, Translator, template_fields
from tablero.core.tutorial import LEARNER, Attempt, attempt
from tablero.games.doncarlo.data import CODES as DC_CODES
from tablero.games.doncarlo.data import COUNTRY_INDEX, FAMILY_COUNTS
from tablero.games.doncarlo.state import OVER as DC_OVER
from tablero.games.elgrande import data as eg_data
from tablero.games.elgrande.data import AREA_INDEX, CASTILLO, KING_CARD
from tablero.games.elgrande.state import ORDER
from tablero.games.mafia import data as ml_data
from tablero.registry import GAMES, TUTORIALS, get_tutorial

from .mafia.helpers import card_totals, full_totals

CASES = [pytest.param(gid, k, id=f"{gid}-{s.id}") for gid, t in sorted(TUTORIALS.items())
         for k, s in enumerate(t.steps)]


def legal_texts(a: Attempt[Any, Any, Any]) -> list[str]:
    return [x.to_text() for x in a.match.legal(LEARNER)]


def accepted(gid: str, k: int) -> list[str]:
    """The learner's legal moves at step ``k`` that the step accepts."""
    step = get_tutorial(gid).steps[k]
    return [t for t in legal_texts(attempt(get_tutorial(gid), k, [])) if step.accepts(t)]


def test_every_game_has_a_tutorial_of_five_to_eight_steps() -> None:
    assert set(TUTORIALS) == set(GAMES)
    for gid, tut in TUTORIALS.items():
        assert tut.game is GAMES[gid]
        assert 5 <= len(tut.steps) <= 8, gid
        assert len({s.id for s in tut.steps}) == len(tut.steps), gid


# ----------------------------------------------------------------------------- positions and moves


def _consistent(gid: str, s: Any) -> None:
    """The game's own invariants of a position (what a position built by hand could break)."""
    if gid == "el-grande":
        for p in range(s.n):
            assert s.court[p] + s.province[p] + sum(s.cab[p]) == eg_data.CABALLEROS
    elif gid == "mafia-legend":
        totals = full_totals(s.n, s.variant)
        here = card_totals(s)
        assert all(here.get(c, 0) <= k for c, k in totals.items()) and set(here) <= set(totals)
    else:
        for p in range(s.n):
            placed = [0] * 7
            for agents in s.agents:
                for seat, code in agents:
                    if seat == p:
                        for v in DC_CODES[code]:
                            placed[v] += 1
            assert all(h + d + a <= f for h, d, a, f in zip(s.hand[p], s.deck[p], placed, FAMILY_COUNTS, strict=True))


@pytest.mark.parametrize(("gid", "k"), CASES)
def test_position_is_legal_and_the_accepted_moves_are_legal_for_the_learner(gid: str, k: int) -> None:
    tut = get_tutorial(gid)
    step = tut.steps[k]
    a = attempt(tut, k, [])
    game, state = tut.game, a.match.state
    assert a.accepted is None and a.say is None and a.moves == ()
    assert LEARNER in a.match.pending()
    assert game.state_from_json(game.state_to_json(state)) == state  # a position the state format holds
    _consistent(gid, state)
    legal = legal_texts(a)
    ok = [t for t in legal if step.accepts(t)]
    assert ok, f"{step.id}: no legal move is accepted"
    assert len(ok) < len(legal), f"{step.id}: every move is accepted, nothing to learn"
    if isinstance(step.accept, frozenset):
        assert step.accept <= set(legal), f"{step.id}: accepts moves seat 0 cannot make: {step.accept - set(legal)}"


@pytest.mark.parametrize(("gid", "k"), CASES)
def test_a_wrong_move_is_refused_and_changes_nothing(gid: str, k: int) -> None:
    tut = get_tutorial(gid)
    step = tut.steps[k]
    fresh = tut.start(k)
    wrong = [t for t in legal_texts(attempt(tut, k, [])) if not step.accepts(t)]
    for text in [*wrong[:6], "no such move"]:
        a = attempt(tut, k, [text])
        assert a.accepted is False and a.say == step.hint and a.moves == ()
        assert a.match.state == fresh.state
        assert a.match.record.entries == fresh.record.entries
        assert a.match.log(LEARNER) == fresh.log(LEARNER)


@pytest.mark.parametrize(("gid", "k"), CASES)
def test_the_accepted_move_is_played_the_same_way_every_time(gid: str, k: int) -> None:
    tut = get_tutorial(gid)
    for text in accepted(gid, k):
        one, two = attempt(tut, k, [text]), attempt(tut, k, [text])
        assert one.accepted is True and one.say == tut.steps[k].explain and one.moves == (text,)
        assert one.match.record.entries[: len(tut.start(k).record.entries) + 1][-1] == (LEARNER, text)
        assert one.match.state == two.match.state and one.match.record.entries == two.match.record.entries


def test_a_step_asks_for_one_move_and_exists() -> None:
    from tablero.core.errors import TableroError

    tut = get_tutorial("don-carlo")
    with pytest.raises(TableroError):
        attempt(tut, 0, ["1/6", "1/6"])
    with pytest.raises(TableroError):
        attempt(tut, len(tut.steps), [])


# ----------------------------------------------------------------------------- words

PLACEHOLDER = re.compile(r"\b(tut|eg|dc|ml)\.[a-z_.]+\(")
"""A message rendered without a template (the Translator writes ``id(params)``)."""


@pytest.mark.parametrize("gid", sorted(TUTORIALS))
def test_texts_exist_in_both_languages(gid: str) -> None:
    tut = get_tutorial(gid)
    cat = tut.catalogue
    assert set(cat) == set(LANGUAGES)
    assert set(cat["en"]) == set(cat["de"])
    for key in cat["en"]:
        assert template_fields(cat["en"][key]) == template_fields(cat["de"][key]), key
        if " " in cat["en"][key]:  # a sentence, not a game term such as "Veto!"
            assert cat["en"][key] != cat["de"][key], f"{key}: the German text is the English one"
    for lang in LANGUAGES:
        tr = Translator(lang, [tut.game.catalogue(), tut.catalogue], tut.names)
        for m in tut.messages():
            assert all(i in cat[lang] or i in tut.game.catalogue()[lang] for i in m.ids()), m
            text = tr(m)
            assert text and not PLACEHOLDER.search(text), text
            assert "{" not in text and "}" not in text, text


# ----------------------------------------------------------------------------- each step teaches it

def _msgs(log: list[Message], mid: str) -> list[Message]:
    return [m for m in log if m.id == mid]


def _dc_code(before: Any, after: Any, log: list[Message]) -> None:
    protzland = after.agents[COUNTRY_INDEX["protzland"]]
    assert protzland[-1][0] == LEARNER and len(protzland) == 3
    assert after.influence[LEARNER] - before.influence[LEARNER] == 3  # the 3rd agent scores 3
    assert after.hand_size[LEARNER] == 4  # refilled to four


def _dc_bonus(before: Any, after: Any, log: list[Message]) -> None:
    assert after.bonus[LEARNER] - before.bonus[LEARNER] == 2
    assert after.influence[LEARNER] - before.influence[LEARNER] == 1
    assert after.agents[COUNTRY_INDEX["egoistrien"]][-1][0] == LEARNER


def _dc_unique(before: Any, after: Any, log: list[Message]) -> None:
    protzland = after.agents[COUNTRY_INDEX["protzland"]]
    assert len(protzland) == 2 and protzland[-1][0] == LEARNER
    assert after.influence[LEARNER] - before.influence[LEARNER] == 2
    assert _msgs(log, "dc.play")[-1].get("code") == "0/2/5"


def _dc_blocked(before: Any, after: Any, log: list[Message]) -> None:
    from tablero.games.doncarlo.rules import GAME as DC

    assert before.blocked and before.known[LEARNER][0] == 4  # the hand of zeros was shown
    assert any(m.id == "dc.draw.open" and m.get("value") == 5 for m in log)  # the 5 drawn face up
    assert after.agents[COUNTRY_INDEX["abrakadabria"]][-1][0] == LEARNER
    assert DC.observe(after, 1).public.known[LEARNER] == (0,)  # the zero left is known to the others


def _dc_majority(before: Any, after: Any, log: list[Message]) -> None:
    assert after.phase == DC_OVER
    shares = [m for m in _msgs(log, "dc.majority") if m.get("country") == Message("dc.country.schwadronien")]
    assert len(shares) == 1 and shares[0].get("seats") == (0, 1) and shares[0].get("points") == 10


def _eg_power(before: Any, after: Any, log: list[Message]) -> None:
    from tablero.games.elgrande.rules import GAME as EG

    assert after.order == [0, 1, 2] and after.power_now == [11, 7, 3]
    assert {a.to_text() for a in EG.legal_actions(after, LEARNER)} == {"intake 0", "intake 1"}


def _eg_intake(before: Any, after: Any, log: list[Message]) -> None:
    assert after.court[LEARNER] == before.court[LEARNER] + 4 == 11
    assert after.province[LEARNER] == before.province[LEARNER] - 4


def _eg_take(before: Any, after: Any, log: list[Message]) -> None:
    from tablero.games.elgrande.rules import GAME as EG

    assert after.card == KING_CARD and after.phase == ORDER
    assert {a.to_text() for a in EG.legal_actions(after, LEARNER)} == {"action_first", "place_first"}


def _eg_place(before: Any, after: Any, log: list[Message]) -> None:
    placed = [a for a in range(eg_data.NUM_AREAS) if after.cab[LEARNER][a] != before.cab[LEARNER][a]]
    assert len(placed) == 1 and placed[0] in eg_data.NEIGHBOURS[after.king]
    assert after.court[LEARNER] == before.court[LEARNER] - 1


def _eg_ties(before: Any, after: Any, log: list[Message]) -> None:
    assert after.score == [3, 3, 1]  # A and B tied for 1st: both 2nd (3 points); C 3rd (1)


def _eg_castillo(before: Any, after: Any, log: list[Message]) -> None:
    assert all(after.cab[p][CASTILLO] == 0 for p in range(after.n))
    assert after.cab[LEARNER][AREA_INDEX["galicia"]] == 4 and after.cab[1][AREA_INDEX["galicia"]] == 2
    assert after.score[LEARNER] == 5 + 4 + 2  # Castillo 1st, Galicia 1st, Grande bonus in Galicia
    assert after.court[1] == before.court[1] + 2  # Bruno's disk on the King's region: back to his court


def _eg_veto(before: Any, after: Any, log: list[Message]) -> None:
    assert after.king == before.king == AREA_INDEX["sevilla"]
    assert before.veto[LEARNER] == [3] and after.veto[LEARNER] == []
    assert after.cab[2][AREA_INDEX["granada"]] == before.cab[2][AREA_INDEX["granada"]] + 2
    assert not any(m.id == "eg.king" for m in log)


def _ml_ashtray(before: Any, after: Any, log: list[Message]) -> None:
    assert after.discs[LEARNER] == before.discs[LEARNER] - 1 == 5
    assert sum(after.hand_a[LEARNER].values()) == sum(before.hand_a[LEARNER].values()) + 3
    assert after.ashtray == 1


def _ml_job_card(before: Any, after: Any, log: list[Message]) -> None:
    assert [c.card for c in after.fields[LEARNER][0]] == ["T01", "T06"]


def _ml_attempt(before: Any, after: Any, log: list[Message]) -> None:
    assert after.vp[LEARNER] == before.vp[LEARNER] + 5
    assert after.jobs_done[LEARNER] == ["J05"] and after.job != "J05"
    assert sum(after.screen[LEARNER].values()) == sum(before.screen[LEARNER].values()) + 3  # $2 of the job, $1 of T06
    assert after.fields[LEARNER][0] == []


def _ml_attack(before: Any, after: Any, log: list[Message]) -> None:
    assert [c.card for c in before.fields[1][2]] == ["G2", "G3"] and after.fields[1][2] == []
    assert after.disc_m.get("G2") == 1 and after.disc_m.get("G3") == 1
    assert after.atk[1] is None


def _ml_defend(before: Any, after: Any, log: list[Message]) -> None:
    assert after.atk[LEARNER] is None
    assert after.disc_a.get("A05") == 1 and after.disc_a.get("D02") == 1
    assert [c.card for c in after.fields[LEARNER][1]] == ["G3"]  # nothing raided


def _ml_month_end(before: Any, after: Any, log: list[Message]) -> None:
    assert after.chars[LEARNER] == ["P1"] and after.chars[1] == []
    assert ml_data.CHARS["P1"].bribe == 7 == 2 + 5  # Ana's $7 reach the minimum, Bruno's $5 do not
    assert after.decision is not None and after.decision.kind == "choose_event"  # P1's bonus: an event


EFFECTS: dict[tuple[str, str], Callable[[Any, Any, list[Message]], None]] = {
    ("don-carlo", "code"): _dc_code, ("don-carlo", "bonus"): _dc_bonus, ("don-carlo", "unique"): _dc_unique,
    ("don-carlo", "blocked"): _dc_blocked, ("don-carlo", "majority"): _dc_majority,
    ("el-grande", "power"): _eg_power, ("el-grande", "intake"): _eg_intake, ("el-grande", "take"): _eg_take,
    ("el-grande", "place"): _eg_place, ("el-grande", "ties"): _eg_ties, ("el-grande", "castillo"): _eg_castillo,
    ("el-grande", "veto"): _eg_veto,
    ("mafia-legend", "ashtray"): _ml_ashtray, ("mafia-legend", "job_card"): _ml_job_card,
    ("mafia-legend", "attempt"): _ml_attempt, ("mafia-legend", "attack"): _ml_attack,
    ("mafia-legend", "defend"): _ml_defend, ("mafia-legend", "month_end"): _ml_month_end,
}


def test_every_step_has_its_effect_checked() -> None:
    assert set(EFFECTS) == {(gid, s.id) for gid, t in TUTORIALS.items() for s in t.steps}


@pytest.mark.parametrize(("gid", "k"), CASES)
def test_each_step_teaches_what_it_says(gid: str, k: int) -> None:
    step = get_tutorial(gid).steps[k]
    for text in accepted(gid, k):
        tut = get_tutorial(gid)
        before = tut.start(k).state
        a = attempt(tut, k, [text])
        EFFECTS[(gid, step.id)](before, a.match.state, a.match.log(LEARNER))
