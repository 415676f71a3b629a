"""The boundaries between the engine and an isolated strategy's process, each probed the way a
hostile plug-in would: its identity (user id), each reply's framing, the time to build it, the
files it leaves, the processes that outlive the engine."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from ttr_lab.core import confinement
from ttr_lab.core.results import read_results
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import load_game
from ttr_lab.tournament.warm_up import warm_up
from ttr_lab.tournament.worker import stop_hosts


@pytest.fixture
def own_ledger(tmp_path, monkeypatch):
    """A fresh engine process able to switch users, with a ledger of its own."""
    monkeypatch.setattr(confinement, "can_switch_user", lambda: True)
    for name, value in (("LEDGER", tmp_path / "uids"), ("_block", [0, 0]), ("_handed", set()),
                        ("_live_uids", set)):  # no process runs as any of them, unless a test says so
        monkeypatch.setattr(confinement, name, value, raising=False)
    return tmp_path / "uids"


def test_no_two_children_ever_share_a_user_id_however_many_an_entrant_restarts(own_ledger, monkeypatch):
    # A strategy that ends its process every game gets a fresh child (and uid) each game: with
    # uids reused, its child came to share the user of another entrant's live child, and killed it.
    uids = [confinement.next_uid() for _ in range(1000)]
    assert len(set(uids)) == 1000 and all(uid > 65535 for uid in uids)
    # Another process of the run (a Ray worker) claims from the same ledger: none of these either.
    monkeypatch.setattr(confinement, "_block", [0, 0])
    monkeypatch.setattr(confinement, "_handed", set())
    other = [confinement.next_uid() for _ in range(300)]
    assert not set(other) & set(uids)


def test_a_user_id_some_process_runs_as_is_never_handed_out(own_ledger, monkeypatch):
    first = confinement.next_uid()
    monkeypatch.setattr(confinement, "_block", [0, 0])
    monkeypatch.setattr(confinement, "_handed", set())
    own_ledger.unlink()  # the ledger lost (a cleaned temp folder): numbering starts again
    monkeypatch.setattr(confinement, "_live_uids", lambda: {first})  # ... while that child still runs
    assert confinement.next_uid() != first


def test_the_users_processes_run_as_are_read_from_proc():
    import os

    assert os.getuid() in confinement._live_uids()


def test_a_ledger_someone_else_planted_is_not_trusted(own_ledger):
    own_ledger.symlink_to(own_ledger.parent / "elsewhere")
    confinement.next_uid()
    assert not own_ledger.is_symlink() and not (own_ledger.parent / "elsewhere").exists()


# ---- each read from a child is bounded by the move's deadline ------------------------------------

class _Hung(BaseException):
    """The guarded code did not end in time (a BaseException: nothing on the way swallows it)."""


@contextlib.contextmanager
def at_most(seconds: float):
    """Fail, rather than hang the suite, when the block runs past ``seconds``: a signal to the main
    thread interrupts even a blocking read (the engine's own alarms, in-process, are left alone)."""
    def hung(signum, frame):
        raise _Hung(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGUSR1, hung)
    timer = threading.Timer(seconds, signal.pthread_kill, (threading.main_thread().ident, signal.SIGUSR1))
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        signal.signal(signal.SIGUSR1, previous)


@pytest.fixture
def no_children_left():
    """Also the game warmed up (its kernels compiled or loaded, untimed), outside any guard."""
    warm_up(load_game("ticket_to_ride", map="usa"), 2)
    yield
    stop_hosts()


def config(out, first, isolation="process", games=2, **changes):
    data = {"name": "t", "players": 2, "games": games, "seed": 5, "backend": "serial", "isolation": isolation,
            "output": str(out), "entrants": [first, {"name": "r", "strategy": "random"}]}
    data.update(changes)
    return parse_config(data, "test")


def forfeits(folder) -> pd.DataFrame:
    return read_results(folder).query("forfeit")


def test_a_half_sent_answer_is_waited_for_only_until_the_deadline_and_the_seat_forfeits(tmp_path, no_children_left):
    half = {"name": "h", "strategy": "tests_support_hostile:HalfSender"}
    c = config(tmp_path / "out", half, move_time_limit=0.5)
    with at_most(60):
        run = run_tournament(c, show_progress=False)
    assert run.complete and run.played == 2
    lost = forfeits(tmp_path / "out")
    assert list(lost["entrant"]) == ["h", "h"]
    assert lost["error"].str.contains("(half_sender) raised DecisionTimeout in act: sent 2 bytes of a 1000-byte answer "
                                      "within 1.5 s; its process was stopped from outside", regex=False).all(), \
        lost["error"].tolist()


# ---- building a strategy is bounded: at config time a config error, in a game a forfeit ---------

@pytest.mark.parametrize("isolation", ["none", "process"])
def test_a_constructor_that_never_returns_is_a_one_line_config_error(tmp_path, isolation, no_children_left):
    slow = {"name": "s", "strategy": "tests_support_hostile:SlowBuilder"}
    with at_most(60), pytest.raises(ConfigError) as error:
        config(tmp_path / "out", slow, isolation, build_time_limit=1)
    text = str(error.value)
    assert text.startswith("test: entrants.0 (s): strategy 'tests_support_hostile:SlowBuilder' ") and "\n" not in text
    assert "was not built within 1 s" in text, text
    assert not (tmp_path / "out").exists()


@pytest.fixture
def shared_folder():
    """A folder any child can write (each isolated child has a user of its own, as root)."""
    folder = tempfile.mkdtemp()
    os.chmod(folder, 0o777)
    yield Path(folder)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_a_constructor_that_never_returns_in_a_game_forfeits_it_named(tmp_path, isolation, shared_folder,
                                                                        no_children_left):
    slow = {"name": "s", "strategy": "tests_support_hostile:SlowBuilder", "params": {"marker": str(shared_folder / "m")}}
    # Built once by the config's check, then for each game. Isolated, importing the strategy in a
    # fresh child is part of its build: a limit a loaded machine keeps.
    limit = 1 if isolation == "none" else 5
    c = config(tmp_path / "out", slow, isolation, games=2, build_time_limit=limit)
    with at_most(60):
        run = run_tournament(c, show_progress=False)
    assert run.complete and run.played == 2
    lost = forfeits(tmp_path / "out")
    assert list(lost["entrant"]) == ["s", "s"]
    assert lost["error"].str.contains("(s) could not be built: ", regex=False).all(), lost["error"].tolist()
    assert lost["error"].str.contains(f"was not built within {limit} s", regex=False).all(), lost["error"].tolist()


# ---- nothing of a strategy outlives the engine, nor leaves files behind -------------------------

def _children_of(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        try:
            stat, cmd = (entry / "stat").read_text(), (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"ttr_lab.core.isolation" in cmd:
            out.append(int(entry.name))
    return out


def _gone(pids: list[int], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not any(Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]
                   for pid in pids if Path(f"/proc/{pid}").exists()):
            return True
        time.sleep(0.2)
    return False


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_isolated_children_end_with_the_driver_however_it_ends(tmp_path, sig):
    import subprocess
    import sys

    import yaml

    if not Path("/proc/self/stat").exists():
        pytest.skip("needs Linux /proc")
    sleepy = {"name": "s", "strategy": "tests_support_strategy:Sleepy", "params": {"seconds": 600.0}}
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml.safe_dump({"name": "t", "players": 2, "games": 2, "backend": "serial", "isolation": "process",
                                   "entrants": [sleepy, {"name": "r", "strategy": "random"}]}))
    tests = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, *sys.path])}
    driver = subprocess.Popen([sys.executable, "-m", "ttr_lab", "tournament", str(cfg), "--out", str(tmp_path / "o"),
                               "--no-report", "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env)
    try:
        end = time.monotonic() + 120
        while len(_children_of(driver.pid)) < 2 and time.monotonic() < end and driver.poll() is None:
            time.sleep(0.2)
        children = _children_of(driver.pid)
        assert len(children) == 2, driver.poll()
        time.sleep(1)  # the sleeper is in its long move
        driver.send_signal(sig)
        out, err = driver.communicate(timeout=60)
        assert _gone(children, 10), [p for p in children if Path(f"/proc/{p}").exists()]
        if sig == signal.SIGTERM:  # stopped as by Ctrl-C: one line, no traceback
            assert driver.returncode == 130, err[-2000:]
            assert "interrupted: 0 of 2 games are stored" in out and "Traceback" not in err, (out, err)
    finally:
        if driver.poll() is None:
            driver.kill()
        for pid in _children_of(driver.pid):
            os.kill(pid, signal.SIGKILL)


def test_an_isolated_child_writes_in_a_temporary_folder_of_its_own_removed_after_it(tmp_path, no_children_left):
    import random
    import tempfile

    token = f"ttr-lab-litter-{random.randrange(10**9)}"
    litter = {"name": "l", "strategy": "tests_support_hostile:Litterer", "params": {"token": token}}
    run = run_tournament(config(tmp_path / "out", litter), show_progress=False)
    assert run.complete and not forfeits(tmp_path / "out")["error"].tolist()
    assert not Path(tempfile.gettempdir(), token).exists()  # its TMPDIR was elsewhere
    stop_hosts()
    assert not list(Path(tempfile.gettempdir()).glob(f"ttr-lab-child-*/{token}"))
    if os.geteuid() == 0:  # a user of its own: what it left where anyone writes is its alone, and removed
        assert not Path("/dev/shm", token).exists()
    else:
        Path("/dev/shm", token).unlink(missing_ok=True)
