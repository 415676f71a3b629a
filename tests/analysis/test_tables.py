"""Report statistics on hand-made results with known answers. The rows look like Ticket to
Ride's, but the tables are told the metrics (``METRICS``): they know no game."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ttr_lab.analysis.ratings import bradley_terry
from ttr_lab.analysis.tables import (
    _holm, entrant_order, entrant_table, head_to_head, metric_table, pairwise_tests, player_count_table, score_parts, seat_table,
)
from ttr_lab.core.outcome import Metric

METRICS = (
    Metric("route_points", "points from routes"),
    Metric("longest_bonus", "points from the longest trail"),
    Metric("tracks", "ids of the tracks claimed", kind="ints", summarise=False),
    Metric("explorer_bonus", "points from the explorer bonus (some maps only)"),
)


def game(deal, ranks, entrants, totals=None, game_id=None, forfeit=None, stalled=False, explorer=False):
    """Rows of one game: entrant and rank by seat (``explorer``: on Legendary Asia, where the
    end bonus is the Asian Explorer's, not the longest trail's)."""
    n = len(ranks)
    winners = sum(1 for r in ranks if r == 1)
    rows = []
    for seat, (rank, entrant) in enumerate(zip(ranks, entrants)):
        lost = forfeit == seat
        rows.append({
            "game_id": game_id or f"d{deal}-{'-'.join(entrants)}-{'-'.join(map(str, ranks))}", "deal": deal, "deal_seed": deal,
            "table": 0, "seating": 0, "game": "ticket_to_ride", "variant": "usa", "num_players": n, "seat": seat, "entrant": entrant,
            "strategy": entrant, "params": "{}", "params_hash": "x",
            "route_points": None if forfeit is not None else 40, "ticket_points": None if forfeit is not None else 10,
            "tickets_held": None if forfeit is not None else 2, "tickets_completed": None if forfeit is not None else 1,
            "tickets_failed": None if forfeit is not None else 1, "ticket_points_completed": None if forfeit is not None else 12,
            "ticket_points_failed": None if forfeit is not None else 2, "longest_trail": None if forfeit is not None else 10,
            "longest_bonus": None if forfeit is not None else (10 if rank == 1 else 0),
            "score": None if forfeit is not None else (totals[seat] if totals else 100 - 10 * rank),
            "rank": (n if lost else 1) if forfeit is not None else rank,
            "win": (0.0 if lost else 1.0 / (n - 1)) if forfeit is not None else (1.0 / winners if rank == 1 else 0.0),
            "trains_left": None if forfeit is not None else 3, "cards_left": 0, "turns": None if forfeit is not None else 50,
            "termination": "forfeit" if forfeit is not None else ("stalled" if stalled else "normal"), "forfeit": lost, "error": "boom" if forfeit is not None else "",
            "decisions": 10, "think_seconds": 0.1, "tracks": [seat, 10 + seat],
        })
        if explorer:
            played = forfeit is None
            rows[-1].update(variant="legendary_asia", longest_bonus=0 if played else None,
                            explorer_bonus=(10 if rank == 1 else 0) if played else None,
                            largest_network=(8 if rank == 1 else 5) if played else None, mountain_routes=1 if played else None)
    return rows


def frame_of(*games):
    return pd.DataFrame([row for g in games for row in g])


def test_entrant_table_shares_ties_and_gives_wilson_intervals():
    f = frame_of(
        game(0, [1, 2], ["A", "B"]), game(0, [2, 1], ["B", "A"]),
        game(1, [1, 2], ["A", "B"]), game(1, [1, 1], ["B", "A"]),  # a tie: half a win each
    )
    t = entrant_table(f).set_index("entrant")
    assert t.loc["A", "win_rate"] == pytest.approx(3.5 / 4) and t.loc["B", "win_rate"] == pytest.approx(0.5 / 4)
    # Wilson, p = 0.875, n = 4: centre (p + z²/2n)/(1 + z²/n) = 0.6913, half-width 0.2955
    assert t.loc["A", "win_low"] == pytest.approx(0.3958, abs=1e-3) and t.loc["A", "win_high"] == pytest.approx(0.9868, abs=1e-3)
    assert list(t.index) == ["A", "B"]
    assert list(t.columns) == ["strategy", "games", "win_rate", "win_low", "win_high", "mean_score", "score_sd",
                               "turns", "forfeits", "stalled_games"]  # told no metrics: the generic columns only


def test_entrant_table_and_metric_table_show_the_declared_metrics():
    f = frame_of(game(0, [1, 2], ["A", "B"]), game(0, [1, 2], ["B", "A"]), game(1, [1, 2], ["A", "B"]))
    t = entrant_table(f, METRICS).set_index("entrant")
    # Means per entrant of the summarised metrics recorded here: not the track ids, not the
    # explorer bonus (no values in these rows).
    assert list(t.columns[-2:]) == ["route_points", "longest_bonus"] and "tracks" not in t and "explorer_bonus" not in t
    assert t.loc["A", "route_points"] == 40 and t.loc["A", "longest_bonus"] == pytest.approx(10 * 2 / 3)
    m = metric_table(f, METRICS).set_index("metric")
    # Every declared metric these rows record: not the explorer bonus, which no row has.
    assert list(m.index) == ["route_points", "longest_bonus", "tracks"]
    assert list(m.columns) == ["description", "A", "B"]  # entrants by win rate
    assert m.loc["tracks", "description"] == "ids of the tracks claimed"
    assert m.loc["longest_bonus", "B"] == pytest.approx(10 / 3)
    assert np.isnan(m.loc["tracks", "A"])  # recorded, but a list: not averaged
    asia = frame_of(game(0, [1, 2], ["A", "B"], explorer=True))
    assert metric_table(asia, METRICS).set_index("metric").loc["explorer_bonus", "A"] == 10


def test_seat_and_player_count_tables():
    f = frame_of(game(0, [1, 2], ["A", "B"]), game(0, [1, 2], ["B", "A"]), game(1, [1, 2, 3], ["A", "B", "C"]))
    seats = seat_table(f).set_index(["players", "seat"])
    assert seats.loc[(2, 0), "win_rate"] == 1.0 and seats.loc[(2, 1), "win_rate"] == 0.0
    assert seats.loc[(3, 0), "fair_share"] == pytest.approx(1 / 3)
    counts = player_count_table(f).set_index(["players", "entrant"])
    assert counts.loc[(2, "A"), "win_rate"] == 0.5 and counts.loc[(3, "C"), "win_rate"] == 0.0


def test_head_to_head_and_paired_tests():
    games = []
    for deal in range(8):  # A finishes ahead of B in every deal; B and C split
        games.append(game(deal, [1, 2, 3], ["A", "B", "C"]))
        games.append(game(deal, [1, 3, 2], ["A", "B", "C"]))
    f = frame_of(*games)
    h = head_to_head(f)
    assert h.loc["A", "B"] == 1.0 and h.loc["B", "A"] == 0.0 and h.loc["B", "C"] == 0.5
    assert list(h.index) == list(h.columns) == entrant_order(f)  # strongest first, as in the figure

    def by_strength(ranks_of_a, ranks_of_b):  # "A" loses every game: the matrix puts it last, not first
        return head_to_head(frame_of(game(0, [ranks_of_a, ranks_of_b], ["A", "B"])))
    assert list(by_strength(2, 1).index) == ["B", "A"] and list(by_strength(1, 2).index) == ["A", "B"]
    tests = pairwise_tests(f).set_index(["a", "b"])
    assert tests.loc[("A", "B"), "p_value"] == pytest.approx(2 / 2**8)  # 8 deals all one way: exact Wilcoxon
    assert tests.loc[("A", "B"), "significant"]
    assert tests.loc[("B", "C"), "p_value"] == 1.0 and not tests.loc[("B", "C"), "significant"]


def test_holm_correction():
    assert np.allclose(_holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06])


def test_ratings_order_and_intervals():
    games = []
    for deal in range(30):
        games.append(game(deal, [1, 2, 3], ["A", "B", "C"]))
        games.append(game(deal, [2, 1, 3] if deal % 3 == 0 else [1, 2, 3], ["A", "B", "C"], game_id=f"x{deal}"))
    r = bradley_terry(frame_of(*games), resamples=50)
    assert list(r["entrant"]) == ["A", "B", "C"]
    assert (r["rating_low"] <= r["rating"]).all() and (r["rating"] <= r["rating_high"]).all()
    assert r["rating"].mean() == pytest.approx(1500)


def test_forfeits_and_stalled_games_are_counted_right():
    f = frame_of(game(0, [1, 2, 3], ["A", "B", "C"], forfeit=2), game(1, [1, 2, 3], ["A", "B", "C"], stalled=True))
    t = entrant_table(f).set_index("entrant")
    assert t.loc["C", "forfeits"] == 1 and t.loc["C", "games"] == 2
    assert t.loc["A", "win_rate"] == pytest.approx((0.5 + 1) / 2)  # shares the forfeited game's win
    assert t.loc["A", "mean_score"] == 90  # the forfeited game has no scores
    assert t.loc["A", "stalled_games"] == 1
    parts = score_parts(f, ("route_points", "ticket_points", "longest_bonus", "explorer_bonus"))
    assert list(parts["part"].unique()) == ["score", "route_points", "ticket_points", "longest_bonus"]  # none recorded: no explorer
    assert list(score_parts(f)["part"].unique()) == ["score"]
    f2 = frame_of(game(0, [2, 1], ["A", "B"]), game(1, [2, 1], ["A", "B"]))
    assert score_parts(f2, ("route_points",))["entrant"].tolist() == ["B", "A", "B", "A"]  # best win rate first, per part


def test_figures_take_rates_of_zero_and_one():
    from ttr_lab.analysis import figures

    f = frame_of(*[game(d, [1, 2], ["A", "B"]) for d in range(6)])  # A always wins: rates 1 and 0
    figures.win_rates(f)
    figures.seat_advantage(f)
