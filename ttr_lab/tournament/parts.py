"""A batch's results part, written by the worker that played it: the driver hears only its
manifest (a name, counts, digests), never its rows.

A part is named after what it holds: ``part-<games digest>-<content digest>``, the first
digest over the batch's game ids, the second over the Parquet bytes and the records; a merge of
parts is ``part-<time>-<pid>-<content digest>-compact``. Each part carries the identity of the
tournament it was played for (``core.part_checks``: read from the folder's ``meta.json``), so
a part copied in from another run, or edited, is never counted nor merged. A retried or
duplicated task that plays the batch again writes either the very same name (the same bytes:
nothing new) or a second part holding the same games; readers count each game once (the first
part holding it, whole: ``core.results.read_results``), and a merge keeps each game once. The
records are written before the rows, so a part whose rows are visible has its records; a
worker killed in between leaves records without rows, which the next run removes.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import time
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ttr_lab.core.location import Location
from ttr_lab.core.part_checks import RUN_KEY, content_digest, run_of, stamped
from ttr_lab.core.results import _keys, _owners, read_part, result_parts

ROW_GROUP = 100_000
COMPACT_ROWS = 4_000_000  # a merged part stops growing at about a million four-player games


def games_digest(game_ids: Sequence[str]) -> str:
    return hashlib.blake2b("\n".join(game_ids).encode(), digest_size=8).hexdigest()


@dataclass(frozen=True)
class Manifest:
    """What a worker hands back for a batch it stored: a few dozen bytes, whatever the batch."""

    name: str  # the part: results/<name>.parquet (and records/<name>.jsonl.gz when kept)
    games: int
    rows: int
    games_digest: str  # over the batch's game ids, in order: the driver checks it is its batch
    checksum: str  # over the part's bytes (and its records'): part of the name


def write_part(location: Location, table: pa.Table, game_ids: Sequence[str], records: Sequence[str] = ()) -> Manifest:
    """Store one batch's rows (``table``) and records at ``location``; its manifest."""
    buffer = io.BytesIO()
    pq.write_table(_stamped(table, run_of(location)), buffer)
    data = buffer.getvalue()
    digest = content_digest()
    digest.update(data)
    packed = b""
    if records:
        # mtime=0: the same records give the same bytes, so a replayed batch may name the same part.
        packed = gzip.compress("".join(line + "\n" for line in records).encode(), mtime=0)
        digest.update(packed)
    ids = games_digest(game_ids)
    name = f"part-{ids}-{digest.hexdigest()}"
    if records:
        location.write_whole("records", f"{name}.jsonl.gz", packed)
    location.write_whole("results", f"{name}.parquet", data)
    return Manifest(name, len(game_ids), table.num_rows, ids, digest.hexdigest())


