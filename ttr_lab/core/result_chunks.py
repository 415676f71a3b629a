"""A results folder read as a stream of chunks of whole games, for readers that reduce the rows
as they go (the analysis' ``ResultsDigest``) instead of holding them all.

Each chunk is a small pandas frame (about ``CHUNK_ROWS`` rows, only the columns asked for and
the keys) holding every row of each of its games, each game once: the same rows, game for game,
as ``read_results`` gives, though not in its order (parts in name order, rows as stored).
Games stored twice are kept from the first part holding them (``read_results``' rule, by the
same 128-bit keys), and once from a part holding one twice (the first of its copies). A game's rows are together in the part that holds it (a worker writes a
batch game by game; merges concatenate parts); a part where they are not is read whole and
sorted, so a chunk never splits a game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa

from ttr_lab.core.location import Location
from ttr_lab.core.part_checks import stamped
from ttr_lab.core.results import (
    _batches, _keys, _located, _owners, result_parts,
)

CHUNK_ROWS = 65_536  # rows read at a time: tens of MB of a chunk's frame, whatever the folder holds


def _part_batches(location: Location, part: str, columns: Sequence[str] | None,
                  rows: int) -> Iterator[pa.RecordBatch]:
    """A part's rows, ``rows`` at a time, with the keys and each game's player count."""
    return _batches(location, part, None if columns is None else [*columns, "num_players"], rows=rows)


def _together(frame: pd.DataFrame) -> bool:
    """Whether each game's rows in ``frame`` are consecutive and complete (as many as its players)."""
    ids = frame["game_id"].to_numpy()
    if not len(ids):
        return True
    start = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
    length = np.diff(np.r_[start, len(ids)])
    if "num_players" in frame:
        return bool((length == frame["num_players"].to_numpy()[start]).all())
    return len(start) == len(set(ids[start]))


def _whole(frame: pd.DataFrame) -> pd.DataFrame:
    """A frame's rows, each game's together in seat order, each (game, seat) once."""
    keys = ["game_id", "seat"] if "seat" in frame else ["game_id"]
    if "seat" in frame:
        frame = frame.drop_duplicates(keys, keep="first")
    return frame.sort_values(keys, kind="stable").reset_index(drop=True)


def game_chunks(folder: str | Path | Location, columns: Sequence[str] | None = None,
                rows: int | None = None) -> Iterator[pd.DataFrame]:
    """The folder's rows as frames of whole games, about ``rows`` rows each (None:
    ``CHUNK_ROWS``; a part ends a chunk); ``columns``: only these (and the keys, and
    ``num_players``)."""
    rows = rows or CHUNK_ROWS
    location = _located(folder)
    parts = result_parts(location)
    doubled: set[int] = set()
    # One part carrying its run's identity was written by a merge that keeps each game once, or
    # is one batch: only an older part alone may hold a game twice.
    looked = len(parts) > 1 or (len(parts) == 1 and not stamped(location, parts[0]))
    owners = _owners(location, parts, doubled) if looked else None
    for i, part in enumerate(parts):
        pending: list[pd.DataFrame] = []
        pending_rows = 0
        sorted_part = False
        if i in doubled:  # a game stored twice within the part: read whole, each game once
            yield from _sorted_part(location, part, columns, rows, owners, i)
            continue
        for batch in _part_batches(location, part, columns, rows):
            if owners is not None:
                keys, owner = owners
                mine = _keys(batch.column(batch.schema.get_field_index("game_id")))
                at = np.minimum(np.searchsorted(keys, mine), len(keys) - 1)
                keep = ~(keys[at] == mine) | (owner[at] == i)
                if not keep.all():
                    batch = batch.filter(pa.array(keep))
            pending.append(batch.to_pandas())
            pending_rows += batch.num_rows
            if pending_rows < rows:
                continue
            frame = pd.concat(pending, ignore_index=True) if len(pending) > 1 else pending[0]
            # Hold back the last game: its other rows may be in the next batch.
            ids = frame["game_id"].to_numpy()
            cut = len(ids) - 1
            while cut > 0 and ids[cut - 1] == ids[-1]:
                cut -= 1
            head, tail = frame.iloc[:cut], frame.iloc[cut:]
            if not _together(head):
                sorted_part = True
                break
            if len(head):
                yield head.reset_index(drop=True)
            pending, pending_rows = [tail.reset_index(drop=True)], len(tail)
        if sorted_part:  # rows of a game apart: the part read whole (a part is bounded), sorted
            yield from _sorted_part(location, part, columns, rows, owners, i)
            continue
        if pending:
            frame = pd.concat(pending, ignore_index=True) if len(pending) > 1 else pending[0]
            if not _together(frame):
                frame = _whole(frame)
            if len(frame):
                yield frame
    _release_freed()


def _release_freed() -> None:
    """Hand back to the system what a pass over the parts freed. Arrow's pool keeps freed
    buffers for reuse, and so does C's malloc (the chunks' frames come and go in its heap): a
    reader that scans the folder again and builds large tables between the scans (the leader
    table does, a few columns a scan) would hold every scan's leftovers beside them. Arrow's
    pool: at a million games 0.94 -> 0.67 GiB peak; malloc's (glibc only), at three million
    after the digest's pass 0.55 -> 0.48 GiB."""
    pa.default_memory_pool().release_unused()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _glibc() -> Any:
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc if hasattr(libc, "malloc_trim") else None
    except OSError:  # not glibc (macOS, musl): nothing to trim
        return None


_LIBC = _glibc()


def _sorted_part(location: Location, part: str, columns: Sequence[str] | None, rows: int,
                 owners: Any, index: int) -> Iterator[pd.DataFrame]:
    frames = []
    for batch in _part_batches(location, part, columns, rows):
        if owners is not None:
            keys, owner = owners
            mine = _keys(batch.column(batch.schema.get_field_index("game_id")))
            at = np.minimum(np.searchsorted(keys, mine), len(keys) - 1)
            batch = batch.filter(pa.array(~(keys[at] == mine) | (owner[at] == index)))
        frames.append(batch.to_pandas())
    whole = _whole(pd.concat(frames, ignore_index=True))
    del frames
    ids = whole["game_id"].to_numpy()
    start = 0
    while start < len(whole):
        stop = min(start + rows, len(whole))
        while stop < len(whole) and ids[stop] == ids[stop - 1]:
            stop += 1
        yield whole.iloc[start:stop].reset_index(drop=True)
        start = stop


def frame_chunks(frame: pd.DataFrame, rows: int | None = None) -> Iterator[pd.DataFrame]:
    """A results frame (``read_results``') as the same chunks of whole games."""
    rows = rows or CHUNK_ROWS
    if frame.empty:
        return
    if not _together(frame):
        frame = _whole(frame)
    ids = frame["game_id"].to_numpy()
    start = 0
    while start < len(frame):
        stop = min(start + rows, len(frame))
        while stop < len(frame) and ids[stop] == ids[stop - 1]:
            stop += 1
        yield frame.iloc[start:stop]
        start = stop
