"""A tournament driver killed with -9 leaves no process of its local Ray behind, and touches no
other Ray on the machine (``ttr_lab/tournament/ray_watchdog.py``).

The processes are told apart here by the process tree, captured while the driver lives, not by
the watchdog's own rule (files open in the session's folder), so the test checks the rule too."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")

# Generous: everything here waits on Ray starting on a loaded machine. The one bound that
# matters is CLEANED: Ray alone leaves its agents for 60 s or more (its GCS reconnect timeout),
# the watchdog stops them within about a second of noticing the driver gone.
STARTED = 300.0
CLEANED = 45.0

# Another ttr-lab run with a local Ray (started as the backend starts it: start-up retried,
# with its own watchdog), which says when it is up and shuts its Ray down when told.
BYSTANDER = """
import sys
from ttr_lab.tournament.backends import RayBackend
backend = RayBackend(workers=1)
backend.start()
print("ready", flush=True)
sys.stdin.readline()
backend.close()
"""


def processes() -> dict[int, tuple[int, int, str]]:
    """pid -> (parent pid, start time in clock ticks, command line) of every process."""
    out = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry.name}/stat").read_text()
            cmd = Path(f"/proc/{entry.name}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
        out[int(entry.name)] = (int(fields[1]), int(fields[19]), cmd.strip())
    return out


def descendants(root: int) -> dict[int, tuple[int, str]]:
    """pid -> (start time, command line) of every process below ``root``, now."""
    table = processes()
    found: dict[int, tuple[int, str]] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, started, cmd) in table.items():
            if ppid == parent and pid not in found:
                found[pid] = (started, cmd)
                frontier.append(pid)
    return found


def still_running(tree: dict[int, tuple[int, str]]) -> dict[int, str]:
    """Those of ``tree`` still running (the same processes: a reused pid has another start time)."""
    now = processes()
    return {pid: cmd for pid, (started, cmd) in tree.items() if pid in now and now[pid][1] == started}


def program(cmd: str) -> str:
    """What a command line runs: its program's file name, or the name a Ray process gave itself."""
    first = cmd.split(" ", 1)[0]
    return first if first.startswith("ray::") else os.path.basename(first)


