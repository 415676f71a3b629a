"""Judging a network against fixed compiled opponents, and the learning curve's files.

A judged checkpoint plays its highest legal logit (as the ``learned`` strategy plays) on the
batched env: ``games`` games per opponent, split evenly over sub-games so every sub-game plays the
same number (no bias towards short games), seats rotated (game ``k`` of sub-game ``i`` puts the
network at seat ``(i + k) % players``), on deals of their own seed that training never sees. Its
win share (ties shared) comes with a 95% Wilson interval.
"""

from __future__ import annotations

import csv
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ttr_lab.core.intervals import wilson
from ttr_lab.envs.vector import vector_env
from ttr_lab.games.ticket_to_ride.kernels.layout import MARKET_SIZE, S_MARKET
from ttr_lab.strategies.ticket_to_ride.learned import featurizer
from ttr_lab.strategies.ticket_to_ride.network import Network
from ttr_lab.strategies.ticket_to_ride.plan_features import KEPT_NAMES, OFFERS, KeptRows

# Names in the curve for the batched env's compiled opponents (the planner is the ticket planner's choice).
OPPONENT_NAMES = {"greedy": "greedy", "planner": "ticket_planner", "random": "random"}


@dataclass(frozen=True)
class Judged:
    iteration: int
    samples: int  # training samples seen so far
    seconds: float  # training time so far (CPU of the one process)
    opponent: str
    games: int
    win_share: float
    low: float
    high: float


def markets_of(envs: Any) -> np.ndarray:
    """The card kind in each market slot of every sub-game now, (num_envs, market size), -1 for
    none: read off the batch's state rows (the network's slot actions need it, ``network.py``)."""
    g = envs.batch.g
    start = int(g[S_MARKET])
    return envs.states[:, start:start + int(g[MARKET_SIZE])]


def inputs(net: Network, obs: np.ndarray, envs: Any, kept: KeptRows | None = None) -> np.ndarray:
    """What ``net`` reads in each sub-game now: the observation tensors ``obs``, then the extras
    its ``features`` name, computed on the batch's state rows for the player to move (kept-plan
    features with ``kept``, a row per sub-game, updated here)."""
    if not net.meta.get("features"):
        return obs
    if net.meta["features"] in KEPT_NAMES:
        assert kept is not None, "kept-plan features need the sub-games' kept plans"
        extras, _ = featurizer(envs.batch.g).kept_rows(envs.states, kept, offers=net.meta["features"] == OFFERS)
        return np.concatenate([obs, extras], axis=1)
    return np.concatenate([obs, featurizer(envs.batch.g).rows(envs.states)], axis=1)


def judge(net: Network, game: Any, players: int, opponent: str, games: int, seed: int) -> tuple[float, int]:
    """The network's summed win share against ``opponent`` over ``games`` games (rounded up to a
    multiple of the sub-games), and the games played."""
    per = max(1, -(-games // 100))  # games per sub-game: at most 100 sub-games
    n = -(-games // per)
    envs = vector_env(game, num_envs=n, players=players, opponents=opponent, seed=seed)
    obs, info = envs.reset()
    played = np.zeros(n, dtype=np.int64)
    total = 0.0
    kept = KeptRows(envs.batch.g, n)
    while (played < per).any():
        head, _, _, _ = net.forward(inputs(net, obs, envs, kept))
        logits = net.logits(head, markets_of(envs))
        obs, rewards, ended, _, info = envs.step(np.where(info["action_mask"], logits, -np.inf).argmax(axis=1))
        kept.forget(ended)
        counted = ended & (played < per)
        total += float(rewards[counted].sum())
        played += ended
    return total, n * per


def judge_all(net: Network, game: Any, players: int, opponents: Sequence[str], games: int, seed: int,
              iteration: int, samples: int, seconds: float) -> list[Judged]:
    rows = []
    for k, opponent in enumerate(opponents):
        share, played = judge(net, game, players, opponent, games, seed + k)
        low, high = wilson(share, played)
        rows.append(Judged(iteration, samples, round(seconds, 1), OPPONENT_NAMES[opponent], played,
                           share / played, low, high))
    return rows


def write_curve(rows: Sequence[dict[str, Any]], folder: Path) -> None:
    """``curve.csv`` (one row per judged checkpoint and opponent) and ``curve.png`` (win share per
    opponent with its interval, against training samples)."""
    if not rows:
        return
    with open(folder / "curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(asdict(Judged(0, 0, 0.0, "", 0, 0.0, 0.0, 0.0))))
        writer.writeheader()
        writer.writerows(rows)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    for name in dict.fromkeys(r["opponent"] for r in rows):
        mine = [r for r in rows if r["opponent"] == name]
        x = [r["samples"] for r in mine]
        ax.plot(x, [r["win_share"] for r in mine], marker="o", label=f"vs {name}")
        ax.fill_between(x, [r["low"] for r in mine], [r["high"] for r in mine], alpha=0.2)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("training samples")
    ax.set_ylabel("win share (95% Wilson)")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(folder / "curve.png", dpi=100)
    plt.close(fig)
