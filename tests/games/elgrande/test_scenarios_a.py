"""El Grande spec §15: one or more tests per scenario EG-01 … EG-26 (docstrings name the id).

Players A, B, C, D, E are seats 0, 1, 2, 3, 4. Positions come from the scenario builder
(tablero.games.elgrande.setup.scenario / take); whole-round flows start from
GAME.new_initial_state with forced chance outcomes (``deal …``, ``reveal …``). Every action is
given by its wire text. A forced step (§0) is asserted as the only legal action, then applied.
"""

from __future__ import annotations

import pytest

from tablero.core.errors import IllegalActionError
from tablero.core.events import Event
from tablero.core.match import Match
from tablero.core.messages import Message
from tablero.games.elgrande import data
from tablero.games.elgrande.data import AREA_INDEX, CARD_TYPES, CASTILLO, VETO_CARD
from tablero.games.elgrande.engine import ranks, score_area
from tablero.games.elgrande.rules import GAME
from tablero.games.elgrande.setup import area, scenario, take
from tablero.games.elgrande.view import observe

from .helpers import (
    REGION_IDS,
    A,
    B,
    C,
    D,
    E,
    chance,
    forced,
    ids,
    legal_texts,
    match_at,
    msgs,
    own,
    pass_turn,
    phase,
    play,
    quiet_step,
    run_until,
    stack_sizes,
    total,
)

FULL_HAND_SIZE = 13


def places(*targets: str) -> set[str]:
    return {f"place {t}" for t in targets} | {"end_placement"}


def scored_areas(events: list[Event]) -> list[str]:
    """Area ids named by score events (scored or found empty), in log order."""
    out = []
    for m in msgs(events, None):
        if m.id in ("eg.score", "eg.score.empty"):
            aid = m.get("area")
            assert isinstance(aid, Message)
            out.append(aid.id.removeprefix("eg.area."))
    return out


def shares(events: list[Event], area_id: str) -> dict[int, int]:
    """Points per seat of the (single) score event of ``area_id``."""
    found = [m for m in msgs(events, None)
             if m.id == "eg.score" and m.get("area") == Message(f"eg.area.{area_id}")]
    assert len(found) == 1
    out = {}
    sh = found[0].get("shares")
    assert isinstance(sh, tuple)
    for x in sh:
        assert isinstance(x, Message)
        seat, pts = x.get("seat"), x.get("points")
        assert isinstance(seat, int) and isinstance(pts, int)
        out[seat] = pts
    return out


def use_card(s, card: str, events: list[Event] | None = None) -> None:
    """The active seat takes ``card`` and announces its action first (no Veto! holder assumed)."""
    p = s.active
    take(s, card, events)
    assert legal_texts(s, p) == {"action_first", "place_first"}
    play(s, p, "action_first", events=events)


def new_game(players: int, homes: tuple[str, ...], king: str, reveals: tuple[str, ...] = (),
             start: int = 0, events: list[Event] | None = None):
    s = GAME.new_initial_state(players, {"start_seat": start})
    chance(s, *(f"deal {h}" for h in homes), f"deal {king}", events=events)
    chance(s, *(f"reveal {c}" for c in reveals), events=events)
    return s


# ----------------------------------------------------------------------------- §5, §6, §7.1, §7.4


def test_eg01_setup_four_players():
    """EG-01 Setup (4 players): 2 caballeros and the Grande in each home region, 7 in court, 21 in
    province, score 0, 13 power cards; 4 homes and the King's region all different; stacks 1-4 hold
    11 cards before the reveal; 5 cards on offer after it; Castillo empty; tiles off; 30 per colour."""
    homes = ("galicia", "aragon", "valencia", "granada")
    s = new_game(4, homes, "sevilla")
    assert phase(s) == "reveal"
    assert stack_sizes(s) == (11, 11, 11, 11)
    for p, h in enumerate(homes):
        assert s.grande[p] == AREA_INDEX[h]
        assert s.cab[p][AREA_INDEX[h]] == 2
        assert sum(s.cab[p]) == 2
        assert (s.court[p], s.province[p], s.score[p]) == (7, 21, 0)
        assert bin(s.hand[p]).count("1") == FULL_HAND_SIZE
        assert total(s, p) == 30
    assert len({*s.grande, s.king}) == 5
    assert s.king == AREA_INDEX["sevilla"]
    # A region already dealt cannot be dealt again (homes and King all differ).
    s2 = GAME.new_initial_state(4, {"start_seat": 0})
    chance(s2, "deal galicia")
    with pytest.raises(IllegalActionError):
        chance(s2, "deal galicia")
    chance(s, "reveal 1D", "reveal 2E", "reveal 3F", "reveal 4E")
    assert stack_sizes(s) == (10, 10, 10, 10)
    assert [CARD_TYPES[c].id for c in s.offer] == ["1D", "2E", "3F", "4E"]
    assert s.king_card
    assert phase(s) == "power"
    assert all(s.cab[p][CASTILLO] == 0 for p in range(4))
    assert s.tiles == [-1, -1]
    assert all(total(s, p) == 30 for p in range(4))


