"""What the server reads from clients: JSON parsing with limits, request schemas, names, frames.

Every JSON body of the HTTP API and every WebSocket client message passes here before the
service sees it; anything outside these shapes and bounds is refused with ``request/malformed``
(HTTP 400, or an error message on the WebSocket) and changes nothing. The service then checks
what only it can (a game's options and rules data, bots, seats, tokens), with its own codes.

**Parsing** (:func:`parse_json`): UTF-8 text only, nesting at most :data:`MAX_DEPTH` deep,
integer literals of at most :data:`MAX_DIGITS` digits, no ``NaN``/``Infinity`` and no number
too large for a float, no string holding a lone surrogate (``"\\ud800"``: no character, and no
database or browser takes it). The size is bounded before: :attr:`ServerSettings.max_body` for
an HTTP body (:class:`BodyLimit`: checked against ``Content-Length``, and counted as a chunked
body streams in) and for a WebSocket message (:func:`parse_message`).

**Bounds a real table needs**: a move clock and an away time of at most :data:`MAX_SECONDS` (a
day: correspondence play), a table of at most :data:`MAX_SEATS` seats, names of at most
:data:`MAX_NAME_INPUT` characters as sent (kept: the first :data:`MAX_NAME` after cleaning),
keys of at most :data:`MAX_KEY` characters, at most :data:`MAX_TOKENS` keys per hello,
versions up to :data:`MAX_VERSION`.

**Names** (:func:`clean_name`): whitespace runs become one space, the ends are trimmed, the text
is NFC-normalised; control characters (NUL included), lone surrogates and the bidirectional
controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and other invisible format
characters are refused (the joiners U+200C/U+200D stay: emoji and scripts need them).

**WebSocket frames** (:func:`read_text`): the protocol is text; a binary frame is answered with
an error and not read, the connection stays open.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Annotated, Any, Literal

from fastapi import Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from tablero.core.errors import ErrorCode, TableroError
from tablero.server.settings import DAY

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects in a message (the deepest real one is about 4)."""
MAX_DIGITS = 30
"""Most digits of an integer literal (a larger number is refused before it is converted)."""
MAX_SECONDS = DAY
"""Longest move clock and away time (seconds): one day."""
MAX_SEATS = 16
"""Most seat entries in a new table (every game takes fewer; the game says how many)."""
MAX_NAME = 24
"""Longest seat name kept (characters, after cleaning); a longer one is cut."""
MAX_NAME_INPUT = 200
"""Longest name accepted as sent (characters, before cleaning)."""
MAX_KEY = 200
"""Longest token, invite, admin key, bot name, language or game id (characters)."""
MAX_TOKENS = 32
"""Most keys one hello or rematch carries."""
MAX_VERSION = 10**9
"""Largest table version (record entries) a message may name."""
MAX_TEXT = 4_000
"""Longest chat text as sent (characters; the chat keeps at most its own limit, after cleaning)."""
MAX_ACTION = 1_000
"""Longest move text (characters; the games' longest are a few dozen)."""
MAX_OPTIONS = 64
"""Most option names in a new table's ``options``."""
MAX_MOVES = 100
"""Most moves a tutorial step request replays (a step takes one or two)."""

Key = Annotated[str, StringConstraints(max_length=MAX_KEY)]
Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS, strict=True)]
Version = Annotated[int, Field(ge=0, le=MAX_VERSION, strict=True)]
Seconds = Annotated[float, Field(ge=0, le=MAX_SECONDS, allow_inf_nan=False)]


def _refuse(message: str) -> TableroError:
    return TableroError(message, code=ErrorCode.MALFORMED)


# ---------------------------------------------------------------------- JSON with limits
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _too_deep(text: str) -> bool:
    depth = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        else:
            depth -= 1
    return False


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number with more than {MAX_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("a number too large")
    return value


def _constant(text: str) -> Any:
    raise ValueError(f"{text} is no JSON number")


def _lone_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_lone_surrogate(v) for v in value)
    return False


