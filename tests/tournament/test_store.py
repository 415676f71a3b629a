"""The results folder: one writer at a time (a lock that a kill -9 cannot leave stuck), reads
that count every game once whatever is on disk, damaged parts named and replayed, and folders
that are not ttr-lab's left alone."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.results import ResultsError, read_results
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config
from ttr_lab.tournament.lock import FolderLock

TIMING = ["think_seconds", "think_cpu_seconds"]  # the only columns a replay of the same games changes

ROOT = Path(__file__).resolve().parents[2]


def config(out, **changes):
    data = {"name": "t", "players": 2, "games": 4, "seed": 3, "backend": "serial", "output": str(out),
            "entrants": [{"name": "g", "strategy": "greedy"}, {"name": "r", "strategy": "random"}]}
    data.update(changes)
    return parse_config(data, "test")


def _hold_lock(folder: Path) -> subprocess.Popen:
    """Another process holding the folder's lock, until killed."""
    code = textwrap.dedent(f"""
        import sys, time
        from ttr_lab.tournament.lock import FolderLock
        FolderLock({str(folder)!r}, "a test holder").acquire()
        print("locked", flush=True)
        time.sleep(600)
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.stdout.readline().strip() == "locked"
    return proc


def test_a_second_run_is_refused_while_the_first_holds_the_folder_and_a_killed_holder_leaves_no_stale_lock(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    holder = _hold_lock(out)
    try:
        with pytest.raises(ConfigError, match=rf"in use by another run \(a test holder, pid {holder.pid} on "):
            run_tournament(config(out), show_progress=False)
        assert not (out / "results").exists()  # refused before touching anything
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    run = run_tournament(config(out), show_progress=False)  # the dead holder's lock is taken over
    assert run.complete and run.played == 4
    FolderLock(out, "after").acquire().release()  # and the finished run let go of it


def test_the_cli_refuses_a_second_concurrent_run_in_one_line(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    path = tmp_path / "cfg.yaml"
    path.write_text("name: t\nplayers: 2\ngames: 2\nbackend: serial\nentrants: [{name: g, strategy: greedy}, "
                    "{name: r, strategy: random}]\n")
    holder = _hold_lock(out)
    try:
        done = subprocess.run([sys.executable, "-m", "ttr_lab.cli", "tournament", str(path), "--out", str(out),
                               "--no-progress"], cwd=ROOT, capture_output=True, text=True)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "is in use by another run" in done.stderr


def test_reads_count_each_game_once_whatever_is_on_disk(tmp_path):
    c = config(tmp_path / "out")
    run_tournament(c, show_progress=False)
    once = read_results(c.output)
    assert len(once) == 8 and once["game_id"].nunique() == 4
    parts = sorted((tmp_path / "out" / "results").glob("*.parquet"))
    # The same part twice (a copy), and a part that disagrees about a game (a racing run, a
    # task retried after it wrote): parts of this run, named after their content.
    shutil.copy(parts[0], parts[0].with_name("copy.parquet"))
    _named_after_its_content(parts[0].with_name("copy.parquet"), "f" * 16)
    table = pq.read_table(parts[-1])
    import pyarrow as pa

    flipped = table.set_column(table.schema.get_field_index("win"), "win",
                               pa.array(1.0 - table.column("win").to_numpy()))
    pq.write_table(flipped, parts[-1].with_name("racer.parquet"))
    _named_after_its_content(parts[-1].with_name("racer.parquet"), "f" * 16)
    twice = read_results(c.output)
    assert len(twice) == 8 and twice["game_id"].nunique() == 4
    assert twice.groupby("game_id")["win"].sum().round(9).eq(1).all()  # never mixed from two plays
    assert twice.drop(columns=TIMING).equals(once.drop(columns=TIMING))


def test_a_damaged_part_is_named_by_reads_and_set_aside_and_replayed_on_resume(tmp_path):
    c = config(tmp_path / "out")
    run_tournament(c, show_progress=False)
    whole = read_results(c.output)
    part = sorted((tmp_path / "out" / "results").glob("*.parquet"))[0]
    lost = set(pq.read_table(part).column("game_id").to_pylist())
    part.write_bytes(part.read_bytes()[:100])  # truncated
    with pytest.raises(ResultsError, match=rf"results part .*{part.name} is damaged"):
        read_results(c.output)
    run = run_tournament(c, show_progress=False)
    assert run.played == len(lost) and run.complete
    assert part.with_name(part.name + ".damaged").exists()  # kept, not deleted
    again = read_results(c.output)
    assert again.drop(columns=TIMING).equals(whole.drop(columns=TIMING))


@pytest.mark.parametrize("files", [{"config.yaml": "mine: true\n"}, {"report.md": "# my notes\n"},
                                   {"notes/plan.txt": "x"}])
def test_a_folder_that_is_not_a_results_folder_is_refused_and_left_untouched(tmp_path, files):
    out = tmp_path / "mine"
    for name, text in files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    before = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    with pytest.raises(ConfigError, match="is not empty and is not a ttr-lab results folder"):
        run_tournament(config(out), show_progress=False)
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == before
    for name, text in files.items():
        assert (out / name).read_text() == text


def test_output_that_is_a_file_or_foreign_meta_is_refused(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(ConfigError, match="is a file, not a folder"):
        run_tournament(config(tmp_path / "file"), show_progress=False)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "meta.json").write_text('{"kind": "something else"}')
    with pytest.raises(ConfigError, match="names no tournament"):
        run_tournament(config(tmp_path / "other"), show_progress=False)


def test_parts_are_compacted_on_finish_and_resume_and_an_interrupted_compaction_loses_and_doubles_nothing(tmp_path):
    from ttr_lab.core.results import read_records, result_parts
    from ttr_lab.tournament.store import ResultStore

    c = config(tmp_path / "out", games=12, records=True)
    run_tournament(c, show_progress=False)
    assert len(result_parts(c.output)) == 1 and len(list((tmp_path / "out" / "records").glob("*.jsonl.gz"))) == 1
    more = config(tmp_path / "out", games=24, records=True)
    run_tournament(more, show_progress=False)  # new parts, merged with the first on finish
    assert len(result_parts(c.output)) == 1
    whole, records = read_results(c.output), read_records(c.output)
    assert whole["game_id"].nunique() == 24 and len(whole) == 48
    assert sorted(r.game_id for r in records) == sorted(whole["game_id"].unique())
    # A compaction killed after its merged part landed, before it deleted the sources.
    results, recs = tmp_path / "out" / "results", tmp_path / "out" / "records"
    saved = [(p, p.read_bytes()) for p in [*results.iterdir(), *recs.iterdir()]]
    store = ResultStore(c.output, more, more.load_game())
    try:
        extra = tmp_path / "extra"
        extra.mkdir()
        for p, data in saved:  # a second copy of everything, as if not yet merged
            (p.parent / p.name.replace(".", "-copy.", 1)).write_bytes(data)
        assert store.compact() == 2
        for p, data in saved:
            p.write_bytes(data)  # the sources, still there
    finally:
        store.close()
    assert read_results(c.output).drop(columns=TIMING).equals(whole.drop(columns=TIMING))
    assert sorted(r.game_id for r in read_records(c.output)) == sorted(r.game_id for r in records)
    assert run_tournament(more, show_progress=False).played == 0  # and a resume merges them again
    assert len(result_parts(c.output)) == 1


def test_fewer_games_on_resume_says_the_summary_counts_every_stored_game(tmp_path):
    import io

    from rich.console import Console

    run_tournament(config(tmp_path / "out", games=8), show_progress=False)
    text = io.StringIO()
    run = run_tournament(config(tmp_path / "out", games=4), console=Console(file=text, width=300), show_progress=False)
    assert run.played == 0 and run.summary["games"].sum() == 16  # 8 games x 2 seats
    assert "already holds 4 games beyond the 4 asked for" in text.getvalue()


def test_a_backend_failing_or_interrupted_at_shutdown_still_gives_the_summary(tmp_path, monkeypatch):
    from ttr_lab.tournament.backends import SerialBackend

    def broken(self):
        raise RuntimeError("raylet gone")

    monkeypatch.setattr(SerialBackend, "close", broken)
    run = run_tournament(config(tmp_path / "a"), show_progress=False)
    assert run.played == 4 and len(run.summary) == 2 and not run.interrupted

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(SerialBackend, "close", interrupted)
    run = run_tournament(config(tmp_path / "b"), show_progress=False)
    assert run.played == 4 and len(run.summary) == 2 and run.interrupted


def test_a_long_run_merges_its_batches_parts_as_it_goes(tmp_path, monkeypatch):
    import ttr_lab.tournament.store as store_module
    from ttr_lab.core.results import result_parts

    import ttr_lab.tournament.backends as backends

    monkeypatch.setattr(store_module, "COMPACT_EVERY", 3)
    monkeypatch.setattr(backends, "TARGET_BATCH_SECONDS", 1e-9)  # one game per batch
    seen = []
    real = store_module.ResultStore.register

    def spy(self, manifest, game_ids):
        due = real(self, manifest, game_ids)
        seen.append(len(result_parts(self.folder)))
        return due

    monkeypatch.setattr(store_module.ResultStore, "register", spy)
    c = config(tmp_path / "out", games=40)
    run_tournament(c, show_progress=False)
    assert len(seen) == 40
    # At any time: one merged part per 3 batches so far, and at most 3 fresh ones.
    assert all(parts <= (i + 1) // 3 + 3 for i, parts in enumerate(seen)) and max(seen) < 20
    assert read_results(c.output)["game_id"].nunique() == 40 and len(result_parts(c.output)) == 1


def _played_rows(c):
    """The rows of the config's games as the worker builds them, and the game."""
    from ttr_lab.tournament.design import plan_games
    from ttr_lab.tournament.worker import play_batch

    game = c.load_game()
    rows, _ = play_batch(game, [c.entrant(i) for i in range(len(c.entrants))], list(plan_games(c))[:1], None, False)
    return rows, game


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(think_second=r.pop("think_seconds")), r"missing think_seconds; unknown think_second"),
    (lambda r: r.pop("tickets_completed"), r"missing tickets_completed$"),
    (lambda r: r.update(mood=1), r"unknown mood$"),
])
def test_a_row_with_a_missing_or_unknown_column_is_refused_naming_it_and_nothing_is_stored(tmp_path, change, message):
    from ttr_lab.tournament.store import ResultStore

    c = config(tmp_path / "out")
    rows, game = _played_rows(c)
    change(rows[1])
    store = ResultStore(c.output, c, game)
    try:
        with pytest.raises(ResultsError, match=rf"result row of game d0-t0-s0 seat 1 does not match the results table: {message}"):
            store.append(rows)
    finally:
        store.close()
    assert read_results(c.output).empty  # refused whole, before any part is written