@pytest.mark.parametrize("seed", [1, 2, 3, 17, 2024])
def test_eg01_setup_any_seed(seed):
    """EG-01 Setup (4 players), any seed: the same facts after the Match driver's chance steps."""
    m = Match(GAME, ["a", "b", "c", "d"], seed=seed)
    s = m.state
    assert phase(s) == "power"
    assert len({*s.grande, s.king}) == 5
    for p in range(4):
        assert s.cab[p][s.grande[p]] == 2 and sum(s.cab[p]) == 2
        assert (s.court[p], s.province[p], s.score[p]) == (7, 21, 0)
        assert bin(s.hand[p]).count("1") == FULL_HAND_SIZE
        assert total(s, p) == 30
    assert sorted(CARD_TYPES[c].stack for c in s.offer) == [1, 2, 3, 4]
    assert s.king_card
    view = observe(s, None).public
    assert len(view.offer) + view.king_card == 5
    assert stack_sizes(s) == (10, 10, 10, 10)
    assert s.tiles == [-1, -1]
    kinds = [text.split()[0] for _, text in m.record.entries]
    assert kinds == ["deal"] * 5 + ["start"] + ["reveal"] * 4


def test_eg02_placement_king_in_galicia():
    """EG-02 Placement targets, King in Galicia: castilla_la_vieja, pais_vasco, castillo; galicia and
    aragon illegal; after the 3rd PLACE of a stack-3 card placement ends with 2 left in court."""
    s = scenario(king="galicia", court={A: 5})
    take(s, "3D")
    play(s, A, "place_first")
    assert legal_texts(s, A) == places("castilla_la_vieja", "pais_vasco", "castillo")
    for bad in ("place galicia", "place aragon"):
        with pytest.raises(IllegalActionError):
            play(s, A, bad)
    play(s, A, "place castilla_la_vieja", "place pais_vasco", "place castillo")
    assert phase(s) == "after_placement"
    assert legal_texts(s, A) == {"do_action", "skip_action"}
    assert s.court[A] == 2
    assert [s.cab[A][area(a)] for a in ("castilla_la_vieja", "pais_vasco", "castillo")] == [1, 1, 1]


@pytest.mark.parametrize(("king", "targets"), [
    ("castilla_la_nueva", ("castilla_la_vieja", "sevilla", "granada", "valencia", "aragon", "castillo")),
    ("castilla_la_vieja", ("galicia", "pais_vasco", "aragon", "castilla_la_nueva", "castillo")),
])
def test_eg03_placement_targets(king, targets):
    """EG-03 Placement targets, King in Castilla la Nueva (rulebook) and Castilla la Vieja (2023)."""
    s = scenario(king=king)
    take(s, "4B")
    play(s, A, "place_first")
    assert legal_texts(s, A) == places(*targets)


def test_eg04_power_cards_uniqueness_and_turn_order():
    """EG-04 Power cards: A plays 7; B may not play 7, plays 12; C 3; D 9. Turn order B, D, A, C;
    intake maxima B 0, D 2, A 3, C 5. Next round's power phase goes C, D, A, B."""
    s = new_game(4, ("galicia", "aragon", "valencia", "granada"), "sevilla",
                 ("1A", "2B", "3D", "4B"), start=A)
    assert s.actors == (A,)
    play(s, A, "power 7")
    assert s.actors == (B,)
    assert "power 7" not in legal_texts(s, B)
    assert len(legal_texts(s, B)) == 12
    with pytest.raises(IllegalActionError):
        play(s, B, "power 7")
    play(s, B, "power 12")
    play(s, C, "power 3")
    assert legal_texts(s, D) == {f"power {v}" for v in range(1, 14)} - {"power 7", "power 12", "power 3"}
    play(s, D, "power 9")
    assert s.order == [B, D, A, C]
    # B (card 12, P = 0): the intake step is skipped; his turn opens at TAKE_CARD.
    assert s.active == B and phase(s) == "take_card"
    maxima = {B: 0}
    turns = [B]
    for card in ("1A", "2B", "3D"):
        pass_turn(s, card)
        p = s.active
        turns.append(p)
        assert phase(s) == "intake"
        legal = legal_texts(s, p)
        maxima[p] = max(int(t.split()[1]) for t in legal)
        assert legal == {f"intake {i}" for i in range(maxima[p] + 1)}
    assert turns == [B, D, A, C]
    assert maxima == {B: 0, D: 2, A: 3, C: 5}
    play(s, C, "intake 0")
    pass_turn(s, "5A")
    assert phase(s) == "reveal" and s.round == 2
    chance(s, "reveal 1B", "reveal 2C", "reveal 3E", "reveal 4C")
    seen = []
    for v in (1, 2, 4, 5):
        seen.append(s.actors[0])
        play(s, s.actors[0], f"power {v}")
    assert seen == [C, D, A, B]


def test_eg05_intake_shortfall():
    """EG-05 Intake shortfall: power card 2 (P = 5), province 1, galicia A2, sevilla A1 (King),
    Castillo A1: INTAKE 0…3 only; INTAKE(3) then two forced INTAKE_FROM(galicia)."""
    s = scenario(players=2, king="sevilla", power={A: 2, B: 13},
                 cab={"galicia": {A: 2}, "sevilla": {A: 1}, "castillo": {A: 1}},
                 province={A: 1}, court={A: 25})
    assert s.order == [B, A]
    pass_turn(s, "4B")
    assert s.active == A and phase(s) == "intake"
    assert legal_texts(s, A) == {"intake 0", "intake 1", "intake 2", "intake 3"}
    play(s, A, "intake 3")
    assert (s.province[A], s.court[A]) == (0, 26)
    assert legal_texts(s, A) == {"intake_from galicia"}
    with pytest.raises(IllegalActionError):
        play(s, A, "intake_from sevilla")
    forced(s, A, "intake_from galicia")
    forced(s, A, "intake_from galicia")
    assert (s.province[A], s.court[A]) == (0, 28)
    assert s.cab[A][area("galicia")] == 0
    assert s.cab[A][area("sevilla")] == 1
    assert s.cab[A][CASTILLO] == 1
    assert phase(s) == "take_card"
    assert total(s, A) == 30


