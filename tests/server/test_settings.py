"""The server's settings (environment and overrides) and what they switch: SQLite durability."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from tablero.server.settings import ServerSettings
from tablero.server.store import Store


def test_environment_changes_a_setting_and_overrides_win() -> None:
    s = ServerSettings.from_env({"TABLERO_MAX_BODY": "2048", "TABLERO_SQLITE_SYNCHRONOUS": "normal"})
    assert (s.max_body, s.sqlite_synchronous) == (2048, "normal")
    assert ServerSettings.from_env({"TABLERO_MAX_BODY": "2048"}, max_body=10).max_body == 10
    assert ServerSettings.from_env({}) == ServerSettings()


def test_a_setting_that_does_not_parse_names_its_variable() -> None:
    with pytest.raises(ValueError, match="TABLERO_MAX_BODY"):
        ServerSettings.from_env({"TABLERO_MAX_BODY": "lots"})


def test_sqlite_commits_are_durable_by_default(tmp_path: Path) -> None:
    """An acknowledged move survives a power loss: every commit is synced (synchronous=FULL).

    The issue-14 audit found NORMAL, which in WAL mode may lose the last commits on a power cut.
    """
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    store.close()


def test_an_operator_may_choose_speed_over_durability(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'b.db'}", settings=ServerSettings(sqlite_synchronous="NORMAL"))
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 1
    store.close()
    with pytest.raises(ValueError, match="synchronous"):
        Store(f"sqlite:///{tmp_path / 'c.db'}", settings=ServerSettings(sqlite_synchronous="SOMETIMES"))
