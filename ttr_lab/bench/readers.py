"""``ttr-lab bench readers``: the peak memory and time of the readers of a large results set:
the report's tables, ``compare``, a study's tables and the end-of-run summary, each in a
process of its own (its peak resident memory is the kernel's count for that process alone).

The results set is synthetic, written once into a folder (``--folder``, kept for the next run):
a four-player game of the house game, four entrants at one table under every cyclic seating,
scores and metrics drawn at random (an entrant's skill shifts its score, so the tables have
something to tell), written straight from numpy arrays, a part of ``PART_GAMES`` games at a
time, in the schema a tournament writes. Its study is two cells: the set itself (the baseline)
and the same folder again under a second key, so a study of N games reads 2N.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from ttr_lab.bench.results import BenchResult, FigureTable, Item

PART_GAMES = 250_000  # games per synthetic part (a million rows), as a long run's merged parts
ENTRANTS = ("alpha", "bravo", "charlie", "delta")
SKILL = (3.0, 1.0, 0.0, -2.0)  # points added to each entrant's score: a clear order, not a landslide
READERS = ("summary", "report tables", "report", "compare", "study tables")


def synthesize(folder: str | Path, games: int, seed: int = 1, game_name: str | None = None) -> Path:
    """A results folder of ``games`` synthetic four-player games at ``folder`` (written once: a
    folder already holding that many is kept). Vectorised: a million games take seconds."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from ttr_lab.core.game import default_game, load_game
    from ttr_lab.core.results import schema

    folder = Path(folder)
    done = folder / "synthetic.json"
    if done.is_file() and json.loads(done.read_text()).get("games") == games:
        return folder
    game = load_game(game_name or default_game())
    table_schema = schema(game.metrics)
    (folder / "results").mkdir(parents=True, exist_ok=True)
    for old in (folder / "results").glob("*.parquet"):
        old.unlink()
    rng = np.random.default_rng(seed)
    players = len(ENTRANTS)
    for start in range(0, games, PART_GAMES):
        n = min(PART_GAMES, games - start)
        g = np.arange(start, start + n, dtype=np.int64)
        deal, seating = g // players, g % players
        rows = n * players
        seat = np.tile(np.arange(players, dtype=np.int64), n)
        entrant = (seat + np.repeat(seating, players)) % players
        skill = np.asarray(SKILL)[entrant]
        columns: dict[str, Any] = {}
        for m in game.metrics:
            if m.kind == "ints":
                columns[m.name] = pa.nulls(rows, pa.list_(pa.int64()))
            elif m.kind == "float":
                columns[m.name] = rng.random(rows) * 3
            elif m.kind == "bool":
                columns[m.name] = rng.random(rows) < 0.5
            else:
                columns[m.name] = rng.integers(0, 40, rows)
        score = (rng.normal(100, 20, rows) + 5 * skill).round()
        by_game = score.reshape(n, players)
        # Rank: 1 + how many seats scored more (ties share a rank); the win shared by the tied best.
        rank = 1 + (by_game[:, None, :] > by_game[:, :, None]).sum(axis=2)
        first = rank == 1
        win = (first / first.sum(axis=1, keepdims=True)).ravel()
        game_ids = pc.binary_join_element_wise(
            "d", pc.cast(pa.array(np.repeat(deal, players)), pa.string()),
            "-t0-s", pc.cast(pa.array(np.repeat(seating, players)), pa.string()), "")
        turns = np.repeat(rng.integers(30, 60, n), players)
        decisions = turns // players + rng.integers(0, 3, rows)
        think = decisions * rng.random(rows) * 1e-3
        fixed = {
            "game_id": game_ids, "deal": np.repeat(deal, players), "deal_seed": np.repeat(deal, players).astype(np.uint64),
            "table": np.zeros(rows, dtype=np.int64), "seating": np.repeat(seating, players),
            "game": pa.array(np.full(rows, game.name)), "variant": pa.array(np.full(rows, game.variant)),
            "num_players": np.full(rows, players, dtype=np.int64), "seat": seat,
            "entrant": pa.array(np.asarray(ENTRANTS)[entrant]), "strategy": pa.array(np.full(rows, "random")),
            "params": pa.array(np.full(rows, "{}")), "params_hash": pa.array(np.full(rows, "0")),
            "score": score, "rank": rank.ravel().astype(np.int64), "win": win, "turns": turns,
            "termination": pa.array(np.full(rows, "normal")), "forfeit": np.zeros(rows, dtype=bool),
            "error": pa.array(np.full(rows, "")), "decisions": decisions.astype(np.int64), "think_seconds": think,
            "think_cpu_seconds": think * 0.9,
        }
        arrays = [pa.array(fixed[f.name], type=f.type) if f.name in fixed else pa.array(columns[f.name], type=f.type)
                  for f in table_schema]
        pq.write_table(pa.Table.from_arrays(arrays, schema=table_schema),
                       folder / "results" / f"part-synthetic-{start // PART_GAMES:05d}.parquet", row_group_size=100_000)
    meta = {"identity_hash": "synthetic", "game": {"name": game.name, "options": game.options}}
    (folder / "meta.json").write_text(json.dumps(meta))
    (folder / "config.yaml").write_text(f"name: synthetic-{games}\n")
    study = folder.parent / f"{folder.name}-study"
    (study / "cells").mkdir(parents=True, exist_ok=True)
    for key in ("base", "other"):
        link = study / "cells" / key
        if not link.exists():
            link.symlink_to(folder.resolve(), target_is_directory=True)
    cells = [{"key": key, "levels": {"factor": level}, "options": game.options} for key, level in (("base", 0), ("other", 1))]
    (study / "study.json").write_text(json.dumps({
        "name": "synthetic", "game": game.name, "baseline": {"factor": 0}, "factors": [{"name": "factor", "levels": [0, 1]}],
        "levels": {"factor": [0, 1]}, "cells": cells}))
    done.write_text(json.dumps({"games": games}))
    return folder