def test_eg05_intake_shortfall_driver():
    """EG-05 Intake shortfall through the Match driver: after INTAKE(3) both INTAKE_FROM(galicia)
    are forced steps, applied by the driver and recorded as ordinary entries."""
    s = scenario(players=2, king="sevilla", power={A: 2, B: 13},
                 cab={"galicia": {A: 2}, "sevilla": {A: 1}, "castillo": {A: 1}},
                 province={A: 1}, court={A: 25}, offer=("4B", "3D"))
    pass_turn(s, "4B")
    m = match_at(s)
    assert m.pending() == (A,)
    assert {a.to_text() for a in m.legal(A)} == {"intake 0", "intake 1", "intake 2", "intake 3"}
    m.act(A, "intake 3")
    assert m.record.entries == [(A, "intake 3"), (A, "intake_from galicia"), (A, "intake_from galicia")]
    assert phase(m.state) == "take_card"
    assert (m.state.province[A], m.state.court[A], m.state.cab[A][area("galicia")]) == (0, 28, 0)


# ----------------------------------------------------------------------------- §10 scoring


WORKED_TIES = [
    ((5, 3, 1), (4, 4, 4, 3), (2, 2, 2, 3), (3, 3, 3, 1)),
    ((6, 4, 2), (4, 3, 2, 2), (1, 2, 4, 4), (6, 4, 0, 0)),
    ((6, 3, 1), (3, 3, 1), (2, 2, 3), (3, 3, 1)),
    ((5, 3, 2), (4, 2, 2), (1, 3, 3), (5, 2, 2)),
    ((7, 4, 2), (5, 5, 5, 5, 1), (2, 2, 2, 2, 3), (4, 4, 4, 4, 2)),
    ((5, 3, 1), (2, 2, 1, 1), (2, 2, 4, 4), (3, 3, 0, 0)),
    ((4, 2, 0), (3, 2, 1), (1, 2, 3), (4, 2, 0)),
    ((4, 0, 0), (1, 1), (2, 2), (0, 0)),
]


@pytest.mark.parametrize(("vals", "counts", "expected_ranks", "points"), WORKED_TIES)
def test_worked_tie_table(vals, counts, expected_ranks, points):
    """EG-06 / EG-07 / EG-08: the worked tie table of §10.2 (ranks and points)."""
    rk = ranks(list(counts))
    assert tuple(rk) == expected_ranks
    assert tuple(vals[r - 1] if 1 <= r <= 3 else 0 for r in rk) == points


def test_ranks_ignore_absent_players():
    """EG-06 … EG-08 (§10.2): only players with a caballero take part (rank 0 = not placed)."""
    assert ranks([0, 3, 0, 3]) == [0, 2, 0, 2]
    assert ranks([0, 0]) == [0, 0]


def _direct(region: str, counts: dict[int, int], players: int = 4, king: str = "sevilla") -> list[int]:
    s = scenario(players=players, king=king, cab={region: counts})
    score_area(s, area(region), None)
    return s.score


def test_eg06_tie_example_1():
    """EG-06 Tie example 1 (rulebook): pais_vasco (5/3/1) A4 B4 C4 D3 → A 3, B 3, C 3, D 1;
    directly and through card 3A (all 5-regions)."""
    counts = {A: 4, B: 4, C: 4, D: 3}
    assert _direct("pais_vasco", counts) == [3, 3, 3, 1]
    s = scenario(cab={"pais_vasco": counts})
    use_card(s, "3A")
    assert s.score == [3, 3, 3, 1]


def test_eg07_tie_example_2():
    """EG-07 Tie example 2 (rulebook): castilla_la_vieja (6/4/2) A4 B3 C2 D2 → A 6, B 4, C 0, D 0;
    directly and through card 2E (SELECT_SCORING castilla_la_vieja)."""
    counts = {A: 4, B: 3, C: 2, D: 2}
    assert _direct("castilla_la_vieja", counts) == [6, 4, 0, 0]
    s = scenario(cab={"castilla_la_vieja": counts})
    use_card(s, "2E")
    assert legal_texts(s, A) == {f"score {r}" for r in (*REGION_IDS, "castillo")}
    play(s, A, "score castilla_la_vieja")
    assert s.score == [6, 4, 0, 0]
    assert phase(s) == "place"


@pytest.mark.parametrize(("case", "players", "region", "counts", "card", "expected"), [
    ("a", 3, "granada", {A: 3, B: 3, C: 1}, "3C", [3, 3, 1]),
    ("b", 3, "valencia", {A: 4, B: 2, C: 2}, "3A", [5, 2, 2]),
    ("c", 5, "castilla_la_nueva", {A: 5, B: 5, C: 5, D: 5, E: 1}, "3C", [4, 4, 4, 4, 2]),
    ("d", 4, "pais_vasco", {A: 2, B: 2, C: 1, D: 1}, "3A", [3, 3, 0, 0]),
])
def test_eg08_derived_ties(case, players, region, counts, card, expected):
    """EG-08 Derived ties (a)-(d): directly and through the card that scores the region's class."""
    assert _direct(region, counts, players) == expected
    s = scenario(players=players, cab={region: counts})
    use_card(s, card)
    assert s.score == expected