def wait_for(condition, seconds: float, what) -> None:
    """Poll ``condition`` until it holds; fail with ``what()`` after ``seconds``."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"{what()} after {seconds:g} s")
        time.sleep(0.5)


@pytest.mark.ray
def test_a_driver_killed_with_9_leaves_no_ray_process_and_spares_another_ray(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path.cwd()), os.environ.get("PYTHONPATH")]))}
    config = tmp_path / "long.yaml"
    out = tmp_path / "out"
    config.write_text(yaml.safe_dump({
        "name": "long", "players": 2, "games": 200_000, "seed": 3, "backend": "ray", "workers": 1,
        "output": str(out), "entrants": [{"name": "a", "strategy": "random"}, {"name": "b", "strategy": "random"}],
    }))
    log = (tmp_path / "driver.log").open("w")
    driver, bystander, tree = None, None, {}
    try:
        # Another Ray on this machine (another user's run, a notebook) must outlive the sweep.
        # Started first, while the machine is quiet: a Ray starting beside a running tournament
        # on a loaded 2-core machine can miss Ray's fixed start-up deadline even with retries.
        bystander = subprocess.Popen([sys.executable, "-c", BYSTANDER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env, start_new_session=True)
        assert bystander.stdout.readline().strip() == "ready"
        # Its head and agents (its idle workers may come and go by themselves).
        head = {"gcs_server", "raylet", "ray::DashboardAgent", "ray::RuntimeEnvAgent"}
        others = {pid: p for pid, p in descendants(bystander.pid).items() if program(p[1]) in head}
        assert {program(cmd) for _, cmd in others.values()} == head
        driver = subprocess.Popen([sys.executable, "-m", "ttr_lab.cli", "tournament", str(config)], stdout=log,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, start_new_session=True)

        def playing() -> bool:
            assert driver.poll() is None, (tmp_path / "driver.log").read_text()
            return any((out / "results").glob("*.parquet"))

        wait_for(playing, STARTED, lambda: "the tournament stored no game")
        assert driver.poll() is None, (tmp_path / "driver.log").read_text()
        tree = descendants(driver.pid)
        programs = [program(cmd) for _, cmd in tree.values()]
        # What the check covers: Ray's head, its agents, a worker, and the watchdog itself.
        assert head <= set(programs), programs
        assert {"ray::IDLE", "ray::_timed_batch"} & set(programs), programs
        assert any("ray_watchdog.py" in cmd for _, cmd in tree.values()), programs

        driver.send_signal(signal.SIGKILL)
        driver.wait()
        wait_for(lambda: not still_running(tree), CLEANED,
                 lambda: f"processes of the killed driver's Ray still running: {still_running(tree)}")
        assert still_running(others) == {pid: cmd for pid, (_, cmd) in others.items()}  # the other Ray is whole
    finally:
        log.close()
        if driver is not None and driver.poll() is None:
            driver.kill()
            driver.wait()
        for pid in still_running(tree):
            os.kill(pid, signal.SIGKILL)  # only after a failure: what the watchdog missed
        if bystander is not None and bystander.poll() is None:
            bystander.communicate("stop\n", timeout=STARTED)


@pytest.mark.ray
def test_a_ray_start_that_timed_out_is_stopped_before_the_next_try(monkeypatch):
    import ray._private.node as node
    import ray._private.services as services

    from ttr_lab.tournament import ray_watchdog
    from ttr_lab.tournament.backends import RayBackend

    # The first node never registers: Ray gives up after its 30 s, as on an overloaded machine,
    # leaving that attempt's processes running and unknown to ray.shutdown().
    real, refused = services.get_node, []

    def first_node_never_registers(gcs_address, node_id):
        refused[:] = refused or [node_id]
        if node_id == refused[0]:
            raise RuntimeError("not registered yet")
        return real(gcs_address, node_id)

    class PastTheWait:
        """Ray's node clock, 31 s ahead from the first refusal on: Ray gives up on the first node
        at once instead of after 30 s of waiting (the give-up, not the wait, is under test)."""

        def __getattr__(self, name):
            return getattr(time, name)

        def monotonic(self):
            return time.monotonic() + (31.0 if refused else 0.0)

    monkeypatch.setattr(services, "get_node", first_node_never_registers)
    monkeypatch.setattr(node, "time", PastTheWait())
    backend = RayBackend(workers=1)
    backend.start()  # the second try starts
    try:
        assert refused
        assert len(ray_watchdog.sessions_started_here()) == 1  # the running one; the first try's is gone
    finally:
        backend.close()


# Without Ray: the rule that tells a session's processes apart, and the watchdog script itself.

HOLDER = "import sys, time; f = open(sys.argv[1], 'w'); print('ready', flush=True); time.sleep(600)"


def holder(path: Path) -> subprocess.Popen:
    """A process holding ``path`` open, as Ray's processes hold their logs."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    return proc


@pytest.mark.parametrize("how", ["sweep", "driver killed"])
def test_the_watchdog_stops_the_processes_of_its_session_only(tmp_path, how):
    from ttr_lab.tournament import ray_watchdog

    session, other = tmp_path / "session_1", tmp_path / "session_10"  # a prefix of the other's name
    (session / "logs").mkdir(parents=True)
    (other / "logs").mkdir(parents=True)
    inside, outside = holder(session / "logs" / "raylet.out"), holder(other / "logs" / "raylet.out")
    try:
        assert ray_watchdog.session_processes(session) == [inside.pid]
        if how == "sweep":
            assert ray_watchdog.sweep(session) == 1
        else:
            # A driver (this script's child) starts the watchdog, then dies by SIGKILL.
            driver = subprocess.Popen(
                [sys.executable, "-c", "import sys, time; from ttr_lab.tournament import ray_watchdog; "
                 "w = ray_watchdog.start(sys.argv[1]); print(w.pid, flush=True); time.sleep(600)", str(session)],
                stdout=subprocess.PIPE, text=True)
            assert int(driver.stdout.readline()) > 0
            assert inside.poll() is None  # the watchdog waits while its driver lives
            driver.kill()
            driver.wait()
            log = session / "logs" / "ttr_lab_watchdog.log"
            wait_for(lambda: "stopped" in log.read_text(), CLEANED, lambda: f"the watchdog did not finish: {log.read_text()!r}")
            assert f"driver {driver.pid} gone: stopped 1 processes of {session}" in log.read_text()
        assert inside.wait(timeout=CLEANED) == -signal.SIGTERM
        assert outside.poll() is None
    finally:
        for proc in (inside, outside):
            proc.kill()
            proc.wait()


