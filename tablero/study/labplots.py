"""The lab's pictures: each metric against the varied value, with 95% error bars.

Every function takes the lab's results (:func:`tablero.study.lab.run_lab`), draws one figure in
the study style (:mod:`tablero.study.plots`) and saves it as a PNG; it returns the path, or None
when the game has nothing to draw for it (no rounds; no families or colours, or colours that go
with the seats, which the seat plot names). Where every value
is a whole number the x axis is to scale (40, 45, 50); otherwise the values stand side by side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt  # the Agg backend: tablero.study.plots sets it on import
from matplotlib.ticker import PercentFormatter

from tablero.study.plots import STYLE, colour, save
from tablero.study.stats import role_label

WIDTH, HEIGHT = 7.5, 4.6


def _x(results: Mapping[str, Any]) -> tuple[list[float], list[str], bool]:
    """The x position of each value: the value itself where every value is a whole number,
    else 0, 1, 2, ... with the values as labels."""
    values = results["values"]
    labels = [str(x) for x in results.get("labels") or values]
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return [float(v) for v in values], labels, True
    return [float(i) for i in range(len(values))], labels, False


def _dodge(xs: Sequence[float], j: int, k: int, numeric: bool) -> list[float]:
    """Shift the j-th of k lines a little sideways, so their error bars do not hide each other."""
    if k <= 1:
        return list(xs)
    span = (max(xs) - min(xs)) if numeric and len(xs) > 1 else 1.0
    step = min(0.1, 0.4 / k) * span * (0.3 if numeric else 1.0)
    return [x + (j - (k - 1) / 2) * step for x in xs]


def _err(means: Sequence[float | None], cis: Sequence[Sequence[float] | None]) -> list[list[float]]:
    low, high = [], []
    for m, ci in zip(means, cis, strict=True):
        if m is None or ci is None:
            low.append(0.0)
            high.append(0.0)
        else:
            low.append(max(0.0, m - ci[0]))
            high.append(max(0.0, ci[1] - m))
    return [low, high]


def _axes(ax: Any, results: Mapping[str, Any], xs: Sequence[float], labels: Sequence[str], numeric: bool,
          ylabel: str) -> None:
    ax.set_xticks(list(xs), list(labels))
    if not numeric:
        ax.set_xlim(min(xs) - 0.5, max(xs) + 0.5)
    elif len(xs) > 1:
        pad = 0.12 * (max(xs) - min(xs))
        ax.set_xlim(min(xs) - pad, max(xs) + pad)
    else:
        ax.set_xlim(xs[0] - 1, xs[0] + 1)
    ax.set_xlabel(f"{results['vary']} ({'data value' if results.get('vary_kind') == 'data' else 'option'})")
    ax.set_ylabel(ylabel)
    ax.grid(axis="x", visible=False)


def _subtitle(results: Mapping[str, Any]) -> str:
    return (f"{results.get('title', results['game'])}, {results['players']} players, "
            f"{results['games']} games per value, bots {','.join(results['bots'])}; error bars 95%")


def _suptitle(fig: Any, results: Mapping[str, Any], title: str, bars: bool = True) -> None:
    sub = _subtitle(results) if bars else _subtitle(results).rsplit(";", 1)[0]
    fig.suptitle(f"{title}\n{sub}", fontsize=12, fontweight="bold", linespacing=1.5)


NAMED = {"yellow": "#c9a227", "red": "#c0392b", "blue": "#2f5f9e", "green": "#3f9b62", "magenta": "#b54a7a",
         "black": "#333333", "white": "#9aa3b2", "orange": "#d1603d", "purple": "#8e5ba8", "brown": "#8b5a2b",
         "grey": "#6b6b6b", "gray": "#6b6b6b"}
"""Families or colours named after a colour are drawn in it (El Grande's yellow seat in yellow)."""


def _role_colour(role: str, j: int) -> str:
    return NAMED.get(role.lower(), colour(j))


def _unit(results: Mapping[str, Any]) -> str:
    return str(results.get("rounds_unit", "rounds")).capitalize()


def _line(ax: Any, xs: Sequence[float], runs: Sequence[Mapping[str, Any]], mean: str, ci: str, label: str,
          c: str, dodge: tuple[int, int, bool] = (0, 1, True)) -> None:
    means = [r[mean] for r in runs]
    ax.errorbar(_dodge(xs, *dodge), means, yerr=_err(means, [r[ci] for r in runs]), marker="o", color=c,
                capsize=5, elinewidth=1.5, markersize=7, label=label)


def game_length_plot(results: Mapping[str, Any], out: Path) -> Path:
    """Game length against the value: rounds (months) where the game counts them, and turns
    (the seats' record entries) per game."""
    xs, labels, numeric = _x(results)
    runs = results["runs"]
    has_rounds = bool(runs) and all(r["mean_rounds"] is not None for r in runs)
    with plt.rc_context(STYLE):
        fig, axs = plt.subplots(1, 2 if has_rounds else 1, figsize=(10.0 if has_rounds else WIDTH, HEIGHT),
                                layout="constrained", squeeze=False)
        panels = [(axs[0][-1], "mean_decisions", "ci_decisions", "Turns per game", colour(2))]
        if has_rounds:
            panels.insert(0, (axs[0][0], "mean_rounds", "ci_rounds", f"{_unit(results)} per game", colour(0)))
        for ax, mean, ci, label, c in panels:
            _line(ax, xs, runs, mean, ci, label, c)
            _axes(ax, results, xs, labels, numeric, label)
        _suptitle(fig, results, "Game length")
    return save(fig, out / "game-length.png")


def win_share_by_seat_plot(results: Mapping[str, Any], out: Path) -> Path:
    """Win share of each seat against the value (a line per seat, Wilson 95% intervals) and the
    fair share 1/N."""
    xs, labels, numeric = _x(results)
    runs = results["runs"]
    n = results["players"]
    roles = results.get("seat_roles")  # a colour that goes with the seat names it (and colours its line)
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT), layout="constrained")
        ax.axhline(1 / n, color="#333", linestyle="--", linewidth=1, label=f"fair share 1/{n}")
        for p in range(n):
            seats = [r["seats"][p] for r in runs]
            means = [s["win_share"] for s in seats]
            label = f"Seat {p + 1}" + (f" ({role_label(roles[p])})" if roles else "")
            ax.errorbar(_dodge(xs, p, n, numeric), means, yerr=_err(means, [s["ci95"] for s in seats]),
                        marker="o", color=_role_colour(roles[p], p) if roles else colour(p), capsize=4,
                        elinewidth=1.3, label=label)
        _axes(ax, results, xs, labels, numeric, "Win share")
        top = max([s["ci95"][1] for r in runs for s in r["seats"]] + [0.6])
        ax.set_ylim(0, min(1.02, top + 0.05))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
        _suptitle(fig, results, "Win share by seat")
    return save(fig, out / "win-share-by-seat.png")


