import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# A toy third game, in the tests only: registered here, it runs through every generic test (the
# game contract, the strategy contract, the environments) like a shipped game.
from toy_game import GAME as _TOY_GAME  # noqa: E402
from ttr_lab.core.game import register_game  # noqa: E402

register_game(_TOY_GAME.name, _TOY_GAME)

# CI replays the same examples every run (a red run must be reproducible); run with
# HYPOTHESIS_PROFILE=explore to search new seeds locally.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


TESTS = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _workers_import_test_strategies(monkeypatch):
    # Ray workers import strategies by path; the tests' own ones live in tests/.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])]))
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
