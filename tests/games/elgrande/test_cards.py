"""El Grande spec §9: the exact effect of each of the 33 action-card types, and its availability.

Each card id of data.CARD_TYPES has at least one ``test_card_<id>_...`` function: the position
before, the decisions (wire texts), the position and scores after. Where the availability table
of §9 can fail, a test shows that ``ORDER`` then offers only ``place_first``. Cards with secret
picks (2F, 2G, 4C, 4G) also check that nothing is revealed before the last commit and that the
other seats' observations do not depend on what a committer picked.

Players A, B, C, D are seats 0, 1, 2, 3; the King stands in sevilla unless a test says otherwise.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tablero.core.events import Event, visible_log
from tablero.core.protocol import CHANCE
from tablero.games.elgrande.actions import parse
from tablero.games.elgrande.data import AREA_IDS, AREA_INDEX, CARD_TYPES, REGIONS
from tablero.games.elgrande.engine import FULL_HAND
from tablero.games.elgrande.rules import GAME
from tablero.games.elgrande.setup import scenario, take
from tablero.games.elgrande.state import PHASE_NAMES, ElGrandeState

from .helpers import own

A, B, C, D = range(4)
REGION_IDS = tuple(r.id for r in REGIONS)


# ----------------------------------------------------------------------------- helpers


def texts(s: ElGrandeState, seat: int | None = None) -> set[str]:
    p = s.actors[0] if seat is None else seat
    return {a.to_text() for a in GAME.legal_actions(s, p)}


def do(s: ElGrandeState, *wire: str, seat: int | None = None, events: list[Event] | None = None) -> None:
    for w in wire:
        p = s.actors[0] if seat is None else seat
        GAME.apply(s, p, parse(w), events)


def forced(s: ElGrandeState, *, seat: int | None = None) -> list[tuple[int, str]]:
    """Apply forced steps as Match.advance does (only those of ``seat`` if given)."""
    done: list[tuple[int, str]] = []
    while s.actors and s.actors[0] != CHANCE:
        for p in s.actors:
            legal = GAME.legal_actions(s, p)
            if len(legal) == 1 and not GAME.always_asked(s, p) and seat in (None, p):
                GAME.apply(s, p, legal[0])
                done.append((p, legal[0].to_text()))
                break
        else:
            break
    return done


def to_act(s: ElGrandeState) -> tuple[int, ...]:
    """Seats to act (a call, so that type checkers do not narrow the attribute)."""
    return tuple(s.actors)


def phase(s: ElGrandeState) -> str:
    return PHASE_NAMES[s.phase]


def row(s: ElGrandeState, area: str) -> tuple[int, ...]:
    i = AREA_INDEX[area]
    return tuple(s.cab[p][i] for p in range(s.n))


def start(card: str, **kw: object) -> ElGrandeState:
    """A scenario (3 players by default) in which A has taken ``card`` and announced it."""
    kw.setdefault("players", 3)
    s = scenario(**kw)  # type: ignore[arg-type]
    take(s, card)
    assert texts(s) == {"action_first", "place_first"}
    do(s, "action_first")
    return s


def assert_not_available(card: str, **kw: object) -> None:
    """§9 availability: ORDER is forced to PLACE_FIRST and, after placement, AFTER_PLACEMENT to
    SKIP_ACTION; no announcement happens."""
    kw.setdefault("players", 3)
    s = scenario(**kw)  # type: ignore[arg-type]
    take(s, card)
    assert texts(s) == {"place_first"}
    do(s, "place_first")
    if phase(s) == "place":
        do(s, "end_placement")
    assert texts(s) == {"skip_action"}
    ev: list[Event] = []
    GAME.apply(s, A, parse("skip_action"), ev)
    assert s.active == B


def assert_always_available(card: str) -> None:
    """Empty board, empty courts: the card's action is still offered (§9 table)."""
    s = scenario(players=3, court={A: 0, B: 0, C: 0})
    take(s, card)
    assert texts(s) == {"action_first", "place_first"}


def moves_colours(s: ElGrandeState) -> set[int]:
    return {a.b for a in GAME.legal_actions(s, s.actors[0]) if a.kind.value == "move"}


def moves_sources(s: ElGrandeState) -> set[str]:
    return {AREA_IDS[a.a] for a in GAME.legal_actions(s, s.actors[0]) if a.kind.value == "move"}


NOTHING_OUTSIDE = {"sevilla": {A: 2, B: 2, C: 2}, "castillo": {A: 1, B: 1, C: 1}}
"""Caballeros only in the King's region and the Castillo: nothing is 'outside'."""


def picks_hidden(s: ElGrandeState, seat: int, first: str, second: str) -> ElGrandeState:
    """``seat`` commits ``first``; the same position with ``second`` looks the same to every
    other seat and to spectators. Returns the state after ``first``."""
    s1, s2 = s.clone(), s.clone()
    do(s1, f"disk {first}", seat=seat)
    do(s2, f"disk {second}", seat=seat)
    assert phase(s1) == "disk"  # not the last commit: no reveal
    assert s1.cab == s.cab and s1.province == s.province and s1.score == s.score
    for viewer in [q for q in range(s.n) if q != seat] + [None]:
        assert GAME.observe(s1, viewer) == GAME.observe(s2, viewer)
        assert GAME.observe(s1, viewer).public.committed[seat]
    assert GAME.observe(s1, seat) != GAME.observe(s2, seat)
    return s1