def parse_json(raw: bytes | str) -> Any:
    """``raw`` as JSON within the limits of the module docstring; raises ``json.JSONDecodeError``
    (FastAPI answers that with a validation error, the WebSocket with ``request/malformed``)."""
    if isinstance(raw, (bytes, bytearray, memoryview)):
        try:
            text = bytes(raw).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise json.JSONDecodeError("the text is not UTF-8", "", exc.start) from None
    else:
        text = raw
    if _too_deep(text):
        raise json.JSONDecodeError(f"nested deeper than {MAX_DEPTH}", text, 0)
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError:
        raise
    except (ValueError, RecursionError) as exc:
        raise json.JSONDecodeError(str(exc), text, 0) from None
    if _lone_surrogate(value):
        raise json.JSONDecodeError("a string holds a lone surrogate (no character)", text, 0)
    return value


def parse_message(raw: str, limit: int) -> dict[str, Any]:
    """One WebSocket text message as a JSON object (at most ``limit`` bytes); raises TableroError."""
    if len(raw) > limit or len(raw.encode("utf-8", "surrogatepass")) > limit:
        raise TableroError(f"message too large (over {limit} bytes)", code=ErrorCode.TOO_LARGE)
    try:
        msg = parse_json(raw)
    except json.JSONDecodeError as exc:
        raise _refuse(f"malformed JSON: {exc.msg}") from None
    if not isinstance(msg, dict):
        raise _refuse("expected a JSON object")
    return msg


class BodyLimit:
    """Pure ASGI middleware: an HTTP body of more than ``limit`` bytes is refused with 413
    ``request/too_large`` before it is read.

    A ``Content-Length`` over the limit is answered at once, without calling the app; a body
    without one (chunked) is counted as it streams in, and the read that goes over raises
    ``HTTPException(413)``, which FastAPI hands to the app's handler (our error shape). Starlette's
    own ``RequestBodyLimitMiddleware`` answers in plain text, which clients cannot read as an error.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    def _refusal(self) -> JSONResponse:
        return JSONResponse({"error": {"code": str(ErrorCode.TOO_LARGE),
                                       "message": f"request too large (over {self.limit} bytes)"}}, status_code=413)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = None
        for name, value in scope.get("headers", ()):
            if name.lower() == b"content-length":
                length = value
        if length is not None:
            try:
                announced = int(length)
            except ValueError:
                announced = self.limit + 1  # no number: as good as too large
            if announced > self.limit:
                await self._refusal()(scope, receive, send)
                return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise HTTPException(413, f"request too large (over {self.limit} bytes)")
            return message

        await self.app(scope, counted, send)


class JSONRequest(Request):
    """A request whose JSON body is read by :func:`parse_json` (limits, clear refusals)."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = parse_json(await self.body())
        return self._json


class JSONRoute(APIRoute):
    """The app's routes: bodies parsed by :class:`JSONRequest` (``app.router.route_class``)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route_handler(request: Request) -> Response:
            return await handler(JSONRequest(request.scope, request.receive))

        return route_handler


def describe(errors: Sequence[Mapping[str, Any]], where: str = "") -> str:
    """The first of pydantic's (or FastAPI's) ``errors`` in one sentence for a client."""
    if not errors:
        return f"{where}malformed request"
    e = errors[0]
    if e.get("type") == "json_invalid":
        return f"malformed JSON: {(e.get('ctx') or {}).get('error', e.get('msg'))}"
    loc = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
    msg = str(e.get("msg", "invalid")).removeprefix("Value error, ")
    return f"{where}{loc}: {msg}" if loc else f"{where}{msg}"


ERROR_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["error"], "title": "Error",
    "properties": {"error": {
        "type": "object", "required": ["code", "message"],
        "properties": {"code": {"type": "string", "description": "a stable slug: request/malformed, auth/token, ..."},
                       "message": {"type": "string", "description": "what was wrong, in English"}}}},
}
"""Every refusal of the HTTP API: ``{"error": {"code", "message"}}`` (always JSON, also on a page's route)."""

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"description": words, "content": {"application/json": {"schema": ERROR_SCHEMA}}}
    for status, words in (
        (400, "a request outside its schema or refused by the rules (request/malformed, game/bad_option, ...)"),
        (403, "a key that holds nothing here (auth/token), or a request from another site"),
        (404, "no such game or table (game/unknown)"),
        (409, "the table changed or the game is not over"),
        (413, "a body over the server's limit (request/too_large)"),
        (415, "a body that is no JSON"),
        (429, "too many requests"),
        (503, "the server or the table is busy"),
    )
}
"""The refusals every route may give, in the OpenAPI schema (``FastAPI(responses=...)``)."""


