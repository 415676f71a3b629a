"""The report's added tables and figures (ttr_lab/analysis/breakdowns.py, figures.py) on
hand-made results with known answers."""

from __future__ import annotations

import math


import pytest

from test_tables import frame_of, game
from ttr_lab.analysis import breakdowns, figures
from ttr_lab.core.intervals import wilson


def results():
    f = frame_of(game(0, [1, 2], ["A", "B"]), game(0, [2, 1], ["B", "A"]), game(1, [1, 2], ["A", "B"]),
                 game(1, [1, 2], ["B", "A"]), game(2, [1, 2], ["A", "B"], forfeit=1))
    # Scores that the parts add up to: route + ticket + bonus.
    f["score"] = f["route_points"] + f["ticket_points"] + f["longest_bonus"]
    return f


PARTS = ("route_points", "ticket_points", "longest_bonus", "ticket_points_completed", "ticket_points_failed")


def test_the_summands_are_the_leading_parts_that_add_up_to_the_score():
    f = results()
    assert breakdowns.score_summands(f, PARTS) == ["route_points", "ticket_points", "longest_bonus"]
    assert breakdowns.score_summands(f, ("ticket_points_completed", "ticket_points_failed")) == []
    assert breakdowns.score_summands(f, ()) == []
    table = breakdowns.score_breakdown(f, PARTS).set_index("entrant")
    assert list(table.columns) == ["route_points", "ticket_points", "longest_bonus", "score"]
    assert table.loc["A", "longest_bonus"] == pytest.approx(10 * 3 / 4)  # A won 3 of its 4 games played out
    assert (table.drop(columns="score").sum(axis=1) - table["score"]).abs().max() < 1e-9


def test_win_rate_over_games_follows_the_schedule_with_wilson_bounds():
    table = breakdowns.win_rate_over_games(results())
    a = table[table["entrant"] == "A"].reset_index(drop=True)
    # A in schedule order: won, won (deal 0), won, lost (deal 1), won (B forfeited, deal 2): 1/1, 2/2, 3/3, 3/4, 4/5.
    assert a["games"].tolist() == [1, 2, 3, 4, 5]
    assert a["win_rate"].tolist() == pytest.approx([1, 1, 1, 0.75, 0.8])
    assert (a.loc[4, "win_low"], a.loc[4, "win_high"]) == pytest.approx(wilson(4, 5))


def test_think_times_and_game_lengths():
    f = results()
    f.loc[f["entrant"] == "B", "think_seconds"] = 1.0  # 10 decisions a game: 100 ms each
    assert breakdowns.think_times(f)["cpu_seconds_per_decision"].isna().all()  # stored before CPU time was
    f["think_cpu_seconds"] = 0.05  # 5 ms per decision
    t = breakdowns.think_times(f).set_index("entrant")
    assert t["cpu_seconds_per_decision"].tolist() == pytest.approx([0.005, 0.005])
    assert t.loc["B", "seconds_per_decision"] == pytest.approx(0.1) and t.loc["A", "decisions"] == 50
    assert t.loc["A", "median_game_seconds_per_decision"] == pytest.approx(0.01)
    lengths = breakdowns.game_length_table(f)
    assert lengths.loc[0, "players"] == 2 and lengths.loc[0, "games"] == 4 and lengths.loc[0, "median"] == 50


@pytest.mark.parametrize("draw", [figures.head_to_head_heatmap, figures.ratings, figures.game_lengths,
                                  figures.think_times, figures.win_rate_over_games,
                                  lambda f: figures.score_parts(f, PARTS), lambda f: figures.score_parts(f, ())])
def test_every_added_figure_draws(draw):
    fig = draw(results())
    assert fig.axes and not math.isnan(fig.get_figwidth())


def test_the_score_parts_figure_stacks_negative_parts_left_of_zero():
    f = results()
    f["ticket_points"] = -20.0
    f["score"] = f["route_points"] + f["ticket_points"] + f["longest_bonus"]
    ax = figures.score_parts(f, PARTS).axes[0]
    ends = [x for p in ax.patches for x in (p.get_x(), p.get_x() + p.get_width())]
    assert min(ends) == pytest.approx(-20.0) and max(ends) > 0



def test_the_running_win_rate_line_is_thinned_to_what_a_figure_shows(monkeypatch):
    """Millions of deals draw a line of at most MOST_POINTS points (first and last kept, so it
    still ends on the final win rate); a small run's line keeps every deal."""
    assert len(figures._thinned(10_000_000)) == figures.MOST_POINTS and figures._thinned(5).tolist() == [0, 1, 2, 3, 4]
    f = results()
    full = figures.win_rate_over_games(f).axes[0].get_lines()[0].get_xydata()
    monkeypatch.setattr(figures, "MOST_POINTS", 2)
    thin = figures.win_rate_over_games(f).axes[0].get_lines()[0].get_xydata()
    assert len(full) == 3 and len(thin) == 2
    assert thin[0].tolist() == full[0].tolist() and thin[-1].tolist() == full[-1].tolist()
