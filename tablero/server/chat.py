"""Chat per table: who may write, limits, the creator's mute, and what goes over the wire.

The service hands chat messages of its connections here (:func:`handle`); this module stores
them (:meth:`Store.add_chat_line <tablero.server.store.Store.add_chat_line>`, a table of its
own, so the chat survives a restart) and tells every connection of the table. It knows the
service only through the few attributes it reads (:class:`ChatConn`), so it imports nothing of
it.

Who writes is the creator's choice at creation (the table's setting ``chat``):

* ``"players"`` (default): the seats write, spectators read;
* ``"all"``: seats and spectators write and read;
* ``"off"``: no chat at the table.

Messages (the client's; answers go to that connection only, errors as ``{"type": "error"}``):

* ``{"type": "chat", "seat": N | null, "text": "...", "name": "..."}`` — write as one of the
  connection's seats, or as a spectator (``seat`` null, a connection holding no seat; ``name``
  is the spectator's own, optional). Every connection of the table gets
  ``{"type": "chat", "i", "seat", "name", "text", "time"}``.
* ``{"type": "chat_history"}`` — the client asks once per connection (right after ``hello``);
  the answer is ``{"type": "chat_history", "mode", "muted", "max_chars", "messages": [...]}``,
  the newest :data:`HISTORY` messages. It is asked for rather than pushed so that clients that
  show no chat (bots' benchmarks, scripts) get only the updates they expect.
* ``{"type": "chat_mute", "seat": N | null, "muted": bool}`` — the creator mutes a seat (null:
  every spectator) for the table: its messages are refused until unmuted. Every connection gets
  ``{"type": "chat_state", "mode", "muted"}``.

The text is kept as written, except that control and format characters are removed (line breaks
and tabs become spaces) and the ends are trimmed; the client shows it as text, never as HTML.
"""

from __future__ import annotations

import json
import unicodedata
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Protocol

from tablero.core.errors import ErrorCode, TableroError
from tablero.server.store import ChatLine, Store, StoredGame

CHAT_MODES = ("players", "all", "off")
"""The table's chat setting: seats write (spectators read), everyone writes, no chat."""

DEFAULT_MODE = "players"
MAX_CHARS = 300
"""Longest message, in characters after cleaning."""
MAX_NAME = 24
"""Longest spectator name (as a seat's name)."""
RATE_COUNT = 5
RATE_SECONDS = 10.0
"""At most :data:`RATE_COUNT` messages per :data:`RATE_SECONDS` seconds per connection."""
HISTORY = 200
"""Messages a connection gets when it asks for the history."""

MESSAGE_TYPES = frozenset({"chat", "chat_history", "chat_mute"})
"""The client messages :func:`handle` answers."""

_KEEP = frozenset("\u200d")
"""Format characters kept: the zero-width joiner holds emoji sequences together."""
_SPACE = frozenset("\t\n\r\v\f\x85\u2028\u2029")


class ChatConn(Protocol):
    """What the chat reads of a connection (the service's ``Conn``)."""

    @property
    def send(self) -> Callable[[str], Awaitable[None]]: ...
    @property
    def seats(self) -> frozenset[int]: ...
    @property
    def admin(self) -> bool: ...


_sent: weakref.WeakKeyDictionary[ChatConn, deque[float]] = weakref.WeakKeyDictionary()
"""Per open connection: when its last accepted messages were sent (the service's clock)."""


def chat_mode(value: object) -> str:
    """The ``chat`` setting of a new table, checked (None or "" → the default)."""
    if value is None or value == "":
        return DEFAULT_MODE
    if not isinstance(value, str) or value not in CHAT_MODES:
        raise TableroError(f"chat: one of {', '.join(CHAT_MODES)} (got {value!r})", code=ErrorCode.OPTION)
    return value


def mode_of(stored: StoredGame) -> str:
    """The table's chat setting (tables made before the chat: the default)."""
    mode = stored.settings.get("chat", DEFAULT_MODE)
    return mode if mode in CHAT_MODES else DEFAULT_MODE


def muted_of(stored: StoredGame) -> list[int | None]:
    """The seats the creator muted for the table (None: the spectators)."""
    return list(stored.settings.get("chat_muted", []))


def clean(text: str) -> str:
    """``text`` without control or format characters (line breaks and tabs become spaces), trimmed.

    What stays is shown as text by the client; this only keeps out what would mislead when
    shown (bidirectional overrides, invisible characters) or cannot be stored (NUL in
    PostgreSQL, lone surrogates).
    """
    out = []
    for ch in text:
        if ch in _SPACE:
            out.append(" ")
        elif ch in _KEEP or unicodedata.category(ch) not in ("Cc", "Cf", "Cs"):
            out.append(ch)
    return "".join(out).strip()


