"""The study's pictures: matplotlib on the Agg backend (no display needed), saved as PNG.

:func:`save` writes a figure and frees it. The tournament's four plots are built from its
results.json content (:func:`tournament_plots`): ratings with error bars, win share by seat,
score distributions and game length.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

DPI = 120
STYLE: dict[Any, Any] = {
    "font.size": 12,
    "axes.titlesize": 14,
    "axes.titleweight": "bold",
    "axes.labelsize": 12,
    "xtick.labelsize": 11,
    "ytick.labelsize": 11,
    "legend.fontsize": 11,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
}
COLOURS = ("#2f5f9e", "#d1603d", "#3f9b62", "#8e5ba8", "#c9a227", "#4aa3b5", "#b54a7a", "#6b6b6b")


def colour(i: int) -> str:
    """The colour of the ``i``-th bot (the same in every plot)."""
    return COLOURS[i % len(COLOURS)]


def figure(width: float = 7.5, height: float = 4.5) -> tuple[Figure, Any]:
    """A new figure with one axes, in the study style."""
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(width, height), layout="constrained")
    return fig, ax


def save(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` as a PNG to ``path`` (folders made as needed) and close it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI, format="png", metadata={"Software": None})
    plt.close(fig)
    return path


def _subtitle(results: Mapping[str, Any]) -> str:
    return f"{results.get('title', results['game'])}, {results['players']} players, {results['games']} games"


def ratings_plot(results: Mapping[str, Any], path: str | Path) -> Path:
    """Each bot's OpenSkill mu with mu ± 2 sigma as error bars and the ordinal mu − 3 sigma
    as a mark, best at the top."""
    bots = list(results["bots"])
    rated = sorted(bots, key=lambda b: results["ratings"][b]["mu"])
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(7.5, 1.6 + 0.55 * len(bots)), layout="constrained")
        for y, b in enumerate(rated):
            r = results["ratings"][b]
            c = colour(bots.index(b))
            ax.errorbar(r["mu"], y, xerr=2 * r["sigma"], fmt="o", color=c, ecolor=c, elinewidth=2.5, capsize=6,
                        markersize=9, label="μ ± 2σ" if y == 0 else None)
            ax.plot(r["ordinal"], y, marker="|", linestyle="none", color="black", markersize=16, markeredgewidth=2,
                    label="ordinal μ − 3σ" if y == 0 else None)
            ax.annotate(f"μ {r['mu']:.1f}", (r["mu"], y), xytext=(0, 9), textcoords="offset points",
                        ha="center", fontsize=11)
        ax.set_yticks(range(len(rated)), rated)
        ax.set_ylim(-0.7, len(rated) - 0.3)
        ax.set_xlabel("OpenSkill rating (Plackett–Luce; error bars μ ± 2σ)")
        ax.set_title(f"Ratings — {_subtitle(results)}")
        ax.grid(axis="y", visible=False)
        fig.legend(loc="outside lower center", frameon=False, ncols=2)  # never over a bar
    return save(fig, path)


def seats_plot(results: Mapping[str, Any], path: str | Path) -> Path:
    """Win share per seat: grouped bars (all games, then each bot) with their 95% intervals,
    and the fair share 1/N as a dashed line."""
    bots = list(results["bots"])
    seats = results["seats"]
    groups = [("all games", None), *[(b, b) for b in bots]]
    width = 0.8 / len(groups)
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(max(7.5, 1.2 + 0.55 * len(seats) * len(groups)), 4.6),
                               layout="constrained")
        for g, (label, bot) in enumerate(groups):
            xs, ys, lo, hi = [], [], [], []
            for s in seats:
                cell = s if bot is None else s["by_bot"][bot]
                if not cell["games"]:
                    continue
                xs.append(s["seat"] + (g - (len(groups) - 1) / 2) * width)
                ys.append(cell["win_share"])
                lo.append(cell["win_share"] - cell["ci95"][0])
                hi.append(cell["ci95"][1] - cell["win_share"])
            c = "#9aa3b2" if bot is None else colour(bots.index(bot))
            ax.bar(xs, ys, width * 0.92, yerr=[lo, hi], color=c, label=label, capsize=3,
                   error_kw={"elinewidth": 1.2, "ecolor": "#333"})
            for x in xs:  # a stub on the axis, so a share of 0 still shows its colour
                ax.plot([x - width * 0.46, x + width * 0.46], [0.004, 0.004], color=c, linewidth=4,
                        solid_capstyle="butt")
        fair = 1 / results["players"]
        ax.axhline(fair, color="#333", linestyle="--", linewidth=1, label=f"fair share 1/{results['players']}")
        ax.set_xticks(range(len(seats)), [f"Seat {s['seat'] + 1}" for s in seats])
        ax.set_ylim(0, 1.05)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        ax.set_ylabel("Win share (95% interval)")
        ax.set_title(f"Win share by seat — {_subtitle(results)}")
        ax.grid(axis="x", visible=False)
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return save(fig, path)


def scores_plot(results: Mapping[str, Any], path: str | Path) -> Path:
    """Each bot's final scores over all its seat-games: a box per bot (median, quartiles,
    whiskers at 1.5 IQR), the mean as a white diamond."""
    bots = list(results["bots"])
    data: list[list[float]] = [[] for _ in bots]
    for g in results["games_played"]:
        for b, s in zip(g["players"], g["scores"], strict=True):
            data[bots.index(b)].append(float(s))
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(max(7.5, 1.5 + 1.3 * len(bots)), 4.6), layout="constrained")
        box = ax.boxplot(data, tick_labels=bots, patch_artist=True, showmeans=True, widths=0.55,
                         meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "black"},
                         medianprops={"color": "black", "linewidth": 1.5})
        for i, patch in enumerate(box["boxes"]):
            patch.set_facecolor(colour(i))
            patch.set_alpha(0.75)
        ax.set_xlabel("Bot")
        ax.set_ylabel("Final score per seat-game")
        ax.set_title(f"Score distribution — {_subtitle(results)}")
        ax.grid(axis="x", visible=False)
    return save(fig, path)


def lengths_plot(results: Mapping[str, Any], path: str | Path) -> Path:
    """Histograms of the game length: record entries per game, and the game's rounds where it
    counts them."""
    games = results["games_played"]
    actions = [g["actions"] for g in games]
    rounds = [g["rounds"] for g in games]
    has_rounds = bool(rounds) and all(r is not None for r in rounds)
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(1, 2 if has_rounds else 1, figsize=(9.0 if has_rounds else 6.5, 4.2),
                                 layout="constrained", squeeze=False)
        _histogram(axes[0][0], actions, "Record entries per game (actions, forced steps, chance)", "#2f5f9e")
        if has_rounds:
            unit = str(results.get("rounds_unit", "rounds"))
            _histogram(axes[0][1], rounds, f"{unit.capitalize()} per game", "#d1603d")
        fig.suptitle(f"Game length — {_subtitle(results)}", fontweight="bold", fontsize=14)
    return save(fig, path)


def _histogram(ax: Any, values: Sequence[float], label: str, c: str) -> None:
    """A histogram of whole numbers: bins of whole width, centred on the numbers."""
    low, high = int(min(values)), int(max(values))
    step = max(1, -(-(high - low + 1) // 24))
    bins = [low - 0.5 + k * step for k in range((high - low) // step + 2)]
    ax.hist(values, bins=bins, color=c, alpha=0.85, edgecolor="white")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    mean = sum(values) / len(values)
    ax.axvline(mean, color="black", linestyle="--", linewidth=1.2)
    # The mean above the axes, not in a legend that would cover the bars at the top.
    ax.set_title(f"mean {mean:.1f} (dashed)", loc="right", fontsize=11, fontweight="normal")
    ax.set_xlabel(label)
    ax.set_ylabel("Games")
    ax.grid(axis="x", visible=False)


TOURNAMENT_PLOTS = (
    ("ratings.png", ratings_plot),
    ("win-share-by-seat.png", seats_plot),
    ("scores.png", scores_plot),
    ("game-length.png", lengths_plot),
)


def tournament_plots(results: Mapping[str, Any], directory: str | Path) -> list[Path]:
    """The tournament's PNG plots in ``directory``: ratings, win share by seat, scores, length."""
    return [plot(results, Path(directory) / name) for name, plot in TOURNAMENT_PLOTS]
