"""Don Carlo's score sheet for the end screen (§2.3, §7): influence, bonus and country points.

Recomputed from the final state's public facts alone: the agents lie face up in their
countries in the order they were sent (§9), so the k-th agent of a country scored k influence
points for its family (§5.1 step 2), each 3-card run or triple its bonus (§3.3), and the
majorities are the final scoring (§7, with the table's ``majority_tie`` rule).

Rows: a group "Influence" with a row per country in play, a group "Bonus" with runs and
triples, a group "Country majorities" with a row per country in play (once the game is over).
Rows where nobody scored are left out. A state whose totals differ from what the agents
explain (a position set up by hand) gets a row of the difference.
"""

from __future__ import annotations

from collections.abc import Sequence

from tablero.core.messages import Message
from tablero.core.protocol import ScoreSheet, SheetRow
from tablero.games.doncarlo.data import ALL_CODES, COUNTRIES, code_kind
from tablero.games.doncarlo.engine import majorities
from tablero.games.doncarlo.state import OVER, DonCarloState

TOTAL = Message("dc.sheet.total")
EARLIER = Message("dc.sheet.earlier")
INFLUENCE = Message("dc.sheet.influence")
BONUS = Message("dc.sheet.bonus")
MAJORITIES = Message("dc.sheet.majorities")


def _country(c: int) -> Message:
    return Message(f"dc.country.{COUNTRIES[c].id}")


def score_sheet(state: DonCarloState, log: Sequence[Message]) -> ScoreSheet:
    s, n = state, state.n
    bonus = s.data.code_bonus
    rows: list[SheetRow] = []
    runs, triples = [0] * n, [0] * n
    for c in s.countries:
        influence = [0] * n
        for k, (seat, code) in enumerate(s.agents[c]):
            influence[seat] += k + 1
            if bonus[code]:
                (triples if code_kind(ALL_CODES[code]) == "triple" else runs)[seat] += bonus[code]
        rows.append(SheetRow(_country(c), tuple(influence), INFLUENCE))
    rows.append(SheetRow(Message("dc.sheet.runs", bonus=s.data.RUN_BONUS), tuple(runs), BONUS))
    rows.append(SheetRow(Message("dc.sheet.triples", bonus=s.data.TRIPLE_BONUS), tuple(triples), BONUS))
    if s.phase == OVER:
        for c, points, winners in majorities(s):
            rows.append(SheetRow(_country(c), tuple(points if p in winners else 0 for p in range(n)), MAJORITIES))
    rows = [r for r in rows if any(r.values)]
    explained = [sum(r.values[p] for r in rows) for p in range(n)]
    earlier = tuple(s.score(p) - explained[p] for p in range(n))
    if any(earlier):
        rows.insert(0, SheetRow(EARLIER, earlier))
    return ScoreSheet(players=n, rows=tuple(rows), total=TOTAL)