def reveal_events(ev: list[Event], viewer: int | None) -> list[object]:
    return [m for m in visible_log(ev, viewer) if m.id == "eg.reveal_disks"]


# ----------------------------------------------------------------------------- stack 1


def test_card_1A_one_region_up_to_five() -> None:
    """1A: a source region is selected; only its caballeros move (any colour, any destination
    but the King's region); the action ends when the region is empty."""
    s = start("1A", cab={"galicia": {A: 1, B: 2}, "aragon": {C: 2}})
    assert texts(s) == {"select galicia", "select aragon"}
    do(s, "select galicia")
    assert moves_sources(s) == {"galicia"} and moves_colours(s) == {A, B}
    assert "stop" in texts(s)
    do(s, "move galicia 1 aragon", "move galicia 1 castillo", "move galicia 0 valencia")
    assert row(s, "galicia") == (0, 0, 0)
    assert row(s, "aragon") == (0, 1, 2)
    assert row(s, "castillo") == (0, 1, 0)
    assert row(s, "valencia") == (1, 0, 0)
    assert phase(s) == "place" and s.place_limit == 1  # ended: galicia is empty


def test_card_1A_not_available() -> None:
    """1A availability: no caballero of any colour outside → placement only."""
    assert_not_available("1A", cab=NOTHING_OUTSIDE)


def test_card_1B_four_moves_any_colour() -> None:
    """1B: up to 4 moves of any colours from any sources; a cube moved earlier may move again;
    the action ends after the 4th move."""
    s = start("1B", cab={"galicia": {A: 1, B: 1}, "aragon": {C: 3}})
    assert moves_sources(s) == {"galicia", "aragon"} and moves_colours(s) == {A, B, C}
    do(s, "move galicia 0 aragon", "move aragon 2 castillo", "move aragon 0 granada")
    assert phase(s) == "move"
    do(s, "move galicia 1 valencia")
    assert phase(s) == "place"
    assert row(s, "galicia") == (0, 0, 0)
    assert row(s, "aragon") == (0, 0, 2)
    assert row(s, "granada") == (1, 0, 0)
    assert row(s, "valencia") == (0, 1, 0)
    assert row(s, "castillo") == (0, 0, 1)


def test_card_1B_not_available() -> None:
    """1B availability: nothing outside → placement only."""
    assert_not_available("1B", cab=NOTHING_OUTSIDE)


def test_card_1C_four_own() -> None:
    """1C: only A's caballeros move; the action ends after 4 moves although A has more outside."""
    s = start("1C", cab={"galicia": {A: 3}, "aragon": {A: 2, B: 2}})
    assert moves_colours(s) == {A}
    do(s, "move galicia 0 castillo", "move galicia 0 castillo", "move aragon 0 valencia")
    assert phase(s) == "move" and moves_colours(s) == {A}
    do(s, "move aragon 0 valencia")
    assert phase(s) == "place"
    assert row(s, "galicia") == (1, 0, 0)
    assert row(s, "aragon") == (0, 2, 0)
    assert row(s, "valencia") == (2, 0, 0)
    assert row(s, "castillo") == (2, 0, 0)


def test_card_1C_stop_at_zero() -> None:
    """1C: "up to" allows STOP before any move; nothing changes."""
    s = start("1C", cab={"galicia": {A: 3}})
    do(s, "stop")
    assert row(s, "galicia") == (3, 0, 0) and phase(s) == "place"


def test_card_1C_not_available() -> None:
    """1C availability: opponents outside, but A has nothing outside → placement only."""
    assert_not_available("1C", cab={"galicia": {B: 2, C: 1}, "sevilla": {A: 2}, "castillo": {A: 2}})


def test_card_1D_two_own_two_opponents() -> None:
    """1D: separate budgets; once the opponents' budget is spent only own moves are offered;
    one STOP ends the whole action."""
    s = start("1D", cab={"galicia": {A: 3, B: 3, C: 1}})
    assert moves_colours(s) == {A, B, C}
    do(s, "move galicia 1 castillo", "move galicia 2 aragon")
    assert moves_colours(s) == {A} and "stop" in texts(s)
    do(s, "move galicia 0 valencia")
    assert moves_colours(s) == {A}
    do(s, "stop")
    assert phase(s) == "place"
    assert row(s, "galicia") == (2, 2, 0)
    assert row(s, "castillo") == (0, 1, 0)
    assert row(s, "aragon") == (0, 0, 1)
    assert row(s, "valencia") == (1, 0, 0)


def test_card_1D_ends_when_both_budgets_spent() -> None:
    """1D: after 2 own and 2 opponents' moves the action ends automatically."""
    s = start("1D", cab={"galicia": {A: 3, B: 3}})
    do(s, "move galicia 0 aragon", "move galicia 0 aragon")
    assert moves_colours(s) == {B}
    do(s, "move galicia 1 castillo", "move galicia 1 castillo")
    assert phase(s) == "place"
    assert row(s, "galicia") == (1, 1, 0)
    assert row(s, "aragon") == (2, 0, 0)
    assert row(s, "castillo") == (0, 2, 0)


