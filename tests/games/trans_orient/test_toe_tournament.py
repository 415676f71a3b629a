"""The platform in use on this game: configs/toe-4p.yaml's table through the tournament runner
(serial, resume), its report with the game's metrics, and the config checks naming the game's
strategies."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.results import read_records, read_results
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config

ROOT = Path(__file__).resolve().parents[3]


def toe_config(tmp_path, **changes):
    """configs/toe-4p.yaml, small: 8 games, mcts on a tiny budget, serial, in tmp_path."""
    data = yaml.safe_load((ROOT / "configs/toe-4p.yaml").read_text())
    for e in data["entrants"]:
        if e["strategy"] == "mcts":
            e["params"] = {"iterations": 4, "rollout_depth": 4}
    data.update(games=8, backend="serial", output=str(tmp_path / "out"), move_time_limit=None)
    data.update(changes)
    return parse_config(data, "toe-4p")


def test_the_toe_table_runs_resumes_and_reports_the_games_metrics(tmp_path):
    from ttr_lab.analysis.report import build_report

    run = run_tournament(toe_config(tmp_path, games=4))
    assert run.played == 4
    run = run_tournament(toe_config(tmp_path))  # the same folder, more games: only the rest
    assert (run.already_stored, run.played) == (4, 4)
    frame = read_results(tmp_path / "out")
    assert len(frame) == 8 * 4 and set(frame["strategy"]) == {"random", "greedy", "planner", "mcts"}
    assert not frame["forfeit"].any() and set(frame["game"]) == {"trans_orient"}
    parts = ["vp_travel", "vp_colour_bonus", "vp_luggage", "vp_visa", "vp_season", "vp_route"]
    assert (frame[parts].sum(axis=1) == frame["score"]).all()
    assert len(read_records(tmp_path / "out")) == 8
    text = build_report(tmp_path / "out", quiet=True).read_text()
    for metric in ("cards_played", *parts, "objectives_met", "passports", "tokens_wasted"):
        assert f"| {metric} |" in text, metric
    assert "stand-in" in text


@pytest.mark.parametrize("strategy,message", [
    ("ticket_planner", r"entrants\.0 \(x\): unknown strategy 'ticket_planner' \(a strategy of ticket_to_ride, not of trans_orient\)"),
    ("plannr", "unknown strategy 'plannr'; registered: random, greedy, planner, mcts"),
])
def test_a_config_naming_another_games_strategy_is_refused_in_one_line(tmp_path, strategy, message):
    with pytest.raises(ConfigError, match=message):
        toe_config(tmp_path, entrants=[{"name": "x", "strategy": strategy}, {"name": "g", "strategy": "greedy"},
                                       {"name": "p", "strategy": "planner"}, {"name": "r", "strategy": "random"}])
