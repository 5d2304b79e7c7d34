"""Tournaments: which bot is stronger, and by how much — ratings, pairs, seats, per bot.

``tablero tournament GAME --bots A,B,C --players N --games G`` plays a balanced schedule of
bot-only games and reduces them, in game order, to:

* **ratings** — OpenSkill (Weng–Lin) with the Plackett–Luce model: each seat is a team of one,
  ranked by the game's result with shared places (ranks 1, 1, 3), the bot in it updated;
  ``mu``, ``sigma`` and ``ordinal = mu - 3 sigma`` per bot (openskill's defaults: every bot
  starts at mu 25, sigma 25/3).
* **pairs** — for every two bots, in the games where both took part: the share of those games
  in which the first placed better than the second (a tie counts half), with a Wilson 95%
  interval (:func:`tablero.study.stats.wilson_interval`).
* **seats** — the win share of every seat position (does the game favour a seat?) and of
  every bot in every seat (a first place shared by ``k`` seats counts ``1/k`` of a win).
* **by_bot** — win share over all its seat-games, mean rank, mean score, and the mean length
  (record entries, turns, the game's own rounds) of the games it took part in.

The schedule (:func:`schedule`) is balanced: the line-ups are every combination of ``N`` of the
``k`` bots (``k >= N``), or, with fewer bots than seats (``k < N``), every multiset of ``N``
bots in which every bot appears at least once; each line-up is played in all its ``N`` seat
rotations. One such *cycle* of ``len(lineups) * N`` games seats every bot in every seat equally
often; every two bots meet equally often (``k >= N``: in ``C(k-2, N-2)`` line-ups, each
rotated; ``k < N``: every game has every bot), and for every two bots ``a`` and ``b``, ``a``
takes each seat equally often in the games with ``b``. ``G`` is rounded up to whole cycles.
Rotations keep the cyclic order of a line-up: who sits after whom is the same in all its
rotations (a line-up of three plays ``a b c``, ``b c a``, ``c a b``, never ``a c b``).

The same bot in two seats of one game (only when ``k < N``): the bot has one skill, so the game
is one update of one rating. Each of its seats is rated as a copy of its rating (the others see
a field of ``N`` teams, exactly as in any game), and the steps of its seats are added, as the
Weng–Lin update does for a parameter shared by several players: ``mu`` moves by the sum of the
seats' ``mu`` steps, and the variance shrinks by the sum of the seats' shrink factors
(``sigma² ← (sigma² + tau²) · max(1 - Σ (1 - sigma_s'² / (sigma² + tau²)), kappa)``). A seat
against its own twin thus pushes both ways and cancels out, and two seats beaten by a third bot
count as two defeats. With one seat per bot this is exactly openskill's update.

Game ``i`` is played with the match seed ``derive_seed(seed, i)`` and the line-up
:meth:`Schedule.seats` ``(i)``; the games are reduced in game order. So the results are a
function of the arguments alone, whatever the executor (local pool or Ray) and however often
the run was interrupted: finished games are appended to ``DIR/games.jsonl`` as they come
(flushed), ``DIR/tournament.json`` holds the arguments, and a run with the same arguments plays
only the games still missing.
"""

from __future__ import annotations

import json
import math
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from tablero.bots import make_bot
from tablero.core.protocol import DATA_OPTION, Game
from tablero.core.rng import derive_seed
from tablero.registry import get_game
from tablero.study.executor import GameJob, GameOutcome, run_jobs
from tablero.study.stats import jsonable, rounds_unit, wilson_interval

Progress = Callable[[int, int], None]
"""Called as ``progress(games_done, games_total)`` after each finished game (resumed games
count as done from the start)."""

PARAMS_FILE = "tournament.json"
GAMES_FILE = "games.jsonl"
RESULTS_FILE = "results.json"
REPORT_FILE = "report.html"

KAPPA = 0.0001
"""openskill's lower bound of the variance shrink factor (its ``kappa``)."""

RATING_MODEL = {
    "model": "openskill PlackettLuce (defaults)",
    "ordinal": "mu - 3 sigma",
    "teams": "one per seat",
}


class TournamentError(ValueError):
    """Arguments that make no tournament, or an output folder that belongs to another one."""