def test_card_1D_not_available() -> None:
    """1D availability: nothing outside → placement only."""
    assert_not_available("1D", cab=NOTHING_OUTSIDE)


def test_card_1E_three_opponents() -> None:
    """1E: only opponents' caballeros (mixed) move; the action ends after the 3rd move."""
    s = start("1E", cab={"galicia": {A: 2, B: 1}, "aragon": {C: 2}})
    assert moves_colours(s) == {B, C}
    do(s, "move galicia 1 castillo", "move aragon 2 galicia", "move aragon 2 cataluna")
    assert phase(s) == "place"
    assert row(s, "galicia") == (2, 0, 1)
    assert row(s, "aragon") == (0, 0, 0)
    assert row(s, "cataluna") == (0, 0, 1)
    assert row(s, "castillo") == (0, 1, 0)


def test_card_1E_not_available() -> None:
    """1E availability: only A has caballeros outside → placement only."""
    assert_not_available("1E", cab={"galicia": {A: 2}, "sevilla": {B: 3}, "castillo": {C: 2}})


def test_card_1F_three_any() -> None:
    """1F: up to 3 moves of any colours; the action ends after the 3rd move."""
    s = start("1F", cab={"galicia": {A: 1, B: 1, C: 1}})
    assert moves_colours(s) == {A, B, C}
    do(s, "move galicia 0 aragon", "move galicia 1 aragon", "move aragon 1 castillo")
    assert phase(s) == "place"
    assert row(s, "galicia") == (0, 0, 1)
    assert row(s, "aragon") == (1, 0, 0)
    assert row(s, "castillo") == (0, 1, 0)


def test_card_1F_not_available() -> None:
    """1F availability: nothing outside → placement only."""
    assert_not_available("1F", cab=NOTHING_OUTSIDE)


def test_card_1G_extra_placement_anywhere() -> None:
    """1G: up to 2 extra caballeros from the court anywhere but the King's region (Castillo
    allowed), then the normal placement of 1 next to the King, from the same court."""
    s = start("1G", court={A: 4})
    do(s, "extra valencia", "extra castillo")
    assert row(s, "valencia") == (1, 0, 0) and row(s, "castillo") == (1, 0, 0)
    assert s.court[A] == 2
    assert phase(s) == "place" and s.place_limit == 1
    do(s, "place granada")
    assert s.court[A] == 1 and row(s, "granada") == (1, 0, 0)
    assert s.active == B


def test_card_1G_after_placement_and_stop() -> None:
    """1G: with PLACE_FIRST the normal placement comes first; DO_ACTION then offers the extra
    placement, and STOP ends it early."""
    s = scenario(players=3, court={A: 3})
    take(s, "1G")
    do(s, "place_first", "place castilla_la_nueva", "do_action")
    assert texts(s) == {f"extra {r}" for r in REGION_IDS if r != "sevilla"} | {"extra castillo", "stop"}
    do(s, "extra galicia", "stop")
    assert s.court[A] == 1 and row(s, "galicia") == (1, 0, 0) and row(s, "castilla_la_nueva") == (1, 0, 0)
    assert s.active == B


def test_card_1G_not_available() -> None:
    """1G availability: A's court is empty → placement only (placement ends at once)."""
    assert_not_available("1G", court={A: 0}, cab={"galicia": {A: 2}})


def test_card_1H_all_out_mode() -> None:
    """1H in MODE_ALL_OUT acts as 1I: a region with own caballeros, all of them must leave."""
    s = start("1H", cab={"galicia": {A: 2, B: 1}}, court={A: 2})
    assert texts(s) == {"mode_all_out", "mode_extra"}
    do(s, "mode_all_out")
    assert texts(s) == {"select galicia"}
    do(s, "select galicia")
    assert "stop" not in texts(s) and moves_colours(s) == {A}
    do(s, "move galicia 0 aragon", "move galicia 0 castillo")
    assert row(s, "galicia") == (0, 1, 0)
    assert row(s, "aragon") == (1, 0, 0)
    assert row(s, "castillo") == (1, 0, 0)
    assert phase(s) == "place"


def test_card_1H_extra_mode() -> None:
    """1H in MODE_EXTRA acts as 1G: up to 2 from the court anywhere."""
    s = start("1H", cab={"galicia": {A: 2}}, court={A: 2})
    do(s, "mode_extra", "extra pais_vasco", "extra pais_vasco")
    assert row(s, "pais_vasco") == (2, 0, 0) and s.court[A] == 0
    assert s.active == B  # normal placement ended at once with the empty court


def test_card_1H_not_available() -> None:
    """1H availability: court 0 and nothing of A's outside → placement only."""
    assert_not_available("1H", court={A: 0}, cab={"sevilla": {A: 1}, "castillo": {A: 1}, "galicia": {B: 2}})


def test_card_1I_all_own_out() -> None:
    """1I: a region with A's caballeros; every one of them must leave (split allowed, no STOP);
    other colours stay."""
    s = start("1I", cab={"galicia": {A: 2, B: 1}, "aragon": {A: 1}})
    assert texts(s) == {"select galicia", "select aragon"}
    do(s, "select galicia")
    dests = [a for a in AREA_IDS if a not in ("galicia", "sevilla")]
    assert texts(s) == {f"move galicia 0 {d}" for d in dests}
    do(s, "move galicia 0 valencia", "move galicia 0 aragon")
    assert row(s, "galicia") == (0, 1, 0)
    assert row(s, "aragon") == (2, 0, 0)
    assert row(s, "valencia") == (1, 0, 0)
    assert phase(s) == "place"


