"""Mafia Legend spec §20: scenarios MA-17 … MA-33 (docstrings start with the id), and the
exact effect of every action card (App. B), character symbol (App. C), event (App. E) and
family ability (§13), with a registry that checks each has a test.

Players A, B, C, D are seats 0, 1, 2, 3, in this turn order (A at the top) unless a test says
otherwise. Positions are built from ``GAME.new_initial_state`` with every dealt card put back
into its deck (``blank``), then cards are moved from the decks to hands, screens, fields and
characters (cards are conserved). Month-end steps run through ``engine.push`` / ``engine.run``
with a ``Task("turn")`` at the end, so that the flow stops at the next turn decision. Forced
decisions (exactly one legal option, not always asked, §18.4) are applied as ``Match.advance``
applies them; chance nodes take scripted outcomes, else the first outcome.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from random import Random
from typing import Any

import pytest

from tablero.core.events import Event
from tablero.core.protocol import CHANCE
from tablero.games.mafia import engine
from tablero.games.mafia.actions import parse
from tablero.games.mafia.data import ACTIONS, MONEY
from tablero.games.mafia.rules import GAME
from tablero.games.mafia.state import AttackSlot, Decision, GridCard, KnownCard, MafiaState, Task
from tablero.games.mafia.view import MafiaView, PrivateView
from tablero.testing.conformance import check_commitments

A, B, C, D = range(4)
ALL = 0b1111
FAMS = "moretti,rinaldi,orsini,lombardo"
FIELD = {"job": 0, "k1": 1, "k2": 2, "k3": 3, "k4": 4}
POL, STA, WIR, PRE, BEV = range(5)
SPEC = Path(__file__).resolve().parents[3].parent / "shared" / "rules" / "mafia-legend.md"


# ----------------------------------------------------------------------------- helpers


def _add(d: dict[str, int], k: str, n: int = 1) -> None:
    d[k] = d.get(k, 0) + n


def _take(d: dict[str, int], k: str) -> None:
    assert d.get(k, 0) > 0, f"{k} is not available"
    d[k] -= 1
    if not d[k]:
        del d[k]


def blank(players: int = 4, families: str = FAMS, **opts: Any) -> MafiaState:
    """January, phase 1, A's turn step 1; every dealt card is back in its deck (empty hands,
    screens, row and job)."""
    fams = ",".join(families.split(",")[:players])
    s = GAME.new_initial_state(players, {"start_seat": 0, "families": fams, **opts})
    while s.actors == (CHANCE,):
        GAME.apply(s, CHANCE, GAME.chance_outcomes(s)[0][0])
    for q in range(players):
        for zone, deck in ((s.hand_a[q], "A"), (s.hand_m[q], "M"), (s.screen[q], "M")):
            for c, k in zone.items():
                _add(s.decks[deck], c, k)
            zone.clear()
        if s.mission[q]:
            _add(s.decks["X"], s.mission[q])
            s.mission[q] = ""
    for k in range(4):
        if s.row[k]:
            _add(s.decks["C"], s.row[k])
            s.row[k] = ""
    if s.job:
        _add(s.decks["J"], s.job)
        s.job = ""
    s.touch()
    assert s.decision == Decision("turn", A) and s.step == 1
    return s


def deck_of(card: str) -> str:
    if card in MONEY:
        return "M"
    if card in ACTIONS:
        return "A"
    if card.startswith("EV"):
        return "E"
    if card.startswith("J"):
        return "J"
    if card.startswith("M"):
        return "X"
    return "C"


def hand(s: MafiaState, p: int, *cards: str) -> None:
    for c in cards:
        _take(s.decks[deck_of(c)], c)
        _add(s.hand_m[p] if c in MONEY else s.hand_a[p], c)
    s.touch()  # edited by hand: forget cached legal actions


def screen(s: MafiaState, p: int, *cards: str) -> None:
    for c in cards:
        _take(s.decks["M"], c)
        _add(s.screen[p], c)
    s.touch()  # edited by hand: forget cached legal actions


def chars(s: MafiaState, p: int, *cards: str) -> None:
    for c in cards:
        _take(s.decks["C"], c)
        s.chars[p].append(c)
    s.touch()  # edited by hand: forget cached legal actions


def set_row(s: MafiaState, k: int, card: str) -> None:
    """Put ``card`` into slot K(k+1) (0-based ``k``), the old card back into the deck."""
    if s.row[k]:
        _add(s.decks["C"], s.row[k])
    _take(s.decks["C"], card)
    s.row[k] = card
    s.touch()  # edited by hand: forget cached legal actions


def set_job(s: MafiaState, job: str) -> None:
    if s.job:
        _add(s.decks["J"], s.job)
    _take(s.decks["J"], job)
    s.job = job
    s.touch()  # edited by hand: forget cached legal actions


def set_mission(s: MafiaState, p: int, m: str) -> None:
    if s.mission[p]:
        _add(s.decks["X"], s.mission[p])
    _take(s.decks["X"], m)
    s.mission[p] = m
    s.touch()  # edited by hand: forget cached legal actions


def put(s: MafiaState, p: int, field: str, *cards: str, src: str | None = None) -> None:
    """Face-down cards in ``p``'s field, oldest first; money from the screen unless ``src``."""
    for c in cards:
        _take(s.decks[deck_of(c)], c)
        source = src or ("S" if c in MONEY else "H")
        s.fields[p][FIELD[field]].append(GridCard(c, source, 1 << p))
    s.touch()  # edited by hand: forget cached legal actions


def attack(s: MafiaState, target: int, card: str, attacker: int, *, up: bool = False, timing: str = "me",
           defence: str = "") -> None:
    _take(s.decks["A"], card)
    if defence:
        _take(s.decks["A"], defence)
    s.atk[target] = AttackSlot(card, attacker, up, timing, defence, ALL if up else 1 << attacker)
    s.touch()  # edited by hand: forget cached legal actions


def texts(s: MafiaState, p: int | None = None) -> set[str]:
    seat = s.actors[0] if p is None else p
    return {a.to_text() for a in GAME.legal_actions(s, seat)}


def do(s: MafiaState, *wire: str, seat: int | None = None, ev: list[Event] | None = None) -> None:
    for w in wire:
        p = s.actors[0] if seat is None else seat
        GAME.apply(s, p, parse(w), ev)


def forced(s: MafiaState, ev: list[Event] | None = None) -> bool:
    """Apply one forced decision (one legal option, not always asked); True if one was."""
    for p in s.actors:
        legal = GAME.legal_actions(s, p)
        if len(legal) == 1 and not GAME.always_asked(s, p):
            GAME.apply(s, p, legal[0], ev)
            return True
    return False


def advance(s: MafiaState, *script: str, ev: list[Event] | None = None) -> list[tuple[Any, ...]]:
    """Chance nodes (scripted outcomes first, then the first outcome) and forced decisions,
    until a real decision or the end. Returns the chance nodes met (their ``Decision``)."""
    queue = list(script)
    met: list[Decision] = []
    while s.actors and not s.over:
        if s.actors == (CHANCE,):
            assert s.decision is not None
            met.append(s.decision)
            if queue:
                GAME.apply(s, CHANCE, parse(queue.pop(0)), ev)
            else:
                GAME.apply(s, CHANCE, GAME.chance_outcomes(s)[0][0], ev)
            continue
        if not forced(s, ev):
            break
    assert not queue, f"scripted outcomes not used: {queue}"
    return met


ME: dict[int, str] = {i + 1: t.kind for i, t in enumerate(engine.MONTH_END)}
"""The task kinds of ME1 … ME12."""


def me(step: int) -> Task:
    """Month-end step ME<step> (§12), from its first seat or column."""
    return Task(ME[step])


def steps(s: MafiaState, *tasks: Task, ev: list[Event] | None = None) -> None:
    """Run the given tasks (month-end steps), then a turn of the top player (a sentinel)."""
    s.decision = None
    s.tasks = []
    s.turn_pos = 0
    s.touch()
    engine.push(s, *tasks, Task("turn"))
    engine.run(s, ev)


def month_end(s: MafiaState, ev: list[Event] | None = None) -> None:
    """The whole month end ME1 … ME12 (as after the last turn of phase 3)."""
    s.decision = None
    s.tasks = []
    s.touch()
    engine.start_month_end(s)
    engine.run(s, ev)


def ids(ev: list[Event]) -> list[str]:
    return [e.message.id for e in ev]


def money_count(s: MafiaState, p: int) -> int:
    return sum(s.screen[p].values()) + sum(s.hand_m[p].values())


def private(view: MafiaView) -> PrivateView:
    assert view.private is not None
    return view.private


def kind_of(s: MafiaState) -> str:
    return s.decision.kind if s.decision is not None else ""


def pending(s: MafiaState) -> Decision:
    assert s.decision is not None
    return s.decision


# ----------------------------------------------------------------------------- MA-17 … MA-33


