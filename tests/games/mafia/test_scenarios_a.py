"""Mafia Legend spec §20, test scenarios MA-01 … MA-16 (one test per scenario, or a few per case).

Players A, B, C, D are seats 0, 1, 2, 3, in this turn order; families Moretti, Rinaldi, Orsini,
Lombardo unless a test says otherwise. Positions are built with ``tablero.games.mafia.setup``;
chance outcomes (draws, W8 rolls) are forced where the spec fixes them.
"""

from __future__ import annotations

from random import Random

import pytest

from tablero.core.errors import IllegalActionError
from tablero.core.protocol import CHANCE
from tablero.games.mafia import data
from tablero.games.mafia.rules import GAME
from tablero.games.mafia.setup import at_month_end, scenario
from tablero.games.mafia.state import Decision, MafiaState

from .helpers import (
    A,
    B,
    C,
    D,
    asked,
    card_totals,
    chance,
    do,
    draw_any,
    forced,
    full_totals,
    kind_of,
    kinds,
    n_cards,
    pending,
    quiet,
    texts,
    turn_of,
)


def _new_game(players: int, **options: object) -> MafiaState:
    """A real new game, its setup chance nodes sampled from a fixed seed, up to the first decision."""
    s = GAME.new_initial_state(players, options)
    rng = Random(7)
    while GAME.to_act(s) == (CHANCE,):
        GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
    return s


def test_scenario_builder_conserves_cards() -> None:
    """The scenario builder takes every card it places out of its deck (card conservation)."""
    s = scenario(hands={A: ["A04", "T01", "G2"]}, screens={B: ["G5"]}, chars={C: ["P4"]},
                 grid={D: {"job": ["T06"], "k1": ["G5", "S:G2"]}}, atk={B: ("A04", A, False, "me")},
                 events=["EV01"])
    assert card_totals(s) == full_totals()
    assert pending(s) == Decision("turn", A) and s.step == 1


# ----------------------------------------------------------------------------- MA-01, MA-02 setup


@pytest.mark.parametrize("missions", [False, True])
def test_ma01_setup_four_players(missions: bool) -> None:
    """MA-01 Setup (4 players): hands, screens, discs, decks, row, job, month/phase, poker chip."""
    s = _new_game(4, families="moretti,rinaldi,orsini,lombardo", start_seat=0, missions=missions)
    assert pending(s) == Decision("turn", A) and s.step == 1
    for q in range(4):
        assert n_cards(s.hand_a[q]) == 6
        assert n_cards(s.hand_m[q]) == 0
        assert n_cards(s.screen[q]) == 4
        assert s.discs[q] == 6
        assert s.vp[q] == 0
    assert n_cards(s.decks["C"]) == 36
    assert all(s.row) and len(s.row) == 4
    assert s.job in data.JOBS_BY_ID
    assert n_cards(s.decks["A"]) == 56
    assert n_cards(s.decks["M"]) == 32
    assert s.powers == [-1] * 5
    assert (s.month, s.phase) == (1, 1)
    assert s.order[0] == A  # A is the start player: he holds the poker chip
    assert n_cards(s.decks["J"]) == 17
    assert n_cards(s.decks["E"]) == 16
    assert s.this_events == [] and s.next_events == []
    if missions:
        assert all(m in data.MISSIONS for m in s.mission)
        assert len(set(s.mission)) == 4
        assert n_cards(s.decks["X"]) == 8
    else:
        assert s.mission == [""] * 4
    assert card_totals(s) == full_totals(4)


def test_ma02_setup_three_players() -> None:
    """MA-02 Setup (3 players): 30 character cards, 26 after the row; 3 rows; action 62, money 36."""
    s = GAME.new_initial_state(3, {"families": "moretti,rinaldi,orsini", "start_seat": 0})
    built = set(s.decks["C"])
    assert len(built) == 30
    assert not any(data.CHARS[c].four_only for c in built)
    rng = Random(3)
    while GAME.to_act(s) == (CHANCE,):
        GAME.apply(s, CHANCE, GAME.sample_chance(s, rng))
    assert n_cards(s.decks["C"]) == 26
    assert all(s.row) and not any(data.CHARS[c].four_only for c in s.row)
    assert len(s.order) == 3 and len(s.fields) == 3 and len(s.atk) == 3
    assert n_cards(s.decks["A"]) == 80 - 18 == 62
    assert n_cards(s.decks["M"]) == 48 - 12 == 36
    assert card_totals(s) == full_totals(3)


