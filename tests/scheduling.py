"""How `pytest -n 2` shares the tests between its two workers: tests that share one costly start
run on one worker, one after the other, and the rest load-balance around them.

- The Ray tests (marked ``ray``): each starts a Ray cluster and spends much of its time waiting
  on it. Two clusters starting at once on two cores starve each other (and leave the cores half
  idle); one after the other on one worker, the other worker keeps the cores busy.
- The tests of the vector envs, the only users of the vector kernels: one worker compiles them,
  not both (numba's cache is per file; two workers compiling a kernel at once both pay).
- The contract of the tree search on each map: on two workers at once, both compiled its kernels
  (measured on a cold cache: some 170 s each on a loaded machine); on one, the second loads them.

xdist's own ``--dist loadgroup`` does this from ``xdist_group`` marks, but it renames the tests'
ids in a way pytest 9 no longer sees, so the groups never reach the scheduler. Here the workers
write each grouped test's id to a file the scheduler reads: the same load-by-scope scheduling,
whose scopes are the groups (each other test a scope of its own). Larger scopes go first, so
each group starts at once on a worker of its own. An explicit ``--dist`` is left as asked.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
BY_FILE = {"envs/test_vector_env.py": "vector_kernels", "envs/test_bench_env.py": "vector_kernels"}
# Tests of a file that compile one costly set of kernels: (file, a part of the test's id) -> group.
BY_TEST = {("strategies/test_contract.py", "[mcts_tree-"): "tree_kernels",
           ("strategies/test_contract.py", "[mcts_halving-"): "halving_kernels"}
_KEY = "ttr_lab_groups"  # the workers' input naming the file of groups


def group_of(item: pytest.Item) -> str | None:
    """The group a test runs in, or None (anywhere)."""
    if item.get_closest_marker("ray"):
        return "ray"
    path = Path(str(item.path))
    if not path.is_relative_to(TESTS):
        return None
    name = path.relative_to(TESTS).as_posix()
    return BY_FILE.get(name) or next((g for (f, part), g in BY_TEST.items() if f == name and part in item.nodeid), None)


def wants_groups(config: pytest.Config) -> bool:
    """`-n N` with no --dist of the caller's (xdist then balances the load test by test)."""
    chosen = any(a == "-d" or a.startswith("--dist") for a in config.invocation_params.args)
    return getattr(config.option, "dist", "no") == "load" and not chosen


def configure_node(node) -> None:
    config = node.config
    if wants_groups(config):
        if not hasattr(config, "_ttr_lab_groups"):
            config._ttr_lab_groups = os.path.join(tempfile.mkdtemp(prefix="ttr-lab-groups-"), "groups.json")
        node.workerinput[_KEY] = config._ttr_lab_groups


def record_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a worker: write the grouped tests' ids for the scheduler (before the worker reports its
    collection, which the scheduler waits for)."""
    target = getattr(config, "workerinput", {}).get(_KEY)
    if not target:
        return
    groups = {item.nodeid: g for item in items if (g := group_of(item))}
    tmp = f"{target}.{os.getpid()}"
    Path(tmp).write_text(json.dumps(groups))
    os.replace(tmp, target)  # both workers write the same ids: the last one wins, whole


def forget(config: pytest.Config) -> None:
    """On the controller, at the end: remove the file of groups and its folder."""
    target = getattr(config, "_ttr_lab_groups", None)
    if target:
        Path(target).unlink(missing_ok=True)
        os.rmdir(os.path.dirname(target))


def make_scheduler(config: pytest.Config, log):
    if not wants_groups(config) or not hasattr(config, "_ttr_lab_groups"):
        return None
    from xdist.scheduler import LoadScopeScheduling

    path = Path(config._ttr_lab_groups)

    class GroupScheduling(LoadScopeScheduling):
        _groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self._groups is None:
                self._groups = json.loads(path.read_text()) if path.is_file() else {}
            group = self._groups.get(nodeid)
            return f"group:{group}" if group else nodeid

    return GroupScheduling(config, log)