def test_eg09_kings_bonus():
    """EG-09 King's bonus: King in granada (6/3/1), A3 B1, scored by 3C → A 8, B 3;
    variant A3 B3 → A 3, B 3 (no leader, no bonus)."""
    s = scenario(players=2, king="granada", cab={"granada": {A: 3, B: 1}})
    events: list[Event] = []
    use_card(s, "3C", events)
    assert s.score == [8, 3]
    assert "eg.bonus.king" in ids(events)
    s = scenario(players=2, king="granada", cab={"granada": {A: 3, B: 3}})
    events = []
    use_card(s, "3C", events)
    assert s.score == [3, 3]
    assert "eg.bonus.king" not in ids(events)


def test_eg10_grande_bonus():
    """EG-10 Grande bonus: A's Grande in valencia (5/3/2), A2 B1 → A 7, B 3 (by 3A); B's Grande also
    there → B still 3; King and A's Grande in granada, A2 B1 → A 10, B 3 (by 3H)."""
    s = scenario(players=2, grandes={A: "valencia"}, cab={"valencia": {A: 2, B: 1}})
    use_card(s, "3A")
    assert s.score == [7, 3]
    s = scenario(players=2, grandes={A: "valencia", B: "valencia"}, cab={"valencia": {A: 2, B: 1}})
    use_card(s, "3A")
    assert s.score == [7, 3]
    s = scenario(players=2, king="granada", grandes={A: "granada"}, cab={"granada": {A: 2, B: 1}})
    events: list[Event] = []
    use_card(s, "3H", events)
    play(s, A, "score granada", events=events)
    assert s.score == [10, 3]
    assert ids(events).count("eg.bonus.king") == 1
    assert ids(events).count("eg.bonus.grande") == 1
    assert _direct("valencia", {A: 2, B: 1}, players=2) == [5, 3]


def test_eg11_general_scoring_with_castillo():
    """EG-11 General scoring with the Castillo: end of round 3, King in sevilla, Castillo A3 B3 C1,
    galicia B2; disks A galicia, B sevilla, C galicia → Castillo A 3, B 3, C 1; B's 3 to his court;
    galicia A3 B2 C1 scored A 4, B 2, C 0; totals A 7, B 5, C 1."""
    s = scenario(players=3, round_index=2, king="sevilla", active=C,
                 cab={"castillo": {A: 3, B: 3, C: 1}, "galicia": {B: 2}})
    assert s.round == 3 and s.order[-1] == C
    court_b = s.court[B]
    events: list[Event] = []
    pass_turn(s, "4B", events)
    assert phase(s) == "disk"
    assert set(s.actors) == {A, B, C}
    for p in (A, B, C):
        assert legal_texts(s, p) == {f"disk {r}" for r in REGION_IDS}
    play(s, A, "disk galicia", events=events)
    play(s, B, "disk sevilla", events=events)
    assert s.score == [0, 0, 0]
    play(s, C, "disk galicia", events=events)
    assert shares(events, "castillo") == {A: 3, B: 3, C: 1}
    assert shares(events, "galicia") == {A: 4, B: 2, C: 0}
    # The Castillo is scored before the disks are revealed (§10.5 step 2).
    log = ids(events)
    assert log.index("eg.score") < log.index("eg.reveal_disks")
    assert [s.cab[p][CASTILLO] for p in range(3)] == [0, 0, 0]
    assert [s.cab[p][area("galicia")] for p in range(3)] == [3, 2, 1]
    assert s.cab[B][area("sevilla")] == 0
    assert s.court[B] == court_b + 3
    assert s.score == [7, 5, 1]
    assert s.round == 4 and phase(s) == "reveal"
    assert all(total(s, p) == 30 for p in range(3))


def test_eg12_all_4_regions_with_tile():
    """EG-12 All 4-regions with a tile: tile 8/4/0 in galicia; galicia A2 B1, sevilla A1 B1,
    cataluna C1; 3B → galicia A 8, B 4; sevilla tie A 3, B 3; cataluna C 4; totals A 11, B 7, C 4."""
    s = scenario(players=3, king="granada", tiles=("galicia", None),
                 cab={"galicia": {A: 2, B: 1}, "sevilla": {A: 1, B: 1}, "cataluna": {C: 1}})
    events: list[Event] = []
    use_card(s, "3B", events)
    assert shares(events, "galicia") == {A: 8, B: 4}
    assert shares(events, "sevilla") == {A: 3, B: 3}
    assert shares(events, "cataluna") == {C: 4}
    assert s.score == [11, 7, 4]


def test_eg13_class_selection_ignores_tile():
    """EG-13 Class selection ignores the tile: tile 4/0/0 in aragon, aragon A2 B1; 3A scores aragon
    with 4/0/0 (A 4, B 0) plus pais_vasco and valencia; 3B does not score aragon."""
    s = scenario(players=2, tiles=(None, "aragon"), cab={"aragon": {A: 2, B: 1}})
    events: list[Event] = []
    use_card(s, "3A", events)
    assert s.score == [4, 0]
    assert shares(events, "aragon") == {A: 4, B: 0}
    assert scored_areas(events) == ["aragon", "pais_vasco", "valencia"]
    s = scenario(players=2, tiles=(None, "aragon"), cab={"aragon": {A: 2, B: 1}})
    events = []
    use_card(s, "3B", events)
    assert s.score == [0, 0]
    assert scored_areas(events) == ["cataluna", "galicia", "sevilla"]