def line_json(line: ChatLine) -> dict[str, Any]:
    return {"i": line.idx, "seat": line.seat, "name": line.name, "text": line.text, "time": line.time}


def state_json(stored: StoredGame) -> dict[str, Any]:
    return {"type": "chat_state", "mode": mode_of(stored), "muted": muted_of(stored)}


async def handle(msg: Mapping[str, Any], conn: ChatConn, *, store: Store, stored: StoredGame,
                 conns: Iterable[ChatConn], clock: Callable[[], float]) -> None:
    """One chat message of ``conn`` (a type in :data:`MESSAGE_TYPES`); refusals raise and store nothing."""
    kind = msg.get("type")
    if kind == "chat_history":
        history = store.chat_history(stored.id, HISTORY) if mode_of(stored) != "off" else []
        await conn.send(json.dumps({**state_json(stored), "type": "chat_history", "max_chars": MAX_CHARS,
                                    "messages": [line_json(x) for x in history]}))
    elif kind == "chat_mute":
        await _mute(msg, conn, store=store, stored=stored, conns=conns)
    else:
        line = _accept(msg, conn, stored=stored, now=clock())
        stored_line = store.add_chat_line(stored.id, line.seat, line.name, line.text, line.time)
        _sent.setdefault(conn, deque()).append(line.time)
        await _tell(conns, json.dumps({"type": "chat", **line_json(stored_line)}))


def _accept(msg: Mapping[str, Any], conn: ChatConn, *, stored: StoredGame, now: float) -> ChatLine:
    """The message as it will be stored, or the reason it is refused (in the order people meet them)."""
    mode = mode_of(stored)
    if mode == "off":
        raise TableroError("the chat is off at this table", code=ErrorCode.CHAT_OFF)
    seat = msg.get("seat")
    if seat is None:
        if conn.seats:
            raise TableroError("chat: say which of your seats writes ('seat')", code=ErrorCode.MALFORMED)
        if mode != "all":
            raise TableroError("only the players write in this table's chat; spectators read",
                               code=ErrorCode.CHAT_FORBIDDEN)
        raw_name = msg.get("name")
        name = clean(raw_name)[:MAX_NAME] if isinstance(raw_name, str) else ""
    elif isinstance(seat, int) and not isinstance(seat, bool) and seat in conn.seats:
        name = stored.players[seat]
    else:
        raise TableroError("this connection does not hold that seat", code=ErrorCode.TOKEN)
    if seat in muted_of(stored):
        raise TableroError("the table's creator has muted you in the chat", code=ErrorCode.CHAT_MUTED)
    raw = msg.get("text")
    if not isinstance(raw, str):
        raise TableroError("chat: 'text' must be the message's text", code=ErrorCode.MALFORMED)
    text = clean(raw)
    if not text:
        raise TableroError("the message is empty", code=ErrorCode.CHAT_EMPTY)
    if len(text) > MAX_CHARS:
        raise TableroError(f"a chat message has at most {MAX_CHARS} characters (this one has {len(text)})",
                           code=ErrorCode.CHAT_TOO_LONG)
    sent = _sent.setdefault(conn, deque())
    while sent and sent[0] <= now - RATE_SECONDS:
        sent.popleft()
    if len(sent) >= RATE_COUNT:
        wait = max(1, round(sent[0] + RATE_SECONDS - now))
        raise TableroError(f"slow down: at most {RATE_COUNT} messages in {RATE_SECONDS:g} seconds "
                           f"(the next in {wait} s)", code=ErrorCode.CHAT_TOO_FAST)
    return ChatLine(idx=-1, seat=seat, name=name, text=text, time=now)


async def _mute(msg: Mapping[str, Any], conn: ChatConn, *, store: Store, stored: StoredGame,
                conns: Iterable[ChatConn]) -> None:
    if not conn.admin:
        raise TableroError("only the table's creator may mute a seat for the table", code=ErrorCode.TOKEN)
    seat, muted = msg.get("seat"), msg.get("muted", True)
    if not isinstance(muted, bool) or not (
            seat is None or (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(stored.players))):
        raise TableroError("chat_mute: give a 'seat' of this game (null: the spectators) and 'muted'",
                           code=ErrorCode.MALFORMED)
    now_muted = set(muted_of(stored))
    if muted:
        now_muted.add(seat)
    else:
        now_muted.discard(seat)
    stored.settings["chat_muted"] = sorted(now_muted, key=lambda s: -1 if s is None else s)
    store.save_row(stored)
    await _tell(conns, json.dumps(state_json(stored)))


async def _tell(conns: Iterable[ChatConn], text: str) -> None:
    """Send ``text`` to every connection; one that fails is left to the service's next broadcast."""
    for c in list(conns):
        try:
            await c.send(text)
        except Exception:  # a closed socket: its disconnect handler removes it
            continue
