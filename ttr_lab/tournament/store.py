"""Where a tournament's results live: an output folder of Parquet parts, written as batches
finish, each part written to a temporary name and renamed (so a crash never leaves half a part),
with the config and the package versions beside them.

    OUTPUT/config.yaml        the config as run (after command-line overrides)
    OUTPUT/meta.json          identity hash of the games, the game and its options, ttr-lab / Ray / Python versions
    OUTPUT/results/*.parquet  one row per player per game
    OUTPUT/records/*.jsonl.gz every game record, when asked for
    OUTPUT/.lock              held (flock) by the one run writing here

ttr-lab writes only into a new or empty folder, or one of its own results folders (it has
``meta.json``): it never overwrites a file it did not write. A part that cannot be read is set
aside as ``*.parquet.damaged`` (kept, never deleted) and its games are played again.
"""

from __future__ import annotations

import gzip
import json
import os
import platform
import time
from pathlib import Path
from typing import Any, Sequence

import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game
from ttr_lab.core.results import ResultRow, ResultsError, check_part, read_part, result_parts, rows_table, schema
from ttr_lab.tournament.config import TournamentConfig
from ttr_lab.tournament.lock import LOCK_NAME, FolderLock

# What a results folder may hold before its meta.json exists (a run killed while starting):
# meta.json is written before any result, so these folders are then empty (see _adoptable).
_OWN_BEFORE_META = {LOCK_NAME, "results", "records", "meta.json.tmp"}


def check_output_folder(folder: Path) -> None:
    """A folder ttr-lab may write results into, or a ConfigError saying why not."""
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"output {folder} is a file, not a folder; give a folder (--out)")
    if not folder.is_dir() or (folder / "meta.json").is_file():
        return
    foreign = sorted(p.name for p in folder.iterdir() if p.name not in _OWN_BEFORE_META)
    held = sorted(p.name for p in folder.iterdir() if p.name in ("results", "records") and not _adoptable(p))
    if held and not foreign:
        raise ConfigError(
            f"output folder {folder} holds {held[0]}/ but no meta.json, so nothing proves those games are this "
            "tournament's (copied from another run?); give a new or empty folder (--out)"
        )
    if foreign:
        shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
        raise ConfigError(
            f"output folder {folder} is not empty and is not a ttr-lab results folder (it holds {shown} and no "
            "meta.json); ttr-lab never writes over files it did not write: give a new or empty folder (--out)"
        )


def _adoptable(path: Path) -> bool:
    """A ``results``/``records`` entry that a run killed before its meta.json could have left: an
    empty folder, or one holding only half-written ``.tmp`` files."""
    return path.is_dir() and all(p.name.endswith(".tmp") for p in path.iterdir())


COMPACT_ROWS = 4_000_000  # a merged part stops growing at about a million four-player games
ROW_GROUP = 100_000
COMPACT_EVERY = 500  # batches' parts merged during a run


