"""The game service: tables in play, seats and tokens, bots, clocks, and who is told what.

No web framework here: the HTTP/WebSocket layer (:mod:`tablero.server.app`) calls these
methods and passes each connection as a ``send`` coroutine. The service depends on games only
through the core protocol and the registry.

Order of every change: validate and apply in memory → commit to the store → tell the
connections. A failed commit reloads the game from the store, so memory never runs ahead of
what is saved; a crash after the commit loses nothing, because clients resume from the
store's state when they reconnect.

Searches (bots that think, hints, reviews) run in :class:`~tablero.server.workers.Workers`,
never on the event loop. A bot's search starts from one table version; while it runs the
table may change (a move, a take-back, a person taking the seat back, the game reloaded), and
then its result is dropped and the bot is asked again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from random import Random
from typing import Any

from tablero.bots.registry import PLAYER_LEVELS, UnknownBotError, bot_names, is_peeking, make_bot
from tablero.bots.search.ismcts import Budget
from tablero.core.errors import ErrorCode, TableroError
from tablero.core.match import Match
from tablero.core.messages import LANGUAGES, Message, Translator
from tablero.core.protocol import Game
from tablero.core.record import GameRecord
from tablero.core.rng import derive_seed
from tablero.registry import GAMES, get_game
from tablero.server import chat
from tablero.server.advanced import data_changes, data_meta
from tablero.server.i18n import WEB_CATALOGUE
from tablero.server.lobby import option_meta, option_words, seat_name
from tablero.server.payload import SEAT_COLOURS, SEAT_LETTERS, legal_moves, seat_payload
from tablero.server.store import Store, StoredGame
from tablero.server.summary import Summary
from tablero.server.workers import INLINE_BOTS, REVIEW_BUDGET, ReviewJob, ThinkJob, Workers, think_job

log = logging.getLogger("tablero.server")

Send = Callable[[str], Awaitable[None]]
Clock = Callable[[], float]

SEAT_KINDS = ("you", "local", "person", "bot")
"""``you``/``local``: played on the creating device (several = hot-seat); ``person``: an
invite link; ``bot``: a bot by name."""

MAX_MESSAGE = 16_384
"""Largest client message (bytes of JSON) the server reads."""

MAX_NAME = 24
"""Longest seat name (characters)."""

KEEP_OLD = 8
"""How many used, replaced and revoked keys a seat remembers (to tell people why a link fails)."""

INVITE_REFUSED = {
    "taken": "this invite was already used: somebody took the seat with it",
    "revoked": "the table's creator replaced this invite with a new one",
    "unknown": "this is no invite of this table",
}

DEFAULT_BOT = "medium"
"""The bot of a new bot seat, and of "let a bot play" when the request names none."""

HINT_BOT = "medium"
"""The search that answers "What would the bot play?"."""


class ServiceError(TableroError):
    """A request the service refuses; ``code`` is a stable slug for clients."""


def error_message(exc: TableroError) -> str:
    return json.dumps({"type": "error", "code": str(exc.code), "message": str(exc)})


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_id() -> str:
    return secrets.token_urlsafe(9)


@dataclass(eq=False)
class Conn:
    """One open connection: the seats it holds (tokens checked), its language, what it got."""

    send: Send
    seats: frozenset[int]
    admin: bool
    lang: str
    sent: dict[int | None, int] = field(default_factory=dict)
    """Per viewer: record entries whose log lines this connection has been sent."""
    notes_sent: dict[int | None, int] = field(default_factory=dict)
    """Per viewer: how many of the table's notes (hint lines) this connection has been sent."""
    reviewing: bool = False


@dataclass(eq=False)
class LiveGame:
    stored: StoredGame
    game: Game[Any, Any, Any]
    match: Match[Any, Any, Any]
    conns: set[Conn] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    away_since: dict[int, float] = field(default_factory=dict)
    bots_running: bool = False
    translators: dict[str, Translator] = field(default_factory=dict)
    thinking: dict[str, Any] | None = None
    """The bot search running now: ``{"seat", "bot", "version", "started"}`` (``started``: the service's timer)."""
    thought: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Per seat: how long its bot's last search took and which entry it made ({"seconds", "i"})."""
    watchers: set[asyncio.Event] = field(default_factory=set)
    """Set on every change of the table (entries, seating): a running search checks it is still current."""
    reviews: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    """Reviews of a finished game, per (seat, language)."""
    summary: Summary | None = None
    """The end screen's summary of a finished game (:mod:`tablero.server.summary`), built when first asked."""

    def tr(self, lang: str) -> Translator:
        t = self.translators.get(lang)
        if t is None:
            t = Translator(lang, [self.game.catalogue(), WEB_CATALOGUE], self.names(lang))
            self.translators[lang] = t
        return t

    def names(self, lang: str) -> list[str]:
        """The seats' names as ``lang`` shows them (a person not yet joined: "Player B"/"Spieler B").

        Whoever changes a name (a person joining) clears ``translators``, so every line rendered
        afterwards (and every viewer's whole log, re-sent) says the new name.
        """
        return [seat_name(n, i, lang) for i, n in enumerate(self.stored.players)]

    @property
    def version(self) -> int:
        return len(self.match.record.entries)

    def controller(self, seat: int) -> str | None:
        """The bot name playing ``seat`` now, or None when a person plays it."""
        s = self.stored.seats[seat]
        if s["kind"] == "bot":
            return str(s["bot"])
        replaced = s.get("replaced")
        return None if replaced is None else str(replaced)

    def connected(self, seat: int) -> bool:
        return any(seat in c.seats for c in self.conns)

    @property
    def notes(self) -> list[list[Any]]:
        """The table's notes: public log lines that are no record entries.

        Each is ``[entry index, seat]`` (the seat asked for a hint) or ``[entry index, seat, kind]``
        with ``kind`` ``"timeout"`` (the seat's clock ran out: the stand-in moves) or ``"absent"``
        (the seat is away: a bot plays it now); the line is ``web.<kind>`` of ``i18n.WEB_CATALOGUE``.
        """
        notes: list[list[Any]] = self.stored.settings.setdefault("hint_notes", [])
        return notes

    def touch(self) -> None:
        """Tell running searches that the table changed."""
        for w in self.watchers:
            w.set()


