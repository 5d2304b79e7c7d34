"""The designer's lab: what one option or data value does to a game, measured with bots.

``tablero lab GAME --vary NAME=V1,V2,...`` plays ``games`` bot-only games for each value of
``NAME`` — a game option (``Game.options``) or an overridable data value (``Game.data_specs``,
``--data``) — and reports per value: game length (record entries, turns, and the game's own
rounds or months with :meth:`Game.rounds`), win share per seat and per family or colour
(:meth:`Game.seat_roles`) with Wilson 95% intervals, the score spread (the standard deviation
of the seats' scores in a game) and the margin of victory (winner minus runner-up), mean score
per seat, the share of games nobody won, and how many games ended by the game's own end.

Common random numbers: game ``i`` of EVERY value is played with the same match seed
``derive_seed(seed, i)``, the same bots in the same seats (rotated by ``i`` when each seat has
its own bot, as ``simulate --rotate``) and the same bot random streams. The values are thus
compared on the same deals, as far as the value leaves the draws alone: a difference between
two values is measured game by game (``delta_length``: the paired difference of the game
length to the first value, with its interval), which is far less noisy than two independent
samples. Everything is a function of the seed: the same command gives the very same
results.json, on any executor.

Intervals: means (length, spread, margin, scores) have Student-t 95% intervals over the games;
shares have Wilson 95% intervals (:func:`tablero.sim.wilson_interval`; a first place shared by
``k`` seats counts ``1/k`` of a win).
"""

from __future__ import annotations

import difflib
import json
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from tablero.bots import make_bot
from tablero.core.errors import OptionError, TableroError
from tablero.core.protocol import DATA_OPTION, Game
from tablero.core.protocol import data_names as core_data_names
from tablero.core.rng import derive_seed
from tablero.registry import get_game
from tablero.study.executor import GameJob, GameOutcome, run_jobs
from tablero.study.stats import ROTATED, Z95, fixed_roles, jsonable, role_label, rounds_unit, seating, wilson_interval

Progress = Callable[[int, int], None]

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T95 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
        2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
        2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423)


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (``df >= 1``)."""
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95  # Cornish-Fisher expansion; below 1e-4 off from 31 degrees of freedom on
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def mean_ci(xs: Sequence[float], floor: float | None = None) -> tuple[float, list[float] | None]:
    """The mean and its Student-t 95% interval (None for fewer than two values), not below
    ``floor`` (a quantity that cannot be negative)."""
    n = len(xs)
    if n == 0:
        return (math.nan, None)
    m = sum(xs) / n
    if n < 2:
        return (m, None)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = t95(n - 1) * sd / math.sqrt(n)
    low = m - half if floor is None else max(floor, m - half)
    return (m, [low, m + half])


# ---------------------------------------------------------------------------- the plan
@dataclass(frozen=True, slots=True)
class LabPlan:
    """A checked lab run: every value parsed and validated, nothing played yet."""

    game: str
    players: int
    vary: str
    kind: str
    """``option`` or ``data``."""
    labels: tuple[str, ...]
    """Each value as given on the command line."""
    values: tuple[Any, ...]
    """Each value as the game resolved it (JSON-ready)."""
    run_options: tuple[dict[str, Any], ...]
    """The options each value's games are played with (as given: text, resolved by the game)."""
    resolved: tuple[dict[str, Any], ...]
    """The same, resolved by the game (JSON-ready; what results.json shows per run)."""
    base_options: dict[str, Any]
    """The options every value shares, resolved (the varied one at its default)."""
    bots: tuple[str, ...]
    rotate: bool
    games: int
    seed: int

    def jobs(self) -> list[GameJob]:
        """Game ``i`` of value ``v`` is job ``v * games + i`` with match seed ``derive_seed(seed, i)``."""
        out: list[GameJob] = []
        for v, opts in enumerate(self.run_options):
            for i in range(self.games):
                seats = seating(self.bots if self.rotate else self.bots * self.players, i, self.rotate)
                out.append(GameJob(index=v * self.games + i, game=self.game, seats=seats,
                                   seed=derive_seed(self.seed, i), options=opts))
        return out


def split_values(text: str) -> list[str]:
    """``V1,V2,...``; values that hold commas themselves (a row ``6,5,5``, a list of families)
    are separated by ``;`` instead: ``6,5,5;7,5,5``."""
    sep = ";" if ";" in text else ","
    return [v.strip() for v in text.split(sep)]


