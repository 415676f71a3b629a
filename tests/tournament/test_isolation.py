"""Isolation mode: each strategy in its own process, seeing only its observation and legal
actions; whatever it does to its process is a named forfeit of its game, never a lost batch."""

from __future__ import annotations

import pandas as pd
import pytest

from ttr_lab.core.results import read_results
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config
from ttr_lab.tournament.worker import stop_hosts


@pytest.fixture(autouse=True)
def _no_children_left():
    yield
    stop_hosts()


def config(out, first, isolation, games=4, **changes):
    data = {"name": "t", "players": 2, "games": games, "seed": 5, "backend": "serial", "isolation": isolation,
            "output": str(out), "entrants": [first, {"name": "r", "strategy": "random"}]}
    data.update(changes)
    return parse_config(data, "test")


def outcomes(folder) -> pd.DataFrame:
    return read_results(folder)[["game_id", "seat", "score", "rank", "win", "turns"]]


def test_a_cheat_that_walks_to_the_live_state_wins_in_process_and_finds_nothing_isolated(tmp_path):
    cheat = {"name": "c", "strategy": "tests_support_strategy:Cheat", "params": {"marker": str(tmp_path / "found")}}
    run_tournament(config(tmp_path / "open", cheat, "none"), show_progress=False)
    assert (tmp_path / "found").exists()  # in-process, the stack and the heap lead to the state
    open_rows = read_results(tmp_path / "open")
    assert open_rows.groupby("entrant")["win"].sum()["c"] == 4  # and locomotives from nowhere win
    (tmp_path / "found").unlink()
    run_tournament(config(tmp_path / "isolated", cheat, "process"), show_progress=False)
    assert not (tmp_path / "found").exists()
    # Finding nothing, it plays exactly as the random strategy it is built on.
    honest = {"name": "c", "strategy": "random"}
    run_tournament(config(tmp_path / "honest", honest, "none"), show_progress=False)
    pd.testing.assert_frame_equal(outcomes(tmp_path / "isolated"), outcomes(tmp_path / "honest"))


def test_isolated_games_are_the_in_process_games(tmp_path):
    planner = {"name": "p", "strategy": "ticket_planner"}
    run_tournament(config(tmp_path / "a", planner, "none", records=True), show_progress=False)
    run_tournament(config(tmp_path / "b", planner, "process", records=True), show_progress=False)
    pd.testing.assert_frame_equal(outcomes(tmp_path / "a"), outcomes(tmp_path / "b"))


@pytest.mark.parametrize("how, isolation, error", [
    ("sys", "process", "raised SystemExit in act: exit code 3"),
    ("os", "process", "raised StrategyProcessDied in act: its process ended (exit code 3)"),
    ("interrupt", "process", "raised KeyboardInterrupt in act"),
    ("sys", "none", "raised SystemExit in act: exit code 3"),
    ("interrupt", "none", "raised KeyboardInterrupt in act: raised by the strategy, not by Ctrl-C"),
])
def test_a_strategy_ending_its_process_forfeits_each_game_and_the_rest_is_played(tmp_path, how, isolation, error):
    exits = {"name": "x", "strategy": "tests_support_strategy:Exits", "params": {"how": how}}
    run = run_tournament(config(tmp_path / "out", exits, isolation), show_progress=False)
    assert run.complete and run.played == 4
    frame = read_results(tmp_path / "out")
    lost = frame[frame["forfeit"]]
    assert list(lost["entrant"]) == ["x"] * 4
    assert lost["error"].str.contains(error, regex=False).all(), lost["error"].tolist()


def test_a_strategy_that_swallows_the_alarm_is_stopped_from_outside_when_isolated(tmp_path):
    stubborn = {"name": "s", "strategy": "tests_support_strategy:Stubborn", "params": {"seconds": 600.0}}
    run = run_tournament(config(tmp_path / "out", stubborn, "process", games=2, move_time_limit=0.2),
                         show_progress=False)
    assert run.played == 2
    lost = read_results(tmp_path / "out").query("forfeit")
    assert list(lost["entrant"]) == ["s", "s"]
    assert lost["error"].str.contains("its process was stopped from outside").all()


@pytest.mark.ray
def test_under_ray_a_strategy_killing_its_worker_forfeits_its_games_and_the_batch_is_kept(tmp_path):
    exits = {"name": "x", "strategy": "tests_support_strategy:Exits", "params": {"how": "os"}}
    c = config(tmp_path / "out", exits, "none", games=4, backend="ray", workers=2)
    run = run_tournament(c, show_progress=False)
    assert run.complete and run.played == 4
    frame = read_results(c.output)
    lost = frame[frame["forfeit"]]
    assert list(lost["entrant"]) == ["x"] * 4
    assert lost["error"].str.contains("its process ended (exit code 3)", regex=False).all()


