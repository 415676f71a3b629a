"""Decision quality per entrant from a review's rows: the mean loss with its clustered interval,
the share within noise, the loss per kind and the kind that costs most; the correlation of a
seat's loss with its margin."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from ttr_lab import ConfigError
from ttr_lab.analysis.decision_quality import correlation, decision_quality, loss_and_margin


def rows(entrant: str, game: str, losses: list[float], kinds: list[str]) -> list[dict]:
    return [{"game": game, "seat": 0, "entrant": entrant, "kind": k, "points_lost": v} for v, k in zip(losses, kinds)]


def test_the_table_per_entrant():
    frame = pd.DataFrame(rows("a", "g1", [0, 2, 4], ["claim", "draw", "draw"]) + rows("a", "g2", [0, 0, 3],
                                                                                       ["claim", "claim", "tickets"])
                         + rows("b", "g1", [1, 0], ["claim", "claim"]) + rows("b", "g2", [0, 0], ["draw", "draw"]))
    table = decision_quality(frame).set_index("entrant")
    assert list(table.index) == ["b", "a"]  # fewest points lost first
    a = table.loc["a"]
    assert a["games"] == 2 and a["decisions"] == 6 and a["lost"] == pytest.approx(1.5)
    assert a["lost_low"] < 1.5 < a["lost_high"] and a["within_noise"] == pytest.approx(0.5)
    assert a["claim"] == pytest.approx(0.0) and a["draw"] == pytest.approx(3.0) and a["tickets"] == pytest.approx(3.0)
    assert a["worst"] == "draw" and a["worst_share"] == pytest.approx(6 / 9)
    b = table.loc["b"]
    assert b["worst"] == "claim" and math.isnan(b["tickets"])


def test_an_entrant_that_lost_nothing_has_no_worst_kind():
    table = decision_quality(pd.DataFrame(rows("a", "g1", [0, 0], ["claim", "draw"]) + rows("a", "g2", [0], ["draw"])))
    assert table.loc[0, "worst"] == "" and table.loc[0, "lost"] == 0.0 and table.loc[0, "within_noise"] == 1.0


def test_a_table_without_the_review_columns_is_refused():
    with pytest.raises(ConfigError, match="points_lost"):
        decision_quality(pd.DataFrame({"game": [], "seat": [], "entrant": [], "kind": []}))


def test_loss_against_margin():
    r, low, high = correlation(pd.Series([1.0, 2, 3, 4, 5, 6]), pd.Series([5.0, 3, 4, 1, 0, -2]))
    assert -1 < low < r < high and r < -0.9
    assert all(math.isnan(v) for v in correlation(pd.Series([1.0, 2, 3]), pd.Series([3.0, 2, 1])))  # too few
    seats = pd.DataFrame({"entrant": ["a", "b"] * 4, "points_lost": [1, 9, 2, 8, 3, 7, 0, 10],
                          "final_margin": [10, -10, 5, -5, 2, -2, 20, -20]})
    table = loss_and_margin(seats)
    assert list(table["seats of"]) == ["all", "a", "b"] and table.loc[0, "correlation"] < -0.8
