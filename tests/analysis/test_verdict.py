"""The report's verdict on hand-made results with known answers: a clear leader, two entrants
the data cannot separate, the per-deal metric differences, and the upsets."""

from __future__ import annotations

import pandas as pd
import pytest

from test_tables import METRICS, frame_of, game
from ttr_lab.analysis.ratings import bradley_terry
from ttr_lab.analysis.verdict import biggest_upset, explaining, metric_differences, upsets, verdict


def clear_leader() -> pd.DataFrame:
    """A beats B in every one of 10 deals (both seatings); C loses to both."""
    games = []
    for deal in range(10):
        games.append(game(deal, [1, 2, 3], ["A", "B", "C"], totals=[120 + deal, 90, 60]))
        games.append(game(deal, [2, 3, 1], ["B", "C", "A"], totals=[95, 70, 118]))
    return frame_of(*games)


def test_a_clear_leader_is_named_with_its_test_and_interval():
    v = verdict(clear_leader(), METRICS)
    assert (v.leader, v.runner_up, v.separated) == ("A", "B", True)
    head = v.sentences[0]
    assert head.startswith("A is first: it wins 100.0% [")  # the Wilson interval of 20 wins in 20
    assert "ahead of the runner-up B in 100.0% [" in head and "20 games they shared" in head
    assert "over 10 deals" in head and "Holm" in head and "p 0.00" in head  # 10 deals one way: exact 2/2^10, x3 pairs
    assert "significantly ahead of every other entrant (C)" in v.sentences[1]
    # By how much: A's 120+deal and 118 against B's 90 and 95 -> 26.5 + deal/2 a deal, 28.75 on average.
    assert v.sentences[2].startswith("By score, A makes +28.8 [") and "(10 deals, 95% interval)." in v.sentences[2]
    assert v.sentences[3].startswith("What sets A apart from B") and "longest_bonus +10" in v.sentences[3]


def test_entrants_the_data_cannot_separate_are_said_to_be_so():
    games = []
    for deal in range(6):  # A and B trade wins deal by deal: no lead either way
        first, second = ("A", "B") if deal % 2 else ("B", "A")
        games.append(game(deal, [1, 2], [first, second]))
        games.append(game(deal, [2, 1], [second, first]))
    games.append(game(6, [1, 2], ["A", "B"]))  # A one game ahead, so A leads on win rate
    v = verdict(frame_of(*games), METRICS)
    assert v.leader == "A" and not v.separated
    assert "the data cannot separate it from B" in v.sentences[0] and "not significant at 5%" in v.sentences[0]


def test_metric_differences_are_paired_by_deal():
    rows = []
    # Deal 0: A scores 100 and 80 (mean 90), B 70 -> +20. Deal 1: A 60, B 50 -> +10. Deal 2: A 90, B 60 -> +30.
    for deal, a_scores, b_score in ((0, (100, 80), 70), (1, (60,), 50), (2, (90,), 60)):
        for i, a in enumerate(a_scores):
            rows.append(game(deal, [1, 2], ["A", "B"], totals=[a, b_score], game_id=f"{deal}-{i}"))
    d = metric_differences(frame_of(*rows), "A", "B", METRICS).set_index("metric")
    assert d.loc["score", "difference"] == pytest.approx(20.0)  # mean of +20, +10, +30, not of the games
    assert d.loc["score", "deals"] == 3
    from scipy.stats import t

    half = t.ppf(0.975, 2) * 10.0 / 3 ** 0.5  # SD of (20, 10, 30) is 10
    assert d.loc["score", "difference_low"] == pytest.approx(20 - half)
    assert d.loc["score", "difference_high"] == pytest.approx(20 + half)
    assert "tracks" not in d.index and "explorer_bonus" not in d.index  # not averaged / not recorded
    # Clear of zero: the score and the bonus (10 points every deal, no spread); not the equal route points.
    assert list(explaining(d.reset_index())["metric"]) == ["score", "longest_bonus"]  # the score first
    assert list(explaining(d.reset_index(), most=1)["metric"]) == ["score"]


def test_upsets_are_wins_over_a_higher_rated_entrant():
    frame = clear_leader()
    upset = game(10, [2, 1, 3], ["A", "B", "C"], game_id="the-upset")  # B beats A once
    minor = game(11, [3, 2, 1], ["A", "B", "C"], game_id="the-big-one")  # C, the weakest, beats everyone
    frame = pd.concat([frame, frame_of(upset, minor)], ignore_index=True)
    ratings = bradley_terry(frame, resamples=0)
    table = upsets(frame, ratings)
    assert list(table["game_id"]) == ["the-big-one", "the-upset"]  # C over A is a bigger gap than B over A
    assert list(table["beaten"]) == ["A", "A"] and (table["gap"] > 0).all()
    assert biggest_upset(frame) == "the-big-one"
    assert biggest_upset(clear_leader()) is None  # every game went as the ratings say