# ----------------------------------------------------------------------------- MA-03 draw back

TOOLS = ["T01", "T02", "T04", "T06", "T11"]


def _play_n(s: MafiaState, seat: int, k: int) -> None:
    cards = sorted(s.hand_a[seat])
    for i in range(k):
        do(s, f"play {cards[i]} hand k{i + 1}", seat=seat)


@pytest.mark.parametrize(("played", "drawn"), [(2, 0), (1, 1), (0, 2)])
def test_ma03_draw_back(played: int, drawn: int) -> None:
    """MA-03 Draw back: A plays 2 → draws 0; plays 1 → draws 1; plays 0 → draws 2."""
    s = scenario(hands={A: TOOLS})
    asked(s, A, "disc none")
    _play_n(s, A, played)
    asked(s, A, "end_plays")
    for _ in range(drawn):
        assert pending(s) == Decision("chance_draw", A, deck="A", dest="hand")
        chance(s, "draw T12")
    assert pending(s) == Decision("turn", B)
    assert n_cards(s.hand_a[A]) == 5 - played + drawn


@pytest.mark.parametrize(("played", "drawn"), [(4, 0), (1, 1)])
def test_ma03_draw_back_orsini(played: int, drawn: int) -> None:
    """MA-03 Orsini with his ability plays 4 → draws 0; plays 1 → draws 1."""
    s = scenario(hands={C: TOOLS}, turn=2)
    asked(s, C, "ability grossoffensive")
    asked(s, C, "disc none")
    _play_n(s, C, played)
    if played == 4:
        assert kinds(s, "play", C) == set()  # the fifth play is illegal
    asked(s, C, "end_plays")
    for _ in range(drawn):
        assert pending(s) == Decision("chance_draw", C, deck="A", dest="hand")
        chance(s, "draw T12")
    assert pending(s) == Decision("turn", D)
    assert n_cards(s.hand_a[C]) == 5 - played + drawn


def test_ma03_curfew_limits_plays() -> None:
    """MA-03 Under EV11 a second PLAY in one turn is illegal (for Orsini with Großoffensive the third)."""
    s = scenario(hands={A: TOOLS}, events=["EV11"])
    asked(s, A, "disc none")
    _play_n(s, A, 1)
    assert kinds(s, "play", A) == set()
    with pytest.raises(IllegalActionError):
        do(s, "play T04 hand k2", seat=A)
    assert texts(s, A) == {"end_plays", "ability geldwaesche"}

    s = scenario(hands={C: TOOLS}, events=["EV11"], turn=2)
    asked(s, C, "ability grossoffensive")
    asked(s, C, "disc none")
    _play_n(s, C, 2)
    assert kinds(s, "play", C) == set()
    with pytest.raises(IllegalActionError):
        do(s, "play T11 hand k3", seat=C)
    asked(s, C, "end_plays")
    assert pending(s) == Decision("turn", D)  # played 2: draws 0


# ----------------------------------------------------------------------------- MA-04 ashtray