def test_eg14_secret_special_scoring():
    """EG-14 Secret special scoring (4G): galicia A1 B2, sevilla (King) C2 A1; disks A galicia,
    B galicia, C sevilla → only sevilla scored: C 6 (4 + King's bonus), A 3; DISK castillo illegal."""
    s = scenario(players=3, king="sevilla", cab={"galicia": {A: 1, B: 2}, "sevilla": {C: 2, A: 1}})
    events: list[Event] = []
    use_card(s, "4G", events)
    assert phase(s) == "disk"
    assert set(s.actors) == {A, B, C}
    for p in (A, B, C):
        assert legal_texts(s, p) == {f"disk {r}" for r in REGION_IDS}
    with pytest.raises(IllegalActionError):
        play(s, A, "disk castillo")
    play(s, A, "disk galicia", events=events)
    play(s, B, "disk galicia", events=events)
    play(s, C, "disk sevilla", events=events)
    assert s.score == [3, 0, 6]
    assert scored_areas(events) == ["sevilla"]
    assert phase(s) == "place" and s.place_limit == 4


def test_eg15_first_place_only():
    """EG-15 First place only (3E): granada A3 B3 pays nothing; castilla_la_vieja A2 B1 pays A 6,
    nothing to B; the Castillo (A5) is not scored."""
    s = scenario(players=2, cab={"granada": {A: 3, B: 3}, "castilla_la_vieja": {A: 2, B: 1},
                                 "castillo": {A: 5}})
    events: list[Event] = []
    use_card(s, "3E", events)
    assert s.score == [6, 0]
    assert shares(events, "granada") == {A: 0, B: 0}
    assert shares(events, "castilla_la_vieja") == {A: 6, B: 0}
    assert "castillo" not in scored_areas(events)
    assert scored_areas(events) == list(REGION_IDS)
    assert s.cab[A][CASTILLO] == 5


EG16_CAB = {"cataluna": {A: 3, B: 2}, "galicia": {C: 5}, "sevilla": {A: 1}, "valencia": {B: 1},
            "castillo": {A: 4, B: 3, C: 2}}


def test_eg16_most_caballeros():
    """EG-16 Most and fewest (3F): cataluna 5 and galicia 5 scored, not the Castillo (9):
    cataluna A 4, B 2; galicia C 4."""
    s = scenario(players=3, king="granada", cab=EG16_CAB)
    events: list[Event] = []
    use_card(s, "3F", events)
    assert scored_areas(events) == ["cataluna", "galicia"]
    assert s.score == [4, 2, 4]


def test_eg16_fewest_caballeros():
    """EG-16 Most and fewest (3G): sevilla 1 and valencia 1 scored, not the empty regions nor the
    Castillo: sevilla A 4, valencia B 5."""
    s = scenario(players=3, king="granada", cab=EG16_CAB)
    events: list[Event] = []
    use_card(s, "3G", events)
    assert scored_areas(events) == ["sevilla", "valencia"]
    assert s.score == [4, 5, 0]


@pytest.mark.parametrize("card", ["3F", "3G"])
def test_eg16_every_region_empty(card):
    """EG-16 Most and fewest: with every region empty, 3F and 3G score nothing (Castillo full)."""
    s = scenario(players=3, king="granada", cab={"castillo": {A: 5, B: 4}})
    events: list[Event] = []
    use_card(s, card, events)
    assert s.score == [0, 0, 0]
    assert scored_areas(events) == []
    assert phase(s) == "place"


# ----------------------------------------------------------------------------- §7.5 Veto!


def test_eg17_veto_cancels_announced_action():
    """EG-17 Veto cancels an announced action: round 4, C took a Veto! in round 4; A takes 5A,
    ACTION_FIRST; C is asked and vetoes: the King stays, C holds no Veto!, A places up to 5 next to
    the unchanged King's region; 5A is on offer again after the round."""
    s = scenario(round_index=3, king="sevilla", veto={C: [3]})
    assert s.round == 4 and s.order == [A, B, C, D]
    events: list[Event] = []
    take(s, "5A", events)
    play(s, A, "action_first", events=events)
    assert phase(s) == "veto" and s.actors == (C,)
    assert legal_texts(s, C) == {"veto", "allow"}
    play(s, C, "veto", events=events)
    assert s.king == area("sevilla")
    assert s.veto[C] == []
    assert s.discard.count(VETO_CARD) == 1
    assert s.actors == (A,) and phase(s) == "place"
    assert legal_texts(s, A) == places("castilla_la_nueva", "granada", "castillo")
    play(s, A, "place granada", "place granada", "place castilla_la_nueva", "place castillo",
         "place castillo", events=events)
    assert s.court[A] == 2
    assert s.active == B and phase(s) == "take_card"  # ended after the 5th, no DO_ACTION
    assert not s.king_card
    pass_turn(s, "4B")
    pass_turn(s, "4D")
    pass_turn(s, "4F")
    assert s.round == 5 and phase(s) == "reveal"
    assert s.king_card
    assert data.KING_CARD not in s.discard
    assert "eg.king" not in ids(events)


def test_eg17_veto_allowed():
    """EG-17 variant: C chooses ALLOW → A picks KING_TO(...) and the King moves."""
    s = scenario(round_index=3, king="sevilla", veto={C: [3]})
    take(s, "5A")
    play(s, A, "action_first")
    play(s, C, "allow")
    assert s.actors == (A,) and phase(s) == "king_to"
    assert legal_texts(s, A) == {f"king {r}" for r in REGION_IDS if r != "sevilla"}
    play(s, A, "king galicia")
    assert s.king == area("galicia")
    assert s.veto[C] == [3]
    assert legal_texts(s, A) == places("castilla_la_vieja", "pais_vasco", "castillo")


