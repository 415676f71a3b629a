"""Isolation mode: each strategy in its own process, seeing only its observation and legal
actions; whatever it does to its process is a named forfeit of its game, never a lost batch."""

from __future__ import annotations

import os
from pathlib import Path

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
def test_under_ray_a_strategy_killing_its_worker_forfeits_its_games_and_the_batch_is_kept(tmp_path, shared_ray):
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
def test_isolation_on_ray_gives_the_serial_games(tmp_path, shared_ray):
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


# ---- the boundaries: what a child sends, what the engine imports, what a child can reach -------

def _processes_with(text: bytes) -> list[int]:
    from pathlib import Path

    out = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and text in (entry / "cmdline").read_bytes():
                out.append(int(entry.name))
        except OSError:
            continue
    return out


def _children_hosting() -> list[int]:
    """This process's strategy processes."""
    import os
    from pathlib import Path

    return [pid for pid in _processes_with(b"ttr_lab.core.isolation")
            if int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]) == os.getpid()]


def test_an_answer_that_runs_code_when_unpickled_is_never_unpickled_by_the_engine(tmp_path):
    marker = tmp_path / "ran"
    smuggler = {"name": "s", "strategy": "tests_support_strategy:Smuggler", "params": {"marker": str(marker)}}
    run = run_tournament(config(tmp_path / "out", smuggler, "process", games=2), show_progress=False)
    assert run.complete and run.played == 2
    assert not marker.exists()  # nothing ran it: not the engine, nor the child
    lost = read_results(tmp_path / "out").query("forfeit")
    assert list(lost["entrant"]) == ["s", "s"]
    assert lost["error"].str.contains("(smuggler) chose an illegal action: '<tests_support_strategy._Runs object",
                                      regex=False).all(), lost["error"].tolist()


def test_a_pickle_a_strategy_writes_onto_its_connection_is_read_as_data_and_refused(tmp_path):
    marker = tmp_path / "ran"
    forger = {"name": "f", "strategy": "tests_support_strategy:Forger", "params": {"marker": str(marker)}}
    run = run_tournament(config(tmp_path / "out", forger, "process", games=2), show_progress=False)
    assert run.complete and run.played == 2
    assert not marker.exists()
    lost = read_results(tmp_path / "out").query("forfeit")
    assert list(lost["entrant"]) == ["f", "f"]
    assert lost["error"].str.contains("(forger) raised StrategyProcessError in act: its process sent an answer that "
                                      "is not JSON", regex=False).all(), lost["error"].tolist()


def test_isolated_the_engine_never_imports_the_strategy_module_not_even_to_check_the_config(tmp_path):
    import sys

    patcher = {"name": "p", "strategy": "tests_support_patcher:Patcher"}
    c = config(tmp_path / "out", patcher, "process", games=2)
    assert "tests_support_patcher" not in sys.modules  # checked and built in a child
    run = run_tournament(c, show_progress=False)
    assert run.complete and "tests_support_patcher" not in sys.modules
    assert not read_results(tmp_path / "out")["forfeit"].any()
    with pytest.raises(Exception, match=r"entrants.0 \(p\): strategy 'tests_support_patcher:Nope': module "
                                        r"'tests_support_patcher' has no 'Nope'"):
        config(tmp_path / "bad", {"name": "p", "strategy": "tests_support_patcher:Nope"}, "process")
    with pytest.raises(Exception, match=r"strategy 'random' has no parameter 'depth'"):
        config(tmp_path / "bad", {"name": "p", "strategy": "random", "params": {"depth": 3}}, "process")
    assert "tests_support_patcher" not in sys.modules


def test_a_strategy_process_can_signal_no_other_process_of_the_run_nor_read_the_engine(tmp_path):
    import os

    if os.geteuid() != 0:
        pytest.skip("a user per strategy process needs root; without it the run says so")
    stop_hosts()
    data = {"name": "t", "players": 3, "games": 3, "seed": 5, "backend": "serial", "isolation": "process",
            "output": str(tmp_path / "out"), "entrants": [{"name": "p", "strategy": "tests_support_strategy:Prober"},
                                                       {"name": "r", "strategy": "random"},
                                                       {"name": "g", "strategy": "greedy"}]}
    run = run_tournament(parse_config(data, "test"), show_progress=False)
    assert run.complete
    frame = read_results(tmp_path / "out")
    assert not frame["forfeit"].any(), frame.query("forfeit")["error"].tolist()
    # Each process: a user of its own, no new privileges, its limits.
    children = _children_hosting()
    assert len(children) == 3
    uids = set()
    for pid in children:
        status = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status").read().splitlines())
        uids.add(int(status["Uid"].split()[0]))
        assert int(status["NoNewPrivs"]) == 1
        assert int(status["CapEff"], 16) & ~(1 << 2) == 0  # at most the right to read files
        limits = open(f"/proc/{pid}/limits").read()
        assert "Max open files            256" in limits and "Max processes             64" in limits
        assert os.getsid(pid) == pid  # a session of its own
    assert len(uids) == 3 and 0 not in uids


def test_what_an_isolated_strategy_started_ends_with_its_process_even_in_a_session_of_its_own(tmp_path):
    import os
    import random

    token = f"{random.randrange(10**6, 10**7)}.{os.getpid()}"
    spawner = {"name": "s", "strategy": "tests_support_strategy:Spawner", "params": {"token": token}}
    try:
        run = run_tournament(config(tmp_path / "out", spawner, "process", games=1), show_progress=False)
        assert run.complete and _processes_with(token.encode())  # it did start one
        stop_hosts()
        assert _processes_with(token.encode()) == []
    finally:
        for pid in _processes_with(token.encode()):
            os.kill(pid, 9)