def test_ma04_ashtray() -> None:
    """MA-04 Ashtray: A takes 3 action cards (6 → 9); B can't use it that month, can the next;
    A's discs 6 → 5 and stay 5."""
    hand = ["A01", "A04", "D02", "T01", "T02", "T04"]
    s = scenario(hands={A: hand, B: ["T11"]})
    assert {"disc ashtray_money", "disc ashtray_actions"} <= kinds(s, "disc", A)
    asked(s, A, "disc ashtray_actions")
    assert s.discs[A] == 5
    chance(s, "draw T06", "draw T07", "draw T08")
    assert n_cards(s.hand_a[A]) == 9
    assert pending(s) == Decision("turn", A) and s.step == 2
    asked(s, A, "end_plays")
    chance(s, "draw T11", "draw T12")
    assert pending(s) == Decision("discard", A, reason="limit")  # 11 action cards: the hand limit of 10 (§7.6)
    do(s, "discard T12 hand", seat=A)
    assert pending(s) == Decision("turn", B)
    assert kinds(s, "disc", B) == {"disc none", "disc protect"}
    with pytest.raises(IllegalActionError):
        do(s, "disc ashtray_money", seat=B)
    # the rest of the month goes by; next month B may use the ashtray
    quiet(s, turn_of(B, month=2))
    assert s.discs[A] == 5
    assert s.ashtray == 0
    assert {"disc ashtray_money", "disc ashtray_actions"} <= kinds(s, "disc", B)


def test_ma04_no_disc_or_blackout() -> None:
    """MA-04 A player with 0 discs, or anyone under EV16, has only DISC(NONE)."""
    s = scenario(discs={A: 0})
    assert kinds(s, "disc", A) == {"disc none"}
    s = scenario(events=["EV16"])
    assert kinds(s, "disc", A) == {"disc none"}
    assert s.discs[A] == 6


# ----------------------------------------------------------------------------- MA-05 protection


def test_ma05_protection_and_one_attack_per_field() -> None:
    """MA-05 B PROTECTs: C may not target B. A's face-down A04 in C's field: D may not target C,
    and C may not PROTECT this month."""
    s = scenario(hands={A: ["A04"], C: ["A05"], D: ["A06"]})
    asked(s, A, "disc none")
    asked(s, A, "play A04 hand atk:2")
    asked(s, A, "end_plays")
    draw_any(s, 1)
    asked(s, B, "disc protect")
    x = s.atk[B]
    assert x is not None and x.is_disc
    asked(s, B, "end_plays")
    draw_any(s, 2)
    assert pending(s) == Decision("turn", C)
    assert "disc protect" not in kinds(s, "disc", C)
    asked(s, C, "disc none")
    c_targets = {t.split()[3] for t in kinds(s, "play", C) if "atk:" in t}
    assert c_targets == {"atk:0", "atk:3"}
    with pytest.raises(IllegalActionError):
        do(s, "play A05 hand atk:1", seat=C)
    asked(s, C, "end_plays")
    draw_any(s, 2)
    asked(s, D, "disc none")
    d_targets = {t.split()[3] for t in kinds(s, "play", D) if "atk:" in t}
    assert d_targets == {"atk:0"}
    with pytest.raises(IllegalActionError):
        do(s, "play A06 hand atk:2", seat=D)


# ----------------------------------------------------------------------------- MA-06 eye, immediate


def _ma06() -> MafiaState:
    s = scenario(phase=2, grid={B: {"k2": ["G2", "G3"]}}, hands={A: ["A01", "A04"], B: ["D05"], C: ["A04"]})
    asked(s, A, "disc none")
    assert "play A04 hand atk:1 up now" not in texts(s, A)  # A04 has no eye
    assert "play A04 hand atk:1 up me" not in texts(s, A)
    with pytest.raises(IllegalActionError):
        do(s, "play A04 hand atk:1 up now", seat=A)
    asked(s, A, "play A01 hand atk:1 up now")
    assert pending(s) == Decision("defend", B)
    assert texts(s, B) == {"defend D05", "no_defence"}
    return s


def test_ma06_eye_immediate_defended() -> None:
    """MA-06 A01 face up NOW against B; B defends with D05 (3 vs 3): A01 fails, both discarded;
    B's field is empty again, so C may attack B."""
    s = _ma06()
    asked(s, B, "defend D05")
    assert s.atk[B] is None
    assert s.disc_a == {"A01": 1, "D05": 1}
    assert [sl.card for sl in s.fields[B][2]] == ["G2", "G3"]
    assert pending(s) == Decision("turn", A) and s.step == 2 and s.played == 1
    asked(s, A, "end_plays")
    quiet(s, lambda x: x.decision == Decision("turn", C) and x.step == 1)
    asked(s, C, "disc none")
    assert "play A04 hand atk:1" in texts(s, C)


