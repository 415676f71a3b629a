"""Match statistics on hand-made results with known answers."""

import pytest

from ttr_lab.evaluation import GameRow, beats, play_match, summarize, wilson


def row(seats, ranks, totals=None):
    n = len(seats)
    return GameRow(0, 0, 0, tuple(seats), tuple(totals or [0] * n), tuple(ranks), (1,) * n, (2,) * n, (0.5,) * n, (5,) * n)


def test_wilson_known_values():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_win_shares_split_ties():
    r = row([0, 1, 1], [1, 1, 3])
    assert r.win_share(0) == pytest.approx(0.5) and r.win_share(1) == pytest.approx(0.5)
    rows = [row([0, 1], [1, 2]), row([1, 0], [1, 2]), row([0, 1], [1, 1])]
    s0, s1 = summarize(rows, 2)
    assert s0.games == 3 and s0.win_rate == pytest.approx(1.5 / 3) and s1.win_rate == pytest.approx(1.5 / 3)
    assert s0.completion == 0.5 and s0.seconds_per_decision == pytest.approx(0.1)


def test_beats_counts_head_to_head_at_the_table():
    rows = [row([0, 1, 2, 2], [1, 2, 3, 4]), row([2, 0, 1, 2], [1, 3, 2, 4])]
    share, games, low, high = beats(rows, 0, 1)
    assert (share, games) == (0.5, 2)
    share, games, *_ = beats(rows, 0, 2)
    assert games == 4 and share == pytest.approx(3 / 4)


def test_match_rotates_seats_and_is_reproducible():
    entrants = [("greedy", {}), ("random", {})]
    rows = play_match(entrants, [0, 1, 1], deals=2, seed=5, workers=1)
    assert len(rows) == 6
    assert [r.seats for r in rows[:3]] == [(0, 1, 1), (1, 1, 0), (1, 0, 1)]
    assert len({r.seed for r in rows[:3]}) == 1 and rows[0].seed != rows[3].seed
    again = play_match(entrants, [0, 1, 1], deals=2, seed=5, workers=2)
    assert [(r.totals, r.ranks) for r in again] == [(r.totals, r.ranks) for r in rows]
