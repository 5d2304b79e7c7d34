"""``make bench-bots``: how strong and how fast the search bots are, as JSON.

Two parts, each a list of JSON objects in one file (``--out``, default ``bench-bots.json``),
which is rewritten after every measurement so a long run that is stopped keeps what it did:

* **strength**: matches of seated bots with the seats rotated (every bot plays every seat
  equally often), the win share per bot (a first place shared by k seats counts 1/k) with
  its 95% Wilson interval (:func:`tablero.sim.simulate` with ``rotate``);
* **speed**: per game and player count, at decision points sampled from greedy games: the
  time of one search at a budget (median and maximum), iterations per second, and the cost
  of an iteration's parts — ``determinize``, ``clone`` and the rest (tree, playout,
  evaluation) — in microseconds.

``--only GAME``, ``--part strength|speed`` and ``--match TEXT`` (matches whose key
``game/seats`` contains the text) split a run; ``--games`` sets the games per
match (the issue's goals want at least a few dozen; the intervals say how sure a figure is).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import re
import statistics
import time
from collections.abc import Callable, Collection, Sequence
from functools import partial
from pathlib import Path
from random import Random
from typing import Any

from tablero.bots import make_bot
from tablero.bots.search.bots import SearchBot, level_budget
from tablero.core.match import Match, bot_rng
from tablero.core.protocol import Game
from tablero.core.rng import derive_seed
from tablero.registry import GAMES, get_game
from tablero.sim import simulate

MATCHES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    # (game, seats, what it measures)
    ("don-carlo", ("ismcts:iterations=400", "greedy", "greedy"), "goal >= 0.5"),
    ("don-carlo", ("hard", "greedy", "greedy", "greedy"), "goal >= 0.45"),
    ("el-grande", ("hard", "greedy", "greedy", "greedy"), "goal >= 0.45"),
    ("mafia-legend", ("hard", "greedy", "greedy", "greedy"), "goal >= 0.45"),
    ("don-carlo", ("hard", "greedy", "greedy"), "3 players"),
    ("el-grande", ("hard", "greedy", "greedy"), "3 players"),
    ("mafia-legend", ("hard", "greedy", "greedy"), "3 players"),
    ("el-grande", ("hard", "greedy", "greedy", "greedy", "greedy"), "5 players"),
    ("don-carlo", ("medium", "random", "random", "random"), "goal >= 0.95"),
    ("el-grande", ("medium", "random", "random", "random"), "goal >= 0.95"),
    ("mafia-legend", ("medium", "random", "random", "random"), "goal >= 0.95"),
    ("don-carlo", ("mcts-cheat", "ismcts", "ismcts", "ismcts"), "worth of hidden information"),
    ("el-grande", ("mcts-cheat", "ismcts", "ismcts", "ismcts"), "worth of hidden information"),
    ("mafia-legend", ("mcts-cheat", "ismcts", "ismcts", "ismcts"), "worth of hidden information"),
)
"""Every strength measurement. The cheat plays at the budget ``ismcts`` starts from, against
the same search without the peek (``mcts-cheat:hard`` would be the cheat at the ``hard``
budget: with every seat searching, four times the hours of a ``hard`` match)."""

PLAYER_COUNTS: dict[str, tuple[int, ...]] = {"don-carlo": (3, 4), "el-grande": (3, 4, 5), "mafia-legend": (3, 4)}


def _cheat_name(game_id: str, seat: str) -> str:
    """``mcts-cheat:hard`` → the cheat with the hard level's budget written out."""
    if seat != "mcts-cheat:hard":
        return seat
    b = level_budget(game_id, "hard")
    parts = [f"depth={b.depth}", f"c={b.c}", f"epsilon={b.epsilon}"]
    if b.iterations is not None:
        parts.insert(0, f"iterations={b.iterations}")
    if b.seconds is not None:
        parts.insert(0, f"seconds={b.seconds}")
    return "mcts-cheat:" + ":".join(parts)


def strength(game_id: str, seats: Sequence[str], games: int, seed: int, workers: int) -> dict[str, Any]:
    names = [_cheat_name(game_id, s) for s in seats]
    t0 = time.perf_counter()
    res = simulate(game_id, names, games=games, seed=seed, workers=workers, rotate=True)
    out = res.to_json()
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