def plan_lab(game: Game[Any, Any, Any] | str, vary: str, values: Sequence[str] | str, *,
             players: int | None = None, bots: Sequence[str] = ("greedy",), games: int = 100, seed: int = 1,
             options: Mapping[str, Any] | None = None) -> LabPlan:
    """Check everything before a game is played: the name (an option or a data value of the
    game), every value (parsed and checked as the game does for that option or data value), the
    bots and the seats. Raises :class:`TableroError` with a clear message."""
    if isinstance(game, str):
        game = get_game(game)
    if games < 1:
        raise TableroError("games must be at least 1")
    bot_list = tuple(b.strip().lower() for b in bots if b.strip())
    if not bot_list:
        raise TableroError("name at least one bot")
    for b in bot_list:
        make_bot(b, game.id)  # an unknown bot fails here, with the bots it knows
    rotate = len(bot_list) > 1
    if players is None:
        players = len(bot_list) if rotate else min(max(3, game.min_players), game.max_players)
    elif rotate and players != len(bot_list):
        raise TableroError(f"--bots names {len(bot_list)} bots (one per seat) but --players is {players}; "
                           "name one bot for every seat or one per seat")
    if not game.min_players <= players <= game.max_players:
        raise TableroError(f"{game.id} takes {game.min_players}-{game.max_players} players, not {players}")
    base: dict[str, Any] = {k: (dict(v) if k == DATA_OPTION and isinstance(v, Mapping) else v)
                            for k, v in (options or {}).items()}
    name = vary.strip()
    option_names = [o.name for o in game.options]
    data_names = [d.name for d in game.data_specs]
    if name in option_names:
        kind = "option"
        if name in base:
            raise OptionError(f"option {name} is varied by --vary; do not also set it with --option")
    elif name in data_names:
        kind = "data"
        if name in base.get(DATA_OPTION, {}):
            raise OptionError(f"data value {name} is varied by --vary; do not also set it with --data")
    else:
        known = option_names + data_names
        close = [k for k in known if k.lower() == name.lower()] or difflib.get_close_matches(name, known, n=3)
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        raise OptionError(f"{game.id} has no option or data value {name!r} to vary{hint}; "
                          f"options: {', '.join(option_names) or 'none'}; "
                          f"data values: {core_data_names(game.data_specs) or 'none'}")
    labels = split_values(values) if isinstance(values, str) else [str(v).strip() for v in values]
    if not labels or any(not v for v in labels):
        raise OptionError(f"--vary {name}= needs values separated by commas (V1,V2,...), not {values!r}")
    base_resolved = game.resolve_options(players, base)
    run_options: list[dict[str, Any]] = []
    resolved: list[dict[str, Any]] = []
    parsed: list[Any] = []
    for label in labels:
        opts = dict(base)
        if kind == "option":
            opts[name] = label
        else:
            opts[DATA_OPTION] = {**base.get(DATA_OPTION, {}), name: label}
        r = jsonable(game.resolve_options(players, opts))  # raises OptionError / DataError
        value = r[name] if kind == "option" else r[DATA_OPTION][name]
        if value in parsed:
            raise OptionError(f"--vary {name}: the value {label!r} is given twice")
        run_options.append(opts)
        resolved.append(r)
        parsed.append(value)
    return LabPlan(game=game.id, players=players, vary=name, kind=kind, labels=tuple(labels),
                   values=tuple(parsed), run_options=tuple(run_options), resolved=tuple(resolved),
                   base_options=jsonable(base_resolved), bots=bot_list, rotate=rotate, games=games, seed=seed)


# ---------------------------------------------------------------------------- the statistics
def _share(wins: float, n: int) -> dict[str, Any]:
    lo, hi = wilson_interval(wins, n)
    return {"games": n, "wins": wins, "win_share": wins / n if n else math.nan, "ci95": [lo, hi]}


def _length(out: GameOutcome, metric: str) -> float:
    if metric == "rounds":
        return float(out.rounds or 0)
    return float(out.decisions)


