"""The vectorised pair tables and the Newton fit of the ratings give what the definitions say:
checked against a plain per-game loop and against scipy's general-purpose optimiser."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize

from reference.readers.ratings import _comparisons
from ttr_lab.analysis.ratings import _fit
from ttr_lab.analysis.tables import head_to_head, pair_outcomes, pairwise_tests


def random_frame(seed: int, games: int = 60) -> pd.DataFrame:
    """Games of 2-4 seats drawn from five entrants, the same entrant sometimes at several seats
    (as in one_vs_field), ranks with ties."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(games):
        n = int(rng.integers(2, 5))
        entrants = rng.choice(list("ABCDE"), size=n, replace=bool(rng.integers(0, 2)))
        ranks = rng.integers(1, n + 1, size=n)
        for seat in range(n):
            rows.append({"game_id": f"g{g}", "deal": g // 3, "seat": seat, "entrant": str(entrants[seat]),
                         "rank": int(ranks[seat])})
    return pd.DataFrame(rows)


def looped(frame: pd.DataFrame, a: str, b: str) -> list[tuple[str, int, float]]:
    """pair_outcomes by its definition, one game at a time."""
    out = []
    for game_id, g in frame.groupby("game_id", sort=False):
        ra = g.loc[g["entrant"] == a, "rank"].tolist()
        rb = g.loc[g["entrant"] == b, "rank"].tolist()
        for x, y in itertools.product(ra, rb):
            out.append((game_id, int(g["deal"].iloc[0]), 1.0 if x < y else 0.5 if x == y else 0.0))
    return out


@pytest.mark.parametrize("seed", range(5))
def test_pair_tables_match_the_per_game_definition(seed):
    frame = random_frame(seed)
    names = sorted(frame["entrant"].unique())
    h = head_to_head(frame)
    for a, b in itertools.permutations(names, 2):
        expected = looped(frame, a, b)
        assert list(pair_outcomes(frame, a, b).itertuples(index=False, name=None)) == expected
        if expected:
            assert h.loc[a, b] == pytest.approx(np.mean([s for _, _, s in expected]))
        else:
            assert np.isnan(h.loc[a, b])
    tests = pairwise_tests(frame).set_index(["a", "b"])
    for (a, b), row in tests.iterrows():
        expected = looped(frame, a, b)
        assert row["games"] == len(expected) and row["deals"] == len({d for _, d, _ in expected})
        assert row["a_ahead"] == pytest.approx(np.mean([s for _, _, s in expected]))


@pytest.mark.parametrize("seed", range(3))
def test_the_newton_fit_is_the_penalised_likelihood_optimum(seed):
    frame = random_frame(seed, games=200)
    names = sorted(frame["entrant"].unique())
    comps = _comparisons(frame, names)
    i, j, w = comps["i"].to_numpy(), comps["j"].to_numpy(), comps["w"].to_numpy()
    k, prior = len(names), 3.0

    def loss(theta):  # per comparison, as the model is written
        p = 1 / (1 + np.exp(-(theta[i] - theta[j])))
        return -np.sum(w * np.log(p) + (1 - w) * np.log(1 - p)) + np.sum(theta**2) / (2 * prior**2)

    reference = minimize(loss, np.zeros(k), method="BFGS", options={"gtol": 1e-9}).x
    newton = _fit(i, j, w, np.ones_like(w), k, prior)
    assert newton == pytest.approx(reference - reference.mean(), abs=1e-5)


def test_the_ratings_of_a_million_deals_resample_without_a_64_bit_copy_of_the_per_deal_tables():
    import tracemalloc

    from ttr_lab.analysis.ratings import bradley_terry
    from ttr_lab.core.digest import ResultsDigest

    deals, rng = 1_000_000, np.random.default_rng(5)
    d = ResultsDigest(None)
    d.entrants.of(list("ABCD"))
    d.rows = np.full(4, 4.0 * deals)
    at = np.arange(deals)
    for a, b in itertools.combinations(range(4), 2):
        ahead = rng.integers(0, 9, deals) / 2  # halves: ties count half
        d.pairs.add((a, b), at, ahead)
        d.pairs.add((b, a), at, 4 - ahead)
        d.pair_counts.add((a, b), at, np.full(deals, 4.0))
        d.pair_counts.add((b, a), at, np.full(deals, 4.0))
    d.pair_tables()  # views of the digest's tallies, held before as after
    tracemalloc.start()
    try:
        ratings = bradley_terry(d, resamples=2)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert list(ratings["entrant"]) != [] and ratings["rating_low"].notna().all()
    # The two 32-bit tables (6 pairs x 4 bytes per deal each) and a resample's draw and counts,
    # about 88 bytes a deal; before, each table was copied to 64 bits as well (136).
    assert peak < 110 * deals
