"""A worker process stopped (SIGSTOP) and continued later: no seat is charged for the time it was
not running, the stopped batch is played again, and on Ray a worker that makes no progress is
ended at its batch's deadline. The stored results are a clean run's."""

from __future__ import annotations

import textwrap

import pytest

from ttr_lab.core.results import read_results
from ttr_lab.tournament import backends, run_tournament
from ttr_lab.tournament.config import parse_config

# Stops its own process once (a marker file says it did), at its third decision; a helper
# continues it after ``PAUSE`` seconds unless ``PAUSE`` is 0 (then it stays stopped).
STOPPER = """
import os, signal, subprocess
from pathlib import Path
from ttr_lab.strategies.random import Random

MARKER = Path({marker!r})
PAUSE = {pause}


class Stopper(Random):
    def __init__(self):
        self.decisions = 0

    def act(self, observation, legal_actions, rng):
        self.decisions += 1
        if self.decisions == 3 and not MARKER.exists():
            MARKER.write_text(str(os.getpid()))
            if PAUSE:
                subprocess.Popen(["sh", "-c", f"sleep {{PAUSE}}; kill -CONT {{os.getpid()}}"])
            os.kill(os.getpid(), signal.SIGSTOP)
        return super().act(observation, legal_actions, rng)
"""


def _setup(tmp_path, monkeypatch, pause: float, modules=None) -> str:
    """The stopper's module, in ``modules`` (a folder on the Ray workers' import path) or ``tmp_path``."""
    folder = modules or tmp_path
    name = f"stopper_{abs(hash((str(tmp_path), pause))) % 10**8}"
    (folder / f"{name}.py").write_text(textwrap.dedent(STOPPER.format(marker=str(tmp_path / "stopped"), pause=pause)))
    monkeypatch.syspath_prepend(str(folder))
    return f"{name}:Stopper"


def config(out, strategy, **changes):
    data = {"name": "t", "players": 2, "games": 4, "seed": 3, "backend": "serial", "output": str(out),
            "move_time_limit": 1.0, "entrants": [{"name": "g", "strategy": "greedy"}, {"name": "s", "strategy": strategy}]}
    data.update(changes)
    return parse_config(data, "test")


def _untimed(frame):
    return frame.drop(columns=["think_seconds", "think_cpu_seconds"], errors="ignore")


def test_a_stopped_process_charges_no_seat_and_its_batch_is_played_again(tmp_path, monkeypatch, capsys):
    strategy = _setup(tmp_path, monkeypatch, pause=3)  # stopped 3 s, past the 1 s limit (+1 s grace)
    run = run_tournament(config(tmp_path / "out", strategy), show_progress=False)
    assert (tmp_path / "stopped").exists() and run.complete
    assert "games played again: the process was stopped while seat" in capsys.readouterr().out
    stored = read_results(tmp_path / "out")
    assert not stored["forfeit"].any(), stored[["entrant", "error"]]
    clean = run_tournament(config(tmp_path / "clean", strategy), show_progress=False)  # the marker exists: no stop
    assert clean.complete
    assert _untimed(stored).equals(_untimed(read_results(tmp_path / "clean")))


@pytest.mark.ray
def test_on_ray_a_worker_stopped_for_good_is_ended_at_its_deadline_and_its_batch_played_again(tmp_path, monkeypatch,
                                                                                            shared_ray):
    strategy = _setup(tmp_path, monkeypatch, pause=0, modules=shared_ray.modules)  # never continued
    monkeypatch.setattr(backends, "FIRST_BATCH_DEADLINE", 20.0)
    monkeypatch.setattr(backends, "BATCH_DEADLINE_FLOOR", 20.0)
    run = run_tournament(config(tmp_path / "out", strategy, backend="ray", workers=1), show_progress=False)
    assert (tmp_path / "stopped").exists() and run.complete, run.failed_batches
    stored = read_results(tmp_path / "out")
    assert not stored["forfeit"].any(), stored[["entrant", "error"]]
    run_tournament(config(tmp_path / "clean", strategy), show_progress=False)
    assert _untimed(stored).equals(_untimed(read_results(tmp_path / "clean")))