# ---------------------------------------------------------------------------- schedule
@dataclass(frozen=True, slots=True)
class Schedule:
    """The line-ups of a balanced tournament; game ``i`` plays line-up ``(i % cycle) // N`` in
    rotation ``i % N`` (seat ``p`` gets ``lineup[(p + i) % N]``)."""

    bots: tuple[str, ...]
    players: int
    lineups: tuple[tuple[str, ...], ...]

    @property
    def cycle(self) -> int:
        """Games in one balanced cycle: every line-up in each of its seat rotations."""
        return len(self.lineups) * self.players

    def games(self, requested: int) -> int:
        """``requested`` rounded up to whole cycles (at least one)."""
        return max(1, math.ceil(requested / self.cycle)) * self.cycle

    def seats(self, index: int) -> tuple[str, ...]:
        """The bot in each seat of game ``index``."""
        n = self.players
        lineup = self.lineups[(index % self.cycle) // n]
        return tuple(lineup[(p + index) % n] for p in range(n))


def schedule(bots: Sequence[str], players: int) -> Schedule:
    """The balanced schedule of ``bots`` at tables of ``players`` (see the module's text)."""
    names = tuple(bots)
    if len(set(names)) != len(names):
        raise TournamentError(f"each bot once, please: {', '.join(names)}")
    if len(names) < 2:
        raise TournamentError("a tournament needs at least two different bots")
    if players < 2:
        raise TournamentError("a tournament needs at least two seats")
    if len(names) >= players:
        lineups = tuple(combinations(names, players))
    else:
        lineups = tuple(m for m in combinations_with_replacement(names, players) if set(m) == set(names))
    return Schedule(bots=names, players=players, lineups=lineups)


# ---------------------------------------------------------------------------- ratings
def rate(bots: Sequence[str], outcomes: Sequence[GameOutcome]) -> dict[str, dict[str, float]]:
    """OpenSkill Plackett–Luce ratings after ``outcomes`` (in this order), per bot:
    ``{"mu", "sigma", "ordinal"}``. A bot in several seats of one game: see the module's text."""
    model = PlackettLuce()
    tau2 = model.tau * model.tau
    state = {b: (model.mu, model.sigma) for b in bots}
    for out in outcomes:
        teams = [[model.rating(mu=state[b][0], sigma=state[b][1])] for b in out.players]
        new = model.rate(teams, ranks=[float(r) for r in out.ranks])
        steps: dict[str, tuple[float, float]] = {}
        for p, b in enumerate(out.players):
            mu, sigma = state[b]
            prior = sigma * sigma + tau2
            d_mu, shrink = steps.get(b, (0.0, 0.0))
            steps[b] = (d_mu + new[p][0].mu - mu, shrink + 1.0 - new[p][0].sigma ** 2 / prior)
        for b, (d_mu, shrink) in steps.items():
            mu, sigma = state[b]
            state[b] = (mu + d_mu, math.sqrt((sigma * sigma + tau2) * max(1.0 - shrink, KAPPA)))
    return {b: {"mu": mu, "sigma": sigma, "ordinal": mu - 3.0 * sigma} for b, (mu, sigma) in state.items()}


# ---------------------------------------------------------------------------- reduction
def _share(wins: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {"games": games, "wins": wins, "win_share": wins / games if games else 0.0, "ci95": [low, high]}


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def pairs(bots: Sequence[str], outcomes: Sequence[GameOutcome]) -> list[dict[str, Any]]:
    """Every two bots ``a`` (listed first) and ``b``: in the games where both took part, who
    placed better. A game counts once; with a bot in several seats it is the mean over their
    seat pairs. ``share`` is a's: ``(a_better + ties / 2) / games``, with its Wilson interval."""
    out: list[dict[str, Any]] = []
    for a, b in combinations(bots, 2):
        games = 0
        a_better = b_better = ties = 0.0
        for o in outcomes:
            sa = [o.ranks[p] for p, x in enumerate(o.players) if x == a]
            sb = [o.ranks[p] for p, x in enumerate(o.players) if x == b]
            if not sa or not sb:
                continue
            games += 1
            n = len(sa) * len(sb)
            a_better += sum(1 for ra in sa for rb in sb if ra < rb) / n
            b_better += sum(1 for ra in sa for rb in sb if rb < ra) / n
            ties += sum(1 for ra in sa for rb in sb if ra == rb) / n
        wins = a_better + ties / 2
        low, high = wilson_interval(wins, games)
        out.append({"a": a, "b": b, "games": games, "a_better": a_better, "b_better": b_better, "ties": ties,
                    "share": wins / games if games else 0.0, "ci95": [low, high]})
    return out


def seat_table(bots: Sequence[str], players: int, outcomes: Sequence[GameOutcome]) -> list[dict[str, Any]]:
    """Per seat position: its win share and mean score over all games, and per bot in it."""
    rows: list[dict[str, Any]] = []
    for p in range(players):
        wins = sum(o.win_shares[p] for o in outcomes)
        row = {"seat": p, **_share(wins, len(outcomes)),
               "mean_score": _mean([float(o.scores[p]) for o in outcomes]), "by_bot": {}}
        for b in bots:
            mine = [o for o in outcomes if o.players[p] == b]
            row["by_bot"][b] = {**_share(sum(o.win_shares[p] for o in mine), len(mine)),
                                "mean_score": _mean([float(o.scores[p]) for o in mine])}
        rows.append(row)
    return rows


def bot_table(bots: Sequence[str], outcomes: Sequence[GameOutcome]) -> dict[str, dict[str, Any]]:
    """Per bot: its seat-games pooled (win share, mean rank, mean score) and the mean length of
    the games it took part in (``mean_rounds`` None where the game counts no rounds)."""
    table: dict[str, dict[str, Any]] = {}
    for b in bots:
        seats = [(o, p) for o in outcomes for p, x in enumerate(o.players) if x == b]
        games = [o for o in outcomes if b in o.players]
        rounds = [o.rounds for o in games]
        table[b] = {
            **_share(sum(o.win_shares[p] for o, p in seats), len(seats)),
            "seat_games": len(seats),
            "games": len(games),
            "mean_rank": _mean([float(o.ranks[p]) for o, p in seats]),
            "mean_score": _mean([float(o.scores[p]) for o, p in seats]),
            "mean_actions": _mean([float(o.actions) for o in games]),
            "mean_decisions": _mean([float(o.decisions) for o in games]),
            "mean_rounds": None if None in rounds else _mean([float(r or 0) for r in rounds]),
        }
    return table


def game_row(o: GameOutcome) -> dict[str, Any]:
    """One game in results.json's ``games_played``."""
    return {"index": o.index, "seed": o.seed, "players": list(o.players), "scores": [float(s) for s in o.scores],
            "ranks": list(o.ranks), "win_shares": list(o.win_shares), "actions": o.actions,
            "decisions": o.decisions, "rounds": o.rounds}


# ---------------------------------------------------------------------------- running
@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament's arguments, checked: what makes its results (not how they are computed)."""

    game: Game[Any, Any, Any]
    bots: tuple[str, ...]
    players: int
    requested: int
    seed: int
    options: dict[str, Any]
    """The caller's options (with the data overrides under ``"data"``), passed to every game."""
    resolved: dict[str, Any]
    """The options as the game resolved them (JSON-ready): what results.json shows."""
    plan: Schedule

    @property
    def games(self) -> int:
        return self.plan.games(self.requested)

    def identity(self) -> dict[str, Any]:
        """What DIR/tournament.json holds: a run with other values may not resume that folder."""
        return {"game": self.game.id, "bots": list(self.bots), "players": self.players, "games": self.games,
                "seed": self.seed, "options": self.resolved}

    def command(self) -> str:
        """The command line that reproduces these results (without the folder and the engine,
        which do not change them)."""
        words = ["tablero", "tournament", self.game.id, "--bots", ",".join(self.bots), "--players",
                 str(self.players), "--games", str(self.games), "--seed", str(self.seed)]
        for name, value in self.options.items():
            if name == DATA_OPTION:
                continue
            words += ["--option", f"{name}={_text(value)}"]
        for name, value in dict(self.options.get(DATA_OPTION) or {}).items():
            words += ["--data", f"{name}={_text(value)}"]
        return shlex.join(words)

    def job(self, index: int, save_dir: str | None = None) -> GameJob:
        return GameJob(index=index, game=self.game.id, seats=self.plan.seats(index),
                       seed=derive_seed(self.seed, index), options=self.options or None, save_dir=save_dir)


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple, set, frozenset)):
        return ",".join(str(v) for v in value)
    return str(value)