def test_ma17_event_chosen_in_march_active_in_april() -> None:
    """MA-17 Event. In March A wins S1 (E): he draws EV01 and EV13 and keeps EV01. EV13 goes under
    the event deck. In April all bribe minimums are 2 lower. At April's ME9 EV01 is discarded."""
    s = blank()
    s.month = 3
    set_row(s, 0, "S1")
    put(s, A, "k1", "G5", "G2")  # $7 = bribe minimum of S1
    month_end(s)
    advance(s, "draw EV01", "draw EV13")
    assert s.chars[A] == ["S1"]
    assert kind_of(s) == "choose_event" and texts(s, A) == {"choose_event EV01", "choose_event EV13"}
    do(s, "choose_event EV01")
    assert s.next_events == ["EV01"] and s.event_bottom == [KnownCard("EV13", A)]
    assert private(GAME.observe(s, A)).event_bottom == ("EV13",) and private(GAME.observe(s, B)).event_bottom == ("?",)
    assert GAME.observe(s, A).public.event_bottom == ("?",)
    advance(s)
    assert s.month == 4 and s.this_events == ["EV01"] and s.next_events == []
    # April: W2 (bribe 6) is won with $4 = 6 - 2; without EV01 $4 would not be eligible
    set_row(s, 0, "W2")
    put(s, B, "k1", "G3", "G1")
    month_end(s)
    advance(s)
    assert s.chars[B] == ["W2"]
    assert s.month == 5 and s.this_events == [] and "EV01" not in s.decks["E"]
    assert "EV01" in GAME.observe(s, C).public.events_out
    assert s.event_bottom == [KnownCard("EV13", A)]


def test_ma18_power_card_politik() -> None:
    """MA-18 Power card. Politik (threshold 6). A has P4 + P6 (4): unheld. A wins P3 (3) → 7: A takes
    Politik. B reaches 7: tie, A keeps it. B reaches 8: B takes it. Then a hit on B removes P1 (4)
    → B 4: A (7) takes it back. At every month end the holder gains 3 VP."""
    s = blank()
    chars(s, A, "P4", "P6")
    engine.update_powers(s, None)
    assert s.powers[POL] == -1
    set_row(s, 0, "P3")
    put(s, A, "k1", "G5")
    steps(s, me(3), me(5))
    assert s.chars[A] == ["P4", "P6", "P3"] and s.powers[POL] == A
    assert s.vp[A] == 3
    chars(s, B, "P1", "P2")  # 4 + 3 = 7
    engine.update_powers(s, None)
    assert s.powers[POL] == A
    chars(s, B, "P5")  # 8
    engine.update_powers(s, None)
    assert s.powers[POL] == B
    steps(s, me(5))
    assert s.vp == [3, 3, 0, 0]
    attack(s, B, "A04", A)
    steps(s, me(1), me(5))
    do(s, "no_defence", seat=B)
    assert kind_of(s) == "hit" and texts(s, A) == {"hit P1", "hit P2", "hit P5"}
    do(s, "hit P1", seat=A)
    assert s.chars[B] == ["P2", "P5"] and s.powers[POL] == A
    assert s.vp == [6, 3, 0, 0]


def test_ma19_monthly_bonus() -> None:
    """MA-19 Monthly bonus. Month 5. Acquired this month: A 2, B 2, C 1. A and B gain ⌊5/2⌋ = 2
    each. If B holds Bevölkerung: B gains 5, A gains 0. With `bonus_basis = total` the counts are
    the characters owned."""
    s = blank()
    s.month = 5
    s.acquired = [2, 2, 1, 0]
    t = s.clone()
    steps(s, me(6))
    assert s.vp == [2, 2, 0, 0]
    t.powers[BEV] = B
    steps(t, me(6))
    assert t.vp == [0, 5, 0, 0]
    u = blank(bonus_basis="total")
    u.month = 5
    u.acquired = [2, 2, 1, 0]
    chars(u, A, "P4")
    chars(u, B, "P5")
    chars(u, C, "P6", "S4", "W4")
    steps(u, me(6))
    assert u.vp == [0, 0, 5, 0]


def test_ma20_payday_and_june_reshuffle() -> None:
    """MA-20 Payday and reshuffle. Entering March, A owns W1 (2 $ signs), P4 (1) and S2 (0): he
    draws 3 money cards before phase 1. Entering June: payday first, then the action, money,
    character and job decks are reshuffled with their discards. The event deck keeps its order."""
    s = blank()
    s.month = 2
    chars(s, A, "W1", "P4", "S2")
    chars(s, B, "P5")
    steps(s, me(12))
    met = advance(s)
    # round robin, turn order: A, B, then A's two other $ signs
    assert [m.seat for m in met] == [A, B, A, A] and {m.deck for m in met} == {"M"}
    assert money_count(s, A) == 3 and money_count(s, B) == 1
    assert s.month == 3 and s.phase == 1 and s.decision == Decision("turn", A)
    # June
    s = blank()
    s.month = 5
    chars(s, A, "W1")
    _take(s.decks["A"], "A04")
    _add(s.disc_a, "A04")
    _take(s.decks["M"], "G5")
    _add(s.disc_m, "G5")
    _take(s.decks["C"], "P2")
    _add(s.disc_c, "P2")
    _take(s.decks["J"], "J03")
    s.job_bottom = ["J03"]
    _take(s.decks["E"], "EV13")
    s.event_bottom = [KnownCard("EV13", B)]
    a_before, m_before, j_before = sum(s.decks["A"].values()), sum(s.decks["M"].values()), len(s.decks["J"])
    steps(s, me(12))
    assert kind_of(s) == "chance_draw" and s.disc_m == {"G5": 1}  # payday before the reshuffle
    advance(s)
    assert money_count(s, A) == 2
    assert s.disc_a == {} and s.disc_m == {} and s.disc_c == {} and s.job_bottom == []
    assert sum(s.decks["A"].values()) == a_before + 1 and s.decks["A"]["A04"] == 3
    assert sum(s.decks["M"].values()) == m_before + 1 - 2
    assert "P2" in s.decks["C"] and "J03" in s.decks["J"] and len(s.decks["J"]) == j_before + 1
    assert s.event_bottom == [KnownCard("EV13", B)] and "EV13" not in s.decks["E"]
    assert s.month == 6 and s.decision == Decision("turn", A)


def test_ma21_turn_order() -> None:
    """MA-21 Turn order. After ME10, VP A 12, B 8, C 8, D 20; previous order C, A, B, D → new order
    C, B, A, D. If D holds Politik he may move to the top: D, C, B, A. The top player gets the poker
    chip and row 1."""
    s = blank()
    s.order = [C, A, B, D]
    s.vp = [12, 8, 8, 20]
    t = s.clone()
    steps(s, me(11))
    assert s.order == [C, B, A, D] and s.decision == Decision("turn", C)
    t.powers[POL] = D
    steps(t, me(11))
    assert t.order == [C, B, A, D] and t.decision == Decision("politik", D)
    assert texts(t, D) == {"politik 1", "politik 2", "politik 3", "politik 4"}
    do(t, "politik 1", seat=D)
    assert t.order == [D, C, B, A] and t.decision == Decision("turn", D)


def test_ma22_end_at_50_during_a_turn() -> None:
    """MA-22 End at 50. A has 47 VP and completes J05 (+5) on his turn: the game ends at once, A
    wins. With missions and A's mission unfulfilled: the game goes on. When A later takes the power
    card his mission asks for, the game ends at once."""
    s = blank()
    s.vp[A] = 47
    set_job(s, "J05")
    hand(s, A, "T01", "T06")
    do(s, "disc none", "play T01 hand job", "play T06 hand job", "end_plays")
    assert "job_attempt" in texts(s)
    do(s, "job_attempt")
    assert s.over and s.winners == (A,) and s.vp[A] == 52
    assert money_count(s, A) == 0  # nothing after the end: no money drawn for the job
    res = GAME.result(s)
    assert res is not None and res.declared_winners == (A,) and res.ranks[A] == 1
    # with missions: A's mission (M01 Politik) is not fulfilled at 52 VP
    s = blank(missions=True)
    for q, m in enumerate(("M01", "M07", "M08", "M09")):
        set_mission(s, q, m)
    s.vp[A] = 47
    set_job(s, "J05")
    hand(s, A, "T01", "T06")
    do(s, "disc none", "play T01 hand job", "play T06 hand job", "end_plays", "job_attempt")
    assert not s.over and s.vp[A] == 52
    advance(s)
    assert not s.over and s.decision == Decision("turn", B)
    chars(s, A, "P4", "P6")
    set_row(s, 0, "P3")
    put(s, A, "k1", "G5")
    put(s, B, "k2", "G3")
    set_row(s, 1, "P5")
    steps(s, me(3), me(4))
    assert s.over and s.winners == (A,) and s.powers[POL] == A
    assert s.fields[B][2] != [] and s.chars[B] == []  # K2 was never resolved


