"""Game records saved by ``main`` before the seams of issue 9 still replay to the same result.

Each file in ``tests/data/records`` was written by ``tablero simulate --save-dir`` on the code
of that time. A rules or data version changed on purpose makes the record refused with a clear
version error instead (then the file is re-saved with the new version, on purpose).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tablero.core.errors import RecordError
from tablero.core.match import Match, replay
from tablero.core.record import GameRecord
from tablero.registry import get_game

RECORDS = sorted((Path(__file__).parent.parent / "data" / "records").glob("*.json"))


def test_there_is_a_record_of_every_game() -> None:
    games = {GameRecord.load(p).game for p in RECORDS}
    assert games == {"don-carlo", "el-grande", "mafia-legend"}


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_saved_record_replays_to_its_result(path: Path) -> None:
    record = GameRecord.load(path)
    game = get_game(record.game)
    if (record.rules_version, record.data_version) != (game.rules_version, game.data_version):
        with pytest.raises(RecordError, match="version"):
            replay(game, record)
        return
    state = replay(game, record)
    result = game.result(state)
    assert result is not None and result.to_json() == record.result
    m = Match.from_record(game, record)
    assert m.is_over()
    assert m.record.entries == record.entries
    assert m.record.result == record.result