def test_a_result_row_is_one_declared_dataclass_with_the_games_metrics():
    from dataclasses import fields

    from ttr_lab.core.outcome import Metric
    from ttr_lab.core.results import FIXED_NAMES, ResultRow, rows_table, schema

    assert FIXED_NAMES == tuple(f.name for f in fields(ResultRow) if f.name != "metrics")
    assert "think_cpu_seconds" in FIXED_NAMES
    metrics = [Metric("trains", "trains left")]
    text = {"game_id", "game", "variant", "entrant", "strategy", "params", "params_hash", "termination", "error"}
    values = {name: "x" if name in text else 0 for name in FIXED_NAMES} | {"forfeit": False}
    row = ResultRow(**{**values, "metrics": {"trains": 3}})
    assert rows_table([row], schema(metrics)).to_pylist()[0]["trains"] == 3
    assert rows_table([ResultRow(**values)], schema(metrics)).to_pylist()[0]["trains"] is None  # a forfeit has none
    with pytest.raises(ResultsError, match=r"metric\(s\) wagons are not among the game's declared metrics \(trains\)"):
        rows_table([ResultRow(**{**values, "metrics": {"wagons": 3}})], schema(metrics))


def test_an_old_folder_whose_identity_hashed_the_parameters_as_written_resumes(tmp_path):
    """Folders written before an entrant's identity was its validated parameters stored another
    hash for the same games: their own config, checked today, says they are the same."""
    import json

    import yaml

    c = config(tmp_path / "out", entrants=[{"name": "g", "strategy": "greedy", "params": {"ticket_bonus": 3}},
                                           {"name": "r", "strategy": "random"}])
    run_tournament(c, show_progress=False)
    meta_file, config_file = tmp_path / "out" / "meta.json", tmp_path / "out" / "config.yaml"
    meta = json.loads(meta_file.read_text())
    meta["identity_hash"] = "0123456789abcdef"  # as an earlier ttr-lab hashed {ticket_bonus: 3}
    meta_file.write_text(json.dumps(meta))
    saved = yaml.safe_load(config_file.read_text())
    saved["entrants"][0]["params"] = {"ticket_bonus": 3}  # as written then
    config_file.write_text(yaml.safe_dump(saved))
    run = run_tournament(config(tmp_path / "out"), show_progress=False)  # {} : the same entrant
    assert run.already_stored == 4 and run.played == 0
    meta_file.write_text(json.dumps(meta))
    with pytest.raises(ConfigError, match=r"holds a different tournament"):
        run_tournament(config(tmp_path / "out", seed=4), show_progress=False)


