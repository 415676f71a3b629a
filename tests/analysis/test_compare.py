"""The paired comparison of two runs (``ttr-lab compare``, a study's cell against its baseline),
checked against numbers worked out by hand, and on two real runs (a rule change) against a
plain loop over their rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ttr_lab.analysis.compare import balance, compare, compare_folders, comparison_figure, same_deals
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.results import read_results
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config

# Three deals, two seatings each, entrants X and Y. (X's win share, X's score) in run A and B;
# Y's win is 1 - X's (a tie for first gives both 0.5), Y scores 20 every game.
GAMES = [  # game id, deal, (A win, A score), (B win, B score)
    ("d0-t0-s0", 0, (1.0, 10), (0.0, 8)),
    ("d0-t0-s1", 0, (1.0, 10), (1.0, 12)),
    ("d1-t0-s0", 1, (0.0, 5), (1.0, 9)),
    ("d1-t0-s1", 1, (0.5, 7), (1.0, 9)),
    ("d2-t0-s0", 2, (0.0, 4), (0.0, 4)),
    ("d2-t0-s1", 2, (0.0, 4), (1.0, 10)),
]


def frame(run: int, seed_offset: int = 0) -> pd.DataFrame:
    rows = []
    for game_id, deal, *runs in GAMES:
        win, score = runs[run]
        seating = int(game_id[-1])
        for seat in range(2):
            x = (seat == 0) == (seating == 0)
            w = win if x else 1.0 - win
            rank = 1 if w > 0 else 2
            rows.append({"game_id": game_id, "deal": deal, "deal_seed": 1000 + deal + seed_offset, "seat": seat,
                         "entrant": "X" if x else "Y", "win": w, "rank": rank, "score": float(score if x else 20),
                         "num_players": 2, "forfeit": False})
    return pd.DataFrame(rows)


def test_the_paired_differences_are_the_hand_computed_ones():
    c = compare(frame(0), frame(1))
    assert c.paired and c.games == 6 and c.deals == 3
    # Winners: d0-s0 X -> Y, d1-s0 Y -> X, d1-s1 X+Y -> X, d2-s1 Y -> X.
    assert c.changed_winner == 4
    assert c.changed_games == ("d0-t0-s0", "d1-t0-s0", "d1-t0-s1", "d2-t0-s1")
    x = c.wins.set_index("entrant").loc["X"]
    assert x["a"] == pytest.approx(2.5 / 6) and x["b"] == pytest.approx(4 / 6)
    # Per-deal mean changes of X's win share: (-1 + 0)/2, (1 + 0.5)/2, (0 + 1)/2.
    per_deal = [-0.5, 0.75, 0.5]
    assert x["delta"] == pytest.approx(0.25)
    # Student t over 3 deals: sd = sqrt(((-0.75)^2 + 0.5^2 + 0.25^2) / 2) = sqrt(0.4375); t(0.975, 2) = 4.302653.
    half = 4.302653 * np.sqrt(0.4375) / np.sqrt(3)
    assert (x["low"], x["high"]) == pytest.approx((0.25 - half, 0.25 + half), abs=1e-5)
    from scipy import stats
    assert x["p_value"] == pytest.approx(stats.wilcoxon(per_deal).pvalue)
    # X won d1-s0 and d2-s1 only in B (d1-s1 was already half a win in A); d0-s0 only in A.
    assert (x["gained"], x["lost"]) == (2, 1)
    assert c.delta("Y") == pytest.approx(-0.25)
    # Scores: X's per-game changes -2, 2, 4, 2, 0, 6: per deal 0, 3, 3; Y's never change.
    assert c.delta("X", "score") == pytest.approx(2.0) and c.delta("Y", "score") == 0


def test_runs_on_other_deals_are_compared_as_two_samples_only_when_asked():
    a, b = frame(0), frame(1, seed_offset=50)
    assert not same_deals(a, b)
    with pytest.raises(ConfigError, match="d0-t0-s0 has deal seed 1000 in A and 1050 in B"):
        compare(a, b)
    c = compare(a, b, paired=False)
    assert not c.paired and c.changed_winner is None
    x = c.wins.set_index("entrant").loc["X"]
    wa = np.array([1, 1, 0, 0.5, 0, 0]); wb = np.array([0, 1, 1, 1, 0, 1])
    se = np.sqrt(wa.var(ddof=1) / 6 + wb.var(ddof=1) / 6)
    assert x["delta"] == pytest.approx(0.25)
    assert x["high"] - x["delta"] > 1.96 * se  # Welch's t quantile is wider than the normal one
    with pytest.raises(ConfigError, match="different deals"):
        compare(a, b, paired=True)


def test_balance_is_the_spread_and_the_chi_square_of_fair_shares():
    # Three entrants at 3-player games: A wins 6, B 3, C 0 of 9 games (fair share 3 each).
    rows = []
    winners = "AAAAAABBB"
    for g, w in enumerate(winners):
        for seat, e in enumerate("ABC"):
            rows.append({"game_id": f"g{g}", "entrant": e, "win": float(e == w), "num_players": 3})
    b = balance(pd.DataFrame(rows))
    assert b.win_rates == pytest.approx({"A": 6 / 9, "B": 3 / 9, "C": 0.0})
    assert b.spread == pytest.approx(6 / 9)
    assert b.chi2 == pytest.approx((3**2 + 0 + 3**2) / 3)  # (6-3)^2/3 + (3-3)^2/3 + (0-3)^2/3 = 6
    assert b.p_value == pytest.approx(np.exp(-6 / 2))  # chi-square with 2 degrees of freedom: e^(-x/2)


def _run(tmp_path, name, bonus):
    data = {"name": name, "players": 3, "games": 12, "seed": 3, "backend": "serial", "output": str(tmp_path / name),
            "options": {"map": "usa", "ruleset": {"longest_path_bonus": bonus}},
            "entrants": [{"name": "greedy", "strategy": "greedy"}, {"name": "long_route", "strategy": "long_route"},
                         {"name": "route_focus", "strategy": "route_focus"}]}
    run_tournament(parse_config(data, name), show_progress=False)
    return tmp_path / name


def test_two_real_runs_with_a_rule_change_match_a_plain_loop(tmp_path):
    a, b = _run(tmp_path, "bonus10", 10), _run(tmp_path, "bonus0", 0)
    with pytest.raises(ConfigError, match="different variants"):
        compare_folders(a, b)  # a rule change is paired only when asked
    c = compare_folders(a, b, paired=True)
    fa, fb = read_results(a), read_results(b)
    assert c.paired and c.games == 12
    changed = 0
    for game_id in fa["game_id"].unique():
        wa = set(fa[(fa["game_id"] == game_id) & (fa["rank"] == 1)]["entrant"])
        wb = set(fb[(fb["game_id"] == game_id) & (fb["rank"] == 1)]["entrant"])
        changed += wa != wb
    assert c.changed_winner == changed
    for entrant in fa["entrant"].unique():
        deltas = {}
        for deal in sorted(fa["deal"].unique()):
            xa = fa[(fa["deal"] == deal) & (fa["entrant"] == entrant)].sort_values("game_id")
            xb = fb[(fb["deal"] == deal) & (fb["entrant"] == entrant)].sort_values("game_id")
            deltas[deal] = (xb["win"].to_numpy() - xa["win"].to_numpy()).mean()
        assert c.delta(entrant) == pytest.approx(np.mean(list(deltas.values())))
        assert c.delta(entrant, "longest_bonus") == pytest.approx(
            fb[fb["entrant"] == entrant]["longest_bonus"].mean() - fa[fa["entrant"] == entrant]["longest_bonus"].mean())
    # Without the bonus nobody scores it.
    assert (fb["longest_bonus"] == 0).all() and (fa["longest_bonus"] > 0).any()
    fig = comparison_figure(c)
    assert len(fig.axes) == 2
