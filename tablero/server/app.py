"""The web server: HTTP API, WebSocket, lobby and table pages (FastAPI on uvicorn).

Thin on purpose: every rule lives in the games, every decision about seats, bots and storage
in :class:`~tablero.server.service.GameService`. Run it with ``tablero serve``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from tablero.bots.search.ismcts import Budget
from tablero.core.errors import ErrorCode, TableroError
from tablero.core.messages import CORE_CATALOGUE, LANGUAGES
from tablero.registry import GAMES, get_game
from tablero.server import metrics, schemas, security
from tablero.server import tutorial as tutorials
from tablero.server.i18n import UI, WEB_CATALOGUE
from tablero.server.replay import Replays
from tablero.server.rules_pages import pick_language, rules_page, web_dir
from tablero.server.service import (
    Clock,
    GameService,
    ServiceError,
    error_message,
)
from tablero.server.settings import ServerSettings
from tablero.server.store import Store
from tablero.server.store import database_url as store_url
from tablero.server.summary import summary as end_summary
from tablero.server.workers import REVIEW_BUDGET, Workers

STATIC = Path(__file__).parent / "static"

STATUS: dict[str, int] = {
    ErrorCode.UNKNOWN_GAME: 404,
    ErrorCode.TOKEN: 403,
    ErrorCode.STALE: 409,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.REVIEW_FORBIDDEN: 403,
    ErrorCode.NOT_OVER: 409,
    ErrorCode.SPECTATORS_FULL: 503,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.ORIGIN: 403,
    ErrorCode.MEDIA_TYPE: 415,
    ErrorCode.SERVER_FAULT: 500,
}


def create_app(
    database_url: str | None = None,
    *,
    clock: Clock = time.time,
    bot_delay: float | None = None,
    tick_seconds: float = 0.5,
    max_searches: int | None = None,
    workers: Workers | None = None,
    review_budget: Budget = REVIEW_BUDGET,
    settings: ServerSettings | None = None,
) -> FastAPI:
    """The app over one service. ``max_searches``: bot searches, hints and reviews running at
    once in worker processes (default: the CPU count); ``workers`` replaces that pool (tests);
    ``settings``: limits and switches (default: :meth:`ServerSettings.from_env`)."""
    url = store_url(database_url)
    if bot_delay is None:
        bot_delay = float(os.environ.get("TABLERO_BOT_DELAY", "0.4"))
    settings = settings if settings is not None else ServerSettings.from_env()
    store = Store(url, settings=settings)
    service = GameService(store, clock=clock, bot_delay=bot_delay,
                          workers=workers if workers is not None else Workers(max_searches),
                          review_budget=review_budget, settings=settings)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.cluster.start()  # other processes on the database: it resumes their orphans
        if not service.cluster.enabled:
            service.resume_all()
        for live in list(service.live.values()):
            service._kick_bots(live)

        async def ticker() -> None:
            while True:
                await asyncio.sleep(tick_seconds)
                await service.tick()

        task = asyncio.create_task(ticker())
        try:
            yield
        finally:
            task.cancel()
            await service.close()
            store.close()

    # JSON without a content-type is read as before; every route may refuse (schemas.ERROR_RESPONSES)
    app = FastAPI(title="tablero", lifespan=lifespan, strict_content_type=False, responses=schemas.ERROR_RESPONSES)
    app.router.route_class = schemas.JSONRoute  # bodies parsed with limits (schemas.parse_json)
    app.add_middleware(schemas.BodyLimit, limit=settings.max_body)  # before a body is read (innermost)
    app.state.service = service
    app.state.settings = settings
    app.mount("/static/app", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(TableroError)
    async def _tablero_error(_request: Request, exc: TableroError) -> JSONResponse:
        service.metrics.error(exc.code, "http")
        return JSONResponse({"error": {"code": str(exc.code), "message": str(exc)}},
                            status_code=STATUS.get(exc.code, 400))

    @app.exception_handler(RequestValidationError)
    async def _malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        """A body, path or query outside its schema (schemas.py): 400 ``request/malformed``."""
        return await _tablero_error(request, TableroError(schemas.describe(exc.errors()), code=ErrorCode.MALFORMED))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 413:
            return await _tablero_error(request, TableroError(
                f"request too large (over {settings.max_body} bytes)", code=ErrorCode.TOO_LARGE))
        if exc.status_code == 400:
            return await _tablero_error(request, TableroError(str(exc.detail), code=ErrorCode.MALFORMED))
        return await http_exception_handler(request, exc)

    # ------------------------------------------------------------------ pages
    @app.get("/", response_class=HTMLResponse)
    async def lobby(lang: str = "en") -> HTMLResponse:
        return HTMLResponse(lobby_page(service, pick_language(lang)))

    @app.get("/game/{game_id}", response_class=HTMLResponse)
    async def table(game_id: str) -> HTMLResponse:
        live = service.get(game_id)
        return HTMLResponse(table_page(live.game.id, live.game.title, game_id))

    @app.get("/rules/{game_id}", response_class=HTMLResponse)
    async def rules(game_id: str, request: Request, lang: str | None = None) -> HTMLResponse:
        return HTMLResponse(rules_page(game_id, pick_language(lang, request.headers.get("accept-language"))))

    @app.get("/tutorial/{game_id}", response_class=HTMLResponse)
    async def tutorial(game_id: str) -> HTMLResponse:
        game = get_game(game_id)
        return HTMLResponse(tutorial_page(game.id, game.title))

    @app.get("/join/{game_id}/{invite}", response_class=HTMLResponse)
    async def join(game_id: str, invite: str) -> HTMLResponse:
        live = service.get(game_id)
        return HTMLResponse(join_page(live.game.title, game_id))

    @app.get("/favicon.svg", include_in_schema=False)
    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/static/games/{game_id}/{name}", include_in_schema=False)  # files, no API
    async def board_file(game_id: str, name: str) -> Response:
        if name not in ("board.js", "board.css"):
            raise ServiceError(f"no file {name!r}", code=ErrorCode.UNKNOWN_GAME)
        path = web_dir(game_id) / name
        if not path.is_file():
            return Response("", media_type="text/css" if name.endswith(".css") else "text/javascript")
        return FileResponse(path)

    # ------------------------------------------------------------------ API
    @app.get("/api/meta")
    async def meta(lang: str = "en", data: bool = True) -> dict[str, Any]:
        """The games for the lobby, their options' words in ``lang`` (one request for the form);
        ``data=false`` leaves out the rules data overrides (the table asks only for the bot levels)."""
        return {"games": service.games_meta(pick_language(lang), data=data), "languages": list(LANGUAGES)}

    @app.get("/api/i18n/{lang}")
    async def i18n(lang: str) -> dict[str, str]:
        if lang not in LANGUAGES:
            raise ServiceError(f"unknown language {lang!r}", code=ErrorCode.OPTION)
        return UI[lang]

    @app.get("/api/catalogue/{game_id}/{lang}")
    async def catalogue(game_id: str, lang: str) -> dict[str, str]:
        game = get_game(game_id)
        if lang not in LANGUAGES:
            raise ServiceError(f"unknown language {lang!r}", code=ErrorCode.OPTION)
        out = dict(CORE_CATALOGUE[lang])
        out.update(game.catalogue().get(lang, {}))
        out.update(WEB_CATALOGUE[lang])
        return out

    @app.get("/api/table-data/{game_id}")
    async def table_data(game_id: str) -> dict[str, Any]:
        return get_game(game_id).table_data()

    @app.get("/api/games/{game_id}/table-data")
    async def game_table_data(game_id: str) -> dict[str, Any]:
        """One table's data for its drawings: the game's, with the table's data overrides in."""
        live = service.get(game_id)
        return live.game.table_data(live.stored.options)

    @app.get("/api/games")
    async def games(lang: str = "en", mine: str = "") -> dict[str, Any]:
        """The lobby's list, newest first; ``mine``: comma-separated ids this device plays (listed too)."""
        ids = [x for x in mine.split(",") if x][:100]
        return {"games": service.listing(pick_language(lang), ids)}

    @app.post("/api/games")
    async def create(body: schemas.CreateGame) -> dict[str, Any]:
        return service.create(body.model_dump(exclude_none=True))

    @app.post("/api/games/{game_id}/claim")
    async def claim(game_id: str, body: schemas.Claim) -> dict[str, Any]:
        return await service.claim(game_id, body.invite, body.name)

    @app.post("/api/games/{game_id}/invitation")
    async def invitation(game_id: str, body: schemas.Invitation) -> dict[str, Any]:
        """What the join page shows about an invite (the invite in the body, never in a query)."""
        return service.invitation(game_id, body.invite, pick_language(body.lang))

    @app.post("/api/games/{game_id}/invite")
    async def reinvite(game_id: str, body: schemas.Invite) -> dict[str, Any]:
        """The creator (``admin`` key in the body) revokes ``seat``'s device and gets a new invite."""
        return await service.reinvite(game_id, body.admin, body.seat)

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, body: schemas.Rematch) -> dict[str, Any]:
        return await service.rematch(game_id, body.tokens)

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> dict[str, Any]:
        return service.record(game_id)

    @app.get("/api/games/{game_id}/summary")
    async def summary(game_id: str, lang: str = "en") -> dict[str, Any]:
        """The end screen's score sheet and scores over time, once the game is over: see :mod:`.summary`."""
        return await end_summary(service.get(game_id), game_id, lang)

    replays = Replays()

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: str, seat: str = "", at: int | None = None, since: int = 0,
                     lang: str = "en") -> dict[str, Any]:
        """Seat ``seat`` (empty or ``spectator``: the spectator) after ``at`` record entries of a
        finished game (default: the end), with its log so far: see :mod:`tablero.server.replay`."""
        live = service.get(game_id)
        if seat in ("", "spectator"):
            viewer = None
        elif seat.isdigit():
            viewer = int(seat)
        else:
            raise ServiceError("replay: 'seat' is a seat number or 'spectator'", code=ErrorCode.MALFORMED)
        lang = pick_language(lang)
        out = replays.payload(game_id, live.match, viewer, at, live.tr(lang), since=max(0, since))
        out["seats"] = service.public_seats(live, lang)
        out["title"] = live.game.title
        return out

    @app.get("/api/tutorial/{game_id}")
    async def tutorial_steps(game_id: str, lang: str = "en") -> dict[str, Any]:
        """The game's tutorial: its steps in ``lang`` (see :mod:`tablero.server.tutorial`)."""
        return tutorials.overview(game_id, lang)

    @app.post("/api/tutorial/{game_id}/{index}")
    async def tutorial_step(game_id: str, index: int, body: schemas.TutorialStep | None = None) -> dict[str, Any]:
        """Step ``index`` with ``{"moves": [...], "lang": ...}``: seat 0's payload, accepted, explanation or hint."""
        body = body or schemas.TutorialStep()
        return await asyncio.to_thread(tutorials.step, game_id, index, body.moves, body.lang)

    # ------------------------------------------------------------------ live
    @app.websocket("/ws/{game_id}")
    async def ws(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()

        async def send(text: str) -> None:
            await websocket.send_text(text)

        async def close(code: int, reason: str) -> None:  # a reader too slow (service.fanout)
            await websocket.close(code=code, reason=reason)

        conn = None
        try:
            try:
                raw = await asyncio.wait_for(schemas.read_text(websocket, send), timeout=30)  # binary: told, skipped
                hello = schemas.read_hello(raw, settings.max_body)
                conn = await service.connect(game_id, send, tokens=hello["tokens"], admin=hello.get("admin"),
                                             lang=hello.get("lang", "en"), close=close)
            except TableroError as exc:
                service.metrics.error(exc.code, "ws")
                await send(error_message(exc))
                await websocket.close(code=4000 + STATUS.get(exc.code, 400))
                return
            while True:
                raw = await schemas.read_text(websocket, conn.send)  # answers go through its outbox
                await service.handle(game_id, conn, raw)
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if conn is not None:
                await service.disconnect(game_id, conn)

    # rate limits, security headers, origin checks: outside every middleware added before, so
    # that their answers carry the headers too (the metrics' response counter still counts ours)
    security.install(app, settings, clock)
    metrics.install(app, service)  # /healthz, /metrics; the response counter wraps everything added before
    return app


# ---------------------------------------------------------------------- HTML shells
def _head(title: str, extra: str = "") -> str:
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/app/style.css">{extra}
</head>"""


def lobby_page(service: GameService, lang: str) -> str:
    ui = UI[lang]
    titles = "".join(
        f'<li data-game="{g.id}"><strong>{html.escape(g.title)}</strong> '
        f'<a class="rules-link" href="/rules/{g.id}">{html.escape(ui["rules.link"])}</a> '
        f'<a class="tutorial-link" href="/tutorial/{g.id}?lang={lang}">{html.escape(ui["tutorial.link"])}</a> '
        f'<span class="muted">{g.min_players}–{g.max_players} {html.escape(ui["lobby.players"])}</span></li>'
        for g in GAMES.values())
    return _head("tablero — El Grande, Don Carlo, Mafia Legend") + f"""
<body class="lobby" data-start="lobby" data-lang="{lang}">
<header class="top"><h1>tablero</h1><nav id="langs"></nav></header>
<main>
<section class="intro"><p>{html.escape(ui["lobby.intro"])}</p><ul class="titles">{titles}</ul></section>
<section id="create" class="card"><h2>{html.escape(ui["lobby.create"])}</h2>
<noscript>{html.escape(ui["lobby.noscript"])}</noscript><form id="create-form"></form></section>
<section id="created" class="card" hidden></section>
<section class="card"><h2>{html.escape(ui["lobby.games"])}</h2><div id="game-list"></div></section>
</main>
<script src="/static/app/app.js"></script>{_parts(LOBBY_PARTS)}
</body></html>"""


TABLE_PARTS = ("chat.js", "endscreen.js", "replay.js", "advanced.js")
"""The table's parts beside app.js (each adds to ``Tablero.parts``), loaded when present."""

LOBBY_PARTS = ("advanced.js",)
"""The lobby's and the join page's parts beside app.js (``Tablero.parts``), loaded when present."""


def _parts(names: tuple[str, ...]) -> str:
    return "".join(f'\n<script src="/static/app/{name}"></script>' for name in names if (STATIC / name).is_file())


def table_page(game_id: str, title: str, table_id: str) -> str:
    extra = f'\n<link rel="stylesheet" href="/static/games/{game_id}/board.css">'
    parts = "".join(f'\n<script src="/static/app/{name}"></script>' for name in TABLE_PARTS
                    if (STATIC / name).is_file())
    return _head(f"{title} — tablero", extra) + f"""
<body class="table-page" data-start="table" data-game="{game_id}" data-id="{html.escape(table_id)}">
<div id="app"><p class="loading">{html.escape(title)}</p></div>
<script src="/static/app/boardkit.js"></script>
<script src="/static/app/app.js"></script>{parts}
<script src="/static/games/{game_id}/board.js"></script>
</body></html>"""


def tutorial_page(game_id: str, title: str) -> str:
    """The tutorial's page: its own script (tutorial.js), the kit and the game's board; ``?lang=``
    (en, de) is taken into the device's language setting by app.js, before the others read it.
    No page has an inline script (the CSP allows none): app.js starts ``Tablero[data-start]``."""
    extra = f'\n<link rel="stylesheet" href="/static/games/{game_id}/board.css">'
    return _head(f"{title} — tablero", extra) + f"""
<body class="tutorial-page" data-start="tutorial" data-game="{game_id}">
<div id="app"><p class="loading">{html.escape(title)}</p></div>
<script src="/static/app/boardkit.js"></script>
<script src="/static/app/app.js"></script>
<script src="/static/app/tutorial.js"></script>
<script src="/static/games/{game_id}/board.js"></script>
</body></html>"""


def join_page(title: str, table_id: str) -> str:
    return _head(f"{title} — tablero") + f"""
<body class="join-page" data-start="join" data-id="{html.escape(table_id)}">
<header class="top"><h1><a class="home" href="/">tablero</a></h1><nav id="langs"></nav></header>
<main><section class="card join-card"><h2>{html.escape(title)}</h2><div id="join"></div></section></main>
<script src="/static/app/app.js"></script>{_parts(LOBBY_PARTS)}
</body></html>"""
