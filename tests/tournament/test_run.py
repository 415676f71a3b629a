"""Running tournaments: storage, resume after a kill, faults, serial = Ray, a real cluster."""

from __future__ import annotations

import atexit
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml

from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config
from ttr_lab.core.results import read_records, read_results

ROOT = Path(__file__).resolve().parents[2]
TIMING = ["think_seconds", "think_cpu_seconds"]


def config(tmp_path, **changes):
    data = {
        "name": "t", "players": 3, "games": 6, "seed": 11, "backend": "serial",
        "entrants": [{"name": "g", "strategy": "greedy"}, {"name": "p", "strategy": "ticket_planner"},
                     {"name": "r", "strategy": "random"}],
        "output": str(tmp_path / "out"), "records": True,
    }
    data.update(changes)
    return parse_config(data, "test")


def stable(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop(columns=TIMING).sort_values(["game_id", "seat"]).reset_index(drop=True)


def test_serial_run_stores_rows_records_config_and_resumes(tmp_path):
    c = config(tmp_path)
    run = run_tournament(c, show_progress=False)
    assert run.complete and run.played == 6 and run.planned == 6  # 1 deal x 3! seatings
    frame = read_results(c.output)
    assert len(frame) == 18 and frame["game_id"].nunique() == 6
    assert set(frame["entrant"]) == {"g", "p", "r"}
    assert frame.groupby("game_id")["win"].sum().round(9).eq(1).all()  # one win shared per game
    assert {"route_points", "ticket_points", "tickets_completed", "longest_bonus", "rank", "turns", "termination",
            "error", "params_hash", "deal_seed", "seat"} <= set(frame.columns)
    records = read_records(c.output)
    assert len(records) == 6 and {r.game_id for r in records} == set(frame["game_id"])
    assert (Path(c.output) / "config.yaml").exists()
    meta = json.loads((Path(c.output) / "meta.json").read_text())
    assert meta["game"] == {"name": "ticket_to_ride", "options": {"map": "usa"}}  # resolved: the config names no map
    import numpy, pandas, pyarrow, scipy  # noqa: E401 - the versions the results were made with

    assert {k: meta["package_versions"][k] for k in ("numpy", "pandas", "scipy", "pyarrow")} == {
        "numpy": numpy.__version__, "pandas": pandas.__version__, "scipy": scipy.__version__,
        "pyarrow": pyarrow.__version__}
    import networkx, pydantic, yaml  # noqa: E401 - and every other key dependency

    assert meta["package_versions"]["networkx"] == networkx.__version__
    assert meta["package_versions"]["pydantic"] == pydantic.VERSION and meta["package_versions"]["pyyaml"] == yaml.__version__
    assert None not in meta["package_versions"].values()
    again = run_tournament(c, show_progress=False)  # nothing left to play
    assert again.played == 0 and again.already_stored == 6
    more = run_tournament(config(tmp_path, games=12), show_progress=False)  # extends with a new deal
    assert more.played == 6 and read_results(c.output)["game_id"].nunique() == 12


def test_a_different_tournament_may_not_reuse_the_folder(tmp_path):
    from ttr_lab import ConfigError

    run_tournament(config(tmp_path), show_progress=False)
    with pytest.raises(ConfigError, match="holds a different tournament"):
        run_tournament(config(tmp_path, seed=12), show_progress=False)


def test_crashing_and_slow_strategies_forfeit_and_the_tournament_goes_on(tmp_path):
    c = config(tmp_path, entrants=[
        {"name": "crashy", "strategy": "tests_support_strategy:Crashy"},
        # Margins wide enough for a loaded machine: a random move never takes half a second of
        # wall-clock, and the sleeper always overruns (sleep only ever lasts longer).
        {"name": "sleepy", "strategy": "tests_support_strategy:Sleepy", "params": {"seconds": 1.0}},
        {"name": "r", "strategy": "random"},
    ], move_time_limit=0.5, records=False)
    run = run_tournament(c, show_progress=False)
    assert run.played == 6
    frame = read_results(c.output)
    lost = frame[frame["forfeit"]]
    assert len(lost) == 6  # every game forfeited by exactly one of them
    assert set(lost["entrant"]) <= {"crashy", "sleepy"}
    crash = lost[lost["entrant"] == "crashy"]["error"]
    assert crash.str.contains("RuntimeError in act: out of ideas").all()
    slow = lost[lost["entrant"] == "sleepy"]["error"]
    assert slow.str.contains("move time limit 0.5 s").all()
    survivors = frame[(frame["entrant"] == "r")]
    assert (survivors["win"] > 0).all()


def _kill_after_parts(cmd, folder: Path, parts: int, env) -> None:
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.time() + 600  # only waits for the parts: a slow machine just takes longer
    while time.time() < deadline:
        if len(list((folder / "results").glob("*.parquet"))) >= parts:
            break
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def test_a_slow_set_up_in_on_game_start_is_outside_the_move_time_limit(tmp_path):
    # The set-up sleeps past the limit and its grace (sleep only ever lasts longer); a random
    # move never takes half a second. Timed like a move, it would forfeit every game.
    c = config(tmp_path, entrants=[
        {"name": "slow_start", "strategy": "tests_support_strategy:SlowStart", "params": {"seconds": 1.6}},
        {"name": "r", "strategy": "random"},
    ], players=2, games=2, move_time_limit=0.5, records=False)
    run = run_tournament(c, show_progress=False)
    frame = read_results(c.output)
    assert run.played == 2 and not frame["forfeit"].any()
    assert (frame[frame["entrant"] == "slow_start"]["think_seconds"] < 1.6).all()  # not counted as thinking


def test_a_killed_run_resumes_without_losing_or_repeating_games(tmp_path):
    cfg = {
        "name": "killed", "players": 2, "games": 300, "seed": 5, "backend": "serial",
        "entrants": [{"name": "p", "strategy": "ticket_planner"}, {"name": "g", "strategy": "greedy"}],
        "output": str(tmp_path / "out"),
    }
    path = tmp_path / "cfg.yaml"
    path.write_text(yaml.safe_dump(cfg))
    cmd = [sys.executable, "-m", "ttr_lab.cli", "tournament", str(path), "--no-progress"]
    env = dict(os.environ)
    _kill_after_parts(cmd, tmp_path / "out", 3, env)
    partial = read_results(tmp_path / "out")
    assert 0 < partial["game_id"].nunique() < 300, "the kill should land mid-run"
    subprocess.run(cmd, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    resumed = read_results(tmp_path / "out")
    assert resumed["game_id"].nunique() == 300 and len(resumed) == 600  # every game once
    whole = dict(cfg, output=str(tmp_path / "whole"))
    run_tournament(parse_config(whole, "whole"), show_progress=False)
    pd.testing.assert_frame_equal(stable(resumed), stable(read_results(tmp_path / "whole")))


@pytest.mark.ray
def test_ray_gives_the_serial_games_and_retries_a_dead_worker(tmp_path, shared_ray):
    entrants = [{"name": "g", "strategy": "greedy"}, {"name": "r", "strategy": "random"},
                {"name": "k", "strategy": "tests_support_strategy:KillsItsWorker", "params": {"marker": str(tmp_path / "died")}}]
    serial = config(tmp_path, entrants=entrants, games=12, output=str(tmp_path / "serial"))
    (tmp_path / "died").touch()  # the serial run must not kill the test process
    run_tournament(serial, show_progress=False)
    (tmp_path / "died").unlink()
    ray_cfg = config(tmp_path, entrants=entrants, games=12, output=str(tmp_path / "ray"), backend="ray", workers=2)
    run = run_tournament(ray_cfg, show_progress=False)
    assert (tmp_path / "died").exists(), "a worker should have died and been replaced"
    assert run.complete and run.played == 12
    pd.testing.assert_frame_equal(stable(read_results(tmp_path / "serial")), stable(read_results(tmp_path / "ray")))
    by_id = lambda rs: sorted((r.game_id, r.record.actions) for r in rs)  # noqa: E731
    assert by_id(read_records(tmp_path / "serial")) == by_id(read_records(tmp_path / "ray"))


@pytest.mark.ray
def test_a_tournament_and_a_tuning_run_on_an_existing_cluster_by_address(tmp_path):
    token = os.urandom(16).hex()
    env = dict(os.environ, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token)
    ray_bin = str(Path(sys.executable).parent / "ray")
    head, port = _start_ray_head(ray_bin, env)
    try:
        cfg = {"name": "cluster", "players": 3, "games": 6, "seed": 11, "backend": "ray",
               "entrants": [{"name": "g", "strategy": "greedy"}, {"name": "p", "strategy": "ticket_planner"},
                            {"name": "r", "strategy": "random"}],
               "output": str(tmp_path / "out")}
        path = tmp_path / "cfg.yaml"
        path.write_text(yaml.safe_dump(cfg))
        # The user's path: the command line, with the cluster's token but no RAY_AUTH_MODE; the
        # backend turns token authentication on by itself.
        driver_env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"}
        driver_env["RAY_AUTH_TOKEN"] = token
        done = subprocess.run(
            [sys.executable, "-m", "ttr_lab.cli", "tournament", str(path), "--address", f"127.0.0.1:{port}", "--no-progress"],
            cwd=ROOT, env=driver_env, capture_output=True, text=True, timeout=300,
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert "6 games played now" in done.stdout
        assert read_results(tmp_path / "out")["game_id"].nunique() == 6
        # Tuning spreads its trials over the same cluster through Ray Tune.
        done = subprocess.run(
            [sys.executable, "-m", "ttr_lab.cli", "tune", str(ROOT / "configs" / "tune" / "greedy.yaml"), "--address",
             f"127.0.0.1:{port}", "--trials", "2", "--games", "2", "--validation-games", "2", "--out", str(tmp_path / "tune")],
            cwd=ROOT, env=driver_env, capture_output=True, text=True, timeout=300,
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert "on ray (2 at once)" in done.stdout and "best parameters" in done.stdout
        assert len((tmp_path / "tune" / "trials.jsonl").read_text().splitlines()) == 2
        # A cluster that requires a token, and a driver without one: a one-line error.
        no_token = {k: v for k, v in driver_env.items() if k not in ("RAY_AUTH_TOKEN",)}
        no_token["HOME"] = str(tmp_path)  # no ~/.ray/auth_token either
        failed = subprocess.run(
            [sys.executable, "-m", "ttr_lab.cli", "tournament", str(path), "--address", f"127.0.0.1:{port}",
             "--out", str(tmp_path / "other"), "--no-progress"],
            cwd=ROOT, env=no_token, capture_output=True, text=True, timeout=300,
        )
        assert failed.returncode == 2
        last = failed.stderr.strip().splitlines()[-1]
        assert last.startswith("error: cannot connect to Ray at 127.0.0.1") and "token" in last
    finally:
        _stop_group(head)
        try:
            head.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)


def _stop_group(process: "subprocess.Popen") -> None:
    """SIGTERM to a process started in its own session, and everything in it; never `ray stop`
    (it would stop other Rays on the machine)."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:  # it already ended
        pass
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)


def _start_ray_head(ray_bin: str, env: dict, tries: int = 3) -> "tuple[subprocess.Popen, int]":
    """A `ray start --head --block` on a free port, waited for until it reports its two CPUs.

    Ray's head gives up by itself when its raylet does not register within a fixed 30 s, which a
    loaded 2-core machine can exceed; that start is then stopped whole (its own session) and
    tried again on a fresh port, up to ``tries`` times. What the test checks is the cluster's use,
    not Ray's start-up time."""
    import socket

    failures = []
    for _ in range(tries):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        head = subprocess.Popen(
            [ray_bin, "start", "--head", "--block", "--port", str(port), "--num-cpus", "2", "--include-dashboard=false"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        # Ctrl-C (or any failure) while waiting must not leave the head's session running.
        atexit.register(_stop_group, head)
        deadline = time.time() + 300
        while head.poll() is None and time.time() < deadline:
            try:  # first the head's GCS accepts connections, then it can report its CPUs
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
            except OSError:
                time.sleep(0.5)
                continue
            try:
                status = subprocess.run([ray_bin, "status", "--address", f"127.0.0.1:{port}"], env=env,
                                        capture_output=True, text=True, timeout=120)
            except BaseException:
                _stop_group(head)
                raise
            if status.returncode == 0 and "2.0 CPU" in status.stdout:
                return head, port
            time.sleep(1)
        failures.append("exited" if head.poll() is not None else "did not report its CPUs within 300 s")
        _stop_group(head)
    pytest.fail(f"the Ray head did not come up in {tries} tries: {', '.join(failures)}")


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_cpu_time_per_decision_is_recorded_beside_wall_time(tmp_path, isolation):
    """Waiting is wall time, not CPU time; working is both (an isolated strategy's CPU time is its
    own process's, read to the operating system's clock tick, hence the margin)."""
    entrants = [{"name": "idle", "strategy": "tests_support_strategy:Idle", "params": {"seconds": 0.02}},
                {"name": "busy", "strategy": "tests_support_strategy:Busy", "params": {"seconds": 0.02}}]
    c = config(tmp_path, players=2, entrants=entrants, games=2, records=False, isolation=isolation)
    assert run_tournament(c, show_progress=False).complete
    frame = read_results(c.output).groupby("entrant")[["decisions", "think_seconds", "think_cpu_seconds"]].sum()
    idle, busy = frame.loc["idle"], frame.loc["busy"]
    assert idle["think_seconds"] >= 0.02 * idle["decisions"] > 0
    assert idle["think_cpu_seconds"] < 0.5 * idle["think_seconds"]
    assert busy["think_cpu_seconds"] >= 0.01 * busy["decisions"] > 0


def test_a_local_ray_says_it_is_starting_and_suggests_serial_only_for_games_cheaper_than_its_start(tmp_path):
    """The early line says what the wait is, with no advice: whether Ray pays back its start-up
    depends on the games' cost (the main job's mcts games pay it back many times over)."""
    from ttr_lab.tournament.runner import TournamentRun, ray_startup_note, serial_hint

    note = ray_startup_note(config(tmp_path, backend="ray"), 400)
    assert note and "400 games" in note and "serial" not in note and "\n" not in note
    assert ray_startup_note(config(tmp_path, backend="serial"), 6) is None
    assert ray_startup_note(config(tmp_path, backend="ray", address="auto"), 6) is None  # a cluster: already up
    cheap = TournamentRun(tmp_path, 6, 0, played=6, backend_seconds=15.0, startup_seconds=90.0, worker_cpu_seconds=0.5)
    costly = TournamentRun(tmp_path, 400, 0, played=400, backend_seconds=15.0, startup_seconds=90.0, worker_cpu_seconds=900.0)
    compiled = TournamentRun(tmp_path, 6, 0, played=6, backend_seconds=15.0, startup_seconds=90.0, worker_cpu_seconds=20.0)
    hint = serial_hint(config(tmp_path, backend="ray"), cheap)
    assert hint and "--backend serial" in hint and "6 games" in hint
    assert serial_hint(config(tmp_path, backend="ray"), costly) is None
    assert serial_hint(config(tmp_path, backend="ray"), compiled) is None  # Ray's start, not the compile beside it
    assert serial_hint(config(tmp_path, backend="serial"), cheap) is None


def test_without_a_terminal_progress_is_lines_on_standard_error(tmp_path, capsys):
    """A log or CI has no terminal: a bar would draw nothing until the end, so the run writes
    plain lines (games, rate, time left) on stderr and keeps stdout for the summary."""
    import io

    from rich.console import Console

    out = io.StringIO()
    run = run_tournament(config(tmp_path, games=3, records=False), console=Console(file=out, width=120),
                         show_progress=True)
    assert run.complete
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"t (serial): 0 of {run.planned} games") and "waiting for the first games" in err[0]
    assert err[-1].startswith(f"t (serial): {run.planned} of {run.planned} games (100%)") and "games/s" in err[-1]
    assert "games/s" not in out.getvalue()  # no bar drawn into the log


def test_progress_lines_tick_without_a_batch_and_say_the_time_left():
    import io

    from ttr_lab.tournament.progress_lines import ProgressLines, duration

    stream = io.StringIO()
    lines = ProgressLines("main", 400, 0, stream=stream, interval=0.01)
    lines.start()
    deadline = time.monotonic() + 30
    while stream.getvalue().count("\n") < 3 and time.monotonic() < deadline:  # ticks with no batch back
        time.sleep(0.01)
    lines.update(100, 0.5)
    lines.stop()
    assert stream.getvalue().count("\n") >= 3
    assert "100 of 400 games (25%)" in stream.getvalue().splitlines()[-1]
    assert "0.50 games/s, about 10 min 00 s left" in stream.getvalue().splitlines()[-1]
    assert (duration(42), duration(75), duration(4000)) == ("42 s", "1 min 15 s", "1 h 06 min")


def test_the_pace_is_measured_from_finished_games_once_every_worker_brought_one_back():
    """400 games on 8 workers: two games back after 3 s say nothing of the time left (not "3 s
    left"), and a slow run's rate is not printed as 0.0."""
    from rich.progress import Progress

    from ttr_lab.tournament.progress_lines import Pace, PaceColumn, ProgressLines, games_per_second

    now = [100.0]
    pace = Pace(workers=8, clock=lambda: now[0])
    now[0] += 3.0
    pace.add(2)
    assert pace.rate() is None and pace.left(398) is None
    with Progress(PaceColumn(), disable=True) as progress:
        bar = progress.add_task("main", total=400, completed=2, pace=pace)
        assert PaceColumn().render(progress.tasks[bar]).plain == "measuring the pace"
        now[0] = 160.0
        for _ in range(7):
            pace.add(2)  # every worker has brought a batch: 16 games in 60 s
        assert pace.rate() == pytest.approx(16 / 60)
        progress.update(bar, completed=16)
        assert PaceColumn().render(progress.tasks[bar]).plain == "0.27 games/s, about 24 min 00 s left"
        progress.update(bar, completed=400)
        assert PaceColumn().render(progress.tasks[bar]).plain == "0.27 games/s"  # done: no time left to say
    assert (games_per_second(0.034), games_per_second(2.5), games_per_second(1234.0)) == (
        "0.034 games/s", "2.5 games/s", "1234 games/s")
    few = Pace(workers=8, clock=lambda: now[0])  # 6 games on 8 workers: once over, their rate all the same
    now[0] += 2.0
    few.add(6)
    with Progress(PaceColumn(), disable=True) as progress:
        bar = progress.add_task("small", total=6, completed=6, pace=few)
        assert PaceColumn().render(progress.tasks[bar]).plain == "3.0 games/s"
    lines = ProgressLines("main", 400, 0)
    lines.update(2, None)
    assert lines.line().endswith("measuring the pace")


def test_a_batch_warms_its_game_up_once_per_process_before_any_timed_move(tmp_path, monkeypatch):
    """Compiled rules are compiled (or loaded) on first use: that must happen before a strategy's
    timed move, once per process and game, not in every batch."""
    from ttr_lab.tournament import warm_up, worker

    played = []
    real = worker.play_game
    monkeypatch.setattr(warm_up, "_WARMED", set())
    for module in (warm_up, worker):  # the warm-up's game and the games of the run
        monkeypatch.setattr(module, "play_game", lambda game, players, seed: played.append(
            [type(p).__name__ for p in players]) or real(game, players, seed))
    c = config(tmp_path, records=False)
    assert run_tournament(c, show_progress=False).complete
    warm = ["RandomPlayer"] * 3
    assert played[0] == warm  # the warm-up, first
    assert sum(p == warm for p in played) == 1 and len(played) == 7  # once, then the six games


def test_a_long_warm_up_says_it_is_compiling_before_it_ends_and_how_long_it_took():
    from ttr_lab.tournament.warm_up import announced

    said = []
    with announced("the rules", said.append, after=0.01):
        deadline = time.monotonic() + 30
        while not said and time.monotonic() < deadline:  # the note comes while the block still runs
            time.sleep(0.01)
    assert said[0].startswith("compiling the rules (") and said[1].startswith("compiled the rules in ")
    quick = []
    with announced("the rules", quick.append, after=30):
        pass
    assert quick == []  # kernels loaded from the cache: nothing said


def test_a_run_compiles_its_kernels_before_the_games_and_says_so_on_standard_error(tmp_path, capsys, monkeypatch):
    from ttr_lab.tournament import warm_up as worker

    monkeypatch.setattr(worker, "_WARMED", set())
    monkeypatch.setattr(worker, "COMPILING_AFTER", 0.0)  # as if every step were a compile
    assert run_tournament(config(tmp_path, games=3, records=False), show_progress=True).complete
    err = capsys.readouterr().err
    assert "note: compiling Ticket to Ride" in err and "note: compiled Ticket to Ride" in err