def _ma23_state(missions: bool) -> MafiaState:
    s = blank(players=3, missions=missions)
    s.month = 12
    s.vp = [44, 44, 30]
    chars(s, A, "P1", "S1", "W1", "P4", "S4", "W4", "P5", "S5")  # influence 20
    chars(s, B, "R1", "B1", "R6", "B3", "B4", "W3", "W5", "R5")  # influence 18
    return s


def test_ma23_end_after_december() -> None:
    """MA-23 End after December. No one reached 50. VP A 44, B 44, C 30. A and B own 8 characters
    each; A has total influence 20, B 18 → A wins. With missions, if only C's mission is fulfilled,
    C wins. If no mission is fulfilled, nobody wins."""
    s = _ma23_state(False)
    steps(s, me(10))
    assert s.over and s.winners == (A,)
    res = GAME.result(s)
    assert res is not None and res.ranks == (1, 2, 3) and res.declared_winners == (A,)
    s = _ma23_state(True)
    set_mission(s, A, "M09")  # 3 completed jobs: A has none
    set_mission(s, B, "M10")  # $20: B has none
    set_mission(s, C, "M05")  # holds Bevölkerung
    t = s.clone()
    s.powers[BEV] = C
    steps(s, me(10))
    assert s.over and s.winners == (C,)
    steps(t, me(10))
    assert t.over and t.winners == ()
    res = GAME.result(t)
    assert res is not None and res.declared_winners == () and res.ranks == (1, 2, 3)


def _ma24_states(missions: bool = False) -> tuple[MafiaState, MafiaState]:
    """A holds T11 and a $2 in hand; B a $3 behind his screen. In ``s`` A plays the $2 into K1,
    in ``t`` the T11; B plays his $3 from the screen into K1. Both wait at C's step 1."""
    out = []
    for card in ("G2", "T11"):
        s = blank(missions=missions)
        if missions:
            for q, m in enumerate(("M01", "M02", "M03", "M04")):
                set_mission(s, q, m)
        set_row(s, 0, "P4")
        hand(s, A, "T11", "G2")
        screen(s, B, "G3")
        do(s, "disc none", f"play {card} hand k1", "end_plays")
        advance(s)
        do(s, "disc none", "play G3 screen k1", "end_plays")
        advance(s)
        assert s.decision == Decision("turn", C)
        out.append(s)
    return out[0], out[1]


def test_ma24_hidden_information() -> None:
    """MA-24 Hidden information. A plays a money card from his hand face down into K1, and B a money
    card from his screen. C's observation shows both backs, with sources "hand" and "screen".
    Swapping A's card for an action card changes nothing in C's observation. C's observation also
    never contains A's mission or the order of any deck."""
    s, t = _ma24_states()
    view = GAME.observe(s, C)
    assert view.grid[A][1] == (("?", "H", False, False),)
    assert view.grid[B][1] == (("?", "S", False, False),)
    for seat in (B, C, D, None):
        assert GAME.observe(s, seat) == GAME.observe(t, seat)
    assert GAME.observe(s, A) != GAME.observe(t, A)
    # missions: swapping A's mission (with an undealt one) changes nothing for C
    s, t = _ma24_states(missions=True)
    u = s.clone()
    set_mission(u, A, "M12")
    for seat in (B, C, D):
        assert GAME.observe(s, seat) == GAME.observe(u, seat)
        assert private(GAME.observe(s, seat)).mission == ("M01", "M02", "M03", "M04")[seat]
    assert GAME.observe(s, A) != GAME.observe(u, A)
    # decks: only their sizes are observed; moving which card is in which (unseen) deck slot
    # is not even representable, and the sizes are the same for every seat
    assert {GAME.observe(s, q).public.deck_sizes for q in (A, B, C, D)} == {GAME.observe(s, None).public.deck_sizes}


def test_ma25_immunity_staatsgewalt() -> None:
    """MA-25 Immunity. D holds Staatsgewalt. A's face-down A02 against D is revealed at ME1 and fails
    automatically. A draws no money."""
    s = blank()
    chars(s, D, "S1", "S3")
    engine.update_powers(s, None)
    assert s.powers[STA] == D
    attack(s, D, "A02", A)
    ev: list[Event] = []
    steps(s, me(1), ev=ev)
    assert s.decision == Decision("turn", A)  # no defence, no Schutzengel question
    assert "ml.reveal_attack" in ids(ev) and "ml.immune" in ids(ev) and "ml.attack_succeeds" not in ids(ev)
    assert s.atk[D] is None and s.disc_a == {"A02": 1}
    assert money_count(s, A) == 0 and s.chars[D] == ["S1", "S3"] and not s.ability_used[D]


def test_ma26_abilities_geldwaesche() -> None:
    """MA-26 Abilities. Moretti uses Geldwäsche: +3 money cards; the tile is flipped and the
    ability can't be used again."""
    s = blank()
    assert "ability geldwaesche" in texts(s)
    do(s, "ability geldwaesche")
    met = advance(s)
    assert [(m.deck, m.seat, m.dest) for m in met] == [("M", A, "screen")] * 3
    assert sum(s.screen[A].values()) == 3 and s.ability_used[A]
    assert "ability geldwaesche" not in texts(s)
    do(s, "disc none")
    assert "ability geldwaesche" not in texts(s)


def test_ma26_abilities_spitzel() -> None:
    """MA-26 Abilities. Rinaldi uses Spitzel on K2 in step 1: he sees the faces of all face-down
    cards there, takes back his own $3 behind the screen; he may still play 2 cards this turn."""
    s = blank(families="rinaldi,moretti,orsini,lombardo")
    s.phase = 2
    set_row(s, 0, "P4")
    set_row(s, 1, "P6")
    put(s, A, "k2", "G3")
    put(s, B, "k2", "G2", src="H")
    put(s, C, "k2", "T11")
    hand(s, A, "T12", "T05")
    assert GAME.observe(s, A).grid[C][2] == (("?", "H", False, False),)
    do(s, "ability spitzel", "spitzel_column k2")
    seen = GAME.observe(s, A)
    assert seen.grid[B][2] == (("G2", "H", False, False),) and seen.grid[C][2] == (("T11", "H", False, False),)
    assert GAME.observe(s, D).grid[C][2] == (("?", "H", False, False),)
    assert texts(s) == {"spitzel_take k2 G3 hand", "spitzel_take k2 G3 screen", "spitzel_done"}
    do(s, "spitzel_take k2 G3 screen")
    assert s.screen[A] == {"G3": 1} and s.fields[A][2] == []
    do(s, "spitzel_done")
    assert s.decision == Decision("turn", A) and s.step == 1 and s.ability_used[A]
    do(s, "disc none", "play T12 hand k1", "play T05 hand k1")
    assert s.played == 2 and not any(w.startswith("play") for w in texts(s))


def test_ma26_abilities_schutzengel() -> None:
    """MA-26 Abilities. Lombardo is hit by A06 at ME1 and uses Schutzengel: no defence is asked, A06
    is discarded, nothing happens."""
    s = blank()
    chars(s, D, "P4")
    hand(s, D, "D02")
    attack(s, D, "A06", A)
    steps(s, me(1))
    assert s.decision == Decision("guardian", D) and texts(s, D) == {"guardian yes", "guardian no"}
    do(s, "guardian yes", seat=D)
    assert s.decision == Decision("turn", A)
    assert s.atk[D] is None and s.disc_a == {"A06": 1} and s.chars[D] == ["P4"] and s.hand_a[D] == {"D02": 1}
    assert s.ability_used[D] and money_count(s, A) == 0


def test_ma26_abilities_gezinkte_wuerfel() -> None:
    """MA-26 Abilities. Santori rolls 3, 2, 8 against sum 16 and rerolls the 3 and the 2 into 6 and
    4: 18, success."""
    s = blank(families="santori,moretti,orsini,lombardo")
    s.phase = 2
    set_job(s, "J13")  # 16, Fz + Fz + Sc
    put(s, A, "job", "T01", "T04")  # 2 + 1 dice, tags Fz + Wa
    do(s, "disc none", "end_plays", "job_attempt")
    advance(s, "roll 3", "roll 2", "roll 8")
    assert pending(s)[:2] == ("reroll", A) and s.dice == [3, 2, 8]
    assert {"reroll 0,1", "reroll 0,1,2", "no_reroll"} <= texts(s)
    do(s, "reroll 0,1")
    advance(s, "roll 6", "roll 4")
    assert sorted(s.dice) == [4, 6, 8]
    assert s.vp[A] == 7 and s.jobs_done[A] == ["J13"] and s.sitout[A] == 0 and s.ability_used[A]
    assert money_count(s, A) == 3