def test_card_1I_not_available() -> None:
    """1I availability: A has nothing outside (B has) → placement only."""
    assert_not_available("1I", cab={"galicia": {B: 2}, "sevilla": {A: 2}})


# ----------------------------------------------------------------------------- stack 2


def test_card_2A_veto_held_at_once() -> None:
    """2A: the taker holds the Veto! at once; no ORDER, no announcement: he places (limit 2) and
    the turn ends; the card stays with him (not discarded)."""
    s = scenario(players=3, round_index=3, court={A: 3})
    take(s, "2A")
    assert s.veto[A] == [3]
    assert phase(s) == "place" and s.place_limit == 2
    assert "action_first" not in texts(s)
    do(s, "place granada", "place granada")
    assert s.active == B and row(s, "granada") == (2, 0, 0)
    assert s.veto[A] == [3] and "2A" not in [CARD_TYPES[c].id for c in s.discard]


def test_card_2A_no_special_action() -> None:
    """2A availability ('never asked'): with an empty court the turn ends right after taking it."""
    s = scenario(players=3, court={A: 0})
    take(s, "2A")
    assert s.active == B and s.veto[A] == [0]


def test_card_2A_veto_cancels_whole_action() -> None:
    """2A: the holder vetoes a later announcement; the action is not executed, the announcer
    still places, and the Veto! card goes to the discard pile."""
    s = scenario(players=3, court={A: 0}, cab={"castillo": {A: 2}}, offer=["3D"])
    take(s, "2A")
    assert s.active == B
    take(s, "3D")
    do(s, "action_first")
    assert to_act(s) == (A,) and texts(s, A) == {"veto", "allow"}
    do(s, "veto", seat=A)
    assert s.score == [0, 0, 0] and s.veto[A] == []
    assert [CARD_TYPES[c].id for c in s.discard] == ["2A"]
    assert phase(s) == "place" and to_act(s) == (B,) and s.place_limit == 3


def test_card_2B_whole_courts() -> None:
    """2B: every opponent returns his whole court to his province; A's court is unchanged."""
    s = start("2B", court={A: 4, B: 5, C: 2})
    prov = scenario(players=3, court={A: 4, B: 5, C: 2}).province
    assert s.court == [4, 0, 0]
    assert [s.province[p] - prov[p] for p in range(3)] == [0, 5, 2]
    assert phase(s) == "place"


def test_card_2B_not_available() -> None:
    """2B availability: every opponent's court is empty → placement only."""
    assert_not_available("2B", court={A: 3, B: 0, C: 0})


def test_card_2C_three_each() -> None:
    """2C: every opponent returns 3 court caballeros (all if fewer)."""
    s = start("2C", court={A: 4, B: 5, C: 2})
    prov = scenario(players=3, court={A: 4, B: 5, C: 2}).province
    assert s.court == [4, 2, 0]
    assert [s.province[p] - prov[p] for p in range(3)] == [0, 3, 2]


def test_card_2C_not_available() -> None:
    """2C availability: every opponent's court is empty → placement only."""
    assert_not_available("2C", court={A: 3, B: 0, C: 0})


def test_card_2D_king_returns() -> None:
    """2D: clockwise from A's left neighbour each opponent returns 3 of his own; B (4 available)
    chooses court or regions one at a time, never the King's region; C (2 available) returns
    all without a choice."""
    s = start("2D", cab={"galicia": {B: 3}, "sevilla": {B: 2}}, court={A: 5, B: 1, C: 2})
    before = s.province[:]
    assert phase(s) == "return_from" and to_act(s) == (B,)
    assert texts(s) == {"return court", "return galicia"}
    do(s, "return galicia", "return galicia")
    assert to_act(s) == (B,) and s.ret_left == 1
    do(s, "return court")
    assert s.court == [5, 0, 0]
    assert row(s, "galicia") == (0, 1, 0) and row(s, "sevilla") == (0, 2, 0)
    assert [s.province[p] - before[p] for p in range(3)] == [0, 3, 2]
    assert phase(s) == "place" and to_act(s) == (A,)


def test_card_2D_not_available() -> None:
    """2D availability: opponents have empty courts and caballeros only in the King's region and
    the Castillo → placement only."""
    assert_not_available("2D", court={B: 0, C: 0},
                         cab={"sevilla": {B: 3}, "castillo": {C: 2}, "galicia": {A: 1}})


def test_card_2E_region_of_choice() -> None:
    """2E (as 3H): any of the 10 areas; a region with A's Grande pays the Grande bonus."""
    s = start("2E", grandes={A: "valencia"}, cab={"valencia": {A: 2, B: 1}})
    assert texts(s) == {f"score {a}" for a in AREA_IDS}
    do(s, "score valencia")
    assert s.score == [5 + 2, 3, 0]
    assert row(s, "valencia") == (2, 1, 0)


def test_card_2E_always_available() -> None:
    """2E availability: always (empty board, empty courts)."""
    assert_always_available("2E")


