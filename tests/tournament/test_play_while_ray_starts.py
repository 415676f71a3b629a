"""While a local Ray starts, the driver plays the first batches itself: the same games as a
serial run, nothing lost when the start fails, and never a user's strategy in the driver."""

from __future__ import annotations

import threading

import pandas as pd
import pytest

from ttr_lab.core.results import read_records, read_results
from ttr_lab.tournament import backends, run_tournament, runner
from ttr_lab.tournament.config import parse_config

TIMING = ["think_seconds", "think_cpu_seconds"]
ENTRANTS = [{"name": "g", "strategy": "greedy"}, {"name": "p", "strategy": "ticket_planner"},
            {"name": "r", "strategy": "random"}]


def config(tmp_path, name, **changes):
    data = {"name": "t", "players": 3, "games": 12, "seed": 23, "backend": "ray", "workers": 2,
            "entrants": ENTRANTS, "output": str(tmp_path / name), "records": True}
    data.update(changes)
    return parse_config(data, "test")


def stable(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop(columns=TIMING).sort_values(["game_id", "seat"]).reset_index(drop=True)


def test_the_driver_plays_only_shipped_strategies_and_only_beside_a_local_ray(tmp_path):
    shipped = config(tmp_path, "a")
    assert runner.plays_while_ray_starts(shipped, "ticket_to_ride")
    assert not runner.plays_while_ray_starts(config(tmp_path, "b", backend="serial"), "ticket_to_ride")
    assert not runner.plays_while_ray_starts(config(tmp_path, "c", address="127.0.0.1:6379"), "ticket_to_ride")
    users = [*ENTRANTS[:2], {"name": "u", "strategy": "ttr_lab.strategies.random:Random"}]
    assert not runner.plays_while_ray_starts(config(tmp_path, "d", entrants=users), "ticket_to_ride")
    # Each strategy in a process of its own cannot end the driver's.
    assert runner.plays_while_ray_starts(config(tmp_path, "e", entrants=users, isolation="process"), "ticket_to_ride")


class SlowStart:
    """A Ray whose start ends only once the driver has played ``here`` batches (the shared Ray is
    already up: the start only waits), or fails with ``error`` then."""

    def __init__(self, monkeypatch, here: int, error: Exception | None = None) -> None:
        self.here, self.error, self.played = here, error, 0
        self.enough = threading.Event()
        self.backend: backends.RayBackend | None = None
        play_here = backends._batch_here

        def counted(*args, **kwargs):
            batch = play_here(*args, **kwargs)
            self.played += 1
            if self.played == self.here:
                self.enough.set()
                assert self.backend is not None and self.backend._starter is not None
                self.backend._starter.ready.wait(120)  # the start has ended before the next batch
            return batch

        def make(*args, **kwargs):
            backend = backends.RayBackend(workers=2)

            def start(background: bool = False) -> None:
                assert background, "the runner should start this Ray in the background"
                backend._starter = backends._Starter(self._start)

            backend.start = start  # type: ignore[method-assign]
            self.backend = backend
            return backend

        monkeypatch.setattr(backends, "_batch_here", counted)
        monkeypatch.setattr(runner, "make_backend", make)

    def _start(self) -> None:
        self.enough.wait(120)
        if self.error is not None:
            raise self.error


def test_the_first_batches_are_played_here_while_ray_starts_and_are_the_serial_games(tmp_path, shared_ray, monkeypatch):
    run_tournament(config(tmp_path, "serial", backend="serial"), show_progress=False)
    slow = SlowStart(monkeypatch, here=2)
    run = run_tournament(config(tmp_path, "ray"), show_progress=False)
    assert slow.played == 2, "the driver should play until the start ends, then leave the rest to Ray"
    assert run.complete and run.played == 12 and not run.backend_error
    pd.testing.assert_frame_equal(stable(read_results(tmp_path / "serial")), stable(read_results(tmp_path / "ray")))
    by_id = lambda rs: sorted((r.game_id, r.record.actions) for r in rs)  # noqa: E731
    assert by_id(read_records(tmp_path / "serial")) == by_id(read_records(tmp_path / "ray"))


def test_a_start_that_fails_keeps_the_games_played_meanwhile_and_says_why(tmp_path, shared_ray, monkeypatch):
    slow = SlowStart(monkeypatch, here=2, error=RuntimeError("the raylet never registered"))
    run = run_tournament(config(tmp_path, "ray"), show_progress=False)
    assert slow.played == 2
    assert "the raylet never registered" in run.backend_error
    assert run.played == 2 and not run.complete
    assert read_results(tmp_path / "ray")["game_id"].nunique() == 2
