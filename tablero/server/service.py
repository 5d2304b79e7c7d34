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

Several server processes may share one PostgreSQL database (:mod:`tablero.server.cluster`):
a commit is made only on the row as this process last read it (else :class:`Superseded`), the
other processes hear of it, and one process runs each table's bots and clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import OrderedDict
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
from tablero.server import chat, schemas, seatkeys, upkeep
from tablero.server.advanced import data_changes, data_meta
from tablero.server.cluster import Cluster
from tablero.server.fanout import Close, Outbox
from tablero.server.i18n import WEB_CATALOGUE
from tablero.server.lobby import option_meta, option_words, seat_name
from tablero.server.metrics import Metrics
from tablero.server.payload import SEAT_COLOURS, SEAT_LETTERS, legal_moves, seat_payload
from tablero.server.settings import DAY, ServerSettings
from tablero.server.store import Conflict, Store, StoredGame
from tablero.server.summary import Summary
from tablero.server.workers import INLINE_BOTS, REVIEW_BUDGET, ReviewJob, ThinkJob, Workers, think_job

log = logging.getLogger("tablero.server")

Send = Callable[[str], Awaitable[None]]
Clock = Callable[[], float]

SEAT_KINDS = ("you", "local", "person", "bot")
"""``you``/``local``: played on the creating device (several = hot-seat); ``person``: an
invite link; ``bot``: a bot by name."""

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


class StoreFailed(ServiceError):
    """A change could not be saved; the table was put back as last saved (:meth:`GameService.commit`)."""


class Superseded(ServiceError):
    """Another server process changed the table first; it was put back as the store has it
    (:meth:`GameService.commit`, :mod:`tablero.server.cluster`)."""

    code = ErrorCode.STALE


def error_message(exc: TableroError) -> str:
    return json.dumps({"type": "error", "code": str(exc.code), "message": str(exc)})


SHARED_KEEP = 64
"""Spectators' updates a table keeps built between two broadcasts at most (:meth:`GameService.updates`)."""


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
    outbox: Outbox | None = None
    """Where ``send`` puts messages; its writer sends them (:mod:`tablero.server.fanout`)."""


