"""``tablero tournament``: which bot is stronger, and by how much (:mod:`tablero.study.tournament`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

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
)
from tablero.cli.text import CLI_CATALOGUE
from tablero.core.errors import TableroError
from tablero.core.messages import Message, Translator
from tablero.registry import GAMES
from tablero.study.tournament import Run, Tournament, TournamentError, prepare, run_tournament


def _summary(results: Mapping[str, Any], tr: Translator, console: Console) -> None:
    """The ratings, best first, and a line per pair."""
    ratings, by_bot = results["ratings"], results["by_bot"]
    table = Table(title=tr(Message("cli.tour.title", game=results.get("title", results["game"]),
                                   games=results["games"], players=results["players"], seed=results["seed"])))
    for i, key in enumerate(("cli.tour.rank", "cli.tour.bot", "cli.tour.mu", "cli.tour.sigma", "cli.tour.ordinal",
                             "cli.tour.games", "cli.tour.share", "cli.tour.ci", "cli.tour.score")):
        table.add_column(tr(Message(key)), justify="left" if i == 1 else "right")
    for rank, bot in enumerate(sorted(results["bots"], key=lambda b: -ratings[b]["mu"]), 1):
        r, s = ratings[bot], by_bot[bot]
        table.add_row(str(rank), escape(bot), f"{r['mu']:.1f}", f"{r['sigma']:.1f}", f"{r['ordinal']:.1f}",
                      str(s["games"]), f"{s['win_share']:.1%}", f"{s['ci95'][0]:.0%}–{s['ci95'][1]:.0%}",
                      f"{s['mean_score']:.1f}")
    console.print(table)
    for p in results["pairs"]:
        a, b, share, low, high = p["a"], p["b"], p["share"], p["ci95"][0], p["ci95"][1]
        if share < 0.5:  # the one ahead first
            a, b, share, low, high = b, a, 1 - share, 1 - high, 1 - low
        console.print(escape(tr(Message("cli.tour.pair", a=a, b=b, share=f"{share:.1%}", games=p["games"],
                                        low=f"{low:.1%}", high=f"{high:.1%}"))))
    console.print(f"[dim]{escape(tr(Message('cli.tour.note')))}[/dim]")


def tournament(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=f"Game id: {', '.join(GAMES)}.")],
    bots: Annotated[str, typer.Option(help="Comma-separated bot names, each once (e.g. random,greedy,hard).")],
    games: Annotated[int, typer.Option(
        min=1, help="Number of games, rounded up to whole cycles of the balanced schedule.")],
    players: Annotated[int | None, typer.Option(
        help="Seats per game (default: one per bot, within the game's limits); fewer bots than seats: "
        "a bot takes several seats.")] = None,
    seed: Annotated[int, typer.Option(help="Master seed: game i uses derive_seed(seed, i).")] = 1,
    out: Annotated[Path | None, typer.Option(
        help="Folder for results.json, report.html, the plots (PNG) and the finished games; "
        "run the same command again to resume an interrupted tournament.")] = None,
    option: OptionList = None,
    data: DataList = None,
    workers: WorkersOption = 1,
    ray: RayOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print results.json to stdout, nothing else.")] = False,
    lang: Lang = "en",
) -> None:
    """A balanced tournament of bots: OpenSkill ratings, pairwise win shares (95% CI), seats, score
    and game length per bot; with --out also report.html and plots."""
    _check_lang(lang)
    game = _game(game_id, lang)
    names = [b.strip().lower() for b in bots.split(",") if b.strip()]
    if players is None:
        players = min(max(len(names), game.min_players), game.max_players)
    options = _options(option, lang, data)
    try:
        t = prepare(game, names, players, games, seed, options)
    except TableroError as exc:
        _fail(str(exc), lang)
    except TournamentError as exc:
        _fail(str(exc), lang)
    if out is not None and out.exists() and not out.is_dir():
        _fail(f"--out {out} is a file, not a folder", lang)
    tr = Translator(lang, [game.catalogue(), CLI_CATALOGUE])
    err = Console(stderr=True, highlight=False)
    console = err if as_json else Console(highlight=False)
    if t.games != games:
        console.print(escape(tr(Message("cli.tour.rounded", requested=games, games=t.games, cycle=t.plan.cycle))))
    done = [0]

    def note(n: int, _total: int) -> None:
        done[0] = n

    try:
        if as_json:
            run = _run(t, out, workers, ray, note)
        else:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeRemainingColumn(), console=err, transient=True) as bar:
                task = bar.add_task(tr(Message("cli.tour.progress")), total=t.games)

                def show(n: int, total: int) -> None:
                    note(n, total)
                    bar.update(task, completed=n)

                run = _run(t, out, workers, ray, show)
    except KeyboardInterrupt:
        text = (tr(Message("cli.tour.interrupted", done=done[0], games=t.games)) if out is not None
                else tr(Message("cli.tour.interrupted_no_out")))
        err.print(f"[yellow]{escape(text)}[/yellow]")
        raise typer.Exit(130) from None
    except (TableroError, TournamentError) as exc:
        _fail(str(exc), lang)
    except OSError as exc:  # the folder cannot be written
        _fail(f"cannot write into {out}: {exc}", lang)
    results = run.results
    assert results is not None  # every game is played when the run is not stopped early
    if run.resumed:
        console.print(escape(tr(Message("cli.tour.resumed", path=str(out), done=run.resumed, games=t.games))))
    if as_json:
        typer.echo(json.dumps(results))
        return
    _summary(results, tr, console)
    if out is not None:
        console.print(escape(tr(Message("cli.tour.written", path=str(out), plots=len(run.plots)))))


def _run(t: Tournament, out: Path | None, workers: int, ray: str | None, progress: Any) -> Run:
    return run_tournament(t, out=out, workers=workers, ray=ray, progress=progress)
