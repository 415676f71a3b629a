"""``ttr-lab review``: a record's review written as review.csv, seats.csv, a summary and a JSON per
game; a tournament's sample reviewed, with a decision-quality table in its report and in pandas;
``play --review``; bad input in one line. Small budgets: these are about the paths, not the numbers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from ttr_lab.cli import app
from ttr_lab.core.play import play_game
from ttr_lab.games.ticket_to_ride import TicketToRide

USA = TicketToRide("usa")
COLUMNS = ["game", "seat", "entrant", "decision", "kind", "move_played", "best_move", "value_played", "value_best",
           "points_lost", "standard_error", "expected_lead"]


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def record_file(tmp_path_factory) -> Path:
    from ttr_lab.strategies.ticket_to_ride.greedy import Greedy
    from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

    path = tmp_path_factory.mktemp("record") / "game.json"
    play_game(USA, [Greedy(), TicketPlanner()], 4).save(path)
    return path


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    """A tournament of four 2-player games between greedy and the ticket planner, records kept."""
    from ttr_lab.tournament import load_config, run_tournament

    out = tmp_path_factory.mktemp("results")
    config = tmp_path_factory.mktemp("config") / "t.yaml"
    config.write_text("name: t\nmap: usa\nplayers: 2\nentrants:\n  - {name: greedy, strategy: greedy}\n"
                      "  - {name: planner, strategy: ticket_planner}\ngames: 4\nseed: 1\nbackend: serial\n"
                      f"records: true\noutput: {out}\n")
    run_tournament(load_config(config), show_progress=False)
    return out


def test_a_record_is_reviewed_into_a_table_a_summary_and_a_json(record_file, tmp_path):
    result = run("review", str(record_file), "--budget", "8", "--seed", "3", "--out", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    assert "seat 0 (greedy)" in result.output and "seat 1 (ticket_planner)" in result.output
    rows = list(csv.DictReader((tmp_path / "r" / "review.csv").open()))
    assert list(rows[0]) == COLUMNS and len(rows) == len(json.loads(record_file.read_text())["actions"])
    assert {r["game"] for r in rows} == {"game"}
    assert "points lost" in (tmp_path / "r" / "summary.md").read_text()
    game = json.loads((tmp_path / "r" / "games" / "game.json").read_text())
    assert game["budget"] == 8 and game["seed"] == 3
    # The same seed, the same review; the seats asked for only.
    again = run("review", str(record_file), "--budget", "8", "--seed", "3", "--out", str(tmp_path / "s"),
                "--seats", "1")
    assert again.exit_code == 0, again.output
    one = list(csv.DictReader((tmp_path / "s" / "review.csv").open()))
    assert one == [r for r in rows if r["seat"] == "1"]
    assert "seat 0" not in again.output


def test_a_record_is_reviewed_beside_itself_by_default(record_file):
    result = run("review", str(record_file), "--budget", "4", "--seats", "0")
    assert result.exit_code == 0, result.output
    assert (record_file.parent / "game-review" / "review.csv").is_file()


def test_a_tournament_sample_is_reviewed_and_its_report_gets_the_decision_quality_table(results):
    from ttr_lab.analysis.decision_quality import decision_quality, loss_and_margin, stored_review

    result = run("review", str(results), "--sample", "2", "--budget", "4", "--backend", "serial")
    assert result.exit_code == 0, result.output
    assert "reviewing 2 of the 4 games" in result.output
    decisions, seats = stored_review(results)
    assert decisions["game"].nunique() == 2 and set(seats["entrant"]) == {"greedy", "planner"}
    table = decision_quality(decisions)
    assert set(table["entrant"]) == {"greedy", "planner"} and (table["lost_low"] <= table["lost"]).all()
    assert len(loss_and_margin(seats)) == 3
    report = (results / "report.md").read_text()
    assert "## Decision quality" in report and "points lost per decision [95% CI]" in report
    assert "## Points lost and the final margin" in report
    # The same seed draws the same sample.
    again = run("review", str(results), "--sample", "2", "--budget", "4", "--backend", "serial", "--out",
                str(results / "again"))
    assert again.exit_code == 0, again.output
    assert sorted(pd.read_csv(results / "again" / "review.csv")["game"].unique()) == \
        sorted(decisions["game"].unique())


def test_play_ends_with_the_review(monkeypatch):
    from ttr_lab.cli import review

    monkeypatch.setattr(review, "_BUDGET", 4)
    result = run("play", "-p", "2", "-s", "greedy", "--seed", "2", "--review")
    assert result.exit_code == 0, result.output
    assert "reviewing seat 0, 1's decisions" in result.output and "seat 1 (greedy):" in result.output


@pytest.mark.parametrize("args, says", [
    (["missing.json"], "no such record file"),
    (["bad.json"], "not a game record"),
    (["empty"], "not a results folder"),
    (["norecords"], "keeps no game records"),
    (["good.json", "--seats", "5"], "no seat 5 in a 2-player game"),
    (["good.json", "--seats", "x"], "'x' is not a seat number"),
    (["good.json", "--sample", "2"], "--sample takes a results folder"),
    (["good.json", "--budget", "0"], "at least 4"),
    (["good.json", "--backend", "spark"], "--backend is serial or ray"),
])
def test_bad_input_is_one_line(tmp_path, record_file, monkeypatch, args, says):
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "good.json").write_text(record_file.read_text())
    (tmp_path / "empty").mkdir()
    (tmp_path / "norecords" / "results").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    result = run("review", *args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], result.output


def test_play_review_of_a_game_without_a_review_is_refused_before_the_game():
    result = run("play", "--game", "trans_orient", "-p", "2", "--review")
    assert result.exit_code == 2 and "no review for trans_orient games" in result.output
    assert "rank" not in result.output  # refused before any game was played


def test_the_commands_default_budget_is_the_reviews():
    from ttr_lab.cli.review import _BUDGET
    from ttr_lab.review import DEFAULT_BUDGET

    assert _BUDGET == DEFAULT_BUDGET


def test_a_person_at_the_terminal_gets_the_review_of_their_own_seat(tmp_path, monkeypatch):
    from ttr_lab.cli import review

    monkeypatch.setattr(review, "_BUDGET", 4)
    result = CliRunner().invoke(app, ["play", "-p", "2", "--human", "0", "-s", "greedy", "--seed", "5", "--record",
                                      str(tmp_path / "g.json"), "--review"], input="0\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    tail = result.output[result.output.index("reviewing seat 0's decisions"):]
    assert "seat 0 (human):" in tail and "seat 1" not in tail
