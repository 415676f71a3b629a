"""Ratings: a Bradley-Terry fit to who finished ahead of whom, on the Elo scale, with intervals
from resampling whole deals (the games of one deal share its cards, so they are not
independent).

Every pair of different entrants at a table is one comparison (a tie counts half to each), so
multiplayer games rate like a Plackett-Luce ranking broken into pairs. A weak normal prior
(standard deviation ``prior_sd`` in natural units) keeps the fit finite when an entrant never
loses or never wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from ttr_lab.core.digest import ResultsDigest

ELO = 400.0 / np.log(10.0)  # natural units to Elo points


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


_BLOCK = 1 << 16  # deals per product in 64 bits: a few MB at a time


def _weighted(counts: np.ndarray, by_deal: np.ndarray) -> np.ndarray:
    """``counts @ by_deal`` in 64 bits, a block of deals at a time (a 64-bit copy of the whole
    matrix is 100 MB per million deals). Exact whatever the order: sums of halves."""
    total = np.zeros(by_deal.shape[1])
    for start in range(0, len(counts), _BLOCK):
        total += counts[start:start + _BLOCK] @ by_deal[start:start + _BLOCK].astype(np.float64)
    return total


def bradley_terry(frame: "pd.DataFrame | ResultsDigest", resamples: int = 200, seed: int = 0,
                  prior_sd: float = 3.0) -> pd.DataFrame:
    """Per entrant: Elo-scale rating (mean 1500), a 95% interval from resampling deals, and the
    games it played; strongest first. ``frame``: a results frame or a folder's digest."""
    from ttr_lab.core.digest import digest_of

    d = digest_of(frame)
    names = sorted(d.names)
    k = len(names)
    at = {d.code(n): i for i, n in enumerate(names)}
    games = [int(d.rows[d.code(n)]) for n in names]
    deals, pairs = d.pair_tables()
    # Per deal and pair i < j (name order): wins of i over j and comparisons. Each comparison of
    # i and j counted once: "j ahead of i" is the rest of it. A resample of deals is then a count
    # per deal, and its totals one matrix product.
    cells = sorted({(min(at[a], at[b]), max(at[a], at[b])) for a, b in pairs})
    if not cells or k < 2:
        return pd.DataFrame({"entrant": names, "rating": 1500.0, "rating_low": np.nan, "rating_high": np.nan,
                             "games": games})
    code = {i: c for c, i in at.items()}
    # Kept in the digest's 32 bits (halves and counts of a few games: exact), not copied to 64.
    wins_by_deal = np.stack([pairs[(code[i], code[j])][0] for i, j in cells], axis=1)
    n_by_deal = np.stack([pairs[(code[i], code[j])][1] for i, j in cells], axis=1)
    i = np.array([c[0] for c in cells])
    j = np.array([c[1] for c in cells])
    theta = _fit(i, j, wins_by_deal.sum(axis=0, dtype=np.float64), n_by_deal.sum(axis=0, dtype=np.float64), k, prior_sd)
    rng = np.random.default_rng(seed)
    draws: list[np.ndarray] = []
    for _ in range(resamples):
        pick = rng.choice(len(deals), size=len(deals), replace=True)
        counts = np.bincount(pick, minlength=len(deals)).astype(float)
        draws.append(_fit(i, j, _weighted(counts, wins_by_deal), _weighted(counts, n_by_deal), k, prior_sd))
    drawn = np.array(draws) if draws else np.full((1, k), np.nan)
    low, high = np.percentile(drawn, [2.5, 97.5], axis=0)
    out = pd.DataFrame({
        "entrant": names, "rating": 1500 + ELO * theta, "rating_low": 1500 + ELO * low,
        "rating_high": 1500 + ELO * high, "games": games,
    })
    return out.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
