"""Ratings: a Bradley-Terry fit to who finished ahead of whom, on the Elo scale, with intervals
from resampling whole deals (the games of one deal share its cards, so they are not
independent).

Every pair of different entrants at a table is one comparison (a tie counts half to each), so
multiplayer games rate like a Plackett-Luce ranking broken into pairs. A weak normal prior
(standard deviation ``prior_sd`` in natural units) keeps the fit finite when an entrant never
loses or never wins.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from scipy.optimize import minimize

ELO = 400.0 / np.log(10.0)  # natural units to Elo points


def _comparisons(frame: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    index = {n: i for i, n in enumerate(names)}
    rows = []
    for game_id, g in frame.groupby("game_id", sort=False):
        deal = int(g["deal"].iloc[0])
        seats = list(zip(g["entrant"], g["rank"]))
        for (ea, ra), (eb, rb) in itertools.combinations(seats, 2):
            if ea == eb:
                continue
            w = 1.0 if ra < rb else 0.5 if ra == rb else 0.0
            rows.append((deal, index[ea], index[eb], w))
    return pd.DataFrame(rows, columns=["deal", "i", "j", "w"])


def _fit(i: np.ndarray, j: np.ndarray, w: np.ndarray, k: int, prior_sd: float) -> np.ndarray:
    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        d = theta[i] - theta[j]
        p = 1.0 / (1.0 + np.exp(-d))
        eps = 1e-12
        value = -np.sum(w * np.log(p + eps) + (1 - w) * np.log(1 - p + eps)) + np.sum(theta**2) / (2 * prior_sd**2)
        grad_d = -(w - p)
        grad = np.zeros(k)
        np.add.at(grad, i, grad_d)
        np.add.at(grad, j, -grad_d)
        return value, grad + theta / prior_sd**2

    result = minimize(loss, np.zeros(k), jac=True, method="L-BFGS-B")
    theta = result.x
    return theta - theta.mean()


def bradley_terry(frame: pd.DataFrame, resamples: int = 200, seed: int = 0, prior_sd: float = 3.0) -> pd.DataFrame:
    """Per entrant: Elo-scale rating (mean 1500), a 95% interval from resampling deals, and the
    games it played; strongest first."""
    names = sorted(frame["entrant"].unique())
    k = len(names)
    comps = _comparisons(frame, names)
    games = frame.groupby("entrant").size()
    if comps.empty or k < 2:
        return pd.DataFrame({"entrant": names, "rating": 1500.0, "rating_low": np.nan, "rating_high": np.nan,
                             "games": [int(games.get(n, 0)) for n in names]})
    i, j, w = comps["i"].to_numpy(), comps["j"].to_numpy(), comps["w"].to_numpy()
    theta = _fit(i, j, w, k, prior_sd)
    deals = comps["deal"].to_numpy()
    unique = np.unique(deals)
    by_deal = {d: np.flatnonzero(deals == d) for d in unique}
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(resamples):
        pick = rng.choice(unique, size=len(unique), replace=True)
        rows = np.concatenate([by_deal[d] for d in pick])
        draws.append(_fit(i[rows], j[rows], w[rows], k, prior_sd))
    draws = np.array(draws) if draws else np.full((1, k), np.nan)
    low, high = np.percentile(draws, [2.5, 97.5], axis=0)
    out = pd.DataFrame({
        "entrant": names, "rating": 1500 + ELO * theta, "rating_low": 1500 + ELO * low,
        "rating_high": 1500 + ELO * high, "games": [int(games.get(n, 0)) for n in names],
    })
    return out.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