def test_ma06_eye_immediate_undefended() -> None:
    """MA-06 replay without defence: A chooses K2 (the only field with cards); B's two money cards
    go to the money discard."""
    s = _ma06()
    asked(s, B, "no_defence")
    assert pending(s) == Decision("raid", A, target=B)
    forced(s, "raid k2")
    assert s.fields[B][2] == []
    assert s.disc_m == {"G2": 1, "G3": 1}
    assert s.disc_a == {"A01": 1}
    assert s.atk[B] is None
    assert pending(s) == Decision("turn", A) and s.step == 2  # A01 shows no $: nothing drawn


# ----------------------------------------------------------------------------- MA-07 star rule


@pytest.mark.parametrize(("b_vp", "b_after"), [(10, 6), (3, 0)])
def test_ma07_star_rule(b_vp: int, b_after: int) -> None:
    """MA-07 Only the first star card revealed at month end counts: A11 on B (B −4, not below 0,
    A +2); A10 on D ignored without a defence question; C's A12 as a fist card in K1 ignored."""
    s = scenario(
        vp={B: b_vp},
        row=["P4", "S2", "W3", "R4"],
        atk={B: ("A11", A, False, "me"), D: ("A10", C, False, "me")},
        grid={A: {"k1": ["G3"]}, C: {"k1": ["A12", "T12"]}},
        hands={D: ["D04", "D05"]},
    )
    at_month_end(s)
    assert pending(s) == Decision("defend", B)
    asked(s, B, "no_defence", only=True)
    assert s.vp[B] == b_after
    assert s.vp[A] == 2
    # A10 on D was ignored: discarded, D (who holds covering cards) was never asked, unaffected
    assert s.atk[D] is None
    assert s.disc_a.get("A10") == 1
    assert n_cards(s.hand_a[D]) == 2 and s.vp[D] == 0
    # K1 = P4 (bribe 3, blackmail 4): C's F = 2 without A12 (not eligible); A's $3 wins
    assert s.chars[A] == ["P4"] and s.chars[C] == []
    assert pending(s) == Decision("chance_draw", deck="C", dest="row0")  # ME4 refills K1
    assert s.disc_m == {"G3": 1}
    assert s.disc_a == {"A11": 1, "A10": 1, "A12": 1, "T12": 1}


# ----------------------------------------------------------------------------- MA-08 defence arithmetic


def _ma08(card: str, defence: str, events: tuple[str, ...] = ()) -> MafiaState:
    s = scenario(atk={B: (card, A, False, "me")}, hands={B: [defence]}, chars={B: ["P4", "S4"]},
                 grid={B: {"k1": ["G5"]}}, events=list(events))
    at_month_end(s)
    assert pending(s) == Decision("defend", B)
    return s


def test_ma08_equal_strength_fails() -> None:
    """MA-08 A04 (4) against D02 (4) fails: a tie holds."""
    s = _ma08("A04", "D02")
    asked(s, B, "defend D02")
    assert s.chars[B] == ["P4", "S4"]
    assert s.disc_a == {"A04": 1, "D02": 1} and s.atk[B] is None
    assert pending(s) == Decision("chance_draw", deck="J", dest="job")  # no hit; the month end ran on to ME8


def test_ma08_stronger_attack_hits() -> None:
    """MA-08 A06 (6) against D02 succeeds and A discards a character of B of his choice."""
    s = _ma08("A06", "D02")
    asked(s, B, "defend D02")
    assert pending(s) == Decision("hit", A, target=B)
    assert texts(s, A) == {"hit P4", "hit S4"}
    do(s, "hit S4", seat=A)
    assert s.chars[B] == ["P4"]
    assert s.disc_c == {"S4": 1}
    assert s.disc_a == {"A06": 1, "D02": 1}


def test_ma08_treachery() -> None:
    """MA-08 With EV10: A04 (4) against D02 (4 − 1 = 3) succeeds."""
    s = _ma08("A04", "D02", ("EV10",))
    asked(s, B, "defend D02")
    assert pending(s) == Decision("hit", A, target=B)


