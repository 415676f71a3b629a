"""Which results parts a tournament's folder may count: its own, as written.

A part proves two things before any reader counts it (the folder has ``meta.json``):

- its content: its name carries a checksum of its bytes (and of its records, when kept):
  ``part-<games digest>-<content digest>`` for a batch's part,
  ``part-<time>-<pid>-<content digest>-compact`` for a merge of parts. A part whose bytes no
  longer match (a score edited in it), or whose name carries no checksum (not a name ttr-lab
  writes), is not counted.
- its run: each part carries, in its Parquet key-value metadata (``RUN_KEY``), the identity
  hash of the tournament it was played for (``meta.json``'s ``identity_hash``). A part of
  another tournament (the same deals with other strategies, say) is not counted. Two runs of
  the same tournament play the same games: their parts are one run's, each game counted once.

Parts written before these proofs existed still count: a part with no run identity is taken
as the folder's, checked against its name's checksum when its name carries one (a merged part
named ``part-<time>-<pid>-compact`` carries none). A folder without ``meta.json`` (built by
hand) proves nothing either way, so its parts are read as they are.

A reader skips a part that is not counted and says so once, in one line; the tournament's next
run renames it (``.damaged`` for content that does not match, ``.foreign`` otherwise), keeps it,
and never merges it.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ttr_lab.core.location import Location

RUN_KEY = b"ttr_lab.run"  # the Parquet key-value metadata naming the tournament a part was played for
EARLIER_RUNS = "earlier_identity_hashes"  # meta.json: identities this folder's tournament had before
_BATCH = re.compile(r"part-[0-9a-f]{16}-([0-9a-f]{16})")
_COMPACT = re.compile(r"part-\d+-\d+-([0-9a-f]{16})-compact")


def content_digest() -> Any:
    """The digest a part's name carries: over its Parquet bytes, then its records' (gzip) bytes."""
    return hashlib.blake2b(digest_size=8)


def _identity(location: Location) -> tuple[str, frozenset[str]] | None:
    """The folder's tournament identity and every identity whose parts it counts (now and
    before a revalidation), from its ``meta.json``; None without a readable one."""
    try:
        if not location.exists("meta.json"):
            return None
        meta = json.loads(location.read_bytes("meta.json").decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or not isinstance(meta.get("identity_hash"), str):
        return None
    earlier = meta.get(EARLIER_RUNS)
    return meta["identity_hash"], frozenset([meta["identity_hash"], *(earlier if isinstance(earlier, list) else [])])


def folder_runs(location: Location) -> frozenset[str] | None:
    """The identities whose parts the folder counts; None when it has no readable ``meta.json``
    (nothing is checked)."""
    found = _identity(location)
    return None if found is None else found[1]


def run_of(location: Location) -> str | None:
    """The identity a part written into this folder carries (``meta.json``'s), None without one."""
    found = _identity(location)
    return None if found is None else found[0]


def stamped(location: Location, path: str) -> bool:
    """Whether the part at ``path`` carries a run's identity (was written by this ttr-lab)."""
    try:
        with location.fs.open_input_file(path) as f:
            return RUN_KEY in (pq.ParquetFile(f).schema_arrow.metadata or {})
    except (pa.ArrowException, OSError):
        return False  # damaged: the read names it


@dataclass(frozen=True)
class Doubt:
    """Why a part is not counted: ``kind`` is the suffix the next run sets it aside with."""

    kind: str  # "damaged" or "foreign"
    reason: str


_checked: dict[tuple[str, int, Any], Doubt | None] = {}  # (path, size, mtime): a part's bytes are read once


def part_doubt(location: Location, name: str, runs: frozenset[str] | None) -> Doubt | None:
    """Why results part ``name`` cannot be counted as the folder's (``runs``: its identities,
    ``folder_runs``), None when it can. A part whose footer cannot be read is left to the
    readers, which name it damaged."""
    if runs is None:
        return None
    path = location.path("results", name)
    info = location.fs.get_file_info(path)
    key = (f"{location.uri}\0{path}", info.size or 0, info.mtime_ns)
    if key not in _checked:
        if len(_checked) > 10_000:
            _checked.clear()
        _checked[key] = _doubt(location, name, runs)
    return _checked[key]


def _doubt(location: Location, name: str, runs: frozenset[str]) -> Doubt | None:
    named = _BATCH.match(name) or _COMPACT.match(name)
    try:
        with location.fs.open_input_file(location.path("results", name)) as f:
            run = (pq.ParquetFile(f).schema_arrow.metadata or {}).get(RUN_KEY)
    except (pa.ArrowException, OSError):
        return None  # damaged: every read names it so
    if named is None:
        if run is None:  # written before parts carried their proofs (or by hand): read as it is
            return None
        return Doubt("foreign", "its name carries no checksum of its content, as every part ttr-lab writes does "
                                "(a renamed copy?)")
    if not _content_matches(location, name, named.group(0), named.group(1)):
        return Doubt("damaged", "its content does not match the checksum in its name (edited, or damaged)")
    if run is not None and run.decode("utf-8", "replace") not in runs:
        return Doubt("foreign", f"it holds games of another tournament (identity {run.decode('utf-8', 'replace')}, "
                                f"not this folder's {' or '.join(sorted(runs))})")
    return None


def _content_matches(location: Location, name: str, stem: str, checksum: str) -> bool:
    digest = content_digest()
    with location.fs.open_input_stream(location.path("results", name)) as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    if digest.hexdigest() == checksum:
        return True
    records = f"{stem}.jsonl.gz"  # a copy of a part is checked with its original's records
    if not location.exists("records", records):
        return False
    with location.fs.open_input_stream(location.path("records", records), compression=None) as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return bool(digest.hexdigest() == checksum)


_said: set[str] = set()


def say_not_counted(location: Location, name: str, doubt: Doubt) -> None:
    """One line on stderr, once a process, for a part a reader does not count."""
    path = location.path("results", name)
    if path in _said:
        return
    _said.add(path)
    print(f"results part {path} is not counted: {doubt.reason}; the tournament's next run sets it aside as "
          f"{name}.{doubt.kind}", file=sys.stderr, flush=True)
