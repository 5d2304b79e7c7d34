"""What every ``tablero`` command shares: clear errors (exit 2), the game, its options, data
overrides and seats read from the command line. The commands live in :mod:`tablero.cli.main`
and, for the study tools, :mod:`tablero.cli.tournament` and :mod:`tablero.cli.lab`."""

from __future__ import annotations

from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from tablero.bots import make_bot
from tablero.bots.registry import is_peeking
from tablero.cli.text import CLI_CATALOGUE
from tablero.cli.tui import HUMAN
from tablero.core.errors import TableroError
from tablero.core.messages import LANGUAGES, Message, Translator
from tablero.core.protocol import DATA_OPTION, Game
from tablero.registry import get_game


def _fail(text: str, lang: str = "en", code: int = 2) -> NoReturn:
    tr = Translator(lang if lang in LANGUAGES else "en", [CLI_CATALOGUE])
    Console(stderr=True).print(f"[red]{escape(tr(Message('cli.error', text=text)))}[/red]")
    raise typer.Exit(code)


def _check_lang(lang: str) -> str:
    if lang not in LANGUAGES:
        _fail(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return lang


def _game(game_id: str, lang: str) -> Game[Any, Any, Any]:
    try:
        return get_game(game_id)
    except TableroError as exc:
        _fail(str(exc), lang)


def _pairs(flag: str, pairs: list[str] | None, lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            _fail(f"{flag} expects NAME=VALUE, got {pair!r}", lang)
        out[name.strip()] = value.strip()
    return out


def _options(pairs: list[str] | None, lang: str, data: list[str] | None = None) -> dict[str, Any]:
    """``--option NAME=VALUE`` pairs, with the ``--data NAME=VALUE`` overrides under the reserved
    option :data:`~tablero.core.protocol.DATA_OPTION` (checked with the options, by the game)."""
    out: dict[str, Any] = dict(_pairs("--option", pairs, lang))
    if DATA_OPTION in out:
        _fail(f"set data values with --data NAME=VALUE, not --option {DATA_OPTION}=...", lang)
    overrides = _pairs("--data", data, lang)
    if overrides:
        out[DATA_OPTION] = overrides
    return out


def _seats(text: str, game: Game[Any, Any, Any], lang: str, *, humans: bool) -> list[str]:
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    if not game.min_players <= len(seats) <= game.max_players:
        _fail(f"{game.id} takes {game.min_players}-{game.max_players} seats, not {len(seats)} "
              f"(--seats {text!r})", lang)
    for s in seats:
        if s == HUMAN:
            if not humans:
                _fail(f"{HUMAN!r} cannot take part in a simulation; seat bots only", lang)
            continue
        if humans and is_peeking(s):
            _fail(f"{s!r} sees the hidden cards (a baseline for simulations only) and never plays "
                  "at a table with people; choose another bot", lang)
        try:
            make_bot(s, game.id)
        except TableroError as exc:
            hint = f" (or {HUMAN!r} for a person)" if humans else ""
            _fail(f"{exc}{hint}", lang)
    return seats


Lang = Annotated[str, typer.Option("--lang", help="Language: en or de.")]
OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option NAME=VALUE (repeatable)."),
]


DataList = Annotated[
    list[str] | None,
    typer.Option("--data", "-d", help="Override a reconstructed data value NAME=VALUE (repeatable; "
                 "numbers as 6,5,5 for a row). Recorded with the game."),
]


WorkersOption = Annotated[
    int,
    typer.Option("--workers", min=1, help="Worker processes on this machine (same results as 1)."),
]
RayOption = Annotated[
    str | None,
    typer.Option("--ray", metavar="local|ADDRESS",
                 help="Play the games on Ray: 'local' starts a Ray instance on this machine (stopped at the "
                 "end; --workers CPUs, all when 1), HOST:6379 or ray://HOST:10001 joins a running cluster. "
                 "Same results as one process."),
]