def win_share_by_family_plot(results: Mapping[str, Any], out: Path) -> Path | None:
    """Win share of each family or colour against the value (over the games a seat had it); None
    where the game has none, or where each seat always had the same one (the seat plot names it)."""
    runs = results["runs"]
    roles = sorted({role for r in runs for role in r["roles"]})
    if not roles or results.get("seat_roles"):
        return None
    xs, labels, numeric = _x(results)
    n = results["players"]
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT), layout="constrained")
        ax.axhline(1 / n, color="#333", linestyle="--", linewidth=1, label=f"fair share 1/{n}")
        for j, role in enumerate(roles):
            moved = _dodge(xs, j, len(roles), numeric)
            pts = [(x, r["roles"][role]) for x, r in zip(moved, runs, strict=True) if role in r["roles"]]
            means = [s["win_share"] for _, s in pts]
            ax.errorbar([x for x, _ in pts], means, yerr=_err(means, [s["ci95"] for _, s in pts]), marker="o",
                        color=_role_colour(role, j), capsize=3, elinewidth=1.2, label=role_label(role))
        _axes(ax, results, xs, labels, numeric, "Win share of the seats that had it")
        top = max([r["roles"][g]["ci95"][1] for r in runs for g in r["roles"]] + [0.6])
        ax.set_ylim(0, min(1.02, top + 0.05))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
        _suptitle(fig, results, "Win share by family / colour")
    return save(fig, out / "win-share-by-family.png")


def margin_and_spread_plot(results: Mapping[str, Any], out: Path) -> Path:
    """Margin of victory (winner minus runner-up) and score spread (the standard deviation of
    the seats' scores in a game) against the value."""
    xs, labels, numeric = _x(results)
    runs = results["runs"]
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT), layout="constrained")
        _line(ax, xs, runs, "mean_margin", "ci_margin", "Margin: winner − runner-up", colour(1), (0, 2, numeric))
        _line(ax, xs, runs, "mean_spread", "ci_spread", "Spread: std of the seats' scores", colour(3),
              (1, 2, numeric))
        _axes(ax, results, xs, labels, numeric, "Points")
        ax.set_ylim(bottom=0)
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
        _suptitle(fig, results, "Margin of victory and score spread")
    return save(fig, out / "margin-and-spread.png")


def rounds_distribution_plot(results: Mapping[str, Any], out: Path) -> Path | None:
    """How many rounds (months) the games lasted: the share of games per length, a bar per value."""
    runs = results["runs"]
    if not runs or any(r["rounds_seen"] is None for r in runs):
        return None
    lengths = sorted({int(n) for r in runs for n, _ in r["rounds_seen"]})
    k = len(runs)
    width = 0.8 / k
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT), layout="constrained")
        for j, r in enumerate(runs):
            seen = {int(n): c for n, c in r["rounds_seen"]}
            shares = [seen.get(n, 0) / r["games"] for n in lengths]
            ax.bar([n + (j - (k - 1) / 2) * width for n in lengths], shares, width=width * 0.92, color=colour(j),
                   label=f"{results['vary']} = {r['label']}")
        ax.set_xticks(lengths)
        ax.set_xlabel(f"{_unit(results)} the game lasted")
        ax.set_ylabel("Share of games")
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.grid(axis="x", visible=False)
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
        _suptitle(fig, results, "Game length distribution", bars=False)
    return save(fig, out / "rounds-distribution.png")


LAB_PLOTS = (game_length_plot, win_share_by_seat_plot, win_share_by_family_plot, margin_and_spread_plot,
             rounds_distribution_plot)


def lab_plots(results: Mapping[str, Any], out: Path) -> list[Path]:
    """Every lab figure the game allows, as PNG files in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    made = [plot(results, out) for plot in LAB_PLOTS]
    return [p for p in made if p is not None]