def prepare(game: Game[Any, Any, Any] | str, bots: Sequence[str], players: int, games: int, seed: int = 1,
            options: Mapping[str, Any] | None = None) -> Tournament:
    """Check the arguments (TableroError for an unknown game or bot or a bad option,
    TournamentError for a schedule that cannot be) before any game is played."""
    if isinstance(game, str):
        game = get_game(game)
    names = tuple(b.strip().lower() for b in bots if b.strip())
    if games < 1:
        raise TournamentError("games must be at least 1")
    if not game.min_players <= players <= game.max_players:
        raise TournamentError(f"{game.id} takes {game.min_players}-{game.max_players} players, not {players}")
    plan = schedule(names, players)
    for name in names:
        make_bot(name, game.id)  # fail early with a clear message
    opts = dict(options or {})
    resolved = jsonable(game.resolve_options(players, opts))
    return Tournament(game=game, bots=names, players=players, requested=games, seed=seed, options=opts,
                      resolved=resolved, plan=plan)


@dataclass(frozen=True, slots=True)
class Run:
    """What :func:`run_tournament` did: the results once every game is played."""

    tournament: Tournament
    resumed: int
    """Games found finished in the folder at the start."""
    played: int
    """Games played by this run."""
    results: dict[str, Any] | None
    """results.json's content; None when the run stopped early (``stop_after``)."""
    plots: tuple[Path, ...] = ()
    """The PNG plots written."""


