"""Seat tokens (rotation, grace, expiry) and take-backs (a person's own decisions only; caps).

Used by :class:`~tablero.server.service.GameService`; the rules are in docs/deploy.md ("Tokens")
and docs/web.md. Everything here is kept in the game's row, so a restart changes nothing:

* a seat dict (``StoredGame.seats[i]``) holds ``token`` (the current token's hash),
  ``token_issued`` and ``token_used`` (epoch seconds: when it was issued, last used: a hello or
  a move), ``rotated`` (hashes of the seat's earlier tokens that rotation replaced, newest last)
  and ``grace_until`` (until when those still hold the seat: a short grace after an automatic
  rotation, none after one asked for);
* the game's settings hold ``bot_moves``: per seat (``"0"``...) the index of the last record
  entry a bot made for it (its own bot, a replacement, the clock's stand-in). A take-back that
  would undo that entry is refused: a person takes back their own decisions only.
"""

from __future__ import annotations

import hashlib
import secrets
import weakref
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tablero.core.errors import ErrorCode
from tablero.core.match import UNDO, Match
from tablero.server.settings import DAY, ServerSettings

KEEP_ROTATED = 8
"""How many rotated-away tokens a seat remembers (to hold it in the grace, or to tell a device
quietly to drop one)."""

TOUCH_EVERY = 3_600.0
"""A hello writes the seat's last use only when the stored one is older than this (seconds):
idle expiry counts in days, and a hello should not cost a database write each time."""

Seat = MutableMapping[str, Any]

_held: weakref.WeakKeyDictionary[Any, dict[int, str]] = weakref.WeakKeyDictionary()
"""Per open connection: the token it holds each seat with (to name the old one when it rotates)."""


def new_token() -> str:
    """A seat's token (also the creator's key): 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def key_hash(key: str) -> str:
    """What the store keeps of a seat's token, an invite or the creator's key: its SHA-256 (hex)."""
    return hashlib.sha256(key.encode()).hexdigest()


# ---------------------------------------------------------------------------- tokens
def issue(seat: Seat, token_hash: str, now: float) -> None:
    """``seat``'s token is now the one hashed ``token_hash``, issued and used ``now``."""
    seat["token"] = token_hash
    seat["token_issued"] = now
    seat["token_used"] = now


def used(seat: Seat, now: float) -> None:
    """The seat's token was used now (a move: saved with it)."""
    if seat.get("token"):
        seat["token_used"] = now


def revoke(seat: Seat, keep: int) -> None:
    """The creator takes the seat from its device: its token and the rotated ones stop working
    (remembered under ``revoked``, the last ``keep``, to tell the device why)."""
    dead = [h for h in (*seat.get("rotated", ()), seat.get("token")) if h]
    if dead:
        seat["revoked"] = [*seat.get("revoked", []), *dead][-keep:]
    seat["token"] = None
    seat["rotated"] = []
    seat["grace_until"] = 0.0


def _retire(seat: Seat, new_hash: str, now: float, grace_until: float) -> None:
    """Replace the current token by ``new_hash``; the old one joins ``rotated``."""
    seat["rotated"] = [*seat.get("rotated", []), seat["token"]][-KEEP_ROTATED:]
    seat["grace_until"] = grace_until
    issue(seat, new_hash, now)


def rotate(seat: Seat, new_hash: str, now: float) -> None:
    """A rotation asked for: the old token (and any still in a grace) stops working at once."""
    _retire(seat, new_hash, now, now)


def expired(seat: Seat, now: float, settings: ServerSettings) -> bool:
    """True if the seat's token was not used for ``token_idle_days``."""
    last = seat.get("token_used")
    return bool(settings.token_idle_days) and last is not None and now - float(last) >= settings.token_idle_days * DAY


def _current_seat(seats: Sequence[Seat], token_hash: str) -> int | None:
    return next((i for i, s in enumerate(seats) if s.get("token") == token_hash), None)


def _rotated_seat(seats: Sequence[Seat], token_hash: str) -> int | None:
    return next((i for i, s in enumerate(seats) if token_hash in s.get("rotated", ())), None)


def _in_grace(seat: Seat, now: float, settings: ServerSettings) -> bool:
    return bool(seat.get("token")) and now < float(seat.get("grace_until") or 0) and not expired(seat, now, settings)


def token_seat(seats: Sequence[Seat], token_hash: str, now: float, settings: ServerSettings) -> int | None:
    """The seat a token holds now (its current token, not expired; or a rotated one in its grace)."""
    i = _current_seat(seats, token_hash)
    if i is not None:
        return None if expired(seats[i], now, settings) else i
    r = _rotated_seat(seats, token_hash)
    return r if r is not None and _in_grace(seats[r], now, settings) else None


@dataclass
class Hello:
    """What a hello's tokens hold (see :func:`check_hello`)."""

    seats: set[int] = field(default_factory=set)
    refused: list[str] = field(default_factory=list)
    """Tokens that hold no seat: the device forgets them (``revoked`` with ``tokens``)."""
    revoked: list[int] = field(default_factory=list)
    """Seats the creator took back from the refused tokens."""
    told: list[dict[str, Any]] = field(default_factory=list)
    """``{"type": "token", "seat", "token", "old"}`` messages for the device: keep ``token``
    instead of ``old``."""
    by_seat: dict[int, str] = field(default_factory=dict)
    """The token the connection holds each seat with."""
    changed: bool = False
    """Seat dicts changed (a rotation, a last use): save the row."""


