"""Mafia Legend's score sheet for the end screen: each seat's VP by where they came from.

Read from the game's own public log lines, each of which names a VP change with its seat:

| row | line | points |
|---|---|---|
| jobs (§9) | ``ml.job_done`` | ``+vp`` to ``seat`` |
| gifts of won characters (§10.3) | ``ml.gift`` | ``+vp`` to ``seat`` |
| sets (§10.3) | ``ml.set`` | ``+vp`` to ``seat`` |
| power cards at month end (§11, §12 ME5) | ``ml.power_vp`` | ``+vp`` to ``seat`` |
| monthly bonus (§12 ME6) | ``ml.monthly_bonus`` | ``+vp`` to ``seat`` |
| scandals caused (star attacks, §8) | ``ml.scandal`` | ``+gain`` to ``seat`` |
| scandals suffered | ``ml.scandal`` | ``-loss`` to ``target_seat`` |
| magnifier discards (§10.4) | ``ml.discards`` | ``-vp`` to ``seat`` |

Missions score no VP (they decide who may win). Rows where nobody scored are left out; a
position that started with VP (a game from a set-up position) gets a row of the VP it had.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tablero.core.messages import Message, Param
from tablero.core.protocol import ScoreSheet, SheetRow
from tablero.games.mafia.state import MafiaState

TOTAL = Message("ml.sheet.total")
EARLIER = Message("ml.sheet.earlier")

ROWS: Final = ("jobs", "gifts", "sets", "powers", "monthly_bonus", "scandals_won", "scandals_lost", "magnifier")
"""The rows in the order shown; each is labelled ``ml.sheet.<row>``."""

GAINS: Final = {"ml.job_done": "jobs", "ml.gift": "gifts", "ml.set": "sets", "ml.power_vp": "powers",
                "ml.monthly_bonus": "monthly_bonus"}
"""Log lines that give ``vp`` to ``seat``, by row."""


def _int(v: Param) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def score_sheet(state: MafiaState, log: Sequence[Message]) -> ScoreSheet:
    n = state.n
    tally = {row: [0] * n for row in ROWS}
    for m in log:
        row = GAINS.get(m.id)
        if row is not None:
            tally[row][_int(m.get("seat"))] += _int(m.get("vp"))
        elif m.id == "ml.scandal":
            tally["scandals_won"][_int(m.get("seat"))] += _int(m.get("gain"))
            tally["scandals_lost"][_int(m.get("target_seat"))] -= _int(m.get("loss"))
        elif m.id == "ml.discards":
            tally["magnifier"][_int(m.get("seat"))] -= _int(m.get("vp"))
    rows = [SheetRow(Message(f"ml.sheet.{row}"), tuple(tally[row])) for row in ROWS if any(tally[row])]
    logged = [sum(r.values[p] for r in rows) for p in range(n)]
    earlier = tuple(state.vp[p] - logged[p] for p in range(n))
    if any(earlier):
        rows.insert(0, SheetRow(EARLIER, earlier))
    return ScoreSheet(players=n, rows=tuple(rows), total=TOTAL)
