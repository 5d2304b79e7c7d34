"""The ``tablero`` command: play, simulate, replay, analyze, bench, serve, backup, restore.

Exit codes: 0 done; 1 a game aborted or a replay that does not reproduce its saved result;
2 bad input (unknown game or bot, wrong number of seats, bad option, unreadable or
incompatible record, a seat not in the record); 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import gc
import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from tablero.bench import bench as run_bench
from tablero.bots import Bot, make_bot
from tablero.bots.search.analysis import ANALYSIS_BUDGET
from tablero.bots.search.analysis import analyze as run_analysis
from tablero.bots.search.bots import game_budget
from tablero.bots.search.ismcts import Budget
from tablero.cli.common import (
    DataList,
    Lang,
    OptionList,
    RayOption,
    WorkersOption,
    _check_lang,
    _fail,
    _game,
    _options,
    _seats,
)
from tablero.cli.lab import lab
from tablero.cli.text import CLI_CATALOGUE
from tablero.cli.tournament import tournament
from tablero.cli.tui import HUMAN, InputFn, PlaySession, result_table, seat_names
from tablero.core.errors import TableroError
from tablero.core.events import Event
from tablero.core.match import Match
from tablero.core.messages import Message, Translator
from tablero.core.protocol import Game, Player, Result
from tablero.core.record import GameRecord, check_versions
from tablero.registry import GAMES
from tablero.sim import SeatStats
from tablero.sim import simulate as run_simulate

app = typer.Typer(
    name="tablero",
    help="German board games with exact rules: play, simulate, replay, analyze, benchmark.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def read_line(prompt: str) -> str:
    """Read one line of input after ``prompt`` (raises EOFError at the end of input)."""
    return input(prompt)


def _reader() -> InputFn:
    # Looked up at call time, so tests may replace ``read_line``.
    return lambda prompt: read_line(prompt)


# ---------------------------------------------------------------------------- play
@app.command()
def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=f"Game id: {', '.join(GAMES)}.")],
    seats: Annotated[str, typer.Option(help="Comma-separated seats: 'you' for a person, or a bot name.")]
    = "you,greedy,random",
    option: OptionList = None,
    data: DataList = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the chance RNG (random if left out).")] = None,
    lang: Lang = "en",
    save: Annotated[Path | None, typer.Option(help="Save the game record (JSON) to this file.")] = None,
) -> None:
    """Play a game at the terminal: people ("you") and bots in any mix."""
    _check_lang(lang)
    game = _game(game_id, lang)
    seat_list = _seats(seats, game, lang, humans=True)
    options = _options(option, lang, data)
    try:
        match = Match(game, seat_list, options=options, seed=seed)
    except TableroError as exc:
        _fail(str(exc), lang)
    bots: dict[Player, Bot] = {p: make_bot(s, game.id) for p, s in enumerate(seat_list) if s != HUMAN}
    console = Console(highlight=False)
    session = PlaySession(match, seat_list, bots, console, _reader(), lang)
    console.print(f"[dim]{session.t('cli.seed', seed=match.seed)}[/dim]")
    code = 0
    try:
        session.run()
    except (EOFError, KeyboardInterrupt) as exc:
        console.print()
        console.print(f"[yellow]{session.t('cli.aborted')}[/yellow]")
        code = 130 if isinstance(exc, KeyboardInterrupt) else 1
    if save is not None:
        match.record.save(save)
        console.print(escape(session.t("cli.saved", path=str(save))))
    if code:
        raise typer.Exit(code)


# ---------------------------------------------------------------------------- simulate
@app.command()
def simulate(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=f"Game id: {', '.join(GAMES)}.")],
    seats: Annotated[str, typer.Option(help="Comma-separated bot names, one per seat.")]
    = "greedy,random,random",
    games: Annotated[int, typer.Option(min=1, help="Number of games.")] = 1000,
    seed: Annotated[int, typer.Option(help="Master seed: game i uses derive_seed(seed, i).")] = 1,
    option: OptionList = None,
    data: DataList = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object, nothing else.")] = False,
    save_dir: Annotated[Path | None, typer.Option(help="Save every game record into this folder.")] = None,
    workers: WorkersOption = 1,
    ray: RayOption = None,
    rotate: Annotated[bool, typer.Option(
        "--rotate", help="Rotate the seats from game to game: every bot plays every seat equally often.")] = False,
    lang: Lang = "en",
) -> None:
    """Let bots play many games; win share (95% CI), mean score and game length per seat and bot."""
    _check_lang(lang)
    game = _game(game_id, lang)
    seat_list = _seats(seats, game, lang, humans=False)
    options = _options(option, lang, data)
    try:
        game.resolve_options(len(seat_list), options)
    except TableroError as exc:
        _fail(str(exc), lang)
    # Under rotation a seat position has no one bot: the positions keep their plain names.
    tr = Translator(lang, [game.catalogue(), CLI_CATALOGUE], [] if rotate else seat_names(seat_list, lang))
    if as_json:
        try:
            result = run_simulate(game, seat_list, games, seed, options, save_dir=save_dir, workers=workers,
                                  rotate=rotate, ray=ray)
        except TableroError as exc:  # Ray missing or out of reach
            _fail(str(exc), lang)
        typer.echo(json.dumps(result.to_json()))
        return
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True,
    ) as bar:
        task = bar.add_task(tr(Message("cli.sim.progress")), total=games)
        try:
            result = run_simulate(game, seat_list, games, seed, options,
                                  progress=lambda done, total: bar.update(task, completed=done),
                                  save_dir=save_dir, workers=workers, rotate=rotate, ray=ray)
        except TableroError as exc:
            _fail(str(exc), lang)
    console = Console(highlight=False)
    columns = (("cli.sim.wins", "right"), ("cli.sim.share", "right"), ("cli.sim.ci", "right"),
               ("cli.sim.score", "right"))
    table = Table(title=tr(Message("cli.sim.title", game=game.title, games=games,
                                   players=len(seat_list), seed=seed)))
    for key, justify in (("cli.sim.seat", "left"), ("cli.sim.bot", "left"), *columns):
        table.add_column(tr(Message(key)), justify=justify)  # type: ignore[arg-type]
    for s in result.seats:
        bot = tr(Message("cli.sim.rotated")) if rotate else s.bot
        table.add_row(escape(tr.seat(s.seat)), escape(bot), *_stat_cells(s))
    console.print(table)
    if rotate or len(result.by_bot) < len(seat_list):
        # Every seat-game of a bot pooled: under rotation, the comparison of the bots.
        pooled = Table(title=tr(Message("cli.sim.by_bot")))
        for key, justify in (("cli.sim.bot", "left"), ("cli.sim.seat_games", "right"), *columns):
            pooled.add_column(tr(Message(key)), justify=justify)  # type: ignore[arg-type]
        for name, s in result.by_bot.items():
            pooled.add_row(escape(name), str(s.games), *_stat_cells(s))
        console.print(pooled)
    if rotate:
        console.print(tr(Message("cli.sim.rotated_note")))
    console.print(tr(Message("cli.sim.length", actions=f"{result.mean_actions:.1f}",
                             decisions=f"{result.mean_decisions:.1f}")))
    if save_dir is not None:
        console.print(escape(tr(Message("cli.saved", path=str(save_dir)))))


def _stat_cells(s: SeatStats) -> tuple[str, str, str, str]:
    return (f"{s.wins:g}", f"{s.win_share:.1%}", f"{s.ci95[0]:.1%} – {s.ci95[1]:.1%}", f"{s.mean_score:.2f}")


# ---------------------------------------------------------------------------- replay
def _viewer(text: str, players: int, lang: str) -> int | None:
    t = text.strip().lower()
    if t in ("spectator", "none", "zuschauer"):
        return None
    if t.isdigit() and 1 <= int(t) <= players:
        return int(t) - 1
    _fail(f"--viewer must be a seat number 1-{players} or 'spectator', not {text!r}", lang)


def _load_record(file: Path, lang: str) -> tuple[GameRecord, Game[Any, Any, Any]]:
    """A saved record and its game, checked against this version's rules and data (or exit 2)."""
    try:
        record = GameRecord.load(file)
    except TableroError as exc:
        _fail(str(exc), lang)
    game = _game(record.game, lang)
    try:
        check_versions(game, record)
    except TableroError as exc:
        _fail(str(exc), lang)
    return record, game


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A saved game record (JSON).")],
    lang: Lang = "en",
    viewer: Annotated[str, typer.Option(help="Seat number (1 = first seat) or 'spectator'.")] = "spectator",
    step: Annotated[bool, typer.Option(help="Show the table after each move and wait for Enter.")] = False,
) -> None:
    """Replay a saved game move by move, as one seat or a spectator sees it."""
    _check_lang(lang)
    record, game = _load_record(file, lang)
    try:
        state = game.new_initial_state(len(record.players), record.options)
    except TableroError as exc:
        _fail(str(exc), lang)
    who = _viewer(viewer, len(record.players), lang)
    names = seat_names(record.players, lang)
    if HUMAN in record.players and sum(1 for s in record.players if s == HUMAN) == 1:
        names = [n if s != HUMAN else Translator(lang, [CLI_CATALOGUE])(Message("cli.seat.player", n=i + 1))
                 for i, (s, n) in enumerate(zip(record.players, names, strict=True))]
    tr = Translator(lang, [game.catalogue(), CLI_CATALOGUE], names)
    console = Console(highlight=False)
    viewer_name = tr(Message("core.spectator")) if who is None else tr.seat(who)
    heading = tr(Message("cli.replay.viewer", game=game.title, viewer=viewer_name))
    console.print(f"[bold]{escape(heading)}[/bold]")
    read = _reader()
    stepping = step
    for i, (actor, text) in enumerate(record.entries):
        try:
            action = game.parse_action(state, actor, text)
            described = game.describe(state, actor, action, who)
            events: list[Event] = []
            game.apply(state, actor, action, events)
        except TableroError as exc:
            _fail(f"entry {i} [{actor}, {text!r}] does not replay: {exc}", lang)
        lines = [m for m in (e.for_viewer(who) for e in events) if m is not None] or [described]
        for k, msg in enumerate(lines):
            console.print(f"{i + 1:>4}  " if k == 0 else "      ", escape(tr(msg)), sep="")
        if stepping:
            console.print(Panel(game.render(game.observe(state, who), tr), expand=False))
            try:
                read(tr(Message("cli.replay.enter")))
            except EOFError:
                stepping = False
    console.print(Panel(game.render(game.observe(state, who), tr), expand=False))
    result: Result | None = game.result(state)
    if result is None:
        console.print(f"[yellow]{tr(Message('cli.replay.unfinished'))}[/yellow]")
        if record.result is not None:
            _fail(tr(Message("cli.replay.mismatch", replayed="-", saved=json.dumps(record.result))), lang, 1)
        return
    console.print(result_table(result, tr))
    winners = tr(Message("core.result.winners", seats=tuple(result.winners)) if result.winners
                 else Message("cli.no_winner"))
    console.print(f"[bold]{escape(winners)}[/bold]")
    replayed = result.to_json()
    if record.result is not None and record.result != replayed:
        _fail(tr(Message("cli.replay.mismatch", replayed=json.dumps(replayed),
                         saved=json.dumps(record.result))), lang, 1)
    if record.result is not None:
        console.print(f"[green]{tr(Message('cli.replay.ok'))}[/green]")