def test_a_pairing_upset_game_after_game_is_one_row_its_widest_win_with_its_count():
    """The gap belongs to the two entrants: a row per game repeated it down the table (every
    upset of a run of few entrants is often the same pairing). One row a pairing instead."""
    frame = clear_leader()
    narrow = game(10, [3, 2, 1], ["A", "B", "C"], totals=[99, 98, 100], game_id="a-narrow")  # C over A by 1 point
    wide = game(11, [3, 2, 1], ["A", "B", "C"], totals=[60, 70, 130], game_id="z-wide")  # C over A by 70
    other = game(12, [2, 1, 3], ["A", "B", "C"], totals=[80, 90, 50], game_id="b-over-a")  # B over A
    frame = pd.concat([frame, frame_of(narrow, wide, other)], ignore_index=True)
    table = upsets(frame, bradley_terry(frame, resamples=0))
    assert list(zip(table["winner"], table["beaten"])) == [("C", "A"), ("B", "A")]
    assert list(table["game_id"]) == ["z-wide", "b-over-a"] and list(table["margin"]) == [70.0, 10.0]
    assert list(table["games"]) == [2, 1] and table["gap"].is_unique


def mirrored_metrics() -> tuple[pd.DataFrame, tuple]:
    """A places more trains than B, by a different count in each deal; trains left is 45 minus
    trains placed: the same per-deal difference, negated."""
    from ttr_lab.core.outcome import Metric

    games = []
    for deal in range(6):
        for ranks, names in (([1, 2], ["A", "B"]), ([2, 1], ["B", "A"])):
            rows = game(deal, ranks, names, totals=[100 + deal, 80] if names[0] == "A" else [80, 100 + deal])
            for row in rows:
                placed = 40 + deal if row["entrant"] == "A" else 30 - deal % 3
                row["trains_placed"], row["trains_left"] = placed, 45 - placed
                row["route_points"] = 0.06 * deal if row["entrant"] == "A" else 0.0  # a small metric
            games.append(rows)
    metrics = (*METRICS, Metric("trains_left", "trains not placed"), Metric("trains_placed", "trains placed"))
    return frame_of(*games), metrics


def test_two_metrics_that_mirror_each_other_are_one_finding():
    frame, metrics = mirrored_metrics()
    v = verdict(frame, metrics)
    apart = next(s for s in v.sentences if s.startswith("What sets A apart"))
    assert apart.count("trains_") == 2 and "the same finding as" in apart  # named once, its mirror beside it
    shown = list(explaining(v.differences)["metric"])
    assert ("trains_left" in shown) != ("trains_placed" in shown)


def test_the_verdict_table_writes_each_difference_as_the_words_do():
    from ttr_lab.analysis.verdict import differences_view

    frame, metrics = mirrored_metrics()
    v = verdict(frame, metrics)
    view = differences_view(v.differences).set_index("metric")
    column = next(c for c in view.columns if c.endswith("[95% CI]"))
    score = view.loc["score", column]
    assert score in " ".join(v.sentences)  # the same digits in prose and table
    small = view.loc["route_points", column]  # +0.15 a game, beside a score's +23: its own digits
    assert small.startswith("+0.15 [") and small != "+0.1 [0.0, 0.1]" and "0.0," not in small


def test_per_deal_differences_are_held_on_disk_in_32_bits_where_exact_on_one_shared_index():
    import os

    import numpy as np

    from ttr_lab.analysis.verdict import _Held

    deals = pd.Index(np.arange(5) * 7, name="deal")
    with _Held() as held:
        held.keep("quarters", pd.Series([0.25, -1.5, 3.0, 0.0, 2.75], index=deals))
        held.keep("thirds", pd.Series([1 / 3, 0.5, -2 / 3, 1.0, 0.0], index=deals.copy()))
        files = held._files
        assert np.load(files["quarters"]).dtype == np.float32  # exact in 32 bits
        assert np.load(files["thirds"]).dtype == np.float64  # 1/3 is not
        quarters, thirds = held.get("quarters"), held.get("thirds")
        assert quarters is not None and thirds is not None and held.get("absent") is None
        assert thirds.index is quarters.index
        assert thirds.tolist() == [1 / 3, 0.5, -2 / 3, 1.0, 0.0]
        assert quarters.dtype == np.float64 and quarters.tolist() == [0.25, -1.5, 3.0, 0.0, 2.75]
        folder = files["quarters"].parent
    assert not os.path.exists(folder)  # the temporary folder goes with the ``with``