def check_hello(seats: Sequence[Seat], tokens: Sequence[str], now: float, settings: ServerSettings,
                make: Callable[[], str] = new_token) -> Hello:
    """The seats ``tokens`` hold at a hello, rotating and stamping as the rules say.

    * a seat's current token holds it unless unused for ``token_idle_days``; older than
      ``token_rotate_days`` it is replaced at once (the old one keeps the seat for
      ``token_grace_seconds``, for the device's other tabs);
    * a rotated-away token in its grace holds the seat and rotates it again (a tab that opened
      meanwhile, or a device whose ``token`` message was lost): the device gets a new one;
    * a rotated-away token of a seat this hello holds anyway is dropped quietly (a ``token``
      message naming it as ``old``); otherwise it holds nothing.
    """
    out = Hello()
    in_grace: dict[int, str] = {}
    stale: list[tuple[int, str]] = []
    for t in dict.fromkeys(tokens):
        h = key_hash(t)
        i = _current_seat(seats, h)
        if i is not None:
            if expired(seats[i], now, settings):
                out.refused.append(t)
            else:
                out.seats.add(i)
                out.by_seat[i] = t
            continue
        i = _rotated_seat(seats, h)
        if i is not None:
            if _in_grace(seats[i], now, settings):
                in_grace.setdefault(i, t)
            else:
                stale.append((i, t))
            continue
        out.refused.append(t)
        out.revoked += [k for k, s in enumerate(seats) if h in s.get("revoked", ())]
    fresh: set[int] = set()
    for i, t in in_grace.items():
        if i not in out.seats:  # rotate again: this device may not have the new token
            new = make()
            _retire(seats[i], key_hash(new), now, float(seats[i].get("grace_until") or now))
            out.seats.add(i)
            out.by_seat[i] = new
            fresh.add(i)
            out.changed = True
            out.told.append(_told(i, new, t))
        else:  # held by its current token too: the device drops this one
            out.told.append(_told(i, out.by_seat[i], t))
    for i, t in stale:
        if i in out.seats:
            out.told.append(_told(i, out.by_seat[i], t))
        else:
            out.refused.append(t)
    for i in sorted(out.seats - fresh):
        s = seats[i]
        if s.get("token_issued") is None:  # a token from before these rules: its time starts now
            issue(s, s["token"], now)
            out.changed = True
        elif settings.token_rotate_days and now - float(s["token_issued"]) >= settings.token_rotate_days * DAY:
            new = make()
            _retire(s, key_hash(new), now, now + settings.token_grace_seconds)
            out.told.append(_told(i, new, out.by_seat[i]))
            out.by_seat[i] = new
            out.changed = True
        elif now - float(s.get("token_used") or 0) >= TOUCH_EVERY:
            s["token_used"] = now
            out.changed = True
    return out


def _told(seat: int, token: str, old: str) -> dict[str, Any]:
    return {"type": "token", "seat": seat, "token": token, "old": old}


def remember(conn: object, by_seat: Mapping[int, str]) -> None:
    """The tokens ``conn`` holds its seats with (for :func:`held_with`)."""
    _held.setdefault(conn, {}).update(by_seat)


def held_with(conn: object, seat: int) -> str | None:
    """The token ``conn`` holds ``seat`` with, if known."""
    return _held.get(conn, {}).get(seat)


# ---------------------------------------------------------------------------- take-backs
def note_bot_move(settings: MutableMapping[str, Any], seat: int, index: int) -> None:
    """A bot made record entry ``index`` for ``seat`` (kept in the game's settings)."""
    settings.setdefault("bot_moves", {})[str(seat)] = index


def undos_this_turn(entries: Sequence[tuple[int, str]], seat: int, enough: int) -> int:
    """``seat``'s take-backs since another actor's last entry (counting stops at ``enough``)."""
    n = 0
    for actor, text in reversed(entries):
        if actor != seat:
            break
        if text == UNDO:
            n += 1
            if n >= enough:
                break
    return n


def undo_refusal(match: Match[Any, Any, Any], seat: int, game_settings: Mapping[str, Any],
                 settings: ServerSettings) -> tuple[ErrorCode, str] | None:
    """Why ``seat`` may not take back now (an error code and message), or None if it may.

    Refused: nothing to take back; the decision a take-back would undo (or one after it) was
    a bot's; ``max_undos_per_turn`` take-backs in a row already; the record holds
    ``max_record`` entries (moves go on: every game ends)."""
    index = match.undo_index(seat)
    if index is None:
        return ErrorCode.UNDO, f"seat {seat} has nothing to take back now"
    last_bot = game_settings.get("bot_moves", {}).get(str(seat))
    if last_bot is not None and index <= int(last_bot):
        return ErrorCode.UNDO, "a bot made that decision for this seat: only your own decisions can be taken back"
    cap = settings.max_undos_per_turn
    if undos_this_turn(match.record.entries, seat, cap) >= cap:
        return ErrorCode.UNDO_LIMIT, f"at most {cap} take-backs in a row: make a move"
    if len(match.record.entries) >= settings.max_record:
        return (ErrorCode.RECORD_FULL,
                f"this table's record is full ({settings.max_record} entries): no more take-backs, moves go on")
    return None