# ---------------------------------------------------------------------------- analyze
def _budget_text(budget: Budget, tr: Translator) -> str:
    parts = []
    if budget.iterations is not None:
        parts.append(tr(Message("cli.analyze.iterations", n=budget.iterations)))
    if budget.seconds is not None:
        parts.append(tr(Message("cli.analyze.seconds", s=f"{budget.seconds:g}")))
    return " / ".join(parts)


@app.command()
def analyze(
    file: Annotated[Path, typer.Argument(metavar="RECORD", help="A saved game record (JSON).")],
    seat: Annotated[int, typer.Option(help="The seat to analyse: its number (1 = first seat), as in replay.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object, nothing else.")] = False,
    seconds: Annotated[float | None, typer.Option(
        help=f"Thinking time per decision (instead of {ANALYSIS_BUDGET.iterations} iterations).")] = None,
    iterations: Annotated[int | None, typer.Option(
        min=1, help=f"Search iterations per decision (default {ANALYSIS_BUDGET.iterations}).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the search.")] = 0,
    lang: Lang = "en",
) -> None:
    """Find the mistakes of one seat: rank its options at each of its decisions, from its view."""
    _check_lang(lang)
    record, game = _load_record(file, lang)
    players = len(record.players)
    if not 1 <= seat <= players:
        _fail(f"--seat must be a seat number 1-{players} of this record, not {seat}", lang)
    # --seconds replaces the default iteration count; both given: whichever comes first.
    if iterations is None and seconds is None:
        iterations = ANALYSIS_BUDGET.iterations
    try:
        budget = game_budget(game.id, replace(ANALYSIS_BUDGET, iterations=iterations, seconds=seconds))
    except ValueError as exc:
        _fail(str(exc), lang)
    tr = Translator(lang, [game.catalogue(), CLI_CATALOGUE], seat_names(record.players, lang))
    try:
        if as_json:
            analysis = run_analysis(game, record, seat - 1, budget, seed=seed)
        else:
            with Progress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                console=Console(stderr=True), transient=True,
            ) as bar:
                task = bar.add_task(tr(Message("cli.analyze.progress")), total=len(record.entries))
                analysis = run_analysis(game, record, seat - 1, budget, seed=seed,
                                        progress=lambda done, total: bar.update(task, completed=done))
    except TableroError as exc:
        _fail(str(exc), lang)
    if as_json:
        typer.echo(json.dumps(analysis.to_json()))
        return
    console = Console(highlight=False)
    if not analysis.decisions:
        console.print(escape(tr(Message("cli.analyze.no_decisions", seat=seat - 1))))
        return
    table = Table(title=tr(Message("cli.analyze.title", game=game.title, seat=seat - 1,
                                   decisions=len(analysis.decisions), budget=_budget_text(budget, tr))))
    for key, justify in (("cli.analyze.entry", "right"), ("cli.analyze.chosen", "left"),
                         ("cli.analyze.best", "left"), ("cli.analyze.loss", "right"),
                         ("cli.analyze.options", "left")):
        table.add_column(tr(Message(key)), justify=justify,  # type: ignore[arg-type]
                         no_wrap=key in ("cli.analyze.entry", "cli.analyze.loss"))
    worst = analysis.worst
    for d in analysis.decisions:
        top = "\n".join(f"{o.value:>4.0%}  {escape(o.text)}" for o in d.options[:3])
        played = escape(d.chosen)
        if d.index == worst:
            played += f"\n[bold red]{escape(tr(Message('cli.analyze.worst_mark')))}[/bold red]"
        # Entries counted from 1, as replay prints them (the JSON keeps the record's index).
        table.add_row(str(d.index + 1), played, escape(d.best), f"{d.loss:.1%}" if d.loss else "–", top)
    console.print(table)
    if worst is None:
        console.print(escape(tr(Message("cli.analyze.no_mistake", seat=seat - 1))))
    else:
        d = next(d for d in analysis.decisions if d.index == worst)
        console.print(escape(tr(Message("cli.analyze.worst", entry=d.index + 1, chosen=d.chosen, best=d.best,
                                        loss=f"{d.loss:.1%}"))))
    console.print(f"[dim]{escape(tr(Message('cli.analyze.note')))}[/dim]")


