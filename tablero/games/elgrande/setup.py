"""Scenario builder for El Grande (the game's "FEN"): a consistent state from a few facts.

Defaults follow the notation of the spec's test scenarios (§15): regions not mentioned are
empty; the King and every Grande stand in regions the scenario leaves empty; both tiles are
off the board; scores start at 0; nobody holds a Veto!; each seat's caballeros that are not
placed anywhere are in his province, so court + province + regions + Castillo = 30.

Example::

    s = scenario(players=3, king="sevilla", cab={"galicia": {0: 2, 1: 1}}, court={0: 5})
    take(s, "1C")                      # seat 0 (the active seat) takes card 1C
    GAME.apply(s, 0, parse("action_first"))

The builder sits below the Game façade (rules.py imports nothing of it): it builds states
with the engine and applies ``take`` with the engine's legality check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tablero.core.errors import IllegalActionError
from tablero.core.events import Event
from tablero.core.protocol import DATA_OPTION
from tablero.games.elgrande import data
from tablero.games.elgrande.actions import Kind, act
from tablero.games.elgrande.data import AREA_INDEX, CARD_INDEX, CASTILLO, NUM_REGIONS
from tablero.games.elgrande.engine import FULL_HAND, legal_actions, new_state, step
from tablero.games.elgrande.state import PHASE_NAMES, TAKE, ElGrandeState

SCENARIO_OPTIONS = ("short_game", "castillo_open")
"""The options a scenario may set (it always starts with seat 0, ``start_seat=0``), besides the
data overrides under ``"data"`` (``{"data": {"REGION_MOVES": 3}}``)."""


def scenario(
    *,
    players: int = 4,
    king: str = "sevilla",
    grandes: Mapping[int, str] | None = None,
    cab: Mapping[str, Mapping[int, int]] | None = None,
    court: Mapping[int, int] | None = None,
    province: Mapping[int, int] | None = None,
    scores: Mapping[int, int] | None = None,
    tiles: Sequence[str | None] = (None, None),
    veto: Mapping[int, Sequence[int]] | None = None,
    power: Mapping[int, int] | None = None,
    order: Sequence[int] | None = None,
    active: int | None = None,
    round_index: int = 0,
    offer: Sequence[str] = (),
    options: Mapping[str, object] | None = None,
) -> ElGrandeState:
    """A state at the start of ``active``'s TAKE_CARD step (intake already done).

    ``cab`` maps an area id (a region or ``castillo``) to caballeros per seat; ``court``
    defaults to 7 per seat; the province holds the rest of the 30. ``power`` gives the
    power cards played this round (default: distinct values in seat order, highest first);
    ``order`` the turn order (default: by those values); ``active`` defaults to the first
    seat in ``order``. ``veto`` maps a seat to the round indices in which he took his Veto!
    cards. ``offer`` lists card ids face up besides the King's card.
    """
    opts = {"short_game": False, "castillo_open": False, **(options or {})}
    tables = data.tables_of({DATA_OPTION: opts.pop(DATA_OPTION, None)})
    unknown = sorted(set(opts) - set(SCENARIO_OPTIONS))
    if unknown or not all(isinstance(opts[k], bool) for k in SCENARIO_OPTIONS):
        raise ValueError(f"a scenario takes the options {', '.join(SCENARIO_OPTIONS)} (true or false) and data")
    if not 2 <= players <= 5:
        raise ValueError(f"El Grande takes 2-5 players, not {players}")
    s = new_state(players, short_game=bool(opts["short_game"]), castillo_open=bool(opts["castillo_open"]),
                  start_option=0, tables=tables)
    n = players
    s.ri = round_index
    s.king = AREA_INDEX[king]
    cab = cab or {}
    used = {AREA_INDEX[a] for a, row in cab.items() if any(row.values())} | {s.king}
    free = [r for r in range(NUM_REGIONS) if r not in used]
    grandes = grandes or {}
    fallback = iter(free)
    for p in range(n):
        if p in grandes:
            s.grande[p] = AREA_INDEX[grandes[p]]
        else:
            try:
                s.grande[p] = next(fallback)
            except StopIteration:  # a crowded board: share an empty region
                s.grande[p] = free[-1] if free else (s.king + 1) % NUM_REGIONS
    s.cab = [[0] * data.NUM_AREAS for _ in range(n)]
    for area, row in cab.items():
        for p, k in row.items():
            s.cab[p][AREA_INDEX[area]] = k
    court = court or {}
    province = province or {}
    for p in range(n):
        s.court[p] = court.get(p, data.START_COURT)
        placed = sum(s.cab[p])
        s.province[p] = province.get(p, data.CABALLEROS - placed - s.court[p])
        if s.court[p] + s.province[p] + placed != data.CABALLEROS:
            raise ValueError(f"seat {p}: court + province + board must be {data.CABALLEROS}")
    s.score = [(scores or {}).get(p, 0) for p in range(n)]
    s.tiles = [-1 if t is None else AREA_INDEX[t] for t in tiles]
    s.veto = [list((veto or {}).get(p, ())) for p in range(n)]
    values = dict(power) if power else {p: 13 - p for p in range(n)}
    s.power_now = [values.get(p, 0) for p in range(n)]
    for p in range(n):
        v = s.power_now[p]
        s.hand[p] = FULL_HAND & ~(1 << v) if v else FULL_HAND
        s.pile[p] = [v] if v else []
        s.power_log[p] = [v] if v else []
    s.order = list(order) if order is not None else sorted(range(n), key=lambda q: -s.power_now[q])
    s.low_seat = s.order[-1]
    s.power_start = 0
    s.power_i = n
    s.active = s.order[0] if active is None else active
    s.ti = s.order.index(s.active)
    for c in offer:
        s.unseen[CARD_INDEX[c]] -= 1
        s.offer.append(CARD_INDEX[c])
    s.reveal_k = 4
    s.deal_i = n + 1
    s.phase = TAKE
    s.actors = (s.active,)
    return s


def take(s: ElGrandeState, card: str, events: list[Event] | None = None) -> None:
    """The active seat takes ``card`` (put on offer first if it is not there).

    Raises :class:`IllegalActionError` (changing nothing but the offer) when the active seat
    may not take it now.
    """
    c = CARD_INDEX[card]
    if c != data.KING_CARD and c not in s.offer:
        s.offer.append(c)
        if s.unseen[c]:
            s.unseen[c] -= 1
    s.touch()  # the offer was edited by hand
    a = act(Kind.TAKE, c)
    if s.phase != TAKE or s.actors != (s.active,) or a not in legal_actions(s, s.active):
        raise IllegalActionError(f"seat {s.active} cannot take {card} now (phase: {PHASE_NAMES[s.phase]})")
    step(s, s.active, a, events)


def area(name: str) -> int:
    """Area index of a region id or ``castillo``."""
    return CASTILLO if name == "castillo" else AREA_INDEX[name]