# ---------------------------------------------------------------------- names
_JOINERS = frozenset("\u200c\u200d")
"""The only format characters (category Cf) a name keeps; every other one is refused, the
bidirectional controls of the module docstring among them (they are all Cf)."""


def clean_name(raw: object, where: str = "name") -> str:
    """A seat's or a spectator's name as kept (see the module docstring); "" for none.

    Raises TableroError (``request/malformed``) for a name that is no text, too long as sent, or
    holds a control, bidirectional, invisible format or lone surrogate character."""
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise _refuse(f"{where}: a name is text")
    if len(raw) > MAX_NAME_INPUT:
        raise _refuse(f"{where}: at most {MAX_NAME_INPUT} characters")
    text = " ".join(raw.split())
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs") or (cat == "Cf" and ch not in _JOINERS):
            raise _refuse(f"{where}: U+{ord(ch):04X} is no character a name may hold "
                          "(control, direction or invisible format characters)")
    return unicodedata.normalize("NFC", text)[:MAX_NAME].strip()


def shown(text: str) -> str:
    """``text`` safe to send whatever it holds: lone surrogates (stored by an older version)
    become U+FFFD, so one bad stored name cannot break a listing."""
    return _SURROGATE.sub("\ufffd", text)


Name = Annotated[str, StringConstraints(max_length=MAX_NAME_INPUT)]
"""A name in a request, as sent: the service cleans it with :func:`clean_name` (a bad one refuses
the request), for every caller alike."""


def seconds(value: object, name: str, default: float) -> float:
    """A clock setting as the service keeps it (missing or 0: ``default``); refuses
    (``game/bad_option``) what is no finite number of seconds within 0..:data:`MAX_SECONDS`."""
    if value is None or value == 0 or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TableroError(f"{name}: give a number of seconds", code=ErrorCode.OPTION)
    try:
        number = float(value)
    except ValueError:
        raise TableroError(f"{name}: give a number of seconds", code=ErrorCode.OPTION) from None
    if not math.isfinite(number) or not 0 <= number <= MAX_SECONDS:
        raise TableroError(f"{name}: from 0 to {MAX_SECONDS:g} seconds", code=ErrorCode.OPTION)
    return number or default


# ---------------------------------------------------------------------- HTTP bodies
class _Body(BaseModel):
    # strict: a JSON number where the schema says number (not "30" nor false), as the schema says
    model_config = ConfigDict(extra="ignore", strict=True, str_max_length=MAX_TEXT)


class SeatSpec(_Body):
    """One seat of a new table."""

    kind: Literal["you", "local", "person", "bot"] = Field(
        description="you/local: played on the creating device; person: an invite link; bot: a bot")
    name: Name | None = Field(default=None,
                              description=f"the seat's name (cleaned; the first {MAX_NAME} characters kept)")
    bot: Key | None = Field(default=None, description="a bot seat's bot: a level (medium) or a search spec")


class CreateGame(_Body):
    """``POST /api/games``: a new table."""

    game: Key = Field(description="the game's id (el-grande, don-carlo, mafia-legend)")
    seats: list[SeatSpec] = Field(min_length=1, max_length=MAX_SEATS, description="one entry per seat")
    options: dict[Key, Any] | None = Field(
        default=None, max_length=MAX_OPTIONS,
        description="the game's options by name; rules data overrides under 'data' (the game checks them)")
    move_seconds: Seconds | None = Field(default=None, description=f"the clock per move, 0..{MAX_SECONDS:g} (0: none)")
    away_seconds: Seconds | None = Field(
        default=None, description=f"after how long away a seat may be handed to a bot, 0..{MAX_SECONDS:g} (0: 60)")
    hints: bool | None = Field(default=None, description="'What would the bot play?' allowed")
    stand_in: Key | None = Field(default=None, description="the bot that moves when a person's clock runs out")
    chat: Key | None = Field(default=None, description="who writes in the chat: players, all or off")


class Claim(_Body):
    """``POST /api/games/{id}/claim``: an invite exchanged for the seat, under a name."""

    invite: Key
    name: Name | None = None