def test_eg18a_taking_second_veto_opens_no_window():
    """EG-18 (a) B takes the second Veto! while A holds one: no window is opened; B holds it at once
    and goes straight to placement."""
    s = scenario(order=[B, A, C, D], veto={A: [0]})
    assert s.active == B
    events: list[Event] = []
    take(s, "2A", events)
    assert s.veto == [[0], [0], [], []]
    assert s.actors == (B,) and phase(s) == "place"
    assert "eg.announce" not in ids(events)
    play(s, B, "end_placement")
    assert s.active == A and phase(s) == "take_card"


def test_eg18b_own_action_not_vetoable():
    """EG-18 (b) A, holding a Veto!, is never asked about his own action."""
    s = scenario(veto={A: [0]})
    use_card(s, "5A")
    assert s.actors == (A,) and phase(s) == "king_to"


def test_eg18c_placement_and_general_scoring_open_no_window():
    """EG-18 (c) Placement and the general scoring open no Veto! window (B holds a Veto!)."""
    s = scenario(players=3, round_index=2, veto={B: [2]}, cab={"castillo": {A: 1}, "galicia": {A: 1}})
    events: list[Event] = []
    take(s, "5A", events)
    play(s, A, "place_first", "place granada", "place castillo", events=events)
    assert phase(s) == "place" and s.actors == (A,)
    play(s, A, "end_placement", "skip_action", events=events)
    pass_turn(s, "4B", events)
    assert s.active == C
    pass_turn(s, "4D", events)
    # End of round 3: general scoring; only A has Castillo caballeros and picks.
    assert phase(s) == "disk" and s.actors == (A,)
    play(s, A, "disk galicia")
    assert phase(s) == "reveal" and s.round == 4
    # Castillo A2 alone (5), then galicia A3 alone (4) and granada A1 alone (6); no veto phase.
    assert s.score == [5 + 4 + 6, 0, 0]
    assert s.veto[B] == [2]
    assert not {"eg.announce", "eg.veto", "eg.allow"} & set(ids(events))


def test_eg18d_veto_expiry():
    """EG-18 (d) A Veto! taken in round 4 and not used is still held after round 4, discarded at the
    end of round 5; in round 6 its former holder is not asked."""
    s = scenario(round_index=3, veto={B: [3]}, active=D)
    pass_turn(s, "4B")
    assert s.round == 5 and phase(s) == "reveal"
    assert s.veto[B] == [3]
    chance(s, "reveal 1B", "reveal 2B", "reveal 3D", "reveal 4C")
    run_until(s, lambda x: x.round == 6)
    assert s.veto[B] == []
    assert VETO_CARD in s.discard
    assert phase(s) == "reveal"
    chance(s, "reveal 1C", "reveal 2C", "reveal 3E", "reveal 4D")
    run_until(s, lambda x: phase(x) == "take_card")
    p = s.active
    take(s, "5A")
    play(s, p, "action_first")
    assert s.actors == (p,) and phase(s) == "king_to"


def test_eg18e_window_order():
    """EG-18 (e) Window order: 4 players, turn order B, D, A, C; A announces; B and C hold a Veto! →
    C is asked first, then B."""
    s = scenario(order=[B, D, A, C], active=A, veto={B: [0], C: [0]})
    events: list[Event] = []
    take(s, "5A", events)
    play(s, A, "action_first", events=events)
    assert s.actors == (C,)
    play(s, C, "allow", events=events)
    assert s.actors == (B,)
    assert legal_texts(s, B) == {"veto", "allow"}
    play(s, B, "allow", events=events)
    assert s.actors == (A,) and phase(s) == "king_to"
    assert [m.get("seat") for m in msgs(events, D) if m.id == "eg.allow"] == [C, B]


def test_eg18e_veto_discards_older_card():
    """EG-18 (e) / §7.5: the first VETO ends the window; a holder of two discards the older one."""
    s = scenario(order=[B, D, A, C], active=A, round_index=4, veto={B: [3], C: [3, 4]})
    take(s, "5A")
    play(s, A, "action_first")
    play(s, C, "veto")
    assert s.veto[C] == [4] and s.veto[B] == [3]
    assert s.actors == (A,) and phase(s) == "place"


# ----------------------------------------------------------------------------- 4E


def test_eg19_power_card_taken_back():
    """EG-19 Power cards (4E): round 2, A played 13 and acts first, takes 4E and TAKE_BACK(13): the
    order of round 2 is kept; round 3 starts with the lowest card of round 2; A may play 13 again;
    the others see only that A took a power card back."""
    s = new_game(3, ("galicia", "aragon", "valencia"), "sevilla", ("1A", "2B", "3D", "4B"))
    play(s, A, "power 5")
    play(s, B, "power 6")
    play(s, C, "power 7")
    run_until(s, lambda x: x.round == 2 and phase(x) == "reveal")
    chance(s, "reveal 1B", "reveal 2C", "reveal 3E", "reveal 4E")
    assert s.actors == (A,)  # A played the lowest card of round 1
    play(s, A, "power 13")
    play(s, B, "power 3")
    play(s, C, "power 4")
    assert s.order == [A, C, B]
    assert s.active == A and phase(s) == "take_card"  # P(13) = 0: no intake
    events: list[Event] = []
    play(s, A, "take 4E", "action_first", events=events)
    assert legal_texts(s, A) == {"take_back 5", "take_back 13"}
    play(s, A, "take_back 13", events=events)
    assert s.hand[A] >> 13 & 1
    assert s.pile[A] == [5]
    assert bin(s.hand[A]).count("1") == 12
    assert s.taken_back[A] == [13]
    assert s.order == [A, C, B]
    assert s.power_now == [13, 3, 4]
    mine = [m for m in msgs(events, A) if m.id.startswith("eg.take_back")]
    assert mine == [Message("eg.take_back", seat=A, value=13)]
    for viewer in (B, C, None):
        theirs = [m for m in msgs(events, viewer) if m.id.startswith("eg.take_back")]
        assert theirs == [Message("eg.take_back.hidden", seat=A)]
        assert observe(s, viewer).last == (A, "take_back")
        assert observe(s, viewer).public.power_log[A] == (5, 13, 0)
    assert observe(s, A).last == (A, "take_back 13")
    turns = [A]
    while s.round == 2:
        quiet_step(s)
        if s.active >= 0 and s.active != turns[-1]:
            turns.append(s.active)
    assert turns == [A, C, B]
    chance(s, "reveal 1C", "reveal 2D", "reveal 3F", "reveal 4F")
    assert s.actors == (B,)  # B played the lowest card (3) of round 2
    play(s, B, "power 1")
    play(s, C, "power 2")
    assert s.actors == (A,)
    assert "power 13" in legal_texts(s, A)
    play(s, A, "power 13")
    assert s.order == [A, C, B]