def test_the_isolate_flag_runs_the_cli_tournament_isolated(tmp_path, monkeypatch):
    import yaml
    from typer.testing import CliRunner

    from ttr_lab.cli import app

    monkeypatch.chdir(tmp_path)
    cheat = {"name": "c", "strategy": "tests_support_strategy:Cheat", "params": {"marker": str(tmp_path / "found")}}
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml.safe_dump({"name": "t", "players": 2, "games": 2, "backend": "serial",
                                   "entrants": [cheat, {"name": "r", "strategy": "random"}]}))
    result = CliRunner().invoke(app, ["tournament", str(cfg), "--out", str(tmp_path / "o"), "--isolate", "--no-report",
                                      "--no-progress"])
    assert result.exit_code == 0, (result.output, result.exception)
    assert yaml.safe_load((tmp_path / "o" / "config.yaml").read_text())["isolation"] == "process"
    assert not (tmp_path / "found").exists()


@pytest.mark.ray
def test_isolation_on_ray_gives_the_serial_games(tmp_path):
    planner = {"name": "p", "strategy": "ticket_planner"}
    run_tournament(config(tmp_path / "serial", planner, "none", games=6), show_progress=False)
    run = run_tournament(config(tmp_path / "ray", planner, "process", games=6, backend="ray", workers=2),
                         show_progress=False)
    assert run.complete
    pd.testing.assert_frame_equal(outcomes(tmp_path / "serial"), outcomes(tmp_path / "ray"))


def test_two_seats_of_one_strategy_have_a_process_each_so_the_one_that_crashes_is_named(tmp_path):
    # Same strategy, same parameters: the seat-1 copy ends its process while hearing its own
    # move, and the next message is seat 0's decision. Sharing one process, seat 0 was blamed.
    crash = {"strategy": "tests_support_strategy:ExitsInEvent", "params": {"seat": 1}}
    data = {"name": "t", "players": 2, "games": 4, "seed": 5, "backend": "serial", "isolation": "process",
            "output": str(tmp_path / "out"), "entrants": [{"name": "first", **crash}, {"name": "second", **crash}]}
    run = run_tournament(parse_config(data, "test"), show_progress=False)
    assert run.complete and run.played == 4
    frame = read_results(tmp_path / "out")
    lost = frame[frame["forfeit"]]
    at_seat_1 = frame[frame["seat"] == 1].set_index("game_id")["entrant"]
    assert sorted(lost["game_id"]) == sorted(frame["game_id"].unique())  # one forfeit per game
    assert (lost["seat"] == 1).all()
    assert list(lost["entrant"]) == list(at_seat_1[lost["game_id"]])  # both entrants, as seated
    assert set(lost["entrant"]) == {"first", "second"}
    # Named at the seat's next call to its process, with the exit code it chose.
    assert lost["error"].str.contains("seat 1 (exits_in_event) raised StrategyProcessDied in act: its process ended "
                                      "(exit code 4)", regex=False).all(), lost["error"].tolist()


def test_an_isolated_process_per_entrant_and_per_further_copy_of_a_strategy_at_the_table(tmp_path):
    import os
    from pathlib import Path

    def hosts() -> int:
        """This process's strategy processes (children running ttr_lab.core.isolation)."""
        count = 0
        for entry in Path("/proc").iterdir():
            try:
                stat, cmd = (entry / "stat").read_text(), (entry / "cmdline").read_bytes()
            except OSError:
                continue
            count += int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid() and b"ttr_lab.core.isolation" in cmd
        return count

    if not Path("/proc/self/stat").exists():
        pytest.skip("needs Linux /proc")
    stop_hosts()
    # Two entrants with the same strategy and parameters, one other, every seating of three seats.
    data = {"name": "t", "players": 3, "games": 6, "seed": 5, "backend": "serial", "isolation": "process",
            "output": str(tmp_path / "out"), "entrants": [{"name": "r1", "strategy": "random"},
                                                       {"name": "r2", "strategy": "random"},
                                                       {"name": "g", "strategy": "greedy"}]}
    run = run_tournament(parse_config(data, "test"), show_progress=False)
    assert run.complete and run.played == 6
    # Random held two seats of every table, greedy one: 3 (one per strategy and seat would be 6).
    assert hosts() == 3