def decision_points(game: Game[Any, Any, Any], players: int, count: int, seed: int) -> list[tuple[Any, int]]:
    """States (copies) where a seat has two or more options, spread over greedy games."""
    found: list[tuple[Any, int]] = []
    g = 0
    while len(found) < count * 4:
        m = Match(game, ["greedy"] * players, seed=derive_seed(seed, "points", g))
        bots = {p: make_bot("greedy", game.id) for p in range(players)}
        rngs = {p: bot_rng(m.seed, p) for p in bots}
        while not m.is_over():
            p = m.pending()[0]
            legal = m.legal(p)
            if len(legal) > 1:
                found.append((m.state.clone(), p))
            m.act(p, bots[p].choose(m.view(p), legal, rngs[p]))
        g += 1
    rng = Random(seed)
    return rng.sample(found, min(count, len(found)))


def _mean_us(fn: Callable[[], Any], repeat: int) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t0) / repeat * 1e6


PROFILE_PARTS: dict[str, tuple[str, ...]] = {
    # share of a search's time, by the functions (name) whose cumulative time it is
    "determinize": ("determinize",),
    "playout_policy": ("rollout",),
    "estimate": ("estimate",),
    "apply": ("apply_unchecked",),
    "legal_actions": ("legal_actions",),
    "chance": ("sample_chance",),
    "redact": ("redact_action",),
    "select": ("_select",),
}


def profile_shares(bot: SearchBot, points: Sequence[tuple[Any, int]], seed: int) -> dict[str, float]:
    """Where a search's time goes (cProfile; shares of the total, which overlap nowhere)."""
    prof = cProfile.Profile()
    game = bot.game
    prof.enable()
    for state, seat in points:
        bot.analyse(game.observe(state, seat), game.legal_actions(state, seat), Random(seed))
    prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    total = sum(tt for (_cc, _nc, tt, _ct, _callers) in stats.values())
    out: dict[str, float] = {}
    for part, names in PROFILE_PARTS.items():
        # The outermost frames only: a name's cumulative time once, not once per recursion.
        cum = sum(ct for (_f, _l, name), (_cc, _nc, _tt, ct, _callers) in stats.items() if name in names)
        out[part] = round(cum / total, 3) if total else 0.0
    return out


def speed(game_id: str, players: int, level: str, points: int, seed: int) -> dict[str, Any]:
    game = get_game(game_id)
    budget = level_budget(game_id, level)
    bot = make_bot(level, game_id)
    assert isinstance(bot, SearchBot)
    times, rates, det, clone, per_iter = [], [], [], [], []
    sample = decision_points(game, players, points, seed)
    for state, seat in sample:
        view, legal = game.observe(state, seat), game.legal_actions(state, seat)
        rng = Random(seed)
        det.append(_mean_us(partial(game.determinize, view, seat, rng), 20))
        world = game.determinize(view, seat, rng)
        clone.append(_mean_us(world.clone, 200))
        result = bot.analyse(view, legal, Random(seed))
        times.append(result.seconds)
        rates.append(result.iterations / result.seconds)
        per_iter.append(result.seconds / result.iterations * 1e6)
    it_us = statistics.median(per_iter)
    det_us, clone_us = statistics.median(det), statistics.median(clone)
    return {
        "game": game_id, "players": players, "level": level,
        "budget": {"iterations": budget.iterations, "seconds": budget.seconds, "depth": budget.depth,
                   "phases": budget.phases, "prior": budget.prior, "prune": budget.prune, "reuse": budget.reuse},
        "decisions": len(times),
        "think_seconds_median": round(statistics.median(times), 3),
        "think_seconds_max": round(max(times), 3),
        "iterations_per_s": round(statistics.median(rates), 1),
        "iteration_us": round(it_us, 1),
        "determinize_us": round(det_us, 1),
        "clone_us": round(clone_us, 2),
        "tree_playout_eval_us": round(max(0.0, it_us - det_us), 1),
        "profile_share": profile_shares(bot, sample[:2], seed),
    }


GAME_NAMES = {"don-carlo": "Don Carlo", "el-grande": "El Grande", "mafia-legend": "Mafia Legend"}


