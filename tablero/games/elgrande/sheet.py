"""El Grande's score sheet for the end screen: where each seat's points came from (§10).

Read from the game's own public log lines, which name every point change (§10.4: "every
point change is a public event naming the area, the player, the place and the bonus"):

* ``eg.round`` (round) and ``eg.general_scoring`` (round) open a round / a general scoring;
* ``eg.announce`` (card) opens a card's special action, whose scorings belong to that card;
* ``eg.score`` (area, shares: ``eg.points`` with seat and points), ``eg.bonus.king`` and
  ``eg.bonus.grande`` (seat, points) are the points.

Rows: each general scoring (after rounds 3, 6 and 9) as a group with a row per area that gave
points (Castillo first, then the regions in the order of §2.2) and a row each for the King's
and Grande bonuses; then one group of the scoring cards, a row per card played (its areas and
bonuses together). A position that started with points (a game from a set-up position) gets a
row of the points it had before.
"""

from __future__ import annotations

from collections.abc import Sequence

from tablero.core.messages import Message, Param
from tablero.core.protocol import ScoreSheet, SheetRow
from tablero.games.elgrande.state import ElGrandeState

TOTAL = Message("eg.sheet.total")
EARLIER = Message("eg.sheet.earlier")
CARDS = Message("eg.sheet.cards")
KING = Message("eg.sheet.king")
GRANDE = Message("eg.sheet.grande")
OTHER = Message("eg.sheet.other")


class _Block:
    """One general scoring: points per area (in the order they were scored), then the bonuses."""

    def __init__(self, group: Message, n: int) -> None:
        self.group = group
        self.n = n
        self.areas: dict[str, tuple[Message, list[int]]] = {}
        self.king = [0] * n
        self.grande = [0] * n

    def area(self, label: Message) -> list[int]:
        key = label.id
        if key not in self.areas:
            self.areas[key] = (label, [0] * self.n)
        return self.areas[key][1]

    def rows(self) -> list[SheetRow]:
        out = [SheetRow(label, tuple(v), self.group) for label, v in self.areas.values()]
        out.append(SheetRow(KING, tuple(self.king), self.group))
        out.append(SheetRow(GRANDE, tuple(self.grande), self.group))
        return out


def _int(v: Param) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def _shares(m: Message) -> list[tuple[int, int]]:
    """(seat, points) of an ``eg.score`` line."""
    out = []
    shares = m.get("shares")
    for share in shares if isinstance(shares, tuple) else ():
        if isinstance(share, Message):
            out.append((_int(share.get("seat")), _int(share.get("points"))))
    return out


def score_sheet(state: ElGrandeState, log: Sequence[Message]) -> ScoreSheet:
    n = state.n
    blocks: list[_Block] = []
    cards: list[tuple[Message, list[int]]] = []
    other = [0] * n
    round_no = 0
    general: _Block | None = None
    card: list[int] | None = None
    for m in log:
        mid = m.id
        if mid == "eg.round":
            round_no = _int(m.get("round"))
            general, card = None, None
        elif mid == "eg.general_scoring":
            general = _Block(Message("eg.sheet.general", round=_int(m.get("round"))), n)
            blocks.append(general)
            card = None
        elif mid == "eg.announce":
            card = [0] * n
            cards.append((Message("eg.sheet.card", round=round_no, card=m.get("card")), card))
            general = None
        elif mid == "eg.score":
            area = m.get("area")
            target = (general.area(area) if general is not None and isinstance(area, Message)
                      else card if card is not None else other)
            for seat, points in _shares(m):
                target[seat] += points
        elif mid in ("eg.bonus.king", "eg.bonus.grande"):
            if general is not None:
                target = general.king if mid == "eg.bonus.king" else general.grande
            else:
                target = card if card is not None else other
            target[_int(m.get("seat"))] += _int(m.get("points"))
    rows: list[SheetRow] = []
    for b in blocks:
        rows.extend(b.rows())
    rows.extend(SheetRow(label, tuple(v), CARDS) for label, v in cards)
    rows.append(SheetRow(OTHER, tuple(other)))
    rows = [r for r in rows if any(r.values)]
    logged = [sum(r.values[p] for r in rows) for p in range(n)]
    earlier = tuple(state.score[p] - logged[p] for p in range(n))
    if any(earlier):
        rows.insert(0, SheetRow(EARLIER, earlier))
    return ScoreSheet(players=n, rows=tuple(rows), total=TOTAL)