def test_ma08_cancel() -> None:
    """MA-08 A01 against D01 (cancel) fails."""
    s = _ma08("A01", "D01")
    asked(s, B, "defend D01")
    assert s.disc_a == {"A01": 1, "D01": 1} and s.atk[B] is None
    assert pending(s) == Decision("chance_draw", deck="J", dest="job")  # no raid; the month end ran on to ME8
    assert s.disc_m == {}
    assert s.screen[B] == {"G5": 1}  # K1 was not raided: B's $5 lost the contest and came back


def test_ma08_not_covering() -> None:
    """MA-08 A04 against D01: D01 does not cover the crosshair and can't be played."""
    s = _ma08("A04", "D01")
    assert texts(s, B) == {"no_defence"}
    with pytest.raises(IllegalActionError):
        do(s, "defend D01", seat=B)


# ----------------------------------------------------------------------------- MA-09 handshake


def test_ma09_handshake_and_sets() -> None:
    """MA-09 A07 on B succeeds; B hands over W3 (his only character): A gains 0 gift VP and +6 for
    Hollywood, draws 1 money card ($1 on A07), and his monthly count rises by 1."""
    s = scenario(chars={A: ["R4"], B: ["W3"]}, vp={A: 3}, atk={B: ("A07", A, False, "me")},
                 row=["P1", "S2", "P4", "B5"])
    at_month_end(s)
    asked(s, B, "no_defence", only=True)
    assert pending(s) == Decision("hand_over", B, receiver=A)
    forced(s, "hand_over W3")
    assert s.chars[A] == ["R4", "W3"] and s.chars[B] == []
    assert s.vp[A] == 3 + 6
    assert s.sets[A] == ["Hollywood"]
    assert s.acquired[A] == 1
    assert pending(s) == Decision("chance_draw", A, deck="M", dest="screen")
    chance(s, "draw G1")
    assert s.screen[A] == {"G1": 1}
    # ME6 of January: A acquired the most characters (1): +1 VP
    quiet(s, lambda x: x.month == 2)
    assert s.vp[A] == 3 + 6 + 1


# ----------------------------------------------------------------------------- MA-10 contest


def test_ma10_contest() -> None:
    """MA-10 K1 = P1: A $7 (score 7), B F 9 (score 9), C $8 + F 2 (score 10): C wins, draws 2
    events and keeps 1; C's money discarded, A's back behind his screen, action cards discarded."""
    s = scenario(grid={A: {"k1": ["G5", "G2"]}, B: {"k1": ["T11", "A06"]}, C: {"k1": ["G5", "G3", "T04"]}})
    at_month_end(s)
    assert s.chars[C] == ["P1"] and s.row[0] == ""
    assert pending(s) == Decision("chance_draw", C, deck="E", dest="event")
    chance(s, "draw EV01", "draw EV13")
    assert pending(s) == Decision("choose_event", C)
    assert texts(s, C) == {"choose_event EV01", "choose_event EV13"}
    do(s, "choose_event EV01", seat=C)
    assert s.next_events == ["EV01"]
    assert [e.card for e in s.event_bottom] == ["EV13"]
    assert s.disc_m == {"G5": 1, "G3": 1}
    assert s.screen[A] == {"G5": 1, "G2": 1}
    assert s.disc_a == {"T11": 1, "A06": 1, "T04": 1}
    assert all(f == [] for q in range(4) for f in s.fields[q])
    assert s.chars[A] == [] and s.chars[B] == []


# ----------------------------------------------------------------------------- MA-11 ties, Barone


def test_ma11_tie_goes_to_higher_row() -> None:
    """MA-11 A and B each score 6 in K3, both eligible: A wins (higher row)."""
    s = scenario(grid={A: {"k3": ["G5", "G1"]}, B: {"k3": ["G3", "G3"]}})
    at_month_end(s)
    assert s.chars[A] == ["W3"] and s.chars[B] == []
    assert s.screen[B] == {"G3": 2}


