"""Train a small agent for Don Carlo (3 players) on the CPU in a few minutes: MaskablePPO.

    .venv/bin/python examples/train_don_carlo.py --out build/rl-example [--steps N] [--seed S] [--eval-games G]

(``make rl-example`` installs the ``train`` extra, runs this and copies the picture and the
numbers to docs/; docs/rl-training.md explains them.)

* Environment: :class:`tablero.rl.gym.SingleSeatEnv` — one learning seat (a new one every
  episode) against two tablero bots; the observation is the seat's observation tensor, the
  action mask its legal code names; reward 1 for a win (1/k for k shared winners) at the end.
* Algorithm: ``sb3_contrib.MaskablePPO`` with a small MLP (two hidden layers), illegal actions
  masked out of the policy, several environments stepped side by side (one process).
* Curriculum: first against two ``random`` bots, then against two ``greedy`` bots.
* Learning curve: the mean win share of the last ``--window`` training episodes (the sampling
  policy) against environment steps, per phase → ``curve.png``.
* Evaluation: the trained policy (deterministic, masked) over ``--eval-games`` games against
  random×2 and against greedy×2, the learning seat cycling through seats 0, 1, 2, with Wilson
  95% intervals; the same for the untrained network (same seed, initial weights) and for
  uniformly random legal play, on the same game seeds → ``results.json``.

Everything is seeded (Python, NumPy, torch, the environments), and torch runs on one thread,
so a run repeats itself on one machine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

GAME = "don-carlo"
PLAYERS = 3
PHASES = ("random", "greedy")
EVAL_SEED = 1_000_000
"""Evaluation games use seeds EVAL_SEED + i (training environments use seed + small offsets)."""

DEFAULTS: dict[str, Any] = {
    "steps": 300_000,
    "first_share": 0.2,
    "envs": 8,
    "n_steps": 256,
    "batch_size": 512,
    "epochs": 10,
    "learning_rate": 3e-4,
    "gamma": 1.0,
    "gae_lambda": 0.95,
    "ent_coef": 0.01,
    "clip_range": 0.2,
    "net": [128, 128],
    "window": 500,
    "eval_games": 1000,
}


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--out", type=Path, required=True, help="folder for curve.png, results.json, model.zip")
    p.add_argument("--steps", type=int, default=DEFAULTS["steps"], help="environment steps in all")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-games", type=int, default=DEFAULTS["eval_games"],
                   help="games per evaluation (each policy against each opponent kind)")
    p.add_argument("--first-share", type=float, default=DEFAULTS["first_share"],
                   help="share of the steps against random bots (the rest against greedy bots)")
    p.add_argument("--envs", type=int, default=DEFAULTS["envs"], help="environments stepped side by side")
    p.add_argument("--n-steps", type=int, default=DEFAULTS["n_steps"], help="PPO rollout length per environment")
    p.add_argument("--batch-size", type=int, default=DEFAULTS["batch_size"])
    p.add_argument("--epochs", type=int, default=DEFAULTS["epochs"], help="PPO epochs per rollout")
    p.add_argument("--learning-rate", type=float, default=DEFAULTS["learning_rate"])
    p.add_argument("--ent-coef", type=float, default=DEFAULTS["ent_coef"])
    p.add_argument("--net", type=int, nargs="+", default=DEFAULTS["net"], help="hidden layer widths")
    p.add_argument("--window", type=int, default=DEFAULTS["window"],
                   help="training episodes averaged per curve point")
    args = p.parse_args(argv)
    if args.steps < 2 or not 0 < args.first_share < 1 or args.eval_games < 1 or args.envs < 1:
        p.error("need --steps >= 2, 0 < --first-share < 1, --eval-games >= 1, --envs >= 1")
    return args


def seed_everything(seed: int) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(1)  # reproducible, and faster than 2 threads for a net this small


def make_env(opponents: str, seat: int | str = "random") -> Any:
    from tablero.rl.gym import SingleSeatEnv

    return SingleSeatEnv(GAME, PLAYERS, opponents=opponents, seat=seat)


def make_vec_env(opponents: str, envs: int, seed: int) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv

    venv = DummyVecEnv([lambda: make_env(opponents) for _ in range(envs)])
    venv.seed(seed)  # environment i: seed + i at its first reset, then its own generator
    return venv


# ---------------------------------------------------------------------------------- training
class Curve:
    """The training episodes' win shares: a curve point (mean of the last ``window`` episodes of
    the phase) after every rollout, and a progress line every ``report_every`` steps."""

    def __init__(self, window: int, total: int, started: float, report_every: int) -> None:
        self.window = window
        self.total = total
        self.started = started
        self.report_every = report_every
        self.points: list[dict[str, Any]] = []
        self.episodes: dict[str, int] = dict.fromkeys(PHASES, 0)
        self.recent: deque[float] = deque(maxlen=window)
        self.phase = PHASES[0]
        self._next_report = report_every

    def start_phase(self, phase: str) -> None:
        self.phase = phase
        self.recent.clear()

    def episode(self, win_share: float) -> None:
        self.recent.append(win_share)
        self.episodes[self.phase] += 1

    def point(self, steps: int) -> None:
        if not self.recent:
            return
        mean = float(np.mean(self.recent))
        self.points.append({"steps": steps, "phase": self.phase, "win_share": round(mean, 4),
                            "episodes": len(self.recent)})
        if steps >= self._next_report:
            self._next_report = (steps // self.report_every + 1) * self.report_every
            print(f"  {self.phase:>6}  {steps:>8}/{self.total} steps  win share (last {len(self.recent)} "
                  f"episodes) {mean:.3f}  {time.time() - self.started:6.1f} s", flush=True)


def curve_callback(curve: Curve) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class Callback(BaseCallback):
        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                if done:
                    curve.episode(float(info["win_share"]))
            return True

        def _on_rollout_end(self) -> None:
            curve.point(int(self.num_timesteps))

    return Callback()


def build_model(args: argparse.Namespace, venv: Any) -> Any:
    import torch
    from sb3_contrib import MaskablePPO

    n_steps = max(8, min(args.n_steps, args.steps // (2 * args.envs)))
    return MaskablePPO(
        "MlpPolicy", venv, n_steps=n_steps, batch_size=min(args.batch_size, n_steps * args.envs),
        n_epochs=args.epochs, learning_rate=args.learning_rate, gamma=DEFAULTS["gamma"],
        gae_lambda=DEFAULTS["gae_lambda"], ent_coef=args.ent_coef, clip_range=DEFAULTS["clip_range"],
        policy_kwargs={"net_arch": list(args.net), "activation_fn": torch.nn.Tanh},
        seed=args.seed, device="cpu", verbose=0)


# -------------------------------------------------------------------------------- evaluation
Policy = Callable[[np.ndarray, np.ndarray], int]


def model_policy(model: Any) -> Policy:
    def act(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    return act


def random_policy(seed: int) -> Policy:
    rng = random.Random(seed)

    def act(obs: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[rng.randrange(len(legal))])

    return act


def evaluate(policy: Policy, opponents: str, games: int) -> dict[str, Any]:
    """``games`` games against two ``opponents`` bots, the learning seat cycling 0, 1, 2; game i
    on seed EVAL_SEED + i (the same games for every policy)."""
    from tablero.study.stats import wilson_interval

    envs = [make_env(opponents, seat) for seat in range(PLAYERS)]
    by_seat = [[0.0, 0] for _ in range(PLAYERS)]
    total = 0.0
    for i in range(games):
        seat = i % PLAYERS
        env = envs[seat]
        obs, info = env.reset(seed=EVAL_SEED + i)
        while True:
            obs, _reward, terminated, truncated, info = env.step(policy(obs, env.action_masks()))
            if terminated or truncated:
                break
        total += float(info["win_share"])
        by_seat[seat][0] += float(info["win_share"])
        by_seat[seat][1] += 1
    low, high = wilson_interval(total, games)
    return {"games": games, "wins": round(total, 4), "win_share": round(total / games, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "by_seat": [round(w / n, 4) if n else None for w, n in by_seat]}


# ----------------------------------------------------------------------------------- picture
def plot(points: Sequence[dict[str, Any]], boundary: int, total: int, window: int,
         evaluation: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    fig, ax = plt.subplots(figsize=(8, 5.2), dpi=120)
    colours = {"random": "#1f77b4", "greedy": "#d62728"}
    labels = {"random": "training vs 2 random bots", "greedy": "training vs 2 greedy bots"}
    for phase in PHASES:
        xs = [p["steps"] for p in points if p["phase"] == phase]
        ys = [p["win_share"] for p in points if p["phase"] == phase]
        if xs:
            ax.plot(xs, ys, color=colours[phase], lw=1.8, label=labels[phase])
    ax.axhline(1 / PLAYERS, color="0.4", ls="--", lw=1, label="fair share 1/3 (random play vs random bots)")
    ax.axvline(boundary, color="0.2", ls=":", lw=1)
    ax.text(boundary / 2, 1.02, "phase 1: vs random", ha="center", va="bottom", fontsize=9,
            transform=ax.get_xaxis_transform())
    ax.text(boundary + (total - boundary) / 2, 1.02, "phase 2: vs greedy", ha="center", va="bottom",
            fontsize=9, transform=ax.get_xaxis_transform())
    trained = evaluation["trained"]
    for k, phase in enumerate(PHASES):
        e = trained[phase]
        x = total * (1.01 + 0.015 * k)
        ax.errorbar([x], [e["win_share"]], yerr=[[e["win_share"] - e["ci95"][0]], [e["ci95"][1] - e["win_share"]]],
                    fmt="o", ms=5, color=colours[phase], capsize=3,
                    label=f"final test vs {phase} (deterministic, 95% CI)")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x / 1000:.0f}k" if x else "0"))
    ax.set_xlim(0, total * 1.05)
    ax.set_ylim(0, 1.03)
    ax.set_xlabel("environment steps (decisions of the learning seat)")
    ax.set_ylabel(f"win share, mean of last {window} episodes")
    ax.set_title("MaskablePPO on Don Carlo, 3 players", pad=18)
    ax.grid(alpha=0.3)
    fig.legend(loc="lower center", ncol=2, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.13, 1, 1))
    fig.savefig(path)
    plt.close(fig)


# -------------------------------------------------------------------------------------- main
def run(args: argparse.Namespace) -> dict[str, Any]:
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    seed_everything(args.seed)
    started = time.time()
    first = max(1, round(args.steps * args.first_share))
    phase_steps = {"random": first, "greedy": args.steps - first}
    curve = Curve(args.window, args.steps, started, report_every=max(1, args.steps // 15))
    callback = curve_callback(curve)

    venv = make_vec_env("random", args.envs, args.seed)
    model = build_model(args, venv)
    initial = {k: v.clone() for k, v in model.policy.state_dict().items()}
    print(f"MaskablePPO on {GAME}, {PLAYERS} players: {args.steps} steps "
          f"({phase_steps['random']} vs random, then {phase_steps['greedy']} vs greedy), "
          f"{args.envs} environments, net {args.net}, seed {args.seed}", flush=True)
    boundary = 0
    for k, phase in enumerate(PHASES):
        if k:
            model.set_env(make_vec_env(phase, args.envs, args.seed + 1000 * k))
        curve.start_phase(phase)
        model.learn(phase_steps[phase], callback=callback, reset_num_timesteps=False)
        if k == 0:
            boundary = int(model.num_timesteps)
    steps = int(model.num_timesteps)
    train_seconds = time.time() - started
    model.save(out / "model.zip")

    print(f"evaluating: {args.eval_games} games per policy and opponent kind, seats cycled", flush=True)
    trained = model_policy(model)
    fresh = build_model(args, make_vec_env("random", 1, args.seed))
    fresh.policy.load_state_dict(initial)
    policies = {"trained": trained, "untrained": model_policy(fresh), "random_play": random_policy(args.seed)}
    evaluation: dict[str, Any] = {
        "games": args.eval_games, "seats": "cycled 0, 1, 2 (game i: seat i % 3)",
        "seeds": f"{EVAL_SEED} + i, the same games for every policy",
        "policies": {"trained": "the trained network, deterministic (most likely legal action)",
                     "untrained": "the same network with its initial weights, deterministic",
                     "random_play": "a uniformly random legal action"},
    }
    for name, policy in policies.items():
        evaluation[name] = {}
        for opponents in PHASES:
            t = time.time()
            e = evaluation[name][opponents] = evaluate(policy, opponents, args.eval_games)
            print(f"  {name:>11} vs 2 {opponents:<6}  win share {e['win_share']:.3f}  "
                  f"95% CI {e['ci95'][0]:.3f}–{e['ci95'][1]:.3f}  ({time.time() - t:.1f} s)", flush=True)
    seconds = time.time() - started

    results: dict[str, Any] = {
        "game": GAME, "players": PLAYERS, "algorithm": "MaskablePPO (sb3-contrib)",
        "steps": steps, "phase_steps": {"random": boundary, "greedy": steps - boundary},
        "episodes": dict(curve.episodes),
        "seconds": round(seconds, 1), "train_seconds": round(train_seconds, 1),
        "settings": {
            "seed": args.seed, "envs": args.envs, "n_steps": model.n_steps, "batch_size": model.batch_size,
            "epochs": args.epochs, "learning_rate": args.learning_rate, "gamma": DEFAULTS["gamma"],
            "gae_lambda": DEFAULTS["gae_lambda"], "ent_coef": args.ent_coef, "clip_range": DEFAULTS["clip_range"],
            "net": list(args.net), "activation": "tanh", "first_share": args.first_share,
            "window": args.window, "reward": "win share at the end", "seat": "random every episode",
            "observation": int(venv.observation_space.shape[0]), "actions": int(venv.action_space.n),
            "versions": versions(),
        },
        "curve": curve.points,
        "evaluation": evaluation,
    }
    plot(curve.points, boundary, steps, args.window, evaluation, out / "curve.png")
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    print(f"done in {seconds:.0f} s (training {train_seconds:.0f} s): {out / 'curve.png'}, "
          f"{out / 'results.json'}", flush=True)
    return results


def versions() -> dict[str, str]:
    import gymnasium
    import sb3_contrib
    import stable_baselines3
    import torch

    return {"python": sys.version.split()[0], "torch": torch.__version__, "numpy": np.__version__,
            "gymnasium": gymnasium.__version__, "stable_baselines3": stable_baselines3.__version__,
            "sb3_contrib": sb3_contrib.__version__}


def main(argv: Sequence[str] | None = None) -> int:
    run(parse_args(argv))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