def test_the_sessions_a_failed_start_left_are_found_by_their_name(tmp_path):
    from ttr_lab.tournament import ray_watchdog

    # Ray names a session after the process that started it: only this process's are found.
    mine, other = tmp_path / f"session_2026_{os.getpid()}", tmp_path / f"session_2026_1{os.getpid()}"
    for folder in (mine, other):
        (folder / "logs").mkdir(parents=True)
    inside, outside = holder(mine / "logs" / "gcs_server.out"), holder(other / "logs" / "gcs_server.out")
    try:
        assert ray_watchdog.sessions_started_here() == {str(mine)}
    finally:
        for proc in (inside, outside):
            proc.kill()
            proc.wait()
    assert ray_watchdog.sessions_started_here() == set()


# ---- a raylet killed under a running driver: ttr-lab's own line, before Ray ends the driver -----

def test_a_raylet_that_ends_under_the_driver_is_said_in_ttr_labs_own_line(tmp_path):
    import io
    import shutil

    from ttr_lab.tournament import ray_watchdog

    fake = tmp_path / "raylet"  # a child process called raylet, as the local Ray's is
    shutil.copy(shutil.which("sleep"), fake)
    raylet = subprocess.Popen([str(fake), "600"])
    said = io.StringIO()
    try:
        assert ray_watchdog.raylet_of(os.getpid()) == raylet.pid
        watch = ray_watchdog.RayletWatch(raylet.pid, said, poll=0.05)
        os.kill(raylet.pid, signal.SIGKILL)  # not reaped: a zombie, as Ray leaves its raylet
        end = time.monotonic() + 60
        while not watch.lost and time.monotonic() < end:
            time.sleep(0.05)
        watch.stop()
    finally:
        raylet.kill()
        raylet.wait()
    assert watch.lost == f"the local Ray's raylet (pid {raylet.pid}) ended"
    line = said.getvalue()
    assert line == ray_watchdog.lost_line(raylet.pid) + "\n"
    assert line.startswith("ttr-lab: the local Ray stopped under the run") and "every stored game is kept" in line \
        and "run the same command again" in line


def test_a_watch_stopped_while_the_raylet_runs_says_nothing_and_a_lost_ray_is_not_shut_down(tmp_path, monkeypatch):
    import io
    import types

    import ray

    from ttr_lab.tournament import ray_watchdog
    from ttr_lab.tournament.backends import RayBackend

    alive = subprocess.Popen(["sleep", "600"])
    said = io.StringIO()
    try:
        watch = ray_watchdog.RayletWatch(alive.pid, said, poll=0.01)
        time.sleep(0.1)  # some looks at a live raylet (no deadline raced: any number of them)
        watch.stop()
    finally:
        alive.kill()
        alive.wait()
    assert not watch.lost and said.getvalue() == ""
    # Ray's shutdown would reach the dead raylet's object store, which ends the driver from C++:
    # the summary would never be printed. Nor is the watchdog told to stand down: it sweeps.
    calls = []
    monkeypatch.setattr(ray, "shutdown", lambda *a, **k: calls.append("shutdown"))
    monkeypatch.setattr(ray_watchdog, "stop", lambda proc: calls.append("watchdog stopped"))
    backend = RayBackend(workers=1)
    backend._started_here = True
    backend._raylet = types.SimpleNamespace(lost="the local Ray's raylet (pid 1) ended", stop=lambda: None)
    backend.close()
    assert calls == []


def test_the_raylet_watched_is_the_live_one_started_last(tmp_path):
    """A start that timed out leaves its raylet behind (killed, maybe not reaped) beside the next
    try's: the watch is on the live one, or it takes the run's Ray for lost at once."""
    import shutil

    from ttr_lab.tournament import ray_watchdog

    fake = tmp_path / "raylet"
    shutil.copy(shutil.which("sleep"), fake)
    first = subprocess.Popen([str(fake), "600"])
    os.kill(first.pid, signal.SIGKILL)  # not reaped: a zombie
    second = subprocess.Popen([str(fake), "600"])
    try:
        end = time.monotonic() + 60
        while ray_watchdog.raylet_of(os.getpid()) != second.pid and time.monotonic() < end:
            time.sleep(0.05)  # the zombie's state shows once the kernel has ended it
        assert ray_watchdog.raylet_of(os.getpid()) == second.pid
        second.kill()
        while ray_watchdog.raylet_of(os.getpid()) is not None and time.monotonic() < end:
            time.sleep(0.05)
        assert ray_watchdog.raylet_of(os.getpid()) is None
    finally:
        for proc in (first, second):
            proc.kill()
            proc.wait()