def _2f() -> ElGrandeState:
    return start("2F", cab={"galicia": {A: 3}, "aragon": {A: 1, B: 1}, "cataluna": {B: 1},
                            "valencia": {C: 2}, "granada": {C: 1}, "sevilla": {C: 4}})


def test_card_2F_return_two() -> None:
    """2F: everyone with caballeros outside picks secretly (a region with ≥ 2 if he has one);
    after the reveal each returns min(2, count) from his pick."""
    s = _2f()
    prov = s.province[:]
    assert phase(s) == "disk" and to_act(s) == (A, B, C)
    assert texts(s, A) == {"disk galicia"}  # aragon (1) is not allowed while galicia has 3
    assert texts(s, B) == {"disk aragon", "disk cataluna"}  # no region with 2: any with 1
    assert texts(s, C) == {"disk valencia"}
    ev: list[Event] = []
    do(s, "disk galicia", seat=A, events=ev)
    do(s, "disk cataluna", seat=B, events=ev)
    assert reveal_events(ev, None) == [] and row(s, "galicia") == (3, 0, 0)
    do(s, "disk valencia", seat=C, events=ev)
    assert len(reveal_events(ev, None)) == 1
    assert row(s, "galicia") == (1, 0, 0)
    assert row(s, "cataluna") == (0, 0, 0) and row(s, "aragon") == (1, 1, 0)
    assert row(s, "valencia") == (0, 0, 0) and row(s, "sevilla") == (0, 0, 4)
    assert [s.province[p] - prov[p] for p in range(3)] == [2, 1, 2]
    assert phase(s) == "place" and to_act(s) == (A,)


def test_card_2F_picks_hidden_until_reveal() -> None:
    """2F: B's pick (aragon or cataluna) leaves A's, C's and spectators' observations equal."""
    s = _2f()
    do(s, "disk galicia", seat=A)
    s1 = picks_hidden(s, B, "aragon", "cataluna")
    assert GAME.observe(s1, A).public.committed == (True, True, False)


def test_card_2F_not_available() -> None:
    """2F availability: nobody has a caballero outside → placement only."""
    assert_not_available("2F", cab=NOTHING_OUTSIDE)


def test_card_2G_return_all() -> None:
    """2G: every affected player (A included) returns all his caballeros in his pick."""
    s = start("2G", cab={"galicia": {A: 3, B: 1}, "aragon": {A: 1, B: 4}, "sevilla": {C: 2}})
    prov = s.province[:]
    assert to_act(s) == (A, B)  # C has caballeros only in the King's region
    assert texts(s, A) == texts(s, B) == {"disk galicia", "disk aragon"}
    s = picks_hidden(s, A, "aragon", "galicia")
    do(s, "disk aragon", seat=B)
    assert row(s, "aragon") == (0, 0, 0) and row(s, "galicia") == (3, 1, 0)
    assert [s.province[p] - prov[p] for p in range(3)] == [1, 4, 0]


def test_card_2G_effects_logged_in_seat_order() -> None:
    """2G with B active: after the reveal the returns are logged in seat order A, B, C (§8.5)."""
    s = scenario(players=3, power={B: 13, C: 12, A: 11}, cab={"galicia": {A: 1, B: 1, C: 1}})
    take(s, "2G")
    ev: list[Event] = []
    do(s, "action_first", events=ev)
    assert to_act(s) == (B, C, A)  # asking order: clockwise from the active player
    for p in (B, C, A):
        do(s, "disk galicia", seat=p, events=ev)
    assert row(s, "galicia") == (0, 0, 0)
    assert [m.get("seat") for m in visible_log(ev, None) if m.id == "eg.return"] == [A, B, C]


def test_card_4C_effects_logged_in_seat_order() -> None:
    """4C with B active: the evictions of C and A are logged in seat order A, C (§8.5)."""
    s = scenario(players=4, power={B: 13, C: 12, D: 11, A: 10}, cab={"galicia": {A: 1, B: 1, C: 1}})
    take(s, "4C")
    ev: list[Event] = []
    do(s, "action_first", "select galicia", events=ev)
    assert to_act(s) == (C, A)  # asking order: clockwise from the active player
    do(s, "disk aragon", seat=C, events=ev)
    do(s, "disk valencia", seat=A, events=ev)
    assert row(s, "aragon") == (0, 0, 1, 0) and row(s, "valencia") == (1, 0, 0, 0)
    assert [m.get("seat") for m in visible_log(ev, None) if m.id == "eg.evict"] == [A, C]


def test_card_2G_not_available() -> None:
    """2G availability: nobody has a caballero outside → placement only."""
    assert_not_available("2G", cab=NOTHING_OUTSIDE)


def test_card_2H_one_of_each_opponent() -> None:
    """2H: for each opponent (clockwise from B) with caballeros outside, A picks a region; one
    caballero returns from there to its owner's province; C (none outside) is skipped."""
    s = start("2H", players=4, cab={"galicia": {B: 2, D: 1}, "aragon": {D: 2}, "castillo": {C: 3}})
    prov = s.province[:]
    assert texts(s) == {"select_opponent 1 galicia"}
    do(s, "select_opponent 1 galicia")
    assert texts(s) == {"select_opponent 3 galicia", "select_opponent 3 aragon"}
    do(s, "select_opponent 3 aragon")
    assert row(s, "galicia") == (0, 1, 0, 1) and row(s, "aragon") == (0, 0, 0, 1)
    assert [s.province[p] - prov[p] for p in range(4)] == [0, 1, 0, 1]
    assert phase(s) == "place"