# ----------------------------------------------------------------------------- 4A, 4D, moves


def test_eg20_mobile_scoreboard_legality():
    """EG-20 Mobile scoreboard legality: King in granada with tile 8/4/0, tile 4/0/0 in cataluna →
    only MOVE_TILE(4/0/0, r) for the 7 other regions."""
    s = scenario(king="granada", tiles=("granada", "cataluna"))
    use_card(s, "4A")
    expected = {f"move_tile 1 {r}" for r in ("aragon", "castilla_la_nueva", "castilla_la_vieja", "galicia",
                                              "pais_vasco", "sevilla", "valencia")}
    assert legal_texts(s, A) == expected
    play(s, A, "move_tile 1 valencia")
    assert s.tiles == [area("granada"), area("valencia")]
    assert phase(s) == "place"


def test_eg21_grande():
    """EG-21 Grande (4D): King in sevilla; A's Grande in sevilla → no ACTION_FIRST / DO_ACTION;
    B's Grande in galicia → 7 targets; after MOVE_GRANDE(valencia) valencia gives B the bonus."""
    s = scenario(players=3, king="sevilla", grandes={A: "sevilla", B: "galicia"},
                 cab={"valencia": {B: 2, A: 1}})
    take(s, "4D")
    forced(s, A, "place_first")
    play(s, A, "place granada")
    play(s, A, "end_placement")
    forced(s, A, "skip_action")
    assert s.active == B
    take(s, "4D")
    assert legal_texts(s, B) == {"action_first", "place_first"}
    play(s, B, "action_first")
    assert legal_texts(s, B) == {f"grande {r}" for r in ("aragon", "castilla_la_nueva", "castilla_la_vieja",
                                                          "cataluna", "granada", "pais_vasco", "valencia")}
    play(s, B, "grande valencia")
    assert s.grande[B] == area("valencia")
    score_area(s, area("valencia"), None)
    assert s.score == [3, 5 + 2, 0]


def test_eg22_moves_respect_taboo():
    """EG-22 Moves respect the taboo (1B): King in sevilla, sevilla B3, Castillo B2, galicia B1:
    no MOVE from sevilla or the Castillo, none into sevilla; galicia→castillo and galicia→valencia
    legal."""
    s = scenario(king="sevilla", cab={"sevilla": {B: 3}, "castillo": {B: 2}, "galicia": {B: 1}})
    use_card(s, "1B")
    legal = legal_texts(s, A)
    moves = {t for t in legal if t.startswith("move ")}
    assert not any(t.split()[1] in ("sevilla", "castillo") for t in moves)
    assert not any(t.split()[3] == "sevilla" for t in moves)
    assert "move galicia 1 castillo" in legal and "move galicia 1 valencia" in legal
    dests = [a for a in (*REGION_IDS, "castillo") if a not in ("galicia", "sevilla")]
    assert legal == {f"move galicia 1 {d}" for d in dests} | {"stop"}
    play(s, A, "move galicia 1 valencia")
    assert s.cab[B][area("valencia")] == 1 and s.cab[B][area("galicia")] == 0


def test_eg23_two_own_two_opponents():
    """EG-23 Two own and two opponents' (1D): galicia A3 B3 C1; after two own moves to aragon and
    one B move to the Castillo only MOVE(galicia, B|C, ·) and STOP remain; one more opponent move
    ends the action."""
    s = scenario(players=3, king="sevilla", cab={"galicia": {A: 3, B: 3, C: 1}})
    use_card(s, "1D")
    play(s, A, "move galicia 0 aragon", "move galicia 0 aragon")
    assert "move galicia 0 castillo" not in legal_texts(s, A)
    assert "move galicia 1 castillo" in legal_texts(s, A)
    play(s, A, "move galicia 1 castillo")
    dests = [a for a in (*REGION_IDS, "castillo") if a not in ("galicia", "sevilla")]
    assert legal_texts(s, A) == {f"move galicia {q} {d}" for q in (B, C) for d in dests} | {"stop"}
    for bad in ("move galicia 0 valencia", "move aragon 0 valencia"):
        with pytest.raises(IllegalActionError):
            play(s, A, bad)
    play(s, A, "move galicia 2 granada")
    assert phase(s) == "place"  # ended automatically; ACTION_FIRST → placement follows
    assert [s.cab[p][area("galicia")] for p in range(3)] == [1, 2, 0]
    assert s.cab[A][area("aragon")] == 2
    assert s.cab[B][CASTILLO] == 1
    assert s.cab[C][area("granada")] == 1


# ----------------------------------------------------------------------------- 2D, 2B, 2C, 2F


