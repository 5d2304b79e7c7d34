"""El Grande scoring (§10) as functions of the state."""

from __future__ import annotations

from collections.abc import Sequence

from tablero.core.events import Event
from tablero.core.messages import Message
from tablero.games.elgrande.data import (
    AREA_IDS,
    CASTILLO,
    CASTILLO_VALUES,
    GRANDE_BONUS,
    KING_BONUS,
    REGIONS,
    TILES,
)
from tablero.games.elgrande.state import ElGrandeState


def ranks(counts: Sequence[int]) -> list[int]:
    """Places per §10.2: only counts > 0 take part (rank 0 = not placed); a tie group falls back
    one place and always costs two places."""
    out = [0] * len(counts)
    r = 1
    for c in sorted({c for c in counts if c > 0}, reverse=True):
        group = [p for p, x in enumerate(counts) if x == c]
        if len(group) == 1:
            out[group[0]] = r
            r += 1
        else:
            for p in group:
                out[p] = r + 1
            r += 2
    return out


def values(s: ElGrandeState, area: int) -> tuple[int, int, int]:
    """Current values (§10.1): a mobile scoreboard's if one lies in the region, else printed."""
    if area == CASTILLO:
        return CASTILLO_VALUES
    for t, pos in enumerate(s.tiles):
        if pos == area:
            return TILES[t]
    return REGIONS[area].values


def score_area(s: ElGrandeState, area: int, events: list[Event] | None, *, first_only: bool = False) -> None:
    """Score one area (§10.4): place points, then the King's and Grande bonus of a region."""
    n = s.n
    counts = [s.cab[p][area] for p in range(n)]
    if not any(counts):
        if events is not None:
            events.append(Event(Message("eg.score.empty", area=Message(f"eg.area.{AREA_IDS[area]}"))))
        return
    vals = values(s, area)
    rk = ranks(counts)
    points = [0] * n
    for p in range(n):
        r = rk[p]
        if r and r <= 3 and (not first_only or r == 1):
            points[p] = vals[r - 1]
    leader = rk.index(1) if 1 in rk else -1
    for p in range(n):
        s.score[p] += points[p]
    if events is not None:
        aid = Message(f"eg.area.{AREA_IDS[area]}")
        shares = tuple(Message("eg.points", seat=p, points=points[p], place=rk[p])
                       for p in range(n) if counts[p])
        events.append(Event(Message("eg.score", area=aid, shares=shares)))
    if area != CASTILLO and leader >= 0:
        if area == s.king:
            s.score[leader] += KING_BONUS
            if events is not None:
                events.append(Event(Message("eg.bonus.king", seat=leader, points=KING_BONUS)))
        if s.grande[leader] == area:
            s.score[leader] += GRANDE_BONUS
            if events is not None:
                events.append(Event(Message("eg.bonus.grande", seat=leader, points=GRANDE_BONUS)))