def test_card_2H_not_available() -> None:
    """2H availability: no opponent has a caballero outside → placement only."""
    assert_not_available("2H", cab={"galicia": {A: 2}, "sevilla": {B: 1}, "castillo": {C: 2}})


# ----------------------------------------------------------------------------- stack 3


def test_card_3A_five_regions() -> None:
    """3A: aragon (5/4/1), pais_vasco (5/3/1), valencia (5/3/2) are scored; galicia is not."""
    s = start("3A", cab={"aragon": {A: 2, B: 1}, "pais_vasco": {C: 1}, "valencia": {B: 2, C: 1},
                         "galicia": {A: 3}})
    assert s.score == [5, 4 + 5, 5 + 3]
    assert phase(s) == "place"


def test_card_3A_always_available() -> None:
    """3A availability: always."""
    assert_always_available("3A")


def test_card_3B_four_regions() -> None:
    """3B: cataluna (4/2/1), galicia (4/2/0), sevilla (4/3/1) are scored; aragon is not."""
    s = start("3B", king="granada", cab={"cataluna": {A: 1, B: 2}, "galicia": {A: 1},
                                         "sevilla": {B: 1, C: 1}, "aragon": {A: 5}})
    assert s.score == [2 + 4, 4 + 3, 3]


def test_card_3B_always_available() -> None:
    """3B availability: always."""
    assert_always_available("3B")


def test_card_3C_six_and_seven_regions() -> None:
    """3C: castilla_la_vieja (6/4/2), granada (6/3/1, King's bonus here) and castilla_la_nueva
    (7/4/2) are scored; valencia is not."""
    s = start("3C", king="granada", cab={"granada": {A: 1}, "castilla_la_nueva": {B: 2, C: 1},
                                         "castilla_la_vieja": {C: 1}, "valencia": {A: 3}})
    assert s.score == [6 + 2, 7, 4 + 6]


def test_card_3C_always_available() -> None:
    """3C availability: always."""
    assert_always_available("3C")


def test_card_3D_castillo() -> None:
    """3D: the Castillo is scored 5/3/1 without bonuses and keeps its caballeros; no disks."""
    s = start("3D", cab={"castillo": {A: 1, B: 2, C: 3}})
    assert s.score == [1, 3, 5]
    assert row(s, "castillo") == (1, 2, 3)
    assert phase(s) == "place"


def test_card_3D_always_available() -> None:
    """3D availability: always (even with an empty Castillo)."""
    assert_always_available("3D")


def test_card_3E_first_place_only() -> None:
    """3E: only a sole leader is paid (current first value), with the King's and Grande
    bonuses; a tie for first pays nothing; the Castillo is not scored."""
    s = start("3E", king="galicia", grandes={C: "valencia"},
              cab={"galicia": {A: 2, B: 1}, "aragon": {B: 1, C: 1}, "valencia": {C: 3},
                   "castillo": {A: 5}})
    assert s.score == [4 + 2, 0, 5 + 2]


def test_card_3E_always_available() -> None:
    """3E availability: always."""
    assert_always_available("3E")


def test_card_3F_most_caballeros() -> None:
    """3F: the regions with the highest total (all tied ones) are scored; the Castillo is ignored."""
    s = start("3F", cab={"cataluna": {A: 2, B: 1}, "valencia": {C: 3}, "galicia": {A: 1},
                         "castillo": {A: 9}})
    assert s.score == [4, 2, 5]


def test_card_3F_always_available() -> None:
    """3F availability: always."""
    assert_always_available("3F")


def test_card_3G_fewest_caballeros() -> None:
    """3G: among non-empty regions those with the lowest total are scored; empty regions and the
    Castillo are ignored."""
    s = start("3G", cab={"galicia": {A: 1}, "aragon": {B: 1}, "valencia": {C: 3}, "castillo": {C: 1}})
    assert s.score == [4, 5, 0]


def test_card_3G_always_available() -> None:
    """3G availability: always."""
    assert_always_available("3G")


def test_card_3H_region_of_choice() -> None:
    """3H: 10 options; a region with a mobile scoreboard is scored with the tile's values."""
    s = start("3H", tiles=("galicia", None), cab={"galicia": {A: 2, B: 1}})
    assert texts(s) == {f"score {a}" for a in AREA_IDS}
    do(s, "score galicia")
    assert s.score == [8, 4, 0]


def test_card_3H_always_available() -> None:
    """3H availability: always."""
    assert_always_available("3H")


# ----------------------------------------------------------------------------- stack 4


def test_card_4A_place_tile_changes_values() -> None:
    """4A: A puts the 8/4/0 tile into galicia; a later scoring of galicia (3B by B) pays 8/4/0."""
    s = scenario(players=3, cab={"galicia": {A: 2, B: 1}}, offer=["4A", "3B"])
    take(s, "4A")
    do(s, "action_first", "tile 0 galicia")
    assert s.tiles == [AREA_INDEX["galicia"], -1]
    do(s, "end_placement")
    assert s.active == B
    take(s, "3B")
    do(s, "action_first")
    assert s.score == [8, 4, 0]


