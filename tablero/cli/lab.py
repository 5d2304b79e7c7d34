"""``tablero lab``: what one option or data value does to a game (:mod:`tablero.study.lab`)."""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
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
from tablero.study.lab import LabPlan, check_out, plan_lab, run_lab, write_outputs
from tablero.study.stats import role_label


def _command(game_id: str, plan: LabPlan, vary: str, option: Sequence[str] | None,
             data: Sequence[str] | None) -> str:
    """The command line that gives these results (add ``--out DIR``): the engine and the folder
    are left out, as they do not change them, so results.json is the same wherever it is run."""
    parts = ["tablero", "lab", game_id, "--players", str(plan.players), "--vary", vary.strip(),
             "--bots", ",".join(plan.bots), "--games", str(plan.games), "--seed", str(plan.seed)]
    for o in option or []:
        parts += ["--option", o]
    for d in data or []:
        parts += ["--data", d]
    return shlex.join(parts)


def _pm(mean: float | None, ci: Sequence[float] | None, fmt: str = ".1f") -> str:
    """``mean ±h`` with ``h`` the upper half of the 95% interval (results.json and the page have
    the interval itself)."""
    if mean is None:
        return "–"
    if ci is None:
        return format(mean, fmt)
    return f"{mean:{fmt}} ±{ci[1] - mean:{fmt.lstrip('+')}}"


def _share(s: Mapping[str, Any]) -> str:
    return f"{s['win_share']:.1%} ({s['ci95'][0]:.0%}–{s['ci95'][1]:.0%})"


def _role(tr: Translator, role: str) -> str:
    """A family's or colour's name: the colours in the command's language, families by their name."""
    key = f"cli.lab.colour.{role}"
    return tr(Message(key)) if key in tr.table else role_label(role)


def _print_summary(results: Mapping[str, Any], tr: Translator, out: Path, plots: int) -> None:
    console = Console(highlight=False)
    runs = results["runs"]
    has_rounds = all(r["mean_rounds"] is not None for r in runs)
    table = Table(title=tr(Message("cli.lab.title", game=results.get("title", results["game"]), vary=results["vary"],
                                   games=results["games"], players=results["players"], seed=results["seed"])))
    unit = results["rounds_unit"]
    by_rounds = results["length_metric"] == "rounds"
    metric = tr(Message(f"cli.lab.metric.{unit if by_rounds else 'decisions'}"))
    no_winner = any(r["no_winner"] for r in runs)  # only where a game can end without a winner
    table.add_column(escape(results["vary"]), overflow="fold")
    keys = [*([f"cli.lab.{unit}"] if has_rounds else []), "cli.lab.turns", "cli.lab.margin", "cli.lab.spread",
            *(["cli.lab.no_winner"] if no_winner else []), "cli.lab.delta"]
    column = tr(Message(f"cli.lab.{unit}" if by_rounds else "cli.lab.turns"))  # what Δ measures, as a heading
    for key in keys:
        table.add_column(tr(Message(key, metric=column)), justify="right", no_wrap=True)
    for r in runs:
        d = r["delta_length"]
        table.add_row(escape(r["label"]),
                      *([_pm(r["mean_rounds"], r["ci_rounds"], ".2f")] if has_rounds else []),
                      _pm(r["mean_decisions"], r["ci_decisions"], ".0f"), _pm(r["mean_margin"], r["ci_margin"]),
                      _pm(r["mean_spread"], r["ci_spread"]), *([f"{r['no_winner']:.1%}"] if no_winner else []),
                      "–" if d is None else _pm(d["mean"], d["ci"], "+.2f"))
    console.print(table)
    seats = Table(title=tr(Message("cli.lab.seats")))
    seats.add_column(escape(results["vary"]), no_wrap=True)
    seat_roles = results.get("seat_roles")  # colours that go with the seats: named in the seat table
    for p in range(results["players"]):
        seat = tr(Message("cli.lab.seat", n=p + 1))
        seats.add_column(escape(f"{seat} ({_role(tr, seat_roles[p])})" if seat_roles else seat), justify="right")
    for r in runs:
        seats.add_row(escape(r["label"]), *(_share(s) for s in r["seats"]))
    console.print(seats)
    for key, title in (("roles", "cli.lab.roles"), ("bots", "cli.lab.bots")):
        groups = sorted({g for r in runs for g in r.get(key) or {}})
        if not groups or (key == "roles" and seat_roles):
            continue
        by_group = Table(title=tr(Message(title)))
        by_group.add_column(escape(results["vary"]), no_wrap=True)
        for g in groups:
            by_group.add_column(escape(_role(tr, g) if key == "roles" else g), justify="right")
        for r in runs:
            by_group.add_row(escape(r["label"]), *(_share(r[key][g]) if g in r[key] else "–" for g in groups))
        console.print(by_group)
    console.print(tr(Message("cli.lab.note", metric=metric)))
    console.print(escape(tr(Message("cli.lab.written", path=str(out), plots=plots))))


