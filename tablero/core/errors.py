"""Errors with stable codes (used by the web API as slugs)."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    ILLEGAL = "action/illegal"
    NOT_YOUR_TURN = "action/not_your_turn"
    PARSE = "action/parse"
    STALE = "action/stale_version"
    UNDO = "action/no_undo"
    UNDO_LIMIT = "action/undo_limit"
    RECORD_FULL = "action/record_full"
    OPTION = "game/bad_option"
    DATA = "game/bad_data"
    PLAYERS = "game/bad_player_count"
    RECORD = "record/invalid"
    UNKNOWN_GAME = "game/unknown"
    NOT_OVER = "game/not_over"
    TOKEN = "auth/token"
    MALFORMED = "request/malformed"
    TOO_LARGE = "request/too_large"
    RATE_LIMITED = "request/rate_limited"
    ORIGIN = "request/origin"
    MEDIA_TYPE = "request/unsupported_media_type"
    PEEKING = "bot/peeking"
    REVIEW_FORBIDDEN = "review/forbidden"
    REVIEW_BUSY = "review/busy"
    REVIEW_FAILED = "review/failed"
    HINTS_OFF = "hint/off"
    HINT_FAILED = "hint/failed"
    CHAT_OFF = "chat/off"
    CHAT_FORBIDDEN = "chat/forbidden"
    CHAT_MUTED = "chat/muted"
    CHAT_EMPTY = "chat/empty"
    CHAT_TOO_LONG = "chat/too_long"
    CHAT_TOO_FAST = "chat/too_fast"
    SPECTATORS_FULL = "table/spectators_full"
    SERVER_FAULT = "server/fault"


class TableroError(ValueError):
    """Base class: a clear message plus an :class:`ErrorCode`."""

    code: ErrorCode = ErrorCode.ILLEGAL

    def __init__(self, message: str, *, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class IllegalActionError(TableroError):
    """The action is well formed but not legal here; the state is unchanged."""

    code = ErrorCode.ILLEGAL


class ActionParseError(TableroError):
    """The text does not name an action of this game."""

    code = ErrorCode.PARSE


class OptionError(TableroError):
    code = ErrorCode.OPTION


class DataError(OptionError):
    """A data override (``--data NAME=VALUE``) names no overridable value or has a bad value."""

    code = ErrorCode.DATA


class RecordError(TableroError):
    code = ErrorCode.RECORD
