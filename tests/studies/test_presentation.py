"""A study's report by the tournament report's presentation rules: human headers, percentages,
p-values to three decimals, no yes/no columns, and no interval that runs past what a change of
a win rate can be (two deals a cell gave [-117, +137] points and an axis to +-250)."""

from __future__ import annotations

import math

import pandas as pd

from ttr_lab.studies.figures import balance_figure, paired_figure
from ttr_lab.studies.presentation import balance_view, change_text, interval_meaningless, paired_view

PAIRED = pd.DataFrame([
    # two deals: Student's t over 2 values runs far past the possible changes
    {"cell": "bonus=0", "entrant": "hungry", "games": 10, "deals": 2, "a": 0.2, "b": 0.3, "delta": 0.1, "low": -1.17,
     "high": 1.37, "p_value": 0.5, "p_holm": 0.02656, "gained": 2, "lost": 1, "score_delta": 1.234,
     "changed_winner": 3, "games_compared": 10, "paired": True},
    {"cell": "bonus=0", "entrant": "mcts", "games": 100, "deals": 20, "a": 0.5, "b": 0.45, "delta": -0.05, "low": -0.1,
     "high": 0.004, "p_value": 0.0001, "p_holm": 0.00004, "gained": 1, "lost": 6, "score_delta": -2.0,
     "changed_winner": 3, "games_compared": 10, "paired": True},
])


def test_an_interval_past_the_possible_changes_is_too_few_deals_not_numbers():
    assert interval_meaningless(0.2, -1.17, 1.37) and interval_meaningless(0.2, -0.21, 0.1)
    assert not interval_meaningless(0.2, -0.2, 0.8) and interval_meaningless(0.2, math.nan, math.nan)
    assert change_text(0.1, -1.17, 1.37, 0.2) == "+10.0 (too few deals)"
    assert change_text(-0.05, -0.1, 0.004, 0.5) == "-5.0 [-10.0, +0.4]"


def test_the_paired_table_reads_as_the_tournament_report_does():
    view = paired_view(PAIRED)
    headers = " ".join(view.columns)
    assert "_" not in headers and "paired" not in view.columns  # human headers, no True/False column
    cells = view.astype(str).to_numpy().ravel().tolist()
    assert "True" not in cells and "False" not in cells
    first, second = view.iloc[0], view.iloc[1]
    assert first["win rate, baseline"] == "20.0%" and first["change (points) [95% CI]"] == "+10.0 (too few deals)"
    assert first["p (Holm)"] == "0.027" and second["p (Holm)"] == "<0.001"
    assert first["games with another winner"] == "3 / 10"


def test_balance_table_names_the_baseline_in_its_cell_and_rounds_p():
    bal = pd.DataFrame([{"cell": "b=0", "games": 10, "spread": 0.3, "sd": 0.1, "chi2": 4.2, "p_all_equal": 0.0031,
                         "leader": "x", "leader_win_rate": 0.4, "baseline": False},
                        {"cell": "b=10", "games": 10, "spread": 0.2, "sd": 0.05, "chi2": 1.0, "p_all_equal": 0.5,
                         "leader": "y", "leader_win_rate": 0.3, "baseline": True}])
    view = balance_view(bal, "b=10")
    assert list(view["cell"]) == ["b=0", "b=10 (baseline)"] and "baseline" not in view.columns
    assert list(view["p (all win equally)"]) == ["0.003", "0.500"] and list(view["leader's win rate"]) == ["40.0%", "30.0%"]
    labels = [t.get_text() for t in balance_figure(bal).axes[0].texts]
    assert labels == ["p=0.003", "p=0.500"]  # not p=0.00


def test_the_paired_figure_keeps_to_the_changes_that_can_happen():
    fig = paired_figure(PAIRED)
    low, high = fig.axes[0].get_ylim()
    assert -100 <= low < -5 and 5 < high <= 100  # not +-250 for the two-deal cell
    assert "too few deals" in fig.axes[0].get_title()