def lab(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=f"Game id: {', '.join(GAMES)}.")],
    vary: Annotated[str, typer.Option(
        "--vary", metavar="NAME=V1,V2,...",
        help="The option or data value to vary and its values (separate values that hold commas with ';').")],
    games: Annotated[int, typer.Option(min=1, help="Games per value.")],
    out: Annotated[Path, typer.Option(
        help="Folder for results.json, report.html and the plots (PNG): a new one, or one this same command "
        "wrote before.")],
    players: Annotated[int | None, typer.Option(
        help="Number of seats (default: one per bot in --bots, else 3 where the game allows).")] = None,
    bots: Annotated[str, typer.Option(
        help="One bot for every seat, or one per seat (then the seats rotate from game to game).")] = "greedy",
    option: OptionList = None,
    data: DataList = None,
    seed: Annotated[int, typer.Option(help="Master seed: game i of every value uses derive_seed(seed, i).")] = 1,
    workers: WorkersOption = 1,
    ray: RayOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as one JSON object.")] = False,
    lang: Lang = "en",
) -> None:
    """Vary one option or data value: game length, win share per seat and family, margin and
    spread per value, with 95% intervals (results.json, report.html, plots)."""
    _check_lang(lang)
    game = _game(game_id, lang)
    name, sep, values = vary.partition("=")
    if not sep or not name.strip():
        _fail(f"--vary expects NAME=V1,V2,..., got {vary!r}", lang)
    options = _options(option, lang, data)
    try:
        plan = plan_lab(game, name, values, players=players, bots=bots.split(","), games=games, seed=seed,
                        options=options)
    except TableroError as exc:
        _fail(str(exc), lang)
    from tablero.study.report import versions

    command = _command(game.id, plan, vary, option, data)
    try:
        check_out(out, command)
    except TableroError as exc:
        _fail(str(exc), lang)
    tr = Translator(lang, [game.catalogue(), CLI_CATALOGUE])
    total = len(plan.values) * plan.games
    try:
        if as_json:
            results = run_lab(plan, workers=workers, ray=ray, command=command, versions=versions(game))
        else:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeRemainingColumn(), console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task(tr(Message("cli.lab.progress")), total=total)
                results = run_lab(plan, workers=workers, ray=ray, command=command, versions=versions(game),
                                  progress=lambda done, _total: bar.update(task, completed=done))
    except TableroError as exc:
        _fail(str(exc), lang)
    except KeyboardInterrupt:
        Console(stderr=True, highlight=False).print(f"[yellow]{escape(tr(Message('cli.lab.interrupted')))}[/yellow]")
        raise typer.Exit(130) from None
    try:
        _, figures, _ = write_outputs(results, out)
    except OSError as exc:
        _fail(f"cannot write into {out}: {exc}", lang)
    if as_json:
        typer.echo(json.dumps(results, sort_keys=True))
        return
    _print_summary(results, tr, out, len(figures))