def _untimed(frame):
    return frame.drop(columns=["think_seconds", "think_cpu_seconds"], errors="ignore")


def test_a_full_disk_stops_the_run_in_one_line_and_the_rerun_matches_a_clean_run(tmp_path, monkeypatch):
    import errno

    from ttr_lab.core.errors import TTRLabError

    clean = config(tmp_path / "clean", games=8)
    run_tournament(clean, show_progress=False)
    from ttr_lab.core.location import Location

    c = config(tmp_path / "out", games=8)
    written = []
    real = Location.write_whole

    def fills_up(self, sub, name, data):
        if sub == "results" and len(written) == 2:  # the third part finds the disk full
            raise OSError(errno.ENOSPC, "No space left on device")
        written.extend([name] if sub == "results" else [])
        return real(self, sub, name, data)

    monkeypatch.setattr(Location, "write_whole", fills_up)
    with pytest.raises(TTRLabError, match=r"cannot write results into .*out: No space left on device; every game "
                                          "stored before is intact"):
        run_tournament(c, show_progress=False)
    monkeypatch.setattr(Location, "write_whole", real)
    assert read_results(c.output)["game_id"].nunique() == 2  # the two parts written before
    run = run_tournament(c, show_progress=False)
    assert run.complete and run.already_stored == 2 and run.played == 6
    assert _untimed(read_results(c.output)).equals(_untimed(read_results(clean.output)))