def summarize(plan: LabPlan, v: int, outs: Sequence[GameOutcome], first: Sequence[GameOutcome] | None,
              metric: str) -> dict[str, Any]:
    """One value's run: its statistics over its games (``first``: the first value's games, for
    the paired difference of the game length ``metric``, ``rounds`` or ``decisions``)."""
    n = len(outs)
    players = plan.players
    run: dict[str, Any] = {"value": plan.values[v], "label": plan.labels[v], "options": plan.resolved[v],
                           "games": n}
    for key, xs in (("actions", [o.actions for o in outs]), ("decisions", [o.decisions for o in outs])):
        run[f"mean_{key}"], run[f"ci_{key}"] = mean_ci([float(x) for x in xs], 0.0)
    rounds = [o.rounds for o in outs if o.rounds is not None]
    if rounds and len(rounds) == n:
        run["mean_rounds"], run["ci_rounds"] = mean_ci([float(r) for r in rounds], 0.0)
        run["rounds_seen"] = [[r, c] for r, c in sorted(Counter(rounds).items())]
    else:
        run["mean_rounds"], run["ci_rounds"], run["rounds_seen"] = None, None, None
    spreads, margins = [], []
    for o in outs:
        s = o.scores
        m = sum(s) / len(s)
        spreads.append(math.sqrt(sum((x - m) ** 2 for x in s) / len(s)))
        top = sorted(s, reverse=True)
        margins.append(top[0] - top[1] if len(top) > 1 else 0.0)
    run["mean_spread"], run["ci_spread"] = mean_ci(spreads, 0.0)
    run["mean_margin"], run["ci_margin"] = mean_ci(margins, 0.0)
    run["no_winner"] = sum(1 for o in outs if sum(o.win_shares) == 0) / n
    run["ended"] = n / plan.games
    seats = []
    for p in range(players):
        mean, ci = mean_ci([o.scores[p] for o in outs])
        seats.append({"seat": p, "bot": ROTATED if plan.rotate else plan.bots[0],
                      **_share(sum(o.win_shares[p] for o in outs), n), "mean_score": mean, "ci_score": ci})
    run["seats"] = seats
    if plan.rotate:
        by_bot: dict[str, dict[str, float]] = {}
        for o in outs:
            for p, b in enumerate(o.players):
                acc = by_bot.setdefault(b, {"n": 0, "wins": 0.0, "score": 0.0})
                acc["n"] += 1
                acc["wins"] += o.win_shares[p]
                acc["score"] += o.scores[p]
        run["bots"] = {b: {**_share(a["wins"], int(a["n"])), "mean_score": a["score"] / a["n"]}
                       for b, a in by_bot.items()}
    roles: dict[str, dict[str, float]] = {}
    for o in outs:
        for p, role in enumerate(o.roles or ()):
            acc = roles.setdefault(role, {"n": 0, "wins": 0.0, "score": 0.0})
            acc["n"] += 1
            acc["wins"] += o.win_shares[p]
            acc["score"] += o.scores[p]
    run["roles"] = {r: {**_share(a["wins"], int(a["n"])), "mean_score": a["score"] / a["n"]}
                    for r, a in sorted(roles.items())}
    if first is not None:
        diffs = [_length(o, metric) - _length(f, metric) for o, f in zip(outs, first, strict=True)]
        mean, ci = mean_ci(diffs)
        run["delta_length"] = {"metric": metric, "mean": mean, "ci": ci}
    else:
        run["delta_length"] = None
    run["outcomes"] = [o.to_json() for o in outs]
    return run