def run_tournament(t: Tournament, *, out: str | Path | None = None, workers: int = 1, ray: str | None = None,
                   progress: Progress | None = None, stop_after: int | None = None,
                   versions: Mapping[str, str] | None = None, write: bool = True) -> Run:
    """Play the missing games of ``t`` and reduce all of them.

    With ``out``, finished games are appended to ``out/games.jsonl`` (flushed after each) and
    the games already there are not played again; at the end results.json (and, with
    ``write``, report.html and the plots) are written there. ``stop_after`` stops after that
    many newly played games (the folder then resumes later). Raises TournamentError when
    ``out`` holds another tournament.
    """
    done: dict[int, GameOutcome] = {}
    log = None
    directory = Path(out) if out is not None else None
    if directory is not None:
        done = _open_folder(t, directory)
    total = t.games
    resumed = len(done)
    missing = [i for i in range(total) if i not in done]
    if stop_after is not None:
        missing = missing[:max(0, stop_after)]
    played = 0
    if progress is not None:
        progress(resumed, total)
    try:
        if directory is not None:
            log = (directory / GAMES_FILE).open("a", encoding="utf-8")
        if missing:
            for outcome in run_jobs([t.job(i) for i in missing], workers=workers, ray=ray):
                outcome = GameOutcome.from_json(json.loads(json.dumps(outcome.to_json())))
                done[outcome.index] = outcome
                played += 1
                if log is not None:
                    log.write(json.dumps(outcome.to_json()) + "\n")
                    log.flush()
                if progress is not None:
                    progress(resumed + played, total)
    finally:
        if log is not None:
            log.close()
    if len(done) < total:
        return Run(tournament=t, resumed=resumed, played=played, results=None)
    results = reduce(t, [done[i] for i in range(total)], versions)
    plots: list[Path] = []
    if directory is not None:
        (directory / RESULTS_FILE).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        if write:
            plots = write_report(results, directory)
    return Run(tournament=t, resumed=resumed, played=played, results=results, plots=tuple(plots))


