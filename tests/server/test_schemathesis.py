"""The HTTP API against its own OpenAPI schema (schemathesis over ASGI): no request, however made,
gets a 5xx, and every answer is one the schema describes (status, content type, body).

Requests are generated from the schema (schemas.py describes every body), valid and invalid
ones, with the ids of a few real tables mixed into the paths so the cases reach the tables and
not only "no such game". Each operation gets a fresh app and database. Short and derandomised in
``make test`` (the ``ci`` Hypothesis profile); ``TABLERO_DEEP=1`` runs many more cases.
"""

from __future__ import annotations

import os
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tablero.registry import GAMES
from tablero.server.app import create_app
from tablero.server.settings import ServerSettings

from .conftest import FakeClock

DEEP = os.environ.get("TABLERO_DEEP") == "1"
EXAMPLES = 500 if DEEP else 20

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance, negative_data_rejection]

CONFIG = schemathesis.Config.from_dict({"checks": {"negative_data_rejection": {
    "expected-statuses": ["400", "403", "404", "409", "413", "415", "429"]}}})
"""A request outside the schema is refused with one of the statuses the schema documents (413: a
body over the size limit is refused before its schema is looked at)."""

SEATS = [{"kind": "you", "name": "Ann"}, {"kind": "person"}, {"kind": "bot", "bot": "random"}]
"""Three seats every game takes: a generated body with them reaches the options' and settings' checks."""

TABLES: list[str] = []
"""The ids of the tables of the running test's app (the ``app`` fixture sets them)."""


def _schema() -> Any:
    """The app's OpenAPI schema, read from an app on a throwaway database (at import: the
    operations become the test's parameters; pytest 9 runs schemathesis' fixture-loaded schemas no more)."""
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/schema.db", max_searches=1)
        try:
            return schemathesis.openapi.from_dict(app.openapi(), config=CONFIG)
        finally:
            app.state.service.store.close()


schema = _schema()


def _pick(case: Any, options: list[Any]) -> Any:
    """One of ``options`` or None, chosen by the case itself (the same case, the same choice)."""
    seed = zlib.crc32(repr((case.operation.label, case.path_parameters, case.body)).encode("utf-8", "replace"))
    return options[seed % len(options)] if seed % 3 else None


@schemathesis.hook  # before_call hooks are global: this one acts on tablero's schema only
def before_call(_context: Any, case: Any, _kwargs: dict[str, Any]) -> None:
    """Two cases in three get a real table's id (or a game's) for ``game_id``, and a new table's
    body a real game with seats it takes, so the cases reach the tables and the games' own checks.
    Made here, where schemathesis checks the case again: a request it generated as invalid may
    turn valid, and is then judged as valid."""
    if case.operation.schema.raw_schema.get("info", {}).get("title") != "tablero":
        return
    if isinstance(case.path_parameters, dict) and "game_id" in case.path_parameters and TABLES:
        gid = _pick(case, [*TABLES, *GAMES])
        if gid is not None:
            case.path_parameters["game_id"] = gid
    if isinstance(case.body, dict) and "game" in case.body:
        gid = _pick(case, sorted(GAMES))
        if gid is not None:
            case.body["game"] = gid
            if zlib.crc32(gid.encode() + repr(case.body).encode("utf-8", "replace")) % 2:
                case.body["seats"] = [dict(s) for s in SEATS]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    """A fresh app (no rate limits: the cases come fast from one address) with a table of each game."""
    application = create_app(f"sqlite:///{tmp_path / 'tablero.db'}", bot_delay=0, clock=FakeClock(),
                             tick_seconds=0.05, max_searches=1, settings=ServerSettings(rate_limits=False))
    service = application.state.service
    for gid, game in GAMES.items():
        bots = [{"kind": "bot", "bot": "random"}] * (game.min_players - 2)
        made = service.create({"game": gid, "seats": [{"kind": "you", "name": "Ann"}, {"kind": "person"}, *bots]})
        TABLES.append(made["id"])
    yield application
    TABLES.clear()


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_answers_every_request_as_its_schema_says(case: Any, app: Any) -> None:
    case.call_and_validate(app=app, base_url="http://testserver", checks=CHECKS)
