"""The suite's own scheduling under `pytest -n 2` (scheduling.py): grouped tests are one unit of
work, so they run on one worker; every other test is a unit of its own."""

from __future__ import annotations

import json
from types import SimpleNamespace

import scheduling


class _Config(SimpleNamespace):
    def getvalue(self, name):
        return {"tx": ["2*popen"]}[name]


def _config(tmp_path, args=("-n", "2")):
    return _Config(option=SimpleNamespace(dist="load"), invocation_params=SimpleNamespace(args=args),
                   _ttr_lab_groups=str(tmp_path / "groups.json"))


def test_grouped_tests_share_one_scope_and_the_rest_stand_alone(tmp_path):
    config = _config(tmp_path)
    groups = {"tests/tournament/test_run.py::test_a": "ray", "tests/tuning/test_tune.py::test_b": "ray",
              "tests/envs/test_vector_env.py::test_c": "vector_kernels"}
    (tmp_path / "groups.json").write_text(json.dumps(groups))
    scheduler = scheduling.make_scheduler(config, None)
    scopes = {nodeid: scheduler._split_scope(nodeid) for nodeid in [*groups, "tests/test_play.py::test_d"]}
    assert scopes["tests/tournament/test_run.py::test_a"] == scopes["tests/tuning/test_tune.py::test_b"] == "group:ray"
    assert scopes["tests/envs/test_vector_env.py::test_c"] == "group:vector_kernels"
    assert scopes["tests/test_play.py::test_d"] == "tests/test_play.py::test_d"


def test_an_explicit_dist_or_no_workers_is_left_alone(tmp_path):
    assert scheduling.make_scheduler(_config(tmp_path, ("-n", "2", "--dist", "loadfile")), None) is None
    no_workers = _config(tmp_path)
    no_workers.option.dist = "no"
    assert scheduling.make_scheduler(no_workers, None) is None


class _Item(SimpleNamespace):
    def add_marker(self, mark):
        self.marks.append(mark.name)


def test_the_tests_on_the_shared_ray_run_in_a_row_marked_ray_and_it_stops_after_the_last(monkeypatch):
    import ray_sharing

    def item(name, shared):
        return _Item(name=name, fixturenames=["tmp_path", *(["shared_ray"] if shared else [])], marks=[])

    items = [item("a", False), item("b", True), item("c", False), item("d", True), item("e", False)]
    ray_sharing.order(items)
    assert [i.name for i in items] == ["a", "b", "d", "c", "e"]  # where the first of them was
    assert [i.name for i in items if i.marks == ["ray"]] == ["b", "d"]  # grouped with the Ray tests
    stops = []
    monkeypatch.setattr(ray_sharing, "SHARED", SimpleNamespace(stop=lambda: stops.append(True)))
    ray_sharing.after(items[1], items[2])  # the next one shares it too: it keeps running
    assert stops == []
    ray_sharing.after(items[2], items[3])
    assert stops == [True]
    ray_sharing.after(items[0], items[1])  # a test that does not use it stops nothing
    ray_sharing.after(items[2], None)  # the last test of the run
    assert stops == [True, True]


def test_the_tree_search_contract_on_each_map_is_one_group_and_its_other_strategies_are_not():
    def item(nodeid):
        return SimpleNamespace(path=scheduling.TESTS / "strategies" / "test_contract.py", nodeid=nodeid,
                               get_closest_marker=lambda name: None)

    ids = [f"tests/strategies/test_contract.py::test_shipped_strategy_passes_the_contract[{s}]"
           for s in ("mcts_tree-usa", "mcts_tree-legendary_asia", "mcts-usa")]
    assert [scheduling.group_of(item(i)) for i in ids] == ["tree_kernels", "tree_kernels", None]


def test_a_test_that_starts_a_local_ray_unmarked_fails_and_a_marked_one_or_another_process_s_ray_does_not(
        tmp_path, monkeypatch):
    import os

    import pytest
    import ray_sharing

    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path))
    (tmp_path / "ray" / "session_2026-01-01_00-00-00_000001_1").mkdir(parents=True)  # another process's Ray
    before = ray_sharing.sessions_started_here()
    assert before == set()

    def item(marked, shared=False):
        return SimpleNamespace(nodeid="tests/t.py::test_x", fixturenames=["shared_ray"] if shared else [],
                               get_closest_marker=lambda name: object() if marked and name == "ray" else None)

    ray_sharing.check_no_ray_started(item(marked=False), before)  # nothing started: passes
    (tmp_path / "ray" / f"session_2026-01-01_00-00-01_000002_{os.getpid()}").mkdir()  # a Ray of this process
    with pytest.raises(pytest.fail.Exception, match="started a local Ray .* without the `ray` marker"):
        ray_sharing.check_no_ray_started(item(marked=False), before)
    ray_sharing.check_no_ray_started(item(marked=True), before)
    ray_sharing.check_no_ray_started(item(marked=False, shared=True), before)