def test_eg24_the_king_returns():
    """EG-24 The King returns! (2D): order B, C, D; B returns his 3 available (court 1, galicia 2)
    without a choice; C returns 3 from his court; D returns his 1 court caballero; D's Castillo stays."""
    s = scenario(players=4, king="sevilla",
                 cab={"galicia": {B: 2}, "sevilla": {B: 3}, "castillo": {D: 4}},
                 court={A: 7, B: 1, C: 5, D: 1})
    prov = s.province[:]
    events: list[Event] = []
    use_card(s, "2D", events)
    # B went without a choice; C is asked (court only: each return is a forced step).
    assert s.court[B] == 0 and s.cab[B][area("galicia")] == 0 and s.cab[B][area("sevilla")] == 3
    assert phase(s) == "return_from" and s.actors == (C,)
    for _ in range(3):
        forced(s, C, "return court", events)
    assert s.court[C] == 2
    assert s.court[D] == 0 and s.cab[D][CASTILLO] == 4
    assert [s.province[p] - prov[p] for p in range(4)] == [0, 3, 3, 1]
    assert s.actors == (A,) and phase(s) == "place"
    seats = [m.get("seat") for m in msgs(events, None) if m.id in ("eg.return_all", "eg.return")]
    assert seats == [B, C, C, C, D]
    assert all(total(s, p) == 30 for p in range(4))


def test_eg24_the_king_returns_driver():
    """EG-24 through the Match driver: nobody is asked during 2D (B and D have no choice, C's three
    court returns are forced steps); A is asked next for his placement."""
    s = scenario(players=4, king="sevilla",
                 cab={"galicia": {B: 2}, "sevilla": {B: 3}, "castillo": {D: 4}},
                 court={A: 7, B: 1, C: 5, D: 1}, offer=("2D",))
    m = match_at(s)
    m.act(A, "take 2D")
    m.act(A, "action_first")
    assert m.record.entries[2:] == [(C, "return court")] * 3
    assert m.pending() == (A,) and phase(m.state) == "place"
    assert [m.state.court[p] for p in range(4)] == [7, 0, 2, 0]


def test_eg24_opponent_chooses_returns():
    """EG-24 / §9.2 2D: an opponent with more than 3 available chooses each return himself."""
    s = scenario(players=2, king="sevilla", cab={"galicia": {B: 2}, "sevilla": {B: 3}}, court={B: 2})
    use_card(s, "2D")
    assert s.actors == (B,)
    assert legal_texts(s, B) == {"return court", "return galicia"}
    play(s, B, "return galicia", "return galicia")
    forced(s, B, "return court")
    assert (s.court[B], s.cab[B][area("galicia")], s.cab[B][area("sevilla")]) == (1, 0, 3)
    assert s.actors == (A,)


def test_eg25_decay_of_authority_3():
    """EG-25 Decay of Authority (2C): B court 5 → 2, C court 2 → 0, A court 4 unchanged;
    provinces of B and C grow by 3 and 2."""
    s = scenario(players=3, court={A: 4, B: 5, C: 2})
    prov = s.province[:]
    use_card(s, "2C")
    assert s.court == [4, 2, 0]
    assert [s.province[p] - prov[p] for p in range(3)] == [0, 3, 2]


def test_eg25_decay_of_authority_all():
    """EG-25 Decay of Authority (2B instead): B and C courts 0, A unchanged."""
    s = scenario(players=3, court={A: 4, B: 5, C: 2})
    prov = s.province[:]
    use_card(s, "2B")
    assert s.court == [4, 0, 0]
    assert [s.province[p] - prov[p] for p in range(3)] == [0, 5, 2]


def test_eg26_secret_return_2f():
    """EG-26 Secret return (2F): A galicia 3, sevilla 4 (King); B cataluna 1, aragon 1; C nothing.
    A's only pick galicia (forced), B cataluna or aragon, C does not pick; after the reveal
    galicia A1 and B loses 1 from his pick."""
    s = scenario(players=3, king="sevilla",
                 cab={"galicia": {A: 3}, "sevilla": {A: 4}, "cataluna": {B: 1}, "aragon": {B: 1}})
    prov = s.province[:]
    events: list[Event] = []
    use_card(s, "2F", events)
    assert phase(s) == "disk"
    assert set(s.actors) == {A, B}
    assert GAME.legal_actions(s, C) == ()
    assert legal_texts(s, B) == {"disk cataluna", "disk aragon"}
    forced(s, A, "disk galicia", events)
    assert s.cab[A][area("galicia")] == 3  # nothing happens before the reveal
    assert observe(s, B).public.committed == (True, False, False)
    assert own(observe(s, B)).pick == -1
    assert observe(s, B).last == (A, "disk")
    assert own(observe(s, A)).pick == area("galicia")
    assert own(observe(s, A)).last_move == "disk galicia" and observe(s, A).last == (A, "disk galicia")
    play(s, B, "disk aragon", events=events)
    assert s.cab[A][area("galicia")] == 1
    assert s.cab[A][area("sevilla")] == 4
    assert (s.cab[B][area("aragon")], s.cab[B][area("cataluna")]) == (0, 1)
    assert [s.province[p] - prov[p] for p in range(3)] == [2, 1, 0]
    assert s.actors == (A,) and phase(s) == "place"
    # The picks stayed hidden from the others until the reveal.
    hidden = [m for m in msgs(events, C) if m.id == "eg.disk.hidden"]
    assert [m.get("seat") for m in hidden] == [A, B]
    assert "eg.reveal_disks" in ids(events, C)