def test_ma27_hand_limit() -> None:
    """MA-27 Hand limit. A ends his turn with 12 action cards and 1 money card in hand: he discards
    2 action cards, no VP lost. Money in hand never counts."""
    s = blank()
    s.vp[A] = 5
    hand(s, A, "T01", "T01", "T02", "T03", "T04", "T05", "T06", "T07", "T08", "T09", "G1")
    do(s, "disc none", "end_plays")
    advance(s)
    assert sum(s.hand_a[A].values()) == 12 and pending(s)[:2] == ("discard", A)
    assert all(w.startswith("discard ") and w.split()[1] in ACTIONS for w in texts(s))
    do(s, "discard T01 hand")
    assert pending(s)[:2] == ("discard", A)
    do(s, "discard T09 hand")
    assert sum(s.hand_a[A].values()) == 10 and s.hand_m[A] == {"G1": 1} and s.vp[A] == 5
    assert s.decision == Decision("turn", B)


def test_ma28_running_out() -> None:
    """MA-28 Running out. The action deck holds 1 card, its discard pile 5. A plays 0 cards: he
    draws the last card, the discard pile becomes the new deck (5 cards, unseen) and he draws 1
    more. Had the discard pile been empty too, he would have drawn 1 card only. The money deck
    works the same way; an empty character deck leaves a slot empty at ME4."""
    def build(discards: tuple[str, ...]) -> MafiaState:
        s = blank()
        rest = dict(s.decks["A"])
        _take(rest, "T11")
        for c in discards:
            _take(rest, c)
        s.decks["A"] = {"T11": 1}
        s.disc_a = {}
        for c in discards:
            _add(s.disc_a, c)
        s.hand_a[D] = rest  # the other cards are out of the way, in D's hand
        return s

    s = build(("A01", "A01", "D02", "T03", "T14"))
    do(s, "disc none", "end_plays")
    assert GAME.chance_outcomes(s) == [(parse("draw T11"), 1.0)]
    GAME.apply(s, CHANCE, parse("draw T11"))
    assert s.disc_a == {} and s.decks["A"] == {"A01": 2, "D02": 1, "T03": 1, "T14": 1}
    assert [(a.to_text(), p) for a, p in GAME.chance_outcomes(s)] == [
        ("draw A01", 0.4), ("draw D02", 0.2), ("draw T03", 0.2), ("draw T14", 0.2)]
    GAME.apply(s, CHANCE, parse("draw D02"))
    assert s.hand_a[A] == {"T11": 1, "D02": 1} and sum(s.decks["A"].values()) == 4
    assert s.decision == Decision("turn", B)
    s = build(())
    do(s, "disc none", "end_plays")
    advance(s)
    assert s.hand_a[A] == {"T11": 1} and s.decks["A"] == {} and s.decision == Decision("turn", B)
    # money: deck empty, discard pile $5 → the ashtray's money card is that $5
    s = blank()
    s.screen[C] = s.decks["M"]
    s.decks["M"] = {}
    _take(s.screen[C], "G5")
    s.disc_m = {"G5": 1}
    do(s, "disc ashtray_money")
    assert GAME.chance_outcomes(s) == [(parse("draw G5"), 1.0)]
    advance(s)
    assert s.screen[A] == {"G5": 1} and s.disc_m == {}
    # characters: empty deck, empty slot
    s = blank()
    s.disc_c = s.decks["C"]
    s.decks["C"] = {}
    set_row_cards = ("", "P4", "", "")
    for k, c in enumerate(set_row_cards):
        if c:
            _take(s.disc_c, c)
            s.row[k] = c
    steps(s, me(4))
    assert s.row == ["", "P4", "", ""] and s.decision == Decision("turn", A)


def test_ma29_end_inside_me3() -> None:
    """MA-29 End inside ME3. A has 45 VP and owns R4. At ME3 A wins W3 in K1 (no E or A): gift +3 →
    48, then the Hollywood set +6 → 54, and the game ends at once: A wins. K2–K4 are not resolved,
    no money goes back, ME4–ME12 don't happen."""
    s = blank()
    s.vp[A] = 45
    chars(s, A, "R4")
    set_row(s, 0, "W3")
    set_row(s, 1, "P4")
    put(s, A, "k1", "G5")
    put(s, C, "k1", "G2", "G1")  # a loser in K1: his money would go back at cleanup
    put(s, B, "k2", "G3")
    ev: list[Event] = []
    month_end(s, ev)
    assert s.over and s.winners == (A,) and s.vp == [54, 0, 0, 0]
    assert [e.message.get("vp") for e in ev if e.message.id in ("ml.gift", "ml.set")] == [3, 6]
    assert s.chars[A] == ["R4", "W3"] and s.sets[A] == ["Hollywood"]
    assert s.row == ["", "P4", "", ""] and s.chars[B] == []
    assert [sl.card for sl in s.fields[B][2]] == ["G3"]
    assert [sl.card for sl in s.fields[C][1]] == ["G2", "G1"] and s.screen[C] == {}
    assert s.disc_m == {} and s.month == 1


def _ma30_state(card: str) -> MafiaState:
    s = blank()
    hand(s, B, card)
    attack(s, B, "A04", C)
    steps(s, me(1))
    return s


def test_ma30_defence_question_always_asked() -> None:
    """MA-30 Defence question. At ME1 C's face-down A04 against B is revealed. B holds no defence
    card: he is still asked, and `NO_DEFENCE` is his only option. The views of A, C and D show the
    same pending decision as when B holds a D02."""
    s = _ma30_state("T11")
    t = _ma30_state("D02")
    assert s.decision == Decision("defend", B) and s.actors == (B,) and GAME.always_asked(s, B)
    assert texts(s, B) == {"no_defence"}
    assert texts(t, B) == {"defend D02", "no_defence"}
    for seat in (A, C, D, None):
        assert GAME.observe(s, seat) == GAME.observe(t, seat)
    seen = GAME.observe(s, A).deciding
    assert (seen.kind, seen.seat) == ("defend", B) and GAME.observe(s, A).atk[B].card == "A04"
    assert GAME.observe(s, B) != GAME.observe(t, B)


def _ma31_state(a_cards: tuple[str, ...]) -> MafiaState:
    s = blank()
    set_row(s, 0, "P4")
    set_row(s, 1, "R2")  # unbribable, blackmail 5
    set_row(s, 2, "P6")
    attack(s, C, "A02", A)  # badge, no eye
    put(s, C, "k1", "A12")
    put(s, C, "k3", "T12")
    put(s, B, "k2", "T11", "A10", "A11")
    put(s, A, "k2", *a_cards)
    steps(s, me(1), me(2), me(3))
    do(s, "no_defence", seat=C)
    assert texts(s, A) == {"raid k1", "raid k3"}
    do(s, "raid k1", seat=A)
    return s


def test_ma31_star_order_and_raid(monkeypatch: pytest.MonkeyPatch) -> None:
    """MA-31 Star order and raid. Month end, no star card in the attack or job column. At ME1 A's
    badge attack on C succeeds and A raids C's K1 field, which holds A12: A12 is discarded
    unrevealed and does not use up the star rule. In K2, B's field holds, oldest first, T11, A10,
    A11: A10 is the first star revealed, so its fist counts and A11 is ignored. B's F = 3 + 2 = 5."""
    # A ties B at 5 from a higher row: A wins, so B's score is not above 5
    s = _ma31_state(("T11", "T12"))
    assert s.disc_a.get("A12") == 1 and s.fields[C][1] == []
    assert [sl.card for sl in s.fields[C][3]] == ["T12"]
    ev: list[Event] = []
    advance(s, ev=ev)
    assert s.chars[A] == ["R2"] and s.chars[B] == []
    # A with 4: B wins, so B's score is at least 5 and B is eligible (F ≥ 5)
    t = _ma31_state(("T13",))
    advance(t)
    assert t.chars[B] == ["R2"] and t.chars[A] == []
    # the flags of the reveal: A10 counted, A11 ignored; the raided A12 was never "revealed"
    u = _ma31_state(("T13",))
    assert not u.star and kind_of(u) == "chance_draw" and pending(u).deck == "M"  # A02's $1, before ME2, ME3
    seen: list[tuple[str, int, bool]] = []
    cleanup = engine.TASKS["column_cleanup"]

    def spy(st: MafiaState, t: Task, ev: list[Event] | None) -> None:
        if t.column == 1:  # K2, just before its cards leave the field
            seen.extend((sl.card, sl.seen_by, sl.ignored) for sl in st.fields[B][2])
        cleanup(st, t, ev)

    monkeypatch.setitem(engine.TASKS, "column_cleanup", spy)
    advance(u)
    assert u.star
    assert seen == [("T11", ALL, False), ("A10", ALL, False), ("A11", ALL, True)]


