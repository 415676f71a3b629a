"""An entrant whose constructor ran past the build time limit once forfeits its later games at
once, named, instead of waiting the limit again in each of them."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from ttr_lab.core.results import read_results
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config


@pytest.fixture
def log():
    folder = tempfile.mkdtemp()
    os.chmod(folder, 0o777)  # the config's check builds the strategy in a child of its own user, as root
    yield Path(folder) / "built"
    shutil.rmtree(folder, ignore_errors=True)


def test_after_one_build_timeout_the_entrant_forfeits_its_other_games_without_being_built_again(tmp_path, log):
    hangs = {"name": "h", "strategy": "tests_support_hostile:HangsWhenBuiltForAGame", "params": {"log": str(log)}}
    config = parse_config({"name": "t", "players": 2, "games": 6, "seed": 5, "backend": "serial", "isolation": "none",
                           "output": str(tmp_path / "out"), "build_time_limit": 0.5,
                           "entrants": [hangs, {"name": "r", "strategy": "random"}]}, "test")
    builds = len(log.read_text().splitlines())  # the config's check: it returned
    run = run_tournament(config, show_progress=False)
    assert run.complete and run.played == 6
    # Built once more by the driver's compile-ahead and once by the worker's warm-up, both cut at
    # the limit; then never again, whatever the number of games (before: once more per game).
    assert len(log.read_text().splitlines()) - builds <= 2
    rows = read_results(tmp_path / "out")
    lost = rows.query("forfeit")
    assert sorted(lost["game_id"]) == sorted(rows["game_id"].unique()) and set(lost["entrant"]) == {"h"}  # once each
    assert lost["error"].str.contains("(h) could not be built: ", regex=False).all()
    assert lost["error"].str.contains("not built again, its games forfeit at once", regex=False).any()
    assert lost["error"].str.contains("was not built within 0.5 s", regex=False).all(), lost["error"].tolist()
    assert run.errors["error"].str.contains("not built again", regex=False).all()  # the run's forfeit lines
