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