def test_ma32_immediate_attempt() -> None:
    """MA-32 Immediate attempt. Open job J01 (9, Sc). A's job field holds only T02 (Fahrzeug, 1
    die). `JOB_ATTEMPT` is legal (he has a die, although one W8 can't reach 9). Once he has chosen it
    he must roll (no abandon); he fails and gets 1 sit-out counter."""
    s = blank()
    s.phase = 2
    set_job(s, "J01")
    put(s, A, "job", "T02")
    do(s, "disc none", "end_plays")
    assert s.step == 3 and {"job_attempt", "job_skip"} <= texts(s)
    do(s, "job_attempt")
    assert s.decision == Decision("chance_roll") and s.actors == (CHANCE,)
    GAME.apply(s, CHANCE, parse("roll 8"))
    assert s.sitout[A] == 1 and s.job == "J01" and s.fields[A][0] == [] and s.disc_a == {"T02": 1}
    assert s.vp[A] == 0


def test_ma32_immediate_attempt_ev06_santori() -> None:
    """MA-32 Immediate attempt. Under EV06 (sum 7) Santori rolls 7 with the same card: success, and
    no `REROLL` is asked."""
    s = blank(families="santori,moretti,orsini,lombardo")
    s.phase = 2
    s.this_events = ["EV06"]
    _take(s.decks["E"], "EV06")
    set_job(s, "J01")
    put(s, A, "job", "T02")
    do(s, "disc none", "end_plays", "job_attempt")
    GAME.apply(s, CHANCE, parse("roll 7"))
    assert kind_of(s) != "reroll" and not s.ability_used[A]
    assert s.vp[A] == 3 and s.jobs_done[A] == ["J01"] and s.sitout[A] == 0
    assert [m.deck for m in advance(s)][:2] == ["M", "J"]  # J01's $1, then the next job
    assert money_count(s, A) == 1


def test_ma33_spitzel_limits() -> None:
    """MA-33 Spitzel limits. A is Rinaldi. His face-up A05 against B waits for month end, and B has
    covered it with D02 on his own turn. His face-down A04 lies in C's field. A uses Spitzel on the
    attack column: he may take back A04 (C's field is empty again, so C may `PROTECT`), but not A05,
    which carries a defence card."""
    s = blank(families="rinaldi,moretti,orsini,lombardo")
    hand(s, A, "A05", "A04")
    hand(s, B, "D02")
    do(s, "disc none", "play A05 hand atk:1 up me", "play A04 hand atk:2", "end_plays")
    advance(s)
    do(s, "disc none")
    assert "play D02 hand atk:1" in texts(s, B)
    do(s, "play D02 hand atk:1", "end_plays")
    advance(s)
    for _ in (C, D):
        do(s, "disc none", "end_plays")
        advance(s)
    assert s.phase == 2 and s.decision == Decision("turn", A)
    do(s, "ability spitzel", "spitzel_column atk")
    assert texts(s) == {"spitzel_take atk:2 A04 hand", "spitzel_done"}
    do(s, "spitzel_take atk:2 A04 hand")
    assert s.atk[C] is None and s.hand_a[A].get("A04") == 1
    assert s.atk[B] == AttackSlot("A05", A, True, "me", "D02", ALL)
    if kind_of(s) == "spitzel_take":
        assert texts(s) == {"spitzel_done"}
        do(s, "spitzel_done")
    do(s, "disc none", "end_plays")
    advance(s)
    do(s, "disc none", "end_plays")
    advance(s)
    assert s.decision == Decision("turn", C) and "disc protect" in texts(s)


# ----------------------------------------------------------------------------- action cards (App. B)

# App. B, literally: symbol, stars, eye, fist, $
ATTACKS = {
    "A01": ("badge", 0, True, 3, 0), "A02": ("badge", 0, False, 5, 1), "A03": ("badge", 0, True, 2, 0),
    "A04": ("cross", 0, False, 4, 0), "A05": ("cross", 0, True, 3, 0), "A06": ("cross", 0, False, 6, 0),
    "A07": ("hand", 0, False, 3, 1), "A08": ("hand", 0, True, 4, 0), "A09": ("hand", 0, False, 5, 0),
    "A10": ("star", 1, False, 2, 0), "A11": ("star", 2, False, 3, 0), "A12": ("star", 3, False, 4, 0),
}
# covers, strength (None = cancel)
DEFENCES = {
    "D01": ({"badge"}, None), "D02": ({"cross", "hand"}, 4), "D03": ({"hand"}, None),
    "D04": ({"star"}, None), "D05": ({"badge", "cross", "hand", "star"}, 3), "D06": ({"badge", "cross"}, 5),
}
# tag, dice, fist, $
TOOLS = {
    "T01": ("Fahrzeug", 2, 0, 0), "T02": ("Fahrzeug", 1, 1, 0), "T03": ("Waffe", 1, 3, 0),
    "T04": ("Waffe", 1, 2, 0), "T05": ("Waffe", 0, 2, 0), "T06": ("Schnaps", 1, 0, 1),
    "T07": ("Schnaps", 2, 0, 0), "T08": ("Werkzeug", 2, 0, 0), "T09": ("Werkzeug", 1, 2, 0),
    "T10": ("Werkzeug", 1, 0, 1), "T11": ("", 0, 3, 0), "T12": ("", 0, 2, 0), "T13": ("", 0, 4, 0),
    "T14": ("", 1, 1, 1),
}


def _me1_attack(card: str, defence: str = "", events: tuple[str, ...] = ()) -> tuple[MafiaState, list[Event]]:
    """A's face-down ``card`` against B (VP 10, owns P4, $2 in K1), resolved at ME1; B defends
    with ``defence`` (from his hand) or not."""
    s = blank()
    s.this_events = list(events)
    for e in events:
        _take(s.decks["E"], e)
    s.vp[B] = 10
    chars(s, B, "P4")
    set_row(s, 0, "P6")
    put(s, B, "k1", "G2")
    if defence:
        hand(s, B, defence)
    attack(s, B, card, A)
    ev: list[Event] = []
    steps(s, me(1), ev=ev)
    assert s.decision == Decision("defend", B)
    do(s, f"defend {defence}" if defence else "no_defence", seat=B, ev=ev)
    advance(s, ev=ev)
    assert s.decision == Decision("turn", A) and s.atk[B] is None
    return s, ev


@pytest.mark.parametrize("card", sorted(ATTACKS))
def test_attack_card_effect(card: str) -> None:
    """App. B / §8.4: each attack card's symbol, stars and $ on success, and its eye."""
    symbol, stars, eye, _fist, dollar = ATTACKS[card]
    s, ev = _me1_attack(card)
    assert "ml.attack_succeeds" in ids(ev)
    if symbol == "badge":  # raid: B's only field with cards
        assert s.fields[B][1] == [] and s.disc_m == {"G2": 1} and s.chars[B] == ["P4"]
    elif symbol == "cross":  # hit: the character is discarded
        assert s.chars[B] == [] and s.chars[A] == [] and s.disc_c == {"P4": 1}
    elif symbol == "hand":  # poaching: the character moves to A, no gift VP
        assert s.chars[B] == [] and s.chars[A] == ["P4"] and s.acquired[A] == 1 and s.vp[A] == 0
    else:
        assert s.vp[B] == 10 - 2 * stars and s.vp[A] == stars and s.chars[B] == ["P4"]
    if symbol != "badge":
        assert [sl.card for sl in s.fields[B][1]] == ["G2"]
    assert money_count(s, A) == dollar
    assert s.disc_a[card] == 1
    # §8.3 step 6: the $ are drawn even if the effect finds nothing (B: no cards, no character)
    v = blank()
    attack(v, B, card, A)
    steps(v, me(1))
    do(v, "no_defence", seat=B)
    advance(v)
    assert v.decision == Decision("turn", A) and money_count(v, A) == dollar and v.atk[B] is None
    # eye: face up (now or at month end) only with the eye
    t = blank()
    set_row(t, 0, "P6")
    hand(t, A, card)
    do(t, "disc none")
    legal = texts(t)
    assert f"play {card} hand atk:1" in legal
    assert (f"play {card} hand atk:1 up now" in legal) is eye
    assert (f"play {card} hand atk:1 up me" in legal) is eye
    assert f"play {card} hand k1" in legal and f"play {card} hand atk:0" not in legal


@pytest.mark.parametrize("card", sorted(ATTACKS))
def test_attack_card_fist_against_alibi(card: str) -> None:
    """App. B / §8.3 step 5: attack strength = fist; against D05 (3) it succeeds only if fist > 3."""
    fist, dollar = ATTACKS[card][3], ATTACKS[card][4]
    s, ev = _me1_attack(card, "D05")
    assert ("ml.attack_succeeds" in ids(ev)) is (fist > 3)
    assert ("ml.attack_failed" in ids(ev)) is (fist <= 3)
    assert money_count(s, A) == (dollar if fist > 3 else 0)  # a failed attack gives no money
    assert s.disc_a == {card: 1, "D05": 1}