class ResultStore:
    """A tournament's results folder, locked for this run until ``close()``."""

    def __init__(self, folder: str | Path, config: TournamentConfig, game: Game) -> None:
        self.folder = Path(folder)
        self.schema = schema(game.metrics)
        self.results = self.folder / "results"
        self.records = self.folder / "records"
        self.config = config
        self.damaged: list[Path] = []  # parts set aside by completed_ids (their games are replayed)
        check_output_folder(self.folder)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"cannot create output folder {self.folder}: {exc.strerror}") from None
        self.lock = FolderLock(self.folder, f"tournament {config.name!r}").acquire()
        try:
            self._open()
        except BaseException:
            self.lock.release()
            raise
        self._parts = 0

    def _open(self) -> None:
        meta_file = self.folder / "meta.json"
        if meta_file.exists():
            try:
                meta = json.loads(meta_file.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise ConfigError(f"output folder {self.folder}: meta.json is unreadable ({exc}); give another "
                                  "output folder (--out)") from None
            if not isinstance(meta, dict) or "identity_hash" not in meta:
                raise ConfigError(f"output folder {self.folder} is not a tournament's results folder (its meta.json "
                                  "names no tournament); give another output folder (--out)")
            if meta.get("identity_hash") != self.config.identity_hash() and not self._same_when_revalidated():
                raise ConfigError(
                    f"output folder {self.folder} holds a different tournament (its games were defined by "
                    f"{self.folder / 'config.yaml'}); give another output folder (--out) or remove it"
                )
        self._write_meta()  # before any result: results without meta.json are never this run's
        self.results.mkdir(parents=True, exist_ok=True)
        if self.config.records:
            self.records.mkdir(parents=True, exist_ok=True)
        # Safe now that this run holds the lock: a .tmp can only be a dead run's half-written part.
        for stale in [*self.results.glob("*.tmp"), *self.records.glob("*.tmp")]:
            stale.unlink()
        for orphan in self.records.glob("*.jsonl.gz"):  # records whose results never landed
            if not (self.results / orphan.name.replace(".jsonl.gz", ".parquet")).exists():
                orphan.unlink()

    def _same_when_revalidated(self) -> bool:
        """Whether the folder's own config.yaml, checked as today's ttr-lab checks it, defines
        this tournament: a folder written before an entrant's identity was its validated
        parameters (defaults filled in) hashed the parameters as written, so its stored hash
        differs though the games are the same. Its stored rows keep their old ``params`` and
        ``params_hash``; the rows of the games played now carry the validated ones."""
        from ttr_lab.tournament.config import parse_config

        try:
            saved = parse_config(yaml.safe_load((self.folder / "config.yaml").read_text(encoding="utf-8")), "saved")
        except Exception:  # noqa: BLE001 - an unreadable or no longer valid config defines nothing
            return False
        return saved.identity_hash() == self.config.identity_hash()

    def close(self) -> None:
        self.lock.release()

    def _write_meta(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        from ttr_lab import __version__

        def installed(name: str) -> str | None:
            try:
                return version(name)
            except PackageNotFoundError:
                return None

        config = self.config.model_dump(mode="json")
        meta = {
            "identity_hash": self.config.identity_hash(),
            "identity": self.config.identity(),
            # The game as load_game rebuilds it: readers need no tournament-config shorthand.
            "game": {"name": self.config.game, "options": self.config.load_game().options},
            "ttr_lab_version": __version__,
            "ray_version": installed("ray"),
            "python_version": platform.python_version(),
            # The numbers in a report depend on these too (statistics, Parquet reading, validation,
            # the figures): every dependency pyproject.toml declares, and numpy beneath them.
            "package_versions": {name: installed(name) for name in (
                "numpy", "pandas", "scipy", "pyarrow", "networkx", "pydantic", "optuna", "matplotlib",
                "pyyaml", "typer", "rich")},
            "written": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        tmp = self.folder / "meta.json.tmp"
        tmp.write_text(json.dumps(meta, indent=1), encoding="utf-8")
        os.replace(tmp, self.folder / "meta.json")
        # After meta.json: a run killed between the two leaves a folder the next run adopts.
        (self.folder / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")

    def completed_ids(self) -> set[str]:
        """Game ids already stored (each game's rows are written together, in one part)."""
        done: set[str] = set()
        for part in result_parts(self.folder):
            try:
                # Every column, not just game_id: a part whose other pages are garbled must be
                # found now, when its games can still be replayed, not later by the report.
                done.update(check_part(part, read_part(part)).column("game_id").to_pylist())
            except ResultsError:
                self._set_aside(part)
        pa.default_memory_pool().release_unused()  # the parts were read whole (see compact)
        return done

    def _set_aside(self, part: Path) -> None:
        """Keep a damaged part out of every read (renamed, not deleted), and its records with it."""
        os.replace(part, part.with_name(part.name + ".damaged"))
        records = self.records / part.name.replace(".parquet", ".jsonl.gz")
        if records.exists():
            os.replace(records, records.with_name(records.name + ".damaged"))
        self.damaged.append(part)

    def compact(self, max_rows: int = COMPACT_ROWS, fresh_only: bool = False) -> int:
        """Merge the parts (and their records) into one, streaming, so that a long tournament
        stays a handful of files; parts already holding ``max_rows`` rows are left alone.
        Safe to interrupt at any point: the merged part is renamed into place before any
        source is deleted, and reads count a game once even while both exist. Returns how
        many parts were merged. ``fresh_only``: only parts written by batches (not earlier
        merges), which costs the same however long the run has been going."""
        parts = result_parts(self.folder)
        if fresh_only:
            small = [p for p in parts if not p.name.endswith("-compact.parquet")]
        else:
            small = [p for p in parts if pq.ParquetFile(p).metadata.num_rows < max_rows]
        if len(small) < 2:
            return 0
        name = f"part-{time.time_ns()}-{os.getpid()}-compact"
        sources = [self.records / p.name.replace(".parquet", ".jsonl.gz") for p in small]
        sources = [r for r in sources if r.exists()]
        if sources:  # gzip members concatenated are one valid gzip stream
            tmp = self.records / f"{name}.jsonl.gz.tmp"
            with open(tmp, "wb") as out:
                for r in sources:
                    with open(r, "rb") as f:
                        while chunk := f.read(1 << 20):
                            out.write(chunk)
            os.replace(tmp, self.records / f"{name}.jsonl.gz")
        tmp = self.results / f"{name}.parquet.tmp"
        with pq.ParquetWriter(tmp, self.schema) as writer:
            pending: list[pa.Table] = []
            rows = 0
            for part in small:
                table = read_part(part).cast(self.schema)
                pending.append(table)
                rows += table.num_rows
                if rows >= ROW_GROUP:
                    writer.write_table(pa.concat_tables(pending))
                    pending, rows = [], 0
            if pending:
                writer.write_table(pa.concat_tables(pending))
        os.replace(tmp, self.results / f"{name}.parquet")
        for part in small:
            part.unlink()
        for r in sources:
            r.unlink()
        # A merge holds up to a row group in Arrow's memory pool (about 50 MB for 100,000 rows),
        # which the pool keeps for reuse after it is freed: hand it back, or a long run's driver
        # grows by that at its first merge and never shrinks (measured: 151 -> 232 MB, then 156).
        pa.default_memory_pool().release_unused()
        return len(small)

    def append(self, rows: Sequence[ResultRow | dict[str, Any]], records: Sequence[str] = ()) -> None:
        """Store one finished batch: its rows (and records) become visible all at once. A row
        that does not hold exactly the table's columns is refused (ResultsError naming the
        column) before anything is written. Every
        ``COMPACT_EVERY`` parts, the batches' parts are merged, so that even a run killed
        after days leaves a few hundred files, not tens of thousands."""
        if not rows:
            return
        table = rows_table(rows, self.schema)
        if self._parts and self._parts % COMPACT_EVERY == 0:
            self.compact(fresh_only=True)
        name = f"part-{time.time_ns()}-{os.getpid()}-{self._parts}"
        self._parts += 1
        if records:
            tmp = self.records / f"{name}.jsonl.gz.tmp"
            with gzip.open(tmp, "wt", encoding="utf-8") as f:
                for line in records:
                    f.write(line + "\n")
            os.replace(tmp, self.records / f"{name}.jsonl.gz")
        tmp = self.results / f"{name}.parquet.tmp"
        pq.write_table(table, tmp)
        os.replace(tmp, self.results / f"{name}.parquet")
