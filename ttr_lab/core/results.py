"""Results tables: the columns every game's rows share, the game's own metric columns, and the
reader the tournament (resume) and the analysis (reports) both use.

A results folder holds ``results/*.parquet`` (one row per player per game) and, when asked,
``records/*.jsonl.gz`` (one game record per line). Fixed columns:

    game_id, deal, deal_seed, table, seating   which game of the schedule
    game, variant, num_players, seat           what was played, where
    entrant, strategy, params, params_hash     who played it
    score, rank, win                           the outcome (win: share of the win, ties split)
    turns, termination, forfeit, error         how it ended (forfeit: this seat forfeited)
    decisions, think_seconds                   the strategy's effort

then one column per metric the game declares (``Game.metrics``), named as declared.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from ttr_lab.core.outcome import Metric

FIXED = [
    ("game_id", pa.string()), ("deal", pa.int64()), ("deal_seed", pa.uint64()), ("table", pa.int64()),
    ("seating", pa.int64()), ("game", pa.string()), ("variant", pa.string()), ("num_players", pa.int64()),
    ("seat", pa.int64()), ("entrant", pa.string()), ("strategy", pa.string()), ("params", pa.string()),
    ("params_hash", pa.string()), ("score", pa.float64()), ("rank", pa.int64()), ("win", pa.float64()),
    ("turns", pa.int64()), ("termination", pa.string()), ("forfeit", pa.bool_()), ("error", pa.string()),
    ("decisions", pa.int64()), ("think_seconds", pa.float64()),
]
_ARROW = {"int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(), "ints": pa.list_(pa.int64())}


def schema(metrics: Sequence[Metric]) -> pa.Schema:
    """The Parquet schema of a game's rows: the fixed columns, then its metrics."""
    fixed = {name for name, _ in FIXED}
    clash = [m.name for m in metrics if m.name in fixed]
    if clash:
        raise ValueError(f"metric name(s) {', '.join(clash)} clash with fixed result columns")
    return pa.schema(FIXED + [(m.name, _ARROW[m.kind]) for m in metrics])


def result_parts(folder: str | Path) -> list[Path]:
    return sorted(Path(folder, "results").glob("*.parquet"))


def read_results(folder: str | Path) -> Any:
    """All rows of a results folder as a pandas DataFrame (sorted by game and seat)."""
    parts = result_parts(folder)
    if not parts:
        return pa.schema(FIXED).empty_table().to_pandas()
    frame = pa.concat_tables([pq.read_table(p) for p in parts], promote_options="default").to_pandas()
    return frame.sort_values(["deal", "table", "seating", "seat"], kind="stable").reset_index(drop=True)


def read_records(folder: str | Path) -> list[dict[str, Any]]:
    out = []
    for part in sorted(Path(folder, "records").glob("*.jsonl.gz")):
        with gzip.open(part, "rt", encoding="utf-8") as f:
            out += [json.loads(line) for line in f if line.strip()]
    return out