def test_card_4A_move_tile() -> None:
    """4A: a tile on the board moves to another free region (not the King's); the other tile
    may be placed instead."""
    s = start("4A", tiles=("galicia", None))
    free = [r for r in REGION_IDS if r not in ("galicia", "sevilla")]
    assert texts(s) == {f"move_tile 0 {r}" for r in free} | {f"tile 1 {r}" for r in free}
    do(s, "move_tile 0 aragon")
    assert s.tiles == [AREA_INDEX["aragon"], -1]


def test_card_4A_always_available() -> None:
    """4A availability: always."""
    assert_always_available("4A")


def test_card_4B_royal_adviser() -> None:
    """4B: the King moves to a neighbour of his region; placement then follows the new region."""
    s = start("4B")
    assert texts(s) == {"king castilla_la_nueva", "king granada"}
    do(s, "king granada")
    assert s.king == AREA_INDEX["granada"]
    assert texts(s) == {"place castilla_la_nueva", "place sevilla", "place valencia", "place castillo",
                        "end_placement"}


def test_card_4B_always_available() -> None:
    """4B availability: always."""
    assert_always_available("4B")


def _4c() -> ElGrandeState:
    return start("4C", players=4, cab={"galicia": {A: 2, B: 1, D: 3}, "aragon": {C: 1}})


def test_card_4C_eviction() -> None:
    """4C: A names a region with opponents' caballeros; each opponent there (B, D) secretly picks
    a destination; after the reveal all his caballeros there move; A's stay."""
    s = _4c()
    assert texts(s) == {"select galicia", "select aragon"}
    do(s, "select galicia")
    assert phase(s) == "disk" and to_act(s) == (B, D)
    assert texts(s, B) == {f"disk {r}" for r in REGION_IDS if r not in ("galicia", "sevilla")}
    ev: list[Event] = []
    do(s, "disk aragon", seat=B, events=ev)
    assert reveal_events(ev, C) == [] and row(s, "galicia") == (2, 1, 0, 3)
    do(s, "disk castilla_la_nueva", seat=D, events=ev)
    assert len(reveal_events(ev, C)) == 1
    assert row(s, "galicia") == (2, 0, 0, 0)
    assert row(s, "aragon") == (0, 1, 1, 0)
    assert row(s, "castilla_la_nueva") == (0, 0, 0, 3)
    assert phase(s) == "place" and to_act(s) == (A,)


def test_card_4C_picks_hidden_until_reveal() -> None:
    """4C: B's destination does not show in A's, C's, D's or spectators' observations."""
    s = _4c()
    do(s, "select galicia")
    picks_hidden(s, B, "aragon", "valencia")


def test_card_4C_not_available() -> None:
    """4C availability: no opponent has a caballero outside → placement only."""
    assert_not_available("4C", cab={"galicia": {A: 2}, "sevilla": {B: 2}, "castillo": {C: 1}})


def test_card_4D_move_grande() -> None:
    """4D: the Grande moves to any region but its own and the King's; the new region is his home
    for the Grande bonus (a later 3A by B pays A 5 + 2 in valencia)."""
    s = scenario(players=3, grandes={A: "galicia"}, cab={"valencia": {A: 2, B: 1}}, offer=["4D", "3A"])
    take(s, "4D")
    do(s, "action_first")
    assert texts(s) == {f"grande {r}" for r in REGION_IDS if r not in ("galicia", "sevilla")}
    do(s, "grande valencia")
    assert s.grande[A] == AREA_INDEX["valencia"]
    do(s, "end_placement")
    take(s, "3A")
    do(s, "action_first")
    assert s.score == [5 + 2, 3, 0]


def test_card_4D_not_available() -> None:
    """4D availability: A's Grande stands in the King's region → placement only."""
    assert_not_available("4D", grandes={A: "sevilla"})


def _history(s: ElGrandeState, seat: int, values: list[int]) -> None:
    """Give ``seat`` a pile of played power cards (earlier rounds, then this round's)."""
    s.pile[seat] = list(values)
    s.power_log[seat] = list(values)
    s.hand[seat] = FULL_HAND & ~sum(1 << v for v in values)
    s.power_now[seat] = values[-1]


def test_card_4E_take_back() -> None:
    """4E: A takes one card of his pile back (the card of this round included); the order stays;
    other seats see only that he took one back, not which."""
    s = scenario(players=3, round_index=2, power={A: 13, B: 12, C: 11})
    _history(s, A, [4, 7, 13])
    take(s, "4E")
    do(s, "action_first")
    assert texts(s) == {"take_back 4", "take_back 7", "take_back 13"}
    other = s.clone()
    ev: list[Event] = []
    do(s, "take_back 13", events=ev)
    do(other, "take_back 4")
    assert s.pile[A] == [4, 7] and s.hand[A] >> 13 & 1
    assert own(GAME.observe(s, A)).hand == (1, 2, 3, 5, 6, 8, 9, 10, 11, 12, 13)
    assert s.order == [A, B, C] and s.power_now[A] == 13
    for viewer in (B, C, None):
        assert GAME.observe(s, viewer) == GAME.observe(other, viewer)
        assert GAME.observe(s, viewer).public.power_log[A] == (4, 7, 13, 0)
    assert [m.id for m in visible_log(ev, B)] == ["eg.take_back.hidden"]
    assert [m.get("value") for m in visible_log(ev, A)] == [13]


