"""Results tables: one declared row (``ResultRow``) from which the Parquet schema, the writer's
check and the readers are derived, the game's own metric columns, and the readers the
tournament (resume) and the analysis (reports) both use.

A results folder holds ``results/*.parquet`` (one row per player per game) and, when asked,
``records/*.jsonl.gz`` (one game record per line, read by ``read_records``). The columns are
``ResultRow``'s fields in order, then one column per metric the game declares
(``Game.metrics``), named as declared. A table is built only from rows holding exactly those
keys (``rows_table``): a missing, extra or misspelt key is refused, named, never stored as null.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import posixpath
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ttr_lab.core.errors import TTRLabError
from ttr_lab.core.location import Location
from ttr_lab.core.outcome import Metric
from ttr_lab.core.part_checks import folder_runs, part_doubt, say_not_counted
from ttr_lab.core.record import GameRecord


class ResultsError(TTRLabError, ValueError):
    """A results folder that cannot be read as it is (a damaged part, rows that are not ttr-lab's),
    or rows that do not match the results table (a missing or unknown column)."""


def _arrow(kind: Any) -> Any:
    return field(metadata={"arrow": kind})


@dataclass(frozen=True)
class ResultRow:
    """One player's result in one game: a row of every results table. The fields are the fixed
    columns, in order (their Arrow types are declared beside them); ``metrics`` holds the
    game's own columns, by the names ``Game.metrics`` declares."""

    # which game of the schedule
    game_id: str = _arrow(pa.string())
    deal: int = _arrow(pa.int64())
    deal_seed: int = _arrow(pa.uint64())
    table: int = _arrow(pa.int64())
    seating: int = _arrow(pa.int64())
    # what was played, where
    game: str = _arrow(pa.string())
    variant: str = _arrow(pa.string())
    num_players: int = _arrow(pa.int64())
    seat: int = _arrow(pa.int64())
    # who played it: the entrant's name, its strategy, its validated parameters (JSON) and their hash
    entrant: str = _arrow(pa.string())
    strategy: str = _arrow(pa.string())
    params: str = _arrow(pa.string())
    params_hash: str = _arrow(pa.string())
    # the outcome (score: None in a forfeited game; win: this seat's share of the win, ties split)
    score: float | None = _arrow(pa.float64())
    rank: int = _arrow(pa.int64())
    win: float = _arrow(pa.float64())
    # how it ended (forfeit: this seat forfeited)
    turns: int | None = _arrow(pa.int64())
    termination: str = _arrow(pa.string())
    forfeit: bool = _arrow(pa.bool_())
    error: str = _arrow(pa.string())
    # the strategy's effort: decisions, their wall-clock seconds and the CPU seconds they used
    decisions: int = _arrow(pa.int64())
    think_seconds: float = _arrow(pa.float64())
    think_cpu_seconds: float = _arrow(pa.float64())
    metrics: Mapping[str, Any] = field(default_factory=dict)

    def columns(self, metrics: Sequence[Metric]) -> dict[str, Any]:
        """The row as the table's columns: the fixed ones, then exactly the game's ``metrics``
        (a metric the outcome lacks is None: a forfeited game has none; one it has that the game
        does not declare is refused)."""
        unknown = sorted(set(self.metrics) - {m.name for m in metrics})
        if unknown:
            raise ResultsError(f"result row of game {self.game_id}: metric(s) {', '.join(unknown)} are not among the "
                               f"game's declared metrics ({', '.join(m.name for m in metrics) or 'none'})")
        out = {name: getattr(self, name) for name in FIXED_NAMES}
        for m in metrics:
            out[m.name] = self.metrics.get(m.name)
        return out


FIXED = [(f.name, f.metadata["arrow"]) for f in dataclasses.fields(ResultRow) if f.name != "metrics"]
FIXED_NAMES = tuple(name for name, _ in FIXED)
_KEYS = ("game_id", "deal", "table", "seating", "seat", "entrant", "win")  # what every read relies on
_ARROW = {"int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(), "ints": pa.list_(pa.int64())}


def schema(metrics: Sequence[Metric]) -> pa.Schema:
    """The Parquet schema of a game's rows: ``ResultRow``'s columns, then its metrics."""
    clash = [m.name for m in metrics if m.name in FIXED_NAMES or m.name == "metrics"]
    if clash:
        raise ValueError(f"metric name(s) {', '.join(clash)} clash with fixed result columns")
    return pa.schema(FIXED + [(m.name, _ARROW[m.kind]) for m in metrics])


def rows_table(rows: Iterable[ResultRow | Mapping[str, Any]], table_schema: pa.Schema) -> pa.Table:
    """The rows as a table of ``table_schema``; a row with a column missing or one the schema
    lacks is a ResultsError naming it (``pa.Table.from_pylist`` alone would store null)."""
    names = table_schema.names
    wanted = set(names)
    metrics = [Metric(n, "") for n in names[len(FIXED_NAMES):]]
    checked = []
    for row in rows:
        data = row.columns(metrics) if isinstance(row, ResultRow) else row
        if data.keys() != wanted:
            missing = [n for n in names if n not in data]
            extra = sorted(str(k) for k in data if k not in wanted)
            problems = ([f"missing {', '.join(missing)}"] if missing else []) + \
                       ([f"unknown {', '.join(extra)}"] if extra else [])
            raise ResultsError(f"result row of game {data.get('game_id', '?')} seat {data.get('seat', '?')} does not "
                               f"match the results table: {'; '.join(problems)}")
        checked.append(data)
    return pa.Table.from_pylist(checked, schema=table_schema)


def _located(folder: str | Path | Location) -> Location:
    return folder if isinstance(folder, Location) else Location(folder)


def result_parts(folder: str | Path | Location, checked: bool = True) -> list[str]:
    """The full paths (within the folder's filesystem) of its results parts, sorted: those the
    folder may count (``core.part_checks``: a part of another tournament, or whose content
    does not match its name's checksum, is left out, said in one line), or every one
    (``checked=False``: the store, which sets the others aside)."""
    location = _located(folder)
    names = location.files("results", ".parquet")
    if checked:
        runs = folder_runs(location)
        kept = []
        for name in names:
            doubt = part_doubt(location, name, runs)
            if doubt is None:
                kept.append(name)
            else:
                say_not_counted(location, name, doubt)
        names = kept
    return [location.path("results", name) for name in names]


def read_part(part: str | Path, columns: Sequence[str] | None = None, fs: Any = None) -> pa.Table:
    """One Parquet part; a truncated or garbled one is a ResultsError naming it."""
    try:
        return pq.read_table(str(part), columns=list(columns) if columns is not None else None, filesystem=fs)
    except (pa.ArrowException, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ResultsError(
            f"results part {part} is damaged ({first}); rerun the tournament to set it aside and replay its games"
        ) from None


def check_part(part: str | Path, table: Any) -> Any:
    """``table`` (read from ``part``: a table, or its schema) when its key columns have their
    declared types; else a ResultsError naming the column: a forged ``seat`` of text or
    ``game_id`` of numbers would count one game several times, or stop a report with a traceback."""
    declared = dict(FIXED)
    schema = table if isinstance(table, pa.Schema) else table.schema
    for name in schema.names:
        if name not in declared:
            continue
        found, wanted = schema.field(name).type, declared[name]
        # The keys exactly; the other columns of their kind (a number, text...), as parts written
        # by an older ttr-lab may hold an int where a float is declared: a score of text is not.
        if found != wanted and (name in _KEYS or _kind(found) != _kind(wanted)):
            raise ResultsError(f"results part {part} is not a ttr-lab results table (its {name} column is "
                               f"{found}, not {wanted})")
    return table


def _kind(arrow_type: pa.DataType) -> str:
    if pa.types.is_integer(arrow_type) or pa.types.is_floating(arrow_type):
        return "number"
    if pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type):
        return "text"
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        return "list"
    return str(arrow_type)


def read_results(folder: str | Path | Location, columns: Sequence[str] | None = None) -> Any:
    """All rows of a results folder as a pandas DataFrame (sorted by game and seat).

    Each game counts once whatever is on disk: when parts disagree about a game (two runs that
    raced into one folder, a part copied twice, a task retried after writing), the rows of the
    first part holding it are kept, whole, so a game is never mixed from two plays of it.
    ``columns``: read only these (those a part has) besides the keys every read relies on; a
    million games' summary then holds a few numbers per row instead of every string column.

    Read out of core: the parts are read one row group at a time, first their game ids alone
    (to find the games stored twice, by a 128-bit hash of each id), then the wanted columns,
    so the reader holds the result and one row group, never every part at once."""
    location = _located(folder)
    parts = result_parts(location)
    if not parts:
        empty = pa.schema(FIXED).empty_table()
        if columns is not None:
            empty = empty.select([c for c in empty.column_names if c in set(columns) | set(_KEYS)])
        return empty.to_pandas()
    owners = _owners(location, parts) if len(parts) > 1 else None  # one part: its rows (below) are deduplicated
    tables = []
    for i, part in enumerate(parts):
        for batch in _batches(location, part, columns):
            if owners is not None:
                keys, owner = owners
                mine = _keys(batch.column(batch.schema.get_field_index("game_id")))
                at = np.searchsorted(keys, mine)
                found = keys[np.minimum(at, len(keys) - 1)] == mine
                keep = ~found | (owner[np.minimum(at, len(keys) - 1)] == i)
                if not keep.all():
                    batch = batch.filter(pa.array(keep))
            tables.append(batch)
    frame = pa.Table.from_batches(tables) if _same_schema(tables) else \
        pa.concat_tables([pa.Table.from_batches([b]) for b in tables], promote_options="default")
    del tables
    frame = frame.to_pandas()
    frame = frame.drop_duplicates(["game_id", "seat"], keep="first")
    return frame.sort_values(["deal", "table", "seating", "seat"], kind="stable").reset_index(drop=True)


def _same_schema(batches: list[pa.RecordBatch]) -> bool:
    return bool(batches) and all(b.schema.equals(batches[0].schema) for b in batches)


def _batches(location: Location, part: str, columns: Sequence[str] | None, keys: bool = True,
             rows: int | None = None) -> Iterator[pa.RecordBatch]:
    """A part's row groups (only ``columns``, and the keys unless ``keys`` is False, when
    given), its key types checked; ``rows`` at a time when given (never a whole row group of a
    merged part at once)."""
    try:
        with location.fs.open_input_file(part) as f:
            pf = pq.ParquetFile(f)
            check_part(part, pf.schema_arrow)
            names = pf.schema_arrow.names
            missing = [c for c in _KEYS if c not in names]
            if missing:
                raise ResultsError(f"results part {part} is not a ttr-lab results table (no {', '.join(missing)} column)")
            wanted = None if columns is None else [c for c in names if c in set(columns) | set(_KEYS if keys else ())]
            if rows is not None:
                yield from pf.iter_batches(batch_size=rows, columns=wanted)
                return
            for group in range(pf.num_row_groups):
                yield from pf.read_row_group(group, columns=wanted).to_batches()
    except (pa.ArrowException, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ResultsError(
            f"results part {part} is damaged ({first}); rerun the tournament to set it aside and replay its games"
        ) from None


def _keys(ids: Any) -> Any:
    """A 128-bit hash of each game id (two 64-bit hashes side by side, one numpy void each): a
    collision among 10 million games is about 1 in 10^24, so no two games are taken for one."""
    values = ids.to_numpy(zero_copy_only=False) if hasattr(ids, "to_numpy") else np.asarray(ids, dtype=object)
    import pandas as pd  # only here: a worker writing its rows never needs it

    pair = np.stack([pd.util.hash_array(values, hash_key=key) for key in _HASH_KEYS], axis=1)
    return np.ascontiguousarray(pair).view("V16").ravel()


_HASH_KEYS = ("ttr-lab-games-01", "ttr-lab-games-02")  # pandas wants 16-byte keys


def _owners(location: Location, parts: list[str], doubled: set[int] | None = None) -> tuple[Any, Any] | None:
    """For the games more than one part holds: their keys (sorted) and the first part holding
    each; None when every game is in one part only (then nothing is filtered). ``doubled``,
    when given, receives the index of each part holding a game in two places (what a merge by
    an earlier ttr-lab left of a part copied twice): its readers read it whole, each game once."""
    keys, where = [], []
    for i, part in enumerate(parts):
        part_keys, runs, last = [], 0, None
        for b in _batches(location, part, ["game_id"], keys=False):
            if not b.num_rows:
                continue
            ids = _keys(b.column(0))
            if doubled is not None:  # a game's rows are consecutive: count the runs of one id
                runs += int((ids[1:] != ids[:-1]).sum()) + int(last is None or ids[0] != last)
                last = ids[-1]
            part_keys.append(np.unique(ids))
        if part_keys:
            mine = np.unique(np.concatenate(part_keys))
            if doubled is not None and runs > len(mine):
                doubled.add(i)
            keys.append(mine)
            where.append(np.full(len(mine), i, dtype=np.int32))
    if not keys:
        return None
    every, part_of = np.concatenate(keys), np.concatenate(where)
    del keys, where
    order = np.argsort(every, kind="stable")  # stable: the first part comes first among equal keys
    every, part_of = every[order], part_of[order]
    del order
    repeated = np.zeros(len(every), dtype=bool)
    repeated[1:] = every[1:] == every[:-1]
    if not repeated.any():
        return None
    first = ~repeated
    twice = np.zeros(len(every), dtype=bool)  # the first of each run of equal keys that has a repeat
    twice[:-1] = first[:-1] & repeated[1:]
    return every[twice], part_of[twice]


@dataclass(frozen=True)
class StoredRecord:
    """A game record as a results folder keeps it: the game (``GameRecord``), its id in the
    schedule and the entrant at each seat (None in folders written before records named them)."""

    record: GameRecord
    game_id: str | None = None
    entrants: tuple[str, ...] | None = None

    def to_json(self) -> str:
        """The line ``records/*.jsonl.gz`` holds: the record's JSON with ``game_id`` and ``entrants``."""
        data = self.record.to_dict()
        if self.game_id is not None:
            data["game_id"] = self.game_id
        if self.entrants is not None:
            data["entrants"] = list(self.entrants)
        return json.dumps(data, ensure_ascii=True)


def _stored_records(folder: str | Path | Location) -> Iterator[StoredRecord]:
    """The stored records in part order, repeats included; a damaged part, or a line that is not
    a game record, is a ResultsError naming its part (and line)."""
    location = _located(folder)
    parts = set(location.files("results", ".parquet"))
    counted = {posixpath.basename(p) for p in result_parts(location)} if parts else set()
    for name in location.files("records", ".jsonl.gz"):
        if name.replace(".jsonl.gz", ".parquet") in parts - counted:  # the records of a part not counted
            continue
        part = location.path("records", name)
        for number, data in enumerate(record_lines(part, location.fs), 1):
            try:
                record = GameRecord.from_dict(data)
            except (ValueError, TTRLabError) as exc:
                raise ResultsError(f"records part {part}, record {number}: {exc}") from None
            key, entrants = data.get("game_id"), data.get("entrants")
            yield StoredRecord(record, None if key is None else str(key),
                               None if entrants is None else tuple(str(e) for e in entrants))


def read_records(folder: str | Path | Location) -> list[StoredRecord]:
    """Every stored game record, each game once (the first part holding it, as ``read_results``)."""
    out = []
    seen: set[str] = set()
    for stored in _stored_records(folder):
        if stored.game_id is not None:
            if stored.game_id in seen:
                continue
            seen.add(stored.game_id)
        out.append(stored)
    return out


def first_record(folder: str | Path | Location) -> StoredRecord | None:
    """The first stored game record (None if the folder keeps none), read without the rest."""
    return next(_stored_records(folder), None)


def record_lines(part: str | Path, fs: Any = None) -> Iterator[dict[str, Any]]:
    """The records of one ``records/*.jsonl.gz`` part, each a JSON object; a truncated or
    garbled part is a ResultsError naming it (gzip's EOFError would end a command as "Aborted.")."""
    try:
        with (fs.open_input_stream(str(part), compression=None) if fs is not None else open(part, "rb")) as raw, \
                gzip.open(raw, "rt", encoding="utf-8") as f:
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