# What each reader does, run as ``python -c`` in a child process: the folder is argv[1].
_CHILD = {
    "summary": "from ttr_lab.tournament.summary import summary_of\n"
               "from ttr_lab.analysis.game import game_of\nsummary_of(F, game_of(F))",
    "report tables": "from ttr_lab.analysis.report import report_sections, results_digest\n"
                     "from ttr_lab.analysis.game import game_of\n"
                     "game = game_of(F)\nreport_sections(results_digest(F, game), game)",
    "report": "from ttr_lab.analysis.report import build_report\nbuild_report(F, quiet=True)",
    "compare": "from ttr_lab.analysis.compare import compare_folders\ncompare_folders(F, F)",
    "study tables": "from ttr_lab.studies.report import load_study_results, effects, paired_table, balance_table\n"
                    "r = load_study_results(F + '-study')\neffects(r); paired_table(r); balance_table(r)",
}


def measure(reader: str, folder: str | Path) -> tuple[float, float, float]:
    """(peak resident memory in GiB, wall seconds, CPU seconds) of one reader over ``folder``,
    in a child process of its own."""
    code = "import sys\nF = sys.argv[1]\n" + _CHILD[reader]
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code, str(folder)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, env={**os.environ, "MPLBACKEND": "Agg"})
    assert child.stderr is not None
    error = child.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    if child.returncode != 0:
        last = error.strip().splitlines()[-1] if error.strip() else f"exit code {child.returncode}"
        raise RuntimeError(f"{reader} failed: {last}")
    return usage.ru_maxrss / 2**20, wall, usage.ru_utime + usage.ru_stime


def readers_benchmark(games: Sequence[int], folder: str | Path, readers: Sequence[str] = READERS,
                      on_item: Callable[[Item], None] | None = None) -> BenchResult:
    """For each size in ``games``: the synthetic set (written once under ``folder``), then each
    of ``readers`` over it; a table of peak memory, wall and CPU seconds per reader and size."""
    result = BenchResult(on_item=on_item)
    rows = []
    for n in games:
        started = time.perf_counter()
        target = synthesize(Path(folder) / f"games-{n}", n)
        result.show(f"{n:,} games at {target} ({time.perf_counter() - started:.0f} s to write or find)")
        for reader in readers:
            peak, wall, cpu = measure(reader, target)
            result.figures[f"{reader} {n}"] = {"peak_gib": peak, "wall_s": wall, "cpu_s": cpu}
            rows.append((f"{n:,}", reader, f"{peak:.2f}", f"{wall:.1f}", f"{cpu:.1f}"))
            result.show(f"{n:,} games, {reader}: {peak:.2f} GiB peak, {wall:.1f} s wall, {cpu:.1f} CPU-s")
    result.show(FigureTable.of("Readers: peak memory per process", ("games", "reader", "peak GiB", "wall s", "CPU s"),
                               rows, right=("peak GiB", "wall s", "CPU s")))
    return result
