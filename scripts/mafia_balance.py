"""Balance run for Mafia Legend: greedy in every seat, read the final state through the view."""
from __future__ import annotations

import json
import os
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from tablero.bots import make_bot
from tablero.core.match import Match, bot_rng
from tablero.core.rng import derive_seed
from tablero.games.mafia import data, engine
from tablero.games.mafia.rules import GAME

VP_KEYS = {"ml.job_done": "jobs", "ml.gift": "gifts", "ml.set": "sets", "ml.power_vp": "powers",
           "ml.monthly_bonus": "bonus"}


def one(args):
    players, variant, seed, i, seats, fams = args
    gs = derive_seed(seed, i)
    names = seats or ["greedy"] * players
    opts: dict = {"variant": variant.split("+")[0]}
    if variant.endswith("+missions"):
        opts["missions"] = True
    goal = os.environ.get("GOAL")
    if goal:  # a data override (`tablero lab ... --vary BEGINNER_GOAL=40,45,50` measures goals with 95% intervals)
        opts["data"] = {"GOAL" if opts["variant"] == "advanced" else "BEGINNER_GOAL": goal}
    if fams:
        from random import Random
        opts["families"] = ",".join(Random(gs).sample(list(data.FAMILIES), players))
    m = Match(GAME, names, options=opts, seed=gs)
    start_order = GAME.observe(m.state, None).public.order
    bots = {p: make_bot(n, GAME.id) for p, n in enumerate(names)}
    m.play_bots(bots, {p: bot_rng(gs, p) for p in bots})
    v = GAME.observe(m.state, None).public
    src = Counter()
    for _, e in m.events:
        msg = e.message
        if msg.id in VP_KEYS:
            src[VP_KEYS[msg.id]] += msg.get("vp")
        elif msg.id == "ml.scandal":
            src["stars"] += msg.get("gain") - msg.get("loss")
        elif msg.id == "ml.discards":
            src["magnifier"] -= msg.get("vp")
    return {"month": v.month, "goal": any(v.vp[q] >= v.goal and engine.mission_ok(m.state, q) for q in range(players)), "winners": list(v.winners or ()),
            "pos": [start_order.index(q) for q in range(players)], "family": list(v.family),
            "vp": list(v.vp), "src": dict(src), "entries": len(m.record.entries)}


def run(players, variant, games, seed=1, workers=2, seats=None, fams=False):
    with ProcessPoolExecutor(workers) as ex:
        res = list(ex.map(one, [(players, variant, seed, i, seats, fams) for i in range(games)], chunksize=10))
    n = games
    months = [r["month"] for r in res]
    out = {"players": players, "variant": variant, "games": n, "random_families": fams,
           "mean_month": sum(months) / n, "month_hist": dict(sorted(Counter(months).items())),
           "goal_share": sum(r["goal"] for r in res) / n}
    seat = [0.0] * players
    pos = [0.0] * players
    fam_w, fam_n = Counter(), Counter()
    for r in res:
        w = r["winners"]
        for q in range(players):
            fam_n[r["family"][q]] += 1
        for q in w:
            seat[q] += 1 / len(w)
            pos[r["pos"][q]] += 1 / len(w)
            fam_w[r["family"][q]] += 1 / len(w)
    out["no_winner"] = sum(1 for r in res if not r["winners"]) / n
    out["seat_share"] = [round(x / n, 3) for x in seat]
    out["position_share"] = [round(x / n, 3) for x in pos]
    out["family_share"] = {f: (round(fam_w[f] / fam_n[f], 3), fam_n[f]) for f in sorted(fam_n)}
    src = Counter()
    for r in res:
        src.update(r["src"])
    out["vp_per_game_by_source"] = {k: round(v / n, 1) for k, v in sorted(src.items())}
    out["mean_vp_sorted"] = [round(sum(sorted(r["vp"])[i] for r in res) / n, 1) for i in range(players)]
    return out


if __name__ == "__main__":
    players, variant, games = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    fams = len(sys.argv) > 4 and sys.argv[4] == "random"
    print(json.dumps(run(players, variant, games, fams=fams)))
