"""The boards' profiles of a study over boards and player counts: the tables worked out by hand
on a small frame of rows, a tiny study over two boards and two player counts (serial) that
reports them, the shipped config, and an unknown board named in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy import stats

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.intervals import wilson
from ttr_lab.studies import load_study, parse_study, run_study, study_report
from ttr_lab.studies.profiles import profile_table, readings, top_parts

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "configs" / "study" / "cross-board.yaml"
FAST = [{"name": "greedy", "strategy": "greedy"}, {"name": "long_route", "strategy": "long_route"},
        {"name": "route_focus", "strategy": "route_focus"}]


def hand_rows() -> pd.DataFrame:
    """Board A, 2 players, three games of a against b (a wins two, b one); board B, one game of
    a against b that b wins, a's row forfeited."""
    rows = [  # board, entrant, win, score, route, ticket, forfeit
        ("A", "a", 1, 30, 10, 20, False), ("A", "b", 0, 20, 15, 5, False),
        ("A", "a", 1, 40, 15, 25, False), ("A", "b", 0, 10, 10, 0, False),
        ("A", "a", 0, 25, 25, 0, False), ("A", "b", 1, 35, 15, 20, False),
        ("B", "a", 0, 5, 5, 0, True), ("B", "b", 1, 50, 50, 0, False),
    ]
    frame = pd.DataFrame(rows, columns=["board", "entrant", "win", "score", "route_points", "ticket_points", "forfeit"])
    frame["num_players"] = 2
    return frame


def test_the_profile_tables_of_a_hand_made_frame():
    wins, style = profile_table(hand_rows(), ["board"], ["route_points", "ticket_points"])
    a = wins[(wins["board"] == "A") & (wins["entrant"] == "a")].iloc[0]
    assert (a["games"], a["wins"], a["win_rate"], a["fair_share"]) == (3, 2, pytest.approx(2 / 3), 0.5)
    assert (a["low"], a["high"]) == pytest.approx(wilson(2, 3))
    assert a["mean_score"] == pytest.approx(95 / 3)
    forfeited = wins[(wins["board"] == "B") & (wins["entrant"] == "a")].iloc[0]
    assert forfeited["games"] == 1 and forfeited["win_rate"] == 0 and np.isnan(forfeited["mean_score"])
    on_a = style[style["board"] == "A"].set_index("part")
    # Board A's winners: (10, 20), (15, 25), (15, 20); the others: (15, 5), (10, 0), (25, 0).
    ticket = on_a.loc["ticket_points"]
    assert (ticket["winners"], ticket["others"]) == (3, 3)
    assert ticket["winners_mean"] == pytest.approx(65 / 3) and ticket["others_mean"] == pytest.approx(5 / 3)
    assert ticket["winners_share"] == pytest.approx(65 / 105) and ticket["others_share"] == pytest.approx(5 / 55)
    route = on_a.loc["route_points"]
    welch = stats.ttest_ind([10, 15, 15], [15, 10, 25], equal_var=False).confidence_interval()
    assert route["difference"] == pytest.approx(-10 / 3)
    assert (route["difference_low"], route["difference_high"]) == pytest.approx((welch.low, welch.high))
    welch = stats.ttest_ind([20, 25, 20], [5, 0, 0], equal_var=False).confidence_interval()
    assert (ticket["difference_low"], ticket["difference_high"]) == pytest.approx((welch.low, welch.high))
    on_b = style[style["board"] == "B"].set_index("part")
    assert on_b.loc["route_points", "winners"] == 1 and on_b.loc["route_points", "others"] == 0  # forfeit left out
    text = readings(wins, style, ["board"])
    assert text[0].startswith("A: a wins most, 67%") and "rewards ticket points: 62% of the winners' points" in text[0]


def test_the_parts_that_add_up_to_the_score():
    assert top_parts(["route_points", "ticket_points", "longest_bonus", "ticket_points_completed",
                      "ticket_points_failed"]) == ["route_points", "ticket_points", "longest_bonus"]


