"""Match statistics on hand-made rows with known answers."""

import pandas as pd
import pytest

from ttr_lab.analysis.stats import summarize
from ttr_lab.core.intervals import wilson
from ttr_lab.analysis.tables import ahead_share


def game(game_id, entrants, ranks, totals=None):
    """The rows of one game, seat by seat: wins shared between tied winners, as the game player writes them."""
    winners = sum(1 for r in ranks if r == 1)
    totals = totals or [0] * len(entrants)
    return [{"game_id": game_id, "game": "ticket_to_ride", "deal": 0, "seat": s, "entrant": e, "rank": r, "win": 1.0 / winners if r == 1 else 0.0,
             "score": t, "tickets_completed": 1, "tickets_held": 2, "think_seconds": 0.5, "decisions": 5}
            for s, (e, r, t) in enumerate(zip(entrants, ranks, totals))]


def test_wilson_known_values():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_summaries_split_tied_wins():
    rows = game("a", "xy", [1, 2], [30, 20]) + game("b", "yx", [1, 2], [40, 10]) + game("c", "xy", [1, 1], [25, 25])
    x, y = summarize(rows, ["x", "y"])
    assert (x.entrant, x.games) == ("x", 3) and x.win_rate == pytest.approx(1.5 / 3) and y.win_rate == pytest.approx(1.5 / 3)
    assert x.low < 0.5 < x.high and x.mean_score == pytest.approx(65 / 3)
    assert x.metrics == {"completion": 0.5} and x.seconds_per_decision == pytest.approx(0.1)
    assert summarize(rows, ["nobody"])[0].games == 0


def test_forfeited_games_count_for_wins_not_scores():
    rows = game("a", "xy", [1, 2], [30, 20]) + game("b", "xy", [2, 1], [None, None])
    x = summarize(rows, ["x"])[0]
    assert x.games == 2 and x.win_rate == 0.5 and x.mean_score == 30 and x.metrics["completion"] == 0.5


def test_the_summary_carries_the_metrics_the_rows_game_declares_by_name():
    """Not a fixed ticket column: each game's own summary metrics (a ratio, or a mean per game)."""
    from ttr_lab.core.outcome import SummaryMetric

    rows = game("a", "xy", [1, 2], [30, 20])
    orient = [{**r, "game": "trans_orient", "objectives_met": 2 * r["seat"]} for r in rows]
    assert summarize(orient, ["y"])[0].metrics == {"objectives_met": 2.0}
    assert summarize([{**r, "game": "high_card"} for r in rows], ["x"])[0].metrics == {}  # declares none
    halves = SummaryMetric("held", "tickets held per game", "tickets_held")
    assert summarize(rows, ["x"], [halves])[0].metrics == {"held": 2.0}


def test_ahead_share_counts_head_to_head_at_the_table():
    rows = game("a", "xyzz", [1, 2, 3, 4]) + game("b", "zxyz", [1, 3, 2, 4])
    frame = pd.DataFrame(rows)
    share, games, low, high = ahead_share(frame, "x", "y")
    assert (share, games) == (0.5, 2) and low < 0.5 < high
    share, games, *_ = ahead_share(frame, "x", "z")
    assert games == 4 and share == pytest.approx(3 / 4)
    assert ahead_share(frame, "x", "nobody")[:2] == (0.0, 0)


def test_signed_rank_p_is_scipys_wilcoxon_to_the_last_bit() -> None:
    """Differential: the enumerated test for small tied samples and scipy's own answer agree
    exactly on tied, untied, small and large samples (what a report's per-deal differences are)."""
    import numpy as np
    from scipy import stats

    from ttr_lab.analysis.stats import signed_rank_p

    rng = np.random.default_rng(7)
    ties = np.array([-1.0, -0.5, -0.25, -1 / 3, 0.25, 1 / 3, 0.5, 1.0])
    for trial in range(90):
        n = int(rng.integers(2, 18))
        d = (rng.choice(ties, size=n) if trial % 3 == 1 else rng.normal(size=n) if trial % 3 == 2
             else rng.integers(-40, 41, size=n).astype(float))  # lead differences: whole points, ties, maybe zero
        d = d[d != 0]
        if len(d) >= 2:
            expected = float(stats.wilcoxon(d, zero_method="wilcox", alternative="two-sided").pvalue)
            assert signed_rank_p(d) == expected, d
    assert signed_rank_p(np.array([0.5, -0.5])) == 1.0
    assert signed_rank_p(np.array([0.5])) == 1.0
    assert signed_rank_p(np.array([])) == 1.0
