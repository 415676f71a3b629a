"""A watchdog for the local Ray a driver starts: when the driver dies, however it dies
(``kill -9`` included), it stops that Ray session's processes, and only those.

Why: Ray's head processes (GCS, raylet, monitors) die with the process that started them (Ray
asks the kernel for that), and workers follow the raylet; but the dashboard agent and the
runtime-env agent, on seeing their raylet gone, try to report it to the GCS, which is gone too,
and wait for Ray's 60 s reconnect timeout before exiting: a killed driver left them behind for
a minute or more (measured: 64 s and over 80 s).

What belongs to the session: every process of this user holding a file open under the
session's directory (``/tmp/ray/session_<date>_<pid>``: Ray's processes keep their logs and
sockets there, workers and agents included, whatever name they gave their process). Another
Ray on this machine has its own session directory, and other users' processes cannot be read,
so neither is ever touched; a cluster reached by ``--address`` gets no watchdog at all.

The other way round, a raylet killed under a running driver (``kill -9``, the OOM killer): Ray
ends the driver itself seconds later, from its C++ code, when the driver next reaches the object
store (no Python runs then: no summary, Ray's lines last). ``RayletWatch`` notices the raylet gone
first and says so in ttr-lab's own line at once, and the run loop stops on it.

This file runs as a script (``python ray_watchdog.py DRIVER_PID SESSION_DIR``), in a session
of its own so that a Ctrl-C or a kill of the driver's process group does not reach it. It
imports nothing but the standard library: it costs a few MB and no start-up time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TextIO

POLL_SECONDS = 0.5  # how often the watchdog looks at its driver
TERM_GRACE_SECONDS = 3.0  # from SIGTERM to SIGKILL
SWEEP_SECONDS = 60.0  # the longest a sweep keeps looking for the session's processes
PROC = Path("/proc")  # Linux: where processes and their open files are listed


def session_processes(session_dir: str | os.PathLike[str], exclude: tuple[int, ...] = ()) -> list[int]:
    """The pids of this user's processes holding a file open under ``session_dir`` (none
    without Linux's /proc)."""
    if not PROC.is_dir():
        return []
    prefix = str(Path(session_dir).resolve()) + os.sep
    mine = os.getuid()
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) in exclude:
            continue
        try:
            if entry.stat().st_uid != mine:
                continue
            with os.scandir(f"/proc/{entry.name}/fd") as fds:
                if any(os.readlink(fd.path).startswith(prefix) for fd in fds):
                    found.append(int(entry.name))
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


def sessions_started_here() -> set[str]:
    """The folders of the Ray sessions this process started whose processes still run: those its
    child processes hold files in, named ``session_<date>_<this pid>`` as Ray names them. After
    a ``ray.init`` that failed part-way (Ray's 30 s start-up timeout), Ray no longer knows them:
    they run, and load the machine, until this process exits."""
    me = os.getpid()
    suffix = f"_{me}"
    found: set[str] = set()
    if not PROC.is_dir():
        return found
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry.name}/stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) != me:
                continue
            with os.scandir(f"/proc/{entry.name}/fd") as fds:
                for fd in fds:
                    head, mark, tail = os.readlink(fd.path).partition(f"{os.sep}session_")
                    name = "session_" + tail.split(os.sep, 1)[0]
                    if mark and name.endswith(suffix):
                        found.add(head + os.sep + name)
        except (OSError, ValueError, IndexError):  # gone meanwhile, or not ours to read
            continue
    return found


def sweep(session_dir: str | os.PathLike[str], deadline: float = SWEEP_SECONDS) -> int:
    """Stop every process of the session: SIGTERM, then SIGKILL what is left after a grace
    period; look again until nothing of the session is found twice in a row (a worker the
    raylet was starting may appear late). Returns how many processes were signalled."""
    me = (os.getpid(),)
    signalled: set[int] = set()
    end = time.monotonic() + deadline
    term_sent: dict[int, float] = {}
    empty_looks = 0
    while time.monotonic() < end and empty_looks < 2:
        pids = session_processes(session_dir, me)
        empty_looks = 0 if pids else empty_looks + 1
        now = time.monotonic()
        for pid in pids:
            sig = signal.SIGKILL if now - term_sent.setdefault(pid, now) >= TERM_GRACE_SECONDS else signal.SIGTERM
            try:
                os.kill(pid, sig)
                signalled.add(pid)
            except OSError:
                pass
        time.sleep(POLL_SECONDS)
    return len(signalled)


