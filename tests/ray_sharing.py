"""One local Ray for the tests that use Ray as a means (tournaments, tuning and isolation played on
Ray), not as their subject (Ray's start, a driver's death, a cluster by address, a multi-node
cluster): those start their own.

A backend handed a running Ray uses it and leaves it open (``RayBackend.start``), and plays its
batches through the same ``RayBackend.run`` as on a Ray of its own. What a test on the shared Ray
no longer pays is Ray's start and shutdown and its workers' imports and kernel loads, each time.
The shared Ray is itself started by ``RayBackend.start`` (the workers' import path, the watchdog,
the warm-up), so that path still runs with the tests' own strategies on it.

The tests that use it (the ``shared_ray`` fixture) are put next to each other in the run, marked
``ray`` (so under ``-n 2`` they run on one worker, with the other Ray tests), and the shared Ray is
shut down after the last of a row of them: every other test, and a test that starts a Ray in its
own process, finds none running.

A test neither marked ``ray`` nor on the shared Ray that starts a local Ray in the test process
(a config left on the default ``backend: ray``) fails at its teardown (``check_no_ray_started``):
unnoticed, each such start costs the suite some 20 s, and under ``-n 2`` it would run beside the
Ray group on the other worker.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from ttr_lab.tournament.backends import RayBackend

FIXTURE = "shared_ray"
WORKERS = 2  # the machine's two cores, as a local Ray of the backend's own takes them


class SharedRay:
    """The running shared Ray, if any. ``modules``: a folder on its workers' import path, for
    a strategy module a test writes while it runs (a worker's import path is fixed at its start)."""

    def __init__(self) -> None:
        self.modules: Path | None = None
        self._backend: RayBackend | None = None

    def start(self, tmp_path_factory: pytest.TempPathFactory) -> None:
        if self._backend is not None:
            return
        from ttr_lab.tournament.backends import RayBackend

        if self.modules is None:
            self.modules = tmp_path_factory.mktemp("ray-modules")
        backend = RayBackend(workers=WORKERS, runtime_env={"env_vars": {"PYTHONPATH": str(self.modules)}})
        try:
            backend.start()
        except BaseException:
            backend.close()
            raise
        self._backend = backend

    def stop(self) -> None:
        backend, self._backend = self._backend, None
        if backend is not None:
            backend.close()  # started here: shuts Ray down and stops its watchdog


SHARED = SharedRay()


def uses(item: pytest.Item) -> bool:
    return FIXTURE in getattr(item, "fixturenames", ())


def order(items: list[pytest.Item]) -> None:
    """The tests on the shared Ray in a row, where the first of them was, each marked ``ray``."""
    users = [item for item in items if uses(item)]
    if not users:
        return
    for item in users:
        item.add_marker(pytest.mark.ray)
    first = items.index(users[0])
    others = [item for item in items if not uses(item)]
    items[:] = others[:first] + users + others[first:]


def _ray_folder() -> Path:
    """Where a local Ray started without a folder of its own keeps its sessions, as Ray chooses it."""
    system = os.environ.get("RAY_TMPDIR") or (sys.platform.startswith("linux") and os.environ.get("TMPDIR")) or "/tmp"
    return Path(system, "ray")


def sessions_started_here() -> set[str]:
    """The sessions of local Rays this process started, running or not: Ray names each session's
    folder after the process that started it (``session_<date>_<pid>``) and keeps the folder."""
    suffix = f"_{os.getpid()}"
    try:
        with os.scandir(_ray_folder()) as entries:
            return {e.name for e in entries if e.name.startswith("session_2") and e.name.endswith(suffix)}
    except OSError:  # no Ray has run on this machine yet
        return set()


def check_no_ray_started(item: pytest.Item, before: set[str]) -> None:
    """Fail ``item`` if it started a local Ray while neither marked ``ray`` nor on the shared Ray."""
    if item.get_closest_marker("ray") or uses(item):
        return
    started = sessions_started_here() - before
    if started:
        pytest.fail(f"{item.nodeid} started a local Ray ({', '.join(sorted(started))}) without the `ray` marker: "
                    "take the shared_ray fixture if Ray is only a means (or give its config backend: serial); "
                    "mark it `ray` if Ray's own start or death is what it tests", pytrace=False)


def after(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After ``item``'s teardown: the shared Ray stops unless the next test uses it too."""
    if uses(item) and (nextitem is None or not uses(nextitem)):
        SHARED.stop()