def test_ma11_barone_family_ties() -> None:
    """MA-11 If B is Barone and uses Familienbande, B wins the tie."""
    s = scenario(families=("moretti", "barone", "orsini", "lombardo"),
                 grid={A: {"k3": ["G5", "G1"]}, B: {"k3": ["G3", "G3"]}})
    at_month_end(s)
    assert pending(s) == Decision("family_ties", B, column="k3")
    assert texts(s, B) == {"family_ties yes", "family_ties no"}
    do(s, "family_ties yes", seat=B)
    assert s.chars[B] == ["W3"] and s.chars[A] == []
    assert s.ability_used[B]
    assert s.screen[A] == {"G5": 1, "G1": 1}


def test_ma11_barone_below_minimum() -> None:
    """MA-11 Barone with only $1 on P1 ($7) and no other bidder wins P1 with the ability."""
    s = scenario(families=("moretti", "barone", "orsini", "lombardo"), grid={B: {"k1": ["G1"]}})
    at_month_end(s)
    assert pending(s) == Decision("family_ties", B, column="k1")
    do(s, "family_ties yes", seat=B)
    assert s.chars[B] == ["P1"] and s.row[0] == ""
    assert pending(s) == Decision("chance_draw", B, deck="E", dest="event")  # P1's E bonus follows


# ----------------------------------------------------------------------------- MA-12 unbribable


def test_ma12_unbribable() -> None:
    """MA-12 K2 = S2 (—, fist 7); A has $9 only: not eligible, nobody wins, S2 stays, A's money
    goes back; next month S2 is still in K2."""
    s = scenario(grid={A: {"k2": ["G5", "G2", "G2"]}})
    at_month_end(s)
    quiet(s, turn_of(A, month=2))
    assert s.row[1] == "S2"
    assert all(s.chars[q] == [] for q in range(4))
    assert s.screen[A] == {"G5": 1, "G2": 2}
    assert s.disc_m == {}


# ----------------------------------------------------------------------------- MA-13 job by cards


def test_ma13_job_by_cards() -> None:
    """MA-13 J05 (Fahrzeug + Schnaps, EP 5, $2): A plays T01 and T06 into his job field and attempts
    at once: no roll, +5 VP, 2 + 1 = 3 money cards, keeps J05, next job up, draws 0 cards."""
    s = scenario(hands={A: ["T01", "T06", "T11"]}, job="J05")
    asked(s, A, "disc none")
    asked(s, A, "play T01 hand job")
    asked(s, A, "play T06 hand job")
    asked(s, A, "end_plays")
    assert pending(s) == Decision("turn", A) and s.step == 3
    asked(s, A, "job_attempt")
    assert s.vp[A] == 5
    assert s.jobs_done[A] == ["J05"]
    for _ in range(3):
        assert pending(s) == Decision("chance_draw", A, deck="M", dest="screen")  # no W8 roll at all
        chance(s, "draw G1")
    assert s.screen[A] == {"G1": 3}
    assert pending(s) == Decision("chance_draw", deck="J", dest="job")
    chance(s, "draw J01")
    assert s.job == "J01"
    assert s.fields[A][0] == []
    assert s.disc_a == {"T01": 1, "T06": 1}
    assert pending(s) == Decision("turn", B)  # A drew nothing
    assert s.hand_a[A] == {"T11": 1}


# ----------------------------------------------------------------------------- MA-14 job failure


