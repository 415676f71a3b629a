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
import zlib
from pathlib import Path
from typing import Any, Iterator, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from ttr_lab.core.errors import TTRLabError
from ttr_lab.core.outcome import Metric


class ResultsError(TTRLabError, ValueError):
    """A results folder that cannot be read as it is (a damaged part, rows that are not ttr-lab's)."""


FIXED = [
    ("game_id", pa.string()), ("deal", pa.int64()), ("deal_seed", pa.uint64()), ("table", pa.int64()),
    ("seating", pa.int64()), ("game", pa.string()), ("variant", pa.string()), ("num_players", pa.int64()),
    ("seat", pa.int64()), ("entrant", pa.string()), ("strategy", pa.string()), ("params", pa.string()),
    ("params_hash", pa.string()), ("score", pa.float64()), ("rank", pa.int64()), ("win", pa.float64()),
    ("turns", pa.int64()), ("termination", pa.string()), ("forfeit", pa.bool_()), ("error", pa.string()),
    ("decisions", pa.int64()), ("think_seconds", pa.float64()),
]
_KEYS = ("game_id", "deal", "table", "seating", "seat", "entrant", "win")  # what every read relies on
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


def read_part(part: Path, columns: Sequence[str] | None = None) -> pa.Table:
    """One Parquet part; a truncated or garbled one is a ResultsError naming it."""
    try:
        return pq.read_table(part, columns=list(columns) if columns is not None else None)
    except (pa.ArrowException, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ResultsError(
            f"results part {part} is damaged ({first}); rerun the tournament to set it aside and replay its games"
        ) from None


def check_part(part: Path, table: pa.Table) -> pa.Table:
    """``table`` (read from ``part``) when its key columns have their declared types; else a
    ResultsError naming the column: a forged ``seat`` of text or ``game_id`` of numbers would
    count one game several times, or stop a report with a traceback."""
    declared = dict(FIXED)
    for name in _KEYS:
        if name in table.column_names and table.schema.field(name).type != declared[name]:
            raise ResultsError(f"results part {part} is not a ttr-lab results table (its {name} column is "
                               f"{table.schema.field(name).type}, not {declared[name]})")
    return table


def read_results(folder: str | Path, columns: Sequence[str] | None = None) -> Any:
    """All rows of a results folder as a pandas DataFrame (sorted by game and seat).

    Each game counts once whatever is on disk: when parts disagree about a game (two runs that
    raced into one folder, a part copied twice), the rows of the first part holding it are kept,
    whole, so a game is never mixed from two plays of it. ``columns``: read only these (those a
    part has) besides the keys every read relies on; a million games' summary then holds a few
    numbers per row instead of every string and list column."""
    parts = result_parts(folder)
    if not parts:
        empty = pa.schema(FIXED).empty_table()
        if columns is not None:
            empty = empty.select([c for c in empty.column_names if c in set(columns) | set(_KEYS)])
        return empty.to_pandas()
    tables = []
    for i, part in enumerate(parts):
        table = check_part(part, read_part(part, _wanted(part, columns) if columns is not None else None))
        missing = [c for c in _KEYS if c not in table.column_names]
        if missing:
            raise ResultsError(f"results part {part} is not a ttr-lab results table (no {', '.join(missing)} column)")
        tables.append(table.append_column("_part", pa.array([i] * table.num_rows, pa.int64())))
    frame = pa.concat_tables(tables, promote_options="default").to_pandas()
    first = frame.groupby("game_id", sort=False)["_part"].transform("min")
    frame = frame[frame["_part"].eq(first)].drop(columns="_part")
    frame = frame.drop_duplicates(["game_id", "seat"], keep="first")
    return frame.sort_values(["deal", "table", "seating", "seat"], kind="stable").reset_index(drop=True)


def _wanted(part: Path, columns: Sequence[str]) -> list[str]:
    """The part's columns among ``columns`` and the keys, in the part's order."""
    try:
        names = pq.read_schema(part).names
    except (pa.ArrowException, OSError):
        return list(columns)  # read_part names the damaged part
    wanted = set(columns) | set(_KEYS)
    return [c for c in names if c in wanted]


def read_records(folder: str | Path) -> list[dict[str, Any]]:
    """Every stored game record, each game once (the first part holding it, as ``read_results``)."""
    out = []
    seen: set[Any] = set()
    for part in sorted(Path(folder, "records").glob("*.jsonl.gz")):
        for record in record_lines(part):
            key = record.get("game_id")
            if key is not None:
                if key in seen:
                    continue
                seen.add(key)
            out.append(record)
    return out


def record_lines(part: Path) -> Iterator[dict[str, Any]]:
    """The records of one ``records/*.jsonl.gz`` part, each a JSON object; a truncated or
    garbled part is a ResultsError naming it (gzip's EOFError would end a command as "Aborted.")."""
    try:
        with gzip.open(part, "rt", encoding="utf-8") as f:
            for n, line in enumerate(f, start=1):
                if not line.strip():
                    continue
                record = json.loads(line)
                if not isinstance(record, dict):
                    raise ValueError(f"line {n} is not a JSON object")
                yield record
    except (OSError, EOFError, zlib.error, ValueError) as exc:  # JSON and UTF-8 errors are ValueErrors
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ResultsError(f"records part {part} is damaged ({type(exc).__name__}: {first})") from None
