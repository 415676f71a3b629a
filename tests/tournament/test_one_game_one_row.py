"""One game, one row, whatever a results folder holds: a copy of a part, a part of another
tournament, a part of a longer run of this one, a part edited after it was written, or a part
an earlier ttr-lab merged with every game twice. Each case is read by every reader (the rows,
the tournament summary, the report's digest and report.md, ``compare``, a study's cell) before
and after the tournament's next run, which sets aside what is not counted, keeps it and merges
nothing twice."""

from __future__ import annotations

import hashlib
import io
import re
import shutil
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from rich.console import Console

from ttr_lab.analysis.compare import compare_folders
from ttr_lab.analysis.report import results_digest
from ttr_lab.analysis.tables import entrant_table
from ttr_lab.core.results import read_records, read_results
from ttr_lab.studies.cells import CellSummary
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config
from ttr_lab.tournament.summary import summary_of

ENTRANTS = [{"name": "g", "strategy": "greedy"}, {"name": "r", "strategy": "random"}]


def config(out: Path, games: int = 8, swapped: bool = False):
    entrants = [dict(e, strategy=o["strategy"]) for e, o in zip(ENTRANTS, ENTRANTS[::-1])] if swapped else ENTRANTS
    return parse_config({"name": "t", "players": 2, "games": games, "seed": 3, "backend": "serial",
                         "output": str(out), "entrants": entrants, "records": True}, "test")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """This tournament (8 games), the same deals with the strategies swapped, and a 16-game run
    of this tournament: each merged into one part, as a finished run leaves it."""
    base = tmp_path_factory.mktemp("runs")
    for name, c in {"clean": config(base / "clean"), "swapped": config(base / "swapped", swapped=True),
                    "longer": config(base / "longer", games=16)}.items():
        run_tournament(c, show_progress=False)
    return base


def _part(folder: Path) -> Path:
    (part,) = sorted((folder / "results").glob("*.parquet"))
    return part


# Each puts something in the folder ``out`` (a copy of this tournament's finished run) and
# returns the name of the part it put there.

def _copied(runs: Path, out: Path) -> str:
    part = _part(out)
    shutil.copy(part, part.with_name(part.stem + "-copy.parquet"))
    return part.stem + "-copy.parquet"


def _moved_in(source: Path, out: Path) -> str:
    """The part of another folder, with its records."""
    part = _part(source)
    shutil.copy(part, out / "results" / part.name)
    records = part.name.replace(".parquet", ".jsonl.gz")
    shutil.copy(source / "records" / records, out / "records" / records)
    return part.name


def _other_run(runs: Path, out: Path) -> str:
    return _moved_in(runs / "swapped", out)


def _longer_run(runs: Path, out: Path) -> str:
    return _moved_in(runs / "longer", out)


def _edited(runs: Path, out: Path) -> str:
    part = _part(out)
    table = pq.read_table(part)
    at = table.schema.get_field_index("score")
    pq.write_table(table.set_column(at, "score", pa.array([s + 100 for s in table.column("score").to_pylist()])),
                   part)
    return part.name


def _doubled_by_an_older_merge(runs: Path, out: Path) -> str:
    """What an earlier ttr-lab's merge made of a part and its copy: one part, every game twice,
    named without a checksum and carrying no run identity."""
    part = _part(out)
    table = pq.read_table(part).replace_schema_metadata(None)
    part.unlink()
    name = f"part-{time.time_ns()}-1-compact.parquet"
    pq.write_table(pa.concat_tables([table, table]), part.with_name(name))
    records = out / "records" / part.name.replace(".parquet", ".jsonl.gz")
    records.rename(records.with_name(name.replace(".parquet", ".jsonl.gz")))
    return name


# (what lands in the folder, games every reader counts before the next run and after it,
#  what the next run sets aside, what a reader says before it)
CASES = {
    "a copy of a part": (_copied, 8, 8, None, None),
    "a part of another tournament": (_other_run, 8, 8, "foreign", "holds games of another tournament"),
    "a part of a longer run of this tournament": (_longer_run, 16, 16, None, None),
    "a part whose score was edited": (_edited, 0, 8, "damaged", "does not match the checksum in its name"),
    "a part an older merge stored twice": (_doubled_by_an_older_merge, 8, 8, None, None),
}


def _counts(out: Path, runs: Path, game) -> dict[str, object]:
    """What each reader counts: games and rows, games per entrant, g's win rate."""
    frame = read_results(out)
    summary, _ = summary_of(out, game)
    digest = results_digest(out, game)
    cell = CellSummary.read(out)
    table = entrant_table(digest) if len(frame) else None  # report.md's games per entrant (and its verdict's)
    counts: dict[str, object] = {
        "rows": (frame["game_id"].nunique(), len(frame)),
        "summary": dict(zip(summary["entrant"], summary["games"])) if len(summary) else {},
        "report": dict(zip(table["entrant"], table["games"])) if table is not None else {},
        "study cell": (cell.games, dict(cell.rows)),
        # The records of the games counted, each once, of the same plays (who sat where).
        "records": sorted((r.game_id, r.entrants) for r in read_records(out)) == sorted(
            (g, tuple(rows.sort_values("seat")["entrant"])) for g, rows in frame.groupby("game_id")),
    }
    if len(frame):
        compared = compare_folders(runs / "clean", out)
        counts["compare"] = (compared.games, dict(zip(compared.wins["entrant"], compared.wins["b"])))
    return counts


