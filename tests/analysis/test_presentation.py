"""How the report writes numbers: rates with their interval in one cell, one precision per
column, p-values as a paper writes them, human headers."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from ttr_lab.analysis.presentation import decimals_for, html_table, p_text, percent_interval, present


@pytest.mark.parametrize("rate, low, high, text", [
    (0.421, 0.374, 0.470, "42.1% [37.4, 47.0]"),
    (0.0, 0.0, 0.074, "0.0% [0.0, 7.4]"),
    (1.0, 0.926, 1.0, "100.0% [92.6, 100.0]"),
    (0.5, math.nan, math.nan, "50.0%"),
    (math.nan, 0.1, 0.2, ""),
])
def test_percent_interval(rate, low, high, text):
    assert percent_interval(rate, low, high) == text


@pytest.mark.parametrize("p, text", [(0.0, "<0.001"), (0.000999, "<0.001"), (0.001, "0.001"), (0.0312, "0.031"),
                                     (1.0, "1.000"), (math.nan, "")])
def test_p_values(p, text):
    assert p_text(p) == text


@pytest.mark.parametrize("values, digits", [([1, 2, 3], 0), ([3.387, 12.3], 1), ([0.25, 3.5], 2), ([0.0012, 0.05], 4),
                                            ([math.nan, 2.0], 0), ([], 0)])
def test_one_precision_per_column(values, digits):
    assert decimals_for(values) == digits


def test_present_merges_intervals_and_names_columns():
    raw = pd.DataFrame({"entrant": ["a", "b"], "games": [10, 12], "win_rate": [0.5, 0.25], "win_low": [0.2, 0.1],
                        "win_high": [0.8, 0.5], "mean_score": [3.387, 12.3], "p_value": [0.0004, 0.2],
                        "rating": [1512.4, 1487.6], "rating_low": [1400.2, 1380.0], "rating_high": [1600.0, 1590.9],
                        "significant": [True, False], "custom_thing": [1.5, 2.0]})
    shown = present(raw)
    assert list(shown.columns) == ["entrant", "games", "win rate [95% CI]", "mean score (pts)", "p",
                                   "rating (Elo) [95% CI]", "significant (Holm, 5%)", "custom_thing"]
    assert shown.iloc[0].tolist() == ["a", "10", "50.0% [20.0, 80.0]", "3.4", "<0.001", "1512 [1400, 1600]", "yes", "1.50"]
    assert shown.iloc[1].tolist() == ["b", "12", "25.0% [10.0, 50.0]", "12.3", "0.200", "1488 [1380, 1591]", "no", "2.00"]


def test_a_table_names_its_own_headers_and_shares():
    raw = pd.DataFrame({"entrant": ["a"], "held": [3.25], "done": [0.75]})
    raw.attrs.update(labels={"held": "tickets held"}, percent=["done"])
    assert present(raw).iloc[0].tolist() == ["a", "3.25", "75.0%"] and "tickets held" in present(raw).columns


def test_html_aligns_text_left_and_numbers_right_and_escapes():
    page = html_table(present(pd.DataFrame({"entrant": ["<x>"], "games": [3]})))
    assert '<td class="l">&lt;x&gt;</td>' in page and '<td class="r">3</td>' in page


def test_one_precision_for_a_whole_table_keeps_counts_whole():
    raw = pd.DataFrame({"players": [4], "games": [48], "mean": [156.94], "std": [7.163]})
    assert present(raw, one_precision=True).iloc[0].tolist() == ["4", "48", "156.9", "7.2"]
    assert present(raw).iloc[0].tolist() == ["4", "48", "156.9", "7.16"]  # per column otherwise
