"""Game records: the canonical save. Every applied action in order, chance included."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablero.core.errors import RecordError
from tablero.core.protocol import Game


@dataclass(kw_only=True)
class GameRecord:
    """``entries`` holds ``(actor, text)`` pairs; actor -1 is chance. Replays with no RNG.

    ``setup`` is the position the game starts from when it is not the game's initial state
    (``Game.state_to_json`` of a tutorial, puzzle or analysis position, like PGN's
    SetUp/FEN); ``None`` for a game from the start. It is written only when set, so records
    of ordinary games keep their shape.
    """

    game: str
    rules_version: str
    data_version: str
    players: list[str]
    options: dict[str, Any]
    seed: int | None
    entries: list[tuple[int, str]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    setup: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "rules_version": self.rules_version,
            "data_version": self.data_version,
            "players": list(self.players),
            "options": self.options,
            "seed": self.seed,
            "entries": [[a, t] for a, t in self.entries],
            "result": self.result,
        }
        if self.setup is not None:
            out["setup"] = self.setup
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> GameRecord:
        try:
            entries = [(int(a), str(t)) for a, t in data["entries"]]
            return GameRecord(
                game=str(data["game"]),
                rules_version=str(data["rules_version"]),
                data_version=str(data["data_version"]),
                players=[str(p) for p in data["players"]],
                options=dict(data.get("options") or {}),
                seed=None if data.get("seed") is None else int(data["seed"]),
                entries=entries,
                result=data.get("result"),
                setup=None if data.get("setup") is None else dict(data["setup"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"not a game record: {exc!r}") from exc

    @staticmethod
    def load(path: str | Path) -> GameRecord:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise RecordError(f"cannot read game record {str(path)!r}: {exc}") from exc
        if not isinstance(data, dict):
            raise RecordError(f"{str(path)!r} does not hold a JSON object")
        return GameRecord.from_json(data)


def check_versions(game: Game[Any, Any, Any], record: GameRecord) -> None:
    """Refuse a record made under other rules or data: it could replay to another game."""
    if record.game != game.id:
        raise RecordError(f"record is for {record.game!r}, not {game.id!r}")
    if record.rules_version != game.rules_version:
        raise RecordError(
            f"record has rules version {record.rules_version!r}; "
            f"{game.id} is at rules version {game.rules_version!r}"
        )
    if record.data_version != game.data_version:
        raise RecordError(
            f"record has data version {record.data_version!r}; "
            f"{game.id} is at data version {game.data_version!r}"
        )
