"""The workers store what they play; the driver only counts: each batch's task writes its own
part under a name derived from its games and bytes, hands back a manifest, and nothing is lost
or counted twice when a task is retried or duplicated, a part is half-written, a worker writes
where the driver cannot see, a node dies mid-run, or the results live on an S3 server."""

from __future__ import annotations

import os
import re
import socket

import pandas as pd
import pytest

from ttr_lab.core.results import read_records, read_results, result_parts
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config

TIMING = ["think_seconds", "think_cpu_seconds"]


def config(out, **changes):
    data = {"name": "w", "players": 2, "games": 6, "seed": 11, "backend": "serial", "output": str(out),
            "entrants": [{"name": "g", "strategy": "greedy"}, {"name": "r", "strategy": "random"}]}
    data.update(changes)
    return parse_config(data, "test")


def untimed(frame):
    return frame.drop(columns=TIMING).reset_index(drop=True)


def test_the_driver_stores_no_row_itself_and_parts_are_named_by_games_and_content(tmp_path, monkeypatch):
    from ttr_lab.tournament import backends
    from ttr_lab.tournament.store import ResultStore

    def driver_storing(self, rows, records=()):
        raise AssertionError("the driver stored a batch's rows itself")

    monkeypatch.setattr(ResultStore, "append", driver_storing)
    monkeypatch.setattr(backends, "TARGET_BATCH_SECONDS", 1e-9)  # a part per game, none merged
    monkeypatch.setattr(backends.SerialBackend, "compact", lambda *args, **kwargs: None)
    monkeypatch.setattr(ResultStore, "compact", lambda *args, **kwargs: 0)
    c = config(tmp_path / "out", records=True)
    run = run_tournament(c, show_progress=False)
    assert run.complete and run.played == 6 and run.worker_cpu_seconds > 0
    names = [os.path.basename(p) for p in result_parts(c.output)]
    assert len(names) == 6 and all(re.fullmatch(r"part-[0-9a-f]{16}-[0-9a-f]{16}\.parquet", n) for n in names), names
    assert sorted(r.game_id for r in read_records(c.output)) == sorted(read_results(c.output)["game_id"].unique())


def test_a_retried_or_duplicated_task_and_a_half_written_part_count_nothing_twice(tmp_path):
    from ttr_lab.tournament.backends import _timed_batch
    from ttr_lab.tournament.design import plan_games
    from ttr_lab.tournament.store import ResultStore

    clean = config(tmp_path / "clean")
    run_tournament(clean, show_progress=False)
    c = config(tmp_path / "out", records=True)
    game, entrants = c.load_game(), [c.entrant(i) for i in range(2)]
    specs = list(plan_games(c))
    store = ResultStore(c.output, c, game)
    try:
        # The same batch played by a task, its retry (after its worker died having written the
        # part) and a duplicate of it: three parts, or one when their bytes are the same.
        manifests = [_timed_batch(game, entrants, specs[:3], None, True, "none", None, store.uri)[0] for _ in range(3)]
        assert all(m.games == 3 and m.rows == 6 for m in manifests)
        assert len({m.games_digest for m in manifests}) == 1
        for m in manifests:
            store.register(m, [s.game_id for s in specs[:3]])
        # A worker killed while writing the next batch's part.
        (tmp_path / "out" / "results" / "part-0-0.parquet.tmp").write_bytes(b"PAR1 half")
    finally:
        store.close()
    assert read_results(c.output)["game_id"].nunique() == 3 and len(read_results(c.output)) == 6
    run = run_tournament(c, show_progress=False)  # resumes: the three games are not played again
    assert run.complete and run.already_stored == 3 and run.played == 3
    assert not list((tmp_path / "out" / "results").glob("*.tmp"))
    assert untimed(read_results(c.output)).equals(untimed(read_results(clean.output)))
    assert sorted(r.game_id for r in read_records(c.output)) == sorted(read_results(c.output)["game_id"].unique())


def test_a_manifest_of_another_batch_or_a_part_the_driver_cannot_see_stops_the_run_and_loses_nothing(tmp_path, monkeypatch):
    from ttr_lab.tournament import backends

    real = backends._timed_batch

    def elsewhere(game, entrants, specs, limit, records, isolation="none", build_limit=None, sink=None):
        # A worker writing to a folder of its own machine, not the shared one.
        return real(game, entrants, specs, limit, records, isolation, build_limit, str(tmp_path / "not-shared"))

    monkeypatch.setattr(backends, "_timed_batch", elsewhere)
    c = config(tmp_path / "out")
    run = run_tournament(c, show_progress=False)
    assert not run.complete and run.played == 0
    assert "is not in" in run.backend_error and "same results location" in run.backend_error
    monkeypatch.undo()
    run = run_tournament(c, show_progress=False)
    assert run.complete and run.played == 6