@pytest.mark.parametrize("phase", [3, 1])
def test_ma14_job_failure(phase: int) -> None:
    """MA-14 J09 (14, fail 1): T01 + T04 give 3 dice; A rolls 4, 3, 2 = 9 and fails: 1 sit-out
    counter, cards discarded, job stays; he skips his next turn (in phase 3: in the next month)."""
    s = scenario(phase=phase, job="J09", grid={A: {"job": ["T01", "T04"]}})
    asked(s, A, "disc none")
    asked(s, A, "end_plays")
    assert kinds(s, "job_attempt", A) | kinds(s, "job_skip", A) == {"job_attempt", "job_skip"}
    asked(s, A, "job_attempt")
    chance(s, "roll 4", "roll 3", "roll 2")
    assert s.sitout[A] == 1
    assert s.job == "J09"
    assert s.fields[A][0] == []
    assert s.disc_a == {"T01": 1, "T04": 1}
    assert pending(s) == Decision("chance_draw", A, deck="A", dest="hand")  # draw back 2 (he played nothing)
    draw_any(s, 2)
    assert pending(s) == Decision("turn", B)
    month, next_phase = (2, 1) if phase == 3 else (1, phase + 1)
    log = quiet(s, lambda x: (x.month, x.phase) == (month, next_phase) and kind_of(x) == "turn")
    assert s.order[0] == A  # A still comes first …
    assert pending(s) == Decision("turn", B) and s.step == 1  # … but his turn was skipped
    assert s.sitout[A] == 0
    assert all(p != A for p, _ in log)
    assert n_cards(s.hand_a[A]) == 2  # a skipped turn draws nothing


# ----------------------------------------------------------------------------- MA-15 job at month end


def test_ma15_job_at_month_end() -> None:
    """MA-15 A completes the open job with tags at ME2; the next job (sum 16) is up for B, who has
    2 dice and abandons: cards discarded, no penalty; ME8 does not rotate the job."""
    s = scenario(job="J05", grid={A: {"job": ["T01", "T06"]}, B: {"job": ["T08"]}})
    at_month_end(s)
    assert s.vp[A] == 5 and s.jobs_done[A] == ["J05"]
    chance(s, "draw G1", "draw G1", "draw G1")
    assert pending(s) == Decision("chance_draw", deck="J", dest="job")
    chance(s, "draw J13")
    assert s.job == "J13"
    assert pending(s) == Decision("job_roll", B, dice=2)
    assert texts(s, B) == {"job_roll", "job_abandon"}
    do(s, "job_abandon", seat=B)
    assert s.fields[B][0] == [] and s.disc_a.get("T08") == 1
    assert s.sitout[B] == 0
    assert s.vp[B] == 0
    log = quiet(s, turn_of(A, month=2))
    assert s.job == "J13"  # not rotated
    assert [t for p, t in log if p == CHANCE and t.startswith("draw J")] == []
    assert s.job_bottom == []


# ----------------------------------------------------------------------------- MA-16 magnifier


@pytest.mark.parametrize(("vp", "after"), [(5, 2), (1, 0)])
def test_ma16_magnifier(vp: int, after: int) -> None:
    """MA-16 B8 turned up at ME4: A (9 action + 2 money cards in hand) discards 3 action cards and
    loses 3 VP (from 1 VP: to 0); B with 6 action cards is unaffected."""
    a_hand = ["A01", "A04", "D02", "T01", "T02", "T04", "T06", "T11", "T12", "G1", "G2"]
    b_hand = ["A05", "D05", "T03", "T05", "T07", "T08"]
    s = scenario(hands={A: a_hand, B: b_hand}, vp={A: vp, B: 4}, row=["", "S2", "W3", "R4"])
    at_month_end(s)
    assert pending(s) == Decision("chance_draw", deck="C", dest="row0")
    chance(s, "draw B8")
    assert s.row[0] == "B8"
    assert s.actors == (A,)
    assert s.must_discard[A] == 3 and s.must_discard[B] == 0
    assert kinds(s, "set_aside", A) == {f"set_aside {c} hand" for c in a_hand if not c.startswith("G")}
    do(s, "set_aside A01 hand", "set_aside T11 hand", "set_aside T12 hand", seat=A)
    assert n_cards(s.hand_a[A]) == 6
    assert s.hand_m[A] == {"G1": 1, "G2": 1}
    assert s.vp[A] == after
    assert {c: s.disc_a.get(c) for c in ("A01", "T11", "T12")} == {"A01": 1, "T11": 1, "T12": 1}
    assert n_cards(s.hand_a[B]) == 6 and s.vp[B] == 4
    assert card_totals(s) == full_totals()