def test_a_memory_hungry_isolated_strategy_hits_its_limit_and_forfeits_named(tmp_path, monkeypatch):
    import os

    if not os.path.exists("/proc/self/limits"):
        pytest.skip("needs Linux")
    module = tmp_path / "hungry_strategy.py"
    module.write_text("from ttr_lab.strategies.random import Random\nclass Hungry(Random):\n"
                      "    def act(self, observation, legal, rng):\n        bytearray(8 << 30)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    hungry = {"name": "h", "strategy": "hungry_strategy:Hungry"}
    run = run_tournament(config(tmp_path / "out", hungry, "process", games=1), show_progress=False)
    assert run.complete
    lost = read_results(tmp_path / "out").query("forfeit")
    assert set(lost["entrant"]) == {"h"} and lost["error"].str.contains("raised MemoryError in act").all()


def test_the_run_says_which_boundaries_this_machine_does_not_give(monkeypatch):
    from ttr_lab.core import confinement

    monkeypatch.setattr(confinement.os, "geteuid", lambda: 1000)
    assert any("not root" in line for line in confinement.missing())
    assert confinement.next_uid() is None


# ---- in-process: the actions a strategy is handed, and its process ------------------------------

@pytest.mark.parametrize("what", ["claim", "label"])
def test_an_action_a_strategy_changes_never_reaches_another_seat_a_record_or_another_game(tmp_path, what):
    from ttr_lab.core.game import load_game
    from ttr_lab.games.ticket_to_ride.actions import Claim

    tamper = {"name": "t", "strategy": "tests_support_strategy:Tamper", "params": {"what": what}}
    run = run_tournament(config(tmp_path / "out", tamper, "none", records=True), show_progress=False)
    assert run.complete and run.played == 4
    frame = read_results(tmp_path / "out")
    lost = frame[frame["forfeit"]]
    assert list(lost["entrant"]) == ["t"] * 4, frame["error"].tolist()
    assert lost["error"].str.contains("changed the game's shared values (Claim)", regex=False).all()
    game = load_game("ticket_to_ride", map="usa")
    for action in game.action_space:
        if isinstance(action, Claim):
            assert action.track >= 0 and game.parse_action(str(action)) == action
    # The next games of the process are the games of a clean process.
    run_tournament(config(tmp_path / "after", {"name": "t", "strategy": "random"}, "none"), show_progress=False)
    run_tournament(config(tmp_path / "clean", {"name": "t", "strategy": "random"}, "none"), show_progress=False)
    pd.testing.assert_frame_equal(outcomes(tmp_path / "after"), outcomes(tmp_path / "clean"))


def test_a_strategy_that_changes_the_working_directory_does_not_move_a_relative_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    careless = {"name": "c", "strategy": "tests_support_strategy:Careless", "params": {"how": "chdir", "to": str(elsewhere)}}
    run = run_tournament(config("out", careless, "none", games=4, records=True), show_progress=False)
    assert run.complete and run.played == 4
    assert len(read_results(tmp_path / "out")) == 8 and not (elsewhere / "out").exists()


@pytest.mark.parametrize("how", ["close", "os_close", "thread"])
def test_a_strategy_closing_standard_output_or_leaving_a_thread_does_not_break_the_command(tmp_path, how):
    import subprocess
    import sys

    import yaml

    careless = {"name": "c", "strategy": "tests_support_strategy:Careless", "params": {"how": how}}
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml.safe_dump({"name": "t", "players": 2, "games": 2, "backend": "serial",
                                   "entrants": [careless, {"name": "r", "strategy": "random"}]}))
    tests = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, *sys.path])}
    done = subprocess.run([sys.executable, "-m", "ttr_lab", "tournament", str(cfg), "--out", str(tmp_path / "o"),
                           "--no-report", "--no-progress"], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "results:" in done.stdout, done.stdout
    if how == "thread":
        assert "thread" in done.stderr and "endless" in done.stderr


def test_an_isolated_entrant_is_identified_by_the_parameters_its_child_validated(tmp_path):
    """{ticket_bonus: 3}, {ticket_bonus: 3.0} and {} (greedy's default) are one isolated entrant,
    and the same entrant as in process: the child sends its validated parameters back."""
    import sys

    def identity(params, isolation):
        c = config(tmp_path / "out", {"name": "g", "strategy": "greedy", "params": params}, isolation)
        return c.identity_hash(), c.entrant(0).params

    written = identity({"ticket_bonus": 3}, "process")
    assert written == identity({"ticket_bonus": 3.0}, "process") == identity({}, "process")
    assert written == identity({}, "none")
    assert written[1]["ticket_bonus"] == 3.0 and "min_points" in written[1]
    assert identity({"ticket_bonus": 4}, "process") != written
    # A plug-in of the user's is validated in its child too, never imported by the engine.
    c = config(tmp_path / "out", {"name": "p", "strategy": "tests_support_patcher:Patcher"}, "process")
    assert c.entrant(0).params == {} and "tests_support_patcher" not in sys.modules


def test_the_worker_refuses_an_isolation_it_does_not_know_instead_of_playing_in_process():
    from ttr_lab.core.errors import ConfigError
    from ttr_lab.core.game import load_game
    from ttr_lab.tournament.worker import play_batch

    with pytest.raises(ConfigError, match=r"isolation 'processes' is not one of none, process"):
        play_batch(load_game("ticket_to_ride"), [], [], None, False, "processes")
