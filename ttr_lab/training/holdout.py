"""The value head judged on games it never trains on (``holdout_games``, expert iteration).

A value fitted to game outcomes can learn the games it saw rather than positions: every position
of a game shares its one outcome, so the training loss falls while the value gets worse on new
games. So a run with ``holdout_games: N`` plays N more self-play games once, on seeds of their own
(``derive_seed(seed, HOLDOUT_KEY, k)``), with the run's first network (a run resumed without the
file plays them with the network it resumes; with a fixed ``prior`` the games do not depend on
the network at all), keeps their samples in ``holdout.npz`` (a resumed run
judges on the same positions), and at iteration 0 and at every judged iteration measures the value
head on them:

- ``excess_loss``: the mean binary cross-entropy of the value against the target (the mover's win
  share, or ``sigmoid(lead / lead_scale)``) less the target's own entropy, so 0 is a perfect fit
  whatever the targets' spread; its 95% interval is clustered by game (positions of one game
  share its outcome, so they are not independent);
- ``corr``: the Pearson correlation of the value with the target over the positions.

Both go to ``value_curve.csv`` and ``value_curve.png``.
"""

from __future__ import annotations

import csv
import os
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.intervals import clustered_mean
from ttr_lab.core.rng import derive_seed
from ttr_lab.strategies.network import Network, unreadable
from ttr_lab.training.config import TrainConfig
from ttr_lab.training.curve import interval
from ttr_lab.training.games import GameTraining
from ttr_lab.training.samples import SAMPLE_ARRAYS, Samples, joined

HOLDOUT_KEY = 0x401D  # the salt of the held-out games' seeds
FILE = "holdout.npz"


@dataclass(frozen=True)
class ValueFit:
    iteration: int
    samples: int  # training samples seen so far
    seconds: float  # training CPU so far
    games: int
    positions: int
    excess_loss: float  # cross-entropy less the targets' entropy: 0 is a perfect fit
    low: float
    high: float
    corr: float  # of the value with the target


@dataclass(frozen=True)
class Holdout:
    samples: Samples
    games: np.ndarray  # (n,) the held-out game of each sample


def held_out(training: GameTraining, net: Network, game: Any, cfg: TrainConfig, folder: Path) -> Holdout:
    """The held-out games' samples: read from ``folder/holdout.npz``, else played now (by
    ``net``, as the game's ``training`` plays its searched self-play games) and written there."""
    path = folder / FILE
    if path.exists():
        try:
            with np.load(path, allow_pickle=False) as data:
                held = Holdout(Samples(**{k: data[k] for k in SAMPLE_ARRAYS}), data["games"])
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise ConfigError(f"cannot read the held-out games from {path}: {unreadable(exc)} "
                              "(delete it to play them again)") from None
        if len(np.unique(held.games)) != cfg.holdout_games:
            raise ConfigError(f"{path} holds {len(np.unique(held.games))} held-out games, not holdout_games "
                              f"{cfg.holdout_games}; delete it to play them again")
        return held
    seeds = [derive_seed(cfg.seed, HOLDOUT_KEY, k) for k in range(cfg.holdout_games)]
    parts = training.played_games(net, game, cfg, seeds)
    held = Holdout(joined(parts), np.repeat(np.arange(len(parts)), [len(p.teacher) for p in parts]))
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, games=held.games, **{k: getattr(held.samples, k) for k in SAMPLE_ARRAYS})
    os.replace(tmp, path)  # a kill mid-write leaves no half file to judge on
    return held


def value_fit(net: Network, held: Holdout, iteration: int, samples: int, seconds: float) -> ValueFit:
    """How well ``net``'s value head predicts the held-out targets (the module docstring)."""
    _, values, _, _ = net.forward(held.samples.obs)
    v = np.clip(values.astype(np.float64), 1e-7, 1 - 1e-7)
    t = held.samples.outcomes.astype(np.float64)
    tc = np.clip(t, 1e-12, 1 - 1e-12)  # 0 log 0 is 0: the clip only keeps the logs finite
    excess = -(t * np.log(v) + (1 - t) * np.log(1 - v)) + (t * np.log(tc) + (1 - t) * np.log(1 - tc))
    mean, half = clustered_mean(excess.tolist(), held.games.tolist())
    corr = float(np.corrcoef(v, t)[0, 1]) if v.std() > 0 and t.std() > 0 else float("nan")
    return ValueFit(iteration, samples, round(seconds, 1), int(len(np.unique(held.games))), int(len(t)),
                    float(mean), float(mean - half), float(mean + half), corr)


def write_value_curve(rows: Sequence[dict[str, Any]], folder: Path) -> None:
    """``value_curve.csv`` and ``value_curve.png`` (the excess loss with its interval, and the
    correlation, against training samples)."""
    if not rows:
        return
    with open(folder / "value_curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(asdict(ValueFit(0, 0, 0.0, 0, 0, 0.0, 0.0, 0.0, 0.0))))
        writer.writeheader()
        writer.writerows(rows)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [r["samples"] for r in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
    line, = left.plot(x, [r["excess_loss"] for r in rows], marker="o")
    interval(left, x, [r["excess_loss"] for r in rows], [r["low"] for r in rows], [r["high"] for r in rows],
             line.get_color())
    left.set_ylabel("held-out excess loss (95%, by game)")
    right.plot(x, [r["corr"] for r in rows], marker="o")
    right.set_ylabel("correlation with the target")
    for ax in (left, right):
        ax.set_xlabel("training samples")
    fig.suptitle(f"the value head on {rows[-1]['games']} held-out games ({rows[-1]['positions']} positions)")
    fig.tight_layout()
    fig.savefig(folder / "value_curve.png", dpi=100)
    plt.close(fig)