# ---------------------------------------------------------------------------- bench
@app.command()
def bench(
    game_id: Annotated[str, typer.Option("--game", help="Game id.")] = "don-carlo",
    players: Annotated[int, typer.Option(help="Number of players.")] = 4,
    seconds: Annotated[float, typer.Option(min=0.0, help="Measuring time in seconds.")] = 5.0,
    seed: Annotated[int, typer.Option(help="Seed of the playouts.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object, nothing else.")] = False,
    lang: Lang = "en",
) -> None:
    """Random playouts per second, actions per second and the cost of one state clone."""
    _check_lang(lang)
    game = _game(game_id, lang)
    try:
        stats = run_bench(game, players, seconds=seconds, seed=seed)
    except TableroError as exc:
        _fail(str(exc), lang)
    if as_json:
        typer.echo(json.dumps(stats))
        return
    tr = Translator(lang, [CLI_CATALOGUE])
    table = Table(title=tr(Message("cli.bench.title", game=game.title, players=players)))
    table.add_column(tr(Message("cli.bench.key")))
    table.add_column(tr(Message("cli.bench.value")), justify="right")
    for key, value in stats.items():
        if key not in ("game", "players"):
            table.add_row(key, str(value))
    Console(highlight=False).print(table)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Annotated[str | None, typer.Option(
        "--database", help="SQLAlchemy URL; default $TABLERO_DATABASE_URL or sqlite:///tablero.db.")] = None,
    bot_delay: Annotated[float | None, typer.Option(help="Seconds a bot waits before each move.")] = None,
    max_searches: Annotated[int | None, typer.Option(
        "--max-searches", min=1,
        help="Bot searches, hints and reviews running at once in worker processes; default the CPU count.")] = None,
    log_format: Annotated[str | None, typer.Option(
        "--log-format",
        help="Log lines as 'text' or 'json' (one object per line); default $TABLERO_LOG_FORMAT or text.")] = None,
) -> None:
    """Serve the lobby and the tables in the browser (http://HOST:PORT)."""
    import uvicorn

    from tablero.server.app import create_app
    from tablero.server.cluster import sqlite_guard
    from tablero.server.logs import announce, check_format, log_config
    from tablero.server.settings import ServerSettings

    try:
        settings = ServerSettings.from_env()
        if log_format is not None:
            settings = replace(settings, log_format=log_format)
        fmt = check_format(settings.log_format)
    except ValueError as exc:
        _fail(str(exc))
    web = create_app(database, bot_delay=bot_delay, max_searches=max_searches, settings=settings)
    try:  # SQLite serves one process: a second serve on the same file refuses to start
        sqlite_guard(web.state.service.store.url)
    except RuntimeError as exc:
        _fail(str(exc))
    # Fewer, cheaper garbage collections: the long-lived objects (modules, catalogues, loaded
    # games) are frozen out of the collector and the youngest generation collects less often.
    # Measured with `make bench-server`: p99 latency from 100-150 ms down to 24-44 ms.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)
    announce(fmt, f"tablero: http://{host}:{port}")
    # a message over max_body gets the service's error; one over four times that (64 KiB at
    # least) is not even read whole: uvicorn closes the connection (1009)
    ws_max = max(65_536, 4 * settings.max_body)
    uvicorn.run(web, host=host, port=port, ws_max_size=ws_max, log_level="warning", log_config=log_config(fmt))