@pytest.mark.parametrize("card", sorted(DEFENCES))
def test_defence_card_covers(card: str) -> None:
    """App. B / §8.2: a defence card may be played only against the symbols it covers."""
    covers, _ = DEFENCES[card]
    for attack_card, symbol in (("A02", "badge"), ("A04", "cross"), ("A07", "hand"), ("A10", "star")):
        s = blank()
        hand(s, B, card)
        attack(s, B, attack_card, A)
        steps(s, me(1))
        assert s.decision == Decision("defend", B)
        assert (f"defend {card}" in texts(s, B)) is (symbol in covers), (card, attack_card)


DEFENCE_STRENGTH = [
    ("D01", "A02", False), ("D02", "A04", False), ("D02", "A06", True), ("D03", "A09", False),
    ("D04", "A12", False), ("D05", "A05", False), ("D05", "A04", True), ("D06", "A02", False),
    ("D06", "A06", True),
]


@pytest.mark.parametrize(("card", "attack_card", "succeeds"), DEFENCE_STRENGTH)
def test_defence_card_strength(card: str, attack_card: str, succeeds: bool) -> None:
    """App. B / §8.3 step 5: cancel defences stop any covered attack; a number holds on a tie."""
    s, ev = _me1_attack(attack_card, card)
    assert ("ml.attack_succeeds" in ids(ev)) is succeeds
    assert s.disc_a.get(card) == 1 and s.disc_a.get(attack_card) == 1


def test_defence_on_own_turn_and_immediate() -> None:
    """§8.2 moments 1 and 2: on his own turn onto a face-up month-end attack (counts as a play);
    as a free reaction to a face-up attack resolved now."""
    s = blank()
    set_row(s, 0, "P6")
    hand(s, A, "A05", "A01")
    hand(s, B, "D02", "D05")
    chars(s, C, "P4")
    do(s, "disc none", "play A05 hand atk:1 up me", "play A01 hand atk:2 up now")
    assert s.decision == Decision("defend", C) and texts(s, C) == {"no_defence"}
    do(s, "no_defence", seat=C)
    advance(s)  # nothing to raid: the effect is void, A01 shows no $
    assert s.atk[C] is None and s.decision == Decision("turn", A) and s.played == 2
    do(s, "end_plays")
    advance(s)
    do(s, "disc none")
    assert texts(s, B) >= {"play D02 hand atk:1", "play D05 hand atk:1"}
    do(s, "play D02 hand atk:1")
    assert s.played == 1 and s.atk[B] == AttackSlot("A05", A, True, "me", "D02", ALL)
    assert not any(w.startswith("play D05") for w in texts(s))  # at most one defence


def _tool_contest(card: str, b_money: tuple[str, ...]) -> MafiaState:
    """K1 = P4 (bribe 3, blackmail 4). A: ``card`` + T13 (fist 4); B: ``b_money``."""
    s = blank()
    set_row(s, 0, "P4")
    put(s, A, "k1", card, "T13")
    put(s, B, "k1", *b_money)
    steps(s, Task("column", column=0))
    advance(s)
    return s


MONEY_OF = {4: ("G3", "G1"), 5: ("G5",), 6: ("G5", "G1"), 7: ("G5", "G2"), 8: ("G5", "G3"), 9: ("G5", "G3", "G1")}
TAG_JOB = {"Fahrzeug": ("J06", "T08"), "Werkzeug": ("J06", "T01"), "Waffe": ("J02", ""), "Schnaps": ("J01", "")}


@pytest.mark.parametrize("card", sorted(TOOLS))
def test_tool_card(card: str) -> None:
    """App. B: a tool card's dice (job roll), tag (job by cards), fist and $ (character contest)."""
    tag, dice, fist, dollar = TOOLS[card]
    # dice: J18 (20, Wa + Wa + Wz) is never fulfilled by one card
    s = blank()
    s.phase = 2
    set_job(s, "J18")
    put(s, A, "job", card)
    do(s, "disc none", "end_plays")
    assert ("job_attempt" in texts(s)) is (dice > 0)
    if dice:
        do(s, "job_attempt")
        rolls = [m for m in advance(s, *["roll 1"] * dice) if m.kind == "chance_roll"]
        assert len(rolls) == dice and s.sitout[A] == 2
    # tag: a job whose tags it completes (with one partner card) is done without a roll
    if tag:
        job, partner = TAG_JOB[tag]
        s = blank()
        s.phase = 2
        set_job(s, job)
        put(s, A, "job", card, *([partner] if partner else []))
        do(s, "disc none", "end_plays", "job_attempt")
        assert s.jobs_done[A] == [job] and kind_of(s) == "chance_draw" and pending(s).deck == "M"
    # fist: A (card + T13) ties B's money at 4 + fist and wins from the higher row; one more $ wins for B
    s = _tool_contest(card, MONEY_OF[4 + fist])
    assert s.chars[A] == ["P4"]
    assert money_count(s, A) == dollar  # §10.1 step 5: the winner draws his action cards' $
    assert money_count(s, B) == len(MONEY_OF[4 + fist])  # the loser's money goes back
    t = _tool_contest(card, MONEY_OF[5 + fist])
    assert t.chars[B] == ["P4"] and money_count(t, A) == 0


# ----------------------------------------------------------------------------- character symbols (App. C)


def test_character_a_bonus() -> None:
    """§10.3 A: the winner of P5 may at once draw 2 action cards (`A_DRAW`)."""
    for answer, drawn in (("yes", 2), ("no", 0)):
        s = blank()
        set_row(s, 0, "P5")
        put(s, A, "k1", "G2")
        steps(s, Task("column", column=0))
        assert s.decision == Decision("a_draw", A) and texts(s, A) == {"a_draw yes", "a_draw no"}
        do(s, f"a_draw {answer}", seat=A)
        met = advance(s)
        assert sum(s.hand_a[A].values()) == drawn and [m.deck for m in met] == ["A"] * drawn
        assert s.chars[A] == ["P5"] and s.vp[A] == 0


def test_character_magnifier() -> None:
    """§10.4 L: P2 turned up at ME4: every hand above 6 action cards discards down to 6, paying
    1 VP per card (VP ≥ 0); money in hand doesn't count; choices hidden until all chose."""
    s = blank()
    hand(s, A, "T01", "T01", "T02", "T02", "T03", "T04", "T04", "T05", "T06", "G1", "G2")  # 9 + 2 money
    s.vp[A] = 1
    hand(s, B, "T07", "T07", "T08", "T08", "T09", "T09")  # 6
    hand(s, C, "T11", "T11", "T12", "T12", "T13", "T13", "T14", "T10")  # 8
    s.vp[C] = 5
    set_row(s, 1, "P4")
    set_row(s, 2, "P6")
    set_row(s, 3, "S4")
    steps(s, me(4))
    advance(s, "draw P2")
    assert s.row[0] == "P2" and kind_of(s) == "discards" and s.actors == (A, C)
    assert s.must_discard == [3, 0, 2, 0]
    assert check_commitments(GAME, s, 4, Random(2)) == 2  # A's and C's choices show nowhere else
    t = s.clone()
    do(s, "set_aside T01 hand", seat=A)
    do(t, "set_aside T05 hand", seat=A)
    assert GAME.observe(s, B) == GAME.observe(t, B) and GAME.observe(s, C) == GAME.observe(t, C)
    do(s, "set_aside T01 hand", "set_aside T02 hand", seat=A)
    do(s, "set_aside T11 hand", "set_aside T14 hand", seat=C)
    assert s.vp == [0, 0, 3, 0]
    assert sum(s.hand_a[A].values()) == 6 and s.hand_m[A] == {"G1": 1, "G2": 1}
    assert sum(s.hand_a[B].values()) == 6 and sum(s.hand_a[C].values()) == 6
    assert s.disc_a == {"T01": 2, "T02": 1, "T11": 1, "T14": 1}
    assert s.decision == Decision("turn", A)


def test_character_gift_and_set() -> None:
    """§10.3 gift and set: W3 (gift 3) won with R4 already owned: +3, then Hollywood +6, once."""
    s = blank()
    chars(s, A, "R4")
    set_row(s, 0, "W3")
    put(s, A, "k1", "G5")
    steps(s, Task("column", column=0))
    advance(s)
    assert s.vp[A] == 9 and s.sets[A] == ["Hollywood"]
    engine.check_sets(s, A, None)
    assert s.vp[A] == 9


# ----------------------------------------------------------------------------- events (App. E)


def with_events(*evs: str, **kw: Any) -> MafiaState:
    s = blank(**kw)
    for e in evs:
        _take(s.decks["E"], e)
    s.this_events = list(evs)
    steps(s)  # A's turn starts again, now under the events
    return s


