"""Ratings: a Bradley-Terry fit to who finished ahead of whom, on the Elo scale, with intervals
from resampling whole deals (the games of one deal share its cards, so they are not
independent).

Every pair of different entrants at a table is one comparison (a tie counts half to each), so
multiplayer games rate like a Plackett-Luce ranking broken into pairs. A weak normal prior
(standard deviation ``prior_sd`` in natural units) keeps the fit finite when an entrant never
loses or never wins.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

ELO = 400.0 / np.log(10.0)  # natural units to Elo points


def _comparisons(frame: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """Every pair of seats of different entrants at a game, each once (earlier seat first):
    ``deal``, ``i``, ``j`` (entrant indices) and ``w`` (1 if i finished ahead, 0.5 tie, 0)."""
    from reference.readers.tables import seat_pairs

    pairs = seat_pairs(frame, ordered=False)
    index = {n: i for i, n in enumerate(names)}
    return pd.DataFrame({"deal": pairs["deal"].to_numpy(), "i": pairs["a"].map(index).to_numpy(),
                         "j": pairs["b"].map(index).to_numpy(), "w": pairs["score"].to_numpy()})


def _loss(theta: np.ndarray, i: np.ndarray, j: np.ndarray, wins: np.ndarray, n: np.ndarray, prior_sd: float) -> float:
    d = theta[i] - theta[j]
    # log p and log(1 - p) of sigmoid(d), stable for any d
    return float(np.sum(wins * np.logaddexp(0.0, -d) + (n - wins) * np.logaddexp(0.0, d)) + np.sum(theta**2) / (2 * prior_sd**2))


def _fit(i: np.ndarray, j: np.ndarray, wins: np.ndarray, n: np.ndarray, k: int, prior_sd: float) -> np.ndarray:
    """The ratings maximising the (penalised) likelihood of ``wins`` out of ``n`` comparisons
    of i against j. Comparisons come aggregated by pair, so the loss has at most k² terms, and
    Newton's method (the exact k x k Hessian, halving steps that do not lower the loss) converges
    in a few steps; the prior makes the loss strictly convex."""
    theta = np.zeros(k)
    value = _loss(theta, i, j, wins, n, prior_sd)
    for _ in range(100):
        d = theta[i] - theta[j]
        p = 1.0 / (1.0 + np.exp(-d))
        g_d = n * p - wins
        h_d = n * p * (1 - p)
        grad = np.bincount(i, g_d, k) - np.bincount(j, g_d, k) + theta / prior_sd**2
        hess = np.diag(np.full(k, 1.0 / prior_sd**2))
        np.add.at(hess, (i, i), h_d)
        np.add.at(hess, (j, j), h_d)
        np.add.at(hess, (i, j), -h_d)
        np.add.at(hess, (j, i), -h_d)
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while True:
            candidate = theta - t * step
            new = _loss(candidate, i, j, wins, n, prior_sd)
            if new <= value or t < 1e-8:
                break
            t /= 2
        theta, value = candidate, new
        if np.max(np.abs(t * step)) < 1e-10:
            break
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
    # Per deal and ordered pair (i, j): wins of i over j and comparisons. A resample of deals is
    # then a count per deal, and its totals one matrix product.
    unique, deal_index = np.unique(comps["deal"].to_numpy(), return_inverse=True)
    pair = comps["i"].to_numpy() * k + comps["j"].to_numpy()
    cells = len(unique) * k * k
    wins_by_deal = np.bincount(deal_index * k * k + pair, weights=comps["w"].to_numpy(), minlength=cells).reshape(len(unique), k * k)
    n_by_deal = np.bincount(deal_index * k * k + pair, minlength=cells).reshape(len(unique), k * k).astype(float)
    used = np.flatnonzero(n_by_deal.sum(axis=0))
    i, j = used // k, used % k
    wins_by_deal, n_by_deal = wins_by_deal[:, used], n_by_deal[:, used]
    theta = _fit(i, j, wins_by_deal.sum(axis=0), n_by_deal.sum(axis=0), k, prior_sd)
    rng = np.random.default_rng(seed)
    draws: list[np.ndarray] = []
    for _ in range(resamples):
        pick = rng.choice(len(unique), size=len(unique), replace=True)
        counts = np.bincount(pick, minlength=len(unique)).astype(float)
        draws.append(_fit(i, j, counts @ wins_by_deal, counts @ n_by_deal, k, prior_sd))
    drawn = np.array(draws) if draws else np.full((1, k), np.nan)
    low, high = np.percentile(drawn, [2.5, 97.5], axis=0)
    out = pd.DataFrame({
        "entrant": names, "rating": 1500 + ELO * theta, "rating_low": 1500 + ELO * low,
        "rating_high": 1500 + ELO * high, "games": [int(games.get(n, 0)) for n in names],
    })
    return out.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