# ---------------------------------------------------------------------------- backup, restore
BackupDatabase = Annotated[str | None, typer.Option(
    "--database", help="SQLAlchemy URL; default $TABLERO_DATABASE_URL or sqlite:///tablero.db.")]


@app.command()
def backup(
    file: Annotated[str, typer.Argument(metavar="FILE", help="The backup to write ('.gz': compressed; '-': stdout).")],
    database: BackupDatabase = None,
) -> None:
    """Write every game, record entry and chat line of the server's database to FILE (JSON lines),
    from one snapshot: safe while the server runs. See docs/deploy.md."""
    from tablero.server.backup import BackupError, summary
    from tablero.server.backup import backup as run_backup
    from tablero.server.store import database_url

    try:
        counts = run_backup(database_url(database), file)
    except BackupError as exc:
        _fail(str(exc))
    typer.echo(f"backup: {summary(counts)} → {file}", err=file == "-")


@app.command()
def restore(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A backup of 'tablero backup' ('-': stdin).")],
    database: BackupDatabase = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Replace the games of a database that has some (default: only into an empty one).")] = False,
) -> None:
    """Restore a backup into an empty database, SQLite or PostgreSQL (in one transaction: all or
    nothing). Stop the server first; start it on the database afterwards."""
    from tablero.server.backup import BackupError, summary
    from tablero.server.backup import restore as run_restore
    from tablero.server.store import database_url

    try:
        counts = run_restore(database_url(database), file, force=force)
    except BackupError as exc:
        _fail(str(exc))
    typer.echo(f"restored: {summary(counts)}")


app.command()(lab)
app.command()(tournament)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
