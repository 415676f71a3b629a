import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _workers_import_test_strategies(monkeypatch):
    # Ray workers import strategies by path; the tests' own ones live in tests/.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])]))
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