def test_batches_are_sized_from_recent_cost_not_from_a_workers_warm_up():
    from ttr_lab.tournament.backends import SIZED_FROM, TARGET_BATCH_SECONDS, Batch, _Sizer

    sizer = _Sizer()
    sizer.observe(Batch([None], [], [], 5.0, cpu_seconds=5.0))  # the first game paid seconds of compiling
    for _ in range(SIZED_FROM):
        sizer.observe(Batch([None] * 10, [], [], 0.002, cpu_seconds=0.002))  # then games of 0.2 ms
    assert sizer.size() >= 0.5 * TARGET_BATCH_SECONDS / 0.0002  # thousands of games a batch, not one
    slow = _Sizer()
    for _ in range(SIZED_FROM):
        slow.observe(Batch([None] * 2, [], [], 4.0, cpu_seconds=4.0))  # 2 s a game: one game a task, spread
    assert slow.size() == 1
    # On a loaded machine a game of 0.25 s of CPU takes 1 s: sized by its CPU, not its wall-clock.
    loaded = _Sizer()
    for _ in range(SIZED_FROM):
        loaded.observe(Batch([None] * 2, [], [], 2.0, cpu_seconds=0.5))
    assert loaded.size() == int(TARGET_BATCH_SECONDS / 0.25)
    waiting = _Sizer()  # games that mostly wait: a quarter of their wall-clock time counts
    for _ in range(SIZED_FROM):
        waiting.observe(Batch([None] * 2, [], [], 8.0, cpu_seconds=0.01))
    assert waiting.size() == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def s3_server(monkeypatch):
    """A real S3-compatible HTTP server (moto's), on loopback, with one empty bucket."""
    server_module = pytest.importorskip("moto.server", reason="moto's S3 server is not installed (pip install 'moto[server]', in the test extra)")
    import pyarrow.fs as pafs

    port = _free_port()
    server = server_module.ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    for key, value in {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1",
                       "AWS_EC2_METADATA_DISABLED": "true"}.items():
        monkeypatch.setenv(key, value)
    try:
        pafs.S3FileSystem(endpoint_override=f"127.0.0.1:{port}", scheme="http", region="us-east-1",
                          allow_bucket_creation=True).create_dir("ttr")
        yield f"endpoint_override=127.0.0.1%3A{port}&scheme=http&region=us-east-1"
    finally:
        server.stop()


def test_results_on_an_s3_server_are_stored_resumed_and_read_like_a_folder(tmp_path, s3_server):
    uri = f"s3://ttr/runs/w?{s3_server}"
    clean = config(tmp_path / "clean", records=True)
    run_tournament(clean, show_progress=False)
    c = config(uri, records=True, games=4)
    assert run_tournament(c, show_progress=False).played == 4
    run = run_tournament(config(uri, records=True), show_progress=False)  # resumes on the server
    assert run.complete and run.already_stored == 4 and run.played == 2 and run.folder == uri
    assert untimed(read_results(uri)).equals(untimed(read_results(clean.output)))
    assert sorted(r.game_id for r in read_records(uri)) == sorted(r.game_id for r in read_records(clean.output))
    assert run_tournament(config(uri, records=True), show_progress=False).played == 0


def test_the_report_of_results_on_an_s3_server_is_written_beside_them(tmp_path, s3_server):
    from ttr_lab.analysis.report import build_report
    from ttr_lab.core.location import Location

    uri = f"s3://ttr/runs/r?{s3_server}"
    run_tournament(config(uri, records=True, games=4), show_progress=False)
    assert build_report(uri, quiet=True) == "s3://ttr/runs/r/report.md"
    location = Location(uri)
    text = location.read_bytes("report.md").decode()
    assert "# Report: w" in text and "4 games of" in text
    assert location.read_bytes("report.html").startswith(b"<!doctype html>")
    assert location.read_bytes("report", "win_rates.png")[:4] == b"\x89PNG" and location.exists("report", "win_rates.svg")
    assert not location.files("", ".tmp") and not location.files("report", ".tmp")


@pytest.mark.ray
def test_a_node_killed_mid_run_on_a_multi_node_cluster_loses_and_doubles_nothing(tmp_path):
    import ray
    from ray.cluster_utils import Cluster

    clean = config(tmp_path / "clean", games=16)
    run_tournament(clean, show_progress=False)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})  # the driver's node plays nothing
    doomed = cluster.add_node(num_cpus=1)
    cluster.add_node(num_cpus=1)
    killed = []

    def kill_a_node(specs):
        if not killed:  # after the first stored batch: the node's task in flight is lost with it
            cluster.remove_node(doomed, allow_graceful=False)
            killed.append(len(specs))

    try:
        ray.init(address=cluster.address, log_to_driver=False)
        c = config(tmp_path / "out", games=16, backend="ray", workers=2)
        run = run_tournament(c, show_progress=False, on_batch=kill_a_node)
    finally:
        ray.shutdown()
        cluster.shutdown()
    assert killed
    stored = read_results(c.output)
    assert stored["game_id"].nunique() == 16 and len(stored) == 32
    pd.testing.assert_frame_equal(untimed(stored), untimed(read_results(clean.output)))
    assert run.worker_cpu_seconds > 0  # the workers, not the driver, stored the games


def test_games_a_worker_stored_before_the_backend_failed_are_counted_as_stored(tmp_path, monkeypatch):
    """A Ray that dies under a run leaves parts its workers wrote that the driver never heard of:
    the run's stored count (its last line) is the folder's, as every reader counts it."""
    from ttr_lab.tournament import backends

    real = backends._timed_batch

    def dies_after_writing(*args, **kwargs):
        real(*args, **kwargs)
        raise RuntimeError("the raylet died")

    monkeypatch.setattr(backends, "_timed_batch", dies_after_writing)
    c = config(tmp_path / "out")
    run = run_tournament(c, show_progress=False)
    assert not run.complete and run.played == 0 and "the raylet died" in run.backend_error
    written = read_results(c.output)["game_id"].nunique()
    assert written > 0 and run.stored == written
    monkeypatch.undo()
    again = run_tournament(c, show_progress=False)
    assert again.already_stored == written and again.stored == 6