@pytest.mark.parametrize("where", ["results", "records"])
def test_results_without_meta_json_are_not_adopted(tmp_path, where):
    source = config(tmp_path / "theirs", records=True)
    run_tournament(source, show_progress=False)
    out = tmp_path / "copy"
    shutil.copytree(tmp_path / "theirs" / where, out / where)  # copied from another tournament
    before = sorted(str(p.relative_to(out)) for p in out.rglob("*"))
    with pytest.raises(ConfigError, match=rf"holds {where}/ but no meta.json, so nothing proves those games are this"):
        run_tournament(config(out), show_progress=False)
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == before


def test_a_run_killed_before_its_first_result_is_resumed_as_a_clean_run(tmp_path):
    clean = config(tmp_path / "clean")
    run_tournament(clean, show_progress=False)
    out = tmp_path / "out"
    (out / "results").mkdir(parents=True)  # what a run killed while starting leaves
    (out / "results" / "part-1.parquet.tmp").write_bytes(b"half")
    (out / "meta.json.tmp").write_text("{")
    run = run_tournament(config(out), show_progress=False)
    assert run.complete and run.played == 4
    assert _untimed(read_results(out)).equals(_untimed(read_results(clean.output)))


def _named_after_its_content(path, games="0" * 16):
    """The part at ``path`` renamed as ttr-lab names a batch's part: after its bytes."""
    import hashlib

    named = path.with_name(f"part-{games}-{hashlib.blake2b(path.read_bytes(), digest_size=8).hexdigest()}.parquet")
    path.rename(named)
    return named