def tables(report: dict[str, Any], games: Collection[str] | None = None) -> str:
    """The report as two Markdown tables (strength of the first seat's bot; speed per level),
    for the README and the games' docs (``games``: only these game ids)."""
    lines = ["| game | seats (rotated) | bot | games | win share | 95% CI | fair share | goal |",
             "|---|---|---|---|---|---|---|---|"]
    for key, row in sorted(report.get("strength", {}).items(), key=lambda kv: kv[0].split("/")[0]):
        game_id, seats = key.split("/", 1)
        if games is not None and game_id not in games:
            continue
        names = seats.split(",")
        bot = _cheat_name(game_id, names[0])
        stats = row["by_bot"].get(bot) or row["by_bot"][names[0]]
        players = row["players"]
        lines.append(f"| {GAME_NAMES.get(game_id, game_id)} | {seats} | {names[0]} | {row['games']} | "
                     f"{stats['win_share']:.2f} | {stats['ci95'][0]:.2f}–{stats['ci95'][1]:.2f} | "
                     f"{1 / players:.2f} | {row.get('goal', '')} |")
    lines += ["", "| game | players | level | budget | think median / max | iterations/s | determinize | clone |",
              "|---|---|---|---|---|---|---|---|"]
    for row in report.get("speed", {}).values():
        if games is not None and row["game"] not in games:
            continue
        b = row["budget"]
        horizon = (f"{b['phases']} phase" if b.get("phases") else
                   f"depth {b['depth']}" if b["depth"] else "to the end")
        budget = ", ".join(x for x in (f"{b['iterations']} it" if b["iterations"] else "",
                                       f"{b['seconds']:g} s" if b["seconds"] else "", horizon,
                                       f"prior {b['prior']:g}" if b.get("prior") else "",
                                       "shortlist" if b.get("prune") else "",
                                       "no reuse" if b.get("reuse") is False else "") if x)
        lines.append(f"| {GAME_NAMES.get(row['game'], row['game'])} | {row['players']} | {row['level']} | "
                     f"{budget} | {row['think_seconds_median']:.2f} / {row['think_seconds_max']:.2f} s | "
                     f"{row['iterations_per_s']:.0f} | {row['determinize_us']:.0f} µs | {row['clone_us']:.1f} µs |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tablero.botbench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="docs/bench-bots.json")
    ap.add_argument("--games", type=int, default=40, help="games per strength match")
    ap.add_argument("--cheat-games", type=int, default=12,
                    help="games per cheat match (every seat searches: the slowest matches)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--points", type=int, default=8, help="decision points per speed measurement")
    ap.add_argument("--only", choices=tuple(GAMES), action="append", help="only this game (repeatable)")
    ap.add_argument("--part", choices=("strength", "speed", "all"), default="all")
    ap.add_argument("--match", action="append", metavar="REGEX",
                    help="only the strength matches whose key (game/seats) REGEX finds (re.search; "
                         "repeatable), e.g. 'don-carlo/hard,greedy,greedy$'")
    ap.add_argument("--table", action="store_true", help="print the report in --out as Markdown tables")
    args = ap.parse_args(argv)
    only = set(args.only or GAMES)
    path = Path(args.out)
    report: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    if args.table:
        print(tables(report, only))
        return 0
    report.setdefault("strength", {})
    report.setdefault("speed", {})

    def save() -> None:
        path.write_text(json.dumps(report, indent=1) + "\n")

    if args.part in ("speed", "all"):
        for game_id in GAMES:
            if game_id not in only:
                continue
            for n in PLAYER_COUNTS[game_id]:
                for level in ("medium", "hard"):
                    row = speed(game_id, n, level, args.points, args.seed)
                    report["speed"][f"{game_id}/{n}/{level}"] = row
                    print(json.dumps(row), flush=True)
                    save()
    if args.part in ("strength", "all"):
        for game_id, seats, goal in MATCHES:
            key = f"{game_id}/{','.join(seats)}"
            if game_id not in only or (args.match and not any(re.search(m, key) for m in args.match)):
                continue
            cheat = any(s.startswith("mcts-cheat") for s in seats)
            games = args.cheat_games if cheat else args.games
            row = strength(game_id, seats, games, args.seed, args.workers)
            row["goal"] = goal
            report["strength"][key] = row
            print(json.dumps({"game": game_id, "seats": seats, "goal": goal,
                              "by_bot": {k: {"win_share": round(v["win_share"], 3),
                                             "ci95": [round(x, 3) for x in v["ci95"]]}
                                         for k, v in row["by_bot"].items()},
                              "games": row["games"], "seconds": row["seconds"]}), flush=True)
            save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
