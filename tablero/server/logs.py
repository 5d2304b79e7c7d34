"""The log lines of ``tablero serve``: text (the default) or JSON, one object per line.

``--log-format json`` (or ``TABLERO_LOG_FORMAT=json``) writes every record of the ``tablero.*``
and ``uvicorn.*`` loggers to standard error as one JSON object: ``time`` (UTC, ISO 8601),
``level``, ``logger``, ``message``, ``exception`` (the traceback, when there is one) and the
record's extras (``log.warning(..., extra={"game_id": gid})`` gives ``"game_id": ...``);
uvicorn's access lines add ``client``, ``method``, ``path`` and ``status``. The configuration is a
:func:`logging.config.dictConfig` dictionary that uvicorn applies when it starts
(:func:`log_config`).
"""

from __future__ import annotations

import copy
import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

LOG_FORMATS = ("text", "json")

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""The ``tablero.*`` lines in text mode (uvicorn's keep uvicorn's own format)."""

_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message", "asctime", "color_message", "taskName"}
"""Attributes every record has (or uvicorn adds for its coloured text); the rest are extras."""


class JsonFormatter(logging.Formatter):
    """One record as one line of JSON (see the module docstring for its fields)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            client, method, path, _version, status = record.args
            out.update(client=client, method=method, path=path, status=status)
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_") and key not in out:
                out[key] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            out["exception"] = record.exc_text
        if record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def check_format(fmt: str) -> str:
    """``fmt`` as a log format name (``text`` or ``json``); raises ValueError otherwise."""
    low = fmt.strip().lower()
    if low not in LOG_FORMATS:
        raise ValueError(f"log format must be one of {', '.join(LOG_FORMATS)}, not {fmt!r}")
    return low


def log_config(fmt: str) -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` dictionary for ``uvicorn.run(log_config=...)``.

    ``text``: uvicorn's own configuration, plus the ``tablero`` loggers (INFO and up) to standard
    error as :data:`TEXT_FORMAT`. ``json``: every line of both to standard error as JSON.
    """
    fmt = check_format(fmt)
    if fmt == "text":
        from uvicorn.config import LOGGING_CONFIG

        config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
        config["formatters"]["tablero"] = {"format": TEXT_FORMAT}
        config["handlers"]["tablero"] = {"class": "logging.StreamHandler", "formatter": "tablero",
                                         "stream": "ext://sys.stderr"}
        config["loggers"]["tablero"] = {"handlers": ["tablero"], "level": "INFO", "propagate": False}
        return config
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"json": handler},
        "loggers": {
            "uvicorn": {"handlers": ["json"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": ["json"], "level": "INFO", "propagate": False},
            "tablero": {"handlers": ["json"], "level": "INFO", "propagate": False},
        },
    }


def announce(fmt: str, message: str) -> None:
    """Say ``message`` at start-up before logging is set up: a plain line on standard output for
    ``text``, a JSON record of ``tablero.server`` on standard error for ``json``."""
    if check_format(fmt) == "text":
        print(message, flush=True)
        return
    record = logging.LogRecord("tablero.server", logging.INFO, __file__, 0, message, (), None)
    print(JsonFormatter().format(record), file=sys.stderr, flush=True)