def tiny(tmp_path, **changes):
    data = {"name": "tiny-boards", "players": 2, "entrants": FAST, "design": "round_robin", "rotation": "cyclic", "games": 3,
            "seed": 4, "backend": "serial", "output": str(tmp_path / "study"),
            "factors": [{"option": "map", "levels": ["usa", "legendary_asia"]}, {"setting": "players", "levels": [2, 3]}]}
    data.update(changes)
    return data


def test_a_tiny_study_over_boards_and_player_counts_reports_their_profiles(tmp_path):
    study = parse_study(tiny(tmp_path))
    assert [(c.key, c.config.players, c.config.game_options()["map"]) for c in study.cells] == [
        ("map=usa,players=2", 2, "usa"), ("map=usa,players=3", 3, "usa"),
        ("map=legendary_asia,players=2", 2, "legendary_asia"), ("map=legendary_asia,players=3", 3, "legendary_asia")]
    run = run_study(study, show_progress=False)
    assert run.complete and run.played == 2 * (6 + 3)  # 3 tables x 2 seatings at 2 players, 1 x 3 at 3
    report = study_report(study.output)
    wins = report.tables["Profiles: win rate per entrant"]
    assert len(wins) == 4 * 3 and set(wins["map"]) == {"usa", "legendary_asia"} and set(wins["players"]) == {2, 3}
    assert wins.groupby(["map", "players"])["wins"].sum().to_dict() == {  # one winner a game (ties split it)
        ("legendary_asia", 2): 6, ("legendary_asia", 3): 3, ("usa", 2): 6, ("usa", 3): 3}
    style = report.tables["Profiles: where the points came from"]
    assert {"route_points", "ticket_points", "longest_bonus", "explorer_bonus"} == set(style["part"])
    assert "longest_bonus" not in set(style[style["map"] == "legendary_asia"]["part"])  # not awarded there
    assert "explorer_bonus" not in set(style[style["map"] == "usa"]["part"])
    assert report.tables["Paired difference against the baseline"].empty  # other boards deal other cards
    assert "profiles" in [k for k, _, _ in report.figures]
    assert report.findings[0].startswith("usa, 2 players: ") and "rewards" in report.findings[0]
    page = report.write().read_text()
    assert "Profiles: win rate per entrant" in page and "win rate [95% CI]" in page


def test_a_board_that_cannot_seat_a_player_count_leaves_that_cell_out(tmp_path):
    small = tmp_path / "duel"
    small.mkdir()
    source = ROOT / "ttr_lab" / "games" / "ticket_to_ride" / "maps" / "usa"
    for name in ("cities.csv", "routes.csv", "tickets.csv", "positions.csv"):
        (small / name).write_text((source / name).read_text())
    (small / "map.toml").write_text('name = "duel"\ntitle = "Duel"\nmin_players = 2\nmax_players = 2\n')
    study = parse_study(tiny(tmp_path, factors=[{"option": "map", "levels": ["usa", str(small)]},
                                                {"setting": "players", "levels": [2, 3]}]))
    assert len(study.cells) == 3
    assert len(study.skipped) == 1 and study.skipped[0][0].endswith("players=3")
    assert "Duel is for 2-2 players, not 3" in study.skipped[0][1]


def test_the_shipped_cross_board_config_plays_every_board_the_engine_has():
    from ttr_lab.games.ticket_to_ride.board import available_maps

    study = load_study(CONFIG)
    boards = study.levels["map"]
    assert set(boards) <= set(available_maps()) and {"usa", "legendary_asia"} <= set(boards)
    assert study.levels["players"] == [2, 4]
    names = {e.label for e in study.base.entrants}
    assert {"hungry", "route_focus", "one_step", "long_route", "planner", "mcts"} == names