def test_event_ev01_bribe_minus_two() -> None:
    """EV01: bribe minimums −2, not below 1; an unbribable "—" stays "—"."""
    s = with_events("EV01")
    set_row(s, 0, "W8")  # bribe 2 → 1: a field with $0 is still not eligible
    set_row(s, 1, "S2")  # — stays —
    set_row(s, 2, "W2")  # bribe 6 → 4
    set_row(s, 3, "B6")  # bribe 3 → 1
    put(s, A, "k1", "T01")
    put(s, B, "k2", "G5")
    put(s, C, "k3", "G3", "G1")
    put(s, D, "k4", "G1")
    steps(s, me(3))
    advance(s)
    assert s.chars == [[], [], ["W2"], ["B6"]]
    assert s.row[0] == "W8" and s.row[1] == "S2"


def test_event_ev02_badge_plus_two() -> None:
    """EV02: badge attacks +2 fist (only as attacks): A01 (3 + 2) beats D05 (3); the cross A05
    doesn't; a badge card in a character field keeps its printed fist."""
    _s, ev = _me1_attack("A01", "D05", ("EV02",))
    assert "ml.attack_succeeds" in ids(ev)
    _s, ev = _me1_attack("A01", "D05")
    assert "ml.attack_failed" in ids(ev)
    _s, ev = _me1_attack("A05", "D05", ("EV02",))
    assert "ml.attack_failed" in ids(ev)
    s = with_events("EV02")
    set_row(s, 0, "P4")  # blackmail 4
    put(s, A, "k1", "A03", "T12")  # 2 + 2 = 4 (6 with +2)
    put(s, B, "k1", "G5")
    steps(s, Task("column", column=0))
    advance(s)
    assert s.chars[B] == ["P4"]


def test_event_ev03_truce() -> None:
    """EV03: crosshair cards may not be placed in attack fields (own fields still allowed)."""
    s = with_events("EV03")
    set_row(s, 0, "P4")
    hand(s, A, "A04", "A05", "A07")
    do(s, "disc none")
    legal = texts(s)
    assert not any(w.startswith(("play A04 hand atk", "play A05 hand atk")) for w in legal)
    assert {"play A04 hand k1", "play A05 hand job" if s.job else "play A05 hand k1", "play A07 hand atk:1"} <= legal


def test_event_ev04_fog() -> None:
    """EV04: no attack card may be placed face up."""
    s = with_events("EV04")
    hand(s, A, "A01", "A08")
    do(s, "disc none")
    legal = texts(s)
    assert not any(" up " in f" {w} " for w in legal)
    assert {"play A01 hand atk:1", "play A08 hand atk:3"} <= legal


def test_event_ev05_yellow_press() -> None:
    """EV05: the evaluated star card has double effect: A11 → B −8, A +4."""
    s, _ev = _me1_attack("A11", "", ("EV05",))
    assert s.vp[B] == 2 and s.vp[A] == 4


def test_event_ev06_job_dice() -> None:
    """EV06: job dice sums −2: J02 (10) is done with a roll of 8."""
    s = with_events("EV06")
    s.phase = 2
    set_job(s, "J02")
    put(s, A, "job", "T02")  # Fz: not Wa, 1 die
    do(s, "disc none", "end_plays", "job_attempt")
    GAME.apply(s, CHANCE, parse("roll 8"))
    assert s.jobs_done[A] == ["J02"] and s.vp[A] == 3


def test_event_ev07_charity_ball() -> None:
    """EV07: each gift character won from the row gives +2 VP more: W4 (2) → 4."""
    s = with_events("EV07")
    set_row(s, 0, "W4")
    put(s, A, "k1", "G5")
    steps(s, Task("column", column=0))
    advance(s)
    assert s.chars[A] == ["W4"] and s.vp[A] == 4


def test_event_ev08_tax_audit() -> None:
    """EV08: at ME7 anyone with more than 6 money cards (hand + screen) discards down to 6, his
    choice, hidden until all have chosen."""
    s = with_events("EV08")
    hand(s, A, "G1", "G2")
    screen(s, A, "G1", "G1", "G3", "G3", "G5", "G5")  # 8
    screen(s, B, "G1", "G1", "G1", "G2", "G2", "G2")  # 6
    screen(s, C, "G1", "G1", "G1", "G2", "G2", "G2", "G3")  # 7
    steps(s, me(7))
    assert kind_of(s) == "discards" and s.actors == (A, C) and s.must_discard == [2, 0, 1, 0]
    assert "set_aside G2 hand" in texts(s, A) and "set_aside G5 screen" in texts(s, A)
    t = s.clone()
    do(s, "set_aside G1 screen", seat=A)
    do(t, "set_aside G5 screen", seat=A)
    assert GAME.observe(s, B) == GAME.observe(t, B) and GAME.observe(s, C) == GAME.observe(t, C)
    do(s, "set_aside G2 hand", seat=A)
    do(s, "set_aside G3 screen", seat=C)
    assert [money_count(s, q) for q in range(4)] == [6, 6, 6, 0]
    assert s.disc_m == {"G1": 1, "G2": 1, "G3": 1} and s.decision == Decision("turn", A)


def test_event_ev08_commitments_stay_hidden_until_all_have_chosen() -> None:
    """EV08 (§17 "hidden until all affected players have chosen"): whether A sets aside a money
    card from his hand or from behind his screen changes nothing the others see — not the hand
    and screen sizes — until C has chosen too; then both are applied and shown together."""
    s = with_events("EV08")
    hand(s, A, "G1", "G2")
    screen(s, A, "G1", "G1", "G3", "G3", "G5", "G5")  # 8
    screen(s, C, "G1", "G1", "G1", "G2", "G2", "G2", "G3")  # 7
    steps(s, me(7))
    assert check_commitments(GAME, s, 4, Random(1), samples=8) == 2  # the conformance check, A and C varied
    sizes = (GAME.observe(s, None).public.hand_sizes, GAME.observe(s, None).public.screen_sizes)
    t = s.clone()
    ev_s: list[Event] = []
    ev_t: list[Event] = []
    do(s, "set_aside G2 hand", seat=A, ev=ev_s)
    do(t, "set_aside G1 screen", seat=A, ev=ev_t)
    for v in (B, C, D, None):
        assert GAME.observe(s, v) == GAME.observe(t, v)
        assert [e.for_viewer(v) for e in ev_s] == [e.for_viewer(v) for e in ev_t]
    assert (GAME.observe(s, B).public.hand_sizes, GAME.observe(s, B).public.screen_sizes) == sizes
    assert texts(s, C) == texts(t, C)
    assert not any(e.reveal for e in ev_s)
    # A's own view shows his commitment; his second choice cannot use the same card again
    assert private(GAME.observe(s, A)).set_aside == (("G2", "hand"),)
    assert "set_aside G2 hand" not in texts(s, A)
    do(s, "set_aside G1 hand", seat=A)
    do(t, "set_aside G1 screen", seat=A)
    assert GAME.observe(s, B) == GAME.observe(t, B)  # C has not chosen yet
    ev: list[Event] = []
    do(s, "set_aside G3 screen", seat=C, ev=ev)
    reveals = [e for e in ev if e.message.id == "ml.discards"]
    assert [e.message.get("seat") for e in reveals] == [A, C] and all(e.reveal for e in reveals)
    assert s.hand_m[A] == {} and s.screen[A] == {"G1": 2, "G3": 2, "G5": 2} and s.screen[C] == {"G1": 3, "G2": 3}
    assert GAME.observe(s, B).public.hand_sizes[A] == 0 and GAME.observe(s, B).public.screen_sizes == (6, 0, 6, 0)


def test_event_ev09_black_market() -> None:
    """EV09: the first two discs on the ashtray each get a reward."""
    s = with_events("EV09")
    do(s, "disc ashtray_money")
    advance(s)
    do(s, "end_plays")
    advance(s)
    assert "disc ashtray_actions" in texts(s, B)
    do(s, "disc ashtray_actions")
    advance(s)
    assert sum(s.hand_a[B].values()) == 3
    do(s, "end_plays")
    advance(s)
    assert s.decision == Decision("turn", C) and not any(w.startswith("disc ashtray") for w in texts(s))


def test_event_ev10_treachery() -> None:
    """EV10: defence cards with a number have −1 strength: A04 (4) beats D02 (4 − 1)."""
    _s, ev = _me1_attack("A04", "D02", ("EV10",))
    assert "ml.attack_succeeds" in ids(ev)
    _s, ev = _me1_attack("A07", "D03", ("EV10",))  # a cancel stays a cancel
    assert "ml.attack_failed" in ids(ev)


def test_event_ev11_curfew() -> None:
    """EV11: at most 1 card per turn (Orsini's ability: 2); draw back max(0, 2 − played)."""
    s = with_events("EV11")
    set_row(s, 0, "P4")
    hand(s, A, "T11", "T12")
    do(s, "disc none", "play T11 hand k1")
    assert texts(s) == {"end_plays"} | {w for w in texts(s) if w.startswith("ability")}
    do(s, "end_plays")
    met = advance(s)
    assert [m.deck for m in met] == ["A"]
    s = with_events("EV11", families="orsini,moretti,rinaldi,lombardo")
    set_row(s, 0, "P4")
    hand(s, A, "T11", "T12", "T13")
    do(s, "ability grossoffensive", "disc none", "play T11 hand k1", "play T12 hand k1")
    assert not any(w.startswith("play") for w in texts(s))
    do(s, "end_plays")
    assert advance(s) == [] and s.decision == Decision("turn", B)