def _expected(games: int) -> dict[str, object]:
    out: dict[str, object] = {
        "rows": (games, 2 * games),
        "summary": {"g": games, "r": games} if games else {},
        "report": {"g": games, "r": games} if games else {},
        "study cell": (games, {"g": games, "r": games} if games else {}),
        "records": True,
    }
    if games:
        out["compare"] = (8, {"g": 1.0, "r": 0.0})  # the games both hold: greedy wins each
    return out


@pytest.mark.parametrize("case", CASES)
def test_every_reader_counts_each_game_once_and_the_next_run_sets_aside_what_is_not_this_runs(
        tmp_path, runs, capsys, case):
    make, before, after, set_aside, said = CASES[case]
    out = tmp_path / "out"
    shutil.copytree(runs / "clean", out)
    c = config(out)
    game = c.load_game()
    part = make(runs, out)
    on_disk = sorted(p.name for p in (out / "results").iterdir())
    capsys.readouterr()

    assert _counts(out, runs, game) == _expected(before)
    lines = [line for line in capsys.readouterr().err.splitlines() if "is not counted" in line]
    if said:  # one line, once, naming the part, however many readers read the folder
        assert len(lines) == 1 and said in lines[0] and lines[0].endswith(f"sets it aside as {part}.{set_aside}")
        assert lines[0].startswith(f"results part {out / 'results' / part} is not counted: ")
    else:
        assert lines == []

    text = io.StringIO()
    run = run_tournament(c, console=Console(file=text, width=400), show_progress=False)
    assert run.played == (8 - before if before < 8 else 0)
    assert run.summary.set_index("entrant")["games"].to_dict() == {"g": after, "r": after}
    assert _counts(out, runs, game) == _expected(after)
    left = sorted(p.name for p in (out / "results").iterdir())
    if set_aside:  # renamed, kept, said in one line
        assert f"{part}.{set_aside}" in left and part in on_disk
        assert f"set aside results part {part} (kept as {part}.{set_aside}): " in text.getvalue()
    # Merged into one part, each game once: the next reader reads it so without any filtering.
    (merged,) = [n for n in left if n.endswith(".parquet")]
    table = pq.read_table(out / "results" / merged)
    assert table.num_rows == 2 * after and len(set(table.column("game_id").to_pylist())) == after


def _renamed_to_its_content(part: Path) -> Path:
    digest = hashlib.blake2b(part.read_bytes(), digest_size=8).hexdigest()
    named = part.with_name(f"part-{time.time_ns()}-1-{digest}-compact.parquet")
    part.rename(named)
    return named


def test_a_merged_part_names_its_content_and_its_run(tmp_path, runs):
    from ttr_lab.core.part_checks import RUN_KEY

    part = _part(runs / "clean")
    assert re.fullmatch(r"part-\d+-\d+-[0-9a-f]{16}-compact\.parquet", part.name)
    assert pq.read_schema(part).metadata[RUN_KEY] == config(runs / "clean").identity_hash().encode()
    # A part moved between folders of one tournament is still its own: the run, not the path.
    out = tmp_path / "out"
    shutil.copytree(runs / "clean", out)
    _renamed_to_its_content(_part(out))
    assert read_results(out)["game_id"].nunique() == 8


def test_a_folder_resumed_after_its_identity_was_recomputed_keeps_counting_its_own_parts(tmp_path, runs):
    """A folder whose stored identity an earlier ttr-lab computed otherwise (the store accepts it
    when its config, checked today, is the same tournament) keeps its parts stamped with it."""
    import json

    out = tmp_path / "out"
    shutil.copytree(runs / "clean", out)
    meta = json.loads((out / "meta.json").read_text())
    table = pq.read_table(_part(out))
    old = table.replace_schema_metadata({b"ttr_lab.run": b"0123456789abcdef"})
    _part(out).unlink()
    pq.write_table(old, out / "results" / "old.parquet")
    _renamed_to_its_content(out / "results" / "old.parquet")
    meta["identity_hash"] = "0123456789abcdef"
    (out / "meta.json").write_text(json.dumps(meta))
    run = run_tournament(config(out), show_progress=False)
    assert run.played == 0 and run.already_stored == 8
    assert json.loads((out / "meta.json").read_text())["earlier_identity_hashes"] == ["0123456789abcdef"]
    assert read_results(out)["game_id"].nunique() == 8