class Invitation(_Body):
    """``POST /api/games/{id}/invitation``: what an invite is (the invite in the body)."""

    invite: Key
    lang: Key = "en"


class Invite(_Body):
    """``POST /api/games/{id}/invite``: the creator takes a seat back and gets a new invite."""

    admin: Key
    seat: Seat


class Rematch(_Body):
    """``POST /api/games/{id}/rematch``: the same table again, for the holders of these tokens."""

    tokens: list[Key] = Field(max_length=MAX_TOKENS)


class TutorialStep(_Body):
    """``POST /api/tutorial/{game}/{index}``: a tutorial step with the learner's moves."""

    moves: list[Annotated[str, StringConstraints(max_length=MAX_ACTION)]] = Field(default=[], max_length=MAX_MOVES)
    lang: Key | None = None


# ---------------------------------------------------------------------- WebSocket messages
class _Msg(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", str_max_length=MAX_TEXT)


class Hello(_Msg):
    """The first message of a connection: the device's keys for this table, its language."""

    type: Literal["hello"]
    tokens: list[Key] = Field(default=[], max_length=MAX_TOKENS)
    admin: Key | None = None
    lang: Key = "en"


class Act(_Msg):
    type: Literal["act"]
    seat: Seat
    version: Version
    action: Annotated[str, StringConstraints(max_length=MAX_ACTION)]


class Undo(_Msg):
    type: Literal["undo"]
    seat: Seat
    version: Version


class Hint(_Msg):
    type: Literal["hint"]
    seat: Seat
    version: Version


class Review(_Msg):
    type: Literal["review"]
    seat: Seat


class Leave(_Msg):
    type: Literal["leave"]
    seat: Seat


class Reclaim(_Msg):
    type: Literal["reclaim"]
    seat: Seat


class Replace(_Msg):
    type: Literal["replace"]
    seat: Seat
    bot: Key = "medium"


class Rotate(_Msg):
    type: Literal["rotate"]
    seat: Seat


class Resume(_Msg):
    type: Literal["resume"]


class Ping(_Msg):
    type: Literal["ping"]


class Chat(_Msg):
    type: Literal["chat"]
    seat: Seat | None = None
    text: str
    name: Name | None = None


class ChatHistory(_Msg):
    type: Literal["chat_history"]


class ChatMute(_Msg):
    type: Literal["chat_mute"]
    seat: Seat | None = None
    muted: bool = True


MESSAGES: dict[str, type[_Msg]] = {
    "hello": Hello, "act": Act, "undo": Undo, "hint": Hint, "review": Review, "leave": Leave,
    "reclaim": Reclaim, "replace": Replace, "rotate": Rotate, "resume": Resume, "ping": Ping, "chat": Chat,
    "chat_history": ChatHistory, "chat_mute": ChatMute,
}
"""The client messages by ``type`` (docs/web.md, "Client messages"); a type not listed here is
left to the service, which refuses types it does not know."""


def check_message(msg: Mapping[str, Any]) -> None:
    """Refuse (``request/malformed``) a client message whose fields have the wrong type or bounds."""
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise _refuse("a message has a 'type' (text)")
    model = MESSAGES.get(kind)
    if model is None:
        return
    try:
        model.model_validate(msg)
    except ValidationError as exc:
        raise _refuse(describe(exc.errors(include_url=False), f"{kind}: ")) from None


def read_hello(raw: str, limit: int) -> dict[str, Any]:
    """The first message of a connection, checked (a ``hello``); raises TableroError."""
    msg = parse_message(raw, limit)
    if msg.get("type") != "hello":
        raise _refuse("the first message must be {'type': 'hello', 'tokens': [...]}")
    check_message(msg)
    msg.setdefault("tokens", [])
    return msg


async def read_text(websocket: WebSocket, refuse: Callable[[str], Awaitable[None]]) -> str:
    """The next text message of ``websocket``; a binary frame is answered through ``refuse`` (an
    error message) and skipped. Raises WebSocketDisconnect when the client goes."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
        text = message.get("text")
        if text is not None:
            return str(text)
        await refuse(json.dumps({"type": "error", "code": str(ErrorCode.MALFORMED),
                                 "message": "binary frames are not read: send JSON as text"}))