def run_lab(plan: LabPlan, *, workers: int = 1, ray: str | None = None, progress: Progress | None = None,
            command: str = "", versions: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Play every value's games (through the executor: a process pool or Ray, same results) and
    return the lab's results (what results.json holds)."""
    jobs = plan.jobs()
    by_value: list[list[GameOutcome]] = [[] for _ in plan.values]
    for out in run_jobs(jobs, workers=workers, ray=ray, progress=progress):
        by_value[out.index // plan.games].append(out)
    for outs in by_value:
        if len(outs) != plan.games:
            raise RuntimeError(f"the lab expected {plan.games} games per value, got {len(outs)}")
    metric = "rounds" if all(o.rounds is not None for outs in by_value for o in outs) else "decisions"
    runs = [summarize(plan, v, outs, by_value[0] if v else None, metric) for v, outs in enumerate(by_value)]
    seat_roles = fixed_roles([o.roles for outs in by_value for o in outs])
    return {
        "game": plan.game,
        "title": get_game(plan.game).title,
        "players": plan.players,
        "vary": plan.vary,
        "vary_kind": plan.kind,
        "values": list(plan.values),
        "labels": list(plan.labels),
        "bots": list(plan.bots),
        "rotate": plan.rotate,
        "games": plan.games,
        "seed": plan.seed,
        "options": plan.base_options,
        "length_metric": metric,
        "rounds_unit": rounds_unit(plan.game),
        "seat_roles": None if seat_roles is None else list(seat_roles),
        "command": command,
        "versions": dict(versions or {}),
        "runs": runs,
    }


# ---------------------------------------------------------------------------- output
def check_out(out: Path, command: str) -> None:
    """Refuse, before any game is played, an ``--out`` that is a file or a folder holding another
    run's results (a tournament, or a lab run by another command): the lab's results.json,
    report.html and plots would overwrite them. The same command may write there again (it
    gives the very same results)."""
    if out.exists() and not out.is_dir():
        raise TableroError(f"--out {out} is a file, not a folder")
    blocked = next((a for a in out.absolute().parents if a.exists() and not a.is_dir()), None)
    if blocked is not None:
        raise TableroError(f"--out {out} cannot be made: {blocked} is a file, not a folder")
    if (out / "tournament.json").exists() or (out / "games.jsonl").exists():
        raise TableroError(f"{out} holds a tournament; choose another --out folder")
    path = out / "results.json"
    if not path.exists():
        return
    try:
        there = json.loads(path.read_text(encoding="utf-8")).get("command")
    except (OSError, ValueError, AttributeError):
        there = None
    if there != command:
        what = f"of `{there}`" if there else "of another run"
        raise TableroError(f"{out} holds the results {what}; choose another --out folder (or delete that one)")


def write_results(results: Mapping[str, Any], out: Path) -> Path:
    """DIR/results.json (sorted keys, so the same run gives the same bytes)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "results.json"
    path.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path



Cell = tuple[str, bool]
"""A table cell for :func:`tablero.study.report.html_table`: its text, and True to set it as a number."""


def _pm(mean: float | None, ci: Sequence[float] | None, fmt: str = ".1f") -> Cell:
    if mean is None:
        return ("–", True)
    if ci is None:
        return (format(mean, fmt), True)
    return (f"{mean:{fmt}} ± {ci[1] - mean:{fmt.lstrip('+')}}", True)


def _pct(s: Mapping[str, Any]) -> Cell:
    return (f"{s['win_share']:.1%} ({s['ci95'][0]:.1%}–{s['ci95'][1]:.1%})", True)


def summary_rows(results: Mapping[str, Any]) -> tuple[list[str], list[list[str | Cell]]]:
    """The table of every value: length, margin, spread, the no-winner share (where a game had
    none) and the paired change of the length."""
    runs = results["runs"]
    unit = results["rounds_unit"]
    metric = unit if results["length_metric"] == "rounds" else "turns"
    rounds = all(r["mean_rounds"] is not None for r in runs)
    no_winner = any(r["no_winner"] for r in runs)
    headers = [results["vary"], *([unit] if rounds else []), "turns", "record entries", "margin", "spread",
               *(["no winner"] if no_winner else []), f"Δ {metric} (paired)"]
    rows: list[list[str | Cell]] = []
    for r in runs:
        d = r["delta_length"]
        rows.append([r["label"], *([_pm(r["mean_rounds"], r["ci_rounds"], ".2f")] if rounds else []),
                     _pm(r["mean_decisions"], r["ci_decisions"]), _pm(r["mean_actions"], r["ci_actions"]),
                     _pm(r["mean_margin"], r["ci_margin"]), _pm(r["mean_spread"], r["ci_spread"]),
                     *([(f"{r['no_winner']:.1%}", True)] if no_winner else []),
                     ("–", True) if d is None else _pm(d["mean"], d["ci"], "+.2f")])
    return headers, rows


def seat_rows(results: Mapping[str, Any], what: str) -> tuple[list[str], list[list[str | Cell]]]:
    """Per value, every seat's win share (``wins``, Wilson 95%) or mean score (``score``, t 95%)."""
    headers = [results["vary"], *seat_headers(results)]
    rows: list[list[str | Cell]] = [
        [r["label"], *(_pct(s) if what == "wins" else _pm(s["mean_score"], s["ci_score"]) for s in r["seats"])]
        for r in results["runs"]]
    return headers, rows


def seat_headers(results: Mapping[str, Any]) -> list[str]:
    """``seat 1``, ...; with the seat's colour where the colour goes with the seat (``seat 1 (Yellow)``)."""
    roles = results.get("seat_roles")
    return [f"seat {p + 1}" + (f" ({role_label(roles[p])})" if roles else "") for p in range(results["players"])]


def group_rows(results: Mapping[str, Any], key: str) -> tuple[list[str], list[list[str | Cell]]] | None:
    """Win share per family/colour (``roles``) or per bot (``bots``), per value; None if none, and
    for ``roles`` where each seat always had the same one (the seat table says it all then)."""
    if key == "roles" and results.get("seat_roles"):
        return None
    names = sorted({g for r in results["runs"] for g in (r.get(key) or {})})
    if not names:
        return None
    headers = [results["vary"], *(role_label(g) if key == "roles" else g for g in names)]
    rows: list[list[str | Cell]] = [[r["label"], *(_group_cell(r, key, g) for g in names)] for r in results["runs"]]
    return headers, rows


def _group_cell(run: Mapping[str, Any], key: str, name: str) -> Cell:
    """A family's or bot's win share; its seat-games where they differ from the games played."""
    if name not in run[key]:
        return ("–", True)
    g = run[key][name]
    return (_pct(g)[0] + ("" if g["games"] == run["games"] else f", n={g['games']}"), True)


def report_html(results: Mapping[str, Any], figures: Sequence[Path]) -> str:
    """The lab's page: what was measured, the tables, the figures, the command and versions."""
    from tablero.study.report import html_page, html_table

    value_list = escape(", ".join(str(v) for v in results["labels"]))
    ended = min(r["ended"] for r in results["runs"])
    nobody = [f"{r['no_winner']:.1%} at {escape(r['label'])}" for r in results["runs"] if r["no_winner"]]
    no_winner = f"; no winner in {', '.join(nobody)}" if nobody else "; every game had a winner"
    bots = escape(", ".join(results["bots"]))
    seating_text = ("one bot per seat, the seats rotated from game to game" if results["rotate"]
                    else "the same bot in every seat")
    kind = "data value" if results["vary_kind"] == "data" else "option"
    seat_roles = results.get("seat_roles")
    colours = ("" if not seat_roles else
               "<p>Each seat always plays the same colour (" + escape(", ".join(
                   f"seat {p + 1} {role_label(r)}" for p, r in enumerate(seat_roles))) + "): the seat tables are "
               "the colours' tables too.</p>")
    intro = (
        f"<p>{results['games']} games of <b>{escape(results.get('title', results['game']))}</b> with "
        f"{results['players']} players for each value of the {kind} <b>{escape(results['vary'])}</b> "
        f"({value_list}); bots: {bots} ({seating_text}); master seed {results['seed']}.</p>"
        "<p><b>Common random numbers:</b> game <i>i</i> of every value uses the same match seed "
        "derive_seed(seed, i), the same seats and the same bot random streams, so the values are compared on "
        "the same deals where the value does not change the draws. The column “Δ … (paired)” is the mean "
        "game-by-game difference of the game length to the first value, with its 95% interval: an interval "
        "that excludes 0 is a real change.</p>"
        "<p>Means show ± half their Student-t 95% interval (results.json holds the intervals); win shares "
        "their Wilson 95% interval in brackets (a first place shared by k seats counts 1/k). <i>Margin</i>: "
        "the top score minus the second. <i>Spread</i>: the standard deviation of the seats' scores "
        "in a game. <i>Turns</i>: the seats' record entries; <i>record entries</i> add chance and forced "
        "steps.</p>"
        f"<p>Every game reached the game's own end ({ended:.0%} of the games; the lab stops with an error "
        f"otherwise){no_winner}.</p>{colours}"
    )
    sections = [("What was measured", intro), ("Game length, margin and spread", html_table(*summary_rows(results))),
                ("Win share per seat", html_table(*seat_rows(results, "wins"))),
                ("Mean score per seat", html_table(*seat_rows(results, "score")))]
    roles = group_rows(results, "roles")
    if roles is not None:
        sections.append(("Win share per family/colour", html_table(*roles)))
    bot_rows = group_rows(results, "bots")
    if bot_rows is not None:
        sections.append(("Win share per bot (every seat it played)", html_table(*bot_rows)))
    labels = ", ".join(str(v) for v in results["labels"])
    title = f"Lab: {results.get('title', results['game'])}, {results['vary']} = {labels}"  # html_page escapes it
    return html_page(title, command=results["command"], sections=sections, figures=figures,
                     versions=results["versions"])


def write_outputs(results: Mapping[str, Any], out: Path) -> tuple[Path, list[Path], Path]:
    """results.json, the PNG figures and report.html in ``out``."""
    from tablero.study.labplots import lab_plots

    json_path = write_results(results, out)
    figures = lab_plots(results, out)
    page = out / "report.html"
    page.write_text(report_html(results, figures), encoding="utf-8")
    return json_path, figures, page