def watch(driver: int, session_dir: str) -> None:
    """Wait for ``driver`` (this process's parent) to die, then sweep its session. A SIGTERM
    means the driver shut Ray down itself: exit without sweeping."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The parent is the driver until it dies; then the orphan is adopted by init or a reaper.
    while os.getppid() == driver:
        time.sleep(POLL_SECONDS)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # from here on, finish the job
    count = sweep(session_dir)
    print(f"driver {driver} gone: stopped {count} processes of {session_dir}", file=sys.stderr, flush=True)


def start(session_dir: str) -> subprocess.Popen | None:
    """Start the watchdog of the Ray session at ``session_dir`` for this process (the driver);
    none without Linux's /proc, where it finds the session's processes. Its own messages go to
    ``ttr_lab_watchdog.log`` in the session's log folder."""
    if not PROC.is_dir():
        return None
    logs = Path(session_dir) / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    with open(logs / "ttr_lab_watchdog.log", "ab") as log:
        return subprocess.Popen(
            [sys.executable, "-S", "-I", str(Path(__file__).resolve()), str(os.getpid()), str(session_dir)],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, close_fds=True,
        )


def stop(proc: subprocess.Popen | None) -> None:
    """Tell the watchdog the driver shut Ray down itself (it exits without sweeping)."""
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class RayLost(RuntimeError):
    """The local Ray's raylet ended under the run."""


def raylet_of(driver: int) -> int | None:
    """The pid of the raylet ``driver`` runs now (its child process called ``raylet``), or None.
    A start that timed out leaves its raylet behind, stopped but maybe not yet reaped (a zombie)
    beside the next try's: the live one started last is this Ray's (watching the dead one would
    take it for lost at once, and the run would leave its Ray up)."""
    if not PROC.is_dir():
        return None
    found: list[tuple[int, int]] = []  # (start time, pid)
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry.name}/stat").read_text()
        except OSError:
            continue
        name, rest = stat[stat.find("(") + 1:stat.rfind(")")], stat[stat.rfind(")") + 1:].split()
        if name == "raylet" and int(rest[1]) == driver and rest[0] not in ("Z", "X"):
            found.append((int(rest[19]), int(entry.name)))
    return max(found)[1] if found else None


def lost_line(pid: int) -> str:
    """ttr-lab's line when the local Ray's raylet ends under a run."""
    return (f"ttr-lab: the local Ray stopped under the run (its raylet, pid {pid}, ended: killed, or out of memory); "
            "every stored game is kept: run the same command again to play the rest")


class RayletWatch:
    """In the driver, a thread watching the local Ray's raylet (``pid``): when it ends, ``lost``
    says so and ``lost_line`` goes to ``stream`` (stderr) at once, before Ray ends the driver."""

    def __init__(self, pid: int, stream: TextIO | None = None, poll: float = POLL_SECONDS) -> None:
        self.pid, self.lost, self._stream, self._poll = pid, "", stream, poll
        self._started = self._start_time()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="raylet-watch", daemon=True)
        self._thread.start()

    def _start_time(self) -> str | None:
        """The raylet's start time, or None when it has ended (a zombie: its parent, this
        process, has not reaped it yet) or the pid is another process's now."""
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return None if fields[0] in ("Z", "X") else fields[19]

    def _watch(self) -> None:
        while not self._stop.wait(self._poll):
            if self._start_time() is None or self._start_time() != self._started:
                self.lost = f"the local Ray's raylet (pid {self.pid}) ended"
                print(lost_line(self.pid), file=self._stream or sys.stderr, flush=True)
                return

    def stop(self) -> None:
        """Stop watching (before Ray is shut down on purpose, which ends the raylet)."""
        self._stop.set()
        self._thread.join()


if __name__ == "__main__":
    watch(int(sys.argv[1]), sys.argv[2])