def _open_folder(t: Tournament, directory: Path) -> dict[int, GameOutcome]:
    """The finished games in ``directory`` (created, with tournament.json, when new)."""
    directory.mkdir(parents=True, exist_ok=True)
    params = directory / PARAMS_FILE
    games = directory / GAMES_FILE
    identity = t.identity()
    if params.exists():
        try:
            stored = json.loads(params.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise TournamentError(f"{params} is not readable JSON ({exc}); choose another --out folder") from exc
        if stored != identity:
            diff = "; ".join(f"{k} {json.dumps(stored.get(k))} there, {json.dumps(v)} now"
                             for k, v in identity.items() if stored.get(k) != v)
            raise TournamentError(f"{directory} holds another tournament ({diff}): run it again with its own "
                                  "arguments to resume it, or choose another --out folder")
    elif games.exists():
        raise TournamentError(f"{games} exists without {PARAMS_FILE}; choose another --out folder")
    elif (directory / RESULTS_FILE).exists():  # a lab's folder, say: its results would be overwritten
        raise TournamentError(f"{directory} holds the results of another run ({RESULTS_FILE} without "
                              f"{PARAMS_FILE}); choose another --out folder")
    else:
        params.write_text(json.dumps(identity, indent=1) + "\n", encoding="utf-8")
    done: dict[int, GameOutcome] = {}
    if not games.exists():
        return done
    text = games.read_text(encoding="utf-8")
    lines = text.split("\n")
    kept: list[str] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            outcome = GameOutcome.from_json(json.loads(line))
        except (ValueError, KeyError, TypeError) as exc:
            if number == len(lines):
                break  # the last line, cut short by an interruption: that game is played again
            raise TournamentError(f"{games}, line {number}: not a finished game ({exc})") from exc
        i = outcome.index
        if (not 0 <= i < t.games or outcome.seed != derive_seed(t.seed, i)
                or tuple(outcome.players) != t.plan.seats(i)):
            raise TournamentError(f"{games}, line {number}: game {i} does not belong to this tournament")
        done[i] = outcome
        kept.append(line)
    clean = "".join(line + "\n" for line in kept)
    if clean != text:  # drop a half-written last line: appended games start on a line of their own
        games.write_text(clean, encoding="utf-8")
    return done


def reduce(t: Tournament, outcomes: Sequence[GameOutcome], versions: Mapping[str, str] | None = None
           ) -> dict[str, Any]:
    """results.json from every game of ``t`` in game order."""
    from tablero.study.report import versions as versions_of

    bots = t.bots
    return {
        "game": t.game.id,
        "title": t.game.title,
        "players": t.players,
        "bots": list(bots),
        "games": len(outcomes),
        "seed": t.seed,
        "options": t.resolved,
        "command": t.command(),
        "versions": dict(versions) if versions is not None else versions_of(t.game),
        "schedule": {"lineups": [list(x) for x in t.plan.lineups], "rotations": t.players, "cycle": t.plan.cycle,
                     "cycles": len(outcomes) // t.plan.cycle},
        "rating_model": RATING_MODEL,
        "rounds_unit": rounds_unit(t.game.id),
        "ratings": rate(bots, outcomes),
        "pairs": pairs(bots, outcomes),
        "seats": seat_table(bots, t.players, outcomes),
        "by_bot": bot_table(bots, outcomes),
        "games_played": [game_row(o) for o in outcomes],
    }



# ---------------------------------------------------------------------------- report
def _pct(x: float) -> tuple[str, bool]:
    return (f"{x:.1%}", True)


def _ci(ci: Sequence[float]) -> tuple[str, bool]:
    return (f"{ci[0]:.1%} – {ci[1]:.1%}", True)


def _num(x: float | None, digits: int = 2) -> tuple[str, bool]:
    return ("–" if x is None else f"{x:.{digits}f}", True)


def report_sections(results: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The tournament's tables for :func:`tablero.study.report.html_page`."""
    from tablero.study.report import esc, html_table

    bots = list(results["bots"])
    ratings = results["ratings"]
    by_bot = results["by_bot"]
    order = sorted(bots, key=lambda b: -ratings[b]["mu"])
    plan = results["schedule"]
    lineups = ", ".join(" ".join(x) for x in plan["lineups"])
    options = ", ".join(f"{k}={json.dumps(v)}" for k, v in results["options"].items()) or "defaults"
    summary = (
        f"<p>{esc(results['games'])} games of {esc(results.get('title', results['game']))} with "
        f"{esc(results['players'])} players, master seed {esc(results['seed'])}: game <i>i</i> is played with the "
        f"seed derive_seed({esc(results['seed'])}, <i>i</i>).</p>"
        f"<p>Schedule: {esc(len(plan['lineups']))} line-up(s) — {esc(lineups)} — each played in all "
        f"{esc(plan['rotations'])} seat rotations: one cycle of {esc(plan['cycle'])} games seats every bot in every "
        f"seat equally often; {esc(plan['cycles'])} cycle(s) played.</p>"
        f"<p class=\"note\">Options: {esc(options)}</p>"
    )
    rating_rows = [
        [i + 1, b, _num(ratings[b]["mu"]), _num(ratings[b]["sigma"]), _num(ratings[b]["ordinal"]),
         by_bot[b]["games"], _pct(by_bot[b]["win_share"]), _ci(by_bot[b]["ci95"]), _num(by_bot[b]["mean_score"])]
        for i, b in enumerate(order)
    ]
    rating_html = html_table(["#", "Bot", "μ", "σ", "Ordinal μ − 3σ", "Games", "Win share", "95% CI",
                              "Mean score"], rating_rows) + (
        "<p class=\"note\">OpenSkill Plackett–Luce ratings (everyone starts at μ 25, σ 8.33), updated game by "
        "game from the ranks with shared places. The ordinal μ − 3σ is a cautious estimate: the skill is "
        "above it with about 99.7% certainty. Win share: first places per seat-game, a shared first place "
        "counting 1/k.</p>")
    pair_rows = [
        [p["a"], p["b"], p["games"], _num(p["a_better"], 1), _num(p["b_better"], 1), _num(p["ties"], 1),
         _pct(p["share"]), _ci(p["ci95"])]
        for p in results["pairs"]
    ]
    pair_html = html_table(["A", "B", "Games together", "A placed better", "B placed better", "Ties",
                            "A's share", "95% CI"], pair_rows) + (
        "<p class=\"note\">In the games where both took part: how often A finished ahead of B (a tie counts "
        "half). A share above 50% with an interval that leaves out 50% says A is the stronger.</p>")
    seat_rows = []
    for s in results["seats"]:
        row: list[Any] = [f"Seat {s['seat'] + 1}", s["games"], _pct(s["win_share"]), _ci(s["ci95"]),
                          _num(s["mean_score"])]
        for b in bots:
            cell = s["by_bot"][b]
            row.append((f"{cell['win_share']:.1%} ({cell['games']})", True) if cell["games"] else None)
        seat_rows.append(row)
    seat_html = html_table(["Seat", "Games", "Win share", "95% CI", "Mean score",
                            *[f"{b}: share (games)" for b in bots]], seat_rows) + (
        f"<p class=\"note\">A fair seat wins 1/{esc(results['players'])} of the games. Per bot: its win share "
        "in that seat, with the number of games it sat there.</p>")
    bot_rows = [
        [b, by_bot[b]["games"], by_bot[b]["seat_games"], _num(by_bot[b]["mean_rank"]), _num(by_bot[b]["mean_score"]),
         _num(by_bot[b]["mean_actions"], 1), _num(by_bot[b]["mean_decisions"], 1), _num(by_bot[b]["mean_rounds"], 1)]
        for b in bots
    ]
    unit = str(results.get("rounds_unit", "rounds"))
    bot_html = html_table(["Bot", "Games", "Seat-games", "Mean rank", "Mean score", "Record entries / game",
                           "Turns / game", f"{unit.capitalize()} / game"], bot_rows) + (
        "<p class=\"note\">Game length over the games the bot took part in: record entries (decisions, forced "
        f"steps, chance), turns (the seats' entries) and the game's own {esc(unit)}.</p>")
    return [("Summary", summary), ("Ratings", rating_html), ("Pairs", pair_html), ("Seats", seat_html),
            ("Per bot", bot_html)]


def write_report(results: Mapping[str, Any], directory: Path) -> list[Path]:
    """The plots (PNG) and report.html of ``results`` in ``directory``; returns the plots."""
    from tablero.study.plots import tournament_plots
    from tablero.study.report import html_page

    figures = tournament_plots(results, directory)
    title = f"Tournament: {results.get('title', results['game'])} — {', '.join(results['bots'])}"
    page = html_page(title, command=results["command"], sections=report_sections(results), figures=figures,
                     versions=results["versions"])
    (directory / REPORT_FILE).write_text(page, encoding="utf-8")
    return figures