class GameService:
    def __init__(
        self,
        store: Store,
        *,
        clock: Clock = time.time,
        bot_delay: float = 0.0,
        workers: Workers | None = None,
        review_budget: Budget = REVIEW_BUDGET,
    ) -> None:
        self.store = store
        self.clock = clock
        self.bot_delay = bot_delay
        self.workers = workers if workers is not None else Workers()
        self.review_budget = review_budget
        self.hint_bot = HINT_BOT
        self.timer: Clock = time.monotonic
        """Measures how long searches take (real time, whatever ``clock`` says)."""
        self.live: dict[str, LiveGame] = {}
        self._tasks: set[asyncio.Future[Any]] = set()

    # ------------------------------------------------------------------ catalogue of games
    @staticmethod
    def games_meta(lang: str = "en", *, data: bool = True) -> list[dict[str, Any]]:
        """Every game for the lobby: players, bot levels, and its options in ``lang``
        (:func:`~tablero.server.lobby.option_meta`: label, help, choices with their labels) and
        rules data (:func:`~tablero.server.advanced.data_meta`; none with ``data=False``)."""
        out = []
        for g in GAMES.values():
            out.append({
                "id": g.id,
                "title": g.title,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "bots": [b for b in PLAYER_LEVELS if b in bot_names(g.id)],
                "default_bot": DEFAULT_BOT,
                "options": option_meta(g, lang),
                "data": data_meta(g, lang) if data else [],  # the lobby's advanced section (rules data)
            })
        return out

    # ------------------------------------------------------------------ create, claim, load
    def create(self, spec: Mapping[str, Any]) -> dict[str, Any]:
        """Create a table; returns the game id, the creator's tokens and the invites."""
        game = get_game(str(spec.get("game", "")))
        seats_in = spec.get("seats")
        if not isinstance(seats_in, list) or not seats_in:
            raise ServiceError("seats: give one entry per seat", code=ErrorCode.PLAYERS)
        n = len(seats_in)
        options = game.resolve_options(n, spec.get("options") or {})
        stand_in = spec.get("stand_in") or self._default_stand_in(game.id)
        if not isinstance(stand_in, str):
            raise ServiceError("stand_in: give a bot's name", code=ErrorCode.OPTION)
        settings: dict[str, Any] = {
            "move_seconds": float(spec.get("move_seconds") or 0),
            "away_seconds": float(spec.get("away_seconds") or 60),
            "hints": bool(spec.get("hints", False)),
            "stand_in": self.check_bot(stand_in, game.id, "stand_in: "),
            "hint_notes": [],
            "chat": chat.chat_mode(spec.get("chat")),
            "creator_seat": next((i for i, s in enumerate(seats_in)
                                  if isinstance(s, Mapping) and s.get("kind") in ("you", "local")), None),
        }
        if settings["move_seconds"] < 0 or settings["away_seconds"] < 0:
            raise ServiceError("move_seconds and away_seconds must not be negative", code=ErrorCode.OPTION)
        seats: list[dict[str, Any]] = []
        tokens: dict[int, str] = {}
        invites: dict[int, str] = {}
        names: list[str] = []
        for i, s in enumerate(seats_in):
            if not isinstance(s, Mapping):
                raise ServiceError(f"seat {i}: expected an object", code=ErrorCode.PLAYERS)
            kind = str(s.get("kind", ""))
            if kind not in SEAT_KINDS:
                raise ServiceError(f"seat {i}: kind must be one of {', '.join(SEAT_KINDS)}", code=ErrorCode.PLAYERS)
            name = str(s.get("name") or "").strip()[:24]
            entry: dict[str, Any] = {"kind": kind, "bot": None, "token": None, "invite": None, "replaced": None,
                                     "left": False}
            if kind == "bot":
                bot = self.check_bot(str(s.get("bot") or DEFAULT_BOT), game.id, f"seat {i}: ")
                entry["bot"] = bot
                name = name or f"Bot {SEAT_LETTERS[i]}"  # the level shows beside the name, in words
            elif kind == "person":
                invite = secrets.token_urlsafe(18)
                entry["invite"] = _hash(invite)
                invites[i] = invite  # the name (if any) is a suggestion: the person chooses at join
            else:
                token = secrets.token_urlsafe(24)
                entry["token"] = _hash(token)
                tokens[i] = token
            # an empty name shows as "Player B" in each viewer's language (LiveGame.names)
            seats.append(entry)
            names.append(name)
        admin = secrets.token_urlsafe(24)
        seed = secrets.randbits(63)
        match: Match[Any, Any, Any] = Match(game, names, options=options, seed=seed, undo=True)
        now = self.clock()
        stored = StoredGame(
            id=_new_id(), game=game.id, created=now, updated=now, status="running", players=names,
            options=match.options, seed=seed, seats=seats, admin_hash=_hash(admin), settings=settings,
            deadlines={}, rematch=None, version=0, entries=list(match.record.entries),
        )
        live = LiveGame(stored=stored, game=game, match=match)
        live.away_since = {i: now for i, s in enumerate(seats) if s["kind"] != "bot"}
        self._update_deadlines(live, set())
        self._set_status(live)
        self.store.create(stored)
        self.live[stored.id] = live
        self._kick_bots(live)
        return {"id": stored.id, "admin": admin, "tokens": tokens, "invites": invites}

    @staticmethod
    def check_bot(name: str, game_id: str, where: str = "") -> str:
        """``name`` as a bot of this server for ``game_id`` (normalised); refuses peeking and unknown bots."""
        bot = name.strip().lower()
        if is_peeking(bot):
            raise ServiceError(f"{where}{bot} looks at the hidden cards (a measuring baseline); "
                               "it never plays at a table", code=ErrorCode.PEEKING)
        try:
            make_bot(bot, game_id)
        except UnknownBotError as exc:
            raise ServiceError(f"{where}{exc}", code=ErrorCode.PLAYERS) from None
        return bot

    @staticmethod
    def _default_stand_in(game_id: str) -> str:
        return "greedy" if "greedy" in bot_names(game_id) else "random"

    def get(self, game_id: str) -> LiveGame:
        live = self.live.get(game_id)
        if live is not None:
            return live
        stored = self.store.load(game_id) if len(game_id) <= 40 else None
        if stored is None:
            raise ServiceError(f"no game {game_id!r}", code=ErrorCode.UNKNOWN_GAME)
        game = get_game(stored.game)
        record = GameRecord(game=game.id, rules_version=game.rules_version, data_version=game.data_version,
                            players=stored.players, options=stored.options, seed=stored.seed,
                            entries=list(stored.entries))
        match = Match.from_record(game, record, undo=True)
        live = LiveGame(stored=stored, game=game, match=match)
        now = self.clock()
        for seat in range(len(stored.seats)):
            live.away_since[seat] = now
        self.live[game_id] = live
        start = len(stored.entries)
        stored.entries = list(match.record.entries)  # longer only if forced steps were not yet saved
        self._set_status(live)
        self.store.append(stored, start)
        self._kick_bots(live)
        return live

    def resume_all(self) -> int:
        """Load every running game (after a start): bots and clocks go on. Returns the count loaded.

        A stored game this version cannot load (its options or data overrides no longer pass
        the checks, a record of other rules) is left out with a warning: the server starts for
        every other table, and opening that one gives its error."""
        loaded = 0
        for gid in self.store.ids("running"):
            try:
                self.get(gid)
            except TableroError as exc:
                log.warning("game %s is not resumed: %s", gid, exc)
                continue
            loaded += 1
        return loaded

    # ---- invites: claim, what an invite is, a new one (links and names, docs/web.md)
    @staticmethod
    def _invite_status(live: LiveGame, invite: str) -> tuple[str, int | None]:
        """What ``invite`` is at this table: ``open`` (it claims seat n), ``taken`` (somebody joined
        with it), ``revoked`` (the creator made a new one for its seat) or ``unknown``."""
        h = _hash(invite)
        seats = live.stored.seats
        for i, s in enumerate(seats):
            if s["kind"] == "person" and s["invite"] == h:
                return "open", i
        for i, s in enumerate(seats):
            if h in s.get("spent", ()):
                return "taken", i
            if h in s.get("replaced_invites", ()):
                return "revoked", i
        return "unknown", None

    @staticmethod
    def creator_seat(live: LiveGame) -> int | None:
        """The seat of the person who made the table (their first own seat), if they play."""
        seat = live.stored.settings.get("creator_seat")
        if isinstance(seat, int) and 0 <= seat < len(live.stored.seats):
            return seat
        return next((i for i, s in enumerate(live.stored.seats) if s["kind"] in ("you", "local")), None)

    def invitation(self, game_id: str, invite: str, lang: str) -> dict[str, Any]:
        """What the join page shows: the invite's status and seat, who invited, the game, its
        options in words and the seats (who is already there), in ``lang``."""
        live = self.get(game_id)
        if lang not in LANGUAGES:
            raise ServiceError(f"unknown language {lang!r}", code=ErrorCode.OPTION)
        status, seat = self._invite_status(live, invite)
        names = live.names(lang)
        creator = self.creator_seat(live)
        suggested = ""
        if status == "open" and seat is not None:
            s = live.stored.seats[seat]
            if not s.get("spent") and not s.get("revoked"):
                suggested = live.stored.players[seat]  # the creator's suggestion for a first join
        return {
            "status": status, "seat": seat, "suggested": suggested,
            "game": live.game.id, "title": live.game.title, "over": live.match.is_over(),
            "inviter": None if creator is None else names[creator],
            "options": option_words(live.game, live.stored.options, names, lang),
            "data": data_changes(live.game, live.stored.options, live.tr(lang)),  # rules data changed
            "move_seconds": live.stored.settings["move_seconds"],  # the clock per move (0: none)
            "seats": self.public_seats(live, lang),
        }

    async def claim(self, game_id: str, invite: str, name: str | None = None) -> dict[str, Any]:
        """Exchange an invite for the seat's own token (an invite works once) under the person's
        name, which every viewer then sees everywhere (seat bar, every log line: logs are re-sent)."""
        live = self.get(game_id)
        status, seat = self._invite_status(live, invite)
        if status != "open" or seat is None:
            raise ServiceError(INVITE_REFUSED[status], code=ErrorCode.TOKEN)
        # the name given, else the one the creator suggested for the seat; never none
        clean = " ".join(str(name or "").split())[:MAX_NAME] or live.stored.players[seat]
        if not clean:
            raise ServiceError("give your name: the others see it at the table", code=ErrorCode.MALFORMED)
        token = secrets.token_urlsafe(24)
        async with live.lock:
            s = live.stored.seats[seat]
            if s["invite"] != _hash(invite):  # another claim (or a new invite) came first
                raise ServiceError(INVITE_REFUSED["taken"], code=ErrorCode.TOKEN)
            s["spent"] = [*s.get("spent", []), s["invite"]][-KEEP_OLD:]
            s["invite"] = None
            s["token"] = _hash(token)
            live.stored.players[seat] = clean
            live.match.record.players[seat] = clean
            live.translators.clear()
            live.stored.updated = self.clock()
            self.store.save_row(live.stored)
            live.touch()
        self._resend_logs(live)
        await self._broadcast(live)
        return {"seat": seat, "token": token}

    async def reinvite(self, game_id: str, admin: object, seat: object) -> dict[str, Any]:
        """The creator takes a seat from the device that holds it and invites anew.

        The seat's token (and any invite still open for it) stop working; a connection holding
        the seat hears ``{"type": "revoked", "seats": [n]}`` and watches as a spectator from then
        on. Returns the new invite, for the creator alone.
        """
        live = self.get(game_id)
        if not isinstance(admin, str) or _hash(admin) != live.stored.admin_hash:
            raise ServiceError("only the table's creator may invite anew", code=ErrorCode.TOKEN)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(live.stored.seats):
            raise ServiceError("invite: give a 'seat' of this game", code=ErrorCode.MALFORMED)
        s = live.stored.seats[seat]
        if s["kind"] == "bot":
            raise ServiceError("a bot plays this seat", code=ErrorCode.PLAYERS)
        if live.match.is_over():
            raise ServiceError("the game is over", code=ErrorCode.PLAYERS)
        invite = secrets.token_urlsafe(18)
        async with live.lock:
            if s["token"]:
                s["revoked"] = [*s.get("revoked", []), s["token"]][-KEEP_OLD:]
            if s["invite"]:
                s["replaced_invites"] = [*s.get("replaced_invites", []), s["invite"]][-KEEP_OLD:]
            s["kind"] = "person"
            s["token"] = None
            s["invite"] = _hash(invite)
            s["left"] = False
            live.away_since[seat] = self.clock()
            live.stored.updated = self.clock()
            self.store.save_row(live.stored)
            live.touch()
        for conn in list(live.conns):
            if seat in conn.seats:
                conn.seats = conn.seats - {seat}
                conn.sent.pop(seat, None)
                conn.notes_sent.pop(seat, None)
                try:
                    await conn.send(json.dumps({"type": "revoked", "seats": [seat]}))
                except Exception:
                    live.conns.discard(conn)
        await self._broadcast(live)
        return {"seat": seat, "invite": invite}

    @staticmethod
    def _resend_logs(live: LiveGame) -> None:
        """Every connection gets its whole log again with the next update (a name changed)."""
        for conn in live.conns:
            conn.sent.clear()
            conn.notes_sent.clear()

    # ------------------------------------------------------------------ connections
    def seats_of(self, live: LiveGame, tokens: list[str]) -> frozenset[int]:
        hashes = {_hash(t) for t in tokens if isinstance(t, str)}
        seats = frozenset(i for i, s in enumerate(live.stored.seats) if s["token"] and s["token"] in hashes)
        if len(seats) != len(hashes):
            raise ServiceError("a token does not hold a seat of this game", code=ErrorCode.TOKEN)
        return seats

    @staticmethod
    def held_seats(live: LiveGame, tokens: list[str]) -> tuple[frozenset[int], list[str], list[int]]:
        """The seats ``tokens`` hold; the tokens that hold none; the seats of those the creator revoked."""
        by_hash = {s["token"]: i for i, s in enumerate(live.stored.seats) if s["token"]}
        seats: set[int] = set()
        refused: list[str] = []
        revoked: list[int] = []
        for t in tokens:
            h = _hash(t)
            if h in by_hash:
                seats.add(by_hash[h])
                continue
            refused.append(t)
            revoked += [i for i, s in enumerate(live.stored.seats) if h in s.get("revoked", ())]
        return frozenset(seats), refused, revoked

    async def connect(self, game_id: str, send: Send, *, tokens: list[str], admin: str | None,
                      lang: str) -> Conn:
        live = self.get(game_id)
        if lang not in LANGUAGES:
            raise ServiceError(f"unknown language {lang!r}", code=ErrorCode.OPTION)
        seats, refused, revoked = self.held_seats(live, tokens)
        is_admin = bool(admin) and _hash(str(admin)) == live.stored.admin_hash
        if admin and not is_admin:
            raise ServiceError("wrong creator token", code=ErrorCode.TOKEN)
        if refused:  # this device's keys that hold no seat (any more): it watches, and forgets them
            await send(json.dumps({"type": "revoked", "tokens": refused, "seats": revoked}))
        conn = Conn(send=send, seats=seats, admin=is_admin, lang=lang)
        live.conns.add(conn)
        for s in seats:
            live.away_since.pop(s, None)
            live.stored.seats[s]["left"] = False
        await self._broadcast(live)
        return conn

    async def disconnect(self, game_id: str, conn: Conn) -> None:
        live = self.live.get(game_id)
        if live is None:
            return
        if conn in live.conns:
            live.conns.discard(conn)
            now = self.clock()
            for s in conn.seats:
                if not live.connected(s):
                    live.away_since[s] = now
            await self._broadcast(live)
        self._forget_if_done(live)

    def _forget_if_done(self, live: LiveGame) -> None:
        """Drop a finished game nobody watches from memory; :meth:`get` reloads it from the store.

        Without this every game ever played stays in ``live``: memory grows without end, and
        with it the pauses of Python's full garbage collections (hundreds of ms after minutes
        of play), which every connected client then waits through.
        """
        if live.match.is_over() and not live.conns and self.live.get(live.stored.id) is live:
            del self.live[live.stored.id]

    async def handle(self, game_id: str, conn: Conn, raw: str) -> None:
        """One client message; errors go back to that connection only and change nothing."""
        try:
            if len(raw.encode()) > MAX_MESSAGE:
                raise ServiceError(f"message too large (over {MAX_MESSAGE} bytes)", code=ErrorCode.TOO_LARGE)
            try:
                msg = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise ServiceError(f"malformed JSON: {exc.msg}", code=ErrorCode.MALFORMED) from None
            if not isinstance(msg, dict):
                raise ServiceError("expected a JSON object", code=ErrorCode.MALFORMED)
            await self._dispatch(self.get(game_id), conn, msg)
        except TableroError as exc:
            await conn.send(error_message(exc))

    async def _dispatch(self, live: LiveGame, conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "ping":
            await conn.send(json.dumps({"type": "pong"}))
            return
        if kind == "review":
            await self.review(live, conn, msg.get("seat"))
            return
        if kind in ("act", "undo", "leave", "reclaim", "hint"):
            seat = msg.get("seat")
            if not isinstance(seat, int) or seat not in conn.seats:
                raise ServiceError("this connection does not hold that seat", code=ErrorCode.TOKEN)
            if kind == "act":
                text = msg.get("action")
                if not isinstance(text, str):
                    raise ServiceError("act: 'action' must be the move's text", code=ErrorCode.MALFORMED)
                await self.act(live, seat, msg.get("version"), text)
            elif kind == "undo":
                await self.undo(live, seat, msg.get("version"))
            elif kind == "hint":
                await self.hint(live, conn, seat, msg.get("version"))
            elif kind == "leave":
                live.stored.seats[seat]["left"] = True
                self.store.save_row(live.stored)
                await self._broadcast(live)
            else:
                await self.reclaim(live, seat)
            return
        if kind == "replace":
            if not conn.admin:
                raise ServiceError("only the game's creator may hand a seat to a bot", code=ErrorCode.TOKEN)
            seat, bot = msg.get("seat"), msg.get("bot", DEFAULT_BOT)
            if not isinstance(seat, int) or not isinstance(bot, str):
                raise ServiceError("replace: give 'seat' and 'bot'", code=ErrorCode.MALFORMED)
            await self.replace(live, seat, bot)
            return
        if kind in chat.MESSAGE_TYPES:
            await chat.handle(msg, conn, store=self.store, stored=live.stored, conns=live.conns, clock=self.clock)
            return
        raise ServiceError(f"unknown message type {kind!r}", code=ErrorCode.MALFORMED)

    # ------------------------------------------------------------------ changes
    def _check_version(self, live: LiveGame, version: object) -> None:
        if not isinstance(version, int) or isinstance(version, bool):
            raise ServiceError("give the 'version' of the table you saw", code=ErrorCode.MALFORMED)
        if version != live.version:
            raise ServiceError(
                f"the table has changed (version {live.version}, you saw {version})", code=ErrorCode.STALE)

    async def act(self, live: LiveGame, seat: int, version: object, text: str) -> None:
        async with live.lock:
            self._check_version(live, version)
            if live.controller(seat) is not None:
                raise ServiceError("a bot plays this seat now; take it back first", code=ErrorCode.NOT_YOUR_TURN)
            start = live.version
            live.match.act(seat, text)
            self.commit(live, start, {seat})
        await self._broadcast(live)
        self._kick_bots(live)

    async def undo(self, live: LiveGame, seat: int, version: object) -> None:
        async with live.lock:
            self._check_version(live, version)
            start = live.version
            live.match.undo(seat)
            self.commit(live, start, {seat})
        await self._broadcast(live)

    async def replace(self, live: LiveGame, seat: int, bot: str) -> None:
        if not 0 <= seat < len(live.stored.seats):
            raise ServiceError(f"no seat {seat}", code=ErrorCode.PLAYERS)
        s = live.stored.seats[seat]
        if s["kind"] == "bot" or s["replaced"] is not None:
            raise ServiceError("a bot already plays this seat", code=ErrorCode.PLAYERS)
        away = live.away_since.get(seat)
        gone = s["left"] or (away is not None and self.clock() - away >= live.stored.settings["away_seconds"])
        bot = self.check_bot(bot, live.game.id)
        if not gone:
            raise ServiceError("that player is still here", code=ErrorCode.PLAYERS)
        async with live.lock:
            s["replaced"] = bot
            live.notes.append([max(0, live.version - 1), seat, "absent"])  # "B is away; a bot plays for B"
            live.stored.deadlines.pop(str(seat), None)
            self.store.save_row(live.stored)
            live.touch()
        await self._broadcast(live)
        self._kick_bots(live)

    async def reclaim(self, live: LiveGame, seat: int) -> None:
        async with live.lock:
            live.stored.seats[seat]["replaced"] = None
            live.stored.seats[seat]["left"] = False
            self._update_deadlines(live, set())
            self.store.save_row(live.stored)
            live.touch()
        await self._broadcast(live)

    def commit(self, live: LiveGame, start: int, acted: set[int]) -> None:
        """Commit the entries from ``start`` on; on failure, reload from the store and raise.

        Every accepted change passes here once, after it is applied in memory and before any
        connection hears of it (the crash tests stop the server process right after it).
        """
        stored = live.stored
        stored.entries = list(live.match.record.entries)
        stored.updated = self.clock()
        self._update_deadlines(live, acted)
        self._set_status(live)
        live.touch()
        try:
            self.store.append(stored, start)
        except Exception:
            self.live.pop(stored.id, None)
            raise

    def _set_status(self, live: LiveGame) -> None:
        live.stored.status = "over" if live.match.is_over() else "running"

    def _update_deadlines(self, live: LiveGame, acted: set[int]) -> None:
        secs = live.stored.settings.get("move_seconds", 0)
        d = live.stored.deadlines
        pending = set(live.match.pending())
        for k in list(d):
            if int(k) in acted or int(k) not in pending:
                del d[k]
        if not secs:
            return
        now = self.clock()
        for p in pending:
            if p >= 0 and live.controller(p) is None and str(p) not in d:
                d[str(p)] = now + secs

    # ------------------------------------------------------------------ bots and clocks
    def _stand_in(self, live: LiveGame) -> str:
        return str(live.stored.settings.get("stand_in") or self._default_stand_in(live.game.id))

    def _bot_for(self, live: LiveGame, seat: int, now: float) -> str | None:
        """The bot deciding for ``seat`` now: its own, a replacement, or the clock's stand-in."""
        name = live.controller(seat)
        if name is not None:
            return name
        deadline = live.stored.deadlines.get(str(seat))
        if deadline is None or now < deadline:
            return None
        return self._stand_in(live)

    def _next_bot(self, live: LiveGame) -> tuple[int, str] | None:
        if live.match.is_over():
            return None
        now = self.clock()
        for p in live.match.pending():
            name = self._bot_for(live, p, now)
            if name is not None:
                return p, name
        return None

    def _current(self, live: LiveGame, seat: int, name: str, version: int) -> bool:
        """True while a search that ``name`` started for ``seat`` at ``version`` may still be applied."""
        return (self.live.get(live.stored.id) is live and live.version == version
                and seat in live.match.pending() and self._bot_for(live, seat, self.clock()) == name)

    def _apply_bot(self, live: LiveGame, seat: int, action: Any, seconds: float | None = None) -> None:
        start = live.version
        s = live.stored.seats[seat]
        if s["kind"] != "bot" and s["replaced"] is None:
            # The clock's stand-in moves for a person: a public note says so, before the move's lines.
            live.notes.append([max(0, start - 1), seat, "timeout" if live.connected(seat) else "absent"])
        live.match.act(seat, action)
        self.commit(live, start, {seat})
        if seconds is not None:
            live.thought[seat] = {"seconds": round(seconds, 2), "i": start}

    def _inline_choice(self, game_id: str, name: str, view: Any, legal: Any, seed: int) -> Any:
        """A cheap bot's choice, on the event loop (a search's stand-in if the search failed)."""
        if name not in INLINE_BOTS:
            name = self._default_stand_in(game_id)
        return make_bot(name, game_id).choose(view, legal, Random(seed))

    def _kick_bots(self, live: LiveGame) -> None:
        if live.bots_running or live.match.is_over():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # not in an event loop (creation from sync code): the first connection kicks
        live.bots_running = True
        self._spawn(self._run_bots(live), loop)

    def _spawn(self, coro: Coroutine[Any, Any, Any], loop: asyncio.AbstractEventLoop | None = None) -> None:
        task = (loop or asyncio.get_running_loop()).create_task(coro)
        self._keep(task)

    def _keep(self, task: asyncio.Future[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Future[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("server task failed", exc_info=task.exception())

    async def _run_bots(self, live: LiveGame) -> None:
        """Let bots (and clock stand-ins) decide until a person must, or the game is over.

        A cheap bot decides at once under the table's lock; a search runs in the worker pool
        with the lock released (people may act meanwhile) and its result is applied only if
        the table is still where the search started (:meth:`_current`), else the bot is asked
        again. The bot's RNG comes from the seed, the seat and the record length, so a restart
        changes nothing.
        """
        try:
            while self.live.get(live.stored.id) is live:
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                job: ThinkJob | None = None
                async with live.lock:
                    nxt = self._next_bot(live)
                    if nxt is None:
                        return
                    seat, name = nxt
                    m, version = live.match, live.version
                    seed = derive_seed(live.stored.seed, "bot", seat, version)
                    if name in INLINE_BOTS:
                        self._apply_bot(live, seat, self._inline_choice(live.game.id, name, m.view(seat),
                                                                        m.legal(seat), seed))
                    else:
                        job = think_job(live.game.id, name, m, seat, seed)
                if job is not None:
                    text, seconds = await self._think(live, seat, name, version, job)
                    if text is None:
                        continue  # the table changed while the bot thought: ask again
                    async with live.lock:
                        if not self._current(live, seat, name, version):
                            continue
                        self._apply_bot(live, seat, text, seconds)
                await self._broadcast(live)
                if not self.bot_delay:
                    await asyncio.sleep(0)
        finally:
            live.bots_running = False
            live.thinking = None

    async def _think(self, live: LiveGame, seat: int, name: str, version: int,
                     job: ThinkJob) -> tuple[str | None, float]:
        """Run a bot's search in the pool: its move's text and seconds, or None if the table changed first."""
        started = self.timer()
        live.thinking = {"seat": seat, "bot": name, "version": version, "started": started}
        await self._broadcast(live)
        task = asyncio.ensure_future(self.workers.run(self.workers.think, job))
        try:
            while not task.done():
                if not self._current(live, seat, name, version):
                    self._keep(task)  # it finishes in its worker; nobody reads the result
                    return None, 0.0
                changed = asyncio.Event()
                live.watchers.add(changed)
                waiter = asyncio.ensure_future(changed.wait())
                try:
                    await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    live.watchers.discard(changed)
                    waiter.cancel()
        except asyncio.CancelledError:
            task.cancel()
            raise
        finally:
            live.thinking = None
        seconds = self.timer() - started
        exc = task.exception()
        if exc is None:
            return task.result(), seconds
        log.error("the search of %s failed; a cheap bot decides instead", name, exc_info=exc)
        action = self._inline_choice(job.game, name, job.view, job.legal, job.seed)
        return action.to_text(), seconds

    async def tick(self) -> None:
        """Run the per-move clocks: a bot moves for every seat whose time is up."""
        now = self.clock()
        for live in list(self.live.values()):
            if any(now >= t for t in live.stored.deadlines.values()):
                self._kick_bots(live)

    # ------------------------------------------------------------------ hints and reviews
    async def hint(self, live: LiveGame, conn: Conn, seat: int, version: object) -> None:
        """"What would the bot play?": a public note in the log, the answer to ``conn`` alone.

        The search sees the seat's view and legal moves only (like a bot in that seat). Every
        viewer's log gets the line "B asked for a hint" (a note of the table, not a record
        entry, so replays never see it); what the hint said goes to the asking connection.
        """
        if not live.stored.settings.get("hints"):
            raise ServiceError("hints are off at this table", code=ErrorCode.HINTS_OFF)
        async with live.lock:
            self._check_version(live, version)
            if seat not in live.match.pending() or live.controller(seat) is not None:
                raise ServiceError("a hint is for a seat that must decide now", code=ErrorCode.NOT_YOUR_TURN)
            v, m = live.version, live.match
            job = think_job(live.game.id, self.hint_bot, m, seat, derive_seed(live.stored.seed, "hint", seat, v))
            labels = {x["text"]: x["label"] for x in legal_moves(m, seat, live.tr(conn.lang))}
            live.notes.append([max(0, v - 1), seat])
            live.stored.updated = self.clock()
            self.store.save_row(live.stored)
        await self._broadcast(live)
        self._spawn(self._answer_hint(live, conn, seat, v, job, labels))

    async def _answer_hint(self, live: LiveGame, conn: Conn, seat: int, version: int, job: ThinkJob,
                           labels: dict[str, str]) -> None:
        try:
            text = await self.workers.run(self.workers.think, job)
        except Exception:
            log.exception("a hint's search failed")
            await conn.send(error_message(ServiceError("the hint could not be worked out",
                                                       code=ErrorCode.HINT_FAILED)))
            return
        if conn in live.conns:
            await conn.send(json.dumps({"type": "hint", "seat": seat, "version": version, "text": text,
                                        "label": labels.get(text, text)}))

    async def review(self, live: LiveGame, conn: Conn, seat: object) -> None:
        """Start a review of ``seat``'s decisions for ``conn``: its own seat any time, any seat once over.

        The analysis searches each decision from that seat's view then
        (:func:`~tablero.bots.search.analysis.analyze`) in the worker pool; ``conn`` gets
        ``review_progress`` messages, then ``{"type": "review", "seat", "version", "review"}``.
        """
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < live.match.players:
            raise ServiceError("review: give a 'seat' of this game", code=ErrorCode.MALFORMED)
        if seat not in conn.seats and not live.match.is_over():
            raise ServiceError("you may review your own seat; every seat once the game is over",
                               code=ErrorCode.REVIEW_FORBIDDEN)
        if conn.reviewing:
            raise ServiceError("a review is already running for this connection", code=ErrorCode.REVIEW_BUSY)
        conn.reviewing = True
        record = GameRecord.from_json(live.match.record.to_json())  # a copy: play goes on meanwhile
        self._spawn(self._run_review(live, conn, seat, record))

    async def _run_review(self, live: LiveGame, conn: Conn, seat: int, record: GameRecord) -> None:
        key = secrets.token_hex(8)
        over = live.match.is_over()
        try:
            result = live.reviews.get((seat, conn.lang)) if over else None
            if result is None:
                job = ReviewJob(key, live.game.id, record, seat, self.review_budget,
                                derive_seed(live.stored.seed, "review", seat), conn.lang, self.workers.progress_queue())
                task = asyncio.ensure_future(self.workers.run(self.workers.review, job))
                told = None
                try:
                    while not task.done():
                        await asyncio.wait({task}, timeout=0.25)
                        done = self.workers.progress(key)
                        if done is not None and done != told and not task.done():
                            told = done
                            await conn.send(json.dumps({"type": "review_progress", "seat": seat,
                                                        "done": done[0], "total": done[1]}))
                except BaseException:
                    self._keep(task)
                    raise
                result = task.result()
                if over:
                    live.reviews[(seat, conn.lang)] = result
            await conn.send(json.dumps({"type": "review", "seat": seat, "version": len(record.entries),
                                        "review": result}))
        except Exception:
            log.exception("a review failed")
            with contextlib.suppress(Exception):
                await conn.send(error_message(ServiceError("the review could not be finished",
                                                           code=ErrorCode.REVIEW_FAILED)))
        finally:
            conn.reviewing = False
            self.workers.forget(key)

    # ------------------------------------------------------------------ telling
    def public_seats(self, live: LiveGame, lang: str = "en") -> list[dict[str, Any]]:
        """The seats as every viewer in ``lang`` sees them (names: :meth:`LiveGame.names`)."""
        now = self.clock()
        names = live.names(lang)
        out = []
        for i, s in enumerate(live.stored.seats):
            away = live.away_since.get(i)
            out.append({
                "name": names[i],
                "kind": s["kind"],
                "bot": live.controller(i),
                "replaced": s["replaced"] is not None,
                "claimed": s["kind"] != "person" or s["invite"] is None,
                "connected": s["kind"] == "bot" or live.connected(i),
                "away": None if away is None or s["kind"] == "bot" else round(now - away, 1),
                "left": bool(s["left"]),
                "letter": SEAT_LETTERS[i],
                "colour": SEAT_COLOURS[i],
            })
        return out

    def payloads(self, live: LiveGame, conn: Conn) -> list[dict[str, Any]]:
        viewers: list[int | None] = [*sorted(conn.seats)] or [None]
        seats = self.public_seats(live, conn.lang)
        out = []
        for v in viewers:
            since = conn.sent.get(v, 0)
            notes_from = conn.notes_sent.get(v, 0) if since else 0
            out.append(self.payload(live, v, conn.lang, since, conn.admin, seats, notes_from=notes_from))
            conn.sent[v] = live.version
            conn.notes_sent[v] = len(live.notes)
        return out

    def payload(self, live: LiveGame, viewer: int | None, lang: str, since: int, admin: bool,
                seats: list[dict[str, Any]], *, notes_from: int = 0) -> dict[str, Any]:
        """One viewer's update: :func:`seat_payload` of the match plus the table's public facts.

        The table's facts are the same for every viewer: ``thinking`` (a bot's search running
        now: seat, bot, seconds so far), ``thought`` (per seat, how long its bot's last search
        took and the entry it made), ``hints`` (the table allows them), ``data_changes`` (the rules
        data the table plays with changed, in words: :func:`~tablero.server.advanced.data_changes`).
        The table's notes from ``notes_from`` on join the log as lines with ``"note": "hint"``
        (``"timeout"``, ``"absent"``) after the lines of their entry.
        """
        tr = live.tr(lang)
        p = seat_payload(live.match, viewer, tr, seats=seats, log_since=since,
                         deadlines=live.stored.deadlines, now=self.clock())
        notes = live.notes[notes_from:]
        if notes:
            lines = []
            for i, seat, *kind in notes:
                note = kind[0] if kind else "hint"
                m = Message("web." + note, seat=seat)
                lines.append({"i": i, "text": tr(m), "msg": m.to_json(), "note": note})
            p["log"] = sorted(p["log"] + lines, key=itemgetter("i"))  # stable: a note after its entry's lines
        p["game_id"] = live.stored.id
        p["game"] = live.game.id
        p["title"] = live.game.title
        p["admin"] = admin
        p["rematch"] = live.stored.rematch
        p["away_seconds"] = live.stored.settings["away_seconds"]
        p["hints"] = bool(live.stored.settings.get("hints"))
        p["data_changes"] = data_changes(live.game, live.stored.options, tr)  # rules data the table changed
        t = live.thinking
        if t is not None and not self._current(live, t["seat"], t["bot"], t["version"]):
            t = None  # the table changed since the search began: it will be dropped
        p["thinking"] = None if t is None else {"seat": t["seat"], "bot": t["bot"],
                                                "seconds": round(max(0.0, self.timer() - t["started"]), 1)}
        p["thought"] = {str(k): v for k, v in sorted(live.thought.items())}
        return p

    async def _broadcast(self, live: LiveGame) -> None:
        for conn in list(live.conns):
            try:
                for p in self.payloads(live, conn):
                    await conn.send(json.dumps(p))
            except Exception:
                live.conns.discard(conn)

    # ------------------------------------------------------------------ lists, records, rematch
    def listing(self, lang: str = "en", mine: Sequence[str] = ()) -> list[dict[str, Any]]:
        """The lobby's games, newest first: the 100 last changed plus ``mine`` (ids this device
        holds seats of, up to 100), names in ``lang``; ``created``/``updated`` in epoch seconds."""
        found = {g.id: g for g in self.store.recent(100)}
        for gid in list(dict.fromkeys(mine))[:100]:
            if gid not in found and 0 < len(gid) <= 40:
                g = self.store.load(gid)
                if g is not None:
                    found[gid] = g
        out = []
        for g in sorted(found.values(), key=lambda g: g.created, reverse=True):
            open_seats = [i for i, s in enumerate(g.seats) if s["kind"] == "person" and s["invite"]]
            out.append({"id": g.id, "game": g.game, "title": get_game(g.game).title if g.game in GAMES else g.game,
                        "players": [seat_name(n, i, lang) for i, n in enumerate(g.players)],
                        "status": g.status, "open_seats": open_seats,
                        "entries": g.version, "created": g.created, "updated": g.updated})
        return out

    def record(self, game_id: str) -> dict[str, Any]:
        live = self.get(game_id)
        if not live.match.is_over():
            raise ServiceError("the record is published when the game is over", code=ErrorCode.NOT_OVER)
        out = live.match.record.to_json()
        out["players"] = live.names("en")  # a seat nobody joined has no name of its own
        return out

    async def rematch(self, game_id: str, tokens: list[str]) -> dict[str, Any]:
        """The same table again, each seat in its place: a seat's old token claims its new seat.

        The first player to ask creates the new game; every holder of an old seat token who
        asks later gets that seat's new token (bots stay bots).
        """
        live = self.get(game_id)
        self.seats_of(live, tokens)
        if not tokens:
            raise ServiceError("only a player of this game may ask for a rematch", code=ErrorCode.TOKEN)
        if not live.match.is_over():
            raise ServiceError("the game is not over", code=ErrorCode.NOT_OVER)
        if live.stored.rematch is None:
            spec = {"game": live.game.id, "options": dict(live.stored.options),
                    "move_seconds": live.stored.settings["move_seconds"],
                    "away_seconds": live.stored.settings["away_seconds"],
                    "hints": live.stored.settings.get("hints", False),
                    "stand_in": live.stored.settings.get("stand_in"),
                    "chat": live.stored.settings.get("chat"),
                    "seats": [{"kind": "bot" if s["kind"] == "bot" else "person", "bot": s["bot"],
                               "name": live.stored.players[i]} for i, s in enumerate(live.stored.seats)]}
            created = self.create(spec)
            new = self.get(created["id"])
            for i, s in enumerate(live.stored.seats):
                new.stored.seats[i]["prev_token"] = s["token"]
            live.stored.rematch = created["id"]
            self.store.save_row(live.stored)
            self.store.save_row(new.stored)
            await self._broadcast(live)
        new = self.get(live.stored.rematch)
        hashes = {_hash(t) for t in tokens}
        out: dict[str, Any] = {"id": new.stored.id, "tokens": {}}
        for i, s in enumerate(new.stored.seats):
            if s["kind"] == "person" and s.get("prev_token") in hashes:
                t = secrets.token_urlsafe(24)
                s["token"] = _hash(t)
                s["invite"] = None
                s["prev_token"] = None
                out["tokens"][i] = t
        self.store.save_row(new.stored)
        return out

    async def close(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        self.workers.close()