@dataclass(eq=False)
class LiveGame:
    stored: StoredGame
    game: Game[Any, Any, Any]
    match: Match[Any, Any, Any]
    conns: set[Conn] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    away_since: dict[int, float] = field(default_factory=dict)
    """Per seat nobody holds now (here or at another server process): since when."""
    elsewhere: frozenset[int] = frozenset()
    """Seats that connections of other server processes hold (:meth:`Cluster.elsewhere`)."""
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
    shared: dict[tuple[Any, ...], tuple[str, int, int]] = field(default_factory=dict)
    """The spectators' updates built since the last broadcast, shared by all spectators in the
    same place: (lang, admin, log from, notes from, table state, time) → (JSON, version, notes)."""
    seen: float = 0.0
    """When somebody last asked for the table (the service's clock): loaded, opened, a message."""

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
        """A connection holds ``seat``, here or at another server process."""
        return seat in self.elsewhere or any(seat in c.seats for c in self.conns)

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
        settings: ServerSettings | None = None,
    ) -> None:
        self.store = store
        self.settings = settings if settings is not None else ServerSettings()
        self.metrics = Metrics()
        """Counters and histograms of this service (:mod:`tablero.server.metrics`)."""
        self.clock = clock
        self.bot_delay = bot_delay
        self.workers = workers if workers is not None else Workers()
        self.review_budget = review_budget
        self.hint_bot = HINT_BOT
        self.timer: Clock = time.monotonic
        """Measures how long searches take (real time, whatever ``clock`` says)."""
        self.live: OrderedDict[str, LiveGame] = OrderedDict()
        """The tables in memory, least recently asked for first (:mod:`tablero.server.upkeep`)."""
        self._tasks: set[asyncio.Future[Any]] = set()
        self._next_sweep = float("-inf")
        self.cluster = Cluster(self)
        """Other server processes on the same database (:mod:`tablero.server.cluster`), started by the app."""

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
            "move_seconds": schemas.seconds(spec.get("move_seconds"), "move_seconds", 0.0),  # finite, bounded
            "away_seconds": schemas.seconds(spec.get("away_seconds"), "away_seconds", 60.0),
            "hints": bool(spec.get("hints", False)),
            "stand_in": self.check_bot(stand_in, game.id, "stand_in: "),
            "hint_notes": [],
            "chat": chat.chat_mode(spec.get("chat")),
            "creator_seat": next((i for i, s in enumerate(seats_in)
                                  if isinstance(s, Mapping) and s.get("kind") in ("you", "local")), None),
        }
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
            name = schemas.clean_name(s.get("name"), f"seat {i}: name")  # trimmed, NFC, no control characters
            entry: dict[str, Any] = {"kind": kind, "bot": None, "token": None, "invite": None, "replaced": None,
                                     "left": False}
            if kind == "bot":
                bot = self.check_bot(str(s.get("bot") or DEFAULT_BOT), game.id, f"seat {i}: ")
                entry["bot"] = bot
                name = name or f"Bot {SEAT_LETTERS[i]}"  # the level shows beside the name, in words
            elif kind == "person":
                invite = secrets.token_urlsafe(18)
                entry["invite"] = seatkeys.key_hash(invite)
                invites[i] = invite  # the name (if any) is a suggestion: the person chooses at join
            else:
                token = seatkeys.new_token()
                seatkeys.issue(entry, seatkeys.key_hash(token), self.clock())
                tokens[i] = token
            # an empty name shows as "Player B" in each viewer's language (LiveGame.names)
            seats.append(entry)
            names.append(name)
        admin = seatkeys.new_token()
        seed = secrets.randbits(63)
        match: Match[Any, Any, Any] = Match(game, names, options=options, seed=seed, undo=True)
        now = self.clock()
        stored = StoredGame(
            id=_new_id(), game=game.id, created=now, updated=now, status="running", players=names,
            options=match.options, seed=seed, seats=seats, admin_hash=seatkeys.key_hash(admin), settings=settings,
            deadlines={}, rematch=None, version=0, entries=list(match.record.entries),
        )
        live = LiveGame(stored=stored, game=game, match=match)
        live.away_since = {i: now for i, s in enumerate(seats) if s["kind"] != "bot"}
        self._update_deadlines(live, set())
        self._set_status(live)
        self.store.create(stored)
        live.seen = now
        self.live[stored.id] = live
        self._evict(keep=live)
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
        """The table in memory, loaded from the store (replayed) if it is not; the tables least
        recently asked for leave memory beyond ``settings.max_loaded_games`` (:meth:`_evict`)."""
        live = self.live.get(game_id)
        if live is not None:
            self.live.move_to_end(game_id)
            live.seen = self.clock()
            return live
        stored, game, match = self._load(game_id)
        live = LiveGame(stored=stored, game=game, match=match, elsewhere=self.cluster.elsewhere(game_id))
        now = self.clock()
        live.seen = now
        for seat in range(len(stored.seats)):
            if seat not in live.elsewhere:
                live.away_since[seat] = now
        self.live[game_id] = live
        self._settle(live)
        self._evict(keep=live)
        self._kick_bots(live)
        return live

    def _load(self, game_id: str) -> tuple[StoredGame, Game[Any, Any, Any], Match[Any, Any, Any]]:
        """A table as the store has it: its row and its match, replayed from the record."""
        stored = self.store.load(game_id) if len(game_id) <= 40 else None
        if stored is None:
            raise ServiceError(f"no game {game_id!r}", code=ErrorCode.UNKNOWN_GAME)
        game = get_game(stored.game)
        record = GameRecord(game=game.id, rules_version=game.rules_version, data_version=game.data_version,
                            players=stored.players, options=stored.options, seed=stored.seed,
                            entries=list(stored.entries))
        try:
            match = Match.from_record(game, record, undo=True)
        except TableroError:
            raise
        except Exception as exc:  # a rules fault: this table cannot be shown, every other one can
            log.exception("table %s does not replay", game_id)
            raise ServiceError(f"table {game_id} cannot be loaded (the server's log says why)",
                               code=ErrorCode.SERVER_FAULT) from exc
        return stored, game, match

    def _settle(self, live: LiveGame) -> None:
        """After a load: save what the replay added (forced steps not yet saved) and the row's
        derived fields (status, seats to act), if anything changed."""
        stored = live.stored
        start = len(stored.entries)
        before = (stored.status, stored.settings.get(upkeep.TO_ACT))
        stored.entries = list(live.match.record.entries)  # longer only if forced steps were not yet saved
        self._set_status(live)
        if len(stored.entries) > start or before != (stored.status, stored.settings.get(upkeep.TO_ACT)):
            self.store.append(stored, start)

    def resume_all(self) -> int:
        """Load the running tables where the server must act by itself (after a start): a bot is
        to move or a clock runs (:func:`~tablero.server.upkeep.needs_server`, read from the stored
        rows without replaying anything). Every other table loads when first asked for
        (:meth:`get`). Returns the count loaded.

        A stored game this version cannot load (its options or data overrides no longer pass
        the checks, a record of other rules, a rules fault) is left out with a warning: the
        server starts for every other table, and opening that one gives its error."""
        loaded = 0
        for row in self.store.rows("running"):
            if not upkeep.needs_server(row):
                continue
            try:
                self.get(row.id)
            except TableroError as exc:
                log.warning("game %s is not resumed: %s", row.id, exc)
                continue
            except Exception:
                log.exception("game %s is not resumed", row.id)
                continue
            loaded += 1
        return loaded

    # ---- memory: the least recently used tables leave it; abandoned tables (tablero.server.upkeep)
    def _evict(self, keep: LiveGame) -> None:
        """Drop the least recently asked-for tables beyond ``settings.max_loaded_games`` that may
        leave (:func:`~tablero.server.upkeep.evictable`); never ``keep``, the one just asked for."""
        extra = len(self.live) - self.settings.max_loaded_games
        for live in list(self.live.values()):
            if extra <= 0:
                return
            if live is not keep and upkeep.evictable(live, self.cluster.runs(live.stored.id)):
                self._unload(live)
                extra -= 1

    def _unload(self, live: LiveGame) -> None:
        """Drop ``live`` from memory; a running table keeps when it was last opened (for the sweep)."""
        stored = live.stored
        if stored.status == "running" and live.seen > upkeep.last_seen(stored):
            stored.settings[upkeep.SEEN] = live.seen
            try:
                self.store.save_row(stored)
            except Exception:
                log.exception("table %s: when it was last opened could not be saved", stored.id)
        if self.live.get(stored.id) is live:
            del self.live[stored.id]
        live.touch()

    def sweep(self, now: float) -> int:
        """Mark running tables nobody changed nor opened for ``settings.abandon_days`` as
        ``abandoned`` (no bots, no clocks; a person's saved change revives one), in memory and in
        the store; returns how many. The ticker calls it every ``upkeep.SWEEP_SECONDS``."""
        days = self.settings.abandon_days
        if days <= 0:
            return 0
        cutoff = now - days * DAY
        count = 0
        for live in list(self.live.values()):
            if upkeep.may_abandon(live, cutoff):
                live.stored.status = "abandoned"
                self.store.save_row(live.stored)
                live.touch()
                count += 1
        stale = [row.id for row in self.store.rows("running", updated_before=cutoff)
                 if row.id not in self.live and upkeep.last_seen(row) < cutoff]
        count += self.store.set_status(stale, "abandoned", was="running")
        if count:
            log.info("%d table(s) nobody used for %g days marked abandoned", count, days)
        return count

    # ---- invites: claim, what an invite is, a new one (links and names, docs/web.md)
    @staticmethod
    def _invite_status(live: LiveGame, invite: str) -> tuple[str, int | None]:
        """What ``invite`` is at this table: ``open`` (it claims seat n), ``taken`` (somebody joined
        with it), ``revoked`` (the creator made a new one for its seat) or ``unknown``."""
        h = seatkeys.key_hash(invite)
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
        clean = schemas.clean_name(name) or live.stored.players[seat]  # refuses control characters
        if not clean:
            raise ServiceError("give your name: the others see it at the table", code=ErrorCode.MALFORMED)
        token = seatkeys.new_token()
        async with live.lock:
            s = live.stored.seats[seat]
            if s["invite"] != seatkeys.key_hash(invite):  # another claim (or a new invite) came first
                raise ServiceError(INVITE_REFUSED["taken"], code=ErrorCode.TOKEN)
            s["spent"] = [*s.get("spent", []), s["invite"]][-KEEP_OLD:]
            s["invite"] = None
            seatkeys.issue(s, seatkeys.key_hash(token), self.clock())
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
        if not isinstance(admin, str) or seatkeys.key_hash(admin) != live.stored.admin_hash:
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
            seatkeys.revoke(s, KEEP_OLD)  # its token, and any rotated one still in its grace
            if s["invite"]:
                s["replaced_invites"] = [*s.get("replaced_invites", []), s["invite"]][-KEEP_OLD:]
            s["kind"] = "person"
            s["invite"] = seatkeys.key_hash(invite)
            s["left"] = False
            live.away_since[seat] = self.clock()
            live.stored.updated = self.clock()
            self.store.save_row(live.stored)
            live.touch()
        await self._drop_seat(live, seat)
        await self._broadcast(live)
        return {"seat": seat, "invite": invite}

    async def _drop_seat(self, live: LiveGame, seat: int, keep: Conn | None = None) -> None:
        """Connections holding ``seat`` (but ``keep``) lose it: they hear ``{"type": "revoked",
        "seats": [n]}`` and watch as spectators from then on."""
        for conn in list(live.conns):
            if seat in conn.seats and conn is not keep:
                conn.seats = conn.seats - {seat}
                conn.sent.pop(seat, None)
                conn.notes_sent.pop(seat, None)
                await conn.send(json.dumps({"type": "revoked", "seats": [seat]}))  # queued: never raises

    async def rotate(self, live: LiveGame, conn: Conn, seat: int) -> None:
        """A new token for ``seat``, to ``conn`` alone: ``{"type": "token", "seat", "token", "old"}``.

        The old token (and any still in a grace) stops working at once; every other connection
        holding the seat hears ``revoked`` and watches (a tab of the same device says hello again
        with the token the device now stores, and holds the seat again).
        """
        token = seatkeys.new_token()
        async with live.lock:
            seatkeys.rotate(live.stored.seats[seat], seatkeys.key_hash(token), self.clock())
            self.store.save_row(live.stored)
        old = seatkeys.held_with(conn, seat)
        seatkeys.remember(conn, {seat: token})
        await conn.send(json.dumps({"type": "token", "seat": seat, "token": token, "old": old}))
        if any(seat in c.seats and c is not conn for c in live.conns):
            await self._drop_seat(live, seat, keep=conn)
            await self._broadcast(live)

    @staticmethod
    def _resend_logs(live: LiveGame) -> None:
        """Every connection gets its whole log again with the next update (a name changed)."""
        for conn in live.conns:
            conn.sent.clear()
            conn.notes_sent.clear()

    # ------------------------------------------------------------------ connections
    def seats_of(self, live: LiveGame, tokens: list[str]) -> frozenset[int]:
        """The seats ``tokens`` hold now (:func:`~tablero.server.seatkeys.token_seat`); refused if one holds none."""
        now = self.clock()
        found = [seatkeys.token_seat(live.stored.seats, seatkeys.key_hash(t), now, self.settings) for t in set(tokens)]
        if any(i is None for i in found):
            raise ServiceError("a token does not hold a seat of this game", code=ErrorCode.TOKEN)
        return frozenset(i for i in found if i is not None)

    async def connect(self, game_id: str, send: Send, *, tokens: list[str], admin: str | None,
                      lang: str, close: Close | None = None) -> Conn:
        """A hello: the connection that ``send`` writes to (and ``close`` closes), holding the seats of ``tokens``.

        What it gets goes through its outbox (:mod:`tablero.server.fanout`). A spectator's hello
        is answered to it alone (nobody else sees spectators); a seat's hello changes the seat's
        presence, so every connection of the table gets an update. A table takes at most
        ``settings.max_spectators`` spectators; seats and the table's creator are never refused.
        """
        live = self.get(game_id)
        if lang not in LANGUAGES:
            raise ServiceError(f"unknown language {lang!r}", code=ErrorCode.OPTION)
        is_admin = bool(admin) and seatkeys.key_hash(str(admin)) == live.stored.admin_hash
        if admin and not is_admin:
            raise ServiceError("wrong creator token", code=ErrorCode.TOKEN)
        keys = seatkeys.check_hello(live.stored.seats, tokens, self.clock(), self.settings)
        seats, refused, revoked = frozenset(keys.seats), keys.refused, keys.revoked
        limit = self.settings.max_spectators
        if not seats and not is_admin and sum(1 for c in live.conns if not c.seats and not c.admin) >= limit:
            raise ServiceError(f"this table has {limit} spectators already; try again later",
                               code=ErrorCode.SPECTATORS_FULL)
        came_back = [s for s in seats if live.stored.seats[s]["left"]]
        for s in came_back:  # saved with the rest: after a restart the seat must not show as left again
            live.stored.seats[s]["left"] = False
        if keys.changed or came_back:  # a token rotated, a last use stamped, a player back
            self.store.save_row(live.stored)
        conn = self._open(live, send, close, seats, is_admin, lang)
        if refused:  # this device's keys that hold no seat (any more): it watches, and forgets them
            await conn.send(json.dumps({"type": "revoked", "tokens": refused, "seats": revoked}))
        for told in keys.told:  # a seat's new token: the device stores it at once
            await conn.send(json.dumps(told))
        seatkeys.remember(conn, keys.by_seat)
        live.conns.add(conn)
        for s in seats:
            live.away_since.pop(s, None)
        if seats:
            await self._broadcast(live)
        elif conn.outbox is not None:
            conn.outbox.update()
        return conn

    def _open(self, live: LiveGame, send: Send, close: Close | None, seats: frozenset[int], admin: bool,
              lang: str) -> Conn:
        """A new connection with its outbox, its writer started (:mod:`tablero.server.fanout`)."""
        outbox = Outbox(send, close, size=self.settings.outbox_size, timeout=self.settings.send_timeout)
        conn = Conn(send=outbox.put, seats=seats, admin=admin, lang=lang, outbox=outbox)
        outbox.start(lambda: self._saved_updates(live, conn), lambda: self.disconnect(live.stored.id, conn),
                     self._keep)
        return conn

    async def _saved_updates(self, live: LiveGame, conn: Conn) -> list[str]:
        """:meth:`updates` under the table's lock: a change is applied in memory and committed
        under it, so no connection hears of a change before it is saved."""
        async with live.lock:
            return self.updates(live, conn)

    async def disconnect(self, game_id: str, conn: Conn) -> None:
        live = self.live.get(game_id)
        if conn.outbox is not None:
            conn.outbox.stop()
        if live is None:
            return
        if conn in live.conns:
            live.conns.discard(conn)
            now = self.clock()
            for s in conn.seats:
                if not live.connected(s):
                    live.away_since[s] = now
            if conn.seats:  # a spectator's going changes nothing anybody sees
                await self._broadcast(live)
        self._forget_if_done(live)

    def _forget_if_done(self, live: LiveGame) -> None:
        """Drop a finished game nobody watches from memory; :meth:`get` reloads it from the store.

        Without this every game ever played stays in ``live``: memory grows without end, and
        with it the pauses of Python's full garbage collections (hundreds of ms after minutes
        of play), which every connected client then waits through.
        """
        # not while its last commit is under way (the lock is held): the bots' loop comes back here after it
        if live.match.is_over() and not live.conns and not live.lock.locked() and self.live.get(live.stored.id) is live:
            del self.live[live.stored.id]

    async def handle(self, game_id: str, conn: Conn, raw: str) -> None:
        """One client message; errors go back to that connection only and change nothing."""
        if conn.outbox is not None and conn.outbox.closed is not None:
            return  # a connection dropped as too slow, still open until its close gets through
        try:
            msg = schemas.parse_message(raw, self.settings.max_body)  # size, depth, numbers: see schemas
            schemas.check_message(msg)  # the fields' types and bounds (schemas.MESSAGES)
            await self._dispatch(self.get(game_id), conn, msg)
        except TableroError as exc:
            self.metrics.error(exc.code, "ws")
            await conn.send(error_message(exc))

    async def _dispatch(self, live: LiveGame, conn: Conn, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "ping":
            await conn.send(json.dumps({"type": "pong"}))
            return
        if kind == "review":
            await self.review(live, conn, msg.get("seat"))
            return
        if kind in ("act", "undo", "leave", "reclaim", "hint", "rotate"):
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
            elif kind == "rotate":
                await self.rotate(live, conn, seat)
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
        if kind == "resume":
            if not conn.admin:
                raise ServiceError("only the table's creator may set its bots going again", code=ErrorCode.TOKEN)
            await self.resume(live)
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
        received = self.timer()  # the move's latency (metrics): from here to its commit
        async with live.lock:
            self._check_version(live, version)
            if live.controller(seat) is not None:
                raise ServiceError("a bot plays this seat now; take it back first", code=ErrorCode.NOT_YOUR_TURN)
            start = live.version
            try:
                live.match.act(seat, text)
            except TableroError:
                raise  # refused: nothing changed
            except Exception as exc:  # a rules fault: the state may be half changed
                log.exception("table %s: the rules failed applying seat %d's move %r", live.stored.id, seat, text)
                self._restore(live)
                raise ServiceError("the server failed applying this move; the table is as it was",
                                   code=ErrorCode.SERVER_FAULT) from exc
            seatkeys.used(live.stored.seats[seat], self.clock())  # saved with the move
            await self.commit(live, start, {seat})
        self.metrics.person_moved(self.timer() - received)
        await self._broadcast(live)
        self._kick_bots(live)

    async def undo(self, live: LiveGame, seat: int, version: object) -> None:
        """Take back ``seat``'s last decision: only a person's own, within the caps
        (:func:`~tablero.server.seatkeys.undo_refusal`)."""
        async with live.lock:
            self._check_version(live, version)
            refusal = seatkeys.undo_refusal(live.match, seat, live.stored.settings, self.settings)
            if refusal is not None:
                raise ServiceError(refusal[1], code=refusal[0])
            start = live.version
            live.match.undo(seat)
            seatkeys.used(live.stored.seats[seat], self.clock())  # saved with the take-back
            await self.commit(live, start, {seat})
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
            revived = upkeep.revive(live.stored)  # a person takes over: the table no longer waits
            self._update_deadlines(live, set())
            self.store.save_row(live.stored)
            live.touch()
        await self._broadcast(live)
        if revived:
            self._kick_bots(live)

    async def resume(self, live: LiveGame) -> None:
        """The creator's ``resume``: clear the table's attention mark (and its abandoned status)
        and let its bots try again, once (:mod:`tablero.server.upkeep`)."""
        async with live.lock:
            revived = upkeep.revive(live.stored)
            if revived:
                self.store.save_row(live.stored)
                live.touch()
        if revived:
            await self._broadcast(live)
        self._kick_bots(live)

    async def commit(self, live: LiveGame, start: int, acted: set[int]) -> None:
        """Commit the entries from ``start`` on; on failure, put the table back as the store has
        it (:meth:`_restore`, in place: its connections stay) and raise :class:`StoreFailed`, or
        :class:`Superseded` when another server process changed the table first (its connections
        are then told of the table as it is now).

        Every accepted change passes here once, after it is applied in memory and before any
        connection hears of it (the crash tests stop the server process right after it). The
        commit is awaited (the caller holds the table's lock; other tables go on meanwhile,
        :meth:`~tablero.server.store.Store.append_async`). A saved change clears the table's
        attention mark and abandoned status (bots do not move at such a table, so the change is a
        person's).
        """
        stored = live.stored
        stored.entries = list(live.match.record.entries)
        stored.updated = self.clock()
        self._update_deadlines(live, acted)
        upkeep.revive(stored)
        self._set_status(live)
        live.touch()
        try:
            await self.store.append_async(stored, start)
        except Conflict as exc:
            self._restore(live)
            self._spawn(self._broadcast(live))
            self._kick_bots(live)
            raise Superseded(f"the table has changed (version {live.version}, you saw {start})") from exc
        except Exception as exc:
            log.exception("table %s: a change could not be saved; the table goes back to its last saved state",
                          stored.id)
            self._restore(live)
            raise StoreFailed("the change could not be saved; the table is as it was",
                              code=ErrorCode.SERVER_FAULT) from exc

    def _restore(self, live: LiveGame) -> bool:
        """Put ``live`` back exactly as the store has it, in place (its connections and lock stay):
        after a fault left memory ahead of (or apart from) what is saved. If the store cannot
        say, the table leaves memory (the next request loads it again) and this returns False."""
        gid = live.stored.id
        try:
            live.stored, _game, live.match = self._load(gid)
            live.translators.clear()
            live.summary = None
            self._settle(live)
        except Exception:
            log.exception("table %s could not be reloaded from the store; it leaves memory", gid)
            if self.live.get(gid) is live:
                del self.live[gid]
            live.touch()
            return False
        live.touch()
        return True

    def _fault(self, live: LiveGame, reason: str, seat: int | None, bot: str | None, exc: BaseException) -> None:
        """Under the table's lock: a bot's move failed (``reason``: see ``upkeep.REASONS``). The
        table goes back to its last saved state and is marked as needing attention (saved), so
        its bots stop until somebody clears the mark; the log has the traceback."""
        gid = live.stored.id
        log.error("table %s: %s (seat %s, bot %s); it goes back to its last saved state and needs attention",
                  gid, upkeep.REASONS.get(reason, reason), seat, bot, exc_info=exc)
        if self.live.get(gid) is not live:
            return  # no longer the table in memory: the next request loads it from the store
        # a StoreFailed: commit() restored the table already
        if not isinstance(exc, StoreFailed) and not self._restore(live):
            return  # it could not be reloaded and left memory: the next request loads it
        upkeep.mark(live.stored, reason=reason, seat=seat, bot=bot, now=self.clock())
        try:
            self.store.save_row(live.stored)
        except Exception:
            log.exception("table %s: its attention mark could not be saved", gid)
        live.touch()

    def _set_status(self, live: LiveGame) -> None:
        """``over``, or ``running`` (an abandoned table stays so until a change revives it); and
        the seats to act (saved in the row's settings for start-up, upkeep.needs_server)."""
        s = live.stored
        if live.match.is_over():
            s.status = "over"
        elif s.status != "abandoned":
            s.status = "running"
        s.settings[upkeep.TO_ACT] = list(live.match.pending())

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

    async def _apply_bot(self, live: LiveGame, seat: int, action: Any, seconds: float | None = None) -> None:
        start = live.version
        s = live.stored.seats[seat]
        if s["kind"] != "bot" and s["replaced"] is None:
            # The clock's stand-in moves for a person: a public note says so, before the move's lines.
            live.notes.append([max(0, start - 1), seat, "timeout" if live.connected(seat) else "absent"])
        live.match.act(seat, action)
        seatkeys.note_bot_move(live.stored.settings, seat, start)  # no person takes it back (saved with it)
        await self.commit(live, start, {seat})
        self.metrics.bot_moved(seconds)
        if seconds is not None:
            live.thought[seat] = {"seconds": round(seconds, 2), "i": start}

    def _inline_choice(self, game_id: str, name: str, view: Any, legal: Any, seed: int) -> Any:
        """A cheap bot's choice, on the event loop (a search's stand-in if the search failed)."""
        if name not in INLINE_BOTS:
            name = self._default_stand_in(game_id)
        return make_bot(name, game_id).choose(view, legal, Random(seed))

    def _kick_bots(self, live: LiveGame) -> None:
        if live.bots_running or live.match.is_over() or not upkeep.bots_may_run(live.stored):
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

        No fault leaves a table frozen or half changed: a bot that raises gives way to the
        table's cheap stand-in (:meth:`_choose`); when that fails too, or the rules raise while
        applying the move, or it cannot be saved, the table goes back to its last saved state and
        is marked as needing attention (:meth:`_fault`), and the loop ends. A marked or abandoned
        table runs no bots (:func:`~tablero.server.upkeep.bots_may_run`), so nothing retries in
        a loop.
        """
        seat: int | None = None
        name: str | None = None
        gid = live.stored.id
        try:
            if not await self.cluster.own(live):
                return  # another server process runs this table's bots (tablero.server.cluster)
            while self.live.get(gid) is live and self.cluster.runs(gid):
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                job: ThinkJob | None = None
                moved = True
                seat, name = None, None
                async with live.lock:
                    nxt = self._next_bot(live) if upkeep.bots_may_run(live.stored) else None
                    if nxt is None:
                        return
                    seat, name = nxt
                    m, version = live.match, live.version
                    seed = derive_seed(live.stored.seed, "bot", seat, version)
                    if name in INLINE_BOTS:
                        try:
                            action = self._choose(live, name, m.view(seat), m.legal(seat), seed)
                        except upkeep.BotFailed as exc:
                            self._fault(live, "bot", seat, name, exc)
                            moved = False
                        else:
                            moved = await self._bot_move(live, seat, name, action)
                    else:
                        job = think_job(live.game.id, name, m, seat, seed)
                if job is not None:
                    try:
                        text, seconds = await self._think(live, seat, name, version, job)
                    except upkeep.BotFailed as exc:
                        async with live.lock:
                            if not self._current(live, seat, name, version):
                                continue  # the table changed meanwhile: ask again
                            self._fault(live, "bot", seat, name, exc)
                        moved = False
                    else:
                        if text is None:
                            continue  # the table changed while the bot thought: ask again
                        async with live.lock:
                            if not self._current(live, seat, name, version):
                                continue
                            moved = await self._bot_move(live, seat, name, text, seconds)
                await self._broadcast(live)
                if not moved:
                    return
                if not self.bot_delay:
                    await asyncio.sleep(0)
        except Exception as exc:  # the rules failed telling who acts or what a seat sees
            async with live.lock:
                self._fault(live, "apply", seat, name, exc)
            with contextlib.suppress(Exception):
                await self._broadcast(live)
        finally:
            live.bots_running = False
            live.thinking = None
            self._forget_if_done(live)

    async def _bot_move(self, live: LiveGame, seat: int, name: str, action: Any,
                        seconds: float | None = None) -> bool:
        """Under the table's lock: apply and save a bot's move; False after a fault (the table is
        back as last saved and marked, :meth:`_fault`). Another process's change that came first
        is no fault: the table is as the store has it, and the bots go on from there."""
        try:
            await self._apply_bot(live, seat, action, seconds)
        except Superseded:
            return True
        except StoreFailed as exc:
            self._fault(live, "store", seat, name, exc)
            return False
        except Exception as exc:  # the rules raised (a bot's illegal move too): memory may be half changed
            self._fault(live, "apply", seat, name, exc)
            return False
        return True

    def _choose(self, live: LiveGame, name: str, view: Any, legal: Any, seed: int) -> Any:
        """A cheap bot's choice on the event loop; if the bot raises, the table's stand-in's
        (:meth:`_stand_in_choice`, which raises ``upkeep.BotFailed`` if it fails too)."""
        try:
            return self._inline_choice(live.game.id, name, view, legal, seed)
        except Exception:
            log.exception("table %s: the bot %s failed to decide; the table's stand-in decides instead",
                          live.stored.id, name)
        return self._stand_in_choice(live, name, view, legal, seed)

    def _stand_in_choice(self, live: LiveGame, failed: str, view: Any, legal: Any, seed: int) -> Any:
        """The choice of the table's stand-in as a cheap bot (another cheap bot if the stand-in is
        the one that failed); raises ``upkeep.BotFailed`` if it fails too."""
        game_id = live.game.id
        name = self._stand_in(live)
        if name not in INLINE_BOTS:
            name = self._default_stand_in(game_id)
        if name == failed:
            name = next((b for b in ("greedy", "random") if b != failed and b in bot_names(game_id)), name)
        try:
            return self._inline_choice(game_id, name, view, legal, seed)
        except Exception as exc:
            raise upkeep.BotFailed(f"the stand-in {name} failed too") from exc

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
        log.error("table %s: the search of %s failed; the table's stand-in decides instead",
                  live.stored.id, name, exc_info=exc)
        action = self._stand_in_choice(live, name, job.view, job.legal, job.seed)  # BotFailed if it fails
        return action.to_text(), seconds

    async def tick(self) -> None:
        """Run the per-move clocks (a bot moves for every seat whose time is up) and, every
        ``upkeep.SWEEP_SECONDS``, mark abandoned tables (:meth:`sweep`)."""
        now = self.clock()
        for live in list(self.live.values()):
            if any(now >= t for t in live.stored.deadlines.values()):
                self._kick_bots(live)
        if now >= self._next_sweep:
            self._next_sweep = now + upkeep.SWEEP_SECONDS
            try:
                self.sweep(now)
            except Exception:
                log.exception("the sweep for abandoned tables failed; it runs again later")

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
            self.metrics.error(ErrorCode.HINT_FAILED, "ws")
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
            self.metrics.error(ErrorCode.REVIEW_FAILED, "ws")
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

    def updates(self, live: LiveGame, conn: Conn) -> list[str]:
        """``conn``'s update now, as JSON: one per seat it holds (a spectator's: one), each log
        from where that viewer's last update ended (``conn.sent``, moved on here).

        Built when the connection's writer sends it (:mod:`tablero.server.fanout`). A spectator's
        is the same for every spectator in the same place (language, creator or not, log sent so
        far, table state): it is built once and shared (``live.shared``, emptied by every broadcast,
        and when it holds :data:`SHARED_KEEP` of them: spectators coming while a clock runs).
        """
        viewers: list[int | None] = [*sorted(conn.seats)] or [None]
        seats: list[dict[str, Any]] | None = None
        out = []
        for v in viewers:
            since = conn.sent.get(v, 0)
            notes_from = conn.notes_sent.get(v, 0) if since else 0
            key: tuple[Any, ...] | None = None
            if v is None:  # the table's state, and the time to the tenth of a second (clocks, away, thinking)
                t = live.thinking
                key = (conn.lang, conn.admin, since, notes_from, live.version, len(live.notes), round(self.clock(), 1),
                       None if t is None else (t["seat"], t["version"], t["started"], round(self.timer(), 1)))
            built = live.shared.get(key) if key is not None else None
            if built is None:
                if seats is None:
                    seats = self.public_seats(live, conn.lang)
                p = self.payload(live, v, conn.lang, since, conn.admin, seats, notes_from=notes_from)
                built = (json.dumps(p), live.version, len(live.notes))
                if key is not None:
                    if len(live.shared) >= SHARED_KEEP:  # the time in the key moves on: older ones go
                        live.shared.clear()
                    live.shared[key] = built
            out.append(built[0])
            conn.sent[v], conn.notes_sent[v] = built[1], built[2]
        return out

    def payload(self, live: LiveGame, viewer: int | None, lang: str, since: int, admin: bool,
                seats: list[dict[str, Any]], *, notes_from: int = 0) -> dict[str, Any]:
        """One viewer's update: :func:`seat_payload` of the match plus the table's public facts.

        The table's facts are the same for every viewer: ``thinking`` (a bot's search running
        now: seat, bot, seconds so far), ``thought`` (per seat, how long its bot's last search
        took and the entry it made), ``hints`` (the table allows them), ``data_changes`` (the rules
        data the table plays with changed, in words: :func:`~tablero.server.advanced.data_changes`),
        ``status`` (``running``, ``over``, ``abandoned``) and ``attention`` (None, or the mark of a
        failed bot move: ``{"reason", "seat", "bot", "since"}``, :mod:`tablero.server.upkeep`).
        The table's notes from ``notes_from`` on join the log as lines with ``"note": "hint"``
        (``"timeout"``, ``"absent"``) after the lines of their entry.
        """
        tr = live.tr(lang)
        p = seat_payload(live.match, viewer, tr, seats=seats, log_since=since,
                         deadlines=live.stored.deadlines, now=self.clock(),
                         can_undo=viewer is not None and seatkeys.undo_refusal(
                             live.match, viewer, live.stored.settings, self.settings) is None)
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
        p["status"] = live.stored.status  # running | over | abandoned
        p["attention"] = upkeep.attention(live.stored)  # a bot's move failed: the bots wait (upkeep)
        return p

    async def _broadcast(self, live: LiveGame) -> None:
        """Every connection of the table gets an update: each outbox is told one is due (one still
        waiting is merged into it) and its writer builds and sends it; nothing here waits for a client."""
        live.shared.clear()
        self.cluster.here(live)  # the seats connected here, told to other server processes if they changed
        for conn in list(live.conns):
            if conn.outbox is not None:
                conn.outbox.update()

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
            try:  # one row stored by an older version (a name no text, a seat amiss) never breaks the lobby
                open_seats = [i for i, s in enumerate(g.seats) if s["kind"] == "person" and s["invite"]]
                out.append({"id": g.id, "game": g.game,
                            "title": get_game(g.game).title if g.game in GAMES else schemas.shown(str(g.game)),
                            "players": [schemas.shown(seat_name(str(n), i, lang)) for i, n in enumerate(g.players)],
                            "status": g.status, "open_seats": open_seats, "attention": bool(upkeep.attention(g)),
                            "entries": g.version, "created": g.created, "updated": g.updated})
            except Exception:
                log.warning("game %s is left out of the list: its stored row does not read", g.id, exc_info=True)
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
        held = self.seats_of(live, tokens)
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
        out: dict[str, Any] = {"id": new.stored.id, "tokens": {}}
        for i, s in enumerate(new.stored.seats):
            # by seat, not by hash: the old seat's token may have rotated since the rematch was made
            if s["kind"] == "person" and s.get("prev_token") and i in held:
                t = seatkeys.new_token()
                seatkeys.issue(s, seatkeys.key_hash(t), self.clock())
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
        await self.cluster.close()
        await self.store.aclose()
        self.workers.close()