def test_a_part_with_forged_key_types_is_named_and_set_aside_on_resume(tmp_path):
    import pyarrow as pa

    c = config(tmp_path / "out")
    run_tournament(c, show_progress=False)
    whole = read_results(c.output)
    part = sorted((tmp_path / "out" / "results").glob("*.parquet"))[0]
    table = pq.read_table(part)
    seat = table.schema.get_field_index("seat")
    forged = table.set_column(seat, "seat", pa.array([str(v) for v in table.column("seat").to_pylist()]))
    pq.write_table(forged, part.with_name("forged.parquet"))  # the same games, the seat column as text
    part.unlink()
    part = _named_after_its_content(part.with_name("forged.parquet"))  # a checksum anyone can compute
    with pytest.raises(ResultsError, match=r"its seat column is string, not int64"):
        read_results(c.output)
    run = run_tournament(c, show_progress=False)
    assert run.complete and run.played == len(set(table.column("game_id").to_pylist()))
    assert part.with_name(part.name + ".damaged").exists()
    assert _untimed(read_results(c.output)).equals(_untimed(whole))


def test_a_backend_lost_under_the_run_keeps_the_summary_and_the_rerun_matches_a_clean_run(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from ttr_lab.cli import app
    from ttr_lab.tournament import backends, runner

    class LosesRay(backends.SerialBackend):
        name = "ray"

        def run(self, *args, **kwargs):
            batches = super().run(*args, **kwargs)
            yield next(batches)  # one batch stored, then the raylet is killed
            raise RuntimeError("\x1b[31mThe actor died unexpectedly before finishing this task.\n  class_name: x\x1b[0m")

    monkeypatch.setattr(runner, "make_backend", lambda *args: LosesRay())
    path = tmp_path / "cfg.yaml"
    path.write_text("name: t\nplayers: 2\ngames: 4\nseed: 3\nbackend: serial\nentrants: [{name: g, strategy: greedy}, "
                    "{name: r, strategy: random}]\n")
    result = CliRunner().invoke(app, ["tournament", str(path), "--out", str(tmp_path / "out"), "--no-report",
                                      "--no-progress"], terminal_width=200)
    assert result.exit_code == 1, (result.output, result.exception)
    said = " ".join(result.output.split())  # the console wraps long lines
    assert "ray failed under the run (RuntimeError: The actor died unexpectedly before finishing this task.): every " \
           "stored game is intact; rerun to play the rest" in said, said
    assert "results:" in result.output and "\x1b" not in result.output  # the summary, and no raw escape codes
    monkeypatch.undo()
    run = run_tournament(config(tmp_path / "out"), show_progress=False)
    assert run.complete and run.already_stored == 1 and run.played == 3
    run_tournament(config(tmp_path / "clean"), show_progress=False)
    assert _untimed(read_results(tmp_path / "out")).equals(_untimed(read_results(tmp_path / "clean")))
