"""Health and metrics of one server: ``/healthz`` and ``/metrics`` (Prometheus), see docs/deploy.md.

Each app has its own :class:`prometheus_client.CollectorRegistry` (several apps live in one test
process; the global registry would mix them). Two kinds of figures:

* counted as things happen, by the service (:class:`Metrics`): moves applied by people and by
  bots, errors sent to clients per code, HTTP responses per status class, how long a move takes
  from its ``act`` message to its commit (its broadcast starts then), how long bots' searches take;
* read at scrape time (:class:`ServiceCollector`): tables in memory, connections, spectators,
  bot loops and searches running, and the games in the database per status and those marked as
  needing attention.

``/metrics`` is open unless ``metrics_token`` is set (then it wants ``Authorization: Bearer
<token>``); the reverse proxy of docs/deploy.md does not pass it on, so only the private network
scrapes it. ``/healthz`` answers 200 when the event loop runs this handler and the database
answers ``SELECT 1`` (asked in a thread), else 503.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, Protocol, TypeVar

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import Text, cast, func, select, text
from sqlalchemy.engine import Engine
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tablero.server.settings import ServerSettings
from tablero.server.store import Store, games
from tablero.server.upkeep import ATTENTION

log = logging.getLogger("tablero.server.metrics")

T = TypeVar("T")

MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds from an ``act`` message to its commit: a few ms normally; the top buckets show a server
that waits (a slow disk, a full database pool, a busy event loop)."""

SEARCH_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
"""Seconds of a bot's search in the worker pool (the levels search between 0.1 s and a few s)."""

HEALTH_TIMEOUT = 5.0
"""Seconds ``/healthz`` waits for the database's ``SELECT 1`` before it answers 503."""

STATUS_CLASSES = ("2xx", "3xx", "4xx", "5xx")



class Service(Protocol):
    """What this module reads of :class:`~tablero.server.service.GameService` (no import: the
    service imports this module)."""

    @property
    def live(self) -> Mapping[str, Any]: ...

    @property
    def store(self) -> Store: ...

    @property
    def settings(self) -> ServerSettings: ...

    @property
    def metrics(self) -> Metrics: ...


class Metrics:
    """The counters and histograms of one service, in a registry of their own (``registry``)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.moves = Counter("tablero_moves", "Moves applied to tables, by who decided (person or bot).",
                             ["by"], registry=r)
        self.errors = Counter("tablero_errors", "Errors sent to clients, by error code and channel (ws or http).",
                              ["code", "via"], registry=r)
        self.responses = Counter("tablero_http_responses", "HTTP responses, by status class.", ["status"],
                                 registry=r)
        self.move_latency = Histogram(
            "tablero_move_latency_seconds",
            "Seconds from a person's act message to its commit (its broadcast starts then); lock waits included.",
            buckets=MOVE_BUCKETS, registry=r)
        self.bot_search = Histogram("tablero_bot_search_seconds",
                                    "Seconds a bot's search took in the worker pool, for the moves it made.",
                                    buckets=SEARCH_BUCKETS, registry=r)
        for by in ("person", "bot"):
            self.moves.labels(by)
        for cls in STATUS_CLASSES:
            self.responses.labels(cls)

    def person_moved(self, seconds: float) -> None:
        """A person's move is committed ``seconds`` after its message came."""
        self.moves.labels("person").inc()
        self.move_latency.observe(max(0.0, seconds))

    def bot_moved(self, search_seconds: float | None = None) -> None:
        """A bot's (or a clock stand-in's) move is committed; ``search_seconds``: its search, if it searched."""
        self.moves.labels("bot").inc()
        if search_seconds is not None:
            self.bot_search.observe(max(0.0, search_seconds))

    def error(self, code: str, via: str) -> None:
        """An error with ``code`` went to a client over ``via`` (``ws`` or ``http``)."""
        self.errors.labels(str(code), via).inc()

    def response(self, status: int) -> None:
        self.responses.labels(f"{status // 100}xx").inc()

    def watch(self, service: Service) -> ServiceCollector:
        """Read ``service``'s live figures at every scrape (:class:`ServiceCollector`)."""
        collector = ServiceCollector(service)
        self.registry.register(collector)
        return collector