def test_an_unknown_board_is_one_line_naming_it(tmp_path):
    with pytest.raises(ConfigError, match=r"factors.0 \(map\): level 'atlantis': unknown map 'atlantis'") as info:
        parse_study(tiny(tmp_path, factors=[{"option": "map", "levels": ["usa", "atlantis"]}]))
    assert "\n" not in str(info.value)
    data = yaml.safe_load(CONFIG.read_text())
    data["factors"][0]["levels"].append("atlantis")
    data["output"] = str(tmp_path / "out")
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    out = subprocess.run([sys.executable, "-m", "ttr_lab.cli", "study", str(path)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "'atlantis'" in out.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("factor, message", [
    ({"setting": "players", "levels": [2, "four"]}, "level 'four' is not a player count"),
    ({"setting": "trains", "levels": [2]}, "setting"),
    ({"option": "map", "rule": "longest_path_bonus", "levels": ["usa"]}, "either 'rule'"),
])
def test_bad_board_or_player_factors_are_one_line_errors(tmp_path, factor, message):
    with pytest.raises(ConfigError, match=message) as info:
        parse_study(tiny(tmp_path, factors=[factor]))
    assert "\n" not in str(info.value)


def test_adding_a_board_to_a_played_study_plays_only_its_cells(tmp_path):
    one = tiny(tmp_path, factors=[{"option": "map", "levels": ["usa"]}, {"setting": "players", "levels": [2]}])
    assert run_study(parse_study(one), show_progress=False).played == 6
    two = tiny(tmp_path, factors=[{"option": "map", "levels": ["usa", "legendary_asia"]}, {"setting": "players", "levels": [2]}])
    run = run_study(parse_study(two), show_progress=False)
    assert (run.played, run.already_stored) == (6, 6)
    assert set(study_report(tmp_path / "study").tables["Profiles: win rate per entrant"]["map"]) == {"usa", "legendary_asia"}
    other = tiny(tmp_path, seed=5)  # other deals in the cells played: another study
    with pytest.raises(ConfigError, match="holds a different study"):
        run_study(parse_study(other), show_progress=False)


def test_each_entrants_style_and_its_rank_against_the_win_rates():
    rows = hand_rows()
    third = rows[rows["entrant"] == "b"].assign(entrant="c", win=0, score=12, route_points=12, ticket_points=0)
    wins, style = profile_table(pd.concat([rows, third], ignore_index=True), ["board"], ["route_points", "ticket_points"])
    on_a = wins[wins["board"] == "A"].set_index("entrant")
    assert on_a.loc["a", "share_ticket_points"] == pytest.approx(45 / 95)  # 20 + 25 + 0 of 30 + 40 + 25
    assert on_a.loc["b", "share_route_points"] == pytest.approx(40 / 65)
    assert on_a.loc["c", "share_ticket_points"] == 0
    rho = stats.spearmanr([45 / 95, 25 / 65, 0], [2 / 3, 1 / 3, 0]).statistic
    assert f"rank correlation of their own share of it with their win rate {rho:+.2f}" in readings(wins, style, ["board"])[0]


def test_a_rule_varied_on_two_boards_is_paired_within_each_board(tmp_path):
    study = parse_study(tiny(tmp_path, factors=[{"option": "map", "levels": ["usa", "legendary_asia"]},
                                                {"rule": "longest_path_bonus", "levels": [0, 10]}]))
    assert study.baseline == {"map": "usa", "longest_path_bonus": 10}
    run_study(study, show_progress=False)
    paired = study_report(study.output).tables["Paired difference against the baseline"]
    against = dict(zip(paired["cell"], paired["against"]))
    assert against == {"map=usa,longest_path_bonus=0": "map=usa,longest_path_bonus=10",
                       "map=legendary_asia,longest_path_bonus=0": "map=legendary_asia,longest_path_bonus=10"}
    assert paired["paired"].all() and (paired["deals"] == 1).all()