def compact_parts(location: Location, table_schema: pa.Schema, max_rows: int = COMPACT_ROWS,
                  fresh_only: bool = False) -> int:
    """Merge the parts (and their records) into one, streaming, each game once (the first part
    holding it, as readers count it); parts already holding ``max_rows`` rows, and parts the
    folder does not count (``core.part_checks``: another run's, edited), are left alone. Safe
    to interrupt at any point, and to run beside workers writing new parts (only the parts
    listed at its start are merged): the merged part is moved into place before any source is
    deleted, and reads count a game once even while both exist. Returns how many parts were
    merged. ``fresh_only``: only parts written by batches (not earlier merges), which costs the
    same however long the run has been going."""
    parts = [os.path.basename(p) for p in result_parts(location)]
    if fresh_only:
        small = [p for p in parts if "-compact" not in p]
    else:
        small = [p for p in parts if _rows(location, p) < max_rows]
    paths = [location.path("results", p) for p in small]
    doubled: set[int] = set()
    if len(small) < 2 and (fresh_only or not small or not _doubled(location, paths[0])):
        return 0
    run = run_of(location)
    stem = f"part-{time.time_ns()}-{os.getpid()}"
    digest = content_digest()
    sources = [p.replace(".parquet", ".jsonl.gz") for p in small]
    sources = [r for r in sources if location.exists("records", r)]
    owners = _owners(location, paths, doubled)
    tmp = location.path("results", f"{stem}.parquet.tmp")
    with location.fs.open_output_stream(tmp) as sink, \
            pq.ParquetWriter(_Hashed(sink, digest), _stamped(table_schema, run)) as writer:
        pending: list[pa.Table] = []
        rows = 0
        for i, path in enumerate(paths):
            table = _once(read_part(path, fs=location.fs).cast(table_schema), owners, i, i in doubled)
            pending.append(table)
            rows += table.num_rows
            if rows >= ROW_GROUP:
                writer.write_table(pa.concat_tables(pending))
                pending, rows = [], 0
        if pending:
            writer.write_table(pa.concat_tables(pending))
    if sources:  # gzip members concatenated are one valid gzip stream
        records_tmp = location.path("records", f"{stem}.jsonl.gz.tmp")
        with location.fs.open_output_stream(records_tmp, compression=None) as out:
            for r in sources:
                with location.fs.open_input_stream(location.path("records", r), compression=None) as f:
                    while chunk := f.read(1 << 20):
                        out.write(chunk)
                        digest.update(chunk)
    name = f"{stem}-{digest.hexdigest()}-compact"
    if sources:  # records first: a part whose rows are visible has its records
        location.move("records", f"{stem}.jsonl.gz.tmp", f"{name}.jsonl.gz")
    location.move("results", f"{stem}.parquet.tmp", f"{name}.parquet")
    for part in small:
        location.delete("results", part)
    for r in sources:
        location.delete("records", r)
    # A merge holds up to a row group in Arrow's memory pool (about 50 MB for 100,000 rows),
    # which the pool keeps for reuse after it is freed: hand it back, or a long run's process
    # grows by that at its first merge and never shrinks (measured: 151 -> 232 MB, then 156).
    pa.default_memory_pool().release_unused()
    return len(small)


def _doubled(location: Location, path: str) -> bool:
    """Whether a part holds a game twice: what a merge by an earlier ttr-lab may have left (a
    part carrying its run's identity was written by a merge that keeps each game once)."""
    if stamped(location, path):
        return False
    doubled: set[int] = set()
    _owners(location, [path], doubled)
    return bool(doubled)


def _stamped(table: Any, run: str | None) -> Any:
    """A table (or schema) carrying the identity of the tournament its games were played for."""
    if run is None:
        return table
    if isinstance(table, pa.Schema):
        return table.with_metadata({RUN_KEY: run.encode()})
    return table.replace_schema_metadata({RUN_KEY: run.encode()})


def _once(table: pa.Table, owners: Any, index: int, doubled: bool) -> pa.Table:
    """The rows of part ``index`` whose game no earlier part holds; each (game, seat) once when
    the part holds a game twice (``doubled``: a merge by an earlier ttr-lab)."""
    if owners is None and not doubled:  # every game in one place: nothing to look up
        return table
    keys = _keys(table.column("game_id"))
    keep = np.ones(table.num_rows, dtype=bool)
    if owners is not None:
        owned, owner = owners
        at = np.minimum(np.searchsorted(owned, keys), len(owned) - 1)
        keep &= ~(owned[at] == keys) | (owner[at] == index)
    if doubled:
        pairs = np.empty(table.num_rows, dtype=[("game", keys.dtype), ("seat", np.int64)])
        pairs["game"], pairs["seat"] = keys, table.column("seat").to_numpy(zero_copy_only=False)
        _, first = np.unique(pairs, return_index=True)
        once = np.zeros(table.num_rows, dtype=bool)
        once[first] = True
        keep &= once
    return table if keep.all() else table.filter(pa.array(keep))


class _Hashed:
    """A writable file that digests what goes through it (the merged part's checksum)."""

    def __init__(self, sink: Any, digest: Any) -> None:
        self.sink, self.digest, self.closed = sink, digest, False

    def write(self, data: Any) -> int:
        self.digest.update(data)
        return int(self.sink.write(data))

    def flush(self) -> None:
        self.sink.flush()

    def close(self) -> None:
        self.closed = True  # the stream itself is closed by its ``with``


def _rows(location: Location, part: str) -> int:
    with location.open("results", part) as f:
        return pq.ParquetFile(f).metadata.num_rows
