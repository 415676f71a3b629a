import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

import scheduling  # noqa: E402
import ray_sharing  # noqa: E402

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


# Under `pytest -n 2`, the tests that share one costly start run on one worker (scheduling.py).
@pytest.hookimpl(optionalhook=True)  # xdist's hooks: absent under -p no:xdist
def pytest_configure_node(node):
    scheduling.configure_node(node)


@pytest.hookimpl(optionalhook=True, tryfirst=True)  # before xdist's own choice
def pytest_xdist_make_scheduler(config, log):
    return scheduling.make_scheduler(config, log)


def pytest_collection_modifyitems(config, items):
    ray_sharing.order(items)  # first: it marks its tests `ray`, which groups them
    scheduling.record_groups(config, items)


@pytest.fixture
def shared_ray(tmp_path_factory):
    """The local Ray the tests that only use Ray share (ray_sharing.py), running."""
    ray_sharing.SHARED.start(tmp_path_factory)
    return ray_sharing.SHARED


@pytest.fixture(autouse=True)
def _no_unmarked_ray(request):
    """A test that starts a local Ray says so (tests/ray_sharing.py): the suite's budget counts them."""
    before = ray_sharing.sessions_started_here()
    yield
    ray_sharing.check_no_ray_started(request.node, before)


@pytest.hookimpl(trylast=True)  # after the test's own teardown
def pytest_runtest_teardown(item, nextitem):
    ray_sharing.after(item, nextitem)


def pytest_sessionfinish(session):
    ray_sharing.SHARED.stop()  # a run stopped early (-x, Ctrl-C) leaves no Ray behind


def pytest_unconfigure(config):
    scheduling.forget(config)


@pytest.fixture(autouse=True)
def _workers_import_test_strategies(monkeypatch):
    # Ray workers import strategies by path; the tests' own ones live in tests/.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])]))
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