def test_card_4E_single_card_is_forced() -> None:
    """4E: with one card on the pile (round 1) TAKE_BACK is a forced step."""
    s = start("4E")
    assert texts(s) == {"take_back 13"}
    assert forced(s, seat=A) == [(A, "take_back 13")]
    assert own(GAME.observe(s, A)).hand == tuple(range(1, 14))


def test_card_4E_always_available() -> None:
    """4E availability: always."""
    assert_always_available("4E")


def test_card_4F_court_from_province() -> None:
    """4F: 2 caballeros from the province to the court, without a choice."""
    s = scenario(players=3, court={A: 1}, cab={"galicia": {A: 2}})
    prov = s.province[A]
    take(s, "4F")
    do(s, "action_first")
    assert (s.court[A], s.province[A], row(s, "galicia")[A]) == (3, prov - 2, 2)
    assert phase(s) == "place" and s.place_limit == 4


def test_card_4F_shortfall_stop() -> None:
    """4F: with an empty province the caballeros may come from own regions (not the King's
    region), or A stops."""
    s = start("4F", court={A: 0}, province={A: 0}, cab={"galicia": {A: 2}, "sevilla": {A: 3},
                                                        "castillo": {A: 25}})
    assert texts(s) == {"intake_from galicia", "stop"}
    do(s, "intake_from galicia")
    assert texts(s) == {"intake_from galicia", "stop"}
    do(s, "stop")
    assert (s.court[A], row(s, "galicia")[A], row(s, "sevilla")[A]) == (1, 1, 3)
    assert phase(s) == "place"


def test_card_4F_not_available() -> None:
    """4F availability: empty province and nothing of A's outside → placement only."""
    assert_not_available("4F", court={A: 0}, province={A: 0}, cab={"sevilla": {A: 5}, "castillo": {A: 25}})


def _4g() -> ElGrandeState:
    return start("4G", cab={"galicia": {A: 1, B: 2}, "sevilla": {C: 2, A: 1}})


def test_card_4G_secret_scoring() -> None:
    """4G: everyone picks any region (King's region included, never the Castillo); each region
    picked by exactly one player is scored, with bonuses; doubly picked ones are not."""
    s = _4g()
    assert to_act(s) == (A, B, C)
    for p in (A, B, C):
        assert texts(s, p) == {f"disk {r}" for r in REGION_IDS}
    ev: list[Event] = []
    do(s, "disk galicia", seat=A, events=ev)
    do(s, "disk sevilla", seat=B, events=ev)
    assert reveal_events(ev, C) == [] and s.score == [0, 0, 0]
    do(s, "disk sevilla", seat=C, events=ev)
    assert len(reveal_events(ev, A)) == 1
    # galicia (4/2/0): B 4, A 2; sevilla picked twice: not scored
    assert s.score == [2, 4, 0]


def test_card_4G_kings_region_and_hidden_picks() -> None:
    """4G: the King's region may be picked and pays the King's bonus; A's and B's picks do not
    show in the others' observations before C commits."""
    s = _4g()
    s = picks_hidden(s, A, "valencia", "galicia")
    s = picks_hidden(s, B, "aragon", "sevilla")
    do(s, "disk sevilla", seat=C)
    assert s.score == [3, 0, 4 + 2]


def test_card_4G_always_available() -> None:
    """4G availability: always."""
    assert_always_available("4G")


# ----------------------------------------------------------------------------- stack 5


def test_card_5A_kings_card() -> None:
    """5A: the King moves to any of the 8 other regions; placement (limit 5) follows him."""
    s = start("5A", court={A: 6})
    assert texts(s) == {f"king {r}" for r in REGION_IDS if r != "sevilla"}
    do(s, "king cataluna")
    assert s.king == AREA_INDEX["cataluna"] and s.place_limit == 5
    assert texts(s) == {"place aragon", "place valencia", "place castillo", "end_placement"}
    for _ in range(5):
        do(s, "place aragon")
    assert s.active == B and s.court[A] == 1 and row(s, "aragon") == (5, 0, 0)
    assert s.king_card is False  # taken this round; back on offer at the round's end


def test_card_5A_always_available() -> None:
    """5A availability: always."""
    assert_always_available("5A")


# ----------------------------------------------------------------------------- completeness


def test_every_card_type_has_a_test() -> None:
    """Each card id of data.CARD_TYPES names at least one test function ``test_card_<id>_...``."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    names = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    missing = [c.id for c in CARD_TYPES if not any(f"card_{c.id}_" in n for n in names)]
    assert missing == []
    assert len(CARD_TYPES) == 33


@pytest.mark.parametrize("card", [c.id for c in CARD_TYPES if c.id != "2A"])
def test_taking_the_card_discards_it_or_returns_it(card: str) -> None:
    """§7.6: after the turn the taken card is on the discard pile (the King's card is not)."""
    s = scenario(players=3, court={A: 0})
    take(s, card)
    do(s, "place_first")
    forced(s, seat=A)
    if s.active == A:
        do(s, "skip_action")
    ids = [CARD_TYPES[c].id for c in s.discard]
    assert ids == ([] if card == "5A" else [card])