def test_event_ev12_campaign_donations() -> None:
    """EV12: at the start of the month (after payday) each player draws 1 money card."""
    s = blank()
    s.month = 2
    _take(s.decks["E"], "EV12")
    s.next_events = ["EV12"]
    chars(s, B, "P4")
    steps(s, me(12))
    met = advance(s)
    assert s.month == 3 and s.this_events == ["EV12"]
    assert [m.seat for m in met] == [B, A, B, C, D]  # payday first
    assert [money_count(s, q) for q in range(4)] == [1, 2, 1, 1]


def test_event_ev13_street_fair() -> None:
    """EV13: the monthly bonus (ME6) is doubled (ties too)."""
    s = with_events("EV13")
    s.month = 5
    s.acquired = [2, 1, 0, 0]
    t = s.clone()
    steps(s, me(6))
    assert s.vp == [10, 0, 0, 0]
    t.acquired = [2, 2, 0, 0]
    steps(t, me(6))
    assert t.vp == [4, 4, 0, 0]


def test_event_ev14_witness_protection() -> None:
    """EV14: handshake cards may not be placed in attack fields."""
    s = with_events("EV14")
    set_row(s, 0, "P4")
    hand(s, A, "A07", "A08", "A04")
    do(s, "disc none")
    legal = texts(s)
    assert not any(w.startswith(("play A07 hand atk", "play A08 hand atk")) for w in legal)
    assert {"play A07 hand k1", "play A04 hand atk:2"} <= legal


def test_event_ev15_big_shipment() -> None:
    """EV15: each completed job gives 2 more money cards: J01 ($1) with T06 ($1) → 4."""
    s = with_events("EV15")
    s.phase = 2
    set_job(s, "J01")
    put(s, A, "job", "T06")
    do(s, "disc none", "end_plays", "job_attempt")
    advance(s)
    assert s.jobs_done[A] == ["J01"] and money_count(s, A) == 4


def test_event_ev16_blackout() -> None:
    """EV16: no disc may be placed; `DISC(NONE)` is the only disc option."""
    s = with_events("EV16", "EV09")
    assert s.discs[A] == 6
    assert {w for w in texts(s) if w.startswith("disc")} == {"disc none"}


# ----------------------------------------------------------------------------- abilities (§13)


def test_ability_grossoffensive() -> None:
    """§13 Orsini: before his first play he may play up to 4 cards; draw back max(0, 2 − played)."""
    s = blank(families="orsini,moretti,rinaldi,lombardo")
    set_row(s, 0, "P4")
    set_row(s, 1, "P6")
    hand(s, A, "T11", "T12", "T13", "T05", "T04")
    do(s, "disc none", "ability grossoffensive")
    for w in ("play T11 hand k1", "play T12 hand k1", "play T13 hand k1", "play T05 hand k2"):
        do(s, w)
    assert not any(w.startswith("play") for w in texts(s))
    do(s, "end_plays")
    assert advance(s) == [] and s.decision == Decision("turn", B) and s.ability_used[A]
    # after a first play, the ability is no longer offered
    t = blank(families="orsini,moretti,rinaldi,lombardo")
    set_row(t, 0, "P4")
    hand(t, A, "T11")
    do(t, "disc none", "play T11 hand k1")
    assert "ability grossoffensive" not in texts(t)


def test_ability_familienbande() -> None:
    """§13 Barone: in a column where he has a card he may make his field eligible whatever the
    minimums and win every tie: $1 on P1 ($7) alone wins; a tie lost from a lower row is won."""
    s = blank(families="moretti,barone,orsini,lombardo")
    set_row(s, 0, "P1")
    put(s, B, "k1", "G1")
    steps(s, Task("column", column=0))
    assert s.decision == Decision("family_ties", B, column="k1")
    do(s, "family_ties yes", seat=B)
    assert s.chars[B] == ["P1"] and s.ability_used[B]
    s = blank(families="moretti,barone,orsini,lombardo")
    set_row(s, 0, "P4")
    put(s, A, "k1", "G5", "G1")
    put(s, B, "k1", "G3", "G3")
    t = s.clone()
    steps(s, Task("column", column=0))
    do(s, "family_ties no", seat=B)
    advance(s)
    assert s.chars[A] == ["P4"] and not s.ability_used[B]
    steps(t, Task("column", column=0))
    do(t, "family_ties yes", seat=B)
    advance(t)
    assert t.chars[B] == ["P4"] and money_count(t, A) == 2


# ----------------------------------------------------------------------------- registries

EFFECT_TESTS: dict[str, str] = {
    **{c: "test_attack_card_effect" for c in ATTACKS},
    **{c: "test_defence_card_strength" for c in DEFENCES},
    **{c: "test_tool_card" for c in TOOLS},
    "symbol:E": "test_ma17_event_chosen_in_march_active_in_april",
    "symbol:A": "test_character_a_bonus",
    "symbol:L": "test_character_magnifier",
    "gift/set": "test_character_gift_and_set",
    "EV01": "test_event_ev01_bribe_minus_two",
    "EV02": "test_event_ev02_badge_plus_two",
    "EV03": "test_event_ev03_truce",
    "EV04": "test_event_ev04_fog",
    "EV05": "test_event_ev05_yellow_press",
    "EV06": "test_event_ev06_job_dice",
    "EV07": "test_event_ev07_charity_ball",
    "EV08": "test_event_ev08_tax_audit",
    "EV09": "test_event_ev09_black_market",
    "EV10": "test_event_ev10_treachery",
    "EV11": "test_event_ev11_curfew",
    "EV12": "test_event_ev12_campaign_donations",
    "EV13": "test_event_ev13_street_fair",
    "EV14": "test_event_ev14_witness_protection",
    "EV15": "test_event_ev15_big_shipment",
    "EV16": "test_event_ev16_blackout",
    "moretti": "test_ma26_abilities_geldwaesche",
    "rinaldi": "test_ma26_abilities_spitzel",
    "orsini": "test_ability_grossoffensive",
    "lombardo": "test_ma26_abilities_schutzengel",
    "santori": "test_ma26_abilities_gezinkte_wuerfel",
    "barone": "test_ability_familienbande",
}


def test_every_effect_has_a_test() -> None:
    """Every card type of App. B, character symbol (E, A, L, gift/set), event EV01–EV16 and family
    ability has a test of its exact effect (registry above; the functions exist here)."""
    wanted = (
        {f"A{i:02d}" for i in range(1, 13)} | {f"D{i:02d}" for i in range(1, 7)} | {f"T{i:02d}" for i in range(1, 15)}
        | {"symbol:E", "symbol:A", "symbol:L", "gift/set"} | {f"EV{i:02d}" for i in range(1, 17)}
        | {"moretti", "rinaldi", "orsini", "lombardo", "santori", "barone"}
    )
    assert set(EFFECT_TESTS) == wanted
    assert set(ACTIONS) == {k for k in wanted if k[0] in "ADT" and k[1:].isdigit()}
    names = {n.name for n in ast.walk(ast.parse(Path(__file__).read_text(encoding="utf-8")))
             if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}
    missing = sorted(k for k, fn in EFFECT_TESTS.items() if fn not in names or not callable(globals().get(fn)))
    assert missing == []


def test_spec_path() -> None:
    """The spec path used below is /work/shared/rules/mafia-legend.md in this checkout layout."""
    assert SPEC.name == "mafia-legend.md" and SPEC.parent.name == "rules" and SPEC.parent.parent.name == "shared"
    assert SPEC.parent.parent.parent == Path(__file__).resolve().parents[4]


def _docstring_ids(folder: Path) -> set[int]:
    found: set[int] = set()
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                doc = ast.get_docstring(node) or ""
                m = re.match(r"MA-(\d+)", doc)
                if m:
                    found.add(int(m.group(1)))
    return found


def test_every_spec_scenario_has_a_test() -> None:
    """Every scenario id **MA-NN** of the spec's §20 starts the docstring of some test in
    tests/games/mafia/."""
    if not SPEC.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"spec not found at {SPEC}")
        pytest.skip(f"spec not found at {SPEC}")
    wanted = {int(x) for x in re.findall(r"\*\*MA-(\d+)", SPEC.read_text(encoding="utf-8"))}
    assert wanted, "no scenario ids found in the spec"
    missing = sorted(wanted - _docstring_ids(Path(__file__).parent))
    assert missing == [], f"scenarios without a test: {', '.join(f'MA-{i:02d}' for i in missing)}"