class ServiceCollector(Collector):
    """Gauges read from the service when scraped (on the event loop: nothing changes meanwhile).

    ``stored``: games in the database per status, counted just before (off the event loop) by
    :func:`stored_counts`; None leaves that gauge out.
    """

    def __init__(self, service: Service) -> None:
        self.service = service
        self.stored: dict[str, int] | None = None

    def describe(self) -> Iterator[Any]:
        return iter(())  # no fixed description: the families come from collect()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        lives = list(self.service.live.values())
        loaded = GaugeMetricFamily("tablero_games_loaded", "Tables in memory, by status.", labels=["status"])
        statuses = [live.stored.status for live in lives]
        for status in sorted({"running", "over", *statuses}):
            loaded.add_metric([status], statuses.count(status))
        yield loaded
        if self.stored is not None:
            stored = GaugeMetricFamily("tablero_games_stored", "Games in the database, by status.",
                                       labels=["status"])
            for status in sorted({"running", "over", *self.stored} - {ATTENTION_KEY}):
                stored.add_metric([status], self.stored.get(status, 0))
            yield stored
        conns = [c for live in lives for c in live.conns]
        yield GaugeMetricFamily("tablero_connections", "Open WebSocket connections (players and spectators).",
                                value=len(conns))
        yield GaugeMetricFamily("tablero_spectators", "Open WebSocket connections that hold no seat.",
                                value=sum(1 for c in conns if not c.seats))
        yield GaugeMetricFamily("tablero_bot_loops_running", "Tables whose bots (or clock stand-ins) are deciding.",
                                value=sum(1 for live in lives if live.bots_running))
        yield GaugeMetricFamily("tablero_bot_searches_running", "Bot searches running in the worker pool now.",
                                value=sum(1 for live in lives if live.thinking is not None))
        yield GaugeMetricFamily("tablero_reviews_running", "Game reviews running for connections now.",
                                value=sum(1 for c in conns if c.reviewing))
        if self.stored is not None:  # in the database: a marked table may leave memory
            marked = self.stored.get(ATTENTION_KEY, 0)
        else:
            marked = sum(1 for live in lives if live.stored.settings.get(ATTENTION))
        yield GaugeMetricFamily("tablero_games_needing_attention",
                                "Tables whose bots failed: no bot moves there until the creator resumes it.",
                                value=marked)


ATTENTION_KEY = "~attention"
"""In :func:`stored_counts`' answer: the tables marked as needing attention (no status has this name)."""


def stored_counts(engine: Engine) -> dict[str, int]:
    """Games in the database per status, and under :data:`ATTENTION_KEY` those marked as needing
    attention (two queries; run them off the event loop)."""
    with engine.connect() as conn:
        rows = conn.execute(select(games.c.status, func.count()).group_by(games.c.status)).all()
        # The mark is a key of the settings JSON (tablero.server.upkeep), written by the server
        # alone; its text is matched the same way on SQLite and PostgreSQL.
        marked = conn.execute(select(func.count()).select_from(games).where(
            cast(games.c.settings, Text).like(f'%"{ATTENTION}"%'))).scalar_one()
    out = {str(status): int(n) for status, n in rows}
    out[ATTENTION_KEY] = int(marked)
    return out


def ping(engine: Engine) -> None:
    """``SELECT 1`` on the database (raises when it does not answer)."""
    with engine.connect() as conn:
        conn.execute(text("SELECT 1")).scalar_one()


class ResponseCounter:
    """ASGI middleware: counts every HTTP response by status class (an exception counts as 5xx)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def counting(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                self.metrics.response(int(message["status"]))
            await send(message)

        try:
            await self.app(scope, receive, counting)
        except Exception:
            if not started:
                self.metrics.response(500)
            raise


class OneAtATime(Generic[T]):
    """Runs a blocking database call in a thread, one at a time: while one still runs (a database
    that hangs), the next caller waits for that one instead of starting another (health checks and
    scrapes never pile threads up); every caller waits at most ``timeout`` seconds."""

    def __init__(self, fn: Callable[[], T], timeout: float = HEALTH_TIMEOUT) -> None:
        self.fn = fn
        self.timeout = timeout
        self._running: asyncio.Future[T] | None = None

    async def __call__(self) -> T:
        if self._running is None or self._running.done():
            self._running = asyncio.ensure_future(asyncio.to_thread(self.fn))
            self._running.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved
        return await asyncio.wait_for(asyncio.shield(self._running), timeout=self.timeout)


def install(app: FastAPI, service: Service) -> None:
    """Add ``/healthz``, ``/metrics`` and the response counter to ``app`` (over ``service``)."""
    metrics: Metrics = service.metrics
    collector = metrics.watch(service)
    app.add_middleware(ResponseCounter, metrics=metrics)
    probe = OneAtATime(lambda: ping(service.store.engine))
    count = OneAtATime(lambda: stored_counts(service.store.engine))

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        """200 ``{"status": "ok", ...}`` when the event loop and the database answer, else 503."""
        try:
            await probe()
        except Exception as exc:  # the database is down, refuses us or is too slow
            log.warning("health check: the database does not answer: %s", type(exc).__name__,
                        extra={"error": repr(exc)})
            return JSONResponse({"status": "unavailable", "database": type(exc).__name__}, status_code=503,
                                headers={"Cache-Control": "no-store"})
        return JSONResponse({"status": "ok", "database": "ok", "games_loaded": len(service.live)},
                            headers={"Cache-Control": "no-store"})

    @app.get("/metrics", include_in_schema=False)
    async def metrics_page(request: Request) -> Response:
        """The registry in Prometheus' text format; with ``metrics_token`` set, for its bearer only."""
        token = service.settings.metrics_token
        if token:
            given = request.headers.get("authorization", "")
            scheme, _, value = given.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(), token.encode()):
                return Response("metrics: give the token as 'Authorization: Bearer <token>'\n", status_code=401,
                                media_type="text/plain", headers={"WWW-Authenticate": "Bearer"})
        try:
            collector.stored = await count()
        except Exception as exc:
            log.warning("metrics: the database does not answer: %s", type(exc).__name__)
            collector.stored = None
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST,
                        headers={"Cache-Control": "no-store"})
