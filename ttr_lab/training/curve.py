"""A training run's learning curve: a judged checkpoint's rows (its win share against each judged
opponent, with a 95% Wilson interval) and their files, ``curve.csv`` and ``curve.png``. How a game
judges a network is its own (``GameTraining.judge``)."""

from __future__ import annotations

import csv
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

from ttr_lab.core.intervals import wilson
from ttr_lab.strategies.network import Network
from ttr_lab.training.games import GameTraining


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


def judge_all(training: GameTraining, net: Network, game: Any, players: int, opponents: Sequence[str], games: int,
              seed: int, iteration: int, samples: int, seconds: float) -> list[Judged]:
    """One row per opponent: ``net`` judged by the game's ``training`` (``opponents``' seeds
    ``seed``, ``seed + 1``, ...), its win share with a 95% Wilson interval."""
    rows = []
    for k, opponent in enumerate(opponents):
        share, played = training.judge(net, game, players, opponent, games, seed + k)
        low, high = wilson(share, played)
        rows.append(Judged(iteration, samples, round(seconds, 1), training.opponent_names[opponent], played,
                           share / played, low, high))
    return rows


def interval(ax: Any, x: Sequence[float], mid: Sequence[float], low: Sequence[float], high: Sequence[float],
             colour: Any) -> None:
    """A curve's 95% interval: a bar at every point, and a band between points. A band alone
    drew nothing for a curve of one point (a band of no width), under a label promising it."""
    ax.errorbar(x, mid, yerr=[[m - lo for m, lo in zip(mid, low)], [hi - m for m, hi in zip(mid, high)]],
                fmt="none", ecolor=colour, elinewidth=1, capsize=3)
    if len(x) > 1:
        ax.fill_between(x, low, high, color=colour, alpha=0.2)


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
        line, = ax.plot(x, [r["win_share"] for r in mine], marker="o", label=f"vs {name}")
        interval(ax, x, [r["win_share"] for r in mine], [r["low"] for r in mine], [r["high"] for r in mine],
                 line.get_color())
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("training samples")
    ax.set_ylabel("win share (95% Wilson)")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(folder / "curve.png", dpi=100)
    plt.close(fig)
